//! External semaphores and their graph nodes (`cuImportExternalSemaphore`,
//! `cuSignalExternalSemaphoresAsync`, `cuWaitExternalSemaphoresAsync`,
//! `cuDestroyExternalSemaphore`, `cuGraphAddExternalSemaphores{Signal,Wait}Node` and their
//! `Get`/`Set`/`Exec` parameter calls); semantics in `cuda_driver::extsem`.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::extsem::{handle_type, SemOp};
use cuda_driver::graph::{NodeParams, SemNodeParams};
use cuda_driver::{CuError, ExtSemHandle};

use super::graph::add;
use super::graph_params::*;
use super::{drv, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, slice, AbiResult, Out};
use crate::types::CUstream;

/// `CUexternalSemaphore`.
pub type CUexternalSemaphore = *mut c_void;

/// `CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC` (96 bytes): the type, a union (an fd, a Win32
/// handle and name, an NvSciSync object), flags.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct SemHandleDesc {
    pub type_: c_uint,
    pub pad: c_uint,
    pub handle: [u64; 2],
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}

/// `CUDA_EXT_SEM_SIGNAL_NODE_PARAMS` / `..._WAIT_...` (and their `_v2`, the same layout).
#[repr(C)]
#[derive(Clone, Copy)]
pub struct SemNodeParamsC {
    pub sems: *const CUexternalSemaphore,
    pub params: *const SemOp,
    pub count: c_uint,
}

const _: () = assert!(std::mem::size_of::<SemHandleDesc>() == 96);
const _: () = assert!(std::mem::size_of::<SemNodeParamsC>() == 24);

