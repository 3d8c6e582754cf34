//! libcuda's entry points, resolved once from the process's `libcuda.so.1`.

use std::ffi::{c_int, c_uint, c_void};
use std::sync::OnceLock;

/// `CUresult`.
pub type CUresult = c_int;
/// `CUstream` (NULL is the legacy default stream).
pub type CUstream = *mut c_void;
/// `CUdeviceptr`.
pub type CUdeviceptr = u64;
/// `CUhostFn`.
pub type CUhostFn = unsafe extern "C" fn(user_data: *mut c_void);
/// `CUmodule`.
pub type CUmodule = *mut c_void;
/// `CUfunction`.
pub type CUfunction = *mut c_void;

/// `CUDA_ERROR_NOT_INITIALIZED`.
pub const CUDA_ERROR_NOT_INITIALIZED: CUresult = 3;

/// The driver functions the libraries call.
pub struct Libcuda {
    _lib: libloading::Library,
    pub pointer_get_attribute: unsafe extern "C" fn(data: *mut c_void, attribute: c_uint, ptr: CUdeviceptr) -> CUresult,
    pub mem_get_address_range: unsafe extern "C" fn(base: *mut CUdeviceptr, size: *mut usize, ptr: CUdeviceptr) -> CUresult,
    pub launch_host_func: unsafe extern "C" fn(stream: CUstream, f: CUhostFn, user_data: *mut c_void) -> CUresult,
    pub stream_synchronize: unsafe extern "C" fn(stream: CUstream) -> CUresult,
    pub ctx_get_current: unsafe extern "C" fn(ctx: *mut *mut c_void) -> CUresult,
    pub ctx_push_current: unsafe extern "C" fn(ctx: *mut c_void) -> CUresult,
    pub ctx_pop_current: unsafe extern "C" fn(ctx: *mut *mut c_void) -> CUresult,
    pub module_load_data: unsafe extern "C" fn(module: *mut CUmodule, image: *const c_void) -> CUresult,
    pub module_unload: unsafe extern "C" fn(module: CUmodule) -> CUresult,
    pub module_get_function: unsafe extern "C" fn(function: *mut CUfunction, module: CUmodule, name: *const std::ffi::c_char) -> CUresult,
    #[allow(clippy::type_complexity)]
    pub launch_kernel: unsafe extern "C" fn(
        f: CUfunction,
        grid_x: c_uint,
        grid_y: c_uint,
        grid_z: c_uint,
        block_x: c_uint,
        block_y: c_uint,
        block_z: c_uint,
        shared_bytes: c_uint,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    ) -> CUresult,
    pub mem_alloc: unsafe extern "C" fn(ptr: *mut CUdeviceptr, bytes: usize) -> CUresult,
    pub mem_free: unsafe extern "C" fn(ptr: CUdeviceptr) -> CUresult,
}

// SAFETY: the fields are function addresses of a library that stays loaded.
unsafe impl Sync for Libcuda {}
unsafe impl Send for Libcuda {}

impl Libcuda {
    fn open() -> Result<Libcuda, String> {
        let lib = open_library()?;
        /// Resolves one symbol as the field's function type.
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol is the driver API function of that name, whose C
                // signature the field's type spells.
                unsafe { symbol(&lib, $name) }?
            };
        }
        Ok(Libcuda {
            pointer_get_attribute: sym!("cuPointerGetAttribute"),
            mem_get_address_range: sym!("cuMemGetAddressRange_v2"),
            launch_host_func: sym!("cuLaunchHostFunc"),
            stream_synchronize: sym!("cuStreamSynchronize"),
            ctx_get_current: sym!("cuCtxGetCurrent"),
            ctx_push_current: sym!("cuCtxPushCurrent_v2"),
            ctx_pop_current: sym!("cuCtxPopCurrent_v2"),
            module_load_data: sym!("cuModuleLoadData"),
            module_unload: sym!("cuModuleUnload"),
            module_get_function: sym!("cuModuleGetFunction"),
            launch_kernel: sym!("cuLaunchKernel"),
            mem_alloc: sym!("cuMemAlloc_v2"),
            mem_free: sym!("cuMemFree_v2"),
            _lib: lib,
        })
    }
}

/// The process's driver, opened at the first call; `Err` says why it cannot be.
pub fn driver() -> Result<&'static Libcuda, &'static str> {
    static DRIVER: OnceLock<Result<Libcuda, String>> = OnceLock::new();
    DRIVER.get_or_init(Libcuda::open).as_ref().map_err(String::as_str)
}

/// Opens `libcuda.so.1` for a library that reaches the driver through its C API alone.
pub fn open_library() -> Result<libloading::Library, String> {
    // SAFETY: opening libcuda runs its initializers, which are safe to run (the process has
    // usually loaded it already; this takes one more reference).
    unsafe { libloading::Library::new("libcuda.so.1") }.map_err(|e| format!("cannot open libcuda.so.1: {e}"))
}

/// The driver function `name` of `lib`, as `T`.
///
/// # Safety
/// `T` must be the function pointer type of the C signature of `name`.
pub unsafe fn symbol<T: Copy>(lib: &libloading::Library, name: &str) -> Result<T, String> {
    let cname = format!("{name}\0");
    // SAFETY: forwarded contract.
    unsafe { lib.get::<T>(cname.as_bytes()) }.map(|s| *s).map_err(|e| format!("libcuda.so.1 lacks {name}: {e}"))
}
