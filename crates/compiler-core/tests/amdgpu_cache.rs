//! The on-disk cache of AMDGPU code objects: a second compile of the same module for the
//! same GPU is a hit with the same code object; another module, GPU or optimization level
//! misses (the key hashes the lowered IR, so the warp width counts where it changes the
//! code); a damaged entry is ignored and replaced.

use compiler_core::cache::Cache;
use compiler_core::target::amdgpu::{codegen, AmdgpuOptions};
use std::path::{Path, PathBuf};

fn ptx(file: &str) -> String {
    std::fs::read_to_string(Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/ptx/amdgpu").join(format!("{file}.ptx"))).unwrap()
}

fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect()).unwrap_or_default();
    v.sort();
    v
}

#[test]
fn code_objects_are_cached_per_module_gpu_and_options() {
    let dir = std::env::temp_dir().join(format!("amdgpu-code-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let cache = Cache::at(&dir, 1 << 30);
    let compile = |file: &str, opts: &AmdgpuOptions| codegen::compile_ptx_with_cache(&ptx(file), opts, Some(&cache)).unwrap();
    let gfx90a = AmdgpuOptions::new("gfx90a");

    let cold = compile("warp", &gfx90a);
    assert!(!cold.from_cache);
    assert_eq!(entries(&dir).len(), 1);
    let warm = compile("warp", &gfx90a);
    assert!(warm.from_cache);
    assert_eq!(warm.elf, cold.elf, "the same code object");
    assert_eq!(warm.kernels.len(), cold.kernels.len());
    assert_eq!(warm.static_lds_bytes, cold.static_lds_bytes);

    // Each of these is a different entry: (module, options).
    let misses: [(&str, AmdgpuOptions); 4] = [
        ("warp", AmdgpuOptions::new("gfx1100")),
        ("warp", AmdgpuOptions { opt_level: 1, ..AmdgpuOptions::new("gfx90a") }),
        ("arith", AmdgpuOptions::new("gfx90a")),
        ("warp64", AmdgpuOptions::new("gfx90a")),
    ];
    for (n, (file, opts)) in misses.iter().enumerate() {
        let co = compile(file, opts);
        assert!(!co.from_cache, "{file} {opts:?}");
        assert_eq!(entries(&dir).len(), 2 + n);
        assert!(compile(file, opts).from_cache, "{file} {opts:?} the second time");
    }

    // Damaged entries (an ELF header followed by garbage, a truncated entry, garbage) are
    // recompiled and replaced.
    type Damage = fn(&[u8]) -> Vec<u8>;
    let damage: [Damage; 3] = [
        |e| {
            let mut v = e[..64].to_vec();
            v.resize(e.len(), 0x5a);
            v
        },
        |e| e[..e.len() - 1].to_vec(),
        |_| b"not a code object".to_vec(),
    ];
    for f in damage {
        for e in entries(&dir) {
            let bytes = std::fs::read(&e).unwrap();
            std::fs::write(&e, f(&bytes)).unwrap();
        }
        let again = compile("warp", &gfx90a);
        assert!(!again.from_cache);
        assert_eq!(again.elf, cold.elf);
        assert!(compile("warp", &gfx90a).from_cache, "the damaged entry was replaced");
    }
    // Without a cache nothing is read or written.
    let before = entries(&dir).len();
    assert!(!codegen::compile_ptx(&ptx("shared"), &gfx90a).unwrap().from_cache);
    assert_eq!(entries(&dir).len(), before);
    let _ = std::fs::remove_dir_all(&dir);
}
