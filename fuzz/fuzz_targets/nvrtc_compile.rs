//! Fuzz target: NVRTC with arbitrary sources and options. The first line of the input is
//! the options (split at spaces, at most 16), the rest the source. Create, compile, read
//! the log and the PTX, destroy: every answer must be an `nvrtcResult` NVRTC documents
//! (0 to 13), and nothing may crash. Options naming paths are dropped (`-include` and
//! `--pch-dir` would read or write them).
#![no_main]

use libfuzzer_sys::fuzz_target;
use nvrtc::{nvrtcCompileProgram, nvrtcCreateProgram, nvrtcDestroyProgram, nvrtcGetPTX, nvrtcGetPTXSize, nvrtcGetProgramLog, nvrtcGetProgramLogSize};
use std::ffi::{c_char, CString};
use std::ptr::null;

fn check(rc: i32, call: &str) {
    assert!((0..=13).contains(&rc), "{call} answered {rc}, which is no documented nvrtcResult");
}

fuzz_target!(|data: &[u8]| {
    let text = String::from_utf8_lossy(data).replace('\0', " ");
    let (first, source) = text.split_once('\n').unwrap_or(("", &text));
    let options: Vec<CString> = first
        .split(' ')
        .filter(|o| !o.is_empty() && !o.contains('/') && !o.contains("pch"))
        .take(16)
        .map(|o| CString::new(o).unwrap())
        .collect();
    let pointers: Vec<*const c_char> = options.iter().map(|o| o.as_ptr()).collect();
    let source = CString::new(source).unwrap();
    // SAFETY (all calls): NUL-terminated strings, arrays of the counts given, buffers of the
    // sizes NVRTC reported.
    unsafe {
        let mut prog = std::ptr::null_mut();
        let rc = nvrtcCreateProgram(&mut prog, source.as_ptr(), c"fuzz.cu".as_ptr(), 0, null(), null());
        check(rc, "nvrtcCreateProgram");
        if rc != 0 {
            return;
        }
        check(nvrtcCompileProgram(prog, pointers.len() as i32, pointers.as_ptr()), "nvrtcCompileProgram");
        let mut size = 0usize;
        if nvrtcGetProgramLogSize(prog, &mut size) == 0 {
            let mut log = vec![0u8; size.max(1)];
            check(nvrtcGetProgramLog(prog, log.as_mut_ptr().cast()), "nvrtcGetProgramLog");
        }
        if nvrtcGetPTXSize(prog, &mut size) == 0 {
            let mut ptx = vec![0u8; size.max(1)];
            check(nvrtcGetPTX(prog, ptx.as_mut_ptr().cast()), "nvrtcGetPTX");
        }
        check(nvrtcDestroyProgram(&mut prog), "nvrtcDestroyProgram");
    }
});
