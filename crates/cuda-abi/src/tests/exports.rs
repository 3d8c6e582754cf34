//! Tests of the entry points through their C signatures: error names and strings, and
//! the NULL-pointer table (every required pointer argument, passed NULL, answers
//! `CUDA_ERROR_INVALID_VALUE` before any handle is touched, so garbage handles are safe).

use std::ffi::{c_char, c_void, CStr};
use std::ptr::{null, null_mut};

use super::context::*;
use super::device::*;
use super::error::*;
use super::event::*;
use super::init::*;
use super::launch::*;
use super::library::*;
use super::link::*;
use super::memcpy::*;
use super::memory::*;
use super::module::*;
use super::stream::*;
use crate::types::*;

fn error_text(f: unsafe extern "C" fn(CUresult, *mut *const c_char) -> CUresult, code: u32) -> (CUresult, Option<String>) {
    let mut p: *const c_char = std::ptr::dangling();
    // SAFETY: valid out-pointer.
    let res = unsafe { f(CUresult(code), &mut p) };
    // SAFETY: the driver's strings are static and NUL-terminated.
    (res, (!p.is_null()).then(|| unsafe { CStr::from_ptr(p) }.to_str().unwrap().to_string()))
}

#[test]
fn error_names_and_strings() {
    for (code, name, text) in [
        (0, "CUDA_SUCCESS", "no error"),
        (1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"),
        (3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"),
        (500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"),
        (801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"),
        (999, "CUDA_ERROR_UNKNOWN", "unknown error"),
    ] {
        assert_eq!(error_text(cuGetErrorName, code), (CUresult::SUCCESS, Some(name.to_string())));
        assert_eq!(error_text(cuGetErrorString, code), (CUresult::SUCCESS, Some(text.to_string())));
    }
    for unknown in [9, 35, 1000, u32::MAX] {
        assert_eq!(error_text(cuGetErrorName, unknown), (CUresult::ERROR_INVALID_VALUE, None));
        assert_eq!(error_text(cuGetErrorString, unknown), (CUresult::ERROR_INVALID_VALUE, None));
    }
}

#[test]
fn driver_version_and_init_flags() {
    let mut v = 0;
    // SAFETY: valid out-pointer.
    assert_eq!(unsafe { cuDriverGetVersion(&mut v) }, CUresult::SUCCESS);
    assert!(v >= 13000, "cudart 13 refuses drivers older than 13.0");
    // SAFETY: no pointers.
    assert_eq!(unsafe { cuInit(1) }, CUresult::ERROR_INVALID_VALUE);
}

/// Asserts that each call answers `CUDA_ERROR_INVALID_VALUE`.
macro_rules! all_invalid {
    ($($call:expr;)*) => {$(
        // SAFETY: every call passes NULL for a required pointer, which the entry point
        // rejects before reading any other argument; other pointers are valid locals.
        let res = unsafe { $call };
        assert_eq!(res, CUresult::ERROR_INVALID_VALUE, "{}", stringify!($call));
    )*};
}

#[test]
fn null_pointer_table() {
    // Plausible-looking but bogus handles: never dereferenced on these paths.
    let ctx = 0xdead_0000 as CUcontext;
    let m = 0xdead_0010 as CUmodule;
    let f = 0xdead_0020 as CUfunction;
    let l = 0xdead_0030 as CUlibrary;
    let k = 0xdead_0040 as CUkernel;
    let s = 0xdead_0050 as CUstream;
    let e = 0xdead_0060 as CUevent;
    let lk = 0xdead_0070 as CUlinkState;
    let mut lk_out = null_mut::<CUlinkState_st>();
    let name = c"name".as_ptr();
    let image = c"// not an image".as_ptr().cast::<c_void>();
    let (mut int, mut uint, mut size, mut dptr, mut ptr) = (0i32, 0u32, 0usize, 0u64, null_mut::<c_void>());
    let mut attrs = [1u32];
    let mut data = [null_mut::<c_void>()];

    all_invalid! {
        cuDriverGetVersion(null_mut());
        cuGetErrorName(CUresult(0), null_mut());
        cuGetErrorString(CUresult(0), null_mut());

        cuDeviceGet(null_mut(), 0);
        cuDeviceGetCount(null_mut());
        cuDeviceGetName(null_mut(), 16, 0);
        cuDeviceGetName(&mut 0, 0, 0);
        cuDeviceTotalMem_v2(null_mut(), 0);
        cuDeviceGetAttribute(null_mut(), 1, 0);
        cuDeviceGetUuid(null_mut(), 0);
        cuDeviceGetUuid_v2(null_mut(), 0);
        cuDeviceGetPCIBusId(null_mut(), 16, 0);
        cuDeviceGetByPCIBusId(null_mut(), c"0000:00:00.0".as_ptr());
        cuDeviceGetByPCIBusId(&mut int, null());
        cuDeviceComputeCapability(null_mut(), &mut int, 0);
        cuDeviceComputeCapability(&mut int, null_mut(), 0);
        cuDeviceGetProperties(null_mut(), 0);
        cuDeviceCanAccessPeer(null_mut(), 0, 0);
        cuDeviceGetP2PAttribute(null_mut(), 1, 0, 1);
        cuDeviceGetTexture1DLinearMaxWidth(null_mut(), 0, 1, 0);
        cuDevicePrimaryCtxRetain(null_mut(), 0);
        cuDevicePrimaryCtxGetState(0, null_mut(), &mut int);
        cuDevicePrimaryCtxGetState(0, &mut uint, null_mut());

        cuCtxCreate_v2(null_mut(), 0, 0);
        cuCtxCreate_v3(null_mut(), null_mut(), 0, 0, 0);
        cuCtxCreate_v4(null_mut(), null_mut(), 0, 0);
        cuCtxGetCurrent(null_mut());
        cuCtxGetDevice(null_mut());
        cuCtxGetDevice_v2(null_mut(), ctx);
        cuCtxGetApiVersion(ctx, null_mut());
        cuCtxGetFlags(null_mut());
        cuCtxGetId(ctx, null_mut());
        cuCtxGetLimit(null_mut(), 0);
        cuCtxGetCacheConfig(null_mut());
        cuCtxGetSharedMemConfig(null_mut());

        cuMemAlloc_v2(null_mut(), 16);
        cuMemAllocHost_v2(null_mut(), 16);
        cuMemHostAlloc(null_mut(), 16, 0);
        cuMemHostGetDevicePointer_v2(null_mut(), image.cast_mut(), 0);
        cuMemHostGetFlags(null_mut(), image.cast_mut());
        cuMemHostRegister_v2(null_mut(), 16, 0);
        cuMemAllocManaged(null_mut(), 16, 1);
        cuMemAllocPitch_v2(null_mut(), &mut size, 16, 16, 4);
        cuMemAllocPitch_v2(&mut dptr, null_mut(), 16, 16, 4);
        cuPointerGetAttribute(null_mut(), 1, 0x1000);
        cuPointerGetAttributes(1, null_mut(), data.as_mut_ptr(), 0x1000);
        cuPointerGetAttributes(1, attrs.as_mut_ptr(), null_mut(), 0x1000);

        cuMemcpy(0, 0x1000, 16);
        cuMemcpy_ptds(0x1000, 0, 16);
        cuMemcpyAsync(0, 0x1000, 16, s);
        cuMemcpyAsync_ptsz(0x1000, 0, 16, s);
        cuMemcpyHtoD_v2(0x1000, null(), 16);
        cuMemcpyHtoD_v2_ptds(0x1000, null(), 16);
        cuMemcpyHtoDAsync_v2(0x1000, null(), 16, s);
        cuMemcpyHtoDAsync_v2_ptsz(0x1000, null(), 16, s);
        cuMemcpyDtoH_v2(null_mut(), 0x1000, 16);
        cuMemcpyDtoH_v2_ptds(null_mut(), 0x1000, 16);
        cuMemcpyDtoHAsync_v2(null_mut(), 0x1000, 16, s);
        cuMemcpyDtoHAsync_v2_ptsz(null_mut(), 0x1000, 16, s);
        cuMemcpy2D_v2(null());
        cuMemcpy2D_v2_ptds(null());
        cuMemcpy2DUnaligned_v2(null());
        cuMemcpy2DUnaligned_v2_ptds(null());
        cuMemcpy2DAsync_v2(null(), s);
        cuMemcpy2DAsync_v2_ptsz(null(), s);
        cuMemcpy3D_v2(null());
        cuMemcpy3D_v2_ptds(null());
        cuMemcpy3DAsync_v2(null(), s);
        cuMemcpy3DAsync_v2_ptsz(null(), s);

        cuModuleLoad(null_mut(), name);
        cuModuleLoad(&mut null_mut(), null());
        cuLinkCreate_v2(0, null_mut(), null_mut(), null_mut());
        cuLinkCreate(0, null_mut(), null_mut(), null_mut());
        cuLinkCreate_v2(1, null_mut(), null_mut(), &mut lk_out);
        cuLinkAddData_v2(lk, 1, null_mut(), 16, name, 0, null_mut(), null_mut());
        cuLinkAddData_v2(lk, 1, image.cast_mut(), 0, name, 0, null_mut(), null_mut());
        cuLinkAddData(lk, 1, null_mut(), 16, name, 0, null_mut(), null_mut());
        cuLinkAddData_v2(lk, 1, image.cast_mut(), 16, name, 1, null_mut(), null_mut());
        cuLinkAddFile_v2(lk, 1, null(), 0, null_mut(), null_mut());
        cuLinkAddFile(lk, 1, null(), 0, null_mut(), null_mut());
        cuLinkComplete(lk, null_mut(), &mut size);

        cuModuleLoadData(null_mut(), image);
        cuModuleLoadData(&mut null_mut(), null());
        cuModuleLoadDataEx(null_mut(), image, 0, null_mut(), null_mut());
        cuModuleLoadDataEx(&mut null_mut(), image, 1, null_mut(), null_mut());
        cuModuleLoadFatBinary(null_mut(), image);
        cuModuleLoadFatBinary(&mut null_mut(), null());
        cuModuleGetFunction(null_mut(), m, name);
        cuModuleGetFunction(&mut null_mut(), m, null());
        cuModuleGetGlobal_v2(&mut dptr, &mut size, m, null());
        cuModuleGetLoadingMode(null_mut());
        cuModuleGetFunctionCount(null_mut(), m);
        cuModuleEnumerateFunctions(null_mut(), 1, m);
        cuFuncGetAttribute(null_mut(), 0, f);
        cuFuncGetName(null_mut(), f);
        cuFuncGetModule(null_mut(), f);
        cuFuncIsLoaded(null_mut(), f);

        cuLibraryLoadData(null_mut(), image, null_mut(), null_mut(), 0, null_mut(), null_mut(), 0);
        cuLibraryLoadData(&mut null_mut(), null(), null_mut(), null_mut(), 0, null_mut(), null_mut(), 0);
        cuLibraryLoadData(&mut null_mut(), image, null_mut(), null_mut(), 1, null_mut(), null_mut(), 0);
        cuLibraryLoadData(&mut null_mut(), image, null_mut(), null_mut(), 0, null_mut(), null_mut(), 1);
        cuLibraryLoadFromFile(null_mut(), name, null_mut(), null_mut(), 0, null_mut(), null_mut(), 0);
        cuLibraryLoadFromFile(&mut null_mut(), null(), null_mut(), null_mut(), 0, null_mut(), null_mut(), 0);
        cuLibraryGetKernel(null_mut(), l, name);
        cuLibraryGetKernel(&mut null_mut(), l, null());
        cuLibraryGetKernelCount(null_mut(), l);
        cuLibraryEnumerateKernels(null_mut(), 1, l);
        cuLibraryGetModule(null_mut(), l);
        cuLibraryGetGlobal(&mut dptr, &mut size, l, null());
        cuKernelGetFunction(null_mut(), k);
        cuKernelGetAttribute(null_mut(), 0, k, 0);
        cuKernelGetName(null_mut(), k);
        cuKernelGetLibrary(null_mut(), k);

        cuLaunchKernelEx(null(), f, null_mut(), null_mut());
        cuLaunchKernelEx_ptsz(null(), f, null_mut(), null_mut());
        cuOccupancyMaxActiveBlocksPerMultiprocessor(null_mut(), f, 32, 0);
        cuOccupancyMaxActiveBlocksPerMultiprocessorWithFlags(null_mut(), f, 32, 0, 0);
        cuOccupancyMaxPotentialBlockSize(null_mut(), &mut int, f, None, 0, 0);
        cuOccupancyMaxPotentialBlockSize(&mut int, null_mut(), f, None, 0, 0);
        cuOccupancyMaxPotentialBlockSizeWithFlags(null_mut(), &mut int, f, None, 0, 0, 0);
        cuOccupancyAvailableDynamicSMemPerBlock(null_mut(), f, 1, 32);

        cuStreamCreate(null_mut(), 0);
        cuStreamCreateWithPriority(null_mut(), 0, 0);
        cuStreamGetFlags(s, null_mut());
        cuStreamGetFlags_ptsz(s, null_mut());
        cuStreamGetPriority(s, null_mut());
        cuStreamGetPriority_ptsz(s, null_mut());
        cuStreamGetCtx(s, null_mut());
        cuStreamGetCtx_ptsz(s, null_mut());
        cuStreamGetCtx_v2(s, null_mut(), null_mut());
        cuStreamGetCtx_v2_ptsz(s, null_mut(), null_mut());
        cuStreamGetDevice(s, null_mut());
        cuStreamGetDevice_ptsz(s, null_mut());
        cuStreamGetId(s, null_mut());
        cuStreamGetId_ptsz(s, null_mut());
        cuLaunchHostFunc(s, None, null_mut());
        cuLaunchHostFunc_ptsz(s, None, null_mut());
        cuStreamAddCallback(s, None, null_mut(), 0);
        cuStreamAddCallback_ptsz(s, None, null_mut(), 0);

        cuEventCreate(null_mut(), 0);
    }
    let _ = (&mut ptr, &mut uint);
}
