//! What the two JIT linkers share: libcuda's `cuLink*` (`cuda-driver/src/link.rs`) and
//! libnvJitLink (`crates/nvjitlink`). Both link at the PTX level with
//! [`compiler_core::link`]; this crate turns their inputs into link units and runs the link.
//!
//! Inputs become units when they are added (NVIDIA compiles PTX there, so a syntax error is
//! reported by the add, not by the link):
//! - PTX text, and a "cubin" holding PTX text (what both of our linkers return as their
//!   cubin);
//! - fatbins: the PTX each container's selection rule picks, as module loads do; only SASS
//!   is [`Fault::SassOnly`];
//! - host objects: the fatbins in their `.nv_fatbin`/`__nv_relfatbin` sections;
//! - `ar` archives (`nvcc -lib`, `libcudadevrt.a`): members are linked only when they define
//!   something still undefined, like a static linker's, and stay unparsed text until then;
//! - LTO-IR is [`Fault::LtoIr`]: there is no NVVM here.
//!
//! Each API maps [`Fault`]s to its own codes and writes its own log conventions; the log
//! text built here is NVIDIA's (`error   : ...`). Knows no C API, no CUDA state, no device.

use compiler_core::link::{self as ptx_link, LibraryMember, LinkFailure, LinkUnit};
use kernel_image::{ImageError, ImageKind};

pub use compiler_core::link::FailureKind;

/// What an input is declared to be (`CUjitInputType`, `nvJitLinkInputType`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    Cubin,
    Ptx,
    Fatbin,
    Object,
    Library,
    LtoIr,
}

/// Why an input was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fault {
    /// PTX text that does not parse.
    InvalidPtx,
    /// An NVIDIA cubin: SASS only, nothing this compiler can run.
    SassOnly,
    /// LTO-IR (NVVM bitcode): not supported.
    LtoIr,
    /// A malformed or unusable image; the code is the `CUresult` `kernel-image` assigns
    /// (`ImageError::cuda_error_code`).
    Image(u32),
    /// Data of a kind that must be added differently (an archive not added as a library, a
    /// fatbin wrapper, an ELF object without device code).
    WrongKind,
    /// A second strong definition of a name another input already defines, or a function
    /// whose prototype differs from another input's (both `CUDA_ERROR_INVALID_SOURCE`).
    MultipleDefinition,
}

/// A refused input: the fault and the error-log text (one or more lines, no final newline).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InputError {
    pub fault: Fault,
    pub log: String,
}

impl InputError {
    fn new(fault: Fault, log: String) -> Self {
        InputError { fault, log }
    }
}

/// The device runtime our driver provides itself ([`compiler_core::devrt`]), one lazy
/// unit per function, linked before any library the client adds: NVIDIA's `libcudadevrt`
/// implements the same functions over driver-internal calls (`cnp*`, `__cuda_syscall_*`)
/// that no other driver has, so a program's references must bind here first. nvJitLink's
/// output runs on our driver too, so it links them as well.
pub fn device_runtime_units() -> Vec<LinkUnit> {
    static UNITS: std::sync::OnceLock<Vec<LinkUnit>> = std::sync::OnceLock::new();
    UNITS
        .get_or_init(|| {
            compiler_core::devrt::units()
                .iter()
                .map(|(name, text)| {
                    LinkUnit::parse(format!("<driver device runtime: {name}>"), text, true).expect("the built-in device runtime parses")
                })
                .collect()
        })
        .clone()
}

/// The inputs of one link, added one by one.
#[derive(Clone, Debug)]
pub struct PendingLink {
    units: Vec<LinkUnit>,
    /// Library members, parsed only if the link needs them.
    members: Vec<LibraryMember>,
    /// Registers per thread every kernel of the output is limited to.
    max_registers: Option<u32>,
}

impl Default for PendingLink {
    fn default() -> Self {
        Self::new()
    }
}

impl PendingLink {
    /// An empty link (holding only the device runtime's lazy units).
    pub fn new() -> Self {
        PendingLink { units: device_runtime_units(), members: Vec::new(), max_registers: None }
    }

    /// Adds one input for a device of architecture `target_sm` (fatbin PTX selection).
    /// Archive members skipped for want of PTX get a line in `info`. A refused input
    /// leaves the link as it was.
    pub fn add(&mut self, kind: InputKind, data: &[u8], name: &str, target_sm: u32, info: &mut String) -> Result<(), InputError> {
        match link_inputs(kind, data, name, target_sm, info)? {
            Inputs::Units(units) => {
                let all: Vec<&LinkUnit> = self.units.iter().chain(units.iter()).collect();
                let duplicates = ptx_link::multiple_definitions(&all);
                if !duplicates.is_empty() {
                    return Err(InputError::new(Fault::MultipleDefinition, duplicates.join("\n")));
                }
                let mismatches = ptx_link::prototype_mismatches(&all);
                if !mismatches.is_empty() {
                    return Err(InputError::new(Fault::MultipleDefinition, mismatches.join("\n")));
                }
                self.units.extend(units);
            }
            Inputs::Members(members) => self.members.extend(members),
        }
        Ok(())
    }

    /// Limits every kernel of the output to `n` registers per thread (`CU_JIT_MAX_REGISTERS`,
    /// `-maxrregcount`) where it sets no `.maxnreg` of its own; 0 means no limit.
    pub fn set_max_registers(&mut self, n: u32) {
        self.max_registers = (n > 0).then_some(n);
    }

