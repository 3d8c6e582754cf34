//! Kernel launches: `cuLaunchKernel`, `cuLaunchKernelEx`, `cuLaunchCooperativeKernel`.
//!
//! 1. Resolve the callee: a `CUfunction`, or a `CUkernel` (cudart 13 passes the handle
//!    from `cuLibraryGetKernel` directly), told apart by the handle's kind tag. A kernel
//!    resolves to its function in the stream's context.
//! 2. Validate the configuration (driver API reference, `cuLaunchKernel`): every grid
//!    and block dimension > 0 and within the device's limits, the block's thread count
//!    within the device limit, and dynamic shared memory within the kernel's limit, else
//!    `CUDA_ERROR_INVALID_VALUE` (cudart reports it as cudaErrorInvalidConfiguration); so
//!    are a block larger than this kernel's own limit (`.maxntid`) and a `.reqntid`
//!    mismatch (both measured on an H200, driver 580.159).
//! 3. Pack the parameters ([`pack_params`]).
//! 4. Queue it on the stream ([`crate::exec`]): the call returns before the kernel runs.
//!    A fault (illegal address, trap, assert) becomes the context's sticky error, which
//!    the next call that needs the context reports.
//!
//! Cooperative launches (`cuLaunchCooperativeKernel`, or the `COOPERATIVE` attribute of
//! `cuLaunchKernelEx`) need every block resident at once: the grid may have at most as
//! many blocks as the occupancy model allows on the whole device
//! (`cuOccupancyMaxActiveBlocksPerMultiprocessor` times the multiprocessor count), else
//! `CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`; the device must report
//! `CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH` (else `NOT_SUPPORTED`).

use std::ffi::c_void;

use backend_api::{KernelInfo, LaunchConfig};

use crate::diag::fail;
use crate::exec::{Launch, Work};
use crate::handle::{kind_of, Kind};
use crate::{CuError, CuResult, Driver, FunctionHandle, KernelHandle, StreamHandle};

/// `CU_LAUNCH_PARAM_END`.
pub const LAUNCH_PARAM_END: usize = 0;
/// `CU_LAUNCH_PARAM_BUFFER_POINTER`.
pub const LAUNCH_PARAM_BUFFER_POINTER: usize = 1;
/// `CU_LAUNCH_PARAM_BUFFER_SIZE`.
pub const LAUNCH_PARAM_BUFFER_SIZE: usize = 2;

/// The largest `CUlaunchAttributeID` (`CU_LAUNCH_ATTRIBUTE_SHARED_MEMORY_MODE`, CUDA 13).
const LAST_LAUNCH_ATTRIBUTE: u32 = 18;

/// One `CUlaunchAttribute` of `cuLaunchKernelEx`, decoded by the ABI.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LaunchAttr {
    /// `CU_LAUNCH_ATTRIBUTE_COOPERATIVE` (2): non-zero makes a cooperative launch.
    Cooperative(i32),
    /// `CU_LAUNCH_ATTRIBUTE_CLUSTER_DIMENSION` (4): only (1, 1, 1) is supported.
    ClusterDimension([u32; 3]),
    /// Any other attribute CUDA 13 defines (ids up to 18): a scheduling or memory hint
    /// with no effect here.
    Ignored(u32),
    /// An id CUDA does not define: the launch is refused (`CUDA_ERROR_INVALID_VALUE`).
    Unknown(u32),
}

impl LaunchAttr {
    /// Decodes a `CUlaunchAttribute` from its id and the first bytes of its value union.
    pub fn from_raw(id: u32, value: &[u8; 12]) -> LaunchAttr {
        let word = |i: usize| u32::from_ne_bytes([value[4 * i], value[4 * i + 1], value[4 * i + 2], value[4 * i + 3]]);
        match id {
            2 => LaunchAttr::Cooperative(word(0) as i32),
            4 => LaunchAttr::ClusterDimension([word(0), word(1), word(2)]),
            other if other <= LAST_LAUNCH_ATTRIBUTE => LaunchAttr::Ignored(other),
            other => LaunchAttr::Unknown(other),
        }
    }
}

/// `CUlaunchConfig` of `cuLaunchKernelEx`, decoded by the ABI (into storage of its own:
/// the attributes are borrowed, so that a launch needs no allocation).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchConfigEx<'a> {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
    pub stream: StreamHandle,
    pub attrs: &'a [LaunchAttr],
}

