//! CUDA arrays (`cuArrayCreate`, `cuArray3DCreate`) and texture and surface objects
//! (`cuTexObjectCreate`, `cuSurfObjectCreate`): CUDA Driver API "Array Management",
//! "Texture Object Management" and "Surface Object Management".
//!
//! An array is device memory the driver allocates like `cuMemAlloc` (so it is freed with
//! its context and copies address it like any allocation), laid out row-major with rows
//! of exactly `width * texel` bytes and slices of `height` rows; layers and cubemap faces
//! are slices. Mipmapped arrays are chains of arrays ([`mipmap`]); textures over them,
//! sparse arrays and resource views are refused with `CUDA_ERROR_NOT_SUPPORTED`. The backend owns what an object handle is
//! (`backend_api::Device::create_texture_object`); the driver keeps the descriptors it was
//! given, for the `Get*Desc` calls, and which context the object belongs to.

pub mod mipmap;
pub mod reference;

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use backend_api::texture::{AddressMode, ChannelType, Layout, Resource, Sampler, TexelFormat, TextureObject};
use backend_api::DevicePtr;

use crate::diag::fail;
use crate::handle::{CtxHandle, HandleKind, Kind};
use crate::{CuError, CuResult, Driver};

/// `CUDA_ARRAY3D_DESCRIPTOR` (40 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Array3dDescriptor {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub format: u32,
    pub num_channels: u32,
    pub flags: u32,
}

/// `CUDA_ARRAY_DESCRIPTOR` (24 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ArrayDescriptor {
    pub width: usize,
    pub height: usize,
    pub format: u32,
    pub num_channels: u32,
}

/// `CUDA_RESOURCE_DESC` (144 bytes): `res` is the union, read per `res_type`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ResourceDesc {
    pub res_type: u32,
    pub res: [u64; 16],
    pub flags: u32,
}

/// `CUDA_TEXTURE_DESC` (104 bytes).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct TextureDesc {
    pub address_mode: [u32; 3],
    pub filter_mode: u32,
    pub flags: u32,
    pub max_anisotropy: u32,
    pub mipmap_filter_mode: u32,
    pub mipmap_level_bias: f32,
    pub min_mipmap_level_clamp: f32,
    pub max_mipmap_level_clamp: f32,
    pub border_color: [f32; 4],
    pub reserved: [i32; 12],
}

const _: () = {
    assert!(std::mem::size_of::<Array3dDescriptor>() == 40);
    assert!(std::mem::size_of::<ArrayDescriptor>() == 24);
    assert!(std::mem::size_of::<ResourceDesc>() == 144);
    assert!(std::mem::size_of::<TextureDesc>() == 104);
};

/// `CUresourcetype`.
pub const RESOURCE_TYPE_ARRAY: u32 = 0;
pub const RESOURCE_TYPE_MIPMAPPED_ARRAY: u32 = 1;
pub const RESOURCE_TYPE_LINEAR: u32 = 2;
pub const RESOURCE_TYPE_PITCH2D: u32 = 3;

/// `CUDA_ARRAY3D_*` flags.
pub const ARRAY3D_LAYERED: u32 = 0x01;
pub const ARRAY3D_SURFACE_LDST: u32 = 0x02;
pub const ARRAY3D_CUBEMAP: u32 = 0x04;
pub const ARRAY3D_TEXTURE_GATHER: u32 = 0x08;
const ARRAY3D_SUPPORTED: u32 = ARRAY3D_LAYERED | ARRAY3D_SURFACE_LDST | ARRAY3D_CUBEMAP | ARRAY3D_TEXTURE_GATHER;
/// Every `CUDA_ARRAY3D_*` flag CUDA 13 defines (up to `VIDEO_ENCODE_DECODE`, 0x100).
const ARRAY3D_DEFINED: u32 = 0x1ff;

/// `CU_TRSF_*` texture flags.
pub const TRSF_READ_AS_INTEGER: u32 = 0x01;
pub const TRSF_NORMALIZED_COORDINATES: u32 = 0x02;

/// `CU_TEXTURE_ALIGNMENT`: linear and pitched resources start at multiples of it (and
/// pitches are multiples of `CU_TEXTURE_PITCH_ALIGNMENT`, 32 on NVIDIA's GPUs).
pub const TEXTURE_ALIGNMENT: u64 = 512;
pub const TEXTURE_PITCH_ALIGNMENT: u64 = 32;

