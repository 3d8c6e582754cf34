//! Symmetric/Hermitian eigenvalues: `syevd`/`heevd` (divide and conquer), and the
//! Jacobi entry points `syevj`/`heevj`/`syevjBatched`, computed with the same LAPACK
//! driver: the same decomposition (eigenvalues ascending, as `syevj` sorts them by
//! default), reached by another algorithm.

use super::{ch, matrix_elems, put_info, uplo, Call, Elem, Host};
use crate::status::{ensure, fail, SolverResult, INVALID_VALUE};

/// `cusolverEigMode_t` as LAPACK's `jobz`.
pub fn jobz(v: i32) -> SolverResult<u8> {
    match v {
        0 => Ok(b'N'),
        1 => Ok(b'V'),
        _ => Err(fail(INVALID_VALUE, format_args!("invalid cusolverEigMode_t {v}"))),
    }
}

/// Runs `?syevd`/`?heevd` on one `n` x `n` matrix at `a`, eigenvalues to `w`.
///
/// # Safety
/// `a` spans the matrix at `lda`; `w` holds `n` reals.
unsafe fn run<T: Elem>(blas: &cpu_blas::OpenBlas, jz: u8, u: u8, n: i32, a: Host, lda: i32, w: Host) -> i32 {
    let mut status = 0;
    if n == 0 {
        return 0;
    }
    let la = T::lapack(blas);
    let (mut q, mut rq, mut iq) = ([T::default(); 1], [T::Real::default(); 1], [0i32; 1]);
    let m1 = -1;
    // SAFETY (both blocks): a workspace query, then the driver over the caller's views.
    unsafe {
        match (la.syevd, la.heevd) {
            (Some(f), _) => {
                f(ch(&jz), ch(&u), &n, a.ptr(), &lda, w.ptr(), q.as_mut_ptr().cast(), &m1, iq.as_mut_ptr(), &m1, &mut status);
                let (lw, liw) = (super::work_len(&q[0]) as i32, iq[0].max(1));
                let (mut work, mut iwork) = (vec![T::default(); lw as usize], vec![0i32; liw as usize]);
                f(ch(&jz), ch(&u), &n, a.ptr(), &lda, w.ptr(), work.as_mut_ptr().cast(), &lw, iwork.as_mut_ptr(), &liw, &mut status);
            }
            (_, Some(f)) => {
                f(
                    ch(&jz),
                    ch(&u),
                    &n,
                    a.ptr(),
                    &lda,
                    w.ptr(),
                    q.as_mut_ptr().cast(),
                    &m1,
                    rq.as_mut_ptr().cast(),
                    &m1,
                    iq.as_mut_ptr(),
                    &m1,
                    &mut status,
                );
                let lw = super::work_len(&q[0]) as i32;
                // The real workspace size comes back in rwork[0], a real of T's precision.
                let lrw = if size_of::<T::Real>() == 4 {
                    std::ptr::read(rq.as_ptr().cast::<f32>()) as i32
                } else {
                    std::ptr::read(rq.as_ptr().cast::<f64>()) as i32
                }
                .max(1);
                let liw = iq[0].max(1);
                let (mut work, mut rwork, mut iwork) =
                    (vec![T::default(); lw as usize], vec![T::Real::default(); lrw as usize], vec![0i32; liw as usize]);
                f(
                    ch(&jz),
                    ch(&u),
                    &n,
                    a.ptr(),
                    &lda,
                    w.ptr(),
                    work.as_mut_ptr().cast(),
                    &lw,
                    rwork.as_mut_ptr().cast(),
                    &lrw,
                    iwork.as_mut_ptr(),
                    &liw,
                    &mut status,
                );
            }
            _ => unreachable!("every type has syevd or heevd"),
        }
    }
    status
}

/// `syevd`/`heevd` (and `syevj`/`heevj`): `batch` matrices `lda * n` elements apart,
/// eigenvalues `n` apart, one `info` each.
#[allow(clippy::too_many_arguments, reason = "cusolverDn?syevjBatched's parameters")]
pub fn syevd<T: Elem>(call: Call, mode: i32, fill: i32, n: i32, a: *mut T, lda: i32, w: *mut T::Real, info: *mut i32, batch: i32) -> SolverResult {
    let (jz, u) = (jobz(mode)?, uplo(fill)?);
    ensure!(n >= 0 && batch >= 0, "{}: n={n} batchSize={batch}", call.name);
    ensure!(lda >= n.max(1), "{}: lda={lda} < max(1, n={n})", call.name);
    let stride = lda as usize * n as usize;
    let count = batch as usize;
    let ha = call.array(a, if count == 0 { 0 } else { stride * (count - 1) + matrix_elems(n, n, lda) }, "A")?;
    let hw = call.array(w, n as usize * count, "W")?;
    let hi = call.info(info, count)?;
    call.queue(move |blas| {
        for i in 0..count {
            let (ai, wi) = (Host(ha.0 + i * stride * size_of::<T>()), Host(hw.0 + i * n as usize * size_of::<T::Real>()));
            // SAFETY: member i lies inside the checked arrays.
            let status = unsafe { run::<T>(blas, jz, u, n, ai, lda, wi) };
            put_info(Host(hi.0 + i * 4), status);
        }
    })
}
