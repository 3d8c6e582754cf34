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

/// Defines a library's C exports. The header names the library and its status type:
///
/// ```ignore
/// c_exports! {
///     { lib: crate::LIB, status: Status, result: BlasResult, ok: SUCCESS, panic: INTERNAL_ERROR }
///     /// docs
///     fn cublasFoo(h: Handle, n: c_int) { body returning BlasResult }
/// }
/// ```
///
/// Each `fn` becomes `#[no_mangle] pub unsafe extern "C" fn` returning the status, its
/// body run by [`guard`] (a panic becomes `panic`'s status and one line on stderr).
#[macro_export]
macro_rules! c_exports {
    ({ lib: $lib:expr, status: $status:ty, result: $result:ty, ok: $ok:expr, panic: $panic:expr $(,)? }
     $(
        $(#[doc = $doc:literal])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Pointer arguments must be valid as the library's documentation says for this
        /// function.
        #[no_mangle]
        #[allow(clippy::too_many_arguments, reason = "the C signature")]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $status {
            $crate::boundary::guard($lib, stringify!($name), $ok, $panic, move || -> $result { $body })
        }
    )*};
}

/// One export per element type: `[cublasSfoo: f32, cublasDfoo: f64] fn(args) { body }`,
/// where the arguments and body name the element type `T` (and whatever `extra` items
/// define, e.g. its real type). Each export lives in a module of its own name, where
/// `T` is its type and `NAME` its C name; the export itself is made by `$export!` (a parenthesized
/// path), the library's own `c_exports!` wrapper.
#[macro_export]
macro_rules! typed_c_exports {
    ($export:tt, $extra:tt [$($name:ident: $t:ty),* $(,)?] fn $params:tt $body:block) => {$(
        $crate::typed_c_export! { $export, $extra, $name, $t, $params, $body }
    )*};
}

/// One export of `typed_c_exports!`.
#[doc(hidden)]
#[macro_export]
macro_rules! typed_c_export {
    (($($export:ident)::+), $extra:tt, $name:ident, $t:ty, $params:tt, $body:block) => {
        #[allow(non_snake_case)]
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// This export's element type.
            pub type T = $t;
            /// This export's C name, for log lines.
            pub const NAME: &str = stringify!($name);
            $crate::items! $extra
            $($export)::+! {
                fn $name $params $body
            }
        }
    };
}

/// Emits the items of a braced group (`typed_c_exports!`'s `extra`).
#[doc(hidden)]
#[macro_export]
macro_rules! items {
    ($($item:item)*) => { $($item)* };
}
