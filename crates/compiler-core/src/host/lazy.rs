//! Compiling a module's kernels one at a time, when first asked for.
//!
//! Libraries ship large PTX modules of which a program uses a few kernels: CuPy's CUB
//! module is 22 MB of PTX with hundreds of kernels (93 MB of lowered IR), and compiling
//! all of it at load takes many minutes on two cores. A lazy module parses the whole PTX
//! at load (so syntax errors still fail the load) and compiles only its module variables
//! then; each kernel is lowered and compiled when [`HostModule::kernel`] first asks for
//! it, together with the functions it can reach.
//!
//! One JIT holds all of it. The first object defines the module variables (and whatever
//! their initializers point to); each kernel's object declares them and defines its own
//! entry points, with private copies of the internal functions it calls (see
//! [`super::partition`]: a kernel object is "partition 1" of a one-kernel module). The
//! code a kernel runs is the same as in an eager compile; only when it is compiled
//! differs. A kernel whose lowering fails reports the error then (the module stays usable
//! for its other kernels).

use super::{codegen, entry_points, host_machine, object_cache_key, partition, HostError, HostKernel, HostModule, HostOptions, Jit, Part};
use crate::cache::{self, Cache};
use crate::lower::{kernel_signature, lower_module_subset, KernelMeta, LowerOptions};
use crate::ptx::ast::*;
use crate::target::host::HostTarget;
use std::collections::HashMap;
use std::sync::{Arc, Mutex};

/// PTX modules at least this large compile lazily unless the options say otherwise.
pub(crate) const LAZY_MIN_PTX_BYTES: usize = 2 << 20;
/// Whether a module of `ptx_bytes` bytes compiles lazily when the options do not say.
///
/// NVIDIA's driver loads every module lazily by default since CUDA 12.2, and NVIDIA's
/// libraries ship modules of up to 144 kernels in well under 2 MiB, of which a call uses
/// one or two (`docs/corpus/nvidia-libs.md`: first calls 5 to 10 times faster lazily). A
/// rule by kernel count waits on a bug of lazy compiles: a kernel that reaches another
/// kernel (a device-side launch, `ctests/dynamic_parallelism.cu`; `warp_matrix.cu`'s
/// `mma_kernel`) defines that kernel's entry points in its own object, and compiling the
/// other kernel later defines them again ("Duplicate definition of symbol").
pub(crate) fn lazy_by_default(ptx_bytes: usize) -> bool {
    ptx_bytes >= LAZY_MIN_PTX_BYTES
}

/// Kernels compiled so far with their static shared-memory bytes (or the error their
/// compile gave), by name.
type Compiled = HashMap<String, Result<(Arc<HostKernel>, u64), String>>;

/// The part of a lazy [`HostModule`] that compiles kernels on demand.
pub(crate) struct LazyKernels {
    pub(crate) ast: Module,
    /// Each kernel's signature, in module order.
    pub(crate) metas: Vec<KernelMeta>,
    opt: u32,
    lower_options: LowerOptions,
    cache: Option<Cache>,
    /// Kernels compiled so far with their static shared-memory bytes (or the error their
    /// compile gave).
    compiled: Mutex<Compiled>,
}

/// Parses nothing more: `ast` is the parsed module. Compiles its variables and returns a
/// module whose kernels compile on first use.
pub(crate) fn compile(
    ast: Module,
    warnings: Vec<crate::diag::Diagnostic>,
    options: &HostOptions,
    cache: Option<&Cache>,
) -> Result<HostModule, HostError> {
    super::init_llvm();
    let lower_options = LowerOptions { lanemask_warnings: options.lanemask_warnings };
    let opt = options.opt_level.min(3);
    let warp_size = if ast.warp_size == 64 { 64 } else { 32 };
    let metas: Vec<KernelMeta> =
        ast.functions().filter(|f| f.kind == FunctionKind::Entry && f.body.is_some()).map(|f| kernel_signature(f, warp_size)).collect();
    // The variables' object: everything their initializers refer to must live there.
    let roots: Vec<String> = ast
        .directives
        .iter()
        .filter_map(|d| match d {
            Directive::Variable(v) => v.init.as_ref(),
            _ => None,
        })
        .flat_map(initializer_symbols)
        .collect();
    let keep = crate::lower::reachable(&ast, roots.iter().map(String::as_str));
    if metas.iter().any(|k| keep.contains(&k.name)) {
        // A variable holds a kernel's address: compile everything now.
        return Err(HostError::Llvm("lazy compile: a module variable refers to a kernel".into()));
    }
    let mut lowered = lower_module_subset(&ast, &HostTarget, &lower_options, &keep).map_err(HostError::Ptx)?;
    let mut all_warnings = warnings;
    all_warnings.append(&mut lowered.warnings);
    let tm = host_machine(opt)?;
    let object = cached_codegen(&lowered.ir, &tm, opt, None, cache, b"lazy variables")?;
    let jit = Jit::new()?;
    jit.add_object(&object)?;
    let mut globals = Vec::new();
    for g in &lowered.globals {
        globals.push((g.clone(), jit.lookup(&g.symbol)?));
    }
    Ok(HostModule {
        kernels: Vec::new(),
        globals,
        static_shared_bytes: lowered.static_shared_bytes,
        warnings: all_warnings,
        from_cache: false,
        partitions: 1,
        kernel_handles: Vec::new(),
        lazy: Some(LazyKernels { ast, metas, opt, lower_options, cache: cache.cloned(), compiled: Mutex::new(HashMap::new()) }),
        // Variants lower from the syntax tree above; warnings were given at load.
        variants: Some(super::specialize::Variants::new(None, opt, LowerOptions { lanemask_warnings: false }, cache.cloned())),
        _jit: jit,
    })
}

