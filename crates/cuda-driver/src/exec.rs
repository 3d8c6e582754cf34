//! Stream execution: every stream is a [`Queue`] of operations (kernel launches, copies,
//! fills, event records, waits, host callbacks) run in order, asynchronously to the host,
//! by a worker thread of its own. Queues of different streams run concurrently (their
//! kernels share the backend's worker pool).
//!
//! # Ordering
//! Each operation gets a sequence number in its queue; a queue's `completed` counter says
//! how far it has run. A [`Marker`] `(queue, seq)` names the point after one operation:
//! events hold the marker of their last record, `cuStreamWaitEvent` adds the event's
//! marker as a dependency of a no-op, and CUDA's implicit synchronization of the legacy
//! default stream becomes dependencies computed at submission ([`Driver::submit`]):
//! - an operation on the legacy default stream waits for all work already submitted to
//!   every *blocking* stream of the context (created without `CU_STREAM_NON_BLOCKING`,
//!   and the per-thread default streams);
//! - an operation on a blocking stream waits for all work already submitted to the legacy
//!   default stream.
//!
//! Dependencies only ever name operations submitted earlier, so waiting never cycles.
//!
//! # Who runs an operation
//! A queue's worker thread is started on demand and exits after being idle for a while.
//! Operations the host waits for anyway (blocking copies, event records, waits) run on the
//! calling thread when their queue is idle and their dependencies are complete
//! ([`Driver::submit_and_wait`], [`Driver::submit`] with `inline_ok`): no thread hand-off
//! for synchronous programs. A thread that waits for a queue runs its pending operations
//! itself while the worker has not taken them yet ([`Queue::wait_for`]), so `launch;
//! synchronize` needs no hand-off either. Exactly one thread runs a queue's operations at
//! a time (the `running` token), so they complete in order.
//!
//! # Errors
//! A faulting kernel stores its sticky error in the context; the operations still queued
//! in that context are then skipped (host callbacks are still called, with the error as
//! their status) and every later call that needs the context reports the error. A
//! non-sticky error of an asynchronous operation is kept in its queue and reported by the
//! next synchronization of that queue or of the context.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, MutexGuard, OnceLock, Weak};
use std::time::{Duration, Instant};

use backend_api::{Device, DeviceError, LaunchConfig};

use crate::context::Context;
use crate::function::Function;
use crate::params::{ParamBuffer, SpareParams};

mod deps;
use crate::{CuError, CuResult};
use deps::Deps;

/// How long an idle queue keeps its worker thread.
const IDLE_WORKER: Duration = Duration::from_secs(2);

/// Work that runs on a device (or in host memory) and may fail.
pub(crate) type RunFn = Box<dyn FnOnce() -> Result<(), DeviceError> + Send>;
/// A host callback: receives the stream's status.
pub(crate) type HostFn = Box<dyn FnOnce(CuResult<()>) + Send>;

/// When an event's record completed (`cuEventElapsedTime`).
pub(crate) type Stamp = OnceLock<Instant>;

/// One operation.
pub(crate) enum Work {
    /// A kernel launch (its own variant, not a boxed closure: launches allocate nothing).
    Launch(Launch),
    /// Kernel nodes of an executable graph, next to each other in its order, run one after
    /// another as one operation: a chain of kernels costs one hand-off to the worker, not
    /// one per kernel. The launches are resolved once and shared by every launch of the
    /// graph (`graph::exec`).
    Launches(Arc<[Launch]>),
    /// A copy or fill.
    Run(RunFn),
    /// `cuLaunchHostFunc` / `cuStreamAddCallback`.
    Host(HostFn),
    /// `cuEventRecord`: the time at which all earlier work of the stream completed.
    Record(Arc<Stamp>),
    /// Only ordering (a wait for an event, a synchronization point).
    Nop,
}

