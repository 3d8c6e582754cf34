//! The C exports, NVIDIA's names and signatures. Each converts its arguments (a NULL
//! pointer where NVML requires one is `NVML_ERROR_INVALID_ARGUMENT`), asks
//! [`crate::devices`], and writes its outputs only once the answer is known. Bodies run
//! inside `libcuda_client::boundary::guard`: a panic is `NVML_ERROR_UNKNOWN` and one line
//! on stderr, never an unwind into C.
//!
//! Checks come in NVML's order: not initialized (`UNINITIALIZED`), then the device handle
//! and pointers (`INVALID_ARGUMENT`), then buffer sizes (`INSUFFICIENT_SIZE`), then what the
//! device cannot do (`NOT_SUPPORTED`, with a line under `LIBCUDA_LOG`).

// The exports' safety contract is NVML's documentation of each function (valid handles,
// out-pointers and buffers of the stated length).
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::mem::size_of;

use libcuda_client::c_exports;

use crate::devices::{self, Device};
use crate::driver::attribute;
use crate::status::{self, fail, NvmlResult, Return};

/// `nvmlDevice_t`.
type Handle = *mut c_void;

/// `nvmlPciInfo_t` (what `_v2` and `_v3` fill): 68 bytes.
#[repr(C)]
pub struct PciInfo {
    bus_id_legacy: [c_char; 16],
    domain: c_uint,
    bus: c_uint,
    device: c_uint,
    pci_device_id: c_uint,
    pci_sub_system_id: c_uint,
    bus_id: [c_char; 32],
}

/// The fields of the original `nvmlPciInfo_t` that `nvmlDeviceGetPciInfo` (v1) fills: a
/// 16-byte `busId`, then the same five words; its four reserved words after them are left
/// as they are.
#[repr(C)]
pub struct PciInfoV1 {
    bus_id: [c_char; 16],
    domain: c_uint,
    bus: c_uint,
    device: c_uint,
    pci_device_id: c_uint,
    pci_sub_system_id: c_uint,
}

/// `nvmlMemory_t`.
#[repr(C)]
pub struct MemoryV1 {
    total: u64,
    free: u64,
    used: u64,
}

/// `nvmlMemory_v2_t`.
#[repr(C)]
pub struct MemoryV2 {
    version: c_uint,
    total: u64,
    reserved: u64,
    free: u64,
    used: u64,
}

/// `nvmlMemory_v2` (`NVML_STRUCT_VERSION(Memory, 2)`: the size, and the version in the top byte).
pub const MEMORY_V2_VERSION: c_uint = size_of::<MemoryV2>() as c_uint | (2 << 24);

/// `nvmlUtilization_t`.
#[repr(C)]
pub struct Utilization {
    gpu: c_uint,
    memory: c_uint,
}

/// `nvmlClockType_t`: `NVML_CLOCK_GRAPHICS`, `_SM`, `_MEM`, `_VIDEO`.
const CLOCK_GRAPHICS: c_uint = 0;
const CLOCK_SM: c_uint = 1;
const CLOCK_MEM: c_uint = 2;
const CLOCK_VIDEO: c_uint = 3;

/// `nvmlGpuP2PCapsIndex_t`: READ, WRITE, NVLINK, ATOMICS, PCI (= PROP).
const P2P_CAPS_READ: c_uint = 0;
const P2P_CAPS_WRITE: c_uint = 1;
const P2P_CAPS_NVLINK: c_uint = 2;
const P2P_CAPS_ATOMICS: c_uint = 3;
const P2P_CAPS_PCI: c_uint = 4;
/// `nvmlGpuP2PStatus_t`: `NVML_P2P_STATUS_OK`, `NVML_P2P_STATUS_NOT_SUPPORTED`.
const P2P_STATUS_OK: c_uint = 0;
const P2P_STATUS_NOT_SUPPORTED: c_uint = 5;

