//! Reference floating point, independent of the code under test: IEEE arithmetic in every
//! rounding mode through `rustc_apfloat` (a port of LLVM's APFloat, a software
//! implementation), square roots by exact integer square roots, and PTX's conventions on
//! top (flush-to-zero, saturation to [0, 1], NaN to 0 in float->int conversions).

use rustc_apfloat::ieee::{BFloat, Double, Half, Quad, Single};
use rustc_apfloat::{Float, FloatConvert, Round};

/// A floating point format.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fmt {
    H,
    BF,
    S,
    D,
}

impl Fmt {
    pub fn width(self) -> u32 {
        match self {
            Fmt::H | Fmt::BF => 16,
            Fmt::S => 32,
            Fmt::D => 64,
        }
    }
    pub fn exp_bits(self) -> u32 {
        match self {
            Fmt::H => 5,
            Fmt::BF | Fmt::S => 8,
            Fmt::D => 11,
        }
    }
    pub fn mant_bits(self) -> u32 {
        self.width() - 1 - self.exp_bits()
    }
    pub fn sign(self) -> u64 {
        1u64 << (self.width() - 1)
    }
    /// The canonical NaN NVIDIA GPUs produce (all exponent and mantissa bits set).
    pub fn canonical_nan(self) -> u64 {
        (self.sign() - 1) & !0
    }
    pub fn is_nan(self, v: u64) -> bool {
        let m = self.mant_bits();
        (v >> m) & crate::rng::mask(self.exp_bits()) == crate::rng::mask(self.exp_bits()) && v & crate::rng::mask(m) != 0
    }
    pub fn is_inf(self, v: u64) -> bool {
        v & !self.sign() == crate::rng::mask(self.exp_bits()) << self.mant_bits()
    }
    pub fn is_subnormal(self, v: u64) -> bool {
        (v >> self.mant_bits()) & crate::rng::mask(self.exp_bits()) == 0 && v & crate::rng::mask(self.mant_bits()) != 0
    }
    pub fn is_zero(self, v: u64) -> bool {
        v & !self.sign() & crate::rng::mask(self.width()) == 0
    }
    pub fn is_neg(self, v: u64) -> bool {
        v & self.sign() != 0
    }
    /// Flush a subnormal to a zero of the same sign (`.ftz`).
    pub fn ftz(self, v: u64) -> u64 {
        if self.is_subnormal(v) {
            v & self.sign()
        } else {
            v
        }
    }
    pub fn to_f64(self, v: u64) -> f64 {
        to_f64(v, self.width(), self.exp_bits())
    }
    pub fn from_f64(self, x: f64) -> u64 {
        from_f64(x, self.width(), self.exp_bits())
    }
}

/// Rounding modes as PTX names them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rnd {
    Rn,
    Rz,
    Rm,
    Rp,
}

impl Rnd {
    pub const ALL: [Rnd; 4] = [Rnd::Rn, Rnd::Rz, Rnd::Rm, Rnd::Rp];
    pub fn name(self) -> &'static str {
        match self {
            Rnd::Rn => "rn",
            Rnd::Rz => "rz",
            Rnd::Rm => "rm",
            Rnd::Rp => "rp",
        }
    }
    /// The integer-rounding spelling (`rni`, ...).
    pub fn int_name(self) -> &'static str {
        match self {
            Rnd::Rn => "rni",
            Rnd::Rz => "rzi",
            Rnd::Rm => "rmi",
            Rnd::Rp => "rpi",
        }
    }
    fn ap(self) -> Round {
        match self {
            Rnd::Rn => Round::NearestTiesToEven,
            Rnd::Rz => Round::TowardZero,
            Rnd::Rm => Round::TowardNegative,
            Rnd::Rp => Round::TowardPositive,
        }
    }
}

/// Decode a float of width `w` with `e` exponent bits (exact for all four formats).
pub fn to_f64(v: u64, w: u32, e: u32) -> f64 {
    match (w, e) {
        (64, _) => f64::from_bits(v),
        (32, _) => f32::from_bits(v as u32) as f64,
        (16, 5) => {
            let d: Double = Half::from_bits(v as u128).convert(&mut false).value;
            f64::from_bits(d.to_bits() as u64)
        }
        _ => f32::from_bits((v as u32) << 16) as f64,
    }
}

/// Encode `x` into a format, rounding to nearest even.
pub fn from_f64(x: f64, w: u32, e: u32) -> u64 {
    let d = Double::from_bits(x.to_bits() as u128);
    let conv = |f: Fmt| convert(Fmt::D, f, d.to_bits() as u64, Rnd::Rn);
    match (w, e) {
        (64, _) => x.to_bits(),
        (32, _) => conv(Fmt::S),
        (16, 5) => conv(Fmt::H),
        _ => conv(Fmt::BF),
    }
}

