//! External semaphores (driver API "External Resource Interoperability":
//! `cuImportExternalSemaphore`, `cuSignalExternalSemaphoresAsync`,
//! `cuWaitExternalSemaphoresAsync`, `cuDestroyExternalSemaphore`) and the graph nodes that
//! signal and wait for them.
//!
//! What a semaphore handle means on these devices, whose work runs on the host (a choice
//! of this driver; NVIDIA's fds come from Vulkan or another CUDA process's driver):
//! - `CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_OPAQUE_FD`: a binary semaphore over a Linux
//!   `eventfd`. A signal adds 1 to its counter, a wait blocks until the counter is non-zero
//!   and then reads it back to zero (the `read` of an eventfd without `EFD_SEMAPHORE`), so
//!   a program (or another process holding the eventfd) signals with `write` and waits
//!   with `read`, as it would with a Vulkan binary semaphore. The fence value of the
//!   signal and wait parameters is ignored, as for binary semaphores.
//! - `CU_EXTERNAL_SEMAPHORE_HANDLE_TYPE_TIMELINE_SEMAPHORE_FD`: a timeline semaphore, a
//!   64-bit counter in the first 8 bytes of a shared file (a `memfd`, at least 8 bytes
//!   long), mapped shared: a signal of value `v` raises the counter to `v` (timeline values
//!   only increase), a wait for `v` waits until the counter is at least `v`. Other
//!   mappings of the same file, in this process or another, see and set the same counter.
//! - Import takes ownership of the fd, as CUDA specifies: the driver closes it at
//!   `cuDestroyExternalSemaphore` (eventfd) or right after mapping it (timeline).
//! - Win32, D3D11/D3D12, keyed-mutex and NvSciSync handles name objects this system does
//!   not have: `CUDA_ERROR_NOT_SUPPORTED`.
//!
//! Signals and waits are stream operations: a wait holds its stream until the semaphore
//! is signaled (a stream that waits forever blocks its own queue only).

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd, RawFd};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use crate::diag::fail;
use crate::exec::Work;
use crate::handle::HandleTable;
use crate::{CuError, CuResult, Driver, ExtSemHandle, StreamHandle};

/// `CUexternalSemaphoreHandleType` values.
pub mod handle_type {
    pub const OPAQUE_FD: u32 = 1;
    pub const TIMELINE_SEMAPHORE_FD: u32 = 9;
    /// The last one CUDA 13 defines (`TIMELINE_SEMAPHORE_WIN32`).
    pub const LAST: u32 = 10;
}

/// One semaphore's signal or wait: `CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS` and `..._WAIT_
/// PARAMS` (the same 144-byte layout: fence value, NvSciSync fence, keyed-mutex key and
/// timeout, flags), as the graph node calls return them.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SemOp {
    pub fence_value: u64,
    pub nvsci_fence: u64,
    pub keyed_mutex_key: u64,
    pub keyed_mutex_timeout_ms: u32,
    pub reserved: [u32; 11],
    pub flags: u32,
    pub reserved2: [u32; 16],
}

const _: () = assert!(std::mem::size_of::<SemOp>() == 144);

/// `CUDA_EXTERNAL_SEMAPHORE_SIGNAL_SKIP_NVSCIBUF_MEMSYNC` /
/// `..._WAIT_SKIP_NVSCIBUF_MEMSYNC`: the only flag, meaningful for NvSciSync only.
const SKIP_NVSCIBUF_MEMSYNC: u32 = 1;

enum Sem {
    /// A binary semaphore: an eventfd.
    Binary(OwnedFd),
    /// A timeline semaphore: the shared mapping of its counter.
    Timeline(*const AtomicU64),
}

/// A `CUexternalSemaphore`.
pub struct ExtSemaphore {
    sem: Sem,
}

// SAFETY: the timeline mapping is shared memory that stays mapped until drop and is only
// accessed atomically.
unsafe impl Send for ExtSemaphore {}
// SAFETY: as above.
unsafe impl Sync for ExtSemaphore {}

impl Drop for ExtSemaphore {
    fn drop(&mut self) {
        if let Sem::Timeline(p) = self.sem {
            // SAFETY: the 8-byte mapping made at import.
            unsafe { libc::munmap(p as *mut libc::c_void, 8) };
        }
    }
}

