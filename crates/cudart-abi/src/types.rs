//! Runtime API structures and enumeration values that cross the C boundary (other than
//! `cudaDeviceProp`, in `props.rs`, and `dim3`, in `launch_config.rs`).

use std::ffi::{c_int, c_void};

/// `cudaMemcpyKind`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemcpyKind {
    HostToHost,
    HostToDevice,
    DeviceToHost,
    DeviceToDevice,
    Default,
}

impl MemcpyKind {
    /// `cudaMemcpyHostToHost` = 0 ... `cudaMemcpyDefault` = 4; anything else is
    /// `cudaErrorInvalidMemcpyDirection`.
    pub fn from_raw(kind: c_int) -> Option<Self> {
        Some(match kind {
            0 => Self::HostToHost,
            1 => Self::HostToDevice,
            2 => Self::DeviceToHost,
            3 => Self::DeviceToDevice,
            4 => Self::Default,
            _ => return None,
        })
    }
}

/// `cudaMemoryType`.
pub const MEMORY_TYPE_UNREGISTERED: c_int = 0;
pub const MEMORY_TYPE_HOST: c_int = 1;
pub const MEMORY_TYPE_DEVICE: c_int = 2;
pub const MEMORY_TYPE_MANAGED: c_int = 3;

/// The part of `cudaPointerAttributes` every CUDA version has (CUDA 13 appends
/// `long reserved[8]`, which callers built with CUDA 12 do not have room for: only these
/// 24 bytes are written).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PointerAttributes {
    pub memory_type: c_int,
    pub device: c_int,
    pub device_pointer: *mut c_void,
    pub host_pointer: *mut c_void,
}

/// `cudaFuncAttributes` (CUDA 12 and 13).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct FuncAttributes {
    pub shared_size_bytes: usize,
    pub const_size_bytes: usize,
    pub local_size_bytes: usize,
    pub max_threads_per_block: c_int,
    pub num_regs: c_int,
    pub ptx_version: c_int,
    pub binary_version: c_int,
    pub cache_mode_ca: c_int,
    pub max_dynamic_shared_size_bytes: c_int,
    pub preferred_shmem_carveout: c_int,
    pub cluster_dim_must_be_set: c_int,
    pub required_cluster_width: c_int,
    pub required_cluster_height: c_int,
    pub required_cluster_depth: c_int,
    pub cluster_scheduling_policy_preference: c_int,
    pub non_portable_cluster_size_allowed: c_int,
    pub reserved: [c_int; 16],
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn layouts() {
        // Sizes and offsets as NVIDIA's driver_types.h lays the structs out on LP64.
        assert_eq!(size_of::<PointerAttributes>(), 24);
        assert_eq!(offset_of!(PointerAttributes, device), 4);
        assert_eq!(offset_of!(PointerAttributes, device_pointer), 8);
        assert_eq!(offset_of!(PointerAttributes, host_pointer), 16);
        assert_eq!(size_of::<FuncAttributes>(), 144);
        assert_eq!(offset_of!(FuncAttributes, max_threads_per_block), 24);
        assert_eq!(offset_of!(FuncAttributes, max_dynamic_shared_size_bytes), 44);
        assert_eq!(offset_of!(FuncAttributes, cluster_scheduling_policy_preference), 68);
        assert_eq!(offset_of!(FuncAttributes, non_portable_cluster_size_allowed), 72);
        assert_eq!(offset_of!(FuncAttributes, reserved), 76);
    }

    #[test]
    fn memcpy_kinds() {
        assert_eq!(MemcpyKind::from_raw(1), Some(MemcpyKind::HostToDevice));
        assert_eq!(MemcpyKind::from_raw(4), Some(MemcpyKind::Default));
        assert_eq!(MemcpyKind::from_raw(42), None);
        assert_eq!(MemcpyKind::from_raw(-1), None);
    }
}
