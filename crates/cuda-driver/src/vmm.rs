//! Virtual memory management (CUDA Driver API, "Virtual Memory Management"):
//! `cuMemAddressReserve`/`cuMemAddressFree`, `cuMemCreate`/`cuMemRelease`,
//! `cuMemMap`/`cuMemUnmap`, `cuMemSetAccess`/`cuMemGetAccess`, granularity and properties,
//! `cuMemRetainAllocationHandle`, and export/import as POSIX file descriptors.
//!
//! Devices whose memory the host addresses (the CPU device) have it
//! (`CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED`); on others it is
//! `CUDA_ERROR_NOT_SUPPORTED`. Their virtual address space is the process's ([`host`]):
//! - a reservation is an inaccessible (`PROT_NONE`) anonymous range;
//! - a physical allocation (`cuMemCreate`) is a memfd of its size, named by a
//!   self-checking `CUmemGenericAllocationHandle`;
//! - `cuMemMap` maps the memfd shared over part of a reservation, inaccessible ("all
//!   mappings start with no accessibility setup", `cuMemUnmap`'s documentation), and
//!   registers the range (`memory::MemoryKind::Mapped`) for copies, fills and pointer
//!   queries;
//! - `cuMemSetAccess` is `mprotect` (read: `PROT_READ`, read-write: both): a kernel that
//!   touches a range it may not access faults as on unmapped memory
//!   (`CUDA_ERROR_ILLEGAL_ADDRESS`), and copies and fills check the access first;
//! - `cuMemUnmap` turns the range back into inaccessible reserved space;
//! - export duplicates the memfd; import finds the allocation behind a descriptor (the
//!   same one when it came from this process) or adopts a foreign memfd.
//!
//! Lifetimes follow `cuMemRelease`: the memory lives while a handle reference
//! (`cuMemCreate`, `cuMemRetainAllocationHandle`, import) or a mapping remains, and a
//! handle may be released while mapped. A handle that is not (or no longer) valid is
//! `CUDA_ERROR_INVALID_VALUE`: NVIDIA documents the behaviour as undefined and lists
//! `INVALID_VALUE` among every call's codes.

pub(crate) mod host;

use std::collections::BTreeMap;
use std::os::fd::{AsRawFd, OwnedFd};
use std::sync::{Arc, Mutex, MutexGuard};

use backend_api::DevicePtr;

use crate::diag::fail;
use crate::handle::HandleTable;
use crate::memory::{Allocation, MemoryKind};
use crate::{CtxHandle, CuError, CuResult, Driver, MemHandle};

/// `CU_MEM_ALLOCATION_TYPE_PINNED`.
pub const ALLOCATION_TYPE_PINNED: u32 = 1;
/// `CU_MEM_LOCATION_TYPE_DEVICE`.
pub const LOCATION_TYPE_DEVICE: u32 = 1;
/// `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR`.
pub const HANDLE_TYPE_POSIX_FD: u32 = 1;
/// Every `CUmemAllocationHandleType` bit: POSIX fd 1, Win32 2, Win32 KMT 4, fabric 8.
const HANDLE_TYPES: u32 = 0xF;
/// `CU_MEM_ACCESS_FLAGS_PROT_READ` and `_READWRITE` (`_NONE` is 0).
pub const ACCESS_READ: u32 = 1;
pub const ACCESS_READWRITE: u32 = 3;
/// `CU_MEM_ALLOC_GRANULARITY_RECOMMENDED` (`_MINIMUM` is 0).
pub const GRANULARITY_RECOMMENDED: u32 = 1;
/// The recommended granularity: NVIDIA's (2 MiB), also a huge page of the host.
const RECOMMENDED_GRANULARITY: u64 = 2 << 20;

