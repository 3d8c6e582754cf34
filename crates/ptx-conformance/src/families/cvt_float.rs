//! Conversions involving floats (PTX ISA 9.7.9.21 `cvt`): float -> integer in every
//! integer-rounding mode (NaN gives 0, out-of-range values saturate), integer -> float in
//! every rounding mode, float -> float between f16, bf16, f32 and f64 (narrowing in every
//! mode, `.ftz` on the f32 side, `.sat`), rounding to an integral value in the same format,
//! and the packing forms `cvt.rn{.relu}.{f16x2,bf16x2}.f32`. Half and bfloat16 sources are
//! swept exhaustively.

use super::{seed, val, wrap};
use crate::case::{Case, Ty};
use crate::fp::{self, Exact, Fmt, Rnd, Tininess};
use crate::rng::{all16, float_tuples, int_pairs, Rng};

const F: &str = "cvt-float";

const INT: [Ty; 8] = [Ty::U8, Ty::S8, Ty::U16, Ty::S16, Ty::U32, Ty::S32, Ty::U64, Ty::S64];

pub fn fmt_of(t: Ty) -> Fmt {
    match t {
        Ty::F16 => Fmt::H,
        Ty::BF16 => Fmt::BF,
        Ty::F32 => Fmt::S,
        _ => Fmt::D,
    }
}

/// Inputs for a float source: every value for 16-bit formats, else edges plus random.
fn float_inputs(t: Ty, n: usize, s: u64) -> Vec<u64> {
    if t.bytes() == 2 {
        all16()
    } else {
        let f = fmt_of(t);
        let _ = s;
        let mut v = float_tuples(f.width(), f.exp_bits(), 1, n, f.width() as u64).remove(0);
        // values around the smallest normals of the narrower formats (f32: 2^-126, f16:
        // 2^-14), where rounding and flushing meet
        let mut specials = Vec::new();
        for p in [-126, -14, -24, -133] {
            let m = 2f64.powi(p);
            for k in [1.0, 1.0 - 2f64.powi(-25), 1.0 - 2f64.powi(-12), 1.0 - 2f64.powi(-30), 0.5, 0.75, 1.0 + 2f64.powi(-23)] {
                specials.push(f.from_f64(m * k));
                specials.push(f.from_f64(-m * k));
            }
        }
        let len = v.len();
        v[len - specials.len()..].copy_from_slice(&specials);
        v
    }
}

/// What `cvt` gives for a NaN source and an integer destination of `bits` bits, as the
/// H200 does it: 0 from f16/bf16/f32 into 8-32 bits, else the pattern with only the top
/// bit of the destination set (the ISA says 0 throughout).
fn nan_to_int(src: Fmt, bits: u32) -> u64 {
    if src == Fmt::D || bits == 64 {
        1u64 << (bits - 1)
    } else {
        0
    }
}

