//! Kernel resources read back from our code objects' kernel descriptors
//! (`target::amdgpu::descriptor`) agree with the AMDHSA metadata that LLVM's
//! `llvm-readelf --notes` prints for the same code object: LDS, scratch, VGPRs (within
//! one allocation granule) and, on gfx9, SGPRs.

use compiler_core::target::amdgpu::{codegen, descriptor, AmdgpuOptions, GPUS};
use std::path::Path;
use std::process::Command;

const FILES: &[(&str, &str)] = &[
    ("arith", "arith"),
    ("shared", "block_sum"),
    ("warp", "collectives"),
    ("atomics", "atomics"),
    ("barrier_ops", "reductions"),
    ("printf", "hello"),
];

/// `key: value` of `kernel`'s metadata map in `llvm-readelf --notes` output.
fn field_opt(notes: &str, kernel: &str, key: &str) -> Option<u32> {
    let block = notes
        .split("  - .args:")
        .find(|b| b.lines().any(|l| l.trim() == format!(".name:           {kernel}")))
        .unwrap_or_else(|| panic!("no {kernel} in\n{notes}"));
    block.lines().find_map(|l| l.trim().strip_prefix(&format!("{key}:")).map(|v| v.trim().parse().unwrap()))
}

fn field(notes: &str, kernel: &str, key: &str) -> u32 {
    field_opt(notes, kernel, key).unwrap_or_else(|| panic!("no {key} for {kernel}"))
}

#[test]
fn descriptors_agree_with_the_metadata() {
    let dir = std::env::temp_dir().join(format!("amdgpu-resources-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    for &(gfx, wave) in GPUS {
        for &(file, kernel) in FILES {
            let text = std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx/amdgpu").join(format!("{file}.ptx"))).unwrap();
            let co = codegen::compile_ptx(&text, &AmdgpuOptions::new(gfx)).unwrap();
            let path = dir.join(format!("{file}.{gfx}.co"));
            std::fs::write(&path, &co.elf).unwrap();
            let out = Command::new("/usr/lib/llvm-19/bin/llvm-readelf").arg("--notes").arg(&path).output().unwrap();
            let notes = String::from_utf8_lossy(&out.stdout);
            let r = descriptor::kernel_resources(&co.elf, kernel).unwrap_or_else(|| panic!("{gfx} {kernel}: no descriptor"));
            assert_eq!(r.group_segment_bytes, field(&notes, kernel, ".group_segment_fixed_size"), "{gfx} {kernel}");
            assert_eq!(r.private_segment_bytes, field(&notes, kernel, ".private_segment_fixed_size"), "{gfx} {kernel}");
            let (v, a) = (field(&notes, kernel, ".vgpr_count"), field_opt(&notes, kernel, ".agpr_count").unwrap_or(0));
            let need = if gfx == "gfx90a" || gfx == "gfx942" { v + a } else { v.max(a) };
            let granule = if gfx == "gfx90a" || gfx == "gfx942" || wave == 32 { 8 } else { 4 };
            let vgprs = r.vgprs(gfx, wave);
            assert!(vgprs >= need && vgprs < need.max(1) + granule, "{gfx} {kernel}: {vgprs} VGPRs encoded for {need}");
            match r.sgprs(gfx) {
                Some(s) => {
                    let meta = field(&notes, kernel, ".sgpr_count");
                    assert!(s >= meta && s < meta + 8 + 8, "{gfx} {kernel}: {s} SGPRs encoded for {meta}");
                }
                None => assert!(!gfx.starts_with("gfx9"), "{gfx}"),
            }
        }
        assert!(descriptor::kernel_resources(
            &codegen::compile_ptx(
                &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx/amdgpu/arith.ptx")).unwrap(),
                &AmdgpuOptions::new(gfx)
            )
            .unwrap()
            .elf,
            "nonexistent"
        )
        .is_none());
    }
    // Not a code object: no resources, no panic.
    for junk in [&b""[..], b"\x7fELF\x02", &[0u8; 200][..]] {
        assert!(descriptor::kernel_resources(junk, "k").is_none());
    }
    let mut truncated = codegen::compile_ptx(
        &std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx/amdgpu/arith.ptx")).unwrap(),
        &AmdgpuOptions::new("gfx90a"),
    )
    .unwrap()
    .elf;
    truncated.truncate(truncated.len() / 2);
    assert!(descriptor::kernel_resources(&truncated, "arith").is_none());
    let _ = std::fs::remove_dir_all(&dir);
}
