//! Strided copies: `cuMemcpy2D*` and `cuMemcpy3D*`, copies to and from CUDA arrays, and the
//! copy work of graph memcpy nodes.

use std::ffi::c_void;

use backend_api::DevicePtr;

use super::{Access, ArraySide, CopyPlan, CudaMemcpy2D, CudaMemcpy3D, Loc, On, Shape, StepFn};
use crate::diag::fail;
use crate::exec::RunFn;
use crate::memory::memory_type;
use crate::{CuError, CuResult, Driver, StreamHandle};

impl Driver {
    /// One side of a 2D/3D copy: its start location, validated for `extent` bytes.
    #[allow(clippy::too_many_arguments, reason = "one side of a CUDA_MEMCPY3D")]
    fn region_side(
        &self,
        memory_type: u32,
        host: *const c_void,
        device: DevicePtr,
        start: usize,
        extent: usize,
        access: Access,
        what: &str,
    ) -> CuResult<Loc> {
        match memory_type {
            memory_type::HOST => Ok(self.host_loc((host as *const u8).wrapping_add(start).cast(), extent)),
            memory_type::DEVICE => self.device_loc(device.wrapping_add(start as u64), extent, access, what),
            memory_type::UNIFIED => self.unified_loc(device.wrapping_add(start as u64), extent, access, what),
            memory_type::ARRAY => Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: CUDA arrays are not supported"))),
            other => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: memory type {other}"))),
        }
    }

