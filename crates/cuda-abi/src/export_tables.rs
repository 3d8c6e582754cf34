//! `cuGetExportTable`: the private function tables cudart asks the driver for by UUID.
//!
//! The tables and what each used slot must do are facts measured from cudart 12/13
//! (`shared/facts/cudart-driver-contract.md`); UUIDs are listed in memory byte order.
//! Slot 0 of every table holds the table's size in bytes, except CONTEXT_LOCAL_STORAGE,
//! whose slot 0 is a function. Slots with no known duty are success no-ops. An unknown
//! UUID, and the optional `f8cff951...` table, answer `CUDA_ERROR_INVALID_VALUE`.
//!
//! | table | slots that do something |
//! |---|---|
//! | CUDART_INTERFACE (13 slots) | 2: the primary context handle, without retaining it |
//! | TOOLS_RUNTIME_CALLBACK_HOOKS | 2 and 6: a zeroed static buffer and its size |
//! | TOOLS_TLS, `21318c60...` | none (the size slot only) |
//! | CONTEXT_LOCAL_STORAGE | 0 put, 1 delete, 2 get (the driver's CLS) |
//! | CONTEXT_CHECKS | 2 writes 0 to its out-argument; 3 succeeds |
//! | INTEGRITY_CHECK | 1: the hash of `integrity.rs` |

use std::cell::UnsafeCell;
use std::ffi::{c_uint, c_void};

use cuda_driver::{ClsDestructor, CtxHandle, CuError};

use crate::boundary::{export, guard, read_in, Out};
use crate::exports::{ctx_handle, ctx_raw};
use crate::integrity::{integrity_hash, DeviceIdentity, IntegrityInput};
use crate::types::{CUcontext, CUdevice, CUresult, CUuuid};

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
    /// slots not listed are [`noop`]).
    const fn sized(funcs: &[(usize, *const ())]) -> Table<N> {
        let mut slots = [Slot { func: noop as *const () }; N];
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

/// A slot with no known duty: succeed, touch nothing.
extern "C" fn noop() -> CUresult {
    CUresult::SUCCESS
}

const fn uuid(bytes: [u8; 16]) -> [u8; 16] {
    bytes
}

pub const UUID_UNNAMED_F8CF: [u8; 16] = uuid([0xf8, 0xcf, 0xf9, 0x51, 0x21, 0x46, 0x8b, 0x4e, 0xb9, 0xe2, 0xfb, 0x46, 0x9e, 0x7c, 0x0d, 0xd9]);
pub const UUID_CUDART_INTERFACE: [u8; 16] = uuid([0x6b, 0xd5, 0xfb, 0x6c, 0x5b, 0xf4, 0xe7, 0x4a, 0x89, 0x87, 0xd9, 0x39, 0x12, 0xfd, 0x9d, 0xf9]);
pub const UUID_TOOLS_RUNTIME_CALLBACK_HOOKS: [u8; 16] =
    uuid([0xa0, 0x94, 0x79, 0x8c, 0x2e, 0x74, 0x2e, 0x74, 0x93, 0xf2, 0x08, 0x00, 0x20, 0x0c, 0x0a, 0x66]);
pub const UUID_TOOLS_TLS: [u8; 16] = uuid([0x42, 0xd8, 0x5a, 0x81, 0x23, 0xf6, 0xcb, 0x47, 0x82, 0x98, 0xf6, 0xe7, 0x8a, 0x3a, 0xec, 0xdc]);
pub const UUID_UNNAMED_2131: [u8; 16] = uuid([0x21, 0x31, 0x8c, 0x60, 0x97, 0x14, 0x32, 0x48, 0x8c, 0xa6, 0x41, 0xff, 0x73, 0x24, 0xc8, 0xf2]);
pub const UUID_CONTEXT_LOCAL_STORAGE: [u8; 16] =
    uuid([0xc6, 0x93, 0x33, 0x6e, 0x11, 0x21, 0xdf, 0x11, 0xa8, 0xc3, 0x68, 0xf3, 0x55, 0xd8, 0x95, 0x93]);
pub const UUID_CONTEXT_CHECKS: [u8; 16] = uuid([0x26, 0x3e, 0x88, 0x60, 0x7c, 0xd2, 0x61, 0x43, 0x92, 0xf6, 0xbb, 0xd5, 0x00, 0x6d, 0xfa, 0x7e]);
pub const UUID_INTEGRITY_CHECK: [u8; 16] = uuid([0xd4, 0x08, 0x20, 0x55, 0xbd, 0xe6, 0x70, 0x4b, 0x8d, 0x34, 0xba, 0x12, 0x3c, 0x66, 0xe1, 0xf2]);

pub static CUDART_INTERFACE: Table<13> = Table::sized(&[(2, cudart_primary_context as *const ())]);
pub static TOOLS_RUNTIME_CALLBACK_HOOKS: Table<7> = Table::sized(&[(2, hooks_buffer_2 as *const ()), (6, hooks_buffer_6 as *const ())]);
pub static TOOLS_TLS: Table<1> = Table::sized(&[]);
pub static UNNAMED_2131: Table<1> = Table::sized(&[]);
pub static CONTEXT_LOCAL_STORAGE: Table<3> =
    Table([Slot { func: cls_put as *const () }, Slot { func: cls_delete as *const () }, Slot { func: cls_get as *const () }]);
pub static CONTEXT_CHECKS: Table<4> = Table::sized(&[(2, context_check as *const ()), (3, context_check_pointer as *const ())]);
pub static INTEGRITY_CHECK: Table<2> = Table::sized(&[(1, integrity_check as *const ())]);

/// The table for `id`, if this library provides one.
pub fn table_for(id: &[u8; 16]) -> Option<*const c_void> {
    Some(match *id {
        UUID_CUDART_INTERFACE => CUDART_INTERFACE.as_ptr(),
        UUID_TOOLS_RUNTIME_CALLBACK_HOOKS => TOOLS_RUNTIME_CALLBACK_HOOKS.as_ptr(),
        UUID_TOOLS_TLS => TOOLS_TLS.as_ptr(),
        UUID_UNNAMED_2131 => UNNAMED_2131.as_ptr(),
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
            let uuid: String = bytes.iter().enumerate().map(|(k, b)| format!("{}{b:02x}", if matches!(k, 4 | 6 | 8 | 10) { "-" } else { "" })).collect();
            cuda_driver::diag::fail(CuError::INVALID_VALUE, format_args!("cuGetExportTable: no export table {uuid}"))
        })?;
        out.write(table);
        Ok(())
    }
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
