//! Host work in stream order.
//!
//! A library call is queued on its handle's stream with `cuLaunchHostFunc`, so it runs
//! after the kernels and copies queued before it and before those queued after it, on
//! the stream's driver thread. Calls whose results the host reads at once (a dot
//! product into host memory) wait with [`synchronize`]. The work runs with the
//! caller's context current (pushed on the driver thread for its duration), so what it
//! asks the driver (the allocation behind a pointer read from a pointer array) is
//! answered as it would be on the calling thread.

use std::ffi::c_void;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::driver::{driver, CUresult, CUstream, CUDA_ERROR_NOT_INITIALIZED};

/// The boxed work behind a `cuLaunchHostFunc` user-data pointer.
struct Work {
    /// The caller's current context (NULL: none).
    context: usize,
    library: &'static str,
    name: &'static str,
    run: Box<dyn FnOnce() + Send>,
}

unsafe extern "C" fn run_work(user_data: *mut c_void) {
    // SAFETY: `enqueue` leaked exactly this box for exactly one call.
    let work = unsafe { Box::from_raw(user_data.cast::<Work>()) };
    let Work { context, library, name, run } = *work;
    let lib = driver().ok();
    // SAFETY: the context was current on the caller's thread when the work was queued.
    let pushed = context != 0 && lib.is_some_and(|l| unsafe { (l.ctx_push_current)(context as *mut c_void) } == 0);
    // The driver thread must survive a panic in library code: report it and go on.
    if catch_unwind(AssertUnwindSafe(run)).is_err() {
        eprintln!("[{library}] internal error in {name} (queued work panicked); its outputs are undefined");
    }
    if let (true, Some(l)) = (pushed, lib) {
        let mut popped = std::ptr::null_mut();
        // SAFETY: pops what was pushed above, on the same thread.
        unsafe { (l.ctx_pop_current)(&mut popped) };
    }
}

/// Queues `run` on `stream`. `Err` is the driver's code (for example an invalid
/// stream, or no current context); then nothing was queued.
#[allow(clippy::not_unsafe_ptr_arg_deref, reason = "the stream is an opaque handle, validated by the driver")]
pub fn enqueue(stream: CUstream, library: &'static str, name: &'static str, run: impl FnOnce() + Send + 'static) -> Result<(), CUresult> {
    let lib = driver().map_err(|_| CUDA_ERROR_NOT_INITIALIZED)?;
    let mut context = std::ptr::null_mut();
    // SAFETY: a valid out-pointer; with no current context it stays NULL.
    unsafe { (lib.ctx_get_current)(&mut context) };
    let work = Box::into_raw(Box::new(Work { context: context as usize, library, name, run: Box::new(run) }));
    // SAFETY: `run_work` takes back the box exactly once, when the driver runs it.
    let status = unsafe { (lib.launch_host_func)(stream, run_work, work.cast()) };
    if status != 0 {
        // SAFETY: the driver refused the call, so it will never run `run_work`.
        drop(unsafe { Box::from_raw(work) });
        return Err(status);
    }
    Ok(())
}

/// Waits until everything queued on `stream` has run.
#[allow(clippy::not_unsafe_ptr_arg_deref, reason = "the stream is an opaque handle, validated by the driver")]
pub fn synchronize(stream: CUstream) -> Result<(), CUresult> {
    let lib = driver().map_err(|_| CUDA_ERROR_NOT_INITIALIZED)?;
    // SAFETY: a plain driver call on the caller's stream handle.
    match unsafe { (lib.stream_synchronize)(stream) } {
        0 => Ok(()),
        e => Err(e),
    }
}
