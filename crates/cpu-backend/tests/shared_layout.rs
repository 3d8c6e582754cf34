//! Static shared memory per kernel: kernels' own `.shared` variables overlap in the
//! module's window, each kernel reports the bytes it and its callees use (not the whole
//! module's), and kernels of a module whose variables add up to more than a block may have
//! still launch and compute right. Also: 32-bit shared addresses with a displacement wrap
//! at 32 bits.

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::download;

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
.shared .align 4 .b8 common[64];

.func (.param .b32 r) plus_seven(.param .b32 x)
{
  .shared .align 4 .b32 fbuf[4];
  .reg .b32 %r<4>;
  ld.param.u32 %r1, [x];
  mov.u32 %r2, 7;
  st.shared.u32 [fbuf], %r2;
  ld.shared.u32 %r3, [fbuf];
  add.u32 %r3, %r3, %r1;
  st.param.u32 [r], %r3;
  ret;
}

// out[t] = 3 * (255 - t), through the end of a 40000-byte array.
.visible .entry big_a(.param .u64 out)
{
  .shared .align 8 .b8 abuf[40000];
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.u32 %r2, %r1, 3;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, abuf;
  add.u32 %r5, %r4, %r3;
  st.shared.u32 [%r5+38000], %r2;
  bar.sync 0;
  sub.u32 %r6, 255, %r1;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r4, %r6;
  ld.shared.u32 %r7, [%r6+38000];
  cvt.u64.u32 %rd2, %r3;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}

// out[t] = (255 - t) + 1 + 7 + common[0] (written as 1000 by thread 0), through a
// 30000-byte array and a function with a shared variable of its own.
.visible .entry big_b(.param .u64 out)
{
  .shared .align 4 .b8 bbuf[30000];
  .reg .pred %p<2>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra skip;
  mov.u32 %r9, 1000;
  st.shared.u32 [common], %r9;
skip:
  add.u32 %r2, %r1, 1;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, bbuf;
  add.u32 %r5, %r4, %r3;
  st.shared.u32 [%r5+28000], %r2;
  bar.sync 0;
  sub.u32 %r6, 255, %r1;
  shl.b32 %r6, %r6, 2;
  add.u32 %r6, %r4, %r6;
  ld.shared.u32 %r7, [%r6+28000];
  {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r7;
    call (b), plus_seven, (a);
    ld.param.b32 %r7, [b];
  }
  ld.shared.u32 %r8, [common];
  add.u32 %r7, %r7, %r8;
  cvt.u64.u32 %rd2, %r3;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}

// out[t] = t + 5, through dynamic shared memory only.
.extern .shared .align 16 .b8 dyn[];
.visible .entry dynamic_only(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 5;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, dyn;
  add.u32 %r5, %r4, %r3;
  st.shared.u32 [%r5], %r2;
  bar.sync 0;
  ld.shared.u32 %r7, [%r5];
  cvt.u64.u32 %rd2, %r3;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}

.visible .entry no_shared(.param .u64 out)
{
  ret;
}

// out[t] = t + 1 through `[%r - 84 + 84]`: nvcc folds a constant into the register and the
// displacement, and the sum must wrap at 32 bits (not be extended first).
.visible .entry displaced(.param .u64 out)
{
  .shared .align 4 .b8 small[1024];
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  add.u32 %r2, %r1, 1;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, small;
  add.u32 %r5, %r4, %r3;
  add.s32 %r6, %r5, -84;
  st.shared.u32 [%r6+84], %r2;
  bar.sync 0;
  ld.shared.u32 %r7, [%r5];
  cvt.u64.u32 %rd2, %r3;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
  ret;
}
"#;

/// Each kernel's variables and those of what it calls, one after another: the bytes
/// NVIDIA's driver reported for this module on an H200 (2026-11-27). In the window,
/// `common` is at [0, 64), the function's `fbuf` at [64, 80), and each kernel's own
/// variables from 80, overlapping.
const CASES: &[(&str, u32)] = &[("big_a", 40000), ("big_b", 64 + 16 + 30000), ("dynamic_only", 0), ("no_shared", 0), ("displaced", 1024)];

#[test]
fn each_kernel_reports_its_own_static_shared_bytes() {
    for lazy in [false, true] {
        // The other test of this binary computes the same whichever way its module loads.
        std::env::set_var("CUDA_MODULE_LOADING", if lazy { "LAZY" } else { "EAGER" });
        let d = cpu_backend::devices().remove(0);
        let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
        for &(name, bytes) in CASES {
            let info = m.kernel(name).unwrap();
            assert_eq!(info.static_shared_bytes, bytes, "{name} (lazy: {lazy})");
        }
    }
}

#[test]
fn kernels_whose_variables_overlap_compute_right() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let out = d.alloc(256 * 4).unwrap();
    let run = |name: &str, dynamic: u32| -> Vec<u32> {
        let cfg = LaunchConfig { grid: [3, 1, 1], block: [256, 1, 1], dynamic_shared_bytes: dynamic, ..Default::default() };
        m.launch(name, &cfg, &out.to_le_bytes()).unwrap();
        download(d.as_ref() as &dyn Device, out, 256)
    };
    // Alternate so that each kernel finds the other's values in the overlapping bytes.
    for _ in 0..2 {
        assert_eq!(run("big_a", 0), (0..256).map(|t| 3 * (255 - t)).collect::<Vec<u32>>());
        assert_eq!(run("big_b", 0), (0..256).map(|t| (255 - t) + 1 + 7 + 1000).collect::<Vec<u32>>());
        assert_eq!(run("dynamic_only", 1024), (0..256).map(|t| t + 5).collect::<Vec<u32>>());
        assert_eq!(run("displaced", 0), (1..257).collect::<Vec<u32>>());
    }
}
