//! Interprocess communication (CUDA Driver API, "Memory Management": `cuIpcGetMemHandle`,
//! `cuIpcOpenMemHandle`, `cuIpcCloseMemHandle`, `cuIpcGetEventHandle`,
//! `cuIpcOpenEventHandle`; "Stream Ordered Memory Allocator": pools shared as POSIX file
//! descriptors, [`pool`]) between processes of one machine, on devices whose memory the
//! host addresses (the CPU device).
//!
//! Device memory is host memory of the process, so sharing it means sharing a file:
//! - `cuIpcGetMemHandle` asks the backend to turn the allocation into a shared file
//!   mapping at the same address (`backend_api::Device::share`; on the CPU device a memfd
//!   takes the allocation's pages, which hold no other data of the process: a large
//!   allocation's own, a small one's chunk of device memory). Every context's queued work
//!   is waited for first, so no kernel writes the range while its bytes move; a copy
//!   another host thread submits meanwhile could still be lost. The 64-byte handle names
//!   the exporter's process id, its descriptor number and the file's identity (`st_dev`,
//!   `st_ino`, which tells a reused descriptor number from the file), and the
//!   allocation's offset and size. A pointer inside an allocation exports the allocation
//!   (NVIDIA's driver accepts one too), which opens at its base.
//! - `cuIpcOpenMemHandle` reopens that descriptor through `/proc/<pid>/fd/<n>` (or
//!   `pidfd_getfd`) and maps the file shared; the range is registered as
//!   [`MemoryKind::FileMap`] in the opening context. Opening a handle again in the same
//!   context counts a reference and gives the same address ("If the memory handle has
//!   already been opened by the current context, the reference count on the handle is
//!   incremented by 1 and the existing device pointer is returned");
//!   `cuIpcCloseMemHandle` unmaps at the last reference.
//! - Events ([`event`]): an event created with `CU_EVENT_INTERPROCESS` keeps its record
//!   count and completion count in a page of shared memory, which other processes map.
//!
//! Both processes must run as the same user (what `/proc/<pid>/fd` asks). The exporter's
//! memory lives while any process maps it, even after `cuMemFree` in the exporter.

pub(crate) mod event;
pub(crate) mod host;
pub mod pool;

use std::collections::HashMap;
use std::sync::{Mutex, MutexGuard};

use backend_api::DevicePtr;

use crate::diag::fail;
use crate::memory::{Allocation, FileMapOrigin, MemoryKind};
use crate::{CtxHandle, CuError, CuResult, Driver};

/// `CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS`.
pub const IPC_MEM_LAZY_ENABLE_PEER_ACCESS: u32 = 1;

const MEM_TAG: &[u8; 8] = b"cuIPCmem";

/// What a `CUipcMemHandle` says.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct MemHandleData {
    pid: u32,
    fd: i32,
    inode: (u64, u64),
    /// Where the exported pointer is in the file, and the bytes from there to the end of
    /// its allocation.
    offset: u64,
    size: u64,
}

impl MemHandleData {
    fn encode(&self) -> [u8; 64] {
        host::encode(MEM_TAG, &[self.pid as u64, self.fd as u32 as u64, self.inode.0, self.inode.1, self.offset, self.size])
    }

    fn decode(bytes: &[u8; 64]) -> Option<MemHandleData> {
        let f = host::decode(MEM_TAG, bytes)?;
        Some(MemHandleData { pid: u32::try_from(f[0]).ok()?, fd: f[1] as u32 as i32, inode: (f[2], f[3]), offset: f[4], size: f[5] })
    }
}

/// Opened IPC memory: `(context, file identity, offset) -> (address, references)`. Small
/// allocations share a file (their chunk) at different offsets.
type Opened = HashMap<(CtxHandle, (u64, u64), u64), (DevicePtr, u32)>;

/// The IPC memory opened in this process.
#[derive(Default)]
pub(crate) struct State {
    opened: Mutex<Opened>,
}

impl State {
    fn opened(&self) -> MutexGuard<'_, Opened> {
        self.opened.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Unmaps a [`MemoryKind::FileMap`] range (the pages around it).
pub(crate) fn unmap_range(base: u64, size: u64) {
    host::unmap(base, size);
}

fn io_fail(code: CuError, what: std::fmt::Arguments<'_>, err: std::io::Error) -> CuError {
    fail(code, format_args!("{what}: {err}"))
}

impl Driver {
    /// Whether device `device` can share memory and events with other processes here.
    pub(crate) fn ipc_supported(&self, device: usize) -> bool {
        self.devices[device].backend.properties().host_addressable_memory
    }

    /// `cuIpcGetMemHandle`: the handle of the `cuMemAlloc` allocation `ptr` points into
    /// (NVIDIA's driver accepts a pointer inside one too; the handle opens at the
    /// allocation's base). Other memory (managed, pool, host) is `INVALID_VALUE`, as
    /// NVIDIA's driver answers (H200, driver 580.159, `tools/gpu_ipc_check.c`).
    pub fn ipc_get_mem_handle(&self, ptr: DevicePtr) -> CuResult<[u8; 64]> {
        self.current_context()?;
        let a = match self.memory.find(ptr) {
            Some(a) if a.kind == MemoryKind::Device => a,
            other => {
                return Err(fail(CuError::INVALID_VALUE, format_args!("cuIpcGetMemHandle({ptr:#x}): not in a cuMemAlloc allocation ({other:?})")))
            }
        };
        if !self.ipc_supported(a.device) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuIpcGetMemHandle: device {} cannot share memory", a.device)));
        }
        // The bytes move into the shared file: nothing may write them meanwhile.
        for (_, context) in self.contexts.all() {
            self.drain_context(&context);
        }
        let shared = self.devices[a.device]
            .backend
            .share(a.base)
            .map_err(|e| fail(CuError::NOT_SUPPORTED, format_args!("cuIpcGetMemHandle({ptr:#x}): {e}")))?;
        let (inode, _) = host::identity(shared.fd).map_err(|e| io_fail(CuError::UNKNOWN, format_args!("cuIpcGetMemHandle"), e))?;
        Ok(MemHandleData { pid: host::pid(), fd: shared.fd, inode, offset: shared.offset, size: a.size }.encode())
    }

