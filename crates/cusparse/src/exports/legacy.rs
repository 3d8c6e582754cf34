//! The legacy API's exports (32-bit indices, `cusparseMatDescr_t`): conversions,
//! sorting, dense nonzero counts, csrgeam2 and compression.

use std::ffi::{c_int, c_void};

use super::{export, typed, Handle};
use crate::call::Call;
use crate::kernels::{C32, C64};
use crate::ops::convert::{self, Csr2Csc};
use crate::ops::legacy::{self, Compress, Operand};
use crate::status::SparseResult;

fn call(h: Handle, name: &'static str) -> SparseResult<Call> {
    Call::new(h, name)
}

/// `cuComplex` / `cuDoubleComplex` passed by value (the compression tolerance).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Complex<R> {
    pub re: R,
    pub im: R,
}

export! {
    fn cusparseCsr2cscEx2_bufferSize(h: Handle, m: c_int, n: c_int, nnz: c_int, csr_val: *const c_void, csr_row_ptr: *const c_int, csr_col_ind: *const c_int, csc_val: *mut c_void, csc_col_ptr: *mut c_int, csc_row_ind: *mut c_int, val_type: c_int, copy_values: c_int, base: c_int, alg: c_int, size: *mut usize) {
        let a = Csr2Csc { m, n, nnz, csr_val: csr_val as u64, csr_row_ptr: csr_row_ptr as u64, csr_col_ind: csr_col_ind as u64, csc_val: csc_val as u64, csc_col_ptr: csc_col_ptr as u64, csc_row_ind: csc_row_ind as u64, val_type, copy_values, base, alg };
        convert::csr2csc(call(h, "cusparseCsr2cscEx2_bufferSize")?, a, false)?;
        // SAFETY: per the API.
        unsafe { crate::exports::out(size, 0) }
    }
    fn cusparseCsr2cscEx2(h: Handle, m: c_int, n: c_int, nnz: c_int, csr_val: *const c_void, csr_row_ptr: *const c_int, csr_col_ind: *const c_int, csc_val: *mut c_void, csc_col_ptr: *mut c_int, csc_row_ind: *mut c_int, val_type: c_int, copy_values: c_int, base: c_int, alg: c_int, _buffer: *mut c_void) {
        let a = Csr2Csc { m, n, nnz, csr_val: csr_val as u64, csr_row_ptr: csr_row_ptr as u64, csr_col_ind: csr_col_ind as u64, csc_val: csc_val as u64, csc_col_ptr: csc_col_ptr as u64, csc_row_ind: csc_row_ind as u64, val_type, copy_values, base, alg };
        convert::csr2csc(call(h, "cusparseCsr2cscEx2")?, a, true)
    }
    fn cusparseXcoo2csr(h: Handle, coo_rows: *const c_int, nnz: c_int, m: c_int, row_ptr: *mut c_int, base: c_int) {
        convert::coo_csr(call(h, "cusparseXcoo2csr")?, coo_rows, nnz, m, row_ptr, base, true)
    }
    fn cusparseXcsr2coo(h: Handle, row_ptr: *const c_int, nnz: c_int, m: c_int, coo_rows: *mut c_int, base: c_int) {
        convert::coo_csr(call(h, "cusparseXcsr2coo")?, coo_rows, nnz, m, row_ptr, base, false)
    }
    fn cusparseCreateIdentityPermutation(h: Handle, n: c_int, p: *mut c_int) {
        convert::identity(call(h, "cusparseCreateIdentityPermutation")?, n, p)
    }
    fn cusparseXcsrsort_bufferSizeExt(h: Handle, m: c_int, n: c_int, nnz: c_int, _row_ptr: *const c_int, _col_ind: *const c_int, size: *mut usize) {
        convert::sort_buffer(&call(h, "cusparseXcsrsort_bufferSizeExt")?, m, n, nnz, size)
    }
    fn cusparseXcsrsort(h: Handle, m: c_int, n: c_int, nnz: c_int, descr: Handle, row_ptr: *const c_int, col_ind: *mut c_int, p: *mut c_int, _buffer: *mut c_void) {
        convert::sort_compressed(call(h, "cusparseXcsrsort")?, m, n, nnz, descr as usize, row_ptr, col_ind, p)
    }
    fn cusparseXcscsort_bufferSizeExt(h: Handle, m: c_int, n: c_int, nnz: c_int, _col_ptr: *const c_int, _row_ind: *const c_int, size: *mut usize) {
        convert::sort_buffer(&call(h, "cusparseXcscsort_bufferSizeExt")?, m, n, nnz, size)
    }
    fn cusparseXcscsort(h: Handle, m: c_int, n: c_int, nnz: c_int, descr: Handle, col_ptr: *const c_int, row_ind: *mut c_int, p: *mut c_int, _buffer: *mut c_void) {
        convert::sort_compressed(call(h, "cusparseXcscsort")?, n, m, nnz, descr as usize, col_ptr, row_ind, p)
    }
    fn cusparseXcoosort_bufferSizeExt(h: Handle, m: c_int, n: c_int, nnz: c_int, _rows: *const c_int, _cols: *const c_int, size: *mut usize) {
        convert::sort_buffer(&call(h, "cusparseXcoosort_bufferSizeExt")?, m, n, nnz, size)
    }
    fn cusparseXcoosortByRow(h: Handle, m: c_int, n: c_int, nnz: c_int, rows: *mut c_int, cols: *mut c_int, p: *mut c_int, _buffer: *mut c_void) {
        convert::sort_coo(call(h, "cusparseXcoosortByRow")?, m, n, nnz, rows, cols, p, true)
    }
    fn cusparseXcoosortByColumn(h: Handle, m: c_int, n: c_int, nnz: c_int, rows: *mut c_int, cols: *mut c_int, p: *mut c_int, _buffer: *mut c_void) {
        convert::sort_coo(call(h, "cusparseXcoosortByColumn")?, m, n, nnz, rows, cols, p, false)
    }
    fn cusparseXcsrgeam2Nnz(h: Handle, m: c_int, n: c_int, descr_a: Handle, nnz_a: c_int, row_ptr_a: *const c_int, col_ind_a: *const c_int, descr_b: Handle, nnz_b: c_int, row_ptr_b: *const c_int, col_ind_b: *const c_int, descr_c: Handle, row_ptr_c: *mut c_int, total: *mut c_int, _workspace: *mut c_void) {
        let a = Operand { descr: descr_a as usize, nnz: nnz_a, values: std::ptr::null::<f32>(), row_ptr: row_ptr_a, col_ind: col_ind_a };
        let b = Operand { descr: descr_b as usize, nnz: nnz_b, values: std::ptr::null::<f32>(), row_ptr: row_ptr_b, col_ind: col_ind_b };
        legacy::geam_nnz(call(h, "cusparseXcsrgeam2Nnz")?, m, n, a, b, descr_c as usize, row_ptr_c, total)
    }
}

