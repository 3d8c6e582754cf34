//! The CPU thread loops (`target/host.rs`): each is declared parallel, and a barrier
//! region whose addresses derive from `%tid` vectorizes (its saved addresses are
//! recomputed, `lower/regions/remat.rs`).

use compiler_core::lower::lower_module;

/// One barrier: the region after it reads the shared tile and the global element at
/// addresses computed from `%tid` before the barrier.
const SCALE: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry scale(.param .u64 p)
{
  .shared .align 4 .b8 tile[4096];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<5>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r5, tile;
  shl.b32 %r6, %r1, 2;
  add.s32 %r7, %r5, %r6;
  ld.global.f32 %f1, [%rd3];
  st.shared.f32 [%r7], %f1;
  bar.sync 0;
  ld.shared.f32 %f2, [%r7];
  mul.f32 %f3, %f2, 0f40400000;
  st.global.f32 [%rd3], %f3;
  ret;
}
.visible .entry copy(.param .u64 p)
{
  .reg .b32 %r<2>;
  .reg .b64 %rd<4>;
  .reg .f32 %f<2>;
  ld.param.u64 %rd1, [p];
  mov.u32 %r1, %tid.x;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.f32 %f1, [%rd3];
  st.global.f32 [%rd3+4096], %f1;
  ret;
}
"#;

#[test]
fn every_thread_loop_is_declared_parallel() {
    let lowered = lower_module(&compiler_core::ptx::parse(SCALE).unwrap()).unwrap();
    let ir = &lowered.ir;
    // `copy.block`; `scale.region` and, with one barrier, `scale.region.0` and `.1`.
    let loops = ["@\"copy.block\"(", "@\"scale.region\"(", "@\"scale.region.0\"(", "@\"scale.region.1\"("];
    for l in loops {
        assert!(ir.contains(&format!("define void {l}")), "{l} is emitted");
    }
    assert_eq!(ir.matches("!\"llvm.loop.parallel_accesses\"").count(), loops.len(), "one parallel loop each");
    assert_eq!(ir.matches(", !llvm.loop !").count(), loops.len(), "each latch names its loop");
}

#[test]
fn a_region_after_a_barrier_vectorizes() {
    let lowered = lower_module(&compiler_core::ptx::parse(SCALE).unwrap()).unwrap();
    let asm = compiler_core::target::host::emit(&lowered.ir, 2, true).unwrap();
    let asm = String::from_utf8(asm).unwrap();
    // The body of `scale.region.1`, up to the next function.
    let start = asm.find("scale.region.1\":\n").or_else(|| asm.find("scale.region.1:\n")).expect("region 1 in the assembly");
    let body = &asm[start..];
    let body = &body[..body[1..].find(".Lfunc_end").map(|e| e + 1).unwrap_or(body.len())];
    // A packed single-precision multiply (SSE `mulps` or AVX `vmulps`): the loop over
    // threads runs several threads per instruction.
    assert!(body.contains("mulps"), "region 1 is not vectorized:\n{body}");
    // With `%r7`/`%rd3` recomputed from `%tid` rather than reloaded from the save area,
    // the accesses are consecutive: plain vector loads, no gathers.
    assert!(!body.contains("gather"), "region 1 gathers:\n{body}");
}
