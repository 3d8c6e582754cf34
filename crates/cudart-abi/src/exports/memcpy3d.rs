//! Three-dimensional pitched memory (runtime API "Memory Management": cudaMalloc3D,
//! cudaMemcpy3D, cudaMemset3D and their `Async`/per-thread forms), between pitched memory
//! and CUDA arrays.

use std::ffi::{c_int, c_void};

use super::api;
use super::memcpy::{kind_of, memory_types, Mode};
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUdeviceptr, CudaMemcpy3D, CU_MEMORYTYPE_ARRAY, CU_STREAM_PER_THREAD};
use crate::error::CudaError;

/// `cudaPos`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Pos {
    pub x: usize,
    pub y: usize,
    pub z: usize,
}

/// `cudaExtent` (width in bytes for pitched memory).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Extent {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
}

/// `cudaPitchedPtr`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct PitchedPtr {
    pub ptr: *mut c_void,
    pub pitch: usize,
    pub xsize: usize,
    pub ysize: usize,
}

/// `cudaMemcpy3DParms`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct Memcpy3DParms {
    pub src_array: *mut c_void,
    pub src_pos: Pos,
    pub src_ptr: PitchedPtr,
    pub dst_array: *mut c_void,
    pub dst_pos: Pos,
    pub dst_ptr: PitchedPtr,
    pub extent: Extent,
    pub kind: c_int,
}

const _: () = assert!(std::mem::size_of::<Memcpy3DParms>() == 160);

/// The driver's descriptor of a copy between pitched memory and CUDA arrays. Where an
/// array is involved, positions and the extent's width count elements, not bytes
/// (runtime API, `cudaMemcpy3D`).
pub(crate) fn descriptor(p: &Memcpy3DParms) -> RtResult<CudaMemcpy3D> {
    let src_array = !p.src_array.is_null();
    let dst_array = !p.dst_array.is_null();
    if (!src_array && p.src_ptr.ptr.is_null()) || (!dst_array && p.dst_ptr.ptr.is_null()) {
        return Err(CudaError::INVALID_VALUE);
    }
    let (src_type, dst_type) = memory_types(kind_of(p.kind)?);
    let element = if src_array {
        super::array::element_bytes(p.src_array)?
    } else if dst_array {
        super::array::element_bytes(p.dst_array)?
    } else {
        1
    };
    let width = p.extent.width.checked_mul(element).ok_or(CudaError::INVALID_VALUE)?;
    if (!src_array && width > p.src_ptr.pitch) || (!dst_array && width > p.dst_ptr.pitch) {
        return Err(CudaError::INVALID_PITCH_VALUE);
    }
    let side_type = |array: bool, t: u32| if array { CU_MEMORYTYPE_ARRAY } else { t };
    let x = |array: bool, x: usize| if array { x * element } else { x };
    Ok(CudaMemcpy3D {
        src_x_in_bytes: x(src_array, p.src_pos.x),
        src_y: p.src_pos.y,
        src_z: p.src_pos.z,
        src_lod: 0,
        src_memory_type: side_type(src_array, src_type),
        src_host: p.src_ptr.ptr,
        src_device: p.src_ptr.ptr as CUdeviceptr,
        src_array: p.src_array,
        reserved0: std::ptr::null_mut(),
        src_pitch: p.src_ptr.pitch,
        src_height: p.src_ptr.ysize,
        dst_x_in_bytes: x(dst_array, p.dst_pos.x),
        dst_y: p.dst_pos.y,
        dst_z: p.dst_pos.z,
        dst_lod: 0,
        dst_memory_type: side_type(dst_array, dst_type),
        dst_host: p.dst_ptr.ptr,
        dst_device: p.dst_ptr.ptr as CUdeviceptr,
        dst_array: p.dst_array,
        reserved1: std::ptr::null_mut(),
        dst_pitch: p.dst_ptr.pitch,
        dst_height: p.dst_ptr.ysize,
        width_in_bytes: width,
        height: p.extent.height,
        depth: p.extent.depth,
    })
}

