//! Executable graphs: `cuGraphInstantiate*`, `cuGraphLaunch`, `cuGraphExecUpdate`,
//! `cuGraphExec*SetParams`, `cuGraphUpload`, `cuGraphExecDestroy`.
//!
//! Instantiation snapshots the graph: its nodes in creation order, their dependencies as
//! indices, and a topological order (a cycle fails the instantiation). A launch checks
//! every node again (memory freed since, destroyed events) and then submits the nodes to
//! the stream in that topological order, so each node runs after everything it depends on
//! and the whole launch runs in stream order on the given stream (API reference,
//! `cuGraphLaunch`: "Each launch is ordered behind both any previous work in hStream and
//! any previous launches of hGraphExec"; the latter is an explicit dependency on the
//! previous launch's end). Nodes without a path between them could run concurrently;
//! running them one after another on the stream is one of the allowed executions.
//!
//! Kernel nodes next to each other in that order (with only nodes that do no work
//! between them) are resolved once, into launches with their own copy of the argument
//! block, and go to the stream as one operation ([`PlanStep::Kernels`]): replaying a
//! chain of kernels costs one queue entry and one hand-off to the stream's worker, not
//! one per kernel. A change to the executable graph's nodes (`SetParams`, update,
//! enabling) drops these steps and the next launch resolves them again; launches already
//! submitted keep the launches they were given.

use std::ffi::c_void;
use std::sync::{Arc, Mutex, MutexGuard};

use backend_api::LaunchConfig;

use super::conditional::{self, Cell, CondKind, Step};
use super::{KernelParams, NodeParams, NodeType};
use crate::diag::fail;
use crate::event::Event;
use crate::exec::{Launch, Marker, Work};
use crate::params::ParamBuffer;
use crate::{CuError, CuResult, Driver, GraphExecHandle, GraphHandle, GraphNodeHandle, StreamHandle};

/// `CUDA_GRAPH_INSTANTIATE_FLAG_AUTO_FREE_ON_LAUNCH` | `_UPLOAD` | `_DEVICE_LAUNCH` |
/// `_USE_NODE_PRIORITY`: the flags `cuGraphInstantiateWithFlags` knows.
pub const INSTANTIATE_FLAGS: u64 = 1 | 2 | 4 | 8;
/// `CUDA_GRAPH_INSTANTIATE_FLAG_DEVICE_LAUNCH`: graphs launched from device code.
const FLAG_DEVICE_LAUNCH: u64 = 4;

/// `CUgraphExecUpdateResult`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum UpdateResult {
    Success = 0,
    Error = 1,
    TopologyChanged = 2,
    NodeTypeChanged = 3,
}

/// One node of an executable graph.
struct ExecNode {
    /// The node of the instantiated graph (what `cuGraphExec*SetParams` names).
    orig: GraphNodeHandle,
    work: ExecWork,
    deps: Vec<usize>,
    /// `cuGraphNodeSetEnabled`: a disabled node does nothing, as an empty node.
    enabled: bool,
}

enum ExecWork {
    Leaf(NodeParams),
    /// A child graph, instantiated with its parent.
    Child(Plan),
    /// A conditional node: its handle's cell and its bodies, instantiated with it.
    Conditional {
        cell: Arc<Cell>,
        kind: CondKind,
        bodies: Vec<Plan>,
    },
}

/// An instantiated graph: its nodes in creation order and a topological order of them.
struct Plan {
    nodes: Vec<ExecNode>,
    order: Vec<usize>,
    /// What a launch submits, in `order`: built at instantiation, dropped by a change to
    /// the nodes until the next launch builds it again ([`Plan::ensure_steps`]); never
    /// for the bodies of conditional nodes, which run as [`Step`]s.
    steps: Option<Vec<PlanStep>>,
}

/// A part of a launch of a plan.
enum PlanStep {
    /// Enabled kernel nodes next to each other in the order (nodes that do no work
    /// between them skipped), resolved: one stream operation. `nodes` are their indices,
    /// whose functions each launch checks again.
    Kernels { nodes: Vec<usize>, launches: Arc<[Launch]> },
    /// Any other enabled node, prepared at each launch.
    Node(usize),
}

impl Plan {
    /// Builds the steps of this plan and of its child graphs where a change dropped them.
    fn ensure_steps(&mut self) {
        if self.steps.is_none() {
            self.steps = Some(self.build_steps());
        }
        for n in &mut self.nodes {
            if let ExecWork::Child(child) = &mut n.work {
                child.ensure_steps();
            }
        }
    }

