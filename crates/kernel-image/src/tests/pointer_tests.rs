//! Cases for `image_from_ptr`: wrappers (v1, v2 with and without a prelinked list, nested),
//! bare containers, ELF files, PTX strings and archives, all read through raw pointers
//! into test-owned buffers that satisfy the function's safety contract.
//!
//! They use LZ4 and plain entries only (no zstd, which is C code), so that Miri can check
//! the pointer reading: `cargo +nightly miri test -p kernel-image -- pointer_tests`.

use super::builder::{addr, container, elf, pointer_list, ptx, sass, wrapper};
use super::{check, Expect};
use crate::{image_from_ptr, Image, ImageError};

const PTX_A: &str = ".version 8.0\n.target sm_75\n";
const PTX_B: &str = ".version 8.5\n.target sm_80\n";
const PTX_C: &str = ".version 9.0\n.target sm_86\n";

/// Reads `bytes` through its pointer.
fn load(bytes: &[u8]) -> Result<Image, ImageError> {
    // SAFETY: `bytes` is a live buffer holding one complete image (or a wrapper whose
    // pointers name live buffers), as each case below constructs it.
    unsafe { image_from_ptr(bytes.as_ptr()) }
}

/// Origin, kind, length, and the PTX picked for sm_90 (or the extraction error).
fn render(image: &Image) -> String {
    let ptx = match image.extract_ptx(90) {
        Ok(source) => format!("{:?}", source.text),
        Err(err) => format!("error {}", err.cuda_error_code()),
    };
    format!("{:?} -> {:?}, {} bytes, ptx {ptx}", image.origin, image.kind, image.bytes.len())
}

#[test]
fn null_pointer() {
    // SAFETY: null is explicitly allowed.
    let err = unsafe { image_from_ptr(std::ptr::null()) }.unwrap_err();
    assert_eq!((err.clone(), err.cuda_error_code()), (ImageError::Null, 1));
}

#[test]
fn wrappers() {
    let main = container(&[ptx(75, (8, 0), PTX_A).lz4(), sass(80)]);
    let pre1 = container(&[ptx(80, (8, 5), PTX_B).lz4()]);
    let pre2 = container(&[ptx(86, (9, 0), PTX_C)]);
    let list = pointer_list(&[addr(&pre1), addr(&pre2)]);
    let empty_list = pointer_list(&[]);
    let inner = wrapper(1, addr(&pre2), 0);
    let text = b".version 8.0\n\0".to_vec();
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        ("v1", wrapper(1, addr(&main), 0), Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 224 bytes, ptx ".version 8.0\n.target sm_75\n""#)),
        (
            "v1 ignores the second pointer",
            wrapper(1, addr(&main), addr(&list)),
            Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 224 bytes, ptx ".version 8.0\n.target sm_75\n""#),
        ),
        (
            "v2 with a prelinked list uses it instead",
            wrapper(2, addr(&main), addr(&list)),
            Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 256 bytes, ptx ".version 9.0\n.target sm_86\n""#),
        ),
        (
            "v2 with a prelinked list and no data pointer",
            wrapper(2, 0, addr(&list)),
            Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 256 bytes, ptx ".version 9.0\n.target sm_86\n""#),
        ),
        (
            "v2 with an empty list",
            wrapper(2, addr(&main), addr(&empty_list)),
            Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 224 bytes, ptx ".version 8.0\n.target sm_75\n""#),
        ),
        (
            "v2 with a null list pointer",
            wrapper(2, addr(&main), 0),
            Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 224 bytes, ptx ".version 8.0\n.target sm_75\n""#),
        ),
        (
            "wrapper of a wrapper",
            wrapper(1, addr(&inner), 0),
            Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 128 bytes, ptx ".version 9.0\n.target sm_86\n""#),
        ),
        ("version 0", wrapper(0, addr(&main), 0), Expect::Err(200, "unsupported fatbin wrapper version 0")),
        ("version 3", wrapper(3, addr(&main), 0), Expect::Err(200, "unsupported fatbin wrapper version 3")),
        ("null container pointer", wrapper(1, 0, 0), Expect::Err(200, "null container pointer")),
        ("v2, empty list, null data", wrapper(2, 0, addr(&empty_list)), Expect::Err(200, "null container pointer")),
        ("points at PTX text", wrapper(1, addr(&text), 0), Expect::Err(200, "points at PtxText data instead of a fatbin container")),
    ];
    for (name, bytes, expect) in cases {
        check(name, load(&bytes), render, &expect);
    }
    // The prelinked containers are concatenated back to back, in list order.
    let image = load(&wrapper(2, addr(&main), addr(&list))).unwrap();
    assert_eq!(image.bytes, [pre1.clone(), pre2.clone()].concat());
    let archs: Vec<u32> = image.entries().unwrap().iter().map(|e| e.sm_arch).collect();
    assert_eq!(archs, [80, 86]);
    assert_eq!(load(&wrapper(1, addr(&main), 0)).unwrap().bytes, main);
}

