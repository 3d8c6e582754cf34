//! `cusolverDn?...` exports for the four element types.

use std::ffi::{c_char, c_int};

use super::{no_workspace, typed, Handle, C32, C64};
use crate::dense::{eigen, factor, geev, qr, svd, Call};
use crate::handle;

fn call(h: Handle, name: &'static str) -> crate::status::SolverResult<Call> {
    Call::new(h as usize, name)
}

typed! {
    [cusolverDnSgetrf_bufferSize: f32, cusolverDnDgetrf_bufferSize: f64, cusolverDnCgetrf_bufferSize: C32, cusolverDnZgetrf_bufferSize: C64]
    fn(h: Handle, _m: c_int, _n: c_int, _a: *mut T, _lda: c_int, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSgetrf: f32, cusolverDnDgetrf: f64, cusolverDnCgetrf: C32, cusolverDnZgetrf: C64]
    fn(h: Handle, m: c_int, n: c_int, a: *mut T, lda: c_int, _work: *mut T, ipiv: *mut c_int, info: *mut c_int) {
        factor::getrf::<T>(call(h, NAME)?, m, n, a, lda, ipiv, info)
    }
}

typed! {
    [cusolverDnSgetrs: f32, cusolverDnDgetrs: f64, cusolverDnCgetrs: C32, cusolverDnZgetrs: C64]
    fn(h: Handle, trans: c_int, n: c_int, nrhs: c_int, a: *const T, lda: c_int, ipiv: *const c_int, b: *mut T, ldb: c_int, info: *mut c_int) {
        factor::getrs::<T>(call(h, NAME)?, trans, n, nrhs, a, lda, ipiv, b, ldb, info)
    }
}

typed! {
    [cusolverDnSpotrf_bufferSize: f32, cusolverDnDpotrf_bufferSize: f64, cusolverDnCpotrf_bufferSize: C32, cusolverDnZpotrf_bufferSize: C64]
    fn(h: Handle, _uplo: c_int, _n: c_int, _a: *mut T, _lda: c_int, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSpotrf: f32, cusolverDnDpotrf: f64, cusolverDnCpotrf: C32, cusolverDnZpotrf: C64]
    fn(h: Handle, uplo: c_int, n: c_int, a: *mut T, lda: c_int, _work: *mut T, _lwork: c_int, info: *mut c_int) {
        factor::potrf::<T>(call(h, NAME)?, uplo, n, a, lda, info)
    }
}

typed! {
    [cusolverDnSpotrs: f32, cusolverDnDpotrs: f64, cusolverDnCpotrs: C32, cusolverDnZpotrs: C64]
    fn(h: Handle, uplo: c_int, n: c_int, nrhs: c_int, a: *const T, lda: c_int, b: *mut T, ldb: c_int, info: *mut c_int) {
        factor::potrs::<T>(call(h, NAME)?, uplo, n, nrhs, a, lda, b, ldb, info)
    }
}

typed! {
    [cusolverDnSpotrfBatched: f32, cusolverDnDpotrfBatched: f64, cusolverDnCpotrfBatched: C32, cusolverDnZpotrfBatched: C64]
    fn(h: Handle, uplo: c_int, n: c_int, a: *const *mut T, lda: c_int, info: *mut c_int, count: c_int) {
        factor::potr_batched::<T>(call(h, NAME)?, uplo, n, None, a as u64, lda, 0, 0, info, count)
    }
}

typed! {
    [cusolverDnSpotrsBatched: f32, cusolverDnDpotrsBatched: f64, cusolverDnCpotrsBatched: C32, cusolverDnZpotrsBatched: C64]
    fn(h: Handle, uplo: c_int, n: c_int, nrhs: c_int, a: *const *mut T, lda: c_int, b: *const *mut T, ldb: c_int, info: *mut c_int, count: c_int) {
        factor::potr_batched::<T>(call(h, NAME)?, uplo, n, Some(nrhs), a as u64, lda, b as u64, ldb, info, count)
    }
}

typed! {
    [cusolverDnSsytrf_bufferSize: f32, cusolverDnDsytrf_bufferSize: f64, cusolverDnCsytrf_bufferSize: C32, cusolverDnZsytrf_bufferSize: C64]
    fn(h: Handle, _n: c_int, _a: *mut T, _lda: c_int, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSsytrf: f32, cusolverDnDsytrf: f64, cusolverDnCsytrf: C32, cusolverDnZsytrf: C64]
    fn(h: Handle, uplo: c_int, n: c_int, a: *mut T, lda: c_int, ipiv: *mut c_int, _work: *mut T, _lwork: c_int, info: *mut c_int) {
        factor::sytrf::<T>(call(h, NAME)?, uplo, n, a, lda, ipiv, info)
    }
}

