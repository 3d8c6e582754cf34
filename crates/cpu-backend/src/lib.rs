//! The CPU device: PTX kernels compiled for the host and run on a pool of worker threads.
//!
//! - [`device`]: the device's properties and memory (host memory; device pointers are host
//!   addresses, so the device reports unified addressing).
//! - [`module`]: PTX -> host code through `compiler-core`, kernels and globals by name.
//! - [`pool`]: persistent workers shared by concurrent launches; blocks are handed out in
//!   increasing order; cooperative launches get one thread per block.
//! - [`block`]: running blocks, as a vectorizable thread loop when the kernel has no
//!   barrier, otherwise as one fiber per GPU thread that switches at each barrier.
//! - [`cdp`]: the device runtime (dynamic parallelism): device-side launches run after
//!   their parent grid's blocks.
//! - `barrier`: the named barriers of a block in fiber mode (arrival counting, `bar.red`).
//! - [`fault`]: turning faults in kernel code into launch errors (the process survives).
//! - [`printf`]: device-side `vprintf` and `assert` output, flushed at sync points.
//! - [`specialize`]: when a thread-loop kernel switches to a variant compiled for its
//!   block shape.
//! - [`watchdog`]: `CUDA_CPU_WATCHDOG=S` names launches still running after S seconds.

mod arena;
mod barrier;
pub mod block;
pub mod cdp;
pub mod device;
pub mod fault;
mod matrix;
mod memory;
pub mod module;
pub mod pool;
pub mod printf;
mod sanitizer;
pub mod specialize;
pub mod texture;
pub mod watchdog;

use std::sync::{Arc, OnceLock};

/// The most CPU devices `CUDA_CPU_DEVICES` may ask for.
pub const MAX_DEVICES: usize = 16;

/// The CPU devices: one, or `CUDA_CPU_DEVICES=N` (1 to [`MAX_DEVICES`]) so multi-GPU code
/// paths (peer copies, one context per device, `cudaSetDevice`) can run. The devices share
/// one pool of worker threads and the process's address space; each has its own
/// allocations, UUID and PCI bus number.
pub fn devices() -> Vec<Arc<dyn backend_api::Device>> {
    static DEVICES: OnceLock<Vec<Arc<device::CpuDevice>>> = OnceLock::new();
    let all = DEVICES.get_or_init(|| {
        let count = device_count_from_env();
        let pool = device::CpuDevice::worker_pool();
        (0..count).map(|ordinal| Arc::new(device::CpuDevice::with_pool(ordinal, pool.clone()))).collect()
    });
    all.iter().map(|d| d.clone() as Arc<dyn backend_api::Device>).collect()
}

/// `CUDA_CPU_DEVICES=N`: how many CPU devices to expose (default 1; values outside 1 to
/// [`MAX_DEVICES`] are ignored).
fn device_count_from_env() -> usize {
    std::env::var("CUDA_CPU_DEVICES").ok().and_then(|s| s.trim().parse::<usize>().ok()).filter(|n| (1..=MAX_DEVICES).contains(n)).unwrap_or(1)
}
