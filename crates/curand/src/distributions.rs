//! cuRAND's transformations of raw values into distributions.
//!
//! Uniform floats are x * 2^-32 + 2^-33 (never 0, at most 1); uniform doubles take 53 bits
//! from two values, x ^ (y << 21), as z * 2^-53 + 2^-54. Normals are Box-Muller pairs of
//! such uniforms: (sqrt(-2 ln u) sin(2 pi v), sqrt(-2 ln u) cos(2 pi v)). The
//! transcendental functions are evaluated in double precision and rounded, so float
//! results are within NVIDIA's documented error of its single-precision functions.

use std::f64::consts::PI;

const TWO_M32: f32 = 1.0 / 4_294_967_296.0;
const TWO_M53: f64 = 1.0 / 9_007_199_254_740_992.0;

#[inline]
pub fn uniform_f32(x: u32) -> f32 {
    x as f32 * TWO_M32 + TWO_M32 / 2.0
}

#[inline]
pub fn uniform_f64(x: u32, y: u32) -> f64 {
    let z = x as u64 ^ ((y as u64) << 21);
    z as f64 * TWO_M53 + TWO_M53 / 2.0
}

/// A 64-bit value's top 53 bits as a double in (0, 1).
#[inline]
pub fn uniform_f64_from_u64(x: u64) -> f64 {
    (x >> 11) as f64 * TWO_M53 + TWO_M53 / 2.0
}

/// A 32-bit value as a double in (0, 1) (quasi-random generators).
#[inline]
pub fn uniform_f64_from_u32(x: u32) -> f64 {
    x as f64 * (1.0 / 4_294_967_296.0) + 0.5 / 4_294_967_296.0
}

/// Box-Muller of two 32-bit values, in float.
#[inline]
pub fn box_muller_f32(x: u32, y: u32) -> (f32, f32) {
    let u = uniform_f32(x) as f64;
    let v = uniform_f32(y) as f64;
    let s = (-2.0 * u.ln()).sqrt();
    let (sin, cos) = (2.0 * PI * v).sin_cos();
    ((s * sin) as f32, (s * cos) as f32)
}

/// Box-Muller of two doubles in (0, 1).
#[inline]
pub fn box_muller_f64(u: f64, v: f64) -> (f64, f64) {
    let s = (-2.0 * u.ln()).sqrt();
    let (sin, cos) = (2.0 * PI * v).sin_cos();
    (s * sin, s * cos)
}

/// The normal quantile (inverse CDF) at p in (0, 1): quasi-random normals keep their
/// dimension structure this way. Acklam's rational approximation refined by one Halley
/// step on erfc, accurate to about 1e-15.
pub fn normal_quantile(p: f64) -> f64 {
    #[allow(clippy::excessive_precision)] // Acklam's coefficients as published.
    const A: [f64; 6] = [
        -3.969683028665376e+01,
        2.209460984245205e+02,
        -2.759285104469687e+02,
        1.383_577_518_672_69e2,
        -3.066479806614716e+01,
        2.506628277459239e+00,
    ];
    const B: [f64; 5] = [-5.447609879822406e+01, 1.615858368580409e+02, -1.556989798598866e+02, 6.680131188771972e+01, -1.328068155288572e+01];
    const C: [f64; 6] = [
        -7.784894002430293e-03,
        -3.223964580411365e-01,
        -2.400758277161838e+00,
        -2.549732539343734e+00,
        4.374664141464968e+00,
        2.938163982698783e+00,
    ];
    const D: [f64; 4] = [7.784695709041462e-03, 3.224671290700398e-01, 2.445134137142996e+00, 3.754408661907416e+00];
    let x = if p < 0.02425 {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p > 1.0 - 0.02425 {
        let q = (-2.0 * (1.0 - p).ln()).sqrt();
        -(((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5]) / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    };
    // One Halley step: e = Phi(x) - p.
    let e = 0.5 * erfc(-x / std::f64::consts::SQRT_2) - p;
    let u = e * (2.0 * PI).sqrt() * (x * x / 2.0).exp();
    x - u / (1.0 + x * u / 2.0)
}

/// The complementary error function (W. J. Cody's rational approximations).
pub fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    // Numerical Recipes' erfcc (fractional error < 1.2e-7) refined below.
    let r = t
        * (-z * z - 1.265_512_23
            + t * (1.000_023_68
                + t * (0.374_091_96
                    + t * (0.096_784_18
                        + t * (-0.186_288_06
                            + t * (0.278_868_07 + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77)))))))))
            .exp();
    let r = refine_erfc(z, r);
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// Newton steps on erfc(z) = r through its derivative -2/sqrt(pi) e^{-z^2}, using a
/// continued fraction for large z and the series for small z.
fn refine_erfc(z: f64, r: f64) -> f64 {
    if z < 3.0 {
        // erf by its Maclaurin series (converges fast for z < 3).
        let mut sum = z;
        let mut term = z;
        let z2 = z * z;
        for n in 1..200 {
            term *= -z2 / n as f64;
            let add = term / (2 * n + 1) as f64;
            sum += add;
            if add.abs() < 1e-17 * sum.abs() {
                break;
            }
        }
        1.0 - 2.0 / PI.sqrt() * sum
    } else {
        // Lentz's continued fraction for erfc.
        let z2 = z * z;
        let mut f = z;
        let mut c = z;
        let mut d = 0.0;
        for n in 1..300 {
            let a = n as f64 / 2.0;
            d = z + a * d;
            d = 1.0 / d;
            c = z + a / c;
            let delta = c * d;
            f *= delta;
            if (delta - 1.0).abs() < 1e-16 {
                break;
            }
        }
        let v = (-z2).exp() / (f * PI.sqrt());
        if v.is_finite() {
            v
        } else {
            r
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn quantile_round_trips() {
        for &p in &[1e-10, 1e-3, 0.02, 0.3, 0.5, 0.7, 0.99, 1.0 - 1e-9] {
            let x = normal_quantile(p);
            let back = 0.5 * erfc(-x / std::f64::consts::SQRT_2);
            assert!((back - p).abs() <= 1e-12 * p, "p={p} x={x} back={back}");
        }
        assert_eq!(normal_quantile(0.5), 0.0);
    }

    #[test]
    fn uniform_bounds() {
        assert!(uniform_f32(0) > 0.0);
        assert_eq!(uniform_f32(u32::MAX), 1.0);
        assert!(uniform_f64(u32::MAX, u32::MAX) < 1.0);
    }
}
