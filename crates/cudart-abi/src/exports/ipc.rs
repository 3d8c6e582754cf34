//! Interprocess communication and external memory (runtime API "Device Management":
//! `cudaIpc*`; "Stream Ordered Memory Allocator": pool export and import; "External
//! Resource Interoperability": external memory) and `cudaMemcpy3DPeer` ("Memory
//! Management"). Each is one driver call on the current device's primary context; the
//! runtime's handle and descriptor types have the driver's layouts.

use std::ffi::{c_int, c_uint, c_void};

use super::api;
use super::memcpy::Mode;
use super::memcpy3d::{descriptor, Extent, Memcpy3DParms, PitchedPtr, Pos};
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUdeviceptr, CUevent, CUmemoryPool, IpcHandle, CU_STREAM_PER_THREAD};
use crate::error::CudaError;
use crate::runtime::runtime;

/// `cudaMemcpyDeviceToDevice`: both sides of a peer copy are device memory or arrays.
const DEVICE_TO_DEVICE: c_int = 3;

/// `cudaMemcpy3DPeerParms`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Memcpy3DPeerParms {
    pub src_array: *mut c_void,
    pub src_pos: Pos,
    pub src_ptr: PitchedPtr,
    pub src_device: c_int,
    pub dst_array: *mut c_void,
    pub dst_pos: Pos,
    pub dst_ptr: PitchedPtr,
    pub dst_device: c_int,
    pub extent: Extent,
}

const _: () = assert!(std::mem::size_of::<Memcpy3DPeerParms>() == 168);

