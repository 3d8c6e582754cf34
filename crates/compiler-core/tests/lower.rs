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
