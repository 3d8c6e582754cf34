//! The generic node calls (`cuGraphAddNode`'s conditional nodes, `cuGraphNodeGetParams`),
//! conditional handles (`cuGraphConditionalHandleCreate`) and capture into an existing
//! graph (`cuStreamBeginCaptureToGraph`) and recapture into one
//! (`cuStreamBeginRecaptureToGraph`), enabled nodes, kernel node attributes, node
//! ids, and the executable-graph setters of child graph and event nodes; semantics in
//! `cuda_driver::graph`.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::graph::recapture::{RecaptureCallback, RecaptureStatus};
use cuda_driver::graph::{NodeParams, NodeType};
use cuda_driver::{CuError, GraphNodeHandle};

use super::extsem::{sem_node_c, SemNodeParamsC};
use super::graph::add;
use super::graph_memory::MemAllocNodeParams;
use super::graph_params::*;
use super::{ctx_handle, ctx_raw, drv, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, AbiResult, Out};
use crate::types::{CUcontext, CUevent, CUlaunchAttributeValue, CUresult, CUstream, CUDA_MEMCPY3D};

/// `CUDA_CONDITIONAL_NODE_PARAMS` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
struct ConditionalNodeParams {
    handle: u64,
    type_: c_uint,
    size: c_uint,
    graphs_out: *mut CUgraph,
    ctx: CUcontext,
}

const _: () = assert!(std::mem::size_of::<ConditionalNodeParams>() == 32);

/// `cuGraphAddNode(_v2)`: a conditional node gets its body graphs, whose array the
/// driver owns, written to `phGraph_out` of the caller's structure; other types go
/// through [`node_params_of`].
///
/// # Safety
/// As the API documents: `p` NULL or readable and writable, `deps` readable for `n`.
pub(super) unsafe fn add_any(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *mut GraphNodeParams) -> AbiResult {
    if p.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: non-NULL, readable (caller).
    let ty = unsafe { (*p).type_ };
    // SAFETY: the union starts at offset 16 and holds 232 bytes.
    let u = unsafe { std::ptr::addr_of_mut!((*p).union).cast::<u8>() };
    if ty == NodeType::Conditional as c_int {
        // SAFETY: the structure fits in the union (caller's memory).
        let c = unsafe { u.cast::<ConditionalNodeParams>().read_unaligned() };
        let mut bodies = std::ptr::null_mut();
        // SAFETY: pointers as the API documents.
        unsafe {
            add(out, g, deps, n, || {
                let params = drv()?.conditional_params(c.handle, c.type_, c.size, ctx_handle(c.ctx))?;
                bodies = params.bodies.as_ptr().cast_mut().cast::<CUgraph>();
                Ok(NodeParams::Conditional(params))
            })
        }?;
        // SAFETY: the caller's structure, whose `phGraph_out` the API fills; the array
        // (graph handles, pointer-sized) lives as long as the node.
        unsafe { std::ptr::addr_of_mut!((*u.cast::<ConditionalNodeParams>()).graphs_out).write_unaligned(bodies) };
        return Ok(());
    }
    if ty == NodeType::MemAlloc as c_int {
        // The allocation node's own call writes `dptr` back.
        // SAFETY: forwarded contract; the structure fits in the union.
        return unsafe { super::graph_memory::add_alloc(out, g, deps, n, u.cast::<MemAllocNodeParams>()) };
    }
    // SAFETY: forwarded contract.
    unsafe { add(out, g, deps, n, || node_params_of(p)) }
}

/// Writes a node's parameters as a `CUgraphNodeParams`.
fn params_out(node: GraphNodeHandle, out: Out<GraphNodeParams>) -> AbiResult {
    out.write(c_params(node, drv()?.graph_node_params(node)?)?);
    Ok(())
}

