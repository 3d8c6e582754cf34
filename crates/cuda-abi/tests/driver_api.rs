//! The driver API through this library's C entry points, on the real device the driver
//! discovers (the CPU device): cudart's start-up sequence as measured, then modules,
//! libraries, launches, memory, streams and events as programs use them.
//!
//! Each test but the cudart one works in its own created context, so tests running on
//! parallel threads do not share state.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ffi::{c_char, c_int, c_uint, c_void, CStr};
use std::ptr::{null, null_mut};

use cuda::export_tables::*;
use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::event::*;
use cuda::exports::init::*;
use cuda::exports::launch::*;
use cuda::exports::library::*;
use cuda::exports::link::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::mempool::*;
use cuda::exports::module::*;
use cuda::exports::stream::*;
use cuda::proc_table::cuGetProcAddress_v2;
use cuda::types::*;

/// `data[i] += add` for `i < n`, and a module variable.
const PTX: &str = "
.version 8.0
.target sm_80
.address_size 64

.visible .global .align 4 .u32 counter = 7;

.visible .entry add_u32(
    .param .u64 add_u32_data,
    .param .u32 add_u32_n,
    .param .u32 add_u32_add
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<9>;
    .reg .b64 %rd<5>;

    ld.param.u64 %rd1, [add_u32_data];
    ld.param.u32 %r1, [add_u32_n];
    ld.param.u32 %r2, [add_u32_add];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r6, %r3, %r4, %r5;
    setp.ge.u32 %p1, %r6, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r6, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r7, [%rd4];
    add.s32 %r8, %r7, %r2;
    st.global.u32 [%rd4], %r8;
DONE:
    ret;
}
";

fn ok(res: CUresult, what: &str) {
    assert_eq!(res, CUresult::SUCCESS, "{what}");
}

fn init() -> CUdevice {
    ok(unsafe { cuInit(0) }, "cuInit");
    let mut dev = -1;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
    dev
}

/// A created context, current on this thread until dropped.
struct Ctx(CUcontext);

impl Ctx {
    fn new() -> Ctx {
        let dev = init();
        let mut ctx = null_mut();
        ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate_v2");
        Ctx(ctx)
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        ok(unsafe { cuCtxDestroy_v2(self.0) }, "cuCtxDestroy_v2");
    }
}

fn table(uuid: [u8; 16]) -> *const usize {
    let id = CUuuid { bytes: uuid.map(|b| b as c_char) };
    let mut t = null();
    ok(unsafe { cuGetExportTable(&mut t, &id) }, "cuGetExportTable");
    t.cast()
}

fn slot<F: Copy>(t: *const usize, i: usize) -> F {
    assert_eq!(std::mem::size_of::<F>(), std::mem::size_of::<usize>());
    let raw = unsafe { t.add(i).read() };
    unsafe { std::mem::transmute_copy(&raw) }
}

type ClsPut =
    unsafe extern "C" fn(CUcontext, *mut c_void, *mut c_void, Option<unsafe extern "C" fn(CUcontext, *mut c_void, *mut c_void)>) -> CUresult;
type ClsDelete = unsafe extern "C" fn(CUcontext, *mut c_void) -> CUresult;
type ClsGet = unsafe extern "C" fn(*mut *mut c_void, CUcontext, *mut c_void) -> CUresult;

