//! `cuMemcpy*` and `cuMemset*`: copies and fills, synchronous and `Async`, with their
//! per-thread-default-stream twins (`_ptds`, `_ptsz`), which share one body each.
//!
//! The ABI's part is the raw-pointer checks the driver cannot make: a NULL host pointer
//! or a NULL parameter struct with a non-zero size is `CUDA_ERROR_INVALID_VALUE`. The
//! driver validates device ranges, streams and contexts.

use std::ffi::{c_uchar, c_uint, c_ushort, c_void};

use cuda_driver::CuError;

use super::{ctx_handle, drv, stream_handle};
use crate::boundary::{export, read_in, AbiResult};
use crate::types::{memory_type, CUcontext, CUdeviceptr, CUstream, CUDA_MEMCPY2D, CUDA_MEMCPY3D};

/// A host pointer that will be read or written for `n` bytes.
fn host_ptr<T>(p: *const T, n: usize) -> AbiResult<*const T> {
    if p.is_null() && n > 0 {
        return Err(CuError::INVALID_VALUE);
    }
    Ok(p)
}

/// A host side of a 2D/3D copy must not be NULL.
fn check_host_side(memory_type: u32, host: *const c_void) -> AbiResult {
    if memory_type == memory_type::HOST && host.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    Ok(())
}

/// Reads and checks a `CUDA_MEMCPY2D`.
///
/// # Safety
/// `p` is NULL or readable.
unsafe fn memcpy2d_params(p: *const CUDA_MEMCPY2D) -> AbiResult<CUDA_MEMCPY2D> {
    // SAFETY: forwarded contract.
    let params = unsafe { read_in(p) }?;
    if params.width_in_bytes != 0 && params.height != 0 {
        check_host_side(params.src_memory_type, params.src_host)?;
        check_host_side(params.dst_memory_type, params.dst_host)?;
    }
    Ok(params)
}

/// Reads and checks a `CUDA_MEMCPY3D`.
///
/// # Safety
/// `p` is NULL or readable.
unsafe fn memcpy3d_params(p: *const CUDA_MEMCPY3D) -> AbiResult<CUDA_MEMCPY3D> {
    // SAFETY: forwarded contract.
    let params = unsafe { read_in(p) }?;
    if params.width_in_bytes != 0 && params.height != 0 && params.depth != 0 {
        check_host_side(params.src_memory_type, params.src_host)?;
        check_host_side(params.dst_memory_type, params.dst_host)?;
    }
    Ok(params)
}

// Shared bodies. Each is `unsafe` where the API hands us host memory: the caller (C)
// promises those pointers are valid for the sizes it passes.

/// # Safety
/// Unregistered (host) pointers must be valid for `n` bytes.
unsafe fn memcpy(dst: CUdeviceptr, src: CUdeviceptr, n: usize, stream: Option<CUstream>) -> AbiResult {
    if n > 0 && (dst == 0 || src == 0) {
        return Err(CuError::INVALID_VALUE);
    }
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe {
        match stream {
            None => driver.memcpy(dst, src, n),
            Some(s) => driver.memcpy_async(dst, src, n, stream_handle(s)),
        }
    }
}

/// # Safety
/// `src` must be valid for reading `n` bytes.
unsafe fn htod(dst: CUdeviceptr, src: *const c_void, n: usize, stream: Option<CUstream>) -> AbiResult {
    let src = host_ptr(src, n)?;
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe {
        match stream {
            None => driver.memcpy_htod(dst, src, n),
            Some(s) => driver.memcpy_htod_async(dst, src, n, stream_handle(s)),
        }
    }
}

/// # Safety
/// `dst` must be valid for writing `n` bytes.
unsafe fn dtoh(dst: *mut c_void, src: CUdeviceptr, n: usize, stream: Option<CUstream>) -> AbiResult {
    let dst = host_ptr(dst, n)?.cast_mut();
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe {
        match stream {
            None => driver.memcpy_dtoh(dst, src, n),
            Some(s) => driver.memcpy_dtoh_async(dst, src, n, stream_handle(s)),
        }
    }
}

fn dtod(dst: CUdeviceptr, src: CUdeviceptr, n: usize, stream: Option<CUstream>) -> AbiResult {
    let driver = drv()?;
    match stream {
        None => driver.memcpy_dtod(dst, src, n),
        Some(s) => driver.memcpy_dtod_async(dst, src, n, stream_handle(s)),
    }
}

/// # Safety
/// `p` is NULL or readable, and its host sides valid for the region it describes.
unsafe fn memcpy2d(p: *const CUDA_MEMCPY2D, stream: Option<CUstream>) -> AbiResult {
    // SAFETY: forwarded contract.
    let params = unsafe { memcpy2d_params(p) }?;
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe {
        match stream {
            None => driver.memcpy_2d(&params),
            Some(s) => driver.memcpy_2d_async(&params, stream_handle(s)),
        }
    }
}

