//! NVML's state: the reference count of `nvmlInit*`/`nvmlShutdown`, and the devices, as
//! the driver reports them.
//!
//! The devices are read from the driver once, at the first successful initialization
//! (the driver's device list does not change in a process), in the driver's order: NVML
//! index `i` is `CUdevice` `i`. A `nvmlDevice_t` is the address of one [`Device`] record,
//! which lives as long as the process; handles are checked by comparing addresses, never
//! dereferenced, so a stale or forged handle is `NVML_ERROR_INVALID_ARGUMENT`, and every
//! call made while NVML is not initialized is `NVML_ERROR_UNINITIALIZED`.

use std::ffi::c_void;
use std::sync::{Mutex, OnceLock};

use crate::driver::{attribute, driver, CuError, CUDA_ERROR_NO_DEVICE};
use crate::status::{fail, NvmlResult, Return};

/// `NVML_INIT_FLAG_NO_GPUS`: initialization succeeds without devices.
pub const INIT_FLAG_NO_GPUS: u32 = 1;

/// A device's PCI location, as the driver's attributes give it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Pci {
    pub domain: u32,
    pub bus: u32,
    pub device: u32,
}

impl Pci {
    /// `nvmlPciInfo_t::busId`: `domain:bus:device.function` with an 8-digit domain.
    pub fn bus_id(&self) -> String {
        format!("{:08X}:{:02X}:{:02X}.0", self.domain, self.bus, self.device)
    }

    /// `busIdLegacy` (and v1's `busId`): the same with a 4-digit domain, the form of
    /// `cuDeviceGetPCIBusId`.
    pub fn bus_id_legacy(&self) -> String {
        format!("{:04X}:{:02X}:{:02X}.0", self.domain, self.bus, self.device)
    }
}

/// One device: what NVML reports that does not change while the process runs.
#[derive(Debug)]
pub struct Device {
    /// The NVML index, which is also the driver's `CUdevice`.
    pub index: u32,
    pub name: String,
    /// `GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` from `cuDeviceGetUuid`.
    pub uuid: String,
    pub pci: Pci,
}

/// Memory as `nvmlDeviceGetMemoryInfo` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Memory {
    pub total: u64,
    pub free: u64,
    pub used: u64,
}

/// The text form NVML gives a UUID: `GPU-` and the 16 bytes as 8-4-4-4-12 hex digits.
pub fn uuid_text(bytes: &[u8; 16]) -> String {
    let hex: String = bytes.iter().map(|b| format!("{b:02x}")).collect();
    format!("GPU-{}-{}-{}-{}-{}", &hex[0..8], &hex[8..12], &hex[12..16], &hex[16..20], &hex[20..32])
}

/// A driver failure where none is expected (a device the driver listed): logged, and
/// `NVML_ERROR_UNKNOWN`.
pub fn driver_failure<T>(call: &str, e: CuError) -> NvmlResult<T> {
    fail(Return::Unknown, format_args!("{call}: the driver answered CUresult {}", e.0))
}

fn driver_or_not_loaded() -> NvmlResult<&'static crate::driver::Libcuda> {
    match driver() {
        Ok(d) => Ok(d),
        Err(why) => fail(Return::DriverNotLoaded, format_args!("nvmlInit: {why}")),
    }
}

fn read_device(index: i32) -> Result<Device, (&'static str, CuError)> {
    let d = driver().expect("opened by the caller");
    let dev = d.device(index).map_err(|e| ("cuDeviceGet", e))?;
    let attr = |a| d.attribute(dev, a).map(|v| v as u32).map_err(|e| ("cuDeviceGetAttribute", e));
    Ok(Device {
        index: index as u32,
        name: d.name(dev).map_err(|e| ("cuDeviceGetName", e))?,
        uuid: uuid_text(&d.uuid(dev).map_err(|e| ("cuDeviceGetUuid_v2", e))?),
        pci: Pci { domain: attr(attribute::PCI_DOMAIN_ID)?, bus: attr(attribute::PCI_BUS_ID)?, device: attr(attribute::PCI_DEVICE_ID)? },
    })
}

