//! IPC, pool IPC, peer access and external memory through the driver, on fake devices
//! (host memory). Two `Driver`s in one process stand for two processes where the
//! handles allow it (pools and external memory travel as descriptors); memory and event
//! handles name their process, so opening them here checks the codes only (the
//! two-process runs are `ctests/ipc.cu`).

use std::ffi::c_void;
use std::os::fd::AsRawFd;

use crate::fake::FakeDevice;
use crate::mempool::PoolProps;
use crate::tests::setup;
use crate::{CuError, Driver};

fn pinned_posix_fd() -> PoolProps {
    PoolProps { alloc_type: 1, location_type: 1, location_id: 0, handle_types: 1, reserved_zero: true, ..PoolProps::default() }
}

fn write(driver: &Driver, dst: u64, bytes: &[u8]) {
    // SAFETY: a readable buffer of `bytes.len()` bytes.
    unsafe { driver.memcpy_htod(dst, bytes.as_ptr().cast::<c_void>(), bytes.len()) }.unwrap();
}

fn read(driver: &Driver, src: u64, n: usize) -> Vec<u8> {
    let mut out = vec![0u8; n];
    // SAFETY: a writable buffer of `n` bytes.
    unsafe { driver.memcpy_dtoh(out.as_mut_ptr().cast::<c_void>(), src, n) }.unwrap();
    out
}

#[test]
fn pool_allocations_travel_through_the_pool_descriptor() {
    let (exporter, _) = setup();
    let pool = exporter.mem_pool_create(&pinned_posix_fd()).unwrap();
    let s = exporter.stream_create(1).unwrap();
    let a = exporter.mem_alloc_from_pool_async(100_000, pool, s).unwrap();
    let b = exporter.mem_alloc_from_pool_async(300, pool, s).unwrap();
    let pattern: Vec<u8> = (0..100_000u32).map(|i| (i * 7 % 251) as u8).collect();
    write(&exporter, a, &pattern);
    write(&exporter, b, b"pool b");
    let fd = exporter.mem_pool_export_to_fd(pool, 1, 0).unwrap();
    let data_a = exporter.mem_pool_export_pointer(a).unwrap();
    let data_b = exporter.mem_pool_export_pointer(b).unwrap();
    assert_eq!(exporter.mem_pool_export_to_fd(pool, 2, 0), Err(CuError::INVALID_VALUE), "not the pool's handle type");
    assert_eq!(exporter.mem_pool_export_pointer(a + 512), Err(CuError::INVALID_VALUE), "not an allocation's base");
    let plain = exporter.device_get_default_mem_pool(0).unwrap();
    assert_eq!(exporter.mem_pool_export_to_fd(plain, 1, 0), Err(CuError::INVALID_VALUE), "not created shareable");
    assert_eq!(exporter.mem_pool_import_pointer(pool, &data_a), Err(CuError::INVALID_VALUE), "not an imported pool");

    let (importer, _) = setup();
    let imported = importer.mem_pool_import_from_fd(fd, 1, 0).unwrap();
    // SAFETY: the descriptor export handed out, closed once.
    unsafe { libc::close(fd) };
    let ia = importer.mem_pool_import_pointer(imported, &data_a).unwrap();
    assert_eq!(importer.mem_pool_import_pointer(imported, &data_a), Ok(ia), "the same allocation again: the same address");
    let ib = importer.mem_pool_import_pointer(imported, &data_b).unwrap();
    assert_eq!(read(&importer, ia, pattern.len()), pattern);
    assert_eq!(read(&importer, ib, 6), b"pool b");
    write(&importer, ib, b"seen");
    assert_eq!(read(&exporter, b, 4), b"seen", "one memory, both ways");
    assert_eq!(importer.mem_pool_import_pointer(imported, &[0; 64]), Err(CuError::INVALID_VALUE));
    let s2 = importer.stream_create(1).unwrap();
    assert_eq!(importer.mem_alloc_from_pool_async(64, imported, s2), Err(CuError::INVALID_VALUE), "imported pools do not allocate");

    // Another pool's pointer does not import into this pool.
    let other = exporter.mem_pool_create(&pinned_posix_fd()).unwrap();
    let c = exporter.mem_alloc_from_pool_async(64, other, s).unwrap();
    let data_c = exporter.mem_pool_export_pointer(c).unwrap();
    assert_eq!(importer.mem_pool_import_pointer(imported, &data_c), Err(CuError::INVALID_VALUE));

    importer.mem_free(ia).unwrap();
    importer.mem_free_async(ib, s2).unwrap();
    importer.stream_synchronize(s2).unwrap();
    assert_eq!(importer.mem_free(ia), Err(CuError::INVALID_VALUE), "freed once");
    importer.mem_pool_destroy(imported).unwrap();

    let memfd = crate::vmm::host::memfd(4096).unwrap();
    assert_eq!(importer.mem_pool_import_from_fd(memfd.as_raw_fd(), 1, 0), Err(CuError::UNKNOWN), "not a pool's descriptor");
    assert_eq!(importer.mem_pool_import_from_fd(memfd.as_raw_fd(), 2, 0), Err(CuError::NOT_SUPPORTED), "Win32 handles");
}

