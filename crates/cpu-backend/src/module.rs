//! A PTX module compiled for the CPU device, and launching its kernels.

use crate::block::LaunchShape;
use crate::fault;
use crate::pool::{BlockCursor, BlockOrder, BlockRunner, Pool, WorkerState};
use crate::printf::{Output, PrintfBuffer};
use crate::specialize::ShapeHistory;
use backend_api::*;
use compiler_core::host::{compile_ptx, HostError, HostModule, HostOptions};
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::Arc;

thread_local! {
    /// Parameter buffers that are not 8-aligned or are shorter than the kernel's list are
    /// copied here (reused from launch to launch on this thread).
    static PARAM_COPY: std::cell::Cell<Vec<u64>> = const { std::cell::Cell::new(Vec::new()) };
}

/// A loaded module.
pub struct CpuModule {
    host: HostModule,
    /// Launch shapes seen per kernel, and their variants ([`crate::specialize`]).
    shapes: ShapeHistory,
    pool: Arc<Pool>,
    output: Arc<Output>,
    /// `CU_JIT_MAX_REGISTERS` of the load, if given.
    max_registers: Option<u32>,
}

impl CpuModule {
    pub fn compile(ptx: &str, options: &LoadOptions, pool: Arc<Pool>, output: Arc<Output>) -> Result<Self, LoadError> {
        let opts = HostOptions {
            opt_level: options.optimization_level.map(|l| l.min(3)).unwrap_or(2),
            lanemask_warnings: compiler_core::lower::lanemask_warnings_from_env(),
            lazy: options.lazy.or_else(lazy_loading_from_env),
            ..Default::default()
        };
        // A compiler bug must not take the host process down: report it as an error.
        let compiled = std::panic::catch_unwind(|| compile_ptx(ptx, &opts))
            .map_err(|_| LoadError::Codegen("internal compiler error (panic while compiling PTX)".into()))?;
        let host = compiled.map_err(|e| match e {
            HostError::Ptx(d) => LoadError::InvalidPtx { log: compiler_core::diag::render(&d) },
            HostError::Llvm(m) => LoadError::Codegen(m),
        })?;
        Ok(CpuModule { host, shapes: ShapeHistory::default(), pool, output, max_registers: options.max_registers.filter(|&n| n > 0) })
    }
}

/// Registers per multiprocessor of the device model the driver reports (every
/// architecture since sm_50).
const REGISTERS_PER_MULTIPROCESSOR: u32 = 65536;

/// The registers reported for a kernel: the compiler's estimate within
/// `CU_JIT_MAX_REGISTERS` and within what a block of `max_threads` threads leaves each
/// thread, as ptxas keeps a kernel launchable at the block size it allows.
fn reported_registers(estimate: u32, jit_max: Option<u32>, max_threads: u32) -> u32 {
    estimate.min(jit_max.unwrap_or(u32::MAX)).min(REGISTERS_PER_MULTIPROCESSOR / max_threads.max(1))
}

/// `CUDA_MODULE_LOADING` (NVIDIA's variable): `EAGER` compiles every kernel at load,
/// `LAZY` each kernel when first asked for; unset, large modules and modules of many
/// kernels load lazily (`compiler_core::host`).
fn lazy_loading_from_env() -> Option<bool> {
    match std::env::var("CUDA_MODULE_LOADING").ok()?.to_ascii_uppercase().as_str() {
        "EAGER" => Some(false),
        "LAZY" => Some(true),
        _ => None,
    }
}

struct Runner<'a>(LaunchShape<'a>);

impl BlockRunner for Runner<'_> {
    fn run_blocks(&self, cursor: &BlockCursor, worker: &mut WorkerState) {
        self.0.run_blocks(cursor, &mut worker.scratch);
    }

    fn interrupt_if_faulted(&self) {
        self.0.interrupt_if_faulted();
    }

    fn prepare(&self, worker: &mut WorkerState) {
        self.0.prepare(&mut worker.scratch);
    }
}

/// The most blocks of a spin-waiting kernel's launch that run side by side, one thread
/// each; larger grids run in order like any other.
const MAX_SPINNING_BLOCKS: u64 = 256;

/// The most GPU threads of blocks running side by side: each is a fiber whose stack takes
/// two memory maps (the stack and its guard page), and the process may hold at most
/// `vm.max_map_count` (65530 by default), some of them its own.
fn max_spinning_threads() -> u64 {
    static LIMIT: std::sync::OnceLock<u64> = std::sync::OnceLock::new();
    *LIMIT.get_or_init(|| {
        let maps = std::fs::read_to_string("/proc/sys/vm/max_map_count").ok().and_then(|s| s.trim().parse::<u64>().ok()).unwrap_or(65530);
        maps.saturating_sub(8192) / 2
    })
}

/// The cooperative-groups grid workspace (`%envreg1:%envreg2` points to it): the
/// workspace size, then the grid barrier word that `grid.sync()` counts arrivals in.
#[repr(C, align(16))]
struct GridWorkspace([u32; 4]);

