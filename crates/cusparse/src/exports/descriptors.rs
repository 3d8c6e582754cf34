//! The generic API's descriptors: create, destroy, get and set. A descriptor only
//! records its arguments; pointers are checked when an operation uses them.

use std::ffi::{c_int, c_void};

use super::{export, out, Handle};
use crate::call::index_base;
use crate::objects::{self, kind, DnMat, DnVec, Format, IndexType, Object, SpMat, SpVec};
use crate::status::{ensure, fail, SparseResult, INVALID_VALUE};

/// A new sparse-matrix descriptor after the checks cuSPARSE documents.
#[allow(clippy::too_many_arguments, reason = "cusparseCreateCsr's parameters")]
fn create_spmat(
    d: *mut Handle,
    format: Format,
    rows: i64,
    cols: i64,
    nnz: i64,
    ptr0: *mut c_void,
    ptr1: *mut c_void,
    values: *mut c_void,
    ptr0_type: c_int,
    ptr1_type: c_int,
    base: c_int,
    value_type: c_int,
) -> SparseResult {
    ensure!(rows >= 0 && cols >= 0 && nnz >= 0, "create {format:?} descriptor: rows={rows} cols={cols} nnz={nnz}");
    index_base("cusparseCreate{Csr,Csc,Coo}", base)?;
    let m = SpMat {
        format,
        rows,
        cols,
        nnz,
        ptr0: ptr0 as u64,
        ptr1: ptr1 as u64,
        values: values as u64,
        ptr0_type: IndexType::from_c(ptr0_type)?,
        ptr1_type: IndexType::from_c(ptr1_type)?,
        base,
        value_type,
        batch_count: 1,
        ptr0_batch_stride: 0,
        values_batch_stride: 0,
        fill_mode: 0,
        diag_type: 0,
    };
    // SAFETY: per the API.
    unsafe { out(d, objects::create(Object::SpMat(m)) as Handle) }
}

fn update_spmat(d: Handle, change: impl FnOnce(&mut SpMat) -> SparseResult) -> SparseResult {
    objects::update(d as usize, "cusparseSpMatDescr_t", |o| match o {
        Object::SpMat(m) => Some(change(m)),
        _ => None,
    })
}

fn update_dnmat(d: Handle, change: impl FnOnce(&mut DnMat) -> SparseResult) -> SparseResult {
    objects::update(d as usize, "cusparseDnMatDescr_t", |o| match o {
        Object::DnMat(m) => Some(change(m)),
        _ => None,
    })
}

/// The three arrays and the description of a sparse matrix, written to the non-NULL
/// outputs of `cusparseCsrGet`/`CscGet`/`CooGet`.
#[allow(clippy::too_many_arguments, reason = "cusparseCsrGet's outputs")]
unsafe fn get_spmat(
    d: Handle,
    format: Format,
    rows: *mut i64,
    cols: *mut i64,
    nnz: *mut i64,
    ptr0: *mut *mut c_void,
    ptr1: *mut *mut c_void,
    values: *mut *mut c_void,
    types: [*mut c_int; 2],
    base: *mut c_int,
    value_type: *mut c_int,
) -> SparseResult {
    let m = objects::spmat(d as usize)?;
    ensure!(m.format == format, "the descriptor holds a {:?} matrix, not {format:?}", m.format);
    // SAFETY: per the API.
    unsafe {
        out(rows, m.rows)?;
        out(cols, m.cols)?;
        out(nnz, m.nnz)?;
        out(ptr0, m.ptr0 as *mut c_void)?;
        out(ptr1, m.ptr1 as *mut c_void)?;
        out(values, m.values as *mut c_void)?;
        out(types[0], m.ptr0_type as c_int)?;
        if !types[1].is_null() {
            out(types[1], m.ptr1_type as c_int)?;
        }
        out(base, m.base)?;
        out(value_type, m.value_type)
    }
}

