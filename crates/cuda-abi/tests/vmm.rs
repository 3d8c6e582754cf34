//! Virtual memory management through the C entry points on the CPU device: reservations,
//! physical allocations, mappings and access, copies, fills and kernels over mapped
//! ranges, aliasing, export and import as file descriptors, and the documented error
//! codes of misuse (CUDA Driver API, "Virtual Memory Management"). Also
//! `cuStreamGetCaptureInfo*`, which PyTorch calls before it allocates.
//!
//! Each test works in its own created context.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ffi::{c_int, c_uint, c_void};
use std::ptr::null_mut;

use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::launch::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::module::*;
use cuda::exports::stream::*;
use cuda::exports::vmm::*;
use cuda::proc_table::cuGetProcAddress_v2;
use cuda::types::*;
use support::*;

mod support;

const READ: c_uint = 1;
const READWRITE: c_uint = 3;
const POSIX_FD: c_uint = 1;

fn page() -> usize {
    unsafe { libc::sysconf(libc::_SC_PAGESIZE) as usize }
}

fn prop(device: CUdevice, handle_types: c_uint) -> CUmemAllocationProp {
    CUmemAllocationProp {
        kind: 1, // CU_MEM_ALLOCATION_TYPE_PINNED
        requestedHandleTypes: handle_types,
        location: CUmemLocation { kind: 1, id: device }, // CU_MEM_LOCATION_TYPE_DEVICE
        win32HandleMetaData: null_mut(),
        allocFlags: CUmemAllocationPropFlags::default(),
    }
}

fn access(device: CUdevice, flags: c_uint) -> CUmemAccessDesc {
    CUmemAccessDesc { location: CUmemLocation { kind: 1, id: device }, flags }
}

fn reserve(size: usize) -> CUdeviceptr {
    let mut va = 0;
    ok(unsafe { cuMemAddressReserve(&mut va, size, 0, 0, 0) }, "cuMemAddressReserve");
    assert_ne!(va, 0);
    va
}

fn create(device: CUdevice, size: usize, handle_types: c_uint) -> CUmemGenericAllocationHandle {
    let mut handle = 0;
    ok(unsafe { cuMemCreate(&mut handle, size, &prop(device, handle_types), 0) }, "cuMemCreate");
    assert!(handle != 0 && (handle as i64) > 0, "handle {handle:#x}");
    handle
}

fn read_u32s(src: CUdeviceptr, n: usize) -> Vec<u32> {
    let mut out = vec![0u32; n];
    ok(unsafe { cuMemcpyDtoH_v2(out.as_mut_ptr().cast(), src, n * 4) }, "cuMemcpyDtoH_v2");
    out
}

fn launch_add(f: CUfunction, data: CUdeviceptr, n: u32, add: u32) -> CUresult {
    let (mut data, mut n_arg, mut add) = (data, n, add);
    let mut params = [(&mut data as *mut u64).cast::<c_void>(), (&mut n_arg as *mut u32).cast(), (&mut add as *mut u32).cast()];
    let res = unsafe { cuLaunchKernel(f, n.div_ceil(128), 1, 1, 128, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) };
    if res != CUresult::SUCCESS {
        return res;
    }
    unsafe { cuCtxSynchronize() }
}

