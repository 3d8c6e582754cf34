//! Errors: the thread's last error and the names and texts of codes.

use std::ffi::c_char;

use crate::boundary::{firewall, peek_last_error, take_last_error};
use crate::error::{c_string, CudaError, UNRECOGNIZED};

/// The thread's last error, reset to `cudaSuccess`. Errors that leave a context unusable
/// (a faulting kernel) are also reported by every later call that uses it, by the driver.
#[no_mangle]
pub extern "C" fn cudaGetLastError() -> CudaError {
    firewall("cudaGetLastError", CudaError::UNKNOWN, take_last_error)
}

/// The thread's last error, left in place.
#[no_mangle]
pub extern "C" fn cudaPeekAtLastError() -> CudaError {
    firewall("cudaPeekAtLastError", CudaError::UNKNOWN, peek_last_error)
}

/// The code's enumerator name ("cudaErrorInvalidValue").
#[no_mangle]
pub extern "C" fn cudaGetErrorName(error: CudaError) -> *const c_char {
    firewall("cudaGetErrorName", c_string(UNRECOGNIZED), || c_string(error.name()))
}

/// The code's description ("invalid argument").
#[no_mangle]
pub extern "C" fn cudaGetErrorString(error: CudaError) -> *const c_char {
    firewall("cudaGetErrorString", c_string(UNRECOGNIZED), || c_string(error.text()))
}
