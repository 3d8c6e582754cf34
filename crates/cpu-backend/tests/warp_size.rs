//! The module's warp size (`.warp_size 64`; 32 when absent) on the CPU device: the same
//! warp-level PTX compiled as a 32-lane and as a 64-lane module, every thread's result
//! checked against a Rust model of the PTX ISA rules at that width (shfl: PTX ISA
//! 9.7.8.6 with the wave64 `c` layout of shared/seeds 002; vote, redux, match,
//! activemask: 9.7.13.x; special registers: 10). Blocks are 16 x 5 = 80 threads, so the
//! last warp is partial at both widths (16 lanes) and warps follow the linear thread id.

use backend_api::{DeviceError, LaunchConfig, LoadOptions};

/// One thread as the model sees it.
#[derive(Clone, Copy, Debug)]
struct Lane {
    /// Linear thread id in the block.
    t: u32,
    /// Warp size of the module.
    w: u32,
    lane: u32,
    /// Lanes that exist in this thread's warp.
    lanes: u32,
}

impl Lane {
    fn new(t: u32, w: u32, n: u32) -> Lane {
        let base = t / w * w;
        Lane { t, w, lane: t - base, lanes: (n - base).min(w) }
    }
    /// The value every kernel shuffles: 3t + 1 of lane `l` of this warp.
    fn v_of(&self, l: u32) -> u64 {
        ((self.t - self.lane + l) * 3 + 1) as u64
    }
    fn exists(&self, l: u32) -> bool {
        l < self.lanes
    }
    /// Lanes of this warp, as a mask.
    fn existing(&self) -> u64 {
        if self.lanes == 64 {
            u64::MAX
        } else {
            (1u64 << self.lanes) - 1
        }
    }
    /// The bits of `mask` a `w`-lane lane mask keeps.
    fn width(&self, mask: u64) -> u64 {
        if self.w == 64 {
            mask
        } else {
            mask & 0xffff_ffff
        }
    }
    /// Mask of the existing lanes `l` for which `f(l)` holds.
    fn lanes_where(&self, f: impl Fn(u32) -> bool) -> u64 {
        (0..self.lanes).filter(|&l| f(l)).fold(0, |m, l| m | 1 << l)
    }
}

#[derive(Clone, Copy)]
enum Mode {
    Up,
    Down,
    Bfly,
    Idx,
}

/// `shfl.sync` source lane and predicate (PTX ISA 9.7.8.6), with `b`'s lane, `cval` and
/// `segmask` one bit wider in 64-lane warps.
fn shfl_source(mode: Mode, lane: u32, b: u32, c: u32, w: u32) -> (u32, bool) {
    let top = w as i64 - 1;
    let (lane, bl, cval, seg) = (lane as i64, (b as i64) & top, (c as i64) & top, ((c >> 8) as i64) & top);
    let max_lane = (lane & seg) | (cval & !seg & top);
    let min_lane = lane & seg;
    let (j, pval) = match mode {
        Mode::Up => (lane - bl, lane - bl >= max_lane),
        Mode::Down => (lane + bl, lane + bl <= max_lane),
        Mode::Bfly => (lane ^ bl, (lane ^ bl) <= max_lane),
        Mode::Idx => {
            let j = min_lane | (bl & !seg & top);
            (j, j <= max_lane)
        }
    };
    (if pval { j as u32 } else { lane as u32 }, pval)
}

/// What a `shfl` case stores: the value (low half) and the predicate (high half). The
/// value is undefined when the source lane does not take part (`member`).
fn shfl_result(l: &Lane, mode: Mode, b: u32, c: u32, member: u64) -> (u64, u64) {
    let (j, pval) = shfl_source(mode, l.lane, b, c, l.w);
    let defined = l.exists(j) && member >> j & 1 == 1;
    let care = if defined { u64::MAX } else { 0xffff_ffff_0000_0000 };
    (l.v_of(j) | (pval as u64) << 32, care)
}

type Model = fn(&Lane) -> (u64, u64);

