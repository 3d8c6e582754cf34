//! `CUDA_CPU_DEVICES=3`: three CPU devices, each its own device to the driver (UUID, PCI
//! bus, contexts, allocations), all in one address space, so each can use the others'
//! memory once peer access is enabled. (Its own test binary: the device list is made once
//! per process, from the environment.)

use std::ffi::c_void;

use backend_api::LoadOptions;
use cuda_driver::{init, CtxHandle, StreamHandle};

/// `add(src, dst)`: dst[t] = src[t] + 1 for 64 threads.
const ADD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n\
.visible .entry add(.param .u64 src, .param .u64 dst)\n{\n\
.reg .b32 %r<3>;\n.reg .b64 %rd<6>;\n\
ld.param.u64 %rd1, [src];\nld.param.u64 %rd2, [dst];\nmov.u32 %r1, %tid.x;\n\
mul.wide.u32 %rd3, %r1, 4;\nadd.u64 %rd4, %rd1, %rd3;\nadd.u64 %rd5, %rd2, %rd3;\n\
ld.global.u32 %r2, [%rd4];\nadd.u32 %r2, %r2, 1;\nst.global.u32 [%rd5], %r2;\nret;\n}\n\0";

#[test]
fn three_devices_share_one_address_space() {
    std::env::set_var("CUDA_BACKEND", "cpu");
    std::env::set_var("CUDA_CPU_DEVICES", "3");
    let driver = init(0).expect("cuInit");
    assert_eq!(driver.device_count(), 3);
    let uuids: Vec<[u8; 16]> = (0..3).map(|d| driver.device_uuid(d).unwrap()).collect();
    assert!(uuids[0] != uuids[1] && uuids[1] != uuids[2] && uuids[0] != uuids[2], "{uuids:x?}");
    // CU_DEVICE_ATTRIBUTE_PCI_BUS_ID (33): one bus per device.
    let buses: Vec<i32> = (0..3).map(|d| driver.device_attribute(d, 33).unwrap()).collect();
    assert_eq!(buses, [0, 1, 2]);
    assert!(driver.device_can_access_peer(0, 1).unwrap() && driver.device_can_access_peer(2, 0).unwrap());
    assert!(!driver.device_can_access_peer(1, 1).unwrap());

    let ctx: Vec<CtxHandle> = (0..3).map(|d| driver.primary_ctx_retain(d).unwrap()).collect();
    driver.ctx_set_current(ctx[0]).unwrap();
    let n = 64usize;
    let src = driver.mem_alloc(n * 4).unwrap();
    let host: Vec<u32> = (0..n as u32).map(|i| i * 7).collect();
    // SAFETY: `host` holds n u32.
    unsafe { driver.memcpy_htod(src, host.as_ptr().cast(), n * 4) }.unwrap();

    // Device 1 reads device 0's memory and writes its own; the result comes back to device 2.
    driver.ctx_set_current(ctx[1]).unwrap();
    driver.ctx_enable_peer_access(ctx[0], 0).unwrap();
    let dst = driver.mem_alloc(n * 4).unwrap();
    // SAFETY: NUL-terminated PTX.
    let (module, logs) = unsafe { driver.module_load_data(ADD.as_ptr().cast(), &LoadOptions::default()) };
    let module = module.unwrap_or_else(|e| panic!("{e}: {}", logs.error));
    let f = driver.module_get_function(module, "add").unwrap();
    let (mut a, mut b) = (src, dst);
    let mut args: [*mut c_void; 2] = [(&mut a as *mut u64).cast(), (&mut b as *mut u64).cast()];
    // SAFETY: the kernel's two pointer parameters.
    unsafe { driver.launch_kernel(f.as_raw(), [1, 1, 1], [n as u32, 1, 1], 0, StreamHandle::NULL, args.as_mut_ptr(), std::ptr::null_mut()) }.unwrap();
    driver.ctx_synchronize(CtxHandle::NULL).unwrap();

    driver.ctx_set_current(ctx[2]).unwrap();
    let copy = driver.mem_alloc(n * 4).unwrap();
    driver.memcpy_peer(copy, ctx[2], dst, ctx[1], n * 4).unwrap();
    let mut back = vec![0u32; n];
    // SAFETY: `back` holds n u32.
    unsafe { driver.memcpy_dtoh(back.as_mut_ptr().cast(), copy, n * 4) }.unwrap();
    assert_eq!(back, host.iter().map(|v| v + 1).collect::<Vec<u32>>());
}
