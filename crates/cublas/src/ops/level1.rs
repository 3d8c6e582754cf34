//! Level 1: vector operations (`axpy`, `scal`, `copy`, `swap`, `rot`, `dot`, `nrm2`,
//! `asum`, `iamax`, `iamin`). As in the reference BLAS, `n <= 0` does nothing, and a
//! reduction with nothing to reduce (`n <= 0`; `incx <= 0` for `nrm2`/`asum`/`iamax`/
//! `iamin`) stores 0, as NVIDIA's cuBLAS does (checked on an H200). `iamax`/`iamin` give
//! 1-based indices.

use super::{Call, Elem};
use crate::operand::{Host, ResultSlot, Scalar};
use crate::status::BlasResult;

/// `y += alpha * x`.
///
/// # Safety
/// Host-mode scalars must be readable.
pub unsafe fn axpy<T: Elem>(call: Call, n: i32, alpha: *const T, x: *const T, incx: i32, y: *mut T, incy: i32) -> BlasResult {
    // SAFETY: forwarded.
    let alpha = unsafe { call.scalar(alpha, "alpha") }?;
    if n <= 0 {
        return Ok(());
    }
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    call.queue(move |b| {
        let a = alpha.get();
        // SAFETY: both extents were checked.
        unsafe { (T::routines(b).axpy)(&n, (&a as *const T).cast(), hx.ptr(), &incx, hy.ptr(), &incy) }
    })
}

/// `x *= alpha`; `S` is `T` or, for `csscal`/`zdscal`, `T::Real`.
///
/// # Safety
/// Host-mode scalars must be readable.
pub unsafe fn scal<T: Elem, S: Copy + Send + 'static>(call: Call, n: i32, alpha: *const S, x: *mut T, incx: i32) -> BlasResult {
    // SAFETY: forwarded.
    let alpha: Scalar<S> = unsafe { call.scalar(alpha, "alpha") }?;
    if n <= 0 || incx <= 0 {
        return Ok(());
    }
    let real = size_of::<S>() != size_of::<T>();
    let hx = call.vector(x, n, incx, "x")?;
    call.queue(move |b| {
        let a = alpha.get();
        let r = T::routines(b);
        let f = if real { r.real_scal.expect("complex types have real_scal") } else { r.scal };
        // SAFETY: the extent was checked; `a` has the routine's scalar type.
        unsafe { f(&n, (&a as *const S).cast(), hx.ptr(), &incx) }
    })
}

/// `y = x` (`swap`: exchange).
pub fn copy_or_swap<T: Elem>(call: Call, swap: bool, n: i32, x: *mut T, incx: i32, y: *mut T, incy: i32) -> BlasResult {
    if n <= 0 {
        return Ok(());
    }
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    call.queue(move |b| {
        let r = T::routines(b);
        // SAFETY: both extents were checked.
        unsafe {
            if swap {
                (r.swap)(&n, hx.ptr(), &incx, hy.ptr(), &incy)
            } else {
                (r.copy)(&n, hx.ptr(), &incx, hy.ptr(), &incy)
            }
        }
    })
}

/// Plane rotation with real `c` and `s` (`srot`, `drot`, `csrot`, `zdrot`).
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "the BLAS routine's parameters")]
pub unsafe fn rot<T: Elem>(call: Call, n: i32, x: *mut T, incx: i32, y: *mut T, incy: i32, c: *const T::Real, s: *const T::Real) -> BlasResult {
    // SAFETY: forwarded.
    let (c, s) = unsafe { (call.scalar(c, "c")?, call.scalar(s, "s")?) };
    if n <= 0 {
        return Ok(());
    }
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    call.queue(move |b| {
        let (c, s) = (c.get(), s.get());
        // SAFETY: both extents were checked.
        unsafe { (T::routines(b).rot)(&n, hx.ptr(), &incx, hy.ptr(), &incy, (&c as *const T::Real).cast(), (&s as *const T::Real).cast()) }
    })
}

/// Queues a reduction writing one `R`; waits when the result goes to host memory.
fn reduce<R: Copy + Send + 'static>(
    call: Call,
    slot: ResultSlot,
    value: impl FnOnce(&'static cpu_blas::OpenBlas) -> R + Send + 'static,
) -> BlasResult {
    call.queue(move |b| slot.store(value(b)))?;
    if slot.is_host() {
        call.wait()?;
    }
    Ok(())
}