#[test]
fn memory_and_event_handles_check_their_arguments() {
    let (driver, _) = setup();
    let d = driver.mem_alloc(1 << 16).unwrap();
    // The fake device cannot move memory into a file.
    assert_eq!(driver.ipc_get_mem_handle(d), Err(CuError::NOT_SUPPORTED));
    let s = driver.stream_create(1).unwrap();
    let pooled = driver.mem_alloc_async(4096, s).unwrap();
    assert_eq!(driver.ipc_get_mem_handle(pooled), Err(CuError::INVALID_VALUE), "pool memory");
    assert_eq!(driver.ipc_get_mem_handle(0), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.ipc_open_mem_handle(&[0; 64], 1), Err(CuError::INVALID_VALUE), "not a handle");
    assert_eq!(driver.ipc_close_mem_handle(d), Err(CuError::INVALID_VALUE), "not opened IPC memory");

    assert_eq!(driver.event_create(crate::event::EVENT_INTERPROCESS), Err(CuError::INVALID_VALUE), "needs DISABLE_TIMING");
    let plain = driver.event_create(0).unwrap();
    assert_eq!(driver.ipc_get_event_handle(plain), Err(CuError::INVALID_HANDLE));
    let e = driver.event_create(crate::event::EVENT_INTERPROCESS | crate::event::EVENT_DISABLE_TIMING).unwrap();
    let handle = driver.ipc_get_event_handle(e).unwrap();
    assert_eq!(driver.ipc_open_event_handle(&handle), Err(CuError::INVALID_CONTEXT), "this process's own event");
    assert_eq!(driver.ipc_open_event_handle(&[0; 64]), Err(CuError::MAP_FAILED));
    driver.event_record(e, s).unwrap();
    driver.event_synchronize(e).unwrap();
    assert_eq!(driver.event_query(e), Ok(()));
    driver.stream_wait_event(s, e, 0).unwrap();
    driver.stream_synchronize(s).unwrap();
}

#[test]
fn peer_access_is_enabled_once_per_pair() {
    let driver = Driver::new(vec![FakeDevice::new(), FakeDevice::new()]);
    let c0 = driver.primary_ctx_retain(0).unwrap();
    let c1 = driver.primary_ctx_retain(1).unwrap();
    driver.ctx_set_current(c0).unwrap();
    assert_eq!(driver.device_can_access_peer(0, 1), Ok(true));
    assert_eq!(driver.device_can_access_peer(0, 0), Ok(false), "a device is not its own peer");
    assert_eq!(driver.ctx_enable_peer_access(c1, 1), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.ctx_enable_peer_access(c0, 0), Err(CuError::PEER_ACCESS_UNSUPPORTED), "itself");
    assert_eq!(driver.ctx_disable_peer_access(c1), Err(CuError::PEER_ACCESS_NOT_ENABLED));
    driver.ctx_enable_peer_access(c1, 0).unwrap();
    assert_eq!(driver.ctx_enable_peer_access(c1, 0), Err(CuError::PEER_ACCESS_ALREADY_ENABLED));
    driver.ctx_disable_peer_access(c1).unwrap();
    assert_eq!(driver.ctx_disable_peer_access(c1), Err(CuError::PEER_ACCESS_NOT_ENABLED));
    assert_eq!(driver.ctx_enable_peer_access(crate::CtxHandle::NULL, 0), Err(CuError::INVALID_CONTEXT));

    let discrete = Driver::new(vec![FakeDevice::discrete(None), FakeDevice::discrete(None)]);
    assert_eq!(discrete.device_can_access_peer(0, 1), Ok(false), "no shared address space");
}

#[test]
fn external_memory_maps_an_imported_file() {
    let (driver, _) = setup();
    let file = crate::vmm::host::memfd(1 << 16).unwrap();
    let desc = |handle_type, fd, size, flags| crate::external_memory::HandleDesc { handle_type, fd, size, flags };
    let fd = file.as_raw_fd();
    assert_eq!(driver.import_external_memory(&desc(1, fd, 0, 0)).err(), Some(CuError::INVALID_VALUE), "size 0");
    assert_eq!(driver.import_external_memory(&desc(1, fd, 1 << 17, 0)).err(), Some(CuError::INVALID_VALUE), "past the file");
    assert_eq!(driver.import_external_memory(&desc(1, fd, 4096, 2)).err(), Some(CuError::INVALID_VALUE), "flags");
    assert_eq!(driver.import_external_memory(&desc(2, fd, 4096, 0)).err(), Some(CuError::NOT_SUPPORTED), "Win32");
    assert_eq!(driver.import_external_memory(&desc(9, fd, 4096, 0)).err(), Some(CuError::NOT_SUPPORTED), "dma-buf");
    assert_eq!(driver.import_external_memory(&desc(10, fd, 4096, 0)).err(), Some(CuError::INVALID_VALUE));
    // Success takes the descriptor over.
    let ext = driver.import_external_memory(&desc(1, std::os::fd::IntoRawFd::into_raw_fd(file), 1 << 16, 0)).unwrap();
    let whole = driver.external_memory_get_mapped_buffer(ext, 0, 1 << 16, 0).unwrap();
    let part = driver.external_memory_get_mapped_buffer(ext, 5000, 100, 0).unwrap();
    write(&driver, whole + 5000, b"external");
    assert_eq!(read(&driver, part, 8), b"external", "two mappings of one file");
    assert_eq!(driver.external_memory_get_mapped_buffer(ext, 1, 1 << 16, 0), Err(CuError::INVALID_VALUE));
    assert_eq!(driver.external_memory_get_mapped_buffer(ext, 0, 16, 1), Err(CuError::INVALID_VALUE));
    driver.destroy_external_memory(ext).unwrap();
    assert_eq!(driver.destroy_external_memory(ext), Err(CuError::INVALID_HANDLE));
    assert_eq!(read(&driver, part, 8), b"external", "buffers outlive the object");
    driver.mem_free(whole).unwrap();
    driver.mem_free(part).unwrap();
}

