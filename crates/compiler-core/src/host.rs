//! Host code generation: LLVM IR text -> optimized native code in this process.
//!
//! The IR from `lower` is parsed, verified, optimized with LLVM's standard `default<O2>`
//! pipeline for the host CPU (so the `k.block` thread loops get vectorized for the
//! machine's vector width), and JIT-compiled with MCJIT. The resulting [`HostModule`] owns
//! the LLVM context and engine; function addresses stay valid until it is dropped.

use crate::diag::Diagnostic;
use crate::host_abi::KernelFn;
use crate::lower::{GlobalMeta, KernelMeta, LoweredModule};
use inkwell::context::Context;
use inkwell::execution_engine::ExecutionEngine;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::OptimizationLevel;
use std::sync::Once;

/// Why host code generation failed. On valid PTX this is a bug in the lowering.
#[derive(Debug, thiserror::Error)]
pub enum HostError {
    #[error("invalid PTX:\n{}", crate::diag::render(.0))]
    Ptx(Vec<Diagnostic>),
    #[error("internal compiler error: {0}")]
    Llvm(String),
}

/// A kernel ready to run.
#[derive(Clone, Debug)]
pub struct HostKernel {
    pub meta: KernelMeta,
    /// One GPU thread (`k.thread`).
    pub thread_fn: KernelFn,
    /// All threads of a block as a loop (`k.block`), for kernels without barriers.
    pub block_fn: Option<KernelFn>,
}

/// A compiled PTX module. Owns the JIT; kernels and globals are valid while it lives.
pub struct HostModule {
    pub kernels: Vec<HostKernel>,
    /// `(meta, address)` of each `.global`/`.const` variable.
    pub globals: Vec<(GlobalMeta, u64)>,
    pub static_shared_bytes: u64,
    pub warnings: Vec<Diagnostic>,
    // Field order matters: the engine must be dropped before the context it borrows.
    _engine: ExecutionEngine<'static>,
    _context: Box<Context>,
}

// SAFETY: after construction the LLVM objects are never touched again except to be
// dropped; the JIT-compiled code and globals are plain memory usable from any thread.
unsafe impl Send for HostModule {}
unsafe impl Sync for HostModule {}

/// Options for host compilation.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// 0..=3, LLVM optimization level of the pass pipeline.
    pub opt_level: u32,
}

impl Default for HostOptions {
    fn default() -> Self {
        HostOptions { opt_level: 2 }
    }
}

fn init_llvm() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        Target::initialize_native(&InitializationConfig::default()).expect("LLVM native target");
    });
}

/// Parse, lower, optimize and JIT a PTX module for the host.
pub fn compile_ptx(ptx: &str, options: &HostOptions) -> Result<HostModule, HostError> {
    let ast = crate::ptx::parse(ptx).map_err(HostError::Ptx)?;
    let lowered = crate::lower::lower_module(&ast).map_err(HostError::Ptx)?;
    compile_lowered(lowered, options)
}

/// JIT an already lowered module.
pub fn compile_lowered(lowered: LoweredModule, options: &HostOptions) -> Result<HostModule, HostError> {
    init_llvm();
    if std::env::var_os("PTX_DUMP_IR").is_some() {
        eprintln!("{}", lowered.ir);
    }
    let context = Box::new(Context::create());
    // SAFETY: the context is boxed (stable address) and outlives the engine and module:
    // `HostModule` drops `_engine` before `_context`.
    let ctx: &'static Context = unsafe { &*(context.as_ref() as *const Context) };
    let buf = MemoryBuffer::create_from_memory_range_copy(lowered.ir.as_bytes(), "ptx");
    let module = ctx.create_module_from_ir(buf).map_err(|e| HostError::Llvm(format!("IR parse: {e}")))?;
    module.verify().map_err(|e| HostError::Llvm(format!("IR verify: {e}")))?;
    let tm = host_machine(options.opt_level)?;
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    let pipeline = format!("default<O{}>", options.opt_level.min(3));
    module
        .run_passes(&pipeline, &tm, PassBuilderOptions::create())
        .map_err(|e| HostError::Llvm(format!("optimize: {e}")))?;
    if std::env::var_os("PTX_DUMP_OPT_IR").is_some() {
        eprintln!("{}", module.print_to_string().to_string());
    }
    let engine = module
        .create_jit_execution_engine(jit_level(options.opt_level))
        .map_err(|e| HostError::Llvm(format!("JIT: {e}")))?;
    let mut kernels = Vec::new();
    for meta in lowered.kernels {
        let thread = lookup_fn(&engine, &format!("{}.thread", meta.name))?;
        let block = if meta.uses_barrier { None } else { Some(lookup_fn(&engine, &format!("{}.block", meta.name))?) };
        kernels.push(HostKernel { meta, thread_fn: thread, block_fn: block });
    }
    let mut globals = Vec::new();
    for g in lowered.globals {
        let name = std::ffi::CString::new(g.symbol.as_str()).map_err(|e| HostError::Llvm(e.to_string()))?;
        // SAFETY: the engine is live and `name` is NUL-terminated.
        let addr = unsafe { inkwell::llvm_sys::execution_engine::LLVMGetGlobalValueAddress(engine.as_mut_ptr(), name.as_ptr()) };
        if addr == 0 {
            return Err(HostError::Llvm(format!("global {} has no address", g.symbol)));
        }
        globals.push((g, addr));
    }
    drop(module);
    Ok(HostModule {
        kernels,
        globals,
        static_shared_bytes: lowered.static_shared_bytes,
        warnings: lowered.warnings,
        _engine: engine,
        _context: context,
    })
}

fn lookup_fn(engine: &ExecutionEngine<'static>, name: &str) -> Result<KernelFn, HostError> {
    let addr = engine.get_function_address(name).map_err(|e| HostError::Llvm(format!("function {name}: {e:?}")))?;
    // SAFETY: the lowering emits `name` with exactly the `KernelFn` signature.
    Ok(unsafe { std::mem::transmute::<usize, KernelFn>(addr) })
}

fn jit_level(l: u32) -> OptimizationLevel {
    match l {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    }
}

fn host_machine(opt: u32) -> Result<TargetMachine, HostError> {
    let triple = TargetMachine::get_default_triple();
    let target = Target::from_triple(&triple).map_err(|e| HostError::Llvm(e.to_string()))?;
    let cpu = TargetMachine::get_host_cpu_name().to_string();
    let features = TargetMachine::get_host_cpu_features().to_string();
    target
        .create_target_machine(&triple, &cpu, &features, jit_level(opt), RelocMode::Default, CodeModel::JITDefault)
        .ok_or_else(|| HostError::Llvm("cannot create a target machine for the host".into()))
}
