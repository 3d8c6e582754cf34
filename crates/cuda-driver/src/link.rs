//! JIT link states (`CUlinkState`): `cuLinkCreate`, `cuLinkAddData`, `cuLinkAddFile`,
//! `cuLinkComplete`, `cuLinkDestroy` (CUDA Driver API, "Module Management").
//!
//! Inputs are turned into PTX link units when they are added (NVIDIA's driver compiles PTX
//! there, so a syntax error is `CUDA_ERROR_INVALID_PTX` from `cuLinkAddData`):
//! - `CU_JIT_INPUT_PTX`, and `CU_JIT_INPUT_CUBIN` holding PTX text (what our own
//!   `cuLinkComplete` produces; NVIDIA's driver also takes PTX where a cubin is expected);
//! - `CU_JIT_INPUT_FATBINARY`: the PTX each container's selection rule picks, as module
//!   loads do; only SASS is `CUDA_ERROR_NO_BINARY_FOR_GPU`;
//! - `CU_JIT_INPUT_OBJECT`: the fatbins in a host object's `.nv_fatbin`/`__nv_relfatbin`;
//! - `CU_JIT_INPUT_LIBRARY`: an `ar` archive (`nvcc -lib`, `libcudadevrt.a`); its members
//!   are linked only when they define something still undefined, like a static linker's,
//!   and are kept as text until then (the device runtime's megabyte of PTX is rarely needed);
//! - `CU_JIT_INPUT_NVVM` (LTO-IR) is `CUDA_ERROR_JIT_COMPILER_NOT_FOUND` (as NVIDIA's driver answers) with a log line.
//!
//! `cuLinkComplete` links the units at the PTX level (`compiler_core::link`) and returns the
//! linked PTX text, NUL-terminated, as the "cubin": it loads with `cuModuleLoadData` here
//! and in NVIDIA's driver. The buffer belongs to the state and stays valid until
//! `cuLinkDestroy`. Logs accumulate over the state's life, as `cuLinkCreate`'s log options
//! do.

use std::path::Path;
use std::sync::{Arc, Mutex};

use compiler_core::link::{self as ptx_link, FailureKind, LibraryMember, LinkFailure, LinkUnit};
use kernel_image::{ImageError, ImageKind};

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

/// The device runtime functions this driver provides itself, as weak PTX definitions
/// linked like a library member (before any library the client adds): NVIDIA's
/// `libcudadevrt` implements its functions over driver-internal calls (`cnp*`,
/// `__cuda_syscall_*`) that no other driver has. `cudaGetLastError` and
/// `cudaPeekAtLastError` (and their CUDA 12+ `__cudaCDP2*` names, what device code calls)
/// answer `cudaSuccess`: only device-side runtime calls record errors, and none of those
/// (launches, device-side malloc, streams...) exist here; a kernel using them fails to link
/// with `Undefined reference` naming what is missing.
const DEVICE_RUNTIME_PTX: &str = "\
.version 7.0
.target sm_52
.address_size 64
.weak .func (.param .b32 r) cudaGetLastError() { st.param.b32 [r], 0; ret; }
.weak .func (.param .b32 r) cudaPeekAtLastError() { st.param.b32 [r], 0; ret; }
.weak .func (.param .b32 r) __cudaCDP2GetLastError() { st.param.b32 [r], 0; ret; }
.weak .func (.param .b32 r) __cudaCDP2PeekAtLastError() { st.param.b32 [r], 0; ret; }
";

/// [`DEVICE_RUNTIME_PTX`] as a lazy link unit.
fn device_runtime_unit() -> LinkUnit {
    static UNIT: std::sync::OnceLock<LinkUnit> = std::sync::OnceLock::new();
    UNIT.get_or_init(|| LinkUnit::parse("<driver device runtime>", DEVICE_RUNTIME_PTX, true).expect("the built-in device runtime parses")).clone()
}

/// One pending link.
pub struct LinkState {
    pub ctx: CtxHandle,
    pub device: usize,
    inner: Mutex<LinkInner>,
}

#[derive(Default)]
struct LinkInner {
    units: Vec<LinkUnit>,
    /// Library members, parsed only if the link needs them.
    members: Vec<LibraryMember>,
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

