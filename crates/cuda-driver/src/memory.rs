//! Memory: the allocation registry, device/managed/pitched allocation, pinned host memory,
//! host registration, `cuMemGetAddressRange` and pointer attributes.
//!
//! Every range the driver hands out or registers is recorded in [`Registry`], a `BTreeMap`
//! from base address to [`Allocation`]. It is how the driver validates copies (a copy must
//! lie inside one allocation: else `CUDA_ERROR_INVALID_VALUE`), classifies pointers under
//! unified addressing (an unregistered pointer is host memory), answers
//! `cuPointerGetAttribute`, and frees what a context owned when it is destroyed.
//!
//! Mappings of virtual memory management (`cuMemMap`, [`crate::vmm`]) are registered too,
//! one range per mapping: adjacent mappings form one range for copies and fills, as the
//! pages of one allocation do.
//!
//! Pinned host memory (`cuMemAllocHost`, `cuMemHostAlloc`) is allocated by the driver on
//! the host; on a host-addressable device (the CPU device) its device pointer is the host
//! pointer, as is the device pointer of registered host memory. Managed memory comes from
//! the backend's `alloc_managed` (on such a device a plain device allocation; on AMD GPUs
//! fine-grained system memory) and is flagged as managed here.

use std::alloc::Layout;
use std::collections::BTreeMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::RwLock;

use backend_api::DevicePtr;

use crate::diag::fail;
pub use crate::mempool::PoolMemory;
use crate::{CtxHandle, CuError, CuResult, Driver};

/// What kind of memory a registered range is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemoryKind {
    /// `cuMemAlloc`/`cuMemAllocPitch`: backend device memory.
    Device,
    /// `cuMemAllocManaged`: backend memory the host can address.
    Managed,
    /// `cuMemAllocHost`/`cuMemHostAlloc`: host memory the driver allocated.
    HostAlloc,
    /// `cuMemHostRegister`: the caller's host memory.
    HostRegistered,
    /// A module's `.global`/`.const` variable (backend memory, freed with the module).
    ModuleGlobal,
    /// A `cuMemMap` mapping (host memory of a host-addressable device, [`crate::vmm`]);
    /// owned by no context: it lives until `cuMemUnmap`.
    Mapped,
    /// `cuMemAllocAsync`/`cuMemAllocFromPoolAsync`: a block of a memory pool's backend
    /// memory ([`crate::mempool`]), device, pinned host or managed memory; `owner` is the
    /// pool's handle.
    Pool(PoolMemory),
    /// A file another process (or API) shares, mapped by the driver into this process's
    /// address space (host-addressable devices only; [`crate::ipc`],
    /// [`crate::external_memory`]). Unmapped when the range is released.
    FileMap(FileMapOrigin),
}

/// Where a [`MemoryKind::FileMap`] range came from: what may free it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FileMapOrigin {
    /// `cuIpcOpenMemHandle` (closed by `cuIpcCloseMemHandle` only).
    Ipc,
    /// `cuExternalMemoryGetMappedBuffer` (freed by `cuMemFree`).
    ExternalBuffer,
    /// `cuMemPoolImportPointer` (freed by `cuMemFree`/`cuMemFreeAsync`); `owner` is the
    /// imported pool.
    PoolImport,
    /// `cuExternalMemoryGetMappedMipmappedArray`: the levels' texels (freed by
    /// `cuMipmappedArrayDestroy`).
    ExternalArray,
}

impl MemoryKind {
    /// Whether `cuMemFree`/`cuMemFreeAsync` free ranges of this kind (given their base).
    pub fn freed_by_mem_free(self) -> bool {
        matches!(
            self,
            MemoryKind::Device
                | MemoryKind::Managed
                | MemoryKind::Pool(_)
                | MemoryKind::FileMap(FileMapOrigin::ExternalBuffer | FileMapOrigin::PoolImport)
        )
    }

    /// Whether the backend owns the bytes (copies go through `backend_api::Device`).
    pub fn is_backend(self) -> bool {
        matches!(self, MemoryKind::Device | MemoryKind::Managed | MemoryKind::ModuleGlobal | MemoryKind::Pool(_))
    }
}

