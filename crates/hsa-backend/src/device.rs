//! Discovery of GPU agents and the `Device` implementation: properties, memory, copies.

use crate::ffi::{self, Agent, Hsa, MemoryPool, Signal};
use crate::managed::{self, ManagedRanges};
use crate::occupancy::CuLimits;
use crate::queue::QueuePool;
use crate::status;
use backend_api::{Device, DeviceError, DeviceProperties, DevicePtr, LoadError, LoadOptions, LoadedModule, ManagedMemory};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::{Arc, Mutex};

/// Bytes of the device printf buffer.
const PRINTF_BYTES: usize = 1 << 20;
/// Bytes of one host staging buffer for copies.
const STAGING_BYTES: usize = 8 << 20;

/// Process-wide ROCr state: the library, the CPU agent and its system memory pools.
pub(crate) struct Runtime {
    pub hsa: Arc<Hsa>,
    pub cpu: Agent,
    /// Fine-grained system memory (host-coherent): staging, printf buffers, managed memory.
    pub host_pool: MemoryPool,
    /// The GPU agents that can reach `host_pool`: each has managed memory, and each may
    /// access every managed allocation (`managed.rs`).
    pub managed_agents: Vec<Agent>,
    /// System memory for kernel arguments.
    pub kernarg_pool: MemoryPool,
    pub timestamp_hz: u64,
}

/// What a kernel launch and the modules of a device share.
pub(crate) struct Shared {
    pub rt: Arc<Runtime>,
    pub agent: Agent,
    pub gfx: String,
    /// Device memory (grid workspaces of cooperative launches).
    pub device_pool: MemoryPool,
    /// Compute units and what one holds (occupancy, cooperative launches).
    pub cu_count: u32,
    pub cu_limits: CuLimits,
    pub queues: QueuePool,
    /// The device's printf buffer (device memory: the records' atomic claims then need no
    /// PCIe atomics), the launches running now, and whether one of them can print.
    pub printf: Mutex<PrintfState>,
    /// The host staging buffer of copies (allocated at the first copy), one copy at a time.
    pub staging: Mutex<usize>,
}

/// The printf buffer of a device and who uses it.
pub(crate) struct PrintfState {
    pub buffer: u64,
    pub running: u32,
    pub dirty: bool,
}

/// One AMD GPU.
pub struct HsaDevice {
    pub(crate) shared: Arc<Shared>,
    props: DeviceProperties,
    device_pool: MemoryPool,
    allocations: Mutex<HashMap<u64, usize>>,
    /// Managed allocations (system memory): copies and fills on them run on the host.
    managed: ManagedRanges,
}

fn agent_info<T: Copy>(hsa: &Hsa, agent: Agent, attr: u32) -> Option<T> {
    // SAFETY: every T used here (integers and arrays of them) is valid when zeroed.
    let mut v: T = unsafe { std::mem::zeroed() };
    // SAFETY: `attr` names an attribute whose value has the size of `T`.
    let st = unsafe { (hsa.hsa_agent_get_info)(agent, attr, &mut v as *mut T as *mut c_void) };
    (st == ffi::STATUS_SUCCESS).then_some(v)
}

fn agent_string(hsa: &Hsa, agent: Agent, attr: u32) -> String {
    let buf: [u8; 64] = agent_info(hsa, agent, attr).unwrap_or([0; 64]);
    let n = buf.iter().position(|&c| c == 0).unwrap_or(buf.len());
    String::from_utf8_lossy(&buf[..n]).trim().to_string()
}

fn pool_info<T: Copy + Default>(hsa: &Hsa, pool: MemoryPool, attr: u32) -> T {
    let mut v = T::default();
    // SAFETY: as for agent_info.
    unsafe { (hsa.hsa_amd_memory_pool_get_info)(pool, attr, &mut v as *mut T as *mut c_void) };
    v
}

unsafe extern "C" fn collect(handle: ffi::Handle, data: *mut c_void) -> u32 {
    // SAFETY: `data` is the Vec the caller passed.
    unsafe { (*(data as *mut Vec<ffi::Handle>)).push(handle) };
    ffi::STATUS_SUCCESS
}

