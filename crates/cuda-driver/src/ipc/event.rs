//! Events shared between processes (`CU_EVENT_INTERPROCESS`, `cuIpcGetEventHandle`,
//! `cuIpcOpenEventHandle`).
//!
//! Such an event keeps two counters in a page of shared memory (a memfd the creating
//! process keeps open; others map it through `/proc/<pid>/fd/<n>`): how many records were
//! submitted and the highest record that has completed. A record, in any process, takes
//! the next number when submitted and marks it complete when the stream's earlier work
//! has run (or when its operation is dropped unrun after a fault, so that no process
//! waits forever). Querying, synchronizing and waiting compare the completion with the
//! last record submitted when they are called, which is what `cuStreamWaitEvent` and
//! `cuEventSynchronize` wait for ("the most recent call to cuEventRecord"); a wait for a
//! record of another process is a queued operation that polls the page.

use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use super::host;
use crate::diag::fail;
use crate::event::{Event, EVENT_DISABLE_TIMING, EVENT_INTERPROCESS};
use crate::{CuError, CuResult, Driver, EventHandle};

const EVENT_TAG: &[u8; 8] = b"cuIPCevt";
/// The first word of the shared page, so a mapped page is known to be an event's.
const PAGE_MAGIC: u64 = u64::from_le_bytes(*b"cuEvtRec");

/// The shared page's layout.
#[repr(C)]
struct Counters {
    magic: AtomicU64,
    submitted: AtomicU64,
    completed: AtomicU64,
}

/// An interprocess event's shared counters, mapped in this process.
pub(crate) struct SharedEvent {
    /// The page's file, held open by the process that created the event (its handle
    /// names this descriptor); `None` in processes that opened a handle.
    _file: Option<OwnedFd>,
    handle: [u8; 64],
    page: u64,
}

// SAFETY: the page is only accessed through atomics, from any thread.
unsafe impl Send for SharedEvent {}
// SAFETY: as above.
unsafe impl Sync for SharedEvent {}

impl Drop for SharedEvent {
    fn drop(&mut self) {
        host::unmap(self.page, std::mem::size_of::<Counters>() as u64);
    }
}

/// Marks a record complete when dropped: run or skipped, the record ends.
pub(crate) struct Completion {
    event: Arc<SharedEvent>,
    seq: u64,
}

impl Drop for Completion {
    fn drop(&mut self) {
        self.event.counters().completed.fetch_max(self.seq, Ordering::AcqRel);
    }
}

impl SharedEvent {
    /// A new event's counters (both 0: never recorded, complete).
    fn create() -> std::io::Result<SharedEvent> {
        let file = crate::vmm::host::memfd(host::page_size())?;
        let (inode, _) = host::identity(file.as_raw_fd())?;
        let page = host::map_shared(&file, 0, std::mem::size_of::<Counters>() as u64)?;
        let shared = SharedEvent {
            handle: host::encode(EVENT_TAG, &[host::pid() as u64, file.as_raw_fd() as u32 as u64, inode.0, inode.1]),
            _file: Some(file),
            page,
        };
        shared.counters().magic.store(PAGE_MAGIC, Ordering::Release);
        Ok(shared)
    }

    fn counters(&self) -> &Counters {
        // SAFETY: `page` is a live shared mapping of at least a page, aligned, that only
        // holds `Counters` (atomics: other processes may write it at any time).
        unsafe { &*(self.page as usize as *const Counters) }
    }

    /// Submits a record: its number, and what completes it.
    pub(crate) fn begin_record(self: &Arc<Self>) -> Completion {
        let seq = self.counters().submitted.fetch_add(1, Ordering::AcqRel) + 1;
        Completion { event: self.clone(), seq }
    }

    /// The last record submitted (0: never recorded).
    pub(crate) fn target(&self) -> u64 {
        self.counters().submitted.load(Ordering::Acquire)
    }

    pub(crate) fn is_complete(&self, target: u64) -> bool {
        self.counters().completed.load(Ordering::Acquire) >= target
    }

    /// Waits until record `target` (or a later one) has completed.
    pub(crate) fn wait(&self, target: u64) {
        let mut pause = Duration::from_micros(2);
        while !self.is_complete(target) {
            std::thread::sleep(pause);
            pause = (pause * 2).min(Duration::from_micros(500));
        }
    }
}

impl Completion {
    /// The record's number.
    pub(crate) fn seq(&self) -> u64 {
        self.seq
    }
}

