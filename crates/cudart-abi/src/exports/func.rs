//! Kernel configuration and queries by host stub: cache and shared-memory preferences,
//! names, `cudaFunction_t` handles, extensible launches and the dynamic shared memory a
//! block can have (runtime API "Execution Control" and "Occupancy").

use std::ffi::{c_char, c_int, c_void};

use super::config::{check_cache_config, check_shared_config};
use super::launch::function;
use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUfunction, CUkernel, CUstream};
use crate::error::CudaError;
use crate::launch_config::Dim3;
use crate::registry;
use crate::runtime::{current_device, runtime};

/// `cudaLaunchConfig_t`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct LaunchConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub dynamic_smem_bytes: usize,
    pub stream: *mut c_void,
    pub attrs: *mut c_void,
    pub num_attrs: u32,
}

/// `CUlaunchConfig`. The attribute array is passed on as is: `cudaLaunchAttribute` has
/// `CUlaunchAttribute`'s layout, and its ids and values are the driver's.
#[repr(C)]
struct DriverLaunchConfig {
    grid: [u32; 3],
    block: [u32; 3],
    shared_mem_bytes: u32,
    stream: CUstream,
    attrs: *mut c_void,
    num_attrs: u32,
}

const _: () = assert!(std::mem::size_of::<LaunchConfig>() == 56);
const _: () = assert!(std::mem::size_of::<DriverLaunchConfig>() == 56);

/// A registered kernel's host stub, or a `cudaKernel_t` (the `cudaLaunchKernelEx` template
/// for kernel handles passes one as `func`): its function in the current context. Neither
/// is `cudaErrorInvalidDeviceFunction`.
fn function_or_kernel(func: *const c_void) -> RtResult<CUfunction> {
    match function(func) {
        Err(CudaError::INVALID_DEVICE_FUNCTION) if !func.is_null() => {
            let rt = runtime()?;
            rt.context()?;
            let mut f = std::ptr::null_mut();
            // SAFETY: valid out-pointer; the driver checks the handle.
            unsafe { rt.api().cuKernelGetFunction(&mut f, func as CUkernel) }.map_err(|_| CudaError::INVALID_DEVICE_FUNCTION)?;
            Ok(f)
        }
        other => other,
    }
}

fn launch_ex(config: *const LaunchConfig, func: *const c_void, args: *mut *mut c_void, per_thread: bool) -> RtResult {
    if config.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL; the caller's structure.
    let c = unsafe { config.read_unaligned() };
    if c.num_attrs != 0 && c.attrs.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    let f = function_or_kernel(func)?;
    let shared_mem_bytes = u32::try_from(c.dynamic_smem_bytes).map_err(|_| CudaError::INVALID_VALUE)?;
    let desc = DriverLaunchConfig {
        grid: [c.grid.x, c.grid.y, c.grid.z],
        block: [c.block.x, c.block.y, c.block.z],
        shared_mem_bytes,
        stream: stream(c.stream, per_thread),
        attrs: c.attrs,
        num_attrs: c.num_attrs,
    };
    // SAFETY: a complete configuration; `args` as the caller passed it.
    unsafe { runtime()?.api().cuLaunchKernelEx((&desc as *const DriverLaunchConfig).cast(), f, args, std::ptr::null_mut()) }
}

/// `cudaOccupancyMaxActiveClusters` / `cudaOccupancyMaxPotentialClusterSize`.
fn cluster_query(out: *mut c_int, func: *const c_void, config: *const LaunchConfig, potential_size: bool) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(out) }?;
    if config.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL; the caller's structure.
    let c = unsafe { config.read_unaligned() };
    if c.num_attrs != 0 && c.attrs.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    let f = function_or_kernel(func)?;
    let desc = DriverLaunchConfig {
        grid: [c.grid.x, c.grid.y, c.grid.z],
        block: [c.block.x, c.block.y, c.block.z],
        shared_mem_bytes: u32::try_from(c.dynamic_smem_bytes).map_err(|_| CudaError::INVALID_VALUE)?,
        stream: stream(c.stream, false),
        attrs: c.attrs,
        num_attrs: c.num_attrs,
    };
    let mut n = 0;
    let api = runtime()?.api();
    let desc = (&desc as *const DriverLaunchConfig).cast();
    // SAFETY: a complete configuration and a valid out-pointer.
    unsafe {
        if potential_size {
            api.cuOccupancyMaxPotentialClusterSize(&mut n, f, desc)?;
        } else {
            api.cuOccupancyMaxActiveClusters(&mut n, f, desc)?;
        }
    }
    out.write(n);
    Ok(())
}