    fn build_steps(&self) -> Vec<PlanStep> {
        let mut steps = Vec::new();
        let mut run = Vec::new();
        let flush = |run: &mut Vec<usize>, steps: &mut Vec<PlanStep>| {
            if !run.is_empty() {
                let launches = run.iter().filter_map(|&i| self.kernel(i)).map(kernel_launch).collect();
                steps.push(PlanStep::Kernels { nodes: std::mem::take(run), launches });
            }
        };
        for &i in self.order.iter().filter(|&&i| self.nodes[i].enabled) {
            match &self.nodes[i].work {
                ExecWork::Leaf(NodeParams::Kernel(_)) => run.push(i),
                ExecWork::Leaf(NodeParams::Empty | NodeParams::MemAlloc(_) | NodeParams::MemFree(_)) => {}
                _ => {
                    flush(&mut run, &mut steps);
                    steps.push(PlanStep::Node(i));
                }
            }
        }
        flush(&mut run, &mut steps);
        steps
    }

    /// Node `i`'s kernel parameters, if it is a kernel node.
    fn kernel(&self, i: usize) -> Option<&KernelParams> {
        match &self.nodes[i].work {
            ExecWork::Leaf(NodeParams::Kernel(k)) => Some(k),
            _ => None,
        }
    }

    /// The conditional handles the plan's conditional nodes use, each once.
    fn cells(&self, out: &mut Vec<Arc<Cell>>) {
        for n in &self.nodes {
            match &n.work {
                ExecWork::Leaf(_) => {}
                ExecWork::Child(p) => p.cells(out),
                ExecWork::Conditional { cell, bodies, .. } => {
                    if !out.iter().any(|c| Arc::ptr_eq(c, cell)) {
                        out.push(cell.clone());
                    }
                    bodies.iter().for_each(|b| b.cells(out));
                }
            }
        }
    }
}

/// A kernel node's launch, with a copy of its argument block of its own.
fn kernel_launch(k: &KernelParams) -> Launch {
    let config = LaunchConfig { grid: k.grid, block: k.block, dynamic_shared_bytes: k.shared_bytes };
    Launch { function: k.resolved.clone(), config, cooperative: k.cooperative(), params: ParamBuffer::copy_of(k.arg_bytes()) }
}

/// A `CUgraphExec`.
pub struct GraphExec {
    pub flags: u64,
    /// `cuGraphExecGetId`.
    pub id: u32,
    plan: Mutex<Plan>,
    /// The end of the last launch, which the next one waits for.
    last: Mutex<Option<Marker>>,
    /// The user object references taken from the graph at instantiation.
    refs: Mutex<super::user_object::HeldRefs>,
}

impl GraphExec {
    fn plan(&self) -> MutexGuard<'_, Plan> {
        self.plan.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// What one node turns into at launch.
enum Prepared {
    Work(Work),
    Record(Arc<Event>),
    Wait(Arc<Event>),
}

/// Why an instantiation failed: the code, and the node at fault if there is one.
pub type InstantiateError = (CuError, Option<GraphNodeHandle>);

impl Driver {
    fn exec(&self, e: GraphExecHandle) -> CuResult<Arc<GraphExec>> {
        self.graphs.execs.get(e).map_err(|why| fail(CuError::INVALID_VALUE, format_args!("graph exec {:#x}: {why:?}", e.0)))
    }

