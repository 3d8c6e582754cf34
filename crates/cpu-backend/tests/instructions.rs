//! Table-driven instruction semantics on the CPU device: each case is one PTX instruction
//! applied to pairs of 32-bit inputs; expected values are computed here in Rust from the
//! PTX ISA's definition of the instruction.

use backend_api::{LaunchConfig, LoadOptions};

/// Wrap `body` (reading %r1, %r2, writing %r3) in a kernel `k(out, a, b)` over n threads.
fn kernel(body: &str) -> String {
    format!(
        r#".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out, .param .u64 a, .param .u64 b)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<4>;
  .reg .f32 %f<4>;
  .reg .f64 %fd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [a];
  ld.param.u64 %rd3, [b];
  mov.u32 %r4, %tid.x;
  mov.u32 %r5, %ctaid.x;
  mad.lo.s32 %r4, %r5, 256, %r4;
  mul.wide.u32 %rd4, %r4, 4;
  add.s64 %rd5, %rd2, %rd4;
  add.s64 %rd6, %rd3, %rd4;
  ld.global.u32 %r1, [%rd5];
  ld.global.u32 %r2, [%rd6];
  {body}
  add.s64 %rd7, %rd1, %rd4;
  st.global.u32 [%rd7], %r3;
  ret;
}}
"#
    )
}

fn run(body: &str, a: &[u32], b: &[u32]) -> Vec<u32> {
    let d = cpu_backend::devices().remove(0);
    let m = d.load_ptx(&kernel(body), &LoadOptions::default()).unwrap_or_else(|e| panic!("{body}: {e}"));
    let n = a.len();
    let alloc = |v: &[u32]| {
        let p = d.alloc(n * 4).unwrap();
        unsafe { d.copy_to_device(p, v.as_ptr() as *const u8, n * 4).unwrap() };
        p
    };
    let (da, db, dout) = (alloc(a), alloc(b), alloc(&vec![0; n]));
    let mut params = Vec::new();
    for p in [dout, da, db] {
        params.extend_from_slice(&p.to_le_bytes());
    }
    assert_eq!(n % 256, 0, "inputs come in blocks of 256");
    let cfg = LaunchConfig { grid: [(n / 256) as u32, 1, 1], block: [256, 1, 1], dynamic_shared_bytes: 0 };
    m.launch("k", &cfg, &params).unwrap();
    let mut out = vec![0u32; n];
    unsafe { d.copy_from_device(out.as_mut_ptr() as *mut u8, dout, n * 4).unwrap() };
    for p in [da, db, dout] {
        d.free(p).unwrap();
    }
    out
}

/// Edge values plus a deterministic pseudo-random spread.
fn inputs() -> (Vec<u32>, Vec<u32>) {
    let edges = [0u32, 1, 2, 31, 32, 33, 0x7fff_ffff, 0x8000_0000, 0xffff_ffff, 0xffff_fffe, 255, 256, 0x1234_5678];
    let mut a = Vec::new();
    let mut b = Vec::new();
    for &x in &edges {
        for &y in &edges {
            a.push(x);
            b.push(y);
        }
    }
    let mut s = 0x9e37_79b9u32;
    while a.len() < 1024 {
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        a.push(s);
        s ^= s << 13;
        s ^= s >> 17;
        s ^= s << 5;
        b.push(if a.len() % 3 == 0 { s % 40 } else { s });
    }
    (a, b)
}

