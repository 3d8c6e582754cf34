//! Loaded modules: PTX -> code object -> HSA executable; kernel launches.

use crate::device::{alloc_in, Shared};
use crate::ffi::{self, Executable, ExecutableSymbol};
use crate::status;
use backend_api::{DeviceError, GlobalInfo, KernelInfo, LaunchConfig, LoadError, LoadOptions, LoadedModule, ParamLayout};
use compiler_core::target::amdgpu::descriptor::{kernel_resources, KernelResources};
use compiler_core::target::amdgpu::{abi, codegen, AmdgpuOptions, LDS_BYTES};
use std::ffi::{c_void, CString};
use std::sync::Arc;

struct Kernel {
    info: KernelInfo,
    /// What its descriptor says (`None` if it could not be read: no occupancy answers).
    resources: Option<KernelResources>,
    object: u64,
    kernarg_size: usize,
    group_fixed: u32,
    private: u32,
}

/// A PTX module loaded on one GPU.
pub struct HsaModule {
    shared: Arc<Shared>,
    executable: Executable,
    kernels: Vec<Kernel>,
    globals: Vec<(String, GlobalInfo)>,
    log: String,
    uses_printf: bool,
    /// Lanes per wavefront of the code object.
    wave: u32,
}

/// The cooperative-groups grid workspace's initial bytes (as the CPU device's): its size,
/// then the grid barrier's arrival word.
const GRID_WORKSPACE: [u32; 4] = [8, 0, 0, 0];

// SAFETY: the executable handle is only read after loading; ROCr is thread-safe.
unsafe impl Send for HsaModule {}
unsafe impl Sync for HsaModule {}

fn symbol_info<T: Copy + Default>(shared: &Shared, sym: ExecutableSymbol, attr: u32) -> T {
    let mut v = T::default();
    // SAFETY: `attr`'s value has the size of `T`.
    unsafe { (shared.rt.hsa.hsa_executable_symbol_get_info)(sym, attr, &mut v as *mut T as *mut c_void) };
    v
}

fn load_error(what: &str, st: u32) -> LoadError {
    LoadError::Codegen(format!("{what}: {} (CUresult {})", status::name(st), status::cu_result(st)))
}

pub(crate) fn load(shared: Arc<Shared>, ptx: &str, options: &LoadOptions) -> Result<HsaModule, LoadError> {
    let mut opts = AmdgpuOptions::new(&shared.gfx);
    opts.opt_level = options.optimization_level.map(|l| l.min(3)).unwrap_or(2);
    // Code objects are cached on disk as the CPU device's objects are (`CUDA_CACHE_*`).
    let cache = compiler_core::cache::Cache::from_env();
    let co = codegen::compile_ptx_with_cache(ptx, &opts, cache.as_ref()).map_err(|e| match e {
        codegen::AmdgpuError::Ptx(d) => LoadError::InvalidPtx { log: compiler_core::diag::render(&d) },
        other => LoadError::Codegen(other.to_string()),
    })?;
    let hsa = &shared.rt.hsa;
    let mut reader = ffi::Handle::default();
    // SAFETY: the ELF bytes outlive the reader (destroyed below).
    let st = unsafe { (hsa.hsa_code_object_reader_create_from_memory)(co.elf.as_ptr() as *const c_void, co.elf.len(), &mut reader) };
    if st != ffi::STATUS_SUCCESS {
        return Err(load_error("code object reader", st));
    }
    let mut exe = Executable::default();
    let result = (|| {
        // SAFETY: creating, loading and freezing an executable we own.
        unsafe {
            let st = (hsa.hsa_executable_create_alt)(0, ffi::DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT, std::ptr::null(), &mut exe);
            if st != ffi::STATUS_SUCCESS {
                return Err(load_error("executable", st));
            }
            let mut loaded = ffi::Handle::default();
            let st = (hsa.hsa_executable_load_agent_code_object)(exe, shared.agent, reader, std::ptr::null(), &mut loaded);
            if st != ffi::STATUS_SUCCESS {
                return Err(load_error("loading the code object", st));
            }
            let st = (hsa.hsa_executable_freeze)(exe, std::ptr::null());
            if st != ffi::STATUS_SUCCESS {
                return Err(load_error("freezing the executable", st));
            }
        }
        Ok(())
    })();
    // SAFETY: the executable no longer needs the reader.
    unsafe { (hsa.hsa_code_object_reader_destroy)(reader) };
    if let Err(e) = result {
        if exe.0 != 0 {
            // SAFETY: our executable, never used.
            unsafe { (hsa.hsa_executable_destroy)(exe) };
        }
        return Err(e);
    }
    let lookup = |name: &str| -> Option<ExecutableSymbol> {
        let c = CString::new(name).ok()?;
        let mut sym = ExecutableSymbol::default();
        // SAFETY: frozen executable, NUL-terminated name.
        let st = unsafe { (hsa.hsa_executable_get_symbol_by_name)(exe, c.as_ptr(), &shared.agent, &mut sym) };
        (st == ffi::STATUS_SUCCESS).then_some(sym)
    };
    let mut kernels = Vec::new();
    for k in &co.kernels {
        let sym =
            lookup(&format!("{}.kd", k.name)).ok_or_else(|| LoadError::Codegen(format!("kernel {} is missing from its code object", k.name)))?;
        let max = match (k.reqntid, k.maxntid) {
            (Some(r), _) | (None, Some(r)) => r.iter().map(|&x| x.max(1)).product::<u32>().min(1024),
            _ => 1024,
        };
        let resources = kernel_resources(&co.elf, &k.name);
        kernels.push(Kernel {
            resources,
            info: KernelInfo {
                name: k.name.clone(),
                params: k.params.iter().map(|&(offset, size)| ParamLayout { offset, size }).collect(),
                param_buffer_size: k.param_buffer_size,
                static_shared_bytes: co.static_lds_bytes as u32,
                local_bytes_per_thread: symbol_info::<u32>(&shared, sym, ffi::SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE),
                max_threads_per_block: max,
                required_block: k.reqntid,
                // VGPRs per work-item, from the kernel descriptor (`CU_FUNC_ATTRIBUTE_NUM_REGS`).
                num_regs: resources.map(|r| r.vgprs(&shared.gfx, co.wavefront_size)).unwrap_or(32),
                const_bytes: k.const_bytes.min(u32::MAX as u64) as u32,
            },
            object: symbol_info(&shared, sym, ffi::SYMBOL_INFO_KERNEL_OBJECT),
            kernarg_size: symbol_info::<u32>(&shared, sym, ffi::SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE) as usize,
            group_fixed: symbol_info(&shared, sym, ffi::SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE),
            private: symbol_info(&shared, sym, ffi::SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE),
        });
    }
    let mut globals = Vec::new();
    for g in &co.globals {
        if let Some(sym) = lookup(&g.symbol) {
            let address: u64 = symbol_info(&shared, sym, ffi::SYMBOL_INFO_VARIABLE_ADDRESS);
            globals.push((g.name.clone(), GlobalInfo { address, size: g.size as usize, reference: None }));
        }
    }
    let log = co.warnings.iter().map(|w| w.message.clone()).collect::<Vec<_>>().join("\n");
    Ok(HsaModule { shared, executable: exe, kernels, globals, log, uses_printf: co.uses_printf, wave: co.wavefront_size })
}

