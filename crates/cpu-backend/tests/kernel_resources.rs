//! What a kernel reports besides its shared bytes (constant bytes, the register estimate
//! within its limits), and where aligned `.shared` variables land.

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::download;

const PTX_TEMPLATE: &str = r#".version 8.0
.target sm_80
.address_size 64
.const .align 8 .b8 table[80];
.const .u32 other[3];
.const .f64 unused;

.visible .entry uses_const(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  ld.const.u32 %r1, [table];
  ld.const.u32 %r2, [other+4];
  add.u32 %r1, %r1, %r2;
  st.global.u32 [%rd1], %r1;
  ret;
}

// 40 of 100 declared 64-bit registers used: 80 slots.
.visible .entry many_registers()
{
  .reg .b64 %rd<100>;
  USES
  ret;
}

.visible .entry many_registers_small_blocks() .maxntid 256, 1, 1
{
  .reg .b64 %rd<100>;
  USES
  ret;
}

.visible .entry many_registers_limited() .maxnreg 40
{
  .reg .b64 %rd<100>;
  USES
  ret;
}

// out[0..2] = generic addresses of two aligned shared variables.
.visible .entry aligned_shared(.param .u64 out)
{
  .shared .align 256 .b8 wide[1];
  .shared .align 64 .b8 narrow[3];
  .reg .b64 %rd<5>;
  ld.param.u64 %rd1, [out];
  cvta.shared.u64 %rd2, wide;
  cvta.shared.u64 %rd3, narrow;
  st.global.u64 [%rd1], %rd2;
  st.global.u64 [%rd1+8], %rd3;
  ret;
}

// The same across a barrier (a kernel cut into regions runs several blocks' windows side
// by side).
.visible .entry aligned_shared_barrier(.param .u64 out)
{
  .shared .align 256 .b8 wide2[1];
  .shared .align 128 .b8 narrow2[5];
  .reg .pred %p<2>;
  .reg .b32 %r<3>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  bar.sync 0;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra done;
  cvta.shared.u64 %rd2, wide2;
  cvta.shared.u64 %rd3, narrow2;
  mul.wide.u32 %rd4, %r2, 16;
  add.u64 %rd5, %rd1, %rd4;
  st.global.u64 [%rd5], %rd2;
  st.global.u64 [%rd5+8], %rd3;
done:
  ret;
}
"#;

/// The module, with `USES` writing 40 of the 100 registers.
fn ptx() -> String {
    PTX_TEMPLATE.replace("USES", &(0..40).map(|i| format!("mov.b64 %rd{i}, {i};\n")).collect::<String>())
}

#[test]
fn const_bytes_are_the_modules_constant_bank() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&ptx(), &LoadOptions::default()).unwrap();
    // table (80 bytes), other (12) at 4-byte alignment, unused (8) at 8-byte alignment: what
    // NVIDIA's driver reported for this module's kernels on an H200.
    assert_eq!(m.kernel("uses_const").unwrap().const_bytes, 104);
    assert_eq!(m.kernel("many_registers").unwrap().const_bytes, 104);
}

#[test]
fn registers_stay_within_the_kernels_limits() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&ptx(), &LoadOptions::default()).unwrap();
    let regs = |m: &dyn backend_api::LoadedModule, name: &str| m.kernel(name).unwrap().num_regs;
    // A block of 1024 threads leaves 65536 / 1024 registers per thread.
    assert_eq!(regs(m.as_ref(), "many_registers"), 64);
    assert_eq!(regs(m.as_ref(), "many_registers_small_blocks"), 80);
    assert_eq!(regs(m.as_ref(), "many_registers_limited"), 40);
    // uses_const: %r1, %r2 and %rd1 used, 1 + 1 + 2 slots.
    assert_eq!(regs(m.as_ref(), "uses_const"), 4);
    let limited = d.load_ptx(&ptx(), &LoadOptions { max_registers: Some(38), ..Default::default() }).unwrap();
    assert_eq!(regs(limited.as_ref(), "many_registers_small_blocks"), 38);
    assert_eq!(regs(limited.as_ref(), "uses_const"), 4);
}

#[test]
fn aligned_shared_variables_have_aligned_addresses() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&ptx(), &LoadOptions::default()).unwrap();
    let out = d.alloc(64 * 16).unwrap();
    let cfg = LaunchConfig { grid: [1, 1, 1], block: [1, 1, 1], ..Default::default() };
    m.launch("aligned_shared", &cfg, &out.to_le_bytes()).unwrap();
    let got: Vec<u64> = download(d.as_ref() as &dyn Device, out, 2);
    assert_eq!((got[0] % 256, got[1] % 64), (0, 0), "addresses {got:x?}");

    let cfg = LaunchConfig { grid: [64, 1, 1], block: [32, 1, 1], ..Default::default() };
    m.launch("aligned_shared_barrier", &cfg, &out.to_le_bytes()).unwrap();
    let got: Vec<u64> = download(d.as_ref() as &dyn Device, out, 128);
    for (block, pair) in got.chunks(2).enumerate() {
        assert_eq!((pair[0] % 256, pair[1] % 128), (0, 0), "block {block}: addresses {pair:x?}");
    }
}
