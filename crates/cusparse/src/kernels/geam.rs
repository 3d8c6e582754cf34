//! Sparse matrix addition `C = alpha * A + beta * B` (`cusparseXcsrgeam2Nnz`,
//! `cusparse?csrgeam2`): each row of `C` is the union of the columns of `A`'s and
//! `B`'s rows, sorted, an index present in both summed.

use super::{pos, row_range, Index, KResult, Value};

/// A CSR operand: `m + 1` offsets, column indices, values (absent for the structure).
#[derive(Clone, Copy, Debug)]
pub struct Csr<'a, T, I> {
    pub offsets: &'a [I],
    pub indices: &'a [I],
    pub values: Option<&'a [T]>,
    pub base: i64,
}

/// Row `r` of `scale_a * A + scale_b * B` as sorted `(column, value)` pairs in `out`.
fn merged_row<T: Value, I: Index>(r: usize, n: usize, parts: [(T, &Csr<T, I>); 2], out: &mut Vec<(usize, T)>) -> KResult {
    out.clear();
    for (scale, x) in parts {
        for e in row_range(x.offsets, r, x.base, x.indices.len())? {
            let c = pos(x.indices[e], x.base, n, "column index")?;
            out.push((c, x.values.map_or(T::default(), |v| scale.mul(v[e]))));
        }
    }
    out.sort_by_key(|&(c, _)| c);
    out.dedup_by(|next, kept| {
        let same = next.0 == kept.0;
        if same {
            kept.1 = kept.1.add(next.1);
        }
        same
    });
    Ok(())
}

/// The row offsets of `A + B` (with base `base_c`); returns its number of entries.
pub fn geam_offsets<T: Value, I: Index>(m: usize, n: usize, a: &Csr<T, I>, b: &Csr<T, I>, base_c: i64, offsets: &mut [I]) -> KResult<i64> {
    let mut row = Vec::new();
    let mut sum = 0i64;
    offsets[0] = I::of(base_c);
    for r in 0..m {
        merged_row(r, n, [(T::default(), a), (T::default(), b)], &mut row)?;
        sum += row.len() as i64;
        offsets[r + 1] = I::of(sum + base_c);
    }
    Ok(sum)
}

/// `C = alpha * A + beta * B` into `C`'s indices and values, at the offsets
/// [`geam_offsets`] computed.
#[allow(clippy::too_many_arguments, reason = "csrgeam2's operands")]
pub fn geam<T: Value, I: Index>(
    m: usize,
    n: usize,
    alpha: T,
    a: &Csr<T, I>,
    beta: T,
    b: &Csr<T, I>,
    offsets_c: &[I],
    base_c: i64,
    indices_c: &mut [I],
    values_c: &mut [T],
) -> KResult {
    let mut row = Vec::new();
    for r in 0..m {
        merged_row(r, n, [(alpha, a), (beta, b)], &mut row)?;
        let range = row_range(offsets_c, r, base_c, indices_c.len().min(values_c.len()))?;
        if range.len() != row.len() {
            return Err(format!("row {r} of C has room for {} entries, A + B has {}", range.len(), row.len()));
        }
        for (e, &(c, v)) in range.zip(&row) {
            indices_c[e] = I::of(c as i64 + base_c);
            values_c[e] = v;
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn sum_matches_the_dense_sum_across_bases() {
        let mut rng = Rng(21);
        let (m, n) = (9, 11);
        let da = random_dense(&mut rng, m, n, 0.3);
        let db = random_dense(&mut rng, m, n, 0.3);
        for (ba, bb, bc) in [(0, 0, 0), (1, 0, 1), (0, 1, 0)] {
            let (ao, ai, av) = to_csr(&da, m, n, ba);
            let (bo, bi, bv) = to_csr(&db, m, n, bb);
            let a = Csr { offsets: &ao[..], indices: &ai[..], values: Some(&av[..]), base: ba as i64 };
            let b = Csr { offsets: &bo[..], indices: &bi[..], values: Some(&bv[..]), base: bb as i64 };
            let mut co = vec![0i32; m + 1];
            let nnz = geam_offsets(m, n, &a, &b, bc as i64, &mut co).unwrap() as usize;
            let (mut ci, mut cv) = (vec![0i32; nnz], vec![0.0; nnz]);
            geam(m, n, 2.0, &a, -3.0, &b, &co, bc as i64, &mut ci, &mut cv).unwrap();
            let mut dense = vec![0.0; m * n];
            for r in 0..m {
                for e in (co[r] - bc) as usize..(co[r + 1] - bc) as usize {
                    dense[r * n + (ci[e] - bc) as usize] = cv[e];
                }
            }
            let want: Vec<f64> = da.iter().zip(&db).map(|(x, y)| 2.0 * x - 3.0 * y).collect();
            assert!(close(&dense, &want));
            // The structure is the union of the patterns, whatever the values.
            let union = da.iter().zip(&db).filter(|(x, y)| **x != 0.0 || **y != 0.0).count();
            assert_eq!(nnz, union);
        }
    }
}
