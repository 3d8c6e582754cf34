//! The CPU device's address space: device memory is carved out of large reserved ranges
//! of the process's address space (`PROT_NONE`, no memory behind them), as a GPU's
//! allocations lie in its own virtual address space.
//!
//! A kernel's out-of-bounds store past a device allocation then lands in other device
//! memory (as it would on a GPU) or in an inaccessible gap, which faults and ends the
//! launch with `CUDA_ERROR_ILLEGAL_ADDRESS` (`fault.rs`). It never lands in the host
//! process's own data: anonymous mappings of the kernel's choosing would lie next to the
//! heap's, the allocator's and the loaded libraries' mappings.
//!
//! - Every mapping is followed by [`GAP`] bytes nobody maps, so small overruns fault.
//! - Each reserved range keeps [`EDGE`] bytes at either end unused, so larger strays off
//!   the first or last allocation fault too.
//! - Freed ranges become reservations again (their pages go back to the system) and are
//!   reused best-fit.
//!
//! Where the process may not reserve that much address space (`RLIMIT_AS`), mappings fall
//! back to plain anonymous mappings anywhere, without that protection.

use std::collections::{BTreeMap, BTreeSet, HashSet};

use backend_api::DeviceError;

/// Inaccessible bytes after every mapping.
pub(crate) const GAP: u64 = 64 << 10;
/// Unused bytes at either end of a reserved range.
const EDGE: u64 = 1 << 30;
/// The smallest range reserved at once (address space only).
const MIN_RESERVATION: u64 = 64 << 30;

const RESERVE_FLAGS: libc::c_int = libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_NORESERVE;

/// Reserved ranges and the free space in them.
#[derive(Default)]
pub(crate) struct Arena {
    /// Free ranges: start → length; adjacent ranges are always merged.
    free_by_start: BTreeMap<u64, u64>,
    /// The same ranges by (length, start), for best fit.
    free_by_len: BTreeSet<(u64, u64)>,
    /// Reserved ranges (start, length), never given back.
    reserved: Vec<(u64, u64)>,
    /// Mappings made outside any reservation (the fallback).
    loose: HashSet<u64>,
}

impl Arena {
    /// `len` (whole pages) readable and writable zeroed bytes at a page-aligned address.
    pub(crate) fn map(&mut self, len: usize) -> Result<u64, DeviceError> {
        let len = len as u64;
        let need = len.checked_add(GAP).ok_or(DeviceError::OutOfMemory)?;
        let start = match self.take(need) {
            Some(start) => start,
            None => match self.reserve(need) {
                Ok(()) => self.take(need).expect("a fresh reservation holds the request"),
                Err(()) => return self.map_loose(len),
            },
        };
        // SAFETY: `[start, start+len)` lies in a reservation of ours that nothing uses.
        let p = unsafe {
            libc::mmap(
                start as usize as *mut libc::c_void,
                len as usize,
                libc::PROT_READ | libc::PROT_WRITE,
                libc::MAP_PRIVATE | libc::MAP_ANONYMOUS | libc::MAP_FIXED,
                -1,
                0,
            )
        };
        if p == libc::MAP_FAILED {
            self.give(start, need);
            return Err(DeviceError::OutOfMemory);
        }
        Ok(start)
    }

    /// Gives back a mapping of `len` bytes that [`Arena::map`] returned (`len` as asked).
    pub(crate) fn unmap(&mut self, addr: u64, len: usize) {
        if self.loose.remove(&addr) {
            // SAFETY: a mapping of our own, unmapped once.
            unsafe { libc::munmap(addr as usize as *mut libc::c_void, len) };
            return;
        }
        // SAFETY: the range is ours; it becomes an inaccessible reservation again, and its
        // pages (or its shared file's mapping) are released.
        let p = unsafe { libc::mmap(addr as usize as *mut libc::c_void, len, libc::PROT_NONE, RESERVE_FLAGS | libc::MAP_FIXED, -1, 0) };
        if p == libc::MAP_FAILED {
            // The range stays mapped and is not reused: leaking address space beats handing
            // out pages that still hold old contents or another process's file.
            return;
        }
        self.give(addr, len as u64 + GAP);
    }

    /// Takes the start of the smallest free range of at least `need` bytes.
    fn take(&mut self, need: u64) -> Option<u64> {
        let &(found, start) = self.free_by_len.range((need, 0)..).next()?;
        self.free_by_len.remove(&(found, start));
        self.free_by_start.remove(&start);
        if found > need {
            self.insert(start + need, found - need);
        }
        Some(start)
    }

    /// Returns `[start, start+len)` to the free ranges, merged with its neighbours.
    fn give(&mut self, mut start: u64, mut len: u64) {
        if let Some((&prev, &prev_len)) = self.free_by_start.range(..start).next_back() {
            if prev + prev_len == start {
                self.remove(prev, prev_len);
                start = prev;
                len += prev_len;
            }
        }
        if let Some(&next_len) = self.free_by_start.get(&(start + len)) {
            self.remove(start + len, next_len);
            len += next_len;
        }
        self.insert(start, len);
    }

