//! Spin-waits (`lower/spin_wait.rs`): threads that loop on a volatile load until another
//! thread, later in their block or in a later block, stores a flag. Each thread waits for
//! the next thread of the grid, so the last one starts a chain back to thread 0. A spin
//! gives up after a bound and reports it, so the test fails instead of hanging. And a warp
//! whose lanes loop on volatile loads a different number of times before a ballot still
//! meets whole there. A grid of spin-waiting blocks too large to run side by side runs in
//! order instead of failing for want of fiber stacks.

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::{download, upload};

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
// out[g] = 1 once flags[g + 1] was seen set (the last thread: at once), then flags[g] = 1;
// out[g] = 2 when the wait gave up.
.visible .entry chain(.param .u64 flags, .param .u64 out, .param .u32 n)
{
  .reg .pred %p<4>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<10>;
  ld.param.u64 %rd1, [flags];
  ld.param.u64 %rd2, [out];
  ld.param.u32 %r1, [n];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.u32 %r5, %r3, %r4, %r2;
  mov.u32 %r10, 1;
  add.u32 %r6, %r5, 1;
  setp.ge.u32 %p1, %r6, %r1;
  @%p1 bra set;
  mul.wide.u32 %rd3, %r6, 4;
  add.u64 %rd4, %rd1, %rd3;
  mov.u32 %r7, 0;
wait:
  ld.volatile.global.u32 %r8, [%rd4];
  setp.ne.u32 %p2, %r8, 0;
  @%p2 bra set;
  add.u32 %r7, %r7, 1;
  setp.lt.u32 %p3, %r7, 50000000;
  @%p3 bra wait;
  mov.u32 %r10, 2;
set:
  mul.wide.u32 %rd5, %r5, 4;
  add.u64 %rd6, %rd2, %rd5;
  st.global.u32 [%rd6], %r10;
  add.u64 %rd7, %rd1, %rd5;
  mov.u32 %r9, 1;
  st.volatile.global.u32 [%rd7], %r9;
  ret;
}

// Each thread but a block's first waits for the previous thread's flag, then sets its own.
.visible .entry block_chain(.param .u64 flags)
{
  .reg .pred %p<3>;
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [flags];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd2, %r4, 4;
  add.u64 %rd3, %rd1, %rd2;
  setp.eq.u32 %p1, %r1, 0;
  @%p1 bra set;
wait:
  ld.volatile.global.u32 %r5, [%rd3+-4];
  setp.eq.u32 %p2, %r5, 0;
  @%p2 bra wait;
set:
  mov.u32 %r6, 1;
  st.volatile.global.u32 [%rd3], %r6;
  ret;
}

// out[t] = the ballot of all lanes, after lane t read in[0] (volatile) t times.
.visible .entry ballot_after_loops(.param .u64 in, .param .u64 out)
{
  .reg .pred %p<3>;
  .reg .b32 %r<10>;
  .reg .b64 %rd<6>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  and.b32 %r2, %r1, 31;
  mov.u32 %r3, 0;
  mov.u32 %r4, 0;
  setp.eq.u32 %p1, %r2, 0;
  @%p1 bra meet;
spin:
  ld.volatile.global.u32 %r5, [%rd1];
  add.u32 %r4, %r4, %r5;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, %r2;
  @%p2 bra spin;
meet:
  vote.sync.ballot.b32 %r6, 1, -1;
  mul.wide.u32 %rd3, %r1, 4;
  add.u64 %rd4, %rd2, %rd3;
  st.global.u32 [%rd4], %r6;
  ret;
}
"#;

#[test]
fn threads_waiting_for_later_threads_and_blocks_get_their_flags() {
    let d = cpu_backend::devices().remove(0);
    let d: &dyn Device = d.as_ref();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    for (blocks, threads) in [(1u32, 64u32), (6, 128), (24, 64)] {
        let n = blocks * threads;
        let (flags, out) = (upload(d, &vec![0u32; n as usize]), upload(d, &vec![0u32; n as usize]));
        let cfg = LaunchConfig { grid: [blocks, 1, 1], block: [threads, 1, 1], dynamic_shared_bytes: 0 };
        let mut params = flags.to_le_bytes().to_vec();
        params.extend_from_slice(&out.to_le_bytes());
        params.extend_from_slice(&n.to_le_bytes());
        m.launch("chain", &cfg, &params).unwrap();
        assert_eq!(download::<u32>(d, out, n as usize), vec![1u32; n as usize], "{blocks} blocks of {threads}");
    }
}

#[test]
fn lanes_that_loop_on_volatile_loads_still_meet_whole_at_a_ballot() {
    let d = cpu_backend::devices().remove(0);
    let d: &dyn Device = d.as_ref();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let (input, out) = (upload(d, &[1u32]), upload(d, &[0u32; 128]));
    let mut params = input.to_le_bytes().to_vec();
    params.extend_from_slice(&out.to_le_bytes());
    let cfg = LaunchConfig { grid: [2, 1, 1], block: [128, 1, 1], dynamic_shared_bytes: 0 };
    m.launch("ballot_after_loops", &cfg, &params).unwrap();
    assert_eq!(download::<u32>(d, out, 128), vec![u32::MAX; 128]);
}

#[test]
fn a_spin_waiting_grid_too_large_to_run_side_by_side_runs_in_order() {
    let d = cpu_backend::devices().remove(0);
    let d: &dyn Device = d.as_ref();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    // More threads than run side by side (their fiber stacks, all at once, would exhaust
    // the process's 65530 memory maps: 256 blocks of 1024 threads did).
    let (blocks, threads) = (40u32, 1024u32);
    let n = (blocks * threads) as usize;
    let flags = upload(d, &vec![0u32; n]);
    let cfg = LaunchConfig { grid: [blocks, 1, 1], block: [threads, 1, 1], dynamic_shared_bytes: 0 };
    m.launch("block_chain", &cfg, &flags.to_le_bytes()).unwrap();
    assert_eq!(download::<u32>(d, flags, n), vec![1u32; n]);
}
