//! OpenGL interoperability (CUDA Driver API, "OpenGL Interoperability" and "Graphics
//! Interoperability"): `cuGraphicsGLRegisterBuffer`, `cuGraphicsGLRegisterImage`,
//! `cuGraphicsMapResources`, `cuGraphicsUnmapResources`, the mapped-resource getters,
//! `cuGraphicsResourceSetMapFlags`, `cuGraphicsUnregisterResource`, `cuGLGetDevices` and
//! the deprecated `cuGL*BufferObject` calls.
//!
//! The device's memory is not GL's, so a mapping is a copy, which the API allows: "The
//! resources in resources may be accessed by CUDA until they are unmapped", and the value
//! `cuGraphicsResourceGetMappedPointer` gives "may change every time that resource is
//! mapped". Registering records the GL object (checked in the GL context current on the
//! calling thread, [`ffi`]); mapping reads the object's contents through GL into a new
//! device allocation (a buffer) or a one-level mipmapped array (a `GL_TEXTURE_2D`), unless
//! the flags say `WRITE_DISCARD`; unmapping writes them back through GL, unless
//! `READ_ONLY`, and frees the copy. GL calls run inside the API call, on the thread whose
//! GL context is current. Stream order comes from the copies: the copy into the
//! allocation is queued after the stream's earlier work, and the copy out waits for it
//! (pageable host memory makes both complete before the call returns), which gives the
//! documented guarantees of map ("graphics calls issued before ... will complete before
//! any subsequent CUDA work issued in stream begins") and unmap ("any CUDA work issued in
//! stream before ... will complete before any subsequently issued graphics work begins").
//!
//! Calls that need a GL context answer `CUDA_ERROR_OPERATING_SYSTEM` when the process has
//! loaded no EGL or GLX library (what an H200's driver 580.159 answered there, `cuGLInit`
//! included), and `CUDA_ERROR_INVALID_GRAPHICS_CONTEXT` when one is loaded but no context
//! is current on the calling thread.
//!
//! EGL images (`cuGraphicsEGLRegisterImage`) are resources of the same kind, read and
//! written through GL too; [`egl`] says how their copy differs (it lives from registration
//! to unregistration).

mod egl;
mod ffi;
mod legacy;

use std::collections::HashSet;
use std::sync::{Arc, Mutex};

use backend_api::DevicePtr;

use crate::copy::On;
use crate::diag::fail;
use crate::handle::{GraphicsHandle, HandleTable};
use crate::texture::mipmap::MipmapHandle;
use crate::texture::{Array3dDescriptor, ArrayHandle};
use crate::{CtxHandle, CuError, CuResult, Driver, StreamHandle};

pub use egl::EglFrame;
use ffi::{Gl, GlFail, TextureInfo};

/// `CU_GRAPHICS_REGISTER_FLAGS_*`.
pub const REGISTER_FLAGS_READ_ONLY: u32 = 0x01;
pub const REGISTER_FLAGS_WRITE_DISCARD: u32 = 0x02;
const REGISTER_FLAGS_ALL: u32 = 0x0F;
/// `CU_GRAPHICS_MAP_RESOURCE_FLAGS_*` (`CU_GL_MAP_RESOURCE_FLAGS_*` are the same values).
pub const MAP_FLAGS_READ_ONLY: u32 = 0x01;
pub const MAP_FLAGS_WRITE_DISCARD: u32 = 0x02;

/// GL targets `cuGraphicsGLRegisterImage` documents; only `GL_TEXTURE_2D` is mapped here.
const GL_TEXTURE_RECTANGLE: u32 = 0x84F5;
const GL_TEXTURE_CUBE_MAP: u32 = 0x8513;
const GL_TEXTURE_3D: u32 = 0x806F;
const GL_TEXTURE_2D_ARRAY: u32 = 0x8C1A;
const GL_RENDERBUFFER: u32 = 0x8D41;

