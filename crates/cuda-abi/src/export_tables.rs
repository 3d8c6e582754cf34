//! `cuGetExportTable`: the private function tables cudart asks the driver for by UUID.
//!
//! The tables and what each used slot must do are facts measured from cudart 12/13
//! (`shared/facts/cudart-driver-contract.md`) and, for the slots NVIDIA's math libraries
//! call, observed by running cuBLAS/cuBLASLt 13, cuFFT 12, cuSPARSE 12, cuRAND 10 and
//! cuDNN 9 on this driver (`docs/corpus/nvidia-libs.md`: the arguments each slot gets,
//! what the caller does with its answer); UUIDs are listed in memory byte order.
//! Slot 0 of every table holds the table's size in bytes, except CONTEXT_LOCAL_STORAGE,
//! whose slot 0 is a function. Slots with no known duty are success no-ops that say they
//! were called (and with what) when `LIBCUDA_LOG` is set. An unknown UUID, and the
//! optional `f8cff951...` table, answer `CUDA_ERROR_INVALID_VALUE`.
//!
//! | table | slots that do something |
//! |---|---|
//! | CUDART_INTERFACE (13 slots) | 2: the primary context handle, without retaining it |
//! | TOOLS_RUNTIME_CALLBACK_HOOKS | 2 and 6: a zeroed static buffer and its size |
//! | TOOLS_TLS (16 slots) | 2: the current context (cuBLASLt, cuBLAS) |
//! | `21318c60...` (96 slots) | 4: a context's id (cuBLASLt); 51: the stream a handle means, 39: a stream's id (cuBLAS's per-stream workspaces) |
//! | `6e163fbe...` (96 slots; cuFFT wants at least 8) | 7: visit each function of a module, answer how many (cuFFT takes its one-kernel modules' kernel) |
//! | CONTEXT_LOCAL_STORAGE | 0 put, 1 delete, 2 get (the driver's CLS) |
//! | CONTEXT_CHECKS | 2 writes 0 to its out-argument; 3 succeeds |
//! | INTEGRITY_CHECK | 1: the hash of `integrity.rs` |
//!
//! The sizes of TOOLS_TLS, `21318c60` and `6e163fbe` are not NVIDIA's (unknown): they
//! are large enough for every slot the libraries were seen to call.

use std::cell::UnsafeCell;
use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::{ClsDestructor, CtxHandle, CuError, StreamHandle};

use crate::boundary::{export, guard, read_in, Out};
use crate::exports::{ctx_handle, ctx_raw, module_handle, stream_handle};
use crate::integrity::{integrity_hash, DeviceIdentity, IntegrityInput};
use crate::types::{CUcontext, CUdevice, CUfunction, CUmodule, CUresult, CUstream, CUuuid};

/// One slot of a table: its size (slot 0) or a function address.
#[repr(C)]
#[derive(Clone, Copy)]
pub union Slot {
    pub size: usize,
    pub func: *const (),
}

/// A table handed to cudart: `N` pointer-sized slots.
#[repr(C)]
pub struct Table<const N: usize>(pub [Slot; N]);

// SAFETY: the tables are immutable statics holding integers and function addresses.
unsafe impl<const N: usize> Sync for Table<N> {}

impl<const N: usize> Table<N> {
    /// A table whose slot 0 is its size and whose other slots are `funcs` (by index;
    /// slots not listed are `unknown`, the table's [`unknown_slot`]s).
    const fn sized(unknown: &[Slot; SLOTS_MAX], funcs: &[(usize, *const ())]) -> Table<N> {
        let mut slots = [Slot { size: 0 }; N];
        let mut i = 1;
        while i < N {
            slots[i] = unknown[i];
            i += 1;
        }
        slots[0] = Slot { size: N * std::mem::size_of::<Slot>() };
        let mut i = 0;
        while i < funcs.len() {
            slots[funcs[i].0] = Slot { func: funcs[i].1 };
            i += 1;
        }
        Table(slots)
    }

    /// The table's address, as handed to C.
    pub fn as_ptr(&'static self) -> *const c_void {
        (self as *const Self).cast()
    }
}

/// The most slots a table here has.
const SLOTS_MAX: usize = 96;