#[test]
fn attributes_granularity_and_proc_addresses() {
    let ctx = Ctx::new();
    for (attr, expected) in [(102, 1), (103, 1), (104, 0)] {
        let mut value = -1;
        ok(unsafe { cuDeviceGetAttribute(&mut value, attr, ctx.1) }, "cuDeviceGetAttribute");
        assert_eq!(value, expected, "attribute {attr}");
    }
    let mut granularity = 0;
    ok(unsafe { cuMemGetAllocationGranularity(&mut granularity, &prop(ctx.1, 0), 0) }, "minimum");
    assert_eq!(granularity, page());
    ok(unsafe { cuMemGetAllocationGranularity(&mut granularity, &prop(ctx.1, 0), 1) }, "recommended");
    assert_eq!(granularity, 2 << 20);
    assert_eq!(unsafe { cuMemGetAllocationGranularity(&mut granularity, &prop(ctx.1, 0), 2) }, INVALID_VALUE, "option");
    // NVIDIA's driver does not check the device of a granularity query (H200, 2026-11-27).
    ok(unsafe { cuMemGetAllocationGranularity(&mut granularity, &prop(99, 0), 0) }, "device 99");
    let mut bad_type = prop(ctx.1, 0);
    bad_type.kind = 0;
    assert_eq!(unsafe { cuMemGetAllocationGranularity(&mut granularity, &bad_type, 0) }, INVALID_VALUE, "type");
    assert_eq!(unsafe { cuMemGetAllocationGranularity(&mut granularity, std::ptr::null(), 0) }, INVALID_VALUE, "NULL prop");

    for name in
        [c"cuMemAddressReserve", c"cuMemCreate", c"cuMemMap", c"cuMemSetAccess", c"cuMemRetainAllocationHandle", c"cuMemImportFromShareableHandle"]
    {
        let (mut pfn, mut status) = (null_mut(), -1);
        ok(unsafe { cuGetProcAddress_v2(name.as_ptr(), &mut pfn, 13000, 0, &mut status) }, "cuGetProcAddress_v2");
        let symbol = cuda::proc_table::symbol(name.to_str().unwrap()).unwrap();
        assert!(symbol.implemented, "{name:?}");
        assert_eq!(pfn, symbol.addr.0 as *mut c_void);
    }
}

