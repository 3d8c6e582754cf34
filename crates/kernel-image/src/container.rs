//! Parsing fatbin containers into decompressed entries.
//!
//! A container is a 16-byte header followed by entries, each an entry header plus a padded
//! payload; the layouts are in "fatbin-format.md" ("Container header", "Entry header").
//! An executable's `.nv_fatbin` section can hold several containers back to back, so
//! [`parse_container`] keeps reading containers until the input ends, skipping NUL padding
//! between them. Every offset and size read from the input is checked against the buffer
//! before use; malformed input yields [`ImageError::Invalid`], never a panic.

use crate::classify::FATBIN_CONTAINER_MAGIC;
use crate::decompress::{decompress_payload, Compression};
use crate::error::ImageError;
use crate::le::{offset_add, u16_at, u32_at, u64_at};

/// Size of the container header: magic, version, header size, entries size.
pub const CONTAINER_HEADER_SIZE: usize = 16;
/// Size of the fixed part of an entry header (fields 0x00..0x40 in "fatbin-format.md").
/// ELF entries have exactly this; PTX entries are larger because they carry strings.
pub const ENTRY_HEADER_MIN_SIZE: usize = 0x40;

/// Entry flag: 64-bit code.
pub const FLAG_64BIT: u64 = 0x1;
/// Entry flag: compiled with debug information.
pub const FLAG_DEBUG: u64 = 0x2;
/// Entry flag: built for Linux.
pub const FLAG_LINUX: u64 = 0x10;
/// Entry flag: payload is one raw LZ4 block ("fatbin-format.md").
pub const FLAG_LZ4: u64 = 0x2000;
/// Entry flag: payload is a standard zstd frame ("fatbin-format.md").
pub const FLAG_ZSTD: u64 = 0x8000;

/// What an entry's payload holds (entry header field 0x00).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EntryKind {
    /// PTX text (kind 1); the only kind a non-NVIDIA device can use.
    Ptx,
    /// An ELF cubin with SASS (kind 2).
    Elf,
    /// Any other kind value, kept so callers can report it.
    Other(u16),
}

impl EntryKind {
    fn from_raw(raw: u16) -> Self {
        match raw {
            1 => EntryKind::Ptx,
            2 => EntryKind::Elf,
            other => EntryKind::Other(other),
        }
    }
}

/// One entry of a fatbin container, with its payload already decompressed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FatbinEntry {
    /// PTX, ELF or something else.
    pub kind: EntryKind,
    /// Target architecture: 80 means `sm_80` for ELF and `compute_80` for PTX.
    pub sm_arch: u32,
    /// PTX ISA version `(major, minor)`, decoded from the version field; `None` for non-PTX.
    pub ptx_isa: Option<(u32, u32)>,
    /// The raw version field (PTX ISA `major << 16 | minor`, or the CUDA ELF ABI version).
    pub version: u32,
    /// The raw flags (see the `FLAG_*` constants).
    pub flags: u64,
    /// How the payload was stored.
    pub compression: Compression,
    /// The `fatbinary --ident` string, if the header carries one.
    pub identifier: Option<String>,
    /// The ptxas command line from the options block, if present and non-empty.
    pub ptxas_options: Option<String>,
    /// Which container (0-based) of the input this entry came from.
    pub container_index: usize,
    /// Byte offset of this entry's header in the input given to [`parse_container`].
    pub offset: usize,
    /// The decompressed payload. For PTX it is cut at the first NUL, so trailing NULs and
    /// padding are gone (leading newlines are kept). ELF payloads keep their padding.
    pub payload: Vec<u8>,
}

/// Reads a container header at the start of `bytes` and returns
/// `(header size, header size + entries size)`.
///
/// Only the 16 header bytes are needed, which lets the raw-pointer reader learn how many
/// bytes to copy before it copies them. Fails on a wrong magic, a header size below 16, or
/// a total that does not fit in `usize`.
pub(crate) fn container_extent(header: &[u8]) -> Result<(usize, usize), ImageError> {
    let (Some(magic), Some(header_size), Some(entries_size)) = (u32_at(header, 0), u16_at(header, 6), u64_at(header, 8)) else {
        return Err(ImageError::invalid(format!("fatbin container header is truncated ({} of {CONTAINER_HEADER_SIZE} bytes)", header.len())));
    };
    if magic != FATBIN_CONTAINER_MAGIC {
        return Err(ImageError::invalid(format!("expected fatbin container magic 0x{FATBIN_CONTAINER_MAGIC:08X}, found 0x{magic:08X}")));
    }
    let header_size = usize::from(header_size);
    if header_size < CONTAINER_HEADER_SIZE {
        return Err(ImageError::invalid(format!("fatbin container header size {header_size} is below the minimum of {CONTAINER_HEADER_SIZE}")));
    }
    let total = offset_add(header_size, entries_size)
        .ok_or_else(|| ImageError::invalid(format!("fatbin container entries size {entries_size} overflows")))?;
    Ok((header_size, total))
}

