//! Inputs of separate compilation: fatbins inside host objects and `ar` archives, and
//! fatbin containers placed back to back.
//!
//! `nvcc -rdc=true` puts each translation unit's relocatable fatbin in the host object's
//! `__nv_relfatbin` section (`.nv_fatbin` holds the device-linked one); `nvcc -lib` and
//! NVIDIA's `libcudadevrt.a` are `ar` archives of such objects. `cuLinkAddData` with
//! `CU_JIT_INPUT_OBJECT` / `CU_JIT_INPUT_LIBRARY` hands those files to the driver.

use crate::container::{container_extent, parse_container, FatbinEntry};
use crate::error::ImageError;
use crate::extract::PtxSource;
use crate::le::{u16_at, u32_at, u64_at};
use crate::select::select_ptx;
use crate::{EntryKind, FATBIN_CONTAINER_MAGIC};

/// Splits bytes holding fatbin containers back to back (zero padding between them is
/// skipped) into one slice per container.
///
/// # Errors
/// [`ImageError::Invalid`] when the bytes do not start with a container or a header
/// claims more bytes than there are.
pub fn split_containers(bytes: &[u8]) -> Result<Vec<&[u8]>, ImageError> {
    let mut out = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        if bytes[at] == 0 {
            at += 1;
            continue;
        }
        let rest = &bytes[at..];
        let (_, total) = container_extent(rest)?;
        if total > rest.len() {
            return Err(ImageError::invalid(format!("fatbin container at offset {at} claims {total} bytes, {} remain", rest.len())));
        }
        out.push(&rest[..total]);
        at += total;
    }
    Ok(out)
}

/// The PTX to link from one fatbin container. Selection is [`select_ptx`]'s, for a device
/// of architecture `target_sm`; with `any_arch`, a container whose only PTX targets a newer
/// architecture still yields its newest PTX (library code, linked only when referenced).
///
/// # Errors
/// As [`select_ptx`]; [`ImageError::Invalid`] for a malformed container.
pub fn container_ptx(container: &[u8], target_sm: u32, any_arch: bool) -> Result<PtxSource, ImageError> {
    entries_ptx(&parse_container(container)?, target_sm, any_arch)
}

/// [`container_ptx`] on already parsed entries (parsing decompresses every entry).
///
/// # Errors
/// As [`select_ptx`].
pub fn entries_ptx(entries: &[FatbinEntry], target_sm: u32, any_arch: bool) -> Result<PtxSource, ImageError> {
    let entry = match select_ptx(entries, crate::ANY_PTX_ISA, target_sm) {
        Ok(selected) => selected.entry,
        Err(err) => {
            let newest = entries.iter().filter(|e| e.kind == EntryKind::Ptx).max_by_key(|e| (e.sm_arch, e.ptx_isa));
            match newest {
                Some(entry) if any_arch => entry,
                _ => return Err(err),
            }
        }
    };
    Ok(PtxSource {
        text: String::from_utf8_lossy(&entry.payload).trim_end_matches('\0').to_owned(),
        sm_arch: Some(entry.sm_arch),
        isa: entry.ptx_isa,
    })
}

/// Section names that hold fatbin containers in host objects and executables.
const FATBIN_SECTIONS: [&str; 2] = [".nv_fatbin", "__nv_relfatbin"];

/// A section of an ELF file: its name and its contents.
type Section<'a> = (&'a [u8], &'a [u8]);

