//! CUDA graphs (driver API "Graph Management"): graphs of nodes and dependencies,
//! executable graphs, and stream capture ([`capture`]).
//!
//! - A [`Graph`] owns its nodes in creation order; each node lists the nodes it depends
//!   on (its incoming edges, in the order they were added). Node handles live in a table
//!   of their own that says which graph holds each node, so calls that take only a node
//!   (`cuGraphNodeGetType`, `...GetParams`) find it.
//! - Node parameters are descriptions ([`node`]); `cuGraphInstantiate` snapshots them
//!   into a [`exec::GraphExec`], so later changes to the graph do not touch the
//!   executable graph (API reference, `cuGraphInstantiate`).
//! - A child graph node owns a clone of the graph it was given (`cuGraphAddChildGraphNode`
//!   clones); `cuGraphChildGraphNodeGetGraph` returns that clone.
//!
//! Invariants: dependencies only name nodes of the same graph; an edge appears once;
//! nothing here holds a graph's lock while it takes another graph's, except a child graph
//! read under its parent's (children are never shared, so this cannot cycle).

pub mod attrs;
pub mod capture;
pub mod conditional;
pub mod exec;
pub mod memory;
pub mod node;
pub mod recapture;
pub mod user_object;

use std::fmt::Write as _;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::diag::fail;
use crate::handle::HandleTable;
use crate::{CuError, CuResult, Driver, GraphExecHandle, GraphHandle, GraphNodeHandle};

pub use exec::{UpdateResult, INSTANTIATE_FLAGS};
pub use node::{HostParams, KernelNodeDesc, KernelParams, MemcpyParams, MemsetParams, NodeParams, NodeType, SemNodeParams};

/// One node: what it does and what it waits for.
#[derive(Clone)]
pub(crate) struct Node {
    pub(crate) handle: GraphNodeHandle,
    /// `cuGraphNodeGetLocalId`: unique in its graph, in creation order.
    pub(crate) local_id: u32,
    pub(crate) deps: Vec<GraphNodeHandle>,
    pub(crate) params: NodeParams,
}

/// The nodes of a graph, in creation order.
#[derive(Default)]
pub(crate) struct GraphState {
    pub(crate) nodes: Vec<Node>,
    /// For a graph made by `cuGraphClone`: (original node, its clone).
    clone_map: Vec<(GraphNodeHandle, GraphNodeHandle)>,
    /// The user object references the graph owns.
    pub(crate) user_objects: user_object::Refs,
    /// The local id of the next node.
    next_local_id: u32,
}

impl GraphState {
    pub(crate) fn node(&self, n: GraphNodeHandle) -> Option<&Node> {
        self.nodes.iter().find(|x| x.handle == n)
    }

    fn node_mut(&mut self, n: GraphNodeHandle) -> Option<&mut Node> {
        self.nodes.iter_mut().find(|x| x.handle == n)
    }

    /// Node indices in a topological order (ties broken by creation order), or `None`
    /// when the edges form a cycle.
    pub(crate) fn topological_order(&self) -> Option<Vec<usize>> {
        let index = |h: GraphNodeHandle| self.nodes.iter().position(|n| n.handle == h);
        let mut pending: Vec<usize> = self.nodes.iter().map(|n| n.deps.len()).collect();
        let mut order = Vec::with_capacity(self.nodes.len());
        let mut done = vec![false; self.nodes.len()];
        while order.len() < self.nodes.len() {
            let next = (0..self.nodes.len()).find(|&i| !done[i] && pending[i] == 0)?;
            done[next] = true;
            order.push(next);
            let h = self.nodes[next].handle;
            for (i, n) in self.nodes.iter().enumerate() {
                pending[i] -= n.deps.iter().filter(|&&d| d == h).count();
            }
        }
        debug_assert!(self.nodes.iter().all(|n| n.deps.iter().all(|&d| index(d).is_some())));
        Some(order)
    }

    /// Whether `ancestor` is `n` or one of its (transitive) dependencies.
    pub(crate) fn reaches(&self, n: GraphNodeHandle, ancestor: GraphNodeHandle) -> bool {
        let mut stack = vec![n];
        let mut seen = Vec::new();
        while let Some(x) = stack.pop() {
            if x == ancestor {
                return true;
            }
            if seen.contains(&x) {
                continue;
            }
            seen.push(x);
            if let Some(node) = self.node(x) {
                stack.extend(node.deps.iter().copied());
            }
        }
        false
    }
}

