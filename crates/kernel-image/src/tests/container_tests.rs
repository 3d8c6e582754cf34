//! Cases for `parse_container`: well-formed containers in every storage mode, and every
//! kind of truncation and corruption we guard against.

use super::builder::{container, ptx, sass, set_u16, set_u32, set_u64, EntrySpec};
use super::{check, render_entries, Expect};
use crate::parse_container;

const PTX_A: &str = ".version 8.0\n.target sm_75\n.address_size 64\n";
const PTX_B: &str = ".version 9.0\n.target sm_90\n.address_size 64\n";

/// Offset of the first entry header in a builder container.
const E0: usize = 16;

/// A container with one entry, then `edit` applied to the bytes.
fn edited(entry: EntrySpec, edit: impl FnOnce(&mut Vec<u8>)) -> Vec<u8> {
    let mut bytes = container(&[entry]);
    edit(&mut bytes);
    bytes
}

fn run(cases: Vec<(&str, Vec<u8>, Expect)>) {
    for (name, bytes, expect) in cases {
        check(name, parse_container(&bytes), |entries| render_entries(entries), &expect);
    }
}

#[test]
fn well_formed_containers() {
    let back_to_back = {
        let mut bytes = container(&[ptx(75, (8, 0), PTX_A)]);
        bytes.extend_from_slice(&[0; 8]); // section alignment padding
        bytes.extend(container(&[ptx(90, (9, 0), PTX_B).zstd(), sass(90)]));
        bytes.extend_from_slice(&[0; 5]);
        bytes
    };
    let empty_then_real = {
        let mut bytes = container(&[]);
        bytes.extend(container(&[ptx(75, (8, 0), PTX_A).lz4()]));
        bytes
    };
    let padded_ptx = {
        let mut entry = ptx(80, (8, 5), "\n\n\n.version 8.5\n");
        entry.payload.extend_from_slice(b"\0\0\0junk after the terminator\0");
        entry
    };
    run(vec![
        (
            "plain PTX",
            container(&[ptx(75, (8, 0), PTX_A)]),
            Expect::Ok(r#"Ptx sm=75 isa=8.0 None c0 ".version 8.0\n.target sm_75\n.address_size 64\n""#),
        ),
        (
            "zstd PTX",
            container(&[ptx(90, (9, 0), PTX_B).zstd()]),
            Expect::Ok(r#"Ptx sm=90 isa=9.0 Zstd c0 ".version 9.0\n.target sm_90\n.address_size 64\n""#),
        ),
        (
            "LZ4 PTX",
            container(&[ptx(75, (8, 0), PTX_A).lz4()]),
            Expect::Ok(r#"Ptx sm=75 isa=8.0 Lz4 c0 ".version 8.0\n.target sm_75\n.address_size 64\n""#),
        ),
        ("leading newlines kept, NUL and padding cut", container(&[padded_ptx]), Expect::Ok(r#"Ptx sm=80 isa=8.5 None c0 "\n\n\n.version 8.5\n""#)),
        (
            "several entries",
            container(&[ptx(75, (8, 0), PTX_A), sass(80).zstd(), ptx(90, (9, 0), PTX_B).lz4()]),
            Expect::Ok(
                r#"
Ptx sm=75 isa=8.0 None c0 ".version 8.0\n.target sm_75\n.address_size 64\n"
Elf sm=80 isa=- Zstd c0 25 bytes
Ptx sm=90 isa=9.0 Lz4 c0 ".version 9.0\n.target sm_90\n.address_size 64\n""#,
            ),
        ),
        (
            "two containers back to back with padding",
            back_to_back,
            Expect::Ok(
                r#"
Ptx sm=75 isa=8.0 None c0 ".version 8.0\n.target sm_75\n.address_size 64\n"
Ptx sm=90 isa=9.0 Zstd c1 ".version 9.0\n.target sm_90\n.address_size 64\n"
Elf sm=90 isa=- None c1 32 bytes"#,
            ),
        ),
        (
            "empty container then a real one",
            empty_then_real,
            Expect::Ok(r#"Ptx sm=75 isa=8.0 Lz4 c1 ".version 8.0\n.target sm_75\n.address_size 64\n""#),
        ),
        ("only an empty container", container(&[]), Expect::Ok("")),
        ("unknown entry kind is kept", container(&[EntrySpec { kind: 7, ..sass(70) }]), Expect::Ok("Other(7) sm=70 isa=- None c0 32 bytes")),
    ]);
}

#[test]
fn strings_in_entry_headers() {
    let bytes = container(&[ptx(75, (8, 0), PTX_A).ident("my-ident").options("-O1  "), ptx(80, (8, 0), PTX_A)]);
    let entries = parse_container(&bytes).unwrap();
    let got: Vec<_> = entries.iter().map(|e| (e.identifier.as_deref(), e.ptxas_options.as_deref(), e.offset)).collect();
    assert_eq!(got, [(Some("my-ident"), Some("-O1"), 16), (None, None, 16 + 0x60 + 48)]);
}

#[test]
fn malformed_containers() {
    let ok = || ptx(75, (8, 0), PTX_A);
    let zstd_len = |entry: EntrySpec| u32::from_le_bytes(entry.encode()[0x10..0x14].try_into().unwrap());
    run(vec![
        ("empty input", vec![], Expect::Err(200, "fatbin is empty")),
        ("wrong magic", edited(ok(), |b| set_u32(b, 0, 0xDEAD_BEEF)), Expect::Err(200, "found 0xDEADBEEF")),
        ("truncated container header", container(&[])[..10].to_vec(), Expect::Err(200, "truncated (10 of 16")),
        ("container header size below 16", edited(ok(), |b| set_u16(b, 6, 8)), Expect::Err(200, "header size 8")),
        ("entries size past the buffer", edited(ok(), |b| set_u64(b, 8, 10_000)), Expect::Err(200, "declares 10016 bytes but only")),
        ("entries size overflows", edited(ok(), |b| set_u64(b, 8, u64::MAX)), Expect::Err(200, "overflows")),
        ("leading zeros before the container", [vec![0; 8], container(&[ok()])].concat(), Expect::Err(200, "found 0x00000000")),
        ("garbage after a container", [container(&[ok()]), b"garbage!".repeat(3)].concat(), Expect::Err(200, "container 1 at offset")),
        (
            "truncated entry header",
            {
                let mut bytes = container(&[]);
                set_u64(&mut bytes, 8, 20);
                bytes.extend_from_slice(&[1; 20]);
                bytes
            },
            Expect::Err(200, "truncated (20 of 64"),
        ),
        ("entry header size below 64", edited(ok(), |b| set_u32(b, E0 + 4, 32)), Expect::Err(200, "header size 32")),
        ("entry header size past the container", edited(ok(), |b| set_u32(b, E0 + 4, 4096)), Expect::Err(200, "header size 4096")),
        ("payload size past the container", edited(ok(), |b| set_u64(b, E0 + 8, 1 << 20)), Expect::Err(200, "declares a 1048576-byte payload")),
        ("payload size overflows", edited(ok(), |b| set_u64(b, E0 + 8, u64::MAX)), Expect::Err(200, "payload")),
        (
            "corrupt zstd frame",
            edited(ok().zstd(), |b| {
                let start = E0 + 0x50;
                b[start + 4..start + 40].fill(0xAA);
            }),
            Expect::Err(200, "corrupt zstd payload"),
        ),
        (
            "corrupt LZ4 block",
            edited(ok().lz4(), |b| {
                let start = E0 + 0x50;
                b[start..start + 8].fill(0xFF);
            }),
            Expect::Err(200, "corrupt LZ4 payload"),
        ),
        (
            "compressed size beyond the payload",
            edited(ok().zstd(), |b| set_u32(b, E0 + 0x10, 4096)),
            Expect::Err(200, "compressed size 4096 exceeds"),
        ),
        ("both compression flags", edited(ok().zstd(), |b| set_u64(b, E0 + 0x28, 0x8000 | 0x2000)), Expect::Err(200, "both LZ4 and zstd")),
        ("compressed size without a flag", edited(ok().zstd(), |b| set_u64(b, E0 + 0x28, 0x11)), Expect::Err(200, "no known compression flag")),
        (
            "zstd size differs from the header",
            edited(ok().zstd(), |b| set_u64(b, E0 + 0x38, PTX_A.len() as u64 - 3)),
            Expect::Err(200, "more than 41 bytes"),
        ),
        (
            "zstd output shorter than declared",
            edited(ok().zstd(), |b| set_u64(b, E0 + 0x38, PTX_A.len() as u64 + 9)),
            Expect::Err(200, "decompressed 45 bytes but the header declares 53"),
        ),
        ("LZ4 without a size", edited(ok().lz4(), |b| set_u64(b, E0 + 0x38, 0)), Expect::Err(200, "without an uncompressed size")),
        ("LZ4 size beyond any expansion", edited(ok().lz4(), |b| set_u64(b, E0 + 0x38, 1 << 29)), Expect::Err(200, "cannot expand")),
        ("absurd uncompressed size", edited(ok().zstd(), |b| set_u64(b, E0 + 0x38, u64::MAX)), Expect::Err(200, "implausibly large")),
    ]);
    // The builder's zstd frames must be short enough for the corruption offsets above.
    assert!(zstd_len(ok().zstd()) > 40);
}

/// No prefix of a valid multi-entry image parses, and no single-byte corruption panics:
/// it either still parses or fails with a CUDA image code.
#[test]
fn truncations_and_bit_flips_never_panic() {
    let bytes = container(&[ptx(75, (8, 0), PTX_A).zstd(), sass(80), ptx(90, (9, 0), PTX_B).lz4()]);
    assert_eq!(parse_container(&bytes).unwrap().len(), 3);
    for len in 0..bytes.len() {
        let err = parse_container(&bytes[..len]).unwrap_err();
        assert_eq!(err.cuda_error_code(), 200, "prefix of {len} bytes: {err}");
    }
    for pos in 0..bytes.len() {
        for flip in [0x01u8, 0x80, 0xFF] {
            let mut mutated = bytes.clone();
            mutated[pos] ^= flip;
            match parse_container(&mutated) {
                Ok(entries) => assert!(entries.len() <= 3, "byte {pos}^{flip:#x}"),
                Err(err) => assert_eq!(err.cuda_error_code(), 200, "byte {pos}^{flip:#x}: {err}"),
            }
            let _ = crate::extract_ptx(&mutated, 90);
        }
    }
}