    /// Snapshots graph `g` into a plan. In the body of a conditional node (`body`), only
    /// kernel, empty, memcpy, memset, child graph and conditional nodes may appear, down
    /// to any depth (`CUDA_CONDITIONAL_NODE_PARAMS::phGraph_out`).
    fn plan_of(&self, g: GraphHandle, body: bool) -> Result<Plan, InstantiateError> {
        let graph = self.graph(g).map_err(|e| (e, None))?;
        let (nodes, order) = {
            let state = graph.lock();
            let Some(order) = state.topological_order() else {
                let at = state.nodes.first().map(|n| n.handle);
                return Err((fail(CuError::INVALID_VALUE, format_args!("cuGraphInstantiate: the graph has a cycle")), at));
            };
            (state.nodes.clone(), order)
        };
        let index = |h: GraphNodeHandle| nodes.iter().position(|n| n.handle == h).expect("dependencies are nodes of the graph");
        let mut out = Vec::with_capacity(nodes.len());
        for n in &nodes {
            let allowed = matches!(
                n.params.node_type(),
                NodeType::Kernel | NodeType::Empty | NodeType::Memcpy | NodeType::Memset | NodeType::Graph | NodeType::Conditional
            );
            if body && !allowed {
                let why = format_args!("cuGraphInstantiate: a {:?} node in the body of a conditional node", n.params.node_type());
                return Err((fail(CuError::INVALID_VALUE, why), Some(n.handle)));
            }
            let work = match &n.params {
                NodeParams::Graph(child) => ExecWork::Child(self.plan_of(*child, body)?),
                NodeParams::Conditional(c) => {
                    let bodies = c.bodies.iter().map(|&b| self.plan_of(b, true)).collect::<Result<_, _>>()?;
                    ExecWork::Conditional { cell: c.cell.clone(), kind: c.kind, bodies }
                }
                p => ExecWork::Leaf(p.clone()),
            };
            out.push(ExecNode { orig: n.handle, work, deps: n.deps.iter().map(|&d| index(d)).collect(), enabled: true });
        }
        Ok(Plan { nodes: out, order, steps: None })
    }

    /// `cuGraphInstantiateWithFlags` (and the other instantiate calls).
    pub fn graph_instantiate(&self, g: GraphHandle, flags: u64) -> Result<GraphExecHandle, InstantiateError> {
        if flags & !INSTANTIATE_FLAGS != 0 {
            return Err((fail(CuError::INVALID_VALUE, format_args!("cuGraphInstantiate: flags {flags:#x}")), None));
        }
        if flags & FLAG_DEVICE_LAUNCH != 0 {
            return Err((fail(CuError::NOT_SUPPORTED, format_args!("cuGraphInstantiate: device-launchable graphs are not supported")), None));
        }
        self.current_context().map_err(|e| (e, None))?;
        let mut plan = self.plan_of(g, false)?;
        plan.ensure_steps();
        let id = super::NEXT_GRAPH_ID.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let refs = Mutex::new(self.hold_refs(g));
        Ok(self.graphs.execs.insert(Arc::new(GraphExec { flags, id, plan: Mutex::new(plan), last: Mutex::new(None), refs })))
    }

    /// `cuGraphExecDestroy`: launches already submitted still run; the user object
    /// references go once they have.
    pub fn graph_exec_destroy(&self, e: GraphExecHandle) -> CuResult<()> {
        let exec =
            self.graphs.execs.remove(e).map_err(|why| fail(CuError::INVALID_VALUE, format_args!("cuGraphExecDestroy({:#x}): {why:?}", e.0)))?;
        let refs = std::mem::take(&mut *exec.refs.lock().unwrap_or_else(|e| e.into_inner()));
        let last = exec.last.lock().unwrap_or_else(|e| e.into_inner()).clone();
        super::user_object::release_after(refs, last);
        Ok(())
    }

    /// `cuGraphExecGetFlags`.
    pub fn graph_exec_flags(&self, e: GraphExecHandle) -> CuResult<u64> {
        Ok(self.exec(e)?.flags)
    }

    /// `cuGraphExecGetId`.
    pub fn graph_exec_id(&self, e: GraphExecHandle) -> CuResult<u32> {
        Ok(self.exec(e)?.id)
    }

