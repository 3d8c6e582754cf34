//! Block barriers in fiber mode count arrivals (PTX ISA 9.7.13.1): a barrier stays closed
//! while some threads are still busy at warp collectives elsewhere, `bar.red` reduces a
//! predicate over the arriving threads, `bar.arrive` arrives without waiting, and a barrier
//! that can never complete fails the launch instead of hanging. Expected values are
//! computed here from the CUDA definitions.

use backend_api::{Device, DeviceError, LaunchConfig, LoadOptions};
use std::sync::Arc;

fn device() -> Arc<dyn Device> {
    cpu_backend::devices().remove(0)
}

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// Runs entry `k` of `body` with `block` threads in each of `grid` blocks and one `u64`
/// parameter, an output buffer of `words` u32s; returns the buffer.
fn run(body: &str, grid: u32, block: u32, words: usize) -> Result<Vec<u32>, DeviceError> {
    let d = device();
    let m = d.load_ptx(&format!("{HEADER}{body}"), &LoadOptions::default()).unwrap();
    let out = d.alloc(words * 4).unwrap();
    d.memset(out, 0xffff_ffff, 4, words).unwrap();
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], ..Default::default() };
    m.launch("k", &cfg, &out.to_le_bytes())?;
    let mut v = vec![0u32; words];
    unsafe { d.copy_from_device(v.as_mut_ptr() as *mut u8, out, words * 4).unwrap() };
    d.free(out).unwrap();
    Ok(v)
}

/// Only warp 0 runs a Hillis-Steele scan over `s[0..32)` with `bar.warp.sync` between its
/// steps (the pattern of CuPy's scan kernel), between two block barriers; then every thread
/// reads `s[tid % 32]`. The other warps must not pass the second barrier early.
const WARP_SCAN_BETWEEN_BARRIERS: &str = r#"
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b32 s[32];
  .reg .b32 %r<16>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shr.u32 %r3, %r1, 5;
  bar.sync 0;
  setp.ne.u32 %p1, %r3, 0;
  @%p1 bra WAIT;
  rem.u32 %r4, %r1, 7;
  add.u32 %r4, %r4, 1;
  shl.b32 %r5, %r2, 2;
  mov.u32 %r6, s;
  add.u32 %r6, %r6, %r5;
  st.shared.u32 [%r6], %r4;
  mov.u32 %r7, 1;
LOOP:
  bar.warp.sync -1;
  setp.lt.u32 %p2, %r2, %r7;
  @%p2 bra SKIP;
  shl.b32 %r8, %r7, 2;
  sub.u32 %r9, %r6, %r8;
  ld.shared.u32 %r10, [%r9];
  add.u32 %r4, %r4, %r10;
SKIP:
  bar.warp.sync -1;
  st.shared.u32 [%r6], %r4;
  shl.b32 %r7, %r7, 1;
  setp.lt.u32 %p3, %r7, 32;
  @%p3 bra LOOP;
WAIT:
  bar.sync 0;
  shl.b32 %r11, %r2, 2;
  mov.u32 %r12, s;
  add.u32 %r12, %r12, %r11;
  ld.shared.u32 %r13, [%r12];
  mov.u32 %r14, %ctaid.x;
  mov.u32 %r15, %ntid.x;
  mad.lo.u32 %r14, %r14, %r15, %r1;
  mul.wide.u32 %rd2, %r14, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r13;
  ret;
}
"#;

#[test]
fn block_barrier_waits_for_a_warp_busy_with_collectives() {
    let (grid, block) = (3u32, 512u32);
    let got = run(WARP_SCAN_BETWEEN_BARRIERS, grid, block, (grid * block) as usize).unwrap();
    let x: Vec<u32> = (0..32).map(|t| t % 7 + 1).collect();
    let prefix: Vec<u32> = x
        .iter()
        .scan(0, |acc, &v| {
            *acc += v;
            Some(*acc)
        })
        .collect();
    for (i, &g) in got.iter().enumerate() {
        assert_eq!(g, prefix[i % 32], "thread {} of block {}", i % block as usize, i / block as usize);
    }
}