#[test]
fn cudart_start_up_sequence() {
    let id = CUuuid { bytes: UUID_UNNAMED_F8CF.map(|b| b as c_char) };
    let mut t = null();
    assert_eq!(unsafe { cuGetExportTable(&mut t, &id) }, CUresult::ERROR_INVALID_VALUE);
    let dev = init();
    let cudart = table(UUID_CUDART_INTERFACE);
    let hooks = table(UUID_TOOLS_RUNTIME_CALLBACK_HOOKS);
    let mut mode = 0;
    ok(unsafe { cuModuleGetLoadingMode(&mut mode) }, "loading mode");
    let mut count = 0;
    ok(unsafe { cuDeviceGetCount(&mut count) }, "count");
    assert!(count >= 1);

    // CUDART_INTERFACE[2]: the primary context, not retained.
    let primary_of: unsafe extern "C" fn(*mut CUcontext, CUdevice) -> CUresult = slot(cudart, 2);
    let mut primary = null_mut();
    ok(unsafe { primary_of(&mut primary, dev) }, "CUDART_INTERFACE[2]");
    assert!(!primary.is_null());

    let mut name = [0 as c_char; 256];
    ok(unsafe { cuDeviceGetName(name.as_mut_ptr(), 256, dev) }, "name");
    assert!(!unsafe { CStr::from_ptr(name.as_ptr()) }.to_bytes().is_empty());
    let mut mem = 0;
    ok(unsafe { cuDeviceTotalMem_v2(&mut mem, dev) }, "total mem");
    assert!(mem > 0);
    let attributes = include_str!("../data/cudart-init-device-attributes.txt");
    let ids: Vec<c_int> = attributes
        .lines()
        .filter(|l| l.starts_with(|c: char| c.is_ascii_digit()))
        .flat_map(|l| l.split(',').map(|n| n.trim().parse::<c_int>().unwrap()))
        .collect();
    assert!(ids.len() >= 222);
    for attr in ids {
        let mut v = -1;
        ok(unsafe { cuDeviceGetAttribute(&mut v, attr, dev) }, &format!("attribute {attr}"));
    }
    let mut uuid = CUuuid::default();
    ok(unsafe { cuDeviceGetUuid_v2(&mut uuid, dev) }, "uuid");

    // HOOKS[2], HOOKS[6], then the remaining tables.
    for i in [2, 6] {
        let f: unsafe extern "C" fn(*mut *mut c_void, *mut usize) -> CUresult = slot(hooks, i);
        let (mut buf, mut size) = (null_mut(), 0);
        ok(unsafe { f(&mut buf, &mut size) }, "hooks");
        assert!(size >= 1024);
    }
    table(UUID_TOOLS_TLS);
    table(UUID_UNNAMED_2131);
    let cls = table(UUID_CONTEXT_LOCAL_STORAGE);
    let checks = table(UUID_CONTEXT_CHECKS);
    let check3: unsafe extern "C" fn(*mut c_void) -> CUresult = slot(checks, 3);
    ok(unsafe { check3(null_mut()) }, "CONTEXT_CHECKS[3]");

    // INTEGRITY_CHECK[1]: the HMAC over what the public API reports.
    let integrity = table(UUID_INTEGRITY_CHECK);
    let hash: unsafe extern "C" fn(c_uint, u64, *mut [u8; 16]) -> CUresult = slot(integrity, 1);
    let mut out = [0u8; 16];
    ok(unsafe { hash(13052, 1_700_000_000, &mut out) }, "integrity");
    let mut devices = Vec::new();
    for d in 0..count {
        let mut u = CUuuid::default();
        ok(unsafe { cuDeviceGetUuid(&mut u, d) }, "uuid");
        let attr = |a| {
            let mut v = 0;
            ok(unsafe { cuDeviceGetAttribute(&mut v, a, d) }, "pci");
            v as u32
        };
        devices.push(cuda::integrity::DeviceIdentity {
            uuid: u.bytes.map(|b| b as u8),
            pci_domain: attr(50),
            pci_bus: attr(33),
            pci_device: attr(34),
        });
    }
    let mut driver_version = 0;
    ok(unsafe { cuDriverGetVersion(&mut driver_version) }, "version");
    let expected = cuda::integrity::integrity_hash(&cuda::integrity::IntegrityInput {
        driver_version: driver_version as u32,
        rt_version: 13052,
        pid: std::process::id(),
        thread: unsafe { libc::pthread_self() } as u32,
        cudart_interface_table: cudart as u64,
        integrity_table: integrity as u64,
        integrity_fn: hash as usize as u64,
        unix_seconds: 1_700_000_000,
        devices,
    });
    assert_eq!(out, expected);

    // CLS miss, then the primary context made current and retained.
    let (put, delete, get): (ClsPut, ClsDelete, ClsGet) = (slot(cls, 0), slot(cls, 1), slot(cls, 2));
    let key = 0x5eed as *mut c_void;
    let mut value = null_mut();
    assert_eq!(unsafe { get(&mut value, primary, key) }, CUresult::ERROR_INVALID_VALUE);
    let mut current = 0x1 as CUcontext;
    ok(unsafe { cuCtxGetCurrent(&mut current) }, "get current");
    assert!(current.is_null());
    ok(unsafe { cuCtxSetCurrent(primary) }, "set current");
    let mut retained = null_mut();
    ok(unsafe { cuDevicePrimaryCtxRetain(&mut retained, dev) }, "retain");
    assert_eq!(retained, primary, "slot 2 and cuDevicePrimaryCtxRetain must agree");
    let mut ctx_dev = -1;
    ok(unsafe { cuCtxGetDevice_v2(&mut ctx_dev, null_mut()) }, "cuCtxGetDevice_v2");
    assert_eq!(ctx_dev, dev);
    let check2: unsafe extern "C" fn(CUcontext, *mut c_uint, *mut *mut c_void) -> CUresult = slot(checks, 2);
    let mut zero = 9;
    ok(unsafe { check2(primary, &mut zero, null_mut()) }, "CONTEXT_CHECKS[2]");
    assert_eq!(zero, 0);
    ok(unsafe { put(primary, key, 0xabc as *mut c_void, None) }, "CLS put");
    ok(unsafe { get(&mut value, usize::MAX as CUcontext, key) }, "CLS get through (CUcontext)-1");
    assert_eq!(value as usize, 0xabc);

    // cudaMalloc + memcpy + launch (13.x: CUkernel straight to cuLaunchKernel) + sync.
    let n = 1000u32;
    let host: Vec<u32> = (0..n).collect();
    let mut dptr = 0;
    ok(unsafe { cuMemAlloc_v2(&mut dptr, 4 * n as usize) }, "alloc");
    ok(unsafe { cuMemcpyHtoD_v2(dptr, host.as_ptr().cast(), 4 * n as usize) }, "HtoD");
    let ptx = std::ffi::CString::new(PTX).unwrap();
    let mut lib = null_mut();
    let mut lib_opts = [library_option::BINARY_IS_PRESERVED];
    let mut lib_vals = [std::ptr::dangling_mut::<c_void>()];
    ok(
        unsafe { cuLibraryLoadData(&mut lib, ptx.as_ptr().cast(), null_mut(), null_mut(), 0, lib_opts.as_mut_ptr(), lib_vals.as_mut_ptr(), 1) },
        "cuLibraryLoadData",
    );
    let mut kernel = null_mut();
    ok(unsafe { cuLibraryGetKernel(&mut kernel, lib, c"add_u32".as_ptr()) }, "cuLibraryGetKernel");
    let (mut p0, mut p1, mut p2) = (dptr, n, 5u32);
    let mut params = [(&mut p0 as *mut u64).cast::<c_void>(), (&mut p1 as *mut u32).cast(), (&mut p2 as *mut u32).cast()];
    ok(unsafe { cuLaunchKernel(kernel.cast(), 4, 1, 1, 256, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) }, "launch");
    ok(unsafe { cuCtxSynchronize_v2(null_mut()) }, "sync");
    let mut back = vec![0u32; n as usize];
    ok(unsafe { cuMemcpyDtoH_v2(back.as_mut_ptr().cast(), dptr, 4 * n as usize) }, "DtoH");
    assert!(back.iter().enumerate().all(|(i, &v)| v == i as u32 + 5));
    ok(unsafe { cuMemFree_v2(dptr) }, "free");

    // At exit.
    ok(unsafe { delete(null_mut(), key) }, "CLS delete");
    assert_eq!(unsafe { delete(null_mut(), key) }, CUresult::ERROR_INVALID_VALUE);
    ok(unsafe { cuLibraryUnload(lib) }, "unload");
    ok(unsafe { cuDevicePrimaryCtxRelease_v2(dev) }, "release");
}

