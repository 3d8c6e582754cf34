//! `cp.async` (PTX ISA 9.7.9.25) and `mbarrier` (PTX ISA 9.7.13.15) on the CPU device:
//! copies with zero fill, a producer/consumer pipeline over two mbarriers across several
//! phases, the pending counts of phase-state tokens, and clear errors for the forms that
//! are not supported. Expected values are computed here from the PTX definitions.

use backend_api::{Device, LaunchConfig, LoadError, LoadOptions};
use std::sync::Arc;

fn device() -> Arc<dyn Device> {
    cpu_backend::devices().remove(0)
}

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";
/// `try_wait` and arrivals with a count that may complete a phase need sm_90.
const HEADER_SM90: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

/// Runs entry `k` of `header` + `body` on `grid` x `block` threads with parameters (`input`, `out`):
/// `input` is `bytes_in` bytes where byte `i` is `pattern(i)`; `out` is `words` u32s set to
/// `0xffffffff`. Returns `out`.
fn run(header: &str, body: &str, grid: u32, block: u32, bytes_in: usize, words: usize) -> Vec<u32> {
    let d = device();
    let m = d.load_ptx(&format!("{header}{body}"), &LoadOptions::default()).unwrap();
    let input = d.alloc(bytes_in.max(1)).unwrap();
    let bytes: Vec<u8> = (0..bytes_in).map(pattern).collect();
    unsafe { d.copy_to_device(input, bytes.as_ptr(), bytes_in).unwrap() };
    let out = d.alloc(words * 4).unwrap();
    d.memset(out, 0xffff_ffff, 4, words).unwrap();
    let mut params = input.to_le_bytes().to_vec();
    params.extend_from_slice(&out.to_le_bytes());
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], ..Default::default() };
    m.launch("k", &cfg, &params).unwrap();
    let mut v = vec![0u32; words];
    unsafe { d.copy_from_device(v.as_mut_ptr() as *mut u8, out, words * 4).unwrap() };
    d.free(out).unwrap();
    d.free(input).unwrap();
    v
}

/// Nonzero input bytes, different at every offset of a 16-byte chunk.
fn pattern(i: usize) -> u8 {
    (i % 251) as u8 + 1
}

fn words_of(bytes: &[u8]) -> Vec<u32> {
    bytes.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
}

/// Thread `t` of 17 copies 16 bytes of chunk `t` with src-size `t` (a register): the first
/// `t` bytes come from global memory, the other `16 - t` are zeros. After
/// `commit_group`/`wait_group 0` and a barrier, thread `t` writes chunk `(t + 1) % 17` out,
/// so each chunk is read by a thread that did not copy it.
const ZERO_FILL: &str = r#"
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .shared .align 16 .b8 s[272];
  .reg .b32 %r<12>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  shl.b32 %r2, %r1, 4;
  mov.u32 %r3, s;
  add.u32 %r4, %r3, %r2;
  cvt.u64.u32 %rd3, %r2;
  add.s64 %rd4, %rd1, %rd3;
  cp.async.ca.shared.global [%r4], [%rd4], 16, %r1;
  cp.async.commit_group;
  cp.async.wait_group 0;
  bar.sync 0;
  add.u32 %r5, %r1, 1;
  rem.u32 %r5, %r5, 17;
  shl.b32 %r6, %r5, 4;
  add.u32 %r7, %r3, %r6;
  ld.shared.v4.u32 {%r8, %r9, %r10, %r11}, [%r7];
  cvt.u64.u32 %rd5, %r6;
  add.s64 %rd6, %rd2, %rd5;
  st.global.v4.u32 [%rd6], {%r8, %r9, %r10, %r11};
  ret;
}
"#;

#[test]
fn cp_async_zero_fills_past_src_size() {
    let got = run(HEADER, ZERO_FILL, 2, 17, 272, 68);
    let mut want = vec![0u8; 272];
    for t in 0..17 {
        for j in 0..t {
            want[16 * t + j] = pattern(16 * t + j);
        }
    }
    assert_eq!(got, words_of(&want));
}

/// One thread, the other forms: a 4-byte copy, 8 bytes with src-size 3, `ignore-src`
/// true (all zeros) and false (a full copy, `.cg`), a cache policy with and without a
/// src-size, and `wait_all`. Shared memory starts as `0xdeadbeef` words, and bytes 4..8
/// are never copied to.
const FORMS: &str = r#"
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .shared .align 16 .b32 s[20];
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [in];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, s;
  mov.u32 %r2, 0;
