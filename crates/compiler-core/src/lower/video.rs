//! Video instructions (PTX ISA 9.7.17 "Video Instructions").
//!
//! - Scalar video instructions (9.7.17.1 "Scalar Video Instructions": `vadd`, `vsub`,
//!   `vabsdiff`, `vmin`, `vmax`): each source is a byte (`.b0`-`.b3`), half-word
//!   (`.h0`/`.h1`) or the whole word of a 32-bit register, sign- or zero-extended by its
//!   type (`.atype`/`.btype`) to 33 bits; the primary operation is exact (34 bits); `.sat`
//!   clamps to the range of the destination type, narrowed to the byte or half-word a
//!   data merge writes (`optSaturate`); then either a secondary operation with `c`
//!   (`.add`/`.min`/`.max`, `c` read as `.dtype`, `optSecOp`) or a data merge of the
//!   result into `c` at `d`'s selector (`optMerge`).
//! - SIMD video instructions (9.7.17.2 "SIMD Video Instructions": `vadd2` ... `vmax2`
//!   on half-words, `vadd4` ... `vmax4` on bytes): lane `i` of `a` and of `b` is picked by
//!   `.asel`/`.bsel` from the eight bytes (four half-words) of `{b, a}` (digits written
//!   lane `n-1` first; defaults `.h10`/`.h32` and `.b3210`/`.b7654`), extended by the
//!   operand type; `.sat` clamps each lane to the lane range of `.dtype`; then the
//!   secondary operation: `.add` adds the lanes `d`'s mask selects to `c` (`d = c +
//!   sum t[i]`), the merge form writes the selected lanes and keeps `c`'s others.
//!
//! Everything is computed in `i64` (wide enough for every intermediate) and truncated to
//! the 32-bit destination at the end.

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

/// The primary operation of a video opcode without its `v` and lane count.
fn primary(opcode: &str) -> Option<&str> {
    let op = opcode.strip_prefix('v')?.trim_end_matches(['2', '4']);
    matches!(op, "add" | "sub" | "avrg" | "absdiff" | "min" | "max").then_some(op)
}

/// Whether `opcode` is a video instruction lowered here.
pub(crate) fn is_video(opcode: &str) -> bool {
    match primary(opcode) {
        Some("avrg") => opcode.ends_with(['2', '4']),
        Some(_) => true,
        None => false,
    }
}