#[test]
fn module_load_with_jit_logs_launch_and_globals() {
    let _ctx = Ctx::new();
    let ptx = std::ffi::CString::new(PTX).unwrap();
    let mut error_log = [0x55 as c_char; 256];
    let mut options = [jit_option::ERROR_LOG_BUFFER, jit_option::ERROR_LOG_BUFFER_SIZE_BYTES];
    let mut values = [error_log.as_mut_ptr().cast::<c_void>(), 256 as *mut c_void];
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadDataEx(&mut module, ptx.as_ptr().cast(), 2, options.as_mut_ptr(), values.as_mut_ptr()) }, "load");
    assert_eq!(values[1] as usize, 0, "no errors, empty log");
    assert_eq!(error_log[0], 0);

    let mut f = null_mut();
    ok(unsafe { cuModuleGetFunction(&mut f, module, c"add_u32".as_ptr()) }, "get function");
    assert_eq!(unsafe { cuModuleGetFunction(&mut f, module, c"nope".as_ptr()) }, CUresult::ERROR_NOT_FOUND);
    ok(unsafe { cuModuleGetFunction(&mut f, module, c"add_u32".as_ptr()) }, "get function");
    let mut name = null();
    ok(unsafe { cuFuncGetName(&mut name, f) }, "name");
    assert_eq!(unsafe { CStr::from_ptr(name) }, c"add_u32");
    let mut max_threads = 0;
    ok(unsafe { cuFuncGetAttribute(&mut max_threads, function_attribute::MAX_THREADS_PER_BLOCK as c_int, f) }, "attribute");
    assert!(max_threads >= 256);
    let mut blocks = 0;
    ok(unsafe { cuOccupancyMaxActiveBlocksPerMultiprocessor(&mut blocks, f, 128, 0) }, "occupancy");
    assert!(blocks >= 1);

    // The global: read it, then use it as a kernel argument through `extra`.
    let (mut gptr, mut gsize) = (0, 0);
    ok(unsafe { cuModuleGetGlobal_v2(&mut gptr, &mut gsize, module, c"counter".as_ptr()) }, "global");
    assert_eq!(gsize, 4);
    let mut value = 0u32;
    ok(unsafe { cuMemcpyDtoH_v2((&mut value as *mut u32).cast(), gptr, 4) }, "read global");
    assert_eq!(value, 7);
    #[repr(C)]
    struct Args {
        data: u64,
        n: u32,
        add: u32,
    }
    let mut args = Args { data: gptr, n: 1, add: 35 };
    let mut size = std::mem::size_of::<Args>();
    let mut extra = [
        launch_param::BUFFER_POINTER as *mut c_void,
        (&mut args as *mut Args).cast(),
        launch_param::BUFFER_SIZE as *mut c_void,
        (&mut size as *mut usize).cast(),
        launch_param::END as *mut c_void,
    ];
    ok(unsafe { cuLaunchKernel_ptsz(f, 1, 1, 1, 32, 1, 1, 0, null_mut(), null_mut(), extra.as_mut_ptr()) }, "launch with extra");
    ok(unsafe { cuMemcpyDtoH_v2((&mut value as *mut u32).cast(), gptr, 4) }, "read global");
    assert_eq!(value, 42);

    // A bad launch configuration is the driver's INVALID_VALUE.
    assert_eq!(unsafe { cuLaunchKernel(f, 0, 1, 1, 32, 1, 1, 0, null_mut(), null_mut(), extra.as_mut_ptr()) }, CUresult::ERROR_INVALID_VALUE);
    ok(unsafe { cuModuleUnload(module) }, "unload");
    assert_eq!(unsafe { cuModuleGetFunction(&mut f, module, c"add_u32".as_ptr()) }, CUresult::ERROR_INVALID_HANDLE);

    // Broken PTX: the error log is filled and its size written back.
    let broken = std::ffi::CString::new(PTX.replace("add.s32 %r8, %r7, %r2;", "frobnicate.s32 %r8, %r7;")).unwrap();
    let mut values = [error_log.as_mut_ptr().cast::<c_void>(), 256 as *mut c_void];
    let res = unsafe { cuModuleLoadDataEx(&mut module, broken.as_ptr().cast(), 2, options.as_mut_ptr(), values.as_mut_ptr()) };
    assert_eq!(res, CUresult(218), "CUDA_ERROR_INVALID_PTX");
    let used = values[1] as usize;
    assert!(used > 0 && used < 256);
    // The size written back counts the text's bytes, not the NUL (as NVIDIA's driver does).
    assert_eq!(unsafe { CStr::from_ptr(error_log.as_ptr()) }.to_bytes().len(), used);
}

