//! Compile-speed benchmark: our PTX -> host code against NVIDIA's `ptxas` on the same
//! module, measured side by side in one run, plus the front-end's parse throughput.
//!
//! `compile_bench MODULE.ptx [PTXAS] [RUNS]` (see `scripts/bench-compile.sh`, which builds
//! the module from `benches/data/template_heavy.cu` with nvcc and finds ptxas).
//!
//! Each repetition runs every contender once, in turn (so load from other processes hits
//! all of them alike); medians are printed. "ours" is a cold compile of every kernel (no
//! kernel cache): on one thread (ptxas is single-threaded) and on the default number of
//! compile threads; "warm" loads the same module from the kernel cache; "lazy" loads it
//! with `CUDA_MODULE_LOADING=LAZY`'s compile on first use and compiles one kernel (what a
//! program that launches one of the module's kernels waits for). Wall-clock times
//! are what a user waits; CPU times (user + system, this process or ptxas) are less
//! sensitive to other load on the machine. The load average is printed before and after.

use compiler_core::cache::Cache;
use compiler_core::host::{compile_lowered, compile_ptx_with_cache, HostOptions};
use std::time::Instant;

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

/// CPU seconds (user + system) used so far by this process (`RUSAGE_SELF`) or by its
/// waited-for children (`RUSAGE_CHILDREN`).
fn cpu_seconds(who: libc::c_int) -> f64 {
    // SAFETY: getrusage fills the struct it is given.
    let u = unsafe {
        let mut u = std::mem::zeroed::<libc::rusage>();
        libc::getrusage(who, &mut u);
        u
    };
    let tv = |t: libc::timeval| t.tv_sec as f64 + t.tv_usec as f64 * 1e-6;
    tv(u.ru_utime) + tv(u.ru_stime)
}

/// CPU seconds this thread has used (exact, unlike `getrusage`'s tick-based accounting on
/// some kernels): for short measurements.
fn thread_cpu_seconds() -> f64 {
    // SAFETY: clock_gettime fills the timespec it is given.
    let t = unsafe {
        let mut t = std::mem::zeroed::<libc::timespec>();
        libc::clock_gettime(libc::CLOCK_THREAD_CPUTIME_ID, &mut t);
        t
    };
    t.tv_sec as f64 + t.tv_nsec as f64 * 1e-9
}

fn loadavg() -> String {
    std::fs::read_to_string("/proc/loadavg").map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")).unwrap_or_default()
}

/// Wall and CPU seconds of `f`.
fn timed(who: libc::c_int, f: impl FnOnce()) -> (f64, f64) {
    let (c, t) = (cpu_seconds(who), Instant::now());
    f();
    (t.elapsed().as_secs_f64(), cpu_seconds(who) - c)
}

#[derive(Default)]
struct Series {
    wall: Vec<f64>,
    cpu: Vec<f64>,
}

