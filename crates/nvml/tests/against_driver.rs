//! The built `libnvidia-ml` (cargo's `libnvml.so` beside this test) against the built
//! `libcuda.so` (crate cuda-abi), both loaded as a program loads them, with
//! `CUDA_CPU_DEVICES=2`. Every expectation is asked from the driver's own entry points
//! (count, names, UUID bytes, PCI bus ids, total memory, compute capability, driver
//! version, peer access) and formatted here, never taken from the NVML code.
//!
//! The driver is opened first, by path and `RTLD_GLOBAL`: its soname is `libcuda.so.1`,
//! so NVML's `dlopen("libcuda.so.1")` finds it already loaded. NVML's state is process
//! wide, so the tests take one lock; the calls made before the first `nvmlInit` are checked
//! when the libraries are opened, before any test initializes NVML.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr, CString};
use std::path::PathBuf;
use std::process::Command;
use std::sync::{Mutex, MutexGuard, OnceLock};

use libloading::os::unix::{Library, RTLD_GLOBAL, RTLD_NOW};

const SUCCESS: c_int = 0;
const UNINITIALIZED: c_int = 1;
const INVALID_ARGUMENT: c_int = 2;
const NOT_SUPPORTED: c_int = 3;
const NOT_FOUND: c_int = 6;
const INSUFFICIENT_SIZE: c_int = 7;
const ARGUMENT_VERSION_MISMATCH: c_int = 25;

/// The device count `CUDA_CPU_DEVICES` asks for.
const DEVICES: i32 = 2;

type Handle = *mut c_void;

/// `nvmlPciInfo_t`, as NVML's reference lays it out.
#[repr(C)]
#[derive(Clone, Copy)]
struct PciInfo {
    bus_id_legacy: [c_char; 16],
    domain: c_uint,
    bus: c_uint,
    device: c_uint,
    pci_device_id: c_uint,
    pci_sub_system_id: c_uint,
    bus_id: [c_char; 32],
}

/// `nvmlMemory_t`.
#[repr(C)]
#[derive(Default)]
struct Memory {
    total: u64,
    free: u64,
    used: u64,
}

/// `nvmlMemory_v2_t`.
#[repr(C)]
#[derive(Default)]
struct MemoryV2 {
    version: c_uint,
    total: u64,
    reserved: u64,
    free: u64,
    used: u64,
}

struct Libs {
    cuda: Library,
    nvml: Library,
}

// SAFETY: library handles are process-wide; the lock serializes the tests' use.
unsafe impl Send for Libs {}

fn deps_dir() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

fn find(name: &str) -> PathBuf {
    let deps = deps_dir();
    [deps.join(name), deps.join("..").join(name)].into_iter().find(|p| p.exists()).unwrap_or_else(|| panic!("{name} not built beside the tests"))
}

/// A function of `lib` as the C type `T`.
fn sym<T: Copy>(lib: &Library, name: &str) -> T {
    // SAFETY: every caller names `T` as the C signature the API documents for `name`.
    unsafe { *lib.get::<T>(name.as_bytes()).unwrap_or_else(|e| panic!("{name}: {e}")) }
}

impl Libs {
    fn open() -> Libs {
        // Before the driver is loaded: it reads them at cuInit.
        std::env::set_var("CUDA_CPU_DEVICES", DEVICES.to_string());
        std::env::set_var("CUDA_BACKEND", "cpu");
        // SAFETY: our libraries' initializers are Rust statics.
        let cuda = unsafe { Library::open(Some(find("libcuda.so")), RTLD_NOW | RTLD_GLOBAL) }.expect("libcuda.so");
        // SAFETY: as above.
        let nvml = unsafe { Library::open(Some(find("libnvml.so")), RTLD_NOW) }.expect("libnvml.so");
        let libs = Libs { cuda, nvml };
        libs.uninitialized_calls_are_refused(None);
        libs
    }

    // --- the driver, for expectations ---

    fn cu(&self, result: c_int, what: &str) {
        assert_eq!(result, 0, "driver call {what}");
    }

    fn drv_count(&self) -> i32 {
        // SAFETY: no pointers.
        self.cu(unsafe { sym::<unsafe extern "C" fn(c_uint) -> c_int>(&self.cuda, "cuInit")(0) }, "cuInit");
        let mut n = 0;
        // SAFETY: valid out-pointer.
        self.cu(unsafe { sym::<unsafe extern "C" fn(*mut c_int) -> c_int>(&self.cuda, "cuDeviceGetCount")(&mut n) }, "cuDeviceGetCount");
        n
    }

