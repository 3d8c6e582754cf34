//! Video instructions (PTX ISA 9.7.17 "Video Instructions").
//!
//! Section numbers are those of PTX ISA 8.x/9.0 (9.7.17; 9.7.18 in later versions).
//!
//! - Scalar video instructions (9.7.17.1 "Scalar Video Instructions": `vadd`, `vsub`,
//!   `vabsdiff`, `vmin`, `vmax`): each source is a byte (`.b0`-`.b3`), half-word
//!   (`.h0`/`.h1`) or the whole word of a 32-bit register, sign- or zero-extended by its
//!   type (`.atype`/`.btype`) to 33 bits; the primary operation is exact (34 bits); `.sat`
//!   clamps to the range of the destination type, narrowed to the byte or half-word a
//!   data merge writes (`optSaturate`); then either a secondary operation with `c`
//!   (`.add`/`.min`/`.max`, `c` read as `.dtype`, `optSecOp`) or a data merge of the
//!   result into `c` at `d`'s selector (`optMerge`). Where the NVIDIA H200 disagrees
//!   (`.sat` of `.u32` results, of shifts and with a merge, the `.h1` merge, what the
//!   secondary `.min`/`.max` compares and how), `video_scalar` and `video_minmax` follow
//!   the hardware and say so (crates/ptx-conformance/hardware-check.md, "Video family"
//!   sections).
//! - SIMD video instructions (9.7.17.2 "SIMD Video Instructions": `vadd2` ... `vmax2`
//!   on half-words, `vadd4` ... `vmax4` on bytes): lane `i` of `a` and of `b` is picked by
//!   `.asel`/`.bsel` from the eight bytes (four half-words) of `{b, a}` (digits written
//!   lane `n-1` first; defaults `.h10`/`.h32` and `.b3210`/`.b7654`), extended by the
//!   operand type; `.sat` clamps each lane to the lane range of `.dtype`; then the
//!   secondary operation: `.add` adds the lanes `d`'s mask selects to `c` (`d = c +
//!   sum t[i]`), the merge form writes the selected lanes and keeps `c`'s others.
//!   `vset2`/`vset4` compare lanes (result 1 or 0, unsigned) the same way.
//! - `vshl`/`vshr` (9.7.17.1 "vshl, vshr"): the unsigned amount `b` clamped to 32
//!   (`.clamp`) or taken mod 32 (`.wrap`); `a` extended by its type, so `vshr` is signed
//!   or unsigned as `.atype` says; then saturation, secondary operation or merge as above.
//! - `vset` (9.7.17.1 "vset"): the comparison's 1 or 0, then secondary operation or
//!   merge; a secondary `.min`/`.max` compares by `.atype` (it has no `.dtype`; the H200
//!   data fit this, see `video_minmax`).
//! - `vmad` (9.7.17.1 "vmad"): see `FnLowerer::vmad`.
//!
//! SIMD lanes are computed in `i64`, the scalar forms in `i128` (a 33-bit value shifted
//! left by 32, or a product plus `c`, needs more than 64 bits); the result is truncated
//! to the 32-bit destination at the end.

use super::func::{FnLowerer, R};
use super::types::{is_signed, Mods};
use crate::ptx::ast::*;

/// The register of an operand and its selector (`%r1.b2` -> `%r1`, `b2`).
fn split(op: &Operand) -> (Operand, Option<&str>) {
    match op {
        Operand::Select { name, sel } => (Operand::Ident { name: name.clone(), component: None }, Some(sel.as_str())),
        o => (o.clone(), None),
    }
}

/// The primary operation of a video opcode without its `v` and lane count (`vabsdiff4`
/// -> `absdiff`).
fn primary(opcode: &str) -> Option<&str> {
    let op = opcode.strip_prefix('v')?.trim_end_matches(['2', '4']);
    matches!(op, "add" | "sub" | "avrg" | "absdiff" | "min" | "max" | "shl" | "shr" | "set").then_some(op)
}

/// Whether `opcode` is a SIMD video instruction (9.7.17.2).
pub(crate) fn is_simd(opcode: &str) -> bool {
    opcode.ends_with(['2', '4']) && matches!(primary(opcode), Some(op) if !matches!(op, "shl" | "shr"))
}

