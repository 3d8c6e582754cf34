//! Handles, streams, modes, versions, status strings, and the vector/matrix copies.

use std::ffi::{c_char, c_int, c_void};

use super::{export, Handle};
use crate::handle;
use crate::operand::{matrix_elems, view};
use crate::status::{self, fail, INVALID_VALUE, NOT_INITIALIZED};
use crate::types::PointerMode;

/// The cuBLAS release this library implements the API of (`CUBLAS_VERSION`).
pub const VERSION: (c_int, c_int, c_int) = (13, 1, 0);

/// Writes `v` to a non-NULL out-pointer; NULL is `INVALID_VALUE`.
///
/// # Safety
/// A non-NULL `p` is writable.
unsafe fn out<T>(p: *mut T, v: T) -> crate::status::BlasResult {
    if p.is_null() {
        return Err(fail(INVALID_VALUE, format_args!("NULL output pointer")));
    }
    // SAFETY: per the contract.
    unsafe { p.write(v) };
    Ok(())
}

export! {
    /// `cublasCreate_v2(cublasHandle_t*)`: fails when OpenBLAS or libcuda is missing.
    fn cublasCreate_v2(out_handle: *mut Handle) {
        if out_handle.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("cublasCreate: NULL handle pointer")));
        }
        cpu_blas::openblas().map_err(|e| fail(NOT_INITIALIZED, format_args!("cublasCreate: {e}")))?;
        libcuda_client::driver().map_err(|e| fail(NOT_INITIALIZED, format_args!("cublasCreate: {e}")))?;
        // SAFETY: non-NULL, per the API writable.
        unsafe { out_handle.write(handle::create() as Handle) };
        Ok(())
    }

    /// `cublasDestroy_v2(cublasHandle_t)`.
    fn cublasDestroy_v2(h: Handle) {
        handle::destroy(h as usize)
    }

    /// `cublasGetVersion_v2(cublasHandle_t, int*)`: `major * 10000 + minor * 100 + patch`.
    fn cublasGetVersion_v2(h: Handle, version: *mut c_int) {
        handle::state(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(version, VERSION.0 * 10000 + VERSION.1 * 100 + VERSION.2) }
    }

    /// `cublasGetProperty(libraryPropertyType, int*)`: MAJOR_VERSION 0, MINOR 1, PATCH 2.
    fn cublasGetProperty(kind: c_int, value: *mut c_int) {
        let v = match kind {
            0 => VERSION.0,
            1 => VERSION.1,
            2 => VERSION.2,
            _ => return Err(fail(INVALID_VALUE, format_args!("cublasGetProperty: libraryPropertyType {kind}"))),
        };
        // SAFETY: per the API.
        unsafe { out(value, v) }
    }

    /// `cublasSetStream_v2(cublasHandle_t, cudaStream_t)`.
    fn cublasSetStream_v2(h: Handle, stream: *mut c_void) {
        handle::update(h as usize, |s| s.stream = stream as usize)
    }

    /// `cublasGetStream_v2(cublasHandle_t, cudaStream_t*)`.
    fn cublasGetStream_v2(h: Handle, stream: *mut *mut c_void) {
        let s = handle::state(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(stream, s.stream as *mut c_void) }
    }

    /// `cublasSetPointerMode_v2(cublasHandle_t, cublasPointerMode_t)`.
    fn cublasSetPointerMode_v2(h: Handle, mode: c_int) {
        let mode = PointerMode::from_c(mode)?;
        handle::update(h as usize, |s| s.pointer_mode = mode)
    }

    /// `cublasGetPointerMode_v2(cublasHandle_t, cublasPointerMode_t*)`.
    fn cublasGetPointerMode_v2(h: Handle, mode: *mut c_int) {
        let s = handle::state(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(mode, s.pointer_mode as c_int) }
    }

    /// `cublasSetAtomicsMode(cublasHandle_t, cublasAtomicsMode_t)`.
    fn cublasSetAtomicsMode(h: Handle, mode: c_int) {
        if !(0..=1).contains(&mode) {
            return Err(fail(INVALID_VALUE, format_args!("cublasSetAtomicsMode: {mode}")));
        }
        handle::update(h as usize, |s| s.atomics_mode = mode)
    }

    /// `cublasGetAtomicsMode(cublasHandle_t, cublasAtomicsMode_t*)`.
    fn cublasGetAtomicsMode(h: Handle, mode: *mut c_int) {
        let s = handle::state(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(mode, s.atomics_mode) }
    }

    /// `cublasSetMathMode(cublasHandle_t, cublasMath_t)`: DEFAULT 0, TENSOR_OP 1,
    /// PEDANTIC 2, TF32_TENSOR_OP 3, optionally with DISALLOW_REDUCED_PRECISION_REDUCTION (16).
    fn cublasSetMathMode(h: Handle, mode: c_int) {
        if !(0..=3).contains(&(mode & !16)) {
            return Err(fail(INVALID_VALUE, format_args!("cublasSetMathMode: {mode}")));
        }
        handle::update(h as usize, |s| s.math_mode = mode)
    }

    /// `cublasGetMathMode(cublasHandle_t, cublasMath_t*)`.
    fn cublasGetMathMode(h: Handle, mode: *mut c_int) {
        let s = handle::state(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(mode, s.math_mode) }
    }

    /// `cublasSetSmCountTarget(cublasHandle_t, int)`.
    fn cublasSetSmCountTarget(h: Handle, count: c_int) {
        if count < 0 {
            return Err(fail(INVALID_VALUE, format_args!("cublasSetSmCountTarget: {count}")));
        }
        handle::update(h as usize, |s| s.sm_count_target = count)
    }

    /// `cublasGetSmCountTarget(cublasHandle_t, int*)`.
    fn cublasGetSmCountTarget(h: Handle, count: *mut c_int) {
        let s = handle::state(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(count, s.sm_count_target) }
    }

    /// `cublasSetWorkspace_v2(cublasHandle_t, void*, size_t)`: the arithmetic here needs
    /// no device workspace, so the buffer is checked and left unused.
    fn cublasSetWorkspace_v2(h: Handle, workspace: *mut c_void, bytes: usize) {
        handle::state(h as usize)?;
        if workspace.is_null() != (bytes == 0) && !workspace.is_null() {
            view::<u8>(workspace as u64, bytes, "cublasSetWorkspace: workspace")?;
        }
        Ok(())
    }
}