#[test]
fn memory_streams_and_events() {
    let ctx = Ctx::new();
    let (mut a, mut b) = (0, 0);
    ok(unsafe { cuMemAlloc_v2(&mut a, 256) }, "alloc");
    ok(unsafe { cuMemAlloc_v2(&mut b, 256) }, "alloc");
    let (mut base, mut size) = (0, 0);
    ok(unsafe { cuMemGetAddressRange_v2(&mut base, &mut size, a + 10) }, "range");
    assert_eq!((base, size), (a, 256));
    let mut memory_type = 0u32;
    ok(unsafe { cuPointerGetAttribute((&mut memory_type as *mut u32).cast(), pointer_attribute::MEMORY_TYPE, a) }, "pointer attribute");
    assert_eq!(memory_type, memory_type::DEVICE);

    let mut stream = null_mut();
    ok(unsafe { cuStreamCreate(&mut stream, 0) }, "stream");
    let (mut start, mut end) = (null_mut(), null_mut());
    ok(unsafe { cuEventCreate(&mut start, 0) }, "event");
    ok(unsafe { cuEventCreate(&mut end, 0) }, "event");
    ok(unsafe { cuEventRecord(start, stream) }, "record");
    ok(unsafe { cuMemsetD32Async(a, 0x0102_0304, 64, stream) }, "memset32");
    ok(unsafe { cuMemsetD8_v2(a, 0xff, 4) }, "memset8");
    ok(unsafe { cuMemcpyDtoDAsync_v2(b, a, 256, stream) }, "DtoD");
    let mut host = [0u32; 64];
    ok(unsafe { cuMemcpyDtoHAsync_v2_ptsz(host.as_mut_ptr().cast(), b, 256, stream) }, "DtoH async");
    ok(unsafe { cuEventRecord_ptsz(end, stream) }, "record");
    ok(unsafe { cuStreamSynchronize(stream) }, "sync");
    ok(unsafe { cuEventSynchronize(end) }, "event sync");
    assert_eq!(host[0], 0xffff_ffff);
    assert!(host[1..].iter().all(|&v| v == 0x0102_0304));
    let mut ms = -1.0f32;
    ok(unsafe { cuEventElapsedTime(&mut ms, start, end) }, "elapsed");
    assert!(ms >= 0.0);

    // A peer copy (one address space) and its context checks.
    ok(unsafe { cuMemsetD32_v2(a, 0x0a0b_0c0d, 64) }, "memset32");
    ok(unsafe { cuMemcpyPeer(b, ctx.0, a, ctx.0, 256) }, "peer copy");
    ok(unsafe { cuMemcpyDtoH_v2(host.as_mut_ptr().cast(), b, 256) }, "DtoH");
    assert!(host.iter().all(|&v| v == 0x0a0b_0c0d));
    assert_eq!(unsafe { cuMemcpyPeer(b, null_mut(), a, ctx.0, 256) }, CUresult::ERROR_INVALID_CONTEXT);
    ok(unsafe { cuda::exports::profiler::cuProfilerStart() }, "profiler start");
    ok(unsafe { cuda::exports::profiler::cuProfilerStop() }, "profiler stop");

    // A 2D copy of a 4x4 u8 tile at (2, 1) into host memory.
    ok(unsafe { cuMemsetD2D8_v2(a, 16, 9, 16, 16) }, "memset 2D");
    let mut tile = [0u8; 16];
    let copy = CUDA_MEMCPY2D {
        src_x_in_bytes: 2,
        src_y: 1,
        src_memory_type: memory_type::DEVICE,
        src_host: null(),
        src_device: a,
        src_array: null_mut(),
        src_pitch: 16,
        dst_x_in_bytes: 0,
        dst_y: 0,
        dst_memory_type: memory_type::HOST,
        dst_host: tile.as_mut_ptr().cast(),
        dst_device: 0,
        dst_array: null_mut(),
        dst_pitch: 4,
        width_in_bytes: 4,
        height: 4,
    };
    ok(unsafe { cuMemcpy2D_v2(&copy) }, "2D copy");
    assert_eq!(tile, [9; 16]);

    // Host callbacks run in stream order.
    unsafe extern "C" fn bump(data: *mut c_void) {
        unsafe { *data.cast::<u32>() += 1 };
    }
    unsafe extern "C" fn bump_status(_s: CUstream, status: CUresult, data: *mut c_void) {
        assert_eq!(status, CUresult::SUCCESS);
        unsafe { *data.cast::<u32>() += 10 };
    }
    let mut hits = 0u32;
    ok(unsafe { cuLaunchHostFunc(stream, Some(bump), (&mut hits as *mut u32).cast()) }, "host func");
    ok(unsafe { cuStreamAddCallback(stream, Some(bump_status), (&mut hits as *mut u32).cast(), 0) }, "callback");
    ok(unsafe { cuStreamSynchronize(stream) }, "sync");
    assert_eq!(hits, 11);

    ok(unsafe { cuEventDestroy_v2(start) }, "destroy");
    ok(unsafe { cuEventDestroy_v2(end) }, "destroy");
    assert_eq!(unsafe { cuEventQuery(end) }, CUresult::ERROR_INVALID_HANDLE);
    ok(unsafe { cuStreamDestroy_v2(stream) }, "destroy");
    ok(unsafe { cuMemFree_v2(a) }, "free");
    ok(unsafe { cuMemFree_v2(b) }, "free");

    // Pinned host memory.
    let mut pinned = null_mut();
    ok(unsafe { cuMemAllocHost_v2(&mut pinned, 4096) }, "alloc host");
    let mut dp = 0;
    ok(unsafe { cuMemHostGetDevicePointer_v2(&mut dp, pinned, 0) }, "device pointer");
    ok(unsafe { cuMemFreeHost(pinned) }, "free host");
}

