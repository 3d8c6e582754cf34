//! Pools of pinned host memory and of managed memory over the fake device (whose memory
//! the host addresses, with managed memory). Expected codes and values are what NVIDIA's
//! driver answered on an H200 (driver 580.159.04) for the same calls.

use super::PoolProps;
use crate::fake::FakeDevice;
use crate::memory::PointerAttrValue as V;
use crate::tests::setup;
use crate::{CuError, Driver, PoolHandle};

const PINNED: u32 = 1;
const MANAGED: u32 = 2;
const NONE: u32 = 0;
const DEVICE: u32 = 1;
const HOST: u32 = 2;
const HOST_NUMA: u32 = 3;
const HOST_NUMA_CURRENT: u32 = 4;
const INVALID: Option<CuError> = Some(CuError::INVALID_VALUE);
const NOT_SUPPORTED: Option<CuError> = Some(CuError::NOT_SUPPORTED);

fn props(alloc_type: u32, location_type: u32, location_id: i32) -> PoolProps {
    PoolProps { alloc_type, location_type, location_id, reserved_zero: true, ..PoolProps::default() }
}

/// Writes `bytes` at `ptr` from the host.
fn host_write(ptr: u64, bytes: &[u8]) {
    // SAFETY: `ptr` is a live pool block of at least `bytes.len()` bytes of host memory.
    unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr(), ptr as usize as *mut u8, bytes.len()) }
}

fn host_read(ptr: u64, n: usize) -> Vec<u8> {
    // SAFETY: as `host_write`.
    unsafe { std::slice::from_raw_parts(ptr as usize as *const u8, n).to_vec() }
}

