//! Atomics (PTX ISA 9.7.13.5 atom, 9.7.13.6 red). Single-thread semantics: thread `i`
//! works on its own scratch slot (initialized to input `%a`), so `%x` must be the old value
//! and the slot must hold `op(old, %b)`. Totals: every thread updates one of a few shared
//! slots with operations whose result does not depend on the order (integer add/min/max/
//! and/or/xor/inc, f32/f64 add of small integers, which add exactly).

use super::{pairs, seed, sx, val, wrap};
use crate::case::{Case, Check, Scratch, Ty};
use crate::fp::{self, Fmt, Op2, Rnd};
use crate::rng::{float_tuples, Rng};

const F: &str = "atom";

fn int_op(op: &str, ty: Ty, a: u64, b: u64) -> u64 {
    let w = ty.bytes() as u32 * 8;
    match op {
        "add" => wrap(val(a, ty) + val(b, ty), w),
        "and" => a & b,
        "or" => a | b,
        "xor" => a ^ b,
        "min" => wrap(val(a, ty).min(val(b, ty)), w),
        "max" => wrap(val(a, ty).max(val(b, ty)), w),
        "exch" => b,
        "inc" => {
            if a >= b {
                0
            } else {
                a + 1
            }
        }
        "dec" => {
            if a == 0 || a > b {
                b
            } else {
                a - 1
            }
        }
        _ => unreachable!(),
    }
}

/// A single-thread case: `body` reads `%a` (initial slot value, stored by the body's
/// first statement) and `%b` (operand).
fn single(id: String, body: String, ty: Ty, a: Vec<u64>, b: Vec<u64>, with_result: bool, check: Check, f: impl Fn(u64, u64) -> u64) -> Case {
    let expected: Vec<u64> = a.iter().zip(&b).map(|(&x, &y)| f(x & ty.mask(), y & ty.mask()) & ty.mask()).collect();
    let outs: Vec<(Ty, Check)> = if with_result { vec![(ty, Check::Exact)] } else { vec![] };
    let mut c = Case::map(F, id, body, vec![(ty, a.clone()), (ty, b)], &outs, |r| if with_result { vec![r[0]] } else { vec![] });
    c.scratch = Some(Scratch { ty, init: a, expected, check });
    c
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let int_ops: [(&str, &[Ty]); 9] = [
        ("add", &[Ty::U32, Ty::S32, Ty::U64]),
        ("and", &[Ty::B32, Ty::B64]),
        ("or", &[Ty::B32, Ty::B64]),
        ("xor", &[Ty::B32, Ty::B64]),
        ("min", &[Ty::U32, Ty::S32, Ty::U64, Ty::S64]),
        ("max", &[Ty::U32, Ty::S32, Ty::U64, Ty::S64]),
        ("exch", &[Ty::B32, Ty::B64]),
        ("inc", &[Ty::U32]),
        ("dec", &[Ty::U32]),
    ];
    for (op, tys) in int_ops {
        for &ty in tys {
            for (kind, space) in [("atom", ".global"), ("atom", ""), ("red", ".global")] {
                if kind == "red" && op == "exch" {
                    continue;
                }
                let t = ty.name();
                let insn = if kind == "atom" { format!("atom{space}.{op}.{t} %x, [%sa], %b;") } else { format!("red{space}.{op}.{t} [%sa], %b;") };
                let body = format!("st.global.{t} [%sa], %a;\n{insn}");
                let id = format!("{kind}{space}.{op}.{t}");
                let (mut a, mut b) = pairs(ty, 0);
                a.truncate(4096);
                b.truncate(4096);
                if op == "inc" || op == "dec" {
                    let mut r = Rng::new(3);
                    for (x, y) in a.iter_mut().zip(b.iter_mut()) {
                        if r.below(2) == 0 {
                            *x = r.below(20);
                            *y = r.below(20);
                        }
                    }
                }
                v.push(single(id, body, ty, a, b, kind == "atom", Check::Exact, move |x, y| int_op(op, ty, x, y)));
            }
        }
    }
    // cas: slot = (old == b) ? c : old
    for ty in [Ty::B32, Ty::B64] {
        let t = ty.name();
        let id = format!("atom.global.cas.{t}");
        let body = format!("st.global.{t} [%sa], %a;\natom.global.cas.{t} %x, [%sa], %b, %c;");
        let (a, mut b) = pairs(ty, 0);
        let (a, n) = (a[..4096].to_vec(), 4096);
        b.truncate(n);
        for i in (0..n).step_by(2) {
            b[i] = a[i];
        }
        let c: Vec<u64> = pairs(ty, 1).1[..n].to_vec();
        let expected: Vec<u64> = (0..n).map(|i| if a[i] == b[i] { c[i] } else { a[i] }).collect();
        let mut cs = Case::map(F, id, body, vec![(ty, a.clone()), (ty, b), (ty, c)], &[(ty, Check::Exact)], |r| vec![r[0]]);
        cs.scratch = Some(Scratch { ty, init: a, expected, check: Check::Exact });
        v.push(cs);
    }
    // float add: f32 flushes subnormal inputs and results (PTX ISA: atom.add.f32 is .ftz); f64 does not.
    for (f, ty) in [(Fmt::S, Ty::F32), (Fmt::D, Ty::F64)] {
        for kind in ["atom", "red"] {
            let t = ty.name();
            let insn = if kind == "atom" { format!("atom.global.add.{t} %x, [%sa], %b;") } else { format!("red.global.add.{t} [%sa], %b;") };
            let id = format!("{kind}.global.add.{t}");
            let body = format!("st.global.{t} [%sa], %a;\n{insn}");
            let tu = float_tuples(f.width(), f.exp_bits(), 2, 4096, seed(&id));
            let ftz = f == Fmt::S;
            v.push(single(id, body, ty, tu[0].clone(), tu[1].clone(), kind == "atom", Check::Float, move |x, y| {
                let g = |z: u64| if ftz { f.ftz(z) } else { z };
                g(fp::arith(f, Op2::Add, g(x), g(y), Rnd::Rn))
            }));
        }
    }
    // f16/bf16 add (.noftz, sm_90 for bf16)
    for (f, ty, t) in [(Fmt::H, Ty::F16, "f16"), (Fmt::BF, Ty::BF16, "bf16"), (Fmt::H, Ty::F16x2, "f16x2"), (Fmt::BF, Ty::BF16x2, "bf16x2")] {
        let id = format!("atom.global.add.noftz.{t}");
        let body = format!("st.global.b{} [%sa], %a;\natom.global.add.noftz.{t} %x, [%sa], %b;", ty.bytes() * 8);
        let tu = float_tuples(16, f.exp_bits(), 2, 4096 * if ty.bytes() == 4 { 2 } else { 1 }, seed(&id));
        let (a, b): (Vec<u64>, Vec<u64>) = if ty.bytes() == 4 {
            ((0..4096).map(|i| tu[0][2 * i] << 16 | tu[1][2 * i + 1]).collect(), (0..4096).map(|i| tu[1][2 * i] << 16 | tu[0][2 * i + 1]).collect())
        } else {
            (tu[0].clone(), tu[1].clone())
        };
        v.push(single(id, body, ty, a, b, true, Check::Float, move |x, y| {
            let l = |sh: u32| fp::arith(f, Op2::Add, (x >> sh) & 0xffff, (y >> sh) & 0xffff, Rnd::Rn) << sh;
            if ty.bytes() == 4 {
                l(0) | l(16)
            } else {
                l(0)
            }
        }));
    }
    v.extend(totals());
    v
}