fn copy_3d_peer(p: *const Memcpy3DPeerParms, mode: Mode) -> RtResult {
    if p.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL, a `cudaMemcpy3DPeerParms` per the API (read unaligned: C gives
    // no alignment guarantee we rely on).
    let p = unsafe { p.read_unaligned() };
    let rt = runtime()?;
    let (src_ctx, dst_ctx) = (rt.primary(p.src_device)?, rt.primary(p.dst_device)?);
    let parms = Memcpy3DParms {
        src_array: p.src_array,
        src_pos: p.src_pos,
        src_ptr: p.src_ptr,
        dst_array: p.dst_array,
        dst_pos: p.dst_pos,
        dst_ptr: p.dst_ptr,
        extent: p.extent,
        kind: DEVICE_TO_DEVICE,
    };
    let mut desc = descriptor(&parms)?;
    desc.reserved0 = src_ctx;
    desc.reserved1 = dst_ctx;
    let api = api()?;
    if p.extent.width == 0 || p.extent.height == 0 || p.extent.depth == 0 {
        return Ok(());
    }
    // SAFETY: a complete descriptor of device memory the driver checks.
    unsafe {
        match mode {
            Mode::Blocking => api.cuMemcpy3DPeer(&desc),
            Mode::Async(s) => api.cuMemcpy3DPeerAsync(&desc, s),
            Mode::BlockingPerThread => {
                api.cuMemcpy3DPeerAsync(&desc, CU_STREAM_PER_THREAD)?;
                api.cuStreamSynchronize(CU_STREAM_PER_THREAD)
            }
        }
    }
}

export! {
    fn cudaIpcGetMemHandle(handle: *mut [u8; 64], dev_ptr: *mut c_void) {
        // SAFETY: the driver checks the pointer it writes through (NULL included).
        unsafe { api()?.cuIpcGetMemHandle(handle, dev_ptr as CUdeviceptr) }
    }

    /// `flags` must be `cudaIpcMemLazyEnablePeerAccess`; the driver checks it.
    fn cudaIpcOpenMemHandle(dev_ptr: *mut *mut c_void, handle: IpcHandle, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dev_ptr) }?;
        let mut p: CUdeviceptr = 0;
        // SAFETY: a valid out-pointer.
        unsafe { api()?.cuIpcOpenMemHandle(&mut p, handle, flags) }?;
        out.write(p as *mut c_void);
        Ok(())
    }

    fn cudaIpcCloseMemHandle(dev_ptr: *mut c_void) {
        // SAFETY: the driver checks the pointer.
        unsafe { api()?.cuIpcCloseMemHandle(dev_ptr as CUdeviceptr) }
    }

    fn cudaIpcGetEventHandle(handle: *mut [u8; 64], event: CUevent) {
        // SAFETY: the driver checks the event and the out-pointer.
        unsafe { api()?.cuIpcGetEventHandle(handle, event) }
    }

    fn cudaIpcOpenEventHandle(event: *mut CUevent, handle: IpcHandle) {
        // SAFETY: the driver checks the out-pointer.
        unsafe { api()?.cuIpcOpenEventHandle(event, handle) }
    }

    fn cudaMemPoolExportToShareableHandle(shareable_handle: *mut c_void, pool: CUmemoryPool, handle_type: c_uint, flags: c_uint) {
        // SAFETY: the driver checks the pool and writes the handle type's C type.
        unsafe { api()?.cuMemPoolExportToShareableHandle(shareable_handle, pool, handle_type, u64::from(flags)) }
    }

    fn cudaMemPoolImportFromShareableHandle(pool: *mut CUmemoryPool, shareable_handle: *mut c_void, handle_type: c_uint, flags: c_uint) {
        // SAFETY: the driver checks the out-pointer and the handle.
        unsafe { api()?.cuMemPoolImportFromShareableHandle(pool, shareable_handle, handle_type, u64::from(flags)) }
    }

    fn cudaMemPoolExportPointer(export_data: *mut [u8; 64], ptr: *mut c_void) {
        // SAFETY: the driver checks the out-pointer and the allocation.
        unsafe { api()?.cuMemPoolExportPointer(export_data, ptr as CUdeviceptr) }
    }

    fn cudaMemPoolImportPointer(ptr: *mut *mut c_void, pool: CUmemoryPool, export_data: *mut [u8; 64]) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ptr) }?;
        let mut p: CUdeviceptr = 0;
        // SAFETY: a valid out-pointer; the driver reads the export data.
        unsafe { api()?.cuMemPoolImportPointer(&mut p, pool, export_data) }?;
        out.write(p as *mut c_void);
        Ok(())
    }

    fn cudaImportExternalMemory(ext_mem_out: *mut *mut c_void, mem_handle_desc: *const c_void) {
        // SAFETY: the driver checks both pointers (a `cudaExternalMemoryHandleDesc` is a
        // `CUDA_EXTERNAL_MEMORY_HANDLE_DESC`).
        unsafe { api()?.cuImportExternalMemory(ext_mem_out, mem_handle_desc) }
    }

    fn cudaExternalMemoryGetMappedBuffer(dev_ptr: *mut *mut c_void, ext_mem: *mut c_void, buffer_desc: *const c_void) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(dev_ptr) }?;
        let mut p: CUdeviceptr = 0;
        // SAFETY: a valid out-pointer; the driver reads the descriptor.
        unsafe { api()?.cuExternalMemoryGetMappedBuffer(&mut p, ext_mem, buffer_desc) }?;
        out.write(p as *mut c_void);
        Ok(())
    }

    fn cudaDestroyExternalMemory(ext_mem: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuDestroyExternalMemory(ext_mem) }
    }

    fn cudaMemcpy3DPeer(p: *const Memcpy3DPeerParms) {
        copy_3d_peer(p, Mode::Blocking)
    }

    fn cudaMemcpy3DPeer_ptds(p: *const Memcpy3DPeerParms) {
        copy_3d_peer(p, Mode::BlockingPerThread)
    }

    fn cudaMemcpy3DPeerAsync(p: *const Memcpy3DPeerParms, s: *mut c_void) {
        copy_3d_peer(p, Mode::of_async(s, false))
    }

    fn cudaMemcpy3DPeerAsync_ptsz(p: *const Memcpy3DPeerParms, s: *mut c_void) {
        copy_3d_peer(p, Mode::of_async(s, true))
    }
}
