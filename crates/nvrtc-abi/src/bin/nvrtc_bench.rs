//! Compile latency and peak memory of our libnvrtc.so against NVIDIA's NVRTC (the
//! nvidia-cuda-nvrtc wheel in .venv), same machine, same run, same sources and options.
//!
//! ```text
//! cargo build --release -p nvrtc-abi && target/release/nvrtc_bench [--reps N]
//! ```
//!
//! Each (compiler, kernel) pair runs in a child process of its own, so its peak resident
//! memory (ru_maxrss) is its own: the first compile (cold: library loading, our
//! precompiled prelude, NVIDIA's built-in headers) and the median of N more (warm).
//! Kernels: a small saxpy; and a "heavy" one with cuda_fp16.h, cooperative groups
//! (reduce), math functions and templates instantiated through name expressions.
//! `NVRTC_REFERENCE` overrides the path of NVIDIA's libnvrtc.so.13.

use std::ffi::{c_char, c_int, c_void, CString};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

const SMALL: &str = r#"extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) y[i] = a * x[i] + y[i];
}
"#;

const HEAVY: &str = r#"#include <cuda_fp16.h>
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

template <typename T> struct Acc { T v; __device__ void add(T x) { v += x; } };

template <typename T, int TILE>
__global__ void heavy(const T* in, __half* hout, float* out, int n) {
    cg::thread_block block = cg::this_thread_block();
    auto tile = cg::tiled_partition<TILE>(block);
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    Acc<float> acc{0.0f};
    if (i < n) {
        float x = (float)in[i];
        acc.add(expf(-x) + logf(1.0f + x) + sinf(x) * cosf(x) + erff(x) + powf(x, 1.5f) + tanhf(x));
        __half h = __float2half(x);
        h = __hfma(h, __float2half(2.0f), hsqrt(h));
        hout[i] = h;
    }
    float s = cg::reduce(tile, acc.v, cg::plus<float>());
    if (tile.thread_rank() == 0) atomicAdd(out, s);
    block.sync();
}
"#;

const HEAVY_NAMES: &[&str] = &["heavy<float, 32>", "heavy<double, 16>", "heavy<int, 8>"];

type Create = unsafe extern "C" fn(*mut *mut c_void, *const c_char, *const c_char, c_int, *const *const c_char, *const *const c_char) -> c_int;
type Compile = unsafe extern "C" fn(*mut c_void, c_int, *const *const c_char) -> c_int;
type Destroy = unsafe extern "C" fn(*mut *mut c_void) -> c_int;
type AddName = unsafe extern "C" fn(*mut c_void, *const c_char) -> c_int;
type LogSize = unsafe extern "C" fn(*mut c_void, *mut usize) -> c_int;
type Log = unsafe extern "C" fn(*mut c_void, *mut c_char) -> c_int;

struct Nvrtc {
    create: Create,
    compile: Compile,
    destroy: Destroy,
    add_name: AddName,
    log_size: LogSize,
    log: Log,
}

fn load(path: &Path) -> Nvrtc {
    let c = CString::new(path.to_string_lossy().as_bytes()).unwrap();
    // SAFETY: dlopen/dlsym of NVRTC's documented entry points.
    unsafe {
        let h = libc::dlopen(c.as_ptr(), libc::RTLD_NOW | libc::RTLD_LOCAL);
        assert!(!h.is_null(), "cannot load {}", path.display());
        let sym = |n: &std::ffi::CStr| {
            let p = libc::dlsym(h, n.as_ptr());
            assert!(!p.is_null(), "{n:?} missing");
            p
        };
        Nvrtc {
            create: std::mem::transmute::<*mut c_void, Create>(sym(c"nvrtcCreateProgram")),
            compile: std::mem::transmute::<*mut c_void, Compile>(sym(c"nvrtcCompileProgram")),
            destroy: std::mem::transmute::<*mut c_void, Destroy>(sym(c"nvrtcDestroyProgram")),
            add_name: std::mem::transmute::<*mut c_void, AddName>(sym(c"nvrtcAddNameExpression")),
            log_size: std::mem::transmute::<*mut c_void, LogSize>(sym(c"nvrtcGetProgramLogSize")),
            log: std::mem::transmute::<*mut c_void, Log>(sym(c"nvrtcGetProgramLog")),
        }
    }
}

