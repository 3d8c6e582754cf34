//! Non-standard integer widths (`add.s17`): SCALE's PTX dialect, not NVIDIA's, so these
//! cases **cannot run on NVIDIA hardware** (ptxas rejects the types; the hardware export
//! skips this family). The rules under test are compiler-core's `lower::int_width`:
//! arithmetic modulo 2^N, operands read as N-bit two's complement for `.s`, shifts clamped
//! to N, `cvt` truncating or extending by the instruction type, and memory containers of
//! the next power-of-two bytes, sign- or zero-extended by `st`.
//!
//! Each case moves its inputs from a 32- or 64-bit register into N-bit registers with
//! `cvt` (truncation: the inputs carry random junk above bit N), runs the instruction,
//! and widens the result back with `cvt` by its signedness. Inputs: unary forms see every
//! N-bit value for N <= 16; binary forms every pair for N <= 9, all pairs of a 256-value
//! set (edges and random values) up to 16 bits, edges plus random pairs above.

use super::{sat, sx, wrap};
use crate::case::{Case, Check, Scratch, Ty};
use crate::fp::{self, Fmt, Rnd};
use crate::rng::{mask, Rng};

const F: &str = "int-widths";

/// The widths tested: small ones exhaustively, then across the byte and word boundaries.
const WIDTHS: [u32; 10] = [1, 3, 5, 7, 9, 12, 17, 24, 33, 63];

/// The standard register that carries an N-bit value in and out.
fn reg(w: u32, signed: bool) -> Ty {
    match (w <= 32, signed) {
        (true, true) => Ty::S32,
        (true, false) => Ty::U32,
        (false, true) => Ty::S64,
        (false, false) => Ty::U64,
    }
}

fn tname(w: u32, signed: bool) -> String {
    format!("{}{w}", if signed { "s" } else { "u" })
}

/// The N-bit value `v` (low bits) as a number.
fn num(v: u64, w: u32, signed: bool) -> i128 {
    if signed {
        sx(v & mask(w), w)
    } else {
        (v & mask(w)) as i128
    }
}

/// An N-bit result widened to a register of `bits` by the type's signedness.
fn widen(x: i128, w: u32, signed: bool, bits: u32) -> u64 {
    wrap(num(wrap(x, w), w, signed), bits)
}

/// Random junk above bit `w` of a `bits`-wide register.
fn junk(r: &mut Rng, v: u64, w: u32, bits: u32) -> u64 {
    (v & mask(w)) | (r.next() & mask(bits) & !mask(w))
}

/// Every N-bit value for N <= 16, else edges and random values; with junk above.
fn singles(w: u32, bits: u32, seed: u64) -> Vec<u64> {
    let mut r = Rng::new(seed);
    let base: Vec<u64> = if w <= 16 { (0..1u64 << w).collect() } else { edges(w).into_iter().chain((0..4000).map(|_| r.int(w))).collect() };
    base.into_iter().map(|v| junk(&mut r, v, w, bits)).collect()
}

/// Edge values of an N-bit integer (as bit patterns).
fn edges(w: u32) -> Vec<u64> {
    let m = mask(w);
    let h = 1u64 << (w - 1);
    let mut v = vec![0, 1, 2, 3, 5, m, m.wrapping_sub(1), m.wrapping_sub(2), h, h.wrapping_sub(1), h + 1, h >> 1, w as u64];
    v.iter_mut().for_each(|x| *x &= m);
    v.sort_unstable();
    v.dedup();
    v
}

/// Pairs of N-bit values (see the module documentation), with junk above bit N.
fn pairs(w: u32, bits: u32, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut r = Rng::new(seed);
    let set: Vec<u64> = if w <= 9 {
        (0..1u64 << w).collect()
    } else {
        let mut s = edges(w);
        while s.len() < if w <= 16 { 256 } else { 64 } {
            s.push(r.int(w));
        }
        s
    };
    let (mut a, mut b) = (Vec::new(), Vec::new());
    for &x in &set {
        for &y in &set {
            a.push(junk(&mut r, x, w, bits));
            b.push(junk(&mut r, y, w, bits));
        }
    }
    while w > 16 && a.len() < 8192 {
        let (x, y) = (r.int(w), r.int(w));
        a.push(junk(&mut r, x, w, bits));
        b.push(junk(&mut r, y, w, bits));
    }
    (a, b)
}

