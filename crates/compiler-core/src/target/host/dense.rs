//! Per-state x loops in chunks of aligned threads, for region kernels whose region code
//! is small enough to give every resume point a loop of its own (`dense_states`, decided
//! by the lowering: `lower::regions::dense`).
//!
//! Kernels like a bitonic sort in shared memory (dozens of barriers, a compare-exchange of
//! a dozen instructions between two of them) spend most of their time in the dispatch of
//! the shared x loop (a jump table per thread into one large function). An x loop per
//! state removes it. The loop runs the row in chunks of [`CHUNK`] threads, `x = base +
//! lane` with `base` a multiple of [`CHUNK`], every lane guarded by `x < ntx` (and, in a
//! masked run, by its state), so one loop serves whole and partial chunks and divergent
//! runs, with one copy of the body. The lane loop's constant trip count is what makes it
//! vectorize: over the whole row, LLVM proved the compare-exchange partner
//! `2x - (x & (stride - 1))` consecutive only under a runtime predicate that fails for
//! every real block (`cpu-bench/RESULTS.md`), so the vector body was dead code; a loop of
//! [`CHUNK`] iterations admits no runtime checks, and LLVM vectorizes it with masked
//! gathers and scatters (the conditional stores of a compare-exchange become masked
//! scatters, no branch). The accesses are in fact consecutive within a chunk for strides
//! of at least [`CHUNK`], but neither this form nor `x = base | lane` lets scalar
//! evolution see it (the 32-bit PTX address arithmetic is zero-extended); dense strips
//! (`lower::regions::widen`, our own widening) get contiguous and windowed loads, and
//! the x loop calls them for whole chunks.

use crate::lower::ll_global;
use std::fmt::Write;

/// Threads per chunk: 8 lanes of 32 bits fill the 256-bit vectors the host target
/// prefers.
pub(super) const CHUNK: u32 = 8;

/// Metadata numbers one dense state needs after its base.
pub(super) const IDS_PER_STATE: u64 = 4;

/// The x loops of dense state `s` of kernel `name` inside `k.region`'s row (`%x.pre`
/// jumps to `%x{s}.head`; the loops leave to `%x.exit`). `ag` is the access-group suffix,
/// `group_list` the metadata node listing the access group (`llvm.loop.parallel_accesses`),
/// `ids` the first of [`IDS_PER_STATE`] free metadata numbers. Returns the code and the
/// metadata definitions (top level, after the function).
///
/// With `warp` (lanes per warp), state `s` has a warp strip (`lower::regions::widen`, `region.rs`):
/// a chunk that starts a warp lying in one row (`x` and `ntx` multiples of the warp) runs
/// the whole warp through `k.wwarp.S` when its lanes are all in state `s`.
/// A dense strip (`lower::regions::widen`, `region.rs`) runs any `DENSE_LANES`
/// threads of a row in the same way.
pub(super) fn dense_x_loops(name: &str, s: u32, ag: &str, group_list: u64, ids: u64, strip: Option<StripCall>) -> (String, String) {
    let body = ll_global(&format!("{name}.rbody.{s}"));
    let (chunk_id, lane_id, no_unroll, scalar) = (ids, ids + 1, ids + 2, ids + 3);
    let (warp_in, warp_code, lane_in) = match strip {
        None => (String::new(), format!("  br i1 %xc{s}.done, label %x.exit, label %xl{s}.head\n"), format!("[ 0, %x{s}.head ]")),
        Some(StripCall { lanes, warp }) => {
            let strip = ll_global(&format!("{name}.{}.{s}", if warp { "wwarp" } else { "wdense" }));
            // Warps lie in one row when the row is a whole number of warps.
            let align = if warp { lanes - 1 } else { 0 };
            (
                format!(", [ %x{s}.wnext, %x{s}.wrun ]"),
                format!(
                    "  br i1 %xc{s}.done, label %x.exit, label %x{s}.wtry\n{}",
                    strip_attempt(s, &format!("%xc{s}"), lanes, align, &strip, &format!("xl{s}.head"), ag)
                ),
                format!("[ 0, %x{s}.wtry ], [ 0, %x{s}.wstates ]"),
            )
        }
    };
    let code = format!(
        r#"x{s}.head:
  %xc{s} = phi i32 [ 0, %x.pre ], [ %xc{s}.end, %xl{s}.exit ]{warp_in}
  %xc{s}.done = icmp uge i32 %xc{s}, %ntx
{warp_code}xl{s}.head:
  %l{s} = phi i32 {lane_in}, [ %l{s}.next, %xl{s}.latch ]
  %xl{s} = add nuw nsw i32 %xc{s}, %l{s}
  store i32 %xl{s}, ptr %tx.p{ag}
  store i32 %y, ptr %ty.p{ag}
  store i32 %z, ptr %tz.p{ag}
  %in{s} = icmp ult i32 %xl{s}, %ntx
  br i1 %in{s}, label %xl{s}.body, label %xl{s}.latch
xl{s}.body:
  %xl{s}.64 = zext i32 %xl{s} to i64
  %tl{s} = add i64 %row, %xl{s}.64
  %stl{s}.p = getelementptr i32, ptr %states, i64 %tl{s}
  br i1 %check, label %xl{s}.check, label %xl{s}.run
xl{s}.check:
  %stl{s} = load i32, ptr %stl{s}.p{ag}
  %skip{s} = icmp ne i32 %stl{s}, {s}
  br i1 %skip{s}, label %xl{s}.latch, label %xl{s}.run
xl{s}.run:
  %nextl{s} = call i32 {body}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %tl{s}){ag}
  store i32 %nextl{s}, ptr %stl{s}.p{ag}
  br label %xl{s}.latch
xl{s}.latch:
  %l{s}.next = add nuw nsw i32 %l{s}, 1
  %l{s}.done = icmp eq i32 %l{s}.next, {CHUNK}
  br i1 %l{s}.done, label %xl{s}.exit, label %xl{s}.head, !llvm.loop !{lane_id}
xl{s}.exit:
  %xc{s}.end = add nuw i32 %xc{s}, {CHUNK}
  br label %x{s}.head, !llvm.loop !{chunk_id}
"#
    );
    let mut md = String::new();
    let _ = writeln!(md, "!{chunk_id} = distinct !{{!{chunk_id}, !{group_list}, !{no_unroll}, !{scalar}}}");
    let _ = writeln!(md, "!{lane_id} = distinct !{{!{lane_id}, !{group_list}, !{no_unroll}}}");
    let _ = writeln!(md, "!{no_unroll} = !{{!\"llvm.loop.unroll.disable\"}}");
    let _ = writeln!(md, "!{scalar} = !{{!\"llvm.loop.vectorize.width\", i32 1}}");
    (code, md)
}

