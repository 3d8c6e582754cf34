//! Stream-ordered allocation and memory pools through the C entry points on the CPU
//! device: kernels on pool memory on several streams with no synchronization between
//! iterations, attribute widths (`int` or `cuuint64_t`), pointer attributes, and the codes
//! of misuse at the boundary (NULL arguments, bad property structures). The reuse rules
//! themselves are tested in `cuda-driver` (`src/tests/mempool.rs`).
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
use cuda::exports::mempool::*;
use cuda::exports::module::*;
use cuda::exports::stream::*;
use cuda::proc_table::cuGetProcAddress_v2;
use cuda::types::*;
use support::*;

mod support;

fn props(device: CUdevice) -> CUmemPoolProps {
    CUmemPoolProps {
        allocType: 1,
        handleTypes: 0,
        location: CUmemLocation { kind: 1, id: device },
        win32SecurityAttributes: null_mut(),
        maxSize: 0,
        usage: 0,
        reserved: [0; 54],
    }
}

fn attr_u64(pool: CUmemoryPool, attr: c_int) -> u64 {
    let mut v = 0u64;
    ok(unsafe { cuMemPoolGetAttribute(pool, attr, (&mut v as *mut u64).cast()) }, "cuMemPoolGetAttribute");
    v
}

#[test]
fn pool_entry_points_resolve_through_cu_get_proc_address() {
    let _ctx = Ctx::new();
    for name in [
        c"cuMemAllocAsync",
        c"cuMemAllocFromPoolAsync",
        c"cuMemFreeAsync",
        c"cuMemPoolCreate",
        c"cuMemPoolDestroy",
        c"cuMemPoolSetAttribute",
        c"cuMemPoolGetAttribute",
        c"cuMemPoolTrimTo",
        c"cuMemPoolSetAccess",
        c"cuMemPoolGetAccess",
        c"cuDeviceGetDefaultMemPool",
        c"cuDeviceGetMemPool",
        c"cuDeviceSetMemPool",
        c"cuMemGetDefaultMemPool",
        c"cuMemGetMemPool",
        c"cuMemSetMemPool",
    ] {
        let (mut pfn, mut status) = (null_mut(), 0);
        ok(unsafe { cuGetProcAddress_v2(name.as_ptr(), &mut pfn, 13000, 0, &mut status) }, "cuGetProcAddress_v2");
        let symbol = cuda::proc_table::symbol(name.to_str().unwrap()).unwrap();
        assert!(symbol.implemented, "{name:?}");
        assert_eq!(pfn, symbol.addr.0 as *mut c_void);
    }
    let mut supported = -1;
    ok(unsafe { cuDeviceGetAttribute(&mut supported, 115, 0) }, "MEMORY_POOLS_SUPPORTED");
    assert_eq!(supported, 1);
}

#[test]
fn kernels_on_pool_memory_on_several_streams() {
    let _ctx = Ctx::new();
    let (module, f) = add_kernel();
    const STREAMS: usize = 3;
    const ITERATIONS: usize = 6;
    const N: u32 = 3000;
    let mut streams = [null_mut(); STREAMS];
    for s in &mut streams {
        ok(unsafe { cuStreamCreate(s, 1) }, "cuStreamCreate");
    }
    let mut host = vec![0u32; STREAMS * ITERATIONS * N as usize];
    for it in 0..ITERATIONS {
        for (k, &s) in streams.iter().enumerate() {
            let mut p = 0;
            ok(unsafe { cuMemAllocAsync(&mut p, N as usize * 4, s) }, "cuMemAllocAsync");
            ok(unsafe { cuMemsetD32Async(p, (100 * k + it) as c_uint, N as usize, s) }, "cuMemsetD32Async");
            let (mut data, mut n, mut add) = (p, N, 7u32);
            let mut params = [(&mut data as *mut u64).cast::<c_void>(), (&mut n as *mut u32).cast(), (&mut add as *mut u32).cast()];
            ok(unsafe { cuLaunchKernel(f, N.div_ceil(128), 1, 1, 128, 1, 1, 0, s, params.as_mut_ptr(), null_mut()) }, "cuLaunchKernel");
            let dst = host[(it * STREAMS + k) * N as usize..].as_mut_ptr();
            ok(unsafe { cuMemcpyDtoHAsync_v2(dst.cast(), p, N as usize * 4, s) }, "cuMemcpyDtoHAsync_v2");
            ok(unsafe { cuMemFreeAsync(p, s) }, "cuMemFreeAsync");
        }
    }
    for &s in &streams {
        ok(unsafe { cuStreamSynchronize(s) }, "cuStreamSynchronize");
        ok(unsafe { cuStreamDestroy_v2(s) }, "cuStreamDestroy_v2");
    }
    for it in 0..ITERATIONS {
        for k in 0..STREAMS {
            let chunk = &host[(it * STREAMS + k) * N as usize..][..N as usize];
            assert!(chunk.iter().all(|&v| v == (100 * k + it) as u32 + 7), "stream {k} iteration {it}");
        }
    }
    ok(unsafe { cuModuleUnload(module) }, "cuModuleUnload");
}

