//! The one-call entry point: from any image's bytes to the PTX text to compile.
//!
//! [`extract_ptx`] dispatches on [`classify`]: containers go through [`parse_container`]
//! and [`select_ptx`]; PTX text is checked to really be text; cubins and archives can only
//! hold SASS and end in CUDA_ERROR_NO_BINARY_FOR_GPU ("fatbin-format.md": reject an NVIDIA
//! cubin cleanly). A wrapper holds pointers, so it must go through
//! [`crate::image_from_ptr`] first.

use crate::classify::{classify, ImageKind};
use crate::container::{parse_container, FatbinEntry};
use crate::elf::{elf_machine, EM_CUDA};
use crate::error::ImageError;
use crate::select::select_ptx;

/// A `max_supported_isa` that accepts every PTX ISA version.
pub const ANY_PTX_ISA: (u32, u32) = (u32::MAX, u32::MAX);

/// The newest PTX ISA our compiler takes: the 9.x of CUDA 13. The driver and the linkers
/// refuse newer PTX with `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`, as NVIDIA's driver refuses
/// PTX newer than itself.
pub const SUPPORTED_PTX_ISA: (u32, u32) = (9, 9);

/// PTX text ready for the PTX compiler, with what is known about it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PtxSource {
    /// The PTX, without NUL terminator or trailing padding. May start with blank lines.
    pub text: String,
    /// The architecture the PTX was generated for: the entry's `compute_XX` for fatbins, or
    /// the first `.target sm_XX` for bare text (`None` if absent).
    pub sm_arch: Option<u32>,
    /// PTX ISA version `(major, minor)`: the entry header's, or the `.version` directive's.
    pub isa: Option<(u32, u32)>,
}

/// Returns the PTX to compile for a device of architecture `target_sm`, from the bytes of a
/// fatbin container (or several back to back) or of PTX text. Any ISA version is accepted;
/// use [`extract_ptx_limited`] to bound it.
///
/// # Errors
/// [`ImageError::Invalid`] for malformed containers, binary data that is not text, or a
/// bare wrapper (use [`crate::image_from_ptr`]); [`ImageError::NoBinaryForGpu`] for
/// ELF cubins, archives and containers without suitable PTX.
pub fn extract_ptx(bytes: &[u8], target_sm: u32) -> Result<PtxSource, ImageError> {
    extract_ptx_limited(bytes, ANY_PTX_ISA, target_sm)
}

/// Like [`extract_ptx`], for a PTX compiler that accepts ISA versions up to
/// `max_supported_isa`. Bare PTX text with a newer `.version` gives
/// [`ImageError::UnsupportedPtxVersion`]; its `.target` is left to the compiler to judge.
pub fn extract_ptx_limited(bytes: &[u8], max_supported_isa: (u32, u32), target_sm: u32) -> Result<PtxSource, ImageError> {
    match classify(bytes) {
        ImageKind::FatbinWrapper => Err(ImageError::invalid("a fatbin wrapper only holds pointers; read it with image_from_ptr")),
        ImageKind::FatbinContainer => {
            let entries = parse_container(bytes)?;
            let selected = select_ptx(&entries, max_supported_isa, target_sm)?;
            ptx_from_entry(selected.entry)
        }
        ImageKind::Elf => Err(elf_error(bytes)),
        ImageKind::Archive => Err(archive_error()),
        ImageKind::PtxText => {
            let source = ptx_from_text(bytes)?;
            check_isa(source.isa, max_supported_isa)?;
            Ok(source)
        }
    }
}

/// [`ImageError::UnsupportedPtxVersion`] when PTX `text` declares a `.version` newer than
/// `max_supported_isa`. Reads only the first tokens, without copying the text (the
/// linkers check every input this way before parsing it).
pub fn check_ptx_isa(text: &str, max_supported_isa: (u32, u32)) -> Result<(), ImageError> {
    check_isa(scan_header(text).0, max_supported_isa)
}

fn check_isa(isa: Option<(u32, u32)>, max_supported_isa: (u32, u32)) -> Result<(), ImageError> {
    match isa {
        Some((major, minor)) if (major, minor) > max_supported_isa => Err(ImageError::UnsupportedPtxVersion(format!(
            "PTX text declares .version {major}.{minor}; the PTX compiler supports up to {}.{}",
            max_supported_isa.0, max_supported_isa.1
        ))),
        _ => Ok(()),
    }
}

/// The error for an archive of cubins.
pub(crate) fn archive_error() -> ImageError {
    ImageError::NoBinaryForGpu(
        "image is an archive (a library of cubins), which holds only SASS; no PTX to compile \
         for this device (rebuild with --gpu-architecture=compute_XX to embed PTX)"
            .to_owned(),
    )
}

