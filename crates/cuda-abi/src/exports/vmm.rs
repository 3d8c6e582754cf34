//! Virtual memory management (CUDA Driver API, "Virtual Memory Management"):
//! `cuMemAddressReserve`, `cuMemAddressFree`, `cuMemCreate`, `cuMemRelease`, `cuMemMap`,
//! `cuMemUnmap`, `cuMemSetAccess`, `cuMemGetAccess`, `cuMemGetAllocationGranularity`,
//! `cuMemGetAllocationPropertiesFromHandle`, `cuMemRetainAllocationHandle`,
//! `cuMemExportToShareableHandle` and `cuMemImportFromShareableHandle` (POSIX file
//! descriptors). Semantics in `cuda_driver::vmm`.

use std::ffi::{c_uint, c_ulonglong, c_void};

use cuda_driver::vmm::AllocationProp;
use cuda_driver::{CuError, MemHandle};

use super::drv;
use crate::boundary::{export, read_in, slice, AbiResult, Out};
use crate::types::{CUdeviceptr, CUmemAccessDesc, CUmemAllocationProp, CUmemAllocationPropFlags, CUmemGenericAllocationHandle, CUmemLocation};

/// The driver's view of a `CUmemAllocationProp`.
///
/// # Safety
/// `prop` is NULL or readable.
unsafe fn read_prop(prop: *const CUmemAllocationProp) -> AbiResult<AllocationProp> {
    // SAFETY: forwarded contract.
    let p = unsafe { read_in(prop) }?;
    Ok(AllocationProp {
        alloc_type: p.kind,
        requested_handle_types: p.requestedHandleTypes,
        location_type: p.location.kind as u32,
        location_id: p.location.id,
        compression_type: p.allocFlags.compressionType,
        gpu_direct_rdma_capable: p.allocFlags.gpuDirectRDMACapable,
        usage: p.allocFlags.usage,
    })
}