/// `CUmemAllocationProp`, without the Win32 metadata pointer (no Win32 handles here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct AllocationProp {
    /// `CUmemAllocationType`.
    pub alloc_type: u32,
    /// `CUmemAllocationHandleType` bits the allocation may be exported as.
    pub requested_handle_types: u32,
    /// `CUmemLocationType` and its id (a device ordinal).
    pub location_type: u32,
    pub location_id: i32,
    /// `allocFlags`: compression (none here), GPUDirect RDMA, usage.
    pub compression_type: u8,
    pub gpu_direct_rdma_capable: u8,
    pub usage: u16,
}

/// One physical allocation: its memfd and what identifies the file behind it.
struct Physical {
    fd: OwnedFd,
    size: u64,
    /// `(st_dev, st_ino)`: recognizes a descriptor exported from this process on import.
    inode: (u64, u64),
}

/// What a `CUmemGenericAllocationHandle` names.
pub(crate) struct MemObject {
    physical: Arc<Physical>,
    prop: AllocationProp,
    /// Handle references (`cuMemCreate`, retains, imports) and mappings; the handle is
    /// removed when both are 0.
    holders: Mutex<(u32, u32)>,
}

impl MemObject {
    fn holders(&self) -> MutexGuard<'_, (u32, u32)> {
        self.holders.lock().unwrap_or_else(|e| e.into_inner())
    }
}

struct Mapping {
    size: u64,
    handle: MemHandle,
    object: Arc<MemObject>,
    /// `CUmemAccess_flags` per device ordinal.
    access: Vec<u32>,
}

struct Reservation {
    size: u64,
    /// Mappings by start address.
    mappings: BTreeMap<u64, Mapping>,
}

/// Every reservation (with its mappings) and allocation handle.
#[derive(Default)]
pub(crate) struct State {
    reservations: Mutex<BTreeMap<u64, Reservation>>,
    objects: HandleTable<MemObject, MemHandle>,
}

fn invalid(why: std::fmt::Arguments<'_>) -> CuError {
    fail(CuError::INVALID_VALUE, why)
}

fn os_error(what: &str, err: std::io::Error) -> CuError {
    let code = if err.raw_os_error() == Some(libc::ENOMEM) { CuError::OUT_OF_MEMORY } else { CuError::UNKNOWN };
    fail(code, format_args!("{what}: {err}"))
}

/// The reservation containing `[va, va+size)`, as `(base, reservation)`.
fn reservation_of(reservations: &mut BTreeMap<u64, Reservation>, va: u64, size: u64) -> Option<(u64, &mut Reservation)> {
    let end = va.checked_add(size)?;
    let (&base, r) = reservations.range_mut(..=va).next_back()?;
    (end <= base + r.size).then_some((base, r))
}

/// The mappings that exactly tile `[va, va+size)`, in order, or `None`.
fn tiling(r: &Reservation, va: u64, size: u64) -> Option<Vec<u64>> {
    let end = va.checked_add(size)?;
    let mut cursor = va;
    let mut starts = Vec::new();
    for (&start, m) in r.mappings.range(va..end) {
        if start != cursor {
            return None;
        }
        cursor = start + m.size;
        starts.push(start);
    }
    (cursor == end && !starts.is_empty()).then_some(starts)
}

impl State {
    fn reservations(&self) -> MutexGuard<'_, BTreeMap<u64, Reservation>> {
        self.reservations.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The object of a live handle (one with a handle reference left).
    fn object(&self, handle: MemHandle) -> CuResult<Arc<MemObject>> {
        let object = self.objects.get(handle).map_err(|why| invalid(format_args!("allocation handle {:#x}: {why:?}", handle.0)))?;
        if object.holders().0 == 0 {
            return Err(invalid(format_args!("allocation handle {:#x} was released", handle.0)));
        }
        Ok(object)
    }

    /// Drops one holder (`refs` 1 for a handle reference, 0 for a mapping); the handle
    /// goes away with the last one.
    fn drop_holder(&self, handle: MemHandle, object: &MemObject, reference: bool) {
        let mut holders = object.holders();
        if reference {
            holders.0 -= 1;
        } else {
            holders.1 -= 1;
        }
        if *holders == (0, 0) {
            drop(holders);
            let _ = self.objects.remove(handle);
        }
    }
}