/// Builds the packed parameter buffer `info` describes, as a new vector (see
/// [`pack_params_into`]).
///
/// # Safety
/// As [`pack_params_into`].
pub unsafe fn pack_params(info: &KernelInfo, kernel_params: *mut *mut c_void, extra: *mut *mut c_void) -> CuResult<Vec<u8>> {
    let mut buffer = vec![0u8; info.param_buffer_size];
    // SAFETY: forwarded contract.
    unsafe { pack_params_into(info, kernel_params, extra, &mut buffer) }?;
    Ok(buffer)
}

/// Writes the packed parameter buffer `info` describes into `buffer`, which holds
/// `info.param_buffer_size` zeroed bytes (bytes between parameters stay zero).
///
/// - `kernel_params`: an array with one pointer per parameter, each to that argument's
///   value; `info.params[i].size` bytes are copied from it to `info.params[i].offset`.
/// - `extra`: `CU_LAUNCH_PARAM_BUFFER_POINTER, buf, CU_LAUNCH_PARAM_BUFFER_SIZE, &size,
///   CU_LAUNCH_PARAM_END` (in any order, ending at `CU_LAUNCH_PARAM_END`): the buffer is
///   already packed; it must hold at least `info.param_buffer_size` bytes.
///
/// Both given: `kernelParams` is used (NVIDIA's driver 580 answers success). A shorter
/// `extra` buffer than the parameters take fills the rest with zeros, as NVIDIA's driver
/// launches it. Neither given for a kernel with parameters, a null argument pointer or a
/// malformed `extra` list: `CUDA_ERROR_INVALID_VALUE`.
///
/// # Safety
/// `kernel_params`, if non-null, must hold `info.params.len()` pointers, each valid for
/// reading its parameter's size. `extra`, if non-null, must be a list as above whose
/// buffer pointer is valid for reading the size it declares.
pub unsafe fn pack_params_into(info: &KernelInfo, kernel_params: *mut *mut c_void, extra: *mut *mut c_void, buffer: &mut [u8]) -> CuResult<()> {
    let bad = |why: &str| fail(CuError::INVALID_VALUE, format_args!("kernel {} parameters: {why}", info.name));
    debug_assert_eq!(buffer.len(), info.param_buffer_size);
    match (kernel_params.is_null(), extra.is_null()) {
        (true, true) if info.params.is_empty() => Ok(()),
        (true, true) => Err(bad("neither kernelParams nor extra was given")),
        (false, _) => {
            for (i, p) in info.params.iter().enumerate() {
                // SAFETY: the caller guarantees one pointer per parameter.
                let arg = unsafe { *kernel_params.add(i) };
                if arg.is_null() {
                    return Err(bad(&format!("kernelParams[{i}] is null")));
                }
                let end = p.offset.checked_add(p.size).filter(|&e| e <= buffer.len()).ok_or_else(|| bad("layout exceeds the buffer"))?;
                // SAFETY: `arg` is valid for `p.size` bytes (caller), the target is in bounds.
                unsafe { std::ptr::copy_nonoverlapping(arg.cast::<u8>(), buffer[p.offset..end].as_mut_ptr(), p.size) };
            }
            Ok(())
        }
        (true, false) => {
            let (mut pointer, mut size) = (None, None);
            // Bounded walk: a real list has at most a handful of entries.
            for i in (0..64).step_by(2) {
                // SAFETY: the caller guarantees a well-formed list up to its END entry.
                let key = unsafe { *extra.add(i) } as usize;
                if key == LAUNCH_PARAM_END {
                    break;
                }
                // SAFETY: as above; every non-END key is followed by its value.
                let value = unsafe { *extra.add(i + 1) };
                match key {
                    LAUNCH_PARAM_BUFFER_POINTER => pointer = Some(value),
                    LAUNCH_PARAM_BUFFER_SIZE if !value.is_null() => {
                        // SAFETY: the value of BUFFER_SIZE points to a size_t (caller).
                        size = Some(unsafe { value.cast::<usize>().read_unaligned() })
                    }
                    _ => return Err(bad(&format!("unknown or malformed extra entry {key:#x}"))),
                }
            }
            let (Some(pointer), Some(size)) = (pointer, size) else {
                return Err(bad("extra needs both BUFFER_POINTER and BUFFER_SIZE"));
            };
            let copied = size.min(buffer.len());
            if pointer.is_null() && copied > 0 {
                return Err(bad(&format!("extra buffer pointer is null, {size} bytes declared")));
            }
            if copied > 0 {
                // SAFETY: `pointer` is valid for `size >= copied` bytes (caller).
                unsafe { std::ptr::copy_nonoverlapping(pointer.cast::<u8>(), buffer.as_mut_ptr(), copied) };
            }
            Ok(())
        }
    }
}

