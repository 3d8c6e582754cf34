//! Comparison and selection (PTX ISA 9.7.7): setp with every comparison on integers and
//! floats (ordered and unordered, with `.ftz`), the `.and/.or/.xor` combinations with a
//! predicate (plain and negated), the two-destination form `p|q`; selp; set (integer and
//! float results); slct.

use super::{pairs, seed, val, INTS};
use crate::case::{Case, Check, Ty};
use crate::fp::Fmt;
use crate::rng::{float_tuples, Rng};

const F: &str = "compare-select";

/// Integer comparisons valid for `ty` and their meaning.
fn int_cmps(ty: Ty) -> Vec<&'static str> {
    let mut v = vec!["eq", "ne", "lt", "le", "gt", "ge"];
    if !ty.is_signed() {
        v.extend(["lo", "ls", "hi", "hs"]);
    }
    v
}

fn int_cmp(op: &str, a: i128, b: i128) -> bool {
    match op {
        "eq" => a == b,
        "ne" => a != b,
        "lt" | "lo" => a < b,
        "le" | "ls" => a <= b,
        "gt" | "hi" => a > b,
        _ => a >= b,
    }
}

pub const FLOAT_CMPS: [&str; 14] = ["eq", "ne", "lt", "le", "gt", "ge", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];

/// A float comparison; NaN makes the ordered ones false and the unordered ones true.
pub fn float_cmp(op: &str, a: f64, b: f64) -> bool {
    let unordered = a.is_nan() || b.is_nan();
    match op {
        "num" => !unordered,
        "nan" => unordered,
        _ if op.len() == 3 && op.ends_with('u') => unordered || float_cmp(&op[..2], a, b),
        "eq" => a == b,
        "ne" => !unordered && a != b,
        "lt" => a < b,
        "le" => a <= b,
        "gt" => a > b,
        _ => a >= b,
    }
}

/// Predicate inputs: 0/1 with some larger non-zero values.
fn preds(n: usize, s: u64) -> Vec<u64> {
    let mut r = Rng::new(s);
    (0..n).map(|_| if r.below(2) == 0 { 0 } else { 1 + r.below(3) }).collect()
}

