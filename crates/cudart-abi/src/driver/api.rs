//! The driver entry points the runtime calls: each row is the API name, the CUDA version
//! whose ABI (signature) we call, as `cuGetProcAddress_v2` takes it, and the arguments.
//! The versions are those NVIDIA's runtime 13 asks for (see the request lists in
//! `/work/shared/facts/data` at the time of writing), so `cuMemAlloc @ 3020` is
//! `cuMemAlloc_v2`. A name the driver does not know leaves its row empty: calling it is
//! `cudaErrorNotSupported` with one log line.

#![allow(non_snake_case)]

use std::ffi::{c_char, c_int, c_void, CStr};

use super::check;
use super::types::*;
use crate::error::CudaError;

macro_rules! driver_api {
    ($($name:ident @ $ver:literal ($($arg:ident: $ty:ty),* $(,)?);)*) => {
        /// Resolved driver entry points (`None`: the driver does not provide it).
        pub struct Api {
            $($name: Option<unsafe extern "C" fn($($ty),*) -> CUresult>,)*
        }

        impl Api {
            /// Resolves every row with `lookup(name, version, flags)`.
            ///
            /// # Safety
            /// `lookup` must return NULL or the address of a function with the row's
            /// signature.
            pub(super) unsafe fn resolve(lookup: &dyn Fn(&CStr, c_int, u64) -> *mut c_void) -> Api {
                Api {
                    $($name: {
                        let name = CStr::from_bytes_with_nul(concat!(stringify!($name), "\0").as_bytes()).expect("NUL-terminated");
                        let p = lookup(name, $ver, 0);
                        // SAFETY: the caller promises the address has this row's signature.
                        (!p.is_null()).then(|| unsafe { std::mem::transmute::<*mut c_void, unsafe extern "C" fn($($ty),*) -> CUresult>(p) })
                    },)*
                }
            }

            $(
                /// Calls the driver entry point of the same name.
                ///
                /// # Safety
                /// Arguments must be valid as the driver API documents for it.
                #[allow(clippy::too_many_arguments)]
                pub unsafe fn $name(&self, $($arg: $ty),*) -> Result<(), CudaError> {
                    match self.$name {
                        // SAFETY: forwarded contract.
                        Some(f) => check(unsafe { f($($arg),*) }),
                        None => Err(missing(stringify!($name))),
                    }
                }
            )*
        }
    };
}

fn missing(name: &str) -> CudaError {
    crate::boundary::log(&format!("the driver does not provide {name}; returning cudaErrorNotSupported"));
    CudaError::NOT_SUPPORTED
}

