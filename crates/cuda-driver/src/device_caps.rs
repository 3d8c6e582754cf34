//! Device capabilities and notifications: `cuDeviceGetHostAtomicCapabilities`,
//! `cuDeviceGetP2PAtomicCapabilities` (CUDA 13.0), `cuDeviceRegisterAsyncNotification` /
//! `cuDeviceUnregisterAsyncNotification` (CUDA 12.4), `cuFlushGPUDirectRDMAWrites` (CUDA
//! 11.3) and `cuCtxResetPersistingL2Cache` (CUDA 11.0), CUDA Driver API "Device
//! Management" and "Context Management".
//!
//! - Atomics between a device and the host: on a device that addresses host memory (the
//!   CPU device) kernels and the host use the same processor's atomic instructions on the
//!   same memory, so every integer operation is native for signed and unsigned 32- and
//!   64-bit operands and as a reduction, the float operations for 32- and 64-bit operands
//!   (`CU_DEVICE_ATTRIBUTE_HOST_NATIVE_ATOMIC_SUPPORTED` is 1 there). Elsewhere (AMD GPUs)
//!   none is native: capabilities 0, as the attribute says. Between two devices: no peer
//!   access exists here (`cuDeviceGetP2PAttribute` answers 0), so no capability; the same
//!   device twice is `CUDA_ERROR_INVALID_DEVICE`, as for the P2P attributes.
//! - Asynchronous notifications report a process going over its device memory budget;
//!   no device here has a budget, so a registered callback is kept until unregistered and
//!   never called.
//! - GPUDirect RDMA: no device here accepts RDMA writes
//!   (`CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED` and
//!   `GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS` are 0), so the flush answers what a device
//!   without the flush option answers, `CUDA_ERROR_NOT_SUPPORTED`, after the argument
//!   checks (target `CURRENT_CTX`, scope `TO_OWNER` or `TO_ALL_DEVICES`, a current
//!   context); our runtime's `cudaDeviceFlushGPUDirectRDMAWrites` answers the same.
//! - Persisting L2 lines: the CPU device has none (`MAX_PERSISTING_L2_CACHE_SIZE` 0), so
//!   the reset has nothing to reset.

use std::ffi::c_void;
use std::sync::atomic::Ordering;
use std::sync::Mutex;

use crate::diag::fail;
use crate::{CuError, CuResult, Driver};

/// `CUatomicOperation`: `INTEGER_ADD` 0 ... `EXCHANGE` 8, `CAS` 9, `FLOAT_ADD` 10,
/// `FLOAT_MIN` 11, `FLOAT_MAX` 12.
pub const ATOMIC_OPERATION_COUNT: u32 = 13;
const ATOMIC_FLOAT_ADD: u32 = 10;

/// `CUatomicOperationCapability` bits.
pub mod capability {
    pub const SIGNED: u32 = 1;
    pub const UNSIGNED: u32 = 2;
    pub const REDUCTION: u32 = 4;
    pub const SCALAR_32: u32 = 8;
    pub const SCALAR_64: u32 = 16;
}

/// `CUasyncCallback`: `void (*)(CUasyncNotificationInfo*, void* userData, CUasyncCallbackHandle)`.
pub type AsyncCallback = unsafe extern "C" fn(info: *mut c_void, user_data: *mut c_void, handle: *mut c_void);

/// Registered asynchronous-notification callbacks: `(device, handle id, callback, data)`.
#[derive(Default)]
pub(crate) struct Notifications(Mutex<Vec<(usize, u64, AsyncCallback, usize)>>);

/// `CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TARGET_CURRENT_CTX`.
const RDMA_TARGET_CURRENT_CTX: u32 = 0;
/// `CU_FLUSH_GPU_DIRECT_RDMA_WRITES_TO_OWNER` / `_TO_ALL_DEVICES`.
const RDMA_SCOPES: [u32; 2] = [100, 200];

