//! From what `cuModuleLoadData`/`cuLibraryLoadData` receive to PTX text, via `kernel-image`.
//!
//! Failures keep `kernel-image`'s message: it is logged (`LIBCUDA_LOG`) and returned as
//! the JIT error log, so a program built with SASS only hears
//! `CUDA_ERROR_NO_BINARY_FOR_GPU` *and* how to rebuild with PTX.

use std::ffi::c_void;

use kernel_image::{ImageError, PtxSource, SUPPORTED_PTX_ISA};

use crate::diag::fail;
use crate::CuError;

/// A failed extraction: the code and the explanation for the error log.
pub(crate) struct ImageFailure {
    pub(crate) error: CuError,
    pub(crate) message: String,
}

fn failure(err: ImageError) -> ImageFailure {
    let error = CuError::from_code(err.cuda_error_code()).unwrap_or(CuError::INVALID_IMAGE);
    let message = err.to_string();
    ImageFailure { error: fail(error, format_args!("kernel image: {message}")), message }
}

/// The PTX to compile for architecture `target_sm` from an image in caller memory.
///
/// # Safety
/// As `kernel_image::image_from_ptr`: `image` is null or points to one complete image
/// (wrapper, container, ELF, or NUL-terminated PTX).
pub(crate) unsafe fn ptx_from_ptr(image: *const c_void, target_sm: u32) -> Result<PtxSource, ImageFailure> {
    // SAFETY: forwarded from the caller.
    let image = unsafe { kernel_image::image_from_ptr(image.cast()) }.map_err(failure)?;
    if image.prelinked {
        // nvcc -rdc=true: link the translation units' relocatable PTX, as NVIDIA's driver
        // JIT-links them when the device-linked fatbin has no code for the device.
        return match crate::link::link_prelinked(&image.bytes, target_sm) {
            Ok(text) => {
                let isa = text.lines().find_map(|l| l.trim().strip_prefix(".version ")).and_then(|v| {
                    let (major, minor) = v.trim().split_once('.')?;
                    Some((major.parse().ok()?, minor.parse().ok()?))
                });
                // The functions' PTX version (`CU_FUNC_ATTRIBUTE_PTX_VERSION`) is the
                // architecture the units were compiled for (`.target sm_80`), not the
                // device's: CUB and Thrust pick their tuning policy from it and fail with
                // `cudaErrorInvalidDeviceFunction` when it names one the program has no
                // kernels for.
                let sm_arch = target_arch(&text).or(Some(target_sm));
                Ok(PtxSource { text, sm_arch, isa })
            }
            Err((error, message)) => Err(ImageFailure { error: fail(error, format_args!("linking -rdc fatbins:\n{message}")), message }),
        };
    }
    image.extract_ptx_limited(SUPPORTED_PTX_ISA, target_sm).map_err(failure)
}

/// The architecture of a PTX module's `.target` directive (`sm_80` -> 80; the first one
/// when it lists several, PTX ISA 11.2.2 "Target Directive"), if it names one.
fn target_arch(ptx: &str) -> Option<u32> {
    let line = ptx.lines().find_map(|l| l.trim().strip_prefix(".target"))?;
    let first = line.split(|c: char| c == ',' || c.is_whitespace()).find(|t| !t.is_empty())?;
    first.strip_prefix("sm_")?.trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().ok()
}

/// The PTX to compile from an image's bytes (a file read by `cuModuleLoad`).
pub(crate) fn ptx_from_bytes(bytes: &[u8], target_sm: u32) -> Result<PtxSource, ImageFailure> {
    kernel_image::extract_ptx_limited(bytes, SUPPORTED_PTX_ISA, target_sm).map_err(failure)
}

/// The names of the `.entry` kernels PTX declares, in order (a token scan: the PTX is
/// compiled later, lazily, so `cuLibraryGetKernel` can answer before any compilation).
pub(crate) fn entry_names(ptx: &str) -> Vec<String> {
    let code = strip_comments(ptx);
    let mut names = Vec::new();
    let mut seen = std::collections::HashSet::new();
    let mut rest = code.as_str();
    while let Some(at) = rest.find(".entry") {
        let before_ok = at == 0 || rest.as_bytes()[at - 1].is_ascii_whitespace();
        rest = &rest[at + ".entry".len()..];
        if !before_ok || !rest.starts_with(|c: char| c.is_ascii_whitespace()) {
            continue;
        }
        let trimmed = rest.trim_start();
        let end = trimmed.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '$' || c == '.')).unwrap_or(trimmed.len());
        if end > 0 && seen.insert(&trimmed[..end]) {
            names.push(trimmed[..end].to_string());
        }
    }
    names
}

/// `ptx` with `//` and `/* */` comments replaced by spaces. One pass: library PTX runs to
/// tens of megabytes (CuPy's CUB module: 22 MB).
fn strip_comments(ptx: &str) -> String {
    let b = ptx.as_bytes();
    let mut out = String::with_capacity(ptx.len());
    let (mut i, mut copied) = (0, 0);
    while i + 1 < b.len() {
        if b[i] != b'/' || (b[i + 1] != b'/' && b[i + 1] != b'*') {
            i += 1;
            continue;
        }
        out.push_str(&ptx[copied..i]);
        out.push(' ');
        i = if b[i + 1] == b'/' {
            b[i..].iter().position(|&c| c == b'\n').map_or(b.len(), |nl| i + nl)
        } else {
            ptx[i + 2..].find("*/").map_or(b.len(), |end| i + 2 + end + 2)
        };
        copied = i;
    }
    out.push_str(&ptx[copied.min(ptx.len())..]);
    out
}

#[cfg(test)]
mod tests {
    #[test]
    fn entry_names_are_found() {
        let ptx = ".version 8.0\n.target sm_80\n.visible .entry _Z5saxpyifPKfPf(\n.param .u32 a)\n{ ret; }\n\
                   // .entry commented_out\n/* .entry also_out */.entry k2 ( ) { ret; }\n.func f() {}\n";
        assert_eq!(super::entry_names(ptx), vec!["_Z5saxpyifPKfPf", "k2"]);
    }

    #[test]
    fn target_arch_reads_the_target_directive() {
        assert_eq!(super::target_arch("//\n.version 8.8\n.target sm_80\n.address_size 64\n"), Some(80));
        assert_eq!(super::target_arch(".version 8.0\n.target sm_90a, texmode_independent\n"), Some(90));
        assert_eq!(super::target_arch(".version 8.0\n.target sm_75,debug\n"), Some(75));
        assert_eq!(super::target_arch(".version 8.0\n.address_size 64\n"), None);
    }
}
