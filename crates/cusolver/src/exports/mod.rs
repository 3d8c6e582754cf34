//! The C symbols of `libcusolver.so`: argument conversion and the panic firewall only.

pub mod dense;
pub mod management;

pub use cpu_blas::{Elem, C32, C64};

/// `cusolverDnHandle_t` and the other opaque handles.
pub type Handle = *mut std::ffi::c_void;

/// The library's exports: `fn name(args) { body }` becomes an `extern "C"` symbol
/// returning the library's status, behind the panic firewall (`libcuda_client::c_exports!`).
macro_rules! export {
    ($($t:tt)*) => {
        libcuda_client::c_exports! {
            { lib: $crate::LIB, status: $crate::status::Status, result: $crate::status::SolverResult, ok: $crate::status::SUCCESS, panic: $crate::status::INTERNAL_ERROR }
            $($t)*
        }
    };
}
pub(crate) use export;

/// One export per element type (`libcuda_client::typed_c_exports!`): `T` is the type, `R` its real type.
macro_rules! typed {
    ($($t:tt)*) => {
        libcuda_client::typed_c_exports! { (crate::exports::export), { pub type R = <T as cpu_blas::Elem>::Real; } $($t)* }
    };
}
pub(crate) use typed;

/// Writes a workspace size of 0 (the work allocates LAPACK's own) to a non-NULL `lwork`.
///
/// # Safety
/// A non-NULL `lwork` is writable.
pub unsafe fn no_workspace(lwork: *mut i32) -> crate::status::SolverResult {
    if lwork.is_null() {
        return Err(crate::status::fail(crate::status::INVALID_VALUE, format_args!("Lwork is NULL")));
    }
    // SAFETY: per the contract.
    unsafe { lwork.write(0) };
    Ok(())
}