macro_rules! dispatch {
    ($fmt:expr, $T:ident => $body:expr) => {
        match $fmt {
            Fmt::H => {
                type $T = Half;
                $body
            }
            Fmt::BF => {
                type $T = BFloat;
                $body
            }
            Fmt::S => {
                type $T = Single;
                $body
            }
            Fmt::D => {
                type $T = Double;
                $body
            }
        }
    };
}

/// Binary arithmetic operations.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op2 {
    Add,
    Sub,
    Mul,
    Div,
}

/// `a op b` correctly rounded.
pub fn arith(f: Fmt, op: Op2, a: u64, b: u64, r: Rnd) -> u64 {
    dispatch!(f, T => {
        let (x, y) = (T::from_bits(a as u128), T::from_bits(b as u128));
        let v = match op {
            Op2::Add => x.add_r(y, r.ap()).value,
            Op2::Sub => x.sub_r(y, r.ap()).value,
            Op2::Mul => x.mul_r(y, r.ap()).value,
            Op2::Div => x.div_r(y, r.ap()).value,
        };
        v.to_bits() as u64
    })
}

/// `a * b + c` with a single rounding.
pub fn fma(f: Fmt, a: u64, b: u64, c: u64, r: Rnd) -> u64 {
    dispatch!(f, T => {
        let v = T::from_bits(a as u128).mul_add_r(T::from_bits(b as u128), T::from_bits(c as u128), r.ap()).value;
        v.to_bits() as u64
    })
}

/// Convert between formats with rounding.
pub fn convert(from: Fmt, to: Fmt, v: u64, r: Rnd) -> u64 {
    fn go<A: Float + FloatConvert<B>, B: Float>(v: u64, r: Round) -> u64 {
        A::from_bits(v as u128).convert_r(r, &mut false).value.to_bits() as u64
    }
    let r = r.ap();
    macro_rules! to {
        ($A:ty) => {
            match to {
                Fmt::H => go::<$A, Half>(v, r),
                Fmt::BF => go::<$A, BFloat>(v, r),
                Fmt::S => go::<$A, Single>(v, r),
                Fmt::D => go::<$A, Double>(v, r),
            }
        };
    }
    match from {
        Fmt::H => to!(Half),
        Fmt::BF => to!(BFloat),
        Fmt::S => to!(Single),
        Fmt::D => to!(Double),
    }
}

/// Round to an integral value in the same format (`cvt.rni.f32.f32` and friends).
pub fn round_int(f: Fmt, v: u64, r: Rnd) -> u64 {
    dispatch!(f, T => T::from_bits(v as u128).round_to_integral(r.ap()).value.to_bits() as u64)
}

/// Integer -> float with rounding; `v` is the integer's value.
pub fn from_int(f: Fmt, v: i128, r: Rnd) -> u64 {
    dispatch!(f, T => T::from_i128_r(v, r.ap()).value.to_bits() as u64)
}

/// Float -> integer as PTX's `cvt` does it: round to an integer in mode `r`, NaN becomes 0,
/// out-of-range values saturate to the destination's range (`bits` wide, `signed`).
pub fn to_int(f: Fmt, v: u64, r: Rnd, signed: bool, bits: u32) -> u64 {
    if f.is_nan(v) {
        return 0;
    }
    let x = Fmt::D.to_f64(convert(f, Fmt::D, round_int(f, v, r), Rnd::Rn));
    let (lo, hi): (i128, i128) = if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
    let i = if x >= 1.8446744073709552e19 {
        hi
    } else if x <= -1.8446744073709552e19 {
        lo
    } else {
        (x as i128).clamp(lo, hi)
    };
    (i as u64) & crate::rng::mask(bits)
}

/// Correctly rounded square root.
pub fn sqrt(f: Fmt, v: u64, r: Rnd) -> u64 {
    if f.is_nan(v) {
        return f.canonical_nan();
    }
    if f.is_zero(v) {
        return v;
    }
    if f.is_neg(v) {
        return f.canonical_nan();
    }
    if f.is_inf(v) {
        return v;
    }
    let p = f.mant_bits() + 1;
    let bias = (1i32 << (f.exp_bits() - 1)) - 1;
    let be = ((v >> f.mant_bits()) & crate::rng::mask(f.exp_bits())) as i32;
    let frac = (v & crate::rng::mask(f.mant_bits())) as u128;
    // value = m * 2^e with m an integer
    let (mut m, mut e) = if be == 0 { (frac, 1 - bias - (p as i32 - 1)) } else { (frac | 1 << (p - 1), be - bias - (p as i32 - 1)) };
    while m < 1 << (p - 1) {
        m <<= 1;
        e -= 1;
    }
    if e & 1 != 0 {
        m <<= 1;
        e -= 1;
    }
    let k2 = (p + 4) as i32; // even shift: m' has 2p+4 or 2p+5 bits
    let k2 = k2 + (k2 & 1);
    let mm = m << k2;
    let root = isqrt(mm);
    let sticky = (root * root != mm) as u128;
    let r2 = root << 1 | sticky;
    let scale = (e - k2) / 2 - 1;
    dispatch!(f, T => {
        let x = T::from_u128_r(r2, r.ap()).value;
        x.scalbn(scale as _).to_bits() as u64
    })
}