typed! {
    [cusparseSnnz: f32, cusparseDnnz: f64, cusparseCnnz: C32, cusparseZnnz: C64]
    fn(h: Handle, dir: c_int, m: c_int, n: c_int, descr: Handle, a: *const T, lda: c_int, per: *mut c_int, total: *mut c_int) {
        legacy::dense_nnz::<T>(call(h, NAME)?, dir, m, n, descr as usize, a, lda, per, total)
    }
}

typed! {
    [cusparseScsrgeam2_bufferSizeExt: f32, cusparseDcsrgeam2_bufferSizeExt: f64, cusparseCcsrgeam2_bufferSizeExt: C32, cusparseZcsrgeam2_bufferSizeExt: C64]
    fn(h: Handle, m: c_int, n: c_int, alpha: *const T, descr_a: Handle, nnz_a: c_int, val_a: *const T, row_ptr_a: *const c_int, col_ind_a: *const c_int,
       beta: *const T, descr_b: Handle, nnz_b: c_int, val_b: *const T, row_ptr_b: *const c_int, col_ind_b: *const c_int,
       descr_c: Handle, val_c: *mut T, row_ptr_c: *mut c_int, col_ind_c: *mut c_int, size: *mut usize) {
        let a = Operand { descr: descr_a as usize, nnz: nnz_a, values: val_a, row_ptr: row_ptr_a, col_ind: col_ind_a };
        let b = Operand { descr: descr_b as usize, nnz: nnz_b, values: val_b, row_ptr: row_ptr_b, col_ind: col_ind_b };
        let c = Operand { descr: descr_c as usize, nnz: 0, values: val_c as *const T, row_ptr: row_ptr_c, col_ind: col_ind_c };
        legacy::geam2::<T>(call(h, NAME)?, m, n, alpha, a, beta, b, descr_c as usize, c, false)?;
        // SAFETY: per the API.
        unsafe { crate::exports::out(size, 0) }
    }
}

