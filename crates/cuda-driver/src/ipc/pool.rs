//! Memory pools shared between processes (CUDA Driver API, "Stream Ordered Memory
//! Allocator": `cuMemPoolExportToShareableHandle`, `cuMemPoolImportFromShareableHandle`,
//! `cuMemPoolExportPointer`, `cuMemPoolImportPointer`), as POSIX file descriptors.
//!
//! A pool created with `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR` keeps all its memory in
//! one memfd ([`PoolFile`]): a header page (what identifies the pool, its device), then
//! each segment the pool grows by, mapped shared where the kernel finds room; a segment
//! the pool gives back is unmapped and its pages punched out of the file. The shareable
//! handle is a duplicate of that descriptor, which the program passes to other processes
//! itself (a Unix socket), so importing needs no access to the exporter's `/proc`.
//! Exported pointer data names the file (`st_dev`, `st_ino`), the block's offset in it and
//! its size; importing maps those pages from the imported pool's descriptor, registered as
//! [`MemoryKind::FileMap`] and freed by `cuMemFree`/`cuMemFreeAsync` ("The imported memory
//! must be freed from all importing processes before being freed in the exporting
//! process"). An imported pool cannot allocate.

use std::collections::{BTreeMap, HashMap};
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Mutex, MutexGuard};

use backend_api::DevicePtr;

use super::host;
use crate::diag::fail;
use crate::memory::{FileMapOrigin, MemoryKind};
use crate::{CuError, CuResult, Driver, PoolHandle};

/// `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR`.
pub const HANDLE_TYPE_POSIX_FD: u32 = 1;
/// `CU_MEM_HANDLE_TYPE_FABRIC`.
const HANDLE_TYPE_FABRIC: u32 = 8;

const POINTER_TAG: &[u8; 8] = b"cuIPCptr";
/// The header page's first word.
const FILE_MAGIC: u64 = u64::from_le_bytes(*b"cuPoolV1");

/// How a pool takes part in IPC.
pub(crate) enum Sharing {
    /// Not shareable.
    None,
    /// Created shareable: its memory is this file's.
    Exported(PoolFile),
    /// Imported from another process's pool file; `pointers` are the allocations
    /// imported from it by file offset (importing one again gives the same address, as
    /// NVIDIA's driver does).
    Imported { file: OwnedFd, inode: (u64, u64), pointers: Mutex<HashMap<u64, DevicePtr>> },
}

/// An exportable pool's memory: one memfd.
pub(crate) struct PoolFile {
    file: OwnedFd,
    inode: (u64, u64),
    segments: Mutex<Segments>,
}

#[derive(Default)]
struct Segments {
    /// Where the next segment goes in the file.
    end: u64,
    /// Mapped segments: base address -> (file offset, bytes).
    mapped: BTreeMap<u64, (u64, u64)>,
}

impl PoolFile {
    fn create(device: usize) -> std::io::Result<PoolFile> {
        let page = host::page_size();
        let file = crate::vmm::host::memfd(page)?;
        let (inode, _) = host::identity(file.as_raw_fd())?;
        let header = [FILE_MAGIC.to_le_bytes(), (device as u64).to_le_bytes()].concat();
        // SAFETY: a valid descriptor and buffer.
        if unsafe { libc::pwrite(file.as_raw_fd(), header.as_ptr().cast(), header.len(), 0) } != header.len() as isize {
            return Err(std::io::Error::last_os_error());
        }
        Ok(PoolFile { file, inode, segments: Mutex::new(Segments { end: page, mapped: BTreeMap::new() }) })
    }

    fn segments(&self) -> MutexGuard<'_, Segments> {
        self.segments.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Grows the file by a segment of `size` bytes (whole pages) and maps it.
    pub(crate) fn add_segment(&self, size: u64) -> std::io::Result<u64> {
        let mut segments = self.segments();
        let offset = segments.end;
        let end = offset.checked_add(size).ok_or(std::io::ErrorKind::OutOfMemory)?;
        // SAFETY: a valid descriptor.
        if unsafe { libc::ftruncate(self.file.as_raw_fd(), end as libc::off_t) } != 0 {
            return Err(std::io::Error::last_os_error());
        }
        let base = host::map_shared(&self.file, offset, size)?;
        segments.end = end;
        segments.mapped.insert(base, (offset, size));
        Ok(base)
    }

