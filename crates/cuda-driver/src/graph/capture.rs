//! Stream capture (driver API "Stream Management": `cuStreamBeginCapture`,
//! `cuStreamEndCapture`, `cuStreamIsCapturing`, `cuStreamGetCaptureInfo`,
//! `cuStreamUpdateCaptureDependencies`, `cuThreadExchangeStreamCaptureMode`).
//!
//! A capture sequence ([`Capture`]) builds a graph. Each stream taking part (the origin,
//! and streams pulled in through `cuStreamWaitEvent` on an event recorded in the capture)
//! has a [`Member`] entry on its queue: the capture and the stream's current dependency
//! set, the nodes its next operation will depend on. Work submitted to such a stream is
//! added to the graph as a node depending on that set, which then becomes the new node
//! alone; nothing runs. An event recorded in a capturing stream remembers the set, and a
//! stream waiting for it joins the capture (or, already a member, adds the set to its own).
//!
//! Illegal operations (CUDA Programming Guide, "Stream Capture", "Prohibited and
//! Unhandled Operations") invalidate the capture: synchronizing or querying a capturing
//! stream or a captured event, a legacy-stream operation that would depend on a capturing
//! blocking stream (`CUDA_ERROR_STREAM_CAPTURE_IMPLICIT`), potentially unsafe calls
//! (`cuMemAlloc`, `cuMemFree`, `cuCtxSynchronize`, synchronous copies) under the calling
//! thread's capture-interaction mode. Operations on an invalidated capture answer
//! `CUDA_ERROR_STREAM_CAPTURE_INVALIDATED`, and so does `cuStreamEndCapture`, which then
//! returns no graph; a stream that forked from the origin and was not joined back makes
//! `cuStreamEndCapture` fail with `CUDA_ERROR_STREAM_CAPTURE_UNJOINED`.
//!
//! Lock order: a queue's `capture` slot, then a capture's member list or a graph's state;
//! nothing takes a queue's slot while holding a member list.

use std::cell::Cell;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, Weak};
use std::thread::ThreadId;

use super::recapture::Recapture;
use super::{GraphState, NodeParams};
use crate::context::Context;
use crate::diag::fail;
use crate::exec::{Queue, QueueKind};
use crate::{CtxHandle, CuError, CuResult, Driver, GraphHandle, GraphNodeHandle, StreamHandle};

/// `CU_STREAM_CAPTURE_MODE_GLOBAL`.
pub const MODE_GLOBAL: u32 = 0;
/// `CU_STREAM_CAPTURE_MODE_THREAD_LOCAL`.
pub const MODE_THREAD_LOCAL: u32 = 1;
/// `CU_STREAM_CAPTURE_MODE_RELAXED`.
pub const MODE_RELAXED: u32 = 2;

/// `CUstreamCaptureStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum CaptureStatus {
    None = 0,
    Active = 1,
    Invalidated = 2,
}

/// `CU_STREAM_ADD_CAPTURE_DEPENDENCIES` / `CU_STREAM_SET_CAPTURE_DEPENDENCIES`.
pub const ADD_CAPTURE_DEPENDENCIES: u32 = 0;
pub const SET_CAPTURE_DEPENDENCIES: u32 = 1;

/// One capture sequence.
pub(crate) struct Capture {
    /// `cuStreamGetCaptureInfo`'s id: unique in the process.
    pub(crate) id: u64,
    pub(crate) graph: GraphHandle,
    /// Begun by `cuStreamBeginCaptureToGraph`: the graph is the caller's, which ending
    /// the capture neither returns as new nor destroys.
    existing: bool,
    mode: u32,
    thread: ThreadId,
    ctx: CtxHandle,
    /// The queue `cuStreamBeginCapture` was called on.
    origin: Weak<Queue>,
    invalidated: AtomicBool,
    /// Set by `cuStreamEndCapture`: events recorded in it no longer count as captured.
    ended: AtomicBool,
    members: Mutex<Vec<Weak<Queue>>>,
    /// Begun by `cuStreamBeginRecaptureToGraph`: operations match the graph's nodes.
    pub(crate) recapture: Option<Recapture>,
}

