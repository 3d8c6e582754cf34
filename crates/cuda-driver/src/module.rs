//! Modules (`CUmodule`): a kernel image compiled and loaded into one context.
//!
//! Loading: image bytes -> PTX (`kernel-image`: wrapper, fatbin container or PTX text;
//! SASS-only images answer `CUDA_ERROR_NO_BINARY_FOR_GPU` with an explanation) ->
//! `backend_api::Device::load_ptx` (malformed PTX answers `CUDA_ERROR_INVALID_PTX` with the
//! compiler's log). Every load returns its [`JitLogs`], successful or not, so the ABI can
//! fill `CU_JIT_INFO_LOG_BUFFER` / `CU_JIT_ERROR_LOG_BUFFER`.
//!
//! `cuModuleGetFunction` answers the same `CUfunction` for the same name; unknown names
//! answer `CUDA_ERROR_NOT_FOUND`. Globals are registered in the allocation registry at
//! first lookup, so `cudaMemcpyToSymbol`'s copies validate; unloading unregisters them.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::path::Path;
use std::sync::{Arc, Mutex};

use backend_api::{DevicePtr, GlobalInfo, LoadError, LoadOptions, LoadedModule};
use kernel_image::PtxSource;

use crate::context::Context;
use crate::diag::fail;
use crate::function::{FuncAttrs, Function, SharedAttrs};
use crate::image::{self, ImageFailure};
use crate::memory::{Allocation, MemoryKind};
use crate::{CtxHandle, CuError, CuResult, Driver, FunctionHandle, LibraryHandle, ModuleHandle};

/// `CU_MODULE_EAGER_LOADING`.
pub const MODULE_EAGER_LOADING: u32 = 1;
/// `CU_MODULE_LAZY_LOADING`.
pub const MODULE_LAZY_LOADING: u32 = 2;

/// The JIT logs of one load (`CU_JIT_INFO_LOG_BUFFER`, `CU_JIT_ERROR_LOG_BUFFER`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct JitLogs {
    pub info: String,
    pub error: String,
}

/// Per-kernel attributes shared with a library's `CUkernel`s, by kernel name.
pub(crate) type AttrTable = Mutex<HashMap<String, SharedAttrs>>;

/// A loaded module.
pub struct Module {
    pub ctx: CtxHandle,
    /// Device ordinal.
    pub device: usize,
    /// The library this module was loaded for (`cuLibraryGetModule`), if any.
    pub library: Option<LibraryHandle>,
    /// PTX ISA as `major * 10 + minor`.
    pub ptx_version: i32,
    pub(crate) loaded: Arc<dyn LoadedModule>,
    functions: Mutex<HashMap<String, FunctionHandle>>,
    globals: Mutex<HashMap<String, GlobalInfo>>,
    shared_attrs: Option<Arc<AttrTable>>,
}

