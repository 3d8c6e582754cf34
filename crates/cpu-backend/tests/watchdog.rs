//! `CUDA_CPU_WATCHDOG=S` reports a launch still running after S seconds, and stays quiet
//! about launches that end sooner.

use backend_api::{LaunchConfig, LoadOptions};

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
// out[0] = n steps of a linear congruential generator from 1.
.visible .entry lcg(.param .u64 out, .param .u64 n)
{
  .reg .pred %p<2>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [n];
  mov.u64 %rd3, 1;
  mov.u64 %rd4, 0;
  setp.eq.u64 %p1, %rd2, 0;
  @%p1 bra done;
step:
  mad.lo.u64 %rd3, %rd3, 6364136223846793005, 1442695040888963407;
  add.u64 %rd4, %rd4, 1;
  setp.lt.u64 %p1, %rd4, %rd2;
  @%p1 bra step;
done:
  st.global.u64 [%rd1], %rd3;
  ret;
}
"#;

fn lcg(n: u64) -> u64 {
    (0..n).fold(1u64, |x, _| x.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407))
}

#[test]
fn a_long_launch_is_reported_and_a_short_one_is_not() {
    // The only test of this binary: the variable is read once, at the first launch.
    std::env::set_var("CUDA_CPU_WATCHDOG", "0.05");
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let out = d.alloc(8).unwrap();
    let one = LaunchConfig { grid: [1, 1, 1], block: [1, 1, 1], dynamic_shared_bytes: 0 };
    let run = |n: u64| {
        let mut params = out.to_le_bytes().to_vec();
        params.extend_from_slice(&n.to_le_bytes());
        let started = std::time::Instant::now();
        m.launch("lcg", &one, &params).unwrap();
        let mut v = 0u64;
        unsafe { d.copy_from_device(&mut v as *mut u64 as *mut u8, out, 8).unwrap() };
        assert_eq!(v, lcg(n));
        started.elapsed()
    };
    run(10);
    assert_eq!(cpu_backend::watchdog::reports(), 0);
    // Long enough to outlast the first report by a margin on any machine.
    let mut n = 50_000_000u64;
    while run(n) < std::time::Duration::from_millis(400) {
        n *= 2;
    }
    assert!(cpu_backend::watchdog::reports() >= 1);
}
