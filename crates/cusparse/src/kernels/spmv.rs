//! Sparse matrix times dense vector (`cusparseSpMV`), sparse dot product
//! (`cusparseSpVV`) and gather (`cusparseGather`).

use super::{pos, row_range, scale, Index, KResult, Op, Rows, Sparse, Value};

/// Nonzeros from which a CSR product is split over threads (below it, the threads'
/// start-up costs more than they save).
const PARALLEL_NNZ: usize = 1 << 16;
/// The most threads one product uses.
const MAX_THREADS: usize = 16;

/// `y = alpha * op(A) * x + beta * y`; `beta == 0` ignores what `y` held.
pub fn spmv<T: Value, I: Index>(op: Op, a: &Sparse<T, I>, alpha: T, x: &[T], beta: T, y: &mut [T]) -> KResult {
    let (m, n) = if op.trans { (a.cols, a.rows) } else { (a.rows, a.cols) };
    if x.len() < n || y.len() < m {
        return Err(format!("x has {} elements for {n} columns, y {} for {m} rows", x.len(), y.len()));
    }
    match a.layout {
        Rows::Compressed(offsets) if !op.trans => {
            // Rows are independent: large products split them over the host's cores.
            let threads = if a.nnz() >= PARALLEL_NNZ { std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_THREADS) } else { 1 };
            let chunk = m.div_ceil(threads).max(1);
            let rows_of = |first: usize, ys: &mut [T]| -> KResult {
                for (k, yr) in ys.iter_mut().enumerate() {
                    let mut sum = T::default();
                    for e in row_range(offsets, first + k, a.base, a.nnz())? {
                        let c = pos(a.indices[e], a.base, a.cols, "column index")?;
                        sum = sum.add(op.value(a.values[e]).mul(x[c]));
                    }
                    *yr = if beta.is_zero() { alpha.mul(sum) } else { alpha.mul(sum).add(beta.mul(*yr)) };
                }
                Ok(())
            };
            if threads == 1 {
                return rows_of(0, &mut y[..m]);
            }
            std::thread::scope(|s| {
                let rows_of = &rows_of;
                let workers: Vec<_> = y[..m].chunks_mut(chunk).enumerate().map(|(i, ys)| s.spawn(move || rows_of(i * chunk, ys))).collect();
                workers.into_iter().try_for_each(|w| w.join().unwrap_or_else(|_| Err("a SpMV worker panicked".to_string())))
            })
        }
        _ => {
            scale(&mut y[..m], beta);
            a.for_each(|r, c, v| {
                let (i, j) = if op.trans { (c, r) } else { (r, c) };
                y[i] = y[i].add(alpha.mul(op.value(v)).mul(x[j]));
            })
        }
    }
}

/// `sum op(x_values[e]) * y[x_indices[e] - base]` (`conj` conjugates the sparse vector).
pub fn spvv<T: Value, I: Index>(conj: bool, indices: &[I], values: &[T], base: i64, y: &[T]) -> KResult<T> {
    let mut sum = T::default();
    for (&i, &v) in indices.iter().zip(values) {
        let v = if conj { v.conj() } else { v };
        sum = sum.add(v.mul(y[pos(i, base, y.len(), "sparse vector index")?]));
    }
    Ok(sum)
}

