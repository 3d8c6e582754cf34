//! The C boundary: argument conversion, error mapping, and the panic firewall.
//!
//! Every exported entry point is written with [`export!`]: its body is a closure that
//! returns [`AbiResult`], run by [`guard`], which turns `Ok` into `CUDA_SUCCESS`, an
//! error into its code, and a panic into `CUDA_ERROR_UNKNOWN` plus one line on stderr.
//! No panic ever unwinds into C.
//!
//! Raw arguments are converted once, at the top of the body, with the helpers here: a
//! NULL out-pointer or a NULL required input becomes `CUDA_ERROR_INVALID_VALUE` before
//! any work is done (so a failed call has no side effect), and outputs are written only
//! after the driver call succeeded.

use std::ffi::{c_char, CStr};
use std::io::Write as _;
use std::panic::{catch_unwind, AssertUnwindSafe};

use cuda_driver::{CuError, CuResult};

use crate::types::CUresult;

/// What an entry point body returns: the driver's error type is the ABI's error type
/// (a non-zero `CUresult`), so `?` works on driver calls and argument checks alike.
pub type AbiResult<T = ()> = CuResult<T>;

/// Runs an entry point body: maps its result to a `CUresult` and stops any panic at
/// the boundary. `name` is only used for the log line.
pub fn guard(name: &str, body: impl FnOnce() -> AbiResult) -> CUresult {
    match catch_unwind(AssertUnwindSafe(body)) {
        Ok(Ok(())) => CUresult::SUCCESS,
        Ok(Err(err)) => {
            // The error log's closing line of a failed call (`cuLogs*`, as NVIDIA's driver
            // writes it); `CUDA_ERROR_NOT_READY` is an answer, not a failure.
            if err != CuError::NOT_READY {
                let code = err.code();
                let error_name = cuda_driver::error::name(code).and_then(|n| n.to_str().ok()).unwrap_or("CUDA_ERROR_UNKNOWN");
                cuda_driver::logs::record(cuda_driver::logs::LEVEL_ERROR, format_args!("Returning {code} ({error_name}) from {name}"));
            }
            CUresult(err.code())
        }
        Err(payload) => {
            let message = payload
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| payload.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "non-string panic payload".to_string());
            // Writing to stderr can fail (closed descriptor); nothing more to do then.
            let _ = writeln!(std::io::stderr(), "[libcuda] internal error in {name}: {message}; returning CUDA_ERROR_UNKNOWN");
            // A panic payload's destructor could itself panic; leak it instead.
            std::mem::forget(payload);
            CUresult::ERROR_UNKNOWN
        }
    }
}

/// Defines exported entry points. Each
/// `fn cuName(arg: Type, ...) { body }` becomes
/// `#[no_mangle] pub unsafe extern "C" fn cuName(...) -> CUresult` whose body runs
/// inside [`guard`] and returns [`AbiResult`].
macro_rules! export {
    ($(
        $(#[doc = $doc:literal])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Pointer arguments must be NULL or valid as the CUDA driver API documents for
        /// this entry point.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $crate::types::CUresult {
            $crate::boundary::guard(stringify!($name), move || -> $crate::boundary::AbiResult { $body })
        }
    )*};
}
pub(crate) use export;

/// A checked, non-NULL out-pointer. Created before the work, written after it.
pub struct Out<T>(*mut T);

impl<T> Out<T> {
    /// NULL -> `CUDA_ERROR_INVALID_VALUE`.
    ///
    /// # Safety
    /// A non-NULL `ptr` must be valid for writing one `T` until [`Out::write`].
    pub unsafe fn new(ptr: *mut T) -> AbiResult<Self> {
        if ptr.is_null() {
            Err(CuError::INVALID_VALUE)
        } else {
            Ok(Out(ptr))
        }
    }

    /// Like [`Out::new`] but NULL means "not wanted".
    ///
    /// # Safety
    /// As for [`Out::new`].
    pub unsafe fn optional(ptr: *mut T) -> Option<Self> {
        (!ptr.is_null()).then_some(Out(ptr))
    }

