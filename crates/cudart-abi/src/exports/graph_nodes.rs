//! The generic node calls (`cudaGraphAddNode`, `cudaGraphNodeSetParams`,
//! `cudaGraphExecNodeSetParams`), conditional handles, capture into an existing graph,
//! enabled nodes, kernel node attributes, the executable-graph setters of child graph and
//! event nodes, and user objects: wrappers over the driver's calls of the same names.
//!
//! `cudaGraphNodeParams` and the driver's `CUgraphNodeParams` are both 256 bytes, a type
//! and a union whose members have the same layouts, except kernel nodes (the runtime's
//! `func` is a host stub, the driver's is a `CUkernel`), memcpy nodes (a
//! `cudaMemcpy3DParms` and no context against a context and a `CUDA_MEMCPY3D`), and memset
//! and conditional nodes, which carry no context in the runtime's (CUDA 13.0) layout: those
//! are rebuilt, the context being the current one.

use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use super::api;
use super::graph::{driver_kernel, KernelNodeParams};
use super::memcpy3d::{descriptor, Memcpy3DParms};
use super::stream;
use crate::abi::loaded_as_cuda12;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUcontext, CUgraph, CUgraphExec, CUgraphNode};
use crate::error::CudaError;
use crate::runtime::runtime;

/// `cudaGraphNodeParams` / `CUgraphNodeParams`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct GraphNodeParams {
    pub type_: c_int,
    pub reserved0: [c_int; 3],
    pub union: [u64; 29],
    pub reserved2: i64,
}

const _: () = assert!(std::mem::size_of::<GraphNodeParams>() == 256);

/// `cudaGraphNodeType` values that need a conversion.
const KERNEL: c_int = 0;
const MEMCPY: c_int = 1;
const MEMSET: c_int = 2;
const MEM_ALLOC: c_int = 10;
const CONDITIONAL: c_int = 13;

fn current_ctx() -> RtResult<CUcontext> {
    runtime()?.context()
}

/// The driver's parameters for the runtime's `p`.
fn to_driver(p: *const GraphNodeParams) -> RtResult<GraphNodeParams> {
    if p.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL; the caller's structure, per the API.
    let rt = unsafe { p.read_unaligned() };
    let mut d = rt;
    let u = d.union.as_mut_ptr().cast::<u8>();
    let src = rt.union.as_ptr().cast::<u8>();
    // SAFETY (each access): both unions hold 232 bytes; every structure fits in them.
    unsafe {
        match rt.type_ {
            KERNEL => {
                let k = driver_kernel(&src.cast::<KernelNodeParams>().read_unaligned())?;
                d.union = [0; 29];
                u.cast::<super::graph::DriverKernelParams>().write_unaligned(k);
            }
            MEMCPY => {
                // cudaMemcpyNodeParams: flags, reserved[3], copyParams; the driver's:
                // flags, reserved, copyCtx, copyParams (a CUDA_MEMCPY3D).
                let copy = descriptor(&src.add(16).cast::<Memcpy3DParms>().read_unaligned())?;
                d.union = [0; 29];
                u.cast::<c_int>().write_unaligned(src.cast::<c_int>().read_unaligned());
                u.add(8).cast::<CUcontext>().write_unaligned(current_ctx()?);
                u.add(16).cast::<crate::driver::CudaMemcpy3D>().write_unaligned(copy);
            }
            MEMSET => u.add(40).cast::<CUcontext>().write_unaligned(current_ctx()?),
            CONDITIONAL => u.add(24).cast::<CUcontext>().write_unaligned(current_ctx()?),
            _ => {}
        }
    }
    Ok(d)
}

/// What the driver wrote into its parameters that the runtime's caller reads back: a
/// conditional node's body graphs, an allocation node's address.
fn copy_back(d: &GraphNodeParams, p: *mut GraphNodeParams) {
    let word = match d.type_ {
        CONDITIONAL => 2, // phGraph_out, at byte 16
        MEM_ALLOC => 14,  // dptr, at byte 112
        _ => return,
    };
    // SAFETY: the caller's structure (readable above), whose out fields the API fills.
    unsafe { std::ptr::addr_of_mut!((*p).union).cast::<u64>().add(word).write_unaligned(d.union[word]) };
}

