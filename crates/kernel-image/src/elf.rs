//! Working out how long an ELF image is from its headers alone.
//!
//! When the driver is handed a bare pointer to a cubin ("fatbin-format.md": first bytes
//! `7f 45 4c 46`), nothing says how many bytes it spans. The file ends at the furthest of:
//! the ELF header, the section header table, the program header table, every section with
//! file contents and every segment. This module computes that maximum through a caller
//! supplied reader, so the same code serves raw pointers and bounds-checked slices (tests
//! feed it malformed headers through a slice reader).

use crate::error::ImageError;
use crate::le::{u16_at, u32_at, u64_at};

/// `EM_CUDA`, the `e_machine` of NVIDIA cubins.
pub const EM_CUDA: u16 = 190;
/// Section type without file contents (`.bss`-like).
const SHT_NOBITS: u32 = 8;
/// `e_phnum` value meaning "the real count is in section 0's `sh_info`".
const PN_XNUM: u16 = 0xFFFF;

/// Reads `len` bytes at `offset` of the image, or `None` if they are out of reach.
pub(crate) type Reader<'r> = dyn FnMut(usize, usize) -> Option<Vec<u8>> + 'r;

/// Field offsets that differ between ELFCLASS32 and ELFCLASS64.
struct Layout {
    header_size: usize,
    phoff: usize,
    shoff: usize,
    /// Offset of `e_ehsize`; `e_phentsize`, `e_phnum`, `e_shentsize`, `e_shnum` follow as u16s.
    ehsize: usize,
    sh_min: usize,
    sh_type: usize,
    sh_offset: usize,
    sh_size: usize,
    sh_info: usize,
    ph_min: usize,
    p_offset: usize,
    p_filesz: usize,
    wide: bool,
}

const LAYOUT32: Layout = Layout {
    header_size: 52,
    phoff: 0x1C,
    shoff: 0x20,
    ehsize: 0x28,
    sh_min: 40,
    sh_type: 0x04,
    sh_offset: 0x10,
    sh_size: 0x14,
    sh_info: 0x1C,
    ph_min: 32,
    p_offset: 0x04,
    p_filesz: 0x10,
    wide: false,
};

const LAYOUT64: Layout = Layout {
    header_size: 64,
    phoff: 0x20,
    shoff: 0x28,
    ehsize: 0x34,
    sh_min: 64,
    sh_type: 0x04,
    sh_offset: 0x18,
    sh_size: 0x20,
    sh_info: 0x2C,
    ph_min: 56,
    p_offset: 0x08,
    p_filesz: 0x20,
    wide: true,
};

impl Layout {
    /// Reads an address-sized field (u32 or u64) as u64.
    fn word(&self, bytes: &[u8], offset: usize) -> Option<u64> {
        if self.wide {
            u64_at(bytes, offset)
        } else {
            u32_at(bytes, offset).map(u64::from)
        }
    }
}

fn bad(msg: impl Into<String>) -> ImageError {
    ImageError::Invalid(format!("ELF image: {}", msg.into()))
}

/// Offset plus `count * entry_size`, checked.
fn table_end(offset: u64, count: u64, entry_size: u64) -> Result<u64, ImageError> {
    count.checked_mul(entry_size).and_then(|n| n.checked_add(offset)).ok_or_else(|| bad("header table extent overflows"))
}

/// Reads a whole header table, bounded by `max_size`.
fn read_table(read: &mut Reader<'_>, offset: u64, len: u64, max_size: usize) -> Result<Vec<u8>, ImageError> {
    let start = usize::try_from(offset).map_err(|_| bad("table offset too large"))?;
    let len = usize::try_from(len).map_err(|_| bad("table too large"))?;
    if start.checked_add(len).is_none_or(|end| end > max_size) {
        return Err(bad(format!("header table at {start} (+{len} bytes) exceeds the {max_size}-byte limit")));
    }
    read(start, len).ok_or_else(|| bad(format!("header table at {start} (+{len} bytes) is out of bounds")))
}

