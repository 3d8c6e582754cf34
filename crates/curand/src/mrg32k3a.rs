//! L'Ecuyer's MRG32k3a ("Good parameters and implementations for combined multiple
//! recursive random number generators", 1999), seeded as cuRAND's `curand_init`:
//! subsequences are 2^76 values apart. Skips use powers of the two 3x3 transition
//! matrices modulo m1 and m2, computed here.

use std::sync::OnceLock;

pub const M1: u64 = 4_294_967_087;
pub const M2: u64 = 4_294_944_443;
/// 1/m1 as cuRAND scales: a value z in [1, m1] becomes the double z * NORM.
pub const NORM: f64 = 2.328_306_549_837_829e-10;

type Mat = [[u64; 3]; 3];

const A1: Mat = [[0, 1, 0], [0, 0, 1], [M1 - 810_728, 1_403_580, 0]];
const A2: Mat = [[0, 1, 0], [0, 0, 1], [M2 - 1_370_589, 0, 527_612]];

fn mul(a: &Mat, b: &Mat, m: u64) -> Mat {
    let mut r = [[0u64; 3]; 3];
    for i in 0..3 {
        for j in 0..3 {
            r[i][j] = ((0..3).map(|k| a[i][k] as u128 * b[k][j] as u128).sum::<u128>() % m as u128) as u64;
        }
    }
    r
}

fn mul_vec(a: &Mat, v: &[u64; 3], m: u64) -> [u64; 3] {
    let mut r = [0u64; 3];
    for i in 0..3 {
        r[i] = ((0..3).map(|k| a[i][k] as u128 * v[k] as u128).sum::<u128>() % m as u128) as u64;
    }
    r
}

/// (A1^(2^i), A2^(2^i)) for i in 0..128.
fn powers() -> &'static [(Mat, Mat)] {
    static POWERS: OnceLock<Vec<(Mat, Mat)>> = OnceLock::new();
    POWERS.get_or_init(|| {
        let (mut a, mut b) = (A1, A2);
        (0..128)
            .map(|_| {
                let cur = (a, b);
                a = mul(&a, &a, M1);
                b = mul(&b, &b, M2);
                cur
            })
            .collect()
    })
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Mrg32k3a {
    s1: [u64; 3],
    s2: [u64; 3],
}

impl Mrg32k3a {
    pub fn new(seed: u64) -> Mrg32k3a {
        let mut g = Mrg32k3a { s1: [12345; 3], s2: [12345; 3] };
        if seed != 0 {
            let x1 = (seed as u32 ^ 0x5555_5555) as u64;
            let x2 = ((seed >> 32) as u32 ^ 0xAAAA_AAAA) as u64;
            g.s1 = [x1 * 12345 % M1, x2 * 12345 % M1, x1 * 12345 % M1];
            g.s2 = [x2 * 12345 % M2, x1 * 12345 % M2, x2 * 12345 % M2];
        }
        g
    }

    /// `curand_init(seed, subsequence, offset)`.
    pub fn init(seed: u64, subsequence: u64, offset: u64) -> Mrg32k3a {
        let mut g = Mrg32k3a::new(seed);
        g.skip((subsequence as u128) << 76 | offset as u128);
        g
    }

    pub fn skip(&mut self, n: u128) {
        for (i, (a, b)) in powers().iter().enumerate() {
            if n >> i & 1 == 1 {
                self.s1 = mul_vec(a, &self.s1, M1);
                self.s2 = mul_vec(b, &self.s2, M2);
            }
        }
    }

    /// The next combined value z in [1, m1].
    #[inline]
    pub fn next_z(&mut self) -> u64 {
        let p1 = ((1_403_580 * self.s1[1]) as u128 + (M1 - 810_728) as u128 * self.s1[0] as u128) as u64 % M1;
        let p2 = ((527_612 * self.s2[2]) as u128 + (M2 - 1_370_589) as u128 * self.s2[0] as u128) as u64 % M2;
        self.s1 = [self.s1[1], self.s1[2], p1];
        self.s2 = [self.s2[1], self.s2[2], p2];
        if p1 > p2 {
            p1 - p2
        } else {
            p1 + M1 - p2
        }
    }

    /// The next value as a double in (0, 1].
    #[inline]
    pub fn next_f64(&mut self) -> f64 {
        self.next_z() as f64 * NORM
    }

    /// `curand(state)`: the double scaled to 32 bits.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        (self.next_f64() * 4_294_967_296.0) as u32
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_matches_stepping() {
        let mut a = Mrg32k3a::new(42);
        let mut b = a;
        for _ in 0..777 {
            a.next_z();
        }
        b.skip(777);
        assert_eq!(a, b);
    }
}