FILL:
  shl.b32 %r3, %r2, 2;
  add.u32 %r4, %r1, %r3;
  st.shared.u32 [%r4], -559038737;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 20;
  @%p1 bra FILL;
  createpolicy.fractional.L2::evict_last.b64 %rd3, 1.0;
  setp.eq.u32 %p1, %r2, 20;
  setp.ne.u32 %p2, %r2, 20;
  cp.async.ca.shared.global [s], [%rd1], 4;
  cp.async.ca.shared.global [s+8], [%rd1+8], 8, 3;
  cp.async.ca.shared::cta.global [s+16], [%rd1+16], 16, %p1;
  cp.async.cg.shared.global [s+32], [%rd1+32], 16, %p2;
  cp.async.cg.shared.global.L2::cache_hint [s+48], [%rd1+48], 16, %rd3;
  cp.async.ca.shared.global.L2::cache_hint [s+64], [%rd1+64], 16, 5, %rd3;
  cp.async.wait_all;
  mov.u32 %r2, 0;
OUT:
  shl.b32 %r3, %r2, 2;
  add.u32 %r4, %r1, %r3;
  ld.shared.u32 %r5, [%r4];
  cvt.u64.u32 %rd4, %r3;
  add.s64 %rd5, %rd2, %rd4;
  st.global.u32 [%rd5], %r5;
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, 20;
  @%p1 bra OUT;
  ret;
}
"#;

#[test]
fn cp_async_forms() {
    let got = run(HEADER, FORMS, 1, 1, 80, 20);
    let mut want: Vec<u8> = 0xdeadbeefu32.to_le_bytes().repeat(20);
    let copy = |want: &mut Vec<u8>, at: usize, n: usize, cp: usize| {
        for j in 0..cp {
            want[at + j] = if j < n { pattern(at + j) } else { 0 };
        }
    };
    copy(&mut want, 0, 4, 4);
    copy(&mut want, 8, 3, 8);
    copy(&mut want, 16, 0, 16);
    copy(&mut want, 32, 16, 16);
    copy(&mut want, 48, 16, 16);
    copy(&mut want, 64, 5, 16);
    assert_eq!(got, words_of(&want));
}

const ROUNDS: u32 = 6;

/// A pipeline over two mbarriers in each of several blocks: thread 32 produces `ROUNDS`
/// rounds into `buf` (`buf[i] = 100 * r + i + ctaid`); `full` (expected count 2) completes
/// when it arrives with count 2, and the 32 consumers (warp 0) wait for it by parity with
/// `try_wait.parity`, add their element, arrive on `empty` (expected count 32) and wait
/// for that phase through their state token; the producer waits for `empty` of the
/// previous round with `test_wait.parity`. The rest of the block exits at once. Then
/// consumers write their sums.
const PIPELINE: &str = r#"
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .shared .align 8 .b64 full;
  .shared .align 8 .b64 empty;
  .shared .align 4 .b32 buf[32];
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  .reg .pred %p<6>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra INITED;
  mbarrier.init.shared.b64 [full], 2;
  mbarrier.init.shared::cta.b64 [empty], 32;
INITED:
  bar.sync 0;
  setp.lt.u32 %p1, %r1, 32;
  @%p1 bra CONSUMER;
  setp.ne.u32 %p1, %r1, 32;
  @%p1 bra DONE;
  mov.u32 %r3, 0;
PRODUCE:
  setp.eq.u32 %p2, %r3, 0;
  @%p2 bra FILL;
  sub.u32 %r4, %r3, 1;
  and.b32 %r4, %r4, 1;
WAIT_EMPTY:
  mbarrier.test_wait.parity.shared.b64 %p3, [empty], %r4;
  @!%p3 bra WAIT_EMPTY;
FILL:
  mov.u32 %r5, 0;
FILL_LOOP:
  mul.lo.u32 %r6, %r3, 100;
  add.u32 %r6, %r6, %r5;
  add.u32 %r6, %r6, %r2;
  shl.b32 %r7, %r5, 2;
  mov.u32 %r8, buf;
  add.u32 %r8, %r8, %r7;
  st.shared.u32 [%r8], %r6;
  add.u32 %r5, %r5, 1;
  setp.lt.u32 %p2, %r5, 32;
  @%p2 bra FILL_LOOP;
  mbarrier.arrive.shared.b64 %rd2, [full], 2;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, ROUNDS;
  @%p2 bra PRODUCE;
  bra DONE;
CONSUMER:
  mov.u32 %r3, 0;
  mov.u32 %r10, 0;
CONSUME:
  and.b32 %r4, %r3, 1;
WAIT_FULL:
  mbarrier.try_wait.parity.shared.b64 %p3, [full], %r4;
  @!%p3 bra WAIT_FULL;
  shl.b32 %r7, %r1, 2;
  mov.u32 %r8, buf;
  add.u32 %r8, %r8, %r7;
  ld.shared.u32 %r6, [%r8];
  add.u32 %r10, %r10, %r6;
  mbarrier.arrive.shared.b64 %rd3, [empty];
