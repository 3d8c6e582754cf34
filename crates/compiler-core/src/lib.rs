//! compiler-core: PTX in, host (and later AMDGPU) machine code out.
//!
//! Pipeline: [`ptx::parse`] (text -> [`ptx::ast::Module`], diagnostics with spans)
//! -> `lower` (AST -> LLVM IR in the host form) -> `host` (JIT for the CPU device).

pub mod diag;
pub mod ptx;