impl Driver {
    /// `cuLaunchKernel` (and `_ptsz`): `f` is the raw `CUfunction` or `CUkernel`.
    ///
    /// # Safety
    /// `kernel_params` and `extra` as [`pack_params`] requires; the kernel then accesses
    /// whatever device memory its arguments name (faults are caught by the backend).
    #[allow(clippy::too_many_arguments, reason = "mirrors cuLaunchKernel")]
    pub unsafe fn launch_kernel(
        &self,
        f: *mut c_void,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        stream: StreamHandle,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.launch(f, grid, block, shared_bytes, stream, kernel_params, extra, false) }
    }

    /// The body of every launch entry point.
    ///
    /// # Safety
    /// As [`Driver::launch_kernel`].
    #[allow(clippy::too_many_arguments, reason = "mirrors cuLaunchKernel")]
    unsafe fn launch(
        &self,
        f: *mut c_void,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        stream: StreamHandle,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
        cooperative: bool,
    ) -> CuResult<()> {
        let (ctx, queue) = self.stream_queue(stream)?;
        let raw = f as usize as u64;
        let handle = match kind_of(raw) {
            Some(Kind::Function) => FunctionHandle(raw),
            Some(Kind::Kernel) => self.kernel_function(KernelHandle(raw), &ctx)?,
            _ => return Err(fail(CuError::INVALID_HANDLE, format_args!("cuLaunchKernel: {raw:#x} is neither a CUfunction nor a CUkernel"))),
        };
        let function = self.function(handle)?;
        if function.ctx != ctx.handle {
            return Err(fail(CuError::INVALID_CONTEXT, format_args!("cuLaunchKernel: {} belongs to another context", function.name_str())));
        }
        self.validate_launch(&function, grid, block, shared_bytes)?;
        if cooperative {
            self.validate_cooperative(&function, grid, block, shared_bytes)?;
        }
        // The block lives in the queued operation or a spare buffer of the queue: a launch
        // allocates nothing in steady state (`crate::params`).
        let mut params = queue.param_buffer(function.info.param_buffer_size);
        // SAFETY: forwarded from the caller.
        unsafe { pack_params_into(&function.info, kernel_params, extra, params.bytes_mut())? };
        let config = LaunchConfig { grid, block, dynamic_shared_bytes: shared_bytes };
        if self.capture_gate(&ctx, &queue, false)? {
            if cooperative {
                return Err(fail(CuError::NOT_SUPPORTED, format_args!("capture of a cooperative launch is not supported")));
            }
            let params = self.kernel_params_packed(handle, function, grid, block, shared_bytes, params.bytes());
            return self.capture_node(&queue, crate::graph::NodeParams::Kernel(params));
        }
        // CUDA flushes device printf output at the start of a launch.
        self.flush_output(&ctx);
        self.submit(&ctx, &queue, None, Work::Launch(Launch { function, config, cooperative, params }), false);
        Ok(())
    }

    /// `cuLaunchKernelEx`: the `COOPERATIVE` attribute makes a cooperative launch;
    /// clusters larger than one block are not supported (`NOT_SUPPORTED`); other
    /// attributes are hints and ignored.
    ///
    /// # Safety
    /// As [`Driver::launch_kernel`].
    pub unsafe fn launch_kernel_ex(
        &self,
        config: &LaunchConfigEx<'_>,
        f: *mut c_void,
        kernel_params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CuResult<()> {
        let mut cooperative = false;
        for attr in config.attrs {
            match *attr {
                LaunchAttr::Cooperative(v) => cooperative = v != 0,
                LaunchAttr::Unknown(id) => return Err(fail(CuError::INVALID_VALUE, format_args!("cuLaunchKernelEx: unknown launch attribute {id}"))),
                LaunchAttr::ClusterDimension(dims) if dims.iter().zip(config.grid).any(|(&d, g)| d != 0 && !g.is_multiple_of(d)) => {
                    return Err(fail(CuError::INVALID_CLUSTER_SIZE, format_args!("cluster {dims:?} does not divide the grid {:?}", config.grid)))
                }
                LaunchAttr::ClusterDimension(dims) if dims.iter().any(|&d| d > 1) => {
                    return Err(fail(CuError::NOT_SUPPORTED, format_args!("thread block clusters are not supported")))
                }
                _ => {}
            }
        }
        // SAFETY: forwarded from the caller.
        unsafe { self.launch(f, config.grid, config.block, config.shared_bytes, config.stream, kernel_params, extra, cooperative) }
    }

    /// `cuLaunchCooperativeKernel` (and `_ptsz`).
    ///
    /// # Safety
    /// As [`Driver::launch_kernel`] (cooperative launches take no `extra`).
    #[allow(clippy::too_many_arguments, reason = "mirrors cuLaunchCooperativeKernel")]
    pub unsafe fn launch_cooperative_kernel(
        &self,
        f: *mut c_void,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        stream: StreamHandle,
        kernel_params: *mut *mut c_void,
    ) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.launch(f, grid, block, shared_bytes, stream, kernel_params, std::ptr::null_mut(), true) }
    }

    fn validate_cooperative(&self, f: &crate::function::Function, grid: [u32; 3], block: [u32; 3], shared_bytes: u32) -> CuResult<()> {
        let props = self.devices[f.device].backend.properties();
        if !props.cooperative_launch {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("device {} does not support cooperative launches", f.device)));
        }
        let threads = block.iter().product::<u32>();
        let per_sm = self.active_blocks(f, threads, shared_bytes as usize);
        let max = per_sm * props.multiprocessor_count as u64;
        let blocks = grid.iter().map(|&g| g as u64).product::<u64>();
        if blocks > max {
            return Err(fail(
                CuError::COOPERATIVE_LAUNCH_TOO_LARGE,
                format_args!(
                    "cooperative launch of {}: {blocks} blocks > {max} that can be resident at once ({per_sm} per multiprocessor)",
                    f.name_str()
                ),
            ));
        }
        Ok(())
    }

    pub(crate) fn validate_launch(&self, f: &crate::function::Function, grid: [u32; 3], block: [u32; 3], shared_bytes: u32) -> CuResult<()> {
        let props = self.devices[f.device].backend.properties();
        let name = f.name_str();
        for i in 0..3 {
            if grid[i] == 0 || grid[i] > props.max_grid_dim[i] || block[i] == 0 || block[i] > props.max_block_dim[i] {
                return Err(fail(
                    CuError::INVALID_VALUE,
                    format_args!(
                        "launch of {name}: grid {grid:?} / block {block:?} outside the device limits {:?} / {:?}",
                        props.max_grid_dim, props.max_block_dim
                    ),
                ));
            }
        }
        let threads = block.iter().map(|&d| d as u64).product::<u64>();
        if threads > props.max_threads_per_block as u64 {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!("launch of {name}: {threads} threads per block > device limit {}", props.max_threads_per_block),
            ));
        }
        if let Some(required) = f.info.required_block {
            if required != block {
                return Err(fail(CuError::INVALID_VALUE, format_args!("launch of {name}: block {block:?} differs from .reqntid {required:?}")));
            }
        }
        let kernel_max = self.max_threads(f);
        if threads > kernel_max as u64 {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!("launch of {name}: {threads} threads per block > this kernel's limit {kernel_max}"),
            ));
        }
        let dynamic_max = self.max_dynamic_shared(f);
        let total = f.info.static_shared_bytes as u64 + shared_bytes as u64;
        if shared_bytes > dynamic_max || total > props.shared_memory_per_block_optin.max(props.shared_memory_per_block) as u64 {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!(
                    "launch of {name}: {shared_bytes} bytes of dynamic shared memory > limit {dynamic_max} (raise it with cuFuncSetAttribute)"
                ),
            ));
        }
        Ok(())
    }
}
