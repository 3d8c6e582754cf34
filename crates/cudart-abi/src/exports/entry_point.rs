//! Driver entry points by name (runtime API "Driver Entry Point Access"): the driver's
//! `cuGetProcAddress`, asked for the runtime's own CUDA version or the caller's.

use std::ffi::{c_char, c_int, c_uint, c_void};

use crate::boundary::{export, Out, RtResult};
use crate::error::CudaError;
use crate::runtime::runtime;

/// `cudaEnableDefault`, `cudaEnableLegacyStream`, `cudaEnablePerThreadDefaultStream`;
/// the last two equal `CU_GET_PROC_ADDRESS_LEGACY_STREAM`/`_PER_THREAD_DEFAULT_STREAM`.
const ENABLE_DEFAULT: u64 = 0;
const ENABLE_LEGACY_STREAM: u64 = 1;
const ENABLE_PER_THREAD: u64 = 2;

/// `CUDA_ERROR_NOT_FOUND`: the driver knows no such symbol for that version.
const DRIVER_NOT_FOUND: CudaError = CudaError::SYMBOL_NOT_FOUND;

/// The CUDA version the runtime presents (see `cudaRuntimeGetVersion`).
fn runtime_version() -> c_int {
    if crate::abi::loaded_as_cuda12() {
        12090
    } else {
        13000
    }
}

/// Resolves `symbol` for `version`. The default flag is the legacy stream, or the
/// per-thread stream in the `_ptsz` forms (what compiling with per-thread default streams
/// selects). A symbol the driver does not have for that version is not an error: the
/// function pointer is NULL and `status` says why (`cudaDriverEntryPointQueryResult` has
/// `CUdriverProcAddressQueryResult`'s values).
fn entry_point(symbol: *const c_char, func: *mut *mut c_void, version: c_int, flags: u64, status: *mut c_int, per_thread: bool) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(func) }?;
    if symbol.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    let flags = match flags {
        ENABLE_DEFAULT if per_thread => ENABLE_PER_THREAD,
        ENABLE_DEFAULT => ENABLE_LEGACY_STREAM,
        ENABLE_LEGACY_STREAM | ENABLE_PER_THREAD => flags,
        _ => return Err(CudaError::INVALID_VALUE),
    };
    let rt = runtime()?;
    let (mut pfn, mut st) = (std::ptr::null_mut(), 0);
    // SAFETY: a NUL-terminated name (caller) and valid out-pointers.
    match unsafe { rt.api().cuGetProcAddress(symbol, &mut pfn, version, flags, &mut st) } {
        Ok(()) => {}
        Err(DRIVER_NOT_FOUND) => pfn = std::ptr::null_mut(),
        Err(e) => return Err(e),
    }
    out.write(pfn);
    if !status.is_null() {
        // SAFETY: non-NULL caller pointer.
        unsafe { status.write_unaligned(st) };
    }
    Ok(())
}

export! {
    fn cudaGetDriverEntryPoint(symbol: *const c_char, func: *mut *mut c_void, flags: u64, status: *mut c_int) {
        entry_point(symbol, func, runtime_version(), flags, status, false)
    }

    fn cudaGetDriverEntryPoint_ptsz(symbol: *const c_char, func: *mut *mut c_void, flags: u64, status: *mut c_int) {
        entry_point(symbol, func, runtime_version(), flags, status, true)
    }

    /// A version above the driver's is the driver's `cudaErrorInvalidValue`.
    fn cudaGetDriverEntryPointByVersion(symbol: *const c_char, func: *mut *mut c_void, version: c_uint, flags: u64, status: *mut c_int) {
        let version = c_int::try_from(version).map_err(|_| CudaError::INVALID_VALUE)?;
        entry_point(symbol, func, version, flags, status, false)
    }

    fn cudaGetDriverEntryPointByVersion_ptsz(symbol: *const c_char, func: *mut *mut c_void, version: c_uint, flags: u64, status: *mut c_int) {
        let version = c_int::try_from(version).map_err(|_| CudaError::INVALID_VALUE)?;
        entry_point(symbol, func, version, flags, status, true)
    }
}
