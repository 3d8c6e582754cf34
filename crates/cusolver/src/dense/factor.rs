//! LU (`getrf`/`getrs`), Cholesky (`potrf`/`potrs` and their batched forms) and
//! Bunch-Kaufman (`sytrf`). A NULL pivot array makes `getrf` factor without pivoting
//! and `getrs` apply no interchanges, as cuSOLVER documents.

use super::{ch, matrix_elems, optimal, put_info, trans, uplo, view, Call, Elem};
use crate::status::{ensure, SolverResult};

/// `getrf`: `A = P L U` in place; `ipiv` gets 1-based pivots unless NULL.
pub fn getrf<T: Elem>(call: Call, m: i32, n: i32, a: *mut T, lda: i32, ipiv: *mut i32, info: *mut i32) -> SolverResult {
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    ensure!(lda >= m.max(1), "{}: lda={lda} < max(1, m={m})", call.name);
    let ha = call.matrix(a, m, n, lda, "A")?;
    let piv = call.optional(ipiv, m.min(n) as usize, "devIpiv")?;
    let hi = call.info(info, 1)?;
    ensure!(piv.is_some() || m == n, "{}: factoring without pivots needs a square matrix", call.name);
    call.queue(move |blas| {
        let mut status = 0;
        if m > 0 && n > 0 {
            match piv {
                // SAFETY: the views span A and min(m, n) pivots.
                Some(p) => unsafe { (T::routines(blas).getrf)(&m, &n, ha.ptr(), &lda, p.ptr(), &mut status) },
                None => {
                    // SAFETY: the view spans the n x n matrix at lda.
                    let s = unsafe { std::slice::from_raw_parts_mut(ha.ptr::<T>(), matrix_elems(n, n, lda)) };
                    status = cpu_blas::lu::unpivoted(s, n as usize, lda as usize);
                }
            }
        }
        put_info(hi, status);
    })
}

/// `getrs`: solves `op(A) X = B` with `getrf`'s factors.
#[allow(clippy::too_many_arguments, reason = "cusolverDn?getrs's parameters")]
pub fn getrs<T: Elem>(
    call: Call,
    op: i32,
    n: i32,
    nrhs: i32,
    a: *const T,
    lda: i32,
    ipiv: *const i32,
    b: *mut T,
    ldb: i32,
    info: *mut i32,
) -> SolverResult {
    let t = trans(op)?;
    ensure!(n >= 0 && nrhs >= 0, "{}: n={n} nrhs={nrhs}", call.name);
    ensure!(lda >= n.max(1) && ldb >= n.max(1), "{}: lda={lda} ldb={ldb} < max(1, n={n})", call.name);
    let (ha, hb) = (call.matrix(a, n, n, lda, "A")?, call.matrix(b, n, nrhs, ldb, "B")?);
    let piv = call.optional(ipiv, n as usize, "devIpiv")?;
    let hi = call.info(info, 1)?;
    call.queue(move |blas| {
        let mut status = 0;
        if n > 0 && nrhs > 0 {
            let identity: Vec<i32> = (1..=n).collect();
            let p = piv.map_or(identity.as_ptr(), |p| p.ptr::<i32>() as *const i32);
            // SAFETY: the views span A, B and n pivots.
            unsafe { (T::routines(blas).getrs)(ch(&t), &n, &nrhs, ha.ptr(), &lda, p, hb.ptr(), &ldb, &mut status) };
        }
        put_info(hi, status);
    })
}

/// `potrf`: Cholesky factor of the `uplo` triangle in place.
pub fn potrf<T: Elem>(call: Call, fill: i32, n: i32, a: *mut T, lda: i32, info: *mut i32) -> SolverResult {
    let u = uplo(fill)?;
    ensure!(n >= 0, "{}: n={n}", call.name);
    ensure!(lda >= n.max(1), "{}: lda={lda} < max(1, n={n})", call.name);
    let (ha, hi) = (call.matrix(a, n, n, lda, "A")?, call.info(info, 1)?);
    call.queue(move |blas| {
        let mut status = 0;
        if n > 0 {
            // SAFETY: the view spans A.
            unsafe { (T::lapack(blas).potrf)(ch(&u), &n, ha.ptr(), &lda, &mut status) };
        }
        put_info(hi, status);
    })
}

