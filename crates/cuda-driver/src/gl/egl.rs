//! EGL interoperability (CUDA Driver API, "EGL Interoperability"):
//! `cuGraphicsEGLRegisterImage` and `cuGraphicsResourceGetMappedEglFrame`.
//!
//! An `EGLImageKHR` (`EGL_KHR_image_base`: made from a GL texture or renderbuffer, or any
//! other source the EGL implementation has) is read and written through GL: a texture of
//! the GL context current on the calling thread is bound to the image with
//! `glEGLImageTargetTexture2DOES` (`GL_OES_EGL_image`), which shares the image's texels,
//! and the texture is read with `glGetTexImage` and written with `glTexSubImage2D`
//! ([`super::ffi::Gl::with_egl_image`]). So these calls need an EGL context current on the
//! calling thread and a desktop OpenGL one (OpenGL ES has no `glGetTexImage`).
//!
//! The API makes a registered image accessible at once: "Additional Mapping/Unmapping is
//! not required for the registered resource and cuGraphicsResourceGetMappedEglFrame can
//! be directly called". NVIDIA's driver shares the image's memory; here the device's
//! memory is not GL's, so the resource holds a copy, a one-level CUDA array, from
//! registration to unregistration, and the texels move at these points only:
//! - registration reads the image into the copy (unless `WRITE_DISCARD`);
//! - `cuGraphicsMapResources` reads it again (unless `WRITE_DISCARD`), in stream order,
//!   and `cuGraphicsUnmapResources` writes the copy to the image (unless `READ_ONLY`);
//! - `cuGraphicsUnregisterResource` writes the copy to the image (unless `READ_ONLY`)
//!   if the resource is mapped, or was never mapped (a program written for NVIDIA's
//!   driver, where the image and CUDA share memory, never maps it).
//!
//! Changes GL makes between those points are not seen by CUDA, nor CUDA's by GL. An H200
//! (driver 580.159) answers `CUDA_ERROR_UNKNOWN` to mapping and unmapping a registered
//! EGL image; here they succeed, since they are the points where a copy can be brought
//! up to date.
//!
//! What an H200 (driver 580.159) answered, and these calls answer too: flags other than
//! NONE, READ_ONLY or WRITE_DISCARD are `CUDA_ERROR_INVALID_VALUE`; a NULL image (or, in a
//! process with no EGL library, any image) `CUDA_ERROR_UNKNOWN`; the frame of a `GL_RGBA8`
//! image is one plane, a CUDA array (`CU_EGL_FRAME_TYPE_ARRAY`) of UNSIGNED_INT8 x 4 with
//! `CU_EGL_COLOR_FORMAT_ABGR`, depth and pitch 0, and the array allows surface load/store
//! and texture gather; `GL_R8` is `CU_EGL_COLOR_FORMAT_Y` with one channel; two-channel
//! images are `CUDA_ERROR_NOT_SUPPORTED`; three-channel and sRGB ones
//! `CUDA_ERROR_INVALID_VALUE`; the frame's `index` and `mipLevel` are not checked; GL
//! buffers and textures have no EGL frame (`CUDA_ERROR_INVALID_VALUE`). Unlike NVIDIA's,
//! registration needs a current EGL context (`CUDA_ERROR_INVALID_GRAPHICS_CONTEXT`
//! without one). Mesa reads through the image handle: one that is not a live image of
//! the current display may crash the process (Mesa 22.3 does for small integers).
//!
//! The EGLStream calls (`cuEGLStream*`) answer `CUDA_ERROR_NOT_SUPPORTED`: EGL streams
//! (`EGL_KHR_stream` and NVIDIA's `EGL_NV_stream_*`) are implemented by NVIDIA's EGL
//! alone, so no EGL library this layer meets can make one.

use std::ffi::c_void;

