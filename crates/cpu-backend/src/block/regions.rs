//! Running barrier-region kernels (see `compiler_core::lower::regions`), one block or
//! several interleaved.
//!
//! Every block in flight has its own [`RegionBlock`]: shared-memory window, save area
//! and per-thread resume states. A scheduling *step* runs one round of one block (one
//! region for the whole block, or the most urgent groups of a divergent block). A run of
//! consecutive blocks normally goes block after block; kernels with lockstep loop heads
//! (grid-stride loops: one region per loop iteration) whose blocks cannot communicate
//! can keep several blocks in flight and step them in turn ([`set_interleave`]; off by
//! default, see [`SUGGESTED_INTERLEAVE`]). In a grid-stride loop blocks b
//! and b + 1 read adjacent pieces at the same iteration, so a round of K blocks reads K
//! pieces contiguously (the hardware prefetchers follow), where one block alone jumps a
//! whole grid stride per step. This is only correct because such blocks cannot observe
//! each other (`KernelMeta::blocks_communicate`: no atomics, strong accesses or fences);
//! each block's own scheduling (barriers, exited threads, warp collectives) is the same
//! as when it runs alone, and a fault anywhere abandons the whole worker's run as before.

use super::{grow_shared_window, write_arrivals, FiberRuntime, LaunchShape, SharedChunk, SHARED_CHUNK_BYTES};
use compiler_core::host::HostRegions;
use compiler_core::host_abi::ThreadCtx;
use compiler_core::lower::{StateKind, REGION_EXIT};
use corosensei::Yielder;
use std::ops::Range;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};

use crate::fault::Suspend;

/// Blocks in flight per worker when interleaving is on. Interleaving is off by
/// default for kernels whose lockstep loops run thread by thread: on the sum kernels of
/// `cpu-bench` it measured no gain beyond the noise (`crates/cpu-bench/RESULTS.md`,
/// branch `interleave`), because their regions were bound by the per-thread work of the
/// lockstep step, not by the memory order; with strip-mined lockstep loops (branch
/// `sums2`) it still measured within the noise under load.
pub const SUGGESTED_INTERLEAVE: usize = 16;

/// Blocks in flight by default for kernels whose lockstep loops all run as wide strips
/// (`compiler_core::lower::regions::widen`): those loops are bound by the memory order,
/// and a round of 8 blocks reads 8 adjacent pieces of each row (the sums 5% faster).
pub const WIDE_STRIP_INTERLEAVE: usize = 8;

/// Bytes of per-block state (shared window + save area) the blocks in flight may hold
/// together: about half of a core's L2, so that interleaving does not evict their
/// state between steps.
const INTERLEAVE_BUDGET_BYTES: usize = 512 * 1024;

/// The most blocks one worker keeps in flight (0 = not read from the environment yet).
static INTERLEAVE: AtomicUsize = AtomicUsize::new(0);

/// Blocks in flight per worker for eligible kernels: [`set_interleave`], else
/// `CUDA_CPU_INTERLEAVE=K` (K > 1 turns interleaving on, at most 64; 1 turns it off),
/// else `None`: the kernel's default (1, or [`WIDE_STRIP_INTERLEAVE`]).
pub fn interleave() -> Option<usize> {
    // usize::MAX: read, not set.
    match INTERLEAVE.load(Ordering::Relaxed) {
        0 => {
            let k = std::env::var("CUDA_CPU_INTERLEAVE").ok().and_then(|s| s.trim().parse::<usize>().ok()).map(|k| k.clamp(1, 64));
            INTERLEAVE.store(k.unwrap_or(usize::MAX), Ordering::Relaxed);
            k
        }
        usize::MAX => None,
        k => Some(k),
    }
}

/// Sets how many blocks of an eligible run one worker keeps in flight, process-wide
/// (1 = one block after the other; clamped to 1..=64). For tests and experiments.
pub fn set_interleave(k: usize) {
    INTERLEAVE.store(k.clamp(1, 64), Ordering::Relaxed);
}

/// One block of a region kernel in flight.
#[derive(Default)]
pub(super) struct RegionBlock {
    /// The block's shared-memory window.
    shared: Vec<SharedChunk>,
    /// Registers live across stops, `.local` memory, the warp exchange.
    save: Vec<u128>,
    /// Each thread's resume state.
    states: Vec<u32>,
    /// The states to run next step.
    pending: Vec<u32>,
    /// Every thread is in `pending[0]`: run it unmasked.
    uniform: bool,
    /// The block's context; `None` when the slot holds no block.
    ctx: Option<ThreadCtx>,
}

