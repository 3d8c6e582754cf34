//! `libcublas.so`: cuBLAS's C API (the `_v2` API of `cublas_v2.h`) on the CPU device.
//!
//! A call checks its arguments as cuBLAS documents (the same status codes), maps each
//! operand's extent to host memory through the driver (`libcuda_client::host_range`),
//! and queues the operation on the handle's stream, where OpenBLAS (opened at run time,
//! crate `cpu-blas`) does the arithmetic in column-major order, as cuBLAS stores matrices.
//! Reductions whose result goes to host memory (`CUBLAS_POINTER_MODE_HOST`) wait for
//! the stream, as cuBLAS does.
//!
//! Layers: [`types`] (the C enums), [`status`], [`handle`] (handles and their state),
//! [`operand`] (extents, scalars, host views), [`ops`] (one function per BLAS family, generic over the element type) and
//! [`exports`] (the C symbols, thin).

pub mod exports;
pub mod handle;
pub mod lt;
pub mod operand;
pub mod ops;
pub mod status;
pub mod types;

/// The library's name in log lines.
pub const LIB: &str = "libcublas";
