//! The CUDA driver API's C types, as this library's exports see them.
//!
//! Hand-written from the public driver API documentation: handle types are opaque
//! pointers, enums are plain integers with named constants (a C caller may pass any
//! value, so a Rust `enum` would be undefined behaviour waiting to happen), and structs
//! are `#[repr(C)]` with the documented field order. Only what the implemented entry
//! points need is here; sizes of the structs that cross the boundary are asserted at
//! compile time at the bottom of the file.

#![allow(non_camel_case_types, non_snake_case, reason = "names follow the C API")]

use std::ffi::{c_char, c_int, c_uint, c_void};

/// The status every entry point returns (`CUresult`, an `enum cudaError_enum`).
#[repr(transparent)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CUresult(pub u32);

impl CUresult {
    pub const SUCCESS: Self = Self(0);
    pub const ERROR_INVALID_VALUE: Self = Self(1);
    pub const ERROR_OUT_OF_MEMORY: Self = Self(2);
    pub const ERROR_NOT_INITIALIZED: Self = Self(3);
    pub const ERROR_DEINITIALIZED: Self = Self(4);
    pub const ERROR_INVALID_DEVICE: Self = Self(101);
    pub const ERROR_INVALID_IMAGE: Self = Self(200);
    pub const ERROR_INVALID_CONTEXT: Self = Self(201);
    pub const ERROR_NO_BINARY_FOR_GPU: Self = Self(209);
    pub const ERROR_FILE_NOT_FOUND: Self = Self(301);
    pub const ERROR_INVALID_HANDLE: Self = Self(400);
    pub const ERROR_NOT_FOUND: Self = Self(500);
    pub const ERROR_NOT_READY: Self = Self(600);
    pub const ERROR_NOT_SUPPORTED: Self = Self(801);
    pub const ERROR_UNKNOWN: Self = Self(999);
}

pub type CUdevice = c_int;

/// `CUmemLocation` (passed by value in `cuMemAdvise_v2`/`cuMemPrefetchAsync_v2`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemLocation {
    /// `CUmemLocationType`.
    pub kind: c_int,
    pub id: c_int,
}
pub type CUdeviceptr = u64;
pub type cuuint64_t = u64;
/// `CUmemGenericAllocationHandle`: an integer handle (virtual memory management).
pub type CUmemGenericAllocationHandle = u64;

/// `CUmemAllocationProp::allocFlags`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct CUmemAllocationPropFlags {
    pub compressionType: u8,
    pub gpuDirectRDMACapable: u8,
    pub usage: u16,
    pub reserved: [u8; 4],
}

/// `CUmemAllocationProp` (32 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemAllocationProp {
    /// `CUmemAllocationType`.
    pub kind: c_uint,
    /// `CUmemAllocationHandleType` bits.
    pub requestedHandleTypes: c_uint,
    pub location: CUmemLocation,
    pub win32HandleMetaData: *mut c_void,
    pub allocFlags: CUmemAllocationPropFlags,
}

/// `CUmemAccessDesc` (12 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemAccessDesc {
    pub location: CUmemLocation,
    /// `CUmemAccess_flags`.
    pub flags: c_uint,
}

/// `CUmemPoolProps` (88 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemPoolProps {
    /// `CUmemAllocationType`.
    pub allocType: c_uint,
    /// `CUmemAllocationHandleType` bits.
    pub handleTypes: c_uint,
    pub location: CUmemLocation,
    pub win32SecurityAttributes: *mut c_void,
    pub maxSize: usize,
    pub usage: u16,
    pub reserved: [u8; 54],
}

/// Declares opaque handle types: `CUxxx` is `*mut CUxxx_st`.
macro_rules! opaque_handles {
    ($($handle:ident => $strukt:ident),* $(,)?) => {$(
        #[repr(C)]
        pub struct $strukt {
            _private: [u8; 0],
        }
        pub type $handle = *mut $strukt;
    )*};
}

opaque_handles! {
    CUcontext => CUctx_st,
    CUmodule => CUmod_st,
    CUfunction => CUfunc_st,
    CUlibrary => CUlib_st,
    CUkernel => CUkern_st,
    CUstream => CUstream_st,
    CUevent => CUevent_st,
    CUlinkState => CUlinkState_st,
    CUmemoryPool => CUmemPoolHandle_st,
    CUarray => CUarray_st,
}

/// `CU_STREAM_LEGACY`: the legacy default stream, whatever the calling convention.
pub const CU_STREAM_LEGACY: usize = 0x1;
/// `CU_STREAM_PER_THREAD`: the calling thread's per-thread default stream.
pub const CU_STREAM_PER_THREAD: usize = 0x2;

/// `CUuuid`: 16 bytes.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CUuuid {
    pub bytes: [c_char; 16],
}

/// `CUmemorytype`.
pub mod memory_type {
    pub const HOST: u32 = 1;
    pub const DEVICE: u32 = 2;
    pub const ARRAY: u32 = 3;
    pub const UNIFIED: u32 = 4;
}

/// `CUDA_MEMCPY2D` and `CUDA_MEMCPY3D` (the `_v2` layouts) and the legacy `CUdevprop`
/// are defined by `cuda-driver`, whose copy and device functions take them as they are.
pub use cuda_driver::copy::{CudaMemcpy2D as CUDA_MEMCPY2D, CudaMemcpy3D as CUDA_MEMCPY3D};
pub use cuda_driver::device::CuDevProp as CUdevprop;

/// `CUlaunchAttribute`: an id, padding to 8 bytes, and a 64-byte value union.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUlaunchAttribute {
    pub id: c_uint,
    pub pad: [c_char; 4],
    pub value: CUlaunchAttributeValue,
}

