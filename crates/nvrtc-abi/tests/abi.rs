//! The C API against the behaviour of NVIDIA's NVRTC 13.0 (libnvrtc.so.13 from the
//! nvidia-cuda-nvrtc wheel), as measured with a ctypes probe: result codes of every
//! argument check, getters before and after compiling, option errors and their log lines,
//! log format. Plus what NVIDIA does not promise but we do: stale handles are errors,
//! concurrent compiles, crash recovery, and a fuzz run.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

mod common;
use common::*;
use nvrtc::*;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::ptr::{null, null_mut};

fn create(src: &str) -> NvrtcProgram {
    let s = CString::new(src).unwrap();
    let mut p = null_mut();
    assert_eq!(unsafe { nvrtcCreateProgram(&mut p, s.as_ptr(), c"prog.cu".as_ptr(), 0, null(), null()) }, NVRTC_SUCCESS);
    p
}

fn compile(p: NvrtcProgram, opts: &[&str]) -> NvrtcResult {
    let c: Vec<CString> = opts.iter().map(|o| CString::new(*o).unwrap()).collect();
    let v: Vec<*const c_char> = c.iter().map(|x| x.as_ptr()).collect();
    unsafe { nvrtcCompileProgram(p, v.len() as c_int, v.as_ptr()) }
}