typed! {
    [cusolverDnSgeqrf_bufferSize: f32, cusolverDnDgeqrf_bufferSize: f64, cusolverDnCgeqrf_bufferSize: C32, cusolverDnZgeqrf_bufferSize: C64]
    fn(h: Handle, _m: c_int, _n: c_int, _a: *mut T, _lda: c_int, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSgeqrf: f32, cusolverDnDgeqrf: f64, cusolverDnCgeqrf: C32, cusolverDnZgeqrf: C64]
    fn(h: Handle, m: c_int, n: c_int, a: *mut T, lda: c_int, tau: *mut T, _work: *mut T, _lwork: c_int, info: *mut c_int) {
        qr::geqrf::<T>(call(h, NAME)?, m, n, a, lda, tau, info)
    }
}

typed! {
    [cusolverDnSorgqr_bufferSize: f32, cusolverDnDorgqr_bufferSize: f64, cusolverDnCungqr_bufferSize: C32, cusolverDnZungqr_bufferSize: C64]
    fn(h: Handle, _m: c_int, _n: c_int, _k: c_int, _a: *const T, _lda: c_int, _tau: *const T, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSorgqr: f32, cusolverDnDorgqr: f64, cusolverDnCungqr: C32, cusolverDnZungqr: C64]
    fn(h: Handle, m: c_int, n: c_int, k: c_int, a: *mut T, lda: c_int, tau: *const T, _work: *mut T, _lwork: c_int, info: *mut c_int) {
        qr::orgqr::<T>(call(h, NAME)?, m, n, k, a, lda, tau, info)
    }
}

typed! {
    [cusolverDnSormqr_bufferSize: f32, cusolverDnDormqr_bufferSize: f64, cusolverDnCunmqr_bufferSize: C32, cusolverDnZunmqr_bufferSize: C64]
    fn(h: Handle, _side: c_int, _trans: c_int, _m: c_int, _n: c_int, _k: c_int, _a: *const T, _lda: c_int, _tau: *const T, _c: *const T, _ldc: c_int, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSormqr: f32, cusolverDnDormqr: f64, cusolverDnCunmqr: C32, cusolverDnZunmqr: C64]
    fn(h: Handle, side: c_int, trans: c_int, m: c_int, n: c_int, k: c_int, a: *const T, lda: c_int, tau: *const T, c: *mut T, ldc: c_int, _work: *mut T, _lwork: c_int, info: *mut c_int) {
        qr::ormqr::<T>(call(h, NAME)?, side, trans, m, n, k, a, lda, tau, c, ldc, info)
    }
}

typed! {
    [cusolverDnSgesvd_bufferSize: f32, cusolverDnDgesvd_bufferSize: f64, cusolverDnCgesvd_bufferSize: C32, cusolverDnZgesvd_bufferSize: C64]
    fn(h: Handle, _m: c_int, _n: c_int, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSgesvd: f32, cusolverDnDgesvd: f64, cusolverDnCgesvd: C32, cusolverDnZgesvd: C64]
    fn(h: Handle, jobu: c_char, jobvt: c_char, m: c_int, n: c_int, a: *mut T, lda: c_int, s: *mut R, u: *mut T, ldu: c_int, vt: *mut T, ldvt: c_int, _work: *mut T, _lwork: c_int, _rwork: *mut R, info: *mut c_int) {
        svd::gesvd::<T>(call(h, NAME)?, jobu as u8, jobvt as u8, m, n, a, lda, s, u, ldu, vt, ldvt, info)
    }
}

typed! {
    [cusolverDnSgebrd_bufferSize: f32, cusolverDnDgebrd_bufferSize: f64, cusolverDnCgebrd_bufferSize: C32, cusolverDnZgebrd_bufferSize: C64]
    fn(h: Handle, _m: c_int, _n: c_int, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSgebrd: f32, cusolverDnDgebrd: f64, cusolverDnCgebrd: C32, cusolverDnZgebrd: C64]
    fn(h: Handle, m: c_int, n: c_int, a: *mut T, lda: c_int, d: *mut R, e: *mut R, tauq: *mut T, taup: *mut T, _work: *mut T, _lwork: c_int, info: *mut c_int) {
        svd::gebrd::<T>(call(h, NAME)?, m, n, a, lda, d, e, tauq, taup, info)
    }
}

