//! The exported runtime API, grouped by the C name's family. Each file's entry points are
//! thin: convert the arguments, call the driver through `runtime`/`registry`, map errors.

mod array;
mod config;
mod device;
mod device_extras;
mod entry_point;
mod error;
mod event;
mod extsem;
mod func;
mod func_extras;
mod graph;
mod graph_copies;
mod graph_nodes;
mod graphics;
mod ipc;
mod launch;
mod library;
mod memcpy;
mod memcpy3d;
mod memory;
mod mempool;
mod peer;
mod register;
mod stream;
mod stream_ops;
mod symbol;
mod texture;

use std::ffi::c_void;

use crate::boundary::RtResult;
use crate::driver::{Api, CUstream, CU_STREAM_PER_THREAD};
use crate::runtime::runtime;

/// The driver, with the current device's primary context current (made current first,
/// as the runtime does before any call that needs a context).
pub(crate) fn api() -> RtResult<&'static Api> {
    let rt = runtime()?;
    rt.context()?;
    Ok(rt.api())
}

/// A runtime stream argument as the driver takes it. `cudaStreamLegacy` (1) and
/// `cudaStreamPerThread` (2) are the driver's own special handles; NULL is the legacy
/// default stream, or the per-thread one in the `_ptsz`/`_ptds` entry points.
pub(crate) fn stream(s: *mut c_void, per_thread: bool) -> CUstream {
    if s.is_null() && per_thread {
        CU_STREAM_PER_THREAD
    } else {
        s
    }
}
