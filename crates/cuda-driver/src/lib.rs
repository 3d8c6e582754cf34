//! CUDA driver semantics in safe Rust: what `libcuda.so.1` means, without the C ABI.
//!
//! `cuda-abi` (the cdylib) converts each exported C call's arguments and calls one method
//! of [`Driver`]; this crate validates everything, keeps the objects (contexts, modules,
//! streams, ...) behind self-checking handles ([`handle`]) and drives the backends through
//! `backend-api`. Every method returns [`CuResult`]; nothing here panics on bad input.
//!
//! ```text
//! cuda-abi (extern "C") --> Driver (this crate) --> backend_api::Device (cpu-backend, ...)
//! ```
//!
//! Architecture invariants:
//! - this crate knows nothing of `extern "C"` exports, `cuGetProcAddress` or export tables;
//!   functions that take raw pointers from C are `unsafe fn` with their contract written
//!   down, and everything else is safe;
//! - it knows no particular backend except in [`backends::discover`];
//! - no lock is held while a kernel runs or while a CLS destructor (foreign code) runs.
//!
//! Lifecycle: [`init`] (`cuInit`) builds the process-wide [`Driver`] once; [`driver`]
//! answers `CUDA_ERROR_NOT_INITIALIZED` before that. Tests build private drivers with
//! [`Driver::new`] over fake devices.
//!
//! Execution is synchronous today: the backend's `launch` returns when the kernel is done,
//! so every stream operation completes before its call returns, which is a correct
//! implementation of stream ordering. Streams and events are still real, validated objects.

pub mod backends;
pub mod context;
pub mod copy;
mod ctx_event;
pub mod device;
mod device_attribute;
pub mod device_caps;
pub mod diag;
pub mod error;
pub mod event;
pub(crate) mod exec;
pub mod external_memory;
pub mod extsem;
#[cfg(any(test, feature = "fake-backend"))]
pub mod fake;
pub mod function;
pub mod gl;
pub mod graph;
pub mod green;
pub mod handle;
mod image;
pub mod ipc;
pub mod launch;
mod legacy_abi;
mod legacy_launch;
pub mod library;
pub mod link;
pub mod logs;
pub mod managed;
pub mod memop;
pub mod memory;
pub mod mempool;
pub mod module;
pub mod occupancy;
mod params;
pub mod peer;
pub mod stream;
pub mod stream_attr;
pub mod texture;
pub mod vmm;

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, OnceLock};

pub use context::{ClsDestructor, Limit};
pub use error::{CuError, CuResult};
pub use handle::{
    CtxHandle, EventHandle, ExtSemHandle, FunctionHandle, GraphExecHandle, GraphHandle, GraphNodeHandle, GraphicsHandle, GreenCtxHandle,
    KernelHandle, LibraryHandle, LinkHandle, MemHandle, ModuleHandle, PoolHandle, ResourceDescHandle, StreamHandle, UserObjectHandle,
};

/// The `cuDriverGetVersion` answer: CUDA 13.2. cudart 13 refuses drivers older than 13000
/// (cudaErrorInsufficientDriver); cudart 13.x minor-version compatibility accepts an older
/// 13.x driver than itself, and a lower version keeps cudart from expecting newer entry
/// points. The integrity hash (`cuda-abi`) hashes this same value.
pub const DRIVER_VERSION: i32 = 13020;

/// `cuDriverGetVersion`; valid before `cuInit`.
pub fn driver_version() -> i32 {
    DRIVER_VERSION
}

static DRIVER: OnceLock<Driver> = OnceLock::new();

/// `cuInit(flags)`: builds the process-wide driver from the backends' devices, once.
/// `flags` must be 0. With no device at all it answers `CUDA_ERROR_NO_DEVICE` (and the
/// driver stays usable, with a device count of 0).
pub fn init(flags: u32) -> CuResult<&'static Driver> {
    if flags != 0 {
        return Err(diag::fail(CuError::INVALID_VALUE, format_args!("cuInit: flags must be 0, got {flags:#x}")));
    }
    let driver = DRIVER.get_or_init(|| Driver::new(backends::discover()));
    if driver.devices.is_empty() {
        return Err(diag::fail(CuError::NO_DEVICE, format_args!("cuInit: no device found")));
    }
    Ok(driver)
}

/// The driver `cuInit` built; `CUDA_ERROR_NOT_INITIALIZED` before `cuInit`.
pub fn driver() -> CuResult<&'static Driver> {
    DRIVER.get().ok_or(CuError::NOT_INITIALIZED)
}

