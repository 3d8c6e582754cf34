//! Driver-level tests over the fake device ([`crate::fake`]): contexts, CLS, memory,
//! modules and libraries, launches, streams and events. Each test builds its own
//! [`Driver`]; context stacks are per thread and per driver, so tests stay independent.

use std::ffi::c_void;
use std::sync::{Arc, Mutex};

use backend_api::LoadOptions;

use crate::fake::FakeDevice;
use crate::*;

pub(crate) fn setup() -> (Driver, Arc<FakeDevice>) {
    let device = FakeDevice::new();
    let driver = Driver::new(vec![device.clone()]);
    let ctx = driver.primary_ctx_retain(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();
    (driver, device)
}

/// PTX the fake device understands.
const PTX: &str = "\0";
fn ptx_module() -> String {
    [
        ".version 8.5",
        ".target sm_80",
        ".address_size 64",
        ".global .align 4 .u32 counter[4];",
        ".visible .entry saxpy(.param .u32 n, .param .f32 a, .param .u64 x, .param .u64 y)",
        "{ ret; }",
        ".visible .entry small(.param .u8 c, .param .align 8 .b8 s[12])",
        ".maxntid 128, 1, 1",
        "{ ret; }",
        ".visible .entry noargs()",
        "SHARED_1K",
        "{ ret; }",
        ".visible .entry fault_kernel(.param .u64 p)",
        "{ ret; }",
        ".visible .entry write42_kernel(.param .u64 p)",
        "{ ret; }",
        "",
    ]
    .join("\n")
        + PTX
}

pub(crate) fn load_module(driver: &Driver) -> ModuleHandle {
    let ptx = ptx_module();
    // SAFETY: NUL-terminated PTX text.
    let (result, logs) = unsafe { driver.module_load_data(ptx.as_ptr().cast(), &LoadOptions::default()) };
    assert_eq!(logs.error, "");
    result.unwrap()
}

/// A one-block, one-thread kernel node of `f`, whose one (pointer) parameter is `ptr`.
pub(crate) fn pointer_kernel_node(driver: &Driver, f: FunctionHandle, mut ptr: u64) -> crate::graph::NodeParams {
    let mut args = [&mut ptr as *mut u64 as *mut c_void];
    let d = crate::graph::KernelNodeDesc {
        func: f.as_raw(),
        kern: std::ptr::null_mut(),
        ctx: CtxHandle::NULL,
        grid: [1, 1, 1],
        block: [1, 1, 1],
        shared_bytes: 0,
        kernel_params: args.as_mut_ptr(),
        extra: std::ptr::null_mut(),
    };
    // SAFETY: one argument pointer for the one parameter (copied by the call).
    crate::graph::NodeParams::Kernel(unsafe { driver.kernel_params(&d) }.unwrap())
}

// ---- initialization ------------------------------------------------------------------

#[test]
fn global_driver_needs_init() {
    assert_eq!(init(1).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver().err(), Some(CuError::NOT_INITIALIZED));
    let result = init(0);
    assert!(result.is_ok() || result.err() == Some(CuError::NO_DEVICE));
    assert!(driver().is_ok());
    assert!(driver_version() >= 13000);
}

// ---- contexts ------------------------------------------------------------------------

#[test]
fn context_stack_rules() {
    let driver = Driver::new(vec![FakeDevice::new()]);
    assert_eq!(driver.ctx_get_current(), CtxHandle::NULL);
    assert_eq!(driver.ctx_pop_current().unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.ctx_get_device(CtxHandle::NULL).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.mem_alloc(16).unwrap_err(), CuError::INVALID_CONTEXT);
    // NULL with an empty stack is a no-op.
    driver.ctx_set_current(CtxHandle::NULL).unwrap();

    let a = driver.ctx_create(0, 0).unwrap(); // pushed
    assert_eq!(driver.ctx_get_current(), a);
    let b = driver.ctx_create(0, 0).unwrap();
    assert_eq!(driver.ctx_get_current(), b);
    driver.ctx_set_current(a).unwrap(); // replaces the top: [a, a]
    assert_eq!(driver.ctx_pop_current().unwrap(), a);
    assert_eq!(driver.ctx_get_current(), a);
    driver.ctx_push_current(b).unwrap(); // [a, b]
    driver.ctx_set_current(CtxHandle::NULL).unwrap(); // pops: [a]
    assert_eq!(driver.ctx_get_current(), a);
    assert_eq!(driver.ctx_get_device(CtxHandle::NULL).unwrap(), 0);
    assert_eq!(driver.ctx_get_device(b).unwrap(), 0);

    // Destroying the current context pops it.
    driver.ctx_push_current(b).unwrap();
    driver.ctx_destroy(b).unwrap();
    assert_eq!(driver.ctx_get_current(), a);
    // A stale handle may be pushed or made current (NVIDIA's driver 580 accepts it); the
    // calls under it answer CONTEXT_IS_DESTROYED. Destroying it again is INVALID_CONTEXT.
    driver.ctx_push_current(b).unwrap();
    assert_eq!(driver.mem_alloc(16).unwrap_err(), CuError::CONTEXT_IS_DESTROYED);
    driver.ctx_set_current(b).unwrap();
    assert_eq!(driver.ctx_pop_current().unwrap(), b);
    assert_eq!(driver.ctx_get_current(), a);
    assert_eq!(driver.ctx_destroy(b).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.ctx_push_current(CtxHandle(0x1234)).unwrap_err(), CuError::INVALID_CONTEXT);
    // A context destroyed while current elsewhere: CONTEXT_IS_DESTROYED there.
    driver.ctx_push_current(a).unwrap();
    driver.ctx_destroy(a).unwrap();
    assert_eq!(driver.ctx_get_current(), a);
    assert_eq!(driver.mem_alloc(16).unwrap_err(), CuError::CONTEXT_IS_DESTROYED);
    assert_eq!(driver.ctx_create(0x3, 0).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.ctx_create(0, 1).unwrap_err(), CuError::INVALID_DEVICE);
}

#[test]
fn context_stacks_are_per_thread() {
    let (driver, _) = setup();
    let driver = Arc::new(driver);
    let d = driver.clone();
    std::thread::spawn(move || {
        assert_eq!(d.ctx_get_current(), CtxHandle::NULL);
        assert_eq!(d.mem_alloc(8).unwrap_err(), CuError::INVALID_CONTEXT);
    })
    .join()
    .unwrap();
    assert!(driver.mem_alloc(8).is_ok());
}

#[test]
fn driver_calls_work_from_thread_local_destructors() {
    // cudart's exit handlers run after the thread's TLS destructors; the context stack
    // must stay reachable (here: a destructor registered before the driver's own).
    struct CallsDriverOnDrop(Arc<Driver>);
    impl Drop for CallsDriverOnDrop {
        fn drop(&mut self) {
            let _ = self.0.ctx_get_current();
            let _ = self.0.cls_get(CtxHandle::NULL, 1);
        }
    }
    thread_local! {
        static LATE: std::cell::RefCell<Option<CallsDriverOnDrop>> = const { std::cell::RefCell::new(None) };
    }
    let (driver, _) = setup();
    let driver = Arc::new(driver);
    let d = driver.clone();
    std::thread::spawn(move || {
        LATE.with(|late| *late.borrow_mut() = Some(CallsDriverOnDrop(d.clone())));
        d.ctx_set_current(d.primary_ctx_handle(0).unwrap()).unwrap();
    })
    .join()
    .unwrap();
}

#[test]
fn primary_context_refcount_and_state() {
    let device = FakeDevice::new();
    let driver = Driver::new(vec![device.clone()]);
    let handle = driver.primary_ctx_handle(0).unwrap();
    assert_eq!(driver.primary_ctx_get_state(0).unwrap(), (0, false));
    // cudart sets the primary context current before retaining it.
    driver.ctx_set_current(handle).unwrap();
    assert_eq!(driver.mem_alloc(8).unwrap_err(), CuError::CONTEXT_IS_DESTROYED);
    assert_eq!(driver.primary_ctx_retain(0).unwrap(), handle);
    assert_eq!(driver.primary_ctx_retain(0).unwrap(), handle);
    assert_eq!(driver.primary_ctx_get_state(0).unwrap(), (0, true));
    driver.mem_alloc(64).unwrap();
    assert_eq!(device.live_allocations(), 1);
    driver.primary_ctx_release(0).unwrap();
    assert!(driver.primary_ctx_get_state(0).unwrap().1);
    assert_eq!(device.live_allocations(), 1);
    driver.primary_ctx_release(0).unwrap();
    assert!(!driver.primary_ctx_get_state(0).unwrap().1);
    assert_eq!(device.live_allocations(), 0, "deactivation frees the context's memory");
    assert_eq!(driver.primary_ctx_release(0).unwrap_err(), CuError::INVALID_CONTEXT);
    // Flags persist across activations; bad flags are rejected.
    driver.primary_ctx_set_flags(0, 4).unwrap();
    assert_eq!(driver.primary_ctx_get_state(0).unwrap(), (4, false));
    assert_eq!(driver.primary_ctx_set_flags(0, 0x100).unwrap_err(), CuError::INVALID_VALUE);
    driver.primary_ctx_retain(0).unwrap();
    driver.mem_alloc(64).unwrap();
    driver.primary_ctx_reset(0).unwrap();
    assert_eq!(driver.primary_ctx_get_state(0).unwrap(), (4, false));
    assert_eq!(device.live_allocations(), 0);
    assert_eq!(driver.mem_alloc(8).unwrap_err(), CuError::CONTEXT_IS_DESTROYED);
    // Reset does not release: the holder still releases its reference.
    driver.primary_ctx_release(0).unwrap();
    assert_eq!(driver.primary_ctx_release(0).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.primary_ctx_handle(0).unwrap(), handle, "the primary handle never changes");
    assert_eq!(driver.ctx_destroy(handle).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.primary_ctx_retain(3).unwrap_err(), CuError::INVALID_DEVICE);
}

#[test]
fn limits_and_configs_are_stored() {
    let (driver, _) = setup();
    for (limit, default) in [(0, 1024), (1, 1 << 20), (2, 8 << 20), (3, 2), (4, 2048), (5, 64), (6, 0)] {
        assert_eq!(driver.ctx_get_limit(limit).unwrap(), default, "limit {limit}");
    }
    driver.ctx_set_limit(Limit::StackSize as i32, 4096).unwrap();
    assert_eq!(driver.ctx_get_limit(0).unwrap(), 4096);
    assert_eq!(driver.ctx_get_limit(10).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.ctx_set_limit(8, 1).unwrap_err(), CuError::UNSUPPORTED_LIMIT);
    driver.ctx_set_cache_config(2).unwrap();
    assert_eq!(driver.ctx_get_cache_config().unwrap(), 2);
    assert_eq!(driver.ctx_set_cache_config(9).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.ctx_get_stream_priority_range().unwrap(), (0, -5));
    assert_eq!(driver.ctx_get_api_version(CtxHandle::NULL).unwrap(), 3020);
}

#[test]
fn cls_put_get_delete_and_destructors() {
    let (driver, _) = setup();
    let calls = Arc::new(Mutex::new(Vec::new()));
    let dtor = |calls: &Arc<Mutex<Vec<(usize, usize)>>>| -> ClsDestructor {
        let calls = calls.clone();
        Box::new(move |_ctx, key, value| calls.lock().unwrap().push((key, value)))
    };
    let primary = driver.ctx_get_current();
    assert_eq!(driver.cls_get(CtxHandle::NULL, 1).unwrap_err(), CuError::INVALID_VALUE);
    driver.cls_put(CtxHandle::NULL, 1, 100, Some(dtor(&calls))).unwrap();
    driver.cls_put(CtxHandle(u64::MAX), 2, 200, Some(dtor(&calls))).unwrap();
    driver.cls_put(primary, 3, 300, None).unwrap();
    assert_eq!(driver.cls_get(primary, 1).unwrap() as usize, 100);
    assert_eq!(driver.cls_get(CtxHandle(u64::MAX), 2).unwrap() as usize, 200);
    driver.cls_delete(CtxHandle::NULL, 2).unwrap();
    assert_eq!(driver.cls_delete(CtxHandle::NULL, 2).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.cls_get(CtxHandle::NULL, 2).unwrap_err(), CuError::INVALID_VALUE);
    // Reset calls the remaining destructors (not the deleted one's) and empties the storage.
    driver.primary_ctx_reset(0).unwrap();
    assert_eq!(*calls.lock().unwrap(), vec![(1, 100)]);
    assert_eq!(driver.cls_get(primary, 1).unwrap_err(), CuError::INVALID_VALUE);
    // Destroying a created context calls its destructors too.
    let created = driver.ctx_create(0, 0).unwrap();
    driver.cls_put(created, 7, 700, Some(dtor(&calls))).unwrap();
    driver.ctx_destroy(created).unwrap();
    assert_eq!(calls.lock().unwrap().last(), Some(&(7, 700)));
    // No current context at all.
    driver.ctx_set_current(CtxHandle::NULL).unwrap();
    assert_eq!(driver.cls_get(CtxHandle::NULL, 1).unwrap_err(), CuError::INVALID_CONTEXT);
}

// ---- memory --------------------------------------------------------------------------

#[test]
fn allocation_and_copy_validation() {
    let (driver, device) = setup();
    assert_eq!(driver.mem_alloc(0).unwrap_err(), CuError::INVALID_VALUE);
    let a = driver.mem_alloc(64).unwrap();
    let b = driver.mem_alloc(64).unwrap();
    let src: Vec<u8> = (0..64).collect();
    let mut dst = vec![0u8; 64];
    // SAFETY (all copies below): host buffers hold 64 bytes.
    unsafe {
        driver.memcpy_htod(a, src.as_ptr().cast(), 64).unwrap();
        driver.memcpy_dtod(b, a, 64).unwrap();
        driver.memcpy_dtoh(dst.as_mut_ptr().cast(), b + 32, 32).unwrap();
        assert_eq!(&dst[..32], &src[32..]);
        // Out of range, unregistered, or a host pointer where device memory is required.
        for (dptr, n) in [(a, 65), (a + 1, 64), (a + 64, 1), (0x10, 4), (src.as_ptr() as u64, 4)] {
            assert_eq!(driver.memcpy_htod(dptr, src.as_ptr().cast(), n).unwrap_err(), CuError::INVALID_VALUE, "{dptr:#x}+{n}");
        }
        assert_eq!(driver.memcpy_dtod(b, a, 65).unwrap_err(), CuError::INVALID_VALUE);
        // Zero bytes always succeed once the pointer is valid.
        driver.memcpy_htod(a, src.as_ptr().cast(), 0).unwrap();
        // Unified addressing: host pointers are host memory.
        dst.fill(0);
        driver.memcpy(dst.as_mut_ptr() as u64, a, 64).unwrap();
        assert_eq!(dst, src);
        driver.memcpy_async(a, dst.as_ptr() as u64, 8, StreamHandle(2)).unwrap();
        assert_eq!(driver.memcpy(a, dst.as_ptr() as u64, 65).unwrap_err(), CuError::INVALID_VALUE);
    }
    driver.memset(a, 0xAB, 1, 64).unwrap();
    driver.memset(b, 0x01020304, 4, 16).unwrap();
    assert_eq!(driver.memset(a + 1, 0, 4, 1).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.memset(a, 0, 2, 33).unwrap_err(), CuError::INVALID_VALUE);
    // SAFETY: 64-byte buffer.
    unsafe { driver.memcpy_dtoh(dst.as_mut_ptr().cast(), b, 8).unwrap() };
    assert_eq!(&dst[..8], &[4, 3, 2, 1, 4, 3, 2, 1]);

    assert_eq!(driver.mem_get_address_range(a + 10).unwrap(), (a, 64));
    assert_eq!(driver.mem_get_address_range(0x10).unwrap_err(), CuError::NOT_FOUND);
    let (free, total) = driver.mem_get_info().unwrap();
    assert!(free < total);
    assert_eq!(driver.mem_free(a + 1).unwrap_err(), CuError::INVALID_VALUE);
    driver.mem_free(0).unwrap();
    driver.mem_free(a).unwrap();
    assert_eq!(driver.mem_free(a).unwrap_err(), CuError::INVALID_VALUE);
    driver.mem_free(b).unwrap();
    assert_eq!(device.live_allocations(), 0);
    let (p, pitch) = driver.mem_alloc_pitch(100, 3, 4).unwrap();
    assert_eq!((pitch, driver.mem_get_address_range(p).unwrap().1), (512, 1536));
    assert_eq!(driver.mem_alloc_pitch(100, 3, 3).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn copies_2d_and_memset_2d() {
    let (driver, _) = setup();
    let (dev, pitch) = driver.mem_alloc_pitch(8, 4, 4).unwrap();
    let host: Vec<u8> = (0..32).collect();
    let p = copy::CudaMemcpy2D {
        src_x_in_bytes: 0,
        src_y: 0,
        src_memory_type: memory::memory_type::HOST,
        src_host: host.as_ptr().cast(),
        src_device: 0,
        src_array: std::ptr::null_mut(),
        src_pitch: 8,
        dst_x_in_bytes: 0,
        dst_y: 0,
        dst_memory_type: memory::memory_type::DEVICE,
        dst_host: std::ptr::null_mut(),
        dst_device: dev,
        dst_array: std::ptr::null_mut(),
        dst_pitch: pitch,
        width_in_bytes: 8,
        height: 4,
    };
    // SAFETY: the host side describes 4 rows of 8 bytes inside `host`.
    unsafe { driver.memcpy_2d(&p).unwrap() };
    let mut row = [0u8; 8];
    // SAFETY: 8-byte buffer.
    unsafe { driver.memcpy_dtoh(row.as_mut_ptr().cast(), dev + 2 * pitch as u64, 8).unwrap() };
    assert_eq!(row, [16, 17, 18, 19, 20, 21, 22, 23]);
    let too_tall = copy::CudaMemcpy2D { height: 5, ..p };
    // SAFETY: validation fails before any access.
    assert_eq!(unsafe { driver.memcpy_2d(&too_tall) }.unwrap_err(), CuError::INVALID_VALUE);
    driver.memset_2d(dev, pitch, 7, 1, 4, 4).unwrap();
    // SAFETY: 8-byte buffer.
    unsafe { driver.memcpy_dtoh(row.as_mut_ptr().cast(), dev + 3 * pitch as u64, 8).unwrap() };
    assert_eq!(row, [7, 7, 7, 7, 28, 29, 30, 31]);
    assert_eq!(driver.memset_2d(dev, pitch, 7, 1, 8, 5).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn pinned_registered_and_managed_memory() {
    let (driver, _) = setup();
    let pinned = driver.mem_host_alloc(100, 2).unwrap();
    assert_eq!(driver.mem_host_get_flags(pinned).unwrap(), 2);
    let dptr = driver.mem_host_get_device_pointer(pinned, 0).unwrap();
    assert_eq!(dptr, pinned as u64);
    assert_eq!(driver.mem_host_get_device_pointer(pinned, 1).unwrap_err(), CuError::INVALID_VALUE);
    driver.memset(dptr, 9, 1, 100).unwrap();
    // SAFETY: the pinned block holds 100 bytes.
    assert_eq!(unsafe { *(pinned as *const u8).add(99) }, 9);
    let info = driver.pointer_info(dptr + 5).unwrap().unwrap();
    assert_eq!((info.memory_type, info.range_start, info.range_size), (memory::memory_type::HOST, dptr, 100));
    assert_eq!(driver.mem_free(dptr).unwrap_err(), CuError::INVALID_VALUE, "cuMemFree of pinned memory");
    driver.mem_free_host(pinned).unwrap();
    assert_eq!(driver.mem_free_host(pinned).unwrap_err(), CuError::INVALID_VALUE);

    let mut user = vec![0u32; 64];
    let p = user.as_mut_ptr().cast::<c_void>();
    driver.mem_host_register(p, 256, 0).unwrap();
    assert_eq!(driver.mem_host_register(p.wrapping_byte_add(16), 16, 0).unwrap_err(), CuError::HOST_MEMORY_ALREADY_REGISTERED);
    driver.memset(p as u64, 5, 4, 64).unwrap();
    assert!(user.iter().all(|&v| v == 5));
    assert_eq!(driver.mem_host_unregister(p.wrapping_byte_add(4)).unwrap_err(), CuError::HOST_MEMORY_NOT_REGISTERED);
    driver.mem_host_unregister(p).unwrap();
    assert_eq!(driver.pointer_info(p as u64).unwrap(), None);
    assert_eq!(driver.pointer_attribute(2, p as u64).unwrap_err(), CuError::INVALID_VALUE);

    let managed = driver.mem_alloc_managed(32, 1).unwrap();
    assert_eq!(driver.pointer_attribute(8, managed).unwrap(), memory::PointerAttrValue::Bool(true));
    assert_eq!(driver.pointer_attribute(2, managed).unwrap(), memory::PointerAttrValue::U32(memory::memory_type::DEVICE));
    assert_eq!(driver.pointer_attribute(1, managed).unwrap(), memory::PointerAttrValue::Context(driver.ctx_get_current()));
    assert_eq!(driver.pointer_attribute(9, managed).unwrap(), memory::PointerAttrValue::I32(0));
    assert_eq!(driver.mem_alloc_managed(32, 3).unwrap_err(), CuError::INVALID_VALUE);
    driver.mem_free(managed).unwrap();
}

/// Managed memory follows the backend's `managed_memory`, not host addressability: a
/// discrete device without it refuses `cuMemAllocManaged` and reports 0 for the managed
/// attributes; one with it (as AMD GPUs through system memory) allocates through
/// `alloc_managed`, and the pointer works for the host, copies and attributes.
#[test]
fn managed_memory_follows_the_backend() {
    use backend_api::ManagedMemory;
    const MANAGED_MEMORY: i32 = 83;
    const CONCURRENT_MANAGED_ACCESS: i32 = 89;
    const DIRECT_MANAGED_MEM_ACCESS_FROM_HOST: i32 = 101;
    const PAGEABLE_MEMORY_ACCESS: i32 = 88;
    // (managed memory, expected [MANAGED_MEMORY, CONCURRENT_MANAGED_ACCESS, DIRECT_..., PAGEABLE_MEMORY_ACCESS])
    let cases = [
        (None, [0, 0, 0, 0]),
        (Some(ManagedMemory { concurrent_access: false }), [1, 0, 1, 0]),
        (Some(ManagedMemory { concurrent_access: true }), [1, 1, 1, 0]),
    ];
    for (managed, want) in cases {
        let device = FakeDevice::discrete(managed);
        let driver = Driver::new(vec![device.clone()]);
        let ctx = driver.ctx_create(0, 0).unwrap();
        let attrs = [MANAGED_MEMORY, CONCURRENT_MANAGED_ACCESS, DIRECT_MANAGED_MEM_ACCESS_FROM_HOST, PAGEABLE_MEMORY_ACCESS];
        assert_eq!(attrs.map(|a| driver.device_attribute(0, a).unwrap()), want, "{managed:?}");
        if managed.is_none() {
            assert_eq!(driver.mem_alloc_managed(64, 1).unwrap_err(), CuError::NOT_SUPPORTED);
            driver.ctx_destroy(ctx).unwrap();
            continue;
        }
        let m = driver.mem_alloc_managed(64, 1).unwrap();
        assert!(device.is_managed_allocation(m), "through alloc_managed");
        assert_eq!(driver.pointer_attribute(8, m).unwrap(), memory::PointerAttrValue::Bool(true));
        assert_eq!(driver.pointer_attribute(4, m + 8).unwrap(), memory::PointerAttrValue::U64(m + 8), "host pointer = device pointer");
        let data: Vec<u8> = (1..=64).collect();
        // SAFETY: 64 bytes each way.
        unsafe { driver.memcpy_htod(m, data.as_ptr().cast(), 64).unwrap() };
        // SAFETY: `m` is host-addressable managed memory of 64 bytes.
        assert_eq!(unsafe { std::slice::from_raw_parts(m as *const u8, 64) }, &data[..]);
        let mut back = [0u8; 16];
        // SAFETY: as above.
        unsafe { driver.memcpy_dtoh(back.as_mut_ptr().cast(), m + 48, 16).unwrap() };
        assert_eq!(back[..], data[48..]);
        driver.mem_free(m).unwrap();
        assert!(!device.is_managed_allocation(m), "freed");
        driver.ctx_destroy(ctx).unwrap();
    }
}

/// `cuMemAdvise`/`cuMemPrefetchAsync` check their arguments as CUDA documents (managed
/// range, advice, location, concurrent managed access) and otherwise change nothing.
#[test]
fn managed_memory_hints_are_checked_no_ops() {
    use crate::managed::{location_type as lt, MemLocation, DEVICE_CPU};
    use backend_api::ManagedMemory;
    let s = StreamHandle::NULL;
    let loc = |kind, id| MemLocation { kind, id };
    for concurrent in [true, false] {
        let device = FakeDevice::discrete(Some(ManagedMemory { concurrent_access: concurrent }));
        let driver = Driver::new(vec![device.clone()]);
        let ctx = driver.ctx_create(0, 0).unwrap();
        let m = driver.mem_alloc_managed(4096, 1).unwrap();
        let plain = driver.mem_alloc(64).unwrap();
        // SAFETY: 4096 bytes of host-addressable managed memory.
        unsafe { std::ptr::write_bytes(m as *mut u8, 0x77, 4096) };
        let gpu_ok = if concurrent { Ok(()) } else { Err(CuError::INVALID_DEVICE) };
        // (pointer, count, advice, device, expected)
        let advise = [
            (m, 4096, 1, 0, Ok(())),
            (m + 100, 10, 2, 99, Ok(())), // read-mostly ignores the device
            (m, 4096, 3, DEVICE_CPU, Ok(())),
            (m, 4096, 3, 0, gpu_ok),
            (m, 4096, 4, 99, Ok(())), // UNSET_PREFERRED_LOCATION ignores the device
            (m, 4096, 5, 0, gpu_ok),
            (m, 4096, 6, 0, Ok(())),
            (m, 4096, 6, DEVICE_CPU, Ok(())),
            (m, 4096, 5, 1, Err(CuError::INVALID_DEVICE)),
            (m, 4096, 5, -2, Err(CuError::INVALID_DEVICE)),
            (m, 4096, 0, 0, Err(CuError::INVALID_VALUE)),
            (m, 4096, 7, 0, Err(CuError::INVALID_VALUE)),
            (m, 4097, 1, 0, Err(CuError::INVALID_VALUE)),
            (m, 0, 1, 0, Err(CuError::INVALID_VALUE)),
            (plain, 64, 1, 0, Err(CuError::INVALID_VALUE)),
        ];
        for (ptr, count, advice, dev, want) in advise {
            assert_eq!(driver.mem_advise(ptr, count, advice, dev), want, "advise {ptr:#x} {count} {advice} {dev} concurrent {concurrent}");
        }
        assert_eq!(driver.mem_advise_v2(m, 16, 3, loc(lt::DEVICE, 0)), gpu_ok);
        assert_eq!(driver.mem_advise_v2(m, 16, 3, loc(lt::HOST_NUMA, 0)), Ok(()));
        assert_eq!(driver.mem_advise_v2(m, 16, 3, loc(lt::HOST_NUMA_CURRENT, 5)), Ok(()));
        assert_eq!(driver.mem_advise_v2(m, 16, 5, loc(lt::HOST_NUMA, 0)), Err(CuError::INVALID_VALUE), "accessed-by: host or device");
        assert_eq!(driver.mem_advise_v2(m, 16, 5, loc(lt::HOST, 77)), Ok(()), "the host's id is ignored");
        // A location naming no device: INVALID_VALUE (NVIDIA's driver 580, device 99).
        assert_eq!(driver.mem_advise_v2(m, 16, 5, loc(lt::DEVICE, DEVICE_CPU)), Err(CuError::INVALID_VALUE));
        assert_eq!(driver.mem_advise_v2(m, 16, 5, loc(9, 0)), Err(CuError::INVALID_VALUE));
        // (pointer, count, device, expected)
        let prefetch = [
            (m, 4096, 0, gpu_ok),
            (m, 4096, DEVICE_CPU, Ok(())),
            (m + 4000, 96, DEVICE_CPU, Ok(())),
            (m, 4096, 3, Err(CuError::INVALID_DEVICE)),
            (plain, 64, DEVICE_CPU, Err(CuError::INVALID_VALUE)),
            (m + 4000, 97, DEVICE_CPU, Err(CuError::INVALID_VALUE)),
        ];
        for (ptr, count, dev, want) in prefetch {
            assert_eq!(driver.mem_prefetch_async(ptr, count, dev, s), want, "prefetch {ptr:#x} {count} {dev} concurrent {concurrent}");
        }
        assert_eq!(driver.mem_prefetch_async_v2(m, 64, loc(lt::HOST, 0), 0, s), Ok(()));
        assert_eq!(driver.mem_prefetch_async_v2(m, 64, loc(lt::DEVICE, 0), 0, s), gpu_ok);
        assert_eq!(driver.mem_prefetch_async_v2(m, 64, loc(lt::HOST, 0), 1, s), Err(CuError::INVALID_VALUE));
        // Nothing moved or changed.
        // SAFETY: as above.
        assert!(unsafe { std::slice::from_raw_parts(m as *const u8, 4096) }.iter().all(|&b| b == 0x77));
        driver.ctx_destroy(ctx).unwrap();
    }
}

// ---- devices -------------------------------------------------------------------------

/// `cuDeviceGetAttribute` ids cudart 13.5 and 12.9 query at init (shared/facts/data).
const CUDART13_INIT_ATTRIBUTES: &[i32] = &[
    75, 76, 40, 16, 18, 19, 21, 77, 22, 23, 73, 74, 70, 71, 72, 45, 46, 24, 25, 26, 47, 48, 49, 52, 42, 43, 27, 28, 29, 53, 54, 55, 56, 57, 58, 59,
    60, 61, 62, 63, 64, 65, 66, 67, 68, 31, 32, 33, 34, 50, 35, 41, 37, 38, 108, 39, 30, 51, 8, 97, 81, 12, 82, 10, 11, 1, 2, 3, 4, 5, 6, 7, 9, 14,
    78, 79, 80, 83, 84, 85, 86, 88, 89, 90, 91, 95, 100, 101, 106, 109, 111, 99, 112, 113, 114, 115, 116, 117, 118, 119, 120, 121, 125, 129, 130,
    131, 133, 134, 139, 140, 143,
];
const CUDART12_INIT_ATTRIBUTES: &[i32] = &[
    75, 76, 15, 40, 16, 17, 18, 19, 21, 77, 69, 22, 23, 73, 74, 70, 71, 72, 45, 46, 24, 25, 26, 47, 48, 49, 52, 42, 43, 27, 28, 29, 53, 54, 55, 56,
    57, 58, 59, 60, 61, 62, 63, 64, 65, 66, 67, 68, 31, 32, 33, 34, 50, 35, 41, 36, 37, 38, 108, 39, 30, 51, 8, 97, 81, 12, 82, 10, 11, 1, 2, 3, 4,
    5, 6, 7, 9, 13, 14, 78, 79, 80, 83, 84, 85, 86, 87, 88, 89, 90, 91, 95, 96, 100, 101, 106, 109, 111, 99, 112, 113, 114, 115, 116, 117, 118, 119,
    120, 121, 125, 129,
];

#[test]
fn device_attributes_cover_cudart_init() {
    let driver = Driver::new(vec![FakeDevice::new()]);
    assert_eq!((CUDART13_INIT_ATTRIBUTES.len(), CUDART12_INIT_ATTRIBUTES.len()), (111, 111));
    for &attr in CUDART13_INIT_ATTRIBUTES.iter().chain(CUDART12_INIT_ATTRIBUTES) {
        assert!(driver.device_attribute(0, attr).is_ok(), "attribute {attr}");
    }
    for attr in 1..=148 {
        assert!(driver.device_attribute(0, attr).is_ok(), "attribute {attr}");
    }
    for attr in [0, -1, 149, 1000] {
        assert_eq!(driver.device_attribute(0, attr).unwrap_err(), CuError::INVALID_VALUE, "attribute {attr}");
    }
    // (attribute, value) from the fake device's properties.
    for (attr, value) in
        [(1, 1024), (2, 1024), (4, 64), (10, 32), (16, 4), (33, 0x3b), (34, 0), (41, 1), (50, 0), (75, 8), (76, 6), (83, 1), (97, 99 * 1024)]
    {
        assert_eq!(driver.device_attribute(0, attr).unwrap(), value, "attribute {attr}");
    }
    assert_eq!(driver.device_attribute(1, 1).unwrap_err(), CuError::INVALID_DEVICE);
}

#[test]
fn device_queries() {
    let driver = Driver::new(vec![FakeDevice::new()]);
    assert_eq!(driver.device_count(), 1);
    assert_eq!(driver.device_get(0).unwrap(), 0);
    assert_eq!(driver.device_get(1).unwrap_err(), CuError::INVALID_DEVICE);
    assert_eq!(driver.device_get(-1).unwrap_err(), CuError::INVALID_DEVICE);
    assert_eq!(driver.device_name(0).unwrap(), "Fake Device");
    assert_eq!(driver.device_total_mem(0).unwrap(), 1 << 30);
    assert_eq!(&driver.device_uuid(0).unwrap(), b"fake-device-uuid");
    assert_eq!(driver.device_compute_capability(0).unwrap(), (8, 6));
    assert_eq!(driver.device_pci_bus_id(0).unwrap(), "0000:3b:00.0");
    for id in ["0000:3b:00.0", "0000:3B:00", "3b:00.0"] {
        assert_eq!(driver.device_by_pci_bus_id(id).unwrap(), 0, "{id}");
    }
    assert_eq!(driver.device_by_pci_bus_id("0000:3c:00.0").unwrap_err(), CuError::INVALID_DEVICE);
    assert_eq!(driver.device_by_pci_bus_id("zz").unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.device_get_properties(0).unwrap().max_threads_dim, [1024, 1024, 64]);
}

mod green;
mod launches;
mod stream_ops;
