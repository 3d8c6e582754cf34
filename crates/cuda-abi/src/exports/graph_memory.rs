//! Graph memory nodes and the device's graph memory (`cuGraphAddMemAllocNode`,
//! `cuGraphAddMemFreeNode`, their `GetParams`, `cuDeviceGraphMemTrim`,
//! `cuDevice{Get,Set}GraphMemAttribute`); semantics in `cuda_driver::graph::memory`.

use std::ffi::{c_int, c_void};

use cuda_driver::graph::NodeParams;
use cuda_driver::CuError;

use super::drv;
use super::graph::add;
use super::graph_params::{node_h, CUgraph, CUgraphNode};
use crate::boundary::{export, read_in, AbiResult, Out};
use crate::types::{CUdeviceptr, CUmemPoolProps};

/// `CUDA_MEM_ALLOC_NODE_PARAMS` (v1).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct MemAllocNodeParams {
    pub pool_props: CUmemPoolProps,
    pub access_descs: *const c_void,
    pub access_desc_count: usize,
    pub bytesize: usize,
    pub dptr: CUdeviceptr,
}

const _: () = assert!(std::mem::size_of::<MemAllocNodeParams>() == 120);

/// `CU_MEM_LOCATION_TYPE_DEVICE` and `CU_MEM_ALLOCATION_TYPE_PINNED`.
const LOCATION_DEVICE: u32 = 1;
const ALLOCATION_PINNED: u32 = 1;

fn memory_node(n: CUgraphNode) -> AbiResult<NodeParams> {
    drv()?.graph_node_params(node_h(n))
}

/// `cuGraphAddMemAllocNode` (also `cuGraphAddNode` of an allocation node).
///
/// # Safety
/// As the API documents: `p` NULL or readable and writable, `deps` readable for `n`.
pub(super) unsafe fn add_alloc(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *mut MemAllocNodeParams) -> AbiResult {
    // SAFETY: NULL or valid, per the API.
    let params = unsafe { read_in(p) }?;
    let props = params.pool_props;
    if props.allocType != ALLOCATION_PINNED || props.location.kind != LOCATION_DEVICE as c_int || props.location.id < 0 {
        return Err(CuError::INVALID_VALUE);
    }
    let mut dptr = 0;
    // SAFETY: pointers as the API documents.
    unsafe {
        add(out, g, deps, n, || {
            let m = drv()?.graph_mem_alloc(params.bytesize, Some(props.location.id as usize))?;
            dptr = m.ptr;
            Ok(NodeParams::MemAlloc(m))
        })
    }?;
    // SAFETY: `p` was readable above and is the caller's to write (the API's out field).
    unsafe { std::ptr::addr_of_mut!((*p).dptr).write_unaligned(dptr) };
    Ok(())
}

/// An allocation node's `CUDA_MEM_ALLOC_NODE_PARAMS`.
pub(super) fn alloc_params(node: CUgraphNode) -> AbiResult<MemAllocNodeParams> {
    let NodeParams::MemAlloc(m) = memory_node(node)? else { return Err(CuError::INVALID_VALUE) };
    let mut props: CUmemPoolProps = unsafe_zeroed();
    props.allocType = ALLOCATION_PINNED;
    props.location.kind = LOCATION_DEVICE as c_int;
    props.location.id = m.device as c_int;
    Ok(MemAllocNodeParams { pool_props: props, access_descs: std::ptr::null(), access_desc_count: 0, bytesize: m.size, dptr: m.ptr })
}

export! {
    /// `cuGraphAddMemAllocNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t,
    /// CUDA_MEM_ALLOC_NODE_PARAMS*)`: writes the allocation's address to `dptr`.
    fn cuGraphAddMemAllocNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, p: *mut MemAllocNodeParams) {
        // SAFETY: forwarded contract.
        unsafe { add_alloc(out, g, deps, n, p) }
    }

    /// `cuGraphMemAllocNodeGetParams(CUgraphNode, CUDA_MEM_ALLOC_NODE_PARAMS*)`.
    fn cuGraphMemAllocNodeGetParams(node: CUgraphNode, p: *mut MemAllocNodeParams) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p) }?;
        out.write(alloc_params(node)?);
        Ok(())
    }

    /// `cuGraphAddMemFreeNode(CUgraphNode*, CUgraph, const CUgraphNode*, size_t, CUdeviceptr)`.
    fn cuGraphAddMemFreeNode(out: *mut CUgraphNode, g: CUgraph, deps: *const CUgraphNode, n: usize, dptr: CUdeviceptr) {
        // SAFETY: pointers as the API documents.
        unsafe { add(out, g, deps, n, || Ok(NodeParams::MemFree(drv()?.graph_mem_free_target(dptr)?))) }
    }

    /// `cuGraphMemFreeNodeGetParams(CUgraphNode, CUdeviceptr*)`.
    fn cuGraphMemFreeNodeGetParams(node: CUgraphNode, dptr: *mut CUdeviceptr) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dptr) }?;
        let NodeParams::MemFree(ptr) = memory_node(node)? else { return Err(CuError::INVALID_VALUE) };
        out.write(ptr);
        Ok(())
    }

    /// `cuDeviceGraphMemTrim(CUdevice)`.
    fn cuDeviceGraphMemTrim(dev: c_int) {
        drv()?.graph_mem_trim(usize::try_from(dev).map_err(|_| CuError::INVALID_DEVICE)?)
    }

    /// `cuDeviceGetGraphMemAttribute(CUdevice, CUgraphMem_attribute, void*)`: a `cuuint64_t`.
    fn cuDeviceGetGraphMemAttribute(dev: c_int, attr: c_int, value: *mut c_void) {
        // SAFETY: NULL or writable for a cuuint64_t, per the API.
        let out = unsafe { Out::new(value.cast::<u64>()) }?;
        out.write(drv()?.graph_mem_attribute(usize::try_from(dev).map_err(|_| CuError::INVALID_DEVICE)?, attr)?);
        Ok(())
    }

    /// `cuDeviceSetGraphMemAttribute(CUdevice, CUgraphMem_attribute, void*)`: resets a high watermark.
    fn cuDeviceSetGraphMemAttribute(dev: c_int, attr: c_int, value: *mut c_void) {
        // SAFETY: NULL or readable for a cuuint64_t, per the API.
        let v = unsafe { read_in(value.cast::<u64>().cast_const()) }?;
        drv()?.graph_mem_reset_high(usize::try_from(dev).map_err(|_| CuError::INVALID_DEVICE)?, attr, v)
    }
}

/// An all-zero `CUmemPoolProps`.
fn unsafe_zeroed() -> CUmemPoolProps {
    // SAFETY: every field of the C structure is an integer, a raw pointer or bytes, for
    // which all-zero is a valid value.
    unsafe { std::mem::zeroed() }
}