driver_api! {
    cuInit @ 2000 (flags: u32);
    cuDeviceGetCount @ 2000 (count: *mut c_int);
    cuDeviceGet @ 2000 (dev: *mut CUdevice, ordinal: c_int);
    cuDeviceGetName @ 2000 (name: *mut c_char, len: c_int, dev: CUdevice);
    cuDeviceTotalMem @ 3020 (bytes: *mut usize, dev: CUdevice);
    cuDeviceGetAttribute @ 2000 (value: *mut c_int, attrib: c_int, dev: CUdevice);
    cuDeviceGetUuid @ 11040 (uuid: *mut u8, dev: CUdevice);
    cuDevicePrimaryCtxRetain @ 7000 (ctx: *mut CUcontext, dev: CUdevice);
    cuDevicePrimaryCtxRelease @ 11000 (dev: CUdevice);
    cuDevicePrimaryCtxReset @ 11000 (dev: CUdevice);
    cuDevicePrimaryCtxSetFlags @ 11000 (dev: CUdevice, flags: u32);
    cuDevicePrimaryCtxGetState @ 7000 (dev: CUdevice, flags: *mut u32, active: *mut c_int);
    cuCtxGetCurrent @ 4000 (ctx: *mut CUcontext);
    cuCtxSetCurrent @ 4000 (ctx: CUcontext);
    cuCtxSynchronize @ 2000 ();
    cuCtxGetLimit @ 3010 (value: *mut usize, limit: c_int);
    cuCtxSetLimit @ 3010 (limit: c_int, value: usize);
    cuCtxGetStreamPriorityRange @ 5050 (least: *mut c_int, greatest: *mut c_int);
    cuLibraryLoadData @ 12000 (
        library: *mut CUlibrary,
        code: *const c_void,
        jit_options: *mut c_int,
        jit_values: *mut *mut c_void,
        num_jit: u32,
        library_options: *mut c_int,
        library_values: *mut *mut c_void,
        num_library: u32,
    );
    cuLibraryLoadFromFile @ 12000 (
        library: *mut CUlibrary,
        path: *const c_char,
        jit_options: *mut c_int,
        jit_values: *mut *mut c_void,
        num_jit: u32,
        library_options: *mut c_int,
        library_values: *mut *mut c_void,
        num_library: u32,
    );
    cuLibraryUnload @ 12000 (library: CUlibrary);
    cuLibraryGetKernelCount @ 12040 (count: *mut u32, library: CUlibrary);
    cuLibraryEnumerateKernels @ 12040 (kernels: *mut CUkernel, n: u32, library: CUlibrary);
    cuLibraryGetUnifiedFunction @ 12000 (fptr: *mut *mut c_void, library: CUlibrary, symbol: *const c_char);
    cuLibraryGetKernel @ 12000 (kernel: *mut CUkernel, library: CUlibrary, name: *const c_char);
    cuLibraryGetGlobal @ 12000 (dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char);
    cuLibraryGetManaged @ 12000 (dptr: *mut CUdeviceptr, bytes: *mut usize, library: CUlibrary, name: *const c_char);
    cuKernelGetFunction @ 12000 (func: *mut CUfunction, kernel: CUkernel);
    cuKernelSetAttribute @ 12000 (attrib: c_int, value: c_int, kernel: CUkernel, dev: CUdevice);
    cuFuncGetAttribute @ 2020 (value: *mut c_int, attrib: c_int, func: CUfunction);
    cuFuncGetParamInfo @ 12040 (func: CUfunction, index: usize, offset: *mut usize, size: *mut usize);
    cuArrayGetPlane @ 11020 (plane: *mut *mut c_void, array: *mut c_void, index: u32);
    cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags @ 7000 (
        blocks: *mut c_int,
        func: CUfunction,
        block_size: c_int,
        dynamic_smem: usize,
        flags: u32,
    );
    cuLaunchKernel @ 4000 (
        func: CUfunction,
        gx: u32, gy: u32, gz: u32,
        bx: u32, by: u32, bz: u32,
        shared: u32,
        stream: CUstream,
        params: *mut *mut c_void,
        extra: *mut *mut c_void,
    );
    cuLaunchCooperativeKernel @ 9000 (
        func: CUfunction,
        gx: u32, gy: u32, gz: u32,
        bx: u32, by: u32, bz: u32,
        shared: u32,
        stream: CUstream,
        params: *mut *mut c_void,
    );
    cuLaunchHostFunc @ 10000 (stream: CUstream, func: CUhostFn, data: *mut c_void);
    cuMemGetInfo @ 3020 (free: *mut usize, total: *mut usize);
    cuMemAlloc @ 3020 (dptr: *mut CUdeviceptr, size: usize);
    cuMemAllocPitch @ 3020 (dptr: *mut CUdeviceptr, pitch: *mut usize, width: usize, height: usize, element_size: u32);
    cuMemFree @ 3020 (dptr: CUdeviceptr);
    cuMemHostAlloc @ 2020 (ptr: *mut *mut c_void, size: usize, flags: u32);
    cuMemFreeHost @ 2000 (ptr: *mut c_void);
    cuMemHostGetDevicePointer @ 3020 (dptr: *mut CUdeviceptr, ptr: *mut c_void, flags: u32);
    cuMemHostRegister @ 6050 (ptr: *mut c_void, size: usize, flags: u32);
    cuMemHostUnregister @ 4000 (ptr: *mut c_void);
    cuMemAllocManaged @ 6000 (dptr: *mut CUdeviceptr, size: usize, flags: u32);
    cuMemAdvise @ 12020 (dptr: CUdeviceptr, count: usize, advice: c_int, location: CUmemLocation);
    cuMemPrefetchAsync @ 12020 (dptr: CUdeviceptr, count: usize, location: CUmemLocation, flags: u32, stream: CUstream);
    cuPointerGetAttributes @ 7000 (count: u32, attributes: *mut c_int, data: *mut *mut c_void, ptr: CUdeviceptr);
    cuMemcpy @ 4000 (dst: CUdeviceptr, src: CUdeviceptr, size: usize);
    cuMemcpyAsync @ 4000 (dst: CUdeviceptr, src: CUdeviceptr, size: usize, stream: CUstream);
    cuMemcpyHtoD @ 3020 (dst: CUdeviceptr, src: *const c_void, size: usize);
    cuMemcpyDtoH @ 3020 (dst: *mut c_void, src: CUdeviceptr, size: usize);
    cuMemcpyDtoD @ 3020 (dst: CUdeviceptr, src: CUdeviceptr, size: usize);
    cuMemcpyHtoDAsync @ 3020 (dst: CUdeviceptr, src: *const c_void, size: usize, stream: CUstream);
    cuMemcpyDtoHAsync @ 3020 (dst: *mut c_void, src: CUdeviceptr, size: usize, stream: CUstream);
    cuMemcpyDtoDAsync @ 3020 (dst: CUdeviceptr, src: CUdeviceptr, size: usize, stream: CUstream);
    cuMemcpy2DUnaligned @ 3020 (copy: *const CudaMemcpy2D);
    cuMemcpy2DAsync @ 3020 (copy: *const CudaMemcpy2D, stream: CUstream);
    cuMemsetD8 @ 3020 (dst: CUdeviceptr, value: u8, count: usize);
    cuMemsetD8Async @ 3020 (dst: CUdeviceptr, value: u8, count: usize, stream: CUstream);
    cuMemsetD2D8 @ 3020 (dst: CUdeviceptr, pitch: usize, value: u8, width: usize, height: usize);
    cuMemsetD2D8Async @ 3020 (dst: CUdeviceptr, pitch: usize, value: u8, width: usize, height: usize, stream: CUstream);
    cuStreamCreate @ 2000 (stream: *mut CUstream, flags: u32);
    cuStreamCreateWithPriority @ 5050 (stream: *mut CUstream, flags: u32, priority: c_int);
    cuStreamDestroy @ 4000 (stream: CUstream);
    cuStreamSynchronize @ 2000 (stream: CUstream);
    cuStreamQuery @ 2000 (stream: CUstream);
    cuStreamWaitEvent @ 3020 (stream: CUstream, event: CUevent, flags: u32);
    cuStreamAddCallback @ 5000 (stream: CUstream, callback: CUstreamCallback, data: *mut c_void, flags: u32);
    cuStreamGetFlags @ 5050 (stream: CUstream, flags: *mut u32);
    cuStreamGetPriority @ 5050 (stream: CUstream, priority: *mut c_int);
    cuEventCreate @ 2000 (event: *mut CUevent, flags: u32);
    cuEventRecord @ 2000 (event: CUevent, stream: CUstream);
    cuEventRecordWithFlags @ 11010 (event: CUevent, stream: CUstream, flags: u32);
    cuEventQuery @ 2000 (event: CUevent);
    cuEventSynchronize @ 2000 (event: CUevent);
    cuEventDestroy @ 4000 (event: CUevent);
    cuEventElapsedTime @ 2000 (ms: *mut f32, start: CUevent, end: CUevent);
    // Stream-ordered allocation and memory pools (`exports/mempool.rs`). The property,
    // access-descriptor and location structures have the runtime's layouts.
    cuMemAllocAsync @ 11020 (dptr: *mut CUdeviceptr, size: usize, stream: CUstream);
    cuMemAllocFromPoolAsync @ 11020 (dptr: *mut CUdeviceptr, size: usize, pool: CUmemoryPool, stream: CUstream);
    cuMemFreeAsync @ 11020 (dptr: CUdeviceptr, stream: CUstream);
    cuMemPoolCreate @ 11020 (pool: *mut CUmemoryPool, props: *const c_void);
    cuMemPoolDestroy @ 11020 (pool: CUmemoryPool);
    cuMemPoolSetAttribute @ 11020 (pool: CUmemoryPool, attr: c_int, value: *mut c_void);
    cuMemPoolGetAttribute @ 11020 (pool: CUmemoryPool, attr: c_int, value: *mut c_void);
    cuMemPoolTrimTo @ 11020 (pool: CUmemoryPool, keep: usize);
    cuMemPoolSetAccess @ 11020 (pool: CUmemoryPool, descs: *const c_void, count: usize);
    cuMemPoolGetAccess @ 11020 (flags: *mut c_int, pool: CUmemoryPool, location: *mut CUmemLocation);
    cuDeviceGetDefaultMemPool @ 11020 (pool: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceGetMemPool @ 11020 (pool: *mut CUmemoryPool, dev: CUdevice);
    cuDeviceSetMemPool @ 11020 (dev: CUdevice, pool: CUmemoryPool);
    cuMemGetDefaultMemPool @ 13000 (pool: *mut CUmemoryPool, location: *mut CUmemLocation, kind: c_int);
    cuMemGetMemPool @ 13000 (pool: *mut CUmemoryPool, location: *mut CUmemLocation, kind: c_int);
    cuMemSetMemPool @ 13000 (location: *mut CUmemLocation, kind: c_int, pool: CUmemoryPool);
    // Graphs and stream capture (`exports/graph.rs`); the parameter structures are the
    // driver's layouts, built by the runtime wrappers.
    cuGraphCreate @ 10000 (graph: *mut CUgraph, flags: u32);
    cuGraphDestroy @ 10000 (graph: CUgraph);
    cuGraphAddKernelNode @ 12000 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, params: *const c_void);
    cuGraphKernelNodeSetParams @ 12000 (node: CUgraphNode, params: *const c_void);
    cuGraphExecKernelNodeSetParams @ 12000 (exec: CUgraphExec, node: CUgraphNode, params: *const c_void);
    cuGraphAddMemcpyNode @ 10000 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, copy: *const c_void, ctx: CUcontext);
    cuGraphAddMemsetNode @ 10000 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, params: *const c_void, ctx: CUcontext);
    cuGraphMemsetNodeSetParams @ 10000 (node: CUgraphNode, params: *const c_void);
    cuGraphHostNodeSetParams @ 10000 (node: CUgraphNode, params: *const c_void);
    cuGraphExecMemsetNodeSetParams @ 10020 (exec: CUgraphExec, node: CUgraphNode, params: *const c_void, ctx: CUcontext);
    cuGraphExecHostNodeSetParams @ 10020 (exec: CUgraphExec, node: CUgraphNode, params: *const c_void);
    cuGraphAddHostNode @ 10000 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, params: *const c_void);
    cuGraphAddEmptyNode @ 10000 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize);
    cuGraphMemcpyNodeSetParams @ 10000 (node: CUgraphNode, copy: *const c_void);
    cuGraphExecMemcpyNodeSetParams @ 10020 (exec: CUgraphExec, node: CUgraphNode, copy: *const c_void, ctx: CUcontext);
    cuGraphMemsetNodeGetParams @ 10000 (node: CUgraphNode, params: *mut c_void);
    cuGraphHostNodeGetParams @ 10000 (node: CUgraphNode, params: *mut c_void);
    cuGraphChildGraphNodeGetGraph @ 10000 (node: CUgraphNode, graph: *mut CUgraph);
    cuGraphEventRecordNodeGetEvent @ 11010 (node: CUgraphNode, event: *mut CUevent);
    cuGraphEventRecordNodeSetEvent @ 11010 (node: CUgraphNode, event: CUevent);
    cuGraphEventWaitNodeGetEvent @ 11010 (node: CUgraphNode, event: *mut CUevent);
    cuGraphEventWaitNodeSetEvent @ 11010 (node: CUgraphNode, event: CUevent);
    cuGraphExecGetFlags @ 12000 (exec: CUgraphExec, flags: *mut u64);
    cuGraphDebugDotPrint @ 11030 (graph: CUgraph, path: *const c_char, flags: u32);
    cuGraphInstantiateWithParams @ 12000 (exec: *mut CUgraphExec, graph: CUgraph, params: *mut c_void);
    // Graph memory nodes (`exports/graph.rs`); the runtime's structures have the driver's layout.
    cuGraphAddMemAllocNode @ 11040 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, params: *mut c_void);
    cuGraphMemAllocNodeGetParams @ 11040 (node: CUgraphNode, params: *mut c_void);
    cuGraphAddMemFreeNode @ 11040 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, dptr: CUdeviceptr);
    cuGraphMemFreeNodeGetParams @ 11040 (node: CUgraphNode, dptr: *mut CUdeviceptr);
    cuDeviceGraphMemTrim @ 11040 (dev: CUdevice);
    cuDeviceGetGraphMemAttribute @ 11040 (dev: CUdevice, attr: c_int, value: *mut c_void);
    cuDeviceSetGraphMemAttribute @ 11040 (dev: CUdevice, attr: c_int, value: *mut c_void);
    cuGraphAddChildGraphNode @ 10000 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, child: CUgraph);
    cuGraphAddEventRecordNode @ 11010 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent);
    cuGraphAddEventWaitNode @ 11010 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, event: CUevent);
    cuGraphAddDependencies @ 10000 (graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, n: usize);
    cuGraphRemoveDependencies @ 10000 (graph: CUgraph, from: *const CUgraphNode, to: *const CUgraphNode, n: usize);
    cuGraphGetNodes @ 10000 (graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize);
    cuGraphGetRootNodes @ 10000 (graph: CUgraph, nodes: *mut CUgraphNode, n: *mut usize);
    cuGraphGetEdges @ 10000 (graph: CUgraph, from: *mut CUgraphNode, to: *mut CUgraphNode, n: *mut usize);
    cuGraphNodeGetType @ 10000 (node: CUgraphNode, ty: *mut c_int);
    cuGraphNodeGetDependencies @ 10000 (node: CUgraphNode, deps: *mut CUgraphNode, n: *mut usize);
    cuGraphNodeGetDependentNodes @ 10000 (node: CUgraphNode, deps: *mut CUgraphNode, n: *mut usize);
    cuGraphClone @ 10000 (clone: *mut CUgraph, graph: CUgraph);
    cuGraphNodeFindInClone @ 10000 (node: *mut CUgraphNode, original: CUgraphNode, clone: CUgraph);
    cuGraphDestroyNode @ 10000 (node: CUgraphNode);
    cuGraphInstantiateWithFlags @ 11040 (exec: *mut CUgraphExec, graph: CUgraph, flags: u64);
    cuGraphLaunch @ 10000 (exec: CUgraphExec, stream: CUstream);
    cuGraphUpload @ 11010 (exec: CUgraphExec, stream: CUstream);
    cuGraphExecDestroy @ 10000 (exec: CUgraphExec);
    cuGraphExecUpdate @ 12000 (exec: CUgraphExec, graph: CUgraph, info: *mut c_void);
    cuStreamBeginCapture @ 10010 (stream: CUstream, mode: c_int);
    cuStreamEndCapture @ 10000 (stream: CUstream, graph: *mut CUgraph);
    cuStreamIsCapturing @ 10000 (stream: CUstream, status: *mut c_int);
    cuStreamGetCaptureInfo @ 12030 (
        stream: CUstream,
        status: *mut c_int,
        id: *mut u64,
        graph: *mut CUgraph,
        deps: *mut *const CUgraphNode,
        edge_data: *mut *const c_void,
        n: *mut usize,
    );
    cuThreadExchangeStreamCaptureMode @ 10010 (mode: *mut c_int);
    // Conditional nodes, the generic node calls, node state and attributes, user objects
    // and external semaphores (`exports/graph_nodes.rs`, `exports/extsem.rs`).
    cuGraphConditionalHandleCreate @ 12030 (handle: *mut u64, graph: CUgraph, ctx: CUcontext, default: u32, flags: u32);
    cuGraphAddNode @ 12030 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, edges: *const c_void, n: usize, params: *mut c_void);
    cuGraphNodeSetParams @ 12020 (node: CUgraphNode, params: *mut c_void);
    cuGraphExecNodeSetParams @ 12020 (exec: CUgraphExec, node: CUgraphNode, params: *mut c_void);
    cuStreamUpdateCaptureDependencies @ 11030 (stream: CUstream, deps: *const CUgraphNode, n: usize, flags: u32);
    cuStreamBeginCaptureToGraph @ 12030 (stream: CUstream, graph: CUgraph, deps: *const CUgraphNode, edges: *const c_void, n: usize, mode: c_int);
    cuGraphNodeSetEnabled @ 11060 (exec: CUgraphExec, node: CUgraphNode, enabled: u32);
    cuGraphNodeGetEnabled @ 11060 (exec: CUgraphExec, node: CUgraphNode, enabled: *mut u32);
    cuGraphKernelNodeGetAttribute @ 11000 (node: CUgraphNode, id: c_int, value: *mut c_void);
    cuGraphKernelNodeSetAttribute @ 11000 (node: CUgraphNode, id: c_int, value: *const c_void);
    cuGraphKernelNodeCopyAttributes @ 11000 (dst: CUgraphNode, src: CUgraphNode);
    cuGraphExecChildGraphNodeSetParams @ 11010 (exec: CUgraphExec, node: CUgraphNode, child: CUgraph);
    cuGraphExecEventRecordNodeSetEvent @ 11010 (exec: CUgraphExec, node: CUgraphNode, event: CUevent);
    cuGraphExecEventWaitNodeSetEvent @ 11010 (exec: CUgraphExec, node: CUgraphNode, event: CUevent);
    cuUserObjectCreate @ 11030 (object: *mut *mut c_void, ptr: *mut c_void, destroy: Option<CUhostFn>, initial: u32, flags: u32);
    cuUserObjectRetain @ 11030 (object: *mut c_void, count: u32);
    cuUserObjectRelease @ 11030 (object: *mut c_void, count: u32);
    cuGraphRetainUserObject @ 11030 (graph: CUgraph, object: *mut c_void, count: u32, flags: u32);
    cuGraphReleaseUserObject @ 11030 (graph: CUgraph, object: *mut c_void, count: u32);
    cuImportExternalSemaphore @ 10000 (sem: *mut *mut c_void, desc: *const c_void);
    cuSignalExternalSemaphoresAsync @ 10000 (sems: *const *mut c_void, params: *const c_void, n: u32, stream: CUstream);
    cuWaitExternalSemaphoresAsync @ 10000 (sems: *const *mut c_void, params: *const c_void, n: u32, stream: CUstream);
    cuDestroyExternalSemaphore @ 10000 (sem: *mut c_void);
    cuGraphAddExternalSemaphoresSignalNode @ 11020 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, params: *const c_void);
    cuGraphAddExternalSemaphoresWaitNode @ 11020 (node: *mut CUgraphNode, graph: CUgraph, deps: *const CUgraphNode, n: usize, params: *const c_void);
    cuGraphExternalSemaphoresSignalNodeGetParams @ 11020 (node: CUgraphNode, params: *mut c_void);
    cuGraphExternalSemaphoresWaitNodeGetParams @ 11020 (node: CUgraphNode, params: *mut c_void);
    cuGraphExternalSemaphoresSignalNodeSetParams @ 11020 (node: CUgraphNode, params: *const c_void);
    cuGraphExternalSemaphoresWaitNodeSetParams @ 11020 (node: CUgraphNode, params: *const c_void);
    cuGraphExecExternalSemaphoresSignalNodeSetParams @ 11020 (exec: CUgraphExec, node: CUgraphNode, params: *const c_void);
    cuGraphExecExternalSemaphoresWaitNodeSetParams @ 11020 (exec: CUgraphExec, node: CUgraphNode, params: *const c_void);
    // Device and context configuration, peers, profiler (`exports/config.rs`, `peer.rs`).
    cuCtxGetDevice @ 2000 (dev: *mut CUdevice);
    cuCtxGetCacheConfig @ 3020 (config: *mut c_int);
    cuCtxSetCacheConfig @ 3020 (config: c_int);
    cuCtxGetSharedMemConfig @ 4020 (config: *mut c_int);
    cuCtxSetSharedMemConfig @ 4020 (config: c_int);
    cuCtxResetPersistingL2Cache @ 11000 ();
    cuDeviceGetByPCIBusId @ 4010 (dev: *mut CUdevice, id: *const c_char);
    cuDeviceGetPCIBusId @ 4010 (id: *mut c_char, len: c_int, dev: CUdevice);
    cuDeviceCanAccessPeer @ 4000 (can: *mut c_int, dev: CUdevice, peer: CUdevice);
    cuDeviceGetP2PAttribute @ 8000 (value: *mut c_int, attr: c_int, src: CUdevice, dst: CUdevice);
    cuCtxEnablePeerAccess @ 4000 (peer: CUcontext, flags: u32);
    cuCtxDisablePeerAccess @ 4000 (peer: CUcontext);
    cuMemcpyPeer @ 4000 (dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, count: usize);
    cuMemcpyPeerAsync @ 4000 (dst: CUdeviceptr, dst_ctx: CUcontext, src: CUdeviceptr, src_ctx: CUcontext, count: usize, stream: CUstream);
    cuFlushGPUDirectRDMAWrites @ 11030 (target: c_int, scope: c_int);
    cuProfilerStart @ 4000 ();
    cuProfilerStop @ 4000 ();
    cuGetProcAddress @ 12000 (symbol: *const c_char, pfn: *mut *mut c_void, version: c_int, flags: u64, status: *mut c_int);
    // 3D copies and fills (`exports/memcpy3d.rs`).
    cuMemcpy3D @ 3020 (copy: *const CudaMemcpy3D);
    cuMemcpy3DAsync @ 3020 (copy: *const CudaMemcpy3D, stream: CUstream);
    // `CUDA_MEMCPY3D_PEER` has `CUDA_MEMCPY3D`'s layout, the contexts in the reserved fields.
    cuMemcpy3DPeer @ 4000 (copy: *const CudaMemcpy3D);
    cuMemcpy3DPeerAsync @ 4000 (copy: *const CudaMemcpy3D, stream: CUstream);
    cuIpcGetMemHandle @ 4010 (handle: *mut [u8; 64], dptr: CUdeviceptr);
    cuIpcOpenMemHandle @ 11000 (dptr: *mut CUdeviceptr, handle: IpcHandle, flags: u32);
    cuIpcCloseMemHandle @ 4010 (dptr: CUdeviceptr);
    cuIpcGetEventHandle @ 4010 (handle: *mut [u8; 64], event: CUevent);
    cuIpcOpenEventHandle @ 4010 (event: *mut CUevent, handle: IpcHandle);
    cuMemPoolExportToShareableHandle @ 11020 (handle_out: *mut c_void, pool: CUmemoryPool, handle_type: u32, flags: u64);
    cuMemPoolImportFromShareableHandle @ 11020 (pool: *mut CUmemoryPool, handle: *mut c_void, handle_type: u32, flags: u64);
    cuMemPoolExportPointer @ 11020 (data: *mut [u8; 64], ptr: CUdeviceptr);
    cuMemPoolImportPointer @ 11020 (ptr: *mut CUdeviceptr, pool: CUmemoryPool, data: *mut [u8; 64]);
    // The runtime's external memory descriptors have the driver's layouts.
    cuImportExternalMemory @ 10000 (ext: *mut *mut c_void, desc: *const c_void);
    cuExternalMemoryGetMappedBuffer @ 10000 (dptr: *mut CUdeviceptr, ext: *mut c_void, desc: *const c_void);
    cuDestroyExternalMemory @ 10000 (ext: *mut c_void);
    // CUDA arrays and texture and surface objects (`exports/array.rs`, `texture.rs`).
    cuArray3DCreate @ 3020 (array: *mut *mut c_void, desc: *const Array3dDescriptor);
    cuArrayDestroy @ 2000 (array: *mut c_void);
    cuMipmappedArrayCreate @ 5000 (mipmap: *mut *mut c_void, desc: *const Array3dDescriptor, levels: u32);
    cuMipmappedArrayGetLevel @ 5000 (array: *mut *mut c_void, mipmap: *mut c_void, level: u32);
    cuMipmappedArrayDestroy @ 5000 (mipmap: *mut c_void);
    cuTexObjectGetResourceViewDesc @ 5000 (view: *mut c_void, object: u64);
    cuArray3DGetDescriptor @ 3020 (desc: *mut Array3dDescriptor, array: *mut c_void);
    cuTexObjectCreate @ 5000 (object: *mut u64, resource: *const ResourceDesc, texture: *const TextureDesc, view: *const c_void);
    cuTexObjectDestroy @ 5000 (object: u64);
    cuTexObjectGetResourceDesc @ 5000 (resource: *mut ResourceDesc, object: u64);
    cuTexObjectGetTextureDesc @ 5000 (texture: *mut TextureDesc, object: u64);
    cuSurfObjectCreate @ 5000 (object: *mut u64, resource: *const ResourceDesc);
    cuSurfObjectDestroy @ 5000 (object: u64);
    cuSurfObjectGetResourceDesc @ 5000 (resource: *mut ResourceDesc, object: u64);
    // Memory and stream queries (`exports/memory.rs`, `stream.rs`).
    cuMemHostGetFlags @ 2030 (flags: *mut u32, ptr: *mut c_void);
    cuMemRangeGetAttribute @ 8000 (data: *mut c_void, size: usize, attr: c_int, dptr: CUdeviceptr, count: usize);
    cuStreamAttachMemAsync @ 6000 (stream: CUstream, dptr: CUdeviceptr, length: usize, flags: u32);
    cuStreamGetId @ 12000 (stream: CUstream, id: *mut u64);
    cuStreamGetDevice @ 12080 (stream: CUstream, dev: *mut CUdevice);
    // Kernels (`exports/func.rs`); the launch configuration has the runtime's layout.
    cuKernelSetCacheConfig @ 12000 (kernel: CUkernel, config: c_int, dev: CUdevice);
    cuFuncSetSharedMemConfig @ 4020 (func: CUfunction, config: c_int);
    cuKernelGetName @ 12030 (name: *mut *const c_char, kernel: CUkernel);
    cuLaunchKernelEx @ 11060 (config: *const c_void, func: CUfunction, params: *mut *mut c_void, extra: *mut *mut c_void);
    cuOccupancyAvailableDynamicSMemPerBlock @ 10020 (size: *mut usize, func: CUfunction, blocks: c_int, block_size: c_int);
    // Stream attributes, managed-memory batches and range attributes, the error log,
    // device notifications and capabilities, clusters, array queries (`exports/stream_ops.rs`,
    // `exports/device_extras.rs`, `func.rs`). Callbacks are passed as plain addresses.
    cuStreamGetAttribute @ 11000 (stream: CUstream, attr: c_int, value: *mut c_void);
    cuStreamSetAttribute @ 11000 (stream: CUstream, attr: c_int, value: *const c_void);
    cuStreamCopyAttributes @ 11000 (dst: CUstream, src: CUstream);
    cuMemRangeGetAttributes @ 8000 (data: *mut *mut c_void, sizes: *mut usize, attrs: *mut c_int, num: usize, dptr: CUdeviceptr, count: usize);
    cuMemPrefetchBatchAsync @ 13000 (
        dptrs: *mut CUdeviceptr,
        sizes: *mut usize,
        count: usize,
        locs: *mut c_void,
        idxs: *mut usize,
        num_locs: usize,
        flags: u64,
        stream: CUstream,
    );
    cuMemDiscardBatchAsync @ 13000 (dptrs: *mut CUdeviceptr, sizes: *mut usize, count: usize, flags: u64, stream: CUstream);
    cuMemDiscardAndPrefetchBatchAsync @ 13000 (
        dptrs: *mut CUdeviceptr,
        sizes: *mut usize,
        count: usize,
        locs: *mut c_void,
        idxs: *mut usize,
        num_locs: usize,
        flags: u64,
        stream: CUstream,
    );
    cuLogsRegisterCallback @ 12090 (func: *mut c_void, data: *mut c_void, out: *mut *mut c_void);
    cuLogsUnregisterCallback @ 12090 (handle: *mut c_void);
    cuLogsCurrent @ 12090 (iterator: *mut u32, flags: u32);
    cuLogsDumpToFile @ 12090 (iterator: *mut u32, path: *const c_char, flags: u32);
    cuLogsDumpToMemory @ 12090 (iterator: *mut u32, buffer: *mut c_char, size: *mut usize, flags: u32);
    cuDeviceRegisterAsyncNotification @ 12040 (dev: CUdevice, func: *mut c_void, data: *mut c_void, out: *mut *mut c_void);
    cuDeviceUnregisterAsyncNotification @ 12040 (dev: CUdevice, handle: *mut c_void);
    cuDeviceGetHostAtomicCapabilities @ 13000 (caps: *mut u32, ops: *const c_int, count: u32, dev: CUdevice);
    cuDeviceGetP2PAtomicCapabilities @ 13000 (caps: *mut u32, ops: *const c_int, count: u32, src: CUdevice, dst: CUdevice);
    cuOccupancyMaxActiveClusters @ 11070 (clusters: *mut c_int, func: CUfunction, config: *const c_void);
    cuOccupancyMaxPotentialClusterSize @ 11070 (size: *mut c_int, func: CUfunction, config: *const c_void);
    cuArrayGetMemoryRequirements @ 11060 (requirements: *mut c_void, array: *mut c_void, dev: CUdevice);
    cuArrayGetSparseProperties @ 11010 (properties: *mut c_void, array: *mut c_void);
    cuGraphicsGLRegisterBuffer @ 3000 (resource: *mut *mut c_void, buffer: u32, flags: u32);
    cuGraphicsGLRegisterImage @ 3000 (resource: *mut *mut c_void, image: u32, target: u32, flags: u32);
    cuGraphicsUnregisterResource @ 3000 (resource: *mut c_void);
    cuGraphicsResourceSetMapFlags @ 6050 (resource: *mut c_void, flags: u32);
    cuGraphicsMapResources @ 3000 (count: u32, resources: *mut *mut c_void, stream: CUstream);
    cuGraphicsUnmapResources @ 3000 (count: u32, resources: *mut *mut c_void, stream: CUstream);
    cuGraphicsResourceGetMappedPointer @ 3020 (dptr: *mut CUdeviceptr, size: *mut usize, resource: *mut c_void);
    cuGraphicsSubResourceGetMappedArray @ 3000 (array: *mut *mut c_void, resource: *mut c_void, index: u32, level: u32);
    cuGraphicsResourceGetMappedMipmappedArray @ 5000 (mipmap: *mut *mut c_void, resource: *mut c_void);
    cuGLGetDevices @ 4010 (count: *mut u32, devices: *mut CUdevice, capacity: u32, list: u32);
    cuGLRegisterBufferObject @ 2000 (buffer: u32);
    cuGLUnregisterBufferObject @ 2000 (buffer: u32);
    cuGLMapBufferObject @ 3020 (dptr: *mut CUdeviceptr, size: *mut usize, buffer: u32);
    cuGLMapBufferObjectAsync @ 3020 (dptr: *mut CUdeviceptr, size: *mut usize, buffer: u32, stream: CUstream);
    cuGLUnmapBufferObject @ 2000 (buffer: u32);
    cuGLUnmapBufferObjectAsync @ 2030 (buffer: u32, stream: CUstream);
    cuGLSetBufferObjectMapFlags @ 2030 (buffer: u32, flags: u32);
}
