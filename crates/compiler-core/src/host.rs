//! Host code generation: LLVM IR text -> optimized native code in this process.
//!
//! The IR from `lower` is parsed, verified, optimized with LLVM's standard `default<O2>`
//! pipeline for the host CPU (so the `k.block` thread loops get vectorized for the
//! machine's vector width), and compiled to a relocatable object file, which ORC's LLJIT
//! links into this process. The object is what the on-disk cache ([`crate::cache`])
//! keeps: [`compile_ptx`] looks it up by the hash of the lowered IR, the options and the
//! target, and on a hit skips optimization and code generation. The resulting
//! [`HostModule`] owns the JIT; function and global addresses stay valid until it is
//! dropped.

use crate::cache::{self, Cache};
use crate::diag::Diagnostic;
use crate::host_abi::KernelFn;
use crate::lower::{GlobalMeta, KernelMeta, LoweredModule};
use inkwell::context::Context;
use inkwell::llvm_sys;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::OptimizationLevel;
use std::ffi::{CStr, CString};
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
    /// One GPU thread (`k.thread`); absent for kernels cut into barrier regions.
    pub thread_fn: Option<KernelFn>,
    /// All threads of a block as a loop (`k.block`), for kernels without barriers.
    pub block_fn: Option<KernelFn>,
    /// The barrier-region fast path, for kernels whose barriers allow it.
    pub regions: Option<HostRegions>,
}

/// A kernel cut at its barriers (see `lower::regions`).
#[derive(Clone, Debug)]
pub struct HostRegions {
    /// `k.region`: dispatches on the state; also runs the masked (divergent) case.
    pub run: crate::host_abi::RegionFn,
    /// `k.region.S` for each state that has one (`target::host::has_own_loop`).
    pub by_state: Vec<Option<crate::host_abi::RegionFn>>,
    pub save_bytes_per_thread: usize,
    /// How the runtime schedules each state (index = state).
    pub kinds: Vec<crate::lower::StateKind>,
    /// Where split warp collectives exchange their values, if the kernel has any.
    pub warp_exchange: Option<crate::lower::WarpExchangeMeta>,
}

/// A compiled PTX module. Owns the JIT; kernels and globals are valid while it lives.
pub struct HostModule {
    pub kernels: Vec<HostKernel>,
    /// `(meta, address)` of each `.global`/`.const` variable.
    pub globals: Vec<(GlobalMeta, u64)>,
    pub static_shared_bytes: u64,
    pub warnings: Vec<Diagnostic>,
    /// Whether the machine code came from the on-disk cache.
    pub from_cache: bool,
    _jit: Jit,
}

// SAFETY: after construction the JIT is never touched again except to be dropped; the
// JIT-compiled code and globals are plain memory usable from any thread.
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

/// Parse, lower, optimize and JIT a PTX module for the host, using the on-disk cache the
/// environment configures ([`Cache::from_env`]).
pub fn compile_ptx(ptx: &str, options: &HostOptions) -> Result<HostModule, HostError> {
    compile_ptx_with_cache(ptx, options, Cache::from_env().as_ref())
}

/// [`compile_ptx`] with an explicit cache (`None`: no cache).
pub fn compile_ptx_with_cache(ptx: &str, options: &HostOptions, cache: Option<&Cache>) -> Result<HostModule, HostError> {
    let ast = crate::ptx::parse(ptx).map_err(HostError::Ptx)?;
    let lowered = crate::lower::lower_module(&ast).map_err(HostError::Ptx)?;
    compile_with(lowered, options, cache)
}

/// JIT an already lowered module (no cache).
pub fn compile_lowered(lowered: LoweredModule, options: &HostOptions) -> Result<HostModule, HostError> {
    compile_with(lowered, options, None)
}

