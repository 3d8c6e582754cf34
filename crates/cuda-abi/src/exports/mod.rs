//! The implemented driver API entry points, one file per family of C names.
//!
//! Each entry point is written with `export!` (see `boundary.rs`) and follows one shape:
//! check and convert the raw arguments (NULL required pointers ->
//! `CUDA_ERROR_INVALID_VALUE`, before any side effect), call one `cuda_driver::Driver`
//! method, write the outputs. Variants that differ only in ABI (`_v2`, `_ptds`, `_ptsz`)
//! call the same driver method: work runs synchronously, so the per-thread and legacy
//! default streams behave alike.
//!
//! `build.rs` finds every `fn cuXxx(` here and points the `cuGetProcAddress` table at it
//! instead of a generated stub, so adding an entry point is: write it here, and add its
//! ABI variant to `data/extra-variants.txt` if cudart's request lists lack it.

pub mod context;
pub mod device;
pub mod error;
pub mod event;
pub mod init;
mod jit;
pub mod launch;
pub mod library;
pub mod memcpy;
pub mod memory;
pub mod module;
pub mod profiler;
pub mod stream;

use cuda_driver::{CtxHandle, CuResult, Driver, EventHandle, FunctionHandle, KernelHandle, LibraryHandle, ModuleHandle, StreamHandle};

use crate::types::{CUcontext, CUevent, CUfunction, CUkernel, CUlibrary, CUmodule, CUstream};

/// The initialized driver (`CUDA_ERROR_NOT_INITIALIZED` before `cuInit`).
pub(crate) fn drv() -> CuResult<&'static Driver> {
    cuda_driver::driver()
}

// Handle conversions: the driver checks every handle (type tag, generation) itself, so
// these are plain reinterpretations of the pointer value.

pub(crate) fn ctx_handle(c: CUcontext) -> CtxHandle {
    CtxHandle::from_raw(c.cast())
}

pub(crate) fn ctx_raw(c: CtxHandle) -> CUcontext {
    c.as_raw().cast()
}

pub(crate) fn stream_handle(s: CUstream) -> StreamHandle {
    StreamHandle::from_raw(s.cast())
}

pub(crate) fn event_handle(e: CUevent) -> EventHandle {
    EventHandle::from_raw(e.cast())
}

pub(crate) fn module_handle(m: CUmodule) -> ModuleHandle {
    ModuleHandle::from_raw(m.cast())
}

pub(crate) fn function_handle(f: CUfunction) -> FunctionHandle {
    FunctionHandle::from_raw(f.cast())
}

pub(crate) fn library_handle(l: CUlibrary) -> LibraryHandle {
    LibraryHandle::from_raw(l.cast())
}

pub(crate) fn kernel_handle(k: CUkernel) -> KernelHandle {
    KernelHandle::from_raw(k.cast())
}

#[cfg(test)]
#[path = "../tests/exports.rs"]
mod tests;