/// Names of the tables, indexed by the `T` of [`unknown_slot`].
const TABLE_NAMES: [&str; 7] =
    ["CUDART_INTERFACE", "TOOLS_RUNTIME_CALLBACK_HOOKS", "TOOLS_TLS", "21318c60", "CONTEXT_CHECKS", "INTEGRITY_CHECK", "6e163fbe"];

/// Slot `S` of table `T` (an index of [`TABLE_NAMES`]), a slot with no known duty:
/// succeed, touch nothing. With `LIBCUDA_LOG` set it says it was called, and with which
/// first four arguments (whatever the caller passed in those registers), so that a
/// library calling a slot we have not implemented shows up in the log.
extern "C" fn unknown_slot<const T: usize, const S: usize>(a0: usize, a1: usize, a2: usize, a3: usize) -> CUresult {
    cuda_driver::diag!("export table {} slot {S} (no known duty) called ({a0:#x}, {a1:#x}, {a2:#x}, {a3:#x}): success", TABLE_NAMES[T]);
    CUresult::SUCCESS
}

/// `[unknown_slot::<T, 0>, unknown_slot::<T, 1>, ...]`, [`SLOTS_MAX`] of them.
macro_rules! unknown_slots {
    ($t:expr) => {
        unknown_slots!(@ $t; 0 1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63
            64 65 66 67 68 69 70 71 72 73 74 75 76 77 78 79 80 81 82 83 84 85 86 87 88 89 90 91 92 93 94 95)
    };
    (@ $t:expr; $($s:literal)*) => {
        [$(Slot { func: unknown_slot::<{ $t }, $s> as *const () }),*]
    };
}

const UNKNOWN_CUDART_INTERFACE: [Slot; SLOTS_MAX] = unknown_slots!(0);
const UNKNOWN_HOOKS: [Slot; SLOTS_MAX] = unknown_slots!(1);
const UNKNOWN_TOOLS_TLS: [Slot; SLOTS_MAX] = unknown_slots!(2);
const UNKNOWN_2131: [Slot; SLOTS_MAX] = unknown_slots!(3);
const UNKNOWN_CONTEXT_CHECKS: [Slot; SLOTS_MAX] = unknown_slots!(4);
const UNKNOWN_INTEGRITY_CHECK: [Slot; SLOTS_MAX] = unknown_slots!(5);
const UNKNOWN_6E16: [Slot; SLOTS_MAX] = unknown_slots!(6);

const fn uuid(bytes: [u8; 16]) -> [u8; 16] {
    bytes
}

pub const UUID_UNNAMED_F8CF: [u8; 16] = uuid([0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9]);
pub const UUID_CUDART_INTERFACE: [u8; 16] = uuid([0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9]);
pub const UUID_TOOLS_RUNTIME_CALLBACK_HOOKS: [u8; 16] =
    uuid([0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66]);
pub const UUID_TOOLS_TLS: [u8; 16] = uuid([0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc]);
pub const UUID_UNNAMED_2131: [u8; 16] = uuid([0x21, 0x31, 0x8c, 0x60, 0x97, 0x14, 0x32, 0x48, 0x8c, 0xa6, 0x41, 0xff, 0x73, 0x24, 0xc8, 0xf2]);
pub const UUID_UNNAMED_6E16: [u8; 16] = uuid([0x6e, 0x16, 0x3f, 0xbe, 0xb9, 0x58, 0x44, 0x4d, 0x83, 0x5c, 0xe1, 0x82, 0xaf, 0xf1, 0x99, 0x1e]);
pub const UUID_CONTEXT_LOCAL_STORAGE: [u8; 16] =
    uuid([0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93]);
pub const UUID_CONTEXT_CHECKS: [u8; 16] = uuid([0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e]);
pub const UUID_INTEGRITY_CHECK: [u8; 16] = uuid([0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2]);

pub static CUDART_INTERFACE: Table<13> = Table::sized(&UNKNOWN_CUDART_INTERFACE, &[(2, cudart_primary_context as *const ())]);
pub static TOOLS_RUNTIME_CALLBACK_HOOKS: Table<7> =
    Table::sized(&UNKNOWN_HOOKS, &[(2, hooks_buffer_2 as *const ()), (6, hooks_buffer_6 as *const ())]);
