//! The panic firewall of the libraries' C exports.
//!
//! Each library's statuses are plain `int`s (`cublasStatus_t`, `curandStatus_t`,
//! `cufftResult`); an export's body returns `Result<(), Status>` and [`guard`] turns a
//! panic into the library's internal-error status plus one line on stderr.

use std::panic::{catch_unwind, AssertUnwindSafe};

/// Runs an export's body; `Ok` is `success`, a panic is `internal_error`.
pub fn guard<S: Copy>(library: &str, name: &str, success: S, internal_error: S, body: impl FnOnce() -> Result<(), S>) -> S {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => success,
        Ok(Err(status)) => status,
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".to_string());
            eprintln!("[{library}] internal error in {name}: {message}");
            // A payload's destructor could panic in turn; leak it instead.
            std::mem::forget(payload);
            internal_error
        }
    }
}
