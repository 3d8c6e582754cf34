//! The CPU device's properties and memory.
//!
//! Device memory is host memory ([`crate::memory`]), aligned to 512 bytes like
//! `cudaMalloc`'s; a device pointer is the host address, which is what lets kernels use
//! global pointers directly and what makes unified addressing true.

use crate::module::CpuModule;
use crate::pool::Pool;
use backend_api::*;
use std::sync::Arc;

/// Allocations are whole units of this many bytes (CUDA guarantees at least 256).
const ALLOC_ALIGN: usize = 256;

/// The one CPU device.
pub struct CpuDevice {
    props: DeviceProperties,
    memory: crate::memory::Memory,
    pub(crate) pool: Arc<Pool>,
    output: Arc<crate::printf::Output>,
}

impl CpuDevice {
    pub fn new() -> Self {
        Self::with_pool(0, Self::worker_pool())
    }

    /// A pool of one worker per host core.
    pub fn worker_pool() -> Arc<Pool> {
        Pool::new(host_cores())
    }

    /// Device number `ordinal` of several that share `pool`.
    pub fn with_pool(ordinal: usize, pool: Arc<Pool>) -> Self {
        CpuDevice { props: properties(host_cores() as u32, ordinal), memory: Default::default(), pool, output: Default::default() }
    }
}

fn host_cores() -> usize {
    std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1)
}

impl Default for CpuDevice {
    fn default() -> Self {
        Self::new()
    }
}

/// `CUDA_CPU_COMPUTE_CAPABILITY=major.minor` overrides the reported compute capability
/// (default 8.6): some programs choose code paths by it.
fn compute_capability() -> (u32, u32) {
    std::env::var("CUDA_CPU_COMPUTE_CAPABILITY")
        .ok()
        .and_then(|s| {
            let (a, b) = s.split_once('.')?;
            Some((a.trim().parse().ok()?, b.trim().parse().ok()?))
        })
        .unwrap_or((8, 6))
}

/// The fewest multiprocessors the device reports: programs size grids and divide work by
/// `multiProcessorCount` (a grid of `16 * SMs` blocks, `SMs / 4` groups), and GPUs of the
/// compute capabilities we report have dozens; with 2 host cores, a count of 2 left
/// programs with grids too small to keep the workers busy or with a zero divisor.
const MIN_MULTIPROCESSORS: u32 = 16;

/// `CUDA_CPU_MULTIPROCESSORS=N`, else the host's cores but at least [`MIN_MULTIPROCESSORS`].
/// Blocks are handed to the worker threads whatever the count says.
fn multiprocessor_count(cores: u32) -> u32 {
    std::env::var("CUDA_CPU_MULTIPROCESSORS")
        .ok()
        .and_then(|s| s.trim().parse::<u32>().ok())
        .filter(|&n| n > 0)
        .unwrap_or(cores.max(MIN_MULTIPROCESSORS))
}

fn total_memory() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let (pages, size) = unsafe { (libc::sysconf(libc::_SC_PHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    if pages > 0 && size > 0 {
        pages as u64 * size as u64
    } else {
        8 << 30
    }
}

fn available_memory() -> u64 {
    // SAFETY: sysconf has no preconditions.
    let (pages, size) = unsafe { (libc::sysconf(libc::_SC_AVPHYS_PAGES), libc::sysconf(libc::_SC_PAGESIZE)) };
    if pages > 0 && size > 0 {
        pages as u64 * size as u64
    } else {
        total_memory() / 2
    }
}

fn cpu_name() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| std::env::consts::ARCH.to_string())
}

fn properties(cores: u32, ordinal: usize) -> DeviceProperties {
    let name = format!("CPU device ({})", cpu_name());
    // A stable UUID derived from the name (and the ordinal of devices after the first), so
    // it is the same in every process (cudart's integrity check and programs that compare
    // UUIDs rely on that) and differs between devices.
    let mut uuid = [0u8; 16];
    let mut h: u64 = 0xcbf29ce484222325;
    for (i, b) in name.bytes().chain("cuda-cpu-device".bytes()).enumerate() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        uuid[i % 16] ^= (h >> 24) as u8;
    }
    uuid[6] = (uuid[6] & 0x0f) | 0x40;
    uuid[8] = (uuid[8] & 0x3f) | 0x80;
    uuid[15] = uuid[15].wrapping_add(ordinal as u8);
    DeviceProperties {
        name,
        total_memory: total_memory(),
        compute_capability: compute_capability(),
        multiprocessor_count: multiprocessor_count(cores),
        warp_size: 32,
        max_threads_per_block: 1024,
        max_block_dim: compiler_core::target::host::MAX_BLOCK_DIM,
        max_grid_dim: [i32::MAX as u32, 65535, 65535],
        shared_memory_per_block: 48 * 1024,
        shared_memory_per_block_optin: 99 * 1024,
        shared_memory_per_multiprocessor: 100 * 1024,
        registers_per_block: 65536,
        max_threads_per_multiprocessor: 1536,
        clock_rate_khz: 2_000_000,
        memory_clock_rate_khz: 3_200_000,
        memory_bus_width: 64,
        l2_cache_size: 4 << 20,
        total_constant_memory: 64 * 1024,
        uuid,
        pci_domain: 0,
        pci_bus: ordinal as u32,
        pci_device: 0,
        host_addressable_memory: true,
        cooperative_launch: true,
    }
}

