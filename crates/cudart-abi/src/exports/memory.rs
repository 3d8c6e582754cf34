//! Allocation and pointer queries: device, pinned host, managed and pitched memory,
//! `cudaMemGetInfo`, `cudaPointerGetAttributes`, managed-memory hints.

use std::ffi::{c_int, c_uint, c_void};

use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUdeviceptr, CUmemLocation};
use crate::runtime::{runtime, Runtime};
use crate::types::{PointerAttributes, MEMORY_TYPE_DEVICE, MEMORY_TYPE_HOST, MEMORY_TYPE_MANAGED, MEMORY_TYPE_UNREGISTERED};

/// The runtime with a current context.
fn ctx() -> RtResult<&'static Runtime> {
    let rt = runtime()?;
    rt.context()?;
    Ok(rt)
}

/// `CU_POINTER_ATTRIBUTE_*` ids queried by `cudaPointerGetAttributes`.
const PA_MEMORY_TYPE: c_int = 2;
const PA_DEVICE_POINTER: c_int = 3;
const PA_HOST_POINTER: c_int = 4;
const PA_IS_MANAGED: c_int = 8;
const PA_DEVICE_ORDINAL: c_int = 9;

fn prefetch(ptr: *const c_void, count: usize, location: CUmemLocation, flags: c_uint, s: *mut c_void, per_thread: bool) -> RtResult {
    // SAFETY: plain values; the driver checks the range.
    unsafe { ctx()?.api().cuMemPrefetchAsync(ptr as CUdeviceptr, count, location, flags, stream(s, per_thread)) }
}

