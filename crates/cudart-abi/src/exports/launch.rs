//! Kernel launches and kernel attributes: the host stub's `__cudaGetKernel` +
//! `__cudaLaunchKernel` (CUDA 13's nvcc), `cudaLaunchKernel` (older stubs and programs),
//! cooperative launches, `cudaFuncGetAttributes`/`cudaFuncSetAttribute`, occupancy.

use std::ffi::{c_int, c_uint, c_void};

use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUfunction, CUkernel, CUstream};
use crate::error::CudaError;
use crate::launch_config::Dim3;
use crate::registry;
use crate::runtime::{current_device, runtime};
use crate::types::FuncAttributes;

fn launch(kernel: CUkernel, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: CUstream) -> RtResult {
    if kernel.is_null() {
        // The stub's __cudaGetKernel failed; report why if the runtime itself cannot start.
        runtime()?;
        return Err(CudaError::INVALID_DEVICE_FUNCTION);
    }
    let rt = runtime()?;
    rt.context()?;
    let shared = u32::try_from(shared).map_err(|_| CudaError::INVALID_VALUE)?;
    // SAFETY: a CUkernel from cuLibraryGetKernel, which cuLaunchKernel accepts in place of a
    // CUfunction; `args` as the caller passed it (one pointer per kernel parameter).
    let result = unsafe {
        rt.api().cuLaunchKernel(kernel as CUfunction, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, stream, args, std::ptr::null_mut())
    };
    match result {
        // CUDA 12's runtime checks the dimensions itself and answers
        // cudaErrorInvalidConfiguration; CUDA 13's passes the driver's
        // cudaErrorInvalidValue on (both seen on an H200, ctests/error_paths.cu).
        Err(CudaError::INVALID_VALUE) if crate::abi::loaded_as_cuda12() && !dimensions_valid(grid, block) => Err(CudaError::INVALID_CONFIGURATION),
        other => other,
    }
}

/// Launch dimensions within CUDA's limits (Programming Guide, "Technical Specifications":
/// 1024 threads a block, z at most 64, grid y and z at most 65535), none zero.
fn dimensions_valid(grid: Dim3, block: Dim3) -> bool {
    let threads = u64::from(block.x) * u64::from(block.y) * u64::from(block.z);
    let nonzero = [grid.x, grid.y, grid.z, block.x, block.y, block.z].iter().all(|&d| d > 0);
    nonzero && threads <= 1024 && block.x <= 1024 && block.y <= 1024 && block.z <= 64 && grid.x < (1 << 31) && grid.y <= 65535 && grid.z <= 65535
}

/// The registered kernel's `CUfunction` in the current context.
pub(crate) fn function(func: *const c_void) -> RtResult<CUfunction> {
    let kernel = registry::function(func)?.kernel()?;
    let rt = runtime()?;
    rt.context()?;
    let mut f = std::ptr::null_mut();
    // SAFETY: valid out-pointer and kernel handle.
    unsafe { rt.api().cuKernelGetFunction(&mut f, kernel) }?;
    Ok(f)
}

fn cooperative(func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, stream: CUstream) -> RtResult {
    let f = function(func)?;
    let shared = u32::try_from(shared).map_err(|_| CudaError::INVALID_VALUE)?;
    // SAFETY: a CUfunction of the current context; arguments as the caller passed them.
    unsafe { runtime()?.api().cuLaunchCooperativeKernel(f, grid.x, grid.y, grid.z, block.x, block.y, block.z, shared, stream, args) }
}

