//! One entry point's call: the handle's stream and pointer mode, host views of device
//! operands, scalars, and the work queued in stream order.

use libcuda_client::{enqueue, host_range, synchronize, AccessError, CUstream};

use crate::kernels::KResult;
use crate::objects;
use crate::status::{fail, SparseResult, EXECUTION_FAILED, INVALID_VALUE, NOT_SUPPORTED};
use crate::LIB;

/// A host address of device memory, usable from the stream's thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Host {
    pub addr: usize,
    pub len: usize,
}

impl Host {
    /// The view as a slice.
    ///
    /// # Safety
    /// The view must have been made for `T`, and nothing else may write the range while
    /// the slice lives.
    pub unsafe fn slice<'a, T>(self) -> &'a [T] {
        // SAFETY: per the contract; `view` checked the extent and alignment.
        unsafe { std::slice::from_raw_parts(self.addr as *const T, self.len) }
    }

    /// The view as a mutable slice.
    ///
    /// # Safety
    /// As [`Host::slice`], and no other slice of the range may live meanwhile.
    #[allow(clippy::mut_from_ref, reason = "the view is device memory, not borrowed from self")]
    pub unsafe fn slice_mut<'a, T>(self) -> &'a mut [T] {
        // SAFETY: per the contract.
        unsafe { std::slice::from_raw_parts_mut(self.addr as *mut T, self.len) }
    }
}

/// The host view of `elems` elements of `T` at device address `ptr`: `INVALID_VALUE`
/// (and a log line) for NULL, unregistered, misaligned or too short ranges.
pub fn view<T>(ptr: u64, elems: usize, what: &str) -> SparseResult<Host> {
    if elems == 0 {
        return Ok(Host { addr: std::ptr::NonNull::<T>::dangling().as_ptr() as usize, len: 0 });
    }
    if ptr == 0 {
        return Err(fail(INVALID_VALUE, format_args!("{what} is NULL")));
    }
    if !ptr.is_multiple_of(align_of::<T>() as u64) {
        return Err(fail(INVALID_VALUE, format_args!("{what} at {ptr:#x} is not aligned to {} bytes", align_of::<T>())));
    }
    let bytes = elems.checked_mul(size_of::<T>()).ok_or_else(|| fail(INVALID_VALUE, format_args!("{what}: {elems} elements overflow")))?;
    match host_range(ptr, bytes) {
        Ok(p) => Ok(Host { addr: p as usize, len: elems }),
        Err(e @ AccessError::NotHostAddressable { .. }) => Err(fail(NOT_SUPPORTED, format_args!("{what}: {e}"))),
        Err(e) => Err(fail(INVALID_VALUE, format_args!("{what}: {e}"))),
    }
}

/// A scalar argument: read at the call (host pointer mode) or by the work (device).
#[derive(Clone, Copy, Debug)]
pub enum Scalar<T> {
    Value(T),
    At(Host),
}

impl<T: Copy> Scalar<T> {
    pub fn get(self) -> T {
        match self {
            Scalar::Value(v) => v,
            // SAFETY: the view was checked for one `T`.
            Scalar::At(h) => unsafe { (h.addr as *const T).read() },
        }
    }
}

/// A checked call on a handle.
pub struct Call {
    pub name: &'static str,
    pub stream: usize,
    pub device_pointers: bool,
}

impl Call {
    /// `NOT_INITIALIZED` for a bad handle.
    pub fn new(handle: *mut std::ffi::c_void, name: &'static str) -> SparseResult<Call> {
        let (stream, device_pointers) = objects::handle(handle as usize)?;
        Ok(Call { name, stream, device_pointers })
    }

    /// The host view of a device array argument.
    pub fn array<T>(&self, p: *const T, len: usize, what: &str) -> SparseResult<Host> {
        view::<T>(p as u64, len, &format!("{}: {what}", self.name))
    }

