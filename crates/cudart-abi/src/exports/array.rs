//! CUDA arrays (runtime API "Memory Management": `cudaMallocArray`, `cudaMalloc3DArray`,
//! `cudaFreeArray`, `cudaArrayGetInfo`, `cudaGetChannelDesc`, `cudaCreateChannelDesc`)
//! and the copies that name them (`cudaMemcpy2DToArray`, `cudaMemcpy2DFromArray`,
//! `cudaMemcpyToArray`, `cudaMemcpyFromArray`, `cudaMemcpy2DArrayToArray`). A
//! `cudaArray_t` is the driver's `CUarray`; a channel format maps to the driver's array
//! format and channel count.

use std::ffi::{c_int, c_uint, c_void};

use super::api;
use super::memcpy::{kind_of, memory_types, run_2d, Mode};
use crate::boundary::{export, Out, RtResult};
use crate::driver::{Array3dDescriptor, CUdeviceptr, CudaMemcpy2D, CU_MEMORYTYPE_ARRAY};
use crate::error::CudaError;

/// `cudaChannelFormatDesc`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChannelFormatDesc {
    pub x: c_int,
    pub y: c_int,
    pub z: c_int,
    pub w: c_int,
    pub f: c_int,
}

/// `cudaExtent`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Extent {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
}

/// `cudaChannelFormatKind`: signed, unsigned, float.
const KIND_SIGNED: c_int = 0;
const KIND_UNSIGNED: c_int = 1;
const KIND_FLOAT: c_int = 2;

/// `cudaErrorInvalidChannelDescriptor`.
const INVALID_CHANNEL_DESCRIPTOR: CudaError = CudaError(20);

/// The driver's (`CUarray_format`, channel count) of a channel format.
pub(crate) fn driver_format(d: &ChannelFormatDesc) -> RtResult<(u32, u32)> {
    let bits = d.x;
    let channels = [d.x, d.y, d.z, d.w].iter().take_while(|&&b| b != 0).count() as u32;
    if [d.x, d.y, d.z, d.w].iter().any(|&b| b != 0 && b != bits) || !matches!(channels, 1 | 2 | 4) {
        return Err(INVALID_CHANNEL_DESCRIPTOR);
    }
    let format = match (d.f, bits) {
        (KIND_UNSIGNED, 8) => 0x01,
        (KIND_UNSIGNED, 16) => 0x02,
        (KIND_UNSIGNED, 32) => 0x03,
        (KIND_SIGNED, 8) => 0x08,
        (KIND_SIGNED, 16) => 0x09,
        (KIND_SIGNED, 32) => 0x0a,
        (KIND_FLOAT, 16) => 0x10,
        (KIND_FLOAT, 32) => 0x20,
        _ => return Err(INVALID_CHANNEL_DESCRIPTOR),
    };
    Ok((format, channels))
}

/// The channel format of a driver format.
pub(crate) fn channel_desc(format: u32, channels: u32) -> ChannelFormatDesc {
    let (bits, f) = match format {
        0x01 => (8, KIND_UNSIGNED),
        0x02 => (16, KIND_UNSIGNED),
        0x03 => (32, KIND_UNSIGNED),
        0x08 => (8, KIND_SIGNED),
        0x09 => (16, KIND_SIGNED),
        0x0a => (32, KIND_SIGNED),
        0x10 => (16, KIND_FLOAT),
        _ => (32, KIND_FLOAT),
    };
    let b = |k: u32| if channels > k { bits } else { 0 };
    ChannelFormatDesc { x: b(0), y: b(1), z: b(2), w: b(3), f }
}

/// The driver's descriptor of array `a`.
fn descriptor(a: *mut c_void) -> RtResult<Array3dDescriptor> {
    if a.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    let mut d = Array3dDescriptor::default();
    // SAFETY: a valid out-pointer; the driver checks the handle.
    unsafe { api()?.cuArray3DGetDescriptor(&mut d, a) }.map_err(|_| CudaError::INVALID_RESOURCE_HANDLE)?;
    Ok(d)
}

/// Bytes of one element of array `a`.
pub(crate) fn element_bytes(a: *mut c_void) -> RtResult<usize> {
    let d = descriptor(a)?;
    let bits = channel_desc(d.format, d.num_channels).x as usize;
    Ok(bits / 8 * d.num_channels as usize)
}

/// The bits per channel of array `a`'s texels if they are integers (`None`: floats).
pub(crate) fn integer_bits(a: *mut c_void) -> RtResult<Option<u32>> {
    let d = descriptor(a)?;
    Ok((!matches!(d.format, 0x10 | 0x20)).then_some(channel_desc(d.format, d.num_channels).x as u32))
}

fn create(out: *mut *mut c_void, desc: *const ChannelFormatDesc, extent: Extent, flags: c_uint) -> RtResult {
    create_with(out, desc, extent, flags, None)
}