/// One registered range.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Allocation {
    pub base: DevicePtr,
    pub size: u64,
    pub kind: MemoryKind,
    /// The context that owns it (freed with it).
    pub ctx: CtxHandle,
    /// Device ordinal.
    pub device: usize,
    /// `cuMemHostAlloc`/`cuMemHostRegister`/`cuMemAllocManaged` flags; for
    /// [`MemoryKind::Mapped`] the mapping's access (`CUmemAccess_flags`: 1 read, 3 read-write).
    pub flags: u32,
    /// `CU_POINTER_ATTRIBUTE_BUFFER_ID`: unique per allocation.
    pub buffer_id: u64,
    /// For [`MemoryKind::ModuleGlobal`]: the owning module's handle value; for
    /// [`MemoryKind::Mapped`]: the `CUmemGenericAllocationHandle` mapped; for
    /// [`MemoryKind::Pool`]: the `CUmemoryPool`; else 0.
    pub owner: u64,
    /// `CU_POINTER_ATTRIBUTE_SYNC_MEMOPS` as `cuPointerSetAttribute` set it. Synchronous
    /// copies and memsets on this device always complete before they return, which is
    /// what the attribute asks for, so it changes nothing else.
    pub sync_memops: bool,
}

impl Allocation {
    /// One past the last byte.
    pub fn end(&self) -> u64 {
        self.base.saturating_add(self.size)
    }
}

/// All registered ranges, ordered by base address; ranges never overlap.
#[derive(Default)]
pub struct Registry {
    map: RwLock<BTreeMap<DevicePtr, Allocation>>,
}

static NEXT_BUFFER_ID: AtomicU64 = AtomicU64::new(1);

impl Registry {
    /// Records a range; fails (returning it) if it overlaps an existing one.
    pub fn insert(&self, mut allocation: Allocation) -> Result<Allocation, Allocation> {
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        if overlaps(&map, allocation.base, allocation.size.max(1)) {
            return Err(allocation);
        }
        allocation.buffer_id = NEXT_BUFFER_ID.fetch_add(1, Ordering::Relaxed);
        map.insert(allocation.base, allocation);
        Ok(allocation)
    }

    /// Whether any registered range overlaps `[base, base + len)`.
    pub fn overlaps(&self, base: u64, len: u64) -> bool {
        overlaps(&self.map.read().unwrap_or_else(|e| e.into_inner()), base, len)
    }

    /// Sets `sync_memops` of the range containing `addr`; false if there is none.
    pub fn set_sync_memops(&self, addr: u64, on: bool) -> bool {
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        let Some(base) = find_in(&map, addr).map(|a| a.base) else { return false };
        map.get_mut(&base).map(|a| a.sync_memops = on).is_some()
    }

    /// The range containing `addr`.
    pub fn find(&self, addr: u64) -> Option<Allocation> {
        find_in(&self.map.read().unwrap_or_else(|e| e.into_inner()), addr)
    }

    /// The range containing all of `[addr, addr + len)`, or why not: `None` = `addr` is not
    /// registered; `Some(Err(a))` = it starts in `a` but runs past its end. A run of
    /// adjacent mappings counts as one range (from the first one's base, with the access
    /// all of them grant): a buffer may span the mappings of an expandable segment.
    pub fn find_range(&self, addr: u64, len: u64) -> Option<Result<Allocation, Allocation>> {
        let map = self.map.read().unwrap_or_else(|e| e.into_inner());
        let a = find_in(&map, addr)?;
        let Some(end) = addr.checked_add(len) else { return Some(Err(a)) };
        if end <= a.end() {
            return Some(Ok(a));
        }
        if a.kind == MemoryKind::Mapped {
            let mut run = a;
            for (_, next) in map.range(a.end()..) {
                if next.base != run.end() || next.kind != MemoryKind::Mapped {
                    break;
                }
                run.size += next.size;
                run.flags &= next.flags;
                if end <= run.end() {
                    return Some(Ok(run));
                }
            }
        }
        Some(Err(a))
    }

    /// Sets the flags of the range starting exactly at `base` (a mapping's access).
    pub(crate) fn set_flags(&self, base: u64, flags: u32) {
        if let Some(a) = self.map.write().unwrap_or_else(|e| e.into_inner()).get_mut(&base) {
            a.flags = flags;
        }
    }

    /// Unregisters the range starting exactly at `base`.
    pub fn remove(&self, base: u64) -> Option<Allocation> {
        self.map.write().unwrap_or_else(|e| e.into_inner()).remove(&base)
    }

