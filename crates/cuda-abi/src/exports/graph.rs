//! `cuGraph*`: graphs, nodes, edges, executable graphs (semantics in
//! `cuda_driver::graph`). The C parameter structures are read here, field by field, into
//! the driver's types; lists are returned with the driver API's query convention (NULL
//! array: the count only; otherwise at most `*num` entries, the rest of a larger array set
//! to NULL, and `*num` set to the number written).

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::null_mut;

use cuda_driver::graph::{HostParams, KernelNodeDesc, KernelParams, MemsetParams, NodeParams, NodeType, UpdateResult};
use cuda_driver::{CtxHandle, CuError, EventHandle, GraphExecHandle, GraphHandle, GraphNodeHandle};

use super::memcpy::memcpy3d_params;
use super::{ctx_handle, ctx_raw, drv, event_handle, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, slice, utf8, AbiResult, Out};
use crate::types::{CUcontext, CUevent, CUstream, CUDA_MEMCPY3D};

/// `CUgraph`, `CUgraphNode`, `CUgraphExec`: opaque pointers in C.
pub type CUgraph = *mut c_void;
pub type CUgraphNode = *mut c_void;
pub type CUgraphExec = *mut c_void;

/// `CUDA_KERNEL_NODE_PARAMS` (the CUDA 10 layout, 56 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct KernelNodeParamsV1 {
    pub func: *mut c_void,
    pub grid: [c_uint; 3],
    pub block: [c_uint; 3],
    pub shared_mem_bytes: c_uint,
    pub kernel_params: *mut *mut c_void,
    pub extra: *mut *mut c_void,
}

/// `CUDA_KERNEL_NODE_PARAMS_v2` / `_v3` (72 bytes).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct KernelNodeParamsV2 {
    pub base: KernelNodeParamsV1,
    pub kern: *mut c_void,
    pub ctx: CUcontext,
}

/// `CUDA_MEMSET_NODE_PARAMS` (40 bytes; `_v2` adds the context).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemsetNodeParams {
    pub dst: u64,
    pub pitch: usize,
    pub value: c_uint,
    pub element_size: c_uint,
    pub width: usize,
    pub height: usize,
}

/// `CUDA_HOST_NODE_PARAMS`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct HostNodeParams {
    pub func: Option<unsafe extern "C" fn(*mut c_void)>,
    pub user_data: *mut c_void,
}

/// `CUDA_GRAPH_INSTANTIATE_PARAMS`.
#[repr(C)]
pub struct InstantiateParams {
    pub flags: u64,
    pub upload_stream: CUstream,
    pub err_node_out: CUgraphNode,
    pub result_out: c_int,
}

/// `CUgraphExecUpdateResultInfo`.
#[repr(C)]
pub struct UpdateResultInfo {
    pub result: c_int,
    pub error_node: CUgraphNode,
    pub error_from_node: CUgraphNode,
}

/// `CUgraphNodeParams` (256 bytes): the type, then a union of the per-type structures.
#[repr(C)]
pub struct GraphNodeParams {
    pub type_: c_int,
    pub reserved0: [c_int; 3],
    pub union: [u64; 29],
    pub reserved2: i64,
}

/// `CUgraphEdgeData` (8 bytes): all zero is a default (full) dependency.
pub type EdgeData = u64;

const _: () = assert!(std::mem::size_of::<KernelNodeParamsV1>() == 56);
const _: () = assert!(std::mem::size_of::<KernelNodeParamsV2>() == 72);
const _: () = assert!(std::mem::size_of::<MemsetNodeParams>() == 40);
const _: () = assert!(std::mem::size_of::<InstantiateParams>() == 32);
const _: () = assert!(std::mem::size_of::<GraphNodeParams>() == 256);

fn graph_h(g: CUgraph) -> GraphHandle {
    GraphHandle::from_raw(g)
}
fn node_h(n: CUgraphNode) -> GraphNodeHandle {
    GraphNodeHandle::from_raw(n)
}
fn exec_h(e: CUgraphExec) -> GraphExecHandle {
    GraphExecHandle::from_raw(e)
}

/// A list of nodes given by the caller (NULL only when empty).
///
/// # Safety
/// `p` is NULL or readable for `n` handles.
unsafe fn nodes_in(p: *const CUgraphNode, n: usize) -> AbiResult<Vec<GraphNodeHandle>> {
    // SAFETY: forwarded contract.
    Ok(unsafe { slice(p, n) }?.iter().map(|&x| node_h(x)).collect())
}

/// Edge data given by the caller: NULL or all default dependencies, else not supported
/// (programmatic dependencies need ports this device does not have).
///
/// # Safety
/// `p` is NULL or readable for `n` entries.
unsafe fn check_edge_data(p: *const EdgeData, n: usize) -> AbiResult {
    if p.is_null() {
        return Ok(());
    }
    // SAFETY: forwarded contract.
    if unsafe { slice(p, n) }?.iter().any(|&e| e != 0) {
        crate::boundary::log(format_args!("graph edges with non-default edge data are not supported"));
        return Err(CuError::NOT_SUPPORTED);
    }
    Ok(())
}

