//! 8-bit floats (PTX ISA 9.7.9.21 `cvt`, sm_89+): `cvt.rn{.relu}.f16x2.{e4m3x2,e5m2x2}`
//! widens two packed 8-bit floats to halves (exactly: every value fits), and
//! `cvt.rn.satfinite{.relu}.{e4m3x2,e5m2x2}.{f32,f16x2}` narrows two values with
//! round-to-nearest-even, saturating to the largest finite value (infinities too) and
//! keeping NaN. The first source (`a`) or the upper half goes to the upper byte.
//!
//! e4m3: bias 7, 3 mantissa bits, no infinities, NaN `S.1111.111`, largest 448.
//! e5m2: bias 15, 2 mantissa bits, the upper byte of an IEEE half (largest 57344).

use super::func::{FnLowerer, R};
use super::types::Mods;
use crate::ptx::ast::*;

#[derive(Clone, Copy, PartialEq)]
pub(crate) enum Fp8 {
    E4M3,
    E5M2,
}

impl Fp8 {
    /// The packed 8-bit type of `cvt` `i`, and whether it is the destination (narrowing).
    pub(crate) fn of_cvt(i: &Instruction) -> Option<(Fp8, bool)> {
        let at = |name: &str| i.modifiers.iter().position(|m| m == name);
        let (f, pos) = match (at(".e4m3x2"), at(".e5m2x2")) {
            (Some(p), _) => (Fp8::E4M3, p),
            (_, Some(p)) => (Fp8::E5M2, p),
            _ => return None,
        };
        // The destination type comes first: `cvt.rn.f16x2.e4m3x2` widens.
        let other = i.modifiers.iter().position(|m| m == ".f16x2" || m == ".f32");
        Some((f, other.is_none_or(|o| pos < o)))
    }

    fn mantissa_bits(self) -> u32 {
        match self {
            Fp8::E4M3 => 3,
            Fp8::E5M2 => 2,
        }
    }

    fn bias(self) -> u32 {
        match self {
            Fp8::E4M3 => 7,
            Fp8::E5M2 => 15,
        }
    }

    /// The bits of the largest finite value.
    fn max_bits(self) -> u32 {
        match self {
            Fp8::E4M3 => 0x7e,
            Fp8::E5M2 => 0x7b,
        }
    }
}