#[test]
fn created_contexts_stack() {
    let dev = init();
    let mut ctx = null_mut();
    let params = CUctxCreateParams { execAffinityParams: null_mut(), numExecAffinityParams: 0, cigParams: null_mut() };
    ok(unsafe { cuCtxCreate_v4(&mut ctx, (&params as *const CUctxCreateParams).cast_mut(), 0, dev) }, "create v4");
    let mut current = null_mut();
    ok(unsafe { cuCtxGetCurrent(&mut current) }, "current");
    assert_eq!(current, ctx);
    let mut version = 0;
    ok(unsafe { cuCtxGetApiVersion(ctx, &mut version) }, "api version");
    assert_eq!(version, 3020);
    let mut popped = null_mut();
    ok(unsafe { cuCtxPopCurrent_v2(&mut popped) }, "pop");
    assert_eq!(popped, ctx);
    assert_eq!(unsafe { cuCtxSynchronize() }, CUresult::ERROR_INVALID_CONTEXT);
    ok(unsafe { cuCtxPushCurrent_v2(ctx) }, "push");
    let (mut least, mut greatest) = (1, 1);
    ok(unsafe { cuCtxGetStreamPriorityRange(&mut least, &mut greatest) }, "priorities");
    assert!(greatest <= least);
    ok(unsafe { cuCtxDestroy_v2(ctx) }, "destroy");
    assert_eq!(unsafe { cuCtxGetApiVersion(ctx, &mut version) }, CUresult::ERROR_INVALID_CONTEXT);
}

/// `gate(flag)`: spins until `*flag != 0`. `bad_store(p)`: stores to `p`.
const GATE_PTX: &str = "
.version 8.0
.target sm_80
.address_size 64
.visible .entry gate(.param .u64 flag)
{
    .reg .pred %p<2>;
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [flag];
SPIN:
    ld.volatile.global.u32 %r1, [%rd1];
    setp.eq.u32 %p1, %r1, 0;
    @%p1 bra SPIN;
    ret;
}
.visible .entry bad_store(.param .u64 p)
{
    .reg .b32 %r<2>;
    .reg .b64 %rd<2>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, 1;
    st.global.u32 [%rd1], %r1;
    ret;
}
";

fn load_gate_module() -> (CUmodule, CUfunction, CUfunction) {
    let ptx = std::ffi::CString::new(GATE_PTX).unwrap();
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, ptx.as_ptr().cast()) }, "load");
    let (mut gate, mut bad) = (null_mut(), null_mut());
    ok(unsafe { cuModuleGetFunction(&mut gate, module, c"gate".as_ptr()) }, "gate");
    ok(unsafe { cuModuleGetFunction(&mut bad, module, c"bad_store".as_ptr()) }, "bad_store");
    (module, gate, bad)
}

