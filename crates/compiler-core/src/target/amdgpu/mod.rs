//! The AMDGPU target: `amdgcn-amd-amdhsa` code objects (v5) for ROCr's loader.
//!
//! # Mapping
//! - Special registers: `llvm.amdgcn.workitem.id.*` / `workgroup.id.*`; `%ntid`,
//!   `%nctaid` and `%dynamic_smem_size` from the code object v5 implicit arguments
//!   ([`abi::implicit`]), which our runtime fills.
//! - Address spaces: `.global` variables in 1, `.const` in 4, `.shared` in LDS (3), allocas
//!   (registers, `.local`, `.param`) in private (5). Lowered code uses generic pointers
//!   cast from these; LLVM's InferAddressSpaces turns the accesses back into global/ds/
//!   scratch instructions.
//! - Shared memory: one LDS array `@__ptx_shared` holds the module's static `.shared`
//!   variables at the offsets the lowering assigned, padded to 16 bytes, which is where
//!   the lowering puts the dynamic array: the runtime makes the group segment that much
//!   plus the launch's dynamic bytes, so `.shared` address `a` is byte `a` of the
//!   workgroup's LDS ([`static_lds_bytes`]).
//! - Kernels: `amdgpu_kernel` functions named as in PTX, one `byref` kernarg per `.param`
//!   (see [`abi`]), `amdgpu-flat-work-group-size` from `.reqntid`/`.maxntid` (else 1024).
//! - Barriers: workgroup release fence, `s_barrier`, workgroup acquire fence; thread
//!   counts must cover the CTA (checked at run time), `bar.red` counts in LDS, `bar.arrive`
//!   waits too: see [`barrier`].
//! - `%envreg1:%envreg2`: the cooperative launch's grid workspace from the implicit
//!   arguments ([`abi::implicit::GRID_WORKSPACE`]).
//! - Code objects are cached on disk ([`cache`]); kernel resources can be read back from
//!   them ([`descriptor`]).
//! - Atomics and fences: PTX scopes map to `syncscope("workgroup")` (`.cta`),
//!   `"agent"` (`.gpu`, `.cluster`) and the system scope (`.sys`); orderings are PTX's.
//! - `trap`: `llvm.trap` (`s_trap 2`: the queue reports an exception, the launch fails).
//! - `printf`/`assert`: records in a host-visible buffer, see [`printf`].
//!
//! # Warps and wavefronts
//! PTX from NVIDIA's tools assumes 32-lane warps (masks are 32 bits, code hard-codes
//! `0xffffffff` and `& 31`). On RDNA (gfx10+) we compile for wave32 (`+wavefrontsize32`):
//! a warp is a wavefront and every collective is one hardware operation. gfx9 (GCN/CDNA)
//! only runs wave64: there each wavefront holds two PTX warps, lanes 0-31 and 32-63, and
//! the collectives work on the caller's half (ballots shifted by 32, `ds_bpermute`
//! indices offset by 32). That is exact for warp-synchronous code, since the two warps of
//! a wavefront simply run in lockstep, which CUDA allows.
//!
//! A module that asks for 64-lane warps (`.warp_size 64`, which our NVRTC writes for
//! gfx9 targets, or [`AmdgpuOptions::warp_lanes`]) runs as native wave64 on gfx9: a PTX
//! warp is the wavefront, ballots and lane masks are the 64-bit EXEC-wide values,
//! `%laneid` is `mbcnt` over 64 lanes, `%warpid` the linear thread id / 64, `%nwarpid`
//! 16, and `ds_bpermute_b32` (which reaches all 64 lanes on GCN/CDNA) serves `shfl`,
//! `redux` (a 6-step butterfly) and `match`. The lowering does the rest at the module's
//! width (`WARP_SZ`, `%lanemask_*`, the `shfl` lane fields; `lower/lanemask.rs`).
//!
//! On gfx10+ a 64-lane module is refused, by decision: RDNA can run wave64
//! (`+wavefrontsize64`), but its `ds_bpermute_b32` (and the DPP row operations) only move
//! data within the caller's 32-lane half of a wave64 wavefront, so each shuffle would need
//! a half swap plus two permutes (`v_permlane64_b32` exists only from gfx11; gfx10 would go
//! through LDS), and every collective would pay that for modules that our own NVRTC never
//! produces for these targets (it gives gfx10+ 32-lane warps). The error says to compile
//! for 32-lane warps.

