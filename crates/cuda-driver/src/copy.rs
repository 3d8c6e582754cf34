//! Copies and fills: `cuMemcpy*` (1D, 2D, 3D, sync and async) and `cuMemsetD*`.
//!
//! Each side of a copy is classified with the allocation registry:
//! - a device-side pointer of an explicit-direction copy (`HtoD`'s destination, `DtoH`'s
//!   source, both sides of `DtoD`) must lie, with its whole extent, inside one registered
//!   range, else `CUDA_ERROR_INVALID_VALUE`;
//! - under unified addressing (`cuMemcpy`, `CU_MEMORYTYPE_UNIFIED`) a registered pointer
//!   is whatever its range is and an unregistered one is host memory;
//! - backend memory is copied through `backend_api::Device`, host memory (pageable,
//!   pinned, registered) with plain memory copies.
//!
//! The `*Async` variants validate the stream and run synchronously. That is a correct
//! implementation of stream order because every launch is synchronous too.

use std::ffi::c_void;

use backend_api::DevicePtr;

use crate::context::Context;
use crate::diag::fail;
use crate::memory::memory_type;
use crate::{CtxHandle, CuError, CuResult, Driver, StreamHandle};

/// `CUDA_MEMCPY2D` (layout of the C struct, 128 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CudaMemcpy2D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: DevicePtr,
    pub src_array: *mut c_void,
    pub src_pitch: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: DevicePtr,
    pub dst_array: *mut c_void,
    pub dst_pitch: usize,
    pub width_in_bytes: usize,
    pub height: usize,
}

/// `CUDA_MEMCPY3D` (layout of the C struct, 200 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CudaMemcpy3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: DevicePtr,
    pub src_array: *mut c_void,
    pub reserved0: *mut c_void,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: DevicePtr,
    pub dst_array: *mut c_void,
    pub reserved1: *mut c_void,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

const _: () = assert!(std::mem::size_of::<CudaMemcpy2D>() == 128);
const _: () = assert!(std::mem::size_of::<CudaMemcpy3D>() == 200);

/// Where bytes live.
#[derive(Clone, Copy, Debug)]
enum Loc {
    /// Backend memory of a device.
    Backend(usize, DevicePtr),
    /// Host memory.
    Host(*mut u8),
}

impl Loc {
    fn offset(self, by: usize) -> Loc {
        match self {
            Loc::Backend(dev, addr) => Loc::Backend(dev, addr.wrapping_add(by as u64)),
            Loc::Host(p) => Loc::Host(p.wrapping_add(by)),
        }
    }
}

/// A strided region: `depth` slices of `height` rows of `width` bytes.
#[derive(Clone, Copy)]
struct Shape {
    width: usize,
    height: usize,
    depth: usize,
}

impl Shape {
    fn extent(self, pitch: usize, slice: usize) -> Option<usize> {
        if self.width == 0 || self.height == 0 || self.depth == 0 {
            return Some(0);
        }
        (self.depth - 1).checked_mul(slice)?.checked_add((self.height - 1).checked_mul(pitch)?)?.checked_add(self.width)
    }
}

