//! The plain (unversioned) legacy names NVIDIA's driver still exports and clients still
//! resolve (cuBLASLt: `cuCtxPushCurrent`, `cuCtxPopCurrent`): exported by the built
//! library, answered by `cuGetProcAddress` for the CUDA version they belong to, and
//! working when called through the pointer it returns. `cuGraphExecUpdate` keeps its
//! CUDA 10.2 ABI under the plain name (two out-pointers, not `_v2`'s record).

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ffi::{c_int, c_uint, c_void, CString};
use std::ptr::null_mut;

use cuda::exports::device::*;
use cuda::exports::init::*;
use cuda::exports::memory::*;
use cuda::proc_table::cuGetProcAddress_v2;
use cuda::types::*;

/// Plain names with the ABI of their versioned twin, the CUDA version of that old ABI,
/// and the twin a request for CUDA 11.0 resolves to.
const SAME_ABI: &[(&str, c_int, &str)] = &[
    ("cuCtxCreate", 2000, "cuCtxCreate_v2"),
    ("cuCtxDestroy", 2000, "cuCtxDestroy_v2"),
    ("cuCtxPushCurrent", 2000, "cuCtxPushCurrent_v2"),
    ("cuCtxPopCurrent", 2000, "cuCtxPopCurrent_v2"),
    ("cuStreamDestroy", 2000, "cuStreamDestroy_v2"),
    ("cuEventDestroy", 2000, "cuEventDestroy_v2"),
    ("cuMemHostRegister", 4000, "cuMemHostRegister_v2"),
    ("cuLinkCreate", 5050, "cuLinkCreate_v2"),
    ("cuLinkAddData", 5050, "cuLinkAddData_v2"),
    ("cuLinkAddFile", 5050, "cuLinkAddFile_v2"),
    ("cuDevicePrimaryCtxRelease", 7000, "cuDevicePrimaryCtxRelease_v2"),
    ("cuDevicePrimaryCtxReset", 7000, "cuDevicePrimaryCtxReset_v2"),
    ("cuDevicePrimaryCtxSetFlags", 7000, "cuDevicePrimaryCtxSetFlags_v2"),
];

/// Plain names whose pre-3.2 ABI took 32-bit device pointers: exported, answering
/// `CUDA_ERROR_INVALID_CONTEXT` as NVIDIA's 64-bit driver does (measured on an H200).
const OLD_32_BIT_POINTER_ABI: &[&str] =
    &["cuMemAlloc", "cuMemFree", "cuMemcpyHtoD", "cuMemcpyDtoH", "cuMemsetD8", "cuModuleGetGlobal", "cuMemGetAddressRange", "cuArrayCreate"];

fn ok(res: CUresult, what: &str) {
    assert_eq!(res, CUresult::SUCCESS, "{what}");
}

fn proc_address(name: &str, version: c_int) -> (CUresult, *mut c_void) {
    let name = CString::new(name).unwrap();
    let (mut pfn, mut status) = (null_mut(), -1);
    let res = unsafe { cuGetProcAddress_v2(name.as_ptr(), &mut pfn, version, 0, &mut status) };
    (res, pfn)
}

/// The cdylib cargo built next to this test executable.
fn shared_library() -> *mut c_void {
    let exe = std::env::current_exe().unwrap();
    let path = exe.parent().unwrap().join("libcuda.so");
    let path = CString::new(path.into_os_string().into_encoded_bytes()).unwrap();
    let handle = unsafe { libc::dlopen(path.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL) };
    assert!(!handle.is_null());
    handle
}

fn dlsym(lib: *mut c_void, name: &str) -> *mut c_void {
    let name = CString::new(name).unwrap();
    unsafe { libc::dlsym(lib, name.as_ptr()) }
}