/// The driver's devices, read once.
fn read_devices() -> NvmlResult<Vec<Device>> {
    let d = driver_or_not_loaded()?;
    match d.init() {
        Ok(()) | Err(CUDA_ERROR_NO_DEVICE) => {}
        Err(e) => return fail(Return::DriverNotLoaded, format_args!("nvmlInit: cuInit answered CUresult {}", e.0)),
    }
    let count = d.device_count().or_else(|e| driver_failure("cuDeviceGetCount", e))?;
    (0..count).map(|i| read_device(i).or_else(|(call, e)| driver_failure(call, e))).collect()
}

static DEVICES: OnceLock<Box<[Device]>> = OnceLock::new();
/// Initializations not yet shut down.
static REFERENCES: Mutex<u32> = Mutex::new(0);

fn references() -> std::sync::MutexGuard<'static, u32> {
    // The count stays consistent whatever panicked while it was held.
    REFERENCES.lock().unwrap_or_else(|p| p.into_inner())
}

/// `nvmlInitWithFlags(flags)` (`nvmlInit`/`nvmlInit_v2` with 0): one more reference once
/// the driver answered. Without devices it fails unless `NVML_INIT_FLAG_NO_GPUS` is given.
/// Other flags (`NO_ATTACH`, `FORCE_INIT`) change nothing here: there is nothing to attach.
pub fn init(flags: u32) -> NvmlResult {
    let mut refs = references();
    let devices = match DEVICES.get() {
        Some(devices) => devices,
        None => {
            let devices = read_devices()?.into_boxed_slice();
            DEVICES.get_or_init(|| devices)
        }
    };
    if devices.is_empty() && flags & INIT_FLAG_NO_GPUS == 0 {
        return fail(Return::DriverNotLoaded, format_args!("nvmlInit: the driver has no device (NVML_INIT_FLAG_NO_GPUS not given)"));
    }
    *refs += 1;
    Ok(())
}

/// `nvmlShutdown`: one reference less; `NVML_ERROR_UNINITIALIZED` when there is none.
pub fn shutdown() -> NvmlResult {
    let mut refs = references();
    if *refs == 0 {
        return fail(Return::Uninitialized, format_args!("nvmlShutdown: NVML is not initialized"));
    }
    *refs -= 1;
    Ok(())
}

/// The devices, while NVML is initialized.
pub fn devices() -> NvmlResult<&'static [Device]> {
    if *references() == 0 {
        return fail(Return::Uninitialized, format_args!("NVML is not initialized (nvmlInit_v2 first)"));
    }
    Ok(DEVICES.get().expect("read by the first initialization"))
}

/// The device a handle names.
pub fn device(handle: *mut c_void) -> NvmlResult<&'static Device> {
    let all = devices()?;
    match all.iter().find(|d| d.handle() == handle) {
        Some(d) => Ok(d),
        None => fail(Return::InvalidArgument, format_args!("{handle:p} is not an NVML device handle")),
    }
}

/// The device at an NVML index.
pub fn by_index(index: u32) -> NvmlResult<&'static Device> {
    let all = devices()?;
    match all.get(index as usize) {
        Some(d) => Ok(d),
        None => fail(Return::InvalidArgument, format_args!("device index {index} out of range (count {})", all.len())),
    }
}

/// The device whose UUID text is `uuid` (ASCII case ignored).
pub fn by_uuid(uuid: &str) -> NvmlResult<&'static Device> {
    let all = devices()?;
    match all.iter().find(|d| d.uuid.eq_ignore_ascii_case(uuid)) {
        Some(d) => Ok(d),
        None => fail(Return::NotFound, format_args!("no device has UUID {uuid:?}")),
    }
}

