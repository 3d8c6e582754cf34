//! Texture and surface objects (runtime API "Texture Object Management", "Surface Object
//! Management"): the runtime's descriptors converted to the driver's
//! (`CUDA_RESOURCE_DESC`, `CUDA_TEXTURE_DESC`) and back. Resource views are refused by the
//! driver (`cudaErrorNotSupported`).

use std::ffi::{c_int, c_uint, c_void};

use super::api;
use super::array::{channel_desc, driver_format, ChannelFormatDesc};
use crate::boundary::{export, Out, RtResult};
use crate::driver::{ResourceDesc, TextureDesc, CU_TRSF_NORMALIZED_COORDINATES, CU_TRSF_READ_AS_INTEGER, CU_TRSF_SEAMLESS_CUBEMAP, CU_TRSF_SRGB};
use crate::error::CudaError;

/// `cudaResourceDesc` (the union as 16 words, as the driver's).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RtResourceDesc {
    pub res_type: c_int,
    pub res: [u64; 16],
    pub flags: c_uint,
}

/// `cudaTextureDesc`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct RtTextureDesc {
    pub address_mode: [c_int; 3],
    pub filter_mode: c_int,
    pub read_mode: c_int,
    pub srgb: c_int,
    pub border_color: [f32; 4],
    pub normalized_coords: c_int,
    pub max_anisotropy: c_uint,
    pub mipmap_filter_mode: c_int,
    pub mipmap_level_bias: f32,
    pub min_mipmap_level_clamp: f32,
    pub max_mipmap_level_clamp: f32,
    pub disable_trilinear_optimization: c_int,
    pub seamless_cubemap: c_int,
}

const _: () = {
    assert!(std::mem::size_of::<RtResourceDesc>() == 144);
    assert!(std::mem::size_of::<RtTextureDesc>() == 72);
};

/// `cudaResourceType`: array, mipmapped array, linear, pitch 2D (the driver's numbers).
const RESOURCE_LINEAR: c_int = 2;
const RESOURCE_PITCH2D: c_int = 3;

/// `cudaErrorInvalidFilterSetting`: linear filtering of a texture read as integers.
const INVALID_FILTER_SETTING: CudaError = CudaError(26);

/// The channel format stored at bytes 8..28 of a linear or pitched resource.
fn channel_at(res: &[u64; 16]) -> ChannelFormatDesc {
    let w = |k: usize| res[k];
    let i = |word: u64, high: bool| (if high { word >> 32 } else { word & 0xffff_ffff }) as u32 as c_int;
    ChannelFormatDesc { x: i(w(1), false), y: i(w(1), true), z: i(w(2), false), w: i(w(2), true), f: i(w(3), false) }
}

fn put_channel(res: &mut [u64; 16], d: ChannelFormatDesc) {
    let pack = |lo: c_int, hi: c_int| (lo as u32 as u64) | ((hi as u32 as u64) << 32);
    res[1] = pack(d.x, d.y);
    res[2] = pack(d.z, d.w);
    res[3] = (res[3] & !0xffff_ffff) | d.f as u32 as u64;
}

/// The driver's resource descriptor of the runtime's, and the bits per channel of integer
/// texels (`None` for floats).
fn to_driver(r: &RtResourceDesc) -> RtResult<(ResourceDesc, Option<u32>)> {
    let mut d = ResourceDesc { res_type: r.res_type as u32, res: [0; 16], flags: r.flags };
    let integer = match r.res_type {
        RESOURCE_LINEAR | RESOURCE_PITCH2D => {
            let c = channel_at(&r.res);
            let (format, channels) = driver_format(&c)?;
            d.res[0] = r.res[0];
            d.res[1] = format as u64 | (channels as u64) << 32;
            if r.res_type == RESOURCE_LINEAR {
                d.res[2] = r.res[4];
            } else {
                d.res[2..5].copy_from_slice(&r.res[4..7]);
            }
            (c.f != 2).then_some(c.x as u32)
        }
        _ => {
            d.res = r.res;
            match r.res_type {
                0 if r.res[0] != 0 => super::array::integer_bits(r.res[0] as *mut c_void)?,
                _ => None,
            }
        }
    };
    Ok((d, integer))
}

fn from_driver(d: &ResourceDesc) -> RtResourceDesc {
    let mut r = RtResourceDesc { res_type: d.res_type as c_int, res: [0; 16], flags: d.flags };
    match d.res_type as c_int {
        RESOURCE_LINEAR | RESOURCE_PITCH2D => {
            r.res[0] = d.res[0];
            put_channel(&mut r.res, channel_desc(d.res[1] as u32, (d.res[1] >> 32) as u32));
            if d.res_type as c_int == RESOURCE_LINEAR {
                r.res[4] = d.res[2];
            } else {
                r.res[4..7].copy_from_slice(&d.res[2..5]);
            }
        }
        _ => r.res = d.res,
    }
    r
}

fn read<T: Copy>(p: *const T) -> RtResult<T> {
    if p.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL, the caller's structure.
    Ok(unsafe { p.read_unaligned() })
}

