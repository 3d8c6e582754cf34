//! OpenGL and graphics interoperability (CUDA Driver API, "Graphics Interoperability",
//! "OpenGL Interoperability" and its deprecated section). Semantics in
//! `cuda_driver::gl`; declarations in `include/cudaGL.h` and `include/cuda.h`.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::handle::GraphicsHandle;
use cuda_driver::texture::mipmap::MipmapHandle;
use cuda_driver::StreamHandle;

use super::{ctx_raw, drv, stream_handle, stream_ptsz};
use crate::boundary::{export, AbiResult, Out};
use crate::types::{CUcontext, CUdevice, CUdeviceptr, CUstream};

/// `CUgraphicsResource` (an opaque pointer in C).
type CUgraphicsResource = *mut c_void;

fn resource(h: CUgraphicsResource) -> GraphicsHandle {
    GraphicsHandle::from_raw(h)
}

/// The handles of a map/unmap call: `count` of them at `resources` (NULL with a count is
/// `CUDA_ERROR_INVALID_VALUE`).
///
/// # Safety
/// A non-NULL `resources` must be readable for `count` handles.
unsafe fn resources_in(count: c_uint, resources: *const CUgraphicsResource) -> AbiResult<Vec<GraphicsHandle>> {
    if count == 0 {
        return Ok(Vec::new());
    }
    if resources.is_null() {
        return Err(cuda_driver::CuError::INVALID_VALUE);
    }
    // SAFETY: readable for `count` handles, per the caller.
    Ok(unsafe { std::slice::from_raw_parts(resources, count as usize) }.iter().map(|&h| resource(h)).collect())
}

/// # Safety
/// As [`resources_in`].
unsafe fn map(count: c_uint, resources: *const CUgraphicsResource, stream: StreamHandle) -> AbiResult {
    // SAFETY: forwarded from the caller.
    let handles = unsafe { resources_in(count, resources) }?;
    drv()?.graphics_map_resources(&handles, stream)
}

/// # Safety
/// As [`resources_in`].
unsafe fn unmap(count: c_uint, resources: *const CUgraphicsResource, stream: StreamHandle) -> AbiResult {
    // SAFETY: forwarded from the caller.
    let handles = unsafe { resources_in(count, resources) }?;
    drv()?.graphics_unmap_resources(&handles, stream)
}

/// # Safety
/// `dptr` and `size` NULL or writable.
unsafe fn map_buffer_object(dptr: *mut CUdeviceptr, size: *mut usize, buffer: c_uint, stream: StreamHandle) -> AbiResult {
    // SAFETY: NULL or writable, per the API.
    let (out_ptr, out_size) = unsafe { (Out::new(dptr)?, Out::optional(size)) };
    let (ptr, n) = drv()?.gl_map_buffer_object(buffer, stream)?;
    out_ptr.write(ptr);
    if let Some(out) = out_size {
        out.write(n);
    }
    Ok(())
}

