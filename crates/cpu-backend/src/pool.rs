//! A persistent pool of worker threads that runs the blocks of one launch at a time.
//!
//! Blocks are handed out in increasing linear order through an atomic counter: a block
//! may spin-wait on an earlier one (threadfence reductions, decoupled look-back scans),
//! which is only safe if every earlier block has already started on some worker.

use std::cell::RefCell;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};

/// Per-worker scratch that survives across launches: shared-memory arena, fiber stacks.
#[derive(Default)]
pub struct WorkerState {
    pub scratch: crate::block::BlockScratch,
}

/// Something that can run block `index` of a launch.
pub trait BlockRunner: Sync {
    fn run_block(&self, index: u64, worker: &mut WorkerState);
}

struct Job {
    /// Lifetime-erased: `Pool::run` does not return before every worker is done with it.
    runner: *const (dyn BlockRunner + 'static),
    next: AtomicU64,
    total: u64,
}

// SAFETY: the runner is `Sync` and outlives the job (see `Pool::run`).
unsafe impl Send for Job {}
unsafe impl Sync for Job {}

struct State {
    job: Option<Arc<Job>>,
    generation: u64,
    busy: usize,
    panicked: bool,
}

struct Shared {
    state: Mutex<State>,
    work: Condvar,
    done: Condvar,
}

/// The worker pool.
pub struct Pool {
    shared: Arc<Shared>,
    workers: usize,
    launch: Mutex<()>,
}

impl Pool {
    pub fn new(workers: usize) -> Arc<Pool> {
        let workers = std::env::var("CUDA_CPU_THREADS").ok().and_then(|s| s.parse().ok()).filter(|&n| n > 0).unwrap_or(workers.max(1));
        let shared = Arc::new(Shared {
            state: Mutex::new(State { job: None, generation: 0, busy: 0, panicked: false }),
            work: Condvar::new(),
            done: Condvar::new(),
        });
        for i in 0..workers {
            let s = shared.clone();
            std::thread::Builder::new().name(format!("cuda-cpu-{i}")).spawn(move || worker_loop(s)).expect("spawn worker thread");
        }
        Arc::new(Pool { shared, workers, launch: Mutex::new(()) })
    }

    /// Run blocks `0..total` on the workers and wait for all of them. Returns false if a
    /// block panicked (a runtime bug; the launch is reported as failed).
    pub fn run(&self, total: u64, runner: &(dyn BlockRunner + '_)) -> bool {
        if total == 0 {
            return true;
        }
        let _one_at_a_time = self.launch.lock().unwrap_or_else(|e| e.into_inner());
        // SAFETY: we wait below until no worker holds the job any more, so erasing the
        // lifetime never lets a worker see a dangling runner.
        let runner: *const (dyn BlockRunner + 'static) = unsafe { std::mem::transmute(runner as *const dyn BlockRunner) };
        let job = Arc::new(Job { runner, next: AtomicU64::new(0), total });
        let mut st = self.shared.state.lock().unwrap();
        st.job = Some(job);
        st.generation += 1;
        st.busy = self.workers;
        st.panicked = false;
        self.shared.work.notify_all();
        while st.busy > 0 {
            st = self.shared.done.wait(st).unwrap();
        }
        st.job = None;
        !st.panicked
    }
}

thread_local! {
    static WORKER: RefCell<WorkerState> = RefCell::new(WorkerState::default());
}

fn worker_loop(shared: Arc<Shared>) {
    let mut seen = 0u64;
    loop {
        let job = {
            let mut st = shared.state.lock().unwrap();
            while st.generation == seen {
                st = shared.work.wait(st).unwrap();
            }
            seen = st.generation;
            st.job.clone()
        };
        let mut ok = true;
        if let Some(job) = job {
            ok = catch_unwind(AssertUnwindSafe(|| {
                WORKER.with(|w| {
                    let mut w = w.borrow_mut();
                    // SAFETY: see `Job::runner`.
                    let runner = unsafe { &*job.runner };
                    loop {
                        let i = job.next.fetch_add(1, Ordering::Relaxed);
                        if i >= job.total {
                            break;
                        }
                        runner.run_block(i, &mut w);
                    }
                })
            }))
            .is_ok();
            if !ok {
                // Stop handing out the remaining blocks.
                job.next.store(job.total, Ordering::Relaxed);
            }
        }
        let mut st = shared.state.lock().unwrap();
        st.panicked |= !ok;
        st.busy -= 1;
        if st.busy == 0 {
            shared.done.notify_all();
        }
    }
}
