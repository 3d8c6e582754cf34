//! `cusolverDnXgeev`: eigenvalues and right eigenvectors of a general matrix, through
//! LAPACK's `?geev` on a copy of `A`. As cuSOLVER documents: `W` is complex whatever
//! `A`'s type; for real `A` the eigenvectors come in LAPACK's real format (a complex pair
//! as two real columns); left eigenvectors are not computed (`jobvl` must be NOVECTOR).

use super::eigen::jobz;
use super::{ch, optimal, put_info, Call, Elem, Host};
use crate::status::{ensure, SolverResult};

/// One `n` x `n` general eigenproblem.
///
/// # Safety
/// Nothing beyond the checked views.
#[allow(clippy::too_many_arguments, reason = "cusolverDnXgeev's parameters")]
pub fn geev<T: Elem>(
    call: Call,
    jobvl: i32,
    jobvr: i32,
    n: i32,
    a: *mut T,
    lda: i32,
    w: *mut u8,
    vr: *mut T,
    ldvr: i32,
    info: *mut i32,
) -> SolverResult {
    ensure!(jobz(jobvl)? == b'N', "{}: left eigenvectors are not computed (jobvl must be NOVECTOR)", call.name);
    let want = jobz(jobvr)?;
    ensure!(n >= 0 && lda >= n.max(1), "{}: n={n} lda={lda}", call.name);
    ensure!(want == b'N' || ldvr >= n.max(1), "{}: ldvr={ldvr}", call.name);
    let ha = call.matrix(a, n, n, lda, "A")?;
    // W holds n complex values of A's precision.
    let wbytes = 2 * size_of::<T::Real>();
    let hw = super::view::<u8>(w as u64, n as usize * wbytes, &format!("{}: W", call.name))?;
    let hv = if want == b'V' { call.matrix(vr, n, n, ldvr, "VR")? } else { Host(0) };
    let hi = call.info(info, 1)?;
    call.queue(move |blas| {
        let la = T::lapack(blas);
        let nn = n.max(1);
        let mut status = 0;
        let mut copy: Vec<T> = (0..super::matrix_elems(n, n, lda)).map(|k| unsafe { ha.ptr::<T>().add(k).read() }).collect();
        let mut dummy = vec![T::default(); 1];
        let (vr_ptr, ld_vr) = if want == b'V' { (hv.ptr::<T>(), ldvr) } else { (dummy.as_mut_ptr(), 1) };
        let no = b'N';
        if n > 0 {
            match (la.geev_real, la.geev_complex) {
                (Some(f), _) => {
                    let (mut wr, mut wi) = (vec![T::default(); nn as usize], vec![T::default(); nn as usize]);
                    let mut call_geev = |work: *mut T, l: &i32, st: &mut i32| {
                        // SAFETY: the copy spans A; wr/wi hold n values; VR is n x n at ldvr.
                        unsafe {
                            f(
                                ch(&no),
                                ch(&want),
                                &n,
                                copy.as_mut_ptr().cast(),
                                &lda,
                                wr.as_mut_ptr().cast(),
                                wi.as_mut_ptr().cast(),
                                dummy.as_mut_ptr().cast(),
                                &1,
                                vr_ptr.cast(),
                                &ld_vr,
                                work.cast(),
                                l,
                                st,
                            )
                        }
                    };
                    let len = optimal::<T>(|work, l| call_geev(work, l, &mut status));
                    let (mut work, lw) = (vec![T::default(); len], len as i32);
                    call_geev(work.as_mut_ptr(), &lw, &mut status);
                    for k in 0..n as usize {
                        // SAFETY: W holds n complex values; a real T is the real part's type.
                        unsafe {
                            let dst = hw.ptr::<u8>().add(k * wbytes);
                            std::ptr::copy_nonoverlapping((&wr[k] as *const T).cast::<u8>(), dst, wbytes / 2);
                            std::ptr::copy_nonoverlapping((&wi[k] as *const T).cast::<u8>(), dst.add(wbytes / 2), wbytes / 2);
                        }
                    }
                }
                (_, Some(f)) => {
                    let mut rwork = vec![T::Real::default(); 2 * nn as usize];
                    let mut call_geev = |work: *mut T, l: &i32, st: &mut i32| {
                        // SAFETY: as above; W receives n complex values directly.
                        unsafe {
                            f(
                                ch(&no),
                                ch(&want),
                                &n,
                                copy.as_mut_ptr().cast(),
                                &lda,
                                hw.ptr(),
                                dummy.as_mut_ptr().cast(),
                                &1,
                                vr_ptr.cast(),
                                &ld_vr,
                                work.cast(),
                                l,
                                rwork.as_mut_ptr().cast(),
                                st,
                            )
                        }
                    };
                    let len = optimal::<T>(|work, l| call_geev(work, l, &mut status));
                    let (mut work, lw) = (vec![T::default(); len], len as i32);
                    call_geev(work.as_mut_ptr(), &lw, &mut status);
                }
                _ => unreachable!("every type has a geev"),
            }
        }
        put_info(hi, status);
    })
}
