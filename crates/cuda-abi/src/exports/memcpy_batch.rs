//! Batched copies and copies with attributes (`cuMemcpyBatchAsync` and its `_v2` without
//! `failIdx`, `cuMemcpy3DBatchAsync(_v2)`, `cuMemcpyWithAttributesAsync`,
//! `cuMemcpy3DWithAttributesAsync`, each with `_ptsz`); managed-memory batches
//! (`cuMemPrefetchBatchAsync`, `cuMemDiscardBatchAsync`, `cuMemDiscardAndPrefetchBatchAsync`)
//! and range attributes (`cuMemRangeGetAttribute(s)`). Semantics in
//! `cuda_driver::copy::batch`, `cuda_driver::managed`.

use std::ffi::{c_int, c_ulonglong, c_void};

use cuda_driver::copy::batch::{BatchError, Copy3DOp, FailIndex, MemcpyAttributes, Operand3D};
use cuda_driver::managed::MemLocation;
use cuda_driver::{CuResult, StreamHandle};

use super::{drv, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, slice, AbiResult, Out};
use crate::types::{CUdeviceptr, CUstream};

/// `CUmemLocation`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemLocation {
    pub type_: c_int,
    pub id: c_int,
}

/// `CUmemcpyAttributes`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemcpyAttributes {
    pub src_access_order: u32,
    pub src_loc_hint: CUmemLocation,
    pub dst_loc_hint: CUmemLocation,
    pub flags: u32,
}

/// `CUmemcpy3DOperand`: a type and a 32-byte union (pointer: ptr, rowLength, layerHeight,
/// locHint; array: CUarray, CUoffset3D).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemcpy3DOperand {
    pub type_: u32,
    pub op: [u64; 4],
}

/// `CUDA_MEMCPY3D_BATCH_OP`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUDA_MEMCPY3D_BATCH_OP {
    pub src: CUmemcpy3DOperand,
    pub dst: CUmemcpy3DOperand,
    pub extent: [usize; 3],
    pub src_access_order: u32,
    pub flags: u32,
}

const _: () = assert!(std::mem::size_of::<CUmemcpyAttributes>() == 24);
const _: () = assert!(std::mem::size_of::<CUmemcpy3DOperand>() == 40);
const _: () = assert!(std::mem::size_of::<CUDA_MEMCPY3D_BATCH_OP>() == 112);

/// `CU_MEMCPY_OPERAND_TYPE_POINTER` / `_ARRAY`.
const OPERAND_POINTER: u32 = 1;
const OPERAND_ARRAY: u32 = 2;

fn location(l: CUmemLocation) -> MemLocation {
    MemLocation { kind: l.type_, id: l.id }
}

fn attributes(a: &CUmemcpyAttributes) -> MemcpyAttributes {
    MemcpyAttributes {
        src_access_order: a.src_access_order,
        src_loc_hint: location(a.src_loc_hint),
        dst_loc_hint: location(a.dst_loc_hint),
        flags: a.flags,
    }
}

fn operand(o: &CUmemcpy3DOperand) -> Operand3D {
    match o.type_ {
        OPERAND_POINTER => Operand3D::Pointer { ptr: o.op[0], row_length: o.op[1] as usize, layer_height: o.op[2] as usize },
        OPERAND_ARRAY => Operand3D::Array { array: o.op[0], offset: [o.op[1] as usize, o.op[2] as usize, o.op[3] as usize] },
        other => Operand3D::Invalid(other),
    }
}

fn op_3d(o: &CUDA_MEMCPY3D_BATCH_OP) -> Copy3DOp {
    Copy3DOp { src: operand(&o.src), dst: operand(&o.dst), extent: o.extent, src_access_order: o.src_access_order, flags: o.flags }
}

/// Writes `failIdx` (when given) and turns a batch result into the call's.
///
/// # Safety
/// `fail_idx` is NULL or writable.
unsafe fn finish(result: Result<(), BatchError>, fail_idx: *mut usize) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::optional(fail_idx) };
    let (value, result) = match result {
        Ok(()) => (Some(usize::MAX), Ok(())),
        Err((e, FailIndex::Copy(i))) => (Some(i), Err(e)),
        Err((e, FailIndex::NoCopy)) => (Some(usize::MAX), Err(e)),
        Err((e, FailIndex::Unwritten)) => (None, Err(e)),
    };
    if let (Some(out), Some(v)) = (out, value) {
        out.write(v);
    }
    result
}

