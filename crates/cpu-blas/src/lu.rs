//! LU factorization without pivoting, which LAPACK lacks and cuBLAS's and cuSOLVER's
//! `getrf` perform when their pivot array is NULL.

use crate::elem::Elem;

/// Factors the column-major `n` x `n` matrix `a` (leading dimension `lda`) in place
/// into unit-lower `L` and upper `U`; returns LAPACK's `info` (`i > 0`: `U(i,i)` is
/// exactly zero, the factorization is completed).
pub fn unpivoted<T: Elem>(a: &mut [T], n: usize, lda: usize) -> i32 {
    let mut info = 0;
    for k in 0..n {
        let pivot = a[k * lda + k];
        if pivot.is_zero() {
            if info == 0 {
                info = k as i32 + 1;
            }
            continue;
        }
        let inv = pivot.recip();
        for i in k + 1..n {
            a[k * lda + i] = a[k * lda + i].mul(inv);
        }
        for j in k + 1..n {
            let ukj = a[j * lda + k];
            for i in k + 1..n {
                let l = a[k * lda + i];
                a[j * lda + i] = a[j * lda + i].sub(l.mul(ukj));
            }
        }
    }
    info
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn factors_reproduce_the_matrix_and_zero_pivots_are_reported() {
        // A = [4 3; 6 3] column-major; L = [1 0; 1.5 1], U = [4 3; 0 -1.5].
        let mut a = [4f64, 6., 3., 3.];
        assert_eq!(unpivoted(&mut a, 2, 2), 0);
        assert_eq!(a, [4., 1.5, 3., -1.5]);
        let mut singular = [0f64, 1., 1., 1.];
        assert_eq!(unpivoted(&mut singular, 2, 2), 1);
    }
}