/// `CUGLDeviceList`: `CU_GL_DEVICE_LIST_ALL` .. `CU_GL_DEVICE_LIST_NEXT_FRAME`.
const DEVICE_LIST_ALL: u32 = 1;
const DEVICE_LIST_NEXT_FRAME: u32 = 3;

/// How a GL internal format is read and written, and the CUDA array it maps to.
#[derive(Clone, Copy, Debug)]
struct TexelLayout {
    /// `CUarray_format`.
    cu_format: u32,
    channels: u32,
    /// GL's pixel format and type for `glGetTexImage` / `glTexSubImage2D`.
    gl_format: u32,
    gl_type: u32,
    bytes: usize,
}

/// The formats "OpenGL Interoperability" lists for `cuGraphicsGLRegisterImage`, in their
/// sized core-profile forms: {R, RG, RGBA} x {8, 16, 16F, 32F, 8UI, 16UI, 32UI, 8I, 16I,
/// 32I}, and unsized `GL_RED`/`GL_RG`/`GL_RGBA` (8-bit). Values: OpenGL 4.6, table 8.12.
fn texel_layout(internal_format: u32) -> Option<TexelLayout> {
    // (sized formats for 1, 2, 4 channels, CUarray_format, GL type, bytes per channel, integer)
    const FAMILIES: [([u32; 3], u32, u32, usize, bool); 10] = [
        ([0x8229, 0x822B, 0x8058], 0x01, 0x1401, 1, false), // R8 RG8 RGBA8: UNSIGNED_INT8, GL_UNSIGNED_BYTE
        ([0x822A, 0x822C, 0x805B], 0x02, 0x1403, 2, false), // R16 RG16 RGBA16: UNSIGNED_INT16, GL_UNSIGNED_SHORT
        ([0x822D, 0x822F, 0x881A], 0x10, 0x140B, 2, false), // R16F RG16F RGBA16F: HALF, GL_HALF_FLOAT
        ([0x822E, 0x8230, 0x8814], 0x20, 0x1406, 4, false), // R32F RG32F RGBA32F: FLOAT, GL_FLOAT
        ([0x8232, 0x8238, 0x8D7C], 0x01, 0x1401, 1, true),  // R8UI RG8UI RGBA8UI
        ([0x8234, 0x823A, 0x8D76], 0x02, 0x1403, 2, true),  // R16UI RG16UI RGBA16UI
        ([0x8236, 0x823C, 0x8D70], 0x03, 0x1405, 4, true),  // R32UI RG32UI RGBA32UI: UNSIGNED_INT32, GL_UNSIGNED_INT
        ([0x8231, 0x8237, 0x8D8E], 0x08, 0x1400, 1, true),  // R8I RG8I RGBA8I: SIGNED_INT8, GL_BYTE
        ([0x8233, 0x8239, 0x8D88], 0x09, 0x1402, 2, true),  // R16I RG16I RGBA16I: SIGNED_INT16, GL_SHORT
        ([0x8235, 0x823B, 0x8D82], 0x0A, 0x1404, 4, true),  // R32I RG32I RGBA32I: SIGNED_INT32, GL_INT
    ];
    // GL_RED, GL_RG, GL_RGBA and their _INTEGER forms.
    const GL_FORMATS: [u32; 3] = [0x1903, 0x8227, 0x1908];
    const GL_INTEGER_FORMATS: [u32; 3] = [0x8D94, 0x8228, 0x8D99];
    const CHANNELS: [u32; 3] = [1, 2, 4];
    let base = GL_FORMATS.iter().position(|&f| f == internal_format);
    if let Some(i) = base {
        return Some(TexelLayout { cu_format: 0x01, channels: CHANNELS[i], gl_format: GL_FORMATS[i], gl_type: 0x1401, bytes: CHANNELS[i] as usize });
    }
    FAMILIES.iter().find_map(|&(sized, cu_format, gl_type, size, integer)| {
        let i = sized.iter().position(|&f| f == internal_format)?;
        let gl_format = if integer { GL_INTEGER_FORMATS[i] } else { GL_FORMATS[i] };
        Some(TexelLayout { cu_format, channels: CHANNELS[i], gl_format, gl_type, bytes: size * CHANNELS[i] as usize })
    })
}

