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
use crate::types::{CUcontext, CUdevice, CUdeviceptr, CUevent, CUresult, CUstream};
use cuda_driver::graph::HostParams;
use cuda_driver::{GraphNodeHandle, StreamHandle};

/// `CUhostFn`: `void (*)(void* userData)`.
pub type CUhostFn = Option<unsafe extern "C" fn(user_data: *mut c_void)>;
/// `CUstreamCallback`: `void (*)(CUstream hStream, CUresult status, void* userData)`.
pub type CUstreamCallback = Option<unsafe extern "C" fn(h_stream: CUstream, status: CUresult, user_data: *mut c_void)>;

thread_local! {
    /// The dependency list `cuStreamGetCaptureInfo` returns: valid until this thread's
    /// next call (the API reference: until the next API call on the stream).
    static CAPTURE_DEPS: std::cell::RefCell<(Vec<*mut c_void>, Vec<u64>)> = const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}

/// `cuStreamGetCaptureInfo*`: status, id, graph and current dependencies of the stream's
/// capture (id 0, no graph, no dependencies when it does not capture).
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
    let info = drv()?.stream_capture_info(stream)?;
    status.write(info.status as c_int);
    let (deps_ptr, edges_ptr) = CAPTURE_DEPS.with(|c| {
        let mut c = c.borrow_mut();
        c.0 = info.deps.iter().map(|d| d.as_raw()).collect();
        c.1 = vec![0; info.deps.len()];
        (c.0.as_ptr().cast::<c_void>(), c.1.as_ptr().cast::<c_void>())
    });
    let some = !info.deps.is_empty();
    // SAFETY (each): NULL or writable, forwarded contract.
    unsafe {
        if let Some(out) = Out::optional(id) {
            out.write(info.id);
        }
        if let Some(out) = Out::optional(graph) {
            out.write(info.graph.map_or(null_mut(), |g| g.as_raw()));
        }
        if let Some(out) = Out::optional(dependencies) {
            out.write(if some { deps_ptr } else { std::ptr::null() });
        }
        if let Some(out) = Out::optional(edge_data) {
            out.write(if some { edges_ptr } else { std::ptr::null() });
        }
        if let Some(out) = Out::optional(num_dependencies) {
            out.write(info.deps.len());
        }
    }
    Ok(())
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn is_capturing(stream: StreamHandle, out: *mut c_int) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    out.write(drv()?.stream_capture_info(stream)?.status as c_int);
    Ok(())
}

/// # Safety
/// `out` is NULL or writable.
unsafe fn end_capture(stream: StreamHandle, out: *mut *mut c_void) -> AbiResult {
    // A capture into the caller's graph (`cuStreamBeginCaptureToGraph`) returns nothing new.
    if out.is_null() && drv()?.stream_captures_to_existing_graph(stream)? {
        return drv()?.stream_end_capture(stream).map(drop);
    }
    // No place for the graph: NVIDIA's driver still ends the capture and answers success;
    // the graph nobody can name is destroyed.
    if out.is_null() {
        let graph = drv()?.stream_end_capture(stream)?;
        return drv()?.graph_destroy(graph);
    }
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    match drv()?.stream_end_capture(stream) {
        Ok(g) => {
            out.write(g.as_raw());
            Ok(())
        }
        Err(e) => {
            // An invalidated or unjoined capture ends without a graph.
            if matches!(e, CuError::STREAM_CAPTURE_INVALIDATED | CuError::STREAM_CAPTURE_UNJOINED) {
                out.write(null_mut());
            }
            Err(e)
        }
    }
}

/// # Safety
/// `nodes` NULL or readable for `n` handles; `edge_data` NULL or readable for `n` entries.
unsafe fn update_capture_deps(stream: StreamHandle, nodes: *const *mut c_void, edge_data: *const u64, n: usize, flags: c_uint) -> AbiResult {
    // SAFETY: forwarded contract.
    let nodes: Vec<GraphNodeHandle> = unsafe { crate::boundary::slice(nodes, n) }?.iter().map(|&p| GraphNodeHandle::from_raw(p)).collect();
    // SAFETY: forwarded contract.
    if !edge_data.is_null() && unsafe { crate::boundary::slice(edge_data, n) }?.iter().any(|&e| e != 0) {
        crate::boundary::log(format_args!("capture dependencies with non-default edge data are not supported"));
        return Err(CuError::NOT_SUPPORTED);
    }
    drv()?.stream_update_capture_dependencies(stream, &nodes, flags)
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
    let (c, g) = drv()?.stream_get_ctx_v2(stream)?;
    ctx.write(ctx_raw(c));
    if let Some(green) = green {
        green.write(g.as_raw());
    }
    Ok(())
}

/// `CU_HOST_TASK_BLOCKING` / `CU_HOST_TASK_SPINWAIT` (`cuLaunchHostFunc_v2`'s sync modes:
/// how the driver thread waits for host tasks; both behave alike here).
const HOST_TASK_SYNC_MODES: [c_uint; 2] = [0, 1];

