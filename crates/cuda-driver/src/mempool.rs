//! Stream-ordered allocation (CUDA Driver API, "Stream Ordered Memory Allocator"):
//! `cuMemAllocAsync`, `cuMemAllocFromPoolAsync`, `cuMemFreeAsync`, memory pools
//! (`cuMemPoolCreate`/`Destroy`, attributes, `cuMemPoolTrimTo`, access), each device's
//! default and current pool (`cuDeviceGetDefaultMemPool`, `cuDeviceGet/SetMemPool`, and
//! CUDA 13's `cuMemGetDefaultMemPool`/`cuMemGet/SetMemPool` by location).
//!
//! A pool holds segments of backend memory and hands out blocks of them ([`blocks`]); an
//! allocation is registered as [`MemoryKind::Pool`] (copies and fills treat it as backend
//! memory) and returned at once. Reuse follows stream order without any synchronization:
//! `cuMemFreeAsync` queues a no-op on the stream and gives the block back at once with
//! that operation's marker, and an allocation on a stream takes a free block when every
//! marker of the block is one the stream follows (NVIDIA's reuse policies, each a pool
//! attribute, default on):
//! - the same stream: always (stream order);
//! - `REUSE_FOLLOW_EVENT_DEPENDENCIES`: a stream that waits for the free through
//!   `cuStreamWaitEvent`, or through the legacy default stream's implicit synchronization;
//! - `REUSE_ALLOW_OPPORTUNISTIC`: any stream once the free has completed;
//! - after a synchronization that observed the free complete (stream, event or context
//!   synchronize), any stream whatever the attributes;
//! - `REUSE_ALLOW_INTERNAL_DEPENDENCIES`: only when the pool cannot grow (its maximum size,
//!   or the device's memory), a block freed on another stream, the allocating stream then
//!   waiting for the free (a queued no-op with that dependency). NVIDIA's driver too grew
//!   its pool rather than adding a dependency (H200, driver 580.159, 2026-11-27).
//!
//! Sizes and watermarks follow what NVIDIA's pools report: memory is reserved 32 MiB at a
//! time, allocations are packed at 512-byte steps, `USED_MEM_CURRENT` counts the bytes
//! asked for, resetting a high watermark sets it to the current value, and at each
//! synchronization a pool gives the memory above its release threshold back to the device
//! (`RELEASE_THRESHOLD`, default 0: all of it). One difference: NVIDIA's pool grows one
//! contiguous range, so an allocation may span chunks; ours are separate backend
//! allocations, each a whole number of chunks.
//!
//! A pool handle that is not (or no longer) valid answers `CUDA_ERROR_INVALID_VALUE`, the
//! code these calls document. Pools hold pinned memory of a device, pinned host memory or
//! managed memory ([`place`]): each place has its own default and current pool, and the
//! allocations of host and managed pools are registered as such
//! ([`crate::memory::PoolMemory`]). Pools shareable as POSIX file descriptors
//! (`handleTypes`) keep their memory in a file ([`crate::ipc::pool`]).

mod blocks;
mod place;

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use backend_api::DevicePtr;

use crate::diag::fail;
use crate::exec::{Marker, Queue, Work};
use crate::handle::HandleTable;
use crate::ipc::pool::Sharing;
use crate::memory::{Allocation, MemoryKind};
use crate::{CuError, CuResult, Driver, PoolHandle, StreamHandle};
use blocks::{Blocks, Fit};
pub use place::PoolMemory;
use place::{Ask, Place, Preferred, LOCATION_DEVICE, LOCATION_HOST, LOCATION_HOST_NUMA};

/// `CU_MEMPOOL_ATTR_*`.
pub mod attr {
    pub const REUSE_FOLLOW_EVENT_DEPENDENCIES: i32 = 1;
    pub const REUSE_ALLOW_OPPORTUNISTIC: i32 = 2;
    pub const REUSE_ALLOW_INTERNAL_DEPENDENCIES: i32 = 3;
    pub const RELEASE_THRESHOLD: i32 = 4;
    pub const RESERVED_MEM_CURRENT: i32 = 5;
    pub const RESERVED_MEM_HIGH: i32 = 6;
    pub const USED_MEM_CURRENT: i32 = 7;
    pub const USED_MEM_HIGH: i32 = 8;
}

