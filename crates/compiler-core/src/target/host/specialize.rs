//! Launch-shape specialization: a `k.block` variant for one block shape.
//!
//! `k.block` reads the block's dimensions from the ctx at run time, so LLVM vectorizes its
//! x loop for any trip count: every row of threads re-derives the loop's masks, checks and
//! remainder. A variant compiled for one shape (`ntid` = `[x, y, z]`, known when a kernel is
//! launched again with the same block) has constant trip counts: LLVM unrolls the x loop
//! into whole vectors with no remainder and hoists what does not depend on the row. The
//! runtime decides when a variant pays and only calls it for launches of that shape
//! (cpu-backend `specialize.rs`); `host::specialize` compiles it.
//!
//! The variant runs a whole run of consecutive blocks per call (`host_abi::BlockRunFn`),
//! so the runtime's per-block work (a ctx, a call, fault checks) is paid once per run.
//!
//! The variant also stores the constants into the ctx's `%ntid` slots before its loops
//! (the runtime already put the same values there), so the kernel body's `%ntid` reads,
//! which are loads from the ctx, fold to the constants too.

use super::{block_dims_from, block_loop, ctx_param, dereferenceable, HostTarget, ParallelLoop, MAX_BLOCK_DIM};
use crate::host_abi;
use crate::lower::intrinsics::Intrinsic;
use crate::lower::KernelMeta;
use crate::target::{AddressSpaces, MemOrder, ModuleInfo, Scope, Target};
use std::fmt::Write;

/// The symbol of kernel `kernel`'s thread loop specialized for blocks of `shape`
/// (`k.block.32x8x1`).
pub fn specialized_block_name(kernel: &str, shape: [u32; 3]) -> String {
    format!("{kernel}.block.{}x{}x{}", shape[0], shape[1], shape[2])
}

/// The host target, except that kernel `kernel` (one without barriers) gets only the
/// variant of `k.block` for blocks of `shape` ([`specialized_block_name`]) instead of
/// `k.block`. Other kernels get the host target's entry points.
#[derive(Clone, Copy, Debug)]
pub struct ShapeSpecialized<'a> {
    pub kernel: &'a str,
    /// Block dimensions, each within [`MAX_BLOCK_DIM`] and at least 1 (the runtime's
    /// launch checks guarantee it; [`ShapeSpecialized::new`] refuses anything else).
    shape: [u32; 3],
}

impl<'a> ShapeSpecialized<'a> {
    /// `None` for a shape no launch can have (a dimension 0 or above the device's limit).
    pub fn new(kernel: &'a str, shape: [u32; 3]) -> Option<Self> {
        let valid = shape.iter().zip(MAX_BLOCK_DIM).all(|(&d, max)| d >= 1 && d <= max) && shape.iter().product::<u32>() <= 1024;
        valid.then_some(ShapeSpecialized { kernel, shape })
    }

    /// The block shape the variant is for.
    pub fn shape(&self) -> [u32; 3] {
        self.shape
    }
}

/// Variants of blocks with at most this many rows of threads get their y loop unrolled
/// ([`unroll_rows`]), if the kernel's body is at most [`MAX_UNROLLED_BODY_LINES`] lines of
/// lowered IR: unrolling multiplies the code LLVM optimizes and generates (the stencil's
/// variant: 245 lines of body, 27 ms to compile rolled, 150 to 190 ms unrolled).
const MAX_UNROLLED_ROWS: u32 = 8;
const MAX_UNROLLED_BODY_LINES: usize = 400;

/// Lines of kernel `kernel`'s body `k.body` in `ir` (`usize::MAX` if it is not there).
fn body_lines(ir: &str, kernel: &str) -> usize {
    let head = format!("define internal void {}(", crate::lower::ll_global(&format!("{kernel}.body")));
    let Some(start) = ir.find(&head) else { return usize::MAX };
    ir[start..].find("\n}\n").map_or(usize::MAX, |end| ir[start..start + end].lines().count())
}

