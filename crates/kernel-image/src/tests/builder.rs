//! A small writer of synthetic fatbin containers, wrappers and ELF files for the tests.
//!
//! It lays entries out the way nvcc 13 does (observed on real output, see
//! "fatbin-format.md"): the identifier string at 0x40, then the options block
//! `{string offset, length}`, then the options string; strings padded to 8 bytes; payloads
//! padded to 8 bytes; the uncompressed-size field set only for compressed entries.

use crate::container::{FLAG_64BIT, FLAG_LINUX, FLAG_LZ4, FLAG_ZSTD};
use crate::decompress::Compression;

/// One entry to encode.
#[derive(Clone)]
pub(crate) struct EntrySpec {
    pub kind: u16,
    pub sm: u32,
    pub version: u32,
    pub compression: Compression,
    pub ident: Option<String>,
    pub options: Option<String>,
    /// The plain payload (PTX gets a NUL appended by [`ptx`]).
    pub payload: Vec<u8>,
}

/// A PTX entry for `compute_{sm}` with ISA `major.minor`.
pub(crate) fn ptx(sm: u32, (major, minor): (u32, u32), text: &str) -> EntrySpec {
    let mut payload = text.as_bytes().to_vec();
    payload.push(0);
    EntrySpec { kind: 1, sm, version: (major << 16) | minor, compression: Compression::None, ident: None, options: None, payload }
}

/// A SASS (ELF) entry for `sm_{sm}`; the payload is a fake cubin.
pub(crate) fn sass(sm: u32) -> EntrySpec {
    EntrySpec {
        kind: 2,
        sm,
        version: 0x8,
        compression: Compression::None,
        ident: None,
        options: None,
        payload: format!("\x7fELF fake cubin for sm_{sm}").into_bytes(),
    }
}

impl EntrySpec {
    pub fn zstd(mut self) -> Self {
        self.compression = Compression::Zstd;
        self
    }

    pub fn lz4(mut self) -> Self {
        self.compression = Compression::Lz4;
        self
    }

    pub fn ident(mut self, ident: &str) -> Self {
        self.ident = Some(ident.to_owned());
        self
    }

    pub fn options(mut self, options: &str) -> Self {
        self.options = Some(options.to_owned());
        self
    }

    /// Encodes header and padded payload.
    pub fn encode(&self) -> Vec<u8> {
        let (stored, compressed_size, uncompressed_size, flag) = match self.compression {
            Compression::None => (self.payload.clone(), 0, 0, 0),
            Compression::Zstd => {
                let packed = zstd::bulk::compress(&self.payload, 3).expect("zstd compress");
                let len = packed.len();
                (packed, len, self.payload.len(), FLAG_ZSTD)
            }
            Compression::Lz4 => {
                let packed = lz4_flex::block::compress(&self.payload);
                let len = packed.len();
                (packed, len, self.payload.len(), FLAG_LZ4)
            }
        };
        // Strings live after the fixed 0x40 bytes.
        let mut strings = Vec::new();
        let mut ident_field = (0u32, 0u32);
        if let Some(ident) = &self.ident {
            ident_field = (0x40, ident.len() as u32);
            strings.extend_from_slice(ident.as_bytes());
            pad8_with_nul(&mut strings);
        }
        let mut options_offset = 0u32;
        if self.kind == 1 {
            options_offset = 0x40 + strings.len() as u32;
            let text = self.options.clone().unwrap_or_default();
            let string_offset = options_offset + 8;
            strings.extend_from_slice(&string_offset.to_le_bytes());
            strings.extend_from_slice(&(text.len() as u32).to_le_bytes());
            strings.extend_from_slice(text.as_bytes());
            pad8_with_nul(&mut strings);
        }
        let header_size = 0x40 + strings.len();
        let mut padded = stored;
        while !padded.len().is_multiple_of(8) {
            padded.push(0);
        }
        let mut out = Vec::new();
        out.extend_from_slice(&self.kind.to_le_bytes());
        out.extend_from_slice(&0x0101u16.to_le_bytes());
        out.extend_from_slice(&(header_size as u32).to_le_bytes());
        out.extend_from_slice(&(padded.len() as u64).to_le_bytes());
        out.extend_from_slice(&(compressed_size as u32).to_le_bytes());
        out.extend_from_slice(&options_offset.to_le_bytes());
        out.extend_from_slice(&self.version.to_le_bytes());
        out.extend_from_slice(&self.sm.to_le_bytes());
        out.extend_from_slice(&ident_field.0.to_le_bytes());
        out.extend_from_slice(&ident_field.1.to_le_bytes());
        out.extend_from_slice(&(FLAG_64BIT | FLAG_LINUX | flag).to_le_bytes());
        out.extend_from_slice(&0u64.to_le_bytes());
        out.extend_from_slice(&(uncompressed_size as u64).to_le_bytes());
        assert_eq!(out.len(), 0x40);
        out.extend_from_slice(&strings);
        out.extend_from_slice(&padded);
        out
    }
}

