//! Stream attributes (`cuStreamGetAttribute`, `cuStreamSetAttribute`,
//! `cuStreamCopyAttributes`) and stream memory operations (`cuStreamWaitValue32/64`,
//! `cuStreamWriteValue32/64`, `cuStreamBatchMemOp`), each with its `_ptsz` twin; the
//! memory operations also under their `_v2` names (CUDA 11.7's ABI, what `cuda.h` maps the
//! plain names to since CUDA 12), all with the v2 semantics. Semantics in
//! `cuda_driver::stream_attr` and `cuda_driver::memop`.

use std::ffi::{c_int, c_uint};

use cuda_driver::memop::MemOp;
use cuda_driver::stream_attr::{RawValue, StreamAttr};
use cuda_driver::{CuError, StreamHandle};

use super::{drv, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, slice, AbiResult, Out};
use crate::types::{CUdeviceptr, CUlaunchAttributeValue, CUstream};

/// `CUstreamBatchMemOpParams`: a 48-byte union; only the raw bytes are modelled.
#[repr(C, align(8))]
#[derive(Clone, Copy)]
pub struct CUstreamBatchMemOpParams {
    pub pad: [u8; 48],
}

const _: () = assert!(std::mem::size_of::<CUstreamBatchMemOpParams>() == 48);

/// # Safety
/// `value` is NULL or writable for a `CUstreamAttrValue`.
unsafe fn get_attribute(stream: StreamHandle, id: c_int, value: *mut CUlaunchAttributeValue) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(value) }?;
    let attr = drv()?.stream_get_attribute(stream, id as u32)?;
    // The union is written whole: the attribute's member, the rest zero.
    out.write(CUlaunchAttributeValue { pad: attr.to_raw() });
    Ok(())
}

/// # Safety
/// `value` is NULL or readable for a `CUstreamAttrValue`.
unsafe fn set_attribute(stream: StreamHandle, id: c_int, value: *const CUlaunchAttributeValue) -> AbiResult {
    // SAFETY: forwarded contract.
    let raw: RawValue = unsafe { read_in(value) }?.pad;
    let attr = StreamAttr::from_raw(id as u32, &raw).ok_or(CuError::INVALID_VALUE)?;
    drv()?.stream_set_attribute(stream, attr)
}

fn wait_value(stream: StreamHandle, address: CUdeviceptr, value: u64, wide: bool, flags: c_uint, what: &str) -> AbiResult {
    drv()?.stream_mem_ops(stream, &[MemOp::Wait { address, value, wide, flags }], 0, what)
}

fn write_value(stream: StreamHandle, address: CUdeviceptr, value: u64, wide: bool, flags: c_uint, what: &str) -> AbiResult {
    drv()?.stream_mem_ops(stream, &[MemOp::Write { address, value, wide, flags }], 0, what)
}

/// # Safety
/// `params` is NULL or readable for `count` operations.
unsafe fn batch(stream: StreamHandle, count: c_uint, params: *const CUstreamBatchMemOpParams, flags: c_uint) -> AbiResult {
    // SAFETY: forwarded contract.
    let raw = unsafe { slice(params, count as usize) }?;
    let ops: Vec<MemOp> = raw.iter().map(|p| MemOp::from_raw(&p.pad)).collect();
    drv()?.stream_mem_ops(stream, &ops, flags, "cuStreamBatchMemOp")
}

