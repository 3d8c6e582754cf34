//! A module compiled on several threads (one partition of its kernels each, see
//! compiler-core `host::partition`) runs as one: module variables are shared by all
//! partitions, and a function the kernels share works in each. Own test binary: it sets
//! `PTX_COMPILE_THREADS` and `CUDA_CACHE_DISABLE` for the whole process.

use backend_api::{LaunchConfig, LoadOptions};

mod support;
use support::download;

#[test]
fn kernels_compiled_on_separate_threads_share_module_state() {
    std::env::set_var("PTX_COMPILE_THREADS", "3");
    // A cached entry would hide what this compile does.
    std::env::set_var("CUDA_CACHE_DISABLE", "1");
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(include_str!("../../compiler-core/tests/data/split_kernels.ptx"), &LoadOptions::default()).unwrap();
    let scale = |x: u32| x * 3 + 1;
    let table = [3u32, 5, 7, 11];

    // The host writes a module variable; `bump` (one partition) adds to it.
    let counter = m.global("counter").unwrap();
    unsafe { d.copy_to_device(counter.address, 100u32.to_le_bytes().as_ptr(), 4).unwrap() };
    let cfg = |grid: u32, block: u32| LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
    m.launch("bump", &cfg(5, 32), &[]).unwrap();
    let count = 100 + 5 * 32 * scale(1);
    assert_eq!(download::<u32>(&*d, counter.address, 1)[0], count);

    // `reverse` (another partition, barrier regions) reads the counter `bump` wrote.
    let out = d.alloc(64 * 4).unwrap();
    m.launch("reverse", &cfg(1, 64), &out.to_le_bytes()).unwrap();
    let want: Vec<u32> = (0..64u32).map(|t| scale(table[(63 - t) as usize % 4]) + count).collect();
    assert_eq!(download::<u32>(&*d, out, 64), want);

    // `map` (the third) reads the initialized table.
    let n = 1000u32;
    let big = d.alloc(n as usize * 4).unwrap();
    let k = m.kernel("map").unwrap();
    let mut params = vec![0u8; k.param_buffer_size];
    params[k.params[0].offset..][..8].copy_from_slice(&big.to_le_bytes());
    params[k.params[1].offset..][..4].copy_from_slice(&n.to_le_bytes());
    m.launch("map", &cfg(n.div_ceil(128), 128), &params).unwrap();
    let want: Vec<u32> = (0..n).map(|i| scale(table[i as usize % 4]) + i).collect();
    assert_eq!(download::<u32>(&*d, big, n as usize), want);
}