impl HsaModule {
    /// Workgroups of `k` that one compute unit holds at once with this block size.
    fn groups_per_cu(&self, k: &Kernel, threads: u32, dynamic_shared_bytes: u32) -> Option<u64> {
        let r = k.resources.as_ref()?;
        let s = &self.shared;
        Some(crate::occupancy::groups_per_cu(
            &s.cu_limits,
            &s.gfx,
            self.wave,
            r,
            k.info.static_shared_bytes as u64,
            threads,
            dynamic_shared_bytes as u64,
        ))
    }

    /// A cooperative launch: the grid must fit the device at once; its workspace lives in
    /// device memory for the launch.
    fn run_cooperative(&self, k: &Kernel, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        let threads = config.block.iter().product::<u32>();
        let blocks = config.grid.iter().map(|&g| g as u64).product::<u64>();
        let per_cu = self.groups_per_cu(k, threads, config.dynamic_shared_bytes).unwrap_or(0);
        let max = per_cu * self.shared.cu_count as u64;
        if blocks > max {
            // The driver checks this first (through `resident_blocks_per_multiprocessor`).
            return Err(DeviceError::NotSupported(format!(
                "cooperative launch of {} with {blocks} blocks: at most {max} can be resident at once",
                k.info.name
            )));
        }
        let rt = &self.shared.rt;
        let workspace = crate::device::alloc_in(rt, self.shared.device_pool, self.shared.agent, 16).map_err(status::device_error)?;
        let bytes: Vec<u8> = GRID_WORKSPACE.iter().flat_map(|w| w.to_le_bytes()).collect();
        // SAFETY: 16 bytes of the allocation above.
        let init =
            self.shared.staged(workspace as u64, 16, true, |s, off, n| unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr().add(off), s, n) });
        let result = init.and_then(|()| self.run(k, config, params, workspace as u64));
        // SAFETY: the launch is over (or never started).
        unsafe { (rt.hsa.hsa_amd_memory_pool_free)(workspace as *mut c_void) };
        result
    }

    fn run(&self, k: &Kernel, config: &LaunchConfig, params: &[u8], grid_workspace: u64) -> Result<(), DeviceError> {
        let threads = config.block.iter().map(|&b| b as u64).product::<u64>();
        let items = (0..3).map(|d| config.grid[d] as u64 * config.block[d] as u64);
        if threads > 1024 || items.clone().any(|n| n > u32::MAX as u64) {
            return Err(DeviceError::OutOfResources);
        }
        if (k.group_fixed.max(k.info.static_shared_bytes) as u64) + config.dynamic_shared_bytes as u64 > LDS_BYTES {
            return Err(DeviceError::OutOfResources);
        }
        let shape = abi::LaunchShape { grid: config.grid, block: config.block, dynamic_shared_bytes: config.dynamic_shared_bytes };
        let rt = &self.shared.rt;
        let printf = {
            let mut p = self.shared.printf.lock().unwrap_or_else(|e| e.into_inner());
            p.running += 1;
            p.dirty |= self.uses_printf;
            p.buffer
        };
        let kernargs = abi::build_kernargs(params, &shape, printf, grid_workspace);
        let size = kernargs.len().max(k.kernarg_size);
        let result = match alloc_in(rt, rt.kernarg_pool, self.shared.agent, size) {
            Err(st) => Err(status::device_error(st)),
            Ok(kp) => {
                // SAFETY: host-visible kernarg memory of `size` >= kernargs.len() bytes.
                unsafe { std::ptr::copy_nonoverlapping(kernargs.as_ptr(), kp as *mut u8, kernargs.len()) };
                let group_fixed = k.group_fixed.max(k.info.static_shared_bytes);
                let packet = abi::dispatch_packet(&shape, k.object, kp as u64, group_fixed, k.private, 0);
                let r = self.shared.queues.run(packet);
                // SAFETY: the dispatch is over (or its queue is dead).
                unsafe { (rt.hsa.hsa_amd_memory_pool_free)(kp as *mut c_void) };
                r.map_err(status::device_error)
            }
        };
        let asserted = self.drain_printf();
        match result {
            Err(_) if asserted => Err(DeviceError::Assert),
            r => r,
        }
    }

    /// Print what the launches wrote, once none is running. Returns whether an assert
    /// record was seen.
    fn drain_printf(&self) -> bool {
        let mut p = self.shared.printf.lock().unwrap_or_else(|e| e.into_inner());
        p.running -= 1;
        if p.running > 0 || !p.dirty {
            return false;
        }
        p.dirty = false;
        let records = compiler_core::target::amdgpu::printf::RECORDS_OFFSET;
        let mut header = [0u8; 16];
        // SAFETY: the buffer's header, in device memory we own; no kernel is running.
        if unsafe { self.read(&mut header, p.buffer) }.is_err() {
            return false;
        }
        let capacity = u64::from_le_bytes(header[..8].try_into().unwrap());
        let used = u64::from_le_bytes(header[8..].try_into().unwrap());
        if used == 0 {
            return false;
        }
        let mut bytes = vec![0u8; records + used.min(capacity) as usize];
        // SAFETY: as above; `bytes` fits in the buffer.
        if unsafe { self.read(&mut bytes, p.buffer) }.is_err() {
            return false;
        }
        bytes[8..16].copy_from_slice(&used.to_le_bytes());
        let asserted = crate::printf::emit(&bytes);
        let zero = 0u64.to_le_bytes();
        // SAFETY: resetting `used` in our buffer.
        let _ = unsafe { self.shared.staged(p.buffer + 8, 8, true, |s, _, n| std::ptr::copy_nonoverlapping(zero.as_ptr(), s, n)) };
        asserted
    }

    /// Copy device memory at `src` into `dst`.
    ///
    /// # Safety
    /// `src..src + dst.len()` is device memory of this device.
    unsafe fn read(&self, dst: &mut [u8], src: u64) -> Result<(), DeviceError> {
        let out = dst.as_mut_ptr();
        // SAFETY: `out` holds dst.len() bytes.
        self.shared.staged(src, dst.len(), false, |s, off, n| unsafe { std::ptr::copy_nonoverlapping(s, out.add(off), n) })
    }
}