impl LazyKernels {
    /// Kernel `name` and its static shared-memory bytes, compiled into `jit` on first use.
    pub(crate) fn kernel(&self, jit: &Jit, name: &str) -> Result<Option<(Arc<HostKernel>, u64)>, HostError> {
        if !self.metas.iter().any(|k| k.name == name) {
            return Ok(None);
        }
        // One compile at a time: the JIT and the map change together.
        let mut compiled = self.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = compiled.get(name) {
            return done.clone().map(Some).map_err(HostError::Llvm);
        }
        let result = self.compile_kernel(jit, name, &compiled);
        match result {
            Ok((kernels, bytes)) => {
                let mut mine = None;
                for (kernel, k) in kernels {
                    let k = (Arc::new(k), bytes);
                    if kernel == name {
                        mine = Some(k.clone());
                    }
                    compiled.insert(kernel, Ok(k));
                }
                let mine = mine.ok_or_else(|| HostError::Llvm(format!("lazy compile: kernel {name} was not lowered")))?;
                Ok(Some(mine))
            }
            Err(e) => {
                compiled.insert(name.to_string(), Err(e.to_string()));
                Err(e)
            }
        }
    }

    /// Compiles kernel `name` into `jit` with the functions it reaches, and returns it and
    /// the other kernels it reaches that were not compiled yet (a device-side launch, a call
    /// through a register, which may reach anything): their entry points are defined in
    /// this object too, once, while those `done` already are stay declarations.
    fn compile_kernel(&self, jit: &Jit, name: &str, done: &Compiled) -> Result<(Vec<(String, HostKernel)>, u64), HostError> {
        let keep = crate::lower::reachable(&self.ast, std::iter::once(name));
        let lowered = lower_module_subset(&self.ast, &HostTarget, &self.lower_options, &keep).map_err(HostError::Ptx)?;
        if !lowered.kernels.iter().any(|k| k.name == name) {
            return Err(HostError::Llvm(format!("lazy compile: kernel {name} was not lowered")));
        }
        let tm = host_machine(self.opt)?;
        // This object is partition 1: the variables, and kernels compiled before, stay
        // declarations (partition 0).
        let defined_before = |k: &str| k != name && matches!(done.get(k), Some(Ok(_)));
        let owner: HashMap<String, usize> = lowered.kernels.iter().map(|k| (k.name.clone(), if defined_before(&k.name) { 0 } else { 1 })).collect();
        let index = partition::IrIndex::new(&lowered.ir);
        let part = Part { index: 1, owner: &owner, ir: &index };
        // The same IR makes another object when other kernels were compiled first: the
        // cache key names the kernels this one only declares.
        let mut what = b"lazy kernel".to_vec();
        for (kernel, _) in owner.iter().filter(|(_, &p)| p == 0).collect::<std::collections::BTreeMap<_, _>>() {
            what.push(b'\n');
            what.extend_from_slice(kernel.as_bytes());
        }
        let object = cached_codegen(&lowered.ir, &tm, self.opt, Some(part), self.cache.as_ref(), &what)?;
        jit.add_object(&object)?;
        let mut kernels = Vec::new();
        for meta in lowered.kernels.iter().filter(|k| !defined_before(&k.name)) {
            kernels.push((meta.name.clone(), entry_points(jit, meta)?));
        }
        Ok((kernels, lowered.static_shared_bytes))
    }
}

/// [`codegen`] through the on-disk cache, under a key of kind `what` (see
/// `object_cache_key`).
pub(crate) fn cached_codegen(
    ir: &str,
    tm: &inkwell::targets::TargetMachine,
    opt: u32,
    part: Option<Part>,
    cache: Option<&Cache>,
    what: &[u8],
) -> Result<Vec<u8>, HostError> {
    let key = cache.map(|_| object_cache_key(tm, opt, what, ir));
    if let (Some(c), Some(k)) = (cache, &key) {
        if let Some(objects) = c.load(k).and_then(|entry| cache::unpack_objects(&entry).map(|o| o.iter().map(|s| s.to_vec()).collect::<Vec<_>>())) {
            if let [object] = objects.as_slice() {
                return Ok(object.clone());
            }
        }
    }
    let object = codegen(ir, tm, opt, part)?;
    if let (Some(c), Some(k)) = (cache, &key) {
        c.store(k, &cache::pack_objects(std::slice::from_ref(&object)));
    }
    Ok(object)
}

fn initializer_symbols(i: &Initializer) -> Vec<String> {
    match i {
        Initializer::Value(InitValue::Address { symbol, .. }) => vec![symbol.clone()],
        Initializer::Value(InitValue::Imm(_)) => Vec::new(),
        Initializer::List(items) => items.iter().flat_map(initializer_symbols).collect(),
    }
}
