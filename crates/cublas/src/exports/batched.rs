//! Batched, extension, mixed-precision and batched-LU exports.

use std::ffi::{c_int, c_void};

use super::{call, export, typed, Handle, C32, C64};
use crate::ops::batched::{self, BatchArgs};
use crate::ops::gemm_ex::{self, ExArgs};
use crate::ops::{extensions, lapack};
use crate::types::{compute_type, data_type};

typed! {
    [cublasSgemmBatched: f32, cublasDgemmBatched: f64, cublasCgemmBatched: C32, cublasZgemmBatched: C64]
    fn(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const T, a: *const *const T, lda: c_int, b: *const *const T, ldb: c_int, beta: *const T, c: *const *mut T, ldc: c_int, count: c_int) {
        let args = BatchArgs::Pointers([a as u64, b as u64, c as u64]);
        // SAFETY: the caller's pointers, per the API.
        unsafe { batched::gemm_batched::<T>(call(h, NAME)?, transa, transb, m, n, k, alpha, [lda, ldb, ldc], beta, args, count) }
    }
}

typed! {
    [cublasSgemmStridedBatched: f32, cublasDgemmStridedBatched: f64, cublasCgemmStridedBatched: C32, cublasZgemmStridedBatched: C64]
    fn(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const T, a: *const T, lda: c_int, sa: i64, b: *const T, ldb: c_int, sb: i64, beta: *const T, c: *mut T, ldc: c_int, sc: i64, count: c_int) {
        let args = BatchArgs::Strided { ptrs: [a as u64, b as u64, c as u64], stride: [sa, sb, sc] };
        // SAFETY: as above.
        unsafe { batched::gemm_batched::<T>(call(h, NAME)?, transa, transb, m, n, k, alpha, [lda, ldb, ldc], beta, args, count) }
    }
}

typed! {
    [cublasStrsmBatched: f32, cublasDtrsmBatched: f64, cublasCtrsmBatched: C32, cublasZtrsmBatched: C64]
    fn(h: Handle, side: c_int, uplo: c_int, trans: c_int, diag: c_int, m: c_int, n: c_int, alpha: *const T, a: *const *const T, lda: c_int, b: *const *mut T, ldb: c_int, count: c_int) {
        // SAFETY: as above.
        unsafe { batched::trsm_batched::<T>(call(h, NAME)?, [side, uplo, trans, diag], m, n, alpha, a as u64, lda, b as u64, ldb, count) }
    }
}

typed! {
    [cublasSgeam: f32, cublasDgeam: f64, cublasCgeam: C32, cublasZgeam: C64]
    fn(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, alpha: *const T, a: *const T, lda: c_int, beta: *const T, b: *const T, ldb: c_int, c: *mut T, ldc: c_int) {
        // SAFETY: as above.
        unsafe { extensions::geam::<T>(call(h, NAME)?, transa, transb, m, n, alpha, a, lda, beta, b, ldb, c, ldc) }
    }
}

typed! {
    [cublasSdgmm: f32, cublasDdgmm: f64, cublasCdgmm: C32, cublasZdgmm: C64]
    fn(h: Handle, side: c_int, m: c_int, n: c_int, a: *const T, lda: c_int, x: *const T, incx: c_int, c: *mut T, ldc: c_int) {
        extensions::dgmm::<T>(call(h, NAME)?, side, m, n, a, lda, x, incx, c, ldc)
    }
}

typed! {
    [cublasSgetrfBatched: f32, cublasDgetrfBatched: f64, cublasCgetrfBatched: C32, cublasZgetrfBatched: C64]
    fn(h: Handle, n: c_int, a: *const *mut T, lda: c_int, pivots: *mut c_int, infos: *mut c_int, count: c_int) {
        lapack::getrf_batched::<T>(call(h, NAME)?, n, a as u64, lda, pivots, infos, count)
    }
}

typed! {
    [cublasSgetrsBatched: f32, cublasDgetrsBatched: f64, cublasCgetrsBatched: C32, cublasZgetrsBatched: C64]
    fn(h: Handle, trans: c_int, n: c_int, nrhs: c_int, a: *const *const T, lda: c_int, pivots: *const c_int, b: *const *mut T, ldb: c_int, info: *mut c_int, count: c_int) {
        // SAFETY: as above.
        unsafe { lapack::getrs_batched::<T>(call(h, NAME)?, trans, n, nrhs, a as u64, lda, pivots, b as u64, ldb, info, count) }
    }
}

typed! {
    [cublasSgetriBatched: f32, cublasDgetriBatched: f64, cublasCgetriBatched: C32, cublasZgetriBatched: C64]
    fn(h: Handle, n: c_int, a: *const *const T, lda: c_int, pivots: *const c_int, c: *const *mut T, ldc: c_int, infos: *mut c_int, count: c_int) {
        lapack::getri_batched::<T>(call(h, NAME)?, n, a as u64, lda, pivots, c as u64, ldc, infos, count)
    }
}

