//! Host code generation: LLVM IR text -> optimized native code in this process.
//!
//! The IR from `lower` is parsed, verified, optimized with LLVM's standard `default<O2>`
//! pipeline for the host CPU (so the `k.block` thread loops get vectorized for the
//! machine's vector width), and compiled to relocatable object files, which ORC's LLJIT
//! links into this process. Modules with several kernels are split into partitions that
//! compile on worker threads, one object each ([`partition`]). The objects are what the
//! on-disk cache ([`crate::cache`]) keeps: [`compile_ptx`] looks them up by the hash of
//! the lowered IR, the options and the target, and on a hit skips optimization and code
//! generation. The resulting [`HostModule`] owns the JIT; function and global addresses
//! stay valid until it is dropped.
//!
//! `PTX_COMPILE_TIMES=1` prints the time of each phase (per partition) to stderr.

mod lazy;
mod libcalls;
mod partition;
mod specialize;
mod vector_math;

use crate::cache::{self, Cache};
use crate::diag::Diagnostic;
use crate::host_abi::KernelFn;
use crate::lower::{GlobalMeta, KernelMeta, LoweredModule};
use crate::phase_clock::PhaseClock;
use inkwell::context::Context;
use inkwell::llvm_sys;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine};
use inkwell::OptimizationLevel;
use std::collections::HashMap;
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
    /// One GPU thread (`k.thread`), for kernels that run as fibers: only kernels with
    /// barriers that are not cut into regions have one.
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
    /// `k.region.S` for each state that has one (`target::host::has_own_loop`); these
    /// run the whole block (never masked).
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
    /// The number of object files (partitions compiled on separate threads) it links.
    pub partitions: usize,
    /// The kernels by the index their `lower::kernel_handle` holds (device-side launches
    /// name kernels by it).
    pub kernel_handles: Vec<String>,
    /// Set when the kernels compile one by one on first use ([`lazy`]); `kernels` is
    /// then empty: use [`HostModule::kernel`].
    lazy: Option<lazy::LazyKernels>,
    /// Launch-shape variants of the block kernels, compiled on request ([`specialize`]).
    variants: Option<specialize::Variants>,
    _jit: Jit,
}

impl HostModule {
    /// Whether kernels are compiled on first use.
    pub fn is_lazy(&self) -> bool {
        self.lazy.is_some()
    }

    /// The names of the module's kernels, in module order.
    pub fn kernel_names(&self) -> Vec<String> {
        match &self.lazy {
            Some(l) => l.metas.iter().map(|m| m.name.clone()).collect(),
            None => self.kernels.iter().map(|k| k.meta.name.clone()).collect(),
        }
    }

    /// Kernel `name` as far as is known without compiling it: its signature for a lazy
    /// module's kernel not compiled yet (barriers, `.local` bytes and regions unknown),
    /// else the compiled kernel's metadata.
    pub fn kernel_meta(&self, name: &str) -> Option<KernelMeta> {
        match &self.lazy {
            Some(l) => l.metas.iter().find(|m| m.name == name).cloned(),
            None => self.kernels.iter().find(|k| k.meta.name == name).map(|k| k.meta.clone()),
        }
    }

    /// Kernel `name` ready to run and the static `.shared` bytes it needs (the module's
    /// window, or for a lazy module the variables the kernel can reach), compiled now if
    /// the module is lazy and this is its first use. `Ok(None)`: no such kernel. One
    /// lookup and no copy of the kernel: launches call this.
    pub fn launchable(&self, name: &str) -> Result<Option<(Launchable<'_>, u64)>, HostError> {
        match &self.lazy {
            Some(l) => Ok(l.kernel(&self._jit, name)?.map(|(k, bytes)| (Launchable::Lazy(k), bytes))),
            None => Ok(self.kernels.iter().find(|k| k.meta.name == name).map(|k| (Launchable::Compiled(k), self.static_shared_bytes))),
        }
    }

    /// [`HostModule::launchable`]'s kernel, as a copy.
    pub fn kernel(&self, name: &str) -> Result<Option<HostKernel>, HostError> {
        Ok(self.launchable(name)?.map(|(k, _)| k.clone()))
    }
}

/// A kernel found by [`HostModule::launchable`]: borrowed from an eagerly compiled module,
/// or shared with a lazy module's table of compiled kernels.
pub enum Launchable<'a> {
    Compiled(&'a HostKernel),
    Lazy(std::sync::Arc<HostKernel>),
}

impl std::ops::Deref for Launchable<'_> {
    type Target = HostKernel;
    fn deref(&self) -> &HostKernel {
        match self {
            Launchable::Compiled(k) => k,
            Launchable::Lazy(k) => k,
        }
    }
}

