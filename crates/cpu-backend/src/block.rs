//! Running the blocks of a launch on one OS thread.
//!
//! Kernels without barriers run as `k.block`, a loop over the block's threads emitted by
//! the compiler (LLVM vectorizes it). Kernels with barriers run each GPU thread as a fiber
//! (a stackful coroutine) that suspends at every barrier; the block's scheduler resumes
//! the fibers round-robin, one suspension point per fiber and round; a fiber at a barrier
//! stays suspended until the barrier has all its arrivals (see [`crate::barrier`]).
//! Exited threads count as arrived. Fibers cost a context switch per thread and barrier;
//! the barrier-splitting fast path replaces this later, and this stays as the general
//! fallback that is correct for barriers in any control flow. Barrier-region kernels run
//! through [`regions`] (one block at a time or several interleaved).
//!
//! Every block runs inside a coroutine, so that a launch can be abandoned from the
//! middle of a block (see [`crate::fault`]): a worker takes blocks from the launch inside
//! one *outer* coroutine (where `k.block` runs), and fibers are coroutines resumed from
//! it. `trap` and a failed `assert` record the launch's fault and suspend the running
//! coroutine for good; a hardware fault makes it return [`Exit::Faulted`]. Either way the
//! block is abandoned (suspended fibers are reset without unwinding: their stacks hold
//! nothing to drop) and the worker takes no more blocks of that launch.

use crate::barrier::BlockBarriers;
use crate::fault::{self, Armed, Exit, Suspend};
use crate::pool::BlockCursor;
use compiler_core::host::HostKernel;
use compiler_core::host_abi::{BlockRunFn, ThreadCtx};
use compiler_core::lower::WarpExchangeMeta;
use corosensei::stack::DefaultStack;
use corosensei::{Coroutine, CoroutineResult, Yielder};
use std::sync::atomic::{AtomicBool, AtomicU32, Ordering};

mod callbacks;
mod regions;
mod shared_window;
mod warp;

use callbacks::{
    assert_fail, barrier_in_fiber, barrier_op_in_fiber, barrier_op_outside_fiber, barrier_outside_fiber, device_free, device_malloc,
    spin_yield_in_fiber, spin_yield_outside_fiber, texture, trap, vprintf,
};
pub use regions::{interleave, set_interleave, SUGGESTED_INTERLEAVE};
pub(crate) use shared_window::{grow_shared_window, SharedChunk, SHARED_CHUNK_BYTES};
use warp::{warp_exchange_in_fiber, warp_exchange_outside_fiber, WarpExchange};

/// Bytes of stack per GPU thread in fiber mode (lazily committed by the OS).
const FIBER_STACK_BYTES: usize = 256 * 1024;
/// Bytes of stack of the outer coroutine, where thread-loop kernels and the fiber
/// scheduler run.
const OUTER_STACK_BYTES: usize = 1024 * 1024;

type Fiber = Coroutine<(), Suspend, Exit>;

/// Per-worker reusable memory.
#[derive(Default)]
pub struct BlockScratch {
    /// The block's shared-memory window.
    shared: Vec<SharedChunk>,
    stacks: Vec<DefaultStack>,
    outer_stack: Option<DefaultStack>,
    fibers: Vec<Option<Fiber>>,
    /// ThreadSanitizer's fiber of each of `fibers` (zero-sized otherwise).
    tsan_fibers: Vec<crate::sanitizer::TsanFiber>,
    fiber_rt: Vec<FiberRuntime>,
    ctxs: Vec<ThreadCtx>,
    warps: Vec<WarpExchange>,
    /// The fiber scheduler's round: every live fiber runs once per round, from one
    /// suspension point (barrier or warp collective) to the next.
    round: u32,
    /// The block's named barriers in fiber mode.
    barriers: BlockBarriers,
    /// Barrier-region kernels: the blocks in flight (see [`regions`]).
    region_blocks: Vec<regions::RegionBlock>,
}

/// Most lanes a warp can have: modules declare 32 (the default, what PTX from NVIDIA's
/// tools assumes) or 64 (`.warp_size 64`); the kernel's `meta.warp_size` says which.
const MAX_WARP: usize = 64;