/// (kernel name, PTX body, model). Bodies see `%r1` = linear tid, `%r2` = `%laneid`,
/// `%r5` = 3t + 1, `%r8` = `WARP_SZ - 1`, and leave their result in `%rd10` (initially
/// 0; `bra DONE` skips to the store). Every constant and register lane mask is written
/// once and read at the module's width.
const CASES: &[(&str, &str, Model)] = &[
    ("warp_sz", "cvt.u64.u32 %rd10, WARP_SZ;", |l| (l.w as u64, u64::MAX)),
    (
        "sregs",
        "mov.u32 %r10, %warpid; shl.b32 %r10, %r10, 8; or.b32 %r10, %r10, %r2; mov.u32 %r11, %nwarpid; shl.b32 %r11, %r11, 16; or.b32 %r10, %r10, %r11; cvt.u64.u32 %rd10, %r10;",
        // %nwarpid: the warp slots of a 1024-thread CTA (ARCHITECTURE.md).
        |l| ((l.lane | (l.t / l.w) << 8 | (1024 / l.w) << 16) as u64, u64::MAX),
    ),
    ("lanemask_eq", "mov.b64 %rd10, %lanemask_eq;", |l| (1 << l.lane, u64::MAX)),
    ("lanemask_lt", "mov.b64 %rd10, %lanemask_lt;", |l| ((1u64 << l.lane) - 1, u64::MAX)),
    ("lanemask_le", "mov.b64 %rd10, %lanemask_le;", |l| ((1u64 << l.lane) | ((1u64 << l.lane) - 1), u64::MAX)),
    ("lanemask_gt", "mov.b64 %rd10, %lanemask_gt;", |l| (l.width(!((1u64 << l.lane) | ((1u64 << l.lane) - 1))), u64::MAX)),
    ("lanemask_ge", "mov.b64 %rd10, %lanemask_ge;", |l| (l.width(!((1u64 << l.lane) - 1)), u64::MAX)),
    (
        "shfl_down_clamped",
        "shfl.sync.down.b32 %r10|%p1, %r5, 1, %r8, -1; selp.u32 %r11, 1, 0, %p1; mov.b64 %rd10, {%r10, %r11};",
        |l| shfl_result(l, Mode::Down, 1, l.w - 1, u64::MAX),
    ),
    (
        "shfl_up",
        "shfl.sync.up.b32 %r10|%p1, %r5, 3, 0, -1; selp.u32 %r11, 1, 0, %p1; mov.b64 %rd10, {%r10, %r11};",
        |l| shfl_result(l, Mode::Up, 3, 0, u64::MAX),
    ),
    (
        // Segments of 16 lanes: c = ((WARP_SZ - 16) << 8) | (WARP_SZ - 1).
        "shfl_bfly_segments",
        "sub.u32 %r12, WARP_SZ, 16; shl.b32 %r12, %r12, 8; or.b32 %r12, %r12, %r8; shfl.sync.bfly.b32 %r10|%p1, %r5, 19, %r12, -1; selp.u32 %r11, 1, 0, %p1; mov.b64 %rd10, {%r10, %r11};",
        |l| shfl_result(l, Mode::Bfly, 19, ((l.w - 16) << 8) | (l.w - 1), u64::MAX),
    ),
    (
        "shfl_idx_lane_37",
        "shfl.sync.idx.b32 %r10|%p1, %r5, 37, %r8, -1; selp.u32 %r11, 1, 0, %p1; mov.b64 %rd10, {%r10, %r11};",
        |l| shfl_result(l, Mode::Idx, 37, l.w - 1, u64::MAX),
    ),
    (
        "shfl_bfly_32",
        "shfl.sync.bfly.b32 %r10|%p1, %r5, 0x20, %r8, -1; selp.u32 %r11, 1, 0, %p1; mov.b64 %rd10, {%r10, %r11};",
        |l| shfl_result(l, Mode::Bfly, 32, l.w - 1, u64::MAX),
    ),
    (
        // Only even lanes shuffle, among themselves (partial mask in divergent code).
        "shfl_idx_even_lanes",
        "and.b32 %r12, %r2, 1; setp.ne.u32 %p2, %r12, 0; @%p2 bra DONE; add.u32 %r13, %r2, 2; shfl.sync.idx.b32 %r10|%p1, %r5, %r13, %r8, 0x5555555555555555; selp.u32 %r11, 1, 0, %p1; mov.b64 %rd10, {%r10, %r11};",
        |l| match l.lane % 2 {
            0 => shfl_result(l, Mode::Idx, l.lane + 2, l.w - 1, l.width(0x5555_5555_5555_5555)),
            _ => (0, u64::MAX),
        },
    ),
    (
        "bar_warp_sync_then_shfl",
        "bar.warp.sync -1; shfl.sync.bfly.b32 %r10|%p1, %r5, 1, %r8, -1; selp.u32 %r11, 1, 0, %p1; mov.b64 %rd10, {%r10, %r11};",
        |l| shfl_result(l, Mode::Bfly, 1, l.w - 1, u64::MAX),
    ),
    (
        "vote_ballot",
        "rem.u32 %r12, %r1, 3; setp.eq.u32 %p2, %r12, 0; vote.sync.ballot.b32 %rd10, %p2, -1;",
        |l| (l.lanes_where(|k| (l.t - l.lane + k) % 3 == 0), u64::MAX),
    ),
    (
        // Odd lanes leave; even lanes vote with the even-lane mask.
        "vote_ballot_even_lanes",
        "and.b32 %r12, %r2, 1; setp.ne.u32 %p2, %r12, 0; @%p2 bra DONE; rem.u32 %r12, %r1, 3; setp.eq.u32 %p3, %r12, 0; vote.sync.ballot.b32 %rd10, %p3, 0x5555555555555555;",
        |l| match l.lane % 2 {
            0 => (l.lanes_where(|k| k % 2 == 0 && (l.t - l.lane + k) % 3 == 0), u64::MAX),
            _ => (0, u64::MAX),
        },
    ),
    (
        "vote_all_any_uni",
        "setp.lt.u32 %p2, %r2, 40; vote.sync.all.pred %p3, %p2, -1; vote.sync.any.pred %p4, %p2, -1; vote.sync.uni.pred %p5, %p2, -1; selp.u64 %rd11, 1, 0, %p3; selp.u64 %rd12, 2, 0, %p4; selp.u64 %rd13, 4, 0, %p5; or.b64 %rd10, %rd11, %rd12; or.b64 %rd10, %rd10, %rd13;",
        |l| {
            let p = l.lanes_where(|k| k < 40);
            let (all, any) = (p == l.existing(), p != 0);
            (all as u64 | (any as u64) << 1 | ((all || !any) as u64) << 2, u64::MAX)
        },
    ),
    ("redux_add", "redux.sync.add.u32 %r10, %r5, -1; cvt.u64.u32 %rd10, %r10;", |l| {
        ((0..l.lanes).map(|k| l.v_of(k)).sum::<u64>() & 0xffff_ffff, u64::MAX)
    }),
    (
        "redux_max_partial_mask",
        "mov.b64 %rd12, 0x00ff00ff00ff00ff; shr.b64 %rd13, %rd12, %r2; and.b64 %rd13, %rd13, 1; setp.eq.u64 %p2, %rd13, 0; @%p2 bra DONE; redux.sync.max.u32 %r10, %r5, 0x00ff00ff00ff00ff; cvt.u64.u32 %rd10, %r10;",
        |l| {
            let member = l.width(0x00ff_00ff_00ff_00ff);
            match member >> l.lane & 1 {
                1 => ((0..l.lanes).filter(|&k| member >> k & 1 == 1).map(|k| l.v_of(k)).max().unwrap(), u64::MAX),
                _ => (0, u64::MAX),
            }
        },
    ),
    ("match_any", "rem.u32 %r12, %r2, 5; match.any.sync.b32 %rd10, %r12, -1;", |l| {
        (l.lanes_where(|k| k % 5 == l.lane % 5), u64::MAX)
    }),
    (
        // d + p: `active + 1` when every lane's t / 40 agrees, else 0.
        "match_all",
        "div.u32 %r12, %r1, 40; match.all.sync.b32 %rd11|%p3, %r12, -1; selp.u64 %rd12, 1, 0, %p3; add.u64 %rd10, %rd11, %rd12;",
        |l| {
            let same = (0..l.lanes).all(|k| (l.t - l.lane + k) / 40 == l.t / 40);
            (if same { l.existing().wrapping_add(1) } else { 0 }, u64::MAX)
        },
    ),
    ("activemask_divergent", "setp.lt.u32 %p2, %r2, 20; @%p2 bra DONE; activemask.b32 %rd10;", |l| match l.lane < 20 {
        true => (0, u64::MAX),
        false => (l.lanes_where(|k| k >= 20), u64::MAX),
    }),
];

