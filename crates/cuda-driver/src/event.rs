//! Events: `cuEventCreate`, `Record(WithFlags)`, `Query`, `Synchronize`, `ElapsedTime`,
//! `Destroy`.
//!
//! Recording takes a host timestamp: every earlier operation on the stream has already
//! completed when the record call runs (execution is synchronous), so that instant is
//! when the event completes. `cuEventElapsedTime` answers `CUDA_ERROR_INVALID_HANDLE`
//! when either event was never recorded or was created with `CU_EVENT_DISABLE_TIMING`
//! (driver API reference, `cuEventElapsedTime`).

use std::sync::{Arc, Mutex};
use std::time::Instant;

use crate::diag::fail;
use crate::{CtxHandle, CuError, CuResult, Driver, EventHandle, StreamHandle};

/// `CU_EVENT_BLOCKING_SYNC`.
pub const EVENT_BLOCKING_SYNC: u32 = 1;
/// `CU_EVENT_DISABLE_TIMING`.
pub const EVENT_DISABLE_TIMING: u32 = 2;
/// `CU_EVENT_INTERPROCESS` (needs `DISABLE_TIMING`).
pub const EVENT_INTERPROCESS: u32 = 4;

/// A created event.
pub struct Event {
    pub ctx: CtxHandle,
    pub flags: u32,
    recorded: Mutex<Option<Instant>>,
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
        Ok(self.events.insert(Arc::new(Event { ctx: ctx.handle, flags, recorded: Mutex::new(None) })))
    }

    /// `cuEventDestroy_v2`.
    pub fn event_destroy(&self, event: EventHandle) -> CuResult<()> {
        self.events.remove(event).map(|_| ()).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("cuEventDestroy({:#x}): {why:?}", event.0)))
    }

    /// `cuEventRecord`: the event completes now. The stream must belong to the event's
    /// context (`INVALID_HANDLE` otherwise).
    pub fn event_record(&self, event: EventHandle, stream: StreamHandle) -> CuResult<()> {
        let e = self.event(event)?;
        let ctx = self.stream_context(stream)?;
        if ctx.handle != e.ctx {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuEventRecord: event and stream are in different contexts")));
        }
        *e.recorded.lock().unwrap_or_else(|p| p.into_inner()) = Some(Instant::now());
        Ok(())
    }

    /// `cuEventRecordWithFlags`: `flags` 0 or `CU_EVENT_RECORD_EXTERNAL` (1).
    pub fn event_record_with_flags(&self, event: EventHandle, stream: StreamHandle, flags: u32) -> CuResult<()> {
        if flags & !1 != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuEventRecordWithFlags: flags {flags:#x}")));
        }
        self.event_record(event, stream)
    }

    /// `cuEventQuery`: complete (also when never recorded, as NVIDIA answers).
    pub fn event_query(&self, event: EventHandle) -> CuResult<()> {
        self.event(event).map(|_| ())
    }

    /// `cuEventSynchronize`: nothing is ever pending.
    pub fn event_synchronize(&self, event: EventHandle) -> CuResult<()> {
        let e = self.event(event)?;
        match self.context(e.ctx)?.sticky_error() {
            Some(err) => Err(err),
            None => Ok(()),
        }
    }

    /// `cuEventElapsedTime` (and `_v2`): milliseconds from `start` to `end`.
    pub fn event_elapsed_time(&self, start: EventHandle, end: EventHandle) -> CuResult<f32> {
        let (s, e) = (self.event(start)?, self.event(end)?);
        if (s.flags | e.flags) & EVENT_DISABLE_TIMING != 0 {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuEventElapsedTime: an event has CU_EVENT_DISABLE_TIMING")));
        }
        let (Some(t0), Some(t1)) = (*s.recorded.lock().unwrap_or_else(|p| p.into_inner()), *e.recorded.lock().unwrap_or_else(|p| p.into_inner())) else {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuEventElapsedTime: an event was never recorded")));
        };
        let ms = if t1 >= t0 { t1.duration_since(t0).as_secs_f64() * 1e3 } else { -(t0.duration_since(t1).as_secs_f64() * 1e3) };
        Ok(ms as f32)
    }
}