    /// Links what was added into one PTX module (the text, without a NUL).
    pub fn link(&self) -> Result<String, LinkFailure> {
        let ptx = ptx_link::link_with_libraries(&self.units, &self.members)?.ptx;
        Ok(match self.max_registers {
            Some(n) => ptx_link::with_max_registers(&ptx, n),
            None => ptx,
        })
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
pub fn push_line(log: &mut String, line: &str) {
    if !log.is_empty() {
        log.push('\n');
    }
    log.push_str(line);
}

/// An image error as an [`InputError`] naming the input.
pub fn image_error(err: ImageError, name: &str) -> InputError {
    InputError::new(Fault::Image(err.cuda_error_code()), format!("error   : '{name}': {err}"))
}

/// Parses PTX text (up to its first NUL) into a unit.
pub fn ptx_unit(text: &[u8], name: &str, lazy: bool) -> Result<LinkUnit, InputError> {
    let text = text.split(|&b| b == 0).next().unwrap_or_default();
    let text = std::str::from_utf8(text).map_err(|_| InputError::new(Fault::InvalidPtx, format!("error   : '{name}': PTX is not UTF-8 text")))?;
    // PTX newer than the compiler takes, as the driver refuses it.
    kernel_image::check_ptx_isa(text, kernel_image::SUPPORTED_PTX_ISA).map_err(|e| image_error(e, name))?;
    LinkUnit::parse(name, text, lazy)
        .map_err(|log| InputError::new(Fault::InvalidPtx, format!("error   : '{name}': PTX does not compile\n{}", log.trim_end())))
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
        return Err(InputError::new(Fault::WrongKind, format!("error   : '{name}': host object without device code (no .nv_fatbin section)")));
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

/// Converts one input into link units or library members. Cubins, PTX, fatbins and host
/// objects are told apart by their bytes, whichever of the four they are declared as (as
/// NVIDIA's driver does). Archive members without usable PTX (SASS only) are skipped with
/// an info-log line: they only matter if something needs them, and then the link reports
/// the undefined name.
fn link_inputs(kind: InputKind, data: &[u8], name: &str, target_sm: u32, info: &mut String) -> Result<Inputs, InputError> {
    match kind {
        InputKind::LtoIr => Err(InputError::new(
            Fault::LtoIr,
            format!("error   : '{name}': LTO-IR input is not supported; compile with -rdc=true to PTX instead of -dlto"),
        )),
        InputKind::Library => {
            let members = kernel_image::archive_members(data).map_err(|e| image_error(e, name))?;
            let mut out = Vec::new();
            for (member, bytes) in members {
                let member_name = format!("{name}:{member}");
                let texts = match kernel_image::classify(bytes) {
                    ImageKind::Elf if is_cuda_elf(bytes) => Err(InputError::new(Fault::SassOnly, "SASS only".to_string())),
                    ImageKind::Elf => object_texts(bytes, &member_name, target_sm, true),
                    ImageKind::FatbinContainer => fatbin_texts(bytes, &member_name, target_sm, true),
                    ImageKind::PtxText => Ok(vec![String::from_utf8_lossy(bytes.split(|&b| b == 0).next().unwrap_or_default()).into_owned()]),
                    _ => Err(InputError::new(Fault::WrongKind, "not a device code object".to_string())),
                };
                match texts {
                    Ok(texts) => out.extend(texts.into_iter().map(|text| LibraryMember { name: member_name.clone(), text })),
                    Err(e) => push_line(info, &format!("info    : '{member_name}' skipped: {}", e.log.lines().next().unwrap_or(""))),
                }
            }
            Ok(Inputs::Members(out))
        }
        InputKind::Cubin | InputKind::Ptx | InputKind::Fatbin | InputKind::Object => match kernel_image::classify(data) {
            ImageKind::PtxText => Ok(Inputs::Units(vec![ptx_unit(data, name, false)?])),
            ImageKind::FatbinContainer => eager_units(fatbin_texts(data, name, target_sm, false)?, name),
            ImageKind::Elf if is_cuda_elf(data) => Err(InputError::new(
                Fault::SassOnly,
                format!("error   : '{name}': an NVIDIA cubin holds only SASS, which this implementation cannot run; link PTX (compile with -arch=compute_XX or embed PTX)"),
            )),
            ImageKind::Elf => eager_units(object_texts(data, name, target_sm, false)?, name),
            ImageKind::Archive => Err(InputError::new(Fault::WrongKind, format!("error   : '{name}': an archive must be added as a library"))),
            ImageKind::FatbinWrapper => {
                Err(InputError::new(Fault::WrongKind, format!("error   : '{name}': a fatbin wrapper holds pointers; add the fatbin it points to")))
            }
        },
    }
}

/// `EM_CUDA`, the ELF machine of NVIDIA cubins.
pub const EM_CUDA: u16 = 190;

/// Whether `bytes` is an ELF file for `EM_CUDA` (an NVIDIA cubin).
pub fn is_cuda_elf(bytes: &[u8]) -> bool {
    bytes.starts_with(&kernel_image::ELF_MAGIC) && bytes.get(0x12..0x14).map(|m| u16::from_le_bytes([m[0], m[1]])) == Some(EM_CUDA)
}

#[cfg(test)]
mod tests;