/// Whether `opcode` is a scalar video instruction (9.7.17.1) other than `vmad`.
pub(crate) fn is_scalar(opcode: &str) -> bool {
    !opcode.ends_with(['2', '4']) && matches!(primary(opcode), Some(op) if op != "avrg")
}

/// The lane sources of a SIMD selector (`h10` -> `[0, 1]`, lane 0 last), or an error text.
fn simd_sel(sel: Option<&str>, n: usize, default: &str) -> Result<Vec<u32>, String> {
    let sel = sel.unwrap_or(default);
    let (prefix, max) = if n == 2 { ('h', 4) } else { ('b', 8) };
    let digits = sel.strip_prefix(prefix).filter(|d| d.len() == n).ok_or(format!("invalid selector .{sel}"))?;
    digits.chars().rev().map(|c| c.to_digit(10).filter(|&d| d < max).ok_or(format!("invalid selector .{sel}"))).collect()
}

/// The lanes a SIMD mask on `d` selects (`.h10`, `.b31`, ...; all lanes by default).
fn simd_mask(sel: Option<&str>, n: usize) -> Result<Vec<bool>, String> {
    let Some(sel) = sel else { return Ok(vec![true; n]) };
    let prefix = if n == 2 { 'h' } else { 'b' };
    let digits = sel.strip_prefix(prefix).ok_or(format!("invalid mask .{sel}"))?;
    let mut mask = vec![false; n];
    let mut last = n as u32;
    for c in digits.chars() {
        // Lanes are written in decreasing order, each once.
        match c.to_digit(10) {
            Some(d) if d < last => {
                mask[d as usize] = true;
                last = d;
            }
            _ => return Err(format!("invalid mask .{sel}")),
        }
    }
    Ok(mask)
}

/// A scalar selector: (bit offset, width) of the part `.b0`-`.b3`/`.h0`-`.h1` names.
fn part(sel: Option<&str>) -> Result<(u32, u32), String> {
    match sel {
        None => Ok((0, 32)),
        Some(s) if s.len() != 2 => Err(format!("invalid selector .{s}")),
        Some(s) => match (s.as_bytes()[0], s[1..].parse::<u32>()) {
            (b'b', Ok(k)) if k < 4 => Ok((8 * k, 8)),
            (b'h', Ok(k)) if k < 2 => Ok((16 * k, 16)),
            _ => Err(format!("invalid selector .{s}")),
        },
    }
}

/// The range of a `w`-bit integer.
fn range(w: u32, signed: bool) -> (i64, i64) {
    if signed {
        (-(1i64 << (w - 1)), (1i64 << (w - 1)) - 1)
    } else {
        (0, (1i64 << w) - 1)
    }
}

