//! The cluster special registers (PTX ISA 10, `%clusterid`, `%cluster_ctarank`, ...): a
//! launch without cluster dimensions makes each block a cluster of one, as on sm_90 (the
//! same values on an H200, driver 580.159).

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::download;

const PTX: &str = r#".version 7.8
.target sm_90
.address_size 64
// out[6 * block ..] = %clusterid.x, %nclusterid.x, %cluster_nctarank, %cluster_ctarank,
// %cluster_ctaid.y, %cluster_nctaid.z
.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  cvta.to.global.u64 %rd1, %rd1;
  mov.u32 %r1, %clusterid.x;
  mov.u32 %r2, %nclusterid.x;
  mov.u32 %r3, %cluster_nctarank;
  mov.u32 %r4, %cluster_ctarank;
  mov.u32 %r5, %cluster_ctaid.y;
  mov.u32 %r6, %cluster_nctaid.z;
  mov.u32 %r7, %ctaid.x;
  mul.wide.u32 %rd2, %r7, 24;
  add.u64 %rd3, %rd1, %rd2;
  st.global.u32 [%rd3], %r1;
  st.global.u32 [%rd3+4], %r2;
  st.global.u32 [%rd3+8], %r3;
  st.global.u32 [%rd3+12], %r4;
  st.global.u32 [%rd3+16], %r5;
  st.global.u32 [%rd3+20], %r6;
  ret;
}
"#;

#[test]
fn each_block_is_a_cluster_of_one() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let out = d.alloc(5 * 24).unwrap();
    let cfg = LaunchConfig { grid: [5, 1, 1], block: [32, 1, 1], ..Default::default() };
    m.launch("k", &cfg, &out.to_le_bytes()).unwrap();
    let got: Vec<u32> = download(d.as_ref() as &dyn Device, out, 5 * 6);
    for (block, regs) in got.chunks(6).enumerate() {
        assert_eq!(regs, [block as u32, 5, 1, 0, 0, 1], "block {block}");
    }
}
