//! A persistent pool of worker threads shared by every launch on the device.
//!
//! Launches come from the driver's stream workers, several at a time when streams run
//! concurrently. Each launch is a *job* in a FIFO list; a worker takes blocks from the
//! oldest job that has blocks left, so blocks of concurrent kernels interleave and an
//! earlier launch is never starved by a later one. The thread that submits a job also
//! runs its blocks: a launch always makes progress even when every worker is busy with
//! blocks that wait (spin) on something, and a one-block launch needs no hand-off.
//!
//! Blocks are handed out in increasing linear order through an atomic counter: a block
//! may spin-wait on an earlier one (threadfence reductions, decoupled look-back scans),
//! which is only safe if every earlier block has already started on some thread, and a
//! started block runs to its end on that thread.
//!
//! Cooperative launches (every block resident at once, blocks wait for each other at
//! grid-wide barriers) run each block on its own thread instead: the submitting thread
//! and one dedicated thread per other block.

use crate::block::BlockScratch;
use std::cell::RefCell;
use std::collections::VecDeque;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Per-thread scratch that survives across launches: shared-memory arena, stacks.
#[derive(Default)]
pub struct WorkerState {
    pub scratch: BlockScratch,
}

/// Hands out the block indices of one launch, in increasing order: one block at a time,
/// or runs of consecutive blocks (see [`BlockOrder`]).
pub struct BlockCursor {
    next: AtomicU64,
    total: u64,
    /// The most blocks one `take` hands out; 1 hands them out one by one.
    max_run: u64,
    /// Threads that take blocks: a run is at most the remaining blocks' share of a
    /// quarter of them, so the last runs stay short and every thread ends at about
    /// the same time (guided scheduling).
    threads: u64,
}

/// How the blocks of a launch may be handed to threads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BlockOrder {
    /// One at a time in increasing order: a block may spin-wait on an earlier one, which
    /// has then always started on some thread (see the module docs).
    OneByOne,
    /// In runs of consecutive blocks: blocks cannot wait for each other (the kernel has
    /// no atomics, strong loads or fences), so the order is free. A thread then streams
    /// through contiguous memory; blocks interleaved between cores made each core's
    /// accesses strided and halved memory bandwidth (saxpy: 46 ms vs 23 ms on 2 cores).
    Runs,
}

/// The longest run of blocks: enough to stream through memory, short enough to balance.
const MAX_RUN: u64 = 1024;

impl BlockCursor {
    pub fn new(total: u64, order: BlockOrder, threads: usize) -> BlockCursor {
        let max_run = match order {
            BlockOrder::OneByOne => 1,
            BlockOrder::Runs => MAX_RUN,
        };
        BlockCursor { next: AtomicU64::new(0), total, max_run, threads: threads.max(1) as u64 }
    }

    /// A cursor that hands out the single block `index`.
    pub fn single(index: u64) -> BlockCursor {
        BlockCursor { next: AtomicU64::new(index), total: index + 1, max_run: 1, threads: 1 }
    }

    /// The next run of consecutive blocks, if any is left. Runs are taken in increasing
    /// order, and a thread runs its run to the end before it takes another.
    pub fn take(&self) -> Option<std::ops::Range<u64>> {
        let mut next = self.next.load(Ordering::Relaxed);
        loop {
            if next >= self.total {
                return None;
            }
            let run = ((self.total - next) / (4 * self.threads)).clamp(1, self.max_run);
            match self.next.compare_exchange_weak(next, next + run, Ordering::SeqCst, Ordering::Relaxed) {
                Ok(_) => return Some(next..next + run),
                Err(now) => next = now,
            }
        }
    }

    /// Hands out no more blocks (the launch failed).
    pub fn stop(&self) {
        self.next.store(self.total, Ordering::SeqCst);
    }

    fn exhausted(&self) -> bool {
        self.next.load(Ordering::SeqCst) >= self.total
    }
}

