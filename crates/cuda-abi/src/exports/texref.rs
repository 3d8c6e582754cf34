//! Texture and surface references (CUDA Driver API "Texture Reference Management
//! [DEPRECATED]", "Surface Reference Management [DEPRECATED]", `cuModuleGetTexRef` and
//! `cuModuleGetSurfRef`). The driver keeps each reference's state and binds the object it
//! describes to the module's `.texref` / `.surfref` variable (`cuda_driver::texture::reference`).
//!
//! The plain `cuTexRefSetAddress`, `cuTexRefGetAddress` and `cuTexRefSetAddress2D` took
//! 32-bit device pointers (before CUDA 3.2) and are not exported, as for the other names
//! whose first ABI did; `cuTexRefSetAddress2D_v2` and `_v3` share one signature (cuda.h
//! maps the name to `_v3`).

use std::ffi::{c_char, c_int, c_uint, c_void};

use cuda_driver::handle::{SurfRefHandle, TexRefHandle};
use cuda_driver::texture::mipmap::MipmapHandle;
use cuda_driver::texture::reference::{self as texref, TexRefState};
use cuda_driver::texture::{ArrayDescriptor, ArrayHandle};
use cuda_driver::CuError;

use super::{drv, function_handle, module_handle};
use crate::boundary::{export, read_in, utf8, AbiResult, Out};
use crate::types::{CUdeviceptr, CUfunction, CUmodule};

/// `CUtexref`, `CUsurfref`, `CUarray`, `CUmipmappedArray` (opaque pointers in C).
type CUtexref = *mut c_void;
type CUsurfref = *mut c_void;
type CUarray = *mut c_void;
type CUmipmappedArray = *mut c_void;

fn tex(h: CUtexref) -> TexRefHandle {
    TexRefHandle::from_raw(h)
}

fn surf(h: CUsurfref) -> SurfRefHandle {
    SurfRefHandle::from_raw(h)
}

fn array(h: CUarray) -> ArrayHandle {
    ArrayHandle(h as usize as u64)
}

/// Writes one field of texture reference `h`'s state to `out` (NULL ->
/// `CUDA_ERROR_INVALID_VALUE`).
///
/// # Safety
/// `out` is NULL or writable.
unsafe fn get<T>(out: *mut T, h: CUtexref, field: impl FnOnce(&TexRefState) -> T) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(out) }?;
    out.write(field(&drv()?.texref_state(tex(h))?));
    Ok(())
}

/// Changes texture reference `h`'s state with `change` (the driver rebinds its object).
fn set(h: CUtexref, change: impl FnOnce(&mut TexRefState) -> AbiResult) -> AbiResult {
    drv()?.texref_update(tex(h), change)
}

/// `cuTexRefSetAddress_v2` and `cuTexRefSetAddress2D_v2`/`_v3` as one body each.
///
/// # Safety
/// `byte_offset` is NULL or writable.
unsafe fn set_address(byte_offset: *mut usize, h: CUtexref, dptr: CUdeviceptr, bytes: usize) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::optional(byte_offset) };
    let offset = drv()?.texref_set_address(tex(h), dptr, bytes as u64)?;
    match out {
        Some(out) => out.write(offset as usize),
        // "If the device memory pointer was returned from cuMemAlloc(), the offset is
        // guaranteed to be 0 and NULL may be passed": for any other offset NVIDIA's
        // driver answers CUDA_ERROR_INVALID_VALUE (the binding is made all the same).
        None if offset != 0 => return Err(CuError::INVALID_VALUE),
        None => {}
    }
    Ok(())
}

/// # Safety
/// `desc` is NULL or readable.
unsafe fn set_address_2d(h: CUtexref, desc: *const ArrayDescriptor, dptr: CUdeviceptr, pitch: usize) -> AbiResult {
    // SAFETY: forwarded contract.
    let d = unsafe { read_in(desc) }?;
    drv()?.texref_set_address_2d(tex(h), &d, dptr, pitch as u64)
}

