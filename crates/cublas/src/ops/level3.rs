//! Level 3: matrix-matrix operations (`gemm`, `syrk`/`herk`, `syr2k`/`her2k`,
//! `symm`/`hemm`, `trsm`, `trmm`), with cuBLAS's argument checks.

use super::{ch, ensure, least_ld, Call, Elem};
use crate::operand::Host;
use crate::status::BlasResult;
use crate::types::{Diag, Fill, Op, Side};

/// The rows and columns of `op(X)`'s storage when `op(X)` is `rows` x `cols`.
pub fn stored(op: Op, rows: i32, cols: i32) -> (i32, i32) {
    if op == Op::N {
        (rows, cols)
    } else {
        (cols, rows)
    }
}

/// NVIDIA's cuBLAS reports an invalid argument of `cublas?gemm` on stderr the way the
/// reference BLAS's `xerbla` does (seen on an H200): ` ** On entry to SGEMM  parameter
/// number 3 had an illegal value`. The other entry points stay silent here (unmeasured).
fn xerbla(name: &str, position: i32) {
    if let Some(routine) = name.strip_prefix("cublas").and_then(|r| r.strip_suffix("_v2")) {
        eprintln!(" ** On entry to {:<6} parameter number {position} had an illegal value", routine.to_uppercase());
    }
}

/// The checked operands of one `gemm` (also one problem of a batch).
#[derive(Clone, Copy)]
pub struct GemmShape {
    pub ta: Op,
    pub tb: Op,
    pub m: i32,
    pub n: i32,
    pub k: i32,
    pub lda: i32,
    pub ldb: i32,
    pub ldc: i32,
}

impl GemmShape {
    /// cuBLAS's checks of `gemm`'s sizes.
    #[allow(clippy::too_many_arguments, reason = "the BLAS routine's parameters")]
    pub fn check(name: &str, transa: i32, transb: i32, m: i32, n: i32, k: i32, lda: i32, ldb: i32, ldc: i32) -> BlasResult<GemmShape> {
        let (ta, tb) = (Op::from_c(transa), Op::from_c(transb));
        let (arows, _) = stored(*ta.as_ref().unwrap_or(&Op::N), m, k);
        let (brows, _) = stored(*tb.as_ref().unwrap_or(&Op::N), k, n);
        // The first invalid argument in the Fortran routine's numbering (transa 1, transb 2,
        // m 3, n 4, k 5, lda 8, ldb 10, ldc 13), as cuBLAS reports it.
        let bad = [
            (ta.is_err(), 1),
            (tb.is_err(), 2),
            (m < 0, 3),
            (n < 0, 4),
            (k < 0, 5),
            (lda < least_ld(arows), 8),
            (ldb < least_ld(brows), 10),
            (ldc < least_ld(m), 13),
        ]
        .into_iter()
        .find_map(|(is_bad, position)| is_bad.then_some(position));
        if let Some(position) = bad {
            xerbla(name, position);
            return Err(crate::status::fail(
                crate::status::INVALID_VALUE,
                format_args!(
                    "{name}: argument {position} is invalid (transa={transa} transb={transb} m={m} n={n} k={k} lda={lda} ldb={ldb} ldc={ldc})"
                ),
            ));
        }
        Ok(GemmShape { ta: ta?, tb: tb?, m, n, k, lda, ldb, ldc })
    }

    pub fn is_empty(&self) -> bool {
        self.m == 0 || self.n == 0
    }

    /// Host views of `A`, `B` and `C`.
    pub fn views<T>(&self, call: &Call, a: *const T, b: *const T, c: *const T) -> BlasResult<(Host, Host, Host)> {
        let (ar, ac) = stored(self.ta, self.m, self.k);
        let (br, bc) = stored(self.tb, self.k, self.n);
        Ok((call.matrix(a, ar, ac, self.lda, "A")?, call.matrix(b, br, bc, self.ldb, "B")?, call.matrix(c, self.m, self.n, self.ldc, "C")?))
    }

    /// Runs `C = alpha op(A) op(B) + beta C` on host memory.
    ///
    /// # Safety
    /// The views are this shape's, checked by [`GemmShape::views`].
    pub unsafe fn run<T: Elem>(&self, blas: &cpu_blas::OpenBlas, alpha: T, (a, b, c): (Host, Host, Host), beta: T) {
        let (ta, tb) = (self.ta.blas(), self.tb.blas());
        // SAFETY: per the contract.
        unsafe {
            (T::routines(blas).gemm)(
                ch(&ta),
                ch(&tb),
                &self.m,
                &self.n,
                &self.k,
                (&alpha as *const T).cast(),
                a.ptr(),
                &self.lda,
                b.ptr(),
                &self.ldb,
                (&beta as *const T).cast(),
                c.ptr(),
                &self.ldc,
            )
        }
    }
}