export! {
    /// `cuStreamGetAttribute(CUstream hStream, CUstreamAttrID attr, CUstreamAttrValue* value_out)`.
    fn cuStreamGetAttribute(h_stream: CUstream, attr: c_int, value_out: *mut CUlaunchAttributeValue) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_attribute(stream_handle(h_stream), attr, value_out) }
    }
    fn cuStreamGetAttribute_ptsz(h_stream: CUstream, attr: c_int, value_out: *mut CUlaunchAttributeValue) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_attribute(stream_ptsz(h_stream), attr, value_out) }
    }

    /// `cuStreamSetAttribute(CUstream hStream, CUstreamAttrID attr, const CUstreamAttrValue* value)`.
    fn cuStreamSetAttribute(h_stream: CUstream, attr: c_int, value: *const CUlaunchAttributeValue) {
        // SAFETY: NULL or readable, per the API.
        unsafe { set_attribute(stream_handle(h_stream), attr, value) }
    }
    fn cuStreamSetAttribute_ptsz(h_stream: CUstream, attr: c_int, value: *const CUlaunchAttributeValue) {
        // SAFETY: NULL or readable, per the API.
        unsafe { set_attribute(stream_ptsz(h_stream), attr, value) }
    }

    /// `cuStreamCopyAttributes(CUstream dst, CUstream src)`.
    fn cuStreamCopyAttributes(dst: CUstream, src: CUstream) {
        drv()?.stream_copy_attributes(stream_handle(dst), stream_handle(src))
    }
    fn cuStreamCopyAttributes_ptsz(dst: CUstream, src: CUstream) {
        drv()?.stream_copy_attributes(stream_ptsz(dst), stream_ptsz(src))
    }

    /// `cuStreamWaitValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned flags)`.
    fn cuStreamWaitValue32(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        wait_value(stream_handle(stream), addr, value as u64, false, flags, "cuStreamWaitValue32")
    }
    fn cuStreamWaitValue32_ptsz(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        wait_value(stream_ptsz(stream), addr, value as u64, false, flags, "cuStreamWaitValue32")
    }
    fn cuStreamWaitValue32_v2(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        wait_value(stream_handle(stream), addr, value as u64, false, flags, "cuStreamWaitValue32_v2")
    }
    fn cuStreamWaitValue32_v2_ptsz(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        wait_value(stream_ptsz(stream), addr, value as u64, false, flags, "cuStreamWaitValue32_v2")
    }

    /// `cuStreamWaitValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned flags)`.
    fn cuStreamWaitValue64(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        wait_value(stream_handle(stream), addr, value, true, flags, "cuStreamWaitValue64")
    }
    fn cuStreamWaitValue64_ptsz(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        wait_value(stream_ptsz(stream), addr, value, true, flags, "cuStreamWaitValue64")
    }
    fn cuStreamWaitValue64_v2(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        wait_value(stream_handle(stream), addr, value, true, flags, "cuStreamWaitValue64_v2")
    }
    fn cuStreamWaitValue64_v2_ptsz(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        wait_value(stream_ptsz(stream), addr, value, true, flags, "cuStreamWaitValue64_v2")
    }

    /// `cuStreamWriteValue32(CUstream stream, CUdeviceptr addr, cuuint32_t value, unsigned flags)`.
    fn cuStreamWriteValue32(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        write_value(stream_handle(stream), addr, value as u64, false, flags, "cuStreamWriteValue32")
    }
    fn cuStreamWriteValue32_ptsz(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        write_value(stream_ptsz(stream), addr, value as u64, false, flags, "cuStreamWriteValue32")
    }
    fn cuStreamWriteValue32_v2(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        write_value(stream_handle(stream), addr, value as u64, false, flags, "cuStreamWriteValue32_v2")
    }
    fn cuStreamWriteValue32_v2_ptsz(stream: CUstream, addr: CUdeviceptr, value: u32, flags: c_uint) {
        write_value(stream_ptsz(stream), addr, value as u64, false, flags, "cuStreamWriteValue32_v2")
    }

    /// `cuStreamWriteValue64(CUstream stream, CUdeviceptr addr, cuuint64_t value, unsigned flags)`.
    fn cuStreamWriteValue64(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        write_value(stream_handle(stream), addr, value, true, flags, "cuStreamWriteValue64")
    }
    fn cuStreamWriteValue64_ptsz(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        write_value(stream_ptsz(stream), addr, value, true, flags, "cuStreamWriteValue64")
    }
    fn cuStreamWriteValue64_v2(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        write_value(stream_handle(stream), addr, value, true, flags, "cuStreamWriteValue64_v2")
    }
    fn cuStreamWriteValue64_v2_ptsz(stream: CUstream, addr: CUdeviceptr, value: u64, flags: c_uint) {
        write_value(stream_ptsz(stream), addr, value, true, flags, "cuStreamWriteValue64_v2")
    }

    /// `cuStreamBatchMemOp(CUstream stream, unsigned count, CUstreamBatchMemOpParams* paramArray, unsigned flags)`.
    fn cuStreamBatchMemOp(stream: CUstream, count: c_uint, param_array: *const CUstreamBatchMemOpParams, flags: c_uint) {
        // SAFETY: NULL or readable for `count` operations, per the API.
        unsafe { batch(stream_handle(stream), count, param_array, flags) }
    }
    fn cuStreamBatchMemOp_ptsz(stream: CUstream, count: c_uint, param_array: *const CUstreamBatchMemOpParams, flags: c_uint) {
        // SAFETY: as cuStreamBatchMemOp.
        unsafe { batch(stream_ptsz(stream), count, param_array, flags) }
    }
    fn cuStreamBatchMemOp_v2(stream: CUstream, count: c_uint, param_array: *const CUstreamBatchMemOpParams, flags: c_uint) {
        // SAFETY: as cuStreamBatchMemOp.
        unsafe { batch(stream_handle(stream), count, param_array, flags) }
    }
    fn cuStreamBatchMemOp_v2_ptsz(stream: CUstream, count: c_uint, param_array: *const CUstreamBatchMemOpParams, flags: c_uint) {
        // SAFETY: as cuStreamBatchMemOp.
        unsafe { batch(stream_ptsz(stream), count, param_array, flags) }
    }
}