/// Appends at least one NUL and pads to a multiple of 8.
fn pad8_with_nul(bytes: &mut Vec<u8>) {
    bytes.push(0);
    while !bytes.len().is_multiple_of(8) {
        bytes.push(0);
    }
}

/// A container holding `entries`.
pub(crate) fn container(entries: &[EntrySpec]) -> Vec<u8> {
    let body: Vec<u8> = entries.iter().flat_map(EntrySpec::encode).collect();
    let mut out = Vec::new();
    out.extend_from_slice(&0xBA55_ED50u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

/// Overwrites a little-endian u16 at `offset`.
pub(crate) fn set_u16(bytes: &mut [u8], offset: usize, value: u16) {
    bytes[offset..offset + 2].copy_from_slice(&value.to_le_bytes());
}

/// Overwrites a little-endian u32 at `offset`.
pub(crate) fn set_u32(bytes: &mut [u8], offset: usize, value: u32) {
    bytes[offset..offset + 4].copy_from_slice(&value.to_le_bytes());
}

/// Overwrites a little-endian u64 at `offset`.
pub(crate) fn set_u64(bytes: &mut [u8], offset: usize, value: u64) {
    bytes[offset..offset + 8].copy_from_slice(&value.to_le_bytes());
}

/// The address of `bytes`, as stored in a wrapper or pointer list.
pub(crate) fn addr(bytes: &[u8]) -> u64 {
    bytes.as_ptr().expose_provenance() as u64
}

/// A cudart fatbin wrapper.
pub(crate) fn wrapper(version: u32, data: u64, prelinked: u64) -> Vec<u8> {
    let mut out = Vec::new();
    out.extend_from_slice(&0x4662_43B1u32.to_le_bytes());
    out.extend_from_slice(&version.to_le_bytes());
    out.extend_from_slice(&data.to_le_bytes());
    out.extend_from_slice(&prelinked.to_le_bytes());
    out
}

/// A NULL-terminated pointer list, as bytes.
pub(crate) fn pointer_list(addresses: &[u64]) -> Vec<u8> {
    addresses.iter().chain(std::iter::once(&0)).flat_map(|a| a.to_le_bytes()).collect()
}

/// A little-endian ELF file: header, `sections` as `(type, contents)` placed after the
/// header, then the section header table (entry 0 is the null section). `wide` selects
/// ELFCLASS64. Returns the bytes; their length is the exact image size.
pub(crate) fn elf(wide: bool, machine: u16, sections: &[(u32, &[u8])]) -> Vec<u8> {
    let (ehsize, shentsize) = if wide { (64usize, 64usize) } else { (52, 40) };
    let mut out = vec![0u8; ehsize];
    out[..4].copy_from_slice(b"\x7fELF");
    out[4] = if wide { 2 } else { 1 };
    out[5] = 1;
    out[6] = 1;
    set_u16(&mut out, 0x10, 2);
    set_u16(&mut out, 0x12, machine);
    if wide {
        // e_flags: a cubin's SM architecture (0x5a, sm_90); 0 would name none.
        set_u32(&mut out, 48, 0x5a);
    }
    let mut placed = Vec::new();
    for (kind, contents) in sections {
        placed.push((*kind, out.len(), contents.len()));
        out.extend_from_slice(contents);
    }
    while !out.len().is_multiple_of(8) {
        out.push(0);
    }
    let shoff = out.len();
    let count = sections.len() + 1;
    out.resize(shoff + count * shentsize, 0);
    for (idx, (kind, offset, size)) in placed.into_iter().enumerate() {
        let entry = shoff + (idx + 1) * shentsize;
        set_u32(&mut out, entry + 4, kind);
        if wide {
            set_u64(&mut out, entry + 0x18, offset as u64);
            set_u64(&mut out, entry + 0x20, size as u64);
        } else {
            set_u32(&mut out, entry + 0x10, offset as u32);
            set_u32(&mut out, entry + 0x14, size as u32);
        }
    }
    let base = if wide { 0x34 } else { 0x28 };
    if wide {
        set_u64(&mut out, 0x28, shoff as u64);
    } else {
        set_u32(&mut out, 0x20, shoff as u32);
    }
    set_u16(&mut out, base, ehsize as u16);
    set_u16(&mut out, base + 6, shentsize as u16);
    set_u16(&mut out, base + 8, count as u16);
    out
}
