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
        let src = format!(".version 8.0\n.target sm_90\n.address_size 64\n.visible .entry k()\n{{\n.reg .b32 %r<5>;\n{instr}\nret;\n}}\n");
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

/// An `.extern` variable no module defines may be declared (clang's `-O0` PTX declares
/// `threadIdx`, as ptxas allows); a use of one is an error that names it.
#[test]
fn undefined_extern_variables_are_errors_only_where_used() {
    let module = |body: &str| {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n.extern .global .align 4 .b8 threadIdx[1];\n.visible .entry k(.param .u64 p)\n{{\n.reg .b64 %rd<3>;\n{body}\nret;\n}}\n"
        )
    };
    let unused = compiler_core::ptx::parse(&module("ld.param.u64 %rd1, [p];")).expect("parses");
    assert!(compiler_core::lower::lower_module(&unused).is_ok(), "an unused extern declaration is accepted");
    let used = compiler_core::ptx::parse(&module("mov.u64 %rd1, threadIdx;\nld.global.u32 %rd2, [%rd1];")).expect("parses");
    let err = format!("{:?}", compiler_core::lower::lower_module(&used).err().expect("a used undefined extern is refused"));
    assert!(err.contains("'threadIdx' is an extern .global/.const variable declared but not defined"), "{err}");
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

/// A module of `n` kernels of four kinds (with barriers, so cut into regions; a warp
/// collective; a plain loop; a grid-stride loop before a barrier, so a lockstep loop with
/// strip-loop metadata of its own), each with a `shfl.sync` whose constant mask warns in
/// a 64-lane module; kernel `k` for `k` in `broken` uses an undeclared register.
fn many_kernels(n: usize, warp: u32, broken: &[usize]) -> String {
    let mut text = format!(".version 8.0\n.target sm_80\n.address_size 64\n{}\n", if warp == 64 { ".warp_size 64" } else { "" });
    for k in 0..n {
        let bad = if broken.contains(&k) { "  add.s32 %r1, %r1, %undeclared;\n" } else { "" };
        let middle = match k % 4 {
            3 => "  mov.u32 %r2, %ntid.x;\n  mov.u32 %r3, %nctaid.x;\n  mul.lo.u32 %r3, %r3, %r2;\n  mov.u32 %r2, %tid.x;\nG:\n  mul.wide.u32 %rd2, %r2, 4;\n  add.s64 %rd3, %rd1, %rd2;\n  ld.global.u32 %r0, [%rd3];\n  add.s32 %r1, %r1, %r0;\n  add.s32 %r2, %r2, %r3;\n  setp.lt.u32 %p1, %r2, 1000;\n  @%p1 bra G;\n  bar.sync 0;\n",
            0 => "  st.shared.u32 [s], %r1;\n  bar.sync 0;\n  ld.shared.u32 %r2, [s+4];\n  add.s32 %r1, %r1, %r2;\n  bar.sync 0;\n",
            1 => "  shfl.sync.bfly.b32 %r2, %r1, 1, 31, 0xffffffff;\n  add.s32 %r1, %r1, %r2;\n",
            _ => "  mov.u32 %r2, 0;\nL:\n  add.s32 %r1, %r1, %r2;\n  add.s32 %r2, %r2, 1;\n  setp.lt.u32 %p1, %r2, 10;\n  @%p1 bra L;\n",
        };
        text += &format!(
            ".visible .entry k{k}(.param .u64 out)\n{{\n  .reg .b32 %r<4>;\n  .reg .b64 %rd<4>;\n  .reg .pred %p<2>;\n  .shared .align 4 .b8 s[8];\n  ld.param.u64 %rd1, [out];\n  mov.u32 %r1, %tid.x;\n{bad}{middle}  shfl.sync.idx.b32 %r3, %r1, 0, 31, 0xffffffff;\n  add.s32 %r1, %r1, %r3;\n  st.global.u32 [%rd1], %r1;\n  ret;\n}}\n"
        );
    }
    text.replace(".shared .align 4 .b8 s[8];", "")
        .replace("[s]", "[%rd1]")
        .replace("[s+4]", "[%rd1+4]")
        .replace("st.shared", "st.global")
        .replace("ld.shared", "ld.global")
}

