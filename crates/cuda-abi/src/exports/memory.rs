//! `cuMem*` allocation entry points and pointer attributes: device, managed, pitched
//! and pinned host memory, host registration, `cuMemGetAddressRange`,
//! `cuPointerGetAttribute(s)`. Copies and fills are in `memcpy.rs`.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::managed::MemLocation;
use cuda_driver::memory::PointerAttrValue;
use cuda_driver::CuError;

use super::{ctx_raw, drv, stream_handle, stream_ptsz};
use crate::boundary::{export, slice, AbiResult, Out};
use crate::types::{pointer_attribute, CUcontext, CUdevice, CUdeviceptr, CUmemLocation, CUstream};

/// Writes one `cuPointerGetAttribute` value in the C type the attribute documents.
///
/// # Safety
/// `data` is non-NULL and writable for that type.
unsafe fn write_attr(data: *mut c_void, value: PointerAttrValue) {
    // SAFETY (all arms): the caller promised `data` holds the attribute's C type.
    unsafe {
        match value {
            PointerAttrValue::Context(c) => data.cast::<CUcontext>().write_unaligned(ctx_raw(c)),
            PointerAttrValue::U32(v) => data.cast::<u32>().write_unaligned(v),
            PointerAttrValue::I32(v) => data.cast::<i32>().write_unaligned(v),
            PointerAttrValue::U64(v) => data.cast::<u64>().write_unaligned(v),
            // Boolean attributes are `int` in cuda.h.
            PointerAttrValue::Bool(v) => data.cast::<i32>().write_unaligned(i32::from(v)),
        }
    }
}

/// What `cuPointerGetAttributes` reports for a pointer the driver does not know (plain
/// host memory): NULL context, memory type 0, the pointer as its own host address,
/// ordinal -2 ("invalid device"), everything else 0.
fn unregistered_attr(attribute: u32, ptr: CUdeviceptr) -> PointerAttrValue {
    match attribute {
        pointer_attribute::CONTEXT => PointerAttrValue::Context(cuda_driver::CtxHandle::NULL),
        pointer_attribute::MEMORY_TYPE => PointerAttrValue::U32(0),
        pointer_attribute::DEVICE_ORDINAL => PointerAttrValue::I32(-2),
        pointer_attribute::HOST_POINTER => PointerAttrValue::U64(ptr),
        pointer_attribute::IS_MANAGED | pointer_attribute::MAPPED | pointer_attribute::SYNC_MEMOPS => PointerAttrValue::Bool(false),
        pointer_attribute::DEVICE_POINTER | pointer_attribute::BUFFER_ID | pointer_attribute::RANGE_START_ADDR | pointer_attribute::RANGE_SIZE => {
            PointerAttrValue::U64(0)
        }
        _ => PointerAttrValue::U32(0),
    }
}