/// Writes a list with the query convention of the module docs.
///
/// # Safety
/// `out` is NULL or writable for `*num` handles; `num` is NULL or readable and writable.
unsafe fn list_out(list: &[GraphNodeHandle], out: *mut CUgraphNode, edge_data: *mut EdgeData, num: *mut usize) -> AbiResult {
    // SAFETY: forwarded contract.
    let count = unsafe { Out::new(num) }?;
    if out.is_null() {
        count.write(list.len());
        return Ok(());
    }
    // SAFETY: readable, checked non-NULL above.
    let cap = unsafe { count.as_ptr().read_unaligned() };
    for i in 0..cap {
        // SAFETY: `out` (and `edge_data`, when given) hold `cap` entries (caller).
        unsafe {
            out.add(i).write_unaligned(list.get(i).map_or(null_mut(), |h| h.as_raw()));
            if !edge_data.is_null() {
                edge_data.add(i).write_unaligned(0);
            }
        }
    }
    count.write(cap.min(list.len()));
    Ok(())
}

/// # Safety
/// As [`list_out`], for both arrays of an edge list.
unsafe fn edges_out(g: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, edge_data: *mut EdgeData, num: *mut usize) -> AbiResult {
    let edges = drv()?.graph_edges(graph_h(g))?;
    // SAFETY: forwarded contract.
    let count = unsafe { Out::new(num) }?;
    match (from.is_null(), to.is_null()) {
        (true, true) => {
            count.write(edges.len());
            return Ok(());
        }
        (false, false) => {}
        _ => return Err(CuError::INVALID_VALUE),
    }
    // SAFETY: readable, checked non-NULL above.
    let cap = unsafe { count.as_ptr().read_unaligned() };
    for i in 0..cap {
        let (f, t) = edges.get(i).map_or((null_mut(), null_mut()), |(f, t)| (f.as_raw(), t.as_raw()));
        // SAFETY: the arrays hold `cap` entries (caller).
        unsafe {
            from.add(i).write_unaligned(f);
            to.add(i).write_unaligned(t);
            if !edge_data.is_null() {
                edge_data.add(i).write_unaligned(0);
            }
        }
    }
    count.write(cap.min(edges.len()));
    Ok(())
}

fn kernel_desc_v1(p: &KernelNodeParamsV1) -> KernelNodeDesc {
    KernelNodeDesc {
        func: p.func,
        kern: null_mut(),
        ctx: CtxHandle::NULL,
        grid: p.grid,
        block: p.block,
        shared_bytes: p.shared_mem_bytes,
        kernel_params: p.kernel_params,
        extra: p.extra,
    }
}

fn kernel_desc_v2(p: &KernelNodeParamsV2) -> KernelNodeDesc {
    let mut d = kernel_desc_v1(&p.base);
    d.kern = p.kern;
    d.ctx = ctx_handle(p.ctx);
    // Either field may hold the callee; the driver tells CUfunction and CUkernel apart.
    if !d.func.is_null() && !d.kern.is_null() {
        d.kern = null_mut();
    }
    d
}

/// # Safety
/// The argument pointers of `d` as `cuLaunchKernel` requires.
unsafe fn kernel_params(d: &KernelNodeDesc) -> AbiResult<NodeParams> {
    // SAFETY: forwarded contract.
    Ok(NodeParams::Kernel(unsafe { drv()?.kernel_params(d) }?))
}

fn kernel_v1_of(k: &KernelParams) -> KernelNodeParamsV1 {
    KernelNodeParamsV1 {
        func: k.function.as_raw(),
        grid: k.grid,
        block: k.block,
        shared_mem_bytes: k.shared_bytes,
        kernel_params: k.arg_pointers(),
        extra: null_mut(),
    }
}

fn kernel_of(n: CUgraphNode) -> AbiResult<KernelParams> {
    match drv()?.graph_node_params(node_h(n))? {
        NodeParams::Kernel(k) => Ok(k),
        _ => Err(CuError::INVALID_VALUE),
    }
}

fn memset_of(p: &MemsetNodeParams, ctx: CtxHandle) -> AbiResult<NodeParams> {
    let params = MemsetParams { dst: p.dst, pitch: p.pitch, value: p.value, element_size: p.element_size, width: p.width, height: p.height, ctx };
    Ok(NodeParams::Memset(drv()?.memset_params(params)?))
}

/// # Safety
/// `p` is NULL or readable, its host sides valid while the node can run.
unsafe fn memcpy_of(p: *const CUDA_MEMCPY3D, ctx: CtxHandle) -> AbiResult<NodeParams> {
    // SAFETY: forwarded contract.
    let copy = unsafe { memcpy3d_params(p) }?;
    Ok(NodeParams::Memcpy(drv()?.memcpy_params(&copy, ctx)?))
}

