//! External memory (CUDA Driver API, "External Resource Interoperability"):
//! `cuImportExternalMemory`, `cuExternalMemoryGetMappedBuffer`,
//! `cuExternalMemoryGetMappedMipmappedArray`, `cuDestroyExternalMemory`.
//! Semantics in `cuda_driver::external_memory`.

use std::ffi::{c_uint, c_void};

use cuda_driver::external_memory::{ExtMemHandle, HandleDesc};
use cuda_driver::texture::Array3dDescriptor;

use super::drv;
use crate::boundary::{export, read_in, Out};
use crate::types::CUdeviceptr;

/// `CUexternalMemory`.
pub type CUexternalMemory = *mut c_void;

/// `CUDA_EXTERNAL_MEMORY_HANDLE_DESC`: the handle is a union of an `int` (descriptor
/// types), a Win32 handle and name, and an NvSciBuf object.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUDA_EXTERNAL_MEMORY_HANDLE_DESC {
    pub kind: c_uint,
    pub handle: [u64; 2],
    pub size: u64,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}
const _: () = assert!(std::mem::size_of::<CUDA_EXTERNAL_MEMORY_HANDLE_DESC>() == 104);

/// `CUDA_EXTERNAL_MEMORY_BUFFER_DESC`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUDA_EXTERNAL_MEMORY_BUFFER_DESC {
    pub offset: u64,
    pub size: u64,
    pub flags: c_uint,
    pub reserved: [c_uint; 16],
}
const _: () = assert!(std::mem::size_of::<CUDA_EXTERNAL_MEMORY_BUFFER_DESC>() == 88);

/// `CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC`.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC {
    pub offset: u64,
    pub array_desc: Array3dDescriptor,
    pub num_levels: c_uint,
    pub reserved: [c_uint; 16],
}
const _: () = assert!(std::mem::size_of::<CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC>() == 120);

fn ext_handle(h: CUexternalMemory) -> ExtMemHandle {
    ExtMemHandle(h as usize as u64)
}

export! {
    /// `cuImportExternalMemory(CUexternalMemory* extMem_out, const CUDA_EXTERNAL_MEMORY_HANDLE_DESC* memHandleDesc)`.
    fn cuImportExternalMemory(ext_mem_out: *mut CUexternalMemory, mem_handle_desc: *const CUDA_EXTERNAL_MEMORY_HANDLE_DESC) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, d) = unsafe { (Out::new(ext_mem_out)?, read_in(mem_handle_desc)?) };
        // The union's first member for the descriptor types is the `int` fd.
        let desc = HandleDesc { handle_type: d.kind, fd: d.handle[0] as u32 as i32, size: d.size, flags: d.flags };
        out.write(drv()?.import_external_memory(&desc)?.0 as usize as CUexternalMemory);
        Ok(())
    }

    /// `cuExternalMemoryGetMappedBuffer(CUdeviceptr* devPtr, CUexternalMemory extMem, const CUDA_EXTERNAL_MEMORY_BUFFER_DESC* bufferDesc)`.
    fn cuExternalMemoryGetMappedBuffer(dev_ptr: *mut CUdeviceptr, ext_mem: CUexternalMemory, buffer_desc: *const CUDA_EXTERNAL_MEMORY_BUFFER_DESC) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, d) = unsafe { (Out::new(dev_ptr)?, read_in(buffer_desc)?) };
        out.write(drv()?.external_memory_get_mapped_buffer(ext_handle(ext_mem), d.offset, d.size, d.flags)?);
        Ok(())
    }

    /// `cuExternalMemoryGetMappedMipmappedArray(CUmipmappedArray* mipmap, CUexternalMemory extMem, const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC* mipmapDesc)`.
    fn cuExternalMemoryGetMappedMipmappedArray(mipmap: *mut *mut c_void, ext_mem: CUexternalMemory, mipmap_desc: *const CUDA_EXTERNAL_MEMORY_MIPMAPPED_ARRAY_DESC) {
        // SAFETY: NULL or writable / readable, per the API.
        let (out, d) = unsafe { (Out::new(mipmap)?, read_in(mipmap_desc)?) };
        let handle = drv()?.external_memory_get_mapped_mipmapped_array(ext_handle(ext_mem), d.offset, &d.array_desc, d.num_levels)?;
        out.write(handle.0 as usize as *mut c_void);
        Ok(())
    }

    /// `cuDestroyExternalMemory(CUexternalMemory extMem)`.
    fn cuDestroyExternalMemory(ext_mem: CUexternalMemory) {
        drv()?.destroy_external_memory(ext_handle(ext_mem))
    }
}
