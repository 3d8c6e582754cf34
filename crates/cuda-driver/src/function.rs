//! Functions (`CUfunction`): one kernel of a loaded module, with its attributes.
//!
//! `cuFuncGetAttribute`/`cuFuncSetAttribute` and the `cuKernel*Attribute` forms share
//! [`Driver::function_attribute`] and [`Driver::function_set_attribute`]. Settable
//! attributes live in a [`FuncAttrs`] shared by every function made from the same
//! `CUkernel`, so `cuKernelSetAttribute` applies in every context.

use std::ffi::{c_char, CString};
use std::sync::{Arc, Mutex, MutexGuard};

use backend_api::{KernelInfo, LoadedModule};

use crate::diag::fail;
use crate::{CtxHandle, CuError, CuResult, Driver, FunctionHandle, ModuleHandle};

/// `CUfunction_attribute` ids.
pub mod attr {
    pub const MAX_THREADS_PER_BLOCK: i32 = 0;
    pub const SHARED_SIZE_BYTES: i32 = 1;
    pub const CONST_SIZE_BYTES: i32 = 2;
    pub const LOCAL_SIZE_BYTES: i32 = 3;
    pub const NUM_REGS: i32 = 4;
    pub const PTX_VERSION: i32 = 5;
    pub const BINARY_VERSION: i32 = 6;
    pub const CACHE_MODE_CA: i32 = 7;
    pub const MAX_DYNAMIC_SHARED_SIZE_BYTES: i32 = 8;
    pub const PREFERRED_SHARED_MEMORY_CARVEOUT: i32 = 9;
    pub const CLUSTER_SIZE_MUST_BE_SET: i32 = 10;
    pub const REQUIRED_CLUSTER_WIDTH: i32 = 11;
    pub const REQUIRED_CLUSTER_HEIGHT: i32 = 12;
    pub const REQUIRED_CLUSTER_DEPTH: i32 = 13;
    pub const NON_PORTABLE_CLUSTER_SIZE_ALLOWED: i32 = 14;
    pub const CLUSTER_SCHEDULING_POLICY_PREFERENCE: i32 = 15;
}

/// The settable attributes of a kernel.
#[derive(Clone, Copy, Debug, Default)]
pub struct FuncAttrs {
    /// `MAX_DYNAMIC_SHARED_SIZE_BYTES`, once set (default: the non-opt-in limit minus
    /// static shared memory).
    pub max_dynamic_shared: Option<u32>,
    /// `PREFERRED_SHARED_MEMORY_CARVEOUT` (-1 = no preference).
    pub carveout: Option<i32>,
    pub non_portable_cluster_size_allowed: i32,
    pub cluster_scheduling_policy: i32,
    /// `cuFuncSetCacheConfig`.
    pub cache_config: u32,
}

/// Attributes shared by the functions of one kernel (see the module docs).
pub type SharedAttrs = Arc<Mutex<FuncAttrs>>;

/// A loaded kernel in one context.
pub struct Function {
    pub module: ModuleHandle,
    pub ctx: CtxHandle,
    /// Device ordinal.
    pub device: usize,
    pub name: CString,
    pub info: KernelInfo,
    /// The PTX's virtual architecture, `compute_XX` -> XX (`CU_FUNC_ATTRIBUTE_PTX_VERSION`).
    pub ptx_version: i32,
    pub(crate) loaded: Arc<dyn LoadedModule>,
    pub(crate) attrs: SharedAttrs,
}

impl Function {
    pub(crate) fn attrs(&self) -> MutexGuard<'_, FuncAttrs> {
        self.attrs.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kernel's name as a Rust string.
    pub fn name_str(&self) -> &str {
        self.name.to_str().unwrap_or("")
    }
}