export! {
    /// The `CUkernel` (as `cudaKernel_t`) of a registered kernel's host stub.
    fn __cudaGetKernel(kernel: *mut CUkernel, func: *const c_void) {
        let out = Out::new(kernel)?;
        out.write(registry::function(func)?.kernel()?);
        Ok(())
    }

    /// `cudaGetKernel`: the same, public since CUDA 12.
    fn cudaGetKernel(kernel: *mut CUkernel, func: *const c_void) {
        let out = Out::new(kernel)?;
        out.write(registry::function(func)?.kernel()?);
        Ok(())
    }

    /// What the host stub of a `<<<...>>>` launch calls (CUDA 13's nvcc).
    fn __cudaLaunchKernel(kernel: CUkernel, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, s: *mut c_void) {
        launch(kernel, grid, block, args, shared, stream(s, false))
    }

    fn __cudaLaunchKernel_ptsz(kernel: CUkernel, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, s: *mut c_void) {
        launch(kernel, grid, block, args, shared, stream(s, true))
    }

    fn cudaLaunchKernel(func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, s: *mut c_void) {
        launch(registry::function(func)?.kernel()?, grid, block, args, shared, stream(s, false))
    }

    fn cudaLaunchKernel_ptsz(func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, s: *mut c_void) {
        launch(registry::function(func)?.kernel()?, grid, block, args, shared, stream(s, true))
    }

    fn cudaLaunchCooperativeKernel(func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, s: *mut c_void) {
        cooperative(func, grid, block, args, shared, stream(s, false))
    }

    fn cudaLaunchCooperativeKernel_ptsz(func: *const c_void, grid: Dim3, block: Dim3, args: *mut *mut c_void, shared: usize, s: *mut c_void) {
        cooperative(func, grid, block, args, shared, stream(s, true))
    }

    fn cudaFuncGetAttributes(attr: *mut FuncAttributes, func: *const c_void) {
        let out = Out::new(attr)?;
        let f = function(func)?;
        let api = runtime()?.api();
        let mut v = [0 as c_int; 16];
        for (id, value) in v.iter_mut().enumerate() {
            // SAFETY: valid out-pointer and function; ids 0..=15 are CUfunction_attribute.
            unsafe { api.cuFuncGetAttribute(value, id as c_int, f) }?;
        }
        let z = |i: usize| v[i].max(0) as usize;
        out.write(FuncAttributes {
            max_threads_per_block: v[0],
            shared_size_bytes: z(1),
            const_size_bytes: z(2),
            local_size_bytes: z(3),
            num_regs: v[4],
            ptx_version: v[5],
            binary_version: v[6],
            cache_mode_ca: v[7],
            max_dynamic_shared_size_bytes: v[8],
            preferred_shmem_carveout: v[9],
            cluster_dim_must_be_set: v[10],
            required_cluster_width: v[11],
            required_cluster_height: v[12],
            required_cluster_depth: v[13],
            non_portable_cluster_size_allowed: v[14],
            cluster_scheduling_policy_preference: v[15],
            reserved: [0; 16],
        });
        Ok(())
    }

    /// `cudaFuncAttribute` values equal `CUfunction_attribute`'s; set on the kernel for the
    /// current device.
    fn cudaFuncSetAttribute(func: *const c_void, attr: c_int, value: c_int) {
        let kernel = registry::function(func)?.kernel()?;
        let rt = runtime()?;
        let dev = rt.device(current_device())?;
        // SAFETY: a kernel handle from the driver.
        unsafe { rt.api().cuKernelSetAttribute(attr, value, kernel, dev) }
    }

    fn cudaOccupancyMaxActiveBlocksPerMultiprocessor(blocks: *mut c_int, func: *const c_void, block_size: c_int, dynamic_smem: usize) {
        occupancy(blocks, func, block_size, dynamic_smem, 0)
    }

    fn cudaOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(blocks: *mut c_int, func: *const c_void, block_size: c_int, dynamic_smem: usize, flags: c_uint) {
        occupancy(blocks, func, block_size, dynamic_smem, flags)
    }
}

fn occupancy(blocks: *mut c_int, func: *const c_void, block_size: c_int, dynamic_smem: usize, flags: c_uint) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(blocks) }?;
    let f = function(func)?;
    let mut n = 0;
    // SAFETY: valid out-pointer and function.
    unsafe { runtime()?.api().cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(&mut n, f, block_size, dynamic_smem, flags) }?;
    out.write(n);
    Ok(())
}
