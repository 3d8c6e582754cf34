//! Level 3 exports (`cublas?gemm_v2`, ...).

use std::ffi::c_int;

use super::{call, typed, Handle, C32, C64};
use crate::ops::level3::{self, RankK};
use crate::ops::Elem;

typed! {
    [cublasSgemm_v2: f32, cublasDgemm_v2: f64, cublasCgemm_v2: C32, cublasZgemm_v2: C64]
    fn(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const T, c: *mut T, ldc: c_int) {
        // SAFETY: the caller's pointers, per the API.
        unsafe { level3::gemm::<T>(call(h, NAME)?, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

typed! {
    [cublasSsyrk_v2: f32, cublasDsyrk_v2: f64, cublasCsyrk_v2: C32, cublasZsyrk_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, beta: *const T, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::rank_k::<T, T, T>(call(h, NAME)?, RankK::One, false, uplo, trans, n, k, alpha, a, lda, a, lda, beta, c, ldc) }
    }
}

typed! {
    [cublasCherk_v2: C32, cublasZherk_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const <T as Elem>::Real, a: *const T, lda: c_int, beta: *const <T as Elem>::Real, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::rank_k::<T, <T as Elem>::Real, <T as Elem>::Real>(call(h, NAME)?, RankK::One, true, uplo, trans, n, k, alpha, a, lda, a, lda, beta, c, ldc) }
    }
}

typed! {
    [cublasSsyr2k_v2: f32, cublasDsyr2k_v2: f64, cublasCsyr2k_v2: C32, cublasZsyr2k_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const T, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::rank_k::<T, T, T>(call(h, NAME)?, RankK::Two, false, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

typed! {
    [cublasCher2k_v2: C32, cublasZher2k_v2: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const <T as Elem>::Real, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::rank_k::<T, T, <T as Elem>::Real>(call(h, NAME)?, RankK::Two, true, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

typed! {
    [cublasSsymm_v2: f32, cublasDsymm_v2: f64, cublasCsymm_v2: C32, cublasZsymm_v2: C64]
    fn(h: Handle, side: c_int, uplo: c_int, m: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const T, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::symm::<T>(call(h, NAME)?, false, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

typed! {
    [cublasChemm_v2: C32, cublasZhemm_v2: C64]
    fn(h: Handle, side: c_int, uplo: c_int, m: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const T, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::symm::<T>(call(h, NAME)?, true, side, uplo, m, n, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

typed! {
    [cublasStrsm_v2: f32, cublasDtrsm_v2: f64, cublasCtrsm_v2: C32, cublasZtrsm_v2: C64]
    fn(h: Handle, side: c_int, uplo: c_int, trans: c_int, diag: c_int, m: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, b: *mut T, ldb: c_int) {
        // SAFETY: as above.
        unsafe { level3::trsm::<T>(call(h, NAME)?, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb) }
    }
}

typed! {
    [cublasStrmm_v2: f32, cublasDtrmm_v2: f64, cublasCtrmm_v2: C32, cublasZtrmm_v2: C64]
    fn(h: Handle, side: c_int, uplo: c_int, trans: c_int, diag: c_int, m: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::trmm::<T>(call(h, NAME)?, side, uplo, trans, diag, m, n, alpha, a, lda, b, ldb, c, ldc) }
    }
}

typed! {
    [cublasCgemm3m: C32, cublasZgemm3m: C64]
    fn(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const T, c: *mut T, ldc: c_int) {
        // The Gauss (3M) method is a GPU speed trade-off; the product is the same GEMM.
        // SAFETY: as above.
        unsafe { level3::gemm::<T>(call(h, NAME)?, transa, transb, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

typed! {
    [cublasSsyrkx: f32, cublasDsyrkx: f64, cublasCsyrkx: C32, cublasZsyrkx: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const T, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::rank_kx::<T, T>(call(h, NAME)?, false, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

typed! {
    [cublasCherkx: C32, cublasZherkx: C64]
    fn(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, b: *const T, ldb: c_int, beta: *const <T as Elem>::Real, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { level3::rank_kx::<T, <T as Elem>::Real>(call(h, NAME)?, true, uplo, trans, n, k, alpha, a, lda, b, ldb, beta, c, ldc) }
    }
}

/// `CUDA_C_32F`: the one input and output type of the complex rank-k extensions here.
fn complex_single(name: &str, atype: c_int, ctype: c_int) -> crate::status::BlasResult {
    if atype == crate::types::data_type::C_32F && ctype == crate::types::data_type::C_32F {
        Ok(())
    } else {
        Err(crate::status::fail(crate::status::NOT_SUPPORTED, format_args!("{name}: Atype={atype} Ctype={ctype} (CUDA_C_32F only)")))
    }
}

super::export! {
    /// `cublasCsyrkEx(handle, uplo, trans, n, k, alpha, A, Atype, lda, beta, C, Ctype, ldc)`.
    fn cublasCsyrkEx(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const C32, a: *const std::ffi::c_void, atype: c_int, lda: c_int, beta: *const C32, c: *mut std::ffi::c_void, ctype: c_int, ldc: c_int) {
        complex_single("cublasCsyrkEx", atype, ctype)?;
        // SAFETY: as above.
        unsafe { level3::rank_k::<C32, C32, C32>(call(h, "cublasCsyrkEx")?, RankK::One, false, uplo, trans, n, k, alpha, a.cast(), lda, a.cast(), lda, beta, c.cast(), ldc) }
    }
    /// `cublasCsyrk3mEx(...)`: as `cublasCsyrkEx` (3M is a GPU speed trade-off).
    fn cublasCsyrk3mEx(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const C32, a: *const std::ffi::c_void, atype: c_int, lda: c_int, beta: *const C32, c: *mut std::ffi::c_void, ctype: c_int, ldc: c_int) {
        complex_single("cublasCsyrk3mEx", atype, ctype)?;
        // SAFETY: as above.
        unsafe { level3::rank_k::<C32, C32, C32>(call(h, "cublasCsyrk3mEx")?, RankK::One, false, uplo, trans, n, k, alpha, a.cast(), lda, a.cast(), lda, beta, c.cast(), ldc) }
    }
    /// `cublasCherkEx(handle, uplo, trans, n, k, float* alpha, A, Atype, lda, float* beta, C, Ctype, ldc)`.
    fn cublasCherkEx(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const f32, a: *const std::ffi::c_void, atype: c_int, lda: c_int, beta: *const f32, c: *mut std::ffi::c_void, ctype: c_int, ldc: c_int) {
        complex_single("cublasCherkEx", atype, ctype)?;
        // SAFETY: as above.
        unsafe { level3::rank_k::<C32, f32, f32>(call(h, "cublasCherkEx")?, RankK::One, true, uplo, trans, n, k, alpha, a.cast(), lda, a.cast(), lda, beta, c.cast(), ldc) }
    }
    /// `cublasCherk3mEx(...)`: as `cublasCherkEx`.
    fn cublasCherk3mEx(h: Handle, uplo: c_int, trans: c_int, n: c_int, k: c_int, alpha: *const f32, a: *const std::ffi::c_void, atype: c_int, lda: c_int, beta: *const f32, c: *mut std::ffi::c_void, ctype: c_int, ldc: c_int) {
        complex_single("cublasCherk3mEx", atype, ctype)?;
        // SAFETY: as above.
        unsafe { level3::rank_k::<C32, f32, f32>(call(h, "cublasCherk3mEx")?, RankK::One, true, uplo, trans, n, k, alpha, a.cast(), lda, a.cast(), lda, beta, c.cast(), ldc) }
    }
}