/// The global pools of `agent` that allow runtime allocation, with their flags and sizes.
fn pools(hsa: &Hsa, agent: Agent) -> Vec<(MemoryPool, u32, u64)> {
    let mut all: Vec<ffi::Handle> = Vec::new();
    // SAFETY: `collect` pushes into `all`, alive for the call.
    unsafe { (hsa.hsa_amd_agent_iterate_memory_pools)(agent, collect, &mut all as *mut _ as *mut c_void) };
    all.into_iter()
        .filter(|&p| {
            pool_info::<u32>(hsa, p, ffi::POOL_INFO_SEGMENT) == ffi::SEGMENT_GLOBAL && pool_info::<bool>(hsa, p, ffi::POOL_INFO_RUNTIME_ALLOC_ALLOWED)
        })
        .map(|p| (p, pool_info::<u32>(hsa, p, ffi::POOL_INFO_GLOBAL_FLAGS), pool_info::<u64>(hsa, p, ffi::POOL_INFO_SIZE)))
        .collect()
}

/// Open ROCr and describe every GPU agent.
pub(crate) fn discover() -> Result<Vec<Arc<HsaDevice>>, String> {
    let path = std::env::var("HSA_RUNTIME_LIB").unwrap_or_else(|_| crate::LIBRARY.to_string());
    let hsa = Arc::new(Hsa::open(&path).map_err(|e| format!("cannot open {path}: {e}"))?);
    // SAFETY: plain call into the loaded runtime.
    let st = unsafe { (hsa.hsa_init)() };
    if st != ffi::STATUS_SUCCESS {
        return Err(format!("hsa_init: {} ({})", status::name(st), hsa.status_text(st)));
    }
    // Faults in kernels fail their launch instead of aborting the process (`fault.rs`).
    match hsa.hsa_amd_register_system_event_handler {
        // SAFETY: a handler with ROCr's signature that needs no data.
        Some(register) => {
            let st = unsafe { register(Some(crate::fault::on_system_event), std::ptr::null_mut()) };
            if st != ffi::STATUS_SUCCESS {
                crate::debug(format!("hsa_amd_register_system_event_handler: {}; a GPU memory fault will abort the process", status::name(st)));
            }
        }
        None => crate::debug("this ROCr has no hsa_amd_register_system_event_handler; a GPU memory fault will abort the process"),
    }
    let mut agents: Vec<Agent> = Vec::new();
    // SAFETY: `collect` pushes into `agents`.
    unsafe { (hsa.hsa_iterate_agents)(collect, &mut agents as *mut _ as *mut c_void) };
    let (gpus, cpus): (Vec<Agent>, Vec<Agent>) =
        agents.into_iter().partition(|&a| agent_info::<u32>(&hsa, a, ffi::AGENT_INFO_DEVICE) == Some(ffi::DEVICE_TYPE_GPU));
    if gpus.is_empty() {
        // SAFETY: balances the successful hsa_init above; nothing of ROCr is in use.
        unsafe { (hsa.hsa_shut_down)() };
        return Err("ROCr reports no GPU agent".into());
    }
    let cpu = *cpus.first().ok_or("ROCr reports no CPU agent")?;
    let host_pools = pools(&hsa, cpu);
    let host_pool = host_pools.iter().find(|p| p.1 & ffi::POOL_FLAG_FINE_GRAINED != 0).ok_or("no fine-grained system memory pool")?.0;
    let kernarg_pool = host_pools.iter().find(|p| p.1 & ffi::POOL_FLAG_KERNARG_INIT != 0).map(|p| p.0).unwrap_or(host_pool);
    let mut timestamp_hz: u64 = 0;
    // SAFETY: the attribute's value is a u64.
    unsafe { (hsa.hsa_system_get_info)(ffi::SYSTEM_INFO_TIMESTAMP_FREQUENCY, &mut timestamp_hz as *mut u64 as *mut c_void) };
    let managed_agents = managed::agents_reaching(&hsa, &gpus, host_pool);
    let rt = Arc::new(Runtime { hsa: hsa.clone(), cpu, host_pool, managed_agents, kernarg_pool, timestamp_hz: timestamp_hz.max(1_000_000) });
    let mut out = Vec::new();
    for gpu in gpus {
        match HsaDevice::new(rt.clone(), gpu) {
            Ok(d) => out.push(Arc::new(d)),
            Err(e) => crate::debug(format!("skipping a GPU agent: {e}")),
        }
    }
    Ok(out)
}

