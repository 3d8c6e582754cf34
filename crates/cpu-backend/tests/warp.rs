//! Warp collectives on the CPU device, checked against a Rust model of PTX semantics
//! (PTX ISA 9.7.8.6 shfl, 9.7.13.x vote/redux/match/activemask).

use backend_api::{LaunchConfig, LoadOptions};

const KERNEL: &str = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<20>;
  .reg .b64 %rd<4>;
  .reg .pred %p<4>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mad.lo.s32 %r2, %r1, 3, 1;
  shfl.sync.down.b32 %r3|%p1, %r2, 1, 31, -1;
  shfl.sync.bfly.b32 %r4, %r2, 16, 31, -1;
  shfl.sync.idx.b32 %r5, %r2, 5, 31, -1;
  shfl.sync.up.b32 %r6, %r2, 2, 0, -1;
  and.b32 %r7, %r2, 1;
  setp.ne.u32 %p2, %r7, 0;
  vote.sync.ballot.b32 %r8, %p2, -1;
  redux.sync.add.u32 %r9, %r2, -1;
  and.b32 %r10, %r1, 3;
  match.any.sync.b32 %r11, %r10, -1;
  selp.u32 %r12, 1, 0, %p1;
  mul.wide.u32 %rd2, %r1, 32;
  add.s64 %rd3, %rd1, %rd2;
  st.global.v4.u32 [%rd3], {%r3, %r4, %r5, %r6};
  st.global.v4.u32 [%rd3+16], {%r8, %r9, %r11, %r12};
  setp.lt.u32 %p3, %r1, 40;
  @%p3 bra DONE;
  activemask.b32 %r13;
  st.global.u32 [%rd3+28], %r13;
DONE:
  ret;
}
"#;

#[test]
fn shfl_vote_redux_match_activemask() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(KERNEL, &LoadOptions::default()).unwrap();
    let n = 64usize;
    let out = d.alloc(n * 32).unwrap();
    let cfg = LaunchConfig { grid: [2, 1, 1], block: [n as u32, 1, 1], dynamic_shared_bytes: 0 };
    m.launch("k", &cfg, &out.to_le_bytes()).unwrap();
    let mut got = vec![0u32; n * 8];
    unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, n * 32).unwrap() };
    let v = |t: usize| (t * 3 + 1) as u32;
    for t in 0..n {
        let (warp, lane) = (t / 32 * 32, t % 32);
        let row = &got[t * 8..t * 8 + 8];
        let down_ok = lane + 1 <= 31;
        let want_down = if down_ok { v(warp + lane + 1) } else { v(t) };
        let want_up = if lane >= 2 { v(t - 2) } else { v(t) };
        let ballot = (0..32).filter(|l| v(warp + l) & 1 == 1).fold(0u32, |acc, l| acc | 1 << l);
        let sum: u32 = (0..32).map(|l| v(warp + l)).sum();
        let matched = (0..32).filter(|l| l % 4 == lane % 4).fold(0u32, |acc, l| acc | 1 << l);
        // Threads 40.. take the activemask path: lanes 8..31 of warp 1 are active there.
        let last = if t >= 40 { 0xffff_ff00 } else { down_ok as u32 };
        let want = [want_down, v(warp + (lane ^ 16)), v(warp + 5), want_up, ballot, sum, matched, last];
        assert_eq!(row, &want, "thread {t}");
    }
}
