//! Video instructions (PTX ISA 9.7.17).
//!
//! - SIMD (9.7.17.2): `vadd2 vsub2 vavrg2 vabsdiff2 vmin2 vmax2` on half-words and the
//!   `4` forms on bytes, with `.sat`, the `.add` accumulate and the merge form, default
//!   and explicit `.asel`/`.bsel` selectors and `d` masks.
//! - Scalar (9.7.17.1): `vadd vsub vabsdiff vmin vmax` with byte/half-word selectors,
//!   `.sat`, secondary `.add/.min/.max` and the data merge into `c`; `vshl`/`vshr`
//!   (`.clamp`/`.wrap`, amounts 0-40 and random), `vset` (six comparisons) and the SIMD
//!   `vset2`/`vset4`; `vmad` (`.po`, `.shr7`/`.shr15`, `.sat`, selectors, negated
//!   product or addend).
//!
//! Expectations follow the ISA's pseudocode: operands extracted and sign- or
//! zero-extended by their own type, the operation exact in `i64`, optional clamp to the
//! destination's (lane/part) range, then the secondary operation; except where the
//! NVIDIA H200 showed otherwise for the scalar forms (`.sat` of `.u32` results, of shifts
//! and with a data merge, the `.h1` merge, the secondary `.min`/`.max`): those follow the
//! hardware (`Scalar::eval`, `minmax_secondary`; hardware-check.md, "Video family"
//! sections). A few forms (`secondary_probes`) only tell apart readings of the hardware's
//! rule that its recorded outputs fit equally. Inputs are words whose
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

/// Shift amounts: every amount 0-40 (with random upper bytes every other time, which a
/// byte or half-word selector drops), then random words.
fn amounts() -> Vec<u64> {
    let mut r = Rng::new(0x5_41f7);
    (0..N)
        .map(|i| {
            let x = (i % 41) as u64;
            match i % 4 {
                _ if i >= N / 2 => r.next() & 0xffff_ffff,
                0 | 1 => x | x << 8 | x << 16 | x << 24,
                2 => x | (r.next() & 0xffff_ff00),
                _ => x << 16 | (r.next() & 0xff00_ffff),
            }
        })
        .collect()
}

/// Bits `[off, off + w)` of `v`, sign- or zero-extended.
fn ext(v: u64, off: u32, w: u32, signed: bool) -> i128 {
    let x = (v >> off) & ((1u64 << w) - 1);
    if signed && x >> (w - 1) == 1 {
        x as i128 - (1i128 << w)
    } else {
        x as i128
    }
}