/// A `CUgraph`.
pub struct Graph {
    /// `cuGraphGetId`.
    pub id: u32,
    state: Mutex<GraphState>,
}

impl Graph {
    pub(crate) fn lock(&self) -> MutexGuard<'_, GraphState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// Which graph holds a node.
pub(crate) struct NodeOwner {
    graph: GraphHandle,
}

/// Every graph object of a driver.
#[derive(Default)]
pub(crate) struct State {
    graphs: HandleTable<Graph, GraphHandle>,
    nodes: HandleTable<NodeOwner, GraphNodeHandle>,
    pub(crate) execs: HandleTable<exec::GraphExec, GraphExecHandle>,
    pub(crate) captures: capture::Registry,
    pub(crate) memory: memory::Registry,
    pub(crate) conditionals: conditional::Registry,
    pub(crate) user_objects: HandleTable<user_object::UserObject, crate::UserObjectHandle>,
}

static NEXT_GRAPH_ID: AtomicU32 = AtomicU32::new(1);

impl Driver {
    pub(crate) fn graph(&self, g: GraphHandle) -> CuResult<Arc<Graph>> {
        self.graphs.graphs.get(g).map_err(|why| fail(CuError::INVALID_VALUE, format_args!("graph handle {:#x}: {why:?}", g.0)))
    }

    /// The graph holding node `n`.
    fn node_graph(&self, n: GraphNodeHandle) -> CuResult<(GraphHandle, Arc<Graph>)> {
        let owner = self.graphs.nodes.get(n).map_err(|why| fail(CuError::INVALID_VALUE, format_args!("graph node {:#x}: {why:?}", n.0)))?;
        Ok((owner.graph, self.graph(owner.graph)?))
    }

    /// `cuGraphCreate`: `flags` must be 0.
    pub fn graph_create(&self, flags: u32) -> CuResult<GraphHandle> {
        if flags != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphCreate: flags {flags:#x}")));
        }
        Ok(self.new_graph(GraphState::default()))
    }

    fn new_graph(&self, state: GraphState) -> GraphHandle {
        let id = NEXT_GRAPH_ID.fetch_add(1, Ordering::Relaxed);
        self.graphs.graphs.insert(Arc::new(Graph { id, state: Mutex::new(state) }))
    }

    /// `cuGraphDestroy`: the graph, its nodes and the graphs of its child nodes.
    pub fn graph_destroy(&self, g: GraphHandle) -> CuResult<()> {
        let graph = self.graphs.graphs.remove(g).map_err(|why| fail(CuError::INVALID_VALUE, format_args!("cuGraphDestroy({:#x}): {why:?}", g.0)))?;
        let (nodes, refs) = {
            let mut state = graph.lock();
            (std::mem::take(&mut state.nodes), std::mem::take(&mut state.user_objects))
        };
        for n in nodes {
            self.forget_node(&n);
        }
        self.graphs.conditionals.forget_graph(g);
        self.release_refs(refs);
        Ok(())
    }

    fn forget_node(&self, n: &Node) {
        let _ = self.graphs.nodes.remove(n.handle);
        self.drop_owned(&n.params);
    }

    /// Destroys the graphs a node's parameters own (a child graph, conditional bodies).
    fn drop_owned(&self, params: &NodeParams) {
        match params {
            NodeParams::Graph(child) => {
                let _ = self.graph_destroy(*child);
            }
            NodeParams::Conditional(c) => {
                for &b in c.bodies.iter() {
                    let _ = self.graph_destroy(b);
                }
            }
            _ => {}
        }
    }

    /// A copy of `params` owning copies of the graphs they own.
    fn clone_owned(&self, params: NodeParams) -> CuResult<NodeParams> {
        Ok(match params {
            NodeParams::Graph(child) => NodeParams::Graph(self.graph_clone(child)?),
            NodeParams::Conditional(mut c) => {
                let mut bodies = Vec::with_capacity(c.bodies.len());
                for &b in c.bodies.iter() {
                    match self.graph_clone(b) {
                        Ok(copy) => bodies.push(copy),
                        Err(e) => {
                            for b in bodies {
                                let _ = self.graph_destroy(b);
                            }
                            return Err(e);
                        }
                    }
                }
                c.bodies = bodies.into();
                NodeParams::Conditional(c)
            }
            p => p,
        })
    }