/// Whether pool attribute `attribute` is an `int` (`Some(true)`) or a `cuuint64_t`
/// (`Some(false)`); `None` for an unknown attribute.
pub fn attribute_is_int(attribute: i32) -> Option<bool> {
    match attribute {
        1..=3 => Some(true),
        4..=8 => Some(false),
        _ => None,
    }
}

/// `CU_MEM_ACCESS_FLAGS_PROT_*`.
const ACCESS_NONE: u32 = 0;
const ACCESS_READ: u32 = 1;
const ACCESS_READWRITE: u32 = 3;
/// `CU_MEM_POOL_CREATE_USAGE_HW_DECOMPRESS`.
const USAGE_HW_DECOMPRESS: u16 = 0x2;

/// `CUmemPoolProps`, as the driver checks it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PoolProps {
    /// `CUmemAllocationType`.
    pub alloc_type: u32,
    /// `CUmemAllocationHandleType` bits.
    pub handle_types: u32,
    /// `CUmemLocationType` and its id.
    pub location_type: u32,
    pub location_id: i32,
    /// Whether `win32SecurityAttributes` is non-NULL.
    pub win32_security_attributes: bool,
    /// `maxSize` (0: no limit but the device's memory).
    pub max_size: u64,
    pub usage: u16,
    /// Whether every `reserved` byte is 0.
    pub reserved_zero: bool,
}

/// The reuse policies and release threshold of a pool.
#[derive(Clone, Copy)]
struct Policy {
    release_threshold: u64,
    follow_event_dependencies: bool,
    opportunistic: bool,
    internal_dependencies: bool,
}

struct Inner {
    policy: Policy,
    blocks: Blocks,
    /// `CUmemAccess_flags` per device ordinal, and the host's.
    access: Vec<u32>,
    host_access: u32,
    /// `cuMemPoolDestroy` was called: the handle answers `INVALID_VALUE`, and the memory
    /// goes back to the device once every allocation has been freed.
    destroyed: bool,
    /// Allocations not freed yet.
    live: u64,
}

/// A memory pool.
pub struct MemPool {
    /// The device whose backend holds the pool's memory (for host and managed pools, one
    /// whose memory the host addresses or that has managed memory).
    pub(crate) device: usize,
    place: Place,
    is_default: bool,
    /// What `maxSize` allows to reserve (whole chunks), `None` for no limit.
    max_reserved: Option<u64>,
    inner: Mutex<Inner>,
    /// Whether (and how) the pool is shared with other processes.
    pub(crate) sharing: Sharing,
}

impl MemPool {
    fn new(place: Place, device: usize, devices: usize, is_default: bool, max_reserved: Option<u64>, sharing: Sharing) -> MemPool {
        let mut access = vec![ACCESS_NONE; devices];
        let (own, host) = place.initial_access();
        if let Some(d) = own {
            access[d] = ACCESS_READWRITE;
        }
        let host_access = if host { ACCESS_READWRITE } else { ACCESS_NONE };
        let policy = Policy { release_threshold: 0, follow_event_dependencies: true, opportunistic: true, internal_dependencies: true };
        MemPool {
            device,
            place,
            is_default,
            max_reserved,
            inner: Mutex::new(Inner { policy, blocks: Blocks::default(), access, host_access, destroyed: false, live: 0 }),
            sharing,
        }
    }

    /// Whether device `device` may access the pool's memory (`cuMemPoolSetAccess`); managed
    /// memory is accessible from every device whatever the pool lists.
    fn device_access(&self, device: usize) -> bool {
        self.place.memory() == PoolMemory::Managed || self.inner().access.get(device).is_some_and(|&a| a != ACCESS_NONE)
    }

    fn inner(&self) -> MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Every pool, each place's default and current pool.
pub(crate) struct State {
    pub(crate) table: HandleTable<MemPool, PoolHandle>,
    defaults: Mutex<HashMap<Place, PoolHandle>>,
    /// `cuMemSetMemPool`'s (`cuDeviceSetMemPool`'s) choice per place (none: the default).
    current: Mutex<HashMap<Place, PoolHandle>>,
    /// Some pool may hold blocks waiting to be observed, or memory to give back, at the
    /// next synchronization.
    pending: AtomicBool,
}

impl State {
    pub(crate) fn new() -> State {
        State { table: HandleTable::default(), defaults: Mutex::default(), current: Mutex::default(), pending: AtomicBool::new(false) }
    }