/// Lowering spreads a module's function bodies over threads: the IR (byte for byte, so
/// kernel cache keys do not change), the kernels and every diagnostic must be what one
/// thread produces, on every sample and on generated modules with warnings and errors.
#[test]
fn lowering_on_threads_matches_one_thread() {
    use compiler_core::lower::{lower_module_on_threads, LowerOptions};
    use compiler_core::target::host::HostTarget;
    let mut modules = samples();
    modules.push(("60 kernels".into(), many_kernels(60, 32, &[])));
    modules.push(("60 kernels, 64 lanes (warnings)".into(), many_kernels(60, 64, &[])));
    modules.push(("60 kernels, 3 broken".into(), many_kernels(60, 32, &[5, 31, 58])));
    let options = LowerOptions::default();
    for (name, text) in &modules {
        let ast = compiler_core::ptx::parse(text).unwrap_or_else(|e| panic!("{name}: {e:?}"));
        let one = lower_module_on_threads(&ast, &HostTarget, &options, 1);
        for threads in [2, 3, 8] {
            let many = lower_module_on_threads(&ast, &HostTarget, &options, threads);
            match (&one, &many) {
                (Ok(a), Ok(b)) => {
                    assert!(a.ir == b.ir, "{name}: IR on {threads} threads differs from one thread's");
                    assert_metadata_defined_once(name, &b.ir);
                    assert_eq!(format!("{:?}", a.kernels), format!("{:?}", b.kernels), "{name}, {threads} threads");
                    assert_eq!(format!("{:?}", a.warnings), format!("{:?}", b.warnings), "{name}, {threads} threads");
                }
                (Err(a), Err(b)) => assert_eq!(format!("{a:?}"), format!("{b:?}"), "{name}, {threads} threads"),
                _ => panic!("{name}: one thread gives {}, {threads} threads {}", one.is_ok(), many.is_ok()),
            }
        }
        if name.contains("64 lanes") {
            let warned = one.as_ref().map(|m| m.warnings.len()).unwrap_or(0);
            // One per `shfl.sync`: every kernel has one, a quarter of them (`k % 4 == 1`) two.
            assert_eq!(warned, 60 + 15, "{name}: one lane-mask warning per shfl.sync");
        }
        if name.contains("broken") {
            let errors = one.as_ref().err().map(|d| d.iter().filter(|d| d.severity == compiler_core::diag::Severity::Error).count());
            assert_eq!(errors, Some(3), "{name}: one error per broken kernel");
        }
    }
}

/// Every numbered metadata node of `ir` is defined once (LLVM refuses the module
/// otherwise: "Metadata id is already used").
fn assert_metadata_defined_once(name: &str, ir: &str) {
    let mut seen = std::collections::HashSet::new();
    for line in ir.lines() {
        let Some(rest) = line.strip_prefix('!') else { continue };
        let Some((id, _)) = rest.split_once(" = ") else { continue };
        if id.bytes().all(|b| b.is_ascii_digit()) {
            assert!(seen.insert(id.to_string()), "{name}: metadata !{id} defined twice");
        }
    }
}

/// A module whose kernels lower apart (on threads) compiles as one: every generated
/// module of [`lowering_on_threads_matches_one_thread`] goes through LLVM, including
/// many kernels with lockstep loops (each with strip-loop metadata of its own).
#[test]
fn many_kernel_modules_compile_for_the_host() {
    for warp in [32, 64] {
        let text = many_kernels(60, warp, &[]);
        let m = compile_ptx(&text, &HostOptions { opt_level: 0, ..HostOptions::default() }).unwrap_or_else(|e| panic!("{warp} lanes: {e}"));
        assert_eq!(m.kernel_names().len(), 60);
    }
}
