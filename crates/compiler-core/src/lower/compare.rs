//! Comparisons (PTX ISA 9.7.3.x, 9.7.4.x "Comparison and Selection"): `setp` and `set`,
//! including their half-precision forms, and the comparison table `slct` and the strips
//! use.

use super::func::{FnLowerer, R};
use super::types::{is_float, is_signed, storage, value, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// The comparison of `setp`/`set`/`slct` as an i1 (PTX ISA 9.7.3.* "Comparison").
    pub(crate) fn compare(&mut self, cmp: &str, ty: ScalarType, a: &str, b: &str) -> R<String> {
        let t = self.t();
        let float = is_float(ty);
        let Some(p) = comparison(cmp, float, is_signed(ty)) else {
            let kind = if float { "float" } else { "integer" };
            return Err(self.err(format!("unknown {kind} comparison '{cmp}'")));
        };
        if float {
            let (a, b) = (self.as_value(a, ty), self.as_value(b, ty));
            self.emit(format!("{t} = {p} {} {a}, {b}", value(ty)));
        } else {
            self.emit(format!("{t} = {p} {} {a}, {b}", storage(ty)));
        }
        Ok(t)
    }

    pub(crate) fn cmp_and_bool<'m>(&self, m: &'m Mods) -> R<(&'m str, Option<&'m str>)> {
        let names = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];
        let cmp = m.flags.iter().map(|f| &f[1..]).find(|f| names.contains(f)).ok_or_else(|| self.err("missing comparison operator"))?;
        let boolop = m.flags.iter().map(|f| &f[1..]).find(|f| matches!(*f, "and" | "or" | "xor"));
        Ok((cmp, boolop))
    }

    pub(crate) fn setp(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let (cmp, boolop) = self.cmp_and_bool(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        if let (ScalarType::F16x2 | ScalarType::BF16x2, None, Operand::List(pq)) = (ty, boolop, &ops[0]) {
            // One predicate per half: the first for the low half, the second for the high.
            if pq.len() == 2 {
                let lanes = self.half_lanes_f64(ty, &[a, b], m);
                for (k, l) in lanes.iter().enumerate() {
                    let p = self.compare(cmp, ScalarType::F64, &l[0], &l[1])?;
                    self.dst(&pq[k], ScalarType::Pred, &p)?;
                }
                return Ok(());
            }
        }
        let (a, b) = (self.ftz_in(&a, ty, m), self.ftz_in(&b, ty, m));
        let mut p = self.compare(cmp, ty, &a, &b)?;
        let mut q = None;
        if let Some(bop) = boolop {
            let c = self.src(ops.get(3).ok_or_else(|| self.err("missing predicate operand"))?, ScalarType::Pred)?;
            let r = self.t();
            self.emit(format!("{r} = {bop} i1 {p}, {c}"));
            let np = self.t();
            self.emit(format!("{np} = xor i1 {p}, true"));
            let r2 = self.t();
            self.emit(format!("{r2} = {bop} i1 {np}, {c}"));
            q = Some(r2);
            p = r;
        }
        match &ops[0] {
            Operand::List(pq) if pq.len() == 2 => {
                let q = match q {
                    Some(q) => q,
                    None => {
                        let n = self.t();
                        self.emit(format!("{n} = xor i1 {p}, true"));
                        n
                    }
                };
                self.dst(&pq[0], ScalarType::Pred, &p)?;
                self.dst(&pq[1], ScalarType::Pred, &q)
            }
            d => self.dst(d, ScalarType::Pred, &p),
        }
    }

    /// `set.cmp.dtype.stype`: 0xFFFFFFFF / 1.0 when true, 0 when false.
    pub(crate) fn set(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if m.types.len() < 2 {
            return Err(self.err("set needs destination and source types"));
        }
        let (dt, st) = (m.types[0], m.types[1]);
        let (cmp, boolop) = self.cmp_and_bool(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], st)?;
        let b = self.src(&ops[2], st)?;
        if matches!(st, ScalarType::F16x2 | ScalarType::BF16x2) {
            return self.set_packed(dt, cmp, boolop, m, ops, [a, b]);
        }
        let (a, b) = (self.ftz_in(&a, st, m), self.ftz_in(&b, st, m));
        let mut p = self.compare(cmp, st, &a, &b)?;
        if let Some(bop) = boolop {
            let c = self.src(&ops[3], ScalarType::Pred)?;
            let r = self.t();
            self.emit(format!("{r} = {bop} i1 {p}, {c}"));
            p = r;
        }
        let t = self.t();
        let dv = storage(dt);
        if dt == ScalarType::F32 {
            self.emit(format!("{t} = select i1 {p}, float 1.0, float 0.0"));
        } else {
            self.emit(format!("{t} = select i1 {p}, {dv} {}, {dv} 0", set_true_bits(dt)));
        }
        self.dst(&ops[0], dt, &t)
    }

    /// `set` on `.f16x2`/`.bf16x2` sources (PTX ISA 9.7.4.4, half precision `set`): each half
    /// is compared on its own and its result packed into the same half of `d`; a `BoolOp`
    /// combines each half's result with the one predicate `c`.
    fn set_packed(&mut self, dt: ScalarType, cmp: &str, boolop: Option<&str>, m: &Mods, ops: &[Operand], ab: [String; 2]) -> R<()> {
        let st = m.types[1];
        let c = match boolop {
            Some(_) => Some(self.src(ops.get(3).ok_or_else(|| self.err("missing predicate operand"))?, ScalarType::Pred)?),
            None => None,
        };
        let lane_true = match dt {
            ScalarType::F16x2 => 0x3C00,
            ScalarType::BF16x2 => 0x3F80,
            ScalarType::U(32) | ScalarType::S(32) | ScalarType::B(32) => 0xFFFF,
            _ => return Err(self.err(format!("set with .{st:?} sources needs a 32-bit packed destination type"))),
        };
        let lanes = self.half_lanes_f64(st, &ab, m);
        let mut packed = "0".to_string();
        for (k, l) in lanes.iter().enumerate() {
            let mut p = self.compare(cmp, ScalarType::F64, &l[0], &l[1])?;
            if let (Some(bop), Some(c)) = (boolop, &c) {
                let r = self.t();
                self.emit(format!("{r} = {bop} i1 {p}, {c}"));
                p = r;
            }
            let v = self.t();
            self.emit(format!("{v} = select i1 {p}, i32 {}, i32 0", lane_true << (16 * k)));
            let o = self.t();
            self.emit(format!("{o} = or i32 {packed}, {v}"));
            packed = o;
        }
        self.dst(&ops[0], dt, &packed)
    }
}