/// CPU time of the whole process (all threads: our compiles run on a worker thread), ms.
fn process_cpu_ms() -> f64 {
    // SAFETY: getrusage with a valid out-pointer.
    let mut u: libc::rusage = unsafe { std::mem::zeroed() };
    unsafe { libc::getrusage(libc::RUSAGE_SELF, &mut u) };
    let ms = |t: libc::timeval| t.tv_sec as f64 * 1e3 + t.tv_usec as f64 / 1e3;
    ms(u.ru_utime) + ms(u.ru_stime)
}

/// One compile; returns (wall, CPU) milliseconds. CPU time is what a loaded machine
/// disturbs least: it does not count the time the compile waited for a core.
fn compile_once(lib: &Nvrtc, src: &str, names: &[&str], opts: &[String]) -> (f64, f64) {
    let s = CString::new(src).unwrap();
    let n: Vec<CString> = names.iter().map(|x| CString::new(*x).unwrap()).collect();
    let o: Vec<CString> = opts.iter().map(|x| CString::new(x.as_str()).unwrap()).collect();
    let ov: Vec<*const c_char> = o.iter().map(|x| x.as_ptr()).collect();
    // SAFETY: NVRTC's C API with valid pointers.
    unsafe {
        let mut p = std::ptr::null_mut();
        assert_eq!((lib.create)(&mut p, s.as_ptr(), c"bench.cu".as_ptr(), 0, std::ptr::null(), std::ptr::null()), 0);
        for x in &n {
            assert_eq!((lib.add_name)(p, x.as_ptr()), 0);
        }
        let (t, cpu) = (Instant::now(), process_cpu_ms());
        let r = (lib.compile)(p, ov.len() as c_int, ov.as_ptr());
        let ms = t.elapsed().as_secs_f64() * 1e3;
        let cpu = process_cpu_ms() - cpu;
        if r != 0 {
            let mut len = 0usize;
            (lib.log_size)(p, &mut len);
            let mut buf = vec![0u8; len.max(1)];
            (lib.log)(p, buf.as_mut_ptr().cast());
            panic!("compile failed ({r}):\n{}", String::from_utf8_lossy(&buf));
        }
        (lib.destroy)(&mut p);
        (ms, cpu)
    }
}

fn repo_root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().unwrap()
}

fn nvidia_lib() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("NVRTC_REFERENCE") {
        return Some(PathBuf::from(p));
    }
    let lib = std::fs::read_dir(repo_root().join(".venv/lib")).ok()?.flatten().map(|e| e.path()).find_map(|py| {
        let p = py.join("site-packages/nvidia/cu13/lib/libnvrtc.so.13");
        p.exists().then_some(p)
    })?;
    Some(lib)
}

fn our_lib() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let dir = exe.parent().unwrap();
    for cand in [dir.join("libnvrtc.so"), dir.join("../libnvrtc.so")] {
        if cand.exists() {
            return cand;
        }
    }
    panic!("libnvrtc.so not found next to {}", exe.display());
}

