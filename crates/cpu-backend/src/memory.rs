//! The CPU device's memory: host memory of the process, every allocation on pages no
//! other data of the process shares, so that any allocation can become shared memory in
//! place (`Device::share`, for `cuIpcGetMemHandle`). The pages lie in the device's own
//! address ranges ([`Arena`]), away from the host's data.
//!
//! - An allocation of a page or more is an anonymous mapping of its own (whole pages).
//! - Smaller ones are slots of a size class (multiples of 512 bytes, so every allocation
//!   is 512-byte aligned like `cudaMalloc`'s) in 64 KiB chunks of device memory that hold
//!   nothing else; a freed slot is reused by the next allocation of its class.
//!
//! Freed large mappings are kept for the next allocations of about their size (up to
//! [`idle_limit`] bytes), as the global allocator keeps freed memory: a program that
//! allocates and frees a buffer per iteration reuses its pages instead of faulting in
//! fresh ones each time.
//!
//! Sharing moves the pages into a memfd and maps that shared over the same addresses
//! ([`to_shared_file`]); for a small allocation that is its whole chunk, as NVIDIA's driver
//! shares the whole 2 MiB page a small `cudaMalloc` lies in.

use std::collections::{BTreeSet, HashMap};
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::Mutex;

use backend_api::{DeviceError, DevicePtr, SharedMemory};

use crate::arena::Arena;

/// Alignment and size step of small allocations (the device's texture alignment,
/// `CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT`, so any allocation can back a linear texture).
pub(crate) const SLOT_ALIGN: usize = 512;
/// Bytes of one chunk of small allocations.
const CHUNK: usize = 64 << 10;

pub(crate) fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).ok().filter(|&s| s > 0).unwrap_or(4096)
}

/// A mapped range of whole pages and, once shared, its file.
struct Pages {
    len: usize,
    file: Option<OwnedFd>,
}

/// What an allocation is.
#[derive(Clone, Copy)]
enum Alloc {
    /// Pages of its own (the key of `Inner::pages` is its address).
    Large,
    /// A slot of `stride` bytes in the chunk at `chunk`.
    Small { chunk: u64, stride: usize },
}

#[derive(Default)]
struct Inner {
    allocations: HashMap<u64, Alloc>,
    /// Large allocations and small-allocation chunks, by address.
    pages: HashMap<u64, Pages>,
    /// Free slots per stride: (address, its chunk).
    free_slots: HashMap<usize, Vec<(u64, u64)>>,
    /// Freed large mappings kept for reuse: (length, address); and their bytes.
    idle: BTreeSet<(usize, u64)>,
    idle_bytes: usize,
    arena: Arena,
}

/// The most bytes of freed mappings kept for reuse: an eighth of the host's memory, at
/// most 2 GiB.
fn idle_limit() -> usize {
    // SAFETY: sysconf has no preconditions.
    let pages = unsafe { libc::sysconf(libc::_SC_PHYS_PAGES) };
    let total = usize::try_from(pages).unwrap_or(0).saturating_mul(page_size());
    (total / 8).min(2 << 30)
}

impl Inner {
    /// A kept mapping of `len` to `2 * len` bytes, taken out of the cache.
    fn take_idle(&mut self, len: usize) -> Option<(u64, usize)> {
        let &(found, addr) = self.idle.range((len, 0)..).next().filter(|&&(found, _)| found <= len.saturating_mul(2))?;
        self.idle.remove(&(found, addr));
        self.idle_bytes -= found;
        Some((addr, found))
    }

    /// Keeps a freed mapping for reuse, giving back the largest kept ones beyond the limit.
    fn keep_idle(&mut self, addr: u64, len: usize) {
        self.idle.insert((len, addr));
        self.idle_bytes += len;
        let limit = idle_limit();
        while self.idle_bytes > limit {
            let Some(largest) = self.idle.pop_last() else { break };
            self.idle_bytes -= largest.0;
            self.arena.unmap(largest.1, largest.0);
        }
    }

