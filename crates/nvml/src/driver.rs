//! The driver NVML answers from: the process's `libcuda.so.1`, opened at run time and
//! reached only through its public C API, as safe functions returning the `CUresult`
//! of a failed call.

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::sync::OnceLock;

/// A failed driver call: its `CUresult`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CuError(pub c_int);

/// `CUDA_ERROR_INVALID_VALUE`.
pub const CUDA_ERROR_INVALID_VALUE: CuError = CuError(1);
/// `CUDA_ERROR_NO_DEVICE`.
pub const CUDA_ERROR_NO_DEVICE: CuError = CuError(100);
/// `CUDA_ERROR_INVALID_DEVICE`.
pub const CUDA_ERROR_INVALID_DEVICE: CuError = CuError(101);

/// `CUdevice_attribute`s asked for.
pub mod attribute {
    pub const CLOCK_RATE: i32 = 13;
    pub const PCI_BUS_ID: i32 = 33;
    pub const PCI_DEVICE_ID: i32 = 34;
    pub const MEMORY_CLOCK_RATE: i32 = 36;
    pub const PCI_DOMAIN_ID: i32 = 50;
    pub const COMPUTE_CAPABILITY_MAJOR: i32 = 75;
    pub const COMPUTE_CAPABILITY_MINOR: i32 = 76;
}

/// `CU_DEVICE_P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED`.
pub const P2P_ATTRIBUTE_NATIVE_ATOMIC_SUPPORTED: i32 = 3;

type CUresult = c_int;
type CUdevice = c_int;
type CUcontext = *mut c_void;

/// The driver functions NVML calls.
pub struct Libcuda {
    _lib: libloading::Library,
    init: unsafe extern "C" fn(flags: c_uint) -> CUresult,
    driver_get_version: unsafe extern "C" fn(version: *mut c_int) -> CUresult,
    device_get_count: unsafe extern "C" fn(count: *mut c_int) -> CUresult,
    device_get: unsafe extern "C" fn(device: *mut CUdevice, ordinal: c_int) -> CUresult,
    device_get_name: unsafe extern "C" fn(name: *mut c_char, len: c_int, dev: CUdevice) -> CUresult,
    device_get_uuid: unsafe extern "C" fn(uuid: *mut [u8; 16], dev: CUdevice) -> CUresult,
    device_get_by_pci_bus_id: unsafe extern "C" fn(dev: *mut CUdevice, id: *const c_char) -> CUresult,
    device_total_mem: unsafe extern "C" fn(bytes: *mut usize, dev: CUdevice) -> CUresult,
    device_get_attribute: unsafe extern "C" fn(value: *mut c_int, attribute: c_int, dev: CUdevice) -> CUresult,
    device_can_access_peer: unsafe extern "C" fn(can: *mut c_int, dev: CUdevice, peer: CUdevice) -> CUresult,
    device_get_p2p_attribute: unsafe extern "C" fn(value: *mut c_int, attribute: c_int, src: CUdevice, dst: CUdevice) -> CUresult,
    primary_ctx_retain: unsafe extern "C" fn(ctx: *mut CUcontext, dev: CUdevice) -> CUresult,
    primary_ctx_release: unsafe extern "C" fn(dev: CUdevice) -> CUresult,
    ctx_push_current: unsafe extern "C" fn(ctx: CUcontext) -> CUresult,
    ctx_pop_current: unsafe extern "C" fn(ctx: *mut CUcontext) -> CUresult,
    mem_get_info: unsafe extern "C" fn(free: *mut usize, total: *mut usize) -> CUresult,
}

// SAFETY: the fields are function addresses of a library that stays loaded, and the
// driver API is thread-safe.
unsafe impl Sync for Libcuda {}
unsafe impl Send for Libcuda {}

fn check(result: CUresult) -> Result<(), CuError> {
    if result == 0 {
        Ok(())
    } else {
        Err(CuError(result))
    }
}

impl Libcuda {
    fn open() -> Result<Libcuda, String> {
        let lib = libcuda_client::driver::open_library()?;
        /// Resolves one symbol as the field's function type.
        macro_rules! sym {
            ($name:literal) => {
                // SAFETY: the symbol is the driver API function of that name, whose C
                // signature the field's type spells.
                unsafe { libcuda_client::driver::symbol(&lib, $name) }?
            };
        }
        Ok(Libcuda {
            init: sym!("cuInit"),
            driver_get_version: sym!("cuDriverGetVersion"),
            device_get_count: sym!("cuDeviceGetCount"),
            device_get: sym!("cuDeviceGet"),
            device_get_name: sym!("cuDeviceGetName"),
            device_get_uuid: sym!("cuDeviceGetUuid_v2"),
            device_get_by_pci_bus_id: sym!("cuDeviceGetByPCIBusId"),
            device_total_mem: sym!("cuDeviceTotalMem_v2"),
            device_get_attribute: sym!("cuDeviceGetAttribute"),
            device_can_access_peer: sym!("cuDeviceCanAccessPeer"),
            device_get_p2p_attribute: sym!("cuDeviceGetP2PAttribute"),
            primary_ctx_retain: sym!("cuDevicePrimaryCtxRetain"),
            primary_ctx_release: sym!("cuDevicePrimaryCtxRelease_v2"),
            ctx_push_current: sym!("cuCtxPushCurrent_v2"),
            ctx_pop_current: sym!("cuCtxPopCurrent_v2"),
            mem_get_info: sym!("cuMemGetInfo_v2"),
            _lib: lib,
        })
    }

