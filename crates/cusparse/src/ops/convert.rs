//! The legacy API's structure operations (32-bit indices): `cusparseCsr2cscEx2`,
//! `cusparseXcoo2csr`, `cusparseXcsr2coo`, `cusparseCreateIdentityPermutation` and the
//! csr/csc/coo sorts.

use crate::call::{index_base, Call, Host};
use crate::kernels::{convert, sort};
use crate::objects;
use crate::status::{ensure, fail, SparseResult, MATRIX_TYPE_NOT_SUPPORTED};

/// The index base of a legacy matrix descriptor, which must describe a general matrix.
pub fn descr_base(call: &Call, d: usize, what: &str) -> SparseResult<i64> {
    let m = objects::mat_descr(d)?;
    if m.kind != 0 {
        return Err(fail(MATRIX_TYPE_NOT_SUPPORTED, format_args!("{}: {what} has matrix type {}; only GENERAL is supported", call.name, m.kind)));
    }
    Ok(m.base as i64)
}

/// The arguments of `cusparseCsr2cscEx2`.
pub struct Csr2Csc {
    pub m: i32,
    pub n: i32,
    pub nnz: i32,
    pub csr_val: u64,
    pub csr_row_ptr: u64,
    pub csr_col_ind: u64,
    pub csc_val: u64,
    pub csc_col_ptr: u64,
    pub csc_row_ind: u64,
    pub val_type: i32,
    pub copy_values: i32,
    pub base: i32,
    pub alg: i32,
}

/// The size in bytes of a `cudaDataType` element (values are only moved here).
fn element_bytes(t: i32) -> Option<usize> {
    Some(match t {
        3 | 8 | 28..=30 => 1,
        2 | 14 | 20 | 22 | 7 | 9 => 2,
        0 | 10 | 12 | 6 | 15 | 21 | 23 => 4,
        1 | 4 | 24 | 26 | 11 | 13 => 8,
        5 | 25 | 27 => 16,
        _ => return None,
    })
}

/// `cusparseCsr2cscEx2` (`run` false: its buffer-size query).
pub fn csr2csc(call: Call, a: Csr2Csc, run: bool) -> SparseResult {
    ensure!(a.m >= 0 && a.n >= 0 && a.nnz >= 0, "{}: m={} n={} nnz={}", call.name, a.m, a.n, a.nnz);
    ensure!(a.alg == 1 || a.alg == 2, "{}: invalid cusparseCsr2CscAlg_t {}", call.name, a.alg);
    ensure!(a.copy_values == 0 || a.copy_values == 1, "{}: invalid cusparseAction_t {}", call.name, a.copy_values);
    let base = index_base(call.name, a.base)?;
    let bytes = element_bytes(a.val_type)
        .ok_or_else(|| fail(crate::status::INVALID_VALUE, format_args!("{}: invalid cudaDataType {}", call.name, a.val_type)))?;
    let (m, n, nnz) = (a.m as usize, a.n as usize, a.nnz as usize);
    let numeric = a.copy_values == 1;
    let row_ptr = call.array(a.csr_row_ptr as *const i32, m + 1, "csrRowPtr")?;
    let col_ind = call.array(a.csr_col_ind as *const i32, nnz, "csrColInd")?;
    let col_ptr = call.array(a.csc_col_ptr as *const i32, n + 1, "cscColPtr")?;
    let row_ind = call.array(a.csc_row_ind as *const i32, nnz, "cscRowInd")?;
    let vals = if numeric {
        Some((call.array(a.csr_val as *const u8, nnz * bytes, "csrVal")?, call.array(a.csc_val as *const u8, nnz * bytes, "cscVal")?))
    } else {
        None
    };
    if !run {
        return Ok(());
    }
    call.queue(move || {
        /// Runs the transpose with values of `N` bytes.
        fn go<const N: usize>(m: usize, n: usize, views: [Host; 4], vals: Option<(Host, Host)>, base: i64) -> crate::kernels::KResult {
            let re = |h: Host| Host { addr: h.addr, len: h.len / N };
            // SAFETY: the views were checked; the CSC arrays are the only outputs.
            unsafe {
                let (v_in, v_out) = match vals {
                    Some((i, o)) => (Some(re(i).slice::<[u8; N]>()), Some(re(o).slice_mut::<[u8; N]>())),
                    None => (None, None),
                };
                convert::transpose(m, n, views[0].slice::<i32>(), views[1].slice(), v_in, base, views[2].slice_mut(), views[3].slice_mut(), v_out)
            }
        }
        let views = [row_ptr, col_ind, col_ptr, row_ind];
        match bytes {
            1 => go::<1>(m, n, views, vals, base),
            2 => go::<2>(m, n, views, vals, base),
            4 => go::<4>(m, n, views, vals, base),
            8 => go::<8>(m, n, views, vals, base),
            _ => go::<16>(m, n, views, vals, base),
        }
    })
}