/// `(name, contents)` of every section of a 64-bit little-endian ELF file, in order.
fn elf_sections(elf: &[u8]) -> Result<Vec<Section<'_>>, ImageError> {
    let bad = |what: &str| ImageError::invalid(format!("host object: {what}"));
    if elf.get(4) != Some(&2) || elf.get(5) != Some(&1) {
        return Err(bad("only 64-bit little-endian ELF objects are supported"));
    }
    let (Some(shoff), Some(shentsize), Some(shnum), Some(shstrndx)) = (u64_at(elf, 0x28), u16_at(elf, 0x3A), u16_at(elf, 0x3C), u16_at(elf, 0x3E))
    else {
        return Err(bad("truncated ELF header"));
    };
    let section = |idx: u16| -> Option<(u32, u32, &[u8])> {
        let base = usize::try_from(shoff).ok()?.checked_add(usize::from(idx).checked_mul(usize::from(shentsize))?)?;
        let at = |off: usize| base.checked_add(off);
        let name = u32_at(elf, base)?;
        let kind = u32_at(elf, at(4)?)?;
        let offset = usize::try_from(u64_at(elf, at(0x18)?)?).ok()?;
        let size = usize::try_from(u64_at(elf, at(0x20)?)?).ok()?;
        // SHT_NOBITS (8) has no file contents.
        let data = if kind == 8 { &[][..] } else { elf.get(offset..offset.checked_add(size)?)? };
        Some((name, kind, data))
    };
    let (_, _, names) = section(shstrndx).ok_or_else(|| bad("section name table out of bounds"))?;
    let mut out = Vec::with_capacity(usize::from(shnum));
    for idx in 0..shnum {
        let (name, _, data) = section(idx).ok_or_else(|| bad("section header out of bounds"))?;
        let name = names.get(name as usize..).unwrap_or_default();
        out.push((&name[..name.iter().position(|&b| b == 0).unwrap_or(name.len())], data));
    }
    Ok(out)
}

/// The contents of the fatbin sections (`.nv_fatbin`, `__nv_relfatbin`) of a 64-bit
/// little-endian host ELF file, in section order. A file without them gives an empty list.
///
/// # Errors
/// [`ImageError::Invalid`] for a truncated or inconsistent ELF header or section table.
pub fn object_fatbins(elf: &[u8]) -> Result<Vec<&[u8]>, ImageError> {
    Ok(elf_sections(elf)?
        .into_iter()
        .filter(|(name, data)| FATBIN_SECTIONS.iter().any(|s| s.as_bytes() == *name) && u32_at(data, 0) == Some(FATBIN_CONTAINER_MAGIC))
        .map(|(_, data)| data)
        .collect())
}

/// The module ids of the relocatable device code in a host object: the strings of its
/// `__nv_module_id` section, which name each unit's `__fatbinwrap_<id>` and the
/// `__cudaRegisterLinkedBinary_<id>` its constructor calls (nvcc's and clang's `-rdc`
/// objects alike). An object without relocatable device code gives an empty list.
///
/// # Errors
/// As [`object_fatbins`].
pub fn object_module_ids(elf: &[u8]) -> Result<Vec<String>, ImageError> {
    let mut ids = Vec::new();
    for (_, data) in elf_sections(elf)?.into_iter().filter(|(name, _)| *name == b"__nv_module_id") {
        ids.extend(data.split(|&b| b == 0).filter(|s| !s.is_empty()).map(|s| String::from_utf8_lossy(s).into_owned()));
    }
    Ok(ids)
}