pub static TOOLS_TLS: Table<16> = Table::sized(&UNKNOWN_TOOLS_TLS, &[(2, tools_tls_current_context as *const ())]);
pub static UNNAMED_2131: Table<SLOTS_MAX> = Table::sized(
    &UNKNOWN_2131,
    &[(4, unnamed_2131_context_id as *const ()), (39, unnamed_2131_stream_id as *const ()), (51, unnamed_2131_resolve_stream as *const ())],
);
pub static UNNAMED_6E16: Table<SLOTS_MAX> = Table::sized(&UNKNOWN_6E16, &[(7, unnamed_6e16_for_each_function as *const ())]);
pub static CONTEXT_LOCAL_STORAGE: Table<3> =
    Table([Slot { func: cls_put as *const () }, Slot { func: cls_delete as *const () }, Slot { func: cls_get as *const () }]);
pub static CONTEXT_CHECKS: Table<4> =
    Table::sized(&UNKNOWN_CONTEXT_CHECKS, &[(2, context_check as *const ()), (3, context_check_pointer as *const ())]);
pub static INTEGRITY_CHECK: Table<2> = Table::sized(&UNKNOWN_INTEGRITY_CHECK, &[(1, integrity_check as *const ())]);

/// The table for `id`, if this library provides one.
pub fn table_for(id: &[u8; 16]) -> Option<*const c_void> {
    Some(match *id {
        UUID_CUDART_INTERFACE => CUDART_INTERFACE.as_ptr(),
        UUID_TOOLS_RUNTIME_CALLBACK_HOOKS => TOOLS_RUNTIME_CALLBACK_HOOKS.as_ptr(),
        UUID_TOOLS_TLS => TOOLS_TLS.as_ptr(),
        UUID_UNNAMED_2131 => UNNAMED_2131.as_ptr(),
        UUID_UNNAMED_6E16 => UNNAMED_6E16.as_ptr(),
        UUID_CONTEXT_LOCAL_STORAGE => CONTEXT_LOCAL_STORAGE.as_ptr(),
        UUID_CONTEXT_CHECKS => CONTEXT_CHECKS.as_ptr(),
        UUID_INTEGRITY_CHECK => INTEGRITY_CHECK.as_ptr(),
        // Optional for cudart, and nothing is known of its slots: refusing is safer than
        // offering no-ops cudart might rely on.
        _ => return None,
    })
}

export! {
    /// `cuGetExportTable(const void** ppExportTable, const CUuuid* pExportTableId)`.
    fn cuGetExportTable(pp_export_table: *mut *const c_void, p_export_table_id: *const CUuuid) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, id) = unsafe { (Out::new(pp_export_table)?, read_in(p_export_table_id)?) };
        let bytes = id.bytes.map(|b| b as u8);
        let table = table_for(&bytes).ok_or_else(|| {
            cuda_driver::diag::fail(CuError::INVALID_VALUE, format_args!("cuGetExportTable: no export table {}", uuid_text(&bytes)))
        })?;
        cuda_driver::diag!("cuGetExportTable({}) -> {table:p}", uuid_text(&bytes));
        out.write(table);
        Ok(())
    }
}

/// A UUID as `8-4-4-4-12` hex digits of its bytes in memory order.
fn uuid_text(bytes: &[u8; 16]) -> String {
    bytes.iter().enumerate().map(|(k, b)| format!("{}{b:02x}", if matches!(k, 4 | 6 | 8 | 10) { "-" } else { "" })).collect()
}

// ---- CUDART_INTERFACE ---------------------------------------------------------------

/// Slot 2: `(CUcontext* out, CUdevice dev)`: the device's primary context handle,
/// neither retained nor made current (the handle `cuDevicePrimaryCtxRetain` returns).
unsafe extern "C" fn cudart_primary_context(out: *mut CUcontext, dev: CUdevice) -> CUresult {
    guard("CUDART_INTERFACE[2]", || {
        // SAFETY: NULL or writable, per cudart's use.
        let out = unsafe { Out::new(out) }?;
        out.write(ctx_raw(cuda_driver::driver()?.primary_ctx_handle(dev)?));
        Ok(())
    })
}

