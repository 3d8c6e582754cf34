//! Warp-synchronous code (`lower/warp_sync.rs`): lanes of a warp exchange values through
//! shared memory with no barrier and get the results of lockstep execution.
//! - `warp_scan`: the classic inclusive warp scan over `volatile` shared memory
//!   (Hillis-Steele over 5 levels, each lane adding the value `d` lanes below it, with a
//!   zeroed pad below each warp), as the CUDA SDK's radix sort has it; without lockstep
//!   order a lane reads values that lanes below it already summed.
//! - `column_sums`: after a barrier, the first 17 lanes each store a column sum and lane 0
//!   adds them up with no barrier between (HeCBench's Romberg integration); without
//!   lockstep order lane 0 reads the columns before lanes 1-16 stored their sums.
//! - `leader_sum`: a kernel with no barrier at all whose first 32 threads each store a
//!   converted word to global memory (a thread-strided loop), then `if (tid == 0)` sums
//!   them (HeCBench's ChaCha20: the key converted by the block, used by thread 0); without
//!   lockstep order thread 0 reads the words before lanes 1-31 stored them.

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::{download, upload};

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64

// out[t] = in[0 of t's warp] + ... + in[t], for blocks of whole warps.
.visible .entry warp_scan(.param .u64 out, .param .u64 in)
{
  .shared .align 4 .b8 pad[8192];
  .reg .b32 %r<20>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  mad.lo.u32 %r4, %r2, %r3, %r1;
  mul.wide.u32 %rd3, %r4, 4;
  add.u64 %rd4, %rd2, %rd3;
  ld.global.u32 %r5, [%rd4];
  // idx = 2 * tid - (tid & 31): each warp owns 64 words, the lower 32 are a zero pad.
  and.b32 %r6, %r1, 31;
  shl.b32 %r7, %r1, 1;
  sub.u32 %r8, %r7, %r6;
  shl.b32 %r9, %r8, 2;
  mov.u32 %r10, pad;
  add.u32 %r11, %r10, %r9;
  mov.u32 %r12, 0;
  st.volatile.shared.u32 [%r11], %r12;
  st.volatile.shared.u32 [%r11+128], %r5;
  ld.volatile.shared.u32 %r13, [%r11+124];
  ld.volatile.shared.u32 %r14, [%r11+128];
  add.u32 %r14, %r14, %r13;
  st.volatile.shared.u32 [%r11+128], %r14;
  ld.volatile.shared.u32 %r13, [%r11+120];
  ld.volatile.shared.u32 %r14, [%r11+128];
  add.u32 %r14, %r14, %r13;
  st.volatile.shared.u32 [%r11+128], %r14;
  ld.volatile.shared.u32 %r13, [%r11+112];
  ld.volatile.shared.u32 %r14, [%r11+128];
  add.u32 %r14, %r14, %r13;
  st.volatile.shared.u32 [%r11+128], %r14;
  ld.volatile.shared.u32 %r13, [%r11+96];
  ld.volatile.shared.u32 %r14, [%r11+128];
  add.u32 %r14, %r14, %r13;
  st.volatile.shared.u32 [%r11+128], %r14;
  ld.volatile.shared.u32 %r13, [%r11+64];
  ld.volatile.shared.u32 %r14, [%r11+128];
  add.u32 %r14, %r14, %r13;
  st.volatile.shared.u32 [%r11+128], %r14;
  add.u64 %rd5, %rd1, %rd3;
  st.global.u32 [%rd5], %r14;
  ret;
}