/// The GL object a resource stands for.
#[derive(Clone, Copy, Debug)]
enum Object {
    Buffer(u32),
    Texture2d {
        name: u32,
        layout: TexelLayout,
    },
    /// An `EGLImageKHR` (its address), read and written through a GL texture bound to it.
    EglImage {
        image: usize,
        layout: TexelLayout,
        color_format: u32,
    },
}

impl Object {
    fn is_egl(&self) -> bool {
        matches!(self, Object::EglImage { .. })
    }
}

/// CUDA's copy of a mapped resource.
#[derive(Clone, Copy, Debug)]
enum Mapping {
    Pointer { ptr: DevicePtr, size: usize },
    Array { mipmap: MipmapHandle, level0: ArrayHandle, info: TextureInfo },
}

/// A registered graphics resource (`CUgraphicsResource`).
pub struct Resource {
    object: Object,
    register_flags: u32,
    state: Mutex<ResourceState>,
}

#[derive(Default)]
struct ResourceState {
    map_flags: u32,
    /// Between `cuGraphicsMapResources` and `cuGraphicsUnmapResources`.
    mapped: bool,
    /// CUDA's copy: while mapped for GL objects, from registration on for EGL images.
    mapping: Option<Mapping>,
    /// Whether an EGL image was ever mapped (then only unmapping writes it back).
    ever_mapped: bool,
}

/// Every registered resource, and the deprecated API's buffer registrations.
#[derive(Default)]
pub(crate) struct State {
    resources: HandleTable<Resource, GraphicsHandle>,
    /// `cuGLRegisterBufferObject`: (context, GL buffer name) -> its resource.
    legacy: Mutex<Vec<(CtxHandle, u32, GraphicsHandle)>>,
    /// Held by each map, unmap and unregister from its checks to its last state change, so
    /// that two threads cannot both map (or unmap) one resource.
    transitions: Mutex<()>,
}

fn gl_error(call: &str, e: GlFail) -> CuError {
    match e {
        GlFail::NoLibrary => fail(CuError::OPERATING_SYSTEM, format_args!("{call}: the process has loaded no EGL or GLX library")),
        GlFail::NoContext => fail(CuError::INVALID_GRAPHICS_CONTEXT, format_args!("{call}: no OpenGL context is current on this thread")),
        GlFail::NotAnObject => fail(CuError::INVALID_VALUE, format_args!("{call}: not a GL object of the current context")),
        GlFail::Missing(f) => fail(CuError::NOT_SUPPORTED, format_args!("{call}: the current GL context has no {f}")),
        GlFail::Error(code) => fail(CuError::UNKNOWN, format_args!("{call}: GL error {code:#x}")),
    }
}

fn current_gl(call: &str) -> CuResult<Gl> {
    Gl::current().map_err(|e| gl_error(call, e))
}