#[test]
fn asynchronous_streams_per_thread_stream_and_stream_ordered_memory() {
    let _ctx = Ctx::new();
    let (module, gate, _) = load_gate_module();
    let mut pinned = null_mut();
    ok(unsafe { cuMemAllocHost_v2(&mut pinned, 4) }, "alloc host");
    let flag = pinned.cast::<u32>();
    let open = || unsafe { std::ptr::write_volatile(flag, 1) };
    let mut dflag = 0;
    ok(unsafe { cuMemHostGetDevicePointer_v2(&mut dflag, pinned, 0) }, "device pointer");
    let mut params = [(&mut dflag as *mut u64).cast::<c_void>()];

    // A created stream: the launch returns while the kernel waits; so do queries.
    unsafe { std::ptr::write_volatile(flag, 0) };
    let mut stream = null_mut();
    ok(unsafe { cuStreamCreate(&mut stream, 0) }, "stream");
    let mut done = null_mut();
    ok(unsafe { cuEventCreate(&mut done, 0) }, "event");
    ok(unsafe { cuLaunchKernel(gate, 1, 1, 1, 1, 1, 1, 0, stream, params.as_mut_ptr(), null_mut()) }, "launch");
    ok(unsafe { cuEventRecord(done, stream) }, "record");
    unsafe extern "C" fn bump(data: *mut c_void) {
        unsafe { (*data.cast::<std::sync::atomic::AtomicU32>()).fetch_add(1, std::sync::atomic::Ordering::SeqCst) };
    }
    let hits = std::sync::atomic::AtomicU32::new(0);
    ok(unsafe { cuLaunchHostFunc(stream, Some(bump), &hits as *const _ as *mut c_void) }, "host func");
    assert_eq!(unsafe { cuStreamQuery(stream) }, CUresult(600), "CUDA_ERROR_NOT_READY");
    assert_eq!(unsafe { cuEventQuery(done) }, CUresult(600));
    let mut ms = 0.0f32;
    ok(unsafe { cuEventRecord(done, null_mut()) }, "record on the legacy stream");
    assert_eq!(unsafe { cuEventQuery(done) }, CUresult(600), "the legacy stream waits for the blocking stream");
    assert_eq!(unsafe { cuEventElapsedTime(&mut ms, done, done) }, CUresult(600));
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 0, "the callback waits for the kernel");
    open();
    ok(unsafe { cuStreamSynchronize(stream) }, "sync");
    ok(unsafe { cuEventSynchronize(done) }, "event sync");
    assert_eq!(hits.load(std::sync::atomic::Ordering::SeqCst), 1);
    ok(unsafe { cuEventElapsedTime(&mut ms, done, done) }, "elapsed");
    assert_eq!(ms, 0.0);

    // The per-thread default stream: a NULL stream in the _ptsz calls.
    unsafe { std::ptr::write_volatile(flag, 0) };
    ok(unsafe { cuLaunchKernel_ptsz(gate, 1, 1, 1, 1, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) }, "launch ptsz");
    assert_eq!(unsafe { cuStreamQuery_ptsz(null_mut()) }, CUresult(600));
    assert_eq!(unsafe { cuStreamQuery(2 as CUstream) }, CUresult(600), "CU_STREAM_PER_THREAD");
    ok(unsafe { cuStreamQuery(stream) }, "the created stream does not wait for it");
    let mut capturing = -1;
    ok(unsafe { cuStreamIsCapturing_ptsz(null_mut(), &mut capturing) }, "is capturing");
    assert_eq!(capturing, 0);
    open();
    ok(unsafe { cuStreamSynchronize_ptsz(null_mut()) }, "sync ptsz");

    // Stream-ordered allocation.
    let mut p = 0;
    ok(unsafe { cuMemAllocAsync(&mut p, 1024, stream) }, "alloc async");
    ok(unsafe { cuMemsetD32Async(p, 5, 256, stream) }, "memset async");
    let mut host = [0u32; 256];
    ok(unsafe { cuMemcpyDtoHAsync_v2(host.as_mut_ptr().cast(), p, 1024, stream) }, "copy");
    ok(unsafe { cuMemFreeAsync(p, stream) }, "free async");
    assert_eq!(unsafe { cuMemFreeAsync(p, stream) }, CUresult::ERROR_INVALID_VALUE, "already freed");
    ok(unsafe { cuStreamSynchronize(stream) }, "sync");
    assert!(host.iter().all(|&v| v == 5));

    ok(unsafe { cuEventDestroy_v2(done) }, "destroy");
    ok(unsafe { cuStreamDestroy_v2(stream) }, "destroy");
    ok(unsafe { cuMemFreeHost(pinned) }, "free host");
    ok(unsafe { cuModuleUnload(module) }, "unload");
}

#[test]
fn a_faulting_kernel_leaves_a_sticky_error_and_the_process_survives() {
    let ctx = Ctx::new();
    let (_, _, bad) = load_gate_module();
    let mut p = 0x10u64;
    let mut params = [(&mut p as *mut u64).cast::<c_void>()];
    ok(unsafe { cuLaunchKernel(bad, 4, 1, 1, 32, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) }, "the launch itself");
    assert_eq!(unsafe { cuCtxSynchronize() }, CUresult(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
    let mut d = 0;
    assert_eq!(unsafe { cuMemAlloc_v2(&mut d, 16) }, CUresult(700), "sticky");
    assert_eq!(unsafe { cuStreamQuery(null_mut()) }, CUresult(700));
    drop(ctx);
    // A new context works.
    let _ctx = Ctx::new();
    ok(unsafe { cuMemAlloc_v2(&mut d, 16) }, "alloc in a new context");
    ok(unsafe { cuMemFree_v2(d) }, "free");
}

/// `data[tid] = twice(tid)`, `twice` left to another module.
const LINK_CALLER: &str = "
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 r) twice(.param .b32 x);
.visible .entry call_twice(.param .u64 data)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [data];
    mov.u32 %r1, %tid.x;
    {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call.uni (b), twice, (a);
    ld.param.b32 %r2, [b];
    }
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r2;
    ret;
}
";

const LINK_CALLEE: &str = "
.version 8.0
.target sm_80
.address_size 64
.visible .func (.param .b32 r) twice(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    add.s32 %r2, %r1, %r1;
    st.param.b32 [r], %r2;
    ret;
}
";

