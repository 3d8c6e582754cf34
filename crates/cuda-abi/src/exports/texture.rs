//! CUDA arrays, the copies that address them by byte offset, and texture and surface
//! objects (CUDA Driver API "Array Management", "Texture Object Management", "Surface
//! Object Management"). The driver checks the descriptors; the ABI reads and writes them.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::copy::{ArraySide, On};
use cuda_driver::texture::mipmap::MipmapHandle;
use cuda_driver::texture::{Array3dDescriptor, ArrayDescriptor, ArrayHandle, ResourceDesc, TextureDesc};
use cuda_driver::{CuError, StreamHandle};

use super::{drv, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, AbiResult, Out};
use crate::types::{CUdeviceptr, CUstream};

/// `CUarray` (an opaque pointer in C).
type CUarray = *mut c_void;

fn array(h: CUarray) -> ArrayHandle {
    ArrayHandle(h as usize as u64)
}

fn host(p: *const c_void, n: usize) -> AbiResult<ArraySide> {
    if p.is_null() && n > 0 {
        return Err(CuError::INVALID_VALUE);
    }
    Ok(ArraySide::Host(p))
}

/// # Safety
/// Host sides are valid for `n` bytes until the copy has run.
unsafe fn copy(dst: ArraySide, src: ArraySide, n: usize, on: On) -> AbiResult {
    // SAFETY: forwarded contract.
    unsafe { drv()?.memcpy_array(dst, src, n, on) }
}

const LEGACY: On = On::Blocking(StreamHandle::LEGACY);
const PER_THREAD: On = On::Blocking(StreamHandle::PER_THREAD);

