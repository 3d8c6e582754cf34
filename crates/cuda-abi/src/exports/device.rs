//! `cuDevice*`: device enumeration and properties, and primary contexts
//! (`cuDevicePrimaryCtx*`).
//!
//! A `CUdevice` is the device ordinal; the driver validates it
//! (`CUDA_ERROR_INVALID_DEVICE`). String outputs (`cuDeviceGetName`,
//! `cuDeviceGetPCIBusId`) are truncated to the caller's buffer and always NUL-terminated.

use std::ffi::{c_char, c_int, c_uint};

use cuda_driver::CuError;

use super::{ctx_raw, drv};
use crate::boundary::{export, utf8, write_c_string, Out};
use crate::types::{CUcontext, CUdevice, CUdevprop, CUuuid};

/// A C string buffer argument: NULL or a length <= 0 is `CUDA_ERROR_INVALID_VALUE`.
fn string_buffer(buf: *mut c_char, len: c_int) -> crate::boundary::AbiResult<usize> {
    if buf.is_null() || len <= 0 {
        return Err(CuError::INVALID_VALUE);
    }
    Ok(len as usize)
}

/// `cuDeviceGetUuid` and `_v2` answer the same bytes.
///
/// # Safety
/// `uuid` is NULL or writable.
unsafe fn device_uuid(uuid: *mut CUuuid, dev: CUdevice) -> crate::boundary::AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(uuid) }?;
    let bytes = drv()?.device_uuid(dev)?;
    out.write(CUuuid { bytes: bytes.map(|b| b as c_char) });
    Ok(())
}