type Case = (&'static str, fn(u32, u32) -> u32);

fn bfe_u(a: u32, pos: u32, len: u32) -> u32 {
    let (pos, len) = ((pos & 0xff).min(32), (len & 0xff).min(32));
    if len == 0 || pos >= 32 {
        return 0;
    }
    let v = a >> pos;
    if len >= 32 {
        v
    } else {
        v & ((1u32 << len) - 1)
    }
}

fn bfe_s(a: u32, pos: u32, len: u32) -> u32 {
    let (pos, len) = ((pos & 0xff).min(32), (len & 0xff).min(32));
    if len == 0 {
        return 0;
    }
    if pos >= 32 {
        return ((a as i32) >> 31) as u32;
    }
    let end = (pos + len).min(32);
    let width = end - pos;
    let v = ((a as i32) << (32 - end)) >> (32 - width);
    v as u32
}

#[test]
fn integer_instructions_match_ptx_semantics() {
    let cases: &[Case] = &[
        ("add.s32 %r3, %r1, %r2;", |a, b| a.wrapping_add(b)),
        // Programmatic dependent launch has nothing to wait for or release here: no-ops.
        ("griddepcontrol.wait; griddepcontrol.launch_dependents; add.s32 %r3, %r1, %r2;", |a, b| a.wrapping_add(b)),
        ("sub.s32 %r3, %r1, %r2;", |a, b| a.wrapping_sub(b)),
        ("add.sat.s32 %r3, %r1, %r2;", |a, b| (a as i32).saturating_add(b as i32) as u32),
        ("mul.lo.s32 %r3, %r1, %r2;", |a, b| a.wrapping_mul(b)),
        ("mul.hi.u32 %r3, %r1, %r2;", |a, b| ((a as u64 * b as u64) >> 32) as u32),
        ("mul.hi.s32 %r3, %r1, %r2;", |a, b| ((a as i32 as i64 * b as i32 as i64) >> 32) as u32),
        ("mad.lo.s32 %r3, %r1, %r2, %r1;", |a, b| a.wrapping_mul(b).wrapping_add(a)),
        ("div.u32 %r3, %r1, %r2;", |a, b| if b == 0 { u32::MAX } else { a / b }),
        ("rem.u32 %r3, %r1, %r2;", |a, b| if b == 0 { u32::MAX } else { a % b }),
        ("div.s32 %r3, %r1, %r2;", |a, b| if b == 0 { u32::MAX } else { (a as i32).wrapping_div(b as i32) as u32 }),
        ("min.s32 %r3, %r1, %r2;", |a, b| (a as i32).min(b as i32) as u32),
        ("max.u32 %r3, %r1, %r2;", |a, b| a.max(b)),
        ("shl.b32 %r3, %r1, %r2;", |a, b| if b > 31 { 0 } else { a << b }),
        ("shr.u32 %r3, %r1, %r2;", |a, b| if b > 31 { 0 } else { a >> b }),
        ("shr.s32 %r3, %r1, %r2;", |a, b| ((a as i32) >> b.min(31)) as u32),
        ("and.b32 %r3, %r1, %r2;", |a, b| a & b),
        ("xor.b32 %r3, %r1, %r2;", |a, b| a ^ b),
        ("not.b32 %r3, %r1;", |a, _| !a),
        ("popc.b32 %r3, %r1;", |a, _| a.count_ones()),
        ("clz.b32 %r3, %r1;", |a, _| a.leading_zeros()),
        ("brev.b32 %r3, %r1;", |a, _| a.reverse_bits()),
        ("bfind.u32 %r3, %r1;", |a, _| if a == 0 { u32::MAX } else { 31 - a.leading_zeros() }),
        ("bfe.u32 %r3, %r1, %r2, 8;", |a, b| bfe_u(a, b, 8)),
        ("bfe.s32 %r3, %r1, 4, %r2;", |a, b| bfe_s(a, 4, b)),
        ("shf.l.wrap.b32 %r3, %r1, %r2, 7;", |a, b| (((b as u64) << 32 | a as u64) << 7 >> 32) as u32),
        ("shf.r.clamp.b32 %r3, %r1, %r2, %r2;", |a, b| (((b as u64) << 32 | a as u64) >> b.min(32)) as u32),
        ("prmt.b32 %r3, %r1, %r2, 0x3210;", |a, _| a),
        ("prmt.b32 %r3, %r1, %r2, 0x7654;", |_, b| b),
        ("prmt.b32 %r3, %r1, %r2, 0x0123;", |a, _| a.swap_bytes()),
        ("prmt.b32 %r3, %r1, %r2, 0x8888;", |a, _| if a & 0x80 != 0 { u32::MAX } else { 0 }),
        ("lop3.b32 %r3, %r1, %r2, %r1, 0x96;", |a, b| a ^ b ^ a),
        ("setp.lt.s32 %p1, %r1, %r2; selp.u32 %r3, 1, 0, %p1;", |a, b| ((a as i32) < (b as i32)) as u32),
        ("setp.hi.u32 %p1, %r1, %r2; selp.u32 %r3, 1, 0, %p1;", |a, b| (a > b) as u32),
        ("set.eq.u32.u32 %r3, %r1, %r2;", |a, b| if a == b { u32::MAX } else { 0 }),
        ("mul24.lo.s32 %r3, %r1, %r2;", |a, b| (((a << 8) as i32 >> 8) as i64 * (((b << 8) as i32 >> 8) as i64)) as u32),
        ("cvt.u16.u32 %rs1, %r1; cvt.u32.u16 %r3, %rs1;", |a, _| a & 0xffff),
        ("cvt.s8.s32 %rs1, %r1; cvt.s32.s8 %r3, %rs1;", |a, _| a as u8 as i8 as i32 as u32),
        // A destination register wider than a signed type is sign-extended (PTX ISA 9.4.3).
        ("cvt.sat.s8.s32 %r3, %r1;", |a, _| (a as i32).clamp(-128, 127) as u32),
        ("mov.b64 %rd0, {%r1, %r2}; shr.u64 %rd0, %rd0, 16; cvt.u32.u64 %r3, %rd0;", |a, b| (((b as u64) << 32 | a as u64) >> 16) as u32),
        // Float: a as f32 bits; rounding and NaN rules of cvt.
        ("mov.b32 %f1, %r1; cvt.rzi.s32.f32 %r3, %f1;", |a, _| {
            let f = f32::from_bits(a);
            if f.is_nan() {
                0
            } else {
                f as i32 as u32
            }
        }),
        ("cvt.rn.f32.s32 %f1, %r1; mov.b32 %r3, %f1;", |a, _| (a as i32 as f32).to_bits()),
        ("mov.b32 %f1, %r1; mov.b32 %f2, %r2; min.f32 %f3, %f1, %f2; mov.b32 %r3, %f3;", |a, b| {
            let (x, y) = (f32::from_bits(a), f32::from_bits(b));
            // -0 orders below +0 (as on the H200, see ptx-conformance); Rust's min may
            // return either zero.
            if x == 0.0 && y == 0.0 {
                a | b
            } else {
                x.min(y).to_bits()
            }
        }),
    ];
    let (a, b) = inputs();
    let mut failures = Vec::new();
    for (body, f) in cases {
        let body_full = format!(".reg .b16 %rs<2>;\n  {body}");

        let got = run(&body_full, &a, &b);
        for i in 0..a.len() {
            let want = f(a[i], b[i]);
            // min.f32 of two NaNs may return any NaN.
            let both_nan = body.contains("min.f32") && f32::from_bits(want).is_nan() && f32::from_bits(got[i]).is_nan();
            if got[i] != want && !both_nan {
                failures.push(format!("{body}: a={:#x} b={:#x}: got {:#x}, want {:#x}", a[i], b[i], got[i], want));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[derive(Clone, Copy)]
enum Mode {
    Zero,
    Down,
    Up,
}

/// Round an f64 that holds an exact result to f32 in a directed mode.
fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

fn directed(x: f64, mode: Mode) -> f32 {
    let q = x as f32;
    let qd = q as f64;
    if qd == x || x.is_nan() {
        return q;
    }
    match mode {
        Mode::Zero if qd.abs() > x.abs() => {
            if x > 0.0 {
                q.next_down()
            } else {
                q.next_up()
            }
        }
        Mode::Down if qd > x => q.next_down(),
        Mode::Up if qd < x => q.next_up(),
        _ => q,
    }
}

/// Floats with exponents in [-24, 24] and random signs, so that sums and products of two
/// of them are exact in f64 and the reference needs no rounding of its own.
fn moderate_floats(seed: u32, n: usize) -> Vec<u32> {
    floats_with_exponents(seed, n, 127 - 24, 49)
}

/// Floats whose products underflow into the subnormal range.
fn tiny_floats(seed: u32, n: usize) -> Vec<u32> {
    floats_with_exponents(seed, n, 1, 80)
}

fn floats_with_exponents(seed: u32, n: usize, lo: u32, span: u32) -> Vec<u32> {
    let mut s = seed;
    (0..n)
        .map(|_| {
            s ^= s << 13;
            s ^= s >> 17;
            s ^= s << 5;
            let exp = lo + (s >> 8) % span;
            (s & 0x8000_0000) | (exp << 23) | (s.rotate_left(7) & 0x7f_ffff)
        })
        .collect()
}

#[test]
fn directed_rounding_is_exact() {
    let mut a = moderate_floats(0x1234_5678, 1024);
    let mut b = moderate_floats(0x0bad_cafe, 1024);
    a.extend(tiny_floats(0x5eed_1234, 512));
    b.extend(moderate_floats(0x7777_1111, 512));
    type FCase = (&'static str, fn(u32, u32) -> u32);
    let cases: &[FCase] = &[
        ("mul.rz.f32", |a, b| directed(f(a) as f64 * f(b) as f64, Mode::Zero).to_bits()),
        ("mul.rm.f32", |a, b| directed(f(a) as f64 * f(b) as f64, Mode::Down).to_bits()),
        ("mul.rp.f32", |a, b| directed(f(a) as f64 * f(b) as f64, Mode::Up).to_bits()),
        ("add.rz.f32", |a, b| directed(f(a) as f64 + f(b) as f64, Mode::Zero).to_bits()),
        ("add.rm.f32", |a, b| directed(f(a) as f64 + f(b) as f64, Mode::Down).to_bits()),
        ("sub.rp.f32", |a, b| directed(f(a) as f64 - f(b) as f64, Mode::Up).to_bits()),
        ("add.rn.f32", |a, b| (f(a) + f(b)).to_bits()),
    ];
    let mut failures = Vec::new();
    for (op, want) in cases {
        let body = format!("mov.b32 %f1, %r1; mov.b32 %f2, %r2; {op} %f3, %f1, %f2; mov.b32 %r3, %f3;");
        let got = run(&body, &a, &b);
        // Past 1024 the inputs mix tiny and moderate magnitudes: products are still exact
        // in f64 (and round into f32's subnormal range), sums are not, so only products
        // have an exact reference there.
        let checked = if op.starts_with("mul") { a.len() } else { 1024 };
        for i in 0..checked {
            if got[i] != want(a[i], b[i]) {
                failures.push(format!("{op}: {} {}: got {:e}, want {:e}", f(a[i]), f(b[i]), f(got[i]), f(want(a[i], b[i]))));
                break;
            }
        }
    }
    // Conversions: int -> f32 and f64 -> f32 (the f64 is a + b*2^-30, exact in f64).
    let conv: &[FCase] = &[
        ("cvt.rz.f32.s32 %f3, %r1;", |a, _| directed(a as i32 as f64, Mode::Zero).to_bits()),
        ("cvt.rm.f32.u32 %f3, %r1;", |a, _| directed(a as f64, Mode::Down).to_bits()),
        ("cvt.rp.f32.s32 %f3, %r1;", |a, _| directed(a as i32 as f64, Mode::Up).to_bits()),
    ];
    let ints: Vec<u32> = (0..1024u32).map(|i| i.wrapping_mul(0x9E37_79B9) ^ (i << 3)).collect();
    for (body, want) in conv {
        let got = run(&format!("{body} mov.b32 %r3, %f3;"), &ints, &ints);
        for i in 0..ints.len() {
            if got[i] != want(ints[i], 0) {
                failures.push(format!("{body}: {:#x}: got {:e}, want {:e}", ints[i], f(got[i]), f(want(ints[i], 0))));
                break;
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
