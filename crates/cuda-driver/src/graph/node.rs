//! What a graph node does: its parameters, as the `cuGraphAdd*Node` calls give them and the
//! `cuGraph*NodeGetParams` calls return them (CUDA driver API, "Graph Management").
//!
//! Parameters are kept as descriptions, not as prepared work: a memcpy or memset node is
//! checked against the allocation registry when it is added (so a bad node fails its
//! `Add` call, as NVIDIA's does) and again at every launch (memory freed since then fails
//! the launch instead of touching unmapped memory).

use std::ffi::c_void;
use std::sync::Arc;

use backend_api::DevicePtr;

use crate::copy::CudaMemcpy3D;
use crate::diag::fail;
use crate::function::Function;
use crate::handle::{kind_of, Kind};
use crate::{CtxHandle, CuError, CuResult, Driver, EventHandle, FunctionHandle, GraphHandle, KernelHandle};

/// `CUgraphNodeType`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(u32)]
pub enum NodeType {
    Kernel = 0,
    Memcpy = 1,
    Memset = 2,
    Host = 3,
    Graph = 4,
    Empty = 5,
    WaitEvent = 6,
    EventRecord = 7,
    ExtSemasSignal = 8,
    ExtSemasWait = 9,
    MemAlloc = 10,
    MemFree = 11,
    Conditional = 13,
}

/// A kernel node: the callee, its configuration and its packed argument block.
#[derive(Clone)]
pub struct KernelParams {
    /// The `CUkernel` the node was given, if it was given one (`CUDA_KERNEL_NODE_PARAMS_v2.kern`).
    pub kernel: Option<KernelHandle>,
    pub function: FunctionHandle,
    pub(crate) resolved: Arc<Function>,
    pub ctx: CtxHandle,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
    /// The packed parameters, in 8-byte words (the layout the launch path uses); shared
    /// by clones, so the pointers below stay valid while any copy of these parameters
    /// (the node's own, in particular) lives.
    args: Arc<[u64]>,
    len: usize,
    /// One pointer per parameter into `args`: what `cuGraphKernelNodeGetParams` returns
    /// as `kernelParams` (stable while the node keeps these parameters).
    arg_ptrs: Arc<[usize]>,
    /// `cuGraphKernelNodeSetAttribute`'s values, by attribute id (see `graph::attrs`).
    pub(crate) attrs: Vec<(u32, super::attrs::AttrValue)>,
}

impl KernelParams {
    /// The packed parameter block.
    pub fn arg_bytes(&self) -> &[u8] {
        // SAFETY: `len` bytes lie within `args` (see `Driver::kernel_params`).
        unsafe { std::slice::from_raw_parts(self.args.as_ptr().cast::<u8>(), self.len) }
    }

    /// `kernelParams` for `GetParams`: an array of pointers, one per parameter.
    pub fn arg_pointers(&self) -> *mut *mut c_void {
        self.arg_ptrs.as_ptr() as *mut *mut c_void
    }
}

/// A memcpy node: a `CUDA_MEMCPY3D` and the context it runs in.
#[derive(Clone, Copy)]
pub struct MemcpyParams {
    pub copy: CudaMemcpy3D,
    pub ctx: CtxHandle,
}

/// A memset node (`CUDA_MEMSET_NODE_PARAMS`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MemsetParams {
    pub dst: DevicePtr,
    pub pitch: usize,
    pub value: u32,
    pub element_size: u32,
    pub width: usize,
    pub height: usize,
    pub ctx: CtxHandle,
}

/// A host node (`CUDA_HOST_NODE_PARAMS`).
#[derive(Clone, Copy, Debug)]
pub struct HostParams {
    pub func: unsafe extern "C" fn(*mut c_void),
    pub user_data: usize,
}

/// What a node does.
#[derive(Clone)]
pub enum NodeParams {
    Empty,
    Kernel(KernelParams),
    Memcpy(MemcpyParams),
    Memset(MemsetParams),
    Host(HostParams),
    /// A child graph: a graph of its own, owned by the node (a clone of the one given).
    Graph(GraphHandle),
    EventRecord(EventHandle),
    WaitEvent(EventHandle),
    /// An allocation node (see `graph::memory`).
    MemAlloc(super::memory::MemAllocParams),
    /// A free node: the address of graph memory.
    MemFree(DevicePtr),
    /// A conditional node (see `graph::conditional`); its body graphs are owned by the node.
    Conditional(super::conditional::ConditionalParams),
    /// External semaphore signal and wait nodes (`crate::extsem`).
    ExtSemSignal(SemNodeParams),
    ExtSemWait(SemNodeParams),
}

/// An external semaphore node: the semaphores and what to signal or wait for, in the
/// layouts `cuGraphExternalSemaphores*NodeGetParams` returns (owned by the node).
#[derive(Clone, Debug)]
pub struct SemNodeParams {
    pub sems: Arc<[crate::ExtSemHandle]>,
    pub ops: Arc<[crate::extsem::SemOp]>,
}

// SAFETY: the raw pointers inside (memcpy host sides, host-node user data) are the
// caller's, who promises they stay valid while the node can run (the API contract of graph
// nodes); the driver only passes them back or uses them to run the node.
unsafe impl Send for NodeParams {}
// SAFETY: as above; shared access only reads them.
unsafe impl Sync for NodeParams {}

