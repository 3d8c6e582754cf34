//! `libcusparse.so`: cuSPARSE on the CPU device.
//!
//! As in `libcublas` and `libcusolver`, a call checks its arguments as cuSPARSE
//! documents, maps its operands to host memory through the driver
//! (`libcuda_client::host_range`: a pointer outside every allocation is refused with
//! `CUSPARSE_STATUS_INVALID_VALUE`, never dereferenced) and queues the arithmetic
//! ([`kernels`], plain loops over host slices) on the handle's stream. Calls whose
//! results the host reads at once (a total nonzero count through a host pointer, the
//! size of a SpGEMM or dense-to-sparse result) wait for their work. Workspaces are
//! accepted and unused. The descriptors of the generic API and the legacy matrix
//! descriptors live in a registry ([`objects`]), so stale or foreign handles are
//! recognized. Entry points clients link but this library does not implement answer
//! `CUSPARSE_STATUS_NOT_SUPPORTED` with a log line ([`unsupported`]).

pub mod call;
pub mod exports;
pub mod kernels;
pub mod objects;
pub mod ops;
pub mod status;
pub mod unsupported;

/// The library's name in log lines.
pub const LIB: &str = "libcusparse";
