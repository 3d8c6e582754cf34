//! Copies and fills: `cuMemcpy*` (1D, 2D, 3D, sync and async) and `cuMemsetD*`.
//!
//! Each side of a copy is classified with the allocation registry:
//! - a device-side pointer of an explicit-direction copy (`HtoD`'s destination, `DtoH`'s
//!   source, both sides of `DtoD`) must lie, with its whole extent, inside one registered
//!   range, else `CUDA_ERROR_INVALID_VALUE`;
//! - under unified addressing (`cuMemcpy`, `CU_MEMORYTYPE_UNIFIED`) a registered pointer
//!   is whatever its range is and an unregistered one is host memory;
//! - backend memory is copied through `backend_api::Device`, host memory (pageable,
//!   pinned, registered) with plain memory copies;
//! - a `cuMemMap` mapping ([`crate::vmm`]) is host memory too, and must grant the access
//!   the copy needs (`cuMemSetAccess`: read for a source, read-write for a destination);
//!   a run of adjacent mappings is one range. Unmapped reserved address space is never
//!   host memory.
//!
//! Every copy and fill is an operation of a stream ([`crate::exec`]): the blocking calls
//! use the legacy default stream (their `_ptds` twins the per-thread one). When the call
//! returns follows CUDA's "API synchronization behavior":
//! - a copy from or to *pageable* host memory (not from `cuMemAllocHost`/`cuMemHostAlloc`
//!   or `cuMemHostRegister`), and a host-to-host copy, completes before the call returns,
//!   also in the `Async` variants (CUDA stages pageable memory synchronously);
//! - other `Async` copies, and blocking device-to-device copies, are queued and the call
//!   returns at once;
//! - other blocking copies (pinned host memory) complete before the call returns;
//! - fills (`cuMemsetD*`) complete before the blocking variants return; the `Async`
//!   variants are queued.
//!
//! A copy that completes before the call returns still runs in stream order: it waits
//! for the stream's earlier work (run on the calling thread when the stream is idle).

use std::ffi::c_void;
use std::sync::Arc;

use backend_api::{Device, DeviceError, DevicePtr};

use crate::context::Context;
use crate::diag::fail;
use crate::exec::{RunFn, Work};

/// Work that may run more than once (conditional graph node bodies).
pub(crate) type StepFn = Box<dyn Fn() -> Result<(), DeviceError> + Send>;
use crate::memory::{memory_type, MemoryKind};
use crate::{CuError, CuResult, Driver, StreamHandle};

pub mod batch;
mod fill;
mod linear;
mod region;

/// Which stream a copy or fill goes to, and whether the call is an `Async` one.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum On {
    /// A blocking call on this default stream (`LEGACY`, or `PER_THREAD` for `_ptds`).
    Blocking(StreamHandle),
    /// An `Async` call on this stream.
    Async(StreamHandle),
}

impl On {
    fn stream(self) -> StreamHandle {
        match self {
            On::Blocking(s) | On::Async(s) => s,
        }
    }
}

/// `CUDA_MEMCPY2D` (layout of the C struct, 128 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CudaMemcpy2D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: DevicePtr,
    pub src_array: *mut c_void,
    pub src_pitch: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: DevicePtr,
    pub dst_array: *mut c_void,
    pub dst_pitch: usize,
    pub width_in_bytes: usize,
    pub height: usize,
}

/// `CUDA_MEMCPY3D` (layout of the C struct, 200 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CudaMemcpy3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: DevicePtr,
    pub src_array: *mut c_void,
    pub reserved0: *mut c_void,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: DevicePtr,
    pub dst_array: *mut c_void,
    pub reserved1: *mut c_void,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