use super::ffi::{self, Gl, GlFail};
use super::{current_gl, gl_error, texel_layout, Mapping, Object, TexelLayout, MAP_FLAGS_READ_ONLY, MAP_FLAGS_WRITE_DISCARD};
use crate::copy::On;
use crate::diag::fail;
use crate::handle::GraphicsHandle;
use crate::texture::{ArrayHandle, ARRAY3D_SURFACE_LDST, ARRAY3D_TEXTURE_GATHER};
use crate::{CuError, CuResult, Driver};

/// `CU_EGL_COLOR_FORMAT_*` values given here.
const COLOR_FORMAT_ABGR: u32 = 0x0E;
const COLOR_FORMAT_Y: u32 = 0x52;

/// A registered EGL image as `cuGraphicsResourceGetMappedEglFrame` describes it
/// (`CUeglFrame`): one plane, a CUDA array.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct EglFrame {
    pub array: ArrayHandle,
    pub width: u32,
    pub height: u32,
    pub num_channels: u32,
    /// `CUarray_format`.
    pub cu_format: u32,
    /// `CUeglColorFormat`.
    pub color_format: u32,
}

fn egl_error(call: &str, e: GlFail) -> CuError {
    match e {
        GlFail::NoLibrary => fail(CuError::UNKNOWN, format_args!("{call}: the process has loaded no EGL library, so it has no EGL image")),
        GlFail::NoContext => fail(CuError::INVALID_GRAPHICS_CONTEXT, format_args!("{call}: no EGL context is current on this thread")),
        GlFail::NotAnObject => fail(CuError::UNKNOWN, format_args!("{call}: GL does not accept the EGLImage (glEGLImageTargetTexture2DOES)")),
        e => gl_error(call, e),
    }
}

/// The `CUeglColorFormat` of a texel layout, or the code an H200 answers for the image.
fn color_format(layout: TexelLayout) -> Result<u32, CuError> {
    match layout.channels {
        1 => Ok(COLOR_FORMAT_Y),
        4 => Ok(COLOR_FORMAT_ABGR),
        _ => Err(CuError::NOT_SUPPORTED),
    }
}

