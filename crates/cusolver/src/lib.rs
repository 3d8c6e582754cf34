//! `libcusolver.so`: cuSOLVER's dense API (`cusolverDn*`) on the CPU device.
//!
//! As in `libcublas`, a call checks its arguments, maps its operands to host memory
//! through the driver and queues the work on the handle's stream, where LAPACK (from
//! OpenBLAS, crate `cpu-blas`) factors. `devInfo` gets LAPACK's `info` in device memory,
//! in stream order. Workspaces are accepted and unused (the `_bufferSize` queries answer
//! 0 bytes): LAPACK's own workspace is allocated by the queued work. The entry points that
//! CuPy links but this library does not implement answer `CUSOLVER_STATUS_NOT_SUPPORTED`
//! with a log line ([`unsupported`]).

pub mod dense;
pub mod exports;
pub mod handle;
pub mod status;
pub mod unsupported;

/// The library's name in log lines.
pub const LIB: &str = "libcusolver";
