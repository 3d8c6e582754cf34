//! Modules, libraries, kernels, launches, parameter packing, streams and events.

use std::ffi::{c_void, CStr};

use backend_api::{KernelInfo, LoadOptions, ParamLayout};

use super::{load_module, ptx_module, setup};
use crate::launch::{pack_params, LaunchAttr, LaunchConfigEx};
use crate::*;

#[test]
fn modules_functions_and_globals() {
    let (driver, _) = setup();
    let m = load_module(&driver);
    let f = driver.module_get_function(m, "saxpy").unwrap();
    assert_eq!(driver.module_get_function(m, "saxpy").unwrap(), f, "same handle for the same name");
    assert_eq!(driver.module_get_function(m, "nope").unwrap_err(), CuError::NOT_FOUND);
    assert_eq!(driver.module_get_function_count(m).unwrap(), 5);
    assert_eq!(driver.module_enumerate_functions(m, 2).unwrap().len(), 2);
    // SAFETY: names live while the function does.
    assert_eq!(unsafe { CStr::from_ptr(driver.function_name(f).unwrap()) }.to_str().unwrap(), "saxpy");
    assert_eq!(driver.function_module(f).unwrap(), m);
    assert_eq!(driver.function_param_info(f, 2).unwrap(), (8, 8));
    assert_eq!(driver.function_param_info(f, 4).unwrap_err(), CuError::INVALID_VALUE);

    let (addr, size) = driver.module_get_global(m, "counter").unwrap();
    assert_eq!(size, 16);
    assert_eq!(driver.module_get_global(m, "missing").unwrap_err(), CuError::NOT_FOUND);
    let values = [1u32, 2, 3, 4];
    // SAFETY: 16-byte host buffer; the global is registered, so the copy validates.
    unsafe { driver.memcpy_htod(addr, values.as_ptr().cast(), 16).unwrap() };
    // SAFETY: as above, but one byte too many.
    assert_eq!(unsafe { driver.memcpy_htod(addr, values.as_ptr().cast(), 17) }.unwrap_err(), CuError::INVALID_VALUE);

    driver.module_unload(m).unwrap();
    assert_eq!(driver.module_get_function(m, "saxpy").unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.function_attribute(f, 0).unwrap_err(), CuError::INVALID_HANDLE, "functions die with their module");
    assert_eq!(driver.module_unload(m).unwrap_err(), CuError::INVALID_HANDLE);
    // SAFETY: validation fails before any access.
    assert_eq!(unsafe { driver.memcpy_htod(addr, values.as_ptr().cast(), 4) }.unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn load_errors_keep_their_logs() {
    let (driver, _) = setup();
    let bad = "// SYNTAX_ERROR here\n\0";
    // SAFETY: NUL-terminated text.
    let (result, logs) = unsafe { driver.module_load_data(bad.as_ptr().cast(), &LoadOptions::default()) };
    assert_eq!(result.unwrap_err(), CuError::INVALID_PTX);
    assert_eq!(logs.error, "1:1: syntax error");
    let cubin = b"\x7fELF\x02\x01\x01\x33\0\0\0\0\0\0\0\0";
    let (result, logs) = driver.module_load_bytes(cubin, &LoadOptions::default());
    assert_eq!(result.unwrap_err(), CuError::NO_BINARY_FOR_GPU);
    assert!(!logs.error.is_empty());
    let (result, _) = driver.module_load(std::path::Path::new("/nonexistent/kernel.ptx"));
    assert_eq!(result.unwrap_err(), CuError::FILE_NOT_FOUND);
    // SAFETY: null is allowed and rejected.
    let (result, _) = unsafe { driver.module_load_data(std::ptr::null(), &LoadOptions::default()) };
    assert_eq!(result.unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.module_get_loading_mode(), module::MODULE_LAZY_LOADING);
}

#[test]
fn function_attributes() {
    let (driver, _) = setup();
    let m = load_module(&driver);
    let small = driver.module_get_function(m, "small").unwrap();
    let noargs = driver.module_get_function(m, "noargs").unwrap();
    for (f, attribute, value) in [
        (small, 0, 128),
        (noargs, 0, 1024),
        (noargs, 1, 1024),
        (small, 4, 32),
        (small, 5, 80),
        (small, 6, 86),
        (small, 8, 48 * 1024),
        (noargs, 8, 47 * 1024),
        (small, 9, -1),
    ] {
        assert_eq!(driver.function_attribute(f, attribute).unwrap(), value, "attribute {attribute}");
    }
    assert_eq!(driver.function_attribute(small, 16).unwrap_err(), CuError::INVALID_VALUE);
    driver.function_set_attribute(small, 8, 99 * 1024).unwrap();
    assert_eq!(driver.function_attribute(small, 8).unwrap(), 99 * 1024);
    assert_eq!(driver.function_set_attribute(noargs, 8, 99 * 1024).unwrap_err(), CuError::INVALID_VALUE, "static + dynamic over the opt-in limit");
    assert_eq!(driver.function_set_attribute(small, 0, 64).unwrap_err(), CuError::INVALID_VALUE, "read-only");
    driver.function_set_attribute(small, 9, 50).unwrap();
    assert_eq!(driver.function_attribute(small, 9).unwrap(), 50);
    driver.function_set_cache_config(small, 1).unwrap();
}

fn info(params: &[(usize, usize)], size: usize) -> KernelInfo {
    KernelInfo {
        name: "k".into(),
        params: params.iter().map(|&(offset, size)| ParamLayout { offset, size }).collect(),
        param_buffer_size: size,
        static_shared_bytes: 0,
        local_bytes_per_thread: 0,
        max_threads_per_block: 1024,
        required_block: None,
        num_regs: 0,
        const_bytes: 0,
    }
}

#[test]
fn parameter_packing() {
    let k = info(&[(0, 4), (4, 1), (8, 8)], 16);
    let (mut a, mut b, mut c) = (0x11223344u32, 0x55u8, 0x0102030405060708u64);
    let mut args = [(&mut a as *mut u32).cast::<c_void>(), (&mut b as *mut u8).cast(), (&mut c as *mut u64).cast()];
    let mut expected = vec![0u8; 16];
    expected[..4].copy_from_slice(&a.to_ne_bytes());
    expected[4] = b;
    expected[8..].copy_from_slice(&c.to_ne_bytes());
    // SAFETY (all calls): argument arrays and buffers match the layouts.
    unsafe {
        assert_eq!(pack_params(&k, args.as_mut_ptr(), std::ptr::null_mut()).unwrap(), expected);
        let mut buffer = expected.clone();
        let mut size = buffer.len();
        let mut extra = [
            launch::LAUNCH_PARAM_BUFFER_POINTER as *mut c_void,
            buffer.as_mut_ptr().cast(),
            launch::LAUNCH_PARAM_BUFFER_SIZE as *mut c_void,
            (&mut size as *mut usize).cast(),
            launch::LAUNCH_PARAM_END as *mut c_void,
        ];
        assert_eq!(pack_params(&k, std::ptr::null_mut(), extra.as_mut_ptr()).unwrap(), expected);
        // Both: kernelParams is used (NVIDIA's driver 580 answers success).
        let mut other = [0u8; 16];
        extra[1] = other.as_mut_ptr().cast();
        assert_eq!(pack_params(&k, args.as_mut_ptr(), extra.as_mut_ptr()).unwrap(), expected, "both");
        extra[1] = buffer.as_mut_ptr().cast();
        assert_eq!(pack_params(&k, std::ptr::null_mut(), std::ptr::null_mut()).unwrap_err(), CuError::INVALID_VALUE, "neither");
        assert_eq!(pack_params(&info(&[], 0), std::ptr::null_mut(), std::ptr::null_mut()).unwrap(), Vec::<u8>::new());
        extra[3].cast::<usize>().write(8);
        // A short buffer: the rest of the parameters are zeros (as NVIDIA's driver launches).
        let mut short = expected.clone();
        short[8..].fill(0);
        assert_eq!(pack_params(&k, std::ptr::null_mut(), extra.as_mut_ptr()).unwrap(), short, "short buffer");
        let mut no_size = [launch::LAUNCH_PARAM_BUFFER_POINTER as *mut c_void, buffer.as_mut_ptr().cast(), std::ptr::null_mut()];
        assert_eq!(pack_params(&k, std::ptr::null_mut(), no_size.as_mut_ptr()).unwrap_err(), CuError::INVALID_VALUE, "no size");
        args[1] = std::ptr::null_mut();
        assert_eq!(pack_params(&k, args.as_mut_ptr(), std::ptr::null_mut()).unwrap_err(), CuError::INVALID_VALUE, "null argument");
    }
}

/// Launches `f` with one u64 parameter block of zeros and the given shape, and waits for
/// it (a launch only queues the kernel; its fault shows at the synchronization).
fn launch(driver: &Driver, f: *mut c_void, grid: [u32; 3], block: [u32; 3], shared: u32) -> CuResult<()> {
    let mut words = [0u64; 4];
    let mut args: Vec<*mut c_void> = words.iter_mut().map(|w| (w as *mut u64).cast()).collect();
    // SAFETY: four 8-byte arguments cover every test kernel's parameters.
    unsafe { driver.launch_kernel(f, grid, block, shared, StreamHandle::NULL, args.as_mut_ptr(), std::ptr::null_mut()) }?;
    driver.stream_synchronize(StreamHandle::NULL)
}

#[test]
fn libraries_kernels_and_launch_validation() {
    let (driver, device) = setup();
    let ptx = ptx_module();
    // SAFETY: NUL-terminated PTX.
    let (lib, _) = unsafe { driver.library_load_data(ptx.as_ptr().cast(), &LoadOptions::default()) };
    let lib = lib.unwrap();
    let k = driver.library_get_kernel(lib, "saxpy").unwrap();
    assert_eq!(driver.library_get_kernel(lib, "saxpy").unwrap(), k);
    assert_eq!(driver.library_get_kernel(lib, "nope").unwrap_err(), CuError::NOT_FOUND);
    assert_eq!(driver.library_get_kernel_count(lib).unwrap(), 5);
    // cudart 13: the CUkernel goes straight to cuLaunchKernel.
    launch(&driver, k.as_raw(), [2, 1, 1], [256, 1, 1], 0).unwrap();
    // cudart 12: library -> module -> function.
    let m = driver.library_get_module(lib).unwrap();
    let f = driver.module_get_function(m, "saxpy").unwrap();
    assert_eq!(driver.kernel_get_function(k).unwrap(), f);
    launch(&driver, f.as_raw(), [1, 1, 1], [32, 1, 1], 0).unwrap();
    assert_eq!(device.launches.lock().unwrap().len(), 2);
    assert_eq!(device.launches.lock().unwrap()[0].2.len(), 24, "u32, f32, u64, u64 packed");

    let small = driver.library_get_kernel(lib, "small").unwrap().as_raw();
    // (grid, block, shared, expected)
    type Case = ([u32; 3], [u32; 3], u32, Option<CuError>);
    let cases: &[Case] = &[
        ([1, 1, 1], [128, 1, 1], 0, None),
        ([0, 1, 1], [32, 1, 1], 0, Some(CuError::INVALID_VALUE)),
        ([1, 1, 1], [0, 1, 1], 0, Some(CuError::INVALID_VALUE)),
        ([1, 65536, 1], [32, 1, 1], 0, Some(CuError::INVALID_VALUE)),
        ([1, 1, 1], [1, 1, 65], 0, Some(CuError::INVALID_VALUE)),
        ([1, 1, 1], [1025, 1, 1], 0, Some(CuError::INVALID_VALUE)),
        ([1, 1, 1], [32, 32, 2], 0, Some(CuError::INVALID_VALUE)),
        ([1, 1, 1], [256, 1, 1], 0, Some(CuError::INVALID_VALUE)),
        ([1, 1, 1], [32, 1, 1], 48 * 1024, None),
        ([1, 1, 1], [32, 1, 1], 48 * 1024 + 1, Some(CuError::INVALID_VALUE)),
    ];
    for &(grid, block, shared, expected) in cases {
        assert_eq!(launch(&driver, small, grid, block, shared).err(), expected, "grid {grid:?} block {block:?} shared {shared}");
    }
    // Opting in raises the dynamic shared memory limit, for every context.
    driver.kernel_set_attribute(8, 64 * 1024, driver.library_get_kernel(lib, "small").unwrap(), 0).unwrap();
    launch(&driver, small, [1, 1, 1], [32, 1, 1], 64 * 1024).unwrap();
    assert_eq!(driver.kernel_get_attribute(8, driver.library_get_kernel(lib, "small").unwrap(), 0).unwrap(), 64 * 1024);
    // A CUkernel cast to CUfunction works in the cuFunc* calls.
    assert_eq!(driver.function_attribute(FunctionHandle(small as u64), 0).unwrap(), 128);
    // Not a function handle at all.
    assert_eq!(launch(&driver, m.as_raw(), [1, 1, 1], [1, 1, 1], 0).unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(launch(&driver, std::ptr::null_mut(), [1, 1, 1], [1, 1, 1], 0).unwrap_err(), CuError::INVALID_HANDLE);

    // cuLaunchKernelEx: clusters are not supported; one that does not divide the grid is
    // refused first, as NVIDIA's driver refuses it (INVALID_CLUSTER_SIZE).
    let uneven = LaunchConfigEx {
        grid: [3, 1, 1],
        block: [1; 3],
        shared_bytes: 0,
        stream: StreamHandle::NULL,
        attrs: &[LaunchAttr::ClusterDimension([2, 1, 1])],
    };
    // SAFETY: validation fails before parameters are read.
    assert_eq!(
        unsafe { driver.launch_kernel_ex(&uneven, k.as_raw(), std::ptr::null_mut(), std::ptr::null_mut()) }.unwrap_err(),
        CuError::INVALID_CLUSTER_SIZE
    );
    let config = LaunchConfigEx {
        grid: [2, 1, 1],
        block: [1; 3],
        shared_bytes: 0,
        stream: StreamHandle::NULL,
        attrs: &[LaunchAttr::ClusterDimension([2, 1, 1])],
    };
    // SAFETY: validation fails before parameters are read.
    assert_eq!(
        unsafe { driver.launch_kernel_ex(&config, k.as_raw(), std::ptr::null_mut(), std::ptr::null_mut()) }.unwrap_err(),
        CuError::NOT_SUPPORTED
    );
    assert_eq!(LaunchAttr::from_raw(4, &[2, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0]), LaunchAttr::ClusterDimension([2, 1, 1]));

    driver.library_unload(lib).unwrap();
    assert_eq!(launch(&driver, k.as_raw(), [1, 1, 1], [32, 1, 1], 0).unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.module_get_function(m, "saxpy").unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.library_get_kernel(lib, "saxpy").unwrap_err(), CuError::INVALID_HANDLE);
}

#[test]
fn library_loads_lazily_without_a_context() {
    let (driver, _) = setup();
    driver.ctx_set_current(CtxHandle::NULL).unwrap();
    let ptx = ptx_module();
    // SAFETY: NUL-terminated PTX.
    let lib = unsafe { driver.library_load_data(ptx.as_ptr().cast(), &LoadOptions::default()) }.0.unwrap();
    let k = driver.library_get_kernel(lib, "write42_kernel").unwrap();
    assert_eq!(driver.kernel_get_function(k).unwrap_err(), CuError::INVALID_CONTEXT);
    let ctx = driver.primary_ctx_retain(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();
    let out = driver.mem_alloc(4).unwrap();
    let mut arg = out;
    let mut args = [(&mut arg as *mut u64).cast::<c_void>()];
    // SAFETY: one u64 argument.
    unsafe { driver.launch_kernel(k.as_raw(), [1; 3], [1; 3], 0, StreamHandle(1), args.as_mut_ptr(), std::ptr::null_mut()).unwrap() };
    let mut value = 0u32;
    // SAFETY: 4-byte destination.
    unsafe { driver.memcpy_dtoh((&mut value as *mut u32).cast(), out, 4).unwrap() };
    assert_eq!(value, 42);
}

#[test]
fn kernel_faults_are_sticky_until_reset() {
    let (driver, _) = setup();
    let m = load_module(&driver);
    let fault = driver.module_get_function(m, "fault_kernel").unwrap();
    let stream = driver.stream_create(0).unwrap();
    assert_eq!(launch(&driver, fault.as_raw(), [1; 3], [1; 3], 0).unwrap_err(), CuError::ILLEGAL_ADDRESS);
    assert_eq!(driver.stream_query(stream).unwrap_err(), CuError::ILLEGAL_ADDRESS);
    assert_eq!(driver.ctx_synchronize(CtxHandle::NULL).unwrap_err(), CuError::ILLEGAL_ADDRESS);
    assert_eq!(driver.mem_alloc(8).unwrap_err(), CuError::ILLEGAL_ADDRESS);
    assert_eq!(driver.mem_free(0).unwrap_err(), CuError::ILLEGAL_ADDRESS);
    assert_eq!(driver.stream_synchronize(stream).unwrap_err(), CuError::ILLEGAL_ADDRESS);
    // Context queries that need no usable context still work.
    assert_ne!(driver.ctx_get_current(), CtxHandle::NULL);
    driver.primary_ctx_reset(0).unwrap();
    driver.primary_ctx_retain(0).unwrap();
    driver.mem_alloc(8).unwrap();
    assert_eq!(driver.stream_synchronize(stream).unwrap_err(), CuError::INVALID_HANDLE, "reset destroyed the stream");
    assert_eq!(launch(&driver, fault.as_raw(), [1; 3], [1; 3], 0).unwrap_err(), CuError::INVALID_HANDLE, "and the module");
}

#[test]
fn streams_and_events() {
    let (driver, _) = setup();
    let s = driver.stream_create_with_priority(1, -100).unwrap();
    assert_eq!(driver.stream_get_priority(s).unwrap(), -5);
    assert_eq!(driver.stream_get_flags(s).unwrap(), 1);
    assert_eq!(driver.stream_get_ctx(s).unwrap(), driver.ctx_get_current());
    assert_eq!(driver.stream_create(2).unwrap_err(), CuError::INVALID_VALUE);
    for default in [StreamHandle(0), StreamHandle(1), StreamHandle(2)] {
        driver.stream_query(default).unwrap();
        driver.stream_synchronize(default).unwrap();
        assert_eq!(driver.stream_get_flags(default).unwrap(), 0);
    }
    assert_ne!(driver.stream_get_id(s).unwrap(), driver.stream_get_id(StreamHandle(1)).unwrap());

    let (e0, e1) = (driver.event_create(0).unwrap(), driver.event_create(1).unwrap());
    let untimed = driver.event_create(2).unwrap();
    assert_eq!(driver.event_create(4).unwrap_err(), CuError::INVALID_VALUE, "interprocess needs DISABLE_TIMING");
    assert_eq!(driver.event_elapsed_time(e0, e1).unwrap_err(), CuError::INVALID_HANDLE, "never recorded");
    driver.event_record(e0, s).unwrap();
    driver.event_record(e1, StreamHandle::NULL).unwrap();
    driver.event_record(untimed, s).unwrap();
    assert!(driver.event_elapsed_time(e0, e1).unwrap() >= 0.0);
    assert_eq!(driver.event_elapsed_time(e0, untimed).unwrap_err(), CuError::INVALID_HANDLE);
    driver.event_query(e0).unwrap();
    driver.event_synchronize(e0).unwrap();
    driver.stream_wait_event(s, e0, 0).unwrap();
    let ran = Arc::new(std::sync::atomic::AtomicBool::new(false));
    let r = ran.clone();
    driver.launch_host_func(s, Box::new(move |status| r.store(status.is_ok(), std::sync::atomic::Ordering::SeqCst))).unwrap();
    driver.stream_synchronize(s).unwrap();
    assert!(ran.load(std::sync::atomic::Ordering::SeqCst));

    // Stale and wrong-kind handles: INVALID_HANDLE.
    driver.stream_destroy(s).unwrap();
    driver.event_destroy(e0).unwrap();
    assert_eq!(driver.stream_destroy(s).unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.stream_query(s).unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.event_record(e0, StreamHandle::NULL).unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.event_query(EventHandle(e1.0)).unwrap(), ());
    assert_eq!(driver.event_query(EventHandle(s.0)).unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.stream_query(StreamHandle(e1.0)).unwrap_err(), CuError::INVALID_HANDLE);
    assert_eq!(driver.stream_destroy(StreamHandle(1)).unwrap_err(), CuError::INVALID_HANDLE);
    // SAFETY: validation fails before any access.
    assert_eq!(unsafe { driver.memcpy_htod_async(0, std::ptr::null(), 0, s) }.unwrap_err(), CuError::INVALID_HANDLE);
}

#[test]
fn cooperative_launches_are_limited_to_resident_blocks() {
    let (driver, device) = setup();
    let m = load_module(&driver);
    let saxpy = driver.module_get_function(m, "saxpy").unwrap();
    // Fake device: 4 SMs, 6 blocks of 256 threads per SM.
    assert_eq!(driver.occupancy_max_active_blocks(saxpy, 256, 0, 0).unwrap(), 6);
    let mut words = [0u64; 4];
    let mut args: Vec<*mut c_void> = words.iter_mut().map(|w| (w as *mut u64).cast()).collect();
    // SAFETY: four 8-byte arguments cover saxpy's parameters.
    let mut coop =
        |grid: u32| unsafe { driver.launch_cooperative_kernel(saxpy.as_raw(), [grid, 1, 1], [256, 1, 1], 0, StreamHandle::NULL, args.as_mut_ptr()) };
    coop(24).unwrap();
    assert_eq!(coop(25).unwrap_err(), CuError::COOPERATIVE_LAUNCH_TOO_LARGE);
    let config =
        LaunchConfigEx { grid: [25, 1, 1], block: [256, 1, 1], shared_bytes: 0, stream: StreamHandle::NULL, attrs: &[LaunchAttr::Cooperative(1)] };
    // SAFETY: validation fails before parameters are read.
    assert_eq!(
        unsafe { driver.launch_kernel_ex(&config, saxpy.as_raw(), std::ptr::null_mut(), std::ptr::null_mut()) }.unwrap_err(),
        CuError::COOPERATIVE_LAUNCH_TOO_LARGE
    );
    driver.ctx_synchronize(CtxHandle::NULL).unwrap();
    assert_eq!(device.launches.lock().unwrap().iter().filter(|l| l.0 == "saxpy").count(), 1);
    assert_eq!(driver.device_attribute(0, 95).unwrap(), 1, "CU_DEVICE_ATTRIBUTE_COOPERATIVE_LAUNCH");
}

/// A backend's own occupancy answer (`resident_blocks_per_multiprocessor`) is what the
/// occupancy API reports and what cooperative launches are checked against.
#[test]
fn a_backends_occupancy_answer_decides_cooperative_launches() {
    let (driver, _device) = setup();
    let ptx = ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry resident3_k(.param .u64 p)\n{\n\tret;\n}\n\0";
    // SAFETY: NUL-terminated PTX text.
    let (m, _) = unsafe { driver.module_load_data(ptx.as_ptr().cast(), &LoadOptions::default()) };
    let k = driver.module_get_function(m.unwrap(), "resident3_k").unwrap();
    assert_eq!(driver.occupancy_max_active_blocks(k, 256, 0, 0).unwrap(), 3);
    let mut word = 0u64;
    let mut args: Vec<*mut c_void> = vec![(&mut word as *mut u64).cast()];
    // Fake device: 4 SMs, so 12 blocks fit at once.
    // SAFETY: one 8-byte argument covers the parameter.
    let mut coop =
        |grid: u32| unsafe { driver.launch_cooperative_kernel(k.as_raw(), [grid, 1, 1], [256, 1, 1], 0, StreamHandle::NULL, args.as_mut_ptr()) };
    coop(12).unwrap();
    assert_eq!(coop(13).unwrap_err(), CuError::COOPERATIVE_LAUNCH_TOO_LARGE);
    driver.ctx_synchronize(CtxHandle::NULL).unwrap();
}
