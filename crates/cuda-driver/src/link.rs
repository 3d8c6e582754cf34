//! JIT link states (`CUlinkState`): `cuLinkCreate`, `cuLinkAddData`, `cuLinkAddFile`,
//! `cuLinkComplete`, `cuLinkDestroy` (CUDA Driver API, "Module Management").
//!
//! Inputs are turned into PTX link units when they are added by crate `device-link`
//! (shared with libnvJitLink; its docs say what each input type accepts). Here they get
//! NVIDIA's driver codes: a PTX syntax error is `CUDA_ERROR_INVALID_PTX` from
//! `cuLinkAddData` (NVIDIA's driver compiles PTX there), an NVIDIA cubin (SASS only)
//! `CUDA_ERROR_NO_BINARY_FOR_GPU`, `CU_JIT_INPUT_NVVM` (LTO-IR)
//! `CUDA_ERROR_JIT_COMPILER_NOT_FOUND`, each with a log line. `CU_JIT_INPUT_CUBIN` may hold
//! PTX text (what our own `cuLinkComplete` produces; NVIDIA's driver also takes PTX where
//! a cubin is expected).
//!
//! `cuLinkComplete` links the units at the PTX level (`compiler_core::link`) and returns the
//! linked PTX text, NUL-terminated, as the "cubin": it loads with `cuModuleLoadData` here
//! and in NVIDIA's driver. The buffer belongs to the state and stays valid until
//! `cuLinkDestroy`. Logs accumulate over the state's life, as `cuLinkCreate`'s log options
//! do.

use std::path::Path;
use std::sync::{Arc, Mutex};

use compiler_core::link::{self as ptx_link, FailureKind, LibraryMember, LinkFailure};
use device_link::{device_runtime_units, image_error, ptx_unit, push_line, Fault, InputError, InputKind, PendingLink};

use crate::diag::fail;
use crate::handle::HandleTable;
use crate::module::JitLogs;
use crate::{CtxHandle, CuError, CuResult, Driver};

pub use crate::handle::LinkHandle;

/// `CUjitInputType` values (cuda.h).
pub mod input_type {
    pub const CUBIN: u32 = 0;
    pub const PTX: u32 = 1;
    pub const FATBINARY: u32 = 2;
    pub const OBJECT: u32 = 3;
    pub const LIBRARY: u32 = 4;
    pub const NVVM: u32 = 5;
}

/// The code for symbols that do not resolve: `cuLinkComplete` with an undefined reference,
/// `cuLinkAddData` with a second strong definition. NVIDIA documents none; its driver
/// (580.159, H200, `crates/cuda-driver/tools/gpu_link_check.c`) answers
/// CUDA_ERROR_INVALID_SOURCE in both cases, with "Undefined reference" / "Multiple
/// definition" in the error log.
pub const UNRESOLVED_SYMBOL_ERROR: CuError = CuError::INVALID_SOURCE;

/// One pending link.
pub struct LinkState {
    pub ctx: CtxHandle,
    pub device: usize,
    inner: Mutex<LinkInner>,
}

struct LinkInner {
    /// The inputs (`device-link`, shared with libnvJitLink).
    pending: PendingLink,
    logs: JitLogs,
    /// Every image `cuLinkComplete` returned: pointers handed out stay valid until destroy.
    outputs: Vec<Box<[u8]>>,
}

/// The link states of a driver.
pub(crate) type LinkTable = HandleTable<LinkState, LinkHandle>;