/// A CUDA array.
#[derive(Debug)]
pub struct Array {
    pub ctx: CtxHandle,
    pub device: usize,
    pub base: DevicePtr,
    pub descriptor: Array3dDescriptor,
    pub texel: TexelFormat,
    /// Bytes per row and per slice.
    pub pitch: u64,
    pub slice: u64,
    /// A level of a mipmapped array (destroyed with it, not by `cuArrayDestroy`).
    pub mipmap_level: bool,
}

impl Array {
    /// Rows per slice and slices (layers, faces, depth), each at least 1.
    pub fn rows_slices(&self) -> (u64, u64) {
        (self.descriptor.height.max(1) as u64, self.descriptor.depth.max(1) as u64)
    }
}

/// A `CUarray` (a pointer type in C, an opaque id here).
#[repr(transparent)]
#[derive(Clone, Copy, PartialEq, Eq, Hash, Debug)]
pub struct ArrayHandle(pub u64);

impl HandleKind for ArrayHandle {
    const KIND: Kind = Kind::Array;
    fn from_bits(bits: u64) -> Self {
        ArrayHandle(bits)
    }
    fn bits(self) -> u64 {
        self.0
    }
}

/// What the driver keeps of a texture or surface object.
#[derive(Clone, Copy, Debug)]
struct ObjectRecord {
    ctx: CtxHandle,
    device: usize,
    resource: ResourceDesc,
    texture: Option<TextureDesc>,
}

/// Arrays and objects of every context.
#[derive(Default)]
pub struct State {
    pub(crate) arrays: crate::handle::HandleTable<Array, ArrayHandle>,
    pub(crate) mipmaps: mipmap::State,
    pub(crate) references: reference::State,
    objects: Mutex<HashMap<u64, ObjectRecord>>,
}

/// The texel format of `CUarray_format` `format` with `channels` channels.
fn texel_format(format: u32, channels: u32) -> Option<TexelFormat> {
    let channel = match format {
        0x01 => ChannelType::U8,
        0x02 => ChannelType::U16,
        0x03 => ChannelType::U32,
        0x08 => ChannelType::S8,
        0x09 => ChannelType::S16,
        0x0a => ChannelType::S32,
        0x10 => ChannelType::F16,
        0x20 => ChannelType::F32,
        _ => return None,
    };
    matches!(channels, 1 | 2 | 4).then_some(TexelFormat { channel, channels })
}

/// The texel format and row, slice and total bytes of an array `d` describes.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArrayShape {
    pub texel: TexelFormat,
    pub pitch: u64,
    pub slice: u64,
    pub bytes: u64,
}

