//! Non-standard integer widths (compiler-core `lower::int_width`) in module variables and
//! kernel parameters, end to end: initializers, `.param` loads and stores are laid out in
//! power-of-two containers, and values round-trip through them truncated and extended.
//! The instruction semantics are in the conformance family `int-widths`.

use backend_api::{LaunchConfig, LoadOptions};

const PTX: &str = r#".version 8.0
.target sm_80
.address_size 64
.global .align 4 .s17 g[3] = {-1, 5, 70000};
.global .u5 small;
.visible .entry k(.param .u64 out, .param .s17 q, .param .u5 r)
{
  .reg .s17 %a<5>;
  .reg .u5 %c;
  .reg .s32 %x;
  .reg .u64 %p, %o;
  ld.param.u64 %o, [out];
  ld.param.s17 %a0, [q];
  ld.param.u5 %c, [r];
  mov.u64 %p, g;
  ld.global.s17 %a1, [%p];
  ld.global.s17 %a2, [%p+4];
  ld.global.s17 %a3, [%p+8];
  add.s17 %a4, %a3, %a0;
  st.global.s17 [%p+8], %a4;
  st.global.u5 [small], %c;
  cvt.s32.s17 %x, %a0;
  st.global.s32 [%o], %x;
  cvt.s32.s17 %x, %a1;
  st.global.s32 [%o+4], %x;
  cvt.s32.s17 %x, %a2;
  st.global.s32 [%o+8], %x;
  cvt.s32.s17 %x, %a3;
  st.global.s32 [%o+12], %x;
  cvt.s32.s17 %x, %a4;
  st.global.s32 [%o+16], %x;
  ret;
}
"#;

/// The low 17 bits of `v` as a signed number.
fn s17(v: i64) -> i32 {
    ((v as i32) << 15) >> 15
}

#[test]
fn odd_width_variables_and_parameters() {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(PTX, &LoadOptions::default()).unwrap();
    let k = m.kernel("k").unwrap();
    // An .s17 parameter takes 4 bytes, a .u5 one 1 byte.
    assert_eq!((k.params[1].size, k.params[2].size), (4, 1));
    // The initializer's image is what `st.s17` would leave: 70000 truncated to 17 bits
    // and sign-extended.
    let g = m.global("g").unwrap();
    assert_eq!(g.size, 12);
    let mut img = [0i32; 3];
    unsafe { d.copy_from_device(img.as_mut_ptr().cast(), g.address, 12).unwrap() };
    assert_eq!(img, [-1, 5, 70000 - (1 << 17)]);
    let out = d.alloc(20).unwrap();
    // Junk above the value's bits: the loads keep the low bits only.
    let q: u32 = 0xabc0_0000 | 0x1_fffd; // s17 -3
    let r: u8 = 0xff; // u5 31
    let mut params = vec![0u8; k.param_buffer_size];
    params[k.params[0].offset..][..8].copy_from_slice(&out.to_le_bytes());
    params[k.params[1].offset..][..4].copy_from_slice(&q.to_le_bytes());
    params[k.params[2].offset] = r;
    m.launch("k", &LaunchConfig { grid: [1, 1, 1], block: [1, 1, 1], dynamic_shared_bytes: 0 }, &params).unwrap();
    let mut got = [0i32; 5];
    unsafe { d.copy_from_device(got.as_mut_ptr().cast(), out, 20).unwrap() };
    let (qv, g2) = (s17(q as i64), s17(70000));
    assert_eq!(qv, -3);
    assert_eq!(g2, 70000 - (1 << 17));
    assert_eq!(got, [qv, -1, 5, g2, s17(g2 as i64 + qv as i64)]);
    // The store filled its 4-byte container, sign-extended.
    unsafe { d.copy_from_device(img.as_mut_ptr().cast(), g.address, 12).unwrap() };
    assert_eq!(img, [-1, 5, s17(g2 as i64 + qv as i64)]);
    let small = m.global("small").unwrap();
    assert_eq!(small.size, 1);
    let mut b = [0u8; 1];
    unsafe { d.copy_from_device(b.as_mut_ptr(), small.address, 1).unwrap() };
    assert_eq!(b[0], 31);
}
