//! The CPU device's properties and memory.
//!
//! Device memory is host memory, aligned to 512 bytes like `cudaMalloc`'s; a device
//! pointer is the host address, which is what lets kernels use global pointers directly
//! and what makes unified addressing true. Allocations under a page come from the global
//! allocator; larger ones are mappings of their own (whole pages no other data shares),
//! which is what lets [`Device::share`] turn one into a shared file mapping in place for
//! IPC (CUDA Driver API, "Memory Management", `cuIpcGetMemHandle`).

use crate::module::CpuModule;
use crate::pool::Pool;
use backend_api::*;
use std::alloc::Layout;
use std::collections::HashMap;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::sync::{Arc, Mutex};

/// Allocations are whole units of this many bytes (CUDA guarantees at least 256).
const ALLOC_ALIGN: usize = 256;
/// Alignment of every allocation: the device's texture alignment
/// (`CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT`), so that any allocation can back a linear
/// texture, as `cudaMalloc`'s results do on NVIDIA's GPUs.
const BASE_ALIGN: usize = 512;

/// How an allocation's bytes are held.
enum Backing {
    /// From the global allocator (under a page).
    Heap(Layout),
    /// An anonymous private mapping of `len` bytes (whole pages).
    Pages { len: usize },
    /// A memfd of `len` bytes mapped shared at the allocation's address ([`Device::share`]).
    Shared { len: usize, fd: OwnedFd },
}

/// The one CPU device.
pub struct CpuDevice {
    props: DeviceProperties,
    allocations: Mutex<HashMap<u64, Backing>>,
    pub(crate) pool: Arc<Pool>,
    output: Arc<crate::printf::Output>,
}

impl CpuDevice {
    pub fn new() -> Self {
        let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
        CpuDevice { props: properties(cores as u32), allocations: Mutex::new(HashMap::new()), pool: Pool::new(cores), output: Default::default() }
    }
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

fn page_size() -> usize {
    // SAFETY: sysconf has no preconditions.
    let size = unsafe { libc::sysconf(libc::_SC_PAGESIZE) };
    usize::try_from(size).ok().filter(|&s| s > 0).unwrap_or(4096)
}

/// Moves the `len` bytes mapped at `ptr` into a new memfd and maps that shared over the
/// same pages, so the address keeps its contents and other processes can map the file.
/// Writes to the range between the copy and the remapping would be lost: the caller
/// makes sure no work uses it meanwhile.
fn to_shared_file(ptr: u64, len: usize) -> std::io::Result<OwnedFd> {
    // SAFETY: a NUL-terminated name and valid flags.
    let raw = unsafe { libc::memfd_create(c"cuda-ipc".as_ptr(), libc::MFD_CLOEXEC) };
    if raw < 0 {
        return Err(std::io::Error::last_os_error());
    }
    // SAFETY: `raw` was just created and is owned by nobody else.
    let fd = unsafe { OwnedFd::from_raw_fd(raw) };
    let mut done = 0;
    while done < len {
        // SAFETY: `[ptr, ptr+len)` is this allocation's readable mapping.
        let n = unsafe { libc::pwrite(raw, (ptr as usize + done) as *const libc::c_void, len - done, done as libc::off_t) };
        if n < 0 {
            let e = std::io::Error::last_os_error();
            if e.kind() == std::io::ErrorKind::Interrupted {
                continue;
            }
            return Err(e);
        }
        done += n as usize;
    }
    // SAFETY: MAP_FIXED replaces exactly the allocation's own pages (it owns them whole).
    let p =
        unsafe { libc::mmap(ptr as usize as *mut libc::c_void, len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_SHARED | libc::MAP_FIXED, raw, 0) };
    if p == libc::MAP_FAILED {
        return Err(std::io::Error::last_os_error());
    }
    Ok(fd)
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

fn properties(cores: u32) -> DeviceProperties {
    let name = format!("CPU device ({})", cpu_name());
    // A stable UUID derived from the name, so it is the same in every process (cudart's
    // integrity check and programs that compare UUIDs rely on that).
    let mut uuid = [0u8; 16];
    let mut h: u64 = 0xcbf29ce484222325;
    for (i, b) in name.bytes().chain("cuda-cpu-device".bytes()).enumerate() {
        h = (h ^ b as u64).wrapping_mul(0x100000001b3);
        uuid[i % 16] ^= (h >> 24) as u8;
    }
    uuid[6] = (uuid[6] & 0x0f) | 0x40;
    uuid[8] = (uuid[8] & 0x3f) | 0x80;
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
        pci_bus: 0,
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
        let page = page_size();
        if padded >= page {
            let len = padded.checked_next_multiple_of(page).ok_or(DeviceError::OutOfMemory)?;
            // SAFETY: a fresh anonymous mapping at an address of the kernel's choosing.
            let p =
                unsafe { libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0) };
            if p == libc::MAP_FAILED {
                return Err(DeviceError::OutOfMemory);
            }
            self.allocations.lock().unwrap().insert(p as u64, Backing::Pages { len });
            return Ok(p as u64);
        }
        let layout = Layout::from_size_align(padded, BASE_ALIGN).map_err(|_| DeviceError::OutOfMemory)?;
        // SAFETY: the layout has a non-zero size.
        let p = unsafe { std::alloc::alloc(layout) };
        if p.is_null() {
            return Err(DeviceError::OutOfMemory);
        }
        self.allocations.lock().unwrap().insert(p as u64, Backing::Heap(layout));
        Ok(p as u64)
    }