/// The blocks that run strip `strip` (`k.wstrip.S`, `k.wwarp.S` or `k.wdense.S`) for the
/// `lanes` threads of the row from x value `x` of state `s`'s x loop, entered at
/// `x{s}.wtry`: when they fit the row (and `x` and `ntx` are multiples of `align + 1`)
/// and, in a masked run, are all in state `s`; otherwise it continues at `fallback`. After
/// the strip, `%x{s}.wnext` (x + lanes) goes back to `x{s}.head` from `x{s}.wrun`.
pub(super) fn strip_attempt(s: u32, x: &str, lanes: u32, align: u32, strip: &str, fallback: &str, ag: &str) -> String {
    let splat: Vec<String> = (0..lanes).map(|_| format!("i32 {s}")).collect();
    format!(
        r#"x{s}.wtry:
  %x{s}.wnext = add nuw i32 {x}, {lanes}
  %x{s}.wfits = icmp ule i32 %x{s}.wnext, %ntx
  %x{s}.wrow = or i32 {x}, %ntx
  %x{s}.wmod = and i32 %x{s}.wrow, {align}
  %x{s}.waligned = icmp eq i32 %x{s}.wmod, 0
  %x{s}.wok = and i1 %x{s}.wfits, %x{s}.waligned
  br i1 %x{s}.wok, label %x{s}.wcheck, label %{fallback}
x{s}.wcheck:
  %x{s}.w64 = zext i32 {x} to i64
  %t{s}.w = add i64 %row, %x{s}.w64
  %st{s}.w = getelementptr i32, ptr %states, i64 %t{s}.w
  br i1 %check, label %x{s}.wstates, label %x{s}.wrun
x{s}.wstates:
  %st{s}.wv = load <{lanes} x i32>, ptr %st{s}.w, align 4{ag}
  %st{s}.weq = icmp eq <{lanes} x i32> %st{s}.wv, <{splat}>
  %st{s}.wall = call i1 @llvm.vector.reduce.and.v{lanes}i1(<{lanes} x i1> %st{s}.weq)
  br i1 %st{s}.wall, label %x{s}.wrun, label %{fallback}
x{s}.wrun:
  store i32 {x}, ptr %tx.p{ag}
  store i32 %y, ptr %ty.p{ag}
  store i32 %z, ptr %tz.p{ag}
  call void {strip}(ptr %ctx, ptr %params, ptr %save, i64 %n, i64 %t{s}.w, i32 {x}, ptr %st{s}.w){ag}
  br label %x{s}.head
"#,
        splat = splat.join(", ")
    )
}

/// A strip a dense x loop calls for whole chunks: `lanes` threads, a warp's (`warp`:
/// aligned to warps in rows that hold whole warps) or a dense strip's.
#[derive(Clone, Copy)]
pub(super) struct StripCall {
    pub lanes: u32,
    pub warp: bool,
}

/// The states of a region kernel with dense x loops: all of them when the lowering gave
/// the kernel dense loops (`lower::regions::dense`) and it has no per-state functions.
pub(super) fn dense_states(meta: &crate::lower::RegionMeta) -> Vec<u32> {
    if !meta.dense_loops || super::has_own_loop(meta, 0) {
        return Vec::new();
    }
    // Lockstep heads (all with wide strips) keep their own x loops (`dispatch.rs`).
    (0..=meta.sites).filter(|s| !super::dispatch::own_x_loops(meta).contains(s)).collect()
}