/// `x_values[e] = y[x_indices[e] - base]`.
pub fn gather<T: Value, I: Index>(indices: &[I], base: i64, y: &[T], values: &mut [T]) -> KResult {
    for (&i, v) in indices.iter().zip(values.iter_mut()) {
        *v = y[pos(i, base, y.len(), "sparse vector index")?];
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[allow(clippy::too_many_arguments, reason = "a reference product")]
    fn dense_mv(d: &[f64], rows: usize, cols: usize, trans: bool, alpha: f64, x: &[f64], beta: f64, y: &[f64]) -> Vec<f64> {
        let (m, n) = if trans { (cols, rows) } else { (rows, cols) };
        (0..m)
            .map(|i| {
                let s: f64 = (0..n).map(|j| if trans { d[j * cols + i] } else { d[i * cols + j] } * x[j]).sum();
                alpha * s + beta * y[i]
            })
            .collect()
    }

    #[test]
    fn csr_and_coo_match_dense_products_in_both_bases_and_orientations() {
        let mut rng = Rng(7);
        for &(rows, cols) in &[(1, 1), (5, 9), (17, 4), (30, 30)] {
            let d = random_dense(&mut rng, rows, cols, 0.3);
            for base in [0, 1] {
                let (off, idx, val) = to_csr(&d, rows, cols, base);
                let coo_rows: Vec<i32> = (0..rows).flat_map(|r| std::iter::repeat_n(r as i32 + base, (off[r + 1] - off[r]) as usize)).collect();
                for trans in [false, true] {
                    let (m, n) = if trans { (cols, rows) } else { (rows, cols) };
                    let x: Vec<f64> = (0..n).map(|_| rng.next()).collect();
                    let y0: Vec<f64> = (0..m).map(|_| rng.next()).collect();
                    let op = if trans { Op::T } else { Op::N };
                    for layout in [Rows::Compressed(&off[..]), Rows::Coordinate(&coo_rows[..])] {
                        let a = Sparse { rows, cols, layout, indices: &idx[..], values: &val[..], base: base as i64 };
                        for (alpha, beta) in [(1.0, 0.0), (2.5, -0.5)] {
                            let mut y = y0.clone();
                            spmv(op, &a, alpha, &x, beta, &mut y).unwrap();
                            assert!(close(&y, &dense_mv(&d, rows, cols, trans, alpha, &x, beta, &y0)), "{rows}x{cols} base {base} trans {trans}");
                        }
                    }
                }
            }
        }
    }

    #[test]
    fn beta_zero_overwrites_nan_and_conjugation_applies() {
        let off = [0i32, 1];
        let idx = [0i32];
        let val = [[1.0f64, 2.0]];
        let a = Sparse { rows: 1, cols: 1, layout: Rows::Compressed(&off[..]), indices: &idx[..], values: &val[..], base: 0 };
        let mut y = [[f64::NAN, f64::NAN]];
        spmv(Op::H, &a, [1.0, 0.0], &[[1.0, 0.0]], [0.0, 0.0], &mut y).unwrap();
        assert_eq!(y, [[1.0, -2.0]]);
    }

    #[test]
    fn out_of_range_indices_are_errors_not_reads() {
        let off = [0i32, 2];
        let idx = [0i32, 5];
        let val = [1.0f64, 1.0];
        let a = Sparse { rows: 1, cols: 2, layout: Rows::Compressed(&off[..]), indices: &idx[..], values: &val[..], base: 0 };
        assert!(spmv(Op::N, &a, 1.0, &[1.0, 1.0], 0.0, &mut [0.0]).is_err());
        let bad_offsets = [0i32, 3];
        let a = Sparse { layout: Rows::Compressed(&bad_offsets[..]), ..a };
        assert!(spmv(Op::N, &a, 1.0, &[1.0, 1.0], 0.0, &mut [0.0]).is_err());
    }

    #[test]
    fn spvv_and_gather() {
        let y = [1.0f64, 2.0, 3.0, 4.0];
        assert_eq!(spvv(false, &[1i64, 3], &[10.0, 100.0], 0, &y).unwrap(), 420.0);
        let mut v = [0.0; 2];
        gather(&[3i32, 1], 1, &y, &mut v).unwrap();
        assert_eq!(v, [3.0, 1.0]);
    }
}

/// `cargo test -p cusparse --release -- --ignored --nocapture spmv_throughput`: the
/// CSR SpMV rate on this machine (spmv splits rows over threads from 2^16 nonzeros), and the same rows split over two
/// scoped threads (the question of whether threads pay).
#[cfg(test)]
mod bench {
    use super::super::test_util::Rng;
    use super::*;

    #[test]
    #[ignore]
    fn spmv_throughput() {
        let (rows, per_row) = (1usize << 20, 10usize);
        let mut rng = Rng(1);
        let offsets: Vec<i32> = (0..=rows).map(|r| (r * per_row) as i32).collect();
        let indices: Vec<i32> = (0..rows * per_row).map(|_| rng.below(rows) as i32).collect();
        let values: Vec<f64> = (0..rows * per_row).map(|_| rng.next()).collect();
        let x: Vec<f64> = (0..rows).map(|_| rng.next()).collect();
        let mut y = vec![0.0; rows];
        let a = Sparse { rows, cols: rows, layout: Rows::Compressed(&offsets[..]), indices: &indices[..], values: &values[..], base: 0 };
        let time = |f: &mut dyn FnMut()| {
            f();
            let t = std::time::Instant::now();
            for _ in 0..5 {
                f();
            }
            t.elapsed().as_secs_f64() / 5.0
        };
        let one = time(&mut || spmv(Op::N, &a, 1.0, &x, 0.0, &mut y).unwrap());
        let two = time(&mut || {
            let (lo, hi) = y.split_at_mut(rows / 2);
            std::thread::scope(|s| {
                let top = Sparse { rows: rows / 2, ..a };
                let bottom_offsets = &offsets[rows / 2..];
                let bottom = Sparse { rows: rows - rows / 2, layout: Rows::Compressed(bottom_offsets), ..a };
                let xr = &x[..];
                s.spawn(move || spmv(Op::N, &top, 1.0, xr, 0.0, lo).unwrap());
                spmv(Op::N, &bottom, 1.0, &x, 0.0, hi).unwrap();
            })
        });
        let nnz = (rows * per_row) as f64;
        println!(
            "CSR SpMV, {rows} rows, {nnz} nonzeros: spmv (threads from 2^16 nonzeros) {:.1} ms ({:.2} Gnnz/s), rows split by hand over 2 threads {:.1} ms",
            one * 1e3,
            nnz / one / 1e9,
            two * 1e3
        );
    }
}