/// # Safety
/// `p` is NULL or readable, and its host sides valid for the region it describes.
unsafe fn memcpy3d(p: *const CUDA_MEMCPY3D, stream: Option<CUstream>) -> AbiResult {
    // SAFETY: forwarded contract.
    let params = unsafe { memcpy3d_params(p) }?;
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe {
        match stream {
            None => driver.memcpy_3d(&params),
            Some(s) => driver.memcpy_3d_async(&params, stream_handle(s)),
        }
    }
}

fn memset(dst: CUdeviceptr, value: u32, elem_size: usize, count: usize, stream: Option<CUstream>) -> AbiResult {
    let driver = drv()?;
    match stream {
        None => driver.memset(dst, value, elem_size, count),
        Some(s) => driver.memset_async(dst, value, elem_size, count, stream_handle(s)),
    }
}

/// `cuMemcpyPeer`: all devices share one address space here, so a peer copy is a
/// device-to-device copy once both contexts are known to be valid.
fn peer(dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, n: usize, stream: Option<CUstream>) -> AbiResult {
    let driver = drv()?;
    for ctx in [dst_ctx, src_ctx] {
        if ctx.is_null() {
            return Err(CuError::INVALID_CONTEXT);
        }
        driver.ctx_get_device(ctx_handle(ctx))?;
    }
    dtod(dst, src, n, stream)
}

#[allow(clippy::too_many_arguments, reason = "mirrors cuMemsetD2D*Async")]
fn memset2d(dst: CUdeviceptr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize, stream: Option<CUstream>) -> AbiResult {
    let driver = drv()?;
    match stream {
        None => driver.memset_2d(dst, pitch, value, elem_size, width, height),
        Some(s) => driver.memset_2d_async(dst, pitch, value, elem_size, width, height, stream_handle(s)),
    }
}