/// Bus and device numbers from ROCr's BDF id (`bus << 8 | device << 3 | function`).
pub fn parse_bdfid(bdfid: u32) -> (u32, u32) {
    ((bdfid >> 8) & 0xff, (bdfid >> 3) & 0x1f)
}

/// A 16-byte device UUID from ROCr's `GPU-<16 hex digits>`: those 8 bytes, then the PCI
/// location, so two boards without a serial (`GPU-XX`) still differ.
pub fn uuid_bytes(rocr_uuid: &str, domain: u32, bdfid: u32) -> [u8; 16] {
    let mut u = [0u8; 16];
    let hex = rocr_uuid.strip_prefix("GPU-").unwrap_or(rocr_uuid);
    if hex.len() == 16 && hex.bytes().all(|c| c.is_ascii_hexdigit()) {
        for (k, b) in u.iter_mut().take(8).enumerate() {
            *b = u8::from_str_radix(&hex[2 * k..2 * k + 2], 16).unwrap_or(0);
        }
    }
    u[8..12].copy_from_slice(&domain.to_le_bytes());
    u[12..16].copy_from_slice(&bdfid.to_le_bytes());
    u
}

impl Shared {
    /// One DMA copy, waited for.
    pub fn dma(&self, dst: *mut c_void, dst_agent: Agent, src: *const c_void, src_agent: Agent, size: usize) -> Result<(), DeviceError> {
        let hsa = &self.rt.hsa;
        let mut signal = Signal::default();
        // SAFETY: a plain signal.
        check(unsafe { (hsa.hsa_signal_create)(1, 0, std::ptr::null(), &mut signal) })?;
        // SAFETY: the caller guarantees both ranges; the signal lives until we destroy it.
        let st = unsafe { (hsa.hsa_amd_memory_async_copy)(dst, dst_agent, src, src_agent, size, 0, std::ptr::null(), signal) };
        if st == ffi::STATUS_SUCCESS {
            // SAFETY: waiting on our signal.
            while unsafe { (hsa.hsa_signal_wait_scacquire)(signal, ffi::SIGNAL_CONDITION_LT, 1, u64::MAX, ffi::WAIT_STATE_BLOCKED) } >= 1 {}
        }
        // SAFETY: the copy has completed (or never started).
        unsafe { (hsa.hsa_signal_destroy)(signal) };
        check(st)
    }

    /// Copy through the device's host staging buffer: `chunk(staging, offset, n)` prepares
    /// or consumes each chunk; `to_device` says the direction.
    pub fn staged(&self, dev: DevicePtr, size: usize, to_device: bool, mut chunk: impl FnMut(*mut u8, usize, usize)) -> Result<(), DeviceError> {
        let n = STAGING_BYTES;
        let mut guard = self.staging.lock().unwrap_or_else(|e| e.into_inner());
        if *guard == 0 {
            *guard = alloc_host(&self.rt, self.agent, n).map_err(status::device_error)?;
        }
        let staging = *guard;
        let (gpu, cpu) = (self.agent, self.rt.cpu);
        let mut done = 0;
        let mut result = Ok(());
        while done < size && result.is_ok() {
            let len = (size - done).min(n);
            let d = (dev as usize + done) as *mut c_void;
            if to_device {
                chunk(staging as *mut u8, done, len);
                result = self.dma(d, gpu, staging as *const c_void, cpu, len);
            } else {
                result = self.dma(staging as *mut c_void, cpu, d, gpu, len);
                chunk(staging as *mut u8, done, len);
            }
            done += len;
        }
        result
    }
}