#[test]
fn mapped_ranges_take_copies_fills_and_kernels_and_alias() {
    let ctx = Ctx::new();
    let g = page();
    let (a, b) = (reserve(8 * g), reserve(4 * g));
    let (h1, h2) = (create(ctx.1, 2 * g, 0), create(ctx.1, 2 * g, 0));
    // h1 and h2 side by side at a + g: one device range of 4 pages.
    let base = a + g as u64;
    ok(unsafe { cuMemMap(base, 2 * g, 0, h1, 0) }, "map h1");
    ok(unsafe { cuMemMap(base + 2 * g as u64, 2 * g, 0, h2, 0) }, "map h2");
    // Mappings start inaccessible: copies into them fail.
    let word = 7u32;
    assert_eq!(unsafe { cuMemcpyHtoD_v2(base, (&word as *const u32).cast(), 4) }, INVALID_VALUE, "no access yet");
    let mut flags = 9;
    ok(unsafe { cuMemGetAccess(&mut flags, &CUmemLocation { kind: 1, id: ctx.1 }, base) }, "cuMemGetAccess");
    assert_eq!(flags, 0);
    ok(unsafe { cuMemSetAccess(base, 4 * g, &access(ctx.1, READWRITE), 1) }, "cuMemSetAccess over both mappings");
    ok(unsafe { cuMemGetAccess(&mut flags, &CUmemLocation { kind: 1, id: ctx.1 }, base + 3 * g as u64) }, "cuMemGetAccess");
    assert_eq!(flags, READWRITE as u64);

    // A fill and a copy across the boundary between the two mappings, then a kernel.
    let n = g; // u32 elements: 4 pages
    ok(unsafe { cuMemsetD32_v2(base, 0x0101_0101, n) }, "cuMemsetD32 across mappings");
    let input: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
    let mid = base + g as u64; // middle of h1 .. middle of h2
    ok(unsafe { cuMemcpyHtoD_v2(mid, input.as_ptr().cast(), 2 * g) }, "cuMemcpyHtoD across mappings");
    let (module, f) = add_kernel();
    ok(launch_add(f, base, n as u32, 5), "kernel over both mappings");
    let expected: Vec<u32> =
        (0..n).map(|i| if (g / 4..g / 4 + g / 2).contains(&i) { input[i - g / 4].wrapping_add(5) } else { 0x0101_0101 + 5 }).collect();
    assert_eq!(read_u32s(base, n), expected);
    // Host code sees the same bytes (the CPU device's memory is the host's).
    assert_eq!(unsafe { std::slice::from_raw_parts(base as usize as *const u32, n) }, &expected[..]);
    // Past the mapped run the reservation is not mapped: copies fail.
    assert_eq!(unsafe { cuMemsetD32_v2(base, 0, n + 1) }, INVALID_VALUE, "runs into unmapped space");
    assert_eq!(unsafe { cuMemcpy(a, (&word as *const u32) as u64, 4) }, INVALID_VALUE, "unified copy into unmapped space");

    // The same physical allocation h1 also at b: writes through one address are seen
    // through the other.
    ok(unsafe { cuMemMap(b, 2 * g, 0, h1, 0) }, "map h1 again");
    ok(unsafe { cuMemSetAccess(b, 2 * g, &access(ctx.1, READWRITE), 1) }, "access at b");
    let words = [0xdead_beefu32, 0x1234_5678];
    ok(unsafe { cuMemcpyHtoD_v2(b + 8, words.as_ptr().cast(), 8) }, "write through b");
    assert_eq!(read_u32s(base + 8, 2), words);
    ok(launch_add(f, base, 4, 1), "kernel through a");
    assert_eq!(read_u32s(b + 8, 2), [0xdead_bef0, 0x1234_5679]);

    // Pointer queries name the mapping.
    let (mut range_base, mut range_size) = (0, 0);
    ok(unsafe { cuMemGetAddressRange_v2(&mut range_base, &mut range_size, base + 2 * g as u64 + 12) }, "cuMemGetAddressRange");
    assert_eq!((range_base, range_size), (base + 2 * g as u64, 2 * g));
    let mut memory_type = 0u32;
    ok(unsafe { cuPointerGetAttribute((&mut memory_type as *mut u32).cast(), pointer_attribute::MEMORY_TYPE, b + 4) }, "memory type");
    assert_eq!(memory_type, memory_type::DEVICE);
    let mut access_flags = 0u32;
    ok(unsafe { cuPointerGetAttribute((&mut access_flags as *mut u32).cast(), 16, b) }, "access flags");
    assert_eq!(access_flags, READWRITE);

    // Read-only access: reads work, writes are refused.
    ok(unsafe { cuMemSetAccess(b, 2 * g, &access(ctx.1, READ), 1) }, "read-only");
    assert_eq!(read_u32s(b + 8, 2), [0xdead_bef0, 0x1234_5679]);
    assert_eq!(unsafe { cuMemcpyHtoD_v2(b, words.as_ptr().cast(), 8) }, INVALID_VALUE, "write to read-only mapping");
    assert_eq!(unsafe { cuMemsetD32_v2(b, 0, 1) }, INVALID_VALUE, "fill of read-only mapping");

    ok(unsafe { cuModuleUnload(module) }, "unload");
    ok(unsafe { cuMemUnmap(b, 2 * g) }, "unmap b");
    ok(unsafe { cuMemUnmap(base, 4 * g) }, "unmap both mappings at once");
    assert_eq!(unsafe { cuMemcpyHtoD_v2(base, (&word as *const u32).cast(), 4) }, INVALID_VALUE, "unmapped again");
    ok(unsafe { cuMemRelease(h1) }, "release h1");
    ok(unsafe { cuMemRelease(h2) }, "release h2");
    ok(unsafe { cuMemAddressFree(a, 8 * g) }, "free a");
    ok(unsafe { cuMemAddressFree(b, 4 * g) }, "free b");
}

