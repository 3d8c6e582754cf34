//! Copying a kernel image out of memory when all we have is a pointer.
//!
//! `cuModuleLoadData`, `cuModuleLoadFatBinary` and `cuLibraryLoadData` receive a bare
//! `const void *`; cudart 12/13 passes its fatbin **wrapper** (`__fatBinC_Wrapper_t`,
//! "fatbin-format.md"), whose fields point at the container. No length is given, so each
//! image kind is sized from its own headers: a container from its 16-byte header, an ELF
//! from its header tables, PTX text up to its NUL. [`image_from_ptr`] does this and copies
//! the bytes into an owned [`Image`], after which everything else is safe slice code.
//!
//! This is the only module with `unsafe` code.

use crate::classify::{classify, ImageKind, FATBIN_WRAPPER_MAGIC};
use crate::container::{container_extent, parse_container, FatbinEntry, CONTAINER_HEADER_SIZE};
use crate::elf::elf_extent;
use crate::error::ImageError;
use crate::extract::{archive_error, extract_ptx_limited, PtxSource, ANY_PTX_ISA};
use crate::le::{u32_at, u64_at};

/// Size of cudart's fatbin wrapper: u32 magic, u32 version, u64 container pointer, u64
/// pointer to the prelinked list ("fatbin-format.md").
pub const WRAPPER_SIZE: usize = 24;
/// Largest image we are willing to copy (2 GiB); larger header claims are treated as corrupt.
pub const MAX_IMAGE_SIZE: usize = 1 << 31;
/// Longest prelinked-fatbin list we follow before calling the wrapper corrupt.
const MAX_PRELINKED: usize = 4096;
/// How deep wrappers may point at wrappers.
const MAX_WRAPPER_DEPTH: usize = 4;

/// A kernel image copied out of caller memory.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Image {
    /// What the pointer pointed at; [`ImageKind::FatbinWrapper`] if a wrapper was followed.
    pub origin: ImageKind,
    /// The kind of [`bytes`](Self::bytes); never [`ImageKind::FatbinWrapper`], because a
    /// wrapper is replaced by the container(s) it refers to.
    pub kind: ImageKind,
    /// The image bytes. For wrappers: the referenced container, or for a version 2 wrapper
    /// with a prelinked list, those containers back to back. PTX text excludes its NUL.
    pub bytes: Vec<u8>,
    /// True when [`bytes`](Self::bytes) are the relocatable fatbins of a version 2
    /// wrapper's prelinked list (`nvcc -rdc=true`): one container per translation unit or
    /// library, to be linked together ([`crate::split_containers`]).
    pub prelinked: bool,
}

impl Image {
    /// The fatbin entries of a container image ([`parse_container`] on the bytes).
    pub fn entries(&self) -> Result<Vec<FatbinEntry>, ImageError> {
        parse_container(&self.bytes)
    }

    /// The PTX to compile for a device of architecture `target_sm`, accepting any PTX ISA
    /// version; see [`crate::extract_ptx`].
    pub fn extract_ptx(&self, target_sm: u32) -> Result<PtxSource, ImageError> {
        extract_ptx_limited(&self.bytes, ANY_PTX_ISA, target_sm)
    }

    /// Like [`extract_ptx`](Self::extract_ptx), but skips PTX newer than `max_supported_isa`.
    pub fn extract_ptx_limited(&self, max_supported_isa: (u32, u32), target_sm: u32) -> Result<PtxSource, ImageError> {
        extract_ptx_limited(&self.bytes, max_supported_isa, target_sm)
    }
}

