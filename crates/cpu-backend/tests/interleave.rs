//! Blocks of a region kernel interleaved on one worker (`cpu_backend::block::set_interleave`):
//! grid-stride kernels (lockstep loop heads) with barriers, uneven trip counts, threads
//! that exit early, warp collectives and a trap run with several blocks in flight and
//! must give what the fiber path gives and what Rust computes here from the CUDA source
//! (`data/grid_stride.cu`, compiled by nvcc to `data/grid_stride.ptx`).

use backend_api::{Device, LaunchConfig, LoadOptions};
use compiler_core::lower::regions::set_enabled;
use cpu_backend::block::set_interleave;
use std::sync::{Arc, Mutex};

/// The tests flip process-wide switches: run them one at a time.
static SWITCH: Mutex<()> = Mutex::new(());

const PTX: &str = include_str!("data/grid_stride.ptx");
const BLOCK: usize = 256;
/// What the output buffer holds before a launch (threads that exit write nothing).
const UNWRITTEN: u32 = 0xffff_ffff;

/// How the blocks run: the fiber fallback, or region by region with `k` blocks in flight.
#[derive(Clone, Copy, Debug)]
enum Mode {
    Fibers,
    Regions(usize),
}

const MODES: [Mode; 4] = [Mode::Fibers, Mode::Regions(1), Mode::Regions(3), Mode::Regions(16)];

fn device() -> Arc<dyn Device> {
    cpu_backend::devices().remove(0)
}

fn input(n: usize) -> Vec<u32> {
    let mut seed = 0x2545_f491u32;
    (0..n)
        .map(|_| {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            seed
        })
        .collect()
}

/// Launches `kernel` over `grid` blocks with (in, out, n, extra...) and returns `out`
/// (`out_words` words, [`UNWRITTEN`] before the launch), or the launch error.
fn launch(mode: Mode, kernel: &str, grid: usize, data: &[u32], out_words: usize, extra: &[u32]) -> Result<Vec<u32>, String> {
    set_enabled(matches!(mode, Mode::Regions(_)));
    set_interleave(match mode {
        Mode::Regions(k) => k,
        Mode::Fibers => 1,
    });
    let d = device();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let input = d.alloc(data.len().max(1) * 4).unwrap();
    unsafe { d.copy_to_device(input, data.as_ptr() as *const u8, data.len() * 4).unwrap() };
    let out = d.alloc(out_words * 4).unwrap();
    d.memset(out, UNWRITTEN, 4, out_words).unwrap();
    let mut params = input.to_le_bytes().to_vec();
    params.extend_from_slice(&out.to_le_bytes());
    params.extend_from_slice(&(data.len() as u32).to_le_bytes());
    for e in extra {
        params.extend_from_slice(&e.to_le_bytes());
    }
    let cfg = LaunchConfig { grid: [grid as u32, 1, 1], block: [BLOCK as u32, 1, 1], ..Default::default() };
    let result = m.launch(kernel, &cfg, &params).map_err(|e| format!("{e:?}"));
    let mut v = vec![0u32; out_words];
    unsafe { d.copy_from_device(v.as_mut_ptr() as *mut u8, out, out_words * 4).unwrap() };
    d.free(out).unwrap();
    d.free(input).unwrap();
    set_enabled(true);
    set_interleave(1);
    result.map(|()| v)
}

/// The indices block `b` of `grid` visits in a grid-stride loop over `n` elements,
/// thread by thread: `[thread][trip]`.
fn visits(b: usize, grid: usize, n: usize) -> Vec<Vec<usize>> {
    (0..BLOCK).map(|t| (b * BLOCK + t..n).step_by(grid * BLOCK).collect()).collect()
}

fn sum_tree(x: &[u32], grid: usize) -> Vec<u32> {
    (0..grid).map(|b| visits(b, grid, x.len()).iter().flatten().fold(0u32, |a, &i| a.wrapping_add(x[i].wrapping_mul(i as u32 % 13 + 1)))).collect()
}

/// Every lane's XOR ends in lane 0 (shfl.down), then warp 0 XORs the warps' results.
fn sum_shuffle(x: &[u32], grid: usize) -> Vec<u32> {
    (0..grid).map(|b| visits(b, grid, x.len()).iter().flatten().fold(0u32, |a, &i| a ^ x[i].wrapping_add(i as u32))).collect()
}

