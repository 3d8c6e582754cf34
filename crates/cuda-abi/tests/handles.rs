//! Every kind of handle the driver hands out, through the C entry points: each value is
//! nonzero and positive as a signed 64-bit integer (bit 63 clear). Python bindings
//! (numba-cuda, cuda-python's `cuda.core`) pass `.handle` values through signed 64-bit
//! integers and raise `OverflowError` otherwise.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ffi::c_void;
use std::ptr::null_mut;

use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::event::*;
use cuda::exports::init::*;
use cuda::exports::library::*;
use cuda::exports::link::*;
use cuda::exports::module::*;
use cuda::exports::stream::*;
use cuda::exports::vmm::*;
use cuda::types::*;

const PTX: &str = "
.version 8.0
.target sm_80
.address_size 64

.visible .entry nothing()
{
    ret;
}
";

fn ok(res: CUresult, what: &str) {
    assert_eq!(res, CUresult::SUCCESS, "{what}");
}

fn positive(name: &str, handle: *mut c_void) {
    let value = handle as usize as u64;
    assert_ne!(value, 0, "{name} is NULL");
    assert!((value as i64) > 0, "{name} {value:#x} has bit 63 set");
}

#[test]
fn every_handle_kind_is_positive_as_a_signed_64_bit_value() {
    ok(unsafe { cuInit(0) }, "cuInit");
    let mut dev = -1;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
    let mut primary = null_mut();
    ok(unsafe { cuDevicePrimaryCtxRetain(&mut primary, dev) }, "cuDevicePrimaryCtxRetain");
    positive("primary CUcontext", primary.cast());
    let mut ctx = null_mut();
    ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate_v2");
    positive("CUcontext", ctx.cast());

    let ptx = std::ffi::CString::new(PTX).unwrap();
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, ptx.as_ptr().cast()) }, "cuModuleLoadData");
    positive("CUmodule", module.cast());
    let mut function = null_mut();
    ok(unsafe { cuModuleGetFunction(&mut function, module, c"nothing".as_ptr()) }, "cuModuleGetFunction");
    positive("CUfunction", function.cast());

    let mut library = null_mut();
    ok(unsafe { cuLibraryLoadData(&mut library, ptx.as_ptr().cast(), null_mut(), null_mut(), 0, null_mut(), null_mut(), 0) }, "cuLibraryLoadData");
    positive("CUlibrary", library.cast());
    let mut kernel = null_mut();
    ok(unsafe { cuLibraryGetKernel(&mut kernel, library, c"nothing".as_ptr()) }, "cuLibraryGetKernel");
    positive("CUkernel", kernel.cast());

    let mut stream = null_mut();
    ok(unsafe { cuStreamCreate(&mut stream, 0) }, "cuStreamCreate");
    positive("CUstream", stream.cast());
    let mut event = null_mut();
    ok(unsafe { cuEventCreate(&mut event, 0) }, "cuEventCreate");
    positive("CUevent", event.cast());
    let mut link = null_mut();
    ok(unsafe { cuLinkCreate_v2(0, null_mut(), null_mut(), &mut link) }, "cuLinkCreate_v2");
    positive("CUlinkState", link.cast());

    let prop = CUmemAllocationProp {
        kind: 1,
        requestedHandleTypes: 0,
        location: CUmemLocation { kind: 1, id: dev },
        win32HandleMetaData: null_mut(),
        allocFlags: CUmemAllocationPropFlags::default(),
    };
    let mut allocation = 0;
    ok(unsafe { cuMemCreate(&mut allocation, 1 << 16, &prop, 0) }, "cuMemCreate");
    positive("CUmemGenericAllocationHandle", allocation as usize as *mut c_void);

    ok(unsafe { cuMemRelease(allocation) }, "cuMemRelease");
    ok(unsafe { cuLinkDestroy(link) }, "cuLinkDestroy");
    ok(unsafe { cuEventDestroy_v2(event) }, "cuEventDestroy_v2");
    ok(unsafe { cuStreamDestroy_v2(stream) }, "cuStreamDestroy_v2");
    ok(unsafe { cuLibraryUnload(library) }, "cuLibraryUnload");
    ok(unsafe { cuModuleUnload(module) }, "cuModuleUnload");
    ok(unsafe { cuCtxDestroy_v2(ctx) }, "cuCtxDestroy_v2");
    ok(unsafe { cuDevicePrimaryCtxRelease_v2(dev) }, "cuDevicePrimaryCtxRelease_v2");
}
