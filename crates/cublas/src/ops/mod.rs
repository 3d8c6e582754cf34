//! The BLAS families, generic over the element type; each checks its arguments as
//! cuBLAS documents and queues the arithmetic on the handle's stream.

pub mod band_packed;
pub mod batched;
pub mod ex_level1;
pub mod extensions;
pub mod gemm_ex;
pub mod lapack;
pub mod level1;
pub mod level2;
pub mod level3;

use libcuda_client::{enqueue, synchronize};

use crate::handle::{self, HandleState};
use crate::operand::{matrix_elems, vector_elems, view, Host, Scalar};
use crate::status::{fail, BlasResult, EXECUTION_FAILED, INVALID_VALUE, NOT_INITIALIZED};
use crate::LIB;
use cpu_blas::{openblas, OpenBlas};
pub use cpu_blas::{Elem, C32, C64};

/// Fails with `INVALID_VALUE` and a log line unless `cond` holds.
macro_rules! ensure {
    ($cond:expr, $($why:tt)*) => {
        if !($cond) {
            return Err($crate::status::fail($crate::status::INVALID_VALUE, format_args!($($why)*)));
        }
    };
}
pub(crate) use ensure;

/// One entry point's call: the handle's state, checked arguments, queued work.
pub struct Call {
    pub name: &'static str,
    pub state: HandleState,
    pub blas: &'static OpenBlas,
}

impl Call {
    /// `NOT_INITIALIZED` for a bad handle or a process without OpenBLAS.
    pub fn new(handle: usize, name: &'static str) -> BlasResult<Call> {
        let state = handle::state(handle)?;
        let blas = openblas().map_err(|e| fail(NOT_INITIALIZED, format_args!("{name}: {e}")))?;
        Ok(Call { name, state, blas })
    }

    /// A scalar argument per the handle's pointer mode.
    ///
    /// # Safety
    /// In host mode a non-NULL `p` must be readable.
    pub unsafe fn scalar<T: Copy>(&self, p: *const T, what: &str) -> BlasResult<Scalar<T>> {
        // SAFETY: forwarded.
        unsafe { Scalar::new(self.state.pointer_mode, p, &format!("{}: {what}", self.name)) }
    }

    /// The host view of a vector argument.
    pub fn vector<T>(&self, p: *const T, n: i32, inc: i32, what: &str) -> BlasResult<Host> {
        view::<T>(p as u64, vector_elems(n, inc), &format!("{}: {what}", self.name))
    }

    /// The host view of a column-major matrix argument.
    pub fn matrix<T>(&self, p: *const T, rows: i32, cols: i32, ld: i32, what: &str) -> BlasResult<Host> {
        view::<T>(p as u64, matrix_elems(rows, cols, ld), &format!("{}: {what}", self.name))
    }

    /// Queues `work` on the handle's stream.
    pub fn queue(&self, work: impl FnOnce(&'static OpenBlas) + Send + 'static) -> BlasResult {
        let blas = self.blas;
        enqueue(self.state.stream as libcuda_client::CUstream, LIB, self.name, move || work(blas))
            .map_err(|e| fail(EXECUTION_FAILED, format_args!("{}: cannot queue work on stream {:#x} (CUresult {e})", self.name, self.state.stream)))
    }

    /// Waits for the handle's stream (results in host memory).
    pub fn wait(&self) -> BlasResult {
        synchronize(self.state.stream as libcuda_client::CUstream)
            .map_err(|e| fail(EXECUTION_FAILED, format_args!("{}: the stream failed (CUresult {e})", self.name)))
    }
}

/// `max(1, n)`, the least leading dimension of a matrix with `n` rows.
pub fn least_ld(n: i32) -> i32 {
    n.max(1)
}

/// A BLAS character argument.
pub fn ch(c: &u8) -> *const std::ffi::c_char {
    (c as *const u8).cast()
}

/// `INVALID_VALUE` with a log line (for checks written as expressions).
pub fn invalid(why: std::fmt::Arguments<'_>) -> i32 {
    fail(INVALID_VALUE, why)
}
