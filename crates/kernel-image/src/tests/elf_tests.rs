//! Cases for sizing ELF images from their headers (`elf_extent`), read through a
//! bounds-checked slice reader so malformed headers are safe to try.

use super::builder::{elf, set_u16, set_u32, set_u64};
use super::{check, Expect};
use crate::elf::elf_extent;

/// The extent of `bytes` as an ELF image, reading only inside `bytes`.
fn extent(bytes: &[u8], max_size: usize) -> Result<usize, crate::ImageError> {
    let mut read = |offset: usize, len: usize| bytes.get(offset..offset.checked_add(len)?).map(<[u8]>::to_vec);
    elf_extent(&mut read, max_size)
}

/// Offsets into a builder ELF64 with two sections: table at 0x58 + 3 entries.
fn elf64() -> Vec<u8> {
    elf(true, 190, &[(1, b"0123456789abcdef0123"), (1, b"xyz")])
}

#[test]
fn elf_extents() {
    let base = elf64();
    let shoff = u64::from_le_bytes(base[0x28..0x30].try_into().unwrap()) as usize;
    let with = |edit: &dyn Fn(&mut Vec<u8>)| {
        let mut bytes = base.clone();
        edit(&mut bytes);
        bytes
    };
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        ("ELF64: ends at the section table", base.clone(), Expect::Ok("280")),
        ("ELF32", elf(false, 190, &[(1, b"abc")]), Expect::Ok("136")),
        ("header only", elf(true, 190, &[])[..64].to_vec(), Expect::Err(200, "out of bounds")),
        ("section data past the table", with(&|b| set_u64(b, shoff + 2 * 64 + 0x18, 1000)), Expect::Ok("1003")),
        (
            "NOBITS sections take no file space",
            with(&|b| {
                set_u32(b, shoff + 2 * 64 + 4, 8);
                set_u64(b, shoff + 2 * 64 + 0x20, 1 << 40);
            }),
            Expect::Ok("280"),
        ),
        (
            "program headers count",
            with(&|b| {
                // One segment described by a table placed in the first section's bytes.
                set_u64(b, 0x20, 64);
                set_u16(b, 0x36, 56);
                set_u16(b, 0x38, 1);
                b.resize(4096, 0);
                set_u64(b, 64 + 0x08, 2000);
                set_u64(b, 64 + 0x20, 48);
            }),
            Expect::Ok("2048"),
        ),
        (
            "extended section numbering",
            with(&|b| {
                set_u16(b, 0x3C, 0);
                set_u64(b, shoff + 0x20, 3);
            }),
            Expect::Ok("280"),
        ),
        ("truncated identification", b"\x7fELF\x02\x01".to_vec(), Expect::Err(200, "truncated identification")),
        ("unknown class", with(&|b| b[4] = 9), Expect::Err(200, "unknown ELF class Some(9)")),
        ("big-endian", with(&|b| b[5] = 2), Expect::Err(200, "only little-endian")),
        ("truncated header", base[..40].to_vec(), Expect::Err(200, "truncated ELF header")),
        ("section entry too small", with(&|b| set_u16(b, 0x3A, 16)), Expect::Err(200, "section header entry size 16")),
        ("section table out of bounds", with(&|b| set_u64(b, 0x28, 1 << 16)), Expect::Err(200, "out of bounds")),
        ("section table past the limit", with(&|b| set_u64(b, 0x28, u64::MAX - 8)), Expect::Err(200, "overflows")),
        ("section extent overflows", with(&|b| set_u64(b, shoff + 64 + 0x18, u64::MAX)), Expect::Err(200, "section extent overflows")),
        ("section beyond the size limit", with(&|b| set_u64(b, shoff + 64 + 0x20, 1 << 33)), Expect::Err(200, "over the 1048576-byte limit")),
        (
            "program entry too small",
            with(&|b| {
                set_u64(b, 0x20, 64);
                set_u16(b, 0x36, 8);
                set_u16(b, 0x38, 1);
            }),
            Expect::Err(200, "program header entry size 8"),
        ),
    ];
    for (name, bytes, expect) in cases {
        check(name, extent(&bytes, 1 << 20), |n| n.to_string(), &expect);
    }
}

/// No prefix or single-byte corruption of a valid ELF makes the sizer panic.
#[test]
fn elf_mutations_never_panic() {
    let base = elf64();
    for len in 0..base.len() {
        assert!(extent(&base[..len], 1 << 20).is_err(), "prefix {len}");
    }
    for pos in 0..base.len() {
        let mut bytes = base.clone();
        bytes[pos] ^= 0xFF;
        if let Err(err) = extent(&bytes, 1 << 20) {
            assert_eq!(err.cuda_error_code(), 200);
        }
    }
}
