//! 8-bit floats (PTX ISA 9.7.9.21 `cvt`, sm_89+): widening `cvt.rn{.relu}.f16x2.{e4m3x2,
//! e5m2x2}` over every pair of codes a byte can hold in each half, and narrowing
//! `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2}` over every half, float edges and
//! random floats. The reference rounds through `rustc_apfloat`'s 8-bit formats (ties to
//! even); `.satfinite` turns what overflows (infinities too) into the largest finite value
//! of the sign, NaN stays NaN (`0x7f`), and `.relu` makes negative results +0.

use super::seed;
use crate::case::{Case, Ty};
use crate::rng::{all16, float_edges, rand_float, Rng};
use rustc_apfloat::ieee::{Float8E4M3FN, Float8E5M2, Half, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

const F: &str = "cvt-fp8";

#[derive(Clone, Copy)]
enum Fp8 {
    E4M3,
    E5M2,
}

impl Fp8 {
    fn name(self) -> &'static str {
        match self {
            Fp8::E4M3 => "e4m3x2",
            Fp8::E5M2 => "e5m2x2",
        }
    }

    fn max_finite(self) -> u64 {
        match self {
            Fp8::E4M3 => 0x7e,
            Fp8::E5M2 => 0x7b,
        }
    }

    /// The code's value as a half's bits (exact); NaN as `0x7fff`.
    fn to_half(self, code: u64, relu: bool) -> u64 {
        fn go<A: Float + FloatConvert<Half>>(code: u64) -> (u64, bool, bool) {
            let a = A::from_bits(code as u128);
            (a.convert(&mut false).value.to_bits() as u64, a.is_nan(), a.is_negative())
        }
        let (h, nan, neg) = match self {
            Fp8::E4M3 => go::<Float8E4M3FN>(code),
            Fp8::E5M2 => go::<Float8E5M2>(code),
        };
        if nan {
            0x7fff
        } else if relu && neg {
            0
        } else {
            h
        }
    }

    /// The code nearest the float `x` (an f32's bits), ties to even, saturated.
    fn from_float(self, x: u64, relu: bool) -> u64 {
        fn go<B: Float>(x: u64) -> (u64, bool)
        where
            Single: FloatConvert<B>,
        {
            let r = Single::from_bits(x as u128).convert_r(Round::NearestTiesToEven, &mut false).value;
            (r.to_bits() as u64, !r.is_finite())
        }
        let s = Single::from_bits(x as u128);
        if s.is_nan() {
            return 0x7f;
        }
        if relu && s.is_negative() {
            return 0;
        }
        let (code, overflowed) = match self {
            Fp8::E4M3 => go::<Float8E4M3FN>(x),
            Fp8::E5M2 => go::<Float8E5M2>(x),
        };
        let sign = if s.is_negative() { 0x80 } else { 0 };
        if overflowed {
            sign | self.max_finite()
        } else {
            code | sign
        }
    }
}

/// A half's bits as an f32's (exact).
fn half_to_float(h: u64) -> u64 {
    let f: Single = Half::from_bits(h as u128).convert(&mut false).value;
    f.to_bits() as u64
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for f in [Fp8::E4M3, Fp8::E5M2] {
        let t = f.name();
        for relu in [false, true] {
            let rl = if relu { ".relu" } else { "" };
            // Every byte in each half: the 65536 16-bit inputs.
            let body = format!("cvt.rn{rl}.f16x2.{t} %x, %a;");
            v.push(Case::simple(F, body, vec![(Ty::B16, all16())], Ty::F16x2, move |x| {
                f.to_half(x[0] >> 8 & 0xff, relu) << 16 | f.to_half(x[0] & 0xff, relu)
            }));
            // Two floats: every half (widened) against float edges and random floats.
            let body = format!("cvt.rn.satfinite{rl}.{t}.f32 %x, %a, %b;");
            let mut r = Rng::new(seed(&body));
            let mut others = float_edges(32, 8);
            while others.len() < 1024 {
                others.push(rand_float(&mut r, 32, 8));
            }
            let a: Vec<u64> = all16().into_iter().map(half_to_float).collect();
            let b: Vec<u64> = (0..a.len()).map(|k| others[k % others.len()]).collect();
            v.push(Case::simple(F, body, vec![(Ty::F32, a), (Ty::F32, b)], Ty::B16, move |x| {
                f.from_float(x[0], relu) << 8 | f.from_float(x[1], relu)
            }));
            // A pair of halves: every half in the high lane, random halves in the low one.
            let body = format!("cvt.rn.satfinite{rl}.{t}.f16x2 %x, %a;");
            let mut r = Rng::new(seed(&body));
            let pairs: Vec<u64> = all16().into_iter().map(|h| h << 16 | (r.next() & 0xffff)).collect();
            v.push(Case::simple(F, body, vec![(Ty::F16x2, pairs)], Ty::B16, move |x| {
                f.from_float(half_to_float(x[0] >> 16), relu) << 8 | f.from_float(half_to_float(x[0] & 0xffff), relu)
            }));
        }
    }
    v
}
