//! Sobol' sequences with Joe and Kuo's direction numbers (new-joe-kuo-6.21201,
//! "Constructing Sobol sequences with better two-dimensional projections", 2008), the
//! set NVIDIA names `CURAND_DIRECTION_VECTORS_{32,64}_JOEKUO6`: 20000 dimensions, the
//! first with all m_k = 1. Points are taken in Gray-code order: point i is the XOR of the
//! direction vectors at the set bits of i ^ (i >> 1).
//!
//! `data/joe_kuo_6.bin` holds dimensions 2..20000 of Joe and Kuo's table (degree s,
//! coefficient bits a, m_1..m_s, as LEB128 varints; written from SciPy's copy by
//! tools/gpu_dump.sh's joe_kuo.txt); the direction vectors are computed here.

use std::sync::OnceLock;

pub const MAX_DIMENSIONS: usize = 20000;

static TABLE: &[u8] = include_bytes!("../data/joe_kuo_6.bin");

/// m_1..m_64 of every dimension (m_k < 2^k).
fn direction_numbers() -> &'static [[u64; 64]] {
    static M: OnceLock<Vec<[u64; 64]>> = OnceLock::new();
    M.get_or_init(|| {
        let mut pos = 0;
        let mut read = || {
            let mut v = 0u64;
            let mut shift = 0;
            loop {
                let b = TABLE[pos];
                pos += 1;
                v |= ((b & 0x7f) as u64) << shift;
                shift += 7;
                if b & 0x80 == 0 {
                    return v;
                }
            }
        };
        let mut all = Vec::with_capacity(MAX_DIMENSIONS);
        all.push([1u64; 64]);
        for _ in 1..MAX_DIMENSIONS {
            let s = read() as usize;
            let a = read();
            let mut m = [0u64; 64];
            for mk in m.iter_mut().take(s) {
                *mk = read();
            }
            for k in s..64 {
                let mut v = m[k - s] ^ (m[k - s] << s);
                for j in 1..s {
                    if (a >> (s - 1 - j)) & 1 == 1 {
                        v ^= m[k - j] << j;
                    }
                }
                m[k] = v;
            }
            all.push(m);
        }
        all
    })
}

/// `curandGetDirectionVectors32`: 32 vectors per dimension.
pub fn vectors32() -> &'static [[u32; 32]] {
    static V: OnceLock<Vec<[u32; 32]>> = OnceLock::new();
    V.get_or_init(|| direction_numbers().iter().map(|m| std::array::from_fn(|k| (m[k] << (31 - k)) as u32)).collect())
}

/// `curandGetDirectionVectors64`: 64 vectors per dimension.
pub fn vectors64() -> &'static [[u64; 64]] {
    static V: OnceLock<Vec<[u64; 64]>> = OnceLock::new();
    V.get_or_init(|| direction_numbers().iter().map(|m| std::array::from_fn(|k| m[k] << (63 - k))).collect())
}

/// Point `i` of the 32-bit sequence with direction vectors `v`.
pub fn point32(v: &[u32; 32], i: u64) -> u32 {
    let mut g = i ^ (i >> 1);
    let mut x = 0;
    while g != 0 {
        let k = g.trailing_zeros() as usize;
        if k < 32 {
            x ^= v[k];
        }
        g &= g - 1;
    }
    x
}

/// Point `i` of the 64-bit sequence with direction vectors `v`.
pub fn point64(v: &[u64; 64], i: u64) -> u64 {
    let mut g = i ^ (i >> 1);
    let mut x = 0;
    while g != 0 {
        x ^= v[g.trailing_zeros() as usize];
        g &= g - 1;
    }
    x
}

/// Fills `out` with points first.. of one dimension, stepping by Gray code.
pub fn fill32(v: &[u32; 32], first: u64, out: &mut [u32]) {
    let mut x = point32(v, first);
    for (j, o) in out.iter_mut().enumerate() {
        *o = x;
        let i = first + j as u64;
        let k = (!i).trailing_zeros() as usize;
        if k < 32 {
            x ^= v[k];
        }
    }
}

pub fn fill64(v: &[u64; 64], first: u64, out: &mut [u64]) {
    let mut x = point64(v, first);
    for (j, o) in out.iter_mut().enumerate() {
        *o = x;
        let i = first + j as u64;
        x ^= v[((!i).trailing_zeros() as usize).min(63)];
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn first_dimensions() {
        let v = vectors32();
        assert_eq!(v.len(), MAX_DIMENSIONS);
        assert_eq!(v[0][..3], [0x8000_0000, 0x4000_0000, 0x2000_0000]);
        // Dimension 2: x + 1, m = 1, 3, 5, 15, ...
        assert_eq!(v[1][..4], [0x8000_0000, 0xc000_0000, 0xa000_0000, 0xf000_0000]);
        let mut out = [0u32; 8];
        fill32(&v[1], 0, &mut out);
        assert_eq!(out[..4], [0, 0x8000_0000, 0x4000_0000, 0xc000_0000]);
        for i in 0..8 {
            assert_eq!(out[i as usize], point32(&v[1], i));
        }
    }
}