fn compile_with(lowered: LoweredModule, options: &HostOptions, cache: Option<&Cache>) -> Result<HostModule, HostError> {
    init_llvm();
    if std::env::var_os("PTX_DUMP_IR").is_some() {
        eprintln!("{}", lowered.ir);
    }
    let opt = options.opt_level.min(3);
    let tm = host_machine(opt)?;
    let key = cache.map(|_| {
        let triple = tm.get_triple();
        let cpu = tm.get_cpu();
        let features = tm.get_feature_string();
        cache::key(&[
            b"cuda-cpu host object",
            env!("CARGO_PKG_VERSION").as_bytes(),
            &cache::CODEGEN_VERSION.to_le_bytes(),
            &llvm_version(),
            triple.as_str().to_bytes(),
            cpu.to_bytes(),
            features.to_bytes(),
            &opt.to_le_bytes(),
            lowered.ir.as_bytes(),
        ])
    });
    if let (Some(c), Some(k)) = (cache, &key) {
        if let Some(object) = c.load(k) {
            // An entry that does not link (damaged, or from an incompatible build) is
            // replaced by a fresh compile.
            if let Ok(m) = link(&lowered, &object, true) {
                return Ok(m);
            }
        }
    }
    let object = codegen(&lowered.ir, &tm, opt)?;
    if let (Some(c), Some(k)) = (cache, &key) {
        c.store(k, &object);
    }
    link(&lowered, &object, false)
}

/// Links `object` into a new JIT and finds the kernels and globals `lowered` declares.
fn link(lowered: &LoweredModule, object: &[u8], from_cache: bool) -> Result<HostModule, HostError> {
    let jit = Jit::new()?;
    jit.add_object(object)?;
    let mut kernels = Vec::new();
    for meta in &lowered.kernels {
        let thread = if meta.regions.is_some() { None } else { Some(lookup_fn(&jit, &format!("{}.thread", meta.name))?) };
        let block = if meta.uses_barrier { None } else { Some(lookup_fn(&jit, &format!("{}.block", meta.name))?) };
        let regions = match &meta.regions {
            Some(r) => {
                let region = |name: String| -> Result<crate::host_abi::RegionFn, HostError> {
                    let f = lookup_fn(&jit, &name)?;
                    // SAFETY: `k.region` and `k.region.S` are emitted with the `RegionFn`
                    // signature.
                    Ok(unsafe { std::mem::transmute::<KernelFn, crate::host_abi::RegionFn>(f) })
                };
                let run = region(format!("{}.region", meta.name))?;
                let by_state = (0..=r.sites)
                    .map(|st| crate::target::host::has_own_loop(r, st).then(|| region(format!("{}.region.{st}", meta.name))).transpose())
                    .collect::<Result<Vec<_>, _>>()?;
                Some(HostRegions {
                    run,
                    by_state,
                    save_bytes_per_thread: r.save_bytes_per_thread as usize,
                    kinds: r.kinds.clone(),
                    warp_exchange: r.warp_exchange,
                })
            }
            None => None,
        };
        kernels.push(HostKernel { meta: meta.clone(), thread_fn: thread, block_fn: block, regions });
    }
    let mut globals = Vec::new();
    for g in &lowered.globals {
        let addr = jit.lookup(&g.symbol)?;
        globals.push((g.clone(), addr));
    }
    Ok(HostModule {
        kernels,
        globals,
        static_shared_bytes: lowered.static_shared_bytes,
        warnings: lowered.warnings.clone(),
        from_cache,
        _jit: jit,
    })
}

/// Parses, verifies and optimizes `ir`, and generates a relocatable object for `tm`.
fn codegen(ir: &str, tm: &TargetMachine, opt: u32) -> Result<Vec<u8>, HostError> {
    let context = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "ptx");
    let module = context.create_module_from_ir(buf).map_err(|e| HostError::Llvm(format!("IR parse: {e}")))?;
    module.verify().map_err(|e| HostError::Llvm(format!("IR verify: {e}")))?;
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    let pipeline = format!("default<O{opt}>");
    module
        .run_passes(&pipeline, tm, PassBuilderOptions::create())
        .map_err(|e| HostError::Llvm(format!("optimize: {e}")))?;
    if std::env::var_os("PTX_DUMP_OPT_IR").is_some() {
        eprintln!("{}", module.print_to_string().to_string());
    }
    let object = tm.write_to_memory_buffer(&module, FileType::Object).map_err(|e| HostError::Llvm(format!("codegen: {e}")))?;
    Ok(object.as_slice().to_vec())
}

