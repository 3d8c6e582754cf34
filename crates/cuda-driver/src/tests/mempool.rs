//! Stream-ordered allocation and memory pools over the fake device. Streams are kept busy
//! by a host function waiting on a channel ([`gate`]), so a free is still pending while
//! the test allocates; expected values are what NVIDIA's driver answered (H200, driver
//! 580.159, 2026-11-27) where the module documentation says so.

use std::sync::mpsc;

use super::attr::*;
use super::blocks::CHUNK;
use super::PoolProps;
use crate::memory::PointerAttrValue;
use crate::tests::setup;
use crate::{CuError, Driver, PoolHandle, StreamHandle};

const MIB: u64 = 1 << 20;

/// Blocks `stream` until the returned sender is dropped or sent to.
fn gate(driver: &Driver, stream: StreamHandle) -> mpsc::Sender<()> {
    let (tx, rx) = mpsc::channel::<()>();
    driver
        .launch_host_func(
            stream,
            Box::new(move |_| {
                let _ = rx.recv();
            }),
        )
        .unwrap();
    tx
}

fn get(driver: &Driver, pool: PoolHandle, attribute: i32) -> u64 {
    driver.mem_pool_get_attribute(pool, attribute).unwrap()
}

fn pinned(device: i32) -> PoolProps {
    PoolProps { alloc_type: 1, location_type: 1, location_id: device, reserved_zero: true, ..PoolProps::default() }
}

/// A created pool that keeps its memory over synchronizations.
fn keeping_pool(driver: &Driver, props: PoolProps) -> PoolHandle {
    let pool = driver.mem_pool_create(&props).unwrap();
    driver.mem_pool_set_attribute(pool, RELEASE_THRESHOLD, u64::MAX).unwrap();
    pool
}

#[test]
fn default_pool_packs_allocations_and_reports_watermarks() {
    let (driver, _) = setup();
    let pool = driver.device_get_default_mem_pool(0).unwrap();
    assert_eq!(driver.device_get_mem_pool(0).unwrap(), pool);
    assert_eq!(driver.mem_get_default_mem_pool(1, 0, 1).unwrap(), pool);
    for (attribute, value) in [(1, 1), (2, 1), (3, 1), (4, 0), (5, 0), (6, 0), (7, 0), (8, 0)] {
        assert_eq!(get(&driver, pool, attribute), value, "attribute {attribute}");
    }
    let s = driver.stream_create(1).unwrap();
    let sizes = [1u64, 1, 100, 1000, 4096, MIB];
    let ptrs: Vec<u64> = sizes.iter().map(|&n| driver.mem_alloc_async(n as usize, s).unwrap()).collect();
    let offsets: Vec<u64> = ptrs.iter().map(|p| p - ptrs[0]).collect();
    assert_eq!(offsets, [0, 512, 1024, 1536, 2560, 6656], "packed at 512-byte steps, as NVIDIA's pools");
    assert!(ptrs.iter().all(|p| p % 512 == 0), "512-byte aligned");
    assert_eq!(get(&driver, pool, RESERVED_MEM_CURRENT), CHUNK);
    assert_eq!(get(&driver, pool, USED_MEM_CURRENT), sizes.iter().sum::<u64>());
    assert_eq!(driver.pointer_attribute(17, ptrs[5]).unwrap(), PointerAttrValue::U64(pool.0));
    assert_eq!(driver.pointer_attribute(1, ptrs[5]).unwrap(), PointerAttrValue::Context(crate::CtxHandle::NULL));
    assert_eq!(driver.mem_get_address_range(ptrs[2] + 3).unwrap(), (ptrs[2], 100));
    assert_eq!(driver.mem_free_async(ptrs[5] + 16, s).unwrap_err(), CuError::INVALID_VALUE, "not a base");
    for &p in &ptrs {
        driver.mem_free_async(p, s).unwrap();
    }
    assert_eq!(driver.mem_free_async(ptrs[0], s).unwrap_err(), CuError::INVALID_VALUE, "freed twice");
    assert_eq!(get(&driver, pool, USED_MEM_CURRENT), 0);
    // The release threshold (0) gives the memory back at the next synchronization.
    driver.stream_synchronize(s).unwrap();
    assert_eq!(get(&driver, pool, RESERVED_MEM_CURRENT), 0);
    assert_eq!(get(&driver, pool, RESERVED_MEM_HIGH), CHUNK);
    assert_eq!(get(&driver, pool, USED_MEM_HIGH), sizes.iter().sum::<u64>());
    // A high watermark is reset to the current value, and only with 0.
    let live = driver.mem_alloc_async(MIB as usize, s).unwrap();
    assert_eq!(driver.mem_pool_set_attribute(pool, USED_MEM_HIGH, 5).unwrap_err(), CuError::INVALID_VALUE);
    driver.mem_pool_set_attribute(pool, USED_MEM_HIGH, 0).unwrap();
    driver.mem_pool_set_attribute(pool, RESERVED_MEM_HIGH, 0).unwrap();
    assert_eq!((get(&driver, pool, USED_MEM_HIGH), get(&driver, pool, RESERVED_MEM_HIGH)), (MIB, CHUNK));
    for attribute in [RESERVED_MEM_CURRENT, USED_MEM_CURRENT, 0, 9] {
        assert_eq!(driver.mem_pool_set_attribute(pool, attribute, 0).unwrap_err(), CuError::INVALID_VALUE, "attribute {attribute}");
    }
    assert_eq!(driver.mem_pool_get_attribute(pool, 9).unwrap_err(), CuError::INVALID_VALUE);
    // Reuse flags read back as 0 or 1.
    driver.mem_pool_set_attribute(pool, REUSE_ALLOW_OPPORTUNISTIC, 2).unwrap();
    assert_eq!(get(&driver, pool, REUSE_ALLOW_OPPORTUNISTIC), 1);
    // cuMemFree frees a pool allocation too.
    driver.mem_free(live).unwrap();
    assert_eq!(get(&driver, pool, USED_MEM_CURRENT), 0);
    // Size 0 is the NULL pointer; freeing NULL is a no-op.
    assert_eq!(driver.mem_alloc_async(0, s).unwrap(), 0);
    driver.mem_free_async(0, s).unwrap();
}