// ---- TOOLS_RUNTIME_CALLBACK_HOOKS ---------------------------------------------------

/// A zeroed buffer cudart may write into. Non-zero contents would switch on profiler
/// callbacks, so nothing here ever writes it.
#[repr(C, align(16))]
struct HookBuffer(UnsafeCell<[u8; HOOK_BUFFER_SIZE]>);

const HOOK_BUFFER_SIZE: usize = 4096;

// SAFETY: this library never reads or writes the buffer; it only hands out its address.
unsafe impl Sync for HookBuffer {}

static HOOK_BUFFER_2: HookBuffer = HookBuffer(UnsafeCell::new([0; HOOK_BUFFER_SIZE]));
static HOOK_BUFFER_6: HookBuffer = HookBuffer(UnsafeCell::new([0; HOOK_BUFFER_SIZE]));

/// Writes a buffer's address and size to cudart's out-pointers.
///
/// # Safety
/// `buf` and `size` are NULL or writable.
unsafe fn give_buffer(buffer: &'static HookBuffer, buf: *mut *mut c_void, size: *mut usize) -> CUresult {
    guard("TOOLS_RUNTIME_CALLBACK_HOOKS", || {
        // SAFETY: forwarded contract.
        let (buf, size) = unsafe { (Out::new(buf)?, Out::optional(size)) };
        buf.write(buffer.0.get().cast());
        if let Some(size) = size {
            size.write(HOOK_BUFFER_SIZE);
        }
        Ok(())
    })
}

/// Slot 2: `(void** buf, size_t* size)`.
unsafe extern "C" fn hooks_buffer_2(buf: *mut *mut c_void, size: *mut usize) -> CUresult {
    // SAFETY: as cudart calls it.
    unsafe { give_buffer(&HOOK_BUFFER_2, buf, size) }
}

/// Slot 6: `(void** buf, size_t* size)`.
unsafe extern "C" fn hooks_buffer_6(buf: *mut *mut c_void, size: *mut usize) -> CUresult {
    // SAFETY: as cudart calls it.
    unsafe { give_buffer(&HOOK_BUFFER_6, buf, size) }
}

// ---- TOOLS_TLS ----------------------------------------------------------------------

/// Slot 2: `(CUcontext* out)`: the calling thread's current context (NULL if none), as
/// `cuCtxGetCurrent`. cuBLASLt calls it first thing in `cublasLtCreate` and in each
/// matmul heuristic query, then hands the answer to `21318c60` slot 4.
unsafe extern "C" fn tools_tls_current_context(out: *mut CUcontext) -> CUresult {
    guard("TOOLS_TLS[2]", || {
        // SAFETY: NULL or writable, per cuBLASLt's use.
        let out = unsafe { Out::new(out) }?;
        out.write(ctx_raw(cuda_driver::driver()?.ctx_get_current()));
        Ok(())
    })
}

// ---- 21318c60 -----------------------------------------------------------------------

/// Slot 4: `(CUcontext ctx, u64* id)`: the context's unique id, as `cuCtxGetId` (NULL:
/// the current context). cuBLASLt passes it the context from TOOLS_TLS slot 2 and keys
/// its per-context state (a search tree of 64-bit keys) on the answer.
unsafe extern "C" fn unnamed_2131_context_id(ctx: CUcontext, id: *mut u64) -> CUresult {
    guard("21318c60[4]", || {
        // SAFETY: NULL or writable, per cuBLASLt's use.
        let out = unsafe { Out::new(id) }?;
        out.write(cuda_driver::driver()?.ctx_get_id(ctx_handle(ctx))?);
        Ok(())
    })
}