    /// Checks every node of `plan` and turns it into stream work, in topological order
    /// (the plan's steps are built).
    fn prepare(&self, plan: &Plan, out: &mut Vec<Prepared>) -> CuResult<()> {
        for step in plan.steps.as_deref().expect("the launch built the steps (Plan::ensure_steps)") {
            let i = match step {
                PlanStep::Kernels { nodes, launches } => {
                    for k in nodes.iter().filter_map(|&i| plan.kernel(i)) {
                        self.function(k.function)?;
                    }
                    out.push(Prepared::Work(Work::Launches(launches.clone())));
                    continue;
                }
                PlanStep::Node(i) => *i,
            };
            let params = match &plan.nodes[i].work {
                ExecWork::Child(child) => {
                    self.prepare(child, out)?;
                    continue;
                }
                ExecWork::Conditional { cell, kind, bodies } => {
                    let c = self.prepare_conditional(cell, *kind, bodies)?;
                    out.push(Prepared::Work(Work::Run(Box::new(move || c.run()))));
                    continue;
                }
                ExecWork::Leaf(p) => p,
            };
            match params {
                // Graph memory is in place from the node's creation (`graph::memory`).
                NodeParams::Empty | NodeParams::MemAlloc(_) | NodeParams::MemFree(_) => {}
                NodeParams::Kernel(_) => unreachable!("kernel nodes are in PlanStep::Kernels"),
                NodeParams::Memcpy(m) => {
                    self.context(m.ctx)?;
                    if let Some(run) = self.copy_work_3d(&m.copy)? {
                        out.push(Prepared::Work(Work::Run(run)));
                    }
                }
                NodeParams::Memset(m) => {
                    if let Some(run) = self.fill_work(m.dst, m.pitch, m.value, m.element_size as usize, m.width, m.height)? {
                        out.push(Prepared::Work(Work::Run(run)));
                    }
                }
                NodeParams::Host(h) => {
                    let (func, data) = (h.func, h.user_data);
                    out.push(Prepared::Work(Work::Host(Box::new(move |_status| {
                        // SAFETY: the program's host function with its data, as the node
                        // was created with (API contract of host nodes).
                        unsafe { func(data as *mut c_void) }
                    }))));
                }
                NodeParams::EventRecord(e) => out.push(Prepared::Record(self.event(*e)?)),
                NodeParams::ExtSemSignal(p) | NodeParams::ExtSemWait(p) => {
                    let work = self.sem_work(&p.sems, &p.ops, matches!(params, NodeParams::ExtSemSignal(_)))?;
                    out.push(Prepared::Work(Work::Run(Box::new(move || work.run()))));
                }
                NodeParams::WaitEvent(e) => out.push(Prepared::Wait(self.event(*e)?)),
                NodeParams::Graph(_) | NodeParams::Conditional(_) => unreachable!("planned as ExecWork::Child / Conditional"),
            }
        }
        Ok(())
    }

    /// A conditional node's bodies as steps that may run any number of times (checked
    /// like the other nodes of a launch).
    fn prepare_conditional(&self, cell: &Arc<Cell>, kind: CondKind, bodies: &[Plan]) -> CuResult<conditional::Prepared> {
        let mut out = Vec::with_capacity(bodies.len());
        for b in bodies {
            let mut steps = Vec::new();
            self.body_steps(b, &mut steps)?;
            out.push(steps);
        }
        Ok(conditional::Prepared { cell: cell.clone(), kind, bodies: out })
    }

    fn body_steps(&self, plan: &Plan, out: &mut Vec<Step>) -> CuResult<()> {
        for &i in plan.order.iter().filter(|&&i| plan.nodes[i].enabled) {
            match &plan.nodes[i].work {
                ExecWork::Child(child) => self.body_steps(child, out)?,
                ExecWork::Conditional { cell, kind, bodies } => {
                    out.push(Step::Conditional(Box::new(self.prepare_conditional(cell, *kind, bodies)?)));
                }
                ExecWork::Leaf(NodeParams::Kernel(k)) => {
                    self.function(k.function)?;
                    let config = LaunchConfig { grid: k.grid, block: k.block, dynamic_shared_bytes: k.shared_bytes };
                    out.push(Step::Launch { function: k.resolved.clone(), config, kernel: k.clone() });
                }
                ExecWork::Leaf(NodeParams::Memcpy(m)) => {
                    self.context(m.ctx)?;
                    if let Some(f) = self.copy_step_3d(&m.copy)? {
                        out.push(Step::Run(f));
                    }
                }
                ExecWork::Leaf(NodeParams::Memset(m)) => {
                    if let Some(f) = self.fill_step(m.dst, m.pitch, m.value, m.element_size as usize, m.width, m.height)? {
                        out.push(Step::Run(f));
                    }
                }
                ExecWork::Leaf(_) => {}
            }
        }
        Ok(())
    }