/// `params` (of `node`) as a `CUgraphNodeParams`.
fn c_params(node: GraphNodeHandle, params: NodeParams) -> AbiResult<GraphNodeParams> {
    let mut p = GraphNodeParams { type_: params.node_type() as c_int, reserved0: [0; 3], union: [0; 29], reserved2: 0 };
    let u = p.union.as_mut_ptr().cast::<u8>();
    // SAFETY (each write): the union holds 232 bytes and every structure fits in it.
    unsafe {
        match params {
            NodeParams::Empty => {}
            NodeParams::Kernel(k) => {
                let kern = k.kernel.map_or(std::ptr::null_mut(), |h| h.as_raw());
                u.cast::<KernelNodeParamsV2>().write_unaligned(KernelNodeParamsV2 { base: kernel_v1_of(&k), kern, ctx: ctx_raw(k.ctx) });
            }
            NodeParams::Memcpy(m) => {
                // CUDA_MEMCPY_NODE_PARAMS: flags, reserved, copyCtx, copyParams.
                u.add(8).cast::<CUcontext>().write_unaligned(ctx_raw(m.ctx));
                u.add(16).cast::<CUDA_MEMCPY3D>().write_unaligned(m.copy);
            }
            NodeParams::Memset(m) => {
                let c =
                    MemsetNodeParams { dst: m.dst, pitch: m.pitch, value: m.value, element_size: m.element_size, width: m.width, height: m.height };
                u.cast::<MemsetNodeParams>().write_unaligned(c);
                u.add(40).cast::<CUcontext>().write_unaligned(ctx_raw(m.ctx));
            }
            NodeParams::Host(h) => {
                u.cast::<HostNodeParams>().write_unaligned(HostNodeParams { func: Some(h.func), user_data: h.user_data as *mut _ })
            }
            NodeParams::Graph(g) => u.cast::<CUgraph>().write_unaligned(g.as_raw()),
            NodeParams::EventRecord(e) | NodeParams::WaitEvent(e) => u.cast::<CUgraph>().write_unaligned(e.as_raw()),
            NodeParams::MemAlloc(_) => u.cast::<MemAllocNodeParams>().write_unaligned(super::graph_memory::alloc_params(node.as_raw())?),
            NodeParams::MemFree(ptr) => u.cast::<u64>().write_unaligned(ptr),
            NodeParams::ExtSemSignal(p) | NodeParams::ExtSemWait(p) => u.cast::<SemNodeParamsC>().write_unaligned(sem_node_c(&p)),
            NodeParams::Conditional(c) => {
                let graphs_out = c.bodies.as_ptr().cast_mut().cast::<CUgraph>();
                let size = c.bodies.len() as c_uint;
                let c = ConditionalNodeParams { handle: c.handle(), type_: c.kind as c_uint, size, graphs_out, ctx: ctx_raw(c.ctx()) };
                u.cast::<ConditionalNodeParams>().write_unaligned(c);
            }
        }
    }
    Ok(p)
}

/// `CUgraphRecaptureCallback`.
type RecaptureCallbackC = unsafe extern "C" fn(
    data: *mut c_void,
    node: CUgraphNode,
    original: *const GraphNodeParams,
    recaptured: *const GraphNodeParams,
    status: c_uint,
) -> CUresult;

/// The driver's form of a recapture callback: the parameters as `CUgraphNodeParams`, valid
/// during the call only (as the reference says).
fn recapture_callback(callback: Option<RecaptureCallbackC>, data: *mut c_void) -> Option<RecaptureCallback> {
    let callback = callback?;
    let data = data as usize;
    Some(Box::new(move |node: GraphNodeHandle, original: &NodeParams, recaptured: &NodeParams, status: RecaptureStatus| {
        let (a, b) = (c_params(node, original.clone())?, c_params(node, recaptured.clone())?);
        // SAFETY: the caller's callback with its own data, given two live structures.
        let r = unsafe { callback(data as *mut c_void, node.as_raw(), &a, &b, status as c_uint) };
        CuError::from_code(r.0).map_or(Ok(()), Err)
    }))
}

export! {
    /// `cuGraphConditionalHandleCreate(CUgraphConditionalHandle* pHandle_out, CUgraph
    /// hGraph, CUcontext ctx, unsigned defaultLaunchValue, unsigned flags)`.
    fn cuGraphConditionalHandleCreate(out: *mut u64, g: CUgraph, ctx: CUcontext, default: c_uint, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(out) }?;
        out.write(drv()?.graph_conditional_handle_create(graph_h(g), ctx_handle(ctx), default, flags)?);
        Ok(())
    }

    /// `cuGraphNodeGetParams(CUgraphNode, CUgraphNodeParams*)` (CUDA 12.2).
    fn cuGraphNodeGetParams(node: CUgraphNode, p: *mut GraphNodeParams) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p) }?;
        params_out(node_h(node), out)
    }

    /// `cuStreamBeginCaptureToGraph(CUstream, CUgraph, const CUgraphNode* dependencies,
    /// const CUgraphEdgeData* dependencyData, size_t numDependencies, CUstreamCaptureMode)`.
    fn cuStreamBeginCaptureToGraph(s: CUstream, g: CUgraph, deps: *const CUgraphNode, edges: *const EdgeData, n: usize, mode: c_uint) {
        // SAFETY: pointers as the API documents.
        unsafe {
            check_edge_data(edges, n)?;
            drv()?.stream_begin_capture_to_graph(stream_handle(s), graph_h(g), &nodes_in(deps, n)?, mode)
        }
    }
    /// `cuStreamBeginRecaptureToGraph(CUstream, CUstreamCaptureMode, CUgraph,
    /// CUgraphRecaptureCallback, void* userData)` (CUDA 13.3).
    fn cuStreamBeginRecaptureToGraph(s: CUstream, mode: c_uint, g: CUgraph, callback: Option<RecaptureCallbackC>, data: *mut c_void) {
        drv()?.stream_begin_recapture_to_graph(stream_handle(s), mode, graph_h(g), recapture_callback(callback, data))
    }
    fn cuStreamBeginRecaptureToGraph_ptsz(s: CUstream, mode: c_uint, g: CUgraph, callback: Option<RecaptureCallbackC>, data: *mut c_void) {
        drv()?.stream_begin_recapture_to_graph(stream_ptsz(s), mode, graph_h(g), recapture_callback(callback, data))
    }

    fn cuStreamBeginCaptureToGraph_ptsz(s: CUstream, g: CUgraph, deps: *const CUgraphNode, edges: *const EdgeData, n: usize, mode: c_uint) {
        // SAFETY: pointers as the API documents.
        unsafe {
            check_edge_data(edges, n)?;
            drv()?.stream_begin_capture_to_graph(stream_ptsz(s), graph_h(g), &nodes_in(deps, n)?, mode)
        }
    }
}

