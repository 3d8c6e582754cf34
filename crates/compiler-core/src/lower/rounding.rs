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
    /// Step the round-to-nearest result `p` (of LLVM type `ty`) by one ulp when the
    /// exact result (whose difference `exact - p` has the sign of `err`) says so.
    /// Infinities produced by overflow of finite operands become the largest finite value
    /// where the mode rounds toward it.
    fn adjust(&mut self, p: &str, err: &str, ty: &str, mode: Directed, finite_inputs: &str) -> String {
        let sfx = llvm_suffix(ty);
        let (lt, gt) = (self.value(format!("fcmp olt {ty} {err}, 0.0")), self.value(format!("fcmp ogt {ty} {err}, 0.0")));
        let (step, target) = match mode {
            Directed::Down => (lt, "0xFFF0000000000000".to_string()),
            Directed::Up => (gt, "0x7FF0000000000000".to_string()),
            Directed::Zero => {
                let pos = self.value(format!("fcmp ogt {ty} {p}, 0.0"));
                let neg = self.value(format!("fcmp olt {ty} {p}, 0.0"));
                let a = self.value(format!("and i1 {pos}, {lt}"));
                let b = self.value(format!("and i1 {neg}, {gt}"));
                (self.value(format!("or i1 {a}, {b}")), "0.0".to_string())
            }
        };
        let next_fn = if ty == "float" { "nextafterf" } else { "nextafter" };
        let stepped = self.value(format!("call {ty} @{next_fn}({ty} {p}, {ty} {target})"));
        let r = self.value(format!("select i1 {step}, {ty} {stepped}, {ty} {p}"));
        // Overflow: rn gives +-inf, the directed modes may want +-max instead.
        let abs = self.value(format!("call {ty} @llvm.fabs.{sfx}({ty} {p})"));
        let is_inf = self.value(format!("fcmp oeq {ty} {abs}, 0x7FF0000000000000"));
        let over = self.value(format!("and i1 {is_inf}, {finite_inputs}"));
        let max = if ty == "float" { "0x47EFFFFFE0000000" } else { "0x7FEFFFFFFFFFFFFF" };
        let maxed = self.value(format!("call {ty} @llvm.copysign.{sfx}({ty} {max}, {ty} {p})"));
        let pos = self.value(format!("fcmp ogt {ty} {p}, 0.0"));
        let want_max = match mode {
            Directed::Zero => "true".to_string(),
            Directed::Down => pos,
            Directed::Up => self.value(format!("xor i1 {pos}, true")),
        };
        let use_max = self.value(format!("and i1 {over}, {want_max}"));
        self.value(format!("select i1 {use_max}, {ty} {maxed}, {ty} {r}"))
    }

    fn all_finite(&mut self, ty: &str, vals: &[&str]) -> String {
        let sfx = llvm_suffix(ty);
        let mut acc = "true".to_string();
        for v in vals {
            let a = self.value(format!("call {ty} @llvm.fabs.{sfx}({ty} {v})"));
            let f = self.value(format!("fcmp olt {ty} {a}, 0x7FF0000000000000"));
            acc = self.value(format!("and i1 {acc}, {f}"));
        }
        acc
    }

    /// Round the f64 value `s + tail` (where `tail` is far below the last place of `s`
    /// and only its sign matters) to f32 in a directed mode.
    fn directed_to_f32(&mut self, s: &str, tail: &str, mode: Directed, fin: &str) -> String {
        let q = self.value(format!("fptrunc double {s} to float"));
        let qd = self.value(format!("fpext float {q} to double"));
        let d = self.value(format!("fsub double {s}, {qd}"));
        let nz = self.value(format!("fcmp one double {d}, 0.0"));
        let err = self.value(format!("select i1 {nz}, double {d}, double {tail}"));
        // Only the sign of the error matters; make it a float that cannot underflow.
        let pos = self.value(format!("fcmp ogt double {err}, 0.0"));
        let neg = self.value(format!("fcmp olt double {err}, 0.0"));
        let e1 = self.value(format!("select i1 {pos}, float 1.0, float 0.0"));
        let e = self.value(format!("select i1 {neg}, float -1.0, float {e1}"));
        self.adjust(&q, &e, "float", mode, fin)
    }

    /// f32 arithmetic in a directed mode, done exactly in f64: every f32 product is exact
    /// there, sums keep their tail through TwoSum, and quotients and square roots get the
    /// sign of their remainder from an f64 `fma`. Unlike f32 error-free transformations
    /// this stays exact when the result is subnormal.
    fn directed_f32(&mut self, op: &str, a: &str, b: &str, mode: Directed) -> R<String> {
        let fin = self.all_finite("float", &[a, b]);
        let fin = if op == "div" { self.nonzero_divisor("float", b, &fin) } else { fin };
        let da = self.value(format!("fpext float {a} to double"));
        let db = self.value(format!("fpext float {b} to double"));
        let (s, tail) = match op {
            "mul" => (self.value(format!("fmul double {da}, {db}")), "0.0".to_string()),
            "add" | "sub" => {
                let db = if op == "sub" { self.value(format!("fneg double {db}")) } else { db };
                let s = self.value(format!("fadd double {da}, {db}"));
                let bb = self.value(format!("fsub double {s}, {da}"));
                let ab = self.value(format!("fsub double {s}, {bb}"));
                let e1 = self.value(format!("fsub double {da}, {ab}"));
                let e2 = self.value(format!("fsub double {db}, {bb}"));
                (s, self.value(format!("fadd double {e1}, {e2}")))
            }
            "div" => {
                let q = self.value(format!("fdiv double {da}, {db}"));
                let nq = self.value(format!("fneg double {q}"));
                let r = self.value(format!("call double @llvm.fma.f64(double {nq}, double {db}, double {da})"));
                let sb = self.value(format!("call double @llvm.copysign.f64(double 1.0, double {db})"));
                (q, self.value(format!("fmul double {r}, {sb}")))
            }
            "sqrt" => {
                let q = self.value(format!("call double @llvm.sqrt.f64(double {da})"));
                let nq = self.value(format!("fneg double {q}"));
                (q.clone(), self.value(format!("call double @llvm.fma.f64(double {nq}, double {q}, double {da})")))
            }
            _ => return Err(self.err(format!("{op} with a directed rounding mode is not supported"))),
        };
        let r = self.directed_to_f32(&s, &tail, mode, &fin);
        Ok(match op {
            "add" | "sub" if mode == Directed::Down => {
                let nb = if op == "sub" { self.value(format!("fneg float {b}")) } else { b.to_string() };
                self.zero_sign_down("float", &r, a, &nb)
            }
            _ => r,
        })
    }

    /// x / 0 is an exact infinity, not an overflow: `fin` and "the divisor is not zero".
    fn nonzero_divisor(&mut self, ty: &str, b: &str, fin: &str) -> String {
        let nz = self.value(format!("fcmp one {ty} {b}, 0.0"));
        self.value(format!("and i1 {fin}, {nz}"))
    }

    /// The sign of a zero sum `a + b` rounded down (IEEE 754 6.3): -0 unless both terms
    /// are +0, which is `-((-a) + (-b))` in round-to-nearest. `r` is the directed result.
    fn zero_sign_down(&mut self, ty: &str, r: &str, a: &str, b: &str) -> String {
        let (na, nb) = (self.value(format!("fneg {ty} {a}")), self.value(format!("fneg {ty} {b}")));
        let s = self.value(format!("fadd {ty} {na}, {nb}"));
        let z = self.value(format!("fneg {ty} {s}"));
        let isz = self.value(format!("fcmp oeq {ty} {r}, 0.0"));
        self.value(format!("select i1 {isz}, {ty} {z}, {ty} {r}"))
    }

    /// The same for a zero `fma(a, b, c)`: `-fma(-a, b, -c)`.
    fn fma_zero_sign_down(&mut self, ty: &str, r: &str, a: &str, b: &str, c: &str) -> String {
        let sfx = llvm_suffix(ty);
        let (na, nc) = (self.value(format!("fneg {ty} {a}")), self.value(format!("fneg {ty} {c}")));
        let s = self.value(format!("call {ty} @llvm.fma.{sfx}({ty} {na}, {ty} {b}, {ty} {nc})"));
        let z = self.value(format!("fneg {ty} {s}"));
        let isz = self.value(format!("fcmp oeq {ty} {r}, 0.0"));
        self.value(format!("select i1 {isz}, {ty} {z}, {ty} {r}"))
    }

    /// `a op b` for op in add/sub/mul/div with a directed mode; `ty` is float or double.
    pub(crate) fn directed_binary(&mut self, op: &str, ty: &str, a: &str, b: &str, mode: Directed) -> R<String> {
        if ty == "float" {
            return self.directed_f32(op, a, b, mode);
        }
        let sfx = llvm_suffix(ty);
        let b = if op == "sub" { self.value(format!("fneg {ty} {b}")) } else { b.to_string() };
        let fin = self.all_finite(ty, &[a, &b]);
        let fin = if op == "div" { self.nonzero_divisor(ty, &b, &fin) } else { fin };
        let (p, err) = match op {
            "add" | "sub" => {
                // TwoSum (Knuth): a + b = s + e exactly.
                let s = self.value(format!("fadd {ty} {a}, {b}"));
                let bb = self.value(format!("fsub {ty} {s}, {a}"));
                let ab = self.value(format!("fsub {ty} {s}, {bb}"));
                let da = self.value(format!("fsub {ty} {a}, {ab}"));
                let db = self.value(format!("fsub {ty} {b}, {bb}"));
                let e = self.value(format!("fadd {ty} {da}, {db}"));
                (s, e)
            }
            "mul" => {
                // The error of a subnormal (or underflowed) product is not representable:
                // compare in the scale of the operands' fractions instead, a = ma 2^ea,
                // b = mb 2^eb, where p 2^-(ea+eb) is exact and fma's one rounding keeps
                // the sign of ma mb - p 2^-(ea+eb).
                let p = self.value(format!("fmul {ty} {a}, {b}"));
                let (ma, ea) = self.frexp(a);
                let (mb, eb) = self.frexp(&b);
                let e = self.value(format!("add i32 {ea}, {eb}"));
                let ps = self.ldexp_neg(&p, &e);
                let np = self.value(format!("fneg {ty} {ps}"));
                let e = self.value(format!("call {ty} @llvm.fma.{sfx}({ty} {ma}, {ty} {mb}, {ty} {np})"));
                (p, e)
            }
            "div" => {
                // As for mul: the remainder in the scale of the fractions.
                let q = self.value(format!("fdiv {ty} {a}, {b}"));
                let (ma, ea) = self.frexp(a);
                let (mb, eb) = self.frexp(&b);
                let e = self.value(format!("sub i32 {ea}, {eb}"));
                let qs = self.ldexp_neg(&q, &e);
                let nq = self.value(format!("fneg {ty} {qs}"));
                let r = self.value(format!("call {ty} @llvm.fma.{sfx}({ty} {nq}, {ty} {mb}, {ty} {ma})"));
                // exact - q = r / b: its sign is sign(r) * sign(b).
                let e = self.value(format!("call {ty} @llvm.copysign.{sfx}({ty} 1.0, {ty} {b})"));
                let e2 = self.value(format!("fmul {ty} {r}, {e}"));
                (q, e2)
            }
            _ => return Err(self.err(format!("{op} with a directed rounding mode is not supported"))),
        };
        let r = self.adjust(&p, &err, ty, mode, &fin);
        Ok(match op {
            "add" | "sub" if mode == Directed::Down => self.zero_sign_down(ty, &r, a, &b),
            _ => r,
        })
    }

    /// A double's fraction in [0.5, 1) and exponent (0, 0 for a zero).
    fn frexp(&mut self, x: &str) -> (String, String) {
        let f = self.value(format!("call {{ double, i32 }} @llvm.frexp.f64.i32(double {x})"));
        (self.value(format!("extractvalue {{ double, i32 }} {f}, 0")), self.value(format!("extractvalue {{ double, i32 }} {f}, 1")))
    }

    /// x 2^-e.
    fn ldexp_neg(&mut self, x: &str, e: &str) -> String {
        let ne = self.value(format!("sub i32 0, {e}"));
        self.value(format!("call double @llvm.ldexp.f64.i32(double {x}, i32 {ne})"))
    }

    /// `sqrt` with a directed mode.
    pub(crate) fn directed_sqrt(&mut self, ty: &str, x: &str, mode: Directed) -> String {
        if ty == "float" {
            return self.directed_f32("sqrt", x, x, mode).expect("sqrt is supported");
        }
        let sfx = llvm_suffix(ty);
        let s = self.value(format!("call {ty} @llvm.sqrt.{sfx}({ty} {x})"));
        // x - s^2 in the scale of x's fraction (with an even exponent), where s^2 cannot
        // underflow: x = mx 2^(2h), s 2^-h exact.
        let (mx, ex) = self.frexp(x);
        let odd = self.value(format!("and i32 {ex}, 1"));
        let is_odd = self.value(format!("icmp ne i32 {odd}, 0"));
        let mx2 = self.value(format!("fmul double {mx}, 2.0"));
        let mx = self.value(format!("select i1 {is_odd}, double {mx2}, double {mx}"));
        let ex = self.value(format!("sub i32 {ex}, {odd}"));
        let h = self.value(format!("ashr i32 {ex}, 1"));
        let ss = self.ldexp_neg(&s, &h);
        let ns = self.value(format!("fneg {ty} {ss}"));
        let r = self.value(format!("call {ty} @llvm.fma.{sfx}({ty} {ns}, {ty} {ss}, {ty} {mx})"));
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
                self.value(format!("fpext float {a} to double")),
                self.value(format!("fpext float {b} to double")),
                self.value(format!("fpext float {c} to double")),
            );
            let p = self.value(format!("fmul double {da}, {db}"));
            let s = self.value(format!("fadd double {p}, {dc}"));
            let bb = self.value(format!("fsub double {s}, {p}"));
            let ab = self.value(format!("fsub double {s}, {bb}"));
            let e1 = self.value(format!("fsub double {p}, {ab}"));
            let e2 = self.value(format!("fsub double {dc}, {bb}"));
            let e = self.value(format!("fadd double {e1}, {e2}"));
            let q = self.value(format!("fptrunc double {s} to float"));
            let qd = self.value(format!("fpext float {q} to double"));
            let d = self.value(format!("fsub double {s}, {qd}"));
            let err = self.value(format!("fadd double {d}, {e}"));
            let errf = self.value(format!("fptrunc double {err} to float"));
            // A tiny error may truncate to 0 in f32: keep its sign.
            let sign = self.value(format!("call double @llvm.copysign.f64(double 1.0, double {err})"));
            let nz = self.value(format!("fcmp one double {err}, 0.0"));
            let signf = self.value(format!("fptrunc double {sign} to float"));
            let errs = self.value(format!("select i1 {nz}, float {signf}, float {errf}"));
            let r = self.adjust(&q, &errs, "float", mode, &fin);
            return if mode == Directed::Down { self.fma_zero_sign_down(ty, &r, a, b, c) } else { r };
        }
        let p = self.value(format!("call double @llvm.fma.f64(double {a}, double {b}, double {c})"));
        // Work in the scale 2^-S of the larger of a b and c (S = max(ea + eb, ec)), where
        // neither the product's tail nor the result underflows. A term more than 2^1000
        // below the other only counts by its sign: it stands in as a tiny value.
        let (ma, ea) = self.frexp(a);
        let (mb, eb) = self.frexp(b);
        let (_, ec) = self.frexp(c);
        let e = self.value(format!("add i32 {ea}, {eb}"));
        let (za, zb) = (self.value(format!("fcmp oeq double {a}, 0.0")), self.value(format!("fcmp oeq double {b}, 0.0")));
        let pz = self.value(format!("or i1 {za}, {zb}"));
        let cz = self.value(format!("fcmp oeq double {c}, 0.0"));
        let e = self.value(format!("select i1 {pz}, i32 {ec}, i32 {e}"));
        let ec = self.value(format!("select i1 {cz}, i32 {e}, i32 {ec}"));
        let sc = self.value(format!("call i32 @llvm.smax.i32(i32 {e}, i32 {ec})"));
        let tiny = "0x0170000000000000"; // 2^-1000
                                         // x 2^-shift, or a tiny value of x's sign when its exponent `ex` lies more than
                                         // 1000 below S (and x is not zero).
        let scaled = |l: &mut Self, x: &str, shift: &str, ex: &str, zero: &str| {
            let d = l.value(format!("sub i32 {ex}, {sc}"));
            let far = l.value(format!("icmp slt i32 {d}, -1000"));
            let nz = l.value(format!("xor i1 {zero}, true"));
            let far = l.value(format!("and i1 {far}, {nz}"));
            let t = l.value(format!("call double @llvm.copysign.f64(double {tiny}, double {x})"));
            let xs = l.ldexp_neg(x, shift);
            l.value(format!("select i1 {far}, double {t}, double {xs}"))
        };
        let se = self.value(format!("sub i32 {sc}, {e}"));
        let sa = scaled(self, &ma, &se, &e, &pz);
        let sb = mb;
        let scv = scaled(self, c, &sc, &ec, &cz);
        let ps = self.ldexp_neg(&p, &sc);
        let (a0, b0, c0) = (a, b, c);
        let (a, b, c) = (sa.as_str(), sb.as_str(), scv.as_str());
        let ph = self.value(format!("fmul double {a}, {b}"));
        let nph = self.value(format!("fneg double {ph}"));
        let pl = self.value(format!("call double @llvm.fma.f64(double {a}, double {b}, double {nph})"));
        let s = self.value(format!("fadd double {ph}, {c}"));
        let bb = self.value(format!("fsub double {s}, {ph}"));
        let ab = self.value(format!("fsub double {s}, {bb}"));
        let e1 = self.value(format!("fsub double {ph}, {ab}"));
        let e2 = self.value(format!("fsub double {c}, {bb}"));
        let e = self.value(format!("fadd double {e1}, {e2}"));
        let d = self.value(format!("fsub double {s}, {ps}"));
        let t = self.value(format!("fadd double {d}, {e}"));
        let err = self.value(format!("fadd double {t}, {pl}"));
        // Infinite operands give an exact (infinite or NaN) result.
        let err = self.value(format!("select i1 {fin}, double {err}, double 0.0"));
        let r = self.adjust(&p, &err, "double", mode, &fin);
        if mode == Directed::Down {
            self.fma_zero_sign_down(ty, &r, a0, b0, c0)
        } else {
            r
        }
    }

    /// f64 -> f32 with a directed mode.
    pub(crate) fn directed_fptrunc(&mut self, x: &str, mode: Directed) -> String {
        let q = self.value(format!("fptrunc double {x} to float"));
        let qd = self.value(format!("fpext float {q} to double"));
        let d = self.value(format!("fsub double {x}, {qd}"));
        let sign = self.value(format!("call double @llvm.copysign.f64(double 1.0, double {d})"));
        let nz = self.value(format!("fcmp one double {d}, 0.0"));
        let s = self.value(format!("select i1 {nz}, double {sign}, double 0.0"));
        let sf = self.value(format!("fptrunc double {s} to float"));
        let fin = self.all_finite("double", &[x]);
        self.adjust(&q, &sf, "float", mode, &fin)
    }

    /// Integer -> float with a directed mode. `it` is the integer type, `signed` its kind.
    pub(crate) fn directed_itofp(&mut self, v: &str, it: &str, signed: bool, ty: &str, mode: Directed) -> String {
        let conv = if signed { "sitofp" } else { "uitofp" };
        let q = self.value(format!("{conv} {it} {v} to {ty}"));
        // Compare the exact integer with the rounded value, in i64 (every source fits).
        let x = if it == "i64" {
            v.to_string()
        } else {
            let ext = if signed { "sext" } else { "zext" };
            self.value(format!("{ext} {it} {v} to i64"))
        };
        // q may be 2^63 (or 2^64 unsigned), just past the i64 range: then x < q.
        let limit = if signed { "0x43E0000000000000" } else { "0x43F0000000000000" };
        let qd = if ty == "float" { self.value(format!("fpext float {q} to double")) } else { q.clone() };
        let big = self.value(format!("fcmp oge double {qd}, {limit}"));
        let back = if signed { "fptosi" } else { "fptoui" };
        let qi = self.value(format!("{back} {ty} {q} to i64"));
        let (lt_op, gt_op) = if signed { ("slt", "sgt") } else { ("ult", "ugt") };
        let below = self.value(format!("icmp {lt_op} i64 {x}, {qi}"));
        let above = self.value(format!("icmp {gt_op} i64 {x}, {qi}"));
        let below = self.value(format!("or i1 {below}, {big}"));
        let above2 = self.value(format!("xor i1 {big}, true"));
        let above = self.value(format!("and i1 {above}, {above2}"));
        let e1 = self.value(format!("select i1 {above}, {ty} 1.0, {ty} 0.0"));
        let err = self.value(format!("select i1 {below}, {ty} -1.0, {ty} {e1}"));
        self.adjust(&q, &err, ty, mode, "true")
    }

    /// Round the double `d` to f16 (or bf16) bits, as an i16, in round-to-nearest-even or
    /// a directed mode, subnormal results and overflow included. `d` must be the exact
    /// value, or rounded to odd at double precision (then rounding it again is correct:
    /// both formats have far fewer than 52 fraction bits). NaNs are left to the caller.
    pub(crate) fn round_to_16(&mut self, d: &str, bf: bool, mode: Option<Directed>) -> String {
        let (m, bias): (i64, i64) = if bf { (7, 127) } else { (10, 15) };
        let emin = 1 - bias;
        let inf_bits: i64 = if bf { 0x7f80 } else { 0x7c00 };
        let x = self.value(format!("bitcast double {d} to i64"));
        let neg = self.value(format!("icmp slt i64 {x}, 0"));
        let abs = self.value(format!("and i64 {x}, 9223372036854775807"));
        let be = self.value(format!("lshr i64 {abs}, 52"));
        let ed = self.value(format!("sub i64 {be}, 1023"));
        let frac = self.value(format!("and i64 {abs}, 4503599627370495"));
        let normal = self.value(format!("icmp ne i64 {be}, 0"));
        let imp = self.value(format!("select i1 {normal}, i64 4503599627370496, i64 0"));
        let sig = self.value(format!("or i64 {frac}, {imp}"));
        // Bits dropped: 52 - m, and more below the smallest normal exponent.
        let below = self.value(format!("sub i64 {emin}, {ed}"));
        let extra = self.value(format!("call i64 @llvm.smax.i64(i64 {below}, i64 0)"));
        let sh0 = self.value(format!("add i64 {extra}, {}", 52 - m));
        let sh = self.value(format!("call i64 @llvm.umin.i64(i64 {sh0}, i64 63)"));
        let q = self.value(format!("lshr i64 {sig}, {sh}"));
        let one = self.value(format!("shl i64 1, {sh}"));
        let rmask = self.value(format!("sub i64 {one}, 1"));
        let rem = self.value(format!("and i64 {sig}, {rmask}"));
        let half = self.value(format!("lshr i64 {one}, 1"));
        let inexact = self.value(format!("icmp ne i64 {rem}, 0"));
        let inc = match mode {
            None => {
                let gt = self.value(format!("icmp ugt i64 {rem}, {half}"));
                let eq = self.value(format!("icmp eq i64 {rem}, {half}"));
                let odd = self.value(format!("trunc i64 {q} to i1"));
                let tie = self.value(format!("and i1 {eq}, {odd}"));
                self.value(format!("or i1 {gt}, {tie}"))
            }
            Some(Directed::Zero) => "false".to_string(),
            Some(Directed::Up) => {
                let pos = self.value(format!("xor i1 {neg}, true"));
                self.value(format!("and i1 {inexact}, {pos}"))
            }
            Some(Directed::Down) => self.value(format!("and i1 {inexact}, {neg}")),
        };
        let inc64 = self.value(format!("zext i1 {inc} to i64"));
        // Normal: (biased exponent - 1) << m plus q, whose implicit bit adds the 1 back;
        // a carry out of the fraction steps the exponent. Subnormal: q alone.
        let isn = self.value(format!("icmp sge i64 {ed}, {emin}"));
        let eb = self.value(format!("add i64 {ed}, {}", bias - 1));
        let ebs = self.value(format!("shl i64 {eb}, {m}"));
        let base = self.value(format!("select i1 {isn}, i64 {ebs}, i64 0"));
        let r0 = self.value(format!("add i64 {base}, {q}"));
        let r1 = self.value(format!("add i64 {r0}, {inc64}"));
        // Overflow: infinity, or the largest finite value where the mode rounds toward it.
        let over = self.value(format!("icmp sge i64 {r1}, {inf_bits}"));
        let to_max = match mode {
            None => "false".to_string(),
            Some(Directed::Zero) => "true".to_string(),
            Some(Directed::Up) => neg.clone(),
            Some(Directed::Down) => self.value(format!("xor i1 {neg}, true")),
        };
        let isinf = self.value(format!("icmp eq i64 {abs}, 9218868437227405312"));
        let nmax = self.value(format!("xor i1 {isinf}, true"));
        let to_max = self.value(format!("and i1 {to_max}, {nmax}"));
        let sat = self.value(format!("select i1 {to_max}, i64 {}, i64 {inf_bits}", inf_bits - 1));
        let r2 = self.value(format!("select i1 {over}, i64 {sat}, i64 {r1}"));
        let sgn = self.value(format!("select i1 {neg}, i64 32768, i64 0"));
        let r3 = self.value(format!("or i64 {r2}, {sgn}"));
        self.value(format!("trunc i64 {r3} to i16"))
    }

    /// `s + e` (an exact sum, `e` far below `s`'s last place) rounded to odd at double
    /// precision: `s` when exact or odd, else its neighbour toward `e`.
    pub(crate) fn round_to_odd(&mut self, s: &str, e: &str) -> String {
        let x = self.value(format!("bitcast double {s} to i64"));
        let lsb = self.value(format!("trunc i64 {x} to i1"));
        let inexact = self.value(format!("fcmp one double {e}, 0.0"));
        let even = self.value(format!("xor i1 {lsb}, true"));
        let step = self.value(format!("and i1 {inexact}, {even}"));
        // Toward e: magnitude up when e has s's sign.
        let xe = self.value(format!("bitcast double {e} to i64"));
        let same = self.value(format!("xor i64 {x}, {xe}"));
        let up = self.value(format!("icmp sge i64 {same}, 0"));
        let d = self.value(format!("select i1 {up}, i64 1, i64 -1"));
        let y = self.value(format!("add i64 {x}, {d}"));
        let z = self.value(format!("select i1 {step}, i64 {y}, i64 {x}"));
        self.value(format!("bitcast i64 {z} to double"))
    }
}