/// Copies the kernel image at `ptr` into an owned [`Image`], following fatbin wrappers.
///
/// The kind is decided by the first bytes as in [`classify`]:
/// - wrapper: version must be 1 or 2. The container it points at is copied; a version 2
///   wrapper whose second pointer is a non-empty NULL-terminated list of fatbins uses
///   those instead, concatenated.
/// - container: header size plus entries size bytes, read from the 16-byte header.
/// - ELF: up to the furthest header table, section or segment.
/// - archive: rejected with [`ImageError::NoBinaryForGpu`] (it can only hold SASS, and
///   its length cannot be known from a pointer).
/// - anything else: PTX text up to the first NUL.
///
/// Only the framing is checked here; parse the result with [`Image::extract_ptx`].
///
/// # Errors
/// [`ImageError::Null`] for a null `ptr`; [`ImageError::Invalid`] for a bad wrapper
/// version, a null container pointer, or sizes over [`MAX_IMAGE_SIZE`].
///
/// # Safety
/// `ptr` must be null or point to one complete image of the kind its first bytes announce,
/// readable and not written to for the duration of the call:
/// - wrapper: [`WRAPPER_SIZE`] readable bytes; the container pointer, and for version 2 a
///   non-null list pointer, the list up to and including its NULL terminator and every
///   fatbin it names, must satisfy this same contract.
/// - container: all `header size + entries size` bytes its header declares.
/// - ELF: every byte up to the end of its header tables, sections and segments.
/// - otherwise: a NUL-terminated string.
///
/// Headers that lie about sizes make the reads go out of bounds, exactly as they would in
/// NVIDIA's driver; the result does not borrow from `ptr`.
pub unsafe fn image_from_ptr(ptr: *const u8) -> Result<Image, ImageError> {
    if ptr.is_null() {
        return Err(ImageError::Null);
    }
    // SAFETY: non-null, and the caller's contract covers the image at `ptr`.
    let prefix = unsafe { read_prefix(ptr) };
    let kind = classify(&prefix);
    // SAFETY (all arms): the first bytes announce `kind`, so by the caller's contract a
    // complete image of that kind is readable at `ptr`.
    let (bytes, prelinked) = match kind {
        ImageKind::FatbinWrapper => unsafe { read_wrapper(ptr, 0) }?,
        ImageKind::FatbinContainer => (unsafe { read_container(ptr) }?, false),
        ImageKind::Elf => (unsafe { read_elf(ptr) }?, false),
        ImageKind::Archive => return Err(archive_error()),
        ImageKind::PtxText => (unsafe { read_c_string(ptr) }?, false),
    };
    let content_kind = match kind {
        ImageKind::FatbinWrapper => ImageKind::FatbinContainer,
        other => other,
    };
    Ok(Image { origin: kind, kind: content_kind, bytes, prelinked })
}

/// Reads up to 8 bytes, stopping after the first NUL, so that a one-character PTX string
/// is never over-read. Every magic in [`classify`] lies within these bytes.
///
/// # Safety
/// `ptr` is non-null and readable up to 8 bytes or its first NUL, whichever comes first.
unsafe fn read_prefix(ptr: *const u8) -> Vec<u8> {
    let mut prefix = Vec::with_capacity(8);
    for idx in 0..8 {
        // SAFETY: bytes before the first NUL (and the NUL itself) are readable.
        let byte = unsafe { ptr.add(idx).read() };
        prefix.push(byte);
        if byte == 0 {
            break;
        }
    }
    prefix
}

/// Copies `len` bytes from `ptr`; an [`ImageError::Invalid`] naming `what` when part of
/// them is not mapped (a header that lies about sizes).
///
/// # Safety
/// As [`crate::caller_memory::copy`]; `len <= MAX_IMAGE_SIZE` keeps it under `isize::MAX`.
unsafe fn copy_bytes(ptr: *const u8, len: usize, what: &str) -> Result<Vec<u8>, ImageError> {
    debug_assert!(len <= MAX_IMAGE_SIZE);
    // SAFETY: per this function's contract.
    unsafe { crate::caller_memory::copy(ptr, len) }
        .ok_or_else(|| ImageError::invalid(format!("{what} ({len} bytes at {ptr:p}) is not readable memory: its headers point past the image")))
}

/// Turns an address stored in an image into a pointer.
fn address_to_ptr(address: u64) -> Result<*const u8, ImageError> {
    let address = usize::try_from(address).map_err(|_| ImageError::invalid(format!("pointer 0x{address:x} does not fit this platform")))?;
    Ok(std::ptr::with_exposed_provenance(address))
}

/// Copies a fatbin container (header and all entries).
///
/// # Safety
/// `ptr` points to a complete container.
unsafe fn read_container(ptr: *const u8) -> Result<Vec<u8>, ImageError> {
    // SAFETY: a container starts with its 16-byte header.
    let header = unsafe { copy_bytes(ptr, CONTAINER_HEADER_SIZE, "fatbin container header") }?;
    let (_, total) = container_extent(&header)?;
    if total > MAX_IMAGE_SIZE {
        return Err(ImageError::invalid(format!("fatbin container claims {total} bytes, over the {MAX_IMAGE_SIZE}-byte limit")));
    }
    // SAFETY: the contract makes the header-declared extent readable.
    unsafe { copy_bytes(ptr, total, "fatbin container") }
}

