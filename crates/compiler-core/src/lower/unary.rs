//! One-source instructions: `neg`/`not`/`abs`/`cnot`/`popc`/`clz`/`brev`, the float
//! functions (`sqrt`, `rsqrt`, `rcp`, `ex2`, `lg2`, `sin`, `cos`, `tanh`), and `testp`.

use super::func::{FnLowerer, R};
use super::instr::llvm_suffix;
use super::rounding::directed_mode;
use super::types::{is_float, storage, value, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    pub(crate) fn unary(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        if super::half::is_half(ty) && matches!(op, "neg" | "abs") {
            return self.half_arith(op, ty, m, ops);
        }
        let ops = self.operands(ops, 2)?;
        let a = self.src(&ops[1], ty)?;
        let t = self.t();
        if is_float(ty) {
            let a = self.as_value(&a, ty);
            let a = self.ftz_in(&a, ty, m);
            let vt = value(ty);
            let s = llvm_suffix(&vt);
            if let (Some(mode), true) = (directed_mode(&m.flags), matches!(ty, ScalarType::F32 | ScalarType::F64)) {
                let r = match op {
                    "sqrt" => Some(self.directed_sqrt(&vt, &a, mode)),
                    "rcp" => Some(self.directed_binary("div", &vt, "1.0", &a, mode)?),
                    _ => None,
                };
                if let Some(r) = r {
                    let r = self.ftz_in(&r, ty, m);
                    return self.dst(&ops[0], ty, &r);
                }
            }
            match op {
                "neg" => self.emit(format!("{t} = fneg {vt} {a}")),
                "abs" => self.emit(format!("{t} = call {vt} @llvm.fabs.{s}({vt} {a})")),
                "sqrt" => self.emit(format!("{t} = call {vt} @llvm.sqrt.{s}({vt} {a})")),
                "rsqrt" => {
                    let q = self.t();
                    self.emit(format!("{q} = call {vt} @llvm.sqrt.{s}({vt} {a})"));
                    self.emit(format!("{t} = fdiv {vt} 1.0, {q}"));
                }
                "rcp" => self.emit(format!("{t} = fdiv {vt} 1.0, {a}")),
                // Through an intrinsic: the host computes it with `exp`, which vectorizes.
                "ex2" if vt == "float" => self.emit(format!("{t} = call float @__ptx_ex2_f32(float {a})")),
                "ex2" => self.emit(format!("{t} = call {vt} @llvm.exp2.{s}({vt} {a})")),
                "lg2" => self.emit(format!("{t} = call {vt} @llvm.log2.{s}({vt} {a})")),
                "sin" => self.emit(format!("{t} = call {vt} @llvm.sin.{s}({vt} {a})")),
                "cos" => self.emit(format!("{t} = call {vt} @llvm.cos.{s}({vt} {a})")),
                // Through an intrinsic: not every target can lower llvm.tanh.
                "tanh" if vt == "float" => self.emit(format!("{t} = call float @__ptx_tanh_f32(float {a})")),
                "tanh" => self.emit(format!("{t} = call {vt} @llvm.tanh.{s}({vt} {a})")),
                _ => return Err(self.err(format!("{op} is not defined on floating-point types"))),
            }
            let t = if op == "neg" || op == "abs" { t } else { self.ftz_in(&t, ty, m) };
            let r = self.from_value(&t, ty);
            return self.dst(&ops[0], ty, &r);
        }
        let it = storage(ty);
        match op {
            "neg" => self.emit(format!("{t} = sub {it} 0, {a}")),
            "not" if ty == ScalarType::Pred => self.emit(format!("{t} = xor i1 {a}, true")),
            "not" => self.emit(format!("{t} = xor {it} {a}, -1")),
            "cnot" => {
                let c = self.t();
                self.emit(format!("{c} = icmp eq {it} {a}, 0"));
                // `.b1` (a non-standard width) is already i1: `zext` to the same type is invalid.
                let op = if it == "i1" { "bitcast" } else { "zext" };
                self.emit(format!("{t} = {op} i1 {c} to {it}"));
            }
            "abs" => self.emit(format!("{t} = call {it} @llvm.abs.{it}({it} {a}, i1 false)")),
            "brev" => self.emit(format!("{t} = call {it} @llvm.bitreverse.{it}({it} {a})")),
            "popc" | "clz" => {
                let c = self.t();
                if op == "popc" {
                    self.emit(format!("{c} = call {it} @llvm.ctpop.{it}({it} {a})"));
                } else {
                    self.emit(format!("{c} = call {it} @llvm.ctlz.{it}({it} {a}, i1 false)"));
                }
                // The result is always .u32 (PTX ISA 9.7.1.14/15).
                let r = self.convert(&c, ty, ScalarType::U(32), false);
                return self.dst(&ops[0], ScalarType::U(32), &r);
            }
            _ => return Err(self.err(format!("{op} is not defined on integer types"))),
        }
        self.dst(&ops[0], ty, &t)
    }

    /// `testp.class.{f32,f64} p, a` (PTX ISA 9.7.3.3), on the bits. `.normal` is true
    /// for zeros too, as on the H200 (ptx-conformance/hardware-check.md rule 5).
    pub(crate) fn testp(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let a = self.src(&ops[1], ty)?;
        let (it, signless, inf, min_normal): (&str, u64, u64, u64) = match ty {
            ScalarType::F32 => ("i32", 0x7fff_ffff, 0x7f80_0000, 0x0080_0000),
            ScalarType::F64 => ("i64", 0x7fff_ffff_ffff_ffff, 0x7ff0_0000_0000_0000, 0x0010_0000_0000_0000),
            _ => return Err(self.err("testp is defined on .f32 and .f64")),
        };
        let x = self.bitcast(&a, &storage(ty), it);
        let ab = self.t();
        self.emit(format!("{ab} = and {it} {x}, {signless}"));
        let class = m
            .flags
            .iter()
            .map(|f| &f[1..])
            .find(|f| matches!(*f, "finite" | "infinite" | "number" | "notanumber" | "normal" | "subnormal"))
            .ok_or_else(|| self.err("testp needs a class"))?;
        let r = self.t();
        match class {
            "finite" => self.emit(format!("{r} = icmp ult {it} {ab}, {inf}")),
            "infinite" => self.emit(format!("{r} = icmp eq {it} {ab}, {inf}")),
            "number" => self.emit(format!("{r} = icmp ule {it} {ab}, {inf}")),
            "notanumber" => self.emit(format!("{r} = icmp ugt {it} {ab}, {inf}")),
            _ => {
                // subnormal: 0 < |a| < min normal (as an unsigned range check).
                let d = self.t();
                self.emit(format!("{d} = sub {it} {ab}, 1"));
                let sub = self.t();
                self.emit(format!("{sub} = icmp ult {it} {d}, {}", min_normal - 1));
                if class == "subnormal" {
                    self.emit(format!("{r} = or i1 {sub}, false"));
                } else {
                    let fin = self.t();
                    self.emit(format!("{fin} = icmp ult {it} {ab}, {inf}"));
                    let ns = self.t();
                    self.emit(format!("{ns} = xor i1 {sub}, true"));
                    self.emit(format!("{r} = and i1 {fin}, {ns}"));
                }
            }
        }
        self.dst(&ops[0], ScalarType::Pred, &r)
    }
}
