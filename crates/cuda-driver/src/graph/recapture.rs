//! `cuStreamBeginRecaptureToGraph` (driver API "Stream Management", CUDA 13.3): capture
//! again into a graph that an earlier capture (or explicit construction) made, keeping its
//! nodes.
//!
//! The reference: "The node creation order while recapturing the graph must be identical
//! to the original graph"; a topology mismatch, or a parameter mismatch of a memory
//! allocation or free node, fails the recapture at once; any other parameter mismatch is
//! reported to the callback (`CUgraphRecaptureCallback`) with whether an instantiated
//! graph could take the change, and a callback answer other than `CUDA_SUCCESS` fails the
//! recapture; user objects of the graph are released first. Here the graph's nodes, in
//! creation order, are matched one by one with the operations captured: the next node must
//! have the captured operation's type and exactly its dependencies; matching parameters
//! change nothing, other parameters replace the node's (the node handle stays, so
//! `cuGraphExecUpdate` of an executable graph made from it pairs the nodes again). An
//! allocation recaptured with the original node's size and device gets the original
//! node's address back, so the kernels captured after it see the same pointers. Ending
//! the capture checks that every node was matched. A failed recapture invalidates the
//! capture: the failing call answers why (`CUDA_ERROR_INVALID_VALUE` for a mismatch, the
//! callback's code for a refusal), later calls and `cuStreamEndCapture` answer
//! `CUDA_ERROR_STREAM_CAPTURE_INVALIDATED`, and the graph is left as the reference
//! allows ("undefined state and should be destroyed"). The codes of the failures were not
//! measured on NVIDIA's driver (the H200's 580 driver predates the call).

use std::sync::Mutex;

use super::node::NodeParams;
use super::GraphState;
use crate::diag::fail;
use crate::{CuError, CuResult, Driver, GraphHandle, GraphNodeHandle, StreamHandle};

/// `CUgraphRecaptureStatus`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum RecaptureStatus {
    /// An instantiated graph can take the new parameters (`cuGraphExecUpdate`).
    EligibleForUpdate = 0,
    /// It cannot.
    IneligibleForUpdate = 1,
}

/// The caller's callback: (node, original parameters, recaptured parameters, status).
pub type RecaptureCallback = Box<dyn Fn(GraphNodeHandle, &NodeParams, &NodeParams, RecaptureStatus) -> CuResult<()> + Send + Sync>;

/// The state of a recapture.
pub(crate) struct Recapture {
    /// The graph's nodes in creation order when the recapture began.
    order: Vec<GraphNodeHandle>,
    /// How many of them have been matched.
    matched: Mutex<usize>,
    callback: Option<RecaptureCallback>,
}

impl Recapture {
    fn matched(&self) -> std::sync::MutexGuard<'_, usize> {
        self.matched.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Whether every node of the graph has been matched.
    pub(crate) fn complete(&self) -> bool {
        *self.matched() == self.order.len()
    }

    /// The node the next captured operation must match, if any is left.
    pub(crate) fn next_node(&self) -> Option<GraphNodeHandle> {
        self.order.get(*self.matched()).copied()
    }
}

/// How a recaptured operation's parameters differ from its node's: `None` if they do not.
fn difference(old: &NodeParams, new: &NodeParams) -> Option<RecaptureStatus> {
    use RecaptureStatus::*;
    let same = match (old, new) {
        (NodeParams::Empty, NodeParams::Empty) => true,
        (NodeParams::Kernel(a), NodeParams::Kernel(b)) => {
            if a.ctx != b.ctx {
                // An instantiated kernel node keeps its context (`cuGraphExecKernelNodeSetParams`).
                return Some(IneligibleForUpdate);
            }
            a.function == b.function
                && a.kernel == b.kernel
                && a.grid == b.grid
                && a.block == b.block
                && a.shared_bytes == b.shared_bytes
                && a.arg_bytes() == b.arg_bytes()
        }
        (NodeParams::Memcpy(a), NodeParams::Memcpy(b)) => a.ctx == b.ctx && a.copy == b.copy,
        (NodeParams::Memset(a), NodeParams::Memset(b)) => a == b,
        (NodeParams::Host(a), NodeParams::Host(b)) => a.func as usize == b.func as usize && a.user_data == b.user_data,
        (NodeParams::MemAlloc(a), NodeParams::MemAlloc(b)) => a == b,
        (NodeParams::MemFree(a), NodeParams::MemFree(b)) => a == b,
        (NodeParams::EventRecord(a), NodeParams::EventRecord(b)) | (NodeParams::WaitEvent(a), NodeParams::WaitEvent(b)) => a == b,
        (NodeParams::ExtSemSignal(a), NodeParams::ExtSemSignal(b)) | (NodeParams::ExtSemWait(a), NodeParams::ExtSemWait(b)) => {
            if a.sems.len() != b.sems.len() {
                // The number of operations of an instantiated node is fixed.
                return Some(IneligibleForUpdate);
            }
            a.sems == b.sems && a.ops == b.ops
        }
        // A child graph node owns a graph of its own, a conditional node its bodies: each
        // recapture brings new ones.
        _ => false,
    };
    (!same).then_some(EligibleForUpdate)
}