export! {
    /// A device allocation; size 0 gives NULL and success, as NVIDIA's runtime does.
    fn cudaMalloc(ptr: *mut *mut c_void, size: usize) {
        let out = Out::new(ptr)?;
        let rt = ctx()?;
        if size == 0 {
            out.write(std::ptr::null_mut());
            return Ok(());
        }
        let mut d = 0;
        // SAFETY: valid out-pointer.
        unsafe { rt.api().cuMemAlloc(&mut d, size) }?;
        out.write(d as *mut c_void);
        Ok(())
    }

    /// Frees a device or managed allocation (waiting for queued work, as the driver does);
    /// NULL is a no-op.
    fn cudaFree(ptr: *mut c_void) {
        let rt = ctx()?;
        if ptr.is_null() {
            return Ok(());
        }
        // SAFETY: the driver checks the pointer.
        unsafe { rt.api().cuMemFree(ptr as CUdeviceptr) }
    }

    fn cudaMallocHost(ptr: *mut *mut c_void, size: usize) {
        host_alloc(ptr, size, 0)
    }

    /// `cudaHostAlloc*` flags are `CU_MEMHOSTALLOC_*`'s.
    fn cudaHostAlloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) {
        host_alloc(ptr, size, flags)
    }

    fn cudaFreeHost(ptr: *mut c_void) {
        let rt = ctx()?;
        if ptr.is_null() {
            return Ok(());
        }
        // SAFETY: the driver checks the pointer.
        unsafe { rt.api().cuMemFreeHost(ptr) }
    }

    fn cudaHostGetDevicePointer(device: *mut *mut c_void, host: *mut c_void, flags: c_uint) {
        let out = Out::new(device)?;
        let mut d = 0;
        // SAFETY: valid out-pointer; the driver checks `host`.
        unsafe { ctx()?.api().cuMemHostGetDevicePointer(&mut d, host, flags) }?;
        out.write(d as *mut c_void);
        Ok(())
    }

    /// `cudaHostRegister*` flags are `CU_MEMHOSTREGISTER_*`'s.
    fn cudaHostRegister(ptr: *mut c_void, size: usize, flags: c_uint) {
        // SAFETY: the driver checks the range.
        unsafe { ctx()?.api().cuMemHostRegister(ptr, size, flags) }
    }

    fn cudaHostUnregister(ptr: *mut c_void) {
        // SAFETY: the driver checks the pointer.
        unsafe { ctx()?.api().cuMemHostUnregister(ptr) }
    }

    /// `cudaMemAttachGlobal`/`cudaMemAttachHost` are `CU_MEM_ATTACH_*`'s.
    fn cudaMallocManaged(ptr: *mut *mut c_void, size: usize, flags: c_uint) {
        let out = Out::new(ptr)?;
        let rt = ctx()?;
        if size == 0 {
            out.write(std::ptr::null_mut());
            return Ok(());
        }
        let mut d = 0;
        // SAFETY: valid out-pointer.
        unsafe { rt.api().cuMemAllocManaged(&mut d, size, flags) }?;
        out.write(d as *mut c_void);
        Ok(())
    }

    fn cudaMallocPitch(ptr: *mut *mut c_void, pitch: *mut usize, width: usize, height: usize) {
        let (out, pitch_out) = (Out::new(ptr)?, Out::new(pitch)?);
        let (mut d, mut p) = (0, 0);
        // SAFETY: valid out-pointers. Element size 4: the pitch only has to suit 4-byte
        // accesses for the copies and texture bindings that use it.
        unsafe { ctx()?.api().cuMemAllocPitch(&mut d, &mut p, width, height, 4) }?;
        out.write(d as *mut c_void);
        pitch_out.write(p);
        Ok(())
    }

    fn cudaMemGetInfo(free: *mut usize, total: *mut usize) {
        let (free_out, total_out) = (Out::new(free)?, Out::new(total)?);
        let (mut f, mut t) = (0, 0);
        // SAFETY: valid out-pointers.
        unsafe { ctx()?.api().cuMemGetInfo(&mut f, &mut t) }?;
        free_out.write(f);
        total_out.write(t);
        Ok(())
    }

    /// What a pointer is. Memory the driver does not know (plain host memory) is
    /// `cudaMemoryTypeUnregistered`, with success, as since CUDA 11.
    fn cudaPointerGetAttributes(attributes: *mut PointerAttributes, ptr: *const c_void) {
        let out = Out::new(attributes)?;
        let rt = ctx()?;
        let (mut kind, mut ordinal, mut dptr, mut hptr, mut managed): (u32, c_int, CUdeviceptr, *mut c_void, u32) =
            (0, -2, 0, std::ptr::null_mut(), 0);
        let mut ids = [PA_MEMORY_TYPE, PA_DEVICE_ORDINAL, PA_DEVICE_POINTER, PA_HOST_POINTER, PA_IS_MANAGED];
        let mut data: [*mut c_void; 5] = [
            (&mut kind as *mut u32).cast(),
            (&mut ordinal as *mut c_int).cast(),
            (&mut dptr as *mut CUdeviceptr).cast(),
            (&mut hptr as *mut *mut c_void).cast(),
            (&mut managed as *mut u32).cast(),
        ];
        // SAFETY: five ids, five pointers to storage of each attribute's type.
        unsafe { rt.api().cuPointerGetAttributes(5, ids.as_mut_ptr(), data.as_mut_ptr(), ptr as CUdeviceptr) }?;
        let memory_type = match (managed != 0, kind) {
            (true, _) => MEMORY_TYPE_MANAGED,
            (false, crate::driver::CU_MEMORYTYPE_DEVICE) => MEMORY_TYPE_DEVICE,
            (false, crate::driver::CU_MEMORYTYPE_HOST) => MEMORY_TYPE_HOST,
            _ => MEMORY_TYPE_UNREGISTERED,
        };
        out.write(if memory_type == MEMORY_TYPE_UNREGISTERED {
            PointerAttributes { memory_type, device: -2, device_pointer: std::ptr::null_mut(), host_pointer: ptr as *mut c_void }
        } else {
            PointerAttributes { memory_type, device: ordinal, device_pointer: dptr as *mut c_void, host_pointer: hptr }
        });
        Ok(())
    }

    /// CUDA 13's signature (a `cudaMemLocation`, laid out as `CUmemLocation`); the
    /// `cudaMemoryAdvise` values are `CUmem_advise`'s.
    fn cudaMemAdvise(ptr: *const c_void, count: usize, advice: c_int, location: CUmemLocation) {
        // SAFETY: plain values; the driver checks the range.
        unsafe { ctx()?.api().cuMemAdvise(ptr as CUdeviceptr, count, advice, location) }
    }

    /// CUDA 13's signature (location, flags, stream).
    fn cudaMemPrefetchAsync(ptr: *const c_void, count: usize, location: CUmemLocation, flags: c_uint, s: *mut c_void) {
        prefetch(ptr, count, location, flags, s, false)
    }

    fn cudaMemPrefetchAsync_ptsz(ptr: *const c_void, count: usize, location: CUmemLocation, flags: c_uint, s: *mut c_void) {
        prefetch(ptr, count, location, flags, s, true)
    }

    /// The `cudaHostAlloc` flags of pinned memory (`CU_MEMHOSTALLOC_*` values); memory not
    /// allocated by `cudaHostAlloc`/`cudaMallocHost` is the driver's
    /// `cudaErrorInvalidValue`.
    fn cudaHostGetFlags(flags: *mut c_uint, host: *mut c_void) {
        let out = Out::new(flags)?;
        let mut f = 0;
        // SAFETY: valid out-pointer; the driver checks `host`.
        unsafe { ctx()?.api().cuMemHostGetFlags(&mut f, host) }?;
        out.write(f);
        Ok(())
    }

    /// `cudaMemRangeAttribute` values and their data layouts are `CUmem_range_attribute`'s.
    fn cudaMemRangeGetAttribute(data: *mut c_void, size: usize, attr: c_int, ptr: *const c_void, count: usize) {
        if data.is_null() || ptr.is_null() || count == 0 {
            return Err(crate::error::CudaError::INVALID_VALUE);
        }
        // SAFETY: `size` writable bytes at `data` (caller); the driver checks the range.
        unsafe { ctx()?.api().cuMemRangeGetAttribute(data, size, attr, ptr as CUdeviceptr, count) }
    }
}

fn host_alloc(ptr: *mut *mut c_void, size: usize, flags: c_uint) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(ptr) }?;
    let rt = ctx()?;
    if size == 0 {
        out.write(std::ptr::null_mut());
        return Ok(());
    }
    let mut p = std::ptr::null_mut();
    // SAFETY: valid out-pointer.
    unsafe { rt.api().cuMemHostAlloc(&mut p, size, flags) }?;
    out.write(p);
    Ok(())
}
