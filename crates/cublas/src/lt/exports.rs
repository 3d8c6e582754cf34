//! The `cublasLt*` C symbols.

use std::ffi::{c_char, c_int, c_void};

use super::attrs::{Kind, MATMUL_DESC, MATRIX_LAYOUT, PREFERENCE};
use super::matmul::{self, Operands};
use crate::exports::export;
use crate::handle;
use crate::status::{self, fail, INVALID_VALUE, NOT_INITIALIZED, NOT_SUPPORTED};

/// `cublasLtHandle_t`, descriptors.
type Ptr = *mut c_void;

/// Allocates a descriptor of `kind` on the heap and initializes it.
///
/// # Safety
/// `out` is NULL or writable.
unsafe fn create(kind: &Kind, out: *mut Ptr) -> status::BlasResult<*mut u64> {
    if out.is_null() {
        return Err(fail(INVALID_VALUE, format_args!("{}: NULL output", kind.name)));
    }
    let mem = Box::into_raw(vec![0u64; kind.words].into_boxed_slice()) as *mut u64;
    // SAFETY: a fresh allocation of the kind's size.
    unsafe {
        kind.init(mem, kind.words * 8)?;
        out.write(mem.cast());
    }
    Ok(mem)
}

/// Frees a descriptor `create` made.
///
/// # Safety
/// `p` is NULL or a descriptor from `create`.
unsafe fn destroy(kind: &Kind, p: Ptr) -> status::BlasResult {
    if p.is_null() {
        return Ok(());
    }
    // SAFETY: checked for the kind's marker, then freed with the size `create` used.
    unsafe {
        kind.words(p.cast())?;
        p.cast::<u64>().write(0);
        drop(Box::from_raw(std::ptr::slice_from_raw_parts_mut(p.cast::<u64>(), kind.words)));
    }
    Ok(())
}

/// The cuBLASLt release reported (`cublasLtGetVersion`), the same as libcublas's.
const VERSION: usize = 130100;