impl Driver {
    /// The function `f` names. A `CUkernel` cast to `CUfunction` (CUDA 12+ allows that in
    /// the `cuFunc*` calls) names the kernel's function in the current context.
    pub(crate) fn function(&self, f: FunctionHandle) -> CuResult<Arc<Function>> {
        if crate::handle::kind_of(f.0) == Some(crate::handle::Kind::Kernel) {
            let ctx = self.current_context()?;
            let resolved = self.kernel_function(crate::KernelHandle(f.0), &ctx)?;
            return self.function(resolved);
        }
        self.functions.get(f).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("function handle {:#x}: {why:?}", f.0)))
    }

    /// The largest dynamic shared memory a launch of `f` may request now.
    pub(crate) fn max_dynamic_shared(&self, f: &Function) -> u32 {
        let props = self.devices[f.device].backend.properties();
        let default = props.shared_memory_per_block.saturating_sub(f.info.static_shared_bytes);
        f.attrs().max_dynamic_shared.unwrap_or(default)
    }

    /// The largest block `f` can be launched with (kernel limit, capped by the device's).
    pub(crate) fn max_threads(&self, f: &Function) -> u32 {
        let device_max = self.devices[f.device].backend.properties().max_threads_per_block;
        if f.info.max_threads_per_block == 0 {
            device_max
        } else {
            f.info.max_threads_per_block.min(device_max)
        }
    }

    /// `cuFuncGetAttribute`: every `CUfunction_attribute` (0..=15).
    pub fn function_attribute(&self, f: FunctionHandle, attribute: i32) -> CuResult<i32> {
        let f = self.function(f)?;
        self.function_object_attribute(&f, attribute)
    }

    pub(crate) fn function_object_attribute(&self, f: &Function, attribute: i32) -> CuResult<i32> {
        let clamp = |v: u32| v.min(i32::MAX as u32) as i32;
        let (major, minor) = self.devices[f.device].backend.properties().compute_capability;
        let attrs = *f.attrs();
        Ok(match attribute {
            attr::MAX_THREADS_PER_BLOCK => clamp(self.max_threads(f)),
            attr::SHARED_SIZE_BYTES => clamp(f.info.static_shared_bytes),
            attr::CONST_SIZE_BYTES => clamp(f.info.const_bytes),
            attr::LOCAL_SIZE_BYTES => clamp(f.info.local_bytes_per_thread),
            attr::NUM_REGS => clamp(f.info.num_regs),
            attr::PTX_VERSION => f.ptx_version,
            attr::BINARY_VERSION => clamp(major * 10 + minor),
            attr::CACHE_MODE_CA => 0,
            attr::MAX_DYNAMIC_SHARED_SIZE_BYTES => clamp(self.max_dynamic_shared(f)),
            attr::PREFERRED_SHARED_MEMORY_CARVEOUT => attrs.carveout.unwrap_or(-1),
            attr::CLUSTER_SIZE_MUST_BE_SET => 0,
            attr::REQUIRED_CLUSTER_WIDTH | attr::REQUIRED_CLUSTER_HEIGHT | attr::REQUIRED_CLUSTER_DEPTH => 0,
            attr::NON_PORTABLE_CLUSTER_SIZE_ALLOWED => attrs.non_portable_cluster_size_allowed,
            attr::CLUSTER_SCHEDULING_POLICY_PREFERENCE => attrs.cluster_scheduling_policy,
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("cuFuncGetAttribute: unknown attribute {attribute}"))),
        })
    }

    /// `cuFuncSetAttribute`: `MAX_DYNAMIC_SHARED_SIZE_BYTES` (up to the opt-in limit minus
    /// static shared memory), `PREFERRED_SHARED_MEMORY_CARVEOUT` (-1..=100), the cluster
    /// preferences; read-only attributes answer `INVALID_VALUE`.
    pub fn function_set_attribute(&self, f: FunctionHandle, attribute: i32, value: i32) -> CuResult<()> {
        let f = self.function(f)?;
        self.function_object_set_attribute(&f, attribute, value)
    }

    pub(crate) fn function_object_set_attribute(&self, f: &Function, attribute: i32, value: i32) -> CuResult<()> {
        let bad = || fail(CuError::INVALID_VALUE, format_args!("cuFuncSetAttribute({attribute}, {value}) on {}", f.name_str()));
        match attribute {
            attr::MAX_DYNAMIC_SHARED_SIZE_BYTES => {
                let optin = self.devices[f.device].backend.properties().shared_memory_per_block_optin;
                let limit = optin.saturating_sub(f.info.static_shared_bytes);
                let value = u32::try_from(value).ok().filter(|v| *v <= limit).ok_or_else(bad)?;
                f.attrs().max_dynamic_shared = Some(value);
            }
            attr::PREFERRED_SHARED_MEMORY_CARVEOUT => {
                if !(-1..=100).contains(&value) {
                    return Err(bad());
                }
                f.attrs().carveout = Some(value);
            }
            attr::NON_PORTABLE_CLUSTER_SIZE_ALLOWED => f.attrs().non_portable_cluster_size_allowed = value,
            attr::CLUSTER_SCHEDULING_POLICY_PREFERENCE => f.attrs().cluster_scheduling_policy = value,
            attr::REQUIRED_CLUSTER_WIDTH | attr::REQUIRED_CLUSTER_HEIGHT | attr::REQUIRED_CLUSTER_DEPTH => {
                return Err(fail(CuError::NOT_SUPPORTED, format_args!("thread block clusters are not supported")))
            }
            _ => return Err(bad()),
        }
        Ok(())
    }

    /// `cuFuncSetCacheConfig`: 0..=3, stored.
    pub fn function_set_cache_config(&self, f: FunctionHandle, config: u32) -> CuResult<()> {
        let f = self.function(f)?;
        if config > 3 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuFuncSetCacheConfig({config})")));
        }
        f.attrs().cache_config = config;
        Ok(())
    }

    /// `cuFuncSetSharedMemConfig` (deprecated): accepted and ignored.
    pub fn function_set_shared_mem_config(&self, f: FunctionHandle, config: u32) -> CuResult<()> {
        self.function(f)?;
        if config > 2 {
            return Err(CuError::INVALID_VALUE);
        }
        Ok(())
    }

    /// `cuFuncGetName`: a NUL-terminated name, valid while the function lives.
    pub fn function_name(&self, f: FunctionHandle) -> CuResult<*const c_char> {
        let f = self.function(f)?;
        // The CString lives in the Function, which the table keeps alive until unload.
        Ok(f.name.as_ptr())
    }

    /// `cuFuncGetModule`.
    pub fn function_module(&self, f: FunctionHandle) -> CuResult<ModuleHandle> {
        Ok(self.function(f)?.module)
    }

    /// `cuFuncGetParamInfo`: (offset, size) of parameter `index` (`INVALID_VALUE` past the end).
    pub fn function_param_info(&self, f: FunctionHandle, index: usize) -> CuResult<(usize, usize)> {
        let f = self.function(f)?;
        let p =
            f.info.params.get(index).ok_or_else(|| {
                fail(CuError::INVALID_VALUE, format_args!("cuFuncGetParamInfo: index {index} of {} parameters", f.info.params.len()))
            })?;
        Ok((p.offset, p.size))
    }

    /// `cuFuncGetParamCount`: the number of parameters the kernel's PTX declares.
    pub fn function_param_count(&self, f: FunctionHandle) -> CuResult<usize> {
        Ok(self.function(f)?.info.params.len())
    }

    /// `cuFuncIsLoaded`: always loaded (modules load eagerly per context).
    pub fn function_is_loaded(&self, f: FunctionHandle) -> CuResult<bool> {
        self.function(f).map(|_| true)
    }

    /// `cuFuncLoad`: nothing to do.
    pub fn function_load(&self, f: FunctionHandle) -> CuResult<()> {
        self.function(f).map(|_| ())
    }
}
