//! Graphs and stream capture: `cudaGraph*`, `cudaStreamBeginCapture`/`EndCapture`/
//! `IsCapturing`/`GetCaptureInfo`, `cudaThreadExchangeStreamCaptureMode`. Thin wrappers
//! over the driver's `cuGraph*`/`cuStream*Capture*`; the runtime's node parameter
//! structures become the driver's (kernel nodes name the host stub registered by
//! `__cudaRegisterFunction`, as `cudaLaunchKernel` does, and become a `CUkernel`).

use std::ffi::{c_int, c_uint, c_void};
use std::ptr::{null, null_mut};

use super::api;
use super::stream;
use crate::abi::loaded_as_cuda12;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{Api, CUcontext, CUdeviceptr, CUgraph, CUgraphExec, CUgraphNode, CUstream};
use crate::error::CudaError;
use crate::launch_config::Dim3;
use crate::registry;
use crate::runtime::runtime;

/// `cudaKernelNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct KernelNodeParams {
    pub func: *const c_void,
    pub grid: Dim3,
    pub block: Dim3,
    pub shared_mem_bytes: c_uint,
    pub kernel_params: *mut *mut c_void,
    pub extra: *mut *mut c_void,
}

/// `CUDA_KERNEL_NODE_PARAMS_v2`, what the driver takes.
#[repr(C)]
pub(super) struct DriverKernelParams {
    func: *mut c_void,
    grid: [c_uint; 3],
    block: [c_uint; 3],
    shared_mem_bytes: c_uint,
    kernel_params: *mut *mut c_void,
    extra: *mut *mut c_void,
    kern: *mut c_void,
    ctx: CUcontext,
}

/// `cudaMemsetParams` (the layout of the driver's `CUDA_MEMSET_NODE_PARAMS`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct MemsetParams {
    pub dst: *mut c_void,
    pub pitch: usize,
    pub value: c_uint,
    pub element_size: c_uint,
    pub width: usize,
    pub height: usize,
}

/// `cudaHostNodeParams` (the layout of the driver's `CUDA_HOST_NODE_PARAMS`).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct HostNodeParams {
    pub func: Option<unsafe extern "C" fn(*mut c_void)>,
    pub user_data: *mut c_void,
}

/// `CUDA_MEMCPY3D` (200 bytes), for 1D memcpy nodes.
#[repr(C)]
pub(super) struct Memcpy3D {
    words: [u64; 25],
}

const _: () = assert!(std::mem::size_of::<KernelNodeParams>() == 56);
const _: () = assert!(std::mem::size_of::<DriverKernelParams>() == 72);
const _: () = assert!(std::mem::size_of::<MemsetParams>() == 40);

pub(super) fn current_ctx() -> RtResult<CUcontext> {
    runtime()?.context()
}

pub(super) fn driver_kernel(p: &KernelNodeParams) -> RtResult<DriverKernelParams> {
    let kern = registry::function(p.func)?.kernel()?;
    Ok(DriverKernelParams {
        func: null_mut(),
        grid: [p.grid.x, p.grid.y, p.grid.z],
        block: [p.block.x, p.block.y, p.block.z],
        shared_mem_bytes: p.shared_mem_bytes,
        kernel_params: p.kernel_params,
        extra: p.extra,
        kern,
        ctx: current_ctx()?,
    })
}

/// Reads a required input structure.
pub(super) fn read<T: Copy>(p: *const T) -> RtResult<T> {
    if p.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL; the caller's structure, per the API.
    Ok(unsafe { p.read_unaligned() })
}

/// Adds a node through `add` and writes its handle.
pub(super) fn add_node(out: *mut CUgraphNode, add: impl FnOnce(&Api, *mut CUgraphNode) -> RtResult) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(out) }?;
    let mut node = null_mut();
    add(api()?, &mut node)?;
    out.write(node);
    Ok(())
}