    /// Gives every kept mapping back (before reporting that memory ran out).
    fn drop_idle(&mut self) {
        for (len, addr) in std::mem::take(&mut self.idle) {
            self.arena.unmap(addr, len);
        }
        self.idle_bytes = 0;
    }

    fn map(&mut self, len: usize) -> Result<u64, DeviceError> {
        self.arena.map(len).or_else(|_| {
            self.drop_idle();
            self.arena.map(len)
        })
    }
}

/// The device's allocations.
#[derive(Default)]
pub(crate) struct Memory {
    inner: Mutex<Inner>,
}

impl Memory {
    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// `padded` bytes (a multiple of 256, at least 256), 512-byte aligned.
    pub(crate) fn alloc(&self, padded: usize) -> Result<DevicePtr, DeviceError> {
        let page = page_size();
        let mut inner = self.inner();
        if padded >= page {
            let len = padded.checked_next_multiple_of(page).ok_or(DeviceError::OutOfMemory)?;
            let (p, len) = match inner.take_idle(len) {
                Some(kept) => kept,
                None => (inner.map(len)?, len),
            };
            inner.pages.insert(p, Pages { len, file: None });
            inner.allocations.insert(p, Alloc::Large);
            return Ok(p);
        }
        let stride = padded.next_multiple_of(SLOT_ALIGN);
        let (slot, chunk) = match inner.free_slots.get_mut(&stride).and_then(Vec::pop) {
            Some(free) => free,
            None => {
                let chunk = inner.map(CHUNK)?;
                inner.pages.insert(chunk, Pages { len: CHUNK, file: None });
                let slots = (0..CHUNK / stride).rev().map(|i| (chunk + (i * stride) as u64, chunk));
                inner.free_slots.entry(stride).or_default().extend(slots);
                inner.free_slots.get_mut(&stride).and_then(Vec::pop).expect("a fresh chunk has slots")
            }
        };
        inner.allocations.insert(slot, Alloc::Small { chunk, stride });
        Ok(slot)
    }

    /// The bytes held for the allocation at `ptr` (what a kernel may touch).
    #[cfg(test)]
    pub(crate) fn held(&self, ptr: DevicePtr) -> Option<usize> {
        let inner = self.inner();
        match inner.allocations.get(&ptr)? {
            Alloc::Large => inner.pages.get(&ptr).map(|p| p.len),
            Alloc::Small { stride, .. } => Some(*stride),
        }
    }

    pub(crate) fn free(&self, ptr: DevicePtr) {
        let mut inner = self.inner();
        match inner.allocations.remove(&ptr) {
            Some(Alloc::Large) => match inner.pages.remove(&ptr) {
                Some(Pages { len, file: None }) => inner.keep_idle(ptr, len),
                // Not kept: other processes may map its file, which lives on while they do.
                Some(Pages { len, file: Some(_) }) => inner.arena.unmap(ptr, len),
                None => {}
            },
            Some(Alloc::Small { chunk, stride }) => inner.free_slots.entry(stride).or_default().push((ptr, chunk)),
            None => {}
        }
    }

    /// `Device::share`: the allocation's pages (a small one's chunk) become a shared
    /// file mapping at the same addresses.
    pub(crate) fn share(&self, ptr: DevicePtr) -> Result<SharedMemory, DeviceError> {
        let mut inner = self.inner();
        let (base, stride) = match inner.allocations.get(&ptr) {
            Some(Alloc::Large) => (ptr, None),
            Some(&Alloc::Small { chunk, stride }) => (chunk, Some(stride)),
            None => return Err(DeviceError::NotSupported("sharing memory that is not an allocation".into())),
        };
        let pages = inner.pages.get_mut(&base).expect("every allocation lies in its pages");
        if pages.file.is_none() {
            let file = to_shared_file(base, pages.len).map_err(|e| DeviceError::NotSupported(format!("sharing device memory: {e}")))?;
            pages.file = Some(file);
        }
        let fd = pages.file.as_ref().map_or(-1, |f| f.as_raw_fd());
        let offset = ptr - base;
        Ok(SharedMemory { fd, offset, len: stride.map_or(pages.len as u64, |s| s as u64) })
    }
}

