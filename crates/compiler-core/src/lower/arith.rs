//! Float and integer arithmetic of two or three sources: `add`/`sub`/`mul`/`div`/`rem`/
//! `min`/`max`/`and`/`or`/`xor`, `mad`/`fma` and `copysign`, with the `.ftz` and `.sat`
//! helpers they share.

use super::func::{FnLowerer, R};
use super::instr::llvm_suffix;
use super::rounding::directed_mode;
use super::types::{bits, is_float, is_signed, value, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// `mul.ftz`/`div.ftz` on f32 flush results whose exact value is below the smallest
    /// normal even when they round up to it (tininess before rounding, as on the H200).
    /// Products are exact in f64; quotients are close enough there to decide.
    fn ftz_tiny_before(&mut self, op: &str, ty: ScalarType, m: &Mods, a: &str, b: &str, t: &str) -> String {
        if ty != ScalarType::F32 || !m.has(".ftz") || !matches!(op, "mul" | "div") {
            return t.to_string();
        }
        let (da, db, q, qa, tiny, nz, both, z, r) = (self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{da} = fpext float {a} to double"));
        self.emit(format!("{db} = fpext float {b} to double"));
        self.emit(format!("{q} = {} double {da}, {db}", if op == "mul" { "fmul" } else { "fdiv" }));
        self.emit(format!("{qa} = call double @llvm.fabs.f64(double {q})"));
        self.emit(format!("{tiny} = fcmp olt double {qa}, 0x3810000000000000"));
        self.emit(format!("{nz} = fcmp one double {qa}, 0.0"));
        self.emit(format!("{both} = and i1 {tiny}, {nz}"));
        self.emit(format!("{z} = call float @llvm.copysign.f32(float 0.0, float {t})"));
        self.emit(format!("{r} = select i1 {both}, float {z}, float {t}"));
        r
    }

    /// `.ftz` on f32 (PTX ISA 9.7.3): subnormal inputs and results become signed zero.
    pub(crate) fn ftz_in(&mut self, v: &str, ty: ScalarType, m: &Mods) -> String {
        if ty != ScalarType::F32 || !m.has(".ftz") {
            return v.to_string();
        }
        self.flush_f32(v)
    }

    /// An f32 subnormal becomes a zero of its sign.
    pub(crate) fn flush_f32(&mut self, v: &str) -> String {
        let a = self.t();
        self.emit(format!("{a} = call float @llvm.fabs.f32(float {v})"));
        let small = self.t();
        // 2^-126, the smallest normal f32.
        self.emit(format!("{small} = fcmp olt float {a}, 0x3810000000000000"));
        let z = self.t();
        self.emit(format!("{z} = call float @llvm.copysign.f32(float 0.0, float {v})"));
        let r = self.t();
        self.emit(format!("{r} = select i1 {small}, float {z}, float {v}"));
        r
    }

    pub(crate) fn binary(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        if matches!(op, "min" | "max" | "add") {
            if let Some(signed) = m.flags.iter().find_map(|f| match *f {
                ".u16x2" => Some(false),
                ".s16x2" => Some(true),
                _ => None,
            }) {
                return self.packed_min_max(op, signed, m, ops);
            }
        }
        let ty = self.ty0(m)?;
        if super::half::is_half(ty) && matches!(op, "add" | "sub" | "mul" | "min" | "max") {
            return self.half_arith(op, ty, m, ops);
        }
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        if ty == ScalarType::Pred {
            let t = self.t();
            self.emit(format!("{t} = {op} i1 {a}, {b}"));
            return self.dst(&ops[0], ty, &t);
        }
        if is_float(ty) {
            let (a, b) = (self.as_value(&a, ty), self.as_value(&b, ty));
            let (a, b) = (self.ftz_in(&a, ty, m), self.ftz_in(&b, ty, m));
            let vt = value(ty);
            if let (Some(mode), true) = (directed_mode(&m.flags), matches!(op, "add" | "sub" | "mul" | "div")) {
                if matches!(ty, ScalarType::F32 | ScalarType::F64) {
                    let t = self.directed_binary(op, &vt, &a, &b, mode)?;
                    let t = self.ftz_tiny_before(op, ty, m, &a, &b, &t);
                    let t = self.ftz_in(&t, ty, m);
                    let t = if m.has(".sat") { self.saturate_float(&t, &vt) } else { t };
                    return self.dst(&ops[0], ty, &t);
                }
            }
            // min/max.xorsign.abs: compare magnitudes, the sign is sign(a) ^ sign(b).
            let (a, b, xsign) = if matches!(op, "min" | "max") && m.has(".xorsign") && matches!(ty, ScalarType::F32 | ScalarType::F64) {
                let it = if ty == ScalarType::F32 { "i32" } else { "i64" };
                let (ia, ib) = (self.bitcast(&a, &vt, it), self.bitcast(&b, &vt, it));
                let x = self.t();
                self.emit(format!("{x} = xor {it} {ia}, {ib}"));
                let (fa, fb) = (self.t(), self.t());
                self.emit(format!("{fa} = call {vt} @llvm.fabs.{}({vt} {a})", llvm_suffix(&vt)));
                self.emit(format!("{fb} = call {vt} @llvm.fabs.{}({vt} {b})", llvm_suffix(&vt)));
                (fa, fb, Some(x))
            } else {
                (a, b, None)
            };
            let t = self.t();
            match op {
                "add" => self.emit(format!("{t} = fadd {vt} {a}, {b}")),
                "sub" => self.emit(format!("{t} = fsub {vt} {a}, {b}")),
                "mul" => self.emit(format!("{t} = fmul {vt} {a}, {b}")),
                "div" => self.emit(format!("{t} = fdiv {vt} {a}, {b}")),
                // PTX min/max return the non-NaN operand (PTX ISA 9.7.3.10).
                "min" => self.emit(format!("{t} = call {vt} @llvm.minnum.{}({vt} {a}, {vt} {b})", llvm_suffix(&vt))),
                "max" => self.emit(format!("{t} = call {vt} @llvm.maxnum.{}({vt} {a}, {vt} {b})", llvm_suffix(&vt))),
                _ => return Err(self.err(format!("{op} is not defined on floating-point types"))),
            }
            let t = if matches!(op, "min" | "max") && matches!(ty, ScalarType::F32 | ScalarType::F64) {
                self.min_max_fixup(op, ty, &vt, &t, &a, &b, m, xsign.as_deref())
            } else if op == "div" && ty == ScalarType::F32 && m.has(".approx") {
                self.div_approx_huge_divisor(&t, &a, &b)
            } else {
                t
            };
            let t = self.ftz_tiny_before(op, ty, m, &a, &b, &t);
            let t = self.ftz_in(&t, ty, m);
            let t = if m.has(".sat") { self.saturate_float(&t, &vt) } else { t };
            let r = self.from_value(&t, ty);
            return self.dst(&ops[0], ty, &r);
        }
        let w = bits(ty);
        let it = format!("i{w}");
        let signed = is_signed(ty);
        let t = self.t();
        match op {
            "add" | "sub" if m.has(".sat") => {
                let f = if op == "add" { "sadd" } else { "ssub" };
                self.emit(format!("{t} = call {it} @llvm.{f}.sat.{it}({it} {a}, {it} {b})"));
            }
            "add" => self.emit(format!("{t} = add {it} {a}, {b}")),
            "sub" => self.emit(format!("{t} = sub {it} {a}, {b}")),
            "mul" => return self.int_mul(m, ty, &ops[0], &a, &b, None),
            "div" | "rem" => {
                // Division by zero gives an unspecified value in PTX but must not trap
                // on the host: divide by 1 instead and return all ones.
                let z = self.t();
                self.emit(format!("{z} = icmp eq {it} {b}, 0"));
                let d = self.t();
                self.emit(format!("{d} = select i1 {z}, {it} 1, {it} {b}"));
                let q = self.t();
                let f = match (op, signed) {
                    ("div", true) => "sdiv",
                    ("div", false) => "udiv",
                    ("rem", true) => "srem",
                    _ => "urem",
                };
                // INT_MIN / -1 overflows on x86; PTX leaves it unspecified: use INT_MIN.
                if signed {
                    let m1 = self.t();
                    self.emit(format!("{m1} = icmp eq {it} {d}, -1"));
                    let d2 = self.t();
                    self.emit(format!("{d2} = select i1 {m1}, {it} 1, {it} {d}"));
                    let q1 = self.t();
                    self.emit(format!("{q1} = {f} {it} {a}, {d2}"));
                    let neg = self.t();
                    if op == "div" {
                        self.emit(format!("{neg} = sub {it} 0, {a}"));
                    } else {
                        self.emit(format!("{neg} = add {it} 0, 0"));
                    }
                    self.emit(format!("{q} = select i1 {m1}, {it} {neg}, {it} {q1}"));
                } else {
                    self.emit(format!("{q} = {f} {it} {a}, {d}"));
                }
                self.emit(format!("{t} = select i1 {z}, {it} -1, {it} {q}"));
            }
            "min" | "max" => {
                let f = match (op, signed) {
                    ("min", true) => "smin",
                    ("min", false) => "umin",
                    ("max", true) => "smax",
                    _ => "umax",
                };
                self.emit(format!("{t} = call {it} @llvm.{f}.{it}({it} {a}, {it} {b})"));
                if m.has(".relu") {
                    // .relu (s32): negative results become 0.
                    let r = self.t();
                    self.emit(format!("{r} = call {it} @llvm.smax.{it}({it} {t}, {it} 0)"));
                    return self.dst(&ops[0], ty, &r);
                }
            }
            "and" | "or" | "xor" => self.emit(format!("{t} = {op} {it} {a}, {b}")),
            _ => unreachable!(),
        }
        self.dst(&ops[0], ty, &t)
    }

    /// PTX's f32/f64 `min`/`max` beyond LLVM's minnum/maxnum: -0 orders below +0, and
    /// two NaN operands give the canonical NaN (f32; f64 keeps a NaN operand).
    #[allow(clippy::too_many_arguments)]
    fn min_max_fixup(&mut self, op: &str, ty: ScalarType, vt: &str, t: &str, a: &str, b: &str, m: &Mods, xsign: Option<&str>) -> String {
        // Zeros: max is a + b (+0 unless both are -0), min is -((-a) + (-b)).
        let isz = self.t();
        self.emit(format!("{isz} = fcmp oeq {vt} {t}, 0.0"));
        let same = self.t();
        self.emit(format!("{same} = fcmp oeq {vt} {a}, {b}"));
        let both = self.t();
        self.emit(format!("{both} = and i1 {isz}, {same}"));
        let z = if op == "max" {
            let z = self.t();
            self.emit(format!("{z} = fadd {vt} {a}, {b}"));
            z
        } else {
            let (na, nb, s, z) = (self.t(), self.t(), self.t(), self.t());
            self.emit(format!("{na} = fneg {vt} {a}"));
            self.emit(format!("{nb} = fneg {vt} {b}"));
            self.emit(format!("{s} = fadd {vt} {na}, {nb}"));
            self.emit(format!("{z} = fneg {vt} {s}"));
            z
        };
        let mut r = self.t();
        self.emit(format!("{r} = select i1 {both}, {vt} {z}, {vt} {t}"));
        let it = if ty == ScalarType::F32 { "i32" } else { "i64" };
        if let Some(x) = xsign {
            // The magnitude's sign bit is clear: set it from sign(a) ^ sign(b).
            let sign = if ty == ScalarType::F32 { "-2147483648" } else { "-9223372036854775808" };
            let s = self.t();
            self.emit(format!("{s} = and {it} {x}, {sign}"));
            let ir = self.bitcast(&r, vt, it);
            let o = self.t();
            self.emit(format!("{o} = or {it} {ir}, {s}"));
            r = self.bitcast(&o, it, vt);
        }
        // .NaN: any NaN operand gives the canonical NaN; otherwise two NaNs do (f32).
        let nan = self.t();
        if m.has(".NaN") {
            self.emit(format!("{nan} = fcmp uno {vt} {a}, {b}"));
        } else if ty == ScalarType::F32 {
            self.emit(format!("{nan} = fcmp uno {vt} {r}, 0.0"));
        } else {
            return r;
        }
        let canon = if ty == ScalarType::F32 { "0x7FFFFFFFE0000000" } else { "0x7FFFFFFFFFFFFFFF" };
        let c = self.t();
        self.emit(format!("{c} = select i1 {nan}, {vt} {canon}, {vt} {r}"));
        c
    }

    /// `min`/`max` on `.u16x2`/`.s16x2` (PTX ISA 9.7.1.10/11): per 16-bit half, `.relu`
    /// (signed only) clamping negative results to 0. `add.u16x2`/`add.s16x2` (9.7.1.1,
    /// sm_90; what nvcc emits for `__vadd2`): per half, wrapping.
    fn packed_min_max(&mut self, op: &str, signed: bool, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let (va, vb) = (self.bitcast(&a, "i32", "<2 x i16>"), self.bitcast(&b, "i32", "<2 x i16>"));
        if op == "add" {
            let t = self.t();
            self.emit(format!("{t} = add <2 x i16> {va}, {vb}"));
            let r = self.bitcast(&t, "<2 x i16>", "i32");
            return self.dst(&ops[0], ScalarType::B(32), &r);
        }
        let f = match (op, signed) {
            ("min", true) => "smin",
            ("min", false) => "umin",
            ("max", true) => "smax",
            _ => "umax",
        };
        let mut t = self.t();
        self.emit(format!("{t} = call <2 x i16> @llvm.{f}.v2i16(<2 x i16> {va}, <2 x i16> {vb})"));
        if m.has(".relu") {
            let r = self.t();
            self.emit(format!("{r} = call <2 x i16> @llvm.smax.v2i16(<2 x i16> {t}, <2 x i16> zeroinitializer)"));
            t = r;
        }
        let r = self.bitcast(&t, "<2 x i16>", "i32");
        self.dst(&ops[0], ScalarType::B(32), &r)
    }

    pub(crate) fn saturate_float(&mut self, v: &str, vt: &str) -> String {
        // .sat clamps to [0, 1] and maps NaN to 0.
        let s = llvm_suffix(vt);
        let a = self.t();
        self.emit(format!("{a} = call {vt} @llvm.maxnum.{s}({vt} {v}, {vt} 0.0)"));
        let b = self.t();
        self.emit(format!("{b} = call {vt} @llvm.minnum.{s}({vt} {a}, {vt} 1.0)"));
        b
    }

    pub(crate) fn mad(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        if super::half::is_half(ty) && !m.flags.iter().any(|f| matches!(*f, ".rz" | ".rm" | ".rp")) {
            return self.half_arith("fma", ty, m, ops);
        }
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        if is_float(ty) {
            let c = self.src(&ops[3], ty)?;
            let (a, b, c) = (self.as_value(&a, ty), self.as_value(&b, ty), self.as_value(&c, ty));
            let (a, b, c) = (self.ftz_in(&a, ty, m), self.ftz_in(&b, ty, m), self.ftz_in(&c, ty, m));
            let vt = value(ty);
            // fma and mad.rn (sm_20+) are fused multiply-adds (PTX ISA 9.7.3.6).
            let _ = op;
            let t = match directed_mode(&m.flags) {
                Some(mode) if matches!(ty, ScalarType::F32 | ScalarType::F64) => self.directed_fma(&vt, &a, &b, &c, mode),
                _ => {
                    let t = self.t();
                    self.emit(format!("{t} = call {vt} @llvm.fma.{}({vt} {a}, {vt} {b}, {vt} {c})", llvm_suffix(&vt)));
                    t
                }
            };
            let t = self.ftz_in(&t, ty, m);
            let t = if m.has(".sat") { self.saturate_float(&t, &vt) } else { t };
            let r = self.from_value(&t, ty);
            return self.dst(&ops[0], ty, &r);
        }
        self.int_mul(m, ty, &ops[0], &a, &b, Some(&ops[3]))
    }

    pub(crate) fn copysign(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let vt = value(ty);
        let t = self.t();
        // copysign.f32 d, a, b: magnitude of b, sign of a (PTX ISA 9.7.3.2).
        self.emit(format!("{t} = call {vt} @llvm.copysign.{}({vt} {b}, {vt} {a})", llvm_suffix(&vt)));
        self.dst(&ops[0], ty, &t)
    }
}