impl NodeParams {
    pub fn node_type(&self) -> NodeType {
        match self {
            NodeParams::Empty => NodeType::Empty,
            NodeParams::Kernel(_) => NodeType::Kernel,
            NodeParams::Memcpy(_) => NodeType::Memcpy,
            NodeParams::Memset(_) => NodeType::Memset,
            NodeParams::Host(_) => NodeType::Host,
            NodeParams::Graph(_) => NodeType::Graph,
            NodeParams::EventRecord(_) => NodeType::EventRecord,
            NodeParams::WaitEvent(_) => NodeType::WaitEvent,
            NodeParams::MemAlloc(_) => NodeType::MemAlloc,
            NodeParams::MemFree(_) => NodeType::MemFree,
            NodeParams::Conditional(_) => NodeType::Conditional,
            NodeParams::ExtSemSignal(_) => NodeType::ExtSemasSignal,
            NodeParams::ExtSemWait(_) => NodeType::ExtSemasWait,
        }
    }
}

/// The configuration of a kernel node as the C structures give it.
#[derive(Clone, Copy, Debug)]
pub struct KernelNodeDesc {
    /// `func` (a `CUfunction`, or a `CUkernel`, which `cuLaunchKernel` also accepts).
    pub func: *mut c_void,
    /// `kern` of the `_v2` structure (NULL if absent).
    pub kern: *mut c_void,
    /// `ctx` of the `_v2` structure (NULL: the current context).
    pub ctx: CtxHandle,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared_bytes: u32,
    pub kernel_params: *mut *mut c_void,
    pub extra: *mut *mut c_void,
}

impl Driver {
    /// Resolves, validates and packs a kernel node's parameters (`cuGraphAddKernelNode`:
    /// the same checks as `cuLaunchKernel`; the arguments are copied, as the API says).
    ///
    /// # Safety
    /// `kernel_params` / `extra` as [`crate::launch::pack_params`] requires.
    pub unsafe fn kernel_params(&self, d: &KernelNodeDesc) -> CuResult<KernelParams> {
        let (raw, kernel) = match (d.func.is_null(), d.kern.is_null()) {
            (false, true) => (d.func as usize as u64, None),
            (true, false) => (d.kern as usize as u64, Some(KernelHandle(d.kern as usize as u64))),
            // No function at all is a bad handle to NVIDIA's driver (580), both a bad value.
            (true, true) => return Err(fail(CuError::INVALID_HANDLE, format_args!("kernel node: no function"))),
            (false, false) => return Err(fail(CuError::INVALID_VALUE, format_args!("kernel node: both func and kern are set"))),
        };
        let function = match kind_of(raw) {
            Some(Kind::Function) => FunctionHandle(raw),
            Some(Kind::Kernel) => {
                let ctx = self.context_or_current(d.ctx)?;
                self.kernel_function(KernelHandle(raw), &ctx)?
            }
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("kernel node: {raw:#x} is neither a CUfunction nor a CUkernel"))),
        };
        let resolved = self.function(function)?;
        self.validate_launch(&resolved, d.grid, d.block, d.shared_bytes)?;
        let len = resolved.info.param_buffer_size;
        let mut args = vec![0u64; len.div_ceil(8)].into_boxed_slice();
        // SAFETY: `args` holds at least `len` bytes; forwarded contract for the sources.
        let bytes = unsafe { std::slice::from_raw_parts_mut(args.as_mut_ptr().cast::<u8>(), len) };
        // SAFETY: forwarded from the caller.
        unsafe { crate::launch::pack_params_into(&resolved.info, d.kernel_params, d.extra, bytes)? };
        let args: Arc<[u64]> = Arc::from(args);
        let base = args.as_ptr() as usize;
        let arg_ptrs = resolved.info.params.iter().map(|p| base + p.offset).collect();
        Ok(KernelParams {
            kernel,
            function,
            ctx: resolved.ctx,
            resolved,
            grid: d.grid,
            block: d.block,
            shared_bytes: d.shared_bytes,
            args,
            len,
            arg_ptrs,
            attrs: Vec::new(),
        })
    }

    /// Kernel parameters from an already packed block (stream capture of a launch).
    pub(crate) fn kernel_params_packed(
        &self,
        function: FunctionHandle,
        resolved: Arc<Function>,
        grid: [u32; 3],
        block: [u32; 3],
        shared_bytes: u32,
        packed: &[u8],
    ) -> KernelParams {
        let len = packed.len();
        let mut args = vec![0u64; len.div_ceil(8)].into_boxed_slice();
        // SAFETY: `args` holds at least `len` bytes.
        unsafe { std::ptr::copy_nonoverlapping(packed.as_ptr(), args.as_mut_ptr().cast::<u8>(), len) };
        let args: Arc<[u64]> = Arc::from(args);
        let base = args.as_ptr() as usize;
        let arg_ptrs = resolved.info.params.iter().map(|p| base + p.offset).collect();
        KernelParams { kernel: None, function, ctx: resolved.ctx, resolved, grid, block, shared_bytes, args, len, arg_ptrs, attrs: Vec::new() }
    }

    /// Checks a memcpy node's description against the registry (`cuGraphAddMemcpyNode`).
    pub fn memcpy_params(&self, copy: &CudaMemcpy3D, ctx: CtxHandle) -> CuResult<MemcpyParams> {
        let ctx = self.context_or_current(ctx)?;
        self.copy_work_3d(copy)?;
        Ok(MemcpyParams { copy: *copy, ctx: ctx.handle })
    }

    /// Checks a memset node's description (`cuGraphAddMemsetNode`): element size 1, 2 or
    /// 4, the destination inside one allocation.
    pub fn memset_params(&self, mut p: MemsetParams) -> CuResult<MemsetParams> {
        let ctx = self.context_or_current(p.ctx)?;
        p.ctx = ctx.handle;
        if p.width == 0 || p.height == 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("memset node: empty region")));
        }
        self.fill_work(p.dst, p.pitch, p.value, p.element_size as usize, p.width, p.height)?;
        Ok(p)
    }
}