/// Moves the `len` bytes mapped at `ptr` into a new memfd and maps that shared over the
/// same pages, so the addresses keep their contents and other processes can map the file.
/// Writes to the range between the copy and the remapping would be lost: the caller makes
/// sure no work uses it meanwhile.
fn to_shared_file(ptr: u64, len: usize) -> std::io::Result<OwnedFd> {
    // SAFETY: a NUL-terminated name and valid flags.
    let raw = unsafe { libc::memfd_create(c"cuda-ipc".as_ptr(), libc::MFD_CLOEXEC) };
    if raw < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `raw` was just created and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    let mut done = 0;
    while done < len {
        // SAFETY: `[ptr, ptr+len)` is a readable mapping of the device's.
        let n = unsafe { libc::pwrite(raw, (ptr as usize + done) as *const libc::c_void, len - done, done as libc::off_t) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        done += n as usize;
    }
    // SAFETY: MAP_FIXED replaces exactly pages the device owns whole.
    let p =
        unsafe { libc::mmap(ptr as usize as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED | libc::MAP_FIXED, raw, 0) };
    if p == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    Ok(fd)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_and_on_pages_of_their_own() {
        let memory = Memory::default();
        let page = page_size();
        for (padded, held) in [(256, 512), (512, 512), (768, 1024), (page - 256, page), (page, page), (page + 256, 2 * page)] {
            let p = memory.alloc(padded).unwrap();
            assert_eq!(p % SLOT_ALIGN as u64, 0);
            assert_eq!(memory.held(p), Some(held), "{padded} bytes");
            memory.free(p);
        }
        let a = memory.alloc(256).unwrap();
        memory.free(a);
        assert_eq!(memory.alloc(300).unwrap(), a, "a freed slot is reused by its class");
    }

    #[test]
    fn freed_mappings_are_reused_unless_shared() {
        let memory = Memory::default();
        let page = page_size();
        let a = memory.alloc(4 * page).unwrap();
        memory.free(a);
        let b = memory.alloc(3 * page).unwrap();
        assert_eq!(b, a, "a kept mapping of up to twice the size is reused");
        assert_eq!(memory.held(b), Some(4 * page), "whole");
        memory.free(b);
        let c = memory.alloc(page).unwrap();
        assert_ne!(c, a, "not four times the size");
        memory.share(c).unwrap();
        // SAFETY: the allocation holds a page.
        unsafe { *(c as *mut u8) = 0x77 };
        memory.free(c);
        let d = memory.alloc(page).unwrap();
        // SAFETY: as above. A fresh mapping (at whatever address) is zero-filled.
        assert_eq!(unsafe { *(d as *const u8) }, 0, "a shared mapping is not reused");
        memory.free(d);
    }

    #[test]
    fn shared_allocations_keep_address_and_contents() {
        let memory = Memory::default();
        let page = page_size();
        for size in [3 * page, 1024] {
            let neighbour = memory.alloc(size).unwrap();
            let p = memory.alloc(size).unwrap();
            for (q, v) in [(neighbour, 7u8), (p, 9u8)] {
                // SAFETY: each allocation holds `size` bytes.
                unsafe { std::ptr::write_bytes(q as *mut u8, v, size) };
            }
            let shared = memory.share(p).unwrap();
            assert_eq!(memory.share(p).unwrap(), shared, "asking again gives the same file");
            // SAFETY: as above.
            let bytes = unsafe { std::slice::from_raw_parts_mut(p as *mut u8, size) };
            assert!(bytes.iter().all(|&b| b == 9));
            // SAFETY: as above.
            assert_eq!(unsafe { *(neighbour as *const u8) }, 7, "other allocations keep their bytes");
            bytes[5] = 0x5a;
            let mut read = [0u8; 8];
            // SAFETY: a valid descriptor and buffer.
            assert_eq!(unsafe { libc::pread(shared.fd, read.as_mut_ptr().cast(), 8, shared.offset as i64) }, 8);
            assert_eq!(read[5], 0x5a, "the file holds what the address shows");
            memory.free(p);
            memory.free(neighbour);
        }
    }
}
