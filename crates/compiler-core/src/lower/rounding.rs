//! Directed rounding (`.rz`, `.rm`, `.rp`) for floating-point arithmetic and conversions
//! (PTX ISA 9.7.3 "Rounding modifiers"), computed exactly on a host that only rounds to
//! nearest.
//!
//! Each operation is done in round-to-nearest, then the sign of the rounding error is
//! recovered with an error-free transformation (TwoSum for add, `fma(a, b, -p)` for mul,
//! the `fma` remainder for div and sqrt, a wider type for f32 `fma` and conversions).
//! Knowing whether the exact result lies above or below the rounded one is enough to
//! step one unit in the last place in the direction the mode asks for.

use super::func::{FnLowerer, R};
use super::instr::llvm_suffix;

/// A directed rounding mode.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(crate) enum Directed {
    Zero,
    Down,
    Up,
}

/// The directed mode named by an instruction's modifiers, if any.
pub(crate) fn directed_mode(flags: &[&str]) -> Option<Directed> {
    flags.iter().find_map(|f| match *f {
        ".rz" => Some(Directed::Zero),
        ".rm" => Some(Directed::Down),
        ".rp" => Some(Directed::Up),
        _ => None,
    })
}

impl FnLowerer<'_> {
    fn fop(&mut self, s: String) -> String {
        let t = self.t();
        self.emit(format!("{t} = {s}"));
        t
    }

    /// Step the round-to-nearest result `p` (of LLVM type `ty`) by one ulp when the
    /// exact result (whose difference `exact - p` has the sign of `err`) says so.
    /// Infinities produced by overflow of finite operands become the largest finite value
    /// where the mode rounds toward it.
    fn adjust(&mut self, p: &str, err: &str, ty: &str, mode: Directed, finite_inputs: &str) -> String {
        let sfx = llvm_suffix(ty);
        let (lt, gt) = (self.fop(format!("fcmp olt {ty} {err}, 0.0")), self.fop(format!("fcmp ogt {ty} {err}, 0.0")));
        let (step, target) = match mode {
            Directed::Down => (lt, "0xFFF0000000000000".to_string()),
            Directed::Up => (gt, "0x7FF0000000000000".to_string()),
            Directed::Zero => {
                let pos = self.fop(format!("fcmp ogt {ty} {p}, 0.0"));
                let neg = self.fop(format!("fcmp olt {ty} {p}, 0.0"));
                let a = self.fop(format!("and i1 {pos}, {lt}"));
                let b = self.fop(format!("and i1 {neg}, {gt}"));
                (self.fop(format!("or i1 {a}, {b}")), "0.0".to_string())
            }
        };
        let next_fn = if ty == "float" { "nextafterf" } else { "nextafter" };
        let stepped = self.fop(format!("call {ty} @{next_fn}({ty} {p}, {ty} {target})"));
        let r = self.fop(format!("select i1 {step}, {ty} {stepped}, {ty} {p}"));
        // Overflow: rn gives +-inf, the directed modes may want +-max instead.
        let abs = self.fop(format!("call {ty} @llvm.fabs.{sfx}({ty} {p})"));
        let is_inf = self.fop(format!("fcmp oeq {ty} {abs}, 0x7FF0000000000000"));
        let over = self.fop(format!("and i1 {is_inf}, {finite_inputs}"));
        let max = if ty == "float" { "0x47EFFFFFE0000000" } else { "0x7FEFFFFFFFFFFFFF" };
        let maxed = self.fop(format!("call {ty} @llvm.copysign.{sfx}({ty} {max}, {ty} {p})"));
        let pos = self.fop(format!("fcmp ogt {ty} {p}, 0.0"));
        let want_max = match mode {
            Directed::Zero => "true".to_string(),
            Directed::Down => pos,
            Directed::Up => self.fop(format!("xor i1 {pos}, true")),
        };
        let use_max = self.fop(format!("and i1 {over}, {want_max}"));
        self.fop(format!("select i1 {use_max}, {ty} {maxed}, {ty} {r}"))
    }

    fn all_finite(&mut self, ty: &str, vals: &[&str]) -> String {
        let sfx = llvm_suffix(ty);
        let mut acc = "true".to_string();
        for v in vals {
            let a = self.fop(format!("call {ty} @llvm.fabs.{sfx}({ty} {v})"));
            let f = self.fop(format!("fcmp olt {ty} {a}, 0x7FF0000000000000"));
            acc = self.fop(format!("and i1 {acc}, {f}"));
        }
        acc
    }

    /// Round the f64 value `s + tail` (where `tail` is far below the last place of `s`
    /// and only its sign matters) to f32 in a directed mode.
    fn directed_to_f32(&mut self, s: &str, tail: &str, mode: Directed, fin: &str) -> String {
        let q = self.fop(format!("fptrunc double {s} to float"));
        let qd = self.fop(format!("fpext float {q} to double"));
        let d = self.fop(format!("fsub double {s}, {qd}"));
        let nz = self.fop(format!("fcmp one double {d}, 0.0"));
        let err = self.fop(format!("select i1 {nz}, double {d}, double {tail}"));
        // Only the sign of the error matters; make it a float that cannot underflow.
        let pos = self.fop(format!("fcmp ogt double {err}, 0.0"));
        let neg = self.fop(format!("fcmp olt double {err}, 0.0"));
        let e1 = self.fop(format!("select i1 {pos}, float 1.0, float 0.0"));
        let e = self.fop(format!("select i1 {neg}, float -1.0, float {e1}"));
        self.adjust(&q, &e, "float", mode, fin)
    }

    /// f32 arithmetic in a directed mode, done exactly in f64: every f32 product is exact
    /// there, sums keep their tail through TwoSum, and quotients and square roots get the
    /// sign of their remainder from an f64 `fma`. Unlike f32 error-free transformations
    /// this stays exact when the result is subnormal.
    fn directed_f32(&mut self, op: &str, a: &str, b: &str, mode: Directed) -> R<String> {
        let fin = self.all_finite("float", &[a, b]);
        let da = self.fop(format!("fpext float {a} to double"));
        let db = self.fop(format!("fpext float {b} to double"));
        let (s, tail) = match op {
            "mul" => (self.fop(format!("fmul double {da}, {db}")), "0.0".to_string()),
            "add" | "sub" => {
                let db = if op == "sub" { self.fop(format!("fneg double {db}")) } else { db };
                let s = self.fop(format!("fadd double {da}, {db}"));
                let bb = self.fop(format!("fsub double {s}, {da}"));
                let ab = self.fop(format!("fsub double {s}, {bb}"));
                let e1 = self.fop(format!("fsub double {da}, {ab}"));
                let e2 = self.fop(format!("fsub double {db}, {bb}"));
                (s, self.fop(format!("fadd double {e1}, {e2}")))
            }
            "div" => {
                let q = self.fop(format!("fdiv double {da}, {db}"));
                let nq = self.fop(format!("fneg double {q}"));
                let r = self.fop(format!("call double @llvm.fma.f64(double {nq}, double {db}, double {da})"));
                let sb = self.fop(format!("call double @llvm.copysign.f64(double 1.0, double {db})"));
                (q, self.fop(format!("fmul double {r}, {sb}")))
            }
            "sqrt" => {
                let q = self.fop(format!("call double @llvm.sqrt.f64(double {da})"));
                let nq = self.fop(format!("fneg double {q}"));
                (q.clone(), self.fop(format!("call double @llvm.fma.f64(double {nq}, double {q}, double {da})")))
            }
            _ => return Err(self.err(format!("{op} with a directed rounding mode is not supported"))),
        };
        Ok(self.directed_to_f32(&s, &tail, mode, &fin))
    }

    /// `a op b` for op in add/sub/mul/div with a directed mode; `ty` is float or double.
    pub(crate) fn directed_binary(&mut self, op: &str, ty: &str, a: &str, b: &str, mode: Directed) -> R<String> {
        if ty == "float" {
            return self.directed_f32(op, a, b, mode);
        }
        let sfx = llvm_suffix(ty);
        let b = if op == "sub" { self.fop(format!("fneg {ty} {b}")) } else { b.to_string() };
        let fin = self.all_finite(ty, &[a, &b]);
        let (p, err) = match op {
            "add" | "sub" => {
                // TwoSum (Knuth): a + b = s + e exactly.
                let s = self.fop(format!("fadd {ty} {a}, {b}"));
                let bb = self.fop(format!("fsub {ty} {s}, {a}"));
                let ab = self.fop(format!("fsub {ty} {s}, {bb}"));
                let da = self.fop(format!("fsub {ty} {a}, {ab}"));
                let db = self.fop(format!("fsub {ty} {b}, {bb}"));
                let e = self.fop(format!("fadd {ty} {da}, {db}"));
                (s, e)
            }
            "mul" => {
                let p = self.fop(format!("fmul {ty} {a}, {b}"));
                let np = self.fop(format!("fneg {ty} {p}"));
                let e = self.fop(format!("call {ty} @llvm.fma.{sfx}({ty} {a}, {ty} {b}, {ty} {np})"));
                (p, e)
            }
            "div" => {
                let q = self.fop(format!("fdiv {ty} {a}, {b}"));
                let nq = self.fop(format!("fneg {ty} {q}"));
                let r = self.fop(format!("call {ty} @llvm.fma.{sfx}({ty} {nq}, {ty} {b}, {ty} {a})"));
                // exact - q = r / b: its sign is sign(r) * sign(b).
                let e = self.fop(format!("call {ty} @llvm.copysign.{sfx}({ty} 1.0, {ty} {b})"));
                let e2 = self.fop(format!("fmul {ty} {r}, {e}"));
                (q, e2)
            }
            _ => return Err(self.err(format!("{op} with a directed rounding mode is not supported"))),
        };
        Ok(self.adjust(&p, &err, ty, mode, &fin))
    }

    /// `sqrt` with a directed mode.
    pub(crate) fn directed_sqrt(&mut self, ty: &str, x: &str, mode: Directed) -> String {
        if ty == "float" {
            return self.directed_f32("sqrt", x, x, mode).expect("sqrt is supported");
        }
        let sfx = llvm_suffix(ty);
        let s = self.fop(format!("call {ty} @llvm.sqrt.{sfx}({ty} {x})"));
        let ns = self.fop(format!("fneg {ty} {s}"));
        let r = self.fop(format!("call {ty} @llvm.fma.{sfx}({ty} {ns}, {ty} {s}, {ty} {x})"));
        let fin = self.all_finite(ty, &[x]);
        self.adjust(&s, &r, ty, mode, &fin)
    }

    /// `fma` with a directed mode. For f32 the product and sum are formed exactly in f64
    /// (TwoSum keeps the tail); for f64 the error sign comes from the same TwoSum on the
    /// exact product split, which is exact except when the tail terms cancel within an ulp.
    pub(crate) fn directed_fma(&mut self, ty: &str, a: &str, b: &str, c: &str, mode: Directed) -> String {
        let fin = self.all_finite(ty, &[a, b, c]);
        if ty == "float" {
            let (da, db, dc) = (
                self.fop(format!("fpext float {a} to double")),
                self.fop(format!("fpext float {b} to double")),
                self.fop(format!("fpext float {c} to double")),
            );
            let p = self.fop(format!("fmul double {da}, {db}"));
            let s = self.fop(format!("fadd double {p}, {dc}"));
            let bb = self.fop(format!("fsub double {s}, {p}"));
            let ab = self.fop(format!("fsub double {s}, {bb}"));
            let e1 = self.fop(format!("fsub double {p}, {ab}"));
            let e2 = self.fop(format!("fsub double {dc}, {bb}"));
            let e = self.fop(format!("fadd double {e1}, {e2}"));
            let q = self.fop(format!("fptrunc double {s} to float"));
            let qd = self.fop(format!("fpext float {q} to double"));
            let d = self.fop(format!("fsub double {s}, {qd}"));
            let err = self.fop(format!("fadd double {d}, {e}"));
            let errf = self.fop(format!("fptrunc double {err} to float"));
            // A tiny error may truncate to 0 in f32: keep its sign.
            let sign = self.fop(format!("call double @llvm.copysign.f64(double 1.0, double {err})"));
            let nz = self.fop(format!("fcmp one double {err}, 0.0"));
            let signf = self.fop(format!("fptrunc double {sign} to float"));
            let errs = self.fop(format!("select i1 {nz}, float {signf}, float {errf}"));
            return self.adjust(&q, &errs, "float", mode, &fin);
        }
        let p = self.fop(format!("call double @llvm.fma.f64(double {a}, double {b}, double {c})"));
        let ph = self.fop(format!("fmul double {a}, {b}"));
        let nph = self.fop(format!("fneg double {ph}"));
        let pl = self.fop(format!("call double @llvm.fma.f64(double {a}, double {b}, double {nph})"));
        let s = self.fop(format!("fadd double {ph}, {c}"));
        let bb = self.fop(format!("fsub double {s}, {ph}"));
        let ab = self.fop(format!("fsub double {s}, {bb}"));
        let e1 = self.fop(format!("fsub double {ph}, {ab}"));
        let e2 = self.fop(format!("fsub double {c}, {bb}"));
        let e = self.fop(format!("fadd double {e1}, {e2}"));
        let d = self.fop(format!("fsub double {s}, {p}"));
        let t = self.fop(format!("fadd double {d}, {e}"));
        let err = self.fop(format!("fadd double {t}, {pl}"));
        self.adjust(&p, &err, "double", mode, &fin)
    }

    /// f64 -> f32 with a directed mode.
    pub(crate) fn directed_fptrunc(&mut self, x: &str, mode: Directed) -> String {
        let q = self.fop(format!("fptrunc double {x} to float"));
        let qd = self.fop(format!("fpext float {q} to double"));
        let d = self.fop(format!("fsub double {x}, {qd}"));
        let sign = self.fop(format!("call double @llvm.copysign.f64(double 1.0, double {d})"));
        let nz = self.fop(format!("fcmp one double {d}, 0.0"));
        let s = self.fop(format!("select i1 {nz}, double {sign}, double 0.0"));
        let sf = self.fop(format!("fptrunc double {s} to float"));
        let fin = self.all_finite("double", &[x]);
        self.adjust(&q, &sf, "float", mode, &fin)
    }

    /// Integer -> float with a directed mode. `it` is the integer type, `signed` its kind.
    pub(crate) fn directed_itofp(&mut self, v: &str, it: &str, signed: bool, ty: &str, mode: Directed) -> String {
        let conv = if signed { "sitofp" } else { "uitofp" };
        let q = self.fop(format!("{conv} {it} {v} to {ty}"));
        // Compare the exact integer with the rounded value, in i64 (every source fits).
        let x = if it == "i64" {
            v.to_string()
        } else {
            let ext = if signed { "sext" } else { "zext" };
            self.fop(format!("{ext} {it} {v} to i64"))
        };
        // q may be 2^63 (or 2^64 unsigned), just past the i64 range: then x < q.
        let limit = if signed { "0x43E0000000000000" } else { "0x43F0000000000000" };
        let qd = if ty == "float" { self.fop(format!("fpext float {q} to double")) } else { q.clone() };
        let big = self.fop(format!("fcmp oge double {qd}, {limit}"));
        let back = if signed { "fptosi" } else { "fptoui" };
        let qi = self.fop(format!("{back} {ty} {q} to i64"));
        let (lt_op, gt_op) = if signed { ("slt", "sgt") } else { ("ult", "ugt") };
        let below = self.fop(format!("icmp {lt_op} i64 {x}, {qi}"));
        let above = self.fop(format!("icmp {gt_op} i64 {x}, {qi}"));
        let below = self.fop(format!("or i1 {below}, {big}"));
        let above2 = self.fop(format!("xor i1 {big}, true"));
        let above = self.fop(format!("and i1 {above}, {above2}"));
        let e1 = self.fop(format!("select i1 {above}, {ty} 1.0, {ty} 0.0"));
        let err = self.fop(format!("select i1 {below}, {ty} -1.0, {ty} {e1}"));
        self.adjust(&q, &err, ty, mode, "true")
    }
}