export! {
    fn cublasLtCreate(out: *mut Ptr) {
        if out.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("cublasLtCreate: NULL handle pointer")));
        }
        cpu_blas::openblas().map_err(|e| fail(NOT_INITIALIZED, format_args!("cublasLtCreate: {e}")))?;
        // SAFETY: non-NULL, per the API writable.
        unsafe { out.write(handle::create() as Ptr) };
        Ok(())
    }
    fn cublasLtDestroy(h: Ptr) {
        handle::destroy(h as usize)
    }
    /// `cublasLtGetProperty(libraryPropertyType, int*)`.
    fn cublasLtGetProperty(kind: c_int, value: *mut c_int) {
        let v = [VERSION / 10000, VERSION / 100 % 100, VERSION % 100].get(kind as usize).copied();
        match (v, value.is_null()) {
            // SAFETY: non-NULL, per the API writable.
            (Some(v), false) => unsafe { value.write(v as c_int) },
            _ => return Err(fail(INVALID_VALUE, format_args!("cublasLtGetProperty: {kind}"))),
        }
        Ok(())
    }
    fn cublasLtMatmulDescCreate(out: *mut Ptr, compute: c_int, scale: c_int) {
        // SAFETY: per the API.
        let mem = unsafe { create(&MATMUL_DESC, out) }?;
        // SAFETY: just created.
        let w = unsafe { MATMUL_DESC.words(mem) }?;
        MATMUL_DESC.put(w, 0, compute as u64);
        MATMUL_DESC.put(w, 1, scale as u64);
        Ok(())
    }
    fn cublasLtMatmulDescInit_internal(desc: Ptr, size: usize, compute: c_int, scale: c_int) {
        // SAFETY: the caller's `size` bytes.
        unsafe { MATMUL_DESC.init(desc.cast(), size) }?;
        // SAFETY: just initialized.
        let w = unsafe { MATMUL_DESC.words(desc.cast()) }?;
        MATMUL_DESC.put(w, 0, compute as u64);
        MATMUL_DESC.put(w, 1, scale as u64);
        Ok(())
    }
    fn cublasLtMatmulDescDestroy(desc: Ptr) {
        // SAFETY: per the API.
        unsafe { destroy(&MATMUL_DESC, desc) }
    }
    fn cublasLtMatmulDescSetAttribute(desc: Ptr, attr: c_int, buf: *const c_void, size: usize) {
        // SAFETY: per the API.
        unsafe { MATMUL_DESC.set(desc.cast(), attr as u32, buf.cast(), size) }
    }
    fn cublasLtMatmulDescGetAttribute(desc: Ptr, attr: c_int, buf: *mut c_void, size: usize, written: *mut usize) {
        // SAFETY: per the API.
        unsafe { MATMUL_DESC.get(desc.cast(), attr as u32, buf.cast(), size, written) }
    }
    fn cublasLtMatrixLayoutCreate(out: *mut Ptr, dtype: c_int, rows: u64, cols: u64, ld: i64) {
        // SAFETY: per the API.
        let mem = unsafe { create(&MATRIX_LAYOUT, out) }?;
        // SAFETY: just created.
        set_layout(unsafe { MATRIX_LAYOUT.words(mem) }?, dtype, rows, cols, ld);
        Ok(())
    }
    fn cublasLtMatrixLayoutInit_internal(layout: Ptr, size: usize, dtype: c_int, rows: u64, cols: u64, ld: i64) {
        // SAFETY: the caller's `size` bytes.
        unsafe { MATRIX_LAYOUT.init(layout.cast(), size) }?;
        // SAFETY: just initialized.
        set_layout(unsafe { MATRIX_LAYOUT.words(layout.cast()) }?, dtype, rows, cols, ld);
        Ok(())
    }
    fn cublasLtMatrixLayoutDestroy(layout: Ptr) {
        // SAFETY: per the API.
        unsafe { destroy(&MATRIX_LAYOUT, layout) }
    }
    fn cublasLtMatrixLayoutSetAttribute(layout: Ptr, attr: c_int, buf: *const c_void, size: usize) {
        // SAFETY: per the API.
        unsafe { MATRIX_LAYOUT.set(layout.cast(), attr as u32, buf.cast(), size) }
    }
    fn cublasLtMatrixLayoutGetAttribute(layout: Ptr, attr: c_int, buf: *mut c_void, size: usize, written: *mut usize) {
        // SAFETY: per the API.
        unsafe { MATRIX_LAYOUT.get(layout.cast(), attr as u32, buf.cast(), size, written) }
    }
    fn cublasLtMatmulPreferenceCreate(out: *mut Ptr) {
        // SAFETY: per the API.
        unsafe { create(&PREFERENCE, out) }.map(|_| ())
    }
    fn cublasLtMatmulPreferenceInit_internal(pref: Ptr, size: usize) {
        // SAFETY: the caller's `size` bytes.
        unsafe { PREFERENCE.init(pref.cast(), size) }
    }
    fn cublasLtMatmulPreferenceDestroy(pref: Ptr) {
        // SAFETY: per the API.
        unsafe { destroy(&PREFERENCE, pref) }
    }
    fn cublasLtMatmulPreferenceSetAttribute(pref: Ptr, attr: c_int, buf: *const c_void, size: usize) {
        // SAFETY: per the API.
        unsafe { PREFERENCE.set(pref.cast(), attr as u32, buf.cast(), size) }
    }
    fn cublasLtMatmulPreferenceGetAttribute(pref: Ptr, attr: c_int, buf: *mut c_void, size: usize, written: *mut usize) {
        // SAFETY: per the API.
        unsafe { PREFERENCE.get(pref.cast(), attr as u32, buf.cast(), size, written) }
    }
    /// `cublasLtMatmulAlgoGetHeuristic(...)`: one algorithm, needing no workspace, for any
    /// problem `cublasLtMatmul` takes (there is one implementation here).
    fn cublasLtMatmulAlgoGetHeuristic(h: Ptr, desc: Ptr, a: Ptr, b: Ptr, c: Ptr, d: Ptr, pref: Ptr, requested: c_int, results: *mut HeuristicResult, returned: *mut c_int) {
        handle::state(h as usize)?;
        if requested <= 0 || results.is_null() || returned.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("cublasLtMatmulAlgoGetHeuristic: requestedAlgoCount={requested}, NULL outputs")));
        }
        // SAFETY: per the API.
        unsafe {
            PREFERENCE.words(pref.cast())?;
            matmul::check(desc.cast(), [a.cast(), b.cast(), c.cast(), d.cast()])?;
            results.write(HeuristicResult { algo: [ALGO_MARKER, 0, 0, 0, 0, 0, 0, 0], workspace_size: 0, state: 0, waves_count: 1.0, reserved: [0; 4] });
            returned.write(1);
        }
        Ok(())
    }
    /// `cublasLtMatmul(handle, desc, alpha, A, Adesc, B, Bdesc, beta, C, Cdesc, D, Ddesc,
    /// algo, workspace, workspaceSize, stream)`.
    fn cublasLtMatmul(h: Ptr, desc: Ptr, alpha: *const c_void, a: *const c_void, ad: Ptr, b: *const c_void, bd: Ptr, beta: *const c_void, c: *const c_void, cd: Ptr, d: *mut c_void, dd: Ptr, _algo: *const c_void, _workspace: *mut c_void, _workspace_bytes: usize, stream: Ptr) {
        let x = Operands {
            alpha: alpha.cast(),
            beta: beta.cast(),
            a: (a as u64, ad.cast()),
            b: (b as u64, bd.cast()),
            c: (c as u64, cd.cast()),
            d: (d as u64, dd.cast()),
            stream: stream as usize,
        };
        // SAFETY: per the API.
        unsafe { matmul::matmul(h as usize, desc.cast(), x) }
    }
}

