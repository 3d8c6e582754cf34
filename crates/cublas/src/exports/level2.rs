//! Level 2 exports (`cublas?gemv_v2`, ...).

use std::ffi::c_int;

use super::{call, typed, Handle, C32, C64};
use crate::ops::band_packed::{self, TriStorage, Update};
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
        unsafe { level2::symv::<T>(call(h, NAME)?, false, uplo, n, None, alpha, a, lda, x, incx, beta, y, incy) }
    }
}

typed! {
    [cublasSsbmv_v2: f32, cublasDsbmv_v2: f64, cublasChbmv_v2: C32, cublasZhbmv_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, x: *const T, incx: c_int, beta: *const T, y: *mut T, incy: c_int) {
        // SAFETY: as above.
        unsafe { level2::symv::<T>(call(h, NAME)?, false, uplo, n, Some(k), alpha, a, lda, x, incx, beta, y, incy) }
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

typed! {
    [cublasCsymv_v2: C32, cublasZsymv_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, x: *const T, incx: c_int, beta: *const T, y: *mut T, incy: c_int) {
        // SAFETY: as above.
        unsafe { level2::symv::<T>(call(h, NAME)?, true, uplo, n, None, alpha, a, lda, x, incx, beta, y, incy) }
    }
}

typed! {
    [cublasSgbmv_v2: f32, cublasDgbmv_v2: f64, cublasCgbmv_v2: C32, cublasZgbmv_v2: C64]
    fn(h: Handle, trans: c_int, m: c_int, n: c_int, kl: c_int, ku: c_int, alpha: *const T, a: *const T, lda: c_int, x: *const T, incx: c_int, beta: *const T, y: *mut T, incy: c_int) {
        // SAFETY: as above.
        unsafe { band_packed::gbmv::<T>(call(h, NAME)?, trans, (m, n, kl, ku), alpha, a, lda, x, incx, beta, y, incy) }
    }
}

typed! {
    [cublasStbmv_v2: f32, cublasDtbmv_v2: f64, cublasCtbmv_v2: C32, cublasZtbmv_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, diag: c_int, n: c_int, k: c_int, a: *const T, lda: c_int, x: *mut T, incx: c_int) {
        band_packed::triangular::<T>(call(h, NAME)?, false, uplo, trans, diag, n, TriStorage::Band { k, lda }, a, x, incx)
    }
}

typed! {
    [cublasStbsv_v2: f32, cublasDtbsv_v2: f64, cublasCtbsv_v2: C32, cublasZtbsv_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, diag: c_int, n: c_int, k: c_int, a: *const T, lda: c_int, x: *mut T, incx: c_int) {
        band_packed::triangular::<T>(call(h, NAME)?, true, uplo, trans, diag, n, TriStorage::Band { k, lda }, a, x, incx)
    }
}

typed! {
    [cublasStpmv_v2: f32, cublasDtpmv_v2: f64, cublasCtpmv_v2: C32, cublasZtpmv_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, diag: c_int, n: c_int, ap: *const T, x: *mut T, incx: c_int) {
        band_packed::triangular::<T>(call(h, NAME)?, false, uplo, trans, diag, n, TriStorage::Packed, ap, x, incx)
    }
}

typed! {
    [cublasStpsv_v2: f32, cublasDtpsv_v2: f64, cublasCtpsv_v2: C32, cublasZtpsv_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, diag: c_int, n: c_int, ap: *const T, x: *mut T, incx: c_int) {
        band_packed::triangular::<T>(call(h, NAME)?, true, uplo, trans, diag, n, TriStorage::Packed, ap, x, incx)
    }
}

typed! {
    [cublasSspmv_v2: f32, cublasDspmv_v2: f64, cublasChpmv_v2: C32, cublasZhpmv_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const T, ap: *const T, x: *const T, incx: c_int, beta: *const T, y: *mut T, incy: c_int) {
        // SAFETY: as above.
        unsafe { band_packed::spmv::<T>(call(h, NAME)?, uplo, n, alpha, ap, x, incx, beta, y, incy) }
    }
}

typed! {
    [cublasSspr_v2: f32, cublasDspr_v2: f64, cublasChpr_v2: C32, cublasZhpr_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const <T as crate::ops::Elem>::Real, x: *const T, incx: c_int, ap: *mut T) {
        // SAFETY: as above.
        unsafe { band_packed::update::<T, <T as crate::ops::Elem>::Real>(call(h, NAME)?, Update::OnePacked, true, uplo, n, alpha, x, incx, x, 1, ap) }
    }
}

typed! {
    [cublasSspr2_v2: f32, cublasDspr2_v2: f64, cublasChpr2_v2: C32, cublasZhpr2_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const T, x: *const T, incx: c_int, y: *const T, incy: c_int, ap: *mut T) {
        // SAFETY: as above.
        unsafe { band_packed::update::<T, T>(call(h, NAME)?, Update::TwoPacked, true, uplo, n, alpha, x, incx, y, incy, ap) }
    }
}

typed! {
    [cublasSsyr_v2: f32, cublasDsyr_v2: f64, cublasCsyr_v2: C32, cublasZsyr_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const T, x: *const T, incx: c_int, a: *mut T, lda: c_int) {
        // SAFETY: as above.
        unsafe { band_packed::update::<T, T>(call(h, NAME)?, Update::One { lda }, false, uplo, n, alpha, x, incx, x, 1, a) }
    }
}

typed! {
    [cublasCher_v2: C32, cublasZher_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const <T as crate::ops::Elem>::Real, x: *const T, incx: c_int, a: *mut T, lda: c_int) {
        // SAFETY: as above.
        unsafe { band_packed::update::<T, <T as crate::ops::Elem>::Real>(call(h, NAME)?, Update::One { lda }, true, uplo, n, alpha, x, incx, x, 1, a) }
    }
}

typed! {
    [cublasSsyr2_v2: f32, cublasDsyr2_v2: f64, cublasCsyr2_v2: C32, cublasZsyr2_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const T, x: *const T, incx: c_int, y: *const T, incy: c_int, a: *mut T, lda: c_int) {
        // SAFETY: as above.
        unsafe { band_packed::update::<T, T>(call(h, NAME)?, Update::Two { lda }, false, uplo, n, alpha, x, incx, y, incy, a) }
    }
}

typed! {
    [cublasCher2_v2: C32, cublasZher2_v2: C64]
    fn(h: Handle, uplo: c_int, n: c_int, alpha: *const T, x: *const T, incx: c_int, y: *const T, incy: c_int, a: *mut T, lda: c_int) {
        // SAFETY: as above.
        unsafe { band_packed::update::<T, T>(call(h, NAME)?, Update::Two { lda }, true, uplo, n, alpha, x, incx, y, incy, a) }
    }
}
