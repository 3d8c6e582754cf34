//! Launch overhead on the CPU device through the driver (no C ABI in between):
//! - latency: an empty kernel's launch followed by `cuStreamSynchronize`, median in us;
//! - throughput: empty-kernel launches queued back to back on one stream, per second;
//! - a blocking 4-byte `cuMemcpyDtoH` on an idle stream, median in us.
//!
//! `launch_bench [ITERATIONS]`

use std::ffi::c_void;
use std::time::{Duration, Instant};

use cuda_driver::{CtxHandle, StreamHandle};

const PTX: &str = ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry empty(.param .u64 p)\n{\n ret;\n}\n\0";

fn median(mut v: Vec<Duration>) -> Duration {
    v.sort();
    v[v.len() / 2]
}

fn main() {
    let iterations: usize = std::env::args().nth(1).and_then(|s| s.parse().ok()).unwrap_or(20_000);
    let d = cuda_driver::init(0).expect("cuInit");
    let ctx = d.primary_ctx_retain(0).expect("retain");
    d.ctx_set_current(ctx).unwrap();
    // SAFETY: NUL-terminated PTX.
    let (m, _) = unsafe { d.module_load_data(PTX.as_ptr().cast(), &Default::default()) };
    let f = d.module_get_function(m.expect("load"), "empty").unwrap();
    let buf = d.mem_alloc(8).unwrap();
    let mut arg = buf;
    let mut args = [(&mut arg as *mut u64).cast::<c_void>()];
    let launch = |s: StreamHandle, args: &mut [*mut c_void; 1]| {
        // SAFETY: one u64 parameter.
        unsafe { d.launch_kernel(f.as_raw(), [1, 1, 1], [32, 1, 1], 0, s, args.as_mut_ptr(), std::ptr::null_mut()).unwrap() }
    };
    let stream = d.stream_create(0).unwrap();
    for (name, s) in [("legacy default stream", StreamHandle::NULL), ("created stream", stream)] {
        for _ in 0..1000 {
            launch(s, &mut args);
            d.stream_synchronize(s).unwrap();
        }
        let lat: Vec<Duration> = (0..iterations)
            .map(|_| {
                let t = Instant::now();
                launch(s, &mut args);
                d.stream_synchronize(s).unwrap();
                t.elapsed()
            })
            .collect();
        let t = Instant::now();
        for _ in 0..iterations {
            launch(s, &mut args);
        }
        let queued = t.elapsed();
        d.stream_synchronize(s).unwrap();
        let total = t.elapsed();
        println!(
            "{name}: launch+sync median {:.2} us; {iterations} async launches: {:.0} launches/s to queue, {:.0} launches/s to complete",
            median(lat).as_secs_f64() * 1e6,
            iterations as f64 / queued.as_secs_f64(),
            iterations as f64 / total.as_secs_f64()
        );
    }
    let mut host = 0u32;
    let copy: Vec<Duration> = (0..iterations)
        .map(|_| {
            let t = Instant::now();
            // SAFETY: 4 writable bytes.
            unsafe { d.memcpy_dtoh((&mut host as *mut u32).cast(), buf, 4).unwrap() };
            t.elapsed()
        })
        .collect();
    println!("blocking 4-byte cuMemcpyDtoH on an idle stream: median {:.2} us", median(copy).as_secs_f64() * 1e6);
    d.ctx_synchronize(CtxHandle::NULL).unwrap();
}
