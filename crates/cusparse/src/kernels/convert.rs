//! Format conversions: CSR <-> CSC (`cusparseCsr2cscEx2`), COO <-> CSR row pointers
//! (`cusparseXcoo2csr`, `cusparseXcsr2coo`), dense <-> sparse (`cusparse?nnz`,
//! `cusparseDenseToSparse_*`, `cusparseSparseToDense`) and compression
//! (`cusparse?nnz_compress`, `cusparse?csr2csr_compress`).

use super::{pos, row_range, Index, KResult, Layout, Sparse, Value};

/// The transpose of an `m` x `n` compressed matrix (CSR to CSC, or CSC to CSR): a
/// stable counting sort, so each output row's entries keep the input's order.
/// `values` and `out_values` are `None` for the structure alone (`ACTION_SYMBOLIC`);
/// values are only moved, so any element type will do.
#[allow(clippy::too_many_arguments, reason = "the two compressed arrays of each side")]
pub fn transpose<T: Copy, I: Index>(
    m: usize,
    n: usize,
    offsets: &[I],
    indices: &[I],
    values: Option<&[T]>,
    base: i64,
    out_offsets: &mut [I],
    out_indices: &mut [I],
    mut out_values: Option<&mut [T]>,
) -> KResult {
    let nnz = indices.len();
    let mut count = vec![0usize; n + 1];
    for r in 0..m {
        for e in row_range(offsets, r, base, nnz)? {
            count[pos(indices[e], base, n, "column index")? + 1] += 1;
        }
    }
    for j in 0..n {
        count[j + 1] += count[j];
    }
    for (o, &c) in out_offsets.iter_mut().zip(&count) {
        *o = I::of(c as i64 + base);
    }
    for r in 0..m {
        for e in row_range(offsets, r, base, nnz)? {
            let j = (indices[e].get() - base) as usize;
            let at = count[j];
            count[j] += 1;
            out_indices[at] = I::of(r as i64 + base);
            if let (Some(v), Some(out)) = (values, out_values.as_deref_mut()) {
                out[at] = v[e];
            }
        }
    }
    Ok(())
}

/// Row offsets of `m` rows from one row index per entry (counted, so any order works).
pub fn coo_to_offsets<I: Index>(rows: &[I], m: usize, base: i64, offsets: &mut [I]) -> KResult {
    let mut count = vec![0i64; m + 1];
    for &r in rows {
        count[pos(r, base, m, "row index")? + 1] += 1;
    }
    let mut sum = base;
    for (o, c) in offsets.iter_mut().zip(&count) {
        sum += c;
        *o = I::of(sum);
    }
    Ok(())
}

/// One row index per entry from `m + 1` row offsets.
pub fn offsets_to_coo<I: Index>(offsets: &[I], m: usize, base: i64, rows: &mut [I]) -> KResult {
    let nnz = rows.len();
    for r in 0..m {
        for e in row_range(offsets, r, base, nnz)? {
            rows[e] = I::of(r as i64 + base);
        }
    }
    Ok(())
}

/// Nonzeros of each row (`by_rows`) or column of a dense matrix; returns their sum.
pub fn count_nonzeros<T: Value>(dense: &[T], l: Layout, by_rows: bool, counts: &mut [i32]) -> i64 {
    counts.fill(0);
    for j in 0..l.cols {
        for i in 0..l.rows {
            if !dense[l.at(i, j)].is_zero() {
                counts[if by_rows { i } else { j }] += 1;
            }
        }
    }
    counts.iter().map(|&c| c as i64).sum()
}

/// Offsets of the compressed form (rows if `by_rows`, else columns) of a dense
/// matrix; returns the number of nonzeros.
pub fn dense_offsets<T: Value, I: Index>(dense: &[T], l: Layout, by_rows: bool, base: i64, offsets: &mut [I]) -> i64 {
    let mut counts = vec![0i32; if by_rows { l.rows } else { l.cols }];
    let nnz = count_nonzeros(dense, l, by_rows, &mut counts);
    let mut sum = base;
    offsets[0] = I::of(base);
    for (o, c) in offsets[1..].iter_mut().zip(&counts) {
        sum += *c as i64;
        *o = I::of(sum);
    }
    nnz
}

/// The nonzeros of a dense matrix in compressed order (row by row if `by_rows`, else
/// column by column), ascending within each: their other index and value. `outer` gets
/// the row (column) of each entry when given (COO).
pub fn dense_entries<T: Value, I: Index>(
    dense: &[T],
    l: Layout,
    by_rows: bool,
    base: i64,
    mut outer: Option<&mut [I]>,
    inner: &mut [I],
    values: &mut [T],
) -> KResult {
    let (no, ni) = if by_rows { (l.rows, l.cols) } else { (l.cols, l.rows) };
    let mut e = 0;
    for o in 0..no {
        for i in 0..ni {
            let v = dense[if by_rows { l.at(o, i) } else { l.at(i, o) }];
            if v.is_zero() {
                continue;
            }
            if e >= inner.len() || e >= values.len() {
                return Err(format!("the dense matrix has more nonzeros than the {} entries allocated", inner.len()));
            }
            inner[e] = I::of(i as i64 + base);
            values[e] = v;
            if let Some(out) = outer.as_deref_mut() {
                out[e] = I::of(o as i64 + base);
            }
            e += 1;
        }
    }
    Ok(())
}

/// `dense = A` (duplicates summed; every other element zero).
pub fn to_dense<T: Value, I: Index>(a: &Sparse<T, I>, dense: &mut [T], l: Layout) -> KResult {
    for j in 0..l.cols {
        for i in 0..l.rows {
            dense[l.at(i, j)] = T::default();
        }
    }
    a.for_each(|r, c, v| {
        let at = l.at(r, c);
        dense[at] = dense[at].add(v);
    })
}

