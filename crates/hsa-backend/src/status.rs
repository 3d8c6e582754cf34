//! HSA status codes -> CUDA results and backend errors.
//!
//! Every status ROCr 5.x defines (`hsa.h`, `hsa_ext_amd.h`) has an entry in [`STATUSES`]:
//! its name, the `CUresult` a CUDA program sees, and the `DeviceError` the backend reports
//! (the driver turns that into the same `CUresult`). Unknown codes are
//! `CUDA_ERROR_UNKNOWN`.

use backend_api::DeviceError;

/// CUresult values used here (cuda.h).
pub mod cu {
    pub const SUCCESS: u32 = 0;
    pub const INVALID_VALUE: u32 = 1;
    pub const OUT_OF_MEMORY: u32 = 2;
    pub const NOT_INITIALIZED: u32 = 3;
    pub const INVALID_DEVICE: u32 = 101;
    pub const INVALID_IMAGE: u32 = 200;
    pub const NO_BINARY_FOR_GPU: u32 = 209;
    pub const SHARED_OBJECT_SYMBOL_NOT_FOUND: u32 = 302;
    pub const OPERATING_SYSTEM: u32 = 304;
    pub const INVALID_HANDLE: u32 = 400;
    pub const NOT_FOUND: u32 = 500;
    pub const ILLEGAL_ADDRESS: u32 = 700;
    pub const LAUNCH_OUT_OF_RESOURCES: u32 = 701;
    pub const ILLEGAL_INSTRUCTION: u32 = 715;
    pub const LAUNCH_FAILED: u32 = 719;
    pub const NOT_SUPPORTED: u32 = 801;
    pub const UNKNOWN: u32 = 999;
}