impl HsaDevice {
    fn new(rt: Arc<Runtime>, agent: Agent) -> Result<HsaDevice, String> {
        let hsa = &rt.hsa;
        let gfx = agent_string(hsa, agent, ffi::AGENT_INFO_NAME);
        compiler_core::target::amdgpu::lookup(&gfx).map_err(|e| e.to_string())?;
        let product = agent_string(hsa, agent, ffi::AMD_AGENT_INFO_PRODUCT_NAME);
        let device_pools = pools(hsa, agent);
        let (device_pool, _, total) = *device_pools
            .iter()
            .find(|p| p.1 & ffi::POOL_FLAG_COARSE_GRAINED != 0)
            .or(device_pools.first())
            .ok_or_else(|| format!("{gfx}: no device memory pool"))?;
        let u32_info = |attr: u32| agent_info::<u32>(hsa, agent, attr).unwrap_or(0);
        let wave = u32_info(ffi::AGENT_INFO_WAVEFRONT_SIZE).max(32);
        let max_dim: [u16; 3] = agent_info(hsa, agent, ffi::AGENT_INFO_WORKGROUP_MAX_DIM).unwrap_or([1024, 1024, 1024]);
        let caches: [u32; 4] = agent_info(hsa, agent, ffi::AGENT_INFO_CACHE_SIZE).unwrap_or([0; 4]);
        let bdfid = u32_info(ffi::AMD_AGENT_INFO_BDFID);
        let domain = u32_info(ffi::AMD_AGENT_INFO_DOMAIN);
        let (bus, dev) = parse_bdfid(bdfid);
        let uuid = uuid_bytes(&agent_string(hsa, agent, ffi::AMD_AGENT_INFO_UUID), domain, bdfid);
        let max_threads = u32_info(ffi::AGENT_INFO_WORKGROUP_MAX_SIZE).clamp(1, 1024);
        let props = DeviceProperties {
            name: if product.is_empty() { format!("AMD {gfx}") } else { format!("{product} ({gfx})") },
            total_memory: total,
            compute_capability: compute_capability(),
            multiprocessor_count: u32_info(ffi::AMD_AGENT_INFO_COMPUTE_UNIT_COUNT).max(1),
            // PTX warps have 32 lanes; wave64 GPUs run two per wavefront.
            warp_size: 32,
            max_threads_per_block: max_threads,
            max_block_dim: [(max_dim[0] as u32).min(1024), (max_dim[1] as u32).min(1024), (max_dim[2] as u32).min(64)],
            // AQL grid sizes are 32-bit work-item counts; launches check the product.
            max_grid_dim: [i32::MAX as u32, 65535, 65535],
            shared_memory_per_block: 48 << 10,
            shared_memory_per_block_optin: compiler_core::target::amdgpu::LDS_BYTES as u32,
            shared_memory_per_multiprocessor: compiler_core::target::amdgpu::LDS_BYTES as u32,
            registers_per_block: 65536,
            max_threads_per_multiprocessor: (u32_info(ffi::AMD_AGENT_INFO_MAX_WAVES_PER_CU) * wave).max(max_threads),
            clock_rate_khz: u32_info(ffi::AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY) * 1000,
            memory_clock_rate_khz: u32_info(ffi::AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY) * 1000,
            memory_bus_width: u32_info(ffi::AMD_AGENT_INFO_MEMORY_WIDTH),
            l2_cache_size: caches[1],
            total_constant_memory: 64 << 10,
            uuid,
            pci_domain: domain,
            pci_bus: bus,
            pci_device: dev,
            host_addressable_memory: false,
            // Occupancy comes from the kernels' descriptors (`occupancy.rs`), and the grid
            // workspace from the implicit arguments.
            cooperative_launch: true,
        };
        let queues = QueuePool::new(hsa.clone(), agent, rt.timestamp_hz);
        let printf = Mutex::new(PrintfState { buffer: 0, running: 0, dirty: false });
        let (_, compiled_wave) = compiler_core::target::amdgpu::lookup(&gfx).map_err(|e| e.to_string())?;
        let simds = agent_info::<u32>(hsa, agent, ffi::AMD_AGENT_INFO_NUM_SIMDS_PER_CU);
        let cu_limits = CuLimits::new(&gfx, compiled_wave, simds, agent_info::<u32>(hsa, agent, ffi::AMD_AGENT_INFO_MAX_WAVES_PER_CU));
        let cu_count = u32_info(ffi::AMD_AGENT_INFO_COMPUTE_UNIT_COUNT).max(1);
        let shared =
            Arc::new(Shared { rt: rt.clone(), agent, gfx: gfx.clone(), device_pool, cu_count, cu_limits, queues, printf, staging: Mutex::new(0) });
        let device = HsaDevice { shared, props, device_pool, allocations: Mutex::new(HashMap::new()), managed: ManagedRanges::default() };
        let buffer = device.alloc(PRINTF_BYTES).map_err(|e| format!("{gfx}: printf buffer: {e}"))?;
        let mut header = [0u8; 16];
        header[..8].copy_from_slice(&((PRINTF_BYTES - compiler_core::target::amdgpu::printf::RECORDS_OFFSET) as u64).to_le_bytes());
        // SAFETY: 16 bytes of a fresh allocation of PRINTF_BYTES.
        unsafe { device.copy_to_device(buffer, header.as_ptr(), 16) }.map_err(|e| format!("{gfx}: printf buffer: {e}"))?;
        device.shared.printf.lock().unwrap_or_else(|e| e.into_inner()).buffer = buffer;
        Ok(device)
    }

