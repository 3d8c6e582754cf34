//! Fuzz target: arbitrary bytes as a kernel image (fatbin wrapper or container, ELF, PTX
//! text) through `cuModuleLoadData` and `cuLibraryLoadData`, which get no size. Every
//! answer must be a documented code, and nothing may crash (see common.rs: the input is
//! followed by an unmapped page).
#![no_main]

#[path = "common.rs"]
mod common;

use cuda::exports::library::{cuLibraryGetKernelCount, cuLibraryLoadData, cuLibraryUnload};
use cuda::exports::module::{cuModuleLoadData, cuModuleUnload};
use cuda::types::CUresult;
use libfuzzer_sys::fuzz_target;
use std::ptr::null_mut;

fuzz_target!(|data: &[u8]| {
    common::init();
    let image = common::Guarded::new(data);
    // SAFETY (all calls): valid out-pointers; the image is readable up to its NUL.
    unsafe {
        let mut module = null_mut();
        let rc = cuModuleLoadData(&mut module, image.ptr());
        common::check_code(rc, "cuModuleLoadData");
        if rc == CUresult::SUCCESS {
            common::check_code(cuModuleUnload(module), "cuModuleUnload");
        }
        let mut library = null_mut();
        let rc = cuLibraryLoadData(&mut library, image.ptr(), null_mut(), null_mut(), 0, null_mut(), null_mut(), 0);
        common::check_code(rc, "cuLibraryLoadData");
        if rc == CUresult::SUCCESS {
            let mut count = 0;
            common::check_code(cuLibraryGetKernelCount(&mut count, library), "cuLibraryGetKernelCount");
            common::check_code(cuLibraryUnload(library), "cuLibraryUnload");
        }
    }
});