    fn current(&self) -> MutexGuard<'_, HashMap<Place, PoolHandle>> {
        self.current.lock().unwrap_or_else(|e| e.into_inner())
    }
}

fn invalid(why: std::fmt::Arguments<'_>) -> CuError {
    fail(CuError::INVALID_VALUE, why)
}

impl Driver {
    pub(crate) fn pool(&self, handle: PoolHandle) -> CuResult<Arc<MemPool>> {
        let pool = self.pools.table.get(handle).map_err(|why| invalid(format_args!("memory pool {:#x}: {why:?}", handle.0)))?;
        if pool.inner().destroyed {
            return Err(invalid(format_args!("memory pool {:#x} was destroyed", handle.0)));
        }
        Ok(pool)
    }

    /// A device ordinal, or `code`.
    fn pool_device(&self, device: i32, code: CuError) -> CuResult<usize> {
        usize::try_from(device).ok().filter(|&d| d < self.devices.len()).ok_or_else(|| fail(code, format_args!("memory pools: device {device}")))
    }

    /// A place's default pool (made on first use); `device` holds its memory.
    fn default_pool(&self, place: Place, device: usize) -> PoolHandle {
        let mut defaults = self.pools.defaults.lock().unwrap_or_else(|e| e.into_inner());
        *defaults
            .entry(place)
            .or_insert_with(|| self.pools.table.insert(Arc::new(MemPool::new(place, device, self.devices.len(), true, None, Sharing::None))))
    }

    /// A new pool of `device` without a size limit (an imported pool).
    pub(crate) fn insert_pool(&self, device: usize, sharing: Sharing) -> PoolHandle {
        self.pools.table.insert(Arc::new(MemPool::new(Place::Device(device), device, self.devices.len(), false, None, sharing)))
    }

    fn current_pool(&self, place: Place, device: usize) -> PoolHandle {
        let chosen = self.pools.current().get(&place).copied();
        chosen.unwrap_or_else(|| self.default_pool(place, device))
    }

    /// `cuDeviceGetDefaultMemPool`.
    pub fn device_get_default_mem_pool(&self, device: i32) -> CuResult<PoolHandle> {
        let device = self.pool_device(device, CuError::INVALID_DEVICE)?;
        Ok(self.default_pool(Place::Device(device), device))
    }

    /// `cuDeviceGetMemPool`: a bad ordinal is `INVALID_VALUE`, as NVIDIA's driver answers.
    pub fn device_get_mem_pool(&self, device: i32) -> CuResult<PoolHandle> {
        let device = self.pool_device(device, CuError::INVALID_VALUE)?;
        Ok(self.current_pool(Place::Device(device), device))
    }

    /// `cuDeviceSetMemPool`: the pool must be located at the device, pinned or managed
    /// (`cuda.h`: "the pool must have been created for the device"); NVIDIA's driver took a
    /// managed pool of the device as that device's current managed pool, leaving
    /// `cuDeviceGetMemPool` as it was, and refused host and location-less pools.
    pub fn device_set_mem_pool(&self, device: i32, pool: PoolHandle) -> CuResult<()> {
        let device = self.pool_device(device, CuError::INVALID_VALUE)?;
        let place = self.pool(pool)?.place;
        if !matches!(place, Place::Device(d) | Place::Managed(Preferred::Device(d)) if d == device) {
            return Err(invalid(format_args!("cuDeviceSetMemPool: pool {:#x} ({place:?}) is not device {device}'s", pool.0)));
        }
        self.pools.current().insert(place, pool);
        Ok(())
    }

    /// For a block of a host pool: whether the current context's device may access it. A
    /// host pool grants devices no access until `cuMemPoolSetAccess` does (`cuda.h`,
    /// `cuMemPoolCreate`); NVIDIA's driver then refuses the block to `cuMemsetD*`, its
    /// device pointer attribute and `cuMemGetAddressRange`. Other memory: `true`.
    pub(crate) fn pool_block_accessible(&self, a: &Allocation) -> bool {
        if a.kind != MemoryKind::Pool(PoolMemory::Host) {
            return true;
        }
        let Ok(pool) = self.pools.table.get(PoolHandle(a.owner)) else { return false };
        self.current_context().is_ok_and(|ctx| pool.device_access(ctx.device))
    }

