//! Stream-ordered allocation and memory pools (CUDA Driver API, "Stream Ordered Memory
//! Allocator"): `cuMemAllocAsync`, `cuMemAllocFromPoolAsync`, `cuMemFreeAsync` (and their
//! `_ptsz` twins), `cuMemPoolCreate`/`Destroy`/`SetAttribute`/`GetAttribute`/`TrimTo`/
//! `SetAccess`/`GetAccess`, `cuDeviceGetDefaultMemPool`/`GetMemPool`/`SetMemPool`, and
//! CUDA 13's `cuMemGetDefaultMemPool`/`cuMemGetMemPool`/`cuMemSetMemPool`. Semantics in
//! `cuda_driver::mempool`.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::mempool::{attribute_is_int, PoolProps};
use cuda_driver::{CuError, PoolHandle};

use super::{drv, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, slice, Out};
use crate::types::{CUdevice, CUdeviceptr, CUmemAccessDesc, CUmemLocation, CUmemPoolProps, CUmemoryPool, CUstream};

fn pool_handle(p: CUmemoryPool) -> PoolHandle {
    PoolHandle::from_raw(p.cast())
}

fn pool_raw(p: PoolHandle) -> CUmemoryPool {
    p.as_raw().cast()
}

export! {
    /// `cuMemAllocAsync(CUdeviceptr* dptr, size_t bytesize, CUstream hStream)`: from the
    /// current pool of the stream's device.
    fn cuMemAllocAsync(dptr: *mut CUdeviceptr, bytesize: usize, h_stream: CUstream) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dptr) }?;
        out.write(drv()?.mem_alloc_async(bytesize, stream_handle(h_stream))?);
        Ok(())
    }
    fn cuMemAllocAsync_ptsz(dptr: *mut CUdeviceptr, bytesize: usize, h_stream: CUstream) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dptr) }?;
        out.write(drv()?.mem_alloc_async(bytesize, stream_ptsz(h_stream))?);
        Ok(())
    }

    /// `cuMemAllocFromPoolAsync(CUdeviceptr* dptr, size_t bytesize, CUmemoryPool pool, CUstream hStream)`.
    fn cuMemAllocFromPoolAsync(dptr: *mut CUdeviceptr, bytesize: usize, pool: CUmemoryPool, h_stream: CUstream) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dptr) }?;
        out.write(drv()?.mem_alloc_from_pool_async(bytesize, pool_handle(pool), stream_handle(h_stream))?);
        Ok(())
    }
    fn cuMemAllocFromPoolAsync_ptsz(dptr: *mut CUdeviceptr, bytesize: usize, pool: CUmemoryPool, h_stream: CUstream) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dptr) }?;
        out.write(drv()?.mem_alloc_from_pool_async(bytesize, pool_handle(pool), stream_ptsz(h_stream))?);
        Ok(())
    }

    /// `cuMemFreeAsync(CUdeviceptr dptr, CUstream hStream)`: freed in stream order.
    fn cuMemFreeAsync(dptr: CUdeviceptr, h_stream: CUstream) {
        drv()?.mem_free_async(dptr, stream_handle(h_stream))
    }
    fn cuMemFreeAsync_ptsz(dptr: CUdeviceptr, h_stream: CUstream) {
        drv()?.mem_free_async(dptr, stream_ptsz(h_stream))
    }

    /// `cuMemPoolCreate(CUmemoryPool* pool, const CUmemPoolProps* poolProps)`.
    fn cuMemPoolCreate(pool: *mut CUmemoryPool, pool_props: *const CUmemPoolProps) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, p) = unsafe { (Out::new(pool)?, read_in(pool_props)?) };
        let props = PoolProps {
            alloc_type: p.allocType,
            handle_types: p.handleTypes,
            location_type: p.location.kind as u32,
            location_id: p.location.id,
            win32_security_attributes: !p.win32SecurityAttributes.is_null(),
            max_size: p.maxSize as u64,
            usage: p.usage,
            reserved_zero: p.reserved.iter().all(|&b| b == 0),
        };
        out.write(pool_raw(drv()?.mem_pool_create(&props)?));
        Ok(())
    }

    /// `cuMemPoolDestroy(CUmemoryPool pool)`.
    fn cuMemPoolDestroy(pool: CUmemoryPool) {
        drv()?.mem_pool_destroy(pool_handle(pool))
    }

    /// `cuMemPoolSetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value)`:
    /// `value` points to an `int` (reuse policies) or a `cuuint64_t`.
    fn cuMemPoolSetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void) {
        let driver = drv()?;
        let is_int = attribute_is_int(attr);
        if value.is_null() || is_int.is_none() {
            // Checks the pool first, as NVIDIA's driver does for a NULL pool.
            driver.mem_pool_get_attribute(pool_handle(pool), 1)?;
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: non-NULL and, per the API, the attribute's C type.
        let v = unsafe { if is_int == Some(true) { value.cast::<c_int>().read_unaligned() as u32 as u64 } else { value.cast::<u64>().read_unaligned() } };
        driver.mem_pool_set_attribute(pool_handle(pool), attr, v)
    }

    /// `cuMemPoolGetAttribute(CUmemoryPool pool, CUmemPool_attribute attr, void* value)`.
    fn cuMemPoolGetAttribute(pool: CUmemoryPool, attr: c_int, value: *mut c_void) {
        let v = drv()?.mem_pool_get_attribute(pool_handle(pool), attr)?;
        if value.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: non-NULL and, per the API, the attribute's C type.
        unsafe {
            if attribute_is_int(attr) == Some(true) {
                value.cast::<c_int>().write_unaligned(v as c_int);
            } else {
                value.cast::<u64>().write_unaligned(v);
            }
        }
        Ok(())
    }

    /// `cuMemPoolTrimTo(CUmemoryPool pool, size_t minBytesToKeep)`.
    fn cuMemPoolTrimTo(pool: CUmemoryPool, min_bytes_to_keep: usize) {
        drv()?.mem_pool_trim_to(pool_handle(pool), min_bytes_to_keep as u64)
    }

    /// `cuMemPoolSetAccess(CUmemoryPool pool, const CUmemAccessDesc* map, size_t count)`.
    fn cuMemPoolSetAccess(pool: CUmemoryPool, map: *const CUmemAccessDesc, count: usize) {
        // SAFETY: NULL (with count 0) or `count` descriptors, per the API.
        let descs = unsafe { slice(map, count) }?;
        let descs: Vec<(u32, i32, u32)> = descs.iter().map(|d| (d.location.kind as u32, d.location.id, d.flags)).collect();
        drv()?.mem_pool_set_access(pool_handle(pool), &descs)
    }

    /// `cuMemPoolGetAccess(CUmemAccess_flags* flags, CUmemoryPool memPool, CUmemLocation* location)`.
    fn cuMemPoolGetAccess(flags: *mut c_uint, mem_pool: CUmemoryPool, location: *mut CUmemLocation) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, location) = unsafe { (Out::new(flags)?, read_in(location)?) };
        out.write(drv()?.mem_pool_get_access(pool_handle(mem_pool), location.kind as u32, location.id)?);
        Ok(())
    }

    /// `cuDeviceGetDefaultMemPool(CUmemoryPool* pool_out, CUdevice dev)`.
    fn cuDeviceGetDefaultMemPool(pool_out: *mut CUmemoryPool, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pool_out) }?;
        out.write(pool_raw(drv()?.device_get_default_mem_pool(dev)?));
        Ok(())
    }

    /// `cuDeviceGetMemPool(CUmemoryPool* pool, CUdevice dev)`.
    fn cuDeviceGetMemPool(pool: *mut CUmemoryPool, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pool) }?;
        out.write(pool_raw(drv()?.device_get_mem_pool(dev)?));
        Ok(())
    }

    /// `cuDeviceSetMemPool(CUdevice dev, CUmemoryPool pool)`.
    fn cuDeviceSetMemPool(dev: CUdevice, pool: CUmemoryPool) {
        drv()?.device_set_mem_pool(dev, pool_handle(pool))
    }

    /// `cuMemGetDefaultMemPool(CUmemoryPool* pool_out, CUmemLocation* location, CUmemAllocationType type)` (CUDA 13).
    fn cuMemGetDefaultMemPool(pool_out: *mut CUmemoryPool, location: *mut CUmemLocation, alloc_type: c_uint) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, location) = unsafe { (Out::new(pool_out)?, read_in(location)?) };
        out.write(pool_raw(drv()?.mem_get_default_mem_pool(location.kind as u32, location.id, alloc_type)?));
        Ok(())
    }

    /// `cuMemGetMemPool(CUmemoryPool* pool, CUmemLocation* location, CUmemAllocationType type)` (CUDA 13).
    fn cuMemGetMemPool(pool: *mut CUmemoryPool, location: *mut CUmemLocation, alloc_type: c_uint) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, location) = unsafe { (Out::new(pool)?, read_in(location)?) };
        out.write(pool_raw(drv()?.mem_get_mem_pool(location.kind as u32, location.id, alloc_type)?));
        Ok(())
    }

    /// `cuMemSetMemPool(CUmemLocation* location, CUmemAllocationType type, CUmemoryPool pool)` (CUDA 13).
    fn cuMemSetMemPool(location: *mut CUmemLocation, alloc_type: c_uint, pool: CUmemoryPool) {
        // SAFETY: NULL or readable, per the API.
        let location = unsafe { read_in(location) }?;
        drv()?.mem_set_mem_pool(location.kind as u32, location.id, alloc_type, pool_handle(pool))
    }
}
