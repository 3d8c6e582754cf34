//! Hints on managed memory: `cuMemAdvise(_v2)` and `cuMemPrefetchAsync(_v2)`; stream
//! attachment (`cuStreamAttachMemAsync`).
//!
//! Both only tell the Unified Memory system where data should live; CUDA documents that
//! they never change what a program computes. No backend here migrates managed memory
//! (the CPU device's is host memory, AMD's is fine-grained system memory that stays where
//! it is), so after checking the arguments as CUDA does, both have nothing to do: the
//! data is already wherever it can be accessed from. The checks follow the CUDA Driver API
//! reference (`cuda.h` of CUDA 13 on `cuMemAdvise` and `cuMemPrefetchAsync`): the range
//! must lie in managed memory (no device here has pageable memory access); read-mostly
//! advice and `UNSET_PREFERRED_LOCATION` ignore the location; a preferred location is the
//! host, a host NUMA node or a device; accessed-by locations are the host or a device; a
//! device that is a preferred location, accesses by mapping (`SET_ACCESSED_BY`) or is
//! prefetched to, and the stream's device of a prefetch to a device, must have concurrent
//! managed access.

use crate::diag::fail;
use crate::memory::MemoryKind;
use crate::{CuError, CuResult, Driver, StreamHandle};

/// `CU_DEVICE_CPU`: the host as a device argument.
pub const DEVICE_CPU: i32 = -1;

/// A `CUmemLocation` (`type`, `id`) of the `_v2` calls.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemLocation {
    pub kind: i32,
    pub id: i32,
}

/// `CUmemLocationType` values.
pub mod location_type {
    pub const DEVICE: i32 = 1;
    pub const HOST: i32 = 2;
    pub const HOST_NUMA: i32 = 3;
    pub const HOST_NUMA_CURRENT: i32 = 4;
}

mod batch;
mod location_info;
pub mod range_attr;
mod ranges;
pub(crate) use ranges::Ranges;

/// Where a hint points.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Target {
    Host,
    /// A host NUMA node (`HOST_NUMA`, `HOST_NUMA_CURRENT`).
    HostNuma,
    Device(usize),
}

/// `CUmem_advise`.
const SET_READ_MOSTLY: i32 = 1;
const UNSET_READ_MOSTLY: i32 = 2;
const SET_PREFERRED_LOCATION: i32 = 3;
const UNSET_PREFERRED_LOCATION: i32 = 4;
const SET_ACCESSED_BY: i32 = 5;
const UNSET_ACCESSED_BY: i32 = 6;

/// `CUmemAttach_flags`.
const ATTACH_GLOBAL: u32 = 1;
const ATTACH_HOST: u32 = 2;
const ATTACH_SINGLE: u32 = 4;

impl Driver {
    /// The device ordinal `device` as a hint's target (`CU_DEVICE_CPU` is the host).
    fn hint_target(&self, device: i32) -> CuResult<Target> {
        if device == DEVICE_CPU {
            return Ok(Target::Host);
        }
        match usize::try_from(device) {
            Ok(d) if d < self.devices.len() => Ok(Target::Device(d)),
            _ => Err(fail(CuError::INVALID_DEVICE, format_args!("managed-memory hint: device {device}"))),
        }
    }