/// Asks LLVM to unroll the y loop of the thread loop that starts at `ir[at..]` fully
/// (`llvm.loop.unroll.full`; LLVM still refuses beyond its pragma size threshold). Each
/// load and store of the body then reads or writes one row of threads per block, so the
/// hardware's per-instruction stride prefetchers see one stride from block to block
/// instead of the row stride and a jump back. 2D stencil, one core: 10.4 against 11.8 ms
/// (median of 6 alternating runs, load 2.3 to 3.3).
fn unroll_rows(ir: &mut String, at: usize) {
    const LATCH: &str = "  %y.next = add i32 %y, 1\n  br label %y.head\n";
    let Some(pos) = ir[at..].find(LATCH).map(|p| at + p + LATCH.len() - 1) else { return };
    let md = ParallelLoop::numbered_after(ir).group;
    ir.insert_str(pos, &format!(", !llvm.loop !{md}"));
    let _ = writeln!(ir, "!{md} = distinct !{{!{md}, !{u}}}\n!{u} = !{{!\"llvm.loop.unroll.full\"}}", u = md + 1);
}

/// The entry lines of the variant: the ctx's `%ntid` slots get the shape's values, and
/// `%ntx`/`%nty`/`%ntz` are the constants.
fn fixed_block_dims(shape: [u32; 3]) -> String {
    let [x, y, z] = shape;
    block_dims_from(&format!(
        "  store i32 {x}, ptr %ntx.p\n  store i32 {y}, ptr %nty.p\n  store i32 {z}, ptr %ntz.p\n  %ntx = add i32 {x}, 0\n  %nty = add i32 {y}, 0\n  %ntz = add i32 {z}, 0\n"
    ))
}

/// The variant's entry point `fname` (`host_abi::BlockRunFn`): runs `%blocks` blocks from
/// the ctx's `%ctaid` on, calling the block's thread loop `one` for each. The runtime then
/// enters generated code once per run of blocks instead of once per block, and the body's
/// `%ctaid` reads forward from the stores here.
fn block_run(fname: &str, one: &str, param_bytes: usize) -> String {
    let (ctaid, nctaid) = (host_abi::OFFSET_CTAID, host_abi::OFFSET_NCTAID);
    format!(
        r#"define void {fname}(ptr noalias align 8 {deref}%params, {ctx}, i64 %blocks) {{
entry:
  %cx.p = getelementptr i8, ptr %ctx, i64 {ctaid}
  %cy.p = getelementptr i8, ptr %ctx, i64 {cy}
  %cz.p = getelementptr i8, ptr %ctx, i64 {cz}
  %ncx.p = getelementptr i8, ptr %ctx, i64 {nctaid}
  %ncy.p = getelementptr i8, ptr %ctx, i64 {ncy}
  %ncx = load i32, ptr %ncx.p
  %ncy = load i32, ptr %ncy.p
  %cx0 = load i32, ptr %cx.p
  %cy0 = load i32, ptr %cy.p
  %cz0 = load i32, ptr %cz.p
  %none = icmp eq i64 %blocks, 0
  br i1 %none, label %exit, label %block
block:
  %k = phi i64 [ 0, %entry ], [ %k.next, %block ]
  %cx = phi i32 [ %cx0, %entry ], [ %cx.next, %block ]
  %cy = phi i32 [ %cy0, %entry ], [ %cy.next, %block ]
  %cz = phi i32 [ %cz0, %entry ], [ %cz.next, %block ]
  store i32 %cx, ptr %cx.p
  store i32 %cy, ptr %cy.p
  store i32 %cz, ptr %cz.p
  call void {one}(ptr %params, ptr %ctx)
  %cx.inc = add i32 %cx, 1
  %x.wrap = icmp uge i32 %cx.inc, %ncx
  %cx.next = select i1 %x.wrap, i32 0, i32 %cx.inc
  %cy.carry = zext i1 %x.wrap to i32
  %cy.inc = add i32 %cy, %cy.carry
  %y.wrap = icmp uge i32 %cy.inc, %ncy
  %cy.next = select i1 %y.wrap, i32 0, i32 %cy.inc
  %cz.carry = zext i1 %y.wrap to i32
  %cz.next = add i32 %cz, %cz.carry
  %k.next = add i64 %k, 1
  %more = icmp ult i64 %k.next, %blocks
  br i1 %more, label %block, label %exit
exit:
  ret void
}}
"#,
        deref = dereferenceable(param_bytes),
        ctx = ctx_param(),
        cy = ctaid + 4,
        cz = ctaid + 8,
        ncy = nctaid + 4,
    )
}

