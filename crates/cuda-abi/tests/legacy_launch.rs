//! The launch API before `cuLaunchKernel` (`cuFuncSetBlockShape`, `cuParamSet*`,
//! `cuLaunch`, `cuLaunchGrid`, `cuLaunchGridAsync`) and `cuCtxAttach`, through the C entry
//! points on the CPU device.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

#[allow(dead_code, reason = "the shared helpers include a device ordinal these tests do not read")]
mod support;

use std::ffi::c_void;
use std::ptr::null_mut;

use cuda::exports::context::*;
use cuda::exports::device_misc::*;
use cuda::exports::legacy_launch::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::module::*;
use cuda::types::*;
use support::{add_kernel, ok, Ctx, INVALID_VALUE};

#[test]
fn parameters_set_by_offset_and_grids_of_blocks() {
    let _ctx = Ctx::new();
    let (module, f) = add_kernel();
    let n = 200u32;
    let mut data = 0;
    ok(unsafe { cuMemAlloc_v2(&mut data, 4 * n as usize) }, "alloc");
    ok(unsafe { cuMemsetD32_v2(data, 5, n as usize) }, "fill");
    // add_u32(data: u64 at 0, n: u32 at 8, add: u32 at 12).
    let mut pointer = data;
    ok(unsafe { cuParamSetv(f, 0, (&mut pointer as *mut u64).cast::<c_void>(), 8) }, "data");
    ok(unsafe { cuParamSeti(f, 8, n) }, "n");
    ok(unsafe { cuParamSeti(f, 12, 10) }, "add");
    ok(unsafe { cuParamSetSize(f, 16) }, "size");
    ok(unsafe { cuFuncSetBlockShape(f, 64, 1, 1) }, "block");
    ok(unsafe { cuFuncSetSharedSize(f, 0) }, "shared");
    ok(unsafe { cuLaunchGrid(f, 4, 1) }, "4 blocks of 64 cover 200");
    ok(unsafe { cuLaunch(f) }, "one block: the first 64 again");
    ok(unsafe { cuLaunchGridAsync(f, 1, 1, null_mut()) }, "and once more on the NULL stream");
    ok(unsafe { cuCtxSynchronize() }, "sync");
    let mut back = vec![0u32; n as usize];
    ok(unsafe { cuMemcpyDtoH_v2(back.as_mut_ptr().cast(), data, 4 * n as usize) }, "download");
    let want: Vec<u32> = (0..n).map(|i| if i < 64 { 35 } else { 15 }).collect();
    assert_eq!(back, want);

    assert_eq!(unsafe { cuFuncSetBlockShape(f, 0, 1, 1) }, INVALID_VALUE);
    assert_eq!(unsafe { cuLaunchGrid(f, 0, 1) }, INVALID_VALUE);
    ok(unsafe { cuParamSetSize(f, 4097) }, "past the old 4 KiB, as NVIDIA's driver takes it");
    assert_eq!(unsafe { cuParamSetSize(f, 32765) }, INVALID_VALUE);
    assert_eq!(unsafe { cuParamSeti(f, -4, 0) }, INVALID_VALUE, "NVIDIA's driver crashes");
    assert_eq!(unsafe { cuParamSetv(f, 32760, (&mut pointer as *mut u64).cast::<c_void>(), 8) }, INVALID_VALUE);
    assert_eq!(unsafe { cuParamSeti(null_mut(), 0, 0) }, CUresult::ERROR_INVALID_HANDLE);
    ok(unsafe { cuMemFree_v2(data) }, "free");
    ok(unsafe { cuModuleUnload(module) }, "unload");
}

#[test]
fn an_attached_context_survives_one_detach() {
    let ctx = Ctx::new();
    let mut attached = null_mut();
    assert_eq!(unsafe { cuCtxAttach(&mut attached, 1) }, INVALID_VALUE, "flags must be 0");
    ok(unsafe { cuCtxAttach(&mut attached, 0) }, "attach");
    assert_eq!(attached, ctx.0, "the current context");
    ok(unsafe { cuCtxDetach(attached) }, "detach");
    let mut current = null_mut();
    ok(unsafe { cuCtxGetCurrent(&mut current) }, "current");
    assert_eq!(current, ctx.0, "still alive and current");
}
