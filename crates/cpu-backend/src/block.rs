//! Running one block of a launch.
//!
//! Kernels without barriers run as `k.block`, a loop over the block's threads emitted by
//! the compiler (LLVM vectorizes it). Kernels with barriers run each GPU thread as a fiber
//! (a stackful coroutine) that suspends at every barrier; the block's scheduler resumes
//! the fibers round-robin, so one round brings every live thread to its next barrier.
//! Exited threads count as arrived. Fibers cost a context switch per thread and barrier;
//! the barrier-splitting fast path replaces this later, and this stays as the general
//! fallback that is correct for barriers in any control flow.

use compiler_core::host::HostKernel;
use compiler_core::host_abi::ThreadCtx;
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::sync::atomic::{AtomicU32, Ordering};

/// Bytes of stack per GPU thread in fiber mode (lazily committed by the OS).
const FIBER_STACK_BYTES: usize = 256 * 1024;

/// Per-worker reusable memory.
#[derive(Default)]
pub struct BlockScratch {
    /// The block's shared-memory window, 16-byte aligned.
    shared: Vec<u128>,
    stacks: Vec<DefaultStack>,
    fiber_rt: Vec<FiberRuntime>,
    ctxs: Vec<ThreadCtx>,
    warps: Vec<WarpExchange>,
    /// The fiber scheduler's round: every live fiber runs once per round, from one
    /// suspension point (barrier or warp collective) to the next.
    round: u32,
}

/// Lanes in a warp (PTX from NVIDIA's tools assumes 32).
const WARP: usize = 32;

/// Where the lanes of one warp meet at a collective. Double-buffered by round parity: a
/// lane deposits in round r and reads in round r + 1, while lanes that already moved on
/// deposit into the other buffer.
#[derive(Clone)]
struct WarpExchange {
    values: [[u64; WARP]; 2],
    /// `(round << 32) | (site + 1)` of each lane's deposit; lanes with equal stamps met.
    stamps: [[u64; WARP]; 2],
}

impl Default for WarpExchange {
    fn default() -> Self {
        WarpExchange { values: [[0; WARP]; 2], stamps: [[0; WARP]; 2] }
    }
}

/// What a `ThreadCtx::runtime` points to.
#[repr(C)]
pub struct FiberRuntime {
    yielder: *const Yielder<(), ()>,
    pub(crate) fault: *const AtomicU32,
    warp: *mut WarpExchange,
    lane: usize,
    round: *const u32,
}

/// A launch's fault code (0 = none), set by `trap`.
pub const FAULT_TRAP: u32 = 1;

/// The parts of a launch every block needs.
pub struct LaunchShape<'a> {
    pub kernel: &'a HostKernel,
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub static_shared: u32,
    pub fault: &'a AtomicU32,
    pub printf: &'a crate::printf::PrintfBuffer,
}

impl LaunchShape<'_> {
    /// Run block number `index` (x fastest, then y, then z).
    pub fn run_block(&self, index: u64, scratch: &mut BlockScratch) {
        let gx = self.grid[0] as u64;
        let gy = self.grid[1] as u64;
        let ctaid = [(index % gx) as u32, ((index / gx) % gy) as u32, (index / (gx * gy)) as u32];
        let shared_bytes = self.static_shared.div_ceil(16) as usize * 16 + self.dynamic_shared as usize;
        let words = shared_bytes.div_ceil(16).max(1);
        if scratch.shared.len() < words {
            scratch.shared.resize(words, 0);
        }
        let base = ThreadCtx {
            tid: [0; 3],
            ntid: self.block,
            ctaid,
            nctaid: self.grid,
            dynamic_smem_size: self.dynamic_shared,
            total_smem_size: shared_bytes as u32,
            shared: scratch.shared.as_mut_ptr() as *mut u8,
            runtime: std::ptr::null_mut(),
            barrier: barrier_outside_fiber,
            trap,
            vprintf: crate::printf::vprintf,
            warp_exchange: warp_exchange_outside_fiber,
        };
        match self.kernel.block_fn {
            Some(block_fn) => {
                let mut rt = FiberRuntime {
                    yielder: std::ptr::null(),
                    fault: self.fault,
                    warp: std::ptr::null_mut(),
                    lane: 0,
                    round: std::ptr::null(),
                };
                let mut ctx = ThreadCtx { runtime: &mut rt as *mut FiberRuntime as *mut _, ..base };
                let _printf = self.printf.enter();
                // SAFETY: `block_fn` has the `KernelFn` ABI; params and ctx are valid for
                // the call.
                unsafe { block_fn(self.params.as_ptr(), &mut ctx) };
            }
            None => self.run_fibers(base, scratch),
        }
    }

    fn run_fibers(&self, base: ThreadCtx, scratch: &mut BlockScratch) {
        let [bx, by, bz] = self.block;
        let n = (bx * by * bz) as usize;
        let thread_fn = self.kernel.thread_fn;
        scratch.ctxs.clear();
        scratch.fiber_rt.clear();
        scratch.warps.clear();
        scratch.warps.resize(n.div_ceil(WARP), WarpExchange::default());
        scratch.round = 0;
        let warps = scratch.warps.as_mut_ptr();
        let round = &scratch.round as *const u32;
        for i in 0..n as u32 {
            let tid = [i % bx, (i / bx) % by, i / (bx * by)];
            scratch.ctxs.push(ThreadCtx { tid, barrier: barrier_in_fiber, warp_exchange: warp_exchange_in_fiber, ..base });
            scratch.fiber_rt.push(FiberRuntime {
                yielder: std::ptr::null(),
                fault: self.fault,
                // SAFETY: i / WARP < warps.len().
                warp: unsafe { warps.add(i as usize / WARP) },
                lane: i as usize % WARP,
                round,
            });
        }
        let _printf = self.printf.enter();
        let params = self.params.as_ptr() as usize;
        let mut fibers = Vec::with_capacity(n);
        for i in 0..n {
            let stack = match scratch.stacks.pop() {
                Some(s) => s,
                None => DefaultStack::new(FIBER_STACK_BYTES).expect("allocate a fiber stack"),
            };
            let ctx = &mut scratch.ctxs[i] as *mut ThreadCtx as usize;
            let rt = &mut scratch.fiber_rt[i] as *mut FiberRuntime as usize;
            fibers.push(Some(Coroutine::with_stack(stack, move |y: &Yielder<(), ()>, ()| {
                let ctx = ctx as *mut ThreadCtx;
                let rt = rt as *mut FiberRuntime;
                // SAFETY: ctx and rt live in the scratch vectors, which are not resized
                // until every fiber of this block has finished.
                unsafe {
                    (*rt).yielder = y;
                    (*ctx).runtime = rt as *mut _;
                    thread_fn(params as *const u8, ctx);
                }
            })));
        }
        let mut live = n;
        while live > 0 {
            scratch.round = scratch.round.wrapping_add(1);
            for slot in fibers.iter_mut() {
                let Some(f) = slot else { continue };
                if let CoroutineResult::Return(()) = f.resume(()) {
                    let f = slot.take().unwrap();
                    scratch.stacks.push(f.into_stack());
                    live -= 1;
                }
            }
        }
    }
}