/// `NVML_GPU_VIRTUALIZATION_MODE_NONE`: not a virtual GPU.
const VIRTUALIZATION_MODE_NONE: c_uint = 0;

/// The `nvmlSystemGetDriverVersion` answer: the version of our driver (this workspace's),
/// not an NVIDIA display driver's branch number.
const DRIVER_VERSION: &str = env!("CARGO_PKG_VERSION");

/// A checked out-pointer: NULL is `NVML_ERROR_INVALID_ARGUMENT`. Created before the
/// work, written after it.
struct Out<T>(*mut T);

impl<T> Out<T> {
    fn new(p: *mut T, what: &str) -> NvmlResult<Out<T>> {
        if p.is_null() {
            return fail(Return::InvalidArgument, format_args!("{what} is NULL"));
        }
        Ok(Out(p))
    }

    /// # Safety
    /// The pointer is valid for a write of `T`, as NVML's contract for the call says.
    unsafe fn write(self, value: T) {
        // SAFETY: non-NULL (checked) and writable (the caller's contract).
        unsafe { self.0.write(value) }
    }
}

/// A caller's character buffer of `length` bytes: NULL is `INVALID_ARGUMENT`.
struct Text(*mut c_char, usize);

impl Text {
    fn new(p: *mut c_char, length: c_uint, what: &str) -> NvmlResult<Text> {
        if p.is_null() {
            return fail(Return::InvalidArgument, format_args!("{what} is NULL"));
        }
        Ok(Text(p, length as usize))
    }

    /// Writes `s` and its NUL, or answers `INSUFFICIENT_SIZE` (writing nothing) when the
    /// buffer is shorter than that.
    ///
    /// # Safety
    /// The buffer holds `length` writable bytes.
    unsafe fn write(self, s: &str, call: &str) -> NvmlResult {
        if self.1 < s.len() + 1 {
            return fail(Return::InsufficientSize, format_args!("{call}: {} bytes needed, the buffer has {}", s.len() + 1, self.1));
        }
        // SAFETY: `s.len() + 1 <= length` bytes of the caller's buffer.
        unsafe {
            std::ptr::copy_nonoverlapping(s.as_ptr().cast::<c_char>(), self.0, s.len());
            self.0.add(s.len()).write(0);
        }
        Ok(())
    }
}

/// `s` NUL-terminated in a fixed array (the strings put there are ASCII and shorter).
fn fixed<const N: usize>(s: &str) -> [c_char; N] {
    let mut out = [0 as c_char; N];
    for (o, b) in out.iter_mut().zip(s.bytes().take(N - 1)) {
        *o = b as c_char;
    }
    out
}

/// A NUL-terminated argument string; NULL or non-UTF-8 is `INVALID_ARGUMENT`.
///
/// # Safety
/// `p` is NULL or a NUL-terminated string.
unsafe fn arg_str<'a>(p: *const c_char, what: &str) -> NvmlResult<&'a CStr> {
    if p.is_null() {
        return fail(Return::InvalidArgument, format_args!("{what} is NULL"));
    }
    // SAFETY: a NUL-terminated string (the caller's contract).
    Ok(unsafe { CStr::from_ptr(p) })
}

/// What the CPU device has not: the device is checked, then `NVML_ERROR_NOT_SUPPORTED`.
fn not_supported(call: &str, device: Handle, why: &str) -> NvmlResult {
    devices::device(device)?;
    fail(Return::NotSupported, format_args!("{call}: {why}"))
}

fn count(out: *mut c_uint) -> NvmlResult {
    let all = devices::devices()?;
    let out = Out::new(out, "deviceCount")?;
    // SAFETY: a writable `unsigned int` (NVML's contract).
    unsafe { out.write(all.len() as c_uint) };
    Ok(())
}

