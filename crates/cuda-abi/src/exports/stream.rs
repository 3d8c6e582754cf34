//! `cuStream*` (with their `_ptsz` twins), `cuLaunchHostFunc` and `cuStreamAddCallback`.
//!
//! Stream handles 0, `CU_STREAM_LEGACY` and `CU_STREAM_PER_THREAD` are the default
//! streams; the driver accepts them everywhere a stream is expected. In the `_ptsz`
//! twins a NULL stream is the per-thread default stream. Host functions run on the
//! stream's driver thread.

use std::ffi::{c_int, c_uint, c_ulonglong, c_void};
use std::ptr::null_mut;

use cuda_driver::CuError;

use super::{ctx_raw, drv, event_handle, stream_handle, stream_ptsz, SendBox};
use crate::boundary::{export, AbiResult, Out};
use crate::types::{CUcontext, CUdevice, CUevent, CUresult, CUstream};
use cuda_driver::StreamHandle;

/// `CUhostFn`: `void (*)(void* userData)`.
pub type CUhostFn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;
/// `CUstreamCallback`: `void (*)(CUstream hStream, CUresult status, void* userData)`.
pub type CUstreamCallback = Option<unsafe extern "C" fn(h_stream: CUstream, status: CUresult, user_data: *mut c_void)>;

/// `cuStreamGetCaptureInfo*`: stream capture is not supported, so a valid stream is
/// never capturing: `CU_STREAM_CAPTURE_STATUS_NONE` (0), and the optional outputs, which
/// describe an active capture, are zeroed (id 0, no graph, no dependencies).
///
/// # Safety
/// Every pointer is NULL or writable.
#[allow(clippy::too_many_arguments, reason = "the outputs of cuStreamGetCaptureInfo_v3")]
unsafe fn capture_info(
    stream: StreamHandle,
    status: *mut c_int,
    id: *mut u64,
    graph: *mut *mut c_void,
    dependencies: *mut *const c_void,
    edge_data: *mut *const c_void,
    num_dependencies: *mut usize,
) -> AbiResult {
    // SAFETY: forwarded contract; the status is required ("captureStatus_out ... required").
    let status = unsafe { Out::new(status) }?;
    drv()?.stream_get_flags(stream)?;
    status.write(0);
    // SAFETY (each): NULL or writable, forwarded contract.
    unsafe {
        if let Some(out) = Out::optional(id) {
            out.write(0);
        }
        if let Some(out) = Out::optional(graph) {
            out.write(null_mut());
        }
        if let Some(out) = Out::optional(dependencies) {
            out.write(std::ptr::null());
        }
        if let Some(out) = Out::optional(edge_data) {
            out.write(std::ptr::null());
        }
        if let Some(out) = Out::optional(num_dependencies) {
            out.write(0);
        }
    }
    Ok(())
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn get_flags(stream: StreamHandle, out: *mut c_uint) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    out.write(drv()?.stream_get_flags(stream)?);
    Ok(())
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn get_priority(stream: StreamHandle, out: *mut c_int) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    out.write(drv()?.stream_get_priority(stream)?);
    Ok(())
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn get_ctx(stream: StreamHandle, out: *mut CUcontext) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    out.write(ctx_raw(drv()?.stream_get_ctx(stream)?));
    Ok(())
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn get_device(stream: StreamHandle, out: *mut CUdevice) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    out.write(drv()?.stream_get_device(stream)?);
    Ok(())
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn get_id(stream: StreamHandle, out: *mut c_ulonglong) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    out.write(drv()?.stream_get_id(stream)?);
    Ok(())
}

/// # Safety
/// `p_ctx` / `p_green_ctx` are NULL or writable.
unsafe fn get_ctx_v2(stream: StreamHandle, p_ctx: *mut CUcontext, p_green_ctx: *mut *mut c_void) -> AbiResult {
    // SAFETY: forwarded contract.
    let (ctx, green) = unsafe { (Out::new(p_ctx)?, Out::optional(p_green_ctx)) };
    ctx.write(ctx_raw(drv()?.stream_get_ctx(stream)?));
    // Green contexts do not exist here.
    if let Some(green) = green {
        green.write(std::ptr::null_mut());
    }
    Ok(())
}