impl ExtSemaphore {
    fn signal(&self, value: u64) -> io::Result<()> {
        match &self.sem {
            Sem::Binary(fd) => {
                let one = 1u64.to_ne_bytes();
                // SAFETY: 8 readable bytes, an eventfd write.
                let n = unsafe { libc::write(fd.as_raw_fd(), one.as_ptr().cast(), 8) };
                if n == 8 {
                    Ok(())
                } else {
                    Err(io::Error::last_os_error())
                }
            }
            Sem::Timeline(p) => {
                // SAFETY: the live shared mapping.
                unsafe { &**p }.fetch_max(value, Ordering::AcqRel);
                Ok(())
            }
        }
    }

    fn wait(&self, value: u64) -> io::Result<()> {
        match &self.sem {
            Sem::Binary(fd) => loop {
                let mut pfd = libc::pollfd { fd: fd.as_raw_fd(), events: libc::POLLIN, revents: 0 };
                // SAFETY: one pollfd.
                if unsafe { libc::poll(&mut pfd, 1, -1) } < 0 {
                    let e = io::Error::last_os_error();
                    if e.kind() == io::ErrorKind::Interrupted {
                        continue;
                    }
                    return Err(e);
                }
                let mut buf = [0u8; 8];
                // SAFETY: 8 writable bytes; an eventfd read (non-blocking ones answer EAGAIN
                // when another reader was first, and the poll starts over).
                let n = unsafe { libc::read(fd.as_raw_fd(), buf.as_mut_ptr().cast(), 8) };
                if n == 8 {
                    return Ok(());
                }
                let e = io::Error::last_os_error();
                if !matches!(e.kind(), io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted) {
                    return Err(e);
                }
            },
            Sem::Timeline(p) => {
                // SAFETY: the live shared mapping.
                let counter = unsafe { &**p };
                let mut pause = Duration::from_micros(1);
                while counter.load(Ordering::Acquire) < value {
                    std::thread::sleep(pause);
                    pause = (pause * 2).min(Duration::from_millis(1));
                }
                Ok(())
            }
        }
    }
}

/// Whether `fd` is an eventfd (`/proc/self/fd/N` names `anon_inode:[eventfd]`).
fn is_eventfd(fd: RawFd) -> bool {
    std::fs::read_link(format!("/proc/self/fd/{fd}")).is_ok_and(|p| p.as_os_str() == "anon_inode:[eventfd]")
}

/// Maps the counter of a timeline semaphore's file.
fn map_timeline(fd: RawFd) -> io::Result<*const AtomicU64> {
    // SAFETY: an all-zero stat is a valid out-value.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is writable.
    if unsafe { libc::fstat(fd, &mut st) } != 0 {
        return Err(io::Error::last_os_error());
    }
    if st.st_mode & libc::S_IFMT != libc::S_IFREG || st.st_size < 8 {
        return Err(io::Error::new(io::ErrorKind::InvalidInput, "not a regular file of at least 8 bytes"));
    }
    // SAFETY: a fresh shared mapping of the file's first 8 bytes.
    let p = unsafe { libc::mmap(std::ptr::null_mut(), 8, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd, 0) };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(p as *const AtomicU64)
}

/// The external semaphores of a driver.
pub(crate) type Table = HandleTable<ExtSemaphore, ExtSemHandle>;

/// A prepared signal or wait of several semaphores.
pub(crate) struct SemWork {
    sems: Vec<(Arc<ExtSemaphore>, u64)>,
    signal: bool,
}

impl SemWork {
    pub(crate) fn run(&self) -> Result<(), backend_api::DeviceError> {
        for (s, v) in &self.sems {
            let r = if self.signal { s.signal(*v) } else { s.wait(*v) };
            // Only an eventfd at its counter's limit fails; no CUresult says so better.
            r.map_err(|e| backend_api::DeviceError::NotSupported(format!("external semaphore: {e}")))?;
        }
        Ok(())
    }
}