#[test]
fn external_memory_maps_a_mipmapped_array_level_after_level() {
    use crate::copy::{ArraySide, On};
    use crate::texture::Array3dDescriptor;
    let (driver, _) = setup();
    let file = crate::vmm::host::memfd(1 << 16).unwrap();
    let fd = std::os::fd::IntoRawFd::into_raw_fd(file);
    let ext = driver.import_external_memory(&crate::external_memory::HandleDesc { handle_type: 1, fd, size: 1 << 16, flags: 0 }).unwrap();
    let whole = driver.external_memory_get_mapped_buffer(ext, 0, 1 << 16, 0).unwrap();
    // 64 one-channel floats, 1-D: levels of 256, 128 and 64 bytes at 0, 512 and 1024 from
    // the offset (each level starts at a multiple of 512).
    let d = Array3dDescriptor { width: 64, height: 0, depth: 0, format: 0x20, num_channels: 1, flags: 0 };
    let offset = 4096;
    let bad = |levels, offset| driver.external_memory_get_mapped_mipmapped_array(ext, offset, &d, levels).err();
    assert_eq!(bad(0, offset), Some(CuError::INVALID_VALUE), "no level");
    assert_eq!(bad(8, offset), Some(CuError::INVALID_VALUE), "64 texels have 7 levels");
    assert_eq!(bad(3, (1 << 16) - 1024), Some(CuError::INVALID_VALUE), "the last level past the memory");
    let bad_handle = crate::external_memory::ExtMemHandle(ext.0 ^ 0x10);
    assert_eq!(driver.external_memory_get_mapped_mipmapped_array(bad_handle, 0, &d, 1).err(), Some(CuError::INVALID_HANDLE));

    let mipmap = driver.external_memory_get_mapped_mipmapped_array(ext, offset, &d, 3).unwrap();
    let level = |i| driver.mipmapped_array_get_level(mipmap, i).unwrap().0;
    assert_eq!(driver.mipmapped_array_get_level(mipmap, 3).err(), Some(CuError::INVALID_VALUE));
    let texels: Vec<u8> = (0..128u32).map(|i| (i * 7 + 3) as u8).collect();
    write(&driver, whole + offset + 512, &texels);
    let mut out = vec![0u8; 128];
    // SAFETY: `out` is writable for 128 bytes and the copy is blocking.
    unsafe {
        driver.memcpy_array(ArraySide::Host(out.as_mut_ptr().cast()), ArraySide::Array(level(1), 0), 128, On::Blocking(crate::StreamHandle::NULL))
    }
    .unwrap();
    assert_eq!(out, texels, "level 1 is the file at offset + 512");
    let back: Vec<u8> = (0..64u32).map(|i| (255 - i) as u8).collect();
    // SAFETY: `back` is readable for 64 bytes and the copy is blocking.
    unsafe { driver.memcpy_array(ArraySide::Array(level(2), 0), ArraySide::Host(back.as_ptr().cast()), 64, On::Blocking(crate::StreamHandle::NULL)) }
        .unwrap();
    assert_eq!(read(&driver, whole + offset + 1024, 64), back, "level 2 writes the file at offset + 1024");
    assert_eq!(
        driver.external_memory_get_mapped_mipmapped_array(crate::external_memory::ExtMemHandle(0), 0, &d, 1).err(),
        Some(CuError::INVALID_VALUE),
        "NULL"
    );
    // A level's handle can be released; the mapping stays for the other levels.
    driver.array_destroy(crate::texture::ArrayHandle(level(0))).unwrap();
    assert_eq!(read(&driver, whole + offset + 1024, 64), back);
    driver.mipmapped_array_destroy(mipmap).unwrap();
    assert_eq!(driver.mipmapped_array_get_level(mipmap, 0).err(), Some(CuError::INVALID_HANDLE));
    assert_eq!(read(&driver, whole + offset + 512, 128), texels, "the file outlives the array");
    driver.destroy_external_memory(ext).unwrap();
    driver.mem_free(whole).unwrap();
}