/// `CUlaunchAttributeValue`: a 64-byte union; only the raw bytes are modelled.
#[repr(C, align(8))]
#[derive(Clone, Copy)]
pub struct CUlaunchAttributeValue {
    pub pad: [u8; 64],
}

/// `CUlaunchConfig` (`cuLaunchKernelEx`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUlaunchConfig {
    pub gridDimX: c_uint,
    pub gridDimY: c_uint,
    pub gridDimZ: c_uint,
    pub blockDimX: c_uint,
    pub blockDimY: c_uint,
    pub blockDimZ: c_uint,
    pub sharedMemBytes: c_uint,
    pub hStream: CUstream,
    pub attrs: *mut CUlaunchAttribute,
    pub numAttrs: c_uint,
}

/// `CUexecAffinityParam`: a type tag and a 4-byte value union.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUexecAffinityParam {
    pub type_: c_uint,
    pub value: c_uint,
}

/// `CUctxCreateParams` (`cuCtxCreate_v4`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUctxCreateParams {
    pub execAffinityParams: *mut CUexecAffinityParam,
    pub numExecAffinityParams: c_int,
    pub cigParams: *mut c_void,
}

/// `CUjit_option` values the library interprets; every other option is accepted and
/// ignored.
pub mod jit_option {
    pub const MAX_REGISTERS: u32 = 0;
    pub const WALL_TIME: u32 = 2;
    pub const INFO_LOG_BUFFER: u32 = 3;
    pub const INFO_LOG_BUFFER_SIZE_BYTES: u32 = 4;
    pub const ERROR_LOG_BUFFER: u32 = 5;
    pub const ERROR_LOG_BUFFER_SIZE_BYTES: u32 = 6;
    pub const OPTIMIZATION_LEVEL: u32 = 7;
    /// One past the last option (`CU_JIT_NUM_OPTIONS`, CUDA 13): larger ids are unknown.
    pub const NUM_OPTIONS: u32 = 36;
}

/// `CUlibraryOption` values.
pub mod library_option {
    pub const HOST_UNIVERSAL_FUNCTION_AND_DATA_TABLE: u32 = 0;
    pub const BINARY_IS_PRESERVED: u32 = 1;
}

/// `CUpointer_attribute` values.
pub mod pointer_attribute {
    pub const CONTEXT: u32 = 1;
    pub const MEMORY_TYPE: u32 = 2;
    pub const DEVICE_POINTER: u32 = 3;
    pub const HOST_POINTER: u32 = 4;
    pub const SYNC_MEMOPS: u32 = 6;
    pub const BUFFER_ID: u32 = 7;
    pub const IS_MANAGED: u32 = 8;
    pub const DEVICE_ORDINAL: u32 = 9;
    pub const RANGE_START_ADDR: u32 = 11;
    pub const RANGE_SIZE: u32 = 12;
    pub const MAPPED: u32 = 13;
}

/// `CUfunction_attribute` values.
pub mod function_attribute {
    pub const MAX_THREADS_PER_BLOCK: u32 = 0;
    pub const SHARED_SIZE_BYTES: u32 = 1;
    pub const CONST_SIZE_BYTES: u32 = 2;
    pub const LOCAL_SIZE_BYTES: u32 = 3;
    pub const NUM_REGS: u32 = 4;
    pub const PTX_VERSION: u32 = 5;
    pub const BINARY_VERSION: u32 = 6;
    pub const CACHE_MODE_CA: u32 = 7;
    pub const MAX_DYNAMIC_SHARED_SIZE_BYTES: u32 = 8;
    pub const PREFERRED_SHARED_MEMORY_CARVEOUT: u32 = 9;
}

/// Special values of `cuLaunchKernel`'s `extra` array.
pub mod launch_param {
    pub const END: usize = 0x00;
    pub const BUFFER_POINTER: usize = 0x01;
    pub const BUFFER_SIZE: usize = 0x02;
}

/// `cuGetProcAddress` flags (`CUdriverProcAddress_flags`).
pub mod proc_address_flags {
    pub const DEFAULT: u64 = 0;
    pub const LEGACY_STREAM: u64 = 1 << 0;
    pub const PER_THREAD_DEFAULT_STREAM: u64 = 1 << 1;
}

/// `CUdriverProcAddressQueryResult`.
pub mod proc_address_status {
    pub const SUCCESS: i32 = 0;
    pub const SYMBOL_NOT_FOUND: i32 = 1;
    pub const VERSION_NOT_SUFFICIENT: i32 = 2;
}

// Layouts cross the C boundary: check them against the documented 64-bit sizes.
const _: () = assert!(std::mem::size_of::<CUresult>() == 4);
const _: () = assert!(std::mem::size_of::<CUuuid>() == 16);
const _: () = assert!(std::mem::size_of::<CUdevprop>() == 56);
const _: () = assert!(std::mem::size_of::<CUDA_MEMCPY2D>() == 128);
const _: () = assert!(std::mem::size_of::<CUDA_MEMCPY3D>() == 200);
const _: () = assert!(std::mem::size_of::<CUlaunchAttribute>() == 72);
const _: () = assert!(std::mem::size_of::<CUlaunchConfig>() == 56);
const _: () = assert!(std::mem::size_of::<CUctxCreateParams>() == 24);
const _: () = assert!(std::mem::size_of::<CUmemAllocationProp>() == 32);
const _: () = assert!(std::mem::size_of::<CUmemAccessDesc>() == 12);
const _: () = assert!(std::mem::size_of::<CUmemPoolProps>() == 88);