/// `cusparseXcoo2csr` (`to_csr`) or `cusparseXcsr2coo`.
pub fn coo_csr(call: Call, coo_rows: *const i32, nnz: i32, m: i32, row_ptr: *const i32, base: i32, to_csr: bool) -> SparseResult {
    ensure!(m >= 0 && nnz >= 0, "{}: m={m} nnz={nnz}", call.name);
    let base = index_base(call.name, base)?;
    let (rows, offsets) = (call.array(coo_rows, nnz as usize, "cooRowInd")?, call.array(row_ptr, m as usize + 1, "csrRowPtr")?);
    call.queue(move || {
        // SAFETY: the views were checked; one of them is written.
        unsafe {
            if to_csr {
                convert::coo_to_offsets(rows.slice::<i32>(), m as usize, base, offsets.slice_mut())
            } else {
                convert::offsets_to_coo(offsets.slice::<i32>(), m as usize, base, rows.slice_mut())
            }
        }
    })
}

/// `cusparseCreateIdentityPermutation`.
pub fn identity(call: Call, n: i32, p: *mut i32) -> SparseResult {
    ensure!(n >= 0, "{}: n={n}", call.name);
    let hp = call.array(p, n as usize, "p")?;
    call.queue(move || {
        // SAFETY: the view was checked.
        sort::identity(unsafe { hp.slice_mut() });
        Ok(())
    })
}

/// The permutation argument of a sort (NULL: none kept).
fn permutation(call: &Call, p: *mut i32, nnz: usize) -> SparseResult<Option<Host>> {
    if p.is_null() {
        Ok(None)
    } else {
        call.array(p, nnz, "P").map(Some)
    }
}

/// `cusparseXcsrsort` / `cusparseXcscsort`: `outer` compressed lines of `nnz` entries.
#[allow(clippy::too_many_arguments, reason = "the sort's parameters")]
pub fn sort_compressed(call: Call, outer: i32, inner: i32, nnz: i32, descr: usize, ptr: *const i32, ind: *mut i32, p: *mut i32) -> SparseResult {
    ensure!(outer >= 0 && inner >= 0 && nnz >= 0, "{}: m/n={outer}/{inner} nnz={nnz}", call.name);
    let base = descr_base(&call, descr, "descrA")?;
    let (hptr, hind) = (call.array(ptr, outer as usize + 1, "offsets")?, call.array(ind, nnz as usize, "indices")?);
    let hp = permutation(&call, p, nnz as usize)?;
    call.queue(move || {
        let mut scratch = vec![0; if hp.is_none() { nnz as usize } else { 0 }];
        // SAFETY: the views were checked; indices and P are written.
        let perm = match hp {
            Some(h) => unsafe { h.slice_mut() },
            None => &mut scratch[..],
        };
        // SAFETY: as above.
        unsafe { sort::sort_compressed(outer as usize, hptr.slice::<i32>(), base, hind.slice_mut(), perm) }
    })
}

/// `cusparseXcoosortByRow` / `ByColumn`.
#[allow(clippy::too_many_arguments, reason = "the sort's parameters")]
pub fn sort_coo(call: Call, m: i32, n: i32, nnz: i32, rows: *mut i32, cols: *mut i32, p: *mut i32, by_row: bool) -> SparseResult {
    ensure!(m >= 0 && n >= 0 && nnz >= 0, "{}: m={m} n={n} nnz={nnz}", call.name);
    let (hr, hc) = (call.array(rows, nnz as usize, "cooRows")?, call.array(cols, nnz as usize, "cooCols")?);
    let hp = permutation(&call, p, nnz as usize)?;
    call.queue(move || {
        let mut scratch = vec![0; if hp.is_none() { nnz as usize } else { 0 }];
        // SAFETY: the views were checked and are distinct arrays.
        unsafe {
            let perm = match hp {
                Some(h) => h.slice_mut(),
                None => &mut scratch[..],
            };
            sort::sort_coo(hr.slice_mut::<i32>(), hc.slice_mut(), perm, by_row);
        }
        Ok(())
    })
}

/// The `_bufferSizeExt` queries of the sorts: checked sizes, no workspace.
#[allow(clippy::not_unsafe_ptr_arg_deref, reason = "a C argument of the calling export, valid as the API documents")]
pub fn sort_buffer(call: &Call, m: i32, n: i32, nnz: i32, size: *mut usize) -> SparseResult {
    ensure!(m >= 0 && n >= 0 && nnz >= 0, "{}: m={m} n={n} nnz={nnz}", call.name);
    // SAFETY: per the API.
    unsafe { crate::exports::out(size, 0) }
}