    fn hsa(&self) -> &Hsa {
        &self.shared.rt.hsa
    }
}

fn compute_capability() -> (u32, u32) {
    std::env::var("CUDA_AMD_COMPUTE_CAPABILITY")
        .ok()
        .and_then(|v| v.split_once('.').and_then(|(a, b)| Some((a.parse().ok()?, b.parse().ok()?))))
        .unwrap_or((8, 6))
}

pub(crate) fn check(st: u32) -> Result<(), DeviceError> {
    if st == ffi::STATUS_SUCCESS {
        Ok(())
    } else {
        Err(status::device_error(st))
    }
}

/// Host memory from the fine-grained pool, usable by `agent`. Returns its address.
pub(crate) fn alloc_host(rt: &Runtime, agent: Agent, size: usize) -> Result<usize, u32> {
    alloc_in(rt, rt.host_pool, agent, size)
}

pub(crate) fn alloc_in(rt: &Runtime, pool: MemoryPool, agent: Agent, size: usize) -> Result<usize, u32> {
    let hsa = &rt.hsa;
    let mut p: *mut c_void = std::ptr::null_mut();
    // SAFETY: allocation from a pool that allows it.
    let st = unsafe { (hsa.hsa_amd_memory_pool_allocate)(pool, size, 0, &mut p) };
    if st != ffi::STATUS_SUCCESS {
        return Err(st);
    }
    // SAFETY: granting the GPU access to memory we own.
    let st = unsafe { (hsa.hsa_amd_agents_allow_access)(1, &agent, std::ptr::null(), p) };
    if st != ffi::STATUS_SUCCESS {
        // SAFETY: allocated above.
        unsafe { (hsa.hsa_amd_memory_pool_free)(p) };
        return Err(st);
    }
    Ok(p as usize)
}

impl Device for HsaDevice {
    fn properties(&self) -> &DeviceProperties {
        &self.props
    }

    fn alloc(&self, size: usize) -> Result<DevicePtr, DeviceError> {
        let mut p: *mut c_void = std::ptr::null_mut();
        // SAFETY: allocation from the agent's own pool (256-byte alignment at least).
        check(unsafe { (self.hsa().hsa_amd_memory_pool_allocate)(self.device_pool, size.max(1), 0, &mut p) })?;
        self.allocations.lock().unwrap_or_else(|e| e.into_inner()).insert(p as u64, size);
        Ok(p as u64)
    }

    /// Fine-grained system memory (`managed.rs`): coherent with the host at all times, so
    /// the host may touch it while kernels run.
    fn managed_memory(&self) -> Option<ManagedMemory> {
        self.shared.rt.managed_agents.contains(&self.shared.agent).then_some(ManagedMemory { concurrent_access: true })
    }

    fn alloc_managed(&self, size: usize) -> Result<DevicePtr, DeviceError> {
        if self.managed_memory().is_none() {
            return Err(DeviceError::NotSupported(format!("managed memory: {} cannot reach system memory", self.shared.gfx)));
        }
        let rt = &self.shared.rt;
        let ptr = managed::allocate(&rt.hsa, rt.host_pool, &rt.managed_agents, size).map_err(status::device_error)?;
        self.managed.insert(ptr, size);
        Ok(ptr)
    }

    fn free(&self, ptr: DevicePtr) -> Result<(), DeviceError> {
        self.managed.remove(ptr);
        self.allocations.lock().unwrap_or_else(|e| e.into_inner()).remove(&ptr);
        // SAFETY: the driver guarantees `ptr` came from `alloc`.
        check(unsafe { (self.hsa().hsa_amd_memory_pool_free)(ptr as *mut c_void) })
    }

