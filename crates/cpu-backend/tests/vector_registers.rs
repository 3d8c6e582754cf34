//! Vector registers (`lower/vector_regs.rs`, PTX ISA 5.4.2): `.reg .v4 .u32 r;` loaded
//! whole, read by element (`r.z`), written by element, moved whole and element-wise with
//! every source read before any destination is written.

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::{download, upload};

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
// out = { in.w + in.x, in.z, in.y, in.x }, through whole and element-wise moves
.visible .entry vec(.param .u64 out, .param .u64 in)
{
  .reg .u64 %rd<3>;
  .reg .v4 .u32 v;
  .reg .v2 .u32 pair;
  .reg .u32 a, b, c, d;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [in];
  ld.global.v4.u32 v, [%rd2];
  add.u32 pair.x, v.w, v.x;
  mov.u32 pair.y, v.z;
  mov.v4.u32 {a, b, c, d}, v;
  mov.v4.u32 {a, b, c, d}, {d, c, b, a};
  mov.u32 v.x, pair.x;
  mov.u32 v.y, pair.y;
  mov.u32 v.z, c;
  mov.u32 v.w, d;
  st.global.v4.u32 [%rd1], v;
  ret;
}
"#;

#[test]
fn vector_registers_split_into_their_elements() {
    let d = cpu_backend::devices().remove(0);
    let d: &dyn Device = d.as_ref();
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let input = [10u32, 20, 30, 40];
    let (din, dout) = (upload(d, &input), upload(d, &[0u32; 4]));
    let mut params = dout.to_le_bytes().to_vec();
    params.extend_from_slice(&din.to_le_bytes());
    let one = LaunchConfig { grid: [1, 1, 1], block: [1, 1, 1], dynamic_shared_bytes: 0 };
    m.launch("vec", &one, &params).unwrap();
    // {a, b, c, d} = {40, 30, 20, 10} after the swap (read all, then write: not {40, 30, 30,
    // 40}): v = {40 + 10, 30, 20, 10}.
    assert_eq!(download::<u32>(d, dout, 4), vec![50, 30, 20, 10]);
}