/// Parses one or more fatbin containers laid out back to back and returns all their
/// entries in order, payloads decompressed.
///
/// The input must start with a container. Between and after containers, runs of NUL bytes
/// are skipped (section alignment). A container with no entries (nvlink adds such an empty
/// one) contributes nothing, so the result may be empty.
///
/// Errors ([`ImageError::Invalid`]): empty input, wrong magic, truncated headers, sizes
/// that run past the buffer, unknown or corrupt compression.
pub fn parse_container(bytes: &[u8]) -> Result<Vec<FatbinEntry>, ImageError> {
    parse_container_with(bytes, true)
}

/// Like [`parse_container`], without decompressing anything: every entry's `payload` is
/// empty. For deciding which containers are worth decompressing.
///
/// # Errors
/// As [`parse_container`], except for corrupt compressed data, which goes unnoticed.
pub fn parse_container_headers(bytes: &[u8]) -> Result<Vec<FatbinEntry>, ImageError> {
    parse_container_with(bytes, false)
}

fn parse_container_with(bytes: &[u8], decompress: bool) -> Result<Vec<FatbinEntry>, ImageError> {
    if bytes.is_empty() {
        return Err(ImageError::invalid("fatbin is empty"));
    }
    let mut entries = Vec::new();
    let mut pos = 0usize;
    let mut container_index = 0usize;
    while pos < bytes.len() {
        if container_index > 0 {
            // Skip the NUL padding between containers; stop if only padding is left.
            match bytes[pos..].iter().position(|&b| b != 0) {
                Some(skip) => pos += skip,
                None => break,
            }
        }
        let rest = &bytes[pos..];
        let (header_size, total) = container_extent(rest).map_err(|err| at_offset(err, &format!("container {container_index} at offset {pos}")))?;
        if total > rest.len() {
            return Err(ImageError::invalid(format!(
                "container {container_index} at offset {pos} declares {total} bytes but only {} remain",
                rest.len()
            )));
        }
        parse_entries(&rest[header_size..total], pos + header_size, container_index, &mut entries, decompress)?;
        pos += total;
        container_index += 1;
    }
    Ok(entries)
}

/// Prefixes an [`ImageError::Invalid`] message with where it happened.
fn at_offset(err: ImageError, place: &str) -> ImageError {
    match err {
        ImageError::Invalid(msg) => ImageError::Invalid(format!("{place}: {msg}")),
        other => other,
    }
}

/// The fixed fields of an entry header, read from its first 0x40 bytes.
struct EntryHeader {
    kind: u16,
    header_size: u32,
    payload_size: u64,
    compressed_size: u32,
    options_offset: u32,
    version: u32,
    sm_arch: u32,
    identifier_offset: u32,
    identifier_len: u32,
    flags: u64,
    uncompressed_size: u64,
}

impl EntryHeader {
    /// Reads the fixed header fields; `None` if fewer than 0x40 bytes are available.
    fn read(bytes: &[u8]) -> Option<Self> {
        Some(EntryHeader {
            kind: u16_at(bytes, 0x00)?,
            header_size: u32_at(bytes, 0x04)?,
            payload_size: u64_at(bytes, 0x08)?,
            compressed_size: u32_at(bytes, 0x10)?,
            options_offset: u32_at(bytes, 0x14)?,
            version: u32_at(bytes, 0x18)?,
            sm_arch: u32_at(bytes, 0x1C)?,
            identifier_offset: u32_at(bytes, 0x20)?,
            identifier_len: u32_at(bytes, 0x24)?,
            flags: u64_at(bytes, 0x28)?,
            uncompressed_size: u64_at(bytes, 0x38)?,
        })
    }
}