WAIT_MINE:
  mbarrier.try_wait.shared.b64 %p4, [empty], %rd3;
  @!%p4 bra WAIT_MINE;
  add.u32 %r3, %r3, 1;
  setp.lt.u32 %p2, %r3, ROUNDS;
  @%p2 bra CONSUME;
  mad.lo.u32 %r11, %r2, 32, %r1;
  mul.wide.u32 %rd4, %r11, 4;
  add.s64 %rd5, %rd1, %rd4;
  st.global.u32 [%rd5], %r10;
DONE:
  ret;
}
"#;

#[test]
fn mbarrier_producer_consumer_over_phases() {
    let body = PIPELINE.replace("ROUNDS", &ROUNDS.to_string());
    let grid = 3;
    let got = run(HEADER_SM90, &body, grid, 64, 0, 32 * grid as usize);
    let want: Vec<u32> = (0..grid).flat_map(|b| (0..32).map(move |i| (0..ROUNDS).map(|r| 100 * r + i + b).sum())).collect();
    assert_eq!(got, want);
}

/// One thread walks an mbarrier through phases and writes what it observes:
/// pending counts of `noComplete` arrivals (the count *before* each arrival), the effect of
/// `arrive_drop` on later phases, parity and state waits, `inval` and re-`init`.
const PENDING: &str = r#"
.visible .entry k(.param .u64 in, .param .u64 out)
{
  .shared .align 8 .b64 bar;
  .reg .b32 %r<20>;
  .reg .b64 %rd<12>;
  .reg .pred %p<12>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r9, bar;
  mbarrier.init.shared.b64 [bar], 5;
  mbarrier.arrive.noComplete.shared.b64 %rd2, [bar], 1;
  mbarrier.pending_count.b64 %r1, %rd2;
  mbarrier.arrive.noComplete.shared.b64 %rd3, [%r9], 2;
  mbarrier.pending_count.b64 %r2, %rd3;
  mbarrier.arrive_drop.noComplete.shared.b64 %rd4, [bar], 1;
  mbarrier.pending_count.b64 %r3, %rd4;
  mbarrier.test_wait.shared.b64 %p1, [bar], %rd4;
  mbarrier.arrive.shared.b64 %rd5, [bar];
  mbarrier.test_wait.shared.b64 %p2, [bar], %rd4;
  mbarrier.test_wait.parity.shared.b64 %p3, [bar], 0;
  mbarrier.test_wait.parity.shared.b64 %p4, [bar], 1;
  mbarrier.arrive.noComplete.shared.b64 %rd6, [bar], 1;
  mbarrier.pending_count.b64 %r4, %rd6;
  mbarrier.try_wait.shared.b64 %p5, [bar], %rd6;
  mbarrier.arrive.shared.b64 %rd7, [bar], 3;
  mbarrier.try_wait.shared.b64 %p6, [bar], %rd6;
  mbarrier.try_wait.parity.shared.b64 %p7, [bar], 1;
  mbarrier.arrive_drop.noComplete.shared.b64 %rd8, [bar], 1;
  mbarrier.pending_count.b64 %r5, %rd8;
  mbarrier.arrive.noComplete.shared.b64 %rd9, [bar], 1;
  mbarrier.pending_count.b64 %r6, %rd9;
  mbarrier.inval.shared.b64 [bar];
  mbarrier.init.shared.b64 [bar], 2;
  mbarrier.arrive.noComplete.shared.b64 %rd10, [bar], 1;
  mbarrier.pending_count.b64 %r7, %rd10;
  selp.u32 %r10, 1, 0, %p1;
  selp.u32 %r11, 1, 0, %p2;
  selp.u32 %r12, 1, 0, %p3;
  selp.u32 %r13, 1, 0, %p4;
  selp.u32 %r14, 1, 0, %p5;
  selp.u32 %r15, 1, 0, %p6;
  selp.u32 %r16, 1, 0, %p7;
  st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
  st.global.v4.u32 [%rd1+16], {%r5, %r6, %r7, %r10};
  st.global.v4.u32 [%rd1+32], {%r11, %r12, %r13, %r14};
  st.global.v2.u32 [%rd1+48], {%r15, %r16};
  ret;
}
"#;

