//! `cuCtx*`: context creation and destruction, the per-thread context stack, and
//! queries and settings of the current (or a given) context.
//!
//! A NULL `CUcontext` argument means "the current context" where the API says so
//! (`cuCtxGetDevice_v2`, `cuCtxSynchronize_v2`, `cuCtxGetApiVersion`, `cuCtxGetId`); the
//! driver implements that rule.

use std::ffi::{c_int, c_uint, c_ulonglong};

use cuda_driver::{CtxHandle, CuError};

use super::{ctx_handle, ctx_raw, drv};
use crate::boundary::{export, read_in, Out};
use crate::types::{CUcontext, CUctxCreateParams, CUdevice, CUexecAffinityParam};

/// `cuCtxCreate` with execution affinity: this driver has none to offer (as NVIDIA's
/// driver outside MPS), so any requested affinity is unsupported.
fn check_no_affinity(params: *const CUexecAffinityParam, num_params: c_int) -> crate::boundary::AbiResult {
    match num_params {
        0 => Ok(()),
        n if n < 0 || params.is_null() => Err(CuError::INVALID_VALUE),
        _ => Err(CuError::UNSUPPORTED_EXEC_AFFINITY),
    }
}

/// `cuCtxPopCurrent(_v2)`.
///
/// # Safety
/// `pctx` is NULL or writable.
unsafe fn pop_current(pctx: *mut CUcontext) -> crate::boundary::AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::optional(pctx) };
    let popped = drv()?.ctx_pop_current()?;
    if let Some(out) = out {
        out.write(ctx_raw(popped));
    }
    Ok(())
}

