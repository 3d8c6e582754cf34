//! Device ranges as host memory.
//!
//! A library operand is a device address and the extent the operation touches. The
//! driver is asked which allocation holds it (`cuMemGetAddressRange_v2`) and where the
//! host sees it (`CU_POINTER_ATTRIBUTE_HOST_POINTER`): the whole extent must lie in one
//! allocation (a kernel reading past it would fault on NVIDIA's GPUs; here the call is
//! refused before any work is queued), and the device must let the host address it.

use std::ffi::c_void;
use std::fmt;

use crate::driver::{driver, CUdeviceptr};

/// `CU_POINTER_ATTRIBUTE_HOST_POINTER`.
const POINTER_ATTRIBUTE_HOST_POINTER: u32 = 4;

/// A host address of device memory (what [`host_range`] returns), to be dereferenced by
/// work queued in stream order on another thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Host(pub usize);

impl Host {
    pub fn ptr<T>(self) -> *mut T {
        self.0 as *mut T
    }
}

/// Why a device range cannot be used from the host.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AccessError {
    /// libcuda.so.1 could not be opened or lacks an entry point.
    NoDriver(String),
    /// No allocation holds the address (a NULL or stray pointer, or freed memory).
    Unregistered { ptr: u64 },
    /// The extent runs past the end of its allocation.
    OutOfRange { ptr: u64, bytes: usize, base: u64, size: usize },
    /// The allocation's device keeps its memory out of the host's reach (a GPU).
    NotHostAddressable { ptr: u64 },
}

impl fmt::Display for AccessError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AccessError::NoDriver(why) => write!(f, "{why}"),
            AccessError::Unregistered { ptr } => write!(f, "{ptr:#x} is not in any allocation"),
            AccessError::OutOfRange { ptr, bytes, base, size } => {
                write!(f, "{bytes} bytes at {ptr:#x} run past the allocation {base:#x}+{size}")
            }
            AccessError::NotHostAddressable { ptr } => {
                write!(f, "the memory at {ptr:#x} is on a device the host cannot address; this library runs on the CPU device only")
            }
        }
    }
}

/// The host address of the `bytes` bytes at device address `ptr`. A zero-length
/// extent is accepted at any address and yields a dangling, never-read pointer.
pub fn host_range(ptr: u64, bytes: usize) -> Result<*mut u8, AccessError> {
    if bytes == 0 {
        return Ok(std::ptr::NonNull::dangling().as_ptr());
    }
    let lib = driver().map_err(|e| AccessError::NoDriver(e.to_string()))?;
    let (mut base, mut size): (CUdeviceptr, usize) = (0, 0);
    // SAFETY: both out-pointers are valid locals.
    if unsafe { (lib.mem_get_address_range)(&mut base, &mut size, ptr) } != 0 {
        return Err(AccessError::Unregistered { ptr });
    }
    let end = ptr.checked_add(bytes as u64);
    if end.is_none_or(|end| end > base + size as u64) {
        return Err(AccessError::OutOfRange { ptr, bytes, base, size });
    }
    let mut host: *mut c_void = std::ptr::null_mut();
    // SAFETY: the attribute's C type is `void*`, which `host` is.
    let status = unsafe { (lib.pointer_get_attribute)((&mut host as *mut *mut c_void).cast(), POINTER_ATTRIBUTE_HOST_POINTER, ptr) };
    if status != 0 || host.is_null() {
        return Err(AccessError::NotHostAddressable { ptr });
    }
    Ok(host.cast())
}
