//! The legacy entry points of `cuda_driver::legacy_abi`: NVIDIA's driver exports the CUDA
//! 2.x ABI of the memory, array, module-global and texture-reference calls (32-bit device
//! pointers and sizes) and answers `CUDA_ERROR_INVALID_CONTEXT` in a 64-bit process;
//! these take that ABI's parameters and answer the same;
//! `cuDeviceTotalMem`'s 32-bit size, execution affinity and `cuPointerSetAttribute`.

use std::ffi::{c_char, c_int, c_uint, c_void};

use cuda_driver::CuError;

use super::drv;
use crate::boundary::{export, Out};
use crate::types::{CUdevice, CUdeviceptr};

/// `CUexecAffinityParam`: the type and, for `CU_EXEC_AFFINITY_TYPE_SM_COUNT`, the count.
#[repr(C)]
pub struct CUexecAffinityParam {
    pub kind: c_int,
    pub sm_count: c_uint,
}

export! {
    /// `cuMemGetInfo(unsigned int *free, unsigned int *total)`: the CUDA 2.x ABI.
    fn cuMemGetInfo(_free: *mut c_uint, _total: *mut c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemGetInfo"))
    }

    /// `cuMemAlloc(CUdeviceptr_v1 *dptr, unsigned int bytesize)`: the CUDA 2.x ABI.
    fn cuMemAlloc(_dptr: *mut c_uint, _bytesize: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemAlloc"))
    }

    /// `cuMemAllocPitch(CUdeviceptr_v1 *dptr, unsigned int *pPitch, unsigned int WidthInBytes, unsigned int Height, unsigned int ElementSizeBytes)`: the CUDA 2.x ABI.
    fn cuMemAllocPitch(_dptr: *mut c_uint, _pitch: *mut c_uint, _width_in_bytes: c_uint, _height: c_uint, _element_size_bytes: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemAllocPitch"))
    }

    /// `cuMemFree(CUdeviceptr_v1 dptr)`: the CUDA 2.x ABI.
    fn cuMemFree(_dptr: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemFree"))
    }

    /// `cuMemGetAddressRange(CUdeviceptr_v1 *pbase, unsigned int *psize, CUdeviceptr_v1 dptr)`: the CUDA 2.x ABI.
    fn cuMemGetAddressRange(_base: *mut c_uint, _size: *mut c_uint, _dptr: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemGetAddressRange"))
    }

    /// `cuMemHostGetDevicePointer(CUdeviceptr_v1 *pdptr, void *p, unsigned int Flags)`: the CUDA 2.x ABI.
    fn cuMemHostGetDevicePointer(_dptr: *mut c_uint, _p: *mut c_void, _flags: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemHostGetDevicePointer"))
    }

    /// `cuModuleGetGlobal(CUdeviceptr_v1 *dptr, unsigned int *bytes, CUmodule hmod, const char *name)`: the CUDA 2.x ABI.
    fn cuModuleGetGlobal(_dptr: *mut c_uint, _bytes: *mut c_uint, _module: *mut c_void, _name: *const c_char) {
        Err(drv()?.legacy_32bit_call("cuModuleGetGlobal"))
    }

    /// `cuMemcpyHtoD(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyHtoD(_dst: c_uint, _src: *const c_void, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyHtoD"))
    }

    /// `cuMemcpyDtoH(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyDtoH(_dst: *mut c_void, _src: c_uint, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyDtoH"))
    }

    /// `cuMemcpyDtoD(CUdeviceptr_v1 dstDevice, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyDtoD(_dst: c_uint, _src: c_uint, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyDtoD"))
    }

    /// `cuMemcpyDtoA(CUarray dstArray, unsigned int dstOffset, CUdeviceptr_v1 srcDevice, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyDtoA(_dst: *mut c_void, _dst_offset: c_uint, _src: c_uint, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyDtoA"))
    }

    /// `cuMemcpyAtoD(CUdeviceptr_v1 dstDevice, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyAtoD(_dst: c_uint, _src: *mut c_void, _src_offset: c_uint, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyAtoD"))
    }

    /// `cuMemcpyHtoA(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyHtoA(_dst: *mut c_void, _dst_offset: c_uint, _src: *const c_void, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyHtoA"))
    }

    /// `cuMemcpyAtoH(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyAtoH(_dst: *mut c_void, _src: *mut c_void, _src_offset: c_uint, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyAtoH"))
    }

    /// `cuMemcpyAtoA(CUarray dstArray, unsigned int dstOffset, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount)`: the CUDA 2.x ABI.
    fn cuMemcpyAtoA(_dst: *mut c_void, _dst_offset: c_uint, _src: *mut c_void, _src_offset: c_uint, _byte_count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemcpyAtoA"))
    }

    /// `cuMemcpyHtoAAsync(CUarray dstArray, unsigned int dstOffset, const void *srcHost, unsigned int ByteCount, CUstream hStream)`: the CUDA 2.x ABI.
    fn cuMemcpyHtoAAsync(_dst: *mut c_void, _dst_offset: c_uint, _src: *const c_void, _byte_count: c_uint, _stream: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpyHtoAAsync"))
    }

    /// `cuMemcpyAtoHAsync(void *dstHost, CUarray srcArray, unsigned int srcOffset, unsigned int ByteCount, CUstream hStream)`: the CUDA 2.x ABI.
    fn cuMemcpyAtoHAsync(_dst: *mut c_void, _src: *mut c_void, _src_offset: c_uint, _byte_count: c_uint, _stream: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpyAtoHAsync"))
    }

    /// `cuMemcpy2D(const CUDA_MEMCPY2D_v1 *pCopy)`: the CUDA 2.x ABI.
    fn cuMemcpy2D(_copy: *const c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpy2D"))
    }

    /// `cuMemcpy2DUnaligned(const CUDA_MEMCPY2D_v1 *pCopy)`: the CUDA 2.x ABI.
    fn cuMemcpy2DUnaligned(_copy: *const c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpy2DUnaligned"))
    }

    /// `cuMemcpy3D(const CUDA_MEMCPY3D_v1 *pCopy)`: the CUDA 2.x ABI.
    fn cuMemcpy3D(_copy: *const c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpy3D"))
    }

    /// `cuMemcpyHtoDAsync(CUdeviceptr_v1 dstDevice, const void *srcHost, unsigned int ByteCount, CUstream hStream)`: the CUDA 2.x ABI.
    fn cuMemcpyHtoDAsync(_dst: c_uint, _src: *const c_void, _byte_count: c_uint, _stream: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpyHtoDAsync"))
    }

    /// `cuMemcpyDtoHAsync(void *dstHost, CUdeviceptr_v1 srcDevice, unsigned int ByteCount, CUstream hStream)`: the CUDA 2.x ABI.
    fn cuMemcpyDtoHAsync(_dst: *mut c_void, _src: c_uint, _byte_count: c_uint, _stream: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpyDtoHAsync"))
    }

    /// `cuMemcpy2DAsync(const CUDA_MEMCPY2D_v1 *pCopy, CUstream hStream)`: the CUDA 2.x ABI.
    fn cuMemcpy2DAsync(_copy: *const c_void, _stream: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpy2DAsync"))
    }

    /// `cuMemcpy3DAsync(const CUDA_MEMCPY3D_v1 *pCopy, CUstream hStream)`: the CUDA 2.x ABI.
    fn cuMemcpy3DAsync(_copy: *const c_void, _stream: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuMemcpy3DAsync"))
    }

    /// `cuMemsetD8(CUdeviceptr_v1 dstDevice, unsigned char uc, unsigned int N)`: the CUDA 2.x ABI.
    fn cuMemsetD8(_dst: c_uint, _value: u8, _count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemsetD8"))
    }

    /// `cuMemsetD16(CUdeviceptr_v1 dstDevice, unsigned short us, unsigned int N)`: the CUDA 2.x ABI.
    fn cuMemsetD16(_dst: c_uint, _value: u16, _count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemsetD16"))
    }

    /// `cuMemsetD32(CUdeviceptr_v1 dstDevice, unsigned int ui, unsigned int N)`: the CUDA 2.x ABI.
    fn cuMemsetD32(_dst: c_uint, _value: c_uint, _count: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemsetD32"))
    }

    /// `cuMemsetD2D8(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned char uc, unsigned int Width, unsigned int Height)`: the CUDA 2.x ABI.
    fn cuMemsetD2D8(_dst: c_uint, _pitch: c_uint, _value: u8, _width: c_uint, _height: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemsetD2D8"))
    }

    /// `cuMemsetD2D16(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned short us, unsigned int Width, unsigned int Height)`: the CUDA 2.x ABI.
    fn cuMemsetD2D16(_dst: c_uint, _pitch: c_uint, _value: u16, _width: c_uint, _height: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemsetD2D16"))
    }

    /// `cuMemsetD2D32(CUdeviceptr_v1 dstDevice, unsigned int dstPitch, unsigned int ui, unsigned int Width, unsigned int Height)`: the CUDA 2.x ABI.
    fn cuMemsetD2D32(_dst: c_uint, _pitch: c_uint, _value: c_uint, _width: c_uint, _height: c_uint) {
        Err(drv()?.legacy_32bit_call("cuMemsetD2D32"))
    }

    /// `cuArrayCreate(CUarray *pHandle, const CUDA_ARRAY_DESCRIPTOR_v1 *pAllocateArray)`: the CUDA 2.x ABI.
    fn cuArrayCreate(_array: *mut *mut c_void, _descriptor: *const c_void) {
        Err(drv()?.legacy_32bit_call("cuArrayCreate"))
    }

    /// `cuArrayGetDescriptor(CUDA_ARRAY_DESCRIPTOR_v1 *pArrayDescriptor, CUarray hArray)`: the CUDA 2.x ABI.
    fn cuArrayGetDescriptor(_descriptor: *mut c_void, _array: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuArrayGetDescriptor"))
    }

    /// `cuArray3DCreate(CUarray *pHandle, const CUDA_ARRAY3D_DESCRIPTOR_v1 *pAllocateArray)`: the CUDA 2.x ABI.
    fn cuArray3DCreate(_array: *mut *mut c_void, _descriptor: *const c_void) {
        Err(drv()?.legacy_32bit_call("cuArray3DCreate"))
    }

    /// `cuArray3DGetDescriptor(CUDA_ARRAY3D_DESCRIPTOR_v1 *pArrayDescriptor, CUarray hArray)`: the CUDA 2.x ABI.
    fn cuArray3DGetDescriptor(_descriptor: *mut c_void, _array: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuArray3DGetDescriptor"))
    }

    /// `cuTexRefSetAddress(unsigned int *ByteOffset, CUtexref hTexRef, CUdeviceptr_v1 dptr, unsigned int bytes)`: the CUDA 2.x ABI.
    fn cuTexRefSetAddress(_byte_offset: *mut c_uint, _texref: *mut c_void, _dptr: c_uint, _bytes: c_uint) {
        Err(drv()?.legacy_32bit_call("cuTexRefSetAddress"))
    }

    /// `cuTexRefSetAddress2D(CUtexref hTexRef, const CUDA_ARRAY_DESCRIPTOR_v1 *desc, CUdeviceptr_v1 dptr, unsigned int Pitch)`: the CUDA 2.x ABI.
    fn cuTexRefSetAddress2D(_texref: *mut c_void, _descriptor: *const c_void, _dptr: c_uint, _pitch: c_uint) {
        Err(drv()?.legacy_32bit_call("cuTexRefSetAddress2D"))
    }

    /// `cuTexRefGetAddress(CUdeviceptr_v1 *pdptr, CUtexref hTexRef)`: the CUDA 2.x ABI.
    fn cuTexRefGetAddress(_dptr: *mut c_uint, _texref: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuTexRefGetAddress"))
    }

    /// `cuGraphicsResourceGetMappedPointer(CUdeviceptr_v1 *pDevPtr, unsigned int *pSize, CUgraphicsResource resource)`: the CUDA 2.x ABI.
    fn cuGraphicsResourceGetMappedPointer(_dptr: *mut c_uint, _size: *mut c_uint, _resource: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuGraphicsResourceGetMappedPointer"))
    }

    /// `cuGLMapBufferObject(CUdeviceptr_v1 *dptr, unsigned int *size, GLuint buffer)`: the CUDA 2.x ABI.
    fn cuGLMapBufferObject(_dptr: *mut c_uint, _size: *mut c_uint, _buffer: c_uint) {
        Err(drv()?.legacy_32bit_call("cuGLMapBufferObject"))
    }

    /// `cuGLMapBufferObjectAsync(CUdeviceptr_v1 *dptr, unsigned int *size, GLuint buffer, CUstream hStream)`: the CUDA 2.x ABI.
    fn cuGLMapBufferObjectAsync(_dptr: *mut c_uint, _size: *mut c_uint, _buffer: c_uint, _stream: *mut c_void) {
        Err(drv()?.legacy_32bit_call("cuGLMapBufferObjectAsync"))
    }

    /// `cuDeviceTotalMem(unsigned int* bytes, CUdevice dev)` (CUDA 2.x): writes the size
    /// only when it fits in 32 bits, and succeeds either way, as NVIDIA's driver does.
    fn cuDeviceTotalMem(bytes: *mut c_uint, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(bytes) }?;
        if let Some(total) = drv()?.device_total_mem_32(dev)? {
            out.write(total);
        }
        Ok(())
    }

    /// `cuDeviceGetExecAffinitySupport(int* pi, CUexecAffinityType type, CUdevice dev)`.
    fn cuDeviceGetExecAffinitySupport(pi: *mut c_int, kind: c_int, dev: CUdevice) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pi) }?;
        out.write(c_int::from(drv()?.exec_affinity_support(kind, dev)?));
        Ok(())
    }

    /// `cuCtxGetExecAffinity(CUexecAffinityParam* pExecAffinity, CUexecAffinityType type)`.
    fn cuCtxGetExecAffinity(param: *mut CUexecAffinityParam, kind: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(param) }?;
        let (kind, sm_count) = drv()?.ctx_exec_affinity(kind)?;
        out.write(CUexecAffinityParam { kind, sm_count });
        Ok(())
    }

    /// `cuPointerSetAttribute(const void* value, CUpointer_attribute attribute, CUdeviceptr ptr)`:
    /// `CU_POINTER_ATTRIBUTE_SYNC_MEMOPS` (a boolean `int`) only.
    fn cuPointerSetAttribute(value: *const c_void, attribute: c_int, ptr: CUdeviceptr) {
        if value.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: non-NULL; the attribute's value is an `int`.
        let on = unsafe { value.cast::<c_int>().read_unaligned() } != 0;
        drv()?.pointer_set_sync_memops(attribute, ptr, on)
    }
}
