//! The implicit region splits of `compiler_core::lower::regions`: lockstep grid-stride
//! loops (`regions/lockstep.rs`) and warp collectives split into a deposit and a read
//! (`regions/warp_split.rs`). Every kernel runs on the region path and on the fiber path
//! and both are checked against a Rust model written from the PTX ISA (never against
//! each other's output only).

use backend_api::{Device, LaunchConfig, LoadOptions};
use compiler_core::lower::regions::set_enabled;
use std::sync::Mutex;
mod support;
use support::{download, upload};

/// Tests flip the process-wide fiber switch: run them one at a time.
static SWITCH: Mutex<()> = Mutex::new(());

/// A value that makes the thread reading it exit (`GRID_SUM` with exits).
const SENTINEL: u32 = 7777;

/// A grid-stride sum (stride `%nctaid * %ntid`), a shared-memory tree with a barrier per
/// step, thread 0 writing the block's sum. `%r30 != 0` (param `exits`): a thread exits
/// when it reads `SENTINEL` (after the first barrier, so its slot holds 0).
const GRID_SUM: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry gsum(.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 exits)
{
  .shared .align 4 .b8 sh[4096];
  .reg .b32 %r<40>;
  .reg .b64 %rd<8>;
  .reg .pred %p<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r30, [exits];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %nctaid.x;
  shl.b32 %r10, %r2, 2;
  mov.u32 %r11, sh;
  add.s32 %r12, %r11, %r10;
  mov.u32 %r8, 0;
  st.shared.u32 [%r12], %r8;
  bar.sync 0;
  mad.lo.s32 %r6, %r4, %r3, %r2;
  mul.lo.s32 %r7, %r5, %r3;
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra STORE;
LOOP:
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r9, [%rd4];
  setp.eq.u32 %p4, %r9, 7777;
  setp.ne.u32 %p5, %r30, 0;
  and.pred %p4, %p4, %p5;
  @%p4 ret;
  add.s32 %r8, %r8, %r9;
  add.s32 %r6, %r6, %r7;
  setp.lt.u32 %p2, %r6, %r1;
  @%p2 bra LOOP;
STORE:
  st.shared.u32 [%r12], %r8;
  bar.sync 0;
  shr.u32 %r13, %r3, 1;
TREE:
  setp.eq.u32 %p3, %r13, 0;
  @%p3 bra DONE;
  setp.ge.u32 %p1, %r2, %r13;
  @%p1 bra SKIP;
  shl.b32 %r14, %r13, 2;
  add.s32 %r15, %r12, %r14;
  ld.shared.u32 %r16, [%r15];
  ld.shared.u32 %r17, [%r12];
  add.s32 %r17, %r17, %r16;
  st.shared.u32 [%r12], %r17;
SKIP:
  bar.sync 0;
  shr.u32 %r13, %r13, 1;
  bra.uni TREE;
DONE:
  setp.ne.u32 %p1, %r2, 0;
  @%p1 bra END;
  ld.shared.u32 %r18, [sh];
  mul.wide.u32 %rd5, %r4, 4;
  add.s64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r18;
END:
  ret;
}
"#;

/// Lanes per warp of the PTX here.
const WARP: usize = 32;

