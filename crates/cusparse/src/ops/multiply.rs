//! `cusparseSpMV`, `cusparseSpMM`, `cusparseSpVV`, `cusparseGather`, `cusparseScatter`.
//! `run` false is the `_bufferSize`/`_preprocess` form: every check, no work.

use std::ffi::c_void;

use super::{dense_layout, dense_view, index_type, sparse, vector};
use crate::call::{operation, with_index_type, with_value_type, Call};
use crate::kernels::{spmm, spmv, Index, Op, Value};
use crate::objects::{self, DnMat, DnVec, SpMat};
use crate::status::{ensure, fail, SparseResult, NOT_SUPPORTED};

/// `y = alpha * op(A) * x + beta * y`.
#[allow(clippy::too_many_arguments, reason = "cusparseSpMV's parameters")]
pub fn spmv(
    call: Call,
    op: i32,
    alpha: *const c_void,
    a: usize,
    x: usize,
    beta: *const c_void,
    y: usize,
    compute: i32,
    alg: i32,
    run: bool,
) -> SparseResult {
    let op = operation(call.name, op)?;
    ensure!((0..=5).contains(&alg), "{}: invalid cusparseSpMVAlg_t {alg}", call.name);
    let (ma, vx, vy) = (objects::spmat(a)?, objects::dnvec(x)?, objects::dnvec(y)?);
    with_value_type!(compute, call.name, |T| {
        let it = index_type(&call, &ma, compute, "A")?;
        with_index_type!(it, call.name, |I| spmv_typed::<T, I>(call, op, alpha.cast(), ma, vx, beta.cast(), vy, run))
    })
}

#[allow(clippy::too_many_arguments, reason = "cusparseSpMV's parameters")]
fn spmv_typed<T: Value, I: Index>(call: Call, op: Op, alpha: *const T, ma: SpMat, vx: DnVec, beta: *const T, vy: DnVec, run: bool) -> SparseResult {
    let (m, n) = if op.trans { (ma.cols, ma.rows) } else { (ma.rows, ma.cols) };
    ensure!(vx.size == n && vy.size == m, "{}: op(A) is {m}x{n}, x has {} elements, y {}", call.name, vx.size, vy.size);
    let a = sparse::<T, I>(&call, &ma, "A", true)?;
    let hx = vector::<T>(&call, &vx, ma.value_type, "X")?;
    let hy = vector::<T>(&call, &vy, ma.value_type, "Y")?;
    let (alpha, beta) = (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?);
    if !run {
        return Ok(());
    }
    call.queue(move || {
        // SAFETY: the views were checked for these types; y is the only output.
        let (sa, transposed) = unsafe { a.as_sparse::<T, I>() };
        let op = if transposed { op.of_transpose() } else { op };
        // SAFETY: as above.
        unsafe { spmv::spmv(op, &sa, alpha.get(), hx.slice(), beta.get(), hy.slice_mut()) }
    })
}

/// `C = alpha * op(A) * op(B) + beta * C`.
#[allow(clippy::too_many_arguments, reason = "cusparseSpMM's parameters")]
pub fn spmm(
    call: Call,
    op_a: i32,
    op_b: i32,
    alpha: *const c_void,
    a: usize,
    b: usize,
    beta: *const c_void,
    c: usize,
    compute: i32,
    alg: i32,
    run: bool,
) -> SparseResult {
    let (op_a, op_b) = (operation(call.name, op_a)?, operation(call.name, op_b)?);
    ensure!(matches!(alg, 0..=6 | 12..=14), "{}: invalid cusparseSpMMAlg_t {alg}", call.name);
    let (ma, db, dc) = (objects::spmat(a)?, objects::dnmat(b)?, objects::dnmat(c)?);
    with_value_type!(compute, call.name, |T| {
        let it = index_type(&call, &ma, compute, "A")?;
        with_index_type!(it, call.name, |I| spmm_typed::<T, I>(call, op_a, op_b, alpha.cast(), ma, db, beta.cast(), dc, run))
    })
}

