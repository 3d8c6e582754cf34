//! The part of ROCr's C API we use, resolved at run time from `libhsa-runtime64.so.1`
//! (HSA Runtime Programmer's Reference 1.2, plus AMD's `hsa_ext_amd.h` extensions).
//!
//! No link-time dependency: [`Hsa::open`] loads the library with `libloading` and looks
//! every function up; a missing library or symbol is an error the caller turns into
//! "no AMD devices".

#![allow(non_camel_case_types)]

use libloading::Library;
use std::ffi::c_void;

pub type hsa_status_t = u32;

/// Opaque handles (`hsa_agent_t`, `hsa_signal_t`...): one `u64` each.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub struct Handle(pub u64);

pub type Agent = Handle;
pub type Signal = Handle;
pub type MemoryPool = Handle;
pub type Executable = Handle;
pub type CodeObjectReader = Handle;
pub type ExecutableSymbol = Handle;

/// `hsa_queue_t` (64-bit model).
#[repr(C)]
#[derive(Debug)]
pub struct Queue {
    pub queue_type: u32,
    pub features: u32,
    pub base_address: *mut c_void,
    pub doorbell_signal: Signal,
    pub size: u32,
    pub reserved1: u32,
    pub id: u64,
}

pub const STATUS_SUCCESS: hsa_status_t = 0;
pub const STATUS_INFO_BREAK: hsa_status_t = 1;

// hsa_agent_info_t
pub const AGENT_INFO_NAME: u32 = 0;
pub const AGENT_INFO_PROFILE: u32 = 4;
pub const AGENT_INFO_WAVEFRONT_SIZE: u32 = 6;
pub const AGENT_INFO_WORKGROUP_MAX_DIM: u32 = 7;
pub const AGENT_INFO_WORKGROUP_MAX_SIZE: u32 = 8;
pub const AGENT_INFO_QUEUE_MAX_SIZE: u32 = 14;
pub const AGENT_INFO_DEVICE: u32 = 17;
pub const AGENT_INFO_CACHE_SIZE: u32 = 18;
pub const DEVICE_TYPE_GPU: u32 = 1;
// hsa_amd_agent_info_t
pub const AMD_AGENT_INFO_COMPUTE_UNIT_COUNT: u32 = 0xA002;
pub const AMD_AGENT_INFO_MAX_CLOCK_FREQUENCY: u32 = 0xA003;
pub const AMD_AGENT_INFO_BDFID: u32 = 0xA006;
pub const AMD_AGENT_INFO_MEMORY_WIDTH: u32 = 0xA007;
pub const AMD_AGENT_INFO_MEMORY_MAX_FREQUENCY: u32 = 0xA008;
pub const AMD_AGENT_INFO_PRODUCT_NAME: u32 = 0xA009;
pub const AMD_AGENT_INFO_MAX_WAVES_PER_CU: u32 = 0xA00A;
pub const AMD_AGENT_INFO_NUM_SIMDS_PER_CU: u32 = 0xA00B;
pub const AMD_AGENT_INFO_DOMAIN: u32 = 0xA00F;
pub const AMD_AGENT_INFO_UUID: u32 = 0xA011;
// hsa_amd_memory_pool_info_t and its values
pub const POOL_INFO_SEGMENT: u32 = 0;
pub const POOL_INFO_GLOBAL_FLAGS: u32 = 1;
pub const POOL_INFO_SIZE: u32 = 2;
pub const POOL_INFO_RUNTIME_ALLOC_ALLOWED: u32 = 5;
pub const SEGMENT_GLOBAL: u32 = 0;
pub const POOL_FLAG_KERNARG_INIT: u32 = 1;
pub const POOL_FLAG_FINE_GRAINED: u32 = 2;
pub const POOL_FLAG_COARSE_GRAINED: u32 = 4;
// hsa_amd_agent_memory_pool_info_t: its value is an hsa_amd_memory_pool_access_t
pub const AGENT_POOL_INFO_ACCESS: u32 = 0;
// hsa_executable_symbol_info_t
pub const SYMBOL_INFO_VARIABLE_SIZE: u32 = 9;
pub const SYMBOL_INFO_KERNEL_KERNARG_SEGMENT_SIZE: u32 = 11;
pub const SYMBOL_INFO_KERNEL_GROUP_SEGMENT_SIZE: u32 = 13;
pub const SYMBOL_INFO_KERNEL_PRIVATE_SEGMENT_SIZE: u32 = 14;
pub const SYMBOL_INFO_VARIABLE_ADDRESS: u32 = 21;
pub const SYMBOL_INFO_KERNEL_OBJECT: u32 = 22;
// signals and queues
pub const SIGNAL_CONDITION_LT: u32 = 2;
pub const WAIT_STATE_BLOCKED: u32 = 0;
pub const QUEUE_TYPE_SINGLE: u32 = 1;
pub const SYSTEM_INFO_TIMESTAMP_FREQUENCY: u32 = 3;
pub const DEFAULT_FLOAT_ROUNDING_MODE_DEFAULT: u32 = 0;

pub type AgentCallback = unsafe extern "C" fn(Agent, *mut c_void) -> hsa_status_t;
pub type PoolCallback = unsafe extern "C" fn(MemoryPool, *mut c_void) -> hsa_status_t;
pub type QueueCallback = unsafe extern "C" fn(hsa_status_t, *mut Queue, *mut c_void);

/// `hsa_amd_system_event_callback_t`.
pub type SystemEventCallback = unsafe extern "C" fn(*const crate::fault::Event, *mut c_void) -> hsa_status_t;