fn log(p: NvrtcProgram) -> String {
    let mut n = 0;
    assert_eq!(unsafe { nvrtcGetProgramLogSize(p, &mut n) }, NVRTC_SUCCESS);
    let mut b = vec![0u8; n];
    assert_eq!(unsafe { nvrtcGetProgramLog(p, b.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
    String::from_utf8_lossy(&b[..n - 1]).into_owned()
}

fn size(f: unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult, p: NvrtcProgram) -> usize {
    let mut n = 99;
    assert_eq!(unsafe { f(p, &mut n) }, NVRTC_SUCCESS);
    n
}

fn destroy(mut p: NvrtcProgram) {
    assert_eq!(unsafe { nvrtcDestroyProgram(&mut p) }, NVRTC_SUCCESS);
}

#[test]
fn error_strings_version_and_archs() {
    let names = [
        "NVRTC_SUCCESS",
        "NVRTC_ERROR_OUT_OF_MEMORY",
        "NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
        "NVRTC_ERROR_INVALID_INPUT",
        "NVRTC_ERROR_INVALID_PROGRAM",
        "NVRTC_ERROR_INVALID_OPTION",
        "NVRTC_ERROR_COMPILATION",
        "NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
        "NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
        "NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
        "NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
        "NVRTC_ERROR_INTERNAL_ERROR",
        "NVRTC_ERROR_TIME_FILE_WRITE_FAILED",
        "NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED",
        "NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED",
        "NVRTC_ERROR_PCH_CREATE",
        "NVRTC_ERROR_CANCELLED",
        "NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED",
    ];
    for (i, n) in names.iter().enumerate() {
        assert_eq!(unsafe { CStr::from_ptr(nvrtcGetErrorString(i as c_int)) }.to_str().unwrap(), *n);
    }
    for bad in [18, 100, -1] {
        assert_eq!(unsafe { CStr::from_ptr(nvrtcGetErrorString(bad)) }.to_str().unwrap(), "NVRTC_ERROR unknown");
    }
    let (mut major, mut minor) = (0, 0);
    assert_eq!(unsafe { nvrtcVersion(&mut major, &mut minor) }, NVRTC_SUCCESS);
    assert_eq!((major, minor), (13, 0));
    assert_eq!(unsafe { nvrtcVersion(null_mut(), null_mut()) }, NVRTC_ERROR_INVALID_INPUT);
    let mut n = 0;
    assert_eq!(unsafe { nvrtcGetNumSupportedArchs(&mut n) }, NVRTC_SUCCESS);
    let mut archs = vec![0; n as usize];
    assert_eq!(unsafe { nvrtcGetSupportedArchs(archs.as_mut_ptr()) }, NVRTC_SUCCESS);
    assert_eq!(archs, vec![75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121]);
    assert_eq!(unsafe { nvrtcGetNumSupportedArchs(null_mut()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(unsafe { nvrtcGetSupportedArchs(null_mut()) }, NVRTC_ERROR_INVALID_INPUT);
}

#[test]
fn create_and_destroy_argument_checks() {
    let src = c"__global__ void k(){}";
    let mut p = null_mut();
    assert_eq!(unsafe { nvrtcCreateProgram(null_mut(), src.as_ptr(), null(), 0, null(), null()) }, NVRTC_ERROR_INVALID_PROGRAM);
    assert_eq!(unsafe { nvrtcCreateProgram(&mut p, null(), null(), 0, null(), null()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(unsafe { nvrtcCreateProgram(&mut p, src.as_ptr(), null(), -1, null(), null()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(unsafe { nvrtcCreateProgram(&mut p, src.as_ptr(), null(), 1, null(), null()) }, NVRTC_ERROR_INVALID_INPUT);
    let null_entry: [*const c_char; 1] = [null()];
    let name: [*const c_char; 1] = [c"a.h".as_ptr()];
    let text: [*const c_char; 1] = [c"int x;".as_ptr()];
    assert_eq!(unsafe { nvrtcCreateProgram(&mut p, src.as_ptr(), null(), 1, null_entry.as_ptr(), name.as_ptr()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(unsafe { nvrtcCreateProgram(&mut p, src.as_ptr(), null(), 1, text.as_ptr(), null_entry.as_ptr()) }, NVRTC_ERROR_INVALID_INPUT);
    // A NULL name is allowed: the program is "default_program".
    assert_eq!(unsafe { nvrtcCreateProgram(&mut p, c"int x = ;".as_ptr(), null(), 0, null(), null()) }, NVRTC_SUCCESS);
    assert_eq!(compile(p, &[]), NVRTC_ERROR_COMPILATION);
    assert!(log(p).contains("in the compilation of \"default_program\""), "{}", log(p));
    let stale = p;
    destroy(p);
    assert_eq!(unsafe { nvrtcDestroyProgram(null_mut()) }, NVRTC_ERROR_INVALID_PROGRAM);
    let mut nul: NvrtcProgram = null_mut();
    assert_eq!(unsafe { nvrtcDestroyProgram(&mut nul) }, NVRTC_ERROR_INVALID_PROGRAM);
    // Stale and foreign handles are errors, not crashes.
    let mut s = stale;
    assert_eq!(unsafe { nvrtcDestroyProgram(&mut s) }, NVRTC_ERROR_INVALID_PROGRAM);
    assert_eq!(compile(stale, &[]), NVRTC_ERROR_INVALID_PROGRAM);
    let mut junk = 0u64;
    let foreign = &mut junk as *mut u64 as NvrtcProgram;
    assert_eq!(compile(foreign, &[]), NVRTC_ERROR_INVALID_PROGRAM);
    assert_eq!(unsafe { nvrtcGetPTXSize(foreign, &mut 0) }, NVRTC_ERROR_INVALID_PROGRAM);
}

#[test]
fn getters_before_and_after_compiling() {
    let p = create("template<class T> __global__ void k(T* p){ *p = 1; }");
    assert_eq!(size(nvrtcGetProgramLogSize, p), 1);
    assert_eq!(size(nvrtcGetPTXSize, p), 1);
    assert_eq!(size(nvrtcGetCUBINSize, p), 0);
    let mut lowered: *const c_char = null();
    assert_eq!(unsafe { nvrtcGetLoweredName(p, c"k<int>".as_ptr(), &mut lowered) }, NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION);
    assert_eq!(unsafe { nvrtcAddNameExpression(p, null()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(unsafe { nvrtcAddNameExpression(null_mut(), c"k<int>".as_ptr()) }, NVRTC_ERROR_INVALID_PROGRAM);
    assert_eq!(unsafe { nvrtcAddNameExpression(p, c"k<int>".as_ptr()) }, NVRTC_SUCCESS);
    // Bad options leave the program uncompiled: name expressions can still be added.
    assert_eq!(compile(p, &["-foo"]), NVRTC_ERROR_INVALID_OPTION);
    assert_eq!(log(p), "nvrtc: error: unrecognized option -foo found\n");
    assert_eq!(unsafe { nvrtcAddNameExpression(p, c"k<float>".as_ptr()) }, NVRTC_SUCCESS);
    assert_eq!(compile(p, &["-arch=compute_80"]), NVRTC_SUCCESS);
    assert_eq!(unsafe { nvrtcAddNameExpression(p, c"k<char>".as_ptr()) }, NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION);
    assert_eq!(unsafe { nvrtcGetLoweredName(p, c"k<int>".as_ptr(), &mut lowered) }, NVRTC_SUCCESS);
    assert_eq!(unsafe { CStr::from_ptr(lowered) }.to_str().unwrap(), "_Z1kIiEvPT_");
    assert_eq!(unsafe { nvrtcGetLoweredName(p, c"k<double>".as_ptr(), &mut lowered) }, NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID);
    assert_eq!(unsafe { nvrtcGetLoweredName(p, c"k<int>".as_ptr(), null_mut()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(unsafe { nvrtcGetLoweredName(p, null(), &mut lowered) }, NVRTC_ERROR_INVALID_INPUT);
    // compute_XX: PTX, no CUBIN; the other outputs are empty.
    assert!(size(nvrtcGetPTXSize, p) > 100);
    assert_eq!(size(nvrtcGetCUBINSize, p), 0);
    assert_eq!(size(nvrtcGetLTOIRSize, p), 0);
    assert_eq!(size(nvrtcGetOptiXIRSize, p), 0);
    assert_eq!(size(nvrtcGetTileIRSize, p), 0);
    for get in [nvrtcGetPTX, nvrtcGetCUBIN, nvrtcGetLTOIR, nvrtcGetOptiXIR, nvrtcGetTileIR, nvrtcGetProgramLog] {
        assert_eq!(unsafe { get(p, null_mut()) }, NVRTC_ERROR_INVALID_INPUT);
    }
    for get in [nvrtcGetPTXSize, nvrtcGetCUBINSize, nvrtcGetLTOIRSize, nvrtcGetOptiXIRSize, nvrtcGetTileIRSize, nvrtcGetProgramLogSize] {
        assert_eq!(unsafe { get(p, null_mut()) }, NVRTC_ERROR_INVALID_INPUT);
        assert_eq!(unsafe { get(null_mut(), &mut 0) }, NVRTC_ERROR_INVALID_PROGRAM);
    }
    // Compiling again is allowed.
    assert_eq!(compile(p, &["-arch=sm_86"]), NVRTC_SUCCESS);
    let n = size(nvrtcGetCUBINSize, p);
    assert_eq!(n, size(nvrtcGetPTXSize, p), "an sm_XX CUBIN is the PTX text");
    let mut cubin = vec![0u8; n];
    assert_eq!(unsafe { nvrtcGetCUBIN(p, cubin.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
    assert!(cubin.starts_with(b"//") && cubin.ends_with(b"\0"));
    destroy(p);
}

/// With `-dlto` the output is LTO-IR only: PTX is empty (size 1) and there is no CUBIN,
/// as NVIDIA's NVRTC 13 answers (measured on an H200). Ours is the relocatable PTX, so a
/// device function nobody in the program calls is kept, visible, for a later link.
#[test]
fn dlto_gives_lto_ir_alone() {
    let p = create("__device__ float twice(float x) { return 2.0f * x; }");
    for opts in [&["-dlto", "-arch=sm_90"][..], &["-dlto", "-rdc=true", "-arch=compute_80"], &["--dlink-time-opt"]] {
        assert_eq!(compile(p, opts), NVRTC_SUCCESS, "{opts:?}: {}", log(p));
        assert_eq!(size(nvrtcGetPTXSize, p), 1, "{opts:?}");
        assert_eq!(size(nvrtcGetCUBINSize, p), 0, "{opts:?}");
        let n = size(nvrtcGetLTOIRSize, p);
        let mut ir = vec![0u8; n];
        assert_eq!(unsafe { nvrtcGetLTOIR(p, ir.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
        let text = CStr::from_bytes_with_nul(&ir).unwrap().to_str().unwrap();
        assert!(text.contains(".visible .func") && text.contains("_Z5twicef"), "{opts:?}: {text}");
    }
    // A plain compile afterwards has PTX again and no LTO-IR.
    assert_eq!(compile(p, &["-arch=compute_80"]), NVRTC_SUCCESS);
    assert!(size(nvrtcGetPTXSize, p) > 1);
    assert_eq!(size(nvrtcGetLTOIRSize, p), 0);
    destroy(p);
}

#[test]
fn compile_argument_checks_and_option_errors() {
    let p = create("__global__ void k(){}");
    assert_eq!(unsafe { nvrtcCompileProgram(null_mut(), 0, null()) }, NVRTC_ERROR_INVALID_PROGRAM);
    assert_eq!(unsafe { nvrtcCompileProgram(p, -1, null()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(unsafe { nvrtcCompileProgram(p, 1, null()) }, NVRTC_ERROR_INVALID_OPTION);
    let with_null: [*const c_char; 1] = [null()];
    assert_eq!(unsafe { nvrtcCompileProgram(p, 1, with_null.as_ptr()) }, NVRTC_ERROR_INVALID_OPTION);
    assert_eq!(log(p), "nvrtc: error: number of arguments supplied does not match number of arguments specified");
    for (opt, msg) in [
        (&["-arch=sm_1"][..], "nvrtc: error: invalid value for --gpu-architecture (-arch)\n"),
        (&["--std=c++99"][..], "nvrtc: error: invalid value for --std(-std)\n"),
        (&["-ftz"][..], "nvrtc: error: --ftz (-ftz) expects true or false\n"),
        (&["-rdc"][..], "nvrtc: error: --relocatable-device-code (-rdc) expects true or false\n"),
        (&["-maxrregcount=x"][..], "nvrtc: error: --maxrregcount (-maxrregcount) expects an integer value\n"),
        (&["-O3"][..], "nvrtc: error: unrecognized option -O3 found\n"),
    ] {
        assert_eq!(compile(p, opt), NVRTC_ERROR_INVALID_OPTION, "{opt:?}");
        assert_eq!(log(p), msg);
    }
    // -dlto implies -rdc=true and refuses -rdc=false (NVIDIA's NVRTC 13, measured on an
    // H200); OptiX-IR is refused clearly.
    assert_eq!(compile(p, &["-dlto", "-rdc=false"]), NVRTC_ERROR_INVALID_OPTION);
    assert_eq!(log(p), "nvrtc: error: -dlto is not compatible with -rdc=false\n");
    assert_eq!(compile(p, &["-optix-ir"]), NVRTC_ERROR_INVALID_OPTION);
    // Every option of NVRTC 13 is accepted (meaning or documented no-op).
    let accepted: &[&[&str]] = &[
        &["--gpu-architecture", "sm_80"],
        &["-arch=compute_90a"],
        &["-arch=sm_120"],
        &["-rdc=false"],
        &["-ewp"],
        &["-dopt=on"],
        &["-Xptxas", "-v"],
        &["--ptxas-options=-v"],
        &["-maxrregcount", "32"],
        &["--prec-sqrt=false"],
        &["-prec-div=true"],
        &["-fmad=false"],
        &["-use_fast_math"],
        &["--extra-device-vectorization"],
        &["--modify-stack-limit=false"],
        &["-jtd=50"],
        &["-D", "X=1"],
        &["-UX"],
        &["-I/tmp"],
        &["-no-source-include"],
        &["--std=c++03"],
        &["-std=c++11"],
        &["-std=c++14"],
        &["-std=c++20"],
        &["-builtin-move-forward=false"],
        &["-builtin-initializer-list=false"],
        &["--disable-warnings"],
        &["-restrict"],
        &["-default-device"],
        &["-device-int128"],
        &["-opt-info=inline"],
        &["-err-no"],
        &["-no-err-no"],
        &["--diag-error=177"],
        &["-diag-suppress=177,550"],
        &["-diag-warn", "177"],
        &["-brief-diag=true"],
        &["--split-compile=0"],
        &["-fdevice-syntax-only"],
        &["-minimal"],
        &["-device-stack-protector=true"],
        &["-pch"],
        &["-pch-dir=/tmp"],
        &["-pch-verbose=true"],
        &["-pch-messages=false"],
        &["-instantiate-templates-in-pch=false"],
        &["-lineinfo"],
        &["--generate-line-info"],
        &["--device-debug"],
        &["-G"],
        &["-dw"],
        &["-w"],
        &["--warp-size=64"],
    ];
    for opts in accepted {
        assert_eq!(compile(p, opts), NVRTC_SUCCESS, "{opts:?}: {}", log(p));
    }
    destroy(p);
}

#[test]
fn logs_use_nvidia_format() {
    let p = create("#include \"foo.h\"\n__global__ void k(){}");
    assert_eq!(compile(p, &[]), NVRTC_ERROR_COMPILATION);
    let l = log(p);
    assert!(l.starts_with("prog.cu(1): catastrophic error: cannot open source file \"foo.h\"\n  #include \"foo.h\"\n"), "{l}");
    assert!(l.ends_with("1 catastrophic error detected in the compilation of \"prog.cu\".\nCompilation terminated.\n"), "{l}");
    assert_eq!(size(nvrtcGetPTXSize, p), 1);
    destroy(p);
    let p = create("__global__ void k(){ int x = ; undefined_fn(); }\n");
    assert_eq!(compile(p, &[]), NVRTC_ERROR_COMPILATION);
    let l = log(p);
    assert!(l.starts_with("prog.cu(1): error: "), "{l}");
    assert!(l.ends_with("2 errors detected in the compilation of \"prog.cu\".\n"), "{l}");
    destroy(p);
    let p = create("#include <bar.h>\n");
    assert_eq!(compile(p, &[]), NVRTC_ERROR_COMPILATION);
    assert!(log(p).starts_with("prog.cu(1): catastrophic error: cannot open source file \"bar.h\""), "{}", log(p));
    destroy(p);
}

#[test]
fn pch_and_flow_callback_entry_points() {
    let mut heap = 0usize;
    assert_eq!(unsafe { nvrtcGetPCHHeapSize(&mut heap) }, NVRTC_SUCCESS);
    assert!(heap > 0);
    assert_eq!(unsafe { nvrtcGetPCHHeapSize(null_mut()) }, NVRTC_ERROR_INVALID_INPUT);
    assert_eq!(nvrtcSetPCHHeapSize(heap), NVRTC_SUCCESS);
    let p = create("__global__ void k(){}");
    assert_eq!(compile(p, &[]), NVRTC_SUCCESS);
    assert_eq!(nvrtcGetPCHCreateStatus(p), NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED);
    assert_eq!(nvrtcGetPCHCreateStatus(null_mut()), NVRTC_ERROR_INVALID_PROGRAM);
    assert_eq!(size(nvrtcGetPCHHeapSizeRequired, p), 0);
    assert_eq!(nvrtcSetFlowCallback(null_mut(), None, null_mut()), NVRTC_ERROR_INVALID_PROGRAM);
    assert_eq!(nvrtcSetFlowCallback(p, None, null_mut()), NVRTC_ERROR_INVALID_INPUT);
    unsafe extern "C" fn cancel(payload: *mut c_void, _: *mut c_void) -> c_int {
        unsafe { *(payload as *mut c_int) += 1 };
        1
    }
    let mut calls: c_int = 0;
    assert_eq!(nvrtcSetFlowCallback(p, Some(cancel), &mut calls as *mut c_int as *mut c_void), NVRTC_SUCCESS);
    assert_eq!(compile(p, &[]), NVRTC_ERROR_CANCELLED);
    assert_eq!(calls, 1);
    destroy(p);
}

#[test]
fn concurrent_compiles_are_independent() {
    let handles: Vec<_> = (0..8)
        .map(|i| {
            std::thread::spawn(move || {
                let src = format!("extern \"C\" __global__ void k{i}(int* p) {{ p[threadIdx.x] = {i} * (int)threadIdx.x + {i}; }}");
                let c = nvrtc(&src, &format!("t{i}.cu"), &[], &["-arch=compute_80"], &[]);
                assert_eq!(c.result, NVRTC_SUCCESS, "{}", c.log);
                assert!(c.ptx.contains(&format!(".entry k{i}(")));
                c.ptx
            })
        })
        .collect();
    let ptxs: Vec<String> = handles.into_iter().map(|h| h.join().unwrap()).collect();
    let gpu = Gpu::new();
    for (i, ptx) in ptxs.iter().enumerate() {
        let m = gpu.load(ptx.as_bytes());
        let b = gpu.alloc(&[0i32; 4]);
        let mut pb = b.ptr;
        gpu.launch(m.func(&format!("k{i}")), (1, 1, 1), (4, 1, 1), 0, &mut [arg(&mut pb)]);
        let i = i as i32;
        assert_eq!(gpu.read::<i32>(&b), vec![i, 2 * i, 3 * i, 4 * i]);
    }
}

#[test]
fn front_end_crashes_do_not_take_the_process_down() {
    for (marker, what) in
        [("__nvrtc_test_crash_segv__", "crashed"), ("__nvrtc_test_crash_fatal__", "fatal error: test"), ("__nvrtc_test_crash_abort__", "crashed")]
    {
        let p = create(&format!("// {marker}\n__global__ void k(){{}}"));
        assert_eq!(compile(p, &[]), NVRTC_ERROR_INTERNAL_ERROR);
        let l = log(p);
        assert!(l.contains("internal compiler error") && l.contains(what) && l.contains("the process is unaffected"), "{l}");
        destroy(p);
    }
    // And the next compile works.
    let p = create("__global__ void k(){}");
    assert_eq!(compile(p, &[]), NVRTC_SUCCESS);
    destroy(p);
}

#[test]
fn fuzzed_sources_and_options_never_crash() {
    let base = r#"#include <cuda_fp16.h>
        template <typename T, int N> __global__ void k(T* p, const T* __restrict__ q) {
            __shared__ T s[N];
            s[threadIdx.x % N] = q[threadIdx.x];
            __syncthreads();
            #pragma unroll 4
            for (int i = 0; i < N; ++i) p[i] += s[i] * (T)2 + __shfl_xor_sync(~0u, p[i], 1);
            asm volatile("membar.gl;" ::: "memory");
        }
        template __global__ void k<float, 32>(float*, const float*);
    "#;
    let option_pool = [
        "-arch=sm_80",
        "-arch=compute_75",
        "-G",
        "-use_fast_math",
        "-std=c++20",
        "-default-device",
        "-rdc=true",
        "-ftz=true",
        "-lineinfo",
        "--warp-size=64",
        "-DX=1",
        "-w",
        "-fmad=false",
    ];
    let mut state = 0x2545f4914f6cdd1du64;
    let mut next = move || {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        state
    };
    for round in 0..60 {
        let mut src = base.as_bytes().to_vec();
        let edits = (next() % 6) as usize;
        for _ in 0..edits {
            let pos = (next() as usize) % src.len();
            match next() % 4 {
                0 => src[pos] = (next() % 95 + 32) as u8,
                1 => {
                    src.remove(pos);
                }
                2 => src.insert(pos, b"{}()<>;#\"'\\"[(next() % 11) as usize]),
                _ => src.truncate(pos),
            }
        }
        let src: Vec<u8> = src.into_iter().filter(|&b| b != 0).collect();
        let src = String::from_utf8_lossy(&src).into_owned();
        let opts: Vec<&str> = option_pool.iter().copied().filter(|_| next() % 4 == 0).collect();
        let p = create(&src);
        let r = compile(p, &opts);
        assert!(
            [NVRTC_SUCCESS, NVRTC_ERROR_COMPILATION, NVRTC_ERROR_INVALID_OPTION].contains(&r),
            "round {round}: result {r} for {opts:?}:\n{src}\n{}",
            log(p)
        );
        destroy(p);
    }
}
