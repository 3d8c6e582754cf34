//! Operands: the extents BLAS arguments touch, scalars by pointer mode, host views.

pub use cpu_blas::matrix_elems;
pub use libcuda_client::Host;
use libcuda_client::{host_range, AccessError};

use crate::status::{fail, BlasResult, INVALID_VALUE, NOT_SUPPORTED};
use crate::types::PointerMode;

/// Elements a vector of `n` elements with increment `inc` spans (BLAS: a negative
/// increment walks the same span backwards; 0 revisits one element).
pub fn vector_elems(n: i32, inc: i32) -> usize {
    if n <= 0 {
        0
    } else {
        (n as usize - 1) * inc.unsigned_abs() as usize + 1
    }
}

/// The host view of `elems` elements of `T` at device address `ptr`; `what` names the
/// argument in the log line.
pub fn view<T>(ptr: u64, elems: usize, what: &str) -> BlasResult<Host> {
    let bytes = elems.checked_mul(size_of::<T>()).ok_or_else(|| fail(INVALID_VALUE, format_args!("{what}: {elems} elements overflow")))?;
    match host_range(ptr, bytes) {
        Ok(p) => Ok(Host(p as usize)),
        Err(e @ AccessError::NotHostAddressable { .. }) => Err(fail(NOT_SUPPORTED, format_args!("{what}: {e}"))),
        Err(e) => Err(fail(INVALID_VALUE, format_args!("{what}: {e}"))),
    }
}

/// A scalar argument: read at the call (`CUBLAS_POINTER_MODE_HOST`) or, from device
/// memory, when the queued work runs (`CUBLAS_POINTER_MODE_DEVICE`).
#[derive(Clone, Copy, Debug)]
pub enum Scalar<T> {
    Value(T),
    Device(Host),
}

impl<T: Copy> Scalar<T> {
    /// `p` per `mode`; NULL is `INVALID_VALUE`.
    ///
    /// # Safety
    /// In host mode a non-NULL `p` must be readable.
    pub unsafe fn new(mode: PointerMode, p: *const T, what: &str) -> BlasResult<Scalar<T>> {
        if p.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("{what} is NULL")));
        }
        Ok(match mode {
            // SAFETY: the caller's host scalar, per the pointer mode it chose.
            PointerMode::Host => Scalar::Value(unsafe { p.read_unaligned() }),
            PointerMode::Device => Scalar::Device(view::<T>(p as u64, 1, what)?),
        })
    }

    /// The value, in the queued work.
    pub fn get(&self) -> T {
        match *self {
            Scalar::Value(v) => v,
            // SAFETY: `view` checked one element at this address.
            Scalar::Device(h) => unsafe { h.ptr::<T>().read_unaligned() },
        }
    }
}

/// Where a scalar result goes: host memory written after the stream drains, or device
/// memory written by the queued work.
#[derive(Clone, Copy, Debug)]
pub enum ResultSlot {
    Host(Host),
    Device(Host),
}

impl ResultSlot {
    /// # Safety
    /// In host mode a non-NULL `p` must stay writable until the call returns.
    pub unsafe fn new<T>(mode: PointerMode, p: *mut T, what: &str) -> BlasResult<ResultSlot> {
        if p.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("{what} is NULL")));
        }
        Ok(match mode {
            PointerMode::Host => ResultSlot::Host(Host(p as usize)),
            PointerMode::Device => ResultSlot::Device(view::<T>(p as u64, 1, what)?),
        })
    }

    /// Stores `v` (in the queued work).
    pub fn store<T>(&self, v: T) {
        let (ResultSlot::Host(h) | ResultSlot::Device(h)) = *self;
        // SAFETY: checked at the call; a host slot stays valid because the call waits.
        unsafe { h.ptr::<T>().write_unaligned(v) }
    }

    pub fn is_host(&self) -> bool {
        matches!(self, ResultSlot::Host(_))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn extents_follow_blas_storage() {
        // (n, inc) -> elements spanned
        for (n, inc, want) in [(0, 1, 0), (-3, 1, 0), (1, 7, 1), (4, 1, 4), (4, 3, 10), (4, -3, 10), (5, 0, 1)] {
            assert_eq!(vector_elems(n, inc), want, "n={n} inc={inc}");
        }
        // (rows, cols, ld) -> elements spanned
        for (r, c, ld, want) in [(0, 5, 5, 0), (3, 0, 3, 0), (3, 4, 3, 12), (3, 4, 10, 33), (1, 1, 1, 1)] {
            assert_eq!(matrix_elems(r, c, ld), want, "{r}x{c} ld={ld}");
        }
    }
}
