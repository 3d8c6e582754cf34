//! Video instructions (PTX ISA 9.7.17).
//!
//! - SIMD (9.7.17.2): `vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2` on half-words and the
//!   `4` forms on bytes, with `.sat`, the `.add` accumulate and the merge form, default
//!   and explicit `.asel`/`.bsel` selectors and `d` masks.
//! - Scalar (9.7.17.1): `vadd vsub vabsdiff vmin vmax` with byte/half-word selectors,
//!   `.sat`, secondary `.add/.min/.max` and the data merge into `c`.
//!
//! Expectations follow the ISA's pseudocode: operands extracted and sign- or
//! zero-extended by their own type, the operation exact in `i64`, optional clamp to the
//! destination's (lane/part) range, then the secondary operation. Inputs are words whose
//! bytes are drawn from lane edge values (0, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff) and random
//! bytes, then fully random words.

use crate::case::{Case, Ty};
use crate::rng::Rng;

const F: &str = "video";
const N: usize = 4096;

/// `N` words per input: the first half built from lane edge bytes, the rest random. The
/// same arrays serve every case (the hardware export stores each array once).
fn words(k: usize) -> Vec<(Ty, Vec<u64>)> {
    const EDGE: [u64; 8] = [0, 1, 0x7f, 0x80, 0x81, 0xfe, 0xff, 0x40];
    let mut r = Rng::new(0x71de_0ca5e);
    (0..k)
        .map(|_| {
            let v = (0..N)
                .map(|i| {
                    if i < N / 2 {
                        (0..4).fold(0u64, |w, j| {
                            let byte = if r.below(4) == 0 { r.next() & 0xff } else { EDGE[r.below(8) as usize] };
                            w | byte << (8 * j)
                        })
                    } else {
                        r.next() & 0xffff_ffff
                    }
                })
                .collect();
            (Ty::B32, v)
        })
        .collect()
}

/// Bits `[off, off + w)` of `v`, sign- or zero-extended.
fn ext(v: u64, off: u32, w: u32, signed: bool) -> i64 {
    let x = (v >> off) & ((1u64 << w) - 1);
    if signed && x >> (w - 1) == 1 {
        x as i64 - (1i64 << w)
    } else {
        x as i64
    }
}

/// The primary operation (pseudocode of 9.7.17.1/9.7.17.2).
fn prim(op: &str, a: i64, b: i64) -> i64 {
    match op {
        "add" => a + b,
        "sub" => a - b,
        "absdiff" => (a - b).abs(),
        "min" => a.min(b),
        "max" => a.max(b),
        "avrg" if a + b >= 0 => (a + b + 1) >> 1,
        "avrg" => (a + b) >> 1,
        _ => unreachable!(),
    }
}

fn clamp(t: i64, w: u32, signed: bool) -> i64 {
    if signed {
        t.clamp(-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
    } else {
        t.clamp(0, (1i64 << w) - 1)
    }
}

fn tname(signed: bool) -> &'static str {
    if signed {
        "s32"
    } else {
        "u32"
    }
}

/// The type combinations (dtype, atype, btype) each form is tested with.
const TYPES: [[bool; 3]; 4] = [[false, false, false], [true, true, true], [true, false, true], [false, true, false]];

/// One SIMD form. `dsel`/`asel`/`bsel` are selector texts without the dot (`""`: none).
#[derive(Clone, Copy)]
struct Simd {
    op: &'static str,
    n: u32,
    ty: [bool; 3],
    sat: bool,
    acc: bool,
    dsel: &'static str,
    asel: &'static str,
    bsel: &'static str,
}

/// Lane sources of a SIMD selector (last digit = lane 0).
fn lanes(sel: &str) -> Vec<u32> {
    sel[1..].chars().rev().map(|c| c.to_digit(10).unwrap()).collect()
}

