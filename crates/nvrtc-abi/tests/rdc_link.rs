//! Separate compilation as CuPy and jitify do it: two programs compiled with `-rdc=true`
//! by our NVRTC, linked through our libcuda's `cuLink*` (with NVIDIA's device runtime
//! library added, as CuPy does, when the venv has it), loaded and run on the CPU device.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

mod common;
use common::*;

use std::ffi::{c_void, CString};
use std::ptr::null_mut;

use cuda::exports::link::*;
use cuda::exports::module::cuModuleLoadData;
use cuda::types::*;

const KERNEL: &str = r#"
extern __device__ int offset;
extern __device__ float blend(float a, float b);
extern "C" __global__ void apply(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = blend(x[i], y[i]) + offset;
}
"#;

const LIBRARY: &str = r#"
__device__ int offset = 3;
__device__ float blend(float a, float b) { return 2.0f * a - b; }
"#;

/// `cuLinkAddData_v2` of NUL-terminated PTX.
fn add_ptx(state: CUlinkState, ptx: &str, name: &str) -> CUresult {
    let text = CString::new(ptx).unwrap();
    let name = CString::new(name).unwrap();
    let bytes = text.as_bytes_with_nul();
    unsafe { cuLinkAddData_v2(state, 1, bytes.as_ptr().cast_mut().cast(), bytes.len(), name.as_ptr(), 0, null_mut(), null_mut()) }
}

/// NVIDIA's `libcudadevrt.a` from the project's venv, if installed.
fn cudadevrt() -> Option<CString> {
    let venv = concat!(env!("CARGO_MANIFEST_DIR"), "/../../.venv/lib");
    let found =
        std::fs::read_dir(venv).ok()?.flatten().map(|py| py.path().join("site-packages/nvidia/cu13/lib/libcudadevrt.a")).find(|p| p.exists())?;
    CString::new(found.to_str()?).ok()
}

#[test]
fn rdc_programs_link_through_culink_and_run() {
    let kernel = compile_ok(KERNEL, &["-rdc=true", "-arch=compute_80"]);
    let library = compile_ok(LIBRARY, &["-rdc=true", "-arch=compute_80"]);
    assert!(kernel.ptx.contains(".extern .func"), "relocatable PTX declares what it uses:\n{}", kernel.ptx);

    let gpu = Gpu::new();
    let mut state = null_mut();
    assert_eq!(unsafe { cuLinkCreate_v2(0, null_mut(), null_mut(), &mut state) }, CUresult::SUCCESS);
    assert_eq!(add_ptx(state, &kernel.ptx, "kernel.cu"), CUresult::SUCCESS);
    assert_eq!(add_ptx(state, &library.ptx, "library.cu"), CUresult::SUCCESS);
    if let Some(devrt) = cudadevrt() {
        let r = unsafe {
            cuLinkAddFile_v2(state, 4 /* CU_JIT_INPUT_LIBRARY */, devrt.as_ptr(), 0, null_mut(), null_mut())
        };
        assert_eq!(r, CUresult::SUCCESS, "adding libcudadevrt.a");
    }
    let (mut cubin, mut size) = (null_mut::<c_void>(), 0usize);
    assert_eq!(unsafe { cuLinkComplete(state, &mut cubin, &mut size) }, CUresult::SUCCESS);
    let mut module = null_mut();
    assert_eq!(unsafe { cuModuleLoadData(&mut module, cubin) }, CUresult::SUCCESS);
    assert_eq!(unsafe { cuLinkDestroy(state) }, CUresult::SUCCESS);
    let m = Module(module);

    let n = 300usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32 * 0.5).collect();
    let y: Vec<f32> = (0..n).map(|i| (n - i) as f32).collect();
    let (bx, by) = (gpu.alloc(&x), gpu.alloc(&y));
    let (mut px, mut py, mut nn) = (bx.ptr, by.ptr, n as i32);
    gpu.launch(m.func("apply"), (3, 1, 1), (128, 1, 1), 0, &mut [arg(&mut px), arg(&mut py), arg(&mut nn)]);
    let out: Vec<f32> = gpu.read(&by);
    for i in 0..n {
        assert_eq!(out[i], 2.0 * x[i] - y[i] + 3.0, "y[{i}]");
    }
    // The variable is the library's, visible through the linked module.
    let (offset, bytes) = m.global("offset");
    assert_eq!(bytes, 4);
    assert_eq!(gpu.read::<i32>(&Buf { ptr: offset, bytes: 4 }), vec![3]);
}
