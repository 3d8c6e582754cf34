//! Graph nodes the runtime builds from its own structures and names beyond the basics
//! in `graph.rs`: 3D and symbol memcpy nodes and their setters, event record/wait node
//! events, child graphs, the parameter getters whose structures are the driver's, and
//! `cudaGraphInstantiateWithParams`, `cudaGraphExecGetFlags`, `cudaGraphDebugDotPrint`.

use std::ffi::{c_char, c_int, c_uint, c_void};
use std::ptr::null_mut;

use super::api;
use super::graph::{add_node, current_ctx, memcpy_1d, read, HostNodeParams, MemsetParams};
use super::memcpy::kind_of;
use super::memcpy3d::{descriptor, Memcpy3DParms};
use super::symbol::copy_range;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUevent, CUgraph, CUgraphExec, CUgraphNode};
use crate::error::CudaError;

/// `CU_STREAM_PER_THREAD`.
const PER_THREAD_STREAM: u64 = 2;

/// The device range of a symbol memcpy node's copy (`to`: into the symbol).
fn symbol_range(symbol: *const c_void, count: usize, offset: usize, kind: c_int, to: bool) -> RtResult<*mut c_void> {
    copy_range(symbol, count, offset, kind, to).map(|(range, _)| range)
}

export! {
    fn cudaGraphAddMemcpyNode(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const Memcpy3DParms) {
        let copy = descriptor(&read(p)?)?;
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above; the caller's dependency list.
        add_node(node, |api, out| unsafe { api.cuGraphAddMemcpyNode(out, graph, deps, n, std::ptr::addr_of!(copy).cast(), ctx) })
    }

    fn cudaGraphMemcpyNodeSetParams(node: CUgraphNode, p: *const Memcpy3DParms) {
        let copy = descriptor(&read(p)?)?;
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphMemcpyNodeSetParams(node, std::ptr::addr_of!(copy).cast()) }
    }

    fn cudaGraphExecMemcpyNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const Memcpy3DParms) {
        let copy = descriptor(&read(p)?)?;
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphExecMemcpyNodeSetParams(exec, node, std::ptr::addr_of!(copy).cast(), ctx) }
    }

    fn cudaGraphMemcpyNodeSetParams1D(node: CUgraphNode, dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) {
        kind_of(kind)?;
        let copy = memcpy_1d(dst, src, count);
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphMemcpyNodeSetParams(node, std::ptr::addr_of!(copy).cast()) }
    }

    fn cudaGraphExecMemcpyNodeSetParams1D(exec: CUgraphExec, node: CUgraphNode, dst: *mut c_void, src: *const c_void, count: usize, kind: c_int) {
        kind_of(kind)?;
        let copy = memcpy_1d(dst, src, count);
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphExecMemcpyNodeSetParams(exec, node, std::ptr::addr_of!(copy).cast(), ctx) }
    }

    fn cudaGraphAddMemcpyNodeToSymbol(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) {
        let copy = memcpy_1d(symbol_range(symbol, count, offset, kind, true)?, src, count);
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above; the caller's dependency list.
        add_node(node, |api, out| unsafe { api.cuGraphAddMemcpyNode(out, graph, deps, n, std::ptr::addr_of!(copy).cast(), ctx) })
    }

    fn cudaGraphAddMemcpyNodeFromSymbol(node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) {
        let copy = memcpy_1d(dst, symbol_range(symbol, count, offset, kind, false)?, count);
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above; the caller's dependency list.
        add_node(node, |api, out| unsafe { api.cuGraphAddMemcpyNode(out, graph, deps, n, std::ptr::addr_of!(copy).cast(), ctx) })
    }

    fn cudaGraphMemcpyNodeSetParamsToSymbol(node: CUgraphNode, symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) {
        let copy = memcpy_1d(symbol_range(symbol, count, offset, kind, true)?, src, count);
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphMemcpyNodeSetParams(node, std::ptr::addr_of!(copy).cast()) }
    }

    fn cudaGraphMemcpyNodeSetParamsFromSymbol(node: CUgraphNode, dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) {
        let copy = memcpy_1d(dst, symbol_range(symbol, count, offset, kind, false)?, count);
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphMemcpyNodeSetParams(node, std::ptr::addr_of!(copy).cast()) }
    }

    fn cudaGraphExecMemcpyNodeSetParamsToSymbol(exec: CUgraphExec, node: CUgraphNode, symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) {
        let copy = memcpy_1d(symbol_range(symbol, count, offset, kind, true)?, src, count);
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphExecMemcpyNodeSetParams(exec, node, std::ptr::addr_of!(copy).cast(), ctx) }
    }

    fn cudaGraphExecMemcpyNodeSetParamsFromSymbol(exec: CUgraphExec, node: CUgraphNode, dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) {
        let copy = memcpy_1d(dst, symbol_range(symbol, count, offset, kind, false)?, count);
        let ctx = current_ctx()?;
        // SAFETY: a CUDA_MEMCPY3D built above.
        unsafe { api()?.cuGraphExecMemcpyNodeSetParams(exec, node, std::ptr::addr_of!(copy).cast(), ctx) }
    }

    fn cudaGraphMemsetNodeGetParams(node: CUgraphNode, p: *mut MemsetParams) {
        // SAFETY: the caller's out-pointer.
        let out = unsafe { Out::new(p) }?;
        let mut params = MemsetParams { dst: null_mut(), pitch: 0, value: 0, element_size: 0, width: 0, height: 0 };
        // SAFETY: MemsetParams has CUDA_MEMSET_NODE_PARAMS's layout.
        unsafe { api()?.cuGraphMemsetNodeGetParams(node, std::ptr::addr_of_mut!(params).cast()) }?;
        out.write(params);
        Ok(())
    }

    fn cudaGraphHostNodeGetParams(node: CUgraphNode, p: *mut HostNodeParams) {
        // SAFETY: the caller's out-pointer.
        let out = unsafe { Out::new(p) }?;
        let mut params = HostNodeParams { func: None, user_data: null_mut() };
        // SAFETY: HostNodeParams has CUDA_HOST_NODE_PARAMS's layout.
        unsafe { api()?.cuGraphHostNodeGetParams(node, std::ptr::addr_of_mut!(params).cast()) }?;
        out.write(params);
        Ok(())
    }

    fn cudaGraphChildGraphNodeGetGraph(node: CUgraphNode, graph: *mut CUgraph) {
        // SAFETY: the caller's out-pointer; the driver checks the node.
        unsafe { api()?.cuGraphChildGraphNodeGetGraph(node, graph) }
    }

    fn cudaGraphEventRecordNodeGetEvent(node: CUgraphNode, event: *mut CUevent) {
        // SAFETY: the caller's out-pointer; the driver checks the node.
        unsafe { api()?.cuGraphEventRecordNodeGetEvent(node, event) }
    }

    fn cudaGraphEventRecordNodeSetEvent(node: CUgraphNode, event: CUevent) {
        // SAFETY: the driver checks both handles.
        unsafe { api()?.cuGraphEventRecordNodeSetEvent(node, event) }
    }

    fn cudaGraphEventWaitNodeGetEvent(node: CUgraphNode, event: *mut CUevent) {
        // SAFETY: the caller's out-pointer; the driver checks the node.
        unsafe { api()?.cuGraphEventWaitNodeGetEvent(node, event) }
    }

    fn cudaGraphEventWaitNodeSetEvent(node: CUgraphNode, event: CUevent) {
        // SAFETY: the driver checks both handles.
        unsafe { api()?.cuGraphEventWaitNodeSetEvent(node, event) }
    }

    fn cudaGraphExecGetFlags(exec: CUgraphExec, flags: *mut u64) {
        // SAFETY: the caller's out-pointer; the driver checks the executable graph.
        unsafe { api()?.cuGraphExecGetFlags(exec, flags) }
    }

    fn cudaGraphDebugDotPrint(graph: CUgraph, path: *const c_char, flags: c_uint) {
        // SAFETY: the caller's NUL-terminated path; the driver checks the graph.
        unsafe { api()?.cuGraphDebugDotPrint(graph, path, flags) }
    }

    /// `cudaGraphInstantiateParams` has `CUDA_GRAPH_INSTANTIATE_PARAMS`'s layout; the
    /// result codes (`cudaGraphInstantiateResult`) are the driver's.
    fn cudaGraphInstantiateWithParams(exec: *mut CUgraphExec, graph: CUgraph, params: *mut c_void) {
        if params.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        // SAFETY: the caller's out-pointer and parameter structure.
        unsafe { api()?.cuGraphInstantiateWithParams(exec, graph, params) }
    }

    fn cudaGraphInstantiateWithParams_ptsz(exec: *mut CUgraphExec, graph: CUgraph, params: *mut c_void) {
        if params.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        // The upload stream (word 1) names the per-thread default stream when it is 0.
        // SAFETY: the caller's 32-byte parameter structure.
        let given = unsafe { params.cast::<[u64; 4]>().read_unaligned() };
        let mut words = given;
        if words[1] == 0 {
            words[1] = PER_THREAD_STREAM;
        }
        // SAFETY: the caller's out-pointer; a copy of the caller's structure.
        let r = unsafe { api()?.cuGraphInstantiateWithParams(exec, graph, words.as_mut_ptr().cast()) };
        // The error node and result (words 2 and 3) go back to the caller.
        // SAFETY: as above.
        unsafe { params.cast::<[u64; 4]>().write_unaligned([given[0], given[1], words[2], words[3]]) };
        r
    }
}
