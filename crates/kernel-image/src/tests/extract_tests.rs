//! Cases for `classify` and `extract_ptx`: every image kind, from bytes.

use super::builder::{container, elf, ptx, sass, wrapper};
use super::{check, Expect};
use crate::{classify, extract_ptx, extract_ptx_limited, ImageKind, PtxSource, ANY_PTX_ISA};

const PTX_75: &str = ".version 8.0\n.target sm_75\n.address_size 64\n";
const PTX_80: &str = ".version 8.4\n.target sm_80\n.address_size 64\n";
const PTX_90: &str = ".version 9.0\n.target sm_90a\n.address_size 64\n";

fn render(source: &PtxSource) -> String {
    format!("sm={:?} isa={:?} {:?}", source.sm_arch, source.isa, source.text)
}

#[test]
fn classify_by_first_bytes() {
    let cases: [(&[u8], ImageKind); 10] = [
        (&[0xb1, 0x43, 0x62, 0x46, 1, 0, 0, 0], ImageKind::FatbinWrapper),
        (&[0x50, 0xed, 0x55, 0xba], ImageKind::FatbinContainer),
        (b"\x7fELF\x02\x01", ImageKind::Elf),
        (b"!<arch>\nfoo", ImageKind::Archive),
        (b"!<arch>", ImageKind::PtxText),
        (b".version 8.0", ImageKind::PtxText),
        (b"\n\n//\n.version", ImageKind::PtxText),
        (&[0x50, 0xed, 0x55], ImageKind::PtxText),
        (b"", ImageKind::PtxText),
        (b"\x7fEL", ImageKind::PtxText),
    ];
    for (bytes, kind) in cases {
        assert_eq!(classify(bytes), kind, "{bytes:?}");
    }
}

#[test]
fn extract_from_bytes() {
    let fatbin = container(&[sass(80), ptx(75, (8, 0), PTX_75).zstd(), ptx(90, (9, 0), PTX_90).lz4(), ptx(80, (8, 4), PTX_80)]);
    let mut back_to_back = container(&[]);
    back_to_back.extend(container(&[sass(75)]));
    back_to_back.extend(container(&[ptx(75, (8, 0), PTX_75)]));
    let cubin = elf(true, 190, &[(1, b"code")]);
    let cases: Vec<(&str, Vec<u8>, u32, Expect)> = vec![
        (
            "container: best PTX for sm_86",
            fatbin.clone(),
            86,
            Expect::Ok(r#"sm=Some(80) isa=Some((8, 4)) ".version 8.4\n.target sm_80\n.address_size 64\n""#),
        ),
        (
            "container: best PTX for sm_90",
            fatbin.clone(),
            90,
            Expect::Ok(r#"sm=Some(90) isa=Some((9, 0)) ".version 9.0\n.target sm_90a\n.address_size 64\n""#),
        ),
        (
            "container: nothing old enough, the closest newer",
            fatbin,
            70,
            Expect::Ok(r#"sm=Some(75) isa=Some((8, 0)) ".version 8.0\n.target sm_75\n.address_size 64\n""#),
        ),
        (
            "containers back to back",
            back_to_back,
            86,
            Expect::Ok(r#"sm=Some(75) isa=Some((8, 0)) ".version 8.0\n.target sm_75\n.address_size 64\n""#),
        ),
        ("SASS-only container", container(&[sass(80), sass(90)]), 86, Expect::Err(209, "only SASS for sm_80, sm_90")),
        ("empty container", container(&[]), 86, Expect::Err(209, "no entries")),
        ("malformed container", container(&[ptx(75, (8, 0), PTX_75)])[..40].to_vec(), 86, Expect::Err(200, "declares")),
        (
            "PTX text with comments, leading newlines and trailing NULs",
            b"\n\n// generated\n/* .version 1.0 */ .version 7.8 // x\n.target sm_70, debug\n\0\0\0pad".to_vec(),
            86,
            Expect::Ok(r#"sm=Some(70) isa=Some((7, 8)) "\n\n// generated\n/* .version 1.0 */ .version 7.8 // x\n.target sm_70, debug\n""#),
        ),
        (
            "PTX text without header directives",
            b".visible .entry k() { ret; }".to_vec(),
            86,
            Expect::Ok(r#"sm=None isa=None ".visible .entry k() { ret; }""#),
        ),
        (
            "PTX text with non-sm target",
            b".version 8.0\n.target compute_80\n".to_vec(),
            86,
            Expect::Ok(r#"sm=None isa=Some((8, 0)) ".version 8.0\n.target compute_80\n""#),
        ),
        ("empty PTX text", b"\0".to_vec(), 86, Expect::Err(200, "PTX text is empty")),
        ("whitespace PTX text", b" \n\t\n".to_vec(), 86, Expect::Err(200, "PTX text is empty")),
        ("no bytes at all", Vec::new(), 86, Expect::Err(200, "PTX text is empty")),
        ("binary garbage", vec![0x41, 0x42, 0x43, 0x44, 0x01], 86, Expect::Err(200, "control byte 0x01 at offset 4")),
        ("NVIDIA cubin", cubin, 86, Expect::Err(209, "NVIDIA cubin, which holds only SASS")),
        ("other ELF", elf(true, 62, &[]), 86, Expect::Err(209, "ELF file for machine Some(62)")),
        ("archive", b"!<arch>\n/               0           ".to_vec(), 86, Expect::Err(209, "archive (a library of cubins)")),
        ("wrapper bytes", wrapper(1, 0x1000, 0), 86, Expect::Err(200, "read it with image_from_ptr")),
    ];
    for (name, bytes, target, expect) in cases {
        check(name, extract_ptx(&bytes, target), render, &expect);
    }
}

#[test]
fn isa_limit_applies_to_text_and_containers() {
    let cases: Vec<(&str, Vec<u8>, Expect)> = vec![
        ("text within the limit", PTX_80.as_bytes().to_vec(), Expect::Ok("Some((8, 4))")),
        ("text above the limit", PTX_90.as_bytes().to_vec(), Expect::Err(222, ".version 9.0; the PTX compiler supports up to 8.5")),
        ("container falls back to older ISA", container(&[ptx(90, (9, 0), PTX_90), ptx(75, (8, 0), PTX_75)]), Expect::Ok("Some((8, 0))")),
        ("container with only newer ISA", container(&[ptx(90, (9, 0), PTX_90)]), Expect::Err(222, "ISA newer than the supported 8.5")),
    ];
    for (name, bytes, expect) in cases {
        check(name, extract_ptx_limited(&bytes, (8, 5), 90), |s| format!("{:?}", s.isa), &expect);
    }
    assert_eq!(extract_ptx_limited(PTX_90.as_bytes(), ANY_PTX_ISA, 90).unwrap().isa, Some((9, 0)));
}
