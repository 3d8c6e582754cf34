//! The barrier-region fast path (`compiler_core::lower::regions`): kernels with block
//! barriers run region by region without fibers. Each kernel here is checked against a
//! Rust computation of what CUDA defines, on the fast path and on the fiber path.

use backend_api::{LaunchConfig, LoadOptions};
use compiler_core::lower::regions::set_enabled;
use std::sync::Mutex;

/// Tests flip the process-wide fiber switch: run them one at a time.
static SWITCH: Mutex<()> = Mutex::new(());

/// Registers and `.local` memory live across barriers, threads that exit before the
/// first barrier, and a barrier reached on two different paths (even/odd threads).
const DIVERGENT: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 n)
{
  .local .align 4 .b8 loc[16];
  .shared .align 4 .b8 sh[4096];
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r9, [n];
  mov.u32 %r1, %tid.x;
  setp.ge.u32 %p1, %r1, %r9;
  @%p1 bra DONE;
  mul.lo.s32 %r2, %r1, 7;
  st.local.u32 [loc+4], %r2;
  shl.b32 %r3, %r1, 2;
  mov.u32 %r4, sh;
  add.s32 %r4, %r4, %r3;
  st.shared.u32 [%r4], %r1;
  bar.sync 0;
  add.s32 %r5, %r1, 1;
  rem.u32 %r5, %r5, %r9;
  shl.b32 %r5, %r5, 2;
  mov.u32 %r6, sh;
  add.s32 %r6, %r6, %r5;
  ld.shared.u32 %r7, [%r6];
  and.b32 %r8, %r1, 1;
  setp.eq.u32 %p2, %r8, 0;
  @%p2 bra EVEN;
  add.s32 %r7, %r7, 1000;
  bar.sync 0;
  bra.uni JOIN;
EVEN:
  add.s32 %r7, %r7, 2000;
  barrier.sync 0;
JOIN:
  ld.local.u32 %r3, [loc+4];
  add.s32 %r7, %r7, %r3;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r7;
DONE:
  ret;
}
"#;

fn launch(ptx: &str, kernel: &str, block: u32, grid: u32, params: &[u8]) {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(ptx, &LoadOptions::default()).unwrap();
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
    m.launch(kernel, &cfg, params).unwrap();
}

#[test]
fn the_fast_path_is_taken() {
    // The other tests switch regions off for a while: wait for them.
    let _one = SWITCH.lock().unwrap();
    let m = compiler_core::host::compile_ptx(DIVERGENT, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    let r = m.kernels[0].regions.as_ref().expect("a region plan");
    assert_eq!(m.kernels[0].meta.regions.as_ref().map(|r| r.sites), Some(3), "three barriers");
    assert!(r.save_bytes_per_thread >= 16, "the .local array lives in the save area");
    assert!(m.kernels[0].thread_fn.is_none(), "no fiber body is compiled alongside");
}

#[test]
fn divergent_barriers_exits_and_live_values() {
    let _one = SWITCH.lock().unwrap();
    let d = cpu_backend::devices().remove(0);
    for fibers in [false, true] {
        set_enabled(!fibers);
        for (block, n) in [(256u32, 256u32), (256, 200), (1024, 1000), (64, 1)] {
            let out = d.alloc(block as usize * 4).unwrap();
            d.memset(out, 0xdead_beef, 4, block as usize).unwrap();
            let mut params = out.to_le_bytes().to_vec();
            params.extend_from_slice(&n.to_le_bytes());
            launch(DIVERGENT, "k", block, 3, &params);
            let mut got = vec![0u32; block as usize];
            unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, block as usize * 4).unwrap() };
            for t in 0..block {
                let want = if t < n { (t + 1) % n + if t % 2 == 0 { 2000 } else { 1000 } + 7 * t } else { 0xdead_beef };
                assert_eq!(got[t as usize], want, "fibers={fibers} block={block} n={n} t={t}");
            }
            d.free(out).unwrap();
        }
    }
    set_enabled(true);
}

