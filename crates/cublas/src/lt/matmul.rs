//! `cublasLtMatmul`: `D = epilogue(alpha op(A) op(B) + beta C)` over matrix layouts.
//!
//! Row-major layouts are the transposes of column-major ones, so every call is first
//! normalized to column-major operands (a row-major `D` swaps the roles of `A` and `B`:
//! `D^T = op(B)^T op(A)^T`); the product then runs through the mixed-precision GEMM of
//! `ops::gemm_ex` with `D` as its output (`C` copied into `D` first when they differ),
//! and the epilogue (bias, ReLU, GELU, the pre-activation to the aux buffer) is applied
//! to `D` in place. Backward epilogues (`DRELU`, `DGELU`, `BGRAD*`), the tiled orders and
//! vector pointer modes answer `CUBLAS_STATUS_NOT_SUPPORTED`.

use super::attrs::{Kind, MATMUL_DESC, MATRIX_LAYOUT};
use crate::handle::{self, HandleState};
use crate::operand::Host;
use crate::ops::batched::strided_view;
use crate::ops::gemm_ex::{self, Engine, RawScalar, Storage};
use crate::ops::level3::GemmShape;
use crate::ops::{ensure, Call};
use crate::status::{fail, BlasResult, NOT_INITIALIZED, NOT_SUPPORTED};
use crate::types::{Op, PointerMode};

/// A matrix layout's settings.
#[derive(Clone, Copy, Debug)]
pub struct Layout {
    pub dtype: i32,
    pub row_major: bool,
    pub rows: i64,
    pub cols: i64,
    pub ld: i64,
    pub batch: i32,
    pub stride: i64,
}

impl Layout {
    /// # Safety
    /// `p` is NULL or a descriptor.
    pub unsafe fn read(p: *mut u64, what: &str) -> BlasResult<Layout> {
        let k: &Kind = &MATRIX_LAYOUT;
        // SAFETY: forwarded.
        let w = unsafe { k.words(p) }.map_err(|e| fail(e, format_args!("cublasLtMatmul: {what} layout")))?;
        let order = k.value(w, 1);
        if order > 1 {
            return Err(fail(NOT_SUPPORTED, format_args!("cublasLtMatmul: {what} has tiled order {order}")));
        }
        let l = Layout {
            dtype: k.value(w, 0) as i32,
            row_major: order == 1,
            rows: k.value(w, 2),
            cols: k.value(w, 3),
            ld: k.value(w, 4),
            batch: k.value(w, 5) as i32,
            stride: k.value(w, 6),
        };
        let least = if l.row_major { l.cols } else { l.rows };
        ensure!(l.rows >= 0 && l.cols >= 0 && l.ld >= least.max(1) && l.batch >= 1, "cublasLtMatmul: {what} layout {l:?}");
        ensure!(l.ld <= i32::MAX as i64 && l.rows <= i32::MAX as i64 && l.cols <= i32::MAX as i64, "cublasLtMatmul: {what} exceeds 32-bit sizes");
        Ok(l)
    }

    /// The column-major view: `(rows, cols)` as stored column by column, and whether it
    /// is the transpose of the logical matrix.
    fn column_major(&self) -> (i32, i32, bool) {
        if self.row_major {
            (self.cols as i32, self.rows as i32, true)
        } else {
            (self.rows as i32, self.cols as i32, false)
        }
    }

    /// Elements one matrix spans.
    fn elems(&self) -> usize {
        let (r, c, _) = self.column_major();
        crate::operand::matrix_elems(r, c, self.ld as i32)
    }
}

/// The operation's settings from its descriptor.
struct Operation {
    compute: i32,
    scale: i32,
    pointer_mode: PointerMode,
    ta: Op,
    tb: Op,
    epilogue: u32,
    bias: u64,
    bias_stride: i64,
    bias_type: i32,
    aux: u64,
    aux_ld: i64,
    aux_stride: i64,
}

