//! The typed level-1 extensions: `cublasAxpyEx`, `cublasScalEx`, `cublasDotEx`,
//! `cublasDotcEx`, `cublasNrm2Ex`, `cublasRotEx`. Each element is read in its storage
//! type, the arithmetic runs in double precision (at least the execution type's), and
//! results are rounded to their storage type. Vectors follow BLAS order (a negative
//! increment starts from the far end).

use super::gemm_ex::{RawScalar, Storage};
use super::{ensure, Call};
use crate::operand::{vector_elems, view, Host, ResultSlot};
use crate::status::{fail, BlasResult, INVALID_VALUE, NOT_SUPPORTED};
use crate::types::data_type as dt;

/// Storage types the extensions take (half, bfloat16, single, double, their complexes).
fn storage(name: &str, v: i32) -> BlasResult<Storage> {
    match v {
        dt::R_16F | dt::R_16BF | dt::R_32F | dt::R_64F | dt::C_32F | dt::C_64F => Ok(Storage::from_c(v).expect("listed")),
        _ => Err(fail(NOT_SUPPORTED, format_args!("{name}: cudaDataType {v} is not supported here"))),
    }
}

/// Checks the execution type: single or double, real or complex.
fn execution(name: &str, v: i32) -> BlasResult {
    ensure!(matches!(v, dt::R_32F | dt::R_64F | dt::C_32F | dt::C_64F), "{name}: executionType {v}");
    Ok(())
}

/// A strided vector of some storage type.
#[derive(Clone, Copy)]
struct Vector {
    base: Host,
    storage: Storage,
    n: i32,
    inc: i32,
}

impl Vector {
    fn new(call: &Call, p: *const u8, storage: Storage, n: i32, inc: i32, what: &str) -> BlasResult<Vector> {
        let base = view::<u8>(p as u64, vector_elems(n, inc) * storage.size(), &format!("{}: {what}", call.name))?;
        Ok(Vector { base, storage, n, inc })
    }

    /// The address of element `k` in BLAS order.
    fn at(&self, k: usize) -> *mut u8 {
        let idx = if self.inc >= 0 { k * self.inc as usize } else { (self.n as usize - 1 - k) * self.inc.unsigned_abs() as usize };
        // SAFETY: idx < the checked extent.
        unsafe { self.base.ptr::<u8>().add(idx * self.storage.size()) }
    }

    fn get(&self, k: usize) -> (f64, f64) {
        // SAFETY: an element inside the checked extent.
        unsafe { self.storage.load(self.at(k)) }
    }

    fn set(&self, k: usize, v: (f64, f64)) {
        // SAFETY: as above.
        unsafe { self.storage.store(self.at(k), v) }
    }
}

fn mul((a, b): (f64, f64), (c, d): (f64, f64)) -> (f64, f64) {
    (a * c - b * d, a * d + b * c)
}

/// `y += alpha x` (`AxpyEx`) or `x *= alpha` (`ScalEx`, `y` absent).
///
/// # Safety
/// A host-mode `alpha` points at one scalar of `alpha_type`.
#[allow(clippy::too_many_arguments, reason = "cublasAxpyEx's parameters")]
pub unsafe fn axpy_scal(
    call: Call,
    n: i32,
    alpha: *const u8,
    alpha_type: i32,
    x: (*mut u8, i32, i32),
    y: Option<(*mut u8, i32, i32)>,
    exec: i32,
) -> BlasResult {
    execution(call.name, exec)?;
    let at = storage(call.name, alpha_type)?;
    let xt = storage(call.name, x.1)?;
    // SAFETY: forwarded.
    let alpha = unsafe { RawScalar::new(&call, alpha, at, "alpha") }?;
    if n <= 0 || (y.is_none() && x.2 <= 0) {
        return Ok(());
    }
    let vx = Vector::new(&call, x.0, xt, n, x.2, "x")?;
    let vy = match y {
        Some((p, t, inc)) => {
            combination(call.name, storage(call.name, t)? == xt)?;
            Some(Vector::new(&call, p, xt, n, inc, "y")?)
        }
        None => None,
    };
    call.queue(move |_| {
        let a = alpha.get();
        for k in 0..n as usize {
            match vy {
                Some(vy) => {
                    let (p, q) = (mul(a, vx.get(k)), vy.get(k));
                    vy.set(k, (p.0 + q.0, p.1 + q.1));
                }
                None => vx.set(k, mul(a, vx.get(k))),
            }
        }
    })
}

/// The real type of a storage (a complex one's parts).
fn real_of(s: Storage) -> Storage {
    match s {
        Storage::C32 => Storage::F32,
        Storage::C64 => Storage::F64,
        other => other,
    }
}

/// `NOT_SUPPORTED` unless `ok`: cuBLAS documents the type combinations each extension
/// takes (the vectors and the result share one type; `Nrm2Ex`'s result is real).
fn combination(name: &str, ok: bool) -> BlasResult {
    if ok {
        Ok(())
    } else {
        Err(fail(NOT_SUPPORTED, format_args!("{name}: this combination of types is not one cuBLAS takes")))
    }
}

