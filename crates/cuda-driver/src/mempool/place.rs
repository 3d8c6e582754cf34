//! Where a pool's memory lives: the `(CUmemAllocationType, CUmemLocation)` pair that
//! CUDA 13's `cuMemGetDefaultMemPool`, `cuMemGetMemPool`, `cuMemSetMemPool` and
//! `cuMemPoolCreate` take (`cuda.h`, "Stream Ordered Memory Allocator"), and the access a
//! pool of each place grants.
//!
//! Pinned memory lies on a device, on the host (`LOCATION_HOST`, whose id `cuda.h` says is
//! ignored) or on a host NUMA node; managed memory may also have no preferred location
//! (`LOCATION_NONE`, whose id NVIDIA's driver ignores too). This driver knows one host NUMA
//! node, 0 (`CU_DEVICE_ATTRIBUTE_HOST_NUMA_ID`). Host and host-NUMA pools take their memory
//! from a device whose memory is the host's, managed pools from a device with managed
//! memory: on the CPU device every pool is host memory.
//!
//! Codes as NVIDIA's driver answered (H200, driver 580.159.04; `tests/mempool_places.rs`
//! holds the table): a bad type, a location of the wrong kind, a bad device or NUMA node is
//! `INVALID_VALUE`; `HOST_NUMA_CURRENT` is `NOT_SUPPORTED` to the get calls, refused
//! (`INVALID_VALUE`) for a pinned pool by `cuMemPoolCreate`, and accepted for a managed one.

use crate::diag::fail;
use crate::{CuError, CuResult, Driver};

/// `CU_MEM_ALLOCATION_TYPE_PINNED` and `_MANAGED`.
pub(super) const ALLOC_PINNED: u32 = 1;
pub(super) const ALLOC_MANAGED: u32 = 2;
/// `CU_MEM_LOCATION_TYPE_*`.
pub(super) const LOCATION_NONE: u32 = 0;
pub(super) const LOCATION_DEVICE: u32 = 1;
pub(super) const LOCATION_HOST: u32 = 2;
pub(super) const LOCATION_HOST_NUMA: u32 = 3;
pub(super) const LOCATION_HOST_NUMA_CURRENT: u32 = 4;

/// A pool's place, normalized: ids that do not matter are dropped, so that equal places
/// share one default and one current pool.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Place {
    /// Pinned memory of a device.
    Device(usize),
    /// Pinned host memory.
    Host,
    /// Pinned memory of host NUMA node 0.
    HostNuma,
    /// Managed memory, with its preferred location.
    Managed(Preferred),
}

/// A managed pool's preferred location.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum Preferred {
    None,
    Device(usize),
    Host,
    HostNuma,
}

/// What a pool's allocations are, for pointer attributes and access checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PoolMemory {
    /// Device memory (`CU_MEMORYTYPE_DEVICE`).
    Device,
    /// Pinned host memory (`CU_MEMORYTYPE_HOST`), accessible by devices only where the
    /// pool grants it.
    Host,
    /// Managed memory (`IS_MANAGED`; `CU_MEMORYTYPE_DEVICE`, as `cuMemAllocManaged`'s).
    Managed,
}

impl Place {
    pub(crate) fn memory(self) -> PoolMemory {
        match self {
            Place::Device(_) => PoolMemory::Device,
            Place::Host | Place::HostNuma => PoolMemory::Host,
            Place::Managed(_) => PoolMemory::Managed,
        }
    }

    /// The access a new pool grants: its own device reads and writes a device pool; the
    /// host a host pool; a managed pool lists no one, its memory being reachable from
    /// everywhere anyway (as NVIDIA's driver answers `cuMemPoolGetAccess`).
    pub(super) fn initial_access(self) -> (Option<usize>, bool) {
        match self {
            Place::Device(d) => (Some(d), false),
            Place::Host | Place::HostNuma => (None, true),
            Place::Managed(_) => (None, false),
        }
    }
}

/// Why a place is asked for: the get/set calls and `cuMemPoolCreate` differ on
/// `HOST_NUMA_CURRENT`.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Ask {
    GetOrSet,
    Create,
}

impl Driver {
    /// The place of `(location type, id, allocation type)`, and the device whose backend
    /// supplies its memory (`NOT_SUPPORTED` where no device can).
    pub(super) fn pool_place(&self, location_type: u32, id: i32, alloc_type: u32, ask: Ask) -> CuResult<(Place, usize)> {
        let invalid =
            || fail(CuError::INVALID_VALUE, format_args!("memory pool location type {location_type} id {id}, allocation type {alloc_type}"));
        let device = |id: i32| usize::try_from(id).ok().filter(|&d| d < self.devices.len()).ok_or_else(invalid);
        let numa = |id: i32| if id == 0 { Ok(()) } else { Err(invalid()) };
        let current = || match ask {
            Ask::GetOrSet => Err(fail(CuError::NOT_SUPPORTED, format_args!("memory pools at HOST_NUMA_CURRENT"))),
            Ask::Create => Err(invalid()),
        };
        let place = match (alloc_type, location_type) {
            (ALLOC_PINNED, LOCATION_DEVICE) => Place::Device(device(id)?),
            (ALLOC_PINNED, LOCATION_HOST) => Place::Host,
            (ALLOC_PINNED, LOCATION_HOST_NUMA) => numa(id).map(|()| Place::HostNuma)?,
            (ALLOC_PINNED, LOCATION_HOST_NUMA_CURRENT) => return current(),
            (ALLOC_MANAGED, LOCATION_NONE) => Place::Managed(Preferred::None),
            (ALLOC_MANAGED, LOCATION_DEVICE) => Place::Managed(Preferred::Device(device(id)?)),
            (ALLOC_MANAGED, LOCATION_HOST) => Place::Managed(Preferred::Host),
            (ALLOC_MANAGED, LOCATION_HOST_NUMA) => numa(id).map(|()| Place::Managed(Preferred::HostNuma))?,
            // A managed pool preferring the calling thread's node: node 0, the only one.
            (ALLOC_MANAGED, LOCATION_HOST_NUMA_CURRENT) if ask == Ask::Create => Place::Managed(Preferred::HostNuma),
            (ALLOC_MANAGED, LOCATION_HOST_NUMA_CURRENT) => return current(),
            _ => return Err(invalid()),
        };
        Ok((place, self.place_device(place)?))
    }

    /// The device whose backend holds a place's memory.
    fn place_device(&self, place: Place) -> CuResult<usize> {
        let host = |d: &usize| self.backend_of(*d).properties().host_addressable_memory;
        let managed = |d: &usize| self.backend_of(*d).managed_memory().is_some();
        let found = match place {
            Place::Device(d) => Some(d),
            Place::Host | Place::HostNuma => (0..self.devices.len()).find(host),
            Place::Managed(Preferred::Device(d)) => Some(d).filter(managed),
            Place::Managed(_) => (0..self.devices.len()).find(managed),
        };
        found.ok_or_else(|| fail(CuError::NOT_SUPPORTED, format_args!("memory pools of {place:?}: no device has such memory")))
    }
}
