//! The BLAS element types: `f32`, `f64`, `C32`, `C64` (prefixes `s`, `d`, `c`, `z`).

use crate::openblas::{OpenBlas, Routines};

/// `cuComplex` / `cuDoubleComplex`: `{re, im}`.
pub type C32 = [f32; 2];
pub type C64 = [f64; 2];

/// Element arithmetic for the loops that BLAS does not cover.
pub trait Arith: Copy + Default {
    fn one() -> Self;
    fn mul(self, o: Self) -> Self;
    fn add(self, o: Self) -> Self;
    fn sub(self, o: Self) -> Self;
    fn conj(self) -> Self;
    fn recip(self) -> Self;
    fn is_zero(self) -> bool;
}

macro_rules! real_arith {
    ($t:ty) => {
        impl Arith for $t {
            fn one() -> Self {
                1.0
            }
            fn mul(self, o: Self) -> Self {
                self * o
            }
            fn add(self, o: Self) -> Self {
                self + o
            }
            fn sub(self, o: Self) -> Self {
                self - o
            }
            fn conj(self) -> Self {
                self
            }
            fn recip(self) -> Self {
                1.0 / self
            }
            fn is_zero(self) -> bool {
                self == 0.0
            }
        }
    };
}
macro_rules! complex_arith {
    ($t:ty) => {
        impl Arith for $t {
            fn one() -> Self {
                [1.0, 0.0]
            }
            fn mul(self, o: Self) -> Self {
                [self[0] * o[0] - self[1] * o[1], self[0] * o[1] + self[1] * o[0]]
            }
            fn add(self, o: Self) -> Self {
                [self[0] + o[0], self[1] + o[1]]
            }
            fn sub(self, o: Self) -> Self {
                [self[0] - o[0], self[1] - o[1]]
            }
            fn conj(self) -> Self {
                [self[0], -self[1]]
            }
            fn recip(self) -> Self {
                let d = self[0] * self[0] + self[1] * self[1];
                [self[0] / d, -self[1] / d]
            }
            fn is_zero(self) -> bool {
                self[0] == 0.0 && self[1] == 0.0
            }
        }
    };
}
real_arith!(f32);
real_arith!(f64);
complex_arith!(C32);
complex_arith!(C64);

/// An element type of the BLAS routines: `s`, `d`, `c` or `z`.
pub trait Elem: Arith + Send + Sync + 'static {
    /// Index into [`OpenBlas::routines`].
    const PREFIX: usize;
    const COMPLEX: bool;
    /// The type of norms and of the real scalars of `herk`/`her2k`/`rot`.
    type Real: Copy + Send + Sync + Default + 'static;
    fn routines(blas: &OpenBlas) -> &Routines {
        &blas.routines[Self::PREFIX]
    }
    fn lapack(blas: &OpenBlas) -> &crate::lapack::Lapack {
        &blas.lapack[Self::PREFIX]
    }
    fn level2(blas: &OpenBlas) -> &crate::level2::Level2 {
        &blas.level2[Self::PREFIX]
    }
    /// `x . y` (unconjugated).
    ///
    /// # Safety
    /// `x`/`y` span `n` elements at their increments.
    unsafe fn dotu(blas: &OpenBlas, n: i32, x: *const Self, incx: i32, y: *const Self, incy: i32) -> Self;
    /// `conj(x) . y` (the same as [`Elem::dotu`] for real types).
    ///
    /// # Safety
    /// As [`Elem::dotu`].
    unsafe fn dotc(blas: &OpenBlas, n: i32, x: *const Self, incx: i32, y: *const Self, incy: i32) -> Self;
    /// # Safety
    /// `x` spans `n` elements at `incx > 0`.
    unsafe fn nrm2(blas: &OpenBlas, n: i32, x: *const Self, incx: i32) -> Self::Real;
    /// # Safety
    /// As [`Elem::nrm2`].
    unsafe fn asum(blas: &OpenBlas, n: i32, x: *const Self, incx: i32) -> Self::Real;
}

macro_rules! real_elem {
    ($t:ty, $prefix:expr, $dot:ident, $nrm2:ident, $asum:ident) => {
        impl Elem for $t {
            const PREFIX: usize = $prefix;
            const COMPLEX: bool = false;
            type Real = $t;
            unsafe fn dotu(b: &OpenBlas, n: i32, x: *const Self, incx: i32, y: *const Self, incy: i32) -> Self {
                // SAFETY: per the caller's contract.
                unsafe { (b.reductions.$dot)(n, x, incx, y, incy) }
            }
            unsafe fn dotc(b: &OpenBlas, n: i32, x: *const Self, incx: i32, y: *const Self, incy: i32) -> Self {
                // SAFETY: per the caller's contract.
                unsafe { (b.reductions.$dot)(n, x, incx, y, incy) }
            }
            unsafe fn nrm2(b: &OpenBlas, n: i32, x: *const Self, incx: i32) -> Self::Real {
                // SAFETY: per the caller's contract.
                unsafe { (b.reductions.$nrm2)(n, x.cast(), incx) }
            }
            unsafe fn asum(b: &OpenBlas, n: i32, x: *const Self, incx: i32) -> Self::Real {
                // SAFETY: per the caller's contract.
                unsafe { (b.reductions.$asum)(n, x.cast(), incx) }
            }
        }
    };
}

macro_rules! complex_elem {
    ($t:ty, $real:ty, $prefix:expr, $dotu:ident, $dotc:ident, $nrm2:ident, $asum:ident) => {
        impl Elem for $t {
            const PREFIX: usize = $prefix;
            const COMPLEX: bool = true;
            type Real = $real;
            unsafe fn dotu(b: &OpenBlas, n: i32, x: *const Self, incx: i32, y: *const Self, incy: i32) -> Self {
                let mut r = <$t>::default();
                // SAFETY: per the caller's contract; `r` receives one complex value.
                unsafe { (b.reductions.$dotu)(n, x.cast(), incx, y.cast(), incy, (&mut r as *mut $t).cast()) };
                r
            }
            unsafe fn dotc(b: &OpenBlas, n: i32, x: *const Self, incx: i32, y: *const Self, incy: i32) -> Self {
                let mut r = <$t>::default();
                // SAFETY: as above.
                unsafe { (b.reductions.$dotc)(n, x.cast(), incx, y.cast(), incy, (&mut r as *mut $t).cast()) };
                r
            }
            unsafe fn nrm2(b: &OpenBlas, n: i32, x: *const Self, incx: i32) -> Self::Real {
                // SAFETY: per the caller's contract.
                unsafe { (b.reductions.$nrm2)(n, x.cast(), incx) }
            }
            unsafe fn asum(b: &OpenBlas, n: i32, x: *const Self, incx: i32) -> Self::Real {
                // SAFETY: per the caller's contract.
                unsafe { (b.reductions.$asum)(n, x.cast(), incx) }
            }
        }
    };
}

real_elem!(f32, 0, sdot, snrm2, sasum);
real_elem!(f64, 1, ddot, dnrm2, dasum);
complex_elem!(C32, f32, 2, cdotu, cdotc, scnrm2, scasum);
complex_elem!(C64, f64, 3, zdotu, zdotc, dznrm2, dzasum);
