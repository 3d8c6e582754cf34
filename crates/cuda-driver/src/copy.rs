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
use crate::{CtxHandle, CuError, CuResult, Driver, StreamHandle};

pub mod batch;

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
#[derive(Clone, Copy, Debug)]
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

/// A validated fill: rows of `count` elements.
struct FillPlan {
    rows: Vec<Loc>,
    value: u32,
    elem_size: usize,
    count: usize,
    backends: Vec<Arc<dyn Device>>,
}

// SAFETY: as `CopyPlan`.
unsafe impl Send for FillPlan {}

impl FillPlan {
    /// # Safety
    /// As `CopyPlan::run`.
    unsafe fn run(&self) -> Result<(), DeviceError> {
        for &row in &self.rows {
            match row {
                Loc::Backend(dev, addr) => self.backends[dev].memset(addr, self.value, self.elem_size, self.count)?,
                // SAFETY: the row lies in a registered host range (validated).
                Loc::Host(p, _) => unsafe { fill_host(p, self.value, self.elem_size, self.count) },
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

    /// A contiguous copy.
    fn copy1(&self, on: On, dst: Loc, src: Loc, n: usize) -> CuResult<()> {
        let ctx = self.stream_context(on.stream())?;
        if n == 0 {
            return Ok(());
        }
        let desc = desc_1d(dst, src, n);
        self.copy(&ctx, on, CopyPlan { rows: vec![(dst, src, n)], backends: self.backends() }, &desc)
    }

    /// `cuMemcpyHtoD_v2`.
    ///
    /// # Safety
    /// `src` must be valid for reading `n` bytes.
    pub unsafe fn memcpy_htod(&self, dst: DevicePtr, src: *const c_void, n: usize) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_htod_on(dst, src, n, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpyHtoD*` on any stream.
    ///
    /// # Safety
    /// `src` must be valid for reading `n` bytes until the copy has run.
    pub unsafe fn memcpy_htod_on(&self, dst: DevicePtr, src: *const c_void, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        if nothing_to_copy(n) {
            return Ok(());
        }
        let dst = self.device_loc(dst, n, Access::Write, "cuMemcpyHtoD")?;
        self.copy1(on, dst, self.host_loc(src, n), n)
    }

    /// `cuMemcpyDtoH_v2`.
    ///
    /// # Safety
    /// `dst` must be valid for writing `n` bytes.
    pub unsafe fn memcpy_dtoh(&self, dst: *mut c_void, src: DevicePtr, n: usize) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_dtoh_on(dst, src, n, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpyDtoH*` on any stream.
    ///
    /// # Safety
    /// `dst` must be valid for writing `n` bytes until the copy has run.
    pub unsafe fn memcpy_dtoh_on(&self, dst: *mut c_void, src: DevicePtr, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        if nothing_to_copy(n) {
            return Ok(());
        }
        let src = self.device_loc(src, n, Access::Read, "cuMemcpyDtoH")?;
        self.copy1(on, self.host_loc(dst, n), src, n)
    }

    /// `cuMemcpyPeer`: devices share one address space here, so this is a DtoD copy; the
    /// contexts must be valid.
    pub fn memcpy_peer(&self, dst: DevicePtr, dst_ctx: CtxHandle, src: DevicePtr, src_ctx: CtxHandle, n: usize) -> CuResult<()> {
        self.memcpy_peer_on(dst, dst_ctx, src, src_ctx, n, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemcpyPeer*` on any stream.
    pub fn memcpy_peer_on(&self, dst: DevicePtr, dst_ctx: CtxHandle, src: DevicePtr, src_ctx: CtxHandle, n: usize, on: On) -> CuResult<()> {
        self.context(dst_ctx)?;
        self.context(src_ctx)?;
        self.memcpy_dtod_on(dst, src, n, on)
    }

    /// `cuMemcpyDtoD_v2`.
    pub fn memcpy_dtod(&self, dst: DevicePtr, src: DevicePtr, n: usize) -> CuResult<()> {
        self.memcpy_dtod_on(dst, src, n, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemcpyDtoD*` on any stream.
    pub fn memcpy_dtod_on(&self, dst: DevicePtr, src: DevicePtr, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        if nothing_to_copy(n) {
            return Ok(());
        }
        let dst = self.device_loc(dst, n, Access::Write, "cuMemcpyDtoD destination")?;
        let src = self.device_loc(src, n, Access::Read, "cuMemcpyDtoD source")?;
        self.copy1(on, dst, src, n)
    }

    /// `cuMemcpy` (unified addressing): each side classified by the registry.
    ///
    /// # Safety
    /// Unregistered pointers are host memory and must be valid for `n` bytes.
    pub unsafe fn memcpy(&self, dst: u64, src: u64, n: usize) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_on(dst, src, n, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpy*` (unified addressing) on any stream.
    ///
    /// # Safety
    /// Unregistered pointers are host memory and must be valid for `n` bytes until the
    /// copy has run.
    pub unsafe fn memcpy_on(&self, dst: u64, src: u64, n: usize, on: On) -> CuResult<()> {
        self.stream_context(on.stream())?;
        let d = self.unified_loc(dst, n, Access::Write, "cuMemcpy destination")?;
        let s = self.unified_loc(src, n, Access::Read, "cuMemcpy source")?;
        self.copy1(on, d, s, n)
    }

    /// `cuMemcpyHtoDAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_htod_on`].
    pub unsafe fn memcpy_htod_async(&self, dst: DevicePtr, src: *const c_void, n: usize, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_htod_on(dst, src, n, On::Async(stream)) }
    }

    /// `cuMemcpyDtoHAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_dtoh_on`].
    pub unsafe fn memcpy_dtoh_async(&self, dst: *mut c_void, src: DevicePtr, n: usize, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_dtoh_on(dst, src, n, On::Async(stream)) }
    }

    /// `cuMemcpyDtoDAsync_v2`.
    pub fn memcpy_dtod_async(&self, dst: DevicePtr, src: DevicePtr, n: usize, stream: StreamHandle) -> CuResult<()> {
        self.memcpy_dtod_on(dst, src, n, On::Async(stream))
    }

    /// `cuMemcpyAsync`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_on`].
    pub unsafe fn memcpy_async(&self, dst: u64, src: u64, n: usize, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_on(dst, src, n, On::Async(stream)) }
    }

    /// One side of a 2D/3D copy: its start location, validated for `extent` bytes.
    #[allow(clippy::too_many_arguments, reason = "one side of a CUDA_MEMCPY3D")]
    fn region_side(
        &self,
        memory_type: u32,
        host: *const c_void,
        device: DevicePtr,
        start: usize,
        extent: usize,
        access: Access,
        what: &str,
    ) -> CuResult<Loc> {
        match memory_type {
            memory_type::HOST => Ok(self.host_loc((host as *const u8).wrapping_add(start).cast(), extent)),
            memory_type::DEVICE => self.device_loc(device.wrapping_add(start as u64), extent, access, what),
            memory_type::UNIFIED => self.unified_loc(device.wrapping_add(start as u64), extent, access, what),
            memory_type::ARRAY => Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: CUDA arrays are not supported"))),
            other => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: memory type {other}"))),
        }
    }

    /// `cuMemcpy2D_v2` / `cuMemcpy2DUnaligned_v2`. Arrays are not supported.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe.
    pub unsafe fn memcpy_2d(&self, p: &CudaMemcpy2D) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_2d_on(p, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpy2D*` on any stream.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe until the copy has run.
    pub unsafe fn memcpy_2d_on(&self, p: &CudaMemcpy2D, on: On) -> CuResult<()> {
        let p3 = CudaMemcpy3D {
            src_x_in_bytes: p.src_x_in_bytes,
            src_y: p.src_y,
            src_z: 0,
            src_lod: 0,
            src_memory_type: p.src_memory_type,
            src_host: p.src_host,
            src_device: p.src_device,
            src_array: p.src_array,
            reserved0: std::ptr::null_mut(),
            src_pitch: p.src_pitch,
            src_height: p.height,
            dst_x_in_bytes: p.dst_x_in_bytes,
            dst_y: p.dst_y,
            dst_z: 0,
            dst_lod: 0,
            dst_memory_type: p.dst_memory_type,
            dst_host: p.dst_host,
            dst_device: p.dst_device,
            dst_array: p.dst_array,
            reserved1: std::ptr::null_mut(),
            dst_pitch: p.dst_pitch,
            dst_height: p.height,
            width_in_bytes: p.width_in_bytes,
            height: p.height,
            depth: 1,
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_on(&p3, on) }
    }

    /// `cuMemcpy3D_v2`. Arrays and LODs are not supported.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe.
    pub unsafe fn memcpy_3d(&self, p: &CudaMemcpy3D) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_on(p, On::Blocking(StreamHandle::LEGACY)) }
    }

    /// `cuMemcpy3D*` on any stream.
    ///
    /// # Safety
    /// Host sides must be valid for the region they describe until the copy has run.
    pub unsafe fn memcpy_3d_on(&self, p: &CudaMemcpy3D, on: On) -> CuResult<()> {
        let ctx = self.stream_context(on.stream())?;
        match self.plan_3d(p)? {
            Some(plan) => self.copy(&ctx, on, plan, p),
            None => Ok(()),
        }
    }

    /// A memcpy node's work: the copy `p` describes, validated now (`None`: nothing to copy).
    pub(crate) fn copy_work_3d(&self, p: &CudaMemcpy3D) -> CuResult<Option<RunFn>> {
        let plan = self.plan_3d(p)?;
        // SAFETY: graph memcpy nodes promise their host sides stay valid while the graph
        // can run (API contract); device sides were just validated.
        Ok(plan.map(|plan| -> RunFn { Box::new(move || unsafe { plan.run() }) }))
    }

    /// [`Driver::copy_work_3d`] as work that may run any number of times (the body of a
    /// conditional graph node).
    pub(crate) fn copy_step_3d(&self, p: &CudaMemcpy3D) -> CuResult<Option<StepFn>> {
        let plan = self.plan_3d(p)?;
        // SAFETY: as `copy_work_3d`; the plan only reads its rows.
        Ok(plan.map(|plan| -> StepFn { Box::new(move || unsafe { plan.run() }) }))
    }

    /// Validates a 2D/3D copy and lays out its rows (`None`: an empty copy).
    fn plan_3d(&self, p: &CudaMemcpy3D) -> CuResult<Option<CopyPlan>> {
        let shape = Shape { width: p.width_in_bytes, height: p.height, depth: p.depth };
        if shape.width == 0 || shape.height == 0 || shape.depth == 0 {
            return Ok(None);
        }
        let bad = |what: &str| fail(CuError::INVALID_VALUE, format_args!("cuMemcpy3D: {what}"));
        if p.src_lod != 0 || p.dst_lod != 0 {
            return Err(bad("LOD must be 0"));
        }
        // An array side is its memory with the array's own pitch and slice height.
        let mut p = *p;
        if p.src_memory_type == memory_type::ARRAY {
            let a = self.array_side(p.src_array as u64, p.src_x_in_bytes, p.src_y, p.src_z, &shape, "source")?;
            (p.src_memory_type, p.src_device, p.src_pitch, p.src_height) = (memory_type::DEVICE, a.0, a.1, a.2);
        }
        if p.dst_memory_type == memory_type::ARRAY {
            let a = self.array_side(p.dst_array as u64, p.dst_x_in_bytes, p.dst_y, p.dst_z, &shape, "destination")?;
            (p.dst_memory_type, p.dst_device, p.dst_pitch, p.dst_height) = (memory_type::DEVICE, a.0, a.1, a.2);
        }
        let p = &p;
        // A single row needs no pitch (callers often pass 0).
        let single_row = shape.height == 1 && shape.depth == 1;
        let pitch_of = |pitch: usize| if single_row { pitch.max(shape.width) } else { pitch };
        let (src_pitch, dst_pitch) = (pitch_of(p.src_pitch), pitch_of(p.dst_pitch));
        if src_pitch < shape.width || dst_pitch < shape.width {
            return Err(bad("pitch smaller than the row width"));
        }
        if shape.depth > 1 && (p.src_height < shape.height || p.dst_height < shape.height) {
            return Err(bad("slice height smaller than the copy height"));
        }
        let src_slice = src_pitch.checked_mul(p.src_height.max(shape.height)).ok_or_else(|| bad("overflow"))?;
        let dst_slice = dst_pitch.checked_mul(p.dst_height.max(shape.height)).ok_or_else(|| bad("overflow"))?;
        let start = |x: usize, y: usize, z: usize, pitch: usize, slice: usize| -> CuResult<usize> {
            z.checked_mul(slice)
                .and_then(|a| a.checked_add(y.checked_mul(pitch)?))
                .and_then(|a| a.checked_add(x))
                .ok_or_else(|| bad("offset overflow"))
        };
        let src_start = start(p.src_x_in_bytes, p.src_y, p.src_z, src_pitch, src_slice)?;
        let dst_start = start(p.dst_x_in_bytes, p.dst_y, p.dst_z, dst_pitch, dst_slice)?;
        let src_extent = shape.extent(src_pitch, src_slice).ok_or_else(|| bad("overflow"))?;
        let dst_extent = shape.extent(dst_pitch, dst_slice).ok_or_else(|| bad("overflow"))?;
        let src = self.region_side(p.src_memory_type, p.src_host, p.src_device, src_start, src_extent, Access::Read, "cuMemcpy2D/3D source")?;
        let dst = self.region_side(p.dst_memory_type, p.dst_host, p.dst_device, dst_start, dst_extent, Access::Write, "cuMemcpy2D/3D destination")?;
        let plane = shape.width.checked_mul(shape.height);
        let contiguous = |pitch: usize, slice: usize| pitch == shape.width && Some(slice) == plane;
        let mut rows = Vec::new();
        match plane.and_then(|p| p.checked_mul(shape.depth)) {
            Some(total) if contiguous(dst_pitch, dst_slice) && contiguous(src_pitch, src_slice) => rows.push((dst, src, total)),
            _ => {
                for z in 0..shape.depth {
                    for y in 0..shape.height {
                        rows.push((dst.offset(z * dst_slice + y * dst_pitch), src.offset(z * src_slice + y * src_pitch), shape.width));
                    }
                }
            }
        }
        Ok(Some(CopyPlan { rows, backends: self.backends() }))
    }

    /// One array side of a 2D/3D copy: (base, pitch, rows per slice), after checking that
    /// the region starting at `(x, y, z)` lies in the array.
    fn array_side(&self, array: u64, x: usize, y: usize, z: usize, shape: &Shape, what: &str) -> CuResult<(DevicePtr, usize, usize)> {
        let a = self.array(crate::texture::ArrayHandle(array))?;
        let (rows, slices) = a.rows_slices();
        let fits = |start: usize, n: usize, limit: u64| start.checked_add(n).is_some_and(|end| end as u64 <= limit);
        if !fits(x, shape.width, a.pitch) || !fits(y, shape.height, rows) || !fits(z, shape.depth, slices) {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!(
                    "cuMemcpy2D/3D {what}: {}x{}x{} bytes/rows/slices at ({x}, {y}, {z}) exceed the array",
                    shape.width, shape.height, shape.depth
                ),
            ));
        }
        Ok((a.base, a.pitch as usize, rows as usize))
    }

    /// `cuMemcpyHtoA_v2`, `cuMemcpyAtoH_v2`, `cuMemcpyDtoA_v2`, `cuMemcpyAtoD_v2`,
    /// `cuMemcpyAtoA_v2` and their `Async` forms: `n` bytes at a byte offset into the
    /// first row of an array (the calls are for 1-D arrays; NVIDIA's driver refuses a
    /// range past the first row of a 2-D array).
    ///
    /// # Safety
    /// Host sides must be valid for `n` bytes until the copy has run.
    pub unsafe fn memcpy_array(&self, dst: ArraySide, src: ArraySide, n: usize, on: On) -> CuResult<()> {
        if n == 0 {
            return Ok(());
        }
        let side = |s: ArraySide, what: &str| -> CuResult<(u32, *const c_void, DevicePtr)> {
            match s {
                ArraySide::Host(p) => Ok((memory_type::HOST, p, 0)),
                ArraySide::Device(d) => Ok((memory_type::DEVICE, std::ptr::null(), d)),
                ArraySide::Array(h, offset) => {
                    let a = self.array(crate::texture::ArrayHandle(h))?;
                    if offset.checked_add(n).is_none_or(|end| end as u64 > a.pitch) {
                        return Err(fail(
                            CuError::INVALID_VALUE,
                            format_args!("cuMemcpy {what}: {n} bytes at offset {offset} exceed the array's first row"),
                        ));
                    }
                    Ok((memory_type::DEVICE, std::ptr::null(), a.base + offset as u64))
                }
            }
        };
        let (dt, dh, dd) = side(dst, "destination")?;
        let (st, sh, sd) = side(src, "source")?;
        let p = CudaMemcpy3D {
            src_memory_type: st,
            src_host: sh,
            src_device: sd,
            src_pitch: n,
            src_height: 1,
            dst_memory_type: dt,
            dst_host: dh as *mut c_void,
            dst_device: dd,
            dst_pitch: n,
            dst_height: 1,
            width_in_bytes: n,
            height: 1,
            depth: 1,
            ..CudaMemcpy3D::zeroed()
        };
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_on(&p, on) }
    }

    /// `cuMemcpy2DAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_2d_on`].
    pub unsafe fn memcpy_2d_async(&self, p: &CudaMemcpy2D, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_2d_on(p, On::Async(stream)) }
    }

    /// `cuMemcpy3DAsync_v2`.
    ///
    /// # Safety
    /// As [`Driver::memcpy_3d_on`].
    pub unsafe fn memcpy_3d_async(&self, p: &CudaMemcpy3D, stream: StreamHandle) -> CuResult<()> {
        // SAFETY: forwarded from the caller.
        unsafe { self.memcpy_3d_on(p, On::Async(stream)) }
    }

    /// `cuMemsetD8/D16/D32_v2`: fills `count` elements of `elem_size` (1, 2, 4) bytes.
    /// `dst` must be aligned to `elem_size` and lie in registered memory.
    pub fn memset(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize) -> CuResult<()> {
        self.memset_on(dst, value, elem_size, count, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemsetD*` on any stream.
    pub fn memset_on(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize, on: On) -> CuResult<()> {
        let row = elem_size.checked_mul(count).ok_or(CuError::INVALID_VALUE)?;
        self.memset_2d_on(dst, row, value, elem_size, count, 1, on)
    }

    /// `cuMemsetD2D8/16/32_v2`: `height` rows of `width` elements, rows `pitch` bytes apart.
    pub fn memset_2d(&self, dst: DevicePtr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize) -> CuResult<()> {
        self.memset_2d_on(dst, pitch, value, elem_size, width, height, On::Blocking(StreamHandle::LEGACY))
    }

    /// `cuMemsetD2D*` on any stream.
    #[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
    pub fn memset_2d_on(&self, dst: DevicePtr, pitch: usize, value: u32, elem_size: usize, width: usize, height: usize, on: On) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(on.stream())?;
        let Some(run) = self.fill_work(dst, pitch, value, elem_size, width, height)? else {
            return Ok(());
        };
        if self.capture_gate(&ctx, &q, matches!(on, On::Blocking(_)))? {
            let element_size = elem_size as u32;
            let params = crate::graph::MemsetParams { dst, pitch, value, element_size, width, height, ctx: ctx.handle };
            return self.capture_node(&q, crate::graph::NodeParams::Memset(params));
        }
        match on {
            On::Blocking(_) => self.submit_and_wait(&ctx, &q, run),
            On::Async(_) => {
                self.submit(&ctx, &q, None, Work::Run(run), false);
                Ok(())
            }
        }
    }

    /// A validated fill of `height` rows of `width` elements (`None`: nothing to fill).
    pub(crate) fn fill_work(
        &self,
        dst: DevicePtr,
        pitch: usize,
        value: u32,
        elem_size: usize,
        width: usize,
        height: usize,
    ) -> CuResult<Option<RunFn>> {
        Ok(self.fill_step(dst, pitch, value, elem_size, width, height)?.map(|f| -> RunFn { f }))
    }

    /// [`Driver::fill_work`] as work that may run any number of times (the body of a
    /// conditional graph node runs again at each iteration).
    pub(crate) fn fill_step(
        &self,
        dst: DevicePtr,
        pitch: usize,
        value: u32,
        elem_size: usize,
        width: usize,
        height: usize,
    ) -> CuResult<Option<StepFn>> {
        if !matches!(elem_size, 1 | 2 | 4) || !dst.is_multiple_of(elem_size as u64) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemset: {dst:#x} not aligned to {elem_size}")));
        }
        let row = width.checked_mul(elem_size).ok_or(CuError::INVALID_VALUE)?;
        if row == 0 || height == 0 {
            return Ok(None);
        }
        if height > 1 && pitch < row {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemsetD2D: pitch {pitch} < row {row}")));
        }
        let extent = Shape { width: row, height, depth: 1 }.extent(pitch, 0).ok_or(CuError::INVALID_VALUE)?;
        if self.memory.find(dst).is_some_and(|a| !self.pool_block_accessible(&a)) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemset: {dst:#x} is host-pool memory the device may not access")));
        }
        let base = self.device_loc(dst, extent, Access::Write, "cuMemset")?;
        let rows = (0..height).map(|y| base.offset(y * pitch)).collect();
        let plan = FillPlan { rows, value, elem_size, count: width, backends: self.backends() };
        // SAFETY: the rows lie in registered memory, which stays valid until the fill ran
        // (freeing waits for queued work; graph launches validate again).
        Ok(Some(Box::new(move || unsafe { plan.run() })))
    }

    /// `cuMemsetD8/16/32Async`.
    pub fn memset_async(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize, stream: StreamHandle) -> CuResult<()> {
        self.memset_on(dst, value, elem_size, count, On::Async(stream))
    }

    /// `cuMemsetD2D8/16/32Async`.
    #[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
    pub fn memset_2d_async(
        &self,
        dst: DevicePtr,
        pitch: usize,
        value: u32,
        elem_size: usize,
        width: usize,
        height: usize,
        stream: StreamHandle,
    ) -> CuResult<()> {
        self.memset_2d_on(dst, pitch, value, elem_size, width, height, On::Async(stream))
    }
}

/// Writes `count` elements of `elem_size` bytes (the low bytes of `value`).
///
/// # Safety
/// `p` must be valid for writing `count * elem_size` bytes.
unsafe fn fill_host(p: *mut u8, value: u32, elem_size: usize, count: usize) {
    // SAFETY (all arms): the caller guarantees the range; unaligned writes are used.
    unsafe {
        match elem_size {
            1 => std::ptr::write_bytes(p, value as u8, count),
            2 => (0..count).for_each(|i| p.cast::<u16>().add(i).write_unaligned(value as u16)),
            _ => (0..count).for_each(|i| p.cast::<u32>().add(i).write_unaligned(value)),
        }
    }
}

/// A contiguous copy between two validated locations as a `CUDA_MEMCPY3D` (what a captured
/// memcpy node keeps and checks again at each launch).
fn desc_1d(dst: Loc, src: Loc, n: usize) -> CudaMemcpy3D {
    let side = |l: Loc| match l {
        Loc::Backend(_, addr) => (memory_type::DEVICE, std::ptr::null_mut::<c_void>(), addr),
        Loc::Host(p, _) => (memory_type::HOST, p.cast::<c_void>(), 0),
    };
    let (src_type, src_host, src_device) = side(src);
    let (dst_type, dst_host, dst_device) = side(dst);
    CudaMemcpy3D {
        src_x_in_bytes: 0,
        src_y: 0,
        src_z: 0,
        src_lod: 0,
        src_memory_type: src_type,
        src_host,
        src_device,
        src_array: std::ptr::null_mut(),
        reserved0: std::ptr::null_mut(),
        src_pitch: n,
        src_height: 1,
        dst_x_in_bytes: 0,
        dst_y: 0,
        dst_z: 0,
        dst_lod: 0,
        dst_memory_type: dst_type,
        dst_host,
        dst_device,
        dst_array: std::ptr::null_mut(),
        reserved1: std::ptr::null_mut(),
        dst_pitch: n,
        dst_height: 1,
        width_in_bytes: n,
        height: 1,
        depth: 1,
    }
}

/// Whether a copy of `n` bytes has nothing to do. It then succeeds whatever the addresses:
/// NVIDIA's driver 580.159 on an H200 answers CUDA_SUCCESS for 0 bytes to or from NULL or
/// unmapped addresses.
fn nothing_to_copy(n: usize) -> bool {
    n == 0
}
