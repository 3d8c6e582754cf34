//! `cpu-bench`: issue 4's speed benchmark of the CPU device (run `scripts/bench-cpu.sh`).
//!
//! Every case runs real CUDA C++ kernels (`kernels/*.cu`, compiled to PTX by NVIDIA's nvcc
//! into `build/cpu-bench/`) through the driver API exactly as a program would: `cuInit`,
//! `cuModuleLoadData`, `cuMemAlloc`, `cuLaunchKernel`, `cuCtxSynchronize`, the C entry
//! points of our `libcuda.so.1` (linked in as the `cuda-abi` rlib). Each case measures a
//! baseline in the same run, interleaved with ours rep by rep so both see the same load:
//!
//! | case | baseline | ratio |
//! |---|---|---|
//! | saxpy, sums | plain Rust on as many threads as our pool (`native.rs`) | baseline / ours |
//! | SGEMM, stencil | the same kernels in OpenCL on PoCL (`kernels/*.cl`, `ocl.rs`) | PoCL / ours |
//! | launch latency / throughput | the empty kernel on PoCL (`clEnqueueNDRangeKernel`) | PoCL / ours |
//! | bitonic sort | our fiber fallback (`compiler_core::lower::regions::set_enabled(false)`) | fibers / fast path |
//! | graph replay | the same kernel chain launched one by one (`graph.rs`) | graph / one by one (lower is better) |
//!
//! Times are medians over the reps. Every result is checked (against the baseline's
//! result or a reference) before its time is reported. This is a measurement, never a
//! test: nothing here asserts on time.
//!
//! usage: `cpu-bench [--ptx-dir DIR] [--reps N] [--only NAME[,NAME...]]`
//! (names: saxpy, sum-shared, sum-shuffle, sgemm, stencil, latency, throughput, bitonic, graph)

mod cu;
mod graph;
mod native;
mod ocl;

use std::time::Instant;

use cu::{arg, Cuda};

/// Reproducible inputs: xorshift64*, floats uniform in `[lo, hi)`.
fn random_floats(n: usize, seed: u64, lo: f32, hi: f32) -> Vec<f32> {
    let mut s = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1;
    (0..n)
        .map(|_| {
            s ^= s >> 12;
            s ^= s << 25;
            s ^= s >> 27;
            let r = (s.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 40) as f32 / (1u64 << 24) as f32;
            lo + (hi - lo) * r
        })
        .collect()
}

fn seconds(f: impl FnOnce()) -> f64 {
    let t = Instant::now();
    f();
    t.elapsed().as_secs_f64()
}

fn median(v: &[f64]) -> f64 {
    let mut v = v.to_vec();
    v.sort_by(f64::total_cmp);
    let n = v.len();
    if n % 2 == 1 {
        v[n / 2]
    } else {
        (v[n / 2 - 1] + v[n / 2]) / 2.0
    }
}

fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg").map(|s| s.split_whitespace().take(3).collect::<Vec<_>>().join(" ")).unwrap_or_else(|_| "?".into())
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| s.lines().find(|l| l.starts_with("model name")).and_then(|l| l.split_once(':')).map(|(_, v)| v.trim().to_string()))
        .unwrap_or_else(|| "?".into())
}

/// How a result row is judged.
#[derive(Clone, Copy)]
enum Target {
    /// ratio >= x
    RatioAtLeast(f64),
    /// ratio > x
    RatioAbove(f64),
    /// ratio < x (a ratio whose lower values are better)
    RatioBelow(f64),
    /// our value <= x (microseconds)
    MicrosAtMost(f64),
    /// our value >= x (per second)
    RateAtLeast(f64),
}

struct Row {
    case: String,
    ours: String,
    baseline: String,
    ratio: Option<f64>,
    target: Target,
    /// Our figure in the target's unit (for the absolute targets).
    ours_value: f64,
}

