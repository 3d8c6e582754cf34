//! What nvcc's host code registers at start-up: fatbins (`__cudaRegisterFatBinary`), their
//! kernels by host stub address (`__cudaRegisterFunction`) and their variables by host
//! shadow address (`__cudaRegisterVar`, `__cudaRegisterManagedVar`).
//!
//! Registration only records. A fatbin becomes a driver library (`cuLibraryLoadData` of
//! the wrapper, as NVIDIA's runtime hands it over) at the first use of one of its kernels or
//! variables; kernels are the library's context-independent `CUkernel`s, so they survive
//! `cudaDeviceReset` and serve every device.

use std::collections::HashMap;
use std::ffi::{c_void, CString};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use crate::boundary::RtResult;
use crate::driver::{CUdeviceptr, CUkernel, CUlibrary, CUDA_ERROR_NOT_FOUND, CUDA_ERROR_NOT_SUPPORTED};
use crate::error::CudaError;
use crate::runtime::{runtime, Runtime};

/// `CU_LIBRARY_BINARY_IS_PRESERVED`: the image stays valid while the library is loaded
/// (it is in the program's data), so the driver need not copy it.
const CU_LIBRARY_BINARY_IS_PRESERVED: i32 = 1;

/// One registered fatbin (cudart's wrapper, `0x466243B1`).
pub struct Fatbin {
    wrapper: usize,
    /// The loaded library, once used (address of the `CUlibrary`).
    library: Mutex<Option<usize>>,
}

/// A registered kernel.
pub struct Function {
    fatbin: Arc<Fatbin>,
    pub name: CString,
    kernel: OnceLock<usize>,
}

/// A registered variable (`__device__`, `__constant__` or `__managed__`).
pub struct Var {
    fatbin: Arc<Fatbin>,
    pub name: CString,
    pub size: usize,
    /// For `__managed__` variables: where the host code reads the variable's address.
    managed_slot: Option<usize>,
}

#[derive(Default)]
struct Registry {
    fatbins: Vec<Option<Arc<Fatbin>>>,
    functions: HashMap<usize, Arc<Function>>,
    vars: HashMap<usize, Arc<Var>>,
}

fn registry() -> MutexGuard<'static, Registry> {
    static REGISTRY: OnceLock<Mutex<Registry>> = OnceLock::new();
    REGISTRY.get_or_init(Default::default).lock().unwrap_or_else(|e| e.into_inner())
}

/// The handle `__cudaRegisterFatBinary` returns: a `void**` whose first word is the
/// wrapper's address, as the handle of NVIDIA's runtime points at it.
#[repr(C)]
pub struct Handle {
    wrapper: *const c_void,
    index: usize,
}

/// `__cudaRegisterFatBinary`.
pub fn register_fatbin(wrapper: *const c_void) -> *mut Handle {
    let mut reg = registry();
    let index = reg.fatbins.len();
    reg.fatbins.push(Some(Arc::new(Fatbin { wrapper: wrapper as usize, library: Mutex::new(None) })));
    // Lives until the process ends: nvcc's code keeps the handle in a static.
    Box::into_raw(Box::new(Handle { wrapper, index }))
}

/// The handle's slot in the registry.
///
/// # Safety
/// `handle` must be NULL or from [`register_fatbin`] (never freed).
unsafe fn index_of(handle: *const Handle) -> Option<usize> {
    // SAFETY: per the contract, a live Handle.
    (!handle.is_null()).then(|| unsafe { (*handle).index })
}

fn fatbin_of(reg: &Registry, index: Option<usize>) -> Option<Arc<Fatbin>> {
    reg.fatbins.get(index?).cloned().flatten()
}

/// `__cudaRegisterFunction`.
///
/// # Safety
/// `handle` must be NULL or from [`register_fatbin`].
pub unsafe fn register_function(handle: *const Handle, host_fun: usize, name: CString) {
    // SAFETY: forwarded contract.
    let index = unsafe { index_of(handle) };
    let mut reg = registry();
    if let Some(fatbin) = fatbin_of(&reg, index) {
        reg.functions.insert(host_fun, Arc::new(Function { fatbin, name, kernel: OnceLock::new() }));
    }
}

/// `__cudaRegisterVar` / `__cudaRegisterManagedVar`.
///
/// # Safety
/// `handle` must be NULL or from [`register_fatbin`].
pub unsafe fn register_var(handle: *const Handle, host_var: usize, name: CString, size: usize, managed_slot: Option<usize>) {
    // SAFETY: forwarded contract.
    let index = unsafe { index_of(handle) };
    let mut reg = registry();
    if let Some(fatbin) = fatbin_of(&reg, index) {
        reg.vars.insert(host_var, Arc::new(Var { fatbin, name, size, managed_slot }));
    }
}

/// `__cudaUnregisterFatBinary`: forgets the fatbin's kernels and variables and unloads its
/// library. At the last one (the program's exit), releases the primary contexts.
///
/// # Safety
/// `handle` must be NULL or from [`register_fatbin`].
pub unsafe fn unregister_fatbin(handle: *const Handle) {
    // SAFETY: forwarded contract.
    let Some(index) = (unsafe { index_of(handle) }) else { return };
    let (fatbin, last) = {
        let mut reg = registry();
        let Some(fatbin) = fatbin_of(&reg, Some(index)) else { return };
        reg.fatbins[index] = None;
        reg.functions.retain(|_, f| !Arc::ptr_eq(&f.fatbin, &fatbin));
        reg.vars.retain(|_, v| !Arc::ptr_eq(&v.fatbin, &fatbin));
        (fatbin, reg.fatbins.iter().all(Option::is_none))
    };
    let Some(rt) = crate::runtime::initialized() else { return };
    if let Some(lib) = fatbin.library.lock().unwrap_or_else(|e| e.into_inner()).take() {
        // SAFETY: a library we loaded. Nothing to do about a failure at exit.
        let _ = unsafe { rt.api().cuLibraryUnload(lib as CUlibrary) };
    }
    if last {
        rt.release_all();
    }
}

