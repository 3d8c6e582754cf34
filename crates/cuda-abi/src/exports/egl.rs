//! EGL interoperability (CUDA Driver API, "EGL Interoperability"): registering an EGL
//! image and reading its frame. Semantics in `cuda_driver::gl` (module `egl`);
//! declarations in `include/cudaEGL.h`. The EGLStream calls stay generated stubs
//! (`CUDA_ERROR_NOT_SUPPORTED`): EGL streams are an extension of NVIDIA's EGL alone.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::gl::EglFrame;
use cuda_driver::handle::GraphicsHandle;

use super::drv;
use crate::boundary::{export, Out};

/// `CUgraphicsResource` (an opaque pointer in C).
type CUgraphicsResource = *mut c_void;

/// `CUeglFrame` (`CUeglFrame_v1`): a union of three `CUarray` or three pitched pointers,
/// then the first plane's extent and the frame's formats.
#[repr(C)]
pub struct CUeglFrame {
    /// `frame.pArray` or `frame.pPitch`: the planes.
    pub frame: [*mut c_void; 3],
    pub width: c_uint,
    pub height: c_uint,
    pub depth: c_uint,
    pub pitch: c_uint,
    pub plane_count: c_uint,
    pub num_channels: c_uint,
    /// `CUeglFrameType`: `CU_EGL_FRAME_TYPE_ARRAY` (0) or `_PITCH` (1).
    pub frame_type: c_int,
    /// `CUeglColorFormat`.
    pub egl_color_format: c_int,
    /// `CUarray_format`.
    pub cu_format: c_int,
}

const _: () = assert!(std::mem::size_of::<CUeglFrame>() == 64);

/// `CU_EGL_FRAME_TYPE_ARRAY`.
const FRAME_TYPE_ARRAY: c_int = 0;

fn frame_of(f: EglFrame) -> CUeglFrame {
    CUeglFrame {
        frame: [f.array.0 as usize as *mut c_void, std::ptr::null_mut(), std::ptr::null_mut()],
        width: f.width,
        height: f.height,
        // A 2D image: depth and pitch 0, as NVIDIA's driver reports an array frame.
        depth: 0,
        pitch: 0,
        plane_count: 1,
        num_channels: f.num_channels,
        frame_type: FRAME_TYPE_ARRAY,
        egl_color_format: f.color_format as c_int,
        cu_format: f.cu_format as c_int,
    }
}

export! {
    /// `cuGraphicsEGLRegisterImage(CUgraphicsResource*, EGLImageKHR image, unsigned int flags)`.
    fn cuGraphicsEGLRegisterImage(p_resource: *mut CUgraphicsResource, image: *mut c_void, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_resource)? };
        out.write(drv()?.graphics_egl_register_image(image, flags)?.as_raw());
        Ok(())
    }

    /// `cuGraphicsResourceGetMappedEglFrame(CUeglFrame*, CUgraphicsResource, unsigned int index, unsigned int mipLevel)`.
    fn cuGraphicsResourceGetMappedEglFrame(egl_frame: *mut CUeglFrame, resource: CUgraphicsResource, index: c_uint, mip_level: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(egl_frame)? };
        out.write(frame_of(drv()?.graphics_resource_get_mapped_egl_frame(GraphicsHandle::from_raw(resource), index, mip_level)?));
        Ok(())
    }
}
