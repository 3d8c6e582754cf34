//! Batched copies and copies with attributes: `cuMemcpyBatchAsync(_v2)`,
//! `cuMemcpy3DBatchAsync(_v2)`, `cuMemcpyWithAttributesAsync`,
//! `cuMemcpy3DWithAttributesAsync` (CUDA Driver API, "Memory Management", CUDA 12.8/13).
//!
//! A batch runs in stream order as a whole; its copies may run in any order among
//! themselves (the reference leaves dependent copies in one batch undefined), so each is
//! queued as the unified-addressing copy it describes, in array order. Every copy and
//! attribute is checked before the first one is queued; a failure names the copy it
//! concerns (`failIdx`, `usize::MAX` for none). The attributes are `CUmemcpyAttributes`:
//! a source access order (`STREAM`, `DURING_API_CALL` or `ANY`; `INVALID`, 0, is
//! refused), location hints (for managed memory only, which never moves here) and flags
//! (`CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE` only). A copy from pageable host memory
//! completes before the call returns, which satisfies every access order. The legacy
//! NULL stream is not accepted, as the reference says. Codes and `failIdx` values are
//! those NVIDIA's driver gave (580.159, H200; `ctests/host/stream_ops.c`): a bad
//! attribute of a 1D batch names no copy, a bad 3D operation names its index, a copy of 0
//! bytes or past an allocation names the copy, and on the NULL stream `failIdx` is left
//! unwritten.
//!
//! A 3D operand is a pointer (row length and layer height in elements, 0 meaning the
//! copy's width and height) or a CUDA array with an offset in elements; elements are bytes
//! between pointers, the array's texel size otherwise (the same for both arrays of an
//! array-to-array copy).

use super::{memory_type, Access, CudaMemcpy3D, On};
use crate::diag::fail;
use crate::managed::MemLocation;
use crate::{CuError, CuResult, Driver, StreamHandle};

/// `CUmemcpySrcAccessOrder` values.
pub mod access_order {
    pub const INVALID: u32 = 0;
    pub const STREAM: u32 = 1;
    pub const DURING_API_CALL: u32 = 2;
    pub const ANY: u32 = 3;
}

/// `CU_MEMCPY_FLAG_PREFER_OVERLAP_WITH_COMPUTE`.
pub const FLAG_PREFER_OVERLAP_WITH_COMPUTE: u32 = 1;

/// `CUmemcpyAttributes`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemcpyAttributes {
    pub src_access_order: u32,
    pub src_loc_hint: MemLocation,
    pub dst_loc_hint: MemLocation,
    pub flags: u32,
}

/// A `CUmemcpy3DOperand`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Operand3D {
    /// `CU_MEMCPY_OPERAND_TYPE_POINTER`: address, row length and layer height in elements.
    Pointer { ptr: u64, row_length: usize, layer_height: usize },
    /// `CU_MEMCPY_OPERAND_TYPE_ARRAY`: a `CUarray` and an offset in elements.
    Array { array: u64, offset: [usize; 3] },
    /// Any other operand type.
    Invalid(u32),
}

/// A `CUDA_MEMCPY3D_BATCH_OP`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Copy3DOp {
    pub src: Operand3D,
    pub dst: Operand3D,
    /// Width, height, depth in elements; none may be 0.
    pub extent: [usize; 3],
    pub src_access_order: u32,
    pub flags: u32,
}

/// What `failIdx` gets when a batch fails.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailIndex {
    /// The index of the copy the failure concerns.
    Copy(usize),
    /// `SIZE_MAX`: the failure concerns no copy in particular.
    NoCopy,
    /// Left as it was (a batch on the legacy NULL stream, as NVIDIA's driver leaves it).
    Unwritten,
}

/// One side of a 3D operation as `CUDA_MEMCPY3D` fields: memory type, device pointer,
/// array, pitch, height, start offset (x in bytes, y, z).
type Side = (u32, u64, *mut std::ffi::c_void, usize, usize, [usize; 3]);

/// A failed batch: the code and what `failIdx` gets.
pub type BatchError = (CuError, FailIndex);

fn bad(index: FailIndex, why: std::fmt::Arguments<'_>) -> BatchError {
    (fail(CuError::INVALID_VALUE, why), index)
}

