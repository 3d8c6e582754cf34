//! The C symbols of `libcusolver.so`: argument conversion and the panic firewall only.

pub mod dense;
pub mod management;

pub use cpu_blas::{Elem, C32, C64};

/// `cusolverDnHandle_t` and the other opaque handles.
pub type Handle = *mut std::ffi::c_void;

/// `fn name(args) { body }` -> `#[no_mangle] pub unsafe extern "C" fn name(args) -> cusolverStatus_t`,
/// the body behind the panic firewall.
macro_rules! export {
    ($(
        $(#[doc = $doc:literal])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Pointer arguments must be valid as cuSOLVER documents for this function.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $crate::status::Status {
            libcuda_client::boundary::guard(
                $crate::LIB,
                stringify!($name),
                $crate::status::SUCCESS,
                $crate::status::INTERNAL_ERROR,
                move || -> $crate::status::SolverResult { $body },
            )
        }
    )*};
}
pub(crate) use export;

/// One export per element type, `T` (and `R`, its real type) naming it in a module of
/// the export's own name.
macro_rules! typed {
    ([$($name:ident: $t:ty),* $(,)?] fn $params:tt $body:block) => {$(
        #[allow(non_snake_case)]
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;
            pub type T = $t;
            pub type R = <$t as cpu_blas::Elem>::Real;
            pub const NAME: &str = stringify!($name);
            $crate::exports::export! {
                fn $name $params $body
            }
        }
    )*};
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
