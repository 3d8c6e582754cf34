//! `cuLibrary*` and `cuKernel*`: context-independent kernel libraries (CUDA 12), the
//! path cudart 12/13 loads every fatbin through.
//!
//! cudart passes its fatbin wrapper with `CU_LIBRARY_BINARY_IS_PRESERVED`; library
//! options need no action here because the driver copies what it needs at load. A
//! `CUkernel` can be passed to `cuLaunchKernel` directly (cudart 13 does).

use std::ffi::{c_char, c_int, c_uint, c_void, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use cuda_driver::CuError;

use super::jit::JitOptions;
use super::{drv, kernel_handle, library_handle};
use crate::boundary::{c_str, export, slice, utf8, AbiResult, Out};
use crate::types::{CUdevice, CUdeviceptr, CUfunction, CUkernel, CUlibrary, CUmodule};

/// Checks the library option arrays: NULL with a non-zero count is `INVALID_VALUE`;
/// every option is then accepted.
///
/// # Safety
/// Non-NULL arrays hold `num` entries.
unsafe fn check_library_options(options: *const c_uint, values: *const *mut c_void, num: c_uint) -> AbiResult {
    // SAFETY: forwarded contract.
    unsafe {
        slice(options, num as usize)?;
        slice(values, num as usize)?;
    }
    Ok(())
}

/// A kernel or global name: NULL -> `INVALID_VALUE`; not UTF-8 cannot match.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
unsafe fn symbol_name<'a>(name: *const c_char) -> AbiResult<&'a str> {
    // SAFETY: forwarded contract.
    unsafe { utf8(name, CuError::NOT_FOUND) }
}

export! {
    /// `cuLibraryLoadData(CUlibrary* library, const void* code, CUjit_option* jitOptions, void** jitOptionsValues, unsigned numJitOptions, CUlibraryOption* libraryOptions, void** libraryOptionValues, unsigned numLibraryOptions)`.
    fn cuLibraryLoadData(
        library: *mut CUlibrary,
        code: *const c_void,
        jit_options: *mut c_uint,
        jit_options_values: *mut *mut c_void,
        num_jit_options: c_uint,
        library_options: *mut c_uint,
        library_option_values: *mut *mut c_void,
        num_library_options: c_uint,
    ) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(library) }?;
        if code.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: the option arrays hold their counts, per the API.
        let jit = unsafe {
            check_library_options(library_options, library_option_values, num_library_options)?;
            JitOptions::parse(num_jit_options, jit_options, jit_options_values)?
        };
        // SAFETY: `code` is one complete image, per the API.
        let (result, logs) = unsafe { drv()?.library_load_data(code, &jit.load) };
        // SAFETY: log buffers as promised to `parse`.
        unsafe { jit.write_logs(&logs) };
        out.write(result?.as_raw().cast());
        Ok(())
    }

    /// `cuLibraryLoadFromFile(CUlibrary* library, const char* fileName, ...same options...)`.
    fn cuLibraryLoadFromFile(
        library: *mut CUlibrary,
        file_name: *const c_char,
        jit_options: *mut c_uint,
        jit_options_values: *mut *mut c_void,
        num_jit_options: c_uint,
        library_options: *mut c_uint,
        library_option_values: *mut *mut c_void,
        num_library_options: c_uint,
    ) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (out, file_name) = unsafe { (Out::new(library)?, c_str(file_name)?) };
        // SAFETY: the option arrays hold their counts, per the API.
        let jit = unsafe {
            check_library_options(library_options, library_option_values, num_library_options)?;
            JitOptions::parse(num_jit_options, jit_options, jit_options_values)?
        };
        let path = Path::new(OsStr::from_bytes(file_name.to_bytes()));
        let (result, logs) = drv()?.library_load_from_file(path, &jit.load);
        // SAFETY: log buffers as promised to `parse`.
        unsafe { jit.write_logs(&logs) };
        out.write(result?.as_raw().cast());
        Ok(())
    }

    /// `cuLibraryUnload(CUlibrary library)`.
    fn cuLibraryUnload(library: CUlibrary) {
        drv()?.library_unload(library_handle(library))
    }

    /// `cuLibraryGetKernel(CUkernel* pKernel, CUlibrary library, const char* name)`.
    fn cuLibraryGetKernel(p_kernel: *mut CUkernel, library: CUlibrary, name: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (out, name) = unsafe { (Out::new(p_kernel)?, symbol_name(name)?) };
        out.write(drv()?.library_get_kernel(library_handle(library), name)?.as_raw().cast());
        Ok(())
    }

    /// `cuLibraryGetKernelCount(unsigned* count, CUlibrary lib)`.
    fn cuLibraryGetKernelCount(count: *mut c_uint, lib: CUlibrary) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(count) }?;
        out.write(drv()?.library_get_kernel_count(library_handle(lib))?);
        Ok(())
    }

    /// `cuLibraryEnumerateKernels(CUkernel* kernels, unsigned numKernels, CUlibrary lib)`.
    fn cuLibraryEnumerateKernels(kernels: *mut CUkernel, num_kernels: c_uint, lib: CUlibrary) {
        if kernels.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        let handles = drv()?.library_enumerate_kernels(library_handle(lib), num_kernels as usize)?;
        for (i, h) in handles.into_iter().enumerate() {
            // SAFETY: the API promises room for `num_kernels` handles; the driver returns
            // at most that many.
            unsafe { kernels.add(i).write_unaligned(h.as_raw().cast()) };
        }
        Ok(())
    }

    /// `cuLibraryGetModule(CUmodule* pMod, CUlibrary library)`.
    fn cuLibraryGetModule(p_mod: *mut CUmodule, library: CUlibrary) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_mod) }?;
        out.write(drv()?.library_get_module(library_handle(library))?.as_raw().cast());
        Ok(())
    }

    /// `cuLibraryGetGlobal(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name)`:
    /// both outputs are optional.
    fn cuLibraryGetGlobal(dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (dptr, bytes, name) = unsafe { (Out::optional(dptr), Out::optional(bytes), symbol_name(name)?) };
        let (address, size) = drv()?.library_get_global(library_handle(library), name)?;
        if let Some(out) = dptr {
            out.write(address);
        }
        if let Some(out) = bytes {
            out.write(size);
        }
        Ok(())
    }

    /// `cuKernelGetFunction(CUfunction* pFunc, CUkernel kernel)`.
    fn cuKernelGetFunction(p_func: *mut CUfunction, kernel: CUkernel) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_func) }?;
        out.write(drv()?.kernel_get_function(kernel_handle(kernel))?.as_raw().cast());
        Ok(())
    }

    /// `cuKernelGetAttribute(int* pi, CUfunction_attribute attrib, CUkernel kernel, CUdevice dev)`.
    fn cuKernelGetAttribute(pi: *mut c_int, attrib: c_int, kernel: CUkernel, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pi) }?;
        out.write(drv()?.kernel_get_attribute(attrib, kernel_handle(kernel), dev)?);
        Ok(())
    }

    /// `cuKernelSetAttribute(CUfunction_attribute attrib, int val, CUkernel kernel, CUdevice dev)`.
    fn cuKernelSetAttribute(attrib: c_int, val: c_int, kernel: CUkernel, dev: CUdevice) {
        drv()?.kernel_set_attribute(attrib, val, kernel_handle(kernel), dev)
    }

    /// `cuKernelSetCacheConfig(CUkernel kernel, CUfunc_cache config, CUdevice dev)`.
    fn cuKernelSetCacheConfig(kernel: CUkernel, config: c_uint, dev: CUdevice) {
        drv()?.kernel_set_cache_config(kernel_handle(kernel), config, dev)
    }

    /// `cuKernelGetName(const char** name, CUkernel hfunc)`.
    fn cuKernelGetName(name: *mut *const c_char, hfunc: CUkernel) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(name) }?;
        out.write(drv()?.kernel_get_name(kernel_handle(hfunc))?);
        Ok(())
    }

    /// `cuKernelGetLibrary(CUlibrary* pLib, CUkernel kernel)`.
    fn cuKernelGetLibrary(p_lib: *mut CUlibrary, kernel: CUkernel) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_lib) }?;
        out.write(drv()?.kernel_get_library(kernel_handle(kernel))?.as_raw().cast());
        Ok(())
    }

    /// `cuKernelGetParamInfo(CUkernel kernel, size_t paramIndex, size_t* paramOffset, size_t* paramSize)`:
    /// both outputs are optional.
    fn cuKernelGetParamInfo(kernel: CUkernel, param_index: usize, param_offset: *mut usize, param_size: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        let (offset, size) = unsafe { (Out::optional(param_offset), Out::optional(param_size)) };
        let (o, s) = drv()?.kernel_get_param_info(kernel_handle(kernel), param_index)?;
        if let Some(out) = offset {
            out.write(o);
        }
        if let Some(out) = size {
            out.write(s);
        }
        Ok(())
    }

    /// `cuLibraryGetManaged(CUdeviceptr* dptr, size_t* bytes, CUlibrary library, const char* name)`:
    /// both outputs are optional.
    fn cuLibraryGetManaged(dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (dptr, bytes, name) = unsafe { (Out::optional(dptr), Out::optional(bytes), symbol_name(name)?) };
        let (address, size) = drv()?.library_get_managed(library_handle(library), name)?;
        if let Some(out) = dptr {
            out.write(address);
        }
        if let Some(out) = bytes {
            out.write(size);
        }
        Ok(())
    }

    /// `cuLibraryGetUnifiedFunction(void** fptr, CUlibrary library, const char* symbol)`.
    fn cuLibraryGetUnifiedFunction(fptr: *mut *mut c_void, library: CUlibrary, symbol: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (out, name) = unsafe { (Out::new(fptr)?, symbol_name(symbol)?) };
        let address = drv()?.library_get_unified_function(library_handle(library), name)?;
        out.write(address as *mut c_void);
        Ok(())
    }

    /// `cuKernelGetParamCount(CUkernel kernel, size_t* paramCount)` (CUDA 13.2).
    fn cuKernelGetParamCount(kernel: CUkernel, param_count: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(param_count) }?;
        out.write(drv()?.kernel_get_param_count(kernel_handle(kernel))?);
        Ok(())
    }
}
