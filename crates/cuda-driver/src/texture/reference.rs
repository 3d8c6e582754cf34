//! Texture and surface references: CUDA Driver API "Texture Reference Management
//! [DEPRECATED]", "Surface Reference Management [DEPRECATED]" and `cuModuleGetTexRef` /
//! `cuModuleGetSurfRef` of "Module Management [DEPRECATED]".
//!
//! A module's reference is a PTX `.global .texref` / `.surfref` variable, which the
//! compiler makes an 8-byte variable holding an object handle (`compiler_core::lower`).
//! The driver keeps each reference's state (what is bound, the format, how it is sampled)
//! and, whenever a call changes it, builds the texture or surface object that state
//! describes as `cuTexObjectCreate` / `cuSurfObjectCreate` would, waits for the work
//! queued in the module's context (kernels already launched read the old object), writes
//! the new handle into the variable and destroys the old object. A reference with nothing
//! bound, or bound to something the CPU device cannot sample (NVIDIA's driver takes any
//! address and any format), holds [`UNBOUND_REFERENCE`]: kernels read zeros from it, as
//! they do on NVIDIA's driver. References from `cuTexRefCreate` belong to no module; they
//! keep their state and no kernel reads them.
//!
//! What NVIDIA's driver answers (H200, driver 580.159, the same calls as
//! `ctests/host/texref.c`): a NULL reference is `CUDA_ERROR_INVALID_HANDLE`, a NULL output
//! `CUDA_ERROR_INVALID_VALUE`; a new reference reads `CU_AD_FORMAT_FLOAT` x 1, clamp in
//! all three dimensions, point filtering, flags 0 and zeros elsewhere;
//! `cuTexRefSetAddress` binds `dptr` rounded down to `CU_TEXTURE_ALIGNMENT` (512) and
//! passes back the difference (`CUDA_ERROR_INVALID_VALUE` when that is not 0 and the
//! offset pointer is NULL), texels from there to `dptr + bytes` readable; `cuTexRefSetAddress2D` refuses a `dptr` off that alignment and
//! a pitch that is not a multiple of 32 or smaller than a row; `cuTexRefSetFormat` refuses
//! 3 channels and more than 4 only; an address mode past the four reads back as clamp, a
//! filter mode as it was given;
//! flags other than `CU_TRSF_READ_AS_INTEGER | NORMALIZED_COORDINATES | SRGB |
//! DISABLE_TRILINEAR_OPTIMIZATION` are `CUDA_ERROR_INVALID_VALUE`; destroying an array
//! unbinds the references bound to it; `cuModuleGetGlobal` of a reference's name is
//! `CUDA_ERROR_INVALID_VALUE`. Mipmapped arrays are `CUDA_ERROR_NOT_SUPPORTED` here, as
//! texture objects over them are.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use backend_api::texture::{Reference as ReferenceKind, TextureObject};
use backend_api::DevicePtr;
use compiler_core::texture_abi::UNBOUND_REFERENCE;

use super::mipmap::MipmapHandle;
use super::{
    sampler, texel_format, ArrayDescriptor, ArrayHandle, ResourceDesc, TextureDesc, ARRAY3D_SURFACE_LDST, RESOURCE_TYPE_ARRAY, RESOURCE_TYPE_LINEAR,
    RESOURCE_TYPE_PITCH2D, TEXTURE_ALIGNMENT, TEXTURE_PITCH_ALIGNMENT, TRSF_NORMALIZED_COORDINATES, TRSF_READ_AS_INTEGER,
};
use crate::diag::fail;
use crate::handle::{HandleKind, HandleTable, SurfRefHandle, TexRefHandle};
use crate::{CtxHandle, CuError, CuResult, Driver, ModuleHandle};