/// `CU_HOST_TASK_BLOCKING` / `CU_HOST_TASK_SPINWAIT` (`cuLaunchHostFunc_v2`'s sync modes:
/// how the driver thread waits for host tasks; both behave alike here).
const HOST_TASK_SYNC_MODES: [c_uint; 2] = [0, 1];

/// # Safety
/// `f` is a host function that may be called with `user_data` on a driver thread.
unsafe fn host_func(stream: StreamHandle, f: CUhostFn, user_data: *mut c_void) -> AbiResult {
    let f = f.ok_or(CuError::INVALID_VALUE)?;
    let call = SendBox((f, user_data));
    drv()?.launch_host_func(
        stream,
        Box::new(move |_status| {
            let call = call;
            let (f, user_data) = call.0;
            // SAFETY: the caller's function, with the caller's data, as the API promises.
            unsafe { f(user_data) }
        }),
    )
}

/// # Safety
/// `callback` may be called with `user_data` on a driver thread.
unsafe fn add_callback(h_stream: CUstream, stream: StreamHandle, callback: CUstreamCallback, user_data: *mut c_void, flags: c_uint) -> AbiResult {
    let callback = callback.ok_or(CuError::INVALID_VALUE)?;
    if flags != 0 {
        return Err(CuError::INVALID_VALUE);
    }
    let call = SendBox((callback, h_stream, user_data));
    drv()?.launch_host_func(
        stream,
        Box::new(move |status| {
            let call = call;
            let (callback, h_stream, user_data) = call.0;
            let status = CUresult(status.err().map_or(0, |e| e.code()));
            // SAFETY: the caller's callback, with the caller's data, as the API promises.
            unsafe { callback(h_stream, status, user_data) }
        }),
    )
}