/// The registered kernel whose host stub is `host_fun` (`cudaErrorInvalidDeviceFunction`
/// if none).
pub fn function(host_fun: *const c_void) -> RtResult<Arc<Function>> {
    registry().functions.get(&(host_fun as usize)).cloned().ok_or(CudaError::INVALID_DEVICE_FUNCTION)
}

/// The registered variable whose host shadow is `symbol` (`cudaErrorInvalidSymbol` if none).
pub fn var(symbol: *const c_void) -> RtResult<Arc<Var>> {
    registry().vars.get(&(symbol as usize)).cloned().ok_or(CudaError::INVALID_SYMBOL)
}

/// Every managed variable of a fatbin.
fn managed_vars(fatbin: &Arc<Fatbin>) -> Vec<Arc<Var>> {
    registry().vars.values().filter(|v| v.managed_slot.is_some() && Arc::ptr_eq(&v.fatbin, fatbin)).cloned().collect()
}

impl Fatbin {
    /// The fatbin's library, loaded at first use. Loading also points the host slots of
    /// its `__managed__` variables at their storage.
    pub fn library(self: &Arc<Self>, rt: &Runtime) -> RtResult<CUlibrary> {
        let mut slot = self.library.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(lib) = *slot {
            return Ok(lib as CUlibrary);
        }
        let mut lib = std::ptr::null_mut();
        let mut option = CU_LIBRARY_BINARY_IS_PRESERVED;
        let mut value = std::ptr::without_provenance_mut::<c_void>(1);
        // SAFETY: the wrapper is the program's registered image; option arrays of length 1.
        unsafe {
            rt.api().cuLibraryLoadData(
                &mut lib,
                self.wrapper as *const c_void,
                std::ptr::null_mut(),
                std::ptr::null_mut(),
                0,
                &mut option,
                &mut value,
                1,
            )
        }?;
        *slot = Some(lib as usize);
        drop(slot);
        for var in managed_vars(self) {
            let address = var.address_in(rt, lib, true)?;
            // SAFETY: nvcc's host code registered this slot (a `void*` in the program) for
            // the runtime to fill in.
            unsafe { *(var.managed_slot.expect("managed") as *mut *mut c_void) = address as *mut c_void };
        }
        Ok(lib)
    }
}

impl Function {
    /// The kernel's `CUkernel`, looked up once.
    pub fn kernel(&self) -> RtResult<CUkernel> {
        if let Some(k) = self.kernel.get() {
            return Ok(*k as CUkernel);
        }
        let rt = runtime()?;
        let lib = self.fatbin.library(rt)?;
        let mut kernel = std::ptr::null_mut();
        // SAFETY: a loaded library and a NUL-terminated name.
        unsafe { rt.api().cuLibraryGetKernel(&mut kernel, lib, self.name.as_ptr()) }?;
        Ok(*self.kernel.get_or_init(|| kernel as usize) as CUkernel)
    }
}

impl Var {
    /// The variable's device address and size in the current context.
    pub fn address(&self) -> RtResult<(CUdeviceptr, usize)> {
        let rt = runtime()?;
        rt.context()?;
        let lib = self.fatbin.library(rt)?;
        let dptr = self.address_in(rt, lib, self.managed_slot.is_some())?;
        Ok((dptr, self.size))
    }

    fn address_in(&self, rt: &Runtime, lib: CUlibrary, managed: bool) -> RtResult<CUdeviceptr> {
        let (mut dptr, mut bytes) = (0, 0);
        let api = rt.api();
        // SAFETY: valid out-pointers, a loaded library and a NUL-terminated name.
        unsafe {
            if managed {
                match api.cuLibraryGetManaged(&mut dptr, &mut bytes, lib, self.name.as_ptr()) {
                    Ok(()) => return Ok(dptr),
                    // A driver without cuLibraryGetManaged, or PTX that does not mark the
                    // variable `.attribute(.managed)`: a managed variable is a module
                    // global there, whose storage the host can reach.
                    Err(e) if e.0 == CUDA_ERROR_NOT_SUPPORTED || e.0 == CUDA_ERROR_NOT_FOUND => {}
                    Err(e) => return Err(e),
                }
            }
            rt.context()?;
            api.cuLibraryGetGlobal(&mut dptr, &mut bytes, lib, self.name.as_ptr())?;
        }
        Ok(dptr)
    }
}

/// `__cudaInitModule`: loads the fatbin now.
///
/// # Safety
/// `handle` must be NULL or from [`register_fatbin`].
pub unsafe fn load(handle: *const Handle) -> RtResult {
    // SAFETY: forwarded contract.
    let index = unsafe { index_of(handle) };
    let fatbin = fatbin_of(&registry(), index).ok_or(CudaError::INVALID_VALUE)?;
    let rt = runtime()?;
    rt.context()?;
    fatbin.library(rt).map(drop)
}
