//! Interprocess communication (CUDA Driver API, "Memory Management" and "Stream Ordered
//! Memory Allocator"): `cuIpcGetMemHandle`, `cuIpcOpenMemHandle(_v2)`,
//! `cuIpcCloseMemHandle`, `cuIpcGetEventHandle`, `cuIpcOpenEventHandle`,
//! `cuMemPoolExportToShareableHandle`, `cuMemPoolImportFromShareableHandle`,
//! `cuMemPoolExportPointer`, `cuMemPoolImportPointer`. Semantics in `cuda_driver::ipc`.

use std::ffi::{c_uint, c_ulonglong, c_void};

use cuda_driver::{CuError, PoolHandle};

use super::{drv, event_handle};
use crate::boundary::{export, read_in, Out};
use crate::types::{CUdeviceptr, CUevent, CUmemoryPool};

/// `CUipcMemHandle`, `CUipcEventHandle` and `CUmemPoolPtrExportData`: 64 opaque bytes
/// (`CU_IPC_HANDLE_SIZE`), passed by value or through pointers.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct Opaque64 {
    pub reserved: [u8; 64],
}

export! {
    /// `cuIpcGetMemHandle(CUipcMemHandle* pHandle, CUdeviceptr dptr)`.
    fn cuIpcGetMemHandle(p_handle: *mut Opaque64, dptr: CUdeviceptr) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_handle) }?;
        out.write(Opaque64 { reserved: drv()?.ipc_get_mem_handle(dptr)? });
        Ok(())
    }

    /// `cuIpcOpenMemHandle(CUdeviceptr* pdptr, CUipcMemHandle handle, unsigned int Flags)`
    /// (the legacy name, same ABI).
    fn cuIpcOpenMemHandle(pdptr: *mut CUdeviceptr, handle: Opaque64, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pdptr) }?;
        out.write(drv()?.ipc_open_mem_handle(&handle.reserved, flags)?);
        Ok(())
    }

    /// `cuIpcOpenMemHandle_v2(CUdeviceptr* pdptr, CUipcMemHandle handle, unsigned int Flags)`.
    fn cuIpcOpenMemHandle_v2(pdptr: *mut CUdeviceptr, handle: Opaque64, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pdptr) }?;
        out.write(drv()?.ipc_open_mem_handle(&handle.reserved, flags)?);
        Ok(())
    }

    /// `cuIpcCloseMemHandle(CUdeviceptr dptr)`.
    fn cuIpcCloseMemHandle(dptr: CUdeviceptr) {
        drv()?.ipc_close_mem_handle(dptr)
    }

    /// `cuIpcGetEventHandle(CUipcEventHandle* pHandle, CUevent event)`.
    fn cuIpcGetEventHandle(p_handle: *mut Opaque64, event: CUevent) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_handle) }?;
        out.write(Opaque64 { reserved: drv()?.ipc_get_event_handle(event_handle(event))? });
        Ok(())
    }

    /// `cuIpcOpenEventHandle(CUevent* phEvent, CUipcEventHandle handle)`.
    fn cuIpcOpenEventHandle(ph_event: *mut CUevent, handle: Opaque64) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_event) }?;
        out.write(drv()?.ipc_open_event_handle(&handle.reserved)?.as_raw().cast());
        Ok(())
    }

    /// `cuMemPoolExportToShareableHandle(void* handle_out, CUmemoryPool pool, CUmemAllocationHandleType handleType, unsigned long long flags)`:
    /// a POSIX file descriptor is written as an `int`.
    fn cuMemPoolExportToShareableHandle(handle_out: *mut c_void, pool: CUmemoryPool, handle_type: c_uint, flags: c_ulonglong) {
        // SAFETY: NULL or writable for the handle type's C type (an `int`), per the API.
        let out = unsafe { Out::new(handle_out.cast::<i32>()) }?;
        out.write(drv()?.mem_pool_export_to_fd(PoolHandle::from_raw(pool.cast()), handle_type, flags)?);
        Ok(())
    }

    /// `cuMemPoolImportFromShareableHandle(CUmemoryPool* pool_out, void* handle, CUmemAllocationHandleType handleType, unsigned long long flags)`:
    /// a POSIX file descriptor is passed as the pointer's value, `(void*)(uintptr_t)fd`.
    fn cuMemPoolImportFromShareableHandle(pool_out: *mut CUmemoryPool, handle: *mut c_void, handle_type: c_uint, flags: c_ulonglong) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pool_out) }?;
        let fd = i32::try_from(handle as usize).map_err(|_| CuError::INVALID_VALUE)?;
        out.write(drv()?.mem_pool_import_from_fd(fd, handle_type, flags)?.as_raw().cast());
        Ok(())
    }

    /// `cuMemPoolExportPointer(CUmemPoolPtrExportData* shareData_out, CUdeviceptr ptr)`.
    fn cuMemPoolExportPointer(share_data_out: *mut Opaque64, ptr: CUdeviceptr) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(share_data_out) }?;
        out.write(Opaque64 { reserved: drv()?.mem_pool_export_pointer(ptr)? });
        Ok(())
    }

    /// `cuMemPoolImportPointer(CUdeviceptr* ptr_out, CUmemoryPool pool, CUmemPoolPtrExportData* shareData)`.
    fn cuMemPoolImportPointer(ptr_out: *mut CUdeviceptr, pool: CUmemoryPool, share_data: *mut Opaque64) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, data) = unsafe { (Out::new(ptr_out)?, read_in(share_data)?) };
        out.write(drv()?.mem_pool_import_pointer(PoolHandle::from_raw(pool.cast()), &data.reserved)?);
        Ok(())
    }
}
