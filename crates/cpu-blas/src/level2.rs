//! BLAS level 2's banded, packed and rank-1/rank-2 routines, per element type: the
//! ones cuBLAS exposes beyond `gemv`/`ger`/`symv`/`trsv`. Fortran interface, every
//! argument by reference. Where cuBLAS has a complex symmetric variant (`Csyr`, `Csyr2`,
//! `Csymv`), OpenBLAS's LAPACK-style extension of that name serves it.

use std::ffi::{c_char, c_int, c_void};

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

/// Resolves prefix `p`'s routines with `get`.
pub fn level2(get: &dyn Fn(&str) -> Result<*const (), String>, p: char) -> Result<Level2, String> {
    let complex = matches!(p, 'c' | 'z');
    let n = |base: &str| format!("{p}{base}_");
    // SAFETY (every transmute below): the symbol is the BLAS routine of that name, whose
    // Fortran signature the target function type spells.
    macro_rules! f {
        ($name:expr) => {
            unsafe { std::mem::transmute::<*const (), _>(get(&$name)?) }
        };
    }
    Ok(Level2 {
        gbmv: f!(n("gbmv")),
        tbmv: f!(n("tbmv")),
        tbsv: f!(n("tbsv")),
        tpmv: f!(n("tpmv")),
        tpsv: f!(n("tpsv")),
        spmv: f!(n(if complex { "hpmv" } else { "spmv" })),
        spr: f!(n(if complex { "hpr" } else { "spr" })),
        spr2: f!(n(if complex { "hpr2" } else { "spr2" })),
        syr: f!(n("syr")),
        her: if complex { Some(f!(n("her"))) } else { None },
        syr2: f!(n("syr2")),
        her2: if complex { Some(f!(n("her2"))) } else { None },
        csymv: if complex { Some(f!(n("symv"))) } else { None },
    })
}
