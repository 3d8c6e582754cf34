//! Devices and versions: count, current device, properties, attributes, synchronization,
//! reset, flags, limits.

use std::ffi::{c_int, c_uint};

use crate::boundary::{export, Out};
use crate::driver::CUdevice;
use crate::error::CudaError;
use crate::props::{DeviceInfo, DeviceProp12, DeviceProp13};
use crate::runtime::{current_device, driver, runtime, Runtime};

/// The CUDA version whose runtime API (and `cudaDeviceProp`) this library implements.
const CUDART_VERSION: c_int = 13000;

/// `CU_CTX_SCHED_MASK | CU_CTX_MAP_HOST | CU_CTX_LMEM_RESIZE_TO_MAX`: the `cudaDevice*`
/// flags, which have the driver's values.
const DEVICE_FLAGS_MASK: c_uint = 0x1f;

fn device_info(rt: &Runtime, dev: CUdevice) -> Result<DeviceInfo, CudaError> {
    let mut info = DeviceInfo { name: [0; 256], uuid: [0; 16], total_mem: 0 };
    let api = rt.api();
    // SAFETY: buffers of the sizes given.
    unsafe {
        api.cuDeviceGetName(info.name.as_mut_ptr(), 255, dev)?;
        api.cuDeviceGetUuid(info.uuid.as_mut_ptr(), dev)?;
        api.cuDeviceTotalMem(&mut info.total_mem, dev)?;
    }
    Ok(info)
}

fn attribute(rt: &Runtime, dev: CUdevice) -> impl FnMut(c_int) -> Result<c_int, CudaError> + '_ {
    move |attr| {
        let mut v = 0;
        // SAFETY: valid out-pointer.
        unsafe { rt.api().cuDeviceGetAttribute(&mut v, attr, dev) }?;
        Ok(v)
    }
}

export! {
    /// The number of devices; 0 (and the error) when the runtime cannot start.
    fn cudaGetDeviceCount(count: *mut c_int) {
        let out = Out::new(count)?;
        match runtime() {
            Ok(rt) => {
                out.write(rt.device_count);
                Ok(())
            }
            Err(e) => {
                out.write(0);
                Err(e)
            }
        }
    }

    fn cudaSetDevice(device: c_int) {
        runtime()?.set_device(device)
    }

    fn cudaGetDevice(device: *mut c_int) {
        let out = Out::new(device)?;
        runtime()?;
        out.write(current_device());
        Ok(())
    }

    /// CUDA 13's `cudaDeviceProp`.
    fn cudaGetDeviceProperties(prop: *mut DeviceProp13, device: c_int) {
        let out = Out::new(prop)?;
        let rt = runtime()?;
        let dev = rt.device(device)?;
        out.write(DeviceProp13::from_device(&device_info(rt, dev)?, &mut attribute(rt, dev))?);
        Ok(())
    }

    /// CUDA 12's `cudaDeviceProp` (CUDA 12's headers call `cudaGetDeviceProperties` this).
    fn cudaGetDeviceProperties_v2(prop: *mut DeviceProp12, device: c_int) {
        let out = Out::new(prop)?;
        let rt = runtime()?;
        let dev = rt.device(device)?;
        out.write(DeviceProp12::from_device(&device_info(rt, dev)?, &mut attribute(rt, dev))?);
        Ok(())
    }

    /// `cudaDeviceAttr` values are `CUdevice_attribute`'s.
    fn cudaDeviceGetAttribute(value: *mut c_int, attr: c_int, device: c_int) {
        let out = Out::new(value)?;
        let rt = runtime()?;
        let dev = rt.device(device)?;
        out.write(attribute(rt, dev)(attr)?);
        Ok(())
    }

    fn cudaDeviceSynchronize() {
        let rt = runtime()?;
        rt.context()?;
        // SAFETY: no arguments.
        unsafe { rt.api().cuCtxSynchronize() }
    }

    fn cudaDeviceReset() {
        runtime()?.reset_device(current_device())
    }

    fn cudaSetDeviceFlags(flags: c_uint) {
        if flags & !DEVICE_FLAGS_MASK != 0 {
            return Err(CudaError::INVALID_VALUE);
        }
        let rt = runtime()?;
        let dev = rt.device(current_device())?;
        // SAFETY: plain values.
        unsafe { rt.api().cuDevicePrimaryCtxSetFlags(dev, flags) }
    }

    fn cudaGetDeviceFlags(flags: *mut c_uint) {
        let out = Out::new(flags)?;
        let rt = runtime()?;
        let dev = rt.device(current_device())?;
        let (mut f, mut active) = (0, 0);
        // SAFETY: valid out-pointers.
        unsafe { rt.api().cuDevicePrimaryCtxGetState(dev, &mut f, &mut active) }?;
        out.write(f);
        Ok(())
    }

    /// The driver's CUDA version; 0 when there is no usable driver.
    fn cudaDriverGetVersion(version: *mut c_int) {
        let out = Out::new(version)?;
        out.write(driver().map_or(0, |d| d.version));
        Ok(())
    }

    /// Loaded as `libcudart.so.12`, we are CUDA 12's runtime to the program (its parameter
    /// lists, see `abi`), and say so: 12.9.
    fn cudaRuntimeGetVersion(version: *mut c_int) {
        Out::new(version)?.write(if crate::abi::loaded_as_cuda12() { 12090 } else { CUDART_VERSION });
        Ok(())
    }

    /// `cudaLimit` values are `CUlimit`'s.
    fn cudaDeviceGetLimit(value: *mut usize, limit: c_int) {
        let out = Out::new(value)?;
        let rt = runtime()?;
        rt.context()?;
        let mut v = 0;
        // SAFETY: valid out-pointer.
        unsafe { rt.api().cuCtxGetLimit(&mut v, limit) }?;
        out.write(v);
        Ok(())
    }

    fn cudaDeviceSetLimit(limit: c_int, value: usize) {
        let rt = runtime()?;
        rt.context()?;
        // SAFETY: plain values.
        unsafe { rt.api().cuCtxSetLimit(limit, value) }
    }

    fn cudaDeviceGetStreamPriorityRange(least: *mut c_int, greatest: *mut c_int) {
        let rt = runtime()?;
        rt.context()?;
        let (mut l, mut g) = (0, 0);
        // SAFETY: valid out-pointers.
        unsafe { rt.api().cuCtxGetStreamPriorityRange(&mut l, &mut g) }?;
        if !least.is_null() {
            // SAFETY: non-NULL caller pointer.
            unsafe { least.write_unaligned(l) };
        }
        if !greatest.is_null() {
            // SAFETY: non-NULL caller pointer.
            unsafe { greatest.write_unaligned(g) };
        }
        Ok(())
    }
}
