//! Which devices the driver exposes: the backends' devices, in order.
//!
//! Today that is the CPU backend alone (`cpu-backend`: one device, the host).
//! Invariant: only this file knows which backend crates exist.

use std::sync::Arc;

use backend_api::Device;

/// All devices of all backends, in `CUdevice` ordinal order.
pub fn discover() -> Vec<Arc<dyn Device>> {
    cpu_backend::devices()
}
