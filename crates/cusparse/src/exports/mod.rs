//! The C symbols of `libcusparse.so`: argument conversion and the panic firewall; the
//! operations themselves are in [`crate::ops`].

pub mod descriptors;
pub mod generic;
pub mod legacy;
pub mod management;

/// `cusparseHandle_t` and the other opaque handles.
pub type Handle = *mut std::ffi::c_void;

/// `fn name(args) { body }` -> `#[no_mangle] pub unsafe extern "C" fn name(args) -> cusparseStatus_t`,
/// the body behind the panic firewall.
macro_rules! export {
    ($(
        $(#[doc = $doc:literal])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Pointer arguments must be valid as cuSPARSE documents for this function.
        #[no_mangle]
        #[allow(clippy::too_many_arguments, reason = "the C signature")]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $crate::status::Status {
            libcuda_client::boundary::guard(
                $crate::LIB,
                stringify!($name),
                $crate::status::SUCCESS,
                $crate::status::INTERNAL_ERROR,
                move || -> $crate::status::SparseResult { $body },
            )
        }
    )*};
}
pub(crate) use export;

/// One export per element type, `T` naming it in a module of the export's own name.
macro_rules! typed {
    ([$($name:ident: $t:ty),* $(,)?] fn $params:tt $body:block) => {$(
        #[allow(non_snake_case)]
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;
            pub type T = $t;
            pub const NAME: &str = stringify!($name);
            $crate::exports::export! {
                fn $name $params $body
            }
        }
    )*};
}
pub(crate) use typed;

/// Writes `v` to a non-NULL output pointer.
///
/// # Safety
/// A non-NULL `p` is writable.
pub unsafe fn out<T>(p: *mut T, v: T) -> crate::status::SparseResult {
    if p.is_null() {
        return Err(crate::status::fail(crate::status::INVALID_VALUE, format_args!("NULL output pointer")));
    }
    // SAFETY: per the contract.
    unsafe { p.write_unaligned(v) };
    Ok(())
}