/// An array, or (`levels`) a mipmapped array, of the described texels.
fn create_with(out: *mut *mut c_void, desc: *const ChannelFormatDesc, extent: Extent, flags: c_uint, levels: Option<c_uint>) -> RtResult {
    // SAFETY: NULL or writable, per the API.
    let out = unsafe { Out::new(out) }?;
    if desc.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL, the caller's structure.
    let (format, num_channels) = driver_format(&unsafe { desc.read_unaligned() })?;
    let d = Array3dDescriptor { width: extent.width, height: extent.height, depth: extent.depth, format, num_channels, flags };
    let mut a = std::ptr::null_mut();
    // SAFETY: valid pointers.
    unsafe {
        match levels {
            None => api()?.cuArray3DCreate(&mut a, &d),
            Some(levels) => api()?.cuMipmappedArrayCreate(&mut a, &d, levels),
        }
    }?;
    out.write(a);
    Ok(())
}

/// One side of a 2D copy: an array at a (bytes, rows) offset, or pointer memory.
#[derive(Clone, Copy)]
enum Side {
    Array(*mut c_void, usize, usize),
    Memory(*const c_void, usize),
}

fn copy_2d(dst: Side, src: Side, width: usize, height: usize, kind: c_int, mode: Mode) -> RtResult {
    let (src_type, dst_type) = memory_types(kind_of(kind)?);
    let api = api()?;
    let mut desc = CudaMemcpy2D {
        src_x_in_bytes: 0,
        src_y: 0,
        src_memory_type: src_type,
        src_host: std::ptr::null(),
        src_device: 0,
        src_array: std::ptr::null_mut(),
        src_pitch: 0,
        dst_x_in_bytes: 0,
        dst_y: 0,
        dst_memory_type: dst_type,
        dst_host: std::ptr::null_mut(),
        dst_device: 0,
        dst_array: std::ptr::null_mut(),
        dst_pitch: 0,
        width_in_bytes: width,
        height,
    };
    match src {
        Side::Array(a, x, y) => {
            descriptor(a)?;
            (desc.src_memory_type, desc.src_array, desc.src_x_in_bytes, desc.src_y) = (CU_MEMORYTYPE_ARRAY, a, x, y);
        }
        Side::Memory(p, pitch) => (desc.src_host, desc.src_device, desc.src_pitch) = (p, p as CUdeviceptr, pitch),
    }
    match dst {
        Side::Array(a, x, y) => {
            descriptor(a)?;
            (desc.dst_memory_type, desc.dst_array, desc.dst_x_in_bytes, desc.dst_y) = (CU_MEMORYTYPE_ARRAY, a, x, y);
        }
        Side::Memory(p, pitch) => (desc.dst_host, desc.dst_device, desc.dst_pitch) = (p.cast_mut(), p as CUdeviceptr, pitch),
    }
    if width == 0 || height == 0 {
        return Ok(());
    }
    if (matches!(src, Side::Memory(..)) && width > desc.src_pitch) || (matches!(dst, Side::Memory(..)) && width > desc.dst_pitch) {
        return Err(CudaError::INVALID_PITCH_VALUE);
    }
    run_2d(api, &desc, mode)
}

/// The (bytes, rows) position of byte offset `w` of row `h` and a 1-D copy of `count`
/// bytes as rows of the array (the deprecated `cudaMemcpyToArray` family copies row by
/// row from that position).
fn linear_rows(a: *mut c_void, count: usize) -> RtResult<(usize, usize)> {
    let d = descriptor(a)?;
    let row = element_bytes(a)? * d.width;
    if count <= row {
        Ok((count, 1))
    } else if count.is_multiple_of(row) {
        Ok((row, count / row))
    } else {
        Err(CudaError::INVALID_VALUE)
    }
}

