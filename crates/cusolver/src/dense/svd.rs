//! Singular values (`gesvd`) and bidiagonal reduction (`gebrd`). cuSOLVER's `gesvd`
//! takes `m >= n` only.

use super::{ch, optimal, put_info, Call, Elem};
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
        let mut status = 0;
        if n > 0 {
            let la = T::lapack(blas);
            let mut rwork = vec![T::Real::default(); 5 * n as usize];
            // The real and complex drivers differ only by the complex one's `rwork`.
            let mut run = |w: *mut T, l: &i32, status: &mut i32| {
                // SAFETY: the views span A, S, U and VT as LAPACK reads them for these jobs.
                unsafe {
                    match (la.gesvd_real, la.gesvd_complex) {
                        (Some(f), _) => {
                            f(ch(&jobu), ch(&jobvt), &m, &n, ha.ptr(), &lda, hs.ptr(), hu.ptr(), &ldu, hv.ptr(), &ldvt, w.cast(), l, status)
                        }
                        (_, Some(f)) => f(
                            ch(&jobu),
                            ch(&jobvt),
                            &m,
                            &n,
                            ha.ptr(),
                            &lda,
                            hs.ptr(),
                            hu.ptr(),
                            &ldu,
                            hv.ptr(),
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
        }
        put_info(hi, status);
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
