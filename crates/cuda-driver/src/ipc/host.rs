//! The host side of IPC: reaching a file another process holds open, and mapping files
//! shared into this process. Both processes run on this machine as the same user.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

pub(crate) use crate::vmm::host::{duplicate, identity, page_size};

/// A descriptor of this process for descriptor `fd` of process `pid`, which must be the
/// file `inode` (`(st_dev, st_ino)`): a descriptor number may have been reused.
///
/// `/proc/<pid>/fd/<fd>` reopens the file (needs the ptrace read check: same user); where
/// that is refused, `pidfd_getfd` duplicates it (needs the ptrace attach check).
pub(crate) fn open_foreign(pid: u32, fd: i32, inode: (u64, u64)) -> io::Result<OwnedFd> {
    let path = format!("/proc/{pid}/fd/{fd}\0");
    // SAFETY: a NUL-terminated path; the result is checked.
    let raw = unsafe { libc::open(path.as_ptr().cast(), libc::O_RDWR | libc::O_CLOEXEC) };
    let opened = if raw >= 0 {
        // SAFETY: `raw` was just opened and is owned by nobody else.
        Ok(unsafe { OwnedFd::from_raw_fd(raw) })
    } else {
        let first = io::Error::last_os_error();
        pidfd_getfd(pid, fd).map_err(|_| first)
    };
    let opened = opened?;
    if identity(opened.as_raw_fd())?.0 != inode {
        return Err(io::Error::new(io::ErrorKind::NotFound, format!("descriptor {fd} of process {pid} is another file now")));
    }
    Ok(opened)
}

fn pidfd_getfd(pid: u32, fd: i32) -> io::Result<OwnedFd> {
    // SAFETY: pidfd_open(pid, 0) has no memory arguments.
    let pidfd = unsafe { libc::syscall(libc::SYS_pidfd_open, pid as libc::pid_t, 0) };
    if pidfd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor just created, owned here.
    let pidfd = unsafe { OwnedFd::from_raw_fd(pidfd as i32) };
    // SAFETY: pidfd_getfd(pidfd, targetfd, 0) has no memory arguments.
    let raw = unsafe { libc::syscall(libc::SYS_pidfd_getfd, pidfd.as_raw_fd(), fd, 0) };
    if raw < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: a descriptor just created (close-on-exec), owned here.
    Ok(unsafe { OwnedFd::from_raw_fd(raw as i32) })
}

/// The whole pages around `[base, base+size)`: `(start, len)`.
pub(crate) fn page_span(base: u64, size: u64) -> (u64, u64) {
    let page = page_size();
    let start = base - base % page;
    let end = base.saturating_add(size.max(1)).next_multiple_of(page);
    (start, end - start)
}

/// Maps `[offset, offset+size)` of `fd` readable and writable, shared, wherever the
/// kernel finds room: the address of byte `offset`.
pub(crate) fn map_shared(fd: &OwnedFd, offset: u64, size: u64) -> io::Result<u64> {
    let (start, len) = page_span(offset, size);
    let len = usize::try_from(len).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    // SAFETY: a fresh shared mapping at an address of the kernel's choosing.
    let p =
        unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED, fd.as_raw_fd(), start as libc::off_t) };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(p as u64 + (offset - start))
}

/// Unmaps what [`map_shared`] mapped for `[base, base+size)`.
pub(crate) fn unmap(base: u64, size: u64) {
    let (start, len) = page_span(base, size);
    // SAFETY: the caller owns the mapping and nothing uses it any more.
    unsafe { libc::munmap(start as usize as *mut libc::c_void, len as usize) };
}

/// This process's id.
pub(crate) fn pid() -> u32 {
    std::process::id()
}

/// A 64-byte handle (`CUipcMemHandle`, `CUipcEventHandle`, `CUmemPoolPtrExportData`):
/// a tag, then little-endian 64-bit fields.
pub(crate) fn encode(tag: &[u8; 8], fields: &[u64]) -> [u8; 64] {
    let mut out = [0u8; 64];
    out[..8].copy_from_slice(tag);
    for (i, f) in fields.iter().enumerate().take(7) {
        out[8 + 8 * i..16 + 8 * i].copy_from_slice(&f.to_le_bytes());
    }
    out
}

/// The fields of a handle [`encode`] made with `tag`, or `None`.
pub(crate) fn decode(tag: &[u8; 8], bytes: &[u8; 64]) -> Option<[u64; 7]> {
    if &bytes[..8] != tag {
        return None;
    }
    let mut fields = [0u64; 7];
    for (i, f) in fields.iter_mut().enumerate() {
        *f = u64::from_le_bytes(bytes[8 + 8 * i..16 + 8 * i].try_into().ok()?);
    }
    Some(fields)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_round_trip_and_check_their_tag() {
        let h = encode(b"cuIPCmem", &[1, 2, u64::MAX]);
        assert_eq!(decode(b"cuIPCmem", &h), Some([1, 2, u64::MAX, 0, 0, 0, 0]));
        assert_eq!(decode(b"cuIPCevt", &h), None);
        assert_eq!(decode(b"cuIPCmem", &[0; 64]), None);
    }

    #[test]
    fn a_file_opened_through_proc_is_the_same_file() {
        let fd = crate::vmm::host::memfd(page_size()).unwrap();
        let inode = identity(fd.as_raw_fd()).unwrap().0;
        let opened = open_foreign(pid(), fd.as_raw_fd(), inode).unwrap();
        let a = map_shared(&fd, 0, 16).unwrap();
        let b = map_shared(&opened, 8, 8).unwrap();
        // SAFETY: both are fresh mappings of the same page.
        unsafe {
            *(a as *mut u64).add(1) = 0x1234;
            assert_eq!(*(b as *const u64), 0x1234);
        }
        unmap(a, 16);
        unmap(b, 8);
        assert!(open_foreign(pid(), fd.as_raw_fd(), (0, 1)).is_err(), "another file's identity");
    }
}
