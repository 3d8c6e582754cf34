//! The dispatching loop of a barrier-region kernel, `k.region(params, ctx, save, states,
//! S, masked)`: runs the block's threads from resume point `S` to their next stop (all of
//! them, or with `masked` only those whose state is `S`), writing each thread's next
//! state to `states[t]` (see `lower::regions` and `cpu-backend`'s `run_regions`).
//!
//! The loop over x switches on `S` once per row of threads, outside the x loop, to one of
//! several x loops: the heads of lockstep loops ([`own_x_loops`]) get an x loop of their
//! own that calls their region body directly; every other state shares one x loop that
//! switches per thread (a jump table into one large function, where registers are shared
//! by every region body). A lockstep head runs once per iteration of a grid-stride loop,
//! so it is the hot state of such kernels: in its own x loop it is a dozen instructions
//! per thread and more of the block's loads are in flight at once (the sum benchmarks ran
//! 1.4 to 2.3x faster). An x loop for every state would help kernels with many barriers too
//! (the bitonic sort benchmark 2.7x), but it made the compile-time benchmark 75% slower,
//! where lockstep heads alone cost about 6% (`cpu-bench/RESULTS.md`, 2026-11-22,
//! branch `regionloops`).
//!
//! The own x loops are kept scalar and not unrolled (`llvm.loop.vectorize.width` 1,
//! `llvm.loop.interleave.count` 1, `llvm.loop.unroll.disable`): the saved loop counter
//! makes their global loads gathers, which measured no faster than scalar loads, and
//! vectorizing costs compile time. Kernels with few barriers have vectorized per-state
//! loops `k.region.S` for the uniform case instead (`has_own_loop`); their dispatching
//! loop only serves the masked case and calls the region bodies out of line.
//!
//! Kernels given dense loops (`RegionMeta::dense_loops`, straight-line code within the
//! module's budget) get an x loop of their own for every state, in aligned chunks of
//! threads that LLVM vectorizes (`dense.rs`); they have no shared x loop.
//!
//! Strips (`lower::regions::widen`): a lockstep head with a wide strip tries it for the
//! next 16 threads of the row (all in the state, or an unmasked run) before running one
//! thread alone; dense loops try warp strips (warp-aligned, rows of whole warps) and dense
//! strips for their chunks. In kernels with per-state loops (`has_own_loop`) the wide
//! strip's state gets the same own x loop as `k.region.S` ([`wide_state_loop`]).

use super::{block_dims, ParallelLoop};
use crate::lower::ll_global;
use std::fmt::Write;

/// `k.region` of kernel `name` with resume points `0..=sites`; `signature` is the
/// `RegionFn` parameter list, `dense` the states with dense x loops (`dense.rs`),
/// `call_attrs` the attributes of the calls to the region
/// bodies (` noinline` when the bodies also have loops of their own), `par` the numbers
/// of the loops' parallel metadata (every x loop gets a loop id of its own after them).
pub(super) fn dispatching_loop(
    name: &str,
    meta: &crate::lower::RegionMeta,
    own: &[u32],
    dense: &[u32],
    signature: &str,
    call_attrs: &str,
    par: ParallelLoop,
) -> String {
    // States without an x loop of their own share one that switches per thread.
    let sites = meta.sites;
    let shared: Vec<u32> = (0..=sites).filter(|s| !own.contains(s) && !dense.contains(s)).collect();
    let wide: Vec<u32> = own.iter().copied().filter(|s| meta.wide_strips.contains(s)).collect();
    let strips =
        Strips { wide: &wide, warp: &meta.warp_strips, dense: &meta.dense_strips, warp_size: meta.warp_exchange.map_or(32, |x| x.warp_size) };
    x_loops(&ll_global(&format!("{name}.region")), name, sites, own, dense, &shared, strips, signature, call_attrs, par)
}

/// The states with wide strips (in own x loops) and warp strips (in dense loops).
#[derive(Clone, Copy)]
struct Strips<'a> {
    wide: &'a [u32],
    warp: &'a [u32],
    dense: &'a [u32],
    warp_size: u32,
}

