//! `cuCtxRecordEvent` and `cuCtxWaitEvent` (CUDA Driver API, "Context Management",
//! CUDA 12.5): events over all of a context's work rather than one stream's.
//!
//! A context record captures everything submitted to the context so far, on every
//! stream: it is a record operation on a queue of its own ([`crate::exec::ContextQueues`]
//! `records`, a queue of no stream) that depends on the tail of every queue of the
//! context. The event then completes when all that work has, and `cuEventQuery`,
//! `cuEventSynchronize`, `cuStreamWaitEvent` and `cuEventElapsedTime` treat it as any
//! record. A context wait makes all work submitted to the context afterwards, on any
//! stream (also streams created later), wait for the event's last record.
//!
//! As the reference says and NVIDIA's driver answers (580.159, H200): the context must be
//! given (NULL is `CUDA_ERROR_INVALID_CONTEXT`, not the current one), the event must
//! belong to it (`CUDA_ERROR_INVALID_HANDLE` otherwise), and neither call is allowed while
//! a stream of the context is capturing (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`; the
//! capture is invalidated).

use std::sync::Arc;

use crate::context::Context;
use crate::diag::fail;
use crate::event::Event;
use crate::{CtxHandle, CuError, CuResult, Driver, EventHandle};

impl Driver {
    fn ctx_event_check(&self, ctx: CtxHandle, event: EventHandle, what: &str) -> CuResult<(Arc<Context>, Arc<Event>)> {
        let c = self.context(ctx)?;
        self.usable(&c)?;
        let e = self.event(event)?;
        if e.ctx != c.handle {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("{what}: the event belongs to another context")));
        }
        Ok((c, e))
    }

    /// Refuses a context event while a stream of `c` captures (and invalidates the capture).
    fn ctx_event_not_capturing(&self, c: &Context, what: &str) -> CuResult<()> {
        if self.context_capturing(c) {
            self.invalidate_context_captures(c);
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("{what}: a stream of the context is capturing")));
        }
        Ok(())
    }

    /// Records `e` after all work submitted to `c` so far (`cuCtxRecordEvent`,
    /// `cuGreenCtxRecordEvent`).
    pub(crate) fn record_context_work(&self, c: &Context, e: &Event, what: &str) -> CuResult<()> {
        self.ctx_event_not_capturing(c, what)?;
        let queues = c.queues();
        let tails = queues.all_tails();
        let records = queues.records.clone();
        self.record_event_after(e, c, &records, tails);
        Ok(())
    }

    /// Makes all later work of `c` wait for `e`'s last record (`cuCtxWaitEvent`,
    /// `cuGreenCtxWaitEvent`). An event never recorded has nothing to wait for.
    pub(crate) fn context_wait_for(&self, c: &Context, e: &Event, what: &str) -> CuResult<()> {
        self.ctx_event_not_capturing(c, what)?;
        if e.captured().is_some() {
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("{what}: the event was recorded in a capture")));
        }
        if let Some(m) = e.marker().filter(|m| !m.is_complete()) {
            c.queues().add_wait(m);
        }
        Ok(())
    }

    /// `cuCtxRecordEvent(hCtx, hEvent)`.
    pub fn ctx_record_event(&self, ctx: CtxHandle, event: EventHandle) -> CuResult<()> {
        let (c, e) = self.ctx_event_check(ctx, event, "cuCtxRecordEvent")?;
        self.record_context_work(&c, &e, "cuCtxRecordEvent")
    }

    /// `cuCtxWaitEvent(hCtx, hEvent)`.
    pub fn ctx_wait_event(&self, ctx: CtxHandle, event: EventHandle) -> CuResult<()> {
        let (c, e) = self.ctx_event_check(ctx, event, "cuCtxWaitEvent")?;
        self.context_wait_for(&c, &e, "cuCtxWaitEvent")
    }
}