export! {
    /// `cuGraphicsGLRegisterBuffer(CUgraphicsResource*, GLuint buffer, unsigned int Flags)`.
    fn cuGraphicsGLRegisterBuffer(p_resource: *mut CUgraphicsResource, buffer: c_uint, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_resource)? };
        out.write(drv()?.graphics_gl_register_buffer(buffer, flags)?.as_raw());
        Ok(())
    }

    /// `cuGraphicsGLRegisterImage(CUgraphicsResource*, GLuint image, GLenum target, unsigned int Flags)`.
    fn cuGraphicsGLRegisterImage(p_resource: *mut CUgraphicsResource, image: c_uint, target: c_uint, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_resource)? };
        out.write(drv()?.graphics_gl_register_image(image, target, flags)?.as_raw());
        Ok(())
    }

    /// `cuGraphicsUnregisterResource(CUgraphicsResource)`.
    fn cuGraphicsUnregisterResource(res: CUgraphicsResource) {
        drv()?.graphics_unregister_resource(resource(res))
    }

    /// `cuGraphicsMapResources(unsigned int count, CUgraphicsResource*, CUstream)`.
    fn cuGraphicsMapResources(count: c_uint, resources: *mut CUgraphicsResource, h_stream: CUstream) {
        // SAFETY: readable for `count` handles, per the API.
        unsafe { map(count, resources, stream_handle(h_stream)) }
    }

    /// `cuGraphicsMapResources_ptsz`.
    fn cuGraphicsMapResources_ptsz(count: c_uint, resources: *mut CUgraphicsResource, h_stream: CUstream) {
        // SAFETY: readable for `count` handles, per the API.
        unsafe { map(count, resources, stream_ptsz(h_stream)) }
    }

    /// `cuGraphicsUnmapResources(unsigned int count, CUgraphicsResource*, CUstream)`.
    fn cuGraphicsUnmapResources(count: c_uint, resources: *mut CUgraphicsResource, h_stream: CUstream) {
        // SAFETY: readable for `count` handles, per the API.
        unsafe { unmap(count, resources, stream_handle(h_stream)) }
    }

    /// `cuGraphicsUnmapResources_ptsz`.
    fn cuGraphicsUnmapResources_ptsz(count: c_uint, resources: *mut CUgraphicsResource, h_stream: CUstream) {
        // SAFETY: readable for `count` handles, per the API.
        unsafe { unmap(count, resources, stream_ptsz(h_stream)) }
    }

    /// `cuGraphicsResourceGetMappedPointer_v2(CUdeviceptr*, size_t*, CUgraphicsResource)`.
    fn cuGraphicsResourceGetMappedPointer_v2(p_dev_ptr: *mut CUdeviceptr, p_size: *mut usize, res: CUgraphicsResource) {
        // SAFETY: NULL or writable, per the API.
        let (out_ptr, out_size) = unsafe { (Out::new(p_dev_ptr)?, Out::new(p_size)?) };
        let (ptr, size) = drv()?.graphics_resource_get_mapped_pointer(resource(res))?;
        out_ptr.write(ptr);
        out_size.write(size);
        Ok(())
    }

    /// `cuGraphicsSubResourceGetMappedArray(CUarray*, CUgraphicsResource, unsigned int arrayIndex, unsigned int mipLevel)`.
    fn cuGraphicsSubResourceGetMappedArray(p_array: *mut *mut c_void, res: CUgraphicsResource, array_index: c_uint, mip_level: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_array)? };
        out.write(drv()?.graphics_sub_resource_get_mapped_array(resource(res), array_index, mip_level)?.0 as usize as *mut c_void);
        Ok(())
    }

    /// `cuGraphicsResourceGetMappedMipmappedArray(CUmipmappedArray*, CUgraphicsResource)`.
    fn cuGraphicsResourceGetMappedMipmappedArray(p_mipmapped_array: *mut *mut c_void, res: CUgraphicsResource) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_mipmapped_array)? };
        let MipmapHandle(h) = drv()?.graphics_resource_get_mapped_mipmapped_array(resource(res))?;
        out.write(h as usize as *mut c_void);
        Ok(())
    }

    /// `cuGraphicsResourceSetMapFlags(CUgraphicsResource, unsigned int flags)` (CUDA 3.0's
    /// ABI, the same signature as `_v2`).
    fn cuGraphicsResourceSetMapFlags(res: CUgraphicsResource, flags: c_uint) {
        drv()?.graphics_resource_set_map_flags(resource(res), flags)
    }

    /// `cuGraphicsResourceSetMapFlags_v2(CUgraphicsResource, unsigned int flags)`.
    fn cuGraphicsResourceSetMapFlags_v2(res: CUgraphicsResource, flags: c_uint) {
        drv()?.graphics_resource_set_map_flags(resource(res), flags)
    }

    /// `cuGLGetDevices(unsigned int* pCudaDeviceCount, CUdevice* pCudaDevices, unsigned int cudaDeviceCount, CUGLDeviceList)`.
    fn cuGLGetDevices(p_count: *mut c_uint, p_devices: *mut CUdevice, capacity: c_uint, device_list: c_int) {
        // SAFETY: forwarded from the caller.
        unsafe { gl_get_devices(p_count, p_devices, capacity, device_list) }
    }

    /// `cuGLGetDevices_v2`: the same signature.
    fn cuGLGetDevices_v2(p_count: *mut c_uint, p_devices: *mut CUdevice, capacity: c_uint, device_list: c_int) {
        // SAFETY: forwarded from the caller.
        unsafe { gl_get_devices(p_count, p_devices, capacity, device_list) }
    }

    /// `cuGLInit(void)`.
    fn cuGLInit() {
        drv()?.gl_init()
    }

    /// `cuGLCtxCreate(CUcontext*, unsigned int Flags, CUdevice)` (CUDA 2.0's ABI, the same
    /// signature as `_v2`).
    fn cuGLCtxCreate(p_ctx: *mut CUcontext, flags: c_uint, device: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_ctx)? };
        out.write(ctx_raw(drv()?.gl_ctx_create(flags, device)?));
        Ok(())
    }

    /// `cuGLCtxCreate_v2(CUcontext*, unsigned int Flags, CUdevice)`.
    fn cuGLCtxCreate_v2(p_ctx: *mut CUcontext, flags: c_uint, device: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_ctx)? };
        out.write(ctx_raw(drv()?.gl_ctx_create(flags, device)?));
        Ok(())
    }

    /// `cuGLRegisterBufferObject(GLuint buffer)`.
    fn cuGLRegisterBufferObject(buffer: c_uint) {
        drv()?.gl_register_buffer_object(buffer)
    }

    /// `cuGLMapBufferObject_v2(CUdeviceptr*, size_t*, GLuint buffer)`.
    fn cuGLMapBufferObject_v2(dptr: *mut CUdeviceptr, size: *mut usize, buffer: c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { map_buffer_object(dptr, size, buffer, StreamHandle::LEGACY) }
    }

    /// `cuGLMapBufferObject_v2_ptds`.
    fn cuGLMapBufferObject_v2_ptds(dptr: *mut CUdeviceptr, size: *mut usize, buffer: c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { map_buffer_object(dptr, size, buffer, StreamHandle::PER_THREAD) }
    }

    /// `cuGLMapBufferObjectAsync_v2(CUdeviceptr*, size_t*, GLuint buffer, CUstream)`.
    fn cuGLMapBufferObjectAsync_v2(dptr: *mut CUdeviceptr, size: *mut usize, buffer: c_uint, h_stream: CUstream) {
        // SAFETY: NULL or writable, per the API.
        unsafe { map_buffer_object(dptr, size, buffer, stream_handle(h_stream)) }
    }

    /// `cuGLMapBufferObjectAsync_v2_ptsz`.
    fn cuGLMapBufferObjectAsync_v2_ptsz(dptr: *mut CUdeviceptr, size: *mut usize, buffer: c_uint, h_stream: CUstream) {
        // SAFETY: NULL or writable, per the API.
        unsafe { map_buffer_object(dptr, size, buffer, stream_ptsz(h_stream)) }
    }

    /// `cuGLUnmapBufferObject(GLuint buffer)`.
    fn cuGLUnmapBufferObject(buffer: c_uint) {
        drv()?.gl_unmap_buffer_object(buffer, StreamHandle::LEGACY)
    }

    /// `cuGLUnmapBufferObjectAsync(GLuint buffer, CUstream)`.
    fn cuGLUnmapBufferObjectAsync(buffer: c_uint, h_stream: CUstream) {
        drv()?.gl_unmap_buffer_object(buffer, stream_handle(h_stream))
    }

    /// `cuGLUnregisterBufferObject(GLuint buffer)`.
    fn cuGLUnregisterBufferObject(buffer: c_uint) {
        drv()?.gl_unregister_buffer_object(buffer)
    }

    /// `cuGLSetBufferObjectMapFlags(GLuint buffer, unsigned int Flags)`.
    fn cuGLSetBufferObjectMapFlags(buffer: c_uint, flags: c_uint) {
        drv()?.gl_set_buffer_object_map_flags(buffer, flags)
    }
}

/// `cuGLGetDevices`: writes the count, and up to `capacity` devices.
///
/// # Safety
/// `p_count` NULL or writable; `p_devices` NULL or writable for `capacity` devices.
unsafe fn gl_get_devices(p_count: *mut c_uint, p_devices: *mut CUdevice, capacity: c_uint, device_list: c_int) -> AbiResult {
    // SAFETY: NULL or writable, per the API.
    let out_count = unsafe { Out::new(p_count)? };
    if capacity > 0 && p_devices.is_null() {
        return Err(cuda_driver::CuError::INVALID_VALUE);
    }
    let devices = drv()?.gl_get_devices(device_list as u32)?;
    for (i, &d) in devices.iter().take(capacity as usize).enumerate() {
        // SAFETY: writable for `capacity` devices, per the API.
        unsafe { p_devices.add(i).write_unaligned(d) };
    }
    out_count.write(devices.len() as c_uint);
    Ok(())
}