pub mod abi;
pub mod barrier;
pub mod cache;
pub mod codegen;
pub mod descriptor;
pub mod printf;
mod warp;

use super::{AddressSpaces, ModuleInfo, Scope, Target};
use crate::lower::intrinsics::{define_header, Intrinsic};
use crate::lower::{ll_global, KernelMeta};
use std::fmt::Write;

/// The AMD GPUs we generate code for: (processor, wavefront size we compile for).
pub const GPUS: &[(&str, u32)] = &[
    ("gfx900", 64),
    ("gfx906", 64),
    ("gfx908", 64),
    ("gfx90a", 64),
    ("gfx942", 64),
    ("gfx1030", 32),
    ("gfx1100", 32),
    ("gfx1101", 32),
    ("gfx1102", 32),
    ("gfx1151", 32),
    ("gfx1200", 32),
    ("gfx1201", 32),
];

/// Processors LLVM 19 does not know yet, with the reason we give.
const NEEDS_NEWER_LLVM: &[(&str, &str)] = &[("gfx950", "gfx950 (MI350) needs LLVM 20; this build uses LLVM 19")];

/// Bytes of LDS one workgroup may use on every supported processor.
pub const LDS_BYTES: u64 = 65536;

/// Options of an AMDGPU compilation.
#[derive(Clone, Debug)]
pub struct AmdgpuOptions {
    /// `gfx90a`, `gfx1100`... (a target ID suffix such as `:xnack+` is ignored: our code
    /// objects are built for "any" xnack/sramecc mode).
    pub processor: String,
    /// Lanes per warp the module assumes: 32 for all PTX from NVIDIA's tools.
    pub warp_lanes: u32,
    /// LLVM optimization level (0..=3).
    pub opt_level: u32,
}

impl AmdgpuOptions {
    pub fn new(processor: &str) -> Self {
        AmdgpuOptions { processor: processor.to_string(), warp_lanes: 32, opt_level: 2 }
    }
}

/// The AMDGPU target for one processor.
#[derive(Clone, Debug)]
pub struct AmdgpuTarget {
    processor: &'static str,
    wave: u32,
    data_layout: String,
    /// The module uses `bar.red`: LDS starts with [`barrier::SCRATCH_BYTES`]
    /// for their counter, before the `.shared` window.
    barrier_scratch: bool,
}

/// Why a processor or option cannot be compiled for.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    #[error("{0}")]
    Unsupported(String),
}

/// The entry of [`GPUS`] for `processor` (`gfx90a`, `gfx90a:xnack-`...).
pub fn lookup(processor: &str) -> Result<(&'static str, u32), TargetError> {
    let base = processor.split(':').next().unwrap_or(processor).trim().to_ascii_lowercase();
    if let Some((_, why)) = NEEDS_NEWER_LLVM.iter().find(|(p, _)| *p == base) {
        return Err(TargetError::Unsupported(format!("cannot compile for {base}: {why}")));
    }
    GPUS.iter().copied().find(|(p, _)| *p == base).ok_or_else(|| {
        let list: Vec<&str> = GPUS.iter().map(|g| g.0).collect();
        TargetError::Unsupported(format!("unknown or unsupported AMD GPU '{processor}'; supported: {}", list.join(", ")))
    })
}

impl AmdgpuTarget {
    /// The target for `options.processor`, checking the warp width the module assumes.
    pub fn new(options: &AmdgpuOptions) -> Result<AmdgpuTarget, TargetError> {
        let (processor, wave) = lookup(&options.processor)?;
        match options.warp_lanes {
            32 => {}
            // Native wave64: a PTX warp is the wavefront.
            64 if wave == 64 => {}
            // RDNA can run wave64, but its ds_bpermute only reaches the lanes of the
            // caller's 32-lane half (see the module doc): refused rather than emulated.
            64 => {
                return Err(TargetError::Unsupported(format!(
                    "this module needs 64-lane warps (.warp_size 64), but {processor} is compiled for 32-lane wavefronts (wave32): RDNA's wave64 mode has no single-instruction shuffle across the two halves of a wavefront; compile the source for 32-lane warps (NVRTC: --warp-size=32, the default for gfx10+), or run it on a wave64 GPU (gfx9)"
                )))
            }
            n => return Err(TargetError::Unsupported(format!("{n}-lane warps are not a thing; PTX warps have 32 lanes"))),
        }
        let data_layout = codegen::data_layout(processor, wave)?;
        Ok(AmdgpuTarget { processor, wave, data_layout, barrier_scratch: false })
    }