impl FnLowerer<'_> {
    /// `op` on two values of integer type `it` (`i64` for SIMD lanes, `i128` for the
    /// scalar forms, whose shifts and products need more than 64 bits).
    fn vop(&mut self, it: &str, op: &str, a: &str, b: &str) -> String {
        let t = self.t();
        self.emit(format!("{t} = {op} {it} {a}, {b}"));
        t
    }

    /// `cond(a, b) ? a : b` for an `icmp` predicate.
    fn pick(&mut self, it: &str, pred: &str, a: &str, b: &str) -> String {
        let c = self.t();
        self.emit(format!("{c} = icmp {pred} {it} {a}, {b}"));
        let t = self.t();
        self.emit(format!("{t} = select i1 {c}, {it} {a}, {it} {b}"));
        t
    }

    fn clamp(&mut self, it: &str, v: &str, (lo, hi): (i64, i64)) -> String {
        let v = self.pick(it, "sgt", v, &lo.to_string());
        self.pick(it, "slt", &v, &hi.to_string())
    }

    /// Bits `[off, off + w)` of `v`, sign- or zero-extended to `it`.
    fn field(&mut self, it: &str, v: &str, off: u32, w: u32, signed: bool) -> String {
        let s = self.vop(it, "lshr", v, &off.to_string());
        let t = self.t();
        self.emit(format!("{t} = trunc {it} {s} to i{w}"));
        let e = self.t();
        self.emit(format!("{e} = {} i{w} {t} to {it}", if signed { "sext" } else { "zext" }));
        e
    }

    /// A 32-bit source zero-extended to `it`.
    fn word(&mut self, it: &str, op: &Operand) -> R<String> {
        let v = self.src(op, ScalarType::B(32))?;
        let t = self.t();
        self.emit(format!("{t} = zext i32 {v} to {it}"));
        Ok(t)
    }

    /// The primary operation on two extended values of type `it` (the `switch (vop)` of
    /// the ISA's semantics; shifts per 9.7.17.1 "vshl, vshr", comparisons per "vset").
    fn video_primary(&mut self, it: &str, op: &str, m: &Mods, a: &str, b: &str) -> R<String> {
        Ok(match op {
            "add" => self.vop(it, "add", a, b),
            "sub" => self.vop(it, "sub", a, b),
            "absdiff" => {
                let d = self.vop(it, "sub", a, b);
                let n = self.vop(it, "sub", "0", &d);
                self.pick(it, "sgt", &d, &n)
            }
            "min" => self.pick(it, "slt", a, b),
            "max" => self.pick(it, "sgt", a, b),
            "avrg" => {
                // (a + b + 1) >> 1 for a non-negative sum, (a + b) >> 1 otherwise.
                let s = self.vop(it, "add", a, b);
                let s1 = self.vop(it, "add", &s, "1");
                let up = self.vop(it, "ashr", &s1, "1");
                let down = self.vop(it, "ashr", &s, "1");
                let c = self.t();
                self.emit(format!("{c} = icmp sge {it} {s}, 0"));
                let t = self.t();
                self.emit(format!("{t} = select i1 {c}, {it} {up}, {it} {down}"));
                t
            }
            "shl" | "shr" => {
                // b is unsigned: .clamp limits it to 32, .wrap keeps its low 5 bits.
                let amt = if m.has(".wrap") {
                    self.vop(it, "and", b, "31")
                } else if m.has(".clamp") {
                    self.pick(it, "ult", b, "32")
                } else {
                    return Err(self.err("vshl/vshr need a shift mode (.clamp or .wrap)"));
                };
                // a is extended by its type, so an arithmetic shift right is the signed or
                // the unsigned shift as the type asks.
                self.vop(it, if op == "shl" { "shl" } else { "ashr" }, a, &amt)
            }
            _ => {
                let pred = [(".eq", "eq"), (".ne", "ne"), (".lt", "slt"), (".le", "sle"), (".gt", "sgt"), (".ge", "sge")]
                    .into_iter()
                    .find(|(f, _)| m.has(f))
                    .ok_or_else(|| self.err("vset needs a comparison (.eq .ne .lt .le .gt .ge)"))?
                    .1;
                let c = self.t();
                self.emit(format!("{c} = icmp {pred} {it} {a}, {b}"));
                let t = self.t();
                self.emit(format!("{t} = zext i1 {c} to {it}"));
                t
            }
        })
    }

    /// Signedness of `(d, a, b)`: `.dtype.atype.btype`, each `.u32` or `.s32`; `vset`
    /// has no `.dtype` (its result is unsigned) and the shift amount of `vshl`/`vshr` is
    /// unsigned.
    fn video_types(&self, op: &str, m: &Mods) -> R<[bool; 3]> {
        let ok = |t: &ScalarType| matches!(t, ScalarType::U(32) | ScalarType::S(32));
        let n = if op == "set" { 2 } else { 3 };
        if m.types.len() != n || !m.types.iter().all(ok) {
            return Err(self.err(format!("'v{op}' takes {n} types, each .u32 or .s32")));
        }
        let s: Vec<bool> = m.types.iter().map(|t| is_signed(*t)).collect();
        Ok(match op {
            "set" => [false, s[0], s[1]],
            "shl" | "shr" => [s[0], s[1], false],
            _ => [s[0], s[1], s[2]],
        })
    }

    fn store_word(&mut self, it: &str, d: &Operand, v: &str) -> R<()> {
        let t = self.t();
        self.emit(format!("{t} = trunc {it} {v} to i32"));
        self.dst(d, ScalarType::B(32), &t)
    }

    /// SIMD video instructions (PTX ISA 9.7.17.2): `vop2`/`vop4` (including `vset2`/
    /// `vset4`) with `.sat` or `.add`.
    pub(crate) fn video_simd(&mut self, opcode: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let op = primary(opcode).expect("a video opcode");
        let it = "i64";
        let n = if opcode.ends_with('2') { 2 } else { 4 };
        let w = 32 / n as u32;
        let [ds, as_, bs] = self.video_types(op, m)?;
        let (sat, acc) = (m.has(".sat"), m.has(".add"));
        if sat && (acc || op == "set") {
            return Err(self.err("saturation cannot be used with vset or the secondary accumulate operation"));
        }
        let ops = self.operands(ops, 4)?;
        let ((d, dsel), (a, asel), (b, bsel)) = (split(&ops[0]), split(&ops[1]), split(&ops[2]));
        let (adef, bdef) = if n == 2 { ("h10", "h32") } else { ("b3210", "b7654") };
        let mask = simd_mask(dsel, n).map_err(|e| self.err(e))?;
        let asrc = simd_sel(asel, n, adef).map_err(|e| self.err(e))?;
        let bsrc = simd_sel(bsel, n, bdef).map_err(|e| self.err(e))?;
        let (a, b, c) = (self.word(it, &a)?, self.word(it, &b)?, self.word(it, &ops[3])?);
        let hi = self.vop(it, "shl", &b, "32");
        let ab = self.vop(it, "or", &a, &hi);
        let lane_mask = ((1u64 << w) - 1).to_string();
        let mut out = if acc { c.clone() } else { "0".to_string() };
        for i in 0..n {
            let va = self.field(it, &ab, asrc[i] * w, w, as_);
            let vb = self.field(it, &ab, bsrc[i] * w, w, bs);
            let mut t = self.video_primary(it, op, m, &va, &vb)?;
            if sat {
                t = self.clamp(it, &t, range(w, ds));
            }
            let sh = (i as u32 * w).to_string();
            out = if acc {
                if !mask[i] {
                    continue;
                }
                self.vop(it, "add", &out, &t)
            } else {
                let v = if mask[i] { t } else { self.vop(it, "lshr", &c, &sh) };
                let v = self.vop(it, "and", &v, &lane_mask);
                let v = self.vop(it, "shl", &v, &sh);
                self.vop(it, "or", &out, &v)
            };
        }
        self.store_word(it, &d, &out)
    }

    /// Scalar video instructions (PTX ISA 9.7.17.1): `vadd vsub vabsdiff vmin vmax vshl
    /// vshr vset` with part selectors, `.sat`, a secondary `.add`/`.min`/`.max` or a data
    /// merge into `c`. Computed in i128: `vshl` of a 33-bit value by 32 needs 65 bits.
    pub(crate) fn video_scalar(&mut self, opcode: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let op = primary(opcode).expect("a video opcode");
        let it = "i128";
        let [ds, as_, bs] = self.video_types(op, m)?;
        let ops = self.operands(ops, 3)?;
        let ((d, dsel), (a, asel), (b, bsel)) = (split(&ops[0]), split(&ops[1]), split(&ops[2]));
        let secop = [".add", ".min", ".max"].into_iter().find(|s| m.has(s));
        if (secop.is_some() || dsel.is_some()) && ops.len() < 4 {
            return Err(self.err("a secondary operation or data merge needs operand c"));
        }
        if secop.is_some() && dsel.is_some() {
            return Err(self.err("a data merge cannot have a secondary operation"));
        }
        let (aoff, aw) = part(asel).map_err(|e| self.err(e))?;
        let (boff, bw) = part(bsel).map_err(|e| self.err(e))?;
        let (doff, dw) = part(dsel).map_err(|e| self.err(e))?;
        let (a, b) = (self.word(it, &a)?, self.word(it, &b)?);
        let va = self.field(it, &a, aoff, aw, as_);
        let vb = self.field(it, &b, boff, bw, bs);
        let mut t = self.video_primary(it, op, m, &va, &vb)?;
        let shift = matches!(op, "shl" | "shr");
        let merge = dsel.is_some();
        // `.sat` follows the NVIDIA H200 (driver 580, CUDA 13), not the ISA's clamp to
        // the destination range (crates/ptx-conformance/hardware-check.md, "video"):
        // - vshl/vshr: the shifted value wraps to 34 bits (vshl), then is clamped to the
        //   whole word's range of `.dtype`, with or without a data merge;
        // - other ops with a data merge: a negative result gives the field's maximum
        //   (0x7f/0x7fff signed, 0xff/0xffff unsigned), a positive one is clamped to it;
        // - a whole-word `.u32` result: negative gives 0, above 0xffffffff wraps;
        // - a whole-word `.s32` result: as the ISA says.
        if m.has(".sat") {
            t = if shift || (!merge && ds) {
                // H200: vshl's value is kept to 34 bits (two's complement) before the
                // clamp (`vshl.s32.s32.u32.sat.clamp 0x014001fe, 32` = 0x80000000).
                let t = if op == "shl" { self.field(it, &t, 0, 34, true) } else { t };
                self.clamp(it, &t, range(32, ds))
            } else {
                let neg = self.t();
                self.emit(format!("{neg} = icmp slt {it} {t}, 0"));
                let (lo_val, pos) = if merge {
                    let hi = range(dw, ds).1.to_string();
                    (hi.clone(), self.pick(it, "slt", &t, &hi))
                } else {
                    ("0".to_string(), self.vop(it, "and", &t, "4294967295"))
                };
                let r = self.t();
                self.emit(format!("{r} = select i1 {neg}, {it} {lo_val}, {it} {pos}"));
                r
            };
        }
        if let Some(s) = secop {
            let c = self.word(it, &ops[3])?;
            t = if s == ".add" {
                // The sum's low 32 bits do not depend on how t or c are extended.
                self.vop(it, "add", &t, &c)
            } else {
                self.video_minmax(op, s == ".max", if op == "set" { as_ } else { ds }, &t, &c)
            };
        } else if let Some(sel) = dsel {
            let c = self.word(it, &ops[3])?;
            let fmask = ((1u64 << dw) - 1) << doff;
            let keep = self.vop(it, "and", &c, &(!fmask & 0xffff_ffff).to_string());
            // H200: a `.h1` merge writes bits 16-31 of the result in place; byte and
            // `.h0` merges write the result's low part (as the ISA says).
            let v = if sel == "h1" { t } else { self.vop(it, "shl", &t, &doff.to_string()) };
            let v = self.vop(it, "and", &v, &fmask.to_string());
            t = self.vop(it, "or", &keep, &v);
        }
        self.store_word(it, &d, &t)
    }

    /// The secondary `.min`/`.max` of a scalar video instruction (9.7.17.1,
    /// `optSecondaryOp`) as the NVIDIA H200 computes it, not as the ISA's pseudocode
    /// says (crates/ptx-conformance/hardware-check.md, "Video family (third H200 run
    /// data)"): the value compared is, for `vadd`/`vsub`, the result `t` wrapped to 32
    /// bits and sign-extended from bit 31 whatever `.dtype` says, for the other
    /// operations the exact result kept to 64 bits; the comparison is signed, with `c`
    /// (zero-extended to i128 in `c`) sign-extended, when `signed` (the first type:
    /// `.dtype`, `.atype` for `vset`), else unsigned over 64 bits with `c` zero-extended.
    /// E.g. `vadd.u32.u32.u32.max 0x40400180, b.h0 = 0x817f, c = 0xfe7fb49f` = c (the
    /// sum 0x404082ff has bit 31 clear and c is larger) but `0x80008080, b.h0 = 0x40,
    /// c = 0xfe404081` = 0x800080c0 (bit 31 set: above every c). Returns the winner,
    /// whose low 32 bits are those of `t` or `c`.
    fn video_minmax(&mut self, op: &str, max: bool, signed: bool, t: &str, c: &str) -> String {
        let it = "i128";
        let key = if matches!(op, "add" | "sub") { self.field(it, t, 0, 32, true) } else { self.field(it, t, 0, 64, true) };
        let (key, c) = if signed {
            (key, self.field(it, c, 0, 32, true))
        } else {
            // Unsigned over 64 bits: the key's low 64 bits, zero-extended.
            (self.field(it, &key, 0, 64, false), c.to_string())
        };
        self.pick(it, if max { "sge" } else { "sle" }, &key, &c)
    }

    /// `vmad` (PTX ISA 9.7.17.1 "vmad"): `(a * b) + c` on part-selected operands, with
    /// operand negation (`-a`/`-b` negate the product, `-c` the addend; not both),
    /// `.po` (plus one, no negation), `.shr7`/`.shr15` scaling and `.sat`. Following the
    /// ISA's pseudocode: the final result is signed when `.atype` or `.btype` is or
    /// anything is negated; a negation is a bitwise not plus one (of the 128-bit product,
    /// or of the 32-bit `c` before its extension); `c` is sign-extended when the result
    /// is signed; the scaled 128-bit sum keeps 64 bits, extended by the result's sign,
    /// and `.sat` clamps to the 32-bit range of that sign. Where the NVIDIA H200 differs
    /// (how `a`, `b` and `c` are extended, the shift of a `.u32` result) the code follows
    /// the hardware and says so below.
    pub(crate) fn vmad(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let it = "i128";
        let [_, as_, bs] = self.video_types("mad", m)?;
        let ops = self.operands(ops, 4)?;
        let unneg = |o: &Operand| match o {
            Operand::Neg(inner) => (true, (**inner).clone()),
            o => (false, o.clone()),
        };
        let ((na, a), (nb, b), (nc, c)) = (unneg(&ops[1]), unneg(&ops[2]), unneg(&ops[3]));
        let ((d, dsel), (a, asel), (b, bsel)) = (split(&ops[0]), split(&a), split(&b));
        if dsel.is_some() {
            return Err(self.err("vmad has no destination selector"));
        }
        let negp = na ^ nb;
        if (na || nb || nc) && m.has(".po") {
            return Err(self.err("vmad.po takes no negated operands"));
        }
        if negp && nc {
            return Err(self.err("vmad negates either the product or c, not both"));
        }
        let (aoff, aw) = part(asel).map_err(|e| self.err(e))?;
        let (boff, bw) = part(bsel).map_err(|e| self.err(e))?;
        let signed = as_ || bs || negp || nc;
        let (a, b, c) = (self.word(it, &a)?, self.word(it, &b)?, self.word(it, &c)?);
        // NVIDIA H200 (driver 580, CUDA 13), not the ISA's pseudocode (see
        // crates/ptx-conformance/hardware-check.md, "Video family", rule 8): a whole-word
        // `a` or `b` is read as signed whatever its type (a selected part by its type),
        // and `c` always as signed; e.g. `vmad.u32.u32.u32.shr7 0xe5fe0000, 0x19008001,
        // 0xfe0000ff` = 0xfdc7fc01 (the ISA: 0x01c7fc01).
        let va = self.field(it, &a, aoff, aw, as_ || asel.is_none());
        let vb = self.field(it, &b, boff, bw, bs || bsel.is_none());
        let mut p = self.vop(it, "mul", &va, &vb);
        let c = if nc { self.vop(it, "xor", &c, "4294967295") } else { c };
        if negp {
            p = self.vop(it, "xor", &p, "-1");
        }
        let c = self.field(it, &c, 0, 32, true);
        let mut t = self.vop(it, "add", &p, &c);
        if m.has(".po") || negp || nc {
            t = self.vop(it, "add", &t, "1");
        }
        let scale = if m.has(".shr7") {
            7
        } else if m.has(".shr15") {
            15
        } else {
            0
        };
        // H200: the sum is kept to 64 bits, then shifted arithmetically for an `.s32`
        // result and logically (as a 64-bit unsigned value) for `.u32`; without a shift,
        // `.sat` of a `.u32` result reads the 64-bit sum as signed (negative gives 0).
        let t = self.field(it, &t, 0, 64, signed || scale == 0);
        let t = self.vop(it, "ashr", &t, &scale.to_string());
        let t = if m.has(".sat") { self.clamp(it, &t, range(32, signed)) } else { t };
        self.store_word(it, &d, &t)
    }
}