/// `cuMemcpyBatchAsync`'s body.
///
/// # Safety
/// The arrays are NULL or readable for their counts; host memory among the pointers is
/// valid until its copy has run.
#[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
unsafe fn batch_1d(
    dsts: *const CUdeviceptr,
    srcs: *const CUdeviceptr,
    sizes: *const usize,
    count: usize,
    attrs: *const CUmemcpyAttributes,
    attrs_idxs: *const usize,
    num_attrs: usize,
    fail_idx: *mut usize,
    stream: StreamHandle,
) -> AbiResult {
    // SAFETY: forwarded contract (each array is `count` or `num_attrs` long).
    let (dsts, srcs, sizes, attrs, idxs) =
        unsafe { (slice(dsts, count)?, slice(srcs, count)?, slice(sizes, count)?, slice(attrs, num_attrs)?, slice(attrs_idxs, num_attrs)?) };
    let copies: Vec<(u64, u64, usize)> = (0..count).map(|i| (dsts[i], srcs[i], sizes[i])).collect();
    let attrs: Vec<MemcpyAttributes> = attrs.iter().map(attributes).collect();
    let driver = drv()?;
    // SAFETY: forwarded contract.
    let result = unsafe { driver.memcpy_batch_async(&copies, &attrs, idxs, stream) };
    // SAFETY: forwarded contract.
    unsafe { finish(result, fail_idx) }
}

/// `cuMemcpy3DBatchAsync`'s body.
///
/// # Safety
/// `ops` is NULL or readable for `num_ops` operations; host memory among the pointer
/// operands is valid until its copy has run.
unsafe fn batch_3d(num_ops: usize, ops: *const CUDA_MEMCPY3D_BATCH_OP, fail_idx: *mut usize, flags: c_ulonglong, stream: StreamHandle) -> AbiResult {
    // SAFETY: forwarded contract.
    let ops: Vec<Copy3DOp> = unsafe { slice(ops, num_ops) }?.iter().map(op_3d).collect();
    let driver = drv()?;
    // SAFETY: forwarded contract.
    let result = unsafe { driver.memcpy_3d_batch_async(&ops, flags, stream) };
    // SAFETY: forwarded contract.
    unsafe { finish(result, fail_idx) }
}

/// # Safety
/// `attr` is NULL or readable; host memory among the pointers is valid until the copy ran.
unsafe fn with_attributes(dst: CUdeviceptr, src: CUdeviceptr, size: usize, attr: *const CUmemcpyAttributes, stream: StreamHandle) -> AbiResult {
    // SAFETY: forwarded contract.
    let attr = attributes(&unsafe { read_in(attr) }?);
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe { driver.memcpy_with_attributes_async(dst, src, size, &attr, stream) }
}

/// # Safety
/// `op` is NULL or readable; host memory among its operands is valid until the copy ran.
unsafe fn with_attributes_3d(op: *const CUDA_MEMCPY3D_BATCH_OP, flags: c_ulonglong, stream: StreamHandle) -> AbiResult {
    // SAFETY: forwarded contract.
    let op = op_3d(&unsafe { read_in(op) }?);
    let driver = drv()?;
    // SAFETY: forwarded contract.
    unsafe { driver.memcpy_3d_with_attributes_async(&op, flags, stream) }
}

/// The ranges of a managed-memory batch.
///
/// # Safety
/// Both arrays are NULL or readable for `count` entries.
unsafe fn ranges(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize) -> CuResult<Vec<(u64, usize)>> {
    // SAFETY: forwarded contract.
    let (d, s) = unsafe { (slice(dptrs, count)?, slice(sizes, count)?) };
    Ok(d.iter().copied().zip(s.iter().copied()).collect())
}