/// `dot`/`dotu` (`conjugate`: `dotc`).
///
/// # Safety
/// A host-mode `result` must be writable.
#[allow(clippy::too_many_arguments, reason = "the BLAS routine's parameters")]
pub unsafe fn dot<T: Elem>(call: Call, conjugate: bool, n: i32, x: *const T, incx: i32, y: *const T, incy: i32, result: *mut T) -> BlasResult {
    // SAFETY: forwarded.
    let slot = unsafe { ResultSlot::new(call.state.pointer_mode, result, &format!("{}: result", call.name)) }?;
    if n <= 0 {
        return reduce(call, slot, |_| T::default());
    }
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    reduce(call, slot, move |b| {
        // SAFETY: both extents were checked.
        unsafe {
            if conjugate {
                T::dotc(b, n, hx.ptr(), incx, hy.ptr(), incy)
            } else {
                T::dotu(b, n, hx.ptr(), incx, hy.ptr(), incy)
            }
        }
    })
}

/// Which one-vector reduction.
#[derive(Clone, Copy, PartialEq, Eq)]
pub enum Norm {
    Nrm2,
    Asum,
}

/// `nrm2` / `asum`.
///
/// # Safety
/// A host-mode `result` must be writable.
pub unsafe fn norm<T: Elem>(call: Call, which: Norm, n: i32, x: *const T, incx: i32, result: *mut T::Real) -> BlasResult {
    // SAFETY: forwarded.
    let slot = unsafe { ResultSlot::new(call.state.pointer_mode, result, &format!("{}: result", call.name)) }?;
    if n <= 0 || incx <= 0 {
        return reduce(call, slot, |_| T::Real::default());
    }
    let hx = call.vector(x, n, incx, "x")?;
    reduce(call, slot, move |b| {
        // SAFETY: the extent was checked.
        unsafe {
            if which == Norm::Nrm2 {
                T::nrm2(b, n, hx.ptr(), incx)
            } else {
                T::asum(b, n, hx.ptr(), incx)
            }
        }
    })
}

/// `iamax` (`max`) / `iamin`: the 1-based index of the first element of largest
/// (smallest) `|re| + |im|`.
///
/// # Safety
/// A host-mode `result` must be writable.
pub unsafe fn iamax<T: Elem>(call: Call, max: bool, n: i32, x: *const T, incx: i32, result: *mut i32) -> BlasResult {
    // SAFETY: forwarded.
    let slot = unsafe { ResultSlot::new(call.state.pointer_mode, result, &format!("{}: result", call.name)) }?;
    if n <= 0 || incx <= 0 {
        return reduce(call, slot, |_| 0i32);
    }
    let hx = call.vector(x, n, incx, "x")?;
    reduce(call, slot, move |b| {
        let f = if max { b.reductions.iamax[T::PREFIX] } else { b.reductions.iamin[T::PREFIX] };
        // SAFETY: the extent was checked.
        unsafe { f(n, hx.ptr::<T>().cast(), incx) as i32 + 1 }
    })
}

/// `rot` for complex vectors with a complex sine (`crot`, `zrot`).
///
/// # Safety
/// Host-mode scalars must be readable.
#[allow(clippy::too_many_arguments, reason = "cublas?rot's parameters")]
pub unsafe fn complex_rot<T: Elem>(call: Call, n: i32, x: *mut T, incx: i32, y: *mut T, incy: i32, c: *const T::Real, s: *const T) -> BlasResult {
    // SAFETY: forwarded.
    let (c, s) = unsafe { (call.scalar(c, "c")?, call.scalar(s, "s")?) };
    if n <= 0 {
        return Ok(());
    }
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    call.queue(move |b| {
        let (c, s) = (c.get(), s.get());
        let f = b.rotations.complex_rot[T::PREFIX - 2];
        // SAFETY: both extents were checked; c is real, s complex, as crot_ takes them.
        unsafe { f(&n, hx.ptr(), &incx, hy.ptr(), &incy, (&c as *const T::Real).cast(), (&s as *const T).cast()) }
    })
}

