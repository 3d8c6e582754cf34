//! The 2^20-point single-precision complex FFT through our libcufft on the CPU device,
//! against rustfft called directly; prints both and the ratio (rustfft time / ours, so
//! higher is better for us; the target is >= 0.9).
//!
//! Our libcuda.so.1 and libcufft.so are opened at run time from the directory of this
//! program (`target/release`, after `scripts/build.sh`) or from `--lib-dir DIR`, as a
//! program would load them. Both sides transform the same data, freshly copied in before
//! each (untimed) repetition; ours is timed from `cufftExecC2C` to the end of
//! `cuCtxSynchronize`, i.e. including queueing on the stream and the wait.
//!
//! usage: cufft_bench [--lib-dir DIR] [--reps N] [--log2 K]

use std::ffi::{c_int, c_uint, c_void};
use std::path::PathBuf;
use std::time::{Duration, Instant};

use rustfft::num_complex::Complex;
use rustfft::FftPlanner;

type CuResult = c_int;

/// The driver and cuFFT entry points the benchmark calls.
struct Api {
    _cuda: libloading::Library,
    _cufft: libloading::Library,
    mem_alloc: unsafe extern "C" fn(*mut u64, usize) -> CuResult,
    htod: unsafe extern "C" fn(u64, *const c_void, usize) -> CuResult,
    dtoh: unsafe extern "C" fn(*mut c_void, u64, usize) -> CuResult,
    ctx_sync: unsafe extern "C" fn() -> CuResult,
    plan_1d: unsafe extern "C" fn(*mut c_int, c_int, c_int, c_int) -> c_int,
    exec_c2c: unsafe extern "C" fn(c_int, u64, u64, c_int) -> c_int,
}

fn check(status: c_int, what: &str) {
    if status != 0 {
        eprintln!("cufft_bench: {what} failed with status {status}");
        std::process::exit(1);
    }
}

impl Api {
    fn open(dir: &std::path::Path) -> Api {
        let open = |name: &str| {
            // SAFETY: our own libraries, whose initializers are safe to run.
            unsafe { libloading::Library::new(dir.join(name)) }.unwrap_or_else(|e| {
                eprintln!("cufft_bench: cannot open {}: {e} (run scripts/build.sh, or pass --lib-dir)", dir.join(name).display());
                std::process::exit(1)
            })
        };
        // libcuda.so.1 first: libcufft then finds it loaded under its soname.
        let cuda = open("libcuda.so.1");
        let cufft = open("libcufft.so");
        macro_rules! sym {
            ($lib:expr, $name:literal) => {
                // SAFETY: the symbol is the C function of that name, of the field's type.
                *unsafe { $lib.get(concat!($name, "\0").as_bytes()) }.unwrap_or_else(|e| panic!("{}: {e}", $name))
            };
        }
        let init: unsafe extern "C" fn(c_uint) -> CuResult = sym!(cuda, "cuInit");
        let device_get: unsafe extern "C" fn(*mut c_int, c_int) -> CuResult = sym!(cuda, "cuDeviceGet");
        let retain: unsafe extern "C" fn(*mut *mut c_void, c_int) -> CuResult = sym!(cuda, "cuDevicePrimaryCtxRetain");
        let set_current: unsafe extern "C" fn(*mut c_void) -> CuResult = sym!(cuda, "cuCtxSetCurrent");
        let (mut dev, mut ctx) = (0, std::ptr::null_mut());
        // SAFETY: plain driver calls with writable out-pointers.
        unsafe {
            check(init(0), "cuInit");
            check(device_get(&mut dev, 0), "cuDeviceGet");
            check(retain(&mut ctx, dev), "cuDevicePrimaryCtxRetain");
            check(set_current(ctx), "cuCtxSetCurrent");
        }
        Api {
            mem_alloc: sym!(cuda, "cuMemAlloc_v2"),
            htod: sym!(cuda, "cuMemcpyHtoD_v2"),
            dtoh: sym!(cuda, "cuMemcpyDtoH_v2"),
            ctx_sync: sym!(cuda, "cuCtxSynchronize"),
            plan_1d: sym!(cufft, "cufftPlan1d"),
            exec_c2c: sym!(cufft, "cufftExecC2C"),
            _cuda: cuda,
            _cufft: cufft,
        }
    }
}

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn ms(d: Duration) -> f64 {
    d.as_secs_f64() * 1e3
}