/// A shared-memory bitonic sort of one block (barriers inside loops).
pub const BITONIC: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry sort(.param .u64 data)
{
  .shared .align 4 .b8 keys[4096];
  .reg .b32 %r<20>;
  .reg .b64 %rd<6>;
  .reg .pred %p<6>;
  ld.param.u64 %rd1, [data];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mad.lo.s32 %r4, %r3, %r2, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.s64 %rd3, %rd1, %rd2;
  ld.global.u32 %r5, [%rd3];
  mov.u32 %r6, keys;
  shl.b32 %r7, %r1, 2;
  add.s32 %r8, %r6, %r7;
  st.shared.u32 [%r8], %r5;
  bar.sync 0;
  mov.u32 %r9, 2;
OUTER:
  setp.gt.u32 %p1, %r9, %r2;
  @%p1 bra FINISH;
  shr.u32 %r10, %r9, 1;
INNER:
  setp.eq.u32 %p2, %r10, 0;
  @%p2 bra NEXT_OUTER;
  xor.b32 %r11, %r1, %r10;
  setp.le.u32 %p3, %r11, %r1;
  @%p3 bra SKIP;
  shl.b32 %r12, %r11, 2;
  add.s32 %r12, %r6, %r12;
  ld.shared.u32 %r13, [%r8];
  ld.shared.u32 %r14, [%r12];
  and.b32 %r15, %r1, %r9;
  setp.eq.u32 %p4, %r15, 0;
  setp.gt.u32 %p5, %r13, %r14;
  xor.pred %p5, %p5, %p4;
  @%p5 bra SKIP;
  st.shared.u32 [%r8], %r14;
  st.shared.u32 [%r12], %r13;
SKIP:
  bar.sync 0;
  shr.u32 %r10, %r10, 1;
  bra.uni INNER;
NEXT_OUTER:
  shl.b32 %r9, %r9, 1;
  bra.uni OUTER;
FINISH:
  ld.shared.u32 %r16, [%r8];
  st.global.u32 [%rd3], %r16;
  ret;
}
"#;

#[test]
fn bitonic_sort_on_both_paths() {
    let _one = SWITCH.lock().unwrap();
    let d = cpu_backend::devices().remove(0);
    let (block, grid) = (1024usize, 4usize);
    let mut seed = 12345u32;
    let input: Vec<u32> = (0..block * grid)
        .map(|_| {
            seed = seed.wrapping_mul(1664525).wrapping_add(1013904223);
            seed >> 8
        })
        .collect();
    for fibers in [false, true] {
        set_enabled(!fibers);
        let p = d.alloc(input.len() * 4).unwrap();
        unsafe { d.copy_to_device(p, input.as_ptr() as *const u8, input.len() * 4).unwrap() };
        launch(BITONIC, "sort", block as u32, grid as u32, &p.to_le_bytes());
        let mut got = vec![0u32; input.len()];
        unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, p, input.len() * 4).unwrap() };
        for b in 0..grid {
            let mut want = input[b * block..(b + 1) * block].to_vec();
            want.sort_unstable();
            assert_eq!(&got[b * block..(b + 1) * block], &want[..], "fibers={fibers} block {b}");
        }
        d.free(p).unwrap();
    }
    set_enabled(true);
}

