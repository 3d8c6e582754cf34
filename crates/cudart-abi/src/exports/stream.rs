//! Streams: creation, destruction, synchronization, queries, waits on events, host
//! callbacks. `cudaStream*` flags and priorities have the driver's values.

use std::ffi::{c_int, c_uint, c_void};

use super::api;
use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUresult, CUstream};
use crate::error::CudaError;
use crate::runtime::runtime;

/// `cudaStreamCallback_t`.
pub type StreamCallback = unsafe extern "C" fn(*mut c_void, CudaError, *mut c_void);
/// `cudaHostFn_t`.
pub type HostFn = unsafe extern "C" fn(*mut c_void);

fn create(out: *mut *mut c_void, flags: c_uint, priority: Option<c_int>) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(out) }?;
    let api = api()?;
    let mut s = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    unsafe {
        match priority {
            None => api.cuStreamCreate(&mut s, flags)?,
            Some(p) => api.cuStreamCreateWithPriority(&mut s, flags, p)?,
        }
    }
    out.write(s);
    Ok(())
}

/// What `cudaStreamAddCallback` hands the driver: the runtime callback and its stream.
struct Callback {
    func: StreamCallback,
    data: *mut c_void,
    stream: *mut c_void,
}

/// The driver calls this with a `CUresult`; the runtime callback gets a `cudaError_t`.
unsafe extern "C" fn run_callback(_stream: CUstream, status: CUresult, data: *mut c_void) {
    // SAFETY: `data` is the Box leaked by add_callback; the driver calls each callback once.
    let cb = unsafe { Box::from_raw(data.cast::<Callback>()) };
    // SAFETY: the program's callback with the arguments it registered.
    unsafe { (cb.func)(cb.stream, CudaError::from_driver(status), cb.data) }
}

fn add_callback(s: *mut c_void, func: Option<StreamCallback>, data: *mut c_void, flags: c_uint, per_thread: bool) -> RtResult {
    let func = func.ok_or(CudaError::INVALID_VALUE)?;
    if flags != 0 {
        return Err(CudaError::INVALID_VALUE);
    }
    let api = api()?;
    let cb = Box::into_raw(Box::new(Callback { func, data, stream: s }));
    // SAFETY: run_callback takes back the box exactly once.
    unsafe { api.cuStreamAddCallback(stream(s, per_thread), run_callback, cb.cast(), 0) }.inspect_err(|_| {
        // SAFETY: the driver refused it, so it will never call back.
        drop(unsafe { Box::from_raw(cb) });
    })
}

fn host_func(s: *mut c_void, func: Option<HostFn>, data: *mut c_void, per_thread: bool) -> RtResult {
    let func = func.ok_or(CudaError::INVALID_VALUE)?;
    // SAFETY: the driver calls `func(data)` once, as cudaLaunchHostFunc documents.
    unsafe { api()?.cuLaunchHostFunc(stream(s, per_thread), func, data) }
}

