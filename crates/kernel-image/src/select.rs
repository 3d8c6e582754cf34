//! Choosing which fatbin entry to compile for a device.
//!
//! "fatbin-format.md" ("Picking what to run"): only PTX can be compiled for a non-NVIDIA
//! device; prefer the newest PTX the compiler supports and fall back to older ones; when
//! only SASS is present, fail with CUDA_ERROR_NO_BINARY_FOR_GPU and say so clearly.
//!
//! The rule implemented by [`select_ptx`]: among PTX entries whose ISA version is at most
//! the compiler's and whose `compute_XX` is at most the device's `sm_XX`, take the highest
//! architecture, then the newest ISA, then the earliest entry.
//!
//! Only when no such entry exists is PTX for a newer architecture used: the one closest to
//! the device (lowest `compute_XX`, then newest ISA). NVIDIA's driver refuses such PTX because
//! the hardware may lack what it uses; our devices run PTX through our own compiler, which
//! knows instruction by instruction what it supports and names what it does not. Libraries
//! built the recommended way ship SASS for older GPUs and PTX only for the newest
//! architecture (CuPy's CUB module holds PTX for `compute_100` alone), so refusing would make
//! them unusable on a device that can run every instruction they contain.

use std::fmt::Write;

use crate::container::{EntryKind, FatbinEntry};
use crate::error::ImageError;

/// The entry chosen by [`select_ptx`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Selected<'a> {
    /// Index of the entry in the slice passed to [`select_ptx`].
    pub index: usize,
    /// The entry itself (always [`EntryKind::Ptx`]).
    pub entry: &'a FatbinEntry,
}

/// Picks the PTX entry to compile for a device of architecture `target_sm` (e.g. 86 for
/// `sm_86`) with a PTX compiler that accepts ISA versions up to `max_supported_isa`
/// (`(major, minor)`).
///
/// # Errors
/// - [`ImageError::NoBinaryForGpu`]: no entries; no PTX at all (the message lists the SASS
///   architectures and how to rebuild); or every PTX entry is unusable, at least one
///   because it targets a newer architecture than the device and a newer ISA than supported.
/// - [`ImageError::UnsupportedPtxVersion`]: every PTX entry needs a newer PTX ISA than
///   `max_supported_isa`.
pub fn select_ptx(entries: &[FatbinEntry], max_supported_isa: (u32, u32), target_sm: u32) -> Result<Selected<'_>, ImageError> {
    let ptx: Vec<(usize, &FatbinEntry)> = entries.iter().enumerate().filter(|(_, entry)| entry.kind == EntryKind::Ptx).collect();
    if ptx.is_empty() {
        return Err(no_ptx_error(entries, target_sm));
    }
    let isa_of = |entry: &FatbinEntry| entry.ptx_isa.unwrap_or((0, 0));
    let best = ptx
        .iter()
        .filter(|(_, entry)| isa_of(entry) <= max_supported_isa && entry.sm_arch <= target_sm)
        // Highest architecture, then newest ISA, then the earliest entry.
        .max_by_key(|(index, entry)| (entry.sm_arch, isa_of(entry), std::cmp::Reverse(*index)));
    if let Some(&(index, entry)) = best {
        return Ok(Selected { index, entry });
    }
    let closest_newer = ptx
        .iter()
        .filter(|(_, entry)| isa_of(entry) <= max_supported_isa && entry.sm_arch > target_sm)
        // Lowest architecture, then newest ISA, then the earliest entry.
        .max_by_key(|(index, entry)| (std::cmp::Reverse(entry.sm_arch), isa_of(entry), std::cmp::Reverse(*index)));
    if let Some(&(index, entry)) = closest_newer {
        return Ok(Selected { index, entry });
    }

    let mut reasons = String::new();
    let mut any_arch_problem = false;
    for (_, entry) in &ptx {
        let (major, minor) = isa_of(entry);
        let _ = write!(reasons, "; compute_{} (PTX ISA {major}.{minor}): ", entry.sm_arch);
        let mut problems = Vec::new();
        if entry.sm_arch > target_sm {
            any_arch_problem = true;
            problems.push(format!("architecture newer than the device (sm_{target_sm})"));
        }
        if (major, minor) > max_supported_isa {
            problems.push(format!("ISA newer than the supported {}.{}", max_supported_isa.0, max_supported_isa.1));
        }
        reasons.push_str(&problems.join(" and "));
    }
    let summary = format!("image has PTX, but none of it can be compiled for this device{reasons}");
    if any_arch_problem {
        Err(ImageError::NoBinaryForGpu(format!(
            "{summary} (rebuild with -gencode arch=compute_{target_sm},code=compute_{target_sm} or an older compute_XX)"
        )))
    } else {
        Err(ImageError::UnsupportedPtxVersion(summary))
    }
}

/// The error for an image without any PTX entry.
fn no_ptx_error(entries: &[FatbinEntry], target_sm: u32) -> ImageError {
    if entries.is_empty() {
        return ImageError::NoBinaryForGpu("fatbin holds no entries at all (no PTX and no SASS)".to_owned());
    }
    let mut sass: Vec<u32> = entries.iter().filter(|entry| entry.kind == EntryKind::Elf).map(|entry| entry.sm_arch).collect();
    sass.sort_unstable();
    sass.dedup();
    let mut other: Vec<u16> = entries
        .iter()
        .filter_map(|entry| match entry.kind {
            EntryKind::Other(raw) => Some(raw),
            _ => None,
        })
        .collect();
    other.sort_unstable();
    other.dedup();

    let mut found = Vec::new();
    if !sass.is_empty() {
        let archs: Vec<String> = sass.iter().map(|sm| format!("sm_{sm}")).collect();
        found.push(format!("SASS for {}", archs.join(", ")));
    }
    if !other.is_empty() {
        let kinds: Vec<String> = other.iter().map(u16::to_string).collect();
        found.push(format!("entries of unknown kind {}", kinds.join(", ")));
    }
    let suggest = sass.first().map_or(target_sm, |&lowest| lowest.min(target_sm));
    ImageError::NoBinaryForGpu(format!(
        "image contains only {}; no PTX to compile for this device (rebuild with \
         -gencode arch=compute_{suggest},code=compute_{suggest} or --gpu-architecture=compute_{suggest})",
        found.join(" and ")
    ))
}
