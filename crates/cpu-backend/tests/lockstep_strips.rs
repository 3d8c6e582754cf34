//! Lockstep loops run several iterations per pause (`compiler_core::lower::regions`,
//! `lockstep.rs` `iterations_per_pause`): threads whose trip counts end below, at and
//! past multiples of that count, loops with two exits, a trap after several pauses, a
//! barrier after the loop and a second lockstep loop after it. Every case runs on the
//! region path and on the fiber path, both checked against a Rust model of the PTX.

use backend_api::{Device, LaunchConfig, LoadOptions};
use compiler_core::lower::regions::{iterations_per_pause, set_enabled};
use std::sync::Mutex;
mod support;
use support::{download, upload};

/// Tests flip the process-wide fiber switch: run them one at a time.
static SWITCH: Mutex<()> = Mutex::new(());

/// The per-thread iteration cap of the first loop is `tid % CAP_MOD`, so a block's
/// threads stop after 0 to `CAP_MOD - 1` iterations (straddling the pause count).
const CAP_MOD: u32 = 19;
/// The first loop's iteration at which the thread with global index `trap_at` traps.
const TRAP_ITERATION: u32 = 10;
/// `trap_at` that no thread has.
const NO_TRAP: u32 = u32::MAX;

/// Loop 1: `for (i = gtid, k = 0; i < n && k < tid % 19; i += stride, k++)
/// { if (gtid == trap_at && k == 10) trap; acc = acc * 3 + in[i]; }` (the order of a
/// thread's iterations shows in `acc`); the block exchanges `acc` through shared memory
/// after a barrier (each thread reads its neighbour's); loop 2 counts the elements above
/// 500 of the thread's grid-stride share. `out[2 gtid]` = neighbour's acc,
/// `out[2 gtid + 1]` = the count.
const STRIPS: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry strips(.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 trap_at)
{
  .shared .align 4 .b8 sh[4096];
  .reg .b32 %r<40>;
  .reg .b64 %rd<8>;
  .reg .pred %p<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r20, [trap_at];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %nctaid.x;
  mad.lo.s32 %r6, %r4, %r3, %r2;
  mov.u32 %r21, %r6;
  mul.lo.s32 %r7, %r5, %r3;
  rem.u32 %r10, %r2, 19;
  mov.u32 %r8, 0;
  mov.u32 %r11, 0;
LOOP:
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra AFTER;
  setp.ge.u32 %p2, %r11, %r10;
  @%p2 bra AFTER;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r9, [%rd4];
  setp.eq.u32 %p3, %r21, %r20;
  setp.eq.u32 %p4, %r11, 10;
  and.pred %p3, %p3, %p4;
  @%p3 trap;
  mad.lo.s32 %r8, %r8, 3, %r9;
  add.s32 %r11, %r11, 1;
  add.s32 %r6, %r6, %r7;
  bra.uni LOOP;
AFTER:
  shl.b32 %r12, %r2, 2;
  mov.u32 %r13, sh;
  add.s32 %r14, %r13, %r12;
  st.shared.u32 [%r14], %r8;
  bar.sync 0;
  add.s32 %r15, %r2, 1;
  rem.u32 %r15, %r15, %r3;
  shl.b32 %r16, %r15, 2;
  add.s32 %r17, %r13, %r16;
  ld.shared.u32 %r18, [%r17];
  mov.u32 %r6, %r21;
  mov.u32 %r19, 0;
LOOP2:
  setp.ge.u32 %p5, %r6, %r1;
  @%p5 bra END;
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r9, [%rd4];
  setp.gt.u32 %p6, %r9, 500;
  selp.u32 %r22, 1, 0, %p6;
  add.s32 %r19, %r19, %r22;
  add.s32 %r6, %r6, %r7;
  bra.uni LOOP2;
END:
  mul.wide.u32 %rd5, %r21, 8;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r18;
  st.global.u32 [%rd6+4], %r19;
  ret;
}
"#;

/// (block, grid, n): every thread reaches its cap; trip counts cut by `n` at different
/// threads; a block size that is no multiple of a warp; one block.
const CASES: &[(u32, u32, usize)] =
    &[(64, 2, 64 * 2 * 20), (32, 1, 32 * 9 + 5), (256, 3, 256 * 3 * 12 + 100), (96, 5, 1000), (33, 4, 33 * 4 * 17 + 1), (128, 1, 128 * 8)];

fn inputs(n: usize) -> Vec<u32> {
    let mut s = 0x1234_5678u32;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 12) % 1000
        })
        .collect()
}

