//! NVRTC in a forked child (its own test binary: no other test thread may hold a lock
//! when the process forks).

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code")]

use nvrtc::*;
use std::ffi::{c_char, c_int, CString};
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

fn destroy(mut p: NvrtcProgram) {
    assert_eq!(unsafe { nvrtcDestroyProgram(&mut p) }, NVRTC_SUCCESS);
}

#[test]
fn compiles_work_in_a_forked_child() {
    // A process that compiled, then forked (Python multiprocessing does): the child has
    // none of the parent's compile workers and must still compile.
    let p = create("__global__ void k(){}");
    assert_eq!(compile(p, &[]), NVRTC_SUCCESS);
    destroy(p);
    // SAFETY: fork in a test; the child only compiles and exits.
    let pid = unsafe { libc::fork() };
    if pid == 0 {
        let p = create("__global__ void k2(int* x){ *x = 1; }");
        let ok = compile(p, &[]) == NVRTC_SUCCESS;
        unsafe { libc::_exit(if ok { 0 } else { 1 }) };
    }
    let mut status = 0;
    unsafe { libc::waitpid(pid, &mut status, 0) };
    assert!(libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0, "child status {status}");
}
