//! A fake in-memory device for tests (this crate's, and `cuda-abi`'s through the
//! `fake-backend` feature).
//!
//! Memory is host memory (the device is host-addressable, like the CPU device). "PTX" is
//! read by a tiny scanner that only understands `.entry name(.param .type name, ...)`
//! with optional `.maxntid x[, y, z]` / `.reqntid`, and `.global`/`.const` variables;
//! text containing `SYNTAX_ERROR` fails to compile. Launches are recorded, not run,
//! except that kernels named `fault_*`, `trap_*` and `assert_*` report an illegal address,
//! a trap and a failed assert, `write42_*` kernels store the u32 42 at their first
//! (pointer) parameter and `dec_*` kernels decrement the u32 there (down to 0).

use std::alloc::Layout;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use backend_api::{
    Device, DeviceError, DeviceProperties, DevicePtr, GlobalInfo, KernelInfo, LaunchConfig, LoadError, LoadOptions, LoadedModule, ManagedMemory,
    ParamLayout,
};

/// A recorded launch: kernel name, configuration, packed parameters.
pub type LaunchRecord = (String, LaunchConfig, Vec<u8>);

/// The fake device.
pub struct FakeDevice {
    props: DeviceProperties,
    allocations: Mutex<HashMap<DevicePtr, Layout>>,
    used: AtomicU64,
    /// Every launch, in order.
    pub launches: Arc<Mutex<Vec<LaunchRecord>>>,
    /// For [`FakeDevice::discrete`]: the managed memory it reports.
    managed: Option<Option<ManagedMemory>>,
    /// Live allocations made by `alloc_managed`.
    managed_allocations: Mutex<Vec<DevicePtr>>,
}

impl FakeDevice {
    /// A device with NVIDIA-like limits (compute capability 8.6, 1 GiB).
    pub fn new() -> Arc<FakeDevice> {
        Arc::new(FakeDevice {
            props: DeviceProperties {
                name: "Fake Device".into(),
                total_memory: 1 << 30,
                compute_capability: (8, 6),
                multiprocessor_count: 4,
                warp_size: 32,
                max_threads_per_block: 1024,
                max_block_dim: [1024, 1024, 64],
                max_grid_dim: [i32::MAX as u32, 65535, 65535],
                shared_memory_per_block: 48 * 1024,
                shared_memory_per_block_optin: 99 * 1024,
                shared_memory_per_multiprocessor: 100 * 1024,
                registers_per_block: 65536,
                max_threads_per_multiprocessor: 1536,
                clock_rate_khz: 1_500_000,
                memory_clock_rate_khz: 3_000_000,
                memory_bus_width: 256,
                l2_cache_size: 4 << 20,
                total_constant_memory: 64 * 1024,
                uuid: *b"fake-device-uuid",
                pci_domain: 0,
                pci_bus: 0x3b,
                pci_device: 0,
                host_addressable_memory: true,
                cooperative_launch: true,
            },
            allocations: Mutex::new(HashMap::new()),
            used: AtomicU64::new(0),
            launches: Arc::new(Mutex::new(Vec::new())),
            managed: None,
            managed_allocations: Mutex::new(Vec::new()),
        })
    }

    /// A device as a discrete GPU reports itself (its memory is not host-addressable,
    /// though the fake's bytes still are), with managed memory `managed`.
    pub fn discrete(managed: Option<ManagedMemory>) -> Arc<FakeDevice> {
        let mut d = Arc::into_inner(FakeDevice::new()).expect("fresh");
        d.props.host_addressable_memory = false;
        d.managed = Some(managed);
        Arc::new(d)
    }

    /// Whether `ptr` is a live allocation of `alloc_managed`.
    pub fn is_managed_allocation(&self, ptr: DevicePtr) -> bool {
        self.managed_allocations.lock().unwrap().contains(&ptr)
    }

    /// Number of live allocations.
    pub fn live_allocations(&self) -> usize {
        self.allocations.lock().unwrap().len()
    }
}

impl Device for FakeDevice {
    fn properties(&self) -> &DeviceProperties {
        &self.props
    }

    fn alloc(&self, size: usize) -> Result<DevicePtr, DeviceError> {
        let layout = Layout::from_size_align(size.max(1), 256).map_err(|_| DeviceError::OutOfMemory)?;
        if self.used.load(Ordering::Relaxed) + size as u64 > self.props.total_memory {
            return Err(DeviceError::OutOfMemory);
        }
        // SAFETY: non-zero size.
        let ptr = unsafe { std::alloc::alloc_zeroed(layout) };
        if ptr.is_null() {
            return Err(DeviceError::OutOfMemory);
        }
        self.used.fetch_add(layout.size() as u64, Ordering::Relaxed);
        self.allocations.lock().unwrap().insert(ptr as u64, layout);
        Ok(ptr as u64)
    }

