//! compiler-core: PTX in, host (and later AMDGPU) machine code out.
//!
//! Pipeline: [`ptx::parse`] (text -> [`ptx::ast::Module`], diagnostics with spans)
//! -> [`lower::lower_module`] (AST -> LLVM IR text in the host form, see [`host_abi`])
//! -> [`host::compile_lowered`] (optimize and JIT for the CPU device).
//!
//! Invariant: nothing here knows about the CUDA driver API or any runtime; the only
//! contract with the CPU runtime is [`host_abi`].

pub mod cache;
pub mod devrt;
pub mod diag;
pub mod host;
pub mod host_abi;
pub mod link;
pub mod lower;
pub mod matrix_abi;
mod phase_clock;
pub mod ptx;
pub mod target;
pub mod texture_abi;
