//! The instruction families. Each module builds the cases of one family; expectations
//! are written from the PTX ISA's definitions (section numbers in each module), computed
//! with wide Rust integers or the reference float in [`crate::fp`].

pub mod atom;
pub mod bits;
pub mod carry;
pub mod cmp;
pub mod cvt_float;
pub mod cvt_int;
pub mod float;
pub mod fp8;
pub mod half;
pub mod int;
pub mod int_widths;
pub mod video;
pub mod warp;

use crate::case::Ty;
use crate::rng::mask;

/// Sign-extend the low `bits` of `v`.
pub fn sx(v: u64, bits: u32) -> i128 {
    let s = 128 - bits;
    ((v as i128) << s) >> s
}

/// The value of register contents `v` read as `ty` (sign- or zero-extended from the
/// type's width, which for 8-bit types is narrower than the register).
pub fn val(v: u64, ty: Ty) -> i128 {
    if ty.is_signed() {
        sx(v, ty.bits())
    } else {
        (v & mask(ty.bits())) as i128
    }
}

/// Two's complement truncation of `x` to `bits`.
pub fn wrap(x: i128, bits: u32) -> u64 {
    (x as u64) & mask(bits)
}

/// Saturate `x` to the range of a `bits`-wide integer.
pub fn sat(x: i128, bits: u32, signed: bool) -> u64 {
    let (lo, hi) = if signed { (-(1i128 << (bits - 1)), (1i128 << (bits - 1)) - 1) } else { (0, (1i128 << bits) - 1) };
    wrap(x.clamp(lo, hi), bits)
}

/// The integer types by width.
pub const INT16: [Ty; 2] = [Ty::U16, Ty::S16];
pub const INT32: [Ty; 2] = [Ty::U32, Ty::S32];
pub const INT64: [Ty; 2] = [Ty::U64, Ty::S64];
pub const INTS: [Ty; 6] = [Ty::U16, Ty::S16, Ty::U32, Ty::S32, Ty::U64, Ty::S64];

/// The same type with double the width (`mul.wide`).
pub fn wide(ty: Ty) -> Ty {
    match ty {
        Ty::U16 => Ty::U32,
        Ty::S16 => Ty::S32,
        Ty::U32 => Ty::U64,
        Ty::S32 => Ty::S64,
        t => t,
    }
}

/// Pairs of inputs for a binary operation on `ty`: exhaustive over a 256-value set for
/// 16-bit types, edges plus random values for wider ones. The set depends only on the
/// width and `salt` (0 or 1), so that cases share input arrays (the hardware export
/// stores each array once).
pub fn pairs(ty: Ty, salt: u64) -> (Vec<u64>, Vec<u64>) {
    let s = ty.bits() as u64 * 16 + salt;
    match ty.bits() {
        16 => crate::rng::pairs16(s),
        b => crate::rng::int_pairs(b, b, 4096, s),
    }
}

/// A seed from a case's text, so that inputs differ between cases but not between runs.
pub fn seed(s: &str) -> u64 {
    s.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3))
}

/// All the cases of every family, in a fixed order.
pub fn all() -> Vec<(&'static str, fn() -> Vec<crate::case::Case>)> {
    vec![
        ("int-arith", int::cases),
        ("int-bits", bits::cases),
        ("compare-select", cmp::cases),
        ("cvt-int", cvt_int::cases),
        ("cvt-float", cvt_float::cases),
        ("float", float::cases),
        ("half", half::cases),
        ("cvt-fp8", fp8::cases),
        ("atom", atom::cases),
        ("warp", warp::cases),
        ("carry", carry::cases),
        ("int-widths", int_widths::cases),
        ("video", video::cases),
    ]
}

/// Families that NVIDIA's tools reject (our dialect extensions): the hardware export
/// leaves them out, so their expectations are checked against Rust arithmetic only.
pub const NOT_ON_NVIDIA: &[&str] = &["int-widths"];
