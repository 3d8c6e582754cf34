//! `cusparseSparseToDense` and `cusparseDenseToSparse_{analysis,convert}`.
//!
//! The analysis writes the compressed offsets (CSR, CSC) and records the number of
//! nonzeros in the sparse descriptor, where the caller reads it at once
//! (`cusparseSpMatGetSize`): it waits for its work, as NVIDIA's does.

use super::{dense_layout, dense_view, index_type, sparse};
use crate::call::{with_index_type, with_value_type, Call};
use crate::kernels::{convert, Index, Layout, Value};
use crate::objects::{self, Format, Object};
use crate::status::{ensure, SparseResult};

/// The transposed view of a dense layout (for a CSC matrix, handled as the CSR of its
/// transpose).
fn transposed(l: Layout) -> Layout {
    Layout { rows: l.cols, cols: l.rows, ld: l.ld, row_major: !l.row_major }
}

/// `B = A`, `A` sparse and `B` dense.
pub fn sparse_to_dense(call: Call, a: usize, b: usize, alg: i32, run: bool) -> SparseResult {
    ensure!(alg == 0, "{}: invalid cusparseSparseToDenseAlg_t {alg}", call.name);
    let (ma, db) = (objects::spmat(a)?, objects::dnmat(b)?);
    ensure!(ma.rows == db.rows && ma.cols == db.cols, "{}: A is {}x{}, B {}x{}", call.name, ma.rows, ma.cols, db.rows, db.cols);
    with_value_type!(ma.value_type, call.name, |T| {
        let it = index_type(&call, &ma, ma.value_type, "A")?;
        with_index_type!(it, call.name, |I| {
            let sa = sparse::<T, I>(&call, &ma, "A", true)?;
            let lb = dense_layout(&call, &db, ma.value_type, "B")?;
            let hb = dense_view::<T>(&call, &db, lb, "B")?;
            if !run {
                return Ok(());
            }
            call.queue(move || {
                // SAFETY: the views were checked for these types; B is the only output.
                let (s, t) = unsafe { sa.as_sparse::<T, I>() };
                // SAFETY: as above.
                unsafe { convert::to_dense(&s, hb.slice_mut(), if t { transposed(lb) } else { lb }) }
            })
        })
    })
}

/// The phases of `cusparseDenseToSparse`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    BufferSize,
    Analysis,
    Convert,
}

/// `B = A`, `A` dense and `B` sparse.
pub fn dense_to_sparse(call: Call, a: usize, b: usize, alg: i32, phase: Phase) -> SparseResult {
    ensure!(alg == 0, "{}: invalid cusparseDenseToSparseAlg_t {alg}", call.name);
    let (da, mb) = (objects::dnmat(a)?, objects::spmat(b)?);
    ensure!(mb.rows == da.rows && mb.cols == da.cols, "{}: A is {}x{}, B {}x{}", call.name, da.rows, da.cols, mb.rows, mb.cols);
    with_value_type!(mb.value_type, call.name, |T| {
        let it = index_type(&call, &mb, mb.value_type, "B")?;
        with_index_type!(it, call.name, |I| dense_to_sparse_typed::<T, I>(call, da, b, mb, phase))
    })
}

fn dense_to_sparse_typed<T: Value, I: Index>(call: Call, da: objects::DnMat, b: usize, mb: objects::SpMat, phase: Phase) -> SparseResult {
    let la = dense_layout(&call, &da, mb.value_type, "A")?;
    let ha = dense_view::<T>(&call, &da, la, "A")?;
    let base = mb.base as i64;
    let by_rows = mb.format != Format::Csc;
    match phase {
        Phase::BufferSize => Ok(()),
        Phase::Analysis => {
            let offsets = match mb.format {
                Format::Csr => Some(call.array(mb.ptr0 as *const I, la.rows + 1, "B's row offsets")?),
                Format::Csc => Some(call.array(mb.ptr0 as *const I, la.cols + 1, "B's column offsets")?),
                Format::Coo => None,
            };
            let nnz = call.run_now(move || {
                // SAFETY: the views were checked for these types; the offsets are the only output.
                let dense = unsafe { ha.slice::<T>() };
                Ok(match offsets {
                    // SAFETY: as above.
                    Some(o) => convert::dense_offsets(dense, la, by_rows, base, unsafe { o.slice_mut::<I>() }),
                    None => convert::count_nonzeros(dense, la, true, &mut vec![0; la.rows]),
                })
            })?;
            objects::update(b, "cusparseSpMatDescr_t", |o| match o {
                Object::SpMat(m) => {
                    m.nnz = nnz;
                    Some(Ok(()))
                }
                _ => None,
            })
        }
        Phase::Convert => {
            let sb = sparse::<T, I>(&call, &mb, "B", true)?;
            call.queue(move || {
                // SAFETY: the views were checked for these types and are distinct arrays.
                let (dense, inner, values) = unsafe { (ha.slice::<T>(), sb.ptr1.slice_mut::<I>(), sb.values.slice_mut::<T>()) };
                match sb.m.format {
                    // SAFETY: as above.
                    Format::Coo => convert::dense_entries(dense, la, true, base, Some(unsafe { sb.ptr0.slice_mut::<I>() }), inner, values),
                    _ => {
                        // SAFETY: as above.
                        convert::dense_offsets(dense, la, by_rows, base, unsafe { sb.ptr0.slice_mut::<I>() });
                        convert::dense_entries(dense, la, by_rows, base, None, inner, values)
                    }
                }
            })
        }
    }
}
