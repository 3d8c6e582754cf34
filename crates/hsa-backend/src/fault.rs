//! GPU memory faults and hardware exceptions, as ROCr reports them to a system event
//! handler (`hsa_amd_register_system_event_handler`, `hsa_ext_amd.h`).
//!
//! Without a handler, ROCr prints the fault and aborts the process. With one that answers
//! `HSA_STATUS_SUCCESS`, it only marks the faulting queue broken; that queue's error
//! callback then fails the launch (`CUDA_ERROR_ILLEGAL_ADDRESS` for a memory fault, see
//! `status.rs`), the queue is destroyed, and the process and the device go on, as a CUDA
//! program expects of a faulting kernel. Older ROCr without the entry point keeps its
//! abort; `HSA_BACKEND_DEBUG=1` says so.

use std::sync::Mutex;

/// `HSA_AMD_GPU_MEMORY_FAULT_EVENT`.
pub const GPU_MEMORY_FAULT_EVENT: u32 = 0;
/// `HSA_AMD_GPU_HW_EXCEPTION_EVENT`.
pub const GPU_HW_EXCEPTION_EVENT: u32 = 1;

/// `hsa_amd_event_t`: the event type, then (8-aligned) a union whose memory-fault member
/// is `{ hsa_agent_t agent; uint64_t virtual_address; uint32_t fault_reason_mask; }`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Event {
    pub event_type: u32,
    pub agent: u64,
    pub virtual_address: u64,
    pub fault_reason_mask: u32,
}

/// What the handler saw last, for the launch that fails because of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fault {
    pub event_type: u32,
    pub agent: u64,
    pub address: u64,
    pub reason_mask: u32,
}

static LAST: Mutex<Option<Fault>> = Mutex::new(None);

/// The system event handler: remembers the fault and claims it, so ROCr does not abort.
///
/// # Safety
/// `event` is null or points to a `hsa_amd_event_t` (ROCr's contract).
pub unsafe extern "C" fn on_system_event(event: *const Event, _data: *mut std::ffi::c_void) -> u32 {
    if event.is_null() {
        return crate::ffi::STATUS_SUCCESS;
    }
    // SAFETY: guaranteed by the caller.
    let e = unsafe { *event };
    let fault = Fault { event_type: e.event_type, agent: e.agent, address: e.virtual_address, reason_mask: e.fault_reason_mask };
    *LAST.lock().unwrap_or_else(|p| p.into_inner()) = Some(fault);
    crate::ffi::STATUS_SUCCESS
}

/// The fault recorded since the last call, if any.
pub fn take() -> Option<Fault> {
    LAST.lock().unwrap_or_else(|p| p.into_inner()).take()
}

/// A line for the debug log.
pub fn describe(f: &Fault) -> String {
    match f.event_type {
        GPU_MEMORY_FAULT_EVENT => format!("memory access fault at {:#x} (agent {:#x}, reason mask {:#x})", f.address, f.agent, f.reason_mask),
        GPU_HW_EXCEPTION_EVENT => format!("hardware exception on agent {:#x}", f.agent),
        t => format!("system event {t} on agent {:#x}", f.agent),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_event_layout_is_hsa_ext_amds() {
        assert_eq!(std::mem::offset_of!(Event, agent), 8);
        assert_eq!(std::mem::offset_of!(Event, virtual_address), 16);
        assert_eq!(std::mem::offset_of!(Event, fault_reason_mask), 24);
    }
}