impl Target for ShapeSpecialized<'_> {
    fn name(&self) -> &str {
        HostTarget.name()
    }

    fn address_spaces(&self) -> AddressSpaces {
        HostTarget.address_spaces()
    }

    fn sync_scope(&self, scope: Scope) -> &'static str {
        HostTarget.sync_scope(scope)
    }

    fn rmw_ordering(&self, order: MemOrder) -> MemOrder {
        HostTarget.rmw_ordering(order)
    }

    fn barrier_with_count(&self) -> Result<(), String> {
        HostTarget.barrier_with_count()
    }

    fn barrier_op(&self) -> Result<(), String> {
        HostTarget.barrier_op()
    }

    fn export_prefix(&self) -> &'static str {
        HostTarget.export_prefix()
    }

    fn module_header(&self) -> String {
        HostTarget.module_header()
    }

    fn define_intrinsic(&self, i: &Intrinsic, module: &ModuleInfo) -> String {
        HostTarget.define_intrinsic(i, module)
    }

    fn define_helper(&self, name: &str, module: &ModuleInfo) -> Option<String> {
        HostTarget.define_helper(name, module)
    }

    fn library_definitions(&self, ir: &str) -> String {
        HostTarget.library_definitions(ir)
    }

    fn entry_wrappers(&self, k: &KernelMeta, module: &ModuleInfo, ir: &mut String) {
        if k.name != self.kernel || k.uses_barrier || k.regions.is_some() {
            return HostTarget.entry_wrappers(k, module, ir);
        }
        // The block's thread loop, internal (inlined into the loop over blocks).
        let name = specialized_block_name(&k.name, self.shape);
        let one = crate::lower::ll_global(&format!("{name}.one"));
        let at = ir.len();
        block_loop(k, &one, &fixed_block_dims(self.shape), ir);
        ir.replace_range(at..at + "define void ".len(), "define internal void ");
        if self.shape[1] <= MAX_UNROLLED_ROWS && body_lines(ir, &k.name) <= MAX_UNROLLED_BODY_LINES {
            unroll_rows(ir, at);
        }
        ir.push_str(&block_run(&crate::lower::ll_global(&name), &one, k.param_buffer_size));
    }

    fn supports_regions(&self) -> bool {
        HostTarget.supports_regions()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shapes_outside_the_device_limits_have_no_variant() {
        for (shape, ok) in [
            ([32, 8, 1], true),
            ([1, 1, 1], true),
            ([1024, 1, 1], true),
            ([1, 1, 64], true),
            ([0, 1, 1], false),
            ([1025, 1, 1], false),
            ([1, 1, 65], false),
            ([64, 32, 1], false),
        ] {
            assert_eq!(ShapeSpecialized::new("k", shape).is_some(), ok, "{shape:?}");
        }
    }

    /// Blocks of up to 8 rows of threads get their rows unrolled, taller ones not.
    #[test]
    fn short_blocks_get_their_rows_unrolled() {
        let ast = crate::ptx::parse(include_str!("../../../tests/data/block_variants.ptx")).unwrap();
        let only = std::iter::once("grid2d".to_string()).collect();
        for (shape, unrolled) in [([32, 8, 1], true), ([4, 8, 2], true), ([8, 32, 1], false), ([1, 9, 3], false)] {
            let target = ShapeSpecialized::new("grid2d", shape).unwrap();
            let ir = crate::lower::lower_module_subset(&ast, &target, &Default::default(), &only).unwrap().ir;
            assert_eq!(ir.contains("br label %y.head, !llvm.loop !"), unrolled, "{shape:?}");
            assert_eq!(ir.contains("\"llvm.loop.unroll.full\""), unrolled, "{shape:?}");
            assert!(body_lines(&ir, "grid2d") < MAX_UNROLLED_BODY_LINES);
        }
        assert_eq!(body_lines("define internal void @\"k.body\"(ptr %ctx) {\n  ret void\n}\n", "k"), 2);
        assert_eq!(body_lines("", "k"), usize::MAX);
    }

    /// The variant's name carries the shape, so variants of one kernel never share a symbol
    /// (or, through the IR it is part of, a cache key).
    #[test]
    fn variant_names_differ_by_shape() {
        assert_eq!(specialized_block_name("k", [32, 8, 1]), "k.block.32x8x1");
        assert_ne!(specialized_block_name("k", [32, 8, 1]), specialized_block_name("k", [8, 32, 1]));
    }
}
