//! Compile-speed benchmark: our PTX -> host code against NVIDIA's `ptxas` on the same
//! module, measured side by side in one run, plus the front-end's parse throughput.
//!
//! `compile_bench MODULE.ptx [PTXAS] [RUNS]` (see `scripts/bench-compile.sh`, which builds
//! the module from `benches/data/template_heavy.cu` with nvcc and finds ptxas).

use compiler_core::host::{compile_lowered, HostOptions};
use std::time::{Duration, Instant};

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: compile_bench MODULE.ptx [PTXAS] [RUNS]");
    let ptxas = args.get(2).filter(|s| !s.is_empty());
    let runs: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3);
    let text = std::fs::read_to_string(path).expect("read the PTX module");
    let mb = text.len() as f64 / 1e6;
    println!("module: {path}: {} lines, {:.2} MB", text.lines().count(), mb);

    let parse: Vec<Duration> = (0..runs.max(5))
        .map(|_| {
            let t = Instant::now();
            let m = compiler_core::ptx::parse(&text).expect("parse");
            std::hint::black_box(&m);
            t.elapsed()
        })
        .collect();
    let parse = median(parse);
    println!("parse:            {:>8.1} ms  ({:.0} MB/s)", parse.as_secs_f64() * 1e3, mb / parse.as_secs_f64());

    let mut ours = Vec::new();
    let mut lower_t = Vec::new();
    for _ in 0..runs {
        let t = Instant::now();
        let ast = compiler_core::ptx::parse(&text).expect("parse");
        let lowered = compiler_core::lower::lower_module(&ast).expect("lower");
        lower_t.push(t.elapsed());
        let m = compile_lowered(lowered, &HostOptions::default()).expect("compile");
        ours.push(t.elapsed());
        std::hint::black_box(&m.kernels);
    }
    let (ours, lower_t) = (median(ours), median(lower_t));
    println!("parse+lower:      {:>8.1} ms", lower_t.as_secs_f64() * 1e3);
    println!("ours (PTX->host): {:>8.1} ms", ours.as_secs_f64() * 1e3);

    if let Some(ptxas) = ptxas {
        let out = std::env::temp_dir().join(format!("compile_bench_{}.cubin", std::process::id()));
        let theirs: Vec<Duration> = (0..runs)
            .map(|_| {
                let t = Instant::now();
                let st = std::process::Command::new(ptxas)
                    .args(["-arch=sm_80", "-O3", path, "-o"])
                    .arg(&out)
                    .status()
                    .expect("run ptxas");
                assert!(st.success(), "ptxas failed");
                t.elapsed()
            })
            .collect();
        let _ = std::fs::remove_file(&out);
        let theirs = median(theirs);
        println!("ptxas -O3 sm_80:  {:>8.1} ms", theirs.as_secs_f64() * 1e3);
        println!("ratio ours/ptxas: {:>8.2}  (target <= 1.00)", ours.as_secs_f64() / theirs.as_secs_f64());
    }
}
