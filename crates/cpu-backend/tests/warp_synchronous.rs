//! Warp-synchronous code (`lower/warp_sync.rs`): lanes of a warp exchange values through
//! `volatile` shared memory with no barrier and get the results of lockstep execution.
//! The kernel is the classic inclusive warp scan (Hillis-Steele over 5 levels, each lane
//! adding the value `d` lanes below it, with a zeroed pad below each warp), as the CUDA
//! SDK's radix sort has it; without lockstep order a lane reads values that lanes below
//! it already summed.

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