/// Warp collectives after a grid-stride loop (so lanes reach them after different trip
/// counts), with full masks as immediates and through a register; threads `>= live`
/// exit first. Each thread writes 16 words.
const COLLECTIVES: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry coll(.param .u64 in, .param .u64 out, .param .u32 n, .param .u32 live)
{
  .reg .b32 %r<60>;
  .reg .b64 %rd<8>;
  .reg .pred %p<12>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  ld.param.u32 %r31, [live];
  mov.u32 %r2, %tid.x;
  setp.ge.u32 %p1, %r2, %r31;
  @%p1 bra END;
  mov.u32 %r3, %ntid.x;
  mov.u32 %r4, %ctaid.x;
  mov.u32 %r5, %nctaid.x;
  mad.lo.s32 %r6, %r4, %r3, %r2;
  mul.lo.s32 %r7, %r5, %r3;
  mov.u32 %r8, 0;
  mov.u32 %r32, %r6;
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra SCAN0;
LOOP:
  mul.wide.u32 %rd3, %r6, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r9, [%rd4];
  add.s32 %r8, %r8, %r9;
  add.s32 %r6, %r6, %r7;
  setp.lt.u32 %p2, %r6, %r1;
  @%p2 bra LOOP;
SCAN0:
  mov.u32 %r40, -1;
  mov.u32 %r10, %r8;
  mov.u32 %r11, 1;
  mov.u32 %r12, 0;
SCAN:
  shfl.sync.up.b32 %r13|%p3, %r10, %r11, 0, %r40;
  @%p3 add.s32 %r10, %r10, %r13;
  selp.u32 %r14, 1, 0, %p3;
  shl.b32 %r12, %r12, 1;
  or.b32 %r12, %r12, %r14;
  shl.b32 %r11, %r11, 1;
  setp.lt.u32 %p4, %r11, 32;
  @%p4 bra SCAN;
  shfl.sync.down.b32 %r15|%p5, %r8, 3, 31, -1;
  shfl.sync.idx.b32 %r16|%p6, %r8, 3, 0x181f, 0xffffffff;
  shfl.sync.bfly.b32 %r17|%p7, %r8, 5, 0x100f, %r40;
  selp.u32 %r18, 1, 0, %p5;
  selp.u32 %r19, 2, 0, %p6;
  selp.u32 %r20, 4, 0, %p7;
  or.b32 %r18, %r18, %r19;
  or.b32 %r18, %r18, %r20;
  and.b32 %r21, %r8, 1;
  setp.eq.u32 %p8, %r21, 1;
  vote.sync.ballot.b32 %r22, %p8, -1;
  vote.sync.all.pred %p9, %p8, -1;
  vote.sync.any.pred %p10, %p8, %r40;
  vote.sync.uni.pred %p11, %p8, -1;
  selp.u32 %r23, 1, 0, %p9;
  selp.u32 %r24, 2, 0, %p10;
  selp.u32 %r25, 4, 0, %p11;
  or.b32 %r23, %r23, %r24;
  or.b32 %r23, %r23, %r25;
  redux.sync.min.s32 %r26, %r8, -1;
  redux.sync.xor.b32 %r27, %r8, %r40;
  rem.u32 %r28, %r2, 5;
  match.any.sync.b32 %r29, %r28, -1;
  match.all.sync.b32 %r33|%p9, %r4, -1;
  selp.u32 %r34, 1, 0, %p9;
  bar.warp.sync -1;
  activemask.b32 %r35;
  mul.wide.u32 %rd5, %r32, 64;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.u32 [%rd6], {%r10, %r12, %r15, %r16};
  st.global.v4.u32 [%rd6+16], {%r17, %r18, %r22, %r23};
  st.global.v4.u32 [%rd6+32], {%r26, %r27, %r29, %r33};
  st.global.v4.u32 [%rd6+48], {%r34, %r35, %r8, 0};
END:
  ret;
}
"#;

/// The same collective with a member mask of half the warp: must run as fibers.
const PARTIAL_MASK: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry part(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  setp.ge.u32 %p1, %r2, 16;
  @%p1 bra END;
  shfl.sync.down.b32 %r3, %r1, 1, 31, 0xffff;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
END:
  ret;
}
"#;

fn launch(d: &dyn Device, ptx: &str, kernel: &str, block: u32, grid: u32, params: &[u8]) {
    let m = d.load_ptx(ptx, &LoadOptions::default()).unwrap();
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
    m.launch(kernel, &cfg, params).unwrap();
}

fn inputs(n: usize, seed: u32) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            (s >> 12) % 1000
        })
        .collect()
}