/// `k.region.S` of a state `s` with a wide strip in a kernel with per-state loops
/// (`has_own_loop`): the own x loop of [`dispatching_loop`] alone, so that the runtime's
/// whole-block calls run the strip too.
pub(super) fn wide_state_loop(name: &str, sites: u32, s: u32, signature: &str, call_attrs: &str, par: ParallelLoop) -> String {
    let strips = Strips { wide: &[s], warp: &[], dense: &[], warp_size: 32 };
    x_loops(&ll_global(&format!("{name}.region.{s}")), name, sites, &[s], &[], &[], strips, signature, call_attrs, par)
}

/// A dispatching loop named `fname`: own x loops for `own` (with wide strips for
/// `wide`), dense loops for `dense`, one switching x loop for `shared`.
#[allow(clippy::too_many_arguments)]
fn x_loops(
    fname: &str,
    name: &str,
    sites: u32,
    own: &[u32],
    dense: &[u32],
    shared: &[u32],
    strips: Strips,
    signature: &str,
    call_attrs: &str,
    par: ParallelLoop,
) -> String {
    let ag = par.access();
    let (wide, warp, warp_size) = (strips.wide, strips.warp, strips.warp_size);
    let default = if shared.is_empty() { "x.exit" } else { "xg.head" };
    let mut f = format!(
        r#"define void {fname}({signature}) {{
entry:
{dims}  %check = icmp ne i32 %masked, 0
  br label %z.head
z.head:
  %z = phi i32 [ 0, %entry ], [ %z.next, %y.exit ]
  %z.done = icmp uge i32 %z, %ntz
  br i1 %z.done, label %exit, label %y.head
y.head:
  %y = phi i32 [ 0, %z.head ], [ %y.next, %x.exit ]
  %y.done = icmp uge i32 %y, %nty
  br i1 %y.done, label %y.exit, label %x.pre
x.pre:
  %z64 = zext i32 %z to i64
  %y64 = zext i32 %y to i64
  %zy = mul i64 %z64, %nty64
  %zy2 = add i64 %zy, %y64
  %row = mul i64 %zy2, %ntx64
  switch i32 %S, label %{default} ["#,
        dims = block_dims(),
    );
    for s in own.iter().chain(dense) {
        let _ = write!(f, " i32 {s}, label %x{s}.head");
    }
    f.push_str(" ]\n");
    // Dense states' loops (`dense.rs`), with metadata numbers after the own loops'.
    let mut dense_md = String::new();
    for (k, &s) in dense.iter().enumerate() {
        let ids = par.loop_id + 6 + u64::from(sites) + k as u64 * super::dense::IDS_PER_STATE;
        let strip = if warp.contains(&s) {
            Some(super::dense::StripCall { lanes: warp_size, warp: true })
        } else if strips.dense.contains(&s) {
            Some(super::dense::StripCall { lanes: crate::lower::regions::widen::DENSE_LANES, warp: false })
        } else {
            None
        };
        let (code, md) = super::dense::dense_x_loops(name, s, &ag, par.loop_id, ids, strip);
        f.push_str(&code);
        dense_md.push_str(&md);
    }
    let (group_list, scalar, no_unroll) = (par.loop_id, par.loop_id + 1, par.loop_id + 2);
    let loop_id = |s: u32| par.loop_id + 5 + u64::from(s);
    for &s in own {
        let body = ll_global(&format!("{name}.rbody.{s}"));
        // A wide strip (`lower::regions::widen`) takes the next LANES threads when they
        // are all in the row and (masked) all in state S; otherwise one thread goes alone.
        let (wide_in, first) = if wide.contains(&s) {
            let strip = ll_global(&format!("{name}.wstrip.{s}"));
            let lanes = crate::lower::regions::widen::LANES;
            (
                format!(", [ %x{s}.wnext, %x{s}.wrun ]"),
                format!(
                    "  br i1 %x{s}.done, label %x.exit, label %x{s}.wtry\n{}",
                    super::dense::strip_attempt(s, &format!("%x{s}"), lanes, 0, &strip, &format!("x{s}.body"), &ag)
                ),
            )
        } else {
            (String::new(), format!("  br i1 %x{s}.done, label %x.exit, label %x{s}.body\n"))
        };
        let _ = write!(
            f,
            r#"x{s}.head:
  %x{s} = phi i32 [ 0, %x.pre ], [ %x{s}.next, %x{s}.latch ]{wide_in}
  %x{s}.done = icmp uge i32 %x{s}, %ntx
{first}x{s}.body:
  %x{s}.64 = zext i32 %x{s} to i64
  %t{s} = add i64 %row, %x{s}.64
  store i32 %x{s}, ptr %tx.p{ag}
  store i32 %y, ptr %ty.p{ag}
  store i32 %z, ptr %tz.p{ag}
  %st{s}.p = getelementptr i32, ptr %states, i64 %t{s}
  br i1 %check, label %x{s}.check, label %x{s}.run
x{s}.check:
  %st{s} = load i32, ptr %st{s}.p{ag}
  %skip{s} = icmp ne i32 %st{s}, {s}
  br i1 %skip{s}, label %x{s}.latch, label %x{s}.run
x{s}.run:
  %next{s} = call i32 {body}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t{s}){call_attrs}{ag}
  store i32 %next{s}, ptr %st{s}.p{ag}
  br label %x{s}.latch
x{s}.latch:
  %x{s}.next = add nuw i32 %x{s}, 1
  br label %x{s}.head, !llvm.loop !{id}
"#,
            id = loop_id(s)
        );
    }
    if !shared.is_empty() {
        let any = ll_global(&format!("{name}.rbody.any"));
        let _ = write!(
            f,
            r#"xg.head:
  %xg = phi i32 [ 0, %x.pre ], [ %xg.next, %xg.latch ]
  %xg.done = icmp uge i32 %xg, %ntx
  br i1 %xg.done, label %x.exit, label %xg.body
xg.body:
  %xg.64 = zext i32 %xg to i64
  %tg = add i64 %row, %xg.64
  store i32 %xg, ptr %tx.p{ag}
  store i32 %y, ptr %ty.p{ag}
  store i32 %z, ptr %tz.p{ag}
  %stg.p = getelementptr i32, ptr %states, i64 %tg
  br i1 %check, label %xg.check, label %xg.run
xg.check:
  %stg = load i32, ptr %stg.p{ag}
  %skipg = icmp ne i32 %stg, %S
  br i1 %skipg, label %xg.latch, label %xg.run
xg.run:
  %nextg = call i32 {any}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %tg, i32 %S){ag}
  store i32 %nextg, ptr %stg.p{ag}
  br label %xg.latch
xg.latch:
  %xg.next = add nuw i32 %xg, 1
  br label %xg.head, !llvm.loop !{shared_id}
"#,
            shared_id = par.loop_id + 4
        );
    }
    let _ = write!(
        f,
        r#"x.exit:
  %y.next = add i32 %y, 1
  br label %y.head
y.exit:
  %z.next = add i32 %z, 1
  br label %z.head
exit:
  ret void
}}
!{g} = distinct !{{}}
!{group_list} = !{{!"llvm.loop.parallel_accesses", !{g}}}
!{scalar} = !{{!"llvm.loop.vectorize.width", i32 1}}
!{no_unroll} = !{{!"llvm.loop.unroll.disable"}}
!{single} = !{{!"llvm.loop.interleave.count", i32 1}}
"#,
        g = par.group,
        single = par.loop_id + 3
    );
    let _ = writeln!(f, "!{id} = distinct !{{!{id}, !{group_list}}}", id = par.loop_id + 4);
    for &s in own {
        let id = loop_id(s);
        let _ = writeln!(f, "!{id} = distinct !{{!{id}, !{group_list}, !{scalar}, !{single}, !{no_unroll}}}", single = par.loop_id + 3);
    }
    f.push_str(&dense_md);
    f
}

/// The states that get an x loop of their own in `k.region` (the others share one that
/// switches per thread): the heads of lockstep loops, which run once per iteration of a
/// grid-stride loop, in kernels without per-state loops (`has_own_loop`). Every other
/// state runs once per barrier; an x loop for each of them made the compile-time
/// benchmark 75% slower (`cpu-bench/RESULTS.md`).
pub(super) fn own_x_loops(meta: &crate::lower::RegionMeta) -> Vec<u32> {
    if super::has_own_loop(meta, 0) {
        return Vec::new();
    }
    meta.lockstep_states.clone()
}
