//! `CUresult` as a Rust error type, with NVIDIA's names and descriptions.
//!
//! [`CuError`] is a non-zero `CUresult` (`CUDA_SUCCESS`, 0, is `Ok`), so every driver
//! function returns [`CuResult<T>`] and `?` works all the way to the C ABI, which turns
//! `Err(e)` into `e.code()`. The table below lists every code of the CUDA 13 headers with
//! the exact strings `cuGetErrorName` and `cuGetErrorString` return; [`name`] and
//! [`description`] answer `None` for codes not in it (the ABI then returns
//! `CUDA_ERROR_INVALID_VALUE` and stores NULL, as NVIDIA's driver does).
//!
//! Whose fault each error is: `INVALID_VALUE`, `INVALID_HANDLE`, `INVALID_CONTEXT`,
//! `INVALID_DEVICE`, `NOT_FOUND`, `FILE_NOT_FOUND` are the caller's; `INVALID_IMAGE`,
//! `INVALID_PTX`, `NO_BINARY_FOR_GPU` the program's build; `ILLEGAL_ADDRESS`, `ASSERT`,
//! `LAUNCH_FAILED` a kernel's (sticky: the context is unusable afterwards);
//! `NOT_SUPPORTED` ours (a feature this implementation lacks).

use std::ffi::CStr;
use std::fmt;
use std::num::NonZeroU32;

/// A failed `CUresult`: any code but `CUDA_SUCCESS`.
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct CuError(NonZeroU32);

/// The result of every driver operation.
pub type CuResult<T> = Result<T, CuError>;

// `CuError` must stay exactly a `u32` so the ABI can pass it through unchanged.
const _: () = assert!(std::mem::size_of::<CuError>() == 4);
const _: () = assert!(std::mem::size_of::<Option<CuError>>() == 4);