impl Driver {
    fn link_state(&self, h: LinkHandle) -> CuResult<Arc<LinkState>> {
        self.links.get(h).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("link state {:#x}: {why:?}", h.0)))
    }

    /// `cuLinkCreate`: a link for the current context's device; `max_registers` is
    /// `CU_JIT_MAX_REGISTERS`, which the linked image carries.
    pub fn link_create(&self, max_registers: Option<u32>) -> CuResult<LinkHandle> {
        let ctx = self.current_context()?;
        let mut pending = PendingLink::new();
        pending.set_max_registers(max_registers.unwrap_or(0));
        let inner = LinkInner { pending, logs: JitLogs::default(), outputs: Vec::new() };
        let state = LinkState { ctx: ctx.handle, device: ctx.device, inner: Mutex::new(inner) };
        Ok(self.links.insert(Arc::new(state)))
    }

    /// `cuLinkDestroy`: frees the state and every image it returned.
    pub fn link_destroy(&self, h: LinkHandle) -> CuResult<()> {
        self.links.remove(h).map(|_| ()).map_err(|why| fail(CuError::INVALID_HANDLE, format_args!("link state {:#x}: {why:?}", h.0)))
    }

    /// The logs accumulated so far (for `CU_JIT_INFO_LOG_BUFFER` / `CU_JIT_ERROR_LOG_BUFFER`).
    pub fn link_logs(&self, h: LinkHandle) -> CuResult<JitLogs> {
        let state = self.link_state(h)?;
        let inner = state.inner.lock().unwrap_or_else(|e| e.into_inner());
        Ok(inner.logs.clone())
    }

    /// `cuLinkAddFile`: the file's contents as [`Driver::link_add_data`]; the path names
    /// the input in logs. Unreadable -> `CUDA_ERROR_FILE_NOT_FOUND`.
    pub fn link_add_file(&self, h: LinkHandle, input_type: u32, path: &Path) -> CuResult<()> {
        let state = self.link_state(h)?;
        let bytes = std::fs::read(path).map_err(|err| fail(CuError::FILE_NOT_FOUND, format_args!("cuLinkAddFile({}): {err}", path.display())))?;
        self.add_input(&state, input_type, &bytes, &path.display().to_string())
    }

    /// `cuLinkAddData`: adds one input (see the module docs for what each type accepts).
    pub fn link_add_data(&self, h: LinkHandle, input_type: u32, data: &[u8], name: &str) -> CuResult<()> {
        let state = self.link_state(h)?;
        if data.is_empty() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuLinkAddData: empty input")));
        }
        self.add_input(&state, input_type, data, name)
    }

    fn add_input(&self, state: &LinkState, input_type: u32, data: &[u8], name: &str) -> CuResult<()> {
        let target_sm = self.target_sm(state.device);
        let mut inner = state.inner.lock().unwrap_or_else(|e| e.into_inner());
        let inner = &mut *inner;
        let result = match input_kind(input_type) {
            Some(kind) => inner.pending.add(kind, data, name, target_sm, &mut inner.logs.info).map_err(|e| (input_error_code(&e), e.log)),
            None => Err((CuError::INVALID_VALUE, format!("error   : '{name}': unknown CUjitInputType {input_type}"))),
        };
        result.map_err(|(err, log)| {
            push_line(&mut inner.logs.error, &log);
            fail(err, format_args!("cuLinkAddData({name:?}): {log}"))
        })
    }

    /// `cuLinkComplete`: links what was added; returns the image (NUL-terminated PTX) and
    /// its size. The image stays valid until `cuLinkDestroy`.
    pub fn link_complete(&self, h: LinkHandle) -> CuResult<(*const u8, usize)> {
        let state = self.link_state(h)?;
        let mut inner = state.inner.lock().unwrap_or_else(|e| e.into_inner());
        match inner.pending.link() {
            Ok(ptx) => {
                let mut bytes = ptx.into_bytes();
                bytes.push(0);
                let image: Box<[u8]> = bytes.into_boxed_slice();
                let out = (image.as_ptr(), image.len());
                inner.outputs.push(image);
                Ok(out)
            }
            Err(failure) => {
                push_line(&mut inner.logs.error, &failure.log);
                Err(fail(failure_code(&failure), format_args!("cuLinkComplete:\n{}", failure.log)))
            }
        }
    }
}

/// The input kind of a `CUjitInputType`.
fn input_kind(input_type: u32) -> Option<InputKind> {
    use input_type::*;
    Some(match input_type {
        CUBIN => InputKind::Cubin,
        PTX => InputKind::Ptx,
        FATBINARY => InputKind::Fatbin,
        OBJECT => InputKind::Object,
        LIBRARY => InputKind::Library,
        NVVM => InputKind::LtoIr,
        _ => return None,
    })
}

/// The `CUresult` of a refused input, as NVIDIA's driver answers (measured as above).
fn input_error_code(e: &InputError) -> CuError {
    match e.fault {
        Fault::InvalidPtx => CuError::INVALID_PTX,
        Fault::SassOnly => CuError::NO_BINARY_FOR_GPU,
        Fault::LtoIr => CuError::JIT_COMPILER_NOT_FOUND,
        Fault::Image(code) => CuError::from_code(code).unwrap_or(CuError::INVALID_IMAGE),
        Fault::WrongKind => CuError::INVALID_IMAGE,
        Fault::MultipleDefinition => UNRESOLVED_SYMBOL_ERROR,
    }
}

