//! Diagnostics for people running programs: `[libcuda] ...` lines on stderr.
//!
//! Off by default. Set `LIBCUDA_LOG=1` (any value but empty or `0`) to see why calls
//! fail: a bad handle, an out-of-range copy, a kernel fault, a PTX compile error. The
//! variable is read once, at the first message.
//!
//! The same lines go to the error log of `cuLogs*` ([`crate::logs`]): failures always,
//! the other lines while `LIBCUDA_LOG` is set.

use std::sync::OnceLock;

/// Whether `LIBCUDA_LOG` asks for diagnostics.
pub fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| match std::env::var_os("LIBCUDA_LOG") {
        Some(v) => !v.is_empty() && v != "0",
        None => false,
    })
}

/// Prints one diagnostic line; used through [`diag!`](crate::diag!).
#[doc(hidden)]
pub fn emit(args: std::fmt::Arguments<'_>) {
    if enabled() {
        eprintln!("[libcuda] {args}");
        crate::logs::record(crate::logs::LEVEL_WARNING, args);
    }
}

/// `diag!("format", args...)`: print `[libcuda] <message>` to stderr when `LIBCUDA_LOG`
/// is set. Arguments are not evaluated when logging is off.
#[macro_export]
macro_rules! diag {
    ($($arg:tt)*) => {
        if $crate::diag::enabled() {
            $crate::diag::emit(format_args!($($arg)*));
        }
    };
}

/// Logs `why` and returns `err`, for `return Err(fail(CuError::X, ...))` one-liners.
pub fn fail(err: crate::CuError, why: std::fmt::Arguments<'_>) -> crate::CuError {
    if enabled() {
        eprintln!("[libcuda] {why} -> {err:?}");
    }
    crate::logs::record(crate::logs::LEVEL_ERROR, format_args!("{why} -> {err:?}"));
    err
}
