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

/// The CPU devices (there is one).
pub fn devices() -> Vec<Arc<dyn backend_api::Device>> {
    static DEVICE: OnceLock<Arc<device::CpuDevice>> = OnceLock::new();
    let d = DEVICE.get_or_init(|| Arc::new(device::CpuDevice::new()));
    vec![d.clone() as Arc<dyn backend_api::Device>]
}
