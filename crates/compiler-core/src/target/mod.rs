//! Targets: what turns the target-neutral IR of `lower` into IR for one kind of machine.
//!
//! ```text
//! PTX --parse--> AST --lower(target)--> LLVM IR text --LLVM--> code
//!                        |                               host:   O2 for the host CPU, MCJIT
//!                        |                               amdgpu: O2 for gfxNNNN, object, ld.lld
//!                        +-- Target: address spaces, syncscopes, the definitions of the
//!                            neutral intrinsics (lower::intrinsics), kernel entry wrappers
//! ```
//!
//! A target changes nothing else: the instruction semantics in `lower` are shared. The
//! host target ([`host::HostTarget`]) is the CPU device's; [`amdgpu::AmdgpuTarget`] emits
//! `amdgcn-amd-amdhsa` code objects.
//!
//! Invariant: targets know nothing about the driver API or any runtime beyond their own
//! ABI (the host target's `host_abi`, the AMDGPU target's kernarg / implicit-argument and
//! printf-buffer layouts, documented in `amdgpu`).

pub mod amdgpu;
pub mod host;

use crate::lower::intrinsics::Intrinsic;
use crate::lower::KernelMeta;

/// LLVM address spaces for the PTX state spaces that have their own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AddressSpaces {
    /// `.global` variables.
    pub global: u32,
    /// `.const` variables.
    pub constant: u32,
    /// `alloca`s (registers, `.local` and `.param` storage of a function).
    pub alloca: u32,
}

impl AddressSpaces {
    /// Everything in address space 0 (the host).
    pub const FLAT: AddressSpaces = AddressSpaces { global: 0, constant: 0, alloca: 0 };
}

/// A PTX memory-consistency scope (PTX ISA 8.5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Scope {
    Cta,
    Cluster,
    Gpu,
    Sys,
}

/// A memory ordering, spelled as LLVM spells it by [`MemOrder::llvm`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemOrder {
    Relaxed,
    Acquire,
    Release,
    AcqRel,
    SeqCst,
}

impl MemOrder {
    pub fn llvm(self) -> &'static str {
        match self {
            MemOrder::Relaxed => "monotonic",
            MemOrder::Acquire => "acquire",
            MemOrder::Release => "release",
            MemOrder::AcqRel => "acq_rel",
            MemOrder::SeqCst => "seq_cst",
        }
    }

    /// The failure ordering of a `cmpxchg` whose success ordering is `self`.
    pub fn cmpxchg_failure(self) -> MemOrder {
        match self {
            MemOrder::AcqRel | MemOrder::Acquire => MemOrder::Acquire,
            MemOrder::Release | MemOrder::Relaxed => MemOrder::Relaxed,
            MemOrder::SeqCst => MemOrder::SeqCst,
        }
    }
}

/// Module-wide facts a target needs to define the intrinsics.
#[derive(Clone, Debug)]
pub struct ModuleInfo {
    /// Bytes of statically declared `.shared` memory.
    pub static_shared_bytes: u64,
    /// Where the dynamic shared array starts in the window, if the module declares one.
    pub dynamic_shared_offset: Option<u64>,
    /// Lanes per warp the module was written for (32, or 64 with `.warp_size 64`).
    pub warp_size: u32,
}

impl Default for ModuleInfo {
    fn default() -> Self {
        ModuleInfo { static_shared_bytes: 0, dynamic_shared_offset: None, warp_size: 32 }
    }
}

/// A code-generation target of the lowering.
pub trait Target: Sync {
    /// For diagnostics: `host`, `gfx90a`...
    fn name(&self) -> &str;

    /// Address spaces of globals, constants and allocas.
    fn address_spaces(&self) -> AddressSpaces {
        AddressSpaces::FLAT
    }

    /// `syncscope("...")` text (with a leading space) for a PTX scope; empty for the
    /// system scope.
    fn sync_scope(&self, scope: Scope) -> &'static str;

    /// The ordering to emit for an atomic read-modify-write or fence that PTX gives
    /// `order`. Loads and stores always get PTX's own ordering.
    fn rmw_ordering(&self, order: MemOrder) -> MemOrder {
        order
    }

    /// `bar.sync id, count` with a thread count (a barrier for part of the CTA): `Err`
    /// says why the target cannot.
    fn barrier_with_count(&self) -> Result<(), String> {
        Ok(())
    }