    /// `cuMemGetDefaultMemPool` (CUDA 13).
    pub fn mem_get_default_mem_pool(&self, location_type: u32, id: i32, alloc_type: u32) -> CuResult<PoolHandle> {
        let (place, device) = self.pool_place(location_type, id, alloc_type, Ask::GetOrSet)?;
        Ok(self.default_pool(place, device))
    }

    /// `cuMemGetMemPool` (CUDA 13).
    pub fn mem_get_mem_pool(&self, location_type: u32, id: i32, alloc_type: u32) -> CuResult<PoolHandle> {
        let (place, device) = self.pool_place(location_type, id, alloc_type, Ask::GetOrSet)?;
        Ok(self.current_pool(place, device))
    }

    /// `cuMemSetMemPool` (CUDA 13): the location and type must be the pool's, else
    /// `INVALID_VALUE` (`cuda.h`).
    pub fn mem_set_mem_pool(&self, location_type: u32, id: i32, alloc_type: u32, pool: PoolHandle) -> CuResult<()> {
        let place = self.pool(pool)?.place;
        let (asked, _) = self.pool_place(location_type, id, alloc_type, Ask::GetOrSet)?;
        if asked != place {
            return Err(invalid(format_args!("cuMemSetMemPool: {asked:?} is not pool {:#x}'s place {place:?}", pool.0)));
        }
        self.pools.current().insert(place, pool);
        Ok(())
    }

    /// `cuMemPoolCreate`. Codes as NVIDIA's driver answered: a bad allocation type,
    /// location or handle type (Win32 on Linux) is `INVALID_VALUE`; so are handle types
    /// for a `LOCATION_HOST` pool (`cuda.h`: "not IPC capable") or a managed pool, and a
    /// managed pool's `maxSize`. POSIX file descriptor pools are shareable where the
    /// device can share memory ([`crate::ipc::pool`]).
    pub fn mem_pool_create(&self, props: &PoolProps) -> CuResult<PoolHandle> {
        if !props.reserved_zero || props.win32_security_attributes {
            return Err(invalid(format_args!("cuMemPoolCreate: reserved bytes or win32SecurityAttributes set")));
        }
        let (place, device) = self.pool_place(props.location_type, props.location_id, props.alloc_type, Ask::Create)?;
        let shareable = matches!(place, Place::Device(_) | Place::HostNuma);
        if !matches!(props.handle_types, 0 | 1 | 8 | 9) || (!shareable && props.handle_types != 0) {
            return Err(invalid(format_args!("cuMemPoolCreate: handle types {:#x} for {place:?}", props.handle_types)));
        }
        if matches!(place, Place::Managed(_)) && props.max_size != 0 {
            return Err(invalid(format_args!("cuMemPoolCreate: maxSize of a managed pool")));
        }
        match props.usage {
            0 => {}
            USAGE_HW_DECOMPRESS => return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemPoolCreate: hardware decompression"))),
            u => return Err(invalid(format_args!("cuMemPoolCreate: usage {u:#x}"))),
        }
        // NVIDIA's driver reserves whole chunks up to the maximum: with `maxSize` 1 a pool
        // still served 6 MiB of allocations in one 32 MiB chunk.
        let max_reserved = (props.max_size != 0).then(|| props.max_size.checked_next_multiple_of(blocks::CHUNK).unwrap_or(u64::MAX));
        let sharing = crate::ipc::pool::for_new_pool(self, device, props.handle_types)?;
        Ok(self.pools.table.insert(Arc::new(MemPool::new(place, device, self.devices.len(), false, max_reserved, sharing))))
    }

    /// `cuMemPoolDestroy`: a default pool cannot be destroyed. A pool with allocations
    /// left goes away once they have been freed; a place whose current pool it was uses
    /// its default pool again.
    pub fn mem_pool_destroy(&self, handle: PoolHandle) -> CuResult<()> {
        let pool = self.pool(handle)?;
        if pool.is_default {
            return Err(invalid(format_args!("cuMemPoolDestroy: a default pool")));
        }
        {
            let mut current = self.pools.current();
            if current.get(&pool.place) == Some(&handle) {
                current.remove(&pool.place);
            }
        }
        pool.inner().destroyed = true;
        self.release_pool_memory(handle, &pool);
        Ok(())
    }