export! {
    /// `cuCtxCreate_v2(CUcontext* pctx, unsigned flags, CUdevice dev)`.
    fn cuCtxCreate_v2(pctx: *mut CUcontext, flags: c_uint, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pctx) }?;
        out.write(ctx_raw(drv()?.ctx_create(flags, dev)?));
        Ok(())
    }

    /// `cuCtxCreate_v3(CUcontext* pctx, CUexecAffinityParam* paramsArray, int numParams, unsigned flags, CUdevice dev)`.
    fn cuCtxCreate_v3(pctx: *mut CUcontext, params_array: *mut CUexecAffinityParam, num_params: c_int, flags: c_uint, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pctx) }?;
        check_no_affinity(params_array, num_params)?;
        out.write(ctx_raw(drv()?.ctx_create(flags, dev)?));
        Ok(())
    }

    /// `cuCtxCreate_v4(CUcontext* pctx, CUctxCreateParams* ctxCreateParams, unsigned flags, CUdevice dev)`
    /// (CUDA 12.5; what `cuCtxCreate` means in CUDA 13). NULL parameters mean a plain
    /// context; CIG (graphics interop) contexts are not supported.
    fn cuCtxCreate_v4(pctx: *mut CUcontext, ctx_create_params: *mut CUctxCreateParams, flags: c_uint, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pctx) }?;
        if !ctx_create_params.is_null() {
            // SAFETY: non-NULL, and readable per the API.
            let params = unsafe { read_in(ctx_create_params) }?;
            if !params.cigParams.is_null() {
                return Err(CuError::NOT_SUPPORTED);
            }
            check_no_affinity(params.execAffinityParams, params.numExecAffinityParams)?;
        }
        out.write(ctx_raw(drv()?.ctx_create(flags, dev)?));
        Ok(())
    }

    /// `cuCtxCreate(CUcontext* pctx, unsigned flags, CUdevice dev)`: the CUDA 2.0 name,
    /// which NVIDIA's driver still exports; its signature is `cuCtxCreate_v2`'s (what
    /// changed in 3.2 was the width of device pointers, and no 32-bit-pointer entry point
    /// is exported here).
    fn cuCtxCreate(pctx: *mut CUcontext, flags: c_uint, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pctx) }?;
        out.write(ctx_raw(drv()?.ctx_create(flags, dev)?));
        Ok(())
    }

    /// `cuCtxDestroy_v2(CUcontext ctx)`.
    fn cuCtxDestroy_v2(ctx: CUcontext) {
        drv()?.ctx_destroy(ctx_handle(ctx))
    }

    /// `cuCtxDestroy(CUcontext ctx)`: the pre-4.0 name, same signature as `_v2`.
    fn cuCtxDestroy(ctx: CUcontext) {
        drv()?.ctx_destroy(ctx_handle(ctx))
    }

    /// `cuCtxPushCurrent_v2(CUcontext ctx)`.
    fn cuCtxPushCurrent_v2(ctx: CUcontext) {
        drv()?.ctx_push_current(ctx_handle(ctx))
    }

    /// `cuCtxPushCurrent(CUcontext ctx)`: the pre-4.0 name, same signature as `_v2`
    /// (cuBLASLt resolves this plain name).
    fn cuCtxPushCurrent(ctx: CUcontext) {
        drv()?.ctx_push_current(ctx_handle(ctx))
    }

    /// `cuCtxPopCurrent_v2(CUcontext* pctx)`: `pctx` may be NULL (the popped context is
    /// then not returned).
    fn cuCtxPopCurrent_v2(pctx: *mut CUcontext) {
        // SAFETY: NULL or writable, per the API.
        unsafe { pop_current(pctx) }
    }

    /// `cuCtxPopCurrent(CUcontext* pctx)`: the pre-4.0 name, same signature as `_v2`.
    fn cuCtxPopCurrent(pctx: *mut CUcontext) {
        // SAFETY: NULL or writable, per the API.
        unsafe { pop_current(pctx) }
    }

    /// `cuCtxSetCurrent(CUcontext ctx)`.
    fn cuCtxSetCurrent(ctx: CUcontext) {
        drv()?.ctx_set_current(ctx_handle(ctx))
    }

    /// `cuCtxGetCurrent(CUcontext* pctx)`: NULL when no context is current.
    fn cuCtxGetCurrent(pctx: *mut CUcontext) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pctx) }?;
        out.write(ctx_raw(drv()?.ctx_get_current()));
        Ok(())
    }

    /// `cuCtxGetDevice(CUdevice* device)`.
    fn cuCtxGetDevice(device: *mut CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(device) }?;
        out.write(drv()?.ctx_get_device(CtxHandle::NULL)?);
        Ok(())
    }

    /// `cuCtxGetDevice_v2(CUdevice* device, CUcontext ctx)` (CUDA 13).
    fn cuCtxGetDevice_v2(device: *mut CUdevice, ctx: CUcontext) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(device) }?;
        out.write(drv()?.ctx_get_device(ctx_handle(ctx))?);
        Ok(())
    }

    /// `cuCtxEnablePeerAccess(CUcontext peerContext, unsigned int Flags)`.
    fn cuCtxEnablePeerAccess(peer_context: CUcontext, flags: c_uint) {
        drv()?.ctx_enable_peer_access(ctx_handle(peer_context), flags)
    }

    /// `cuCtxDisablePeerAccess(CUcontext peerContext)`.
    fn cuCtxDisablePeerAccess(peer_context: CUcontext) {
        drv()?.ctx_disable_peer_access(ctx_handle(peer_context))
    }

    /// `cuCtxSynchronize(void)`.
    fn cuCtxSynchronize() {
        drv()?.ctx_synchronize(CtxHandle::NULL)
    }

    /// `cuCtxSynchronize_v2(CUcontext ctx)` (CUDA 13).
    fn cuCtxSynchronize_v2(ctx: CUcontext) {
        drv()?.ctx_synchronize(ctx_handle(ctx))
    }

    /// `cuCtxGetApiVersion(CUcontext ctx, unsigned* version)`.
    fn cuCtxGetApiVersion(ctx: CUcontext, version: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(version) }?;
        out.write(drv()?.ctx_get_api_version(ctx_handle(ctx))?);
        Ok(())
    }

    /// `cuCtxGetFlags(unsigned* flags)`.
    fn cuCtxGetFlags(flags: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(flags) }?;
        out.write(drv()?.ctx_get_flags()?);
        Ok(())
    }

    /// `cuCtxSetFlags(unsigned flags)`.
    fn cuCtxSetFlags(flags: c_uint) {
        drv()?.ctx_set_flags(flags)
    }

    /// `cuCtxGetId(CUcontext ctx, unsigned long long* ctxId)`.
    fn cuCtxGetId(ctx: CUcontext, ctx_id: *mut c_ulonglong) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ctx_id) }?;
        out.write(drv()?.ctx_get_id(ctx_handle(ctx))?);
        Ok(())
    }

    /// `cuCtxGetLimit(size_t* pvalue, CUlimit limit)`.
    fn cuCtxGetLimit(pvalue: *mut usize, limit: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pvalue) }?;
        out.write(drv()?.ctx_get_limit(limit)?);
        Ok(())
    }

    /// `cuCtxSetLimit(CUlimit limit, size_t value)`.
    fn cuCtxSetLimit(limit: c_int, value: usize) {
        drv()?.ctx_set_limit(limit, value)
    }

    /// `cuCtxGetCacheConfig(CUfunc_cache* pconfig)`.
    fn cuCtxGetCacheConfig(pconfig: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pconfig) }?;
        out.write(drv()?.ctx_get_cache_config()?);
        Ok(())
    }

    /// `cuCtxSetCacheConfig(CUfunc_cache config)`.
    fn cuCtxSetCacheConfig(config: c_uint) {
        drv()?.ctx_set_cache_config(config)
    }

    /// `cuCtxGetSharedMemConfig(CUsharedconfig* pConfig)` (deprecated).
    fn cuCtxGetSharedMemConfig(p_config: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_config) }?;
        out.write(drv()?.ctx_get_shared_mem_config()?);
        Ok(())
    }

    /// `cuCtxSetSharedMemConfig(CUsharedconfig config)` (deprecated).
    fn cuCtxSetSharedMemConfig(config: c_uint) {
        drv()?.ctx_set_shared_mem_config(config)
    }

    /// `cuCtxGetStreamPriorityRange(int* leastPriority, int* greatestPriority)`: either
    /// pointer may be NULL.
    fn cuCtxGetStreamPriorityRange(least_priority: *mut c_int, greatest_priority: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        let (least, greatest) = unsafe { (Out::optional(least_priority), Out::optional(greatest_priority)) };
        let (l, g) = drv()?.ctx_get_stream_priority_range()?;
        if let Some(out) = least {
            out.write(l);
        }
        if let Some(out) = greatest {
            out.write(g);
        }
        Ok(())
    }
}
