//! The generic API's operations (`cusparseSpMV`, `cusparseSpMM`, `cusparseSpVV`,
//! gather/scatter, sparse <-> dense, SpGEMM). Workspaces are accepted and unused: the
//! `_bufferSize` queries check their arguments as the operation does and answer 0.

use std::ffi::{c_int, c_void};
use std::sync::{Arc, Mutex};

use super::{export, out, Handle};
use crate::call::Call;
use crate::objects::{self, kind, Object};
use crate::ops::dense::{self, Phase as D2S};
use crate::ops::multiply;
use crate::ops::spgemm::{spgemm_phase, Args, Phase};

fn call(h: Handle, name: &'static str) -> crate::status::SparseResult<Call> {
    Call::new(h, name)
}

export! {
    fn cusparseSpMV_bufferSize(h: Handle, op: c_int, alpha: *const c_void, a: Handle, x: Handle, beta: *const c_void, y: Handle, compute: c_int, alg: c_int, size: *mut usize) {
        multiply::spmv(call(h, "cusparseSpMV_bufferSize")?, op, alpha, a as usize, x as usize, beta, y as usize, compute, alg, false)?;
        // SAFETY: per the API.
        unsafe { out(size, 0) }
    }
    /// `cusparseSpMV_preprocess`: an optional optimization step; checks only.
    fn cusparseSpMV_preprocess(h: Handle, op: c_int, alpha: *const c_void, a: Handle, x: Handle, beta: *const c_void, y: Handle, compute: c_int, alg: c_int, _buffer: *mut c_void) {
        multiply::spmv(call(h, "cusparseSpMV_preprocess")?, op, alpha, a as usize, x as usize, beta, y as usize, compute, alg, false)
    }
    fn cusparseSpMV(h: Handle, op: c_int, alpha: *const c_void, a: Handle, x: Handle, beta: *const c_void, y: Handle, compute: c_int, alg: c_int, _buffer: *mut c_void) {
        multiply::spmv(call(h, "cusparseSpMV")?, op, alpha, a as usize, x as usize, beta, y as usize, compute, alg, true)
    }
    fn cusparseSpMM_bufferSize(h: Handle, op_a: c_int, op_b: c_int, alpha: *const c_void, a: Handle, b: Handle, beta: *const c_void, c: Handle, compute: c_int, alg: c_int, size: *mut usize) {
        multiply::spmm(call(h, "cusparseSpMM_bufferSize")?, op_a, op_b, alpha, a as usize, b as usize, beta, c as usize, compute, alg, false)?;
        // SAFETY: per the API.
        unsafe { out(size, 0) }
    }
    /// `cusparseSpMM_preprocess`: an optional optimization step; checks only.
    fn cusparseSpMM_preprocess(h: Handle, op_a: c_int, op_b: c_int, alpha: *const c_void, a: Handle, b: Handle, beta: *const c_void, c: Handle, compute: c_int, alg: c_int, _buffer: *mut c_void) {
        multiply::spmm(call(h, "cusparseSpMM_preprocess")?, op_a, op_b, alpha, a as usize, b as usize, beta, c as usize, compute, alg, false)
    }
    fn cusparseSpMM(h: Handle, op_a: c_int, op_b: c_int, alpha: *const c_void, a: Handle, b: Handle, beta: *const c_void, c: Handle, compute: c_int, alg: c_int, _buffer: *mut c_void) {
        multiply::spmm(call(h, "cusparseSpMM")?, op_a, op_b, alpha, a as usize, b as usize, beta, c as usize, compute, alg, true)
    }
    fn cusparseSpVV_bufferSize(h: Handle, op: c_int, x: Handle, y: Handle, result: *mut c_void, compute: c_int, size: *mut usize) {
        multiply::spvv(call(h, "cusparseSpVV_bufferSize")?, op, x as usize, y as usize, result, compute, false)?;
        // SAFETY: per the API.
        unsafe { out(size, 0) }
    }
    fn cusparseSpVV(h: Handle, op: c_int, x: Handle, y: Handle, result: *mut c_void, compute: c_int, _buffer: *mut c_void) {
        multiply::spvv(call(h, "cusparseSpVV")?, op, x as usize, y as usize, result, compute, true)
    }
    /// `cusparseGather(handle, vecY, vecX)`: `X.values[i] = Y[X.indices[i]]`.
    fn cusparseGather(h: Handle, y: Handle, x: Handle) {
        multiply::gather_scatter(call(h, "cusparseGather")?, y as usize, x as usize, true)
    }
    /// `cusparseScatter(handle, vecX, vecY)`: `Y[X.indices[i]] = X.values[i]`.
    fn cusparseScatter(h: Handle, x: Handle, y: Handle) {
        multiply::gather_scatter(call(h, "cusparseScatter")?, y as usize, x as usize, false)
    }
    fn cusparseSparseToDense_bufferSize(h: Handle, a: Handle, b: Handle, alg: c_int, size: *mut usize) {
        dense::sparse_to_dense(call(h, "cusparseSparseToDense_bufferSize")?, a as usize, b as usize, alg, false)?;
        // SAFETY: per the API.
        unsafe { out(size, 0) }
    }
    fn cusparseSparseToDense(h: Handle, a: Handle, b: Handle, alg: c_int, _buffer: *mut c_void) {
        dense::sparse_to_dense(call(h, "cusparseSparseToDense")?, a as usize, b as usize, alg, true)
    }
    fn cusparseDenseToSparse_bufferSize(h: Handle, a: Handle, b: Handle, alg: c_int, size: *mut usize) {
        dense::dense_to_sparse(call(h, "cusparseDenseToSparse_bufferSize")?, a as usize, b as usize, alg, D2S::BufferSize)?;
        // SAFETY: per the API.
        unsafe { out(size, 0) }
    }
    fn cusparseDenseToSparse_analysis(h: Handle, a: Handle, b: Handle, alg: c_int, _buffer: *mut c_void) {
        dense::dense_to_sparse(call(h, "cusparseDenseToSparse_analysis")?, a as usize, b as usize, alg, D2S::Analysis)
    }
    fn cusparseDenseToSparse_convert(h: Handle, a: Handle, b: Handle, alg: c_int, _buffer: *mut c_void) {
        dense::dense_to_sparse(call(h, "cusparseDenseToSparse_convert")?, a as usize, b as usize, alg, D2S::Convert)
    }
    fn cusparseSpGEMM_createDescr(d: *mut Handle) {
        // SAFETY: per the API.
        unsafe { out(d, objects::create(Object::SpGemm(Arc::new(Mutex::new(None)))) as Handle) }
    }
    fn cusparseSpGEMM_destroyDescr(d: Handle) {
        objects::destroy(d as usize, kind::spgemm, "cusparseSpGEMMDescr_t")
    }
    fn cusparseSpGEMM_workEstimation(h: Handle, op_a: c_int, op_b: c_int, alpha: *const c_void, a: Handle, b: Handle, beta: *const c_void, c: Handle, compute: c_int, alg: c_int, descr: Handle, size: *mut usize, buffer: *mut c_void) {
        let args = Args { op_a, op_b, alpha, a: a as usize, b: b as usize, beta, c: c as usize, compute, alg, descr: descr as usize };
        spgemm_phase(call(h, "cusparseSpGEMM_workEstimation")?, args, Phase::WorkEstimation, size, buffer)
    }
    fn cusparseSpGEMM_compute(h: Handle, op_a: c_int, op_b: c_int, alpha: *const c_void, a: Handle, b: Handle, beta: *const c_void, c: Handle, compute: c_int, alg: c_int, descr: Handle, size: *mut usize, buffer: *mut c_void) {
        let args = Args { op_a, op_b, alpha, a: a as usize, b: b as usize, beta, c: c as usize, compute, alg, descr: descr as usize };
        spgemm_phase(call(h, "cusparseSpGEMM_compute")?, args, Phase::Compute, size, buffer)
    }
    fn cusparseSpGEMM_copy(h: Handle, op_a: c_int, op_b: c_int, alpha: *const c_void, a: Handle, b: Handle, beta: *const c_void, c: Handle, compute: c_int, alg: c_int, descr: Handle) {
        let args = Args { op_a, op_b, alpha, a: a as usize, b: b as usize, beta, c: c as usize, compute, alg, descr: descr as usize };
        spgemm_phase(call(h, "cusparseSpGEMM_copy")?, args, Phase::Copy, std::ptr::null_mut(), std::ptr::null_mut())
    }
}