/// `CU_TRSA_OVERRIDE_FORMAT`, the one flag of `cuTexRefSetArray`.
pub const TRSA_OVERRIDE_FORMAT: u32 = 0x01;
/// `CU_TRSF_SRGB` and `CU_TRSF_DISABLE_TRILINEAR_OPTIMIZATION`: accepted, without effect
/// on the CPU device's sampling (no sRGB formats, no mipmaps).
const TRSF_SRGB: u32 = 0x10;
const TRSF_DISABLE_TRILINEAR_OPTIMIZATION: u32 = 0x20;
const TEXREF_FLAGS: u32 = TRSF_READ_AS_INTEGER | TRSF_NORMALIZED_COORDINATES | TRSF_SRGB | TRSF_DISABLE_TRILINEAR_OPTIMIZATION;
/// `CU_AD_FORMAT_FLOAT`, a new reference's format.
const FORMAT_FLOAT: u32 = 0x20;
/// `CU_TR_ADDRESS_MODE_CLAMP`.
const ADDRESS_MODE_CLAMP: u32 = 1;
/// `CU_DEVICE_ATTRIBUTE_MAXIMUM_TEXTURE1D_LINEAR_WIDTH` (2^27 texels, as on NVIDIA's GPUs).
const MAX_LINEAR_TEXELS: u64 = 1 << 27;

/// What a reference reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Binding {
    None,
    /// `cuTexRefSetAddress`: `bytes` bytes from `base` (a multiple of 512).
    Linear {
        base: DevicePtr,
        bytes: u64,
    },
    /// `cuTexRefSetAddress2D`: `width` x `height` texels, rows `pitch` bytes apart.
    Pitch2D {
        base: DevicePtr,
        width: u64,
        height: u64,
        pitch: u64,
    },
    Array(ArrayHandle),
}

/// The state the `cuTexRefSet*` calls set and the `cuTexRefGet*` calls read.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexRefState {
    pub binding: Binding,
    /// `CUarray_format` and channels (`cuTexRefSetFormat`, or those of what was bound).
    pub format: u32,
    pub channels: u32,
    pub address_mode: [u32; 3],
    pub filter_mode: u32,
    pub mipmap_filter_mode: u32,
    pub mipmap_level_bias: f32,
    pub mipmap_level_clamp: [f32; 2],
    pub max_anisotropy: u32,
    pub border_color: [f32; 4],
    pub flags: u32,
}

impl Default for TexRefState {
    fn default() -> Self {
        TexRefState {
            binding: Binding::None,
            format: FORMAT_FLOAT,
            channels: 1,
            address_mode: [ADDRESS_MODE_CLAMP; 3],
            filter_mode: 0,
            mipmap_filter_mode: 0,
            mipmap_level_bias: 0.0,
            mipmap_level_clamp: [0.0; 2],
            max_anisotropy: 0,
            border_color: [0.0; 4],
            flags: 0,
        }
    }
}

/// The module variable kernels read a reference through.
#[derive(Clone, Copy, Debug)]
struct Slot {
    module: ModuleHandle,
    ctx: CtxHandle,
    device: usize,
    address: DevicePtr,
}

/// A texture or surface reference.
pub struct Reference {
    surface: bool,
    /// `None` for `cuTexRefCreate`'s references.
    slot: Option<Slot>,
    inner: Mutex<Inner>,
}

struct Inner {
    state: TexRefState,
    /// The object kernels read now (its handle is in the slot).
    object: Option<u64>,
}

/// Every reference, and each module's by name.
#[derive(Default)]
pub(crate) struct State {
    textures: HandleTable<Reference, TexRefHandle>,
    surfaces: HandleTable<Reference, SurfRefHandle>,
    /// (module, name, surface) -> handle bits: a name always gives the same handle.
    by_name: Mutex<HashMap<(u64, String, bool), u64>>,
}