/// `DotEx` / `DotcEx` (`conjugate`): the result in `result_type`, per the pointer mode.
///
/// # Safety
/// A host-mode `result` is writable.
#[allow(clippy::too_many_arguments, reason = "cublasDotEx's parameters")]
pub unsafe fn dot(
    call: Call,
    conjugate: bool,
    n: i32,
    x: (*const u8, i32, i32),
    y: (*const u8, i32, i32),
    result: *mut u8,
    result_type: i32,
    exec: i32,
) -> BlasResult {
    execution(call.name, exec)?;
    let (xt, yt, rt) = (storage(call.name, x.1)?, storage(call.name, y.1)?, storage(call.name, result_type)?);
    combination(call.name, xt == yt && yt == rt)?;
    // SAFETY: forwarded.
    let slot = unsafe { ResultSlot::new(call.state.pointer_mode, result, &format!("{}: result", call.name)) }?;
    let views = if n > 0 { Some((Vector::new(&call, x.0, xt, n, x.2, "x")?, Vector::new(&call, y.0, yt, n, y.2, "y")?)) } else { None };
    store_result(call, slot, rt, move || {
        let mut sum = (0.0, 0.0);
        if let Some((vx, vy)) = views {
            for k in 0..n as usize {
                let (a, b) = vx.get(k);
                let p = mul(if conjugate { (a, -b) } else { (a, b) }, vy.get(k));
                sum = (sum.0 + p.0, sum.1 + p.1);
            }
        }
        sum
    })
}

/// `Nrm2Ex`: the Euclidean norm (scaled to avoid overflow), stored in `result_type`.
///
/// # Safety
/// A host-mode `result` is writable.
pub unsafe fn nrm2(call: Call, n: i32, x: (*const u8, i32, i32), result: *mut u8, result_type: i32, exec: i32) -> BlasResult {
    execution(call.name, exec)?;
    let (xt, rt) = (storage(call.name, x.1)?, storage(call.name, result_type)?);
    combination(call.name, rt == real_of(xt))?;
    // SAFETY: forwarded.
    let slot = unsafe { ResultSlot::new(call.state.pointer_mode, result, &format!("{}: result", call.name)) }?;
    let vx = if n > 0 && x.2 > 0 { Some(Vector::new(&call, x.0, xt, n, x.2, "x")?) } else { None };
    store_result(call, slot, rt, move || {
        let Some(vx) = vx else { return (0.0, 0.0) };
        let scale = (0..n as usize).map(|k| vx.get(k)).fold(0f64, |m, (a, b)| m.max(a.abs()).max(b.abs()));
        if scale == 0.0 || !scale.is_finite() {
            return (scale, 0.0);
        }
        let sum: f64 = (0..n as usize).map(|k| vx.get(k)).map(|(a, b)| (a / scale).powi(2) + (b / scale).powi(2)).sum();
        (scale * sum.sqrt(), 0.0)
    })
}

/// `RotEx`: `x, y = c x + s y, c y - conj(s) x` with `c` real and `s` of `cs_type`.
///
/// # Safety
/// Host-mode `c` and `s` point at scalars of `cs_type`'s real type and of `cs_type`.
#[allow(clippy::too_many_arguments, reason = "cublasRotEx's parameters")]
pub unsafe fn rot(
    call: Call,
    n: i32,
    x: (*mut u8, i32, i32),
    y: (*mut u8, i32, i32),
    c: *const u8,
    s: *const u8,
    cs_type: i32,
    exec: i32,
) -> BlasResult {
    execution(call.name, exec)?;
    let st = storage(call.name, cs_type)?;
    let ct = real_of(st);
    // SAFETY: forwarded.
    let (c, s) = unsafe { (RawScalar::new(&call, c, ct, "c")?, RawScalar::new(&call, s, st, "s")?) };
    if n <= 0 {
        return Ok(());
    }
    let (vx, vy) = (Vector::new(&call, x.0, storage(call.name, x.1)?, n, x.2, "x")?, Vector::new(&call, y.0, storage(call.name, y.1)?, n, y.2, "y")?);
    call.queue(move |_| {
        let (c, s) = (c.get().0, s.get());
        for k in 0..n as usize {
            let (a, b) = (vx.get(k), vy.get(k));
            let sb = mul(s, b);
            let sa = mul((s.0, -s.1), a);
            vx.set(k, (c * a.0 + sb.0, c * a.1 + sb.1));
            vy.set(k, (c * b.0 - sa.0, c * b.1 - sa.1));
        }
    })
}

/// Queues `value` and stores it in `storage` at `slot`; waits for host results.
fn store_result(call: Call, slot: ResultSlot, storage: Storage, value: impl FnOnce() -> (f64, f64) + Send + 'static) -> BlasResult {
    let (ResultSlot::Host(h) | ResultSlot::Device(h)) = slot;
    call.queue(move |_| {
        let v = value();
        // SAFETY: the slot holds one result of `storage` (host: the caller's; device: checked).
        unsafe { storage.store(h.ptr(), v) }
    })?;
    if slot.is_host() {
        call.wait()?;
    }
    Ok(())
}

/// `INVALID_VALUE` unless a pointer is non-NULL (for the exports' vector arguments).
pub fn non_null(name: &str, p: *const u8, what: &str) -> BlasResult {
    if p.is_null() {
        return Err(fail(INVALID_VALUE, format_args!("{name}: {what} is NULL")));
    }
    Ok(())
}