impl FnLowerer<'_> {
    /// `cvt` to (`narrow`) or from the packed 8-bit floats `f`.
    pub(crate) fn cvt_fp8(&mut self, f: Fp8, narrow: bool, m: &Mods, ops: &[Operand]) -> R<()> {
        let relu = m.has(".relu");
        let ops = self.operands(ops, 2)?;
        match (narrow, m.types.as_slice()) {
            (false, [ScalarType::F16x2]) => {
                let a = self.src(&ops[1], ScalarType::B(16))?;
                let a = self.value(format!("zext i16 {a} to i32"));
                let lo = self.fp8_to_half(f, &a, 0, relu);
                let hi = self.fp8_to_half(f, &a, 8, relu);
                let hi = self.value(format!("shl i32 {hi}, 16"));
                let d = self.value(format!("or i32 {hi}, {lo}"));
                self.dst(&ops[0], ScalarType::B(32), &d)
            }
            (true, [ScalarType::F32]) => {
                let ops = self.operands(ops, 3)?;
                let a = self.src(&ops[1], ScalarType::F32)?;
                let b = self.src(&ops[2], ScalarType::F32)?;
                let hi = self.float_to_fp8(f, &a, relu);
                let lo = self.float_to_fp8(f, &b, relu);
                self.pack_bytes(&ops[0], &hi, &lo)
            }
            (true, [ScalarType::F16x2]) => {
                let a = self.src(&ops[1], ScalarType::B(32))?;
                let mut halves = Vec::new();
                for sh in [16, 0] {
                    let s = self.value(format!("lshr i32 {a}, {sh}"));
                    let h = self.value(format!("trunc i32 {s} to i16"));
                    let h = self.value(format!("bitcast i16 {h} to half"));
                    let x = self.value(format!("fpext half {h} to float"));
                    halves.push(self.float_to_fp8(f, &x, relu));
                }
                self.pack_bytes(&ops[0], &halves[0], &halves[1])
            }
            _ => Err(self.err("cvt with 8-bit floats needs .f16x2 (widening) or .f32/.f16x2 sources (narrowing)")),
        }
    }

    /// `d` (16 bits) = `hi` in the upper byte, `lo` in the lower (both i32 byte values).
    fn pack_bytes(&mut self, d: &Operand, hi: &str, lo: &str) -> R<()> {
        let hi = self.value(format!("shl i32 {hi}, 8"));
        let v = self.value(format!("or i32 {hi}, {lo}"));
        let v = self.value(format!("trunc i32 {v} to i16"));
        self.dst(d, ScalarType::B(16), &v)
    }

    /// The half (bits, in an i32) of the 8-bit float at bit `shift` of `a` (an i32).
    fn fp8_to_half(&mut self, f: Fp8, a: &str, shift: u32, relu: bool) -> String {
        let b = self.value(format!("lshr i32 {a}, {shift}"));
        let b = self.value(format!("and i32 {b}, 255"));
        let sign = self.value(format!("and i32 {b}, 128"));
        let sign16 = self.value(format!("shl i32 {sign}, 8"));
        let (h, nan) = match f {
            // The upper byte of a half.
            Fp8::E5M2 => {
                let h = self.value(format!("shl i32 {b}, 8"));
                let mag = self.value(format!("and i32 {b}, 127"));
                let nan = self.value(format!("icmp ugt i32 {mag}, 124"));
                (h, nan)
            }
            Fp8::E4M3 => {
                let e = self.value(format!("lshr i32 {b}, 3"));
                let e = self.value(format!("and i32 {e}, 15"));
                let mant = self.value(format!("and i32 {b}, 7"));
                // Normal: exponent rebiased from 7 to 15, mantissa at the top of 10 bits.
                let ne = self.value(format!("add i32 {e}, 8"));
                let ne = self.value(format!("shl i32 {ne}, 10"));
                let nm = self.value(format!("shl i32 {mant}, 7"));
                let normal = self.value(format!("or i32 {ne}, {nm}"));
                // Subnormal: mant * 2^-9, a normal half.
                let mf = self.value(format!("uitofp i32 {mant} to half"));
                let sf = self.value(format!("fmul half {mf}, 0xH1800"));
                let sb = self.value(format!("bitcast half {sf} to i16"));
                let sb = self.value(format!("zext i16 {sb} to i32"));
                let sub = self.value(format!("icmp eq i32 {e}, 0"));
                let mag = self.value(format!("select i1 {sub}, i32 {sb}, i32 {normal}"));
                let h = self.value(format!("or i32 {mag}, {sign16}"));
                let low7 = self.value(format!("and i32 {b}, 127"));
                let nan = self.value(format!("icmp eq i32 {low7}, 127"));
                (h, nan)
            }
        };
        let h = self.value(format!("select i1 {nan}, i32 32767, i32 {h}"));
        if !relu {
            return h;
        }
        let neg = self.value(format!("icmp ne i32 {sign}, 0"));
        let keep = self.value(format!("xor i1 {nan}, true"));
        let zero = self.value(format!("and i1 {neg}, {keep}"));
        self.value(format!("select i1 {zero}, i32 0, i32 {h}"))
    }

    /// The 8-bit float (an i32 byte value) nearest `x` (a float), ties to even, saturated
    /// to the largest finite value; NaN stays NaN; `.relu` makes negatives +0.
    fn float_to_fp8(&mut self, f: Fp8, x: &str, relu: bool) -> String {
        let (m, bias) = (f.mantissa_bits(), f.bias());
        let shift = 23 - m;
        let bits = self.value(format!("bitcast float {x} to i32"));
        let sign = self.value(format!("lshr i32 {bits}, 31"));
        let abs = self.value(format!("and i32 {bits}, 2147483647"));
        let nan = self.value(format!("icmp ugt i32 {abs}, 2139095040"));
        // Normal results: round the float's bits below the kept mantissa (ties to even;
        // a carry moves into the exponent), then rebias the exponent.
        let lsb = self.value(format!("lshr i32 {abs}, {shift}"));
        let lsb = self.value(format!("and i32 {lsb}, 1"));
        let inc = self.value(format!("add i32 {lsb}, {}", (1u32 << (shift - 1)) - 1));
        let r = self.value(format!("add i32 {abs}, {inc}"));
        let r = self.value(format!("lshr i32 {r}, {shift}"));
        let normal = self.value(format!("sub i32 {r}, {}", (127 - bias) << m));
        // Below the smallest normal: the value in units of the smallest subnormal, rounded
        // (reaching 2^m gives the smallest normal's bits).
        let af = self.value(format!("bitcast i32 {abs} to float"));
        let scaled = self.value(format!("fmul float {af}, {}.0", 1u64 << (bias - 1 + m)));
        let rounded = self.value(format!("call float @llvm.roundeven.f32(float {scaled})"));
        let sub = self.value(format!("fptoui float {rounded} to i32"));
        let is_sub = self.value(format!("icmp ult i32 {abs}, {}", (128 - bias) << 23));
        let v = self.value(format!("select i1 {is_sub}, i32 {sub}, i32 {normal}"));
        let big = self.value(format!("icmp ugt i32 {v}, {}", f.max_bits()));
        let v = self.value(format!("select i1 {big}, i32 {}, i32 {v}", f.max_bits()));
        let v = if relu {
            let neg = self.value(format!("icmp ne i32 {sign}, 0"));
            self.value(format!("select i1 {neg}, i32 0, i32 {v}"))
        } else {
            let s = self.value(format!("shl i32 {sign}, 7"));
            self.value(format!("or i32 {v}, {s}"))
        };
        self.value(format!("select i1 {nan}, i32 127, i32 {v}"))
    }
}
