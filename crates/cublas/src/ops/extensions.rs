//! cuBLAS's BLAS-like extensions: `geam` (`C = alpha op(A) + beta op(B)`) and `dgmm`
//! (`C = A diag(x)` or `diag(x) A`). Plain loops: both are memory-bound.

use super::level3::stored;
use super::{ensure, least_ld, Call, Elem};
use crate::operand::Host;
use crate::status::BlasResult;
use crate::types::{Op, Side};

/// Element `(i, j)` of `op(X)` for `X` stored with leading dimension `ld`.
///
/// # Safety
/// `(i, j)` is inside `op(X)`'s shape and `x` spans it.
unsafe fn at<T: Elem>(x: Host, op: Op, ld: i32, i: usize, j: usize) -> T {
    let (r, c) = if op == Op::N { (i, j) } else { (j, i) };
    // SAFETY: per the contract.
    let v = unsafe { x.ptr::<T>().add(c * ld as usize + r).read() };
    if op == Op::C {
        v.conj()
    } else {
        v
    }
}

/// `geam`. `C` may alias `A` (with `op(A) = N`, `lda == ldc`) or `B` likewise; each
/// element is read before it is written. A zero scalar skips its matrix (which may be
/// NULL then, as cuBLAS allows).
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?geam's parameters")]
pub unsafe fn geam<T: Elem>(
    call: Call,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    beta: *const T,
    b: *const T,
    ldb: i32,
    c: *mut T,
    ldc: i32,
) -> BlasResult {
    let (ta, tb) = (Op::from_c(transa)?, Op::from_c(transb)?);
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    let ((ar, ac), (br, bc)) = (stored(ta, m, n), stored(tb, m, n));
    ensure!(lda >= least_ld(ar) && ldb >= least_ld(br) && ldc >= least_ld(m), "{}: lda={lda} ldb={ldb} ldc={ldc}", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if m == 0 || n == 0 {
        return Ok(());
    }
    // A matrix whose scalar is zero is not read; with host scalars it need not exist.
    let skip = |s: &crate::operand::Scalar<T>| matches!(s, crate::operand::Scalar::Value(v) if v.is_zero());
    let ha = if skip(&alpha) { None } else { Some(call.matrix(a, ar, ac, lda, "A")?) };
    let hb = if skip(&beta) { None } else { Some(call.matrix(b, br, bc, ldb, "B")?) };
    let hc = call.matrix(c, m, n, ldc, "C")?;
    call.queue(move |_| {
        let (al, be) = (alpha.get(), beta.get());
        for j in 0..n as usize {
            for i in 0..m as usize {
                let mut v = T::default();
                // SAFETY: (i, j) is inside op(A), op(B) and C, whose extents were checked.
                unsafe {
                    if let Some(ha) = ha.filter(|_| !al.is_zero()) {
                        v = v.add(al.mul(at(ha, ta, lda, i, j)));
                    }
                    if let Some(hb) = hb.filter(|_| !be.is_zero()) {
                        v = v.add(be.mul(at(hb, tb, ldb, i, j)));
                    }
                    hc.ptr::<T>().add(j * ldc as usize + i).write(v);
                }
            }
        }
    })
}

/// `dgmm`: `C = A diag(x)` (`side` right) or `diag(x) A` (left); `incx` may be
/// negative or zero, as in BLAS.
#[allow(clippy::too_many_arguments, reason = "cublas?dgmm's parameters")]
pub fn dgmm<T: Elem>(call: Call, side: i32, m: i32, n: i32, a: *const T, lda: i32, x: *const T, incx: i32, c: *mut T, ldc: i32) -> BlasResult {
    let side = Side::from_c(side)?;
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    ensure!(lda >= least_ld(m) && ldc >= least_ld(m), "{}: lda={lda} ldc={ldc} < max(1, m={m})", call.name);
    if m == 0 || n == 0 {
        return Ok(());
    }
    let xlen = if side == Side::Left { m } else { n };
    let (ha, hx, hc) = (call.matrix(a, m, n, lda, "A")?, call.vector(x, xlen, incx, "x")?, call.matrix(c, m, n, ldc, "C")?);
    call.queue(move |_| {
        // x[k] in BLAS order: a negative increment starts from the far end.
        let xi = |k: usize| -> T {
            let idx = if incx >= 0 { k * incx as usize } else { (xlen as usize - 1 - k) * incx.unsigned_abs() as usize };
            // SAFETY: idx is inside x's checked extent.
            unsafe { hx.ptr::<T>().add(idx).read() }
        };
        for j in 0..n as usize {
            for i in 0..m as usize {
                let d = if side == Side::Left { xi(i) } else { xi(j) };
                // SAFETY: (i, j) is inside A and C.
                unsafe {
                    let v = ha.ptr::<T>().add(j * lda as usize + i).read();
                    hc.ptr::<T>().add(j * ldc as usize + i).write(v.mul(d));
                }
            }
        }
    })
}

/// The index in LAPACK's packed storage of element `(i, j)` of an `n` x `n` triangle
/// (`upper`: `i <= j`, else `i >= j`).
pub fn packed_index(upper: bool, n: usize, i: usize, j: usize) -> usize {
    if upper {
        i + j * (j + 1) / 2
    } else {
        i + (2 * n - j - 1) * j / 2
    }
}

/// `trttp` (`to_packed`: triangle of `A` into packed `AP`) and `tpttr` (back: only the
/// triangle of `A` is written).
#[allow(clippy::too_many_arguments, reason = "cublas?trttp's parameters")]
pub fn pack<T: Elem>(call: Call, to_packed: bool, uplo: i32, n: i32, a: *mut T, lda: i32, ap: *mut T) -> BlasResult {
    let upper = crate::types::Fill::from_c(uplo)? == crate::types::Fill::Upper;
    ensure!(n >= 0, "{}: n={n}", call.name);
    ensure!(lda >= least_ld(n), "{}: lda={lda} < max(1, n={n})", call.name);
    if n == 0 {
        return Ok(());
    }
    let packed_len = n as usize * (n as usize + 1) / 2;
    let (ha, hp) = (call.matrix(a, n, n, lda, "A")?, crate::operand::view::<T>(ap as u64, packed_len, &format!("{}: AP", call.name))?);
    call.queue(move |_| {
        let n = n as usize;
        for j in 0..n {
            let rows = if upper { 0..j + 1 } else { j..n };
            for i in rows {
                let (pa, pp) = (j * lda as usize + i, packed_index(upper, n, i, j));
                // SAFETY: both indices lie in the checked extents.
                unsafe {
                    if to_packed {
                        hp.ptr::<T>().add(pp).write(ha.ptr::<T>().add(pa).read())
                    } else {
                        ha.ptr::<T>().add(pa).write(hp.ptr::<T>().add(pp).read())
                    }
                }
            }
        }
    })
}

#[cfg(test)]
mod tests {
    use super::packed_index;

    #[test]
    fn packed_indices_enumerate_the_triangle_column_by_column() {
        let n = 4;
        let upper: Vec<usize> = (0..n).flat_map(|j| (0..=j).map(move |i| packed_index(true, n, i, j))).collect();
        let lower: Vec<usize> = (0..n).flat_map(|j| (j..n).map(move |i| packed_index(false, n, i, j))).collect();
        let want: Vec<usize> = (0..n * (n + 1) / 2).collect();
        assert_eq!(upper, want);
        assert_eq!(lower, want);
    }
}