fn host_of(p: &HostNodeParams) -> AbiResult<NodeParams> {
    let func = p.func.ok_or(CuError::INVALID_VALUE)?;
    Ok(NodeParams::Host(HostParams { func, user_data: p.user_data as usize }))
}

fn event_node(e: CUevent, record: bool) -> AbiResult<NodeParams> {
    let e: EventHandle = event_handle(e);
    Ok(if record { NodeParams::EventRecord(e) } else { NodeParams::WaitEvent(e) })
}

/// `CUgraphNodeParams` -> the driver's parameters.
///
/// # Safety
/// `p` is NULL or readable; pointers inside as the per-type `Add` calls require.
unsafe fn node_params_of(p: *const GraphNodeParams) -> AbiResult<NodeParams> {
    if p.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: non-NULL and readable (caller); the union starts at offset 16.
    let u = unsafe { std::ptr::addr_of!((*p).union).cast::<u8>() };
    // SAFETY: as above.
    let ty = unsafe { (*p).type_ };
    // SAFETY (each read): the union is 232 readable bytes; each structure fits in it.
    unsafe {
        match ty {
            t if t == NodeType::Kernel as c_int => kernel_params(&kernel_desc_v2(&u.cast::<KernelNodeParamsV2>().read_unaligned())),
            t if t == NodeType::Memcpy as c_int => {
                // CUDA_MEMCPY_NODE_PARAMS: flags, reserved, copyCtx, copyParams.
                let ctx = ctx_handle(u.add(8).cast::<CUcontext>().read_unaligned());
                memcpy_of(u.add(16).cast::<CUDA_MEMCPY3D>(), ctx)
            }
            t if t == NodeType::Memset as c_int => {
                let m = u.cast::<MemsetNodeParams>().read_unaligned();
                memset_of(&m, ctx_handle(u.add(40).cast::<CUcontext>().read_unaligned()))
            }
            t if t == NodeType::Host as c_int => host_of(&u.cast::<HostNodeParams>().read_unaligned()),
            t if t == NodeType::Graph as c_int => {
                // CUDA_CHILD_GRAPH_NODE_PARAMS: graph, then (CUDA 12.9) the ownership,
                // CLONE (0) or MOVE (1).
                if u.add(8).cast::<c_uint>().read_unaligned() != 0 {
                    crate::boundary::log(format_args!("child graph nodes that take ownership (MOVE) are not supported"));
                    return Err(CuError::NOT_SUPPORTED);
                }
                Ok(NodeParams::Graph(graph_h(u.cast::<CUgraph>().read_unaligned())))
            }
            t if t == NodeType::Empty as c_int => Ok(NodeParams::Empty),
            t if t == NodeType::WaitEvent as c_int => event_node(u.cast::<CUevent>().read_unaligned(), false),
            t if t == NodeType::EventRecord as c_int => event_node(u.cast::<CUevent>().read_unaligned(), true),
            other => {
                crate::boundary::log(format_args!("graph nodes of type {other} are not supported"));
                Err(CuError::NOT_SUPPORTED)
            }
        }
    }
}

/// Adds a node and writes its handle.
///
/// # Safety
/// `out` is NULL or writable; `deps` NULL or readable for `n` handles.
unsafe fn add(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, params: impl FnOnce() -> AbiResult<NodeParams>) -> AbiResult {
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
        unsafe { add(out, g, deps, n, || node_params_of(p)) }
    }

    /// `cuGraphAddNode_v2(CUgraphNode*, CUgraph, const CUgraphNode*, const CUgraphEdgeData*, size_t, CUgraphNodeParams*)`.
    fn cuGraphAddNode_v2(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, edge_data: *const EdgeData, n: usize, p: *mut GraphNodeParams) {
        // SAFETY: pointers as the API documents.
        unsafe {
            check_edge_data(edge_data, n)?;
            add(out, g, deps, n, || node_params_of(p))
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

    /// `cuGraphExecUpdate_v2(CUgraphExec, CUgraph, CUgraphExecUpdateResultInfo*)`.
    fn cuGraphExecUpdate_v2(exec: CUgraphExec, g: CUgraph, info: *mut UpdateResultInfo) {
        // SAFETY: NULL or writable, per the API.
        let info = unsafe { Out::new(info) }?;
        let (result, node) = drv()?.graph_exec_update(exec_h(exec), graph_h(g))?;
        info.write(UpdateResultInfo { result: result as c_int, error_node: node.map_or(null_mut(), |n| n.as_raw()), error_from_node: null_mut() });
        if result == UpdateResult::Success {
            Ok(())
        } else {
            Err(CuError::GRAPH_EXEC_UPDATE_FAILURE)
        }
    }
}
