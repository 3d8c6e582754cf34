//! Which devices the driver exposes: the backends' devices, in order.
//!
//! Today that is the CPU backend alone (`cpu-backend`, not yet in the workspace: until it
//! lands, [`discover`] finds no device and `cuInit` answers `CUDA_ERROR_NO_DEVICE`).
//! Invariant: only this file knows which backend crates exist.

use std::sync::Arc;

use backend_api::Device;

/// All devices of all backends, in `CUdevice` ordinal order.
pub fn discover() -> Vec<Arc<dyn Device>> {
    // FIXME: return `cpu_backend::devices()` once crates/cpu-backend exists.
    Vec::new()
}
