//! Streams: `cuStreamCreate*`, `Destroy`, `Synchronize`, `Query`, `GetFlags`,
//! `GetPriority`, `GetCtx`, `GetDevice`, `GetId`, `WaitEvent`, host functions.
//!
//! Every stream is a queue of operations run in order, asynchronously to the host (see
//! [`crate::exec`]). The default streams are the handle values 0 (NULL) and
//! `CU_STREAM_LEGACY` (1), the context's legacy default stream, and `CU_STREAM_PER_THREAD`
//! (2), the calling thread's per-thread default stream in the current context. The ABI
//! passes `CU_STREAM_PER_THREAD` for a NULL stream in the `_ptsz`/`_ptds` entry points.
//!
//! Semantics (CUDA driver API, "Stream synchronization behavior"): work on the legacy
//! default stream waits for earlier work of every blocking stream of its context, and work
//! on a blocking stream waits for earlier work of the legacy default stream; per-thread
//! default streams are blocking streams that do not synchronize with each other; streams
//! created with `CU_STREAM_NON_BLOCKING` take part in none of this. Priorities are accepted
//! and reported back; all streams share the device fairly.

use std::cell::RefCell;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::context::Context;
use crate::diag::fail;
use crate::exec::{HostFn, Queue, QueueKind, Work};
use crate::{CtxHandle, CuError, CuResult, Driver, EventHandle, StreamHandle};

/// `cuCtxGetStreamPriorityRange`'s least (lowest) priority.
pub const LEAST_PRIORITY: i32 = 0;
/// `cuCtxGetStreamPriorityRange`'s greatest (highest) priority.
pub const GREATEST_PRIORITY: i32 = -5;
/// `CU_STREAM_LEGACY`.
pub const STREAM_LEGACY: u64 = 1;
/// `CU_STREAM_PER_THREAD`.
pub const STREAM_PER_THREAD: u64 = 2;
/// `CU_STREAM_NON_BLOCKING`.
pub const STREAM_NON_BLOCKING: u32 = 1;
/// `CU_EVENT_WAIT_EXTERNAL`.
pub const EVENT_WAIT_EXTERNAL: u32 = 1;

impl StreamHandle {
    /// `CU_STREAM_LEGACY`: the legacy default stream.
    pub const LEGACY: StreamHandle = StreamHandle(STREAM_LEGACY);
    /// `CU_STREAM_PER_THREAD`: the calling thread's per-thread default stream.
    pub const PER_THREAD: StreamHandle = StreamHandle(STREAM_PER_THREAD);
}

/// A created stream.
pub struct Stream {
    pub ctx: CtxHandle,
    pub flags: u32,
    pub priority: i32,
    /// `cuStreamGetId`.
    pub id: u64,
    pub(crate) queue: Arc<Queue>,
}

impl Drop for Stream {
    fn drop(&mut self) {
        // Work still queued runs to its end; then the worker exits.
        self.queue.orphan();
    }
}

static NEXT_STREAM_ID: AtomicU64 = AtomicU64::new(16);

/// Whether `stream` is one of the default-stream values.
pub fn is_default_stream(stream: StreamHandle) -> bool {
    stream.0 == 0 || stream.0 == STREAM_LEGACY || stream.0 == STREAM_PER_THREAD
}

/// This thread's per-thread default streams, by (driver, context).
struct PerThreadQueues(HashMap<(u64, CtxHandle), Arc<Queue>>);

impl Drop for PerThreadQueues {
    fn drop(&mut self) {
        for q in self.0.values() {
            q.orphan();
        }
    }
}

thread_local! {
    static PER_THREAD: RefCell<PerThreadQueues> = RefCell::new(PerThreadQueues(HashMap::new()));
}