impl LoadedModule for CpuModule {
    fn kernel(&self, name: &str) -> Option<KernelInfo> {
        // A lazy module compiles the kernel now (as NVIDIA's lazy loading loads it at
        // cuModuleGetFunction). If that fails, the signature still describes it and the
        // launch reports the error.
        let meta = match self.host.launchable(name) {
            Ok(Some((k, _window))) => k.meta.clone(),
            Ok(None) => return None,
            Err(_) => self.host.kernel_meta(name)?,
        };
        let m = &meta;
        let max_threads_per_block = m.reqntid.or(m.maxntid).map(|d| d.iter().product::<u32>().clamp(1, 1024)).unwrap_or(1024);
        Some(KernelInfo {
            name: m.name.clone(),
            params: m.params.iter().map(|&(offset, size)| ParamLayout { offset, size }).collect(),
            param_buffer_size: m.param_buffer_size,
            static_shared_bytes: m.static_shared_bytes as u32,
            local_bytes_per_thread: m.local_bytes as u32,
            max_threads_per_block,
            required_block: m.reqntid,
            num_regs: reported_registers(m.register_estimate, self.max_registers, max_threads_per_block),
            const_bytes: m.const_bytes.min(u32::MAX as u64) as u32,
        })
    }

    fn kernel_error(&self, name: &str) -> Option<String> {
        self.host.launchable(name).err().map(|e| e.to_string())
    }

    fn global(&self, name: &str) -> Option<GlobalInfo> {
        let reference = |g: &compiler_core::lower::GlobalMeta| match g.reference {
            Some(compiler_core::ptx::ast::OpaqueKind::Surface) => Some(backend_api::texture::Reference::Surface),
            Some(_) => Some(backend_api::texture::Reference::Texture),
            None => None,
        };
        self.host.globals.iter().find(|(g, _)| g.name == name).map(|(g, addr)| GlobalInfo {
            address: *addr,
            size: g.size as usize,
            reference: reference(g),
        })
    }

    fn kernel_names(&self) -> Vec<String> {
        self.host.kernel_names()
    }

    fn info_log(&self) -> String {
        compiler_core::diag::render(&self.host.warnings)
    }

    fn launch(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        self.run(kernel, config, params, false)
    }

    fn launch_cooperative(&self, kernel: &str, config: &LaunchConfig, params: &[u8]) -> Result<(), DeviceError> {
        self.run(kernel, config, params, true)
    }
}

impl CpuModule {
    /// Runs a grid the host launched, then the work it queued on the device
    /// ([`crate::cdp`]).
    fn run(&self, kernel: &str, config: &LaunchConfig, params: &[u8], cooperative: bool) -> Result<(), DeviceError> {
        let work = self.run_grid(kernel, config, params, cooperative)?;
        if work.is_empty() {
            return Ok(());
        }
        self.run_device_work(work)
    }

