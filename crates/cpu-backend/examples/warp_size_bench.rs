//! What 64-lane warps cost on the CPU device: the same warp-shuffle sum (a `shfl.bfly`
//! butterfly over the warp's lanes, one atomic add per warp) as a 32-lane and as a 64-lane
//! module, runs interleaved, medians and their ratio printed with the load average.
//!
//! `cargo run --release -p cpu-backend --example warp_size_bench [-- REPS [WIDTHS]]`;
//! WIDTHS is `32,64` (default) or one of them (`32` also runs on builds that predate
//! `.warp_size`, for before/after comparisons).

use backend_api::{LaunchConfig, LoadOptions};
use std::time::Instant;

const BODY: &str = r#"
.visible .entry reduce(.param .u64 in, .param .u64 out, .param .u32 n)
{
  .reg .b32 %r<12>;
  .reg .b64 %rd<6>;
  .reg .f32 %f<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  mov.f32 %f1, 0f00000000;
  setp.ge.u32 %p1, %r5, %r1;
  @%p1 bra LOADED;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  ld.global.f32 %f1, [%rd4];
LOADED:
  shr.u32 %r6, WARP_SZ, 1;
  sub.u32 %r9, WARP_SZ, 1;
LOOP:
  shfl.sync.bfly.b32 %f2, %f1, %r6, %r9, -1;
  add.f32 %f1, %f1, %f2;
  shr.u32 %r6, %r6, 1;
  setp.ne.u32 %p2, %r6, 0;
  @%p2 bra LOOP;
  mov.u32 %r7, %laneid;
  setp.ne.u32 %p3, %r7, 0;
  @%p3 bra DONE;
  atom.global.add.f32 %f3, [%rd2], %f1;
DONE:
  ret;
}
"#;

fn median(mut v: Vec<f64>) -> f64 {
    v.sort_by(|a, b| a.total_cmp(b));
    v[v.len() / 2]
}

fn main() {
    let reps: usize = std::env::args().nth(1).and_then(|a| a.parse().ok()).unwrap_or(7);
    let widths: Vec<u32> = std::env::args().nth(2).unwrap_or_else(|| "32,64".into()).split(',').filter_map(|w| w.parse().ok()).collect();
    let d = cpu_backend::devices().remove(0);
    let n: u32 = 1 << 20;
    let block = 256u32;
    let input = d.alloc(n as usize * 4).unwrap();
    let ones = vec![1.0f32; n as usize];
    unsafe { d.copy_to_device(input, ones.as_ptr() as *const u8, n as usize * 4).unwrap() };
    let out = d.alloc(4).unwrap();
    let modules: Vec<_> = widths
        .iter()
        .map(|&w| {
            let directive = if w == 64 { ".warp_size 64\n" } else { "" };
            // The warp size written out (not `WARP_SZ`), so that builds from before the
            // directive run the same 32-lane PTX.
            let body = BODY.replace("WARP_SZ", &w.to_string());
            let ptx = format!(".version 8.0\n.target sm_80\n.address_size 64\n{directive}{body}");
            (w, d.load_ptx(&ptx, &LoadOptions::default()).unwrap())
        })
        .collect();
    let mut params = input.to_le_bytes().to_vec();
    params.extend_from_slice(&out.to_le_bytes());
    params.extend_from_slice(&n.to_le_bytes());
    let cfg = LaunchConfig { grid: [n / block, 1, 1], block: [block, 1, 1], dynamic_shared_bytes: 0 };
    let mut times = vec![Vec::new(); modules.len()];
    for _ in 0..reps {
        for (k, (w, m)) in modules.iter().enumerate() {
            d.memset(out, 0, 4, 1).unwrap();
            let t = Instant::now();
            m.launch("reduce", &cfg, &params).unwrap();
            times[k].push(t.elapsed().as_secs_f64() * 1e3);
            let mut sum = 0f32;
            unsafe { d.copy_from_device(&mut sum as *mut f32 as *mut u8, out, 4).unwrap() };
            assert_eq!(sum, n as f32, "warp {w}: wrong sum");
        }
    }
    let load = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    println!(
        "warp-shuffle sum of 2^20 floats, {reps} reps interleaved, medians; load average {}",
        load.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
    );
    let medians: Vec<f64> = times.into_iter().map(median).collect();
    for ((w, _), t) in modules.iter().zip(&medians) {
        println!("{w}-lane module: {t:.2} ms");
    }
    if medians.len() == 2 {
        println!("ratio {}-lane / {}-lane time: {:.2}", modules[0].0, modules[1].0, medians[0] / medians[1]);
    }
}
