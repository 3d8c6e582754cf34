//! Runtime calls over single driver calls that name a kernel, a function's parameters or
//! an array's plane: `cudaKernelSetAttributeForDevice`, `cudaFuncGetParamInfo`,
//! `cudaArrayGetPlane` (CUDA Runtime API; the attribute values are the driver's, as for
//! `cudaFuncSetAttribute`).

use std::ffi::{c_int, c_uint, c_void};

use super::launch::function;
use crate::boundary::{export, RtResult};
use crate::driver::CUkernel;
use crate::runtime::runtime;

fn checked_device(device: c_int) -> RtResult<crate::driver::CUdevice> {
    runtime()?.device(device)
}

export! {
    fn cudaKernelSetAttributeForDevice(kernel: CUkernel, attr: c_int, value: c_int, device: c_int) {
        let dev = checked_device(device)?;
        // SAFETY: the driver checks the kernel handle.
        unsafe { runtime()?.api().cuKernelSetAttribute(attr, value, kernel, dev) }
    }

    fn cudaFuncGetParamInfo(func: *const c_void, index: usize, offset: *mut usize, size: *mut usize) {
        let f = function(func)?;
        // SAFETY: the caller's out-pointers (the driver checks them); a function handle.
        unsafe { runtime()?.api().cuFuncGetParamInfo(f, index, offset, size) }
    }

    fn cudaArrayGetPlane(plane: *mut *mut c_void, array: *mut c_void, index: c_uint) {
        runtime()?.context()?;
        // SAFETY: the caller's out-pointer; the driver checks the array handle.
        unsafe { runtime()?.api().cuArrayGetPlane(plane, array, index) }
    }
}
