//! The driver, reached as NVIDIA's runtime reaches it: `dlopen("libcuda.so.1")` at first
//! use, `cuDriverGetVersion` and `cuGetProcAddress_v2` by `dlsym`, and every other entry
//! point through `cuGetProcAddress_v2` with the CUDA version whose ABI we call (the table
//! in `api.rs`). Nothing here links against a driver library, so the same `libcudart`
//! runs over our `libcuda.so.1` and over NVIDIA's.

mod api;
mod types;

pub use api::Api;
pub use types::*;

use std::ffi::{c_int, c_void, CStr};

use crate::error::CudaError;

/// The oldest driver we accept: CUDA 12.0 brought `cuLibrary*`, which launches rely on.
const MIN_DRIVER_VERSION: c_int = 12000;

/// The opened driver library and its resolved entry points.
pub struct Driver {
    pub api: Api,
    pub version: c_int,
    // Kept open for the life of the process (the entry points point into it).
    _lib: libloading::os::unix::Library,
}

type GetProcAddress = unsafe extern "C" fn(*const std::ffi::c_char, *mut *mut c_void, c_int, u64, *mut c_int) -> CUresult;
type DriverGetVersion = unsafe extern "C" fn(*mut c_int) -> CUresult;

impl Driver {
    /// Opens `libcuda.so.1` and resolves the table. No driver library, or one without
    /// `cuGetProcAddress_v2`, or one older than CUDA 12: `cudaErrorInsufficientDriver`, as
    /// NVIDIA's runtime answers when it finds no usable driver.
    pub fn open() -> Result<Driver, CudaError> {
        // SAFETY: loading the driver runs its initializers; that is what the runtime is for.
        let lib = unsafe { libloading::os::unix::Library::open(Some("libcuda.so.1"), libc::RTLD_NOW | libc::RTLD_LOCAL) }.map_err(|e| {
            crate::boundary::log(&format!("cannot load libcuda.so.1: {e}"));
            CudaError::INSUFFICIENT_DRIVER
        })?;
        // SAFETY: the symbols have the driver API's documented signatures.
        let (get_version, get_proc) = unsafe {
            let v = lib.get::<DriverGetVersion>(b"cuDriverGetVersion\0").map_err(|_| CudaError::INSUFFICIENT_DRIVER)?;
            let p = lib.get::<GetProcAddress>(b"cuGetProcAddress_v2\0").map_err(|_| CudaError::INSUFFICIENT_DRIVER)?;
            (*v, *p)
        };
        let mut version = 0;
        // SAFETY: valid out-pointer.
        if unsafe { get_version(&mut version) } != 0 || version < MIN_DRIVER_VERSION {
            crate::boundary::log(&format!("libcuda.so.1 reports driver version {version}; this runtime needs {MIN_DRIVER_VERSION} or newer"));
            return Err(CudaError::INSUFFICIENT_DRIVER);
        }
        let lookup = |name: &CStr, cuda_version: c_int, flags: u64| -> *mut c_void {
            let mut pfn = std::ptr::null_mut();
            let mut status = 0;
            // SAFETY: name is NUL-terminated; out-pointers are valid.
            let rc = unsafe { get_proc(name.as_ptr(), &mut pfn, cuda_version, flags, &mut status) };
            if rc == 0 && status == 0 {
                pfn
            } else {
                std::ptr::null_mut()
            }
        };
        // SAFETY: every row of the table names the signature of that ABI version.
        let api = unsafe { Api::resolve(&lookup) };
        Ok(Driver { api, version, _lib: lib })
    }
}

/// `CUresult` -> `Result`.
pub fn check(rc: CUresult) -> Result<(), CudaError> {
    if rc == 0 {
        Ok(())
    } else {
        Err(CudaError::from_driver(rc))
    }
}