/// A warp collective in fiber mode: deposit, let the other lanes run to their next
/// suspension point, then report who met here.
unsafe extern "C" fn warp_exchange_in_fiber(ctx: *mut ThreadCtx, site: u32, value: u64, arrived: *mut u32) -> *const u64 {
    // SAFETY: `runtime` points to this fiber's `FiberRuntime`, whose `warp` and `round`
    // point into the block scratch that outlives every fiber of the block. Fibers of a
    // block run on one OS thread, one at a time, so these accesses never race.
    unsafe {
        let rt = &*((*ctx).runtime as *const FiberRuntime);
        let round = *rt.round;
        let buf = (round & 1) as usize;
        let stamp = ((round as u64) << 32) | (site as u64 + 1);
        let w = &mut *rt.warp;
        w.values[buf][rt.lane] = value;
        w.stamps[buf][rt.lane] = stamp;
        (*rt.yielder).suspend(());
        let w = &*rt.warp;
        let mut mask = 0u32;
        for (lane, s) in w.stamps[buf].iter().enumerate() {
            if *s == stamp {
                mask |= 1 << lane;
            }
        }
        *arrived = mask;
        w.values[buf].as_ptr()
    }
}

/// Kernels with warp collectives always run as fibers; reaching this is a compiler bug.
unsafe extern "C" fn warp_exchange_outside_fiber(ctx: *mut ThreadCtx, _site: u32, _value: u64, arrived: *mut u32) -> *const u64 {
    static ZEROS: [u64; WARP] = [0; WARP];
    // SAFETY: as in `trap`; `arrived` is the caller's out-parameter.
    unsafe {
        trap(ctx);
        *arrived = 0;
    }
    ZEROS.as_ptr()
}

unsafe extern "C" fn barrier_in_fiber(ctx: *mut ThreadCtx, _id: u32, _count: u32) {
    // SAFETY: `runtime` was set to this fiber's `FiberRuntime` before the kernel started.
    unsafe {
        let rt = (*ctx).runtime as *const FiberRuntime;
        (*(*rt).yielder).suspend(());
    }
}

/// A barrier reached by code running as a thread loop: the compiler only uses `k.block`
/// for kernels without barriers, so this means the analysis missed one. Record a fault
/// rather than silently computing a wrong result.
unsafe extern "C" fn barrier_outside_fiber(ctx: *mut ThreadCtx, _id: u32, _count: u32) {
    // SAFETY: as in `trap`.
    unsafe { trap(ctx) };
}

unsafe extern "C" fn trap(ctx: *mut ThreadCtx) {
    // SAFETY: every ctx handed to generated code has `runtime` pointing to a live
    // `FiberRuntime` whose `fault` points to the launch's fault word.
    unsafe {
        let rt = (*ctx).runtime as *const FiberRuntime;
        (*(*rt).fault).store(FAULT_TRAP, Ordering::Relaxed);
    }
}
