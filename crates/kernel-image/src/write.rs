//! Writing fatbin containers: what our nvcc embeds in the objects it builds.
//!
//! The layout is the one [`crate::parse_container`] reads ("fatbin-format.md": container
//! header, entry header). PTX entries are stored as plain NUL-terminated text, which both
//! NVIDIA's driver and ours accept; nothing is compressed, so a container is readable with
//! no decompressor and `cuobjdump`-style tools show the text as is.

use crate::classify::FATBIN_CONTAINER_MAGIC;
use crate::container::{CONTAINER_HEADER_SIZE, FLAG_64BIT, FLAG_DEBUG, FLAG_LINUX};

/// Entries are padded to this alignment, as `fatbinary` pads them.
const ENTRY_ALIGN: usize = 16;
/// Entry header size of a PTX entry: the fixed 0x40 bytes plus the options block
/// `{u32 offset, u32 length}` and room for its string, rounded to [`ENTRY_ALIGN`].
const PTX_FIXED_HEADER: usize = 0x48;

/// One PTX entry to write.
#[derive(Debug, Clone)]
pub struct PtxEntry<'a> {
    /// The PTX text (without a trailing NUL; one is added).
    pub text: &'a [u8],
    /// The architecture number: 80 for `compute_80`.
    pub sm_arch: u32,
    /// PTX ISA `(major, minor)` as the text's `.version` directive says.
    pub isa: (u32, u32),
    /// Built with device debug information (`-G`).
    pub debug: bool,
    /// The options a JIT compiler should use (`ptxas` command-line form, e.g. `-O3`).
    pub ptxas_options: &'a str,
}

fn align(n: usize) -> usize {
    n.div_ceil(ENTRY_ALIGN) * ENTRY_ALIGN
}

/// Reads the `.version major.minor` directive of PTX text.
pub fn ptx_isa_of(text: &[u8]) -> Option<(u32, u32)> {
    let text = std::str::from_utf8(text).ok()?;
    let rest = text.lines().map(str::trim).find_map(|l| l.strip_prefix(".version"))?;
    let (major, minor) = rest.trim().split_once('.')?;
    Some((major.trim().parse().ok()?, minor.trim().parse().ok()?))
}