    pub fn processor(&self) -> &'static str {
        self.processor
    }

    /// The same target for a module that uses `bar.red` (`scratch`), whose
    /// LDS then starts with their counter ([`barrier::uses_barrier_ops`] tells).
    pub fn with_barrier_scratch(mut self, scratch: bool) -> AmdgpuTarget {
        self.barrier_scratch = scratch;
        self
    }

    /// Bytes of LDS before the `.shared` window (the `bar.red` counter), 0 or 16.
    pub fn scratch_bytes(&self) -> u64 {
        if self.barrier_scratch {
            barrier::SCRATCH_BYTES
        } else {
            0
        }
    }

    /// Bytes of LDS a kernel of `module` reserves before its dynamic shared memory: the
    /// scratch and the static `.shared` variables.
    pub fn lds_bytes(&self, module: &ModuleInfo) -> u64 {
        self.scratch_bytes() + static_lds_bytes(module)
    }

    /// Lanes per hardware wavefront (32 or 64).
    pub fn wavefront_size(&self) -> u32 {
        self.wave
    }

    /// The LLVM target features: the wavefront size.
    pub fn features(&self) -> &'static str {
        if self.wave == 64 {
            "+wavefrontsize64"
        } else {
            "+wavefrontsize32"
        }
    }

    /// How the PTX warps of `module` sit in this target's wavefronts.
    fn warp_shape(&self, module: &ModuleInfo) -> warp::WarpShape {
        warp::WarpShape::new(self.wave, module.warp_size)
    }

    fn implicit_arg(&self, offset: usize, ty: &str) -> String {
        format!(
            "  %ip = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()\n  %ap = getelementptr i8, ptr addrspace(4) %ip, i64 {offset}\n  %av = load {ty}, ptr addrspace(4) %ap, align {}\n",
            match ty {
                "i16" => 2,
                "i64" => 8,
                _ => 4,
            }
        )
    }
}

impl Target for AmdgpuTarget {
    fn name(&self) -> &str {
        self.processor
    }

    fn address_spaces(&self) -> AddressSpaces {
        AddressSpaces { global: 1, constant: 4, alloca: 5 }
    }

