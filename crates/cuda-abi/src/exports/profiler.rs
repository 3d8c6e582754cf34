//! `cuProfilerStart` / `cuProfilerStop`: no profiler is ever attached to this driver,
//! so, as NVIDIA's driver does without one, both succeed and do nothing (programs that
//! bracket a region with `cudaProfilerStart/Stop` and check the result keep working).

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
}