    /// `cuMemPoolSetAttribute`; `value` is the `int` or `cuuint64_t` the attribute takes.
    pub fn mem_pool_set_attribute(&self, handle: PoolHandle, attribute: i32, value: u64) -> CuResult<()> {
        let pool = self.pool(handle)?;
        let mut inner = pool.inner();
        let flag = value as u32 as i32 != 0;
        match attribute {
            attr::REUSE_FOLLOW_EVENT_DEPENDENCIES => inner.policy.follow_event_dependencies = flag,
            attr::REUSE_ALLOW_OPPORTUNISTIC => inner.policy.opportunistic = flag,
            attr::REUSE_ALLOW_INTERNAL_DEPENDENCIES => inner.policy.internal_dependencies = flag,
            attr::RELEASE_THRESHOLD => inner.policy.release_threshold = value,
            // A high watermark can only be reset (to the current value).
            attr::RESERVED_MEM_HIGH if value == 0 => inner.blocks.reserved_high = inner.blocks.reserved,
            attr::USED_MEM_HIGH if value == 0 => inner.blocks.used_high = inner.blocks.used,
            _ => return Err(invalid(format_args!("cuMemPoolSetAttribute: attribute {attribute}, value {value}"))),
        }
        Ok(())
    }

    /// `cuMemPoolGetAttribute`: the value, widened (`int` attributes are 0 or 1).
    pub fn mem_pool_get_attribute(&self, handle: PoolHandle, attribute: i32) -> CuResult<u64> {
        let pool = self.pool(handle)?;
        let inner = pool.inner();
        let (p, b) = (&inner.policy, &inner.blocks);
        Ok(match attribute {
            attr::REUSE_FOLLOW_EVENT_DEPENDENCIES => p.follow_event_dependencies as u64,
            attr::REUSE_ALLOW_OPPORTUNISTIC => p.opportunistic as u64,
            attr::REUSE_ALLOW_INTERNAL_DEPENDENCIES => p.internal_dependencies as u64,
            attr::RELEASE_THRESHOLD => p.release_threshold,
            attr::RESERVED_MEM_CURRENT => b.reserved,
            attr::RESERVED_MEM_HIGH => b.reserved_high,
            attr::USED_MEM_CURRENT => b.used,
            attr::USED_MEM_HIGH => b.used_high,
            _ => return Err(invalid(format_args!("cuMemPoolGetAttribute: attribute {attribute}"))),
        })
    }

    /// `cuMemPoolTrimTo`: gives whole free chunks back to the device while at least
    /// `keep` bytes stay reserved. Memory whose free has not completed stays.
    pub fn mem_pool_trim_to(&self, handle: PoolHandle, keep: u64) -> CuResult<()> {
        let pool = self.pool(handle)?;
        let released = pool.inner().blocks.trim(keep);
        self.free_segments(&pool, released);
        Ok(())
    }

    /// `cuMemPoolSetAccess`: `(location type, id, flags)` per descriptor, all checked
    /// before any applies. Codes as NVIDIA's driver answered: bad flags are
    /// `INVALID_VALUE`, read-only access `NOT_SUPPORTED`, a bad device `INVALID_DEVICE`.
    /// A device pool takes devices only (else `NOT_SUPPORTED`) and keeps its own device's
    /// read-write access (`INVALID_DEVICE`); host and managed pools also take the host
    /// (`HOST` or `HOST_NUMA`, any id; anything else is `INVALID_VALUE`), which a host pool
    /// keeps (`NOT_SUPPORTED`).
    pub fn mem_pool_set_access(&self, handle: PoolHandle, descs: &[(u32, i32, u32)]) -> CuResult<()> {
        let pool = self.pool(handle)?;
        let on_device = matches!(pool.place, Place::Device(_));
        let mut grants = Vec::with_capacity(descs.len());
        for &(location_type, id, flags) in descs {
            if on_device && location_type != LOCATION_DEVICE {
                return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemPoolSetAccess: location type {location_type}")));
            }
            if !matches!(flags, ACCESS_NONE | ACCESS_READ | ACCESS_READWRITE) {
                return Err(invalid(format_args!("cuMemPoolSetAccess: flags {flags:#x}")));
            }
            let device = match location_type {
                LOCATION_DEVICE => Some(self.pool_device(id, CuError::INVALID_DEVICE)?),
                LOCATION_HOST | LOCATION_HOST_NUMA => None,
                _ => return Err(invalid(format_args!("cuMemPoolSetAccess: location type {location_type}"))),
            };
            if flags == ACCESS_READ {
                return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemPoolSetAccess: read-only access")));
            }
            match device {
                Some(d) if pool.place == Place::Device(d) && flags != ACCESS_READWRITE => {
                    return Err(fail(CuError::INVALID_DEVICE, format_args!("cuMemPoolSetAccess: the pool's own device keeps read-write access")));
                }
                None if pool.place.memory() == PoolMemory::Host && flags != ACCESS_READWRITE => {
                    return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemPoolSetAccess: a host pool keeps the host's access")));
                }
                _ => grants.push((device, flags)),
            }
        }
        let mut inner = pool.inner();
        for (device, flags) in grants {
            match device {
                Some(d) => inner.access[d] = flags,
                None => inner.host_access = flags,
            }
        }
        Ok(())
    }

