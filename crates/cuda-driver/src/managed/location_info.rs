//! `cuMemGetLocationInfo` (CUDA Driver API, "Unified Addressing", CUDA 13.4): where the
//! pages of a managed or pageable range reside, summarized per region.
//!
//! The reference: the range is `ceil(size / summaryGranularity)` regions; in each, the
//! memory is sampled every `samplingGranularity` bytes (0: a system-dependent step, here
//! the host page size) and the region's entry is the most common location among the
//! samples; memory resident nowhere is `CU_MEM_LOCATION_TYPE_NONE`. `summaryGranularity`
//! must be in `(0, size]` and `samplingGranularity` at most `summaryGranularity`, else
//! `CUDA_ERROR_INVALID_VALUE`; the range must lie in managed memory (one allocation) or in
//! pageable host memory that no CUDA call registered, else `CUDA_ERROR_INVALID_VALUE`; every
//! device must have concurrent managed access, else `CUDA_ERROR_NOT_SUPPORTED`.
//!
//! Residency is the host kernel's (`mincore(2)`): a page never touched, or given back, is
//! resident nowhere. A resident page of pageable memory is on the host. Managed memory here
//! is host memory that no backend migrates ([`crate::managed`]); a resident managed page is
//! reported where the program last prefetched it, else at its preferred location, else on
//! the host, so a program that prefetches to a device and asks sees that device, as it
//! would on a GPU.

use super::{location_type, MemLocation, Target};
use crate::diag::fail;
use crate::memory::MemoryKind;
use crate::vmm::host::page_size;
use crate::{CuError, CuResult, Driver};

/// `CU_MEM_LOCATION_TYPE_NONE`: resident on no processor.
const LOCATION_NONE: MemLocation = MemLocation { kind: 0, id: 0 };

/// Whether each page of `[start, start + pages * page)` is resident (`None` if a page of
/// it is not mapped in this process).
fn residency(start: u64, pages: usize, page: u64) -> Option<Vec<bool>> {
    let mut vec = vec![0u8; pages];
    // SAFETY: `vec` has one byte per page of the range; mincore only reads the page tables
    // and fails with ENOMEM (returned here as None) for pages that are not mapped.
    let rc = unsafe { libc::mincore(start as usize as *mut libc::c_void, pages as u64 as usize * page as usize, vec.as_mut_ptr()) };
    (rc == 0).then(|| vec.into_iter().map(|b| b & 1 != 0).collect())
}

fn target_location(t: Target) -> MemLocation {
    match t {
        Target::Host => MemLocation { kind: location_type::HOST, id: 0 },
        Target::HostNuma => MemLocation { kind: location_type::HOST_NUMA, id: 0 },
        Target::Device(d) => MemLocation { kind: location_type::DEVICE, id: d as i32 },
    }
}

/// Sample counts per location, in the order the locations were first seen.
#[derive(Default)]
struct Tally(Vec<(MemLocation, u64)>);

impl Tally {
    fn add(&mut self, location: MemLocation, n: u64) {
        match self.0.iter_mut().find(|(l, _)| *l == location) {
            Some((_, count)) => *count += n,
            None => self.0.push((location, n)),
        }
    }

    /// The most common location (the first seen of tied ones: the reference lets a tie go
    /// to any of them).
    fn most_common(&self) -> MemLocation {
        let mut best = (LOCATION_NONE, 0);
        for &(l, n) in &self.0 {
            if n > best.1 {
                best = (l, n);
            }
        }
        best.0
    }
}