/// The lane sources of a SIMD selector (`h10` -> `[0, 1]`, lane 0 last), or an error text.
fn simd_sel(sel: Option<&str>, n: usize, default: &str) -> Result<Vec<u32>, String> {
    let sel = sel.unwrap_or(default);
    let (prefix, max) = if n == 2 { ('h', 4) } else { ('b', 8) };
    let digits = sel.strip_prefix(prefix).filter(|d| d.len() == n).ok_or(format!("invalid selector .{sel}"))?;
    digits
        .chars()
        .rev()
        .map(|c| c.to_digit(10).filter(|&d| d < max).ok_or(format!("invalid selector .{sel}")))
        .collect()
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
    fn v64(&mut self, op: &str, a: &str, b: &str) -> String {
        let t = self.t();
        self.emit(format!("{t} = {op} i64 {a}, {b}"));
        t
    }

    /// `cond(a, b) ? a : b` for an `icmp` predicate.
    fn pick(&mut self, pred: &str, a: &str, b: &str) -> String {
        let c = self.t();
        self.emit(format!("{c} = icmp {pred} i64 {a}, {b}"));
        let t = self.t();
        self.emit(format!("{t} = select i1 {c}, i64 {a}, i64 {b}"));
        t
    }

    fn clamp(&mut self, v: &str, (lo, hi): (i64, i64)) -> String {
        let v = self.pick("sgt", v, &lo.to_string());
        self.pick("slt", &v, &hi.to_string())
    }

    /// Bits `[off, off + w)` of the i64 `v`, sign- or zero-extended to i64.
    fn field(&mut self, v: &str, off: u32, w: u32, signed: bool) -> String {
        let s = self.v64("lshr", v, &off.to_string());
        let t = self.t();
        self.emit(format!("{t} = trunc i64 {s} to i{w}"));
        let e = self.t();
        self.emit(format!("{e} = {} i{w} {t} to i64", if signed { "sext" } else { "zext" }));
        e
    }

    /// A 32-bit source as i64 (zero-extended).
    fn word(&mut self, op: &Operand) -> R<String> {
        let v = self.src(op, ScalarType::B(32))?;
        let t = self.t();
        self.emit(format!("{t} = zext i32 {v} to i64"));
        Ok(t)
    }

    /// The primary operation on two extended values (PTX ISA 9.7.17.1/9.7.17.2 semantics).
    fn video_primary(&mut self, op: &str, a: &str, b: &str) -> String {
        match op {
            "add" => self.v64("add", a, b),
            "sub" => self.v64("sub", a, b),
            "absdiff" => {
                let d = self.v64("sub", a, b);
                let n = self.v64("sub", "0", &d);
                self.pick("sgt", &d, &n)
            }
            "min" => self.pick("slt", a, b),
            "max" => self.pick("sgt", a, b),
            _ => {
                // avrg: (a + b + 1) >> 1 for a non-negative sum, (a + b) >> 1 otherwise.
                let s = self.v64("add", a, b);
                let s1 = self.v64("add", &s, "1");
                let up = self.v64("ashr", &s1, "1");
                let down = self.v64("ashr", &s, "1");
                let c = self.t();
                self.emit(format!("{c} = icmp sge i64 {s}, 0"));
                let t = self.t();
                self.emit(format!("{t} = select i1 {c}, i64 {up}, i64 {down}"));
                t
            }
        }
    }

    /// `.dtype.atype.btype` as signedness flags.
    fn video_types(&self, m: &Mods) -> R<[bool; 3]> {
        let ok = |t: &ScalarType| matches!(t, ScalarType::U(32) | ScalarType::S(32));
        if m.types.len() != 3 || !m.types.iter().all(ok) {
            return Err(self.err("video instructions take .dtype.atype.btype, each .u32 or .s32"));
        }
        Ok([is_signed(m.types[0]), is_signed(m.types[1]), is_signed(m.types[2])])
    }

    fn store_word(&mut self, d: &Operand, v: &str) -> R<()> {
        let t = self.t();
        self.emit(format!("{t} = trunc i64 {v} to i32"));
        self.dst(d, ScalarType::B(32), &t)
    }

    /// SIMD video instructions (PTX ISA 9.7.17.2): `vop2`/`vop4` with `.sat` or `.add`.
    pub(crate) fn video_simd(&mut self, opcode: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let op = primary(opcode).expect("a video opcode");
        let n = if opcode.ends_with('2') { 2 } else { 4 };
        let w = 32 / n as u32;
        let [ds, as_, bs] = self.video_types(m)?;
        let (sat, acc) = (m.has(".sat"), m.has(".add"));
        if sat && acc {
            return Err(self.err("saturation cannot be used with the secondary accumulate operation"));
        }
        let ops = self.operands(ops, 4)?;
        let ((d, dsel), (a, asel), (b, bsel)) = (split(&ops[0]), split(&ops[1]), split(&ops[2]));
        let (adef, bdef) = if n == 2 { ("h10", "h32") } else { ("b3210", "b7654") };
        let mask = simd_mask(dsel, n).map_err(|e| self.err(e))?;
        let asrc = simd_sel(asel, n, adef).map_err(|e| self.err(e))?;
        let bsrc = simd_sel(bsel, n, bdef).map_err(|e| self.err(e))?;
        let (a, b, c) = (self.word(&a)?, self.word(&b)?, self.word(&ops[3])?);
        let hi = self.v64("shl", &b, "32");
        let ab = self.v64("or", &a, &hi);
        let lane_mask = ((1u64 << w) - 1).to_string();
        let mut out = if acc { c.clone() } else { "0".to_string() };
        for i in 0..n {
            let va = self.field(&ab, asrc[i] * w, w, as_);
            let vb = self.field(&ab, bsrc[i] * w, w, bs);
            let mut t = self.video_primary(op, &va, &vb);
            if sat {
                t = self.clamp(&t, range(w, ds));
            }
            let sh = (i as u32 * w).to_string();
            out = if acc {
                if !mask[i] {
                    continue;
                }
                self.v64("add", &out, &t)
            } else {
                let v = if mask[i] { t } else { self.v64("lshr", &c, &sh) };
                let v = self.v64("and", &v, &lane_mask);
                let v = self.v64("shl", &v, &sh);
                self.v64("or", &out, &v)
            };
        }
        self.store_word(&d, &out)
    }

    /// Scalar video instructions (PTX ISA 9.7.17.1): `vop` with part selectors, `.sat`,
    /// a secondary `.add`/`.min`/`.max` or a data merge into `c`.
    pub(crate) fn video_scalar(&mut self, opcode: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let op = primary(opcode).expect("a video opcode");
        let [ds, as_, bs] = self.video_types(m)?;
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
        let (a, b) = (self.word(&a)?, self.word(&b)?);
        let va = self.field(&a, aoff, aw, as_);
        let vb = self.field(&b, boff, bw, bs);
        let mut t = self.video_primary(op, &va, &vb);
        if m.has(".sat") {
            t = self.clamp(&t, range(dw, ds));
        }
        if let Some(s) = secop {
            let c = self.word(&ops[3])?;
            let c = self.field(&c, 0, 32, ds);
            t = match s {
                ".add" => self.v64("add", &t, &c),
                ".min" => self.pick("slt", &t, &c),
                _ => self.pick("sgt", &t, &c),
            };
        } else if dsel.is_some() {
            let c = self.word(&ops[3])?;
            let fmask = ((1u64 << dw) - 1) << doff;
            let keep = self.v64("and", &c, &(!fmask & 0xffff_ffff).to_string());
            let v = self.v64("shl", &t, &doff.to_string());
            let v = self.v64("and", &v, &fmask.to_string());
            t = self.v64("or", &keep, &v);
        }
        self.store_word(&d, &t)
    }
}