/// Parses the entries region of one container. `base` is the region's offset in the
/// caller's input, used for [`FatbinEntry::offset`] and error messages.
fn parse_entries(region: &[u8], base: usize, container_index: usize, out: &mut Vec<FatbinEntry>, decompress: bool) -> Result<(), ImageError> {
    let mut pos = 0usize;
    while pos < region.len() {
        let rest = &region[pos..];
        if rest.iter().all(|&b| b == 0) {
            break; // Trailing padding inside the container.
        }
        let offset = base + pos;
        let header = EntryHeader::read(rest).ok_or_else(|| {
            ImageError::invalid(format!("entry header at offset {offset} is truncated ({} of {ENTRY_HEADER_MIN_SIZE} bytes)", rest.len()))
        })?;
        let header_size = usize::try_from(header.header_size).unwrap_or(usize::MAX);
        if header_size < ENTRY_HEADER_MIN_SIZE || header_size > rest.len() {
            return Err(ImageError::invalid(format!(
                "entry at offset {offset} has header size {header_size} (must be {ENTRY_HEADER_MIN_SIZE}..={})",
                rest.len()
            )));
        }
        let end = offset_add(header_size, header.payload_size).filter(|&end| end <= rest.len());
        let Some(end) = end else {
            return Err(ImageError::invalid(format!(
                "entry at offset {offset} declares a {}-byte payload but only {} bytes remain in its container",
                header.payload_size,
                rest.len() - header_size
            )));
        };
        out.push(build_entry(&header, &rest[..header_size], &rest[header_size..end], offset, container_index, decompress)?);
        pos += end;
    }
    Ok(())
}

/// Turns a checked header plus its payload bytes into a [`FatbinEntry`].
fn build_entry(
    header: &EntryHeader,
    header_bytes: &[u8],
    stored: &[u8],
    offset: usize,
    container_index: usize,
    decompress: bool,
) -> Result<FatbinEntry, ImageError> {
    let kind = EntryKind::from_raw(header.kind);
    let compression = Compression::from_flags(header.flags).map_err(|msg| ImageError::invalid(format!("entry at offset {offset}: {msg}")))?;
    let mut payload = if decompress {
        decompress_payload(stored, compression, header.compressed_size, header.uncompressed_size)
            .map_err(|msg| ImageError::invalid(format!("entry at offset {offset}: {msg}")))?
    } else {
        Vec::new()
    };
    if kind == EntryKind::Ptx {
        // PTX is a C string; whatever follows the first NUL is padding.
        if let Some(nul) = payload.iter().position(|&b| b == 0) {
            payload.truncate(nul);
        }
    }
    let ptx_isa = (kind == EntryKind::Ptx).then_some((header.version >> 16, header.version & 0xFFFF));
    Ok(FatbinEntry {
        kind,
        sm_arch: header.sm_arch,
        ptx_isa,
        version: header.version,
        flags: header.flags,
        compression,
        identifier: header_string(header_bytes, header.identifier_offset, header.identifier_len),
        ptxas_options: options_string(header_bytes, header.options_offset),
        container_index,
        offset,
        payload,
    })
}

/// A string stored inside the entry header at `offset` (relative to the entry start) with
/// `len` bytes, trimmed of NULs and whitespace. Informational only, so anything out of
/// range or empty gives `None` rather than an error.
fn header_string(header_bytes: &[u8], offset: u32, len: u32) -> Option<String> {
    if offset == 0 || len == 0 {
        return None;
    }
    let start = usize::try_from(offset).ok()?;
    let end = offset_add(start, u64::from(len))?;
    let raw = header_bytes.get(start..end)?;
    let text = String::from_utf8_lossy(raw);
    let text = text.trim_matches(|c: char| c == '\0' || c.is_whitespace());
    (!text.is_empty()).then(|| text.to_owned())
}

/// The ptxas command line: the options block at `offset` (relative to the entry start) is
/// `{u32 string offset, u32 length}`, the string offset again relative to the entry start
/// (observed with `nvcc -Xptxas`).
fn options_string(header_bytes: &[u8], offset: u32) -> Option<String> {
    if offset == 0 {
        return None;
    }
    let block = usize::try_from(offset).ok()?;
    let string_offset = u32_at(header_bytes, block)?;
    let len = u32_at(header_bytes, block.checked_add(4)?)?;
    header_string(header_bytes, string_offset, len)
}
