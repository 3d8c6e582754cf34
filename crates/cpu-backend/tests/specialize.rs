//! Launch-shape variants through the CPU device (`cpu_backend::specialize`): launches that
//! switch to a variant compute what the generic thread loop computes, whatever the block
//! shapes and in whatever order they come (checked against host arithmetic).

use backend_api::{Device, LaunchConfig, LoadOptions, LoadedModule};
use cpu_backend::specialize::{set_specialization, Specialization, MAX_VARIANTS_PER_KERNEL};
use std::sync::Mutex;
mod support;
use support::download;

/// The kernels of compiler-core's variant tests: `ids` writes each thread's packed
/// `%tid`, packed `%ntid` and `%laneid | %warpid << 8` at its global linear index;
/// `grid2d` computes `out[y * w + x] = 2 * in[y * w + x] + x` inside `w x h`.
const PTX: &str = include_str!("../../compiler-core/tests/data/block_variants.ptx");

/// The policy is process-wide: tests that set it run one at a time.
static POLICY: Mutex<()> = Mutex::new(());

fn device() -> std::sync::Arc<dyn Device> {
    cpu_backend::devices().remove(0)
}

fn alloc_filled<T: Copy>(d: &dyn Device, data: &[T]) -> u64 {
    let bytes = std::mem::size_of_val(data);
    let p = d.alloc(bytes).unwrap();
    unsafe { d.copy_to_device(p, data.as_ptr() as *const u8, bytes).unwrap() };
    p
}

fn pack(m: &dyn LoadedModule, kernel: &str, values: &[&[u8]]) -> Vec<u8> {
    let info = m.kernel(kernel).unwrap();
    let mut buf = vec![0u8; info.param_buffer_size];
    for (p, v) in info.params.iter().zip(values) {
        buf[p.offset..p.offset + p.size].copy_from_slice(v);
    }
    buf
}

/// What `ids` writes, from its definition.
fn expected_ids(grid: [u32; 3], block: [u32; 3]) -> Vec<u32> {
    let per_block = block.iter().product::<u32>();
    let mut out = Vec::new();
    for _ in 0..grid.iter().product::<u32>() {
        for linear in 0..per_block {
            let (x, y, z) = (linear % block[0], (linear / block[0]) % block[1], linear / (block[0] * block[1]));
            out.extend([x | y << 11 | z << 22, block[0] | block[1] << 11 | block[2] << 22, (linear % 32) | (linear / 32) << 8]);
        }
    }
    out
}

fn launch_ids(d: &dyn Device, m: &dyn LoadedModule, grid: [u32; 3], block: [u32; 3]) -> Vec<u32> {
    let n = 3 * grid.iter().chain(&block).product::<u32>() as usize;
    let out = alloc_filled(d, &vec![u32::MAX; n]);
    let params = pack(m, "ids", &[&out.to_le_bytes()]);
    m.launch("ids", &LaunchConfig { grid, block, dynamic_shared_bytes: 0 }, &params).unwrap();
    let got = download(d, out, n);
    d.free(out).unwrap();
    got
}

fn launch_grid2d(d: &dyn Device, m: &dyn LoadedModule, block: [u32; 3], w: u32, h: u32) -> Vec<f32> {
    let input: Vec<f32> = (0..w * h).map(|i| (i % 97) as f32).collect();
    let (din, dout) = (alloc_filled(d, &input), alloc_filled(d, &vec![-1.0f32; (w * h) as usize]));
    let params = pack(m, "grid2d", &[&w.to_le_bytes(), &h.to_le_bytes(), &din.to_le_bytes(), &dout.to_le_bytes()]);
    let grid = [w.div_ceil(block[0]), h.div_ceil(block[1]), 1];
    m.launch("grid2d", &LaunchConfig { grid, block, dynamic_shared_bytes: 0 }, &params).unwrap();
    let got = download(d, dout, (w * h) as usize);
    d.free(din).unwrap();
    d.free(dout).unwrap();
    got
}

fn expected_grid2d(w: u32, h: u32) -> Vec<f32> {
    (0..w * h).map(|i| 2.0 * (i % 97) as f32 + (i % w) as f32).collect()
}

/// Shapes in launch order: repeated, changing, 3D, not multiples of the vector width, and
/// more of them than a kernel gets variants (`MAX_VARIANTS_PER_KERNEL`).
const SHAPES: &[[u32; 3]] = &[
    [32, 8, 1],
    [7, 3, 2],
    [32, 8, 1],
    [1, 1, 1],
    [4, 4, 4],
    [33, 5, 6],
    [7, 3, 2],
    [1024, 1, 1],
    [8, 1, 64],
    [16, 16, 1],
    [2, 3, 5],
    [100, 1, 1],
    [32, 8, 1],
];

#[test]
fn launches_with_variants_match_generic_launches() {
    let _serial = POLICY.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let distinct: std::collections::HashSet<_> = SHAPES.iter().collect();
    assert!(distinct.len() > MAX_VARIANTS_PER_KERNEL);
    let (w, h) = (75, 41);
    for &policy in &[Specialization::Off, Specialization::Always, Specialization::Off, Specialization::Always] {
        set_specialization(policy);
        for &block in SHAPES {
            let grid = [3, 2, 2];
            assert_eq!(launch_ids(&*d, &*m, grid, block), expected_ids(grid, block), "ids, {policy:?}, {block:?}");
            assert_eq!(launch_grid2d(&*d, &*m, block, w, h), expected_grid2d(w, h), "grid2d, {policy:?}, {block:?}");
        }
    }
    set_specialization(Specialization::Tiered);
}

/// Under the default policy a shape switches once its generic launches have run long
/// enough; every launch before and after is right.
#[test]
fn tiered_launches_stay_correct_across_the_switch() {
    let _serial = POLICY.lock().unwrap_or_else(|e| e.into_inner());
    set_specialization(Specialization::Tiered);
    let d = device();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    // Enough work per launch that a few launches pass the switch's time threshold.
    let (w, h) = (2048, 2048);
    let want = expected_grid2d(w, h);
    for (k, block) in [[32, 8, 1], [16, 4, 1]].iter().cycle().take(12).enumerate() {
        assert_eq!(launch_grid2d(&*d, &*m, *block, w, h), want, "launch {k}, {block:?}");
    }
}
