//! The error log (`cudaLogsRegisterCallback`, `cudaLogsUnregisterCallback`,
//! `cudaLogsCurrent`, `cudaLogsDumpToFile`, `cudaLogsDumpToMemory`: the runtime API's
//! "Error Log Management", which "operates on both the CUDA Driver and CUDA Runtime"),
//! asynchronous notifications (`cudaDeviceRegisterAsyncNotification`,
//! `cudaDeviceUnregisterAsyncNotification`), atomic capabilities
//! (`cudaDeviceGetHostAtomicCapabilities`, `cudaDeviceGetP2PAtomicCapabilities`) and array
//! queries (`cudaArrayGetMemoryRequirements`, `cudaArrayGetSparseProperties`). The
//! runtime's callback types, handles, enums and structures have the driver's layouts, so
//! each call passes its arguments to the driver's entry point of the same name.

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::boundary::export;
use crate::error::CudaError;
use crate::runtime::{driver, runtime};

export! {
    /// `cudaLogsRegisterCallback(cudaLogsCallback_t callbackFunc, void* userData, cudaLogsCallbackHandle* callback_out)`.
    fn cudaLogsRegisterCallback(callback_func: *mut c_void, user_data: *mut c_void, callback_out: *mut *mut c_void) {
        // SAFETY: the caller's callback and out-pointer; the driver checks them.
        unsafe { driver()?.api.cuLogsRegisterCallback(callback_func, user_data, callback_out) }
    }

    /// `cudaLogsUnregisterCallback(cudaLogsCallbackHandle callback)`.
    fn cudaLogsUnregisterCallback(callback: *mut c_void) {
        // SAFETY: a handle; the driver checks it.
        unsafe { driver()?.api.cuLogsUnregisterCallback(callback) }
    }

    /// `cudaLogsCurrent(cudaLogIterator* iterator_out, unsigned int flags)`.
    fn cudaLogsCurrent(iterator_out: *mut c_uint, flags: c_uint) {
        // SAFETY: the caller's out-pointer; the driver checks it.
        unsafe { driver()?.api.cuLogsCurrent(iterator_out, flags) }
    }

    /// `cudaLogsDumpToFile(cudaLogIterator* iterator, const char* pathToFile, unsigned int flags)`.
    fn cudaLogsDumpToFile(iterator: *mut c_uint, path_to_file: *const c_char, flags: c_uint) {
        // SAFETY: the caller's iterator and path; the driver checks them.
        unsafe { driver()?.api.cuLogsDumpToFile(iterator, path_to_file, flags) }
    }

    /// `cudaLogsDumpToMemory(cudaLogIterator* iterator, char* buffer, size_t* size, unsigned int flags)`.
    fn cudaLogsDumpToMemory(iterator: *mut c_uint, buffer: *mut c_char, size: *mut usize, flags: c_uint) {
        // SAFETY: the caller's iterator, buffer and size; the driver checks them.
        unsafe { driver()?.api.cuLogsDumpToMemory(iterator, buffer, size, flags) }
    }

    /// `cudaDeviceRegisterAsyncNotification(int device, cudaAsyncCallback callbackFunc, void* userData, cudaAsyncCallbackHandle_t* callback)`.
    fn cudaDeviceRegisterAsyncNotification(device: c_int, callback_func: *mut c_void, user_data: *mut c_void, callback: *mut *mut c_void) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: the caller's callback and out-pointer; the driver checks them.
        unsafe { rt.api().cuDeviceRegisterAsyncNotification(dev, callback_func, user_data, callback) }
    }

    /// `cudaDeviceUnregisterAsyncNotification(int device, cudaAsyncCallbackHandle_t callback)`.
    fn cudaDeviceUnregisterAsyncNotification(device: c_int, callback: *mut c_void) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: a handle; the driver checks it.
        unsafe { rt.api().cuDeviceUnregisterAsyncNotification(dev, callback) }
    }

    /// `cudaDeviceGetHostAtomicCapabilities(unsigned int* capabilities, const cudaAtomicOperation* operations, unsigned int count, int device)`.
    fn cudaDeviceGetHostAtomicCapabilities(capabilities: *mut c_uint, operations: *const c_int, count: c_uint, device: c_int) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: arrays of `count` entries, per the API; the driver checks them.
        unsafe { rt.api().cuDeviceGetHostAtomicCapabilities(capabilities, operations, count, dev) }
    }

    /// `cudaDeviceGetP2PAtomicCapabilities(unsigned int* capabilities, const cudaAtomicOperation* operations, unsigned int count, int srcDevice, int dstDevice)`.
    fn cudaDeviceGetP2PAtomicCapabilities(capabilities: *mut c_uint, operations: *const c_int, count: c_uint, src_device: c_int, dst_device: c_int) {
        let rt = runtime()?;
        let (src, dst) = (rt.device(src_device)?, rt.device(dst_device)?);
        // SAFETY: arrays of `count` entries, per the API; the driver checks them.
        unsafe { rt.api().cuDeviceGetP2PAtomicCapabilities(capabilities, operations, count, src, dst) }
    }

    /// `cudaArrayGetMemoryRequirements(cudaArrayMemoryRequirements* memoryRequirements, cudaArray_t array, int device)`.
    fn cudaArrayGetMemoryRequirements(memory_requirements: *mut c_void, array: *mut c_void, device: c_int) {
        if memory_requirements.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        let rt = runtime()?;
        rt.context()?;
        let dev = rt.device(device)?;
        // SAFETY: a writable structure of the driver's layout; the driver checks the array.
        unsafe { rt.api().cuArrayGetMemoryRequirements(memory_requirements, array, dev) }
    }

    /// `cudaArrayGetSparseProperties(cudaArraySparseProperties* sparseProperties, cudaArray_t array)`.
    fn cudaArrayGetSparseProperties(sparse_properties: *mut c_void, array: *mut c_void) {
        if sparse_properties.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        let rt = runtime()?;
        rt.context()?;
        // SAFETY: a writable structure of the driver's layout; the driver checks the array.
        unsafe { rt.api().cuArrayGetSparseProperties(sparse_properties, array) }
    }
}
