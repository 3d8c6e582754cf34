//! Calls whose return list differs from the callee's (a separately compiled definition
//! and a caller's prototype that disagree) still call it.

mod support;

use backend_api::{Device, LaunchConfig, LoadOptions};
use support::download;

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64

// out[t] = 3 * t, stored by a function without a return value.
.func store_triple(.param .b64 out, .param .b32 t)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [t];
  mul.lo.u32 %r2, %r1, 3;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  st.u32 [%rd3], %r2;
  ret;
}

// Returns t + 1 (and adds it to out[t]).
.func (.param .b32 r) add_one(.param .b64 out, .param .b32 t)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [t];
  add.u32 %r2, %r1, 1;
  mul.wide.u32 %rd2, %r1, 4;
  add.u64 %rd3, %rd1, %rd2;
  ld.u32 %r3, [%rd3];
  add.u32 %r3, %r3, %r2;
  st.u32 [%rd3], %r3;
  st.param.b32 [r], %r2;
  ret;
}

.visible .entry k(.param .u64 out)
{
  .reg .b32 %r<3>;
  .reg .b64 %rd<2>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  {
    .param .b64 o;
    .param .b32 t;
    .param .b64 ignored;
    st.param.b64 [o], %rd1;
    st.param.b32 [t], %r1;
    call.uni (ignored), store_triple, (o, t);
  }
  {
    .param .b64 o;
    .param .b32 t;
    st.param.b64 [o], %rd1;
    st.param.b32 [t], %r1;
    call.uni add_one, (o, t);
  }
  ret;
}
"#;

#[test]
fn mismatched_return_lists_still_call_the_function() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let out = d.alloc(64 * 4).unwrap();
    let cfg = LaunchConfig { grid: [1, 1, 1], block: [64, 1, 1], ..Default::default() };
    m.launch("k", &cfg, &out.to_le_bytes()).unwrap();
    let got: Vec<u32> = download(d.as_ref() as &dyn Device, out, 64);
    assert_eq!(got, (0..64).map(|t| 3 * t + t + 1).collect::<Vec<u32>>());
}