/// A queued kernel launch: everything it needs, owned, with its parameter block inline or
/// in a spare buffer of its queue ([`crate::params`]).
pub(crate) struct Launch {
    pub(crate) function: Arc<Function>,
    pub(crate) config: LaunchConfig,
    pub(crate) cooperative: bool,
    pub(crate) params: ParamBuffer,
}

impl Launch {
    fn run(&self) -> Result<(), DeviceError> {
        let (module, name, params) = (&self.function.loaded, self.function.name_str(), self.params.bytes());
        if self.cooperative {
            module.launch_cooperative(name, &self.config, params)
        } else {
            module.launch(name, &self.config, params)
        }
    }
}

struct Op {
    seq: u64,
    deps: Deps,
    work: Work,
    /// Where a waiting caller wants the result (synchronous operations).
    report: Option<Arc<Report>>,
}

/// The outcome of one operation, for the thread that waits for it.
#[derive(Default)]
pub(crate) struct Report(Mutex<Option<Result<(), DeviceError>>>);

impl Report {
    fn set(&self, r: Result<(), DeviceError>) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = Some(r);
    }

    pub(crate) fn take(&self) -> Result<(), DeviceError> {
        self.0.lock().unwrap_or_else(|e| e.into_inner()).take().unwrap_or(Ok(()))
    }
}

/// Which stream a queue belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum QueueKind {
    /// The legacy default stream (`0` / `CU_STREAM_LEGACY`).
    Legacy,
    /// A thread's per-thread default stream (`CU_STREAM_PER_THREAD`, `_ptsz` calls).
    PerThread,
    /// A stream from `cuStreamCreate*`.
    Created,
}

struct QState {
    ops: VecDeque<Op>,
    /// An executor (worker or inline caller) is running an operation of this queue.
    running: bool,
    worker: bool,
    /// The stream is gone (destroyed, or its thread exited): the worker exits when idle.
    orphaned: bool,
    /// A non-sticky error of an asynchronous operation, reported at the next sync.
    error: Option<CuError>,
    /// Threads blocked on `Queue::cv` (the worker when idle, waiting callers): a push
    /// or completion with nobody waiting skips the futex wake-up system call.
    waiters: u32,
}

/// The operations of one stream.
pub(crate) struct Queue {
    /// Unique in the process (never reused, unlike the queue's address).
    id: u64,
    pub(crate) kind: QueueKind,
    /// Blocking w.r.t. the legacy default stream (everything but `CU_STREAM_NON_BLOCKING`).
    pub(crate) blocking: bool,
    ctx: Weak<Context>,
    device: Arc<dyn Device>,
    /// Sequence number of the last operation submitted / completed.
    submitted: AtomicU64,
    completed: AtomicU64,
    state: Mutex<QState>,
    cv: Condvar,
    /// Parameter buffers of this queue's launches that have run, for the next ones.
    spare_params: SpareParams,
    /// `(queue id, seq)`: the furthest point of each other queue that this queue's later
    /// work waits for through `cuStreamWaitEvent` (what stream-ordered allocation may
    /// follow, [`Queue::follows`]).
    waits: Mutex<Vec<(u64, u64)>>,
    /// The stream's part in a stream capture, while it takes part in one
    /// ([`crate::graph::capture`]): its work is then recorded, not run.
    pub(crate) capture: Mutex<Option<crate::graph::capture::Member>>,
    /// The stream's attributes (`cuStreamSetAttribute`, [`crate::stream_attr`]).
    pub(crate) attrs: crate::stream_attr::AttrCell,
}

/// The point right after operation `seq` of `queue`.
#[derive(Clone)]
pub(crate) struct Marker {
    queue: Arc<Queue>,
    seq: u64,
}

impl Marker {
    pub(crate) fn is_complete(&self) -> bool {
        self.queue.completed.load(Ordering::Acquire) >= self.seq
    }

    pub(crate) fn wait(&self) {
        self.queue.wait_for(self.seq);
    }

    pub(crate) fn queue(&self) -> &Arc<Queue> {
        &self.queue
    }