macro_rules! api {
    (required { $($name:ident : fn($($arg:ty),*) -> $ret:ty;)* } optional { $($opt:ident : fn($($oarg:ty),*) -> $oret:ty;)* }) => {
        /// ROCr's entry points, resolved from the library this holds.
        pub struct Hsa {
            _lib: Library,
            $(pub $name: unsafe extern "C" fn($($arg),*) -> $ret,)*
            $(pub $opt: Option<unsafe extern "C" fn($($oarg),*) -> $oret>,)*
        }

        impl Hsa {
            /// Load `path` and resolve every entry point.
            pub fn open(path: &str) -> Result<Hsa, String> {
                // SAFETY: loading ROCr runs its initializers, which only set up its own state.
                let lib = unsafe { Library::new(path) }.map_err(|e| e.to_string())?;
                // SAFETY: each symbol is looked up by its C name and given its C signature
                // from hsa.h / hsa_ext_amd.h.
                unsafe {
                    Ok(Hsa {
                        $($name: *lib.get(concat!(stringify!($name), "\0").as_bytes()).map_err(|e| e.to_string())?,)*
                        $($opt: lib.get(concat!(stringify!($opt), "\0").as_bytes()).ok().map(|f| *f),)*
                        _lib: lib,
                    })
                }
            }
        }
    };
}

api! {
    required {
        hsa_init: fn() -> hsa_status_t;
        hsa_shut_down: fn() -> hsa_status_t;
        hsa_status_string: fn(hsa_status_t, *mut *const libc::c_char) -> hsa_status_t;
        hsa_system_get_info: fn(u32, *mut c_void) -> hsa_status_t;
        hsa_iterate_agents: fn(AgentCallback, *mut c_void) -> hsa_status_t;
        hsa_agent_get_info: fn(Agent, u32, *mut c_void) -> hsa_status_t;
        hsa_amd_agent_iterate_memory_pools: fn(Agent, PoolCallback, *mut c_void) -> hsa_status_t;
        hsa_amd_memory_pool_get_info: fn(MemoryPool, u32, *mut c_void) -> hsa_status_t;
        hsa_amd_memory_pool_allocate: fn(MemoryPool, usize, u32, *mut *mut c_void) -> hsa_status_t;
        hsa_amd_memory_pool_free: fn(*mut c_void) -> hsa_status_t;
        hsa_amd_agents_allow_access: fn(u32, *const Agent, *const u32, *const c_void) -> hsa_status_t;
        hsa_amd_memory_async_copy: fn(*mut c_void, Agent, *const c_void, Agent, usize, u32, *const Signal, Signal) -> hsa_status_t;
        hsa_amd_memory_fill: fn(*mut c_void, u32, usize) -> hsa_status_t;
        hsa_queue_create: fn(Agent, u32, u32, Option<QueueCallback>, *mut c_void, u32, u32, *mut *mut Queue) -> hsa_status_t;
        hsa_queue_destroy: fn(*mut Queue) -> hsa_status_t;
        hsa_queue_add_write_index_screlease: fn(*const Queue, u64) -> u64;
        hsa_queue_load_read_index_scacquire: fn(*const Queue) -> u64;
        hsa_signal_create: fn(i64, u32, *const Agent, *mut Signal) -> hsa_status_t;
        hsa_signal_destroy: fn(Signal) -> hsa_status_t;
        hsa_signal_store_screlease: fn(Signal, i64) -> ();
        hsa_signal_wait_scacquire: fn(Signal, u32, i64, u64, u32) -> i64;
        hsa_code_object_reader_create_from_memory: fn(*const c_void, usize, *mut CodeObjectReader) -> hsa_status_t;
        hsa_code_object_reader_destroy: fn(CodeObjectReader) -> hsa_status_t;
        hsa_executable_create_alt: fn(u32, u32, *const libc::c_char, *mut Executable) -> hsa_status_t;
        hsa_executable_load_agent_code_object: fn(Executable, Agent, CodeObjectReader, *const libc::c_char, *mut Handle) -> hsa_status_t;
        hsa_executable_freeze: fn(Executable, *const libc::c_char) -> hsa_status_t;
        hsa_executable_destroy: fn(Executable) -> hsa_status_t;
        hsa_executable_get_symbol_by_name: fn(Executable, *const libc::c_char, *const Agent, *mut ExecutableSymbol) -> hsa_status_t;
        hsa_executable_symbol_get_info: fn(ExecutableSymbol, u32, *mut c_void) -> hsa_status_t;
    }
    optional {
        hsa_amd_register_system_event_handler: fn(Option<SystemEventCallback>, *mut c_void) -> hsa_status_t;
        hsa_amd_agent_memory_pool_get_info: fn(Agent, MemoryPool, u32, *mut c_void) -> hsa_status_t;
    }
}

impl Hsa {
    /// ROCr's text for a status, or its number.
    pub fn status_text(&self, status: hsa_status_t) -> String {
        let mut s: *const libc::c_char = std::ptr::null();
        // SAFETY: ROCr writes a pointer to a static string.
        let ok = unsafe { (self.hsa_status_string)(status, &mut s) } == STATUS_SUCCESS && !s.is_null();
        if ok {
            // SAFETY: a NUL-terminated static string from ROCr.
            unsafe { std::ffi::CStr::from_ptr(s) }.to_string_lossy().into_owned()
        } else {
            format!("HSA status {status:#x}")
        }
    }
}