/// What a `ThreadCtx::runtime` points to.
#[repr(C)]
pub struct FiberRuntime {
    /// The coroutine running this GPU thread: its fiber, or the outer coroutine for
    /// thread-loop kernels.
    yielder: *const Yielder<(), Suspend>,
    pub(crate) fault: *const AtomicU32,
    warp: *mut WarpExchange,
    lane: usize,
    round: *const u32,
    /// The block's barriers (fiber mode; null otherwise).
    barriers: *mut BlockBarriers,
    /// Spin-wait suspensions of this thread, to hand the CPU to other OS threads now
    /// and then when a block only spins.
    spins: u32,
    /// The OS thread's "executing generated code" flag ([`crate::fault`]).
    in_kernel: *const AtomicBool,
    /// The launch's device runtime state (a `crate::cdp::Launches`).
    pub(crate) cdp: *const (),
}

impl FiberRuntime {
    /// The runtime of generated code that runs on the outer coroutine `yielder` rather
    /// than in a fiber of its own (thread loops, launch-shape variants, region steps): no
    /// warp exchange and no fiber barriers.
    fn outside_fibers(yielder: &Yielder<(), Suspend>, shape: &LaunchShape, in_kernel: &AtomicBool) -> FiberRuntime {
        FiberRuntime {
            yielder,
            fault: shape.fault,
            warp: std::ptr::null_mut(),
            lane: 0,
            round: std::ptr::null(),
            barriers: std::ptr::null_mut(),
            spins: 0,
            in_kernel,
            cdp: shape.cdp as *const crate::cdp::Launches as *const (),
        }
    }
}

/// The parts of a launch every block needs.
pub struct LaunchShape<'a> {
    pub kernel: &'a HostKernel,
    /// The variant of a thread-loop kernel for this launch's block shape, if it runs one
    /// ([`crate::specialize`]): it runs whole runs of blocks instead of `kernel.block_fn`.
    pub block_run: Option<BlockRunFn>,
    pub params: &'a [u8],
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub dynamic_shared: u32,
    pub static_shared: u32,
    /// The launch's fault word (`fault::FAULT_*`, 0 = none).
    pub fault: &'a AtomicU32,
    pub printf: &'a crate::printf::PrintfBuffer,
    /// `%envreg0..31`.
    pub envreg: &'a [u32; 32],
    /// The device runtime's state (dynamic parallelism).
    pub cdp: &'a crate::cdp::Launches<'a>,
}

