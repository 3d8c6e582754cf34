//! The C symbols of `libcusparse.so`: argument conversion and the panic firewall; the
//! operations themselves are in [`crate::ops`].

pub mod descriptors;
pub mod generic;
pub mod legacy;
pub mod management;

/// `cusparseHandle_t` and the other opaque handles.
pub type Handle = *mut std::ffi::c_void;

/// The library's exports: `fn name(args) { body }` becomes an `extern "C"` symbol
/// returning the library's status, behind the panic firewall (`libcuda_client::c_exports!`).
macro_rules! export {
    ($($t:tt)*) => {
        libcuda_client::c_exports! {
            { lib: $crate::LIB, status: $crate::status::Status, result: $crate::status::SparseResult, ok: $crate::status::SUCCESS, panic: $crate::status::INTERNAL_ERROR }
            $($t)*
        }
    };
}
pub(crate) use export;

/// One export per element type (`libcuda_client::typed_c_exports!`): `T` is the type.
macro_rules! typed {
    ($($t:tt)*) => {
        libcuda_client::typed_c_exports! { (crate::exports::export), {  } $($t)* }
    };
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
