//! AMD code-object cache benchmark: load a PTX module for an AMD GPU cold (compile, link
//! and store) and warm (parse, lower, read the cached code object), interleaved run by
//! run, and print the medians and their ratio. `amdgpu_cache_bench MODULE.ptx [GFX] [RUNS]`.

use compiler_core::cache::Cache;
use compiler_core::target::amdgpu::{codegen, AmdgpuOptions};
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: amdgpu_cache_bench MODULE.ptx [GFX] [RUNS]");
    let gfx = args.get(2).map(String::as_str).unwrap_or("gfx90a");
    let runs: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(5);
    let ptx = std::fs::read_to_string(path).expect("read the PTX module");
    let dir = std::env::temp_dir().join(format!("amdgpu-cache-bench-{}", std::process::id()));
    let opts = AmdgpuOptions::new(gfx);
    let (mut cold, mut warm) = (Vec::new(), Vec::new());
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(&dir);
        let cache = Cache::at(&dir, 1 << 32);
        let t = Instant::now();
        let co = codegen::compile_ptx_with_cache(&ptx, &opts, Some(&cache)).expect("compile");
        cold.push(t.elapsed());
        assert!(!co.from_cache);
        let t = Instant::now();
        let hit = codegen::compile_ptx_with_cache(&ptx, &opts, Some(&cache)).expect("compile");
        warm.push(t.elapsed());
        assert!(hit.from_cache && hit.elf == co.elf);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (cold, warm) = (median(cold), median(warm));
    println!("module: {path} for {gfx}: {:.3} MB of PTX, {runs} interleaved runs, medians", ptx.len() as f64 / 1e6);
    println!("cold (compile + link + store): {:>8.1} ms", cold.as_secs_f64() * 1e3);
    println!("warm (from the cache):         {:>8.1} ms", warm.as_secs_f64() * 1e3);
    println!("speed-up:                      {:>8.1}x", cold.as_secs_f64() / warm.as_secs_f64());
}