#[test]
fn jit_link_with_logs_then_load_and_launch() {
    let _ctx = Ctx::new();
    // cuGetProcAddress hands out the _v2 ABI to CUDA >= 6.5 callers.
    let mut pfn = null_mut();
    ok(unsafe { cuGetProcAddress_v2(c"cuLinkCreate".as_ptr(), &mut pfn, 12000, 0, null_mut()) }, "proc address");
    assert_eq!(pfn, cuLinkCreate_v2 as *mut c_void);

    let mut error_log = [0x55 as c_char; 256];
    let mut options = [jit_option::ERROR_LOG_BUFFER, jit_option::ERROR_LOG_BUFFER_SIZE_BYTES, 2 /* CU_JIT_WALL_TIME */];
    let mut values = [error_log.as_mut_ptr().cast::<c_void>(), 256 as *mut c_void, usize::MAX as *mut c_void];
    let mut state = null_mut();
    ok(unsafe { cuLinkCreate_v2(3, options.as_mut_ptr(), values.as_mut_ptr(), &mut state) }, "cuLinkCreate_v2");
    for (text, name) in [(LINK_CALLER, c"caller"), (LINK_CALLEE, c"callee")] {
        let text = std::ffi::CString::new(text).unwrap();
        let bytes = text.as_bytes_with_nul();
        let res = unsafe { cuLinkAddData_v2(state, 1, bytes.as_ptr().cast_mut().cast(), bytes.len(), name.as_ptr(), 0, null_mut(), null_mut()) };
        ok(res, "cuLinkAddData_v2");
    }
    let (mut cubin, mut size) = (null_mut(), 0usize);
    ok(unsafe { cuLinkComplete(state, &mut cubin, &mut size) }, "cuLinkComplete");
    assert_eq!(values[1] as usize, 0, "no errors, empty log");
    let wall_ms = f32::from_bits(values[2] as usize as u32);
    assert!(wall_ms.is_finite() && wall_ms >= 0.0, "CU_JIT_WALL_TIME wrote {wall_ms}");
    // The image is NUL-terminated text of `size` bytes, loadable as a module.
    assert_eq!(unsafe { CStr::from_ptr(cubin.cast()) }.to_bytes().len() + 1, size);
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, cubin) }, "load the linked image");
    ok(unsafe { cuLinkDestroy(state) }, "cuLinkDestroy");
    assert_eq!(unsafe { cuLinkDestroy(state) }, CUresult::ERROR_INVALID_HANDLE);

    let mut f = null_mut();
    ok(unsafe { cuModuleGetFunction(&mut f, module, c"call_twice".as_ptr()) }, "get function");
    let mut data = 0;
    ok(unsafe { cuMemAlloc_v2(&mut data, 32 * 4) }, "alloc");
    let mut params = [(&mut data as *mut u64).cast::<c_void>()];
    ok(unsafe { cuLaunchKernel(f, 1, 1, 1, 32, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) }, "launch");
    let mut host = [0u32; 32];
    ok(unsafe { cuMemcpyDtoH_v2(host.as_mut_ptr().cast(), data, 32 * 4) }, "read back");
    assert_eq!(host.to_vec(), (0..32).map(|i| 2 * i).collect::<Vec<u32>>());
    ok(unsafe { cuMemFree_v2(data) }, "free");
    ok(unsafe { cuModuleUnload(module) }, "unload");

    // An undefined reference: NVIDIA's log line in the error buffer, its size written back.
    let mut values = [error_log.as_mut_ptr().cast::<c_void>(), 256 as *mut c_void];
    ok(unsafe { cuLinkCreate(2, options.as_mut_ptr(), values.as_mut_ptr(), &mut state) }, "cuLinkCreate");
    let text = std::ffi::CString::new(LINK_CALLER).unwrap();
    let bytes = text.as_bytes_with_nul();
    ok(unsafe { cuLinkAddData(state, 1, bytes.as_ptr().cast_mut().cast(), bytes.len(), c"caller".as_ptr(), 0, null_mut(), null_mut()) }, "add");
    assert_eq!(unsafe { cuLinkComplete(state, &mut cubin, null_mut()) }, CUresult(300), "CUDA_ERROR_INVALID_SOURCE");
    let expected = c"error   : Undefined reference to 'twice' in 'caller'";
    assert_eq!(unsafe { CStr::from_ptr(error_log.as_ptr()) }, expected);
    assert_eq!(values[1] as usize, expected.to_bytes().len(), "the text's bytes, as NVIDIA's driver reports");
    ok(unsafe { cuLinkDestroy(state) }, "cuLinkDestroy");
}

