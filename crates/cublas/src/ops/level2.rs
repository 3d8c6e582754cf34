//! Level 2: matrix-vector operations (`gemv`, `ger`/`geru`/`gerc`, `symv`/`hemv`,
//! `sbmv`/`hbmv`, `trmv`, `trsv`). Argument checks follow cuBLAS's documentation:
//! negative sizes, a leading dimension below the matrix's rows, or a zero increment are
//! `CUBLAS_STATUS_INVALID_VALUE`.

use super::{ch, ensure, least_ld, Call, Elem};
use crate::status::BlasResult;
use crate::types::{Diag, Fill, Op};

/// `y = alpha * op(A) x + beta * y`, `A` is `m` x `n`.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?gemv's parameters")]
pub unsafe fn gemv<T: Elem>(
    call: Call,
    trans: i32,
    m: i32,
    n: i32,
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
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    ensure!(lda >= least_ld(m), "{}: lda={lda} < max(1, m={m})", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (xlen, ylen) = if op == Op::N { (n, m) } else { (m, n) };
    let ha = call.matrix(a, m, n, lda, "A")?;
    let (hx, hy) = (call.vector(x, xlen, incx, "x")?, call.vector(y, ylen, incy, "y")?);
    if incx == 0 || incy == 0 {
        // BLAS rejects zero increments; NVIDIA's cuBLAS accepts them (measured on an
        // H200): x[0] is every element of x, and every y element is y[0].
        return call.queue(move |_| {
            let (al, be) = (alpha.get(), beta.get());
            let idx = |k: usize, inc: i32, len: i32| if inc >= 0 { k * inc as usize } else { (len as usize - 1 - k) * inc.unsigned_abs() as usize };
            for i in 0..ylen as usize {
                let mut sum = T::default();
                for j in 0..xlen as usize {
                    let (r, c) = if op == Op::N { (i, j) } else { (j, i) };
                    // SAFETY: (r, c) is inside A and idx(j) inside x, both checked.
                    let (mut aij, xj) = unsafe { (ha.ptr::<T>().add(c * lda as usize + r).read(), hx.ptr::<T>().add(idx(j, incx, xlen)).read()) };
                    if op == Op::C {
                        aij = aij.conj();
                    }
                    sum = sum.add(aij.mul(xj));
                }
                // SAFETY: idx(i) is inside y's checked extent.
                let yi = unsafe { hy.ptr::<T>().add(idx(i, incy, ylen)) };
                let old = if be.is_zero() { T::default() } else { unsafe { yi.read() }.mul(be) };
                // SAFETY: as above.
                unsafe { yi.write(al.mul(sum).add(old)) };
            }
        });
    }
    call.queue(move |b| {
        let (al, be, t) = (alpha.get(), beta.get(), op.blas());
        // SAFETY: every extent was checked.
        unsafe {
            (T::routines(b).gemv)(
                ch(&t),
                &m,
                &n,
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

/// `A += alpha * x y^T` (`conjugate`: `x y^H`), `A` is `m` x `n`.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?ger's parameters")]
pub unsafe fn ger<T: Elem>(
    call: Call,
    conjugate: bool,
    m: i32,
    n: i32,
    alpha: *const T,
    x: *const T,
    incx: i32,
    y: *const T,
    incy: i32,
    a: *mut T,
    lda: i32,
) -> BlasResult {
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    ensure!(incx != 0 && incy != 0, "{}: incx={incx} incy={incy}", call.name);
    ensure!(lda >= least_ld(m), "{}: lda={lda} < max(1, m={m})", call.name);
    // SAFETY: forwarded.
    let alpha = unsafe { call.scalar(alpha, "alpha") }?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (hx, hy, ha) = (call.vector(x, m, incx, "x")?, call.vector(y, n, incy, "y")?, call.matrix(a, m, n, lda, "A")?);
    call.queue(move |b| {
        let al = alpha.get();
        let r = T::routines(b);
        let f = if conjugate { r.gerc.unwrap_or(r.geru) } else { r.geru };
        // SAFETY: every extent was checked.
        unsafe { f(&m, &n, (&al as *const T).cast(), hx.ptr(), &incx, hy.ptr(), &incy, ha.ptr(), &lda) }
    })
}

/// `y = alpha * A x + beta * y` with `A` symmetric (`hemv` for complex types, unless
/// `complex_symmetric`: `Csymv`/`Zsymv`) and stored in its `uplo` triangle (`band = Some(k)`: `sbmv`/`hbmv`, `k` super-diagonals
/// in band storage, `lda >= k + 1`).
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?symv's parameters")]
pub unsafe fn symv<T: Elem>(
    call: Call,
    complex_symmetric: bool,
    uplo: i32,
    n: i32,
    band: Option<i32>,
    alpha: *const T,
    a: *const T,
    lda: i32,
    x: *const T,
    incx: i32,
    beta: *const T,
    y: *mut T,
    incy: i32,
) -> BlasResult {
    let fill = Fill::from_c(uplo)?;
    ensure!(n >= 0 && band.unwrap_or(0) >= 0, "{}: n={n} k={band:?}", call.name);
    let rows = band.map_or(n, |k| k + 1);
    ensure!(lda >= least_ld(rows), "{}: lda={lda} < max(1, {rows})", call.name);
    ensure!(incx != 0 && incy != 0, "{}: incx={incx} incy={incy}", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if n == 0 {
        return Ok(());
    }
    let ha = call.matrix(a, rows, n, lda, "A")?;
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    call.queue(move |b| {
        let (al, be, u) = (alpha.get(), beta.get(), fill.blas());
        let (alp, bep) = ((&al as *const T).cast(), (&be as *const T).cast());
        let r = T::routines(b);
        // SAFETY: every extent was checked.
        unsafe {
            match band {
                Some(k) => (r.sbmv)(ch(&u), &n, &k, alp, ha.ptr(), &lda, hx.ptr(), &incx, bep, hy.ptr(), &incy),
                None => {
                    let f = if complex_symmetric { T::level2(b).csymv.expect("complex") } else { r.symv };
                    f(ch(&u), &n, alp, ha.ptr(), &lda, hx.ptr(), &incx, bep, hy.ptr(), &incy)
                }
            }
        }
    })
}

/// `x = op(A) x` (`solve`: `x = op(A)^-1 x`), `A` triangular `n` x `n`.
#[allow(clippy::too_many_arguments, reason = "cublas?trsv's parameters")]
pub fn trsv<T: Elem>(call: Call, solve: bool, uplo: i32, trans: i32, diag: i32, n: i32, a: *const T, lda: i32, x: *mut T, incx: i32) -> BlasResult {
    let (fill, op, diag) = (Fill::from_c(uplo)?, Op::from_c(trans)?, Diag::from_c(diag)?);
    ensure!(n >= 0, "{}: n={n}", call.name);
    ensure!(lda >= least_ld(n), "{}: lda={lda} < max(1, n={n})", call.name);
    ensure!(incx != 0, "{}: incx=0", call.name);
    if n == 0 {
        return Ok(());
    }
    let (ha, hx) = (call.matrix(a, n, n, lda, "A")?, call.vector(x, n, incx, "x")?);
    call.queue(move |b| {
        let (u, t, d) = (fill.blas(), op.blas(), diag.blas());
        let r = T::routines(b);
        let f = if solve { r.trsv } else { r.trmv };
        // SAFETY: both extents were checked.
        unsafe { f(ch(&u), ch(&t), ch(&d), &n, ha.ptr(), &lda, hx.ptr(), &incx) }
    })
}