/// A fatbin container holding the given PTX entries, in order.
pub fn write_ptx_container(entries: &[PtxEntry<'_>]) -> Vec<u8> {
    let mut body = Vec::new();
    for e in entries {
        let options = e.ptxas_options.as_bytes();
        // The options string follows the fixed header, NUL-terminated.
        let header_size = align(PTX_FIXED_HEADER + options.len() + 1);
        let payload_size = align(e.text.len() + 1);
        let mut flags = FLAG_64BIT | FLAG_LINUX;
        if e.debug {
            flags |= FLAG_DEBUG;
        }
        let start = body.len();
        body.extend_from_slice(&1u16.to_le_bytes()); // kind: PTX
        body.extend_from_slice(&0x0101u16.to_le_bytes());
        body.extend_from_slice(&(header_size as u32).to_le_bytes());
        body.extend_from_slice(&(payload_size as u64).to_le_bytes());
        body.extend_from_slice(&0u32.to_le_bytes()); // not compressed
                                                     // The options block is always present (empty options have length 0), as fatbinary
                                                     // writes it.
        body.extend_from_slice(&0x40u32.to_le_bytes());
        body.extend_from_slice(&((e.isa.0 << 16) | e.isa.1).to_le_bytes());
        body.extend_from_slice(&e.sm_arch.to_le_bytes());
        body.extend_from_slice(&0u32.to_le_bytes()); // no identifier
        body.extend_from_slice(&0u32.to_le_bytes());
        body.extend_from_slice(&flags.to_le_bytes());
        body.extend_from_slice(&0u64.to_le_bytes());
        // The uncompressed size is 0 for a payload stored uncompressed.
        body.extend_from_slice(&0u64.to_le_bytes());
        // Options block at 0x40: the string's offset (from the entry start) and length.
        body.extend_from_slice(&(PTX_FIXED_HEADER as u32).to_le_bytes());
        body.extend_from_slice(&(options.len() as u32).to_le_bytes());
        body.extend_from_slice(options);
        body.resize(start + header_size, 0);
        body.extend_from_slice(e.text);
        body.resize(start + header_size + payload_size, 0);
    }
    let mut out = Vec::with_capacity(CONTAINER_HEADER_SIZE + body.len());
    out.extend_from_slice(&FATBIN_CONTAINER_MAGIC.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes());
    out.extend_from_slice(&(CONTAINER_HEADER_SIZE as u16).to_le_bytes());
    out.extend_from_slice(&(body.len() as u64).to_le_bytes());
    out.extend_from_slice(&body);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{parse_container, EntryKind};

    const PTX_A: &str = ".version 8.5\n.target sm_70\n.address_size 64\n";
    const PTX_B: &str = "//\n.version 7.8\n.target sm_52\n.address_size 64\n.entry k() { ret; }\n";

    #[test]
    fn written_containers_parse_back() {
        let cases: &[(&[(&str, u32, bool, &str)], usize)] =
            &[(&[(PTX_A, 70, false, "-O3")], 1), (&[(PTX_A, 70, false, ""), (PTX_B, 52, true, "-O0 -g")], 2), (&[], 0)];
        for (entries, n) in cases {
            let input: Vec<PtxEntry> = entries
                .iter()
                .map(|(t, sm, debug, opts)| PtxEntry {
                    text: t.as_bytes(),
                    sm_arch: *sm,
                    isa: ptx_isa_of(t.as_bytes()).expect("version"),
                    debug: *debug,
                    ptxas_options: opts,
                })
                .collect();
            let bytes = write_ptx_container(&input);
            let parsed = parse_container(&bytes).expect("parses");
            assert_eq!(parsed.len(), *n);
            for (p, (t, sm, debug, opts)) in parsed.iter().zip(entries.iter()) {
                assert_eq!(p.kind, EntryKind::Ptx);
                assert_eq!(p.payload, t.as_bytes());
                assert_eq!(p.sm_arch, *sm);
                assert_eq!(p.ptx_isa, ptx_isa_of(t.as_bytes()));
                assert_eq!(p.flags & FLAG_DEBUG != 0, *debug);
                assert_eq!(p.ptxas_options.as_deref().unwrap_or(""), *opts);
            }
        }
    }

    /// The header fields NVIDIA's driver and cudart check as `fatbinary` writes them (a
    /// non-zero uncompressed size on a plain payload made NVIDIA's cudart crash).
    #[test]
    fn entry_header_fields_are_fatbinarys() {
        let bytes = write_ptx_container(&[PtxEntry { text: PTX_A.as_bytes(), sm_arch: 80, isa: (8, 5), debug: false, ptxas_options: "" }]);
        let entry = &bytes[CONTAINER_HEADER_SIZE..];
        let u32_at = |o: usize| u32::from_le_bytes(entry[o..o + 4].try_into().unwrap());
        let u64_at = |o: usize| u64::from_le_bytes(entry[o..o + 8].try_into().unwrap());
        let cases: &[(&str, u64, u64)] = &[
            ("kind", u64::from(u32_at(0) & 0xffff), 1),
            ("header size", u64::from(u32_at(4)), 0x50),
            ("compressed size", u64::from(u32_at(0x10)), 0),
            ("options block offset", u64::from(u32_at(0x14)), 0x40),
            ("version", u64::from(u32_at(0x18)), 0x0008_0005),
            ("architecture", u64::from(u32_at(0x1c)), 80),
            ("flags", u64_at(0x28), FLAG_64BIT | FLAG_LINUX),
            ("uncompressed size", u64_at(0x38), 0),
            ("options string offset", u64::from(u32_at(0x40)), 0x48),
            ("options string length", u64::from(u32_at(0x44)), 0),
        ];
        for (field, got, want) in cases {
            assert_eq!(got, want, "{field}");
        }
    }

    #[test]
    fn isa_is_read_from_the_version_directive() {
        let cases: &[(&str, Option<(u32, u32)>)] =
            &[(PTX_A, Some((8, 5))), (PTX_B, Some((7, 8))), (".target sm_70\n", None), ("  .version 9.0 \n", Some((9, 0)))];
        for (text, isa) in cases {
            assert_eq!(ptx_isa_of(text.as_bytes()), *isa, "{text:?}");
        }
    }
}
