//! f16/bf16 arithmetic, scalar and paired (PTX ISA 9.7.4): `add`/`sub`/`mul`/`fma` with
//! `.rn`, `.ftz`, `.sat`, `.relu`, `neg`/`abs`, and `min`/`max` with `.NaN` and
//! `.xorsign.abs`. Each lane is computed exactly in f64 (or rounded to odd there) and
//! rounded once to the 16-bit format, so no host half/bfloat arithmetic (which may flush
//! bf16 subnormals, or round twice through f32) is involved.

use super::func::{FnLowerer, R};
use super::types::Mods;
use crate::ptx::ast::*;

/// Whether `ty` is one of the 16-bit float types this module lowers.
pub(crate) fn is_half(ty: ScalarType) -> bool {
    matches!(ty, ScalarType::F16 | ScalarType::BF16 | ScalarType::F16x2 | ScalarType::BF16x2)
}

impl FnLowerer<'_> {
    /// One lane's bits as an exact double.
    fn lane_to_double(&mut self, x: &str, bf: bool) -> String {
        if bf {
            let z = self.value(format!("zext i16 {x} to i32"));
            let s = self.value(format!("shl i32 {z}, 16"));
            let f = self.value(format!("bitcast i32 {s} to float"));
            self.value(format!("fpext float {f} to double"))
        } else {
            let f = self.value(format!("bitcast i16 {x} to half"));
            self.value(format!("fpext half {f} to double"))
        }
    }

    /// `.ftz` on a lane's bits: a subnormal becomes a zero of its sign.
    fn lane_ftz(&mut self, x: &str) -> String {
        let a = self.value(format!("and i16 {x}, 32767"));
        let sub = self.value(format!("icmp ult i16 {a}, 1024"));
        let z = self.value(format!("and i16 {x}, -32768"));
        self.value(format!("select i1 {sub}, i16 {z}, i16 {x}"))
    }

    fn lane_is_nan(&mut self, x: &str, bf: bool) -> String {
        let a = self.value(format!("and i16 {x}, 32767"));
        self.value(format!("icmp ugt i16 {a}, {}", if bf { 0x7f80 } else { 0x7c00 }))
    }

    /// One lane of the instruction on 16-bit values `x` (1 to 3 operands).
    fn half_lane(&mut self, op: &str, bf: bool, m: &Mods, x: &[String]) -> String {
        let ftz = m.has(".ftz") && !bf;
        let x: Vec<String> = x.iter().map(|v| if ftz { self.lane_ftz(v) } else { v.clone() }).collect();
        match op {
            "neg" => return self.value(format!("xor i16 {}, -32768", x[0])),
            "abs" => return self.value(format!("and i16 {}, 32767", x[0])),
            "min" | "max" => return self.half_min_max(op == "max", bf, m, &x[0], &x[1]),
            _ => {}
        }
        let d: Vec<String> = x.iter().map(|v| self.lane_to_double(v, bf)).collect();
        // The exact result as s + e (e far below s's last place, or 0).
        let (s, e) = match op {
            "add" | "sub" => {
                let b = if op == "sub" { self.value(format!("fneg double {}", d[1])) } else { d[1].clone() };
                self.two_sum(&d[0], &b)
            }
            "mul" => (self.value(format!("fmul double {}, {}", d[0], d[1])), "0.0".to_string()),
            _ => {
                let p = self.value(format!("fmul double {}, {}", d[0], d[1]));
                self.two_sum(&p, &d[2])
            }
        };
        let s = self.round_to_odd(&s, &e);
        let mut r = self.round_to_16(&s, bf, None);
        let isnan = self.value(format!("fcmp uno double {s}, 0.0"));
        r = self.value(format!("select i1 {isnan}, i16 32767, i16 {r}"));
        if ftz {
            // Tininess before rounding for add/sub/mul, after rounding (unbounded
            // exponent) for fma, as on the H200.
            let bound = if op == "fma" { "0x3F0FFE0000000000" } else { "0x3F10000000000000" }; // 2^-14 (1 - 2^-12), 2^-14
            let a = self.value(format!("call double @llvm.fabs.f64(double {s})"));
            let tiny = self.value(format!("fcmp olt double {a}, {bound}"));
            let z = self.value(format!("and i16 {r}, -32768"));
            r = self.value(format!("select i1 {tiny}, i16 {z}, i16 {r}"));
        }
        if m.has(".sat") {
            let one = if bf { 0x3f80 } else { 0x3c00 };
            let nan = self.lane_is_nan(&r, bf);
            let neg = self.value(format!("icmp slt i16 {r}, 0"));
            let zero = self.value(format!("or i1 {nan}, {neg}"));
            let big = self.value(format!("icmp sgt i16 {r}, {one}"));
            let c = self.value(format!("select i1 {big}, i16 {one}, i16 {r}"));
            r = self.value(format!("select i1 {zero}, i16 0, i16 {c}"));
        }
        if m.has(".relu") {
            let nan = self.lane_is_nan(&r, bf);
            let neg = self.value(format!("icmp slt i16 {r}, 0"));
            let z = self.value(format!("select i1 {neg}, i16 0, i16 {r}"));
            r = self.value(format!("select i1 {nan}, i16 32767, i16 {z}"));
        }
        if ftz {
            r = self.lane_ftz(&r);
        }
        r
    }

    /// TwoSum: a + b = s + e exactly.
    fn two_sum(&mut self, a: &str, b: &str) -> (String, String) {
        let s = self.value(format!("fadd double {a}, {b}"));
        let bb = self.value(format!("fsub double {s}, {a}"));
        let ab = self.value(format!("fsub double {s}, {bb}"));
        let da = self.value(format!("fsub double {a}, {ab}"));
        let db = self.value(format!("fsub double {b}, {bb}"));
        let e = self.value(format!("fadd double {da}, {db}"));
        (s, e)
    }

    /// min/max on lane bits: -0 below +0; one NaN gives the other operand, two (or any,
    /// with `.NaN`) the canonical NaN; `.xorsign.abs` compares magnitudes and gives the
    /// result the sign sign(a) ^ sign(b).
    fn half_min_max(&mut self, max: bool, bf: bool, m: &Mods, a0: &str, b0: &str) -> String {
        let xs = m.has(".xorsign");
        let (a, b) = if xs {
            (self.value(format!("and i16 {a0}, 32767")), self.value(format!("and i16 {b0}, 32767")))
        } else {
            (a0.to_string(), b0.to_string())
        };
        let (da, db) = (self.lane_to_double(&a, bf), self.lane_to_double(&b, bf));
        let lt = self.value(format!("fcmp olt double {da}, {db}"));
        let eq = self.value(format!("fcmp oeq double {da}, {db}"));
        let an = self.value(format!("icmp slt i16 {a}, 0"));
        let bn = self.value(format!("icmp slt i16 {b}, 0"));
        let nbn = self.value(format!("xor i1 {bn}, true"));
        let zneg = self.value(format!("and i1 {an}, {nbn}"));
        let zl = self.value(format!("and i1 {eq}, {zneg}"));
        let less = self.value(format!("or i1 {lt}, {zl}"));
        let pick_a = if max { self.value(format!("xor i1 {less}, true")) } else { less };
        let mut r = self.value(format!("select i1 {pick_a}, i16 {a}, i16 {b}"));
        let (na, nb) = (self.lane_is_nan(&a, bf), self.lane_is_nan(&b, bf));
        let r1 = self.value(format!("select i1 {na}, i16 {b}, i16 {r}"));
        let r2 = self.value(format!("select i1 {nb}, i16 {a}, i16 {r1}"));
        let canon = if m.has(".NaN") { self.value(format!("or i1 {na}, {nb}")) } else { self.value(format!("and i1 {na}, {nb}")) };
        r = self.value(format!("select i1 {canon}, i16 32767, i16 {r2}"));
        if xs {
            let sx = self.value(format!("xor i16 {a0}, {b0}"));
            let sgn = self.value(format!("and i16 {sx}, -32768"));
            let with = self.value(format!("or i16 {r}, {sgn}"));
            let isn = self.lane_is_nan(&r, bf);
            r = self.value(format!("select i1 {isn}, i16 {r}, i16 {with}"));
        }
        r
    }

    /// Lower `op` (add, sub, mul, fma, neg, abs, min, max) on a 16-bit float type.
    pub(crate) fn half_arith(&mut self, op: &str, ty: ScalarType, m: &Mods, ops: &[Operand]) -> R<()> {
        let n = match op {
            "neg" | "abs" => 1,
            "fma" => 3,
            _ => 2,
        };
        let ops = self.operands(ops, n + 1)?;
        let bf = matches!(ty, ScalarType::BF16 | ScalarType::BF16x2);
        let paired = matches!(ty, ScalarType::F16x2 | ScalarType::BF16x2);
        let mut raw = Vec::new();
        for o in &ops[1..=n] {
            raw.push(self.src(o, ty)?);
        }
        if !paired {
            let r = self.half_lane(op, bf, m, &raw);
            return self.dst(&ops[0], ty, &r);
        }
        let mut halves = Vec::new();
        for sh in [0, 16] {
            let x: Vec<String> = raw
                .iter()
                .map(|v| {
                    let s = self.value(format!("lshr i32 {v}, {sh}"));
                    self.value(format!("trunc i32 {s} to i16"))
                })
                .collect();
            halves.push(self.half_lane(op, bf, m, &x));
        }
        let lo = self.value(format!("zext i16 {} to i32", halves[0]));
        let hi = self.value(format!("zext i16 {} to i32", halves[1]));
        let his = self.value(format!("shl i32 {hi}, 16"));
        let r = self.value(format!("or i32 {his}, {lo}"));
        self.dst(&ops[0], ty, &r)
    }

    /// The low and high halves of paired 16-bit operands as doubles (after `.ftz`):
    /// `[low lane operands, high lane operands]`.
    pub(crate) fn half_lanes_f64(&mut self, ty: ScalarType, raw: &[String], m: &Mods) -> Vec<Vec<String>> {
        let bf = ty == ScalarType::BF16x2;
        let ftz = m.has(".ftz") && !bf;
        let mut out = Vec::new();
        for sh in [0, 16] {
            let mut lane = Vec::new();
            for v in raw {
                let s = self.value(format!("lshr i32 {v}, {sh}"));
                let t = self.value(format!("trunc i32 {s} to i16"));
                let t = if ftz { self.lane_ftz(&t) } else { t };
                lane.push(self.lane_to_double(&t, bf));
            }
            out.push(lane);
        }
        out
    }

    /// One lane of a 16-bit float operation (for the atomics).
    pub(crate) fn half_lane_pub(&mut self, op: &str, bf: bool, m: &Mods, x: &[String]) -> String {
        self.half_lane(op, bf, m, x)
    }
}
