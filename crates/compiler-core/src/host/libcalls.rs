//! Run-time helpers that LLVM's code generator calls by name and that the host process may
//! lack, defined into every JIT so that kernels link wherever they run.
//!
//! x86-64 has no bfloat16 arithmetic: LLVM computes each `bfloat` operation in float and
//! rounds back through the `__truncsfbf2` libcall (`__truncdfbf2` from double). libgcc
//! has them from GCC 13 on; Debian 12's libgcc (GCC 12) does not, and a kernel that
//! rounds a bf16 (`cvt.rni.s32.bf16`) then failed to link ("Failed to materialize
//! symbols"). The ABI is the one GCC 13 and compiler-rt use: the argument and the result
//! in the first SSE (AArch64: SIMD) register, the bf16 in the result's low 16 bits.

/// The bfloat16 nearest to `x` (ties to even), as its bits; NaN stays NaN (quieted).
pub(crate) fn f32_to_bf16_bits(x: f32) -> u16 {
    let bits = x.to_bits();
    if x.is_nan() {
        return ((bits >> 16) | 0x0040) as u16;
    }
    let rounding = 0x7fff + ((bits >> 16) & 1);
    (bits.wrapping_add(rounding) >> 16) as u16
}

/// The bfloat16 nearest to `x` (ties to even), rounded once: through a float rounded to
/// odd, which keeps the information a second rounding needs (float has 16 more bits).
pub(crate) fn f64_to_bf16_bits(x: f64) -> u16 {
    let nearest = x as f32;
    if !nearest.is_finite() || f64::from(nearest) == x {
        return f32_to_bf16_bits(nearest);
    }
    let mut bits = nearest.to_bits();
    if f64::from(nearest).abs() > x.abs() {
        bits -= 1; // one float toward zero: now `nearest` truncates `x`
    }
    f32_to_bf16_bits(f32::from_bits(bits | 1))
}

/// `__truncsfbf2`.
pub(crate) extern "C" fn truncsfbf2(x: f32) -> f32 {
    f32::from_bits(u32::from(f32_to_bf16_bits(x)))
}

/// `__truncdfbf2`.
pub(crate) extern "C" fn truncdfbf2(x: f64) -> f32 {
    f32::from_bits(u32::from(f64_to_bf16_bits(x)))
}

/// The helpers by the names LLVM calls them.
pub(crate) fn all() -> [(&'static std::ffi::CStr, u64); 2] {
    [
        (c"__truncsfbf2", truncsfbf2 as extern "C" fn(f32) -> f32 as usize as u64),
        (c"__truncdfbf2", truncdfbf2 as extern "C" fn(f64) -> f32 as usize as u64),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn rounding_to_bfloat16_is_to_nearest_even() {
        // (input, expected bits), expectations from the definition of the format.
        let cases: [(f32, u16); 8] = [
            (1.0, 0x3f80),
            (f32::from_bits(0x3f80_8000), 0x3f80), // a tie, to the even neighbour
            (f32::from_bits(0x3f81_8000), 0x3f82), // a tie, to the even neighbour
            (f32::from_bits(0x3f80_8001), 0x3f81), // just above a tie
            (-2.5, 0xc020),
            (f32::MAX, 0x7f80), // rounds past the largest bfloat16
            (f32::INFINITY, 0x7f80),
            (f32::from_bits(0x0000_0001), 0x0000), // the smallest subnormal rounds to 0
        ];
        for (x, want) in cases {
            assert_eq!(f32_to_bf16_bits(x), want, "{x:e}");
        }
        assert!(f32_to_bf16_bits(f32::NAN) & 0x7fc0 == 0x7fc0);
    }

    #[test]
    fn doubles_round_once() {
        // 1 + 2^-8 + 2^-30 is just above the tie between 1 and 1 + 2^-7: nearest is up.
        // Rounding to float first would land on the tie and then round to even (down).
        let x = 1.0 + 2f64.powi(-8) + 2f64.powi(-30);
        assert_eq!(f64_to_bf16_bits(x), 0x3f81);
        assert_eq!(f64_to_bf16_bits(1.0 + 2f64.powi(-8)), 0x3f80);
        assert_eq!(f64_to_bf16_bits(-3.0), 0xc040);
        assert_eq!(f64_to_bf16_bits(1e300), 0x7f80);
    }
}