impl Driver {
    /// `cuModuleGetTexRef` / `cuModuleGetSurfRef`: the module's reference `name`, made at
    /// the first call; any other name is `CUDA_ERROR_NOT_FOUND`.
    fn module_reference(&self, m: ModuleHandle, name: &str, surface: bool) -> CuResult<u64> {
        let module = self.module(m)?;
        let mut by_name = self.textures.references.by_name.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&h) = by_name.get(&(m.0, name.to_string(), surface)) {
            return Ok(h);
        }
        let kind = if surface { ReferenceKind::Surface } else { ReferenceKind::Texture };
        let global = module.loaded.global(name).filter(|g| g.reference == Some(kind)).ok_or_else(|| {
            let what = if surface { "surface" } else { "texture" };
            fail(CuError::NOT_FOUND, format_args!("no {what} reference {name:?} in module {:#x}", m.0))
        })?;
        let slot = Slot { module: m, ctx: module.ctx, device: module.device, address: global.address };
        let reference = Arc::new(Reference { surface, slot: Some(slot), inner: Mutex::new(Inner { state: TexRefState::default(), object: None }) });
        let h = if surface { self.textures.references.surfaces.insert(reference).0 } else { self.textures.references.textures.insert(reference).0 };
        by_name.insert((m.0, name.to_string(), surface), h);
        Ok(h)
    }

    /// `cuModuleGetTexRef`.
    pub fn module_get_texref(&self, m: ModuleHandle, name: &str) -> CuResult<TexRefHandle> {
        self.module_reference(m, name, false).map(TexRefHandle)
    }

    /// `cuModuleGetSurfRef`.
    pub fn module_get_surfref(&self, m: ModuleHandle, name: &str) -> CuResult<SurfRefHandle> {
        self.module_reference(m, name, true).map(SurfRefHandle)
    }

    /// Forgets the references of module `m` (being unloaded, its work drained) and
    /// destroys their objects.
    pub(crate) fn drop_module_references(&self, m: ModuleHandle) {
        let refs = &self.textures.references;
        let mut by_name = refs.by_name.lock().unwrap_or_else(|e| e.into_inner());
        by_name.retain(|(module, _, surface), h| {
            if *module != m.0 {
                return true;
            }
            let removed = if *surface { refs.surfaces.remove(SurfRefHandle(*h)) } else { refs.textures.remove(TexRefHandle(*h)) };
            if let Ok(r) = removed {
                let object = r.inner.lock().unwrap_or_else(|e| e.into_inner()).object.take();
                if let (Some(object), Some(slot)) = (object, r.slot) {
                    self.backend_of(slot.device).destroy_texture_object(object);
                }
            }
            false
        });
    }

    /// `cuTexRefCreate`: a reference of no module.
    pub fn texref_create(&self) -> CuResult<TexRefHandle> {
        self.current_context()?;
        let r = Reference { surface: false, slot: None, inner: Mutex::new(Inner { state: TexRefState::default(), object: None }) };
        Ok(self.textures.references.textures.insert(Arc::new(r)))
    }

    /// `cuTexRefDestroy`: only references from `cuTexRefCreate`; a module's belongs to it
    /// ("should not be destroyed", `cuModuleGetTexRef`).
    pub fn texref_destroy(&self, h: TexRefHandle) -> CuResult<()> {
        if self.texref(h)?.slot.is_some() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefDestroy({:#x}): the reference belongs to its module", h.0)));
        }
        self.textures.references.textures.remove(h).map(|_| ()).map_err(|_| CuError::INVALID_HANDLE)
    }

    fn texref(&self, h: TexRefHandle) -> CuResult<Arc<Reference>> {
        self.textures.references.textures.get(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("CUtexref {:#x}: {why:?}", h.bits())))
    }

    fn surfref(&self, h: SurfRefHandle) -> CuResult<Arc<Reference>> {
        self.textures.references.surfaces.get(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("CUsurfref {:#x}: {why:?}", h.bits())))
    }

    /// The state of texture reference `h` (the `cuTexRefGet*` calls).
    pub fn texref_state(&self, h: TexRefHandle) -> CuResult<TexRefState> {
        Ok(self.texref(h)?.inner.lock().unwrap_or_else(|e| e.into_inner()).state)
    }

    /// Applies `change` to texture reference `h`'s state and rebinds its object; `change`
    /// refuses with an error and changes nothing then.
    pub fn texref_update<T>(&self, h: TexRefHandle, change: impl FnOnce(&mut TexRefState) -> CuResult<T>) -> CuResult<T> {
        let r = self.texref(h)?;
        self.update(&r, change)
    }

    fn update<T>(&self, r: &Reference, change: impl FnOnce(&mut TexRefState) -> CuResult<T>) -> CuResult<T> {
        let mut inner = r.inner.lock().unwrap_or_else(|e| e.into_inner());
        let mut state = inner.state;
        let answer = change(&mut state)?;
        if state != inner.state {
            inner.state = state;
            self.rebind(r, &mut inner);
        }
        Ok(answer)
    }

    /// Builds the object `inner.state` describes and makes it the one kernels read.
    fn rebind(&self, r: &Reference, inner: &mut Inner) {
        let Some(slot) = r.slot else {
            return;
        };
        let backend = self.backend_of(slot.device);
        let object = match self.reference_object(r.surface, &inner.state) {
            Ok(Some(o)) => match backend.create_texture_object(&o) {
                Ok(handle) => Some(handle),
                Err(e) => {
                    crate::diag!("texture reference of module {:#x}: kernels read zeros: {e}", slot.module.0);
                    None
                }
            },
            Ok(None) => None,
            Err(e) => {
                crate::diag!("texture reference of module {:#x}: kernels read zeros ({e:?}: {:?})", slot.module.0, inner.state.binding);
                None
            }
        };
        // Kernels already queued read the handle there now.
        if let Ok(ctx) = self.contexts.get(slot.ctx) {
            self.drain_context(&ctx);
        }
        let handle = object.unwrap_or(UNBOUND_REFERENCE);
        // SAFETY: the slot is the module's live 8-byte variable (the module is unloaded
        // only after its references are dropped) and `handle` is 8 readable bytes.
        if let Err(e) = unsafe { backend.copy_to_device(slot.address, &handle as *const u64 as *const u8, 8) } {
            crate::diag!("texture reference of module {:#x}: {e}", slot.module.0);
        }
        if let Some(old) = std::mem::replace(&mut inner.object, object) {
            backend.destroy_texture_object(old);
        }
    }

    /// The object a reference's state describes (`None` while nothing is bound); an error
    /// says why it cannot be sampled.
    fn reference_object(&self, surface: bool, s: &TexRefState) -> CuResult<Option<TextureObject>> {
        let what = if surface { "surface reference" } else { "texture reference" };
        let format_word = s.format as u64 | (s.channels as u64) << 32;
        let mut r = ResourceDesc { res_type: RESOURCE_TYPE_ARRAY, res: [0; 16], flags: 0 };
        match s.binding {
            Binding::None => return Ok(None),
            Binding::Array(a) => r.res[0] = a.0,
            Binding::Linear { base, bytes } => {
                r.res_type = RESOURCE_TYPE_LINEAR;
                r.res[..3].copy_from_slice(&[base, format_word, bytes]);
            }
            Binding::Pitch2D { base, width, height, pitch } => {
                r.res_type = RESOURCE_TYPE_PITCH2D;
                r.res[..5].copy_from_slice(&[base, format_word, width, height, pitch]);
            }
        }
        let (resource, _) = self.resource(&r, what)?;
        if surface {
            return Ok(Some(TextureObject { resource, sampler: None }));
        }
        let t = TextureDesc {
            address_mode: s.address_mode,
            filter_mode: (s.filter_mode == 1) as u32,
            flags: s.flags,
            max_anisotropy: s.max_anisotropy,
            mipmap_filter_mode: s.mipmap_filter_mode,
            mipmap_level_bias: s.mipmap_level_bias,
            min_mipmap_level_clamp: s.mipmap_level_clamp[0],
            max_mipmap_level_clamp: s.mipmap_level_clamp[1],
            border_color: s.border_color,
            reserved: [0; 12],
        };
        Ok(Some(TextureObject { resource, sampler: Some(sampler(&t, resource.format, true, what)?) }))
    }

    /// `cuTexRefSetArray`: `flags` is 0 or `CU_TRSA_OVERRIDE_FORMAT`; the reference
    /// reads the array's format from then on.
    pub fn texref_set_array(&self, h: TexRefHandle, array: ArrayHandle, flags: u32) -> CuResult<()> {
        let r = self.texref(h)?;
        let a = self.array(array)?;
        if flags & !TRSA_OVERRIDE_FORMAT != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefSetArray: flags {flags:#x}")));
        }
        self.update(&r, |s| {
            s.binding = Binding::Array(array);
            (s.format, s.channels) = (a.descriptor.format, a.descriptor.num_channels);
            Ok(())
        })
    }

    /// `cuTexRefSetMipmappedArray`: the CPU device's texture unit does not sample
    /// mipmaps (as for texture objects over a mipmapped array).
    pub fn texref_set_mipmapped_array(&self, h: TexRefHandle, mipmap: MipmapHandle, flags: u32) -> CuResult<()> {
        self.texref(h)?;
        self.mipmapped_array_get_level(mipmap, 0)?;
        let _ = flags;
        Err(fail(CuError::NOT_SUPPORTED, format_args!("cuTexRefSetMipmappedArray: mipmapped arrays are not supported")))
    }

    /// `cuTexRefSetAddress`: binds `bytes` bytes at `dptr`; returns the byte offset of
    /// `dptr` from the aligned address actually bound, which kernels add to their
    /// indices (API reference).
    pub fn texref_set_address(&self, h: TexRefHandle, dptr: DevicePtr, bytes: u64) -> CuResult<u64> {
        let r = self.texref(h)?;
        let base = dptr - dptr % TEXTURE_ALIGNMENT;
        let offset = dptr - base;
        self.update(&r, |s| {
            let texel = texel_format(s.format, s.channels).map_or(1, |f| f.bytes() as u64);
            if bytes / texel > MAX_LINEAR_TEXELS {
                return Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefSetAddress: {bytes} bytes exceed {MAX_LINEAR_TEXELS} texels")));
            }
            s.binding = Binding::Linear { base, bytes: bytes + offset };
            Ok(offset)
        })
    }

    /// `cuTexRefSetAddress2D_v3`: binds pitched memory described by `d`; its format
    /// becomes the reference's.
    pub fn texref_set_address_2d(&self, h: TexRefHandle, d: &ArrayDescriptor, dptr: DevicePtr, pitch: u64) -> CuResult<()> {
        let r = self.texref(h)?;
        let bad = |why: String| fail(CuError::INVALID_VALUE, format_args!("cuTexRefSetAddress2D: {why}"));
        let texel = texel_format(d.format, d.num_channels).ok_or_else(|| bad(format!("format {:#x} x {}", d.format, d.num_channels)))?;
        if !dptr.is_multiple_of(TEXTURE_ALIGNMENT) {
            return Err(bad(format!("{dptr:#x} is not a multiple of {TEXTURE_ALIGNMENT}")));
        }
        if !pitch.is_multiple_of(TEXTURE_PITCH_ALIGNMENT)
            || pitch < d.width as u64 * texel.bytes() as u64
            || d.width > u32::MAX as usize
            || d.height > u32::MAX as usize
        {
            return Err(bad(format!("pitch {pitch} for {} x {} texels", d.width, d.height)));
        }
        self.update(&r, |s| {
            s.binding = Binding::Pitch2D { base: dptr, width: d.width as u64, height: d.height as u64, pitch };
            (s.format, s.channels) = (d.format, d.num_channels);
            Ok(())
        })
    }

    /// `cuTexRefGetAddress_v2`: the bound device address (the aligned one for
    /// `cuTexRefSetAddress`); `CUDA_ERROR_INVALID_VALUE` unless memory is bound.
    pub fn texref_address(&self, h: TexRefHandle) -> CuResult<DevicePtr> {
        match self.texref_state(h)?.binding {
            Binding::Linear { base, .. } | Binding::Pitch2D { base, .. } => Ok(base),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefGetAddress: no memory is bound"))),
        }
    }

    /// `cuTexRefGetArray`: `CUDA_ERROR_INVALID_VALUE` unless an array is bound.
    pub fn texref_array(&self, h: TexRefHandle) -> CuResult<ArrayHandle> {
        match self.texref_state(h)?.binding {
            Binding::Array(a) => Ok(a),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefGetArray: no array is bound"))),
        }
    }

    /// `cuTexRefGetMipmappedArray`: none is ever bound here.
    pub fn texref_mipmapped_array(&self, h: TexRefHandle) -> CuResult<MipmapHandle> {
        self.texref(h)?;
        Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefGetMipmappedArray: no mipmapped array is bound")))
    }

    /// `cuSurfRefSetArray`: `flags` must be 0 and the array made with
    /// `CUDA_ARRAY3D_SURFACE_LDST` (API reference).
    pub fn surfref_set_array(&self, h: SurfRefHandle, array: ArrayHandle, flags: u32) -> CuResult<()> {
        let r = self.surfref(h)?;
        let a = self.array(array)?;
        if flags != 0 || a.descriptor.flags & ARRAY3D_SURFACE_LDST == 0 {
            let why =
                format_args!("cuSurfRefSetArray: flags {flags:#x}, array flags {:#x} (surfaces need CUDA_ARRAY3D_SURFACE_LDST)", a.descriptor.flags);
            return Err(fail(CuError::INVALID_VALUE, why));
        }
        self.update(&r, |s| {
            s.binding = Binding::Array(array);
            (s.format, s.channels) = (a.descriptor.format, a.descriptor.num_channels);
            Ok(())
        })
    }

    /// `cuSurfRefGetArray`: `CUDA_ERROR_INVALID_VALUE` unless an array is bound.
    pub fn surfref_array(&self, h: SurfRefHandle) -> CuResult<ArrayHandle> {
        match self.surfref(h)?.inner.lock().unwrap_or_else(|e| e.into_inner()).state.binding {
            Binding::Array(a) => Ok(a),
            _ => Err(fail(CuError::INVALID_VALUE, format_args!("cuSurfRefGetArray: no array is bound"))),
        }
    }

    /// Unbinds the references bound to array `array`, which is being destroyed.
    pub(crate) fn unbind_array_references(&self, array: ArrayHandle) {
        let refs = &self.textures.references;
        let all = refs.textures.all().into_iter().map(|(_, r)| r).chain(refs.surfaces.all().into_iter().map(|(_, r)| r));
        for r in all {
            let _ = self.update(&r, |s| {
                if s.binding == Binding::Array(array) {
                    s.binding = Binding::None;
                }
                Ok(())
            });
        }
    }
}