/// Copies the container(s) a wrapper refers to; true when they came from a prelinked list.
///
/// # Safety
/// `ptr` points to a wrapper satisfying [`image_from_ptr`]'s contract.
unsafe fn read_wrapper(ptr: *const u8, depth: usize) -> Result<(Vec<u8>, bool), ImageError> {
    // SAFETY: a wrapper is WRAPPER_SIZE readable bytes.
    let wrapper = unsafe { copy_bytes(ptr, WRAPPER_SIZE, "fatbin wrapper") }?;
    let (Some(magic), Some(version), Some(data), Some(prelinked)) =
        (u32_at(&wrapper, 0), u32_at(&wrapper, 4), u64_at(&wrapper, 8), u64_at(&wrapper, 16))
    else {
        return Err(ImageError::invalid("fatbin wrapper is truncated"));
    };
    if magic != FATBIN_WRAPPER_MAGIC {
        return Err(ImageError::invalid(format!("expected fatbin wrapper magic, found 0x{magic:08X}")));
    }
    if version != 1 && version != 2 {
        return Err(ImageError::invalid(format!("unsupported fatbin wrapper version {version}")));
    }
    if version == 2 && prelinked != 0 {
        // SAFETY: a version 2 wrapper's non-null second pointer is a NULL-terminated list.
        let list = unsafe { read_pointer_list(address_to_ptr(prelinked)?) }?;
        if !list.is_empty() {
            let mut bytes = Vec::new();
            for fatbin in list {
                // SAFETY: each listed pointer names a fatbin covered by the contract.
                bytes.extend(unsafe { read_fatbin(fatbin, depth) }?.0);
            }
            return Ok((bytes, true));
        }
    }
    if data == 0 {
        return Err(ImageError::invalid("fatbin wrapper has a null container pointer"));
    }
    // SAFETY: the wrapper's data pointer names a fatbin covered by the contract.
    unsafe { read_fatbin(address_to_ptr(data)?, depth) }
}

/// Copies the fatbin a wrapper points at: a container, or (bounded) another wrapper.
///
/// # Safety
/// `ptr` is non-null and satisfies [`image_from_ptr`]'s contract.
unsafe fn read_fatbin(ptr: *const u8, depth: usize) -> Result<(Vec<u8>, bool), ImageError> {
    // SAFETY: see the function contract.
    let prefix = unsafe { read_prefix(ptr) };
    match classify(&prefix) {
        // SAFETY: the first bytes announce a container, so a whole one is readable.
        ImageKind::FatbinContainer => Ok((unsafe { read_container(ptr) }?, false)),
        ImageKind::FatbinWrapper if depth < MAX_WRAPPER_DEPTH => {
            // SAFETY: the first bytes announce a wrapper, so a whole one is readable.
            unsafe { read_wrapper(ptr, depth + 1) }
        }
        ImageKind::FatbinWrapper => Err(ImageError::invalid("fatbin wrappers nest too deeply")),
        other => Err(ImageError::invalid(format!("fatbin wrapper points at {other:?} data instead of a fatbin container"))),
    }
}

/// Reads a NULL-terminated array of u64 pointers (NULL entries excluded).
///
/// # Safety
/// `list` is non-null and readable up to and including its NULL terminator.
unsafe fn read_pointer_list(list: *const u8) -> Result<Vec<*const u8>, ImageError> {
    let mut out = Vec::new();
    for idx in 0..MAX_PRELINKED {
        // SAFETY: entries up to the terminator are readable; `idx * 8` stays inside them.
        let raw = unsafe { copy_bytes(list.add(idx * 8), 8, "prelinked fatbin list") }?;
        let address = u64_at(&raw, 0).unwrap_or(0);
        if address == 0 {
            return Ok(out);
        }
        out.push(address_to_ptr(address)?);
    }
    Err(ImageError::invalid(format!("prelinked fatbin list has no NULL terminator within {MAX_PRELINKED} entries")))
}

/// Copies an ELF image sized from its headers.
///
/// # Safety
/// `ptr` points to a complete ELF image.
unsafe fn read_elf(ptr: *const u8) -> Result<Vec<u8>, ImageError> {
    // SAFETY: an ELF image starts with its 64-byte header (checked copy).
    if let Some(err) = unsafe { copy_bytes(ptr, 64, "ELF header") }.ok().and_then(|h| crate::elf::cuda_elf_without_architecture(&h)) {
        return Err(err);
    }
    let mut read = |offset: usize, len: usize| {
        let end = offset.checked_add(len)?;
        // SAFETY: elf_extent only asks for header bytes and header tables the ELF header
        // places inside the image (and never past MAX_IMAGE_SIZE).
        if end > MAX_IMAGE_SIZE {
            return None;
        }
        unsafe { copy_bytes(ptr.add(offset), len, "ELF header table") }.ok()
    };
    let size = elf_extent(&mut read, MAX_IMAGE_SIZE)?;
    // SAFETY: the contract makes the whole image, as its headers describe it, readable.
    unsafe { copy_bytes(ptr, size, "ELF image") }
}

/// Copies a NUL-terminated string, without the NUL.
///
/// # Safety
/// `ptr` points to a NUL-terminated string.
unsafe fn read_c_string(ptr: *const u8) -> Result<Vec<u8>, ImageError> {
    let mut len = 0usize;
    // SAFETY: every byte up to and including the NUL is readable.
    while unsafe { ptr.add(len).read() } != 0 {
        len += 1;
        if len > MAX_IMAGE_SIZE {
            return Err(ImageError::invalid(format!("PTX text has no NUL terminator within {MAX_IMAGE_SIZE} bytes")));
        }
    }
    // SAFETY: the `len` bytes before the NUL were just read.
    unsafe { copy_bytes(ptr, len, "PTX text") }
}