#[test]
fn get_calls_answer_each_place_as_nvidia() {
    let (driver, _) = setup();
    // (type, location, id, code): every case the H200 was asked.
    let table = [
        (PINNED, DEVICE, 0, None),
        (PINNED, DEVICE, 99, INVALID),
        (PINNED, DEVICE, -1, INVALID),
        (PINNED, HOST, 0, None),
        (PINNED, HOST, 99, None),
        (PINNED, HOST, -1, None),
        (PINNED, HOST_NUMA, 0, None),
        (PINNED, HOST_NUMA, 1, INVALID),
        (PINNED, HOST_NUMA, 99, INVALID),
        (PINNED, HOST_NUMA, -1, INVALID),
        (PINNED, HOST_NUMA_CURRENT, 0, NOT_SUPPORTED),
        (PINNED, NONE, 0, INVALID),
        (MANAGED, NONE, 0, None),
        (MANAGED, NONE, 5, None),
        (MANAGED, NONE, -1, None),
        (MANAGED, DEVICE, 0, None),
        (MANAGED, DEVICE, 99, INVALID),
        (MANAGED, HOST, 0, None),
        (MANAGED, HOST, 7, None),
        (MANAGED, HOST_NUMA, 0, None),
        (MANAGED, HOST_NUMA, 1, INVALID),
        (MANAGED, HOST_NUMA_CURRENT, 0, NOT_SUPPORTED),
        (0, DEVICE, 0, INVALID),
        (3, DEVICE, 0, INVALID),
        (0, NONE, 0, INVALID),
    ];
    for (t, l, id, code) in table {
        assert_eq!(driver.mem_get_default_mem_pool(l, id, t).err(), code, "default type {t} location {l} id {id}");
        assert_eq!(driver.mem_get_mem_pool(l, id, t).err(), code, "current type {t} location {l} id {id}");
    }
    let default = |l, id, t| driver.mem_get_default_mem_pool(l, id, t).unwrap();
    // Ids that do not matter name one pool; every place has its own.
    assert_eq!(default(HOST, 0, PINNED), default(HOST, 99, PINNED));
    assert_eq!(default(NONE, 0, MANAGED), default(NONE, 5, MANAGED));
    assert_ne!(default(HOST, 0, PINNED), default(HOST_NUMA, 0, PINNED));
    assert_ne!(default(NONE, 0, MANAGED), default(DEVICE, 0, MANAGED));
    assert_ne!(default(NONE, 0, MANAGED), default(HOST, 0, MANAGED));
    assert_ne!(default(DEVICE, 0, PINNED), default(DEVICE, 0, MANAGED));
    assert_eq!(default(DEVICE, 0, PINNED), driver.device_get_default_mem_pool(0).unwrap());
    assert_eq!(driver.mem_pool_destroy(default(HOST, 0, PINNED)).unwrap_err(), CuError::INVALID_VALUE, "a default pool");
    assert_eq!(driver.mem_pool_destroy(default(NONE, 0, MANAGED)).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn pool_create_answers_each_place_as_nvidia() {
    let (driver, _) = setup();
    let code = |p: PoolProps| driver.mem_pool_create(&p).map(|pool| driver.mem_pool_destroy(pool).unwrap()).err();
    let table = [
        (props(PINNED, HOST, 0), None),
        (props(PINNED, HOST, 99), None),
        (props(PINNED, HOST, -1), None),
        (PoolProps { handle_types: 1, ..props(PINNED, HOST, 0) }, INVALID),
        (PoolProps { handle_types: 8, ..props(PINNED, HOST, 0) }, INVALID),
        (PoolProps { max_size: 1, ..props(PINNED, HOST, 0) }, None),
        (props(PINNED, HOST_NUMA, 0), None),
        (props(PINNED, HOST_NUMA, 1), INVALID),
        (props(PINNED, HOST_NUMA, -1), INVALID),
        (PoolProps { handle_types: 1, ..props(PINNED, HOST_NUMA, 0) }, None),
        (props(PINNED, HOST_NUMA_CURRENT, 0), INVALID),
        (props(PINNED, NONE, 0), INVALID),
        (props(MANAGED, NONE, 0), None),
        (props(MANAGED, NONE, 7), None),
        (props(MANAGED, DEVICE, 0), None),
        (props(MANAGED, DEVICE, 99), INVALID),
        (props(MANAGED, HOST, 0), None),
        (props(MANAGED, HOST_NUMA, 0), None),
        (props(MANAGED, HOST_NUMA_CURRENT, 0), None),
        (PoolProps { handle_types: 1, ..props(MANAGED, NONE, 0) }, INVALID),
        (PoolProps { handle_types: 1, ..props(MANAGED, DEVICE, 0) }, INVALID),
        (PoolProps { max_size: 1, ..props(MANAGED, NONE, 0) }, INVALID),
    ];
    for (p, expected) in table {
        assert_eq!(code(p), expected, "{p:?}");
    }
}

#[test]
fn host_pool_memory_is_host_memory_the_device_reaches_once_granted() {
    let (driver, _) = setup();
    let pool = driver.mem_pool_create(&props(PINNED, HOST, 0)).unwrap();
    let s = driver.stream_create(1).unwrap();
    assert_eq!(driver.mem_alloc_from_pool_async(0, pool, s), Ok(0));
    let p = driver.mem_alloc_from_pool_async(4096, pool, s).unwrap();
    // Pointer attributes as the H200 reported them (device access not granted yet).
    assert_eq!(driver.pointer_attribute(2, p), Ok(V::U32(1)), "CU_MEMORYTYPE_HOST");
    assert_eq!(driver.pointer_attribute(8, p), Ok(V::Bool(false)), "not managed");
    assert_eq!(driver.pointer_attribute(4, p), Ok(V::U64(p)), "host pointer");
    assert_eq!(driver.pointer_attribute(3, p).unwrap_err(), CuError::INVALID_VALUE, "no device pointer without access");
    assert_eq!(driver.pointer_attribute(17, p), Ok(V::U64(pool.0)));
    assert_eq!(driver.pointer_attribute(12, p), Ok(V::U64(4096)));
    assert_eq!(driver.pointer_attribute(1, p), Ok(V::Context(crate::CtxHandle::NULL)));
    assert_eq!(driver.mem_get_address_range(p + 8).unwrap_err(), CuError::NOT_FOUND);
    assert_eq!(driver.memset(p, 0x0102_0304, 4, 1024).unwrap_err(), CuError::INVALID_VALUE);
    // The host uses it directly, and `cuMemcpy` (unified addressing) copies it.
    host_write(p, &[7, 8, 9, 10]);
    let mut back = [0u8; 4];
    // SAFETY: 4 bytes each side.
    unsafe { driver.memcpy(back.as_mut_ptr() as u64, p, 4).unwrap() };
    assert_eq!(back, [7, 8, 9, 10]);

    // Granted to device 0: fills, device pointer and address range.
    driver.mem_pool_set_access(pool, &[(DEVICE, 0, 3)]).unwrap();
    assert_eq!(driver.mem_pool_get_access(pool, DEVICE, 0), Ok(3));
    assert_eq!(driver.pointer_attribute(3, p), Ok(V::U64(p)));
    assert_eq!(driver.mem_get_address_range(p + 8), Ok((p, 4096)));
    driver.memset_async(p, 0x0102_0304, 4, 1024, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    assert_eq!(host_read(p + 4092, 4), 0x0102_0304u32.to_le_bytes());

    // Stream-ordered reuse, and the memory going back at a synchronization (threshold 0).
    let reserved = |d: &Driver| d.mem_pool_get_attribute(pool, 5).unwrap();
    assert_eq!(driver.mem_pool_get_attribute(pool, 7), Ok(4096), "USED_MEM_CURRENT");
    assert_eq!(reserved(&driver), 32 << 20, "one 32 MiB chunk, as the H200 reserved");
    driver.mem_free_async(p, s).unwrap();
    assert_eq!(driver.mem_alloc_from_pool_async(4096, pool, s), Ok(p), "reused in stream order");
    driver.mem_free_async(p, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    assert_eq!(reserved(&driver), 0);
    driver.mem_pool_set_attribute(pool, 4, u64::MAX).unwrap();
    let q = driver.mem_alloc_from_pool_async(1 << 20, pool, s).unwrap();
    driver.mem_free_async(q, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    assert_eq!(reserved(&driver), 32 << 20, "kept above the threshold");
    driver.mem_pool_trim_to(pool, 0).unwrap();
    assert_eq!(reserved(&driver), 0, "trimmed");
    driver.mem_pool_destroy(pool).unwrap();
    assert_eq!(driver.mem_alloc_from_pool_async(64, pool, s).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn managed_pool_memory_is_managed_memory() {
    let (driver, device) = setup();
    let pool = driver.mem_get_default_mem_pool(NONE, 0, MANAGED).unwrap();
    let s = driver.stream_create(1).unwrap();
    let p = driver.mem_alloc_from_pool_async(4096, pool, s).unwrap();
    assert_eq!(driver.pointer_attribute(2, p), Ok(V::U32(2)), "CU_MEMORYTYPE_DEVICE, as cuMemAllocManaged's");
    assert_eq!(driver.pointer_attribute(8, p), Ok(V::Bool(true)), "IS_MANAGED");
    assert_eq!(driver.pointer_attribute(3, p), Ok(V::U64(p)));
    assert_eq!(driver.pointer_attribute(4, p), Ok(V::U64(p)));
    assert_eq!(driver.pointer_attribute(17, p), Ok(V::U64(pool.0)));
    assert_eq!(driver.mem_get_address_range(p + 8), Ok((p, 4096)));
    // The chunk's base: the block itself, or up to 511 bytes below where the fake's
    // 256-byte alignment fell short of the pool's 512.
    assert!([p, p - 256].iter().any(|&b| device.is_managed_allocation(b)), "backed by managed memory");
    // No access listed, yet fills, copies and the host all reach it (as on the H200).
    assert_eq!(driver.mem_pool_get_access(pool, DEVICE, 0), Ok(0));
    assert_eq!(driver.mem_pool_get_access(pool, HOST, 0), Ok(0));
    driver.memset_async(p, 0x0102_0304, 4, 1024, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    assert_eq!(host_read(p, 4), 0x0102_0304u32.to_le_bytes());
    host_write(p + 4, &0xabcdefu32.to_le_bytes());
    let mut back = [0u32; 2];
    // SAFETY: 8 bytes each side.
    unsafe { driver.memcpy_dtoh(back.as_mut_ptr().cast(), p, 8).unwrap() };
    assert_eq!(back, [0x0102_0304, 0xabcdef]);
    driver.mem_free_async(p, s).unwrap();
    assert_eq!(driver.mem_alloc_from_pool_async(4096, pool, s), Ok(p), "reused in stream order");
    driver.mem_free_async(p, s).unwrap();
    driver.stream_synchronize(s).unwrap();
    assert_eq!(driver.mem_pool_get_attribute(pool, 5), Ok(0));
}

/// A created pool of each new place (pinned at HOST and HOST_NUMA 0, managed at NONE and
/// DEVICE 0) and device 0's default pool.
fn one_pool_per_place(driver: &Driver) -> (PoolHandle, PoolHandle, PoolHandle, PoolHandle, PoolHandle) {
    let host = driver.mem_pool_create(&props(PINNED, HOST, 0)).unwrap();
    let numa = driver.mem_pool_create(&props(PINNED, HOST_NUMA, 0)).unwrap();
    let managed = driver.mem_pool_create(&props(MANAGED, NONE, 0)).unwrap();
    let managed_dev = driver.mem_pool_create(&props(MANAGED, DEVICE, 0)).unwrap();
    (host, numa, managed, managed_dev, driver.device_get_default_mem_pool(0).unwrap())
}

#[test]
fn access_answers_each_pool_as_nvidia() {
    let (driver, _) = setup();
    let (host, numa, managed, managed_dev, device) = one_pool_per_place(&driver);
    let get = |pool: PoolHandle, l: u32, id: i32| driver.mem_pool_get_access(pool, l, id);
    // (location, id, host pools' answer, managed pools' answer, device pool's answer).
    let gets = [
        (DEVICE, 0, Ok(0), Ok(0), Ok(3)),
        (DEVICE, 99, Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE)),
        (DEVICE, -1, Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE)),
        (HOST, 0, Ok(3), Ok(0), Ok(0)),
        (HOST, 5, Ok(3), Ok(0), Ok(0)),
        (HOST_NUMA, 0, Ok(3), Ok(0), Ok(0)),
        (HOST_NUMA, 1, Ok(3), Ok(0), Ok(0)),
        (HOST_NUMA_CURRENT, 0, Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE)),
        (NONE, 0, Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE)),
        (9, 0, Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE), Err(CuError::INVALID_VALUE)),
    ];
    for (l, id, h, m, d) in gets {
        assert_eq!(get(host, l, id), h, "host pool, location {l} id {id}");
        assert_eq!(get(numa, l, id), h, "host NUMA pool, location {l} id {id}");
        assert_eq!(get(managed, l, id), m, "managed pool, location {l} id {id}");
        assert_eq!(get(managed_dev, l, id), m, "managed device pool, location {l} id {id}");
        assert_eq!(get(device, l, id), d, "device pool, location {l} id {id}");
    }
    // (location, id, flags, host pools' code, managed pools' code, device pool's code),
    // applied in this order, and the device's and the host's access after each.
    let sets = [
        (DEVICE, 0, 3, None, None, None, (3, 3), (3, 0)),
        (DEVICE, 0, 1, NOT_SUPPORTED, NOT_SUPPORTED, NOT_SUPPORTED, (3, 3), (3, 0)),
        (DEVICE, 0, 0, None, None, Some(CuError::INVALID_DEVICE), (0, 3), (0, 0)),
        (DEVICE, 99, 3, Some(CuError::INVALID_DEVICE), Some(CuError::INVALID_DEVICE), Some(CuError::INVALID_DEVICE), (0, 3), (0, 0)),
        (HOST, 0, 3, None, None, NOT_SUPPORTED, (0, 3), (0, 3)),
        (HOST, 0, 0, NOT_SUPPORTED, None, NOT_SUPPORTED, (0, 3), (0, 0)),
        (HOST, 0, 1, NOT_SUPPORTED, NOT_SUPPORTED, NOT_SUPPORTED, (0, 3), (0, 0)),
        (HOST_NUMA, 0, 3, None, None, NOT_SUPPORTED, (0, 3), (0, 3)),
        (HOST_NUMA, 0, 0, NOT_SUPPORTED, None, NOT_SUPPORTED, (0, 3), (0, 0)),
        (HOST_NUMA_CURRENT, 0, 3, INVALID, INVALID, NOT_SUPPORTED, (0, 3), (0, 0)),
        (NONE, 0, 3, INVALID, INVALID, NOT_SUPPORTED, (0, 3), (0, 0)),
        (DEVICE, 0, 2, INVALID, INVALID, INVALID, (0, 3), (0, 0)),
    ];
    for (l, id, flags, h, m, d, host_after, managed_after) in sets {
        let set = |pool: PoolHandle| driver.mem_pool_set_access(pool, &[(l, id, flags)]).err();
        let after = |pool: PoolHandle| (get(pool, DEVICE, 0).unwrap(), get(pool, HOST, 0).unwrap());
        for pool in [host, numa] {
            assert_eq!(set(pool), h, "host pool: location {l} id {id} flags {flags}");
            assert_eq!(after(pool), host_after, "host pool after location {l} id {id} flags {flags}");
        }
        for pool in [managed, managed_dev] {
            assert_eq!(set(pool), m, "managed pool: location {l} id {id} flags {flags}");
            assert_eq!(after(pool), managed_after, "managed pool after location {l} id {id} flags {flags}");
        }
        assert_eq!(set(device), d, "device pool: location {l} id {id} flags {flags}");
        assert_eq!(after(device), (3, 0));
    }
}

#[test]
fn current_pools_are_per_place() {
    let (driver, _) = setup();
    let (host, numa, managed, managed_dev, device) = one_pool_per_place(&driver);
    // (type, location, id, pool, code), applied in this order, as the H200 answered.
    let table = [
        (PINNED, HOST, 0, host, None),
        (PINNED, HOST, 99, host, None),
        (PINNED, HOST_NUMA, 0, host, INVALID),
        (PINNED, HOST_NUMA, 0, numa, None),
        (PINNED, HOST, 0, numa, INVALID),
        (PINNED, DEVICE, 0, host, INVALID),
        (PINNED, HOST, 0, device, INVALID),
        (MANAGED, NONE, 0, host, INVALID),
        (PINNED, HOST, 0, managed, INVALID),
        (MANAGED, NONE, 0, managed, None),
        (MANAGED, DEVICE, 0, managed, INVALID),
        (MANAGED, NONE, 0, managed_dev, INVALID),
        (MANAGED, DEVICE, 0, managed_dev, None),
        (MANAGED, HOST, 0, managed, INVALID),
        (PINNED, DEVICE, 0, managed, INVALID),
        (PINNED, HOST_NUMA, 1, numa, INVALID),
        (PINNED, DEVICE, 0, PoolHandle::NULL, INVALID),
        (PINNED, HOST, 0, PoolHandle::NULL, INVALID),
    ];
    for (t, l, id, pool, code) in table {
        assert_eq!(driver.mem_set_mem_pool(l, id, t, pool).err(), code, "type {t} location {l} id {id} pool {pool:?}");
        if code.is_none() {
            assert_eq!(driver.mem_get_mem_pool(l, id, t), Ok(pool));
        }
    }
    assert_eq!(driver.mem_get_mem_pool(HOST, 0, PINNED), Ok(host));
    assert_eq!(driver.mem_get_mem_pool(HOST_NUMA, 0, PINNED), Ok(numa));
    assert_eq!(driver.mem_get_mem_pool(NONE, 3, MANAGED), Ok(managed));
    // cuDeviceSetMemPool takes a pool located at the device, of either type; a managed
    // one becomes the device's managed pool, leaving cuDeviceGetMemPool's pinned pool.
    assert_eq!(driver.device_set_mem_pool(0, host).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.device_set_mem_pool(0, managed).unwrap_err(), CuError::INVALID_VALUE);
    let other = driver.mem_pool_create(&props(MANAGED, DEVICE, 0)).unwrap();
    driver.device_set_mem_pool(0, other).unwrap();
    assert_eq!(driver.mem_get_mem_pool(DEVICE, 0, MANAGED), Ok(other));
    assert_eq!(driver.device_get_mem_pool(0), Ok(device));
    // cuMemAllocAsync allocates from the device's pinned pool only.
    let s = driver.stream_create(1).unwrap();
    let p = driver.mem_alloc_async(256, s).unwrap();
    assert_eq!(driver.pointer_attribute(17, p), Ok(V::U64(device.0)));
    assert_eq!(driver.pointer_attribute(2, p), Ok(V::U32(2)));
    driver.mem_free_async(p, s).unwrap();
    // Destroying a current pool: the place's default pool is current again.
    driver.mem_pool_destroy(host).unwrap();
    assert_eq!(driver.mem_get_mem_pool(HOST, 0, PINNED), driver.mem_get_default_mem_pool(HOST, 0, PINNED));
    assert_eq!(driver.mem_pool_destroy(host).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn devices_report_host_memory_pools_where_they_reach_host_memory() {
    let (driver, _) = setup();
    // HOST_NUMA_ID, HOST_NUMA_MEMORY_POOLS_SUPPORTED, HOST_MEMORY_POOLS_SUPPORTED (1 on the H200).
    assert_eq!(driver.device_attribute(0, 134), Ok(0));
    assert_eq!(driver.device_attribute(0, 142), Ok(1));
    assert_eq!(driver.device_attribute(0, 144), Ok(1));
    // A device whose memory the host does not address, without managed memory: no host or
    // managed pools (NOT_SUPPORTED), and the attributes say so.
    let driver = Driver::new(vec![FakeDevice::discrete(None)]);
    assert_eq!(driver.device_attribute(0, 142), Ok(0));
    assert_eq!(driver.device_attribute(0, 144), Ok(0));
    assert_eq!(driver.mem_get_default_mem_pool(HOST, 0, PINNED).unwrap_err(), CuError::NOT_SUPPORTED);
    assert_eq!(driver.mem_pool_create(&props(MANAGED, NONE, 0)).unwrap_err(), CuError::NOT_SUPPORTED);
    assert!(driver.mem_get_default_mem_pool(DEVICE, 0, PINNED).is_ok());
}
