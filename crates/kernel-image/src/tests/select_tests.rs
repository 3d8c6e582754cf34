//! Cases for `select_ptx`: which entry wins for a given device and PTX compiler, and the
//! messages when none can.

use super::{check, Expect};
use crate::{select_ptx, Compression, EntryKind, FatbinEntry, ANY_PTX_ISA};

/// A parsed entry as `parse_container` would produce it.
fn entry(kind: EntryKind, sm_arch: u32, isa: (u32, u32)) -> FatbinEntry {
    FatbinEntry {
        kind,
        sm_arch,
        ptx_isa: (kind == EntryKind::Ptx).then_some(isa),
        version: (isa.0 << 16) | isa.1,
        flags: 0x11,
        compression: Compression::None,
        identifier: None,
        ptxas_options: None,
        container_index: 0,
        offset: 0,
        payload: Vec::new(),
    }
}

fn ptx(sm: u32, isa: (u32, u32)) -> FatbinEntry {
    entry(EntryKind::Ptx, sm, isa)
}

fn sass(sm: u32) -> FatbinEntry {
    entry(EntryKind::Elf, sm, (0, 0))
}

/// `(name, entries, max ISA, target sm, expected)`; success renders as the chosen index.
type Case = (&'static str, Vec<FatbinEntry>, (u32, u32), u32, Expect);

#[test]
fn selection_table() {
    let cases: Vec<Case> = vec![
        ("single PTX below the device", vec![ptx(75, (8, 0))], ANY_PTX_ISA, 86, Expect::Ok("0")),
        ("single PTX equal to the device", vec![ptx(86, (8, 0))], ANY_PTX_ISA, 86, Expect::Ok("0")),
        ("highest arch not above the device", vec![ptx(75, (8, 0)), ptx(90, (8, 0)), ptx(80, (8, 0)), sass(86)], ANY_PTX_ISA, 86, Expect::Ok("2")),
        ("newest arch when the device allows it", vec![ptx(75, (8, 0)), ptx(90, (8, 0))], ANY_PTX_ISA, 90, Expect::Ok("1")),
        ("same arch: newest ISA", vec![ptx(80, (7, 8)), ptx(80, (8, 5)), ptx(80, (8, 1))], ANY_PTX_ISA, 90, Expect::Ok("1")),
        ("exact tie: first entry", vec![sass(80), ptx(80, (8, 0)), ptx(80, (8, 0))], ANY_PTX_ISA, 90, Expect::Ok("1")),
        ("ISA limit skips newer PTX", vec![ptx(75, (8, 0)), ptx(80, (9, 0))], (8, 5), 86, Expect::Ok("0")),
        ("ISA limit is inclusive", vec![ptx(75, (8, 0)), ptx(80, (8, 5))], (8, 5), 86, Expect::Ok("1")),
        ("minor versions compare numerically", vec![ptx(75, (8, 10)), ptx(80, (8, 9))], (8, 9), 86, Expect::Ok("1")),
        ("PTX next to SASS", vec![sass(80), sass(90), ptx(75, (8, 0))], ANY_PTX_ISA, 90, Expect::Ok("2")),
        (
            "SASS only",
            vec![sass(90), sass(80), sass(80)],
            ANY_PTX_ISA,
            86,
            Expect::Err(
                209,
                "image contains only SASS for sm_80, sm_90; no PTX to compile for this device \
                 (rebuild with -gencode arch=compute_80,code=compute_80 or --gpu-architecture=compute_80)",
            ),
        ),
        ("SASS only, suggestion capped at the device", vec![sass(90)], ANY_PTX_ISA, 86, Expect::Err(209, "arch=compute_86,code=compute_86")),
        ("no entries", vec![], ANY_PTX_ISA, 86, Expect::Err(209, "fatbin holds no entries")),
        (
            "unknown kinds only",
            vec![entry(EntryKind::Other(9), 80, (0, 0)), sass(80)],
            ANY_PTX_ISA,
            86,
            Expect::Err(209, "only SASS for sm_80 and entries of unknown kind 9; no PTX"),
        ),
        ("PTX only for newer architectures: the closest", vec![ptx(100, (8, 8)), ptx(90, (8, 0))], ANY_PTX_ISA, 86, Expect::Ok("1")),
        ("newer architecture only as a last resort", vec![ptx(90, (8, 0)), ptx(52, (7, 0))], ANY_PTX_ISA, 86, Expect::Ok("1")),
        ("newer architecture: newest ISA of the closest", vec![ptx(90, (8, 0)), ptx(90, (8, 4)), ptx(100, (8, 8))], ANY_PTX_ISA, 86, Expect::Ok("1")),
        ("newer architecture within the ISA limit", vec![ptx(90, (9, 0)), ptx(100, (8, 5))], (8, 5), 86, Expect::Ok("1")),
        (
            "every ISA too new",
            vec![ptx(75, (9, 0)), ptx(80, (9, 1))],
            (8, 5),
            86,
            Expect::Err(222, "compute_80 (PTX ISA 9.1): ISA newer than the supported 8.5"),
        ),
        ("one too new in arch, one in ISA: the arch", vec![ptx(75, (9, 0)), ptx(90, (8, 0))], (8, 5), 86, Expect::Ok("1")),
        (
            "one too new in ISA, one in both",
            vec![ptx(75, (9, 0)), ptx(90, (9, 0))],
            (8, 5),
            86,
            Expect::Err(209, "compute_75 (PTX ISA 9.0): ISA newer than the supported 8.5; compute_90 (PTX ISA 9.0): architecture newer"),
        ),
        (
            "both problems on one entry",
            vec![ptx(90, (9, 0))],
            (8, 5),
            86,
            Expect::Err(209, "architecture newer than the device (sm_86) and ISA newer than the supported 8.5"),
        ),
    ];
    for (name, entries, max_isa, target, expect) in cases {
        let result = select_ptx(&entries, max_isa, target);
        if let Ok(selected) = &result {
            assert!(std::ptr::eq(selected.entry, &entries[selected.index]), "case `{name}`");
            assert_eq!(selected.entry.kind, EntryKind::Ptx, "case `{name}`");
        }
        check(name, result, |selected| selected.index.to_string(), &expect);
    }
}
