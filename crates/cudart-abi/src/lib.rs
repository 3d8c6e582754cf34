//! `libcudart.so.13` (also laid out as `libcudart.so.12` and `libcudart.so`): the CUDA
//! runtime API over the driver API.
//!
//! The driver is reached only as NVIDIA's runtime reaches it (`driver`: `dlopen` of
//! `libcuda.so.1` and `cuGetProcAddress_v2`), so this library runs over our driver and
//! NVIDIA's alike. Layers, from the C boundary in:
//! - `exports/*`: the exported entry points, grouped by family, written with
//!   `boundary::export!` (panic firewall, last-error recording);
//! - `registry` (what nvcc's host code registers: fatbins, kernels, variables; libraries
//!   loaded lazily) and `launch_config` (the `<<<...>>>` stack);
//! - `runtime`: driver initialization, primary contexts, the thread's current device;
//! - pure tables and layouts: `error` (codes, names, texts), `props` (`cudaDeviceProp` of
//!   CUDA 12 and 13), `types`.

pub mod abi;
pub mod boundary;
pub mod driver;
pub mod error;
mod exports;
pub mod launch_config;
pub mod props;
pub mod registry;
pub mod runtime;
pub mod types;