#[test]
fn a_block_freed_on_a_stream_is_reused_there_at_once() {
    let (driver, _) = setup();
    let pool = keeping_pool(&driver, pinned(0));
    for attribute in [REUSE_ALLOW_OPPORTUNISTIC, REUSE_ALLOW_INTERNAL_DEPENDENCIES] {
        driver.mem_pool_set_attribute(pool, attribute, 0).unwrap();
    }
    let (s1, s2) = (driver.stream_create(1).unwrap(), driver.stream_create(1).unwrap());
    let open = gate(&driver, s1);
    let a = driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s1).unwrap();
    driver.mem_free_async(a, s1).unwrap();
    // Same stream: stream order makes the block reusable before the free has run.
    let b = driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s1).unwrap();
    assert_eq!(a, b);
    driver.mem_free_async(b, s1).unwrap();
    // Another stream with no dependency on the free gets new memory.
    let c = driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s2).unwrap();
    assert_ne!(c, a);
    assert_eq!(get(&driver, pool, RESERVED_MEM_CURRENT), 2 * CHUNK);
    assert_eq!(driver.stream_query(s1).unwrap_err(), CuError::NOT_READY, "nothing synchronized the device");
    drop(open);
    driver.mem_free_async(c, s2).unwrap();
    driver.ctx_synchronize(crate::CtxHandle::NULL).unwrap();
}

