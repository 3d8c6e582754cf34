//! Copies and fills: `cudaMemcpy*`, `cudaMemset*`, blocking and `Async`, with their
//! per-thread-default-stream (`_ptds`/`_ptsz`) forms.
//!
//! Blocking calls on the legacy stream use the driver's blocking calls (same
//! synchronization rules). Their `_ptds` forms queue on the per-thread stream and wait
//! for it, which is what a blocking call on that stream means.

use std::ffi::{c_int, c_void};

use super::api;
use super::stream;
use crate::boundary::{export, RtResult};
use crate::driver::{
    Api, CUdeviceptr, CUstream, CudaMemcpy2D, CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_UNIFIED, CU_STREAM_PER_THREAD,
};
use crate::error::CudaError;
use crate::types::MemcpyKind;

/// How a copy or fill runs.
#[derive(Clone, Copy)]
pub(crate) enum Mode {
    /// Blocking, ordered with the legacy default stream.
    Blocking,
    /// Blocking, on the calling thread's per-thread default stream (`_ptds`).
    BlockingPerThread,
    /// Queued on a stream.
    Async(CUstream),
}

impl Mode {
    pub(crate) fn of_async(s: *mut c_void, per_thread: bool) -> Self {
        Mode::Async(stream(s, per_thread))
    }
}

/// One linear copy.
pub(crate) fn copy(dst: *mut c_void, src: *const c_void, count: usize, kind: MemcpyKind, mode: Mode) -> RtResult {
    let api = api()?;
    if count == 0 {
        return Ok(());
    }
    let (d, s) = (dst as CUdeviceptr, src as CUdeviceptr);
    // SAFETY: the driver checks the pointers against its allocations; host pointers are the
    // caller's, valid for `count` bytes per the runtime API's contract.
    unsafe {
        match mode {
            Mode::Blocking => match kind {
                MemcpyKind::HostToDevice => api.cuMemcpyHtoD(d, src, count),
                MemcpyKind::DeviceToHost => api.cuMemcpyDtoH(dst, s, count),
                MemcpyKind::DeviceToDevice => api.cuMemcpyDtoD(d, s, count),
                MemcpyKind::HostToHost | MemcpyKind::Default => api.cuMemcpy(d, s, count),
            },
            Mode::Async(stream) => match kind {
                MemcpyKind::HostToDevice => api.cuMemcpyHtoDAsync(d, src, count, stream),
                MemcpyKind::DeviceToHost => api.cuMemcpyDtoHAsync(dst, s, count, stream),
                MemcpyKind::DeviceToDevice => api.cuMemcpyDtoDAsync(d, s, count, stream),
                MemcpyKind::HostToHost | MemcpyKind::Default => api.cuMemcpyAsync(d, s, count, stream),
            },
            Mode::BlockingPerThread => {
                copy(dst, src, count, kind, Mode::Async(CU_STREAM_PER_THREAD))?;
                api.cuStreamSynchronize(CU_STREAM_PER_THREAD)
            }
        }
    }
}

pub(crate) fn kind_of(kind: c_int) -> RtResult<MemcpyKind> {
    MemcpyKind::from_raw(kind).ok_or(CudaError::INVALID_MEMCPY_DIRECTION)
}

fn fill(ptr: *mut c_void, value: c_int, count: usize, mode: Mode) -> RtResult {
    let api = api()?;
    if count == 0 {
        return Ok(());
    }
    let d = ptr as CUdeviceptr;
    // SAFETY: the driver checks the range.
    unsafe {
        match mode {
            Mode::Blocking => api.cuMemsetD8(d, value as u8, count),
            Mode::Async(s) => api.cuMemsetD8Async(d, value as u8, count, s),
            Mode::BlockingPerThread => {
                api.cuMemsetD8Async(d, value as u8, count, CU_STREAM_PER_THREAD)?;
                api.cuStreamSynchronize(CU_STREAM_PER_THREAD)
            }
        }
    }
}

#[allow(clippy::too_many_arguments)]
fn copy_2d(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int, mode: Mode) -> RtResult {
    let kind = kind_of(kind)?;
    let api = api()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    if width > dpitch || width > spitch {
        return Err(CudaError(12)); // cudaErrorInvalidPitchValue
    }
    let (src_type, dst_type) = memory_types(kind);
    let desc = CudaMemcpy2D {
        src_x_in_bytes: 0,
        src_y: 0,
        src_memory_type: src_type,
        src_host: src,
        src_device: src as CUdeviceptr,
        src_array: std::ptr::null_mut(),
        src_pitch: spitch,
        dst_x_in_bytes: 0,
        dst_y: 0,
        dst_memory_type: dst_type,
        dst_host: dst,
        dst_device: dst as CUdeviceptr,
        dst_array: std::ptr::null_mut(),
        dst_pitch: dpitch,
        width_in_bytes: width,
        height,
    };
    run_2d(api, &desc, mode)
}