impl Driver {
    /// `cuMemGetLocationInfo`: one location per `summary`-byte region of `[ptr, ptr + size)`.
    pub fn mem_get_location_info(&self, ptr: u64, size: u64, summary: u64, sampling: u64) -> CuResult<Vec<MemLocation>> {
        const WHAT: &str = "cuMemGetLocationInfo";
        self.current_context()?;
        let bad = |why: std::fmt::Arguments<'_>| fail(CuError::INVALID_VALUE, format_args!("{WHAT}({ptr:#x}, {size}, {summary}, {sampling}): {why}"));
        if summary == 0 || summary > size || sampling > summary {
            return Err(bad(format_args!("granularities")));
        }
        let end = ptr.checked_add(size).ok_or_else(|| bad(format_args!("the range wraps")))?;
        if let Some(d) = (0..self.devices.len()).find(|&d| self.check_concurrent_access(Target::Device(d), WHAT).is_err()) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("{WHAT}: device {d} has no concurrent managed access")));
        }
        let managed = match self.memory.find_range(ptr, size) {
            Some(Ok(a)) if a.kind == MemoryKind::Managed => true,
            None if !self.memory.overlaps(ptr, size) => false,
            other => return Err(bad(format_args!("neither one managed allocation nor unregistered host memory ({other:?})"))),
        };
        let page = page_size();
        let first = ptr - ptr % page;
        let pages = usize::try_from((end - first).div_ceil(page)).map_err(|_| bad(format_args!("size")))?;
        let resident = residency(first, pages, page).ok_or_else(|| bad(format_args!("pages of the range are not mapped")))?;
        let sampling = if sampling == 0 { page } else { sampling };
        let location_at = |addr: u64| -> MemLocation {
            if !resident[((addr - first) / page) as usize] {
                return LOCATION_NONE;
            }
            if !managed {
                return target_location(Target::Host);
            }
            let hints = self.managed_hints.query(addr, addr + 1);
            let hint = hints.first().and_then(|h| h.last_prefetch.or(h.preferred));
            target_location(hint.unwrap_or(Target::Host))
        };
        let regions = size.div_ceil(summary);
        Ok((0..regions)
            .map(|r| {
                let start = ptr + r * summary;
                let stop = (start + summary).min(end);
                // Samples at start, start + sampling, ...; those in one page agree.
                let mut tally = Tally::default();
                let mut addr = start;
                while addr < stop {
                    let page_end = ((addr / page + 1) * page).min(stop);
                    let n = (page_end - addr).div_ceil(sampling);
                    tally.add(location_at(addr), n);
                    addr += n * sampling;
                }
                tally.most_common()
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tests::setup;
    use crate::StreamHandle;

    const MIB: u64 = 1 << 20;

    /// Gives `advice` for the whole pages of `[ptr, ptr + len)`.
    fn advise(ptr: u64, len: u64, advice: libc::c_int) {
        let page = page_size();
        let start = ptr.next_multiple_of(page);
        let pages = (ptr + len - start) / page;
        // SAFETY: pages this test owns; MADV_NOHUGEPAGE keeps their contents, and the
        // ranges given MADV_DONTNEED hold nothing the test reads.
        unsafe { libc::madvise(start as usize as *mut libc::c_void, (pages * page) as usize, advice) };
    }

    fn touch(driver: &Driver, ptr: u64, len: u64) {
        let bytes = vec![7u8; len as usize];
        // SAFETY: `bytes` is readable for `len` bytes.
        unsafe { driver.memcpy_htod(ptr, bytes.as_ptr().cast(), bytes.len()) }.unwrap();
    }

    #[test]
    fn managed_pages_are_where_they_were_touched_or_prefetched() {
        let (driver, _) = setup();
        // Large enough to be mapped lazily: untouched pages are resident nowhere.
        let m = driver.mem_alloc_managed(4 * MIB as usize, 1).unwrap();
        // Small pages (a huge page would make a touched page's neighbours resident too),
        // and the upper half given back to the kernel: the fake device zeroes what it
        // allocates, which makes every page resident.
        advise(m, 4 * MIB, libc::MADV_NOHUGEPAGE);
        advise(m + 2 * MIB, 2 * MIB, libc::MADV_DONTNEED);
        touch(&driver, m, MIB);
        driver.mem_prefetch_async(m + MIB, MIB as usize, 0, StreamHandle::NULL).unwrap();
        touch(&driver, m + MIB, MIB);
        // Half of the third MiB: a tie between the host and nowhere goes to the first seen.
        touch(&driver, m + 2 * MIB, MIB / 2);
        let host = MemLocation { kind: location_type::HOST, id: 0 };
        let device = MemLocation { kind: location_type::DEVICE, id: 0 };
        assert_eq!(driver.mem_get_location_info(m, 4 * MIB, MIB, 0).unwrap(), [host, device, host, LOCATION_NONE]);
        // One region: the host has 1.5 MiB of samples, the device 1, nowhere 1.5; sampled
        // every 64 KiB the same.
        assert_eq!(driver.mem_get_location_info(m, 4 * MIB, 4 * MIB, 64 << 10).unwrap(), [host]);
        // The last region is short: 3 regions of 1.5 MiB over 4 MiB.
        let info = driver.mem_get_location_info(m + MIB, 3 * MIB, 3 * MIB / 2, 4096).unwrap();
        assert_eq!(info, [device, LOCATION_NONE]);

        let bad = |ptr, size, summary, sampling| driver.mem_get_location_info(ptr, size, summary, sampling).err();
        assert_eq!(bad(m, MIB, 0, 0), Some(CuError::INVALID_VALUE), "summary granularity 0");
        assert_eq!(bad(m, MIB, 2 * MIB, 0), Some(CuError::INVALID_VALUE), "summary granularity past the size");
        assert_eq!(bad(m, MIB, 4096, 8192), Some(CuError::INVALID_VALUE), "sampling coarser than the summary");
        assert_eq!(bad(m + 3 * MIB, 2 * MIB, MIB, 0), Some(CuError::INVALID_VALUE), "past the allocation");
        let d = driver.mem_alloc(MIB as usize).unwrap();
        assert_eq!(bad(d, MIB, MIB, 0), Some(CuError::INVALID_VALUE), "device memory");
        driver.mem_free(d).unwrap();
        driver.mem_free(m).unwrap();
    }

    #[test]
    fn pageable_memory_is_on_the_host_once_touched() {
        let (driver, _) = setup();
        let len = 2 * MIB as usize;
        // SAFETY: a fresh private anonymous mapping, unmapped below.
        let p = unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0) };
        assert_ne!(p, libc::MAP_FAILED);
        advise(p as u64, 2 * MIB, libc::MADV_NOHUGEPAGE);
        // SAFETY: the first MiB of the mapping is writable.
        unsafe { std::ptr::write_bytes(p.cast::<u8>(), 1, MIB as usize) };
        let host = MemLocation { kind: location_type::HOST, id: 0 };
        assert_eq!(driver.mem_get_location_info(p as u64, 2 * MIB, MIB, 0).unwrap(), [host, LOCATION_NONE]);
        // SAFETY: the mapping made above, no longer used.
        unsafe { libc::munmap(p, len) };
        assert_eq!(driver.mem_get_location_info(p as u64, 2 * MIB, MIB, 0).err(), Some(CuError::INVALID_VALUE), "not mapped");
    }
}
