//! The arithmetic, over host slices: no CUDA, no C types. Each kernel takes the
//! structure as the caller's arrays (with their index base) and reports a malformed one
//! (an offset or index out of range) as `Err` instead of reading past a slice.

pub mod convert;
pub mod geam;
pub mod sort;
pub mod spgemm;
pub mod spmm;
pub mod spmv;

pub use cpu_blas::{Arith, C32, C64};

/// A sparse value type: `f32`, `f64`, `C32`, `C64`.
pub trait Value: Arith + Send + Sync + PartialEq + std::fmt::Debug + 'static {
    /// `|v|`.
    fn abs(self) -> f64;
    /// The real part.
    fn real(self) -> f64;
    /// `v` from a real number (tests and identity values).
    fn of(re: f64) -> Self;
}

impl Value for f32 {
    fn abs(self) -> f64 {
        (self as f64).abs()
    }
    fn real(self) -> f64 {
        self as f64
    }
    fn of(re: f64) -> Self {
        re as f32
    }
}
impl Value for f64 {
    fn abs(self) -> f64 {
        self.abs()
    }
    fn real(self) -> f64 {
        self
    }
    fn of(re: f64) -> Self {
        re
    }
}
impl Value for C32 {
    fn abs(self) -> f64 {
        (self[0] as f64).hypot(self[1] as f64)
    }
    fn real(self) -> f64 {
        self[0] as f64
    }
    fn of(re: f64) -> Self {
        [re as f32, 0.0]
    }
}
impl Value for C64 {
    fn abs(self) -> f64 {
        self[0].hypot(self[1])
    }
    fn real(self) -> f64 {
        self[0]
    }
    fn of(re: f64) -> Self {
        [re, 0.0]
    }
}

/// A sparse index type: `int32_t` or `int64_t`.
pub trait Index: Copy + Default + Ord + Send + Sync + std::fmt::Debug + 'static {
    fn get(self) -> i64;
    fn of(v: i64) -> Self;
}
impl Index for i32 {
    fn get(self) -> i64 {
        self as i64
    }
    fn of(v: i64) -> Self {
        v as i32
    }
}
impl Index for i64 {
    fn get(self) -> i64 {
        self
    }
    fn of(v: i64) -> Self {
        v
    }
}

pub type KResult<T = ()> = Result<T, String>;

/// `i - base` as a position below `limit`.
pub fn pos<I: Index>(i: I, base: i64, limit: usize, what: &str) -> KResult<usize> {
    let v = i.get() - base;
    if v < 0 || v as usize >= limit {
        return Err(format!("{what} {} out of range [{base}, {})", i.get(), limit as i64 + base));
    }
    Ok(v as usize)
}

/// The entry range of row `r` of a compressed array (offsets relative to `base`).
pub fn row_range<I: Index>(offsets: &[I], r: usize, base: i64, nnz: usize) -> KResult<std::ops::Range<usize>> {
    let (s, e) = (offsets[r].get() - base, offsets[r + 1].get() - base);
    if s < 0 || e < s || e as usize > nnz {
        return Err(format!("offsets[{r}..={}] = {}..{} is not a range within nnz {nnz} (base {base})", r + 1, s + base, e + base));
    }
    Ok(s as usize..e as usize)
}

/// How a kernel applies a sparse operand: `op(A)`, `conj(A)` included (the CSC forms
/// reach it: a CSC matrix is the CSR matrix of its transpose).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Op {
    pub trans: bool,
    pub conj: bool,
}

impl Op {
    pub const N: Op = Op { trans: false, conj: false };
    pub const T: Op = Op { trans: true, conj: false };
    pub const H: Op = Op { trans: true, conj: true };

    /// The operation on `A^T` equal to this one on `A`.
    pub fn of_transpose(self) -> Op {
        Op { trans: !self.trans, conj: self.conj }
    }

    pub fn value<T: Value>(self, v: T) -> T {
        if self.conj {
            v.conj()
        } else {
            v
        }
    }
}

