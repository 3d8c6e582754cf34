//! `cuGetErrorName` and `cuGetErrorString`: the driver's static name and description
//! of a `CUresult`. An unknown code answers `CUDA_ERROR_INVALID_VALUE` and stores NULL,
//! as NVIDIA's driver does. Both work before `cuInit`.

use std::ffi::{c_char, CStr};

use cuda_driver::CuError;

use crate::boundary::{export, Out};
use crate::types::CUresult;

/// Writes the static string `lookup` finds for `error`, or NULL.
///
/// # Safety
/// `p_str` is NULL or writable.
unsafe fn answer(error: CUresult, p_str: *mut *const c_char, lookup: fn(u32) -> Option<&'static CStr>) -> crate::boundary::AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(p_str) }?;
    match lookup(error.0) {
        Some(text) => {
            out.write(text.as_ptr());
            Ok(())
        }
        None => {
            out.write(std::ptr::null());
            Err(CuError::INVALID_VALUE)
        }
    }
}

export! {
    /// `cuGetErrorName(CUresult error, const char** pStr)`.
    fn cuGetErrorName(error: CUresult, p_str: *mut *const c_char) {
        // SAFETY: NULL or writable, per the API.
        unsafe { answer(error, p_str, cuda_driver::error::name) }
    }

    /// `cuGetErrorString(CUresult error, const char** pStr)`.
    fn cuGetErrorString(error: CUresult, p_str: *mut *const c_char) {
        // SAFETY: NULL or writable, per the API.
        unsafe { answer(error, p_str, cuda_driver::error::description) }
    }
}
