//! Handles, streams, pointer modes, versions, error strings, legacy matrix descriptors
//! and the preconditioners' info objects.

use std::ffi::{c_char, c_int, c_void};

use super::{export, out, Handle};
use crate::objects::{self, kind, MatDescr, Object};
use crate::status::{self, fail, SparseResult, INVALID_VALUE, NOT_INITIALIZED};

/// The cuSPARSE release whose API this library implements (`CUSPARSE_VERSION` 12600).
pub const VERSION: (c_int, c_int, c_int) = (12, 6, 0);

export! {
    /// `cusparseCreate`: fails when libcuda cannot be opened.
    fn cusparseCreate(h: *mut Handle) {
        libcuda_client::driver().map_err(|e| fail(NOT_INITIALIZED, format_args!("cusparseCreate: {e}")))?;
        // SAFETY: per the API.
        unsafe { out(h, objects::create(Object::Handle { stream: 0, device_pointers: false }) as Handle) }
    }
    fn cusparseDestroy(h: Handle) {
        objects::destroy(h as usize, kind::handle, "cusparseHandle_t")
    }
    fn cusparseSetStream(h: Handle, stream: *mut c_void) {
        objects::update(h as usize, "cusparseHandle_t", |o| match o {
            Object::Handle { stream: s, .. } => {
                *s = stream as usize;
                Some(Ok(()))
            }
            _ => None,
        })
    }
    fn cusparseGetStream(h: Handle, stream: *mut *mut c_void) {
        let (s, _) = objects::handle(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(stream, s as *mut c_void) }
    }
    /// `cusparseSetPointerMode`: 0 host, 1 device.
    fn cusparseSetPointerMode(h: Handle, mode: c_int) {
        if !(0..=1).contains(&mode) {
            return Err(fail(INVALID_VALUE, format_args!("cusparseSetPointerMode: invalid cusparsePointerMode_t {mode}")));
        }
        objects::update(h as usize, "cusparseHandle_t", |o| match o {
            Object::Handle { device_pointers, .. } => {
                *device_pointers = mode == 1;
                Some(Ok(()))
            }
            _ => None,
        })
    }
    fn cusparseGetPointerMode(h: Handle, mode: *mut c_int) {
        let (_, device) = objects::handle(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(mode, device as c_int) }
    }
    /// `cusparseGetVersion(handle, int*)`: `major * 1000 + minor * 100 + patch`.
    fn cusparseGetVersion(h: Handle, version: *mut c_int) {
        objects::handle(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(version, VERSION.0 * 1000 + VERSION.1 * 100 + VERSION.2) }
    }
    /// `cusparseGetProperty(libraryPropertyType, int*)`.
    fn cusparseGetProperty(kind: c_int, value: *mut c_int) {
        let v = match kind {
            0 => VERSION.0,
            1 => VERSION.1,
            2 => VERSION.2,
            _ => return Err(fail(INVALID_VALUE, format_args!("cusparseGetProperty: libraryPropertyType {kind}"))),
        };
        // SAFETY: per the API.
        unsafe { out(value, v) }
    }
    fn cusparseCreateMatDescr(d: *mut Handle) {
        let descr = MatDescr { kind: 0, fill: 0, diag: 0, base: 0 };
        // SAFETY: per the API.
        unsafe { out(d, objects::create(Object::MatDescr(descr)) as Handle) }
    }
    fn cusparseDestroyMatDescr(d: Handle) {
        objects::destroy(d as usize, kind::mat_descr, "cusparseMatDescr_t")
    }
    /// `cusparseSetMatType`: GENERAL, SYMMETRIC, HERMITIAN, TRIANGULAR (0..=3).
    fn cusparseSetMatType(d: Handle, v: c_int) {
        set_descr(d, "cusparseMatrixType_t", v, 3, |m| &mut m.kind)
    }
    fn cusparseSetMatFillMode(d: Handle, v: c_int) {
        set_descr(d, "cusparseFillMode_t", v, 1, |m| &mut m.fill)
    }
    fn cusparseSetMatDiagType(d: Handle, v: c_int) {
        set_descr(d, "cusparseDiagType_t", v, 1, |m| &mut m.diag)
    }
    fn cusparseSetMatIndexBase(d: Handle, v: c_int) {
        set_descr(d, "cusparseIndexBase_t", v, 1, |m| &mut m.base)
    }
}

fn set_descr(d: Handle, what: &str, v: c_int, max: c_int, field: fn(&mut MatDescr) -> &mut i32) -> SparseResult {
    if !(0..=max).contains(&v) {
        return Err(fail(INVALID_VALUE, format_args!("invalid {what} {v}")));
    }
    objects::update(d as usize, "cusparseMatDescr_t", |o| match o {
        Object::MatDescr(m) => {
            *field(m) = v;
            Some(Ok(()))
        }
        _ => None,
    })
}

/// The descriptor's field, or `default` for an invalid descriptor (these getters return
/// the value itself, with no status).
fn get_descr(d: Handle, field: fn(&MatDescr) -> i32) -> c_int {
    objects::mat_descr(d as usize).map_or(0, |m| field(&m))
}

/// `cusparseGetMatType` (no status: the value itself).
#[no_mangle]
pub extern "C" fn cusparseGetMatType(d: Handle) -> c_int {
    get_descr(d, |m| m.kind)
}
#[no_mangle]
pub extern "C" fn cusparseGetMatFillMode(d: Handle) -> c_int {
    get_descr(d, |m| m.fill)
}
#[no_mangle]
pub extern "C" fn cusparseGetMatDiagType(d: Handle) -> c_int {
    get_descr(d, |m| m.diag)
}
#[no_mangle]
pub extern "C" fn cusparseGetMatIndexBase(d: Handle) -> c_int {
    get_descr(d, |m| m.base)
}

/// `cusparseGetErrorName`.
#[no_mangle]
pub extern "C" fn cusparseGetErrorName(s: status::Status) -> *const c_char {
    status::name(s)
}

/// `cusparseGetErrorString`.
#[no_mangle]
pub extern "C" fn cusparseGetErrorString(s: status::Status) -> *const c_char {
    status::description(s)
}

/// `cusparseCreate<Kind>Info` / `cusparseDestroy<Kind>Info` pairs: the objects exist
/// (clients create them up front), their analyses and factorizations are not implemented.
macro_rules! info_objects {
    ($($create:ident $destroy:ident $what:literal;)*) => {
        export! {$(
            fn $create(p: *mut Handle) {
                // SAFETY: per the API.
                unsafe { out(p, objects::create(Object::Info($what)) as Handle) }
            }
            fn $destroy(p: Handle) {
                objects::destroy(p as usize, kind::info, $what)
            }
        )*}
    };
}

info_objects! {
    cusparseCreateCsrilu02Info cusparseDestroyCsrilu02Info "csrilu02Info_t";
    cusparseCreateBsrilu02Info cusparseDestroyBsrilu02Info "bsrilu02Info_t";
    cusparseCreateCsric02Info cusparseDestroyCsric02Info "csric02Info_t";
    cusparseCreateBsric02Info cusparseDestroyBsric02Info "bsric02Info_t";
}
