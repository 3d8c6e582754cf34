//! Dense region loops (`compiler_core::lower::regions::dense`, `target/host/dense.rs`):
//! straight-line kernels with many barriers get an x loop per resume point, run in
//! aligned chunks of 8 threads and vectorized with masks. Each kernel here is generated
//! in Rust, run on the CPU device, and checked against a Rust model of what the PTX
//! computes (never against another path's output only); each case also checks which path
//! the compiler chose, so the table covers dense kernels, kernels over the module's
//! budget and kernels that do not qualify.

use backend_api::{LaunchConfig, LoadOptions};
use compiler_core::lower::regions::dense::DENSE_STATES_PER_MODULE;
use std::fmt::Write;
mod support;
use support::{download, upload};

fn inputs(n: usize, seed: u32) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s = s.wrapping_mul(1664525).wrapping_add(1013904223);
            s >> 8
        })
        .collect()
}

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// A bitonic sort of `n` u32 keys per block in shared memory by `n / 2` threads (x only),
/// fully unrolled as nvcc emits it: one compare-exchange per thread and step, a barrier
/// before each step, and a forward branch around the two stores.
fn bitonic_ptx(name: &str, n: u32) -> String {
    let mut s = format!(
        r#".visible .entry {name}(.param .u64 data)
{{
  .shared .align 4 .b32 sh[{n}];
  .reg .b32 %r<16>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [data];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mul.wide.u32 %rd2, %r2, {bytes};
  add.s64 %rd3, %rd1, %rd2;
  mul.wide.u32 %rd4, %r1, 4;
  add.s64 %rd5, %rd3, %rd4;
  mov.u32 %r3, sh;
  shl.b32 %r4, %r1, 2;
  add.s32 %r5, %r3, %r4;
  ld.global.u32 %r6, [%rd5];
  st.shared.u32 [%r5], %r6;
  ld.global.u32 %r6, [%rd5+{half_bytes}];
  st.shared.u32 [%r5+{half_bytes}], %r6;
"#,
        bytes = 4 * n,
        half_bytes = 2 * n
    );
    let mut step = 0;
    let mut size = 2;
    while size <= n {
        let mut stride = size / 2;
        while stride > 0 {
            let _ = write!(
                s,
                r#"  bar.sync 0;
  and.b32 %r7, %r1, {mask};
  shl.b32 %r8, %r1, 1;
  sub.s32 %r9, %r8, %r7;
  and.b32 %r10, %r9, {size};
  setp.eq.u32 %p1, %r10, 0;
  shl.b32 %r11, %r9, 2;
  add.s32 %r12, %r3, %r11;
  ld.shared.u32 %r13, [%r12];
  ld.shared.u32 %r14, [%r12+{off}];
  setp.gt.u32 %p2, %r13, %r14;
  xor.pred %p3, %p1, %p2;
  @%p3 bra KEEP{step};
  st.shared.u32 [%r12], %r14;
  st.shared.u32 [%r12+{off}], %r13;
KEEP{step}:
"#,
                mask = stride - 1,
                off = 4 * stride
            );
            step += 1;
            stride /= 2;
        }
        size *= 2;
    }
    let _ = write!(
        s,
        "  bar.sync 0;\n  ld.shared.u32 %r6, [%r5];\n  st.global.u32 [%rd5], %r6;\n  ld.shared.u32 %r6, [%r5+{h}];\n  st.global.u32 [%rd5+{h}], %r6;\n  ret;\n}}\n",
        h = 2 * n
    );
    s
}

/// What a bitonic network sorts each block's `n` keys into: ascending order.
fn sorted_blocks(data: &[u32], n: usize) -> Vec<u32> {
    data.chunks(n)
        .flat_map(|c| {
            let mut c = c.to_vec();
            c.sort_unstable();
            c
        })
        .collect()
}

/// A straight-line kernel over the block's linear thread index `t` (x fastest, any block
/// shape) and thread count `N`, with `steps` rounds of: read `a = s[t]`, `b = s[N-1-t]`,
/// barrier, `s[t] = 3a + b + k`, barrier. Variants (`Shape`): threads with `t & 4` take a
/// different barrier (a divergent barrier, joined after), threads `t >= N/2 + 1` exit after
/// the first round, or thread `t == N - 1` of block 1 traps in the last round.
fn mix_ptx(name: &str, steps: u32, shape: Shape) -> String {
    let mut s = format!(
        r#".visible .entry {name}(.param .u64 in, .param .u64 out)
{{
  .shared .align 4 .b32 sh[1024];
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  cvta.to.global.u64 %rd1, %rd1;
  cvta.to.global.u64 %rd2, %rd2;
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %tid.y;
  mov.u32 %r3, %tid.z;
  mov.u32 %r4, %ntid.x;
  mov.u32 %r5, %ntid.y;
  mov.u32 %r6, %ntid.z;
  mad.lo.u32 %r7, %r3, %r5, %r2;
  mad.lo.u32 %r7, %r7, %r4, %r1;
  mul.lo.u32 %r8, %r4, %r5;
  mul.lo.u32 %r8, %r8, %r6;
  mov.u32 %r9, %ctaid.x;
  mad.lo.u32 %r10, %r9, %r8, %r7;
  mul.wide.u32 %rd3, %r10, 4;
  add.s64 %rd4, %rd1, %rd3;
  add.s64 %rd5, %rd2, %rd3;
  ld.global.u32 %r11, [%rd4];
  mov.u32 %r12, sh;
  shl.b32 %r13, %r7, 2;
  add.s32 %r14, %r12, %r13;
  st.shared.u32 [%r14], %r11;
  sub.s32 %r15, %r8, 1;
  sub.s32 %r15, %r15, %r7;
  shl.b32 %r15, %r15, 2;
  add.s32 %r15, %r12, %r15;
  and.b32 %r16, %r7, 4;
  setp.ne.u32 %p2, %r16, 0;
  shr.u32 %r17, %r8, 1;
  setp.gt.u32 %p3, %r7, %r17;
"#
    );
    for k in 0..steps {
        let _ = write!(s, "  bar.sync 0;\n  ld.shared.u32 %r18, [%r14];\n  ld.shared.u32 %r19, [%r15];\n");
        match shape {
            Shape::Divergent => {
                let _ = write!(s, "  @%p2 bra ALT{k};\n  bar.sync 0;\n  bra.uni JOIN{k};\nALT{k}:\n  bar.sync 0;\nJOIN{k}:\n");
            }
            _ => s.push_str("  bar.sync 0;\n"),
        }
        let _ = write!(s, "  mul.lo.u32 %r20, %r18, 3;\n  add.s32 %r20, %r20, %r19;\n  add.s32 %r20, %r20, {k};\n  st.shared.u32 [%r14], %r20;\n");
        if k == 0 && shape == Shape::Exits {
            s.push_str("  @%p3 exit;\n");
        }
        if k + 1 == steps && shape == Shape::Trap {
            s.push_str(
                "  setp.eq.u32 %p1, %r9, 1;\n  @!%p1 bra NOTRAP;\n  add.s32 %r21, %r7, 1;\n  setp.eq.u32 %p1, %r21, %r8;\n  @%p1 trap;\nNOTRAP:\n",
            );
        }
    }
    s.push_str("  bar.sync 0;\n  ld.shared.u32 %r11, [%r14];\n  st.global.u32 [%rd5], %r11;\n  ret;\n}\n");
    s
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Shape {
    Plain,
    Divergent,
    Exits,
    Trap,
}

/// The model of `mix_ptx`: block by block, round by round.
fn mix_model(input: &[u32], n: usize, steps: u32, shape: Shape) -> Vec<u32> {
    input
        .chunks(n)
        .flat_map(|block| {
            let mut sh = block.to_vec();
            let mut live = vec![true; n];
            for k in 0..steps {
                let old = sh.clone();
                for t in (0..n).filter(|&t| live[t]) {
                    sh[t] = old[t].wrapping_mul(3).wrapping_add(old[n - 1 - t]).wrapping_add(k);
                }
                if k == 0 && shape == Shape::Exits {
                    for (t, l) in live.iter_mut().enumerate() {
                        *l &= t <= n / 2;
                    }
                }
            }
            // Exited threads write nothing back: their output word keeps its 0.
            sh.iter().zip(&live).map(|(&v, &l)| if l { v } else { 0 }).collect::<Vec<_>>()
        })
        .collect()
}

/// Whether each kernel of `ptx` got dense loops (`None`: not a region kernel).
fn dense_flags(ptx: &str) -> Vec<Option<bool>> {
    let m = compiler_core::host::compile_ptx(ptx, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    m.kernels.iter().map(|k| k.meta.regions.as_ref().map(|r| r.dense_loops)).collect()
}

/// (keys per block, blocks).
const BITONIC_CASES: &[(u32, u32)] = &[(16, 3), (64, 2), (256, 5), (1024, 4)];

#[test]
fn bitonic_sorts_on_dense_loops() {
    let d = cpu_backend::devices().remove(0);
    for &(n, grid) in BITONIC_CASES {
        let ptx = format!("{HEADER}{}", bitonic_ptx("sort", n));
        // 16 keys: 10 barriers; 1024 keys: 56 (57 resume points, within the budget).
        assert_eq!(dense_flags(&ptx), vec![Some(true)], "n = {n}");
        let data = inputs((n * grid) as usize, n + grid);
        let p = upload::<u32>(&*d, &data);
        let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
        let cfg = LaunchConfig { grid: [grid, 1, 1], block: [n / 2, 1, 1], dynamic_shared_bytes: 0 };
        m.launch("sort", &cfg, &p.to_le_bytes()).unwrap();
        assert_eq!(download::<u32>(&*d, p, data.len()), sorted_blocks(&data, n as usize), "n = {n}, grid = {grid}");
    }
}

#[test]
fn the_module_budget_is_handed_out_in_order() {
    // Two sorts of 1024 keys: 57 resume points each, more than the budget together.
    assert!(2 * 57 > DENSE_STATES_PER_MODULE && 57 <= DENSE_STATES_PER_MODULE);
    let ptx = format!("{HEADER}{}{}", bitonic_ptx("first", 1024), bitonic_ptx("second", 1024));
    assert_eq!(dense_flags(&ptx), vec![Some(true), Some(false)]);
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
    for (k, name) in ["first", "second"].into_iter().enumerate() {
        let data = inputs(2048, 7 + k as u32);
        let p = upload::<u32>(&*d, &data);
        let cfg = LaunchConfig { grid: [2, 1, 1], block: [512, 1, 1], dynamic_shared_bytes: 0 };
        m.launch(name, &cfg, &p.to_le_bytes()).unwrap();
        assert_eq!(download::<u32>(&*d, p, data.len()), sorted_blocks(&data, 1024), "{name}");
    }
}

/// (shape, block, grid): block shapes whose x is not a multiple of the chunk (8), 2D and
/// 3D blocks, a single thread.
const MIX_CASES: &[(Shape, [u32; 3], u32)] = &[
    (Shape::Plain, [64, 1, 1], 3),
    (Shape::Plain, [37, 1, 1], 2),
    (Shape::Plain, [5, 3, 1], 4),
    (Shape::Plain, [8, 4, 2], 2),
    (Shape::Plain, [1, 1, 1], 3),
    (Shape::Plain, [1024, 1, 1], 2),
    (Shape::Divergent, [64, 1, 1], 2),
    (Shape::Divergent, [13, 3, 1], 3),
    (Shape::Divergent, [256, 2, 1], 2),
    (Shape::Exits, [64, 1, 1], 2),
    (Shape::Exits, [21, 2, 1], 3),
    (Shape::Exits, [9, 1, 1], 2),
];

#[test]
fn straight_line_kernels_with_divergent_barriers_and_exits() {
    let d = cpu_backend::devices().remove(0);
    let steps = 4;
    for &(shape, block, grid) in MIX_CASES {
        let ptx = format!("{HEADER}{}", mix_ptx("mix", steps, shape));
        assert_eq!(dense_flags(&ptx), vec![Some(true)], "{shape:?}");
        let n = block.iter().product::<u32>() as usize;
        let input = inputs(n * grid as usize, n as u32 + grid);
        let (pi, po) = (upload::<u32>(&*d, &input), upload::<u32>(&*d, &vec![0; input.len()]));
        let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
        let cfg = LaunchConfig { grid: [grid, 1, 1], block, dynamic_shared_bytes: 0 };
        let params: Vec<u8> = pi.to_le_bytes().into_iter().chain(po.to_le_bytes()).collect();
        m.launch("mix", &cfg, &params).unwrap();
        assert_eq!(download::<u32>(&*d, po, input.len()), mix_model(&input, n, steps, shape), "{shape:?} {block:?} x {grid}");
    }
}

#[test]
fn a_trap_keeps_a_kernel_off_dense_loops_and_fails_the_launch() {
    let ptx = format!("{HEADER}{}", mix_ptx("mix", 4, Shape::Trap));
    // `trap` is a call into the runtime: not a dense kernel, but still regions.
    assert_eq!(dense_flags(&ptx), vec![Some(false)]);
    let d = cpu_backend::devices().remove(0);
    let input = inputs(64 * 3, 5);
    let (pi, po) = (upload::<u32>(&*d, &input), upload::<u32>(&*d, &vec![0; input.len()]));
    let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
    let cfg = LaunchConfig { grid: [3, 1, 1], block: [64, 1, 1], dynamic_shared_bytes: 0 };
    let params: Vec<u8> = pi.to_le_bytes().into_iter().chain(po.to_le_bytes()).collect();
    assert!(m.launch("mix", &cfg, &params).is_err(), "block 1 traps");
}

#[test]
fn kernels_with_loops_get_no_dense_loops() {
    // A backward branch: a loop around the barriers.
    let looped = format!(
        "{HEADER}.visible .entry lp(.param .u64 out)\n{{\n  .reg .b32 %r<4>;\n  .reg .pred %p<2>;\n  mov.u32 %r1, 0;\nTOP:\n  bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n  bar.sync 0;\n  add.s32 %r1, %r1, 1;\n  setp.lt.u32 %p1, %r1, 3;\n  @%p1 bra TOP;\n  ret;\n}}\n"
    );
    assert_eq!(dense_flags(&looped), vec![Some(false)]);
}

/// Four full-mask shuffles (down 1, xor 2, up 4, index 3, the clamps of `__shfl_*_sync`),
/// a barrier, and a neighbour read through shared memory: the region plan splits each
/// shuffle into a deposit and a read, and dense loops run those states too.
const SHUFFLES: &str = r#".visible .entry shuffles(.param .u64 in, .param .u64 out)
{
  .shared .align 4 .b32 sh[1024];
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  shfl.sync.down.b32 %r6, %r5, 1, 31, -1;
  add.s32 %r7, %r6, %r5;
  shfl.sync.bfly.b32 %r8, %r7, 2, 31, -1;
  mul.lo.s32 %r9, %r8, 3;
  add.s32 %r9, %r9, %r7;
  shfl.sync.up.b32 %r10, %r9, 4, 0, -1;
  xor.b32 %r11, %r10, %r9;
  shfl.sync.idx.b32 %r12, %r11, 3, 31, -1;
  add.s32 %r13, %r12, %r11;
  shl.b32 %r14, %r1, 2;
  mov.u32 %r15, sh;
  add.s32 %r16, %r15, %r14;
  st.shared.u32 [%r16], %r13;
  bar.sync 0;
  add.s32 %r17, %r1, 1;
  setp.ge.u32 %p1, %r17, %r3;
  selp.u32 %r18, 0, %r17, %p1;
  shl.b32 %r19, %r18, 2;
  add.s32 %r20, %r15, %r19;
  ld.shared.u32 %r21, [%r20];
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r21;
  ret;
}
"#;

/// What `SHUFFLES` writes for blocks of `n` threads (whole warps of 32).
fn shuffles_model(input: &[u32], n: usize) -> Vec<u32> {
    let mut out = vec![0u32; input.len()];
    for (b, block) in input.chunks(n).enumerate() {
        let warp = |v: &[u32], src: &dyn Fn(usize) -> usize| -> Vec<u32> { (0..n).map(|t| v[t / 32 * 32 + src(t % 32)]).collect() };
        let r5 = block.to_vec();
        let r6 = warp(&r5, &|l| if l + 1 <= 31 { l + 1 } else { l });
        let r7: Vec<u32> = r6.iter().zip(&r5).map(|(a, b)| a.wrapping_add(*b)).collect();
        let r8 = warp(&r7, &|l| l ^ 2);
        let r9: Vec<u32> = r8.iter().zip(&r7).map(|(a, b)| a.wrapping_mul(3).wrapping_add(*b)).collect();
        let r10 = warp(&r9, &|l| if l >= 4 { l - 4 } else { l });
        let r11: Vec<u32> = r10.iter().zip(&r9).map(|(a, b)| a ^ b).collect();
        let r12 = warp(&r11, &|_| 3);
        let r13: Vec<u32> = r12.iter().zip(&r11).map(|(a, b)| a.wrapping_add(*b)).collect();
        for t in 0..n {
            out[b * n + t] = r13[(t + 1) % n];
        }
    }
    out
}

#[test]
fn warp_shuffles_run_on_dense_loops() {
    let ptx = format!("{HEADER}{SHUFFLES}");
    assert_eq!(dense_flags(&ptx), vec![Some(true)]);
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
    for (block, grid) in [(32u32, 3u32), (96, 2), (160, 3), (1024, 1)] {
        let input = inputs((block * grid) as usize, block + grid);
        let (pi, po) = (upload::<u32>(&*d, &input), upload::<u32>(&*d, &vec![0; input.len()]));
        let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
        let params: Vec<u8> = pi.to_le_bytes().into_iter().chain(po.to_le_bytes()).collect();
        m.launch("shuffles", &cfg, &params).unwrap();
        assert_eq!(download::<u32>(&*d, po, input.len()), shuffles_model(&input, block as usize), "{block} x {grid}");
    }
}

/// Warp strips in nvcc's style: lane and clamp operands in registers, the `d|p` form,
/// a shuffle whose lane depends on the thread (a gather within the warp), stores by one
/// lane of each warp, a barrier, and lanes that leave early (`@%p ret`), with a second
/// reduction after the barrier by the first warp only.
const WARP_SUMS: &str = r#".visible .entry warp_sums(.param .u64 in, .param .u64 out)
{
  .shared .align 4 .b32 sums[32];
  .reg .b32 %r<40>;
  .reg .b64 %rd<8>;
  .reg .pred %p<12>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.s32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.u32 %r5, [%rd4];
  mov.u32 %r6, 31;
  mov.u32 %r7, -1;
  mov.u32 %r8, 16;
  shfl.sync.down.b32 %r9|%p1, %r5, %r8, %r6, %r7;
  add.s32 %r10, %r9, %r5;
  mov.u32 %r11, 8;
  shfl.sync.down.b32 %r12|%p2, %r10, %r11, %r6, %r7;
  add.s32 %r13, %r12, %r10;
  selp.u32 %r14, 1, 0, %p2;
  add.s32 %r13, %r13, %r14;
  and.b32 %r15, %r1, 7;
  shfl.sync.idx.b32 %r16, %r13, %r15, %r6, %r7;
  xor.b32 %r17, %r16, %r13;
  and.b32 %r18, %r1, 31;
  setp.ne.s32 %p3, %r18, 0;
  @%p3 bra SKIP;
  shr.u32 %r19, %r1, 5;
  shl.b32 %r20, %r19, 2;
  mov.u32 %r21, sums;
  add.s32 %r22, %r21, %r20;
  st.shared.u32 [%r22], %r17;
SKIP:
  bar.sync 0;
  add.s64 %rd5, %rd2, %rd3;
  st.global.u32 [%rd5], %r17;
  setp.gt.u32 %p4, %r1, 31;
  @%p4 ret;
  shr.u32 %r23, %r3, 5;
  setp.lt.u32 %p5, %r1, %r23;
  shl.b32 %r24, %r1, 2;
  mov.u32 %r25, sums;
  add.s32 %r26, %r25, %r24;
  mov.u32 %r27, 0;
  @%p5 ld.shared.u32 %r27, [%r26];
  mov.u32 %r28, 1;
  shfl.sync.bfly.b32 %r29, %r27, %r28, %r6, %r7;
  add.s32 %r30, %r29, %r27;
  mov.u32 %r31, 2;
  shfl.sync.bfly.b32 %r32, %r30, %r31, %r6, %r7;
  add.s32 %r33, %r32, %r30;
  setp.ne.s32 %p6, %r1, 0;
  @%p6 bra DONE;
  mul.wide.u32 %rd6, %r2, 4;
  add.s64 %rd7, %rd2, %rd6;
  st.global.u32 [%rd7+65536], %r33;
DONE:
  ret;
}
"#;

/// What `WARP_SUMS` writes: `out[gtid]` for every thread, `out[16384 + block]` for each
/// block.
fn warp_sums_model(input: &[u32], n: usize) -> Vec<u32> {
    let mut out = vec![0u32; 16384 + input.len() / n];
    for (b, block) in input.chunks(n).enumerate() {
        let lane_src = |t: usize, j: usize, ok: bool| if ok { t / 32 * 32 + j } else { t };
        let r9: Vec<u32> = (0..n).map(|t| block[lane_src(t, t % 32 + 16, t % 32 + 16 <= 31)]).collect();
        let r10: Vec<u32> = (0..n).map(|t| r9[t].wrapping_add(block[t])).collect();
        let p2: Vec<bool> = (0..n).map(|t| t % 32 + 8 <= 31).collect();
        let r12: Vec<u32> = (0..n).map(|t| r10[lane_src(t, t % 32 + 8, p2[t])]).collect();
        let r13: Vec<u32> = (0..n).map(|t| r12[t].wrapping_add(r10[t]).wrapping_add(p2[t] as u32)).collect();
        let r16: Vec<u32> = (0..n).map(|t| r13[t / 32 * 32 + (t & 7)]).collect();
        let r17: Vec<u32> = (0..n).map(|t| r16[t] ^ r13[t]).collect();
        let sums: Vec<u32> = (0..n / 32).map(|w| r17[w * 32]).collect();
        for t in 0..n {
            out[b * n + t] = r17[t];
        }
        let r27: Vec<u32> = (0..32).map(|t| if t < n / 32 { sums[t] } else { 0 }).collect();
        let r30: Vec<u32> = (0..32).map(|t| r27[t ^ 1].wrapping_add(r27[t])).collect();
        let r33: Vec<u32> = (0..32).map(|t| r30[t ^ 2].wrapping_add(r30[t])).collect();
        out[16384 + b] = r33[0];
    }
    out
}

#[test]
fn warp_strips_with_masks_exits_and_register_operands() {
    let ptx = format!("{HEADER}{WARP_SUMS}");
    assert_eq!(dense_flags(&ptx), vec![Some(true)]);
    let m = compiler_core::host::compile_ptx(&ptx, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    let r = m.kernels[0].meta.regions.as_ref().unwrap();
    // The start (to the barrier) and the resume after the barrier.
    assert_eq!(r.warp_strips.len(), 2, "{r:?}");
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
    // Whole warps in rows; rows of 48 (no warp fits after the first: per-thread path).
    for (block, grid) in [(32u32, 2u32), (128, 3), (256, 2), (1024, 1)] {
        let n = (block * grid) as usize;
        let input = inputs(n, block * 7 + grid);
        let (pi, po) = (upload::<u32>(&*d, &input), upload::<u32>(&*d, &vec![0u32; 16384 + grid as usize]));
        let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
        let params: Vec<u8> = pi.to_le_bytes().into_iter().chain(po.to_le_bytes()).collect();
        m.launch("warp_sums", &cfg, &params).unwrap_or_else(|e| panic!("{block} x {grid}: {e:?}"));
        let got = download::<u32>(&*d, po, 16384 + grid as usize);
        let mut want = warp_sums_model(&input, block as usize);
        want.resize(16384 + grid as usize, 0);
        assert_eq!(got, want, "{block} x {grid}");
    }
}