/// `bar.red` over threads 0..200 of a 256-thread block (the rest exit first):
/// `.popc` of `tid % 3 == 0`, `.and`/`.or` of `tid < 150` on barrier 1, and `.and` of a
/// predicate true everywhere (negated operand). Thread t writes 4 words at `out[4t]`.
const REDUCTIONS: &str = r#"
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p5, %r1, 200;
  @%p5 bra DONE;
  rem.u32 %r2, %r1, 3;
  setp.eq.u32 %p1, %r2, 0;
  bar.red.popc.u32 %r3, 0, %p1;
  bar.red.and.pred %p2, 0, !%p5;
  setp.lt.u32 %p6, %r1, 150;
  barrier.red.or.pred %p3, 1, %p6;
  barrier.red.and.pred %p4, 1, %p6;
  selp.u32 %r4, 1, 0, %p2;
  selp.u32 %r5, 1, 0, %p3;
  selp.u32 %r6, 1, 0, %p4;
  mul.wide.u32 %rd2, %r1, 16;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
DONE:
  ret;
}
"#;

#[test]
fn bar_red_reduces_over_the_threads_that_arrive() {
    let got = run(REDUCTIONS, 2, 256, 4 * 256).unwrap();
    let popc = (0..200u32).filter(|t| t % 3 == 0).count() as u32;
    for t in 0..256usize {
        let w = &got[4 * t..4 * t + 4];
        if t < 200 {
            assert_eq!(w, [popc, 1, 1, 0], "thread {t}");
        } else {
            assert_eq!(w, [u32::MAX; 4], "thread {t} exited before the barriers");
        }
    }
}

/// Producer/consumer on named barrier 1 with a count of 64: warp 1 fills `buf` and
/// `bar.arrive`s (it does not wait), warp 0 waits with `bar.sync 1, 64` and reads it.
const ARRIVE: &str = r#"
.visible .entry k(.param .u64 out)
{
  .shared .align 4 .b32 buf[32];
  .reg .b32 %r<12>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  shr.u32 %r3, %r1, 5;
  setp.eq.u32 %p1, %r3, 0;
  @%p1 bra CONSUME;
  mul.lo.u32 %r4, %r2, %r2;
  add.u32 %r4, %r4, 5;
  shl.b32 %r5, %r2, 2;
  mov.u32 %r6, buf;
  add.u32 %r6, %r6, %r5;
  st.shared.u32 [%r6], %r4;
  bar.arrive 1, 64;
  ret;
CONSUME:
  bar.sync 1, 64;
  mov.u32 %r7, 31;
  sub.u32 %r7, %r7, %r2;
  shl.b32 %r8, %r7, 2;
  mov.u32 %r9, buf;
  add.u32 %r9, %r9, %r8;
  ld.shared.u32 %r10, [%r9];
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r10;
  ret;
}
"#;

#[test]
fn bar_arrive_releases_a_waiting_consumer() {
    let got = run(ARRIVE, 1, 64, 32).unwrap();
    let want: Vec<u32> = (0..32u32).map(|l| (31 - l) * (31 - l) + 5).collect();
    assert_eq!(got, want);
}

/// `bar.sync 1, 64` in a block of 32 threads can never complete.
#[test]
fn a_barrier_that_cannot_complete_fails_the_launch() {
    let body = ".visible .entry k(.param .u64 out)\n{\n  bar.sync 1, 64;\n  ret;\n}\n";
    let t = std::time::Instant::now();
    assert_eq!(run(body, 4, 32, 1).unwrap_err(), DeviceError::LaunchFailed);
    assert!(t.elapsed() < std::time::Duration::from_secs(20), "took {:?}", t.elapsed());
    // The device still works afterwards.
    let got = run(ARRIVE, 1, 64, 32).unwrap();
    assert_eq!(got[0], 31 * 31 + 5);
}