    /// A `CUmemLocation` as a hint's target: a device, or the host (a NUMA node of it: this
    /// driver knows one host node, 0).
    pub(crate) fn location_target(&self, location: MemLocation) -> CuResult<Target> {
        match location.kind {
            location_type::DEVICE => match self.hint_target(location.id)? {
                Target::Host => Err(fail(CuError::INVALID_DEVICE, format_args!("CUmemLocation: device {}", location.id))),
                t => Ok(t),
            },
            location_type::HOST => Ok(Target::Host),
            location_type::HOST_NUMA_CURRENT => Ok(Target::HostNuma),
            location_type::HOST_NUMA if location.id == 0 => Ok(Target::HostNuma),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("CUmemLocation {location:?}"))),
        }
    }

    /// `[ptr, ptr + count)` must lie in one managed allocation.
    pub(crate) fn check_managed_range(&self, ptr: u64, count: usize, what: &str) -> CuResult<()> {
        match self.memory.find_range(ptr, count as u64) {
            Some(Ok(a)) if a.kind == MemoryKind::Managed && count > 0 => Ok(()),
            other => Err(fail(CuError::INVALID_VALUE, format_args!("{what}({ptr:#x}, {count}): not a managed range ({other:?})"))),
        }
    }

    /// A device that data is moved to or preferred on must have concurrent managed access.
    pub(crate) fn check_concurrent_access(&self, target: Target, what: &str) -> CuResult<()> {
        match target {
            Target::Device(d) if !self.devices[d].backend.managed_memory().is_some_and(|m| m.concurrent_access) => {
                Err(fail(CuError::INVALID_DEVICE, format_args!("{what}: device {d} has no concurrent managed access")))
            }
            _ => Ok(()),
        }
    }

    fn mem_advise_to(&self, ptr: u64, count: usize, advice: i32, target: CuResult<Target>) -> CuResult<()> {
        self.current_context()?;
        if !(SET_READ_MOSTLY..=UNSET_ACCESSED_BY).contains(&advice) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemAdvise: advice {advice}")));
        }
        self.check_managed_range(ptr, count, "cuMemAdvise")?;
        let target = match advice {
            SET_READ_MOSTLY | UNSET_READ_MOSTLY | UNSET_PREFERRED_LOCATION => None,
            SET_PREFERRED_LOCATION => {
                let t = target?;
                self.check_concurrent_access(t, "cuMemAdvise(SET_PREFERRED_LOCATION)")?;
                Some(t)
            }
            _ => match target? {
                Target::HostNuma => {
                    return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemAdvise({advice}): a host NUMA node cannot access by mapping")))
                }
                t => {
                    if advice == SET_ACCESSED_BY {
                        self.check_concurrent_access(t, "cuMemAdvise(SET_ACCESSED_BY)")?;
                    }
                    Some(t)
                }
            },
        };
        // Remembered for cuMemRangeGetAttribute (`managed/ranges.rs`).
        self.managed_hints.update(ptr, ptr + count as u64, |h| match (advice, target) {
            (SET_READ_MOSTLY, _) => h.read_mostly = true,
            (UNSET_READ_MOSTLY, _) => h.read_mostly = false,
            (SET_PREFERRED_LOCATION, t) => h.preferred = t,
            (UNSET_PREFERRED_LOCATION, _) => h.preferred = None,
            (SET_ACCESSED_BY, Some(t)) if !h.accessed_by.contains(&t) => h.accessed_by.push(t),
            (UNSET_ACCESSED_BY, Some(t)) => h.accessed_by.retain(|&a| a != t),
            _ => {}
        });
        Ok(())
    }

    /// `cuMemAdvise`: a checked no-op (see the module docs); `device` is an ordinal or
    /// `CU_DEVICE_CPU`.
    pub fn mem_advise(&self, ptr: u64, count: usize, advice: i32, device: i32) -> CuResult<()> {
        self.mem_advise_to(ptr, count, advice, self.hint_target(device))
    }

    /// `cuMemAdvise_v2`: as [`Driver::mem_advise`] with a `CUmemLocation`.
    pub fn mem_advise_v2(&self, ptr: u64, count: usize, advice: i32, location: MemLocation) -> CuResult<()> {
        // A location naming no device is a bad value here (NVIDIA's driver 580), where
        // cuMemPrefetchAsync_v2 and the device-numbered cuMemAdvise answer INVALID_DEVICE.
        let target = self.location_target(location).map_err(|e| if e == CuError::INVALID_DEVICE { CuError::INVALID_VALUE } else { e });
        self.mem_advise_to(ptr, count, advice, target)
    }

    pub(crate) fn mem_prefetch_to(&self, ptr: u64, count: usize, target: Target, stream: StreamHandle) -> CuResult<()> {
        let ctx = self.stream_context(stream)?;
        self.check_managed_range(ptr, count, "cuMemPrefetchAsync")?;
        self.check_concurrent_access(target, "cuMemPrefetchAsync")?;
        if matches!(target, Target::Device(_)) {
            self.check_concurrent_access(Target::Device(ctx.device), "cuMemPrefetchAsync: the stream's device")?;
        }
        self.managed_hints.update(ptr, ptr + count as u64, |h| h.last_prefetch = Some(target));
        Ok(())
    }

    /// `cuMemPrefetchAsync`: a checked no-op on `stream` (nothing moves, so nothing needs
    /// to be ordered); `device` is an ordinal or `CU_DEVICE_CPU`.
    pub fn mem_prefetch_async(&self, ptr: u64, count: usize, device: i32, stream: StreamHandle) -> CuResult<()> {
        let target = self.hint_target(device)?;
        self.mem_prefetch_to(ptr, count, target, stream)
    }

    /// `cuMemPrefetchAsync_v2`: as [`Driver::mem_prefetch_async`] with a `CUmemLocation`;
    /// `flags` must be 0.
    pub fn mem_prefetch_async_v2(&self, ptr: u64, count: usize, location: MemLocation, flags: u32, stream: StreamHandle) -> CuResult<()> {
        if flags != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemPrefetchAsync_v2: flags {flags:#x}")));
        }
        let target = self.location_target(location)?;
        self.mem_prefetch_to(ptr, count, target, stream)
    }

    /// `cuStreamAttachMemAsync`: a checked no-op. Attaching decides which of the device's
    /// streams (or the host) may touch managed memory while the device works; here managed
    /// memory is accessible from every stream and from the host at all times, so every
    /// attachment already holds and there is nothing to order. The checks follow the
    /// Driver API reference (`cuStreamAttachMemAsync`): one of the three flags; no single
    /// attachment to the NULL (legacy) stream, which stands for no stream in particular;
    /// `dptr` in managed memory; `length` 0 (the whole allocation) or, on a device without
    /// concurrent managed access, the whole allocation.
    pub fn stream_attach_mem_async(&self, stream: StreamHandle, ptr: u64, length: usize, flags: u32) -> CuResult<()> {
        let ctx = self.stream_context(stream)?;
        if !matches!(flags, ATTACH_GLOBAL | ATTACH_HOST | ATTACH_SINGLE) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamAttachMemAsync: flags {flags:#x}")));
        }
        if flags == ATTACH_SINGLE && (stream == StreamHandle::NULL || stream == StreamHandle::LEGACY) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamAttachMemAsync: single attachment to the NULL stream")));
        }
        let a = match self.memory.find_range(ptr, length.max(1) as u64) {
            Some(Ok(a)) if a.kind == MemoryKind::Managed => a,
            other => return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamAttachMemAsync({ptr:#x}, {length}): not managed ({other:?})"))),
        };
        let whole = length == 0 || (ptr == a.base && length as u64 == a.size);
        if !whole && self.check_concurrent_access(Target::Device(ctx.device), "cuStreamAttachMemAsync").is_err() {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!("cuStreamAttachMemAsync: part of an allocation without concurrent managed access"),
            ));
        }
        Ok(())
    }
}