impl Row {
    fn verdict(&self) -> &'static str {
        let pass = match self.target {
            Target::RatioAtLeast(x) => self.ratio.is_some_and(|r| r >= x),
            Target::RatioAbove(x) => self.ratio.is_some_and(|r| r > x),
            Target::RatioBelow(x) => self.ratio.is_some_and(|r| r < x),
            Target::MicrosAtMost(x) => self.ours_value <= x,
            Target::RateAtLeast(x) => self.ours_value >= x,
        };
        if pass {
            "pass"
        } else {
            "MISS"
        }
    }

    fn target_text(&self) -> String {
        match self.target {
            Target::RatioAtLeast(x) => format!("ratio >= {x}"),
            Target::RatioAbove(x) => format!("ratio > {x}"),
            Target::RatioBelow(x) => format!("ratio < {x}"),
            Target::MicrosAtMost(x) => format!("ours <= {x} us"),
            Target::RateAtLeast(x) => format!("ours >= {}k/s", x / 1000.0),
        }
    }
}

fn ms(s: f64) -> String {
    format!("{:.2} ms", s * 1e3)
}

struct Bench {
    cuda: Cuda,
    ptx_dir: std::path::PathBuf,
    threads: usize,
    reps: usize,
    opencl: Result<ocl::OpenCl, String>,
    rows: Vec<Row>,
}

impl Bench {
    fn module(&self, file: &str) -> cu::Module {
        let path = self.ptx_dir.join(file);
        let ptx = std::fs::read_to_string(&path).unwrap_or_else(|e| {
            eprintln!("cpu-bench: {}: {e} (build the kernels with scripts/bench-cpu.sh)", path.display());
            std::process::exit(1)
        });
        self.cuda.load_ptx(&ptx)
    }

    fn saxpy(&mut self) {
        const N: usize = 1 << 26;
        let a = 1.5f32;
        let x = random_floats(N, 1, -1.0, 1.0);
        let mut y = random_floats(N, 2, -1.0, 1.0);
        let m = self.module("saxpy.ptx");
        let k = m.function("saxpy");
        let (dx, dy) = (self.cuda.alloc(N * 4), self.cuda.alloc(N * 4));
        dx.upload(&x);
        dy.upload(&y);
        let n = N as i32;
        let run_ours = || {
            k.launch([(N / 256) as u32, 1, 1], [256, 1, 1], 0, &[arg(&n), arg(&a), arg(&dx.ptr), arg(&dy.ptr)]);
            self.cuda.sync();
        };
        let threads = self.threads;
        run_ours();
        native::saxpy(threads, a, &x, &mut y);
        let (mut ours, mut base) = (Vec::new(), Vec::new());
        for _ in 0..self.reps {
            ours.push(seconds(run_ours));
            base.push(seconds(|| native::saxpy(threads, a, &x, &mut y)));
        }
        let mut got = vec![0.0f32; N];
        dy.download(&mut got);
        // nvcc contracts a * x + y into an fma; the Rust loop rounds twice.
        let worst = got.iter().zip(&y).map(|(g, w)| (g - w).abs() / w.abs().max(1.0)).fold(0.0f32, f32::max);
        assert!(worst < 1e-4, "saxpy: results differ from the native loop (relative error {worst})");
        let (o, b) = (median(&ours), median(&base));
        self.rows.push(Row {
            case: "saxpy, 2^26 floats".into(),
            ours: ms(o),
            baseline: format!("{} (Rust, {} threads)", ms(b), threads),
            ratio: Some(b / o),
            target: Target::RatioAtLeast(0.8),
            ours_value: o,
        });
    }