    /// Whether `other` names a point of the same queue.
    pub(crate) fn same_queue(&self, other: &Marker) -> bool {
        self.queue.id == other.queue.id
    }

    /// The operation's sequence number in its queue.
    pub(crate) fn seq(&self) -> u64 {
        self.seq
    }
}

impl Queue {
    pub(crate) fn new(kind: QueueKind, blocking: bool, ctx: Weak<Context>, device: Arc<dyn Device>) -> Arc<Queue> {
        static NEXT_QUEUE_ID: AtomicU64 = AtomicU64::new(1);
        Arc::new(Queue {
            id: NEXT_QUEUE_ID.fetch_add(1, Ordering::Relaxed),
            kind,
            blocking,
            ctx,
            device,
            submitted: AtomicU64::new(0),
            completed: AtomicU64::new(0),
            state: Mutex::new(QState { ops: VecDeque::new(), running: false, worker: false, orphaned: false, error: None, waiters: 0 }),
            cv: Condvar::new(),
            spare_params: SpareParams::default(),
            waits: Mutex::new(Vec::new()),
            capture: Mutex::new(None),
            attrs: Mutex::new(crate::stream_attr::StreamAttrs::new(crate::stream::LEAST_PRIORITY)),
        })
    }

    /// Records that this queue's later work waits for `m` (`cuStreamWaitEvent`).
    pub(crate) fn note_wait(&self, m: &Marker) {
        let mut waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        match waits.iter_mut().find(|(id, _)| *id == m.queue.id) {
            Some((_, seq)) => *seq = (*seq).max(m.seq),
            None => waits.push((m.queue.id, m.seq)),
        }
    }

    /// Whether work submitted to this queue from now on runs after the point `m` in
    /// stream order: `m` is on this queue, or (with `dependencies`) this queue waits for
    /// it through an event or CUDA's legacy-stream rules (the legacy default stream and a
    /// blocking stream of the same context follow each other). Direct waits only: a wait
    /// for a queue that itself waited for `m` does not count.
    pub(crate) fn follows(&self, m: &Marker, dependencies: bool) -> bool {
        let other = &m.queue;
        if other.id == self.id {
            return true;
        }
        if !dependencies {
            return false;
        }
        let implicit = Weak::ptr_eq(&self.ctx, &other.ctx)
            && ((self.kind == QueueKind::Legacy && other.blocking) || (self.blocking && other.kind == QueueKind::Legacy));
        implicit || self.waits.lock().unwrap_or_else(|e| e.into_inner()).iter().any(|&(id, seq)| id == other.id && seq >= m.seq)
    }

    fn state(&self) -> MutexGuard<'_, QState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The marker after the last submitted operation, if it has not completed yet.
    pub(crate) fn tail(self: &Arc<Self>) -> Option<Marker> {
        let seq = self.submitted.load(Ordering::Acquire);
        (self.completed.load(Ordering::Acquire) < seq).then(|| Marker { queue: self.clone(), seq })
    }

    /// The marker after the last submitted operation (complete or not).
    pub(crate) fn tail_marker(self: &Arc<Self>) -> Marker {
        Marker { queue: self.clone(), seq: self.submitted.load(Ordering::Acquire) }
    }

    /// Whether everything submitted has completed.
    pub(crate) fn is_idle(&self) -> bool {
        self.completed.load(Ordering::Acquire) >= self.submitted.load(Ordering::Acquire)
    }

    /// Waits until operation `seq` has completed. While nobody runs the queue's next
    /// operation (its worker has not woken up yet) and that operation is a launch, copy,
    /// fill, record or wait, the waiting thread runs it itself: the caller is blocked
    /// anyway, and `launch; synchronize` then costs no thread hand-off. Host callbacks are
    /// left to the worker (they run on driver threads).
    pub(crate) fn wait_for(&self, seq: u64) {
        if self.completed.load(Ordering::Acquire) >= seq {
            return;
        }
        let mut st = self.state();
        while self.completed.load(Ordering::Acquire) < seq {
            if !st.running && st.ops.front().is_some_and(|op| !matches!(op.work, Work::Host(_))) {
                let op = st.ops.pop_front().expect("checked above");
                st.running = true;
                drop(st);
                let done = op.seq;
                self.execute(op);
                self.finish(done);
                st = self.state();
                continue;
            }
            st.waiters += 1;
            st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
            st.waiters -= 1;
        }
    }