/// The shared counters of a new `CU_EVENT_INTERPROCESS` event of device `device`, where
/// the device can share them.
pub(crate) fn for_new_event(driver: &Driver, device: usize, flags: u32) -> CuResult<Option<Arc<SharedEvent>>> {
    if flags & EVENT_INTERPROCESS == 0 || !driver.ipc_supported(device) {
        return Ok(None);
    }
    let shared = SharedEvent::create().map_err(|e| fail(CuError::OUT_OF_MEMORY, format_args!("cuEventCreate(CU_EVENT_INTERPROCESS): {e}")))?;
    Ok(Some(Arc::new(shared)))
}

impl Driver {
    /// `cuIpcGetEventHandle`: the event must have been created with
    /// `CU_EVENT_INTERPROCESS` in this process: another event, or one opened from a
    /// handle, is `CUDA_ERROR_INVALID_HANDLE`, as NVIDIA's driver answers.
    pub fn ipc_get_event_handle(&self, event: EventHandle) -> CuResult<[u8; 64]> {
        let e = self.event(event)?;
        let ctx = self.context(e.ctx)?;
        if e.flags & EVENT_INTERPROCESS == 0 {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuIpcGetEventHandle: the event was not created with CU_EVENT_INTERPROCESS")));
        }
        match &e.shared {
            Some(s) if s._file.is_none() => {
                Err(fail(CuError::INVALID_HANDLE, format_args!("cuIpcGetEventHandle: the event was opened from a handle")))
            }
            Some(s) => Ok(s.handle),
            None => Err(fail(CuError::NOT_SUPPORTED, format_args!("cuIpcGetEventHandle: device {} cannot share events", ctx.device))),
        }
    }

    /// `cuIpcOpenEventHandle`: an event of the current context that shares the exporting
    /// process's record (flags `CU_EVENT_INTERPROCESS | CU_EVENT_DISABLE_TIMING`; freed
    /// with `cuEventDestroy`).
    pub fn ipc_open_event_handle(&self, handle: &[u8; 64]) -> CuResult<EventHandle> {
        let ctx = self.current_context()?;
        // A handle that names no event is `CUDA_ERROR_MAP_FAILED`, as NVIDIA's driver
        // answers for a zeroed one.
        let Some(f) = host::decode(EVENT_TAG, handle) else {
            return Err(fail(CuError::MAP_FAILED, format_args!("cuIpcOpenEventHandle: not an IPC event handle")));
        };
        if !self.ipc_supported(ctx.device) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuIpcOpenEventHandle: device {} cannot share events", ctx.device)));
        }
        let (pid, fd, inode) = (f[0] as u32, f[1] as u32 as i32, (f[2], f[3]));
        if pid == host::pid() {
            return Err(fail(CuError::INVALID_CONTEXT, format_args!("cuIpcOpenEventHandle: the handle was exported by this process")));
        }
        let file = host::open_foreign(pid, fd, inode)
            .map_err(|e| fail(CuError::INVALID_HANDLE, format_args!("cuIpcOpenEventHandle: descriptor {fd} of process {pid}: {e}")))?;
        let page = host::map_shared(&file, 0, std::mem::size_of::<Counters>() as u64)
            .map_err(|e| fail(CuError::MAP_FAILED, format_args!("cuIpcOpenEventHandle: {e}")))?;
        let shared = SharedEvent { _file: None, handle: *handle, page };
        if shared.counters().magic.load(Ordering::Acquire) != PAGE_MAGIC {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuIpcOpenEventHandle: not an event's page")));
        }
        let flags = EVENT_INTERPROCESS | EVENT_DISABLE_TIMING;
        Ok(self.events.insert(Arc::new(Event::new(ctx.handle, flags, Some(Arc::new(shared))))))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn records_complete_when_run_or_dropped() {
        let e = Arc::new(SharedEvent::create().unwrap());
        assert_eq!(e.target(), 0);
        assert!(e.is_complete(0), "never recorded: complete");
        let first = e.begin_record();
        let second = e.begin_record();
        assert_eq!((first.seq(), second.seq(), e.target()), (1, 2, 2));
        assert!(!e.is_complete(1));
        drop(second);
        assert!(e.is_complete(2) && e.is_complete(1), "the most recent record completed");
        drop(first);
        assert!(e.is_complete(2), "an earlier record completing later changes nothing");
        e.wait(2);
    }
}
