//! `cusparseSpGEMM_{workEstimation,compute,copy}`: `C = alpha * A * B` for CSR matrices.
//!
//! As cuSPARSE documents, a phase called with a NULL buffer only reports the buffer
//! size it needs (a few bytes here, so that the call with a buffer can be told apart).
//! `compute` with a buffer multiplies, waits for the product, keeps it in the SpGEMM
//! descriptor and records `C`'s number of nonzeros (the caller reads it at once with
//! `cusparseSpMatGetSize`); `copy` writes it into the arrays the caller then gave `C`.

use std::ffi::c_void;
use std::sync::Arc;

use super::{index_type, sparse};
use crate::call::{operation, with_index_type, with_value_type, Call};
use crate::kernels::geam::Csr;
use crate::kernels::spgemm::{copy_out, spgemm, Product};
use crate::kernels::{Index, Value};
use crate::objects::{self, Format, Object, SpMat};
use crate::status::{ensure, fail, SparseResult, INVALID_VALUE, NOT_SUPPORTED};

/// The buffer size reported by the phases that take one.
const BUFFER_BYTES: usize = 8;

/// The phases.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    WorkEstimation,
    Compute,
    Copy,
}

/// The operands of one phase.
pub struct Args {
    pub op_a: i32,
    pub op_b: i32,
    pub alpha: *const c_void,
    pub a: usize,
    pub b: usize,
    pub beta: *const c_void,
    pub c: usize,
    pub compute: i32,
    pub alg: i32,
    pub descr: usize,
}

/// One phase; `size` and `buffer` are the C arguments (unused by `copy`).
#[allow(clippy::not_unsafe_ptr_arg_deref, reason = "a C argument of the calling export, valid as the API documents")]
pub fn spgemm_phase(call: Call, args: Args, phase: Phase, size: *mut usize, buffer: *mut c_void) -> SparseResult {
    let (op_a, op_b) = (operation(call.name, args.op_a)?, operation(call.name, args.op_b)?);
    if op_a.trans || op_b.trans {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: only non-transposed operands are supported", call.name)));
    }
    ensure!((0..=5).contains(&args.alg), "{}: invalid cusparseSpGEMMAlg_t {}", call.name, args.alg);
    let slot = objects::spgemm(args.descr)?;
    let (ma, mb, mc) = (objects::spmat(args.a)?, objects::spmat(args.b)?, objects::spmat(args.c)?);
    for (m, what) in [(&ma, "A"), (&mb, "B"), (&mc, "C")] {
        if m.format != Format::Csr {
            return Err(fail(NOT_SUPPORTED, format_args!("{}: {what} is {:?}; SpGEMM takes CSR matrices", call.name, m.format)));
        }
    }
    ensure!(
        ma.cols == mb.rows && mc.rows == ma.rows && mc.cols == mb.cols,
        "{}: A is {}x{}, B {}x{}, C {}x{}",
        call.name,
        ma.rows,
        ma.cols,
        mb.rows,
        mb.cols,
        mc.rows,
        mc.cols
    );
    if phase != Phase::Copy && buffer.is_null() {
        if size.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("{}: bufferSize is NULL", call.name)));
        }
        // SAFETY: per the API.
        unsafe { size.write_unaligned(BUFFER_BYTES) };
        return Ok(());
    }
    if phase == Phase::WorkEstimation {
        return Ok(());
    }
    with_value_type!(args.compute, call.name, |T| {
        let it = index_type(&call, &ma, args.compute, "A")?;
        for (m, what) in [(&mb, "B"), (&mc, "C")] {
            ensure!(index_type(&call, m, args.compute, what)? == it, "{}: {what}'s index type differs from A's", call.name);
        }
        with_index_type!(it, call.name, |I| {
            if phase == Phase::Compute {
                compute::<T, I>(&call, &args, ma, mb, slot)
            } else {
                copy::<T, I>(&call, mc, slot)
            }
        })
    })
}

fn compute<T: Value, I: Index>(call: &Call, args: &Args, ma: SpMat, mb: SpMat, slot: objects::SpGemmResult) -> SparseResult {
    let (a, b) = (sparse::<T, I>(call, &ma, "A", true)?, sparse::<T, I>(call, &mb, "B", true)?);
    let alpha = call.scalar(args.alpha.cast::<T>(), "alpha")?;
    let beta = call.scalar(args.beta.cast::<T>(), "beta")?;
    if let crate::call::Scalar::Value(v) = beta {
        if !v.is_zero() {
            return Err(fail(NOT_SUPPORTED, format_args!("{}: beta != 0 is not supported", call.name)));
        }
    }
    let (m, k, n) = (ma.rows as usize, ma.cols as usize, mb.cols as usize);
    let product = call.run_now(move || {
        // SAFETY: the views were checked for these types; nothing is written.
        let (pa, ia, va, pb, ib, vb) = unsafe {
            (a.ptr0.slice::<I>(), a.ptr1.slice::<I>(), a.values.slice::<T>(), b.ptr0.slice::<I>(), b.ptr1.slice::<I>(), b.values.slice::<T>())
        };
        let ca = Csr { offsets: pa, indices: ia, values: Some(va), base: a.m.base as i64 };
        let cb = Csr { offsets: pb, indices: ib, values: Some(vb), base: b.m.base as i64 };
        spgemm(m, k, n, alpha.get(), &ca, &cb).map(Some)
    })?;
    let product = product.ok_or_else(|| fail(INVALID_VALUE, format_args!("{}: malformed operands", call.name)))?;
    let nnz = product.indices.len() as i64;
    *slot.lock().unwrap_or_else(|e| e.into_inner()) = Some(Box::new(Arc::new(product)));
    objects::update(args.c, "cusparseSpMatDescr_t", |o| match o {
        Object::SpMat(m) => {
            m.nnz = nnz;
            Some(Ok(()))
        }
        _ => None,
    })
}

fn copy<T: Value, I: Index>(call: &Call, mc: SpMat, slot: objects::SpGemmResult) -> SparseResult {
    let product = slot.lock().unwrap_or_else(|e| e.into_inner()).as_ref().and_then(|p| p.downcast_ref::<Arc<Product<T>>>().cloned());
    let product =
        product.ok_or_else(|| fail(INVALID_VALUE, format_args!("{}: no product of this type was computed with this descriptor", call.name)))?;
    ensure!(mc.nnz as usize >= product.indices.len(), "{}: C holds {} entries, the product {}", call.name, mc.nnz, product.indices.len());
    let c = sparse::<T, I>(call, &mc, "C", true)?;
    let base = mc.base as i64;
    call.queue(move || {
        // SAFETY: the views were checked for these types and are distinct arrays.
        unsafe { copy_out(&product, base, c.ptr0.slice_mut::<I>(), c.ptr1.slice_mut::<I>(), c.values.slice_mut::<T>()) };
        Ok(())
    })
}