impl Driver {
    /// The location of `[addr, addr + len)`, which must be registered memory.
    fn device_loc(&self, addr: DevicePtr, len: usize, what: &str) -> CuResult<Loc> {
        match self.memory.find_range(addr, len as u64) {
            Some(Ok(a)) if a.kind.is_backend() => Ok(Loc::Backend(a.device, addr)),
            Some(Ok(_)) => Ok(Loc::Host(addr as usize as *mut u8)),
            Some(Err(a)) => Err(fail(
                CuError::INVALID_VALUE,
                format_args!("{what}: {addr:#x}+{len} runs past the end of allocation {:#x}+{}", a.base, a.size),
            )),
            None => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {addr:#x} is not device memory"))),
        }
    }

    /// Unified addressing: registered memory as registered, anything else host memory.
    fn unified_loc(&self, addr: u64, len: usize, what: &str) -> CuResult<Loc> {
        match self.memory.find(addr) {
            Some(_) => self.device_loc(addr, len, what),
            None => Ok(Loc::Host(addr as usize as *mut u8)),
        }
    }

    /// Copies `n` bytes between two locations.
    ///
    /// # Safety
    /// Host locations must be valid for `n` bytes (reads at `src`, writes at `dst`).
    unsafe fn transfer(&self, ctx: &Context, dst: Loc, src: Loc, n: usize) -> CuResult<()> {
        if n == 0 {
            return Ok(());
        }
        let result = match (dst, src) {
            (Loc::Host(d), Loc::Host(s)) => {
                // SAFETY: the caller guarantees both ranges; `copy` allows overlap.
                unsafe { std::ptr::copy(s, d, n) };
                Ok(())
            }
            // SAFETY (both arms below): the host side is valid per the caller, the device
            // side was validated against the registry.
            (Loc::Backend(dev, d), Loc::Host(s)) => unsafe { self.devices[dev].backend.copy_to_device(d, s, n) },
            (Loc::Host(d), Loc::Backend(dev, s)) => unsafe { self.devices[dev].backend.copy_from_device(d, s, n) },
            (Loc::Backend(dd, d), Loc::Backend(sd, s)) if dd == sd => self.devices[dd].backend.copy_device_to_device(d, s, n),
            (Loc::Backend(dd, d), Loc::Backend(sd, s)) => {
                let mut staging = vec![0u8; n];
                // SAFETY: `staging` holds `n` bytes.
                unsafe { self.devices[sd].backend.copy_from_device(staging.as_mut_ptr(), s, n) }
                    .and_then(|_| unsafe { self.devices[dd].backend.copy_to_device(d, staging.as_ptr(), n) })
            }
        };
        result.map_err(|e| self.device_error(ctx, e))
    }

    /// Copies a strided region row by row (one call when both sides are contiguous).
    ///
    /// # Safety
    /// Host locations must be valid for the region's extent.
    unsafe fn transfer_region(&self, ctx: &Context, dst: (Loc, usize, usize), src: (Loc, usize, usize), shape: Shape) -> CuResult<()> {
        let (dst, dst_pitch, dst_slice) = dst;
        let (src, src_pitch, src_slice) = src;
        let plane = shape.width.checked_mul(shape.height);
        let contiguous = |pitch: usize, slice: usize| pitch == shape.width && Some(slice) == plane;
        if contiguous(dst_pitch, dst_slice) && contiguous(src_pitch, src_slice) {
            if let Some(total) = plane.and_then(|p| p.checked_mul(shape.depth)) {
                // SAFETY: forwarded from the caller.
                return unsafe { self.transfer(ctx, dst, src, total) };
            }
        }
        for z in 0..shape.depth {
            for y in 0..shape.height {
                let (d, s) = (dst.offset(z * dst_slice + y * dst_pitch), src.offset(z * src_slice + y * src_pitch));
                // SAFETY: forwarded from the caller; rows lie within the validated extent.
                unsafe { self.transfer(ctx, d, s, shape.width)? };
            }
        }
        Ok(())
    }

    /// `cuMemcpyHtoD_v2`.
    ///
    /// # Safety
    /// `src` must be valid for reading `n` bytes.
    pub unsafe fn memcpy_htod(&self, dst: DevicePtr, src: *const c_void, n: usize) -> CuResult<()> {
        let ctx = self.current_context()?;
        let dst = self.device_loc(dst, n, "cuMemcpyHtoD")?;
        // SAFETY: forwarded from the caller.
        unsafe { self.transfer(&ctx, dst, Loc::Host(src as *mut u8), n) }
    }

    /// `cuMemcpyDtoH_v2`.
    ///
    /// # Safety
    /// `dst` must be valid for writing `n` bytes.
    pub unsafe fn memcpy_dtoh(&self, dst: *mut c_void, src: DevicePtr, n: usize) -> CuResult<()> {
        let ctx = self.current_context()?;
        let src = self.device_loc(src, n, "cuMemcpyDtoH")?;
        // SAFETY: forwarded from the caller.
        unsafe { self.transfer(&ctx, Loc::Host(dst.cast()), src, n) }
    }

    /// `cuMemcpyPeer`: devices share one address space here, so this is a DtoD copy; the
    /// contexts must be valid.
    pub fn memcpy_peer(&self, dst: DevicePtr, dst_ctx: CtxHandle, src: DevicePtr, src_ctx: CtxHandle, n: usize) -> CuResult<()> {
        self.context(dst_ctx)?;
        self.context(src_ctx)?;
        self.memcpy_dtod(dst, src, n)
    }

    /// `cuMemcpyDtoD_v2`.
    pub fn memcpy_dtod(&self, dst: DevicePtr, src: DevicePtr, n: usize) -> CuResult<()> {
        let ctx = self.current_context()?;
        let dst = self.device_loc(dst, n, "cuMemcpyDtoD destination")?;
        let src = self.device_loc(src, n, "cuMemcpyDtoD source")?;
        // SAFETY: both sides are registered ranges of at least `n` bytes.
        unsafe { self.transfer(&ctx, dst, src, n) }
    }

    /// `cuMemcpy` (unified addressing): each side classified by the registry.
    ///
    /// # Safety
    /// Unregistered pointers are host memory and must be valid for `n` bytes.
    pub unsafe fn memcpy(&self, dst: u64, src: u64, n: usize) -> CuResult<()> {
        let ctx = self.current_context()?;
        let d = self.unified_loc(dst, n, "cuMemcpy destination")?;
        let s = self.unified_loc(src, n, "cuMemcpy source")?;
        // SAFETY: forwarded from the caller.
        unsafe { self.transfer(&ctx, d, s, n) }
    }

    /// `cuMemcpyHtoDAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_htod`].
    pub unsafe fn memcpy_htod_async(&self, dst: DevicePtr, src: *const c_void, n: usize, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_htod(dst, src, n) }
    }