export! {
    /// `cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)` (unified addressing).
    fn cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize) {
        // SAFETY: host pointers are valid for `byte_count` bytes, per the API.
        unsafe { memcpy(dst, src, byte_count, None) }
    }
    fn cuMemcpy_ptds(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize) {
        // SAFETY: as cuMemcpy.
        unsafe { memcpy(dst, src, byte_count, None) }
    }
    /// `cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyAsync(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpy.
        unsafe { memcpy(dst, src, byte_count, Some(h_stream)) }
    }
    fn cuMemcpyAsync_ptsz(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpy.
        unsafe { memcpy(dst, src, byte_count, Some(h_stream)) }
    }

    /// `cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount)`.
    fn cuMemcpyHtoD_v2(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize) {
        // SAFETY: `src_host` is readable for `byte_count` bytes, per the API.
        unsafe { htod(dst_device, src_host, byte_count, None) }
    }
    fn cuMemcpyHtoD_v2_ptds(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize) {
        // SAFETY: as cuMemcpyHtoD_v2.
        unsafe { htod(dst_device, src_host, byte_count, None) }
    }
    /// `cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyHtoDAsync_v2(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyHtoD_v2.
        unsafe { htod(dst_device, src_host, byte_count, Some(h_stream)) }
    }
    fn cuMemcpyHtoDAsync_v2_ptsz(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyHtoD_v2.
        unsafe { htod(dst_device, src_host, byte_count, Some(h_stream)) }
    }

    /// `cuMemcpyDtoH_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount)`.
    fn cuMemcpyDtoH_v2(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize) {
        // SAFETY: `dst_host` is writable for `byte_count` bytes, per the API.
        unsafe { dtoh(dst_host, src_device, byte_count, None) }
    }
    fn cuMemcpyDtoH_v2_ptds(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize) {
        // SAFETY: as cuMemcpyDtoH_v2.
        unsafe { dtoh(dst_host, src_device, byte_count, None) }
    }
    /// `cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyDtoHAsync_v2(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyDtoH_v2.
        unsafe { dtoh(dst_host, src_device, byte_count, Some(h_stream)) }
    }
    fn cuMemcpyDtoHAsync_v2_ptsz(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyDtoH_v2.
        unsafe { dtoh(dst_host, src_device, byte_count, Some(h_stream)) }
    }

    /// `cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)`.
    fn cuMemcpyDtoD_v2(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize) {
        dtod(dst_device, src_device, byte_count, None)
    }
    fn cuMemcpyDtoD_v2_ptds(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize) {
        dtod(dst_device, src_device, byte_count, None)
    }
    /// `cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyDtoDAsync_v2(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        dtod(dst_device, src_device, byte_count, Some(h_stream))
    }
    fn cuMemcpyDtoDAsync_v2_ptsz(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        dtod(dst_device, src_device, byte_count, Some(h_stream))
    }

    /// `cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)`.
    fn cuMemcpyPeer(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, None)
    }
    fn cuMemcpyPeer_ptds(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, None)
    }
    /// `cuMemcpyPeerAsync(..., size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyPeerAsync(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize, h_stream: CUstream) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, Some(h_stream))
    }
    fn cuMemcpyPeerAsync_ptsz(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize, h_stream: CUstream) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, Some(h_stream))
    }

    /// `cuMemcpy2D_v2(const CUDA_MEMCPY2D* pCopy)`.
    fn cuMemcpy2D_v2(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: `p_copy` and the host memory it names are valid, per the API.
        unsafe { memcpy2d(p_copy, None) }
    }
    fn cuMemcpy2D_v2_ptds(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, None) }
    }
    /// `cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* pCopy)`.
    fn cuMemcpy2DUnaligned_v2(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, None) }
    }
    fn cuMemcpy2DUnaligned_v2_ptds(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, None) }
    }
    /// `cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* pCopy, CUstream hStream)`.
    fn cuMemcpy2DAsync_v2(p_copy: *const CUDA_MEMCPY2D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, Some(h_stream)) }
    }
    fn cuMemcpy2DAsync_v2_ptsz(p_copy: *const CUDA_MEMCPY2D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, Some(h_stream)) }
    }

    /// `cuMemcpy3D_v2(const CUDA_MEMCPY3D* pCopy)`.
    fn cuMemcpy3D_v2(p_copy: *const CUDA_MEMCPY3D) {
        // SAFETY: `p_copy` and the host memory it names are valid, per the API.
        unsafe { memcpy3d(p_copy, None) }
    }
    fn cuMemcpy3D_v2_ptds(p_copy: *const CUDA_MEMCPY3D) {
        // SAFETY: as cuMemcpy3D_v2.
        unsafe { memcpy3d(p_copy, None) }
    }
    /// `cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* pCopy, CUstream hStream)`.
    fn cuMemcpy3DAsync_v2(p_copy: *const CUDA_MEMCPY3D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3D_v2.
        unsafe { memcpy3d(p_copy, Some(h_stream)) }
    }
    fn cuMemcpy3DAsync_v2_ptsz(p_copy: *const CUDA_MEMCPY3D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3D_v2.
        unsafe { memcpy3d(p_copy, Some(h_stream)) }
    }

    /// `cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)`.
    fn cuMemsetD8_v2(dst_device: CUdeviceptr, uc: c_uchar, n: usize) {
        memset(dst_device, u32::from(uc), 1, n, None)
    }
    fn cuMemsetD8_v2_ptds(dst_device: CUdeviceptr, uc: c_uchar, n: usize) {
        memset(dst_device, u32::from(uc), 1, n, None)
    }
    /// `cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)`.
    fn cuMemsetD16_v2(dst_device: CUdeviceptr, us: c_ushort, n: usize) {
        memset(dst_device, u32::from(us), 2, n, None)
    }
    fn cuMemsetD16_v2_ptds(dst_device: CUdeviceptr, us: c_ushort, n: usize) {
        memset(dst_device, u32::from(us), 2, n, None)
    }
    /// `cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)`.
    fn cuMemsetD32_v2(dst_device: CUdeviceptr, ui: c_uint, n: usize) {
        memset(dst_device, ui, 4, n, None)
    }
    fn cuMemsetD32_v2_ptds(dst_device: CUdeviceptr, ui: c_uint, n: usize) {
        memset(dst_device, ui, 4, n, None)
    }
    /// `cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)`.
    fn cuMemsetD8Async(dst_device: CUdeviceptr, uc: c_uchar, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(uc), 1, n, Some(h_stream))
    }
    fn cuMemsetD8Async_ptsz(dst_device: CUdeviceptr, uc: c_uchar, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(uc), 1, n, Some(h_stream))
    }
    /// `cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)`.
    fn cuMemsetD16Async(dst_device: CUdeviceptr, us: c_ushort, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(us), 2, n, Some(h_stream))
    }
    fn cuMemsetD16Async_ptsz(dst_device: CUdeviceptr, us: c_ushort, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(us), 2, n, Some(h_stream))
    }
    /// `cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)`.
    fn cuMemsetD32Async(dst_device: CUdeviceptr, ui: c_uint, n: usize, h_stream: CUstream) {
        memset(dst_device, ui, 4, n, Some(h_stream))
    }
    fn cuMemsetD32Async_ptsz(dst_device: CUdeviceptr, ui: c_uint, n: usize, h_stream: CUstream) {
        memset(dst_device, ui, 4, n, Some(h_stream))
    }

    /// `cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)`.
    fn cuMemsetD2D8_v2(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, None)
    }
    fn cuMemsetD2D8_v2_ptds(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, None)
    }
    /// `cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height)`.
    fn cuMemsetD2D16_v2(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, None)
    }
    fn cuMemsetD2D16_v2_ptds(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, None)
    }
    /// `cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)`.
    fn cuMemsetD2D32_v2(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, None)
    }
    fn cuMemsetD2D32_v2_ptds(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, None)
    }
    /// `cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream)`.
    fn cuMemsetD2D8Async(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, Some(h_stream))
    }
    fn cuMemsetD2D8Async_ptsz(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, Some(h_stream))
    }
    /// `cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream)`.
    fn cuMemsetD2D16Async(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, Some(h_stream))
    }
    fn cuMemsetD2D16Async_ptsz(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, Some(h_stream))
    }
    /// `cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream)`.
    fn cuMemsetD2D32Async(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, Some(h_stream))
    }
    fn cuMemsetD2D32Async_ptsz(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, Some(h_stream))
    }
}
