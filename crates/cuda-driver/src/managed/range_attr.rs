//! `cuMemRangeGetAttribute` / `cuMemRangeGetAttributes` (CUDA Driver API, "Unified
//! Addressing", `CUmem_range_attribute`): what the hints of a managed range say.
//!
//! Each attribute is one or more 32-bit integers. Read-mostly is 1 only if every page has
//! it; a location (preferred, last prefetch) is reported only if every page has the same
//! one, else `CU_DEVICE_INVALID` (-2) or `CU_MEM_LOCATION_TYPE_INVALID`; accessed-by lists
//! the devices (`CU_DEVICE_CPU` for the host) whose advice covers the whole range, the rest
//! of the array filled with `CU_DEVICE_INVALID`. `dataSize` must be 4, for accessed-by a
//! nonzero multiple of 4. These are the values and codes NVIDIA's driver gave (580.159,
//! H200) for the same advice, prefetches and misuse (`ctests/host/stream_ops.c`).

use super::{location_type, Target, DEVICE_CPU};
use crate::diag::fail;
use crate::{CuError, CuResult, Driver};

/// `CU_DEVICE_INVALID`.
pub const DEVICE_INVALID: i32 = -2;

/// `CUmem_range_attribute` values.
pub mod attr {
    pub const READ_MOSTLY: i32 = 1;
    pub const PREFERRED_LOCATION: i32 = 2;
    pub const ACCESSED_BY: i32 = 3;
    pub const LAST_PREFETCH_LOCATION: i32 = 4;
    pub const PREFERRED_LOCATION_TYPE: i32 = 5;
    pub const PREFERRED_LOCATION_ID: i32 = 6;
    pub const LAST_PREFETCH_LOCATION_TYPE: i32 = 7;
    pub const LAST_PREFETCH_LOCATION_ID: i32 = 8;
}

/// The one location every segment has, if they agree.
fn common(all: impl Iterator<Item = Option<Target>>) -> Option<Target> {
    let mut first: Option<Option<Target>> = None;
    for t in all {
        match first {
            None => first = Some(t),
            Some(f) if f != t => return None,
            _ => {}
        }
    }
    first.flatten()
}

/// A location as a device argument (`CU_DEVICE_CPU` for the host and its NUMA nodes).
fn as_device(t: Option<Target>) -> i32 {
    match t {
        Some(Target::Device(d)) => d as i32,
        Some(Target::Host | Target::HostNuma) => DEVICE_CPU,
        None => DEVICE_INVALID,
    }
}

/// A location's `CUmemLocationType` (0, `CU_MEM_LOCATION_TYPE_INVALID`, when none).
fn as_type(t: Option<Target>) -> i32 {
    match t {
        Some(Target::Device(_)) => location_type::DEVICE,
        Some(Target::Host) => location_type::HOST,
        Some(Target::HostNuma) => location_type::HOST_NUMA,
        None => 0,
    }
}

/// A location's id: the device ordinal, the host NUMA node (this driver knows node 0),
/// `CU_DEVICE_CPU` for the host (as NVIDIA's driver answers), `CU_DEVICE_INVALID` for none.
fn as_id(t: Option<Target>) -> i32 {
    match t {
        Some(Target::Device(d)) => d as i32,
        Some(Target::HostNuma) => 0,
        Some(Target::Host) => DEVICE_CPU,
        None => DEVICE_INVALID,
    }
}

impl Driver {
    /// `cuMemRangeGetAttribute`: the values of `attribute` over `[ptr, ptr + count)`,
    /// `data_size / 4` integers.
    pub fn mem_range_get_attribute(&self, attribute: i32, data_size: usize, ptr: u64, count: usize) -> CuResult<Vec<i32>> {
        let bad = |why: std::fmt::Arguments<'_>| Err(fail(CuError::INVALID_VALUE, format_args!("cuMemRangeGetAttribute: {why}")));
        match attribute {
            attr::ACCESSED_BY if data_size == 0 || !data_size.is_multiple_of(4) => return bad(format_args!("dataSize {data_size} for ACCESSED_BY")),
            attr::ACCESSED_BY => {}
            attr::READ_MOSTLY..=attr::LAST_PREFETCH_LOCATION_ID if data_size != 4 => return bad(format_args!("dataSize {data_size}")),
            attr::READ_MOSTLY..=attr::LAST_PREFETCH_LOCATION_ID => {}
            other => return bad(format_args!("attribute {other}")),
        }
        self.check_managed_range(ptr, count, "cuMemRangeGetAttribute")?;
        let hints = self.managed_hints.query(ptr, ptr + count as u64);
        let preferred = || common(hints.iter().map(|h| h.preferred));
        let prefetched = || common(hints.iter().map(|h| h.last_prefetch));
        Ok(match attribute {
            attr::READ_MOSTLY => vec![hints.iter().all(|h| h.read_mostly) as i32],
            attr::PREFERRED_LOCATION => vec![as_device(preferred())],
            attr::LAST_PREFETCH_LOCATION => vec![as_device(prefetched())],
            attr::PREFERRED_LOCATION_TYPE => vec![as_type(preferred())],
            attr::PREFERRED_LOCATION_ID => vec![as_id(preferred())],
            attr::LAST_PREFETCH_LOCATION_TYPE => vec![as_type(prefetched())],
            attr::LAST_PREFETCH_LOCATION_ID => vec![as_id(prefetched())],
            _ => {
                let mut everywhere: Vec<i32> =
                    hints[0].accessed_by.iter().filter(|t| hints.iter().all(|h| h.accessed_by.contains(t))).map(|&t| as_device(Some(t))).collect();
                // Devices by ordinal, then the host, as NVIDIA's driver lists them.
                everywhere.sort_unstable_by_key(|&d| (d < 0, d));
                everywhere.resize(data_size / 4, DEVICE_INVALID);
                everywhere.truncate(data_size / 4);
                everywhere
            }
        })
    }
}