/// A case whose body gets `%ra` (and `%rb`) as N-bit copies of `%a` (`%b`) and leaves
/// its N-bit result in `%rx`, widened into `%x`. With `nonzero_b`, a divisor whose N bits
/// are zero (the result is unspecified) gets its low bit set.
fn binary(id: String, op: &str, w: u32, signed: bool, nonzero_b: bool, f: impl Fn(i128, i128) -> i128) -> Case {
    let (t, rt) = (tname(w, signed), reg(w, signed));
    let bits = rt.bits();
    let body = format!("cvt.{t}.{r} %ra, %a;\ncvt.{t}.{r} %rb, %b;\n{op}\ncvt.{r}.{t} %x, %rx;", r = rt.name());
    let (a, mut b) = pairs(w, bits, super::seed(&id));
    if nonzero_b {
        b.iter_mut().filter(|x| **x & mask(w) == 0).for_each(|x| *x |= 1);
    }
    Case::simple(F, body, vec![(rt, a), (rt, b)], rt, move |v| widen(f(num(v[0], w, signed), num(v[1], w, signed)), w, signed, bits))
        .with_id(id)
        .with_decls(format!(".reg .{t} %ra, %rb, %rx;"))
}

fn unary(id: String, op: &str, w: u32, signed: bool, out: Ty, f: impl Fn(i128) -> u64) -> Case {
    let (t, rt) = (tname(w, signed), reg(w, signed));
    let body = format!("cvt.{t}.{r} %ra, %a;\n{op}", r = rt.name());
    let a = singles(w, rt.bits(), super::seed(&id));
    Case::simple(F, body, vec![(rt, a)], out, move |v| f(num(v[0], w, signed))).with_id(id).with_decls(format!(".reg .{t} %ra, %rx;"))
}

/// f32 inputs for conversions to N bits: values up to twice the range (integers, halves
/// for the ties, random fractions), zeros, infinities, NaN, and huge values.
fn floats_around(w: u32, seed: u64) -> Vec<u64> {
    let mut r = Rng::new(seed);
    let top = (1u64 << w.min(62)) as f64;
    let mut v: Vec<u64> = [0.0f32, -0.0, 0.5, -0.5, 1.5, -1.5, 2.5, f32::INFINITY, f32::NEG_INFINITY, f32::NAN, 1e30, -1e30]
        .iter()
        .map(|x| x.to_bits() as u64)
        .collect();
    for k in [-top, -top / 2.0, top / 2.0 - 1.0, top - 1.0, top] {
        for d in [-0.5, 0.0, 0.5] {
            v.push(((k + d) as f32).to_bits() as u64);
        }
    }
    while v.len() < 4096 {
        let x = (r.next() as f64 / u64::MAX as f64 * 4.0 - 2.0) * top;
        let x = if r.below(2) == 0 { x.trunc() + 0.5 } else { x };
        v.push((x as f32).to_bits() as u64);
    }
    v
}

/// The container of an N-bit value in memory and the scratch type whose slots hold it.
fn container(w: u32) -> (u32, Ty) {
    match w {
        0..=8 => (8, Ty::B16),
        9..=16 => (16, Ty::B16),
        17..=32 => (32, Ty::B32),
        _ => (64, Ty::B64),
    }
}