fn add_node(out: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, edges: *const c_void, n: usize, p: *mut GraphNodeParams) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(out) }?;
    let mut d = to_driver(p)?;
    let mut node = null_mut();
    // SAFETY: the caller's dependency list and edge data; parameters built above.
    unsafe { api()?.cuGraphAddNode(&mut node, graph, deps, edges, n, std::ptr::addr_of_mut!(d).cast()) }?;
    copy_back(&d, p);
    out.write(node);
    Ok(())
}

fn update_capture(s: *mut c_void, deps: *const CUgraphNode, edges: *const u64, n: usize, flags: c_uint, per_thread: bool) -> RtResult {
    super::graph::default_edges(edges, n)?;
    // SAFETY: the caller's dependency list.
    unsafe { api()?.cuStreamUpdateCaptureDependencies(stream(s, per_thread), deps, n, flags) }
}

fn capture_to_graph(
    s: *mut c_void,
    graph: CUgraph,
    deps: *const CUgraphNode,
    edges: *const c_void,
    n: usize,
    mode: c_int,
    per_thread: bool,
) -> RtResult {
    // SAFETY: the caller's dependency list and edge data.
    unsafe { api()?.cuStreamBeginCaptureToGraph(stream(s, per_thread), graph, deps, edges, n, mode) }
}