/// `cuTexRefSetFormat`: any format; 3 channels or more than 4 are refused (NVIDIA's
/// driver takes 0 and negative counts, which then sample nothing here).
pub fn set_format(s: &mut TexRefState, format: u32, channels: i32) -> CuResult<()> {
    if channels == 3 || channels > 4 {
        return Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefSetFormat: {channels} channels")));
    }
    (s.format, s.channels) = (format, channels as u32);
    Ok(())
}

/// `cuTexRefSetAddressMode`: dimensions 0 to 2; a mode past `CU_TR_ADDRESS_MODE_BORDER`
/// is taken as clamp.
pub fn set_address_mode(s: &mut TexRefState, dim: i32, mode: u32) -> CuResult<()> {
    let slot = usize::try_from(dim).ok().and_then(|d| s.address_mode.get_mut(d));
    let slot = slot.ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuTexRefSetAddressMode: dimension {dim}")))?;
    *slot = if mode <= 3 { mode } else { ADDRESS_MODE_CLAMP };
    Ok(())
}

/// `cuTexRefGetAddressMode`: dimensions 0 to 2.
pub fn address_mode_of(s: &TexRefState, dim: i32) -> CuResult<u32> {
    let mode = usize::try_from(dim).ok().and_then(|d| s.address_mode.get(d).copied());
    mode.ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuTexRefGetAddressMode: dimension {dim}")))
}

/// `cuTexRefSetFilterMode`: NVIDIA's driver accepts and reads back any value; all but
/// `CU_TR_FILTER_MODE_LINEAR` sample as point here.
pub fn set_filter_mode(s: &mut TexRefState, mode: u32) -> CuResult<()> {
    s.filter_mode = mode;
    Ok(())
}

/// `cuTexRefSetMipmapFilterMode`: point or linear.
pub fn set_mipmap_filter_mode(s: &mut TexRefState, mode: u32) -> CuResult<()> {
    if mode > 1 {
        return Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefSetMipmapFilterMode: mode {mode}")));
    }
    s.mipmap_filter_mode = mode;
    Ok(())
}

/// `cuTexRefSetFlags`.
pub fn set_flags(s: &mut TexRefState, flags: u32) -> CuResult<()> {
    if flags & !TEXREF_FLAGS != 0 {
        return Err(fail(CuError::INVALID_VALUE, format_args!("cuTexRefSetFlags: flags {flags:#x}")));
    }
    s.flags = flags;
    Ok(())
}

#[cfg(test)]
#[path = "reference_tests.rs"]
mod tests;