export! {
    /// `cuModuleGetTexRef(CUtexref* pTexRef, CUmodule hmod, const char* name)`.
    fn cuModuleGetTexRef(p_tex_ref: *mut CUtexref, hmod: CUmodule, name: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (out, name) = unsafe { (Out::new(p_tex_ref)?, utf8(name, CuError::NOT_FOUND)?) };
        out.write(drv()?.module_get_texref(module_handle(hmod), name)?.as_raw());
        Ok(())
    }

    /// `cuModuleGetSurfRef(CUsurfref* pSurfRef, CUmodule hmod, const char* name)`.
    fn cuModuleGetSurfRef(p_surf_ref: *mut CUsurfref, hmod: CUmodule, name: *const c_char) {
        // SAFETY: NULL or writable / NUL-terminated, per the API.
        let (out, name) = unsafe { (Out::new(p_surf_ref)?, utf8(name, CuError::NOT_FOUND)?) };
        out.write(drv()?.module_get_surfref(module_handle(hmod), name)?.as_raw());
        Ok(())
    }

    /// `cuTexRefCreate(CUtexref* pTexRef)`.
    fn cuTexRefCreate(p_tex_ref: *mut CUtexref) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_tex_ref) }?;
        out.write(drv()?.texref_create()?.as_raw());
        Ok(())
    }

    /// `cuTexRefDestroy(CUtexref hTexRef)`.
    fn cuTexRefDestroy(h: CUtexref) {
        drv()?.texref_destroy(tex(h))
    }

    /// `cuTexRefSetArray(CUtexref hTexRef, CUarray hArray, unsigned int Flags)`.
    fn cuTexRefSetArray(h: CUtexref, a: CUarray, flags: c_uint) {
        drv()?.texref_set_array(tex(h), array(a), flags)
    }

    /// `cuTexRefSetMipmappedArray(CUtexref hTexRef, CUmipmappedArray hMipmappedArray, unsigned int Flags)`.
    fn cuTexRefSetMipmappedArray(h: CUtexref, mipmap: CUmipmappedArray, flags: c_uint) {
        drv()?.texref_set_mipmapped_array(tex(h), MipmapHandle(mipmap as usize as u64), flags)
    }

    /// `cuTexRefSetAddress_v2(size_t* ByteOffset, CUtexref hTexRef, CUdeviceptr dptr, size_t bytes)`.
    fn cuTexRefSetAddress_v2(byte_offset: *mut usize, h: CUtexref, dptr: CUdeviceptr, bytes: usize) {
        // SAFETY: NULL or writable, per the API.
        unsafe { set_address(byte_offset, h, dptr, bytes) }
    }

    /// `cuTexRefSetAddress2D_v3(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR* desc, CUdeviceptr dptr, size_t Pitch)`.
    fn cuTexRefSetAddress2D_v3(h: CUtexref, desc: *const ArrayDescriptor, dptr: CUdeviceptr, pitch: usize) {
        // SAFETY: NULL or readable, per the API.
        unsafe { set_address_2d(h, desc, dptr, pitch) }
    }
    /// `cuTexRefSetAddress2D_v2`: the CUDA 3.2 ABI, the same arguments.
    fn cuTexRefSetAddress2D_v2(h: CUtexref, desc: *const ArrayDescriptor, dptr: CUdeviceptr, pitch: usize) {
        // SAFETY: as cuTexRefSetAddress2D_v3.
        unsafe { set_address_2d(h, desc, dptr, pitch) }
    }

    /// `cuTexRefSetFormat(CUtexref hTexRef, CUarray_format fmt, int NumPackedComponents)`.
    fn cuTexRefSetFormat(h: CUtexref, format: c_uint, channels: c_int) {
        set(h, |s| texref::set_format(s, format, channels))
    }

    /// `cuTexRefSetAddressMode(CUtexref hTexRef, int dim, CUaddress_mode am)`.
    fn cuTexRefSetAddressMode(h: CUtexref, dim: c_int, mode: c_uint) {
        set(h, |s| texref::set_address_mode(s, dim, mode))
    }

    /// `cuTexRefSetFilterMode(CUtexref hTexRef, CUfilter_mode fm)`.
    fn cuTexRefSetFilterMode(h: CUtexref, mode: c_uint) {
        set(h, |s| texref::set_filter_mode(s, mode))
    }

    /// `cuTexRefSetMipmapFilterMode(CUtexref hTexRef, CUfilter_mode fm)`.
    fn cuTexRefSetMipmapFilterMode(h: CUtexref, mode: c_uint) {
        set(h, |s| texref::set_mipmap_filter_mode(s, mode))
    }

    /// `cuTexRefSetMipmapLevelBias(CUtexref hTexRef, float bias)`.
    fn cuTexRefSetMipmapLevelBias(h: CUtexref, bias: f32) {
        set(h, |s| {
            s.mipmap_level_bias = bias;
            Ok(())
        })
    }

    /// `cuTexRefSetMipmapLevelClamp(CUtexref hTexRef, float minMipmapLevelClamp, float maxMipmapLevelClamp)`.
    fn cuTexRefSetMipmapLevelClamp(h: CUtexref, min: f32, max: f32) {
        set(h, |s| {
            s.mipmap_level_clamp = [min, max];
            Ok(())
        })
    }

    /// `cuTexRefSetMaxAnisotropy(CUtexref hTexRef, unsigned int maxAniso)`.
    fn cuTexRefSetMaxAnisotropy(h: CUtexref, max_aniso: c_uint) {
        set(h, |s| {
            s.max_anisotropy = max_aniso;
            Ok(())
        })
    }

    /// `cuTexRefSetBorderColor(CUtexref hTexRef, float* pBorderColor)`: four floats, RGBA.
    fn cuTexRefSetBorderColor(h: CUtexref, border: *const [f32; 4]) {
        // SAFETY: NULL or readable, per the API.
        let color = unsafe { read_in(border) }?;
        set(h, |s| {
            s.border_color = color;
            Ok(())
        })
    }

    /// `cuTexRefSetFlags(CUtexref hTexRef, unsigned int Flags)`.
    fn cuTexRefSetFlags(h: CUtexref, flags: c_uint) {
        set(h, |s| texref::set_flags(s, flags))
    }

    /// `cuTexRefGetAddress_v2(CUdeviceptr* pdptr, CUtexref hTexRef)`.
    fn cuTexRefGetAddress_v2(pdptr: *mut CUdeviceptr, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pdptr) }?;
        out.write(drv()?.texref_address(tex(h))?);
        Ok(())
    }

    /// `cuTexRefGetArray(CUarray* phArray, CUtexref hTexRef)`.
    fn cuTexRefGetArray(ph_array: *mut CUarray, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_array) }?;
        out.write(drv()?.texref_array(tex(h))?.0 as usize as CUarray);
        Ok(())
    }

    /// `cuTexRefGetMipmappedArray(CUmipmappedArray* phMipmappedArray, CUtexref hTexRef)`.
    fn cuTexRefGetMipmappedArray(ph_mipmapped_array: *mut CUmipmappedArray, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_mipmapped_array) }?;
        out.write(drv()?.texref_mipmapped_array(tex(h))?.0 as usize as CUmipmappedArray);
        Ok(())
    }

    /// `cuTexRefGetAddressMode(CUaddress_mode* pam, CUtexref hTexRef, int dim)`.
    fn cuTexRefGetAddressMode(pam: *mut c_uint, h: CUtexref, dim: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pam) }?;
        out.write(texref::address_mode_of(&drv()?.texref_state(tex(h))?, dim)?);
        Ok(())
    }

    /// `cuTexRefGetFilterMode(CUfilter_mode* pfm, CUtexref hTexRef)`.
    fn cuTexRefGetFilterMode(pfm: *mut c_uint, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get(pfm, h, |s| s.filter_mode) }
    }

    /// `cuTexRefGetFormat(CUarray_format* pFormat, int* pNumChannels, CUtexref hTexRef)`:
    /// "If pFormat or pNumChannels is NULL, it will be ignored".
    fn cuTexRefGetFormat(p_format: *mut c_uint, p_num_channels: *mut c_int, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        let (format, channels) = unsafe { (Out::optional(p_format), Out::optional(p_num_channels)) };
        let s = drv()?.texref_state(tex(h))?;
        if let Some(out) = format {
            out.write(s.format);
        }
        if let Some(out) = channels {
            out.write(s.channels as c_int);
        }
        Ok(())
    }

    /// `cuTexRefGetMipmapFilterMode(CUfilter_mode* pfm, CUtexref hTexRef)`.
    fn cuTexRefGetMipmapFilterMode(pfm: *mut c_uint, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get(pfm, h, |s| s.mipmap_filter_mode) }
    }

    /// `cuTexRefGetMipmapLevelBias(float* pbias, CUtexref hTexRef)`.
    fn cuTexRefGetMipmapLevelBias(pbias: *mut f32, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get(pbias, h, |s| s.mipmap_level_bias) }
    }

    /// `cuTexRefGetMipmapLevelClamp(float* pminMipmapLevelClamp, float* pmaxMipmapLevelClamp, CUtexref hTexRef)`.
    fn cuTexRefGetMipmapLevelClamp(pmin: *mut f32, pmax: *mut f32, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        let (min, max) = unsafe { (Out::new(pmin)?, Out::new(pmax)?) };
        let s = drv()?.texref_state(tex(h))?;
        min.write(s.mipmap_level_clamp[0]);
        max.write(s.mipmap_level_clamp[1]);
        Ok(())
    }

    /// `cuTexRefGetMaxAnisotropy(int* pmaxAniso, CUtexref hTexRef)`.
    fn cuTexRefGetMaxAnisotropy(pmax_aniso: *mut c_int, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get(pmax_aniso, h, |s| s.max_anisotropy as c_int) }
    }

    /// `cuTexRefGetBorderColor(float* pBorderColor, CUtexref hTexRef)`: four floats, RGBA.
    fn cuTexRefGetBorderColor(border: *mut [f32; 4], h: CUtexref) {
        // SAFETY: NULL or writable for four floats, per the API.
        unsafe { get(border, h, |s| s.border_color) }
    }

    /// `cuTexRefGetFlags(unsigned int* pFlags, CUtexref hTexRef)`.
    fn cuTexRefGetFlags(pflags: *mut c_uint, h: CUtexref) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get(pflags, h, |s| s.flags) }
    }

    /// `cuSurfRefSetArray(CUsurfref hSurfRef, CUarray hArray, unsigned int Flags)`.
    fn cuSurfRefSetArray(h: CUsurfref, a: CUarray, flags: c_uint) {
        drv()?.surfref_set_array(surf(h), array(a), flags)
    }

    /// `cuSurfRefGetArray(CUarray* phArray, CUsurfref hSurfRef)`.
    fn cuSurfRefGetArray(ph_array: *mut CUarray, h: CUsurfref) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_array) }?;
        out.write(drv()?.surfref_array(surf(h))?.0 as usize as CUarray);
        Ok(())
    }

    /// `cuParamSetTexRef(CUfunction hfunc, int texunit, CUtexref hTexRef)`: kernels name
    /// the references they read (`cuModuleGetTexRef`'s), so there is nothing to attach;
    /// NVIDIA's driver accepts any `texunit` (H200, driver 580.159: 0 as well as
    /// `CU_PARAM_TR_DEFAULT`).
    fn cuParamSetTexRef(f: CUfunction, texunit: c_int, h: CUtexref) {
        let _ = texunit;
        let driver = drv()?;
        driver.function_module(function_handle(f))?;
        driver.texref_state(tex(h)).map(|_| ())
    }
}