/// What `strips` writes, computed from the PTX's semantics; `None` when a thread traps.
fn model(x: &[u32], block: u32, grid: u32, trap_at: u32) -> Option<Vec<u32>> {
    let (block, stride) = (block as usize, (block * grid) as usize);
    let mut out = vec![0u32; 2 * stride];
    for b in 0..grid as usize {
        let mut acc = vec![0u32; block];
        for (t, a) in acc.iter_mut().enumerate() {
            let gtid = b * block + t;
            let (mut i, mut k) = (gtid, 0u32);
            while i < x.len() && k < t as u32 % CAP_MOD {
                if gtid as u32 == trap_at && k == TRAP_ITERATION {
                    return None;
                }
                *a = a.wrapping_mul(3).wrapping_add(x[i]);
                k += 1;
                i += stride;
            }
        }
        for t in 0..block {
            let gtid = b * block + t;
            out[2 * gtid] = acc[(t + 1) % block];
            out[2 * gtid + 1] = (gtid..x.len()).step_by(stride).filter(|&i| x[i] > 500).count() as u32;
        }
    }
    Some(out)
}

/// Runs `strips` on the region path (`fibers` false) or the fiber path; the output
/// buffer, or the launch error.
fn run(d: &dyn Device, fibers: bool, x: &[u32], block: u32, grid: u32, trap_at: u32) -> Result<Vec<u32>, String> {
    set_enabled(!fibers);
    let m = d.load_ptx(STRIPS, &LoadOptions::default()).unwrap();
    set_enabled(true);
    let words = 2 * (block * grid) as usize;
    let input = upload(d, x);
    let out = d.alloc(words * 4).unwrap();
    d.memset(out, 0xdead_beef, 4, words).unwrap();
    let mut params = input.to_le_bytes().to_vec();
    params.extend_from_slice(&out.to_le_bytes());
    params.extend_from_slice(&(x.len() as u32).to_le_bytes());
    params.extend_from_slice(&trap_at.to_le_bytes());
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
    let result = m.launch("strips", &cfg, &params).map_err(|e| format!("{e:?}"));
    let v = download::<u32>(d, out, words);
    d.free(input).unwrap();
    d.free(out).unwrap();
    result.map(|()| v)
}

#[test]
fn both_loops_are_lockstep_loops_and_the_cases_cross_pauses() {
    let _one = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let m = compiler_core::host::compile_ptx(STRIPS, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    let r = m.kernels[0].meta.regions.as_ref().expect("a region kernel");
    assert_eq!(r.lockstep_states.len(), 2, "{r:?}");
    // The caps reach past two pauses' worth of iterations, so threads pause, resume
    // and leave the loop at every position relative to a pause.
    assert!(CAP_MOD > 2 * iterations_per_pause() + 1, "caps 0..{CAP_MOD} against {} per pause", iterations_per_pause());
}

#[test]
fn uneven_trip_counts_across_pauses_match_rust() {
    let _one = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let d = cpu_backend::devices().remove(0);
    for &(block, grid, n) in CASES {
        let x = inputs(n);
        let want = model(&x, block, grid, NO_TRAP).expect("no trap");
        for fibers in [false, true] {
            let got = run(&*d, fibers, &x, block, grid, NO_TRAP).unwrap();
            assert_eq!(got, want, "fibers={fibers} block={block} grid={grid} n={n}");
        }
    }
}

#[test]
fn a_trap_after_several_pauses_fails_the_launch() {
    let _one = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let d = cpu_backend::devices().remove(0);
    let (block, grid) = (64u32, 2u32);
    let n = (block * grid) as usize * 20;
    let x = inputs(n);
    // Thread 11 of each block has cap 11 and so reaches iteration 10; thread 5 does not.
    for (trap_at, traps) in [(11u32, true), (64 + 12, true), (5, false), (64 + 5, false)] {
        assert_eq!(model(&x, block, grid, trap_at).is_none(), traps, "model, thread {trap_at}");
        for fibers in [false, true] {
            match run(&*d, fibers, &x, block, grid, trap_at) {
                Err(e) => assert!(traps && e.contains("LaunchFailed"), "fibers={fibers} thread {trap_at}: {e}"),
                Ok(got) => {
                    assert!(!traps, "fibers={fibers}: thread {trap_at} should have trapped");
                    assert_eq!(Some(got), model(&x, block, grid, trap_at), "fibers={fibers} thread {trap_at}");
                }
            }
        }
    }
}
