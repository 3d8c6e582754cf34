//! Graphics interoperability (runtime API "Graphics Interoperability" and "OpenGL
//! Interoperability", `cuda_gl_interop.h`): each call is the driver's of the same meaning
//! (`cuGraphics*`, `cuGLGetDevices`, the deprecated `cuGL*BufferObject` calls), with the
//! device's primary context current; `cudaGraphicsResource_t` is the driver's
//! `CUgraphicsResource`. What mapping means on each device is the driver's
//! (`cuda-driver/src/gl.rs`).

use std::ffi::{c_int, c_uint, c_void};

use super::api;
use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::error::CudaError;
use crate::runtime::runtime;

/// A resource count as the driver takes it.
fn count_of(count: c_int) -> RtResult<u32> {
    u32::try_from(count).map_err(|_| CudaError::INVALID_VALUE)
}

export! {
    fn cudaGraphicsGLRegisterBuffer(resource: *mut *mut c_void, buffer: c_uint, flags: c_uint) {
        // SAFETY: the driver checks the out-pointer and the GL object.
        unsafe { api()?.cuGraphicsGLRegisterBuffer(resource, buffer, flags) }
    }

    fn cudaGraphicsGLRegisterImage(resource: *mut *mut c_void, image: c_uint, target: c_uint, flags: c_uint) {
        // SAFETY: as above.
        unsafe { api()?.cuGraphicsGLRegisterImage(resource, image, target, flags) }
    }

    fn cudaGraphicsUnregisterResource(resource: *mut c_void) {
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuGraphicsUnregisterResource(resource) }
    }

    fn cudaGraphicsResourceSetMapFlags(resource: *mut c_void, flags: c_uint) {
        // SAFETY: the driver checks the handle and flags.
        unsafe { api()?.cuGraphicsResourceSetMapFlags(resource, flags) }
    }

    fn cudaGraphicsMapResources(count: c_int, resources: *mut *mut c_void, s: *mut c_void) {
        // SAFETY: the driver checks the array and the handles in it.
        unsafe { api()?.cuGraphicsMapResources(count_of(count)?, resources, stream(s, false)) }
    }

    fn cudaGraphicsUnmapResources(count: c_int, resources: *mut *mut c_void, s: *mut c_void) {
        // SAFETY: as above.
        unsafe { api()?.cuGraphicsUnmapResources(count_of(count)?, resources, stream(s, false)) }
    }

    fn cudaGraphicsResourceGetMappedPointer(ptr: *mut *mut c_void, size: *mut usize, resource: *mut c_void) {
        let out = Out::new(ptr)?;
        let mut dptr = 0;
        // SAFETY: a valid out-pointer; the driver checks `size` and the handle.
        unsafe { api()?.cuGraphicsResourceGetMappedPointer(&mut dptr, size, resource) }?;
        out.write(dptr as usize as *mut c_void);
        Ok(())
    }

    fn cudaGraphicsSubResourceGetMappedArray(array: *mut *mut c_void, resource: *mut c_void, index: c_uint, level: c_uint) {
        // SAFETY: the driver checks the out-pointer and the handle.
        unsafe { api()?.cuGraphicsSubResourceGetMappedArray(array, resource, index, level) }
    }

    fn cudaGraphicsResourceGetMappedMipmappedArray(mipmap: *mut *mut c_void, resource: *mut c_void) {
        // SAFETY: as above.
        unsafe { api()?.cuGraphicsResourceGetMappedMipmappedArray(mipmap, resource) }
    }

    fn cudaGLGetDevices(count: *mut c_uint, devices: *mut c_int, capacity: c_uint, list: c_uint) {
        // SAFETY: the driver checks the pointers against `capacity`; device ordinals are
        // the same in both APIs.
        unsafe { api()?.cuGLGetDevices(count, devices, capacity, list) }
    }

    /// Deprecated: "no longer necessary"; it makes `device` current, as `cudaSetDevice`.
    fn cudaGLSetGLDevice(device: c_int) {
        runtime()?.set_device(device)
    }

    fn cudaGLRegisterBufferObject(buffer: c_uint) {
        // SAFETY: the driver checks the GL object.
        unsafe { api()?.cuGLRegisterBufferObject(buffer) }
    }

    fn cudaGLUnregisterBufferObject(buffer: c_uint) {
        // SAFETY: as above.
        unsafe { api()?.cuGLUnregisterBufferObject(buffer) }
    }

    fn cudaGLMapBufferObject(ptr: *mut *mut c_void, buffer: c_uint) {
        map_buffer(ptr, buffer, None)
    }

    fn cudaGLMapBufferObjectAsync(ptr: *mut *mut c_void, buffer: c_uint, s: *mut c_void) {
        map_buffer(ptr, buffer, Some(stream(s, false)))
    }

    fn cudaGLUnmapBufferObject(buffer: c_uint) {
        // SAFETY: as above.
        unsafe { api()?.cuGLUnmapBufferObject(buffer) }
    }

    fn cudaGLUnmapBufferObjectAsync(buffer: c_uint, s: *mut c_void) {
        // SAFETY: as above; the driver checks the stream.
        unsafe { api()?.cuGLUnmapBufferObjectAsync(buffer, stream(s, false)) }
    }

    fn cudaGLSetBufferObjectMapFlags(buffer: c_uint, flags: c_uint) {
        // SAFETY: as above.
        unsafe { api()?.cuGLSetBufferObjectMapFlags(buffer, flags) }
    }
}

/// `cudaGLMapBufferObject(Async)`: the driver's call, without the size the runtime's
/// leaves out.
fn map_buffer(ptr: *mut *mut c_void, buffer: c_uint, on: Option<*mut c_void>) -> RtResult {
    // SAFETY: the caller's out-pointer.
    let out = unsafe { Out::new(ptr) }?;
    let (mut dptr, mut size) = (0, 0);
    let api = api()?;
    // SAFETY: valid out-pointers; the driver checks the GL object and the stream.
    unsafe {
        match on {
            Some(s) => api.cuGLMapBufferObjectAsync(&mut dptr, &mut size, buffer, s),
            None => api.cuGLMapBufferObject(&mut dptr, &mut size, buffer),
        }
    }?;
    out.write(dptr as usize as *mut c_void);
    Ok(())
}
