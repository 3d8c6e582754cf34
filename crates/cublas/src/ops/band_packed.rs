//! Level 2's banded and packed routines (`gbmv`, `tbmv`, `tbsv`, `tpmv`, `tpsv`,
//! `spmv`/`hpmv`, `spr`/`hpr`, `spr2`/`hpr2`) and the rank updates `syr`/`her`,
//! `syr2`/`her2`, with cuBLAS's argument checks (a leading dimension below the band's
//! rows, negative sizes or zero increments are `CUBLAS_STATUS_INVALID_VALUE`).

use super::{ch, ensure, least_ld, Call, Elem};
use crate::operand::{view, Host};
use crate::status::BlasResult;
use crate::types::{Diag, Fill, Op};

/// Elements of a packed `n` x `n` triangle.
fn packed(n: i32) -> usize {
    n.max(0) as usize * (n.max(0) as usize + 1) / 2
}

/// `y = alpha op(A) x + beta y` with `A` an `m` x `n` band of `kl` sub- and `ku`
/// super-diagonals.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?gbmv's parameters")]
pub unsafe fn gbmv<T: Elem>(
    call: Call,
    trans: i32,
    (m, n, kl, ku): (i32, i32, i32, i32),
    alpha: *const T,
    a: *const T,
    lda: i32,
    x: *const T,
    incx: i32,
    beta: *const T,
    y: *mut T,
    incy: i32,
) -> BlasResult {
    let op = Op::from_c(trans)?;
    ensure!(m >= 0 && n >= 0 && kl >= 0 && ku >= 0, "{}: m={m} n={n} kl={kl} ku={ku}", call.name);
    ensure!(lda > kl + ku, "{}: lda={lda} < kl+ku+1", call.name);
    ensure!(incx != 0 && incy != 0, "{}: incx={incx} incy={incy}", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (xlen, ylen) = if op == Op::N { (n, m) } else { (m, n) };
    let ha = call.matrix(a, kl + ku + 1, n, lda, "A")?;
    let (hx, hy) = (call.vector(x, xlen, incx, "x")?, call.vector(y, ylen, incy, "y")?);
    call.queue(move |b| {
        let (al, be, t) = (alpha.get(), beta.get(), op.blas());
        // SAFETY: every extent was checked.
        unsafe {
            (T::level2(b).gbmv)(
                ch(&t),
                &m,
                &n,
                &kl,
                &ku,
                (&al as *const T).cast(),
                ha.ptr(),
                &lda,
                hx.ptr(),
                &incx,
                (&be as *const T).cast(),
                hy.ptr(),
                &incy,
            )
        }
    })
}

/// Where a triangular operand is stored.
#[derive(Clone, Copy)]
pub enum TriStorage {
    /// Band storage with `k` off-diagonals (`tbmv`, `tbsv`).
    Band { k: i32, lda: i32 },
    /// Packed storage (`tpmv`, `tpsv`).
    Packed,
}

/// `x = op(A) x` (`solve`: `op(A)^-1 x`) for a banded or packed triangular `A`.
#[allow(clippy::too_many_arguments, reason = "cublas?tbsv's parameters")]
pub fn triangular<T: Elem>(
    call: Call,
    solve: bool,
    uplo: i32,
    trans: i32,
    diag: i32,
    n: i32,
    storage: TriStorage,
    a: *const T,
    x: *mut T,
    incx: i32,
) -> BlasResult {
    let (fill, op, diag) = (Fill::from_c(uplo)?, Op::from_c(trans)?, Diag::from_c(diag)?);
    ensure!(n >= 0, "{}: n={n}", call.name);
    if let TriStorage::Band { k, lda } = storage {
        ensure!(k >= 0 && lda > k, "{}: k={k} lda={lda}", call.name);
    }
    ensure!(incx != 0, "{}: incx=0", call.name);
    if n == 0 {
        return Ok(());
    }
    let ha = match storage {
        TriStorage::Band { k, lda } => call.matrix(a, k + 1, n, lda, "A")?,
        TriStorage::Packed => view::<T>(a as u64, packed(n), &format!("{}: AP", call.name))?,
    };
    let hx = call.vector(x, n, incx, "x")?;
    call.queue(move |b| {
        let (u, t, d) = (fill.blas(), op.blas(), diag.blas());
        let l2 = T::level2(b);
        // SAFETY: both extents were checked.
        unsafe {
            match storage {
                TriStorage::Band { k, lda } => {
                    let f = if solve { l2.tbsv } else { l2.tbmv };
                    f(ch(&u), ch(&t), ch(&d), &n, &k, ha.ptr(), &lda, hx.ptr(), &incx)
                }
                TriStorage::Packed => {
                    let f = if solve { l2.tpsv } else { l2.tpmv };
                    f(ch(&u), ch(&t), ch(&d), &n, ha.ptr(), hx.ptr(), &incx)
                }
            }
        }
    })
}

/// `y = alpha A x + beta y` with `A` symmetric (`spmv`) or Hermitian (`hpmv`), packed.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?spmv's parameters")]
pub unsafe fn spmv<T: Elem>(
    call: Call,
    uplo: i32,
    n: i32,
    alpha: *const T,
    ap: *const T,
    x: *const T,
    incx: i32,
    beta: *const T,
    y: *mut T,
    incy: i32,
) -> BlasResult {
    let fill = Fill::from_c(uplo)?;
    ensure!(n >= 0, "{}: n={n}", call.name);
    ensure!(incx != 0 && incy != 0, "{}: incx={incx} incy={incy}", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if n == 0 {
        return Ok(());
    }
    let ha = view::<T>(ap as u64, packed(n), &format!("{}: AP", call.name))?;
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    call.queue(move |b| {
        let (al, be, u) = (alpha.get(), beta.get(), fill.blas());
        // SAFETY: every extent was checked.
        unsafe { (T::level2(b).spmv)(ch(&u), &n, (&al as *const T).cast(), ha.ptr(), hx.ptr(), &incx, (&be as *const T).cast(), hy.ptr(), &incy) }
    })
}

/// Which rank update, and where `A` is.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Update {
    /// `syr`/`her` (`A += alpha x x^T` / `x x^H`), full storage.
    One { lda: i32 },
    /// `syr2`/`her2`, full storage.
    Two { lda: i32 },
    /// `spr`/`hpr`, packed.
    OnePacked,
    /// `spr2`/`hpr2`, packed.
    TwoPacked,
}

/// The rank-1 and rank-2 updates. `hermitian` picks `her*`/`hpr*` (for `her`/`hpr` the
/// scalar `S` is `T::Real`); `S` is `T` otherwise.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?syr2's parameters")]
pub unsafe fn update<T: Elem, S: Copy + Send + 'static>(
    call: Call,
    which: Update,
    hermitian: bool,
    uplo: i32,
    n: i32,
    alpha: *const S,
    x: *const T,
    incx: i32,
    y: *const T,
    incy: i32,
    a: *mut T,
) -> BlasResult {
    let fill = Fill::from_c(uplo)?;
    let two = matches!(which, Update::Two { .. } | Update::TwoPacked);
    ensure!(n >= 0, "{}: n={n}", call.name);
    ensure!(incx != 0 && (!two || incy != 0), "{}: incx={incx} incy={incy}", call.name);
    if let Update::One { lda } | Update::Two { lda } = which {
        ensure!(lda >= least_ld(n), "{}: lda={lda} < max(1, n={n})", call.name);
    }
    // SAFETY: forwarded.
    let alpha = unsafe { call.scalar(alpha, "alpha") }?;
    if n == 0 {
        return Ok(());
    }
    let hx = call.vector(x, n, incx, "x")?;
    let hy = if two { call.vector(y, n, incy, "y")? } else { Host(0) };
    let ha = match which {
        Update::One { lda } | Update::Two { lda } => call.matrix(a, n, n, lda, "A")?,
        Update::OnePacked | Update::TwoPacked => view::<T>(a as u64, packed(n), &format!("{}: AP", call.name))?,
    };
    call.queue(move |b| {
        let (al, u) = (alpha.get(), fill.blas());
        let alp = (&al as *const S).cast();
        let l2 = T::level2(b);
        // SAFETY: every extent was checked; `alpha` has the routine's scalar type.
        unsafe {
            match which {
                Update::One { lda } => (if hermitian { l2.her.expect("complex") } else { l2.syr })(ch(&u), &n, alp, hx.ptr(), &incx, ha.ptr(), &lda),
                Update::Two { lda } => {
                    (if hermitian { l2.her2.expect("complex") } else { l2.syr2 })(ch(&u), &n, alp, hx.ptr(), &incx, hy.ptr(), &incy, ha.ptr(), &lda)
                }
                Update::OnePacked => (l2.spr)(ch(&u), &n, alp, hx.ptr(), &incx, ha.ptr()),
                Update::TwoPacked => (l2.spr2)(ch(&u), &n, alp, hx.ptr(), &incx, hy.ptr(), &incy, ha.ptr()),
            }
        }
    })
}