fn isqrt(n: u128) -> u128 {
    if n == 0 {
        return 0;
    }
    let mut x = (n as f64).sqrt() as u128;
    // fix up the float estimate
    while x * x > n {
        x -= 1;
    }
    while (x + 1) * (x + 1) <= n {
        x += 1;
    }
    x
}

/// Clamp to [0.0, 1.0], NaN becoming +0.0 (PTX's `.sat` on floats).
pub fn sat(f: Fmt, v: u64) -> u64 {
    if f.is_nan(v) {
        return 0;
    }
    if f.is_neg(v) {
        return 0;
    }
    let one = match f {
        Fmt::H => 0x3c00,
        Fmt::BF => 0x3f80,
        Fmt::S => 0x3f80_0000,
        Fmt::D => 0x3ff0_0000_0000_0000,
    };
    if f.to_f64(v) > 1.0 {
        one
    } else {
        v
    }
}

/// A quiet NaN of format `f`? Used by PTX `min`/`max` whose NaN result is canonical.
pub fn minmax(f: Fmt, a: u64, b: u64, max: bool, nan_prop: bool) -> u64 {
    let (an, bn) = (f.is_nan(a), f.is_nan(b));
    if an || bn {
        if nan_prop || (an && bn) {
            return f.canonical_nan();
        }
        return if an { b } else { a };
    }
    let (x, y) = (f.to_f64(a), f.to_f64(b));
    // -0.0 orders below +0.0
    let less = x < y || (x == y && f.is_neg(a) && !f.is_neg(b));
    if less != max {
        a
    } else {
        b
    }
}

/// What a result is computed from, for [`tiny`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exact {
    Op(Op2),
    Fma,
    /// The (wider) input itself, as in a narrowing conversion.
    Value(Fmt),
}

fn quad(f: Fmt, v: u64) -> Quad {
    dispatch!(f, T => {
        let q: Quad = T::from_bits(v as u128).convert(&mut false).value;
        q
    })
}

/// When `.ftz` decides that a result is too small (the H200 differs by instruction, in the
/// window of results just below the smallest normal that round up to it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tininess {
    /// The exact result is below the smallest normal (`mul.ftz`, `div.ftz`: the H200
    /// gives +0 for `mul.rn.ftz.f32 0x00800000, 0x3f7fffff` and for
    /// `div.rn.ftz.f32 0x3f7fffff, 0x7e800000`).
    Before,
    /// IEEE 754's "after rounding": the result rounded to the format's precision with an
    /// unbounded exponent is below the smallest normal (`fma.ftz`, `cvt.ftz`: the H200
    /// keeps `fma.rn.ftz.f16 0x576, 0x521, 0x8400` = 0x8400 but flushes
    /// `fma.rn.ftz.f16 0xcaf, 0x8452, 0x400` to 0).
    After(Rnd),
}

/// Whether `.ftz` flushes the result of `how` on `ins` under `t` (see [`Tininess`]).
pub fn flushes(f: Fmt, how: Exact, ins: &[u64], t: Tininess) -> bool {
    let r = exact_quad(f, how, ins);
    let min_normal = quad(f, 1u64 << f.mant_bits());
    if !r.is_finite_non_zero() {
        return false;
    }
    match t {
        Tininess::Before => r.abs() < min_normal,
        Tininess::After(rnd) => {
            // scale into the normal range, round to the format's precision, scale back
            let k = f.mant_bits() as i32 + 5;
            let scaled = r.scalbn(k as _);
            let rounded = dispatch!(f, T => {
                let x: T = scaled.convert_r(rnd.ap(), &mut false).value;
                let q: Quad = x.convert(&mut false).value;
                q
            });
            rounded.scalbn(-k as _).abs() < min_normal
        }
    }
}

/// Whether the exact result is non-zero and below the smallest normal of `f`.
pub fn tiny(f: Fmt, how: Exact, ins: &[u64]) -> bool {
    flushes(f, how, ins, Tininess::Before)
}

/// The exact result in binary128 (which holds every product and is close enough for sums
/// and quotients near the boundary).
fn exact_quad(f: Fmt, how: Exact, ins: &[u64]) -> Quad {
    let q = |i: usize| quad(f, ins[i]);
    let r = match how {
        Exact::Op(Op2::Add) => q(0).add_r(q(1), Round::NearestTiesToEven).value,
        Exact::Op(Op2::Sub) => q(0).sub_r(q(1), Round::NearestTiesToEven).value,
        Exact::Op(Op2::Mul) => q(0).mul_r(q(1), Round::NearestTiesToEven).value,
        Exact::Op(Op2::Div) => q(0).div_r(q(1), Round::NearestTiesToEven).value,
        Exact::Fma => q(0).mul_add_r(q(1), q(2), Round::NearestTiesToEven).value,
        Exact::Value(from) => quad(from, ins[0]),
    };
    r
}