fn memory_cases(w: u32, signed: bool, v: &mut Vec<Case>) {
    let (t, rt) = (tname(w, signed), reg(w, signed));
    let (cbits, sty) = container(w);
    // st: the container gets the value extended by the type; bytes after it are untouched.
    let id = format!("st.{t}");
    let a = singles(w, rt.bits(), super::seed(&id));
    let mut r = Rng::new(super::seed(&id) ^ 1);
    let init: Vec<u64> = a.iter().map(|_| r.next() & sty.mask()).collect();
    let expected: Vec<u64> = a.iter().zip(&init).map(|(&x, &s)| (s & !mask(cbits)) | widen(num(x, w, signed), w, signed, cbits)).collect();
    let body = format!("cvt.{t}.{r} %ra, %a;\nst.global.{t} [%sa], %ra;", r = rt.name());
    let mut c = Case::map(F, id, body, vec![(rt, a)], &[], |_| vec![]).with_decls(format!(".reg .{t} %ra;"));
    c.scratch = Some(Scratch { ty: sty, init, expected, check: Check::Exact });
    v.push(c);
    // ld: the low N bits of the container, extended by the type.
    let id = format!("ld.{t}");
    let mut r = Rng::new(super::seed(&id));
    let init: Vec<u64> = (0..4096).map(|_| r.next() & sty.mask()).chain(edges(w)).collect();
    let body = format!("ld.global.{t} %ra, [%sa];\ncvt.{r}.{t} %x, %ra;", r = rt.name());
    let ins = vec![(rt, init.clone())];
    let bits = rt.bits();
    let mut c = Case::map(F, id, body, ins, &[(rt, Check::Exact)], |_| vec![0]).with_decls(format!(".reg .{t} %ra;"));
    c.outputs[0].expected = init.iter().map(|&s| widen(num(s, w, signed), w, signed, bits)).collect();
    c.scratch = Some(Scratch { ty: sty, expected: init.clone(), init, check: Check::Exact });
    v.push(c);
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for w in WIDTHS {
        for signed in [true, false] {
            let t = tname(w, signed);
            let rt = reg(w, signed);
            let arith: [(&str, fn(i128, i128, u32) -> i128); 8] = [
                ("add", |x, y, _| x + y),
                ("sub", |x, y, _| x - y),
                ("mul.lo", |x, y, _| x * y),
                ("mul.hi", |x, y, w| (x * y) >> w),
                ("min", |x, y, _| x.min(y)),
                ("max", |x, y, _| x.max(y)),
                ("div", |x, y, _| x / y),
                ("rem", |x, y, _| x % y),
            ];
            for (op, f) in arith {
                let id = format!("{op}.{t}");
                let divides = matches!(op, "div" | "rem");
                v.push(binary(id.clone(), &format!("{id} %rx, %ra, %rb;"), w, signed, divides, move |x, y| f(x, y, w)));
            }
            // mad.lo: a * b + b (the third operand reuses %rb to keep two inputs).
            v.push(binary(format!("mad.lo.{t}"), &format!("mad.lo.{t} %rx, %ra, %rb, %rb;"), w, signed, false, |x, y| x * y + y));
            v.push(binary(format!("mad.hi.{t}"), &format!("mad.hi.{t} %rx, %ra, %rb, %rb;"), w, signed, false, move |x, y| ((x * y) >> w) + y));
            // float -> N bits: rounded by the mode, saturated to the range, NaN gives 0.
            for r in [Rnd::Rz, Rnd::Rn] {
                let id = format!("cvt.{}.{t}.f32", r.int_name());
                let body = format!("{id} %rx, %a;\ncvt.{}.{t} %x, %rx;", rt.name());
                let a = floats_around(w, super::seed(&id));
                let bits = rt.bits();
                v.push(
                    Case::simple(F, body, vec![(Ty::F32, a)], rt, move |x| {
                        widen(num(fp::to_int(Fmt::S, x[0], r, signed, w), w, signed), w, signed, bits)
                    })
                    .with_id(id)
                    .with_decls(format!(".reg .{t} %rx;")),
                );
            }
            // Comparisons into a predicate.
            for (cmp, f) in [("lt", (|x, y| x < y) as fn(i128, i128) -> bool), ("ge", |x, y| x >= y)] {
                let id = format!("setp.{cmp}.{t}");
                let body = format!("cvt.{t}.{r} %ra, %a;\ncvt.{t}.{r} %rb, %b;\nsetp.{cmp}.{t} %x, %ra, %rb;", r = rt.name());
                let (a, b) = pairs(w, rt.bits(), super::seed(&id));
                v.push(
                    Case::simple(F, body, vec![(rt, a), (rt, b)], Ty::Pred, move |r| f(num(r[0], w, signed), num(r[1], w, signed)) as u64)
                        .with_id(id)
                        .with_decls(format!(".reg .{t} %ra, %rb;")),
                );
            }
            // shr by a u32 amount around the width: clamped to N.
            {
                let id = format!("shr.{t}");
                let body = format!("cvt.{t}.{r} %ra, %a;\nshr.{t} %rx, %ra, %b;\ncvt.{r}.{t} %x, %rx;", r = rt.name());
                let a = singles(w, rt.bits(), super::seed(&id));
                let mut rng = Rng::new(super::seed(&id) ^ 2);
                let b: Vec<u64> = a.iter().map(|_| if rng.below(8) == 0 { rng.next() & 0xffff_ffff } else { rng.below(w as u64 + 3) }).collect();
                let bits = rt.bits();
                v.push(
                    Case::simple(F, body, vec![(rt, a), (Ty::U32, b)], rt, move |r| {
                        let (x, n) = (num(r[0], w, signed), r[1].min(w as u64) as u32);
                        widen(
                            if n >= w {
                                if x < 0 {
                                    -1
                                } else {
                                    0
                                }
                            } else {
                                x >> n
                            },
                            w,
                            signed,
                            bits,
                        )
                    })
                    .with_id(id)
                    .with_decls(format!(".reg .{t} %ra, %rx;")),
                );
            }
            // cvt with saturation from s32, and to f32.
            {
                let id = format!("cvt.sat.{t}.s32");
                let body = format!("cvt.sat.{t}.s32 %ra, %a;\ncvt.{r}.{t} %x, %ra;", r = rt.name());
                let a = crate::rng::int_pairs(32, 8, 4096, super::seed(&id)).0;
                let bits = rt.bits();
                v.push(
                    Case::simple(F, body, vec![(Ty::S32, a)], rt, move |r| widen(num(sat(sx(r[0], 32), w, signed), w, signed), w, signed, bits))
                        .with_id(id)
                        .with_decls(format!(".reg .{t} %ra;")),
                );
                let id = format!("cvt.rn.f32.{t}");
                v.push(unary(id.clone(), &format!("{id} %x, %ra;"), w, signed, Ty::F32, |x| (x as i64 as f32).to_bits() as u64));
            }
            // Widening to another non-standard width.
            if w + 5 <= 64 {
                let (t2, r64) = (tname(w + 5, signed), reg(64, signed));
                let id = format!("cvt.{t2}.{t}");
                let op = format!("{id} %rx, %ra;\ncvt.{}.{t2} %x, %rx;", r64.name());
                let mut c = unary(id, &op, w, signed, r64, move |x| wrap(x, 64));
                c.decls = format!(".reg .{t} %ra;\n.reg .{t2} %rx;");
                v.push(c);
            }
            // mul.wide: a 2N-bit product.
            if w <= 32 {
                let (t2, r64) = (tname(2 * w, signed), reg(64, signed));
                let id = format!("mul.wide.{t}");
                let body = format!(
                    "cvt.{t}.{r} %ra, %a;\ncvt.{t}.{r} %rb, %b;\nmul.wide.{t} %rw, %ra, %rb;\ncvt.{}.{t2} %x, %rw;",
                    r64.name(),
                    r = rt.name()
                );
                let (a, b) = pairs(w, rt.bits(), super::seed(&id));
                v.push(
                    Case::simple(F, body, vec![(rt, a), (rt, b)], r64, move |r| wrap(num(r[0], w, signed) * num(r[1], w, signed), 64))
                        .with_id(id)
                        .with_decls(format!(".reg .{t} %ra, %rb;\n.reg .{t2} %rw;")),
                );
            }
            if signed {
                let bits = rt.bits();
                for (op, f) in [("abs", (|x: i128| x.abs()) as fn(i128) -> i128), ("neg", |x: i128| -x)] {
                    let id = format!("{op}.{t}");
                    let c = unary(id.clone(), &format!("{id} %rx, %ra;\ncvt.{}.{t} %x, %rx;", rt.name()), w, signed, rt, move |x| {
                        widen(f(x), w, signed, bits)
                    });
                    v.push(c);
                }
            }
            memory_cases(w, signed, &mut v);
        }
        v.extend(bit_cases(w));
    }
    v
}

