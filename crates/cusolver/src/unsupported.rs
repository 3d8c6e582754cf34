//! Entry points that clients link (CuPy's `cupy_backends.cuda.libs.cusolver` needs every
//! one of them to import) but this library does not implement: each answers
//! `CUSOLVER_STATUS_NOT_SUPPORTED` and logs its name, whatever its arguments. The
//! arguments are not read, so one C signature (no parameters) serves all of them under
//! the C calling convention.

/// Defines one unsupported export per name.
macro_rules! unsupported {
    ($($name:ident)*) => {$(
        /// Not implemented: `CUSOLVER_STATUS_NOT_SUPPORTED`.
        #[no_mangle]
        pub extern "C" fn $name() -> crate::status::Status {
            crate::status::fail(crate::status::NOT_SUPPORTED, format_args!(concat!(stringify!($name), " is not implemented")))
        }
    )*};
}

unsupported! {
    // Mixed-precision iterative refinement solvers (gesv/gels families).
    cusolverDnCCgels cusolverDnCCgels_bufferSize cusolverDnCCgesv cusolverDnCCgesv_bufferSize
    cusolverDnCKgels cusolverDnCKgels_bufferSize cusolverDnCKgesv cusolverDnCKgesv_bufferSize
    cusolverDnCYgels cusolverDnCYgels_bufferSize cusolverDnCYgesv cusolverDnCYgesv_bufferSize
    cusolverDnDDgels cusolverDnDDgels_bufferSize cusolverDnDDgesv cusolverDnDDgesv_bufferSize
    cusolverDnDHgels cusolverDnDHgels_bufferSize cusolverDnDHgesv cusolverDnDHgesv_bufferSize
    cusolverDnDSgels cusolverDnDSgels_bufferSize cusolverDnDSgesv cusolverDnDSgesv_bufferSize
    cusolverDnDXgels cusolverDnDXgels_bufferSize cusolverDnDXgesv cusolverDnDXgesv_bufferSize
    cusolverDnSHgels cusolverDnSHgels_bufferSize cusolverDnSHgesv cusolverDnSHgesv_bufferSize
    cusolverDnSSgels cusolverDnSSgels_bufferSize cusolverDnSSgesv cusolverDnSSgesv_bufferSize
    cusolverDnSXgels cusolverDnSXgels_bufferSize cusolverDnSXgesv cusolverDnSXgesv_bufferSize
    cusolverDnZCgels cusolverDnZCgels_bufferSize cusolverDnZCgesv cusolverDnZCgesv_bufferSize
    cusolverDnZKgels cusolverDnZKgels_bufferSize cusolverDnZKgesv cusolverDnZKgesv_bufferSize
    cusolverDnZYgels cusolverDnZYgels_bufferSize cusolverDnZYgesv cusolverDnZYgesv_bufferSize
    cusolverDnZZgels cusolverDnZZgels_bufferSize cusolverDnZZgesv cusolverDnZZgesv_bufferSize
    // The approximate strided-batched SVD.
    cusolverDnSgesvdaStridedBatched cusolverDnSgesvdaStridedBatched_bufferSize
    cusolverDnDgesvdaStridedBatched cusolverDnDgesvdaStridedBatched_bufferSize
    cusolverDnCgesvdaStridedBatched cusolverDnCgesvdaStridedBatched_bufferSize
    cusolverDnZgesvdaStridedBatched cusolverDnZgesvdaStridedBatched_bufferSize
    // Sparse solvers.
    cusolverSpScsrlsvqr cusolverSpDcsrlsvqr cusolverSpCcsrlsvqr cusolverSpZcsrlsvqr
    cusolverSpScsrlsvchol cusolverSpDcsrlsvchol cusolverSpCcsrlsvchol cusolverSpZcsrlsvchol
    cusolverSpScsreigvsi cusolverSpDcsreigvsi cusolverSpCcsreigvsi cusolverSpZcsreigvsi
}