#[test]
fn plain_names_are_exported_and_resolved_by_version() {
    let lib = shared_library();
    for &(plain, old_version, twin) in SAME_ABI {
        assert!(!dlsym(lib, plain).is_null(), "{plain} is not exported");
        let (res, old) = proc_address(plain, old_version);
        assert_eq!(res, CUresult::SUCCESS, "{plain} at {old_version}");
        assert_eq!(old, cuda::proc_table::symbol(plain).unwrap().addr.0 as *mut c_void, "{plain} at {old_version}");
        let (res, current) = proc_address(plain, 11000);
        assert_eq!(res, CUresult::SUCCESS, "{plain} at 11000");
        assert_eq!(current, cuda::proc_table::symbol(twin).unwrap().addr.0 as *mut c_void, "{plain} at 11000");
        assert!(cuda::proc_table::symbol(plain).unwrap().implemented, "{plain} is a stub");
    }
    // The dlopened library is a second instance of the driver: initialize it too.
    let init: unsafe extern "C" fn(c_uint) -> CUresult = unsafe { std::mem::transmute(dlsym(lib, "cuInit")) };
    ok(unsafe { init(0) }, "cuInit");
    for plain in OLD_32_BIT_POINTER_ABI {
        let f = dlsym(lib, plain);
        assert!(!f.is_null(), "{plain} is not exported");
        // Called with the old ABI's arguments (a 32-bit out-pointer and size), it refuses.
        let mut ptr32: u32 = 0x5555;
        let old: unsafe extern "C" fn(*mut u32, u32) -> CUresult = unsafe { std::mem::transmute(f) };
        assert_eq!(unsafe { old(&mut ptr32, 4096) }, CUresult::ERROR_INVALID_CONTEXT, "{plain}");
        assert_eq!(ptr32, 0x5555, "{plain} wrote its output");
        // A request for CUDA 2.0 gets the old entry point, current versions the _v2.
        let own = cuda::proc_table::symbol(plain).unwrap();
        assert!(own.implemented, "{plain} is a stub");
        assert_eq!(proc_address(plain, 2000).1, own.addr.0 as *mut c_void, "{plain} at 2000");
        let (res, current) = proc_address(plain, 13000);
        assert_eq!(res, CUresult::SUCCESS, "{plain}");
        assert_ne!(current, own.addr.0 as *mut c_void, "{plain} at 13000");
    }
    assert!(!dlsym(lib, "cuMemAllocHost").is_null());
}

type CtxCreate = unsafe extern "C" fn(*mut CUcontext, c_uint, CUdevice) -> CUresult;
type CtxPush = unsafe extern "C" fn(CUcontext) -> CUresult;
type CtxPop = unsafe extern "C" fn(*mut CUcontext) -> CUresult;
type CtxGetCurrent = unsafe extern "C" fn(*mut CUcontext) -> CUresult;
type StreamCreate = unsafe extern "C" fn(*mut CUstream, c_uint) -> CUresult;
type Destroy = unsafe extern "C" fn(*mut c_void) -> CUresult;
type EventCreate = unsafe extern "C" fn(*mut CUevent, c_uint) -> CUresult;
/// `cuMemAllocHost`'s old ABI declared with a 64-bit size, to put garbage in the upper
/// half of the register the 32-bit `unsigned int` travels in.
type MemAllocHostWide = unsafe extern "C" fn(*mut *mut c_void, u64) -> CUresult;

fn resolve<F: Copy>(name: &str, version: c_int) -> F {
    let (res, pfn) = proc_address(name, version);
    assert_eq!(res, CUresult::SUCCESS, "{name}");
    assert!(!pfn.is_null());
    unsafe { std::mem::transmute_copy(&pfn) }
}