export! {
    fn cudaGraphConditionalHandleCreate(out: *mut u64, graph: CUgraph, default: c_uint, flags: c_uint) {
        let out = Out::new(out)?;
        let mut h = 0;
        // SAFETY: valid out-pointer; the driver checks the graph.
        unsafe { api()?.cuGraphConditionalHandleCreate(&mut h, graph, current_ctx()?, default, flags) }?;
        out.write(h);
        Ok(())
    }

    /// CUDA 13's signature (edge data); CUDA 12.2's had none.
    fn cudaGraphAddNode(out: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, edges: *const c_void, n: usize, p: *mut GraphNodeParams) {
        // CUDA 12: (pGraphNode, graph, pDependencies, numDependencies, nodeParams).
        if loaded_as_cuda12() {
            return add_node(out, graph, deps, std::ptr::null(), edges as usize, n as *mut GraphNodeParams);
        }
        add_node(out, graph, deps, edges, n, p)
    }

    /// CUDA 12.3 to 12.9 headers' edge-data form.
    fn cudaGraphAddNode_v2(out: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, edges: *const c_void, n: usize, p: *mut GraphNodeParams) {
        add_node(out, graph, deps, edges, n, p)
    }

    fn cudaGraphNodeSetParams(node: CUgraphNode, p: *mut GraphNodeParams) {
        let mut d = to_driver(p)?;
        // SAFETY: parameters built above.
        unsafe { api()?.cuGraphNodeSetParams(node, std::ptr::addr_of_mut!(d).cast()) }
    }

    fn cudaGraphExecNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *mut GraphNodeParams) {
        let mut d = to_driver(p)?;
        // SAFETY: parameters built above.
        unsafe { api()?.cuGraphExecNodeSetParams(exec, node, std::ptr::addr_of_mut!(d).cast()) }
    }

    fn cudaStreamBeginCaptureToGraph(s: *mut c_void, graph: CUgraph, deps: *const CUgraphNode, edges: *const c_void, n: usize, mode: c_int) {
        capture_to_graph(s, graph, deps, edges, n, mode, false)
    }

    fn cudaStreamBeginCaptureToGraph_ptsz(s: *mut c_void, graph: CUgraph, deps: *const CUgraphNode, edges: *const c_void, n: usize, mode: c_int) {
        capture_to_graph(s, graph, deps, edges, n, mode, true)
    }

    /// CUDA 13's signature (edge data, default edges only).
    fn cudaStreamUpdateCaptureDependencies(s: *mut c_void, deps: *const CUgraphNode, edges: *const u64, n: usize, flags: c_uint) {
        // CUDA 12: (stream, dependencies, numDependencies, flags).
        if loaded_as_cuda12() {
            return update_capture(s, deps, std::ptr::null(), edges as usize, n as c_uint, false);
        }
        update_capture(s, deps, edges, n, flags, false)
    }

    fn cudaStreamUpdateCaptureDependencies_ptsz(s: *mut c_void, deps: *const CUgraphNode, edges: *const u64, n: usize, flags: c_uint) {
        if loaded_as_cuda12() {
            return update_capture(s, deps, std::ptr::null(), edges as usize, n as c_uint, true);
        }
        update_capture(s, deps, edges, n, flags, true)
    }

    /// CUDA 12.3 to 12.9 headers' edge-data form.
    fn cudaStreamUpdateCaptureDependencies_v2(s: *mut c_void, deps: *const CUgraphNode, edges: *const u64, n: usize, flags: c_uint) {
        update_capture(s, deps, edges, n, flags, false)
    }

    fn cudaStreamUpdateCaptureDependencies_v2_ptsz(s: *mut c_void, deps: *const CUgraphNode, edges: *const u64, n: usize, flags: c_uint) {
        update_capture(s, deps, edges, n, flags, true)
    }

    fn cudaGraphNodeSetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: c_uint) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphNodeSetEnabled(exec, node, enabled) }
    }

    fn cudaGraphNodeGetEnabled(exec: CUgraphExec, node: CUgraphNode, enabled: *mut c_uint) {
        let out = Out::new(enabled)?;
        let mut v = 0;
        // SAFETY: valid out-pointer; the driver checks the handles.
        unsafe { api()?.cuGraphNodeGetEnabled(exec, node, &mut v) }?;
        out.write(v);
        Ok(())
    }

    /// `cudaKernelNodeAttrValue` is the driver's `CUkernelNodeAttrValue` (64 bytes).
    fn cudaGraphKernelNodeGetAttribute(node: CUgraphNode, id: c_int, value: *mut c_void) {
        // SAFETY: the caller's 64-byte value, per the API.
        unsafe { api()?.cuGraphKernelNodeGetAttribute(node, id, value) }
    }

    fn cudaGraphKernelNodeSetAttribute(node: CUgraphNode, id: c_int, value: *const c_void) {
        // SAFETY: as above.
        unsafe { api()?.cuGraphKernelNodeSetAttribute(node, id, value) }
    }

    /// CUDA 13's argument order is (dst, src), the driver's.
    fn cudaGraphKernelNodeCopyAttributes(dst: CUgraphNode, src: CUgraphNode) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphKernelNodeCopyAttributes(dst, src) }
    }

    fn cudaGraphExecChildGraphNodeSetParams(exec: CUgraphExec, node: CUgraphNode, child: CUgraph) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphExecChildGraphNodeSetParams(exec, node, child) }
    }

    fn cudaGraphExecEventRecordNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphExecEventRecordNodeSetEvent(exec, node, event) }
    }

    fn cudaGraphExecEventWaitNodeSetEvent(exec: CUgraphExec, node: CUgraphNode, event: *mut c_void) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphExecEventWaitNodeSetEvent(exec, node, event) }
    }

    fn cudaUserObjectCreate(out: *mut *mut c_void, ptr: *mut c_void, destroy: Option<crate::driver::CUhostFn>, initial: c_uint, flags: c_uint) {
        let out = Out::new(out)?;
        let mut o = null_mut();
        // SAFETY: valid out-pointer; the caller's destructor and its argument.
        unsafe { api()?.cuUserObjectCreate(&mut o, ptr, destroy, initial, flags) }?;
        out.write(o);
        Ok(())
    }

    fn cudaUserObjectRetain(object: *mut c_void, count: c_uint) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuUserObjectRetain(object, count) }
    }

    fn cudaUserObjectRelease(object: *mut c_void, count: c_uint) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuUserObjectRelease(object, count) }
    }

    fn cudaGraphRetainUserObject(graph: CUgraph, object: *mut c_void, count: c_uint, flags: c_uint) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphRetainUserObject(graph, object, count, flags) }
    }

    fn cudaGraphReleaseUserObject(graph: CUgraph, object: *mut c_void, count: c_uint) {
        // SAFETY: the driver checks the handles.
        unsafe { api()?.cuGraphReleaseUserObject(graph, object, count) }
    }
}