fn combine(bop: &str, x: bool, c: bool) -> bool {
    match bop {
        "and" => x && c,
        "or" => x || c,
        _ => x != c,
    }
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let mut bty = vec![Ty::B16, Ty::B32, Ty::B64];
    bty.extend(INTS);
    for ty in bty {
        let ops = if matches!(ty, Ty::B16 | Ty::B32 | Ty::B64) { vec!["eq", "ne"] } else { int_cmps(ty) };
        for op in ops {
            let body = format!("setp.{op}.{} %x, %a, %b;", ty.name());
            let (a, b) = pairs(ty, 0);
            v.push(Case::simple(F, &body, vec![(ty, a), (ty, b)], Ty::Pred, move |r| int_cmp(op, val(r[0], ty), val(r[1], ty)) as u64));
        }
        let body = format!("selp.{} %x, %a, %b, %c;", ty.name());
        let (a, b) = pairs(ty, 0);
        let c = preds(a.len(), seed(&body));
        v.push(Case::simple(F, &body, vec![(ty, a), (ty, b), (Ty::Pred, c)], ty, |r| if r[2] != 0 { r[0] } else { r[1] }));
    }
    // combinations and the two-destination form, on s32 and u64
    for ty in [Ty::S32, Ty::U64] {
        for op in ["lt", "ge", "ne"] {
            for bop in ["and", "or", "xor"] {
                for neg in [false, true] {
                    let c = if neg { "!%c" } else { "%c" };
                    let body = format!("setp.{op}.{bop}.{} %x|%y, %a, %b, {c};", ty.name());
                    let (a, b) = pairs(ty, 0);
                    let cc = preds(a.len(), seed(&body));
                    let outs = [(Ty::Pred, Check::Exact), (Ty::Pred, Check::Exact)];
                    let id = format!("setp.{op}.{bop}.{}#pq{}", ty.name(), if neg { "!c" } else { "" });
                    v.push(Case::map(F, id, body, vec![(ty, a), (ty, b), (Ty::Pred, cc)], &outs, move |r| {
                        let t = int_cmp(op, val(r[0], ty), val(r[1], ty));
                        let c = (r[2] != 0) != neg;
                        vec![combine(bop, t, c) as u64, combine(bop, !t, c) as u64]
                    }));
                }
            }
        }
    }
    for (fmt, ty) in [(Fmt::S, Ty::F32), (Fmt::D, Ty::F64)] {
        let (w, e) = (fmt.width(), fmt.exp_bits());
        for ftz in if fmt == Fmt::S { vec![false, true] } else { vec![false] } {
            let fz = if ftz { ".ftz" } else { "" };
            for op in FLOAT_CMPS {
                let body = format!("setp.{op}{fz}.{} %x, %a, %b;", ty.name());
                let t = float_tuples(w, e, 2, 8192, w as u64);
                v.push(Case::simple(F, &body, vec![(ty, t[0].clone()), (ty, t[1].clone())], Ty::Pred, move |r| {
                    let g = |x: u64| fmt.to_f64(if ftz { fmt.ftz(x) } else { x });
                    float_cmp(op, g(r[0]), g(r[1])) as u64
                }));
            }
        }
        for bop in ["and", "or", "xor"] {
            let body = format!("setp.ltu.{bop}.{} %x|%y, %a, %b, !%c;", ty.name());
            let t = float_tuples(w, e, 2, 4096, w as u64);
            let c = preds(t[0].len(), seed(&body));
            let outs = [(Ty::Pred, Check::Exact), (Ty::Pred, Check::Exact)];
            let id = format!("setp.ltu.{bop}.{}#pq!c", ty.name());
            v.push(Case::map(F, id, body, vec![(ty, t[0].clone()), (ty, t[1].clone()), (Ty::Pred, c)], &outs, move |r| {
                let x = float_cmp("ltu", fmt.to_f64(r[0]), fmt.to_f64(r[1]));
                let c = r[2] == 0;
                vec![combine(bop, x, c) as u64, combine(bop, !x, c) as u64]
            }));
        }
        let body = format!("selp.{} %x, %a, %b, %c;", ty.name());
        let t = float_tuples(w, e, 2, 2048, seed(&body));
        let c = preds(t[0].len(), 5);
        v.push(Case::simple(F, &body, vec![(ty, t[0].clone()), (ty, t[1].clone()), (Ty::Pred, c)], ty, |r| if r[2] != 0 { r[0] } else { r[1] }));
    }
    // set: 0xffffffff / 1.0f for true.
    for dt in [Ty::U32, Ty::S32, Ty::F32] {
        let tv = if dt == Ty::F32 { 0x3f80_0000 } else { 0xffff_ffff };
        for st in [Ty::S32, Ty::U16, Ty::U64] {
            let body = format!("set.lt.{}.{} %x, %a, %b;", dt.name(), st.name());
            let (a, b) = pairs(st, 0);
            v.push(Case::simple(F, &body, vec![(st, a), (st, b)], dt, move |r| if val(r[0], st) < val(r[1], st) { tv } else { 0 }));
        }
        for op in ["gtu", "eq", "nan"] {
            let body = format!("set.{op}.{}.f32 %x, %a, %b;", dt.name());
            let t = float_tuples(32, 8, 2, 4096, seed(&body));
            v.push(Case::simple(F, &body, vec![(Ty::F32, t[0].clone()), (Ty::F32, t[1].clone())], dt, move |r| {
                if float_cmp(op, Fmt::S.to_f64(r[0]), Fmt::S.to_f64(r[1])) {
                    tv
                } else {
                    0
                }
            }));
        }
        let body = format!("set.ne.and.{}.s32 %x, %a, %b, %c;", dt.name());
        let (a, b) = pairs(Ty::S32, 0);
        let c = preds(a.len(), 3);
        v.push(Case::simple(F, &body, vec![(Ty::S32, a), (Ty::S32, b), (Ty::Pred, c)], dt, move |r| if r[0] != r[1] && r[2] != 0 { tv } else { 0 }));
    }
    // slct: d = c >= 0 ? a : b
    for dt in [Ty::B32, Ty::S64, Ty::F32, Ty::U16] {
        let body = format!("slct.{}.s32 %x, %a, %b, %c;", dt.name());
        let (a, b) = pairs(if dt == Ty::F32 { Ty::U32 } else { dt }, 0);
        let c = pairs(Ty::S32, 1).0[..a.len().min(4096)].to_vec();
        let n = c.len();
        v.push(Case::simple(F, &body, vec![(dt, a[..n].to_vec()), (dt, b[..n].to_vec()), (Ty::S32, c)], dt, |r| {
            if val(r[2], Ty::S32) >= 0 {
                r[0]
            } else {
                r[1]
            }
        }));
        if dt == Ty::B32 || dt == Ty::F32 {
            for ftz in [false, true] {
                let fz = if ftz { ".ftz" } else { "" };
                let body = format!("slct{fz}.{}.f32 %x, %a, %b, %c;", dt.name());
                let (a, b) = pairs(Ty::U32, 0);
                let c = float_tuples(32, 8, 1, a.len(), seed(&body))[0].clone();
                v.push(Case::simple(F, &body, vec![(dt, a), (dt, b), (Ty::F32, c)], dt, move |r| {
                    let c = if ftz { Fmt::S.ftz(r[2]) } else { r[2] };
                    // -0.0 >= 0 holds; NaN selects b.
                    if Fmt::S.to_f64(c) >= 0.0 {
                        r[0]
                    } else {
                        r[1]
                    }
                }));
            }
        }
    }
    v
}
