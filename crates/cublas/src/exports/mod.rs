//! The C symbols of `libcublas.so`: argument conversion and the panic firewall only;
//! the work is in [`crate::ops`].

pub mod batched;
pub mod level1;
pub mod level2;
pub mod level3;
pub mod management;

pub use crate::ops::{C32, C64};
pub use crate::status::{BlasResult, Status};

/// `cublasHandle_t`.
pub type Handle = *mut std::ffi::c_void;

/// The library's exports: `fn name(args) { body }` becomes an `extern "C"` symbol
/// returning the library's status, behind the panic firewall (`libcuda_client::c_exports!`).
macro_rules! export {
    ($($t:tt)*) => {
        libcuda_client::c_exports! {
            { lib: $crate::LIB, status: $crate::status::Status, result: $crate::status::BlasResult, ok: $crate::status::SUCCESS, panic: $crate::status::INTERNAL_ERROR }
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

/// The `Call` of an export (the handle as cuBLAS passes it).
pub fn call(handle: Handle, name: &'static str) -> BlasResult<crate::ops::Call> {
    crate::ops::Call::new(handle as usize, name)
}
