//! `cusparseStatus_t`, its names and descriptions, and the failure helpers.

use std::ffi::c_char;

pub type Status = i32;

pub const SUCCESS: Status = 0;
pub const NOT_INITIALIZED: Status = 1;
pub const ALLOC_FAILED: Status = 2;
pub const INVALID_VALUE: Status = 3;
pub const ARCH_MISMATCH: Status = 4;
pub const MAPPING_ERROR: Status = 5;
pub const EXECUTION_FAILED: Status = 6;
pub const INTERNAL_ERROR: Status = 7;
pub const MATRIX_TYPE_NOT_SUPPORTED: Status = 8;
pub const ZERO_PIVOT: Status = 9;
pub const NOT_SUPPORTED: Status = 10;
pub const INSUFFICIENT_RESOURCES: Status = 11;

pub type SparseResult<T = ()> = Result<T, Status>;

/// Logs `why` (with `LIBCUDA_LOG=1`) and returns `status`.
pub fn fail(status: Status, why: std::fmt::Arguments<'_>) -> Status {
    libcuda_client::log!(crate::LIB, "{why} -> cusparseStatus_t {status}");
    status
}

/// Fails with `INVALID_VALUE` and a log line unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($why:tt)*) => {
        if !($cond) {
            return Err($crate::status::fail($crate::status::INVALID_VALUE, format_args!($($why)*)));
        }
    };
}
pub(crate) use ensure;

/// `(name, description)` of each status, NUL-terminated for C.
const TABLE: [(&str, &str); 12] = [
    ("CUSPARSE_STATUS_SUCCESS\0", "success\0"),
    ("CUSPARSE_STATUS_NOT_INITIALIZED\0", "initialization error\0"),
    ("CUSPARSE_STATUS_ALLOC_FAILED\0", "out of memory\0"),
    ("CUSPARSE_STATUS_INVALID_VALUE\0", "invalid value\0"),
    ("CUSPARSE_STATUS_ARCH_MISMATCH\0", "architecture mismatch\0"),
    ("CUSPARSE_STATUS_MAPPING_ERROR\0", "memory mapping error\0"),
    ("CUSPARSE_STATUS_EXECUTION_FAILED\0", "execution failed\0"),
    ("CUSPARSE_STATUS_INTERNAL_ERROR\0", "internal error\0"),
    ("CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED\0", "matrix type not supported\0"),
    ("CUSPARSE_STATUS_ZERO_PIVOT\0", "zero pivot\0"),
    ("CUSPARSE_STATUS_NOT_SUPPORTED\0", "operation not supported\0"),
    ("CUSPARSE_STATUS_INSUFFICIENT_RESOURCES\0", "insufficient resources\0"),
];

/// `cusparseGetErrorName`: unknown values get a fixed string, never NULL.
pub fn name(status: Status) -> *const c_char {
    usize::try_from(status).ok().and_then(|i| TABLE.get(i)).map_or("CUSPARSE_STATUS_UNKNOWN\0", |e| e.0).as_ptr().cast()
}

/// `cusparseGetErrorString`.
pub fn description(status: Status) -> *const c_char {
    usize::try_from(status).ok().and_then(|i| TABLE.get(i)).map_or("unknown error\0", |e| e.1).as_ptr().cast()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_descriptions_are_c_strings_for_every_status() {
        let s = |p: *const c_char| unsafe { std::ffi::CStr::from_ptr(p) }.to_str().unwrap().to_string();
        assert_eq!(s(name(INVALID_VALUE)), "CUSPARSE_STATUS_INVALID_VALUE");
        assert_eq!(s(name(INSUFFICIENT_RESOURCES)), "CUSPARSE_STATUS_INSUFFICIENT_RESOURCES");
        assert_eq!(s(name(-1)), "CUSPARSE_STATUS_UNKNOWN");
        assert_eq!(s(description(NOT_SUPPORTED)), "operation not supported");
        assert_eq!(s(description(99)), "unknown error");
    }
}
