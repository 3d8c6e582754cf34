//! What nvcc-generated host code calls: fatbin, kernel and variable registration at start-up
//! and the `<<<...>>>` call-configuration stack.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};

use crate::boundary::{export, firewall, log, Out};
use crate::error::CudaError;
use crate::launch_config::{self, CallConfig, Dim3};
use crate::registry::{self, Handle};

fn name_of(name: *const c_char) -> Option<std::ffi::CString> {
    // SAFETY: nvcc passes the device-side name as a NUL-terminated string literal.
    (!name.is_null()).then(|| unsafe { CStr::from_ptr(name) }.to_owned())
}

/// Registers a fatbin wrapper; the handle is what the other registration calls receive.
///
/// # Safety
/// `fat_cubin` must be a fatbin wrapper that stays valid until unregistered.
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinary(fat_cubin: *mut c_void) -> *mut *mut c_void {
    firewall("__cudaRegisterFatBinary", std::ptr::null_mut(), || registry::register_fatbin(fat_cubin).cast())
}

/// The end of one fatbin's registrations. Loading waits for the first use (as NVIDIA's
/// runtime does unless `CUDA_MODULE_LOADING=EAGER`), so there is nothing to do.
///
/// # Safety
/// Any handle value is accepted.
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFatBinaryEnd(_handle: *mut *mut c_void) {}

/// Forgets a fatbin (nvcc registers this with `atexit`).
///
/// # Safety
/// `handle` must be NULL or from `__cudaRegisterFatBinary`.
#[no_mangle]
pub unsafe extern "C" fn __cudaUnregisterFatBinary(handle: *mut *mut c_void) {
    firewall("__cudaUnregisterFatBinary", (), || registry::unregister_fatbin(handle.cast::<Handle>()))
}

/// Registers a kernel: its host stub's address and its name in the image.
///
/// # Safety
/// `handle` from `__cudaRegisterFatBinary`; `device_name` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterFunction(
    handle: *mut *mut c_void,
    host_fun: *const c_char,
    _device_fun: *mut c_char,
    device_name: *const c_char,
    _thread_limit: c_int,
    _tid: *mut c_void,
    _bid: *mut c_void,
    _block_dim: *mut Dim3,
    _grid_dim: *mut Dim3,
    _warp_size: *mut c_int,
) {
    firewall("__cudaRegisterFunction", (), || {
        if let Some(name) = name_of(device_name) {
            registry::register_function(handle.cast(), host_fun as usize, name);
        }
    })
}

/// Registers a `__device__` or `__constant__` variable by its host shadow's address.
///
/// # Safety
/// `handle` from `__cudaRegisterFatBinary`; `device_name` NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterVar(
    handle: *mut *mut c_void,
    host_var: *mut c_char,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    firewall("__cudaRegisterVar", (), || {
        if let Some(name) = name_of(device_name) {
            registry::register_var(handle.cast(), host_var as usize, name, size, None);
        }
    })
}

/// Registers a `__managed__` variable: `host_slot` is where host code finds its address,
/// filled in when the fatbin is loaded.
///
/// # Safety
/// `handle` from `__cudaRegisterFatBinary`; `device_name` NUL-terminated; `host_slot` a
/// writable `void*` that outlives the registration.
#[no_mangle]
pub unsafe extern "C" fn __cudaRegisterManagedVar(
    handle: *mut *mut c_void,
    host_slot: *mut *mut c_void,
    _device_address: *mut c_char,
    device_name: *const c_char,
    _ext: c_int,
    size: usize,
    _constant: c_int,
    _global: c_int,
) {
    firewall("__cudaRegisterManagedVar", (), || {
        if let Some(name) = name_of(device_name) {
            registry::register_var(handle.cast(), host_slot as usize, name, size, Some(host_slot as usize));
        }
    })
}

/// Loads a fatbin now (host code calls it before touching a `__managed__` variable).
/// Returns 1 when the module is ready, 0 on failure (logged).
///
/// # Safety
/// `handle` must be NULL or from `__cudaRegisterFatBinary`.
#[no_mangle]
pub unsafe extern "C" fn __cudaInitModule(handle: *mut *mut c_void) -> c_char {
    firewall("__cudaInitModule", 0, || match registry::load(handle.cast()) {
        Ok(()) => 1,
        Err(e) => {
            log(&format!("__cudaInitModule: loading the module failed: {}", e.name()));
            0
        }
    })
}

/// Pushes a `<<<grid, block, shared, stream>>>` configuration; returns 0.
///
/// # Safety
/// Always safe; `stream` is only stored.
#[no_mangle]
pub unsafe extern "C" fn __cudaPushCallConfiguration(grid: Dim3, block: Dim3, shared: usize, stream: *mut c_void) -> c_uint {
    firewall("__cudaPushCallConfiguration", 1, || {
        launch_config::push(CallConfig { grid, block, shared, stream });
        0
    })
}

export! {
    /// Pops the configuration the kernel's host stub launches with.
    fn __cudaPopCallConfiguration(grid: *mut Dim3, block: *mut Dim3, shared: *mut usize, stream: *mut *mut c_void) {
        let (grid, block, shared, stream) = (Out::new(grid)?, Out::new(block)?, Out::new(shared)?, Out::new(stream)?);
        let config = launch_config::pop().ok_or(CudaError(52))?; // cudaErrorMissingConfiguration
        grid.write(config.grid);
        block.write(config.block);
        shared.write(config.shared);
        stream.write(config.stream);
        Ok(())
    }
}