fn llvm_version() -> [u8; 12] {
    let (mut major, mut minor, mut patch) = (0u32, 0u32, 0u32);
    // SAFETY: three valid out-pointers.
    unsafe { llvm_sys::core::LLVMGetVersion(&mut major, &mut minor, &mut patch) };
    let mut v = [0u8; 12];
    v[..4].copy_from_slice(&major.to_le_bytes());
    v[4..8].copy_from_slice(&minor.to_le_bytes());
    v[8..].copy_from_slice(&patch.to_le_bytes());
    v
}

/// An ORC LLJIT instance that links object files into this process; dropping it frees
/// their code and data.
struct Jit(llvm_sys::orc2::lljit::LLVMOrcLLJITRef);

/// Turns an `LLVMErrorRef` into a result.
///
/// # Safety
/// `err` is null or an error LLVM handed over (consumed here).
unsafe fn check(err: llvm_sys::error::LLVMErrorRef, what: &str) -> Result<(), HostError> {
    if err.is_null() {
        return Ok(());
    }
    // SAFETY: a live error; the message is disposed after copying.
    unsafe {
        let msg = llvm_sys::error::LLVMGetErrorMessage(err);
        let text = CStr::from_ptr(msg).to_string_lossy().into_owned();
        llvm_sys::error::LLVMDisposeErrorMessage(msg);
        Err(HostError::Llvm(format!("{what}: {text}")))
    }
}

impl Jit {
    fn new() -> Result<Jit, HostError> {
        use llvm_sys::orc2::{lljit::*, *};
        // SAFETY: plain ORC C API calls; ownership of the generator passes to the dylib.
        unsafe {
            let mut j = std::ptr::null_mut();
            check(LLVMOrcCreateLLJIT(&mut j, std::ptr::null_mut()), "create LLJIT")?;
            let jit = Jit(j);
            let mut generator = std::ptr::null_mut();
            check(
                LLVMOrcCreateDynamicLibrarySearchGeneratorForProcess(&mut generator, LLVMOrcLLJITGetGlobalPrefix(j), None, std::ptr::null_mut()),
                "process symbols",
            )?;
            LLVMOrcJITDylibAddGenerator(LLVMOrcLLJITGetMainJITDylib(j), generator);
            Ok(jit)
        }
    }

    fn add_object(&self, object: &[u8]) -> Result<(), HostError> {
        use llvm_sys::orc2::lljit::*;
        // SAFETY: the buffer is a copy whose ownership passes to LLJIT.
        unsafe {
            let buf = llvm_sys::core::LLVMCreateMemoryBufferWithMemoryRangeCopy(object.as_ptr().cast(), object.len(), c"kernels.o".as_ptr());
            check(LLVMOrcLLJITAddObjectFile(self.0, LLVMOrcLLJITGetMainJITDylib(self.0), buf), "add object")
        }
    }

    /// The address of `name`, materializing (linking) the object on first use.
    fn lookup(&self, name: &str) -> Result<u64, HostError> {
        let cname = CString::new(name).map_err(|e| HostError::Llvm(e.to_string()))?;
        let mut addr = 0;
        // SAFETY: a live JIT and a NUL-terminated name.
        unsafe { check(llvm_sys::orc2::lljit::LLVMOrcLLJITLookup(self.0, &mut addr, cname.as_ptr()), &format!("symbol {name}"))? };
        if addr == 0 {
            return Err(HostError::Llvm(format!("symbol {name} has no address")));
        }
        Ok(addr)
    }
}

impl Drop for Jit {
    fn drop(&mut self) {
        // SAFETY: created by LLVMOrcCreateLLJIT, disposed once.
        unsafe {
            let err = llvm_sys::orc2::lljit::LLVMOrcDisposeLLJIT(self.0);
            let _ = check(err, "dispose LLJIT");
        }
    }
}

fn lookup_fn(jit: &Jit, name: &str) -> Result<KernelFn, HostError> {
    let addr = jit.lookup(name)?;
    // SAFETY: the lowering emits `name` with exactly the `KernelFn` signature.
    Ok(unsafe { std::mem::transmute::<usize, KernelFn>(addr as usize) })
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
        .create_target_machine(&triple, &cpu, &features, jit_level(opt), RelocMode::PIC, CodeModel::Small)
        .ok_or_else(|| HostError::Llvm("cannot create a target machine for the host".into()))
}