    fn free(&self, ptr: DevicePtr) -> Result<(), DeviceError> {
        let backing = self.allocations.lock().unwrap().remove(&ptr);
        match backing {
            // SAFETY: `ptr` was returned by `alloc` with this layout and is freed once.
            Some(Backing::Heap(layout)) => unsafe { std::alloc::dealloc(ptr as *mut u8, layout) },
            // SAFETY: the mapping `alloc` (or `share`) made at `ptr`, unmapped once; a
            // shared file lives on while other processes map it.
            Some(Backing::Pages { len } | Backing::Shared { len, .. }) => unsafe {
                libc::munmap(ptr as *mut libc::c_void, len);
            },
            None => {}
        }
        Ok(())
    }

    fn share(&self, ptr: DevicePtr) -> Result<SharedMemory, DeviceError> {
        let mut allocations = self.allocations.lock().unwrap();
        let backing = allocations.get_mut(&ptr);
        let len = match backing {
            Some(Backing::Shared { len, fd }) => return Ok(SharedMemory { fd: fd.as_raw_fd(), offset: 0, len: *len as u64 }),
            Some(Backing::Pages { len }) => *len,
            // Its pages hold other data of the process, which must not be shared.
            Some(Backing::Heap(_)) => return Err(DeviceError::NotSupported(format!("sharing an allocation under {} bytes", page_size()))),
            None => return Err(DeviceError::NotSupported("sharing memory that is not an allocation".into())),
        };
        let fd = to_shared_file(ptr, len).map_err(|e| DeviceError::NotSupported(format!("sharing device memory: {e}")))?;
        let shared = SharedMemory { fd: fd.as_raw_fd(), offset: 0, len: len as u64 };
        allocations.insert(ptr, Backing::Shared { len, fd });
        Ok(shared)
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
    use backend_api::Device as _;

    #[test]
    fn allocations_are_whole_256_byte_units() {
        let device = super::CpuDevice::new();
        let page = super::page_size();
        for (asked, held) in [(1, 256), (80, 256), (256, 256), (257, 512), (page + 1, 2 * page)] {
            let p = device.alloc(asked).unwrap();
            let size = match &device.allocations.lock().unwrap()[&p] {
                super::Backing::Heap(layout) => layout.size(),
                super::Backing::Pages { len } => *len,
                super::Backing::Shared { .. } => unreachable!(),
            };
            assert_eq!(size, held, "{asked} bytes");
            assert_eq!(p % 512, 0);
            // A kernel writing up to the unit's end stays inside the allocation.
            // SAFETY: the allocation holds `held` bytes.
            unsafe { std::ptr::write_bytes(p as *mut u8, 0xab, held) };
            device.free(p).unwrap();
        }
    }

    #[test]
    fn shared_allocations_keep_address_and_contents() {
        let device = super::CpuDevice::new();
        let page = super::page_size();
        let p = device.alloc(3 * page).unwrap();
        // SAFETY: the allocation holds three pages.
        let bytes = unsafe { std::slice::from_raw_parts_mut(p as *mut u8, 3 * page) };
        bytes.iter_mut().enumerate().for_each(|(i, b)| *b = (i % 251) as u8);
        let shared = device.share(p).unwrap();
        assert_eq!((shared.offset, shared.len), (0, 3 * page as u64));
        assert_eq!(device.share(p).unwrap(), shared, "asking again gives the same file");
        assert!(bytes.iter().enumerate().all(|(i, &b)| b == (i % 251) as u8));
        // The file holds what the address shows, both ways.
        bytes[5] = 0x5a;
        let mut read = [0u8; 8];
        // SAFETY: a valid descriptor and buffer.
        assert_eq!(unsafe { libc::pread(shared.fd, read.as_mut_ptr().cast(), 8, 0) }, 8);
        assert_eq!(read[5], 0x5a);
        let small = device.alloc(16).unwrap();
        assert!(device.share(small).is_err(), "under a page: shares its pages with other data");
        device.free(small).unwrap();
        device.free(p).unwrap();
    }

    #[test]
    fn small_hosts_report_enough_multiprocessors_for_grid_sizing() {
        // The only test here reading the variable; it is unset in the test environment.
        if std::env::var_os("CUDA_CPU_MULTIPROCESSORS").is_none() {
            assert_eq!(super::multiprocessor_count(2), super::MIN_MULTIPROCESSORS);
            assert_eq!(super::multiprocessor_count(64), 64);
        }
    }
}
