//! `isspacep` on the CPU device: exact for the shared window, every other address global.

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::download;

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64

// out[8 * t ..] = the answers for a shared, a global and a local address of thread t.
.visible .entry spaces(.param .u64 out)
{
  .shared .align 4 .b32 cell[64];
  .local .align 4 .b32 mine[4];
  .reg .pred %p<10>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, cell;
  shl.b32 %r3, %r1, 2;
  add.u32 %r2, %r2, %r3;
  cvt.u64.u32 %rd2, %r2;
  cvta.shared.u64 %rd3, %rd2;
  mov.u64 %rd4, mine;
  cvta.local.u64 %rd5, %rd4;
  isspacep.shared %p1, %rd3;
  isspacep.shared::cta %p2, %rd1;
  isspacep.global %p3, %rd3;
  isspacep.global %p4, %rd1;
  isspacep.local %p5, %rd1;
  isspacep.const %p6, %rd1;
  isspacep.param %p7, %rd1;
  isspacep.shared %p8, %rd5;
  selp.u32 %r4, 1, 0, %p1;
  selp.u32 %r5, 1, 0, %p2;
  selp.u32 %r6, 1, 0, %p3;
  selp.u32 %r7, 1, 0, %p4;
  selp.u32 %r8, 1, 0, %p5;
  selp.u32 %r9, 1, 0, %p6;
  selp.u32 %r10, 1, 0, %p7;
  selp.u32 %r11, 1, 0, %p8;
  mul.wide.u32 %rd6, %r1, 32;
  add.u64 %rd7, %rd1, %rd6;
  st.global.v4.u32 [%rd7], {%r4, %r5, %r6, %r7};
  st.global.v4.u32 [%rd7+16], {%r8, %r9, %r10, %r11};
  ret;
}
"#;

#[test]
fn shared_addresses_are_told_from_global_ones() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let out = d.alloc(64 * 32).unwrap();
    let cfg = LaunchConfig { grid: [2, 1, 1], block: [64, 1, 1], ..Default::default() };
    m.launch("spaces", &cfg, &out.to_le_bytes()).unwrap();
    let got: Vec<u32> = download(d.as_ref() as &dyn Device, out, 64 * 8);
    // shared(shared), shared(global), global(shared), global(global), then local, const
    // and param of a global address, and shared of a local one.
    let expected = [1, 0, 0, 1, 0, 0, 0, 0];
    for (t, answers) in got.chunks(8).enumerate() {
        assert_eq!(answers, expected, "thread {t}");
    }
}
