//! The generic API's operations: operands from descriptors, checked and viewed on the
//! host at the call, the kernels queued on the handle's stream.

pub mod convert;
pub mod dense;
pub mod legacy;
pub mod multiply;
pub mod spgemm;

use crate::call::{Call, Host};
use crate::kernels::{Index, Layout, Rows, Sparse, Value};
use crate::objects::{DnMat, DnVec, Format, IndexType, SpMat};
use crate::status::{fail, SparseResult, NOT_SUPPORTED};

/// A sparse matrix's arrays viewed on the host.
#[derive(Clone, Copy, Debug)]
pub struct SpOperand {
    pub m: SpMat,
    pub ptr0: Host,
    pub ptr1: Host,
    pub values: Host,
}

/// The one index type of a sparse matrix's arrays (mixed offset and index types are not
/// supported), after the checks common to every operation.
pub fn index_type(call: &Call, m: &SpMat, value_type: i32, what: &str) -> SparseResult<IndexType> {
    if m.ptr0_type != m.ptr1_type {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: {what} mixes index types {:?} and {:?}", call.name, m.ptr0_type, m.ptr1_type)));
    }
    if m.batch_count != 1 {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: {what} is a batch of {} matrices", call.name, m.batch_count)));
    }
    if m.value_type != value_type {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: {what} holds cudaDataType {} for compute type {value_type}", call.name, m.value_type)));
    }
    Ok(m.ptr0_type)
}

/// Checks and views the arrays of `m` (`values` false: the structure only).
pub fn sparse<T: Value, I: Index>(call: &Call, m: &SpMat, what: &str, values: bool) -> SparseResult<SpOperand> {
    let (rows, cols, nnz) = (m.rows as usize, m.cols as usize, m.nnz as usize);
    let len0 = match m.format {
        Format::Csr => rows + 1,
        Format::Csc => cols + 1,
        Format::Coo => nnz,
    };
    Ok(SpOperand {
        m: *m,
        ptr0: call.array(m.ptr0 as *const I, len0, &format!("{what}'s offsets or row indices"))?,
        ptr1: call.array(m.ptr1 as *const I, nnz, &format!("{what}'s indices"))?,
        values: call.array(m.values as *const T, if values { nnz } else { 0 }, &format!("{what}'s values"))?,
    })
}

impl SpOperand {
    /// The matrix as the kernels take it, and whether that is its transpose (CSC is
    /// the CSR form of the transpose).
    ///
    /// # Safety
    /// The views were made for `T` and `I`, and no mutable slice of them lives.
    pub unsafe fn as_sparse<'a, T: Value, I: Index>(&self) -> (Sparse<'a, T, I>, bool) {
        // SAFETY: per the contract.
        let (p0, p1, v) = unsafe { (self.ptr0.slice::<I>(), self.ptr1.slice::<I>(), self.values.slice::<T>()) };
        let (rows, cols) = (self.m.rows as usize, self.m.cols as usize);
        let base = self.m.base as i64;
        match self.m.format {
            Format::Csr => (Sparse { rows, cols, layout: Rows::Compressed(p0), indices: p1, values: v, base }, false),
            Format::Coo => (Sparse { rows, cols, layout: Rows::Coordinate(p0), indices: p1, values: v, base }, false),
            Format::Csc => (Sparse { rows: cols, cols: rows, layout: Rows::Compressed(p0), indices: p1, values: v, base }, true),
        }
    }
}

/// A dense matrix's layout, after the common checks.
pub fn dense_layout(call: &Call, d: &DnMat, value_type: i32, what: &str) -> SparseResult<Layout> {
    if d.batch_count != 1 {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: {what} is a batch of {} matrices", call.name, d.batch_count)));
    }
    if d.value_type != value_type {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: {what} holds cudaDataType {} for compute type {value_type}", call.name, d.value_type)));
    }
    Ok(Layout { rows: d.rows as usize, cols: d.cols as usize, ld: d.ld as usize, row_major: d.row_major })
}

/// The host view of a dense matrix.
pub fn dense_view<T>(call: &Call, d: &DnMat, l: Layout, what: &str) -> SparseResult<Host> {
    call.array(d.values as *const T, l.span(), what)
}

/// The host view of a dense vector of the compute type.
pub fn vector<T>(call: &Call, v: &DnVec, value_type: i32, what: &str) -> SparseResult<Host> {
    if v.value_type != value_type {
        return Err(fail(NOT_SUPPORTED, format_args!("{}: {what} holds cudaDataType {} for compute type {value_type}", call.name, v.value_type)));
    }
    call.array(v.values as *const T, v.size as usize, what)
}