    /// `cuMemPoolGetAccess`: a device's access (a bad device is `INVALID_VALUE`) or the
    /// host's (`HOST` or `HOST_NUMA`, any id); other locations are `INVALID_VALUE`, as
    /// NVIDIA's driver answers.
    pub fn mem_pool_get_access(&self, handle: PoolHandle, location_type: u32, id: i32) -> CuResult<u32> {
        let pool = self.pool(handle)?;
        match location_type {
            LOCATION_DEVICE => Ok(pool.inner().access[self.pool_device(id, CuError::INVALID_VALUE)?]),
            LOCATION_HOST | LOCATION_HOST_NUMA => Ok(pool.inner().host_access),
            _ => Err(invalid(format_args!("cuMemPoolGetAccess: location type {location_type}"))),
        }
    }

    /// `cuMemAllocAsync`: from the current pool of the stream's device. Size 0 gives the
    /// NULL pointer (`CUDA_SUCCESS`, as NVIDIA's driver answers).
    pub fn mem_alloc_async(&self, size: usize, stream: StreamHandle) -> CuResult<DevicePtr> {
        let (ctx, q) = self.stream_queue(stream)?;
        if self.capture_gate(&ctx, &q, false)? {
            return self.capture_mem_alloc(&q, size, None);
        }
        if size == 0 {
            return Ok(0);
        }
        let handle = self.current_pool(Place::Device(ctx.device), ctx.device);
        let pool = self.pool(handle)?;
        self.pool_alloc(handle, &pool, size as u64, &ctx, &q)
    }

    /// `cuMemAllocFromPoolAsync`: the pool may be another device's than the stream's.
    pub fn mem_alloc_from_pool_async(&self, size: usize, handle: PoolHandle, stream: StreamHandle) -> CuResult<DevicePtr> {
        let pool = self.pool(handle)?;
        if let Sharing::Imported { .. } = pool.sharing {
            return Err(invalid(format_args!("cuMemAllocFromPoolAsync: pool {:#x} was imported from another process", handle.0)));
        }
        let (ctx, q) = self.stream_queue(stream)?;
        if self.capture_gate(&ctx, &q, false)? {
            // Graph memory nodes allocate device memory only (`CUDA_MEM_ALLOC_NODE_PARAMS`
            // takes a pool's properties, here a device's).
            if !matches!(pool.place, Place::Device(_)) {
                return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemAllocFromPoolAsync in a capture: a {:?} pool", pool.place)));
            }
            return self.capture_mem_alloc(&q, size, Some(pool.device));
        }
        if size == 0 {
            return Ok(0);
        }
        self.pool_alloc(handle, &pool, size as u64, &ctx, &q)
    }

    /// `cuMemAllocAsync` in a capturing stream: an allocation node (0 bytes: NULL, no node).
    fn capture_mem_alloc(&self, q: &Arc<Queue>, size: usize, device: Option<usize>) -> CuResult<DevicePtr> {
        if size == 0 {
            return Ok(0);
        }
        if let Some(capture) = self.capture_of(q).filter(|c| c.recapture.is_some()) {
            let r = capture.recapture.as_ref().expect("a recapture");
            let on = match device {
                Some(d) => d,
                None => self.current_context()?.device,
            };
            if let Some(params) = self.recaptured_allocation(r, capture.graph, size, on) {
                self.capture_node(q, crate::graph::NodeParams::MemAlloc(params))?;
                return Ok(params.ptr);
            }
        }
        let params = self.graph_mem_alloc(size, device)?;
        self.capture_node(q, crate::graph::NodeParams::MemAlloc(params))?;
        Ok(params.ptr)
    }

