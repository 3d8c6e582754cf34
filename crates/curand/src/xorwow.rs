//! Marsaglia's xorwow (`CURAND_RNG_PSEUDO_XORWOW`), seeded and advanced as cuRAND's
//! `curand_init(seed, subsequence, offset)`: subsequences are 2^67 values apart.
//!
//! The xorshift part is linear over GF(2), so skipping n values multiplies the 160-bit
//! state by M^n; the powers M^(2^i) are computed here once (never taken from tables).
//! The Weyl counter `d` moves by 362437 per value.

use std::sync::OnceLock;

/// The 160-bit xorshift state and the Weyl counter.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Xorwow {
    pub v: [u32; 5],
    pub d: u32,
}

const WEYL: u32 = 362437;

/// One 160x160 matrix over GF(2), stored by columns (column j is the image of bit j).
type Matrix = Vec<[u32; 5]>;

fn step_v(v: &mut [u32; 5]) -> u32 {
    let t = v[0] ^ (v[0] >> 2);
    v[0] = v[1];
    v[1] = v[2];
    v[2] = v[3];
    v[3] = v[4];
    v[4] = (v[4] ^ (v[4] << 4)) ^ (t ^ (t << 1));
    v[4]
}

fn apply(m: &Matrix, v: &[u32; 5]) -> [u32; 5] {
    let mut out = [0u32; 5];
    for (word, &bits) in v.iter().enumerate() {
        let mut b = bits;
        while b != 0 {
            let j = b.trailing_zeros() as usize;
            b &= b - 1;
            let col = &m[word * 32 + j];
            for k in 0..5 {
                out[k] ^= col[k];
            }
        }
    }
    out
}

/// M^(2^i) for i in 0..128.
fn powers() -> &'static [Matrix] {
    static POWERS: OnceLock<Vec<Matrix>> = OnceLock::new();
    POWERS.get_or_init(|| {
        let mut m: Matrix = (0..160)
            .map(|j| {
                let mut v = [0u32; 5];
                v[j / 32] = 1 << (j % 32);
                step_v(&mut v);
                v
            })
            .collect();
        let mut all = Vec::with_capacity(128);
        for _ in 0..128 {
            let sq: Matrix = m.iter().map(|col| apply(&m, col)).collect();
            all.push(std::mem::replace(&mut m, sq));
        }
        all
    })
}

impl Xorwow {
    /// `curand_init(seed, 0, 0)`.
    pub fn new(seed: u64) -> Xorwow {
        let s0 = (seed as u32) ^ 0xaad2_6b49;
        let s1 = ((seed >> 32) as u32) ^ 0xf7dc_efdd;
        let t0 = 1_099_087_573u32.wrapping_mul(s0);
        let t1 = 2_591_861_531u32.wrapping_mul(s1);
        Xorwow {
            d: 6_615_241u32.wrapping_add(t1).wrapping_add(t0),
            v: [123_456_789u32.wrapping_add(t0), 362_436_069 ^ t0, 521_288_629u32.wrapping_add(t1), 88_675_123 ^ t1, 5_783_321u32.wrapping_add(t0)],
        }
    }

    /// `curand_init(seed, subsequence, offset)`.
    pub fn init(seed: u64, subsequence: u64, offset: u64) -> Xorwow {
        let mut x = Xorwow::new(seed);
        x.skip((subsequence as u128) << 67 | offset as u128);
        x
    }

    /// Skips `n` values.
    pub fn skip(&mut self, n: u128) {
        if n < 64 {
            for _ in 0..n {
                step_v(&mut self.v);
            }
        } else {
            let pw = powers();
            let mut v = self.v;
            for (i, m) in pw.iter().enumerate() {
                if n >> i & 1 == 1 {
                    v = apply(m, &v);
                }
            }
            self.v = v;
        }
        self.d = self.d.wrapping_add(WEYL.wrapping_mul(n as u32));
    }

    /// `curand(state)`.
    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        let v4 = step_v(&mut self.v);
        self.d = self.d.wrapping_add(WEYL);
        v4.wrapping_add(self.d)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn skip_matches_stepping() {
        let mut a = Xorwow::new(99);
        let mut b = a;
        for _ in 0..1000 {
            a.next_u32();
        }
        b.skip(1000);
        assert_eq!(a, b);
        assert_eq!(a.next_u32(), b.next_u32());
    }
}
