//! Declarations of the C++ shim (shim/frontend.cpp); the layouts mirror its structs.

use inkwell::llvm_sys::prelude::{LLVMContextRef, LLVMModuleRef};
use std::os::raw::{c_char, c_int, c_uint, c_void};

#[repr(C)]
pub struct CfVfile {
    pub path: *const c_char,
    pub data: *const c_char,
    pub len: usize,
}

pub type CfDiagFn = unsafe extern "C" fn(
    user: *mut c_void,
    level: c_int,
    kind: c_int,
    file: *const c_char,
    line: c_uint,
    col: c_uint,
    msg: *const c_char,
    line_text: *const c_char,
    line_len: usize,
    arg: *const c_char,
);

#[repr(C)]
pub struct CfRequest {
    pub argv: *const *const c_char,
    pub argc: c_int,
    pub main_path: *const c_char,
    pub cwd: *const c_char,
    pub files: *const CfVfile,
    pub nfiles: c_int,
    pub diag: CfDiagFn,
    pub user: *mut c_void,
    pub ctx: LLVMContextRef,
    pub lanemask_check: c_int,
    pub default_device: c_int,
    pub syntax_only: c_int,
    pub stack_size: c_uint,
    pub build_pch: c_int,
    pub test_crash: c_int,
    pub warp_size: c_int,
    /// Our headers: the same static list on every call (the shim builds their file
    /// system once and shares it between compiles).
    pub builtin_files: *const CfVfile,
    pub nbuiltin: c_int,
    /// The precompiled prelude, or null; its bytes live as long as the process.
    pub pch_file: *const CfVfile,
}

pub const CF_OK: c_int = 0;
#[allow(dead_code)]
pub const CF_ERRORS: c_int = 1;
pub const CF_BAD_ARGS: c_int = 2;
pub const CF_CRASH: c_int = 3;

pub const CF_NOTE: c_int = 1;
pub const CF_REMARK: c_int = 2;
pub const CF_WARNING: c_int = 3;
pub const CF_ERROR: c_int = 4;

pub const CF_KIND_FILE_NOT_FOUND: c_int = 1;
pub const CF_KIND_LANEMASK: c_int = 2;
pub const CF_KIND_LANEMASK_PTX: c_int = 3;

extern "C" {
    pub fn cf_init();
    pub fn cf_compile(
        req: *const CfRequest,
        out: *mut LLVMModuleRef,
        crash_msg: *mut *mut c_char,
        pch_data: *mut *mut c_char,
        pch_len: *mut usize,
    ) -> c_int;
    pub fn cf_run_safely(f: unsafe extern "C" fn(*mut c_void), data: *mut c_void, stack_size: c_uint, crash_msg: *mut *mut c_char) -> c_int;
    pub fn cf_free(p: *mut c_char);
}