impl LoadedModule for HsaModule {
    fn kernel(&self, name: &str) -> Option<KernelInfo> {
        self.kernels.iter().find(|k| k.info.name == name).map(|k| k.info.clone())
    }

    fn global(&self, name: &str) -> Option<GlobalInfo> {
        self.globals.iter().find(|g| g.0 == name).map(|g| g.1)
    }

    fn kernel_names(&self) -> Vec<String> {
        self.kernels.iter().map(|k| k.info.name.clone()).collect()
    }

    fn info_log(&self) -> String {
        self.log.clone()
    }

    fn launch(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        let k = self.kernels.iter().find(|k| k.info.name == kernel).ok_or_else(|| DeviceError::NotSupported(format!("no kernel {kernel}")))?;
        self.run(k, config, params, 0)
    }

    fn launch_cooperative(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        let k = self.kernels.iter().find(|k| k.info.name == kernel).ok_or_else(|| DeviceError::NotSupported(format!("no kernel {kernel}")))?;
        self.run_cooperative(k, config, params)
    }

    fn resident_blocks_per_multiprocessor(&self, kernel: &str, block_threads: u32, dynamic_shared_bytes: u32) -> Option<u64> {
        let k = self.kernels.iter().find(|k| k.info.name == kernel)?;
        self.groups_per_cu(k, block_threads, dynamic_shared_bytes)
    }
}

impl Drop for HsaModule {
    fn drop(&mut self) {
        // SAFETY: no launch of this module is running (the driver waits before unloading).
        unsafe { (self.shared.rt.hsa.hsa_executable_destroy)(self.executable) };
    }
}