// out[block] = sum of in[block * 17 * ntid ..][..17 * ntid], through 17 column sums.
.visible .entry column_sums(.param .u64 out, .param .u64 in)
{
  .shared .align 4 .b8 cols[69632];
  .reg .pred %p<4>;
  .reg .b32 %r<24>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ntid.x;
  mov.u32 %r3, %ctaid.x;
  mul.lo.u32 %r4, %r2, 17;
  mul.lo.u32 %r5, %r3, %r4;
  mad.lo.u32 %r6, %r1, 17, %r5;
  mov.u32 %r7, cols;
  mul.lo.u32 %r8, %r1, 68;
  add.u32 %r8, %r7, %r8;
  mov.u32 %r9, 0;
copy:
  add.u32 %r10, %r6, %r9;
  mul.wide.u32 %rd3, %r10, 4;
  add.u64 %rd4, %rd2, %rd3;
  ld.global.u32 %r11, [%rd4];
  shl.b32 %r12, %r9, 2;
  add.u32 %r12, %r8, %r12;
  st.shared.u32 [%r12], %r11;
  add.u32 %r9, %r9, 1;
  setp.lt.u32 %p1, %r9, 17;
  @%p1 bra copy;
  bar.sync 0;
  setp.ge.u32 %p2, %r1, 17;
  @%p2 bra sum_done;
  mov.u32 %r13, 0;
  mov.u32 %r14, %r1;
sum:
  shl.b32 %r15, %r14, 2;
  add.u32 %r15, %r7, %r15;
  ld.shared.u32 %r16, [%r15];
  add.u32 %r13, %r13, %r16;
  add.u32 %r14, %r14, 17;
  setp.lt.u32 %p3, %r14, %r4;
  @%p3 bra sum;
  shl.b32 %r17, %r1, 2;
  add.u32 %r17, %r7, %r17;
  st.shared.u32 [%r17], %r13;
sum_done:
  setp.ne.u32 %p2, %r1, 0;
  @%p2 bra done;
  mov.u32 %r18, 0;
  mov.u32 %r19, 0;
total:
  shl.b32 %r20, %r19, 2;
  add.u32 %r20, %r7, %r20;
  ld.shared.u32 %r21, [%r20];
  add.u32 %r18, %r18, %r21;
  add.u32 %r19, %r19, 1;
  setp.lt.u32 %p3, %r19, 17;
  @%p3 bra total;
  mul.wide.u32 %rd5, %r3, 4;
  add.u64 %rd6, %rd1, %rd5;
  st.global.u32 [%rd6], %r18;
done:
  ret;
}

// scratch[32 * block + i] = 3 * in[32 * block + i] for i < 32, by threads i, i + ntid, ...;
// then thread 0: out[block] = the sum of the block's 32 scratch words. No barrier.
.visible .entry leader_sum(.param .u64 out, .param .u64 in, .param .u64 scratch)
{
  .reg .pred %p<3>;
  .reg .b32 %r<12>;
  .reg .b64 %rd<12>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.param.u64 %rd3, [scratch];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %ntid.x;
  shl.b32 %r4, %r2, 5;
  mov.u32 %r5, %r1;
  setp.ge.u32 %p1, %r5, 32;
  @%p1 bra converted;
convert:
  add.u32 %r6, %r4, %r5;
  mul.wide.u32 %rd4, %r6, 4;
  add.u64 %rd5, %rd2, %rd4;
  ld.global.u32 %r7, [%rd5];
  mul.lo.u32 %r7, %r7, 3;
  add.u64 %rd6, %rd3, %rd4;
  st.global.u32 [%rd6], %r7;
  add.u32 %r5, %r5, %r3;
  setp.lt.u32 %p1, %r5, 32;
  @%p1 bra convert;
converted:
  setp.ne.s32 %p2, %r1, 0;
  @%p2 bra finished;
  mov.u32 %r8, 0;
  mov.u32 %r9, 0;
add_up:
  add.u32 %r10, %r4, %r9;
  mul.wide.u32 %rd7, %r10, 4;
  add.u64 %rd8, %rd3, %rd7;
  ld.global.u32 %r11, [%rd8];
  add.u32 %r8, %r8, %r11;
  add.u32 %r9, %r9, 1;
  setp.lt.u32 %p1, %r9, 32;
  @%p1 bra add_up;
  mul.wide.u32 %rd9, %r2, 4;
  add.u64 %rd10, %rd1, %rd9;
  st.global.u32 [%rd10], %r8;
finished:
  ret;
}
"#;