/// Slot 51: `(CUcontext ctx, CUstream stream, CUstream* out, int per_thread)`: the
/// stream a handle means in `ctx`. cuBLAS calls it before each routine's workspace lookup
/// with its handle's stream and `per_thread` = (stream == `CU_STREAM_PER_THREAD`), then
/// passes the answer to slot 39. Here a stream handle already names its stream, so the
/// answer is the handle itself (NULL, the legacy stream, stays NULL unless `per_thread`),
/// after checking it names a stream.
unsafe extern "C" fn unnamed_2131_resolve_stream(_ctx: CUcontext, stream: CUstream, out: *mut CUstream, per_thread: c_int) -> CUresult {
    guard("21318c60[51]", || {
        // SAFETY: NULL or writable, per cuBLAS's use.
        let out = unsafe { Out::new(out) }?;
        let handle = if stream.is_null() && per_thread != 0 { StreamHandle::PER_THREAD } else { stream_handle(stream) };
        cuda_driver::driver()?.stream_get_id(handle)?;
        out.write(handle.as_raw().cast());
        Ok(())
    })
}

/// Slot 39: `(CUcontext ctx, CUstream stream, u64* id)`: the stream's unique id, as
/// `cuStreamGetId`. cuBLAS keys its per-stream workspaces on it (a list of 64-bit ids in
/// the handle, searched before each routine).
unsafe extern "C" fn unnamed_2131_stream_id(_ctx: CUcontext, stream: CUstream, id: *mut u64) -> CUresult {
    guard("21318c60[39]", || {
        // SAFETY: NULL or writable, per cuBLAS's use.
        let out = unsafe { Out::new(id) }?;
        out.write(cuda_driver::driver()?.stream_get_id(stream_handle(stream))?);
        Ok(())
    })
}

// ---- 6e163fbe -----------------------------------------------------------------------

/// What slot 7 calls for each function of a module: `(void* user, CUfunction f)`.
type FunctionVisitor = Option<unsafe extern "C" fn(user: *mut c_void, function: CUfunction)>;

/// Slot 7: `int (CUcontext ctx, CUmodule module, visitor, void* user)`: calls
/// `visitor(user, f)` for each function `f` of the module, in module order, and returns
/// how many there were (0 if the module is not one). cuFFT checks that the table has at
/// least 8 slots, loads each of its kernels as a module of its own, and takes the module's
/// only kernel through this slot without naming it: its visitor stores `f` in `*user`,
/// and any answer but 1 fails the plan (`CUFFT_INTERNAL_ERROR`).
unsafe extern "C" fn unnamed_6e16_for_each_function(_ctx: CUcontext, module: CUmodule, visitor: FunctionVisitor, user: *mut c_void) -> c_int {
    let mut visited = 0;
    let res = guard("6e163fbe[7]", || {
        let driver = cuda_driver::driver()?;
        let module = module_handle(module);
        let count = driver.module_get_function_count(module)?;
        if count != 1 {
            cuda_driver::diag!("export table 6e163fbe slot 7: module {:#x} has {count} functions", module.as_raw() as usize);
        }
        let visitor = visitor.ok_or(CuError::INVALID_VALUE)?;
        for function in driver.module_enumerate_functions(module, count as usize)? {
            // SAFETY: the caller's visitor, called with the caller's argument.
            unsafe { visitor(user, function.as_raw().cast()) };
            visited += 1;
        }
        Ok(())
    });
    if res == CUresult::SUCCESS {
        visited
    } else {
        0
    }
}

// ---- CONTEXT_LOCAL_STORAGE ----------------------------------------------------------

/// A CLS destructor as cudart passes it: `(ctx, key, value)`.
type ClsDtor = Option<unsafe extern "C" fn(ctx: CUcontext, key: *mut c_void, value: *mut c_void)>;

/// Slot 0, put: `(CUcontext ctx, void* key, void* value, dtor)`. `ctx` NULL or -1 means
/// the current context (the driver decides).
unsafe extern "C" fn cls_put(ctx: CUcontext, key: *mut c_void, value: *mut c_void, dtor: ClsDtor) -> CUresult {
    guard("CONTEXT_LOCAL_STORAGE[0]", || {
        let dtor = dtor.map(|f| -> ClsDestructor {
            Box::new(move |ctx: CtxHandle, key: usize, value: usize| {
                // SAFETY: cudart's destructor, called once with what it stored.
                unsafe { f(ctx_raw(ctx), key as *mut c_void, value as *mut c_void) }
            })
        });
        cuda_driver::driver()?.cls_put(ctx_handle(ctx), key as usize, value as usize, dtor)
    })
}