/// `potrs`: solves `A X = B` with `potrf`'s factor.
#[allow(clippy::too_many_arguments, reason = "cusolverDn?potrs's parameters")]
pub fn potrs<T: Elem>(call: Call, fill: i32, n: i32, nrhs: i32, a: *const T, lda: i32, b: *mut T, ldb: i32, info: *mut i32) -> SolverResult {
    let u = uplo(fill)?;
    ensure!(n >= 0 && nrhs >= 0, "{}: n={n} nrhs={nrhs}", call.name);
    ensure!(lda >= n.max(1) && ldb >= n.max(1), "{}: lda={lda} ldb={ldb} < max(1, n={n})", call.name);
    let (ha, hb, hi) = (call.matrix(a, n, n, lda, "A")?, call.matrix(b, n, nrhs, ldb, "B")?, call.info(info, 1)?);
    call.queue(move |blas| {
        let mut status = 0;
        if n > 0 && nrhs > 0 {
            // SAFETY: the views span A and B.
            unsafe { (T::lapack(blas).potrs)(ch(&u), &n, &nrhs, ha.ptr(), &lda, hb.ptr(), &ldb, &mut status) };
        }
        put_info(hi, status);
    })
}

/// `potrfBatched` (`nrhs = None`) and `potrsBatched`: arrays of device pointers, read
/// when the work runs; `info` is one per matrix for `potrf`, a single value for `potrs`.
#[allow(clippy::too_many_arguments, reason = "cusolverDn?potrsBatched's parameters")]
pub fn potr_batched<T: Elem>(
    call: Call,
    fill: i32,
    n: i32,
    nrhs: Option<i32>,
    a: u64,
    lda: i32,
    b: u64,
    ldb: i32,
    info: *mut i32,
    count: i32,
) -> SolverResult {
    let u = uplo(fill)?;
    ensure!(n >= 0 && count >= 0, "{}: n={n} batchSize={count}", call.name);
    ensure!(lda >= n.max(1), "{}: lda={lda} < max(1, n={n})", call.name);
    if let Some(r) = nrhs {
        // cuSOLVER's potrsBatched takes one right-hand side per matrix.
        ensure!(r == 1 && ldb >= n.max(1), "{}: nrhs={r} ldb={ldb}", call.name);
    }
    let arrays = view::<u64>(a, count as usize, &format!("{}: Aarray", call.name))?;
    let barrays = if nrhs.is_some() { Some(view::<u64>(b, count as usize, &format!("{}: Barray", call.name))?) } else { None };
    let hi = call.info(info, if nrhs.is_some() { 1 } else { count as usize })?;
    let name = call.name;
    call.queue(move |blas| {
        let member = |arr: super::Host, i: usize, elems: usize| {
            // SAFETY: the array was checked for `count` pointers.
            let p = unsafe { arr.ptr::<u64>().add(i).read_unaligned() };
            view::<T>(p, elems, &format!("{name}: batch member {i}")).ok()
        };
        let mut first_bad = 0;
        for i in 0..count as usize {
            let Some(ma) = member(arrays, i, matrix_elems(n, n, lda)) else { continue };
            let mut status = 0;
            match (nrhs, barrays) {
                (Some(r), Some(bs)) => {
                    let Some(mb) = member(bs, i, matrix_elems(n, r, ldb)) else { continue };
                    // SAFETY: the members span their matrices.
                    unsafe { (T::lapack(blas).potrs)(ch(&u), &n, &r, ma.ptr(), &lda, mb.ptr(), &ldb, &mut status) };
                    if status != 0 && first_bad == 0 {
                        first_bad = status;
                    }
                }
                _ => {
                    if n > 0 {
                        // SAFETY: the member spans A.
                        unsafe { (T::lapack(blas).potrf)(ch(&u), &n, ma.ptr(), &lda, &mut status) };
                    }
                    // SAFETY: the info array holds `count` ints.
                    unsafe { hi.ptr::<i32>().add(i).write_unaligned(status) };
                }
            }
        }
        if nrhs.is_some() {
            put_info(hi, first_bad);
        }
    })
}

/// `sytrf`: `A = P L D L^T P^T` (Bunch-Kaufman) in place.
pub fn sytrf<T: Elem>(call: Call, fill: i32, n: i32, a: *mut T, lda: i32, ipiv: *mut i32, info: *mut i32) -> SolverResult {
    let u = uplo(fill)?;
    ensure!(n >= 0, "{}: n={n}", call.name);
    ensure!(lda >= n.max(1), "{}: lda={lda} < max(1, n={n})", call.name);
    let (ha, hp, hi) = (call.matrix(a, n, n, lda, "A")?, call.array(ipiv, n as usize, "ipiv")?, call.info(info, 1)?);
    call.queue(move |blas| {
        let mut status = 0;
        if n > 0 {
            let f = T::lapack(blas).sytrf;
            // SAFETY: a workspace query, then the factorization over the checked views.
            let len = optimal::<T>(|w, l| unsafe { f(ch(&u), &n, ha.ptr(), &lda, hp.ptr(), w.cast(), l, &mut status) });
            let mut work = vec![T::default(); len];
            let lw = len as i32;
            // SAFETY: as above, with `len` elements of workspace.
            unsafe { f(ch(&u), &n, ha.ptr(), &lda, hp.ptr(), work.as_mut_ptr().cast(), &lw, &mut status) };
        }
        put_info(hi, status);
    })
}