/// Entries of each row whose magnitude exceeds `tol`; returns their sum.
pub fn nnz_compress<T: Value, I: Index>(values: &[T], offsets: &[I], m: usize, base: i64, tol: f64, per_row: &mut [I]) -> KResult<i64> {
    let mut total = 0;
    for (r, out) in per_row.iter_mut().enumerate().take(m) {
        let n = row_range(offsets, r, base, values.len())?.filter(|&e| values[e].abs() > tol).count() as i64;
        *out = I::of(n);
        total += n;
    }
    Ok(total)
}

/// The CSR matrix without the entries of magnitude `<= tol` (in the same order).
#[allow(clippy::too_many_arguments, reason = "the input and output CSR arrays")]
pub fn compress<T: Value, I: Index>(
    m: usize,
    values: &[T],
    indices: &[I],
    offsets: &[I],
    base: i64,
    tol: f64,
    out_values: &mut [T],
    out_indices: &mut [I],
    out_offsets: &mut [I],
) -> KResult {
    let mut at = 0usize;
    out_offsets[0] = I::of(base);
    for r in 0..m {
        for e in row_range(offsets, r, base, values.len())? {
            if values[e].abs() > tol {
                if at >= out_values.len() || at >= out_indices.len() {
                    return Err(format!("more than the {} kept entries the output holds", out_values.len()));
                }
                out_values[at] = values[e];
                out_indices[at] = indices[e];
                at += 1;
            }
        }
        out_offsets[r + 1] = I::of(at as i64 + base);
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::super::Rows;
    use super::*;

    #[test]
    fn transpose_is_the_csr_of_the_dense_transpose() {
        let mut rng = Rng(3);
        for &(m, n) in &[(1, 1), (4, 7), (9, 3), (12, 12)] {
            let d = random_dense(&mut rng, m, n, 0.35);
            let dt: Vec<f64> = (0..n * m).map(|x| d[(x % m) * n + x / m]).collect();
            for base in [0, 1] {
                let (off, idx, val) = to_csr(&d, m, n, base);
                let (want_off, want_idx, want_val) = to_csr(&dt, n, m, base);
                let (mut o, mut i, mut v) = (vec![0i32; n + 1], vec![0i32; idx.len()], vec![0.0; idx.len()]);
                transpose(m, n, &off, &idx, Some(&val[..]), base as i64, &mut o, &mut i, Some(&mut v[..])).unwrap();
                assert_eq!((o, i, v), (want_off, want_idx, want_val));
            }
        }
    }

    #[test]
    fn coo_offsets_round_trip() {
        let d = random_dense(&mut Rng(5), 8, 6, 0.3);
        let (off, idx, _) = to_csr(&d, 8, 6, 1);
        let mut rows = vec![0i32; idx.len()];
        offsets_to_coo(&off, 8, 1, &mut rows).unwrap();
        let mut back = vec![0i32; 9];
        coo_to_offsets(&rows, 8, 1, &mut back).unwrap();
        assert_eq!(back, off);
        assert!(coo_to_offsets(&[9i32], 8, 0, &mut back).is_err());
    }

    #[test]
    fn dense_to_sparse_and_back() {
        let (m, n) = (6, 5);
        let d = random_dense(&mut Rng(9), m, n, 0.4);
        let l = Layout { rows: m, cols: n, ld: m + 2, row_major: false };
        let mut col_major = vec![7.0; l.span()];
        for i in 0..m {
            for j in 0..n {
                col_major[l.at(i, j)] = d[i * n + j];
            }
        }
        let (want_off, want_idx, want_val) = to_csr(&d, m, n, 0);
        let mut counts = vec![0; m];
        assert_eq!(count_nonzeros(&col_major, l, true, &mut counts), want_idx.len() as i64);
        let mut off = vec![0i64; m + 1];
        let nnz = dense_offsets(&col_major, l, true, 0, &mut off) as usize;
        let (mut idx, mut val) = (vec![0i64; nnz], vec![0.0; nnz]);
        dense_entries(&col_major, l, true, 0, None, &mut idx, &mut val).unwrap();
        assert_eq!(off, want_off.iter().map(|&x| x as i64).collect::<Vec<_>>());
        assert_eq!(idx, want_idx.iter().map(|&x| x as i64).collect::<Vec<_>>());
        assert_eq!(val, want_val);
        let a = Sparse { rows: m, cols: n, layout: Rows::Compressed(&off[..]), indices: &idx[..], values: &val[..], base: 0 };
        let mut back = vec![-1.0; l.span()];
        to_dense(&a, &mut back, l).unwrap();
        for i in 0..m {
            for j in 0..n {
                assert_eq!(back[l.at(i, j)], d[i * n + j]);
            }
        }
    }

    #[test]
    fn compression_drops_small_entries() {
        let off = [0i32, 3, 4];
        let idx = [0i32, 1, 2, 2];
        let val = [0.0f64, 0.5, -2.0, 0.0];
        let mut per_row = [0i32; 2];
        assert_eq!(nnz_compress(&val, &off, 2, 0, 0.0, &mut per_row).unwrap(), 2);
        assert_eq!(per_row, [2, 0]);
        let (mut v, mut i, mut o) = ([0.0; 2], [0i32; 2], [0i32; 3]);
        compress(2, &val, &idx, &off, 0, 0.0, &mut v, &mut i, &mut o).unwrap();
        assert_eq!((v, i, o), ([0.5, -2.0], [1, 2], [0, 2, 2]));
    }
}