#[test]
fn handles_export_import_retain_and_release() {
    let ctx = Ctx::new();
    let g = page();
    let va = reserve(4 * g);
    let h = create(ctx.1, 2 * g, POSIX_FD);
    let mut p = prop(0, 0);
    ok(unsafe { cuMemGetAllocationPropertiesFromHandle(&mut p, h) }, "properties");
    assert_eq!((p.kind, p.requestedHandleTypes, p.location.kind, p.location.id), (1, POSIX_FD, 1, ctx.1));
    ok(unsafe { cuMemMap(va, 2 * g, 0, h, 0) }, "map");
    ok(unsafe { cuMemSetAccess(va, 2 * g, &access(ctx.1, READWRITE), 1) }, "access");
    let mut handle_types = 0u64;
    ok(unsafe { cuPointerGetAttribute((&mut handle_types as *mut u64).cast(), 14, va) }, "allowed handle types");
    assert_eq!(handle_types, POSIX_FD as u64);

    // Export: a descriptor of a file of the allocation's size holding its bytes.
    let words = [11u32, 22, 33];
    ok(unsafe { cuMemcpyHtoD_v2(va + g as u64, words.as_ptr().cast(), 12) }, "write");
    let mut fd: c_int = -1;
    ok(unsafe { cuMemExportToShareableHandle((&mut fd as *mut c_int).cast(), h, POSIX_FD, 0) }, "export");
    assert!(fd >= 0);
    let mut st: libc::stat = unsafe { std::mem::zeroed() };
    assert_eq!(unsafe { libc::fstat(fd, &mut st) }, 0);
    assert_eq!(st.st_size as usize, 2 * g);
    let mut from_file = [0u32; 3];
    assert_eq!(unsafe { libc::pread(fd, from_file.as_mut_ptr().cast(), 12, g as libc::off_t) }, 12);
    assert_eq!(from_file, words);

    // Import: the same memory, mapped a second time, aliases the first mapping.
    let mut imported = 0;
    ok(unsafe { cuMemImportFromShareableHandle(&mut imported, fd as usize as *mut c_void, POSIX_FD) }, "import");
    assert!((imported as i64) > 0);
    unsafe { libc::close(fd) };
    ok(unsafe { cuMemMap(va + 2 * g as u64, 2 * g, 0, imported, 0) }, "map imported");
    ok(unsafe { cuMemSetAccess(va + 2 * g as u64, 2 * g, &access(ctx.1, READWRITE), 1) }, "access");
    assert_eq!(read_u32s(va + 3 * g as u64, 3), words);
    ok(unsafe { cuMemRelease(imported) }, "release the imported handle while mapped");

    // Retain from any address of the mapping: the handle that was mapped there.
    let mut retained = 0;
    ok(unsafe { cuMemRetainAllocationHandle(&mut retained, (va + 100) as usize as *mut c_void) }, "retain");
    assert_eq!(retained, h);
    ok(unsafe { cuMemRelease(retained) }, "release the retained reference");
    // Released while mapped (allowed, as cuMemRelease documents): the memory stays.
    ok(unsafe { cuMemRelease(h) }, "release while mapped");
    assert_eq!(read_u32s(va + g as u64, 3), words);
    assert_eq!(unsafe { cuMemRelease(h) }, INVALID_VALUE, "no reference left");
    // Retaining brings a reference back, which a release takes away again.
    ok(unsafe { cuMemRetainAllocationHandle(&mut retained, va as usize as *mut c_void) }, "retain after release");
    assert_eq!(retained, h);
    ok(unsafe { cuMemRelease(retained) }, "release");

    ok(unsafe { cuMemUnmap(va, 4 * g) }, "unmap");
    // The last mapping is gone: the handle is too.
    assert_eq!(unsafe { cuMemRelease(h) }, INVALID_VALUE, "stale handle");
    assert_eq!(unsafe { cuMemMap(va, 2 * g, 0, h, 0) }, INVALID_VALUE, "map of a stale handle");
    ok(unsafe { cuMemAddressFree(va, 4 * g) }, "free");
}