    /// `cuGraphLaunch`: submits the graph's nodes to `stream` (see the module docs). A
    /// launch into a capturing stream is not supported (it would be a child graph node).
    pub fn graph_launch(&self, e: GraphExecHandle, stream: StreamHandle) -> CuResult<()> {
        let exec = self.exec(e)?;
        let (ctx, q) = self.stream_queue(stream)?;
        if self.capture_gate(&ctx, &q, false)? {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuGraphLaunch into a capturing stream is not supported")));
        }
        let mut prepared = Vec::new();
        let mut cells = Vec::new();
        {
            let mut plan = exec.plan();
            plan.ensure_steps();
            plan.cells(&mut cells);
            if !cells.is_empty() {
                let assign = cells.clone();
                prepared.push(Prepared::Work(Work::Run(Box::new(move || conditional::assign_defaults(&assign)))));
            }
            self.prepare(&plan, &mut prepared)?;
        }
        let mut last = exec.last.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(m) = last.take().filter(|m| !m.is_complete()) {
            self.submit(&ctx, &q, Some(m), Work::Nop, false);
        }
        // Executable graphs sharing conditional handles (instantiated from one graph) share
        // their value cells: their launches run one after another.
        for m in cells.iter().filter_map(|c| c.last_launch()) {
            self.submit(&ctx, &q, Some(m), Work::Nop, false);
        }
        self.flush_output(&ctx);
        for p in prepared {
            match p {
                Prepared::Work(w) => {
                    self.submit(&ctx, &q, None, w, false);
                }
                Prepared::Record(event) => self.record_event_on(&event, &ctx, &q),
                Prepared::Wait(event) => self.wait_event_on(&ctx, &q, &event),
            }
        }
        *last = Some(q.tail_marker());
        for c in &cells {
            c.set_last_launch(q.tail_marker());
        }
        Ok(())
    }

    /// `cuGraphUpload`: nothing to upload on these devices; checks its arguments.
    pub fn graph_upload(&self, e: GraphExecHandle, stream: StreamHandle) -> CuResult<()> {
        self.exec(e)?;
        self.stream_queue(stream)?;
        Ok(())
    }

    /// `cuGraphExec*NodeSetParams`: new parameters for node `n` of the instantiated graph,
    /// which must keep its type; later launches use them.
    pub fn graph_exec_set_node_params(&self, e: GraphExecHandle, n: GraphNodeHandle, params: NodeParams) -> CuResult<()> {
        if let NodeParams::Graph(child) = params {
            return self.graph_exec_set_child(e, n, child);
        }
        if let NodeParams::EventRecord(ev) | NodeParams::WaitEvent(ev) = params {
            self.event(ev).map_err(|_| fail(CuError::INVALID_VALUE, format_args!("event node: event {:#x} is not valid", ev.0)))?;
        }
        let exec = self.exec(e)?;
        let mut plan = exec.plan();
        // External semaphore nodes keep their number of operations (API reference,
        // `cuGraphExecNodeSetParams`'s table of allowed changes).
        let same_count = |old: &NodeParams| match (old, &params) {
            (NodeParams::ExtSemSignal(a), NodeParams::ExtSemSignal(b)) | (NodeParams::ExtSemWait(a), NodeParams::ExtSemWait(b)) => {
                a.sems.len() == b.sems.len()
            }
            _ => true,
        };
        match plan.nodes.iter_mut().find(|x| x.orig == n) {
            Some(ExecNode { work: ExecWork::Leaf(old), .. }) if old.node_type() == params.node_type() && same_count(old) => {
                *old = params;
                plan.steps = None;
                Ok(())
            }
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("graph exec {:#x}: no node {:#x} of this type", e.0, n.0))),
        }
    }

    /// `cuGraphExecChildGraphNodeSetParams`: the child graph node `n` takes the node
    /// parameters of `child`, which must have the topology (and node creation order) of
    /// the node's graph; else `CUDA_ERROR_INVALID_VALUE` and nothing changes.
    pub fn graph_exec_set_child(&self, e: GraphExecHandle, n: GraphNodeHandle, child: GraphHandle) -> CuResult<()> {
        let exec = self.exec(e)?;
        let new = self.plan_of(child, false).map_err(|(err, _)| err)?;
        let mut plan = exec.plan();
        let Some(ExecNode { work: ExecWork::Child(old), .. }) = plan.nodes.iter_mut().find(|x| x.orig == n) else {
            return Err(fail(CuError::INVALID_VALUE, format_args!("graph exec {:#x}: no child graph node {:#x}", e.0, n.0)));
        };
        if mismatch(old, &new).is_some() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphExecChildGraphNodeSetParams: the graph's topology differs")));
        }
        adopt(old, new);
        Ok(())
    }

    /// `cuGraphNodeSetEnabled` / `cuGraphNodeGetEnabled`: kernel, memcpy and memset
    /// nodes of the instantiated graph (not of its child graphs) can be disabled.
    pub fn graph_node_set_enabled(&self, e: GraphExecHandle, n: GraphNodeHandle, enabled: Option<bool>) -> CuResult<bool> {
        let exec = self.exec(e)?;
        let mut plan = exec.plan();
        let node = plan.nodes.iter_mut().find(|x| x.orig == n);
        let Some(node) = node.filter(|x| matches!(&x.work, ExecWork::Leaf(NodeParams::Kernel(_) | NodeParams::Memcpy(_) | NodeParams::Memset(_))))
        else {
            return Err(fail(CuError::INVALID_VALUE, format_args!("graph exec {:#x}: no kernel, memcpy or memset node {:#x}", e.0, n.0)));
        };
        let was = node.enabled;
        if let Some(on) = enabled {
            node.enabled = on;
        }
        let now = node.enabled;
        if now != was {
            plan.steps = None;
        }
        Ok(now)
    }

    /// `cuGraphExecUpdate_v2`: takes graph `g`'s node parameters if it has the topology
    /// of the instantiated graph (nodes paired in creation order, same types, same
    /// dependencies); else nothing changes and the result says why, with the node of `g`
    /// at fault (`CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE`).
    pub fn graph_exec_update(&self, e: GraphExecHandle, g: GraphHandle) -> CuResult<(UpdateResult, Option<GraphNodeHandle>)> {
        let exec = self.exec(e)?;
        let new = match self.plan_of(g, false) {
            Ok(p) => p,
            Err((err, _)) => return Err(err),
        };
        let mut plan = exec.plan();
        if let Some((why, at)) = mismatch(&plan, &new) {
            return Ok((why, at));
        }
        adopt(&mut plan, new);
        Ok((UpdateResult::Success, None))
    }
}