/// The `CUresult` of a failed link.
fn failure_code(failure: &LinkFailure) -> CuError {
    match failure.kind {
        FailureKind::Unresolved | FailureKind::Duplicate => UNRESOLVED_SYMBOL_ERROR,
        FailureKind::Incompatible => CuError::INVALID_IMAGE,
    }
}

/// Links the relocatable fatbins of a version 2 wrapper's prelinked list (what cudart
/// registers for `nvcc -rdc=true` programs). The list holds the program's units and the
/// libraries nvlink kept (the device runtime), without saying which is which, so:
/// - a unit exporting a kernel or variable is linked;
/// - a unit with only module-local kernels or variables is linked if every name it takes
///   from others is defined by some unit (else it is library code waiting for NVIDIA's
///   driver-internal functions, like the device runtime's);
/// - the rest, and PTX only for a newer architecture, only when something needs them.
///
/// Returns the linked PTX text.
pub(crate) fn link_prelinked(bytes: &[u8], target_sm: u32) -> Result<String, (CuError, String)> {
    link_prelinked_units(bytes, target_sm).map_err(|e| (input_error_code(&e), e.log))?.map_err(|f| (failure_code(&f), f.log))
}

/// [`link_prelinked`]'s work: an input error, or the link's result.
fn link_prelinked_units(bytes: &[u8], target_sm: u32) -> Result<Result<String, LinkFailure>, InputError> {
    let containers = kernel_image::split_containers(bytes).map_err(|e| image_error(e, "prelinked fatbin"))?;
    let mut units = device_runtime_units();
    // Containers whose PTX is only for a newer architecture: decompressed only if some
    // name stays undefined (the device runtime's megabyte of PTX, usually not).
    let mut deferred = Vec::new();
    for (i, container) in containers.iter().enumerate() {
        let name = format!("fatbin {i}");
        let headers = kernel_image::parse_container_headers(container).map_err(|e| image_error(e, &name))?;
        if headers.is_empty() {
            continue; // nvlink's empty container
        }
        // Library code whose PTX is only for a newer architecture waits in `deferred`
        // (module loads would take such PTX as a last resort; a link only when needed).
        let ptx_for_device = headers.iter().any(|e| e.kind == kernel_image::EntryKind::Ptx && e.sm_arch <= target_sm);
        let selected = if ptx_for_device {
            kernel_image::select_ptx(&headers, kernel_image::ANY_PTX_ISA, target_sm).map(|_| ())
        } else {
            Err(kernel_image::ImageError::NoBinaryForGpu(String::new()))
        };
        match selected {
            Ok(()) => {
                let entries = kernel_image::parse_container(container).map_err(|e| image_error(e, &name))?;
                let ptx = kernel_image::entries_ptx(&entries, target_sm, false).map_err(|e| image_error(e, &name))?;
                units.push(ptx_unit(ptx.text.as_bytes(), &name, false)?);
            }
            Err(_) if headers.iter().any(|e| e.kind == kernel_image::EntryKind::Ptx) => deferred.push((name, *container)),
            Err(err) => return Err(image_error(err, &name)),
        }
    }
    let defined: std::collections::HashSet<String> = units.iter().flat_map(|u| u.exported_names()).map(str::to_string).collect();
    for unit in &mut units {
        let eager =
            unit.exports_kernel_or_variable() || (unit.defines_kernel_or_variable() && unit.undefined_names().iter().all(|n| defined.contains(*n)));
        unit.set_lazy(!eager);
    }
    let open = units.iter().flat_map(|u| u.undefined_names()).any(|n| !defined.contains(n));
    let mut members = Vec::new();
    for (name, container) in deferred.into_iter().filter(|_| open) {
        match kernel_image::container_ptx(container, target_sm, true) {
            Ok(ptx) => members.push(LibraryMember { name, text: ptx.text }),
            Err(e) => crate::diag!("prelinked {name} left out: {e}"),
        }
    }
    Ok(ptx_link::link_with_libraries(&units, &members).map(|l| l.ptx))
}