    /// Unregisters and returns every range owned by `ctx` (mappings belong to no context).
    pub fn remove_context(&self, ctx: CtxHandle) -> Vec<Allocation> {
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        let bases: Vec<u64> = map.values().filter(|a| a.ctx == ctx && a.kind != MemoryKind::Mapped).map(|a| a.base).collect();
        bases.into_iter().filter_map(|b| map.remove(&b)).collect()
    }

    /// Unregisters and returns every range `pred` selects.
    pub(crate) fn remove_where(&self, pred: impl Fn(&Allocation) -> bool) -> Vec<Allocation> {
        let mut map = self.map.write().unwrap_or_else(|e| e.into_inner());
        let bases: Vec<u64> = map.values().filter(|a| pred(a)).map(|a| a.base).collect();
        bases.into_iter().filter_map(|b| map.remove(&b)).collect()
    }
}

fn find_in(map: &BTreeMap<DevicePtr, Allocation>, addr: u64) -> Option<Allocation> {
    let (_, a) = map.range(..=addr).next_back()?;
    (addr < a.end() || (a.size == 0 && addr == a.base)).then_some(*a)
}

fn overlaps(map: &BTreeMap<DevicePtr, Allocation>, base: u64, len: u64) -> bool {
    let end = base.saturating_add(len);
    if let Some((_, before)) = map.range(..=base).next_back() {
        if before.end() > base || before.base == base {
            return true;
        }
    }
    map.range(base..end).next().is_some()
}

/// Alignment of driver-allocated pinned host memory (a page).
const HOST_ALIGN: usize = 4096;
/// `cuMemAllocPitch` row alignment.
pub const PITCH_ALIGNMENT: usize = 512;

/// `CU_MEMHOSTALLOC_PORTABLE | DEVICEMAP | WRITECOMBINED`.
const HOST_ALLOC_FLAGS: u32 = 0x7;
/// `CU_MEMHOSTREGISTER_PORTABLE | DEVICEMAP | IOMEMORY | READ_ONLY`.
const HOST_REGISTER_FLAGS: u32 = 0xF;

/// `CUmemorytype` values.
pub mod memory_type {
    pub const HOST: u32 = 1;
    pub const DEVICE: u32 = 2;
    pub const ARRAY: u32 = 3;
    pub const UNIFIED: u32 = 4;
}

/// What `cuPointerGetAttribute(s)` reports for a registered pointer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PointerInfo {
    pub context: CtxHandle,
    /// `CUmemorytype`: `DEVICE` for device and managed memory, `HOST` for pinned memory.
    pub memory_type: u32,
    pub device_pointer: DevicePtr,
    /// The host address, if the host can address this memory (`None` answers
    /// `INVALID_VALUE` for `CU_POINTER_ATTRIBUTE_HOST_POINTER`).
    pub host_pointer: Option<u64>,
    pub is_managed: bool,
    pub device_ordinal: i32,
    pub buffer_id: u64,
    pub range_start: u64,
    pub range_size: u64,
    pub mapped: bool,
    /// `CU_POINTER_ATTRIBUTE_ACCESS_FLAGS`: 0 none, 1 read, 3 read-write.
    pub access_flags: u32,
    /// `CU_POINTER_ATTRIBUTE_ALLOWED_HANDLE_TYPES`: the shareable handle types of a
    /// `cuMemCreate` allocation.
    pub allowed_handle_types: u64,
    /// `CU_POINTER_ATTRIBUTE_MEMPOOL_HANDLE`: the pool of a pool allocation, else 0.
    pub mempool: u64,
}

/// One value of `cuPointerGetAttribute`, typed as `cuda.h` documents the attribute.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PointerAttrValue {
    /// `CUcontext`.
    Context(CtxHandle),
    /// `unsigned int` (memory type, access flags).
    U32(u32),
    /// `int` (device ordinal).
    I32(i32),
    /// `unsigned long long` / `size_t` / `CUdeviceptr` / `void*`.
    U64(u64),
    /// A boolean attribute (`IS_MANAGED`, `MAPPED`, `SYNC_MEMOPS`, ...).
    Bool(bool),
}

impl Driver {
    pub(crate) fn backend_of(&self, device: usize) -> &dyn backend_api::Device {
        &*self.devices[device].backend
    }

    /// `cuMemAlloc_v2`: `size` bytes of device memory in the current context (size 0 ->
    /// `INVALID_VALUE`).
    pub fn mem_alloc(&self, size: usize) -> CuResult<DevicePtr> {
        self.alloc_backend(size, MemoryKind::Device, 0)
    }

