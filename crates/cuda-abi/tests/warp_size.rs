//! A 64-lane PTX module (`.warp_size 64`) through the driver API: its lane-mask
//! diagnostics reach `CU_JIT_INFO_LOG_BUFFER` / `CU_JIT_ERROR_LOG_BUFFER` with line:column
//! and the offending text, and its kernel runs with 64-lane warps while the device still
//! reports a warp size of 32.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::null_mut;

use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::init::*;
use cuda::exports::launch::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::module::*;
use cuda::types::*;

fn ok(res: CUresult, what: &str) {
    assert_eq!(res, CUresult::SUCCESS, "{what}");
}

/// `out[t] = ballot(t is odd)` over the warp, with a lane mask written as a 32-bit
/// constant (`MASK`) or register (`%r4`) where the test wants a diagnostic.
fn ptx(mask: &str) -> CString {
    CString::new(format!(
        ".version 8.0
.target sm_80
.address_size 64
.warp_size 64

.visible .entry ballot(.param .u64 out)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 1;
  setp.ne.u32 %p1, %r2, 0;
  mov.u32 %r4, -1;
  vote.sync.ballot.b32 %rd2, %p1, {mask};
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u64 [%rd4], %rd2;
  ret;
}}
"
    ))
    .unwrap()
}

/// Loads `image` with both JIT log buffers; the result and the two logs.
fn load(image: &CString) -> (CUresult, CUmodule, String, String) {
    let mut info = [0 as c_char; 1024];
    let mut error = [0 as c_char; 1024];
    let mut options =
        [jit_option::INFO_LOG_BUFFER, jit_option::INFO_LOG_BUFFER_SIZE_BYTES, jit_option::ERROR_LOG_BUFFER, jit_option::ERROR_LOG_BUFFER_SIZE_BYTES];
    let mut values = [info.as_mut_ptr().cast::<c_void>(), 1024 as *mut c_void, error.as_mut_ptr().cast::<c_void>(), 1024 as *mut c_void];
    let mut module = null_mut();
    let r = unsafe { cuModuleLoadDataEx(&mut module, image.as_ptr().cast(), 4, options.as_mut_ptr(), values.as_mut_ptr()) };
    let text = |b: &[c_char]| unsafe { CStr::from_ptr(b.as_ptr()) }.to_string_lossy().into_owned();
    (r, module, text(&info), text(&error))
}

#[test]
fn wave64_module_logs_and_launch() {
    ok(unsafe { cuInit(0) }, "cuInit");
    let mut dev = -1;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
    let mut ctx = null_mut();
    ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate_v2");
    // CU_DEVICE_ATTRIBUTE_WARP_SIZE: NVIDIA-built PTX assumes 32; 64 is per module.
    let mut warp: c_int = 0;
    ok(unsafe { cuDeviceGetAttribute(&mut warp, 10, dev) }, "warp size attribute");
    assert_eq!(warp, 32);

    // A narrow register mask: CUDA_ERROR_INVALID_PTX, the error in the error log.
    let (r, _, info, error) = load(&ptx("%r4"));
    assert_eq!(r, CUresult(218), "CUDA_ERROR_INVALID_PTX: {error}");
    assert!(
        error.contains("ptx:16:3: error: the lane-mask operand of 'vote.sync.ballot.b32' is the 32-bit value %r4") && error.contains("(near: %r4)"),
        "{error}"
    );
    assert_eq!(info, "");

    // A 32-bit constant mask: loads, with the warning in the info log.
    let (r, module, info, error) = load(&ptx("0xffffffff"));
    ok(r, "load with a warning");
    assert!(
        info.contains("ptx:16:3: warning: constant lane mask 0xffffffff of 'vote.sync.ballot.b32'") && info.contains("(near: 0xffffffff)"),
        "{info}"
    );
    assert_eq!(error, "");
    ok(unsafe { cuModuleUnload(module) }, "unload");

    // `-1`: no diagnostics; 96 threads are a full and a half warp of 64 lanes.
    let (r, module, info, error) = load(&ptx("-1"));
    ok(r, "load");
    assert_eq!((info.as_str(), error.as_str()), ("", ""));
    let mut f = null_mut();
    ok(unsafe { cuModuleGetFunction(&mut f, module, c"ballot".as_ptr()) }, "function");
    let n = 96usize;
    let mut out = 0;
    ok(unsafe { cuMemAlloc_v2(&mut out, n * 8) }, "alloc");
    let mut p = out;
    let mut params = [(&mut p as *mut u64).cast::<c_void>()];
    ok(unsafe { cuLaunchKernel(f, 1, 1, 1, n as u32, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) }, "launch");
    let mut got = vec![0u64; n];
    ok(unsafe { cuMemcpyDtoH_v2(got.as_mut_ptr().cast(), out, n * 8) }, "DtoH");
    // Odd lanes of each warp: all 64 lanes of warp 0, the 32 existing lanes of warp 1.
    let odd = |lanes: u32| (0..lanes).filter(|l| l % 2 == 1).fold(0u64, |m, l| m | 1 << l);
    for (t, &v) in got.iter().enumerate() {
        assert_eq!(v, if t < 64 { odd(64) } else { odd(32) }, "thread {t}");
    }
    ok(unsafe { cuMemFree_v2(out) }, "free");
    ok(unsafe { cuModuleUnload(module) }, "unload");
    ok(unsafe { cuCtxDestroy_v2(ctx) }, "cuCtxDestroy_v2");
}
