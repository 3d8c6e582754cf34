//! LAPACK's factorizations and eigen/singular value drivers, per element type, from the
//! same OpenBLAS (which bundles LAPACK). Fortran interface: every argument by reference;
//! real and complex routines differ where LAPACK's do (`rwork` arguments).

use std::ffi::{c_char, c_int, c_void};

use crate::openblas::get;

type P = *const c_void;
type M = *mut c_void;
type Ch = *const c_char;
type I = *const c_int;
type O = *mut c_int;

pub type PotrfFn = unsafe extern "C" fn(Ch, I, M, I, O);
pub type PotrsFn = unsafe extern "C" fn(Ch, I, I, P, I, M, I, O);
pub type GeqrfFn = unsafe extern "C" fn(I, I, M, I, M, M, I, O);
pub type OrgqrFn = unsafe extern "C" fn(I, I, I, M, I, P, M, I, O);
pub type OrmqrFn = unsafe extern "C" fn(Ch, Ch, I, I, I, P, I, P, M, I, M, I, O);
pub type GesvdRealFn = unsafe extern "C" fn(Ch, Ch, I, I, M, I, M, M, I, M, I, M, I, O);
pub type GesvdComplexFn = unsafe extern "C" fn(Ch, Ch, I, I, M, I, M, M, I, M, I, M, I, M, O);
pub type SyevdFn = unsafe extern "C" fn(Ch, Ch, I, M, I, M, M, I, O, I, O);
pub type HeevdFn = unsafe extern "C" fn(Ch, Ch, I, M, I, M, M, I, M, I, O, I, O);
pub type SytrfFn = unsafe extern "C" fn(Ch, I, M, I, O, M, I, O);
pub type GebrdFn = unsafe extern "C" fn(I, I, M, I, M, M, M, M, M, I, O);
/// `?geev_` real: `(jobvl, jobvr, n, a, lda, wr, wi, vl, ldvl, vr, ldvr, work, lwork, info)`.
pub type GeevRealFn = unsafe extern "C" fn(Ch, Ch, I, M, I, M, M, M, I, M, I, M, I, O);
/// `?geev_` complex: `(jobvl, jobvr, n, a, lda, w, vl, ldvl, vr, ldvr, work, lwork, rwork, info)`.
pub type GeevComplexFn = unsafe extern "C" fn(Ch, Ch, I, M, I, M, M, I, M, I, M, I, M, O);

/// The LAPACK routines of one element type.
pub struct Lapack {
    pub potrf: PotrfFn,
    pub potrs: PotrsFn,
    pub geqrf: GeqrfFn,
    /// `?orgqr_` (real) / `?ungqr_` (complex).
    pub orgqr: OrgqrFn,
    /// `?ormqr_` (real) / `?unmqr_` (complex).
    pub ormqr: OrmqrFn,
    pub gesvd_real: Option<GesvdRealFn>,
    pub gesvd_complex: Option<GesvdComplexFn>,
    /// `?syevd_` (real).
    pub syevd: Option<SyevdFn>,
    /// `?heevd_` (complex).
    pub heevd: Option<HeevdFn>,
    pub sytrf: SytrfFn,
    pub gebrd: GebrdFn,
    pub geev_real: Option<GeevRealFn>,
    pub geev_complex: Option<GeevComplexFn>,
}

/// Resolves the LAPACK routines of prefix `p` in `lib`.
pub fn lapack(lib: &libloading::Library, p: char) -> Result<Lapack, String> {
    let complex = matches!(p, 'c' | 'z');
    let n = |base: &str| format!("{p}{base}_");
    Ok(Lapack {
        potrf: get(lib, &n("potrf"))?,
        potrs: get(lib, &n("potrs"))?,
        geqrf: get(lib, &n("geqrf"))?,
        orgqr: get(lib, &n(if complex { "ungqr" } else { "orgqr" }))?,
        ormqr: get(lib, &n(if complex { "unmqr" } else { "ormqr" }))?,
        gesvd_real: if complex { None } else { Some(get(lib, &n("gesvd"))?) },
        gesvd_complex: if complex { Some(get(lib, &n("gesvd"))?) } else { None },
        syevd: if complex { None } else { Some(get(lib, &n("syevd"))?) },
        heevd: if complex { Some(get(lib, &n("heevd"))?) } else { None },
        sytrf: get(lib, &n("sytrf"))?,
        gebrd: get(lib, &n("gebrd"))?,
        geev_real: if complex { None } else { Some(get(lib, &n("geev"))?) },
        geev_complex: if complex { Some(get(lib, &n("geev"))?) } else { None },
    })
}
