//! Golden inputs: real nvcc 13.0 output (see `fixtures/README.md`), checked entry by entry
//! so that the synthetic builder cannot drift from what NVIDIA's tools really write.

use super::render_entries;
use crate::{extract_ptx, parse_container};

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "multi" => include_bytes!("fixtures/nvcc13_zstd_ptx75_ptx90_sass80.fatbin"),
        "lz4" => include_bytes!("fixtures/nvcc13_lz4_ptx75.fatbin"),
        "plain" => include_bytes!("fixtures/nvcc13_plain_ptx75.fatbin"),
        "ident" => include_bytes!("fixtures/nvcc13_ident_ptx75.fatbin"),
        "opts" => include_bytes!("fixtures/nvcc13_ptxas_opts_ptx75.fatbin"),
        "section" => include_bytes!("fixtures/nvcc13_exe_nv_fatbin_section.bin"),
        _ => unreachable!("unknown fixture {name}"),
    }
}

/// The first line of each entry's render, plus the ident and options strings.
fn summary(name: &str) -> String {
    let entries = parse_container(fixture(name)).unwrap();
    let rendered = render_entries(&entries);
    rendered
        .lines()
        .zip(&entries)
        .map(|(line, entry)| {
            let head: String = line.split(" \"").next().unwrap_or_default().to_owned();
            format!("{head} ident={:?} opts={:?}\n", entry.identifier, entry.ptxas_options)
        })
        .collect()
}

#[test]
fn real_nvcc_output() {
    let cases = [
        ("multi", "Ptx sm=75 isa=9.0 Zstd c0 ident=None opts=None\nPtx sm=90 isa=9.0 Zstd c0 ident=None opts=None\nElf sm=80 isa=- None c0 3112 bytes ident=None opts=None"),
        ("lz4", "Ptx sm=75 isa=9.0 Lz4 c0 ident=None opts=None"),
        ("plain", "Ptx sm=75 isa=9.0 None c0 ident=None opts=None"),
        ("ident", "Ptx sm=75 isa=9.0 Zstd c0 ident=Some(\"hello\") opts=None"),
        ("opts", "Ptx sm=75 isa=9.0 Zstd c0 ident=None opts=Some(\"-O1\")"),
        ("section", "Ptx sm=75 isa=9.0 Zstd c1 ident=None opts=None"),
    ];
    for (name, want) in cases {
        assert_eq!(summary(name).trim(), want, "fixture {name}");
    }
}

#[test]
fn real_nvcc_ptx_text() {
    // Every storage mode yields the same PTX, which starts with the blanked comment header.
    let reference = extract_ptx(fixture("plain"), 86).unwrap();
    assert!(reference.text.starts_with("\n\n\n\n\n\n\n\n.version 9.0\n.target sm_75\n"), "{:?}", reference.text);
    assert!(reference.text.ends_with("ret;\n\n}\n\n"), "{:?}", reference.text);
    assert!(reference.text.contains(".visible .entry add("));
    for name in ["lz4", "ident", "opts", "section"] {
        assert_eq!(extract_ptx(fixture(name), 86).unwrap(), reference, "fixture {name}");
    }
    let multi = extract_ptx(fixture("multi"), 90).unwrap();
    assert_eq!((multi.sm_arch, multi.isa), (Some(90), Some((9, 0))));
    assert!(multi.text.contains(".target sm_90\n"));
    assert_eq!(extract_ptx(fixture("multi"), 86).unwrap(), reference);
}
