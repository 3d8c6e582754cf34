//! Launch-shape variants of `k.block` (`HostModule::specialized_block`): for every block
//! shape they compute what `k.block` computes and what the kernels' definitions say (checked
//! against host arithmetic), and the on-disk cache keeps the variants of different shapes
//! apart.

use compiler_core::cache::Cache;
use compiler_core::host::{compile_ptx_with_cache, HostModule, HostOptions};
use compiler_core::host_abi::{BlockRunFn, KernelFn, ThreadCtx};

/// `ids`: every thread writes its packed `%tid`, packed `%ntid` and `%laneid | %warpid << 8`
/// at its global linear index. `grid2d`: `out[y * w + x] = 2 * in[y * w + x] + x` inside
/// `w x h`. `synced` has a barrier (no thread loop, so no variant). `staged` goes through a
/// shared-memory slot per thread: `out[1024 * ctaid.x + t] = 7 * ctaid.x + t` (t: linear
/// thread index).
const PTX: &str = include_str!("data/block_variants.ptx");

/// Block shapes: the benchmark's, not multiples of the vector width, 3D, the largest.
const SHAPES: &[[u32; 3]] = &[[32, 8, 1], [7, 3, 2], [1, 1, 1], [13, 1, 1], [4, 4, 4], [33, 5, 6], [1024, 1, 1], [8, 1, 64], [1, 17, 3]];

unsafe extern "C" fn no_barrier(_: *mut ThreadCtx, _: u32, _: u32) {
    panic!("a thread-loop kernel called the barrier");
}
unsafe extern "C" fn no_trap(_: *mut ThreadCtx) {
    panic!("trap");
}
unsafe extern "C" fn no_printf(_: *mut ThreadCtx, _: *const u8, _: *const u8) -> i32 {
    panic!("printf");
}
unsafe extern "C" fn no_exchange(_: *mut ThreadCtx, _: u32, _: u64, _: u64, _: *mut u64) -> *const u64 {
    panic!("warp exchange");
}
unsafe extern "C" fn no_assert(_: *mut ThreadCtx, _: *const u8, _: *const u8, _: u32, _: *const u8, _: u64) {
    panic!("assert");
}
unsafe extern "C" fn no_yield(_: *mut ThreadCtx, _: u32) {}
unsafe extern "C" fn no_malloc(_: *mut ThreadCtx, _: u64) -> *mut u8 {
    unreachable!("no malloc in these kernels")
}

unsafe extern "C" fn no_free(_: *mut ThreadCtx, _: *mut u8) {
    unreachable!("no free in these kernels")
}
unsafe extern "C" fn no_matrix(_: *mut ThreadCtx, _: u32, _: *mut u64, _: u64) {
    unreachable!("no matrix instructions in these kernels")
}

unsafe extern "C" fn no_device_runtime(_: *mut ThreadCtx, _: *const u64) -> u64 {
    unreachable!("no device runtime calls in these kernels")
}

unsafe extern "C" fn no_texture(_: *mut ThreadCtx, _: u64, _: u32, _: *const u32, _: *mut u64) -> u32 {
    unreachable!("no texture instruction in these kernels")
}

unsafe extern "C" fn no_barrier_op(_: *mut ThreadCtx, _: u32, _: u32, _: u32, _: u32) -> u32 {
    panic!("barrier op");
}

/// A kernel's entry point: `k.block` (one call per block) or a launch-shape variant (one
/// call per run of consecutive blocks).
#[derive(Clone, Copy)]
enum Entry {
    Block(KernelFn),
    Runs(BlockRunFn),
}

/// Lengths of the runs of blocks a variant is called with, cycled: runs that start and end
/// anywhere in a row or plane of the grid, as the runtime's block cursor hands them out.
const RUNS: &[u64] = &[1, 2, 5, 3, 64];