export! {
    /// `cuMemAlloc_v2(CUdeviceptr* dptr, size_t bytesize)`.
    fn cuMemAlloc_v2(dptr: *mut CUdeviceptr, bytesize: usize) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dptr) }?;
        out.write(drv()?.mem_alloc(bytesize)?);
        Ok(())
    }

    /// `cuMemFree_v2(CUdeviceptr dptr)`.
    fn cuMemFree_v2(dptr: CUdeviceptr) {
        drv()?.mem_free(dptr)
    }

    /// `cuMemGetInfo_v2(size_t* free, size_t* total)`.
    fn cuMemGetInfo_v2(free: *mut usize, total: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        // Either may be NULL: NVIDIA's driver answers success with nothing written.
        let (free, total) = unsafe { (Out::optional(free), Out::optional(total)) };
        let (f, t) = drv()?.mem_get_info()?;
        if let Some(free) = free {
            free.write(usize::try_from(f).unwrap_or(usize::MAX));
        }
        if let Some(total) = total {
            total.write(usize::try_from(t).unwrap_or(usize::MAX));
        }
        Ok(())
    }

    /// `cuMemAllocHost_v2(void** pp, size_t bytesize)`.
    fn cuMemAllocHost_v2(pp: *mut *mut c_void, bytesize: usize) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pp) }?;
        out.write(drv()?.mem_alloc_host(bytesize)?);
        Ok(())
    }

    /// `cuMemAllocHost(void** pp, unsigned int bytesize)`: the pre-3.2 ABI, which NVIDIA's
    /// driver still exports under the plain name: the size is a 32-bit `unsigned int`
    /// (the upper half of its register is not part of the argument).
    fn cuMemAllocHost(pp: *mut *mut c_void, bytesize: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pp) }?;
        out.write(drv()?.mem_alloc_host(bytesize as usize)?);
        Ok(())
    }

    /// `cuMemFreeHost(void* p)`.
    fn cuMemFreeHost(p: *mut c_void) {
        drv()?.mem_free_host(p)
    }

    /// `cuMemHostAlloc(void** pp, size_t bytesize, unsigned Flags)`.
    fn cuMemHostAlloc(pp: *mut *mut c_void, bytesize: usize, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pp) }?;
        out.write(drv()?.mem_host_alloc(bytesize, flags)?);
        Ok(())
    }

    /// `cuMemHostGetDevicePointer_v2(CUdeviceptr* pdptr, void* p, unsigned Flags)`.
    fn cuMemHostGetDevicePointer_v2(pdptr: *mut CUdeviceptr, p: *mut c_void, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pdptr) }?;
        out.write(drv()?.mem_host_get_device_pointer(p, flags)?);
        Ok(())
    }

    /// `cuMemHostGetFlags(unsigned* pFlags, void* p)`.
    fn cuMemHostGetFlags(p_flags: *mut c_uint, p: *mut c_void) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_flags) }?;
        out.write(drv()?.mem_host_get_flags(p)?);
        Ok(())
    }

    /// `cuMemHostRegister_v2(void* p, size_t bytesize, unsigned Flags)`.
    fn cuMemHostRegister_v2(p: *mut c_void, bytesize: usize, flags: c_uint) {
        if p.is_null() || bytesize == 0 {
            return Err(CuError::INVALID_VALUE);
        }
        drv()?.mem_host_register(p, bytesize, flags)
    }

    /// `cuMemHostRegister(void* p, size_t bytesize, unsigned Flags)`: the CUDA 4.0 name,
    /// same signature as `_v2`.
    fn cuMemHostRegister(p: *mut c_void, bytesize: usize, flags: c_uint) {
        if p.is_null() || bytesize == 0 {
            return Err(CuError::INVALID_VALUE);
        }
        drv()?.mem_host_register(p, bytesize, flags)
    }

    /// `cuMemHostUnregister(void* p)`.
    fn cuMemHostUnregister(p: *mut c_void) {
        drv()?.mem_host_unregister(p)
    }

    /// `cuMemAllocManaged(CUdeviceptr* dptr, size_t bytesize, unsigned flags)`.
    fn cuMemAllocManaged(dptr: *mut CUdeviceptr, bytesize: usize, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dptr) }?;
        out.write(drv()?.mem_alloc_managed(bytesize, flags)?);
        Ok(())
    }

    /// `cuMemAdvise(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUdevice device)`:
    /// a checked no-op (managed memory never migrates here; `cuda_driver::managed`).
    fn cuMemAdvise(dev_ptr: CUdeviceptr, count: usize, advice: c_int, device: CUdevice) {
        drv()?.mem_advise(dev_ptr, count, advice, device)
    }

    /// `cuMemAdvise_v2(CUdeviceptr devPtr, size_t count, CUmem_advise advice, CUmemLocation location)`.
    fn cuMemAdvise_v2(dev_ptr: CUdeviceptr, count: usize, advice: c_int, location: CUmemLocation) {
        drv()?.mem_advise_v2(dev_ptr, count, advice, MemLocation { kind: location.kind, id: location.id })
    }

    /// `cuMemGetLocationInfo(CUdeviceptr ptr, size_t size, size_t summaryGranularity, size_t samplingGranularity, CUmemLocation* location_out)`:
    /// `ceil(size / summaryGranularity)` locations.
    fn cuMemGetLocationInfo(ptr: CUdeviceptr, size: usize, summary_granularity: usize, sampling_granularity: usize, location_out: *mut CUmemLocation) {
        if location_out.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        let locations = drv()?.mem_get_location_info(ptr, size as u64, summary_granularity as u64, sampling_granularity as u64)?;
        for (i, l) in locations.into_iter().enumerate() {
            // SAFETY: the caller provides one entry per summary region, as the API requires.
            unsafe { location_out.add(i).write_unaligned(CUmemLocation { kind: l.kind, id: l.id }) };
        }
        Ok(())
    }

    /// `cuMemPrefetchAsync(CUdeviceptr devPtr, size_t count, CUdevice dstDevice, CUstream hStream)`:
    /// a checked no-op.
    fn cuMemPrefetchAsync(dev_ptr: CUdeviceptr, count: usize, dst_device: CUdevice, h_stream: CUstream) {
        drv()?.mem_prefetch_async(dev_ptr, count, dst_device, stream_handle(h_stream))
    }
    fn cuMemPrefetchAsync_ptsz(dev_ptr: CUdeviceptr, count: usize, dst_device: CUdevice, h_stream: CUstream) {
        drv()?.mem_prefetch_async(dev_ptr, count, dst_device, stream_ptsz(h_stream))
    }

    /// `cuMemPrefetchAsync_v2(CUdeviceptr devPtr, size_t count, CUmemLocation location, unsigned flags, CUstream hStream)`.
    fn cuMemPrefetchAsync_v2(dev_ptr: CUdeviceptr, count: usize, location: CUmemLocation, flags: c_uint, h_stream: CUstream) {
        drv()?.mem_prefetch_async_v2(dev_ptr, count, MemLocation { kind: location.kind, id: location.id }, flags, stream_handle(h_stream))
    }
    fn cuMemPrefetchAsync_v2_ptsz(dev_ptr: CUdeviceptr, count: usize, location: CUmemLocation, flags: c_uint, h_stream: CUstream) {
        drv()?.mem_prefetch_async_v2(dev_ptr, count, MemLocation { kind: location.kind, id: location.id }, flags, stream_ptsz(h_stream))
    }

    /// `cuMemAllocPitch_v2(CUdeviceptr* dptr, size_t* pPitch, size_t WidthInBytes, size_t Height, unsigned ElementSizeBytes)`.
    fn cuMemAllocPitch_v2(dptr: *mut CUdeviceptr, p_pitch: *mut usize, width_in_bytes: usize, height: usize, element_size_bytes: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let (dptr, p_pitch) = unsafe { (Out::new(dptr)?, Out::new(p_pitch)?) };
        let (ptr, pitch) = drv()?.mem_alloc_pitch(width_in_bytes, height, element_size_bytes)?;
        dptr.write(ptr);
        p_pitch.write(pitch);
        Ok(())
    }

    /// `cuMemGetAddressRange_v2(CUdeviceptr* pbase, size_t* psize, CUdeviceptr dptr)`:
    /// both outputs are optional.
    fn cuMemGetAddressRange_v2(pbase: *mut CUdeviceptr, psize: *mut usize, dptr: CUdeviceptr) {
        // SAFETY: NULL or writable, per the API.
        let (pbase, psize) = unsafe { (Out::optional(pbase), Out::optional(psize)) };
        let (base, size) = drv()?.mem_get_address_range(dptr)?;
        if let Some(out) = pbase {
            out.write(base);
        }
        if let Some(out) = psize {
            out.write(size);
        }
        Ok(())
    }

    /// `cuPointerGetAttribute(void* data, CUpointer_attribute attribute, CUdeviceptr ptr)`.
    fn cuPointerGetAttribute(data: *mut c_void, attribute: c_uint, ptr: CUdeviceptr) {
        if data.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        let attribute = i32::try_from(attribute).map_err(|_| CuError::INVALID_VALUE)?;
        let value = drv()?.pointer_attribute(attribute, ptr)?;
        // SAFETY: `data` is non-NULL and, per the API, holds the attribute's C type.
        unsafe { write_attr(data, value) };
        Ok(())
    }

    /// `cuPointerGetAttributes(unsigned numAttributes, CUpointer_attribute* attributes, void** data, CUdeviceptr ptr)`:
    /// unlike the single form, an unknown pointer is not an error; each attribute then
    /// gets a default value. NULL `data[i]` entries are skipped.
    fn cuPointerGetAttributes(num_attributes: c_uint, attributes: *mut c_uint, data: *mut *mut c_void, ptr: CUdeviceptr) {
        let n = num_attributes as usize;
        if n == 0 || attributes.is_null() || data.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: non-NULL, and the API promises `numAttributes` entries in each array.
        let (attributes, data) = unsafe { (slice(attributes, n)?, slice(data, n)?) };
        let driver = drv()?;
        let known = driver.pointer_info(ptr)?.is_some();
        let values: Vec<PointerAttrValue> = attributes
            .iter()
            .map(|&attr| {
                if known {
                    driver.pointer_attribute(attr as i32, ptr)
                } else {
                    Ok(unregistered_attr(attr, ptr))
                }
            })
            .collect::<AbiResult<_>>()?;
        for (&slot, value) in data.iter().zip(values) {
            if !slot.is_null() {
                // SAFETY: the API promises `data[i]` holds attribute i's C type.
                unsafe { write_attr(slot, value) };
            }
        }
        Ok(())
    }
}