impl Simd {
    fn eval(&self, a: u64, b: u64, c: u64) -> u64 {
        let n = self.n as usize;
        let w = 32 / self.n;
        let (adef, bdef, mdef) = if n == 2 { ("h10", "h32", "h10") } else { ("b3210", "b7654", "b3210") };
        let pick = |s: &'static str, d: &'static str| if s.is_empty() { d } else { s };
        let (asrc, bsrc) = (lanes(pick(self.asel, adef)), lanes(pick(self.bsel, bdef)));
        let mask = lanes(pick(self.dsel, mdef));
        let ab = a | b << 32;
        let lm = (1u64 << w) - 1;
        let mut d = if self.acc { c as i64 } else { 0 };
        for i in 0..n {
            let va = ext(ab, asrc[i] * w, w, self.ty[1]);
            let vb = ext(ab, bsrc[i] * w, w, self.ty[2]);
            let mut t = prim(self.op, va, vb);
            if self.sat {
                t = clamp(t, w, self.ty[0]);
            }
            let on = mask.contains(&(i as u32));
            if self.acc {
                d += if on { t } else { 0 };
            } else {
                let lane = if on { t as u64 & lm } else { (c >> (i as u32 * w)) & lm };
                d |= (lane << (i as u32 * w)) as i64;
            }
        }
        d as u64 & 0xffff_ffff
    }

    fn case(self) -> Case {
        let [d, a, b] = self.ty.map(tname);
        let sel = |s: &str| if s.is_empty() { String::new() } else { format!(".{s}") };
        let name = format!(
            "v{}{}.{d}.{a}.{b}{}{}",
            self.op,
            self.n,
            if self.sat { ".sat" } else { "" },
            if self.acc { ".add" } else { "" }
        );
        let body = format!("{name} %x{}, %a{}, %b{}, %c;", sel(self.dsel), sel(self.asel), sel(self.bsel));
        let id = if self.dsel.is_empty() && self.asel.is_empty() && self.bsel.is_empty() {
            name
        } else {
            format!("{name}#{}.{}.{}", self.dsel, self.asel, self.bsel)
        };
        Case::simple(F, body, words(3), Ty::B32, |r| self.eval(r[0], r[1], r[2])).with_id(id)
    }
}

/// One scalar form: `secop` is `""`, `add`, `min` or `max`; a `dsel` makes it a merge.
#[derive(Clone, Copy)]
struct Scalar {
    op: &'static str,
    ty: [bool; 3],
    sat: bool,
    secop: &'static str,
    dsel: &'static str,
    asel: &'static str,
    bsel: &'static str,
}

/// (offset, width) of a scalar selector.
fn part(sel: &str) -> (u32, u32) {
    match sel.as_bytes().first() {
        None => (0, 32),
        Some(b'b') => (8 * sel[1..].parse::<u32>().unwrap(), 8),
        _ => (16 * sel[1..].parse::<u32>().unwrap(), 16),
    }
}

impl Scalar {
    fn eval(&self, a: u64, b: u64, c: u64) -> u64 {
        let ((ao, aw), (bo, bw), (doff, dw)) = (part(self.asel), part(self.bsel), part(self.dsel));
        let mut t = prim(self.op, ext(a, ao, aw, self.ty[1]), ext(b, bo, bw, self.ty[2]));
        if self.sat {
            t = clamp(t, dw, self.ty[0]);
        }
        let cv = ext(c, 0, 32, self.ty[0]);
        let r = match self.secop {
            "add" => t + cv,
            "min" => t.min(cv),
            "max" => t.max(cv),
            _ if !self.dsel.is_empty() => {
                let fm = ((1u64 << dw) - 1) << doff;
                return (c & !fm | (t as u64) << doff & fm) & 0xffff_ffff;
            }
            _ => t,
        };
        r as u64 & 0xffff_ffff
    }