    fn pool_alloc(&self, handle: PoolHandle, pool: &MemPool, size: u64, ctx: &Arc<crate::context::Context>, q: &Arc<Queue>) -> CuResult<DevicePtr> {
        let oom = || fail(CuError::OUT_OF_MEMORY, format_args!("cuMemAllocAsync: {size} bytes"));
        let need = blocks::rounded(size).ok_or_else(oom)?;
        let mut inner = pool.inner();
        let policy = inner.policy;
        let ready = |after: &[Marker]| {
            after.iter().all(|m| q.follows(m, policy.follow_event_dependencies) || (policy.opportunistic && m.is_complete())).then_some(Fit::Ready)
        };
        let taken = match inner.blocks.take(need, ready) {
            Some(taken) => taken,
            None => match self.grow_pool(pool, &mut inner.blocks, need) {
                Ok(()) => inner.blocks.take(need, ready).expect("a fresh segment fits"),
                Err(e) if policy.internal_dependencies => {
                    let waits = |after: &[Marker]| Some(Fit::After(after.iter().filter(|m| !q.follows(m, false)).cloned().collect()));
                    inner.blocks.take(need, waits).ok_or(e)?
                }
                Err(e) => return Err(e),
            },
        };
        let (base, waits) = taken;
        inner.blocks.count_used(size, true);
        inner.live += 1;
        drop(inner);
        for m in waits {
            self.submit(ctx, q, Some(m), Work::Nop, true);
        }
        let allocation = Allocation {
            base,
            size,
            kind: MemoryKind::Pool(pool.place.memory()),
            ctx: ctx.handle,
            device: pool.device,
            flags: 0,
            buffer_id: 0,
            owner: handle.0,
            sync_memops: false,
        };
        if self.memory.insert(allocation).is_err() {
            return Err(fail(CuError::UNKNOWN, format_args!("pool block {base:#x} overlaps a registered range")));
        }
        Ok(base)
    }

    /// Adds a segment of at least `need` bytes to a pool, within its maximum size.
    fn grow_pool(&self, pool: &MemPool, blocks: &mut Blocks, need: u64) -> CuResult<()> {
        let oom = |why: &str| fail(CuError::OUT_OF_MEMORY, format_args!("memory pool of device {}: {why}", pool.device));
        let size = need.checked_next_multiple_of(blocks::CHUNK).ok_or_else(|| oom("size"))?;
        if pool.max_reserved.is_some_and(|max| blocks.reserved.saturating_add(size) > max) {
            return Err(oom("maxSize reached"));
        }
        if let Sharing::Exported(file) = &pool.sharing {
            let base = file.add_segment(size).map_err(|e| oom(&format!("pool file: {e}")))?;
            blocks.add_segment(base, base, size);
            return Ok(());
        }
        let backend = &self.devices[pool.device].backend;
        let managed = pool.place.memory() == PoolMemory::Managed;
        let alloc = |bytes: u64| {
            let bytes = usize::try_from(bytes).map_err(|_| oom("size"))?;
            let ptr = if managed { backend.alloc_managed(bytes) } else { backend.alloc(bytes) };
            ptr.map_err(|e| fail(crate::error::from_device(&e), format_args!("memory pool: {e}")))
        };
        // Blocks start at multiples of 512 bytes, as NVIDIA's do; a backend that aligns
        // less (the CPU device: 256) is asked for a little more.
        let mut backend_base = alloc(size)?;
        if !backend_base.is_multiple_of(blocks::ALIGN) {
            let _ = backend.free(backend_base);
            backend_base = alloc(size + blocks::ALIGN)?;
        }
        blocks.add_segment(backend_base, backend_base.next_multiple_of(blocks::ALIGN), size);
        Ok(())
    }

