//! The `ptxc` command: outputs for an AMD GPU and the host, diagnostics, exit codes.

use std::path::{Path, PathBuf};
use std::process::Command;

fn ptxc(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_ptxc")).args(args).output().expect("run ptxc");
    (out.status.code().unwrap_or(-1), String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned())
}

fn sample(name: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../compiler-core/tests/ptx/amdgpu").join(name)
}

fn scratch(name: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("ptxc-test-{}", std::process::id()));
    std::fs::create_dir_all(&d).unwrap();
    d.join(name)
}

#[test]
fn code_objects_assembly_and_host_objects() {
    let input = sample("warp.ptx");
    let co = scratch("warp.co");
    let (code, _, err) = ptxc(&[input.to_str().unwrap(), "--target", "gfx90a", "-o", co.to_str().unwrap(), "-v"]);
    assert_eq!(code, 0, "{err}");
    let elf = std::fs::read(&co).unwrap();
    assert_eq!(&elf[..4], b"\x7fELF");
    assert_eq!(u16::from_le_bytes([elf[18], elf[19]]), 224, "EM_AMDGPU");
    assert_eq!(u16::from_le_bytes([elf[16], elf[17]]), 3, "ET_DYN");
    assert!(err.contains("kernel collectives: 8 parameter bytes") && err.contains("gfx90a (wave64)"), "{err}");
    assert!(
        err.contains("VGPRs, ") && err.contains("SGPRs, 0 bytes LDS, 0 bytes scratch per work-item"),
        "-v shows the descriptor's resources: {err}"
    );

    let (code, asm, err) = ptxc(&[input.to_str().unwrap(), "--target", "gfx1100", "--emit", "asm", "-o", "-"]);
    assert_eq!(code, 0, "{err}");
    assert!(asm.contains("ds_bpermute_b32") && asm.contains(".amdhsa_kernel collectives"), "{asm}");

    let obj = scratch("warp.o");
    let (code, _, err) = ptxc(&[input.to_str().unwrap(), "--target", "host", "-o", obj.to_str().unwrap()]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(&std::fs::read(&obj).unwrap()[..4], b"\x7fELF");

    let (code, ll, _) = ptxc(&[input.to_str().unwrap(), "--target", "gfx942", "--emit", "ll", "-o", "-"]);
    assert_eq!(code, 0);
    assert!(ll.contains("amdgpu_kernel") && ll.contains("@__ptx_shfl"), "the neutral intrinsics are visible in --emit ll");
}

#[test]
fn diagnostics_and_exit_codes() {
    let bad = scratch("bad.ptx");
    std::fs::write(&bad, ".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tfrobnicate.u32 %r1;\n\tret;\n}\n").unwrap();
    let (code, _, err) = ptxc(&[bad.to_str().unwrap(), "--target", "gfx1030"]);
    assert_eq!(code, 1);
    assert!(err.contains("6:") && err.contains("frobnicate"), "{err}");
    let (code, _, err) = ptxc(&[sample("arith.ptx").to_str().unwrap(), "--target", "gfx950"]);
    assert_eq!(code, 1);
    assert!(err.contains("needs LLVM 20"), "{err}");
    let (code, _, err) = ptxc(&[sample("arith.ptx").to_str().unwrap(), "--target", "gfx1100", "--warp-lanes", "64"]);
    assert_eq!(code, 1);
    assert!(err.contains("wave32"), "{err}");
    let (code, _, err) = ptxc(&["--bogus"]);
    assert_eq!(code, 2);
    assert!(err.contains("usage"), "{err}");
    let (code, out, _) = ptxc(&["--list-targets"]);
    assert_eq!(code, 0);
    assert!(out.contains("gfx942\twave64") && out.contains("gfx1201\twave32"), "{out}");
}