/// The members of a Unix `ar` archive (System V / GNU format, as `ar` and `nvcc -lib`
/// write it): `(name, bytes)`, symbol tables and the long-name table excluded.
///
/// # Errors
/// [`ImageError::Invalid`] for a missing magic or a truncated member.
pub fn archive_members(ar: &[u8]) -> Result<Vec<(String, &[u8])>, ImageError> {
    let bad = |what: String| ImageError::invalid(format!("archive: {what}"));
    if !ar.starts_with(crate::ARCHIVE_MAGIC.as_slice()) {
        return Err(bad("missing !<arch> magic".into()));
    }
    let mut at = crate::ARCHIVE_MAGIC.len();
    let mut long_names: &[u8] = &[];
    let mut out = Vec::new();
    while at + 60 <= ar.len() {
        let header = &ar[at..at + 60];
        if &header[58..60] != b"`\n" {
            return Err(bad(format!("bad member header at offset {at}")));
        }
        let field = |r: std::ops::Range<usize>| String::from_utf8_lossy(&header[r]).trim_end().to_string();
        let raw_name = field(0..16);
        let size: usize = field(48..58).parse().map_err(|_| bad(format!("bad member size at offset {at}")))?;
        let data = ar.get(at + 60..at + 60 + size).ok_or_else(|| bad(format!("member at offset {at} is truncated")))?;
        at += 60 + size + (size & 1);
        let name = match raw_name.as_str() {
            "/" | "/SYM64/" | "__.SYMDEF" => continue,
            "//" => {
                long_names = data;
                continue;
            }
            n if n.starts_with('/') => {
                let off: usize = n[1..].parse().map_err(|_| bad(format!("bad long name reference {n}")))?;
                let rest = long_names.get(off..).unwrap_or_default();
                let end = rest.iter().position(|&b| b == b'\n').unwrap_or(rest.len());
                String::from_utf8_lossy(&rest[..end]).trim_end_matches('/').to_string()
            }
            n => n.trim_end_matches('/').to_string(),
        };
        out.push((name, data));
    }
    if ar[at.min(ar.len())..].iter().any(|b| !b.is_ascii_whitespace()) {
        return Err(bad(format!("truncated member header at offset {at}")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn member(name: &str, data: &[u8]) -> Vec<u8> {
        let mut m = format!("{name:<16}{:<12}{:<6}{:<6}{:<8}{:<10}`\n", 0, 0, 0, 644, data.len()).into_bytes();
        m.extend_from_slice(data);
        if data.len() % 2 == 1 {
            m.push(b'\n');
        }
        m
    }

    #[test]
    fn archive_members_with_short_and_long_names() {
        let long = "a_rather_long_member_name.o";
        let mut ar = b"!<arch>\n".to_vec();
        ar.extend(member("/", b"\0\0\0\0"));
        ar.extend(member("//", format!("{long}/\n").as_bytes()));
        ar.extend(member("b.o/", b"abc"));
        ar.extend(member("/0", b"xy"));
        let members = archive_members(&ar).unwrap();
        assert_eq!(members, vec![("b.o".to_string(), &b"abc"[..]), (long.to_string(), &b"xy"[..])]);
        // Truncation is an error, not a panic.
        assert!(archive_members(&ar[..ar.len() - 1]).is_err());
        assert!(archive_members(b"not an archive").is_err());
        assert!(archive_members(b"!<arch>\nshort").is_err());
        assert_eq!(archive_members(b"!<arch>\n"), Ok(vec![]));
    }

    #[test]
    fn containers_split_across_padding() {
        let container = |payload: usize| {
            let mut c = vec![0x50, 0xED, 0x55, 0xBA, 1, 0, 16, 0];
            c.extend_from_slice(&(payload as u64).to_le_bytes());
            c.extend(std::iter::repeat_n(7u8, payload));
            c
        };
        let mut bytes = container(0);
        bytes.extend([0, 0, 0, 0, 0, 0, 0, 0]);
        bytes.extend(container(8));
        let parts = split_containers(&bytes).unwrap();
        assert_eq!(parts.iter().map(|p| p.len()).collect::<Vec<_>>(), vec![16, 24]);
        assert!(split_containers(&bytes[..bytes.len() - 1]).is_err());
    }

    #[test]
    fn malformed_objects_are_errors_not_panics() {
        // A 64-bit little-endian ELF header whose section table lies far out of bounds.
        let mut elf = vec![0x7f, b'E', b'L', b'F', 2, 1, 1, 0];
        elf.resize(0x40, 0);
        elf[0x28..0x30].copy_from_slice(&u64::MAX.to_le_bytes());
        elf[0x3A..0x3C].copy_from_slice(&64u16.to_le_bytes());
        elf[0x3C..0x3E].copy_from_slice(&3u16.to_le_bytes());
        assert!(object_fatbins(&elf).is_err());
        assert!(object_fatbins(&elf[..0x20]).is_err());
        let mut elf32 = elf.clone();
        elf32[4] = 1;
        assert!(object_fatbins(&elf32).is_err());
    }
}