/// The semaphores and operations of a call.
///
/// # Safety
/// `sems` and `ops` NULL or readable for `n` entries.
unsafe fn lists(sems: *const CUexternalSemaphore, ops: *const SemOp, n: c_uint) -> AbiResult<(Vec<ExtSemHandle>, Vec<SemOp>)> {
    if n > 0 && (sems.is_null() || ops.is_null()) {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: forwarded contract.
    let sems = unsafe { slice(sems, n as usize) }?.iter().map(|&s| ExtSemHandle::from_raw(s)).collect();
    // SAFETY: forwarded contract.
    let ops = unsafe { slice(ops, n as usize) }?.to_vec();
    Ok((sems, ops))
}

/// A node's parameters from the C structure.
///
/// # Safety
/// `p` NULL or readable, its arrays as [`lists`] requires.
pub(super) unsafe fn sem_node_of(p: *const SemNodeParamsC, signal: bool) -> AbiResult<NodeParams> {
    // SAFETY: forwarded contract.
    let p = unsafe { read_in(p) }?;
    // SAFETY: forwarded contract.
    let (sems, ops) = unsafe { lists(p.sems, p.params, p.count) }?;
    let node = drv()?.sem_node_params(&sems, &ops)?;
    Ok(if signal { NodeParams::ExtSemSignal(node) } else { NodeParams::ExtSemWait(node) })
}

/// The C structure of a node's parameters: its arrays are the node's.
pub(super) fn sem_node_c(p: &SemNodeParams) -> SemNodeParamsC {
    SemNodeParamsC { sems: p.sems.as_ptr().cast(), params: p.ops.as_ptr(), count: p.sems.len() as c_uint }
}

fn get(node: CUgraphNode, out: *mut SemNodeParamsC, signal: bool) -> AbiResult {
    // SAFETY: NULL or writable, per the API.
    let out = unsafe { Out::new(out) }?;
    match drv()?.graph_node_params(node_h(node))? {
        NodeParams::ExtSemSignal(p) if signal => out.write(sem_node_c(&p)),
        NodeParams::ExtSemWait(p) if !signal => out.write(sem_node_c(&p)),
        _ => return Err(CuError::INVALID_VALUE),
    }
    Ok(())
}

/// # Safety
/// As [`lists`].
unsafe fn async_ops(sems: *const CUexternalSemaphore, ops: *const SemOp, n: c_uint, stream: cuda_driver::StreamHandle, signal: bool) -> AbiResult {
    // SAFETY: forwarded contract.
    let (sems, ops) = unsafe { lists(sems, ops, n) }?;
    drv()?.ext_sems_async(&sems, &ops, signal, stream)
}

export! {
    /// `cuImportExternalSemaphore(CUexternalSemaphore* extSem_out, const CUDA_EXTERNAL_SEMAPHORE_HANDLE_DESC*)`.
    fn cuImportExternalSemaphore(out: *mut CUexternalSemaphore, desc: *const SemHandleDesc) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, desc) = unsafe { (Out::new(out)?, read_in(desc)?) };
        let h = match desc.type_ {
            handle_type::OPAQUE_FD | handle_type::TIMELINE_SEMAPHORE_FD => drv()?.import_ext_sem_fd(desc.type_, desc.handle[0] as c_int, desc.flags)?,
            other => drv()?.import_ext_sem_other(other)?,
        };
        out.write(h.as_raw());
        Ok(())
    }

    /// `cuDestroyExternalSemaphore(CUexternalSemaphore)`.
    fn cuDestroyExternalSemaphore(sem: CUexternalSemaphore) {
        drv()?.destroy_ext_sem(ExtSemHandle::from_raw(sem))
    }

    /// `cuSignalExternalSemaphoresAsync(const CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_SIGNAL_PARAMS*, unsigned, CUstream)`.
    fn cuSignalExternalSemaphoresAsync(sems: *const CUexternalSemaphore, ops: *const SemOp, n: c_uint, s: CUstream) {
        // SAFETY: pointers as the API documents.
        unsafe { async_ops(sems, ops, n, stream_handle(s), true) }
    }
    fn cuSignalExternalSemaphoresAsync_ptsz(sems: *const CUexternalSemaphore, ops: *const SemOp, n: c_uint, s: CUstream) {
        // SAFETY: pointers as the API documents.
        unsafe { async_ops(sems, ops, n, stream_ptsz(s), true) }
    }

    /// `cuWaitExternalSemaphoresAsync(const CUexternalSemaphore*, const CUDA_EXTERNAL_SEMAPHORE_WAIT_PARAMS*, unsigned, CUstream)`.
    fn cuWaitExternalSemaphoresAsync(sems: *const CUexternalSemaphore, ops: *const SemOp, n: c_uint, s: CUstream) {
        // SAFETY: pointers as the API documents.
        unsafe { async_ops(sems, ops, n, stream_handle(s), false) }
    }
    fn cuWaitExternalSemaphoresAsync_ptsz(sems: *const CUexternalSemaphore, ops: *const SemOp, n: c_uint, s: CUstream) {
        // SAFETY: pointers as the API documents.
        unsafe { async_ops(sems, ops, n, stream_ptsz(s), false) }
    }

    /// `cuGraphAddExternalSemaphoresSignalNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS*)`.
    fn cuGraphAddExternalSemaphoresSignalNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *const SemNodeParamsC) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || sem_node_of(p, true)) }
    }

    /// `cuGraphAddExternalSemaphoresWaitNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, const CUDA_EXT_SEM_WAIT_NODE_PARAMS*)`.
    fn cuGraphAddExternalSemaphoresWaitNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *const SemNodeParamsC) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || sem_node_of(p, false)) }
    }

    /// `cuGraphExternalSemaphoresSignalNodeGetParams(CUgraphNode, CUDA_EXT_SEM_SIGNAL_NODE_PARAMS*)`:
    /// the arrays are the node's, valid while it keeps these parameters.
    fn cuGraphExternalSemaphoresSignalNodeGetParams(node: CUgraphNode, out: *mut SemNodeParamsC) {
        get(node, out, true)
    }

    /// `cuGraphExternalSemaphoresWaitNodeGetParams(CUgraphNode, CUDA_EXT_SEM_WAIT_NODE_PARAMS*)`.
    fn cuGraphExternalSemaphoresWaitNodeGetParams(node: CUgraphNode, out: *mut SemNodeParamsC) {
        get(node, out, false)
    }

    /// `cuGraphExternalSemaphoresSignalNodeSetParams(CUgraphNode, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS*)`.
    fn cuGraphExternalSemaphoresSignalNodeSetParams(node: CUgraphNode, p: *const SemNodeParamsC) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { sem_node_of(p, true) }?;
        drv()?.graph_node_set_params(node_h(node), params)
    }

    /// `cuGraphExternalSemaphoresWaitNodeSetParams(CUgraphNode, const CUDA_EXT_SEM_WAIT_NODE_PARAMS*)`.
    fn cuGraphExternalSemaphoresWaitNodeSetParams(node: CUgraphNode, p: *const SemNodeParamsC) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { sem_node_of(p, false) }?;
        drv()?.graph_node_set_params(node_h(node), params)
    }

    /// `cuGraphExecExternalSemaphoresSignalNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_EXT_SEM_SIGNAL_NODE_PARAMS*)`.
    fn cuGraphExecExternalSemaphoresSignalNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const SemNodeParamsC) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { sem_node_of(p, true) }?;
        drv()?.graph_exec_set_node_params(exec_h(exec), node_h(node), params)
    }

    /// `cuGraphExecExternalSemaphoresWaitNodeSetParams(CUgraphExec, CUgraphNode, const CUDA_EXT_SEM_WAIT_NODE_PARAMS*)`.
    fn cuGraphExecExternalSemaphoresWaitNodeSetParams(exec: CUgraphExec, node: CUgraphNode, p: *const SemNodeParamsC) {
        // SAFETY: pointers as the API documents.
        let params = unsafe { sem_node_of(p, false) }?;
        drv()?.graph_exec_set_node_params(exec_h(exec), node_h(node), params)
    }
}