    fn insert(&mut self, start: u64, len: u64) {
        self.free_by_start.insert(start, len);
        self.free_by_len.insert((len, start));
    }

    fn remove(&mut self, start: u64, len: u64) {
        self.free_by_start.remove(&start);
        self.free_by_len.remove(&(len, start));
    }

    /// Reserves a new range for at least `need` bytes: twice the host's memory, at least
    /// [`MIN_RESERVATION`], or less where the process's address-space limit allows less.
    fn reserve(&mut self, need: u64) -> Result<(), ()> {
        let least = need.checked_add(2 * EDGE).ok_or(())?;
        let mut size = least.max(MIN_RESERVATION).max(physical_memory().saturating_mul(2));
        loop {
            // SAFETY: a fresh inaccessible reservation at an address of the kernel's choosing.
            let p = unsafe { libc::mmap(std::ptr::null_mut(), size as usize, libc::PROT_NONE, RESERVE_FLAGS, -1, 0) };
            if p != libc::MAP_FAILED {
                let base = p as u64;
                self.reserved.push((base, size));
                self.give(base + EDGE, size - 2 * EDGE);
                return Ok(());
            }
            if size / 2 < least {
                return Err(());
            }
            size /= 2;
        }
    }

    fn map_loose(&mut self, len: u64) -> Result<u64, DeviceError> {
        // SAFETY: a fresh anonymous mapping at an address of the kernel's choosing.
        let p = unsafe {
            libc::mmap(std::ptr::null_mut(), len as usize, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0)
        };
        if p == libc::MAP_FAILED {
            return Err(DeviceError::OutOfMemory);
        }
        self.loose.insert(p as u64);
        Ok(p as u64)
    }

    /// Whether `addr` lies in a reserved range (device memory or its gaps).
    #[cfg(test)]
    pub(crate) fn contains(&self, addr: u64) -> bool {
        self.reserved.iter().any(|&(base, size)| (base..base + size).contains(&addr))
    }
}

fn physical_memory() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    u64::try_from(pages).unwrap_or(0).saturating_mul(u64::try_from(size).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Whether a write to `addr` faults, tried in a child process.
    fn write_faults(addr: u64) -> bool {
        // SAFETY: the child only stores a byte and exits; the parent waits for it.
        unsafe {
            let pid = libc::fork();
            assert!(pid >= 0);
            if pid == 0 {
                // The default action, not a sanitizer's handler (which would report and exit).
                libc::signal(libc::SIGSEGV, libc::SIG_DFL);
                libc::signal(libc::SIGBUS, libc::SIG_DFL);
                std::ptr::write_volatile(addr as *mut u8, 1);
                libc::_exit(0);
            }
            let mut status = 0;
            libc::waitpid(pid, &mut status, 0);
            libc::WIFSIGNALED(status)
        }
    }

    #[test]
    fn mappings_lie_in_reservations_with_inaccessible_gaps() {
        let mut arena = Arena::default();
        let page = crate::memory::page_size();
        let a = arena.map(3 * page).unwrap();
        let b = arena.map(page).unwrap();
        assert!(arena.contains(a) && arena.contains(b));
        assert!(b >= a + 3 * page as u64 + GAP || a >= b + page as u64 + GAP, "a gap between mappings");
        // SAFETY: both mappings are writable for their lengths.
        unsafe {
            std::ptr::write_bytes(a as *mut u8, 1, 3 * page);
            std::ptr::write_bytes(b as *mut u8, 2, page);
        }
        assert!(!write_faults(a + 3 * page as u64 - 1), "the last byte is mapped");
        assert!(write_faults(a + 3 * page as u64), "the first byte past the end faults");
        assert!(write_faults(a - 1), "the byte before the first mapping faults");
        arena.unmap(a, 3 * page);
        assert!(write_faults(a), "a freed mapping faults");
        let c = arena.map(3 * page).unwrap();
        assert_eq!(c, a, "freed space is reused");
        // SAFETY: a fresh mapping of three pages.
        assert_eq!(unsafe { *(c as *const u8) }, 0, "reused space is zeroed");
        arena.unmap(b, page);
        arena.unmap(c, 3 * page);
        assert_eq!(arena.free_by_start.len(), arena.reserved.len(), "freed ranges merge back into one per reservation");
    }

    #[test]
    fn requests_larger_than_a_reservation_get_their_own() {
        let mut arena = Arena::default();
        let small = arena.map(4096).unwrap();
        let huge = (MIN_RESERVATION as usize).max(physical_memory() as usize * 2);
        // Address space only: nothing is touched, and the mapping is given back at once.
        match arena.map(huge) {
            Ok(p) => {
                assert!(arena.contains(p) || arena.loose.contains(&p));
                arena.unmap(p, huge);
            }
            Err(DeviceError::OutOfMemory) => {}
            Err(e) => panic!("{e:?}"),
        }
        arena.unmap(small, 4096);
    }
}
