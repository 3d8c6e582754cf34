//! The launch API before `cuLaunchKernel` (CUDA Driver API "Execution Control
//! [DEPRECATED]") and `cuCtxAttach`: the driver keeps each function's block shape, shared
//! size and parameter buffer (`cuda_driver::legacy_launch`) and launches them as
//! `cuLaunchKernel` does.

use std::ffi::{c_int, c_uint, c_void};

use cuda_driver::{CuError, StreamHandle};

use super::{ctx_raw, drv, function_handle, stream_handle};
use crate::boundary::{export, slice, AbiResult, Out};
use crate::types::{CUcontext, CUfunction, CUstream};

/// `offset` as a byte offset (negative -> `CUDA_ERROR_INVALID_VALUE`).
fn offset_of(offset: c_int) -> AbiResult<u32> {
    u32::try_from(offset).map_err(|_| CuError::INVALID_VALUE)
}

export! {
    /// `cuCtxAttach(CUcontext* pctx, unsigned int flags)`.
    fn cuCtxAttach(pctx: *mut CUcontext, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(pctx) }?;
        out.write(ctx_raw(drv()?.ctx_attach(flags)?));
        Ok(())
    }

    /// `cuFuncSetBlockShape(CUfunction hfunc, int x, int y, int z)`.
    fn cuFuncSetBlockShape(f: CUfunction, x: c_int, y: c_int, z: c_int) {
        drv()?.func_set_block_shape(function_handle(f), x, y, z)
    }

    /// `cuFuncSetSharedSize(CUfunction hfunc, unsigned int bytes)`.
    fn cuFuncSetSharedSize(f: CUfunction, bytes: c_uint) {
        drv()?.func_set_shared_size(function_handle(f), bytes)
    }

    /// `cuParamSetSize(CUfunction hfunc, unsigned int numbytes)`.
    fn cuParamSetSize(f: CUfunction, numbytes: c_uint) {
        drv()?.param_set_size(function_handle(f), numbytes)
    }

    /// `cuParamSeti(CUfunction hfunc, int offset, unsigned int value)`.
    fn cuParamSeti(f: CUfunction, offset: c_int, value: c_uint) {
        drv()?.param_set(function_handle(f), offset_of(offset)?, &value.to_ne_bytes())
    }

    /// `cuParamSetf(CUfunction hfunc, int offset, float value)`.
    fn cuParamSetf(f: CUfunction, offset: c_int, value: f32) {
        drv()?.param_set(function_handle(f), offset_of(offset)?, &value.to_ne_bytes())
    }

    /// `cuParamSetv(CUfunction hfunc, int offset, void* ptr, unsigned int numbytes)`.
    fn cuParamSetv(f: CUfunction, offset: c_int, ptr: *mut c_void, numbytes: c_uint) {
        // SAFETY: `ptr` is readable for `numbytes` bytes, per the API.
        let bytes = unsafe { slice(ptr.cast::<u8>().cast_const(), numbytes as usize) }?;
        drv()?.param_set(function_handle(f), offset_of(offset)?, bytes)
    }

    /// `cuLaunch(CUfunction f)`: a grid of one block.
    fn cuLaunch(f: CUfunction) {
        drv()?.launch_grid(function_handle(f), 1, 1, StreamHandle::LEGACY)
    }

    /// `cuLaunchGrid(CUfunction f, int grid_width, int grid_height)`.
    fn cuLaunchGrid(f: CUfunction, grid_width: c_int, grid_height: c_int) {
        drv()?.launch_grid(function_handle(f), grid_width, grid_height, StreamHandle::LEGACY)
    }

    /// `cuLaunchGridAsync(CUfunction f, int grid_width, int grid_height, CUstream hStream)`.
    fn cuLaunchGridAsync(f: CUfunction, grid_width: c_int, grid_height: c_int, s: CUstream) {
        drv()?.launch_grid(function_handle(f), grid_width, grid_height, stream_handle(s))
    }
}