impl CudaMemcpy3D {
    /// All fields zero (null pointers).
    pub fn zeroed() -> CudaMemcpy3D {
        CudaMemcpy3D {
            src_x_in_bytes: 0,
            src_y: 0,
            src_z: 0,
            src_lod: 0,
            src_memory_type: 0,
            src_host: std::ptr::null(),
            src_device: 0,
            src_array: std::ptr::null_mut(),
            reserved0: std::ptr::null_mut(),
            src_pitch: 0,
            src_height: 0,
            dst_x_in_bytes: 0,
            dst_y: 0,
            dst_z: 0,
            dst_lod: 0,
            dst_memory_type: 0,
            dst_host: std::ptr::null_mut(),
            dst_device: 0,
            dst_array: std::ptr::null_mut(),
            reserved1: std::ptr::null_mut(),
            dst_pitch: 0,
            dst_height: 0,
            width_in_bytes: 0,
            height: 0,
            depth: 0,
        }
    }
}

/// One side of a copy to or from a CUDA array by byte offset (`cuMemcpyHtoA` and friends).
#[derive(Clone, Copy, Debug)]
pub enum ArraySide {
    Host(*const c_void),
    Device(DevicePtr),
    /// A `CUarray` and a byte offset into it.
    Array(u64, usize),
}

const _: () = assert!(std::mem::size_of::<CudaMemcpy2D>() == 128);
const _: () = assert!(std::mem::size_of::<CudaMemcpy3D>() == 200);

/// What a copy or fill does to one side: mapped memory must grant it (`CUmemAccess_flags`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Access {
    Read = 1,
    Write = 3,
}

/// Where bytes live.
#[derive(Clone, Copy, Debug)]
enum Loc {
    /// Backend memory of a device.
    Backend(usize, DevicePtr),
    /// Host memory; `true` if pinned (allocated or registered through the driver).
    Host(*mut u8, bool),
}

impl Loc {
    fn offset(self, by: usize) -> Loc {
        match self {
            Loc::Backend(dev, addr) => Loc::Backend(dev, addr.wrapping_add(by as u64)),
            Loc::Host(p, pinned) => Loc::Host(p.wrapping_add(by), pinned),
        }
    }
}

/// A strided region: `depth` slices of `height` rows of `width` bytes.
#[derive(Clone, Copy)]
struct Shape {
    width: usize,
    height: usize,
    depth: usize,
}

impl Shape {
    fn extent(self, pitch: usize, slice: usize) -> Option<usize> {
        if self.width == 0 || self.height == 0 || self.depth == 0 {
            return Some(0);
        }
        (self.depth - 1).checked_mul(slice)?.checked_add((self.height - 1).checked_mul(pitch)?)?.checked_add(self.width)
    }
}

/// A validated copy: rows of `(destination, source, bytes)`, ready to run on any thread.
struct CopyPlan {
    rows: Vec<(Loc, Loc, usize)>,
    backends: Vec<Arc<dyn Device>>,
}

// SAFETY: the host pointers are the caller's, who keeps them valid until the copy has run
// (the API contract of the asynchronous copies); the plan is run exactly once.
unsafe impl Send for CopyPlan {}

impl CopyPlan {
    fn sides(&self) -> impl Iterator<Item = Loc> + '_ {
        self.rows.iter().flat_map(|&(d, s, _)| [d, s])
    }

    /// Whether a side is pageable host memory.
    fn pageable(&self) -> bool {
        self.sides().any(|l| matches!(l, Loc::Host(_, false)))
    }

    fn host_only(&self) -> bool {
        self.sides().all(|l| matches!(l, Loc::Host(..)))
    }

    fn device_only(&self) -> bool {
        self.sides().all(|l| matches!(l, Loc::Backend(..)))
    }

    /// # Safety
    /// Host locations must be valid for their rows.
    unsafe fn run(&self) -> Result<(), DeviceError> {
        for &(dst, src, n) in &self.rows {
            if n == 0 {
                continue;
            }
            // SAFETY (every arm): host sides are valid (caller), device sides were
            // validated against the registry when the plan was made.
            unsafe {
                match (dst, src) {
                    (Loc::Host(d, _), Loc::Host(s, _)) => std::ptr::copy(s, d, n),
                    (Loc::Backend(dev, d), Loc::Host(s, _)) => self.backends[dev].copy_to_device(d, s, n)?,
                    (Loc::Host(d, _), Loc::Backend(dev, s)) => self.backends[dev].copy_from_device(d, s, n)?,
                    (Loc::Backend(dd, d), Loc::Backend(sd, s)) if dd == sd => self.backends[dd].copy_device_to_device(d, s, n)?,
                    (Loc::Backend(dd, d), Loc::Backend(sd, s)) => {
                        let mut staging = vec![0u8; n];
                        self.backends[sd].copy_from_device(staging.as_mut_ptr(), s, n)?;
                        self.backends[dd].copy_to_device(d, staging.as_ptr(), n)?;
                    }
                }
            }
        }
        Ok(())
    }
}