fn copy_3d(p: *const Memcpy3DParms, mode: Mode) -> RtResult {
    if p.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: non-NULL; the caller's structure.
    let p = unsafe { p.read_unaligned() };
    let desc = descriptor(&p)?;
    let api = api()?;
    if p.extent.width == 0 || p.extent.height == 0 || p.extent.depth == 0 {
        return Ok(());
    }
    // SAFETY: a complete descriptor; the driver checks the ranges.
    unsafe {
        match mode {
            Mode::Blocking => api.cuMemcpy3D(&desc),
            Mode::Async(s) => api.cuMemcpy3DAsync(&desc, s),
            Mode::BlockingPerThread => {
                api.cuMemcpy3DAsync(&desc, CU_STREAM_PER_THREAD)?;
                api.cuStreamSynchronize(CU_STREAM_PER_THREAD)
            }
        }
    }
}

/// Fills `extent` (width in bytes) of a pitched allocation one slice at a time: slices
/// are `pitch * ysize` bytes apart. A width beyond the pitch, or a multi-slice fill taller
/// than the slice height, is `cudaErrorInvalidValue`.
fn fill_3d(p: PitchedPtr, value: c_int, extent: Extent, mode: Mode) -> RtResult {
    let api = api()?;
    if extent.width == 0 || extent.height == 0 || extent.depth == 0 {
        return Ok(());
    }
    if p.ptr.is_null() || extent.width > p.pitch || (extent.depth > 1 && extent.height > p.ysize) {
        return Err(CudaError::INVALID_VALUE);
    }
    let slice = p.pitch.checked_mul(p.ysize).ok_or(CudaError::INVALID_VALUE)?;
    let stream = match mode {
        Mode::Blocking => None,
        Mode::Async(s) => Some(s),
        Mode::BlockingPerThread => Some(CU_STREAM_PER_THREAD),
    };
    for z in 0..extent.depth {
        let base = p.ptr as CUdeviceptr + (z * slice) as CUdeviceptr;
        // SAFETY: the driver checks the range against its allocations.
        unsafe {
            match stream {
                None => api.cuMemsetD2D8(base, p.pitch, value as u8, extent.width, extent.height)?,
                Some(s) => api.cuMemsetD2D8Async(base, p.pitch, value as u8, extent.width, extent.height, s)?,
            }
        }
    }
    if let Mode::BlockingPerThread = mode {
        // SAFETY: the per-thread stream handle.
        unsafe { api.cuStreamSynchronize(CU_STREAM_PER_THREAD) }?;
    }
    Ok(())
}

export! {
    /// A pitched allocation of `height * depth` rows of `width` bytes, as
    /// `cudaMallocPitch` makes them; `xsize`/`ysize` record the extent.
    fn cudaMalloc3D(pitched: *mut PitchedPtr, extent: Extent) {
        let out = Out::new(pitched)?;
        let rows = extent.height.checked_mul(extent.depth).ok_or(CudaError::MEMORY_ALLOCATION)?;
        let api = api()?;
        let (mut d, mut pitch) = (0, 0);
        if extent.width != 0 && rows != 0 {
            // SAFETY: valid out-pointers. Element size 4 as for `cudaMallocPitch`.
            unsafe { api.cuMemAllocPitch(&mut d, &mut pitch, extent.width, rows, 4) }?;
        }
        out.write(PitchedPtr { ptr: d as *mut c_void, pitch, xsize: extent.width, ysize: extent.height });
        Ok(())
    }

    fn cudaMemcpy3D(p: *const Memcpy3DParms) {
        copy_3d(p, Mode::Blocking)
    }

    fn cudaMemcpy3D_ptds(p: *const Memcpy3DParms) {
        copy_3d(p, Mode::BlockingPerThread)
    }

    fn cudaMemcpy3DAsync(p: *const Memcpy3DParms, s: *mut c_void) {
        copy_3d(p, Mode::of_async(s, false))
    }

    fn cudaMemcpy3DAsync_ptsz(p: *const Memcpy3DParms, s: *mut c_void) {
        copy_3d(p, Mode::of_async(s, true))
    }

    fn cudaMemset3D(p: PitchedPtr, value: c_int, extent: Extent) {
        fill_3d(p, value, extent, Mode::Blocking)
    }

    fn cudaMemset3D_ptds(p: PitchedPtr, value: c_int, extent: Extent) {
        fill_3d(p, value, extent, Mode::BlockingPerThread)
    }

    fn cudaMemset3DAsync(p: PitchedPtr, value: c_int, extent: Extent, s: *mut c_void) {
        fill_3d(p, value, extent, Mode::of_async(s, false))
    }

    fn cudaMemset3DAsync_ptsz(p: PitchedPtr, value: c_int, extent: Extent, s: *mut c_void) {
        fill_3d(p, value, extent, Mode::of_async(s, true))
    }
}