// SAFETY: after construction the JIT is only touched to add a lazy kernel's object, under
// the lazy module's lock, and to be dropped; the JIT-compiled code and globals are plain
// memory usable from any thread.
unsafe impl Send for HostModule {}
unsafe impl Sync for HostModule {}

/// Options for host compilation.
#[derive(Clone, Debug)]
pub struct HostOptions {
    /// 0..=3, LLVM optimization level of the pass pipeline.
    pub opt_level: u32,
    /// Threads that optimize and generate code in parallel, each for a partition of the
    /// module's kernels; 0: `PTX_COMPILE_THREADS` from the environment, else one per core.
    pub threads: usize,
    /// See [`crate::lower::LowerOptions::lanemask_warnings`].
    pub lanemask_warnings: bool,
    /// Compile each kernel on first use instead of all at load ([`lazy`]): `Some` decides,
    /// `None` makes large modules lazy ([`lazy::lazy_by_default`]).
    pub lazy: Option<bool>,
}

impl Default for HostOptions {
    fn default() -> Self {
        HostOptions { opt_level: 2, threads: 0, lanemask_warnings: true, lazy: None }
    }
}

impl HostOptions {
    /// The number of compile threads these options ask for (at least 1).
    pub fn compile_threads(&self) -> usize {
        self.explicit_threads().unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_COMPILE_THREADS))
    }

    /// The thread count set by the options or `PTX_COMPILE_THREADS`. An explicit count
    /// splits every module with enough kernels; the automatic one only large modules.
    fn explicit_threads(&self) -> Option<usize> {
        if self.threads > 0 {
            return Some(self.threads.min(MAX_COMPILE_THREADS));
        }
        let env = std::env::var("PTX_COMPILE_THREADS").ok()?.trim().parse::<usize>().ok()?;
        (env > 0).then_some(env.min(MAX_COMPILE_THREADS))
    }
}

/// Each worker holds its own LLVM context and target machine: at most this many.
const MAX_COMPILE_THREADS: usize = 16;

/// Modules whose IR text is smaller than this compile on one thread: a worker's fixed
/// costs (its own parse of the module, a target machine) outweigh what it would save.
const MIN_SPLIT_IR_BYTES: usize = 64 << 10;

fn init_llvm() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        Target::initialize_native(&InitializationConfig::default()).expect("LLVM native target");
        vector_math::enabled();
    });
}

/// Parse, lower, optimize and JIT a PTX module for the host, using the on-disk cache the
/// environment configures ([`Cache::from_env`]).
pub fn compile_ptx(ptx: &str, options: &HostOptions) -> Result<HostModule, HostError> {
    compile_ptx_with_cache(ptx, options, Cache::from_env().as_ref())
}

/// [`compile_ptx`] with an explicit cache (`None`: no cache).
/// The parser's and the lowering's warnings end up in [`HostModule::warnings`]; on an
/// error every diagnostic is in the [`HostError::Ptx`] list.
pub fn compile_ptx_with_cache(ptx: &str, options: &HostOptions, cache: Option<&Cache>) -> Result<HostModule, HostError> {
    let (ast, mut warnings) = crate::ptx::parser::parse_with_warnings(ptx);
    let ast = ast.ok_or_else(|| HostError::Ptx(warnings.clone()))?;
    if options.lazy.unwrap_or_else(|| lazy::lazy_by_default(ptx.len())) {
        match lazy::compile(ast.clone(), warnings.clone(), options, cache) {
            // Variables holding kernel addresses need the eager compile below.
            Err(HostError::Llvm(why)) if why.starts_with("lazy compile:") => {}
            other => {
                return other.map(|mut module| {
                    module.kernel_handles = crate::lower::kernel_handle_names(&ast);
                    module
                })
            }
        }
    }
    let lower_options = crate::lower::LowerOptions { lanemask_warnings: options.lanemask_warnings };
    let mut lowered = crate::lower::lower_module_with(&ast, &crate::target::host::HostTarget, &lower_options).map_err(|mut e| {
        warnings.append(&mut e);
        HostError::Ptx(warnings.clone())
    })?;
    warnings.append(&mut lowered.warnings);
    lowered.warnings = warnings;
    let mut module = compile_with(lowered, options, cache)?;
    module.kernel_handles = crate::lower::kernel_handle_names(&ast);
    // Keep the PTX for launch-shape variants only where some kernel runs as `k.block`.
    if module.kernels.iter().any(|k| k.block_fn.is_some()) {
        let lower_options = crate::lower::LowerOptions { lanemask_warnings: false };
        module.variants = Some(specialize::Variants::new(Some(ptx.into()), options.opt_level.min(3), lower_options, cache.cloned()));
    }
    Ok(module)
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
    let key = cache.map(|_| object_cache_key(&tm, opt, b"cuda-cpu host object", &lowered.ir));
    if let (Some(c), Some(k)) = (cache, &key) {
        if let Some(entry) = c.load(k) {
            // An entry that does not link (damaged, or from an incompatible build) is
            // replaced by a fresh compile.
            if let Some(Ok(m)) = cache::unpack_objects(&entry).map(|objects| link(&lowered, &objects, true)) {
                return Ok(m);
            }
        }
    }
    let min_split = if options.explicit_threads().is_some() { 0 } else { MIN_SPLIT_IR_BYTES };
    let objects = codegen_parallel(&lowered, &tm, opt, options.compile_threads(), min_split)?;
    if let (Some(c), Some(k)) = (cache, &key) {
        c.store(k, &cache::pack_objects(&objects));
    }
    let mut clock = PhaseClock::start("");
    let slices: Vec<&[u8]> = objects.iter().map(Vec::as_slice).collect();
    let m = link(&lowered, &slices, false);
    clock.phase("link");
    m
}