typed! {
    [cusparseScsrgeam2: f32, cusparseDcsrgeam2: f64, cusparseCcsrgeam2: C32, cusparseZcsrgeam2: C64]
    fn(h: Handle, m: c_int, n: c_int, alpha: *const T, descr_a: Handle, nnz_a: c_int, val_a: *const T, row_ptr_a: *const c_int, col_ind_a: *const c_int,
       beta: *const T, descr_b: Handle, nnz_b: c_int, val_b: *const T, row_ptr_b: *const c_int, col_ind_b: *const c_int,
       descr_c: Handle, val_c: *mut T, row_ptr_c: *mut c_int, col_ind_c: *mut c_int, _buffer: *mut c_void) {
        let a = Operand { descr: descr_a as usize, nnz: nnz_a, values: val_a, row_ptr: row_ptr_a, col_ind: col_ind_a };
        let b = Operand { descr: descr_b as usize, nnz: nnz_b, values: val_b, row_ptr: row_ptr_b, col_ind: col_ind_b };
        let c = Operand { descr: descr_c as usize, nnz: 0, values: val_c as *const T, row_ptr: row_ptr_c, col_ind: col_ind_c };
        legacy::geam2::<T>(call(h, NAME)?, m, n, alpha, a, beta, b, descr_c as usize, c, true)
    }
}

/// The compression pairs: `tol` is passed by value, a complex number for C and Z
/// (compared with its real part).
macro_rules! compress_exports {
    ($($nnz:ident $compress:ident: $t:ty, $tol:ty, |$v:ident| $real:expr;)*) => {
        export! {$(
            fn $nnz(h: Handle, m: c_int, descr: Handle, values: *const $t, row_ptr: *const c_int, per_row: *mut c_int, total: *mut c_int, tol: $tol) {
                let $v = tol;
                legacy::nnz_compress::<$t>(call(h, stringify!($nnz))?, m, descr as usize, values, row_ptr, per_row, total, $real)
            }
            fn $compress(h: Handle, m: c_int, n: c_int, descr: Handle, in_values: *const $t, in_col_ind: *const c_int, in_row_ptr: *const c_int, in_nnz: c_int,
                         per_row: *const c_int, out_values: *mut $t, out_col_ind: *mut c_int, out_row_ptr: *mut c_int, tol: $tol) {
                let $v = tol;
                let a = Compress { m, n, descr: descr as usize, in_values, in_col_ind, in_row_ptr, in_nnz, per_row, out_values, out_col_ind, out_row_ptr, tol: $real };
                legacy::csr2csr_compress::<$t>(call(h, stringify!($compress))?, a)
            }
        )*}
    };
}

compress_exports! {
    cusparseSnnz_compress cusparseScsr2csr_compress: f32, f32, |t| t as f64;
    cusparseDnnz_compress cusparseDcsr2csr_compress: f64, f64, |t| t;
    cusparseCnnz_compress cusparseCcsr2csr_compress: C32, Complex<f32>, |t| t.re as f64;
    cusparseZnnz_compress cusparseZcsr2csr_compress: C64, Complex<f64>, |t| t.re;
}
