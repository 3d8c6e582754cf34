//! Singular values (`gesvd`) and bidiagonal reduction (`gebrd`). cuSOLVER's `gesvd`
//! takes `m >= n` only.

use super::{ch, optimal, put_info, Call, Elem, Host};
use crate::status::{ensure, fail, SolverResult, INVALID_VALUE};

/// How many columns of `U` (rows of `V^T`) `job` asks for, LAPACK's `A`/`S`/`O`/`N`.
fn columns(job: u8, m: i32, n: i32) -> SolverResult<i32> {
    Ok(match job {
        b'A' => m,
        b'S' | b'O' => m.min(n),
        b'N' => 0,
        _ => return Err(fail(INVALID_VALUE, format_args!("gesvd: job {:?}", job as char))),
    })
}

/// `gesvd`: `A = U S V^T`; `S` has `min(m, n)` real values; `A` is destroyed.
#[allow(clippy::too_many_arguments, reason = "cusolverDn?gesvd's parameters")]
pub fn gesvd<T: Elem>(
    call: Call,
    jobu: u8,
    jobvt: u8,
    m: i32,
    n: i32,
    a: *mut T,
    lda: i32,
    s: *mut T::Real,
    u: *mut T,
    ldu: i32,
    vt: *mut T,
    ldvt: i32,
    info: *mut i32,
) -> SolverResult {
    ensure!(m >= n && n >= 0, "{}: m={m} n={n} (cuSOLVER's gesvd needs m >= n)", call.name);
    ensure!(jobu != b'O' || jobvt != b'O', "{}: jobu and jobvt cannot both be 'O'", call.name);
    let (ucols, vrows) = (columns(jobu, m, n)?, columns(jobvt, n, n)?);
    ensure!(lda >= m.max(1), "{}: lda={lda} < max(1, m={m})", call.name);
    ensure!(ldu >= 1 && (ucols == 0 || jobu == b'O' || ldu >= m), "{}: ldu={ldu}", call.name);
    ensure!(ldvt >= 1 && (vrows == 0 || jobvt == b'O' || ldvt >= vrows), "{}: ldvt={ldvt}", call.name);
    let ha = call.matrix(a, m, n, lda, "A")?;
    let hs = call.array(s, n as usize, "S")?;
    let hu = if jobu == b'A' || jobu == b'S' { call.matrix(u, m, ucols, ldu, "U")? } else { super::Host(0) };
    let hv = if jobvt == b'A' || jobvt == b'S' { call.matrix(vt, vrows, n, ldvt, "VT")? } else { super::Host(0) };
    let hi = call.info(info, 1)?;
    call.queue(move |blas| {
        let status = if n > 0 {
            // SAFETY: the views span A, S, U and VT as LAPACK reads them for these jobs.
            unsafe { lapack_gesvd::<T>(blas, jobu, jobvt, m, n, ha, lda, hs, (hu, ldu), (hv, ldvt)) }
        } else {
            0
        };
        put_info(hi, status);
    })
}

/// LAPACK's `?gesvd` (its workspace queried and allocated here); returns `info`.
///
/// # Safety
/// The pointers span what LAPACK reads and writes for these jobs.
#[allow(clippy::too_many_arguments, reason = "LAPACK gesvd's parameters")]
unsafe fn lapack_gesvd<T: Elem>(
    blas: &cpu_blas::OpenBlas,
    jobu: u8,
    jobvt: u8,
    m: i32,
    n: i32,
    a: Host,
    lda: i32,
    s: Host,
    (u, ldu): (Host, i32),
    (vt, ldvt): (Host, i32),
) -> i32 {
    let la = T::lapack(blas);
    let mut rwork = vec![T::Real::default(); 5 * m.min(n).max(1) as usize];
    let mut status = 0;
    // The real and complex drivers differ only by the complex one's `rwork`.
    let mut run = |w: *mut T, l: &i32, status: &mut i32| {
        // SAFETY: per the contract.
        unsafe {
            match (la.gesvd_real, la.gesvd_complex) {
                (Some(f), _) => f(ch(&jobu), ch(&jobvt), &m, &n, a.ptr(), &lda, s.ptr(), u.ptr(), &ldu, vt.ptr(), &ldvt, w.cast(), l, status),
                (_, Some(f)) => f(
                    ch(&jobu),
                    ch(&jobvt),
                    &m,
                    &n,
                    a.ptr(),
                    &lda,
                    s.ptr(),
                    u.ptr(),
                    &ldu,
                    vt.ptr(),
                    &ldvt,
                    w.cast(),
                    l,
                    rwork.as_mut_ptr().cast(),
                    status,
                ),
                _ => unreachable!("every type has a gesvd"),
            }
        }
    };
    let len = optimal::<T>(|w, l| run(w, l, &mut status));
    let (mut work, lw) = (vec![T::default(); len], len as i32);
    run(work.as_mut_ptr(), &lw, &mut status);
    status
}