impl LaunchShape<'_> {
    /// Runs blocks taken from `cursor` on this thread until none are left or the launch
    /// has faulted (then the cursor is stopped, so no thread starts another block).
    pub fn run_blocks(&self, cursor: &BlockCursor, scratch: &mut BlockScratch) {
        let _printf = self.printf.enter();
        let stack = match scratch.outer_stack.take() {
            Some(s) => s,
            None => DefaultStack::new(OUTER_STACK_BYTES).expect("allocate a worker coroutine stack"),
        };
        let this = self as *const Self as usize;
        let cursor_ptr = cursor as *const BlockCursor as usize;
        let scratch_ptr = scratch as *mut BlockScratch as usize;
        let in_kernel = fault::in_kernel_flag() as *const AtomicBool as usize;
        // SAFETY: the coroutine borrows `self`, `cursor` and `scratch`; it is driven to
        // completion or force-reset below, before this function returns. `scratch` is not
        // touched here while the coroutine can run.
        let mut co: Fiber = unsafe {
            Coroutine::with_stack_unchecked(stack, move |y: &Yielder<(), Suspend>, ()| {
                let (this, cursor, scratch) =
                    (&*(this as *const Self), &*(cursor_ptr as *const BlockCursor), &mut *(scratch_ptr as *mut BlockScratch));
                'blocks: while let Some(range) = cursor.take() {
                    if let (None, Some(regions)) = (this.kernel.block_fn, &this.kernel.regions) {
                        this.run_region_blocks(regions, range, &mut scratch.region_blocks, y, &*(in_kernel as *const AtomicBool));
                        if this.fault.load(Ordering::Relaxed) != 0 {
                            break 'blocks;
                        }
                        continue;
                    }
                    if let Some(run) = this.block_run {
                        this.run_block_range(run, range, scratch, y, &*(in_kernel as *const AtomicBool));
                        if this.fault.load(Ordering::Relaxed) != 0 {
                            break 'blocks;
                        }
                        continue;
                    }
                    for index in range {
                        this.run_block(index, scratch, y, &*(in_kernel as *const AtomicBool));
                        if this.fault.load(Ordering::Relaxed) != 0 {
                            break 'blocks;
                        }
                    }
                }
                Exit::Done
            })
        };
        let result = {
            let _armed = Armed::outer(co.trap_handler(), self.fault);
            crate::sanitizer::TsanFiber::new().run(|| co.resume(()))
        };
        let abandoned = match result {
            CoroutineResult::Return(Exit::Done) => false,
            CoroutineResult::Return(Exit::Faulted) => true,
            CoroutineResult::Yield(_) => {
                // `trap`/`assert` in a thread-loop kernel: abandon the block.
                // SAFETY: nothing on the outer stack needs dropping (see module docs).
                unsafe { co.force_reset() };
                true
            }
        };
        if self.fault.load(Ordering::Relaxed) != 0 {
            cursor.stop();
            // Blocks of this launch on other threads may wait for this one forever.
            fault::interrupt(self.fault);
        }
        let stack = co.into_stack();
        if abandoned {
            crate::sanitizer::forget_frames(&stack);
        }
        scratch.outer_stack = Some(stack);
    }

    /// Grows `scratch` to what running this launch's blocks needs (the outer coroutine's
    /// stack, the shared window, the fibers' or regions' state), so that running them
    /// allocates nothing: [`crate::pool::BlockRunner::prepare`].
    pub fn prepare(&self, scratch: &mut BlockScratch) {
        if scratch.outer_stack.is_none() {
            scratch.outer_stack = DefaultStack::new(OUTER_STACK_BYTES).ok();
        }
        match (self.kernel.block_fn, &self.kernel.regions) {
            (None, Some(regions)) => self.prepare_region_blocks(regions, &mut scratch.region_blocks),
            (Some(_), _) => {
                self.shared_window(scratch);
            }
            (None, None) => {
                self.shared_window(scratch);
                let n = self.block.iter().map(|&d| d as usize).product::<usize>();
                let warp = (self.kernel.meta.warp_size as usize).clamp(1, MAX_WARP);
                reserve_total(&mut scratch.ctxs, n);
                reserve_total(&mut scratch.fiber_rt, n);
                reserve_total(&mut scratch.fibers, n);
                reserve_total(&mut scratch.warps, n.div_ceil(warp));
                // Between blocks every fiber's stack is back in `stacks`.
                reserve_total(&mut scratch.stacks, n);
                while scratch.stacks.len() + scratch.fibers.len() < n {
                    match DefaultStack::new(FIBER_STACK_BYTES) {
                        Ok(stack) => scratch.stacks.push(stack),
                        Err(_) => break,
                    }
                }
            }
        }
    }

    /// Interrupts the threads still running blocks of this launch if it has faulted.
    pub fn interrupt_if_faulted(&self) {
        if self.fault.load(Ordering::Relaxed) != 0 {
            fault::interrupt(self.fault);
        }
    }

    /// Bytes of a block's shared-memory window: static (16-byte aligned), then dynamic.
    fn shared_bytes(&self) -> usize {
        self.static_shared.div_ceil(16) as usize * 16 + self.dynamic_shared as usize
    }

    /// The shared window in chunks (at least one, so its address is valid).
    fn shared_chunks(&self) -> usize {
        self.shared_bytes().div_ceil(SHARED_CHUNK_BYTES).max(1)
    }

    /// The block's shared window in `scratch`, grown to this launch's size.
    fn shared_window(&self, scratch: &mut BlockScratch) -> *mut u8 {
        grow_shared_window(&mut scratch.shared, self.shared_chunks());
        scratch.shared.as_mut_ptr() as *mut u8
    }

    /// The context of block number `index` (x fastest, then y, then z) with shared
    /// window `shared`, before a runtime is attached.
    fn block_ctx(&self, index: u64, shared: *mut u8) -> ThreadCtx {
        let gx = self.grid[0] as u64;
        let gy = self.grid[1] as u64;
        let ctaid = [(index % gx) as u32, ((index / gx) % gy) as u32, (index / (gx * gy)) as u32];
        ThreadCtx {
            tid: [0; 3],
            ntid: self.block,
            ctaid,
            nctaid: self.grid,
            dynamic_smem_size: self.dynamic_shared,
            total_smem_size: self.shared_bytes() as u32,
            shared,
            runtime: std::ptr::null_mut(),
            barrier: barrier_outside_fiber,
            trap,
            vprintf,
            warp_exchange: warp_exchange_outside_fiber,
            assert_fail,
            envreg: self.envreg.as_ptr(),
            spin_yield: spin_yield_outside_fiber,
            barrier_op: barrier_op_outside_fiber,
            texture,
            malloc: device_malloc,
            free: device_free,
            device_runtime: crate::cdp::device_runtime,
            warp_matrix: crate::matrix::warp_matrix,
        }
    }

    /// Runs blocks `range` of a thread-loop kernel with its launch-shape variant `run` (one
    /// call into generated code for the whole run) on the outer coroutine `y`.
    fn run_block_range(
        &self,
        run: BlockRunFn,
        range: std::ops::Range<u64>,
        scratch: &mut BlockScratch,
        y: &Yielder<(), Suspend>,
        in_kernel: &AtomicBool,
    ) {
        let window = self.shared_window(scratch);
        let base = self.block_ctx(range.start, window);
        let mut rt = FiberRuntime::outside_fibers(y, self, in_kernel);
        let mut ctx = ThreadCtx { runtime: &mut rt as *mut FiberRuntime as *mut _, ..base };
        in_kernel.store(true, Ordering::Relaxed);
        // SAFETY: `run` has the `BlockRunFn` ABI and was compiled for this launch's block
        // shape; the blocks of `range` exist in the grid, and params and ctx are valid.
        unsafe { run(self.params.as_ptr(), &mut ctx, range.end - range.start) };
        in_kernel.store(false, Ordering::Relaxed);
    }

    /// Runs block number `index` of a thread-loop or fiber kernel on the outer
    /// coroutine `y` (region kernels run through [`Self::run_region_blocks`]).
    fn run_block(&self, index: u64, scratch: &mut BlockScratch, y: &Yielder<(), Suspend>, in_kernel: &AtomicBool) {
        let window = self.shared_window(scratch);
        let base = self.block_ctx(index, window);
        match self.kernel.block_fn {
            Some(block_fn) => {
                let mut rt = FiberRuntime::outside_fibers(y, self, in_kernel);
                let mut ctx = ThreadCtx { runtime: &mut rt as *mut FiberRuntime as *mut _, ..base };
                in_kernel.store(true, Ordering::Relaxed);
                // SAFETY: `block_fn` has the `KernelFn` ABI; params and ctx are valid for
                // the call.
                unsafe { block_fn(self.params.as_ptr(), &mut ctx) };
                in_kernel.store(false, Ordering::Relaxed);
            }
            None => self.run_fibers(base, scratch, in_kernel),
        }
    }

    fn run_fibers(&self, base: ThreadCtx, scratch: &mut BlockScratch, in_kernel: &AtomicBool) {
        let [bx, by, bz] = self.block;
        let n = (bx * by * bz) as usize;
        let thread_fn = self.kernel.thread_fn.expect("kernels without a region plan have a thread body");
        // Fibers left behind by a block whose outer coroutine faulted.
        abandon(scratch);
        scratch.ctxs.clear();
        scratch.fiber_rt.clear();
        // Warps are consecutive runs of `warp` threads in linear thread order (x fastest),
        // as `%laneid`/`%warpid` number them.
        let warp = (self.kernel.meta.warp_size as usize).clamp(1, MAX_WARP);
        scratch.warps.clear();
        scratch.warps.resize(n.div_ceil(warp), WarpExchange::default());
        // A last warp with fewer threads: its missing lanes count as exited.
        if let Some(last) = scratch.warps.last_mut() {
            let lanes = n - (n.div_ceil(warp) - 1) * warp;
            if lanes < 64 {
                last.exited = !0u64 << lanes;
                last.exited_seen = last.exited;
            }
        }
        scratch.round = 0;
        scratch.barriers = BlockBarriers::new(n as u32);
        let warps = scratch.warps.as_mut_ptr();
        let round = &scratch.round as *const u32;
        let barriers = &mut scratch.barriers as *mut BlockBarriers;
        for i in 0..n as u32 {
            let tid = [i % bx, (i / bx) % by, i / (bx * by)];
            scratch.ctxs.push(ThreadCtx {
                tid,
                barrier: barrier_in_fiber,
                warp_exchange: warp_exchange_in_fiber,
                spin_yield: spin_yield_in_fiber,
                barrier_op: barrier_op_in_fiber,
                ..base
            });
            scratch.fiber_rt.push(FiberRuntime {
                yielder: std::ptr::null(),
                fault: self.fault,
                // SAFETY: i / warp < warps.len().
                warp: unsafe { warps.add(i as usize / warp) },
                lane: i as usize % warp,
                round,
                barriers,
                spins: 0,
                in_kernel,
                cdp: self.cdp as *const crate::cdp::Launches as *const (),
            });
        }
        let params = self.params.as_ptr() as usize;
        for i in 0..n {
            let stack = match scratch.stacks.pop().map(Ok).unwrap_or_else(|| DefaultStack::new(FIBER_STACK_BYTES)) {
                Ok(s) => s,
                Err(e) => {
                    crate::printf::emit_stderr(
                        format!("cannot allocate a stack for each of the block's {n} threads ({e}); the launch fails\n").as_bytes(),
                    );
                    fault::record(self.fault, fault::FAULT_OUT_OF_RESOURCES);
                    abandon(scratch);
                    return;
                }
            };
            let ctx = &mut scratch.ctxs[i] as *mut ThreadCtx as usize;
            let rt = &mut scratch.fiber_rt[i] as *mut FiberRuntime as usize;
            scratch.tsan_fibers.push(crate::sanitizer::TsanFiber::new());
            scratch.fibers.push(Some(Coroutine::with_stack(stack, move |y: &Yielder<(), Suspend>, ()| {
                let ctx = ctx as *mut ThreadCtx;
                let rt = rt as *mut FiberRuntime;
                // SAFETY: ctx and rt live in the scratch vectors, which are not resized
                // until every fiber of this block has finished or been abandoned.
                unsafe {
                    (*rt).yielder = y;
                    (*ctx).runtime = rt as *mut _;
                    (*(*rt).in_kernel).store(true, Ordering::Relaxed);
                    thread_fn(params as *const u8, ctx);
                    (*(*rt).in_kernel).store(false, Ordering::Relaxed);
                }
                Exit::Done
            })));
        }
        let mut live = n;
        let arm = Armed::inner_arm();
        while live > 0 {
            scratch.round = scratch.round.wrapping_add(1);
            scratch.barriers.begin_round(scratch.round);
            for w in scratch.warps.iter_mut() {
                w.exited_seen = w.exited;
                w.at_barrier_seen = w.at_barrier;
            }
            for i in 0..n {
                let Some(f) = &mut scratch.fibers[i] else { continue };
                arm.set(f.trap_handler());
                let result = scratch.tsan_fibers[i].run(|| f.resume(()));
                arm.clear();
                match result {
                    CoroutineResult::Yield(Suspend::Wait) => {}
                    CoroutineResult::Return(Exit::Done) => {
                        scratch.warps[i / warp].exited |= 1u64 << (i % warp);
                        let f = scratch.fibers[i].take().unwrap();
                        scratch.stacks.push(f.into_stack());
                        live -= 1;
                        scratch.barriers.thread_exited();
                    }
                    CoroutineResult::Yield(Suspend::Abort) | CoroutineResult::Return(Exit::Faulted) => {
                        abandon(scratch);
                        return;
                    }
                }
            }
            // Another block of the launch faulted: stop at this barrier.
            if self.fault.load(Ordering::Relaxed) != 0 {
                abandon(scratch);
                return;
            }
            // A GPU would wait here forever; fail the launch instead of hanging.
            if scratch.barriers.deadlocked() {
                let ctaid = base.ctaid;
                crate::printf::emit_stderr(
                    format!(
                        "block [{},{},{}]: every thread waits at a barrier that cannot complete ({}); the launch fails\n",
                        ctaid[0],
                        ctaid[1],
                        ctaid[2],
                        scratch.barriers.describe_waits()
                    )
                    .as_bytes(),
                );
                fault::record(self.fault, fault::FAULT_TRAP);
                abandon(scratch);
                return;
            }
        }
        scratch.fibers.clear();
        scratch.tsan_fibers.clear();
    }
}