/// Many threads on 8 shared slots: thread `i` updates slot `i % 8` with `%a`.
fn totals() -> Vec<Case> {
    let mut v = Vec::new();
    let n = 8192usize;
    let mut r = Rng::new(11);
    let ops: [(&str, Ty); 10] = [
        ("add", Ty::U32),
        ("add", Ty::U64),
        ("min", Ty::S32),
        ("max", Ty::U64),
        ("and", Ty::B32),
        ("or", Ty::B64),
        ("xor", Ty::B32),
        ("inc", Ty::U32),
        ("add", Ty::F32),
        ("add", Ty::F64),
    ];
    for (op, ty) in ops {
        for kind in ["atom", "red"] {
            let t = ty.name();
            let a: Vec<u64> = (0..n)
                .map(|_| match (op, ty) {
                    ("add", Ty::F32) => Fmt::S.from_f64(r.below(64) as f64 - 32.0),
                    ("add", Ty::F64) => Fmt::D.from_f64(r.below(1024) as f64 - 500.0),
                    ("inc", _) => 1_000_000,
                    ("and", _) => !(1u64 << r.below(32)),
                    _ => r.int(ty.bytes() as u32 * 8),
                })
                .collect();
            let init: Vec<u64> = match op {
                "and" => vec![ty.mask(); 8],
                "min" => vec![0x7fff_ffff; 8],
                _ => vec![0; 8],
            };
            let mut expected = init.clone();
            for (i, &x) in a.iter().enumerate() {
                let s = &mut expected[i % 8];
                *s = match ty {
                    Ty::F32 => Fmt::S.from_f64(Fmt::S.to_f64(*s) + Fmt::S.to_f64(x)),
                    Ty::F64 => Fmt::D.from_f64(Fmt::D.to_f64(*s) + Fmt::D.to_f64(x)),
                    _ => int_op(op, ty, *s, x),
                };
            }
            let insn = if kind == "atom" { format!("atom.global.{op}.{t} %tl, [%ptr], %a;") } else { format!("red.global.{op}.{t} [%ptr], %a;") };
            let insn = if ty.bytes() == 4 { insn.replace("%tl", "%t") } else { insn };
            let body = format!("rem.u32 %t0, %i, 8;\nmul.wide.u32 %off, %t0, {};\nadd.u64 %ptr, %s, %off;\n{insn}", ty.bytes());
            let id = format!("{kind}.global.{op}.{t}#total");
            let mut c = Case::map(F, id, body, vec![(ty, a)], &[], |_| vec![]);
            c.scratch = Some(Scratch { ty, init, expected, check: Check::Exact });
            v.push(c);
        }
    }
    let _ = sx;
    v
}
