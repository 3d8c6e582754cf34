//! Poisson variates by inversion: the smallest k with P(X <= k) >= u. (NVIDIA's exact
//! Poisson method is not reproduced; the distribution is.)

/// The Poisson(lambda) quantile at u in (0, 1).
pub fn quantile(lambda: f64, u: f64) -> u32 {
    if lambda >= 1e4 {
        // Normal approximation with continuity correction (relative error of the
        // distribution below 1e-3 at this size).
        let z = crate::distributions::normal_quantile(u);
        return (lambda + lambda.sqrt() * z + 0.5).floor().max(0.0) as u32;
    }
    // Start at the mode and walk, in log space to avoid underflow.
    let mode = lambda.floor();
    let log_pmf = |k: f64| k * lambda.ln() - lambda - ln_gamma(k + 1.0);
    let mut k = 0.0f64;
    let mut p = (-lambda).exp();
    if p > 0.0 {
        let mut cdf = p;
        while cdf < u && k < 1e7 {
            k += 1.0;
            p *= lambda / k;
            cdf += p;
            if p == 0.0 && k > lambda {
                break;
            }
        }
        return k as u32;
    }
    // Large lambda: sum the pmf outward from the mode.
    let pm = log_pmf(mode).exp();
    let mut below = 0.0;
    let (mut q, mut j) = (pm, mode);
    while j > 0.0 && q > 1e-300 {
        q *= j / lambda;
        j -= 1.0;
        below += q;
    }
    let mut cdf = below + pm;
    k = mode;
    let mut p = pm;
    if cdf >= u {
        // Walk down.
        let mut c = cdf;
        let mut pk = pm;
        while k > 0.0 {
            if c - pk < u {
                break;
            }
            c -= pk;
            pk *= k / lambda;
            k -= 1.0;
        }
        return k as u32;
    }
    while cdf < u {
        k += 1.0;
        p *= lambda / k;
        cdf += p;
        if p < 1e-300 {
            break;
        }
    }
    k as u32
}

/// ln Gamma(x) for x > 0 (Lanczos, g = 7).
pub fn ln_gamma(x: f64) -> f64 {
    const C: [f64; 9] = [
        0.999_999_999_999_809_9,
        676.520_368_121_885_1,
        -1_259.139_216_722_402_8,
        771.323_428_777_653_1,
        -176.615_029_162_140_6,
        12.507_343_278_686_905,
        -0.138_571_095_265_720_12,
        9.984_369_578_019_572e-6,
        1.505_632_735_149_311_6e-7,
    ];
    if x < 0.5 {
        return (std::f64::consts::PI / (std::f64::consts::PI * x).sin()).ln() - ln_gamma(1.0 - x);
    }
    let x = x - 1.0;
    let mut a = C[0];
    let t = x + 7.5;
    for (i, c) in C.iter().enumerate().skip(1) {
        a += c / (x + i as f64);
    }
    0.5 * (2.0 * std::f64::consts::PI).ln() + (x + 0.5) * t.ln() - t + a.ln()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_lambda_cdf() {
        assert_eq!(quantile(0.5, 0.5), 0); // P(0) = 0.607
        assert_eq!(quantile(0.5, 0.7), 1);
        assert_eq!(quantile(10.0, 0.5), 10);
        let m = (1..1000).map(|i| quantile(1000.0, i as f64 / 1000.0) as f64).sum::<f64>() / 999.0;
        assert!((m - 1000.0).abs() < 2.0, "{m}");
    }
}