/// The driver's (source, destination) memory types of a runtime copy kind.
pub(crate) fn memory_types(kind: MemcpyKind) -> (u32, u32) {
    match kind {
        MemcpyKind::HostToHost => (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_HOST),
        MemcpyKind::HostToDevice => (CU_MEMORYTYPE_HOST, CU_MEMORYTYPE_DEVICE),
        MemcpyKind::DeviceToHost => (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_HOST),
        MemcpyKind::DeviceToDevice => (CU_MEMORYTYPE_DEVICE, CU_MEMORYTYPE_DEVICE),
        MemcpyKind::Default => (CU_MEMORYTYPE_UNIFIED, CU_MEMORYTYPE_UNIFIED),
    }
}

/// Runs a 2D copy the driver's way for `mode` (blocking on the legacy stream, queued, or
/// blocking on the per-thread stream).
pub(crate) fn run_2d(api: &Api, desc: &CudaMemcpy2D, mode: Mode) -> RtResult {
    // SAFETY: a complete descriptor; the driver checks the ranges.
    unsafe {
        match mode {
            Mode::Blocking => api.cuMemcpy2DUnaligned(desc),
            Mode::Async(s) => api.cuMemcpy2DAsync(desc, s),
            Mode::BlockingPerThread => {
                api.cuMemcpy2DAsync(desc, CU_STREAM_PER_THREAD)?;
                api.cuStreamSynchronize(CU_STREAM_PER_THREAD)
            }
        }
    }
}

fn fill_2d(ptr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize, mode: Mode) -> RtResult {
    let api = api()?;
    if width == 0 || height == 0 {
        return Ok(());
    }
    let d = ptr as CUdeviceptr;
    // SAFETY: the driver checks the range.
    unsafe {
        match mode {
            Mode::Blocking => api.cuMemsetD2D8(d, pitch, value as u8, width, height),
            Mode::Async(s) => api.cuMemsetD2D8Async(d, pitch, value as u8, width, height, s),
            Mode::BlockingPerThread => {
                api.cuMemsetD2D8Async(d, pitch, value as u8, width, height, CU_STREAM_PER_THREAD)?;
                api.cuStreamSynchronize(CU_STREAM_PER_THREAD)
            }
        }
    }
}

export! {
    fn cudaMemcpy(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) {
        copy(dst, src, count, kind_of(kind)?, Mode::Blocking)
    }

    fn cudaMemcpy_ptds(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) {
        copy(dst, src, count, kind_of(kind)?, Mode::BlockingPerThread)
    }

    fn cudaMemcpyAsync(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int, s: *mut c_void) {
        copy(dst, src, count, kind_of(kind)?, Mode::of_async(s, false))
    }

    fn cudaMemcpyAsync_ptsz(dst: *mut c_void, src: *const c_void, count: usize, kind: c_int, s: *mut c_void) {
        copy(dst, src, count, kind_of(kind)?, Mode::of_async(s, true))
    }

    fn cudaMemset(ptr: *mut c_void, value: c_int, count: usize) {
        fill(ptr, value, count, Mode::Blocking)
    }

    fn cudaMemset_ptds(ptr: *mut c_void, value: c_int, count: usize) {
        fill(ptr, value, count, Mode::BlockingPerThread)
    }

    fn cudaMemsetAsync(ptr: *mut c_void, value: c_int, count: usize, s: *mut c_void) {
        fill(ptr, value, count, Mode::of_async(s, false))
    }

    fn cudaMemsetAsync_ptsz(ptr: *mut c_void, value: c_int, count: usize, s: *mut c_void) {
        fill(ptr, value, count, Mode::of_async(s, true))
    }

    fn cudaMemcpy2D(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int) {
        copy_2d(dst, dpitch, src, spitch, width, height, kind, Mode::Blocking)
    }

    fn cudaMemcpy2D_ptds(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int) {
        copy_2d(dst, dpitch, src, spitch, width, height, kind, Mode::BlockingPerThread)
    }

    fn cudaMemcpy2DAsync(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int, s: *mut c_void) {
        copy_2d(dst, dpitch, src, spitch, width, height, kind, Mode::of_async(s, false))
    }

    fn cudaMemcpy2DAsync_ptsz(dst: *mut c_void, dpitch: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int, s: *mut c_void) {
        copy_2d(dst, dpitch, src, spitch, width, height, kind, Mode::of_async(s, true))
    }

    fn cudaMemset2D(ptr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize) {
        fill_2d(ptr, pitch, value, width, height, Mode::Blocking)
    }

    fn cudaMemset2D_ptds(ptr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize) {
        fill_2d(ptr, pitch, value, width, height, Mode::BlockingPerThread)
    }

    fn cudaMemset2DAsync(ptr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize, s: *mut c_void) {
        fill_2d(ptr, pitch, value, width, height, Mode::of_async(s, false))
    }

    fn cudaMemset2DAsync_ptsz(ptr: *mut c_void, pitch: usize, value: c_int, width: usize, height: usize, s: *mut c_void) {
        fill_2d(ptr, pitch, value, width, height, Mode::of_async(s, true))
    }
}