/// # Safety
/// Every array is NULL or readable for its count.
#[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
unsafe fn prefetch_batch(
    dptrs: *const CUdeviceptr,
    sizes: *const usize,
    count: usize,
    locs: *const CUmemLocation,
    loc_idxs: *const usize,
    num_locs: usize,
    flags: c_ulonglong,
    stream: StreamHandle,
    discard: bool,
) -> AbiResult {
    // SAFETY: forwarded contract.
    let (ranges, locs, idxs) = unsafe { (ranges(dptrs, sizes, count)?, slice(locs, num_locs)?, slice(loc_idxs, num_locs)?) };
    let locs: Vec<MemLocation> = locs.iter().map(|&l| location(l)).collect();
    let driver = drv()?;
    if discard {
        driver.mem_discard_and_prefetch_batch_async(&ranges, &locs, idxs, flags, stream)
    } else {
        driver.mem_prefetch_batch_async(&ranges, &locs, idxs, flags, stream)
    }
}

/// # Safety
/// Both arrays are NULL or readable for `count` entries.
unsafe fn discard_batch(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize, flags: c_ulonglong, stream: StreamHandle) -> AbiResult {
    // SAFETY: forwarded contract.
    let ranges = unsafe { ranges(dptrs, sizes, count) }?;
    drv()?.mem_discard_batch_async(&ranges, flags, stream)
}

/// One range attribute into `data` (`data_size` bytes).
///
/// # Safety
/// `data` is NULL or writable for `data_size` bytes.
unsafe fn range_attribute(data: *mut c_void, data_size: usize, attribute: c_int, ptr: CUdeviceptr, count: usize) -> AbiResult {
    if data.is_null() {
        return Err(cuda_driver::CuError::INVALID_VALUE);
    }
    let values = drv()?.mem_range_get_attribute(attribute, data_size, ptr, count)?;
    for (i, v) in values.iter().enumerate() {
        // SAFETY: `values` has `data_size / 4` entries, all inside the caller's buffer.
        unsafe { data.cast::<i32>().add(i).write_unaligned(*v) };
    }
    Ok(())
}

