//! f32/f64 arithmetic (PTX ISA 9.7.3, 9.7.4): add/sub/mul/fma/div/sqrt/rcp in every
//! rounding mode, with `.ftz` and `.sat` on f32 (inputs and results that are subnormal
//! become zeros of the same sign; `.sat` clamps to [0, 1] with NaN giving +0); the
//! `.approx`/`.full` forms against the ISA's error bounds; min/max (a NaN operand yields
//! the other one; `.NaN` propagates a canonical NaN; -0 < +0; `.xorsign.abs`); abs, neg,
//! copysign, and testp.

use super::seed;
use crate::case::{Case, Check, Ty};
use crate::fp::{self, Exact, Fmt, Op2, Rnd, Tininess};
use crate::rng::{float_tuples, Rng};

const F: &str = "float";

fn ty_of(f: Fmt) -> Ty {
    if f == Fmt::S {
        Ty::F32
    } else {
        Ty::F64
    }
}

/// Apply `.ftz` to inputs, compute, then `.ftz` (on the exact result's tininess, see
/// [`fp::tiny`]) and `.sat` to the result.
fn wrap_mods(f: Fmt, ftz: bool, sat: bool, ins: &[u64], exact: Option<(Exact, Tininess)>, op: impl Fn(&[u64]) -> u64) -> u64 {
    let ins: Vec<u64> = ins.iter().map(|&x| if ftz { f.ftz(x) } else { x }).collect();
    let mut d = op(&ins);
    if ftz && exact.is_some_and(|(e, t)| fp::flushes(f, e, &ins, t)) {
        d &= f.sign();
    }
    if sat {
        d = fp::sat(f, d);
    }
    if ftz {
        d = f.ftz(d);
    }
    d
}

fn case(f: Fmt, body: String, arity: usize, n: usize, check: Check, op: impl Fn(&[u64]) -> u64 + 'static) -> Case {
    let ty = ty_of(f);
    // inputs depend on the format and arity only: cases share arrays
    let mut t = float_tuples(f.width(), f.exp_bits(), arity, n, f.width() as u64 * 8 + arity as u64);
    // rows whose exact result lies just below the smallest normal, where `.ftz` flushes
    // before or after rounding tell apart (see `fp::tiny`)
    let specials: &[&[f64]] = match arity {
        2 => &[&[1.0 - 1.0 / 16777216.0, 8.507059173023462e37], &[1.1754942e-38, 1.0 - 1.0 / 16777216.0], &[1.1754942e-38, 1.0 - 1.0 / 8388608.0]],
        3 => &[
            &[7.888609052210118e-31, -8.673617379884035e-19, 1.1754943508222875e-38],
            &[-7.888609052210118e-31, 8.673617379884035e-19, -1.1754943508222875e-38],
            &[1.0, 1.1754942e-38, 1.0e-45],
        ],
        _ => &[],
    };
    if f == Fmt::S {
        for (k, row) in specials.iter().enumerate() {
            for (j, &x) in row.iter().enumerate() {
                let len = t[j].len();
                t[j][len - 1 - k] = f.from_f64(x);
            }
        }
    }
    let ins = t.into_iter().map(|x| (ty, x)).collect();
    Case::map(F, body.split_whitespace().next().unwrap_or("").to_string(), body, ins, &[(ty, check)], move |r| vec![op(r)])
}