impl Driver {
    fn stream(&self, stream: StreamHandle) -> CuResult<Arc<Stream>> {
        self.streams.get(stream).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("stream handle {:#x}: {why:?}", stream.0)))
    }

    /// The context work on `stream` runs in (the current one for default streams), usable.
    pub fn stream_context(&self, stream: StreamHandle) -> CuResult<Arc<Context>> {
        if is_default_stream(stream) {
            return self.current_context();
        }
        let s = self.stream(stream)?;
        self.context_or_current(s.ctx)
    }

    /// The context and queue of `stream`; the context must be usable.
    pub(crate) fn stream_queue(&self, stream: StreamHandle) -> CuResult<(Arc<Context>, Arc<Queue>)> {
        match stream.0 {
            0 | STREAM_LEGACY => {
                let ctx = self.current_context()?;
                let q = ctx.queues().legacy.clone();
                Ok((ctx, q))
            }
            STREAM_PER_THREAD => {
                let ctx = self.current_context()?;
                let q = self.per_thread_queue(&ctx);
                Ok((ctx, q))
            }
            _ => {
                let s = self.stream(stream)?;
                let ctx = self.context_or_current(s.ctx)?;
                Ok((ctx, s.queue.clone()))
            }
        }
    }

    fn per_thread_queue(&self, ctx: &Arc<Context>) -> Arc<Queue> {
        let key = (self.id, ctx.handle);
        let make = || {
            let q = Queue::new(QueueKind::PerThread, true, Arc::downgrade(ctx), self.devices[ctx.device].backend.clone());
            ctx.queues().add(q.clone());
            q
        };
        // During thread teardown the map is gone: use a queue that lives for this call.
        PER_THREAD
            .try_with(|m| {
                let mut m = m.borrow_mut();
                // A queue of an earlier incarnation of the context (reset) is orphaned.
                if m.0.get(&key).is_some_and(|q| q.is_orphaned()) {
                    m.0.remove(&key);
                }
                m.0.entry(key).or_insert_with(make).clone()
            })
            .unwrap_or_else(|_| make())
    }

    /// `cuStreamCreate`: `flags` is `CU_STREAM_DEFAULT` (0) or `CU_STREAM_NON_BLOCKING` (1).
    pub fn stream_create(&self, flags: u32) -> CuResult<StreamHandle> {
        self.stream_create_with_priority(flags, LEAST_PRIORITY)
    }

    /// `cuStreamCreateWithPriority`: priorities outside the range are clamped, as NVIDIA does.
    pub fn stream_create_with_priority(&self, flags: u32, priority: i32) -> CuResult<StreamHandle> {
        let ctx = self.current_context()?;
        self.stream_create_in(&ctx, flags, priority)
    }

    /// A stream of `ctx` (the current context, or a green context's for
    /// `cuGreenCtxStreamCreate`).
    pub(crate) fn stream_create_in(&self, ctx: &Arc<Context>, flags: u32, priority: i32) -> CuResult<StreamHandle> {
        if flags & !STREAM_NON_BLOCKING != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamCreate: flags {flags:#x}")));
        }
        let priority = priority.clamp(GREATEST_PRIORITY, LEAST_PRIORITY);
        let id = NEXT_STREAM_ID.fetch_add(1, Ordering::Relaxed);
        let blocking = flags & STREAM_NON_BLOCKING == 0;
        let queue = Queue::new(QueueKind::Created, blocking, Arc::downgrade(ctx), self.devices[ctx.device].backend.clone());
        queue.attrs.lock().unwrap_or_else(|e| e.into_inner()).priority = priority;
        ctx.queues().add(queue.clone());
        Ok(self.streams.insert(Arc::new(Stream { ctx: ctx.handle, flags, priority, id, queue })))
    }

    /// `cuStreamDestroy_v2`: returns at once; work already queued still runs. Default
    /// streams cannot be destroyed (`INVALID_HANDLE`).
    pub fn stream_destroy(&self, stream: StreamHandle) -> CuResult<()> {
        let removed =
            self.streams.remove(stream).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("cuStreamDestroy({:#x}): {why:?}", stream.0)))?;
        self.end_orphaned_captures(None, Some(&removed.queue));
        Ok(())
    }

    /// `cuStreamSynchronize`: waits for the stream's work (the legacy default stream: also
    /// for earlier work of every blocking stream); reports the sticky error or the
    /// stream's pending asynchronous error.
    pub fn stream_synchronize(&self, stream: StreamHandle) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        self.capture_forbid_sync(&ctx, &q)?;
        ctx.queues().with_sync_markers(&q, |markers| markers.iter().for_each(|m| m.wait()));
        self.pools_after_sync((q.kind != QueueKind::Legacy).then_some(&q));
        self.flush_output(&ctx);
        if let Some(err) = ctx.sticky_error() {
            return Err(fail(err, format_args!("cuStreamSynchronize: sticky error from an earlier kernel fault")));
        }
        match q.take_error() {
            Some(err) => Err(fail(err, format_args!("cuStreamSynchronize: an asynchronous operation failed"))),
            None => Ok(()),
        }
    }

    /// `cuStreamQuery`: `CUDA_SUCCESS` when all work is done, `CUDA_ERROR_NOT_READY` while
    /// some is pending (the sticky error if the context is poisoned).
    pub fn stream_query(&self, stream: StreamHandle) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        self.capture_forbid_sync(&ctx, &q)?;
        if ctx.queues().with_sync_markers(&q, |markers| markers.iter().all(|m| m.is_complete())) {
            if let Some(err) = ctx.sticky_error() {
                return Err(err);
            }
            Ok(())
        } else {
            Err(CuError::NOT_READY)
        }
    }

    /// `cuStreamGetFlags`.
    pub fn stream_get_flags(&self, stream: StreamHandle) -> CuResult<u32> {
        if is_default_stream(stream) {
            self.current_context()?;
            return Ok(0);
        }
        Ok(self.stream(stream)?.flags)
    }

    /// `cuStreamGetPriority`: the creation priority, or the one `cuStreamSetAttribute`
    /// set since.
    pub fn stream_get_priority(&self, stream: StreamHandle) -> CuResult<i32> {
        let (_, q) = self.stream_queue(stream)?;
        let priority = q.attrs.lock().unwrap_or_else(|e| e.into_inner()).priority;
        Ok(priority)
    }

    /// `cuStreamGetCtx` (and the context half of `cuStreamGetCtx_v2`).
    pub fn stream_get_ctx(&self, stream: StreamHandle) -> CuResult<CtxHandle> {
        if is_default_stream(stream) {
            return Ok(self.current_context()?.handle);
        }
        Ok(self.stream(stream)?.ctx)
    }

    /// `cuStreamGetDevice` (CUDA 13).
    pub fn stream_get_device(&self, stream: StreamHandle) -> CuResult<i32> {
        Ok(self.stream_context(stream)?.device as i32)
    }

    /// `cuStreamGetId`: unique per stream; the legacy and per-thread default streams
    /// answer 1 and 2 of this driver's numbering (created streams start at 16).
    pub fn stream_get_id(&self, stream: StreamHandle) -> CuResult<u64> {
        if is_default_stream(stream) {
            self.current_context()?;
            return Ok(if stream.0 == STREAM_PER_THREAD { 2 } else { 1 });
        }
        Ok(self.stream(stream)?.id)
    }

    /// `cuStreamWaitEvent`: `flags` 0 or `CU_EVENT_WAIT_EXTERNAL` (1). Later work on the
    /// stream waits until the event's last record has completed (nothing to wait for if
    /// it was never recorded).
    pub fn stream_wait_event(&self, stream: StreamHandle, event: EventHandle, flags: u32) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        let e = self.event(event)?;
        if flags & !EVENT_WAIT_EXTERNAL != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamWaitEvent: flags {flags:#x}")));
        }
        // Stream capture: waiting for an event recorded in a capture joins it (the fork of
        // a fork/join); a capturing stream waiting for work outside its capture is an
        // isolation error unless the wait is external (an event wait node).
        if let Some(record) = e.captured() {
            return self.capture_join(&ctx, &q, &record);
        }
        if self.capture_gate(&ctx, &q, false)? {
            return match e.marker() {
                None => Ok(()),
                Some(_) if flags & EVENT_WAIT_EXTERNAL != 0 => self.capture_node(&q, crate::graph::NodeParams::WaitEvent(event)),
                Some(_) => {
                    if let Some(c) = self.capture_of(&q) {
                        c.invalidate();
                    }
                    Err(fail(CuError::STREAM_CAPTURE_ISOLATION, format_args!("cuStreamWaitEvent: a capturing stream waits for uncaptured work")))
                }
            };
        }
        self.wait_event_on(&ctx, &q, &e);
        Ok(())
    }

    /// Makes `q`'s later work wait for `e`'s last record (`cuStreamWaitEvent`, event wait
    /// nodes of graphs).
    pub(crate) fn wait_event_on(&self, ctx: &Context, q: &Arc<Queue>, e: &crate::event::Event) {
        if let Some(shared) = &e.shared {
            let target = shared.target();
            if shared.is_complete(target) {
                return;
            }
            if e.marker_of_shared(target).is_none() {
                // The last record is another process's: later work waits for the shared
                // counters on the stream's own thread.
                let shared = shared.clone();
                let wait: crate::exec::RunFn = Box::new(move || {
                    shared.wait(target);
                    Ok(())
                });
                self.submit(ctx, q, None, Work::Run(wait), false);
                return;
            }
        }
        if let Some(marker) = e.marker() {
            q.note_wait(&marker);
            if !marker.is_complete() && !Arc::ptr_eq(marker.queue(), q) {
                self.submit(ctx, q, Some(marker), Work::Nop, true);
            }
        }
    }

    /// `cuLaunchHostFunc` / `cuStreamAddCallback`: `f` runs on a driver thread once every
    /// earlier operation of the stream has completed, with the stream's status (the
    /// sticky error, if a kernel faulted); later operations wait for it to return.
    /// Callbacks with a status (`cuStreamAddCallback`) cannot be captured
    /// (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`, and the capture is invalidated).
    pub fn launch_host_func(&self, stream: StreamHandle, f: HostFn) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        if self.capture_gate(&ctx, &q, false)? {
            if let Some(c) = self.capture_of(&q) {
                c.invalidate();
            }
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("cuStreamAddCallback on a capturing stream")));
        }
        self.submit(&ctx, &q, None, Work::Host(f), false);
        Ok(())
    }

    /// `cuLaunchHostFunc`: as [`Driver::launch_host_func`]; on a capturing stream it adds a
    /// host node.
    pub fn launch_host_fn(&self, stream: StreamHandle, host: crate::graph::HostParams) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        if self.capture_gate(&ctx, &q, false)? {
            return self.capture_node(&q, crate::graph::NodeParams::Host(host));
        }
        let (func, data) = (host.func, host.user_data);
        // SAFETY: the program's function with its data, as cuLaunchHostFunc promises.
        let call: HostFn = Box::new(move |_status| unsafe { func(data as *mut std::ffi::c_void) });
        self.submit(&ctx, &q, None, Work::Host(call), false);
        Ok(())
    }
}