    /// `bar.arrive` and `bar.red` (`__ptx_barrier_op`): `Err` says why the target cannot.
    fn barrier_op(&self) -> Result<(), String> {
        Ok(())
    }

    /// The linkage/visibility prefix of kernels and module variables visible to the
    /// runtime (e.g. `protected `).
    fn export_prefix(&self) -> &'static str {
        ""
    }

    /// Text before the module (triple, data layout), if the target needs it at parse time.
    fn module_header(&self) -> String {
        String::new()
    }

    /// The definition of intrinsic `i` (an `internal alwaysinline` function, see
    /// `lower::intrinsics::define_header`), plus any module globals it needs.
    fn define_intrinsic(&self, i: &Intrinsic, module: &ModuleInfo) -> String;

    /// The definition of a target-private helper `@__ptx_*` function that one of the
    /// target's own definitions calls (not part of the neutral contract).
    fn define_helper(&self, _name: &str, _module: &ModuleInfo) -> Option<String> {
        None
    }

    /// Definitions of library functions the lowering calls by name (`nextafterf`) that
    /// the target cannot resolve at link time; `ir` is the module so far.
    fn library_definitions(&self, _ir: &str) -> String {
        String::new()
    }

    /// Emit the entry points of kernel `k`, whose body is `@"k.body"(ptr %ctx, ptr %params)`.
    fn entry_wrappers(&self, k: &KernelMeta, module: &ModuleInfo, ir: &mut String);

    /// Whether kernels with block barriers are also cut into barrier regions (see
    /// `lower::regions`); the target's `entry_wrappers` then runs them, and its
    /// `define_helper` defines `__ptx_region_<x>` for each collective `__ptx_<x>` (the
    /// read half of a split collective: the intrinsic's parameters with `ptr %vals,
    /// i64 %arrived` (a lane mask) in place of the ctx and the site).
    fn supports_regions(&self) -> bool {
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lower::intrinsics::INTRINSICS;

    /// Every target defines every intrinsic with the contract's signature, and a module
    /// calling all of them (with the target's definitions, helpers and declarations)
    /// parses and verifies in LLVM.
    #[test]
    fn every_target_defines_every_intrinsic() {
        let mut targets: Vec<Box<dyn Target>> = vec![Box::new(host::HostTarget)];
        for &(gfx, _) in amdgpu::GPUS.iter().filter(|g| ["gfx90a", "gfx1100"].contains(&g.0)) {
            let t = amdgpu::AmdgpuTarget::new(&amdgpu::AmdgpuOptions::new(gfx)).unwrap();
            targets.push(Box::new(t));
        }
        let infos = [32, 64].map(|warp_size| ModuleInfo { static_shared_bytes: 100, dynamic_shared_offset: Some(112), warp_size });
        for (t, info) in targets.iter().flat_map(|t| infos.iter().map(move |i| (t, i))) {
            let mut ir = t.module_header();
            ir.push_str("define void @caller(ptr %ctx) {\n");
            for i in INTRINSICS {
                let def = t.define_intrinsic(i, info);
                let want = format!("define internal {} @{}(", i.ret, i.name);
                assert!(def.contains(&want), "{}: {} is defined as\n{def}", t.name(), i.name);
                let args: Vec<String> = i
                    .params
                    .split(", ")
                    .enumerate()
                    .map(|(k, ty)| match (k, ty) {
                        (0, "ptr") => "ptr %ctx".to_string(),
                        (_, "ptr") => "ptr null".to_string(),
                        (_, "float") => "float 0.0".to_string(),
                        (_, ty) => format!("{ty} 0"),
                    })
                    .collect();
                let call = if i.ret == "void" { String::new() } else { format!("%r.{} = ", i.name) };
                ir.push_str(&format!("  {call}call {} @{}({})\n", i.ret, i.name, args.join(", ")));
            }
            ir.push_str("  ret void\n}\n");
            crate::lower::define_intrinsics(t.as_ref(), info, &mut ir);
            let decls = crate::lower::intrinsic_declarations(&ir);
            ir.push_str(&decls);
            let ctx = inkwell::context::Context::create();
            let buf = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "t");
            let m = ctx.create_module_from_ir(buf).unwrap_or_else(|e| panic!("{}: {e}\n{ir}", t.name()));
            m.verify().unwrap_or_else(|e| panic!("{}: {e}", t.name()));
        }
    }
}