/// The device at a PCI bus id, found by the driver (`cuDeviceGetByPCIBusId` takes the
/// same forms NVML documents: `domain:bus:device.function`, `domain:bus:device`,
/// `bus:device.function`, in hex).
pub fn by_pci_bus_id(id: &std::ffi::CStr) -> NvmlResult<&'static Device> {
    let all = devices()?;
    let d = driver().expect("opened at initialization");
    match d.device_by_pci_bus_id(id) {
        Ok(ordinal) => by_index(ordinal as u32),
        Err(crate::driver::CUDA_ERROR_INVALID_DEVICE) => fail(Return::NotFound, format_args!("no device at PCI bus id {id:?} (count {})", all.len())),
        Err(crate::driver::CUDA_ERROR_INVALID_VALUE) => fail(Return::InvalidArgument, format_args!("malformed PCI bus id {id:?}")),
        Err(e) => driver_failure("cuDeviceGetByPCIBusId", e),
    }
}

impl Device {
    /// The `nvmlDevice_t` of this device.
    pub fn handle(&self) -> *mut c_void {
        self as *const Device as *mut c_void
    }

    fn ordinal(&self) -> i32 {
        self.index as i32
    }

    /// Total memory (`cuDeviceTotalMem`) and free memory as the driver's `cuMemGetInfo`
    /// reports it for this device; used is the rest.
    pub fn memory(&self) -> NvmlResult<Memory> {
        let d = driver().expect("opened at initialization");
        let total = d.total_mem(self.ordinal()).or_else(|e| driver_failure("cuDeviceTotalMem_v2", e))?;
        let (free, _) = d.mem_info(self.ordinal()).or_else(|e| driver_failure("cuMemGetInfo_v2", e))?;
        let free = free.min(total);
        Ok(Memory { total, free, used: total - free })
    }

    /// A `cuDeviceGetAttribute` of this device.
    pub fn attribute(&self, attribute: i32) -> NvmlResult<i32> {
        let d = driver().expect("opened at initialization");
        d.attribute(self.ordinal(), attribute).or_else(|e| driver_failure("cuDeviceGetAttribute", e))
    }

    /// (major, minor) compute capability.
    pub fn compute_capability(&self) -> NvmlResult<(i32, i32)> {
        Ok((self.attribute(attribute::COMPUTE_CAPABILITY_MAJOR)?, self.attribute(attribute::COMPUTE_CAPABILITY_MINOR)?))
    }

    /// Whether `peer`'s memory is accessible from this device (`cuDeviceCanAccessPeer`).
    pub fn can_access_peer(&self, peer: &Device) -> NvmlResult<bool> {
        let d = driver().expect("opened at initialization");
        d.can_access_peer(self.ordinal(), peer.ordinal()).or_else(|e| driver_failure("cuDeviceCanAccessPeer", e))
    }

    /// Whether atomics on `peer`'s memory are native (`cuDeviceGetP2PAttribute`); false
    /// for the device itself, which the driver does not answer for.
    pub fn native_peer_atomics(&self, peer: &Device) -> NvmlResult<bool> {
        if self.index == peer.index {
            return Ok(false);
        }
        let d = driver().expect("opened at initialization");
        let v = d
            .p2p_attribute(crate::driver::P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED, self.ordinal(), peer.ordinal())
            .or_else(|e| driver_failure("cuDeviceGetP2PAttribute", e))?;
        Ok(v != 0)
    }
}

/// The CUDA version the driver supports (`cuDriverGetVersion`), while NVML is initialized.
pub fn cuda_driver_version() -> NvmlResult<i32> {
    devices()?;
    let d = driver().expect("opened at initialization");
    d.version().or_else(|e| driver_failure("cuDriverGetVersion", e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn uuid_and_bus_id_texts() {
        let bytes = [0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef, 0x10, 0x32, 0x54, 0x76, 0x98, 0xba, 0xdc, 0xfe];
        assert_eq!(uuid_text(&bytes), "GPU-01234567-89ab-cdef-1032-547698badcfe");
        let pci = Pci { domain: 0, bus: 0x3b, device: 2 };
        assert_eq!(pci.bus_id(), "00000000:3B:02.0");
        assert_eq!(pci.bus_id_legacy(), "0000:3B:02.0");
    }
}