    fn managed_memory(&self) -> Option<ManagedMemory> {
        match self.managed {
            Some(m) => m,
            None => self.props.host_addressable_memory.then_some(ManagedMemory { concurrent_access: true }),
        }
    }

    fn alloc_managed(&self, size: usize) -> Result<DevicePtr, DeviceError> {
        if self.managed_memory().is_none() {
            return Err(DeviceError::NotSupported("managed memory".into()));
        }
        let ptr = self.alloc(size)?;
        self.managed_allocations.lock().unwrap().push(ptr);
        Ok(ptr)
    }

    fn free(&self, ptr: DevicePtr) -> Result<(), DeviceError> {
        self.managed_allocations.lock().unwrap().retain(|&p| p != ptr);
        let layout = self.allocations.lock().unwrap().remove(&ptr).ok_or(DeviceError::IllegalAddress)?;
        self.used.fetch_sub(layout.size() as u64, Ordering::Relaxed);
        // SAFETY: allocated by `alloc` with this layout, removed from the map once.
        unsafe { std::alloc::dealloc(ptr as *mut u8, layout) };
        Ok(())
    }

    fn free_memory(&self) -> u64 {
        self.props.total_memory - self.used.load(Ordering::Relaxed)
    }

    unsafe fn copy_to_device(&self, dst: DevicePtr, src: *const u8, size: usize) -> Result<(), DeviceError> {
        // SAFETY: the driver validated `dst`; the caller guarantees `src`.
        unsafe { std::ptr::copy(src, dst as *mut u8, size) };
        Ok(())
    }

    unsafe fn copy_from_device(&self, dst: *mut u8, src: DevicePtr, size: usize) -> Result<(), DeviceError> {
        // SAFETY: as above.
        unsafe { std::ptr::copy(src as *const u8, dst, size) };
        Ok(())
    }

    fn copy_device_to_device(&self, dst: DevicePtr, src: DevicePtr, size: usize) -> Result<(), DeviceError> {
        // SAFETY: both ranges were validated by the driver.
        unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, size) };
        Ok(())
    }

    fn memset(&self, dst: DevicePtr, value: u32, elem_size: usize, count: usize) -> Result<(), DeviceError> {
        for i in 0..count {
            let bytes = value.to_le_bytes();
            // SAFETY: the driver validated the range.
            unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), (dst as *mut u8).add(i * elem_size), elem_size) };
        }
        Ok(())
    }

    fn load_ptx(&self, ptx: &str, _options: &LoadOptions) -> Result<Arc<dyn LoadedModule>, LoadError> {
        if let Some(line) = ptx.lines().position(|l| l.contains("SYNTAX_ERROR")) {
            return Err(LoadError::InvalidPtx { log: format!("{}:1: syntax error", line + 1) });
        }
        let mut globals = HashMap::new();
        for (name, size) in scan_globals(ptx) {
            let address = self.alloc(size).map_err(|_| LoadError::OutOfMemory)?;
            globals.insert(name, GlobalInfo { address, size, reference: None });
        }
        Ok(Arc::new(FakeModule { kernels: scan_kernels(ptx), globals, launches: self.launches.clone() }))
    }

    fn synchronize(&self) -> Result<(), DeviceError> {
        Ok(())
    }
}

struct FakeModule {
    kernels: Vec<KernelInfo>,
    globals: HashMap<String, GlobalInfo>,
    launches: Arc<Mutex<Vec<LaunchRecord>>>,
}

impl LoadedModule for FakeModule {
    fn kernel(&self, name: &str) -> Option<KernelInfo> {
        self.kernels.iter().find(|k| k.name == name).cloned()
    }

    fn global(&self, name: &str) -> Option<GlobalInfo> {
        self.globals.get(name).copied()
    }

    fn kernel_names(&self) -> Vec<String> {
        self.kernels.iter().map(|k| k.name.clone()).collect()
    }

    fn info_log(&self) -> String {
        format!("fake: {} kernels", self.kernels.len())
    }

