//! Half precision (PTX ISA 9.7.4): f16, f16x2, bf16, bf16x2 add/sub/mul/fma (`.rn`, `.ftz`,
//! `.sat`, `.relu`), neg/abs, min/max (`.NaN`, `.xorsign.abs`), and setp on halves. Unary
//! operations are exhaustive over all 65536 encodings; binary scalar ones run every pair
//! of 256 chosen values (edges and random), the paired forms random pairs of pairs.

use super::cmp::float_cmp;
use super::seed;
use crate::case::{Case, Check, Ty};
use crate::fp::{self, Exact, Fmt, Op2, Rnd, Tininess};
use crate::rng::{all16, float_edges, rand_float, Rng};

const F: &str = "half";

/// 65536 pairs: all pairs of 256 values of the format.
fn pairs256(f: Fmt, s: u64) -> (Vec<u64>, Vec<u64>) {
    let mut set = float_edges(16, f.exp_bits());
    let mut r = Rng::new(s);
    set.truncate(128);
    while set.len() < 256 {
        set.push(rand_float(&mut r, 16, f.exp_bits()));
    }
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &set {
        for &y in &set {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

/// Random values of a scalar or paired type, `k` arrays of `n`.
fn randoms(f: Fmt, paired: bool, k: usize, n: usize, s: u64) -> Vec<Vec<u64>> {
    let mut r = Rng::new(s);
    let edges = float_edges(16, f.exp_bits());
    let one = |r: &mut Rng| {
        if r.below(4) == 0 {
            edges[r.below(edges.len() as u64) as usize]
        } else {
            rand_float(r, 16, f.exp_bits())
        }
    };
    (0..k).map(|_| (0..n).map(|_| if paired { one(&mut r) << 16 | one(&mut r) } else { one(&mut r) }).collect()).collect()
}

/// Apply a scalar function to each 16-bit lane.
fn lanes(paired: bool, x: &[u64], g: &dyn Fn(&[u64]) -> u64) -> u64 {
    let lane = |sh: u32| {
        let v: Vec<u64> = x.iter().map(|&a| (a >> sh) & 0xffff).collect();
        g(&v) & 0xffff
    };
    if paired {
        lane(16) << 16 | lane(0)
    } else {
        lane(0)
    }
}

/// `exact`: how `.ftz` judges tininess (`fp::Tininess`: before rounding for add/sub/mul,
/// IEEE after-rounding for fma, as on the H200).
fn mods(f: Fmt, ftz: bool, sat: bool, relu: bool, x: &[u64], exact: (Exact, Tininess), g: impl Fn(&[u64]) -> u64) -> u64 {
    let x: Vec<u64> = x.iter().map(|&a| if ftz { f.ftz(a) } else { a }).collect();
    let mut d = g(&x);
    if ftz && fp::flushes(f, exact.0, &x, exact.1) {
        d &= f.sign();
    }
    if sat {
        d = fp::sat(f, d);
    }
    if relu {
        d = if f.is_nan(d) {
            f.canonical_nan()
        } else if f.is_neg(d) {
            0
        } else {
            d
        };
    }
    if ftz {
        d = f.ftz(d);
    }
    d
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (scalar, paired, f) in [(Ty::F16, Ty::F16x2, Fmt::H), (Ty::BF16, Ty::BF16x2, Fmt::BF)] {
        for ty in [scalar, paired] {
            let t = ty.name();
            let px = ty == paired;
            let inputs = |body: &str, k: usize| -> Vec<(Ty, Vec<u64>)> {
                if !px && k == 2 {
                    let (a, b) = pairs256(f, f.exp_bits() as u64);
                    vec![(ty, a), (ty, b)]
                } else if !px && k == 1 {
                    vec![(ty, all16())]
                } else {
                    randoms(f, px, k, 16384, seed(body)).into_iter().map(|x| (ty, x)).collect()
                }
            };
            // f16 has .ftz and .sat; bf16 neither (PTX ISA 9.7.4.1).
            let flags: Vec<(bool, bool)> =
                if f == Fmt::H { vec![(false, false), (true, false), (false, true), (true, true)] } else { vec![(false, false)] };
            for (ftz, sat) in flags.iter().copied() {
                let m = format!("{}{}", if ftz { ".ftz" } else { "" }, if sat { ".sat" } else { "" });
                for (name, op) in [("add", Op2::Add), ("sub", Op2::Sub), ("mul", Op2::Mul)] {
                    let body = format!("{name}.rn{m}.{t} %x, %a, %b;");
                    let ins = inputs(&body, 2);
                    v.push(Case::simple(F, &body, ins, ty, move |x| {
                        lanes(px, x, &|x| mods(f, ftz, sat, false, x, (Exact::Op(op), Tininess::Before), |x| fp::arith(f, op, x[0], x[1], Rnd::Rn)))
                    }));
                }
                let body = format!("fma.rn{m}.{t} %x, %a, %b, %c;");
                let ins = inputs(&body, 3);
                v.push(Case::simple(F, &body, ins, ty, move |x| {
                    lanes(px, x, &|x| mods(f, ftz, sat, false, x, (Exact::Fma, Tininess::After(Rnd::Rn)), |x| fp::fma(f, x[0], x[1], x[2], Rnd::Rn)))
                }));
            }
            let rf = if f == Fmt::H { ".ftz" } else { "" };
            let body = format!("fma.rn{rf}.relu.{t} %x, %a, %b, %c;");
            let ins = inputs(&body, 3);
            v.push(Case::simple(F, &body, ins, ty, move |x| {
                lanes(px, x, &|x| {
                    mods(f, f == Fmt::H, false, true, x, (Exact::Fma, Tininess::After(Rnd::Rn)), |x| fp::fma(f, x[0], x[1], x[2], Rnd::Rn))
                })
            }));
            for op in ["neg", "abs"] {
                for ftz in if f == Fmt::H { vec![false, true] } else { vec![false] } {
                    let fz = if ftz { ".ftz" } else { "" };
                    let body = format!("{op}{fz}.{t} %x, %a;");
                    let ins = inputs(&body, 1);
                    v.push(Case::simple(F, &body, ins, ty, move |x| {
                        lanes(px, x, &|x| {
                            let a = if ftz { f.ftz(x[0]) } else { x[0] };
                            if op == "neg" {
                                a ^ 0x8000
                            } else {
                                a & 0x7fff
                            }
                        })
                    }));
                }
            }
            for (op, max) in [("min", false), ("max", true)] {
                for variant in ["", ".NaN", ".xorsign.abs"] {
                    let fz = if f == Fmt::H && variant.is_empty() { ".ftz" } else { "" };
                    for ftz in if fz.is_empty() { vec![false] } else { vec![false, true] } {
                        let body = format!("{op}{}{variant}.{t} %x, %a, %b;", if ftz { fz } else { "" });
                        let ins = inputs(&body, 2);
                        let nan = variant == ".NaN";
                        let xs = variant == ".xorsign.abs";
                        v.push(Case::simple(F, &body, ins, ty, move |x| {
                            lanes(px, x, &|x| {
                                let (a, b) = if ftz { (f.ftz(x[0]), f.ftz(x[1])) } else { (x[0], x[1]) };
                                if xs {
                                    let m = fp::minmax(f, a & 0x7fff, b & 0x7fff, max, false);
                                    if f.is_nan(m) {
                                        m
                                    } else {
                                        m | ((a ^ b) & 0x8000)
                                    }
                                } else {
                                    fp::minmax(f, a, b, max, nan)
                                }
                            })
                        }));
                    }
                }
            }
        }
        // setp on halves; the paired form writes one predicate per half (p: high? no: low).
        for op in ["lt", "equ", "ne", "nan"] {
            let body = format!("setp.{op}.{} %x, %a, %b;", scalar.name());
            let (a, b) = pairs256(f, f.exp_bits() as u64);
            v.push(Case::simple(F, &body, vec![(scalar, a), (scalar, b)], Ty::Pred, move |x| float_cmp(op, f.to_f64(x[0]), f.to_f64(x[1])) as u64));
            let body = format!("setp.{op}.{} %x|%y, %a, %b;", paired.name());
            let ins: Vec<(Ty, Vec<u64>)> = randoms(f, true, 2, 8192, seed(&body)).into_iter().map(|x| (paired, x)).collect();
            let outs = [(Ty::Pred, Check::Exact), (Ty::Pred, Check::Exact)];
            v.push(Case::map(F, format!("setp.{op}.{}", paired.name()), body, ins, &outs, move |x| {
                let c = |sh: u32| float_cmp(op, f.to_f64((x[0] >> sh) & 0xffff), f.to_f64((x[1] >> sh) & 0xffff)) as u64;
                vec![c(0), c(16)]
            }));
        }
        // set on halves (PTX ISA 9.7.4.4): true is 1.0 in a half destination and all ones
        // in an integer one; paired sources give one result per half, packed in place, and
        // a BoolOp applies the one predicate to each half.
        let one = if f == Fmt::H { 0x3c00 } else { 0x3f80 };
        for op in ["lt", "equ", "ne", "nan"] {
            for (dt, t) in [(Ty::U32, 0xffff_ffff_u64), (scalar, one)] {
                let body = format!("set.{op}.{}.{} %x, %a, %b;", dt.name(), scalar.name());
                let (a, b) = pairs256(f, f.exp_bits() as u64);
                v.push(Case::simple(
                    F,
                    &body,
                    vec![(scalar, a), (scalar, b)],
                    dt,
                    move |x| {
                        if float_cmp(op, f.to_f64(x[0]), f.to_f64(x[1])) {
                            t
                        } else {
                            0
                        }
                    },
                ));
            }
            for (dt, t) in [(Ty::U32, 0xffff_u64), (paired, one)] {
                let body = format!("set.{op}.{}.{} %x, %a, %b;", dt.name(), paired.name());
                let ins: Vec<(Ty, Vec<u64>)> = randoms(f, true, 2, 8192, seed(&body)).into_iter().map(|x| (paired, x)).collect();
                v.push(Case::simple(F, &body, ins, dt, move |x| {
                    let c = |sh: u32| float_cmp(op, f.to_f64((x[0] >> sh) & 0xffff), f.to_f64((x[1] >> sh) & 0xffff));
                    (if c(16) { t << 16 } else { 0 }) | if c(0) { t } else { 0 }
                }));
            }
        }
    }
    v
}