    fn sync_scope(&self, scope: Scope) -> &'static str {
        match scope {
            Scope::Cta => " syncscope(\"workgroup\")",
            Scope::Cluster | Scope::Gpu => " syncscope(\"agent\")",
            Scope::Sys => "",
        }
    }

    fn export_prefix(&self) -> &'static str {
        "protected "
    }

    fn module_header(&self) -> String {
        format!(
            "target datalayout = \"{}\"\ntarget triple = \"amdgcn-amd-amdhsa\"\n!llvm.module.flags = !{{!0}}\n!0 = !{{i32 1, !\"amdhsa_code_object_version\", i32 500}}\n",
            self.data_layout
        )
    }

    fn define_intrinsic(&self, i: &Intrinsic, module: &ModuleInfo) -> String {
        let name = i.name;
        let h = |names: &[&str]| define_header(i, names);
        let ret = |body: String, v: &str| format!("{}\n{body}  ret {} {v}\n}}\n", h(&["ctx"]), i.ret);
        let lanes = self.warp_shape(module).lanes;
        if let Some(reg) = name.strip_prefix("__ptx_sreg_") {
            let dim = |c: &str| match c {
                "y" => 1,
                "z" => 2,
                _ => 0,
            };
            return match reg.split_once('_') {
                Some(("tid", c)) => ret(format!("  %v = call i32 @llvm.amdgcn.workitem.id.{c}()\n"), "%v"),
                Some(("ctaid", c)) => ret(format!("  %v = call i32 @llvm.amdgcn.workgroup.id.{c}()\n"), "%v"),
                Some(("ntid", c)) => ret(format!("{}  %v = zext i16 %av to i32\n", self.implicit_arg(abi::implicit::GROUP_SIZE + 2 * dim(c), "i16")), "%v"),
                Some(("nctaid", c)) => ret(self.implicit_arg(abi::implicit::BLOCK_COUNT + 4 * dim(c), "i32"), "%av"),
                _ => match reg {
                    "dynamic_smem_size" => ret(self.implicit_arg(abi::implicit::DYNAMIC_LDS_SIZE, "i32"), "%av"),
                    "total_smem_size" => {
                        let fixed = static_lds_bytes(module);
                        ret(format!("{}  %v = add i32 %av, {fixed}\n", self.implicit_arg(abi::implicit::DYNAMIC_LDS_SIZE, "i32")), "%v")
                    }
                    "laneid" => ret(format!("  %hl = call i32 @__ptx_hw_lane()\n  %v = and i32 %hl, {}\n", lanes - 1), "%v"),
                    "warpid" => ret(
                        format!("  %x = call i32 @__ptx_sreg_tid_x(ptr %ctx)\n  %y = call i32 @__ptx_sreg_tid_y(ptr %ctx)\n  %z = call i32 @__ptx_sreg_tid_z(ptr %ctx)\n  %nx = call i32 @__ptx_sreg_ntid_x(ptr %ctx)\n  %ny = call i32 @__ptx_sreg_ntid_y(ptr %ctx)\n  %a = mul i32 %z, %ny\n  %b = add i32 %a, %y\n  %c = mul i32 %b, %nx\n  %d = add i32 %c, %x\n  %v = lshr i32 %d, {}\n", lanes.trailing_zeros()),
                        "%v",
                    ),
                    "nwarpid" => ret(String::new(), &(1024 / lanes).to_string()),
                    "nsmid" => ret(String::new(), "1"),
                    _ => ret(String::new(), "0"),
                },
            };
        }
        match name {
            // gfx11's cycle counter (SHADER_CYCLES) has 20 bits: use the 64-bit constant
            // clock there instead.
            // `%envreg1:%envreg2` is the grid workspace of a cooperative launch (high, low
            // 32 bits; `abi::implicit::GRID_WORKSPACE`); the other environment registers
            // are 0, as the CPU device has them.
            "__ptx_envreg" => format!(
                "{}\n{}  %hi64 = lshr i64 %av, 32\n  %hi = trunc i64 %hi64 to i32\n  %lo = trunc i64 %av to i32\n  %is1 = icmp eq i32 %n, 1\n  %is2 = icmp eq i32 %n, 2\n  %v2 = select i1 %is2, i32 %lo, i32 0\n  %v = select i1 %is1, i32 %hi, i32 %v2\n  ret i32 %v\n}}\n",
                h(&["ctx", "n"]),
                self.implicit_arg(abi::implicit::GRID_WORKSPACE, "i64")
            ),
            "__ptx_nanosleep" => format!("{}\n  call void @llvm.amdgcn.s.sleep(i32 2)\n  ret void\n}}\n", h(&["ctx", "ns"])),
            "__ptx_clock64" if self.processor.starts_with("gfx11") => ret("  %v = call i64 @llvm.readsteadycounter()\n".into(), "%v"),
            "__ptx_clock64" => ret("  %v = call i64 @llvm.readcyclecounter()\n".into(), "%v"),
            // The constant clock runs at 100 MHz on the supported processors.
            "__ptx_globaltimer" => ret("  %c = call i64 @llvm.readsteadycounter()\n  %v = mul i64 %c, 10\n".into(), "%v"),
            "__ptx_shared_base" => shared_base(module, self.scratch_bytes(), &h(&["ctx"])),
            "__ptx_ptr_global" | "__ptx_ptr_const" => {
                let space = if name == "__ptx_ptr_global" { 1 } else { 4 };
                format!("{}\n  %p = inttoptr i64 %a to ptr addrspace({space})\n  %g = addrspacecast ptr addrspace({space}) %p to ptr\n  ret ptr %g\n}}\n", h(&["a"]))
            }
            // `.local` addresses are generic addresses of private memory.
            "__ptx_ptr_local" => format!(
                "{}\n  %p = inttoptr i64 %a to ptr\n  %l = addrspacecast ptr %p to ptr addrspace(5)\n  %g = addrspacecast ptr addrspace(5) %l to ptr\n  ret ptr %g\n}}\n",
                h(&["a"])
            ),
            "__ptx_barrier" => barrier::define_barrier(i),
            "__ptx_barrier_op" => barrier::define_barrier_op(i, self.wave),
            "__ptx_trap" => format!("{}\n  call void @llvm.trap()\n  unreachable\n}}\n", h(&["ctx"])),
            "__ptx_assertfail" => format!(
                "{}\n  call void @__ptx_assert_record(ptr %ctx, ptr %msg, ptr %file, i32 %line, ptr %func)\n  call void @llvm.trap()\n  unreachable\n}}\n",
                h(&["ctx", "msg", "file", "line", "func"])
            ),
            "__ptx_ex2_f32" => format!("{}\n  %r = call float @llvm.exp2.f32(float %x)\n  ret float %r\n}}\n", h(&["x"])),
            // tanh(x) = sign(x) (1 - 2 / (e^(2|x|) + 1)) (e^(2|x|) = inf gives exactly 1);
            // below |x| = 1/16, where that cancels, x - x^3/3 + 2x^5/15.
            "__ptx_tanh_f32" => format!(
                "{}\n  %ax = call float @llvm.fabs.f32(float %x)\n  %two = fmul float %ax, 2.0\n  %e = call float @llvm.exp.f32(float %two)\n  %d = fadd float %e, 1.0\n  %q = fdiv arcp float 2.0, %d\n  %m = fsub float 1.0, %q\n  %big = call float @llvm.copysign.f32(float %m, float %x)\n  %x2 = fmul float %x, %x\n  %p0 = fmul float %x2, 0x3FC1111120000000\n  %p1 = fadd float %p0, 0xBFD5555560000000\n  %p2 = fmul float %p1, %x2\n  %p3 = fmul float %p2, %x\n  %small = fadd float %x, %p3\n  %tiny = fcmp olt float %ax, 0.0625\n  %r = select i1 %tiny, float %small, float %big\n  ret float %r\n}}\n",
                h(&["x"])
            ),
            "__ptx_vprintf" => format!(
                "{}\n  %r = call i32 @__ptx_printf_record(ptr %fmt, ptr %args)\n  ret i32 %r\n}}\n",
                h(&["ctx", "fmt", "args"])
            ),
            // Refused before code generation (see `codegen`); defined so that the module verifies.
            "__ptx_texture" => format!("{}\n  call void @llvm.trap()\n  unreachable\n}}\n", h(&["ctx", "handle", "op", "args", "data"])),
            "__ptx_warp_matrix" => format!("{}\n  call void @llvm.trap()\n  unreachable\n}}\n", h(&["ctx", "site", "frag", "desc"])),
            // No device heap on AMD GPUs yet: every `malloc` finds the heap exhausted,
            // which CUDA reports as a null pointer.
            "__ptx_malloc" => format!("{}\n  ret ptr null\n}}\n", h(&["ctx", "n"])),
            "__ptx_free" => format!("{}\n  ret void\n}}\n", h(&["ctx", "p"])),
            // Refused before code generation (see `codegen`); defined so that the module verifies.
            "__ptx_devrt" => format!("{}\n  call void @llvm.trap()\n  unreachable\n}}\n", h(&["ctx", "args"])),
            _ => warp::define(self.warp_shape(module), i),
        }
    }

    fn define_helper(&self, name: &str, module: &ModuleInfo) -> Option<String> {
        match name {
            "__ptx_bar_count_check" => return Some(barrier::count_check(self.warp_shape(module).lanes)),
            // The LDS array: the scratch, then the static `.shared` variables.
            "__ptx_shared" => {
                return Some(format!("@__ptx_shared = internal addrspace(3) global [{} x i8] poison, align 16\n", self.lds_bytes(module)))
            }
            _ => {}
        }
        warp::helper(self.warp_shape(module), name).or_else(|| printf::helper(name))
    }

    fn library_definitions(&self, ir: &str) -> String {
        let mut s = String::new();
        for (f, ty, bits) in [("nextafterf", "float", 32), ("nextafter", "double", 64)] {
            if ir.contains(&format!("@{f}(")) {
                s.push_str(&next_after(f, ty, bits));
            }
        }
        s
    }

    fn entry_wrappers(&self, k: &KernelMeta, _module: &ModuleInfo, ir: &mut String) {
        let body = ll_global(&format!("{}.body", k.name));
        let kernel = ll_global(&k.name);
        let params: Vec<String> = k
            .params
            .iter()
            .zip(&k.param_aligns)
            .enumerate()
            .map(|(n, ((_, size), align))| format!("ptr addrspace(4) byref([{size} x i8]) align {align} %p{n}"))
            .collect();
        let threads = match (k.reqntid, k.maxntid) {
            (Some(r), _) => {
                let n = r.iter().map(|&x| x.max(1) as u64).product::<u64>().min(1024);
                format!("{n},{n}")
            }
            (None, Some(m)) => format!("1,{}", m.iter().map(|&x| x.max(1) as u64).product::<u64>().min(1024)),
            _ => "1,1024".into(),
        };
        // The body reads parameters at their offsets from the segment's start (where the
        // first `byref` argument lies); the `byref` arguments give the layout and metadata.
        let mut base = String::new();
        // Every kernel of the module: a `bar.red` may sit in a function it calls.
        if self.barrier_scratch {
            base.push_str(&barrier::entry_init());
        }
        base.push_str("  %kp = call ptr addrspace(4) @llvm.amdgcn.kernarg.segment.ptr()\n  %params = addrspacecast ptr addrspace(4) %kp to ptr\n");
        let _ = write!(
            ir,
            "define protected amdgpu_kernel void {kernel}({}) \"amdgpu-flat-work-group-size\"=\"{threads}\" \"uniform-work-group-size\"=\"true\" {{\n{base}  call void {body}(ptr null, ptr %params)\n  ret void\n}}\n",
            params.join(", ")
        );
    }
}