#[test]
fn attributes_have_their_c_widths_and_pointers_name_their_pool() {
    let ctx = Ctx::new();
    let mut pool = null_mut();
    ok(unsafe { cuMemPoolCreate(&mut pool, &props(ctx.1)) }, "cuMemPoolCreate");
    // An `int` attribute writes 4 bytes, a `cuuint64_t` one 8.
    let mut ints: [c_int; 2] = [-7, -7];
    ok(unsafe { cuMemPoolGetAttribute(pool, 1, ints.as_mut_ptr().cast()) }, "REUSE_FOLLOW_EVENT_DEPENDENCIES");
    assert_eq!(ints, [1, -7]);
    let mut off: c_int = 0;
    ok(unsafe { cuMemPoolSetAttribute(pool, 2, (&mut off as *mut c_int).cast()) }, "opportunistic off");
    ok(unsafe { cuMemPoolGetAttribute(pool, 2, ints.as_mut_ptr().cast()) }, "opportunistic");
    assert_eq!(ints, [0, -7]);
    let mut threshold = u64::MAX;
    ok(unsafe { cuMemPoolSetAttribute(pool, 4, (&mut threshold as *mut u64).cast()) }, "RELEASE_THRESHOLD");
    assert_eq!(attr_u64(pool, 4), u64::MAX);

    let mut stream = null_mut();
    ok(unsafe { cuStreamCreate(&mut stream, 1) }, "cuStreamCreate");
    let mut p = 0;
    ok(unsafe { cuMemAllocFromPoolAsync(&mut p, 1000, pool, stream) }, "cuMemAllocFromPoolAsync");
    assert_eq!(p % 512, 0);
    assert_eq!(attr_u64(pool, 7), 1000, "USED_MEM_CURRENT");
    assert_eq!(attr_u64(pool, 5), 32 << 20, "RESERVED_MEM_CURRENT");
    let mut owner: CUmemoryPool = null_mut();
    ok(unsafe { cuPointerGetAttribute((&mut owner as *mut CUmemoryPool).cast(), 17, p) }, "MEMPOOL_HANDLE");
    assert_eq!(owner, pool);
    let (mut base, mut size) = (0, 0);
    ok(unsafe { cuMemGetAddressRange_v2(&mut base, &mut size, p + 10) }, "cuMemGetAddressRange_v2");
    assert_eq!((base, size), (p, 1000));
    ok(unsafe { cuMemFreeAsync(p, stream) }, "cuMemFreeAsync");
    ok(unsafe { cuStreamSynchronize(stream) }, "cuStreamSynchronize");
    assert_eq!(attr_u64(pool, 5), 32 << 20, "kept below the threshold");
    ok(unsafe { cuMemPoolTrimTo(pool, 0) }, "cuMemPoolTrimTo");
    assert_eq!(attr_u64(pool, 5), 0);
    ok(unsafe { cuStreamDestroy_v2(stream) }, "cuStreamDestroy_v2");
    ok(unsafe { cuMemPoolDestroy(pool) }, "cuMemPoolDestroy");
}