impl Series {
    fn push(&mut self, (wall, cpu): (f64, f64)) {
        self.wall.push(wall);
        self.cpu.push(cpu);
    }
    fn print(&self, what: &str) {
        println!("{what:<34} {:>8.3} s wall  {:>8.3} s cpu", median(&self.wall), median(&self.cpu));
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let path = args.get(1).expect("usage: compile_bench MODULE.ptx [PTXAS] [RUNS]");
    let ptxas = args.get(2).filter(|s| !s.is_empty());
    let runs: usize = args.get(3).and_then(|s| s.parse().ok()).unwrap_or(3).max(1);
    let text = std::fs::read_to_string(path).expect("read the PTX module");
    let mb = text.len() as f64 / 1e6;
    let threads = HostOptions::default().compile_threads();
    println!("module: {path}: {} lines, {:.2} MB, {} kernels", text.lines().count(), mb, text.matches(".entry ").count());
    println!(
        "cores: {}, compile threads: {threads}, load average before: {}",
        std::thread::available_parallelism().map_or(1, |n| n.get()),
        loadavg()
    );

    let single = HostOptions { threads: 1, ..Default::default() };
    let parallel = HostOptions { threads, ..Default::default() };
    let cache_dir = std::env::temp_dir().join(format!("compile_bench_cache_{}", std::process::id()));
    let cache = Cache::at(&cache_dir, 1 << 32);
    let _ = std::fs::remove_dir_all(&cache_dir);
    drop(compile_ptx_with_cache(&text, &parallel, Some(&cache)).expect("fill the cache"));

    let (mut parse, mut parse_cpu, mut lower) = (Vec::new(), Vec::new(), Series::default());
    let (mut one, mut many, mut warm, mut theirs) = (Series::default(), Series::default(), Series::default(), Series::default());
    let mut lazy = Series::default();
    // A kernel of the middle of the module for the lazy row (what a program that uses
    // one kernel of the module waits for).
    let names: Vec<String> = text
        .lines()
        .filter_map(|l| l.trim_start().strip_prefix(".visible .entry ").or_else(|| l.trim_start().strip_prefix(".entry ")))
        .map(|l| l.trim_end_matches(['(', ' ']).to_string())
        .collect();
    let lazy_kernel = names.get(names.len() / 2).cloned().expect("the module has a kernel");
    let out = std::env::temp_dir().join(format!("compile_bench_{}.cubin", std::process::id()));
    for _ in 0..runs {
        for _ in 0..5 {
            // Parsing ends with the syntax tree; freeing it (after lowering) is not parsing.
            let (c, t) = (thread_cpu_seconds(), Instant::now());
            let ast = std::hint::black_box(compiler_core::ptx::parse(&text).expect("parse"));
            parse.push(t.elapsed().as_secs_f64());
            parse_cpu.push(thread_cpu_seconds() - c);
            drop(ast);
        }
        lower.push(timed(libc::RUSAGE_SELF, || {
            let ast = compiler_core::ptx::parse(&text).expect("parse");
            std::hint::black_box(compiler_core::lower::lower_module(&ast).expect("lower"));
        }));
        for (opts, series) in [(&single, &mut one), (&parallel, &mut many)] {
            series.push(timed(libc::RUSAGE_SELF, || {
                let ast = compiler_core::ptx::parse(&text).expect("parse");
                let lowered = compiler_core::lower::lower_module(&ast).expect("lower");
                let m = compile_lowered(lowered, opts).expect("compile");
                std::hint::black_box(&m.kernels);
            }));
        }
        warm.push(timed(libc::RUSAGE_SELF, || {
            let m = compile_ptx_with_cache(&text, &parallel, Some(&cache)).expect("compile");
            assert!(m.from_cache, "the warm compile missed the cache");
        }));
        lazy.push(timed(libc::RUSAGE_SELF, || {
            let options = HostOptions { lazy: Some(true), ..single.clone() };
            let m = compile_ptx_with_cache(&text, &options, None).expect("compile");
            let k = m.launchable(&lazy_kernel).expect("compile the kernel").expect("the kernel exists");
            std::hint::black_box(k.0.meta.name.len());
        }));
        if let Some(ptxas) = ptxas {
            theirs.push(timed(libc::RUSAGE_CHILDREN, || {
                let st = std::process::Command::new(ptxas).args(["-arch=sm_80", "-O3", path, "-o"]).arg(&out).status().expect("run ptxas");
                assert!(st.success(), "ptxas failed");
            }));
        }
    }
    let _ = std::fs::remove_file(&out);
    let _ = std::fs::remove_dir_all(&cache_dir);

    let (parse, parse_cpu) = (median(&parse), median(&parse_cpu));
    println!(
        "parse                              {:>8.1} ms wall  {:>8.1} ms cpu   {:.0} MB/s wall, {:.0} MB/s cpu (target >= 50)",
        parse * 1e3,
        parse_cpu * 1e3,
        mb / parse,
        mb / parse_cpu
    );
    lower.print("parse + lower");
    one.print("ours cold, 1 thread");
    many.print(&format!("ours cold, {threads} threads"));
    warm.print("ours warm (kernel cache)");
    lazy.print("ours lazy, load + 1 kernel, 1 thread");
    if ptxas.is_some() {
        theirs.print("ptxas -O3 -arch=sm_80");
        let t = median(&theirs.wall);
        let tc = median(&theirs.cpu);
        println!("ratio ours/ptxas, 1 thread:        {:>8.2} wall  {:>8.2} cpu   (target <= 1.00)", median(&one.wall) / t, median(&one.cpu) / tc);
        println!("ratio ours/ptxas, {threads:>2} threads:       {:>8.2} wall", median(&many.wall) / t);
    }
    println!("load average after: {}  ({runs} runs, medians)", loadavg());
}
