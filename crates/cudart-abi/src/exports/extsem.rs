//! External semaphores and their graph nodes: the runtime's structures
//! (`cudaExternalSemaphoreHandleDesc`, `cudaExternalSemaphoreSignalParams`/`WaitParams`,
//! `cudaExternalSemaphoreSignalNodeParams`/`WaitNodeParams` and their `V2`) have the
//! driver's layouts and its handle type values, so every call forwards its arguments.

use std::ffi::{c_uint, c_void};
use std::ptr::null_mut;

use super::api;
use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{Api, CUgraph, CUgraphExec, CUgraphNode};

fn add(out: *mut CUgraphNode, add: impl FnOnce(&Api, *mut CUgraphNode) -> RtResult) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(out) }?;
    let mut node = null_mut();
    add(api()?, &mut node)?;
    out.write(node);
    Ok(())
}

export! {
    fn cudaImportExternalSemaphore(out: *mut *mut c_void, desc: *const c_void) {
        let out = Out::new(out)?;
        let mut sem = null_mut();
        // SAFETY: valid out-pointer; the caller's descriptor (the driver's layout).
        unsafe { api()?.cuImportExternalSemaphore(&mut sem, desc) }?;
        out.write(sem);
        Ok(())
    }

    fn cudaDestroyExternalSemaphore(sem: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuDestroyExternalSemaphore(sem) }
    }

    fn cudaSignalExternalSemaphoresAsync(sems: *const *mut c_void, params: *const c_void, n: c_uint, s: *mut c_void) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuSignalExternalSemaphoresAsync(sems, params, n, stream(s, false)) }
    }

    fn cudaSignalExternalSemaphoresAsync_ptsz(sems: *const *mut c_void, params: *const c_void, n: c_uint, s: *mut c_void) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuSignalExternalSemaphoresAsync(sems, params, n, stream(s, true)) }
    }

    fn cudaWaitExternalSemaphoresAsync(sems: *const *mut c_void, params: *const c_void, n: c_uint, s: *mut c_void) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuWaitExternalSemaphoresAsync(sems, params, n, stream(s, false)) }
    }

    fn cudaWaitExternalSemaphoresAsync_ptsz(sems: *const *mut c_void, params: *const c_void, n: c_uint, s: *mut c_void) {
        // SAFETY: the caller's arrays, per the API.
        unsafe { api()?.cuWaitExternalSemaphoresAsync(sems, params, n, stream(s, true)) }
    }

    fn cudaGraphAddExternalSemaphoresSignalNode(out: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const c_void) {
        // SAFETY: the caller's dependency list and parameters.
        add(out, |api, node| unsafe { api.cuGraphAddExternalSemaphoresSignalNode(node, graph, deps, n, p) })
    }

    fn cudaGraphAddExternalSemaphoresWaitNode(out: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, p: *const c_void) {
        // SAFETY: the caller's dependency list and parameters.
        add(out, |api, node| unsafe { api.cuGraphAddExternalSemaphoresWaitNode(node, graph, deps, n, p) })
    }

    fn cudaGraphExternalSemaphoresSignalNodeGetParams(node: CUgraphNode, out: *mut c_void) {
        // SAFETY: the driver checks the node and the out-pointer.
        unsafe { api()?.cuGraphExternalSemaphoresSignalNodeGetParams(node, out) }
    }

    fn cudaGraphExternalSemaphoresWaitNodeGetParams(node: CUgraphNode, out: *mut c_void) {
        // SAFETY: the driver checks the node and the out-pointer.
        unsafe { api()?.cuGraphExternalSemaphoresWaitNodeGetParams(node, out) }
    }

    fn cudaGraphExternalSemaphoresSignalNodeSetParams(node: CUgraphNode, p: *const c_void) {
        // SAFETY: the caller's parameters.
        unsafe { api()?.cuGraphExternalSemaphoresSignalNodeSetParams(node, p) }
    }

    fn cudaGraphExternalSemaphoresWaitNodeSetParams(node: CUgraphNode, p: *const c_void) {
        // SAFETY: the caller's parameters.
        unsafe { api()?.cuGraphExternalSemaphoresWaitNodeSetParams(node, p) }
    }

    fn cudaGraphExecExternalSemaphoresSignalNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const c_void) {
        // SAFETY: the caller's parameters.
        unsafe { api()?.cuGraphExecExternalSemaphoresSignalNodeSetParams(exec, node, p) }
    }

    fn cudaGraphExecExternalSemaphoresWaitNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const c_void) {
        // SAFETY: the caller's parameters.
        unsafe { api()?.cuGraphExecExternalSemaphoresWaitNodeSetParams(exec, node, p) }
    }
}
