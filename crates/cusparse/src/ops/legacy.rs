//! The legacy API's arithmetic (32-bit indices): `cusparse?nnz`, `cusparseXcsrgeam2Nnz`
//! and `cusparse?csrgeam2`, `cusparse?nnz_compress` and `cusparse?csr2csr_compress`.
//!
//! Where an output's length is known only from device data (`C`'s arrays from the row
//! pointers `csrgeam2Nnz` wrote), the queued work maps it once the data is there.

use super::convert::descr_base;
use crate::call::{view, Call, Host};
use crate::kernels::geam::{geam, geam_offsets, Csr};
use crate::kernels::{convert, KResult, Layout, Value};
use crate::status::{ensure, SparseResult};

/// Maps `len` elements at `ptr` from inside queued work.
fn late_view<T>(name: &str, ptr: u64, len: usize, what: &str) -> KResult<Host> {
    view::<T>(ptr, len, &format!("{name}: {what}"))
        .map_err(|s| format!("{what} at {ptr:#x} ({len} elements) cannot be mapped (cusparseStatus_t {s})"))
}

/// The entries a CSR row-pointer array of `m` rows declares.
fn declared_nnz(offsets: &[i32], m: usize, base: i64) -> KResult<usize> {
    let nnz = offsets[m] as i64 - base;
    usize::try_from(nnz).map_err(|_| format!("row pointer {m} is {}, below the base {base}", offsets[m]))
}

/// `cusparse?nnz`: nonzeros per row (`dir` 0) or column (1) of a column-major matrix.
#[allow(clippy::too_many_arguments, reason = "cusparse?nnz's parameters")]
pub fn dense_nnz<T: Value>(
    call: Call,
    dir: i32,
    m: i32,
    n: i32,
    descr: usize,
    a: *const T,
    lda: i32,
    per: *mut i32,
    total: *mut i32,
) -> SparseResult {
    ensure!(dir == 0 || dir == 1, "{}: invalid cusparseDirection_t {dir}", call.name);
    ensure!(m >= 0 && n >= 0 && lda >= m.max(1), "{}: m={m} n={n} lda={lda}", call.name);
    descr_base(&call, descr, "descrA")?;
    let l = Layout { rows: m as usize, cols: n as usize, ld: lda as usize, row_major: false };
    let ha = call.array(a, l.span(), "A")?;
    let hp = call.array(per, if dir == 0 { l.rows } else { l.cols }, "nnzPerRowColumn")?;
    // SAFETY: the views were checked; the counts are the only output.
    call.count_out(total, move || Ok(unsafe { convert::count_nonzeros(ha.slice::<T>(), l, dir == 0, hp.slice_mut()) } as i32))
}

/// One CSR operand of csrgeam2: descriptor, nnz, values, row pointers, column indices.
#[derive(Clone, Copy)]
pub struct Operand<T> {
    pub descr: usize,
    pub nnz: i32,
    pub values: *const T,
    pub row_ptr: *const i32,
    pub col_ind: *const i32,
}

/// An operand's views and base.
#[derive(Clone, Copy)]
struct Viewed {
    offsets: Host,
    indices: Host,
    values: Host,
    base: i64,
}

impl Viewed {
    /// # Safety
    /// The views were made for `T` and are not written meanwhile.
    unsafe fn csr<'a, T>(&self, values: bool) -> Csr<'a, T, i32> {
        // SAFETY: per the contract.
        unsafe { Csr { offsets: self.offsets.slice(), indices: self.indices.slice(), values: values.then(|| self.values.slice()), base: self.base } }
    }
}

fn operand<T>(call: &Call, m: i32, x: &Operand<T>, what: &str, values: bool) -> SparseResult<Viewed> {
    ensure!(x.nnz >= 0, "{}: nnz{what}={}", call.name, x.nnz);
    Ok(Viewed {
        base: descr_base(call, x.descr, &format!("descr{what}"))?,
        offsets: call.array(x.row_ptr, m as usize + 1, &format!("csrRowPtr{what}"))?,
        indices: call.array(x.col_ind, x.nnz as usize, &format!("csrColInd{what}"))?,
        values: call.array(x.values, if values { x.nnz as usize } else { 0 }, &format!("csrVal{what}"))?,
    })
}

/// `cusparseXcsrgeam2Nnz`: `C`'s row pointers and its number of entries.
#[allow(clippy::too_many_arguments, reason = "csrgeam2Nnz's parameters")]
pub fn geam_nnz(call: Call, m: i32, n: i32, a: Operand<f32>, b: Operand<f32>, descr_c: usize, row_ptr_c: *mut i32, total: *mut i32) -> SparseResult {
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    let (va, vb) = (operand(&call, m, &a, "A", false)?, operand(&call, m, &b, "B", false)?);
    let base_c = descr_base(&call, descr_c, "descrC")?;
    let hc = call.array(row_ptr_c, m as usize + 1, "csrRowPtrC")?;
    call.count_out(total, move || {
        // SAFETY: the views were checked; C's row pointers are the only output.
        let nnz = unsafe { geam_offsets(m as usize, n as usize, &va.csr::<f32>(false), &vb.csr::<f32>(false), base_c, hc.slice_mut())? };
        i32::try_from(nnz).map_err(|_| format!("C would have {nnz} entries"))
    })
}

