//! QR: `geqrf` (Householder factorization), `orgqr`/`ungqr` (form `Q`), `ormqr`/`unmqr`
//! (apply `Q`).

use super::{ch, optimal, put_info, side, trans, Call, Elem};
use crate::status::{ensure, SolverResult};

/// `geqrf`: `A = Q R` in place, the reflectors' scalars in `tau` (min(m, n)).
pub fn geqrf<T: Elem>(call: Call, m: i32, n: i32, a: *mut T, lda: i32, tau: *mut T, info: *mut i32) -> SolverResult {
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    ensure!(lda >= m.max(1), "{}: lda={lda} < max(1, m={m})", call.name);
    let (ha, ht, hi) = (call.matrix(a, m, n, lda, "A")?, call.array(tau, m.min(n) as usize, "TAU")?, call.info(info, 1)?);
    call.queue(move |blas| {
        let mut status = 0;
        if m > 0 && n > 0 {
            let f = T::lapack(blas).geqrf;
            // SAFETY: a workspace query, then the factorization over the checked views.
            let len = optimal::<T>(|w, l| unsafe { f(&m, &n, ha.ptr(), &lda, ht.ptr(), w.cast(), l, &mut status) });
            let (mut work, lw) = (vec![T::default(); len], len as i32);
            // SAFETY: as above.
            unsafe { f(&m, &n, ha.ptr(), &lda, ht.ptr(), work.as_mut_ptr().cast(), &lw, &mut status) };
        }
        put_info(hi, status);
    })
}

/// `orgqr`/`ungqr`: overwrites `A` (`m` x `n`, `m >= n >= k`) with the first `n`
/// columns of `Q`.
#[allow(clippy::too_many_arguments, reason = "cusolverDn?orgqr's parameters")]
pub fn orgqr<T: Elem>(call: Call, m: i32, n: i32, k: i32, a: *mut T, lda: i32, tau: *const T, info: *mut i32) -> SolverResult {
    ensure!(m >= 0 && n >= 0 && n <= m && k >= 0 && k <= n, "{}: m={m} n={n} k={k}", call.name);
    ensure!(lda >= m.max(1), "{}: lda={lda} < max(1, m={m})", call.name);
    let (ha, ht, hi) = (call.matrix(a, m, n, lda, "A")?, call.array(tau, k as usize, "tau")?, call.info(info, 1)?);
    call.queue(move |blas| {
        let mut status = 0;
        if n > 0 {
            let f = T::lapack(blas).orgqr;
            // SAFETY: a workspace query, then the routine over the checked views.
            let len = optimal::<T>(|w, l| unsafe { f(&m, &n, &k, ha.ptr(), &lda, ht.ptr(), w.cast(), l, &mut status) });
            let (mut work, lw) = (vec![T::default(); len], len as i32);
            // SAFETY: as above.
            unsafe { f(&m, &n, &k, ha.ptr(), &lda, ht.ptr(), work.as_mut_ptr().cast(), &lw, &mut status) };
        }
        put_info(hi, status);
    })
}

/// `ormqr`/`unmqr`: `C = op(Q) C` (`side` left) or `C op(Q)`.
#[allow(clippy::too_many_arguments, reason = "cusolverDn?ormqr's parameters")]
pub fn ormqr<T: Elem>(
    call: Call,
    side_mode: i32,
    op: i32,
    m: i32,
    n: i32,
    k: i32,
    a: *const T,
    lda: i32,
    tau: *const T,
    c: *mut T,
    ldc: i32,
    info: *mut i32,
) -> SolverResult {
    let (s, t) = (side(side_mode)?, trans(op)?);
    // Real types take N or T; complex ones N or C.
    let allowed = if T::COMPLEX { t != b'T' } else { t != b'C' };
    ensure!(allowed, "{}: trans={op} for this type", call.name);
    let order = if s == b'L' { m } else { n };
    ensure!(m >= 0 && n >= 0 && k >= 0 && k <= order, "{}: m={m} n={n} k={k}", call.name);
    ensure!(lda >= order.max(1) && ldc >= m.max(1), "{}: lda={lda} ldc={ldc}", call.name);
    let ha = call.matrix(a, order, k, lda, "A")?;
    let (ht, hc, hi) = (call.array(tau, k as usize, "tau")?, call.matrix(c, m, n, ldc, "C")?, call.info(info, 1)?);
    call.queue(move |blas| {
        let mut status = 0;
        if m > 0 && n > 0 {
            let f = T::lapack(blas).ormqr;
            // SAFETY: a workspace query, then the routine over the checked views.
            let len =
                optimal::<T>(|w, l| unsafe { f(ch(&s), ch(&t), &m, &n, &k, ha.ptr(), &lda, ht.ptr(), hc.ptr(), &ldc, w.cast(), l, &mut status) });
            let (mut work, lw) = (vec![T::default(); len], len as i32);
            // SAFETY: as above.
            unsafe { f(ch(&s), ch(&t), &m, &n, &k, ha.ptr(), &lda, ht.ptr(), hc.ptr(), &ldc, work.as_mut_ptr().cast(), &lw, &mut status) };
        }
        put_info(hi, status);
    })
}
