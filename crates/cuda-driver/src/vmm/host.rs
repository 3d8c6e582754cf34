//! The host side of virtual memory management: address ranges, memfd-backed physical
//! memory, shared fixed mappings and page protections. Every function here acts only on
//! ranges the caller owns: a reservation made by [`reserve`] and not yet released.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};

/// The host page size: the minimum granularity of reservations and mappings.
pub(crate) fn page_size() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    if size > 0 {
        size as u64
    } else {
        4096
    }
}

fn check(ret: libc::c_int) -> io::Result<()> {
    if ret == 0 {
        Ok(())
    } else {
        Err(io::Error::last_os_error())
    }
}

/// Inaccessible, unbacked address space (`PROT_NONE`, no swap reserved).
const RESERVE_FLAGS: libc::c_int = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;

/// Reserves `size` bytes of address space aligned to `align` (a power of two, at least a
/// page), at `hint` if that range is free and aligned, else wherever the kernel finds room.
pub(crate) fn reserve(size: u64, align: u64, hint: u64) -> io::Result<u64> {
    let size_usize = usize::try_from(size).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    if hint != 0 && hint.is_multiple_of(align) {
        // SAFETY: MAP_FIXED_NOREPLACE never replaces an existing mapping; the result is
        // checked.
        let p = unsafe { libc::mmap(hint as usize as *mut _, size_usize, libc::PROT_NONE, RESERVE_FLAGS | libc::MAP_FIXED_NOREPLACE, -1, 0) };
        if p != libc::MAP_FAILED {
            if p as u64 == hint {
                return Ok(hint);
            }
            // Kernels before 4.17 ignore the flag and treat the address as a hint.
            // SAFETY: `p` is the mapping just made, of `size` bytes.
            unsafe { libc::munmap(p, size_usize) };
        }
    }
    // Over-reserve by the alignment and trim both ends.
    let padded = size.checked_add(align - page_size().min(align)).ok_or(io::Error::from(io::ErrorKind::OutOfMemory))?;
    let padded_usize = usize::try_from(padded).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    // SAFETY: a fresh anonymous mapping at an address of the kernel's choosing.
    let p = unsafe { libc::mmap(std::ptr::null_mut(), padded_usize, libc::PROT_NONE, RESERVE_FLAGS, -1, 0) };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    let start = p as u64;
    let base = start.next_multiple_of(align);
    let (head, tail) = (base - start, start + padded - (base + size));
    // SAFETY: both pieces lie inside the mapping just made and outside `[base, base+size)`.
    unsafe {
        if head > 0 {
            libc::munmap(p, head as usize);
        }
        if tail > 0 {
            libc::munmap((base + size) as usize as *mut _, tail as usize);
        }
    }
    Ok(base)
}

/// Gives a reservation back to the system.
pub(crate) fn release(base: u64, size: u64) {
    // SAFETY: the caller owns the reservation `[base, base+size)` and nothing uses it.
    unsafe { libc::munmap(base as usize as *mut _, size as usize) };
}

/// A zero-filled memfd of `size` bytes: the physical memory of one allocation.
pub(crate) fn memfd(size: u64) -> io::Result<OwnedFd> {
    // SAFETY: a NUL-terminated name and valid flags.
    let fd = unsafe { libc::memfd_create(c"cuda-vmm".as_ptr(), libc::MFD_CLOEXEC) };
    if fd < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `fd` was just created and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(fd) };
    let len = libc::off_t::try_from(size).map_err(|_| io::Error::from(io::ErrorKind::OutOfMemory))?;
    // SAFETY: a valid descriptor.
    check(unsafe { libc::ftruncate(fd.as_raw_fd(), len) })?;
    Ok(fd)
}

/// What identifies the file behind a descriptor, and its size: `((st_dev, st_ino), st_size)`.
pub(crate) fn identity(fd: libc::c_int) -> io::Result<((u64, u64), u64)> {
    // SAFETY: an all-zero `stat` is a valid value to overwrite.
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    // SAFETY: `st` is writable; an invalid descriptor is reported as EBADF.
    check(unsafe { libc::fstat(fd, &mut st) })?;
    if st.st_mode & libc::S_IFMT != libc::S_IFREG {
        return Err(io::Error::from(io::ErrorKind::InvalidInput));
    }
    Ok(((st.st_dev, st.st_ino), st.st_size as u64))
}

/// A close-on-exec duplicate of `fd` (what export hands out and import keeps).
pub(crate) fn duplicate(fd: libc::c_int) -> io::Result<OwnedFd> {
    // SAFETY: F_DUPFD_CLOEXEC on any descriptor; an invalid one is reported as EBADF.
    let new = unsafe { libc::fcntl(fd, libc::F_DUPFD_CLOEXEC, 0) };
    if new < 0 {
        return Err(io::Error::last_os_error());
    }
    // SAFETY: `new` was just created and is owned by nobody else.
    Ok(unsafe { OwnedFd::from_raw_fd(new) })
}

/// Maps `[offset, offset+size)` of `fd` shared at `va`, inaccessible until [`protect`].
pub(crate) fn map(va: u64, size: u64, fd: &OwnedFd, offset: u64) -> io::Result<()> {
    // SAFETY: the caller owns `[va, va+size)` (part of its reservation, not mapped), so
    // MAP_FIXED replaces only its own inaccessible pages.
    let p = unsafe {
        libc::mmap(va as usize as *mut _, size as usize, libc::PROT_NONE, libc::MAP_SHARED | libc::MAP_FIXED, fd.as_raw_fd(), offset as libc::off_t)
    };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Turns a mapped range back into inaccessible reserved address space.
pub(crate) fn unmap(va: u64, size: u64) -> io::Result<()> {
    // SAFETY: the caller owns the mapped range `[va, va+size)` and nothing uses it.
    let p = unsafe { libc::mmap(va as usize as *mut _, size as usize, libc::PROT_NONE, RESERVE_FLAGS | libc::MAP_FIXED, -1, 0) };
    if p == libc::MAP_FAILED {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}

/// Sets the host's (and so the CPU device's) access to a mapped range: `CUmemAccess_flags`
/// 0 none, 1 read, 3 read-write.
pub(crate) fn protect(va: u64, size: u64, access: u32) -> io::Result<()> {
    let prot = match access {
        0 => libc::PROT_NONE,
        1 => libc::PROT_READ,
        _ => libc::PROT_READ | libc::PROT_WRITE,
    };
    // SAFETY: the caller owns the mapped range.
    check(unsafe { libc::mprotect(va as usize as *mut _, size as usize, prot) })
}