#[test]
fn plain_names_work_through_cu_get_proc_address() {
    ok(unsafe { cuInit(0) }, "cuInit");
    let mut dev = -1;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
    let create: CtxCreate = resolve("cuCtxCreate", 2000);
    let push: CtxPush = resolve("cuCtxPushCurrent", 2000);
    let pop: CtxPop = resolve("cuCtxPopCurrent", 2000);
    let destroy_ctx: Destroy = resolve("cuCtxDestroy", 2000);
    let get_current: CtxGetCurrent = resolve("cuCtxGetCurrent", 13000);

    let mut ctx = null_mut();
    ok(unsafe { create(&mut ctx, 0, dev) }, "cuCtxCreate");
    let mut current = null_mut();
    ok(unsafe { get_current(&mut current) }, "cuCtxGetCurrent");
    assert_eq!(current, ctx, "cuCtxCreate makes the new context current");
    let mut popped = null_mut();
    ok(unsafe { pop(&mut popped) }, "cuCtxPopCurrent");
    assert_eq!(popped, ctx);
    ok(unsafe { get_current(&mut current) }, "cuCtxGetCurrent");
    assert_ne!(current, ctx);
    ok(unsafe { push(ctx) }, "cuCtxPushCurrent");
    ok(unsafe { get_current(&mut current) }, "cuCtxGetCurrent");
    assert_eq!(current, ctx);

    let stream_create: StreamCreate = resolve("cuStreamCreate", 13000);
    let stream_destroy: Destroy = resolve("cuStreamDestroy", 2000);
    let mut stream = null_mut();
    ok(unsafe { stream_create(&mut stream, 0) }, "cuStreamCreate");
    ok(unsafe { stream_destroy(stream.cast()) }, "cuStreamDestroy");
    assert_eq!(unsafe { stream_destroy(stream.cast()) }, CUresult::ERROR_INVALID_HANDLE, "destroyed twice");

    let event_create: EventCreate = resolve("cuEventCreate", 13000);
    let event_destroy: Destroy = resolve("cuEventDestroy", 2000);
    let mut event = null_mut();
    ok(unsafe { event_create(&mut event, 0) }, "cuEventCreate");
    ok(unsafe { event_destroy(event.cast()) }, "cuEventDestroy");
    assert_eq!(unsafe { event_destroy(event.cast()) }, CUresult::ERROR_INVALID_HANDLE, "destroyed twice");

    // The 32-bit size of the old cuMemAllocHost: only the low half of the register counts.
    let alloc_host: MemAllocHostWide = resolve("cuMemAllocHost", 2000);
    let mut host = null_mut();
    ok(unsafe { alloc_host(&mut host, 0xdead_beef_0000_1000) }, "cuMemAllocHost");
    let (mut base, mut size) = (0, 0);
    ok(unsafe { cuMemGetAddressRange_v2(&mut base, &mut size, host as u64) }, "cuMemGetAddressRange_v2");
    assert_eq!((base, size), (host as u64, 0x1000));
    unsafe { host.cast::<u8>().write_bytes(0xab, 0x1000) };
    ok(unsafe { cuMemFreeHost(host) }, "cuMemFreeHost");

    ok(unsafe { destroy_ctx(ctx.cast()) }, "cuCtxDestroy");
}

/// `cuGraphExecUpdate(exec, graph, CUgraphNode* errorNode, CUgraphExecUpdateResult* result)`,
/// the CUDA 10.2 ABI NVIDIA's driver exports under the plain name.
type GraphExecUpdateV1 = unsafe extern "C" fn(*mut c_void, *mut c_void, *mut *mut c_void, *mut c_int) -> CUresult;

#[test]
fn plain_graph_exec_update_keeps_its_cuda_10_2_abi() {
    use cuda::exports::context::{cuCtxCreate_v2, cuCtxDestroy_v2};
    use cuda::exports::graph::*;
    let lib = shared_library();
    assert!(!dlsym(lib, "cuGraphExecUpdate").is_null(), "cuGraphExecUpdate is not exported");
    let v1: GraphExecUpdateV1 = resolve("cuGraphExecUpdate", 10020);
    assert_eq!(v1 as *const (), cuda::proc_table::symbol("cuGraphExecUpdate").unwrap().addr.0);
    assert_eq!(proc_address("cuGraphExecUpdate", 12000).1, cuda::proc_table::symbol("cuGraphExecUpdate_v2").unwrap().addr.0 as *mut c_void);

    ok(unsafe { cuInit(0) }, "cuInit");
    let mut dev = -1;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
    let mut ctx = null_mut();
    ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate_v2");
    let graph_of = |nodes: usize| {
        let mut g = null_mut();
        ok(unsafe { cuGraphCreate(&mut g, 0) }, "cuGraphCreate");
        for _ in 0..nodes {
            let mut node = null_mut();
            ok(unsafe { cuGraphAddEmptyNode(&mut node, g, std::ptr::null(), 0) }, "cuGraphAddEmptyNode");
        }
        g
    };
    let (one, same, two) = (graph_of(1), graph_of(1), graph_of(2));
    let mut exec = null_mut();
    ok(unsafe { cuGraphInstantiateWithFlags(&mut exec, one, 0) }, "instantiate");
    let (mut node, mut result) = (0x1 as *mut c_void, -1);
    ok(unsafe { v1(exec, same, &mut node, &mut result) }, "update with the same topology");
    assert_eq!((node, result), (null_mut(), 0), "CU_GRAPH_EXEC_UPDATE_SUCCESS, no node");
    assert_eq!(unsafe { v1(exec, two, &mut node, &mut result) }, CUresult(910), "CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE");
    assert_eq!(result, 2, "CU_GRAPH_EXEC_UPDATE_ERROR_TOPOLOGY_CHANGED");
    ok(unsafe { v1(exec, same, null_mut(), null_mut()) }, "no out-pointers");
    ok(unsafe { cuGraphExecDestroy(exec) }, "cuGraphExecDestroy");
    for g in [one, same, two] {
        ok(unsafe { cuGraphDestroy(g) }, "cuGraphDestroy");
    }
    ok(unsafe { cuCtxDestroy_v2(ctx) }, "cuCtxDestroy_v2");
}