export! {
    /// `cuDeviceGet(CUdevice* device, int ordinal)`.
    fn cuDeviceGet(device: *mut CUdevice, ordinal: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(device) }?;
        out.write(drv()?.device_get(ordinal)?);
        Ok(())
    }

    /// `cuDeviceGetCount(int* count)`.
    fn cuDeviceGetCount(count: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(count) }?;
        out.write(drv()?.device_count());
        Ok(())
    }

    /// `cuDeviceGetName(char* name, int len, CUdevice dev)`.
    fn cuDeviceGetName(name: *mut c_char, len: c_int, dev: CUdevice) {
        // A negative length is taken as "large enough" (NVIDIA's driver 580 answers
        // success and writes the whole name); zero is refused.
        if name.is_null() || len == 0 {
            return Err(CuError::INVALID_VALUE);
        }
        let text = drv()?.device_name(dev)?;
        let len = usize::try_from(len).unwrap_or(text.len() + 1);
        // SAFETY: the API promises `len` writable bytes at `name`.
        unsafe { write_c_string(name, len, text) };
        Ok(())
    }

    /// `cuDeviceTotalMem_v2(size_t* bytes, CUdevice dev)`.
    fn cuDeviceTotalMem_v2(bytes: *mut usize, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(bytes) }?;
        out.write(usize::try_from(drv()?.device_total_mem(dev)?).unwrap_or(usize::MAX));
        Ok(())
    }

    /// `cuDeviceGetAttribute(int* pi, CUdevice_attribute attrib, CUdevice dev)`.
    fn cuDeviceGetAttribute(pi: *mut c_int, attrib: c_int, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pi) }?;
        out.write(drv()?.device_attribute(dev, attrib)?);
        Ok(())
    }

    /// `cuDeviceGetUuid(CUuuid* uuid, CUdevice dev)`.
    fn cuDeviceGetUuid(uuid: *mut CUuuid, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        unsafe { device_uuid(uuid, dev) }
    }

    /// `cuDeviceGetUuid_v2(CUuuid* uuid, CUdevice dev)`.
    fn cuDeviceGetUuid_v2(uuid: *mut CUuuid, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        unsafe { device_uuid(uuid, dev) }
    }

    /// `cuDeviceGetPCIBusId(char* pciBusId, int len, CUdevice dev)`.
    fn cuDeviceGetPCIBusId(pci_bus_id: *mut c_char, len: c_int, dev: CUdevice) {
        let len = string_buffer(pci_bus_id, len)?;
        let text = drv()?.device_pci_bus_id(dev)?;
        // The identifier is never truncated: a buffer shorter than it and its NUL (13
        // bytes) is refused, as NVIDIA's driver does.
        if len <= text.len() {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: the API promises `len` writable bytes at `pci_bus_id`.
        unsafe { write_c_string(pci_bus_id, len, &text) };
        Ok(())
    }

    /// `cuDeviceGetByPCIBusId(CUdevice* dev, const char* pciBusId)`.
    fn cuDeviceGetByPCIBusId(dev: *mut CUdevice, pci_bus_id: *const c_char) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dev) }?;
        // SAFETY: NULL or a NUL-terminated string, per the API.
        let id = unsafe { utf8(pci_bus_id, CuError::INVALID_VALUE) }?;
        out.write(drv()?.device_by_pci_bus_id(id)?);
        Ok(())
    }

    /// `cuDeviceComputeCapability(int* major, int* minor, CUdevice dev)` (deprecated).
    fn cuDeviceComputeCapability(major: *mut c_int, minor: *mut c_int, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let (major, minor) = unsafe { (Out::new(major)?, Out::new(minor)?) };
        let (ma, mi) = drv()?.device_compute_capability(dev)?;
        major.write(ma);
        minor.write(mi);
        Ok(())
    }

    /// `cuDeviceGetProperties(CUdevprop* prop, CUdevice dev)` (deprecated).
    fn cuDeviceGetProperties(prop: *mut CUdevprop, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(prop) }?;
        out.write(drv()?.device_get_properties(dev)?);
        Ok(())
    }

    /// `cuDeviceCanAccessPeer(int* canAccessPeer, CUdevice dev, CUdevice peerDev)`.
    fn cuDeviceCanAccessPeer(can_access_peer: *mut c_int, dev: CUdevice, peer_dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(can_access_peer) }?;
        out.write(c_int::from(drv()?.device_can_access_peer(dev, peer_dev)?));
        Ok(())
    }

    /// `cuDeviceGetP2PAttribute(int* value, CUdevice_P2PAttribute attrib, CUdevice src, CUdevice dst)`.
    fn cuDeviceGetP2PAttribute(value: *mut c_int, attrib: c_int, src_device: CUdevice, dst_device: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(value) }?;
        out.write(drv()?.device_p2p_attribute(attrib, src_device, dst_device)?);
        Ok(())
    }

    /// `cuDeviceGetTexture1DLinearMaxWidth(size_t* maxWidth, CUarray_format format, unsigned numChannels, CUdevice dev)`.
    fn cuDeviceGetTexture1DLinearMaxWidth(max_width: *mut usize, _format: c_uint, num_channels: c_uint, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(max_width) }?;
        // Texture elements have 1, 2 or 4 channels (CUDA_ARRAY_DESCRIPTOR).
        if !matches!(num_channels, 1 | 2 | 4) {
            return Err(CuError::INVALID_VALUE);
        }
        out.write(drv()?.device_texture_1d_linear_max_width(dev)?);
        Ok(())
    }

    /// `cuDevicePrimaryCtxRetain(CUcontext* pctx, CUdevice dev)`.
    fn cuDevicePrimaryCtxRetain(pctx: *mut CUcontext, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pctx) }?;
        out.write(ctx_raw(drv()?.primary_ctx_retain(dev)?));
        Ok(())
    }

    /// `cuDevicePrimaryCtxRelease(CUdevice dev)` (CUDA 7 form; same semantics as `_v2`).
    fn cuDevicePrimaryCtxRelease(dev: CUdevice) {
        drv()?.primary_ctx_release(dev)
    }

    /// `cuDevicePrimaryCtxRelease_v2(CUdevice dev)`.
    fn cuDevicePrimaryCtxRelease_v2(dev: CUdevice) {
        drv()?.primary_ctx_release(dev)
    }

    /// `cuDevicePrimaryCtxSetFlags(CUdevice dev, unsigned flags)` (CUDA 7 form).
    fn cuDevicePrimaryCtxSetFlags(dev: CUdevice, flags: c_uint) {
        drv()?.primary_ctx_set_flags(dev, flags)
    }

    /// `cuDevicePrimaryCtxSetFlags_v2(CUdevice dev, unsigned flags)`.
    fn cuDevicePrimaryCtxSetFlags_v2(dev: CUdevice, flags: c_uint) {
        drv()?.primary_ctx_set_flags(dev, flags)
    }

    /// `cuDevicePrimaryCtxGetState(CUdevice dev, unsigned* flags, int* active)`.
    fn cuDevicePrimaryCtxGetState(dev: CUdevice, flags: *mut c_uint, active: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        let (flags, active) = unsafe { (Out::new(flags)?, Out::new(active)?) };
        let (f, a) = drv()?.primary_ctx_get_state(dev)?;
        flags.write(f);
        active.write(c_int::from(a));
        Ok(())
    }

    /// `cuDevicePrimaryCtxReset(CUdevice dev)` (CUDA 7 form).
    fn cuDevicePrimaryCtxReset(dev: CUdevice) {
        drv()?.primary_ctx_reset(dev)
    }

    /// `cuDevicePrimaryCtxReset_v2(CUdevice dev)`.
    fn cuDevicePrimaryCtxReset_v2(dev: CUdevice) {
        drv()?.primary_ctx_reset(dev)
    }
}
