//! The launch API before `cuLaunchKernel` (CUDA Driver API "Execution Control
//! [DEPRECATED]": `cuFuncSetBlockShape`, `cuFuncSetSharedSize`, `cuParamSetSize`,
//! `cuParamSeti`/`f`/`v`, `cuLaunch`, `cuLaunchGrid`, `cuLaunchGridAsync`) and
//! `cuCtxAttach` ("Context Management [DEPRECATED]").
//!
//! Each function keeps a block shape, a dynamic shared-memory size and a parameter buffer
//! the program fills at the offsets it chooses (the kernel's `.param` layout); a launch
//! passes that buffer as `cuLaunchKernel`'s `CU_LAUNCH_PARAM_BUFFER_POINTER` would, so it
//! is validated and queued as any launch. NVIDIA's driver still exports all of these
//! (580.159), and programs that load the driver with `dlsym` (NVIDIA's
//! `matrixMulDynlinkJIT` sample) require them.

use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::Mutex;

use crate::diag::fail;
use crate::launch::{LAUNCH_PARAM_BUFFER_POINTER, LAUNCH_PARAM_BUFFER_SIZE, LAUNCH_PARAM_END};
use crate::{CtxHandle, CuError, CuResult, Driver, FunctionHandle, StreamHandle};

/// The most parameter bytes a kernel takes (since CUDA 12.1; NVIDIA's driver takes a
/// `cuParamSetSize` of 4097, past the old 4 KiB limit).
const MAX_PARAM_BYTES: usize = 32764;

/// What the legacy calls set for one function.
#[derive(Default)]
struct Setup {
    /// `cuFuncSetBlockShape` (0 until set: launching then fails as an empty block does).
    block: [u32; 3],
    shared_bytes: u32,
    params: Vec<u8>,
}

/// The setups of every function, and the attachments of `cuCtxAttach`.
#[derive(Default)]
pub(crate) struct State {
    setups: Mutex<HashMap<u64, Setup>>,
    /// Contexts attached to more times than detached from.
    attached: Mutex<HashMap<u64, u32>>,
}

impl Driver {
    fn with_setup<T>(&self, f: FunctionHandle, change: impl FnOnce(&mut Setup) -> CuResult<T>) -> CuResult<T> {
        self.function(f)?;
        let mut setups = self.legacy.setups.lock().unwrap_or_else(|e| e.into_inner());
        change(setups.entry(f.0).or_default())
    }

    /// `cuFuncSetBlockShape`: every extent at least 1.
    pub fn func_set_block_shape(&self, f: FunctionHandle, x: i32, y: i32, z: i32) -> CuResult<()> {
        if x < 1 || y < 1 || z < 1 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuFuncSetBlockShape: {x} x {y} x {z}")));
        }
        self.with_setup(f, |s| {
            s.block = [x as u32, y as u32, z as u32];
            Ok(())
        })
    }

    /// `cuFuncSetSharedSize`: the dynamic shared memory of the function's launches.
    pub fn func_set_shared_size(&self, f: FunctionHandle, bytes: u32) -> CuResult<()> {
        self.with_setup(f, |s| {
            s.shared_bytes = bytes;
            Ok(())
        })
    }

    /// `cuParamSetSize`: the parameter bytes the launches pass.
    pub fn param_set_size(&self, f: FunctionHandle, bytes: u32) -> CuResult<()> {
        if bytes as usize > MAX_PARAM_BYTES {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuParamSetSize: {bytes} bytes (at most {MAX_PARAM_BYTES})")));
        }
        self.with_setup(f, |s| {
            s.params.resize(bytes as usize, 0);
            Ok(())
        })
    }

    /// `cuParamSeti`, `cuParamSetf`, `cuParamSetv`: `value` at byte `offset` of the
    /// parameter buffer.
    pub fn param_set(&self, f: FunctionHandle, offset: u32, value: &[u8]) -> CuResult<()> {
        let end = (offset as usize).checked_add(value.len()).filter(|&e| e <= MAX_PARAM_BYTES);
        let end = end.ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuParamSet*: {} bytes at offset {offset}", value.len())))?;
        self.with_setup(f, |s| {
            if s.params.len() < end {
                s.params.resize(end, 0);
            }
            s.params[offset as usize..end].copy_from_slice(value);
            Ok(())
        })
    }

    /// `cuLaunch` (a 1 x 1 grid), `cuLaunchGrid` and `cuLaunchGridAsync`: a launch of
    /// what the calls above set.
    pub fn launch_grid(&self, f: FunctionHandle, width: i32, height: i32, stream: StreamHandle) -> CuResult<()> {
        if width < 1 || height < 1 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuLaunchGrid: a {width} x {height} grid")));
        }
        let needed = self.function(f)?.info.param_buffer_size;
        let (block, shared_bytes, mut params) = self.with_setup(f, |s| Ok((s.block, s.shared_bytes, s.params.clone())))?;
        if params.len() < needed {
            params.resize(needed, 0);
        }
        let mut size = params.len();
        let mut extra: [*mut c_void; 5] = [
            LAUNCH_PARAM_BUFFER_POINTER as *mut c_void,
            params.as_mut_ptr().cast(),
            LAUNCH_PARAM_BUFFER_SIZE as *mut c_void,
            (&mut size as *mut usize).cast(),
            LAUNCH_PARAM_END as *mut c_void,
        ];
        // SAFETY: `extra` is a well-formed list whose buffer holds `size` bytes; the
        // launch copies them before returning.
        unsafe {
            self.launch_kernel(f.as_raw(), [width as u32, height as u32, 1], block, shared_bytes, stream, std::ptr::null_mut(), extra.as_mut_ptr())
        }
    }

    /// Forgets the setups of functions that are gone (their module was unloaded).
    pub(crate) fn forget_legacy_setups(&self) {
        let mut setups = self.legacy.setups.lock().unwrap_or_else(|e| e.into_inner());
        setups.retain(|&f, _| self.function(FunctionHandle(f)).is_ok());
    }

    /// `cuCtxAttach`: the current context, whose usage count goes up by one; `flags`
    /// must be 0 (API reference).
    pub fn ctx_attach(&self, flags: u32) -> CuResult<CtxHandle> {
        if flags != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxAttach: flags {flags:#x}")));
        }
        let ctx = self.current_context()?.handle;
        *self.legacy.attached.lock().unwrap_or_else(|e| e.into_inner()).entry(ctx.0).or_default() += 1;
        Ok(ctx)
    }

    /// Takes back one `cuCtxAttach` of `ctx`; false if none is left (`cuCtxDetach` then
    /// destroys the context).
    pub(crate) fn ctx_take_attachment(&self, ctx: CtxHandle) -> bool {
        let mut attached = self.legacy.attached.lock().unwrap_or_else(|e| e.into_inner());
        match attached.get_mut(&ctx.0) {
            Some(n) if *n > 1 => {
                *n -= 1;
                true
            }
            Some(_) => attached.remove(&ctx.0).is_some(),
            None => false,
        }
    }
}
