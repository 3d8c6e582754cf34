//! Texture and surface objects as the driver hands them to a backend: a resource (where
//! the texels are and how they are laid out) and, for textures, how they are sampled.
//! The driver validates both against the CUDA Driver API's rules ("Texture Object
//! Management", "Surface Object Management") before a backend sees them; the backend
//! decides what the 64-bit object handle is that kernels receive.

use crate::DevicePtr;

/// The type of one channel of a texel (`CUarray_format`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ChannelType {
    U8,
    U16,
    U32,
    S8,
    S16,
    S32,
    F16,
    F32,
}

impl ChannelType {
    /// Bytes of one channel.
    pub fn bytes(self) -> u32 {
        match self {
            ChannelType::U8 | ChannelType::S8 => 1,
            ChannelType::U16 | ChannelType::S16 | ChannelType::F16 => 2,
            ChannelType::U32 | ChannelType::S32 | ChannelType::F32 => 4,
        }
    }

    /// Whether a normalized-float read applies (8- and 16-bit integers).
    pub fn normalizable(self) -> bool {
        matches!(self, ChannelType::U8 | ChannelType::U16 | ChannelType::S8 | ChannelType::S16)
    }

    /// Whether texels are floating point.
    pub fn is_float(self) -> bool {
        matches!(self, ChannelType::F16 | ChannelType::F32)
    }
}

/// The texel format: 1, 2 or 4 channels of one type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TexelFormat {
    pub channel: ChannelType,
    pub channels: u32,
}

impl TexelFormat {
    /// Bytes of one texel.
    pub fn bytes(self) -> u32 {
        self.channel.bytes() * self.channels
    }
}

/// How the texels are arranged.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layout {
    /// A CUDA array: `width` x `height` x `depth` texels, rows `pitch` bytes apart and
    /// slices (depth planes, layers or cubemap faces) `slice` bytes apart. `height` and
    /// `depth` are at least 1; `layered` arrays keep their layers in `depth`, cubemaps
    /// their six faces (times the layers of a cubemap array).
    Array { width: u32, height: u32, depth: u32, layered: bool, cubemap: bool },
    /// Linear memory fetched by integer index (`tex1Dfetch`): `width` texels.
    Linear { width: u32 },
    /// Pitched 2-D memory: `width` x `height` texels, rows `pitch` bytes apart.
    Pitch2D { width: u32, height: u32 },
}

/// Where the texels are: `base` in device memory, `pitch` bytes per row and `slice`
/// bytes per depth slice (both 0 where unused).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Resource {
    pub base: DevicePtr,
    pub format: TexelFormat,
    pub layout: Layout,
    pub pitch: u64,
    pub slice: u64,
}

/// `CUaddress_mode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AddressMode {
    Wrap,
    Clamp,
    Mirror,
    Border,
}

/// How a texture is sampled (`CUDA_TEXTURE_DESC`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sampler {
    pub address: [AddressMode; 3],
    /// Linear filtering (`CU_TR_FILTER_MODE_LINEAR`); nearest-point otherwise.
    pub linear: bool,
    /// Coordinates in [0, 1) across each dimension instead of texel units.
    pub normalized_coords: bool,
    /// 8- and 16-bit integer texels read as floats in [0, 1] or [-1, 1] (the default
    /// unless `CU_TRSF_READ_AS_INTEGER`).
    pub read_normalized: bool,
    pub border_color: [f32; 4],
}

/// What a module's texture or surface reference (PTX `.texref`/`.surfref`) is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Reference {
    Texture,
    Surface,
}

/// A texture object (`sampler: Some`) or a surface object (`None`).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureObject {
    pub resource: Resource,
    pub sampler: Option<Sampler>,
}