    /// Runs one grid; what its threads queued on the device, not run yet.
    fn run_grid(&self, kernel: &str, config: &LaunchConfig, params: &[u8], cooperative: bool) -> Result<Vec<crate::cdp::Work>, DeviceError> {
        let (k, static_shared) = match self.host.launchable(kernel) {
            Ok(Some(found)) => found,
            Ok(None) => return Err(DeviceError::NotSupported(format!("no kernel named {kernel}"))),
            Err(e) => return Err(DeviceError::NotSupported(format!("kernel {kernel} could not be compiled: {e}"))),
        };
        let k = &k;
        // The driver validates launches against the device's limits; the generated thread
        // loops rely on these bounds (`target/host.rs` MAX_BLOCK_DIM), so refuse anything
        // else here too.
        let limits = compiler_core::target::host::MAX_BLOCK_DIM;
        if config.block.iter().zip(limits).any(|(&b, max)| b == 0 || b > max) || config.block.iter().product::<u32>() > 1024 {
            return Err(DeviceError::OutOfResources);
        }
        let fault = AtomicU32::new(0);
        let mut printf = PrintfBuffer::default();
        // The generated code assumes an 8-aligned buffer at least as large as the kernel's
        // parameter list (`target/host.rs` declares it `align 8 dereferenceable(size)`).
        // The driver's buffers are (`cuda-driver/src/params.rs`) and are used in place;
        // anything else is copied into this thread's reusable words.
        let in_place = params.as_ptr() as usize % 8 == 0 && params.len() >= k.meta.param_buffer_size;
        let mut copy = Vec::new();
        let params = if in_place {
            params
        } else {
            let size = params.len().max(k.meta.param_buffer_size);
            copy = PARAM_COPY.try_with(|c| c.take()).unwrap_or_default();
            copy.clear();
            copy.resize(size.div_ceil(8).max(1), 0u64);
            // SAFETY: `copy` holds at least `size >= params.len()` bytes.
            unsafe { std::ptr::copy_nonoverlapping(params.as_ptr(), copy.as_mut_ptr() as *mut u8, params.len()) };
            // SAFETY: the u64 buffer is viewed as its `size` bytes.
            unsafe { std::slice::from_raw_parts(copy.as_ptr() as *const u8, size) }
        };
        let mut launches = crate::cdp::Launches::new(&self.host);
        let workspace = GridWorkspace([8, 0, 0, 0]);
        let mut envreg = [0u32; 32];
        if cooperative {
            let addr = &workspace as *const GridWorkspace as u64;
            envreg[1] = (addr >> 32) as u32;
            envreg[2] = addr as u32;
        }
        // A thread-loop kernel runs the variant for this block shape once there is one
        // (or once it pays to compile one).
        let variant = if k.block_fn.is_some() { self.shapes.variant(&self.host, kernel, config.block) } else { None };
        let started = std::time::Instant::now();
        let _watch = crate::watchdog::Watch::start(|| format!("kernel {kernel} (grid {:?}, block {:?})", config.grid, config.block));
        let runner = Runner(LaunchShape {
            kernel: k,
            block_run: variant,
            params,
            grid: config.grid,
            block: config.block,
            dynamic_shared: config.dynamic_shared_bytes,
            static_shared: static_shared as u32,
            fault: &fault,
            printf: &printf,
            envreg: &envreg,
            cdp: &launches,
        });
        let total = config.grid.iter().map(|&g| g as u64).product();
        let order = if k.meta.blocks_communicate { BlockOrder::OneByOne } else { BlockOrder::Runs };
        // A kernel that spin-waits may wait for a thread of any block: small grids run all
        // their blocks side by side, as a cooperative launch does (`lower/spin_wait.rs`).
        let threads = total * config.block.iter().map(|&b| b as u64).product::<u64>();
        let side_by_side = cooperative || (k.meta.spin_waits && total <= MAX_SPINNING_BLOCKS && threads <= max_spinning_threads());
        let ok = if side_by_side { self.pool.run_cooperative(total, &runner) } else { self.pool.run(total, order, &runner) };
        self.output.complete(&mut printf);
        if copy.capacity() > 0 {
            let _ = PARAM_COPY.try_with(|c| c.set(copy));
        }
        if k.block_fn.is_some() && variant.is_none() {
            self.shapes.record(kernel, config.block, started.elapsed());
        }
        if !ok {
            fault::record(&fault, fault::FAULT_INTERNAL);
        }
        let work = launches.take();
        let result = match fault.load(Ordering::Acquire) {
            0 => Ok(()),
            fault::FAULT_ASSERT => Err(DeviceError::Assert),
            fault::FAULT_ILLEGAL_ADDRESS => Err(DeviceError::IllegalAddress),
            fault::FAULT_ILLEGAL_INSTRUCTION => Err(DeviceError::IllegalInstruction),
            fault::FAULT_OUT_OF_RESOURCES => Err(DeviceError::OutOfResources),
            _ => Err(DeviceError::LaunchFailed),
        };
        match result {
            Ok(()) => Ok(work),
            Err(e) => {
                for w in work {
                    if let crate::cdp::Work::Launch(_) = w {
                        crate::cdp::completed();
                    }
                }
                Err(e)
            }
        }
    }

    /// The grids, copies and fills grids queued on the device, depth first in issue order
    /// (a child's own work right after it), over an explicit stack: CDP2 nests as deep as
    /// the pending-launch limit allows. The first failure ends the host's launch with that
    /// error (what its stream reports); what is left is dropped.
    fn run_device_work(&self, work: Vec<crate::cdp::Work>) -> Result<(), DeviceError> {
        use crate::cdp::Work;
        // Each frame: the work a grid queued, and whether the grid was a device launch
        // (pending until its frame is done).
        let mut stack = vec![(work.into_iter(), false)];
        let mut result = Ok(());
        while let Some((next, _)) = stack.last_mut() {
            match next.next() {
                None => {
                    if let Some((_, true)) = stack.pop() {
                        crate::cdp::completed();
                    }
                }
                Some(Work::Launch(child)) if result.is_ok() => {
                    let config = LaunchConfig { grid: child.grid, block: child.block, dynamic_shared_bytes: child.shared };
                    match self.run_grid(&child.kernel, &config, child.params(), false) {
                        Ok(work) => stack.push((work.into_iter(), true)),
                        Err(e) => {
                            result = Err(e);
                            crate::cdp::completed();
                        }
                    }
                }
                Some(Work::Launch(_)) => crate::cdp::completed(),
                Some(Work::Copy { dst, src, count }) if result.is_ok() => result = crate::cdp::checked_copy(dst, src, count),
                Some(Work::Fill { dst, value, count }) if result.is_ok() => result = crate::cdp::checked_fill(dst, value, count),
                Some(_) => {}
            }
        }
        result
    }
}