/// Something that runs the blocks of one launch.
pub trait BlockRunner: Sync {
    /// Runs blocks taken from `cursor` on this thread until it is exhausted.
    fn run_blocks(&self, cursor: &BlockCursor, worker: &mut WorkerState);
    /// Called now and then while the submitter waits for the last blocks: if the launch
    /// has failed, interrupt the threads still running its blocks.
    fn interrupt_if_faulted(&self) {}
    /// Grows `worker`'s scratch to what this launch's blocks need, so that running them
    /// allocates nothing (called on the submitting thread, for every arena it lends).
    fn prepare(&self, worker: &mut WorkerState) {
        let _ = worker;
    }
}

struct Job {
    /// Lifetime-erased: `Pool::run` does not return before every thread is done with it.
    /// Between launches (in the pool's [`Spares`]) it points to [`NoBlocks`].
    runner: *const (dyn BlockRunner + 'static),
    cursor: BlockCursor,
    /// Threads inside `run_blocks` of this job.
    active: AtomicUsize,
    panicked: AtomicBool,
    /// Signalled when the last thread leaves an exhausted job.
    done: Mutex<()>,
    done_cv: Condvar,
    /// Scratch arenas prepared for the workers that join (see [`Spares`]); a worker
    /// takes one while it runs blocks and puts it back.
    lent: Mutex<Vec<Arena>>,
}

// SAFETY: the runner is `Sync` and outlives the job (see `Pool::run`).
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

/// The runner of a job between launches; never called (its cursor is exhausted).
struct NoBlocks;

impl BlockRunner for NoBlocks {
    fn run_blocks(&self, _cursor: &BlockCursor, _worker: &mut WorkerState) {}
}

static NO_BLOCKS: NoBlocks = NoBlocks;

impl Job {
    fn idle() -> Job {
        Job {
            runner: &NO_BLOCKS,
            cursor: BlockCursor::new(0, BlockOrder::OneByOne, 1),
            active: AtomicUsize::new(0),
            panicked: AtomicBool::new(false),
            done: Mutex::new(()),
            done_cv: Condvar::new(),
            lent: Mutex::new(Vec::new()),
        }
    }

    /// Runs blocks of this job on the calling thread: with `own` scratch (the submitter),
    /// else with an arena the job lends (a worker; its own thread's scratch when the job
    /// has none left).
    fn work(&self, mut own: Option<&mut WorkerState>) {
        self.active.fetch_add(1, Ordering::SeqCst);
        if !self.cursor.exhausted() {
            match own.as_deref_mut() {
                Some(scratch) => self.run_blocks(scratch),
                None => {
                    let lent = self.lent.lock().unwrap_or_else(|e| e.into_inner()).pop();
                    match lent {
                        Some(mut arena) => {
                            self.run_blocks(&mut arena.0);
                            self.lent.lock().unwrap_or_else(|e| e.into_inner()).push(arena);
                        }
                        None => WORKER.with(|w| self.run_blocks(&mut w.borrow_mut())),
                    }
                }
            }
        }
        // Only the submitter waits for the job to be done: it needs waking only when a
        // worker leaves last (a wake-up is a system call, even with nobody waiting).
        let submitter = own.is_some();
        if self.active.fetch_sub(1, Ordering::SeqCst) == 1 && self.cursor.exhausted() && !submitter {
            let _g = self.done.lock().unwrap_or_else(|e| e.into_inner());
            self.done_cv.notify_all();
        }
    }

    fn run_blocks(&self, scratch: &mut WorkerState) {
        // SAFETY: see `Job::runner`: a thread only gets here while the job's submitter
        // waits for `active` to drop to 0.
        let runner = unsafe { &*self.runner };
        let ok = catch_unwind(AssertUnwindSafe(|| runner.run_blocks(&self.cursor, scratch))).is_ok();
        if !ok {
            self.panicked.store(true, Ordering::SeqCst);
            self.cursor.stop();
        }
    }