/// `CUBLASLT_EPILOGUE_*` bits this library applies.
const RELU: u32 = 2;
const BIAS: u32 = 4;
const GELU: u32 = 32;
const AUX: u32 = 128;

unsafe fn operation(p: *mut u64) -> BlasResult<Operation> {
    let k: &Kind = &MATMUL_DESC;
    // SAFETY: forwarded.
    let w = unsafe { k.words(p) }?;
    let pointer_mode = match k.value(w, 2) {
        0 => PointerMode::Host,
        1 => PointerMode::Device,
        m => return Err(fail(NOT_SUPPORTED, format_args!("cublasLtMatmul: pointer mode {m}"))),
    };
    let epilogue = k.value(w, 7) as u32;
    let known = [1, RELU, RELU | AUX, BIAS, RELU | BIAS, RELU | AUX | BIAS, GELU, GELU | AUX, GELU | BIAS, GELU | AUX | BIAS];
    if !known.contains(&epilogue) {
        return Err(fail(NOT_SUPPORTED, format_args!("cublasLtMatmul: epilogue {epilogue} (backward and gradient epilogues are not implemented)")));
    }
    Ok(Operation {
        compute: k.value(w, 0) as i32,
        scale: k.value(w, 1) as i32,
        pointer_mode,
        ta: Op::from_c(k.value(w, 3) as i32)?,
        tb: Op::from_c(k.value(w, 4) as i32)?,
        epilogue,
        bias: k.value(w, 8) as u64,
        bias_stride: k.value(w, 10),
        bias_type: k.value(w, 26) as i32,
        aux: k.value(w, 11) as u64,
        aux_ld: k.value(w, 12),
        aux_stride: k.value(w, 13),
    })
}

fn gelu(x: f64) -> f64 {
    // The tanh approximation cuBLASLt documents for its GELU epilogue.
    0.5 * x * (1.0 + (0.797_884_560_802_865_4 * (x + 0.044715 * x * x * x)).tanh())
}

/// The arguments of `cublasLtMatmul` after the handle and descriptor.
pub struct Operands {
    pub alpha: *const u8,
    pub beta: *const u8,
    pub a: (u64, *mut u64),
    pub b: (u64, *mut u64),
    pub c: (u64, *mut u64),
    pub d: (u64, *mut u64),
    pub stream: usize,
}

