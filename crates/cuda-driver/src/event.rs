//! Events: `cuEventCreate`, `Record(WithFlags)`, `Query`, `Synchronize`, `ElapsedTime`,
//! `Destroy`.
//!
//! Recording an event submits a *record* operation to the stream; the event remembers the
//! marker of its last record ([`crate::exec::Marker`]). The record operation runs when
//! every earlier operation of the stream has completed and takes the time then, so
//! `cuEventElapsedTime` measures from when the work before one record finished to when
//! the work before the other finished. An event never recorded counts as complete.
//! `cuEventElapsedTime` answers `CUDA_ERROR_INVALID_HANDLE` when either event was never
//! recorded or was created with `CU_EVENT_DISABLE_TIMING`, and `CUDA_ERROR_NOT_READY`
//! while a record has not completed (driver API reference, `cuEventElapsedTime`).

use std::sync::{Arc, Mutex};

use crate::context::Context;
use crate::diag::fail;
use crate::exec::{Marker, Queue, Stamp, Work};
use crate::graph::capture::CapturedRecord;
use crate::graph::NodeParams;
use crate::ipc::event::SharedEvent;
use crate::{CtxHandle, CuError, CuResult, Driver, EventHandle, StreamHandle};

/// `CU_EVENT_BLOCKING_SYNC`.
pub const EVENT_BLOCKING_SYNC: u32 = 1;
/// `CU_EVENT_DISABLE_TIMING`.
pub const EVENT_DISABLE_TIMING: u32 = 2;
/// `CU_EVENT_INTERPROCESS` (needs `DISABLE_TIMING`).
pub const EVENT_INTERPROCESS: u32 = 4;

/// The last record of an event.
struct Recorded {
    marker: Marker,
    stamp: Arc<Stamp>,
    /// For an interprocess event: the record's number in the shared counters.
    shared_seq: u64,
}

/// A created event.
pub struct Event {
    pub ctx: CtxHandle,
    pub flags: u32,
    recorded: Mutex<Option<Recorded>>,
    /// Set while the event's last record was in a capturing stream (it then names nodes
    /// of the capture's graph, not a point of a queue).
    captured: Mutex<Option<CapturedRecord>>,
    /// A `CU_EVENT_INTERPROCESS` event's record, shared with other processes
    /// ([`crate::ipc::event`]).
    pub(crate) shared: Option<Arc<SharedEvent>>,
}

impl Event {
    pub(crate) fn new(ctx: CtxHandle, flags: u32, shared: Option<Arc<SharedEvent>>) -> Event {
        Event { ctx, flags, recorded: Mutex::new(None), captured: Mutex::new(None), shared }
    }

    /// The local marker of the last record if it is also the last record any process
    /// submitted to the shared counters (or the event is not shared).
    pub(crate) fn marker_of_shared(&self, target: u64) -> Option<Marker> {
        let recorded = self.recorded.lock().unwrap_or_else(|p| p.into_inner());
        recorded.as_ref().filter(|r| r.shared_seq == target).map(|r| r.marker.clone())
    }

    /// The marker of the last record, if any.
    pub(crate) fn marker(&self) -> Option<Marker> {
        self.recorded.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map(|r| r.marker.clone())
    }

    /// The capture record of the event, while that capture is in progress.
    pub(crate) fn captured(&self) -> Option<CapturedRecord> {
        self.captured.lock().unwrap_or_else(|p| p.into_inner()).as_ref().filter(|r| r.capture.is_active()).cloned()
    }

    /// `CUDA_ERROR_CAPTURED_EVENT` (and the capture invalidated) for operations that are
    /// not permitted on an event last recorded in a capturing stream.
    fn not_captured(&self, what: &str) -> CuResult<()> {
        match self.captured() {
            Some(r) => {
                r.capture.invalidate();
                Err(fail(CuError::CAPTURED_EVENT, format_args!("{what}: the event was last recorded in a capturing stream")))
            }
            None => Ok(()),
        }
    }