/// The register contents of an integer result of type `dst`.
fn int_reg(x: u64, dst: Ty) -> u64 {
    wrap(val(x, dst), dst.bytes() as u32 * 8)
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    let floats = [Ty::F16, Ty::BF16, Ty::F32, Ty::F64];
    // float -> integer
    for src in floats {
        let f = fmt_of(src);
        for dst in INT {
            if src == Ty::BF16 && dst.bits() == 8 {
                continue; // not a valid conversion (ptxas: arguments mismatch)
            }
            for r in Rnd::ALL {
                let body = format!("cvt.{}.{}.{} %x, %a;", r.int_name(), dst.name(), src.name());
                let a = float_inputs(src, 8192, seed(&body));
                v.push(Case::simple(F, &body, vec![(src, a)], dst, move |x| {
                    if f.is_nan(x[0]) {
                        return int_reg(nan_to_int(f, dst.bits()), dst);
                    }
                    int_reg(fp::to_int(f, x[0], r, dst.is_signed(), dst.bits()), dst)
                }));
            }
        }
    }
    for (r, dst) in [(Rnd::Rp, Ty::S32), (Rnd::Rm, Ty::U32), (Rnd::Rn, Ty::S64), (Rnd::Rz, Ty::S8)] {
        let body = format!("cvt.{}.ftz.sat.{}.f32 %x, %a;", r.int_name(), dst.name());
        let a = float_inputs(Ty::F32, 8192, seed(&body));
        v.push(Case::simple(F, &body, vec![(Ty::F32, a)], dst, move |x| {
            if Fmt::S.is_nan(x[0]) {
                return int_reg(nan_to_int(Fmt::S, dst.bits()), dst);
            }
            int_reg(fp::to_int(Fmt::S, Fmt::S.ftz(x[0]), r, dst.is_signed(), dst.bits()), dst)
        }));
    }
    // integer -> float
    for src in INT {
        for dst in floats {
            if dst == Ty::BF16 && src.bits() == 8 {
                continue; // not a valid conversion (ptxas: arguments mismatch)
            }
            let f = fmt_of(dst);
            for r in Rnd::ALL {
                let body = format!("cvt.{}.{}.{} %x, %a;", r.name(), dst.name(), src.name());
                let a = if src.bytes() == 2 { all16() } else { int_pairs(src.bits(), 8, 4096, seed(&body)).0 };
                v.push(Case::simple(F, &body, vec![(src, a)], dst, move |x| fp::from_int(f, val(x[0], src), r)));
            }
        }
    }
    // float -> float
    for src in floats {
        for dst in floats {
            let (fs, fd) = (fmt_of(src), fmt_of(dst));
            let narrowing = fd.mant_bits() < fs.mant_bits() || fd.exp_bits() < fs.exp_bits();
            if src == dst {
                // round to an integral value in the same format
                for r in Rnd::ALL {
                    let body = format!("cvt.{}.{}.{} %x, %a;", r.int_name(), dst.name(), src.name());
                    let a = float_inputs(src, 8192, seed(&body));
                    v.push(Case::simple(F, &body, vec![(src, a)], dst, move |x| fp::round_int(fs, x[0], r)));
                }
                continue;
            }
            let modes: Vec<Option<Rnd>> = if narrowing { Rnd::ALL.map(Some).to_vec() } else { vec![None] };
            for r in modes {
                let rn = r.map_or(String::new(), |r| format!(".{}", r.name()));
                let body = format!("cvt{rn}.{}.{} %x, %a;", dst.name(), src.name());
                let a = float_inputs(src, 8192, seed(&body));
                v.push(Case::simple(F, &body, vec![(src, a)], dst, move |x| fp::convert(fs, fd, x[0], r.unwrap_or(Rnd::Rn))));
            }
        }
    }
    // .ftz and .sat on the f32 side
    let ftz_sat: [(&str, Ty, Ty, Rnd, bool, bool); 10] = [
        ("cvt.ftz.f64.f32", Ty::F32, Ty::F64, Rnd::Rn, true, false),
        ("cvt.rn.ftz.f32.f64", Ty::F64, Ty::F32, Rnd::Rn, true, false),
        ("cvt.rz.ftz.sat.f32.f64", Ty::F64, Ty::F32, Rnd::Rz, true, true),
        ("cvt.rn.sat.f32.f64", Ty::F64, Ty::F32, Rnd::Rn, false, true),
        ("cvt.rn.ftz.f16.f32", Ty::F32, Ty::F16, Rnd::Rn, true, false),
        ("cvt.ftz.f32.f16", Ty::F16, Ty::F32, Rnd::Rn, true, false),
        ("cvt.sat.f32.f16", Ty::F16, Ty::F32, Rnd::Rn, false, true),
        ("cvt.rn.sat.f16.f32", Ty::F32, Ty::F16, Rnd::Rn, false, true),
        ("cvt.ftz.sat.f32.f32", Ty::F32, Ty::F32, Rnd::Rn, true, true),
        ("cvt.rpi.ftz.f32.f32", Ty::F32, Ty::F32, Rnd::Rp, true, false),
    ];
    for (name, src, dst, r, ftz, sat) in ftz_sat {
        let (fs, fd) = (fmt_of(src), fmt_of(dst));
        let body = format!("{name} %x, %a;");
        let a = float_inputs(src, 8192, seed(&body));
        let integral = name.contains("rpi");
        v.push(Case::simple(F, &body, vec![(src, a)], dst, move |x| {
            let a = if ftz && fs == Fmt::S { fs.ftz(x[0]) } else { x[0] };
            let mut d = if integral { fp::round_int(fs, a, r) } else { fp::convert(fs, fd, a, r) };
            // IEEE after-rounding tininess (fp::Tininess): the H200 keeps
            // `cvt.rn.ftz.f32.f64 0x380ffffff0000000` = 0x00800000
            if ftz && fd == Fmt::S && fs == Fmt::D && fp::flushes(fd, Exact::Value(fs), &[a], Tininess::After(r)) {
                d &= fd.sign();
            }
            if sat {
                d = fp::sat(fd, d);
            }
            if ftz && fd == Fmt::S {
                d = fd.ftz(d);
            }
            d
        }));
    }
    // `.ftz` on an f32 narrowed to f16 in a directed mode: PTX ISA 9.7.9.21 ("Subnormal
    // numbers") flushes subnormal inputs only in float-to-integer conversions and f32-to-f32
    // ones with integer rounding, so a subnormal f32 rounds like any other value, to a zero
    // or to the smallest f16 subnormal (2^-24) in the mode's direction. The f16 result is
    // not an f32 one: `.ftz` leaves it as it is.
    for (r, sat) in [(Rnd::Rm, false), (Rnd::Rp, false), (Rnd::Rz, false), (Rnd::Rp, true), (Rnd::Rm, true)] {
        let body = format!("cvt.{}.ftz{}.f16.f32 %x, %a;", r.name(), if sat { ".sat" } else { "" });
        let mut a = float_inputs(Ty::F32, 8192, seed(&body));
        let mut g = Rng::new(seed(&body));
        for x in a.iter_mut().step_by(4) {
            *x = g.below(1 << 23).max(1) | (g.below(2) << 31);
        }
        v.push(Case::simple(F, &body, vec![(Ty::F32, a)], Ty::F16, move |x| {
            let d = fp::convert(Fmt::S, Fmt::H, x[0], r);
            if sat {
                fp::sat(Fmt::H, d)
            } else {
                d
            }
        }));
    }
    // packing conversions: d = {cvt(a) in the high half, cvt(b) in the low half}
    for (dt, fd) in [(Ty::F16x2, Fmt::H), (Ty::BF16x2, Fmt::BF)] {
        for relu in [false, true] {
            for r in [Rnd::Rn, Rnd::Rz] {
                let rl = if relu { ".relu" } else { "" };
                let body = format!("cvt.{}{rl}.{}.f32 %x, %a, %b;", r.name(), dt.name());
                let t = float_tuples(32, 8, 2, 8192, seed(&body));
                v.push(Case::simple(F, &body, vec![(Ty::F32, t[0].clone()), (Ty::F32, t[1].clone())], dt, move |x| {
                    let one = |a: u64| {
                        let d = fp::convert(Fmt::S, fd, a, r);
                        if relu && fd.is_nan(d) {
                            fd.canonical_nan()
                        } else if relu && fd.is_neg(d) {
                            0
                        } else {
                            d
                        }
                    };
                    one(x[0]) << 16 | one(x[1])
                }));
            }
        }
    }
    v
}
