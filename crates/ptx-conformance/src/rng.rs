//! Input generation: a fixed-seed PRNG, edge values per type, exhaustive sweeps, and
//! mixtures of edge and random values. Everything is deterministic so that the CPU run,
//! the hardware export and a failure report all see the same inputs.

/// SplitMix64: small, fast, and good enough for test inputs.
#[derive(Clone)]
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5151_7a7a_0f0f_3c3c)
    }

    pub fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// An integer of `bits` bits with a mixture of shapes: uniform, small, near powers
    /// of two, near the extremes.
    pub fn int(&mut self, bits: u32) -> u64 {
        let m = mask(bits);
        let r = self.next();
        match self.below(8) {
            0 | 1 | 2 => r & m,
            3 => (r % 64) & m,                // small
            4 => (r % 64).wrapping_neg() & m, // small negative
            5 => (1u64 << self.below(bits as u64)).wrapping_add(self.below(3)).wrapping_sub(1) & m,
            6 => (m >> self.below(bits as u64)) ^ (if r & 1 == 1 { m } else { 0 }) & m,
            _ => (r & m) >> self.below(bits as u64), // random magnitude
        }
    }
}

pub fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// Edge values for an integer of `bits` bits (as unsigned bit patterns).
pub fn int_edges(bits: u32) -> Vec<u64> {
    let m = mask(bits);
    let h = 1u64 << (bits - 1);
    let mut v = vec![0, 1, 2, 3, 7, 8, 15, 16, 31, 32, 33, 63, 64, 65, 127, 128, 255, 256];
    v.extend([h - 1, h, h + 1, m, m - 1, m - 2, h >> 1, (h >> 1) + 1, m ^ 0x5a, 0x1234_5678_9abc_def0 & m]);
    v.extend([m >> 1 ^ 0x55, bits as u64 - 1, bits as u64, bits as u64 + 1]);
    let mut out: Vec<u64> = v.into_iter().map(|x| x & m).collect();
    out.sort_unstable();
    out.dedup();
    out
}

/// `n` pairs: every pair of the edge values, then random ones.
pub fn int_pairs(bits_a: u32, bits_b: u32, n: usize, seed: u64) -> (Vec<u64>, Vec<u64>) {
    let (ea, eb) = (int_edges(bits_a), int_edges(bits_b));
    let (mut a, mut b) = (Vec::with_capacity(n), Vec::with_capacity(n));
    for &x in &ea {
        for &y in &eb {
            if a.len() < n {
                a.push(x);
                b.push(y);
            }
        }
    }
    let mut r = Rng::new(seed);
    while a.len() < n {
        a.push(r.int(bits_a));
        b.push(r.int(bits_b));
    }
    (a, b)
}

/// `n` triples: edges crossed with a few, then random ones.
pub fn int_triples(bits: [u32; 3], n: usize, seed: u64) -> [Vec<u64>; 3] {
    let e: Vec<Vec<u64>> = bits.iter().map(|&b| int_edges(b)).collect();
    let mut out = [Vec::with_capacity(n), Vec::with_capacity(n), Vec::with_capacity(n)];
    let few = |v: &Vec<u64>| v.iter().step_by(3).copied().collect::<Vec<_>>();
    let (f0, f1, f2) = (few(&e[0]), few(&e[1]), few(&e[2]));
    'outer: for &x in &f0 {
        for &y in &f1 {
            for &z in &f2 {
                if out[0].len() >= n / 2 {
                    break 'outer;
                }
                out[0].push(x);
                out[1].push(y);
                out[2].push(z);
            }
        }
    }
    let mut r = Rng::new(seed);
    while out[0].len() < n {
        for k in 0..3 {
            let v = r.int(bits[k]);
            out[k].push(v);
        }
    }
    out
}

/// All 65536 pairs of byte values, each placed in the low byte of a 16-bit register whose
/// high byte is junk (the instruction must ignore it).
pub fn byte_pairs_junk(seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut r = Rng::new(seed);
    let (mut a, mut b) = (Vec::with_capacity(65536), Vec::with_capacity(65536));
    for x in 0..256u64 {
        for y in 0..256u64 {
            a.push(x | (r.next() & 0xff00));
            b.push(y | (r.next() & 0xff00));
        }
    }
    (a, b)
}

/// 65536 pairs of 16-bit values: all pairs of 256 values chosen as the 16-bit edges plus
/// sign-extended bytes and random values.
pub fn pairs16(seed: u64) -> (Vec<u64>, Vec<u64>) {
    let mut set = int_edges(16);
    for x in [0u64, 1, 2, 0x7f, 0x80, 0xff, 0x100, 0x7ffe] {
        set.push(x);
        set.push(x.wrapping_neg() & 0xffff);
    }
    let mut r = Rng::new(seed);
    while set.len() < 256 {
        set.push(r.int(16));
    }
    set.truncate(256);
    let (mut a, mut b) = (Vec::with_capacity(65536), Vec::with_capacity(65536));
    for &x in &set {
        for &y in &set {
            a.push(x);
            b.push(y);
        }
    }
    (a, b)
}

