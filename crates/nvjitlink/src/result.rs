//! `nvJitLinkResult` and `nvJitLinkInputType` values (NVIDIA's nvJitLink documentation,
//! "Error codes" and "Linking"; `include/nvJitLink.h` declares the same).

/// `nvJitLinkResult` (a C enum: `int`).
pub type NvJitLinkResult = i32;

pub const NVJITLINK_SUCCESS: NvJitLinkResult = 0;
pub const NVJITLINK_ERROR_UNRECOGNIZED_OPTION: NvJitLinkResult = 1;
pub const NVJITLINK_ERROR_MISSING_ARCH: NvJitLinkResult = 2;
pub const NVJITLINK_ERROR_INVALID_INPUT: NvJitLinkResult = 3;
pub const NVJITLINK_ERROR_PTX_COMPILE: NvJitLinkResult = 4;
pub const NVJITLINK_ERROR_NVVM_COMPILE: NvJitLinkResult = 5;
pub const NVJITLINK_ERROR_INTERNAL: NvJitLinkResult = 6;
pub const NVJITLINK_ERROR_THREADPOOL: NvJitLinkResult = 7;
pub const NVJITLINK_ERROR_UNRECOGNIZED_INPUT: NvJitLinkResult = 8;
pub const NVJITLINK_ERROR_FINALIZE: NvJitLinkResult = 9;
pub const NVJITLINK_ERROR_NULL_INPUT: NvJitLinkResult = 10;
pub const NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS: NvJitLinkResult = 11;
pub const NVJITLINK_ERROR_INCORRECT_INPUT_TYPE: NvJitLinkResult = 12;
pub const NVJITLINK_ERROR_ARCH_MISMATCH: NvJitLinkResult = 13;
pub const NVJITLINK_ERROR_OUTDATED_LIBRARY: NvJitLinkResult = 14;
pub const NVJITLINK_ERROR_MISSING_FATBIN: NvJitLinkResult = 15;
pub const NVJITLINK_ERROR_UNRECOGNIZED_ARCH: NvJitLinkResult = 16;
pub const NVJITLINK_ERROR_UNSUPPORTED_ARCH: NvJitLinkResult = 17;
pub const NVJITLINK_ERROR_LTO_NOT_ENABLED: NvJitLinkResult = 18;

/// `nvJitLinkInputType` values.
pub mod input {
    pub const NONE: i32 = 0;
    pub const CUBIN: i32 = 1;
    pub const PTX: i32 = 2;
    pub const LTOIR: i32 = 3;
    pub const FATBIN: i32 = 4;
    pub const OBJECT: i32 = 5;
    pub const LIBRARY: i32 = 6;
    pub const INDEX: i32 = 7;
    pub const ANY: i32 = 10;

    /// The enumerator's name, for log lines.
    pub fn name(input_type: i32) -> &'static str {
        match input_type {
            CUBIN => "NVJITLINK_INPUT_CUBIN",
            PTX => "NVJITLINK_INPUT_PTX",
            LTOIR => "NVJITLINK_INPUT_LTOIR",
            FATBIN => "NVJITLINK_INPUT_FATBIN",
            OBJECT => "NVJITLINK_INPUT_OBJECT",
            LIBRARY => "NVJITLINK_INPUT_LIBRARY",
            INDEX => "NVJITLINK_INPUT_INDEX",
            ANY => "NVJITLINK_INPUT_ANY",
            _ => "NVJITLINK_INPUT_NONE",
        }
    }
}

/// The version `nvJitLinkVersion` reports: the nvJitLink API of CUDA 13.2, the CUDA
/// version our driver reports (`cuDriverGetVersion` 13020).
pub const VERSION: (u32, u32) = (13, 2);