    fn last(&self) -> Option<(Marker, Arc<Stamp>)> {
        self.recorded.lock().unwrap_or_else(|p| p.into_inner()).as_ref().map(|r| (r.marker.clone(), r.stamp.clone()))
    }
}

impl Driver {
    pub(crate) fn event(&self, event: EventHandle) -> CuResult<Arc<Event>> {
        self.events.get(event).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("event handle {:#x}: {why:?}", event.0)))
    }

    /// `cuEventCreate`.
    pub fn event_create(&self, flags: u32) -> CuResult<EventHandle> {
        let ctx = self.current_context()?;
        let valid = EVENT_BLOCKING_SYNC | EVENT_DISABLE_TIMING | EVENT_INTERPROCESS;
        if flags & !valid != 0 || (flags & EVENT_INTERPROCESS != 0 && flags & EVENT_DISABLE_TIMING == 0) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuEventCreate: flags {flags:#x}")));
        }
        let shared = crate::ipc::event::for_new_event(self, ctx.device, flags)?;
        Ok(self.events.insert(Arc::new(Event::new(ctx.handle, flags, shared))))
    }

    /// `cuEventDestroy_v2`: returns at once, even if a record is pending.
    pub fn event_destroy(&self, event: EventHandle) -> CuResult<()> {
        self.events.remove(event).map(|_| ()).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("cuEventDestroy({:#x}): {why:?}", event.0)))
    }

    /// `cuEventRecord`: the event completes when the stream's earlier work has. The stream
    /// must belong to the event's context (`INVALID_HANDLE` otherwise).
    pub fn event_record(&self, event: EventHandle, stream: StreamHandle) -> CuResult<()> {
        self.event_record_flagged(event, stream, false)
    }

    /// A record in a capture adds no node unless it is external (`CU_EVENT_RECORD_EXTERNAL`):
    /// then it is an event record node, which records the event when the graph runs.
    fn event_record_flagged(&self, event: EventHandle, stream: StreamHandle, external: bool) -> CuResult<()> {
        let e = self.event(event)?;
        let (ctx, q) = self.stream_queue(stream)?;
        if ctx.handle != e.ctx {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuEventRecord: event and stream are in different contexts")));
        }
        if self.capture_gate(&ctx, &q, false)? {
            if external {
                return self.capture_node(&q, NodeParams::EventRecord(event));
            }
            // In a capture a record adds no node: the event stands for the stream's
            // current dependencies, for streams that wait for it to join or depend on.
            let record = self.capture_record(&q)?;
            *e.captured.lock().unwrap_or_else(|p| p.into_inner()) = record;
            return Ok(());
        }
        self.record_event_on(&e, &ctx, &q);
        Ok(())
    }

    /// Submits a record of `e` to `q` (`cuEventRecord`, event record nodes of graphs).
    pub(crate) fn record_event_on(&self, e: &Event, ctx: &Context, q: &Arc<Queue>) {
        self.record_event_after(e, ctx, q, None);
    }

    /// As [`Driver::record_event_on`], the record also waiting for `deps`
    /// (`cuCtxRecordEvent`).
    pub(crate) fn record_event_after(&self, e: &Event, ctx: &Context, q: &Arc<Queue>, deps: impl IntoIterator<Item = Marker>) {
        *e.captured.lock().unwrap_or_else(|p| p.into_inner()) = None;
        // Held while the record is queued, so other calls see the old record or the new
        // one. Queued work never takes an event's lock, so this cannot deadlock.
        let mut recorded = e.recorded.lock().unwrap_or_else(|p| p.into_inner());
        if let Some(shared) = &e.shared {
            // The record completes in the shared counters when it runs (or is dropped).
            let completion = shared.begin_record();
            let shared_seq = completion.seq();
            let run: crate::exec::RunFn = Box::new(move || {
                drop(completion);
                Ok(())
            });
            let marker = self.submit_after(ctx, q, deps, Work::Run(run), true);
            *recorded = Some(Recorded { marker, stamp: Arc::new(Stamp::new()), shared_seq });
            return;
        }
        // The last record's stamp is reused once its operation has run and nobody else
        // reads it: recording an event allocates nothing in steady state.
        let reused = recorded.as_mut().and_then(|r| Arc::get_mut(&mut r.stamp).map(|s| *s = Stamp::new()).map(|()| r.stamp.clone()));
        let stamp = reused.unwrap_or_else(|| Arc::new(Stamp::new()));
        let marker = self.submit_after(ctx, q, deps, Work::Record(stamp.clone()), true);
        *recorded = Some(Recorded { marker, stamp, shared_seq: 0 });
    }

    /// `cuEventRecordWithFlags`: `flags` 0 or `CU_EVENT_RECORD_EXTERNAL` (1).
    pub fn event_record_with_flags(&self, event: EventHandle, stream: StreamHandle, flags: u32) -> CuResult<()> {
        if flags & !1 != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuEventRecordWithFlags: flags {flags:#x}")));
        }
        self.event_record_flagged(event, stream, flags & 1 != 0)
    }

    /// `cuEventQuery`: `CUDA_SUCCESS` once the last record has completed (or if never
    /// recorded), `CUDA_ERROR_NOT_READY` before. An event last recorded in a capture that
    /// has ended names no point of any stream: `CUDA_ERROR_INVALID_VALUE`, as an H200 answers.
    pub fn event_query(&self, event: EventHandle) -> CuResult<()> {
        let e = self.event(event)?;
        e.not_captured("cuEventQuery")?;
        if e.captured.lock().unwrap_or_else(|p| p.into_inner()).is_some() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuEventQuery: the event was last recorded in a capture that has ended")));
        }
        if let Some(shared) = &e.shared {
            return if shared.is_complete(shared.target()) { Ok(()) } else { Err(CuError::NOT_READY) };
        }
        match e.marker() {
            Some(m) if !m.is_complete() => Err(CuError::NOT_READY),
            _ => Ok(()),
        }
    }

    /// `cuEventSynchronize`: waits for the last record; reports the context's sticky error.
    pub fn event_synchronize(&self, event: EventHandle) -> CuResult<()> {
        let e = self.event(event)?;
        e.not_captured("cuEventSynchronize")?;
        if let Some(shared) = &e.shared {
            // A record of another process is waited for in the shared counters.
            let target = shared.target();
            if e.marker_of_shared(target).is_none() {
                shared.wait(target);
            }
        }
        if let Some(m) = e.marker() {
            m.wait();
            self.pools_after_sync(Some(m.queue()));
        }
        let ctx = self.context(e.ctx)?;
        self.flush_output(&ctx);
        match ctx.sticky_error() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// `cuEventElapsedTime` (and `_v2`): milliseconds from `start` to `end`.
    pub fn event_elapsed_time(&self, start: EventHandle, end: EventHandle) -> CuResult<f32> {
        let (s, e) = (self.event(start)?, self.event(end)?);
        s.not_captured("cuEventElapsedTime")?;
        e.not_captured("cuEventElapsedTime")?;
        if (s.flags | e.flags) & EVENT_DISABLE_TIMING != 0 {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuEventElapsedTime: an event has CU_EVENT_DISABLE_TIMING")));
        }
        let (Some((m0, s0)), Some((m1, s1))) = (s.last(), e.last()) else {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuEventElapsedTime: an event was never recorded")));
        };
        if !m0.is_complete() || !m1.is_complete() {
            return Err(CuError::NOT_READY);
        }
        let (Some(&t0), Some(&t1)) = (s0.get(), s1.get()) else {
            // Completed without running (skipped after a kernel fault).
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuEventElapsedTime: a record did not run")));
        };
        let ms = if t1 >= t0 { t1.duration_since(t0).as_secs_f64() * 1e3 } else { -(t0.duration_since(t1).as_secs_f64() * 1e3) };
        Ok(ms as f32)
    }
}