/// Finite inputs in a range where an `.approx` bound holds: |x| in [2^lo, 2^hi].
fn ranged(f: Fmt, n: usize, s: u64, lo: i32, hi: i32, neg: bool) -> Vec<u64> {
    let mut r = Rng::new(s);
    (0..n)
        .map(|_| {
            let e = lo as f64 + (hi - lo) as f64 * (r.below(1 << 20) as f64 / (1u64 << 20) as f64);
            let x = e.exp2();
            let x = if neg && r.below(2) == 1 { -x } else { x };
            f.from_f64(x)
        })
        .collect()
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for f in [Fmt::S, Fmt::D] {
        let t = ty_of(f).name();
        let flags: Vec<(bool, bool)> =
            if f == Fmt::S { vec![(false, false), (true, false), (false, true), (true, true)] } else { vec![(false, false)] };
        for (ftz, sat) in flags {
            let m = format!("{}{}", if ftz { ".ftz" } else { "" }, if sat { ".sat" } else { "" });
            for (name, op) in [("add", Op2::Add), ("sub", Op2::Sub), ("mul", Op2::Mul)] {
                for r in [None, Some(Rnd::Rn), Some(Rnd::Rz), Some(Rnd::Rm), Some(Rnd::Rp)] {
                    let rn = r.map_or(String::new(), |r| format!(".{}", r.name()));
                    let body = format!("{name}{rn}{m}.{t} %x, %a, %b;");
                    let r = r.unwrap_or(Rnd::Rn);
                    v.push(case(f, body, 2, 8192, Check::Float, move |x| {
                        wrap_mods(f, ftz, sat, x, Some((Exact::Op(op), Tininess::Before)), |x| fp::arith(f, op, x[0], x[1], r))
                    }));
                }
            }
            for r in Rnd::ALL {
                let body = format!("fma.{}{m}.{t} %x, %a, %b, %c;", r.name());
                v.push(case(f, body, 3, 8192, Check::Float, move |x| {
                    wrap_mods(f, ftz, sat, x, Some((Exact::Fma, Tininess::After(r))), |x| fp::fma(f, x[0], x[1], x[2], r))
                }));
            }
            if sat {
                continue;
            }
            for r in Rnd::ALL {
                let body = format!("div.{}{m}.{t} %x, %a, %b;", r.name());
                v.push(case(f, body, 2, 8192, Check::Float, move |x| {
                    wrap_mods(f, ftz, false, x, Some((Exact::Op(Op2::Div), Tininess::Before)), |x| fp::arith(f, Op2::Div, x[0], x[1], r))
                }));
                let body = format!("sqrt.{}{m}.{t} %x, %a;", r.name());
                v.push(case(f, body, 1, 8192, Check::Float, move |x| wrap_mods(f, ftz, false, x, None, |x| fp::sqrt(f, x[0], r))));
                let body = format!("rcp.{}{m}.{t} %x, %a;", r.name());
                let one = f.from_f64(1.0);
                v.push(case(f, body, 1, 8192, Check::Float, move |x| {
                    wrap_mods(f, ftz, false, &[one, x[0]], Some((Exact::Op(Op2::Div), Tininess::Before)), |x| fp::arith(f, Op2::Div, x[0], x[1], r))
                }));
            }
            let fz = if ftz { ".ftz" } else { "" };
            // f32: a canonical NaN when both are NaN (exact); f64: the H200 returns the
            // second operand quieted, so any NaN passes there.
            let mm_check = if f == Fmt::S { Check::Exact } else { Check::Float };
            for (op, max) in [("min", false), ("max", true)] {
                let body = format!("{op}{fz}.{t} %x, %a, %b;");
                v.push(case(f, body, 2, 8192, mm_check, move |x| wrap_mods(f, ftz, false, x, None, |x| fp::minmax(f, x[0], x[1], max, false))));
                if f == Fmt::S {
                    let body = format!("{op}{fz}.NaN.{t} %x, %a, %b;");
                    v.push(case(f, body, 2, 8192, Check::Exact, move |x| {
                        wrap_mods(f, ftz, false, x, None, |x| fp::minmax(f, x[0], x[1], max, true))
                    }));
                }
            }
            for op in ["abs", "neg"] {
                let body = format!("{op}{fz}.{t} %x, %a;");
                let sign = f.sign();
                // Not bit operations on NaNs: the H200 gives the canonical NaN for f32
                // and the quieted input for f64 (PTX: an unspecified NaN).
                v.push(case(f, body, 1, 4096, Check::Float, move |x| {
                    let a = if ftz { f.ftz(x[0]) } else { x[0] };
                    if op == "abs" {
                        a & !sign
                    } else {
                        a ^ sign
                    }
                }));
            }
        }
        if f == Fmt::S {
            for (op, max) in [("min", false), ("max", true)] {
                // d = op(|a|, |b|) with the sign bit of a XOR b (sm_86)
                let body = format!("{op}.xorsign.abs.f32 %x, %a, %b;");
                v.push(case(f, body, 2, 8192, Check::Exact, move |x| {
                    let s = (x[0] ^ x[1]) & f.sign();
                    let m = fp::minmax(f, x[0] & !f.sign(), x[1] & !f.sign(), max, false);
                    if f.is_nan(m) {
                        m
                    } else {
                        m | s
                    }
                }));
            }
        }
        let body = format!("copysign.{t} %x, %a, %b;");
        let sign = f.sign();
        v.push(case(f, body, 2, 4096, Check::Exact, move |x| (x[1] & !sign) | (x[0] & sign)));
        for class in ["finite", "infinite", "number", "notanumber", "normal", "subnormal"] {
            let body = format!("testp.{class}.{t} %x, %a;");
            let a = float_tuples(f.width(), f.exp_bits(), 1, 4096, seed(&body)).remove(0);
            v.push(Case::simple(F, &body, vec![(ty_of(f), a)], Ty::Pred, move |x| {
                let a = x[0];
                (match class {
                    "finite" => !f.is_nan(a) && !f.is_inf(a),
                    "infinite" => f.is_inf(a),
                    "number" => !f.is_nan(a),
                    "notanumber" => f.is_nan(a),
                    // The H200 counts zeros as normal (the ISA's text suggests otherwise).
                    "normal" => !f.is_nan(a) && !f.is_inf(a) && !f.is_subnormal(a),
                    _ => f.is_subnormal(a),
                }) as u64
            }));
        }
    }
    v.extend(approx());
    v
}

