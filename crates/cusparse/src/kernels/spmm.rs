//! Sparse matrix times dense matrix (`cusparseSpMM`).

use super::{Index, KResult, Layout, Op, Sparse, Value};

/// `C = alpha * op(A) * op(B) + beta * C`, `B` and `C` dense in either order;
/// `beta == 0` ignores what `C` held.
#[allow(clippy::too_many_arguments, reason = "cusparseSpMM's operands")]
pub fn spmm<T: Value, I: Index>(op_a: Op, a: &Sparse<T, I>, op_b: Op, b: &[T], lb: Layout, alpha: T, beta: T, c: &mut [T], lc: Layout) -> KResult {
    let (m, k) = if op_a.trans { (a.cols, a.rows) } else { (a.rows, a.cols) };
    let (kb, n) = if op_b.trans { (lb.cols, lb.rows) } else { (lb.rows, lb.cols) };
    if k != kb || lc.rows != m || lc.cols != n {
        return Err(format!("op(A) is {m}x{k}, op(B) {kb}x{n}, C {}x{}", lc.rows, lc.cols));
    }
    if b.len() < lb.span() || c.len() < lc.span() {
        return Err(format!("B has {} of {} elements, C {} of {}", b.len(), lb.span(), c.len(), lc.span()));
    }
    let op_b_at = |p: usize, j: usize| if op_b.trans { op_b.value(b[lb.at(j, p)]) } else { b[lb.at(p, j)] };
    for j in 0..n {
        for i in 0..m {
            let e = &mut c[lc.at(i, j)];
            *e = if beta.is_zero() { T::default() } else { beta.mul(*e) };
        }
    }
    let mut add = |r: usize, col: usize, v: T, j: usize| {
        let (i, p) = if op_a.trans { (col, r) } else { (r, col) };
        let at = lc.at(i, j);
        c[at] = c[at].add(alpha.mul(op_a.value(v)).mul(op_b_at(p, j)));
    };
    if lc.row_major {
        a.for_each(|r, col, v| (0..n).for_each(|j| add(r, col, v, j)))
    } else {
        (0..n).try_for_each(|j| a.for_each(|r, col, v| add(r, col, v, j)))
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::super::Rows;
    use super::*;

    #[test]
    fn every_operation_and_order_matches_a_dense_product() {
        let mut rng = Rng(11);
        let (rows, cols, n) = (7, 5, 3);
        let d = random_dense(&mut rng, rows, cols, 0.4);
        let (off, idx, val) = to_csr(&d, rows, cols, 0);
        let a = Sparse { rows, cols, layout: Rows::Compressed(&off[..]), indices: &idx[..], values: &val[..], base: 0 };
        for ta in [false, true] {
            let (m, k) = if ta { (cols, rows) } else { (rows, cols) };
            let opa = |i: usize, p: usize| if ta { d[p * cols + i] } else { d[i * cols + p] };
            for tb in [false, true] {
                for (b_row, c_row) in [(false, false), (true, false), (false, true), (true, true)] {
                    let (br, bc) = if tb { (n, k) } else { (k, n) };
                    let lb = Layout { rows: br, cols: bc, ld: if b_row { bc + 1 } else { br + 2 }, row_major: b_row };
                    let lc = Layout { rows: m, cols: n, ld: if c_row { n + 3 } else { m + 1 }, row_major: c_row };
                    let b: Vec<f64> = (0..lb.span()).map(|_| rng.next()).collect();
                    let c0: Vec<f64> = (0..lc.span()).map(|_| rng.next()).collect();
                    let mut c = c0.clone();
                    let (opa_, opb_) = (if ta { Op::T } else { Op::N }, if tb { Op::T } else { Op::N });
                    spmm(opa_, &a, opb_, &b, lb, 2.0, 0.5, &mut c, lc).unwrap();
                    for i in 0..m {
                        for j in 0..n {
                            let s: f64 = (0..k).map(|p| opa(i, p) * if tb { b[lb.at(j, p)] } else { b[lb.at(p, j)] }).sum();
                            let want = 2.0 * s + 0.5 * c0[lc.at(i, j)];
                            assert!((c[lc.at(i, j)] - want).abs() < 1e-9, "ta {ta} tb {tb} b_row {b_row} c_row {c_row}");
                        }
                    }
                }
            }
        }
    }
}