fn exits_then_barrier(x: &[u32], grid: usize) -> Vec<u32> {
    let mut out = vec![UNWRITTEN; grid * BLOCK];
    for b in 0..grid {
        let v = visits(b, grid, x.len());
        let acc = |t: usize| v[t].iter().take(t % 7 + 2).fold(b as u32, |a, &i| a.wrapping_mul(31).wrapping_add(x[i]));
        let shared = |t: usize| if t % 5 == 3 { 0xdead } else { acc(t) };
        for t in (0..BLOCK).filter(|t| t % 5 != 3) {
            out[b * BLOCK + t] = acc(t).wrapping_add(3u32.wrapping_mul(shared((t + 1) % BLOCK)));
        }
    }
    out
}

fn tiles(x: &[u32], grid: usize) -> Vec<u32> {
    (0..grid)
        .map(|b| {
            (b * BLOCK..x.len()).step_by(grid * BLOCK).fold(0u32, |running, base| {
                let tile = x[base..(base + BLOCK).min(x.len())].iter().fold(0u32, |a, &v| a.wrapping_add(v));
                running.wrapping_mul(7).wrapping_add(tile)
            })
        })
        .collect()
}

type Reference = fn(&[u32], usize) -> Vec<u32>;

/// (kernel, whether its output is one word per thread, reference, whether its loop head
/// is a lockstep head: `tiles` has barriers inside its loop, so its head is an ordinary
/// barrier stop and its blocks always run one after the other).
const KERNELS: [(&str, bool, Reference, bool); 4] = [
    ("sum_tree", false, sum_tree, true),
    ("sum_shuffle", false, sum_shuffle, true),
    ("exits_then_barrier", true, exits_then_barrier, true),
    ("tiles", false, tiles, false),
];

/// (grid, n): trip counts that differ between threads and blocks, blocks with no
/// trip at all, and a grid too small to interleave much.
const SHAPES: [(usize, usize); 4] = [(37, 37 * BLOCK * 5 + 1234), (64, 40 * BLOCK + 17), (2, 3 * BLOCK + 100), (300, 300 * BLOCK * 2 + 5)];

#[test]
fn the_kernels_run_as_regions_with_lockstep_heads_and_blocks_that_cannot_communicate() {
    let _one = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let m = compiler_core::host::compile_ptx(PTX, &compiler_core::host::HostOptions { lazy: Some(false), ..Default::default() }).unwrap();
    for (name, _, _, has_lockstep) in KERNELS {
        let k = m.kernels.iter().find(|k| k.meta.name == name).unwrap();
        assert!(k.regions.is_some() && k.block_fn.is_none(), "{name} runs as barrier regions");
        let lockstep = k.meta.regions.as_ref().map_or(0, |r| r.lockstep_states.len());
        assert_eq!(lockstep > 0, has_lockstep, "{name}: lockstep loop heads");
        assert!(!k.meta.blocks_communicate, "{name}'s blocks cannot communicate");
    }
}

#[test]
fn interleaved_blocks_match_fibers_and_rust() {
    let _one = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    for (grid, n) in SHAPES {
        let x = input(n);
        for (name, per_thread, reference, _) in KERNELS {
            let want = reference(&x, grid);
            let words = if per_thread { grid * BLOCK } else { grid };
            for mode in MODES {
                let got = launch(mode, name, grid, &x, words, &[]).unwrap();
                assert_eq!(got, want, "{name}, grid {grid}, n {n}, {mode:?}");
            }
        }
    }
}

#[test]
fn a_trap_in_one_interleaved_block_fails_the_launch() {
    let _one = SWITCH.lock().unwrap_or_else(|e| e.into_inner());
    let (grid, n) = (48, 48 * BLOCK * 4);
    let x = input(n);
    for mode in MODES {
        for bad in [0u32, 5, 47] {
            let err = launch(mode, "trap_in_block", grid, &x, grid * BLOCK, &[bad]).unwrap_err();
            assert!(err.contains("LaunchFailed"), "{mode:?}, block {bad}: {err}");
        }
        // The device still runs launches afterwards; no block traps at index `grid`.
        let got = launch(mode, "trap_in_block", grid, &x, grid * BLOCK, &[grid as u32]).unwrap();
        let acc = |b: usize, t: usize| (b * BLOCK + t..n).step_by(grid * BLOCK).fold(0u32, |a, i| a.wrapping_add(x[i]));
        let want: Vec<u32> = (0..grid * BLOCK).map(|g| acc(g / BLOCK, (g % BLOCK + 1) % BLOCK)).collect();
        assert_eq!(got, want, "{mode:?}");
    }
}