    /// Checks a dependency list for `cuGraphAdd*Node`: nodes of `g`, no duplicates.
    pub(crate) fn check_deps(&self, g: GraphHandle, state: &GraphState, deps: &[GraphNodeHandle]) -> CuResult<()> {
        for (i, &d) in deps.iter().enumerate() {
            if state.node(d).is_none() {
                return Err(fail(CuError::INVALID_VALUE, format_args!("dependency {:#x} is not a node of graph {:#x}", d.0, g.0)));
            }
            if deps[..i].contains(&d) {
                return Err(fail(CuError::INVALID_VALUE, format_args!("dependency {:#x} listed twice", d.0)));
            }
        }
        Ok(())
    }

    /// `cuGraphAdd*Node` / `cuGraphAddNode`: adds a node depending on `deps`. A child graph
    /// is cloned into the node.
    pub fn graph_add_node(&self, g: GraphHandle, deps: &[GraphNodeHandle], params: NodeParams) -> CuResult<GraphNodeHandle> {
        let graph = self.graph(g)?;
        let params = match params {
            NodeParams::Graph(child) => NodeParams::Graph(self.graph_clone(child)?),
            NodeParams::EventRecord(e) | NodeParams::WaitEvent(e) if self.event(e).is_err() => {
                return Err(fail(CuError::INVALID_VALUE, format_args!("event node: event {:#x} is not valid", e.0)))
            }
            p => p,
        };
        let mut state = graph.lock();
        if let Err(e) = self.check_deps(g, &state, deps) {
            drop(state);
            self.drop_owned(&params);
            return Err(e);
        }
        let handle = self.graphs.nodes.insert(Arc::new(NodeOwner { graph: g }));
        let local_id = state.next_local_id;
        state.next_local_id += 1;
        state.nodes.push(Node { handle, local_id, deps: deps.to_vec(), params });
        Ok(handle)
    }

    /// `cuGraphGetNodes`: every node, in creation order.
    pub fn graph_nodes(&self, g: GraphHandle) -> CuResult<Vec<GraphNodeHandle>> {
        Ok(self.graph(g)?.lock().nodes.iter().map(|n| n.handle).collect())
    }

    /// `cuGraphGetRootNodes`: nodes without dependencies.
    pub fn graph_root_nodes(&self, g: GraphHandle) -> CuResult<Vec<GraphNodeHandle>> {
        Ok(self.graph(g)?.lock().nodes.iter().filter(|n| n.deps.is_empty()).map(|n| n.handle).collect())
    }

    /// `cuGraphGetEdges`: (from, to) pairs, by destination node in creation order.
    pub fn graph_edges(&self, g: GraphHandle) -> CuResult<Vec<(GraphNodeHandle, GraphNodeHandle)>> {
        Ok(self.graph(g)?.lock().nodes.iter().flat_map(|n| n.deps.iter().map(move |&d| (d, n.handle))).collect())
    }

    /// `cuGraphNodeGetType`.
    pub fn graph_node_type(&self, n: GraphNodeHandle) -> CuResult<NodeType> {
        self.with_node(n, |node| node.params.node_type())
    }

