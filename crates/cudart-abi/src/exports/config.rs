//! Device-wide configuration and identification: cache and shared-memory bank
//! preferences, PCI bus ids, `cudaChooseDevice`, the CUDA 12 `cudaThread*` aliases, the
//! profiler switches, GPUDirect RDMA flushes and the persisting-L2 reset.

use std::ffi::{c_char, c_int};

use crate::boundary::{export, Out, RtResult};
use crate::error::CudaError;
use crate::props::DeviceProp13;
use crate::runtime::{current_device, runtime, Runtime};

/// `cudaFuncCache` (`CUfunc_cache` has the same values): PreferNone..PreferEqual.
pub(crate) fn check_cache_config(config: c_int) -> RtResult {
    if (0..=3).contains(&config) {
        Ok(())
    } else {
        Err(CudaError::INVALID_VALUE)
    }
}

/// `cudaSharedMemConfig` (`CUsharedconfig` has the same values): Default..EightByte.
pub(crate) fn check_shared_config(config: c_int) -> RtResult {
    if (0..=2).contains(&config) {
        Ok(())
    } else {
        Err(CudaError::INVALID_VALUE)
    }
}

/// The runtime with the current device's context current.
fn ctx() -> RtResult<&'static Runtime> {
    let rt = runtime()?;
    rt.context()?;
    Ok(rt)
}

fn device_attribute(rt: &Runtime, attr: c_int) -> RtResult<c_int> {
    let dev = rt.device(current_device())?;
    let mut v = 0;
    // SAFETY: valid out-pointer.
    unsafe { rt.api().cuDeviceGetAttribute(&mut v, attr, dev) }?;
    Ok(v)
}

/// `CU_DEVICE_ATTRIBUTE_*` ids used here (`cudaDeviceAttr` has the same values).
const ATTR_MAX_PERSISTING_L2_CACHE_SIZE: c_int = 108;
const ATTR_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS: c_int = 117;
/// `cudaFlushGPUDirectRDMAWritesOptionHost`: the flush call itself is supported.
const FLUSH_OPTION_HOST: c_int = 1;