/// Which kinds of split the compiler made for the first kernel of `ptx`.
fn splits(ptx: &str) -> (bool, bool) {
    let m = compiler_core::host::compile_ptx(ptx, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    match &m.kernels[0].meta.regions {
        Some(r) => (!r.lockstep_states.is_empty(), r.warp_exchange.is_some()),
        None => (false, false),
    }
}

#[test]
fn the_splits_are_made() {
    let _one = SWITCH.lock().unwrap();
    assert_eq!(splits(GRID_SUM), (true, false), "grid-stride loop in lockstep");
    assert_eq!(splits(COLLECTIVES), (true, true), "collectives split, loop in lockstep");
    let m = compiler_core::host::compile_ptx(PARTIAL_MASK, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    assert!(m.kernels[0].regions.is_none() && m.kernels[0].thread_fn.is_some(), "a partial mask runs as fibers");
}

/// (block, grid, n, sentinels): trip counts that differ between threads, threads without
/// any iteration, one warp, exits inside the loop.
const GRID_SUM_CASES: &[(u32, u32, usize, bool)] =
    &[(64, 3, 1000, false), (128, 2, 100, false), (256, 4, 1 << 16, false), (32, 1, 31, false), (64, 3, 1000, true), (128, 5, 5000, true)];

#[test]
fn grid_stride_sums_with_barriers_and_exits() {
    let _one = SWITCH.lock().unwrap();
    check_grid_sums(GRID_SUM);
}

/// `GRID_SUM` with two more (redundant) barriers before the loop: more stops than
/// `MAX_SITES_WITH_LOOPS`, so its lockstep head runs in an x loop of its own inside the
/// dispatching loop (`target/host/dispatch.rs`) instead of a per-state loop; the cases
/// with exits and uneven trip counts run that loop masked.
fn grid_sum_many_stops() -> String {
    GRID_SUM.replacen("bar.sync 0;\n", "bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n", 1)
}

#[test]
fn grid_stride_sums_in_the_dispatching_loop() {
    let _one = SWITCH.lock().unwrap();
    let ptx = grid_sum_many_stops();
    let m = compiler_core::host::compile_ptx(&ptx, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    let r = m.kernels[0].meta.regions.as_ref().expect("a region kernel");
    assert!(r.sites > compiler_core::target::host::MAX_SITES_WITH_LOOPS && !r.lockstep_states.is_empty(), "{r:?}");
    check_grid_sums(&ptx);
}

/// Runs `GRID_SUM_CASES` with kernel `gsum` of `ptx` (`GRID_SUM`'s code) on both paths
/// against the model.
fn check_grid_sums(ptx: &str) {
    let d = cpu_backend::devices().remove(0);
    for &(block, grid, n, exits) in GRID_SUM_CASES {
        let mut x = inputs(n, block + grid);
        if exits {
            // Sentinels where thread 0 of a block never reads (it writes the sum).
            for i in (0..n).filter(|i| i % 7 == 3 && i % block as usize != 0) {
                x[i] = SENTINEL;
            }
        }
        // The model: thread (b, t) reads i = b*block + t + k*grid*block and stops for good
        // at a sentinel (its slot keeps the 0 stored first, and it takes no part in the
        // tree, so the slots it would have added in are lost too).
        let mut want = vec![0u32; grid as usize];
        for (b, sum) in want.iter_mut().enumerate() {
            let mut sh = vec![0u32; block as usize];
            let mut exited = vec![false; block as usize];
            for t in 0..block as usize {
                let mut acc = 0u32;
                let mut i = b * block as usize + t;
                while i < n {
                    if exits && x[i] == SENTINEL {
                        exited[t] = true;
                        break;
                    }
                    acc = acc.wrapping_add(x[i]);
                    i += (grid * block) as usize;
                }
                if !exited[t] {
                    sh[t] = acc;
                }
            }
            let mut s = block as usize / 2;
            while s > 0 {
                for t in (0..s).filter(|&t| !exited[t]) {
                    sh[t] = sh[t].wrapping_add(sh[t + s]);
                }
                s /= 2;
            }
            *sum = sh[0];
        }
        for fibers in [false, true] {
            set_enabled(!fibers);
            let input = upload::<u32>(&*d, &x);
            let out = upload::<u32>(&*d, &vec![0xdead_beef; grid as usize]);
            let mut params = input.to_le_bytes().to_vec();
            params.extend_from_slice(&out.to_le_bytes());
            params.extend_from_slice(&(n as u32).to_le_bytes());
            params.extend_from_slice(&(exits as u32).to_le_bytes());
            launch(&*d, ptx, "gsum", block, grid, &params);
            assert_eq!(download::<u32>(&*d, out, grid as usize), want, "fibers={fibers} block={block} grid={grid} n={n} exits={exits}");
            d.free(input).unwrap();
            d.free(out).unwrap();
        }
    }
    set_enabled(true);
}

/// `shfl.sync` by the PTX ISA's pseudo-code (9.7.8.6): the value read and the predicate.
/// `vals[l]` is `None` for a lane that is not at the collective (it reads its own value).
fn shfl(vals: &[Option<u32>], lane: usize, mode: &str, b: u32, c: u32) -> (u32, bool) {
    let lane = lane as i64;
    let (b, clamp, seg) = ((b & 31) as i64, (c & 31) as i64, ((c >> 8) & 31) as i64);
    let max_lane = (lane & seg) | (clamp & !seg);
    let min_lane = lane & seg;
    let (j, p) = match mode {
        "up" => (lane - b, lane - b >= max_lane),
        "down" => (lane + b, lane + b <= max_lane),
        "bfly" => (lane ^ b, (lane ^ b) <= max_lane),
        _ => (min_lane | (b & !seg), (min_lane | (b & !seg)) <= max_lane),
    };
    let src = if p { j } else { lane };
    let own = vals[lane as usize].unwrap();
    (vals.get(src as usize).copied().flatten().unwrap_or(own), p)
}

/// What thread `t` of `COLLECTIVES` writes, from the accumulators of the block's threads
/// (`None`: exited).
fn collectives_model(acc: &[Option<u32>], t: usize, ctaid: u32) -> [u32; 16] {
    let w0 = t / WARP * WARP;
    let lane = t % WARP;
    let warp: Vec<Option<u32>> = (0..WARP).map(|l| acc.get(w0 + l).copied().flatten()).collect();
    let arrived = (0..WARP).filter(|&l| warp[l].is_some()).fold(0u32, |m, l| m | 1 << l);
    // Inclusive scan by shfl.up 1, 2, 4, 8, 16 (clamp 0), every lane stepping together.
    let mut scan = warp.clone();
    let mut preds = 0u32;
    for k in 0..5 {
        let step: Vec<Option<(u32, bool)>> = (0..WARP).map(|l| scan[l].map(|_| shfl(&scan, l, "up", 1 << k, 0))).collect();
        preds = preds << 1 | step[lane].unwrap().1 as u32;
        for l in 0..WARP {
            if let (Some(v), Some((r, p))) = (scan[l], step[l]) {
                scan[l] = Some(if p { v.wrapping_add(r) } else { v });
            }
        }
    }
    let (down, p5) = shfl(&warp, lane, "down", 3, 31);
    let (idx, p6) = shfl(&warp, lane, "idx", 3, 0x181f);
    let (bfly, p7) = shfl(&warp, lane, "bfly", 5, 0x100f);
    let odd = |l: usize| warp[l].is_some_and(|v| v & 1 == 1);
    let ballot = (0..WARP).filter(|&l| odd(l)).fold(0u32, |m, l| m | 1 << l);
    let (all, any) = (ballot == arrived, ballot != 0);
    let votes = all as u32 | (any as u32) << 1 | ((all || !any) as u32) << 2;
    let present: Vec<u32> = warp.iter().flatten().copied().collect();
    let min = present.iter().map(|&v| v as i32).min().unwrap() as u32;
    let xor = present.iter().fold(0, |a, &v| a ^ v);
    let matched = (0..WARP).filter(|&l| warp[l].is_some() && (w0 + l) % 5 == t % 5).fold(0u32, |m, l| m | 1 << l);
    let _ = ctaid;
    [
        scan[lane].unwrap(),
        preds,
        down,
        idx,
        bfly,
        p5 as u32 | (p6 as u32) << 1 | (p7 as u32) << 2,
        ballot,
        votes,
        min,
        xor,
        matched,
        arrived, // match.all of the block index: every present lane agrees
        1,
        arrived,
        warp[lane].unwrap(),
        0,
    ]
}

/// (block, grid, n, live): partial warps, lanes that exited first, different trip counts.
const COLLECTIVE_CASES: &[(u32, u32, usize, u32)] =
    &[(64, 2, 1000, 64), (96, 3, 2000, 96), (48, 2, 500, 48), (64, 2, 1000, 40), (128, 1, 100, 77), (32, 4, 4096, 32)];

#[test]
fn warp_collectives_after_lockstep_loops() {
    let _one = SWITCH.lock().unwrap();
    let d = cpu_backend::devices().remove(0);
    for &(block, grid, n, live) in COLLECTIVE_CASES {
        let x = inputs(n, 7 * block + live);
        let threads = (block * grid) as usize;
        for fibers in [false, true] {
            set_enabled(!fibers);
            let input = upload::<u32>(&*d, &x);
            let out = upload::<u32>(&*d, &vec![0xdead_beef; threads * 16]);
            let mut params = input.to_le_bytes().to_vec();
            params.extend_from_slice(&out.to_le_bytes());
            params.extend_from_slice(&(n as u32).to_le_bytes());
            params.extend_from_slice(&live.to_le_bytes());
            launch(&*d, COLLECTIVES, "coll", block, grid, &params);
            let got = download::<u32>(&*d, out, threads * 16);
            for b in 0..grid as usize {
                let acc: Vec<Option<u32>> = (0..block as usize)
                    .map(|t| {
                        (t < live as usize).then(|| {
                            let stride = threads;
                            (b * block as usize + t..n).step_by(stride).fold(0u32, |a, i| a.wrapping_add(x[i]))
                        })
                    })
                    .collect();
                for t in 0..block as usize {
                    let g = b * block as usize + t;
                    let row = &got[g * 16..g * 16 + 16];
                    if t >= live as usize {
                        assert!(row.iter().all(|&v| v == 0xdead_beef), "exited thread {g} wrote");
                        continue;
                    }
                    let want = collectives_model(&acc, t, b as u32);
                    assert_eq!(row, &want, "fibers={fibers} block={block} grid={grid} n={n} live={live} thread {g}");
                }
            }
            d.free(input).unwrap();
            d.free(out).unwrap();
        }
    }
    set_enabled(true);
}

#[test]
fn partial_masks_still_meet_on_fibers() {
    let _one = SWITCH.lock().unwrap();
    let d = cpu_backend::devices().remove(0);
    let block = 64usize;
    let out = upload::<u32>(&*d, &vec![0xdead_beef; block]);
    launch(&*d, PARTIAL_MASK, "part", block as u32, 1, &out.to_le_bytes());
    let got = download::<u32>(&*d, out, block);
    for t in 0..block {
        let lane = t % WARP;
        // Lanes 0..15 of each warp meet; lane 15 reads lane 16, which is not there.
        let want = if lane >= 16 {
            0xdead_beef
        } else if lane < 15 {
            t as u32 + 1
        } else {
            t as u32
        };
        assert_eq!(got[t], want, "thread {t}");
    }
    d.free(out).unwrap();
}

/// A full-mask shuffle reached by half of each warp only (undefined in PTX: the mask names
/// lanes that never arrive). Both paths let the lanes that arrived meet, and a lane reading
/// one that did not gets its own value; nothing hangs.
const HALF_WARP_FULL_MASK: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry half(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mul.lo.s32 %r4, %r1, 10;
  and.b32 %r2, %r1, 31;
  setp.ge.u32 %p1, %r2, 16;
  @%p1 bra END;
  shfl.sync.down.b32 %r3, %r4, 8, 31, -1;
  mul.wide.u32 %rd2, %r1, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r3;
END:
  ret;
}
"#;

#[test]
fn full_mask_collective_reached_by_half_the_warp() {
    let _one = SWITCH.lock().unwrap();
    let d = cpu_backend::devices().remove(0);
    assert_eq!(splits(HALF_WARP_FULL_MASK).1, true, "a full mask is split");
    let block = 96usize;
    for fibers in [false, true] {
        set_enabled(!fibers);
        let out = upload::<u32>(&*d, &vec![0xdead_beef; block]);
        launch(&*d, HALF_WARP_FULL_MASK, "half", block as u32, 1, &out.to_le_bytes());
        let got = download::<u32>(&*d, out, block);
        for t in 0..block {
            let lane = t % WARP;
            let want = if lane >= 16 {
                0xdead_beef
            } else if lane < 8 {
                10 * (t as u32 + 8)
            } else {
                10 * t as u32
            };
            assert_eq!(got[t], want, "fibers={fibers} thread {t}");
        }
        d.free(out).unwrap();
    }
    set_enabled(true);
}

/// A warp sum of 64-bit values by 32-bit shuffles, as nvcc emits it for `__shfl_down_sync`
/// on doubles: every step in its own `{ }` block declaring registers of the same names
/// (`lo`, `hi`, `p`, `r0`), live across the split of the block's second shuffle. Each
/// thread writes its partial sum.
fn scoped_shuffle_sum() -> String {
    let mut steps = String::new();
    let mut acc = 5;
    for off in [16, 8, 4, 2, 1] {
        let next = acc + 1;
        steps.push_str(&format!(
            "  {{ .reg .u32 lo; .reg .u32 hi; .reg .pred p; .reg .b64 r0; mov.b64 %rd{next}, %rd{acc}; mov.b64 {{lo, hi}}, %rd{acc}; shfl.sync.down.b32 lo|p, lo, {off}, 31, %r5; shfl.sync.down.b32 hi|p, hi, {off}, 31, %r5; mov.b64 r0, {{lo, hi}}; @p add.s64 %rd{next}, %rd{next}, r0; }}\n"
        ));
        acc = next;
    }
    format!(
        r#".version 8.0
.target sm_80
.address_size 64
.visible .entry wsum(.param .u64 in, .param .u64 out)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<20>;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mul.wide.u32 %rd3, %r4, 8;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u64 %rd5, [%rd4];
  mov.u32 %r5, -1;
{steps}  add.s64 %rd15, %rd2, %rd3;
  st.global.u64 [%rd15], %rd{acc};
  ret;
}}
"#
    )
}

#[test]
fn same_named_registers_of_nested_blocks_across_warp_splits() {
    let _one = SWITCH.lock().unwrap();
    let ptx = scoped_shuffle_sum();
    assert_eq!(splits(&ptx), (false, true), "the shuffles are split");
    let d = cpu_backend::devices().remove(0);
    for (block, grid) in [(32u32, 1u32), (64, 3), (128, 2)] {
        let n = (block * grid) as usize;
        // Values with both halves busy.
        let x: Vec<u64> = inputs(2 * n, block).chunks(2).map(|c| (c[0] as u64) << 40 | (c[1] as u64) << 3 | 5).collect();
        // The model: shfl.down with clamp 31 (PTX ISA 9.7.8.6): lane l adds lane l + off
        // when that lane is in the warp.
        let mut want = Vec::with_capacity(n);
        for warp in x.chunks(WARP) {
            let mut v = warp.to_vec();
            for off in [16, 8, 4, 2, 1] {
                v = (0..WARP).map(|l| if l + off < WARP { v[l].wrapping_add(v[l + off]) } else { v[l] }).collect();
            }
            want.extend(v);
        }
        for fibers in [false, true] {
            set_enabled(!fibers);
            let words: Vec<u32> = x.iter().flat_map(|v| [*v as u32, (*v >> 32) as u32]).collect();
            let input = upload::<u32>(&*d, &words);
            let out = upload::<u32>(&*d, &vec![0xdead_beef; 2 * n]);
            let mut params = input.to_le_bytes().to_vec();
            params.extend_from_slice(&out.to_le_bytes());
            launch(&*d, &ptx, "wsum", block, grid, &params);
            let got: Vec<u64> = download::<u32>(&*d, out, 2 * n).chunks(2).map(|c| c[0] as u64 | (c[1] as u64) << 32).collect();
            assert_eq!(got, want, "fibers={fibers} block={block} grid={grid}");
            d.free(input).unwrap();
            d.free(out).unwrap();
        }
    }
    set_enabled(true);
}
