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

use crate::diag::fail;
use crate::{CtxHandle, CuError, CuResult, Driver, EventHandle};

impl Driver {
    fn ctx_event_check(
        &self,
        ctx: CtxHandle,
        event: EventHandle,
        what: &str,
    ) -> CuResult<(std::sync::Arc<crate::context::Context>, std::sync::Arc<crate::event::Event>)> {
        let c = self.context(ctx)?;
        self.usable(&c)?;
        let e = self.event(event)?;
        if e.ctx != c.handle {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("{what}: the event belongs to another context")));
        }
        if self.context_capturing(&c) {
            self.invalidate_context_captures(&c);
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("{what}: a stream of the context is capturing")));
        }
        Ok((c, e))
    }

    /// `cuCtxRecordEvent(hCtx, hEvent)`.
    pub fn ctx_record_event(&self, ctx: CtxHandle, event: EventHandle) -> CuResult<()> {
        let (c, e) = self.ctx_event_check(ctx, event, "cuCtxRecordEvent")?;
        let queues = c.queues();
        let tails = queues.all_tails();
        let records = queues.records.clone();
        self.record_event_after(&e, &c, &records, tails);
        Ok(())
    }

    /// `cuCtxWaitEvent(hCtx, hEvent)`. An event never recorded has nothing to wait for.
    pub fn ctx_wait_event(&self, ctx: CtxHandle, event: EventHandle) -> CuResult<()> {
        let (c, e) = self.ctx_event_check(ctx, event, "cuCtxWaitEvent")?;
        if e.captured().is_some() {
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("cuCtxWaitEvent: the event was recorded in a capture")));
        }
        if let Some(m) = e.marker().filter(|m| !m.is_complete()) {
            c.queues().add_wait(m);
        }
        Ok(())
    }
}