impl Driver {
    /// The device a `CUmemLocation` names, if it can have virtual memory management.
    fn vmm_device(&self, location_type: u32, id: i32) -> CuResult<usize> {
        if location_type != LOCATION_TYPE_DEVICE {
            // Host locations (CUDA 12.2+) are not offered (`..._HOST_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED` is 0).
            let code = if (2..=4).contains(&location_type) { CuError::NOT_SUPPORTED } else { CuError::INVALID_VALUE };
            return Err(fail(code, format_args!("memory location type {location_type}")));
        }
        let device = usize::try_from(id).ok().filter(|&d| d < self.devices.len());
        let device = device.ok_or_else(|| fail(CuError::INVALID_DEVICE, format_args!("memory location device {id}")))?;
        if !self.vmm_supported(device) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("device {device} has no virtual memory management")));
        }
        Ok(device)
    }

    /// `CU_DEVICE_ATTRIBUTE_VIRTUAL_MEMORY_MANAGEMENT_SUPPORTED`.
    pub(crate) fn vmm_supported(&self, device: usize) -> bool {
        self.devices[device].backend.properties().host_addressable_memory
    }

    fn check_prop(&self, prop: &AllocationProp) -> CuResult<usize> {
        if prop.alloc_type != ALLOCATION_TYPE_PINNED {
            return Err(invalid(format_args!("allocation type {}", prop.alloc_type)));
        }
        if prop.requested_handle_types & !HANDLE_TYPES != 0 {
            return Err(invalid(format_args!("handle types {:#x}", prop.requested_handle_types)));
        }
        if prop.requested_handle_types & !HANDLE_TYPE_POSIX_FD != 0 {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("handle types {:#x}: only POSIX file descriptors", prop.requested_handle_types)));
        }
        self.vmm_device(prop.location_type, prop.location_id)
    }

    /// `cuMemGetAllocationGranularity`: the host page size (minimum) or 2 MiB (recommended).
    /// The location's device id is not checked: NVIDIA's driver answered `CUDA_SUCCESS` for
    /// device 99 (H200, driver 580.159, 2026-11-27).
    pub fn mem_get_allocation_granularity(&self, prop: &AllocationProp, option: u32) -> CuResult<u64> {
        let known = AllocationProp { location_id: 0, ..*prop };
        self.check_prop(&known)?;
        match option {
            0 => Ok(host::page_size()),
            GRANULARITY_RECOMMENDED => Ok(RECOMMENDED_GRANULARITY.max(host::page_size())),
            _ => Err(invalid(format_args!("cuMemGetAllocationGranularity: option {option}"))),
        }
    }

    /// `cuMemAddressReserve`: `size` and `addr` multiples of the page size, `alignment` 0
    /// or a power of two, `flags` 0; `addr` is a hint.
    pub fn mem_address_reserve(&self, size: u64, alignment: u64, addr: DevicePtr, flags: u64) -> CuResult<DevicePtr> {
        if !(0..self.devices.len()).any(|d| self.vmm_supported(d)) {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemAddressReserve: no device has virtual memory management")));
        }
        let page = host::page_size();
        if size == 0 || !size.is_multiple_of(page) || !addr.is_multiple_of(page) || (alignment != 0 && !alignment.is_power_of_two()) || flags != 0 {
            return Err(invalid(format_args!("cuMemAddressReserve(size {size:#x}, alignment {alignment:#x}, addr {addr:#x}, flags {flags:#x})")));
        }
        let align = alignment.max(page);
        let base = host::reserve(size, align, addr).map_err(|e| os_error("cuMemAddressReserve", e))?;
        self.vmm.reservations().insert(base, Reservation { size, mappings: BTreeMap::new() });
        Ok(base)
    }

    /// `cuMemAddressFree`: `ptr` and `size` exactly as reserved. A range with mappings
    /// left is refused (`INVALID_VALUE`): unmap them first.
    pub fn mem_address_free(&self, ptr: DevicePtr, size: u64) -> CuResult<()> {
        let mut reservations = self.vmm.reservations();
        match reservations.get(&ptr) {
            Some(r) if r.size == size && r.mappings.is_empty() => {}
            Some(r) if r.size == size => return Err(invalid(format_args!("cuMemAddressFree({ptr:#x}): {} mappings left", r.mappings.len()))),
            _ => return Err(invalid(format_args!("cuMemAddressFree({ptr:#x}, {size:#x}): not a reservation"))),
        }
        reservations.remove(&ptr);
        host::release(ptr, size);
        Ok(())
    }

    /// `cuMemCreate`: `size` a multiple of the minimum granularity, pinned device memory,
    /// `flags` 0.
    pub fn mem_create(&self, size: u64, prop: &AllocationProp, flags: u64) -> CuResult<MemHandle> {
        self.check_prop(prop)?;
        if size == 0 || !size.is_multiple_of(host::page_size()) || flags != 0 {
            return Err(invalid(format_args!("cuMemCreate(size {size:#x}, flags {flags:#x})")));
        }
        let fd = host::memfd(size).map_err(|e| os_error("cuMemCreate", e))?;
        let (inode, _) = host::identity(fd.as_raw_fd()).map_err(|e| os_error("cuMemCreate", e))?;
        // No compression here: the properties say so, as NVIDIA's do where it is unavailable.
        let prop = AllocationProp { compression_type: 0, ..*prop };
        Ok(self.new_mem_object(Arc::new(Physical { fd, size, inode }), prop))
    }

    fn new_mem_object(&self, physical: Arc<Physical>, prop: AllocationProp) -> MemHandle {
        self.vmm.objects.insert(Arc::new(MemObject { physical, prop, holders: Mutex::new((1, 0)) }))
    }

    /// `cuMemRelease`: drops one handle reference; the memory goes when no reference and
    /// no mapping is left.
    pub fn mem_release(&self, handle: MemHandle) -> CuResult<()> {
        let object = self.vmm.object(handle)?;
        self.vmm.drop_holder(handle, &object, true);
        Ok(())
    }

    /// `cuMemGetAllocationPropertiesFromHandle`.
    pub fn mem_get_allocation_properties(&self, handle: MemHandle) -> CuResult<AllocationProp> {
        Ok(self.vmm.object(handle)?.prop)
    }

    /// The shareable handle types of the allocation behind a handle (0 if none).
    pub(crate) fn allowed_handle_types(&self, handle: MemHandle) -> u64 {
        self.vmm.objects.get(handle).map_or(0, |o| o.prop.requested_handle_types as u64)
    }

    /// `cuMemMap`: `[ptr, ptr+size)` inside one reservation and not mapped, all multiples
    /// of the minimum granularity, `flags` 0. `offset` "currently must be zero" (the API
    /// reference). NVIDIA's driver (H200, driver 580.159) answers `CUDA_ERROR_NOT_SUPPORTED`
    /// for any other offset, for a range that runs past its reservation or lies in none, and for one longer
    /// than the allocation; `CUDA_ERROR_INVALID_VALUE` for an unreserved address below 4 GiB.
    pub fn mem_map(&self, ptr: DevicePtr, size: u64, offset: u64, handle: MemHandle, flags: u64) -> CuResult<()> {
        let page = host::page_size();
        let object = self.vmm.object(handle)?;
        if offset != 0 {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemMap({ptr:#x}): offset {offset:#x} (must be 0)")));
        }
        let aligned = ptr.is_multiple_of(page) && size.is_multiple_of(page) && offset.is_multiple_of(page);
        if size > object.physical.size {
            return Err(fail(
                CuError::NOT_SUPPORTED,
                format_args!("cuMemMap({ptr:#x}, {size:#x}): longer than the allocation ({:#x})", object.physical.size),
            ));
        }
        if size == 0 || !aligned || flags != 0 || offset.checked_add(size).is_none_or(|end| end > object.physical.size) {
            return Err(invalid(format_args!(
                "cuMemMap({ptr:#x}, size {size:#x}, offset {offset:#x}, flags {flags:#x}) of {:#x} bytes",
                object.physical.size
            )));
        }
        let device = usize::try_from(object.prop.location_id).unwrap_or(0);
        let mut reservations = self.vmm.reservations();
        let reserved = reservations.range(..=ptr).next_back().is_some_and(|(&base, r)| ptr < base + r.size);
        let Some((_, r)) = reservation_of(&mut reservations, ptr, size) else {
            // Measured on an H200: 0x10000000, below 4 GiB, answers INVALID_VALUE; an
            // unreserved 0x10000000000 and a range running past its reservation answer
            // NOT_SUPPORTED.
            let code = if reserved || ptr >= 1 << 32 { CuError::NOT_SUPPORTED } else { CuError::INVALID_VALUE };
            return Err(fail(code, format_args!("cuMemMap({ptr:#x}, {size:#x}): not inside one reservation")));
        };
        let end = ptr + size;
        let before = r.mappings.range(..end).next_back().is_some_and(|(&s, m)| s + m.size > ptr);
        if before {
            return Err(invalid(format_args!("cuMemMap({ptr:#x}, {size:#x}): overlaps a mapping")));
        }
        host::map(ptr, size, &object.physical.fd, offset).map_err(|e| os_error("cuMemMap", e))?;
        object.holders().1 += 1;
        let allocation = Allocation {
            base: ptr,
            size,
            kind: MemoryKind::Mapped,
            ctx: CtxHandle::NULL,
            device,
            flags: 0,
            buffer_id: 0,
            owner: handle.0,
            sync_memops: false,
        };
        if self.memory.insert(allocation).is_err() {
            let _ = host::unmap(ptr, size);
            self.vmm.drop_holder(handle, &object, false);
            return Err(fail(CuError::UNKNOWN, format_args!("cuMemMap({ptr:#x}): range already registered")));
        }
        r.mappings.insert(ptr, Mapping { size, handle, object, access: vec![0; self.devices.len()] });
        Ok(())
    }

    /// `cuMemUnmap`: `[ptr, ptr+size)` must be exactly what one or more adjacent `cuMemMap`
    /// calls mapped, not part of a mapping; a reserved range with nothing mapped in it is
    /// already unmapped (`CUDA_SUCCESS`, as NVIDIA's driver answers: H200, driver 580.159,
    /// 2026-11-27). Work queued on any context that may use the range is waited for first.
    pub fn mem_unmap(&self, ptr: DevicePtr, size: u64) -> CuResult<()> {
        for (_, context) in self.contexts.all() {
            self.drain_context(&context);
        }
        let mut reservations = self.vmm.reservations();
        if let Some((_, r)) = reservation_of(&mut reservations, ptr, size) {
            let end = ptr + size;
            let overlaps = r.mappings.range(..end).next_back().is_some_and(|(&s, m)| s + m.size > ptr);
            if size != 0 && ptr.is_multiple_of(host::page_size()) && !overlaps {
                return Ok(());
            }
        }
        let starts = reservation_of(&mut reservations, ptr, size).and_then(|(_, r)| Some((tiling(r, ptr, size)?, r)));
        let Some((starts, r)) = starts else {
            return Err(invalid(format_args!("cuMemUnmap({ptr:#x}, {size:#x}): not a whole mapped range")));
        };
        host::unmap(ptr, size).map_err(|e| os_error("cuMemUnmap", e))?;
        for start in starts {
            let m = r.mappings.remove(&start).expect("tiling found it");
            self.memory.remove(start);
            self.vmm.drop_holder(m.handle, &m.object, false);
        }
        Ok(())
    }

    /// `cuMemSetAccess`: `[ptr, ptr+size)` must be fully mapped, by whole mappings; each
    /// descriptor gives a device's access (`CUmemAccess_flags` 0, 1 or 3). The host's
    /// protection is what any device may do: devices share the process's page tables.
    pub fn mem_set_access(&self, ptr: DevicePtr, size: u64, descs: &[(u32, i32, u32)]) -> CuResult<()> {
        if descs.is_empty() {
            return Err(invalid(format_args!("cuMemSetAccess: no descriptor")));
        }
        let mut grants = Vec::with_capacity(descs.len());
        for &(location_type, id, flags) in descs {
            let device = self.vmm_device(location_type, id)?;
            if !matches!(flags, 0 | ACCESS_READ | ACCESS_READWRITE) {
                return Err(invalid(format_args!("cuMemSetAccess: access flags {flags:#x}")));
            }
            grants.push((device, flags));
        }
        let mut reservations = self.vmm.reservations();
        let tiled = reservation_of(&mut reservations, ptr, size).and_then(|(_, r)| Some((tiling(r, ptr, size)?, r)));
        let Some((starts, r)) = tiled else {
            return Err(invalid(format_args!("cuMemSetAccess({ptr:#x}, {size:#x}): not a fully mapped range")));
        };
        for start in starts {
            let m = r.mappings.get_mut(&start).expect("tiling found it");
            for &(device, flags) in &grants {
                m.access[device] = flags;
            }
            let effective = m.access.iter().fold(0, |a, &f| a | f);
            host::protect(start, m.size, effective).map_err(|e| os_error("cuMemSetAccess", e))?;
            self.memory.set_flags(start, effective);
        }
        Ok(())
    }

    /// `cuMemGetAccess`: a device's access to the mapping containing `ptr`.
    pub fn mem_get_access(&self, location_type: u32, id: i32, ptr: DevicePtr) -> CuResult<u32> {
        let device = self.vmm_device(location_type, id)?;
        let mut reservations = self.vmm.reservations();
        let (_, r) = reservation_of(&mut reservations, ptr, 1).ok_or_else(|| invalid(format_args!("cuMemGetAccess({ptr:#x}): not reserved")))?;
        match r.mappings.range(..=ptr).next_back() {
            Some((&start, m)) if ptr < start + m.size => Ok(m.access[device]),
            _ => Err(invalid(format_args!("cuMemGetAccess({ptr:#x}): not mapped"))),
        }
    }

    /// `cuMemRetainAllocationHandle`: the handle mapped at `addr` (any address of the
    /// mapping), with one more reference.
    pub fn mem_retain_allocation_handle(&self, addr: DevicePtr) -> CuResult<MemHandle> {
        let mut reservations = self.vmm.reservations();
        let mapping = reservation_of(&mut reservations, addr, 1).and_then(|(_, r)| {
            let (&start, m) = r.mappings.range(..=addr).next_back()?;
            (addr < start + m.size).then_some(m)
        });
        let m = mapping.ok_or_else(|| invalid(format_args!("cuMemRetainAllocationHandle({addr:#x}): not mapped")))?;
        m.object.holders().0 += 1;
        Ok(m.handle)
    }

    /// `cuMemExportToShareableHandle` as a POSIX file descriptor (a new descriptor the
    /// caller closes): the allocation must have requested that type; `flags` 0.
    pub fn mem_export_to_fd(&self, handle: MemHandle, handle_type: u32, flags: u64) -> CuResult<i32> {
        let object = self.vmm.object(handle)?;
        if handle_type != HANDLE_TYPE_POSIX_FD {
            let code = if HANDLE_TYPES & handle_type != 0 && handle_type.is_power_of_two() { CuError::NOT_SUPPORTED } else { CuError::INVALID_VALUE };
            return Err(fail(code, format_args!("cuMemExportToShareableHandle: handle type {handle_type}")));
        }
        if flags != 0 || object.prop.requested_handle_types & HANDLE_TYPE_POSIX_FD == 0 {
            return Err(invalid(format_args!(
                "cuMemExportToShareableHandle: flags {flags:#x}, allocation's handle types {:#x}",
                object.prop.requested_handle_types
            )));
        }
        let fd = host::duplicate(object.physical.fd.as_raw_fd()).map_err(|e| os_error("cuMemExportToShareableHandle", e))?;
        Ok(std::os::fd::IntoRawFd::into_raw_fd(fd))
    }

    /// `cuMemImportFromShareableHandle` from a POSIX file descriptor (the caller keeps
    /// its descriptor): the allocation exported from this process, or a foreign memfd
    /// adopted as pinned memory of device 0.
    pub fn mem_import_from_fd(&self, fd: i32, handle_type: u32) -> CuResult<MemHandle> {
        if handle_type != HANDLE_TYPE_POSIX_FD {
            let code = if HANDLE_TYPES & handle_type != 0 && handle_type.is_power_of_two() { CuError::NOT_SUPPORTED } else { CuError::INVALID_VALUE };
            return Err(fail(code, format_args!("cuMemImportFromShareableHandle: handle type {handle_type}")));
        }
        // A descriptor that is not open: NVIDIA's driver (580) answers CUDA_ERROR_UNKNOWN.
        let (inode, size) = host::identity(fd).map_err(|e| {
            let code = if e.raw_os_error() == Some(libc::EBADF) { CuError::UNKNOWN } else { CuError::INVALID_VALUE };
            fail(code, format_args!("cuMemImportFromShareableHandle({fd}): {e}"))
        })?;
        let own = self.vmm.objects.all().into_iter().map(|(_, o)| o).find(|o| o.physical.inode == inode);
        if let Some(object) = own {
            return Ok(self.new_mem_object(object.physical.clone(), object.prop));
        }
        if size == 0 || !size.is_multiple_of(host::page_size()) {
            return Err(invalid(format_args!("cuMemImportFromShareableHandle({fd}): {size} bytes")));
        }
        let device = (0..self.devices.len()).find(|&d| self.vmm_supported(d)).ok_or(CuError::NOT_SUPPORTED)?;
        let fd = host::duplicate(fd).map_err(|e| os_error("cuMemImportFromShareableHandle", e))?;
        let prop = AllocationProp {
            alloc_type: ALLOCATION_TYPE_PINNED,
            requested_handle_types: HANDLE_TYPE_POSIX_FD,
            location_type: LOCATION_TYPE_DEVICE,
            location_id: device as i32,
            ..AllocationProp::default()
        };
        Ok(self.new_mem_object(Arc::new(Physical { fd, size, inode }), prop))
    }

    /// Whether `addr` lies in a reservation but in none of its mappings: inaccessible
    /// address space that copies must not touch.
    pub(crate) fn unmapped_reserved(&self, addr: u64) -> bool {
        let mut reservations = self.vmm.reservations();
        let Some((_, r)) = reservation_of(&mut reservations, addr, 1) else { return false };
        r.mappings.range(..=addr).next_back().is_none_or(|(&start, m)| addr >= start + m.size)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiling_accepts_whole_adjacent_mappings_only() {
        let object = Arc::new(MemObject {
            physical: Arc::new(Physical { fd: host::memfd(4096).unwrap(), size: 4096, inode: (0, 0) }),
            prop: AllocationProp::default(),
            holders: Mutex::new((1, 0)),
        });
        let mapping = |size| Mapping { size, handle: MemHandle::NULL, object: object.clone(), access: vec![0] };
        let mut r = Reservation { size: 0x10000, mappings: BTreeMap::new() };
        r.mappings.insert(0x1000, mapping(0x1000));
        r.mappings.insert(0x2000, mapping(0x2000));
        r.mappings.insert(0x5000, mapping(0x1000));
        assert_eq!(tiling(&r, 0x1000, 0x1000), Some(vec![0x1000]));
        assert_eq!(tiling(&r, 0x1000, 0x3000), Some(vec![0x1000, 0x2000]));
        assert_eq!(tiling(&r, 0x2000, 0x1000), None, "part of a mapping");
        assert_eq!(tiling(&r, 0x1000, 0x5000), None, "a gap");
        assert_eq!(tiling(&r, 0x4000, 0x1000), None, "nothing mapped");
    }
}