impl Driver {
    /// The location of `[addr, addr + len)`, which must be registered memory.
    fn device_loc(&self, addr: DevicePtr, len: usize, access: Access, what: &str) -> CuResult<Loc> {
        match self.memory.find_range(addr, len as u64) {
            Some(Ok(a)) if a.kind.is_backend() => Ok(Loc::Backend(a.device, addr)),
            Some(Ok(a)) if a.kind == MemoryKind::Mapped && a.flags & access as u32 != access as u32 => {
                Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {addr:#x}+{len} is mapped with access {} ({access:?} needed)", a.flags)))
            }
            Some(Ok(_)) => Ok(Loc::Host(addr as usize as *mut u8, true)),
            Some(Err(a)) => {
                Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {addr:#x}+{len} runs past the end of allocation {:#x}+{}", a.base, a.size)))
            }
            None => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {addr:#x} is not device memory"))),
        }
    }

    /// Unified addressing: registered memory as registered, reserved address space that is
    /// not mapped an error, anything else host memory.
    fn unified_loc(&self, addr: u64, len: usize, access: Access, what: &str) -> CuResult<Loc> {
        match self.memory.find(addr) {
            Some(_) => self.device_loc(addr, len, access, what),
            None if self.unmapped_reserved(addr) => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {addr:#x} is reserved but not mapped"))),
            None => Ok(Loc::Host(addr as usize as *mut u8, false)),
        }
    }

    /// A host pointer of an explicit-direction copy: pinned if the whole range is pinned
    /// or registered host memory.
    fn host_loc(&self, p: *const c_void, len: usize) -> Loc {
        let pinned = matches!(
            self.memory.find_range(p as usize as u64, len as u64),
            Some(Ok(a)) if matches!(a.kind, MemoryKind::HostAlloc | MemoryKind::HostRegistered)
        );
        Loc::Host(p as *mut u8, pinned)
    }

    fn backends(&self) -> Vec<Arc<dyn Device>> {
        self.devices.iter().map(|d| d.backend.clone()).collect()
    }

    /// Runs or queues a copy on its stream, as the module docs describe; on a capturing
    /// stream, adds a memcpy node described by `desc` instead ([`crate::graph::capture`]).
    fn copy(&self, ctx: &Context, on: On, plan: CopyPlan, desc: &CudaMemcpy3D) -> CuResult<()> {
        let (_, q) = self.stream_queue(on.stream())?;
        if self.capture_gate(ctx, &q, matches!(on, On::Blocking(_)))? {
            let params = crate::graph::MemcpyParams { copy: *desc, ctx: ctx.handle };
            return self.capture_node(&q, crate::graph::NodeParams::Memcpy(params));
        }
        let wait = plan.pageable() || plan.host_only() || matches!(on, On::Blocking(_)) && !plan.device_only();
        // SAFETY: the host sides are valid until the copy has run (API contract; for
        // waited copies we return only after it ran).
        let run: RunFn = Box::new(move || unsafe { plan.run() });
        if wait {
            self.submit_and_wait(ctx, &q, run)
        } else {
            self.submit(ctx, &q, None, Work::Run(run), false);
            Ok(())
        }
    }
}
