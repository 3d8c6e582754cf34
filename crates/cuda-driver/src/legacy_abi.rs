//! Entry points NVIDIA's driver still exports for old programs, with the answers it gives
//! in a 64-bit process (measured on an H200, driver 580.159):
//! - the CUDA 2.x memory, array, module-global and texture-reference calls whose device
//!   pointers and sizes are 32-bit (`cuMemAlloc`, `cuMemcpyHtoD`, `cuArrayCreate`, ...,
//!   superseded by the `_v2` forms in CUDA 3.2) answer `CUDA_ERROR_INVALID_CONTEXT`;
//!   `cuDeviceTotalMem` succeeds and writes the size only if it fits in 32 bits;
//! - execution affinity: no device supports an SM-count affinity outside MPS, and a
//!   context reports none.

use crate::diag::fail;
use crate::{CuError, CuResult, Driver};

impl Driver {
    /// A call of the 32-bit-pointer ABI `name`: `CUDA_ERROR_INVALID_CONTEXT`, as NVIDIA's
    /// 64-bit driver answers (no context of that ABI can exist in a 64-bit process).
    pub fn legacy_32bit_call(&self, name: &str) -> CuError {
        fail(
            CuError::INVALID_CONTEXT,
            format_args!("{name}: the CUDA 2.x ABI with 32-bit device pointers (use {name}_v2); NVIDIA's 64-bit driver refuses it the same way"),
        )
    }

    /// `cuDeviceTotalMem` (32-bit size): the size when it fits, else `None` (the call
    /// still succeeds and writes nothing, as NVIDIA's does for an H200's 141 GB).
    pub fn device_total_mem_32(&self, dev: i32) -> CuResult<Option<u32>> {
        Ok(u32::try_from(self.device_total_mem(dev)?).ok())
    }

    /// `cuDeviceGetExecAffinitySupport(type, dev)`: no affinity type is supported (NVIDIA's
    /// answer outside MPS, for `CU_EXEC_AFFINITY_TYPE_SM_COUNT` and beyond).
    pub fn exec_affinity_support(&self, _ty: i32, dev: i32) -> CuResult<bool> {
        self.device_total_mem(dev)?;
        Ok(false)
    }

    /// `cuCtxGetExecAffinity(type)` of the current context: `(type, SM count)` as NVIDIA's
    /// driver writes it for a context without affinity (`CU_EXEC_AFFINITY_TYPE_MAX`, 0);
    /// types other than SM count are `CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY`.
    pub fn ctx_exec_affinity(&self, ty: i32) -> CuResult<(i32, u32)> {
        self.current_context()?;
        if ty != 0 {
            return Err(fail(CuError::UNSUPPORTED_EXEC_AFFINITY, format_args!("cuCtxGetExecAffinity: affinity type {ty} is not supported")));
        }
        Ok((1, 0))
    }
}