/// `cusparse?csrgeam2` (`run` false: its `_bufferSizeExt` query).
#[allow(clippy::too_many_arguments, reason = "csrgeam2's parameters")]
pub fn geam2<T: Value>(
    call: Call,
    m: i32,
    n: i32,
    alpha: *const T,
    a: Operand<T>,
    beta: *const T,
    b: Operand<T>,
    descr_c: usize,
    c: Operand<T>,
    run: bool,
) -> SparseResult {
    ensure!(m >= 0 && n >= 0, "{}: m={m} n={n}", call.name);
    let (va, vb) = (operand(&call, m, &a, "A", true)?, operand(&call, m, &b, "B", true)?);
    let base_c = descr_base(&call, descr_c, "descrC")?;
    let (alpha, beta) = (call.scalar(alpha, "alpha")?, call.scalar(beta, "beta")?);
    if !run {
        return Ok(());
    }
    let hc = call.array(c.row_ptr, m as usize + 1, "csrRowPtrC")?;
    let (name, values_c, indices_c) = (call.name, c.values as u64, c.col_ind as u64);
    call.queue(move || {
        // SAFETY: the views were checked; C's indices and values are the only outputs.
        unsafe {
            let offsets_c = hc.slice::<i32>();
            let nnz_c = declared_nnz(offsets_c, m as usize, base_c)?;
            let (hv, hi) = (late_view::<T>(name, values_c, nnz_c, "csrValC")?, late_view::<i32>(name, indices_c, nnz_c, "csrColIndC")?);
            geam(m as usize, n as usize, alpha.get(), &va.csr(true), beta.get(), &vb.csr(true), offsets_c, base_c, hi.slice_mut(), hv.slice_mut())
        }
    })
}

/// `cusparse?nnz_compress`: entries of each row with magnitude above `tol`.
#[allow(clippy::too_many_arguments, reason = "nnz_compress's parameters")]
pub fn nnz_compress<T: Value>(
    call: Call,
    m: i32,
    descr: usize,
    values: *const T,
    row_ptr: *const i32,
    per_row: *mut i32,
    total: *mut i32,
    tol: f64,
) -> SparseResult {
    ensure!(m >= 0 && tol >= 0.0, "{}: m={m} tol={tol}", call.name);
    let base = descr_base(&call, descr, "descrA")?;
    let (ho, hp) = (call.array(row_ptr, m as usize + 1, "csrRowPtrA")?, call.array(per_row, m as usize, "nnzPerRow")?);
    let (name, values) = (call.name, values as u64);
    call.count_out(total, move || {
        // SAFETY: the views were checked; the per-row counts are the only output.
        unsafe {
            let offsets = ho.slice::<i32>();
            let hv = late_view::<T>(name, values, declared_nnz(offsets, m as usize, base)?, "csrValA")?;
            Ok(convert::nnz_compress(hv.slice::<T>(), offsets, m as usize, base, tol, hp.slice_mut())? as i32)
        }
    })
}

/// `cusparse?csr2csr_compress`: the CSR matrix without its entries of magnitude `<= tol`.
pub struct Compress<T> {
    pub m: i32,
    pub n: i32,
    pub descr: usize,
    pub in_values: *const T,
    pub in_col_ind: *const i32,
    pub in_row_ptr: *const i32,
    pub in_nnz: i32,
    pub per_row: *const i32,
    pub out_values: *mut T,
    pub out_col_ind: *mut i32,
    pub out_row_ptr: *mut i32,
    pub tol: f64,
}

pub fn csr2csr_compress<T: Value>(call: Call, a: Compress<T>) -> SparseResult {
    ensure!(a.m >= 0 && a.n >= 0 && a.in_nnz >= 0 && a.tol >= 0.0, "{}: m={} n={} nnz={} tol={}", call.name, a.m, a.n, a.in_nnz, a.tol);
    let base = descr_base(&call, a.descr, "descrA")?;
    let (m, nnz) = (a.m as usize, a.in_nnz as usize);
    let hv = call.array(a.in_values, nnz, "inVal")?;
    let hi = call.array(a.in_col_ind, nnz, "inColInd")?;
    let ho = call.array(a.in_row_ptr, m + 1, "inRowPtr")?;
    call.array(a.per_row, m, "nnzPerRow")?;
    let hout = call.array(a.out_row_ptr, m + 1, "outRowPtr")?;
    let (name, out_values, out_indices, tol) = (call.name, a.out_values as u64, a.out_col_ind as u64, a.tol);
    call.queue(move || {
        // SAFETY: the views were checked; the output arrays are the only ones written.
        unsafe {
            let (values, indices, offsets) = (hv.slice::<T>(), hi.slice::<i32>(), ho.slice::<i32>());
            let kept = convert::nnz_compress(values, offsets, m, base, tol, &mut vec![0i32; m])? as usize;
            let (ov, oi) = (late_view::<T>(name, out_values, kept, "outVal")?, late_view::<i32>(name, out_indices, kept, "outColInd")?);
            convert::compress(m, values, indices, offsets, base, tol, ov.slice_mut(), oi.slice_mut(), hout.slice_mut())
        }
    })
}