    /// `cuIpcOpenMemHandle_v2`: maps memory another process exported into the current
    /// context. `flags` must be `CU_IPC_MEM_LAZY_ENABLE_PEER_ACCESS` (NVIDIA's driver
    /// refuses 0 too); a handle this process exported is `INVALID_CONTEXT`, as there.
    pub fn ipc_open_mem_handle(&self, handle: &[u8; 64], flags: u32) -> CuResult<DevicePtr> {
        let ctx = self.current_context()?;
        if flags != IPC_MEM_LAZY_ENABLE_PEER_ACCESS {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuIpcOpenMemHandle: flags {flags:#x}")));
        }
        let Some(h) = MemHandleData::decode(handle) else {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuIpcOpenMemHandle: not an IPC memory handle")));
        };
        if !self.ipc_supported(ctx.device) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuIpcOpenMemHandle: device {} cannot map shared memory", ctx.device)));
        }
        if h.pid == host::pid() {
            return Err(fail(CuError::INVALID_CONTEXT, format_args!("cuIpcOpenMemHandle: the handle was exported by this process")));
        }
        let mut opened = self.ipc.opened();
        if let Some((ptr, refs)) = opened.get_mut(&(ctx.handle, h.inode, h.offset)) {
            *refs += 1;
            return Ok(*ptr);
        }
        let fd = host::open_foreign(h.pid, h.fd, h.inode)
            .map_err(|e| io_fail(CuError::INVALID_HANDLE, format_args!("cuIpcOpenMemHandle: descriptor {} of process {}", h.fd, h.pid), e))?;
        let ptr = host::map_shared(&fd, h.offset, h.size).map_err(|e| io_fail(CuError::MAP_FAILED, format_args!("cuIpcOpenMemHandle"), e))?;
        self.register_file_map(ptr, h.size, FileMapOrigin::Ipc, ctx.handle, ctx.device, 0)?;
        opened.insert((ctx.handle, h.inode, h.offset), (ptr, 1));
        Ok(ptr)
    }

    /// `cuIpcCloseMemHandle`: drops a reference to memory `cuIpcOpenMemHandle` mapped;
    /// the last one unmaps it once the context's queued work is done.
    pub fn ipc_close_mem_handle(&self, ptr: DevicePtr) -> CuResult<()> {
        let ctx = self.current_context()?;
        let a = match self.memory.find(ptr) {
            Some(a) if a.base == ptr && a.kind == MemoryKind::FileMap(FileMapOrigin::Ipc) => a,
            other => return Err(fail(CuError::INVALID_VALUE, format_args!("cuIpcCloseMemHandle({ptr:#x}): not opened IPC memory ({other:?})"))),
        };
        {
            let mut opened = self.ipc.opened();
            let entry = opened.iter_mut().find(|(_, (p, _))| *p == ptr);
            if let Some((_, (_, refs))) = entry {
                if *refs > 1 {
                    *refs -= 1;
                    return Ok(());
                }
            }
        }
        let owner = self.context(a.ctx).unwrap_or(ctx);
        self.drain_context(&owner);
        if let Some(a) = self.memory.remove(ptr) {
            self.release_allocation(&a);
        }
        Ok(())
    }

    /// Gives a [`MemoryKind::FileMap`] range back (it is no longer registered).
    pub(crate) fn release_file_map(&self, a: &Allocation, origin: FileMapOrigin) {
        self.forget_file_map(a, origin);
        unmap_range(a.base, a.size);
    }

    /// Forgets what refers to a [`MemoryKind::FileMap`] range that is no longer
    /// registered (it is unmapped now or once queued work is done).
    pub(crate) fn forget_file_map(&self, a: &Allocation, origin: FileMapOrigin) {
        match origin {
            FileMapOrigin::Ipc => self.ipc.opened().retain(|_, (p, _)| *p != a.base),
            FileMapOrigin::PoolImport => {
                if let Ok(pool) = self.pools.table.get(crate::PoolHandle(a.owner)) {
                    if let pool::Sharing::Imported { pointers, .. } = &pool.sharing {
                        pointers.lock().unwrap_or_else(|e| e.into_inner()).retain(|_, p| *p != a.base);
                    }
                }
            }
            FileMapOrigin::ExternalBuffer | FileMapOrigin::ExternalArray => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn memory_handles_round_trip() {
        let h = MemHandleData { pid: 77, fd: 9, inode: (1, 2), offset: 4096, size: 100 };
        assert_eq!(MemHandleData::decode(&h.encode()), Some(h));
        assert_eq!(MemHandleData::decode(&[0; 64]), None);
    }
}

#[cfg(test)]
#[path = "tests/ipc.rs"]
mod driver_tests;