/// `cublasLtMatmul`.
///
/// # Safety
/// The descriptors are NULL or descriptors; host-mode scalars are readable.
pub unsafe fn matmul(handle: usize, desc: *mut u64, x: Operands) -> BlasResult {
    const NAME: &str = "cublasLtMatmul";
    handle::state(handle).map_err(|_| fail(NOT_INITIALIZED, format_args!("{NAME}: {handle:#x} is not a cublasLt handle")))?;
    // SAFETY: forwarded.
    let op = unsafe { operation(desc) }?;
    // SAFETY: as above.
    let (la, lb, lc, ld) = unsafe { (Layout::read(x.a.1, "A")?, Layout::read(x.b.1, "B")?, Layout::read(x.c.1, "C")?, Layout::read(x.d.1, "D")?) };
    // Logical shapes: op(A) is m x k, op(B) k x n, C and D m x n.
    let (m, n) = (ld.rows, ld.cols);
    let (am, ak) = if op.ta == Op::N { (la.rows, la.cols) } else { (la.cols, la.rows) };
    let (bk, bn) = if op.tb == Op::N { (lb.rows, lb.cols) } else { (lb.cols, lb.rows) };
    ensure!(
        am == m && bn == n && ak == bk && lc.rows == m && lc.cols == n,
        "{NAME}: shapes op(A) {am}x{ak}, op(B) {bk}x{bn}, C {}x{}, D {m}x{n} disagree",
        lc.rows,
        lc.cols
    );
    ensure!(lc.row_major == ld.row_major && lc.dtype == ld.dtype, "{NAME}: C and D must share order and type here");
    let batch = ld.batch;
    ensure!([la.batch, lb.batch, lc.batch].iter().all(|&b| b == batch), "{NAME}: batch counts differ");
    let ty = gemm_ex::ex_types(NAME, la.dtype, lb.dtype, lc.dtype, op.compute)?;
    let complex = matches!(ty.engine, Engine::C | Engine::Z);
    if complex && (op.epilogue != 1 || ld.row_major || la.row_major || lb.row_major) {
        return Err(fail(NOT_SUPPORTED, format_args!("{NAME}: complex types take column-major layouts and no epilogue here")));
    }
    let scale = Storage::from_c(op.scale).ok_or_else(|| fail(NOT_SUPPORTED, format_args!("{NAME}: scale type {}", op.scale)))?;
    let blas = cpu_blas::openblas().map_err(|e| fail(NOT_INITIALIZED, format_args!("{NAME}: {e}")))?;
    let state = HandleState { stream: x.stream, pointer_mode: op.pointer_mode, ..HandleState::default() };
    let call = Call { name: NAME, state, blas };
    // SAFETY: forwarded.
    let (alpha, beta) = unsafe { (RawScalar::new(&call, x.alpha, scale, "alpha")?, RawScalar::new(&call, x.beta, scale, "beta")?) };
    if m == 0 || n == 0 {
        return Ok(());
    }

    // Column-major normalization: a row-major operand is the transpose of its storage.
    let flip = |o: Op, row: bool| -> BlasResult<Op> {
        Ok(match (o, row) {
            (o, false) => o,
            (Op::N, true) => Op::T,
            (Op::T, true) => Op::N,
            (Op::C, true) => return Err(fail(NOT_SUPPORTED, format_args!("{NAME}: a conjugated row-major operand"))),
        })
    };
    let (mut ta, mut tb) = (flip(op.ta, la.row_major)?, flip(op.tb, lb.row_major)?);
    let (mut pa, mut pb, mut lda, mut ldb) = ((x.a.0, la), (x.b.0, lb), la.ld as i32, lb.ld as i32);
    let (mut gm, mut gn) = (m as i32, n as i32);
    if ld.row_major {
        // D^T = op(B)^T op(A)^T.
        std::mem::swap(&mut pa, &mut pb);
        std::mem::swap(&mut lda, &mut ldb);
        let back = |o: Op| if o == Op::N { Op::T } else { Op::N };
        (ta, tb) = (back(tb), back(ta));
        std::mem::swap(&mut gm, &mut gn);
    }
    let shape = GemmShape { ta, tb, m: gm, n: gn, k: ak as i32, lda, ldb, ldc: ld.ld as i32 };
    let types = gemm_ex::ExTypes { a: Storage::from_c(pa.1.dtype).expect("checked"), b: Storage::from_c(pb.1.dtype).expect("checked"), ..ty };

    // Views of every batch member's operands, checked whole.
    let sv =
        |p: u64, l: &Layout, what: &str| strided_view(&call, p, Storage::from_c(l.dtype).expect("checked").size(), l.elems(), l.stride, batch, what);
    let (va, vb, vc, vd) = (sv(pa.0, &pa.1, "A")?, sv(pb.0, &pb.1, "B")?, sv(x.c.0, &lc, "C")?, sv(x.d.0, &ld, "D")?);
    let (bias_kind, uses_aux) = (op.epilogue & BIAS != 0, op.epilogue & AUX != 0);
    // NVIDIA's cuBLASLt refuses a bias pointer that the epilogue does not use (measured).
    ensure!(bias_kind || op.bias == 0, "{NAME}: a bias pointer with epilogue {}, which adds no bias", op.epilogue);
    let bias_storage = if op.bias_type < 0 {
        ty.c
    } else {
        Storage::from_c(op.bias_type).ok_or_else(|| fail(NOT_SUPPORTED, format_args!("{NAME}: bias type {}", op.bias_type)))?
    };
    let vbias = if bias_kind {
        ensure!(op.bias != 0, "{NAME}: a bias epilogue without CUBLASLT_MATMUL_DESC_BIAS_POINTER");
        Some(strided_view(&call, op.bias, bias_storage.size(), m as usize, op.bias_stride, batch, "bias")?)
    } else {
        None
    };
    let vaux = if uses_aux {
        ensure!(op.aux != 0 && op.aux_ld >= m && !ld.row_major, "{NAME}: the aux epilogue needs an aux pointer, ld >= m and a column-major D");
        Some(strided_view(
            &call,
            op.aux,
            ty.c.size(),
            crate::operand::matrix_elems(m as i32, n as i32, op.aux_ld as i32),
            op.aux_stride,
            batch,
            "aux",
        )?)
    } else {
        None
    };
    let (sizes, strides) = ([types.a.size(), types.b.size(), ty.c.size(), ty.c.size()], [pa.1.stride, pb.1.stride, lc.stride, ld.stride]);
    let (c_ld, d_ld, same_cd) = (lc.ld as usize, ld.ld as usize, x.c.0 == x.d.0 && lc.ld == ld.ld);
    let (epilogue, bias_stride, aux_ld, aux_stride) = (op.epilogue, op.bias_stride, op.aux_ld as usize, op.aux_stride);
    let member = move |base: Host, i: usize, k: usize| Host((base.0 as i64 + strides[k] * i as i64 * sizes[k] as i64) as usize);
    call.queue(move |blas| {
        let (al, be) = (alpha.get(), beta.get());
        let e = ty.c.size();
        for i in 0..batch as usize {
            let (a, b, c, d) = (member(va, i, 0), member(vb, i, 1), member(vc, i, 2), member(vd, i, 3));
            // The product accumulates into D: C is copied there first.
            let (rows, cols) = (shape.m as usize, shape.n as usize);
            if !same_cd {
                for j in 0..cols {
                    // SAFETY: column j of C and of D lie in the checked extents.
                    unsafe { std::ptr::copy(c.ptr::<u8>().add(j * c_ld * e), d.ptr::<u8>().add(j * d_ld * e), rows * e) };
                }
            }
            // SAFETY: the views span the normalized shape's matrices.
            unsafe { gemm_ex::run(blas, &shape, &types, al, be, [a, b, d]) };
            if epilogue == 1 {
                continue;
            }
            for j in 0..cols {
                for r in 0..rows {
                    // SAFETY: (r, j) is inside D; the bias holds m values per member.
                    unsafe {
                        let p = d.ptr::<u8>().add((j * d_ld + r) * e);
                        let mut v = ty.c.load(p).0;
                        if let Some(bias) = vbias {
                            let logical_row = if ld.row_major { j } else { r };
                            let bp = (bias.0 as i64 + (bias_stride * i as i64 + logical_row as i64) * bias_storage.size() as i64) as *const u8;
                            v += bias_storage.load(bp).0;
                        }
                        if let Some(aux) = vaux {
                            let ap = (aux.0 as i64 + (aux_stride * i as i64 + (j * aux_ld + r) as i64) * e as i64) as *mut u8;
                            ty.c.store(ap, (v, 0.0));
                        }
                        if epilogue & RELU != 0 {
                            v = v.max(0.0);
                        } else if epilogue & GELU != 0 {
                            v = gelu(v);
                        }
                        ty.c.store(p, (v, 0.0));
                    }
                }
            }
        }
    })
}

/// Checks what `cublasLtMatmulAlgoGetHeuristic` is asked about, as `cublasLtMatmul` would.
///
/// # Safety
/// The descriptors are NULL or descriptors.
pub unsafe fn check(desc: *mut u64, layouts: [*mut u64; 4]) -> BlasResult {
    // SAFETY: forwarded.
    unsafe {
        operation(desc)?;
        for (l, what) in layouts.into_iter().zip(["A", "B", "C", "D"]) {
            Layout::read(l, what)?;
        }
    }
    Ok(())
}