fn expected(input: &[u32]) -> Vec<u32> {
    let mut out = Vec::with_capacity(input.len());
    for warp in input.chunks(32) {
        let mut sum = 0u32;
        for &x in warp {
            sum = sum.wrapping_add(x);
            out.push(sum);
        }
    }
    out
}

#[test]
fn a_volatile_warp_scan_sees_lockstep_order() {
    let d = cpu_backend::devices().remove(0);
    let d: &dyn Device = d.as_ref();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    for (blocks, threads) in [(1u32, 32u32), (7, 128), (3, 256), (2, 1024)] {
        let n = (blocks * threads) as usize;
        let input: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761) >> 20).collect();
        let (din, dout) = (upload(d, &input), upload(d, &vec![0u32; n]));
        let cfg = LaunchConfig { grid: [blocks, 1, 1], block: [threads, 1, 1], dynamic_shared_bytes: 0 };
        let mut params = dout.to_le_bytes().to_vec();
        params.extend_from_slice(&din.to_le_bytes());
        m.launch("warp_scan", &cfg, &params).unwrap();
        assert_eq!(download::<u32>(d, dout, n), expected(&input), "{blocks} blocks of {threads}");
    }
}

#[test]
fn column_sums_stored_by_some_lanes_are_seen_by_lane_zero_without_a_barrier() {
    let d = cpu_backend::devices().remove(0);
    let d: &dyn Device = d.as_ref();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    for (blocks, threads) in [(1u32, 32u32), (5, 64), (2, 1024)] {
        let per_block = 17 * threads as usize;
        let input: Vec<u32> = (0..blocks as usize * per_block).map(|i| (i as u32).wrapping_mul(2654435761) >> 22).collect();
        let want: Vec<u32> = input.chunks(per_block).map(|b| b.iter().fold(0u32, |a, &x| a.wrapping_add(x))).collect();
        let (din, dout) = (upload(d, &input), upload(d, &vec![0u32; blocks as usize]));
        let cfg = LaunchConfig { grid: [blocks, 1, 1], block: [threads, 1, 1], dynamic_shared_bytes: 0 };
        let mut params = dout.to_le_bytes().to_vec();
        params.extend_from_slice(&din.to_le_bytes());
        m.launch("column_sums", &cfg, &params).unwrap();
        assert_eq!(download::<u32>(d, dout, blocks as usize), want, "{blocks} blocks of {threads}");
    }
}

#[test]
fn thread_zero_sees_what_its_warp_stored_to_global_memory_without_a_barrier() {
    let d = cpu_backend::devices().remove(0);
    let d: &dyn Device = d.as_ref();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    for (blocks, threads) in [(1u32, 32u32), (3, 64), (4, 256), (2, 8)] {
        let n = 32 * blocks as usize;
        let input: Vec<u32> = (0..n as u32).map(|i| i.wrapping_mul(2654435761) >> 12).collect();
        let want: Vec<u32> = input.chunks(32).map(|b| b.iter().fold(0u32, |a, &x| a.wrapping_add(x.wrapping_mul(3)))).collect();
        let (din, dout, dscratch) = (upload(d, &input), upload(d, &vec![0u32; blocks as usize]), upload(d, &vec![0u32; n]));
        let cfg = LaunchConfig { grid: [blocks, 1, 1], block: [threads, 1, 1], dynamic_shared_bytes: 0 };
        let mut params = dout.to_le_bytes().to_vec();
        params.extend_from_slice(&din.to_le_bytes());
        params.extend_from_slice(&dscratch.to_le_bytes());
        m.launch("leader_sum", &cfg, &params).unwrap();
        assert_eq!(download::<u32>(d, dout, blocks as usize), want, "{blocks} blocks of {threads}");
    }
}