/// The disk-cache key of machine code generated from `ir` (of kind `what`) for `tm`.
fn object_cache_key(tm: &TargetMachine, opt: u32, what: &[u8], ir: &str) -> cache::Key {
    let triple = tm.get_triple();
    let cpu = tm.get_cpu();
    let features = feature_string(tm);
    cache::key(&[
        what,
        env!("CARGO_PKG_VERSION").as_bytes(),
        &cache::CODEGEN_VERSION.to_le_bytes(),
        &llvm_version(),
        triple.as_str().to_bytes(),
        cpu.to_bytes(),
        &features,
        &opt.to_le_bytes(),
        &[u8::from(vector_math::enabled())],
        ir.as_bytes(),
    ])
}

/// `tm`'s feature string. Not inkwell's `get_feature_string`, which borrows the copy that
/// `LLVMGetTargetMachineFeatureString` hands over and never frees it.
fn feature_string(tm: &TargetMachine) -> Vec<u8> {
    // SAFETY: a live target machine; the string it returns is ours, copied then disposed.
    unsafe {
        let raw = llvm_sys::target_machine::LLVMGetTargetMachineFeatureString(tm.as_mut_ptr());
        let features = CStr::from_ptr(raw).to_bytes().to_vec();
        llvm_sys::core::LLVMDisposeMessage(raw);
        features
    }
}

/// Compiles `lowered` into object files: one, or one per partition of its kernels on up
/// to `threads` threads (see [`partition`]) when its IR has at least `min_split` bytes.
fn codegen_parallel(lowered: &LoweredModule, tm: &TargetMachine, opt: u32, threads: usize, min_split: usize) -> Result<Vec<Vec<u8>>, HostError> {
    let names: Vec<&str> = lowered.kernels.iter().map(|k| k.name.as_str()).collect();
    let (part, parts) = if threads > 1 && lowered.ir.len() >= min_split { partition::assign(&lowered.ir, &names, threads) } else { (Vec::new(), 1) };
    if parts == 1 {
        return Ok(vec![codegen(&lowered.ir, tm, opt, None)?]);
    }
    let owner: HashMap<String, usize> = names.iter().zip(&part).map(|(n, &p)| (n.to_string(), p)).collect();
    let index = partition::IrIndex::new(&lowered.ir);
    let (owner, index) = (&owner, &index);
    let ir = lowered.ir.as_str();
    std::thread::scope(|s| {
        let workers: Vec<_> = (1..parts)
            .map(|p| {
                std::thread::Builder::new()
                    .name(format!("ptx-codegen-{p}"))
                    // LLVM recurses on large functions; give it what a main thread has.
                    .stack_size(16 << 20)
                    .spawn_scoped(s, move || codegen(ir, &host_machine(opt)?, opt, Some(Part { index: p, owner, ir: index })))
                    .map_err(|e| HostError::Llvm(format!("cannot start a compile thread: {e}")))
            })
            .collect();
        let mut objects = vec![codegen(ir, tm, opt, Some(Part { index: 0, owner, ir: index }))];
        for w in workers {
            objects.push(w.and_then(|h| h.join().unwrap_or_else(|p| std::panic::resume_unwind(p))));
        }
        objects.into_iter().collect()
    })
}