/// `gesvdj` (`batch = None`) and `gesvdjBatched`: `A = U S V^H` of any shape, `V` itself
/// (not `V^H`), singular values descending, through LAPACK's `gesvd` on a copy of `A`.
/// `econ` keeps `min(m, n)` columns of `U` and `V`; batched members lie back to back
/// (`A` every `lda * n`, `S` every `min(m, n)`, `U` every `ldu * m`, `V` every `ldv * n`).
#[allow(clippy::too_many_arguments, reason = "cusolverDn?gesvdj's parameters")]
pub fn gesvdj<T: Elem>(
    call: Call,
    vectors: bool,
    econ: bool,
    m: i32,
    n: i32,
    a: *mut T,
    lda: i32,
    s: *mut T::Real,
    (u, ldu): (*mut T, i32),
    (v, ldv): (*mut T, i32),
    info: *mut i32,
    batch: Option<i32>,
) -> SolverResult {
    let count = batch.unwrap_or(1);
    ensure!(m >= 0 && n >= 0 && count >= 0, "{}: m={m} n={n} batchSize={count}", call.name);
    ensure!(lda >= m.max(1), "{}: lda={lda} < max(1, m={m})", call.name);
    ensure!(!vectors || (ldu >= m.max(1) && ldv >= n.max(1)), "{}: ldu={ldu} ldv={ldv}", call.name);
    let p = m.min(n);
    let (ucols, vcols) = if econ { (p, p) } else { (m, n) };
    let c = count as usize;
    let span = |one: usize, stride: usize| if c == 0 { 0 } else { stride * (c - 1) + one };
    let ha = call.array(a, span(super::matrix_elems(m, n, lda), lda as usize * n as usize), "A")?;
    let hs = call.array(s, span(p as usize, p as usize), "S")?;
    let (hu, hv) = if vectors {
        (
            call.array(u, span(super::matrix_elems(m, ucols, ldu), ldu as usize * m as usize), "U")?,
            call.array(v, span(super::matrix_elems(n, vcols, ldv), ldv as usize * n as usize), "V")?,
        )
    } else {
        (Host(0), Host(0))
    };
    let hi = call.info(info, c)?;
    call.queue(move |blas| {
        let job = if !vectors {
            b'N'
        } else if econ {
            b'S'
        } else {
            b'A'
        };
        let vt_rows = if econ { p } else { n };
        let (sz, szr) = (size_of::<T>(), size_of::<T::Real>());
        for i in 0..c {
            let at = |h: Host, stride: usize, elem: usize| Host(h.0 + i * stride * elem);
            let mut copy: Vec<T> =
                (0..super::matrix_elems(m, n, lda)).map(|k| unsafe { at(ha, lda as usize * n as usize, sz).ptr::<T>().add(k).read() }).collect();
            let mut vt = vec![T::default(); (vt_rows.max(1) as usize) * n as usize];
            let status = if m > 0 && n > 0 {
                let u_i = if vectors { at(hu, ldu as usize * m as usize, sz) } else { Host(vt.as_mut_ptr() as usize) };
                // SAFETY: the copy spans A; S, U (or a dummy when not asked) and VT are sized for the jobs.
                unsafe {
                    lapack_gesvd::<T>(
                        blas,
                        job,
                        job,
                        m,
                        n,
                        Host(copy.as_mut_ptr() as usize),
                        lda,
                        at(hs, p as usize, szr),
                        (u_i, if vectors { ldu } else { 1 }),
                        (Host(vt.as_mut_ptr() as usize), vt_rows.max(1)),
                    )
                }
            } else {
                0
            };
            if vectors {
                // V = (V^H)^H, column j of V being the conjugated row j of V^H.
                let hv_i = at(hv, ldv as usize * n as usize, sz);
                for j in 0..vcols as usize {
                    for r in 0..n as usize {
                        let x = vt[r * vt_rows.max(1) as usize + j].conj();
                        // SAFETY: (r, j) lies inside member i's V.
                        unsafe { hv_i.ptr::<T>().add(j * ldv as usize + r).write(x) };
                    }
                }
            }
            put_info(Host(hi.0 + i * 4), status);
        }
    })
}

/// `gebrd`: `A = Q B P^T` with `B` bidiagonal (`d`, `e`), in place (`m >= n`).
#[allow(clippy::too_many_arguments, reason = "cusolverDn?gebrd's parameters")]
pub fn gebrd<T: Elem>(
    call: Call,
    m: i32,
    n: i32,
    a: *mut T,
    lda: i32,
    d: *mut T::Real,
    e: *mut T::Real,
    tauq: *mut T,
    taup: *mut T,
    info: *mut i32,
) -> SolverResult {
    ensure!(m >= n && n >= 0, "{}: m={m} n={n} (m >= n)", call.name);
    ensure!(lda >= m.max(1), "{}: lda={lda} < max(1, m={m})", call.name);
    let k = n as usize;
    let ha = call.matrix(a, m, n, lda, "A")?;
    let (hd, he) = (call.array(d, k, "D")?, call.array(e, k.saturating_sub(1), "E")?);
    let (hq, hp, hi) = (call.array(tauq, k, "TAUQ")?, call.array(taup, k, "TAUP")?, call.info(info, 1)?);
    call.queue(move |blas| {
        let mut status = 0;
        if n > 0 {
            let f = T::lapack(blas).gebrd;
            // SAFETY: a workspace query, then the reduction over the checked views.
            let len = optimal::<T>(|w, l| unsafe { f(&m, &n, ha.ptr(), &lda, hd.ptr(), he.ptr(), hq.ptr(), hp.ptr(), w.cast(), l, &mut status) });
            let (mut work, lw) = (vec![T::default(); len], len as i32);
            // SAFETY: as above.
            unsafe { f(&m, &n, ha.ptr(), &lda, hd.ptr(), he.ptr(), hq.ptr(), hp.ptr(), work.as_mut_ptr().cast(), &lw, &mut status) };
        }
        put_info(hi, status);
    })
}