/// Writes each thread's arrival mask into the save area: the lanes of its warp stopped
/// in the same state (see `compiler_core::lower::regions::warp_split`).
fn write_arrivals(states: &[u32], save: *mut u8, n: usize, w: WarpExchangeMeta) {
    // 32 or 64 lanes (`MAX_WARP`); masks are one bit per lane.
    let size = (w.warp_size as usize).clamp(1, MAX_WARP);
    let arrived = w.arrived_prefix as usize * n;
    // (state, lanes in it) of one warp: at most one group per lane, on the stack (this
    // runs after every divergent step; a launch allocates nothing in steady state).
    let mut storage = [(0u32, 0u64); MAX_WARP];
    for (warp, lanes) in states.chunks(size).enumerate() {
        // Usually the whole warp stopped at the same place: one mask of every lane
        // present, without looking lanes up in groups (a warp reduction writes arrivals
        // after each of its shuffles).
        if lanes.iter().fold(true, |a, &s| a & (s == lanes[0])) {
            let mask = if lanes.len() >= 64 { u64::MAX } else { (1u64 << lanes.len()) - 1 };
            for lane in 0..lanes.len() {
                // SAFETY: the arrival array holds an 8-byte element per thread inside the
                // save area (`RegionMeta::warp_exchange`).
                unsafe { write_arrival(save.add(arrived + 8 * (warp * size + lane)), size, mask) };
            }
            continue;
        }
        let mut count = 0;
        for (lane, &s) in lanes.iter().enumerate() {
            match storage[..count].iter_mut().find(|g| g.0 == s) {
                Some(g) => g.1 |= 1 << lane,
                None => {
                    storage[count] = (s, 1 << lane);
                    count += 1;
                }
            }
        }
        let groups = &storage[..count];
        for (lane, s) in lanes.iter().enumerate() {
            let mask = groups.iter().find(|g| g.0 == *s).map_or(0, |g| g.1);
            // SAFETY: the arrival array holds an 8-byte element per thread inside the
            // save area (`RegionMeta::warp_exchange`); 32-lane masks are its low `u32`.
            unsafe { write_arrival(save.add(arrived + 8 * (warp * size + lane)), size, mask) };
        }
    }
}