    /// A transcendental-heavy elementwise kernel (a fast-math intrinsic, `kernel` of
    /// `file`) against `native`, the same function of the C library in a native loop, over
    /// 2^24 floats in [lo, hi]; results within `tol` (absolute, relative above 1).
    fn transcendental(&mut self, file: &str, kernel: &str, case: &str, range: (f32, f32), tol: f32, f: fn(f32) -> f32) {
        const N: usize = 1 << 24;
        let x = random_floats(N, 3, range.0, range.1);
        let mut y = vec![0.0f32; N];
        let m = self.module(file);
        let k = m.function(kernel);
        let (dx, dy) = (self.cuda.alloc(N * 4), self.cuda.alloc(N * 4));
        dx.upload(&x);
        let n = N as i32;
        let run_ours = || {
            k.launch([(N / 256) as u32, 1, 1], [256, 1, 1], 0, &[arg(&n), arg(&dx.ptr), arg(&dy.ptr)]);
            self.cuda.sync();
        };
        let threads = self.threads;
        run_ours();
        native::map(threads, &x, &mut y, f);
        let (mut ours, mut base) = (Vec::new(), Vec::new());
        for _ in 0..self.reps {
            ours.push(seconds(run_ours));
            base.push(seconds(|| native::map(threads, &x, &mut y, f)));
        }
        let mut got = vec![0.0f32; N];
        dy.download(&mut got);
        let worst = got.iter().zip(&y).map(|(g, w)| (g - w).abs() / w.abs().max(1.0)).fold(0.0f32, f32::max);
        assert!(worst < tol, "{case}: results differ from the native loop (error {worst})");
        let (o, b) = (median(&ours), median(&base));
        self.rows.push(Row {
            case: format!("{case}, 2^24 floats"),
            ours: ms(o),
            baseline: format!("{} (Rust, {} threads)", ms(b), threads),
            ratio: Some(b / o),
            target: Target::RatioAtLeast(1.0),
            ours_value: o,
        });
    }

    fn sum(&mut self, kernel: &str, label: &str) {
        const N: usize = 1 << 26;
        const GRID: u32 = 1024;
        let x = random_floats(N, 3, 0.0, 1.0);
        let exact: f64 = x.iter().map(|&v| v as f64).sum();
        let m = self.module("reduce.ptx");
        let k = m.function(kernel);
        let din = self.cuda.alloc(N * 4);
        let dpartial = self.cuda.alloc(GRID as usize * 4);
        let dout = self.cuda.alloc(4);
        din.upload(&x);
        let run_ours = || -> f32 {
            let (n, grid) = (N as u32, GRID);
            k.launch([GRID, 1, 1], [256, 1, 1], 0, &[arg(&din.ptr), arg(&dpartial.ptr), arg(&n)]);
            k.launch([1, 1, 1], [256, 1, 1], 0, &[arg(&dpartial.ptr), arg(&dout.ptr), arg(&grid)]);
            let mut out = [0.0f32];
            dout.download(&mut out);
            out[0]
        };
        let threads = self.threads;
        let (mut ours, mut base) = (Vec::new(), Vec::new());
        let (mut got, mut want) = (run_ours(), native::sum(threads, &x));
        for _ in 0..self.reps {
            ours.push(seconds(|| got = run_ours()));
            base.push(seconds(|| want = native::sum(threads, &x)));
        }
        for (who, v) in [("ours", got), ("native", want)] {
            let rel = ((v as f64 - exact) / exact).abs();
            assert!(rel < 1e-4, "{label}: {who} sum {v} vs exact {exact} (relative error {rel})");
        }
        let (o, b) = (median(&ours), median(&base));
        self.rows.push(Row {
            case: format!("{label}, 2^26 floats"),
            ours: ms(o),
            baseline: format!("{} (Rust, {} threads)", ms(b), threads),
            ratio: Some(b / o),
            target: Target::RatioAtLeast(0.5),
            ours_value: o,
        });
    }

