//! `libcufft.so`: NVIDIA's cuFFT C API on devices whose memory the host addresses (the
//! CPU device).
//!
//! A plan ([`plan`]) is validated and planned when it is made: each axis length gets
//! its rustfft/realfft plan from the process-wide [`planner`], and the shape its
//! [`engine`]. An execution ([`exec`]) checks its operands, maps their device ranges to
//! host memory through libcuda's public API (`libcuda_client::host_range`) and queues the
//! transform on the plan's stream (`libcuda_client::enqueue`), so it runs in order with
//! the program's kernels and copies. Layouts (basic and advanced, [`layout`]) are
//! gathered to dense buffers and scattered back ([`strided`]). The C exports are in
//! [`exports`] (`cufft.h`) and [`xt`] (`cufftXt.h`).

pub mod callback;
pub mod engine;
pub mod exec;
pub mod exports;
pub mod layout;
pub mod plan;
pub mod planner;
pub mod strided;
pub mod types;
pub mod xt;

#[cfg(test)]
mod tests;