export! {
    /// Runtime API "Execution Control", cudaFuncSetCacheConfig: the kernel's preference on
    /// the current device; a pointer that is no registered kernel is
    /// `cudaErrorInvalidDeviceFunction`.
    fn cudaFuncSetCacheConfig(func: *const c_void, config: c_int) {
        let kernel = registry::function(func)?.kernel()?;
        check_cache_config(config)?;
        let rt = runtime()?;
        let dev = rt.device(current_device())?;
        // SAFETY: a kernel handle from the driver and a checked value.
        unsafe { rt.api().cuKernelSetCacheConfig(kernel, config, dev) }
    }

    /// Removed from CUDA 13's header, still exported by NVIDIA's runtime 13.
    fn cudaFuncSetSharedMemConfig(func: *const c_void, config: c_int) {
        let f = function(func)?;
        check_shared_config(config)?;
        // SAFETY: a function of the current context and a checked value.
        unsafe { runtime()?.api().cuFuncSetSharedMemConfig(f, config) }
    }

    /// The kernel's (mangled) device name, owned by the driver for the kernel's lifetime.
    fn cudaFuncGetName(name: *mut *const c_char, func: *const c_void) {
        let out = Out::new(name)?;
        let kernel = registry::function(func)?.kernel()?;
        let mut n = std::ptr::null();
        // SAFETY: valid out-pointer and kernel handle.
        unsafe { runtime()?.api().cuKernelGetName(&mut n, kernel) }?;
        out.write(n);
        Ok(())
    }

    /// The registered kernel's `CUfunction` (`cudaFunction_t`) in the current context.
    fn cudaGetFuncBySymbol(function_ptr: *mut CUfunction, symbol_ptr: *const c_void) {
        let out = Out::new(function_ptr)?;
        out.write(function(symbol_ptr)?);
        Ok(())
    }

    fn cudaLaunchKernelExC(config: *const LaunchConfig, func: *const c_void, args: *mut *mut c_void) {
        launch_ex(config, func, args, false)
    }

    fn cudaLaunchKernelExC_ptsz(config: *const LaunchConfig, func: *const c_void, args: *mut *mut c_void) {
        launch_ex(config, func, args, true)
    }

    /// Runtime API "Occupancy", cudaOccupancyAvailableDynamicSMemPerBlock: the dynamic
    /// shared memory each block can have with `num_blocks` blocks of `block_size` threads
    /// resident on one multiprocessor.
    fn cudaOccupancyAvailableDynamicSMemPerBlock(size: *mut usize, func: *const c_void, num_blocks: c_int, block_size: c_int) {
        let out = Out::new(size)?;
        let f = function(func)?;
        let mut n = 0;
        // SAFETY: valid out-pointer and function.
        unsafe { runtime()?.api().cuOccupancyAvailableDynamicSMemPerBlock(&mut n, f, num_blocks, block_size) }?;
        out.write(n);
        Ok(())
    }

    /// Runtime API "Occupancy", cudaOccupancyMaxActiveClusters: the configuration as
    /// `cudaLaunchKernelExC` passes it to the driver.
    fn cudaOccupancyMaxActiveClusters(num_clusters: *mut c_int, func: *const c_void, config: *const LaunchConfig) {
        cluster_query(num_clusters, func, config, false)
    }

    /// Runtime API "Occupancy", cudaOccupancyMaxPotentialClusterSize.
    fn cudaOccupancyMaxPotentialClusterSize(cluster_size: *mut c_int, func: *const c_void, config: *const LaunchConfig) {
        cluster_query(cluster_size, func, config, true)
    }
}
