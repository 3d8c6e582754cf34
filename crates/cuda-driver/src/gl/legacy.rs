//! The deprecated OpenGL interop calls (CUDA Driver API, "OpenGL Interoperability
//! [DEPRECATED]"): `cuGLInit`, `cuGLCtxCreate_v2` and the `cuGL*BufferObject` family.
//! A buffer object registered here is a graphics resource of its own (as
//! `cuGraphicsGLRegisterBuffer` makes), named by the GL buffer name in the current CUDA
//! context, so mapping, flags and the copy semantics are the ones in [`super`].

use backend_api::DevicePtr;

use super::{Driver, GraphicsHandle};
use crate::diag::fail;
use crate::{CtxHandle, CuError, CuResult, StreamHandle};

impl Driver {
    /// `cuGLInit`: "calling it is no longer required"; GL is found per call. A process
    /// without an EGL or GLX library gets `CUDA_ERROR_OPERATING_SYSTEM`, as on an H200.
    pub fn gl_init(&self) -> CuResult<()> {
        if !super::ffi::library_loaded() {
            return Err(fail(CuError::OPERATING_SYSTEM, format_args!("cuGLInit: the process has loaded no EGL or GLX library")));
        }
        Ok(())
    }

    /// `cuGLCtxCreate_v2`: a context as `cuCtxCreate` makes ("It is no longer necessary
    /// to associate a CUDA context with an OpenGL context").
    pub fn gl_ctx_create(&self, flags: u32, device: i32) -> CuResult<CtxHandle> {
        self.ctx_create(flags, device)
    }

    /// The resource `cuGLRegisterBufferObject` made for `buffer` in the current context.
    fn find_buffer_object(&self, buffer: u32) -> CuResult<Option<GraphicsHandle>> {
        let ctx = self.current_context()?.handle;
        Ok(self.gl.legacy.lock().unwrap().iter().find(|&&(c, b, _)| c == ctx && b == buffer).map(|&(_, _, h)| h))
    }

    /// As [`Self::find_buffer_object`], `code` when the buffer is not registered.
    fn buffer_object(&self, buffer: u32, call: &str, code: CuError) -> CuResult<GraphicsHandle> {
        self.find_buffer_object(buffer)?.ok_or_else(|| fail(code, format_args!("{call}: GL buffer {buffer} is not registered in this context")))
    }

    /// `cuGLRegisterBufferObject`: registering a registered buffer again changes nothing,
    /// unless it is mapped (`CUDA_ERROR_ALREADY_MAPPED`, as the call documents).
    pub fn gl_register_buffer_object(&self, buffer: u32) -> CuResult<()> {
        const CALL: &str = "cuGLRegisterBufferObject";
        if let Some(h) = self.find_buffer_object(buffer)? {
            let r = self.graphics_resource(h, CALL)?;
            if r.state.lock().unwrap().mapping.is_some() {
                return Err(fail(CuError::ALREADY_MAPPED, format_args!("{CALL}: GL buffer {buffer} is mapped")));
            }
            return Ok(());
        }
        let h = self.graphics_gl_register_buffer(buffer, 0)?;
        let ctx = self.current_context()?.handle;
        self.gl.legacy.lock().unwrap().push((ctx, buffer, h));
        Ok(())
    }

    /// `cuGLMapBufferObject_v2` (on the default stream) / `cuGLMapBufferObjectAsync_v2`.
    pub fn gl_map_buffer_object(&self, buffer: u32, stream: StreamHandle) -> CuResult<(DevicePtr, usize)> {
        let h = self.buffer_object(buffer, "cuGLMapBufferObject", CuError::INVALID_VALUE)?;
        self.graphics_map_resources(&[h], stream)?;
        self.graphics_resource_get_mapped_pointer(h)
    }

    /// `cuGLUnmapBufferObject` (on the default stream) / `cuGLUnmapBufferObjectAsync`.
    pub fn gl_unmap_buffer_object(&self, buffer: u32, stream: StreamHandle) -> CuResult<()> {
        let h = self.buffer_object(buffer, "cuGLUnmapBufferObject", CuError::INVALID_VALUE)?;
        self.graphics_unmap_resources(&[h], stream)
    }

    /// `cuGLUnregisterBufferObject`.
    pub fn gl_unregister_buffer_object(&self, buffer: u32) -> CuResult<()> {
        let h = self.buffer_object(buffer, "cuGLUnregisterBufferObject", CuError::INVALID_VALUE)?;
        self.graphics_unregister_resource(h)
    }

    /// `cuGLSetBufferObjectMapFlags`: "If buffer has not been registered for use with
    /// CUDA, then CUDA_ERROR_INVALID_HANDLE is returned."
    pub fn gl_set_buffer_object_map_flags(&self, buffer: u32, flags: u32) -> CuResult<()> {
        let h = self.buffer_object(buffer, "cuGLSetBufferObjectMapFlags", CuError::INVALID_HANDLE)?;
        self.graphics_resource_set_map_flags(h, flags)
    }
}