/// `C = alpha op(A) op(B) + beta C`.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?gemm's parameters")]
pub unsafe fn gemm<T: Elem>(
    call: Call,
    transa: i32,
    transb: i32,
    m: i32,
    n: i32,
    k: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    b: *const T,
    ldb: i32,
    beta: *const T,
    c: *mut T,
    ldc: i32,
) -> BlasResult {
    let shape = GemmShape::check(call.name, transa, transb, m, n, k, lda, ldb, ldc)?;
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if shape.is_empty() {
        return Ok(());
    }
    let views = shape.views(&call, a, b, c)?;
    // SAFETY: the views are the shape's.
    call.queue(move |blas| unsafe { shape.run(blas, alpha.get(), views, beta.get()) })
}

/// Which rank-k update.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum RankK {
    /// `syrk`/`herk`: `C = alpha op(A) op(A)^T + beta C`.
    One,
    /// `syr2k`/`her2k`: `C = alpha op(A) op(B)^T + alpha op(B) op(A)^T + beta C`.
    Two,
}

/// `syrk`, `herk` (`hermitian`: real `alpha`/`beta` given as `S = T::Real`), `syr2k`,
/// `her2k` (complex `alpha`, real `beta`).
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?syr2k's parameters")]
pub unsafe fn rank_k<T: Elem, SA: Copy + Send + 'static, SB: Copy + Send + 'static>(
    call: Call,
    which: RankK,
    hermitian: bool,
    uplo: i32,
    trans: i32,
    n: i32,
    k: i32,
    alpha: *const SA,
    a: *const T,
    lda: i32,
    b: *const T,
    ldb: i32,
    beta: *const SB,
    c: *mut T,
    ldc: i32,
) -> BlasResult {
    let (fill, mut op) = (Fill::from_c(uplo)?, Op::from_c(trans)?);
    // NVIDIA's cuBLAS accepts every operation (measured: csyrk with C, cherk with T
    // succeed); for complex types a symmetric update transposes and a Hermitian one
    // conjugate-transposes whichever non-N operation is asked, which is what LAPACK's
    // routines accept.
    if T::COMPLEX && op != Op::N {
        op = if hermitian { Op::C } else { Op::T };
    }
    ensure!(n >= 0 && k >= 0, "{}: n={n} k={k}", call.name);
    let (rows, cols) = stored(op, n, k);
    ensure!(lda >= least_ld(rows), "{}: lda={lda} < max(1, {rows})", call.name);
    ensure!(which == RankK::One || ldb >= least_ld(rows), "{}: ldb={ldb} < max(1, {rows})", call.name);
    ensure!(ldc >= least_ld(n), "{}: ldc={ldc} < max(1, n={n})", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if n == 0 {
        return Ok(());
    }
    let ha = call.matrix(a, rows, cols, lda, "A")?;
    let hb = if which == RankK::Two { call.matrix(b, rows, cols, ldb, "B")? } else { ha };
    let hc = call.matrix(c, n, n, ldc, "C")?;
    call.queue(move |blas| {
        let (al, be, u, t) = (alpha.get(), beta.get(), fill.blas(), op.blas());
        let (alp, bep) = ((&al as *const SA).cast(), (&be as *const SB).cast());
        let r = T::routines(blas);
        // SAFETY: every extent was checked; the scalars have the routine's types.
        unsafe {
            match which {
                RankK::One => {
                    let f = if hermitian { r.herk.expect("complex") } else { r.syrk };
                    f(ch(&u), ch(&t), &n, &k, alp, ha.ptr(), &lda, bep, hc.ptr(), &ldc)
                }
                RankK::Two => {
                    let f = if hermitian { r.her2k.expect("complex") } else { r.syr2k };
                    f(ch(&u), ch(&t), &n, &k, alp, ha.ptr(), &lda, hb.ptr(), &ldb, bep, hc.ptr(), &ldc)
                }
            }
        }
    })
}

/// `symm`/`hemm`: `C = alpha A B + beta C` (`side` left) or `alpha B A + beta C`.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?symm's parameters")]
pub unsafe fn symm<T: Elem>(
    call: Call,
    hermitian: bool,
    side: i32,
    uplo: i32,
    m: i32,
    n: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    b: *const T,
    ldb: i32,
    beta: *const T,
    c: *mut T,
    ldc: i32,
) -> BlasResult {
    let (side, fill) = (Side::from_c(side)?, Fill::from_c(uplo)?);
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    let ka = if side == Side::Left { m } else { n };
    ensure!(lda >= least_ld(ka), "{}: lda={lda} < max(1, {ka})", call.name);
    ensure!(ldb >= least_ld(m) && ldc >= least_ld(m), "{}: ldb={ldb} ldc={ldc} < max(1, m={m})", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (ha, hb, hc) = (call.matrix(a, ka, ka, lda, "A")?, call.matrix(b, m, n, ldb, "B")?, call.matrix(c, m, n, ldc, "C")?);
    call.queue(move |blas| {
        let (al, be, s, u) = (alpha.get(), beta.get(), side.blas(), fill.blas());
        let r = T::routines(blas);
        let f = if hermitian { r.hemm.expect("complex") } else { r.symm };
        // SAFETY: every extent was checked.
        unsafe { f(ch(&s), ch(&u), &m, &n, (&al as *const T).cast(), ha.ptr(), &lda, hb.ptr(), &ldb, (&be as *const T).cast(), hc.ptr(), &ldc) }
    })
}

/// The checked operands of `trsm`/`trmm`.
#[derive(Clone, Copy)]
pub struct TriShape {
    pub side: Side,
    pub fill: Fill,
    pub op: Op,
    pub diag: Diag,
    pub m: i32,
    pub n: i32,
    pub lda: i32,
    pub ldb: i32,
}

impl TriShape {
    #[allow(clippy::too_many_arguments, reason = "cublas?trsm's parameters")]
    pub fn check(name: &str, side: i32, uplo: i32, trans: i32, diag: i32, m: i32, n: i32, lda: i32, ldb: i32) -> BlasResult<TriShape> {
        let (side, fill, op, diag) = (Side::from_c(side)?, Fill::from_c(uplo)?, Op::from_c(trans)?, Diag::from_c(diag)?);
        ensure!(m >= 0 && n >= 0, "{name}: m={m} n={n}");
        let ka = if side == Side::Left { m } else { n };
        ensure!(lda >= least_ld(ka), "{name}: lda={lda} < max(1, {ka})");
        ensure!(ldb >= least_ld(m), "{name}: ldb={ldb} < max(1, m={m})");
        Ok(TriShape { side, fill, op, diag, m, n, lda, ldb })
    }

    /// The order of the triangular matrix.
    pub fn ka(&self) -> i32 {
        if self.side == Side::Left {
            self.m
        } else {
            self.n
        }
    }

    /// `B = alpha op(A)^-1 B` (`solve`) or `B = alpha op(A) B` in place.
    ///
    /// # Safety
    /// `a` and `b` span the shape's matrices.
    pub unsafe fn run<T: Elem>(&self, blas: &cpu_blas::OpenBlas, solve: bool, alpha: T, a: Host, b: Host) {
        let (s, u, t, d) = (self.side.blas(), self.fill.blas(), self.op.blas(), self.diag.blas());
        let r = T::routines(blas);
        let f = if solve { r.trsm } else { r.trmm };
        // SAFETY: per the contract.
        unsafe { f(ch(&s), ch(&u), ch(&t), ch(&d), &self.m, &self.n, (&alpha as *const T).cast(), a.ptr(), &self.lda, b.ptr(), &self.ldb) }
    }
}

/// `trsm`: `B = alpha op(A)^-1 B` (left) or `alpha B op(A)^-1` (right), in place.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?trsm's parameters")]
pub unsafe fn trsm<T: Elem>(
    call: Call,
    side: i32,
    uplo: i32,
    trans: i32,
    diag: i32,
    m: i32,
    n: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    b: *mut T,
    ldb: i32,
) -> BlasResult {
    let shape = TriShape::check(call.name, side, uplo, trans, diag, m, n, lda, ldb)?;
    // SAFETY: forwarded.
    let alpha = unsafe { call.scalar(alpha, "alpha") }?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    let (ha, hb) = (call.matrix(a, shape.ka(), shape.ka(), lda, "A")?, call.matrix(b, m, n, ldb, "B")?);
    // SAFETY: the views are the shape's.
    call.queue(move |blas| unsafe { shape.run::<T>(blas, true, alpha.get(), ha, hb) })
}

/// cuBLAS's `trmm` is out of place: `C = alpha op(A) B` (left) or `alpha B op(A)`;
/// `C` may be `B` itself.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?trmm's parameters")]
pub unsafe fn trmm<T: Elem>(
    call: Call,
    side: i32,
    uplo: i32,
    trans: i32,
    diag: i32,
    m: i32,
    n: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    b: *const T,
    ldb: i32,
    c: *mut T,
    ldc: i32,
) -> BlasResult {
    let shape = TriShape::check(call.name, side, uplo, trans, diag, m, n, lda, ldb)?;
    ensure!(ldc >= least_ld(m), "{}: ldc={ldc} < max(1, m={m})", call.name);
    // SAFETY: forwarded.
    let alpha = unsafe { call.scalar(alpha, "alpha") }?;
    if m == 0 || n == 0 {
        return Ok(());
    }
    let ha = call.matrix(a, shape.ka(), shape.ka(), lda, "A")?;
    let (hb, hc) = (call.matrix(b, m, n, ldb, "B")?, call.matrix(c, m, n, ldc, "C")?);
    call.queue(move |blas| {
        if hb != hc || ldb != ldc {
            for j in 0..n as usize {
                // SAFETY: column j of B and of C lie in the checked extents; they may
                // overlap only if the caller aliased them partially, which cuBLAS forbids.
                unsafe { std::ptr::copy(hb.ptr::<T>().add(j * ldb as usize), hc.ptr::<T>().add(j * ldc as usize), m as usize) };
            }
        }
        let in_place = TriShape { ldb: ldc, ..shape };
        // SAFETY: C now holds B, with C's leading dimension.
        unsafe { in_place.run::<T>(blas, false, alpha.get(), ha, hc) }
    })
}

/// `syrkx`/`herkx`: `C = alpha op(A) op(B)^T + beta C` (`herkx`: `op(B)^H`, real `beta`)
/// on the `uplo` triangle of `C` only; cuBLAS's variant of `syr2k` for when
/// `op(A) op(B)^T` is known to be symmetric. One GEMM into a scratch matrix, then the
/// triangle is combined.
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?syrkx's parameters")]
pub unsafe fn rank_kx<T: Elem, SB: Copy + Send + 'static>(
    call: Call,
    hermitian: bool,
    uplo: i32,
    trans: i32,
    n: i32,
    k: i32,
    alpha: *const T,
    a: *const T,
    lda: i32,
    b: *const T,
    ldb: i32,
    beta: *const SB,
    c: *mut T,
    ldc: i32,
) -> BlasResult {
    let (fill, mut op) = (Fill::from_c(uplo)?, Op::from_c(trans)?);
    if T::COMPLEX && op != Op::N {
        op = if hermitian { Op::C } else { Op::T };
    }
    ensure!(n >= 0 && k >= 0, "{}: n={n} k={k}", call.name);
    let (rows, cols) = stored(op, n, k);
    ensure!(lda >= least_ld(rows) && ldb >= least_ld(rows), "{}: lda={lda} ldb={ldb} < max(1, {rows})", call.name);
    ensure!(ldc >= least_ld(n), "{}: ldc={ldc} < max(1, n={n})", call.name);
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?) };
    if n == 0 {
        return Ok(());
    }
    let (ha, hb, hc) = (call.matrix(a, rows, cols, lda, "A")?, call.matrix(b, rows, cols, ldb, "B")?, call.matrix(c, n, n, ldc, "C")?);
    call.queue(move |blas| {
        let (al, be) = (alpha.get(), beta.get());
        // beta as an element: a real beta (herkx) becomes (beta, 0).
        let mut beta_elem = T::default();
        // SAFETY: SB is T or T's real type, which is T's first field.
        unsafe { std::ptr::copy_nonoverlapping((&be as *const SB).cast::<u8>(), (&mut beta_elem as *mut T).cast::<u8>(), size_of::<SB>()) };
        let second = if op == Op::N {
            if hermitian && T::COMPLEX {
                Op::C
            } else {
                Op::T
            }
        } else {
            Op::N
        };
        let mut scratch = vec![T::default(); n as usize * n as usize];
        let product = GemmShape { ta: op, tb: second, m: n, n, k, lda, ldb, ldc: n };
        // SAFETY: A and B were checked for op's shapes; the scratch is n x n.
        unsafe { product.run::<T>(blas, al, (ha, hb, Host(scratch.as_mut_ptr() as usize)), T::default()) };
        for j in 0..n as usize {
            let rows = if fill == Fill::Upper { 0..j + 1 } else { j..n as usize };
            for i in rows {
                // SAFETY: (i, j) is inside C's checked extent.
                let cij = unsafe { hc.ptr::<T>().add(j * ldc as usize + i) };
                let old = if beta_elem.is_zero() { T::default() } else { unsafe { cij.read() }.mul(beta_elem) };
                let mut v = scratch[j * n as usize + i].add(old);
                if hermitian && T::COMPLEX && i == j {
                    // The diagonal of a Hermitian result is real.
                    v = v.add(v.conj()).mul(half::<T>());
                }
                // SAFETY: as above.
                unsafe { cij.write(v) };
            }
        }
    })
}

/// 1/2 as an element.
fn half<T: Elem>() -> T {
    let one = T::one();
    one.add(one).recip()
}