    fn drv_name(&self, dev: i32) -> String {
        let mut buf = [0 as c_char; 256];
        let f = sym::<unsafe extern "C" fn(*mut c_char, c_int, c_int) -> c_int>(&self.cuda, "cuDeviceGetName");
        // SAFETY: a 256-byte buffer.
        self.cu(unsafe { f(buf.as_mut_ptr(), 256, dev) }, "cuDeviceGetName");
        text(&buf)
    }

    fn drv_uuid(&self, dev: i32) -> [u8; 16] {
        let mut uuid = [0u8; 16];
        let f = sym::<unsafe extern "C" fn(*mut [u8; 16], c_int) -> c_int>(&self.cuda, "cuDeviceGetUuid");
        // SAFETY: a 16-byte CUuuid.
        self.cu(unsafe { f(&mut uuid, dev) }, "cuDeviceGetUuid");
        uuid
    }

    fn drv_pci_bus_id(&self, dev: i32) -> String {
        let mut buf = [0 as c_char; 64];
        let f = sym::<unsafe extern "C" fn(*mut c_char, c_int, c_int) -> c_int>(&self.cuda, "cuDeviceGetPCIBusId");
        // SAFETY: a 64-byte buffer.
        self.cu(unsafe { f(buf.as_mut_ptr(), 64, dev) }, "cuDeviceGetPCIBusId");
        text(&buf)
    }

    fn drv_by_pci_bus_id(&self, id: &str) -> i32 {
        let (mut dev, id) = (-1, CString::new(id).unwrap());
        let f = sym::<unsafe extern "C" fn(*mut c_int, *const c_char) -> c_int>(&self.cuda, "cuDeviceGetByPCIBusId");
        // SAFETY: a valid string and out-pointer.
        self.cu(unsafe { f(&mut dev, id.as_ptr()) }, "cuDeviceGetByPCIBusId");
        dev
    }

    fn drv_total_mem(&self, dev: i32) -> u64 {
        let mut bytes = 0usize;
        let f = sym::<unsafe extern "C" fn(*mut usize, c_int) -> c_int>(&self.cuda, "cuDeviceTotalMem_v2");
        // SAFETY: valid out-pointer.
        self.cu(unsafe { f(&mut bytes, dev) }, "cuDeviceTotalMem_v2");
        bytes as u64
    }

    /// `cuMemGetInfo` with the device's primary context current.
    fn drv_free_mem(&self, dev: i32) -> u64 {
        let mut ctx: *mut c_void = std::ptr::null_mut();
        let (mut free, mut total) = (0usize, 0usize);
        // SAFETY: valid out-pointers; the context is pushed, popped and released again.
        unsafe {
            self.cu(sym::<unsafe extern "C" fn(*mut *mut c_void, c_int) -> c_int>(&self.cuda, "cuDevicePrimaryCtxRetain")(&mut ctx, dev), "retain");
            self.cu(sym::<unsafe extern "C" fn(*mut c_void) -> c_int>(&self.cuda, "cuCtxPushCurrent_v2")(ctx), "push");
            self.cu(
                sym::<unsafe extern "C" fn(*mut usize, *mut usize) -> c_int>(&self.cuda, "cuMemGetInfo_v2")(&mut free, &mut total),
                "cuMemGetInfo",
            );
            self.cu(sym::<unsafe extern "C" fn(*mut *mut c_void) -> c_int>(&self.cuda, "cuCtxPopCurrent_v2")(&mut ctx), "pop");
            self.cu(sym::<unsafe extern "C" fn(c_int) -> c_int>(&self.cuda, "cuDevicePrimaryCtxRelease_v2")(dev), "release");
        }
        free as u64
    }

    fn drv_capability(&self, dev: i32) -> (i32, i32) {
        let (mut major, mut minor) = (0, 0);
        let f = sym::<unsafe extern "C" fn(*mut c_int, *mut c_int, c_int) -> c_int>(&self.cuda, "cuDeviceComputeCapability");
        // SAFETY: valid out-pointers.
        self.cu(unsafe { f(&mut major, &mut minor, dev) }, "cuDeviceComputeCapability");
        (major, minor)
    }