/// `const char* cublasGetStatusName(cublasStatus_t)`.
#[no_mangle]
pub extern "C" fn cublasGetStatusName(s: status::Status) -> *const c_char {
    status::name(s).as_ptr().cast()
}

/// `const char* cublasGetStatusString(cublasStatus_t)`.
#[no_mangle]
pub extern "C" fn cublasGetStatusString(s: status::Status) -> *const c_char {
    status::description(s).as_ptr().cast()
}

/// `size_t cublasGetCudartVersion(void)`: the CUDA runtime release this library is
/// built for (`CUDART_VERSION`; NVIDIA's cuBLAS 13.1 answers 13000).
#[no_mangle]
pub extern "C" fn cublasGetCudartVersion() -> usize {
    (VERSION.0 * 1000) as usize
}

/// A strided copy of `rows` x `cols` elements of `elem` bytes between host memory and
/// device memory seen by the host, queued on `stream` (`wait`: and waited for).
#[allow(clippy::too_many_arguments, reason = "cublasSetMatrix's parameters")]
fn copy_matrix(
    name: &'static str,
    rows: c_int,
    cols: c_int,
    elem: c_int,
    src: *const c_void,
    lds: c_int,
    dst: *mut c_void,
    ldd: c_int,
    to_device: bool,
    stream: usize,
    wait: bool,
) -> crate::status::BlasResult {
    if rows < 0 || cols < 0 || elem <= 0 || lds < rows.max(1) || ldd < rows.max(1) {
        return Err(fail(INVALID_VALUE, format_args!("{name}: rows={rows} cols={cols} elemSize={elem} lda={lds} ldb={ldd}")));
    }
    if rows == 0 || cols == 0 {
        return Ok(());
    }
    let e = elem as usize;
    // The device side is checked and mapped; the host side is the caller's memory.
    let dev = if to_device { dst as u64 } else { src as u64 };
    let ld_dev = if to_device { ldd } else { lds };
    let hv = view::<u8>(dev, matrix_elems(rows, cols, ld_dev) * e, &format!("{name}: device matrix"))?;
    let (s, d) = if to_device { (src as usize, hv.0) } else { (hv.0, dst as usize) };
    let (lds, ldd) = (lds as usize, ldd as usize);
    let work = move || {
        for j in 0..cols as usize {
            // SAFETY: column j lies inside both matrices (the device one was checked,
            // the host one is the caller's promise).
            unsafe { std::ptr::copy((s as *const u8).add(j * lds * e), (d as *mut u8).add(j * ldd * e), rows as usize * e) };
        }
    };
    libcuda_client::enqueue(stream as libcuda_client::CUstream, crate::LIB, name, work)
        .map_err(|e| fail(status::MAPPING_ERROR, format_args!("{name}: cannot queue the copy (CUresult {e})")))?;
    if wait {
        libcuda_client::synchronize(stream as libcuda_client::CUstream)
            .map_err(|e| fail(status::MAPPING_ERROR, format_args!("{name}: CUresult {e}")))?;
    }
    Ok(())
}