/// # Safety
/// `f` is a host function that may be called with `user_data` on a driver thread.
unsafe fn host_func(stream: StreamHandle, f: CUhostFn, user_data: *mut c_void) -> AbiResult {
    let func = f.ok_or(CuError::INVALID_VALUE)?;
    drv()?.launch_host_fn(stream, HostParams { func, user_data: user_data as usize })
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

    /// `cuStreamAttachMemAsync(CUstream hStream, CUdeviceptr dptr, size_t length, unsigned flags)`.
    fn cuStreamAttachMemAsync(h_stream: CUstream, dptr: CUdeviceptr, length: usize, flags: c_uint) {
        drv()?.stream_attach_mem_async(stream_handle(h_stream), dptr, length, flags)
    }
    fn cuStreamAttachMemAsync_ptsz(h_stream: CUstream, dptr: CUdeviceptr, length: usize, flags: c_uint) {
        drv()?.stream_attach_mem_async(stream_ptsz(h_stream), dptr, length, flags)
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
    fn cuLaunchHostFunc_v2_ptsz(h_stream: CUstream, f: CUhostFn, user_data: *mut c_void, sync_mode: c_uint) {
        if !HOST_TASK_SYNC_MODES.contains(&sync_mode) {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: as cuLaunchHostFunc.
        unsafe { host_func(stream_ptsz(h_stream), f, user_data) }
    }

    /// `cuStreamIsCapturing(CUstream hStream, CUstreamCaptureStatus* captureStatus)`.
    fn cuStreamIsCapturing(h_stream: CUstream, capture_status: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        unsafe { is_capturing(stream_handle(h_stream), capture_status) }
    }
    fn cuStreamIsCapturing_ptsz(h_stream: CUstream, capture_status: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        unsafe { is_capturing(stream_ptsz(h_stream), capture_status) }
    }

    /// `cuStreamBeginCapture(CUstream hStream)` (the CUDA 10.0 ABI: global mode).
    fn cuStreamBeginCapture(h_stream: CUstream) {
        drv()?.stream_begin_capture(stream_handle(h_stream), 0)
    }
    fn cuStreamBeginCapture_ptsz(h_stream: CUstream) {
        drv()?.stream_begin_capture(stream_ptsz(h_stream), 0)
    }

    /// `cuStreamBeginCapture_v2(CUstream hStream, CUstreamCaptureMode mode)`.
    fn cuStreamBeginCapture_v2(h_stream: CUstream, mode: c_uint) {
        drv()?.stream_begin_capture(stream_handle(h_stream), mode)
    }
    fn cuStreamBeginCapture_v2_ptsz(h_stream: CUstream, mode: c_uint) {
        drv()?.stream_begin_capture(stream_ptsz(h_stream), mode)
    }

    /// `cuStreamEndCapture(CUstream hStream, CUgraph* phGraph)`: NULL graph when the
    /// capture was invalidated or left a fork unjoined.
    fn cuStreamEndCapture(h_stream: CUstream, ph_graph: *mut *mut c_void) {
        // SAFETY: NULL or writable, per the API.
        unsafe { end_capture(stream_handle(h_stream), ph_graph) }
    }
    fn cuStreamEndCapture_ptsz(h_stream: CUstream, ph_graph: *mut *mut c_void) {
        // SAFETY: NULL or writable, per the API.
        unsafe { end_capture(stream_ptsz(h_stream), ph_graph) }
    }

    /// `cuStreamUpdateCaptureDependencies(CUstream, CUgraphNode* dependencies, size_t numDependencies, unsigned flags)`.
    fn cuStreamUpdateCaptureDependencies(h_stream: CUstream, deps: *const *mut c_void, n: usize, flags: c_uint) {
        // SAFETY: pointers as the API documents.
        unsafe { update_capture_deps(stream_handle(h_stream), deps, std::ptr::null(), n, flags) }
    }
    fn cuStreamUpdateCaptureDependencies_ptsz(h_stream: CUstream, deps: *const *mut c_void, n: usize, flags: c_uint) {
        // SAFETY: pointers as the API documents.
        unsafe { update_capture_deps(stream_ptsz(h_stream), deps, std::ptr::null(), n, flags) }
    }

    /// `cuStreamUpdateCaptureDependencies_v2(CUstream, CUgraphNode*, const CUgraphEdgeData*, size_t, unsigned)`.
    fn cuStreamUpdateCaptureDependencies_v2(h_stream: CUstream, deps: *const *mut c_void, edge_data: *const u64, n: usize, flags: c_uint) {
        // SAFETY: pointers as the API documents.
        unsafe { update_capture_deps(stream_handle(h_stream), deps, edge_data, n, flags) }
    }
    fn cuStreamUpdateCaptureDependencies_v2_ptsz(h_stream: CUstream, deps: *const *mut c_void, edge_data: *const u64, n: usize, flags: c_uint) {
        // SAFETY: pointers as the API documents.
        unsafe { update_capture_deps(stream_ptsz(h_stream), deps, edge_data, n, flags) }
    }

    /// `cuThreadExchangeStreamCaptureMode(CUstreamCaptureMode* mode)`.
    fn cuThreadExchangeStreamCaptureMode(mode: *mut c_uint) {
        // SAFETY: NULL or readable and writable, per the API.
        let new = unsafe { crate::boundary::read_in(mode) }?;
        let old = drv()?.thread_exchange_capture_mode(new)?;
        // SAFETY: non-NULL (read above) and writable.
        unsafe { mode.write_unaligned(old) };
        Ok(())
    }

    /// `cuStreamGetCaptureInfo(CUstream hStream, CUstreamCaptureStatus* captureStatus, cuuint64_t* id)`
    /// (the CUDA 10.1 ABI).
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
