//! Integer arithmetic (PTX ISA 9.7.1): add/sub (.sat), add on .u16x2/.s16x2, mul (.lo/
//! .hi/.wide), mad (.lo/.hi/.wide, .hi.sat), mul24/mad24, div/rem (divisors of zero
//! excluded: PTX leaves the result unspecified), abs/neg, min/max (.relu, 16x2), sad.

use super::{pairs, sat, seed, sx, val, wide, wrap, INTS};
use crate::case::{Case, Ty};
use crate::rng::{all16, int_triples, mask};

const F: &str = "int-arith";

fn bin(body: &str, ty: Ty, out: Ty, f: impl Fn(u64, u64) -> u64) -> Case {
    let (a, b) = pairs(ty, 0);
    Case::simple(F, body, vec![(ty, a), (ty, b)], out, |r| f(r[0], r[1]))
}

fn tri(body: &str, ty: Ty, cty: Ty, out: Ty, f: impl Fn(u64, u64, u64) -> u64) -> Case {
    let n = if ty.bits() == 16 { 16384 } else { 4096 };
    let [a, b, c] = int_triples([ty.bits(), ty.bits(), cty.bits()], n, seed(body));
    Case::simple(F, body, vec![(ty, a), (ty, b), (cty, c)], out, |r| f(r[0], r[1], r[2]))
}

/// The full product of `a` and `b` read as `ty` (fits in i128 for every width but u64,
/// whose product is returned modulo 2^128 and read back as u128 by the callers).
fn product(a: u64, b: u64, ty: Ty) -> i128 {
    if ty == Ty::U64 {
        (a as u128).wrapping_mul(b as u128) as i128
    } else {
        val(a, ty) * val(b, ty)
    }
}

