//! The target-neutral intrinsics: the only way lowered code touches anything that differs
//! between targets.
//!
//! `lower` turns PTX into LLVM IR in a *target-neutral form*: ordinary LLVM instructions
//! for arithmetic, memory and control flow, plus calls to the functions listed in
//! [`INTRINSICS`] for everything else (special registers, the shared-memory window,
//! barriers, warp collectives, `printf`, `assert`, `trap`, clocks). A [`crate::target::Target`]
//! defines each intrinsic the module uses as an `internal` `alwaysinline` LLVM function, so
//! after inlining nothing of the call remains. Adding a target means defining these
//! functions and the kernel entry wrappers; the lowering does not change.
//!
//! # Contract
//!
//! Every intrinsic whose signature starts with `ptr` takes the *thread context* `%ctx`, an
//! opaque pointer the kernel entry wrapper passes down to every function (the CPU target
//! passes its `host_abi::ThreadCtx`; the AMDGPU target passes `null` and ignores it).
//! `site` is a constant unique to the call site in the module (line * 4096 + column of
//! the PTX instruction); collectives that meet at different sites are different meetings.
//! Lane masks are `i64` whatever the module's warp size (`ModuleInfo::warp_size`, 32 or 64;
//! see `ptx::ast::Module::warp_size`): bit `i` is lane `i` of the warp, and in a 32-lane
//! module the upper 32 bits are zero. `__ptx_sreg_laneid`, `_warpid` and `_nwarpid` follow
//! the module's warp size too.
//!
//! | intrinsic | meaning |
//! |---|---|
//! | `i32 __ptx_sreg_{tid,ntid,ctaid,nctaid}_{x,y,z}(ctx)` | PTX special registers (PTX ISA 10) |
//! | `i32 __ptx_sreg_laneid(ctx)`, `__ptx_sreg_warpid`, `__ptx_sreg_nwarpid` | lane in the warp, warp in the CTA, warp slots |
//! | `i32 __ptx_sreg_smid(ctx)`, `__ptx_sreg_nsmid`, `__ptx_sreg_gridid` | processor and grid ids |
//! | `i32 __ptx_sreg_dynamic_smem_size(ctx)`, `__ptx_sreg_total_smem_size` | shared memory of this launch, in bytes |
//! | `i32 __ptx_envreg(ctx, i32 n)` | `%envreg<n>`: a value the driver sets per launch (cooperative groups read the grid workspace address from `%envreg1:%envreg2`) |
//! | `void __ptx_nanosleep(ctx, i32 ns)` | `nanosleep`: the thread is spinning; give the processor to others |
//! | `i64 __ptx_clock64(ctx)` | a per-processor cycle counter (`%clock`, `%clock64`) |
//! | `i64 __ptx_globaltimer(ctx)` | a global nanosecond timer (`%globaltimer`) |
//! | `ptr __ptx_shared_base(ctx)` | generic address of the CTA's shared window: `.shared` address `a` is byte `a` of it; static variables first, the dynamic array at the module's 16-aligned end of them |
//! | `ptr __ptx_ptr_global(i64 a)`, `__ptx_ptr_const`, `__ptx_ptr_local` | the generic pointer for address `a` of that state space (`.global`, `.const` and `.local` addresses are generic addresses) |
//! | `void __ptx_barrier(ctx, i32 id, i32 count)` | `bar.sync id{, count}` (count 0: the whole CTA), with CTA-scope acquire/release |
//! | `i32 __ptx_barrier_op(ctx, i32 id, i32 count, i32 op, i32 pred)` | `bar.arrive` and `bar.red` (op: `BARRIER_OP_*`; pred 0 or 1) |
//! | `void __ptx_warp_sync(ctx, i32 site, i64 membermask)` | `bar.warp.sync` |
//! | `i64 __ptx_activemask(ctx, i32 site)` | `activemask`: the lanes executing this call |
//! | `i32 __ptx_shfl(ctx, i32 site, i32 a, i32 src_lane, i64 membermask)` | `shfl.sync` (PTX ISA 9.7.8.6) after the lowering computed the source lane (0..warp size - 1): `a` of lane `src_lane`, or the caller's own `a` when that lane is not executing the call |
//! | `{i64,i64} __ptx_vote(ctx, i32 site, i1 p, i64 membermask)` | `vote`: (lanes of `active` whose `p` holds, `active` = executing lanes in `membermask`) |
//! | `i32 __ptx_redux(ctx, i32 site, i32 op, i32 a, i64 membermask)` | `redux.sync` over the executing lanes in `membermask`; op: [`REDUX_OPS`] |
//! | `{i64,i64} __ptx_match(ctx, i32 site, i64 a, i64 membermask)` | `match.sync`: (lanes of `active` whose value equals `a`, `active`) |
//! | `void __ptx_trap(ctx)` | `trap`: the launch fails; the calling thread does not continue |
//! | `void __ptx_assertfail(ctx, ptr message, ptr file, i32 line, ptr function)` | CUDA's `__assertfail`: report, then trap |
//! | `i32 __ptx_vprintf(ctx, ptr format, ptr args)` | CUDA's `vprintf` (argument buffer packed as nvcc packs it) |
//! | `i32 __ptx_texture(ctx, i64 handle, i32 op, ptr args, ptr data)` | texture and surface instructions on objects (see [`crate::texture_abi`]) |
//! | `i64 __ptx_devrt(ctx, ptr args)` | the device runtime's system call ([`crate::devrt`]): `args` holds ten `i64`s, `(op, thread, a0..a7)` |
//! | `void __ptx_warp_matrix(ctx, i32 site, ptr frag, i64 desc)` | the warp-wide matrix instructions `wmma.mma`, `mma`, `ldmatrix`, `stmatrix`, `movmatrix`: a collective over the lanes' fragment buffers (see [`crate::matrix_abi`]) |
//! | `ptr __ptx_malloc(ctx, i64 size)`, `void __ptx_free(ctx, ptr p)` | the device heap's `malloc` and `free` (PTX ISA "System Calls"): 16-byte aligned, null when the heap is exhausted, `free(null)` does nothing |
//! | `float __ptx_tanh_f32(float x)` | `tanh.approx.f32` (a maximum relative error of 2^-11 is enough) |
//! | `float __ptx_ex2_f32(float x)` | `ex2.approx.f32` before flushing: 2^x within 2 ulp, NaN for NaN, 0 and infinity for the infinities |
//!
//! Atomics, fences and ordered loads/stores are plain LLVM instructions; the target maps
//! PTX scopes to `syncscope`s ([`crate::target::Target::sync_scope`]).