export! {
    fn cudaCreateTextureObject(object: *mut u64, resource: *const RtResourceDesc, texture: *const RtTextureDesc, view: *const c_void) {
        let out = Out::new(object)?;
        let (r, t) = (read(resource)?, read(texture)?);
        let (res, integer) = to_driver(&r)?;
        // cudaReadModeElementType of 8/16-bit integers reads integers; linear filtering
        // then has nothing to blend (Programming Guide, "Texture Fetching").
        if t.filter_mode == 1 && integer.is_some_and(|bits| t.read_mode == 0 || bits == 32) {
            return Err(INVALID_FILTER_SETTING);
        }
        let mut flags = 0;
        if t.read_mode == 0 {
            flags |= CU_TRSF_READ_AS_INTEGER;
        }
        if t.normalized_coords != 0 {
            flags |= CU_TRSF_NORMALIZED_COORDINATES;
        }
        if t.srgb != 0 {
            flags |= CU_TRSF_SRGB;
        }
        if t.seamless_cubemap != 0 {
            flags |= CU_TRSF_SEAMLESS_CUBEMAP;
        }
        let d = TextureDesc {
            address_mode: t.address_mode.map(|m| m as u32),
            filter_mode: t.filter_mode as u32,
            flags,
            max_anisotropy: t.max_anisotropy,
            mipmap_filter_mode: t.mipmap_filter_mode as u32,
            mipmap_level_bias: t.mipmap_level_bias,
            min_mipmap_level_clamp: t.min_mipmap_level_clamp,
            max_mipmap_level_clamp: t.max_mipmap_level_clamp,
            border_color: t.border_color,
            reserved: [0; 12],
        };
        let mut h = 0;
        // SAFETY: complete descriptors; the driver checks them.
        unsafe { api()?.cuTexObjectCreate(&mut h, &res, &d, view) }?;
        out.write(h);
        Ok(())
    }

    fn cudaDestroyTextureObject(object: u64) {
        if object == 0 {
            return Ok(());
        }
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuTexObjectDestroy(object) }
    }

    fn cudaGetTextureObjectResourceDesc(resource: *mut RtResourceDesc, object: u64) {
        let out = Out::new(resource)?;
        let mut d = ResourceDesc::default();
        // SAFETY: a valid out-pointer.
        unsafe { api()?.cuTexObjectGetResourceDesc(&mut d, object) }?;
        out.write(from_driver(&d));
        Ok(())
    }

    fn cudaGetTextureObjectTextureDesc(texture: *mut RtTextureDesc, object: u64) {
        let out = Out::new(texture)?;
        let mut d = TextureDesc::default();
        // SAFETY: a valid out-pointer.
        unsafe { api()?.cuTexObjectGetTextureDesc(&mut d, object) }?;
        out.write(RtTextureDesc {
            address_mode: d.address_mode.map(|m| m as c_int),
            filter_mode: d.filter_mode as c_int,
            read_mode: (d.flags & CU_TRSF_READ_AS_INTEGER == 0) as c_int,
            srgb: (d.flags & CU_TRSF_SRGB != 0) as c_int,
            border_color: d.border_color,
            normalized_coords: (d.flags & CU_TRSF_NORMALIZED_COORDINATES != 0) as c_int,
            max_anisotropy: d.max_anisotropy,
            mipmap_filter_mode: d.mipmap_filter_mode as c_int,
            mipmap_level_bias: d.mipmap_level_bias,
            min_mipmap_level_clamp: d.min_mipmap_level_clamp,
            max_mipmap_level_clamp: d.max_mipmap_level_clamp,
            disable_trilinear_optimization: 0,
            seamless_cubemap: (d.flags & CU_TRSF_SEAMLESS_CUBEMAP != 0) as c_int,
        });
        Ok(())
    }

    /// No object has a resource view (creating one with a view is refused), so the driver
    /// answers `cudaErrorInvalidValue`, as documented for an object without one.
    fn cudaGetTextureObjectResourceViewDesc(view: *mut c_void, object: u64) {
        if view.is_null() {
            return Err(CudaError::INVALID_VALUE);
        }
        // SAFETY: a non-NULL out-pointer; the driver checks the object.
        unsafe { api()?.cuTexObjectGetResourceViewDesc(view, object) }
    }

    fn cudaCreateSurfaceObject(object: *mut u64, resource: *const RtResourceDesc) {
        let out = Out::new(object)?;
        let (res, _) = to_driver(&read(resource)?)?;
        let mut h = 0;
        // SAFETY: a complete descriptor; the driver checks it.
        unsafe { api()?.cuSurfObjectCreate(&mut h, &res) }?;
        out.write(h);
        Ok(())
    }

    fn cudaDestroySurfaceObject(object: u64) {
        if object == 0 {
            return Ok(());
        }
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuSurfObjectDestroy(object) }
    }

    fn cudaGetSurfaceObjectResourceDesc(resource: *mut RtResourceDesc, object: u64) {
        let out = Out::new(resource)?;
        let mut d = ResourceDesc::default();
        // SAFETY: a valid out-pointer.
        unsafe { api()?.cuSurfObjectGetResourceDesc(&mut d, object) }?;
        out.write(from_driver(&d));
        Ok(())
    }
}