    fn launch(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        self.launches.lock().unwrap().push((kernel.to_string(), *config, params.to_vec()));
        if kernel.starts_with("write42_") && params.len() >= 8 {
            let ptr = u64::from_le_bytes(params[..8].try_into().unwrap());
            // SAFETY: test kernels are launched with a valid device pointer.
            unsafe { (ptr as *mut u32).write_unaligned(42) };
        }
        if kernel.starts_with("dec_") && params.len() >= 8 {
            let ptr = u64::from_le_bytes(params[..8].try_into().unwrap()) as *mut u32;
            // SAFETY: as above.
            unsafe { ptr.write_unaligned(ptr.read_unaligned().saturating_sub(1)) };
        }
        match kernel.split('_').next() {
            Some("fault") => Err(DeviceError::IllegalAddress),
            Some("trap") => Err(DeviceError::LaunchFailed),
            Some("assert") => Err(DeviceError::Assert),
            _ => Ok(()),
        }
    }

    fn launch_cooperative(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        self.launch(kernel, config, params)
    }

    /// Kernels named `resident<N>_...` answer N blocks per multiprocessor, as a backend
    /// that knows its hardware's occupancy does; others leave it to the driver's model.
    fn resident_blocks_per_multiprocessor(&self, kernel: &str, _block_threads: u32, _dynamic_shared_bytes: u32) -> Option<u64> {
        kernel.strip_prefix("resident")?.split('_').next()?.parse().ok()
    }
}

fn type_size(ty: &str) -> usize {
    match ty.trim_start_matches('.') {
        "u8" | "s8" | "b8" | "pred" => 1,
        "u16" | "s16" | "b16" | "f16" | "bf16" => 2,
        "u64" | "s64" | "b64" | "f64" => 8,
        _ => 4,
    }
}

/// `(.align N)? .type name([N])?` -> (size, align).
fn declaration(tokens: &[&str]) -> (usize, usize, String) {
    let mut align = 0;
    let mut size = 4;
    let mut name = String::new();
    let mut i = 0;
    while i < tokens.len() {
        match tokens[i] {
            ".align" => {
                align = tokens.get(i + 1).and_then(|t| t.parse().ok()).unwrap_or(1);
                i += 1;
            }
            t if t.starts_with('.') => size = type_size(t),
            t => name = t.to_string(),
        }
        i += 1;
    }
    let (name, count) = match name.split_once('[') {
        Some((n, rest)) => (n.to_string(), rest.trim_end_matches(']').parse().unwrap_or(1)),
        None => (name, 1),
    };
    (size * count, if align == 0 { size } else { align }, name)
}

fn scan_kernels(ptx: &str) -> Vec<KernelInfo> {
    let mut kernels = Vec::new();
    for chunk in ptx.split(".entry").skip(1) {
        let Some(open) = chunk.find('(') else { continue };
        let name = chunk[..open].trim().to_string();
        let close = chunk[open..].find(')').map_or(chunk.len(), |c| open + c);
        let mut params = Vec::new();
        let mut offset = 0usize;
        for decl in chunk[open + 1..close].split(',').map(str::trim).filter(|d| !d.is_empty()) {
            let tokens: Vec<&str> = decl.split_whitespace().filter(|t| *t != ".param").collect();
            let (size, align, _) = declaration(&tokens);
            offset = offset.next_multiple_of(align.max(1));
            params.push(ParamLayout { offset, size });
            offset += size;
        }
        let body_start = chunk.find('{').unwrap_or(chunk.len());
        let directives = &chunk[close.min(body_start)..body_start];
        let dims = |key: &str| -> Option<[u32; 3]> {
            let at = directives.find(key)? + key.len();
            let list = directives[at..].lines().next()?;
            let mut d = [1u32; 3];
            for (i, v) in list.split(',').take(3).enumerate() {
                d[i] = v.trim().parse().ok()?;
            }
            Some(d)
        };
        let required_block = dims(".reqntid");
        let max = dims(".maxntid").or(required_block).map_or(1024, |d| d.iter().product());
        kernels.push(KernelInfo {
            name,
            param_buffer_size: offset,
            params,
            static_shared_bytes: if directives.contains("SHARED_1K") { 1024 } else { 0 },
            local_bytes_per_thread: 0,
            max_threads_per_block: max,
            required_block,
            num_regs: 32,
            const_bytes: 0,
        });
    }
    kernels
}

fn scan_globals(ptx: &str) -> Vec<(String, usize)> {
    ptx.lines()
        .map(str::trim)
        .filter(|l| l.starts_with(".global") || l.starts_with(".const") || l.starts_with(".visible .global"))
        .map(|l| {
            let tokens: Vec<&str> = l.trim_end_matches(';').split_whitespace().filter(|t| !matches!(*t, ".global" | ".const" | ".visible")).collect();
            let (size, _, name) = declaration(&tokens);
            (name, size)
        })
        .collect()
}