impl Driver {
    pub(crate) fn module(&self, m: ModuleHandle) -> CuResult<Arc<Module>> {
        self.modules.get(m).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("module handle {:#x}: {why:?}", m.0)))
    }

    /// The `sm_XY` number PTX is chosen for on `device`.
    pub(crate) fn target_sm(&self, device: usize) -> u32 {
        let (major, minor) = self.devices[device].backend.properties().compute_capability;
        major * 10 + minor
    }

    /// `cuModuleLoadData` / `cuModuleLoadDataEx` / `cuModuleLoadFatBinary`: loads the image
    /// at `image` into the current context.
    ///
    /// # Safety
    /// `image` is null or points to one complete kernel image (cudart's fatbin wrapper, a
    /// fatbin container, an ELF, or NUL-terminated PTX), as `kernel_image::image_from_ptr`
    /// requires.
    pub unsafe fn module_load_data(&self, image: *const c_void, options: &LoadOptions) -> (CuResult<ModuleHandle>, JitLogs) {
        let ctx = match self.current_context() {
            Ok(ctx) => ctx,
            Err(e) => return (Err(e), JitLogs::default()),
        };
        // SAFETY: forwarded from the caller.
        match unsafe { image::ptx_from_ptr(image, self.target_sm(ctx.device)) } {
            Ok(ptx) => self.load_ptx_into(&ctx, &ptx, options, None, None),
            Err(failure) => image_failure(failure),
        }
    }

    /// Loads an image held in memory as a slice (what `cuModuleLoad` read from a file).
    pub fn module_load_bytes(&self, bytes: &[u8], options: &LoadOptions) -> (CuResult<ModuleHandle>, JitLogs) {
        let ctx = match self.current_context() {
            Ok(ctx) => ctx,
            Err(e) => return (Err(e), JitLogs::default()),
        };
        match image::ptx_from_bytes(bytes, self.target_sm(ctx.device)) {
            Ok(ptx) => self.load_ptx_into(&ctx, &ptx, options, None, None),
            Err(failure) => image_failure(failure),
        }
    }

    /// `cuModuleLoad`: reads `path` (missing or unreadable -> `CUDA_ERROR_FILE_NOT_FOUND`).
    pub fn module_load(&self, path: &Path) -> (CuResult<ModuleHandle>, JitLogs) {
        if let Err(e) = self.current_context() {
            return (Err(e), JitLogs::default());
        }
        if path.is_dir() {
            // NVIDIA's driver (580) answers OUT_OF_MEMORY for a directory.
            return (Err(fail(CuError::OUT_OF_MEMORY, format_args!("cuModuleLoad({}): is a directory", path.display()))), JitLogs::default());
        }
        match std::fs::read(path) {
            Ok(bytes) => self.module_load_bytes(&bytes, &LoadOptions::default()),
            Err(err) => (Err(fail(CuError::FILE_NOT_FOUND, format_args!("cuModuleLoad({}): {err}", path.display()))), JitLogs::default()),
        }
    }

    /// Compiles `ptx` for `ctx`'s device and registers the module.
    pub(crate) fn load_ptx_into(
        &self,
        ctx: &Context,
        ptx: &PtxSource,
        options: &LoadOptions,
        library: Option<LibraryHandle>,
        shared_attrs: Option<Arc<AttrTable>>,
    ) -> (CuResult<ModuleHandle>, JitLogs) {
        let backend = &self.devices[ctx.device].backend;
        let loaded = match backend.load_ptx(&ptx.text, options) {
            Ok(loaded) => loaded,
            Err(LoadError::InvalidPtx { log }) => {
                let err = fail(CuError::INVALID_PTX, format_args!("PTX compilation failed:\n{log}"));
                return (Err(err), JitLogs { info: String::new(), error: log });
            }
            Err(LoadError::Codegen(msg)) => {
                let err = fail(CuError::INVALID_PTX, format_args!("code generation failed: {msg}"));
                return (Err(err), JitLogs { info: String::new(), error: format!("code generation failed: {msg}") });
            }
            Err(LoadError::OutOfMemory) => return (Err(CuError::OUT_OF_MEMORY), JitLogs::default()),
        };
        let logs = JitLogs { info: loaded.info_log(), error: String::new() };
        // CU_FUNC_ATTRIBUTE_PTX_VERSION is "the PTX virtual architecture version for which
        // the function was compiled" (compute_86 -> 86), not the PTX ISA version: CUB picks
        // its tuning policy from it, which must match the one the device code was built with.
        let ptx_version = ptx.sm_arch.unwrap_or(0) as i32;
        let module = Module {
            ctx: ctx.handle,
            device: ctx.device,
            library,
            ptx_version,
            loaded,
            functions: Mutex::new(HashMap::new()),
            globals: Mutex::new(HashMap::new()),
            shared_attrs,
        };
        (Ok(self.modules.insert(Arc::new(module))), logs)
    }

    /// `cuModuleUnload`: the module's functions become stale handles and its globals are
    /// unregistered.
    pub fn module_unload(&self, m: ModuleHandle) -> CuResult<()> {
        let module = self.module(m)?;
        self.unload_module_object(m, &module);
        Ok(())
    }

    pub(crate) fn unload_module_object(&self, m: ModuleHandle, module: &Module) {
        // Queued launches keep the code alive, but the module's globals may be in use:
        // let the context's work finish first, and write its output (a CUDA flush point).
        if let Ok(ctx) = self.context(module.ctx) {
            self.drain_context(&ctx);
            self.flush_output(&ctx);
        }
        self.drop_module_references(m);
        for (handle, f) in self.functions.all() {
            if f.module == m {
                let _ = self.functions.remove(handle);
            }
        }
        self.forget_legacy_setups();
        self.memory.remove_where(|a| a.kind == MemoryKind::ModuleGlobal && a.owner == m.0);
        let _ = self.modules.remove(m);
    }

    /// `cuModuleGetFunction`: the same handle for the same name; unknown -> `NOT_FOUND`.
    pub fn module_get_function(&self, m: ModuleHandle, name: &str) -> CuResult<FunctionHandle> {
        let module = self.module(m)?;
        self.module_function(m, &module, name)
    }

    pub(crate) fn module_function(&self, m: ModuleHandle, module: &Module, name: &str) -> CuResult<FunctionHandle> {
        let mut functions = module.functions.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&f) = functions.get(name) {
            return Ok(f);
        }
        let info =
            module.loaded.kernel(name).ok_or_else(|| fail(CuError::NOT_FOUND, format_args!("kernel {name:?} not found in module {:#x}", m.0)))?;
        if crate::diag::enabled() {
            if let Some(why) = module.loaded.kernel_error(name) {
                crate::diag!("kernel {name} of module {:#x} did not compile; its launches fail with CUDA_ERROR_NOT_SUPPORTED: {why}", m.0);
            }
        }
        let attrs = match &module.shared_attrs {
            Some(table) => table.lock().unwrap_or_else(|e| e.into_inner()).entry(name.to_string()).or_default().clone(),
            None => Arc::new(Mutex::new(FuncAttrs::default())),
        };
        let function = Function {
            module: m,
            ctx: module.ctx,
            device: module.device,
            name: CString::new(name).map_err(|_| CuError::INVALID_VALUE)?,
            info,
            ptx_version: module.ptx_version,
            loaded: module.loaded.clone(),
            attrs,
        };
        let handle = self.functions.insert(Arc::new(function));
        functions.insert(name.to_string(), handle);
        Ok(handle)
    }

    /// `cuModuleGetGlobal_v2`: (address, size); unknown -> `NOT_FOUND`.
    pub fn module_get_global(&self, m: ModuleHandle, name: &str) -> CuResult<(DevicePtr, usize)> {
        let module = self.module(m)?;
        let mut globals = module.globals.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(g) = globals.get(name) {
            return Ok((g.address, g.size));
        }
        let Some(g) = module.loaded.global(name) else {
            // A kernel's name is a bad value, not a missing symbol (NVIDIA's driver 580).
            if module.loaded.kernel(name).is_some() {
                return Err(fail(CuError::INVALID_VALUE, format_args!("{name:?} is a kernel, not a variable")));
            }
            return Err(fail(CuError::NOT_FOUND, format_args!("global {name:?} not found in module {:#x}", m.0)));
        };
        if g.reference.is_some() {
            // As NVIDIA's driver answers (H200, driver 580.159): `cuModuleGetTexRef` and
            // `cuModuleGetSurfRef` name these.
            return Err(fail(CuError::INVALID_VALUE, format_args!("{name:?} is a texture or surface reference, not a variable")));
        }
        if g.size > 0 {
            // A failure means the range is already registered (e.g. the same variable under
            // another name); copies validate either way.
            let _ = self.memory.insert(Allocation {
                base: g.address,
                size: g.size as u64,
                kind: MemoryKind::ModuleGlobal,
                ctx: module.ctx,
                device: module.device,
                flags: 0,
                buffer_id: 0,
                owner: m.0,
                sync_memops: false,
            });
        }
        globals.insert(name.to_string(), g);
        Ok((g.address, g.size))
    }

    /// `cuModuleGetLoadingMode`: `CU_MODULE_LAZY_LOADING`, NVIDIA's default since CUDA 12.2.
    /// cudart then loads each fatbin at its first launch, which keeps start-up from
    /// compiling kernels a program never runs.
    pub fn module_get_loading_mode(&self) -> u32 {
        MODULE_LAZY_LOADING
    }

    /// `cuModuleGetFunctionCount`.
    pub fn module_get_function_count(&self, m: ModuleHandle) -> CuResult<u32> {
        Ok(self.module(m)?.loaded.kernel_names().len() as u32)
    }

    /// `cuModuleEnumerateFunctions`: handles of the first `max` kernels.
    pub fn module_enumerate_functions(&self, m: ModuleHandle, max: usize) -> CuResult<Vec<FunctionHandle>> {
        let module = self.module(m)?;
        module.loaded.kernel_names().iter().take(max).map(|name| self.module_function(m, &module, name)).collect()
    }
}

fn image_failure<T>(failure: ImageFailure) -> (CuResult<T>, JitLogs) {
    (Err(failure.error), JitLogs { info: String::new(), error: failure.message })
}