/// `cuDeviceTotalMem`'s 32-bit size: written when it fits, else left alone with success
/// (NVIDIA's answer for an H200's 141 GB); execution affinity: unsupported, and a context
/// reports `(CU_EXEC_AFFINITY_TYPE_MAX, 0)` (measured there); `cuPointerSetAttribute`
/// sets `SYNC_MEMOPS` of an allocation, which `cuPointerGetAttribute` then reports, and
/// refuses other attributes, unknown pointers and a NULL value.
#[test]
fn old_total_mem_exec_affinity_and_sync_memops() {
    ok(unsafe { cuInit(0) }, "cuInit");
    let lib = shared_library();
    let init: unsafe extern "C" fn(c_uint) -> CUresult = unsafe { std::mem::transmute(dlsym(lib, "cuInit")) };
    ok(unsafe { init(0) }, "cuInit of the dlopened instance");
    let mut dev = -1;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
    let mut total: usize = 0;
    ok(unsafe { cuDeviceTotalMem_v2(&mut total, dev) }, "cuDeviceTotalMem_v2");
    let total32: unsafe extern "C" fn(*mut u32, CUdevice) -> CUresult = unsafe { std::mem::transmute(dlsym(lib, "cuDeviceTotalMem")) };
    let mut small: u32 = 0x5555;
    ok(unsafe { total32(&mut small, dev) }, "cuDeviceTotalMem");
    let want = u32::try_from(total).unwrap_or(0x5555);
    assert_eq!(small, want, "the 32-bit size of {total} bytes");
    assert_eq!(unsafe { total32(null_mut(), dev) }, CUresult::ERROR_INVALID_VALUE);
    assert_eq!(unsafe { total32(&mut small, 99) }, CUresult::ERROR_INVALID_DEVICE);

    use cuda::exports::legacy_abi::*;
    let mut supported = -1;
    ok(unsafe { cuDeviceGetExecAffinitySupport(&mut supported, 0, dev) }, "cuDeviceGetExecAffinitySupport");
    assert_eq!(supported, 0);
    let mut ctx = null_mut();
    ok(unsafe { cuda::exports::context::cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate");
    let mut param = CUexecAffinityParam { kind: -1, sm_count: 7 };
    ok(unsafe { cuCtxGetExecAffinity(&mut param, 0) }, "cuCtxGetExecAffinity");
    assert_eq!((param.kind, param.sm_count), (1, 0));
    assert_eq!(unsafe { cuCtxGetExecAffinity(&mut param, 1) }, CUresult(224), "CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY");
    assert_eq!(unsafe { cuCtxGetExecAffinity(null_mut(), 0) }, CUresult::ERROR_INVALID_VALUE);

    let mut p: CUdeviceptr = 0;
    ok(unsafe { cuMemAlloc_v2(&mut p, 4096) }, "cuMemAlloc_v2");
    let sync_memops = |ptr: CUdeviceptr| {
        let mut v: c_int = -1;
        ok(unsafe { cuPointerGetAttribute((&mut v as *mut c_int).cast(), 6, ptr) }, "cuPointerGetAttribute(SYNC_MEMOPS)");
        v
    };
    assert_eq!(sync_memops(p + 100), 0);
    let one: c_int = 1;
    let value = (&one as *const c_int).cast::<c_void>();
    ok(unsafe { cuPointerSetAttribute(value, 6, p + 100) }, "cuPointerSetAttribute(SYNC_MEMOPS)");
    assert_eq!(sync_memops(p), 1, "set through an interior pointer, read at the base");
    assert_eq!(unsafe { cuPointerSetAttribute(value, 1, p) }, CUresult::ERROR_INVALID_VALUE, "another attribute");
    let host = [0u8; 16];
    assert_eq!(unsafe { cuPointerSetAttribute(value, 6, host.as_ptr() as CUdeviceptr) }, CUresult::ERROR_INVALID_VALUE, "host memory");
    assert_eq!(unsafe { cuPointerSetAttribute(std::ptr::null(), 6, p) }, CUresult::ERROR_INVALID_VALUE, "NULL value");
    ok(unsafe { cuMemFree_v2(p) }, "cuMemFree_v2");
    ok(unsafe { cuda::exports::context::cuCtxDestroy_v2(ctx) }, "cuCtxDestroy");
}