/// Checks `d` as `cuArray3DCreate` does (its codes) and gives its shape.
pub(crate) fn array_shape(d: &Array3dDescriptor) -> CuResult<ArrayShape> {
    let bad = |why: &str| fail(CuError::INVALID_VALUE, format_args!("cuArray3DCreate: {why} ({d:?})"));
    let texel = texel_format(d.format, d.num_channels).ok_or_else(|| bad("format or channel count"))?;
    if d.flags & !ARRAY3D_DEFINED != 0 {
        return Err(bad("unknown flags"));
    }
    if d.flags & !ARRAY3D_SUPPORTED != 0 {
        return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuArray3DCreate: flags {:#x} (sparse, deferred or color arrays)", d.flags)));
    }
    let layered = d.flags & ARRAY3D_LAYERED != 0;
    let cubemap = d.flags & ARRAY3D_CUBEMAP != 0;
    if d.width == 0 || (d.height == 0 && d.depth != 0 && !layered) {
        return Err(bad("width 0, or a depth without a height"));
    }
    if cubemap && (d.width != d.height || d.depth == 0 || !d.depth.is_multiple_of(6) || (!layered && d.depth != 6)) {
        return Err(bad("a cubemap needs square faces and 6 slices per layer"));
    }
    if layered && d.depth == 0 {
        return Err(bad("a layered array needs at least one layer"));
    }
    if !within_size_limits(d, layered, cubemap) {
        return Err(bad("larger than the device's array limits"));
    }
    let pitch = (d.width as u64).checked_mul(texel.bytes() as u64).ok_or_else(|| bad("size"))?;
    let slice = pitch.checked_mul(d.height.max(1) as u64).ok_or_else(|| bad("size"))?;
    let bytes = slice.checked_mul(d.depth.max(1) as u64).ok_or_else(|| bad("size"))?;
    Ok(ArrayShape { texel, pitch, slice, bytes })
}

/// Whether `d`'s extent is within the array limits the device reports
/// (`CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE*`, `device_attribute.rs`).
fn within_size_limits(d: &Array3dDescriptor, layered: bool, cubemap: bool) -> bool {
    let (w, h, depth) = (d.width, d.height, d.depth);
    if cubemap {
        return w <= 32768 && depth / 6 <= 2046;
    }
    if layered {
        return w <= 32768 && h <= 32768 && depth <= 2048;
    }
    if depth > 0 {
        return (w <= 16384 && h <= 16384 && depth <= 16384) || (w <= 8192 && h <= 8192 && depth <= 32768);
    }
    w <= 131072 && h <= 65536
}

/// The sampler `t` describes for texels of `format`. Texture objects refuse linear
/// filtering of texels read as integers (the Programming Guide's "Texture Fetching" filters
/// float results); texture references filter them (`integer_filtering`), as NVIDIA's driver
/// does for them (H200, driver 580.159).
fn sampler(t: &TextureDesc, format: TexelFormat, integer_filtering: bool, what: &str) -> CuResult<Sampler> {
    let bad = |why: &str| fail(CuError::INVALID_VALUE, format_args!("{what}: {why}"));
    let mut address = [AddressMode::Wrap; 3];
    for (a, m) in address.iter_mut().zip(t.address_mode) {
        *a = address_mode(m).ok_or_else(|| bad("address mode"))?;
    }
    let linear = match t.filter_mode {
        0 => false,
        1 => true,
        _ => return Err(bad("filter mode")),
    };
    let read_normalized = t.flags & TRSF_READ_AS_INTEGER == 0;
    let channel = format.channel;
    let float_results = channel.is_float() || (read_normalized && channel.normalizable());
    if linear && !float_results && !integer_filtering {
        return Err(bad("linear filtering of a texture read as integers"));
    }
    Ok(Sampler { address, linear, normalized_coords: t.flags & TRSF_NORMALIZED_COORDINATES != 0, read_normalized, border_color: t.border_color })
}

fn address_mode(m: u32) -> Option<AddressMode> {
    Some(match m {
        0 => AddressMode::Wrap,
        1 => AddressMode::Clamp,
        2 => AddressMode::Mirror,
        3 => AddressMode::Border,
        _ => return None,
    })
}

impl Driver {
    /// `cuArray3DCreate_v2`.
    pub fn array_3d_create(&self, d: &Array3dDescriptor) -> CuResult<ArrayHandle> {
        self.array_3d_create_level(d, false)
    }

    /// An array, or a level of a mipmapped array, in memory of its own.
    fn array_3d_create_level(&self, d: &Array3dDescriptor, mipmap_level: bool) -> CuResult<ArrayHandle> {
        let ctx = self.current_context()?;
        let shape = array_shape(d)?;
        let base = self.mem_alloc(usize::try_from(shape.bytes).map_err(|_| CuError::OUT_OF_MEMORY)?)?;
        Ok(self.array_at(ctx.handle, ctx.device, d, &shape, base, mipmap_level))
    }

    /// Registers an array described by `d` (checked into `shape`) whose texels start at
    /// `base`.
    pub(crate) fn array_at(
        &self,
        ctx: CtxHandle,
        device: usize,
        d: &Array3dDescriptor,
        shape: &ArrayShape,
        base: DevicePtr,
        mipmap_level: bool,
    ) -> ArrayHandle {
        let array = Array { ctx, device, base, descriptor: *d, texel: shape.texel, pitch: shape.pitch, slice: shape.slice, mipmap_level };
        self.textures.arrays.insert(Arc::new(array))
    }

    /// `cuArrayCreate_v2`: a 1-D (height 0) or 2-D array.
    pub fn array_create(&self, d: &ArrayDescriptor) -> CuResult<ArrayHandle> {
        let d3 = Array3dDescriptor { width: d.width, height: d.height, depth: 0, format: d.format, num_channels: d.num_channels, flags: 0 };
        self.array_3d_create(&d3)
    }

    /// The array `h` (`INVALID_HANDLE` if it is not one).
    pub fn array(&self, h: ArrayHandle) -> CuResult<Arc<Array>> {
        self.textures.arrays.get(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("CUarray {:#x}: {why:?}", h.0)))
    }

    /// `cuArrayDestroy`. A level of a mipmapped array only loses its handle: its memory
    /// belongs to the mipmapped array ([`mipmap`]).
    pub fn array_destroy(&self, h: ArrayHandle) -> CuResult<()> {
        self.destroy_array(h)
    }

    fn destroy_array(&self, h: ArrayHandle) -> CuResult<()> {
        let array =
            self.textures.arrays.remove(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("cuArrayDestroy({:#x}): {why:?}", h.0)))?;
        self.unbind_array_references(h);
        // The memory may already be gone with its context. `mem_free` waits for the work
        // queued in the array's context first.
        if !array.mipmap_level && self.memory.find(array.base).is_some_and(|a| a.base == array.base) {
            self.mem_free(array.base)?;
        }
        Ok(())
    }

    /// `cuArray3DGetDescriptor_v2`.
    pub fn array_3d_descriptor(&self, h: ArrayHandle) -> CuResult<Array3dDescriptor> {
        Ok(self.array(h)?.descriptor)
    }

    /// `cuArrayGetMemoryRequirements(memoryRequirements, array, device)`: the requirements
    /// of an array created with `CUDA_ARRAY3D_DEFERRED_MAPPING`. No device here has
    /// deferred mapping (`DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED` 0, creation refuses the
    /// flag), so every array is an ordinary one, for which NVIDIA's driver answers
    /// `CUDA_ERROR_INVALID_VALUE` (580.159, H200).
    pub fn array_memory_requirements(&self, h: ArrayHandle, dev: i32) -> CuResult<(usize, usize)> {
        self.array(h)?;
        self.device_slot(dev)?;
        Err(fail(CuError::INVALID_VALUE, format_args!("cuArrayGetMemoryRequirements: the array was not created with deferred mapping")))
    }

    /// `cuArrayGetSparseProperties`: sparse arrays do not exist here
    /// (`SPARSE_CUDA_ARRAY_SUPPORTED` 0); for an array that is not sparse NVIDIA's driver
    /// answers `CUDA_ERROR_INVALID_VALUE` (580.159, H200).
    pub fn array_sparse_properties(&self, h: ArrayHandle) -> CuResult<()> {
        self.array(h)?;
        Err(fail(CuError::INVALID_VALUE, format_args!("cuArrayGetSparseProperties: the array is not sparse")))
    }

    /// `cuArrayGetDescriptor_v2`: width, height and format (NVIDIA's driver answers for 3-D
    /// and layered arrays too, leaving out their depth).
    pub fn array_descriptor(&self, h: ArrayHandle) -> CuResult<ArrayDescriptor> {
        let d = self.array(h)?.descriptor;
        Ok(ArrayDescriptor { width: d.width, height: d.height, format: d.format, num_channels: d.num_channels })
    }

    /// The resource a descriptor names, checked.
    fn resource(&self, r: &ResourceDesc, what: &str) -> CuResult<(Resource, usize)> {
        let bad = |why: String| fail(CuError::INVALID_VALUE, format_args!("{what}: {why}"));
        match r.res_type {
            RESOURCE_TYPE_ARRAY => {
                let a = self.array(ArrayHandle(r.res[0]))?;
                let d = a.descriptor;
                let layered = d.flags & ARRAY3D_LAYERED != 0;
                let cubemap = d.flags & ARRAY3D_CUBEMAP != 0;
                let layout = Layout::Array { width: d.width as u32, height: d.height.max(1) as u32, depth: d.depth.max(1) as u32, layered, cubemap };
                Ok((Resource { base: a.base, format: a.texel, layout, pitch: a.pitch, slice: a.slice }, a.device))
            }
            RESOURCE_TYPE_LINEAR | RESOURCE_TYPE_PITCH2D => {
                let base = r.res[0];
                let format = texel_format(r.res[1] as u32, (r.res[1] >> 32) as u32).ok_or_else(|| bad("format or channel count".into()))?;
                if !base.is_multiple_of(TEXTURE_ALIGNMENT) {
                    return Err(bad(format!("device pointer {base:#x} is not a multiple of {TEXTURE_ALIGNMENT}")));
                }
                let (layout, pitch, bytes) = if r.res_type == RESOURCE_TYPE_LINEAR {
                    let size = r.res[2];
                    let width = size / format.bytes() as u64;
                    if width == 0 || width > u32::MAX as u64 {
                        return Err(bad(format!("size {size} bytes")));
                    }
                    (Layout::Linear { width: width as u32 }, 0, width * format.bytes() as u64)
                } else {
                    let (width, height, pitch) = (r.res[2], r.res[3], r.res[4]);
                    let bad_shape = width == 0 || height == 0 || width > u32::MAX as u64 || height > u32::MAX as u64;
                    if bad_shape || pitch % TEXTURE_PITCH_ALIGNMENT != 0 || pitch < width * format.bytes() as u64 {
                        return Err(bad(format!("{width} x {height} texels, pitch {pitch}")));
                    }
                    (Layout::Pitch2D { width: width as u32, height: height as u32 }, pitch, pitch * (height - 1) + width * format.bytes() as u64)
                };
                let a = self
                    .memory
                    .find_range(base, bytes)
                    .and_then(|r| r.ok())
                    .ok_or_else(|| bad(format!("{bytes} bytes at {base:#x} are not device memory")))?;
                Ok((Resource { base, format, layout, pitch, slice: 0 }, a.device))
            }
            RESOURCE_TYPE_MIPMAPPED_ARRAY => Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: mipmapped arrays are not supported"))),
            t => Err(bad(format!("resource type {t}"))),
        }
    }

    /// `cuTexObjectCreate`. Resource views are not supported.
    pub fn tex_object_create(&self, r: &ResourceDesc, t: &TextureDesc, view: bool) -> CuResult<u64> {
        let ctx = self.current_context()?;
        if view {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuTexObjectCreate: resource views are not supported")));
        }
        let (resource, device) = self.resource(r, "cuTexObjectCreate")?;
        let sampler = sampler(t, resource.format, false, "cuTexObjectCreate")?;
        self.create_object(ctx.handle, device, r, Some(*t), TextureObject { resource, sampler: Some(sampler) })
    }

    /// `cuSurfObjectCreate`: over a CUDA array.
    pub fn surf_object_create(&self, r: &ResourceDesc) -> CuResult<u64> {
        let ctx = self.current_context()?;
        if r.res_type != RESOURCE_TYPE_ARRAY {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuSurfObjectCreate: resource type {} (surfaces need an array)", r.res_type)));
        }
        let (resource, device) = self.resource(r, "cuSurfObjectCreate")?;
        self.create_object(ctx.handle, device, r, None, TextureObject { resource, sampler: None })
    }

    fn create_object(&self, ctx: CtxHandle, device: usize, r: &ResourceDesc, t: Option<TextureDesc>, o: TextureObject) -> CuResult<u64> {
        let handle = self.backend_of(device).create_texture_object(&o).map_err(|e| match e {
            backend_api::DeviceError::NotSupported(what) => fail(CuError::NOT_SUPPORTED, format_args!("texture objects: device {device}: {what}")),
            other => fail(CuError::UNKNOWN, format_args!("texture objects: {other}")),
        })?;
        let record = ObjectRecord { ctx, device, resource: *r, texture: t };
        self.textures.objects.lock().unwrap_or_else(|e| e.into_inner()).insert(handle, record);
        Ok(handle)
    }

    fn object(&self, handle: u64, surface: bool, what: &str) -> CuResult<ObjectRecord> {
        let objects = self.textures.objects.lock().unwrap_or_else(|e| e.into_inner());
        match objects.get(&handle) {
            Some(r) if r.texture.is_none() == surface => Ok(*r),
            _ => Err(fail(
                CuError::INVALID_VALUE,
                format_args!("{what}: {handle:#x} is not a live {} object", if surface { "surface" } else { "texture" }),
            )),
        }
    }

    /// `cuTexObjectDestroy` / `cuSurfObjectDestroy`: after the work already queued in the
    /// object's context, which may still use it.
    pub fn texture_object_destroy(&self, handle: u64, surface: bool) -> CuResult<()> {
        let what = if surface { "cuSurfObjectDestroy" } else { "cuTexObjectDestroy" };
        if handle == 0 {
            return Ok(()); // as NVIDIA's driver answers
        }
        let record = self.object(handle, surface, what)?;
        if let Ok(ctx) = self.contexts.get(record.ctx) {
            self.drain_context(&ctx);
        }
        if self.textures.objects.lock().unwrap_or_else(|e| e.into_inner()).remove(&handle).is_some() {
            self.backend_of(record.device).destroy_texture_object(handle);
        }
        Ok(())
    }

    /// `cuTexObjectGetResourceDesc` / `cuSurfObjectGetResourceDesc`.
    pub fn texture_object_resource(&self, handle: u64, surface: bool) -> CuResult<ResourceDesc> {
        Ok(self.object(handle, surface, "cu*ObjectGetResourceDesc")?.resource)
    }

    /// `cuTexObjectGetResourceViewDesc`: "If no resource view was set for texObject, the
    /// CUDA_ERROR_INVALID_VALUE is returned" (API reference), and no object has one here
    /// (`cuTexObjectCreate` refuses views).
    pub fn tex_object_resource_view_desc(&self, handle: u64) -> CuResult<()> {
        self.object(handle, false, "cuTexObjectGetResourceViewDesc")?;
        Err(fail(CuError::INVALID_VALUE, format_args!("cuTexObjectGetResourceViewDesc({handle:#x}): the object has no resource view")))
    }

    /// `cuTexObjectGetTextureDesc`.
    pub fn tex_object_texture_desc(&self, handle: u64) -> CuResult<TextureDesc> {
        let r = self.object(handle, false, "cuTexObjectGetTextureDesc")?;
        Ok(r.texture.expect("texture objects keep their descriptor"))
    }
}