    fn case(self) -> Case {
        let [d, a, b] = self.ty.map(tname);
        let sel = |s: &str| if s.is_empty() { String::new() } else { format!(".{s}") };
        let name = format!("v{}.{d}.{a}.{b}{}{}", self.op, if self.sat { ".sat" } else { "" }, sel(self.secop));
        let three = self.secop.is_empty() && self.dsel.is_empty();
        let body = format!(
            "{name} %x{}, %a{}, %b{}{};",
            sel(self.dsel),
            sel(self.asel),
            sel(self.bsel),
            if three { "" } else { ", %c" }
        );
        let id = if self.dsel.is_empty() && self.asel.is_empty() && self.bsel.is_empty() {
            name
        } else {
            format!("{name}#{}.{}.{}", self.dsel, self.asel, self.bsel)
        };
        let k = if three { 2 } else { 3 };
        Case::simple(F, body, words(k), Ty::B32, |r| self.eval(r[0], r[1], r.get(2).copied().unwrap_or(0)))
            .with_id(id)
    }
}

const SIMD_OPS: [&str; 6] = ["add", "sub", "avrg", "absdiff", "min", "max"];
const SCALAR_OPS: [&str; 5] = ["add", "sub", "absdiff", "min", "max"];

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    // SIMD: every op, lane count and type combination, plain / .sat / .add.
    for op in SIMD_OPS {
        for n in [2, 4] {
            for ty in TYPES {
                for (sat, acc) in [(false, false), (true, false), (false, true)] {
                    v.push(Simd { op, n, ty, sat, acc, dsel: "", asel: "", bsel: "" }.case());
                }
            }
        }
    }
    // SIMD selectors and masks.
    let sels: [(&str, u32, [bool; 3], bool, bool, &str, &str, &str); 12] = [
        ("add", 2, [true, true, true], false, false, "h1", "h21", "h03"),
        ("sub", 2, [true, true, false], true, false, "h0", "h10", "h32"),
        ("avrg", 2, [false, true, true], false, false, "h10", "h33", "h00"),
        ("absdiff", 2, [false, true, true], false, true, "h0", "h12", "h30"),
        ("min", 2, [true, false, true], false, true, "h1", "h23", "h10"),
        ("max", 2, [false, false, false], true, false, "h10", "h31", "h02"),
        ("add", 4, [false, false, false], true, false, "b31", "b7150", "b0123"),
        ("sub", 4, [true, true, true], false, false, "b20", "b4567", "b3322"),
        ("avrg", 4, [true, false, true], true, false, "b3210", "b0000", "b7777"),
        ("absdiff", 4, [false, false, false], false, true, "b321", "b6420", "b7531"),
        ("min", 4, [true, true, false], false, true, "b0", "b1032", "b5476"),
        ("max", 4, [true, true, true], true, false, "b3", "b3210", "b7654"),
    ];
    for (op, n, ty, sat, acc, dsel, asel, bsel) in sels {
        v.push(Simd { op, n, ty, sat, acc, dsel, asel, bsel }.case());
    }
    // Scalar: every op and type combination, plain and .sat on whole words.
    for op in SCALAR_OPS {
        for ty in TYPES {
            for sat in [false, true] {
                v.push(Scalar { op, ty, sat, secop: "", dsel: "", asel: "", bsel: "" }.case());
            }
        }
    }
    // Scalar: part selectors, secondary operations, data merges.
    for (k, op) in SCALAR_OPS.into_iter().enumerate() {
        let ty = |j: usize| TYPES[(k + j) % 4];
        let forms: [(bool, &str, &str, &str, &str); 8] = [
            (false, "", "", "b1", "h1"),
            (true, "add", "", "h0", "b3"),
            (false, "add", "", "", ""),
            (true, "min", "", "b2", ""),
            (false, "max", "", "", "h0"),
            (true, "", "b2", "b0", "b3"),
            (false, "", "h1", "h1", ""),
            (true, "", "h0", "", "h1"),
        ];
        for (j, (sat, secop, dsel, asel, bsel)) in forms.into_iter().enumerate() {
            v.push(Scalar { op, ty: ty(j), sat, secop, dsel, asel, bsel }.case());
        }
    }
    v
}
