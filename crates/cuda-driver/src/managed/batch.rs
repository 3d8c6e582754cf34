//! `cuMemPrefetchBatchAsync`, `cuMemDiscardBatchAsync`, `cuMemDiscardAndPrefetchBatchAsync`
//! (CUDA Driver API, "Unified Addressing", CUDA 13.0).
//!
//! The batch forms of [`Driver::mem_prefetch_async_v2`]: every range must be managed
//! memory, and the locations apply by index ranges (`prefetchLocs[k]` to the operations
//! from `prefetchLocIdxs[k]` up to the next index; the first index 0, indices increasing
//! and below `count`, `numPrefetchLocs` from 1 to `count`); `flags` must be 0. Every device
//! must have concurrent managed access (the CPU device has), and the legacy NULL stream is
//! not accepted (NVIDIA's driver answers `CUDA_ERROR_INVALID_VALUE`). A prefetch moves nothing here
//! and is remembered for the range attributes. A discard declares the contents
//! indeterminate: leaving them as they are is one of the values the reference allows, and
//! a later write or prefetch makes them defined again, so it too only checks its
//! arguments.

use super::{MemLocation, Target};
use crate::diag::fail;
use crate::{CuError, CuResult, Driver, StreamHandle};

/// The location of each of `count` operations, from the batch's index ranges.
fn locations_by_index(count: usize, locations: &[MemLocation], indices: &[usize], what: &str) -> CuResult<Vec<MemLocation>> {
    let bad = |why: std::fmt::Arguments<'_>| Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {why}")));
    if locations.is_empty() || locations.len() > count || indices.len() != locations.len() {
        return bad(format_args!("{} locations for {count} operations", locations.len()));
    }
    if indices[0] != 0 || indices.windows(2).any(|w| w[0] >= w[1]) || indices.iter().any(|&i| i >= count) {
        return bad(format_args!("location indices {indices:?} for {count} operations"));
    }
    let mut out = Vec::with_capacity(count);
    for (k, &loc) in locations.iter().enumerate() {
        let end = indices.get(k + 1).copied().unwrap_or(count);
        out.resize(end, loc);
    }
    Ok(out)
}

impl Driver {
    fn batch_checks(&self, ranges: &[(u64, usize)], flags: u64, stream: StreamHandle, what: &str) -> CuResult<()> {
        self.stream_context(stream)?;
        if stream == StreamHandle::NULL || stream == StreamHandle::LEGACY {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: the legacy NULL stream")));
        }
        if flags != 0 || ranges.is_empty() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: flags {flags:#x}, {} ranges", ranges.len())));
        }
        if let Some(d) = (0..self.devices.len()).find(|&d| self.check_concurrent_access(Target::Device(d), what).is_err()) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: device {d} has no concurrent managed access")));
        }
        ranges.iter().try_for_each(|&(ptr, size)| self.check_managed_range(ptr, size, what))
    }

    fn prefetch_batch(&self, ranges: &[(u64, usize)], locations: Vec<MemLocation>, stream: StreamHandle) -> CuResult<()> {
        let targets = locations.into_iter().map(|l| self.location_target(l)).collect::<CuResult<Vec<Target>>>()?;
        for (&(ptr, size), target) in ranges.iter().zip(targets) {
            self.mem_prefetch_to(ptr, size, target, stream)?;
        }
        Ok(())
    }

    /// `cuMemPrefetchBatchAsync`.
    pub fn mem_prefetch_batch_async(
        &self,
        ranges: &[(u64, usize)],
        locations: &[MemLocation],
        indices: &[usize],
        flags: u64,
        stream: StreamHandle,
    ) -> CuResult<()> {
        const WHAT: &str = "cuMemPrefetchBatchAsync";
        self.batch_checks(ranges, flags, stream, WHAT)?;
        let locations = locations_by_index(ranges.len(), locations, indices, WHAT)?;
        self.prefetch_batch(ranges, locations, stream)
    }

    /// `cuMemDiscardBatchAsync`.
    pub fn mem_discard_batch_async(&self, ranges: &[(u64, usize)], flags: u64, stream: StreamHandle) -> CuResult<()> {
        self.batch_checks(ranges, flags, stream, "cuMemDiscardBatchAsync")
    }

    /// `cuMemDiscardAndPrefetchBatchAsync`: a discard, then a prefetch, of every range.
    pub fn mem_discard_and_prefetch_batch_async(
        &self,
        ranges: &[(u64, usize)],
        locations: &[MemLocation],
        indices: &[usize],
        flags: u64,
        stream: StreamHandle,
    ) -> CuResult<()> {
        const WHAT: &str = "cuMemDiscardAndPrefetchBatchAsync";
        self.batch_checks(ranges, flags, stream, WHAT)?;
        let locations = locations_by_index(ranges.len(), locations, indices, WHAT)?;
        self.prefetch_batch(ranges, locations, stream)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn locations_apply_by_index_ranges() {
        let a = MemLocation { kind: 1, id: 0 };
        let h = MemLocation { kind: 2, id: 0 };
        assert_eq!(locations_by_index(4, &[a, h], &[0, 3], "t").unwrap(), vec![a, a, a, h]);
        assert_eq!(locations_by_index(2, &[h], &[0], "t").unwrap(), vec![h, h]);
        assert!(locations_by_index(2, &[a, h], &[1, 0], "t").is_err());
        assert!(locations_by_index(2, &[a, h], &[0, 2], "t").is_err());
        assert!(locations_by_index(1, &[a, h], &[0, 1], "t").is_err());
        assert!(locations_by_index(2, &[], &[], "t").is_err());
    }
}