macro_rules! cu_errors {
    ($($(#[$doc:meta])* $konst:ident = $code:literal, $name:literal, $desc:literal;)*) => {
        impl CuError {
            $(
                $(#[$doc])*
                pub const $konst: CuError = match NonZeroU32::new($code) {
                    Some(code) => CuError(code),
                    None => panic!("zero is CUDA_SUCCESS"),
                };
            )*
        }

        /// Every error code: (code, `cuGetErrorName`, `cuGetErrorString`).
        static ERROR_TABLE: &[(u32, &CStr, &CStr)] = &[
            (0, c"CUDA_SUCCESS", c"no error"),
            $(($code, $name, $desc),)*
        ];
    };
}

cu_errors! {
    /// A parameter is out of range (the caller's fault).
    INVALID_VALUE = 1, c"CUDA_ERROR_INVALID_VALUE", c"invalid argument";
    /// An allocation failed.
    OUT_OF_MEMORY = 2, c"CUDA_ERROR_OUT_OF_MEMORY", c"out of memory";
    /// `cuInit` has not been called (or failed).
    NOT_INITIALIZED = 3, c"CUDA_ERROR_NOT_INITIALIZED", c"initialization error";
    /// The driver is shutting down.
    DEINITIALIZED = 4, c"CUDA_ERROR_DEINITIALIZED", c"driver shutting down";
    /// Profiler disabled (external profiling tool).
    PROFILER_DISABLED = 5, c"CUDA_ERROR_PROFILER_DISABLED", c"profiler disabled while using external profiling tool";
    /// Deprecated profiler code.
    PROFILER_NOT_INITIALIZED = 6, c"CUDA_ERROR_PROFILER_NOT_INITIALIZED", c"profiler not initialized: call cudaProfilerInitialize()";
    /// Deprecated profiler code.
    PROFILER_ALREADY_STARTED = 7, c"CUDA_ERROR_PROFILER_ALREADY_STARTED", c"profiler already started";
    /// Deprecated profiler code.
    PROFILER_ALREADY_STOPPED = 8, c"CUDA_ERROR_PROFILER_ALREADY_STOPPED", c"profiler already stopped";
    /// The loaded driver is a stub library.
    STUB_LIBRARY = 34, c"CUDA_ERROR_STUB_LIBRARY", c"CUDA driver is a stub library";
    /// The call needs a newer driver (CUDA 13). String not verified against a real driver.
    CALL_REQUIRES_NEWER_DRIVER = 36, c"CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER", c"API call is not supported in the installed CUDA driver";
    /// The device is unavailable now (exclusive mode, ...).
    DEVICE_UNAVAILABLE = 46, c"CUDA_ERROR_DEVICE_UNAVAILABLE", c"CUDA-capable device(s) is/are busy or unavailable";
    /// No device found.
    NO_DEVICE = 100, c"CUDA_ERROR_NO_DEVICE", c"no CUDA-capable device is detected";
    /// Bad device ordinal.
    INVALID_DEVICE = 101, c"CUDA_ERROR_INVALID_DEVICE", c"invalid device ordinal";
    /// Grid license missing.
    DEVICE_NOT_LICENSED = 102, c"CUDA_ERROR_DEVICE_NOT_LICENSED", c"device doesn't have valid Grid license";
    /// The kernel image is malformed.
    INVALID_IMAGE = 200, c"CUDA_ERROR_INVALID_IMAGE", c"device kernel image is invalid";
    /// No current context, or a bad context handle.
    INVALID_CONTEXT = 201, c"CUDA_ERROR_INVALID_CONTEXT", c"invalid device context";
    /// Deprecated.
    CONTEXT_ALREADY_CURRENT = 202, c"CUDA_ERROR_CONTEXT_ALREADY_CURRENT", c"context already current";
    /// Map or register failed.
    MAP_FAILED = 205, c"CUDA_ERROR_MAP_FAILED", c"mapping of buffer object failed";
    /// Unmap or unregister failed.
    UNMAP_FAILED = 206, c"CUDA_ERROR_UNMAP_FAILED", c"unmapping of buffer object failed";
    /// The array is mapped.
    ARRAY_IS_MAPPED = 207, c"CUDA_ERROR_ARRAY_IS_MAPPED", c"array is mapped";
    /// The resource is already mapped.
    ALREADY_MAPPED = 208, c"CUDA_ERROR_ALREADY_MAPPED", c"resource already mapped";
    /// The image has nothing this device can run (e.g. SASS only).
    NO_BINARY_FOR_GPU = 209, c"CUDA_ERROR_NO_BINARY_FOR_GPU", c"no kernel image is available for execution on the device";
    /// The resource is already acquired.
    ALREADY_ACQUIRED = 210, c"CUDA_ERROR_ALREADY_ACQUIRED", c"resource already acquired";
    /// The resource is not mapped.
    NOT_MAPPED = 211, c"CUDA_ERROR_NOT_MAPPED", c"resource not mapped";
    /// Not mapped as an array.
    NOT_MAPPED_AS_ARRAY = 212, c"CUDA_ERROR_NOT_MAPPED_AS_ARRAY", c"resource not mapped as array";
    /// Not mapped as a pointer.
    NOT_MAPPED_AS_POINTER = 213, c"CUDA_ERROR_NOT_MAPPED_AS_POINTER", c"resource not mapped as pointer";
    /// Uncorrectable ECC error.
    ECC_UNCORRECTABLE = 214, c"CUDA_ERROR_ECC_UNCORRECTABLE", c"uncorrectable ECC error encountered";
    /// The `CUlimit` is not supported.
    UNSUPPORTED_LIMIT = 215, c"CUDA_ERROR_UNSUPPORTED_LIMIT", c"limit is not supported on this architecture";
    /// The context is bound to another thread.
    CONTEXT_ALREADY_IN_USE = 216, c"CUDA_ERROR_CONTEXT_ALREADY_IN_USE", c"exclusive-thread device already in use by a different thread";
    /// Peer access unsupported.
    PEER_ACCESS_UNSUPPORTED = 217, c"CUDA_ERROR_PEER_ACCESS_UNSUPPORTED", c"peer access is not supported between these two devices";
    /// PTX failed to compile; the JIT error log says why.
    INVALID_PTX = 218, c"CUDA_ERROR_INVALID_PTX", c"a PTX JIT compilation failed";
    /// Bad graphics context.
    INVALID_GRAPHICS_CONTEXT = 219, c"CUDA_ERROR_INVALID_GRAPHICS_CONTEXT", c"invalid OpenGL or DirectX context";
    /// NVLink error.
    NVLINK_UNCORRECTABLE = 220, c"CUDA_ERROR_NVLINK_UNCORRECTABLE", c"uncorrectable NVLink error detected during the execution";
    /// The PTX JIT compiler library is missing.
    JIT_COMPILER_NOT_FOUND = 221, c"CUDA_ERROR_JIT_COMPILER_NOT_FOUND", c"PTX JIT compiler library not found";
    /// The PTX ISA version is too new.
    UNSUPPORTED_PTX_VERSION = 222, c"CUDA_ERROR_UNSUPPORTED_PTX_VERSION", c"the provided PTX was compiled with an unsupported toolchain.";
    /// PTX JIT disabled.
    JIT_COMPILATION_DISABLED = 223, c"CUDA_ERROR_JIT_COMPILATION_DISABLED", c"PTX JIT compilation was disabled";
    /// Unsupported execution affinity.
    UNSUPPORTED_EXEC_AFFINITY = 224, c"CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY", c"the provided execution affinity is not supported";
    /// Device-side cudaDeviceSynchronize in PTX.
    UNSUPPORTED_DEVSIDE_SYNC = 225, c"CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC", c"the provided PTX contains unsupported call to cudaDeviceSynchronize";
    /// A contained device exception.
    CONTAINED = 226, c"CUDA_ERROR_CONTAINED", c"Invalid access of peer GPU memory over nvlink or a hardware error";
    /// Invalid kernel source.
    INVALID_SOURCE = 300, c"CUDA_ERROR_INVALID_SOURCE", c"device kernel image is invalid";
    /// File not found (`cuModuleLoad`).
    FILE_NOT_FOUND = 301, c"CUDA_ERROR_FILE_NOT_FOUND", c"file not found";
    /// Shared object symbol missing.
    SHARED_OBJECT_SYMBOL_NOT_FOUND = 302, c"CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND", c"shared object symbol not found";
    /// Shared object init failed.
    SHARED_OBJECT_INIT_FAILED = 303, c"CUDA_ERROR_SHARED_OBJECT_INIT_FAILED", c"shared object initialization failed";
    /// An OS call failed.
    OPERATING_SYSTEM = 304, c"CUDA_ERROR_OPERATING_SYSTEM", c"OS call failed or operation not supported on this OS";
    /// A stale, null or wrong-type handle (modules, functions, streams, events, ...).
    INVALID_HANDLE = 400, c"CUDA_ERROR_INVALID_HANDLE", c"invalid resource handle";
    /// The object is in the wrong state for the operation.
    ILLEGAL_STATE = 401, c"CUDA_ERROR_ILLEGAL_STATE", c"the operation cannot be performed in the present state";
    /// Introspection would be lossy.
    LOSSY_QUERY = 402, c"CUDA_ERROR_LOSSY_QUERY", c"attempted introspection would be semantically lossy";
    /// A named symbol (kernel, global) was not found.
    NOT_FOUND = 500, c"CUDA_ERROR_NOT_FOUND", c"named symbol not found";
    /// Asynchronous work has not completed.
    NOT_READY = 600, c"CUDA_ERROR_NOT_READY", c"device not ready";
    /// A kernel accessed an invalid address (sticky).
    ILLEGAL_ADDRESS = 700, c"CUDA_ERROR_ILLEGAL_ADDRESS", c"an illegal memory access was encountered";
    /// Too many resources requested for the launch.
    LAUNCH_OUT_OF_RESOURCES = 701, c"CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", c"too many resources requested for launch";
    /// The kernel timed out (sticky).
    LAUNCH_TIMEOUT = 702, c"CUDA_ERROR_LAUNCH_TIMEOUT", c"the launch timed out and was terminated";
    /// Incompatible texturing mode.
    LAUNCH_INCOMPATIBLE_TEXTURING = 703, c"CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING", c"launch uses incompatible texturing mode";
    /// Peer access already enabled.
    PEER_ACCESS_ALREADY_ENABLED = 704, c"CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED", c"peer access is already enabled";
    /// Peer access not enabled.
    PEER_ACCESS_NOT_ENABLED = 705, c"CUDA_ERROR_PEER_ACCESS_NOT_ENABLED", c"peer access has not been enabled";
    /// The primary context is already active.
    PRIMARY_CONTEXT_ACTIVE = 708, c"CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE", c"cannot set while device is active in this process";
    /// The current context was destroyed, or is an inactive primary context.
    CONTEXT_IS_DESTROYED = 709, c"CUDA_ERROR_CONTEXT_IS_DESTROYED", c"context is destroyed";
    /// A device-side assert failed (sticky).
    ASSERT = 710, c"CUDA_ERROR_ASSERT", c"device-side assert triggered";
    /// Too many peers.
    TOO_MANY_PEERS = 711, c"CUDA_ERROR_TOO_MANY_PEERS", c"peer mapping resources exhausted";
    /// `cuMemHostRegister` on an already registered range.
    HOST_MEMORY_ALREADY_REGISTERED = 712, c"CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED", c"part or all of the requested memory range is already mapped";
    /// `cuMemHostUnregister` on an unregistered pointer.
    HOST_MEMORY_NOT_REGISTERED = 713, c"CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED", c"pointer does not correspond to a registered memory region";
    /// Hardware stack error (sticky).
    HARDWARE_STACK_ERROR = 714, c"CUDA_ERROR_HARDWARE_STACK_ERROR", c"hardware stack error";
    /// Illegal instruction (sticky).
    ILLEGAL_INSTRUCTION = 715, c"CUDA_ERROR_ILLEGAL_INSTRUCTION", c"an illegal instruction was encountered";
    /// Misaligned address (sticky).
    MISALIGNED_ADDRESS = 716, c"CUDA_ERROR_MISALIGNED_ADDRESS", c"misaligned address";
    /// Invalid address space (sticky).
    INVALID_ADDRESS_SPACE = 717, c"CUDA_ERROR_INVALID_ADDRESS_SPACE", c"operation not supported on global/shared address space";
    /// Invalid program counter (sticky).
    INVALID_PC = 718, c"CUDA_ERROR_INVALID_PC", c"invalid program counter";
    /// A kernel faulted or trapped (sticky).
    LAUNCH_FAILED = 719, c"CUDA_ERROR_LAUNCH_FAILED", c"unspecified launch failure";
    /// A cooperative grid is too large.
    COOPERATIVE_LAUNCH_TOO_LARGE = 720, c"CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", c"too many blocks in cooperative launch";
    /// Tensor memory leak at kernel exit (sticky).
    TENSOR_MEMORY_LEAK = 721, c"CUDA_ERROR_TENSOR_MEMORY_LEAK", c"tensor memory not completely freed";
    /// Operation not permitted.
    NOT_PERMITTED = 800, c"CUDA_ERROR_NOT_PERMITTED", c"operation not permitted";
    /// Operation not supported (here: not implemented by this driver).
    NOT_SUPPORTED = 801, c"CUDA_ERROR_NOT_SUPPORTED", c"operation not supported";
    /// The system is not ready.
    SYSTEM_NOT_READY = 802, c"CUDA_ERROR_SYSTEM_NOT_READY", c"system not yet initialized";
    /// Display driver / CUDA driver mismatch.
    SYSTEM_DRIVER_MISMATCH = 803, c"CUDA_ERROR_SYSTEM_DRIVER_MISMATCH", c"system has unsupported display driver / cuda driver combination";
    /// Forward compatibility unsupported on this device.
    COMPAT_NOT_SUPPORTED_ON_DEVICE = 804, c"CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE", c"forward compatibility was attempted on non supported HW";
    /// MPS connection failed.
    MPS_CONNECTION_FAILED = 805, c"CUDA_ERROR_MPS_CONNECTION_FAILED", c"MPS client failed to connect to the MPS control daemon or the MPS server";
    /// MPS RPC failed.
    MPS_RPC_FAILURE = 806, c"CUDA_ERROR_MPS_RPC_FAILURE", c"the remote procedural call between the MPS server and the MPS client failed";
    /// MPS server not ready.
    MPS_SERVER_NOT_READY = 807, c"CUDA_ERROR_MPS_SERVER_NOT_READY", c"MPS server is not ready to accept new MPS client requests";
    /// MPS client limit reached.
    MPS_MAX_CLIENTS_REACHED = 808, c"CUDA_ERROR_MPS_MAX_CLIENTS_REACHED", c"the hardware resources required to create MPS client have been exhausted";
    /// MPS connection limit reached.
    MPS_MAX_CONNECTIONS_REACHED = 809, c"CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED", c"the hardware resources required to support device connections have been exhausted";
    /// MPS client terminated.
    MPS_CLIENT_TERMINATED = 810, c"CUDA_ERROR_MPS_CLIENT_TERMINATED", c"the MPS client has been terminated by the server";
    /// CUDA Dynamic Parallelism unsupported here.
    CDP_NOT_SUPPORTED = 811, c"CUDA_ERROR_CDP_NOT_SUPPORTED", c"is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it";
    /// Mixed CDP versions.
    CDP_VERSION_MISMATCH = 812, c"CUDA_ERROR_CDP_VERSION_MISMATCH", c"unsupported interaction between different versions of CUDA Dynamic Parallelism";
    /// Not permitted while capturing.
    STREAM_CAPTURE_UNSUPPORTED = 900, c"CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED", c"operation not permitted when stream is capturing";
    /// Capture invalidated.
    STREAM_CAPTURE_INVALIDATED = 901, c"CUDA_ERROR_STREAM_CAPTURE_INVALIDATED", c"operation failed due to a previous error during capture";
    /// Capture merge.
    STREAM_CAPTURE_MERGE = 902, c"CUDA_ERROR_STREAM_CAPTURE_MERGE", c"operation would result in a merge of separate capture sequences";
    /// Capture unmatched.
    STREAM_CAPTURE_UNMATCHED = 903, c"CUDA_ERROR_STREAM_CAPTURE_UNMATCHED", c"capture was not ended in the same stream as it began";
    /// Capture unjoined.
    STREAM_CAPTURE_UNJOINED = 904, c"CUDA_ERROR_STREAM_CAPTURE_UNJOINED", c"capturing stream has unjoined work";
    /// Capture isolation.
    STREAM_CAPTURE_ISOLATION = 905, c"CUDA_ERROR_STREAM_CAPTURE_ISOLATION", c"dependency created on uncaptured work in another stream";
    /// Implicit capture dependency.
    STREAM_CAPTURE_IMPLICIT = 906, c"CUDA_ERROR_STREAM_CAPTURE_IMPLICIT", c"operation would make the legacy stream depend on a capturing blocking stream";
    /// Captured event.
    CAPTURED_EVENT = 907, c"CUDA_ERROR_CAPTURED_EVENT", c"operation not permitted on an event last recorded in a capturing stream";
    /// Capture ended on the wrong thread.
    STREAM_CAPTURE_WRONG_THREAD = 908, c"CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD", c"attempt to terminate a thread-local capture sequence from another thread";
    /// A wait timed out.
    TIMEOUT = 909, c"CUDA_ERROR_TIMEOUT", c"wait operation timed out";
    /// Graph exec update failed.
    GRAPH_EXEC_UPDATE_FAILURE = 910, c"CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE", c"the graph update was not performed because it included changes which violated constraints specific to instantiated graph update";
    /// External device error.
    EXTERNAL_DEVICE = 911, c"CUDA_ERROR_EXTERNAL_DEVICE", c"an async error has occured in external entity outside of CUDA";
    /// Cluster misconfiguration.
    INVALID_CLUSTER_SIZE = 912, c"CUDA_ERROR_INVALID_CLUSTER_SIZE", c"a kernel launch error has occurred due to cluster misconfiguration";
    /// The function is not loaded.
    FUNCTION_NOT_LOADED = 913, c"CUDA_ERROR_FUNCTION_NOT_LOADED", c"the function handle is not loaded when calling an API that requires a loaded function";
    /// Invalid resource type.
    INVALID_RESOURCE_TYPE = 914, c"CUDA_ERROR_INVALID_RESOURCE_TYPE", c"one or more resources passed in are not valid resource types for the operation";
    /// Invalid resource configuration.
    INVALID_RESOURCE_CONFIGURATION = 915, c"CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION", c"one or more resources are insufficient or non-applicable for the operation";
    /// Key rotation error.
    KEY_ROTATION = 916, c"CUDA_ERROR_KEY_ROTATION", c"an error happened during the key rotation sequence";
    /// The stream is detached (CUDA 13.1). String not verified against a real driver.
    STREAM_DETACHED = 917, c"CUDA_ERROR_STREAM_DETACHED", c"operation not permitted on a detached stream";
    /// Graph recapture failed (CUDA 13.3). String not verified against a real driver.
    GRAPH_RECAPTURE_FAILURE = 918, c"CUDA_ERROR_GRAPH_RECAPTURE_FAILURE", c"graph recapture failed and had to be terminated";
    /// Unknown internal error.
    UNKNOWN = 999, c"CUDA_ERROR_UNKNOWN", c"unknown error";
}

impl CuError {
    /// The numeric `CUresult`.
    pub const fn code(self) -> u32 {
        self.0.get()
    }

    /// The error for a non-zero code (any value, known or not); `None` for 0.
    pub const fn from_code(code: u32) -> Option<CuError> {
        match NonZeroU32::new(code) {
            Some(code) => Some(CuError(code)),
            None => None,
        }
    }

    /// Whether this error poisons the context it happened in (NVIDIA's "sticky" errors:
    /// every later call on that context returns it until the context is destroyed/reset).
    pub fn is_sticky(self) -> bool {
        matches!(self.code(), 700 | 702 | 710 | 714..=719 | 721)
    }
}

/// The `CUresult` of a backend's run-time error.
pub fn from_device(err: &backend_api::DeviceError) -> CuError {
    use backend_api::DeviceError as E;
    match err {
        E::OutOfMemory => CuError::OUT_OF_MEMORY,
        E::IllegalAddress => CuError::ILLEGAL_ADDRESS,
        E::LaunchFailed => CuError::LAUNCH_FAILED,
        E::IllegalInstruction => CuError::ILLEGAL_INSTRUCTION,
        E::Assert => CuError::ASSERT,
        E::OutOfResources => CuError::LAUNCH_OUT_OF_RESOURCES,
        E::NotSupported(_) => CuError::NOT_SUPPORTED,
    }
}

/// `CUresult` of a whole result: 0 for `Ok`, the error code otherwise.
pub fn result_code<T>(result: &CuResult<T>) -> u32 {
    match result {
        Ok(_) => 0,
        Err(e) => e.code(),
    }
}

fn lookup(code: u32) -> Option<&'static (u32, &'static CStr, &'static CStr)> {
    ERROR_TABLE.iter().find(|entry| entry.0 == code)
}

/// `cuGetErrorName`: the enumerator's name (`"CUDA_ERROR_INVALID_VALUE"`), `None` for
/// codes the CUDA 13 headers do not define.
pub fn name(code: u32) -> Option<&'static CStr> {
    lookup(code).map(|entry| entry.1)
}

/// `cuGetErrorString`: NVIDIA's description (`"invalid argument"`), `None` for unknown codes.
pub fn description(code: u32) -> Option<&'static CStr> {
    lookup(code).map(|entry| entry.2)
}

