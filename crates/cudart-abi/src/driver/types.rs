//! Driver API types as they cross into the driver (C ABI).

use std::ffi::c_void;

pub type CUresult = u32;
pub type CUdevice = i32;
pub type CUdeviceptr = u64;
pub type CUcontext = *mut c_void;
pub type CUlibrary = *mut c_void;
pub type CUkernel = *mut c_void;
pub type CUfunction = *mut c_void;
pub type CUstream = *mut c_void;
pub type CUevent = *mut c_void;
pub type CUmemoryPool = *mut c_void;
/// `CUipcMemHandle` / `CUipcEventHandle`, passed by value: 64 opaque bytes.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct IpcHandle(pub [u8; 64]);
pub type CUgraph = *mut c_void;
pub type CUgraphNode = *mut c_void;
pub type CUgraphExec = *mut c_void;
pub type CUhostFn = unsafe extern "C" fn(*mut c_void);
pub type CUstreamCallback = unsafe extern "C" fn(CUstream, CUresult, *mut c_void);

/// `CU_STREAM_PER_THREAD`: the calling thread's per-thread default stream.
pub const CU_STREAM_PER_THREAD: CUstream = 2 as CUstream;

pub const CUDA_ERROR_NOT_SUPPORTED: CUresult = 801;
/// `CUDA_ERROR_NOT_FOUND`.
pub const CUDA_ERROR_NOT_FOUND: CUresult = 500;

/// `CUmemLocation` (`cudaMemLocation` has the same layout and values).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CUmemLocation {
    pub kind: i32,
    pub id: i32,
}

/// `CUDA_MEMCPY2D`.
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CudaMemcpy2D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: CUdeviceptr,
    pub src_array: *mut c_void,
    pub src_pitch: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: CUdeviceptr,
    pub dst_array: *mut c_void,
    pub dst_pitch: usize,
    pub width_in_bytes: usize,
    pub height: usize,
}

/// `CUDA_MEMCPY3D` (200 bytes on LP64).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct CudaMemcpy3D {
    pub src_x_in_bytes: usize,
    pub src_y: usize,
    pub src_z: usize,
    pub src_lod: usize,
    pub src_memory_type: u32,
    pub src_host: *const c_void,
    pub src_device: CUdeviceptr,
    pub src_array: *mut c_void,
    pub reserved0: *mut c_void,
    pub src_pitch: usize,
    pub src_height: usize,
    pub dst_x_in_bytes: usize,
    pub dst_y: usize,
    pub dst_z: usize,
    pub dst_lod: usize,
    pub dst_memory_type: u32,
    pub dst_host: *mut c_void,
    pub dst_device: CUdeviceptr,
    pub dst_array: *mut c_void,
    pub reserved1: *mut c_void,
    pub dst_pitch: usize,
    pub dst_height: usize,
    pub width_in_bytes: usize,
    pub height: usize,
    pub depth: usize,
}

/// `CUmemorytype` values.
pub const CU_MEMORYTYPE_HOST: u32 = 1;
pub const CU_MEMORYTYPE_DEVICE: u32 = 2;
pub const CU_MEMORYTYPE_UNIFIED: u32 = 4;

#[cfg(test)]
mod tests {
    use super::*;
    use std::mem::{offset_of, size_of};

    #[test]
    fn memcpy2d_layout() {
        // CUDA_MEMCPY2D as cuda.h documents it: 16 fields, 128 bytes on LP64.
        assert_eq!(offset_of!(CudaMemcpy2D, src_memory_type), 16);
        assert_eq!(offset_of!(CudaMemcpy2D, src_host), 24);
        assert_eq!(offset_of!(CudaMemcpy2D, src_pitch), 48);
        assert_eq!(offset_of!(CudaMemcpy2D, dst_memory_type), 72);
        assert_eq!(offset_of!(CudaMemcpy2D, dst_pitch), 104);
        assert_eq!(offset_of!(CudaMemcpy2D, height), 120);
        assert_eq!(size_of::<CudaMemcpy2D>(), 128);
        assert_eq!(size_of::<CUmemLocation>(), 8);
        // CUDA_MEMCPY3D: 25 eight-byte words.
        assert_eq!(offset_of!(CudaMemcpy3D, src_memory_type), 32);
        assert_eq!(offset_of!(CudaMemcpy3D, src_pitch), 72);
        assert_eq!(offset_of!(CudaMemcpy3D, dst_memory_type), 120);
        assert_eq!(offset_of!(CudaMemcpy3D, dst_pitch), 160);
        assert_eq!(offset_of!(CudaMemcpy3D, depth), 192);
        assert_eq!(size_of::<CudaMemcpy3D>(), 200);
    }
}

/// `CUDA_ARRAY3D_DESCRIPTOR`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct Array3dDescriptor {
    pub width: usize,
    pub height: usize,
    pub depth: usize,
    pub format: u32,
    pub num_channels: u32,
    pub flags: u32,
}

/// `CUDA_RESOURCE_DESC`: `res` is the union.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
pub struct ResourceDesc {
    pub res_type: u32,
    pub res: [u64; 16],
    pub flags: u32,
}

/// `CUDA_TEXTURE_DESC`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default)]
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
    assert!(std::mem::size_of::<ResourceDesc>() == 144);
    assert!(std::mem::size_of::<TextureDesc>() == 104);
};

/// `CU_TRSF_*` texture flags.
pub const CU_TRSF_READ_AS_INTEGER: u32 = 0x01;
pub const CU_TRSF_NORMALIZED_COORDINATES: u32 = 0x02;
pub const CU_TRSF_SRGB: u32 = 0x10;
pub const CU_TRSF_SEAMLESS_CUBEMAP: u32 = 0x40;
pub const CU_MEMORYTYPE_ARRAY: u32 = 3;