export! {
    fn cudaMallocArray(array: *mut *mut c_void, desc: *const ChannelFormatDesc, width: usize, height: usize, flags: c_uint) {
        create(array, desc, Extent { width, height, depth: 0 }, flags)
    }

    fn cudaMalloc3DArray(array: *mut *mut c_void, desc: *const ChannelFormatDesc, extent: Extent, flags: c_uint) {
        create(array, desc, extent, flags)
    }

    fn cudaMallocMipmappedArray(mipmap: *mut *mut c_void, desc: *const ChannelFormatDesc, extent: Extent, num_levels: c_uint, flags: c_uint) {
        create_with(mipmap, desc, extent, flags, Some(num_levels))
    }

    fn cudaGetMipmappedArrayLevel(level_array: *mut *mut c_void, mipmap: *mut c_void, level: c_uint) {
        // SAFETY: the driver checks the handle and the out-pointer.
        unsafe { api()?.cuMipmappedArrayGetLevel(level_array, mipmap, level) }
    }

    fn cudaFreeMipmappedArray(mipmap: *mut c_void) {
        if mipmap.is_null() {
            return Ok(());
        }
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuMipmappedArrayDestroy(mipmap) }
    }

    fn cudaFreeArray(array: *mut c_void) {
        if array.is_null() {
            return Ok(());
        }
        // SAFETY: the driver checks the handle.
        unsafe { api()?.cuArrayDestroy(array) }
    }

    fn cudaArrayGetInfo(desc: *mut ChannelFormatDesc, extent: *mut Extent, flags: *mut c_uint, array: *mut c_void) {
        let d = descriptor(array)?;
        // SAFETY: each output is NULL (not wanted) or writable, per the API.
        unsafe {
            if !desc.is_null() {
                desc.write_unaligned(channel_desc(d.format, d.num_channels));
            }
            if !extent.is_null() {
                extent.write_unaligned(Extent { width: d.width, height: d.height, depth: d.depth });
            }
            if !flags.is_null() {
                flags.write_unaligned(d.flags);
            }
        }
        Ok(())
    }

    fn cudaGetChannelDesc(desc: *mut ChannelFormatDesc, array: *const c_void) {
        let out = Out::new(desc)?;
        let d = descriptor(array.cast_mut())?;
        out.write(channel_desc(d.format, d.num_channels));
        Ok(())
    }

    fn cudaMemcpy2DToArray(dst: *mut c_void, w: usize, h: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int) {
        copy_2d(Side::Array(dst, w, h), Side::Memory(src, spitch), width, height, kind, Mode::Blocking)
    }

    fn cudaMemcpy2DToArrayAsync(dst: *mut c_void, w: usize, h: usize, src: *const c_void, spitch: usize, width: usize, height: usize, kind: c_int, s: *mut c_void) {
        copy_2d(Side::Array(dst, w, h), Side::Memory(src, spitch), width, height, kind, Mode::of_async(s, false))
    }

    fn cudaMemcpy2DFromArray(dst: *mut c_void, dpitch: usize, src: *const c_void, w: usize, h: usize, width: usize, height: usize, kind: c_int) {
        copy_2d(Side::Memory(dst, dpitch), Side::Array(src.cast_mut(), w, h), width, height, kind, Mode::Blocking)
    }

    fn cudaMemcpy2DFromArrayAsync(dst: *mut c_void, dpitch: usize, src: *const c_void, w: usize, h: usize, width: usize, height: usize, kind: c_int, s: *mut c_void) {
        copy_2d(Side::Memory(dst, dpitch), Side::Array(src.cast_mut(), w, h), width, height, kind, Mode::of_async(s, false))
    }

    fn cudaMemcpy2DArrayToArray(dst: *mut c_void, dw: usize, dh: usize, src: *const c_void, sw: usize, sh: usize, width: usize, height: usize, kind: c_int) {
        copy_2d(Side::Array(dst, dw, dh), Side::Array(src.cast_mut(), sw, sh), width, height, kind, Mode::Blocking)
    }

    fn cudaMemcpyToArray(dst: *mut c_void, w: usize, h: usize, src: *const c_void, count: usize, kind: c_int) {
        let (width, rows) = linear_rows(dst, count)?;
        copy_2d(Side::Array(dst, w, h), Side::Memory(src, width), width, rows, kind, Mode::Blocking)
    }

    fn cudaMemcpyToArrayAsync(dst: *mut c_void, w: usize, h: usize, src: *const c_void, count: usize, kind: c_int, s: *mut c_void) {
        let (width, rows) = linear_rows(dst, count)?;
        copy_2d(Side::Array(dst, w, h), Side::Memory(src, width), width, rows, kind, Mode::of_async(s, false))
    }

    fn cudaMemcpyFromArray(dst: *mut c_void, src: *const c_void, w: usize, h: usize, count: usize, kind: c_int) {
        let (width, rows) = linear_rows(src.cast_mut(), count)?;
        copy_2d(Side::Memory(dst, width), Side::Array(src.cast_mut(), w, h), width, rows, kind, Mode::Blocking)
    }

    fn cudaMemcpyFromArrayAsync(dst: *mut c_void, src: *const c_void, w: usize, h: usize, count: usize, kind: c_int, s: *mut c_void) {
        let (width, rows) = linear_rows(src.cast_mut(), count)?;
        copy_2d(Side::Memory(dst, width), Side::Array(src.cast_mut(), w, h), width, rows, kind, Mode::of_async(s, false))
    }
}

/// `cudaCreateChannelDesc(x, y, z, w, f)`: the descriptor, by value (not an error code).
#[no_mangle]
pub extern "C" fn cudaCreateChannelDesc(x: c_int, y: c_int, z: c_int, w: c_int, f: c_int) -> ChannelFormatDesc {
    ChannelFormatDesc { x, y, z, w, f }
}
