//! `cuGraph*`: graphs, nodes, edges, executable graphs (semantics in
//! `cuda_driver::graph`; the C structures and list queries in `graph_params.rs`).

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::null_mut;

use cuda_driver::graph::{KernelNodeDesc, NodeParams, UpdateResult};
use cuda_driver::{CtxHandle, CuError, GraphNodeHandle};

use super::graph_params::*;
use super::{ctx_handle, ctx_raw, drv, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, utf8, AbiResult, Out};
use crate::types::{CUcontext, CUevent, CUstream, CUDA_MEMCPY3D};

/// Adds a node and writes its handle.
///
/// # Safety
/// `out` is NULL or writable; `deps` NULL or readable for `n` handles.
pub(super) unsafe fn add(
    out: *mut CUgraphNode,
    g: CUgraph,
    deps: *const CUgraphNode,
    n: usize,
    params: impl FnOnce() -> AbiResult<NodeParams>,
) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    // SAFETY: forwarded contract.
    let deps = unsafe { nodes_in(deps, n) }?;
    let node = drv()?.graph_add_node(graph_h(g), &deps, params()?)?;
    out.write(node.as_raw());
    Ok(())
}

fn instantiate(out: *mut CUgraphExec, g: CUgraph, flags: u64) -> Result<(), (CuError, Option<GraphNodeHandle>)> {
    // SAFETY: NULL or writable, per the API.
    let out = unsafe { Out::new(out) }.map_err(|e| (e, None))?;
    let exec = drv().map_err(|e| (e, None))?.graph_instantiate(graph_h(g), flags)?;
    out.write(exec.as_raw());
    Ok(())
}

/// # Safety
/// `err_node` is NULL or writable; `log` NULL or writable for `log_size` bytes.
unsafe fn instantiate_v1(out: *mut CUgraphExec, g: CUgraph, err_node: *mut CUgraphNode, log: *mut c_char, log_size: usize) -> AbiResult {
    let result = instantiate(out, g, 0);
    let (code, node) = match result {
        Ok(()) => return Ok(()),
        Err(e) => e,
    };
    // SAFETY: forwarded contract.
    unsafe {
        if let Some(out) = Out::optional(err_node) {
            out.write(node.map_or(null_mut(), |n| n.as_raw()));
        }
        crate::boundary::write_c_string(
            log,
            log_size,
            &format!(
                "graph instantiation failed: {}",
                cuda_driver::error::name(code.code()).map_or(std::borrow::Cow::Borrowed("?"), |n| n.to_string_lossy())
            ),
        );
    }
    Err(code)
}

fn set_kernel(n: CUgraphNode, d: &KernelNodeDesc) -> AbiResult {
    // SAFETY: the argument pointers as the API requires.
    let params = unsafe { kernel_params(d) }?;
    drv()?.graph_node_set_params(node_h(n), params)
}

fn exec_set(e: CUgraphExec, n: CUgraphNode, params: NodeParams) -> AbiResult {
    drv()?.graph_exec_set_node_params(exec_h(e), node_h(n), params)
}

