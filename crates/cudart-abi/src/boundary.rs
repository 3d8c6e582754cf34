//! The C boundary: the panic firewall, the thread's last error, and the `export!` macro.
//!
//! Every `cudaError_t` entry point is written with [`export!`]: its body returns
//! [`RtResult`] and runs inside [`guard`], which turns `Ok` into `cudaSuccess`, an error
//! into its code (recorded as the thread's last error, as NVIDIA's runtime records every
//! failing call's error for `cudaGetLastError`), and a panic into `cudaErrorUnknown` plus
//! one line on stderr. No panic unwinds into C.

use std::cell::Cell;
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

use crate::error::CudaError;

/// What an entry point body returns.
pub type RtResult<T = ()> = Result<T, CudaError>;

thread_local! {
    static LAST_ERROR: Cell<CudaError> = const { Cell::new(CudaError::SUCCESS) };
}

/// One line on stderr, prefixed like the driver's.
pub fn log(message: &str) {
    // Writing to stderr can fail (closed descriptor); nothing more to do then.
    let _ = writeln!(std::io::stderr(), "[libcudart] {message}");
}

/// Records a failed call's error as the thread's last error. `cudaErrorNotReady` (a query's
/// "still running") is not an error and is not recorded.
pub fn record(err: CudaError) {
    if err != CudaError::SUCCESS && err != CudaError::NOT_READY {
        LAST_ERROR.with(|e| e.set(err));
    }
}

/// `cudaGetLastError`: the last error, reset to `cudaSuccess`.
pub fn take_last_error() -> CudaError {
    LAST_ERROR.with(|e| e.replace(CudaError::SUCCESS))
}

/// `cudaPeekAtLastError`: the last error, left in place.
pub fn peek_last_error() -> CudaError {
    LAST_ERROR.with(|e| e.get())
}

/// Runs an entry point body that returns a value other than `cudaError_t` (registration
/// calls, error strings): a panic gives `fallback` and a log line.
pub fn firewall<T>(name: &str, fallback: T, body: impl FnOnce() -> T) -> T {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(value) => value,
        Err(payload) => {
            report_panic(name, payload);
            fallback
        }
    }
}

/// Runs an entry point body: maps its result to a `cudaError_t`, records errors, and stops
/// any panic at the boundary.
pub fn guard(name: &str, body: impl FnOnce() -> RtResult) -> CudaError {
    let err = match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CudaError::SUCCESS,
        Ok(Err(err)) => err,
        Err(payload) => {
            report_panic(name, payload);
            CudaError::UNKNOWN
        }
    };
    record(err);
    err
}

fn report_panic(name: &str, payload: Box<dyn std::any::Any + Send>) {
    let message = payload
        .downcast_ref::<&str>()
        .map(|s| s.to_string())
        .or_else(|| payload.downcast_ref::<String>().cloned())
        .unwrap_or_else(|| "non-string panic payload".to_string());
    log(&format!("internal error in {name}: {message}; returning cudaErrorUnknown"));
    // A panic payload's destructor could itself panic; leak it instead.
    std::mem::forget(payload);
}

/// Defines exported `cudaError_t` entry points. Each `fn cudaName(arg: Type, ...) { body }`
/// becomes `#[no_mangle] pub unsafe extern "C" fn cudaName(...) -> cudaError_t` whose body
/// runs inside [`guard`] and returns [`RtResult`].
macro_rules! export {
    ($(
        $(#[doc = $doc:literal])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Pointer arguments must be NULL or valid as the CUDA runtime API documents for this
        /// entry point.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $crate::error::CudaError {
            $crate::boundary::guard(stringify!($name), move || -> $crate::boundary::RtResult { $body })
        }
    )*};
}
pub(crate) use export;

/// A checked, non-NULL out-pointer: NULL -> `cudaErrorInvalidValue`. Written only after
/// the work succeeded.
pub struct Out<T>(*mut T);

impl<T> Out<T> {
    /// # Safety
    /// A non-NULL `ptr` must be valid for writing one `T` until [`Out::write`].
    pub unsafe fn new(ptr: *mut T) -> RtResult<Self> {
        if ptr.is_null() {
            Err(CudaError::INVALID_VALUE)
        } else {
            Ok(Out(ptr))
        }
    }

    pub fn write(self, value: T) {
        // SAFETY: non-NULL and writable per `new`'s contract; C promises no alignment for
        // client structs, so write unaligned.
        unsafe { self.0.write_unaligned(value) }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn last_error_is_recorded_read_and_reset() {
        assert_eq!(take_last_error(), CudaError::SUCCESS);
        assert_eq!(guard("t", || Err(CudaError::INVALID_VALUE)), CudaError::INVALID_VALUE);
        assert_eq!(guard("t", || Ok(())), CudaError::SUCCESS);
        assert_eq!(peek_last_error(), CudaError::INVALID_VALUE, "a success does not clear it");
        assert_eq!(take_last_error(), CudaError::INVALID_VALUE);
        assert_eq!(take_last_error(), CudaError::SUCCESS);
        assert_eq!(guard("t", || Err(CudaError::NOT_READY)), CudaError::NOT_READY);
        assert_eq!(take_last_error(), CudaError::SUCCESS, "not-ready is not an error");
    }

    #[test]
    fn panics_stop_at_the_boundary() {
        assert_eq!(guard("t", || panic!("boom")), CudaError::UNKNOWN);
        assert_eq!(take_last_error(), CudaError::UNKNOWN);
        assert_eq!(firewall("t", 7, || panic!("boom")), 7);
    }
}