fn child(which: &str, kernel: &str, reps: usize) {
    let (lib_path, extra): (PathBuf, Vec<String>) = if which == "ours" {
        (our_lib(), Vec::new())
    } else {
        let l = nvidia_lib().expect("NVIDIA's libnvrtc.so.13 not found (scripts/bootstrap.sh installs it in .venv)");
        let inc = l.parent().unwrap().join("../include");
        // NVIDIA's NVRTC has no built-in headers: the toolkit's and CCCL's (cooperative groups need it).
        (l.clone(), vec![format!("-I{}", inc.display()), format!("-I{}", inc.join("cccl").display())])
    };
    if which != "ours" {
        // NVIDIA's libnvrtc finds libnvrtc-builtins beside itself through the loader path.
        let dir = lib_path.parent().unwrap();
        if std::env::var("LD_LIBRARY_PATH").map(|v| !v.contains(&*dir.to_string_lossy())).unwrap_or(true) {
            let mut cmd = Command::new(std::env::current_exe().unwrap());
            cmd.args(["--child", which, kernel, &reps.to_string()]);
            let old = std::env::var("LD_LIBRARY_PATH").unwrap_or_default();
            cmd.env("LD_LIBRARY_PATH", format!("{}:{old}", dir.display()));
            let st = cmd.status().unwrap();
            std::process::exit(st.code().unwrap_or(1));
        }
    }
    let lib = load(&lib_path);
    let (src, names) = if kernel == "small" { (SMALL, &[][..]) } else { (HEAVY, HEAVY_NAMES) };
    let mut opts = vec!["-arch=compute_80".to_string(), "-std=c++17".to_string()];
    opts.extend(extra);
    let (cold, cold_cpu) = compile_once(&lib, src, names, &opts);
    let warm: Vec<(f64, f64)> = (0..reps).map(|_| compile_once(&lib, src, names, &opts)).collect();
    let median = |f: fn(&(f64, f64)) -> f64| {
        let mut v: Vec<f64> = warm.iter().map(f).collect();
        v.sort_by(|a, b| a.partial_cmp(b).unwrap());
        v[v.len() / 2]
    };
    println!("RESULT {which} {kernel} {cold:.3} {:.3} {cold_cpu:.3} {:.3}", median(|x| x.0), median(|x| x.1));
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if args.len() >= 5 && args[1] == "--child" {
        child(&args[2], &args[3], args[4].parse().unwrap());
        return;
    }
    let reps = args.iter().position(|a| a == "--reps").and_then(|i| args.get(i + 1)).and_then(|v| v.parse().ok()).unwrap_or(15usize);
    let have_nvidia = nvidia_lib().is_some();
    println!("cold = first compile in a fresh process; warm = median of {reps} more");
    println!("compile latency, milliseconds (wall; CPU = user+system time of the process, which load disturbs less)");
    println!("{:<8} {:<9} {:>10} {:>10} {:>10} {:>10} {:>12}", "kernel", "compiler", "cold", "warm", "cold CPU", "warm CPU", "peak RSS MB");
    let mut rows = Vec::new();
    for kernel in ["small", "heavy"] {
        for which in ["nvidia", "ours"] {
            if which == "nvidia" && !have_nvidia {
                println!("{kernel:<8} {which:<9}   (NVIDIA's NVRTC not found: skipped)");
                continue;
            }
            let exe = std::env::current_exe().unwrap();
            #[allow(clippy::zombie_processes, reason = "reaped below with wait4, which also reports its peak memory")]
            let mut child =
                Command::new(exe).args(["--child", which, kernel, &reps.to_string()]).stdout(std::process::Stdio::piped()).spawn().unwrap();
            let mut out = String::new();
            std::io::Read::read_to_string(child.stdout.as_mut().unwrap(), &mut out).unwrap();
            // Reap with wait4 to get the child's peak RSS (kilobytes on Linux).
            let pid = child.id() as libc::pid_t;
            let mut status = 0;
            // SAFETY: wait4 on our own child with valid out-pointers.
            let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
            unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
            let Some(line) = out.lines().find(|l| l.starts_with("RESULT")) else {
                println!("{kernel:<8} {which:<9}   (failed; see its output above)");
                continue;
            };
            let f: Vec<&str> = line.split_whitespace().collect();
            let v: Vec<f64> = f[3..7].iter().map(|x| x.parse().unwrap()).collect();
            let (cold, warm, cold_cpu, warm_cpu) = (v[0], v[1], v[2], v[3]);
            let rss_mb = usage.ru_maxrss as f64 / 1024.0;
            println!("{kernel:<8} {which:<9} {cold:>10.2} {warm:>10.2} {cold_cpu:>10.2} {warm_cpu:>10.2} {rss_mb:>12.1}");
            rows.push((kernel, which, cold, warm, rss_mb, cold_cpu, warm_cpu));
        }
    }
    for kernel in ["small", "heavy"] {
        let get = |w: &str| rows.iter().find(|r| r.0 == kernel && r.1 == w).copied();
        if let (Some(n), Some(o)) = (get("nvidia"), get("ours")) {
            println!(
                "{kernel:<8} ours/nvidia: cold {:.3}x, warm {:.3}x (CPU: cold {:.3}x, warm {:.3}x), peak memory {:.2}x",
                o.2 / n.2,
                o.3 / n.3,
                o.5 / n.5,
                o.6 / n.6,
                o.4 / n.4
            );
        }
    }
}
