//! The C parameter structures of the `cuGraph*` calls and their conversion into the
//! driver's types (`graph.rs` holds the entry points), and the list-query convention of
//! the driver API (NULL array: the count only; otherwise at most `*num` entries, the rest
//! of a larger array set to NULL, and `*num` set to the number written).

use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use cuda_driver::graph::{HostParams, KernelNodeDesc, KernelParams, MemsetParams, NodeParams, NodeType};
use cuda_driver::{CtxHandle, CuError, EventHandle, GraphExecHandle, GraphHandle, GraphNodeHandle};

use super::memcpy::memcpy3d_params;
use super::{ctx_handle, drv, event_handle};
use crate::boundary::{slice, AbiResult, Out};
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

pub(crate) fn graph_h(g: CUgraph) -> GraphHandle {
    GraphHandle::from_raw(g)
}
pub(crate) fn node_h(n: CUgraphNode) -> GraphNodeHandle {
    GraphNodeHandle::from_raw(n)
}
pub(crate) fn exec_h(e: CUgraphExec) -> GraphExecHandle {
    GraphExecHandle::from_raw(e)
}

/// A list of nodes given by the caller (NULL only when empty).
///
/// # Safety
/// `p` is NULL or readable for `n` handles.
pub(crate) unsafe fn nodes_in(p: *const CUgraphNode, n: usize) -> AbiResult<Vec<GraphNodeHandle>> {
    // SAFETY: forwarded contract.
    Ok(unsafe { slice(p, n) }?.iter().map(|&x| node_h(x)).collect())
}

/// Edge data given by the caller: NULL or all default dependencies, else not supported
/// (programmatic dependencies need ports this device does not have).
///
/// # Safety
/// `p` is NULL or readable for `n` entries.
pub(crate) unsafe fn check_edge_data(p: *const EdgeData, n: usize) -> AbiResult {
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
pub(crate) unsafe fn list_out(list: &[GraphNodeHandle], out: *mut CUgraphNode, edge_data: *mut EdgeData, num: *mut usize) -> AbiResult {
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
pub(crate) unsafe fn edges_out(g: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, edge_data: *mut EdgeData, num: *mut usize) -> AbiResult {
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

pub(crate) fn kernel_desc_v1(p: &KernelNodeParamsV1) -> KernelNodeDesc {
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

pub(crate) fn kernel_desc_v2(p: &KernelNodeParamsV2) -> KernelNodeDesc {
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
pub(crate) unsafe fn kernel_params(d: &KernelNodeDesc) -> AbiResult<NodeParams> {
    // SAFETY: forwarded contract.
    Ok(NodeParams::Kernel(unsafe { drv()?.kernel_params(d) }?))
}

pub(crate) fn kernel_v1_of(k: &KernelParams) -> KernelNodeParamsV1 {
    KernelNodeParamsV1 {
        func: k.function.as_raw(),
        grid: k.grid,
        block: k.block,
        shared_mem_bytes: k.shared_bytes,
        kernel_params: k.arg_pointers(),
        extra: null_mut(),
    }
}

pub(crate) fn kernel_of(n: CUgraphNode) -> AbiResult<KernelParams> {
    match drv()?.graph_node_params(node_h(n))? {
        NodeParams::Kernel(k) => Ok(k),
        _ => Err(CuError::INVALID_VALUE),
    }
}

pub(crate) fn memset_of(p: &MemsetNodeParams, ctx: CtxHandle) -> AbiResult<NodeParams> {
    let params = MemsetParams { dst: p.dst, pitch: p.pitch, value: p.value, element_size: p.element_size, width: p.width, height: p.height, ctx };
    Ok(NodeParams::Memset(drv()?.memset_params(params)?))
}

/// # Safety
/// `p` is NULL or readable, its host sides valid while the node can run.
pub(crate) unsafe fn memcpy_of(p: *const CUDA_MEMCPY3D, ctx: CtxHandle) -> AbiResult<NodeParams> {
    // SAFETY: forwarded contract.
    let copy = unsafe { memcpy3d_params(p) }?;
    Ok(NodeParams::Memcpy(drv()?.memcpy_params(&copy, ctx)?))
}

pub(crate) fn host_of(p: &HostNodeParams) -> AbiResult<NodeParams> {
    let func = p.func.ok_or(CuError::INVALID_VALUE)?;
    Ok(NodeParams::Host(HostParams { func, user_data: p.user_data as usize }))
}

pub(crate) fn event_node(e: CUevent, record: bool) -> AbiResult<NodeParams> {
    let e: EventHandle = event_handle(e);
    Ok(if record { NodeParams::EventRecord(e) } else { NodeParams::WaitEvent(e) })
}

/// `CUgraphNodeParams` -> the driver's parameters.
///
/// # Safety
/// `p` is NULL or readable; pointers inside as the per-type `Add` calls require.
pub(crate) unsafe fn node_params_of(p: *const GraphNodeParams) -> AbiResult<NodeParams> {
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
            t if t == NodeType::ExtSemasSignal as c_int => super::extsem::sem_node_of(u.cast(), true),
            t if t == NodeType::ExtSemasWait as c_int => super::extsem::sem_node_of(u.cast(), false),
            other => {
                crate::boundary::log(format_args!("graph nodes of type {other} are not supported"));
                Err(CuError::NOT_SUPPORTED)
            }
        }
    }
}
