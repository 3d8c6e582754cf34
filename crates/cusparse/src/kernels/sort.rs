//! Sorting (`cusparseXcsrsort`, `cusparseXcscsort`, `cusparseXcoosortBy{Row,Column}`)
//! and `cusparseCreateIdentityPermutation`. Each sort permutes `P` along with the
//! indices, so `values_sorted[e] = values[P[e]]` when `P` started as the identity.

use super::{row_range, Index, KResult};

/// `p[i] = i`.
pub fn identity(p: &mut [i32]) {
    p.iter_mut().enumerate().for_each(|(i, v)| *v = i as i32);
}

/// Sorts the indices within each of the `m` compressed rows (stable: equal indices keep
/// their order).
pub fn sort_compressed<I: Index>(m: usize, offsets: &[I], base: i64, indices: &mut [I], perm: &mut [i32]) -> KResult {
    let nnz = indices.len();
    let mut pairs: Vec<(I, i32)> = Vec::new();
    for r in 0..m {
        let range = row_range(offsets, r, base, nnz)?;
        pairs.clear();
        pairs.extend(range.clone().map(|e| (indices[e], perm[e])));
        pairs.sort_by_key(|&(i, _)| i);
        for (e, (i, p)) in range.zip(pairs.iter().copied()) {
            indices[e] = i;
            perm[e] = p;
        }
    }
    Ok(())
}

/// Sorts COO entries by (row, column) (`by_row`) or (column, row).
pub fn sort_coo<I: Index>(rows: &mut [I], cols: &mut [I], perm: &mut [i32], by_row: bool) {
    let mut entries: Vec<(I, I, i32)> =
        rows.iter().zip(cols.iter()).zip(perm.iter()).map(|((&r, &c), &p)| if by_row { (r, c, p) } else { (c, r, p) }).collect();
    entries.sort_by_key(|&(a, b, _)| (a, b));
    for (e, (a, b, p)) in entries.into_iter().enumerate() {
        (rows[e], cols[e]) = if by_row { (a, b) } else { (b, a) };
        perm[e] = p;
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::Rng;
    use super::*;

    #[test]
    fn compressed_rows_sort_and_carry_the_permutation() {
        let offsets = [1i32, 4, 4, 6];
        let mut idx = [3i32, 1, 2, 5, 4];
        let mut p = [0i32; 5];
        identity(&mut p);
        sort_compressed(3, &offsets, 1, &mut idx, &mut p).unwrap();
        assert_eq!(idx, [1, 2, 3, 4, 5]);
        assert_eq!(p, [1, 2, 0, 4, 3]);
    }

    #[test]
    fn coo_sorts_by_either_key_like_a_dense_lexsort() {
        let mut rng = Rng(1);
        let n = 200;
        let rows0: Vec<i32> = (0..n).map(|_| rng.below(9) as i32).collect();
        let cols0: Vec<i32> = (0..n).map(|_| rng.below(7) as i32).collect();
        for by_row in [true, false] {
            let (mut r, mut c, mut p) = (rows0.clone(), cols0.clone(), vec![0; n]);
            identity(&mut p);
            sort_coo(&mut r, &mut c, &mut p, by_row);
            let key = |i: usize| if by_row { (r[i], c[i]) } else { (c[i], r[i]) };
            assert!((1..n).all(|i| key(i - 1) <= key(i)));
            assert!((0..n).all(|i| rows0[p[i] as usize] == r[i] && cols0[p[i] as usize] == c[i]));
        }
    }
}