/// The stored layout of a sparse operand, row-compressed or coordinate.
#[derive(Clone, Copy, Debug)]
pub enum Rows<'a, I> {
    /// `rows + 1` offsets.
    Compressed(&'a [I]),
    /// One row index per entry.
    Coordinate(&'a [I]),
}

/// A sparse matrix as stored: `rows` x `cols`, entries `(row, indices[e], values[e])`.
#[derive(Clone, Copy, Debug)]
pub struct Sparse<'a, T, I> {
    pub rows: usize,
    pub cols: usize,
    pub layout: Rows<'a, I>,
    pub indices: &'a [I],
    pub values: &'a [T],
    pub base: i64,
}

impl<T: Value, I: Index> Sparse<'_, T, I> {
    pub fn nnz(&self) -> usize {
        self.indices.len()
    }

    /// Calls `f(row, col, value)` for every stored entry, in storage order.
    pub fn for_each(&self, mut f: impl FnMut(usize, usize, T)) -> KResult {
        match self.layout {
            Rows::Compressed(offsets) => {
                for r in 0..self.rows {
                    for e in row_range(offsets, r, self.base, self.nnz())? {
                        f(r, pos(self.indices[e], self.base, self.cols, "column index")?, self.values[e]);
                    }
                }
            }
            Rows::Coordinate(rows) => {
                for (e, (&r, &c)) in rows.iter().zip(self.indices).enumerate() {
                    f(pos(r, self.base, self.rows, "row index")?, pos(c, self.base, self.cols, "column index")?, self.values[e]);
                }
            }
        }
        Ok(())
    }
}

/// A dense matrix view: element `(i, j)` at `i + j * ld` (column-major) or
/// `i * ld + j` (row-major).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    pub rows: usize,
    pub cols: usize,
    pub ld: usize,
    pub row_major: bool,
}

impl Layout {
    pub fn at(&self, i: usize, j: usize) -> usize {
        if self.row_major {
            i * self.ld + j
        } else {
            i + j * self.ld
        }
    }

    /// Elements the view spans.
    pub fn span(&self) -> usize {
        let (outer, inner) = if self.row_major { (self.rows, self.cols) } else { (self.cols, self.rows) };
        if outer == 0 || inner == 0 {
            0
        } else {
            (outer - 1) * self.ld + inner
        }
    }
}

/// `y = beta * y`, with `beta == 0` clearing `y` whatever it held (NaN included).
pub fn scale<T: Value>(y: &mut [T], beta: T) {
    if beta.is_zero() {
        y.fill(T::default());
    } else if beta != T::of(1.0) {
        y.iter_mut().for_each(|v| *v = beta.mul(*v));
    }
}

#[cfg(test)]
pub(crate) mod test_util {

    /// A deterministic pseudo-random generator for the tests.
    pub struct Rng(pub u64);
    impl Rng {
        pub fn next(&mut self) -> f64 {
            self.0 = self.0.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            ((self.0 >> 33) as f64) / (1u64 << 31) as f64
        }
        pub fn below(&mut self, n: usize) -> usize {
            (self.next() * n as f64) as usize % n.max(1)
        }
    }

    /// A random `rows` x `cols` dense matrix (row-major) with about `density` nonzeros.
    pub fn random_dense(rng: &mut Rng, rows: usize, cols: usize, density: f64) -> Vec<f64> {
        (0..rows * cols).map(|_| if rng.next() < density { (rng.next() * 8.0 - 4.0).round() } else { 0.0 }).collect()
    }

    /// CSR arrays of a row-major dense matrix, with index base `base`.
    pub fn to_csr(d: &[f64], rows: usize, cols: usize, base: i32) -> (Vec<i32>, Vec<i32>, Vec<f64>) {
        let (mut off, mut idx, mut val) = (vec![base], vec![], vec![]);
        for r in 0..rows {
            for c in 0..cols {
                if d[r * cols + c] != 0.0 {
                    idx.push(c as i32 + base);
                    val.push(d[r * cols + c]);
                }
            }
            off.push(idx.len() as i32 + base);
        }
        (off, idx, val)
    }

    pub fn close(a: &[f64], b: &[f64]) -> bool {
        a.len() == b.len() && a.iter().zip(b).all(|(x, y)| (x - y).abs() <= 1e-9 * (1.0 + y.abs()))
    }
}