    /// Unmaps a segment and gives its pages back to the system (other processes that
    /// still map them see zeros, as they would see freed memory).
    pub(crate) fn remove_segment(&self, base: u64) {
        let Some((offset, size)) = self.segments().mapped.remove(&base) else { return };
        host::unmap(base, size);
        // SAFETY: a valid descriptor; the range is this segment's.
        unsafe { libc::fallocate(self.file.as_raw_fd(), libc::FALLOC_FL_PUNCH_HOLE | libc::FALLOC_FL_KEEP_SIZE, offset as i64, size as i64) };
    }

    /// Where `ptr` is in the file.
    fn offset_of(&self, ptr: u64) -> Option<u64> {
        let segments = self.segments();
        let (&base, &(offset, size)) = segments.mapped.range(..=ptr).next_back()?;
        (ptr < base + size).then_some(offset + (ptr - base))
    }
}

impl Drop for PoolFile {
    fn drop(&mut self) {
        for (&base, &(_, size)) in &self.segments().mapped {
            host::unmap(base, size);
        }
    }
}

/// The sharing of a new pool with handle types `handle_types` on `device`: POSIX file
/// descriptors where the device can share memory, `NOT_SUPPORTED` otherwise and for
/// fabric handles; other bits are `INVALID_VALUE` (Win32 handles on Linux, as NVIDIA's
/// driver answers).
pub(crate) fn for_new_pool(driver: &Driver, device: usize, handle_types: u32) -> CuResult<Sharing> {
    match handle_types {
        0 => Ok(Sharing::None),
        HANDLE_TYPE_POSIX_FD if driver.ipc_supported(device) => {
            PoolFile::create(device).map(Sharing::Exported).map_err(|e| fail(CuError::OUT_OF_MEMORY, format_args!("cuMemPoolCreate: pool file: {e}")))
        }
        HANDLE_TYPE_POSIX_FD | HANDLE_TYPE_FABRIC | 9 => {
            Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemPoolCreate: handle types {handle_types:#x} on device {device}")))
        }
        t => Err(fail(CuError::INVALID_VALUE, format_args!("cuMemPoolCreate: handle types {t:#x}"))),
    }
}

fn invalid(why: std::fmt::Arguments<'_>) -> CuError {
    fail(CuError::INVALID_VALUE, why)
}

fn check_handle_type(handle_type: u32, what: &str) -> CuResult<()> {
    match handle_type {
        HANDLE_TYPE_POSIX_FD => Ok(()),
        2 | 4 | HANDLE_TYPE_FABRIC => Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: handle type {handle_type}"))),
        _ => Err(invalid(format_args!("{what}: handle type {handle_type}"))),
    }
}

impl Driver {
    /// `cuMemPoolExportToShareableHandle`: a new descriptor of the pool's file (the caller
    /// closes it). The pool must have been created with that handle type, else (any
    /// other type, too) `INVALID_VALUE`, as NVIDIA's driver answers; `flags` 0.
    pub fn mem_pool_export_to_fd(&self, handle: PoolHandle, handle_type: u32, flags: u64) -> CuResult<i32> {
        let pool = self.pool(handle)?;
        let Sharing::Exported(file) = &pool.sharing else {
            return Err(invalid(format_args!("cuMemPoolExportToShareableHandle: the pool was not created shareable")));
        };
        if flags != 0 || handle_type != HANDLE_TYPE_POSIX_FD {
            return Err(invalid(format_args!("cuMemPoolExportToShareableHandle: handle type {handle_type}, flags {flags:#x}")));
        }
        let fd = host::duplicate(file.file.as_raw_fd()).map_err(|e| fail(CuError::UNKNOWN, format_args!("cuMemPoolExportToShareableHandle: {e}")))?;
        Ok(std::os::fd::IntoRawFd::into_raw_fd(fd))
    }

    /// `cuMemPoolImportFromShareableHandle`: a pool over another process's pool file (the
    /// caller keeps its descriptor); `flags` 0. A descriptor of anything else is
    /// `CUDA_ERROR_UNKNOWN`, as NVIDIA's driver answers for a memfd.
    pub fn mem_pool_import_from_fd(&self, fd: i32, handle_type: u32, flags: u64) -> CuResult<PoolHandle> {
        check_handle_type(handle_type, "cuMemPoolImportFromShareableHandle")?;
        if flags != 0 {
            return Err(invalid(format_args!("cuMemPoolImportFromShareableHandle: flags {flags:#x}")));
        }
        let mut header = [0u8; 16];
        // SAFETY: a writable buffer; a bad descriptor is reported as an error.
        let read = unsafe { libc::pread(fd, header.as_mut_ptr().cast(), header.len(), 0) };
        let magic = u64::from_le_bytes(header[..8].try_into().unwrap_or_default());
        if read != header.len() as isize || magic != FILE_MAGIC {
            return Err(fail(CuError::UNKNOWN, format_args!("cuMemPoolImportFromShareableHandle({fd}): not a memory pool's descriptor")));
        }
        let exporter_device = u64::from_le_bytes(header[8..].try_into().unwrap_or_default());
        // The exporter's ordinal where this process has that device, else the first one
        // that can map shared memory.
        let device = usize::try_from(exporter_device)
            .ok()
            .filter(|&d| d < self.devices.len() && self.ipc_supported(d))
            .or_else(|| (0..self.devices.len()).find(|&d| self.ipc_supported(d)))
            .ok_or_else(|| fail(CuError::NOT_SUPPORTED, format_args!("cuMemPoolImportFromShareableHandle: no device maps shared memory")))?;
        let (inode, _) = host::identity(fd).map_err(|e| invalid(format_args!("cuMemPoolImportFromShareableHandle({fd}): {e}")))?;
        let file = host::duplicate(fd).map_err(|e| fail(CuError::UNKNOWN, format_args!("cuMemPoolImportFromShareableHandle: {e}")))?;
        Ok(self.insert_pool(device, Sharing::Imported { file, inode, pointers: Mutex::default() }))
    }

    /// `cuMemPoolExportPointer`: the data another process's `cuMemPoolImportPointer`
    /// needs for the allocation at `ptr` (its base), from a shareable pool.
    pub fn mem_pool_export_pointer(&self, ptr: DevicePtr) -> CuResult<[u8; 64]> {
        let a = match self.memory.find(ptr) {
            Some(a) if a.base == ptr && matches!(a.kind, MemoryKind::Pool(_)) => a,
            other => return Err(invalid(format_args!("cuMemPoolExportPointer({ptr:#x}): not a pool allocation's base ({other:?})"))),
        };
        let pool = self.pools.table.get(PoolHandle(a.owner)).map_err(|_| invalid(format_args!("cuMemPoolExportPointer({ptr:#x}): pool gone")))?;
        let Sharing::Exported(file) = &pool.sharing else {
            return Err(invalid(format_args!("cuMemPoolExportPointer({ptr:#x}): the pool is not shareable")));
        };
        let offset = file.offset_of(ptr).ok_or_else(|| invalid(format_args!("cuMemPoolExportPointer({ptr:#x}): outside the pool's file")))?;
        Ok(host::encode(POINTER_TAG, &[file.inode.0, file.inode.1, offset, a.size]))
    }

    /// `cuMemPoolImportPointer`: maps an allocation of the pool `handle` was imported
    /// from into the current context.
    pub fn mem_pool_import_pointer(&self, handle: PoolHandle, data: &[u8; 64]) -> CuResult<DevicePtr> {
        let ctx = self.current_context()?;
        let pool = self.pool(handle)?;
        let Sharing::Imported { file, inode, pointers } = &pool.sharing else {
            return Err(invalid(format_args!("cuMemPoolImportPointer: pool {:#x} was not imported", handle.0)));
        };
        let Some(f) = host::decode(POINTER_TAG, data) else {
            return Err(invalid(format_args!("cuMemPoolImportPointer: not exported pointer data")));
        };
        if (f[0], f[1]) != *inode {
            return Err(invalid(format_args!("cuMemPoolImportPointer: the pointer is another pool's")));
        }
        let (offset, size) = (f[2], f[3]);
        let mut pointers = pointers.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&ptr) = pointers.get(&offset) {
            return Ok(ptr);
        }
        let ptr = host::map_shared(file, offset, size).map_err(|e| fail(CuError::MAP_FAILED, format_args!("cuMemPoolImportPointer: {e}")))?;
        self.register_file_map(ptr, size, FileMapOrigin::PoolImport, ctx.handle, pool.device, handle.0)?;
        pointers.insert(offset, ptr);
        Ok(ptr)
    }
}
