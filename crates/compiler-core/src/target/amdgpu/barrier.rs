//! CTA barriers on AMD GPUs (PTX ISA 9.7.13.1 `bar`/`barrier`): `bar.sync`, `bar.red`
//! (`__syncthreads_count/and/or`) and `bar.arrive`, on `s_barrier`.
//!
//! # What `s_barrier` gives
//! One hardware barrier per workgroup, for all of its waves that have not ended; no barrier
//! ids, no thread counts, no arrive-without-wait before gfx12 (gfx12's split
//! `s_barrier_signal` could arrive without waiting, but with one hardware barrier for all
//! ids a wave that arrives and then syncs on another id would be counted twice; not
//! used). So:
//! - every barrier id (0-15) is that one barrier. A thread count must cover the whole CTA
//!   (the CTA's thread count rounded up to whole warps, the granularity PTX counts in);
//!   any other count traps at run time (`s_trap 2`, `CUDA_ERROR_LAUNCH_FAILED`): a barrier
//!   for part of the CTA cannot be made from a whole-workgroup one;
//! - `bar.arrive` is a release fence and an `s_barrier`: the arriving thread also waits
//!   for the barrier to complete. That is exact when every thread of the CTA passes the
//!   CTA's barriers in the same order (the producer/consumer pattern `bar.arrive` serves
//!   does, since each of its barriers counts every thread), and deadlocks or mis-pairs
//!   barriers where threads pass differently numbered barriers in different orders;
//! - exited threads do not count, as on sm_70+: an ended wave leaves the barrier, and
//!   the remaining lanes of a wave arrive together.
//!
//! # `bar.red`
//! Each wave adds the number of its executing lanes whose predicate holds (for `.and`:
//! does not hold) to an LDS counter, with one atomic from its first active lane; after
//! an `s_barrier` every thread reads the total; after a second `s_barrier` each wave
//! subtracts what it added. Between the two barriers nobody adds or subtracts, so every
//! reader sees the same total; the subtractions commute with the next reduction's
//! additions, and the next read comes after the next first barrier, by which every wave
//! has subtracted. So the counter is back to zero between reductions without a reset
//! that could race. `.popc` is the total, `.or` total != 0, `.and` total == 0.
//!
//! The counter is the first 4 bytes of [`SCRATCH_BYTES`] reserved at the start of the
//! workgroup's LDS in modules that use `bar.red` (the `.shared` window starts
//! after it: see `shared_base` in `amdgpu`), zeroed by the first thread of the CTA at kernel
//! entry before an `s_barrier`.

use crate::lower::intrinsics::{define_header, Intrinsic};

/// Bytes of LDS reserved before the `.shared` window in modules that use `bar.red` (a
/// 16-byte unit keeps the window's alignment).
pub const SCRATCH_BYTES: u64 = 16;

/// A whole-workgroup barrier with workgroup-scope release and acquire fences.
const S_BARRIER: &str = "  fence syncscope(\"workgroup\") release\n  call void @llvm.amdgcn.s.barrier()\n  fence syncscope(\"workgroup\") acquire\n";

/// `__ptx_barrier(ctx, id, count)`.
pub(super) fn define_barrier(i: &Intrinsic) -> String {
    format!("{}\n  call void @__ptx_bar_count_check(i32 %count)\n{S_BARRIER}  ret void\n}}\n", define_header(i, &["ctx", "id", "count"]))
}

