//! Kernel cache benchmark: compile a PTX module cold (empty cache), then warm (from the
//! cache), and print both times. `cache_bench MODULE.ptx [RUNS]`.

use compiler_core::cache::Cache;
use compiler_core::host::{compile_ptx_with_cache, HostOptions};
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: cache_bench MODULE.ptx [RUNS]");
    let runs: usize = args.get(2).and_then(|s| s.parse().ok()).unwrap_or(3);
    let ptx = std::fs::read_to_string(path).expect("read the PTX module");
    let dir = std::env::temp_dir().join(format!("cuda-cpu-cache-bench-{}", std::process::id()));
    let opts = HostOptions::default();
    let mut cold = Vec::new();
    let mut warm = Vec::new();
    for _ in 0..runs {
        let _ = std::fs::remove_dir_all(&dir);
        let cache = Cache::at(&dir, 1 << 32);
        let t = Instant::now();
        let m = compile_ptx_with_cache(&ptx, &opts, Some(&cache)).expect("compile");
        cold.push(t.elapsed());
        assert!(!m.from_cache);
        drop(m);
        let t = Instant::now();
        let m = compile_ptx_with_cache(&ptx, &opts, Some(&cache)).expect("compile");
        warm.push(t.elapsed());
        assert!(m.from_cache);
    }
    let _ = std::fs::remove_dir_all(&dir);
    let (cold, warm) = (median(cold), median(warm));
    println!("module: {path}: {:.2} MB of PTX", ptx.len() as f64 / 1e6);
    println!("cold (compile + store): {:>8.1} ms", cold.as_secs_f64() * 1e3);
    println!("warm (from the cache):  {:>8.1} ms", warm.as_secs_f64() * 1e3);
    println!("speed-up:               {:>8.1}x", cold.as_secs_f64() / warm.as_secs_f64());
}
