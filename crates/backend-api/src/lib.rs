//! The contract between the driver (`cuda-driver`) and the device backends
//! (`cpu-backend`, later `hsa-backend`).
//!
//! The driver owns CUDA semantics: handles, contexts, validation, error codes, argument
//! packing. A backend owns a kind of hardware: it enumerates devices, allocates memory,
//! compiles a PTX module for itself and runs kernels. A backend validates nothing the
//! driver can check first (pointer ranges, launch limits); it reports only errors the
//! driver cannot anticipate (out of memory, a compile error, a faulting kernel).
//!
//! Invariant: nothing here knows about the C ABI or about any particular backend.

use std::sync::Arc;

pub mod texture;

/// A device address. On the CPU device it is a host address; on a GPU it is the GPU's
/// virtual address. Zero is never a valid allocation.
pub type DevicePtr = u64;

/// Static facts about a device, from which the driver answers `cuDeviceGetAttribute`,
/// `cuDeviceGetName`, `cuDeviceTotalMem` and `cuDeviceGetUuid`.
#[derive(Clone, Debug)]
pub struct DeviceProperties {
    pub name: String,
    pub total_memory: u64,
    /// Compute capability reported to programs (`(8, 6)` by default on the CPU device).
    pub compute_capability: (u32, u32),
    pub multiprocessor_count: u32,
    pub warp_size: u32,
    pub max_threads_per_block: u32,
    pub max_block_dim: [u32; 3],
    pub max_grid_dim: [u32; 3],
    /// Shared memory per block without opt-in (48 KiB on NVIDIA GPUs).
    pub shared_memory_per_block: u32,
    /// Shared memory per block with `cuFuncSetAttribute(MAX_DYNAMIC_SHARED_SIZE_BYTES)`.
    pub shared_memory_per_block_optin: u32,
    pub shared_memory_per_multiprocessor: u32,
    pub registers_per_block: u32,
    pub max_threads_per_multiprocessor: u32,
    pub clock_rate_khz: u32,
    pub memory_clock_rate_khz: u32,
    pub memory_bus_width: u32,
    pub l2_cache_size: u32,
    pub total_constant_memory: u32,
    /// The device's UUID (`cuDeviceGetUuid`); it also feeds cudart's integrity check.
    pub uuid: [u8; 16],
    pub pci_domain: u32,
    pub pci_bus: u32,
    pub pci_device: u32,
    /// Whether device memory is directly addressable by the host (true for the CPU device:
    /// it reports unified addressing and managed memory).
    pub host_addressable_memory: bool,
    /// Whether the device runs cooperative launches (`CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH`):
    /// every block of a grid no larger than the occupancy model's resident-block count
    /// (blocks per multiprocessor times multiprocessors) runs at the same time.
    pub cooperative_launch: bool,
}

/// The managed memory (`cuMemAllocManaged`) a device offers: one pointer that the host
/// and the device's kernels both dereference (CUDA Programming Guide, "Unified Memory").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ManagedMemory {
    /// The host may access managed memory while kernels run, coherently
    /// (`CU_DEVICE_ATTRIBUTE_CONCURRENT_MANAGED_ACCESS`; also what `cuMemPrefetchAsync`
    /// to the device requires).
    pub concurrent_access: bool,
}

/// Why a module could not be loaded.
#[derive(Debug, thiserror::Error)]
pub enum LoadError {
    /// The PTX is malformed or uses something unsupported; `log` has line:column messages.
    #[error("invalid PTX:\n{log}")]
    InvalidPtx { log: String },
    /// The code generator failed on valid input (a compiler bug or a resource limit).
    #[error("code generation failed: {0}")]
    Codegen(String),
    #[error("out of memory")]
    OutOfMemory,
}

/// Errors a backend reports at run time.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum DeviceError {
    #[error("out of memory")]
    OutOfMemory,
    /// A kernel accessed memory it must not (CUDA_ERROR_ILLEGAL_ADDRESS, sticky).
    #[error("illegal address")]
    IllegalAddress,
    /// A kernel executed `trap` (CUDA_ERROR_LAUNCH_FAILED, sticky).
    #[error("unspecified launch failure")]
    LaunchFailed,
    /// A kernel executed an invalid instruction (CUDA_ERROR_ILLEGAL_INSTRUCTION, sticky).
    #[error("an illegal instruction was encountered")]
    IllegalInstruction,
    /// A device-side assert failed (CUDA_ERROR_ASSERT, sticky).
    #[error("device-side assert triggered")]
    Assert,
    /// The launch needs more resources than the kernel can have (registers, shared memory).
    #[error("too many resources requested for launch")]
    OutOfResources,
    #[error("not supported: {0}")]
    NotSupported(String),
}

/// Where one kernel parameter lives in the packed parameter buffer, as declared by the
/// kernel's `.param` list (PTX ISA 5.1.6.1: each parameter aligned to its own alignment).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamLayout {
    pub offset: usize,
    pub size: usize,
}