/// Grows `v` to hold `len` elements without reallocating.
fn reserve_total<T>(v: &mut Vec<T>, len: usize) {
    v.reserve(len.saturating_sub(v.len()));
}

/// Stores one thread's arrival mask at `at` for warps of `size` lanes.
///
/// # Safety
/// `at` must be the thread's 8-byte element of the arrival array.
unsafe fn write_arrival(at: *mut u8, size: usize, mask: u64) {
    if size <= 32 {
        (at as *mut u32).write_unaligned(mask as u32)
    } else {
        (at as *mut u64).write_unaligned(mask)
    }
}

/// Resets every unfinished fiber (without unwinding) and keeps the stacks. A finished
/// fiber here may have been ended by the fault handler, so every stack's abandoned frames
/// are forgotten ([`crate::sanitizer::forget_frames`]).
fn abandon(scratch: &mut BlockScratch) {
    scratch.tsan_fibers.clear();
    for mut f in scratch.fibers.drain(..).flatten() {
        if !f.done() {
            // SAFETY: fiber stacks hold no objects that need dropping: the fiber closure
            // captures plain addresses and the runtime callbacks drop what they own
            // before suspending.
            unsafe { f.force_reset() };
        }
        let stack = f.into_stack();
        crate::sanitizer::forget_frames(&stack);
        scratch.stacks.push(stack);
    }
}