/// Looks up the entry points the lowering emitted for kernel `meta` in `jit`.
fn entry_points(jit: &Jit, meta: &KernelMeta) -> Result<HostKernel, HostError> {
    let thread = if meta.uses_barrier && meta.regions.is_none() { Some(lookup_fn(jit, &format!("{}.thread", meta.name))?) } else { None };
    let block = if meta.uses_barrier { None } else { Some(lookup_fn(jit, &format!("{}.block", meta.name))?) };
    let regions = match &meta.regions {
        Some(r) => {
            let region = |name: String| -> Result<crate::host_abi::RegionFn, HostError> {
                let f = lookup_fn(jit, &name)?;
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
    Ok(HostKernel { meta: meta.clone(), thread_fn: thread, block_fn: block, regions })
}

/// One partition of a module compiled on its own thread.
struct Part<'a> {
    index: usize,
    /// The partition of each kernel, by name.
    owner: &'a HashMap<String, usize>,
    ir: &'a partition::IrIndex<'a>,
}

/// Links `objects` into a new JIT and finds the kernels and globals `lowered` declares.
fn link(lowered: &LoweredModule, objects: &[&[u8]], from_cache: bool) -> Result<HostModule, HostError> {
    let jit = Jit::new()?;
    for object in objects {
        jit.add_object(object)?;
    }
    let mut kernels = Vec::new();
    for meta in &lowered.kernels {
        kernels.push(entry_points(&jit, meta)?);
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
        partitions: objects.len(),
        kernel_handles: Vec::new(),
        lazy: None,
        variants: None,
        _jit: jit,
    })
}

/// Parses, verifies and optimizes `ir`, and generates a relocatable object for `tm`:
/// everything, or only one partition of the kernels (see [`partition`]).
fn codegen(ir: &str, tm: &TargetMachine, opt: u32, part: Option<Part>) -> Result<Vec<u8>, HostError> {
    let label = part.as_ref().map_or(String::new(), |p| format!("[{}] ", p.index));
    let mut clock = PhaseClock::start(label.as_str());
    let context = Context::create();
    let parse = |text: &str| {
        let buf = MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "ptx");
        context.create_module_from_ir(buf).map_err(|e| HostError::Llvm(format!("IR parse: {e}")))
    };
    let module = match &part {
        // The partition's share of the text; the whole module should that not parse (the
        // split of the text is an optimization, `strip` is what makes the partition).
        Some(p) => parse(&p.ir.text_for(p.index, p.owner)).or_else(|e| {
            if crate::phase_clock::wanted() {
                eprintln!("  {label}the partition's text does not parse ({e}); parsing the whole module");
            }
            parse(ir)
        })?,
        None => parse(ir)?,
    };
    clock.phase("IR parse");
    if let Some(p) = &part {
        // SAFETY: the module is this thread's own.
        unsafe { partition::strip(module.as_mut_ptr(), p.index, p.owner) };
        clock.phase("split");
    }
    module.verify().map_err(|e| HostError::Llvm(format!("IR verify: {e}")))?;
    clock.phase("verify");
    module.set_triple(&tm.get_triple());
    module.set_data_layout(&tm.get_target_data().get_data_layout());
    crate::target::host::probe_stacks(&module);
    // Drop what this partition does not reach before anything optimizes it.
    let pipeline = format!("globaldce,default<O{opt}>");
    module.run_passes(&pipeline, tm, PassBuilderOptions::create()).map_err(|e| HostError::Llvm(format!("optimize: {e}")))?;
    clock.phase("optimize");
    if std::env::var_os("PTX_DUMP_OPT_IR").is_some() {
        eprintln!("{}", module.print_to_string().to_string());
    }
    let object = tm.write_to_memory_buffer(&module, FileType::Object).map_err(|e| HostError::Llvm(format!("codegen: {e}")))?;
    clock.phase("codegen");
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
            // Defined here, they win over the process's (the generator is asked only for
            // names the dylib does not define).
            let mut helpers: Vec<LLVMOrcCSymbolMapPair> = libcalls::all()
                .into_iter()
                .map(|(name, address)| LLVMOrcCSymbolMapPair {
                    Name: LLVMOrcLLJITMangleAndIntern(j, name.as_ptr()),
                    Sym: LLVMJITEvaluatedSymbol {
                        Address: address,
                        Flags: LLVMJITSymbolFlags {
                            GenericFlags: LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsExported as u8
                                | LLVMJITSymbolGenericFlags::LLVMJITSymbolGenericFlagsCallable as u8,
                            TargetFlags: 0,
                        },
                    },
                })
                .collect();
            let unit = LLVMOrcAbsoluteSymbols(helpers.as_mut_ptr(), helpers.len());
            check(LLVMOrcJITDylibDefine(LLVMOrcLLJITGetMainJITDylib(j), unit), "run-time helpers")?;
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
    // 256-bit vectors even where the CPU has 512-bit ones: LLVM already prefers them for
    // Intel's AVX-512 parts but not for AMD's Zen 4, which splits 512-bit operations in
    // two. Measured on Zen 4 (cpu-bench, low load): SGEMM 1.3x and saxpy 1.2x faster,
    // the stencil unchanged.
    let features = format!("{},+prefer-256-bit", TargetMachine::get_host_cpu_features().to_string());
    target
        .create_target_machine(&triple, &cpu, &features, jit_level(opt), RelocMode::PIC, CodeModel::Small)
        .ok_or_else(|| HostError::Llvm("cannot create a target machine for the host".into()))
}