export! {
    /// `cuGraphCreate(CUgraph* phGraph, unsigned flags)`.
    fn cuGraphCreate(ph_graph: *mut CUgraph, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_graph) }?;
        out.write(drv()?.graph_create(flags)?.as_raw());
        Ok(())
    }

    /// `cuGraphDestroy(CUgraph hGraph)`.
    fn cuGraphDestroy(g: CUgraph) {
        drv()?.graph_destroy(graph_h(g))
    }

    /// `cuGraphAddKernelNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, const CUDA_KERNEL_NODE_PARAMS_v1*)`.
    fn cuGraphAddKernelNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *const KernelNodeParamsV1) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || kernel_params(&kernel_desc_v1(&read_in(p)?))) }
    }

    /// `cuGraphAddKernelNode_v2(..., const CUDA_KERNEL_NODE_PARAMS*)`.
    fn cuGraphAddKernelNode_v2(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *const KernelNodeParamsV2) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || kernel_params(&kernel_desc_v2(&read_in(p)?))) }
    }

    /// `cuGraphKernelNodeGetParams(CUgraphNode, CUDA_KERNEL_NODE_PARAMS_v1*)`: `kernelParams`
    /// points into the node's own copy of the arguments.
    fn cuGraphKernelNodeGetParams(node: CUgraphNode, p: *mut KernelNodeParamsV1) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p) }?;
        out.write(kernel_v1_of(&kernel_of(node)?));
        Ok(())
    }

    /// `cuGraphKernelNodeGetParams_v2(CUgraphNode, CUDA_KERNEL_NODE_PARAMS*)`.
    fn cuGraphKernelNodeGetParams_v2(node: CUgraphNode, p: *mut KernelNodeParamsV2) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p) }?;
        let k = kernel_of(node)?;
        let kern = k.kernel.map_or(null_mut(), |h| h.as_raw());
        out.write(KernelNodeParamsV2 { base: kernel_v1_of(&k), kern, ctx: ctx_raw(k.ctx) });
        Ok(())
    }

    /// `cuGraphKernelNodeSetParams(CUgraphNode, const CUDA_KERNEL_NODE_PARAMS_v1*)`.
    fn cuGraphKernelNodeSetParams(node: CUgraphNode, p: *const KernelNodeParamsV1) {
        // SAFETY: NULL or readable, per the API.
        set_kernel(node, &kernel_desc_v1(&unsafe { read_in(p) }?))
    }

    /// `cuGraphKernelNodeSetParams_v2(CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*)`.
    fn cuGraphKernelNodeSetParams_v2(node: CUgraphNode, p: *const KernelNodeParamsV2) {
        // SAFETY: NULL or readable, per the API.
        set_kernel(node, &kernel_desc_v2(&unsafe { read_in(p) }?))
    }

    /// `cuGraphAddMemcpyNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, const CUDA_MEMCPY3D*, CUcontext)`.
    fn cuGraphAddMemcpyNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *const CUDA_MEMCPY3D, ctx: CUcontext) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || memcpy_of(p, ctx_handle(ctx))) }
    }

    /// `cuGraphMemcpyNodeGetParams(CUgraphNode, CUDA_MEMCPY3D*)`.
    fn cuGraphMemcpyNodeGetParams(node: CUgraphNode, p: *mut CUDA_MEMCPY3D) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p) }?;
        match drv()?.graph_node_params(node_h(node))? {
            NodeParams::Memcpy(m) => out.write(m.copy),
            _ => return Err(CuError::INVALID_VALUE),
        }
        Ok(())
    }

    /// `cuGraphMemcpyNodeSetParams(CUgraphNode, const CUDA_MEMCPY3D*)`.
    fn cuGraphMemcpyNodeSetParams(node: CUgraphNode, p: *const CUDA_MEMCPY3D) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { memcpy_of(p, CtxHandle::NULL) }?;
        drv()?.graph_node_set_params(node_h(node), params)
    }

    /// `cuGraphAddMemsetNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, const CUDA_MEMSET_NODE_PARAMS*, CUcontext)`.
    fn cuGraphAddMemsetNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *const MemsetNodeParams, ctx: CUcontext) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || memset_of(&read_in(p)?, ctx_handle(ctx))) }
    }

    /// `cuGraphMemsetNodeGetParams(CUgraphNode, CUDA_MEMSET_NODE_PARAMS*)`.
    fn cuGraphMemsetNodeGetParams(node: CUgraphNode, p: *mut MemsetNodeParams) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p) }?;
        match drv()?.graph_node_params(node_h(node))? {
            NodeParams::Memset(m) => {
                out.write(MemsetNodeParams { dst: m.dst, pitch: m.pitch, value: m.value, element_size: m.element_size, width: m.width, height: m.height })
            }
            _ => return Err(CuError::INVALID_VALUE),
        }
        Ok(())
    }

    /// `cuGraphMemsetNodeSetParams(CUgraphNode, const CUDA_MEMSET_NODE_PARAMS*)`.
    fn cuGraphMemsetNodeSetParams(node: CUgraphNode, p: *const MemsetNodeParams) {
        // SAFETY: NULL or readable, per the API.
        let params = memset_of(&unsafe { read_in(p) }?, CtxHandle::NULL)?;
        drv()?.graph_node_set_params(node_h(node), params)
    }

    /// `cuGraphAddHostNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, const CUDA_HOST_NODE_PARAMS*)`.
    fn cuGraphAddHostNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *const HostNodeParams) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || host_of(&read_in(p)?)) }
    }

    /// `cuGraphHostNodeGetParams(CUgraphNode, CUDA_HOST_NODE_PARAMS*)`.
    fn cuGraphHostNodeGetParams(node: CUgraphNode, p: *mut HostNodeParams) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p) }?;
        match drv()?.graph_node_params(node_h(node))? {
            NodeParams::Host(h) => out.write(HostNodeParams { func: Some(h.func), user_data: h.user_data as *mut c_void }),
            _ => return Err(CuError::INVALID_VALUE),
        }
        Ok(())
    }

    /// `cuGraphHostNodeSetParams(CUgraphNode, const CUDA_HOST_NODE_PARAMS*)`.
    fn cuGraphHostNodeSetParams(node: CUgraphNode, p: *const HostNodeParams) {
        // SAFETY: NULL or readable, per the API.
        let params = host_of(&unsafe { read_in(p) }?)?;
        drv()?.graph_node_set_params(node_h(node), params)
    }

    /// `cuGraphAddChildGraphNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUgraph childGraph)`: clones the child.
    fn cuGraphAddChildGraphNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, child: CUgraph) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || Ok(NodeParams::Graph(graph_h(child)))) }
    }

    /// `cuGraphChildGraphNodeGetGraph(CUgraphNode, CUgraph*)`: the node's own graph.
    fn cuGraphChildGraphNodeGetGraph(node: CUgraphNode, ph_graph: *mut CUgraph) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_graph) }?;
        match drv()?.graph_node_params(node_h(node))? {
            NodeParams::Graph(g) => out.write(g.as_raw()),
            _ => return Err(CuError::INVALID_VALUE),
        }
        Ok(())
    }

    /// `cuGraphAddEmptyNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t)`.
    fn cuGraphAddEmptyNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || Ok(NodeParams::Empty)) }
    }

    /// `cuGraphAddEventRecordNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUevent)`.
    fn cuGraphAddEventRecordNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || event_node(event, true)) }
    }

    /// `cuGraphAddEventWaitNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUevent)`.
    fn cuGraphAddEventWaitNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || event_node(event, false)) }
    }

    /// `cuGraphEventRecordNodeGetEvent(CUgraphNode, CUevent*)`.
    fn cuGraphEventRecordNodeGetEvent(node: CUgraphNode, event: *mut CUevent) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(event) }?;
        match drv()?.graph_node_params(node_h(node))? {
            NodeParams::EventRecord(e) => out.write(e.as_raw().cast()),
            _ => return Err(CuError::INVALID_VALUE),
        }
        Ok(())
    }

    /// `cuGraphEventWaitNodeGetEvent(CUgraphNode, CUevent*)`.
    fn cuGraphEventWaitNodeGetEvent(node: CUgraphNode, event: *mut CUevent) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(event) }?;
        match drv()?.graph_node_params(node_h(node))? {
            NodeParams::WaitEvent(e) => out.write(e.as_raw().cast()),
            _ => return Err(CuError::INVALID_VALUE),
        }
        Ok(())
    }

    /// `cuGraphEventRecordNodeSetEvent(CUgraphNode, CUevent)`.
    fn cuGraphEventRecordNodeSetEvent(node: CUgraphNode, event: CUevent) {
        drv()?.graph_node_set_params(node_h(node), event_node(event, true)?)
    }

    /// `cuGraphEventWaitNodeSetEvent(CUgraphNode, CUevent)`.
    fn cuGraphEventWaitNodeSetEvent(node: CUgraphNode, event: CUevent) {
        drv()?.graph_node_set_params(node_h(node), event_node(event, false)?)
    }

    /// `cuGraphAddNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUgraphNodeParams*)` (CUDA 12.2).
    fn cuGraphAddNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *mut GraphNodeParams) {
        // SAFETY: pointers as the API documents.
        unsafe { super::graph_nodes::add_any(out, g, deps, n, p) }
    }

    /// `cuGraphAddNode_v2(CUgraphNode*, CUgraph, const CUgraphNode*, const CUgraphEdgeData*, size_t, CUgraphNodeParams*)`.
    fn cuGraphAddNode_v2(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, edge_data: *const EdgeData, n: usize, p: *mut GraphNodeParams) {
        // SAFETY: pointers as the API documents.
        unsafe {
            check_edge_data(edge_data, n)?;
            super::graph_nodes::add_any(out, g, deps, n, p)
        }
    }

    /// `cuGraphNodeSetParams(CUgraphNode, CUgraphNodeParams*)`.
    fn cuGraphNodeSetParams(node: CUgraphNode, p: *mut GraphNodeParams) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { node_params_of(p) }?;
        drv()?.graph_node_set_params(node_h(node), params)
    }

    /// `cuGraphExecNodeSetParams(CUgraphExec, CUgraphNode, CUgraphNodeParams*)`.
    fn cuGraphExecNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *mut GraphNodeParams) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { node_params_of(p) }?;
        exec_set(exec, node, params)
    }

    /// `cuGraphGetNodes(CUgraph, CUgraphNode* nodes, size_t* numNodes)`.
    fn cuGraphGetNodes(g: CUgraph, nodes: *mut CUgraphNode, num: *mut usize) {
        let list = drv()?.graph_nodes(graph_h(g))?;
        // SAFETY: pointers as the API documents.
        unsafe { list_out(&list, nodes, null_mut(), num) }
    }

    /// `cuGraphGetRootNodes(CUgraph, CUgraphNode* rootNodes, size_t* numRootNodes)`.
    fn cuGraphGetRootNodes(g: CUgraph, nodes: *mut CUgraphNode, num: *mut usize) {
        let list = drv()?.graph_root_nodes(graph_h(g))?;
        // SAFETY: pointers as the API documents.
        unsafe { list_out(&list, nodes, null_mut(), num) }
    }

    /// `cuGraphGetEdges(CUgraph, CUgraphNode* from, CUgraphNode* to, size_t* numEdges)`.
    fn cuGraphGetEdges(g: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, num: *mut usize) {
        // SAFETY: pointers as the API documents.
        unsafe { edges_out(g, from, to, null_mut(), num) }
    }

    /// `cuGraphGetEdges_v2(CUgraph, CUgraphNode* from, CUgraphNode* to, CUgraphEdgeData*, size_t*)`.
    fn cuGraphGetEdges_v2(g: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, edge_data: *mut EdgeData, num: *mut usize) {
        // SAFETY: pointers as the API documents.
        unsafe { edges_out(g, from, to, edge_data, num) }
    }

    /// `cuGraphNodeGetType(CUgraphNode, CUgraphNodeType*)`.
    fn cuGraphNodeGetType(node: CUgraphNode, ty: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ty) }?;
        out.write(drv()?.graph_node_type(node_h(node))? as c_int);
        Ok(())
    }

    /// `cuGraphNodeGetDependencies(CUgraphNode, CUgraphNode*, size_t*)`.
    fn cuGraphNodeGetDependencies(node: CUgraphNode, deps: *mut CUgraphNode, num: *mut usize) {
        let list = drv()?.graph_node_dependencies(node_h(node))?;
        // SAFETY: pointers as the API documents.
        unsafe { list_out(&list, deps, null_mut(), num) }
    }

    /// `cuGraphNodeGetDependencies_v2(CUgraphNode, CUgraphNode*, CUgraphEdgeData*, size_t*)`.
    fn cuGraphNodeGetDependencies_v2(node: CUgraphNode, deps: *mut CUgraphNode, edge_data: *mut EdgeData, num: *mut usize) {
        let list = drv()?.graph_node_dependencies(node_h(node))?;
        // SAFETY: pointers as the API documents.
        unsafe { list_out(&list, deps, edge_data, num) }
    }

    /// `cuGraphNodeGetDependentNodes(CUgraphNode, CUgraphNode*, size_t*)`.
    fn cuGraphNodeGetDependentNodes(node: CUgraphNode, nodes: *mut CUgraphNode, num: *mut usize) {
        let list = drv()?.graph_node_dependents(node_h(node))?;
        // SAFETY: pointers as the API documents.
        unsafe { list_out(&list, nodes, null_mut(), num) }
    }

    /// `cuGraphNodeGetDependentNodes_v2(CUgraphNode, CUgraphNode*, CUgraphEdgeData*, size_t*)`.
    fn cuGraphNodeGetDependentNodes_v2(node: CUgraphNode, nodes: *mut CUgraphNode, edge_data: *mut EdgeData, num: *mut usize) {
        let list = drv()?.graph_node_dependents(node_h(node))?;
        // SAFETY: pointers as the API documents.
        unsafe { list_out(&list, nodes, edge_data, num) }
    }

    /// `cuGraphAddDependencies(CUgraph, const CUgraphNode* from, const CUgraphNode* to, size_t)`.
    fn cuGraphAddDependencies(g: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, n: usize) {
        // SAFETY: pointers as the API documents.
        let (from, to) = unsafe { (nodes_in(from, n)?, nodes_in(to, n)?) };
        drv()?.graph_add_dependencies(graph_h(g), &from, &to)
    }

    /// `cuGraphAddDependencies_v2(CUgraph, const CUgraphNode*, const CUgraphNode*, const CUgraphEdgeData*, size_t)`.
    fn cuGraphAddDependencies_v2(g: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edge_data: *const EdgeData, n: usize) {
        // SAFETY: pointers as the API documents.
        let (from, to) = unsafe { check_edge_data(edge_data, n).and_then(|()| Ok((nodes_in(from, n)?, nodes_in(to, n)?))) }?;
        drv()?.graph_add_dependencies(graph_h(g), &from, &to)
    }

    /// `cuGraphRemoveDependencies(CUgraph, const CUgraphNode*, const CUgraphNode*, size_t)`.
    fn cuGraphRemoveDependencies(g: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, n: usize) {
        // SAFETY: pointers as the API documents.
        let (from, to) = unsafe { (nodes_in(from, n)?, nodes_in(to, n)?) };
        drv()?.graph_remove_dependencies(graph_h(g), &from, &to)
    }

    /// `cuGraphRemoveDependencies_v2(CUgraph, const CUgraphNode*, const CUgraphNode*, const CUgraphEdgeData*, size_t)`.
    fn cuGraphRemoveDependencies_v2(g: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edge_data: *const EdgeData, n: usize) {
        // SAFETY: pointers as the API documents.
        let (from, to) = unsafe { check_edge_data(edge_data, n).and_then(|()| Ok((nodes_in(from, n)?, nodes_in(to, n)?))) }?;
        drv()?.graph_remove_dependencies(graph_h(g), &from, &to)
    }

    /// `cuGraphClone(CUgraph* phGraphClone, CUgraph originalGraph)`.
    fn cuGraphClone(out: *mut CUgraph, g: CUgraph) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(out) }?;
        out.write(drv()?.graph_clone(graph_h(g))?.as_raw());
        Ok(())
    }

    /// `cuGraphNodeFindInClone(CUgraphNode* phNode, CUgraphNode hOriginalNode, CUgraph hClonedGraph)`.
    fn cuGraphNodeFindInClone(out: *mut CUgraphNode, original: CUgraphNode, clone: CUgraph) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(out) }?;
        out.write(drv()?.graph_node_find_in_clone(node_h(original), graph_h(clone))?.as_raw());
        Ok(())
    }

    /// `cuGraphDestroyNode(CUgraphNode)`.
    fn cuGraphDestroyNode(node: CUgraphNode) {
        drv()?.graph_destroy_node(node_h(node))
    }

    /// `cuGraphNodeGetContainingGraph(CUgraphNode, CUgraph*)` (CUDA 13.1).
    fn cuGraphNodeGetContainingGraph(node: CUgraphNode, ph_graph: *mut CUgraph) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_graph) }?;
        out.write(drv()?.graph_node_graph(node_h(node))?.as_raw());
        Ok(())
    }

    /// `cuGraphGetId(CUgraph, unsigned* graphId)` (CUDA 13.1).
    fn cuGraphGetId(g: CUgraph, id: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(id) }?;
        out.write(drv()?.graph_get_id(graph_h(g))?);
        Ok(())
    }

    /// `cuGraphDebugDotPrint(CUgraph, const char* path, unsigned flags)`: writes DOT.
    fn cuGraphDebugDotPrint(g: CUgraph, path: *const c_char, flags: c_uint) {
        let _ = flags;
        // SAFETY: NULL or a C string, per the API.
        let path = unsafe { utf8(path, CuError::INVALID_VALUE) }?;
        let dot = drv()?.graph_debug_dot(graph_h(g))?;
        std::fs::write(path, dot).map_err(|_| CuError::OPERATING_SYSTEM)
    }

    /// `cuGraphInstantiate(CUgraphExec*, CUgraph, CUgraphNode* phErrorNode, char* logBuffer, size_t bufferSize)` (CUDA 10 ABI).
    fn cuGraphInstantiate(out: *mut CUgraphExec, g: CUgraph, err_node: *mut CUgraphNode, log: *mut c_char, log_size: usize) {
        // SAFETY: pointers as the API documents.
        unsafe { instantiate_v1(out, g, err_node, log, log_size) }
    }

    /// `cuGraphInstantiate_v2`: the CUDA 11 name of the same signature.
    fn cuGraphInstantiate_v2(out: *mut CUgraphExec, g: CUgraph, err_node: *mut CUgraphNode, log: *mut c_char, log_size: usize) {
        // SAFETY: pointers as the API documents.
        unsafe { instantiate_v1(out, g, err_node, log, log_size) }
    }

    /// `cuGraphInstantiateWithFlags(CUgraphExec*, CUgraph, unsigned long long flags)`.
    fn cuGraphInstantiateWithFlags(out: *mut CUgraphExec, g: CUgraph, flags: u64) {
        instantiate(out, g, flags).map_err(|(e, _)| e)
    }

    /// `cuGraphInstantiateWithParams(CUgraphExec*, CUgraph, CUDA_GRAPH_INSTANTIATE_PARAMS*)`:
    /// the result and the node at fault are written back.
    fn cuGraphInstantiateWithParams(out: *mut CUgraphExec, g: CUgraph, p: *mut InstantiateParams) {
        // SAFETY: NULL or readable/writable, per the API.
        let params = unsafe { p.as_mut() }.ok_or(CuError::INVALID_VALUE)?;
        let result = instantiate(out, g, params.flags);
        let (code, node) = match result {
            Ok(()) => {
                params.result_out = 0;
                params.err_node_out = null_mut();
                return Ok(());
            }
            Err(e) => e,
        };
        // CUgraphInstantiateResult: ERROR 1, INVALID_STRUCTURE 2 (cycles), NODE_OPERATION_NOT_SUPPORTED 3.
        params.result_out = if code == CuError::NOT_SUPPORTED { 3 } else if node.is_some() { 2 } else { 1 };
        params.err_node_out = node.map_or(null_mut(), |n| n.as_raw());
        Err(code)
    }
    fn cuGraphInstantiateWithParams_ptsz(out: *mut CUgraphExec, g: CUgraph, p: *mut InstantiateParams) {
        // SAFETY: as cuGraphInstantiateWithParams.
        CuError::from_code(unsafe { cuGraphInstantiateWithParams(out, g, p) }.0).map_or(Ok(()), Err)
    }

    /// `cuGraphLaunch(CUgraphExec, CUstream)`.
    fn cuGraphLaunch(exec: CUgraphExec, stream: CUstream) {
        drv()?.graph_launch(exec_h(exec), stream_handle(stream))
    }
    fn cuGraphLaunch_ptsz(exec: CUgraphExec, stream: CUstream) {
        drv()?.graph_launch(exec_h(exec), stream_ptsz(stream))
    }

    /// `cuGraphUpload(CUgraphExec, CUstream)`.
    fn cuGraphUpload(exec: CUgraphExec, stream: CUstream) {
        drv()?.graph_upload(exec_h(exec), stream_handle(stream))
    }
    fn cuGraphUpload_ptsz(exec: CUgraphExec, stream: CUstream) {
        drv()?.graph_upload(exec_h(exec), stream_ptsz(stream))
    }

    /// `cuGraphExecDestroy(CUgraphExec)`.
    fn cuGraphExecDestroy(exec: CUgraphExec) {
        drv()?.graph_exec_destroy(exec_h(exec))
    }

    /// `cuGraphExecGetFlags(CUgraphExec, cuuint64_t* flags)`.
    fn cuGraphExecGetFlags(exec: CUgraphExec, flags: *mut u64) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(flags) }?;
        out.write(drv()?.graph_exec_flags(exec_h(exec))?);
        Ok(())
    }

    /// `cuGraphExecGetId(CUgraphExec, unsigned* graphId)` (CUDA 13.1).
    fn cuGraphExecGetId(exec: CUgraphExec, id: *mut c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(id) }?;
        out.write(drv()?.graph_exec_id(exec_h(exec))?);
        Ok(())
    }

    /// `cuGraphExecKernelNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS_v1*)`.
    fn cuGraphExecKernelNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const KernelNodeParamsV1) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { kernel_params(&kernel_desc_v1(&read_in(p)?)) }?;
        exec_set(exec, node, params)
    }

    /// `cuGraphExecKernelNodeSetParams_v2(CUgraphExec, CUgraphNode, const CUDA_KERNEL_NODE_PARAMS*)`.
    fn cuGraphExecKernelNodeSetParams_v2(exec: CUgraphExec, node: CUgraphNode, p: *const KernelNodeParamsV2) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { kernel_params(&kernel_desc_v2(&read_in(p)?)) }?;
        exec_set(exec, node, params)
    }

    /// `cuGraphExecMemcpyNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_MEMCPY3D*, CUcontext)`.
    fn cuGraphExecMemcpyNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const CUDA_MEMCPY3D, ctx: CUcontext) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { memcpy_of(p, ctx_handle(ctx)) }?;
        exec_set(exec, node, params)
    }

    /// `cuGraphExecMemsetNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_MEMSET_NODE_PARAMS*, CUcontext)`.
    fn cuGraphExecMemsetNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const MemsetNodeParams, ctx: CUcontext) {
        // SAFETY: NULL or readable, per the API.
        let params = memset_of(&unsafe { read_in(p) }?, ctx_handle(ctx))?;
        exec_set(exec, node, params)
    }

    /// `cuGraphExecHostNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_HOST_NODE_PARAMS*)`.
    fn cuGraphExecHostNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const HostNodeParams) {
        // SAFETY: NULL or readable, per the API.
        let params = host_of(&unsafe { read_in(p) }?)?;
        exec_set(exec, node, params)
    }

    /// `cuGraphExecUpdate(CUgraphExec, CUgraph, CUgraphNode* hErrorNode_out,
    /// CUgraphExecUpdateResult* updateResult_out)`: the CUDA 10.2 to 11.x ABI, which
    /// NVIDIA's driver still exports under the plain name (CUDA 12 headers map the name to
    /// `_v2`). The same update; the node to blame (or NULL) and the result code go to two
    /// out-pointers instead of one record.
    fn cuGraphExecUpdate(exec: CUgraphExec, g: CUgraph, error_node: *mut CUgraphNode, result_out: *mut c_int) {
        // SAFETY: NULL or writable, per the API (treated as optional, as `_v2`'s record).
        let (error_node, result_out) = unsafe { (Out::optional(error_node), Out::optional(result_out)) };
        let (result, node) = drv()?.graph_exec_update(exec_h(exec), graph_h(g))?;
        if let Some(out) = error_node {
            out.write(node.map_or(null_mut(), |n| n.as_raw()));
        }
        if let Some(out) = result_out {
            out.write(result as c_int);
        }
        if result == UpdateResult::Success {
            Ok(())
        } else {
            Err(CuError::GRAPH_EXEC_UPDATE_FAILURE)
        }
    }

    /// `cuGraphExecUpdate_v2(CUgraphExec, CUgraph, CUgraphExecUpdateResultInfo*)`.
    fn cuGraphExecUpdate_v2(exec: CUgraphExec, g: CUgraph, info: *mut UpdateResultInfo) {
        // SAFETY: NULL or writable, per the API.
        // The result record is optional (NVIDIA's driver 580 answers success without it).
        let info = unsafe { Out::optional(info) };
        let (result, node) = drv()?.graph_exec_update(exec_h(exec), graph_h(g))?;
        if let Some(info) = info {
            info.write(UpdateResultInfo { result: result as c_int, error_node: node.map_or(null_mut(), |n| n.as_raw()), error_from_node: null_mut() });
        }
        if result == UpdateResult::Success {
            Ok(())
        } else {
            Err(CuError::GRAPH_EXEC_UPDATE_FAILURE)
        }
    }
}