#[test]
fn misuse_at_the_boundary_answers_as_nvidia() {
    let ctx = Ctx::new();
    let mut pool = null_mut();
    assert_eq!(unsafe { cuMemPoolCreate(null_mut(), &props(ctx.1)) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemPoolCreate(&mut pool, std::ptr::null()) }, INVALID_VALUE);
    let mut reserved = props(ctx.1);
    reserved.reserved[53] = 1;
    assert_eq!(unsafe { cuMemPoolCreate(&mut pool, &reserved) }, INVALID_VALUE, "reserved bytes");
    let mut win32 = props(ctx.1);
    win32.win32SecurityAttributes = 8 as *mut c_void;
    assert_eq!(unsafe { cuMemPoolCreate(&mut pool, &win32) }, INVALID_VALUE, "win32SecurityAttributes");
    ok(unsafe { cuMemPoolCreate(&mut pool, &props(ctx.1)) }, "cuMemPoolCreate");

    let mut value = 0u64;
    assert_eq!(unsafe { cuMemPoolGetAttribute(pool, 4, null_mut()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemPoolGetAttribute(null_mut(), 4, (&mut value as *mut u64).cast()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemPoolSetAttribute(pool, 4, null_mut()) }, INVALID_VALUE, "NVIDIA's driver crashes here");
    assert_eq!(unsafe { cuMemPoolSetAttribute(null_mut(), 4, (&mut value as *mut u64).cast()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemPoolSetAttribute(pool, 9, (&mut value as *mut u64).cast()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemPoolTrimTo(null_mut(), 0) }, INVALID_VALUE);

    let own = CUmemAccessDesc { location: CUmemLocation { kind: 1, id: ctx.1 }, flags: 3 };
    ok(unsafe { cuMemPoolSetAccess(pool, &own, 1) }, "read-write for the owner");
    ok(unsafe { cuMemPoolSetAccess(pool, &own, 0) }, "no descriptor");
    assert_eq!(unsafe { cuMemPoolSetAccess(pool, std::ptr::null(), 1) }, INVALID_VALUE);
    let read = CUmemAccessDesc { flags: 1, ..own };
    assert_eq!(unsafe { cuMemPoolSetAccess(pool, &read, 1) }, CUresult(801), "read-only");
    let mut flags: c_uint = 99;
    let mut location = CUmemLocation { kind: 1, id: ctx.1 };
    ok(unsafe { cuMemPoolGetAccess(&mut flags, pool, &mut location) }, "cuMemPoolGetAccess");
    assert_eq!(flags, 3);
    assert_eq!(unsafe { cuMemPoolGetAccess(&mut flags, pool, null_mut()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemPoolGetAccess(null_mut(), pool, &mut location) }, INVALID_VALUE);

    let mut out = null_mut();
    assert_eq!(unsafe { cuDeviceGetDefaultMemPool(null_mut(), ctx.1) }, INVALID_VALUE);
    assert_eq!(unsafe { cuDeviceGetDefaultMemPool(&mut out, 99) }, CUresult(101), "INVALID_DEVICE");
    assert_eq!(unsafe { cuDeviceGetMemPool(&mut out, 99) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemGetDefaultMemPool(&mut out, null_mut(), 1) }, INVALID_VALUE);
    ok(unsafe { cuMemGetDefaultMemPool(&mut out, &mut location, 1) }, "cuMemGetDefaultMemPool");
    let mut default = null_mut();
    ok(unsafe { cuDeviceGetDefaultMemPool(&mut default, ctx.1) }, "cuDeviceGetDefaultMemPool");
    assert_eq!(out, default);
    assert_eq!(unsafe { cuMemPoolDestroy(default) }, INVALID_VALUE, "a default pool");

    let mut p = 1;
    assert_eq!(unsafe { cuMemAllocAsync(null_mut(), 16, null_mut()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuMemAllocFromPoolAsync(&mut p, 16, null_mut(), null_mut()) }, INVALID_VALUE, "NULL pool");
    ok(unsafe { cuMemAllocAsync(&mut p, 0, null_mut()) }, "size 0");
    assert_eq!(p, 0);
    ok(unsafe { cuMemFreeAsync(0, null_mut()) }, "freeing NULL");
    ok(unsafe { cuMemPoolDestroy(pool) }, "cuMemPoolDestroy");
    assert_eq!(unsafe { cuMemPoolDestroy(pool) }, INVALID_VALUE, "destroyed");
    ok(unsafe { cuCtxSynchronize() }, "cuCtxSynchronize");
}