#[allow(clippy::too_many_arguments, reason = "cusparseSpMM's parameters")]
fn spmm_typed<T: Value, I: Index>(
    call: Call,
    op_a: Op,
    op_b: Op,
    alpha: *const T,
    ma: SpMat,
    db: DnMat,
    beta: *const T,
    dc: DnMat,
    run: bool,
) -> SparseResult {
    let (m, k) = if op_a.trans { (ma.cols, ma.rows) } else { (ma.rows, ma.cols) };
    let (kb, n) = if op_b.trans { (db.cols, db.rows) } else { (db.rows, db.cols) };
    ensure!(k == kb && dc.rows == m && dc.cols == n, "{}: op(A) is {m}x{k}, op(B) {kb}x{n}, C {}x{}", call.name, dc.rows, dc.cols);
    let a = sparse::<T, I>(&call, &ma, "A", true)?;
    let (lb, lc) = (dense_layout(&call, &db, ma.value_type, "B")?, dense_layout(&call, &dc, ma.value_type, "C")?);
    let (hb, hc) = (dense_view::<T>(&call, &db, lb, "B")?, dense_view::<T>(&call, &dc, lc, "C")?);
    let (alpha, beta) = (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?);
    if !run {
        return Ok(());
    }
    call.queue(move || {
        // SAFETY: the views were checked for these types; C is the only output.
        let (sa, transposed) = unsafe { a.as_sparse::<T, I>() };
        let op_a = if transposed { op_a.of_transpose() } else { op_a };
        // SAFETY: as above.
        unsafe { spmm::spmm(op_a, &sa, op_b, hb.slice(), lb, alpha.get(), beta.get(), hc.slice_mut(), lc) }
    })
}

/// `result = op(X) . Y` for a sparse `X`, to a host or device pointer per the pointer mode.
pub fn spvv(call: Call, op: i32, x: usize, y: usize, result: *mut c_void, compute: i32, run: bool) -> SparseResult {
    let op = operation(call.name, op)?;
    ensure!(!op.trans || op.conj, "{}: opX must be NON_TRANSPOSE or CONJUGATE_TRANSPOSE", call.name);
    let (sx, dy) = (objects::spvec(x)?, objects::dnvec(y)?);
    ensure!(sx.size == dy.size, "{}: X has size {}, Y {}", call.name, sx.size, dy.size);
    if sx.value_type != compute {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: X holds cudaDataType {} for compute type {compute}", call.name, sx.value_type)));
    }
    with_value_type!(compute, call.name, |T| with_index_type!(sx.index_type, call.name, |I| {
        let hi = call.array(sx.indices as *const I, sx.nnz as usize, "X's indices")?;
        let hv = call.array(sx.values as *const T, sx.nnz as usize, "X's values")?;
        let hy = vector::<T>(&call, &dy, compute, "Y")?;
        if !run {
            return Ok(());
        }
        let base = sx.base as i64;
        // SAFETY: the views were checked for these types.
        call.count_out(result.cast::<T>(), move || unsafe { spmv::spvv(op.conj, hi.slice::<I>(), hv.slice(), base, hy.slice()) })
    }))
}

/// `X.values[e] = Y[X.indices[e]]` (`gather`) or the reverse (`scatter`).
pub fn gather_scatter(call: Call, y: usize, x: usize, gather: bool) -> SparseResult {
    let (sx, dy) = (objects::spvec(x)?, objects::dnvec(y)?);
    if sx.value_type != dy.value_type {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: X holds cudaDataType {}, Y {}", call.name, sx.value_type, dy.value_type)));
    }
    with_value_type!(sx.value_type, call.name, |T| with_index_type!(sx.index_type, call.name, |I| {
        let hi = call.array(sx.indices as *const I, sx.nnz as usize, "X's indices")?;
        let hv = call.array(sx.values as *const T, sx.nnz as usize, "X's values")?;
        let hy = vector::<T>(&call, &dy, sx.value_type, "Y")?;
        let base = sx.base as i64;
        call.queue(move || {
            // SAFETY: the views were checked for these types; one side is written.
            unsafe {
                if gather {
                    spmv::gather(hi.slice::<I>(), base, hy.slice::<T>(), hv.slice_mut())
                } else {
                    let (idx, vals, out) = (hi.slice::<I>(), hv.slice::<T>(), hy.slice_mut::<T>());
                    for (&i, &v) in idx.iter().zip(vals) {
                        out[crate::kernels::pos(i, base, out.len(), "sparse vector index")?] = v;
                    }
                    Ok(())
                }
            }
        })
    }))
}