const BLOCK: [u32; 3] = [16, 5, 1];
const GRID: u32 = 2;

fn module(warp: u32) -> String {
    let directive = if warp == 64 { ".warp_size 64\n" } else { "" };
    let mut ptx = format!(".version 8.0\n.target sm_80\n.address_size 64\n{directive}");
    for (name, body, _) in CASES {
        ptx.push_str(&format!(
            r#"
.visible .entry {name}(.param .u64 out)
{{
  .reg .b32 %r<40>;
  .reg .b64 %rd<40>;
  .reg .pred %p<10>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r20, %tid.x;
  mov.u32 %r21, %tid.y;
  mov.u32 %r22, %ntid.x;
  mad.lo.s32 %r1, %r21, %r22, %r20;
  mov.u32 %r23, %ctaid.x;
  mov.u32 %r24, %ntid.y;
  mul.lo.s32 %r25, %r22, %r24;
  mad.lo.s32 %r26, %r23, %r25, %r1;
  mul.wide.u32 %rd2, %r26, 8;
  add.s64 %rd3, %rd1, %rd2;
  mov.u32 %r2, %laneid;
  mad.lo.s32 %r5, %r1, 3, 1;
  sub.u32 %r8, WARP_SZ, 1;
  mov.u64 %rd10, 0;
  {body}
DONE:
  st.global.u64 [%rd3], %rd10;
  ret;
}}
"#
        ));
    }
    ptx
}