    fn drv_attribute(&self, dev: i32, attribute: c_int) -> i32 {
        let mut v = 0;
        let f = sym::<unsafe extern "C" fn(*mut c_int, c_int, c_int) -> c_int>(&self.cuda, "cuDeviceGetAttribute");
        // SAFETY: valid out-pointer.
        self.cu(unsafe { f(&mut v, attribute, dev) }, "cuDeviceGetAttribute");
        v
    }

    fn drv_version(&self) -> i32 {
        let mut v = 0;
        // SAFETY: valid out-pointer.
        self.cu(unsafe { sym::<unsafe extern "C" fn(*mut c_int) -> c_int>(&self.cuda, "cuDriverGetVersion")(&mut v) }, "cuDriverGetVersion");
        v
    }

    fn drv_can_access_peer(&self, dev: i32, peer: i32) -> bool {
        let mut can = 0;
        let f = sym::<unsafe extern "C" fn(*mut c_int, c_int, c_int) -> c_int>(&self.cuda, "cuDeviceCanAccessPeer");
        // SAFETY: valid out-pointer.
        self.cu(unsafe { f(&mut can, dev, peer) }, "cuDeviceCanAccessPeer");
        can != 0
    }

    // --- NVML ---

    fn init(&self) -> c_int {
        // SAFETY: no arguments.
        unsafe { sym::<unsafe extern "C" fn() -> c_int>(&self.nvml, "nvmlInit_v2")() }
    }

    fn shutdown(&self) -> c_int {
        // SAFETY: no arguments.
        unsafe { sym::<unsafe extern "C" fn() -> c_int>(&self.nvml, "nvmlShutdown")() }
    }

    fn count(&self, name: &str, out: *mut c_uint) -> c_int {
        // SAFETY: NULL or a valid out-pointer.
        unsafe { sym::<unsafe extern "C" fn(*mut c_uint) -> c_int>(&self.nvml, name)(out) }
    }

    fn handle_by_index(&self, name: &str, index: c_uint, out: *mut Handle) -> c_int {
        // SAFETY: NULL or a valid out-pointer.
        unsafe { sym::<unsafe extern "C" fn(c_uint, *mut Handle) -> c_int>(&self.nvml, name)(index, out) }
    }

    fn handle_by_str(&self, name: &str, s: *const c_char, out: *mut Handle) -> c_int {
        // SAFETY: NULL or a string, NULL or a valid out-pointer.
        unsafe { sym::<unsafe extern "C" fn(*const c_char, *mut Handle) -> c_int>(&self.nvml, name)(s, out) }
    }

    /// A string query `f(device, buf, length)`.
    fn device_text(&self, name: &str, device: Handle, buf: *mut c_char, length: c_uint) -> c_int {
        // SAFETY: NULL or a buffer of `length` bytes.
        unsafe { sym::<unsafe extern "C" fn(Handle, *mut c_char, c_uint) -> c_int>(&self.nvml, name)(device, buf, length) }
    }

    fn device_out<T>(&self, name: &str, device: Handle, out: *mut T) -> c_int {
        // SAFETY: NULL or a valid out-pointer of the type the call fills.
        unsafe { sym::<unsafe extern "C" fn(Handle, *mut T) -> c_int>(&self.nvml, name)(device, out) }
    }

    fn system_text(&self, name: &str, buf: *mut c_char, length: c_uint) -> c_int {
        // SAFETY: NULL or a buffer of `length` bytes.
        unsafe { sym::<unsafe extern "C" fn(*mut c_char, c_uint) -> c_int>(&self.nvml, name)(buf, length) }
    }

    fn cuda_version(&self, name: &str, out: *mut c_int) -> c_int {
        // SAFETY: NULL or a valid out-pointer.
        unsafe { sym::<unsafe extern "C" fn(*mut c_int) -> c_int>(&self.nvml, name)(out) }
    }

    fn handle(&self, index: u32) -> Handle {
        let mut h: Handle = std::ptr::null_mut();
        assert_eq!(self.handle_by_index("nvmlDeviceGetHandleByIndex_v2", index, &mut h), SUCCESS);
        assert!(!h.is_null());
        h
    }