#[test]
fn wrappers_nested_too_deeply_are_rejected() {
    let target = container(&[ptx(75, (8, 0), PTX_A)]);
    let mut chain = vec![wrapper(1, addr(&target), 0)];
    for _ in 0..5 {
        let next = wrapper(1, addr(chain.last().unwrap()), 0);
        chain.push(next);
    }
    check("depth 6", load(chain.last().unwrap()), render, &Expect::Err(200, "nest too deeply"));
    check("depth 4", load(&chain[3]), render, &Expect::Ok(r#"FatbinWrapper -> FatbinContainer, 128 bytes, ptx ".version 8.0\n.target sm_75\n""#));
}

#[test]
fn bare_images() {
    // Bytes after each image are never copied: sizes come from headers or the NUL.
    let trailing = b"TRAILING".as_slice();
    let fatbin = container(&[ptx(75, (8, 0), PTX_A).lz4()]);
    let elf64 = elf(true, 190, &[(1, b"text section"), (8, &[])]);
    let elf32 = elf(false, 190, &[(1, b"abc")]);
    let mut elf64_no_arch = elf64.clone();
    elf64_no_arch[48..52].fill(0);
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        (
            "container",
            [fatbin.as_slice(), trailing].concat(),
            Expect::Ok(r#"FatbinContainer -> FatbinContainer, 128 bytes, ptx ".version 8.0\n.target sm_75\n""#),
        ),
        (
            "PTX string",
            [PTX_A.as_bytes(), b"\0", trailing].concat(),
            Expect::Ok(r#"PtxText -> PtxText, 27 bytes, ptx ".version 8.0\n.target sm_75\n""#),
        ),
        ("one-byte string", b"\0".to_vec(), Expect::Ok("PtxText -> PtxText, 0 bytes, ptx error 200")),
        ("short string", b"ab\0".to_vec(), Expect::Ok(r#"PtxText -> PtxText, 2 bytes, ptx "ab""#)),
        ("ELF64 cubin", [elf64.as_slice(), trailing].concat(), Expect::Ok("Elf -> Elf, 272 bytes, ptx error 209")),
        ("ELF32 cubin", [elf32.as_slice(), trailing].concat(), Expect::Ok("Elf -> Elf, 136 bytes, ptx error 209")),
        ("ELF64 cubin naming no architecture", [elf64_no_arch.as_slice(), trailing].concat(), Expect::Err(999, "names no architecture")),
        ("archive", b"!<arch>\nmember".to_vec(), Expect::Err(209, "archive")),
        (
            "container with an absurd size",
            {
                let mut bytes = fatbin.clone();
                bytes[8..16].copy_from_slice(&(1u64 << 40).to_le_bytes());
                bytes
            },
            Expect::Err(200, "over the 2147483648-byte limit"),
        ),
        (
            "container with a bad header size",
            {
                let mut bytes = fatbin.clone();
                bytes[6] = 4;
                bytes
            },
            Expect::Err(200, "header size 4"),
        ),
    ];
    assert_eq!((elf64.len(), elf32.len()), (272, 136));
    for (name, bytes, expect) in cases {
        check(name, load(&bytes), render, &expect);
    }
}
