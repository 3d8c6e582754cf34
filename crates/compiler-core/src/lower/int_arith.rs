//! Integer-only arithmetic: extended precision through the carry flag, `sad`, the integer
//! forms of `mul`/`mad`, `mul24`/`mad24` and the shifts.

use super::func::{FnLowerer, R};
use super::types::{bits, is_signed, storage, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// Extended-precision arithmetic through the carry flag `CC.CF` (PTX ISA 9.7.2):
    /// `add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]`, `mad{.lo,.hi}.cc`, `madc{.lo,.hi}[.cc]`.
    /// For subtraction the flag holds the borrow.
    pub(crate) fn carry_arith(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let is_mad = op.starts_with("mad");
        let ops = self.operands(ops, if is_mad { 4 } else { 3 })?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let carry_in = matches!(op, "addc" | "subc" | "madc");
        let sets = m.has(".cc");
        // The hardware subtracts as `a + ~b + carry`: after `sub.cc`, CC.CF holds the
        // carry, which is 1 when nothing was borrowed, and `subc` borrows when CC.CF is 0
        // (an `addc` after a borrowing `sub.cc` adds 0 on NVIDIA GPUs: ZLUDA's
        // `subc_cc_s32` test, checked on an H200).
        let borrows = op.starts_with("sub");
        let cin = if carry_in {
            let c = self.t();
            self.emit(format!("{c} = load i1, ptr {}", self.carry));
            let c = if borrows {
                let b = self.t();
                self.emit(format!("{b} = xor i1 {c}, true"));
                b
            } else {
                c
            };
            let z = self.t();
            self.emit(format!("{z} = zext i1 {c} to {it}"));
            Some(z)
        } else {
            None
        };
        // First operand pair: a (+|-) b, or the product half plus c for mad.
        let (x, y, sub) = if is_mad {
            let w2 = 2 * w;
            let ext = if is_signed(ty) { "sext" } else { "zext" };
            let (ea, eb) = (self.t(), self.t());
            self.emit(format!("{ea} = {ext} {it} {a} to i{w2}"));
            self.emit(format!("{eb} = {ext} {it} {b} to i{w2}"));
            let p = self.t();
            self.emit(format!("{p} = mul i{w2} {ea}, {eb}"));
            let half = self.t();
            if m.has(".hi") {
                let s = self.t();
                self.emit(format!("{s} = lshr i{w2} {p}, {w}"));
                self.emit(format!("{half} = trunc i{w2} {s} to {it}"));
            } else {
                self.emit(format!("{half} = trunc i{w2} {p} to {it}"));
            }
            let c = self.src(&ops[3], ty)?;
            (half, c, false)
        } else {
            (a, b, op.starts_with("sub"))
        };
        let f = if sub { "usub" } else { "uadd" };
        let r1 = self.t();
        self.emit(format!("{r1} = call {{ {it}, i1 }} @llvm.{f}.with.overflow.{it}({it} {x}, {it} {y})"));
        let (v1, o1) = (self.t(), self.t());
        self.emit(format!("{v1} = extractvalue {{ {it}, i1 }} {r1}, 0"));
        self.emit(format!("{o1} = extractvalue {{ {it}, i1 }} {r1}, 1"));
        let (res, flag) = match cin {
            Some(c) => {
                let r2 = self.t();
                self.emit(format!("{r2} = call {{ {it}, i1 }} @llvm.{f}.with.overflow.{it}({it} {v1}, {it} {c})"));
                let (v2, o2) = (self.t(), self.t());
                self.emit(format!("{v2} = extractvalue {{ {it}, i1 }} {r2}, 0"));
                self.emit(format!("{o2} = extractvalue {{ {it}, i1 }} {r2}, 1"));
                let o = self.t();
                self.emit(format!("{o} = or i1 {o1}, {o2}"));
                (v2, o)
            }
            None => (v1, o1),
        };
        if sets {
            let flag = if borrows {
                let c = self.t();
                self.emit(format!("{c} = xor i1 {flag}, true"));
                c
            } else {
                flag
            };
            self.emit(format!("store i1 {flag}, ptr {}", self.carry));
        }
        self.dst(&ops[0], ty, &res)
    }

    /// `sad` (PTX ISA 9.7.1.11): |a - b| + c.
    pub(crate) fn sad(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 4)?;
        let it = storage(ty);
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let c = self.src(&ops[3], ty)?;
        let (mx, mn) = (self.t(), self.t());
        let (fmax, fmin) = if is_signed(ty) { ("smax", "smin") } else { ("umax", "umin") };
        self.emit(format!("{mx} = call {it} @llvm.{fmax}.{it}({it} {a}, {it} {b})"));
        self.emit(format!("{mn} = call {it} @llvm.{fmin}.{it}({it} {a}, {it} {b})"));
        let d = self.t();
        self.emit(format!("{d} = sub {it} {mx}, {mn}"));
        let r = self.t();
        self.emit(format!("{r} = add {it} {d}, {c}"));
        self.dst(&ops[0], ty, &r)
    }

    /// `mul.lo/.hi/.wide` (PTX ISA 9.7.1.3) with an optional addend for `mad`.
    pub(crate) fn int_mul(&mut self, m: &Mods, ty: ScalarType, d: &Operand, a: &str, b: &str, c: Option<&Operand>) -> R<()> {
        let w = bits(ty);
        let it = format!("i{w}");
        let ext = if is_signed(ty) { "sext" } else { "zext" };
        if m.has(".wide") || m.has(".hi") {
            let w2 = 2 * w;
            let (ea, eb) = (self.t(), self.t());
            self.emit(format!("{ea} = {ext} {it} {a} to i{w2}"));
            self.emit(format!("{eb} = {ext} {it} {b} to i{w2}"));
            let p = self.t();
            self.emit(format!("{p} = mul i{w2} {ea}, {eb}"));
            if m.has(".wide") {
                let dt = if is_signed(ty) { ScalarType::S(w2) } else { ScalarType::U(w2) };
                let r = match c {
                    Some(c) => {
                        let cv = self.src(c, dt)?;
                        let s = self.t();
                        self.emit(format!("{s} = add i{w2} {p}, {cv}"));
                        s
                    }
                    None => p,
                };
                return self.dst(d, dt, &r);
            }
            let sh = self.t();
            self.emit(format!("{sh} = lshr i{w2} {p}, {w}"));
            let hi = self.t();
            self.emit(format!("{hi} = trunc i{w2} {sh} to {it}"));
            let r = self.add_opt(&hi, &it, ty, c, m.has(".sat"))?;
            return self.dst(d, ty, &r);
        }
        let p = self.t();
        self.emit(format!("{p} = mul {it} {a}, {b}"));
        let r = self.add_opt(&p, &it, ty, c, m.has(".sat"))?;
        self.dst(d, ty, &r)
    }

    pub(crate) fn add_opt(&mut self, v: &str, it: &str, ty: ScalarType, c: Option<&Operand>, sat: bool) -> R<String> {
        Ok(match c {
            Some(c) => {
                let cv = self.src(c, ty)?;
                let s = self.t();
                if sat {
                    self.emit(format!("{s} = call {it} @llvm.sadd.sat.{it}({it} {v}, {it} {cv})"));
                } else {
                    self.emit(format!("{s} = add {it} {v}, {cv}"));
                }
                s
            }
            None => v.to_string(),
        })
    }

    /// `mul24`/`mad24`: multiply the low 24 bits (sign-extended for .s32).
    pub(crate) fn mul24(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, if op == "mad24" { 4 } else { 3 })?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let ext = |l: &mut Self, v: &str| {
            let s = l.t();
            l.emit(format!("{s} = shl i32 {v}, 8"));
            let r = l.t();
            let sh = if is_signed(ty) { "ashr" } else { "lshr" };
            l.emit(format!("{r} = {sh} i32 {s}, 8"));
            r
        };
        let (a, b) = (ext(self, &a), ext(self, &b));
        let ext64 = if is_signed(ty) { "sext" } else { "zext" };
        let (ea, eb) = (self.t(), self.t());
        self.emit(format!("{ea} = {ext64} i32 {a} to i64"));
        self.emit(format!("{eb} = {ext64} i32 {b} to i64"));
        let p = self.t();
        self.emit(format!("{p} = mul i64 {ea}, {eb}"));
        let r = self.t();
        if m.has(".hi") {
            let s = self.t();
            self.emit(format!("{s} = lshr i64 {p}, 16"));
            self.emit(format!("{r} = trunc i64 {s} to i32"));
        } else {
            self.emit(format!("{r} = trunc i64 {p} to i32"));
        }
        let r = self.add_opt(&r, "i32", ty, ops.get(3).filter(|_| op == "mad24"), m.has(".sat"))?;
        self.dst(&ops[0], ty, &r)
    }

    /// Shifts clamp the amount: `shl`/`shr.u` by >= width give 0, `shr.s` gives the sign
    /// fill (PTX ISA 9.7.8.7/8). The amount operand is always `.u32`.
    pub(crate) fn shift(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let n = self.src(&ops[2], ScalarType::U(32))?;
        let w = bits(ty);
        let it = format!("i{w}");
        let big = self.t();
        self.emit(format!("{big} = icmp ugt i32 {n}, {}", w - 1));
        let clamped = self.t();
        self.emit(format!("{clamped} = select i1 {big}, i32 {}, i32 {n}", w - 1));
        let amt = self.convert(&clamped, ScalarType::U(32), ScalarType::U(w), false);
        let s = self.t();
        let t = self.t();
        if op == "shl" {
            self.emit(format!("{s} = shl {it} {a}, {amt}"));
            self.emit(format!("{t} = select i1 {big}, {it} 0, {it} {s}"));
        } else if is_signed(ty) {
            self.emit(format!("{t} = ashr {it} {a}, {amt}"));
            let _ = s;
        } else {
            self.emit(format!("{s} = lshr {it} {a}, {amt}"));
            self.emit(format!("{t} = select i1 {big}, {it} 0, {it} {s}"));
        }
        self.dst(&ops[0], ty, &t)
    }
}