    /// A zeroed parameter block of `len` bytes for a launch on this queue.
    pub(crate) fn param_buffer(&self, len: usize) -> ParamBuffer {
        self.spare_params.zeroed(len)
    }

    /// Takes the pending non-sticky error.
    pub(crate) fn take_error(&self) -> Option<CuError> {
        self.state().error.take()
    }

    /// The stream is gone; the worker exits once the queue is idle.
    pub(crate) fn orphan(&self) {
        self.state().orphaned = true;
        self.cv.notify_all();
    }

    pub(crate) fn is_orphaned(&self) -> bool {
        self.state().orphaned
    }

    /// Appends an operation; starts the worker if needed. Returns its sequence number.
    fn push(self: &Arc<Self>, deps: Deps, work: Work, report: Option<Arc<Report>>) -> u64 {
        let mut st = self.state();
        let seq = self.submitted.load(Ordering::Relaxed) + 1;
        self.submitted.store(seq, Ordering::Release);
        st.ops.push_back(Op { seq, deps, work, report });
        if !st.worker {
            st.worker = true;
            let q = self.clone();
            let spawned = std::thread::Builder::new().name("cuda-stream".into()).spawn(move || q.worker_loop());
            if spawned.is_err() {
                st.worker = false;
                drop(st);
                // No thread to spare: run the queue here.
                self.run_here();
                return seq;
            }
        } else if st.waiters > 0 {
            self.cv.notify_all();
        }
        seq
    }

    /// Tries to take the `running` token for an operation that runs on the calling thread
    /// right away: only when nothing is queued or running. Returns its sequence number.
    fn begin_inline(&self) -> Option<u64> {
        let mut st = self.state();
        if st.running || !st.ops.is_empty() {
            return None;
        }
        st.running = true;
        let seq = self.submitted.load(Ordering::Relaxed) + 1;
        self.submitted.store(seq, Ordering::Release);
        Some(seq)
    }

    fn finish(&self, seq: u64) {
        let mut st = self.state();
        self.completed.store(seq, Ordering::Release);
        st.running = false;
        let wake = st.waiters > 0;
        drop(st);
        if wake {
            self.cv.notify_all();
        }
    }

    /// Runs queued operations on the calling thread until the queue is empty (used when
    /// no worker thread can be started).
    fn run_here(&self) {
        loop {
            let op = {
                let mut st = self.state();
                while st.running {
                    st.waiters += 1;
                    st = self.cv.wait(st).unwrap_or_else(|e| e.into_inner());
                    st.waiters -= 1;
                }
                match st.ops.pop_front() {
                    Some(op) => {
                        st.running = true;
                        op
                    }
                    None => return,
                }
            };
            let seq = op.seq;
            self.execute(op);
            self.finish(seq);
        }
    }

    fn worker_loop(self: Arc<Self>) {
        loop {
            let op = {
                let mut st = self.state();
                loop {
                    if !st.running {
                        if let Some(op) = st.ops.pop_front() {
                            st.running = true;
                            break op;
                        }
                        if st.orphaned {
                            st.worker = false;
                            return;
                        }
                    }
                    st.waiters += 1;
                    let (next, timeout) = self.cv.wait_timeout(st, IDLE_WORKER).unwrap_or_else(|e| e.into_inner());
                    st = next;
                    st.waiters -= 1;
                    if timeout.timed_out() && st.ops.is_empty() && !st.running {
                        st.worker = false;
                        return;
                    }
                }
            };
            let seq = op.seq;
            self.execute(op);
            self.finish(seq);
        }
    }

