//! `cuMemcpy*` and `cuMemset*`: copies and fills, synchronous and `Async`, with their
//! per-thread-default-stream twins (`_ptds`, `_ptsz`), which share one body each.
//!
//! The ABI's part is the raw-pointer checks the driver cannot make: a NULL host pointer
//! or a NULL parameter struct with a non-zero size is `CUDA_ERROR_INVALID_VALUE`. The
//! driver validates device ranges, streams and contexts.

use std::ffi::{c_uchar, c_uint, c_ushort, c_void};

use cuda_driver::CuError;

use cuda_driver::copy::On;
use cuda_driver::StreamHandle;

use super::{ctx_handle, drv, stream_handle, stream_ptsz};
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
pub(crate) unsafe fn memcpy3d_params(p: *const CUDA_MEMCPY3D) -> AbiResult<CUDA_MEMCPY3D> {
    // SAFETY: forwarded contract.
    let params = unsafe { read_in(p) }?;
    if params.width_in_bytes != 0 && params.height != 0 && params.depth != 0 {
        check_host_side(params.src_memory_type, params.src_host)?;
        check_host_side(params.dst_memory_type, params.dst_host)?;
    }
    Ok(params)
}

// Shared bodies. Each is `unsafe` where the API hands us host memory: the caller (C)
// promises those pointers are valid for the sizes it passes (until the copy has run, for
// the asynchronous ones). `on` says which stream and whether the call is blocking.

/// A blocking call on the legacy default stream.
const LEGACY: On = On::Blocking(StreamHandle::LEGACY);
/// A blocking `_ptds` call: the per-thread default stream.
const PER_THREAD: On = On::Blocking(StreamHandle::PER_THREAD);

fn on_async(s: CUstream) -> On {
    On::Async(stream_handle(s))
}

fn on_async_ptsz(s: CUstream) -> On {
    On::Async(stream_ptsz(s))
}

