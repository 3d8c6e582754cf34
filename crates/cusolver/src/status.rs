//! `cusolverStatus_t`.

pub type Status = i32;

pub const SUCCESS: Status = 0;
pub const NOT_INITIALIZED: Status = 1;
pub const INVALID_VALUE: Status = 3;
pub const EXECUTION_FAILED: Status = 6;
pub const INTERNAL_ERROR: Status = 7;
pub const NOT_SUPPORTED: Status = 9;

pub type SolverResult<T = ()> = Result<T, Status>;

/// Logs `why` (with `LIBCUDA_LOG=1`) and returns `status`.
pub fn fail(status: Status, why: std::fmt::Arguments<'_>) -> Status {
    libcuda_client::log!(crate::LIB, "{why} -> cusolverStatus_t {status}");
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