/// (status, name, CUresult).
pub const STATUSES: &[(u32, &str, u32)] = &[
    (0x0, "HSA_STATUS_SUCCESS", cu::SUCCESS),
    (0x1, "HSA_STATUS_INFO_BREAK", cu::SUCCESS),
    (0x1000, "HSA_STATUS_ERROR", cu::UNKNOWN),
    (0x1001, "HSA_STATUS_ERROR_INVALID_ARGUMENT", cu::INVALID_VALUE),
    (0x1002, "HSA_STATUS_ERROR_INVALID_QUEUE_CREATION", cu::OUT_OF_MEMORY),
    (0x1003, "HSA_STATUS_ERROR_INVALID_ALLOCATION", cu::OUT_OF_MEMORY),
    (0x1004, "HSA_STATUS_ERROR_INVALID_AGENT", cu::INVALID_DEVICE),
    (0x1005, "HSA_STATUS_ERROR_INVALID_REGION", cu::INVALID_VALUE),
    (0x1006, "HSA_STATUS_ERROR_INVALID_SIGNAL", cu::INVALID_HANDLE),
    (0x1007, "HSA_STATUS_ERROR_INVALID_QUEUE", cu::INVALID_HANDLE),
    (0x1008, "HSA_STATUS_ERROR_OUT_OF_RESOURCES", cu::OUT_OF_MEMORY),
    (0x1009, "HSA_STATUS_ERROR_INVALID_PACKET_FORMAT", cu::LAUNCH_FAILED),
    (0x100A, "HSA_STATUS_ERROR_RESOURCE_FREE", cu::INVALID_VALUE),
    (0x100B, "HSA_STATUS_ERROR_NOT_INITIALIZED", cu::NOT_INITIALIZED),
    (0x100C, "HSA_STATUS_ERROR_REFCOUNT_OVERFLOW", cu::OPERATING_SYSTEM),
    (0x100D, "HSA_STATUS_ERROR_INCOMPATIBLE_ARGUMENTS", cu::INVALID_VALUE),
    (0x100E, "HSA_STATUS_ERROR_INVALID_INDEX", cu::INVALID_VALUE),
    (0x100F, "HSA_STATUS_ERROR_INVALID_ISA", cu::NO_BINARY_FOR_GPU),
    (0x1010, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT", cu::INVALID_IMAGE),
    (0x1011, "HSA_STATUS_ERROR_INVALID_EXECUTABLE", cu::INVALID_IMAGE),
    (0x1012, "HSA_STATUS_ERROR_FROZEN_EXECUTABLE", cu::INVALID_IMAGE),
    (0x1013, "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME", cu::NOT_FOUND),
    (0x1014, "HSA_STATUS_ERROR_VARIABLE_ALREADY_DEFINED", cu::INVALID_IMAGE),
    (0x1015, "HSA_STATUS_ERROR_VARIABLE_UNDEFINED", cu::SHARED_OBJECT_SYMBOL_NOT_FOUND),
    (0x1016, "HSA_STATUS_ERROR_EXCEPTION", cu::LAUNCH_FAILED),
    (0x1017, "HSA_STATUS_ERROR_INVALID_ISA_NAME", cu::NO_BINARY_FOR_GPU),
    (0x1018, "HSA_STATUS_ERROR_INVALID_CODE_SYMBOL", cu::NOT_FOUND),
    (0x1019, "HSA_STATUS_ERROR_INVALID_EXECUTABLE_SYMBOL", cu::NOT_FOUND),
    (0x1020, "HSA_STATUS_ERROR_INVALID_FILE", cu::INVALID_IMAGE),
    (0x1021, "HSA_STATUS_ERROR_INVALID_CODE_OBJECT_READER", cu::INVALID_IMAGE),
    (0x1022, "HSA_STATUS_ERROR_INVALID_CACHE", cu::INVALID_VALUE),
    (0x1023, "HSA_STATUS_ERROR_INVALID_WAVEFRONT", cu::INVALID_VALUE),
    (0x1024, "HSA_STATUS_ERROR_INVALID_SIGNAL_GROUP", cu::INVALID_HANDLE),
    (0x1025, "HSA_STATUS_ERROR_INVALID_RUNTIME_STATE", cu::NOT_INITIALIZED),
    (0x1026, "HSA_STATUS_ERROR_FATAL", cu::UNKNOWN),
    (40, "HSA_STATUS_ERROR_INVALID_MEMORY_POOL", cu::INVALID_VALUE),
    (41, "HSA_STATUS_ERROR_MEMORY_APERTURE_VIOLATION", cu::ILLEGAL_ADDRESS),
    (42, "HSA_STATUS_ERROR_ILLEGAL_INSTRUCTION", cu::ILLEGAL_INSTRUCTION),
    (43, "HSA_STATUS_ERROR_MEMORY_FAULT", cu::ILLEGAL_ADDRESS),
    (44, "HSA_STATUS_CU_MASK_REDUCED", cu::SUCCESS),
    (45, "HSA_STATUS_ERROR_OUT_OF_REGISTERS", cu::LAUNCH_OUT_OF_RESOURCES),
];

/// The CUresult a CUDA program should see for an HSA status.
pub fn cu_result(status: u32) -> u32 {
    STATUSES.iter().find(|s| s.0 == status).map(|s| s.2).unwrap_or(cu::UNKNOWN)
}

/// The symbolic name of an HSA status.
pub fn name(status: u32) -> String {
    STATUSES.iter().find(|s| s.0 == status).map(|s| s.1.to_string()).unwrap_or_else(|| format!("HSA status {status:#x}"))
}

/// The backend error for a failed HSA call (`status` is not a success).
pub fn device_error(status: u32) -> DeviceError {
    match cu_result(status) {
        cu::OUT_OF_MEMORY => DeviceError::OutOfMemory,
        cu::ILLEGAL_ADDRESS => DeviceError::IllegalAddress,
        cu::ILLEGAL_INSTRUCTION => DeviceError::IllegalInstruction,
        cu::LAUNCH_FAILED => DeviceError::LaunchFailed,
        cu::LAUNCH_OUT_OF_RESOURCES => DeviceError::OutOfResources,
        // No DeviceError carries these codes: say which HSA status it was.
        _ => DeviceError::NotSupported(format!("ROCr: {}", name(status))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_status_maps_and_names_are_unique() {
        let mut codes: Vec<u32> = STATUSES.iter().map(|s| s.0).collect();
        codes.sort();
        codes.dedup();
        assert_eq!(codes.len(), STATUSES.len());
        // hsa.h's range 0x1000..=0x1026 has no holes except 0x101A..=0x101F.
        for c in (0x1000..=0x1026).filter(|c| !(0x101A..=0x101F).contains(c)) {
            assert!(codes.contains(&c), "status {c:#x} has no mapping");
        }
        assert_eq!(cu_result(0x1008), cu::OUT_OF_MEMORY);
        assert_eq!(cu_result(0x1016), cu::LAUNCH_FAILED);
        assert_eq!(cu_result(43), cu::ILLEGAL_ADDRESS);
        assert_eq!(cu_result(0x100F), cu::NO_BINARY_FOR_GPU);
        assert_eq!(cu_result(0xBEEF), cu::UNKNOWN);
        assert_eq!(name(0x1013), "HSA_STATUS_ERROR_INVALID_SYMBOL_NAME");
    }

    #[test]
    fn device_errors_follow_the_cuda_results() {
        assert_eq!(device_error(0x1003), DeviceError::OutOfMemory);
        assert_eq!(device_error(41), DeviceError::IllegalAddress);
        assert_eq!(device_error(42), DeviceError::IllegalInstruction);
        assert_eq!(device_error(0x1016), DeviceError::LaunchFailed);
        assert_eq!(device_error(45), DeviceError::OutOfResources);
        assert!(matches!(device_error(0x1001), DeviceError::NotSupported(m) if m.contains("INVALID_ARGUMENT")));
    }
}
