//! Libraries (`CUlibrary`, CUDA 12+) and their context-independent kernels (`CUkernel`).
//!
//! `cuLibraryLoadData` extracts the PTX once and compiles it eagerly into the current
//! context, if there is one, so PTX errors surface at load time. Other contexts get their
//! own module lazily, at the first `cuLibraryGetModule`, `cuKernelGetFunction`,
//! `cuLibraryGetGlobal` or launch in that context (NVIDIA's lazy loading).
//!
//! A `CUkernel` names a kernel of the library, independent of contexts; cudart 13 passes
//! it straight to `cuLaunchKernel`, which resolves it to the `CUfunction` of the current
//! context ([`Driver::kernel_function`]). Kernel names come from a scan of the PTX's
//! `.entry` declarations, so `cuLibraryGetKernel` answers without compiling.

use std::collections::HashMap;
use std::ffi::{c_char, c_void, CString};
use std::sync::{Arc, Mutex};

use backend_api::{DevicePtr, LoadOptions};
use kernel_image::PtxSource;

use crate::context::Context;
use crate::diag::fail;
use crate::image;
use crate::module::{AttrTable, JitLogs};
use crate::{CtxHandle, CuError, CuResult, Driver, FunctionHandle, KernelHandle, LibraryHandle, ModuleHandle};

/// A loaded library.
pub struct Library {
    ptx: PtxSource,
    options: LoadOptions,
    kernel_names: Vec<String>,
    /// The module of each context the library has been loaded into.
    modules: Mutex<HashMap<CtxHandle, ModuleHandle>>,
    kernels: Mutex<HashMap<String, KernelHandle>>,
    attrs: Arc<AttrTable>,
    /// The names of its `.attribute(.managed)` variables, found at the first
    /// `cuLibraryGetManaged`.
    managed: std::sync::OnceLock<Vec<String>>,
    /// Why the image cannot be used, when loading found it broken: every later use of
    /// the library answers this code (see [`Driver::library_load_data`]).
    failure: std::sync::OnceLock<CuError>,
}

impl Library {
    /// Forgets the module of a context being torn down (the module itself is unloaded by
    /// the context teardown).
    pub(crate) fn forget_context(&self, ctx: CtxHandle) {
        self.modules.lock().unwrap_or_else(|e| e.into_inner()).remove(&ctx);
    }
}

/// A kernel of a library.
pub struct Kernel {
    pub library: LibraryHandle,
    pub name: CString,
}