fn create_dnmat(d: *mut Handle, rows: i64, cols: i64, ld: i64, values: *mut c_void, value_type: c_int, order: c_int) -> SparseResult {
    ensure!(rows >= 0 && cols >= 0, "cusparseCreateDnMat: rows={rows} cols={cols}");
    ensure!(order == 1 || order == 2, "cusparseCreateDnMat: invalid cusparseOrder_t {order}");
    let row_major = order == 2;
    ensure!(ld >= if row_major { cols } else { rows }.max(1), "cusparseCreateDnMat: ld={ld} for a {rows}x{cols} matrix in order {order}");
    let m = DnMat { rows, cols, ld, values: values as u64, value_type, row_major, batch_count: 1, batch_stride: 0 };
    // SAFETY: per the API.
    unsafe { out(d, objects::create(Object::DnMat(m)) as Handle) }
}

fn create_dnvec(d: *mut Handle, size: i64, values: *mut c_void, value_type: c_int) -> SparseResult {
    ensure!(size >= 0, "cusparseCreateDnVec: size={size}");
    // SAFETY: per the API.
    unsafe { out(d, objects::create(Object::DnVec(DnVec { size, values: values as u64, value_type })) as Handle) }
}

#[allow(clippy::too_many_arguments, reason = "cusparseCreateSpVec's parameters")]
fn create_spvec(d: *mut Handle, size: i64, nnz: i64, indices: *mut c_void, values: *mut c_void, it: c_int, base: c_int, vt: c_int) -> SparseResult {
    ensure!(size >= 0 && nnz >= 0 && nnz <= size, "cusparseCreateSpVec: size={size} nnz={nnz}");
    index_base("cusparseCreateSpVec", base)?;
    let v = SpVec { size, nnz, indices: indices as u64, values: values as u64, index_type: IndexType::from_c(it)?, base, value_type: vt };
    // SAFETY: per the API.
    unsafe { out(d, objects::create(Object::SpVec(v)) as Handle) }
}