#[test]
fn misuse_answers_the_documented_error_codes() {
    let ctx = Ctx::new();
    let g = page();
    let mut va = 0;
    // cuMemAddressReserve: size 0 or not a page multiple, alignment not a power of two, flags.
    assert_eq!(unsafe { cuMemAddressReserve(&mut va, 0, 0, 0, 0) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemAddressReserve(&mut va, g + 1, 0, 0, 0) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemAddressReserve(&mut va, g, 3 * g, 0, 0) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemAddressReserve(&mut va, g, 0, 0, 1) }, INVALID_VALUE);
    // A requested alignment is honoured.
    ok(unsafe { cuMemAddressReserve(&mut va, 2 * g, 1 << 24, 0, 0) }, "aligned reserve");
    assert_eq!(va % (1 << 24), 0);
    ok(unsafe { cuMemAddressFree(va, 2 * g) }, "free");

    // cuMemCreate: size, flags, handle types.
    let mut h = 0;
    assert_eq!(unsafe { cuMemCreate(&mut h, 0, &prop(ctx.1, 0), 0) }, INVALID_VALUE, "size 0");
    assert_eq!(unsafe { cuMemCreate(&mut h, g + 8, &prop(ctx.1, 0), 0) }, INVALID_VALUE, "not a granularity multiple");
    assert_eq!(unsafe { cuMemCreate(&mut h, g, &prop(ctx.1, 0), 1) }, INVALID_VALUE, "flags");
    assert_eq!(unsafe { cuMemCreate(&mut h, g, &prop(ctx.1, 2), 0) }, CUresult::ERROR_NOT_SUPPORTED, "Win32 handles");
    assert_eq!(unsafe { cuMemCreate(&mut h, g, &prop(ctx.1, 0x40), 0) }, INVALID_VALUE, "unknown handle type");
    assert_eq!(unsafe { cuMemCreate(&mut h, g, &prop(5, 0), 0) }, CUresult::ERROR_INVALID_DEVICE, "device");

    let va = reserve(4 * g);
    let h = create(ctx.1, 2 * g, 0);
    // cuMemMap: outside the reservation, misaligned, past the allocation, flags, double map.
    // Outside a reservation and nonzero offsets: NOT_SUPPORTED, as NVIDIA's driver answers.
    assert_eq!(unsafe { cuMemMap(va + 3 * g as u64, 2 * g, 0, h, 0) }, CUresult::ERROR_NOT_SUPPORTED, "runs past the reservation");
    assert_eq!(unsafe { cuMemMap(va + 8, g, 0, h, 0) }, INVALID_VALUE, "misaligned address");
    assert_eq!(unsafe { cuMemMap(va, g, g + 1, h, 0) }, CUresult::ERROR_NOT_SUPPORTED, "misaligned offset");
    assert_eq!(unsafe { cuMemMap(va, g, g, h, 0) }, CUresult::ERROR_NOT_SUPPORTED, "any offset");
    assert_eq!(unsafe { cuMemMap(va, 2 * g, 0, h, 1) }, INVALID_VALUE, "flags");
    assert_eq!(unsafe { cuMemMap(va, 2 * g, 0, 12345, 0) }, INVALID_VALUE, "not a handle");
    let h1 = create(ctx.1, g, 0);
    ok(unsafe { cuMemMap(va + g as u64, g, 0, h1, 0) }, "map the second page");
    assert_eq!(unsafe { cuMemMap(va, 2 * g, 0, h, 0) }, INVALID_VALUE, "overlaps a mapping");
    assert_eq!(unsafe { cuMemMap(va + g as u64, g, 0, h1, 0) }, INVALID_VALUE, "double map");

    // cuMemSetAccess / cuMemGetAccess: flags, unmapped or partly mapped ranges.
    assert_eq!(unsafe { cuMemSetAccess(va + g as u64, g, &access(ctx.1, 2), 1) }, INVALID_VALUE, "flags 2");
    assert_eq!(unsafe { cuMemSetAccess(va + g as u64, g, &access(ctx.1, READWRITE), 0) }, INVALID_VALUE, "count 0");
    assert_eq!(unsafe { cuMemSetAccess(va, 2 * g, &access(ctx.1, READWRITE), 1) }, INVALID_VALUE, "partly unmapped");
    assert_eq!(unsafe { cuMemSetAccess(va + g as u64, g, &access(7, READWRITE), 1) }, CUresult::ERROR_INVALID_DEVICE, "device");
    let mut flags = 0;
    assert_eq!(unsafe { cuMemGetAccess(&mut flags, &CUmemLocation { kind: 1, id: ctx.1 }, va) }, INVALID_VALUE, "not mapped");

    // cuMemUnmap of part of a mapping, of unmapped space.
    ok(unsafe { cuMemUnmap(va, g) }, "nothing mapped there: already unmapped, as NVIDIA's driver answers");
    assert_eq!(unsafe { cuMemUnmap(va, 2 * g) }, INVALID_VALUE, "more than what is mapped");

    // cuMemRetainAllocationHandle of an unmapped address; export without the handle type.
    let mut retained = 0;
    assert_eq!(unsafe { cuMemRetainAllocationHandle(&mut retained, va as usize as *mut c_void) }, INVALID_VALUE);
    let mut fd: c_int = -1;
    assert_eq!(unsafe { cuMemExportToShareableHandle((&mut fd as *mut c_int).cast(), h, POSIX_FD, 0) }, INVALID_VALUE, "not requested");
    // Descriptor -1 (not open): NVIDIA's driver 580 answers CUDA_ERROR_UNKNOWN.
    assert_eq!(
        unsafe { cuMemImportFromShareableHandle(&mut retained, usize::MAX as *mut c_void, POSIX_FD) },
        CUresult::ERROR_UNKNOWN,
        "no descriptor"
    );

    // cuMemAddressFree: the exact reservation, without mappings.
    assert_eq!(unsafe { cuMemAddressFree(va, 2 * g) }, INVALID_VALUE, "wrong size");
    assert_eq!(unsafe { cuMemAddressFree(va + g as u64, 3 * g) }, INVALID_VALUE, "not the base");
    assert_eq!(unsafe { cuMemAddressFree(va, 4 * g) }, INVALID_VALUE, "still mapped");
    ok(unsafe { cuMemUnmap(va + g as u64, g) }, "unmap");
    ok(unsafe { cuMemRelease(h) }, "release");
    ok(unsafe { cuMemRelease(h1) }, "release the second");
    ok(unsafe { cuMemAddressFree(va, 4 * g) }, "free");
}