    /// `cuMemFreeAsync`: a pool allocation goes back to its pool at once, reusable in
    /// stream order (after a no-op queued on `stream`); a `cuMemAlloc` allocation is freed
    /// when the stream's earlier work has completed. 0 is a no-op (`CUDA_SUCCESS`, as
    /// NVIDIA's driver answers); anything else but an allocation's base is `INVALID_VALUE`.
    pub fn mem_free_async(&self, ptr: DevicePtr, stream: StreamHandle) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        if self.capture_gate(&ctx, &q, false)? {
            // A free node (graph memory only, as in CUDA).
            let target = self.graph_mem_free_target(ptr)?;
            return self.capture_node(&q, crate::graph::NodeParams::MemFree(target));
        }
        if ptr == 0 {
            return Ok(());
        }
        if self.is_graph_memory(ptr) {
            // Stays for the graph's next launch (see `graph::memory`).
            return Ok(());
        }
        let kind = match self.memory.find(ptr) {
            Some(a) if a.base == ptr && a.kind.freed_by_mem_free() => a.kind,
            other => return Err(invalid(format_args!("cuMemFreeAsync({ptr:#x}): not an allocation base ({other:?})"))),
        };
        let allocation = self.memory.remove(ptr).ok_or_else(|| invalid(format_args!("cuMemFreeAsync({ptr:#x}): freed meanwhile")))?;
        if let MemoryKind::Pool(_) = kind {
            let marker = self.submit(&ctx, &q, None, Work::Nop, true);
            self.pool_give_back(&allocation, Some(marker));
        } else if let MemoryKind::FileMap(origin) = kind {
            self.forget_file_map(&allocation, origin);
            let free: crate::exec::RunFn = Box::new(move || {
                crate::ipc::unmap_range(allocation.base, allocation.size);
                Ok(())
            });
            self.submit(&ctx, &q, None, Work::Run(free), false);
        } else {
            let backend = self.devices[allocation.device].backend.clone();
            let free: crate::exec::RunFn = Box::new(move || backend.free(allocation.base));
            self.submit(&ctx, &q, None, Work::Run(free), false);
        }
        Ok(())
    }

    /// Returns an unregistered pool allocation to its pool, reusable by other streams once
    /// `after` has completed (`None`: at once).
    pub(crate) fn pool_give_back(&self, a: &Allocation, after: Option<Marker>) {
        let handle = PoolHandle(a.owner);
        let Ok(pool) = self.pools.table.get(handle) else { return };
        let destroyed = {
            let mut inner = pool.inner();
            inner.blocks.give_back(a.base, blocks::rounded(a.size).unwrap_or(a.size), after);
            inner.blocks.count_used(a.size, false);
            inner.live -= 1;
            inner.destroyed
        };
        self.pools.pending.store(true, Ordering::Release);
        if destroyed {
            self.release_pool_memory(handle, &pool);
        }
    }

    /// What a synchronization ends for the pools: the frees it observed complete (every
    /// complete one, or with `queue` those of that queue) make their blocks reusable by
    /// any stream, and each pool gives back the memory above its release threshold.
    pub(crate) fn pools_after_sync(&self, queue: Option<&Arc<Queue>>) {
        if !self.pools.pending.swap(false, Ordering::AcqRel) {
            return;
        }
        let mut still_pending = false;
        for (handle, pool) in self.pools.table.all() {
            let (released, destroyed) = {
                let mut inner = pool.inner();
                inner.blocks.observe(|m| queue.is_none_or(|q| Arc::ptr_eq(m.queue(), q)));
                let keep = if inner.destroyed { 0 } else { inner.policy.release_threshold };
                let released = inner.blocks.trim(keep);
                still_pending |= inner.blocks.has_pending() || (inner.destroyed && inner.blocks.reserved > 0);
                (released, inner.destroyed)
            };
            self.free_segments(&pool, released);
            if destroyed {
                self.release_pool_memory(handle, &pool);
            }
        }
        if still_pending {
            self.pools.pending.store(true, Ordering::Release);
        }
    }

    /// For a destroyed pool: gives back every idle segment, and forgets the pool once
    /// nothing is left.
    fn release_pool_memory(&self, handle: PoolHandle, pool: &MemPool) {
        let (released, gone) = {
            let mut inner = pool.inner();
            let released = inner.blocks.trim(0);
            (released, inner.live == 0 && inner.blocks.reserved == 0)
        };
        self.free_segments(pool, released);
        if gone {
            let _ = self.pools.table.remove(handle);
        } else {
            self.pools.pending.store(true, Ordering::Release);
        }
    }

    fn free_segments(&self, pool: &MemPool, bases: Vec<u64>) {
        for base in bases {
            match &pool.sharing {
                Sharing::Exported(file) => file.remove_segment(base),
                _ => {
                    let _ = self.devices[pool.device].backend.free(base);
                }
            }
        }
    }
}

#[cfg(test)]
#[path = "tests/mempool.rs"]
mod tests;

#[cfg(test)]
#[path = "tests/mempool_places.rs"]
mod places_tests;