/// What the driver needs to know about a kernel to validate and launch it.
#[derive(Clone, Debug)]
pub struct KernelInfo {
    pub name: String,
    pub params: Vec<ParamLayout>,
    /// Total size of the packed parameter buffer.
    pub param_buffer_size: usize,
    /// Bytes of statically declared `.shared` memory.
    pub static_shared_bytes: u32,
    /// Bytes of `.local` memory per thread.
    pub local_bytes_per_thread: u32,
    /// The largest block this kernel can be launched with (`.maxntid`/`.reqntid`, else the
    /// device limit).
    pub max_threads_per_block: u32,
    /// `.reqntid`, if declared: launches with another block shape fail.
    pub required_block: Option<[u32; 3]>,
    /// Registers per thread reported through `cuFuncGetAttribute` (an estimate on the CPU).
    pub num_regs: u32,
    /// Bytes of user constant memory (`.const` variables) the kernel uses.
    pub const_bytes: u32,
}

/// A module variable (`.global` / `.const`) as `cuModuleGetGlobal` reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GlobalInfo {
    pub address: DevicePtr,
    pub size: usize,
    /// `Some` for a texture or surface reference (`.texref`/`.surfref`): its 8 bytes hold
    /// the handle of the object bound to it, which the driver writes
    /// (`cuModuleGetTexRef`); it is not a variable `cuModuleGetGlobal` hands out.
    pub reference: Option<texture::Reference>,
}

/// Options that affect compilation (from `cuModuleLoadDataEx` JIT options).
#[derive(Clone, Debug, Default)]
pub struct LoadOptions {
    /// `CU_JIT_OPTIMIZATION_LEVEL` (0..4, default 4).
    pub optimization_level: Option<u32>,
    /// `CU_JIT_MAX_REGISTERS`: the most registers per thread a kernel may use.
    pub max_registers: Option<u32>,
    /// Compile every kernel at load (`Some(false)`) or each on first use (`Some(true)`);
    /// `None`: `CUDA_MODULE_LOADING`, else the backend's default.
    pub lazy: Option<bool>,
}

/// A successfully loaded module: kernels and globals by name.
pub trait LoadedModule: Send + Sync {
    fn kernel(&self, name: &str) -> Option<KernelInfo>;
    /// Why kernel `name` cannot run, when [`LoadedModule::kernel`] describes it but it did
    /// not compile (a lazily compiled kernel: its launches fail with this reason).
    fn kernel_error(&self, name: &str) -> Option<String> {
        let _ = name;
        None
    }
    fn global(&self, name: &str) -> Option<GlobalInfo>;
    fn kernel_names(&self) -> Vec<String>;
    /// Warnings produced while compiling (for `CU_JIT_INFO_LOG_BUFFER`).
    fn info_log(&self) -> String;
    /// Run `kernel` and wait for it. `params` is the packed parameter buffer laid out as
    /// `KernelInfo::params` says; the driver has validated the configuration (for a
    /// cooperative launch also that every block can be resident at once, by the
    /// driver's occupancy model).
    ///
    /// Called from the driver's stream workers: several launches (of this and other
    /// modules) may run concurrently, one per stream, and share the device.
    fn launch(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError>;
    /// As [`LoadedModule::launch`], for a cooperative launch (`cuLaunchCooperativeKernel`):
    /// every block runs at the same time, so blocks may wait for each other (grid-wide
    /// synchronization). Only called on devices whose `cooperative_launch` is true.
    fn launch_cooperative(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        let _ = (kernel, config, params);
        Err(DeviceError::NotSupported("cooperative launches".into()))
    }
    /// How many blocks of `kernel` with `block_threads` threads and `dynamic_shared_bytes`
    /// of dynamic shared memory one multiprocessor holds at once, where the backend knows
    /// its hardware's occupancy (`None`: the driver's model from the device properties
    /// applies). The driver answers the occupancy API and checks cooperative launches
    /// (`CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE`) with it.
    fn resident_blocks_per_multiprocessor(&self, kernel: &str, block_threads: u32, dynamic_shared_bytes: u32) -> Option<u64> {
        let _ = (kernel, block_threads, dynamic_shared_bytes);
        None
    }
}

/// One kernel launch, already validated by the driver.
#[derive(Clone, Copy, Debug, Default)]
pub struct LaunchConfig {
    pub grid: [u32; 3],
    pub block: [u32; 3],
    /// Dynamic shared memory bytes.
    pub dynamic_shared_bytes: u32,
}

/// An allocation's bytes as a file other processes can map ([`Device::share`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SharedMemory {
    /// The file's descriptor in this process (the backend's; open until the free).
    pub fd: i32,
    /// Where the allocation starts in the file.
    pub offset: u64,
    /// The bytes of the file that belong to the allocation from `offset` (whole pages).
    pub len: u64,
}