/// Returns the total size in bytes of the little-endian ELF image behind `read`, which
/// must not exceed `max_size`.
pub(crate) fn elf_extent(read: &mut Reader<'_>, max_size: usize) -> Result<usize, ImageError> {
    let ident = read(0, 16).ok_or_else(|| bad("truncated identification"))?;
    let layout = match ident.get(4) {
        Some(1) => &LAYOUT32,
        Some(2) => &LAYOUT64,
        other => return Err(bad(format!("unknown ELF class {other:?}"))),
    };
    if ident.get(5) != Some(&1) {
        return Err(bad("only little-endian ELF is supported"));
    }
    let header = read(0, layout.header_size).ok_or_else(|| bad("truncated ELF header"))?;
    let field16 = |n: usize| u16_at(&header, layout.ehsize + 2 * n).map(u64::from);
    let (Some(phoff), Some(shoff), Some(ehsize), Some(phentsize), Some(phnum), Some(shentsize), Some(shnum)) =
        (layout.word(&header, layout.phoff), layout.word(&header, layout.shoff), field16(0), field16(1), field16(2), field16(3), field16(4))
    else {
        return Err(bad("truncated ELF header"));
    };
    let mut end = ehsize.max(layout.header_size as u64);
    let (mut shnum, mut phnum) = (shnum, phnum);
    if shoff != 0 && shentsize < layout.sh_min as u64 {
        return Err(bad(format!("section header entry size {shentsize} is too small")));
    }
    if shoff != 0 && (shnum == 0 || phnum == u64::from(PN_XNUM)) {
        // Section 0 carries the real counts when they overflow the 16-bit header fields.
        let first = read_table(read, shoff, shentsize, max_size)?;
        if shnum == 0 {
            shnum = layout.word(&first, layout.sh_size).ok_or_else(|| bad("truncated section 0"))?;
        }
        if phnum == u64::from(PN_XNUM) {
            phnum = u32_at(&first, layout.sh_info).map(u64::from).ok_or_else(|| bad("truncated section 0"))?;
        }
    }
    if shoff != 0 && shnum != 0 {
        let table_len = table_end(0, shnum, shentsize)?;
        end = end.max(table_end(shoff, shnum, shentsize)?);
        let table = read_table(read, shoff, table_len, max_size)?;
        for section in table.chunks_exact(shentsize as usize) {
            let (Some(kind), Some(offset), Some(size)) =
                (u32_at(section, layout.sh_type), layout.word(section, layout.sh_offset), layout.word(section, layout.sh_size))
            else {
                return Err(bad("truncated section header"));
            };
            if kind != SHT_NOBITS && size != 0 {
                end = end.max(offset.checked_add(size).ok_or_else(|| bad("section extent overflows"))?);
            }
        }
    }
    if phoff != 0 && phnum != 0 {
        if phentsize < layout.ph_min as u64 {
            return Err(bad(format!("program header entry size {phentsize} is too small")));
        }
        let table_len = table_end(0, phnum, phentsize)?;
        end = end.max(table_end(phoff, phnum, phentsize)?);
        let table = read_table(read, phoff, table_len, max_size)?;
        for segment in table.chunks_exact(phentsize as usize) {
            let (Some(offset), Some(size)) = (layout.word(segment, layout.p_offset), layout.word(segment, layout.p_filesz)) else {
                return Err(bad("truncated program header"));
            };
            end = end.max(offset.checked_add(size).ok_or_else(|| bad("segment extent overflows"))?);
        }
    }
    usize::try_from(end).ok().filter(|&n| n <= max_size).ok_or_else(|| bad(format!("image would span {end} bytes, over the {max_size}-byte limit")))
}

/// The `e_machine` field of an ELF image, if readable.
pub(crate) fn elf_machine(bytes: &[u8]) -> Option<u16> {
    u16_at(bytes, 0x12)
}

/// An error for a 64-bit CUDA ELF header (`EM_CUDA`) whose `e_flags` name no architecture,
/// which NVIDIA's driver refuses before reading anything past the header.
pub(crate) fn cuda_elf_without_architecture(header: &[u8]) -> Option<crate::ImageError> {
    let is_cuda64 = header.get(4) == Some(&2) && u16_at(header, 18) == Some(EM_CUDA);
    (is_cuda64 && u32_at(header, 48) == Some(0))
        .then(|| crate::ImageError::NoArchitecture("e_flags is 0 (a cubin records its SM architecture there)".to_owned()))
}
