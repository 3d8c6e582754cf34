//! Compiling `k.block` variants for one launch shape, on request.
//!
//! A variant (`target::host::ShapeSpecialized`: the block dimensions are constants) runs
//! the same program as `k.block` for launches of its shape, but LLVM unrolls and vectorizes
//! its thread loop without the generic loop's run-time checks and remainder. Nothing is
//! compiled at load: the runtime asks for a variant when a shape is launched often enough
//! to pay for it (cpu-backend `specialize.rs`), so a module's compile time is unchanged.
//!
//! A variant is compiled like a lazy kernel (`lazy.rs`): the kernel and the functions it
//! reaches are lowered again (from the module's PTX, kept for that, or the lazy module's
//! syntax tree), only the variant's entry point is defined (the module variables and
//! everything else stay declarations resolved against the module's first object), and
//! its object is added to the module's JIT. The lowered IR names the variant with its shape
//! and holds the shape's constants, so the on-disk cache keeps variants apart under keys of
//! their own. Lowering only part of the module may lay out `.shared` variables differently
//! from the module's window; a launch runs every block with one function in a window at
//! least as large (the part's layout never needs more), and shared memory holds nothing
//! from one block to the next, so that is unobservable.

use super::{host_machine, lazy, lookup_fn, partition, HostError, HostModule, Part};
use crate::cache::Cache;
use crate::host_abi::BlockRunFn;
use crate::lower::{lower_module_subset, LowerOptions};
use crate::ptx::ast::Module;
use crate::target::host::{specialized_block_name, ShapeSpecialized};
use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

/// The part of a [`HostModule`] that compiles launch-shape variants of its block kernels.
pub(crate) struct Variants {
    /// The module's PTX, for an eager module (parsed again on the first request); `None`
    /// for a lazy module, which keeps its syntax tree.
    ptx: Option<Arc<str>>,
    parsed: OnceLock<Option<Module>>,
    opt: u32,
    lower_options: LowerOptions,
    cache: Option<Cache>,
    /// Variants compiled so far, by kernel and shape (or the error their compile gave).
    compiled: Mutex<HashMap<(String, [u32; 3]), Result<BlockRunFn, String>>>,
}

impl Variants {
    /// Variants of a module compiled at optimization level `opt`.
    pub(crate) fn new(ptx: Option<Arc<str>>, opt: u32, lower_options: LowerOptions, cache: Option<Cache>) -> Variants {
        Variants { ptx, parsed: OnceLock::new(), opt: variant_opt_level(opt), lower_options, cache, compiled: Mutex::new(HashMap::new()) }
    }
}

/// The optimization level of the variants of a module compiled at `opt`: `O3` where the
/// module has the default `O2` or more, else the module's own (a program that asked for
/// less optimization gets no more). `O3`'s non-trivial loop unswitching gives the x loop
/// a version per outcome of its row-invariant conditions (the stencil's `y == 0`, `y >= h`),
/// so the masks of the common rows are computed once per block instead of once per row:
/// 2D stencil variant 10.6 ms against 13.8 at `O2` (one core, median of 10 alternating
/// runs, load average 4 to 5). It costs compile time only where a variant is compiled.
fn variant_opt_level(opt: u32) -> u32 {
    if opt >= 2 {
        3
    } else {
        opt
    }
}

impl HostModule {
    /// Whether [`HostModule::specialized_block`] can compile variants for this module (it
    /// was compiled from PTX and has a kernel that runs as `k.block`, or is lazy).
    pub fn can_specialize(&self) -> bool {
        self.variants.is_some()
    }

    /// Kernel `name`'s thread loop `k.block` specialized for blocks of `shape`, as a loop
    /// over runs of blocks ([`BlockRunFn`]), for launches whose block is exactly `shape`
    /// only. Compiled (or
    /// loaded from the on-disk cache) on the first request, which waits for it; later
    /// requests return the same function (or the same error). Errors: no such kernel, a
    /// kernel that does not run as `k.block`, a shape no launch can have, or a module
    /// without the source to compile from ([`HostModule::can_specialize`]).
    pub fn specialized_block(&self, name: &str, shape: [u32; 3]) -> Result<BlockRunFn, HostError> {
        let variants = self.variants.as_ref().ok_or_else(|| HostError::Llvm("this module cannot compile launch-shape variants".into()))?;
        // One compile at a time: the JIT and the table change together.
        let mut compiled = variants.compiled.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(done) = compiled.get(&(name.to_string(), shape)) {
            return done.clone().map_err(HostError::Llvm);
        }
        let result = self.compile_variant(variants, name, shape);
        compiled.insert((name.to_string(), shape), result.as_ref().copied().map_err(ToString::to_string));
        result
    }

    /// The variant of `name` for `shape` if it was compiled already (never compiles).
    pub fn compiled_specialization(&self, name: &str, shape: [u32; 3]) -> Option<BlockRunFn> {
        let compiled = self.variants.as_ref()?.compiled.lock().unwrap_or_else(|e| e.into_inner());
        compiled.get(&(name.to_string(), shape))?.as_ref().ok().copied()
    }

    fn compile_variant(&self, variants: &Variants, name: &str, shape: [u32; 3]) -> Result<BlockRunFn, HostError> {
        let target = ShapeSpecialized::new(name, shape).ok_or_else(|| HostError::Llvm(format!("no block of {shape:?} threads can be launched")))?;
        let ast = match (&self.lazy, &variants.ptx) {
            (Some(l), _) => &l.ast,
            (None, Some(ptx)) => variants
                .parsed
                .get_or_init(|| crate::ptx::parse(ptx).ok())
                .as_ref()
                .ok_or_else(|| HostError::Llvm("the module's PTX no longer parses".into()))?,
            (None, None) => return Err(HostError::Llvm("this module cannot compile launch-shape variants".into())),
        };
        let keep = crate::lower::reachable(ast, std::iter::once(name));
        let lowered = lower_module_subset(ast, &target, &variants.lower_options, &keep).map_err(HostError::Ptx)?;
        let meta = lowered.kernels.iter().find(|k| k.name == name).ok_or_else(|| HostError::Llvm(format!("no kernel named {name}")))?;
        if meta.uses_barrier || meta.regions.is_some() {
            return Err(HostError::Llvm(format!("kernel {name} has barriers: it does not run as a thread loop")));
        }
        // Only the variant is defined (partition 1); other kernels the subset holds (ones
        // whose address the kernel takes) keep their entry points in the module's objects.
        let owner: HashMap<String, usize> = lowered.kernels.iter().map(|k| (k.name.clone(), usize::from(k.name == name))).collect();
        let index = partition::IrIndex::new(&lowered.ir);
        let part = Part { index: 1, owner: &owner, ir: &index };
        let tm = host_machine(variants.opt)?;
        let object = lazy::cached_codegen(&lowered.ir, &tm, variants.opt, Some(part), variants.cache.as_ref(), b"block variant")?;
        self._jit.add_object(&object)?;
        let f = lookup_fn(&self._jit, &specialized_block_name(name, shape))?;
        // SAFETY: `ShapeSpecialized` emits the variant with the `BlockRunFn` signature.
        Ok(unsafe { std::mem::transmute::<crate::host_abi::KernelFn, BlockRunFn>(f) })
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn variants_get_o3_unless_the_module_asked_for_less_than_o2() {
        for (module, variant) in [(0, 0), (1, 1), (2, 3), (3, 3)] {
            assert_eq!(super::variant_opt_level(module), variant, "module O{module}");
        }
    }
}