    fn free_memory(&self) -> u64 {
        let used: usize = self.allocations.lock().unwrap_or_else(|e| e.into_inner()).values().sum();
        self.props.total_memory.saturating_sub(used as u64)
    }

    unsafe fn copy_to_device(&self, dst: DevicePtr, src: *const u8, size: usize) -> Result<(), DeviceError> {
        if self.managed.contains(dst) {
            // SAFETY: managed memory is host memory; the driver checked the range, the
            // caller guarantees `src`.
            unsafe { std::ptr::copy(src, dst as usize as *mut u8, size) };
            return Ok(());
        }
        self.shared.staged(dst, size, true, |staging, off, n| {
            // SAFETY: the caller guarantees `src` for `size` bytes; staging holds `n`.
            unsafe { std::ptr::copy_nonoverlapping(src.add(off), staging, n) }
        })
    }

    unsafe fn copy_from_device(&self, dst: *mut u8, src: DevicePtr, size: usize) -> Result<(), DeviceError> {
        if self.managed.contains(src) {
            // SAFETY: as in copy_to_device.
            unsafe { std::ptr::copy(src as usize as *const u8, dst, size) };
            return Ok(());
        }
        self.shared.staged(src, size, false, |staging, off, n| {
            // SAFETY: the caller guarantees `dst` for `size` bytes.
            unsafe { std::ptr::copy_nonoverlapping(staging, dst.add(off), n) }
        })
    }

    fn copy_device_to_device(&self, dst: DevicePtr, src: DevicePtr, size: usize) -> Result<(), DeviceError> {
        // Each side's agent: the CPU's for managed (system) memory, which the DMA engine
        // reaches as it does the staging buffers; two managed sides are a host copy.
        let agent_of = |p: DevicePtr| if self.managed.contains(p) { self.shared.rt.cpu } else { self.shared.agent };
        let (da, sa) = (agent_of(dst), agent_of(src));
        if da == self.shared.rt.cpu && sa == self.shared.rt.cpu {
            // SAFETY: both ranges are managed (host) memory the driver checked.
            unsafe { std::ptr::copy(src as usize as *const u8, dst as usize as *mut u8, size) };
            return Ok(());
        }
        self.shared.dma(dst as *mut c_void, da, src as *const c_void, sa, size)
    }

    fn memset(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize) -> Result<(), DeviceError> {
        if self.managed.contains(dst) {
            // SAFETY: managed memory is host memory; the driver checked the range.
            unsafe { managed::fill_host(dst, value, elem_size, count) };
            return Ok(());
        }
        let bytes = elem_size * count;
        let pattern = match elem_size {
            1 => (value & 0xff) * 0x0101_0101,
            2 => (value & 0xffff) * 0x0001_0001,
            _ => value,
        };
        if dst.is_multiple_of(4) && bytes.is_multiple_of(4) {
            // SAFETY: the driver checked the range lies in an allocation.
            return check(unsafe { (self.hsa().hsa_amd_memory_fill)(dst as *mut c_void, pattern, bytes / 4) });
        }
        let pat = pattern.to_le_bytes();
        self.shared.staged(dst, bytes, true, |staging, off, n| {
            for k in 0..n {
                // SAFETY: staging holds `n` bytes.
                unsafe { *staging.add(k) = pat[(off + k) % elem_size.max(1)] };
            }
        })
    }

    fn load_ptx(&self, ptx: &str, options: &LoadOptions) -> Result<Arc<dyn LoadedModule>, LoadError> {
        crate::module::load(self.shared.clone(), ptx, options).map(|m| Arc::new(m) as Arc<dyn LoadedModule>)
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        // Launches and copies wait for their own completion.
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pci_location_and_uuid() {
        assert_eq!(parse_bdfid(0x0300), (3, 0));
        assert_eq!(parse_bdfid((0xc1 << 8) | (2 << 3) | 1), (0xc1, 2));
        let u = uuid_bytes("GPU-0123456789abcdef", 1, 0x0300);
        assert_eq!(&u[..8], &[0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]);
        assert_eq!(&u[8..12], &1u32.to_le_bytes());
        // Boards without a serial still get distinct ids from their PCI location.
        assert_ne!(uuid_bytes("GPU-XX", 0, 0x0300), uuid_bytes("GPU-XX", 0, 0x0400));
    }
}