/// Grows `v` to hold `len` elements without reallocating.
fn reserve_total<T>(v: &mut Vec<T>, len: usize) {
    v.reserve(len.saturating_sub(v.len()));
}

impl RegionBlock {
    /// Grows this slot to what a block of `n` threads with `shared_chunks` of shared window
    /// needs (see [`RegionBlock::start`] and [`RegionBlock::step`]).
    fn prepare(&mut self, regions: &HostRegions, n: usize, shared_chunks: usize) {
        grow_shared_window(&mut self.shared, shared_chunks);
        let words = save_words(regions, n);
        if self.save.len() < words {
            self.save.resize(words, 0);
        }
        reserve_total(&mut self.states, n);
        reserve_total(&mut self.pending, n);
    }

    /// Makes this slot run the block of `ctx` from its start.
    fn start(&mut self, mut ctx: ThreadCtx, regions: &HostRegions, n: usize, shared_chunks: usize) {
        grow_shared_window(&mut self.shared, shared_chunks);
        let words = save_words(regions, n);
        if self.save.len() < words {
            self.save.resize(words, 0);
        }
        self.states.clear();
        self.states.resize(n, 0);
        self.pending.clear();
        self.pending.push(0);
        self.uniform = true;
        ctx.shared = self.shared.as_mut_ptr() as *mut u8;
        self.ctx = Some(ctx);
    }

    /// Runs one round of the block: threads run from their resume point to their next
    /// stop. While all threads stop at the same place (the usual case) the whole block
    /// runs one region as one loop; threads that stopped at different places (divergent
    /// code, loops with different trip counts) are resumed group by group, which is the
    /// fiber scheduler's round without fibers. Which groups run is decided by the kind
    /// of their stop ([`StateKind`]): threads at lockstep loop heads and after
    /// collectives (`Free`) run first; threads that deposited at a warp collective
    /// (`Warp`) run once no thread is `Free`, told which lanes of their warp met;
    /// threads at a block barrier run once every thread is at a barrier or has exited.
    /// Exited threads count as arrived. Returns false once the block has finished (or
    /// the launch has faulted); the slot is then free.
    fn step(&mut self, shape: &LaunchShape, regions: &HostRegions, y: &Yielder<(), Suspend>, in_kernel: &AtomicBool) -> bool {
        let Some(ctx) = self.ctx.as_mut() else { return false };
        let n = self.states.len();
        let mut rt = FiberRuntime::outside_fibers(y, shape, in_kernel);
        ctx.runtime = &mut rt as *mut FiberRuntime as *mut _;
        let save = self.save.as_mut_ptr() as *mut u8;
        let params = shape.params.as_ptr();
        if self.uniform {
            let state = self.pending[0];
            let f = regions.by_state.get(state as usize).copied().flatten().unwrap_or(regions.run);
            in_kernel.store(true, Ordering::Relaxed);
            // SAFETY: `k.region` has the `RegionFn` ABI; the save area holds
            // `save_bytes_per_thread * n` bytes (plus the exchange's padding) and
            // `states` n entries; ctx's runtime outlives the call.
            unsafe { f(params, ctx, save, self.states.as_mut_ptr(), state, 0) };
            in_kernel.store(false, Ordering::Relaxed);
        } else {
            for &state in &self.pending {
                in_kernel.store(true, Ordering::Relaxed);
                // SAFETY: as above; masked, only threads in `state` run.
                unsafe { (regions.run)(params, ctx, save, self.states.as_mut_ptr(), state, 1) };
                in_kernel.store(false, Ordering::Relaxed);
            }
        }
        ctx.runtime = std::ptr::null_mut();
        // Another block of the launch faulted: stop at this barrier.
        if shape.fault.load(Ordering::Relaxed) != 0 {
            return self.finish();
        }
        let kind = |s: u32| regions.kinds.get(s as usize).copied().unwrap_or(StateKind::Barrier);
        let first = self.states[0];
        self.pending.clear();
        if all_equal(&self.states, first) {
            if first == REGION_EXIT {
                return self.finish();
            }
            self.uniform = true;
            self.pending.push(first);
        } else {
            self.uniform = false;
            self.pending.extend(self.states.iter().copied().filter(|&s| s != REGION_EXIT));
            self.pending.sort_unstable();
            self.pending.dedup();
            if self.pending.is_empty() {
                return self.finish();
            }
            // Only the most urgent kind runs this round.
            let urgent =
                [StateKind::Free, StateKind::Warp, StateKind::Barrier].into_iter().find(|&k| self.pending.iter().any(|&s| kind(s) == k)).unwrap();
            self.pending.retain(|&s| kind(s) == urgent);
        }
        if let Some(w) = regions.warp_exchange {
            if self.pending.iter().any(|&s| kind(s) == StateKind::Warp) {
                write_arrivals(&self.states, save, n, w);
            }
        }
        true
    }

