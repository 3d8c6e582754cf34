//! The default target when a compile names no architecture: the current device of the
//! CUDA driver library already loaded in this process (our libcuda.so.1, whose CPU device
//! reports compute capability 8.6 by default and whose AMD devices report a warp size of
//! 64 or 32), else NVRTC's default (compute_75, warp 32).
//!
//! Nothing is loaded or initialized here: the driver is only asked when it is already
//! resident (`RTLD_NOLOAD`) and a context is current on the calling thread.

use cuda_frontend::target::Arch;
use std::ffi::{c_int, c_void};

type CuCtxGetCurrent = unsafe extern "C" fn(*mut *mut c_void) -> c_int;
type CuCtxGetDevice = unsafe extern "C" fn(*mut c_int) -> c_int;
type CuDeviceGetAttribute = unsafe extern "C" fn(*mut c_int, c_int, c_int) -> c_int;

const CU_DEVICE_ATTRIBUTE_WARP_SIZE: c_int = 10;
const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR: c_int = 75;
const CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR: c_int = 76;

pub fn current_device_target() -> Option<(Arch, u32)> {
    // SAFETY: dlopen/dlsym with NUL-terminated names; the symbols have the driver API's
    // documented signatures.
    unsafe {
        let lib = libc::dlopen(c"libcuda.so.1".as_ptr(), libc::RTLD_LAZY | libc::RTLD_NOLOAD);
        if lib.is_null() {
            return None;
        }
        let get = |name: &std::ffi::CStr| libc::dlsym(lib, name.as_ptr());
        let (cur, dev, attr) = (get(c"cuCtxGetCurrent"), get(c"cuCtxGetDevice"), get(c"cuDeviceGetAttribute"));
        let result = (|| {
            if cur.is_null() || dev.is_null() || attr.is_null() {
                return None;
            }
            let cur: CuCtxGetCurrent = std::mem::transmute(cur);
            let dev: CuCtxGetDevice = std::mem::transmute(dev);
            let attr: CuDeviceGetAttribute = std::mem::transmute(attr);
            let mut ctx = std::ptr::null_mut();
            if cur(&mut ctx) != 0 || ctx.is_null() {
                return None;
            }
            let mut d = 0;
            if dev(&mut d) != 0 {
                return None;
            }
            let (mut major, mut minor, mut warp) = (0, 0, 0);
            if attr(&mut major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d) != 0
                || attr(&mut minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d) != 0
                || attr(&mut warp, CU_DEVICE_ATTRIBUTE_WARP_SIZE, d) != 0
            {
                return None;
            }
            let warp = if warp == 64 { 64 } else { 32 };
            Some((Arch::for_compute_capability(major.max(0) as u32, minor.max(0) as u32), warp))
        })();
        libc::dlclose(lib);
        result
    }
}