/// `__ptx_barrier_op(ctx, id, count, op, pred)` for wavefronts of `wave` lanes.
pub(super) fn define_barrier_op(i: &Intrinsic, wave: u32) -> String {
    let w = format!("i{wave}");
    let to32 = |dst: &str, src: &str| {
        if wave == 64 {
            format!("  {dst} = trunc i64 {src} to i32\n")
        } else {
            format!("  {dst} = bitcast i32 {src} to i32\n")
        }
    };
    format!(
        r#"{header}
entry:
  call void @__ptx_bar_count_check(i32 %count)
  %is.arrive = icmp eq i32 %op, 1
  br i1 %is.arrive, label %arrive, label %red
arrive:
{S_BARRIER}  ret i32 0
red:
  %is.and = icmp eq i32 %op, 3
  %p = icmp ne i32 %pred, 0
  %c = xor i1 %p, %is.and
  %votes = call {w} @llvm.amdgcn.ballot.{w}(i1 %c)
  %votes.n = call {w} @llvm.ctpop.{w}({w} %votes)
{n32}  %lanes = call {w} @llvm.amdgcn.ballot.{w}(i1 true)
  %first = call {w} @llvm.cttz.{w}({w} %lanes, i1 true)
{first32}  %hl = call i32 @__ptx_hw_lane()
  %leader = icmp eq i32 %hl, %first32
  br i1 %leader, label %add, label %met
add:
  %old.add = atomicrmw add ptr addrspace(3) @__ptx_shared, i32 %n syncscope("workgroup") monotonic, align 4
  br label %met
met:
{S_BARRIER}  %total = load atomic i32, ptr addrspace(3) @__ptx_shared syncscope("workgroup") monotonic, align 4
{S_BARRIER}  br i1 %leader, label %sub, label %done
sub:
  %old.sub = atomicrmw sub ptr addrspace(3) @__ptx_shared, i32 %n syncscope("workgroup") monotonic, align 4
  br label %done
done:
  %nonzero = icmp ne i32 %total, 0
  %zero = icmp eq i32 %total, 0
  %bool = select i1 %is.and, i1 %zero, i1 %nonzero
  %bool32 = zext i1 %bool to i32
  %is.popc = icmp eq i32 %op, 2
  %r = select i1 %is.popc, i32 %total, i32 %bool32
  ret i32 %r
}}
"#,
        header = define_header(i, &["ctx", "id", "count", "op", "pred"]),
        n32 = to32("%n", "%votes.n"),
        first32 = to32("%first32", "%first"),
    )
}

/// `__ptx_bar_count_check(count)`: traps unless `count` is 0 (no count: the whole CTA) or
/// covers the whole CTA in warps of `lanes`.
pub(super) fn count_check(lanes: u32) -> String {
    let shift = lanes.trailing_zeros();
    format!(
        r#"define internal void @__ptx_bar_count_check(i32 %count) alwaysinline {{
entry:
  %none = icmp eq i32 %count, 0
  br i1 %none, label %ok, label %check
check:
  %nx = call i32 @__ptx_sreg_ntid_x(ptr null)
  %ny = call i32 @__ptx_sreg_ntid_y(ptr null)
  %nz = call i32 @__ptx_sreg_ntid_z(ptr null)
  %nxy = mul i32 %nx, %ny
  %n = mul i32 %nxy, %nz
  %n.up = add i32 %n, {round}
  %warps = lshr i32 %n.up, {shift}
  %count.up = add i32 %count, {round}
  %count.warps = lshr i32 %count.up, {shift}
  %whole = icmp eq i32 %warps, %count.warps
  br i1 %whole, label %ok, label %part
part:
  call void @llvm.trap()
  unreachable
ok:
  ret void
}}
"#,
        round = lanes - 1
    )
}

/// Kernel-entry code of modules with the scratch: the CTA's first thread zeroes the
/// `bar.red` counter, and a barrier makes that happen before any reduction.
pub(super) fn entry_init() -> String {
    format!(
        "  %t.x = call i32 @llvm.amdgcn.workitem.id.x()\n  %t.y = call i32 @llvm.amdgcn.workitem.id.y()\n  %t.z = call i32 @llvm.amdgcn.workitem.id.z()\n  %t.xy = or i32 %t.x, %t.y\n  %t.xyz = or i32 %t.xy, %t.z\n  %t.first = icmp eq i32 %t.xyz, 0\n  br i1 %t.first, label %zero, label %start\nzero:\n  store atomic i32 0, ptr addrspace(3) @__ptx_shared syncscope(\"workgroup\") monotonic, align 4\n  br label %start\nstart:\n{S_BARRIER}"
    )
}

/// Whether `module` uses `bar.red` anywhere (then its kernels need the scratch).
pub fn uses_barrier_ops(module: &crate::ptx::ast::Module) -> bool {
    use crate::ptx::ast::{Directive, Statement};
    fn scan(body: &[Statement]) -> bool {
        body.iter().any(|s| match s {
            Statement::Instr(i) => (i.opcode == "bar" || i.opcode == "barrier") && i.modifiers.iter().any(|m| m == ".red"),
            Statement::Block(b) => scan(b),
            _ => false,
        })
    }
    module.directives.iter().any(|d| matches!(d, Directive::Function(f) if f.body.as_deref().map(scan).unwrap_or(false)))
}
