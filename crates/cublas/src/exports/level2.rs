//! Level 2 exports (`cublas?gemv_v2`, ...).

use std::ffi::c_int;

use super::{call, typed, Handle, C32, C64};
use crate::ops::level2;

typed! {
    [cublasSgemv_v2: f32, cublasDgemv_v2: f64, cublasCgemv_v2: C32, cublasZgemv_v2: C64]
    fn(h: Handle, trans: c_int, m: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, x: *const T, incx: c_int, beta: *const T, y: *mut T, incy: c_int) {
        // SAFETY: the caller's pointers, per the API.
        unsafe { level2::gemv::<T>(call(h, NAME)?, trans, m, n, alpha, a, lda, x, incx, beta, y, incy) }
    }
}

typed! {
    [cublasSger_v2: f32, cublasDger_v2: f64, cublasCgeru_v2: C32, cublasZgeru_v2: C64]
    fn(h: Handle, m: c_int, n: c_int, alpha: *const T, x: *const T, incx: c_int, y: *const T, incy: c_int, a: *mut T, lda: c_int) {
        // SAFETY: as above.
        unsafe { level2::ger::<T>(call(h, NAME)?, false, m, n, alpha, x, incx, y, incy, a, lda) }
    }
}

typed! {
    [cublasCgerc_v2: C32, cublasZgerc_v2: C64]
    fn(h: Handle, m: c_int, n: c_int, alpha: *const T, x: *const T, incx: c_int, y: *const T, incy: c_int, a: *mut T, lda: c_int) {
        // SAFETY: as above.
        unsafe { level2::ger::<T>(call(h, NAME)?, true, m, n, alpha, x, incx, y, incy, a, lda) }
    }
}

typed! {
    [cublasSsymv_v2: f32, cublasDsymv_v2: f64, cublasChemv_v2: C32, cublasZhemv_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, x: *const T, incx: c_int, beta: *const T, y: *mut T, incy: c_int) {
        // SAFETY: as above.
        unsafe { level2::symv::<T>(call(h, NAME)?, uplo, n, None, alpha, a, lda, x, incx, beta, y, incy) }
    }
}

typed! {
    [cublasSsbmv_v2: f32, cublasDsbmv_v2: f64, cublasChbmv_v2: C32, cublasZhbmv_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, x: *const T, incx: c_int, beta: *const T, y: *mut T, incy: c_int) {
        // SAFETY: as above.
        unsafe { level2::symv::<T>(call(h, NAME)?, uplo, n, Some(k), alpha, a, lda, x, incx, beta, y, incy) }
    }
}

typed! {
    [cublasStrsv_v2: f32, cublasDtrsv_v2: f64, cublasCtrsv_v2: C32, cublasZtrsv_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, diag: c_int, n: c_int, a: *const T, lda: c_int, x: *mut T, incx: c_int) {
        level2::trsv::<T>(call(h, NAME)?, true, uplo, trans, diag, n, a, lda, x, incx)
    }
}

typed! {
    [cublasStrmv_v2: f32, cublasDtrmv_v2: f64, cublasCtrmv_v2: C32, cublasZtrmv_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, diag: c_int, n: c_int, a: *const T, lda: c_int, x: *mut T, incx: c_int) {
        level2::trsv::<T>(call(h, NAME)?, false, uplo, trans, diag, n, a, lda, x, incx)
    }
}