/// One intrinsic: its name and LLVM signature (return type, parameter types).
#[derive(Clone, Copy, Debug)]
pub struct Intrinsic {
    pub name: &'static str,
    pub ret: &'static str,
    pub params: &'static str,
}

const fn i(name: &'static str, ret: &'static str, params: &'static str) -> Intrinsic {
    Intrinsic { name, ret, params }
}

/// Every target-neutral intrinsic. Targets must define each one they are asked for with
/// exactly this signature (a test checks the host and every AMDGPU target).
pub const INTRINSICS: &[Intrinsic] = &[
    i("__ptx_sreg_tid_x", "i32", "ptr"),
    i("__ptx_sreg_tid_y", "i32", "ptr"),
    i("__ptx_sreg_tid_z", "i32", "ptr"),
    i("__ptx_sreg_ntid_x", "i32", "ptr"),
    i("__ptx_sreg_ntid_y", "i32", "ptr"),
    i("__ptx_sreg_ntid_z", "i32", "ptr"),
    i("__ptx_sreg_ctaid_x", "i32", "ptr"),
    i("__ptx_sreg_ctaid_y", "i32", "ptr"),
    i("__ptx_sreg_ctaid_z", "i32", "ptr"),
    i("__ptx_sreg_nctaid_x", "i32", "ptr"),
    i("__ptx_sreg_nctaid_y", "i32", "ptr"),
    i("__ptx_sreg_nctaid_z", "i32", "ptr"),
    i("__ptx_sreg_laneid", "i32", "ptr"),
    i("__ptx_sreg_warpid", "i32", "ptr"),
    i("__ptx_sreg_nwarpid", "i32", "ptr"),
    i("__ptx_sreg_smid", "i32", "ptr"),
    i("__ptx_sreg_nsmid", "i32", "ptr"),
    i("__ptx_sreg_gridid", "i32", "ptr"),
    i("__ptx_sreg_dynamic_smem_size", "i32", "ptr"),
    i("__ptx_sreg_total_smem_size", "i32", "ptr"),
    i("__ptx_envreg", "i32", "ptr, i32"),
    i("__ptx_nanosleep", "void", "ptr, i32"),
    i("__ptx_clock64", "i64", "ptr"),
    i("__ptx_globaltimer", "i64", "ptr"),
    i("__ptx_shared_base", "ptr", "ptr"),
    i("__ptx_ptr_global", "ptr", "i64"),
    i("__ptx_ptr_const", "ptr", "i64"),
    i("__ptx_ptr_local", "ptr", "i64"),
    i("__ptx_barrier", "void", "ptr, i32, i32"),
    i("__ptx_barrier_op", "i32", "ptr, i32, i32, i32, i32"),
    i("__ptx_warp_sync", "void", "ptr, i32, i64"),
    i("__ptx_activemask", "i64", "ptr, i32"),
    i("__ptx_shfl", "i32", "ptr, i32, i32, i32, i64"),
    i("__ptx_vote", "{ i64, i64 }", "ptr, i32, i1, i64"),
    i("__ptx_redux", "i32", "ptr, i32, i32, i32, i64"),
    i("__ptx_match", "{ i64, i64 }", "ptr, i32, i64, i64"),
    i("__ptx_trap", "void", "ptr"),
    i("__ptx_assertfail", "void", "ptr, ptr, ptr, i32, ptr"),
    i("__ptx_vprintf", "i32", "ptr, ptr, ptr"),
    i("__ptx_malloc", "ptr", "ptr, i64"),
    i("__ptx_free", "void", "ptr, ptr"),
    i("__ptx_tanh_f32", "float", "float"),
    i("__ptx_ex2_f32", "float", "float"),
    i("__ptx_texture", "i32", "ptr, i64, i32, ptr, ptr"),
    i("__ptx_devrt", "i64", "ptr, ptr"),
    i("__ptx_warp_matrix", "void", "ptr, i32, ptr, i64"),
];

