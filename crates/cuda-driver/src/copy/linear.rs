//! One-dimensional copies: `cuMemcpyHtoD`, `cuMemcpyDtoH`, `cuMemcpyDtoD`, `cuMemcpyPeer`
//! and the unified-addressing `cuMemcpy`, blocking and `Async`.

use std::ffi::c_void;

use backend_api::DevicePtr;

use super::{Access, CopyPlan, CudaMemcpy3D, Loc, On};
use crate::memory::memory_type;
use crate::{CtxHandle, CuResult, Driver, StreamHandle};

impl Driver {
    /// A contiguous copy.
    fn copy1(&self, on: On, dst: Loc, src: Loc, n: usize) -> CuResult<()> {
        let ctx = self.stream_context(on.stream())?;
        if n == 0 {
            return Ok(());
        }
        let desc = desc_1d(dst, src, n);
        self.copy(&ctx, on, CopyPlan { rows: vec![(dst, src, n)], backends: self.backends() }, &desc)
    }

    /// `cuMemcpyHtoD_v2`.
    ///
    /// # Safety
    /// `src` must be valid for reading `n` bytes.
    pub unsafe fn memcpy_htod(&self, dst: DevicePtr, src: *const c_void, n: usize) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_htod_on(dst, src, n, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpyHtoD*` on any stream.
    ///
    /// # Safety
    /// `src` must be valid for reading `n` bytes until the copy has run.
    pub unsafe fn memcpy_htod_on(&self, dst: DevicePtr, src: *const c_void, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        if nothing_to_copy(n) {
            return Ok(());
        }
        let dst = self.device_loc(dst, n, Access::Write, "cuMemcpyHtoD")?;
        self.copy1(on, dst, self.host_loc(src, n), n)
    }

    /// `cuMemcpyDtoH_v2`.
    ///
    /// # Safety
    /// `dst` must be valid for writing `n` bytes.
    pub unsafe fn memcpy_dtoh(&self, dst: *mut c_void, src: DevicePtr, n: usize) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_dtoh_on(dst, src, n, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpyDtoH*` on any stream.
    ///
    /// # Safety
    /// `dst` must be valid for writing `n` bytes until the copy has run.
    pub unsafe fn memcpy_dtoh_on(&self, dst: *mut c_void, src: DevicePtr, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        if nothing_to_copy(n) {
            return Ok(());
        }
        let src = self.device_loc(src, n, Access::Read, "cuMemcpyDtoH")?;
        self.copy1(on, self.host_loc(dst, n), src, n)
    }

    /// `cuMemcpyPeer`: devices share one address space here, so this is a DtoD copy; the
    /// contexts must be valid.
    pub fn memcpy_peer(&self, dst: DevicePtr, dst_ctx: CtxHandle, src: DevicePtr, src_ctx: CtxHandle, n: usize) -> CuResult<()> {
        self.memcpy_peer_on(dst, dst_ctx, src, src_ctx, n, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemcpyPeer*` on any stream.
    pub fn memcpy_peer_on(&self, dst: DevicePtr, dst_ctx: CtxHandle, src: DevicePtr, src_ctx: CtxHandle, n: usize, on: On) -> CuResult<()> {
        self.context(dst_ctx)?;
        self.context(src_ctx)?;
        self.memcpy_dtod_on(dst, src, n, on)
    }

    /// `cuMemcpyDtoD_v2`.
    pub fn memcpy_dtod(&self, dst: DevicePtr, src: DevicePtr, n: usize) -> CuResult<()> {
        self.memcpy_dtod_on(dst, src, n, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemcpyDtoD*` on any stream.
    pub fn memcpy_dtod_on(&self, dst: DevicePtr, src: DevicePtr, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        if nothing_to_copy(n) {
            return Ok(());
        }
        let dst = self.device_loc(dst, n, Access::Write, "cuMemcpyDtoD destination")?;
        let src = self.device_loc(src, n, Access::Read, "cuMemcpyDtoD source")?;
        self.copy1(on, dst, src, n)
    }

    /// `cuMemcpy` (unified addressing): each side classified by the registry.
    ///
    /// # Safety
    /// Unregistered pointers are host memory and must be valid for `n` bytes.
    pub unsafe fn memcpy(&self, dst: u64, src: u64, n: usize) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_on(dst, src, n, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpy*` (unified addressing) on any stream.
    ///
    /// # Safety
    /// Unregistered pointers are host memory and must be valid for `n` bytes until the
    /// copy has run.
    pub unsafe fn memcpy_on(&self, dst: u64, src: u64, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        let d = self.unified_loc(dst, n, Access::Write, "cuMemcpy destination")?;
        let s = self.unified_loc(src, n, Access::Read, "cuMemcpy source")?;
        self.copy1(on, d, s, n)
    }

    /// `cuMemcpyHtoDAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_htod_on`].
    pub unsafe fn memcpy_htod_async(&self, dst: DevicePtr, src: *const c_void, n: usize, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_htod_on(dst, src, n, On::Async(stream)) }
    }

    /// `cuMemcpyDtoHAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_dtoh_on`].
    pub unsafe fn memcpy_dtoh_async(&self, dst: *mut c_void, src: DevicePtr, n: usize, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_dtoh_on(dst, src, n, On::Async(stream)) }
    }

    /// `cuMemcpyDtoDAsync_v2`.
    pub fn memcpy_dtod_async(&self, dst: DevicePtr, src: DevicePtr, n: usize, stream: StreamHandle) -> CuResult<()> {
        self.memcpy_dtod_on(dst, src, n, On::Async(stream))
    }

    /// `cuMemcpyAsync`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_on`].
    pub unsafe fn memcpy_async(&self, dst: u64, src: u64, n: usize, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_on(dst, src, n, On::Async(stream)) }
    }
}

/// A contiguous copy between two validated locations as a `CUDA_MEMCPY3D` (what a captured
/// memcpy node keeps and checks again at each launch).
fn desc_1d(dst: Loc, src: Loc, n: usize) -> CudaMemcpy3D {
    let side = |l: Loc| match l {
        Loc::Backend(_, addr) => (memory_type::DEVICE, std::ptr::null_mut::<c_void>(), addr),
        Loc::Host(p, _) => (memory_type::HOST, p.cast::<c_void>(), 0),
    };
    let (src_type, src_host, src_device) = side(src);
    let (dst_type, dst_host, dst_device) = side(dst);
    CudaMemcpy3D {
        src_x_in_bytes: 0,
        src_y: 0,
        src_z: 0,
        src_lod: 0,
        src_memory_type: src_type,
        src_host,
        src_device,
        src_array: std::ptr::null_mut(),
        reserved0: std::ptr::null_mut(),
        src_pitch: n,
        src_height: 1,
        dst_x_in_bytes: 0,
        dst_y: 0,
        dst_z: 0,
        dst_lod: 0,
        dst_memory_type: dst_type,
        dst_host,
        dst_device,
        dst_array: std::ptr::null_mut(),
        reserved1: std::ptr::null_mut(),
        dst_pitch: n,
        dst_height: 1,
        width_in_bytes: n,
        height: 1,
        depth: 1,
    }
}

/// Whether a copy of `n` bytes has nothing to do. It then succeeds whatever the addresses:
/// NVIDIA's driver 580.159 on an H200 answers CUDA_SUCCESS for 0 bytes to or from NULL or
/// unmapped addresses.
fn nothing_to_copy(n: usize) -> bool {
    n == 0
}