/// Bytes of LDS a kernel of `module` reserves statically: the static `.shared` variables,
/// padded to 16 bytes (where the dynamic array starts).
pub fn static_lds_bytes(module: &ModuleInfo) -> u64 {
    module.dynamic_shared_offset.unwrap_or(module.static_shared_bytes).div_ceil(16) * 16
}

/// `@__ptx_shared_base`: the `.shared` window starts `scratch` bytes into the LDS array
/// `@__ptx_shared` (defined as a helper). The dynamic array follows the static one: the
/// runtime adds the launch's dynamic bytes to the group segment.
fn shared_base(module: &ModuleInfo, scratch: u64, header: &str) -> String {
    let fixed = static_lds_bytes(module);
    let mut s = String::new();
    if fixed == 0 && scratch == 0 {
        if module.dynamic_shared_offset.is_none() {
            let _ = write!(s, "{header}\n  ret ptr null\n}}\n");
            return s;
        }
        let _ = writeln!(s, "@__ptx_dynamic_shared = external addrspace(3) global [0 x i8], align 16");
        let _ = write!(s, "{header}\n  ret ptr addrspacecast (ptr addrspace(3) @__ptx_dynamic_shared to ptr)\n}}\n");
        return s;
    }
    let _ = write!(
        s,
        "{header}\n  %w = getelementptr inbounds i8, ptr addrspace(3) @__ptx_shared, i32 {scratch}\n  %g = addrspacecast ptr addrspace(3) %w to ptr\n  ret ptr %g\n}}\n"
    );
    s
}

