//! Sparse matrix product `C = alpha * A * B` of CSR matrices (`cusparseSpGEMM_*`):
//! Gustavson's row-by-row accumulation, each row's columns sorted.

use super::geam::Csr;
use super::{pos, row_range, Index, KResult, Value};

/// `C` as `compute` leaves it for `copy`: zero-based CSR arrays.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Product<T> {
    pub offsets: Vec<i64>,
    pub indices: Vec<i64>,
    pub values: Vec<T>,
}

/// `alpha * A * B`, `A` being `m` x `k` and `B` `k` x `n`.
pub fn spgemm<T: Value, I: Index>(m: usize, k: usize, n: usize, alpha: T, a: &Csr<T, I>, b: &Csr<T, I>) -> KResult<Product<T>> {
    let (av, bv) = (a.values.ok_or("A has no values")?, b.values.ok_or("B has no values")?);
    let mut acc = vec![T::default(); n];
    let mut seen = vec![usize::MAX; n];
    let mut cols = Vec::new();
    let mut c = Product { offsets: vec![0], ..Product::default() };
    for r in 0..m {
        cols.clear();
        for e in row_range(a.offsets, r, a.base, a.indices.len())? {
            let p = pos(a.indices[e], a.base, k, "column index of A")?;
            let x = alpha.mul(av[e]);
            for f in row_range(b.offsets, p, b.base, b.indices.len())? {
                let j = pos(b.indices[f], b.base, n, "column index of B")?;
                if seen[j] != r {
                    seen[j] = r;
                    acc[j] = T::default();
                    cols.push(j);
                }
                acc[j] = acc[j].add(x.mul(bv[f]));
            }
        }
        cols.sort_unstable();
        for &j in &cols {
            c.indices.push(j as i64);
            c.values.push(acc[j]);
        }
        c.offsets.push(c.indices.len() as i64);
    }
    Ok(c)
}

/// Writes `p` into `C`'s arrays with index base `base`.
pub fn copy_out<T: Value, I: Index>(p: &Product<T>, base: i64, offsets: &mut [I], indices: &mut [I], values: &mut [T]) {
    for (o, &v) in offsets.iter_mut().zip(&p.offsets) {
        *o = I::of(v + base);
    }
    for (o, &v) in indices.iter_mut().zip(&p.indices) {
        *o = I::of(v + base);
    }
    let n = p.values.len().min(values.len());
    values[..n].copy_from_slice(&p.values[..n]);
}

#[cfg(test)]
mod tests {
    use super::super::test_util::*;
    use super::*;

    #[test]
    fn product_matches_the_dense_product() {
        let mut rng = Rng(33);
        let (m, k, n) = (8, 6, 10);
        let da = random_dense(&mut rng, m, k, 0.35);
        let db = random_dense(&mut rng, k, n, 0.35);
        let (ao, ai, av) = to_csr(&da, m, k, 1);
        let (bo, bi, bv) = to_csr(&db, k, n, 0);
        let a = Csr { offsets: &ao[..], indices: &ai[..], values: Some(&av[..]), base: 1 };
        let b = Csr { offsets: &bo[..], indices: &bi[..], values: Some(&bv[..]), base: 0 };
        let p = spgemm(m, k, n, 1.5, &a, &b).unwrap();
        let mut dense = vec![0.0; m * n];
        for r in 0..m {
            let row = p.offsets[r] as usize..p.offsets[r + 1] as usize;
            assert!(p.indices[row.clone()].windows(2).all(|w| w[0] < w[1]), "sorted row {r}");
            for e in row {
                dense[r * n + p.indices[e] as usize] = p.values[e];
            }
        }
        let want: Vec<f64> = (0..m * n).map(|x| 1.5 * (0..k).map(|q| da[(x / n) * k + q] * db[q * n + x % n]).sum::<f64>()).collect();
        assert!(close(&dense, &want));
        let (mut o, mut i, mut v) = (vec![0i32; m + 1], vec![0i32; p.indices.len()], vec![0.0; p.values.len()]);
        copy_out(&p, 1, &mut o, &mut i, &mut v);
        assert_eq!(o[m] as usize, p.indices.len() + 1);
    }
}
