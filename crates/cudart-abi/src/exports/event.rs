//! Events: creation, recording, queries, synchronization, elapsed time. `cudaEvent*` flags
//! have the driver's values.

use std::ffi::{c_uint, c_void};

use super::api;
use super::stream;
use crate::boundary::{export, Out, RtResult};

fn create(event: *mut *mut c_void, flags: c_uint) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(event) }?;
    let mut e = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    unsafe { api()?.cuEventCreate(&mut e, flags) }?;
    out.write(e);
    Ok(())
}

export! {
    fn cudaEventCreate(event: *mut *mut c_void) {
        create(event, 0)
    }

    fn cudaEventCreateWithFlags(event: *mut *mut c_void, flags: c_uint) {
        create(event, flags)
    }

    fn cudaEventRecord(event: *mut c_void, s: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuEventRecord(event, stream(s, false)) }
    }

    fn cudaEventRecord_ptsz(event: *mut c_void, s: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuEventRecord(event, stream(s, true)) }
    }

    fn cudaEventRecordWithFlags(event: *mut c_void, s: *mut c_void, flags: c_uint) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuEventRecordWithFlags(event, stream(s, false), flags) }
    }

    fn cudaEventRecordWithFlags_ptsz(event: *mut c_void, s: *mut c_void, flags: c_uint) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuEventRecordWithFlags(event, stream(s, true), flags) }
    }

    /// `cudaErrorNotReady` while the recorded work is pending (not recorded as the last
    /// error).
    fn cudaEventQuery(event: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuEventQuery(event) }
    }

    fn cudaEventSynchronize(event: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuEventSynchronize(event) }
    }

    fn cudaEventDestroy(event: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuEventDestroy(event) }
    }

    fn cudaEventElapsedTime(ms: *mut f32, start: *mut c_void, end: *mut c_void) {
        let out = Out::new(ms)?;
        let mut t = 0.0;
        // SAFETY: valid out-pointer; the driver checks the handles.
        unsafe { api()?.cuEventElapsedTime(&mut t, start, end) }?;
        out.write(t);
        Ok(())
    }
}