/// `cublasLtMatmulHeuristicResult_t`.
#[repr(C)]
pub struct HeuristicResult {
    pub algo: [u64; 8],
    pub workspace_size: usize,
    pub state: c_int,
    pub waves_count: f32,
    pub reserved: [c_int; 4],
}

/// Word 0 of the one algorithm this library reports.
const ALGO_MARKER: u64 = 0x414c_474f_4f4e_4531; // "ALGOONE1"

fn set_layout(w: &mut [u64], dtype: c_int, rows: u64, cols: u64, ld: i64) {
    MATRIX_LAYOUT.put(w, 0, dtype as u64);
    MATRIX_LAYOUT.put(w, 2, rows);
    MATRIX_LAYOUT.put(w, 3, cols);
    MATRIX_LAYOUT.put(w, 4, ld as u64);
}

/// `size_t cublasLtGetVersion(void)`.
#[no_mangle]
pub extern "C" fn cublasLtGetVersion() -> usize {
    VERSION
}

/// `size_t cublasLtGetCudartVersion(void)`.
#[no_mangle]
pub extern "C" fn cublasLtGetCudartVersion() -> usize {
    13000
}

/// `const char* cublasLtGetStatusName(cublasStatus_t)`.
#[no_mangle]
pub extern "C" fn cublasLtGetStatusName(s: status::Status) -> *const c_char {
    status::name(s).as_ptr().cast()
}

/// `const char* cublasLtGetStatusString(cublasStatus_t)`.
#[no_mangle]
pub extern "C" fn cublasLtGetStatusString(s: status::Status) -> *const c_char {
    status::description(s).as_ptr().cast()
}

/// cuBLASLt entry points that are not implemented: `CUBLAS_STATUS_NOT_SUPPORTED` and a
/// log line, whatever the arguments (which are not read).
macro_rules! unsupported {
    ($($name:ident)*) => {$(
        /// Not implemented: `CUBLAS_STATUS_NOT_SUPPORTED`.
        #[no_mangle]
        pub extern "C" fn $name() -> status::Status {
            fail(NOT_SUPPORTED, format_args!(concat!(stringify!($name), " is not implemented")))
        }
    )*};
}

unsupported! {
    cublasLtMatrixTransform cublasLtMatrixTransformDescCreate cublasLtMatrixTransformDescDestroy
    cublasLtMatrixTransformDescSetAttribute cublasLtMatrixTransformDescGetAttribute
    cublasLtMatmulAlgoGetIds cublasLtMatmulAlgoInit cublasLtMatmulAlgoCheck cublasLtMatmulAlgoCapGetAttribute
    cublasLtMatmulAlgoConfigSetAttribute cublasLtMatmulAlgoConfigGetAttribute
    cublasLtLoggerSetCallback cublasLtLoggerSetFile cublasLtLoggerOpenFile cublasLtLoggerSetLevel cublasLtLoggerSetMask cublasLtLoggerForceDisable
}