/// C's `nextafter` for `ty` in IR (AMDGPU has no libm to link against).
fn next_after(name: &str, ty: &str, bits: u32) -> String {
    let it = format!("i{bits}");
    format!(
        r#"define internal {ty} @{name}({ty} %x, {ty} %y) alwaysinline {{
  %uno = fcmp uno {ty} %x, %y
  %eq = fcmp oeq {ty} %x, %y
  %zero = fcmp oeq {ty} %x, 0.0
  %xi = bitcast {ty} %x to {it}
  %yi = bitcast {ty} %y to {it}
  %ysign = and {it} %yi, {sign}
  %tiny = or {it} %ysign, 1
  %tinyf = bitcast {it} %tiny to {ty}
  %up = fcmp olt {ty} %x, %y
  %pos = fcmp ogt {ty} %x, 0.0
  %away = xor i1 %up, %pos
  %inc = add {it} %xi, 1
  %dec = sub {it} %xi, 1
  %stepped = select i1 %away, {it} %dec, {it} %inc
  %sf = bitcast {it} %stepped to {ty}
  %r0 = select i1 %zero, {ty} %tinyf, {ty} %sf
  %r1 = select i1 %eq, {ty} %y, {ty} %r0
  %sum = fadd {ty} %x, %y
  %r = select i1 %uno, {ty} %sum, {ty} %r1
  ret {ty} %r
}}
"#,
        sign = if bits == 32 { "-2147483648".to_string() } else { "-9223372036854775808".to_string() }
    )
}