    /// A scalar per the handle's pointer mode.
    #[allow(clippy::not_unsafe_ptr_arg_deref, reason = "a C argument of the calling export, valid as the API documents")]
    pub fn scalar<T: Copy>(&self, p: *const T, what: &str) -> SparseResult<Scalar<T>> {
        if self.device_pointers {
            return self.array(p, 1, what).map(Scalar::At);
        }
        if p.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("{}: {what} is NULL", self.name)));
        }
        // SAFETY: a host pointer to one `T`, per the API in host pointer mode.
        Ok(Scalar::Value(unsafe { p.read_unaligned() }))
    }

    /// Queues `work` on the handle's stream; its `Err` (a malformed operand found while
    /// computing) is logged there.
    pub fn queue(&self, work: impl FnOnce() -> KResult + Send + 'static) -> SparseResult {
        let name = self.name;
        enqueue(self.stream as CUstream, LIB, name, move || {
            if let Err(why) = work() {
                eprintln!("[{LIB}] {name}: {why}; the output is undefined");
            }
        })
        .map_err(|e| fail(EXECUTION_FAILED, format_args!("{name}: cannot queue work on stream {:#x} (CUresult {e})", self.stream)))
    }

    /// Waits for the work queued on the handle's stream.
    pub fn wait(&self) -> SparseResult {
        synchronize(self.stream as CUstream)
            .map_err(|e| fail(EXECUTION_FAILED, format_args!("{}: waiting on stream {:#x} failed (CUresult {e})", self.name, self.stream)))
    }

    /// Queues `compute`, waits for it and returns its result (the default value, with
    /// the error logged, when the operands turn out malformed).
    pub fn run_now<R>(&self, compute: impl FnOnce() -> KResult<R> + Send + 'static) -> SparseResult<R>
    where
        R: Send + Default + 'static,
    {
        let cell = std::sync::Arc::new(std::sync::Mutex::new(None));
        let put = cell.clone();
        self.queue(move || {
            let v = compute();
            let failed = v.as_ref().err().cloned();
            *put.lock().unwrap_or_else(|e| e.into_inner()) = Some(v.unwrap_or_default());
            failed.map_or(Ok(()), Err)
        })?;
        self.wait()?;
        let v = cell.lock().unwrap_or_else(|e| e.into_inner()).take();
        v.ok_or_else(|| fail(EXECUTION_FAILED, format_args!("{}: the queued work did not run", self.name)))
    }

    /// Queues `compute` and delivers its count to `out`, a host or device pointer per the
    /// pointer mode (`*DevHostPtr` arguments): a host pointer is written after waiting.
    #[allow(clippy::not_unsafe_ptr_arg_deref, reason = "a C argument of the calling export, valid as the API documents")]
    pub fn count_out<C>(&self, out: *mut C, compute: impl FnOnce() -> KResult<C> + Send + 'static) -> SparseResult
    where
        C: Copy + Send + Default + 'static,
    {
        if self.device_pointers {
            let target = self.array(out as *const C, 1, "the count")?;
            return self.queue(move || {
                let v = compute()?;
                // SAFETY: the view was checked for one `C`.
                unsafe { (target.addr as *mut C).write(v) };
                Ok(())
            });
        }
        if out.is_null() {
            return Err(fail(INVALID_VALUE, format_args!("{}: the count's host pointer is NULL", self.name)));
        }
        let v = self.run_now(compute)?;
        // SAFETY: a host pointer to one `C`, per the API in host pointer mode.
        unsafe { out.write_unaligned(v) };
        Ok(())
    }
}

/// Index-base argument (`cusparseIndexBase_t`).
pub fn index_base(name: &str, v: i32) -> SparseResult<i64> {
    match v {
        0 | 1 => Ok(v as i64),
        _ => Err(fail(INVALID_VALUE, format_args!("{name}: invalid cusparseIndexBase_t {v}"))),
    }
}

/// `cusparseOperation_t` as a kernel operation.
pub fn operation(name: &str, v: i32) -> SparseResult<crate::kernels::Op> {
    use crate::kernels::Op;
    match v {
        0 => Ok(Op::N),
        1 => Ok(Op::T),
        2 => Ok(Op::H),
        _ => Err(fail(INVALID_VALUE, format_args!("{name}: invalid cusparseOperation_t {v}"))),
    }
}

/// Runs `$body` with `$t` the Rust type of the `cudaDataType` `$ty` (R_32F, R_64F,
/// C_32F, C_64F); other types answer `NOT_SUPPORTED`.
macro_rules! with_value_type {
    ($ty:expr, $what:expr, |$t:ident| $body:expr) => {
        match $ty {
            0 => {
                type $t = f32;
                $body
            }
            1 => {
                type $t = f64;
                $body
            }
            4 => {
                type $t = $crate::kernels::C32;
                $body
            }
            5 => {
                type $t = $crate::kernels::C64;
                $body
            }
            other => Err($crate::status::fail(
                $crate::status::NOT_SUPPORTED,
                format_args!("{}: cudaDataType {other} is not supported (only R_32F, R_64F, C_32F, C_64F)", $what),
            )),
        }
    };
}
pub(crate) use with_value_type;

/// Runs `$body` with `$i` the Rust type of a 32- or 64-bit `IndexType`.
macro_rules! with_index_type {
    ($ty:expr, $what:expr, |$i:ident| $body:expr) => {
        match $ty {
            $crate::objects::IndexType::I32 => {
                type $i = i32;
                $body
            }
            $crate::objects::IndexType::I64 => {
                type $i = i64;
                $body
            }
            $crate::objects::IndexType::U16 => {
                Err($crate::status::fail($crate::status::NOT_SUPPORTED, format_args!("{}: CUSPARSE_INDEX_16U indices are not supported", $what)))
            }
        }
    };
}
pub(crate) use with_index_type;
