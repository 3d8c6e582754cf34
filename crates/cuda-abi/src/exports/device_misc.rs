//! Context-wide events (`cuCtxRecordEvent`, `cuCtxWaitEvent`), `cuCtxDetach`,
//! `cuCtxResetPersistingL2Cache`, `cuFlushGPUDirectRDMAWrites`, atomic capabilities
//! (`cuDeviceGetHostAtomicCapabilities`, `cuDeviceGetP2PAtomicCapabilities`) and
//! asynchronous notifications (`cuDeviceRegisterAsyncNotification`,
//! `cuDeviceUnregisterAsyncNotification`). Semantics in `cuda_driver::ctx_event` and
//! `cuda_driver::device_caps`.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::device_caps::AsyncCallback;
use cuda_driver::CuError;

use super::{ctx_handle, drv, event_handle};
use crate::boundary::{export, slice};
use crate::types::{CUcontext, CUdevice, CUevent};

/// Writes one capability mask per operation.
///
/// # Safety
/// `capabilities` is NULL or writable and `operations` NULL or readable, for `count` entries.
unsafe fn write_capabilities(
    capabilities: *mut c_uint,
    operations: *const c_int,
    count: c_uint,
    f: impl FnOnce(&[u32]) -> cuda_driver::CuResult<Vec<u32>>,
) -> cuda_driver::CuResult<()> {
    if capabilities.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: forwarded contract.
    let ops: Vec<u32> = unsafe { slice(operations, count as usize) }?.iter().map(|&o| o as u32).collect();
    let caps = f(&ops)?;
    for (i, c) in caps.iter().enumerate() {
        // SAFETY: `count` writable entries, per the contract.
        unsafe { capabilities.add(i).write_unaligned(*c) };
    }
    Ok(())
}

export! {
    /// `cuCtxRecordEvent(CUcontext hCtx, CUevent hEvent)` (CUDA 12.5).
    fn cuCtxRecordEvent(h_ctx: CUcontext, h_event: CUevent) {
        drv()?.ctx_record_event(ctx_handle(h_ctx), event_handle(h_event))
    }

    /// `cuCtxWaitEvent(CUcontext hCtx, CUevent hEvent)` (CUDA 12.5).
    fn cuCtxWaitEvent(h_ctx: CUcontext, h_event: CUevent) {
        drv()?.ctx_wait_event(ctx_handle(h_ctx), event_handle(h_event))
    }

    /// `cuCtxDetach(CUcontext ctx)` (deprecated).
    fn cuCtxDetach(ctx: CUcontext) {
        drv()?.ctx_detach(ctx_handle(ctx))
    }

    /// `cuCtxResetPersistingL2Cache(void)`.
    fn cuCtxResetPersistingL2Cache() {
        drv()?.ctx_reset_persisting_l2_cache()
    }

    /// `cuFlushGPUDirectRDMAWrites(CUflushGPUDirectRDMAWritesTarget target, CUflushGPUDirectRDMAWritesScope scope)`.
    fn cuFlushGPUDirectRDMAWrites(target: c_uint, scope: c_uint) {
        drv()?.flush_gpu_direct_rdma_writes(target, scope)
    }

    /// `cuDeviceGetHostAtomicCapabilities(unsigned* capabilities, const CUatomicOperation* operations, unsigned count, CUdevice dev)` (CUDA 13.0).
    fn cuDeviceGetHostAtomicCapabilities(capabilities: *mut c_uint, operations: *const c_int, count: c_uint, dev: CUdevice) {
        let driver = drv()?;
        // SAFETY: arrays of `count` entries, per the API.
        unsafe { write_capabilities(capabilities, operations, count, |ops| driver.device_host_atomic_capabilities(ops, dev)) }
    }

    /// `cuDeviceGetP2PAtomicCapabilities(unsigned* capabilities, const CUatomicOperation* operations, unsigned count, CUdevice srcDevice, CUdevice dstDevice)` (CUDA 13.0).
    fn cuDeviceGetP2PAtomicCapabilities(capabilities: *mut c_uint, operations: *const c_int, count: c_uint, src_device: CUdevice, dst_device: CUdevice) {
        let driver = drv()?;
        // SAFETY: arrays of `count` entries, per the API.
        unsafe { write_capabilities(capabilities, operations, count, |ops| driver.device_p2p_atomic_capabilities(ops, src_device, dst_device)) }
    }

    /// `cuDeviceRegisterAsyncNotification(CUdevice device, CUasyncCallback callbackFunc, void* userData, CUasyncCallbackHandle* callback)` (CUDA 12.4).
    fn cuDeviceRegisterAsyncNotification(device: CUdevice, callback_func: Option<AsyncCallback>, user_data: *mut c_void, callback: *mut *mut c_void) {
        let func = callback_func.ok_or(CuError::INVALID_VALUE)?;
        if callback.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        let handle = drv()?.device_register_async_notification(device, func, user_data)?;
        // SAFETY: non-NULL and writable, per the API.
        unsafe { callback.write_unaligned(handle as usize as *mut c_void) };
        Ok(())
    }

    /// `cuDeviceUnregisterAsyncNotification(CUdevice device, CUasyncCallbackHandle callback)`.
    fn cuDeviceUnregisterAsyncNotification(device: CUdevice, callback: *mut c_void) {
        drv()?.device_unregister_async_notification(device, callback as usize as u64)
    }
}