/// `.bN` logic, shifts, bit counts and selection.
fn bit_cases(w: u32) -> Vec<Case> {
    let mut v = Vec::new();
    let rt = reg(w, false);
    let (r, bits, b) = (rt.name(), rt.bits(), format!("b{w}"));
    let u = tname(w, false);
    let load = |n: &str, reg_in: &str| format!("cvt.{u}.{r} %r{n}, %{reg_in};");
    let store = format!("cvt.{r}.{u} %x, %rx;");
    let logic: [(&str, fn(u64, u64) -> u64); 3] = [("and", |x, y| x & y), ("or", |x, y| x | y), ("xor", |x, y| x ^ y)];
    for (op, f) in logic {
        let id = format!("{op}.{b}");
        let body = format!("{}\n{}\n{id} %rx, %ra, %rb;\n{store}", load("a", "a"), load("b", "b"));
        let (a, bb) = pairs(w, bits, super::seed(&id));
        v.push(
            Case::simple(F, body, vec![(rt, a), (rt, bb)], rt, move |x| f(x[0], x[1]) & mask(w))
                .with_id(id)
                .with_decls(format!(".reg .{b} %ra, %rb, %rx;")),
        );
    }
    let unaries: [(&str, Ty, fn(u64, u32) -> u64); 5] = [
        ("not", rt, |x, w| !x & mask(w)),
        ("cnot", rt, |x, _| (x == 0) as u64),
        ("brev", rt, |x, w| x.reverse_bits() >> (64 - w)),
        ("popc", Ty::U32, |x, _| x.count_ones() as u64),
        ("clz", Ty::U32, |x, w| if x == 0 { w as u64 } else { (w - 1 - (63 - x.leading_zeros())) as u64 }),
    ];
    for (op, out, f) in unaries {
        let id = format!("{op}.{b}");
        let body = if out == Ty::U32 { format!("{}\n{id} %x, %ra;", load("a", "a")) } else { format!("{}\n{id} %rx, %ra;\n{store}", load("a", "a")) };
        let a = singles(w, bits, super::seed(&id));
        v.push(Case::simple(F, body, vec![(rt, a)], out, move |x| f(x[0] & mask(w), w)).with_id(id).with_decls(format!(".reg .{b} %ra, %rx;")));
    }
    let id = format!("mov.{b}");
    let body = format!("{}\nmov.{b} %rx, %ra;\n{store}", load("a", "a"));
    let a = singles(w, bits, super::seed(&id));
    v.push(Case::simple(F, body, vec![(rt, a)], rt, move |x| x[0] & mask(w)).with_id(id).with_decls(format!(".reg .{b} %ra, %rx;")));
    // shl by a u32 amount: 0 from N on.
    let id = format!("shl.{b}");
    let body = format!("{}\nshl.{b} %rx, %ra, %b;\n{store}", load("a", "a"));
    let a = singles(w, bits, super::seed(&id));
    let mut rng = Rng::new(super::seed(&id) ^ 3);
    let n: Vec<u64> = a.iter().map(|_| if rng.below(8) == 0 { rng.next() & 0xffff_ffff } else { rng.below(w as u64 + 3) }).collect();
    v.push(
        Case::simple(F, body, vec![(rt, a), (Ty::U32, n)], rt, move |x| if x[1] >= w as u64 { 0 } else { (x[0] << x[1]) & mask(w) })
            .with_id(id)
            .with_decls(format!(".reg .{b} %ra, %rx;")),
    );
    // selp on a predicate input.
    let id = format!("selp.{b}");
    let body = format!("{}\n{}\nselp.{b} %rx, %ra, %rb, %c;\n{store}", load("a", "a"), load("b", "b"));
    let (a, bb) = pairs(w, bits, super::seed(&id));
    let mut rng = Rng::new(super::seed(&id));
    let c: Vec<u64> = a.iter().map(|_| rng.below(2)).collect();
    v.push(
        Case::simple(F, body, vec![(rt, a), (rt, bb), (Ty::Pred, c)], rt, move |x| if x[2] != 0 { x[0] & mask(w) } else { x[1] & mask(w) })
            .with_id(id)
            .with_decls(format!(".reg .{b} %ra, %rb, %rx;")),
    );
    v
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The reference helpers themselves, on values worked out by hand.
    #[test]
    fn reference_arithmetic() {
        assert_eq!(num(0x1_ffff, 17, true), -1);
        assert_eq!(num(0x1_ffff, 17, false), 0x1_ffff);
        assert_eq!(num(0xffe_0001, 17, true), 1);
        assert_eq!(num(0xfff_0001, 17, true), 0x1_0001 - 0x2_0000);
        // -1 as s17 widened into a 32-bit register by sign; 2^17 - 1 by zero.
        assert_eq!(widen(-1, 17, true, 32), 0xffff_ffff);
        assert_eq!(widen(-1, 17, false, 32), 0x1_ffff);
        // s3: 3 + 1 wraps to -4.
        assert_eq!(widen(3 + 1, 3, true, 32), 0xffff_fffc);
        assert_eq!(container(17), (32, Ty::B32));
        assert_eq!(container(3), (8, Ty::B16));
        assert_eq!(edges(1), vec![0, 1]);
        let (a, b) = pairs(3, 32, 1);
        assert_eq!(a.len(), 64);
        assert!(a.iter().zip(&b).all(|(x, y)| x >> 32 == 0 && y >> 32 == 0));
    }
}