export! {
    /// `cuGraphNodeSetEnabled(CUgraphExec, CUgraphNode, unsigned isEnabled)`.
    fn cuGraphNodeSetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: c_uint) {
        drv()?.graph_node_set_enabled(exec_h(exec), node_h(node), Some(enabled != 0)).map(drop)
    }

    /// `cuGraphNodeGetEnabled(CUgraphExec, CUgraphNode, unsigned* isEnabled)`.
    fn cuGraphNodeGetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(enabled) }?;
        out.write(drv()?.graph_node_set_enabled(exec_h(exec), node_h(node), None)? as c_uint);
        Ok(())
    }

    /// `cuGraphKernelNodeGetAttribute(CUgraphNode, CUkernelNodeAttrID, CUkernelNodeAttrValue* value_out)`.
    fn cuGraphKernelNodeGetAttribute(node: CUgraphNode, id: c_uint, value: *mut CUlaunchAttributeValue) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(value) }?;
        out.write(CUlaunchAttributeValue { pad: drv()?.kernel_node_attribute(node_h(node), id)? });
        Ok(())
    }

    /// `cuGraphKernelNodeSetAttribute(CUgraphNode, CUkernelNodeAttrID, const CUkernelNodeAttrValue*)`.
    fn cuGraphKernelNodeSetAttribute(node: CUgraphNode, id: c_uint, value: *const CUlaunchAttributeValue) {
        // SAFETY: NULL or readable, per the API.
        let v = unsafe { read_in(value) }?;
        drv()?.kernel_node_set_attribute(node_h(node), id, &v.pad)
    }

    /// `cuGraphKernelNodeCopyAttributes(CUgraphNode dst, CUgraphNode src)`.
    fn cuGraphKernelNodeCopyAttributes(dst: CUgraphNode, src: CUgraphNode) {
        drv()?.kernel_node_copy_attributes(node_h(dst), node_h(src))
    }

    /// `cuGraphExecChildGraphNodeSetParams(CUgraphExec, CUgraphNode, CUgraph childGraph)`.
    fn cuGraphExecChildGraphNodeSetParams(exec: CUgraphExec, node: CUgraphNode, child: CUgraph) {
        drv()?.graph_exec_set_child(exec_h(exec), node_h(node), graph_h(child))
    }

    /// `cuGraphExecEventRecordNodeSetEvent(CUgraphExec, CUgraphNode, CUevent)`.
    fn cuGraphExecEventRecordNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: CUevent) {
        drv()?.graph_exec_set_node_params(exec_h(exec), node_h(node), event_node(event, true)?)
    }

    /// `cuGraphExecEventWaitNodeSetEvent(CUgraphExec, CUgraphNode, CUevent)`.
    fn cuGraphExecEventWaitNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: CUevent) {
        drv()?.graph_exec_set_node_params(exec_h(exec), node_h(node), event_node(event, false)?)
    }

    /// `cuGraphNodeGetLocalId(CUgraphNode, unsigned* nodeId)`.
    fn cuGraphNodeGetLocalId(node: CUgraphNode, id: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(id) }?;
        out.write(drv()?.graph_node_ids(node_h(node))?.0);
        Ok(())
    }

    /// `cuGraphNodeGetToolsId(CUgraphNode, unsigned long long* toolsNodeId)`.
    fn cuGraphNodeGetToolsId(node: CUgraphNode, id: *mut u64) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(id) }?;
        out.write(drv()?.graph_node_ids(node_h(node))?.1);
        Ok(())
    }
}
