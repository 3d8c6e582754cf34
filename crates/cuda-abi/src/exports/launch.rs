//! `cuLaunchKernel(Ex)` and their `_ptsz` twins, and the occupancy queries (the
//! driver's occupancy model).
//!
//! The callee may be a `CUfunction` or a `CUkernel` (cudart 13 passes the latter); the
//! driver tells them apart by handle value, validates the configuration and packs the
//! parameters. The ABI decodes `CUlaunchConfig` and its attribute array.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::launch::{LaunchAttr, LaunchConfigEx};

use cuda_driver::StreamHandle;

use super::{drv, function_handle, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, slice, AbiResult, Out};
use crate::types::{CUfunction, CUlaunchAttribute, CUlaunchConfig, CUstream};

/// `cuLaunchKernel`'s body.
///
/// # Safety
/// `kernel_params` / `extra` as the driver API documents them.
#[allow(clippy::too_many_arguments, reason = "mirrors cuLaunchKernel")]
unsafe fn launch(
    f: CUfunction,
    grid: [c_uint; 3],
    block: [c_uint; 3],
    shared_mem_bytes: c_uint,
    stream: StreamHandle,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
) -> AbiResult {
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe { driver.launch_kernel(f.cast(), grid, block, shared_mem_bytes, stream, kernel_params, extra) }
}

/// `cuLaunchCooperativeKernel`'s body.
///
/// # Safety
/// `kernel_params` as the driver API documents it.
unsafe fn launch_cooperative(
    f: CUfunction,
    grid: [c_uint; 3],
    block: [c_uint; 3],
    shared_mem_bytes: c_uint,
    stream: StreamHandle,
    kernel_params: *mut *mut c_void,
) -> AbiResult {
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe { driver.launch_cooperative_kernel(f.cast(), grid, block, shared_mem_bytes, stream, kernel_params) }
}

/// Launch attributes `cuLaunchKernelEx` decodes without allocating.
const INLINE_ATTRS: usize = 16;

/// `cuLaunchKernelEx`'s body.
///
/// # Safety
/// `config` is NULL or readable, its attribute array holds `numAttrs` entries, and
/// `kernel_params` / `extra` are as the driver API documents them.
unsafe fn launch_ex(config: *const CUlaunchConfig, f: CUfunction, kernel_params: *mut *mut c_void, extra: *mut *mut c_void, ptsz: bool) -> AbiResult {
    // SAFETY: forwarded contract.
    let config = unsafe { read_in(config) }?;
    // SAFETY: forwarded contract.
    let raw = unsafe { slice(config.attrs.cast_const(), config.numAttrs as usize) }?;
    let decode = |a: &CUlaunchAttribute| {
        let mut value = [0u8; 12];
        value.copy_from_slice(&a.value.pad[..12]);
        LaunchAttr::from_raw(a.id, &value)
    };
    // Decoded on the stack (a launch allocates nothing); a longer list than any program
    // passes (CUDA 13 defines 14 attributes) on the heap.
    let mut inline = [LaunchAttr::Ignored(0); INLINE_ATTRS];
    let heap: Vec<LaunchAttr>;
    let attrs = if raw.len() <= INLINE_ATTRS {
        for (slot, a) in inline.iter_mut().zip(raw) {
            *slot = decode(a);
        }
        &inline[..raw.len()]
    } else {
        heap = raw.iter().map(decode).collect();
        &heap[..]
    };
    let decoded = LaunchConfigEx {
        grid: [config.gridDimX, config.gridDimY, config.gridDimZ],
        block: [config.blockDimX, config.blockDimY, config.blockDimZ],
        shared_bytes: config.sharedMemBytes,
        stream: if ptsz { stream_ptsz(config.hStream) } else { stream_handle(config.hStream) },
        attrs,
    };
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe { driver.launch_kernel_ex(&decoded, f.cast(), kernel_params, extra) }
}