/// One device and its primary context.
pub(crate) struct DeviceSlot {
    pub(crate) backend: Arc<dyn backend_api::Device>,
    /// The primary context object, created on first use; its handle never changes.
    pub(crate) primary: OnceLock<CtxHandle>,
}

/// All driver state: devices, every live object, the allocation registry.
pub struct Driver {
    /// Distinguishes drivers in the per-thread context stacks (tests build several).
    pub(crate) id: u64,
    pub(crate) devices: Vec<DeviceSlot>,
    pub(crate) contexts: handle::HandleTable<context::Context, CtxHandle>,
    pub(crate) modules: handle::HandleTable<module::Module, ModuleHandle>,
    pub(crate) functions: handle::HandleTable<function::Function, FunctionHandle>,
    pub(crate) libraries: handle::HandleTable<library::Library, LibraryHandle>,
    pub(crate) kernels: handle::HandleTable<library::Kernel, KernelHandle>,
    pub(crate) streams: handle::HandleTable<stream::Stream, StreamHandle>,
    pub(crate) events: handle::HandleTable<event::Event, EventHandle>,
    pub(crate) links: link::LinkTable,
    pub(crate) memory: memory::Registry,
    /// Reservations, physical allocations and mappings (`cuMemAddressReserve`, `cuMemCreate`, `cuMemMap`).
    pub(crate) vmm: vmm::State,
    /// Memory pools (`cuMemPoolCreate`, each device's default pool) and their blocks.
    pub(crate) pools: mempool::State,
    /// Graphs, their nodes, executable graphs and the stream captures in progress.
    pub(crate) graphs: graph::State,
    /// CUDA arrays and texture and surface objects.
    pub(crate) textures: texture::State,
    /// The advice and prefetches managed memory received (`cuMemRangeGetAttribute`).
    pub(crate) managed_hints: managed::Ranges,
    /// `cuDeviceRegisterAsyncNotification` callbacks.
    pub(crate) notifications: device_caps::Notifications,
    /// Imported external semaphores.
    pub(crate) ext_sems: extsem::Table,
    /// Memory other processes shared with this one (`cuIpcOpenMemHandle`).
    pub(crate) ipc: ipc::State,
    /// Contexts with peer access enabled (`cuCtxEnablePeerAccess`).
    pub(crate) peers: peer::State,
    /// Imported external memory (`cuImportExternalMemory`).
    pub(crate) external: external_memory::State,
    /// Green contexts and resource descriptors (`cuGreenCtxCreate`).
    pub(crate) green_ctxs: green::State,
    /// Registered OpenGL resources (`cuGraphicsGLRegisterBuffer`, `cuGLRegisterBufferObject`).
    pub(crate) gl: gl::State,
    /// What the pre-`cuLaunchKernel` calls set (`cuFuncSetBlockShape`, `cuParamSet*`) and
    /// the contexts `cuCtxAttach` attached to.
    pub(crate) legacy: legacy_launch::State,
}

impl std::fmt::Debug for Driver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Driver").field("id", &self.id).field("devices", &self.devices.len()).finish_non_exhaustive()
    }
}

impl Driver {
    /// A driver over `devices` (ordinal = index). `cuInit` uses the backends' devices;
    /// tests pass fakes.
    pub fn new(devices: Vec<Arc<dyn backend_api::Device>>) -> Driver {
        static NEXT_ID: AtomicU64 = AtomicU64::new(1);
        let pools = mempool::State::new();
        for (ordinal, d) in devices.iter().enumerate() {
            let attributes = (0..=device_attribute::MAX_ATTRIBUTE)
                .map(|attr| device_attribute::attribute(d.properties(), d.managed_memory(), ordinal as i32, attr))
                .collect();
            d.set_device_runtime_attributes(attributes);
        }
        Driver {
            id: NEXT_ID.fetch_add(1, Ordering::Relaxed),
            devices: devices.into_iter().map(|backend| DeviceSlot { backend, primary: OnceLock::new() }).collect(),
            contexts: Default::default(),
            modules: Default::default(),
            functions: Default::default(),
            libraries: Default::default(),
            kernels: Default::default(),
            streams: Default::default(),
            events: Default::default(),
            links: Default::default(),
            memory: Default::default(),
            vmm: Default::default(),
            pools,
            graphs: Default::default(),
            textures: Default::default(),
            managed_hints: Default::default(),
            notifications: Default::default(),
            ext_sems: Default::default(),
            ipc: Default::default(),
            peers: Default::default(),
            external: Default::default(),
            green_ctxs: Default::default(),
            gl: Default::default(),
            legacy: Default::default(),
        }
    }
}

#[cfg(test)]
mod tests;