impl Driver {
    /// `cuGraphicsEGLRegisterImage`: `image` (an `EGLImageKHR`) of the current EGL
    /// display, copied into a new CUDA array unless `flags` says `WRITE_DISCARD`.
    pub fn graphics_egl_register_image(&self, image: *mut c_void, flags: u32) -> CuResult<GraphicsHandle> {
        const CALL: &str = "cuGraphicsEGLRegisterImage";
        self.current_context()?;
        if flags & !(MAP_FLAGS_READ_ONLY | MAP_FLAGS_WRITE_DISCARD) != 0 || flags == MAP_FLAGS_READ_ONLY | MAP_FLAGS_WRITE_DISCARD {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: flags {flags:#x}")));
        }
        if image.is_null() {
            return Err(fail(CuError::UNKNOWN, format_args!("{CALL}: EGL_NO_IMAGE_KHR")));
        }
        ffi::egl_context_current().map_err(|e| egl_error(CALL, e))?;
        let gl = current_gl(CALL)?;
        if gl.es {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("{CALL}: OpenGL ES contexts cannot read textures back (no glGetTexImage)")));
        }
        let info = gl.with_egl_image(image, |name| gl.texture_info(name)).map_err(|e| egl_error(CALL, e))?;
        let Some(layout) = texel_layout(info.internal_format) else {
            return Err(fail(
                CuError::INVALID_VALUE,
                format_args!("{CALL}: the image's internal format {:#x} is not one mapped here", info.internal_format),
            ));
        };
        let color_format = color_format(layout)
            .map_err(|code| fail(code, format_args!("{CALL}: {}-channel images have no EGL color format here", layout.channels)))?;
        if info.width == 0 || info.height == 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: the image has no texels ({info:?})")));
        }
        // As an H200's array for an image: usable as a surface and for gather.
        let m = self.array_mapping(info, layout, ARRAY3D_SURFACE_LDST | ARRAY3D_TEXTURE_GATHER)?;
        let Mapping::Array { mipmap, .. } = m else { unreachable!("an array mapping") };
        if flags & MAP_FLAGS_WRITE_DISCARD == 0 {
            if let Err(e) = self.egl_read_image(&gl, image as usize, layout, m, On::Blocking(crate::StreamHandle::LEGACY), CALL) {
                let _ = self.mipmapped_array_destroy(mipmap);
                return Err(e);
            }
        }
        self.register(Object::EglImage { image: image as usize, layout, color_format }, flags, Some(m)).inspect_err(|_| {
            let _ = self.mipmapped_array_destroy(mipmap);
        })
    }

    /// Reads EGL image `image` into its copy `m` (the array made at registration), the
    /// copy ordered as `on` says.
    pub(super) fn egl_read_image(&self, gl: &Gl, image: usize, layout: TexelLayout, m: Mapping, on: On, call: &str) -> CuResult<()> {
        let Mapping::Array { level0, info, .. } = m else { unreachable!("EGL images map as arrays") };
        let size = info.width * info.height * layout.bytes;
        let mut data = vec![0u8; size];
        gl.with_egl_image(image as *mut c_void, |name| {
            let now = gl.texture_info(name)?;
            if now != info {
                // The image's size or format cannot change (EGL_KHR_image_base), but a
                // stale handle's might: nothing is copied then.
                return Err(GlFail::NotAnObject);
            }
            gl.read_texture(name, layout.gl_format, layout.gl_type, &mut data)
        })
        .map_err(|e| egl_error(call, e))?;
        let base = self.array(level0)?.base;
        // SAFETY: `data` holds `size` bytes, the array's rows of `width * texel` bytes as
        // GL packed them; pageable memory makes the copy complete before the call returns.
        unsafe { self.memcpy_htod_on(base, data.as_ptr().cast(), size, on) }
    }

    /// `cuGraphicsResourceGetMappedEglFrame`: the array of a registered EGL image, mapped
    /// or not. `index` and `mip_level` are not checked (an H200 answers so).
    pub fn graphics_resource_get_mapped_egl_frame(&self, h: GraphicsHandle, index: u32, mip_level: u32) -> CuResult<EglFrame> {
        const CALL: &str = "cuGraphicsResourceGetMappedEglFrame";
        let _ = (index, mip_level);
        self.current_context()?;
        let r = self.graphics_resource(h, CALL)?;
        let Object::EglImage { layout, color_format, .. } = r.object else {
            // What an H200 (driver 580.159) answers for GL buffers and textures, mapped or not.
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: CUgraphicsResource {:#x} is not an EGL image", h.0)));
        };
        let mapping = r.state.lock().unwrap().mapping;
        let Some(Mapping::Array { level0, info, .. }) = mapping else {
            return Err(fail(CuError::NOT_MAPPED, format_args!("{CALL}: CUgraphicsResource {:#x} has no copy", h.0)));
        };
        Ok(EglFrame {
            array: level0,
            width: info.width as u32,
            height: info.height as u32,
            num_channels: layout.channels,
            cu_format: layout.cu_format,
            color_format,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn color_formats_follow_the_channel_count() {
        let rgba8 = texel_layout(0x8058).unwrap();
        let r8 = texel_layout(0x8229).unwrap();
        let rg8 = texel_layout(0x822B).unwrap();
        let rgba16f = texel_layout(0x881A).unwrap();
        assert_eq!(color_format(rgba8), Ok(COLOR_FORMAT_ABGR));
        assert_eq!(color_format(rgba16f), Ok(COLOR_FORMAT_ABGR));
        assert_eq!(color_format(r8), Ok(COLOR_FORMAT_Y));
        assert_eq!(color_format(rg8), Err(CuError::NOT_SUPPORTED));
    }
}