    /// `cuMemcpyDtoHAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_dtoh`].
    pub unsafe fn memcpy_dtoh_async(&self, dst: *mut c_void, src: DevicePtr, n: usize, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_dtoh(dst, src, n) }
    }

    /// `cuMemcpyDtoDAsync_v2`.
    pub fn memcpy_dtod_async(&self, dst: DevicePtr, src: DevicePtr, n: usize, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        self.memcpy_dtod(dst, src, n)
    }

    /// `cuMemcpyAsync`.
    ///
    /// # Safety
    /// As [`Driver::memcpy`].
    pub unsafe fn memcpy_async(&self, dst: u64, src: u64, n: usize, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy(dst, src, n) }
    }

    /// One side of a 2D/3D copy: its start location, validated for `extent` bytes.
    fn region_side(&self, memory_type: u32, host: *const c_void, device: DevicePtr, start: usize, extent: usize, what: &str) -> CuResult<Loc> {
        match memory_type {
            memory_type::HOST => Ok(Loc::Host((host as *mut u8).wrapping_add(start))),
            memory_type::DEVICE => self.device_loc(device.wrapping_add(start as u64), extent, what),
            memory_type::UNIFIED => self.unified_loc(device.wrapping_add(start as u64), extent, what),
            memory_type::ARRAY => Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: CUDA arrays are not supported"))),
            other => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: memory type {other}"))),
        }
    }

    /// `cuMemcpy2D_v2` / `cuMemcpy2DUnaligned_v2`. Arrays are not supported.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe.
    pub unsafe fn memcpy_2d(&self, p: &CudaMemcpy2D) -> CuResult<()> {
        let p3 = CudaMemcpy3D {
            src_x_in_bytes: p.src_x_in_bytes,
            src_y: p.src_y,
            src_z: 0,
            src_lod: 0,
            src_memory_type: p.src_memory_type,
            src_host: p.src_host,
            src_device: p.src_device,
            src_array: p.src_array,
            reserved0: std::ptr::null_mut(),
            src_pitch: p.src_pitch,
            src_height: p.height,
            dst_x_in_bytes: p.dst_x_in_bytes,
            dst_y: p.dst_y,
            dst_z: 0,
            dst_lod: 0,
            dst_memory_type: p.dst_memory_type,
            dst_host: p.dst_host,
            dst_device: p.dst_device,
            dst_array: p.dst_array,
            reserved1: std::ptr::null_mut(),
            dst_pitch: p.dst_pitch,
            dst_height: p.height,
            width_in_bytes: p.width_in_bytes,
            height: p.height,
            depth: 1,
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d(&p3) }
    }

    /// `cuMemcpy3D_v2`. Arrays and LODs are not supported.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe.
    pub unsafe fn memcpy_3d(&self, p: &CudaMemcpy3D) -> CuResult<()> {
        let ctx = self.current_context()?;
        let shape = Shape { width: p.width_in_bytes, height: p.height, depth: p.depth };
        if shape.width == 0 || shape.height == 0 || shape.depth == 0 {
            return Ok(());
        }
        let bad = |what: &str| fail(CuError::INVALID_VALUE, format_args!("cuMemcpy3D: {what}"));
        if p.src_lod != 0 || p.dst_lod != 0 {
            return Err(bad("LOD must be 0"));
        }
        // A single row needs no pitch (callers often pass 0).
        let single_row = shape.height == 1 && shape.depth == 1;
        let pitch_of = |pitch: usize| if single_row { pitch.max(shape.width) } else { pitch };
        let (src_pitch, dst_pitch) = (pitch_of(p.src_pitch), pitch_of(p.dst_pitch));
        if src_pitch < shape.width || dst_pitch < shape.width {
            return Err(bad("pitch smaller than the row width"));
        }
        if shape.depth > 1 && (p.src_height < shape.height || p.dst_height < shape.height) {
            return Err(bad("slice height smaller than the copy height"));
        }
        let src_slice = src_pitch.checked_mul(p.src_height.max(shape.height)).ok_or_else(|| bad("overflow"))?;
        let dst_slice = dst_pitch.checked_mul(p.dst_height.max(shape.height)).ok_or_else(|| bad("overflow"))?;
        let start = |x: usize, y: usize, z: usize, pitch: usize, slice: usize| -> CuResult<usize> {
            z.checked_mul(slice)
                .and_then(|a| a.checked_add(y.checked_mul(pitch)?))
                .and_then(|a| a.checked_add(x))
                .ok_or_else(|| bad("offset overflow"))
        };
        let src_start = start(p.src_x_in_bytes, p.src_y, p.src_z, src_pitch, src_slice)?;
        let dst_start = start(p.dst_x_in_bytes, p.dst_y, p.dst_z, dst_pitch, dst_slice)?;
        let src_extent = shape.extent(src_pitch, src_slice).ok_or_else(|| bad("overflow"))?;
        let dst_extent = shape.extent(dst_pitch, dst_slice).ok_or_else(|| bad("overflow"))?;
        let src = self.region_side(p.src_memory_type, p.src_host, p.src_device, src_start, src_extent, "cuMemcpy2D/3D source")?;
        let dst = self.region_side(p.dst_memory_type, p.dst_host, p.dst_device, dst_start, dst_extent, "cuMemcpy2D/3D destination")?;
        // SAFETY: forwarded from the caller; device sides validated for their extents.
        unsafe { self.transfer_region(&ctx, (dst, dst_pitch, dst_slice), (src, src_pitch, src_slice), shape) }
    }

    /// `cuMemcpy2DAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_2d`].
    pub unsafe fn memcpy_2d_async(&self, p: &CudaMemcpy2D, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_2d(p) }
    }

    /// `cuMemcpy3DAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_3d`].
    pub unsafe fn memcpy_3d_async(&self, p: &CudaMemcpy3D, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d(p) }
    }

    /// `cuMemsetD8/D16/D32_v2`: fills `count` elements of `elem_size` (1, 2, 4) bytes.
    /// `dst` must be aligned to `elem_size` and lie in registered memory.
    pub fn memset(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize) -> CuResult<()> {
        let row = elem_size.checked_mul(count).ok_or(CuError::INVALID_VALUE)?;
        self.memset_2d(dst, row, value, elem_size, count, 1)
    }

    /// `cuMemsetD2D8/16/32_v2`: `height` rows of `width` elements, rows `pitch` bytes apart.
    pub fn memset_2d(&self, dst: DevicePtr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize) -> CuResult<()> {
        let ctx = self.current_context()?;
        if !matches!(elem_size, 1 | 2 | 4) || !dst.is_multiple_of(elem_size as u64) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemset: {dst:#x} not aligned to {elem_size}")));
        }
        let row = width.checked_mul(elem_size).ok_or(CuError::INVALID_VALUE)?;
        if row == 0 || height == 0 {
            return Ok(());
        }
        if height > 1 && pitch < row {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemsetD2D: pitch {pitch} < row {row}")));
        }
        let extent = Shape { width: row, height, depth: 1 }.extent(pitch, 0).ok_or(CuError::INVALID_VALUE)?;
        let base = self.device_loc(dst, extent, "cuMemset")?;
        for y in 0..height {
            match base.offset(y * pitch) {
                Loc::Backend(dev, addr) => {
                    self.devices[dev].backend.memset(addr, value, elem_size, width).map_err(|e| self.device_error(&ctx, e))?
                }
                // SAFETY: the row lies in a registered host range (validated above).
                Loc::Host(p) => unsafe { fill_host(p, value, elem_size, width) },
            }
        }
        Ok(())
    }

    /// `cuMemsetD8/16/32Async`.
    pub fn memset_async(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        self.memset(dst, value, elem_size, count)
    }

    /// `cuMemsetD2D8/16/32Async`.
    #[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
    pub fn memset_2d_async(&self, dst: DevicePtr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream)?;
        self.memset_2d(dst, pitch, value, elem_size, width, height)
    }
}

/// Writes `count` elements of `elem_size` bytes (the low bytes of `value`).
///
/// # Safety
/// `p` must be valid for writing `count * elem_size` bytes.
unsafe fn fill_host(p: *mut u8, value: u32, elem_size: usize, count: usize) {
    // SAFETY (all arms): the caller guarantees the range; unaligned writes are used.
    unsafe {
        match elem_size {
            1 => std::ptr::write_bytes(p, value as u8, count),
            2 => (0..count).for_each(|i| p.cast::<u16>().add(i).write_unaligned(value as u16)),
            _ => (0..count).for_each(|i| p.cast::<u32>().add(i).write_unaligned(value)),
        }
    }
}