    fn alloc_backend(&self, size: usize, kind: MemoryKind, flags: u32) -> CuResult<DevicePtr> {
        // A potentially unsafe call during stream capture (`cuThreadExchangeStreamCaptureMode`).
        self.capture_unsafe_call("cuMemAlloc")?;
        let ctx = self.current_context()?;
        self.alloc_in(&ctx, size, kind, flags)
    }

    /// An allocation of `size` bytes in context `ctx`, registered (no capture check).
    pub(crate) fn alloc_in(&self, ctx: &crate::context::Context, size: usize, kind: MemoryKind, flags: u32) -> CuResult<DevicePtr> {
        if size == 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemAlloc: size 0")));
        }
        let backend = self.backend_of(ctx.device);
        let ptr = if kind == MemoryKind::Managed { backend.alloc_managed(size) } else { backend.alloc(size) };
        let ptr = ptr.map_err(|e| self.device_error(ctx, e))?;
        let allocation =
            Allocation { base: ptr, size: size as u64, kind, ctx: ctx.handle, device: ctx.device, flags, buffer_id: 0, owner: 0, sync_memops: false };
        if self.memory.insert(allocation).is_err() {
            let _ = backend.free(ptr);
            return Err(fail(CuError::UNKNOWN, format_args!("backend returned overlapping allocation {ptr:#x}")));
        }
        Ok(ptr)
    }

    /// `cuMemAllocManaged`: `flags` must be `CU_MEM_ATTACH_GLOBAL` (1) or `_HOST` (2).
    /// Only devices with managed memory (`backend_api::Device::managed_memory`) support it
    /// (`NOT_SUPPORTED` otherwise, as CUDA answers where `CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY`
    /// is 0).
    pub fn mem_alloc_managed(&self, size: usize, flags: u32) -> CuResult<DevicePtr> {
        if flags != 1 && flags != 2 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemAllocManaged: flags {flags:#x}")));
        }
        let ctx = self.current_context()?;
        if self.backend_of(ctx.device).managed_memory().is_none() {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuMemAllocManaged: device {} has no managed memory", ctx.device)));
        }
        self.alloc_backend(size, MemoryKind::Managed, flags)
    }

    /// `cuMemAllocPitch_v2`: (pointer, pitch). `element_size` must be 4, 8 or 16; rows are
    /// padded to [`PITCH_ALIGNMENT`].
    pub fn mem_alloc_pitch(&self, width: usize, height: usize, element_size: u32) -> CuResult<(DevicePtr, usize)> {
        if !matches!(element_size, 4 | 8 | 16) || width == 0 || height == 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemAllocPitch: width {width} height {height} element size {element_size}")));
        }
        let pitch = width.checked_next_multiple_of(PITCH_ALIGNMENT).ok_or(CuError::INVALID_VALUE)?;
        let size = pitch.checked_mul(height).ok_or(CuError::OUT_OF_MEMORY)?;
        Ok((self.mem_alloc(size)?, pitch))
    }

    /// `cuMemFree_v2`: 0 is a no-op; anything but the base of a `cuMemAlloc*` allocation
    /// answers `INVALID_VALUE`. A pool allocation (`cuMemAllocAsync`) may be freed so too:
    /// its block goes back to its pool once the context's work is done.
    pub fn mem_free(&self, ptr: DevicePtr) -> CuResult<()> {
        // A potentially unsafe call during stream capture (`cuThreadExchangeStreamCaptureMode`).
        self.capture_unsafe_call("cuMemFree")?;
        self.check_initialized_context()?;
        if ptr == 0 {
            return Ok(());
        }
        if self.is_graph_memory(ptr) {
            // Stays for the graph's next launch (see `graph::memory`).
            return Ok(());
        }
        match self.memory.find(ptr) {
            Some(a) if a.base == ptr && a.kind.freed_by_mem_free() => {}
            other => return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemFree({ptr:#x}): not an allocation base ({other:?})"))),
        }
        self.drain_owner(ptr);
        let allocation = self.memory.remove(ptr).ok_or(CuError::INVALID_VALUE)?;
        self.release_allocation(&allocation);
        Ok(())
    }

    /// Waits for the queued work of the context that owns `ptr` (freeing memory waits for
    /// the work that may use it, as `cudaFree` does).
    pub(crate) fn drain_owner(&self, ptr: u64) {
        if let Some(ctx) = self.memory.find(ptr).and_then(|a| self.context(a.ctx).ok()) {
            self.drain_context(&ctx);
        }
    }

    /// The sticky-error check of calls that otherwise need no context (`cuMemFree`).
    fn check_initialized_context(&self) -> CuResult<()> {
        match self.current_context() {
            Err(e) if e != CuError::INVALID_CONTEXT => Err(e),
            _ => Ok(()),
        }
    }

    /// Gives the bytes of an unregistered allocation back to whoever owns them.
    pub(crate) fn release_allocation(&self, a: &Allocation) {
        match a.kind {
            MemoryKind::Device | MemoryKind::Managed => {
                if a.kind == MemoryKind::Managed {
                    self.managed_hints.forget(a.base, a.end());
                }
                let _ = self.backend_of(a.device).free(a.base);
            }
            MemoryKind::HostAlloc => {
                if let Ok(layout) = Layout::from_size_align(a.size as usize, HOST_ALIGN) {
                    // SAFETY: the range was allocated by `mem_host_alloc` with this layout and
                    // was just removed from the registry, so it is freed exactly once.
                    unsafe { std::alloc::dealloc(a.base as usize as *mut u8, layout) };
                }
            }
            MemoryKind::Pool(_) => self.pool_give_back(a, None),
            MemoryKind::FileMap(origin) => self.release_file_map(a, origin),
            MemoryKind::HostRegistered | MemoryKind::ModuleGlobal | MemoryKind::Mapped => {}
        }
    }

    /// `cuMemGetInfo_v2`: (free, total) bytes of the current context's device.
    pub fn mem_get_info(&self) -> CuResult<(u64, u64)> {
        let ctx = self.current_context()?;
        let backend = self.backend_of(ctx.device);
        Ok((backend.free_memory(), backend.properties().total_memory))
    }

    /// `cuMemAllocHost_v2`.
    pub fn mem_alloc_host(&self, size: usize) -> CuResult<*mut c_void> {
        self.mem_host_alloc(size, 0)
    }

    /// `cuMemHostAlloc`: page-aligned, zero-filled pinned host memory. Flags:
    /// PORTABLE 1, DEVICEMAP 2, WRITECOMBINED 4.
    pub fn mem_host_alloc(&self, size: usize, flags: u32) -> CuResult<*mut c_void> {
        // A potentially unsafe call during stream capture (`cuThreadExchangeStreamCaptureMode`).
        self.capture_unsafe_call("cuMemHostAlloc")?;
        let ctx = self.current_context()?;
        if flags & !HOST_ALLOC_FLAGS != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemHostAlloc: flags {flags:#x}")));
        }
        if size == 0 {
            // NVIDIA's driver answers success for 0 bytes; NULL is what cuMemFreeHost
            // takes back without complaint.
            return Ok(std::ptr::null_mut());
        }
        let layout = Layout::from_size_align(size, HOST_ALIGN).map_err(|_| CuError::OUT_OF_MEMORY)?;
        // SAFETY: `layout` has a non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(fail(CuError::OUT_OF_MEMORY, format_args!("cuMemHostAlloc: {size} bytes")));
        }
        let allocation = Allocation {
            base: ptr as usize as u64,
            size: size as u64,
            kind: MemoryKind::HostAlloc,
            ctx: ctx.handle,
            device: ctx.device,
            flags,
            buffer_id: 0,
            owner: 0,
            sync_memops: false,
        };
        if self.memory.insert(allocation).is_err() {
            // SAFETY: just allocated with `layout`, never handed out.
            unsafe { std::alloc::dealloc(ptr, layout) };
            return Err(CuError::UNKNOWN);
        }
        Ok(ptr.cast())
    }

    /// `cuMemFreeHost`: only pointers from `cuMemAllocHost`/`cuMemHostAlloc`.
    pub fn mem_free_host(&self, ptr: *mut c_void) -> CuResult<()> {
        // A potentially unsafe call during stream capture (`cuThreadExchangeStreamCaptureMode`).
        self.capture_unsafe_call("cuMemFreeHost")?;
        self.check_initialized_context()?;
        if ptr.is_null() {
            return Ok(());
        }
        let addr = ptr as usize as u64;
        match self.memory.find(addr) {
            Some(a) if a.base == addr && a.kind == MemoryKind::HostAlloc => {}
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemFreeHost({addr:#x}): not pinned host memory"))),
        }
        self.drain_owner(addr);
        let allocation = self.memory.remove(addr).ok_or(CuError::INVALID_VALUE)?;
        self.release_allocation(&allocation);
        Ok(())
    }

    fn pinned_range(&self, ptr: u64) -> CuResult<Allocation> {
        self.memory
            .find(ptr)
            .filter(|a| matches!(a.kind, MemoryKind::HostAlloc | MemoryKind::HostRegistered))
            .ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("{ptr:#x} is not pinned or registered host memory")))
    }

    /// `cuMemHostGetDevicePointer_v2`: `flags` must be 0. On a host-addressable device the
    /// device pointer is the host pointer.
    pub fn mem_host_get_device_pointer(&self, ptr: *mut c_void, flags: u32) -> CuResult<DevicePtr> {
        let ctx = self.current_context()?;
        if flags != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemHostGetDevicePointer: flags {flags:#x}")));
        }
        self.pinned_range(ptr as usize as u64)?;
        if !self.backend_of(ctx.device).properties().host_addressable_memory {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("mapped pinned memory on a device that cannot address host memory")));
        }
        Ok(ptr as usize as u64)
    }

    /// `cuMemHostGetFlags`.
    pub fn mem_host_get_flags(&self, ptr: *mut c_void) -> CuResult<u32> {
        self.current_context()?;
        Ok(self.pinned_range(ptr as usize as u64)?.flags)
    }

    /// `cuMemHostRegister_v2`: page-locks (here: records) `[ptr, ptr + size)`. Overlapping
    /// an existing registration -> `HOST_MEMORY_ALREADY_REGISTERED`.
    pub fn mem_host_register(&self, ptr: *mut c_void, size: usize, flags: u32) -> CuResult<()> {
        let ctx = self.current_context()?;
        let wraps = (ptr as usize as u64).checked_add(size as u64).is_none();
        if ptr.is_null() || size == 0 || wraps || flags & !HOST_REGISTER_FLAGS != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemHostRegister({ptr:?}, {size}, {flags:#x})")));
        }
        let allocation = Allocation {
            base: ptr as usize as u64,
            size: size as u64,
            kind: MemoryKind::HostRegistered,
            ctx: ctx.handle,
            device: ctx.device,
            flags,
            buffer_id: 0,
            owner: 0,
            sync_memops: false,
        };
        self.memory
            .insert(allocation)
            .map(|_| ())
            .map_err(|_| fail(CuError::HOST_MEMORY_ALREADY_REGISTERED, format_args!("cuMemHostRegister: {ptr:?}+{size} overlaps registered memory")))
    }

    /// `cuMemHostUnregister`: `ptr` must be the base of a registration.
    pub fn mem_host_unregister(&self, ptr: *mut c_void) -> CuResult<()> {
        self.current_context()?;
        if ptr.is_null() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuMemHostUnregister(NULL)")));
        }
        let addr = ptr as usize as u64;
        match self.memory.find(addr) {
            Some(a) if a.base == addr && a.kind == MemoryKind::HostRegistered => {
                self.drain_owner(addr);
                self.memory.remove(addr);
                Ok(())
            }
            _ => Err(fail(CuError::HOST_MEMORY_NOT_REGISTERED, format_args!("cuMemHostUnregister({addr:#x})"))),
        }
    }

    /// `cuMemGetAddressRange_v2`: (base, size) of the allocation containing `ptr`.
    pub fn mem_get_address_range(&self, ptr: DevicePtr) -> CuResult<(DevicePtr, usize)> {
        self.current_context()?;
        let a = self.memory.find(ptr).filter(|a| self.pool_block_accessible(a));
        let a = a.ok_or_else(|| fail(CuError::NOT_FOUND, format_args!("cuMemGetAddressRange({ptr:#x}): not an allocation the device may access")))?;
        Ok((a.base, a.size as usize))
    }

    /// What the driver knows about `ptr`, `None` for unregistered (plain host) memory.
    /// `cuPointerGetAttributes` reports defaults for `None`.
    pub fn pointer_info(&self, ptr: u64) -> CuResult<Option<PointerInfo>> {
        let Some(a) = self.memory.find(ptr) else { return Ok(None) };
        let host_addressable = self.backend_of(a.device).properties().host_addressable_memory;
        let is_host = matches!(a.kind, MemoryKind::HostAlloc | MemoryKind::HostRegistered | MemoryKind::Pool(PoolMemory::Host));
        let is_managed = matches!(a.kind, MemoryKind::Managed | MemoryKind::Pool(PoolMemory::Managed));
        let is_pool = matches!(a.kind, MemoryKind::Pool(_));
        Ok(Some(PointerInfo {
            // Pool memory belongs to its pool, not to a context (NVIDIA's driver answered
            // another context than the allocating stream's).
            context: if is_pool { CtxHandle::NULL } else { a.ctx },
            // Managed memory is device memory to this attribute, as NVIDIA's driver answers
            // for `cuMemAllocManaged` and managed pools alike.
            memory_type: if is_host { memory_type::HOST } else { memory_type::DEVICE },
            device_pointer: ptr,
            host_pointer: (is_host || is_managed || host_addressable).then_some(ptr),
            is_managed,
            device_ordinal: a.device as i32,
            buffer_id: a.buffer_id,
            range_start: a.base,
            range_size: a.size,
            mapped: true,
            access_flags: if a.kind == MemoryKind::Mapped { a.flags } else { 3 },
            allowed_handle_types: if a.kind == MemoryKind::Mapped { self.allowed_handle_types(crate::MemHandle(a.owner)) } else { 0 },
            mempool: if is_pool { a.owner } else { 0 },
        }))
    }

    /// `cuPointerSetAttribute(value, attribute, ptr)`: only `SYNC_MEMOPS` (6) can be set,
    /// on registered memory (`INVALID_VALUE` otherwise, as NVIDIA's driver answers on an
    /// H200).
    pub fn pointer_set_sync_memops(&self, attribute: i32, ptr: u64, on: bool) -> CuResult<()> {
        self.current_context()?;
        if attribute != 6 {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!("cuPointerSetAttribute: attribute {attribute} cannot be set (only SYNC_MEMOPS, 6)"),
            ));
        }
        if !self.memory.set_sync_memops(ptr, on) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuPointerSetAttribute({attribute}, {ptr:#x}): unregistered pointer")));
        }
        Ok(())
    }

    /// `cuPointerGetAttribute(attribute, ptr)`. Unregistered pointers and attributes that
    /// do not apply answer `INVALID_VALUE`; P2P tokens `NOT_SUPPORTED`.
    pub fn pointer_attribute(&self, attribute: i32, ptr: u64) -> CuResult<PointerAttrValue> {
        use PointerAttrValue as V;
        let info = self
            .pointer_info(ptr)?
            .ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuPointerGetAttribute({attribute}, {ptr:#x}): unregistered pointer")))?;
        Ok(match attribute {
            1 => V::Context(info.context),
            2 => V::U32(info.memory_type),
            // Host-pool memory has a device pointer only for a device the pool grants access.
            3 if self.memory.find(ptr).is_some_and(|a| !self.pool_block_accessible(&a)) => return Err(CuError::INVALID_VALUE),
            3 => V::U64(info.device_pointer),
            4 => V::U64(info.host_pointer.ok_or(CuError::INVALID_VALUE)?),
            5 => return Err(CuError::NOT_SUPPORTED),                            // P2P_TOKENS
            17 => V::U64(info.mempool),                                         // MEMPOOL_HANDLE (NULL outside pools)
            6 => V::Bool(self.memory.find(ptr).is_some_and(|a| a.sync_memops)), // SYNC_MEMOPS
            7 => V::U64(info.buffer_id),
            8 => V::Bool(info.is_managed),
            9 => V::I32(info.device_ordinal),
            10 => V::Bool(false), // IS_LEGACY_CUDA_IPC_CAPABLE
            11 => V::U64(info.range_start),
            12 => V::U64(info.range_size),
            13 => V::Bool(info.mapped),
            14 => V::U64(info.allowed_handle_types), // ALLOWED_HANDLE_TYPES
            15 => V::Bool(false),                    // IS_GPU_DIRECT_RDMA_CAPABLE
            16 => V::U32(info.access_flags),         // ACCESS_FLAGS
            18 => V::U64(info.range_size),           // MAPPING_SIZE
            19 => V::U64(info.range_start),          // MAPPING_BASE_ADDR
            20 => V::U64(info.buffer_id),            // MEMORY_BLOCK_ID
            21 => V::Bool(false),                    // IS_HW_DECOMPRESS_CAPABLE
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("cuPointerGetAttribute: unknown attribute {attribute}"))),
        })
    }
}
