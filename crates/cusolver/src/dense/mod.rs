//! The dense solvers, generic over the element type; each checks its arguments as
//! cuSOLVER documents and queues LAPACK on the handle's stream.

pub mod eigen;
pub mod factor;
pub mod geev;
pub mod qr;
pub mod svd;

use cpu_blas::{openblas, OpenBlas};
use libcuda_client::{enqueue, host_range, AccessError};

use crate::handle;
use crate::status::{fail, SolverResult, EXECUTION_FAILED, INVALID_VALUE, NOT_INITIALIZED, NOT_SUPPORTED};
use crate::LIB;

pub use cpu_blas::{matrix_elems, Elem, C32, C64};
pub use libcuda_client::Host;

/// The host view of `elems` elements of `T` at device address `ptr`.
pub fn view<T>(ptr: u64, elems: usize, what: &str) -> SolverResult<Host> {
    match host_range(ptr, elems * size_of::<T>()) {
        Ok(p) => Ok(Host(p as usize)),
        Err(e @ AccessError::NotHostAddressable { .. }) => Err(fail(NOT_SUPPORTED, format_args!("{what}: {e}"))),
        Err(e) => Err(fail(INVALID_VALUE, format_args!("{what}: {e}"))),
    }
}

/// One entry point's call: the handle's stream, checked arguments, queued work.
pub struct Call {
    pub name: &'static str,
    pub stream: usize,
    pub blas: &'static OpenBlas,
}

impl Call {
    /// `NOT_INITIALIZED` for a bad handle or a process without OpenBLAS.
    pub fn new(h: usize, name: &'static str) -> SolverResult<Call> {
        let stream = handle::dense_stream(h)?;
        let blas = openblas().map_err(|e| fail(NOT_INITIALIZED, format_args!("{name}: {e}")))?;
        Ok(Call { name, stream, blas })
    }

    /// The host view of a column-major matrix argument.
    pub fn matrix<T>(&self, p: *const T, rows: i32, cols: i32, ld: i32, what: &str) -> SolverResult<Host> {
        view::<T>(p as u64, matrix_elems(rows, cols, ld), &format!("{}: {what}", self.name))
    }

    /// The host view of a device array of `len` elements.
    pub fn array<T>(&self, p: *const T, len: usize, what: &str) -> SolverResult<Host> {
        if p.is_null() && len > 0 {
            return Err(fail(INVALID_VALUE, format_args!("{}: {what} is NULL", self.name)));
        }
        view::<T>(p as u64, len, &format!("{}: {what}", self.name))
    }

    /// The host view of a `devInfo` (or `infoArray`) of `len` ints. NULL is
    /// `CUSOLVER_STATUS_INTERNAL_ERROR`, NVIDIA's answer (measured for `getrf`, whose
    /// kernel then faults; here nothing is queued).
    pub fn info(&self, p: *mut i32, len: usize) -> SolverResult<Host> {
        if p.is_null() {
            return Err(fail(crate::status::INTERNAL_ERROR, format_args!("{}: devInfo is NULL", self.name)));
        }
        self.array(p, len, "devInfo")
    }

    /// An optional device array (NULL allowed: `None`).
    pub fn optional<T>(&self, p: *const T, len: usize, what: &str) -> SolverResult<Option<Host>> {
        if p.is_null() {
            Ok(None)
        } else {
            self.array(p, len, what).map(Some)
        }
    }

    /// Queues `work` on the handle's stream.
    pub fn queue(&self, work: impl FnOnce(&'static OpenBlas) + Send + 'static) -> SolverResult {
        let blas = self.blas;
        enqueue(self.stream as libcuda_client::CUstream, LIB, self.name, move || work(blas))
            .map_err(|e| fail(EXECUTION_FAILED, format_args!("{}: cannot queue work on stream {:#x} (CUresult {e})", self.name, self.stream)))
    }
}

/// Writes `v` to a host view of one `i32` (a `devInfo`).
pub fn put_info(info: Host, v: i32) {
    // SAFETY: `info` was checked for one `i32`.
    unsafe { info.ptr::<i32>().write_unaligned(v) }
}

/// A BLAS character argument.
pub fn ch(c: &u8) -> *const std::ffi::c_char {
    (c as *const u8).cast()
}

/// `cublasFillMode_t` as LAPACK's `uplo`.
pub fn uplo(v: i32) -> SolverResult<u8> {
    match v {
        0 => Ok(b'L'),
        1 => Ok(b'U'),
        _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasFillMode_t {v}"))),
    }
}

/// `cublasOperation_t` as LAPACK's `trans`.
pub fn trans(v: i32) -> SolverResult<u8> {
    match v {
        0 => Ok(b'N'),
        1 => Ok(b'T'),
        2 => Ok(b'C'),
        _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasOperation_t {v}"))),
    }
}

/// `cublasSideMode_t` as LAPACK's `side`.
pub fn side(v: i32) -> SolverResult<u8> {
    match v {
        0 => Ok(b'L'),
        1 => Ok(b'R'),
        _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasSideMode_t {v}"))),
    }
}

/// LAPACK's optimal workspace for a routine called with `lwork = -1`.
pub fn optimal<T: Elem>(query: impl FnOnce(*mut T, &i32)) -> usize {
    let mut w = [T::default(); 1];
    query(w.as_mut_ptr(), &-1);
    work_len(&w[0])
}

/// The workspace length LAPACK wrote into `w` (the real part of its first element).
pub(crate) fn work_len<T: Elem>(w: &T) -> usize {
    // SAFETY: every element type begins with its real part, an f32 or f64.
    let v = unsafe {
        if size_of::<T>() == 4 || size_of::<T>() == 8 && T::COMPLEX {
            std::ptr::read((w as *const T).cast::<f32>()) as f64
        } else {
            std::ptr::read((w as *const T).cast::<f64>())
        }
    };
    (v.max(1.0)) as usize
}