/// A device of some backend.
pub trait Device: Send + Sync {
    fn properties(&self) -> &DeviceProperties;
    /// Allocate `size` bytes of device memory (aligned to at least 256 bytes, like CUDA).
    fn alloc(&self, size: usize) -> Result<DevicePtr, DeviceError>;
    /// The managed memory this device can allocate, `None` where it has none
    /// (`cuMemAllocManaged` then answers `CUDA_ERROR_NOT_SUPPORTED` and
    /// `CU_DEVICE_ATTRIBUTE_MANAGED_MEMORY` is 0). By default a device whose memory the host
    /// addresses directly has it (its memory already is managed memory).
    fn managed_memory(&self) -> Option<ManagedMemory> {
        self.properties().host_addressable_memory.then_some(ManagedMemory { concurrent_access: true })
    }
    /// Allocate `size` bytes of managed memory (only called where [`Device::managed_memory`]
    /// is `Some`): aligned as [`Device::alloc`], addressable
    /// by the host at the returned address, freed with [`Device::free`], and a valid
    /// address for the copy and fill methods. By default device memory, which is right
    /// for host-addressable devices.
    fn alloc_managed(&self, size: usize) -> Result<DevicePtr, DeviceError> {
        if self.managed_memory().is_none() {
            return Err(DeviceError::NotSupported("managed memory".into()));
        }
        self.alloc(size)
    }
    /// Free memory from [`Device::alloc`] or [`Device::alloc_managed`]; the driver
    /// guarantees `ptr` came from one of them.
    fn free(&self, ptr: DevicePtr) -> Result<(), DeviceError>;
    /// Makes the allocation at `ptr` (from [`Device::alloc`], its base) shareable with
    /// other processes of the machine: from now on its bytes live in a file that stays
    /// mapped at the same address, whose descriptor the backend keeps open until
    /// [`Device::free`]. Asking again gives the same file. The caller makes sure nothing
    /// uses the allocation meanwhile. Devices that cannot say so.
    fn share(&self, ptr: DevicePtr) -> Result<SharedMemory, DeviceError> {
        let _ = ptr;
        Err(DeviceError::NotSupported("sharing device memory with other processes".into()))
    }
    /// Free bytes of device memory now.
    fn free_memory(&self) -> u64;
    /// Copy host to device. The driver has checked the range lies in an allocation.
    ///
    /// # Safety
    /// `src` must be valid for reading `size` bytes.
    unsafe fn copy_to_device(&self, dst: DevicePtr, src: *const u8, size: usize) -> Result<(), DeviceError>;
    /// Copy device to host.
    ///
    /// # Safety
    /// `dst` must be valid for writing `size` bytes.
    unsafe fn copy_from_device(&self, dst: *mut u8, src: DevicePtr, size: usize) -> Result<(), DeviceError>;
    fn copy_device_to_device(&self, dst: DevicePtr, src: DevicePtr, size: usize) -> Result<(), DeviceError>;
    /// Fill `count` elements of `elem_size` (1, 2 or 4) bytes with `value`.
    fn memset(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize) -> Result<(), DeviceError>;
    /// Compile and load a PTX module.
    fn load_ptx(&self, ptx: &str, options: &LoadOptions) -> Result<Arc<dyn LoadedModule>, LoadError>;
    /// Wait for all work the backend runs on its own (the driver orders and waits for the
    /// work it submits itself).
    fn synchronize(&self) -> Result<(), DeviceError>;
    /// Create a texture or surface object over device memory this device owns; the
    /// returned non-zero value is what kernels receive as the object. Devices without
    /// texture units of their own say so.
    fn create_texture_object(&self, object: &texture::TextureObject) -> Result<u64, DeviceError> {
        let _ = object;
        Err(DeviceError::NotSupported("texture and surface objects".into()))
    }
    /// Destroy an object from [`Device::create_texture_object`]; the driver guarantees
    /// `handle` came from it and is destroyed once.
    fn destroy_texture_object(&self, handle: u64) {
        let _ = handle;
    }
    /// Write out device-side output (`printf`) of launches that have completed. The
    /// driver calls it at CUDA's flush points: synchronization, blocking copies, launches,
    /// module load/unload, context teardown, before host callbacks.
    fn flush_output(&self) {}
    /// What the device runtime (CUDA dynamic parallelism) answers device code: the value
    /// of each `cudaDeviceAttr` (index = attribute id, `None` = unknown id), as
    /// `cuDeviceGetAttribute` answers them. Called once, when the driver starts.
    fn set_device_runtime_attributes(&self, attributes: Vec<Option<i32>>) {
        let _ = attributes;
    }
    /// `cudaLimitDevRuntimePendingLaunchCount` as the program set it (`cuCtxSetLimit`):
    /// how many device-side launches may wait to run.
    fn set_pending_launch_limit(&self, count: usize) {
        let _ = count;
    }
}