#[test]
fn a_kernel_touching_an_inaccessible_mapping_faults() {
    let ctx = Ctx::new();
    let g = page();
    let va = reserve(g);
    let h = create(ctx.1, g, 0);
    ok(unsafe { cuMemMap(va, g, 0, h, 0) }, "map");
    let (_module, f) = add_kernel();
    assert_eq!(launch_add(f, va, 4, 1), CUresult(700), "CUDA_ERROR_ILLEGAL_ADDRESS");
    drop(ctx);
    ok(unsafe { cuMemUnmap(va, g) }, "unmap after the context is gone");
    ok(unsafe { cuMemRelease(h) }, "release");
    ok(unsafe { cuMemAddressFree(va, g) }, "free");
}

#[test]
fn capture_info_says_not_capturing() {
    let _ctx = Ctx::new();
    let mut stream = null_mut();
    ok(unsafe { cuStreamCreate(&mut stream, 0) }, "cuStreamCreate");
    for s in [null_mut(), CU_STREAM_LEGACY as CUstream, CU_STREAM_PER_THREAD as CUstream, stream] {
        let (mut status, mut id, mut graph, mut deps, mut edges, mut count) =
            (-1, 9u64, std::ptr::dangling_mut::<c_void>(), std::ptr::dangling::<c_void>(), std::ptr::dangling::<c_void>(), 9usize);
        ok(unsafe { cuStreamGetCaptureInfo_v3(s, &mut status, &mut id, &mut graph, &mut deps, &mut edges, &mut count) }, "v3");
        assert_eq!((status, id, graph, deps, edges, count), (0, 0, null_mut(), std::ptr::null(), std::ptr::null(), 0));
        status = -1;
        ok(unsafe { cuStreamGetCaptureInfo_v3_ptsz(s, &mut status, null_mut(), null_mut(), null_mut(), null_mut(), null_mut()) }, "v3 ptsz");
        assert_eq!(status, 0);
        status = -1;
        ok(unsafe { cuStreamGetCaptureInfo_v2(s, &mut status, &mut id, null_mut(), null_mut(), &mut count) }, "v2");
        assert_eq!(status, 0);
        status = -1;
        ok(unsafe { cuStreamGetCaptureInfo(s, &mut status, &mut id) }, "10.1 form");
        assert_eq!(status, 0);
    }
    assert_eq!(unsafe { cuStreamGetCaptureInfo_v3(stream, null_mut(), null_mut(), null_mut(), null_mut(), null_mut(), null_mut()) }, INVALID_VALUE);
    ok(unsafe { cuStreamDestroy_v2(stream) }, "cuStreamDestroy_v2");
    let mut status = -1;
    assert_eq!(
        unsafe { cuStreamGetCaptureInfo_v3(stream, &mut status, null_mut(), null_mut(), null_mut(), null_mut(), null_mut()) },
        CUresult::ERROR_INVALID_HANDLE,
        "destroyed stream"
    );
}