/// The in/out scalars of `rotg`/`rotmg`: host memory (computed at the call) or device
/// memory (computed in stream order).
fn scalar_slots<const N: usize>(call: &Call, ptrs: [(usize, usize); N]) -> BlasResult<Option<[Host; N]>> {
    match call.state.pointer_mode {
        crate::types::PointerMode::Host => Ok(None),
        crate::types::PointerMode::Device => {
            let mut out = [Host(0); N];
            for (k, (p, size)) in ptrs.into_iter().enumerate() {
                out[k] = crate::operand::view::<u8>(p as u64, size, &format!("{}: scalar {k}", call.name))?;
            }
            Ok(Some(out))
        }
    }
}

/// `rotg(a, b, c, s)`: the Givens rotation zeroing `b`; all four in/out scalars per the
/// pointer mode (`c` real).
pub fn rotg<T: Elem>(call: Call, a: *mut T, b: *mut T, c: *mut T::Real, s: *mut T) -> BlasResult {
    crate::ops::ensure!(!a.is_null() && !b.is_null() && !c.is_null() && !s.is_null(), "{}: NULL scalar", call.name);
    let (st, sr) = (size_of::<T>(), size_of::<T::Real>());
    let slots = scalar_slots(&call, [(a as usize, st), (b as usize, st), (c as usize, sr), (s as usize, st)])?;
    let run = move |blas: &cpu_blas::OpenBlas, [a, b, c, s]: [Host; 4]| {
        // SAFETY: four valid scalars (host memory of the caller, or checked device memory).
        unsafe { (blas.rotations.rotg[T::PREFIX])(a.ptr(), b.ptr(), c.ptr(), s.ptr()) }
    };
    match slots {
        None => {
            run(call.blas, [Host(a as usize), Host(b as usize), Host(c as usize), Host(s as usize)]);
            Ok(())
        }
        Some(views) => call.queue(move |blas| run(blas, views)),
    }
}

/// `rotmg(d1, d2, x1, y1, param)`: the modified Givens transformation (real types).
pub fn rotmg<T: Elem>(call: Call, d1: *mut T, d2: *mut T, x1: *mut T, y1: *const T, param: *mut T) -> BlasResult {
    crate::ops::ensure!(!d1.is_null() && !d2.is_null() && !x1.is_null() && !y1.is_null() && !param.is_null(), "{}: NULL scalar", call.name);
    let e = size_of::<T>();
    let ptrs = [(d1 as usize, e), (d2 as usize, e), (x1 as usize, e), (y1 as usize, e), (param as usize, 5 * e)];
    let slots = scalar_slots(&call, ptrs)?;
    let run = move |blas: &cpu_blas::OpenBlas, [d1, d2, x1, y1, p]: [Host; 5]| {
        // SAFETY: valid scalars and a 5-element parameter array.
        unsafe { (blas.rotations.rotmg[T::PREFIX])(d1.ptr(), d2.ptr(), x1.ptr(), y1.ptr(), p.ptr()) }
    };
    match slots {
        None => {
            run(call.blas, ptrs.map(|(p, _)| Host(p)));
            Ok(())
        }
        Some(views) => call.queue(move |blas| run(blas, views)),
    }
}

/// `rotm`: applies the modified Givens transformation `param` (5 reals, per the pointer
/// mode) to `x` and `y` (real types).
pub fn rotm<T: Elem>(call: Call, n: i32, x: *mut T, incx: i32, y: *mut T, incy: i32, param: *const T) -> BlasResult {
    crate::ops::ensure!(!param.is_null(), "{}: param is NULL", call.name);
    // The five parameters: read now from host memory, or in stream order from the device.
    let (host_param, device_param) = match call.state.pointer_mode {
        // SAFETY: the caller's 5-element host array.
        crate::types::PointerMode::Host => (Some(unsafe { std::ptr::read_unaligned(param.cast::<[T; 5]>()) }), None),
        crate::types::PointerMode::Device => (None, Some(crate::operand::view::<T>(param as u64, 5, &format!("{}: param", call.name))?)),
    };
    if n <= 0 {
        return Ok(());
    }
    let (hx, hy) = (call.vector(x, n, incx, "x")?, call.vector(y, n, incy, "y")?);
    call.queue(move |b| {
        // SAFETY: a checked device array of 5 elements.
        let p: [T; 5] = host_param.unwrap_or_else(|| unsafe { std::ptr::read_unaligned(device_param.expect("device mode").ptr::<[T; 5]>()) });
        // SAFETY: both extents were checked.
        unsafe { (b.rotations.rotm[T::PREFIX])(&n, hx.ptr(), &incx, hy.ptr(), &incy, p.as_ptr().cast()) }
    })
}