/// Every known code, 0 included, in increasing order.
pub fn all_codes() -> impl Iterator<Item = u32> {
    ERROR_TABLE.iter().map(|entry| entry.0)
}

impl fmt::Debug for CuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match name(self.code()) {
            Some(n) => write!(f, "{}({})", n.to_string_lossy(), self.code()),
            None => write!(f, "CUresult({})", self.code()),
        }
    }
}

impl fmt::Display for CuError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match description(self.code()) {
            Some(d) => write!(f, "{} ({:?})", d.to_string_lossy(), self),
            None => write!(f, "unknown CUresult {}", self.code()),
        }
    }
}

impl std::error::Error for CuError {}

#[cfg(test)]
mod tests {
    use super::*;

    /// (code, cuGetErrorName, cuGetErrorString) for codes programs commonly print.
    const CASES: &[(u32, &str, &str)] = &[
        (0, "CUDA_SUCCESS", "no error"),
        (1, "CUDA_ERROR_INVALID_VALUE", "invalid argument"),
        (2, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory"),
        (3, "CUDA_ERROR_NOT_INITIALIZED", "initialization error"),
        (4, "CUDA_ERROR_DEINITIALIZED", "driver shutting down"),
        (34, "CUDA_ERROR_STUB_LIBRARY", "CUDA driver is a stub library"),
        (100, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected"),
        (101, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal"),
        (200, "CUDA_ERROR_INVALID_IMAGE", "device kernel image is invalid"),
        (201, "CUDA_ERROR_INVALID_CONTEXT", "invalid device context"),
        (209, "CUDA_ERROR_NO_BINARY_FOR_GPU", "no kernel image is available for execution on the device"),
        (218, "CUDA_ERROR_INVALID_PTX", "a PTX JIT compilation failed"),
        (301, "CUDA_ERROR_FILE_NOT_FOUND", "file not found"),
        (400, "CUDA_ERROR_INVALID_HANDLE", "invalid resource handle"),
        (401, "CUDA_ERROR_ILLEGAL_STATE", "the operation cannot be performed in the present state"),
        (500, "CUDA_ERROR_NOT_FOUND", "named symbol not found"),
        (600, "CUDA_ERROR_NOT_READY", "device not ready"),
        (700, "CUDA_ERROR_ILLEGAL_ADDRESS", "an illegal memory access was encountered"),
        (701, "CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES", "too many resources requested for launch"),
        (709, "CUDA_ERROR_CONTEXT_IS_DESTROYED", "context is destroyed"),
        (710, "CUDA_ERROR_ASSERT", "device-side assert triggered"),
        (719, "CUDA_ERROR_LAUNCH_FAILED", "unspecified launch failure"),
        (720, "CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE", "too many blocks in cooperative launch"),
        (800, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted"),
        (801, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported"),
        (999, "CUDA_ERROR_UNKNOWN", "unknown error"),
    ];

    #[test]
    fn names_and_strings() {
        for &(code, n, d) in CASES {
            assert_eq!(name(code).unwrap().to_str().unwrap(), n, "name of {code}");
            assert_eq!(description(code).unwrap().to_str().unwrap(), d, "string of {code}");
        }
    }

    #[test]
    fn unknown_codes_have_no_name() {
        for code in [9, 35, 203, 299, 403, 601, 706, 707, 722, 813, 919, 998, 1000, u32::MAX] {
            assert_eq!(name(code), None, "{code}");
            assert_eq!(description(code), None, "{code}");
        }
    }

    #[test]
    fn table_is_sorted_unique_and_consistent() {
        let codes: Vec<u32> = all_codes().collect();
        assert!(codes.windows(2).all(|w| w[0] < w[1]));
        assert_eq!(codes.len(), 103);
        for code in codes {
            let n = name(code).unwrap().to_str().unwrap();
            assert!(n.starts_with("CUDA_"), "{n}");
            assert!(!description(code).unwrap().to_bytes().is_empty());
        }
        assert_eq!(CuError::INVALID_PTX.code(), 218);
        assert_eq!(CuError::from_code(0), None);
        assert_eq!(format!("{:?}", CuError::NOT_FOUND), "CUDA_ERROR_NOT_FOUND(500)");
    }
}