export! {
    /// Runtime API "Device Management", cudaDeviceGetCacheConfig: the current context's
    /// preference.
    fn cudaDeviceGetCacheConfig(config: *mut c_int) {
        let out = Out::new(config)?;
        let mut v = 0;
        // SAFETY: valid out-pointer.
        unsafe { ctx()?.api().cuCtxGetCacheConfig(&mut v) }?;
        out.write(v);
        Ok(())
    }

    fn cudaDeviceSetCacheConfig(config: c_int) {
        check_cache_config(config)?;
        // SAFETY: a checked value.
        unsafe { ctx()?.api().cuCtxSetCacheConfig(config) }
    }

    /// Removed from CUDA 13's header, still exported by NVIDIA's runtime 13 (and called by
    /// programs built with CUDA 12's).
    fn cudaDeviceGetSharedMemConfig(config: *mut c_int) {
        let out = Out::new(config)?;
        let mut v = 0;
        // SAFETY: valid out-pointer.
        unsafe { ctx()?.api().cuCtxGetSharedMemConfig(&mut v) }?;
        out.write(v);
        Ok(())
    }

    fn cudaDeviceSetSharedMemConfig(config: c_int) {
        check_shared_config(config)?;
        // SAFETY: a checked value.
        unsafe { ctx()?.api().cuCtxSetSharedMemConfig(config) }
    }

    /// The runtime ordinal of the device with this PCI bus id (`cudaErrorInvalidValue` for
    /// NULL; the driver's answer for an id it does not know).
    fn cudaDeviceGetByPCIBusId(device: *mut c_int, pci_bus_id: *const c_char) {
        let out = Out::new(device)?;
        if pci_bus_id.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        let rt = runtime()?;
        let mut dev = 0;
        // SAFETY: valid out-pointer; a NUL-terminated string per the API.
        unsafe { rt.api().cuDeviceGetByPCIBusId(&mut dev, pci_bus_id) }?;
        out.write(rt.ordinal(dev)?);
        Ok(())
    }

    fn cudaDeviceGetPCIBusId(pci_bus_id: *mut c_char, len: c_int, device: c_int) {
        if pci_bus_id.is_null() || len <= 0 {
            return Err(CudaError::INVALID_VALUE);
        }
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: the caller promises `len` writable bytes.
        unsafe { rt.api().cuDeviceGetPCIBusId(pci_bus_id, len, dev) }
    }

    /// Runtime API "Device Management", cudaChooseDevice: the device matching `prop` best.
    /// Only the compute capability is compared (the fields a request usually sets): the
    /// device of the lowest capability at least the requested one, else the highest.
    fn cudaChooseDevice(device: *mut c_int, prop: *const DeviceProp13) {
        let out = Out::new(device)?;
        if prop.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        // SAFETY: non-NULL; the caller's structure.
        let want = unsafe { ((*prop).major, (*prop).minor) };
        let rt = runtime()?;
        let mut caps = Vec::new();
        for ordinal in 0..rt.device_count {
            let dev = rt.device(ordinal)?;
            let (mut major, mut minor) = (0, 0);
            // SAFETY: valid out-pointers; 75/76 are the compute-capability attributes.
            unsafe {
                rt.api().cuDeviceGetAttribute(&mut major, 75, dev)?;
                rt.api().cuDeviceGetAttribute(&mut minor, 76, dev)?;
            }
            caps.push(((major, minor), ordinal));
        }
        let best = caps.iter().filter(|(cap, _)| *cap >= want).min().or_else(|| caps.iter().max()).ok_or(CudaError::NO_DEVICE)?;
        out.write(best.1);
        Ok(())
    }

    /// CUDA 12's name of `cudaDeviceSynchronize` (gone from CUDA 13).
    fn cudaThreadSynchronize() {
        // SAFETY: no arguments.
        unsafe { ctx()?.api().cuCtxSynchronize() }
    }

    /// CUDA 12's name of `cudaDeviceReset` (gone from CUDA 13).
    fn cudaThreadExit() {
        runtime()?.reset_device(current_device())
    }

    /// Runtime API "Profiler Control": the driver's switch for the current context.
    fn cudaProfilerStart() {
        // SAFETY: no arguments.
        unsafe { ctx()?.api().cuProfilerStart() }
    }

    fn cudaProfilerStop() {
        // SAFETY: no arguments.
        unsafe { ctx()?.api().cuProfilerStop() }
    }

    /// Runtime API "Device Management", cudaDeviceFlushGPUDirectRDMAWrites: the only target
    /// is the current device; scopes ToOwner (100) and ToAllDevices (200). A device that
    /// does not report the flush as supported (`cudaDevAttrGPUDirectRDMAFlushWritesOptions`
    /// without the Host bit) answers `cudaErrorNotSupported`.
    fn cudaDeviceFlushGPUDirectRDMAWrites(target: c_int, scope: c_int) {
        if target != 0 || (scope != 100 && scope != 200) {
            return Err(CudaError::INVALID_VALUE);
        }
        let rt = ctx()?;
        if device_attribute(rt, ATTR_GPU_DIRECT_RDMA_FLUSH_WRITES_OPTIONS)? & FLUSH_OPTION_HOST == 0 {
            return Err(CudaError::NOT_SUPPORTED);
        }
        // SAFETY: checked values.
        unsafe { rt.api().cuFlushGPUDirectRDMAWrites(target, scope) }
    }

    /// Runtime API "Execution Control", cudaCtxResetPersistingL2Cache. A device whose
    /// persisting-L2 size is 0 can hold no persisting lines: there is nothing to reset.
    fn cudaCtxResetPersistingL2Cache() {
        let rt = ctx()?;
        if device_attribute(rt, ATTR_MAX_PERSISTING_L2_CACHE_SIZE)? == 0 {
            return Ok(());
        }
        // SAFETY: no arguments.
        unsafe { rt.api().cuCtxResetPersistingL2Cache() }
    }
}