impl Capture {
    pub(crate) fn is_active(&self) -> bool {
        !self.ended.load(Ordering::Acquire)
    }

    pub(crate) fn invalidate(&self) {
        self.invalidated.store(true, Ordering::Release);
    }

    fn members(&self) -> MutexGuard<'_, Vec<Weak<Queue>>> {
        self.members.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether a blocking stream (one the legacy stream synchronizes with) takes part.
    fn has_blocking_member(&self) -> bool {
        self.members().iter().filter_map(Weak::upgrade).any(|q| q.blocking)
    }
}

/// A stream's part in a capture.
pub(crate) struct Member {
    pub(crate) capture: Arc<Capture>,
    /// The nodes the stream's next captured operation depends on.
    pub(crate) deps: Vec<GraphNodeHandle>,
}

/// What an event recorded in a capturing stream stands for.
#[derive(Clone)]
pub(crate) struct CapturedRecord {
    pub(crate) capture: Arc<Capture>,
    pub(crate) deps: Vec<GraphNodeHandle>,
}

/// The captures in progress.
#[derive(Default)]
pub(crate) struct Registry(Mutex<Vec<Arc<Capture>>>);

impl Registry {
    fn list(&self) -> MutexGuard<'_, Vec<Arc<Capture>>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }
}

thread_local! {
    /// This thread's capture-interaction mode (`cuThreadExchangeStreamCaptureMode`).
    static THREAD_MODE: Cell<u32> = const { Cell::new(MODE_GLOBAL) };
}

static NEXT_CAPTURE_ID: AtomicU64 = AtomicU64::new(1);

/// What `cuStreamGetCaptureInfo` reports.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CaptureInfo {
    pub status: CaptureStatus,
    pub id: u64,
    pub graph: Option<GraphHandle>,
    pub deps: Vec<GraphNodeHandle>,
}

fn slot(q: &Queue) -> MutexGuard<'_, Option<Member>> {
    q.capture.lock().unwrap_or_else(|e| e.into_inner())
}

impl Driver {
    /// Invalidates the captures of `ctx` that a legacy-stream operation would depend on.
    fn implicit_conflict(&self, ctx: &Context) -> CuResult<()> {
        let hit: Vec<Arc<Capture>> = self.graphs.captures.list().iter().filter(|c| c.ctx == ctx.handle && c.has_blocking_member()).cloned().collect();
        if hit.is_empty() {
            return Ok(());
        }
        hit.iter().for_each(|c| c.invalidate());
        Err(fail(CuError::STREAM_CAPTURE_IMPLICIT, format_args!("legacy-stream operation while a blocking stream is capturing")))
    }

    /// Whether a capture of context `ctx` is in progress.
    pub(crate) fn context_capturing(&self, ctx: &Context) -> bool {
        self.graphs.captures.list().iter().any(|c| c.ctx == ctx.handle && c.is_active())
    }

    /// Invalidates every capture of context `ctx` in progress.
    pub(crate) fn invalidate_context_captures(&self, ctx: &Context) {
        self.graphs.captures.list().iter().filter(|c| c.ctx == ctx.handle && c.is_active()).for_each(|c| c.invalidate());
    }

