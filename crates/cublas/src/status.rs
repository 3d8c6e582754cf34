//! `cublasStatus_t`: codes, names and strings (`cublasGetStatusName`/`String`).

/// `cublasStatus_t`.
pub type Status = i32;

pub const SUCCESS: Status = 0;
pub const NOT_INITIALIZED: Status = 1;
pub const ALLOC_FAILED: Status = 3;
pub const INVALID_VALUE: Status = 7;
pub const ARCH_MISMATCH: Status = 8;
pub const MAPPING_ERROR: Status = 11;
pub const EXECUTION_FAILED: Status = 13;
pub const INTERNAL_ERROR: Status = 14;
pub const NOT_SUPPORTED: Status = 15;
pub const LICENSE_ERROR: Status = 16;

/// What a cuBLAS entry point returns on failure.
pub type BlasResult<T = ()> = Result<T, Status>;

/// `(code, name, description)`, as NVIDIA's cuBLAS 13.1 `cublasGetStatusName`/`String`
/// give them (read on an H200).
const TABLE: [(Status, &str, &str); 10] = [
    (SUCCESS, "CUBLAS_STATUS_SUCCESS\0", "success\0"),
    (NOT_INITIALIZED, "CUBLAS_STATUS_NOT_INITIALIZED\0", "the library was not initialized\0"),
    (ALLOC_FAILED, "CUBLAS_STATUS_ALLOC_FAILED\0", "the resource allocation failed\0"),
    (INVALID_VALUE, "CUBLAS_STATUS_INVALID_VALUE\0", "an unsupported value or parameter was passed to the function\0"),
    (ARCH_MISMATCH, "CUBLAS_STATUS_ARCH_MISMATCH\0", "the function requires an architectural feature absent from the device\0"),
    (MAPPING_ERROR, "CUBLAS_STATUS_MAPPING_ERROR\0", "an access to GPU memory space failed\0"),
    (EXECUTION_FAILED, "CUBLAS_STATUS_EXECUTION_FAILED\0", "the function failed to launch on the GPU\0"),
    (INTERNAL_ERROR, "CUBLAS_STATUS_INTERNAL_ERROR\0", "an internal operation failed\0"),
    (NOT_SUPPORTED, "CUBLAS_STATUS_NOT_SUPPORTED\0", "the requested functionality is not supported\0"),
    (LICENSE_ERROR, "CUBLAS_STATUS_LICENSE_ERROR\0", "the license check failed\0"),
];

/// The NUL-terminated name of `status` (`unrecognized status` for unknown codes, as NVIDIA's).
pub fn name(status: Status) -> &'static str {
    TABLE.iter().find(|e| e.0 == status).map_or("unrecognized status\0", |e| e.1)
}

/// The NUL-terminated description of `status`.
pub fn description(status: Status) -> &'static str {
    TABLE.iter().find(|e| e.0 == status).map_or("unrecognized status\0", |e| e.2)
}

/// Logs `why` (with `LIBCUDA_LOG=1`) and returns `status`.
pub fn fail(status: Status, why: std::fmt::Arguments<'_>) -> Status {
    libcuda_client::log!(crate::LIB, "{why} -> {}", name(status).trim_end_matches('\0'));
    status
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_and_strings_are_nul_terminated_and_unknown_codes_are_named() {
        for (code, n, d) in TABLE {
            assert!(n.ends_with('\0') && d.ends_with('\0'), "{code}");
            assert_eq!(name(code), n);
        }
        assert_eq!(name(2), "unrecognized status\0");
        assert_eq!(description(99), "unrecognized status\0");
    }
}