/// A `CUlaunchConfig` decoded for the occupancy queries (which are not on a launch's hot
/// path: the attributes go to the heap).
///
/// # Safety
/// `config` is NULL or readable, its attribute array holds `numAttrs` entries.
unsafe fn with_config<T>(config: *const CUlaunchConfig, f: impl FnOnce(&LaunchConfigEx<'_>) -> AbiResult<T>) -> AbiResult<T> {
    // SAFETY: forwarded contract.
    let config = unsafe { read_in(config) }?;
    // SAFETY: forwarded contract.
    let raw = unsafe { slice(config.attrs.cast_const(), config.numAttrs as usize) }?;
    let attrs: Vec<LaunchAttr> = raw
        .iter()
        .map(|a| {
            let mut value = [0u8; 12];
            value.copy_from_slice(&a.value.pad[..12]);
            LaunchAttr::from_raw(a.id, &value)
        })
        .collect();
    f(&LaunchConfigEx {
        grid: [config.gridDimX, config.gridDimY, config.gridDimZ],
        block: [config.blockDimX, config.blockDimY, config.blockDimZ],
        shared_bytes: config.sharedMemBytes,
        stream: stream_handle(config.hStream),
        attrs: &attrs,
    })
}

/// `CUoccupancyB2DSize`: dynamic shared memory needed by a block of `blockSize` threads.
pub type CUoccupancyB2DSize = Option<unsafe extern "C" fn(block_size: c_int) -> usize>;

/// `cuOccupancyMaxPotentialBlockSize(WithFlags)`'s body.
///
/// # Safety
/// The outputs are NULL or writable; `b2d`, if given, may be called on this thread.
#[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
unsafe fn potential_block_size(
    min_grid_size: *mut c_int,
    block_size: *mut c_int,
    func: CUfunction,
    b2d: CUoccupancyB2DSize,
    dynamic_smem_size: usize,
    block_size_limit: c_int,
    flags: c_uint,
) -> AbiResult {
    // SAFETY: forwarded contract.
    let (min_grid, block) = unsafe { (Out::new(min_grid_size)?, Out::new(block_size)?) };
    let mut smem_for = |threads: c_int| match b2d {
        // SAFETY: the caller's callback, as the API promises.
        Some(f) => unsafe { f(threads) },
        None => dynamic_smem_size,
    };
    let (grid, threads) = drv()?.occupancy_max_potential_block_size(function_handle(func), &mut smem_for, block_size_limit, flags)?;
    min_grid.write(grid);
    block.write(threads);
    Ok(())
}

export! {
    /// `cuLaunchKernel(CUfunction f, unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, unsigned sharedMemBytes, CUstream hStream, void** kernelParams, void** extra)`.
    fn cuLaunchKernel(
        f: CUfunction,
        grid_dim_x: c_uint,
        grid_dim_y: c_uint,
        grid_dim_z: c_uint,
        block_dim_x: c_uint,
        block_dim_y: c_uint,
        block_dim_z: c_uint,
        shared_mem_bytes: c_uint,
        h_stream: CUstream,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) {
        // SAFETY: parameter arrays as the API documents them.
        unsafe { launch(f, [grid_dim_x, grid_dim_y, grid_dim_z], [block_dim_x, block_dim_y, block_dim_z], shared_mem_bytes, stream_handle(h_stream), kernel_params, extra) }
    }

    fn cuLaunchKernel_ptsz(
        f: CUfunction,
        grid_dim_x: c_uint,
        grid_dim_y: c_uint,
        grid_dim_z: c_uint,
        block_dim_x: c_uint,
        block_dim_y: c_uint,
        block_dim_z: c_uint,
        shared_mem_bytes: c_uint,
        h_stream: CUstream,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) {
        // SAFETY: as cuLaunchKernel.
        unsafe { launch(f, [grid_dim_x, grid_dim_y, grid_dim_z], [block_dim_x, block_dim_y, block_dim_z], shared_mem_bytes, stream_ptsz(h_stream), kernel_params, extra) }
    }

    /// `cuLaunchCooperativeKernel(CUfunction f, unsigned gridDimX, gridDimY, gridDimZ, blockDimX, blockDimY, blockDimZ, unsigned sharedMemBytes, CUstream hStream, void** kernelParams)`.
    fn cuLaunchCooperativeKernel(
        f: CUfunction,
        grid_dim_x: c_uint,
        grid_dim_y: c_uint,
        grid_dim_z: c_uint,
        block_dim_x: c_uint,
        block_dim_y: c_uint,
        block_dim_z: c_uint,
        shared_mem_bytes: c_uint,
        h_stream: CUstream,
        kernel_params: *mut *mut c_void,
    ) {
        // SAFETY: parameter array as the API documents it.
        unsafe { launch_cooperative(f, [grid_dim_x, grid_dim_y, grid_dim_z], [block_dim_x, block_dim_y, block_dim_z], shared_mem_bytes, stream_handle(h_stream), kernel_params) }
    }

    fn cuLaunchCooperativeKernel_ptsz(
        f: CUfunction,
        grid_dim_x: c_uint,
        grid_dim_y: c_uint,
        grid_dim_z: c_uint,
        block_dim_x: c_uint,
        block_dim_y: c_uint,
        block_dim_z: c_uint,
        shared_mem_bytes: c_uint,
        h_stream: CUstream,
        kernel_params: *mut *mut c_void,
    ) {
        // SAFETY: as cuLaunchCooperativeKernel.
        unsafe { launch_cooperative(f, [grid_dim_x, grid_dim_y, grid_dim_z], [block_dim_x, block_dim_y, block_dim_z], shared_mem_bytes, stream_ptsz(h_stream), kernel_params) }
    }

    /// `cuLaunchKernelEx(const CUlaunchConfig* config, CUfunction f, void** kernelParams, void** extra)`.
    fn cuLaunchKernelEx(config: *const CUlaunchConfig, f: CUfunction, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) {
        // SAFETY: arguments as the API documents them.
        unsafe { launch_ex(config, f, kernel_params, extra, false) }
    }

    fn cuLaunchKernelEx_ptsz(config: *const CUlaunchConfig, f: CUfunction, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) {
        // SAFETY: as cuLaunchKernelEx.
        unsafe { launch_ex(config, f, kernel_params, extra, true) }
    }

    /// `cuOccupancyMaxActiveBlocksPerMultiprocessor(int* numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize)`.
    fn cuOccupancyMaxActiveBlocksPerMultiprocessor(num_blocks: *mut c_int, func: CUfunction, block_size: c_int, dynamic_smem_size: usize) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(num_blocks) }?;
        out.write(drv()?.occupancy_max_active_blocks(function_handle(func), block_size, dynamic_smem_size, 0)?);
        Ok(())
    }

    /// `cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(int* numBlocks, CUfunction func, int blockSize, size_t dynamicSMemSize, unsigned flags)`.
    fn cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(num_blocks: *mut c_int, func: CUfunction, block_size: c_int, dynamic_smem_size: usize, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(num_blocks) }?;
        out.write(drv()?.occupancy_max_active_blocks(function_handle(func), block_size, dynamic_smem_size, flags)?);
        Ok(())
    }

    /// `cuOccupancyMaxPotentialBlockSize(int* minGridSize, int* blockSize, CUfunction func, CUoccupancyB2DSize blockSizeToDynamicSMemSize, size_t dynamicSMemSize, int blockSizeLimit)`.
    fn cuOccupancyMaxPotentialBlockSize(
        min_grid_size: *mut c_int,
        block_size: *mut c_int,
        func: CUfunction,
        block_size_to_dynamic_smem_size: CUoccupancyB2DSize,
        dynamic_smem_size: usize,
        block_size_limit: c_int,
    ) {
        // SAFETY: arguments as the API documents them.
        unsafe { potential_block_size(min_grid_size, block_size, func, block_size_to_dynamic_smem_size, dynamic_smem_size, block_size_limit, 0) }
    }

    /// `cuOccupancyMaxPotentialBlockSizeWithFlags(..., int blockSizeLimit, unsigned flags)`.
    fn cuOccupancyMaxPotentialBlockSizeWithFlags(
        min_grid_size: *mut c_int,
        block_size: *mut c_int,
        func: CUfunction,
        block_size_to_dynamic_smem_size: CUoccupancyB2DSize,
        dynamic_smem_size: usize,
        block_size_limit: c_int,
        flags: c_uint,
    ) {
        // SAFETY: arguments as the API documents them.
        unsafe { potential_block_size(min_grid_size, block_size, func, block_size_to_dynamic_smem_size, dynamic_smem_size, block_size_limit, flags) }
    }

    /// `cuOccupancyAvailableDynamicSMemPerBlock(size_t* dynamicSmemSize, CUfunction func, int numBlocks, int blockSize)`.
    fn cuOccupancyAvailableDynamicSMemPerBlock(dynamic_smem_size: *mut usize, func: CUfunction, num_blocks: c_int, block_size: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dynamic_smem_size) }?;
        out.write(drv()?.occupancy_available_dynamic_smem_per_block(function_handle(func), num_blocks, block_size)?);
        Ok(())
    }

    /// `cuOccupancyMaxActiveClusters(int* numClusters, CUfunction func, const CUlaunchConfig* config)`.
    fn cuOccupancyMaxActiveClusters(num_clusters: *mut c_int, func: CUfunction, config: *const CUlaunchConfig) {
        // SAFETY: NULL or writable / readable, per the API.
        let out = unsafe { Out::new(num_clusters) }?;
        // SAFETY: NULL or readable with its attribute array, per the API.
        let n = unsafe { with_config(config, |c| drv()?.occupancy_max_active_clusters(function_handle(func), c)) }?;
        out.write(n);
        Ok(())
    }

    /// `cuOccupancyMaxPotentialClusterSize(int* clusterSize, CUfunction func, const CUlaunchConfig* config)`.
    fn cuOccupancyMaxPotentialClusterSize(cluster_size: *mut c_int, func: CUfunction, config: *const CUlaunchConfig) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(cluster_size) }?;
        // SAFETY: NULL or readable with its attribute array, per the API.
        let n = unsafe { with_config(config, |c| drv()?.occupancy_max_potential_cluster_size(function_handle(func), c)) }?;
        out.write(n);
        Ok(())
    }
}