#[test]
fn mbarrier_pending_counts_and_phases() {
    let got = run(HEADER_SM90, PENDING, 1, 1, 0, 14);
    // Phase 0 expects 5: arrivals of 1 (5 pending before it), 2 (4 before), a drop of 1
    // (2 before; later phases expect 4), then 1 more completes phase 0. Phase 1 expects 4:
    // an arrival of 1 (4 before), then 3 complete it. Phase 2: a drop of 1 (4 before; later
    // phases expect 3), an arrival of 1 (3 before). Re-initialized with 2: 2 before.
    let pending = [5, 4, 2, 4, 4, 3, 2];
    // Waits: phase 0 not complete (state), complete (state), parity 0 complete, parity 1
    // not, phase 1 not complete, complete, parity 1 complete.
    let waits = [0, 1, 1, 0, 0, 1, 1];
    assert_eq!(got, pending.iter().chain(waits.iter()).copied().collect::<Vec<u32>>());
}

fn compile_error(body: &str) -> String {
    match device().load_ptx(&format!("{HEADER}{body}"), &LoadOptions::default()) {
        Err(LoadError::InvalidPtx { log }) => log,
        Err(e) => panic!("unexpected error {e}"),
        Ok(_) => panic!("compiled"),
    }
}

/// Forms that are not supported fail to compile with a message naming the instruction
/// and its line.
#[test]
fn unsupported_forms_are_clear_errors() {
    let cases = [
        ("mbarrier.arrive.expect_tx.shared.b64 %rd1, [bar], 16;", "transaction counts"),
        ("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [bar], [%rd1], 16, [bar];", "bulk"),
        ("cp.async.cg.shared.global [bar], [%rd1], 8;", ".cg copies 16 bytes only"),
        ("cp.async.ca.shared.global [bar], [%rd1], 12;", "cp-size must be"),
    ];
    for (instr, why) in cases {
        let body =
            format!(".visible .entry k()\n{{\n  .shared .align 16 .b64 bar[2];\n  .reg .b64 %rd<2>;\n  mov.u64 %rd1, 0;\n  {instr}\n  ret;\n}}\n");
        let log = compile_error(&body);
        assert!(log.contains(why) && log.contains("9:"), "{instr}: {log}");
    }
}

/// Launches `kernel` of nvcc's `data/async_pipeline.ptx` (from `async_pipeline.cu`) with
/// parameters (`input`, `out`, `n`); returns `out`.
fn run_nvcc(kernel: &str, grid: u32, block: u32, input: &[u32], words: usize, n: i32) -> Vec<u32> {
    let d = device();
    let m = d.load_ptx(include_str!("data/async_pipeline.ptx"), &LoadOptions::default()).unwrap();
    let inp = d.alloc(input.len() * 4).unwrap();
    unsafe { d.copy_to_device(inp, input.as_ptr() as *const u8, input.len() * 4).unwrap() };
    let out = d.alloc(words * 4).unwrap();
    let mut params = inp.to_le_bytes().to_vec();
    params.extend_from_slice(&out.to_le_bytes());
    params.extend_from_slice(&n.to_le_bytes());
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], ..Default::default() };
    m.launch(kernel, &cfg, &params).unwrap();
    let mut v = vec![0u32; words];
    unsafe { d.copy_from_device(v.as_mut_ptr() as *mut u8, out, words * 4).unwrap() };
    d.free(out).unwrap();
    d.free(inp).unwrap();
    v
}

/// `__pipeline_memcpy_async` + `__pipeline_commit` + `__pipeline_wait_prior(0)`:
/// `out[i] = 2 * in[block base + (t + 1) % 256]`.
#[test]
fn nvcc_pipeline_memcpy_async() {
    let input: Vec<f32> = (0..768).map(|i| i as f32 * 0.25 - 7.0).collect();
    let bits: Vec<u32> = input.iter().map(|f| f.to_bits()).collect();
    let got = run_nvcc("pipeline_scale", 3, 256, &bits, 768, 768);
    let want: Vec<u32> = (0..768).map(|i| (2.0 * input[i / 256 * 256 + (i % 256 + 1) % 256]).to_bits()).collect();
    assert_eq!(got, want);
}

/// `cuda::barrier` with `cuda::memcpy_async` over several phases (`cp.async` +
/// `cp.async.mbarrier.arrive` + `mbarrier.arrive`/`test_wait` with nvcc's back-off loop):
/// thread `t` sums `in[r * 128 + (t + r) % 128]` over the rounds.
#[test]
fn nvcc_cuda_barrier_memcpy_async() {
    let rounds = 5usize;
    let input: Vec<u32> = (0..rounds as u32 * 128).map(|i| i * 7 + 3).collect();
    let got = run_nvcc("barrier_rounds", 2, 128, &input, 256, rounds as i32);
    let want: Vec<u32> = (0..256).map(|i| (0..rounds).map(|r| input[r * 128 + (i % 128 + r) % 128]).sum()).collect();
    assert_eq!(got, want);
}