export! {
    fn cusparseCreateCsr(d: *mut Handle, rows: i64, cols: i64, nnz: i64, offsets: *mut c_void, indices: *mut c_void, values: *mut c_void, ot: c_int, it: c_int, base: c_int, vt: c_int) {
        create_spmat(d, Format::Csr, rows, cols, nnz, offsets, indices, values, ot, it, base, vt)
    }
    fn cusparseCreateConstCsr(d: *mut Handle, rows: i64, cols: i64, nnz: i64, offsets: *mut c_void, indices: *mut c_void, values: *mut c_void, ot: c_int, it: c_int, base: c_int, vt: c_int) {
        create_spmat(d, Format::Csr, rows, cols, nnz, offsets, indices, values, ot, it, base, vt)
    }
    fn cusparseCreateCsc(d: *mut Handle, rows: i64, cols: i64, nnz: i64, offsets: *mut c_void, indices: *mut c_void, values: *mut c_void, ot: c_int, it: c_int, base: c_int, vt: c_int) {
        create_spmat(d, Format::Csc, rows, cols, nnz, offsets, indices, values, ot, it, base, vt)
    }
    fn cusparseCreateConstCsc(d: *mut Handle, rows: i64, cols: i64, nnz: i64, offsets: *mut c_void, indices: *mut c_void, values: *mut c_void, ot: c_int, it: c_int, base: c_int, vt: c_int) {
        create_spmat(d, Format::Csc, rows, cols, nnz, offsets, indices, values, ot, it, base, vt)
    }
    fn cusparseCreateCoo(d: *mut Handle, rows: i64, cols: i64, nnz: i64, row_ind: *mut c_void, col_ind: *mut c_void, values: *mut c_void, it: c_int, base: c_int, vt: c_int) {
        create_spmat(d, Format::Coo, rows, cols, nnz, row_ind, col_ind, values, it, it, base, vt)
    }
    fn cusparseCreateConstCoo(d: *mut Handle, rows: i64, cols: i64, nnz: i64, row_ind: *mut c_void, col_ind: *mut c_void, values: *mut c_void, it: c_int, base: c_int, vt: c_int) {
        create_spmat(d, Format::Coo, rows, cols, nnz, row_ind, col_ind, values, it, it, base, vt)
    }
    fn cusparseDestroySpMat(d: Handle) {
        objects::destroy(d as usize, kind::spmat, "cusparseSpMatDescr_t")
    }
    fn cusparseCsrGet(d: Handle, rows: *mut i64, cols: *mut i64, nnz: *mut i64, offsets: *mut *mut c_void, indices: *mut *mut c_void, values: *mut *mut c_void, ot: *mut c_int, it: *mut c_int, base: *mut c_int, vt: *mut c_int) {
        // SAFETY: per the API.
        unsafe { get_spmat(d, Format::Csr, rows, cols, nnz, offsets, indices, values, [ot, it], base, vt) }
    }
    fn cusparseCscGet(d: Handle, rows: *mut i64, cols: *mut i64, nnz: *mut i64, offsets: *mut *mut c_void, indices: *mut *mut c_void, values: *mut *mut c_void, ot: *mut c_int, it: *mut c_int, base: *mut c_int, vt: *mut c_int) {
        // SAFETY: per the API.
        unsafe { get_spmat(d, Format::Csc, rows, cols, nnz, offsets, indices, values, [ot, it], base, vt) }
    }
    fn cusparseCooGet(d: Handle, rows: *mut i64, cols: *mut i64, nnz: *mut i64, row_ind: *mut *mut c_void, col_ind: *mut *mut c_void, values: *mut *mut c_void, it: *mut c_int, base: *mut c_int, vt: *mut c_int) {
        // SAFETY: per the API.
        unsafe { get_spmat(d, Format::Coo, rows, cols, nnz, row_ind, col_ind, values, [it, std::ptr::null_mut()], base, vt) }
    }
    fn cusparseCsrSetPointers(d: Handle, offsets: *mut c_void, indices: *mut c_void, values: *mut c_void) {
        set_pointers(d, Format::Csr, offsets, indices, values)
    }
    fn cusparseCscSetPointers(d: Handle, offsets: *mut c_void, indices: *mut c_void, values: *mut c_void) {
        set_pointers(d, Format::Csc, offsets, indices, values)
    }
    fn cusparseCooSetPointers(d: Handle, rows: *mut c_void, cols: *mut c_void, values: *mut c_void) {
        set_pointers(d, Format::Coo, rows, cols, values)
    }
    fn cusparseSpMatGetSize(d: Handle, rows: *mut i64, cols: *mut i64, nnz: *mut i64) {
        let m = objects::spmat(d as usize)?;
        // SAFETY: per the API.
        unsafe {
            out(rows, m.rows)?;
            out(cols, m.cols)?;
            out(nnz, m.nnz)
        }
    }
    fn cusparseSpMatGetFormat(d: Handle, format: *mut c_int) {
        // SAFETY: per the API.
        unsafe { out(format, objects::spmat(d as usize)?.format as c_int) }
    }
    fn cusparseSpMatGetIndexBase(d: Handle, base: *mut c_int) {
        // SAFETY: per the API.
        unsafe { out(base, objects::spmat(d as usize)?.base) }
    }
    fn cusparseSpMatGetValues(d: Handle, values: *mut *mut c_void) {
        // SAFETY: per the API.
        unsafe { out(values, objects::spmat(d as usize)?.values as *mut c_void) }
    }
    fn cusparseSpMatSetValues(d: Handle, values: *mut c_void) {
        update_spmat(d, |m| {
            m.values = values as u64;
            Ok(())
        })
    }
    fn cusparseSpMatGetStridedBatch(d: Handle, count: *mut c_int) {
        // SAFETY: per the API.
        unsafe { out(count, objects::spmat(d as usize)?.batch_count) }
    }
    fn cusparseCsrSetStridedBatch(d: Handle, count: c_int, offsets_stride: i64, values_stride: i64) {
        ensure!(count >= 1 && offsets_stride >= 0 && values_stride >= 0, "cusparseCsrSetStridedBatch: {count} {offsets_stride} {values_stride}");
        update_spmat(d, |m| {
            (m.batch_count, m.ptr0_batch_stride, m.values_batch_stride) = (count, offsets_stride, values_stride);
            Ok(())
        })
    }
    fn cusparseCooSetStridedBatch(d: Handle, count: c_int, stride: i64) {
        ensure!(count >= 1 && stride >= 0, "cusparseCooSetStridedBatch: {count} {stride}");
        update_spmat(d, |m| {
            (m.batch_count, m.ptr0_batch_stride, m.values_batch_stride) = (count, stride, stride);
            Ok(())
        })
    }
    /// `cusparseSpMatGetAttribute`: `CUSPARSE_SPMAT_FILL_MODE` (0) or `DIAG_TYPE` (1), an `int`.
    fn cusparseSpMatGetAttribute(d: Handle, attribute: c_int, data: *mut c_void, size: usize) {
        let m = objects::spmat(d as usize)?;
        ensure!(size == size_of::<c_int>(), "cusparseSpMatGetAttribute: dataSize {size}");
        let v = match attribute {
            0 => m.fill_mode,
            1 => m.diag_type,
            _ => return Err(fail(INVALID_VALUE, format_args!("cusparseSpMatGetAttribute: attribute {attribute}"))),
        };
        // SAFETY: per the API (an int-sized buffer).
        unsafe { out(data.cast::<c_int>(), v) }
    }
    fn cusparseSpMatSetAttribute(d: Handle, attribute: c_int, data: *mut c_void, size: usize) {
        ensure!(size == size_of::<c_int>() && !data.is_null(), "cusparseSpMatSetAttribute: dataSize {size} data {data:?}");
        // SAFETY: per the API (an int-sized buffer).
        let v = unsafe { data.cast::<c_int>().read_unaligned() };
        ensure!(v == 0 || v == 1, "cusparseSpMatSetAttribute: value {v}");
        update_spmat(d, |m| match attribute {
            0 => {
                m.fill_mode = v;
                Ok(())
            }
            1 => {
                m.diag_type = v;
                Ok(())
            }
            _ => Err(fail(INVALID_VALUE, format_args!("cusparseSpMatSetAttribute: attribute {attribute}"))),
        })
    }

    fn cusparseCreateDnMat(d: *mut Handle, rows: i64, cols: i64, ld: i64, values: *mut c_void, vt: c_int, order: c_int) {
        create_dnmat(d, rows, cols, ld, values, vt, order)
    }
    fn cusparseCreateConstDnMat(d: *mut Handle, rows: i64, cols: i64, ld: i64, values: *mut c_void, vt: c_int, order: c_int) {
        create_dnmat(d, rows, cols, ld, values, vt, order)
    }
    fn cusparseDestroyDnMat(d: Handle) {
        objects::destroy(d as usize, kind::dnmat, "cusparseDnMatDescr_t")
    }
    fn cusparseDnMatGet(d: Handle, rows: *mut i64, cols: *mut i64, ld: *mut i64, values: *mut *mut c_void, vt: *mut c_int, order: *mut c_int) {
        let m = objects::dnmat(d as usize)?;
        // SAFETY: per the API.
        unsafe {
            out(rows, m.rows)?;
            out(cols, m.cols)?;
            out(ld, m.ld)?;
            out(values, m.values as *mut c_void)?;
            out(vt, m.value_type)?;
            out(order, if m.row_major { 2 } else { 1 })
        }
    }
    fn cusparseDnMatGetValues(d: Handle, values: *mut *mut c_void) {
        // SAFETY: per the API.
        unsafe { out(values, objects::dnmat(d as usize)?.values as *mut c_void) }
    }
    fn cusparseDnMatSetValues(d: Handle, values: *mut c_void) {
        update_dnmat(d, |m| {
            m.values = values as u64;
            Ok(())
        })
    }
    fn cusparseDnMatSetStridedBatch(d: Handle, count: c_int, stride: i64) {
        ensure!(count >= 1 && stride >= 0, "cusparseDnMatSetStridedBatch: {count} {stride}");
        update_dnmat(d, |m| {
            (m.batch_count, m.batch_stride) = (count, stride);
            Ok(())
        })
    }
    fn cusparseDnMatGetStridedBatch(d: Handle, count: *mut c_int, stride: *mut i64) {
        let m = objects::dnmat(d as usize)?;
        // SAFETY: per the API.
        unsafe {
            out(count, m.batch_count)?;
            out(stride, m.batch_stride)
        }
    }

    fn cusparseCreateDnVec(d: *mut Handle, size: i64, values: *mut c_void, vt: c_int) {
        create_dnvec(d, size, values, vt)
    }
    fn cusparseCreateConstDnVec(d: *mut Handle, size: i64, values: *mut c_void, vt: c_int) {
        create_dnvec(d, size, values, vt)
    }
    fn cusparseDestroyDnVec(d: Handle) {
        objects::destroy(d as usize, kind::dnvec, "cusparseDnVecDescr_t")
    }
    fn cusparseDnVecGet(d: Handle, size: *mut i64, values: *mut *mut c_void, vt: *mut c_int) {
        let v = objects::dnvec(d as usize)?;
        // SAFETY: per the API.
        unsafe {
            out(size, v.size)?;
            out(values, v.values as *mut c_void)?;
            out(vt, v.value_type)
        }
    }
    fn cusparseDnVecGetValues(d: Handle, values: *mut *mut c_void) {
        // SAFETY: per the API.
        unsafe { out(values, objects::dnvec(d as usize)?.values as *mut c_void) }
    }
    fn cusparseDnVecSetValues(d: Handle, values: *mut c_void) {
        objects::update(d as usize, "cusparseDnVecDescr_t", |o| match o {
            Object::DnVec(v) => {
                v.values = values as u64;
                Some(Ok(()))
            }
            _ => None,
        })
    }

    fn cusparseCreateSpVec(d: *mut Handle, size: i64, nnz: i64, indices: *mut c_void, values: *mut c_void, it: c_int, base: c_int, vt: c_int) {
        create_spvec(d, size, nnz, indices, values, it, base, vt)
    }
    fn cusparseCreateConstSpVec(d: *mut Handle, size: i64, nnz: i64, indices: *mut c_void, values: *mut c_void, it: c_int, base: c_int, vt: c_int) {
        create_spvec(d, size, nnz, indices, values, it, base, vt)
    }
    fn cusparseDestroySpVec(d: Handle) {
        objects::destroy(d as usize, kind::spvec, "cusparseSpVecDescr_t")
    }
    fn cusparseSpVecGet(d: Handle, size: *mut i64, nnz: *mut i64, indices: *mut *mut c_void, values: *mut *mut c_void, it: *mut c_int, base: *mut c_int, vt: *mut c_int) {
        let v = objects::spvec(d as usize)?;
        // SAFETY: per the API.
        unsafe {
            out(size, v.size)?;
            out(nnz, v.nnz)?;
            out(indices, v.indices as *mut c_void)?;
            out(values, v.values as *mut c_void)?;
            out(it, v.index_type as c_int)?;
            out(base, v.base)?;
            out(vt, v.value_type)
        }
    }
    fn cusparseSpVecGetIndexBase(d: Handle, base: *mut c_int) {
        // SAFETY: per the API.
        unsafe { out(base, objects::spvec(d as usize)?.base) }
    }
    fn cusparseSpVecGetValues(d: Handle, values: *mut *mut c_void) {
        // SAFETY: per the API.
        unsafe { out(values, objects::spvec(d as usize)?.values as *mut c_void) }
    }
    fn cusparseSpVecSetValues(d: Handle, values: *mut c_void) {
        objects::update(d as usize, "cusparseSpVecDescr_t", |o| match o {
            Object::SpVec(v) => {
                v.values = values as u64;
                Some(Ok(()))
            }
            _ => None,
        })
    }
}

fn set_pointers(d: Handle, format: Format, ptr0: *mut c_void, ptr1: *mut c_void, values: *mut c_void) -> SparseResult {
    update_spmat(d, |m| {
        ensure!(m.format == format, "the descriptor holds a {:?} matrix, not {format:?}", m.format);
        (m.ptr0, m.ptr1, m.values) = (ptr0 as u64, ptr1 as u64, values as u64);
        Ok(())
    })
}