fn check_order_and_flags(order: u32, flags: u32, index: FailIndex, what: &str) -> Result<(), BatchError> {
    if !(access_order::STREAM..=access_order::ANY).contains(&order) {
        return Err(bad(index, format_args!("{what}: source access order {order}")));
    }
    if flags & !FLAG_PREFER_OVERLAP_WITH_COMPUTE != 0 {
        return Err(bad(index, format_args!("{what}: flags {flags:#x}")));
    }
    Ok(())
}

impl Driver {
    fn batch_stream(&self, stream: StreamHandle, what: &str) -> Result<(), BatchError> {
        if stream == StreamHandle::NULL {
            return Err(bad(FailIndex::Unwritten, format_args!("{what}: the legacy NULL stream")));
        }
        if stream == StreamHandle::LEGACY {
            return Err(bad(FailIndex::NoCopy, format_args!("{what}: the legacy NULL stream")));
        }
        self.stream_context(stream).map(|_| ()).map_err(|e| (e, FailIndex::NoCopy))
    }

    /// `cuMemcpyBatchAsync`: `copies` are `(dst, src, bytes)`; `attrs[k]` applies to the
    /// copies from `attr_idxs[k]` up to the next index.
    ///
    /// # Safety
    /// Host memory among the pointers must be valid for its copy until the copy has run.
    pub unsafe fn memcpy_batch_async(
        &self,
        copies: &[(u64, u64, usize)],
        attrs: &[MemcpyAttributes],
        attr_idxs: &[usize],
        stream: StreamHandle,
    ) -> Result<(), BatchError> {
        const WHAT: &str = "cuMemcpyBatchAsync";
        self.batch_stream(stream, WHAT)?;
        let count = copies.len();
        if count == 0 || attrs.is_empty() || attrs.len() > count || attr_idxs.len() != attrs.len() {
            return Err(bad(FailIndex::NoCopy, format_args!("{WHAT}: {count} copies, {} attributes", attrs.len())));
        }
        if attr_idxs[0] != 0 || attr_idxs.windows(2).any(|w| w[0] >= w[1]) || attr_idxs.iter().any(|&i| i >= count) {
            return Err(bad(FailIndex::NoCopy, format_args!("{WHAT}: attribute indices {attr_idxs:?}")));
        }
        for a in attrs {
            check_order_and_flags(a.src_access_order, a.flags, FailIndex::NoCopy, WHAT)?;
        }
        for (i, &(dst, src, n)) in copies.iter().enumerate() {
            if n == 0 {
                return Err(bad(FailIndex::Copy(i), format_args!("{WHAT}: copy {i} of 0 bytes")));
            }
            self.unified_loc(dst, n, Access::Write, WHAT).map_err(|e| (e, FailIndex::Copy(i)))?;
            self.unified_loc(src, n, Access::Read, WHAT).map_err(|e| (e, FailIndex::Copy(i)))?;
        }
        for (i, &(dst, src, n)) in copies.iter().enumerate() {
            // SAFETY: forwarded from the caller.
            unsafe { self.memcpy_on(dst, src, n, On::Async(stream)) }.map_err(|e| (e, FailIndex::Copy(i)))?;
        }
        Ok(())
    }

