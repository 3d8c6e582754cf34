//! Stream attributes, stream memory operations, context events, the error log and managed
//! range attributes over the fake device (whose memory is host memory).

use std::sync::atomic::{AtomicU32, Ordering};
use std::time::Duration;

use crate::managed::range_attr::{attr, DEVICE_INVALID};
use crate::managed::{location_type, MemLocation, DEVICE_CPU};
use crate::memop::{wait, MemOp};
use crate::stream::STREAM_NON_BLOCKING;
use crate::stream_attr::{id, AccessPolicyWindow, StreamAttr};
use crate::tests::setup;
use crate::{CuError, StreamHandle};

#[test]
fn stream_attributes_round_trip_and_copy_all_but_the_priority() {
    let (driver, _) = setup();
    let s = driver.stream_create(STREAM_NON_BLOCKING).unwrap();
    let s2 = driver.stream_create(STREAM_NON_BLOCKING).unwrap();
    assert_eq!(driver.stream_get_attribute(s, id::SYNCHRONIZATION_POLICY).unwrap(), StreamAttr::SynchronizationPolicy(u32::MAX));
    assert_eq!(driver.stream_get_attribute(s, 2).unwrap_err(), CuError::INVALID_VALUE);
    driver.stream_set_attribute(s, StreamAttr::Priority(-100)).unwrap();
    assert_eq!(driver.stream_get_priority(s).unwrap(), crate::stream::GREATEST_PRIORITY);
    driver.stream_set_attribute(s, StreamAttr::SynchronizationPolicy(3)).unwrap();
    driver.stream_set_attribute(s, StreamAttr::MemSyncDomain(1)).unwrap();
    assert_eq!(driver.stream_set_attribute(s, StreamAttr::SynchronizationPolicy(0)).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.stream_set_attribute(s, StreamAttr::MemSyncDomainMap([0, 1])).unwrap_err(), CuError::INVALID_VALUE);
    let window = AccessPolicyWindow { base_ptr: 0x1000, num_bytes: 64, hit_ratio: 0.5, hit_prop: 2, miss_prop: 0 };
    assert_eq!(driver.stream_set_attribute(s, StreamAttr::AccessPolicyWindow(window)).unwrap_err(), CuError::INVALID_VALUE);
    driver.stream_copy_attributes(s2, s).unwrap();
    assert_eq!(driver.stream_get_attribute(s2, id::SYNCHRONIZATION_POLICY).unwrap(), StreamAttr::SynchronizationPolicy(3));
    assert_eq!(driver.stream_get_attribute(s2, id::MEM_SYNC_DOMAIN).unwrap(), StreamAttr::MemSyncDomain(1));
    assert_eq!(driver.stream_get_priority(s2).unwrap(), crate::stream::LEAST_PRIORITY);
    // The raw union round-trips.
    let raw = StreamAttr::AccessPolicyWindow(window).to_raw();
    assert_eq!(StreamAttr::from_raw(id::ACCESS_POLICY_WINDOW, &raw), Some(StreamAttr::AccessPolicyWindow(window)));
}

#[test]
fn wait_conditions_follow_the_reference() {
    use crate::memop::wait_satisfied;
    assert!(wait_satisfied(5, 5, false, wait::GEQ));
    assert!(wait_satisfied(1, u32::MAX as u64, false, wait::GEQ), "cyclic comparison");
    assert!(!wait_satisfied(4, 5, false, wait::GEQ));
    assert!(wait_satisfied(6, 4, false, wait::AND) && !wait_satisfied(3, 4, false, wait::AND));
    assert!(wait_satisfied(0, 0, false, wait::NOR) && !wait_satisfied(u32::MAX as u64, 0, false, wait::NOR));
    assert!(wait_satisfied(0x1_0000_0002, 0x1_0000_0001, true, wait::GEQ));
    assert!(wait_satisfied(7, 7, true, wait::EQ) && !wait_satisfied(7, 8, true, wait::EQ));
}

#[test]
fn a_stream_waits_for_a_word_and_writes_after_it() {
    let (driver, _) = setup();
    let s = driver.stream_create(STREAM_NON_BLOCKING).unwrap();
    let d = driver.mem_alloc(64).unwrap();
    let words = d as usize as *const AtomicU32;
    // SAFETY: 64 bytes of fake-device memory, which is host memory.
    let (flag, out) = unsafe { (&*words, &*words.add(1)) };
    let ops = [MemOp::Wait { address: d, value: 7, wide: false, flags: wait::EQ }, MemOp::Write { address: d + 4, value: 42, wide: false, flags: 0 }];
    driver.stream_mem_ops(s, &ops, 0, "test").unwrap();
    std::thread::sleep(Duration::from_millis(30));
    assert_eq!(out.load(Ordering::Acquire), 0);
    assert_eq!(driver.stream_query(s).unwrap_err(), CuError::NOT_READY);
    flag.store(7, Ordering::Release);
    driver.stream_synchronize(s).unwrap();
    assert_eq!(out.load(Ordering::Acquire), 42);
    let bad = |op: MemOp| driver.stream_mem_ops(s, &[op], 0, "test").unwrap_err();
    assert_eq!(bad(MemOp::Write { address: d + 2, value: 1, wide: false, flags: 0 }), CuError::INVALID_VALUE);
    assert_eq!(bad(MemOp::Write { address: d, value: 1, wide: false, flags: 1 }), CuError::INVALID_VALUE);
    assert_eq!(bad(MemOp::Wait { address: d, value: 1, wide: false, flags: wait::FLUSH }), CuError::NOT_SUPPORTED);
    assert_eq!(bad(MemOp::Unavailable(3)), CuError::NOT_SUPPORTED);
    assert_eq!(bad(MemOp::Write { address: 8, value: 1, wide: false, flags: 0 }), CuError::INVALID_VALUE);
    driver.stream_mem_ops(s, &[], 0, "test").unwrap();
}