/// `op` codes of `__ptx_barrier_op(ctx, id, count, op, pred)`: `bar.arrive` (returns 0),
/// and `bar.red` with `.popc` (the number of arriving threads whose `pred` is 1), `.and`
/// and `.or` (1 or 0). `count` 0 means every thread of the block that has not exited.
pub const BARRIER_OP_ARRIVE: u32 = 1;
pub const BARRIER_OP_POPC: u32 = 2;
pub const BARRIER_OP_AND: u32 = 3;
pub const BARRIER_OP_OR: u32 = 4;

/// `redux.sync` operations in the order of their `op` code.
pub const REDUX_OPS: [&str; 8] = ["add", "min.s", "max.s", "min.u", "max.u", "and", "or", "xor"];

/// `shfl.sync` modes.
pub const SHFL_MODES: [&str; 4] = ["up", "down", "bfly", "idx"];

/// The intrinsic named `name`.
pub fn lookup(name: &str) -> Option<&'static Intrinsic> {
    INTRINSICS.iter().find(|i| i.name == name)
}

/// The header of a definition of `i`, parameters named by `names`:
/// `define internal RET @NAME(T0 %n0, ...) alwaysinline {`.
pub fn define_header(i: &Intrinsic, names: &[&str]) -> String {
    let types: Vec<&str> = i.params.split(", ").collect();
    assert_eq!(types.len(), names.len(), "parameter names for {}", i.name);
    let params: Vec<String> = types.iter().zip(names).map(|(t, n)| format!("{t} %{n}")).collect();
    format!("define internal {} @{}({}) alwaysinline {{", i.ret, i.name, params.join(", "))
}

/// The names of the intrinsics `ir` calls, in first-use order.
pub fn used_in(ir: &str) -> Vec<&'static Intrinsic> {
    let mut out: Vec<&'static Intrinsic> = Vec::new();
    let mut rest = ir;
    while let Some(p) = rest.find("@__ptx_") {
        let tail = &rest[p + 1..];
        let end = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(tail.len());
        if let Some(i) = lookup(&tail[..end]) {
            if !out.iter().any(|o| o.name == i.name) {
                out.push(i);
            }
        }
        rest = &tail[end..];
    }
    out
}