/// `.approx` and `.full` forms, on inputs inside the range where the ISA states a bound.
fn approx() -> Vec<Case> {
    let mut v = Vec::new();
    let s = Fmt::S;
    let one = |body: &str, a: Vec<u64>, check: Check, g: fn(f64) -> f64| {
        Case::map(F, body.split_whitespace().next().unwrap().to_string(), body, vec![(Ty::F32, a)], &[(Ty::F32, check)], move |x| {
            vec![s.from_f64(g(s.to_f64(x[0])))]
        })
    };
    for fz in ["", ".ftz"] {
        // div.approx: 2 ulp for |b| in [2^-126, 2^126]; div.full: 2 ulp over the full range.
        for kind in ["approx", "full"] {
            let body = format!("div.{kind}{fz}.f32 %x, %a, %b;");
            let a = ranged(s, 8192, seed(&body), -60, 60, true);
            let b = ranged(s, 8192, seed(&body) + 1, -60, 60, true);
            v.push(Case::map(
                F,
                body.split_whitespace().next().unwrap().to_string(),
                &body,
                vec![(Ty::F32, a), (Ty::F32, b)],
                &[(Ty::F32, Check::Ulp(2))],
                |x| vec![fp::arith(Fmt::S, Op2::Div, x[0], x[1], Rnd::Rn)],
            ));
        }
        // div.approx for 2^126 < |b| <= inf: the ISA defines the result as 0, or NaN when `a`
        // is infinite (PTX ISA 9.7.3.8); the sign of the zero is not specified.
        let body = format!("div.approx{fz}.f32 %x, %a, %b;");
        let id = format!("div.approx{fz}.f32#huge-divisor");
        let mut a = ranged(s, 8192, seed(&id), -149, 127, true);
        let mut b = ranged(s, 8192, seed(&id) + 1, 126, 128, true);
        let (inf, nan) = (0x7f80_0000u64, 0x7fc0_0000u64);
        for (k, x) in [0, 0x8000_0000, inf, inf | 0x8000_0000, nan, 0x7f7f_ffff, 1].into_iter().enumerate() {
            a[k] = x;
            b[k + 16] = if k % 2 == 0 { inf } else { inf | 0x8000_0000 };
        }
        // 2^126 itself is inside the bounded range: one ulp above it instead
        for x in b.iter_mut().filter(|x| **x & 0x7fff_ffff == 0x7e80_0000) {
            *x += 1;
        }
        b[32] = 0x7e80_0001;
        b[33] = 0xfe80_0001;
        v.push(
            Case::map(F, id.clone(), &body, vec![(Ty::F32, a), (Ty::F32, b)], &[(Ty::F32, Check::Ulp(0))], |x| {
                let (fa, fb) = (s.to_f64(x[0]), s.to_f64(x[1]));
                let q = if fb.abs() > 2f64.powi(126) {
                    if fa.is_infinite() || fa.is_nan() {
                        f64::NAN
                    } else {
                        0.0
                    }
                } else {
                    fa / fb
                };
                vec![s.from_f64(q)]
            })
            .with_id(id),
        );
        let body = format!("rcp.approx{fz}.f32 %x, %a;");
        v.push(one(&body, ranged(s, 8192, seed(&body), -120, 120, true), Check::Ulp(1), |x| 1.0 / x));
        let body = format!("sqrt.approx{fz}.f32 %x, %a;");
        v.push(one(&body, ranged(s, 8192, seed(&body), -120, 120, false), Check::Ulp(2), f64::sqrt));
        let body = format!("rsqrt.approx{fz}.f32 %x, %a;");
        v.push(one(&body, ranged(s, 8192, seed(&body), -120, 120, false), Check::Ulp(3), |x| 1.0 / x.sqrt()));
        let body = format!("ex2.approx{fz}.f32 %x, %a;");
        let mut r = Rng::new(seed(&body));
        let a: Vec<u64> = (0..8192).map(|_| s.from_f64((r.below(1 << 24) as f64 / (1u64 << 24) as f64) * 200.0 - 100.0)).collect();
        v.push(one(&body, a, Check::Ulp(3), f64::exp2));
        let body = format!("lg2.approx{fz}.f32 %x, %a;");
        v.push(one(&body, ranged(s, 8192, seed(&body), -100, 100, false), Check::Abs(2f64.powi(-22)), f64::log2));
        for (name, g) in [("sin", f64::sin as fn(f64) -> f64), ("cos", f64::cos)] {
            let body = format!("{name}.approx{fz}.f32 %x, %a;");
            let mut r = Rng::new(seed(&body));
            let pi = std::f64::consts::PI;
            let a: Vec<u64> = (0..8192).map(|_| s.from_f64((r.below(1 << 24) as f64 / (1u64 << 24) as f64) * 2.0 * pi - pi)).collect();
            v.push(one(&body, a, Check::Abs(2f64.powi(-20)), g));
        }
    }
    // tanh.approx.f32: relative error 2^-11 (|tanh| <= 1, so an absolute 2^-10 covers it)
    let body = "tanh.approx.f32 %x, %a;";
    let a = ranged(s, 8192, seed(body), -20, 5, true);
    v.push(one(body, a, Check::Abs(2f64.powi(-10)), f64::tanh));
    v
}
