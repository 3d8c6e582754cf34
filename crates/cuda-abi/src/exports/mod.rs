//! The implemented driver API entry points, one file per family of C names.
//!
//! Each entry point is written with `export!` (see `boundary.rs`) and follows one shape:
//! check and convert the raw arguments (NULL required pointers ->
//! `CUDA_ERROR_INVALID_VALUE`, before any side effect), call one `cuda_driver::Driver`
//! method, write the outputs. Variants that differ only in ABI (`_v2`, `_ptds`, `_ptsz`)
//! call the same driver method; the per-thread-default-stream twins pass
//! `CU_STREAM_PER_THREAD` where the plain call means the legacy default stream: a NULL
//! stream in `_ptsz` calls ([`stream_ptsz`]), the implied stream of blocking `_ptds` calls.
//!
//! `build.rs` finds every `fn cuXxx(` here and points the `cuGetProcAddress` table at it
//! instead of a generated stub, so adding an entry point is: write it here, and add its
//! ABI variant to `data/extra-variants.txt` if cudart's request lists lack it.

pub mod context;
pub mod device;
pub mod device_misc;
pub mod egl;
pub mod error;
pub mod event;
pub mod external;
pub mod extsem;
pub mod gl;
pub mod graph;
pub mod graph_memory;
pub mod graph_nodes;
mod graph_params;
pub mod green;
pub mod init;
pub mod ipc;
mod jit;
pub mod launch;
pub mod legacy_abi;
pub mod legacy_launch;
pub mod library;
pub mod link;
pub mod logs;
pub mod memcpy;
pub mod memcpy_batch;
pub mod memory;
pub mod mempool;
pub mod module;
pub mod profiler;
pub mod stream;
pub mod stream_ops;
pub mod texref;
pub mod texture;
pub mod user_object;
pub mod vmm;

use cuda_driver::{CtxHandle, CuResult, Driver, EventHandle, FunctionHandle, KernelHandle, LibraryHandle, LinkHandle, ModuleHandle, StreamHandle};

use crate::types::{CUcontext, CUevent, CUfunction, CUkernel, CUlibrary, CUlinkState, CUmodule, CUstream};

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

/// The stream of a `_ptsz` call: NULL means the calling thread's per-thread default stream.
pub(crate) fn stream_ptsz(s: CUstream) -> StreamHandle {
    match stream_handle(s) {
        h if h.is_null() => StreamHandle::PER_THREAD,
        h => h,
    }
}

/// Raw pointers and C function pointers captured by work that runs on a driver thread:
/// the API contract makes them usable from any thread.
pub(crate) struct SendBox<T>(pub T);
// SAFETY: see the type's docs.
unsafe impl<T> Send for SendBox<T> {}

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

pub(crate) fn link_handle(l: CUlinkState) -> LinkHandle {
    LinkHandle::from_raw(l.cast())
}

#[cfg(test)]
#[path = "../tests/exports.rs"]
mod tests;