#[test]
fn context_events_cover_every_stream() {
    let (driver, _) = setup();
    let ctx = driver.ctx_get_current();
    let s = driver.stream_create(STREAM_NON_BLOCKING).unwrap();
    let d = driver.mem_alloc(64).unwrap();
    // SAFETY: fake-device memory is host memory.
    let flag = unsafe { &*(d as usize as *const AtomicU32) };
    driver.stream_mem_ops(s, &[MemOp::Wait { address: d, value: 1, wide: false, flags: wait::EQ }], 0, "test").unwrap();
    let e = driver.event_create(0).unwrap();
    driver.ctx_record_event(ctx, e).unwrap();
    assert_eq!(driver.event_query(e).unwrap_err(), CuError::NOT_READY);
    driver.ctx_wait_event(ctx, e).unwrap();
    // A stream created after the wait holds its work back too.
    let later = driver.stream_create(STREAM_NON_BLOCKING).unwrap();
    driver.stream_mem_ops(later, &[MemOp::Write { address: d + 8, value: 3, wide: false, flags: 0 }], 0, "test").unwrap();
    std::thread::sleep(Duration::from_millis(30));
    // SAFETY: as above.
    let written = unsafe { &*((d + 8) as usize as *const AtomicU32) };
    assert_eq!(written.load(Ordering::Acquire), 0);
    flag.store(1, Ordering::Release);
    driver.event_synchronize(e).unwrap();
    driver.stream_synchronize(later).unwrap();
    assert_eq!(written.load(Ordering::Acquire), 3);
    assert_eq!(driver.ctx_record_event(crate::CtxHandle::NULL, e).unwrap_err(), CuError::INVALID_CONTEXT);
    driver.stream_synchronize(StreamHandle::NULL).unwrap();
}

#[test]
fn managed_range_attributes_report_the_hints() {
    let (driver, _) = setup();
    let m = driver.mem_alloc_managed(1 << 16, 1).unwrap();
    let get = |a: i32, len: usize| driver.mem_range_get_attribute(a, 4, m, len).unwrap()[0];
    assert_eq!(get(attr::PREFERRED_LOCATION, 1 << 16), DEVICE_INVALID);
    assert_eq!(get(attr::PREFERRED_LOCATION_TYPE, 1 << 16), 0);
    driver.mem_advise_v2(m, 4096, 3, MemLocation { kind: location_type::HOST, id: 0 }).unwrap();
    driver.mem_advise(m, 1 << 16, 1, 0).unwrap();
    driver.mem_advise(m, 1 << 16, 5, 0).unwrap();
    driver.mem_advise(m, 1 << 16, 5, DEVICE_CPU).unwrap();
    driver.mem_prefetch_async(m, 8192, 0, StreamHandle::NULL).unwrap();
    assert_eq!(get(attr::READ_MOSTLY, 4096), 1);
    assert_eq!(get(attr::PREFERRED_LOCATION, 4096), DEVICE_CPU);
    assert_eq!(get(attr::PREFERRED_LOCATION_ID, 4096), DEVICE_CPU);
    assert_eq!(get(attr::PREFERRED_LOCATION, 8192), DEVICE_INVALID);
    assert_eq!(get(attr::LAST_PREFETCH_LOCATION, 8192), 0);
    assert_eq!(get(attr::LAST_PREFETCH_LOCATION, 1 << 16), DEVICE_INVALID);
    assert_eq!(driver.mem_range_get_attribute(attr::ACCESSED_BY, 12, m, 4096).unwrap(), vec![0, DEVICE_CPU, DEVICE_INVALID]);
    driver.mem_advise(m, 4096, 6, 0).unwrap();
    assert_eq!(driver.mem_range_get_attribute(attr::ACCESSED_BY, 8, m, 1 << 16).unwrap(), vec![DEVICE_CPU, DEVICE_INVALID]);
    assert_eq!(driver.mem_range_get_attribute(attr::READ_MOSTLY, 8, m, 4096).unwrap_err(), CuError::INVALID_VALUE);
    // Freed memory forgets its hints: a new allocation at the same address has none.
    driver.mem_free(m).unwrap();
    let m2 = driver.mem_alloc_managed(1 << 16, 1).unwrap();
    if m2 == m {
        assert_eq!(driver.mem_range_get_attribute(attr::READ_MOSTLY, 4, m2, 4096).unwrap(), vec![0]);
    }
}

#[test]
fn the_error_log_keeps_failures() {
    let start = crate::logs::current();
    let _ = crate::diag::fail(CuError::INVALID_VALUE, format_args!("issue-14 log probe"));
    let mut buf = vec![0u8; 4096];
    let mut it = start;
    let n = crate::logs::dump_to_memory(Some(&mut it), &mut buf).unwrap();
    let text = std::str::from_utf8(&buf[..n]).unwrap();
    assert!(text.contains("[CUDA][E] issue-14 log probe -> "), "{text}");
    assert!(it > start);
    let mut small = [0u8; 8];
    let mut from = start;
    assert_eq!(crate::logs::dump_to_memory(Some(&mut from), &mut small).unwrap_err(), CuError::INVALID_VALUE);
}
