//! `cuInit` and `cuDriverGetVersion`: the two entry points cudart calls before
//! anything else (it `dlsym`s `cuDriverGetVersion` directly and refuses a driver older
//! than its own major version).

use std::ffi::{c_int, c_uint};

use crate::boundary::{export, Out};

export! {
    /// `cuInit(Flags)`: builds the process-wide driver once; `Flags` must be 0.
    fn cuInit(flags: c_uint) {
        cuda_driver::init(flags).map(|_| ())
    }

    /// `cuDriverGetVersion(int* driverVersion)`; valid before `cuInit`.
    fn cuDriverGetVersion(driver_version: *mut c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(driver_version) }?;
        out.write(cuda_driver::driver_version());
        Ok(())
    }
}