/// Runs every block of `grid` through `f` as the CPU runtime does: `k.block` once per block
/// with the block's ctx, a variant once per run of blocks with the first block's ctx.
fn run(f: Entry, params: &[u8], grid: [u32; 3], block: [u32; 3]) {
    // The generated code may assume an 8-aligned parameter buffer.
    let mut words = vec![0u64; params.len().div_ceil(8).max(1)];
    unsafe { std::ptr::copy_nonoverlapping(params.as_ptr(), words.as_mut_ptr() as *mut u8, params.len()) };
    let envreg = [0u32; 32];
    let mut shared = vec![0u128; 256];
    let total = grid.iter().map(|&g| g as u64).product::<u64>();
    let (mut next, mut k) = (0u64, 0usize);
    while next < total {
        let count = match f {
            Entry::Block(_) => 1,
            Entry::Runs(_) => RUNS[k % RUNS.len()].min(total - next),
        };
        let (gx, gy) = (grid[0] as u64, grid[1] as u64);
        let ctaid = [(next % gx) as u32, ((next / gx) % gy) as u32, (next / (gx * gy)) as u32];
        let mut ctx = ThreadCtx {
            tid: [0; 3],
            ntid: block,
            ctaid,
            nctaid: grid,
            dynamic_smem_size: 0,
            total_smem_size: 0,
            shared: shared.as_mut_ptr() as *mut u8,
            runtime: std::ptr::null_mut(),
            barrier: no_barrier,
            trap: no_trap,
            vprintf: no_printf,
            warp_exchange: no_exchange,
            assert_fail: no_assert,
            envreg: envreg.as_ptr(),
            spin_yield: no_yield,
            barrier_op: no_barrier_op,
            texture: no_texture,
            malloc: no_malloc,
            free: no_free,
            device_runtime: no_device_runtime,
            warp_matrix: no_matrix,
        };
        match f {
            Entry::Block(f) => unsafe { f(words.as_ptr() as *const u8, &mut ctx) },
            Entry::Runs(f) => unsafe { f(words.as_ptr() as *const u8, &mut ctx, count) },
        }
        next += count;
        k += 1;
    }
}

fn generic(m: &HostModule, name: &str) -> Entry {
    Entry::Block(m.kernel(name).unwrap().unwrap().block_fn.expect("a thread-loop kernel"))
}

fn variant(m: &HostModule, name: &str, shape: [u32; 3]) -> Entry {
    Entry::Runs(m.specialized_block(name, shape).unwrap())
}

/// `ids` over `grid` with `f`: the three words of each thread.
fn run_ids(f: Entry, grid: [u32; 3], block: [u32; 3]) -> Vec<u32> {
    let threads = grid.iter().chain(&block).map(|&d| d as usize).product::<usize>();
    let out = vec![u32::MAX; 3 * threads];
    run(f, &(out.as_ptr() as u64).to_le_bytes(), grid, block);
    out
}

/// What `ids` writes, from its definition.
fn expected_ids(grid: [u32; 3], block: [u32; 3]) -> Vec<u32> {
    let mut out = Vec::new();
    let per_block = block.iter().product::<u32>();
    for _block in 0..grid.iter().product::<u32>() {
        for linear in 0..per_block {
            let (x, y, z) = (linear % block[0], (linear / block[0]) % block[1], linear / (block[0] * block[1]));
            out.push(x | y << 11 | z << 22);
            out.push(block[0] | block[1] << 11 | block[2] << 22);
            out.push((linear % 32) | (linear / 32) << 8);
        }
    }
    out
}

/// `grid2d` on a `w x h` grid (a multiple of no block shape) with `f`.
fn run_grid2d(f: Entry, block: [u32; 3], w: u32, h: u32) -> Vec<f32> {
    let input: Vec<f32> = (0..w * h).map(|i| (i % 97) as f32).collect();
    let out = vec![-1.0f32; (w * h) as usize];
    let mut params = Vec::new();
    params.extend_from_slice(&w.to_le_bytes());
    params.extend_from_slice(&h.to_le_bytes());
    params.extend_from_slice(&(input.as_ptr() as u64).to_le_bytes());
    params.extend_from_slice(&(out.as_ptr() as u64).to_le_bytes());
    // Blocks with z > 1 repeat the same (x, y) cells with the same values.
    run(f, &params, [w.div_ceil(block[0]), h.div_ceil(block[1]), 1], block);
    out
}

fn expected_grid2d(w: u32, h: u32) -> Vec<f32> {
    (0..w * h).map(|i| 2.0 * (i % 97) as f32 + (i % w) as f32).collect()
}

/// `staged` over `blocks` blocks of `shape` with `f`.
fn run_staged(f: Entry, blocks: u32, shape: [u32; 3]) -> Vec<u32> {
    let out = vec![u32::MAX; 1024 * blocks as usize];
    run(f, &(out.as_ptr() as u64).to_le_bytes(), [blocks, 1, 1], shape);
    out
}

