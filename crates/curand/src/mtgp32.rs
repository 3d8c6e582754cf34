//! MTGP32 (Saito and Matsumoto's Mersenne Twister for Graphic Processors), Mersenne
//! exponent 11213, with the authors' 200 parameter sets (`mtgp32_params`), and the host
//! API's layout of its blocks.
//!
//! One parameter set drives one block's sequence. The recursion and tempering are the
//! authors' (`para_rec`/`temper` of mtgp32-fast.h): state words live in a ring of 1024,
//! value i is computed from words i, i + 1 and i + pos and tempered with word
//! i + pos - 1. Block b is seeded as `curandMakeMTGP32KernelState` documents for state b
//! (cuRAND device API, "Bit Generation with the MTGP32 generator"): the authors'
//! `mtgp32_init_state` with seed (s ^ (s >> 32)) + b + 1, truncated to 32 bits.
//!
//! Host API layout (observed on an H100 with cuRAND 10.4, CUDA 13.0, for device and host
//! generators alike): results are written in chunks of 256, one chunk per block per
//! round; chunk c is values [256 r, 256 r + 256) of block c mod B, r = c div B, with
//! B = 192 blocks for the default and best orderings and 64 for the legacy one. Each
//! call goes on at the generator's running position (every result takes one value:
//! doubles, normals and Poisson variates too).

use crate::mtgp32_params::{Params, PARAMS};

/// 11213 / 32 + 1 state words.
const N: usize = 351;
const MASK: u32 = 0xfff8_0000;
const RING: usize = 1024;
/// Results per block per round: the block's thread count in NVIDIA's kernels.
pub const CHUNK: u64 = 256;

/// One block's sequence.
#[derive(Clone)]
pub struct Mtgp32 {
    p: &'static Params,
    s: Box<[u32; RING]>,
    idx: usize,
}

impl Mtgp32 {
    /// Parameter set `set` seeded with `seed` (the authors' `mtgp32_init_state`).
    pub fn new(set: usize, seed: u32) -> Mtgp32 {
        let p = &PARAMS[set];
        let hidden = p.tbl[4] ^ (p.tbl[8] << 16);
        let mut t = hidden;
        t = t.wrapping_add(t >> 16);
        t = t.wrapping_add(t >> 8);
        let mut s = Box::new([0u32; RING]);
        s[..N].fill((t & 0xff) * 0x0101_0101);
        s[0] = seed;
        s[1] = hidden;
        for i in 1..N {
            s[i] ^= 1_812_433_253u32.wrapping_mul(s[i - 1] ^ (s[i - 1] >> 30)).wrapping_add(i as u32);
        }
        Mtgp32 { p, s, idx: 0 }
    }

    pub fn next_u32(&mut self) -> u32 {
        let (p, o) = (self.p, self.idx);
        let w = |k: usize| self.s[(o + k) % RING];
        let pos = p.pos as usize;
        let mut x = (w(0) & MASK) ^ w(1);
        x ^= x << p.sh1;
        let y = x ^ (w(pos) >> p.sh2);
        let r = y ^ p.tbl[(y & 0xf) as usize];
        let mut t = w(pos - 1);
        self.s[(o + N) % RING] = r;
        t ^= t >> 16;
        t ^= t >> 8;
        self.idx = (o + 1) % RING;
        r ^ p.tmp_tbl[(t & 0xf) as usize]
    }
}

/// The blocks of one generator, each kept at its next value.
pub struct Blocks {
    seed: u32,
    blocks: Vec<Option<(u64, Mtgp32)>>,
}

impl Blocks {
    pub fn new(seed: u64, count: usize) -> Blocks {
        Blocks { seed: (seed ^ (seed >> 32)) as u32, blocks: vec![None; count] }
    }

    /// Results [start, start + n) of the generator's output, through `put(i, value)`.
    pub fn fill(&mut self, start: u64, n: u64, mut put: impl FnMut(usize, u32)) {
        let count = self.blocks.len() as u64;
        let mut g = start;
        while g < start + n {
            let chunk = g / CHUNK;
            let b = (chunk % count) as usize;
            let at = chunk / count * CHUNK + g % CHUNK;
            let end = ((chunk + 1) * CHUNK).min(start + n);
            let seed = self.seed.wrapping_add(b as u32 + 1);
            let (pos, s) = self.blocks[b].get_or_insert_with(|| (0, Mtgp32::new(b, seed)));
            // Positions only grow: calls go on from where the last one ended.
            while *pos < at {
                s.next_u32();
                *pos += 1;
            }
            for i in g..end {
                put((i - start) as usize, s.next_u32());
            }
            *pos += end - g;
            g = end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The ring of 1024 words against the recursion written out over a growing Vec (no
    /// index wrapping). NVIDIA's outputs are checked in tests/nvidia_*.rs.
    #[test]
    fn ring_matches_linear_recursion() {
        let p = &PARAMS[7];
        let mut g = Mtgp32::new(7, 99);
        let mut lin: Vec<u32> = g.s[..N].to_vec();
        for i in 0..3000 {
            let pos = p.pos as usize;
            let mut x = (lin[i] & MASK) ^ lin[i + 1];
            x ^= x << p.sh1;
            let y = x ^ (lin[i + pos] >> p.sh2);
            let r = y ^ p.tbl[(y & 15) as usize];
            lin.push(r);
            let mut t = lin[i + pos - 1];
            t ^= t >> 16;
            t ^= t >> 8;
            assert_eq!(g.next_u32(), r ^ p.tmp_tbl[(t & 15) as usize], "value {i}");
        }
    }
}