impl Driver {
    /// `cuStreamBeginRecaptureToGraph`: `stream` captures into `g`, matching its nodes.
    pub fn stream_begin_recapture_to_graph(
        &self,
        stream: StreamHandle,
        mode: u32,
        g: GraphHandle,
        callback: Option<RecaptureCallback>,
    ) -> CuResult<()> {
        let graph = self.graph(g)?;
        let (order, refs) = {
            let mut state = graph.lock();
            (state.nodes.iter().map(|n| n.handle).collect(), std::mem::take(&mut state.user_objects))
        };
        let recapture = Recapture { order, matched: Mutex::new(0), callback };
        self.begin_capture_with(stream, mode, Some((g, Vec::new())), Some(recapture))?;
        // "Any user objects associated with graph will be released prior to the recapture."
        self.release_refs(refs);
        Ok(())
    }

    /// Matches operation `params`, captured with dependencies `deps`, with the next node
    /// of the recaptured graph: the node (now with `params`) on success.
    pub(crate) fn recapture_node(&self, g: GraphHandle, r: &Recapture, deps: &[GraphNodeHandle], params: NodeParams) -> CuResult<GraphNodeHandle> {
        let graph = self.graph(g)?;
        let mut matched = r.matched();
        let mismatch = |why: std::fmt::Arguments<'_>| fail(CuError::INVALID_VALUE, format_args!("recapture into graph {:#x}: {why}", g.0));
        let Some(&n) = r.order.get(*matched) else {
            return Err(mismatch(format_args!("more operations than the graph's {} nodes", r.order.len())));
        };
        let (old, status) = {
            let state = graph.lock();
            let node = state.node(n).ok_or_else(|| mismatch(format_args!("node {:#x} was removed", n.0)))?;
            check_topology(&state, n, deps, &params).map_err(|why| mismatch(format_args!("node {} ({:#x}): {why}", *matched, n.0)))?;
            (node.params.clone(), difference(&node.params, &params))
        };
        if let Some(status) = status {
            if matches!(old, NodeParams::MemAlloc(_) | NodeParams::MemFree(_)) {
                return Err(mismatch(format_args!("node {} ({:#x}): the memory node's parameters differ", *matched, n.0)));
            }
            if let Some(callback) = &r.callback {
                callback(n, &old, &params, status)
                    .map_err(|e| fail(e, format_args!("recapture into graph {:#x}: the callback refused node {:#x}", g.0, n.0)))?;
            }
            self.graph_node_set_params(n, params)?;
        }
        *matched += 1;
        Ok(n)
    }

    /// In a recapture, an allocation of `size` bytes on `device` that matches the next
    /// node gets that node's address (see the module doc).
    pub(crate) fn recaptured_allocation(&self, r: &Recapture, g: GraphHandle, size: usize, device: usize) -> Option<super::memory::MemAllocParams> {
        let n = r.next_node()?;
        let graph = self.graph(g).ok()?;
        let state = graph.lock();
        match state.node(n)?.params {
            NodeParams::MemAlloc(p) if p.size == size && p.device == device => Some(p),
            _ => None,
        }
    }
}

/// Whether node `n` of `state` has the type of `params` and exactly the dependencies `deps`.
fn check_topology(state: &GraphState, n: GraphNodeHandle, deps: &[GraphNodeHandle], params: &NodeParams) -> Result<(), String> {
    let node = state.node(n).ok_or("removed")?;
    if node.params.node_type() != params.node_type() {
        return Err(format!("a {:?} node, the operation makes a {:?} node", node.params.node_type(), params.node_type()));
    }
    let (mut a, mut b) = (node.deps.clone(), deps.to_vec());
    a.sort_unstable();
    b.sort_unstable();
    if a != b {
        return Err(format!("depends on {a:?}, the operation on {b:?}"));
    }
    Ok(())
}