    /// Every call answers `NVML_ERROR_UNINITIALIZED` (`stale`: a handle from an earlier
    /// initialization, also refused).
    fn uninitialized_calls_are_refused(&self, stale: Option<Handle>) {
        let mut n: c_uint = 77;
        assert_eq!(self.count("nvmlDeviceGetCount_v2", &mut n), UNINITIALIZED);
        assert_eq!(self.count("nvmlDeviceGetCount", &mut n), UNINITIALIZED);
        assert_eq!(n, 77, "nothing written");
        let mut h: Handle = std::ptr::null_mut();
        assert_eq!(self.handle_by_index("nvmlDeviceGetHandleByIndex_v2", 0, &mut h), UNINITIALIZED);
        assert_eq!(self.handle_by_str("nvmlDeviceGetHandleByPciBusId_v2", c"0000:00:00.0".as_ptr(), &mut h), UNINITIALIZED);
        assert!(h.is_null());
        let mut v = 0;
        assert_eq!(self.cuda_version("nvmlSystemGetCudaDriverVersion_v2", &mut v), UNINITIALIZED);
        let mut buf = [0 as c_char; 96];
        assert_eq!(self.system_text("nvmlSystemGetDriverVersion", buf.as_mut_ptr(), 96), UNINITIALIZED);
        let handle = stale.unwrap_or(std::ptr::null_mut());
        assert_eq!(self.device_text("nvmlDeviceGetName", handle, buf.as_mut_ptr(), 96), UNINITIALIZED);
        assert_eq!(self.device_out("nvmlDeviceGetGpuFabricInfoV", handle, buf.as_mut_ptr()), UNINITIALIZED);
        assert_eq!(self.shutdown(), UNINITIALIZED);
        // nvmlErrorString needs no initialization.
        assert_eq!(error_string(&self.nvml, UNINITIALIZED), "Uninitialized");
    }
}

fn text(buf: &[c_char]) -> String {
    // SAFETY: NUL-terminated within the buffer (checked by the callers' lengths).
    unsafe { CStr::from_ptr(buf.as_ptr()) }.to_str().unwrap().to_string()
}

fn error_string(nvml: &Library, code: c_int) -> String {
    let f = sym::<unsafe extern "C" fn(c_int) -> *const c_char>(nvml, "nvmlErrorString");
    // SAFETY: returns a static string.
    unsafe { CStr::from_ptr(f(code)) }.to_str().unwrap().to_string()
}

/// The test's own formatting of a UUID as NVML prints it.
fn uuid_text(b: &[u8; 16]) -> String {
    let h = |r: std::ops::Range<usize>| b[r].iter().map(|x| format!("{x:02x}")).collect::<String>();
    format!("GPU-{}-{}-{}-{}-{}", h(0..4), h(4..6), h(6..8), h(8..10), h(10..16))
}

/// (domain, bus, device) of a `domain:bus:device.function` text.
fn parse_bus_id(s: &str) -> (u32, u32, u32) {
    let (head, _) = s.rsplit_once('.').unwrap();
    let v: Vec<u32> = head.split(':').map(|p| u32::from_str_radix(p, 16).unwrap()).collect();
    (v[0], v[1], v[2])
}

fn libs() -> MutexGuard<'static, Libs> {
    static LIBS: OnceLock<Mutex<Libs>> = OnceLock::new();
    LIBS.get_or_init(|| Mutex::new(Libs::open())).lock().unwrap_or_else(|p| p.into_inner())
}