/// The LLVM comparison (`fcmp oeq`, `icmp slt`...) of PTX comparison operator `cmp`
/// (without its dot) on float or (signed) integer operands (PTX ISA 9.7.3.1, 9.7.4.1:
/// float operators without a `u` are ordered; `lo`/`ls`/`hi`/`hs` are unsigned).
pub(crate) fn comparison(cmp: &str, float: bool, signed: bool) -> Option<&'static str> {
    Some(if float {
        match cmp {
            "eq" => "fcmp oeq",
            "ne" => "fcmp one",
            "lt" => "fcmp olt",
            "le" => "fcmp ole",
            "gt" => "fcmp ogt",
            "ge" => "fcmp oge",
            "equ" => "fcmp ueq",
            "neu" => "fcmp une",
            "ltu" => "fcmp ult",
            "leu" => "fcmp ule",
            "gtu" => "fcmp ugt",
            "geu" => "fcmp uge",
            "num" => "fcmp ord",
            "nan" => "fcmp uno",
            _ => return None,
        }
    } else {
        match cmp {
            "eq" => "icmp eq",
            "ne" => "icmp ne",
            "lt" if signed => "icmp slt",
            "le" if signed => "icmp sle",
            "gt" if signed => "icmp sgt",
            "ge" if signed => "icmp sge",
            "lt" | "lo" => "icmp ult",
            "le" | "ls" => "icmp ule",
            "gt" | "hi" => "icmp ugt",
            "ge" | "hs" => "icmp uge",
            _ => return None,
        }
    })
}

/// The bits `set` writes for true into a destination of type `dt` (PTX ISA 9.7.4.4 and
/// 9.7.3.x: 1.0 for float destinations, all ones for integers).
fn set_true_bits(dt: ScalarType) -> i64 {
    match dt {
        ScalarType::F16 => 0x3C00,
        ScalarType::BF16 => 0x3F80,
        _ => -1,
    }
}