/// The runtime part of a ctx handed to generated code.
///
/// # Safety
/// `ctx.runtime` must point to the running thread's `FiberRuntime`.
pub(crate) unsafe fn runtime<'a>(ctx: *mut ThreadCtx) -> &'a mut FiberRuntime {
    // SAFETY: guaranteed by the caller.
    unsafe { &mut *((*ctx).runtime as *mut FiberRuntime) }
}

/// A runtime callback starts: the thread is no longer in generated code.
///
/// # Safety
/// As [`runtime`].
pub(crate) unsafe fn leave_kernel(ctx: *mut ThreadCtx) {
    // SAFETY: guaranteed by the caller.
    unsafe { (*runtime(ctx).in_kernel).store(false, Ordering::Relaxed) };
}

/// A runtime callback returns to generated code; if the launch has faulted meanwhile,
/// the thread's block ends here instead.
///
/// # Safety
/// As [`escape`].
pub(crate) unsafe fn enter_kernel(ctx: *mut ThreadCtx) {
    // SAFETY: guaranteed by the caller.
    unsafe {
        let rt = runtime(ctx);
        if (*rt.fault).load(Ordering::Relaxed) != 0 {
            escape(ctx);
        }
        (*rt.in_kernel).store(true, Ordering::Relaxed);
    }
}

/// Ends the running GPU thread's block for good: suspends its coroutine with
/// [`Suspend::Abort`]; the scheduler never resumes it.
///
/// # Safety
/// As [`runtime`]; nothing on the caller's frames may need dropping.
unsafe fn escape(ctx: *mut ThreadCtx) -> ! {
    // SAFETY: guaranteed by the caller; the yielder is the running coroutine's.
    unsafe {
        let y = runtime(ctx).yielder;
        loop {
            (*y).suspend(Suspend::Abort);
        }
    }
}