#[test]
fn devices_are_the_drivers_devices() {
    let l = libs();
    assert_eq!(l.init(), SUCCESS);
    let count = l.drv_count();
    assert_eq!(count, DEVICES, "CUDA_CPU_DEVICES=2");
    let (mut n, mut n1) = (0, 0);
    assert_eq!(l.count("nvmlDeviceGetCount_v2", &mut n), SUCCESS);
    assert_eq!(l.count("nvmlDeviceGetCount", &mut n1), SUCCESS);
    assert_eq!((n as i32, n1 as i32), (count, count));

    for dev in 0..count {
        let h = l.handle(dev as u32);
        let mut h1: Handle = std::ptr::null_mut();
        assert_eq!(l.handle_by_index("nvmlDeviceGetHandleByIndex", dev as u32, &mut h1), SUCCESS);
        assert_eq!(h1, h, "v1 and v2 give the same handle");
        let mut index = 99;
        assert_eq!(l.device_out("nvmlDeviceGetIndex", h, &mut index), SUCCESS);
        assert_eq!(index, dev as c_uint);

        let mut buf = [0 as c_char; 96];
        assert_eq!(l.device_text("nvmlDeviceGetName", h, buf.as_mut_ptr(), 96), SUCCESS);
        assert_eq!(text(&buf), l.drv_name(dev));

        let uuid = uuid_text(&l.drv_uuid(dev));
        assert_eq!(l.device_text("nvmlDeviceGetUUID", h, buf.as_mut_ptr(), 96), SUCCESS);
        assert_eq!(text(&buf), uuid);
        let mut by_uuid: Handle = std::ptr::null_mut();
        let c_uuid = CString::new(uuid.clone()).unwrap();
        assert_eq!(l.handle_by_str("nvmlDeviceGetHandleByUUID", c_uuid.as_ptr(), &mut by_uuid), SUCCESS);
        assert_eq!(by_uuid, h);

        let drv_bus_id = l.drv_pci_bus_id(dev);
        let drv_loc = parse_bus_id(&drv_bus_id);
        for name in ["nvmlDeviceGetPciInfo_v3", "nvmlDeviceGetPciInfo_v2"] {
            // SAFETY: plain integers and byte arrays.
            let mut pci: PciInfo = unsafe { std::mem::zeroed() };
            assert_eq!(l.device_out(name, h, &mut pci), SUCCESS);
            assert_eq!((pci.domain, pci.bus, pci.device), drv_loc, "{name}");
            assert!(text(&pci.bus_id_legacy).eq_ignore_ascii_case(&drv_bus_id), "{name}: legacy {} vs {drv_bus_id}", text(&pci.bus_id_legacy));
            let bus_id = text(&pci.bus_id);
            assert_eq!(parse_bus_id(&bus_id), drv_loc, "{name}: {bus_id}");
            assert_eq!(l.drv_by_pci_bus_id(&bus_id), dev, "the driver finds the device at NVML's bus id");
            for id in [bus_id.clone(), drv_bus_id.clone(), drv_bus_id.to_uppercase()] {
                let c_id = CString::new(id.clone()).unwrap();
                for lookup in ["nvmlDeviceGetHandleByPciBusId_v2", "nvmlDeviceGetHandleByPciBusId"] {
                    let mut by_pci: Handle = std::ptr::null_mut();
                    assert_eq!(l.handle_by_str(lookup, c_id.as_ptr(), &mut by_pci), SUCCESS, "{lookup}({id})");
                    assert_eq!(by_pci, h, "{lookup}({id})");
                }
            }
        }
        // The v1 layout: a 16-byte busId and the same words; the reserved words untouched.
        let mut v1 = [0xa5u8; 52];
        assert_eq!(l.device_out("nvmlDeviceGetPciInfo", h, v1.as_mut_ptr()), SUCCESS);
        let v1_id = text(&v1[..16].iter().map(|&b| b as c_char).collect::<Vec<_>>());
        assert!(v1_id.eq_ignore_ascii_case(&drv_bus_id));
        let word = |i: usize| u32::from_ne_bytes(v1[16 + 4 * i..20 + 4 * i].try_into().unwrap());
        assert_eq!((word(0), word(1), word(2)), drv_loc);
        assert!(v1[36..].iter().all(|&b| b == 0xa5), "reserved words written");

        let total = l.drv_total_mem(dev);
        let mut m = Memory::default();
        assert_eq!(l.device_out("nvmlDeviceGetMemoryInfo", h, &mut m), SUCCESS);
        assert_eq!(m.total, total);
        assert_eq!(m.free + m.used, m.total);
        assert!(m.free > 0 && m.free <= total);
        // Free memory is the driver's cuMemGetInfo answer, taken at another moment.
        let drv_free = l.drv_free_mem(dev);
        assert!(m.free.abs_diff(drv_free) < total / 4, "NVML free {} vs driver free {drv_free}", m.free);
        let mut m2 = MemoryV2 { version: 40 | (2 << 24), ..Default::default() };
        assert_eq!(l.device_out("nvmlDeviceGetMemoryInfo_v2", h, &mut m2), SUCCESS);
        assert_eq!((m2.total, m2.reserved, m2.free + m2.used), (total, 0, total));
        let mut bad = MemoryV2 { version: 1, ..Default::default() };
        assert_eq!(l.device_out("nvmlDeviceGetMemoryInfo_v2", h, &mut bad), ARGUMENT_VERSION_MISMATCH);

        let (mut major, mut minor) = (0, 0);
        let f = sym::<unsafe extern "C" fn(Handle, *mut c_int, *mut c_int) -> c_int>(&l.nvml, "nvmlDeviceGetCudaComputeCapability");
        // SAFETY: valid out-pointers.
        assert_eq!(unsafe { f(h, &mut major, &mut minor) }, SUCCESS);
        assert_eq!((major, minor), l.drv_capability(dev));
        // SAFETY: NULL outputs are refused before any write.
        assert_eq!(unsafe { f(h, std::ptr::null_mut(), &mut minor) }, INVALID_ARGUMENT);

        // Maximum clocks in MHz: the driver's CLOCK_RATE (13) and MEMORY_CLOCK_RATE (36), in kHz.
        let f = sym::<unsafe extern "C" fn(Handle, c_uint, *mut c_uint) -> c_int>(&l.nvml, "nvmlDeviceGetMaxClockInfo");
        for (clock_type, attribute) in [(0, 13), (1, 13), (2, 36)] {
            let mut mhz = 0;
            // SAFETY: valid out-pointer.
            assert_eq!(unsafe { f(h, clock_type, &mut mhz) }, SUCCESS);
            assert_eq!(mhz as i32, l.drv_attribute(dev, attribute) / 1000, "clock type {clock_type}");
        }
        let mut mhz = 0;
        // SAFETY: as above.
        assert_eq!(unsafe { f(h, 3, &mut mhz) }, NOT_SUPPORTED, "no video clock");
        let mut mode = 99;
        assert_eq!(l.device_out("nvmlDeviceGetVirtualizationMode", h, &mut mode), SUCCESS);
        assert_eq!(mode, 0, "NVML_GPU_VIRTUALIZATION_MODE_NONE");

        // No process is listed; the array is not written.
        for name in ["nvmlDeviceGetComputeRunningProcesses", "nvmlDeviceGetComputeRunningProcesses_v2", "nvmlDeviceGetComputeRunningProcesses_v3"] {
            let f = sym::<unsafe extern "C" fn(Handle, *mut c_uint, *mut u8) -> c_int>(&l.nvml, name);
            let (mut n, mut infos) = (8, [0x5au8; 256]);
            // SAFETY: room for 8 entries of any version.
            assert_eq!(unsafe { f(h, &mut n, infos.as_mut_ptr()) }, SUCCESS, "{name}");
            assert_eq!(n, 0, "{name}");
            assert!(infos.iter().all(|&b| b == 0x5a));
            // SAFETY: NULL count refused.
            assert_eq!(unsafe { f(h, std::ptr::null_mut(), infos.as_mut_ptr()) }, INVALID_ARGUMENT, "{name}");
        }
    }

    // Peer status between the devices follows cuDeviceCanAccessPeer; NvLink is never there.
    let f = sym::<unsafe extern "C" fn(Handle, Handle, c_uint, *mut c_uint) -> c_int>(&l.nvml, "nvmlDeviceGetP2PStatus");
    let (h0, h1) = (l.handle(0), l.handle(1));
    let expect = if l.drv_can_access_peer(0, 1) { 0 } else { 5 };
    for (index, want) in [(0, expect), (1, expect), (2, 5), (4, expect)] {
        let mut status = 99;
        // SAFETY: valid out-pointer.
        assert_eq!(unsafe { f(h0, h1, index, &mut status) }, SUCCESS);
        assert_eq!(status, want, "capability {index}");
    }
    let mut status = 99;
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { f(h0, h1, 99, &mut status) }, INVALID_ARGUMENT);

    let (mut v, mut v2) = (0, 0);
    assert_eq!(l.cuda_version("nvmlSystemGetCudaDriverVersion", &mut v), SUCCESS);
    assert_eq!(l.cuda_version("nvmlSystemGetCudaDriverVersion_v2", &mut v2), SUCCESS);
    assert_eq!((v, v2), (l.drv_version(), l.drv_version()));
    let mut buf = [0 as c_char; 80];
    assert_eq!(l.system_text("nvmlSystemGetNVMLVersion", buf.as_mut_ptr(), 80), SUCCESS);
    assert!(text(&buf).starts_with(&format!("{}.", l.drv_version() / 1000)), "{}", text(&buf));
    assert_eq!(l.system_text("nvmlSystemGetDriverVersion", buf.as_mut_ptr(), 80), SUCCESS);
    assert!(!text(&buf).is_empty());
    assert_eq!(l.shutdown(), SUCCESS);
}