/// Replaces `old` by `new` (of the same topology), keeping the node identities and
/// enabled states of `old`.
fn adopt(old: &mut Plan, new: Plan) {
    let kept: Vec<(GraphNodeHandle, bool)> = old.nodes.iter().map(|n| (n.orig, n.enabled)).collect();
    *old = new;
    for (n, (orig, enabled)) in old.nodes.iter_mut().zip(kept) {
        n.orig = orig;
        n.enabled = enabled;
    }
    // Built with every node enabled.
    old.steps = None;
}

/// How `new` differs from `old` in a way an update cannot take, if it does.
fn mismatch(old: &Plan, new: &Plan) -> Option<(UpdateResult, Option<GraphNodeHandle>)> {
    if old.nodes.len() != new.nodes.len() {
        return Some((UpdateResult::TopologyChanged, new.nodes.get(old.nodes.len().min(new.nodes.len())).map(|n| n.orig)));
    }
    let kind = |w: &ExecWork| match w {
        ExecWork::Leaf(p) => p.node_type(),
        ExecWork::Child(_) => NodeType::Graph,
        ExecWork::Conditional { .. } => NodeType::Conditional,
    };
    for (a, b) in old.nodes.iter().zip(&new.nodes) {
        if kind(&a.work) != kind(&b.work) {
            return Some((UpdateResult::NodeTypeChanged, Some(b.orig)));
        }
        let (mut da, mut db) = (a.deps.clone(), b.deps.clone());
        da.sort_unstable();
        db.sort_unstable();
        if da != db {
            return Some((UpdateResult::TopologyChanged, Some(b.orig)));
        }
        if let (ExecWork::Child(ca), ExecWork::Child(cb)) = (&a.work, &b.work) {
            if let Some((why, _)) = mismatch(ca, cb) {
                return Some((why, Some(b.orig)));
            }
        }
        if let (ExecWork::Conditional { kind: ka, bodies: ba, .. }, ExecWork::Conditional { kind: kb, bodies: bb, .. }) = (&a.work, &b.work) {
            if ka != kb || ba.len() != bb.len() {
                return Some((UpdateResult::Error, Some(b.orig)));
            }
            if let Some((why, _)) = ba.iter().zip(bb).find_map(|(x, y)| mismatch(x, y)) {
                return Some((why, Some(b.orig)));
            }
        }
    }
    None
}

#[cfg(test)]
#[path = "../tests/graph_runs.rs"]
mod tests;