    /// The context's sticky error, if any.
    fn sticky(&self) -> Option<CuError> {
        self.ctx.upgrade().and_then(|c| c.sticky_error())
    }

    /// Runs one operation (the caller holds the `running` token).
    fn execute(&self, op: Op) {
        for d in op.deps.iter() {
            d.wait();
        }
        match op.work {
            Work::Launch(launch) => {
                let result = self.run_launch(self.ctx.upgrade().as_deref(), &launch);
                self.spare_params.give_back(launch.params);
                self.report(result, op.report.as_deref());
            }
            Work::Launches(launches) => {
                // Each launch as if it were an operation of its own: after a fault (a
                // sticky error) the rest report it without running; a non-sticky error
                // is kept for the next synchronization and the rest still run.
                let ctx = self.ctx.upgrade();
                for launch in launches.iter() {
                    let result = self.run_launch(ctx.as_deref(), launch);
                    self.report(result, op.report.as_deref());
                }
            }
            Work::Run(f) => {
                let result = if let Some(e) = self.sticky() { Err(sticky_as_device_error(e)) } else { f() };
                self.report(result, op.report.as_deref());
            }
            Work::Host(f) => {
                self.device.flush_output();
                let status = match self.sticky() {
                    Some(e) => Err(e),
                    None => Ok(()),
                };
                // A panic must not take the stream down; the callback is foreign code
                // wrapped by the ABI, which never unwinds.
                let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| f(status)));
            }
            Work::Record(stamp) => {
                let _ = stamp.set(Instant::now());
            }
            Work::Nop => {}
        }
    }

    /// Runs a launch, unless its context `ctx` already has a sticky error (which it
    /// reports).
    fn run_launch(&self, ctx: Option<&Context>, launch: &Launch) -> Result<(), DeviceError> {
        if let Some(e) = ctx.and_then(|c| c.sticky_error()) {
            return Err(sticky_as_device_error(e));
        }
        launch.run().inspect_err(|e| {
            let c = &launch.config;
            crate::diag!(
                "kernel {} (grid {:?}, block {:?}, {} bytes of dynamic shared memory) failed: {e} -> {:?}",
                launch.function.name_str(),
                c.grid,
                c.block,
                c.dynamic_shared_bytes,
                crate::error::from_device(e)
            );
        })
    }

    /// Where the result of a launch, copy or fill goes: a sticky error into the context,
    /// else to the waiting caller (`report`) or, for asynchronous work, into the queue's
    /// pending error.
    fn report(&self, result: Result<(), DeviceError>, report: Option<&Report>) {
        if let Err(e) = &result {
            let code = crate::error::from_device(e);
            if code.is_sticky() {
                if let Some(ctx) = self.ctx.upgrade() {
                    ctx.set_sticky(code);
                }
            } else if report.is_none() {
                let mut st = self.state();
                st.error.get_or_insert(code);
            }
        }
        if let Some(r) = report {
            r.set(result);
        }
    }
}

/// Operations skipped because of a sticky error report that error.
fn sticky_as_device_error(e: CuError) -> DeviceError {
    match e {
        CuError::ILLEGAL_ADDRESS => DeviceError::IllegalAddress,
        CuError::ASSERT => DeviceError::Assert,
        CuError::ILLEGAL_INSTRUCTION => DeviceError::IllegalInstruction,
        _ => DeviceError::LaunchFailed,
    }
}

/// The queues of a context: its legacy default stream and every other stream.
pub(crate) struct ContextQueues {
    pub(crate) legacy: Arc<Queue>,
    all: Mutex<Vec<Arc<Queue>>>,
    /// Where `cuCtxRecordEvent` records: a queue of no stream, taking part in no
    /// implicit synchronization ([`crate::ctx_event`]).
    pub(crate) records: Arc<Queue>,
    /// What all later work of the context waits for (`cuCtxWaitEvent`), while incomplete.
    waits: Mutex<Vec<Marker>>,
    /// Whether `waits` may hold anything: submissions skip its lock otherwise.
    has_waits: std::sync::atomic::AtomicBool,
}