fn handle_by_index(index: c_uint, device: *mut Handle) -> NvmlResult {
    devices::devices()?;
    let out = Out::new(device, "device")?;
    let d = devices::by_index(index)?;
    // SAFETY: a writable `nvmlDevice_t` (NVML's contract).
    unsafe { out.write(d.handle()) };
    Ok(())
}

/// # Safety
/// `id` is NULL or a NUL-terminated string; `device` NULL or writable.
unsafe fn handle_by_pci_bus_id(id: *const c_char, device: *mut Handle) -> NvmlResult {
    devices::devices()?;
    // SAFETY: forwarded contract.
    let id = unsafe { arg_str(id, "pciBusId") }?;
    let out = Out::new(device, "device")?;
    let d = devices::by_pci_bus_id(id)?;
    // SAFETY: a writable `nvmlDevice_t`.
    unsafe { out.write(d.handle()) };
    Ok(())
}

fn pci_info(d: &Device) -> PciInfo {
    PciInfo {
        bus_id_legacy: fixed(&d.pci.bus_id_legacy()),
        domain: d.pci.domain,
        bus: d.pci.bus,
        device: d.pci.device,
        // The driver reports no PCI vendor, device or subsystem id.
        pci_device_id: 0,
        pci_sub_system_id: 0,
        bus_id: fixed(&d.pci.bus_id()),
    }
}

/// `nvmlDeviceGetPciInfo_v2`/`_v3`.
///
/// # Safety
/// `pci` is NULL or a writable `nvmlPciInfo_t`.
unsafe fn pci_info_v2(device: Handle, pci: *mut PciInfo) -> NvmlResult {
    let d = devices::device(device)?;
    let out = Out::new(pci, "pci")?;
    // SAFETY: forwarded contract.
    unsafe { out.write(pci_info(d)) };
    Ok(())
}

/// The running processes of a device: none is listed (the driver keeps no account of
/// processes), so every query answers 0 entries and writes no `infos` element.
fn running_processes(device: Handle, info_count: *mut c_uint) -> NvmlResult {
    devices::device(device)?;
    let out = Out::new(info_count, "infoCount")?;
    // SAFETY: a writable `unsigned int`.
    unsafe { out.write(0) };
    Ok(())
}

fn driver_version_text(buf: *mut c_char, length: c_uint, call: &str, text: &str) -> NvmlResult {
    devices::devices()?;
    let out = Text::new(buf, length, "version")?;
    // SAFETY: `length` writable bytes (NVML's contract).
    unsafe { out.write(text, call) }
}

fn cuda_driver_version(out: *mut c_int) -> NvmlResult {
    devices::devices()?;
    let out = Out::new(out, "cudaDriverVersion")?;
    let v = devices::cuda_driver_version()?;
    // SAFETY: a writable `int`.
    unsafe { out.write(v) };
    Ok(())
}

/// `nvmlErrorString(result)`: a static NUL-terminated text for any value.
#[no_mangle]
pub extern "C" fn nvmlErrorString(result: c_int) -> *const c_char {
    status::text(result).as_ptr()
}

