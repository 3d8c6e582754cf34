//! Streams: `cuStreamCreate*`, `Destroy`, `Synchronize`, `Query`, `GetFlags`,
//! `GetPriority`, `GetCtx`, `GetDevice`, `GetId`, `WaitEvent`, host functions.
//!
//! Work runs synchronously, so a stream never has pending work: `Query` answers success
//! and `Synchronize` only waits for the device and reports a sticky error. Streams are
//! still real objects of their context, with validated handles. The default streams are
//! the values 0 (NULL), `CU_STREAM_LEGACY` (1) and `CU_STREAM_PER_THREAD` (2); they are
//! valid everywhere and mean the current context's default stream.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::context::Context;
use crate::diag::fail;
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

/// A created stream.
pub struct Stream {
    pub ctx: CtxHandle,
    pub flags: u32,
    pub priority: i32,
    /// `cuStreamGetId`.
    pub id: u64,
}

static NEXT_STREAM_ID: AtomicU64 = AtomicU64::new(16);

/// Whether `stream` is one of the default-stream values.
pub fn is_default_stream(stream: StreamHandle) -> bool {
    stream.0 == 0 || stream.0 == STREAM_LEGACY || stream.0 == STREAM_PER_THREAD
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

    /// `cuStreamCreate`: `flags` is `CU_STREAM_DEFAULT` (0) or `CU_STREAM_NON_BLOCKING` (1).
    pub fn stream_create(&self, flags: u32) -> CuResult<StreamHandle> {
        self.stream_create_with_priority(flags, LEAST_PRIORITY)
    }

    /// `cuStreamCreateWithPriority`: priorities outside the range are clamped, as NVIDIA does.
    pub fn stream_create_with_priority(&self, flags: u32, priority: i32) -> CuResult<StreamHandle> {
        let ctx = self.current_context()?;
        if flags & !STREAM_NON_BLOCKING != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamCreate: flags {flags:#x}")));
        }
        let priority = priority.clamp(GREATEST_PRIORITY, LEAST_PRIORITY);
        let id = NEXT_STREAM_ID.fetch_add(1, Ordering::Relaxed);
        Ok(self.streams.insert(Arc::new(Stream { ctx: ctx.handle, flags, priority, id })))
    }

    /// `cuStreamDestroy_v2`. Default streams cannot be destroyed (`INVALID_HANDLE`).
    pub fn stream_destroy(&self, stream: StreamHandle) -> CuResult<()> {
        self.streams.remove(stream).map(|_| ()).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("cuStreamDestroy({:#x}): {why:?}", stream.0)))
    }

    /// `cuStreamSynchronize`: waits for the device; reports a sticky error.
    pub fn stream_synchronize(&self, stream: StreamHandle) -> CuResult<()> {
        let ctx = self.stream_context(stream)?;
        self.device_synchronize(&ctx)
    }

    /// `cuStreamQuery`: all work is complete (`CUDA_SUCCESS`), unless the context is poisoned.
    pub fn stream_query(&self, stream: StreamHandle) -> CuResult<()> {
        self.stream_context(stream).map(|_| ())
    }

    /// `cuStreamGetFlags`.
    pub fn stream_get_flags(&self, stream: StreamHandle) -> CuResult<u32> {
        if is_default_stream(stream) {
            self.current_context()?;
            return Ok(0);
        }
        Ok(self.stream(stream)?.flags)
    }

    /// `cuStreamGetPriority`.
    pub fn stream_get_priority(&self, stream: StreamHandle) -> CuResult<i32> {
        if is_default_stream(stream) {
            self.current_context()?;
            return Ok(LEAST_PRIORITY);
        }
        Ok(self.stream(stream)?.priority)
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
    /// answer 1 and 2... of this driver's numbering (created streams start at 16).
    pub fn stream_get_id(&self, stream: StreamHandle) -> CuResult<u64> {
        if is_default_stream(stream) {
            self.current_context()?;
            return Ok(if stream.0 == STREAM_PER_THREAD { 2 } else { 1 });
        }
        Ok(self.stream(stream)?.id)
    }

    /// `cuStreamWaitEvent`: `flags` 0 or `CU_EVENT_WAIT_EXTERNAL` (1). Nothing to wait for.
    pub fn stream_wait_event(&self, stream: StreamHandle, event: EventHandle, flags: u32) -> CuResult<()> {
        self.stream_context(stream)?;
        self.event(event)?;
        if flags & !1 != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamWaitEvent: flags {flags:#x}")));
        }
        Ok(())
    }

    /// `cuLaunchHostFunc` / `cuStreamAddCallback`: runs `f` now, in stream order (every
    /// earlier operation on the stream has completed). The ABI wraps the C callback.
    pub fn launch_host_func(&self, stream: StreamHandle, f: impl FnOnce(CuResult<()>)) -> CuResult<()> {
        let ctx = self.stream_context(stream)?;
        let status = self.device_synchronize(&ctx);
        f(status);
        Ok(())
    }
}