    fn finish(&mut self) -> bool {
        self.ctx = None;
        false
    }
}

/// 16-byte words of a block's save area: `save_bytes_per_thread` per thread, and as
/// collectives read a whole warp's exchange values, past the last thread too.
fn save_words(regions: &HostRegions, n: usize) -> usize {
    let pad = regions.warp_exchange.map_or(0, |w| 8 * w.warp_size as usize);
    (regions.save_bytes_per_thread * n + pad).div_ceil(16).max(1)
}

impl LaunchShape<'_> {
    /// Grows `slots` to what [`Self::run_region_blocks`] needs for any run of this launch.
    pub(super) fn prepare_region_blocks(&self, regions: &HostRegions, slots: &mut Vec<RegionBlock>) {
        let n = self.block.iter().map(|&d| d as usize).product::<usize>();
        let shared_chunks = self.shared_chunks();
        let width = self.interleave_width(regions, u64::MAX, n, shared_chunks);
        if slots.len() < width {
            slots.resize_with(width, RegionBlock::default);
        }
        for slot in &mut slots[..width] {
            slot.prepare(regions, n, shared_chunks);
        }
    }

    /// How many blocks of a run of `run_len` blocks of this region kernel to keep in
    /// flight: more than one only for kernels with lockstep loop heads whose blocks
    /// cannot communicate, bounded by [`INTERLEAVE_BUDGET_BYTES`].
    fn interleave_width(&self, regions: &HostRegions, run_len: u64, threads: usize, shared_chunks: usize) -> usize {
        let meta = &self.kernel.meta;
        let lockstep = meta.regions.as_ref().is_some_and(|r| !r.lockstep_states.is_empty());
        if meta.blocks_communicate || !lockstep || run_len < 2 {
            return 1;
        }
        let wide = meta.regions.as_ref().is_some_and(|r| r.lockstep_states.iter().all(|s| r.wide_strips.contains(s)));
        let k = interleave().unwrap_or(if wide { WIDE_STRIP_INTERLEAVE } else { 1 });
        let per_block = SHARED_CHUNK_BYTES * shared_chunks + regions.save_bytes_per_thread * threads + 4 * threads;
        let fit = (INTERLEAVE_BUDGET_BYTES / per_block.max(1)).max(1);
        k.min(fit).min(run_len as usize)
    }

    /// Runs the blocks of `run` of a region kernel on this worker's outer coroutine `y`,
    /// up to [`Self::interleave_width`] of them in flight, stepped in turn. Stops early
    /// when the launch has faulted.
    pub(super) fn run_region_blocks(
        &self,
        regions: &HostRegions,
        run: Range<u64>,
        slots: &mut Vec<RegionBlock>,
        y: &Yielder<(), Suspend>,
        in_kernel: &AtomicBool,
    ) {
        let n = self.block.iter().map(|&d| d as usize).product::<usize>();
        let shared_chunks = self.shared_chunks();
        let width = self.interleave_width(regions, run.end - run.start, n, shared_chunks);
        if slots.len() < width {
            slots.resize_with(width, RegionBlock::default);
        }
        let slots = &mut slots[..width];
        let mut next = run.start;
        for slot in slots.iter_mut() {
            slot.ctx = None;
            if next < run.end {
                slot.start(self.block_ctx(next, std::ptr::null_mut()), regions, n, shared_chunks);
                next += 1;
            }
        }
        let mut live = true;
        while live {
            live = false;
            for slot in slots.iter_mut() {
                if slot.ctx.is_none() {
                    continue;
                }
                live = true;
                if !slot.step(self, regions, y, in_kernel) {
                    if self.fault.load(Ordering::Relaxed) != 0 {
                        return;
                    }
                    if next < run.end {
                        slot.start(self.block_ctx(next, std::ptr::null_mut()), regions, n, shared_chunks);
                        next += 1;
                    }
                }
            }
        }
    }
}

/// Whether every state is `first`. Runs after every step of every block (256 threads
/// per step in a grid-stride loop), so it compares in chunks without an early exit per
/// element, which the compiler turns into vector compares (`Iterator::all` stays scalar).
fn all_equal(states: &[u32], first: u32) -> bool {
    let mut chunks = states.chunks_exact(16);
    let whole = chunks.by_ref().all(|c| c.iter().fold(true, |a, &s| a & (s == first)));
    whole && chunks.remainder().iter().all(|&s| s == first)
}
