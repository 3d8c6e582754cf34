//! `cuEvent*`: creation, recording (with `_ptsz` twins), queries, timing, destruction.

use std::ffi::c_uint;

use super::{drv, event_handle, stream_handle, stream_ptsz};
use crate::boundary::{export, AbiResult, Out};
use crate::types::{CUevent, CUstream};
use cuda_driver::CuError;

/// # Safety
/// `ms` is NULL or writable.
unsafe fn elapsed(ms: *mut f32, start: CUevent, end: CUevent) -> AbiResult {
    // NVIDIA's driver (580) answers INVALID_HANDLE, not INVALID_VALUE, for a NULL result.
    if ms.is_null() {
        return Err(CuError::INVALID_HANDLE);
    }
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(ms) }?;
    out.write(drv()?.event_elapsed_time(event_handle(start), event_handle(end))?);
    Ok(())
}

export! {
    /// `cuEventCreate(CUevent* phEvent, unsigned Flags)`.
    fn cuEventCreate(ph_event: *mut CUevent, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_event) }?;
        out.write(drv()?.event_create(flags)?.as_raw().cast());
        Ok(())
    }

    /// `cuEventRecord(CUevent hEvent, CUstream hStream)`.
    fn cuEventRecord(h_event: CUevent, h_stream: CUstream) {
        drv()?.event_record(event_handle(h_event), stream_handle(h_stream))
    }
    fn cuEventRecord_ptsz(h_event: CUevent, h_stream: CUstream) {
        drv()?.event_record(event_handle(h_event), stream_ptsz(h_stream))
    }

    /// `cuEventRecordWithFlags(CUevent hEvent, CUstream hStream, unsigned flags)`.
    fn cuEventRecordWithFlags(h_event: CUevent, h_stream: CUstream, flags: c_uint) {
        drv()?.event_record_with_flags(event_handle(h_event), stream_handle(h_stream), flags)
    }
    fn cuEventRecordWithFlags_ptsz(h_event: CUevent, h_stream: CUstream, flags: c_uint) {
        drv()?.event_record_with_flags(event_handle(h_event), stream_ptsz(h_stream), flags)
    }

    /// `cuEventQuery(CUevent hEvent)`.
    fn cuEventQuery(h_event: CUevent) {
        drv()?.event_query(event_handle(h_event))
    }

    /// `cuEventSynchronize(CUevent hEvent)`.
    fn cuEventSynchronize(h_event: CUevent) {
        drv()?.event_synchronize(event_handle(h_event))
    }

    /// `cuEventElapsedTime(float* pMilliseconds, CUevent hStart, CUevent hEnd)`.
    fn cuEventElapsedTime(p_milliseconds: *mut f32, h_start: CUevent, h_end: CUevent) {
        // SAFETY: NULL or writable, per the API.
        unsafe { elapsed(p_milliseconds, h_start, h_end) }
    }

    /// `cuEventElapsedTime_v2(float* pMilliseconds, CUevent hStart, CUevent hEnd)` (CUDA 12.8).
    fn cuEventElapsedTime_v2(p_milliseconds: *mut f32, h_start: CUevent, h_end: CUevent) {
        // SAFETY: NULL or writable, per the API.
        unsafe { elapsed(p_milliseconds, h_start, h_end) }
    }

    /// `cuEventDestroy_v2(CUevent hEvent)`.
    fn cuEventDestroy_v2(h_event: CUevent) {
        drv()?.event_destroy(event_handle(h_event))
    }

    /// `cuEventDestroy(CUevent hEvent)`: the pre-4.0 name, same signature as `_v2`.
    fn cuEventDestroy(h_event: CUevent) {
        drv()?.event_destroy(event_handle(h_event))
    }
}