    fn wait(&self, runner: &dyn BlockRunner) {
        let mut g = self.done.lock().unwrap_or_else(|e| e.into_inner());
        while self.active.load(Ordering::SeqCst) != 0 {
            let (next, timeout) = self.done_cv.wait_timeout(g, INTERRUPT_PERIOD).unwrap_or_else(|e| e.into_inner());
            g = next;
            if timeout.timed_out() {
                runner.interrupt_if_faulted();
            }
        }
    }
}

/// How often a submitter waiting for a failed launch's last blocks interrupts them again.
const INTERRUPT_PERIOD: std::time::Duration = std::time::Duration::from_millis(5);

struct Shared {
    jobs: Mutex<VecDeque<Arc<Job>>>,
    work: Condvar,
}

/// The worker pool.
pub struct Pool {
    shared: Arc<Shared>,
    workers: usize,
    spares: Mutex<Spares>,
}

thread_local! {
    /// A thread's own scratch: cooperative block threads', and a pool worker's when a job
    /// has no arena left to lend it.
    static WORKER: RefCell<WorkerState> = RefCell::new(WorkerState::default());
}

/// What launches borrow and give back, so that a launch allocates nothing in steady state:
/// jobs, and scratch arenas (shared window, stacks, region and fiber state).
///
/// A worker may still hold a finished job for a moment (it drops its reference after
/// leaving the job), so a job is reused only once nobody else references it; each worker
/// holds at most one job, so with one spare job per pool thread one is always free to a
/// lone submitter.
///
/// Scratch is not per thread: which threads run a launch's blocks changes from launch to
/// launch (the submitter is a stream worker or an application thread; a pool worker may
/// wake up too late to get a block of a small grid), so a thread's own scratch would grow
/// at a random later launch. Instead a launch takes an arena for its submitter and one
/// for each pool worker, grows all of them to what its blocks need before any block runs
/// ([`BlockRunner::prepare`]), and gives them back in the same order: in steady state the
/// same arenas serve each launch and have already grown for its kernel.
struct Spares {
    jobs: Vec<Arc<Job>>,
    arenas: Vec<Arena>,
}

/// A scratch arena, lent to one thread (a launch's submitter or a pool worker) for the
/// length of one launch.
#[derive(Default)]
struct Arena(Box<WorkerState>);

// SAFETY: between launches a scratch is only memory (buffers, coroutine stacks, fibers of
// an abandoned block that are never resumed, only reset): no coroutine runs on it and no
// thread refers to it, so another thread may take it over. Its raw pointers are stale
// until the next block overwrites them.
unsafe impl Send for Arena {}

impl Pool {
    pub fn new(workers: usize) -> Arc<Pool> {
        let workers = std::env::var("CUDA_CPU_THREADS").ok().and_then(|s| s.parse().ok()).filter(|&n| n > 0).unwrap_or(workers.max(1));
        crate::fault::install_handlers();
        // Room for the jobs of many concurrent streams: listing a job allocates nothing.
        let shared = Arc::new(Shared { jobs: Mutex::new(VecDeque::with_capacity(64)), work: Condvar::new() });
        // The submitting thread runs blocks too, so one worker fewer keeps one thread per core.
        for i in 0..workers.saturating_sub(1) {
            let s = shared.clone();
            std::thread::Builder::new().name(format!("cuda-cpu-{i}")).spawn(move || worker_loop(s)).expect("spawn worker thread");
        }
        let jobs = (0..workers).map(|_| Arc::new(Job::idle())).collect();
        Arc::new(Pool { shared, workers, spares: Mutex::new(Spares { jobs, arenas: Vec::new() }) })
    }

    /// A job nobody else references, lending `lend` arenas to workers, and an arena for
    /// the submitter, for one launch. (New ones only until there are enough for the
    /// launches that run at once.)
    fn take_spares(&self, lend: usize) -> (Arc<Job>, Arena) {
        let mut spares = self.spares.lock().unwrap_or_else(|e| e.into_inner());
        let free = spares.jobs.iter_mut().position(|j| Arc::get_mut(j).is_some());
        let mut job = free.map(|i| spares.jobs.swap_remove(i)).unwrap_or_else(|| Arc::new(Job::idle()));
        let own = spares.arenas.pop().unwrap_or_default();
        let j = Arc::get_mut(&mut job).expect("a spare job is referenced by nobody else");
        let lent = j.lent.get_mut().unwrap_or_else(|e| e.into_inner());
        for _ in 0..lend {
            lent.push(spares.arenas.pop().unwrap_or_default());
        }
        (job, own)
    }