export! {
    /// `cuArrayCreate_v2(CUarray*, const CUDA_ARRAY_DESCRIPTOR*)`.
    fn cuArrayCreate_v2(ph: *mut CUarray, desc: *const ArrayDescriptor) {
        // SAFETY: NULL or valid, per the API.
        let (out, d) = unsafe { (Out::new(ph)?, read_in(desc)?) };
        out.write(drv()?.array_create(&d)?.0 as usize as CUarray);
        Ok(())
    }

    /// `cuArray3DCreate_v2(CUarray*, const CUDA_ARRAY3D_DESCRIPTOR*)`.
    fn cuArray3DCreate_v2(ph: *mut CUarray, desc: *const Array3dDescriptor) {
        // SAFETY: NULL or valid, per the API.
        let (out, d) = unsafe { (Out::new(ph)?, read_in(desc)?) };
        out.write(drv()?.array_3d_create(&d)?.0 as usize as CUarray);
        Ok(())
    }

    /// `cuArrayDestroy(CUarray)`.
    fn cuArrayDestroy(h: CUarray) {
        drv()?.array_destroy(array(h))
    }

    /// `cuArrayGetDescriptor_v2(CUDA_ARRAY_DESCRIPTOR*, CUarray)`.
    fn cuArrayGetDescriptor_v2(desc: *mut ArrayDescriptor, h: CUarray) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(desc) }?;
        out.write(drv()?.array_descriptor(array(h))?);
        Ok(())
    }

    /// `cuArray3DGetDescriptor_v2(CUDA_ARRAY3D_DESCRIPTOR*, CUarray)`.
    fn cuArray3DGetDescriptor_v2(desc: *mut Array3dDescriptor, h: CUarray) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(desc) }?;
        out.write(drv()?.array_3d_descriptor(array(h))?);
        Ok(())
    }

    /// `cuMemcpyHtoA_v2(CUarray dst, size_t dstOffset, const void* src, size_t n)`.
    fn cuMemcpyHtoA_v2(dst: CUarray, offset: usize, src: *const c_void, n: usize) {
        // SAFETY: `src` is readable for `n` bytes, per the API.
        unsafe { copy(ArraySide::Array(array(dst).0, offset), host(src, n)?, n, LEGACY) }
    }
    fn cuMemcpyHtoA_v2_ptds(dst: CUarray, offset: usize, src: *const c_void, n: usize) {
        // SAFETY: as cuMemcpyHtoA_v2.
        unsafe { copy(ArraySide::Array(array(dst).0, offset), host(src, n)?, n, PER_THREAD) }
    }
    /// `cuMemcpyHtoAAsync_v2(..., CUstream)`.
    fn cuMemcpyHtoAAsync_v2(dst: CUarray, offset: usize, src: *const c_void, n: usize, s: CUstream) {
        // SAFETY: as cuMemcpyHtoA_v2, until the copy has run.
        unsafe { copy(ArraySide::Array(array(dst).0, offset), host(src, n)?, n, On::Async(stream_handle(s))) }
    }
    fn cuMemcpyHtoAAsync_v2_ptsz(dst: CUarray, offset: usize, src: *const c_void, n: usize, s: CUstream) {
        // SAFETY: as cuMemcpyHtoAAsync_v2.
        unsafe { copy(ArraySide::Array(array(dst).0, offset), host(src, n)?, n, On::Async(stream_ptsz(s))) }
    }
    /// `cuMemcpyAtoH_v2(void* dst, CUarray src, size_t srcOffset, size_t n)`.
    fn cuMemcpyAtoH_v2(dst: *mut c_void, src: CUarray, offset: usize, n: usize) {
        // SAFETY: `dst` is writable for `n` bytes, per the API.
        unsafe { copy(host(dst, n)?, ArraySide::Array(array(src).0, offset), n, LEGACY) }
    }
    fn cuMemcpyAtoH_v2_ptds(dst: *mut c_void, src: CUarray, offset: usize, n: usize) {
        // SAFETY: as cuMemcpyAtoH_v2.
        unsafe { copy(host(dst, n)?, ArraySide::Array(array(src).0, offset), n, PER_THREAD) }
    }
    /// `cuMemcpyAtoHAsync_v2(..., CUstream)`.
    fn cuMemcpyAtoHAsync_v2(dst: *mut c_void, src: CUarray, offset: usize, n: usize, s: CUstream) {
        // SAFETY: as cuMemcpyAtoH_v2, until the copy has run.
        unsafe { copy(host(dst, n)?, ArraySide::Array(array(src).0, offset), n, On::Async(stream_handle(s))) }
    }
    fn cuMemcpyAtoHAsync_v2_ptsz(dst: *mut c_void, src: CUarray, offset: usize, n: usize, s: CUstream) {
        // SAFETY: as cuMemcpyAtoHAsync_v2.
        unsafe { copy(host(dst, n)?, ArraySide::Array(array(src).0, offset), n, On::Async(stream_ptsz(s))) }
    }
    /// `cuMemcpyDtoA_v2(CUarray dst, size_t dstOffset, CUdeviceptr src, size_t n)`.
    fn cuMemcpyDtoA_v2(dst: CUarray, offset: usize, src: CUdeviceptr, n: usize) {
        // SAFETY: no host side.
        unsafe { copy(ArraySide::Array(array(dst).0, offset), ArraySide::Device(src), n, LEGACY) }
    }
    fn cuMemcpyDtoA_v2_ptds(dst: CUarray, offset: usize, src: CUdeviceptr, n: usize) {
        // SAFETY: no host side.
        unsafe { copy(ArraySide::Array(array(dst).0, offset), ArraySide::Device(src), n, PER_THREAD) }
    }
    /// `cuMemcpyAtoD_v2(CUdeviceptr dst, CUarray src, size_t srcOffset, size_t n)`.
    fn cuMemcpyAtoD_v2(dst: CUdeviceptr, src: CUarray, offset: usize, n: usize) {
        // SAFETY: no host side.
        unsafe { copy(ArraySide::Device(dst), ArraySide::Array(array(src).0, offset), n, LEGACY) }
    }
    fn cuMemcpyAtoD_v2_ptds(dst: CUdeviceptr, src: CUarray, offset: usize, n: usize) {
        // SAFETY: no host side.
        unsafe { copy(ArraySide::Device(dst), ArraySide::Array(array(src).0, offset), n, PER_THREAD) }
    }
    /// `cuMemcpyAtoA_v2(CUarray dst, size_t dstOffset, CUarray src, size_t srcOffset, size_t n)`.
    fn cuMemcpyAtoA_v2(dst: CUarray, dst_offset: usize, src: CUarray, src_offset: usize, n: usize) {
        // SAFETY: no host side.
        unsafe { copy(ArraySide::Array(array(dst).0, dst_offset), ArraySide::Array(array(src).0, src_offset), n, LEGACY) }
    }
    fn cuMemcpyAtoA_v2_ptds(dst: CUarray, dst_offset: usize, src: CUarray, src_offset: usize, n: usize) {
        // SAFETY: no host side.
        unsafe { copy(ArraySide::Array(array(dst).0, dst_offset), ArraySide::Array(array(src).0, src_offset), n, PER_THREAD) }
    }

    /// `cuTexObjectCreate(CUtexObject*, const CUDA_RESOURCE_DESC*, const CUDA_TEXTURE_DESC*,
    /// const CUDA_RESOURCE_VIEW_DESC*)`.
    fn cuTexObjectCreate(object: *mut u64, resource: *const ResourceDesc, texture: *const TextureDesc, view: *const c_void) {
        // SAFETY: NULL or valid, per the API.
        let (out, r, t) = unsafe { (Out::new(object)?, read_in(resource)?, read_in(texture)?) };
        out.write(drv()?.tex_object_create(&r, &t, !view.is_null())?);
        Ok(())
    }

    /// `cuTexObjectDestroy(CUtexObject)`.
    fn cuTexObjectDestroy(object: u64) {
        drv()?.texture_object_destroy(object, false)
    }

    /// `cuTexObjectGetResourceDesc(CUDA_RESOURCE_DESC*, CUtexObject)`.
    fn cuTexObjectGetResourceDesc(resource: *mut ResourceDesc, object: u64) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(resource) }?;
        out.write(drv()?.texture_object_resource(object, false)?);
        Ok(())
    }

    /// `cuTexObjectGetResourceViewDesc(CUDA_RESOURCE_VIEW_DESC*, CUtexObject)`: no object
    /// has a view here, so nothing is written.
    fn cuTexObjectGetResourceViewDesc(view: *mut c_void, object: u64) {
        if view.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        drv()?.tex_object_resource_view_desc(object)
    }

    /// `cuMipmappedArrayCreate(CUmipmappedArray*, const CUDA_ARRAY3D_DESCRIPTOR*, unsigned int numMipmapLevels)`.
    fn cuMipmappedArrayCreate(handle: *mut *mut c_void, desc: *const Array3dDescriptor, num_mipmap_levels: c_uint) {
        // SAFETY: NULL or valid, per the API.
        let (out, d) = unsafe { (Out::new(handle)?, read_in(desc)?) };
        out.write(drv()?.mipmapped_array_create(&d, num_mipmap_levels)?.0 as usize as *mut c_void);
        Ok(())
    }

    /// `cuMipmappedArrayGetLevel(CUarray*, CUmipmappedArray, unsigned int level)`.
    fn cuMipmappedArrayGetLevel(level_array: *mut CUarray, mipmap: *mut c_void, level: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(level_array) }?;
        out.write(drv()?.mipmapped_array_get_level(MipmapHandle(mipmap as usize as u64), level)?.0 as usize as CUarray);
        Ok(())
    }

    /// `cuMipmappedArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS*, CUmipmappedArray, CUdevice)`.
    fn cuMipmappedArrayGetMemoryRequirements(memory_requirements: *mut c_void, mipmap: *mut c_void, device: c_int) {
        let _ = (memory_requirements, device);
        drv()?.mipmapped_array_without_backing_info(MipmapHandle(mipmap as usize as u64), "cuMipmappedArrayGetMemoryRequirements")
    }

    /// `cuMipmappedArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES*, CUmipmappedArray)`.
    fn cuMipmappedArrayGetSparseProperties(sparse_properties: *mut c_void, mipmap: *mut c_void) {
        let _ = sparse_properties;
        drv()?.mipmapped_array_without_backing_info(MipmapHandle(mipmap as usize as u64), "cuMipmappedArrayGetSparseProperties")
    }

    /// `cuMipmappedArrayDestroy(CUmipmappedArray)`.
    fn cuMipmappedArrayDestroy(mipmap: *mut c_void) {
        drv()?.mipmapped_array_destroy(MipmapHandle(mipmap as usize as u64))
    }

    /// `cuTexObjectGetTextureDesc(CUDA_TEXTURE_DESC*, CUtexObject)`.
    fn cuTexObjectGetTextureDesc(texture: *mut TextureDesc, object: u64) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(texture) }?;
        out.write(drv()?.tex_object_texture_desc(object)?);
        Ok(())
    }

    /// `cuSurfObjectCreate(CUsurfObject*, const CUDA_RESOURCE_DESC*)`.
    fn cuSurfObjectCreate(object: *mut u64, resource: *const ResourceDesc) {
        // SAFETY: NULL or valid, per the API.
        let (out, r) = unsafe { (Out::new(object)?, read_in(resource)?) };
        out.write(drv()?.surf_object_create(&r)?);
        Ok(())
    }

    /// `cuSurfObjectDestroy(CUsurfObject)`.
    fn cuSurfObjectDestroy(object: u64) {
        drv()?.texture_object_destroy(object, true)
    }

    /// `cuSurfObjectGetResourceDesc(CUDA_RESOURCE_DESC*, CUsurfObject)`.
    fn cuSurfObjectGetResourceDesc(resource: *mut ResourceDesc, object: u64) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(resource) }?;
        out.write(drv()?.texture_object_resource(object, true)?);
        Ok(())
    }

    /// `cuArrayGetPlane`: only multi-planar (NV12) arrays have planes, and none is made here.
    fn cuArrayGetPlane(plane: *mut CUarray, h: CUarray, index: c_uint) {
        let _ = (plane, index);
        drv()?.array(array(h))?;
        Err(CuError::INVALID_VALUE)
    }

    /// `cuArrayGetMemoryRequirements(CUDA_ARRAY_MEMORY_REQUIREMENTS* memoryRequirements, CUarray array, CUdevice device)`.
    fn cuArrayGetMemoryRequirements(memory_requirements: *mut [usize; 6], h: CUarray, device: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(memory_requirements) }?;
        let (size, alignment) = drv()?.array_memory_requirements(array(h), device)?;
        out.write([size, alignment, 0, 0, 0, 0]);
        Ok(())
    }

    /// `cuArrayGetSparseProperties(CUDA_ARRAY_SPARSE_PROPERTIES* sparseProperties, CUarray array)`.
    fn cuArrayGetSparseProperties(sparse_properties: *mut c_void, h: CUarray) {
        if sparse_properties.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        drv()?.array_sparse_properties(array(h))
    }
}