    fn with_node<R>(&self, n: GraphNodeHandle, f: impl FnOnce(&Node) -> R) -> CuResult<R> {
        let (_, graph) = self.node_graph(n)?;
        let state = graph.lock();
        let node = state.node(n).ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("graph node {:#x} was destroyed", n.0)))?;
        Ok(f(node))
    }

    pub(crate) fn with_node_mut<R>(&self, n: GraphNodeHandle, f: impl FnOnce(&mut Node) -> R) -> CuResult<R> {
        let (_, graph) = self.node_graph(n)?;
        let mut state = graph.lock();
        let node = state.node_mut(n).ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("graph node {:#x} was destroyed", n.0)))?;
        Ok(f(node))
    }

    /// `cuGraphNodeGetDependencies`.
    pub fn graph_node_dependencies(&self, n: GraphNodeHandle) -> CuResult<Vec<GraphNodeHandle>> {
        self.with_node(n, |node| node.deps.clone())
    }

    /// `cuGraphNodeGetDependentNodes`: the nodes that depend on `n`, in creation order.
    pub fn graph_node_dependents(&self, n: GraphNodeHandle) -> CuResult<Vec<GraphNodeHandle>> {
        let (_, graph) = self.node_graph(n)?;
        let state = graph.lock();
        Ok(state.nodes.iter().filter(|x| x.deps.contains(&n)).map(|x| x.handle).collect())
    }

    /// `cuGraphNodeGetContainingGraph`.
    pub fn graph_node_graph(&self, n: GraphNodeHandle) -> CuResult<GraphHandle> {
        Ok(self.node_graph(n)?.0)
    }

    /// `cuGraphAddDependencies`: each `from[i] -> to[i]` must join two distinct nodes of
    /// `g` and must not exist yet (the API reference: "Specifying an existing dependency
    /// will return an error"). All or nothing.
    pub fn graph_add_dependencies(&self, g: GraphHandle, from: &[GraphNodeHandle], to: &[GraphNodeHandle]) -> CuResult<()> {
        let graph = self.graph(g)?;
        let mut state = graph.lock();
        for (i, (&f, &t)) in from.iter().zip(to).enumerate() {
            let exists = state.node(t).is_some_and(|n| n.deps.contains(&f));
            let repeated = from[..i].iter().zip(&to[..i]).any(|(&a, &b)| a == f && b == t);
            if state.node(f).is_none() || state.node(t).is_none() || f == t || exists || repeated {
                return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphAddDependencies: edge {:#x} -> {:#x}", f.0, t.0)));
            }
        }
        for (&f, &t) in from.iter().zip(to) {
            state.node_mut(t).expect("checked above").deps.push(f);
        }
        Ok(())
    }

    /// `cuGraphRemoveDependencies`: each edge must exist. All or nothing.
    pub fn graph_remove_dependencies(&self, g: GraphHandle, from: &[GraphNodeHandle], to: &[GraphNodeHandle]) -> CuResult<()> {
        let graph = self.graph(g)?;
        let mut state = graph.lock();
        for (&f, &t) in from.iter().zip(to) {
            if !state.node(t).is_some_and(|n| n.deps.contains(&f)) {
                return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphRemoveDependencies: no edge {:#x} -> {:#x}", f.0, t.0)));
            }
        }
        for (&f, &t) in from.iter().zip(to) {
            state.node_mut(t).expect("checked above").deps.retain(|&d| d != f);
        }
        Ok(())
    }

    /// `cuGraphDestroyNode`: the node and every edge to or from it.
    pub fn graph_destroy_node(&self, n: GraphNodeHandle) -> CuResult<()> {
        let (_, graph) = self.node_graph(n)?;
        let removed = {
            let mut state = graph.lock();
            let Some(pos) = state.nodes.iter().position(|x| x.handle == n) else {
                return Err(fail(CuError::INVALID_VALUE, format_args!("cuGraphDestroyNode: {:#x} was destroyed", n.0)));
            };
            let node = state.nodes.remove(pos);
            for other in state.nodes.iter_mut() {
                other.deps.retain(|&d| d != n);
            }
            node
        };
        self.forget_node(&removed);
        Ok(())
    }

    /// `cuGraphClone`: a copy with new node handles (child graphs cloned too); the clone
    /// remembers which of its nodes copies which original (`cuGraphNodeFindInClone`).
    pub fn graph_clone(&self, g: GraphHandle) -> CuResult<GraphHandle> {
        let graph = self.graph(g)?;
        let (nodes, refs) = {
            let state = graph.lock();
            (state.nodes.clone(), state.user_objects.clone())
        };
        if nodes.iter().any(|n| matches!(n.params, NodeParams::MemAlloc(_) | NodeParams::MemFree(_))) {
            // CUDA: graphs with memory nodes are neither cloned nor used as child graphs.
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("graph {:#x} has memory nodes: it cannot be cloned or be a child graph", g.0)));
        }
        let mut map = Vec::with_capacity(nodes.len());
        let clone = self.new_graph(GraphState::default());
        let mut cloned = Vec::with_capacity(nodes.len());
        for n in nodes {
            let params = self.clone_owned(n.params)?;
            let handle = self.graphs.nodes.insert(Arc::new(NodeOwner { graph: clone }));
            map.push((n.handle, handle));
            cloned.push(Node { handle, local_id: n.local_id, deps: n.deps, params });
        }
        for node in cloned.iter_mut() {
            for d in node.deps.iter_mut() {
                *d = map.iter().find(|(o, _)| o == d).map(|&(_, c)| c).expect("dependencies are nodes of the graph");
            }
        }
        let target = self.graph(clone)?;
        let mut state = target.lock();
        state.next_local_id = cloned.iter().map(|n| n.local_id + 1).max().unwrap_or(0);
        state.nodes = cloned;
        state.clone_map = map;
        self.retain_refs(&refs);
        state.user_objects = refs;
        Ok(clone)
    }

    /// `cuGraphNodeFindInClone`: the node of `clone` copied from `original`.
    pub fn graph_node_find_in_clone(&self, original: GraphNodeHandle, clone: GraphHandle) -> CuResult<GraphNodeHandle> {
        let graph = self.graph(clone)?;
        let state = graph.lock();
        state
            .clone_map
            .iter()
            .find(|(o, _)| *o == original)
            .map(|&(_, c)| c)
            .filter(|&c| state.node(c).is_some())
            .ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuGraphNodeFindInClone: {:#x} has no clone in {:#x}", original.0, clone.0)))
    }

    /// `cuGraph*NodeGetParams`: the node's parameters (a child graph node: its graph).
    pub fn graph_node_params(&self, n: GraphNodeHandle) -> CuResult<NodeParams> {
        self.with_node(n, |node| node.params.clone())
    }

    /// `cuGraph*NodeSetParams`: new parameters of the same type (`INVALID_VALUE` for a node
    /// of another type). A child graph node's graph is replaced by a clone of `params`' graph.
    pub fn graph_node_set_params(&self, n: GraphNodeHandle, params: NodeParams) -> CuResult<()> {
        let (_, graph) = self.node_graph(n)?;
        let params = match params {
            NodeParams::Graph(child) => NodeParams::Graph(self.graph_clone(child)?),
            p => p,
        };
        let old = {
            let mut state = graph.lock();
            match state.node_mut(n) {
                Some(node) if node.params.node_type() == params.node_type() => std::mem::replace(&mut node.params, params),
                _ => {
                    drop(state);
                    self.drop_owned(&params);
                    return Err(fail(CuError::INVALID_VALUE, format_args!("graph node {:#x}: parameters of another node type", n.0)));
                }
            }
        };
        self.drop_owned(&old);
        Ok(())
    }

    /// `cuGraphGetId`.
    pub fn graph_get_id(&self, g: GraphHandle) -> CuResult<u32> {
        Ok(self.graph(g)?.id)
    }

    /// `cuGraphNodeGetLocalId` and `cuGraphNodeGetToolsId`: the node's id in its graph
    /// (what `cuGraphDebugDotPrint` names it by) and a process-wide one, the graph's id in
    /// the high 32 bits.
    pub fn graph_node_ids(&self, n: GraphNodeHandle) -> CuResult<(u32, u64)> {
        let (_, graph) = self.node_graph(n)?;
        let local = graph.lock().node(n).map(|x| x.local_id);
        let local = local.ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("graph node {:#x} was destroyed", n.0)))?;
        Ok((local, (graph.id as u64) << 32 | local as u64))
    }

    /// `cuGraphDebugDotPrint`: the graph in Graphviz's DOT language, nodes named by their
    /// graph's and their local ids.
    pub fn graph_debug_dot(&self, g: GraphHandle) -> CuResult<String> {
        let graph = self.graph(g)?;
        let state = graph.lock();
        let gid = graph.id;
        let mut out = format!("digraph graph_{gid} {{\n");
        let name = |h: GraphNodeHandle| state.node(h).map_or(0, |x| x.local_id);
        for n in &state.nodes {
            let _ = writeln!(out, "  graph_{gid}_node_{} [label=\"{:?}\"];", n.local_id, n.params.node_type());
            for &d in &n.deps {
                let _ = writeln!(out, "  graph_{gid}_node_{} -> graph_{gid}_node_{};", name(d), n.local_id);
            }
        }
        out.push_str("}\n");
        Ok(out)
    }
}

#[cfg(test)]
#[path = "tests/graphs.rs"]
mod tests;
