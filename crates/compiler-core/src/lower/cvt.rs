//! `cvt` (PTX ISA 9.7.9.21): conversions between float and integer types, with their
//! rounding modes and saturation.

use super::func::{FnLowerer, R};
use super::instr::llvm_suffix;
use super::rounding::directed_mode;
use super::types::{bits, is_float, is_signed, value, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    pub(crate) fn cvt(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 2)?;
        if m.types.len() < 2 {
            return Err(self.err("cvt needs destination and source types"));
        }
        let (dt, stype) = (m.types[0], m.types[1]);
        let narrow16 = matches!(dt, ScalarType::F16 | ScalarType::BF16 | ScalarType::F16x2 | ScalarType::BF16x2)
            && dt != stype
            && !matches!(stype, ScalarType::F16x2 | ScalarType::BF16x2 | ScalarType::Pred)
            && bits(stype) <= 64
            && !["rni", "rzi", "rmi", "rpi"].iter().any(|r| m.has(&format!(".{r}")));
        if narrow16 {
            return self.cvt_to_16(dt, stype, m, ops);
        }
        let raw = self.src(&ops[1], stype)?;
        let v = self.as_value(&raw, stype);
        let (dv, sv) = (value(dt), value(stype));
        let round = ["rni", "rzi", "rmi", "rpi"].iter().find(|r| m.has(&format!(".{r}"))).copied();
        let directed = directed_mode(&m.flags);
        let v = if is_float(stype) { self.ftz_in(&v, stype, m) } else { v };
        let res = if is_float(dt) && is_float(stype) {
            let (db, sb) = (bits(dt), bits(stype));
            let r = if let Some(r) = round { self.round_float(&v, &sv, r) } else { v.clone() };
            if let (Some(mode), ScalarType::F32, ScalarType::F64) = (directed, dt, stype) {
                self.directed_fptrunc(&r, mode)
            } else if db > sb {
                let t = self.t();
                self.emit(format!("{t} = fpext {sv} {r} to {dv}"));
                t
            } else if db < sb {
                let t = self.t();
                self.emit(format!("{t} = fptrunc {sv} {r} to {dv}"));
                t
            } else {
                r
            }
        } else if is_float(dt) {
            match (directed, dt, bits(stype) <= 64) {
                (Some(mode), ScalarType::F32 | ScalarType::F64, true) => self.directed_itofp(&v, &sv, is_signed(stype), &dv, mode),
                _ => {
                    let t = self.t();
                    let op = if is_signed(stype) { "sitofp" } else { "uitofp" };
                    self.emit(format!("{t} = {op} {sv} {v} to {dv}"));
                    t
                }
            }
        } else if is_float(stype) {
            // PTX: float->int saturates and maps NaN to 0 (PTX ISA 9.7.9.21).
            let r = self.round_float(&v, &sv, round.unwrap_or("rzi"));
            let t = self.t();
            let op = if is_signed(dt) { "fptosi" } else { "fptoui" };
            self.emit(format!("{t} = call {dv} @llvm.{op}.sat.{dv}.{}({sv} {r})", llvm_suffix(&sv)));
            // NaN gives 0, except from f64 or into 64-bit integers, where the H200 gives
            // the destination's top bit alone (ptx-conformance/hardware-check.md rule 2).
            if stype == ScalarType::F64 || bits(dt) == 64 {
                let nan = self.t();
                self.emit(format!("{nan} = fcmp uno {sv} {v}, 0.0"));
                let top = -(1i128 << (bits(dt) - 1));
                let s = self.t();
                self.emit(format!("{s} = select i1 {nan}, {dv} {top}, {dv} {t}"));
                s
            } else if matches!(stype, ScalarType::F16 | ScalarType::BF16) {
                // The saturating conversion gives 0 for NaN by definition, but LLVM 19's x86
                // code for `half` sources on AVX-512 machines returns the integer minimum.
                let nan = self.t();
                self.emit(format!("{nan} = fcmp uno {sv} {v}, 0.0"));
                let s = self.t();
                self.emit(format!("{s} = select i1 {nan}, {dv} 0, {dv} {t}"));
                s
            } else {
                t
            }
        } else {
            // Integer to integer: extend by the source's signedness, or truncate; `.sat`
            // clamps to the destination's range.
            let (db, sb) = (bits(dt), bits(stype));
            let v = if m.has(".sat") { self.int_saturate(&v, stype, dt) } else { v };
            if db > sb {
                let t = self.t();
                let op = if is_signed(stype) { "sext" } else { "zext" };
                self.emit(format!("{t} = {op} {sv} {v} to {dv}"));
                t
            } else if db < sb {
                let t = self.t();
                self.emit(format!("{t} = trunc {sv} {v} to {dv}"));
                t
            } else {
                v
            }
        };
        let res = if is_float(dt) {
            let r = self.ftz_in(&res, dt, m);
            if m.has(".sat") {
                self.saturate_float(&r, &dv)
            } else {
                r
            }
        } else {
            res
        };
        let res = self.from_value(&res, dt);
        self.dst(&ops[0], dt, &res)
    }

    /// A float or integer source as an exact double, or rounded to odd (64-bit integers).
    /// `.ftz` leaves an f32 source as it is: PTX ISA 9.7.9.21 ("Subnormal numbers")
    /// flushes subnormal inputs only for float-to-integer conversions and f32-to-f32 ones
    /// with integer rounding, and NVIDIA's GPUs round a subnormal f32 in
    /// `cvt.{rm,rp}.ftz.f16.f32` like any other value (vosen/ptx_tests, `cvt.rs`).
    fn widen_to_double(&mut self, raw: &str, stype: ScalarType) -> String {
        match stype {
            ScalarType::F64 => raw.to_string(),
            ScalarType::F32 => {
                let t = self.t();
                self.emit(format!("{t} = fpext float {raw} to double"));
                t
            }
            ScalarType::F16 => {
                let h = self.as_value(raw, stype);
                let t = self.t();
                self.emit(format!("{t} = fpext half {h} to double"));
                t
            }
            ScalarType::BF16 => {
                let (z, s, f, t) = (self.t(), self.t(), self.t(), self.t());
                self.emit(format!("{z} = zext i16 {raw} to i32"));
                self.emit(format!("{s} = shl i32 {z}, 16"));
                self.emit(format!("{f} = bitcast i32 {s} to float"));
                self.emit(format!("{t} = fpext float {f} to double"));
                t
            }
            _ => {
                let w = bits(stype);
                let signed = is_signed(stype);
                let x = if w < 64 {
                    let t = self.t();
                    self.emit(format!("{t} = {} i{w} {raw} to i64", if signed { "sext" } else { "zext" }));
                    t
                } else {
                    raw.to_string()
                };
                let d = self.t();
                self.emit(format!("{d} = {} i64 {x} to double", if signed { "sitofp" } else { "uitofp" }));
                if w <= 53 {
                    return d;
                }
                // The sign of x - d, then d rounded to odd (d may be 2^63 or 2^64, just
                // past the range: then x < d).
                let limit = if signed { "0x43E0000000000000" } else { "0x43F0000000000000" };
                let (big, di, lt, gt) = (self.t(), self.t(), self.t(), self.t());
                self.emit(format!("{big} = fcmp oge double {d}, {limit}"));
                self.emit(format!("{di} = {} double {d} to i64", if signed { "fptosi" } else { "fptoui" }));
                let (l, g) = if signed { ("slt", "sgt") } else { ("ult", "ugt") };
                self.emit(format!("{lt} = icmp {l} i64 {x}, {di}"));
                self.emit(format!("{gt} = icmp {g} i64 {x}, {di}"));
                let (below, nb, above, e1, e) = (self.t(), self.t(), self.t(), self.t(), self.t());
                self.emit(format!("{below} = or i1 {lt}, {big}"));
                self.emit(format!("{nb} = xor i1 {big}, true"));
                self.emit(format!("{above} = and i1 {gt}, {nb}"));
                self.emit(format!("{e1} = select i1 {above}, double 1.0, double 0.0"));
                self.emit(format!("{e} = select i1 {below}, double -1.0, double {e1}"));
                self.round_to_odd(&d, &e)
            }
        }
    }

    /// A double rounded to f16/bf16 bits (i16) in the instruction's mode; NaNs keep
    /// their sign and leading payload, made quiet. `.relu` maps negatives to +0 and NaN
    /// to the canonical NaN.
    fn double_to_16(&mut self, d: &str, bf: bool, m: &Mods) -> String {
        let mode = directed_mode(&m.flags);
        let r = self.round_to_16(d, bf, mode);
        let mb = if bf { 7 } else { 10 };
        let exp_ones: i64 = if bf { 0x7f80 } else { 0x7c00 };
        let (x, sh, p16, q, s, sg, n, isn) = (self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{x} = bitcast double {d} to i64"));
        self.emit(format!("{sh} = lshr i64 {x}, {}", 52 - mb));
        self.emit(format!("{p16} = trunc i64 {sh} to i16"));
        self.emit(format!("{q} = and i16 {p16}, {}", (1 << mb) - 1));
        self.emit(format!("{s} = or i16 {q}, {}", exp_ones | (1 << (mb - 1))));
        self.emit(format!("{sg} = lshr i64 {x}, 48"));
        self.emit(format!("{n} = fcmp uno double {d}, 0.0"));
        let (sg16, sgm, nanb) = (self.t(), self.t(), self.t());
        self.emit(format!("{sg16} = trunc i64 {sg} to i16"));
        self.emit(format!("{sgm} = and i16 {sg16}, -32768"));
        self.emit(format!("{nanb} = or i16 {s}, {sgm}"));
        self.emit(format!("{isn} = select i1 {n}, i16 {nanb}, i16 {r}"));
        if !m.has(".relu") {
            return isn;
        }
        let (negr, z, c) = (self.t(), self.t(), self.t());
        self.emit(format!("{negr} = icmp slt i16 {isn}, 0"));
        self.emit(format!("{z} = select i1 {negr}, i16 0, i16 {isn}"));
        self.emit(format!("{c} = select i1 {n}, i16 32767, i16 {z}"));
        c
    }

    /// `cvt` into f16/bf16 (and the packing `cvt.{f16x2,bf16x2}.f32 d, a, b`: a in the
    /// high half): through an exact double and one rounding (PTX ISA 9.7.9.21).
    fn cvt_to_16(&mut self, dt: ScalarType, stype: ScalarType, m: &Mods, ops: &[Operand]) -> R<()> {
        let bf = matches!(dt, ScalarType::BF16 | ScalarType::BF16x2);
        let one = |l: &mut Self, op: &Operand| -> R<String> {
            let raw = l.src(op, stype)?;
            let d = l.widen_to_double(&raw, stype);
            Ok(l.double_to_16(&d, bf, m))
        };
        if matches!(dt, ScalarType::F16x2 | ScalarType::BF16x2) {
            let ops = self.operands(ops, 3)?;
            let hi = one(self, &ops[1])?;
            let lo = one(self, &ops[2])?;
            let (h, l, hs, r) = (self.t(), self.t(), self.t(), self.t());
            self.emit(format!("{h} = zext i16 {hi} to i32"));
            self.emit(format!("{l} = zext i16 {lo} to i32"));
            self.emit(format!("{hs} = shl i32 {h}, 16"));
            self.emit(format!("{r} = or i32 {hs}, {l}"));
            return self.dst(&ops[0], dt, &r);
        }
        let r = one(self, &ops[1])?;
        let r = if m.has(".sat") {
            let v = self.as_value(&r, dt);
            let s = self.saturate_float(&v, &value(dt));
            self.from_value(&s, dt)
        } else {
            r
        };
        self.dst(&ops[0], dt, &r)
    }

    pub(crate) fn int_saturate(&mut self, v: &str, from: ScalarType, to: ScalarType) -> String {
        let (fb, tb) = (bits(from), bits(to));
        if fb >= 128 || tb >= 128 {
            return v.to_string();
        }
        let (lo, hi): (i128, i128) = if is_signed(to) { (-(1i128 << (tb - 1)), (1i128 << (tb - 1)) - 1) } else { (0, (1i128 << tb) - 1) };
        let (flo, fhi): (i128, i128) = if is_signed(from) { (-(1i128 << (fb - 1)), (1i128 << (fb - 1)) - 1) } else { (0, (1i128 << fb) - 1) };
        let ty = format!("i{fb}");
        let mut cur = v.to_string();
        let (cmp_lt, cmp_gt) = if is_signed(from) { ("slt", "sgt") } else { ("ult", "ugt") };
        if lo > flo {
            let c = self.t();
            self.emit(format!("{c} = icmp {cmp_lt} {ty} {cur}, {lo}"));
            let s = self.t();
            self.emit(format!("{s} = select i1 {c}, {ty} {lo}, {ty} {cur}"));
            cur = s;
        }
        if hi < fhi {
            let c = self.t();
            self.emit(format!("{c} = icmp {cmp_gt} {ty} {cur}, {hi}"));
            let s = self.t();
            self.emit(format!("{s} = select i1 {c}, {ty} {hi}, {ty} {cur}"));
            cur = s;
        }
        cur
    }

    pub(crate) fn round_float(&mut self, v: &str, ty: &str, r: &str) -> String {
        let f = match r {
            "rni" => "roundeven",
            "rzi" => "trunc",
            "rmi" => "floor",
            _ => "ceil",
        };
        let t = self.t();
        self.emit(format!("{t} = call {ty} @llvm.{f}.{}({ty} {v})", llvm_suffix(ty)));
        t
    }
}