impl Driver {
    fn graphics_resource(&self, h: GraphicsHandle, call: &str) -> CuResult<Arc<Resource>> {
        self.gl.resources.get(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("{call}: CUgraphicsResource {:#x}: {why:?}", h.0)))
    }

    /// A new resource for `object`, holding CUDA's copy `mapping` from the start (EGL images).
    fn register(&self, object: Object, flags: u32, mapping: Option<Mapping>) -> CuResult<GraphicsHandle> {
        self.current_context()?;
        let state = Mutex::new(ResourceState { mapping, ..ResourceState::default() });
        Ok(self.gl.resources.insert(Arc::new(Resource { object, register_flags: flags, state })))
    }

    /// `cuGraphicsGLRegisterBuffer`: buffer `buffer` of the current GL context.
    pub fn graphics_gl_register_buffer(&self, buffer: u32, flags: u32) -> CuResult<GraphicsHandle> {
        const CALL: &str = "cuGraphicsGLRegisterBuffer";
        self.current_context()?;
        let gl = current_gl(CALL)?;
        if flags & !(REGISTER_FLAGS_READ_ONLY | REGISTER_FLAGS_WRITE_DISCARD) != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: flags {flags:#x}")));
        }
        gl.buffer_size(buffer).map_err(|e| gl_error(CALL, e))?;
        self.register(Object::Buffer(buffer), flags, None)
    }

    /// `cuGraphicsGLRegisterImage`: `GL_TEXTURE_2D` textures of the formats
    /// [`texel_layout`] knows; the other documented targets are `CUDA_ERROR_NOT_SUPPORTED`.
    pub fn graphics_gl_register_image(&self, image: u32, target: u32, flags: u32) -> CuResult<GraphicsHandle> {
        const CALL: &str = "cuGraphicsGLRegisterImage";
        self.current_context()?;
        let gl = current_gl(CALL)?;
        if flags & !REGISTER_FLAGS_ALL != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: flags {flags:#x}")));
        }
        match target {
            ffi::GL_TEXTURE_2D => {}
            GL_TEXTURE_RECTANGLE | GL_TEXTURE_CUBE_MAP | GL_TEXTURE_3D | GL_TEXTURE_2D_ARRAY | GL_RENDERBUFFER => {
                return Err(fail(CuError::NOT_SUPPORTED, format_args!("{CALL}: target {target:#x}: only GL_TEXTURE_2D is mapped here")))
            }
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: target {target:#x}"))),
        }
        if gl.es {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("{CALL}: OpenGL ES contexts cannot read textures back (no glGetTexImage)")));
        }
        let info = gl.texture_info(image).map_err(|e| gl_error(CALL, e))?;
        let layout = texel_layout(info.internal_format).ok_or_else(|| {
            fail(CuError::NOT_SUPPORTED, format_args!("{CALL}: texture {image}: internal format {:#x} is not one mapped here", info.internal_format))
        })?;
        self.register(Object::Texture2d { name: image, layout }, flags, None)
    }

    /// `cuGraphicsUnregisterResource`. A mapped resource is unmapped first (the API
    /// documents no error for it): its contents go back to GL as `cuGraphicsUnmapResources`
    /// would write them when a GL context is current, and are dropped otherwise.
    pub fn graphics_unregister_resource(&self, h: GraphicsHandle) -> CuResult<()> {
        const CALL: &str = "cuGraphicsUnregisterResource";
        let r = self.graphics_resource(h, CALL)?;
        let _transition = self.gl.transitions.lock().unwrap();
        let (mapping, write) = {
            let mut state = r.state.lock().unwrap();
            // An EGL image nobody mapped relies on registration alone ([`egl`]): its copy
            // goes back now.
            let write = state.mapped || (r.object.is_egl() && !state.ever_mapped);
            (state.mapping.take(), write)
        };
        let result = match mapping {
            Some(m) => {
                let written = match Gl::current() {
                    Ok(gl) if write => self.write_back(&gl, &r, m, StreamHandle::LEGACY, CALL),
                    _ => Ok(()),
                };
                self.free_mapping(m).and(written)
            }
            None => Ok(()),
        };
        self.gl.legacy.lock().unwrap().retain(|&(_, _, lh)| lh != h);
        self.gl.resources.remove(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("{CALL}: {why:?}")))?;
        result
    }

    /// `cuGraphicsResourceSetMapFlags_v2`: takes effect at the next map.
    pub fn graphics_resource_set_map_flags(&self, h: GraphicsHandle, flags: u32) -> CuResult<()> {
        const CALL: &str = "cuGraphicsResourceSetMapFlags";
        let r = self.graphics_resource(h, CALL)?;
        if flags > MAP_FLAGS_WRITE_DISCARD {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: flags {flags:#x}")));
        }
        let mut state = r.state.lock().unwrap();
        if state.mapped {
            return Err(fail(CuError::ALREADY_MAPPED, format_args!("{CALL}: the resource is mapped")));
        }
        state.map_flags = flags;
        Ok(())
    }

    /// The resources of a map/unmap call: each valid, none twice ("If resources includes
    /// any duplicate entries then CUDA_ERROR_INVALID_HANDLE is returned").
    fn resources_of(&self, handles: &[GraphicsHandle], call: &str) -> CuResult<Vec<(GraphicsHandle, Arc<Resource>)>> {
        self.current_context()?;
        let mut seen = HashSet::new();
        handles
            .iter()
            .map(|&h| {
                if !seen.insert(h) {
                    return Err(fail(CuError::INVALID_HANDLE, format_args!("{call}: CUgraphicsResource {:#x} appears twice", h.0)));
                }
                Ok((h, self.graphics_resource(h, call)?))
            })
            .collect()
    }

    /// `cuGraphicsMapResources`: copies each resource's GL contents to the device, in
    /// `stream`'s order. All or nothing: on a failure the resources mapped so far are
    /// released again.
    pub fn graphics_map_resources(&self, handles: &[GraphicsHandle], stream: StreamHandle) -> CuResult<()> {
        const CALL: &str = "cuGraphicsMapResources";
        if handles.is_empty() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: no resources")));
        }
        let resources = self.resources_of(handles, CALL)?;
        self.stream_context(stream)?;
        let _transition = self.gl.transitions.lock().unwrap();
        if let Some((h, _)) = resources.iter().find(|(_, r)| r.state.lock().unwrap().mapped) {
            return Err(fail(CuError::ALREADY_MAPPED, format_args!("{CALL}: CUgraphicsResource {:#x} is mapped", h.0)));
        }
        let gl = current_gl(CALL)?;
        let mut done: Vec<(&Arc<Resource>, Mapping)> = Vec::new();
        for (_, r) in &resources {
            match self.map_one(&gl, r, stream) {
                Ok(m) => done.push((r, m)),
                Err(e) => {
                    // EGL images keep their copy (it outlives the map).
                    for (r, m) in done {
                        if !r.object.is_egl() {
                            let _ = self.free_mapping(m);
                        }
                    }
                    return Err(e);
                }
            }
        }
        for (r, m) in done {
            let mut state = r.state.lock().unwrap();
            state.mapping = Some(m);
            state.mapped = true;
            state.ever_mapped = true;
        }
        Ok(())
    }

    fn map_one(&self, gl: &Gl, r: &Resource, stream: StreamHandle) -> CuResult<Mapping> {
        const CALL: &str = "cuGraphicsMapResources";
        let (flags, mapping) = {
            let state = r.state.lock().unwrap();
            (r.register_flags | state.map_flags, state.mapping)
        };
        let read = flags & MAP_FLAGS_WRITE_DISCARD == 0;
        match r.object {
            Object::EglImage { image, layout, .. } => {
                let m = mapping.ok_or_else(|| fail(CuError::NOT_MAPPED, format_args!("{CALL}: the EGL image has no copy")))?;
                if read {
                    self.egl_read_image(gl, image, layout, m, On::Async(stream), CALL)?;
                }
                Ok(m)
            }
            Object::Buffer(name) => {
                let size = gl.buffer_size(name).map_err(|e| gl_error(CALL, e))?;
                if size == 0 {
                    return Err(fail(CuError::MAP_FAILED, format_args!("{CALL}: GL buffer {name} has no data store")));
                }
                let mut data = vec![0u8; size];
                if read {
                    gl.read_buffer(name, &mut data).map_err(|e| gl_error(CALL, e))?;
                }
                let ptr = self.mem_alloc(size)?;
                let m = Mapping::Pointer { ptr, size };
                if read {
                    // SAFETY: `data` holds `size` bytes; pageable memory makes the copy complete before the call returns.
                    if let Err(e) = unsafe { self.memcpy_htod_on(ptr, data.as_ptr().cast(), size, On::Async(stream)) } {
                        let _ = self.free_mapping(m);
                        return Err(e);
                    }
                }
                Ok(m)
            }
            Object::Texture2d { name, layout } => {
                let info = gl.texture_info(name).map_err(|e| gl_error(CALL, e))?;
                if texel_layout(info.internal_format).is_none_or(|l| l.cu_format != layout.cu_format || l.channels != layout.channels)
                    || info.width == 0
                    || info.height == 0
                {
                    return Err(fail(CuError::MAP_FAILED, format_args!("{CALL}: texture {name} changed format or has no level 0 ({info:?})")));
                }
                let size = info.width * info.height * layout.bytes;
                let mut data = vec![0u8; size];
                if read {
                    gl.read_texture(name, layout.gl_format, layout.gl_type, &mut data).map_err(|e| gl_error(CALL, e))?;
                }
                let m = self.array_mapping(info, layout, surface_flags(r.register_flags))?;
                let Mapping::Array { level0, .. } = m else { unreachable!("an array mapping") };
                if read {
                    let base = self.array(level0)?.base;
                    // SAFETY: as for buffers; the array's rows are `width * texel` bytes, as GL packed them.
                    if let Err(e) = unsafe { self.memcpy_htod_on(base, data.as_ptr().cast(), size, On::Async(stream)) } {
                        let _ = self.free_mapping(m);
                        return Err(e);
                    }
                }
                Ok(m)
            }
        }
    }

    /// A one-level mipmapped array the shape and format of a GL texture or EGL image:
    /// a mapping's copy of it.
    fn array_mapping(&self, info: TextureInfo, layout: TexelLayout, flags: u32) -> CuResult<Mapping> {
        let d =
            Array3dDescriptor { width: info.width, height: info.height, depth: 0, format: layout.cu_format, num_channels: layout.channels, flags };
        let mipmap = self.mipmapped_array_create(&d, 1)?;
        match self.mipmapped_array_get_level(mipmap, 0) {
            Ok(level0) => Ok(Mapping::Array { mipmap, level0, info }),
            Err(e) => {
                let _ = self.mipmapped_array_destroy(mipmap);
                Err(e)
            }
        }
    }

    fn free_mapping(&self, m: Mapping) -> CuResult<()> {
        match m {
            Mapping::Pointer { ptr, .. } => self.mem_free(ptr),
            Mapping::Array { mipmap, .. } => self.mipmapped_array_destroy(mipmap),
        }
    }

    /// Copies a mapping back into its GL object after `stream`'s earlier work, unless the
    /// flags say CUDA did not write it.
    fn write_back(&self, gl: &Gl, r: &Resource, m: Mapping, stream: StreamHandle, call: &str) -> CuResult<()> {
        let flags = r.register_flags | r.state.lock().unwrap().map_flags;
        if flags & MAP_FLAGS_READ_ONLY != 0 {
            return Ok(());
        }
        let (src, size) = match (m, r.object) {
            (Mapping::Pointer { ptr, size }, _) => (ptr, size),
            (Mapping::Array { level0, info, .. }, Object::Texture2d { layout, .. } | Object::EglImage { layout, .. }) => {
                (self.array(level0)?.base, info.width * info.height * layout.bytes)
            }
            (Mapping::Array { .. }, Object::Buffer(_)) => unreachable!("buffers map as pointers"),
        };
        let mut data = vec![0u8; size];
        // SAFETY: `data` holds `size` bytes; the copy waits for the stream's earlier work.
        unsafe { self.memcpy_dtoh_on(data.as_mut_ptr().cast(), src, size, On::Async(stream)) }?;
        let written = match (r.object, m) {
            (Object::Buffer(name), _) => gl.write_buffer(name, &data),
            (Object::Texture2d { name, layout }, Mapping::Array { info, .. }) => {
                gl.write_texture(name, info, layout.gl_format, layout.gl_type, &data)
            }
            (Object::EglImage { image, layout, .. }, Mapping::Array { info, .. }) => {
                let written =
                    gl.with_egl_image(image as *mut std::ffi::c_void, |name| gl.write_texture(name, info, layout.gl_format, layout.gl_type, &data));
                // Other contexts and APIs sharing the image see the texels once GL has
                // written them ("The application will be also responsible for ensuring
                // that any pending operation on the registered CUDA resource has
                // completed": CUDA's side of it is complete when the call returns).
                gl.finish();
                written
            }
            (Object::Texture2d { .. } | Object::EglImage { .. }, Mapping::Pointer { .. }) => unreachable!("textures map as arrays"),
        };
        written.map_err(|e| match e {
            GlFail::Error(code) => fail(CuError::UNMAP_FAILED, format_args!("{call}: GL error {code:#x} writing the object back")),
            e => gl_error(call, e),
        })
    }

    /// `cuGraphicsUnmapResources`: writes each resource back to GL after `stream`'s
    /// earlier work and frees CUDA's copy.
    pub fn graphics_unmap_resources(&self, handles: &[GraphicsHandle], stream: StreamHandle) -> CuResult<()> {
        const CALL: &str = "cuGraphicsUnmapResources";
        let resources = self.resources_of(handles, CALL)?;
        self.stream_context(stream)?;
        let _transition = self.gl.transitions.lock().unwrap();
        if let Some((h, _)) = resources.iter().find(|(_, r)| !r.state.lock().unwrap().mapped) {
            return Err(fail(CuError::NOT_MAPPED, format_args!("{CALL}: CUgraphicsResource {:#x} is not mapped", h.0)));
        }
        let gl = current_gl(CALL)?;
        let mut result = Ok(());
        for (_, r) in &resources {
            let mapping = {
                let mut state = r.state.lock().unwrap();
                state.mapped = false;
                // An EGL image's copy stays until unregistration.
                if r.object.is_egl() {
                    state.mapping
                } else {
                    state.mapping.take()
                }
            };
            let Some(m) = mapping else { continue };
            let written = self.write_back(&gl, r, m, stream, CALL);
            result = result.and(written);
            if !r.object.is_egl() {
                result = result.and(self.free_mapping(m));
            }
        }
        result
    }

    /// The copy CUDA may access now: a mapped GL object's, or an EGL image's from
    /// registration on ("Additional Mapping/Unmapping is not required for the registered
    /// resource", `cuGraphicsEGLRegisterImage`).
    fn mapping_of(&self, h: GraphicsHandle, call: &str) -> CuResult<Mapping> {
        let r = self.graphics_resource(h, call)?;
        let mapping = r.state.lock().unwrap().mapping;
        mapping.ok_or_else(|| fail(CuError::NOT_MAPPED, format_args!("{call}: CUgraphicsResource {:#x} is not mapped", h.0)))
    }

    /// `cuGraphicsResourceGetMappedPointer_v2`: a mapped buffer's device pointer and size.
    pub fn graphics_resource_get_mapped_pointer(&self, h: GraphicsHandle) -> CuResult<(DevicePtr, usize)> {
        const CALL: &str = "cuGraphicsResourceGetMappedPointer";
        self.current_context()?;
        match self.mapping_of(h, CALL)? {
            Mapping::Pointer { ptr, size } => Ok((ptr, size)),
            Mapping::Array { .. } => Err(fail(CuError::NOT_MAPPED_AS_POINTER, format_args!("{CALL}: the resource is a texture"))),
        }
    }

    /// `cuGraphicsSubResourceGetMappedArray`: layer 0, level 0 of a mapped 2D texture. An
    /// EGL image is one 2D level, given whatever the index and level (an H200 with driver
    /// 580.159 answers so for 1 and 6 too).
    pub fn graphics_sub_resource_get_mapped_array(&self, h: GraphicsHandle, array_index: u32, mip_level: u32) -> CuResult<ArrayHandle> {
        const CALL: &str = "cuGraphicsSubResourceGetMappedArray";
        self.current_context()?;
        if self.graphics_resource(h, CALL)?.object.is_egl() {
            if let Mapping::Array { level0, .. } = self.mapping_of(h, CALL)? {
                return Ok(level0);
            }
        }
        match self.mapping_of(h, CALL)? {
            Mapping::Array { level0, .. } if array_index == 0 && mip_level == 0 => Ok(level0),
            Mapping::Array { .. } => {
                Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: array index {array_index}, level {mip_level} of a 2D texture's level 0")))
            }
            Mapping::Pointer { .. } => Err(fail(CuError::NOT_MAPPED_AS_ARRAY, format_args!("{CALL}: the resource is a buffer"))),
        }
    }

    /// `cuGraphicsResourceGetMappedMipmappedArray`: the mapped texture as a one-level
    /// mipmapped array (level 0 is the array the call above gives).
    pub fn graphics_resource_get_mapped_mipmapped_array(&self, h: GraphicsHandle) -> CuResult<MipmapHandle> {
        const CALL: &str = "cuGraphicsResourceGetMappedMipmappedArray";
        self.current_context()?;
        if self.graphics_resource(h, CALL)?.object.is_egl() {
            // What an H200 (driver 580.159) answers for a registered EGL image.
            return Err(fail(CuError::UNKNOWN, format_args!("{CALL}: an EGL image has no mipmapped array")));
        }
        match self.mapping_of(h, CALL)? {
            Mapping::Array { mipmap, .. } => Ok(mipmap),
            Mapping::Pointer { .. } => Err(fail(CuError::NOT_MAPPED_AS_ARRAY, format_args!("{CALL}: the resource is a buffer"))),
        }
    }

    /// `cuGLGetDevices_v2`: the devices rendering for the current GL context. The GL
    /// implementations this layer meets render on the host (Mesa's llvmpipe) or on a GPU
    /// no CUDA device here drives; either way the CUDA devices whose memory the host
    /// addresses are the ones that can share its data, so those are the answer
    /// (`CUDA_ERROR_NO_DEVICE` when there are none).
    pub fn gl_get_devices(&self, device_list: u32) -> CuResult<Vec<i32>> {
        const CALL: &str = "cuGLGetDevices";
        if !(DEVICE_LIST_ALL..=DEVICE_LIST_NEXT_FRAME).contains(&device_list) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{CALL}: device list {device_list}")));
        }
        ffi::context_current().map_err(|e| gl_error(CALL, e))?;
        let devices: Vec<i32> = (0..self.devices.len()).filter(|&d| self.ipc_supported(d)).map(|d| d as i32).collect();
        if devices.is_empty() {
            return Err(fail(CuError::NO_DEVICE, format_args!("{CALL}: no CUDA device shares memory with the host's GL")));
        }
        Ok(devices)
    }
}

/// Array flags for a registered image: surface and gather use are what the register flags
/// allow ("SURFACE_LDST: Specifies that CUDA will bind this resource to a surface").
fn surface_flags(register_flags: u32) -> u32 {
    let mut flags = 0;
    if register_flags & 0x04 != 0 {
        flags |= crate::texture::ARRAY3D_SURFACE_LDST;
    }
    if register_flags & 0x08 != 0 {
        flags |= crate::texture::ARRAY3D_TEXTURE_GATHER;
    }
    flags
}