    fn sgemm(&mut self) {
        const N: usize = 1024;
        let a = random_floats(N * N, 4, -1.0, 1.0);
        let b = random_floats(N * N, 5, -1.0, 1.0);
        let m = self.module("sgemm.ptx");
        let k = m.function("sgemm_tiled");
        let (da, db, dc) = (self.cuda.alloc(N * N * 4), self.cuda.alloc(N * N * 4), self.cuda.alloc(N * N * 4));
        da.upload(&a);
        db.upload(&b);
        let n = N as i32;
        let run_ours = || {
            k.launch([(N / 16) as u32, (N / 16) as u32, 1], [16, 16, 1], 0, &[arg(&n), arg(&da.ptr), arg(&db.ptr), arg(&dc.ptr)]);
            self.cuda.sync();
        };
        run_ours();
        let mut ours_c = vec![0.0f32; N * N];
        dc.download(&mut ours_c);
        // Spot checks against an f64 dot product.
        for i in 0..64 {
            let (r, c) = ((i * 389) % N, (i * 613 + 7) % N);
            let want: f64 = (0..N).map(|k| a[r * N + k] as f64 * b[k * N + c] as f64).sum();
            let got = ours_c[r * N + c] as f64;
            assert!((got - want).abs() < 1e-3 * (1.0 + want.abs()), "sgemm: C[{r}][{c}] = {got}, want {want}");
        }
        let pocl = self.opencl.as_ref().map_err(|e| e.clone()).and_then(|cl| -> Result<Box<dyn Fn() -> Result<(), String> + '_>, String> {
            let kernel = cl.kernel(include_str!("../kernels/sgemm.cl"), "sgemm_tiled")?;
            let (ca, cb, cc) = (cl.buffer(N * N * 4)?, cl.buffer(N * N * 4)?, cl.buffer(N * N * 4)?);
            ca.upload(&a)?;
            cb.upload(&b)?;
            kernel.set_args(&[ocl::Arg::I32(N as i32), ocl::Arg::Mem(&ca), ocl::Arg::Mem(&cb), ocl::Arg::Mem(&cc)])?;
            kernel.enqueue(&[N, N], &[16, 16])?;
            cl.finish()?;
            let mut theirs = vec![0.0f32; N * N];
            cc.download(&mut theirs)?;
            check_same("sgemm", &ours_c, &theirs, 1e-4)?;
            Ok(Box::new(move || {
                let _buffers = (&ca, &cb, &cc);
                kernel.enqueue(&[N, N], &[16, 16])?;
                cl.finish()
            }))
        });
        let row = Self::compare_with_pocl(self.reps, "sgemm tiled 16x16, n = 1024", run_ours, pocl);
        self.rows.push(row);
    }

    /// Runs ours and PoCL's `run` interleaved; the row.
    fn compare_with_pocl(reps: usize, case: &str, run_ours: impl Fn(), pocl: Result<Box<dyn Fn() -> Result<(), String> + '_>, String>) -> Row {
        let (mut ours, mut base) = (Vec::new(), Vec::new());
        let mut failure = None;
        for _ in 0..reps {
            ours.push(seconds(&run_ours));
            if let Ok(run) = &pocl {
                let t = Instant::now();
                match run() {
                    Ok(()) => base.push(t.elapsed().as_secs_f64()),
                    Err(e) => failure = Some(e),
                }
            }
        }
        let o = median(&ours);
        let failure = failure.or_else(|| pocl.err());
        let (baseline, ratio) = match failure {
            None => {
                let b = median(&base);
                (format!("{} (PoCL)", ms(b)), Some(b / o))
            }
            Some(e) => (format!("PoCL unavailable: {e}"), None),
        };
        Row { case: case.into(), ours: ms(o), baseline, ratio, target: Target::RatioAbove(1.0), ours_value: o }
    }

    fn stencil(&mut self) {
        const W: usize = 4096;
        const H: usize = 4096;
        let input = random_floats(W * H, 6, 0.0, 1.0);
        let m = self.module("stencil.ptx");
        let k = m.function("stencil5");
        let (din, dout) = (self.cuda.alloc(W * H * 4), self.cuda.alloc(W * H * 4));
        din.upload(&input);
        let (w, h) = (W as i32, H as i32);
        let run_ours = || {
            k.launch([(W / 32) as u32, (H / 8) as u32, 1], [32, 8, 1], 0, &[arg(&w), arg(&h), arg(&din.ptr), arg(&dout.ptr)]);
            self.cuda.sync();
        };
        run_ours();
        let mut ours_out = vec![0.0f32; W * H];
        dout.download(&mut ours_out);
        for &(x, y) in &[(0usize, 0usize), (1, 1), (100, 200), (W - 2, H - 2), (W - 1, 7), (1234, 3456)] {
            let i = y * W + x;
            let want = if x == 0 || y == 0 || x == W - 1 || y == H - 1 {
                input[i]
            } else {
                0.2f32 * (input[i] + input[i - 1] + input[i + 1] + input[i - W] + input[i + W])
            };
            assert!((ours_out[i] - want).abs() <= 1e-6, "stencil: out[{y}][{x}] = {}, want {want}", ours_out[i]);
        }
        let pocl = self.opencl.as_ref().map_err(|e| e.clone()).and_then(|cl| -> Result<Box<dyn Fn() -> Result<(), String> + '_>, String> {
            let kernel = cl.kernel(include_str!("../kernels/stencil.cl"), "stencil5")?;
            let (cin, cout) = (cl.buffer(W * H * 4)?, cl.buffer(W * H * 4)?);
            cin.upload(&input)?;
            kernel.set_args(&[ocl::Arg::I32(W as i32), ocl::Arg::I32(H as i32), ocl::Arg::Mem(&cin), ocl::Arg::Mem(&cout)])?;
            kernel.enqueue(&[W, H], &[32, 8])?;
            cl.finish()?;
            let mut theirs = vec![0.0f32; W * H];
            cout.download(&mut theirs)?;
            check_same("stencil", &ours_out, &theirs, 1e-6)?;
            Ok(Box::new(move || {
                let _buffers = (&cin, &cout);
                kernel.enqueue(&[W, H], &[32, 8])?;
                cl.finish()
            }))
        });
        let row = Self::compare_with_pocl(self.reps, "2D 5-point stencil, 4096 x 4096", run_ours, pocl);
        self.rows.push(row);
    }

    fn launches(&mut self, latency: bool, throughput: bool) {
        let m = self.module("empty.ptx");
        let k = m.function("empty");
        let launch = || k.launch([1, 1, 1], [1, 1, 1], 0, &[]);
        // Warm-up: stream worker, pool, caches.
        for _ in 0..2000 {
            launch();
            self.cuda.sync();
        }
        let cl_kernel =
            self.opencl.as_ref().map_err(|e| e.clone()).and_then(|cl| cl.kernel(include_str!("../kernels/empty.cl"), "empty").map(|k| (cl, k)));
        let cl_kernel = cl_kernel.and_then(|(cl, k)| {
            for _ in 0..200 {
                k.enqueue(&[1], &[1])?;
                cl.finish()?;
            }
            Ok((cl, k))
        });
        if latency {
            const N: usize = 20_000;
            let mut ours = Vec::with_capacity(N);
            for _ in 0..N {
                ours.push(seconds(|| {
                    launch();
                    self.cuda.sync();
                }));
            }
            let o = median(&ours) * 1e6;
            let mut p90 = ours.clone();
            p90.sort_by(f64::total_cmp);
            let o90 = p90[N * 9 / 10] * 1e6;
            let (baseline, ratio) = match &cl_kernel {
                Ok((cl, k)) => {
                    let mut theirs = Vec::new();
                    let mut err = None;
                    for _ in 0..2000 {
                        let t = Instant::now();
                        if let Err(e) = k.enqueue(&[1], &[1]).and_then(|_| cl.finish()) {
                            err = Some(e);
                            break;
                        }
                        theirs.push(t.elapsed().as_secs_f64());
                    }
                    match err {
                        None => {
                            let b = median(&theirs) * 1e6;
                            (format!("{b:.1} us (PoCL enqueue + clFinish)"), Some(b / o))
                        }
                        Some(e) => (format!("PoCL failed: {e}"), None),
                    }
                }
                Err(e) => (format!("PoCL unavailable: {e}"), None),
            };
            self.rows.push(Row {
                case: "empty kernel: launch + cuCtxSynchronize, median".into(),
                ours: format!("{o:.1} us (p90 {o90:.1})"),
                baseline,
                ratio,
                target: Target::MicrosAtMost(5.0),
                ours_value: o,
            });
        }
        if throughput {
            const N: usize = 100_000;
            let mut ours = Vec::new();
            for _ in 0..3 {
                ours.push(seconds(|| {
                    for _ in 0..N {
                        launch();
                    }
                    self.cuda.sync();
                }));
            }
            let o = N as f64 / median(&ours);
            let (baseline, ratio) = match &cl_kernel {
                Ok((cl, k)) => {
                    const M: usize = 20_000;
                    let mut theirs = Vec::new();
                    let mut err = None;
                    for _ in 0..3 {
                        let t = Instant::now();
                        let r = (0..M).try_for_each(|_| k.enqueue(&[1], &[1])).and_then(|_| cl.finish());
                        if let Err(e) = r {
                            err = Some(e);
                            break;
                        }
                        theirs.push(M as f64 / t.elapsed().as_secs_f64());
                    }
                    match err {
                        None => {
                            let b = median(&theirs);
                            (format!("{:.0}k/s (PoCL, {}k enqueues + clFinish)", b / 1e3, M / 1000), Some(o / b))
                        }
                        Some(e) => (format!("PoCL failed: {e}"), None),
                    }
                }
                Err(e) => (format!("PoCL unavailable: {e}"), None),
            };
            self.rows.push(Row {
                case: format!("empty kernel: {}k async launches + 1 sync", N / 1000),
                ours: format!("{:.0}k/s", o / 1e3),
                baseline,
                ratio,
                target: Target::RateAtLeast(300_000.0),
                ours_value: o,
            });
        }
    }

    fn bitonic(&mut self) {
        const SORT_N: usize = 1024;
        const BLOCKS: usize = 256;
        let input = random_floats(SORT_N * BLOCKS, 7, -1.0, 1.0);
        let mut want = input.clone();
        for c in want.chunks_mut(SORT_N) {
            c.sort_by(f32::total_cmp);
        }
        // The path is chosen when a module is compiled: load the kernel once each way.
        let enabled = compiler_core::lower::regions::enabled();
        compiler_core::lower::regions::set_enabled(true);
        let m_fast = self.module("bitonic.ptx");
        compiler_core::lower::regions::set_enabled(false);
        let m_fibers = self.module("bitonic.ptx");
        compiler_core::lower::regions::set_enabled(enabled);
        let (k_fast, k_fibers) = (m_fast.function("bitonic_sort_shared"), m_fibers.function("bitonic_sort_shared"));
        let d = self.cuda.alloc(input.len() * 4);
        let run = |fibers: bool| -> f64 {
            let k = if fibers { &k_fibers } else { &k_fast };
            d.upload(&input);
            let t = seconds(|| {
                k.launch([BLOCKS as u32, 1, 1], [(SORT_N / 2) as u32, 1, 1], 0, &[arg(&d.ptr)]);
                self.cuda.sync();
            });
            let mut got = vec![0.0f32; input.len()];
            d.download(&mut got);
            assert!(got == want, "bitonic sort ({}): wrong result", if fibers { "fibers" } else { "fast path" });
            t
        };
        run(false);
        run(true);
        let (mut fast, mut fibers) = (Vec::new(), Vec::new());
        for _ in 0..self.reps {
            fast.push(run(false));
            fibers.push(run(true));
        }
        let (o, b) = (median(&fast), median(&fibers));
        self.rows.push(Row {
            case: format!("bitonic sort in shared memory, {BLOCKS} blocks x {SORT_N}"),
            ours: format!("{} (barrier regions)", ms(o)),
            baseline: format!("{} (fibers)", ms(b)),
            ratio: Some(b / o),
            target: Target::RatioAtLeast(50.0),
            ours_value: o,
        });
    }

    fn print(&self) {
        println!();
        println!("| case | ours | baseline | ratio | target | result |");
        println!("|---|---|---|---|---|---|");
        for r in &self.rows {
            let ratio = r.ratio.map(|x| format!("{x:.2}")).unwrap_or_else(|| "-".into());
            println!("| {} | {} | {} | {} | {} | {} |", r.case, r.ours, r.baseline, ratio, r.target_text(), r.verdict());
        }
    }
}