/// A 1D copy as a `CUDA_MEMCPY3D` between unified addresses.
pub(super) fn memcpy_1d(dst: *mut c_void, src: *const c_void, count: usize) -> Memcpy3D {
    const UNIFIED: u64 = 4;
    let mut w = [0u64; 25];
    // Field word indices of CUDA_MEMCPY3D: srcMemoryType 4, srcDevice 6, srcPitch 9,
    // dstMemoryType 15, dstDevice 17, dstPitch 20, WidthInBytes 22, Height 23, Depth 24.
    w[4] = UNIFIED;
    w[6] = src as u64;
    w[9] = count as u64;
    w[15] = UNIFIED;
    w[17] = dst as u64;
    w[20] = count as u64;
    w[22] = count as u64;
    w[23] = 1;
    w[24] = 1;
    Memcpy3D { words: w }
}

fn instantiate(out: *mut CUgraphExec, graph: CUgraph, flags: u64) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(out) }?;
    let mut exec = null_mut();
    // SAFETY: valid out-pointer; the driver checks the graph.
    unsafe { api()?.cuGraphInstantiateWithFlags(&mut exec, graph, flags) }?;
    out.write(exec);
    Ok(())
}

fn capture_info(
    s: CUstream,
    status: *mut c_int,
    id: *mut u64,
    graph: *mut CUgraph,
    deps: *mut *const CUgraphNode,
    edges: *mut *const c_void,
    n: *mut usize,
) -> RtResult {
    if status.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: the caller's pointers (NULL or writable), passed on as the driver documents.
    unsafe { api()?.cuStreamGetCaptureInfo(s, status, id, graph, deps, edges, n) }
}

/// Edge data given by the caller: NULL or default edges only (programmatic dependencies
/// are not supported).
pub(super) fn default_edges(edge_data: *const u64, n: usize) -> RtResult {
    if edge_data.is_null() || n == 0 {
        return Ok(());
    }
    // SAFETY: `n` readable entries (caller).
    if unsafe { std::slice::from_raw_parts(edge_data, n) }.iter().any(|&e| e != 0) {
        return Err(CudaError::NOT_SUPPORTED);
    }
    Ok(())
}

/// Fills the edge data of a list query: every edge is a default one (all zero).
fn zero_edges(count_only: bool, edge_data: *mut u64, n: *mut usize) -> RtResult {
    if count_only || edge_data.is_null() || n.is_null() {
        return Ok(());
    }
    // SAFETY: the driver wrote `*n` entries; the caller's edge array has room for them.
    unsafe { std::slice::from_raw_parts_mut(edge_data, n.read()).fill(0) };
    Ok(())
}

/// `cudaGraphExecUpdateResultInfo` / the driver's `CUgraphExecUpdateResultInfo`.
#[repr(C)]
pub struct UpdateResultInfo {
    pub result: c_int,
    pub error_node: CUgraphNode,
    pub error_from_node: CUgraphNode,
}

