//! AMD GPUs as CUDA devices, through ROCr (the HSA runtime).
//!
//! `libhsa-runtime64.so.1` is opened at run time ([`ffi::Hsa::open`]); there is no link-time
//! dependency. No library, a failing `hsa_init` (a machine without `/dev/kfd`: Debian's
//! ROCr 5.2.3 answers `HSA_STATUS_ERROR_OUT_OF_RESOURCES` within milliseconds) or no GPU
//! agent all mean the same: [`devices`] is empty and nothing is printed, unless
//! `HSA_BACKEND_DEBUG=1` (or `LIBCUDA_LOG=1`) asks why.
//!
//! ```text
//! devices()  -> one HsaDevice per GPU agent (properties from agent info)
//! alloc      -> the agent's coarse-grained global pool
//! alloc_managed -> the CPU agent's fine-grained pool, every reaching GPU allowed (`managed`)
//! copies     -> hsa_amd_memory_async_copy through fine-grained host staging buffers
//! load_ptx   -> compiler_core::target::amdgpu (code object) -> code object reader
//!               -> executable (load, freeze) -> kernel/variable symbols
//! launch     -> kernargs (abi::build_kernargs) in the kernarg pool -> one AQL dispatch
//!               packet on an HSA queue -> wait on its completion signal
//! ```
//! Cooperative launches (`launch_cooperative`): the driver checks the grid against
//! [`occupancy`] (from each kernel's descriptor: LDS, VGPRs, SGPRs, and the agent's CU
//! count and wave slots) through `resident_blocks_per_multiprocessor`; the launch
//! allocates a 16-byte grid workspace in device memory, passes its address in the
//! implicit arguments (`%envreg1:%envreg2` in the kernel) and dispatches as usual.
//!
//! Queues: the driver runs each CUDA stream on its own worker thread and calls `launch`
//! from it; a launch takes a queue from the device's pool (creating one when all are busy),
//! so each stream running at a time has its own HSA queue. A queue that reported an error
//! (a trap, a memory fault) is destroyed, not reused.
//!
//! Environment: `HSA_RUNTIME_LIB` overrides the library path; `HSA_BACKEND_DEBUG=1` logs.

mod device;
pub mod fault;
pub mod ffi;
mod managed;
mod module;
pub mod occupancy;
pub mod printf;
mod queue;
pub mod status;

use backend_api::Device;
use std::sync::{Arc, OnceLock};

pub use device::{parse_bdfid, uuid_bytes, HsaDevice};

/// The library we open.
pub const LIBRARY: &str = "libhsa-runtime64.so.1";

/// Whether to say why the backend found no devices.
fn debug_enabled() -> bool {
    ["HSA_BACKEND_DEBUG", "LIBCUDA_LOG"].iter().any(|v| std::env::var_os(v).map(|x| !x.is_empty() && x != "0").unwrap_or(false))
}

pub(crate) fn debug(msg: impl AsRef<str>) {
    if debug_enabled() {
        eprintln!("hsa-backend: {}", msg.as_ref());
    }
}

/// All AMD GPUs of the machine, in ROCr's agent order. Empty when ROCr or a GPU is missing.
pub fn devices() -> Vec<Arc<dyn Device>> {
    static DEVICES: OnceLock<Vec<Arc<HsaDevice>>> = OnceLock::new();
    DEVICES
        .get_or_init(|| match device::discover() {
            Ok(d) => {
                debug(format!("{} AMD GPU(s)", d.len()));
                d
            }
            Err(why) => {
                debug(format!("no AMD GPUs: {why}"));
                Vec::new()
            }
        })
        .iter()
        .map(|d| d.clone() as Arc<dyn Device>)
        .collect()
}