impl Driver {
    fn ext_sem(&self, h: ExtSemHandle) -> CuResult<Arc<ExtSemaphore>> {
        self.ext_sems.get(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("external semaphore {:#x}: {why:?}", h.0)))
    }

    /// `cuImportExternalSemaphore` of an fd (`OPAQUE_FD` or `TIMELINE_SEMAPHORE_FD`; see the
    /// module docs); other handle types answer [`Driver::import_ext_sem_other`].
    pub fn import_ext_sem_fd(&self, ty: u32, fd: RawFd, flags: u32) -> CuResult<ExtSemHandle> {
        self.current_context()?;
        if flags != 0 || fd < 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuImportExternalSemaphore: fd {fd}, flags {flags:#x}")));
        }
        let sem = match ty {
            handle_type::OPAQUE_FD if is_eventfd(fd) => {
                // SAFETY: the caller hands the fd over (CUDA: ownership transfers at import).
                Sem::Binary(unsafe { OwnedFd::from_raw_fd(fd) })
            }
            handle_type::TIMELINE_SEMAPHORE_FD => {
                let p = map_timeline(fd).map_err(|e| fail(CuError::INVALID_VALUE, format_args!("timeline semaphore fd {fd}: {e}")))?;
                // SAFETY: ours now; the mapping stays valid after the close.
                unsafe { libc::close(fd) };
                Sem::Timeline(p)
            }
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("cuImportExternalSemaphore: fd {fd} is not an eventfd"))),
        };
        Ok(self.ext_sems.insert(Arc::new(ExtSemaphore { sem })))
    }

    /// `cuImportExternalSemaphore` of a handle type that is not an fd.
    pub fn import_ext_sem_other(&self, ty: u32) -> CuResult<ExtSemHandle> {
        self.current_context()?;
        if ty == 0 || ty > handle_type::LAST {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuImportExternalSemaphore: handle type {ty}")));
        }
        Err(fail(CuError::NOT_SUPPORTED, format_args!("cuImportExternalSemaphore: handle type {ty} has no object on this system")))
    }

    /// `cuDestroyExternalSemaphore`: signals and waits already queued still complete.
    pub fn destroy_ext_sem(&self, h: ExtSemHandle) -> CuResult<()> {
        self.ext_sems
            .remove(h)
            .map(drop)
            .map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("cuDestroyExternalSemaphore({:#x}): {why:?}", h.0)))
    }

    /// Checks a list of semaphore operations (the async calls and the graph nodes).
    pub(crate) fn sem_work(&self, sems: &[ExtSemHandle], ops: &[SemOp], signal: bool) -> CuResult<SemWork> {
        let mut out = Vec::with_capacity(sems.len());
        for (&h, op) in sems.iter().zip(ops) {
            if op.flags & !SKIP_NVSCIBUF_MEMSYNC != 0 {
                return Err(fail(CuError::INVALID_VALUE, format_args!("external semaphore operation: flags {:#x}", op.flags)));
            }
            out.push((self.ext_sem(h)?, op.fence_value));
        }
        Ok(SemWork { sems: out, signal })
    }

    /// Checks an external semaphore node's parameters (`cuGraphAddExternalSemaphores*Node`,
    /// their `SetParams`): live semaphores, known flags.
    pub fn sem_node_params(&self, sems: &[ExtSemHandle], ops: &[SemOp]) -> CuResult<crate::graph::SemNodeParams> {
        self.sem_work(sems, ops, true)?;
        Ok(crate::graph::SemNodeParams { sems: sems.into(), ops: ops.into() })
    }

    /// `cuSignalExternalSemaphoresAsync` / `cuWaitExternalSemaphoresAsync`: one stream
    /// operation for all of them, in order (a capturing stream records a graph node).
    pub fn ext_sems_async(&self, sems: &[ExtSemHandle], ops: &[SemOp], signal: bool, stream: StreamHandle) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        let work = self.sem_work(sems, ops, signal)?;
        if self.capture_gate(&ctx, &q, false)? {
            let node = crate::graph::SemNodeParams { sems: sems.into(), ops: ops.into() };
            let params = if signal { crate::graph::NodeParams::ExtSemSignal(node) } else { crate::graph::NodeParams::ExtSemWait(node) };
            return self.capture_node(&q, params);
        }
        self.submit(&ctx, &q, None, Work::Run(Box::new(move || work.run())), false);
        Ok(())
    }
}
