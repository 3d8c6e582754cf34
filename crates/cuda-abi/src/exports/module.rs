//! `cuModule*` and `cuFunc*`: loading kernel images into the current context, looking
//! up kernels and globals, and function attributes.
//!
//! Images are passed through unchanged: the driver recognises cudart's fatbin wrapper,
//! fatbin containers and PTX text. Loads that take JIT options report the compile log
//! through them (see `jit.rs`), whether the load succeeded or not.

use std::ffi::{c_char, c_int, c_uint, c_void, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;

use cuda_driver::CuError;

use super::jit::JitOptions;
use super::{drv, function_handle, module_handle};
use crate::boundary::{c_str, export, utf8, AbiResult, Out};
use crate::types::{CUdeviceptr, CUfunction, CUmodule};

/// Loads an image from memory with the given options and writes the handle.
///
/// # Safety
/// `image` is NULL or one complete kernel image; `jit` as for [`JitOptions::parse`].
unsafe fn load_data(out: Out<CUmodule>, image: *const c_void, jit: &JitOptions) -> AbiResult {
    if image.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: forwarded contract.
    let (result, logs) = unsafe { drv()?.module_load_data(image, &jit.load) };
    // SAFETY: forwarded contract.
    unsafe { jit.write_logs(&logs) };
    out.write(result?.as_raw().cast());
    Ok(())
}

/// A name to look up in a module: NULL -> `INVALID_VALUE`; not UTF-8 cannot match.
///
/// # Safety
/// `name` is NULL or NUL-terminated.
unsafe fn symbol_name<'a>(name: *const c_char) -> AbiResult<&'a str> {
    // SAFETY: forwarded contract.
    unsafe { utf8(name, CuError::NOT_FOUND) }
}

export! {
    /// `cuModuleLoad(CUmodule* module, const char* fname)`.
    fn cuModuleLoad(module: *mut CUmodule, fname: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (out, fname) = unsafe { (Out::new(module)?, c_str(fname)?) };
        let path = Path::new(OsStr::from_bytes(fname.to_bytes()));
        let (result, _logs) = drv()?.module_load(path);
        out.write(result?.as_raw().cast());
        Ok(())
    }

    /// `cuModuleLoadData(CUmodule* module, const void* image)`.
    fn cuModuleLoadData(module: *mut CUmodule, image: *const c_void) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(module) }?;
        // SAFETY: no options; `image` is an image, per the API.
        unsafe { load_data(out, image, &JitOptions::parse(0, std::ptr::null(), std::ptr::null_mut())?) }
    }

    /// `cuModuleLoadDataEx(CUmodule* module, const void* image, unsigned numOptions, CUjit_option* options, void** optionValues)`.
    fn cuModuleLoadDataEx(module: *mut CUmodule, image: *const c_void, num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(module) }?;
        // SAFETY: the arrays hold `num_options` entries, per the API.
        let jit = unsafe { JitOptions::parse(num_options, options, option_values) }?;
        // SAFETY: `image` is an image, per the API.
        unsafe { load_data(out, image, &jit) }
    }

    /// `cuModuleLoadFatBinary(CUmodule* module, const void* fatCubin)`.
    fn cuModuleLoadFatBinary(module: *mut CUmodule, fat_cubin: *const c_void) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(module) }?;
        // SAFETY: no options; `fat_cubin` is an image, per the API.
        unsafe { load_data(out, fat_cubin, &JitOptions::parse(0, std::ptr::null(), std::ptr::null_mut())?) }
    }

    /// `cuModuleUnload(CUmodule hmod)`.
    fn cuModuleUnload(hmod: CUmodule) {
        drv()?.module_unload(module_handle(hmod))
    }

    /// `cuModuleGetFunction(CUfunction* hfunc, CUmodule hmod, const char* name)`.
    fn cuModuleGetFunction(hfunc: *mut CUfunction, hmod: CUmodule, name: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (out, name) = unsafe { (Out::new(hfunc)?, symbol_name(name)?) };
        out.write(drv()?.module_get_function(module_handle(hmod), name)?.as_raw().cast());
        Ok(())
    }

    /// `cuModuleGetGlobal_v2(CUdeviceptr* dptr, size_t* bytes, CUmodule hmod, const char* name)`:
    /// either output is optional, not both (NVIDIA's driver answers INVALID_VALUE).
    fn cuModuleGetGlobal_v2(dptr: *mut CUdeviceptr, bytes: *mut usize, hmod: CUmodule, name: *const c_char) {
        if dptr.is_null() && bytes.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (dptr, bytes, name) = unsafe { (Out::optional(dptr), Out::optional(bytes), symbol_name(name)?) };
        let (address, size) = drv()?.module_get_global(module_handle(hmod), name)?;
        if let Some(out) = dptr {
            out.write(address);
        }
        if let Some(out) = bytes {
            out.write(size);
        }
        Ok(())
    }

    /// `cuModuleGetLoadingMode(CUmoduleLoadingMode* mode)`.
    fn cuModuleGetLoadingMode(mode: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(mode) }?;
        out.write(drv()?.module_get_loading_mode());
        Ok(())
    }

    /// `cuModuleGetFunctionCount(unsigned* count, CUmodule mod)`.
    fn cuModuleGetFunctionCount(count: *mut c_uint, hmod: CUmodule) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(count) }?;
        out.write(drv()?.module_get_function_count(module_handle(hmod))?);
        Ok(())
    }

    /// `cuModuleEnumerateFunctions(CUfunction* functions, unsigned numFunctions, CUmodule mod)`.
    fn cuModuleEnumerateFunctions(functions: *mut CUfunction, num_functions: c_uint, hmod: CUmodule) {
        if functions.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        let handles = drv()?.module_enumerate_functions(module_handle(hmod), num_functions as usize)?;
        for (i, h) in handles.into_iter().enumerate() {
            // SAFETY: the API promises room for `num_functions` handles; the driver
            // returns at most that many.
            unsafe { functions.add(i).write_unaligned(h.as_raw().cast()) };
        }
        Ok(())
    }

    /// `cuFuncGetAttribute(int* pi, CUfunction_attribute attrib, CUfunction hfunc)`.
    fn cuFuncGetAttribute(pi: *mut c_int, attrib: c_int, hfunc: CUfunction) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pi) }?;
        out.write(drv()?.function_attribute(function_handle(hfunc), attrib)?);
        Ok(())
    }

    /// `cuFuncSetAttribute(CUfunction hfunc, CUfunction_attribute attrib, int value)`.
    fn cuFuncSetAttribute(hfunc: CUfunction, attrib: c_int, value: c_int) {
        drv()?.function_set_attribute(function_handle(hfunc), attrib, value)
    }

    /// `cuFuncSetCacheConfig(CUfunction hfunc, CUfunc_cache config)`.
    fn cuFuncSetCacheConfig(hfunc: CUfunction, config: c_uint) {
        drv()?.function_set_cache_config(function_handle(hfunc), config)
    }

    /// `cuFuncSetSharedMemConfig(CUfunction hfunc, CUsharedconfig config)` (deprecated).
    fn cuFuncSetSharedMemConfig(hfunc: CUfunction, config: c_uint) {
        drv()?.function_set_shared_mem_config(function_handle(hfunc), config)
    }

    /// `cuFuncGetName(const char** name, CUfunction hfunc)`.
    fn cuFuncGetName(name: *mut *const c_char, hfunc: CUfunction) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(name) }?;
        out.write(drv()?.function_name(function_handle(hfunc))?);
        Ok(())
    }

    /// `cuFuncGetModule(CUmodule* hmod, CUfunction hfunc)`.
    fn cuFuncGetModule(hmod: *mut CUmodule, hfunc: CUfunction) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(hmod) }?;
        out.write(drv()?.function_module(function_handle(hfunc))?.as_raw().cast());
        Ok(())
    }

    /// `cuFuncGetParamInfo(CUfunction func, size_t paramIndex, size_t* paramOffset, size_t* paramSize)`:
    /// both outputs are optional.
    fn cuFuncGetParamInfo(func: CUfunction, param_index: usize, param_offset: *mut usize, param_size: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        let (offset, size) = unsafe { (Out::optional(param_offset), Out::optional(param_size)) };
        let (o, s) = drv()?.function_param_info(function_handle(func), param_index)?;
        if let Some(out) = offset {
            out.write(o);
        }
        if let Some(out) = size {
            out.write(s);
        }
        Ok(())
    }

    /// `cuFuncIsLoaded(CUfunctionLoadingState* state, CUfunction function)`: 1 = loaded.
    fn cuFuncIsLoaded(state: *mut c_uint, function: CUfunction) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(state) }?;
        let loaded = drv()?.function_is_loaded(function_handle(function))?;
        out.write(if loaded { 1 } else { 0 });
        Ok(())
    }

    /// `cuFuncLoad(CUfunction function)`.
    fn cuFuncLoad(function: CUfunction) {
        drv()?.function_load(function_handle(function))
    }

    /// `cuFuncGetParamCount(CUfunction func, size_t* paramCount)` (CUDA 13.2).
    fn cuFuncGetParamCount(func: CUfunction, param_count: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(param_count) }?;
        out.write(drv()?.function_param_count(function_handle(func))?);
        Ok(())
    }
}