typed! {
    [cusolverDnSsyevd_bufferSize: f32, cusolverDnDsyevd_bufferSize: f64, cusolverDnCheevd_bufferSize: C32, cusolverDnZheevd_bufferSize: C64]
    fn(h: Handle, _jobz: c_int, _uplo: c_int, _n: c_int, _a: *const T, _lda: c_int, _w: *const R, lwork: *mut c_int) {
        handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSsyevd: f32, cusolverDnDsyevd: f64, cusolverDnCheevd: C32, cusolverDnZheevd: C64]
    fn(h: Handle, jobz: c_int, uplo: c_int, n: c_int, a: *mut T, lda: c_int, w: *mut R, _work: *mut T, _lwork: c_int, info: *mut c_int) {
        eigen::syevd::<T>(call(h, NAME)?, jobz, uplo, n, a, lda, w, info, 1)
    }
}

typed! {
    [cusolverDnSsyevj_bufferSize: f32, cusolverDnDsyevj_bufferSize: f64, cusolverDnCheevj_bufferSize: C32, cusolverDnZheevj_bufferSize: C64]
    fn(h: Handle, _jobz: c_int, _uplo: c_int, _n: c_int, _a: *const T, _lda: c_int, _w: *const R, lwork: *mut c_int, params: Handle) {
        handle::dense_stream(h as usize)?;
        handle::jacobi(params as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSsyevj: f32, cusolverDnDsyevj: f64, cusolverDnCheevj: C32, cusolverDnZheevj: C64]
    fn(h: Handle, jobz: c_int, uplo: c_int, n: c_int, a: *mut T, lda: c_int, w: *mut R, _work: *mut T, _lwork: c_int, info: *mut c_int, params: Handle) {
        handle::jacobi(params as usize)?;
        eigen::syevd::<T>(call(h, NAME)?, jobz, uplo, n, a, lda, w, info, 1)
    }
}

typed! {
    [cusolverDnSsyevjBatched_bufferSize: f32, cusolverDnDsyevjBatched_bufferSize: f64, cusolverDnCheevjBatched_bufferSize: C32, cusolverDnZheevjBatched_bufferSize: C64]
    fn(h: Handle, _jobz: c_int, _uplo: c_int, _n: c_int, _a: *const T, _lda: c_int, _w: *const R, lwork: *mut c_int, params: Handle, _count: c_int) {
        handle::dense_stream(h as usize)?;
        handle::jacobi(params as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSsyevjBatched: f32, cusolverDnDsyevjBatched: f64, cusolverDnCheevjBatched: C32, cusolverDnZheevjBatched: C64]
    fn(h: Handle, jobz: c_int, uplo: c_int, n: c_int, a: *mut T, lda: c_int, w: *mut R, _work: *mut T, _lwork: c_int, info: *mut c_int, params: Handle, count: c_int) {
        handle::jacobi(params as usize)?;
        eigen::syevd::<T>(call(h, NAME)?, jobz, uplo, n, a, lda, w, info, count)
    }
}

/// The element type of a 64-bit API call: `cudaDataType` of `A`, which `W` (its real
/// type) and the compute type must agree with.
fn x_type(name: &str, a: c_int, w: c_int, compute: c_int) -> crate::status::SolverResult<usize> {
    // (A, W) per prefix s, d, c, z: CUDA_R_32F 0, R_64F 1, C_32F 4, C_64F 5.
    const TYPES: [(c_int, c_int); 4] = [(0, 0), (1, 1), (4, 0), (5, 1)];
    TYPES
        .iter()
        .position(|&(ta, tw)| ta == a && tw == w && compute == a)
        // NVIDIA's answer for types it does not take (measured): INVALID_VALUE.
        .ok_or_else(|| crate::status::fail(crate::status::INVALID_VALUE, format_args!("{name}: dataTypeA={a} dataTypeW={w} computeType={compute}")))
}

/// An `int64_t` size as the 32-bit LAPACK integer.
fn i32_of(name: &str, v: i64) -> crate::status::SolverResult<i32> {
    i32::try_from(v).map_err(|_| crate::status::fail(crate::status::NOT_SUPPORTED, format_args!("{name}: {v} exceeds LAPACK's 32-bit sizes")))
}

super::export! {
    /// `cusolverDnXsyevd_bufferSize(handle, params, jobz, uplo, n, dataTypeA, A, lda,
    /// dataTypeW, W, computeType, size_t* deviceBytes, size_t* hostBytes)`: no workspace.
    fn cusolverDnXsyevd_bufferSize(h: Handle, params: Handle, _jobz: c_int, _uplo: c_int, _n: i64, ta: c_int, _a: *const std::ffi::c_void, _lda: i64, tw: c_int, _w: *const std::ffi::c_void, compute: c_int, device_bytes: *mut usize, host_bytes: *mut usize) {
        handle::dense_stream(h as usize)?;
        handle::get(params as usize)?;
        x_type("cusolverDnXsyevd_bufferSize", ta, tw, compute)?;
        if device_bytes.is_null() || host_bytes.is_null() {
            return Err(crate::status::fail(crate::status::INVALID_VALUE, format_args!("cusolverDnXsyevd_bufferSize: NULL size pointer")));
        }
        // SAFETY: non-NULL, per the API writable.
        unsafe { (device_bytes.write(0), host_bytes.write(0)) };
        Ok(())
    }

    /// `cusolverDnXsyevd(...)`: the 64-bit API's `syevd`, any of the four types.
    fn cusolverDnXsyevd(h: Handle, params: Handle, jobz: c_int, uplo: c_int, n: i64, ta: c_int, a: *mut std::ffi::c_void, lda: i64, tw: c_int, w: *mut std::ffi::c_void, compute: c_int, _dev: *mut std::ffi::c_void, _dev_bytes: usize, _host: *mut std::ffi::c_void, _host_bytes: usize, info: *mut c_int) {
        const NAME: &str = "cusolverDnXsyevd";
        handle::get(params as usize)?;
        let (n, lda) = (i32_of(NAME, n)?, i32_of(NAME, lda)?);
        let c = call(h, NAME)?;
        match x_type(NAME, ta, tw, compute)? {
            0 => eigen::syevd::<f32>(c, jobz, uplo, n, a.cast(), lda, w.cast(), info, 1),
            1 => eigen::syevd::<f64>(c, jobz, uplo, n, a.cast(), lda, w.cast(), info, 1),
            2 => eigen::syevd::<C32>(c, jobz, uplo, n, a.cast(), lda, w.cast(), info, 1),
            _ => eigen::syevd::<C64>(c, jobz, uplo, n, a.cast(), lda, w.cast(), info, 1),
        }
    }
}

typed! {
    [cusolverDnSgesvdj_bufferSize: f32, cusolverDnDgesvdj_bufferSize: f64, cusolverDnCgesvdj_bufferSize: C32, cusolverDnZgesvdj_bufferSize: C64]
    fn(h: Handle, _jobz: c_int, _econ: c_int, _m: c_int, _n: c_int, _a: *const T, _lda: c_int, _s: *const R, _u: *const T, _ldu: c_int, _v: *const T, _ldv: c_int, lwork: *mut c_int, params: Handle) {
        handle::dense_stream(h as usize)?;
        handle::jacobi(params as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSgesvdj: f32, cusolverDnDgesvdj: f64, cusolverDnCgesvdj: C32, cusolverDnZgesvdj: C64]
    fn(h: Handle, jobz: c_int, econ: c_int, m: c_int, n: c_int, a: *mut T, lda: c_int, s: *mut R, u: *mut T, ldu: c_int, v: *mut T, ldv: c_int, _work: *mut T, _lwork: c_int, info: *mut c_int, params: Handle) {
        handle::jacobi(params as usize)?;
        let vectors = eigen::jobz(jobz)? == b'V';
        svd::gesvdj::<T>(call(h, NAME)?, vectors, econ != 0, m, n, a, lda, s, (u, ldu), (v, ldv), info, None)
    }
}

typed! {
    [cusolverDnSgesvdjBatched_bufferSize: f32, cusolverDnDgesvdjBatched_bufferSize: f64, cusolverDnCgesvdjBatched_bufferSize: C32, cusolverDnZgesvdjBatched_bufferSize: C64]
    fn(h: Handle, _jobz: c_int, _m: c_int, _n: c_int, _a: *const T, _lda: c_int, _s: *const R, _u: *const T, _ldu: c_int, _v: *const T, _ldv: c_int, lwork: *mut c_int, params: Handle, _count: c_int) {
        handle::dense_stream(h as usize)?;
        handle::jacobi(params as usize)?;
        // SAFETY: per the API.
        unsafe { no_workspace(lwork) }
    }
}

typed! {
    [cusolverDnSgesvdjBatched: f32, cusolverDnDgesvdjBatched: f64, cusolverDnCgesvdjBatched: C32, cusolverDnZgesvdjBatched: C64]
    fn(h: Handle, jobz: c_int, m: c_int, n: c_int, a: *mut T, lda: c_int, s: *mut R, u: *mut T, ldu: c_int, v: *mut T, ldv: c_int, _work: *mut T, _lwork: c_int, info: *mut c_int, params: Handle, count: c_int) {
        handle::jacobi(params as usize)?;
        let vectors = eigen::jobz(jobz)? == b'V';
        svd::gesvdj::<T>(call(h, NAME)?, vectors, false, m, n, a, lda, s, (u, ldu), (v, ldv), info, Some(count))
    }
}

super::export! {
    /// `cusolverDnXgeev_bufferSize(handle, params, jobvl, jobvr, n, dataTypeA, A, lda,
    /// dataTypeW, W, dataTypeVL, VL, ldvl, dataTypeVR, VR, ldvr, computeType, size_t*
    /// deviceBytes, size_t* hostBytes)`: no workspace.
    fn cusolverDnXgeev_bufferSize(h: Handle, params: Handle, _jobvl: c_int, _jobvr: c_int, _n: i64, ta: c_int, _a: *const std::ffi::c_void, _lda: i64, tw: c_int, _w: *const std::ffi::c_void, _tvl: c_int, _vl: *const std::ffi::c_void, _ldvl: i64, tvr: c_int, _vr: *const std::ffi::c_void, _ldvr: i64, compute: c_int, device_bytes: *mut usize, host_bytes: *mut usize) {
        handle::dense_stream(h as usize)?;
        handle::get(params as usize)?;
        geev_type("cusolverDnXgeev_bufferSize", ta, tw, tvr, compute)?;
        if device_bytes.is_null() || host_bytes.is_null() {
            return Err(crate::status::fail(crate::status::INVALID_VALUE, format_args!("cusolverDnXgeev_bufferSize: NULL size pointer")));
        }
        // SAFETY: non-NULL, per the API writable.
        unsafe { (device_bytes.write(0), host_bytes.write(0)) };
        Ok(())
    }

    /// `cusolverDnXgeev(...)`: the general eigenproblem (right eigenvectors only).
    fn cusolverDnXgeev(h: Handle, params: Handle, jobvl: c_int, jobvr: c_int, n: i64, ta: c_int, a: *mut std::ffi::c_void, lda: i64, tw: c_int, w: *mut std::ffi::c_void, _tvl: c_int, _vl: *mut std::ffi::c_void, _ldvl: i64, tvr: c_int, vr: *mut std::ffi::c_void, ldvr: i64, compute: c_int, _dev: *mut std::ffi::c_void, _dev_bytes: usize, _host: *mut std::ffi::c_void, _host_bytes: usize, info: *mut c_int) {
        const NAME: &str = "cusolverDnXgeev";
        handle::get(params as usize)?;
        let (n, lda, ldvr) = (i32_of(NAME, n)?, i32_of(NAME, lda)?, i32_of(NAME, ldvr)?);
        let c = call(h, NAME)?;
        match geev_type(NAME, ta, tw, tvr, compute)? {
            0 => geev::geev::<f32>(c, jobvl, jobvr, n, a.cast(), lda, w.cast(), vr.cast(), ldvr, info),
            1 => geev::geev::<f64>(c, jobvl, jobvr, n, a.cast(), lda, w.cast(), vr.cast(), ldvr, info),
            2 => geev::geev::<C32>(c, jobvl, jobvr, n, a.cast(), lda, w.cast(), vr.cast(), ldvr, info),
            _ => geev::geev::<C64>(c, jobvl, jobvr, n, a.cast(), lda, w.cast(), vr.cast(), ldvr, info),
        }
    }
}

/// `Xgeev`'s element type: `A`, `VR` and the compute type agree; `W` is the complex type
/// of `A`'s precision (CUDA_R_32F 0, R_64F 1, C_32F 4, C_64F 5).
fn geev_type(name: &str, a: c_int, w: c_int, vr: c_int, compute: c_int) -> crate::status::SolverResult<usize> {
    const TYPES: [(c_int, c_int); 4] = [(0, 4), (1, 5), (4, 4), (5, 5)];
    TYPES.iter().position(|&(ta, tw)| ta == a && tw == w && vr == a && compute == a).ok_or_else(|| {
        crate::status::fail(crate::status::INVALID_VALUE, format_args!("{name}: dataTypeA={a} dataTypeW={w} dataTypeVR={vr} computeType={compute}"))
    })
}