/// Values live across barriers of every kind the region split treats differently: pure
/// functions of `%tid`/`%ctaid`/`%ntid`, parameters, shared-variable addresses and
/// constants (recomputed where a region resumes: `r2`..`r10`, `rd1`, `rd2`, the predicate
/// `p1`) and values that must go through the save area (`r12` written twice, once under a
/// guard; the loop counter `r13`; `r14` loaded from shared memory; the sum `r15`).
const REMAT: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry remat(.param .u64 out, .param .u32 k)
{
  .shared .align 4 .b8 buf[4096];
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [k];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  mov.u32 %r6, buf;
  shl.b32 %r7, %r2, 2;
  add.s32 %r8, %r6, %r7;
  setp.lt.u32 %p1, %r2, %r1;
  selp.b32 %r9, 3, 5, %p1;
  mul.lo.s32 %r10, %r2, %r1;
  cvt.u64.u32 %rd2, %r5;
  add.s32 %r12, %r2, 1;
  @%p1 add.s32 %r12, %r12, 100;
  mov.u32 %r13, 0;
  mov.u32 %r15, 0;
  st.shared.u32 [%r8], %r5;
  bar.sync 0;
LOOP:
  add.s32 %r16, %r2, %r13;
  add.s32 %r16, %r16, 1;
  rem.u32 %r16, %r16, %r4;
  shl.b32 %r16, %r16, 2;
  add.s32 %r16, %r6, %r16;
  ld.shared.u32 %r14, [%r16];
  add.s32 %r15, %r15, %r14;
  bar.sync 0;
  add.s32 %r17, %r14, %r9;
  st.shared.u32 [%r8], %r17;
  bar.sync 0;
  add.s32 %r13, %r13, 1;
  setp.lt.u32 %p2, %r13, 3;
  @%p2 bra LOOP;
  mul.lo.s32 %r18, %r13, 1000;
  add.s32 %r15, %r15, %r18;
  add.s32 %r15, %r15, %r12;
  add.s32 %r15, %r15, %r10;
  shl.b64 %rd3, %rd2, 1;
  cvt.u32.u64 %r19, %rd3;
  add.s32 %r15, %r15, %r19;
  shl.b64 %rd4, %rd2, 2;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r15;
  ret;
}
"#;

#[test]
fn rematerialized_values_match_saved_ones() {
    let _one = SWITCH.lock().unwrap();
    set_enabled(true);
    let m = compiler_core::host::compile_ptx(REMAT, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    let r = m.kernels[0].regions.as_ref().expect("a region plan");
    assert_eq!(r.save_bytes_per_thread, 16, "only r12, r13, r14 and r15 are saved");
    drop(m);
    let d = cpu_backend::devices().remove(0);
    let (grid, k) = (3u32, 70u32);
    for fibers in [false, true] {
        set_enabled(!fibers);
        for block in [256u32, 100] {
            let total = (block * grid) as usize;
            let out = d.alloc(total * 4).unwrap();
            let mut params = out.to_le_bytes().to_vec();
            params.extend_from_slice(&k.to_le_bytes());
            launch(REMAT, "remat", block, grid, &params);
            let mut got = vec![0u32; total];
            unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, total * 4).unwrap() };
            // The kernel's rounds, block by block: each thread reads its right-hand
            // neighbour's slot (i + 1 places away in round i), adds it to its sum and
            // stores it plus 3 (threads below k) or 5.
            for b in 0..grid {
                let mut s: Vec<u32> = (0..block).map(|t| b * block + t).collect();
                let mut acc = vec![0u32; block as usize];
                for i in 0..3 {
                    let v: Vec<u32> = (0..block).map(|t| s[((t + i + 1) % block) as usize]).collect();
                    for t in 0..block as usize {
                        acc[t] = acc[t].wrapping_add(v[t]);
                        s[t] = v[t] + if (t as u32) < k { 3 } else { 5 };
                    }
                }
                for t in 0..block {
                    let gid = b * block + t;
                    let r12 = t + 1 + if t < k { 100 } else { 0 };
                    let want = acc[t as usize].wrapping_add(3000).wrapping_add(r12).wrapping_add(t * k).wrapping_add(2 * gid);
                    assert_eq!(got[gid as usize], want, "fibers={fibers} block={block} t={t} b={b}");
                }
            }
            d.free(out).unwrap();
        }
    }
    set_enabled(true);
}
