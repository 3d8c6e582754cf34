//! Shared helpers of the NVRTC tests: compiling through the exported C API and running
//! the result on the CPU device through our libcuda's C entry points (cuda-abi).

#![allow(dead_code, clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::null_mut;

use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::init::*;
use cuda::exports::launch::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::module::*;
use cuda::types::*;
use nvrtc::*;

pub struct Compiled {
    pub result: NvrtcResult,
    pub log: String,
    pub ptx: String,
    pub cubin: Vec<u8>,
    pub lowered: Vec<(String, Option<String>)>,
}

/// Compiles through the C API: create, add name expressions, compile, read everything.
pub fn nvrtc(src: &str, name: &str, headers: &[(&str, &str)], opts: &[&str], names: &[&str]) -> Compiled {
    let src_c = CString::new(src).unwrap();
    let name_c = CString::new(name).unwrap();
    let hdr_c: Vec<CString> = headers.iter().map(|h| CString::new(h.1).unwrap()).collect();
    let hname_c: Vec<CString> = headers.iter().map(|h| CString::new(h.0).unwrap()).collect();
    let hdr_p: Vec<*const c_char> = hdr_c.iter().map(|c| c.as_ptr()).collect();
    let hname_p: Vec<*const c_char> = hname_c.iter().map(|c| c.as_ptr()).collect();
    let mut prog: NvrtcProgram = null_mut();
    let r = unsafe { nvrtcCreateProgram(&mut prog, src_c.as_ptr(), name_c.as_ptr(), headers.len() as i32, hdr_p.as_ptr(), hname_p.as_ptr()) };
    assert_eq!(r, NVRTC_SUCCESS);
    for n in names {
        let c = CString::new(*n).unwrap();
        assert_eq!(unsafe { nvrtcAddNameExpression(prog, c.as_ptr()) }, NVRTC_SUCCESS);
    }
    let opt_c: Vec<CString> = opts.iter().map(|o| CString::new(*o).unwrap()).collect();
    let opt_p: Vec<*const c_char> = opt_c.iter().map(|c| c.as_ptr()).collect();
    let result = unsafe { nvrtcCompileProgram(prog, opt_p.len() as i32, opt_p.as_ptr()) };
    let mut n = 0usize;
    assert_eq!(unsafe { nvrtcGetProgramLogSize(prog, &mut n) }, NVRTC_SUCCESS);
    let mut log = vec![0u8; n];
    assert_eq!(unsafe { nvrtcGetProgramLog(prog, log.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
    assert_eq!(log.last(), Some(&0));
    let log = String::from_utf8_lossy(&log[..n - 1]).into_owned();
    assert_eq!(unsafe { nvrtcGetPTXSize(prog, &mut n) }, NVRTC_SUCCESS);
    let mut ptx = vec![0u8; n];
    assert_eq!(unsafe { nvrtcGetPTX(prog, ptx.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
    let ptx = String::from_utf8(ptx[..n - 1].to_vec()).expect("PTX is UTF-8");
    assert_eq!(unsafe { nvrtcGetCUBINSize(prog, &mut n) }, NVRTC_SUCCESS);
    let mut cubin = vec![0u8; n];
    assert_eq!(unsafe { nvrtcGetCUBIN(prog, cubin.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
    let mut lowered = Vec::new();
    for e in names {
        let c = CString::new(*e).unwrap();
        let mut out: *const c_char = std::ptr::null();
        let r = unsafe { nvrtcGetLoweredName(prog, c.as_ptr(), &mut out) };
        let l = (r == NVRTC_SUCCESS).then(|| unsafe { CStr::from_ptr(out) }.to_string_lossy().into_owned());
        lowered.push((e.to_string(), l));
    }
    assert_eq!(unsafe { nvrtcDestroyProgram(&mut prog) }, NVRTC_SUCCESS);
    assert!(prog.is_null());
    Compiled { result, log, ptx, cubin, lowered }
}

/// Compiles and insists on success.
pub fn compile_ok(src: &str, opts: &[&str]) -> Compiled {
    let c = nvrtc(src, "test.cu", &[], opts, &[]);
    assert_eq!(c.result, NVRTC_SUCCESS, "compile failed:\n{}", c.log);
    c
}

fn ok(r: CUresult, what: &str) {
    assert_eq!(r, CUresult::SUCCESS, "{what}");
}

/// A context of its own on the CPU device, current on this thread while alive.
pub struct Gpu {
    ctx: CUcontext,
}

impl Gpu {
    pub fn new() -> Gpu {
        ok(unsafe { cuInit(0) }, "cuInit");
        let mut dev = 0;
        ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
        let mut ctx = null_mut();
        ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate_v2");
        Gpu { ctx }
    }

    /// Loads PTX (or any image) with cuModuleLoadData.
    pub fn load(&self, image: &[u8]) -> Module {
        let mut m = null_mut();
        let mut bytes = image.to_vec();
        if bytes.last() != Some(&0) {
            bytes.push(0);
        }
        let r = unsafe { cuModuleLoadData(&mut m, bytes.as_ptr().cast()) };
        assert_eq!(r, CUresult::SUCCESS, "cuModuleLoadData of:\n{}", String::from_utf8_lossy(image));
        Module(m)
    }

    pub fn alloc<T: Copy>(&self, data: &[T]) -> Buf {
        let bytes = std::mem::size_of_val(data).max(1);
        let mut p = 0;
        ok(unsafe { cuMemAlloc_v2(&mut p, bytes) }, "alloc");
        if !data.is_empty() {
            ok(unsafe { cuMemcpyHtoD_v2(p, data.as_ptr().cast(), bytes) }, "HtoD");
        }
        Buf { ptr: p, bytes }
    }

    /// Copies `data` to device memory at `p` (a buffer this helper did not allocate).
    pub fn write_at<T: Copy>(&self, p: CUdeviceptr, data: &[T]) {
        ok(unsafe { cuMemcpyHtoD_v2(p, data.as_ptr().cast(), std::mem::size_of_val(data)) }, "HtoD");
    }

    pub fn read<T: Copy + Default>(&self, b: &Buf) -> Vec<T> {
        let n = b.bytes / std::mem::size_of::<T>();
        let mut v = vec![T::default(); n];
        ok(unsafe { cuMemcpyDtoH_v2(v.as_mut_ptr().cast(), b.ptr, n * std::mem::size_of::<T>()) }, "DtoH");
        v
    }

    /// Launches with kernelParams built from the argument list (each a pointer to a value).
    pub fn launch(&self, f: CUfunction, grid: (u32, u32, u32), block: (u32, u32, u32), shmem: u32, args: &mut [*mut c_void]) {
        let r = unsafe { cuLaunchKernel(f, grid.0, grid.1, grid.2, block.0, block.1, block.2, shmem, null_mut(), args.as_mut_ptr(), null_mut()) };
        assert_eq!(r, CUresult::SUCCESS, "launch");
        ok(unsafe { cuCtxSynchronize() }, "sync");
    }
}

impl Drop for Gpu {
    fn drop(&mut self) {
        unsafe { cuCtxDestroy_v2(self.ctx) };
    }
}

pub struct Module(pub CUmodule);

impl Module {
    pub fn func(&self, name: &str) -> CUfunction {
        let c = CString::new(name).unwrap();
        let mut f = null_mut();
        let r = unsafe { cuModuleGetFunction(&mut f, self.0, c.as_ptr()) };
        assert_eq!(r, CUresult::SUCCESS, "cuModuleGetFunction({name})");
        f
    }

    pub fn global(&self, name: &str) -> (CUdeviceptr, usize) {
        let c = CString::new(name).unwrap();
        let (mut p, mut n) = (0, 0);
        ok(unsafe { cuModuleGetGlobal_v2(&mut p, &mut n, self.0, c.as_ptr()) }, "global");
        (p, n)
    }
}

impl Drop for Module {
    fn drop(&mut self) {
        unsafe { cuModuleUnload(self.0) };
    }
}

pub struct Buf {
    pub ptr: CUdeviceptr,
    pub bytes: usize,
}

/// `&mut value as *mut _ as *mut c_void`, for kernel argument lists.
pub fn arg<T>(v: &mut T) -> *mut c_void {
    v as *mut T as *mut c_void
}