/// PoCL's result must match ours (within `tol`, relative to 1 + |value|): a PoCL time
/// only counts if it computed the same thing.
fn check_same(what: &str, ours: &[f32], theirs: &[f32], tol: f32) -> Result<(), String> {
    for (i, (o, t)) in ours.iter().zip(theirs).enumerate() {
        if (o - t).abs() > tol * (1.0 + o.abs()) {
            return Err(format!("{what}: PoCL's result differs from ours at {i}: {t} vs {o}"));
        }
    }
    Ok(())
}

fn main() {
    let mut ptx_dir = std::path::PathBuf::from("build/cpu-bench");
    let mut reps = 7usize;
    let mut only: Option<Vec<String>> = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        match a.as_str() {
            "--ptx-dir" => ptx_dir = args.next().expect("--ptx-dir DIR").into(),
            "--reps" => reps = args.next().and_then(|s| s.parse().ok()).filter(|&n| n > 0).expect("--reps N"),
            "--only" => only = Some(args.next().expect("--only NAMES").split(',').map(str::to_string).collect()),
            "-h" | "--help" => {
                println!(
                    "usage: cpu-bench [--ptx-dir DIR] [--reps N] [--only saxpy,sum-shared,sum-shuffle,sgemm,stencil,latency,throughput,bitonic,graph]"
                );
                return;
            }
            other => {
                eprintln!("cpu-bench: unknown argument {other}");
                std::process::exit(2);
            }
        }
    }
    let wants = |name: &str| only.as_ref().is_none_or(|o| o.iter().any(|n| n == name));
    // The same thread count as the CPU device's pool (see cpu_backend::pool::Pool::new).
    let cores = std::thread::available_parallelism().map(|n| n.get()).unwrap_or(1);
    let threads = std::env::var("CUDA_CPU_THREADS").ok().and_then(|s| s.parse().ok()).filter(|&n: &usize| n > 0).unwrap_or(cores);
    if std::env::var_os("CUDA_CPU_THREADS").is_some() && std::env::var_os("POCL_MAX_PTHREAD_COUNT").is_none() {
        // PoCL's pthread device: one thread per core unless told (PoCL 3: POCL_MAX_PTHREAD_COUNT,
        // PoCL 4+: POCL_CPU_MAX_CU_NUM). Set before any thread reads the environment.
        std::env::set_var("POCL_MAX_PTHREAD_COUNT", threads.to_string());
        std::env::set_var("POCL_CPU_MAX_CU_NUM", threads.to_string());
    }
    let load_before = load_average();
    let started = Instant::now();
    let cuda = Cuda::init();
    let needs_opencl = wants("sgemm") || wants("stencil") || wants("latency") || wants("throughput");
    let opencl = if needs_opencl { ocl::OpenCl::open() } else { Err("not needed".into()) };
    println!("cpu-bench: {} ({} cores), {} threads for ours and the native baselines, {} reps, median times", cpu_model(), cores, threads, reps);
    match &opencl {
        Ok(cl) => println!("cpu-bench: OpenCL baseline: {}", cl.description),
        Err(e) if needs_opencl => println!("cpu-bench: no OpenCL baseline: {e}"),
        Err(_) => {}
    }
    println!("cpu-bench: load average before: {load_before}");
    let mut bench = Bench { cuda, ptx_dir, threads, reps, opencl, rows: Vec::new() };
    type Step = (&'static str, fn(&mut Bench));
    let steps: [Step; 11] = [
        ("saxpy", |b| b.saxpy()),
        // sin.approx/cos.approx: an absolute error of 2^-20.9 each on [-pi, pi].
        ("sincos", |b| {
            b.transcendental("sincos.ptx", "sincos_fast", "sincos (__sinf * __cosf)", (-std::f32::consts::PI, std::f32::consts::PI), 1e-5, |x| {
                x.sin() * x.cos()
            })
        }),
        // __expf multiplies by log2(e) first: a few ulp of relative error.
        ("expf", |b| b.transcendental("expf.ptx", "expf_fast", "expf (__expf)", (-40.0, 40.0), 1e-5, f32::exp)),
        ("sum-shared", |b| b.sum("reduce_shared", "sum, shared-memory tree + __syncthreads")),
        ("sum-shuffle", |b| b.sum("reduce_shuffle", "sum, warp shuffles (__shfl_down_sync)")),
        ("sgemm", |b| b.sgemm()),
        ("stencil", |b| b.stencil()),
        ("latency", |b| b.launches(true, false)),
        ("throughput", |b| b.launches(false, true)),
        ("bitonic", |b| b.bitonic()),
        ("graph", |b| b.graph_replay()),
    ];
    for (name, step) in steps {
        if wants(name) {
            let t = Instant::now();
            step(&mut bench);
            eprintln!("cpu-bench: {name} done in {:.1} s", t.elapsed().as_secs_f64());
        }
    }
    bench.print();
    println!();
    println!("cpu-bench: load average after: {}; total {:.0} s", load_average(), started.elapsed().as_secs_f64());
}