export! {
    fn cudaGraphCreate(graph: *mut CUgraph, flags: c_uint) {
        let out = Out::new(graph)?;
        let mut g = null_mut();
        // SAFETY: valid out-pointer.
        unsafe { api()?.cuGraphCreate(&mut g, flags) }?;
        out.write(g);
        Ok(())
    }

    fn cudaGraphDestroy(graph: CUgraph) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuGraphDestroy(graph) }
    }

    fn cudaGraphAddKernelNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const KernelNodeParams) {
        let params = driver_kernel(&read(p)?)?;
        // SAFETY: a CUDA_KERNEL_NODE_PARAMS_v2 built above; the caller's dependency list.
        add_node(node, |api, out| unsafe { api.cuGraphAddKernelNode(out, graph, deps, n, std::ptr::addr_of!(params).cast()) })
    }

    fn cudaGraphKernelNodeSetParams(node: CUgraphNode, p: *const KernelNodeParams) {
        let params = driver_kernel(&read(p)?)?;
        // SAFETY: as cudaGraphAddKernelNode.
        unsafe { api()?.cuGraphKernelNodeSetParams(node, std::ptr::addr_of!(params).cast()) }
    }

    fn cudaGraphExecKernelNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const KernelNodeParams) {
        let params = driver_kernel(&read(p)?)?;
        // SAFETY: as cudaGraphAddKernelNode.
        unsafe { api()?.cuGraphExecKernelNodeSetParams(exec, node, std::ptr::addr_of!(params).cast()) }
    }

    fn cudaGraphAddMemcpyNode1D(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) {
        super::memcpy::kind_of(kind)?;
        let copy = memcpy_1d(dst, src, count);
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above; the caller's pointers and dependency list.
        add_node(node, |api, out| unsafe { api.cuGraphAddMemcpyNode(out, graph, deps, n, std::ptr::addr_of!(copy).cast(), ctx) })
    }

    fn cudaGraphAddMemsetNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const MemsetParams) {
        let params = read(p)?;
        let ctx = current_ctx()?;
        // SAFETY: the same layout as CUDA_MEMSET_NODE_PARAMS.
        add_node(node, |api, out| unsafe { api.cuGraphAddMemsetNode(out, graph, deps, n, std::ptr::addr_of!(params).cast(), ctx) })
    }

    fn cudaGraphMemsetNodeSetParams(node: CUgraphNode, p: *const MemsetParams) {
        let params = read(p)?;
        // SAFETY: the same layout as CUDA_MEMSET_NODE_PARAMS.
        unsafe { api()?.cuGraphMemsetNodeSetParams(node, std::ptr::addr_of!(params).cast()) }
    }

    fn cudaGraphExecMemsetNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const MemsetParams) {
        let params = read(p)?;
        let ctx = current_ctx()?;
        // SAFETY: the same layout as CUDA_MEMSET_NODE_PARAMS.
        unsafe { api()?.cuGraphExecMemsetNodeSetParams(exec, node, std::ptr::addr_of!(params).cast(), ctx) }
    }

    fn cudaGraphHostNodeSetParams(node: CUgraphNode, p: *const HostNodeParams) {
        let params = read(p)?;
        // SAFETY: the same layout as CUDA_HOST_NODE_PARAMS.
        unsafe { api()?.cuGraphHostNodeSetParams(node, std::ptr::addr_of!(params).cast()) }
    }

    fn cudaGraphExecHostNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const HostNodeParams) {
        let params = read(p)?;
        // SAFETY: the same layout as CUDA_HOST_NODE_PARAMS.
        unsafe { api()?.cuGraphExecHostNodeSetParams(exec, node, std::ptr::addr_of!(params).cast()) }
    }

    fn cudaGraphAddHostNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const HostNodeParams) {
        let params = read(p)?;
        // SAFETY: the same layout as CUDA_HOST_NODE_PARAMS.
        add_node(node, |api, out| unsafe { api.cuGraphAddHostNode(out, graph, deps, n, std::ptr::addr_of!(params).cast()) })
    }

    fn cudaGraphAddEmptyNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize) {
        // SAFETY: the caller's dependency list.
        add_node(node, |api, out| unsafe { api.cuGraphAddEmptyNode(out, graph, deps, n) })
    }

    /// An allocation node; writes the memory's address to `params->dptr`.
    fn cudaGraphAddMemAllocNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, params: *mut c_void) {
        // SAFETY: the caller's dependency list and parameters (the driver's layout).
        add_node(node, |api, out| unsafe { api.cuGraphAddMemAllocNode(out, graph, deps, n, params) })
    }

    fn cudaGraphMemAllocNodeGetParams(node: CUgraphNode, params: *mut c_void) {
        // SAFETY: the driver checks the node and the out-pointer.
        unsafe { api()?.cuGraphMemAllocNodeGetParams(node, params) }
    }

    fn cudaGraphAddMemFreeNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, dptr: *mut c_void) {
        // SAFETY: the caller's dependency list.
        add_node(node, |api, out| unsafe { api.cuGraphAddMemFreeNode(out, graph, deps, n, dptr as CUdeviceptr) })
    }

    /// Writes the node's address to `*dptr` (a `void *`).
    fn cudaGraphMemFreeNodeGetParams(node: CUgraphNode, dptr: *mut c_void) {
        // SAFETY: the driver checks the node and the out-pointer.
        unsafe { api()?.cuGraphMemFreeNodeGetParams(node, dptr.cast()) }
    }

    fn cudaDeviceGraphMemTrim(device: c_int) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: a device of this runtime.
        unsafe { rt.api().cuDeviceGraphMemTrim(dev) }
    }

    fn cudaDeviceGetGraphMemAttribute(device: c_int, attr: c_int, value: *mut c_void) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: the driver checks the out-pointer.
        unsafe { rt.api().cuDeviceGetGraphMemAttribute(dev, attr, value) }
    }

    fn cudaDeviceSetGraphMemAttribute(device: c_int, attr: c_int, value: *mut c_void) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: the driver checks the pointer.
        unsafe { rt.api().cuDeviceSetGraphMemAttribute(dev, attr, value) }
    }

    fn cudaGraphAddChildGraphNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, child: CUgraph) {
        // SAFETY: the caller's dependency list; the driver checks the handles.
        add_node(node, |api, out| unsafe { api.cuGraphAddChildGraphNode(out, graph, deps, n, child) })
    }

    fn cudaGraphAddEventRecordNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: *mut c_void) {
        // SAFETY: the caller's dependency list; the driver checks the handles.
        add_node(node, |api, out| unsafe { api.cuGraphAddEventRecordNode(out, graph, deps, n, event) })
    }

    fn cudaGraphAddEventWaitNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: *mut c_void) {
        // SAFETY: the caller's dependency list; the driver checks the handles.
        add_node(node, |api, out| unsafe { api.cuGraphAddEventWaitNode(out, graph, deps, n, event) })
    }

    /// CUDA 13's signature (edge data; only default edges).
    fn cudaGraphAddDependencies(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edge_data: *const u64, n: usize) {
        // CUDA 12: (graph, from, to, numDependencies); the count arrives as edge_data.
        let (edge_data, n) = if loaded_as_cuda12() { (null(), edge_data as usize) } else { (edge_data, n) };
        default_edges(edge_data, n)?;
        // SAFETY: the caller's lists.
        unsafe { api()?.cuGraphAddDependencies(graph, from, to, n) }
    }

    /// CUDA 13's signature (edge data; only default edges).
    fn cudaGraphRemoveDependencies(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edge_data: *const u64, n: usize) {
        // CUDA 12: (graph, from, to, numDependencies).
        let (edge_data, n) = if loaded_as_cuda12() { (null(), edge_data as usize) } else { (edge_data, n) };
        default_edges(edge_data, n)?;
        // SAFETY: the caller's lists.
        unsafe { api()?.cuGraphRemoveDependencies(graph, from, to, n) }
    }

    fn cudaGraphGetNodes(graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphGetNodes(graph, nodes, n) }
    }

    fn cudaGraphGetRootNodes(graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphGetRootNodes(graph, nodes, n) }
    }

    /// CUDA 13's signature (edge data, all default edges here).
    fn cudaGraphGetEdges(graph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, edge_data: *mut u64, n: *mut usize) {
        // CUDA 12: (graph, from, to, numEdges).
        let (edge_data, n) = if loaded_as_cuda12() { (null_mut(), edge_data.cast::<usize>()) } else { (edge_data, n) };
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphGetEdges(graph, from, to, n) }?;
        zero_edges(from.is_null(), edge_data, n)
    }

    /// `cudaGraphNodeType` has the driver's values.
    fn cudaGraphNodeGetType(node: CUgraphNode, ty: *mut c_int) {
        let out = Out::new(ty)?;
        let mut t = 0;
        // SAFETY: valid out-pointer.
        unsafe { api()?.cuGraphNodeGetType(node, &mut t) }?;
        out.write(t);
        Ok(())
    }

    /// CUDA 13's signature (edge data, all default edges here).
    fn cudaGraphNodeGetDependencies(node: CUgraphNode, deps: *mut CUgraphNode, edge_data: *mut u64, n: *mut usize) {
        // CUDA 12: (node, dependencies, numDependencies).
        let (edge_data, n) = if loaded_as_cuda12() { (null_mut(), edge_data.cast::<usize>()) } else { (edge_data, n) };
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphNodeGetDependencies(node, deps, n) }?;
        zero_edges(deps.is_null(), edge_data, n)
    }

    /// CUDA 13's signature (edge data, all default edges here).
    fn cudaGraphNodeGetDependentNodes(node: CUgraphNode, deps: *mut CUgraphNode, edge_data: *mut u64, n: *mut usize) {
        // CUDA 12: (node, dependentNodes, numDependentNodes).
        let (edge_data, n) = if loaded_as_cuda12() { (null_mut(), edge_data.cast::<usize>()) } else { (edge_data, n) };
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphNodeGetDependentNodes(node, deps, n) }?;
        zero_edges(deps.is_null(), edge_data, n)
    }

    /// CUDA 12.3 to 12.9 headers' edge-data form (CUDA 13 gave the plain name this
    /// signature): the same call whichever runtime version the program sees.
    fn cudaGraphAddDependencies_v2(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edge_data: *const u64, n: usize) {
        default_edges(edge_data, n)?;
        // SAFETY: the caller's lists.
        unsafe { api()?.cuGraphAddDependencies(graph, from, to, n) }
    }

    fn cudaGraphRemoveDependencies_v2(graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, edge_data: *const u64, n: usize) {
        default_edges(edge_data, n)?;
        // SAFETY: the caller's lists.
        unsafe { api()?.cuGraphRemoveDependencies(graph, from, to, n) }
    }

    fn cudaGraphGetEdges_v2(graph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, edge_data: *mut u64, n: *mut usize) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphGetEdges(graph, from, to, n) }?;
        zero_edges(from.is_null(), edge_data, n)
    }

    fn cudaGraphNodeGetDependencies_v2(node: CUgraphNode, deps: *mut CUgraphNode, edge_data: *mut u64, n: *mut usize) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphNodeGetDependencies(node, deps, n) }?;
        zero_edges(deps.is_null(), edge_data, n)
    }

    fn cudaGraphNodeGetDependentNodes_v2(node: CUgraphNode, deps: *mut CUgraphNode, edge_data: *mut u64, n: *mut usize) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuGraphNodeGetDependentNodes(node, deps, n) }?;
        zero_edges(deps.is_null(), edge_data, n)
    }

    fn cudaGraphClone(clone: *mut CUgraph, graph: CUgraph) {
        let out = Out::new(clone)?;
        let mut g = null_mut();
        // SAFETY: valid out-pointer.
        unsafe { api()?.cuGraphClone(&mut g, graph) }?;
        out.write(g);
        Ok(())
    }

    fn cudaGraphNodeFindInClone(node: *mut CUgraphNode, original: CUgraphNode, clone: CUgraph) {
        let out = Out::new(node)?;
        let mut n = null_mut();
        // SAFETY: valid out-pointer.
        unsafe { api()?.cuGraphNodeFindInClone(&mut n, original, clone) }?;
        out.write(n);
        Ok(())
    }

    fn cudaGraphDestroyNode(node: CUgraphNode) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuGraphDestroyNode(node) }
    }

    /// `cudaGraphInstantiate(cudaGraphExec_t*, cudaGraph_t, unsigned long long flags)` (CUDA 12+).
    fn cudaGraphInstantiate(exec: *mut CUgraphExec, graph: CUgraph, flags: u64) {
        instantiate(exec, graph, flags)
    }

    fn cudaGraphInstantiateWithFlags(exec: *mut CUgraphExec, graph: CUgraph, flags: u64) {
        instantiate(exec, graph, flags)
    }

    fn cudaGraphLaunch(exec: CUgraphExec, s: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphLaunch(exec, stream(s, false)) }
    }

    fn cudaGraphLaunch_ptsz(exec: CUgraphExec, s: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphLaunch(exec, stream(s, true)) }
    }

    fn cudaGraphUpload(exec: CUgraphExec, s: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphUpload(exec, stream(s, false)) }
    }

    fn cudaGraphUpload_ptsz(exec: CUgraphExec, s: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphUpload(exec, stream(s, true)) }
    }

    fn cudaGraphExecDestroy(exec: CUgraphExec) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuGraphExecDestroy(exec) }
    }

    /// `cudaGraphExecUpdate(cudaGraphExec_t, cudaGraph_t, cudaGraphExecUpdateResultInfo*)` (CUDA 12+).
    fn cudaGraphExecUpdate(exec: CUgraphExec, graph: CUgraph, info: *mut UpdateResultInfo) {
        if info.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        // SAFETY: the same layout as CUgraphExecUpdateResultInfo, writable (caller).
        unsafe { api()?.cuGraphExecUpdate(exec, graph, info.cast()) }
    }

    fn cudaStreamBeginCapture(s: *mut c_void, mode: c_int) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuStreamBeginCapture(stream(s, false), mode) }
    }

    fn cudaStreamBeginCapture_ptsz(s: *mut c_void, mode: c_int) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuStreamBeginCapture(stream(s, true), mode) }
    }

    /// NULL `graph`: the driver decides (a capture into an existing graph returns none).
    fn cudaStreamEndCapture(s: *mut c_void, graph: *mut CUgraph) {
        // SAFETY: NULL or writable (caller); the driver writes NULL when it returns no graph.
        unsafe { api()?.cuStreamEndCapture(stream(s, false), graph) }
    }

    fn cudaStreamEndCapture_ptsz(s: *mut c_void, graph: *mut CUgraph) {
        // SAFETY: as cudaStreamEndCapture.
        unsafe { api()?.cuStreamEndCapture(stream(s, true), graph) }
    }

    fn cudaStreamIsCapturing(s: *mut c_void, status: *mut c_int) {
        let out = Out::new(status)?;
        let mut v = 0;
        // SAFETY: valid out-pointer.
        unsafe { api()?.cuStreamIsCapturing(stream(s, false), &mut v) }?;
        out.write(v);
        Ok(())
    }

    fn cudaStreamIsCapturing_ptsz(s: *mut c_void, status: *mut c_int) {
        let out = Out::new(status)?;
        let mut v = 0;
        // SAFETY: valid out-pointer.
        unsafe { api()?.cuStreamIsCapturing(stream(s, true), &mut v) }?;
        out.write(v);
        Ok(())
    }

    /// `cudaStreamGetCaptureInfo` with CUDA 13's signature (that of `_v3` in CUDA 12.3+).
    fn cudaStreamGetCaptureInfo(s: *mut c_void, status: *mut c_int, id: *mut u64, graph: *mut CUgraph, deps: *mut *const CUgraphNode, edges: *mut *const c_void, n: *mut usize) {
        if loaded_as_cuda12() {
            // CUDA 12: (stream, captureStatus, id); the other registers hold garbage.
            return capture_info(stream(s, false), status, id, null_mut(), null_mut(), null_mut(), null_mut());
        }
        capture_info(stream(s, false), status, id, graph, deps, edges, n)
    }

    fn cudaStreamGetCaptureInfo_ptsz(s: *mut c_void, status: *mut c_int, id: *mut u64, graph: *mut CUgraph, deps: *mut *const CUgraphNode, edges: *mut *const c_void, n: *mut usize) {
        if loaded_as_cuda12() {
            return capture_info(stream(s, true), status, id, null_mut(), null_mut(), null_mut(), null_mut());
        }
        capture_info(stream(s, true), status, id, graph, deps, edges, n)
    }

    fn cudaStreamGetCaptureInfo_v3(s: *mut c_void, status: *mut c_int, id: *mut u64, graph: *mut CUgraph, deps: *mut *const CUgraphNode, edges: *mut *const c_void, n: *mut usize) {
        capture_info(stream(s, false), status, id, graph, deps, edges, n)
    }

    /// `cudaStreamGetCaptureInfo_v2` (CUDA 11.3-12.x): without edge data.
    fn cudaStreamGetCaptureInfo_v2(s: *mut c_void, status: *mut c_int, id: *mut u64, graph: *mut CUgraph, deps: *mut *const CUgraphNode, n: *mut usize) {
        capture_info(stream(s, false), status, id, graph, deps, null_mut(), n)
    }

    fn cudaThreadExchangeStreamCaptureMode(mode: *mut c_int) {
        if mode.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        // SAFETY: readable and writable (caller).
        unsafe { api()?.cuThreadExchangeStreamCaptureMode(mode) }
    }
}