#[test]
fn other_streams_reuse_a_block_as_the_reuse_policies_allow() {
    let (driver, _) = setup();
    let (s1, s2) = (driver.stream_create(1).unwrap(), driver.stream_create(1).unwrap());
    // Returns whether s2 got the block freed on s1 (`pending`: s1 still busy).
    let reused = |follow: u64, opportunistic: u64, event: bool, pending: bool, sync: bool| {
        let pool = keeping_pool(&driver, pinned(0));
        driver.mem_pool_set_attribute(pool, REUSE_FOLLOW_EVENT_DEPENDENCIES, follow).unwrap();
        driver.mem_pool_set_attribute(pool, REUSE_ALLOW_OPPORTUNISTIC, opportunistic).unwrap();
        driver.mem_pool_set_attribute(pool, REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0).unwrap();
        let a = driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s1).unwrap();
        let open = pending.then(|| gate(&driver, s1));
        driver.mem_free_async(a, s1).unwrap();
        if event {
            let e = driver.event_create(2).unwrap();
            driver.event_record(e, s1).unwrap();
            driver.stream_wait_event(s2, e, 0).unwrap();
            driver.event_destroy(e).unwrap();
        }
        if sync {
            driver.stream_synchronize(s1).unwrap();
        }
        let b = driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s2).unwrap();
        drop(open);
        driver.mem_free_async(b, s2).unwrap();
        driver.ctx_synchronize(crate::CtxHandle::NULL).unwrap();
        driver.mem_pool_destroy(pool).unwrap();
        a == b
    };
    // What NVIDIA's driver answered for the same sequences.
    assert!(!reused(1, 1, false, true, false), "pending, no dependency");
    assert!(reused(1, 1, true, true, false), "pending, the stream waits for an event after the free");
    assert!(!reused(0, 1, true, true, false), "pending, event dependencies not followed");
    assert!(reused(1, 1, false, false, false), "complete: opportunistic reuse");
    assert!(!reused(1, 0, false, false, false), "complete, opportunistic reuse off");
    assert!(reused(1, 0, false, false, true), "a synchronization observed the free");
}

#[test]
fn the_legacy_stream_follows_blocking_streams() {
    let (driver, _) = setup();
    let pool = keeping_pool(&driver, pinned(0));
    driver.device_set_mem_pool(0, pool).unwrap();
    driver.mem_pool_set_attribute(pool, REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0).unwrap();
    let blocking = driver.stream_create(0).unwrap();
    let open = gate(&driver, blocking);
    let a = driver.mem_alloc_async(CHUNK as usize, blocking).unwrap();
    driver.mem_free_async(a, blocking).unwrap();
    let b = driver.mem_alloc_async(CHUNK as usize, StreamHandle::LEGACY).unwrap();
    assert_eq!(a, b, "legacy-stream work waits for the blocking stream's");
    drop(open);
    driver.mem_free_async(b, StreamHandle::LEGACY).unwrap();
    driver.ctx_synchronize(crate::CtxHandle::NULL).unwrap();
}

#[test]
fn internal_dependencies_serve_a_pool_that_cannot_grow() {
    let (driver, _) = setup();
    let pool = keeping_pool(&driver, PoolProps { max_size: 1, ..pinned(0) });
    driver.mem_pool_set_attribute(pool, REUSE_ALLOW_OPPORTUNISTIC, 0).unwrap();
    let (s1, s2) = (driver.stream_create(1).unwrap(), driver.stream_create(1).unwrap());
    let open = gate(&driver, s1);
    // maxSize is rounded up to a whole chunk, as NVIDIA's driver does.
    let a = driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s1).unwrap();
    driver.mem_free_async(a, s1).unwrap();
    let b = driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s2).unwrap();
    assert_eq!(a, b);
    assert_eq!(driver.stream_query(s2).unwrap_err(), CuError::NOT_READY, "s2 now waits for the free on s1");
    driver.mem_free_async(b, s2).unwrap();
    driver.mem_pool_set_attribute(pool, REUSE_ALLOW_INTERNAL_DEPENDENCIES, 0).unwrap();
    let s3 = driver.stream_create(1).unwrap();
    assert_eq!(driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s3).unwrap_err(), CuError::OUT_OF_MEMORY);
    drop(open);
    driver.ctx_synchronize(crate::CtxHandle::NULL).unwrap();
    assert_eq!(driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s3).unwrap(), a, "observed free: any stream");
}