export! {
    /// `cublasSetVector(int n, int elemSize, const void* x, int incx, void* y, int incy)`.
    fn cublasSetVector(n: c_int, elem: c_int, x: *const c_void, incx: c_int, y: *mut c_void, incy: c_int) {
        vector_copy("cublasSetVector", n, elem, x, incx, y, incy, true, 0, true)
    }
    /// `cublasGetVector(int n, int elemSize, const void* x, int incx, void* y, int incy)`.
    fn cublasGetVector(n: c_int, elem: c_int, x: *const c_void, incx: c_int, y: *mut c_void, incy: c_int) {
        vector_copy("cublasGetVector", n, elem, x, incx, y, incy, false, 0, true)
    }
    /// `cublasSetVectorAsync(..., cudaStream_t)`.
    fn cublasSetVectorAsync(n: c_int, elem: c_int, x: *const c_void, incx: c_int, y: *mut c_void, incy: c_int, stream: *mut c_void) {
        vector_copy("cublasSetVectorAsync", n, elem, x, incx, y, incy, true, stream as usize, false)
    }
    /// `cublasGetVectorAsync(..., cudaStream_t)`.
    fn cublasGetVectorAsync(n: c_int, elem: c_int, x: *const c_void, incx: c_int, y: *mut c_void, incy: c_int, stream: *mut c_void) {
        vector_copy("cublasGetVectorAsync", n, elem, x, incx, y, incy, false, stream as usize, false)
    }
    /// `cublasSetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb)`.
    fn cublasSetMatrix(rows: c_int, cols: c_int, elem: c_int, a: *const c_void, lda: c_int, b: *mut c_void, ldb: c_int) {
        copy_matrix("cublasSetMatrix", rows, cols, elem, a, lda, b, ldb, true, 0, true)
    }
    /// `cublasGetMatrix(int rows, int cols, int elemSize, const void* A, int lda, void* B, int ldb)`.
    fn cublasGetMatrix(rows: c_int, cols: c_int, elem: c_int, a: *const c_void, lda: c_int, b: *mut c_void, ldb: c_int) {
        copy_matrix("cublasGetMatrix", rows, cols, elem, a, lda, b, ldb, false, 0, true)
    }
    /// `cublasSetMatrixAsync(..., cudaStream_t)`.
    fn cublasSetMatrixAsync(rows: c_int, cols: c_int, elem: c_int, a: *const c_void, lda: c_int, b: *mut c_void, ldb: c_int, stream: *mut c_void) {
        copy_matrix("cublasSetMatrixAsync", rows, cols, elem, a, lda, b, ldb, true, stream as usize, false)
    }
    /// `cublasGetMatrixAsync(..., cudaStream_t)`.
    fn cublasGetMatrixAsync(rows: c_int, cols: c_int, elem: c_int, a: *const c_void, lda: c_int, b: *mut c_void, ldb: c_int, stream: *mut c_void) {
        copy_matrix("cublasGetMatrixAsync", rows, cols, elem, a, lda, b, ldb, false, stream as usize, false)
    }
}

/// A vector copy is a one-row matrix copy with the increments as leading dimensions;
/// cuBLAS requires positive increments.
#[allow(clippy::too_many_arguments, reason = "cublasSetVector's parameters")]
fn vector_copy(
    name: &'static str,
    n: c_int,
    elem: c_int,
    x: *const c_void,
    incx: c_int,
    y: *mut c_void,
    incy: c_int,
    to_device: bool,
    stream: usize,
    wait: bool,
) -> crate::status::BlasResult {
    if n < 0 || incx <= 0 || incy <= 0 || elem <= 0 {
        return Err(fail(INVALID_VALUE, format_args!("{name}: n={n} elemSize={elem} incx={incx} incy={incy}")));
    }
    copy_matrix(name, 1, n, elem, x, incx, y, incy, to_device, stream, wait)
}
