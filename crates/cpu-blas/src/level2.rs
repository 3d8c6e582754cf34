//! BLAS level 2's banded, packed and rank-1/rank-2 routines, per element type: the
//! ones cuBLAS exposes beyond `gemv`/`ger`/`symv`/`trsv`. Fortran interface, every
//! argument by reference. Where cuBLAS has a complex symmetric variant (`Csyr`, `Csyr2`,
//! `Csymv`), OpenBLAS's LAPACK-style extension of that name serves it.

use std::ffi::{c_char, c_int, c_void};

use crate::openblas::get;

type P = *const c_void;
type M = *mut c_void;
type Ch = *const c_char;
type I = *const c_int;

pub type GbmvFn = unsafe extern "C" fn(Ch, I, I, I, I, P, P, I, P, I, P, M, I);
pub type TbFn = unsafe extern "C" fn(Ch, Ch, Ch, I, I, P, I, M, I);
pub type TpFn = unsafe extern "C" fn(Ch, Ch, Ch, I, P, M, I);
pub type SpmvFn = unsafe extern "C" fn(Ch, I, P, P, P, I, P, M, I);
pub type SprFn = unsafe extern "C" fn(Ch, I, P, P, I, M);
pub type Spr2Fn = unsafe extern "C" fn(Ch, I, P, P, I, P, I, M);
pub type SyrFn = unsafe extern "C" fn(Ch, I, P, P, I, M, I);
pub type Syr2Fn = unsafe extern "C" fn(Ch, I, P, P, I, P, I, M, I);
pub type SymvFn = unsafe extern "C" fn(Ch, I, P, P, I, P, I, P, M, I);

/// The routines of one element type.
pub struct Level2 {
    pub gbmv: GbmvFn,
    pub tbmv: TbFn,
    pub tbsv: TbFn,
    pub tpmv: TpFn,
    pub tpsv: TpFn,
    /// `?spmv_` (real) / `?hpmv_` (complex).
    pub spmv: SpmvFn,
    /// `?spr_` (real) / `?hpr_` (complex, real `alpha`).
    pub spr: SprFn,
    /// `?spr2_` / `?hpr2_`.
    pub spr2: Spr2Fn,
    /// `?syr_` (symmetric, every type).
    pub syr: SyrFn,
    /// `?her_` (complex, real `alpha`).
    pub her: Option<SyrFn>,
    pub syr2: Syr2Fn,
    pub her2: Option<Syr2Fn>,
    /// `?symv_` for complex types (the real ones are `Routines::symv`).
    pub csymv: Option<SymvFn>,
}

/// Resolves prefix `p`'s routines in `lib`.
pub fn level2(lib: &libloading::Library, p: char) -> Result<Level2, String> {
    let complex = matches!(p, 'c' | 'z');
    let n = |base: &str| format!("{p}{base}_");
    Ok(Level2 {
        gbmv: get(lib, &n("gbmv"))?,
        tbmv: get(lib, &n("tbmv"))?,
        tbsv: get(lib, &n("tbsv"))?,
        tpmv: get(lib, &n("tpmv"))?,
        tpsv: get(lib, &n("tpsv"))?,
        spmv: get(lib, &n(if complex { "hpmv" } else { "spmv" }))?,
        spr: get(lib, &n(if complex { "hpr" } else { "spr" }))?,
        spr2: get(lib, &n(if complex { "hpr2" } else { "spr2" }))?,
        syr: get(lib, &n("syr"))?,
        her: if complex { Some(get(lib, &n("her"))?) } else { None },
        syr2: get(lib, &n("syr2"))?,
        her2: if complex { Some(get(lib, &n("her2"))?) } else { None },
        csymv: if complex { Some(get(lib, &n("symv"))?) } else { None },
    })
}