#[test]
fn trimming_keeps_what_is_asked_and_what_is_in_use() {
    let (driver, device) = setup();
    let baseline = device.live_allocations();
    let pool = keeping_pool(&driver, pinned(0));
    let s = driver.stream_create(1).unwrap();
    let ptrs: Vec<u64> = (0..4).map(|_| driver.mem_alloc_from_pool_async(CHUNK as usize, pool, s).unwrap()).collect();
    for &p in &ptrs {
        driver.mem_free_async(p, s).unwrap();
    }
    driver.stream_synchronize(s).unwrap();
    assert_eq!(get(&driver, pool, RESERVED_MEM_CURRENT), 4 * CHUNK, "above the threshold: kept");
    driver.mem_pool_trim_to(pool, 40 * MIB).unwrap();
    assert_eq!(get(&driver, pool, RESERVED_MEM_CURRENT), 2 * CHUNK, "at least 40 MiB stay");
    let live = driver.mem_alloc_from_pool_async(MIB as usize, pool, s).unwrap();
    driver.mem_pool_trim_to(pool, 0).unwrap();
    assert_eq!(get(&driver, pool, RESERVED_MEM_CURRENT), CHUNK, "the chunk in use stays");
    driver.mem_free_async(live, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    driver.mem_pool_trim_to(pool, 0).unwrap();
    assert_eq!(get(&driver, pool, RESERVED_MEM_CURRENT), 0);
    assert_eq!(device.live_allocations(), baseline);
    assert_eq!(driver.mem_pool_trim_to(PoolHandle::NULL, 0).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn pools_are_created_checked_made_current_and_destroyed() {
    let (driver, device) = setup();
    let default = driver.device_get_default_mem_pool(0).unwrap();
    // Codes NVIDIA's driver answered, or NOT_SUPPORTED for what exists there but not here
    // (host and managed pools: `tests/mempool_places.rs`).
    let code = |props: PoolProps| driver.mem_pool_create(&props).map(|p| driver.mem_pool_destroy(p).unwrap()).err();
    assert_eq!(code(pinned(0)), None);
    assert_eq!(code(PoolProps { max_size: 2 * MIB, ..pinned(0) }), None);
    assert_eq!(code(PoolProps { alloc_type: 0, ..pinned(0) }), Some(CuError::INVALID_VALUE));
    assert_eq!(code(PoolProps { alloc_type: 2, ..pinned(0) }), None, "a managed pool preferring the device");
    assert_eq!(code(PoolProps { location_type: 0, ..pinned(0) }), Some(CuError::INVALID_VALUE));
    assert_eq!(code(PoolProps { location_type: 2, ..pinned(0) }), None, "a host pool");
    assert_eq!(code(PoolProps { location_type: 4, ..pinned(0) }), Some(CuError::INVALID_VALUE));
    assert_eq!(code(pinned(99)), Some(CuError::INVALID_VALUE));
    assert_eq!(code(pinned(-1)), Some(CuError::INVALID_VALUE));
    assert_eq!(code(PoolProps { reserved_zero: false, ..pinned(0) }), Some(CuError::INVALID_VALUE));
    assert_eq!(code(PoolProps { handle_types: 2, ..pinned(0) }), Some(CuError::INVALID_VALUE), "Win32 on Linux");
    assert_eq!(code(PoolProps { handle_types: 16, ..pinned(0) }), Some(CuError::INVALID_VALUE));
    assert_eq!(code(PoolProps { handle_types: 1, ..pinned(0) }), None, "POSIX fd pools on a host-addressable device");
    assert_eq!(code(PoolProps { handle_types: 8, ..pinned(0) }), Some(CuError::NOT_SUPPORTED), "no fabric handles");

    let mine = driver.mem_pool_create(&pinned(0)).unwrap();
    assert_ne!(mine, default);
    driver.device_set_mem_pool(0, mine).unwrap();
    assert_eq!(driver.device_get_mem_pool(0).unwrap(), mine);
    assert_eq!(driver.mem_get_mem_pool(1, 0, 1).unwrap(), mine);
    let s = driver.stream_create(1).unwrap();
    let p = driver.mem_alloc_async(64, s).unwrap();
    assert_eq!(driver.pointer_attribute(17, p).unwrap(), PointerAttrValue::U64(mine.0), "from the current pool");
    assert_eq!(driver.device_set_mem_pool(99, mine).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.device_set_mem_pool(0, PoolHandle::NULL).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.device_get_mem_pool(99).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.device_get_default_mem_pool(99).unwrap_err(), CuError::INVALID_DEVICE);
    assert_eq!(driver.mem_pool_destroy(default).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.mem_pool_destroy(PoolHandle::NULL).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.mem_set_mem_pool(1, 0, 2, mine).unwrap_err(), CuError::INVALID_VALUE, "not a managed pool");
    assert_eq!(driver.mem_set_mem_pool(2, 0, 1, mine).unwrap_err(), CuError::INVALID_VALUE, "not a host pool");
    assert_eq!(driver.mem_get_default_mem_pool(1, 0, 0).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.mem_get_default_mem_pool(1, 99, 1).unwrap_err(), CuError::INVALID_VALUE);

    // Destroying the current pool with an allocation left: the device's default pool is
    // current again, the handle is gone, and the memory goes once the allocation is freed.
    driver.mem_pool_destroy(mine).unwrap();
    assert_eq!(driver.device_get_mem_pool(0).unwrap(), default);
    assert_eq!(driver.mem_pool_get_attribute(mine, USED_MEM_CURRENT).unwrap_err(), CuError::INVALID_VALUE);
    let before = device.live_allocations();
    driver.mem_free_async(p, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    assert_eq!(device.live_allocations(), before - 1, "the destroyed pool's chunk went back");
}

#[test]
fn access_descriptors_answer_as_nvidia() {
    let (driver, _) = setup();
    let pool = driver.mem_pool_create(&pinned(0)).unwrap();
    let set = |desc: (u32, i32, u32)| driver.mem_pool_set_access(pool, &[desc]).err();
    assert_eq!(set((1, 0, 3)), None);
    assert_eq!(set((1, 0, 1)), Some(CuError::NOT_SUPPORTED), "read-only");
    assert_eq!(set((1, 0, 0)), Some(CuError::INVALID_DEVICE), "the owner keeps its access");
    assert_eq!(set((1, 99, 3)), Some(CuError::INVALID_DEVICE));
    assert_eq!(set((2, 0, 3)), Some(CuError::NOT_SUPPORTED), "host");
    assert_eq!(set((0, 0, 3)), Some(CuError::NOT_SUPPORTED));
    assert_eq!(set((1, 0, 7)), Some(CuError::INVALID_VALUE));
    assert_eq!(driver.mem_pool_set_access(pool, &[]), Ok(()));
    assert_eq!(driver.mem_pool_get_access(pool, 1, 0), Ok(3));
    assert_eq!(driver.mem_pool_get_access(pool, 2, 0), Ok(0));
    assert_eq!(driver.mem_pool_get_access(pool, 1, 99).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.mem_pool_get_access(PoolHandle::NULL, 1, 0).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn free_async_of_cu_mem_alloc_memory_and_kernels_on_pool_memory() {
    let (driver, _) = setup();
    let s = driver.stream_create(1).unwrap();
    let p = driver.mem_alloc(4096).unwrap();
    driver.mem_free_async(p, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    // Copies see pool memory as device memory.
    let q = driver.mem_alloc_async(16, s).unwrap();
    let data = [7u8; 16];
    let mut back = [0u8; 16];
    // SAFETY: 16 readable and writable bytes.
    unsafe {
        driver.memcpy_htod(q, data.as_ptr().cast(), 16).unwrap();
        driver.memcpy_dtoh(back.as_mut_ptr().cast(), q, 16).unwrap();
    }
    assert_eq!(back, data);
    driver.mem_free_async(q, s).unwrap();
    driver.stream_synchronize(s).unwrap();
}