    /// `cuMemcpy2D_v2` / `cuMemcpy2DUnaligned_v2`. Arrays are not supported.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe.
    pub unsafe fn memcpy_2d(&self, p: &CudaMemcpy2D) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_2d_on(p, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpy2D*` on any stream.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe until the copy has run.
    pub unsafe fn memcpy_2d_on(&self, p: &CudaMemcpy2D, on: On) -> CuResult<()> {
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
        unsafe { self.memcpy_3d_on(&p3, on) }
    }

    /// `cuMemcpy3D_v2`. Arrays and LODs are not supported.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe.
    pub unsafe fn memcpy_3d(&self, p: &CudaMemcpy3D) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_on(p, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpy3D*` on any stream.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe until the copy has run.
    pub unsafe fn memcpy_3d_on(&self, p: &CudaMemcpy3D, on: On) -> CuResult<()> {
        let ctx = self.stream_context(on.stream())?;
        match self.plan_3d(p)? {
            Some(plan) => self.copy(&ctx, on, plan, p),
            None => Ok(()),
        }
    }

    /// A memcpy node's work: the copy `p` describes, validated now (`None`: nothing to copy).
    pub(crate) fn copy_work_3d(&self, p: &CudaMemcpy3D) -> CuResult<Option<RunFn>> {
        let plan = self.plan_3d(p)?;
        // SAFETY: graph memcpy nodes promise their host sides stay valid while the graph
        // can run (API contract); device sides were just validated.
        Ok(plan.map(|plan| -> RunFn { Box::new(move || unsafe { plan.run() }) }))
    }

    /// [`Driver::copy_work_3d`] as work that may run any number of times (the body of a
    /// conditional graph node).
    pub(crate) fn copy_step_3d(&self, p: &CudaMemcpy3D) -> CuResult<Option<StepFn>> {
        let plan = self.plan_3d(p)?;
        // SAFETY: as `copy_work_3d`; the plan only reads its rows.
        Ok(plan.map(|plan| -> StepFn { Box::new(move || unsafe { plan.run() }) }))
    }

    /// Validates a 2D/3D copy and lays out its rows (`None`: an empty copy).
    pub(super) fn plan_3d(&self, p: &CudaMemcpy3D) -> CuResult<Option<CopyPlan>> {
        let shape = Shape { width: p.width_in_bytes, height: p.height, depth: p.depth };
        if shape.width == 0 || shape.height == 0 || shape.depth == 0 {
            return Ok(None);
        }
        let bad = |what: &str| fail(CuError::INVALID_VALUE, format_args!("cuMemcpy3D: {what}"));
        if p.src_lod != 0 || p.dst_lod != 0 {
            return Err(bad("LOD must be 0"));
        }
        // An array side is its memory with the array's own pitch and slice height.
        let mut p = *p;
        if p.src_memory_type == memory_type::ARRAY {
            let a = self.array_side(p.src_array as u64, p.src_x_in_bytes, p.src_y, p.src_z, &shape, "source")?;
            (p.src_memory_type, p.src_device, p.src_pitch, p.src_height) = (memory_type::DEVICE, a.0, a.1, a.2);
        }
        if p.dst_memory_type == memory_type::ARRAY {
            let a = self.array_side(p.dst_array as u64, p.dst_x_in_bytes, p.dst_y, p.dst_z, &shape, "destination")?;
            (p.dst_memory_type, p.dst_device, p.dst_pitch, p.dst_height) = (memory_type::DEVICE, a.0, a.1, a.2);
        }
        let p = &p;
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
        let src = self.region_side(p.src_memory_type, p.src_host, p.src_device, src_start, src_extent, Access::Read, "cuMemcpy2D/3D source")?;
        let dst = self.region_side(p.dst_memory_type, p.dst_host, p.dst_device, dst_start, dst_extent, Access::Write, "cuMemcpy2D/3D destination")?;
        let plane = shape.width.checked_mul(shape.height);
        let contiguous = |pitch: usize, slice: usize| pitch == shape.width && Some(slice) == plane;
        let mut rows = Vec::new();
        match plane.and_then(|p| p.checked_mul(shape.depth)) {
            Some(total) if contiguous(dst_pitch, dst_slice) && contiguous(src_pitch, src_slice) => rows.push((dst, src, total)),
            _ => {
                for z in 0..shape.depth {
                    for y in 0..shape.height {
                        rows.push((dst.offset(z * dst_slice + y * dst_pitch), src.offset(z * src_slice + y * src_pitch), shape.width));
                    }
                }
            }
        }
        Ok(Some(CopyPlan { rows, backends: self.backends() }))
    }

    /// One array side of a 2D/3D copy: (base, pitch, rows per slice), after checking that
    /// the region starting at `(x, y, z)` lies in the array.
    fn array_side(&self, array: u64, x: usize, y: usize, z: usize, shape: &Shape, what: &str) -> CuResult<(DevicePtr, usize, usize)> {
        let a = self.array(crate::texture::ArrayHandle(array))?;
        let (rows, slices) = a.rows_slices();
        let fits = |start: usize, n: usize, limit: u64| start.checked_add(n).is_some_and(|end| end as u64 <= limit);
        if !fits(x, shape.width, a.pitch) || !fits(y, shape.height, rows) || !fits(z, shape.depth, slices) {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!(
                    "cuMemcpy2D/3D {what}: {}x{}x{} bytes/rows/slices at ({x}, {y}, {z}) exceed the array",
                    shape.width, shape.height, shape.depth
                ),
            ));
        }
        Ok((a.base, a.pitch as usize, rows as usize))
    }

    /// `cuMemcpyHtoA_v2`, `cuMemcpyAtoH_v2`, `cuMemcpyDtoA_v2`, `cuMemcpyAtoD_v2`,
    /// `cuMemcpyAtoA_v2` and their `Async` forms: `n` bytes at a byte offset into the
    /// first row of an array (the calls are for 1-D arrays; NVIDIA's driver refuses a
    /// range past the first row of a 2-D array).
    ///
    /// # Safety
    /// Host sides must be valid for `n` bytes until the copy has run.
    pub unsafe fn memcpy_array(&self, dst: ArraySide, src: ArraySide, n: usize, on: On) -> CuResult<()> {
        if n == 0 {
            return Ok(());
        }
        let side = |s: ArraySide, what: &str| -> CuResult<(u32, *const c_void, DevicePtr)> {
            match s {
                ArraySide::Host(p) => Ok((memory_type::HOST, p, 0)),
                ArraySide::Device(d) => Ok((memory_type::DEVICE, std::ptr::null(), d)),
                ArraySide::Array(h, offset) => {
                    let a = self.array(crate::texture::ArrayHandle(h))?;
                    if offset.checked_add(n).is_none_or(|end| end as u64 > a.pitch) {
                        return Err(fail(
                            CuError::INVALID_VALUE,
                            format_args!("cuMemcpy {what}: {n} bytes at offset {offset} exceed the array's first row"),
                        ));
                    }
                    Ok((memory_type::DEVICE, std::ptr::null(), a.base + offset as u64))
                }
            }
        };
        let (dt, dh, dd) = side(dst, "destination")?;
        let (st, sh, sd) = side(src, "source")?;
        let p = CudaMemcpy3D {
            src_memory_type: st,
            src_host: sh,
            src_device: sd,
            src_pitch: n,
            src_height: 1,
            dst_memory_type: dt,
            dst_host: dh as *mut c_void,
            dst_device: dd,
            dst_pitch: n,
            dst_height: 1,
            width_in_bytes: n,
            height: 1,
            depth: 1,
            ..CudaMemcpy3D::zeroed()
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_on(&p, on) }
    }

    /// `cuMemcpy2DAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_2d_on`].
    pub unsafe fn memcpy_2d_async(&self, p: &CudaMemcpy2D, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_2d_on(p, On::Async(stream)) }
    }

    /// `cuMemcpy3DAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_3d_on`].
    pub unsafe fn memcpy_3d_async(&self, p: &CudaMemcpy3D, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_on(p, On::Async(stream)) }
    }
}