    /// Returns what [`Pool::take_spares`] lent once the launch is over, in reverse order.
    fn give_back(&self, mut job: Arc<Job>, own: Arena) {
        let mut spares = self.spares.lock().unwrap_or_else(|e| e.into_inner());
        // Every worker has put its arena back: none is inside the job any more.
        let mut lent = job.lent.lock().unwrap_or_else(|e| e.into_inner());
        if !lent.is_empty() {
            spares.arenas.extend(lent.drain(..).rev());
        }
        drop(lent);
        spares.arenas.push(own);
        if let Some(j) = Arc::get_mut(&mut job) {
            // No dangling runner is left behind, even in a job nobody will run.
            j.runner = &NO_BLOCKS;
        }
        spares.jobs.push(job);
    }

    /// Threads that run blocks of a launch at once (workers plus the submitting thread).
    pub fn threads(&self) -> usize {
        self.workers
    }

    /// Runs blocks `0..total` on the workers and the calling thread, handed out in `order`,
    /// and waits for all of them. Returns false if a block panicked (a runtime bug; the
    /// launch failed).
    pub fn run(&self, total: u64, order: BlockOrder, runner: &(dyn BlockRunner + '_)) -> bool {
        if total == 0 {
            return true;
        }
        let helpers = (total - 1).min(self.workers.saturating_sub(1) as u64);
        if helpers == 0 {
            return self.run_alone(total, order, runner);
        }
        // SAFETY: we wait below until no thread is inside the job any more, so erasing
        // the lifetime never lets a worker see a dangling runner.
        let runner: *const (dyn BlockRunner + 'static) = unsafe { std::mem::transmute(runner as *const dyn BlockRunner) };
        // Any worker may join a listed job: lend an arena to each.
        let (mut job, mut arena) = self.take_spares(self.workers - 1);
        {
            let j = Arc::get_mut(&mut job).expect("a spare job is referenced by nobody else");
            j.runner = runner;
            j.cursor = BlockCursor::new(total, order, self.workers);
            *j.active.get_mut() = 0;
            *j.panicked.get_mut() = false;
            // SAFETY: as above.
            let runner = unsafe { &*runner };
            for a in j.lent.get_mut().unwrap_or_else(|e| e.into_inner()).iter_mut() {
                runner.prepare(&mut a.0);
            }
            runner.prepare(&mut arena.0);
        }
        self.shared.jobs.lock().unwrap_or_else(|e| e.into_inner()).push_back(job.clone());
        if helpers as usize + 1 >= self.workers {
            self.shared.work.notify_all();
        } else {
            for _ in 0..helpers {
                self.shared.work.notify_one();
            }
        }
        job.work(Some(&mut arena.0));
        // Unlist it (a worker may have done so already) so no new thread enters.
        self.shared.jobs.lock().unwrap_or_else(|e| e.into_inner()).retain(|j| !Arc::ptr_eq(j, &job));
        // SAFETY: as above; `runner` is alive for this whole call.
        job.wait(unsafe { &*job.runner });
        let ok = !job.panicked.load(Ordering::SeqCst);
        self.give_back(job, arena);
        ok
    }

    /// [`Pool::run`] for a launch no worker can help with (one block, or a pool of one
    /// thread): the calling thread runs every block with a spare arena, without a job
    /// that workers could see, so nobody is woken or waited for.
    fn run_alone(&self, total: u64, order: BlockOrder, runner: &(dyn BlockRunner + '_)) -> bool {
        let mut arena = self.spares.lock().unwrap_or_else(|e| e.into_inner()).arenas.pop().unwrap_or_default();
        runner.prepare(&mut arena.0);
        let cursor = BlockCursor::new(total, order, self.workers);
        let ok = catch_unwind(AssertUnwindSafe(|| runner.run_blocks(&cursor, &mut arena.0))).is_ok();
        self.spares.lock().unwrap_or_else(|e| e.into_inner()).arenas.push(arena);
        ok
    }

    /// Runs a cooperative launch: every block on its own thread, all at once (the calling
    /// thread runs block 0). Returns false if a block panicked.
    pub fn run_cooperative(&self, total: u64, runner: &(dyn BlockRunner + '_)) -> bool {
        let panicked = AtomicBool::new(false);
        let finished = AtomicU64::new(0);
        let run_one = |index: u64| {
            let cursor = BlockCursor::single(index);
            let ok = catch_unwind(AssertUnwindSafe(|| WORKER.with(|w| runner.run_blocks(&cursor, &mut w.borrow_mut())))).is_ok();
            if !ok {
                panicked.store(true, Ordering::SeqCst);
            }
            finished.fetch_add(1, Ordering::SeqCst);
        };
        std::thread::scope(|s| {
            for index in 1..total {
                let run_one = &run_one;
                std::thread::Builder::new()
                    .name(format!("cuda-cpu-coop-{index}"))
                    .spawn_scoped(s, move || run_one(index))
                    .expect("spawn a thread for a cooperative block");
            }
            run_one(0);
            while finished.load(Ordering::SeqCst) < total {
                std::thread::sleep(INTERRUPT_PERIOD);
                runner.interrupt_if_faulted();
            }
        });
        !panicked.load(Ordering::SeqCst)
    }
}

fn worker_loop(shared: Arc<Shared>) {
    loop {
        let job = {
            let mut jobs = shared.jobs.lock().unwrap_or_else(|e| e.into_inner());
            loop {
                while jobs.front().is_some_and(|j| j.cursor.exhausted()) {
                    jobs.pop_front();
                }
                if let Some(j) = jobs.front() {
                    break j.clone();
                }
                jobs = shared.work.wait(jobs).unwrap_or_else(|e| e.into_inner());
            }
        };
        job.work(None);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Drains `cursor` from `threads` threads at once; returns each thread's runs.
    fn drain(cursor: &BlockCursor, threads: usize) -> Vec<Vec<std::ops::Range<u64>>> {
        std::thread::scope(|s| {
            let handles: Vec<_> = (0..threads)
                .map(|_| {
                    s.spawn(|| {
                        let mut runs = Vec::new();
                        while let Some(r) = cursor.take() {
                            runs.push(r);
                        }
                        runs
                    })
                })
                .collect();
            handles.into_iter().map(|h| h.join().unwrap()).collect()
        })
    }

    #[test]
    fn every_block_is_handed_out_once_in_increasing_runs() {
        // (blocks, order, threads of the pool, threads draining)
        let cases = [
            (0u64, BlockOrder::Runs, 2usize, 2usize),
            (1, BlockOrder::Runs, 2, 2),
            (7, BlockOrder::OneByOne, 2, 3),
            (1000, BlockOrder::OneByOne, 4, 4),
            (1024, BlockOrder::Runs, 2, 2),
            (262_144, BlockOrder::Runs, 2, 2),
            (100_003, BlockOrder::Runs, 16, 5),
        ];
        for (total, order, pool_threads, threads) in cases {
            let cursor = BlockCursor::new(total, order, pool_threads);
            let per_thread = drain(&cursor, threads);
            let mut seen = vec![0u8; total as usize];
            for runs in &per_thread {
                // A thread's runs come in increasing order (runs are taken in order).
                assert!(runs.windows(2).all(|w| w[0].end <= w[1].start), "{total} {order:?}: {runs:?}");
                for r in runs {
                    assert!(!r.is_empty() && r.end <= total);
                    match order {
                        BlockOrder::OneByOne => assert_eq!(r.end - r.start, 1),
                        BlockOrder::Runs => assert!(r.end - r.start <= MAX_RUN),
                    }
                    for b in r.clone() {
                        seen[b as usize] += 1;
                    }
                }
            }
            assert!(seen.iter().all(|&n| n == 1), "{total} blocks, {order:?}: a block was skipped or run twice");
            assert_eq!(cursor.take(), None);
        }
    }

    #[test]
    fn runs_leave_work_for_every_thread() {
        // Guided runs: the first run is at most a quarter of a thread's share.
        let cursor = BlockCursor::new(1024, BlockOrder::Runs, 2);
        assert_eq!(cursor.take(), Some(0..128));
        assert_eq!(cursor.take(), Some(128..240));
        let single = BlockCursor::single(5);
        assert_eq!((single.take(), single.take()), (Some(5..6), None));
    }
}