export! {
    /// `cuMemcpyBatchAsync(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count, CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, size_t* failIdx, CUstream hStream)` (CUDA 12.8).
    fn cuMemcpyBatchAsync(dsts: *const CUdeviceptr, srcs: *const CUdeviceptr, sizes: *const usize, count: usize, attrs: *const CUmemcpyAttributes, attrs_idxs: *const usize, num_attrs: usize, fail_idx: *mut usize, h_stream: CUstream) {
        // SAFETY: arguments as the API documents them.
        unsafe { batch_1d(dsts, srcs, sizes, count, attrs, attrs_idxs, num_attrs, fail_idx, stream_handle(h_stream)) }
    }
    fn cuMemcpyBatchAsync_ptsz(dsts: *const CUdeviceptr, srcs: *const CUdeviceptr, sizes: *const usize, count: usize, attrs: *const CUmemcpyAttributes, attrs_idxs: *const usize, num_attrs: usize, fail_idx: *mut usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyBatchAsync.
        unsafe { batch_1d(dsts, srcs, sizes, count, attrs, attrs_idxs, num_attrs, fail_idx, stream_ptsz(h_stream)) }
    }

    /// `cuMemcpyBatchAsync_v2(CUdeviceptr* dsts, CUdeviceptr* srcs, size_t* sizes, size_t count, CUmemcpyAttributes* attrs, size_t* attrsIdxs, size_t numAttrs, CUstream hStream)` (CUDA 13.0).
    fn cuMemcpyBatchAsync_v2(dsts: *const CUdeviceptr, srcs: *const CUdeviceptr, sizes: *const usize, count: usize, attrs: *const CUmemcpyAttributes, attrs_idxs: *const usize, num_attrs: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyBatchAsync.
        unsafe { batch_1d(dsts, srcs, sizes, count, attrs, attrs_idxs, num_attrs, std::ptr::null_mut(), stream_handle(h_stream)) }
    }
    fn cuMemcpyBatchAsync_v2_ptsz(dsts: *const CUdeviceptr, srcs: *const CUdeviceptr, sizes: *const usize, count: usize, attrs: *const CUmemcpyAttributes, attrs_idxs: *const usize, num_attrs: usize, h_stream: CUstream) {
        // SAFETY: as cuMemcpyBatchAsync.
        unsafe { batch_1d(dsts, srcs, sizes, count, attrs, attrs_idxs, num_attrs, std::ptr::null_mut(), stream_ptsz(h_stream)) }
    }

    /// `cuMemcpy3DBatchAsync(size_t numOps, CUDA_MEMCPY3D_BATCH_OP* opList, size_t* failIdx, unsigned long long flags, CUstream hStream)` (CUDA 12.8).
    fn cuMemcpy3DBatchAsync(num_ops: usize, op_list: *const CUDA_MEMCPY3D_BATCH_OP, fail_idx: *mut usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: arguments as the API documents them.
        unsafe { batch_3d(num_ops, op_list, fail_idx, flags, stream_handle(h_stream)) }
    }
    fn cuMemcpy3DBatchAsync_ptsz(num_ops: usize, op_list: *const CUDA_MEMCPY3D_BATCH_OP, fail_idx: *mut usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3DBatchAsync.
        unsafe { batch_3d(num_ops, op_list, fail_idx, flags, stream_ptsz(h_stream)) }
    }

    /// `cuMemcpy3DBatchAsync_v2(size_t numOps, CUDA_MEMCPY3D_BATCH_OP* opList, unsigned long long flags, CUstream hStream)` (CUDA 13.0).
    fn cuMemcpy3DBatchAsync_v2(num_ops: usize, op_list: *const CUDA_MEMCPY3D_BATCH_OP, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3DBatchAsync.
        unsafe { batch_3d(num_ops, op_list, std::ptr::null_mut(), flags, stream_handle(h_stream)) }
    }
    fn cuMemcpy3DBatchAsync_v2_ptsz(num_ops: usize, op_list: *const CUDA_MEMCPY3D_BATCH_OP, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3DBatchAsync.
        unsafe { batch_3d(num_ops, op_list, std::ptr::null_mut(), flags, stream_ptsz(h_stream)) }
    }

    /// `cuMemcpyWithAttributesAsync(CUdeviceptr dst, CUdeviceptr src, size_t size, CUmemcpyAttributes* attr, CUstream hStream)` (CUDA 13.2).
    fn cuMemcpyWithAttributesAsync(dst: CUdeviceptr, src: CUdeviceptr, size: usize, attr: *const CUmemcpyAttributes, h_stream: CUstream) {
        // SAFETY: arguments as the API documents them.
        unsafe { with_attributes(dst, src, size, attr, stream_handle(h_stream)) }
    }
    fn cuMemcpyWithAttributesAsync_ptsz(dst: CUdeviceptr, src: CUdeviceptr, size: usize, attr: *const CUmemcpyAttributes, h_stream: CUstream) {
        // SAFETY: as cuMemcpyWithAttributesAsync.
        unsafe { with_attributes(dst, src, size, attr, stream_ptsz(h_stream)) }
    }

    /// `cuMemcpy3DWithAttributesAsync(CUDA_MEMCPY3D_BATCH_OP* op, unsigned long long flags, CUstream hStream)` (CUDA 13.2).
    fn cuMemcpy3DWithAttributesAsync(op: *const CUDA_MEMCPY3D_BATCH_OP, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: arguments as the API documents them.
        unsafe { with_attributes_3d(op, flags, stream_handle(h_stream)) }
    }
    fn cuMemcpy3DWithAttributesAsync_ptsz(op: *const CUDA_MEMCPY3D_BATCH_OP, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: as cuMemcpy3DWithAttributesAsync.
        unsafe { with_attributes_3d(op, flags, stream_ptsz(h_stream)) }
    }

    /// `cuMemPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count, CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)`.
    fn cuMemPrefetchBatchAsync(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize, prefetch_locs: *const CUmemLocation, prefetch_loc_idxs: *const usize, num_prefetch_locs: usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: arguments as the API documents them.
        unsafe { prefetch_batch(dptrs, sizes, count, prefetch_locs, prefetch_loc_idxs, num_prefetch_locs, flags, stream_handle(h_stream), false) }
    }
    fn cuMemPrefetchBatchAsync_ptsz(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize, prefetch_locs: *const CUmemLocation, prefetch_loc_idxs: *const usize, num_prefetch_locs: usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: as cuMemPrefetchBatchAsync.
        unsafe { prefetch_batch(dptrs, sizes, count, prefetch_locs, prefetch_loc_idxs, num_prefetch_locs, flags, stream_ptsz(h_stream), false) }
    }

    /// `cuMemDiscardBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count, unsigned long long flags, CUstream hStream)`.
    fn cuMemDiscardBatchAsync(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: arguments as the API documents them.
        unsafe { discard_batch(dptrs, sizes, count, flags, stream_handle(h_stream)) }
    }
    fn cuMemDiscardBatchAsync_ptsz(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: as cuMemDiscardBatchAsync.
        unsafe { discard_batch(dptrs, sizes, count, flags, stream_ptsz(h_stream)) }
    }

    /// `cuMemDiscardAndPrefetchBatchAsync(CUdeviceptr* dptrs, size_t* sizes, size_t count, CUmemLocation* prefetchLocs, size_t* prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, CUstream hStream)`.
    fn cuMemDiscardAndPrefetchBatchAsync(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize, prefetch_locs: *const CUmemLocation, prefetch_loc_idxs: *const usize, num_prefetch_locs: usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: arguments as the API documents them.
        unsafe { prefetch_batch(dptrs, sizes, count, prefetch_locs, prefetch_loc_idxs, num_prefetch_locs, flags, stream_handle(h_stream), true) }
    }
    fn cuMemDiscardAndPrefetchBatchAsync_ptsz(dptrs: *const CUdeviceptr, sizes: *const usize, count: usize, prefetch_locs: *const CUmemLocation, prefetch_loc_idxs: *const usize, num_prefetch_locs: usize, flags: c_ulonglong, h_stream: CUstream) {
        // SAFETY: as cuMemDiscardAndPrefetchBatchAsync.
        unsafe { prefetch_batch(dptrs, sizes, count, prefetch_locs, prefetch_loc_idxs, num_prefetch_locs, flags, stream_ptsz(h_stream), true) }
    }

    /// `cuMemRangeGetAttribute(void* data, size_t dataSize, CUmem_range_attribute attribute, CUdeviceptr devPtr, size_t count)`.
    fn cuMemRangeGetAttribute(data: *mut c_void, data_size: usize, attribute: c_int, dev_ptr: CUdeviceptr, count: usize) {
        // SAFETY: NULL or writable for `data_size` bytes, per the API.
        unsafe { range_attribute(data, data_size, attribute, dev_ptr, count) }
    }

    /// `cuMemRangeGetAttributes(void** data, size_t* dataSizes, CUmem_range_attribute* attributes, size_t numAttributes, CUdeviceptr devPtr, size_t count)`:
    /// each attribute as `cuMemRangeGetAttribute` answers it, all checked before any is written.
    fn cuMemRangeGetAttributes(data: *const *mut c_void, data_sizes: *const usize, attributes: *const c_int, num_attributes: usize, dev_ptr: CUdeviceptr, count: usize) {
        if num_attributes == 0 {
            return Err(cuda_driver::CuError::INVALID_VALUE);
        }
        // SAFETY: each array holds `num_attributes` entries, per the API.
        let (data, sizes, attrs) = unsafe { (slice(data, num_attributes)?, slice(data_sizes, num_attributes)?, slice(attributes, num_attributes)?) };
        let driver = drv()?;
        let mut values = Vec::with_capacity(num_attributes);
        for i in 0..num_attributes {
            if data[i].is_null() {
                return Err(cuda_driver::CuError::INVALID_VALUE);
            }
            values.push(driver.mem_range_get_attribute(attrs[i], sizes[i], dev_ptr, count)?);
        }
        for (out, v) in data.iter().zip(values) {
            for (j, x) in v.iter().enumerate() {
                // SAFETY: `v` has `dataSizes[i] / 4` entries, inside the caller's buffer.
                unsafe { out.cast::<i32>().add(j).write_unaligned(*x) };
            }
        }
        Ok(())
    }
}