export! {
    /// `cublasGemmEx(handle, transa, transb, m, n, k, alpha, A, Atype, lda, B, Btype, ldb,
    /// beta, C, Ctype, ldc, computeType, algo)`: `algo` only picks among GPU kernels.
    fn cublasGemmEx(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const c_void, a: *const c_void, atype: c_int, lda: c_int, b: *const c_void, btype: c_int, ldb: c_int, beta: *const c_void, c: *mut c_void, ctype: c_int, ldc: c_int, compute: c_int, _algo: c_int) {
        let batch = BatchArgs::Strided { ptrs: [a as u64, b as u64, c as u64], stride: [0; 3] };
        let x = ExArgs { transa, transb, m, n, k, alpha: alpha.cast(), beta: beta.cast(), lds: [lda, ldb, ldc], types: [atype, btype, ctype, compute], batch, count: 1 };
        // SAFETY: as above.
        unsafe { gemm_ex::gemm_ex(call(h, "cublasGemmEx")?, x) }
    }

    /// `cublasGemmBatchedEx(...)`: arrays of device pointers.
    fn cublasGemmBatchedEx(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const c_void, a: *const *const c_void, atype: c_int, lda: c_int, b: *const *const c_void, btype: c_int, ldb: c_int, beta: *const c_void, c: *const *mut c_void, ctype: c_int, ldc: c_int, count: c_int, compute: c_int, _algo: c_int) {
        let batch = BatchArgs::Pointers([a as u64, b as u64, c as u64]);
        let x = ExArgs { transa, transb, m, n, k, alpha: alpha.cast(), beta: beta.cast(), lds: [lda, ldb, ldc], types: [atype, btype, ctype, compute], batch, count };
        // SAFETY: as above.
        unsafe { gemm_ex::gemm_ex(call(h, "cublasGemmBatchedEx")?, x) }
    }

    /// `cublasGemmStridedBatchedEx(...)`.
    fn cublasGemmStridedBatchedEx(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const c_void, a: *const c_void, atype: c_int, lda: c_int, sa: i64, b: *const c_void, btype: c_int, ldb: c_int, sb: i64, beta: *const c_void, c: *mut c_void, ctype: c_int, ldc: c_int, sc: i64, count: c_int, compute: c_int, _algo: c_int) {
        let batch = BatchArgs::Strided { ptrs: [a as u64, b as u64, c as u64], stride: [sa, sb, sc] };
        let x = ExArgs { transa, transb, m, n, k, alpha: alpha.cast(), beta: beta.cast(), lds: [lda, ldb, ldc], types: [atype, btype, ctype, compute], batch, count };
        // SAFETY: as above.
        unsafe { gemm_ex::gemm_ex(call(h, "cublasGemmStridedBatchedEx")?, x) }
    }

    /// `cublasSgemmEx(...)`: float scalars and compute, typed A/B/C.
    fn cublasSgemmEx(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const f32, a: *const c_void, atype: c_int, lda: c_int, b: *const c_void, btype: c_int, ldb: c_int, beta: *const f32, c: *mut c_void, ctype: c_int, ldc: c_int) {
        let batch = BatchArgs::Strided { ptrs: [a as u64, b as u64, c as u64], stride: [0; 3] };
        let x = ExArgs { transa, transb, m, n, k, alpha: alpha.cast(), beta: beta.cast(), lds: [lda, ldb, ldc], types: [atype, btype, ctype, compute_type::COMPUTE_32F], batch, count: 1 };
        // SAFETY: as above.
        unsafe { gemm_ex::gemm_ex(call(h, "cublasSgemmEx")?, x) }
    }

    /// `cublasHgemm(...)`: half operands, scalars and compute.
    fn cublasHgemm(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const u16, a: *const u16, lda: c_int, b: *const u16, ldb: c_int, beta: *const u16, c: *mut u16, ldc: c_int) {
        let batch = BatchArgs::Strided { ptrs: [a as u64, b as u64, c as u64], stride: [0; 3] };
        let f = data_type::R_16F;
        let x = ExArgs { transa, transb, m, n, k, alpha: alpha.cast(), beta: beta.cast(), lds: [lda, ldb, ldc], types: [f, f, f, compute_type::COMPUTE_16F], batch, count: 1 };
        // SAFETY: as above.
        unsafe { gemm_ex::gemm_ex(call(h, "cublasHgemm")?, x) }
    }

    /// `cublasHgemmBatched(...)`.
    fn cublasHgemmBatched(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const u16, a: *const *const u16, lda: c_int, b: *const *const u16, ldb: c_int, beta: *const u16, c: *const *mut u16, ldc: c_int, count: c_int) {
        let batch = BatchArgs::Pointers([a as u64, b as u64, c as u64]);
        let f = data_type::R_16F;
        let x = ExArgs { transa, transb, m, n, k, alpha: alpha.cast(), beta: beta.cast(), lds: [lda, ldb, ldc], types: [f, f, f, compute_type::COMPUTE_16F], batch, count };
        // SAFETY: as above.
        unsafe { gemm_ex::gemm_ex(call(h, "cublasHgemmBatched")?, x) }
    }

    /// `cublasHgemmStridedBatched(...)`.
    fn cublasHgemmStridedBatched(h: Handle, transa: c_int, transb: c_int, m: c_int, n: c_int, k: c_int, alpha: *const u16, a: *const u16, lda: c_int, sa: i64, b: *const u16, ldb: c_int, sb: i64, beta: *const u16, c: *mut u16, ldc: c_int, sc: i64, count: c_int) {
        let batch = BatchArgs::Strided { ptrs: [a as u64, b as u64, c as u64], stride: [sa, sb, sc] };
        let f = data_type::R_16F;
        let x = ExArgs { transa, transb, m, n, k, alpha: alpha.cast(), beta: beta.cast(), lds: [lda, ldb, ldc], types: [f, f, f, compute_type::COMPUTE_16F], batch, count };
        // SAFETY: as above.
        unsafe { gemm_ex::gemm_ex(call(h, "cublasHgemmStridedBatched")?, x) }
    }
}