/// # Safety
/// Unregistered (host) pointers must be valid for `n` bytes.
unsafe fn memcpy(dst: CUdeviceptr, src: CUdeviceptr, n: usize, on: On) -> AbiResult {
    if n > 0 && (dst == 0 || src == 0) {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: forwarded contract.
    unsafe { drv()?.memcpy_on(dst, src, n, on) }
}

/// # Safety
/// `src` must be valid for reading `n` bytes.
unsafe fn htod(dst: CUdeviceptr, src: *const c_void, n: usize, on: On) -> AbiResult {
    let src = host_ptr(src, n)?;
    // SAFETY: forwarded contract.
    unsafe { drv()?.memcpy_htod_on(dst, src, n, on) }
}

/// # Safety
/// `dst` must be valid for writing `n` bytes.
unsafe fn dtoh(dst: *mut c_void, src: CUdeviceptr, n: usize, on: On) -> AbiResult {
    let dst = host_ptr(dst, n)?.cast_mut();
    // SAFETY: forwarded contract.
    unsafe { drv()?.memcpy_dtoh_on(dst, src, n, on) }
}

fn dtod(dst: CUdeviceptr, src: CUdeviceptr, n: usize, on: On) -> AbiResult {
    drv()?.memcpy_dtod_on(dst, src, n, on)
}

/// # Safety
/// `p` is NULL or readable, and its host sides valid for the region it describes.
unsafe fn memcpy2d(p: *const CUDA_MEMCPY2D, on: On) -> AbiResult {
    // SAFETY: forwarded contract.
    let params = unsafe { memcpy2d_params(p) }?;
    // SAFETY: forwarded contract.
    unsafe { drv()?.memcpy_2d_on(&params, on) }
}

/// # Safety
/// `p` is NULL or readable, and its host sides valid for the region it describes.
unsafe fn memcpy3d(p: *const CUDA_MEMCPY3D, on: On) -> AbiResult {
    // SAFETY: forwarded contract.
    let params = unsafe { memcpy3d_params(p) }?;
    // SAFETY: forwarded contract.
    unsafe { drv()?.memcpy_3d_on(&params, on) }
}

/// `cuMemcpy3DPeer*`: `CUDA_MEMCPY3D_PEER` is `CUDA_MEMCPY3D` with the source and
/// destination contexts where the latter has `reserved0`/`reserved1`. A context given
/// must be valid; NULL is accepted, as NVIDIA's driver does (H200, driver 580.159). The
/// devices share one address space here, so the copy is a 3D copy.
///
/// # Safety
/// As [`memcpy3d`].
unsafe fn memcpy3d_peer(p: *const CUDA_MEMCPY3D, on: On) -> AbiResult {
    // SAFETY: forwarded contract.
    let mut params = unsafe { memcpy3d_params(p) }?;
    let driver = drv()?;
    for ctx in [params.reserved0, params.reserved1] {
        if !ctx.is_null() {
            driver.ctx_get_device(ctx_handle(ctx.cast()))?;
        }
    }
    params.reserved0 = std::ptr::null_mut();
    params.reserved1 = std::ptr::null_mut();
    // SAFETY: forwarded contract.
    unsafe { driver.memcpy_3d_on(&params, on) }
}

fn memset(dst: CUdeviceptr, value: u32, elem_size: usize, count: usize, on: On) -> AbiResult {
    drv()?.memset_on(dst, value, elem_size, count, on)
}

/// `cuMemcpyPeer`: all devices share one address space here, so a peer copy is a
/// device-to-device copy once both contexts are known to be valid.
fn peer(dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, n: usize, on: On) -> AbiResult {
    let driver = drv()?;
    for ctx in [dst_ctx, src_ctx] {
        if ctx.is_null() {
            return Err(CuError::INVALID_CONTEXT);
        }
        driver.ctx_get_device(ctx_handle(ctx))?;
    }
    dtod(dst, src, n, on)
}

#[allow(clippy::too_many_arguments, reason = "mirrors cuMemsetD2D*Async")]
fn memset2d(dst: CUdeviceptr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize, on: On) -> AbiResult {
    drv()?.memset_2d_on(dst, pitch, value, elem_size, width, height, on)
}

export! {
    /// `cuMemcpy(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount)` (unified addressing).
    fn cuMemcpy(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize) {
        // SAFETY: host pointers are valid for `byte_count` bytes, per the API.
        unsafe { memcpy(dst, src, byte_count, LEGACY) }
    }
    fn cuMemcpy_ptds(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize) {
        // SAFETY: as cuMemcpy.
        unsafe { memcpy(dst, src, byte_count, PER_THREAD) }
    }
    /// `cuMemcpyAsync(CUdeviceptr dst, CUdeviceptr src, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyAsync(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpy.
        unsafe { memcpy(dst, src, byte_count, on_async(h_stream)) }
    }
    fn cuMemcpyAsync_ptsz(dst: CUdeviceptr, src: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpy.
        unsafe { memcpy(dst, src, byte_count, on_async_ptsz(h_stream)) }
    }

    /// `cuMemcpyHtoD_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount)`.
    fn cuMemcpyHtoD_v2(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize) {
        // SAFETY: `src_host` is readable for `byte_count` bytes, per the API.
        unsafe { htod(dst_device, src_host, byte_count, LEGACY) }
    }
    fn cuMemcpyHtoD_v2_ptds(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize) {
        // SAFETY: as cuMemcpyHtoD_v2.
        unsafe { htod(dst_device, src_host, byte_count, PER_THREAD) }
    }
    /// `cuMemcpyHtoDAsync_v2(CUdeviceptr dstDevice, const void* srcHost, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyHtoDAsync_v2(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyHtoD_v2.
        unsafe { htod(dst_device, src_host, byte_count, on_async(h_stream)) }
    }
    fn cuMemcpyHtoDAsync_v2_ptsz(dst_device: CUdeviceptr, src_host: *const c_void, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyHtoD_v2.
        unsafe { htod(dst_device, src_host, byte_count, on_async_ptsz(h_stream)) }
    }

    /// `cuMemcpyDtoH_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount)`.
    fn cuMemcpyDtoH_v2(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize) {
        // SAFETY: `dst_host` is writable for `byte_count` bytes, per the API.
        unsafe { dtoh(dst_host, src_device, byte_count, LEGACY) }
    }
    fn cuMemcpyDtoH_v2_ptds(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize) {
        // SAFETY: as cuMemcpyDtoH_v2.
        unsafe { dtoh(dst_host, src_device, byte_count, PER_THREAD) }
    }
    /// `cuMemcpyDtoHAsync_v2(void* dstHost, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyDtoHAsync_v2(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyDtoH_v2.
        unsafe { dtoh(dst_host, src_device, byte_count, on_async(h_stream)) }
    }
    fn cuMemcpyDtoHAsync_v2_ptsz(dst_host: *mut c_void, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyDtoH_v2.
        unsafe { dtoh(dst_host, src_device, byte_count, on_async_ptsz(h_stream)) }
    }

    /// `cuMemcpyDtoD_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount)`.
    fn cuMemcpyDtoD_v2(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize) {
        dtod(dst_device, src_device, byte_count, LEGACY)
    }
    fn cuMemcpyDtoD_v2_ptds(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize) {
        dtod(dst_device, src_device, byte_count, PER_THREAD)
    }
    /// `cuMemcpyDtoDAsync_v2(CUdeviceptr dstDevice, CUdeviceptr srcDevice, size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyDtoDAsync_v2(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        dtod(dst_device, src_device, byte_count, on_async(h_stream))
    }
    fn cuMemcpyDtoDAsync_v2_ptsz(dst_device: CUdeviceptr, src_device: CUdeviceptr, byte_count: usize, h_stream: CUstream) {
        dtod(dst_device, src_device, byte_count, on_async_ptsz(h_stream))
    }

    /// `cuMemcpyPeer(CUdeviceptr dstDevice, CUcontext dstContext, CUdeviceptr srcDevice, CUcontext srcContext, size_t ByteCount)`.
    fn cuMemcpyPeer(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, LEGACY)
    }
    fn cuMemcpyPeer_ptds(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, PER_THREAD)
    }
    /// `cuMemcpyPeerAsync(..., size_t ByteCount, CUstream hStream)`.
    fn cuMemcpyPeerAsync(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize, h_stream: CUstream) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, on_async(h_stream))
    }
    fn cuMemcpyPeerAsync_ptsz(dst_device: CUdeviceptr, dst_context: CUcontext, src_device: CUdeviceptr, src_context: CUcontext, byte_count: usize, h_stream: CUstream) {
        peer(dst_device, dst_context, src_device, src_context, byte_count, on_async_ptsz(h_stream))
    }

    /// `cuMemcpy2D_v2(const CUDA_MEMCPY2D* pCopy)`.
    fn cuMemcpy2D_v2(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: `p_copy` and the host memory it names are valid, per the API.
        unsafe { memcpy2d(p_copy, LEGACY) }
    }
    fn cuMemcpy2D_v2_ptds(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, PER_THREAD) }
    }
    /// `cuMemcpy2DUnaligned_v2(const CUDA_MEMCPY2D* pCopy)`.
    fn cuMemcpy2DUnaligned_v2(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, LEGACY) }
    }
    fn cuMemcpy2DUnaligned_v2_ptds(p_copy: *const CUDA_MEMCPY2D) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, PER_THREAD) }
    }
    /// `cuMemcpy2DAsync_v2(const CUDA_MEMCPY2D* pCopy, CUstream hStream)`.
    fn cuMemcpy2DAsync_v2(p_copy: *const CUDA_MEMCPY2D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, on_async(h_stream)) }
    }
    fn cuMemcpy2DAsync_v2_ptsz(p_copy: *const CUDA_MEMCPY2D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy2D_v2.
        unsafe { memcpy2d(p_copy, on_async_ptsz(h_stream)) }
    }

    /// `cuMemcpy3D_v2(const CUDA_MEMCPY3D* pCopy)`.
    fn cuMemcpy3D_v2(p_copy: *const CUDA_MEMCPY3D) {
        // SAFETY: `p_copy` and the host memory it names are valid, per the API.
        unsafe { memcpy3d(p_copy, LEGACY) }
    }
    fn cuMemcpy3D_v2_ptds(p_copy: *const CUDA_MEMCPY3D) {
        // SAFETY: as cuMemcpy3D_v2.
        unsafe { memcpy3d(p_copy, PER_THREAD) }
    }
    /// `cuMemcpy3DAsync_v2(const CUDA_MEMCPY3D* pCopy, CUstream hStream)`.
    fn cuMemcpy3DAsync_v2(p_copy: *const CUDA_MEMCPY3D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3D_v2.
        unsafe { memcpy3d(p_copy, on_async(h_stream)) }
    }
    fn cuMemcpy3DAsync_v2_ptsz(p_copy: *const CUDA_MEMCPY3D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3D_v2.
        unsafe { memcpy3d(p_copy, on_async_ptsz(h_stream)) }
    }

    /// `cuMemcpy3DPeer(const CUDA_MEMCPY3D_PEER* pCopy)`.
    fn cuMemcpy3DPeer(p_copy: *const CUDA_MEMCPY3D) {
        // SAFETY: `p_copy` (same layout as `CUDA_MEMCPY3D`) and the host memory it names
        // are valid, per the API.
        unsafe { memcpy3d_peer(p_copy, LEGACY) }
    }
    fn cuMemcpy3DPeer_ptds(p_copy: *const CUDA_MEMCPY3D) {
        // SAFETY: as cuMemcpy3DPeer.
        unsafe { memcpy3d_peer(p_copy, PER_THREAD) }
    }
    /// `cuMemcpy3DPeerAsync(const CUDA_MEMCPY3D_PEER* pCopy, CUstream hStream)`.
    fn cuMemcpy3DPeerAsync(p_copy: *const CUDA_MEMCPY3D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3DPeer.
        unsafe { memcpy3d_peer(p_copy, on_async(h_stream)) }
    }
    fn cuMemcpy3DPeerAsync_ptsz(p_copy: *const CUDA_MEMCPY3D, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3DPeer.
        unsafe { memcpy3d_peer(p_copy, on_async_ptsz(h_stream)) }
    }

    /// `cuMemsetD8_v2(CUdeviceptr dstDevice, unsigned char uc, size_t N)`.
    fn cuMemsetD8_v2(dst_device: CUdeviceptr, uc: c_uchar, n: usize) {
        memset(dst_device, u32::from(uc), 1, n, LEGACY)
    }
    fn cuMemsetD8_v2_ptds(dst_device: CUdeviceptr, uc: c_uchar, n: usize) {
        memset(dst_device, u32::from(uc), 1, n, PER_THREAD)
    }
    /// `cuMemsetD16_v2(CUdeviceptr dstDevice, unsigned short us, size_t N)`.
    fn cuMemsetD16_v2(dst_device: CUdeviceptr, us: c_ushort, n: usize) {
        memset(dst_device, u32::from(us), 2, n, LEGACY)
    }
    fn cuMemsetD16_v2_ptds(dst_device: CUdeviceptr, us: c_ushort, n: usize) {
        memset(dst_device, u32::from(us), 2, n, PER_THREAD)
    }
    /// `cuMemsetD32_v2(CUdeviceptr dstDevice, unsigned int ui, size_t N)`.
    fn cuMemsetD32_v2(dst_device: CUdeviceptr, ui: c_uint, n: usize) {
        memset(dst_device, ui, 4, n, LEGACY)
    }
    fn cuMemsetD32_v2_ptds(dst_device: CUdeviceptr, ui: c_uint, n: usize) {
        memset(dst_device, ui, 4, n, PER_THREAD)
    }
    /// `cuMemsetD8Async(CUdeviceptr dstDevice, unsigned char uc, size_t N, CUstream hStream)`.
    fn cuMemsetD8Async(dst_device: CUdeviceptr, uc: c_uchar, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(uc), 1, n, on_async(h_stream))
    }
    fn cuMemsetD8Async_ptsz(dst_device: CUdeviceptr, uc: c_uchar, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(uc), 1, n, on_async_ptsz(h_stream))
    }
    /// `cuMemsetD16Async(CUdeviceptr dstDevice, unsigned short us, size_t N, CUstream hStream)`.
    fn cuMemsetD16Async(dst_device: CUdeviceptr, us: c_ushort, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(us), 2, n, on_async(h_stream))
    }
    fn cuMemsetD16Async_ptsz(dst_device: CUdeviceptr, us: c_ushort, n: usize, h_stream: CUstream) {
        memset(dst_device, u32::from(us), 2, n, on_async_ptsz(h_stream))
    }
    /// `cuMemsetD32Async(CUdeviceptr dstDevice, unsigned int ui, size_t N, CUstream hStream)`.
    fn cuMemsetD32Async(dst_device: CUdeviceptr, ui: c_uint, n: usize, h_stream: CUstream) {
        memset(dst_device, ui, 4, n, on_async(h_stream))
    }
    fn cuMemsetD32Async_ptsz(dst_device: CUdeviceptr, ui: c_uint, n: usize, h_stream: CUstream) {
        memset(dst_device, ui, 4, n, on_async_ptsz(h_stream))
    }

    /// `cuMemsetD2D8_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height)`.
    fn cuMemsetD2D8_v2(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, LEGACY)
    }
    fn cuMemsetD2D8_v2_ptds(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, PER_THREAD)
    }
    /// `cuMemsetD2D16_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height)`.
    fn cuMemsetD2D16_v2(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, LEGACY)
    }
    fn cuMemsetD2D16_v2_ptds(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, PER_THREAD)
    }
    /// `cuMemsetD2D32_v2(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height)`.
    fn cuMemsetD2D32_v2(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, LEGACY)
    }
    fn cuMemsetD2D32_v2_ptds(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, PER_THREAD)
    }
    /// `cuMemsetD2D8Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned char uc, size_t Width, size_t Height, CUstream hStream)`.
    fn cuMemsetD2D8Async(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, on_async(h_stream))
    }
    fn cuMemsetD2D8Async_ptsz(dst_device: CUdeviceptr, dst_pitch: usize, uc: c_uchar, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(uc), 1, width, height, on_async_ptsz(h_stream))
    }
    /// `cuMemsetD2D16Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned short us, size_t Width, size_t Height, CUstream hStream)`.
    fn cuMemsetD2D16Async(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, on_async(h_stream))
    }
    fn cuMemsetD2D16Async_ptsz(dst_device: CUdeviceptr, dst_pitch: usize, us: c_ushort, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, u32::from(us), 2, width, height, on_async_ptsz(h_stream))
    }
    /// `cuMemsetD2D32Async(CUdeviceptr dstDevice, size_t dstPitch, unsigned int ui, size_t Width, size_t Height, CUstream hStream)`.
    fn cuMemsetD2D32Async(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, on_async(h_stream))
    }
    fn cuMemsetD2D32Async_ptsz(dst_device: CUdeviceptr, dst_pitch: usize, ui: c_uint, width: usize, height: usize, h_stream: CUstream) {
        memset2d(dst_device, dst_pitch, ui, 4, width, height, on_async_ptsz(h_stream))
    }
}