impl Device for CpuDevice {
    fn properties(&self) -> &DeviceProperties {
        &self.props
    }

    fn set_device_runtime_attributes(&self, attributes: Vec<Option<i32>>) {
        crate::cdp::set_attributes(attributes);
    }

    fn set_pending_launch_limit(&self, count: usize) {
        crate::cdp::set_pending_limit(count);
    }

    fn alloc(&self, size: usize) -> Result<DevicePtr, DeviceError> {
        // Rounded up to whole 256-byte units, as NVIDIA's allocator hands out memory: a
        // kernel that writes a little past the size it asked for (found in public sample
        // programs) then stays inside its own allocation, as it does on a GPU, instead of
        // corrupting the host heap. The driver still records and checks the requested size.
        let padded = size.max(1).checked_next_multiple_of(ALLOC_ALIGN).ok_or(DeviceError::OutOfMemory)?;
        self.memory.alloc(padded)
    }

    fn free(&self, ptr: DevicePtr) -> Result<(), DeviceError> {
        self.memory.free(ptr);
        Ok(())
    }

    fn share(&self, ptr: DevicePtr) -> Result<SharedMemory, DeviceError> {
        self.memory.share(ptr)
    }

    fn create_texture_object(&self, object: &backend_api::texture::TextureObject) -> Result<u64, DeviceError> {
        Ok(crate::texture::create(object))
    }

    fn destroy_texture_object(&self, handle: u64) {
        // SAFETY: the driver passes only handles from `create_texture_object`, once each.
        unsafe { crate::texture::destroy(handle) }
    }

    fn free_memory(&self) -> u64 {
        available_memory()
    }

    unsafe fn copy_to_device(&self, dst: DevicePtr, src: *const u8, size: usize) -> Result<(), DeviceError> {
        // SAFETY: the driver validated the device range; the caller guarantees `src`.
        unsafe { std::ptr::copy(src, dst as *mut u8, size) };
        Ok(())
    }

    unsafe fn copy_from_device(&self, dst: *mut u8, src: DevicePtr, size: usize) -> Result<(), DeviceError> {
        // SAFETY: as above.
        unsafe { std::ptr::copy(src as *const u8, dst, size) };
        Ok(())
    }

    fn copy_device_to_device(&self, dst: DevicePtr, src: DevicePtr, size: usize) -> Result<(), DeviceError> {
        // SAFETY: the driver validated both ranges.
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, size) };
        Ok(())
    }

    fn memset(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize) -> Result<(), DeviceError> {
        // SAFETY: the driver validated the range `dst .. dst + elem_size * count`.
        unsafe {
            match elem_size {
                1 => std::ptr::write_bytes(dst as *mut u8, value as u8, count),
                2 => (0..count).for_each(|i| std::ptr::write_unaligned((dst as *mut u16).add(i), value as u16)),
                4 => (0..count).for_each(|i| std::ptr::write_unaligned((dst as *mut u32).add(i), value)),
                _ => return Err(DeviceError::NotSupported(format!("memset of {elem_size}-byte elements"))),
            }
        }
        Ok(())
    }

    fn load_ptx(&self, ptx: &str, options: &LoadOptions) -> Result<Arc<dyn LoadedModule>, LoadError> {
        Ok(Arc::new(CpuModule::compile(ptx, options, self.pool.clone(), self.output.clone())?))
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        Ok(())
    }

    fn flush_output(&self) {
        self.output.flush();
    }
}

#[cfg(test)]
mod tests {

    #[test]
    fn small_hosts_report_enough_multiprocessors_for_grid_sizing() {
        // The only test here reading the variable; it is unset in the test environment.
        if std::env::var_os("CUDA_CPU_MULTIPROCESSORS").is_none() {
            assert_eq!(super::multiprocessor_count(2), super::MIN_MULTIPROCESSORS);
            assert_eq!(super::multiprocessor_count(64), 64);
        }
    }
}