/// The export-table slots NVIDIA's math libraries call (docs/corpus/nvidia-libs.md):
/// cuBLASLt's current context and context id, cuBLAS's stream resolution and stream id,
/// cuFFT's "the module's functions" visitor.
#[test]
fn math_library_export_slots() {
    let ctx = Ctx::new();
    type CurrentCtx = unsafe extern "C" fn(*mut CUcontext) -> CUresult;
    type CtxId = unsafe extern "C" fn(CUcontext, *mut u64) -> CUresult;
    type ResolveStream = unsafe extern "C" fn(CUcontext, CUstream, *mut CUstream, c_int) -> CUresult;
    type StreamId = unsafe extern "C" fn(CUcontext, CUstream, *mut u64) -> CUresult;
    type Visitor = unsafe extern "C" fn(*mut c_void, CUfunction);
    type ForEachFunction = unsafe extern "C" fn(CUcontext, CUmodule, Option<Visitor>, *mut c_void) -> c_int;

    // TOOLS_TLS[2]: the current context; 21318c60[4]: its id, as cuCtxGetId.
    let current: CurrentCtx = slot(table(UUID_TOOLS_TLS), 2);
    let mut got = null_mut();
    ok(unsafe { current(&mut got) }, "TOOLS_TLS[2]");
    assert_eq!(got, ctx.0);
    let t2131 = table(UUID_UNNAMED_2131);
    let ctx_id: CtxId = slot(t2131, 4);
    let (mut id, mut expected) = (0u64, 1u64);
    ok(unsafe { ctx_id(ctx.0, &mut id) }, "21318c60[4]");
    ok(unsafe { cuCtxGetId(ctx.0, &mut expected) }, "cuCtxGetId");
    assert_eq!(id, expected);
    let other = Ctx::new();
    ok(unsafe { ctx_id(other.0, &mut id) }, "21318c60[4] of another context");
    assert_ne!(id, expected);
    drop(other);
    ok(unsafe { cuCtxSetCurrent(ctx.0) }, "current again");

    // 21318c60[51] then [39]: a stream handle resolves to itself, its id is cuStreamGetId's;
    // NULL stays the legacy stream unless the per-thread flag is set.
    let resolve: ResolveStream = slot(t2131, 51);
    let stream_id: StreamId = slot(t2131, 39);
    let mut stream = null_mut();
    ok(unsafe { cuStreamCreate(&mut stream, 0) }, "stream");
    let mut resolved = null_mut();
    ok(unsafe { resolve(ctx.0, stream, &mut resolved, 0) }, "21318c60[51]");
    assert_eq!(resolved, stream);
    ok(unsafe { stream_id(ctx.0, resolved, &mut id) }, "21318c60[39]");
    ok(unsafe { cuStreamGetId(stream, &mut expected) }, "cuStreamGetId");
    assert_eq!(id, expected);
    ok(unsafe { resolve(ctx.0, null_mut(), &mut resolved, 0) }, "legacy stream");
    assert!(resolved.is_null());
    ok(unsafe { resolve(ctx.0, null_mut(), &mut resolved, 1) }, "per-thread stream");
    assert_eq!(resolved as usize, 2, "CU_STREAM_PER_THREAD");
    let (mut legacy, mut per_thread) = (0, 0);
    ok(unsafe { stream_id(ctx.0, null_mut(), &mut legacy) }, "legacy stream id");
    ok(unsafe { stream_id(ctx.0, 2 as CUstream, &mut per_thread) }, "per-thread stream id");
    assert!(legacy != per_thread && legacy != expected && per_thread != expected);
    ok(unsafe { cuStreamDestroy_v2(stream) }, "destroy stream");
    assert_ne!(unsafe { resolve(ctx.0, stream, &mut resolved, 0) }, CUresult::SUCCESS, "a destroyed stream");

    // 6e163fbe[7]: visits each function of the module and answers how many.
    unsafe extern "C" fn keep(user: *mut c_void, f: CUfunction) {
        unsafe { user.cast::<Vec<CUfunction>>().as_mut().unwrap().push(f) };
    }
    let for_each: ForEachFunction = slot(table(UUID_UNNAMED_6E16), 7);
    assert!(unsafe { table(UUID_UNNAMED_6E16).read() } > 7 * 8, "cuFFT wants at least 8 slots");
    let ptx = std::ffi::CString::new(PTX).unwrap();
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, ptx.as_ptr().cast()) }, "load");
    let mut seen: Vec<CUfunction> = Vec::new();
    assert_eq!(unsafe { for_each(ctx.0, module, Some(keep), (&mut seen as *mut Vec<CUfunction>).cast()) }, 1);
    assert_eq!(seen.len(), 1);
    let mut name = null();
    ok(unsafe { cuFuncGetName(&mut name, seen[0]) }, "name");
    assert_eq!(unsafe { CStr::from_ptr(name) }, c"add_u32");
    // The function it visited launches.
    let mut data = 0;
    ok(unsafe { cuMemAlloc_v2(&mut data, 4) }, "alloc");
    ok(unsafe { cuMemsetD32_v2(data, 5, 1) }, "memset");
    let (mut n, mut add) = (1u32, 10u32);
    let mut params = [(&mut data as *mut u64).cast::<c_void>(), (&mut n as *mut u32).cast(), (&mut add as *mut u32).cast()];
    ok(unsafe { cuLaunchKernel(seen[0], 1, 1, 1, 32, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) }, "launch");
    let mut value = 0u32;
    ok(unsafe { cuMemcpyDtoH_v2((&mut value as *mut u32).cast(), data, 4) }, "read");
    assert_eq!(value, 15);
    ok(unsafe { cuMemFree_v2(data) }, "free");
    ok(unsafe { cuModuleUnload(module) }, "unload");
    assert_eq!(unsafe { for_each(ctx.0, module, Some(keep), (&mut seen as *mut Vec<CUfunction>).cast()) }, 0, "an unloaded module");
}
