//! Devices: `cuDeviceGet*`, `cuDeviceComputeCapability`, `cuDeviceGetProperties`, PCI ids.
//!
//! A `CUdevice` is the ordinal of a backend device (see [`crate::backends`]). Everything
//! is answered from the backend's [`DeviceProperties`](backend_api::DeviceProperties),
//! so the values the public API reports (UUID, PCI domain/bus/device) are exactly the ones
//! cudart's integrity hash reads. Bad ordinals answer `CUDA_ERROR_INVALID_DEVICE`.

use backend_api::DeviceProperties;

use crate::diag::fail;
use crate::{CuError, CuResult, DeviceSlot, Driver};

/// The legacy `CUdevprop` of `cuDeviceGetProperties` (layout of the C struct).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CuDevProp {
    pub max_threads_per_block: i32,
    pub max_threads_dim: [i32; 3],
    pub max_grid_size: [i32; 3],
    pub shared_mem_per_block: i32,
    pub total_constant_memory: i32,
    pub simd_width: i32,
    pub mem_pitch: i32,
    pub regs_per_block: i32,
    pub clock_rate: i32,
    pub texture_align: i32,
}

pub(crate) fn clamp_i32(v: u64) -> i32 {
    v.min(i32::MAX as u64) as i32
}

impl Driver {
    pub(crate) fn device_slot(&self, dev: i32) -> CuResult<&DeviceSlot> {
        usize::try_from(dev)
            .ok()
            .and_then(|i| self.devices.get(i))
            .ok_or_else(|| fail(CuError::INVALID_DEVICE, format_args!("device ordinal {dev} out of range (count {})", self.devices.len())))
    }

    /// The backend properties of `dev`.
    pub fn device_properties_raw(&self, dev: i32) -> CuResult<&DeviceProperties> {
        Ok(self.device_slot(dev)?.backend.properties())
    }

    /// `cuDeviceGetCount`.
    pub fn device_count(&self) -> i32 {
        self.devices.len() as i32
    }

    /// `cuDeviceGet`: the device handle of `ordinal` (the ordinal itself).
    pub fn device_get(&self, ordinal: i32) -> CuResult<i32> {
        self.device_slot(ordinal)?;
        Ok(ordinal)
    }

    /// `cuDeviceGetName`: the name; the ABI copies at most `len - 1` bytes plus a NUL.
    pub fn device_name(&self, dev: i32) -> CuResult<&str> {
        Ok(&self.device_properties_raw(dev)?.name)
    }

    /// `cuDeviceTotalMem_v2`.
    pub fn device_total_mem(&self, dev: i32) -> CuResult<u64> {
        Ok(self.device_properties_raw(dev)?.total_memory)
    }

    /// `cuDeviceGetUuid` / `cuDeviceGetUuid_v2`.
    pub fn device_uuid(&self, dev: i32) -> CuResult<[u8; 16]> {
        Ok(self.device_properties_raw(dev)?.uuid)
    }

    /// `cuDeviceComputeCapability`: (major, minor).
    pub fn device_compute_capability(&self, dev: i32) -> CuResult<(i32, i32)> {
        let (major, minor) = self.device_properties_raw(dev)?.compute_capability;
        Ok((major as i32, minor as i32))
    }

    /// `cuDeviceGetAttribute(attr, dev)`: every `CUdevice_attribute` of CUDA 13 (1..=148);
    /// unknown ids answer `CUDA_ERROR_INVALID_VALUE`.
    pub fn device_attribute(&self, dev: i32, attr: i32) -> CuResult<i32> {
        let backend = &self.device_slot(dev)?.backend;
        crate::device_attribute::attribute(backend.properties(), backend.managed_memory(), dev, attr)
            .ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuDeviceGetAttribute: unknown attribute {attr}")))
    }

