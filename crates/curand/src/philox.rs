//! Philox4x32-10 (Salmon, Moraes, Dror and Shaw, "Parallel random numbers: as easy as
//! 1, 2, 3", SC'11), keyed and counted as cuRAND's `curand_init(seed, subsequence,
//! offset)`: key = seed, counter = (offset / 4, subsequence) as a 128-bit number with the
//! subsequence in the upper 64 bits; each counter gives four values.

const M0: u32 = 0xD251_1F53;
const M1: u32 = 0xCD9E_8D57;
const W0: u32 = 0x9E37_79B9;
const W1: u32 = 0xBB67_AE85;

/// The ten-round bijection of `counter` under `key`.
pub fn philox4x32_10(counter: [u32; 4], key: [u32; 2]) -> [u32; 4] {
    let (mut c, mut k) = (counter, key);
    for _ in 0..10 {
        let p0 = M0 as u64 * c[0] as u64;
        let p1 = M1 as u64 * c[2] as u64;
        c = [(p1 >> 32) as u32 ^ c[1] ^ k[0], p1 as u32, (p0 >> 32) as u32 ^ c[3] ^ k[1], p0 as u32];
        k = [k[0].wrapping_add(W0), k[1].wrapping_add(W1)];
    }
    c
}

/// The four values of counter `ctr` (a 128-bit number) under `seed`.
#[inline]
pub fn block(seed: u64, ctr: u128) -> [u32; 4] {
    philox4x32_10([ctr as u32, (ctr >> 32) as u32, (ctr >> 64) as u32, (ctr >> 96) as u32], [seed as u32, (seed >> 32) as u32])
}

/// A Philox stream: `curand(state)` one value at a time.
#[derive(Clone, Copy, Debug)]
pub struct Philox {
    seed: u64,
    ctr: u128,
    buf: [u32; 4],
    idx: usize,
}

impl Philox {
    /// `curand_init(seed, subsequence, offset)`.
    pub fn init(seed: u64, subsequence: u64, offset: u64) -> Philox {
        let mut p = Philox { seed, ctr: (subsequence as u128) << 64, buf: [0; 4], idx: 4 };
        p.skip(offset as u128);
        p
    }

    /// Skips `n` values.
    pub fn skip(&mut self, n: u128) {
        let pos = (4 - self.idx as u128 % 4) % 4; // values left in the buffer
        if n < pos {
            self.idx += n as usize;
            return;
        }
        let n = n - pos;
        // The buffer is used up: the next block is `ctr`.
        self.ctr = self.ctr.wrapping_add(n / 4);
        self.idx = 4;
        let r = (n % 4) as usize;
        if r != 0 {
            self.buf = block(self.seed, self.ctr);
            self.ctr = self.ctr.wrapping_add(1);
            self.idx = r;
        }
    }

    #[inline]
    pub fn next_u32(&mut self) -> u32 {
        if self.idx == 4 {
            self.buf = block(self.seed, self.ctr);
            self.ctr = self.ctr.wrapping_add(1);
            self.idx = 0;
        }
        let v = self.buf[self.idx];
        self.idx += 1;
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The known-answer vectors of Random123's kat_vectors for philox4x32_10.
    #[test]
    fn random123_known_answers() {
        assert_eq!(philox4x32_10([0; 4], [0; 2]), [0x6627e8d5, 0xe169c58d, 0xbc57ac4c, 0x9b00dbd8]);
        assert_eq!(philox4x32_10([u32::MAX; 4], [u32::MAX; 2]), [0x408f276d, 0x41c83b0e, 0xa20bc7c6, 0x6d5451fd]);
        assert_eq!(
            philox4x32_10([0x243f6a88, 0x85a308d3, 0x13198a2e, 0x03707344], [0xa4093822, 0x299f31d0]),
            [0xd16cfe09, 0x94fdcceb, 0x5001e420, 0x24126ea1]
        );
    }

    #[test]
    fn skip_matches_stepping() {
        for n in 0..13u128 {
            let mut a = Philox::init(5, 1, 3);
            let mut b = a;
            for _ in 0..n {
                a.next_u32();
            }
            b.skip(n);
            assert_eq!(a.next_u32(), b.next_u32(), "n={n}");
        }
    }
}