fn main() {
    let mut lib_dir = std::env::current_exe().ok().and_then(|p| p.parent().map(PathBuf::from)).unwrap_or_default();
    let (mut reps, mut log2) = (30usize, 20u32);
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let mut value = || args.next().unwrap_or_else(|| panic!("{a} needs a value"));
        match a.as_str() {
            "--lib-dir" => lib_dir = PathBuf::from(value()),
            "--reps" => reps = value().parse().expect("--reps N"),
            "--log2" => log2 = value().parse().expect("--log2 K"),
            _ => panic!("unknown argument {a}; usage: cufft_bench [--lib-dir DIR] [--reps N] [--log2 K]"),
        }
    }
    let n = 1usize << log2;
    let bytes = n * 8;
    let api = Api::open(&lib_dir);
    let mut seed = 1u64;
    let mut next = || {
        seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
        (seed >> 40) as f32 / (1u32 << 24) as f32 - 0.5
    };
    let data: Vec<Complex<f32>> = (0..n).map(|_| Complex::new(next(), next())).collect();

    // rustfft directly: in place with a kept scratch buffer, and out of place with the
    // input kept (what cuFFT's out-of-place transform does).
    let fft = FftPlanner::<f32>::new().plan_fft_forward(n);
    let mut scratch = vec![Complex::default(); fft.get_inplace_scratch_len().max(fft.get_immutable_scratch_len())];
    let mut buffer = data.clone();
    let mut out = vec![Complex::default(); n];

    // Ours: a plan, device buffers.
    let mut plan = 0;
    let (mut d_in, mut d_out) = (0u64, 0u64);
    // SAFETY: driver and cuFFT calls on buffers of `bytes` bytes.
    unsafe {
        check((api.plan_1d)(&mut plan, n as c_int, 0x29, 1), "cufftPlan1d");
        check((api.mem_alloc)(&mut d_in, bytes), "cuMemAlloc");
        check((api.mem_alloc)(&mut d_out, bytes), "cuMemAlloc");
    }
    let ours = |src: u64, dst: u64| {
        // SAFETY: as above; the data fills `d_in`.
        unsafe {
            check((api.htod)(d_in, data.as_ptr().cast(), bytes), "cuMemcpyHtoD");
            check((api.ctx_sync)(), "cuCtxSynchronize");
            let t = Instant::now();
            check((api.exec_c2c)(plan, src, dst, -1), "cufftExecC2C");
            check((api.ctx_sync)(), "cuCtxSynchronize");
            t.elapsed()
        }
    };
    let mut times: [Vec<Duration>; 4] = Default::default();
    for rep in 0..reps + 3 {
        // Alternating, so that load from other processes falls on both sides alike.
        let t_ours_in = ours(d_in, d_in);
        let t_ours_out = ours(d_in, d_out);
        buffer.copy_from_slice(&data);
        let t = Instant::now();
        fft.process_with_scratch(&mut buffer, &mut scratch);
        let t_ref_in = t.elapsed();
        let t = Instant::now();
        fft.process_immutable_with_scratch(&data, &mut out, &mut scratch);
        let t_ref_out = t.elapsed();
        if rep >= 3 {
            for (v, t) in times.iter_mut().zip([t_ours_in, t_ref_in, t_ours_out, t_ref_out]) {
                v.push(t);
            }
        }
    }
    // Our results against rustfft's.
    let mut got = vec![Complex::<f32>::default(); n];
    // SAFETY: `got` holds `bytes` bytes.
    unsafe { check((api.dtoh)(got.as_mut_ptr().cast(), d_out, bytes), "cuMemcpyDtoH") };
    let scale = out.iter().map(|c| c.norm()).fold(0.0f32, f32::max);
    let err = got.iter().zip(&out).map(|(a, b)| (a - b).norm()).fold(0.0f32, f32::max) / scale;
    let [ours_in, ref_in, ours_out, ref_out] = times.map(median);
    println!("cufft_bench: C2C forward, 2^{log2} = {n} points, single precision, 1 batch; median of {reps} runs");
    println!(
        "  in place:     ours {:8.3} ms   rustfft {:8.3} ms   ratio {:.2}",
        ms(ours_in),
        ms(ref_in),
        ref_in.as_secs_f64() / ours_in.as_secs_f64()
    );
    println!(
        "  out of place: ours {:8.3} ms   rustfft {:8.3} ms   ratio {:.2}",
        ms(ours_out),
        ms(ref_out),
        ref_out.as_secs_f64() / ours_out.as_secs_f64()
    );
    println!("  max |ours - rustfft| / max |X| = {err:.1e}");
    if err > 1e-5 {
        eprintln!("cufft_bench: results differ");
        std::process::exit(1);
    }
}
