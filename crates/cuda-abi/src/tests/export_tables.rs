//! Tests of `cuGetExportTable`: table sizes, UUID handling, and the slots cudart uses
//! that need no device.

use std::ffi::{c_uint, c_void};

use super::*;
use crate::integrity::integrity_hash;

fn get(uuid: [u8; 16]) -> (CUresult, *const c_void) {
    let id = CUuuid { bytes: uuid.map(|b| b as std::ffi::c_char) };
    let mut table: *const c_void = std::ptr::null();
    // SAFETY: valid out-pointer and UUID.
    let res = unsafe { cuGetExportTable(&mut table, &id) };
    (res, table)
}

/// Slot `i` of the table at `table`.
fn slot(table: *const c_void, i: usize) -> usize {
    // SAFETY: callers only read slots within the table's size.
    unsafe { table.cast::<usize>().add(i).read() }
}

#[test]
fn slot_zero_holds_the_table_size() {
    for (uuid, slots) in [
        (UUID_CUDART_INTERFACE, 13),
        (UUID_TOOLS_RUNTIME_CALLBACK_HOOKS, 7),
        (UUID_TOOLS_TLS, 16),
        (UUID_UNNAMED_2131, SLOTS_MAX),
        (UUID_UNNAMED_6E16, SLOTS_MAX),
        (UUID_CONTEXT_CHECKS, 4),
        (UUID_INTEGRITY_CHECK, 2),
    ] {
        let (res, table) = get(uuid);
        assert_eq!(res, CUresult::SUCCESS, "{uuid:02x?}");
        assert_eq!(slot(table, 0), slots * 8, "{uuid:02x?}");
        for i in 1..slots {
            assert_ne!(slot(table, i), 0, "slot {i} of {uuid:02x?} must be a function");
        }
    }
}

#[test]
fn slots_with_no_known_duty_succeed() {
    type Slot4 = extern "C" fn(usize, usize, usize, usize) -> CUresult;
    for (uuid, i) in [(UUID_TOOLS_TLS, 3), (UUID_UNNAMED_2131, 95), (UUID_UNNAMED_6E16, 1), (UUID_CUDART_INTERFACE, 12)] {
        let (_, table) = get(uuid);
        // SAFETY: an unknown slot takes four words and touches nothing.
        let f: Slot4 = unsafe { std::mem::transmute(slot(table, i)) };
        assert_eq!(f(1, 2, 3, 4), CUresult::SUCCESS);
    }
}

#[test]
fn context_local_storage_has_no_size_slot() {
    let (res, table) = get(UUID_CONTEXT_LOCAL_STORAGE);
    assert_eq!(res, CUresult::SUCCESS);
    assert_eq!(slot(table, 0), cls_put as *const () as usize);
    assert_eq!(slot(table, 1), cls_delete as *const () as usize);
    assert_eq!(slot(table, 2), cls_get as *const () as usize);
}

#[test]
fn unknown_and_optional_tables_are_refused() {
    assert_eq!(get([0x11; 16]), (CUresult::ERROR_INVALID_VALUE, std::ptr::null()));
    assert_eq!(get(UUID_UNNAMED_F8CF), (CUresult::ERROR_INVALID_VALUE, std::ptr::null()));
}

#[test]
fn null_arguments_are_invalid() {
    let id = CUuuid { bytes: UUID_TOOLS_TLS.map(|b| b as std::ffi::c_char) };
    let mut table: *const c_void = std::ptr::null();
    // SAFETY: NULL pointers are what is being tested.
    unsafe {
        assert_eq!(cuGetExportTable(std::ptr::null_mut(), &id), CUresult::ERROR_INVALID_VALUE);
        assert_eq!(cuGetExportTable(&mut table, std::ptr::null()), CUresult::ERROR_INVALID_VALUE);
    }
}

