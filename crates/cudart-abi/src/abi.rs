//! Which runtime ABI the calling program was built against.
//!
//! This one library is installed as both `libcudart.so.13` and `libcudart.so.12`. A few
//! functions keep their name across the two majors with different parameters: CUDA 13 gave
//! `cudaGraphAddDependencies`, `cudaGraphRemoveDependencies`, `cudaGraphGetEdges`,
//! `cudaGraphNodeGetDependencies`, `cudaGraphNodeGetDependentNodes` and
//! `cudaStreamGetCaptureInfo` the edge-data parameter that CUDA 12 had only in their `_v2`
//! (`_v3`) forms. A program built with CUDA 12's headers links `libcudart.so.12` and calls
//! the plain names with CUDA 12's parameters, so the name we were loaded under tells which
//! parameters the registers hold.

use std::ffi::{c_void, CStr};
use std::sync::OnceLock;

/// True when this library was loaded as `libcudart.so.12`.
pub fn loaded_as_cuda12() -> bool {
    static CUDA12: OnceLock<bool> = OnceLock::new();
    *CUDA12.get_or_init(|| {
        let mut info = libc::Dl_info {
            dli_fname: std::ptr::null(),
            dli_fbase: std::ptr::null_mut(),
            dli_sname: std::ptr::null(),
            dli_saddr: std::ptr::null_mut(),
        };
        // SAFETY: dladdr only reads the loader's tables; the address is a function of ours.
        let found = unsafe { libc::dladdr(loaded_as_cuda12 as *const c_void, &mut info) } != 0;
        if !found || info.dli_fname.is_null() {
            return false;
        }
        // SAFETY: dladdr's file name is a NUL-terminated string owned by the loader.
        let name = unsafe { CStr::from_ptr(info.dli_fname) }.to_string_lossy();
        name.ends_with(".so.12")
    })
}
