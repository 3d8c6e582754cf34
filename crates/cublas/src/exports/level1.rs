//! Level 1 exports (`cublas?axpy_v2`, ...).

use std::ffi::{c_int, c_void};

use super::{call, typed, Handle, C32, C64};
use crate::ops::ex_level1;
use crate::ops::level1::{self, Norm};

typed! {
    [cublasSaxpy_v2: f32, cublasDaxpy_v2: f64, cublasCaxpy_v2: C32, cublasZaxpy_v2: C64]
    fn(h: Handle, n: c_int, alpha: *const T, x: *const T, incx: c_int, y: *mut T, incy: c_int) {
        // SAFETY: the caller's pointers, per the API.
        unsafe { level1::axpy::<T>(call(h, NAME)?, n, alpha, x, incx, y, incy) }
    }
}

typed! {
    [cublasSscal_v2: f32, cublasDscal_v2: f64, cublasCscal_v2: C32, cublasZscal_v2: C64]
    fn(h: Handle, n: c_int, alpha: *const T, x: *mut T, incx: c_int) {
        // SAFETY: as above.
        unsafe { level1::scal::<T, T>(call(h, NAME)?, n, alpha, x, incx) }
    }
}

typed! {
    [cublasCsscal_v2: C32, cublasZdscal_v2: C64]
    fn(h: Handle, n: c_int, alpha: *const <T as crate::ops::Elem>::Real, x: *mut T, incx: c_int) {
        // SAFETY: as above.
        unsafe { level1::scal::<T, <T as crate::ops::Elem>::Real>(call(h, NAME)?, n, alpha, x, incx) }
    }
}

typed! {
    [cublasScopy_v2: f32, cublasDcopy_v2: f64, cublasCcopy_v2: C32, cublasZcopy_v2: C64]
    fn(h: Handle, n: c_int, x: *const T, incx: c_int, y: *mut T, incy: c_int) {
        level1::copy_or_swap::<T>(call(h, NAME)?, false, n, x.cast_mut(), incx, y, incy)
    }
}

typed! {
    [cublasSswap_v2: f32, cublasDswap_v2: f64, cublasCswap_v2: C32, cublasZswap_v2: C64]
    fn(h: Handle, n: c_int, x: *mut T, incx: c_int, y: *mut T, incy: c_int) {
        level1::copy_or_swap::<T>(call(h, NAME)?, true, n, x, incx, y, incy)
    }
}

typed! {
    [cublasSrot_v2: f32, cublasDrot_v2: f64, cublasCsrot_v2: C32, cublasZdrot_v2: C64]
    fn(h: Handle, n: c_int, x: *mut T, incx: c_int, y: *mut T, incy: c_int, c: *const <T as crate::ops::Elem>::Real, s: *const <T as crate::ops::Elem>::Real) {
        // SAFETY: as above.
        unsafe { level1::rot::<T>(call(h, NAME)?, n, x, incx, y, incy, c, s) }
    }
}

typed! {
    [cublasSdot_v2: f32, cublasDdot_v2: f64, cublasCdotu_v2: C32, cublasZdotu_v2: C64]
    fn(h: Handle, n: c_int, x: *const T, incx: c_int, y: *const T, incy: c_int, result: *mut T) {
        // SAFETY: as above.
        unsafe { level1::dot::<T>(call(h, NAME)?, false, n, x, incx, y, incy, result) }
    }
}

typed! {
    [cublasCdotc_v2: C32, cublasZdotc_v2: C64]
    fn(h: Handle, n: c_int, x: *const T, incx: c_int, y: *const T, incy: c_int, result: *mut T) {
        // SAFETY: as above.
        unsafe { level1::dot::<T>(call(h, NAME)?, true, n, x, incx, y, incy, result) }
    }
}

typed! {
    [cublasSnrm2_v2: f32, cublasDnrm2_v2: f64, cublasScnrm2_v2: C32, cublasDznrm2_v2: C64]
    fn(h: Handle, n: c_int, x: *const T, incx: c_int, result: *mut <T as crate::ops::Elem>::Real) {
        // SAFETY: as above.
        unsafe { level1::norm::<T>(call(h, NAME)?, Norm::Nrm2, n, x, incx, result) }
    }
}

typed! {
    [cublasSasum_v2: f32, cublasDasum_v2: f64, cublasScasum_v2: C32, cublasDzasum_v2: C64]
    fn(h: Handle, n: c_int, x: *const T, incx: c_int, result: *mut <T as crate::ops::Elem>::Real) {
        // SAFETY: as above.
        unsafe { level1::norm::<T>(call(h, NAME)?, Norm::Asum, n, x, incx, result) }
    }
}

typed! {
    [cublasIsamax_v2: f32, cublasIdamax_v2: f64, cublasIcamax_v2: C32, cublasIzamax_v2: C64]
    fn(h: Handle, n: c_int, x: *const T, incx: c_int, result: *mut c_int) {
        // SAFETY: as above.
        unsafe { level1::iamax::<T>(call(h, NAME)?, true, n, x, incx, result) }
    }
}