    /// `cuInit(0)`.
    pub fn init(&self) -> Result<(), CuError> {
        // SAFETY: no pointer arguments.
        check(unsafe { (self.init)(0) })
    }

    /// `cuDriverGetVersion`: the CUDA version the driver supports (1000 * major + 10 * minor).
    pub fn version(&self) -> Result<i32, CuError> {
        let mut v = 0;
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.driver_get_version)(&mut v) })?;
        Ok(v)
    }

    /// `cuDeviceGetCount`.
    pub fn device_count(&self) -> Result<i32, CuError> {
        let mut n = 0;
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.device_get_count)(&mut n) })?;
        Ok(n)
    }

    /// `cuDeviceGet(ordinal)`.
    pub fn device(&self, ordinal: i32) -> Result<i32, CuError> {
        let mut dev = 0;
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.device_get)(&mut dev, ordinal) })?;
        Ok(dev)
    }

    /// `cuDeviceGetName`.
    pub fn name(&self, dev: i32) -> Result<String, CuError> {
        let mut buf = [0 as c_char; 256];
        // SAFETY: `buf` holds `len` writable bytes; the driver NUL-terminates within them.
        check(unsafe { (self.device_get_name)(buf.as_mut_ptr(), buf.len() as c_int, dev) })?;
        // SAFETY: NUL-terminated within `buf` (the last byte is never written otherwise).
        Ok(unsafe { CStr::from_ptr(buf.as_ptr()) }.to_string_lossy().into_owned())
    }

    /// `cuDeviceGetUuid_v2`: the 16 bytes.
    pub fn uuid(&self, dev: i32) -> Result<[u8; 16], CuError> {
        let mut uuid = [0u8; 16];
        // SAFETY: `CUuuid` is 16 bytes.
        check(unsafe { (self.device_get_uuid)(&mut uuid, dev) })?;
        Ok(uuid)
    }

    /// `cuDeviceGetByPCIBusId`: the ordinal at that id (`INVALID_VALUE` when malformed,
    /// `INVALID_DEVICE` when no device is there).
    pub fn device_by_pci_bus_id(&self, id: &CStr) -> Result<i32, CuError> {
        let mut dev = 0;
        // SAFETY: a NUL-terminated string and a valid out-pointer.
        check(unsafe { (self.device_get_by_pci_bus_id)(&mut dev, id.as_ptr()) })?;
        Ok(dev)
    }

    /// `cuDeviceTotalMem_v2`.
    pub fn total_mem(&self, dev: i32) -> Result<u64, CuError> {
        let mut bytes = 0usize;
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.device_total_mem)(&mut bytes, dev) })?;
        Ok(bytes as u64)
    }

    /// `cuDeviceGetAttribute`.
    pub fn attribute(&self, dev: i32, attribute: i32) -> Result<i32, CuError> {
        let mut v = 0;
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.device_get_attribute)(&mut v, attribute, dev) })?;
        Ok(v)
    }

    /// `cuDeviceCanAccessPeer`.
    pub fn can_access_peer(&self, dev: i32, peer: i32) -> Result<bool, CuError> {
        let mut can = 0;
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.device_can_access_peer)(&mut can, dev, peer) })?;
        Ok(can != 0)
    }

    /// `cuDeviceGetP2PAttribute`.
    pub fn p2p_attribute(&self, attribute: i32, src: i32, dst: i32) -> Result<i32, CuError> {
        let mut v = 0;
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.device_get_p2p_attribute)(&mut v, attribute, src, dst) })?;
        Ok(v)
    }

    /// `cuMemGetInfo_v2` on `dev`: (free, total) as the driver reports them, asked under
    /// the device's primary context (retained, made current on this thread for the call,
    /// then given back; the caller's current context is restored).
    pub fn mem_info(&self, dev: i32) -> Result<(u64, u64), CuError> {
        let mut ctx: CUcontext = std::ptr::null_mut();
        // SAFETY: a valid out-pointer.
        check(unsafe { (self.primary_ctx_retain)(&mut ctx, dev) })?;
        let pushed = {
            // SAFETY: `ctx` is the primary context just retained.
            check(unsafe { (self.ctx_push_current)(ctx) })
        };
        let info = pushed.and_then(|()| {
            let (mut free, mut total) = (0usize, 0usize);
            // SAFETY: valid out-pointers; a context is current.
            let result = check(unsafe { (self.mem_get_info)(&mut free, &mut total) });
            let mut popped: CUcontext = std::ptr::null_mut();
            // SAFETY: pops the context pushed above.
            let pop = check(unsafe { (self.ctx_pop_current)(&mut popped) });
            result.and(pop).map(|()| (free as u64, total as u64))
        });
        // SAFETY: gives back the reference retained above.
        let release = check(unsafe { (self.primary_ctx_release)(dev) });
        let info = info?;
        release?;
        Ok(info)
    }
}

/// The process's driver, opened at the first call; `Err` says why it cannot be.
pub fn driver() -> Result<&'static Libcuda, &'static str> {
    static DRIVER: OnceLock<Result<Libcuda, String>> = OnceLock::new();
    DRIVER.get_or_init(Libcuda::open).as_ref().map_err(String::as_str)
}