/// The primary operation (pseudocode of 9.7.17.1/9.7.17.2); `mode` is the shift mode
/// (`clamp`/`wrap`) or the comparison of `vset`.
fn prim(op: &str, mode: &str, a: i128, b: i128) -> i128 {
    let amount = || if mode == "wrap" { b & 31 } else { b.min(32) };
    match op {
        "shl" => a << amount(),
        "shr" => a >> amount(),
        "set" => {
            let r = match mode {
                "eq" => a == b,
                "ne" => a != b,
                "lt" => a < b,
                "le" => a <= b,
                "gt" => a > b,
                _ => a >= b,
            };
            r as i128
        }
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

fn clamp(t: i128, w: u32, signed: bool) -> i128 {
    if signed {
        t.clamp(-(1i128 << (w - 1)), (1i128 << (w - 1)) - 1)
    } else {
        t.clamp(0, (1i128 << w) - 1)
    }
}

/// The type suffixes of a form: `vset` has no `.dtype`.
fn types(op: &str, ty: [bool; 3]) -> String {
    let [d, a, b] = ty.map(tname);
    if op == "set" {
        format!("{a}.{b}")
    } else {
        format!("{d}.{a}.{b}")
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
    /// The comparison of `vset2`/`vset4` (`""` otherwise).
    mode: &'static str,
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
        let mut d = if self.acc { c as i128 } else { 0 };
        for i in 0..n {
            let va = ext(ab, asrc[i] * w, w, self.ty[1]);
            let vb = ext(ab, bsrc[i] * w, w, self.ty[2]);
            let mut t = prim(self.op, self.mode, va, vb);
            if self.sat {
                t = clamp(t, w, self.ty[0]);
            }
            let on = mask.contains(&(i as u32));
            if self.acc {
                d += if on { t } else { 0 };
            } else {
                let lane = if on { t as u64 & lm } else { (c >> (i as u32 * w)) & lm };
                d |= (lane << (i as u32 * w)) as i128;
            }
        }
        d as u64 & 0xffff_ffff
    }

    fn case(self) -> Case {
        let sel = |s: &str| if s.is_empty() { String::new() } else { format!(".{s}") };
        let name = format!(
            "v{}{}.{}{}{}{}",
            self.op,
            self.n,
            types(self.op, self.ty),
            if self.sat { ".sat" } else { "" },
            sel(self.mode),
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
    /// The shift mode of `vshl`/`vshr` or the comparison of `vset` (`""` otherwise).
    mode: &'static str,
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

/// The secondary `.min`/`.max` of a scalar form (9.7.17.1, `optSecondaryOp`) as the
/// H200 computes it (hardware-check.md, "Video family (third H200 run data)"), where
/// `t` is the exact (or saturated) primary result:
/// - the value compared is, for `vadd`/`vsub`, the result wrapped to 32 bits and
///   sign-extended from bit 31 whatever `.dtype` says; for the other operations the
///   exact result kept to 64 bits (two's complement);
/// - the comparison is signed with `c` sign-extended when the instruction's first type
///   (`.dtype`; `.atype` for `vset`, which has none) is `.s32`, and unsigned over 64
///   bits with `c` zero-extended when it is `.u32`; so a `vadd.u32` result with bit 31
///   set, or a negative `vmin.u32` result, is above every `c`.
///
/// The destination gets the low 32 bits of whichever of `t` and `c` wins.
fn minmax_secondary(op: &str, secop: &str, ty: [bool; 3], t: i128, c: u64) -> u64 {
    let key = if matches!(op, "add" | "sub") { ext(t as u64, 0, 32, true) as i64 } else { t as i64 };
    let signed = if op == "set" { ty[1] } else { ty[0] };
    let t_wins = if signed {
        let c = ext(c, 0, 32, true) as i64;
        if secop == "max" {
            key >= c
        } else {
            key <= c
        }
    } else {
        let key = key as u64;
        if secop == "max" {
            key >= c
        } else {
            key <= c
        }
    };
    if t_wins {
        t as u64 & 0xffff_ffff
    } else {
        c
    }
}

impl Scalar {
    fn eval(&self, a: u64, b: u64, c: u64) -> u64 {
        let ((ao, aw), (bo, bw), (doff, dw)) = (part(self.asel), part(self.bsel), part(self.dsel));
        let shift = matches!(self.op, "shl" | "shr");
        let merge = !self.dsel.is_empty();
        let mut t = prim(self.op, self.mode, ext(a, ao, aw, self.ty[1]), ext(b, bo, bw, self.ty[2]));
        // `.sat` as the H200 (driver 580, CUDA 13) computes it, which differs from the
        // ISA's clamp to the destination range (see hardware-check.md, "video"):
        // - vshl/vshr: the shifted value wraps to 34 bits (vshl), then is clamped to the
        //   whole word's range of `.dtype`, with or without a data merge (a merge then
        //   takes the clamped word's low part, or bits 16-31 for `.h1`);
        // - other ops with a data merge: a negative result gives the field's maximum
        //   (0x7f/0x7fff signed, 0xff/0xffff unsigned), a positive one is clamped to it;
        // - a whole-word .u32 result: negative gives 0, above 0xffffffff wraps.
        if self.sat {
            t = if shift {
                // H200: vshl's value is kept to 34 bits (two's complement) before the
                // clamp: `vshl.s32.s32.u32.sat.clamp 0x014001fe, 32` = 0x80000000
                // (bits 33-32 = 0b10, negative), `0x80fe0001, 32` = 0x7fffffff; with
                // a merge, `vshl.s32.s32.u32.sat.wrap %x.b3, %a.h0` of 0x01fc by 24
                // writes 0xff (0x1fc000000 clamps to 0x7fffffff).
                let t = if self.op == "shl" { ext(t as u64, 0, 34, true) } else { t };
                clamp(t, 32, self.ty[0])
            } else if merge {
                let hi = clamp(i128::MAX, dw, self.ty[0]);
                if t < 0 {
                    hi
                } else {
                    t.min(hi)
                }
            } else if !self.ty[0] {
                if t < 0 {
                    0
                } else {
                    t & 0xffff_ffff
                }
            } else {
                clamp(t, 32, true)
            };
        }
        if matches!(self.secop, "min" | "max") {
            return minmax_secondary(self.op, self.secop, self.ty, t, c);
        }
        let r = match self.secop {
            // The sum's low 32 bits do not depend on how t or c are extended.
            "add" => t + c as i128,
            _ if merge => {
                let fm = ((1u64 << dw) - 1) << doff;
                // H200: a `.h1` merge takes bits 16-31 of the result in place; byte and
                // `.h0` merges take the result's low part (as the ISA says).
                let v = if self.dsel == "h1" { t as u64 & fm } else { (t as u64) << doff & fm };
                return (c & !fm | v) & 0xffff_ffff;
            }
            _ => t,
        };
        r as u64 & 0xffff_ffff
    }

    fn case(self) -> Case {
        let sel = |s: &str| if s.is_empty() { String::new() } else { format!(".{s}") };
        let name = format!("v{}.{}{}{}{}", self.op, types(self.op, self.ty), if self.sat { ".sat" } else { "" }, sel(self.mode), sel(self.secop));
        let three = self.secop.is_empty() && self.dsel.is_empty();
        let body = format!("{name} %x{}, %a{}, %b{}{};", sel(self.dsel), sel(self.asel), sel(self.bsel), if three { "" } else { ", %c" });
        let id = if self.dsel.is_empty() && self.asel.is_empty() && self.bsel.is_empty() {
            name
        } else {
            format!("{name}#{}.{}.{}", self.dsel, self.asel, self.bsel)
        };
        let mut ins = words(if three { 2 } else { 3 });
        if matches!(self.op, "shl" | "shr") {
            ins[1] = (Ty::B32, amounts());
        }
        Case::simple(F, body, ins, Ty::B32, |r| self.eval(r[0], r[1], r.get(2).copied().unwrap_or(0))).with_id(id)
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
                    v.push(Simd { op, mode: "", n, ty, sat, acc, dsel: "", asel: "", bsel: "" }.case());
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
        v.push(Simd { op, mode: "", n, ty, sat, acc, dsel, asel, bsel }.case());
    }
    // Scalar: every op and type combination, plain and .sat on whole words.
    for op in SCALAR_OPS {
        for ty in TYPES {
            for sat in [false, true] {
                v.push(Scalar { op, mode: "", ty, sat, secop: "", dsel: "", asel: "", bsel: "" }.case());
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
            v.push(Scalar { op, mode: "", ty: ty(j), sat, secop, dsel, asel, bsel }.case());
        }
    }
    shifts_and_compares(&mut v);
    secondary_probes(&mut v);
    v.extend(vmad_cases());
    v
}

/// Scalar forms with a secondary `.min`/`.max` that tell apart readings of the H200's
/// rule (`minmax_secondary`) which the recorded outputs so far fit equally
/// (hardware-check.md, "Video family (third H200 run data)"): whether `vset` compares
/// by `.atype` or by the operation (`.max` signed, `.min` unsigned); whether `vabsdiff`,
/// `vmin` and `vmax` compare the exact result rather than the 32-bit one as
/// `vadd`/`vsub` do; whether `vsub.u32`'s wrapped result with bit 31 set is above every
/// `c`; whether vshl's compared value is kept to 64 bits.
fn secondary_probes(v: &mut Vec<Case>) {
    const U: [bool; 3] = [false, false, false];
    let probes: [(&str, &str, [bool; 3], &str); 7] = [
        ("set", "lt", U, "max"),
        ("set", "lt", [false, true, true], "min"),
        ("absdiff", "", U, "max"),
        ("sub", "", U, "max"),
        ("min", "", U, "min"),
        ("max", "", [true, false, false], "max"),
        ("shl", "clamp", [true, false, false], "max"),
    ];
    for (op, mode, ty, secop) in probes {
        v.push(Scalar { op, mode, ty, sat: false, secop, dsel: "", asel: "", bsel: "" }.case());
    }
}

/// `vshl`/`vshr` (9.7.17.1 "vshl, vshr"), `vset` (9.7.17.1 "vset"), `vset2`/`vset4`
/// (9.7.17.2 "vset2", "vset4").
fn shifts_and_compares(v: &mut Vec<Case>) {
    const DA: [[bool; 3]; 4] = [[false, false, false], [true, true, false], [false, true, false], [true, false, false]];
    for op in ["shl", "shr"] {
        for ty in DA {
            for mode in ["clamp", "wrap"] {
                v.push(Scalar { op, mode, ty, sat: false, secop: "", dsel: "", asel: "", bsel: "" }.case());
            }
            v.push(Scalar { op, mode: "clamp", ty, sat: true, secop: "", dsel: "", asel: "", bsel: "" }.case());
        }
        let forms: [(&str, [bool; 3], bool, &str, &str, &str, &str); 6] = [
            ("wrap", DA[1], true, "add", "", "b1", "b0"),
            ("clamp", DA[2], false, "min", "", "h1", "h0"),
            ("clamp", DA[0], true, "", "h1", "b2", "b3"),
            ("wrap", DA[3], false, "max", "", "", "h1"),
            ("wrap", DA[1], true, "", "b3", "h0", ""),
            ("clamp", DA[3], false, "", "b0", "", "b2"),
        ];
        for (mode, ty, sat, secop, dsel, asel, bsel) in forms {
            v.push(Scalar { op, mode, ty, sat, secop, dsel, asel, bsel }.case());
        }
    }
    const CMPS: [&str; 6] = ["eq", "ne", "lt", "le", "gt", "ge"];
    for (k, mode) in CMPS.into_iter().enumerate() {
        for ty in TYPES {
            v.push(Scalar { op: "set", mode, ty, sat: false, secop: "", dsel: "", asel: "", bsel: "" }.case());
        }
        let ty = TYPES[k % 4];
        let forms: [(&str, &str, &str, &str); 4] =
            [("", "", "b1", "b1"), ("add", "", "h0", "h1"), (["min", "max"][k % 2], "", "b3", ""), ("", ["b2", "h1"][k % 2], "h1", "b0")];
        for (secop, dsel, asel, bsel) in forms {
            v.push(Scalar { op: "set", mode, ty, sat: false, secop, dsel, asel, bsel }.case());
        }
        for n in [2, 4] {
            for (j, acc) in [false, true].into_iter().enumerate() {
                let ty = TYPES[(k + j + n as usize) % 4];
                v.push(Simd { op: "set", mode, n, ty, sat: false, acc, dsel: "", asel: "", bsel: "" }.case());
            }
        }
    }
    let sels: [(u32, &str, bool, &str, &str, &str); 4] = [
        (2, "lt", false, "h1", "h30", "h12"),
        (2, "ne", true, "h0", "h22", "h11"),
        (4, "ge", false, "b31", "b7654", "b3210"),
        (4, "eq", true, "b210", "b0123", "b4444"),
    ];
    for (n, mode, acc, dsel, asel, bsel) in sels {
        v.push(Simd { op: "set", mode, n, ty: TYPES[2], sat: false, acc, dsel, asel, bsel }.case());
    }
}

/// `vmad` (9.7.17.1 "vmad"), with the operand reading and shift the H200 showed (see the
/// closure below): `(a * b) + c (+ 1 for .po)`, signed when either source is
/// or anything is negated; a negated product is `!p + 1` (128 bits), a negated `c` is
/// `!c` (32 bits) then `+ 1`; `c` extended by the result's sign; the sum shifted right by
/// the scale, kept to 64 bits and extended by that sign; `.sat` to the 32-bit range of
/// that sign.
fn vmad_cases() -> Vec<Case> {
    let mut v = Vec::new();
    // (po, scale, sat, asel, bsel, negate a, b, c)
    type Form = (bool, u32, bool, &'static str, &'static str, [bool; 3]);
    const NO: [bool; 3] = [false; 3];
    let forms: [Form; 14] = [
        (false, 0, false, "", "", NO),
        (true, 0, false, "", "", NO),
        (false, 7, false, "", "", NO),
        (false, 15, true, "", "", NO),
        (false, 0, true, "", "", NO),
        (true, 15, false, "h0", "h1", NO),
        (false, 7, true, "b1", "b3", NO),
        (true, 0, true, "h1", "b0", NO),
        (false, 0, false, "", "", [true, false, false]),
        (false, 0, true, "", "h1", [false, true, false]),
        (false, 0, false, "", "", [true, true, false]),
        (false, 0, false, "", "", [false, false, true]),
        (false, 15, true, "h0", "", [true, false, false]),
        (false, 7, true, "", "b2", [false, false, true]),
    ];
    for ab in [[false, false], [true, true], [false, true], [true, false]] {
        for (po, scale, sat, asel, bsel, neg) in forms {
            let negp = neg[0] ^ neg[1];
            let signed = ab[0] || ab[1] || negp || neg[2];
            let ty = [signed, ab[0], ab[1]];
            let sel = |s: &str| if s.is_empty() { String::new() } else { format!(".{s}") };
            let minus = |n: bool| if n { "-" } else { "" };
            let name = format!(
                "vmad.{}{}{}{}",
                types("mad", ty),
                if po { ".po" } else { "" },
                if sat { ".sat" } else { "" },
                if scale > 0 { format!(".shr{scale}") } else { String::new() }
            );
            let body = format!("{name} %x, {}%a{}, {}%b{}, {}%c;", minus(neg[0]), sel(asel), minus(neg[1]), sel(bsel), minus(neg[2]));
            let id = if asel.is_empty() && bsel.is_empty() && neg == NO {
                name
            } else {
                format!("{name}#{}{asel}.{}{bsel}.{}c", minus(neg[0]), minus(neg[1]), minus(neg[2]))
            };
            let ((ao, aw), (bo, bw)) = (part(asel), part(bsel));
            v.push(
                Case::simple(F, body, words(3), Ty::B32, move |r| {
                    // As the H200 computes it (hardware-check.md, "Video family", rule
                    // 8), not the ISA: a whole-word `a` or `b` is read as signed whatever
                    // its type (selected parts by their type), `c` always as signed; the
                    // sum is kept to 64 bits, shifted arithmetically for an `.s32` result
                    // and logically (as a 64-bit unsigned value) for `.u32`; without a
                    // shift a `.u32` result's 64-bit sum is read as signed for `.sat`.
                    let p = ext(r[0], ao, aw, ab[0] || asel.is_empty()) * ext(r[1], bo, bw, ab[1] || bsel.is_empty());
                    let p = if negp { !p } else { p };
                    let c = if neg[2] { !r[2] & 0xffff_ffff } else { r[2] };
                    let lsb = (po || negp || neg[2]) as i128;
                    let t = (p + ext(c, 0, 32, true) + lsb) as u64;
                    let t = if signed || scale == 0 { (t as i64 >> scale) as i128 } else { (t >> scale) as i128 };
                    let t = if sat { clamp(t, 32, signed) } else { t };
                    t as u64 & 0xffff_ffff
                })
                .with_id(id),
            );
        }
    }
    v
}
