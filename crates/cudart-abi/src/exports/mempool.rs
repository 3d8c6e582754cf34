//! Stream-ordered allocation and memory pools: `cudaMallocAsync`, `cudaFreeAsync`,
//! `cudaMallocFromPoolAsync` (and their `_ptsz` forms), `cudaMemPool*`, the device's
//! default and current pool, and CUDA 13's pools by location. Each is its driver call:
//! `cudaMemPoolProps`, `cudaMemAccessDesc`, `cudaMemLocation`, `cudaMemPoolAttr`,
//! `cudaMemAccessFlags` and `cudaMemAllocationType` have the driver's layouts and values.

use std::ffi::{c_int, c_void};

use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUdeviceptr, CUmemLocation, CUmemoryPool};
use crate::runtime::{runtime, Runtime};

/// The runtime with a current context (stream-ordered calls).
fn ctx() -> RtResult<&'static Runtime> {
    let rt = runtime()?;
    rt.context()?;
    Ok(rt)
}

fn malloc_async(ptr: *mut *mut c_void, size: usize, pool: Option<CUmemoryPool>, s: *mut c_void, per_thread: bool) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(ptr) }?;
    let api = ctx()?.api();
    let mut d: CUdeviceptr = 0;
    // SAFETY: valid out-pointer; the driver checks the pool and stream.
    unsafe {
        match pool {
            None => api.cuMemAllocAsync(&mut d, size, stream(s, per_thread))?,
            Some(pool) => api.cuMemAllocFromPoolAsync(&mut d, size, pool, stream(s, per_thread))?,
        }
    }
    out.write(d as *mut c_void);
    Ok(())
}

fn free_async(ptr: *mut c_void, s: *mut c_void, per_thread: bool) -> RtResult {
    // SAFETY: the driver checks the pointer and stream.
    unsafe { ctx()?.api().cuMemFreeAsync(ptr as CUdeviceptr, stream(s, per_thread)) }
}

/// A driver call that writes a pool handle, after checking the out-pointer.
fn pool_out(out: *mut CUmemoryPool, call: impl FnOnce(&mut CUmemoryPool) -> RtResult) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(out) }?;
    let mut pool = std::ptr::null_mut();
    call(&mut pool)?;
    out.write(pool);
    Ok(())
}

export! {
    fn cudaMallocAsync(ptr: *mut *mut c_void, size: usize, s: *mut c_void) {
        malloc_async(ptr, size, None, s, false)
    }
    fn cudaMallocAsync_ptsz(ptr: *mut *mut c_void, size: usize, s: *mut c_void) {
        malloc_async(ptr, size, None, s, true)
    }

    fn cudaMallocFromPoolAsync(ptr: *mut *mut c_void, size: usize, pool: CUmemoryPool, s: *mut c_void) {
        malloc_async(ptr, size, Some(pool), s, false)
    }
    fn cudaMallocFromPoolAsync_ptsz(ptr: *mut *mut c_void, size: usize, pool: CUmemoryPool, s: *mut c_void) {
        malloc_async(ptr, size, Some(pool), s, true)
    }

    fn cudaFreeAsync(ptr: *mut c_void, s: *mut c_void) {
        free_async(ptr, s, false)
    }
    fn cudaFreeAsync_ptsz(ptr: *mut c_void, s: *mut c_void) {
        free_async(ptr, s, true)
    }

    fn cudaMemPoolCreate(pool: *mut CUmemoryPool, props: *const c_void) {
        let api = runtime()?.api();
        // SAFETY: the driver checks `props` (NULL or a `cudaMemPoolProps`).
        pool_out(pool, |p| unsafe { api.cuMemPoolCreate(p, props) })
    }

    fn cudaMemPoolDestroy(pool: CUmemoryPool) {
        // SAFETY: the driver checks the handle.
        unsafe { runtime()?.api().cuMemPoolDestroy(pool) }
    }

    fn cudaMemPoolSetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void) {
        // SAFETY: the driver checks the handle and reads `value` as the attribute's type.
        unsafe { runtime()?.api().cuMemPoolSetAttribute(pool, attr, value) }
    }

    fn cudaMemPoolGetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void) {
        // SAFETY: as above, writing `value`.
        unsafe { runtime()?.api().cuMemPoolGetAttribute(pool, attr, value) }
    }

    fn cudaMemPoolTrimTo(pool: CUmemoryPool, min_bytes_to_keep: usize) {
        // SAFETY: the driver checks the handle.
        unsafe { runtime()?.api().cuMemPoolTrimTo(pool, min_bytes_to_keep) }
    }

    fn cudaMemPoolSetAccess(pool: CUmemoryPool, descs: *const c_void, count: usize) {
        // SAFETY: the driver checks the handle and reads `count` descriptors.
        unsafe { runtime()?.api().cuMemPoolSetAccess(pool, descs, count) }
    }

    fn cudaMemPoolGetAccess(flags: *mut c_int, pool: CUmemoryPool, location: *mut CUmemLocation) {
        // SAFETY: the driver checks every pointer.
        unsafe { runtime()?.api().cuMemPoolGetAccess(flags, pool, location) }
    }

    fn cudaDeviceGetDefaultMemPool(pool: *mut CUmemoryPool, device: c_int) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: valid out-pointer.
        pool_out(pool, |p| unsafe { rt.api().cuDeviceGetDefaultMemPool(p, dev) })
    }

    fn cudaDeviceGetMemPool(pool: *mut CUmemoryPool, device: c_int) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: valid out-pointer.
        pool_out(pool, |p| unsafe { rt.api().cuDeviceGetMemPool(p, dev) })
    }

    fn cudaDeviceSetMemPool(device: c_int, pool: CUmemoryPool) {
        let rt = runtime()?;
        let dev = rt.device(device)?;
        // SAFETY: the driver checks the handle.
        unsafe { rt.api().cuDeviceSetMemPool(dev, pool) }
    }

    fn cudaMemGetDefaultMemPool(pool: *mut CUmemoryPool, location: *mut CUmemLocation, kind: c_int) {
        let api = runtime()?.api();
        // SAFETY: valid out-pointer; the driver checks `location`.
        pool_out(pool, |p| unsafe { api.cuMemGetDefaultMemPool(p, location, kind) })
    }

    fn cudaMemGetMemPool(pool: *mut CUmemoryPool, location: *mut CUmemLocation, kind: c_int) {
        let api = runtime()?.api();
        // SAFETY: valid out-pointer; the driver checks `location`.
        pool_out(pool, |p| unsafe { api.cuMemGetMemPool(p, location, kind) })
    }

    fn cudaMemSetMemPool(location: *mut CUmemLocation, kind: c_int, pool: CUmemoryPool) {
        // SAFETY: the driver checks `location` and the handle.
        unsafe { runtime()?.api().cuMemSetMemPool(location, kind, pool) }
    }
}
