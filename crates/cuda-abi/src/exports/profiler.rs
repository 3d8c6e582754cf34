//! `cuProfilerStart` / `cuProfilerStop`: no profiler is ever attached to this driver,
//! so, as NVIDIA's driver does without one, both succeed and do nothing (programs that
//! bracket a region with `cudaProfilerStart/Stop` and check the result keep working).
//! `cuProfilerInitialize` (deprecated) answers `CUDA_ERROR_NOT_SUPPORTED` always, which
//! is what the driver API reference says it does since CUDA 12.0 (and NVIDIA's driver
//! 580 answers).

use std::ffi::{c_char, c_int};

use cuda_driver::CuError;

use super::drv;
use crate::boundary::export;

export! {
    /// `cuProfilerStart(void)`.
    fn cuProfilerStart() {
        drv().map(|_| ())
    }

    /// `cuProfilerStop(void)`.
    fn cuProfilerStop() {
        drv().map(|_| ())
    }

    /// `cuProfilerInitialize(const char* configFile, const char* outputFile, CUoutput_mode outputMode)`.
    fn cuProfilerInitialize(_config_file: *const c_char, _output_file: *const c_char, _output_mode: c_int) {
        drv()?;
        Err(CuError::NOT_SUPPORTED)
    }
}