impl Driver {
    fn atomic_capabilities(ops: &[u32], native: bool) -> CuResult<Vec<u32>> {
        use capability::*;
        if ops.is_empty() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("atomic capabilities: no operations")));
        }
        ops.iter()
            .map(|&op| match op {
                _ if op >= ATOMIC_OPERATION_COUNT => Err(fail(CuError::INVALID_VALUE, format_args!("atomic capabilities: operation {op}"))),
                _ if !native => Ok(0),
                _ if op >= ATOMIC_FLOAT_ADD => Ok(SIGNED | REDUCTION | SCALAR_32 | SCALAR_64),
                _ => Ok(SIGNED | UNSIGNED | REDUCTION | SCALAR_32 | SCALAR_64),
            })
            .collect()
    }

    /// `cuDeviceGetHostAtomicCapabilities`: one capability mask per operation.
    pub fn device_host_atomic_capabilities(&self, ops: &[u32], dev: i32) -> CuResult<Vec<u32>> {
        let native = self.device_slot(dev)?.backend.properties().host_addressable_memory;
        Self::atomic_capabilities(ops, native)
    }

    /// `cuDeviceGetP2PAtomicCapabilities`: one capability mask per operation.
    pub fn device_p2p_atomic_capabilities(&self, ops: &[u32], src: i32, dst: i32) -> CuResult<Vec<u32>> {
        self.device_slot(src)?;
        self.device_slot(dst)?;
        if src == dst {
            return Err(fail(CuError::INVALID_DEVICE, format_args!("cuDeviceGetP2PAtomicCapabilities: src == dst")));
        }
        Self::atomic_capabilities(ops, false)
    }

    /// `cuDeviceRegisterAsyncNotification`: returns the handle (a nonzero number).
    pub fn device_register_async_notification(&self, dev: i32, callback: AsyncCallback, user_data: *mut c_void) -> CuResult<u64> {
        self.device_slot(dev)?;
        static NEXT: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        let id = NEXT.fetch_add(1, Ordering::Relaxed);
        self.notifications.0.lock().unwrap_or_else(|e| e.into_inner()).push((dev as usize, id, callback, user_data as usize));
        Ok(id)
    }

    /// `cuDeviceUnregisterAsyncNotification`: `CUDA_ERROR_INVALID_VALUE` for a handle not
    /// registered on `dev`.
    pub fn device_unregister_async_notification(&self, dev: i32, handle: u64) -> CuResult<()> {
        self.device_slot(dev)?;
        let mut list = self.notifications.0.lock().unwrap_or_else(|e| e.into_inner());
        match list.iter().position(|&(d, id, _, _)| d == dev as usize && id == handle) {
            Some(i) => {
                list.remove(i);
                Ok(())
            }
            None => Err(fail(CuError::INVALID_VALUE, format_args!("cuDeviceUnregisterAsyncNotification: handle {handle:#x} on device {dev}"))),
        }
    }

    /// `cuFlushGPUDirectRDMAWrites(target, scope)`.
    pub fn flush_gpu_direct_rdma_writes(&self, target: u32, scope: u32) -> CuResult<()> {
        if target != RDMA_TARGET_CURRENT_CTX || !RDMA_SCOPES.contains(&scope) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuFlushGPUDirectRDMAWrites: target {target}, scope {scope}")));
        }
        self.current_context()?;
        Err(fail(CuError::NOT_SUPPORTED, format_args!("cuFlushGPUDirectRDMAWrites: the device has no GPUDirect RDMA writes to flush")))
    }

    /// `cuCtxResetPersistingL2Cache`.
    pub fn ctx_reset_persisting_l2_cache(&self) -> CuResult<()> {
        self.current_context().map(|_| ())
    }

    /// `cuCtxDetach` (deprecated): the context must be current (`CUDA_ERROR_INVALID_CONTEXT`
    /// otherwise). A created context has a usage count of one (this driver has no
    /// `cuCtxAttach`), so detaching destroys it; detaching a primary context succeeds and
    /// leaves it as it is (its life is the retain count's), as NVIDIA's driver answers.
    pub fn ctx_detach(&self, ctx: crate::CtxHandle) -> CuResult<()> {
        let current = self.ctx_get_current();
        if ctx.is_null() || current != ctx {
            return Err(fail(CuError::INVALID_CONTEXT, format_args!("cuCtxDetach: {:#x} is not the current context", ctx.0)));
        }
        // A context `cuCtxAttach` attached to stays until as many detaches.
        if self.context(ctx)?.primary || self.ctx_take_attachment(ctx) {
            return Ok(());
        }
        self.ctx_destroy(ctx)
    }
}