#[test]
fn refused_arguments() {
    let l = libs();
    assert_eq!(l.init(), SUCCESS);
    let count = l.drv_count() as u32;
    let h = l.handle(0);
    let null = std::ptr::null_mut::<c_void>();
    let mut out: Handle = null;

    // NULL outputs and inputs.
    assert_eq!(l.count("nvmlDeviceGetCount_v2", std::ptr::null_mut()), INVALID_ARGUMENT);
    assert_eq!(l.handle_by_index("nvmlDeviceGetHandleByIndex_v2", 0, std::ptr::null_mut()), INVALID_ARGUMENT);
    assert_eq!(l.handle_by_str("nvmlDeviceGetHandleByUUID", std::ptr::null(), &mut out), INVALID_ARGUMENT);
    assert_eq!(l.handle_by_str("nvmlDeviceGetHandleByPciBusId_v2", std::ptr::null(), &mut out), INVALID_ARGUMENT);
    assert_eq!(l.handle_by_str("nvmlDeviceGetHandleByPciBusId_v2", c"0000:00:00.0".as_ptr(), std::ptr::null_mut()), INVALID_ARGUMENT);
    assert_eq!(l.device_text("nvmlDeviceGetName", h, std::ptr::null_mut(), 96), INVALID_ARGUMENT);
    assert_eq!(l.device_text("nvmlDeviceGetUUID", h, std::ptr::null_mut(), 96), INVALID_ARGUMENT);
    assert_eq!(l.device_out::<PciInfo>("nvmlDeviceGetPciInfo_v3", h, std::ptr::null_mut()), INVALID_ARGUMENT);
    assert_eq!(l.device_out::<Memory>("nvmlDeviceGetMemoryInfo", h, std::ptr::null_mut()), INVALID_ARGUMENT);
    assert_eq!(l.device_out::<c_uint>("nvmlDeviceGetIndex", h, std::ptr::null_mut()), INVALID_ARGUMENT);
    assert_eq!(l.cuda_version("nvmlSystemGetCudaDriverVersion_v2", std::ptr::null_mut()), INVALID_ARGUMENT);
    assert_eq!(l.system_text("nvmlSystemGetDriverVersion", std::ptr::null_mut(), 80), INVALID_ARGUMENT);

    // Bad indices and handles.
    for index in [count, count + 1, u32::MAX] {
        assert_eq!(l.handle_by_index("nvmlDeviceGetHandleByIndex_v2", index, &mut out), INVALID_ARGUMENT, "index {index}");
        assert_eq!(l.handle_by_index("nvmlDeviceGetHandleByIndex", index, &mut out), INVALID_ARGUMENT, "index {index}");
    }
    let mut local = 0u64;
    let forged = (&mut local as *mut u64).cast::<c_void>();
    let mut buf = [0 as c_char; 96];
    for bad in [null, forged, (h as usize + 1) as Handle] {
        assert_eq!(l.device_text("nvmlDeviceGetName", bad, buf.as_mut_ptr(), 96), INVALID_ARGUMENT);
        assert_eq!(l.device_out("nvmlDeviceGetMemoryInfo", bad, &mut Memory::default()), INVALID_ARGUMENT);
        assert_eq!(l.device_out("nvmlDeviceGetGpuFabricInfoV", bad, buf.as_mut_ptr()), INVALID_ARGUMENT);
    }
    assert_eq!(local, 0);

    // Lookups that find nothing, and malformed ids.
    let mut none: Handle = null;
    assert_eq!(l.handle_by_str("nvmlDeviceGetHandleByUUID", c"GPU-00000000-0000-0000-0000-000000000000".as_ptr(), &mut none), NOT_FOUND);
    assert_eq!(l.handle_by_str("nvmlDeviceGetHandleByPciBusId_v2", c"0000:7f:00.0".as_ptr(), &mut none), NOT_FOUND);
    assert_eq!(l.handle_by_str("nvmlDeviceGetHandleByPciBusId_v2", c"zz".as_ptr(), &mut none), INVALID_ARGUMENT);
    assert!(none.is_null());

    // Buffers one byte short of the text and its NUL: nothing written.
    let name = l.drv_name(0);
    let mut short = vec![0x11 as c_char; name.len() + 1];
    assert_eq!(l.device_text("nvmlDeviceGetName", h, short.as_mut_ptr(), name.len() as c_uint), INSUFFICIENT_SIZE);
    assert!(short.iter().all(|&c| c == 0x11));
    assert_eq!(l.device_text("nvmlDeviceGetName", h, short.as_mut_ptr(), name.len() as c_uint + 1), SUCCESS);
    assert_eq!(text(&short), name);
    assert_eq!(l.device_text("nvmlDeviceGetUUID", h, buf.as_mut_ptr(), 40), INSUFFICIENT_SIZE);
    assert_eq!(l.device_text("nvmlDeviceGetUUID", h, buf.as_mut_ptr(), 41), SUCCESS);
    assert_eq!(l.system_text("nvmlSystemGetDriverVersion", buf.as_mut_ptr(), 1), INSUFFICIENT_SIZE);

    // What the CPU device has not.
    assert_eq!(l.device_out("nvmlDeviceGetGpuFabricInfoV", h, buf.as_mut_ptr()), NOT_SUPPORTED);
    assert_eq!(l.device_out("nvmlDeviceGetUtilizationRates", h, buf.as_mut_ptr()), NOT_SUPPORTED);
    let f = sym::<unsafe extern "C" fn(Handle, c_uint, *mut c_char) -> c_int>(&l.nvml, "nvmlDeviceGetNvLinkRemoteDeviceType");
    // SAFETY: a valid out-pointer.
    assert_eq!(unsafe { f(h, 0, buf.as_mut_ptr()) }, NOT_SUPPORTED);
    let f = sym::<unsafe extern "C" fn(Handle, c_uint, *mut PciInfo) -> c_int>(&l.nvml, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
    // SAFETY: as above.
    assert_eq!(unsafe { f(h, 0, &mut std::mem::zeroed()) }, NOT_SUPPORTED);

    assert_eq!(error_string(&l.nvml, SUCCESS), "Success");
    assert_eq!(error_string(&l.nvml, NOT_SUPPORTED), "Not Supported");
    assert_eq!(error_string(&l.nvml, 12345), error_string(&l.nvml, 999));
    assert_eq!(l.shutdown(), SUCCESS);
}

#[test]
fn initialization_is_reference_counted() {
    let l = libs();
    assert_eq!(l.init(), SUCCESS);
    let h = l.handle(1);
    let init_flags = sym::<unsafe extern "C" fn(c_uint) -> c_int>(&l.nvml, "nvmlInitWithFlags");
    // SAFETY: no pointers.
    assert_eq!(unsafe { init_flags(1) }, SUCCESS);
    // SAFETY: no arguments.
    assert_eq!(unsafe { sym::<unsafe extern "C" fn() -> c_int>(&l.nvml, "nvmlInit")() }, SUCCESS);
    for _ in 0..2 {
        assert_eq!(l.shutdown(), SUCCESS);
        assert_eq!(l.handle(1), h, "still initialized, same handle");
    }
    assert_eq!(l.shutdown(), SUCCESS);
    l.uninitialized_calls_are_refused(Some(h));
    // Initialized again, the handles are the same.
    assert_eq!(l.init(), SUCCESS);
    assert_eq!(l.handle(1), h);
    assert_eq!(l.shutdown(), SUCCESS);
}

/// `LIBCUDA_LOG=1`: an unsupported query says so on stderr. Run in a child process (this
/// test again, with `NVML_TEST_CHILD` set) whose stderr is read.
#[test]
fn not_supported_is_logged() {
    if std::env::var_os("NVML_TEST_CHILD").is_some() {
        let l = libs();
        assert_eq!(l.init(), SUCCESS);
        let mut info = [0u8; 64];
        assert_eq!(l.device_out("nvmlDeviceGetGpuFabricInfoV", l.handle(0), info.as_mut_ptr()), NOT_SUPPORTED);
        assert_eq!(l.shutdown(), SUCCESS);
        return;
    }
    let out = Command::new(std::env::current_exe().unwrap())
        .args(["not_supported_is_logged", "--exact", "--nocapture", "--test-threads=1"])
        .env("NVML_TEST_CHILD", "1")
        .env("LIBCUDA_LOG", "1")
        .output()
        .unwrap();
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "child failed: {}{stderr}", String::from_utf8_lossy(&out.stdout));
    assert!(stderr.lines().any(|l| l.starts_with("[nvml] nvmlDeviceGetGpuFabricInfoV") && l.contains("Not Supported (3)")), "{stderr}");
}