#[test]
fn callback_hooks_give_distinct_zeroed_buffers_of_at_least_1k() {
    let (_, table) = get(UUID_TOOLS_RUNTIME_CALLBACK_HOOKS);
    let mut seen = Vec::new();
    for i in [2, 6] {
        // SAFETY: slots 2 and 6 have this signature.
        let f: unsafe extern "C" fn(*mut *mut c_void, *mut usize) -> CUresult = unsafe { std::mem::transmute(slot(table, i)) };
        let (mut buf, mut size) = (std::ptr::null_mut(), 0usize);
        // SAFETY: valid out-pointers.
        assert_eq!(unsafe { f(&mut buf, &mut size) }, CUresult::SUCCESS);
        assert!(!buf.is_null() && size >= 1024);
        // SAFETY: the buffer is `size` readable bytes.
        let bytes = unsafe { std::slice::from_raw_parts(buf.cast::<u8>(), size) };
        assert!(bytes.iter().all(|&b| b == 0));
        seen.push(buf);
        // SAFETY: a NULL buffer pointer is refused, not written.
        assert_eq!(unsafe { f(std::ptr::null_mut(), &mut size) }, CUresult::ERROR_INVALID_VALUE);
    }
    assert_ne!(seen[0], seen[1]);
}

#[test]
fn context_checks_write_zero_and_succeed() {
    let (_, table) = get(UUID_CONTEXT_CHECKS);
    type Check = unsafe extern "C" fn(CUcontext, *mut c_uint, *mut *mut c_void) -> CUresult;
    type CheckPtr = extern "C" fn(*mut c_void) -> CUresult;
    // SAFETY: slot 2 and 3 signatures.
    let (check, check_ptr) = unsafe { (std::mem::transmute::<usize, Check>(slot(table, 2)), std::mem::transmute::<usize, CheckPtr>(slot(table, 3))) };
    let mut out: c_uint = 77;
    // SAFETY: valid out-pointer; the context is not dereferenced.
    assert_eq!(unsafe { check(std::ptr::null_mut(), &mut out, std::ptr::null_mut()) }, CUresult::SUCCESS);
    assert_eq!(out, 0);
    assert_eq!(check_ptr(std::ptr::null_mut()), CUresult::SUCCESS);
}

#[test]
fn integrity_slot_hashes_this_process_and_these_tables() {
    let (_, table) = get(UUID_INTEGRITY_CHECK);
    assert_eq!(table, INTEGRITY_CHECK.as_ptr());
    // SAFETY: slot 1 signature.
    let f: unsafe extern "C" fn(c_uint, u64, *mut [u8; 16]) -> CUresult = unsafe { std::mem::transmute(slot(table, 1)) };
    assert_eq!(slot(table, 1), integrity_check as *const () as usize);
    let mut out = [0u8; 16];
    // The constant answers.
    // SAFETY: valid out buffer.
    assert_eq!(unsafe { f(13050, 1_700_000_000, &mut out) }, CUresult::SUCCESS);
    assert_eq!(out, [0x5c, 0x67, 0xcb, 0x03, 0x1c, 0x18, 0x41, 0x33, 0xe8, 0xd1, 0x4c, 0x1f, 0xaa, 0x83, 0xd3, 0x8e]);
    // SAFETY: valid out buffer.
    assert_eq!(unsafe { f(13051, 1_700_000_000, &mut out) }, CUresult::SUCCESS);
    assert_eq!(out[7], 0x18);
    // The HMAC answer covers this thread, this process and the table addresses.
    // SAFETY: valid out buffer.
    assert_eq!(unsafe { f(13052, 1_700_000_000, &mut out) }, CUresult::SUCCESS);
    let input = integrity_input(13052, 1_700_000_000);
    assert_eq!(input.cudart_interface_table, CUDART_INTERFACE.as_ptr() as u64);
    assert_eq!(input.integrity_table, table as u64);
    assert_eq!(input.pid, std::process::id());
    assert_eq!(out, integrity_hash(&input));
    // SAFETY: a NULL out buffer is refused.
    assert_eq!(unsafe { f(13052, 0, std::ptr::null_mut()) }, CUresult::ERROR_INVALID_VALUE);
}

#[test]
fn cls_get_refuses_null_out_pointer() {
    // SAFETY: NULL out-pointer is what is tested; nothing else is dereferenced.
    assert_eq!(unsafe { cls_get(std::ptr::null_mut(), std::ptr::null_mut(), std::ptr::dangling_mut::<c_void>()) }, CUresult::ERROR_INVALID_VALUE);
}