    /// `cuMemcpyWithAttributesAsync`: one copy of a batch.
    ///
    /// # Safety
    /// As [`Driver::memcpy_batch_async`].
    pub unsafe fn memcpy_with_attributes_async(&self, dst: u64, src: u64, n: usize, attrs: &MemcpyAttributes, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_batch_async(&[(dst, src, n)], std::slice::from_ref(attrs), &[0], stream) }.map_err(|(e, _)| e)
    }

    /// The element size of an operand: the array's texel, 1 for a pointer.
    fn operand_element(&self, op: &Operand3D) -> CuResult<usize> {
        match *op {
            Operand3D::Pointer { .. } => Ok(1),
            Operand3D::Array { array, .. } => Ok(self.array(crate::texture::ArrayHandle(array))?.texel.bytes() as usize),
            Operand3D::Invalid(t) => Err(fail(CuError::INVALID_VALUE, format_args!("cuMemcpy3DBatchAsync: operand type {t}"))),
        }
    }

    /// A batch operation as the `CUDA_MEMCPY3D` it describes.
    fn describe_3d(&self, op: &Copy3DOp) -> CuResult<CudaMemcpy3D> {
        let what = "cuMemcpy3DBatchAsync";
        if op.extent.contains(&0) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: extent {:?}", op.extent)));
        }
        let (se, de) = (self.operand_element(&op.src)?, self.operand_element(&op.dst)?);
        let element = match (&op.src, &op.dst) {
            (Operand3D::Array { .. }, Operand3D::Array { .. }) if se != de => {
                return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: arrays of {se}- and {de}-byte elements")))
            }
            (Operand3D::Array { .. }, _) => se,
            _ => de,
        };
        let [w, h, _] = op.extent;
        let width = w.checked_mul(element).ok_or(CuError::INVALID_VALUE)?;
        let mut p = CudaMemcpy3D::zeroed();
        (p.width_in_bytes, p.height, p.depth) = (width, h, op.extent[2]);
        let side = |o: &Operand3D| -> CuResult<Side> {
            Ok(match *o {
                Operand3D::Pointer { ptr, row_length, layer_height } => {
                    let row = if row_length == 0 { w } else { row_length };
                    let rows = if layer_height == 0 { h } else { layer_height };
                    if row < w || rows < h {
                        return Err(fail(
                            CuError::INVALID_VALUE,
                            format_args!("{what}: row length {row_length} / layer height {layer_height} below the extent"),
                        ));
                    }
                    (memory_type::UNIFIED, ptr, std::ptr::null_mut(), row.checked_mul(element).ok_or(CuError::INVALID_VALUE)?, rows, [0; 3])
                }
                Operand3D::Array { array, offset } => {
                    let x = offset[0].checked_mul(element).ok_or(CuError::INVALID_VALUE)?;
                    (memory_type::ARRAY, 0, array as usize as *mut std::ffi::c_void, 0, 0, [x, offset[1], offset[2]])
                }
                Operand3D::Invalid(t) => return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: operand type {t}"))),
            })
        };
        let s = side(&op.src)?;
        (p.src_memory_type, p.src_device, p.src_array, p.src_pitch, p.src_height) = (s.0, s.1, s.2, s.3, s.4);
        [p.src_x_in_bytes, p.src_y, p.src_z] = s.5;
        let d = side(&op.dst)?;
        (p.dst_memory_type, p.dst_device, p.dst_array, p.dst_pitch, p.dst_height) = (d.0, d.1, d.2, d.3, d.4);
        [p.dst_x_in_bytes, p.dst_y, p.dst_z] = d.5;
        Ok(p)
    }

    /// `cuMemcpy3DBatchAsync`: `flags` must be 0.
    ///
    /// # Safety
    /// Host memory among the pointer operands must be valid for its copy until it has run.
    pub unsafe fn memcpy_3d_batch_async(&self, ops: &[Copy3DOp], flags: u64, stream: StreamHandle) -> Result<(), BatchError> {
        const WHAT: &str = "cuMemcpy3DBatchAsync";
        self.batch_stream(stream, WHAT)?;
        if ops.is_empty() || flags != 0 {
            return Err(bad(FailIndex::NoCopy, format_args!("{WHAT}: {} operations, flags {flags:#x}", ops.len())));
        }
        let mut descs = Vec::with_capacity(ops.len());
        for (i, op) in ops.iter().enumerate() {
            check_order_and_flags(op.src_access_order, op.flags, FailIndex::Copy(i), WHAT)?;
            let p = self.describe_3d(op).map_err(|e| (e, FailIndex::Copy(i)))?;
            self.plan_3d(&p).map_err(|e| (e, FailIndex::Copy(i)))?;
            descs.push(p);
        }
        for (i, p) in descs.iter().enumerate() {
            // SAFETY: forwarded from the caller.
            unsafe { self.memcpy_3d_on(p, On::Async(stream)) }.map_err(|e| (e, FailIndex::Copy(i)))?;
        }
        Ok(())
    }

    /// `cuMemcpy3DWithAttributesAsync`: one operation of a batch.
    ///
    /// # Safety
    /// As [`Driver::memcpy_3d_batch_async`].
    pub unsafe fn memcpy_3d_with_attributes_async(&self, op: &Copy3DOp, flags: u64, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_batch_async(std::slice::from_ref(op), flags, stream) }.map_err(|(e, _)| e)
    }
}
