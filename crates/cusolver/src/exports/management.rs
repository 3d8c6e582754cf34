//! Handles, streams, versions and parameter objects.

use std::ffi::{c_int, c_void};

use super::{export, Handle};
use crate::handle::{self, Object};
use crate::status::{fail, SolverResult, INVALID_VALUE, NOT_INITIALIZED, NOT_SUPPORTED};

/// The cuSOLVER release this library implements the API of (CUDA 13.0's, 12.0.4).
pub const VERSION: (c_int, c_int, c_int) = (12, 0, 4);

/// # Safety
/// A non-NULL `p` is writable.
unsafe fn out<T>(p: *mut T, v: T) -> SolverResult {
    if p.is_null() {
        return Err(fail(INVALID_VALUE, format_args!("NULL output pointer")));
    }
    // SAFETY: per the contract.
    unsafe { p.write(v) };
    Ok(())
}

fn is_dense(o: &Object) -> bool {
    matches!(o, Object::Dense { .. })
}
fn is_sparse(o: &Object) -> bool {
    matches!(o, Object::Sparse { .. })
}
fn is_params(o: &Object) -> bool {
    matches!(o, Object::Params)
}
fn is_jacobi(o: &Object) -> bool {
    matches!(o, Object::Jacobi { .. })
}

const JACOBI_DEFAULT: Object = Object::Jacobi { tolerance: 0.0, max_sweeps: 100, sort: true };