    /// `cuLinkCreate`: a link for the current context's device.
    pub fn link_create(&self) -> CuResult<LinkHandle> {
        let ctx = self.current_context()?;
        let inner = LinkInner { units: vec![device_runtime_unit()], ..LinkInner::default() };
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
        let result = link_inputs(input_type, data, name, target_sm, &mut inner.logs.info);
        match result {
            Ok(Inputs::Units(units)) => {
                let all: Vec<&LinkUnit> = inner.units.iter().chain(units.iter()).collect();
                let duplicates = ptx_link::multiple_definitions(&all);
                if !duplicates.is_empty() {
                    let log = duplicates.join("\n");
                    push_line(&mut inner.logs.error, &log);
                    return Err(fail(UNRESOLVED_SYMBOL_ERROR, format_args!("cuLinkAddData({name:?}): {log}")));
                }
                inner.units.extend(units);
                Ok(())
            }
            Ok(Inputs::Members(members)) => {
                inner.members.extend(members);
                Ok(())
            }
            Err((err, log)) => {
                push_line(&mut inner.logs.error, &log);
                Err(fail(err, format_args!("cuLinkAddData({name:?}): {log}")))
            }
        }
    }

    /// `cuLinkComplete`: links what was added; returns the image (NUL-terminated PTX) and
    /// its size. The image stays valid until `cuLinkDestroy`.
    pub fn link_complete(&self, h: LinkHandle) -> CuResult<(*const u8, usize)> {
        let state = self.link_state(h)?;
        let mut inner = state.inner.lock().unwrap_or_else(|e| e.into_inner());
        match ptx_link::link_with_libraries(&inner.units, &inner.members) {
            Ok(linked) => {
                let mut bytes = linked.ptx.into_bytes();
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

/// The `CUresult` of a failed link.
fn failure_code(failure: &LinkFailure) -> CuError {
    match failure.kind {
        FailureKind::Unresolved | FailureKind::Duplicate => UNRESOLVED_SYMBOL_ERROR,
        FailureKind::Incompatible => CuError::INVALID_IMAGE,
    }
}

/// What one input contributes.
enum Inputs {
    /// Always linked.
    Units(Vec<LinkUnit>),
    /// Linked if needed.
    Members(Vec<LibraryMember>),
}

/// Appends `line` (and a newline separator when the log is not empty) to a log.
fn push_line(log: &mut String, line: &str) {
    if !log.is_empty() {
        log.push('\n');
    }
    log.push_str(line);
}

/// An input's error: the code and the error-log text.
type InputError = (CuError, String);

fn image_error(err: ImageError, name: &str) -> InputError {
    let code = CuError::from_code(err.cuda_error_code()).unwrap_or(CuError::INVALID_IMAGE);
    (code, format!("error   : '{name}': {err}"))
}

/// Parses PTX text (up to its first NUL) into a unit.
fn ptx_unit(text: &[u8], name: &str, lazy: bool) -> Result<LinkUnit, InputError> {
    let text = text.split(|&b| b == 0).next().unwrap_or_default();
    let text = std::str::from_utf8(text).map_err(|_| (CuError::INVALID_PTX, format!("error   : '{name}': PTX is not UTF-8 text")))?;
    LinkUnit::parse(name, text, lazy).map_err(|log| (CuError::INVALID_PTX, format!("error   : '{name}': PTX does not compile\n{}", log.trim_end())))
}

/// The PTX texts of one fatbin (containers back to back). Library code (`any_arch`) may
/// come from PTX for a newer architecture than the device's.
fn fatbin_texts(bytes: &[u8], name: &str, target_sm: u32, any_arch: bool) -> Result<Vec<String>, InputError> {
    let containers = kernel_image::split_containers(bytes).map_err(|e| image_error(e, name))?;
    containers.into_iter().map(|c| kernel_image::container_ptx(c, target_sm, any_arch).map(|p| p.text).map_err(|e| image_error(e, name))).collect()
}

/// The PTX texts of a host object's fatbin sections.
fn object_texts(bytes: &[u8], name: &str, target_sm: u32, any_arch: bool) -> Result<Vec<String>, InputError> {
    let sections = kernel_image::object_fatbins(bytes).map_err(|e| image_error(e, name))?;
    if sections.is_empty() {
        return Err((CuError::INVALID_IMAGE, format!("error   : '{name}': host object without device code (no .nv_fatbin section)")));
    }
    let mut texts = Vec::new();
    for section in sections {
        texts.extend(fatbin_texts(section, name, target_sm, any_arch)?);
    }
    Ok(texts)
}

/// Parses eagerly linked PTX texts.
fn eager_units(texts: Vec<String>, name: &str) -> Result<Inputs, InputError> {
    texts.iter().map(|t| ptx_unit(t.as_bytes(), name, false)).collect::<Result<_, _>>().map(Inputs::Units)
}

/// Converts one `cuLinkAddData` input into link units or library members. Archive
/// members without usable PTX (SASS only) are skipped with an info-log line: they only
/// matter if something needs them, and then the link reports the undefined name.
fn link_inputs(input_type: u32, data: &[u8], name: &str, target_sm: u32, info: &mut String) -> Result<Inputs, InputError> {
    use input_type::*;
    match input_type {
        // NVIDIA's driver answers CUDA_ERROR_JIT_COMPILER_NOT_FOUND (measured as above).
        NVVM => Err((
            CuError::JIT_COMPILER_NOT_FOUND,
            format!("error   : '{name}': LTO-IR (CU_JIT_INPUT_NVVM) input is not supported; compile with -rdc=true to PTX instead of -dlto"),
        )),
        LIBRARY => {
            let members = kernel_image::archive_members(data).map_err(|e| image_error(e, name))?;
            let mut out = Vec::new();
            for (member, bytes) in members {
                let member_name = format!("{name}:{member}");
                let texts = match kernel_image::classify(bytes) {
                    ImageKind::Elf if elf_machine(bytes) == Some(EM_CUDA) => Err((CuError::NO_BINARY_FOR_GPU, "SASS only".to_string())),
                    ImageKind::Elf => object_texts(bytes, &member_name, target_sm, true),
                    ImageKind::FatbinContainer => fatbin_texts(bytes, &member_name, target_sm, true),
                    ImageKind::PtxText => Ok(vec![String::from_utf8_lossy(bytes.split(|&b| b == 0).next().unwrap_or_default()).into_owned()]),
                    _ => Err((CuError::INVALID_IMAGE, "not a device code object".to_string())),
                };
                match texts {
                    Ok(texts) => out.extend(texts.into_iter().map(|text| LibraryMember { name: member_name.clone(), text })),
                    Err((_, why)) => push_line(info, &format!("info    : '{member_name}' skipped: {}", why.lines().next().unwrap_or(""))),
                }
            }
            Ok(Inputs::Members(out))
        }
        CUBIN | PTX | FATBINARY | OBJECT => match kernel_image::classify(data) {
            ImageKind::PtxText => Ok(Inputs::Units(vec![ptx_unit(data, name, false)?])),
            ImageKind::FatbinContainer => eager_units(fatbin_texts(data, name, target_sm, false)?, name),
            ImageKind::Elf if elf_machine(data) == Some(EM_CUDA) => Err((
                CuError::NO_BINARY_FOR_GPU,
                format!("error   : '{name}': an NVIDIA cubin holds only SASS; link PTX (compile with -arch=compute_XX or embed PTX)"),
            )),
            ImageKind::Elf => eager_units(object_texts(data, name, target_sm, false)?, name),
            ImageKind::Archive => Err((CuError::INVALID_IMAGE, format!("error   : '{name}': an archive must be added as CU_JIT_INPUT_LIBRARY"))),
            ImageKind::FatbinWrapper => {
                Err((CuError::INVALID_IMAGE, format!("error   : '{name}': a fatbin wrapper holds pointers; add the fatbin it points to")))
            }
        },
        other => Err((CuError::INVALID_VALUE, format!("error   : '{name}': unknown CUjitInputType {other}"))),
    }
}

/// `EM_CUDA`, the ELF machine of NVIDIA cubins.
const EM_CUDA: u16 = 190;

fn elf_machine(bytes: &[u8]) -> Option<u16> {
    Some(u16::from_le_bytes([*bytes.get(0x12)?, *bytes.get(0x13)?]))
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
pub(crate) fn link_prelinked(bytes: &[u8], target_sm: u32) -> Result<String, InputError> {
    let containers = kernel_image::split_containers(bytes).map_err(|e| image_error(e, "prelinked fatbin"))?;
    let mut units = vec![device_runtime_unit()];
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
    ptx_link::link_with_libraries(&units, &members).map(|l| l.ptx).map_err(|f| (failure_code(&f), f.log))
}