impl Driver {
    pub(crate) fn library(&self, l: LibraryHandle) -> CuResult<Arc<Library>> {
        self.libraries.get(l).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("library handle {:#x}: {why:?}", l.0)))
    }

    pub(crate) fn kernel(&self, k: KernelHandle) -> CuResult<Arc<Kernel>> {
        self.kernels.get(k).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("kernel handle {:#x}: {why:?}", k.0)))
    }

    /// `cuLibraryLoadData`: `code` is cudart's fatbin wrapper, a container or PTX text.
    /// Library options (e.g. `CU_LIBRARY_BINARY_IS_PRESERVED`) need no action: the image
    /// is copied at load.
    ///
    /// # Safety
    /// `code` is null or points to one complete kernel image, as for
    /// [`Driver::module_load_data`].
    pub unsafe fn library_load_data(&self, code: *const c_void, options: &LoadOptions) -> (CuResult<LibraryHandle>, JitLogs) {
        let current = self.current_context().ok();
        let device = current.as_ref().map_or(0, |ctx| ctx.device);
        if self.devices.is_empty() {
            return (Err(CuError::NO_DEVICE), JitLogs::default());
        }
        // SAFETY: forwarded from the caller.
        match unsafe { image::ptx_from_ptr(code, self.target_sm(device)) } {
            Ok(ptx) => self.library_from_ptx(ptx, options, current.as_deref()),
            Err(failure) if is_deferred(failure.error) => {
                let library = self.library_object(PtxSource { text: String::new(), sm_arch: None, isa: None }, options);
                let _ = library.failure.set(failure.error);
                (Ok(self.libraries.insert(library)), JitLogs { info: String::new(), error: failure.message })
            }
            Err(failure) => (Err(failure.error), JitLogs { info: String::new(), error: failure.message }),
        }
    }

    /// `cuLibraryLoadFromFile`: reads `path` (missing -> `FILE_NOT_FOUND`).
    pub fn library_load_from_file(&self, path: &std::path::Path, options: &LoadOptions) -> (CuResult<LibraryHandle>, JitLogs) {
        let bytes = match std::fs::read(path) {
            Ok(bytes) => bytes,
            Err(err) => {
                return (Err(fail(CuError::FILE_NOT_FOUND, format_args!("cuLibraryLoadFromFile({}): {err}", path.display()))), JitLogs::default())
            }
        };
        let current = self.current_context().ok();
        let device = current.as_ref().map_or(0, |ctx| ctx.device);
        if self.devices.is_empty() {
            return (Err(CuError::NO_DEVICE), JitLogs::default());
        }
        match image::ptx_from_bytes(&bytes, self.target_sm(device)) {
            Ok(ptx) => self.library_from_ptx(ptx, options, current.as_deref()),
            Err(failure) => (Err(failure.error), JitLogs { info: String::new(), error: failure.message }),
        }
    }

    fn library_object(&self, ptx: PtxSource, options: &LoadOptions) -> Arc<Library> {
        Arc::new(Library {
            kernel_names: image::entry_names(&ptx.text),
            ptx,
            options: options.clone(),
            modules: Mutex::new(HashMap::new()),
            kernels: Mutex::new(HashMap::new()),
            attrs: Arc::new(Mutex::new(HashMap::new())),
            managed: std::sync::OnceLock::new(),
            failure: std::sync::OnceLock::new(),
        })
    }

    fn library_from_ptx(&self, ptx: PtxSource, options: &LoadOptions, current: Option<&Context>) -> (CuResult<LibraryHandle>, JitLogs) {
        let library = self.library_object(ptx, options);
        let handle = self.libraries.insert(library.clone());
        let mut logs = JitLogs::default();
        if let Some(ctx) = current {
            let (result, load_logs) = self.library_module_for(handle, &library, ctx);
            logs = load_logs;
            match result {
                Ok(_) => {}
                Err(err) if is_deferred(err) => {
                    let _ = library.failure.set(err);
                }
                Err(err) => {
                    let _ = self.libraries.remove(handle);
                    return (Err(err), logs);
                }
            }
        }
        (Ok(handle), logs)
    }

    /// The library `l`, if its image was usable (else the code loading it found).
    fn usable_library(&self, l: LibraryHandle) -> CuResult<Arc<Library>> {
        let library = self.library(l)?;
        match library.failure.get() {
            Some(&err) => Err(fail(err, format_args!("library {:#x} failed to load", l.0))),
            None => Ok(library),
        }
    }

    /// The library's module in `ctx`, compiling it on first use.
    fn library_module_for(&self, l: LibraryHandle, library: &Library, ctx: &Context) -> (CuResult<ModuleHandle>, JitLogs) {
        // Held during compilation: concurrent first uses of one library wait for one compile.
        let mut modules = library.modules.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&m) = modules.get(&ctx.handle) {
            if self.modules.get(m).is_ok() {
                return (Ok(m), JitLogs::default());
            }
        }
        let (result, logs) = self.load_ptx_into(ctx, &library.ptx, &library.options, Some(l), Some(library.attrs.clone()));
        if let Ok(m) = result {
            modules.insert(ctx.handle, m);
        }
        (result, logs)
    }

    fn library_module_current(&self, l: LibraryHandle) -> CuResult<ModuleHandle> {
        let library = self.usable_library(l)?;
        let ctx = self.current_context()?;
        self.library_module_for(l, &library, &ctx).0
    }

    /// `cuLibraryUnload`: unloads the library's modules in every context; its kernels and
    /// their functions become stale handles.
    pub fn library_unload(&self, l: LibraryHandle) -> CuResult<()> {
        let library = self.library(l)?;
        let modules: Vec<ModuleHandle> = library.modules.lock().unwrap_or_else(|e| e.into_inner()).drain().map(|(_, m)| m).collect();
        for m in modules {
            if let Ok(module) = self.modules.get(m) {
                self.unload_module_object(m, &module);
            }
        }
        for (_, k) in library.kernels.lock().unwrap_or_else(|e| e.into_inner()).drain() {
            let _ = self.kernels.remove(k);
        }
        let _ = self.libraries.remove(l);
        Ok(())
    }

    /// `cuLibraryGetKernel`: the same handle for the same name; unknown -> `NOT_FOUND`.
    pub fn library_get_kernel(&self, l: LibraryHandle, name: &str) -> CuResult<KernelHandle> {
        let library = self.usable_library(l)?;
        if !library.kernel_names.iter().any(|n| n == name) {
            return Err(fail(CuError::NOT_FOUND, format_args!("cuLibraryGetKernel: no kernel {name:?}")));
        }
        let mut kernels = library.kernels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(&k) = kernels.get(name) {
            return Ok(k);
        }
        let kernel = Kernel { library: l, name: CString::new(name).map_err(|_| CuError::INVALID_VALUE)? };
        let k = self.kernels.insert(Arc::new(kernel));
        kernels.insert(name.to_string(), k);
        Ok(k)
    }

    /// `cuLibraryGetKernelCount`.
    pub fn library_get_kernel_count(&self, l: LibraryHandle) -> CuResult<u32> {
        Ok(self.usable_library(l)?.kernel_names.len() as u32)
    }

    /// `cuLibraryEnumerateKernels`: handles of the first `max` kernels.
    pub fn library_enumerate_kernels(&self, l: LibraryHandle, max: usize) -> CuResult<Vec<KernelHandle>> {
        let names = self.usable_library(l)?.kernel_names.clone();
        names.iter().take(max).map(|n| self.library_get_kernel(l, n)).collect()
    }

    /// `cuLibraryGetModule`: the library's module in the current context.
    pub fn library_get_module(&self, l: LibraryHandle) -> CuResult<ModuleHandle> {
        self.library_module_current(l)
    }

    /// `cuLibraryGetGlobal`: (address, size) in the current context.
    pub fn library_get_global(&self, l: LibraryHandle, name: &str) -> CuResult<(DevicePtr, usize)> {
        let m = self.library_module_current(l)?;
        self.module_get_global(m, name)
    }

    /// `cuLibraryGetManaged`: (address, size) of a `.attribute(.managed)` variable
    /// (`CUDA_ERROR_NOT_FOUND` for any other name). Managed memory is one address the host
    /// and kernels share; a module variable is that on a device whose memory the host
    /// addresses (the CPU device), so the variable's address is the answer there. On other
    /// devices (AMD GPUs) module variables are device memory the host cannot reach:
    /// `CUDA_ERROR_NOT_SUPPORTED`.
    ///
    /// Managed variables belong to the library, not to a context, and NVIDIA's cudart 13
    /// asks for them before any context is current. Module variables here live in each
    /// context's instance of the library, so the answer is the variable of the current
    /// context's instance, or without one, of device 0's primary context (the one cudart
    /// goes on to use; loading a module there does not activate it).
    pub fn library_get_managed(&self, l: LibraryHandle, name: &str) -> CuResult<(DevicePtr, usize)> {
        let library = self.usable_library(l)?;
        let managed = library.managed.get_or_init(|| compiler_core::ptx::managed::managed_variables(&library.ptx.text));
        if !managed.iter().any(|n| n == name) {
            return Err(fail(CuError::NOT_FOUND, format_args!("cuLibraryGetManaged: {name:?} is no managed variable of library {:#x}", l.0)));
        }
        let ctx = match self.current_context() {
            Ok(ctx) => ctx,
            Err(CuError::INVALID_CONTEXT) if !self.devices.is_empty() => self.context(self.primary_ctx_handle(0)?)?,
            Err(e) => return Err(e),
        };
        if !self.devices[ctx.device].backend.properties().host_addressable_memory {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("cuLibraryGetManaged: the device's module variables are not host memory")));
        }
        let m = self.library_module_for(l, &library, &ctx).0?;
        self.module_get_global(m, name)
    }

    /// `cuLibraryGetUnifiedFunction`: unified functions (`.attribute(.unified(...))`, one
    /// pointer callable from host and device) need `CU_DEVICE_ATTRIBUTE_UNIFIED_FUNCTION_POINTERS`,
    /// which no device here has (our compiler gives device functions no host-callable
    /// form): a unified function of the library answers `CUDA_ERROR_NOT_SUPPORTED`, any
    /// other name `CUDA_ERROR_NOT_FOUND`, as the reference has it for a symbol that is no
    /// unified function.
    pub fn library_get_unified_function(&self, l: LibraryHandle, name: &str) -> CuResult<usize> {
        let library = self.library(l)?;
        if compiler_core::ptx::managed::unified_functions(&library.ptx.text).iter().any(|n| n == name) {
            return Err(fail(
                CuError::NOT_SUPPORTED,
                format_args!("cuLibraryGetUnifiedFunction({name:?}): no device here has unified function pointers"),
            ));
        }
        Err(fail(CuError::NOT_FOUND, format_args!("cuLibraryGetUnifiedFunction: {name:?} is no unified function of library {:#x}", l.0)))
    }

    /// `cuKernelGetFunction`: the kernel's function in the current context.
    pub fn kernel_get_function(&self, k: KernelHandle) -> CuResult<FunctionHandle> {
        let ctx = self.current_context()?;
        self.kernel_function(k, &ctx)
    }

    /// The function of kernel `k` in `ctx` (compiling the library there on first use).
    pub(crate) fn kernel_function(&self, k: KernelHandle, ctx: &Context) -> CuResult<FunctionHandle> {
        let kernel = self.kernel(k)?;
        let library = self.library(kernel.library)?;
        let m = self.library_module_for(kernel.library, &library, ctx).0?;
        let module = self.module(m)?;
        self.module_function(m, &module, kernel.name.to_str().map_err(|_| CuError::INVALID_VALUE)?)
    }

    /// `cuKernelGetName`: valid while the kernel lives.
    pub fn kernel_get_name(&self, k: KernelHandle) -> CuResult<*const c_char> {
        Ok(self.kernel(k)?.name.as_ptr())
    }

    /// `cuKernelGetLibrary`.
    pub fn kernel_get_library(&self, k: KernelHandle) -> CuResult<LibraryHandle> {
        Ok(self.kernel(k)?.library)
    }

    /// The kernel's function in the current context, checked to be on device `dev`.
    fn kernel_function_on(&self, k: KernelHandle, dev: i32) -> CuResult<FunctionHandle> {
        self.device_slot(dev)?;
        let ctx = self.current_context()?;
        if ctx.device as i32 != dev {
            return Err(fail(CuError::INVALID_DEVICE, format_args!("kernel attribute for device {dev} while device {} is current", ctx.device)));
        }
        self.kernel_function(k, &ctx)
    }

    /// `cuKernelGetAttribute(attr, kernel, dev)`.
    pub fn kernel_get_attribute(&self, attribute: i32, k: KernelHandle, dev: i32) -> CuResult<i32> {
        let f = self.kernel_function_on(k, dev)?;
        self.function_attribute(f, attribute)
    }

    /// `cuKernelSetAttribute(attr, value, kernel, dev)`: applies in every context.
    pub fn kernel_set_attribute(&self, attribute: i32, value: i32, k: KernelHandle, dev: i32) -> CuResult<()> {
        let f = self.kernel_function_on(k, dev)?;
        self.function_set_attribute(f, attribute, value)
    }

    /// `cuKernelSetCacheConfig`.
    pub fn kernel_set_cache_config(&self, k: KernelHandle, config: u32, dev: i32) -> CuResult<()> {
        let f = self.kernel_function_on(k, dev)?;
        self.function_set_cache_config(f, config)
    }

    /// `cuKernelGetParamCount`.
    pub fn kernel_get_param_count(&self, k: KernelHandle) -> CuResult<usize> {
        let f = self.kernel_get_function(k)?;
        self.function_param_count(f)
    }

    /// `cuKernelGetParamInfo`.
    pub fn kernel_get_param_info(&self, k: KernelHandle, index: usize) -> CuResult<(usize, usize)> {
        let f = self.kernel_get_function(k)?;
        self.function_param_info(f, index)
    }
}

/// Whether a broken image still loads as a library and fails at its first use. NVIDIA's
/// driver loads libraries lazily (driver 580: `cuLibraryLoadData` answers success for
/// bytes that are no image and for PTX with a syntax error; `cuLibraryGetKernel` and
/// `cuLibraryGetModule` then answer `INVALID_IMAGE` or `INVALID_PTX`).
fn is_deferred(err: CuError) -> bool {
    matches!(err, CuError::INVALID_IMAGE | CuError::INVALID_PTX | CuError::NO_BINARY_FOR_GPU | CuError::UNSUPPORTED_PTX_VERSION)
}