export! {
    /// `cusolverDnCreate(cusolverDnHandle_t*)`: fails when OpenBLAS or libcuda is missing.
    fn cusolverDnCreate(h: *mut Handle) {
        cpu_blas::openblas().map_err(|e| fail(NOT_INITIALIZED, format_args!("cusolverDnCreate: {e}")))?;
        libcuda_client::driver().map_err(|e| fail(NOT_INITIALIZED, format_args!("cusolverDnCreate: {e}")))?;
        // SAFETY: per the API.
        unsafe { out(h, handle::create(Object::Dense { stream: 0 }) as Handle) }
    }
    fn cusolverDnDestroy(h: Handle) {
        handle::destroy(h as usize, is_dense)
    }
    fn cusolverDnSetStream(h: Handle, stream: *mut c_void) {
        handle::update(h as usize, |o| match o {
            Object::Dense { stream: s } => {
                *s = stream as usize;
                Ok(())
            }
            _ => Err(NOT_INITIALIZED),
        })
    }
    fn cusolverDnGetStream(h: Handle, stream: *mut *mut c_void) {
        let s = handle::dense_stream(h as usize)?;
        // SAFETY: per the API.
        unsafe { out(stream, s as *mut c_void) }
    }
    /// `cusolverSpCreate`: sparse handles exist; the sparse solvers are not implemented.
    fn cusolverSpCreate(h: *mut Handle) {
        // SAFETY: per the API.
        unsafe { out(h, handle::create(Object::Sparse { stream: 0 }) as Handle) }
    }
    fn cusolverSpDestroy(h: Handle) {
        handle::destroy(h as usize, is_sparse)
    }
    fn cusolverSpSetStream(h: Handle, stream: *mut c_void) {
        handle::update(h as usize, |o| match o {
            Object::Sparse { stream: s } => {
                *s = stream as usize;
                Ok(())
            }
            _ => Err(NOT_INITIALIZED),
        })
    }
    fn cusolverSpGetStream(h: Handle, stream: *mut *mut c_void) {
        match handle::get(h as usize)? {
            // SAFETY: per the API.
            Object::Sparse { stream: s } => unsafe { out(stream, s as *mut c_void) },
            _ => Err(NOT_INITIALIZED),
        }
    }
    /// `cusolverGetProperty(libraryPropertyType, int*)`.
    fn cusolverGetProperty(kind: c_int, value: *mut c_int) {
        let v = match kind {
            0 => VERSION.0,
            1 => VERSION.1,
            2 => VERSION.2,
            _ => return Err(fail(INVALID_VALUE, format_args!("cusolverGetProperty: libraryPropertyType {kind}"))),
        };
        // SAFETY: per the API.
        unsafe { out(value, v) }
    }
    /// `cusolverGetVersion(int*)`: `major * 1000 + minor * 100 + patch`.
    fn cusolverGetVersion(version: *mut c_int) {
        // SAFETY: per the API.
        unsafe { out(version, VERSION.0 * 1000 + VERSION.1 * 100 + VERSION.2) }
    }
    fn cusolverDnCreateParams(p: *mut Handle) {
        // SAFETY: per the API.
        unsafe { out(p, handle::create(Object::Params) as Handle) }
    }
    fn cusolverDnDestroyParams(p: Handle) {
        handle::destroy(p as usize, is_params)
    }
    fn cusolverDnCreateSyevjInfo(p: *mut Handle) {
        // SAFETY: per the API.
        unsafe { out(p, handle::create(JACOBI_DEFAULT) as Handle) }
    }
    fn cusolverDnDestroySyevjInfo(p: Handle) {
        handle::destroy(p as usize, is_jacobi)
    }
    fn cusolverDnCreateGesvdjInfo(p: *mut Handle) {
        // SAFETY: per the API.
        unsafe { out(p, handle::create(JACOBI_DEFAULT) as Handle) }
    }
    fn cusolverDnDestroyGesvdjInfo(p: Handle) {
        handle::destroy(p as usize, is_jacobi)
    }
    fn cusolverDnXsyevjSetTolerance(p: Handle, tolerance: f64) {
        set_jacobi(p, |t, _, _| *t = tolerance)
    }
    fn cusolverDnXsyevjSetMaxSweeps(p: Handle, sweeps: c_int) {
        set_jacobi(p, |_, s, _| *s = sweeps)
    }
    fn cusolverDnXsyevjSetSortEig(p: Handle, sort: c_int) {
        set_jacobi(p, |_, _, o| *o = sort != 0)
    }
    fn cusolverDnXgesvdjSetTolerance(p: Handle, tolerance: f64) {
        set_jacobi(p, |t, _, _| *t = tolerance)
    }
    fn cusolverDnXgesvdjSetMaxSweeps(p: Handle, sweeps: c_int) {
        set_jacobi(p, |_, s, _| *s = sweeps)
    }
    fn cusolverDnXgesvdjSetSortEig(p: Handle, sort: c_int) {
        set_jacobi(p, |_, _, o| *o = sort != 0)
    }
    /// The Jacobi solvers' residual and sweep count describe Jacobi iterations, which
    /// this library does not run (it uses LAPACK's direct drivers).
    fn cusolverDnXsyevjGetResidual(_h: Handle, _p: Handle, _residual: *mut f64) {
        Err(fail(NOT_SUPPORTED, format_args!("cusolverDnXsyevjGetResidual: no Jacobi sweeps are run")))
    }
    fn cusolverDnXsyevjGetSweeps(_h: Handle, _p: Handle, _sweeps: *mut c_int) {
        Err(fail(NOT_SUPPORTED, format_args!("cusolverDnXsyevjGetSweeps: no Jacobi sweeps are run")))
    }
    fn cusolverDnXgesvdjGetResidual(_h: Handle, _p: Handle, _residual: *mut f64) {
        Err(fail(NOT_SUPPORTED, format_args!("cusolverDnXgesvdjGetResidual: no Jacobi sweeps are run")))
    }
    fn cusolverDnXgesvdjGetSweeps(_h: Handle, _p: Handle, _sweeps: *mut c_int) {
        Err(fail(NOT_SUPPORTED, format_args!("cusolverDnXgesvdjGetSweeps: no Jacobi sweeps are run")))
    }
}

fn set_jacobi(p: Handle, change: impl FnOnce(&mut f64, &mut i32, &mut bool)) -> SolverResult {
    handle::update(p as usize, |o| match o {
        Object::Jacobi { tolerance, max_sweeps, sort } => {
            change(tolerance, max_sweeps, sort);
            Ok(())
        }
        _ => Err(fail(INVALID_VALUE, format_args!("not a syevjInfo_t/gesvdjInfo_t"))),
    })
}