typed! {
    [cublasStrttp: f32, cublasDtrttp: f64, cublasCtrttp: C32, cublasZtrttp: C64]
    fn(h: Handle, uplo: c_int, n: c_int, a: *const T, lda: c_int, ap: *mut T) {
        extensions::pack::<T>(call(h, NAME)?, true, uplo, n, a.cast_mut(), lda, ap)
    }
}

typed! {
    [cublasStpttr: f32, cublasDtpttr: f64, cublasCtpttr: C32, cublasZtpttr: C64]
    fn(h: Handle, uplo: c_int, n: c_int, ap: *const T, a: *mut T, lda: c_int) {
        extensions::pack::<T>(call(h, NAME)?, false, uplo, n, a, lda, ap.cast_mut())
    }
}

typed! {
    [cublasSgemmGroupedBatched: f32, cublasDgemmGroupedBatched: f64]
    fn(h: Handle, transa: *const c_int, transb: *const c_int, m: *const c_int, n: *const c_int, k: *const c_int, alpha: *const T, a: *const *const T, lda: *const c_int, b: *const *const T, ldb: *const c_int, beta: *const T, c: *const *mut T, ldc: *const c_int, count: c_int, size: *const c_int) {
        let groups = batched::Groups { transa, transb, m, n, k, lda, ldb, ldc, size, count };
        // SAFETY: the caller's host arrays of `count` entries, per the API.
        for (gi, g) in unsafe { groups.read(NAME) }?.into_iter().enumerate() {
            let at = |p: u64, elem: usize| p + (g.first * elem) as u64;
            let args = BatchArgs::Pointers([at(a as u64, 8), at(b as u64, 8), at(c as u64, 8)]);
            // SAFETY: group g's scalars in the host scalar arrays.
            unsafe {
                let [gm, gn, gk] = g.mnk;
                batched::gemm_batched::<T>(call(h, NAME)?, g.transa, g.transb, gm, gn, gk, alpha.add(gi), g.lds, beta.add(gi), args, g.size)?;
            }
        }
        Ok(())
    }
}

export! {
    /// `cublasGemmGroupedBatchedEx(handle, transa[], transb[], m[], n[], k[], alpha[],
    /// Aarray, Atype, lda[], Barray, Btype, ldb[], beta[], Carray, Ctype, ldc[],
    /// group_count, group_size[], computeType)`: scalars per group, of the compute type's
    /// scalar type.
    fn cublasGemmGroupedBatchedEx(h: Handle, transa: *const c_int, transb: *const c_int, m: *const c_int, n: *const c_int, k: *const c_int, alpha: *const c_void, a: *const *const c_void, atype: c_int, lda: *const c_int, b: *const *const c_void, btype: c_int, ldb: *const c_int, beta: *const c_void, c: *const *mut c_void, ctype: c_int, ldc: *const c_int, count: c_int, size: *const c_int, compute: c_int) {
        const NAME: &str = "cublasGemmGroupedBatchedEx";
        let scalar = gemm_ex::ex_types(NAME, atype, btype, ctype, compute)?.scalar.size();
        let groups = batched::Groups { transa, transb, m, n, k, lda, ldb, ldc, size, count };
        // SAFETY: the caller's host arrays of `count` entries, per the API.
        for (gi, g) in unsafe { groups.read(NAME) }?.into_iter().enumerate() {
            let at = |p: u64| p + (g.first * 8) as u64;
            let batch = BatchArgs::Pointers([at(a as u64), at(b as u64), at(c as u64)]);
            let [gm, gn, gk] = g.mnk;
            // SAFETY: group gi's scalars, `scalar` bytes each.
            let (al, be) = unsafe { (alpha.cast::<u8>().add(gi * scalar), beta.cast::<u8>().add(gi * scalar)) };
            let x = ExArgs { transa: g.transa, transb: g.transb, m: gm, n: gn, k: gk, alpha: al, beta: be, lds: g.lds, types: [atype, btype, ctype, compute], batch, count: g.size };
            // SAFETY: as above.
            unsafe { gemm_ex::gemm_ex(call(h, NAME)?, x) }?;
        }
        Ok(())
    }
}