export! {
    fn cudaStreamCreate(s: *mut *mut c_void) {
        create(s, 0, None)
    }

    fn cudaStreamCreateWithFlags(s: *mut *mut c_void, flags: c_uint) {
        create(s, flags, None)
    }

    fn cudaStreamCreateWithPriority(s: *mut *mut c_void, flags: c_uint, priority: c_int) {
        create(s, flags, Some(priority))
    }

    fn cudaStreamDestroy(s: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuStreamDestroy(s) }
    }

    fn cudaStreamSynchronize(s: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuStreamSynchronize(stream(s, false)) }
    }

    fn cudaStreamSynchronize_ptsz(s: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuStreamSynchronize(stream(s, true)) }
    }

    /// `cudaErrorNotReady` while work is pending (not recorded as the last error).
    fn cudaStreamQuery(s: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuStreamQuery(stream(s, false)) }
    }

    fn cudaStreamQuery_ptsz(s: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuStreamQuery(stream(s, true)) }
    }

    fn cudaStreamWaitEvent(s: *mut c_void, event: *mut c_void, flags: c_uint) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuStreamWaitEvent(stream(s, false), event, flags) }
    }

    fn cudaStreamWaitEvent_ptsz(s: *mut c_void, event: *mut c_void, flags: c_uint) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuStreamWaitEvent(stream(s, true), event, flags) }
    }

    fn cudaStreamAddCallback(s: *mut c_void, func: Option<StreamCallback>, data: *mut c_void, flags: c_uint) {
        add_callback(s, func, data, flags, false)
    }

    fn cudaStreamAddCallback_ptsz(s: *mut c_void, func: Option<StreamCallback>, data: *mut c_void, flags: c_uint) {
        add_callback(s, func, data, flags, true)
    }

    fn cudaLaunchHostFunc(s: *mut c_void, func: Option<HostFn>, data: *mut c_void) {
        host_func(s, func, data, false)
    }

    fn cudaLaunchHostFunc_ptsz(s: *mut c_void, func: Option<HostFn>, data: *mut c_void) {
        host_func(s, func, data, true)
    }

    fn cudaStreamGetFlags(s: *mut c_void, flags: *mut c_uint) {
        let out = Out::new(flags)?;
        let mut f = 0;
        // SAFETY: valid out-pointer; the driver checks the handle.
        unsafe { api()?.cuStreamGetFlags(stream(s, false), &mut f) }?;
        out.write(f);
        Ok(())
    }

    fn cudaStreamGetFlags_ptsz(s: *mut c_void, flags: *mut c_uint) {
        let out = Out::new(flags)?;
        let mut f = 0;
        // SAFETY: valid out-pointer; the driver checks the handle.
        unsafe { api()?.cuStreamGetFlags(stream(s, true), &mut f) }?;
        out.write(f);
        Ok(())
    }

    fn cudaStreamGetPriority(s: *mut c_void, priority: *mut c_int) {
        let out = Out::new(priority)?;
        let mut p = 0;
        // SAFETY: valid out-pointer; the driver checks the handle.
        unsafe { api()?.cuStreamGetPriority(stream(s, false), &mut p) }?;
        out.write(p);
        Ok(())
    }

    fn cudaStreamGetPriority_ptsz(s: *mut c_void, priority: *mut c_int) {
        let out = Out::new(priority)?;
        let mut p = 0;
        // SAFETY: valid out-pointer; the driver checks the handle.
        unsafe { api()?.cuStreamGetPriority(stream(s, true), &mut p) }?;
        out.write(p);
        Ok(())
    }

    fn cudaStreamGetId(s: *mut c_void, id: *mut u64) {
        stream_id(s, id, false)
    }

    fn cudaStreamGetId_ptsz(s: *mut c_void, id: *mut u64) {
        stream_id(s, id, true)
    }

    fn cudaStreamGetDevice(s: *mut c_void, device: *mut c_int) {
        stream_device(s, device, false)
    }

    fn cudaStreamGetDevice_ptsz(s: *mut c_void, device: *mut c_int) {
        stream_device(s, device, true)
    }

    fn cudaStreamAttachMemAsync(s: *mut c_void, ptr: *mut c_void, length: usize, flags: c_uint) {
        attach(s, ptr, length, flags, false)
    }

    fn cudaStreamAttachMemAsync_ptsz(s: *mut c_void, ptr: *mut c_void, length: usize, flags: c_uint) {
        attach(s, ptr, length, flags, true)
    }
}

/// The driver's unique id of the stream (the special handles included).
fn stream_id(s: *mut c_void, id: *mut u64, per_thread: bool) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(id) }?;
    let mut v = 0;
    // SAFETY: valid out-pointer; the driver checks the handle.
    unsafe { api()?.cuStreamGetId(stream(s, per_thread), &mut v) }?;
    out.write(v);
    Ok(())
}

/// The runtime ordinal of the stream's device.
fn stream_device(s: *mut c_void, device: *mut c_int, per_thread: bool) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(device) }?;
    let rt = runtime()?;
    rt.context()?;
    let mut dev = 0;
    // SAFETY: valid out-pointer; the driver checks the handle.
    unsafe { rt.api().cuStreamGetDevice(stream(s, per_thread), &mut dev) }?;
    out.write(rt.ordinal(dev)?);
    Ok(())
}

/// Runtime API "Stream Management", cudaStreamAttachMemAsync: exactly one of
/// `cudaMemAttachGlobal` (1), `cudaMemAttachHost` (2), `cudaMemAttachSingle` (4), else
/// `cudaErrorInvalidValue`; the driver checks the range and queues the attachment.
fn attach(s: *mut c_void, ptr: *mut c_void, length: usize, flags: c_uint, per_thread: bool) -> RtResult {
    if !matches!(flags, 1 | 2 | 4) {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: plain values; the driver checks the range.
    unsafe { api()?.cuStreamAttachMemAsync(stream(s, per_thread), ptr as u64, length, flags) }
}