export! {
    /// `cuStreamCreate(CUstream* phStream, unsigned Flags)`.
    fn cuStreamCreate(ph_stream: *mut CUstream, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_stream) }?;
        out.write(drv()?.stream_create(flags)?.as_raw().cast());
        Ok(())
    }

    /// `cuStreamCreateWithPriority(CUstream* phStream, unsigned flags, int priority)`.
    fn cuStreamCreateWithPriority(ph_stream: *mut CUstream, flags: c_uint, priority: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_stream) }?;
        out.write(drv()?.stream_create_with_priority(flags, priority)?.as_raw().cast());
        Ok(())
    }

    /// `cuStreamDestroy_v2(CUstream hStream)`.
    fn cuStreamDestroy_v2(h_stream: CUstream) {
        drv()?.stream_destroy(stream_handle(h_stream))
    }

    /// `cuStreamDestroy(CUstream hStream)`: the pre-4.0 name, same signature as `_v2`.
    fn cuStreamDestroy(h_stream: CUstream) {
        drv()?.stream_destroy(stream_handle(h_stream))
    }

    /// `cuStreamSynchronize(CUstream hStream)`.
    fn cuStreamSynchronize(h_stream: CUstream) {
        drv()?.stream_synchronize(stream_handle(h_stream))
    }
    fn cuStreamSynchronize_ptsz(h_stream: CUstream) {
        drv()?.stream_synchronize(stream_ptsz(h_stream))
    }

    /// `cuStreamQuery(CUstream hStream)`: `CUDA_SUCCESS` when idle, `CUDA_ERROR_NOT_READY` otherwise.
    fn cuStreamQuery(h_stream: CUstream) {
        drv()?.stream_query(stream_handle(h_stream))
    }
    fn cuStreamQuery_ptsz(h_stream: CUstream) {
        drv()?.stream_query(stream_ptsz(h_stream))
    }

    /// `cuStreamWaitEvent(CUstream hStream, CUevent hEvent, unsigned Flags)`.
    fn cuStreamWaitEvent(h_stream: CUstream, h_event: CUevent, flags: c_uint) {
        drv()?.stream_wait_event(stream_handle(h_stream), event_handle(h_event), flags)
    }
    fn cuStreamWaitEvent_ptsz(h_stream: CUstream, h_event: CUevent, flags: c_uint) {
        drv()?.stream_wait_event(stream_ptsz(h_stream), event_handle(h_event), flags)
    }

    /// `cuStreamGetFlags(CUstream hStream, unsigned* flags)`.
    fn cuStreamGetFlags(h_stream: CUstream, flags: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_flags(stream_handle(h_stream), flags) }
    }
    fn cuStreamGetFlags_ptsz(h_stream: CUstream, flags: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_flags(stream_ptsz(h_stream), flags) }
    }

    /// `cuStreamGetPriority(CUstream hStream, int* priority)`.
    fn cuStreamGetPriority(h_stream: CUstream, priority: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_priority(stream_handle(h_stream), priority) }
    }
    fn cuStreamGetPriority_ptsz(h_stream: CUstream, priority: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_priority(stream_ptsz(h_stream), priority) }
    }

    /// `cuStreamGetCtx(CUstream hStream, CUcontext* pctx)`.
    fn cuStreamGetCtx(h_stream: CUstream, pctx: *mut CUcontext) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_ctx(stream_handle(h_stream), pctx) }
    }
    fn cuStreamGetCtx_ptsz(h_stream: CUstream, pctx: *mut CUcontext) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_ctx(stream_ptsz(h_stream), pctx) }
    }

    /// `cuStreamGetCtx_v2(CUstream hStream, CUcontext* pCtx, CUgreenCtx* pGreenCtx)`.
    fn cuStreamGetCtx_v2(h_stream: CUstream, p_ctx: *mut CUcontext, p_green_ctx: *mut *mut c_void) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_ctx_v2(stream_handle(h_stream), p_ctx, p_green_ctx) }
    }
    fn cuStreamGetCtx_v2_ptsz(h_stream: CUstream, p_ctx: *mut CUcontext, p_green_ctx: *mut *mut c_void) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_ctx_v2(stream_ptsz(h_stream), p_ctx, p_green_ctx) }
    }

    /// `cuStreamGetDevice(CUstream hStream, CUdevice* device)`.
    fn cuStreamGetDevice(h_stream: CUstream, device: *mut CUdevice) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_device(stream_handle(h_stream), device) }
    }
    fn cuStreamGetDevice_ptsz(h_stream: CUstream, device: *mut CUdevice) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_device(stream_ptsz(h_stream), device) }
    }

    /// `cuStreamGetId(CUstream hStream, unsigned long long* streamId)`.
    fn cuStreamGetId(h_stream: CUstream, stream_id: *mut c_ulonglong) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_id(stream_handle(h_stream), stream_id) }
    }
    fn cuStreamGetId_ptsz(h_stream: CUstream, stream_id: *mut c_ulonglong) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_id(stream_ptsz(h_stream), stream_id) }
    }

    /// `cuLaunchHostFunc(CUstream hStream, CUhostFn fn, void* userData)`.
    fn cuLaunchHostFunc(h_stream: CUstream, f: CUhostFn, user_data: *mut c_void) {
        // SAFETY: the function and its data, as the API promises.
        unsafe { host_func(stream_handle(h_stream), f, user_data) }
    }
    fn cuLaunchHostFunc_ptsz(h_stream: CUstream, f: CUhostFn, user_data: *mut c_void) {
        // SAFETY: as cuLaunchHostFunc.
        unsafe { host_func(stream_ptsz(h_stream), f, user_data) }
    }

    /// `cuLaunchHostFunc_v2(CUstream hStream, CUhostFn fn, void* userData, unsigned syncMode)`
    /// (CUDA 13.1): `syncMode` is `CU_HOST_TASK_BLOCKING` or `CU_HOST_TASK_SPINWAIT`.
    fn cuLaunchHostFunc_v2(h_stream: CUstream, f: CUhostFn, user_data: *mut c_void, sync_mode: c_uint) {
        if !HOST_TASK_SYNC_MODES.contains(&sync_mode) {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: as cuLaunchHostFunc.
        unsafe { host_func(stream_handle(h_stream), f, user_data) }
    }

    /// `cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus* captureStatus)`: stream
    /// capture is not supported, so no stream is ever capturing
    /// (`CU_STREAM_CAPTURE_STATUS_NONE`).
    fn cuStreamIsCapturing(h_stream: CUstream, capture_status: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(capture_status) }?;
        drv()?.stream_get_flags(stream_handle(h_stream))?;
        out.write(0);
        Ok(())
    }
    fn cuStreamIsCapturing_ptsz(h_stream: CUstream, capture_status: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(capture_status) }?;
        drv()?.stream_get_flags(stream_ptsz(h_stream))?;
        out.write(0);
        Ok(())
    }

    /// `cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus* captureStatus, cuuint64_t* id)`
    /// (the CUDA 10.1 ABI): never capturing, as in `cuStreamIsCapturing`.
    fn cuStreamGetCaptureInfo(h_stream: CUstream, capture_status: *mut c_int, id: *mut u64) {
        // SAFETY: NULL or writable, per the API.
        unsafe { capture_info(stream_handle(h_stream), capture_status, id, null_mut(), null_mut(), null_mut(), null_mut()) }
    }
    fn cuStreamGetCaptureInfo_ptsz(h_stream: CUstream, capture_status: *mut c_int, id: *mut u64) {
        // SAFETY: NULL or writable, per the API.
        unsafe { capture_info(stream_ptsz(h_stream), capture_status, id, null_mut(), null_mut(), null_mut(), null_mut()) }
    }

    /// `cuStreamGetCaptureInfo_v2(CUstream hStream, CUstreamCaptureStatus* captureStatus_out, cuuint64_t* id_out, CUgraph* graph_out, const CUgraphNode** dependencies_out, size_t* numDependencies_out)`.
    fn cuStreamGetCaptureInfo_v2(h_stream: CUstream, capture_status: *mut c_int, id: *mut u64, graph: *mut *mut c_void, dependencies: *mut *const c_void, num_dependencies: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        unsafe { capture_info(stream_handle(h_stream), capture_status, id, graph, dependencies, null_mut(), num_dependencies) }
    }
    fn cuStreamGetCaptureInfo_v2_ptsz(h_stream: CUstream, capture_status: *mut c_int, id: *mut u64, graph: *mut *mut c_void, dependencies: *mut *const c_void, num_dependencies: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        unsafe { capture_info(stream_ptsz(h_stream), capture_status, id, graph, dependencies, null_mut(), num_dependencies) }
    }

    /// `cuStreamGetCaptureInfo_v3(CUstream hStream, CUstreamCaptureStatus* captureStatus_out, cuuint64_t* id_out, CUgraph* graph_out, const CUgraphNode** dependencies_out, const CUgraphEdgeData** edgeData_out, size_t* numDependencies_out)`
    /// (CUDA 12.3; what `cuStreamGetCaptureInfo` means in CUDA 13).
    fn cuStreamGetCaptureInfo_v3(h_stream: CUstream, capture_status: *mut c_int, id: *mut u64, graph: *mut *mut c_void, dependencies: *mut *const c_void, edge_data: *mut *const c_void, num_dependencies: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        unsafe { capture_info(stream_handle(h_stream), capture_status, id, graph, dependencies, edge_data, num_dependencies) }
    }
    fn cuStreamGetCaptureInfo_v3_ptsz(h_stream: CUstream, capture_status: *mut c_int, id: *mut u64, graph: *mut *mut c_void, dependencies: *mut *const c_void, edge_data: *mut *const c_void, num_dependencies: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        unsafe { capture_info(stream_ptsz(h_stream), capture_status, id, graph, dependencies, edge_data, num_dependencies) }
    }

    /// `cuStreamAddCallback(CUstream hStream, CUstreamCallback callback, void* userData, unsigned flags)`.
    fn cuStreamAddCallback(h_stream: CUstream, callback: CUstreamCallback, user_data: *mut c_void, flags: c_uint) {
        // SAFETY: the callback and its data, as the API promises.
        unsafe { add_callback(h_stream, stream_handle(h_stream), callback, user_data, flags) }
    }
    fn cuStreamAddCallback_ptsz(h_stream: CUstream, callback: CUstreamCallback, user_data: *mut c_void, flags: c_uint) {
        // SAFETY: as cuStreamAddCallback.
        unsafe { add_callback(h_stream, stream_ptsz(h_stream), callback, user_data, flags) }
    }
}
