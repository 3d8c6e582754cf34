//! SGEMM and DGEMM through our libcublas on the CPU device against OpenBLAS called
//! directly, side by side in one run (issue 17's target: ratio >= 0.9).
//!
//! Run with `scripts/bench-blas.sh` (it puts target/release first on LD_LIBRARY_PATH,
//! so `libcuda.so.1` and `libcublas.so` are ours). Each size alternates the two sides,
//! `reps` times, and reports medians; `ratio` is direct time / our time.

use std::ffi::{c_int, c_void};
use std::time::Instant;

use cpu_blas::openblas;

type CuInit = unsafe extern "C" fn(u32) -> c_int;
type CuDeviceGet = unsafe extern "C" fn(*mut c_int, c_int) -> c_int;
type CuRetain = unsafe extern "C" fn(*mut *mut c_void, c_int) -> c_int;
type CuSetCurrent = unsafe extern "C" fn(*mut c_void) -> c_int;
type CuMemAlloc = unsafe extern "C" fn(*mut u64, usize) -> c_int;
type CuMemFree = unsafe extern "C" fn(u64) -> c_int;
type CuHtoD = unsafe extern "C" fn(u64, *const c_void, usize) -> c_int;
type CuSync = unsafe extern "C" fn() -> c_int;
type CublasCreate = unsafe extern "C" fn(*mut *mut c_void) -> c_int;
type Gemm =
    unsafe extern "C" fn(*mut c_void, c_int, c_int, c_int, c_int, c_int, *const c_void, u64, c_int, u64, c_int, *const c_void, u64, c_int) -> c_int;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(f64::total_cmp);
    v[v.len() / 2]
}

fn check(what: &str, code: c_int) {
    assert_eq!(code, 0, "{what} failed with {code}");
}

fn main() {
    // SAFETY: the process's driver and library, by the names programs load.
    let (cuda, blas) =
        unsafe { (libloading::Library::new("libcuda.so.1").expect("libcuda.so.1"), libloading::Library::new("libcublas.so").expect("libcublas.so")) };
    // SAFETY: driver API and cuBLAS symbols with their C signatures.
    unsafe {
        let init: libloading::Symbol<CuInit> = cuda.get(b"cuInit\0").unwrap();
        let dev_get: libloading::Symbol<CuDeviceGet> = cuda.get(b"cuDeviceGet\0").unwrap();
        let retain: libloading::Symbol<CuRetain> = cuda.get(b"cuDevicePrimaryCtxRetain\0").unwrap();
        let set_current: libloading::Symbol<CuSetCurrent> = cuda.get(b"cuCtxSetCurrent\0").unwrap();
        let alloc: libloading::Symbol<CuMemAlloc> = cuda.get(b"cuMemAlloc_v2\0").unwrap();
        let free: libloading::Symbol<CuMemFree> = cuda.get(b"cuMemFree_v2\0").unwrap();
        let htod: libloading::Symbol<CuHtoD> = cuda.get(b"cuMemcpyHtoD_v2\0").unwrap();
        let sync: libloading::Symbol<CuSync> = cuda.get(b"cuCtxSynchronize\0").unwrap();
        let create: libloading::Symbol<CublasCreate> = blas.get(b"cublasCreate_v2\0").unwrap();
        let sgemm: libloading::Symbol<Gemm> = blas.get(b"cublasSgemm_v2\0").unwrap();
        let dgemm: libloading::Symbol<Gemm> = blas.get(b"cublasDgemm_v2\0").unwrap();
        check("cuInit", init(0));
        let (mut dev, mut ctx, mut handle) = (0, std::ptr::null_mut(), std::ptr::null_mut());
        check("cuDeviceGet", dev_get(&mut dev, 0));
        check("cuDevicePrimaryCtxRetain", retain(&mut ctx, dev));
        check("cuCtxSetCurrent", set_current(ctx));
        check("cublasCreate", create(&mut handle));
        let ob = openblas().expect("OpenBLAS");
        println!("{:<6} {:>5} {:>12} {:>12} {:>7}", "gemm", "n", "ours ms", "OpenBLAS ms", "ratio");
        for (n, reps) in [(256usize, 21), (1024, 5), (4096, 3)] {
            for double in [false, true] {
                let es = if double { 8 } else { 4 };
                let bytes = n * n * es;
                let host: Vec<u8> = (0..bytes).map(|i| if double { (i % 8 == 6) as u8 * 0x3f } else { (i % 4 == 3) as u8 * 0x3f }).collect();
                let mut d = [0u64; 3];
                for p in &mut d {
                    check("cuMemAlloc", alloc(p, bytes));
                    check("cuMemcpyHtoD", htod(*p, host.as_ptr().cast(), bytes));
                }
                let mut hb: Vec<Vec<u8>> = (0..3).map(|_| host.clone()).collect();
                let (one64, zero64, one32, zero32) = (1f64, 0f64, 1f32, 0f32);
                let (alpha, beta): (*const c_void, *const c_void) = if double {
                    ((&one64 as *const f64).cast(), (&zero64 as *const f64).cast())
                } else {
                    ((&one32 as *const f32).cast(), (&zero32 as *const f32).cast())
                };
                let ni = n as c_int;
                let (mut ours, mut direct) = (Vec::new(), Vec::new());
                for _ in 0..reps {
                    let t = Instant::now();
                    let f = if double { &dgemm } else { &sgemm };
                    check("cublas gemm", f(handle, 0, 0, ni, ni, ni, alpha, d[0], ni, d[1], ni, beta, d[2], ni));
                    check("cuCtxSynchronize", sync());
                    ours.push(t.elapsed().as_secs_f64() * 1e3);
                    let t = Instant::now();
                    let r = &ob.routines[double as usize];
                    let (a, rest) = hb.split_at_mut(1);
                    let (b, c) = rest.split_at_mut(1);
                    (r.gemm)(
                        c"N".as_ptr(),
                        c"N".as_ptr(),
                        &ni,
                        &ni,
                        &ni,
                        alpha,
                        a[0].as_ptr().cast(),
                        &ni,
                        b[0].as_ptr().cast(),
                        &ni,
                        beta,
                        c[0].as_mut_ptr().cast(),
                        &ni,
                    );
                    direct.push(t.elapsed().as_secs_f64() * 1e3);
                }
                let (o, dt) = (median(ours), median(direct));
                println!("{:<6} {:>5} {:>12.3} {:>12.3} {:>7.2}", if double { "dgemm" } else { "sgemm" }, n, o, dt, dt / o);
                for p in d {
                    free(p);
                }
            }
        }
    }
}
