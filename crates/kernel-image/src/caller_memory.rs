//! Copies out of memory the caller handed over by pointer alone, without faulting where
//! a lying header points past what is mapped.
//!
//! `cuModuleLoadData` gets no size: the extent of a fatbin or an ELF image comes from its
//! own headers. A corrupt header can place a table gigabytes away; reading it directly
//! would end the host process. `process_vm_readv(2)` on our own process copies the same
//! bytes but answers `EFAULT` for an unmapped range, so such an image is refused with
//! `CUDA_ERROR_INVALID_IMAGE` instead.

/// Copies `len` bytes at `ptr`, or `None` when part of the range is not readable.
///
/// # Safety
/// Where the kernel cannot check (`process_vm_readv` refused by a sandbox), the range is
/// read directly: the caller must then guarantee it is readable, as the image contract of
/// [`crate::image_from_ptr`] says.
pub(crate) unsafe fn copy(ptr: *const u8, len: usize) -> Option<Vec<u8>> {
    let mut out = vec![0u8; len];
    if len == 0 {
        return Some(out);
    }
    let local = libc::iovec { iov_base: out.as_mut_ptr().cast(), iov_len: len };
    let remote = libc::iovec { iov_base: ptr.cast_mut().cast(), iov_len: len };
    // SAFETY: both iovecs describe `len` bytes; the kernel writes only into `out` and
    // reports unreadable source pages instead of faulting.
    let copied = unsafe { libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0) };
    if copied == len as isize {
        return Some(out);
    }
    let errno = std::io::Error::last_os_error().raw_os_error();
    if copied < 0 && matches!(errno, Some(libc::ENOSYS) | Some(libc::EPERM)) {
        // SAFETY: per this function's contract.
        return Some(unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec());
    }
    None
}

#[cfg(test)]
mod tests {
    use super::copy;

    #[test]
    fn readable_memory_is_copied() {
        let data: Vec<u8> = (0..=255).collect();
        // SAFETY: `data` is readable for its length.
        assert_eq!(unsafe { copy(data.as_ptr(), data.len()) }.as_deref(), Some(&data[..]));
    }

    #[test]
    fn unmapped_memory_is_refused() {
        // SAFETY: an anonymous mapping of two pages, the second one unmapped again.
        unsafe {
            let page = libc::sysconf(libc::_SC_PAGESIZE) as usize;
            let base = libc::mmap(std::ptr::null_mut(), 2 * page, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
            assert_ne!(base, libc::MAP_FAILED);
            assert_eq!(libc::munmap(base.cast::<u8>().add(page).cast(), page), 0);
            let start = base.cast::<u8>().add(page - 8);
            assert_eq!(copy(start, 8).map(|v| v.len()), Some(8));
            assert_eq!(copy(start, 16), None);
            libc::munmap(base, page);
        }
    }
}