fn expected_staged(blocks: u32, shape: [u32; 3]) -> Vec<u32> {
    let n = shape.iter().product::<u32>();
    (0..1024 * blocks).map(|i| if i % 1024 < n { 7 * (i / 1024) + i % 1024 } else { u32::MAX }).collect()
}

fn module(cache: Option<&Cache>) -> HostModule {
    compile_ptx_with_cache(PTX, &HostOptions::default(), cache).unwrap()
}

#[test]
fn variants_compute_what_the_generic_loop_computes() {
    let m = module(None);
    assert!(m.can_specialize());
    let (ids, grid2d) = (generic(&m, "ids"), generic(&m, "grid2d"));
    let (w, h) = (45, 23);
    for &shape in SHAPES {
        for grid in [[2, 3, 1], [3, 2, 4]] {
            let want = expected_ids(grid, shape);
            assert_eq!(run_ids(ids, grid, shape), want, "ids, k.block, {shape:?}, grid {grid:?}");
            assert_eq!(run_ids(variant(&m, "ids", shape), grid, shape), want, "ids, variant, {shape:?}, grid {grid:?}");
        }
        let want = expected_grid2d(w, h);
        assert_eq!(run_grid2d(grid2d, shape, w, h), want, "grid2d, k.block, {shape:?}");
        assert_eq!(run_grid2d(variant(&m, "grid2d", shape), shape, w, h), want, "grid2d, variant, {shape:?}");

        let want = expected_staged(9, shape);
        assert_eq!(run_staged(generic(&m, "staged"), 9, shape), want, "staged, k.block, {shape:?}");
        assert_eq!(run_staged(variant(&m, "staged", shape), 9, shape), want, "staged, variant, {shape:?}");
    }
    // A second request returns the variant compiled first.
    let first = m.specialized_block("ids", SHAPES[0]).unwrap();
    assert_eq!(m.compiled_specialization("ids", SHAPES[0]).map(|f| f as usize), Some(first as usize));
    assert!(m.compiled_specialization("ids", [2, 2, 2]).is_none());
}

#[test]
fn only_launchable_shapes_of_thread_loop_kernels_have_variants() {
    let m = module(None);
    // Barriers: the kernel has no `k.block`.
    assert!(m.specialized_block("synced", [32, 1, 1]).is_err());
    assert!(m.specialized_block("no_such_kernel", [32, 1, 1]).is_err());
    for shape in [[0, 1, 1], [1025, 1, 1], [1, 1, 65], [64, 32, 1]] {
        assert!(m.specialized_block("ids", shape).is_err(), "{shape:?}");
    }
    // The module stays usable after refused requests.
    assert_eq!(run_ids(variant(&m, "ids", [3, 2, 1]), [1, 1, 1], [3, 2, 1]), expected_ids([1, 1, 1], [3, 2, 1]));
}

#[test]
fn the_disk_cache_keeps_variants_of_different_shapes_apart() {
    let dir = std::env::temp_dir().join(format!("cuda-cpu-variant-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = Cache::at(&dir, 1 << 30);
    let entries = || std::fs::read_dir(&dir).map(|d| d.count()).unwrap_or(0);
    let (a, b) = ([32, 8, 1], [8, 32, 1]);
    let cold = module(Some(&cache));
    assert_eq!(entries(), 1, "the module");
    cold.specialized_block("ids", a).unwrap();
    cold.specialized_block("ids", b).unwrap();
    assert_eq!(entries(), 3, "one entry per variant");
    // A new module finds both in the cache (no new entries), each with its own shape.
    let warm = module(Some(&cache));
    assert!(warm.from_cache);
    let grid = [3, 2, 1];
    for shape in [b, a] {
        assert_eq!(run_ids(variant(&warm, "ids", shape), grid, shape), expected_ids(grid, shape), "{shape:?} from the cache");
    }
    assert_eq!(entries(), 3);
    // A lazy module's variants are separate entries too, and correct.
    let lazy = compile_ptx_with_cache(PTX, &HostOptions { lazy: Some(true), ..HostOptions::default() }, Some(&cache)).unwrap();
    assert!(lazy.is_lazy() && lazy.can_specialize());
    assert_eq!(run_grid2d(variant(&lazy, "grid2d", [5, 3, 1]), [5, 3, 1], 45, 23), expected_grid2d(45, 23));
    let _ = std::fs::remove_dir_all(&dir);
}
