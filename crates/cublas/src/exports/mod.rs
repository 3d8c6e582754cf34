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

/// Defines exported entry points: `fn name(args) { body }` becomes
/// `#[no_mangle] pub unsafe extern "C" fn name(args) -> cublasStatus_t` whose body
/// returns [`BlasResult`] and runs behind the panic firewall.
macro_rules! export {
    ($(
        $(#[doc = $doc:literal])*
        fn $name:ident($($arg:ident: $ty:ty),* $(,)?) $body:block
    )*) => {$(
        $(#[doc = $doc])*
        ///
        /// # Safety
        /// Pointer arguments must be valid as cuBLAS documents for this function.
        #[no_mangle]
        pub unsafe extern "C" fn $name($($arg: $ty),*) -> $crate::status::Status {
            libcuda_client::boundary::guard(
                $crate::LIB,
                stringify!($name),
                $crate::status::SUCCESS,
                $crate::status::INTERNAL_ERROR,
                move || -> $crate::status::BlasResult { $body },
            )
        }
    )*};
}
pub(crate) use export;

/// One export per element type: `[cublasSfoo: f32, cublasDfoo: f64, ...] fn(args) { body }`
/// where the arguments and body name the element type `T`. Each export lives in a
/// module of its own name, where `T` is its type.
macro_rules! typed {
    ([$($name:ident: $t:ty),* $(,)?] fn $params:tt $body:block) => {$(
        #[allow(non_snake_case)]
        pub mod $name {
            #[allow(unused_imports)]
            use super::*;
            /// This export's element type.
            pub type T = $t;
            /// This export's C name, for log lines.
            pub const NAME: &str = stringify!($name);
            $crate::exports::export! {
                fn $name $params $body
            }
        }
    )*};
}
pub(crate) use typed;

/// The `Call` of an export (the handle as cuBLAS passes it).
pub fn call(handle: Handle, name: &'static str) -> BlasResult<crate::ops::Call> {
    crate::ops::Call::new(handle as usize, name)
}