/// Bits `[w, 2w)` of the product (`.hi`).
fn hi(p: i128, ty: Ty) -> i128 {
    let w = ty.bits();
    if ty == Ty::U64 {
        ((p as u128) >> 64) as i128
    } else {
        p >> w
    }
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for ty in INTS {
        let (t, w) = (ty.name(), ty.bits());
        v.push(bin(&format!("add.{t} %x, %a, %b;"), ty, ty, |a, b| wrap(val(a, ty) + val(b, ty), w)));
        v.push(bin(&format!("sub.{t} %x, %a, %b;"), ty, ty, |a, b| wrap(val(a, ty) - val(b, ty), w)));
        v.push(bin(&format!("mul.lo.{t} %x, %a, %b;"), ty, ty, |a, b| wrap(product(a, b, ty), w)));
        v.push(bin(&format!("mul.hi.{t} %x, %a, %b;"), ty, ty, |a, b| wrap(hi(product(a, b, ty), ty), w)));
        v.push(tri(&format!("mad.lo.{t} %x, %a, %b, %c;"), ty, ty, ty, |a, b, c| wrap(product(a, b, ty).wrapping_add(val(c, ty)), w)));
        v.push(tri(&format!("mad.hi.{t} %x, %a, %b, %c;"), ty, ty, ty, |a, b, c| wrap(hi(product(a, b, ty), ty) + val(c, ty), w)));
        if w < 64 {
            let wt = wide(ty);
            v.push(bin(&format!("mul.wide.{t} %x, %a, %b;"), ty, wt, |a, b| wrap(product(a, b, ty), 2 * w)));
            v.push(tri(&format!("mad.wide.{t} %x, %a, %b, %c;"), ty, wt, wt, |a, b, c| wrap(product(a, b, ty) + val(c, wt), 2 * w)));
        }
        // div/rem: zero divisors are replaced by 7 (unspecified in PTX).
        for op in ["div", "rem"] {
            let body = format!("{op}.{t} %x, %a, %b;");
            let (a, mut b) = pairs(ty, 0);
            for x in b.iter_mut() {
                if *x & mask(w) == 0 {
                    *x = 7;
                }
            }
            v.push(Case::simple(F, body, vec![(ty, a), (ty, b)], ty, move |r| {
                let (x, y) = (val(r[0], ty), val(r[1], ty));
                // i128 arithmetic: MIN / -1 does not overflow; it wraps to MIN in `wrap`.
                wrap(if op == "div" { x / y } else { x % y }, w)
            }));
        }
        v.push(bin(&format!("min.{t} %x, %a, %b;"), ty, ty, |a, b| wrap(val(a, ty).min(val(b, ty)), w)));
        v.push(bin(&format!("max.{t} %x, %a, %b;"), ty, ty, |a, b| wrap(val(a, ty).max(val(b, ty)), w)));
        v.push(tri(&format!("sad.{t} %x, %a, %b, %c;"), ty, ty, ty, |a, b, c| wrap(val(c, ty) + (val(a, ty) - val(b, ty)).abs(), w)));
        if ty.is_signed() {
            let un = |body: String, f: fn(i128) -> i128| {
                let a: Vec<u64> = if w == 16 { all16() } else { pairs(ty, 0).0 };
                Case::simple(F, body, vec![(ty, a)], ty, move |r| wrap(f(val(r[0], ty)), w))
            };
            v.push(un(format!("abs.{t} %x, %a;"), |x| x.abs()));
            v.push(un(format!("neg.{t} %x, %a;"), |x| -x));
        }
    }
    // Saturating forms exist for s32 only.
    let s = Ty::S32;
    v.push(bin("add.sat.s32 %x, %a, %b;", s, s, |a, b| sat(sx(a, 32) + sx(b, 32), 32, true)));
    v.push(bin("sub.sat.s32 %x, %a, %b;", s, s, |a, b| sat(sx(a, 32) - sx(b, 32), 32, true)));
    v.push(tri("mad.hi.sat.s32 %x, %a, %b, %c;", s, s, s, |a, b, c| sat(((sx(a, 32) * sx(b, 32)) >> 32) + sx(c, 32), 32, true)));
    v.push(bin("min.relu.s32 %x, %a, %b;", s, s, |a, b| wrap(sx(a, 32).min(sx(b, 32)).max(0), 32)));
    v.push(bin("max.relu.s32 %x, %a, %b;", s, s, |a, b| wrap(sx(a, 32).max(sx(b, 32)).max(0), 32)));
    // 16x2 min/max (sm_90).
    for (op, t, relu) in [("min", Ty::U16, false), ("max", Ty::S16, false), ("min", Ty::S16, true), ("max", Ty::S16, true)] {
        let name = format!("{op}{}.{}x2", if relu { ".relu" } else { "" }, t.name());
        let body = format!("{name} %x, %a, %b;");
        v.push(bin(&body, Ty::B32, Ty::B32, move |a, b| {
            let lane = |sh: u32| {
                let (x, y) = (val(a >> sh, t), val(b >> sh, t));
                let r = if op == "min" { x.min(y) } else { x.max(y) };
                wrap(if relu { r.max(0) } else { r }, 16) << sh
            };
            lane(0) | lane(16)
        }));
    }
    // 16x2 add (sm_90): per half, wrapping.
    for t in ["u16x2", "s16x2"] {
        v.push(bin(&format!("add.{t} %x, %a, %b;"), Ty::B32, Ty::B32, |a, b| {
            (a.wrapping_add(b) & 0xffff) | ((a >> 16).wrapping_add(b >> 16) & 0xffff) << 16
        }));
    }
    // mul24/mad24: 24-bit operands (sign- or zero-extended), 48-bit product.
    for ty in [Ty::U32, Ty::S32] {
        let t = ty.name();
        let op24 = move |x: u64| if ty.is_signed() { sx(x, 24) } else { (x & 0xff_ffff) as i128 };
        v.push(bin(&format!("mul24.lo.{t} %x, %a, %b;"), ty, ty, move |a, b| wrap(op24(a) * op24(b), 32)));
        v.push(bin(&format!("mul24.hi.{t} %x, %a, %b;"), ty, ty, move |a, b| wrap((op24(a) * op24(b)) >> 16, 32)));
        v.push(tri(&format!("mad24.lo.{t} %x, %a, %b, %c;"), ty, ty, ty, move |a, b, c| wrap(op24(a) * op24(b) + val(c, ty), 32)));
        v.push(tri(&format!("mad24.hi.{t} %x, %a, %b, %c;"), ty, ty, ty, move |a, b, c| wrap(((op24(a) * op24(b)) >> 16) + val(c, ty), 32)));
    }
    v.push(tri("mad24.hi.sat.s32 %x, %a, %b, %c;", s, s, s, |a, b, c| sat(((sx(a, 24) * sx(b, 24)) >> 16) + sx(c, 32), 32, true)));
    v
}