#[test]
fn warp_level_ptx_at_32_and_64_lanes() {
    let d = cpu_backend::devices().remove(0);
    let n = BLOCK.iter().product::<u32>();
    let total = (n * GRID) as usize;
    for warp in [32, 64] {
        let m = d.load_ptx(&module(warp), &LoadOptions::default()).unwrap_or_else(|e| panic!("warp {warp}: {e:?}"));
        assert_eq!(m.info_log(), "", "warp {warp}: no warnings expected");
        let out = d.alloc(total * 8).unwrap();
        let cfg = LaunchConfig { grid: [GRID, 1, 1], block: BLOCK, dynamic_shared_bytes: 0 };
        let mut failures = Vec::new();
        for (name, _, model) in CASES {
            d.memset(out, 0xdead, 4, total * 2).unwrap();
            m.launch(name, &cfg, &out.to_le_bytes()).unwrap_or_else(|e| panic!("{name} at warp {warp}: {e:?}"));
            let mut got = vec![0u64; total];
            unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, total * 8).unwrap() };
            for (g, &value) in got.iter().enumerate() {
                let l = Lane::new(g as u32 % n, warp, n);
                let (want, care) = model(&l);
                if value & care != want & care {
                    failures.push(format!("{name} warp {warp} thread {g} (lane {}): got {value:#x}, want {want:#x} (bits {care:#x})", l.lane));
                }
            }
        }
        assert!(failures.is_empty(), "{} mismatches:\n{}", failures.len(), failures[..failures.len().min(40)].join("\n"));
    }
}

/// `exit` in a 64-lane module must be executed by the whole warp together (seed 002,
/// "Divergent exit"); in a 32-lane module PTX's own rule holds (any thread may exit).
#[test]
fn exit_from_divergent_code_traps_only_in_64_lane_modules() {
    let d = cpu_backend::devices().remove(0);
    // Threads with tid < `split` exit early; the others store 1.
    let kernel = |warp: u32| {
        let directive = if warp == 64 { ".warp_size 64\n" } else { "" };
        format!(
            r#".version 8.0
.target sm_80
.address_size 64
{directive}.visible .entry k(.param .u64 out, .param .u32 split)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [split];
  mov.u32 %r2, %tid.x;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 exit;
  mul.wide.u32 %rd2, %r2, 4;
  add.s64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], 1;
  ret;
}}
"#
        )
    };
    let n = 96u32;
    for (warp, split, ok) in [(32u32, 10u32, true), (32, 64, true), (64, 64, true), (64, 0, true), (64, 96, true), (64, 10, false), (64, 70, false)] {
        let m = d.load_ptx(&kernel(warp), &LoadOptions::default()).unwrap();
        let out = d.alloc(n as usize * 4).unwrap();
        d.memset(out, 0, 4, n as usize).unwrap();
        let mut params = out.to_le_bytes().to_vec();
        params.extend_from_slice(&split.to_le_bytes());
        let cfg = LaunchConfig { grid: [1, 1, 1], block: [n, 1, 1], dynamic_shared_bytes: 0 };
        let r = m.launch("k", &cfg, &params);
        if ok {
            r.unwrap_or_else(|e| panic!("warp {warp}, split {split}: {e:?}"));
            let mut got = vec![0u32; n as usize];
            unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, n as usize * 4).unwrap() };
            let want: Vec<u32> = (0..n).map(|t| (t >= split) as u32).collect();
            assert_eq!(got, want, "warp {warp}, split {split}");
        } else {
            assert!(matches!(r, Err(DeviceError::LaunchFailed)), "warp {warp}, split {split}: {r:?}");
        }
    }
}

/// Full-mask collectives run as region splits at either warp size (the runs above check
/// their results); partial masks keep the fiber path.
#[test]
fn full_mask_collectives_split_at_32_and_64_lanes() {
    for warp in [32u32, 64] {
        let m =
            compiler_core::host::compile_ptx(&module(warp), &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
        let exchange = |name: &str| {
            let k = m.kernels.iter().find(|k| k.meta.name == name).unwrap();
            k.meta.regions.as_ref().map(|r| r.warp_exchange.map(|w| w.warp_size))
        };
        for name in ["shfl_down_clamped", "vote_ballot", "redux_add", "match_any", "activemask_divergent"] {
            assert_eq!(exchange(name), Some(Some(warp)), "{name} at warp {warp}");
        }
        for name in ["shfl_idx_even_lanes", "redux_max_partial_mask"] {
            assert_eq!(exchange(name), None, "{name} at warp {warp}");
        }
    }
}