/// Slot 1, delete: `(CUcontext ctx, void* key)`.
unsafe extern "C" fn cls_delete(ctx: CUcontext, key: *mut c_void) -> CUresult {
    guard("CONTEXT_LOCAL_STORAGE[1]", || cuda_driver::driver()?.cls_delete(ctx_handle(ctx), key as usize))
}

/// Slot 2, get: `(void** value, CUcontext ctx, void* key)`; a missing key answers
/// `CUDA_ERROR_INVALID_VALUE` (cudart's "miss").
unsafe extern "C" fn cls_get(value: *mut *mut c_void, ctx: CUcontext, key: *mut c_void) -> CUresult {
    guard("CONTEXT_LOCAL_STORAGE[2]", || {
        // SAFETY: NULL or writable, per cudart's use.
        let out = unsafe { Out::new(value) }?;
        out.write(cuda_driver::driver()?.cls_get(ctx_handle(ctx), key as usize)?);
        Ok(())
    })
}

// ---- CONTEXT_CHECKS -----------------------------------------------------------------

/// Slot 2: `(CUcontext ctx, u32* out, void**)`: writes 0 and succeeds.
unsafe extern "C" fn context_check(_ctx: CUcontext, out: *mut c_uint, _unused: *mut *mut c_void) -> CUresult {
    guard("CONTEXT_CHECKS[2]", || {
        // SAFETY: NULL or writable, per cudart's use.
        if let Some(out) = unsafe { Out::optional(out) } {
            out.write(0);
        }
        Ok(())
    })
}

/// Slot 3: `(void* p)`: succeeds.
extern "C" fn context_check_pointer(_p: *mut c_void) -> CUresult {
    CUresult::SUCCESS
}

// ---- INTEGRITY_CHECK ----------------------------------------------------------------

/// Slot 1: `(u32 rt_version, u64 unix_seconds, u8 out[16])`.
unsafe extern "C" fn integrity_check(rt_version: c_uint, unix_seconds: u64, out: *mut [u8; 16]) -> CUresult {
    guard("INTEGRITY_CHECK[1]", || {
        // SAFETY: NULL or writable for 16 bytes, per cudart's use.
        let out = unsafe { Out::new(out) }?;
        out.write(integrity_hash(&integrity_input(rt_version, unix_seconds)));
        Ok(())
    })
}

/// Gathers the hash's input from the process and from what the public API reports for
/// each device. Before `cuInit` there are no devices to report.
fn integrity_input(rt_version: u32, unix_seconds: u64) -> IntegrityInput {
    let devices = match cuda_driver::driver() {
        Ok(driver) => (0..driver.device_count()).filter_map(|dev| device_identity(driver, dev)).collect(),
        Err(_) => Vec::new(),
    };
    IntegrityInput {
        driver_version: cuda_driver::driver_version() as u32,
        rt_version,
        // SAFETY: getpid has no preconditions.
        pid: unsafe { libc::getpid() } as u32,
        // SAFETY: pthread_self has no preconditions. cudart truncates it to 32 bits.
        thread: unsafe { libc::pthread_self() } as u32,
        cudart_interface_table: CUDART_INTERFACE.as_ptr() as u64,
        integrity_table: INTEGRITY_CHECK.as_ptr() as u64,
        integrity_fn: integrity_check as *const () as u64,
        unix_seconds,
        devices,
    }
}

/// UUID and PCI domain/bus/device (attributes 50, 33, 34) of `dev`.
fn device_identity(driver: &cuda_driver::Driver, dev: CUdevice) -> Option<DeviceIdentity> {
    const PCI_BUS_ID: i32 = 33;
    const PCI_DEVICE_ID: i32 = 34;
    const PCI_DOMAIN_ID: i32 = 50;
    Some(DeviceIdentity {
        uuid: driver.device_uuid(dev).ok()?,
        pci_domain: driver.device_attribute(dev, PCI_DOMAIN_ID).ok()? as u32,
        pci_bus: driver.device_attribute(dev, PCI_BUS_ID).ok()? as u32,
        pci_device: driver.device_attribute(dev, PCI_DEVICE_ID).ok()? as u32,
    })
}

#[cfg(test)]
#[path = "tests/export_tables.rs"]
mod tests;
