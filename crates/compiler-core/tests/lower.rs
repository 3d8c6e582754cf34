//! The lowering and host code generation on real PTX: every sample compiles to host code,
//! and mutated samples never make the compiler panic (they compile or report errors).

use compiler_core::host::{compile_ptx, HostOptions};
use std::path::Path;

fn samples() -> Vec<(String, String)> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx");
    let mut v: Vec<_> = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(|e| e.ok())
        .map(|e| e.path())
        .filter(|p| p.extension().map(|x| x == "ptx").unwrap_or(false))
        .map(|p| (p.display().to_string(), std::fs::read_to_string(&p).unwrap()))
        .collect();
    v.sort();
    v
}

#[test]
fn every_sample_compiles_for_the_host() {
    for (name, text) in samples() {
        let m = compile_ptx(&text, &HostOptions { opt_level: 1, ..HostOptions::default() }).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(!m.kernels.is_empty(), "{name}: no kernels");
    }
}

#[test]
fn mutated_samples_never_panic() {
    let mut seed = 0x2545_f491_4f6c_dd1du64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for (_, text) in samples() {
        let lines: Vec<&str> = text.lines().collect();
        for _ in 0..40 {
            let mut l = lines.clone();
            // Swap two lines, drop one, and duplicate one: keeps the text mostly parseable
            // so the lowering (not just the parser) sees odd programs.
            let n = l.len();
            let (a, b) = ((next() as usize) % n, (next() as usize) % n);
            l.swap(a, b);
            l.remove((next() as usize) % l.len());
            let c = (next() as usize) % l.len();
            l.insert(c, l[(next() as usize) % l.len()]);
            let src = l.join("\n");
            let ast = match compiler_core::ptx::parse(&src) {
                Ok(m) => m,
                Err(d) => {
                    assert!(!d.is_empty());
                    continue;
                }
            };
            let _ = compiler_core::lower::lower_module(&ast);
        }
    }
}

/// Video instruction forms the ISA rules out (PTX ISA 9.7.17) are diagnosed, each with a
/// message naming the problem.
#[test]
fn invalid_video_forms_are_diagnosed() {
    let cases = [
        ("vadd2.u32.u32.u32.sat.add %r1, %r2, %r3, %r4;", "saturation cannot"),
        ("vadd4.u32.u32.u32 %r1.b11, %r2, %r3, %r4;", "invalid mask"),
        ("vadd2.u32.u32.u32 %r1, %r2.h4, %r3, %r4;", "unexpected"),
        ("vadd4.u32.u32.u32 %r1, %r2.b012, %r3, %r4;", "invalid selector"),
        ("vadd.u32.u32.u32 %r1.b0, %r2, %r3;", "needs operand c"),
        ("vadd.u32.u32.u32.add %r1.b0, %r2, %r3, %r4;", "cannot have a secondary"),
        ("vadd.u32.u32.u32 %r1, %r2.b01, %r3;", "invalid selector"),
        ("vadd.u32.u16.u32 %r1, %r2, %r3;", ".u32 or .s32"),
        ("vshl.u32.u32.u32 %r1, %r2, %r3;", "shift mode"),
        ("vset.u32.u32 %r1, %r2, %r3;", "comparison"),
        ("vset2.u32.u32.lt.sat %r1, %r2, %r3, %r4;", "saturation cannot"),
        ("vmad.s32.s32.s32.po %r1, -%r2, %r3, %r4;", "no negated"),
        ("vmad.s32.s32.s32 %r1, -%r2, %r3, -%r4;", "not both"),
    ];
    for (instr, want) in cases {
        let src = format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n.reg .b32 %r<5>;\n{instr}\nret;\n}}\n"
        );
        let err = match compiler_core::ptx::parse(&src) {
            Err(d) => compiler_core::diag::render(&d),
            Ok(ast) => match compiler_core::lower::lower_module(&ast) {
                Err(e) => format!("{e:?}"),
                Ok(_) => panic!("{instr}: accepted"),
            },
        };
        assert!(err.contains(want), "{instr}: {err}");
    }
}

/// Which kernels' blocks may wait for each other (`KernelMeta::blocks_communicate`): the CPU
/// device hands the blocks of the others to threads in runs, in any interleaving.
#[test]
fn kernels_whose_blocks_may_communicate() {
    // (body of `k`, expected); `helper` is a function with an atomic that bodies may call.
    let cases = [
        ("ld.global.f32 %f1, [%rd1]; st.global.f32 [%rd1], %f1;", false),
        ("ld.global.nc.f32 %f1, [%rd1]; st.shared.f32 [%rd1], %f1; bar.sync 0;", false),
        ("atom.global.add.u32 %r1, [%rd1], 1;", true),
        ("red.global.add.u32 [%rd1], 1;", true),
        ("ld.volatile.global.u32 %r1, [%rd1];", true),
        ("ld.acquire.gpu.global.u32 %r1, [%rd1];", true),
        ("st.relaxed.gpu.global.u32 [%rd1], %r1;", true),
        ("ld.global.cv.u32 %r1, [%rd1];", true),
        ("membar.gl;", true),
        ("fence.acq_rel.gpu;", true),
        ("call.uni helper, ();", true),
        ("call.uni plain, ();", false),
    ];
    for (body, want) in cases {
        let ptx = format!(
            ".version 8.0\n.target sm_80\n.address_size 64\n\
             .func helper() {{ .reg .b64 %rd<2>; .reg .b32 %r<2>; mov.u64 %rd1, 0; atom.global.add.u32 %r1, [%rd1], 1; ret; }}\n\
             .func plain() {{ ret; }}\n\
             .visible .entry k(.param .u64 p) {{\n .reg .b64 %rd<2>; .reg .b32 %r<2>; .reg .f32 %f<2>;\n \
             ld.param.u64 %rd1, [p];\n mov.u32 %r1, 1;\n {body}\n ret;\n}}\n"
        );
        let m = compile_ptx(&ptx, &HostOptions { opt_level: 1, ..HostOptions::default() }).unwrap_or_else(|e| panic!("{body}: {e}"));
        let k = m.kernels.iter().find(|k| k.meta.name == "k").unwrap();
        assert_eq!(k.meta.blocks_communicate, want, "{body}");
    }
}