    /// The gate every operation submitted to a stream passes first: `Ok(true)` when `q` is
    /// capturing (the caller adds a node with [`Driver::capture_node`] instead of
    /// submitting), `Ok(false)` to run it. A `blocking` operation (the host waits for it)
    /// on a capturing stream is not allowed: the capture is invalidated.
    pub(crate) fn capture_gate(&self, ctx: &Context, q: &Arc<Queue>, blocking: bool) -> CuResult<bool> {
        if q.kind == QueueKind::Legacy {
            self.implicit_conflict(ctx)?;
        }
        if blocking {
            self.capture_unsafe_call("a synchronous operation")?;
        }
        let slot = slot(q);
        let Some(member) = slot.as_ref() else {
            return Ok(false);
        };
        if member.capture.invalidated.load(Ordering::Acquire) {
            return Err(CuError::STREAM_CAPTURE_INVALIDATED);
        }
        if blocking {
            member.capture.invalidate();
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("synchronous operation on a capturing stream")));
        }
        Ok(true)
    }

    /// Synchronizing or querying a stream: not allowed while it captures (or, for the
    /// legacy stream, while a blocking stream of its context does).
    pub(crate) fn capture_forbid_sync(&self, ctx: &Context, q: &Arc<Queue>) -> CuResult<()> {
        if q.kind == QueueKind::Legacy {
            self.implicit_conflict(ctx)?;
        }
        if let Some(member) = slot(q).as_ref() {
            member.capture.invalidate();
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("synchronizing or querying a capturing stream")));
        }
        Ok(())
    }

    /// A potentially unsafe call (`cuThreadExchangeStreamCaptureMode`): prohibited, with
    /// `CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`, when this thread's mode is global and any
    /// global capture runs, or this thread's mode is global or thread-local and a
    /// non-relaxed capture of this thread runs. The captures concerned are invalidated.
    pub(crate) fn capture_unsafe_call(&self, what: &str) -> CuResult<()> {
        let mode = THREAD_MODE.try_with(Cell::get).unwrap_or(MODE_GLOBAL);
        if mode == MODE_RELAXED {
            return Ok(());
        }
        let me = std::thread::current().id();
        let list = self.graphs.captures.list();
        let hit: Vec<&Arc<Capture>> =
            list.iter().filter(|c| (c.thread == me && c.mode != MODE_RELAXED) || (mode == MODE_GLOBAL && c.mode == MODE_GLOBAL)).collect();
        if hit.is_empty() {
            return Ok(());
        }
        hit.iter().for_each(|c| c.invalidate());
        Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("{what} is not permitted while a stream is capturing")))
    }

    /// `cuCtxSynchronize` waits for every stream, capturing ones too, which no capture mode
    /// permits (CUDA Programming Guide, "Prohibited and Unhandled Operations"; an H200
    /// answers `CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED` even in relaxed mode): every capture
    /// in progress is invalidated.
    pub(crate) fn capture_forbid_ctx_sync(&self) -> CuResult<()> {
        let list = self.graphs.captures.list();
        let active: Vec<&Arc<Capture>> = list.iter().filter(|c| c.is_active()).collect();
        if active.is_empty() {
            return Ok(());
        }
        active.iter().for_each(|c| c.invalidate());
        Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("cuCtxSynchronize is not permitted while a stream is capturing")))
    }

    /// Adds a node for work submitted to capturing stream `q`.
    pub(crate) fn capture_node(&self, q: &Queue, params: NodeParams) -> CuResult<()> {
        let ended = || fail(CuError::STREAM_CAPTURE_INVALIDATED, format_args!("the capture ended while work was submitted"));
        let recaptured = match slot(q).as_ref() {
            None => return Err(ended()),
            Some(m) if m.capture.recapture.is_some() => Some((m.capture.clone(), m.deps.clone())),
            Some(_) => None,
        };
        if let Some((capture, deps)) = recaptured {
            // Matched without the stream's slot held: the callback may query the stream.
            let r = capture.recapture.as_ref().expect("a recapture");
            let node = self.recapture_node(capture.graph, r, &deps, params).inspect_err(|_| capture.invalidate())?;
            let mut slot = slot(q);
            let member = slot.as_mut().ok_or_else(ended)?;
            member.deps.clear();
            member.deps.push(node);
            return Ok(());
        }
        let mut slot = slot(q);
        let Some(member) = slot.as_mut() else {
            return Err(ended());
        };
        let node = self.graph_add_node(member.capture.graph, &member.deps, params)?;
        member.deps.clear();
        member.deps.push(node);
        Ok(())
    }

    /// The capture `q` takes part in and its dependency set (an event record).
    pub(crate) fn capture_record(&self, q: &Queue) -> CuResult<Option<CapturedRecord>> {
        let slot = slot(q);
        let Some(member) = slot.as_ref() else {
            return Ok(None);
        };
        if member.capture.invalidated.load(Ordering::Acquire) {
            return Err(CuError::STREAM_CAPTURE_INVALIDATED);
        }
        Ok(Some(CapturedRecord { capture: member.capture.clone(), deps: member.deps.clone() }))
    }

    /// `cuStreamWaitEvent` on an event recorded in capture `r`: `q` joins the capture, or
    /// adds the event's nodes to its dependencies. A stream of another capture cannot
    /// (`CUDA_ERROR_STREAM_CAPTURE_MERGE`); the legacy stream cannot be captured.
    pub(crate) fn capture_join(&self, ctx: &Context, q: &Arc<Queue>, r: &CapturedRecord) -> CuResult<()> {
        if q.kind == QueueKind::Legacy {
            r.capture.invalidate();
            return Err(fail(CuError::STREAM_CAPTURE_IMPLICIT, format_args!("the legacy stream cannot join a capture")));
        }
        if ctx.handle != r.capture.ctx {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuStreamWaitEvent: the capture belongs to another context")));
        }
        let mut slot = slot(q);
        match slot.as_mut() {
            Some(m) if Arc::ptr_eq(&m.capture, &r.capture) => {
                for &d in &r.deps {
                    if !m.deps.contains(&d) {
                        m.deps.push(d);
                    }
                }
                Ok(())
            }
            Some(m) => {
                m.capture.invalidate();
                r.capture.invalidate();
                Err(fail(CuError::STREAM_CAPTURE_MERGE, format_args!("cuStreamWaitEvent would merge two captures")))
            }
            None => {
                r.capture.members().push(Arc::downgrade(q));
                *slot = Some(Member { capture: r.capture.clone(), deps: r.deps.clone() });
                Ok(())
            }
        }
    }

    /// Whether `q` is capturing, and into which capture.
    pub(crate) fn capture_of(&self, q: &Queue) -> Option<Arc<Capture>> {
        slot(q).as_ref().map(|m| m.capture.clone())
    }

    /// `cuStreamBeginCapture_v2`: `stream` starts capturing into a new graph. The legacy
    /// stream cannot capture (`CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED`); a stream already
    /// capturing answers `CUDA_ERROR_ILLEGAL_STATE`.
    pub fn stream_begin_capture(&self, stream: StreamHandle, mode: u32) -> CuResult<()> {
        self.begin_capture(stream, mode, None)
    }

    /// `cuStreamBeginCaptureToGraph`: as `cuStreamBeginCapture_v2`, but the captured nodes
    /// go into the existing graph `g`, the first one depending on `deps` (nodes of `g`).
    pub fn stream_begin_capture_to_graph(&self, stream: StreamHandle, g: GraphHandle, deps: &[GraphNodeHandle], mode: u32) -> CuResult<()> {
        let graph = self.graph(g)?;
        {
            let state = graph.lock();
            self.check_deps(g, &state, deps)?;
        }
        self.begin_capture(stream, mode, Some((g, deps.to_vec())))
    }

    fn begin_capture(&self, stream: StreamHandle, mode: u32, into: Option<(GraphHandle, Vec<GraphNodeHandle>)>) -> CuResult<()> {
        self.begin_capture_with(stream, mode, into, None)
    }

    pub(crate) fn begin_capture_with(
        &self,
        stream: StreamHandle,
        mode: u32,
        into: Option<(GraphHandle, Vec<GraphNodeHandle>)>,
        recapture: Option<Recapture>,
    ) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        if mode > MODE_RELAXED {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamBeginCapture: mode {mode}")));
        }
        if q.kind == QueueKind::Legacy {
            return Err(fail(CuError::STREAM_CAPTURE_UNSUPPORTED, format_args!("cuStreamBeginCapture: the legacy stream cannot be captured")));
        }
        let mut slot = slot(&q);
        if slot.is_some() {
            return Err(fail(CuError::ILLEGAL_STATE, format_args!("cuStreamBeginCapture: the stream is already capturing")));
        }
        let existing = into.is_some();
        let (graph, deps) = into.unwrap_or_else(|| (self.new_graph(GraphState::default()), Vec::new()));
        let capture = Arc::new(Capture {
            id: NEXT_CAPTURE_ID.fetch_add(1, Ordering::Relaxed),
            graph,
            existing,
            mode,
            thread: std::thread::current().id(),
            ctx: ctx.handle,
            origin: Arc::downgrade(&q),
            invalidated: AtomicBool::new(false),
            ended: AtomicBool::new(false),
            members: Mutex::new(vec![Arc::downgrade(&q)]),
            recapture,
        });
        self.graphs.captures.list().push(capture.clone());
        *slot = Some(Member { capture, deps });
        Ok(())
    }

    /// Whether `stream` captures into an existing graph (`cuStreamBeginCaptureToGraph`),
    /// whose `cuStreamEndCapture` needs no place to return a graph.
    pub fn stream_captures_to_existing_graph(&self, stream: StreamHandle) -> CuResult<bool> {
        let (_, q) = self.stream_queue(stream)?;
        let existing = slot(&q).as_ref().is_some_and(|m| m.capture.existing);
        Ok(existing)
    }

    /// Ends the captures nobody can end any more: those of a context being torn down, and
    /// those begun on `origin`, whose stream is being destroyed. Until a capture ends, the
    /// thread that began it is refused potentially unsafe calls (`cuMemAlloc` answers
    /// `STREAM_CAPTURE_UNSUPPORTED`); an orphaned one would refuse them forever. Their
    /// graphs (not the caller's, for `cuStreamBeginCaptureToGraph`) are destroyed.
    pub(crate) fn end_orphaned_captures(&self, ctx: Option<CtxHandle>, origin: Option<&Arc<Queue>>) {
        let orphaned: Vec<Arc<Capture>> = {
            let mut list = self.graphs.captures.list();
            let is_orphan = |c: &Arc<Capture>| ctx == Some(c.ctx) || origin.is_some_and(|q| c.origin.upgrade().is_some_and(|o| Arc::ptr_eq(&o, q)));
            let orphaned = list.iter().filter(|c| is_orphan(c)).cloned().collect();
            list.retain(|c| !is_orphan(c));
            orphaned
        };
        for capture in orphaned {
            capture.invalidate();
            capture.ended.store(true, Ordering::Release);
            let members: Vec<Arc<Queue>> = capture.members().drain(..).filter_map(|w| w.upgrade()).collect();
            for m in &members {
                slot(m).take();
            }
            if !capture.existing {
                let _ = self.graph_destroy(capture.graph);
            }
        }
    }

    /// `cuStreamEndCapture`: ends the capture begun on `stream` and returns its graph.
    /// Not capturing: `CUDA_ERROR_ILLEGAL_STATE`; a stream that joined but is not the
    /// origin: `CUDA_ERROR_STREAM_CAPTURE_UNMATCHED` (the capture is invalidated); another
    /// thread than the one that began a non-relaxed capture:
    /// `CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD`. An invalidated or unjoined capture ends
    /// too, without a graph.
    pub fn stream_end_capture(&self, stream: StreamHandle) -> CuResult<GraphHandle> {
        let (_, q) = self.stream_queue(stream)?;
        let (capture, origin_deps) = {
            let slot = slot(&q);
            let Some(member) = slot.as_ref() else {
                return Err(fail(CuError::ILLEGAL_STATE, format_args!("cuStreamEndCapture: the stream is not capturing")));
            };
            let c = member.capture.clone();
            if !c.origin.upgrade().is_some_and(|o| Arc::ptr_eq(&o, &q)) {
                c.invalidate();
                return Err(fail(CuError::STREAM_CAPTURE_UNMATCHED, format_args!("cuStreamEndCapture: the capture began on another stream")));
            }
            if c.mode != MODE_RELAXED && c.thread != std::thread::current().id() {
                return Err(fail(CuError::STREAM_CAPTURE_WRONG_THREAD, format_args!("cuStreamEndCapture: called from another thread")));
            }
            (c, member.deps.clone())
        };
        self.graphs.captures.list().retain(|c| !Arc::ptr_eq(c, &capture));
        capture.ended.store(true, Ordering::Release);
        let members: Vec<Arc<Queue>> = capture.members().drain(..).filter_map(|w| w.upgrade()).collect();
        let mut unjoined = Vec::new();
        for m in &members {
            let mut s = slot(m);
            if let Some(member) = s.take() {
                if !Arc::ptr_eq(m, &q) {
                    unjoined.extend(member.deps);
                }
            }
        }
        let graph = self.graph(capture.graph)?;
        let joined = {
            let state = graph.lock();
            unjoined.iter().all(|&n| origin_deps.iter().any(|&o| state.reaches(o, n)))
        };
        if capture.invalidated.load(Ordering::Acquire) {
            if !capture.existing {
                let _ = self.graph_destroy(capture.graph);
            }
            return Err(fail(CuError::STREAM_CAPTURE_INVALIDATED, format_args!("cuStreamEndCapture: the capture was invalidated")));
        }
        if capture.recapture.as_ref().is_some_and(|r| !r.complete()) {
            return Err(fail(
                CuError::STREAM_CAPTURE_INVALIDATED,
                format_args!("cuStreamEndCapture: the recapture matched fewer operations than the graph has nodes"),
            ));
        }
        if !joined {
            if !capture.existing {
                let _ = self.graph_destroy(capture.graph);
            }
            return Err(fail(CuError::STREAM_CAPTURE_UNJOINED, format_args!("cuStreamEndCapture: a forked stream was not joined back")));
        }
        Ok(capture.graph)
    }

    /// `cuStreamGetCaptureInfo` (all versions): the legacy stream while a blocking stream
    /// of its context captures answers `CUDA_ERROR_STREAM_CAPTURE_IMPLICIT`.
    pub fn stream_capture_info(&self, stream: StreamHandle) -> CuResult<CaptureInfo> {
        let (ctx, q) = self.stream_queue(stream)?;
        if q.kind == QueueKind::Legacy {
            let conflict = self.graphs.captures.list().iter().any(|c| c.ctx == ctx.handle && c.has_blocking_member());
            if conflict {
                return Err(fail(
                    CuError::STREAM_CAPTURE_IMPLICIT,
                    format_args!("capture query of the legacy stream while a blocking stream captures"),
                ));
            }
        }
        let slot = slot(&q);
        Ok(match slot.as_ref() {
            None => CaptureInfo { status: CaptureStatus::None, id: 0, graph: None, deps: Vec::new() },
            Some(m) => {
                let invalid = m.capture.invalidated.load(Ordering::Acquire);
                CaptureInfo {
                    status: if invalid { CaptureStatus::Invalidated } else { CaptureStatus::Active },
                    id: m.capture.id,
                    graph: Some(m.capture.graph),
                    deps: m.deps.clone(),
                }
            }
        })
    }

    /// `cuStreamUpdateCaptureDependencies`: adds `nodes` to (`ADD`) or replaces (`SET`)
    /// the stream's dependency set; the nodes must belong to the capture's graph. Not
    /// capturing: `CUDA_ERROR_ILLEGAL_STATE`.
    pub fn stream_update_capture_dependencies(&self, stream: StreamHandle, nodes: &[GraphNodeHandle], flags: u32) -> CuResult<()> {
        let (_, q) = self.stream_queue(stream)?;
        if flags > SET_CAPTURE_DEPENDENCIES {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamUpdateCaptureDependencies: flags {flags:#x}")));
        }
        let mut slot = slot(&q);
        let Some(member) = slot.as_mut() else {
            return Err(fail(CuError::ILLEGAL_STATE, format_args!("cuStreamUpdateCaptureDependencies: the stream is not capturing")));
        };
        if member.capture.invalidated.load(Ordering::Acquire) {
            return Err(CuError::STREAM_CAPTURE_INVALIDATED);
        }
        let graph = self.graph(member.capture.graph)?;
        if nodes.iter().any(|&n| graph.lock().node(n).is_none()) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuStreamUpdateCaptureDependencies: a node is not in the capture's graph")));
        }
        if flags == SET_CAPTURE_DEPENDENCIES {
            member.deps.clear();
        }
        for &n in nodes {
            if !member.deps.contains(&n) {
                member.deps.push(n);
            }
        }
        Ok(())
    }

    /// `cuThreadExchangeStreamCaptureMode`: sets this thread's mode, returns the old one.
    pub fn thread_exchange_capture_mode(&self, mode: u32) -> CuResult<u32> {
        if mode > MODE_RELAXED {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuThreadExchangeStreamCaptureMode: mode {mode}")));
        }
        THREAD_MODE.try_with(|m| m.replace(mode)).map_err(|_| CuError::UNKNOWN)
    }
}