impl ContextQueues {
    pub(crate) fn new(ctx: Weak<Context>, device: Arc<dyn Device>) -> ContextQueues {
        let legacy = Queue::new(QueueKind::Legacy, true, ctx.clone(), device.clone());
        let records = Queue::new(QueueKind::Created, false, ctx, device);
        ContextQueues {
            legacy: legacy.clone(),
            all: Mutex::new(vec![legacy, records.clone()]),
            records,
            waits: Mutex::new(Vec::new()),
            has_waits: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// The tails of every queue of the context (what `cuCtxRecordEvent` captures).
    pub(crate) fn all_tails(&self) -> Vec<Marker> {
        self.list().iter().filter_map(|q| q.tail()).collect()
    }

    /// Makes all work submitted to the context from now on wait for `m` (`cuCtxWaitEvent`).
    pub(crate) fn add_wait(&self, m: Marker) {
        let mut waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        waits.retain(|w| !w.is_complete());
        waits.push(m);
        self.has_waits.store(true, Ordering::Release);
    }

    /// Adds the incomplete `cuCtxWaitEvent` markers to `deps`.
    fn context_waits(&self, deps: &mut Deps) {
        if !self.has_waits.load(Ordering::Acquire) {
            return;
        }
        let mut waits = self.waits.lock().unwrap_or_else(|e| e.into_inner());
        waits.retain(|w| !w.is_complete());
        if waits.is_empty() {
            self.has_waits.store(false, Ordering::Release);
        }
        deps.extend(waits.iter().cloned());
    }

    fn list(&self) -> MutexGuard<'_, Vec<Arc<Queue>>> {
        self.all.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Registers a new stream's queue (and forgets idle queues of streams that are gone).
    pub(crate) fn add(&self, q: Arc<Queue>) {
        let mut all = self.list();
        all.retain(|q| !(q.kind != QueueKind::Legacy && q.is_idle() && q.is_orphaned()));
        all.push(q);
    }

    /// Waits for everything submitted to every queue so far; returns the first pending
    /// non-sticky error (taking all of them).
    pub(crate) fn drain_all(&self) -> Option<CuError> {
        with_marker_scratch(|markers| {
            markers.extend(self.list().iter().map(|q| q.tail_marker()));
            for m in markers.iter() {
                m.wait();
            }
            let mut first = None;
            for m in markers.iter() {
                if let Some(e) = m.queue.take_error() {
                    first.get_or_insert(e);
                }
            }
            first
        })
    }

    /// As [`ContextQueues::drain_all`], leaving pending errors in place.
    pub(crate) fn drain_all_quiet(&self) {
        with_marker_scratch(|markers| {
            markers.extend(self.list().iter().map(|q| q.tail_marker()));
            for m in markers.iter() {
                m.wait();
            }
        })
    }

    /// After teardown: the streams are gone.
    pub(crate) fn orphan_all(&self) {
        let mut all = self.list();
        let kept = |q: &Arc<Queue>| q.kind == QueueKind::Legacy || Arc::ptr_eq(q, &self.records);
        for q in all.iter().filter(|q| !kept(q)) {
            q.orphan();
        }
        all.retain(kept);
        self.waits.lock().unwrap_or_else(|e| e.into_inner()).clear();
    }

    /// The markers an operation submitted to `q` must wait for (legacy-stream semantics).
    pub(crate) fn implicit_deps(&self, q: &Arc<Queue>) -> Deps {
        let mut deps = Deps::default();
        self.context_waits(&mut deps);
        if !q.blocking {
            return deps;
        }
        if q.kind == QueueKind::Legacy {
            deps.extend(self.list().iter().filter(|o| o.blocking && !Arc::ptr_eq(o, q)).filter_map(|o| o.tail()));
        } else {
            deps.extend(self.legacy.tail());
        }
        deps
    }

    /// Calls `f` with the markers a synchronization of `q` waits for: its own tail, and
    /// for the legacy stream also the work of every blocking stream.
    pub(crate) fn with_sync_markers<R>(&self, q: &Arc<Queue>, f: impl FnOnce(&[Marker]) -> R) -> R {
        with_marker_scratch(|markers| {
            markers.push(q.tail_marker());
            if q.kind == QueueKind::Legacy {
                markers.extend(self.list().iter().filter(|o| o.blocking && !Arc::ptr_eq(o, q)).filter_map(|o| o.tail()));
            }
            f(markers)
        })
    }
}

thread_local! {
    /// Reused by synchronizations to list what they wait for (see [`with_marker_scratch`]).
    static MARKER_SCRATCH: std::cell::Cell<Vec<Marker>> = const { std::cell::Cell::new(Vec::new()) };
}

/// Runs `f` with an empty vector of markers that keeps its capacity from one call to the
/// next on this thread: a synchronization allocates nothing in steady state. (A nested
/// call, or one during thread teardown, gets a fresh vector.)
fn with_marker_scratch<R>(f: impl FnOnce(&mut Vec<Marker>) -> R) -> R {
    let mut markers = MARKER_SCRATCH.try_with(|c| c.take()).unwrap_or_default();
    let result = f(&mut markers);
    markers.clear();
    let _ = MARKER_SCRATCH.try_with(|c| c.set(markers));
    result
}

/// Submission, on the driver.
impl crate::Driver {
    /// Submits `work` to `q`. With `inline_ok`, an operation whose queue is idle and whose
    /// dependencies are complete runs right here on the calling thread.
    pub(crate) fn submit(&self, ctx: &Context, q: &Arc<Queue>, extra_dep: Option<Marker>, work: Work, inline_ok: bool) -> Marker {
        self.submit_after(ctx, q, extra_dep, work, inline_ok)
    }

    /// [`Driver::submit`] with any number of extra dependencies.
    pub(crate) fn submit_after(&self, ctx: &Context, q: &Arc<Queue>, extra: impl IntoIterator<Item = Marker>, work: Work, inline_ok: bool) -> Marker {
        let mut deps = ctx.queues().implicit_deps(q);
        deps.extend(extra.into_iter().filter(|m| !m.is_complete()));
        if inline_ok && deps.iter().all(|m| m.is_complete()) {
            if let Some(seq) = q.begin_inline() {
                q.execute(Op { seq, deps: Deps::default(), work, report: None });
                q.finish(seq);
                return Marker { queue: q.clone(), seq };
            }
        }
        let seq = q.push(deps, work, None);
        Marker { queue: q.clone(), seq }
    }

    /// Submits `f` to `q` and waits for it (a blocking copy or fill): runs it on the
    /// calling thread when `q` is idle and nothing it depends on is pending.
    pub(crate) fn submit_and_wait(&self, ctx: &Context, q: &Arc<Queue>, f: RunFn) -> CuResult<()> {
        let deps = ctx.queues().implicit_deps(q);
        let report = Arc::new(Report::default());
        if deps.iter().all(|m| m.is_complete()) {
            if let Some(seq) = q.begin_inline() {
                q.execute(Op { seq, deps: Deps::default(), work: Work::Run(f), report: Some(report.clone()) });
                q.finish(seq);
                return self.finish_sync(ctx, report.take());
            }
        }
        let seq = q.push(deps, Work::Run(f), Some(report.clone()));
        q.wait_for(seq);
        self.finish_sync(ctx, report.take())
    }

    fn finish_sync(&self, ctx: &Context, r: Result<(), DeviceError>) -> CuResult<()> {
        self.flush_output(ctx);
        r.map_err(|e| self.device_error(ctx, e))
    }

    /// Writes device `printf` output of completed launches (a CUDA flush point).
    pub(crate) fn flush_output(&self, ctx: &Context) {
        self.devices[ctx.device].backend.flush_output();
    }
}