    /// `cuDeviceGetProperties` (deprecated but still exported).
    pub fn device_get_properties(&self, dev: i32) -> CuResult<CuDevProp> {
        let p = self.device_properties_raw(dev)?;
        Ok(CuDevProp {
            max_threads_per_block: clamp_i32(p.max_threads_per_block as u64),
            max_threads_dim: p.max_block_dim.map(|d| clamp_i32(d as u64)),
            max_grid_size: p.max_grid_dim.map(|d| clamp_i32(d as u64)),
            shared_mem_per_block: clamp_i32(p.shared_memory_per_block as u64),
            total_constant_memory: clamp_i32(p.total_constant_memory as u64),
            simd_width: clamp_i32(p.warp_size as u64),
            mem_pitch: i32::MAX,
            regs_per_block: clamp_i32(p.registers_per_block as u64),
            clock_rate: clamp_i32(p.clock_rate_khz as u64),
            texture_align: 512,
        })
    }

    /// `cuDeviceGetPCIBusId`: `"dddd:bb:dd.0"` (hex); the ABI truncates to the caller's length.
    pub fn device_pci_bus_id(&self, dev: i32) -> CuResult<String> {
        let p = self.device_properties_raw(dev)?;
        Ok(format!("{:04x}:{:02x}:{:02x}.0", p.pci_domain, p.pci_bus, p.pci_device))
    }

    /// `cuDeviceGetByPCIBusId`: accepts `domain:bus:device.function`, `domain:bus:device`
    /// and `bus:device.function` (hex). Malformed -> `INVALID_VALUE`; no match -> `INVALID_DEVICE`.
    pub fn device_by_pci_bus_id(&self, id: &str) -> CuResult<i32> {
        let bad = || fail(CuError::INVALID_VALUE, format_args!("cuDeviceGetByPCIBusId: malformed id {id:?}"));
        let (head, _function) = match id.trim().rsplit_once('.') {
            Some((head, f)) => (head, Some(u32::from_str_radix(f, 16).map_err(|_| bad())?)),
            None => (id.trim(), None),
        };
        let parts: Vec<u32> = head.split(':').map(|s| u32::from_str_radix(s, 16)).collect::<Result<_, _>>().map_err(|_| bad())?;
        let (domain, bus, device) = match parts[..] {
            [domain, bus, device] => (domain, bus, device),
            [bus, device] => (0, bus, device),
            _ => return Err(bad()),
        };
        self.devices
            .iter()
            .position(|slot| {
                let p = slot.backend.properties();
                (p.pci_domain, p.pci_bus, p.pci_device) == (domain, bus, device)
            })
            .map(|i| i as i32)
            .ok_or_else(|| fail(CuError::INVALID_DEVICE, format_args!("cuDeviceGetByPCIBusId: no device at {id:?}")))
    }

    /// `cuDeviceGetTexture1DLinearMaxWidth`: textures are not implemented; the hardware
    /// limit of recent GPUs is reported for any format.
    pub fn device_texture_1d_linear_max_width(&self, dev: i32) -> CuResult<usize> {
        self.device_slot(dev)?;
        Ok(1 << 27)
    }

    /// `cuDeviceCanAccessPeer`: between two different devices whose memory the host
    /// addresses ([`crate::peer`]).
    pub fn device_can_access_peer(&self, dev: i32, peer: i32) -> CuResult<bool> {
        self.device_slot(dev)?;
        self.device_slot(peer)?;
        Ok(self.peer_capable(dev as usize, peer as usize))
    }

    /// `cuDeviceGetP2PAttribute`: all zero (no peer access); same device -> `INVALID_DEVICE`.
    pub fn device_p2p_attribute(&self, attr: i32, src: i32, dst: i32) -> CuResult<i32> {
        self.device_slot(src)?;
        self.device_slot(dst)?;
        if src == dst {
            return Err(fail(CuError::INVALID_DEVICE, format_args!("cuDeviceGetP2PAttribute: src == dst")));
        }
        match attr {
            1..=5 => Ok(0),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("cuDeviceGetP2PAttribute: unknown attribute {attr}"))),
        }
    }
}