/// The error for an ELF image.
fn elf_error(bytes: &[u8]) -> ImageError {
    match elf_machine(bytes) {
        Some(EM_CUDA) => ImageError::NoBinaryForGpu(
            "image is an NVIDIA cubin, which holds only SASS; no PTX to compile for this device \
             (rebuild with -gencode arch=compute_XX,code=compute_XX to embed PTX)"
                .to_owned(),
        ),
        machine => ImageError::NoBinaryForGpu(format!("image is an ELF file for machine {machine:?}, not a CUDA image with PTX")),
    }
}

/// Converts a selected fatbin PTX entry (payload already cut at its NUL).
fn ptx_from_entry(entry: &FatbinEntry) -> Result<PtxSource, ImageError> {
    let text = String::from_utf8_lossy(&entry.payload).into_owned();
    if text.trim().is_empty() {
        return Err(ImageError::invalid(format!("PTX entry for compute_{} at offset {} is empty", entry.sm_arch, entry.offset)));
    }
    Ok(PtxSource { text, sm_arch: Some(entry.sm_arch), isa: entry.ptx_isa })
}

/// Checks that `bytes` (cut at its first NUL) is plausible PTX text and reads its header.
///
/// Garbage that merely lacks a known magic is rejected here as an invalid image instead of
/// reaching the PTX parser: text may contain no control characters besides whitespace.
fn ptx_from_text(bytes: &[u8]) -> Result<PtxSource, ImageError> {
    let text = bytes.split(|&b| b == 0).next().unwrap_or_default();
    if let Some(pos) = text.iter().position(|&b| (b < 0x20 && !b"\t\n\r\x0b\x0c".contains(&b)) || b == 0x7F) {
        return Err(ImageError::invalid(format!(
            "image is neither a fatbin, an ELF nor PTX text (control byte 0x{:02x} at offset {pos})",
            text[pos]
        )));
    }
    let text = String::from_utf8_lossy(text).into_owned();
    if text.trim().is_empty() {
        return Err(ImageError::invalid("PTX text is empty"));
    }
    let (isa, sm_arch) = scan_header(&text);
    Ok(PtxSource { text, sm_arch, isa })
}

/// How many leading tokens [`scan_header`] looks at; `.version` and `.target` come first
/// in every PTX module, after comments.
const HEADER_TOKENS: usize = 64;

/// Best-effort read of the `.version X.Y` and first `.target sm_XX` directives.
fn scan_header(text: &str) -> (Option<(u32, u32)>, Option<u32>) {
    let mut isa = None;
    let mut sm_arch = None;
    let mut tokens = Tokens { rest: text }.take(HEADER_TOKENS).peekable();
    while let Some(token) = tokens.next() {
        match token {
            ".version" if isa.is_none() => {
                isa = tokens.peek().and_then(|v| {
                    let (major, minor) = v.split_once('.')?;
                    Some((major.parse().ok()?, minor.parse().ok()?))
                });
            }
            ".target" if sm_arch.is_none() => {
                sm_arch = tokens.peek().and_then(|t| {
                    let digits = t.strip_prefix("sm_")?;
                    let end = digits.find(|c: char| !c.is_ascii_digit()).unwrap_or(digits.len());
                    digits[..end].parse().ok()
                });
            }
            _ => {}
        }
        if isa.is_some() && sm_arch.is_some() {
            break;
        }
    }
    (isa, sm_arch)
}

/// Splits PTX into tokens at whitespace, commas and semicolons, skipping `//` and `/* */`
/// comments.
struct Tokens<'a> {
    rest: &'a str,
}

impl<'a> Iterator for Tokens<'a> {
    type Item = &'a str;

    fn next(&mut self) -> Option<&'a str> {
        loop {
            self.rest = self.rest.trim_start_matches(|c: char| c.is_whitespace() || c == ',' || c == ';');
            if let Some(after) = self.rest.strip_prefix("//") {
                self.rest = after.split_once('\n').map_or("", |(_, tail)| tail);
            } else if let Some(after) = self.rest.strip_prefix("/*") {
                self.rest = after.split_once("*/").map_or("", |(_, tail)| tail);
            } else if self.rest.is_empty() {
                return None;
            } else {
                let end = self.rest.find(|c: char| c.is_whitespace() || c == ',' || c == ';' || c == '/').unwrap_or(self.rest.len());
                // A lone '/' that does not start a comment is still a token character.
                let end = if end == 0 { 1 } else { end };
                let (token, tail) = self.rest.split_at(end);
                self.rest = tail;
                return Some(token);
            }
        }
    }
}