/// Every 16-bit value.
pub fn all16() -> Vec<u64> {
    (0..65536u64).collect()
}

/// Float edge values of a format with `w` bits and `e` exponent bits.
pub fn float_edges(w: u32, e: u32) -> Vec<u64> {
    let mant = w - 1 - e;
    let sign = 1u64 << (w - 1);
    let exp_one = ((1u64 << (e - 1)) - 1) << mant; // 1.0
    let inf = mask(e) << mant;
    let max = inf - 1;
    let min_norm = 1u64 << mant;
    let max_sub = min_norm - 1;
    let half = exp_one - (1u64 << mant);
    let q = 1u64 << (mant - 1);
    let mut v = vec![0, 1, 2, max_sub, min_norm, min_norm + 1, exp_one, exp_one + 1, exp_one - 1, half, max, inf, inf | q, inf | 1, inf | q | 1];
    // 1.5, 2.5, 3.5, 0.75 (ties), 2, 3, 4, 5
    for k in 0..8u64 {
        v.push(exp_one + (k << mant) / 2);
        v.push((exp_one + (k << mant)) | q);
    }
    // around 2^(w/2 - 1) .. 2^(64): integer-conversion boundaries
    for p in [7u64, 8, 15, 16, 31, 32, 63, 64] {
        let bexp = (1u64 << (e - 1)) - 1 + p;
        if bexp < mask(e) {
            let base = bexp << mant;
            v.extend([base, base - 1, base + 1]);
        }
    }
    let pos: Vec<u64> = v.iter().map(|x| x & mask(w)).collect();
    let mut out = pos.clone();
    out.extend(pos.iter().map(|x| x | sign));
    out.sort_unstable();
    out.dedup();
    out
}

/// A random float of width `w` (exponent bits `e`) from a mixture: uniform bit patterns,
/// moderate exponents, and values near integers.
pub fn rand_float(r: &mut Rng, w: u32, e: u32) -> u64 {
    let mant = w - 1 - e;
    let bias = (1u64 << (e - 1)) - 1;
    let s = (r.next() & 1) << (w - 1);
    match r.below(6) {
        0 => r.next() & mask(w),
        1 | 2 => {
            // exponent within +-20 of 1.0
            let ex = (bias as i64 + r.below(41) as i64 - 20).clamp(1, mask(e) as i64 - 1) as u64;
            s | (ex << mant) | (r.next() & mask(mant))
        }
        3 => {
            // small integers and halves
            let k = r.below(2000) as f64 / 4.0;
            s | crate::fp::from_f64(k, w, e)
        }
        4 => {
            // near the subnormal range
            let ex = r.below(4);
            s | (ex << mant) | (r.next() & mask(mant))
        }
        _ => {
            // near the top
            let ex = mask(e) - 1 - r.below(4);
            s | (ex << mant) | (r.next() & mask(mant))
        }
    }
}

/// `n` float tuples of arity `k`: edge crossings first (for arity <= 2), then random, with
/// some pairs sharing an exponent (cancellation).
pub fn float_tuples(w: u32, e: u32, k: usize, n: usize, seed: u64) -> Vec<Vec<u64>> {
    let edges = float_edges(w, e);
    let mut out: Vec<Vec<u64>> = (0..k).map(|_| Vec::with_capacity(n)).collect();
    let mut r = Rng::new(seed);
    match k {
        1 => out[0].extend(edges.iter().copied()),
        2 => {
            // every pair if they fit in half the budget, else an even spread of them
            let total = edges.len() * edges.len();
            let take = total.min(n / 2);
            for j in 0..take {
                let k = j * total / take;
                out[0].push(edges[k / edges.len()]);
                out[1].push(edges[k % edges.len()]);
            }
        }
        _ => {
            for _ in 0..edges.len() * 8 {
                for o in out.iter_mut() {
                    o.push(edges[r.below(edges.len() as u64) as usize]);
                }
            }
        }
    }
    for o in out.iter_mut() {
        o.truncate(n / 2);
    }
    let len = out[0].len();
    for o in out.iter_mut() {
        o.truncate(len);
    }
    while out[0].len() < n {
        let first = rand_float(&mut r, w, e);
        out[0].push(first);
        for o in out.iter_mut().skip(1) {
            let v =
                if r.below(4) == 0 { first ^ (r.next() & mask(w - e - 1) & mask(w)) ^ ((r.next() & 1) << (w - 1)) } else { rand_float(&mut r, w, e) };
            o.push(v);
        }
    }
    out
}