c_exports! {
    { lib: crate::LIB, status: Return, result: NvmlResult, ok: Return::Success, panic: Return::Unknown }

    /// `nvmlInit(void)` (NVML's first ABI, kept by NVIDIA's library): as `nvmlInit_v2`.
    fn nvmlInit() {
        devices::init(0)
    }

    /// `nvmlInit_v2(void)`: one more reference; the first reads the driver's devices.
    fn nvmlInit_v2() {
        devices::init(0)
    }

    /// `nvmlInitWithFlags(unsigned int flags)`.
    fn nvmlInitWithFlags(flags: c_uint) {
        devices::init(flags)
    }

    /// `nvmlShutdown(void)`: one reference less.
    fn nvmlShutdown() {
        devices::shutdown()
    }

    /// `nvmlSystemGetDriverVersion(char* version, unsigned int length)`.
    fn nvmlSystemGetDriverVersion(version: *mut c_char, length: c_uint) {
        driver_version_text(version, length, "nvmlSystemGetDriverVersion", DRIVER_VERSION)
    }

    /// `nvmlSystemGetNVMLVersion(char* version, unsigned int length)`: NVIDIA's form, the
    /// CUDA major version, then the driver's version.
    fn nvmlSystemGetNVMLVersion(version: *mut c_char, length: c_uint) {
        let cuda = devices::cuda_driver_version()?;
        driver_version_text(version, length, "nvmlSystemGetNVMLVersion", &format!("{}.{DRIVER_VERSION}", cuda / 1000))
    }

    /// `nvmlSystemGetCudaDriverVersion(int* cudaDriverVersion)`: `cuDriverGetVersion`'s answer.
    fn nvmlSystemGetCudaDriverVersion(cuda_driver_version_out: *mut c_int) {
        cuda_driver_version(cuda_driver_version_out)
    }

    /// `nvmlSystemGetCudaDriverVersion_v2(int* cudaDriverVersion)`.
    fn nvmlSystemGetCudaDriverVersion_v2(cuda_driver_version_out: *mut c_int) {
        cuda_driver_version(cuda_driver_version_out)
    }

    /// `nvmlDeviceGetCount(unsigned int* deviceCount)` (v1).
    fn nvmlDeviceGetCount(device_count: *mut c_uint) {
        count(device_count)
    }

    /// `nvmlDeviceGetCount_v2(unsigned int* deviceCount)`: the driver's device count.
    fn nvmlDeviceGetCount_v2(device_count: *mut c_uint) {
        count(device_count)
    }

    /// `nvmlDeviceGetHandleByIndex(unsigned int index, nvmlDevice_t* device)` (v1).
    fn nvmlDeviceGetHandleByIndex(index: c_uint, device: *mut Handle) {
        handle_by_index(index, device)
    }

    /// `nvmlDeviceGetHandleByIndex_v2(unsigned int index, nvmlDevice_t* device)`: index `i`
    /// is the driver's device `i`.
    fn nvmlDeviceGetHandleByIndex_v2(index: c_uint, device: *mut Handle) {
        handle_by_index(index, device)
    }

    /// `nvmlDeviceGetHandleByPciBusId(const char* pciBusId, nvmlDevice_t* device)` (v1).
    fn nvmlDeviceGetHandleByPciBusId(pci_bus_id: *const c_char, device: *mut Handle) {
        // SAFETY: NVML's contract for the arguments.
        unsafe { handle_by_pci_bus_id(pci_bus_id, device) }
    }

    /// `nvmlDeviceGetHandleByPciBusId_v2(const char* pciBusId, nvmlDevice_t* device)`.
    fn nvmlDeviceGetHandleByPciBusId_v2(pci_bus_id: *const c_char, device: *mut Handle) {
        // SAFETY: NVML's contract for the arguments.
        unsafe { handle_by_pci_bus_id(pci_bus_id, device) }
    }

    /// `nvmlDeviceGetHandleByUUID(const char* uuid, nvmlDevice_t* device)`.
    fn nvmlDeviceGetHandleByUUID(uuid: *const c_char, device: *mut Handle) {
        devices::devices()?;
        // SAFETY: NVML's contract for the argument.
        let uuid = unsafe { arg_str(uuid, "uuid") }?;
        let out = Out::new(device, "device")?;
        let d = match uuid.to_str() {
            Ok(text) => devices::by_uuid(text)?,
            Err(_) => return fail(Return::NotFound, format_args!("no device has UUID {uuid:?}")),
        };
        // SAFETY: a writable `nvmlDevice_t`.
        unsafe { out.write(d.handle()) };
        Ok(())
    }

    /// `nvmlDeviceGetIndex(nvmlDevice_t device, unsigned int* index)`.
    fn nvmlDeviceGetIndex(device: Handle, index: *mut c_uint) {
        let d = devices::device(device)?;
        let out = Out::new(index, "index")?;
        // SAFETY: a writable `unsigned int`.
        unsafe { out.write(d.index) };
        Ok(())
    }

    /// `nvmlDeviceGetName(nvmlDevice_t device, char* name, unsigned int length)`:
    /// `cuDeviceGetName`'s name.
    fn nvmlDeviceGetName(device: Handle, name: *mut c_char, length: c_uint) {
        let d = devices::device(device)?;
        let out = Text::new(name, length, "name")?;
        // SAFETY: `length` writable bytes.
        unsafe { out.write(&d.name, "nvmlDeviceGetName") }
    }

    /// `nvmlDeviceGetUUID(nvmlDevice_t device, char* uuid, unsigned int length)`:
    /// `GPU-` and `cuDeviceGetUuid`'s bytes.
    fn nvmlDeviceGetUUID(device: Handle, uuid: *mut c_char, length: c_uint) {
        let d = devices::device(device)?;
        let out = Text::new(uuid, length, "uuid")?;
        // SAFETY: `length` writable bytes.
        unsafe { out.write(&d.uuid, "nvmlDeviceGetUUID") }
    }

    /// `nvmlDeviceGetPciInfo(nvmlDevice_t device, nvmlPciInfo_t* pci)` (v1 layout).
    fn nvmlDeviceGetPciInfo(device: Handle, pci: *mut PciInfoV1) {
        let d = devices::device(device)?;
        let out = Out::new(pci, "pci")?;
        let info = pci_info(d);
        // SAFETY: a writable v1 `nvmlPciInfo_t`, whose first 36 bytes these are.
        unsafe {
            out.write(PciInfoV1 {
                bus_id: info.bus_id_legacy,
                domain: info.domain,
                bus: info.bus,
                device: info.device,
                pci_device_id: info.pci_device_id,
                pci_sub_system_id: info.pci_sub_system_id,
            })
        };
        Ok(())
    }

    /// `nvmlDeviceGetPciInfo_v2(nvmlDevice_t device, nvmlPciInfo_t* pci)`.
    fn nvmlDeviceGetPciInfo_v2(device: Handle, pci: *mut PciInfo) {
        // SAFETY: NVML's contract for the arguments.
        unsafe { pci_info_v2(device, pci) }
    }

    /// `nvmlDeviceGetPciInfo_v3(nvmlDevice_t device, nvmlPciInfo_t* pci)`.
    fn nvmlDeviceGetPciInfo_v3(device: Handle, pci: *mut PciInfo) {
        // SAFETY: NVML's contract for the arguments.
        unsafe { pci_info_v2(device, pci) }
    }

    /// `nvmlDeviceGetMemoryInfo(nvmlDevice_t device, nvmlMemory_t* memory)`.
    fn nvmlDeviceGetMemoryInfo(device: Handle, memory: *mut MemoryV1) {
        let d = devices::device(device)?;
        let out = Out::new(memory, "memory")?;
        let m = d.memory()?;
        // SAFETY: a writable `nvmlMemory_t`.
        unsafe { out.write(MemoryV1 { total: m.total, free: m.free, used: m.used }) };
        Ok(())
    }

    /// `nvmlDeviceGetMemoryInfo_v2(nvmlDevice_t device, nvmlMemory_v2_t* memory)`: the
    /// caller sets `version` to `nvmlMemory_v2`; nothing is reserved.
    fn nvmlDeviceGetMemoryInfo_v2(device: Handle, memory: *mut MemoryV2) {
        let d = devices::device(device)?;
        let out = Out::new(memory, "memory")?;
        // SAFETY: a readable `nvmlMemory_v2_t` (its version is the caller's input).
        let version = unsafe { std::ptr::addr_of!((*memory).version).read() };
        if version != MEMORY_V2_VERSION {
            return fail(
                Return::ArgumentVersionMismatch,
                format_args!("nvmlDeviceGetMemoryInfo_v2: version {version:#x}, expected nvmlMemory_v2 ({MEMORY_V2_VERSION:#x})"),
            );
        }
        let m = d.memory()?;
        // SAFETY: a writable `nvmlMemory_v2_t`.
        unsafe { out.write(MemoryV2 { version, total: m.total, reserved: 0, free: m.free, used: m.used }) };
        Ok(())
    }

    /// `nvmlDeviceGetCudaComputeCapability(nvmlDevice_t device, int* major, int* minor)`.
    fn nvmlDeviceGetCudaComputeCapability(device: Handle, major: *mut c_int, minor: *mut c_int) {
        let d = devices::device(device)?;
        let (major, minor) = (Out::new(major, "major")?, Out::new(minor, "minor")?);
        let (ma, mi) = d.compute_capability()?;
        // SAFETY: writable `int`s.
        unsafe {
            major.write(ma);
            minor.write(mi);
        }
        Ok(())
    }

    /// `nvmlDeviceGetComputeRunningProcesses(nvmlDevice_t, unsigned int* infoCount,
    /// nvmlProcessInfo_v1_t* infos)`: no process is listed.
    fn nvmlDeviceGetComputeRunningProcesses(device: Handle, info_count: *mut c_uint, _infos: *mut c_void) {
        running_processes(device, info_count)
    }

    /// `nvmlDeviceGetComputeRunningProcesses_v2(...)` (`nvmlProcessInfo_v2_t` entries).
    fn nvmlDeviceGetComputeRunningProcesses_v2(device: Handle, info_count: *mut c_uint, _infos: *mut c_void) {
        running_processes(device, info_count)
    }

    /// `nvmlDeviceGetComputeRunningProcesses_v3(...)` (`nvmlProcessInfo_t` entries).
    fn nvmlDeviceGetComputeRunningProcesses_v3(device: Handle, info_count: *mut c_uint, _infos: *mut c_void) {
        running_processes(device, info_count)
    }

    /// `nvmlDeviceGetMaxClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* clock)`:
    /// MHz, from the driver's clock-rate attributes (graphics and SM: `CLOCK_RATE`; memory:
    /// `MEMORY_CLOCK_RATE`). The video clock is not supported.
    fn nvmlDeviceGetMaxClockInfo(device: Handle, clock_type: c_uint, clock: *mut c_uint) {
        let d = devices::device(device)?;
        let out = Out::new(clock, "clock")?;
        let khz = match clock_type {
            CLOCK_GRAPHICS | CLOCK_SM => d.attribute(attribute::CLOCK_RATE)?,
            CLOCK_MEM => d.attribute(attribute::MEMORY_CLOCK_RATE)?,
            CLOCK_VIDEO => return fail(Return::NotSupported, format_args!("nvmlDeviceGetMaxClockInfo: the CPU device has no video clock")),
            _ => return fail(Return::InvalidArgument, format_args!("nvmlDeviceGetMaxClockInfo: clock type {clock_type}")),
        };
        // SAFETY: a writable `unsigned int`.
        unsafe { out.write((khz.max(0) / 1000) as c_uint) };
        Ok(())
    }

    /// `nvmlDeviceGetVirtualizationMode(nvmlDevice_t device, nvmlGpuVirtualizationMode_t* mode)`:
    /// `NVML_GPU_VIRTUALIZATION_MODE_NONE`.
    fn nvmlDeviceGetVirtualizationMode(device: Handle, mode: *mut c_uint) {
        devices::device(device)?;
        let out = Out::new(mode, "pVirtualMode")?;
        // SAFETY: a writable enum (an `int`-sized value).
        unsafe { out.write(VIRTUALIZATION_MODE_NONE) };
        Ok(())
    }

    /// `nvmlDeviceGetP2PStatus(nvmlDevice_t device1, nvmlDevice_t device2,
    /// nvmlGpuP2PCapsIndex_t p2pIndex, nvmlGpuP2PStatus_t* p2pStatus)`: read, write and PCI
    /// access as `cuDeviceCanAccessPeer` says, atomics as the driver's
    /// `NATIVE_ATOMIC_SUPPORTED`; NvLink is never there.
    fn nvmlDeviceGetP2PStatus(device1: Handle, device2: Handle, p2p_index: c_uint, p2p_status: *mut c_uint) {
        let (a, b) = (devices::device(device1)?, devices::device(device2)?);
        let out = Out::new(p2p_status, "p2pStatus")?;
        let ok = match p2p_index {
            P2P_CAPS_READ | P2P_CAPS_WRITE | P2P_CAPS_PCI => a.can_access_peer(b)?,
            P2P_CAPS_ATOMICS => a.can_access_peer(b)? && a.native_peer_atomics(b)?,
            P2P_CAPS_NVLINK => false,
            _ => return fail(Return::InvalidArgument, format_args!("nvmlDeviceGetP2PStatus: capability index {p2p_index}")),
        };
        // SAFETY: a writable enum.
        unsafe { out.write(if ok { P2P_STATUS_OK } else { P2P_STATUS_NOT_SUPPORTED }) };
        Ok(())
    }

    /// `nvmlDeviceGetUtilizationRates(nvmlDevice_t device, nvmlUtilization_t* utilization)`:
    /// not supported (the driver measures no busy time, and a made-up 0% would mislead).
    fn nvmlDeviceGetUtilizationRates(device: Handle, utilization: *mut Utilization) {
        devices::device(device)?;
        Out::new(utilization, "utilization")?;
        not_supported("nvmlDeviceGetUtilizationRates", device, "the driver measures no device utilization")
    }

    /// `nvmlDeviceGetGpuFabricInfo(nvmlDevice_t device, nvmlGpuFabricInfo_t* gpuFabricInfo)`.
    fn nvmlDeviceGetGpuFabricInfo(device: Handle, gpu_fabric_info: *mut c_void) {
        devices::device(device)?;
        Out::new(gpu_fabric_info, "gpuFabricInfo")?;
        not_supported("nvmlDeviceGetGpuFabricInfo", device, "the CPU device is on no NVLink fabric")
    }

    /// `nvmlDeviceGetGpuFabricInfoV(nvmlDevice_t device, nvmlGpuFabricInfoV_t* gpuFabricInfo)`:
    /// PyTorch's expandable segments ask it, and share memory through file descriptors on
    /// this answer.
    fn nvmlDeviceGetGpuFabricInfoV(device: Handle, gpu_fabric_info: *mut c_void) {
        devices::device(device)?;
        Out::new(gpu_fabric_info, "gpuFabricInfo")?;
        not_supported("nvmlDeviceGetGpuFabricInfoV", device, "the CPU device is on no NVLink fabric")
    }

    /// `nvmlDeviceGetNvLinkState(nvmlDevice_t device, unsigned int link, nvmlEnableState_t* isActive)`.
    fn nvmlDeviceGetNvLinkState(device: Handle, _link: c_uint, is_active: *mut c_uint) {
        devices::device(device)?;
        Out::new(is_active, "isActive")?;
        not_supported("nvmlDeviceGetNvLinkState", device, "the CPU device has no NvLink")
    }

    /// `nvmlDeviceGetNvLinkVersion(nvmlDevice_t device, unsigned int link, unsigned int* version)`.
    fn nvmlDeviceGetNvLinkVersion(device: Handle, _link: c_uint, version: *mut c_uint) {
        devices::device(device)?;
        Out::new(version, "version")?;
        not_supported("nvmlDeviceGetNvLinkVersion", device, "the CPU device has no NvLink")
    }

    /// `nvmlDeviceGetNvLinkCapability(nvmlDevice_t device, unsigned int link,
    /// nvmlNvLinkCapability_t capability, unsigned int* capResult)`.
    fn nvmlDeviceGetNvLinkCapability(device: Handle, _link: c_uint, _capability: c_uint, cap_result: *mut c_uint) {
        devices::device(device)?;
        Out::new(cap_result, "capResult")?;
        not_supported("nvmlDeviceGetNvLinkCapability", device, "the CPU device has no NvLink")
    }

    /// `nvmlDeviceGetNvLinkRemoteDeviceType(nvmlDevice_t device, unsigned int link,
    /// nvmlIntNvLinkDeviceType_t* pNvLinkDeviceType)`.
    fn nvmlDeviceGetNvLinkRemoteDeviceType(device: Handle, _link: c_uint, device_type: *mut c_uint) {
        devices::device(device)?;
        Out::new(device_type, "pNvLinkDeviceType")?;
        not_supported("nvmlDeviceGetNvLinkRemoteDeviceType", device, "the CPU device has no NvLink")
    }

    /// `nvmlDeviceGetNvLinkRemotePciInfo_v2(nvmlDevice_t device, unsigned int link, nvmlPciInfo_t* pci)`.
    fn nvmlDeviceGetNvLinkRemotePciInfo_v2(device: Handle, _link: c_uint, pci: *mut PciInfo) {
        devices::device(device)?;
        Out::new(pci, "pci")?;
        not_supported("nvmlDeviceGetNvLinkRemotePciInfo_v2", device, "the CPU device has no NvLink")
    }

    /// `nvmlDeviceGetTemperature(nvmlDevice_t device, nvmlTemperatureSensors_t sensorType, unsigned int* temp)`.
    fn nvmlDeviceGetTemperature(device: Handle, _sensor_type: c_uint, temp: *mut c_uint) {
        devices::device(device)?;
        Out::new(temp, "temp")?;
        not_supported("nvmlDeviceGetTemperature", device, "the driver reads no temperature sensor")
    }

    /// `nvmlDeviceGetPowerUsage(nvmlDevice_t device, unsigned int* power)`.
    fn nvmlDeviceGetPowerUsage(device: Handle, power: *mut c_uint) {
        devices::device(device)?;
        Out::new(power, "power")?;
        not_supported("nvmlDeviceGetPowerUsage", device, "the driver measures no power draw")
    }

    /// `nvmlDeviceGetClockInfo(nvmlDevice_t device, nvmlClockType_t type, unsigned int* clock)`:
    /// the current clocks are not measured (`nvmlDeviceGetMaxClockInfo` gives the driver's rates).
    fn nvmlDeviceGetClockInfo(device: Handle, _clock_type: c_uint, clock: *mut c_uint) {
        devices::device(device)?;
        Out::new(clock, "clock")?;
        not_supported("nvmlDeviceGetClockInfo", device, "the driver measures no current clock")
    }

    /// `nvmlDeviceGetMigMode(nvmlDevice_t device, unsigned int* currentMode, unsigned int* pendingMode)`.
    fn nvmlDeviceGetMigMode(device: Handle, current_mode: *mut c_uint, pending_mode: *mut c_uint) {
        devices::device(device)?;
        Out::new(current_mode, "currentMode")?;
        Out::new(pending_mode, "pendingMode")?;
        not_supported("nvmlDeviceGetMigMode", device, "the CPU device has no MIG mode")
    }

    /// `nvmlDeviceGetNumaNodeId(nvmlDevice_t device, unsigned int* node)`: NVIDIA's answer
    /// for a GPU that is not a NUMA node of its own.
    fn nvmlDeviceGetNumaNodeId(device: Handle, node: *mut c_uint) {
        devices::device(device)?;
        Out::new(node, "node")?;
        not_supported("nvmlDeviceGetNumaNodeId", device, "the CPU device is not a NUMA node of its own")
    }
}
