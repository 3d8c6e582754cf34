//! The runtime's library management (`cudaLibrary*`, CUDA 12.0+): thin wrappers over the
//! driver's `cuLibrary*`. `cudaLibrary_t` and `cudaKernel_t` are the driver's handles, and
//! `cudaJitOption`/`cudaLibraryOption` have the driver's values (CUDA Runtime API,
//! "Library Management"), so options pass through unchanged.

use std::ffi::{c_char, c_int, c_uint, c_void};

use super::api;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUdeviceptr, CUkernel, CUlibrary};

/// A device address out of the driver, as the runtime's `void *`.
fn write_address(out: *mut *mut c_void, bytes_out: *mut usize, dptr: CUdeviceptr, bytes: usize) -> RtResult {
    // SAFETY: the caller's out-pointers (each may be NULL, as the driver allows).
    if let Ok(out) = unsafe { Out::new(out) } {
        out.write(dptr as *mut c_void);
    }
    // SAFETY: as above.
    if let Ok(b) = unsafe { Out::new(bytes_out) } {
        b.write(bytes);
    }
    Ok(())
}

export! {
    fn cudaLibraryLoadData(
        library: *mut CUlibrary,
        code: *const c_void,
        jit_options: *mut c_int,
        jit_values: *mut *mut c_void,
        num_jit: c_uint,
        library_options: *mut c_int,
        library_values: *mut *mut c_void,
        num_library: c_uint,
    ) {
        // SAFETY: the caller's image, options and out-pointer, passed as the driver takes them.
        unsafe { api()?.cuLibraryLoadData(library, code, jit_options, jit_values, num_jit, library_options, library_values, num_library) }
    }

    fn cudaLibraryLoadFromFile(
        library: *mut CUlibrary,
        path: *const c_char,
        jit_options: *mut c_int,
        jit_values: *mut *mut c_void,
        num_jit: c_uint,
        library_options: *mut c_int,
        library_values: *mut *mut c_void,
        num_library: c_uint,
    ) {
        // SAFETY: as cudaLibraryLoadData; `path` NUL-terminated.
        unsafe { api()?.cuLibraryLoadFromFile(library, path, jit_options, jit_values, num_jit, library_options, library_values, num_library) }
    }

    fn cudaLibraryUnload(library: CUlibrary) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuLibraryUnload(library) }
    }

    fn cudaLibraryGetKernel(kernel: *mut CUkernel, library: CUlibrary, name: *const c_char) {
        // SAFETY: the caller's out-pointer and NUL-terminated name.
        unsafe { api()?.cuLibraryGetKernel(kernel, library, name) }
    }

    fn cudaLibraryGetKernelCount(count: *mut c_uint, library: CUlibrary) {
        // SAFETY: the caller's out-pointer.
        unsafe { api()?.cuLibraryGetKernelCount(count, library) }
    }

    fn cudaLibraryEnumerateKernels(kernels: *mut CUkernel, n: c_uint, library: CUlibrary) {
        // SAFETY: the caller's array of `n` handles.
        unsafe { api()?.cuLibraryEnumerateKernels(kernels, n, library) }
    }

    fn cudaLibraryGetGlobal(dptr: *mut *mut c_void, bytes: *mut usize, library: CUlibrary, name: *const c_char) {
        let (mut d, mut b): (CUdeviceptr, usize) = (0, 0);
        // SAFETY: our out-pointers; the caller's NUL-terminated name.
        unsafe { api()?.cuLibraryGetGlobal(&mut d, &mut b, library, name) }?;
        write_address(dptr, bytes, d, b)
    }

    fn cudaLibraryGetManaged(dptr: *mut *mut c_void, bytes: *mut usize, library: CUlibrary, name: *const c_char) {
        let (mut d, mut b): (CUdeviceptr, usize) = (0, 0);
        // SAFETY: our out-pointers; the caller's NUL-terminated name.
        unsafe { api()?.cuLibraryGetManaged(&mut d, &mut b, library, name) }?;
        write_address(dptr, bytes, d, b)
    }

    fn cudaLibraryGetUnifiedFunction(fptr: *mut *mut c_void, library: CUlibrary, symbol: *const c_char) {
        // SAFETY: the caller's out-pointer and NUL-terminated name.
        unsafe { api()?.cuLibraryGetUnifiedFunction(fptr, library, symbol) }
    }
}