export! {
    /// `cuMemAddressReserve(CUdeviceptr* ptr, size_t size, size_t alignment, CUdeviceptr addr, unsigned long long flags)`.
    fn cuMemAddressReserve(ptr: *mut CUdeviceptr, size: usize, alignment: usize, addr: CUdeviceptr, flags: c_ulonglong) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ptr) }?;
        out.write(drv()?.mem_address_reserve(size as u64, alignment as u64, addr, flags)?);
        Ok(())
    }

    /// `cuMemAddressFree(CUdeviceptr ptr, size_t size)`.
    fn cuMemAddressFree(ptr: CUdeviceptr, size: usize) {
        drv()?.mem_address_free(ptr, size as u64)
    }

    /// `cuMemCreate(CUmemGenericAllocationHandle* handle, size_t size, const CUmemAllocationProp* prop, unsigned long long flags)`.
    fn cuMemCreate(handle: *mut CUmemGenericAllocationHandle, size: usize, prop: *const CUmemAllocationProp, flags: c_ulonglong) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, prop) = unsafe { (Out::new(handle)?, read_prop(prop)?) };
        out.write(drv()?.mem_create(size as u64, &prop, flags)?.0);
        Ok(())
    }

    /// `cuMemRelease(CUmemGenericAllocationHandle handle)`.
    fn cuMemRelease(handle: CUmemGenericAllocationHandle) {
        drv()?.mem_release(MemHandle(handle))
    }

    /// `cuMemMap(CUdeviceptr ptr, size_t size, size_t offset, CUmemGenericAllocationHandle handle, unsigned long long flags)`.
    fn cuMemMap(ptr: CUdeviceptr, size: usize, offset: usize, handle: CUmemGenericAllocationHandle, flags: c_ulonglong) {
        drv()?.mem_map(ptr, size as u64, offset as u64, MemHandle(handle), flags)
    }

    /// `cuMemUnmap(CUdeviceptr ptr, size_t size)`.
    fn cuMemUnmap(ptr: CUdeviceptr, size: usize) {
        drv()?.mem_unmap(ptr, size as u64)
    }

    /// `cuMemSetAccess(CUdeviceptr ptr, size_t size, const CUmemAccessDesc* desc, size_t count)`.
    fn cuMemSetAccess(ptr: CUdeviceptr, size: usize, desc: *const CUmemAccessDesc, count: usize) {
        if desc.is_null() || count == 0 {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: non-NULL, and `count` descriptors, per the API.
        let descs = unsafe { slice(desc, count) }?;
        let descs: Vec<(u32, i32, u32)> = descs.iter().map(|d| (d.location.kind as u32, d.location.id, d.flags)).collect();
        drv()?.mem_set_access(ptr, size as u64, &descs)
    }

    /// `cuMemGetAccess(unsigned long long* flags, const CUmemLocation* location, CUdeviceptr ptr)`.
    fn cuMemGetAccess(flags: *mut c_ulonglong, location: *const CUmemLocation, ptr: CUdeviceptr) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, location) = unsafe { (Out::new(flags)?, read_in(location)?) };
        out.write(u64::from(drv()?.mem_get_access(location.kind as u32, location.id, ptr)?));
        Ok(())
    }

    /// `cuMemGetAllocationGranularity(size_t* granularity, const CUmemAllocationProp* prop, CUmemAllocationGranularity_flags option)`.
    fn cuMemGetAllocationGranularity(granularity: *mut usize, prop: *const CUmemAllocationProp, option: c_uint) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, prop) = unsafe { (Out::new(granularity)?, read_prop(prop)?) };
        out.write(drv()?.mem_get_allocation_granularity(&prop, option)? as usize);
        Ok(())
    }

    /// `cuMemGetAllocationPropertiesFromHandle(CUmemAllocationProp* prop, CUmemGenericAllocationHandle handle)`.
    fn cuMemGetAllocationPropertiesFromHandle(prop: *mut CUmemAllocationProp, handle: CUmemGenericAllocationHandle) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(prop) }?;
        let p = drv()?.mem_get_allocation_properties(MemHandle(handle))?;
        out.write(CUmemAllocationProp {
            kind: p.alloc_type,
            requestedHandleTypes: p.requested_handle_types,
            location: CUmemLocation { kind: p.location_type as i32, id: p.location_id },
            win32HandleMetaData: std::ptr::null_mut(),
            allocFlags: CUmemAllocationPropFlags {
                compressionType: p.compression_type,
                gpuDirectRDMACapable: p.gpu_direct_rdma_capable,
                usage: p.usage,
                reserved: [0; 4],
            },
        });
        Ok(())
    }

    /// `cuMemRetainAllocationHandle(CUmemGenericAllocationHandle* handle, void* addr)`.
    fn cuMemRetainAllocationHandle(handle: *mut CUmemGenericAllocationHandle, addr: *mut c_void) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(handle) }?;
        out.write(drv()?.mem_retain_allocation_handle(addr as usize as u64)?.0);
        Ok(())
    }

    /// `cuMemExportToShareableHandle(void* shareableHandle, CUmemGenericAllocationHandle handle, CUmemAllocationHandleType handleType, unsigned long long flags)`:
    /// for `CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR`, `shareableHandle` points to an `int`.
    fn cuMemExportToShareableHandle(shareable_handle: *mut c_void, handle: CUmemGenericAllocationHandle, handle_type: c_uint, flags: c_ulonglong) {
        // SAFETY: NULL or writable for the handle type's C type (an `int`), per the API.
        let out = unsafe { Out::new(shareable_handle.cast::<i32>()) }?;
        out.write(drv()?.mem_export_to_fd(MemHandle(handle), handle_type, flags)?);
        Ok(())
    }

    /// `cuMemImportFromShareableHandle(CUmemGenericAllocationHandle* handle, void* osHandle, CUmemAllocationHandleType shHandleType)`:
    /// a POSIX file descriptor is passed as the pointer's value, `(void*)(uintptr_t)fd`.
    fn cuMemImportFromShareableHandle(handle: *mut CUmemGenericAllocationHandle, os_handle: *mut c_void, sh_handle_type: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(handle) }?;
        // The descriptor travels in the pointer, as C's `(void *)(uintptr_t)fd` puts it
        // there: its low 32 bits (a sign-extended -1 is -1).
        let fd = os_handle as usize as u32 as i32;
        out.write(drv()?.mem_import_from_fd(fd, sh_handle_type)?.0);
        Ok(())
    }
}