    pub fn write(self, value: T) {
        // SAFETY: non-NULL, and the caller of `new` promised it is writable. C does not
        // promise Rust's alignment for every type (packed client structs), so write
        // unaligned.
        unsafe { self.0.write_unaligned(value) }
    }

    pub fn as_ptr(&self) -> *mut T {
        self.0
    }
}

/// A required input pointer: NULL -> `CUDA_ERROR_INVALID_VALUE`, else a copy of `*ptr`.
///
/// # Safety
/// A non-NULL `ptr` must be valid for reading one `T`.
pub unsafe fn read_in<T: Copy>(ptr: *const T) -> AbiResult<T> {
    if ptr.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: non-NULL and readable per the caller's contract.
    Ok(unsafe { ptr.read_unaligned() })
}

/// A required NUL-terminated string: NULL -> `CUDA_ERROR_INVALID_VALUE`.
///
/// # Safety
/// A non-NULL `ptr` must point to a NUL-terminated string that outlives `'a`.
pub unsafe fn c_str<'a>(ptr: *const c_char) -> AbiResult<&'a CStr> {
    if ptr.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: non-NULL and NUL-terminated per the caller's contract.
    Ok(unsafe { CStr::from_ptr(ptr) })
}

/// A required NUL-terminated UTF-8 string (symbol names, paths). NULL ->
/// `CUDA_ERROR_INVALID_VALUE`; invalid UTF-8 -> `not_utf8`.
///
/// # Safety
/// As for [`c_str`].
pub unsafe fn utf8<'a>(ptr: *const c_char, not_utf8: CuError) -> AbiResult<&'a str> {
    // SAFETY: forwarded contract.
    let s = unsafe { c_str(ptr) }?;
    s.to_str().map_err(|_| not_utf8)
}

/// A required input array of `len` elements; NULL is allowed only when `len == 0`.
///
/// # Safety
/// A non-NULL `ptr` must be valid for reading `len` elements that outlive `'a`.
pub unsafe fn slice<'a, T>(ptr: *const T, len: usize) -> AbiResult<&'a [T]> {
    if len == 0 {
        return Ok(&[]);
    }
    if ptr.is_null() {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: non-NULL and readable for `len` elements per the caller's contract.
    Ok(unsafe { std::slice::from_raw_parts(ptr, len) })
}

/// Copies `text` into a C buffer of `len` bytes as a NUL-terminated string, truncating
/// if needed (`cuDeviceGetName`, JIT log buffers). Returns the bytes written, NUL
/// included.
///
/// # Safety
/// `buf` must be valid for writing `len` bytes.
pub unsafe fn write_c_string(buf: *mut c_char, len: usize, text: &str) -> usize {
    if len == 0 || buf.is_null() {
        return 0;
    }
    let n = text.len().min(len - 1);
    // SAFETY: `n + 1 <= len` bytes, writable per the caller's contract; the source is a
    // Rust string that cannot overlap a C buffer handed to us.
    unsafe {
        std::ptr::copy_nonoverlapping(text.as_ptr(), buf.cast::<u8>(), n);
        buf.add(n).write(0);
    }
    n + 1
}

/// Logs one line to stderr, prefixed like every message of this library.
pub fn log(message: std::fmt::Arguments<'_>) {
    let _ = writeln!(std::io::stderr(), "[libcuda] {message}");
    cuda_driver::logs::record(cuda_driver::logs::LEVEL_WARNING, message);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn guard_maps_results_and_panics() {
        assert_eq!(guard("t", || Ok(())), CUresult::SUCCESS);
        assert_eq!(guard("t", || Err(CuError::NOT_FOUND)), CUresult::ERROR_NOT_FOUND);
        assert_eq!(guard("t", || panic!("boom")), CUresult::ERROR_UNKNOWN);
    }

    #[test]
    fn c_string_truncates() {
        let mut buf = [0x55 as c_char; 4];
        // SAFETY: buf has 4 writable bytes.
        let n = unsafe { write_c_string(buf.as_mut_ptr(), buf.len(), "abcdef") };
        assert_eq!(n, 4);
        assert_eq!(buf.map(|c| c as u8), *b"abc\0");
    }
}