typed! {
    [cublasIsamin_v2: f32, cublasIdamin_v2: f64, cublasIcamin_v2: C32, cublasIzamin_v2: C64]
    fn(h: Handle, n: c_int, x: *const T, incx: c_int, result: *mut c_int) {
        // SAFETY: as above.
        unsafe { level1::iamax::<T>(call(h, NAME)?, false, n, x, incx, result) }
    }
}

typed! {
    [cublasCrot_v2: C32, cublasZrot_v2: C64]
    fn(h: Handle, n: c_int, x: *mut T, incx: c_int, y: *mut T, incy: c_int, c: *const <T as crate::ops::Elem>::Real, s: *const T) {
        // SAFETY: as above.
        unsafe { level1::complex_rot::<T>(call(h, NAME)?, n, x, incx, y, incy, c, s) }
    }
}

typed! {
    [cublasSrotg_v2: f32, cublasDrotg_v2: f64, cublasCrotg_v2: C32, cublasZrotg_v2: C64]
    fn(h: Handle, a: *mut T, b: *mut T, c: *mut <T as crate::ops::Elem>::Real, s: *mut T) {
        level1::rotg::<T>(call(h, NAME)?, a, b, c, s)
    }
}

typed! {
    [cublasSrotm_v2: f32, cublasDrotm_v2: f64]
    fn(h: Handle, n: c_int, x: *mut T, incx: c_int, y: *mut T, incy: c_int, param: *const T) {
        level1::rotm::<T>(call(h, NAME)?, n, x, incx, y, incy, param)
    }
}

typed! {
    [cublasSrotmg_v2: f32, cublasDrotmg_v2: f64]
    fn(h: Handle, d1: *mut T, d2: *mut T, x1: *mut T, y1: *const T, param: *mut T) {
        level1::rotmg::<T>(call(h, NAME)?, d1, d2, x1, y1, param)
    }
}

super::export! {
    /// `cublasAxpyEx(handle, n, alpha, alphaType, x, xType, incx, y, yType, incy, executiontype)`.
    fn cublasAxpyEx(h: Handle, n: c_int, alpha: *const c_void, alpha_type: c_int, x: *const c_void, xtype: c_int, incx: c_int, y: *mut c_void, ytype: c_int, incy: c_int, exec: c_int) {
        // SAFETY: the caller's pointers, per the API.
        unsafe { ex_level1::axpy_scal(call(h, "cublasAxpyEx")?, n, alpha.cast(), alpha_type, (x as *mut u8, xtype, incx), Some((y.cast(), ytype, incy)), exec) }
    }
    /// `cublasScalEx(handle, n, alpha, alphaType, x, xType, incx, executionType)`.
    fn cublasScalEx(h: Handle, n: c_int, alpha: *const c_void, alpha_type: c_int, x: *mut c_void, xtype: c_int, incx: c_int, exec: c_int) {
        // SAFETY: as above.
        unsafe { ex_level1::axpy_scal(call(h, "cublasScalEx")?, n, alpha.cast(), alpha_type, (x.cast(), xtype, incx), None, exec) }
    }
    /// `cublasDotEx(handle, n, x, xType, incx, y, yType, incy, result, resultType, executionType)`.
    fn cublasDotEx(h: Handle, n: c_int, x: *const c_void, xtype: c_int, incx: c_int, y: *const c_void, ytype: c_int, incy: c_int, result: *mut c_void, rtype: c_int, exec: c_int) {
        // SAFETY: as above.
        unsafe { ex_level1::dot(call(h, "cublasDotEx")?, false, n, (x.cast(), xtype, incx), (y.cast(), ytype, incy), result.cast(), rtype, exec) }
    }
    /// `cublasDotcEx(...)`: `conj(x) . y`.
    fn cublasDotcEx(h: Handle, n: c_int, x: *const c_void, xtype: c_int, incx: c_int, y: *const c_void, ytype: c_int, incy: c_int, result: *mut c_void, rtype: c_int, exec: c_int) {
        // SAFETY: as above.
        unsafe { ex_level1::dot(call(h, "cublasDotcEx")?, true, n, (x.cast(), xtype, incx), (y.cast(), ytype, incy), result.cast(), rtype, exec) }
    }
    /// `cublasNrm2Ex(handle, n, x, xType, incx, result, resultType, executionType)`.
    fn cublasNrm2Ex(h: Handle, n: c_int, x: *const c_void, xtype: c_int, incx: c_int, result: *mut c_void, rtype: c_int, exec: c_int) {
        // SAFETY: as above.
        unsafe { ex_level1::nrm2(call(h, "cublasNrm2Ex")?, n, (x.cast(), xtype, incx), result.cast(), rtype, exec) }
    }
    /// `cublasRotEx(handle, n, x, xType, incx, y, yType, incy, c, s, csType, executiontype)`.
    fn cublasRotEx(h: Handle, n: c_int, x: *mut c_void, xtype: c_int, incx: c_int, y: *mut c_void, ytype: c_int, incy: c_int, c: *const c_void, s: *const c_void, cs_type: c_int, exec: c_int) {
        // SAFETY: as above.
        unsafe { ex_level1::rot(call(h, "cublasRotEx")?, n, (x.cast(), xtype, incx), (y.cast(), ytype, incy), c.cast(), s.cast(), cs_type, exec) }
    }
}
