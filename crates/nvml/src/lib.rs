//! `libnvidia-ml.so.1`: NVIDIA's NVML (management library) C API, answered from our
//! `libcuda.so.1`.
//!
//! NVIDIA ships NVML with its driver; programs that find a CUDA driver expect it beside
//! it. PyTorch's allocator (expandable segments) calls `nvmlInit_v2` through a pointer it
//! does not check, and `torch.cuda` counts devices through NVML when asked to. Our NVML
//! reports the devices the process's driver reports, in its order, through the driver's
//! public C API only ([`driver`]): `CUDA_CPU_DEVICES=N` gives N NVML devices with the
//! driver's names, UUIDs, PCI locations, memory and compute capability.
//!
//! [`devices`] holds the state (initialization count, device records behind the handles),
//! [`exports`] the thin C layer, [`status`] NVML's return codes. What the device cannot do
//! (fabric, NvLink, MIG, sensors, utilization) answers `NVML_ERROR_NOT_SUPPORTED` with a
//! line under `LIBCUDA_LOG`; functions not listed in [`exports`] are not exported, so
//! clients that look them up see them missing rather than a made-up success.

pub mod devices;
pub mod driver;
pub mod exports;
pub mod status;

/// The library's name in log lines (`[nvml] ...`).
pub const LIB: &str = "nvml";
