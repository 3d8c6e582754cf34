//! Bit manipulation and logic (PTX ISA 9.7.1, 9.7.8): popc, clz, brev, bfind(.shiftamt),
//! bfe, bfi, fns, prmt (every mode), shf, lop3 (all 256 functions), dp2a, dp4a, bmsk,
//! szext, shl/shr (amounts past the width clamp), and/or/xor/not/cnot on bits and
//! predicates.

use super::{pairs, seed, sx, val, wrap};
use crate::case::{Case, Ty};
use crate::rng::{all16, int_edges, int_pairs, int_triples, mask, Rng};

const F: &str = "int-bits";

fn bty(bits: u32) -> Ty {
    match bits {
        16 => Ty::B16,
        32 => Ty::B32,
        _ => Ty::B64,
    }
}

/// Unary inputs: every value for 16 bits, edges plus random for wider.
fn unary_inputs(bits: u32, s: u64) -> Vec<u64> {
    if bits == 16 {
        all16()
    } else {
        int_pairs(bits, bits, 4096, s).0
    }
}

/// Shift amounts, bit positions and lengths: mostly small, some with junk high bits.
fn small_u32(n: usize, s: u64) -> Vec<u64> {
    let mut r = Rng::new(s);
    (0..n)
        .map(|i| match i % 4 {
            0 | 1 => r.below(70),
            2 => (i as u64 / 4) % 80,
            _ => r.int(32),
        })
        .collect()
}

/// Position and length operands: the ISA takes bits 0-7 of each, which the H200 does for
/// 32-bit operations; for 64-bit ones it uses the whole 32-bit operand (a position of
/// 0x20001 extracts nothing), so we match the hardware there.
fn field(pos: u64, len: u64, bits: u32) -> (u64, u64) {
    if bits == 64 {
        (pos & 0xffff_ffff, len & 0xffff_ffff)
    } else {
        (pos & 0xff, len & 0xff)
    }
}

fn bfe(a: u64, pos: u64, len: u64, bits: u32, signed: bool) -> u64 {
    let msb = bits as u64 - 1;
    let (pos, len) = field(pos, len, bits);
    let bit = |i: u64| (a >> i) & 1;
    let sbit = if !signed || len == 0 { 0 } else { bit((pos + len - 1).min(msb)) };
    let mut d = 0u64;
    for i in 0..=msb {
        let b = if i < len && pos + i <= msb { bit(pos + i) } else { sbit };
        d |= b << i;
    }
    d
}

fn bfi(a: u64, b: u64, pos: u64, len: u64, bits: u32) -> u64 {
    let msb = bits as u64 - 1;
    let (pos, len) = field(pos, len, bits);
    let mut f = b;
    let mut i = 0;
    while i < len && pos + i <= msb {
        f = (f & !(1 << (pos + i))) | (((a >> i) & 1) << (pos + i));
        i += 1;
    }
    f
}

fn fns(m: u64, base: u64, offset: u64) -> u64 {
    let off = sx(offset, 32);
    if off == 0 {
        return if (m >> base) & 1 == 1 { base } else { 0xffff_ffff };
    }
    let mut count = off.abs() - 1;
    let inc: i64 = if off > 0 { 1 } else { -1 };
    let mut pos = base as i64;
    while (0..32).contains(&pos) {
        if (m >> pos) & 1 == 1 {
            if count == 0 {
                return pos as u64;
            }
            count -= 1;
        }
        pos += inc;
    }
    0xffff_ffff
}

/// `prmt` byte selection: the selector of each result byte for a mode and c[1:0].
fn prmt(a: u64, b: u64, c: u64, mode: &str) -> u64 {
    let bytes = (b << 32) | (a & 0xffff_ffff);
    let byte = |k: u64| (bytes >> (8 * (k & 7))) & 0xff;
    let sel = |k: usize| -> [u64; 4] {
        // d.b0, d.b1, d.b2, d.b3
        let t: [[u64; 4]; 4] = match mode {
            "f4e" => [[0, 1, 2, 3], [1, 2, 3, 4], [2, 3, 4, 5], [3, 4, 5, 6]],
            "b4e" => [[0, 7, 6, 5], [1, 0, 7, 6], [2, 1, 0, 7], [3, 2, 1, 0]],
            "rc8" => [[0, 0, 0, 0], [1, 1, 1, 1], [2, 2, 2, 2], [3, 3, 3, 3]],
            "ecl" => [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]],
            "ecr" => [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]],
            _ => [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]], // rc16
        };
        t[k]
    };
    let mut d = 0;
    if mode.is_empty() {
        for k in 0..4 {
            let s = (c >> (4 * k)) & 0xf;
            let v = byte(s);
            let v = if s & 8 != 0 {
                if v & 0x80 != 0 {
                    0xff
                } else {
                    0
                }
            } else {
                v
            };
            d |= v << (8 * k);
        }
    } else {
        let s = sel((c & 3) as usize);
        for (k, &x) in s.iter().enumerate() {
            d |= byte(x) << (8 * k);
        }
    }
    d
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for bits in [32u32, 64] {
        let b = bty(bits);
        let t = b.name();
        let body = format!("popc.{t} %x, %a;");
        v.push(Case::simple(F, &body, vec![(b, unary_inputs(bits, seed(&body)))], Ty::U32, |r| r[0].count_ones() as u64));
        let body = format!("clz.{t} %x, %a;");
        v.push(Case::simple(F, &body, vec![(b, unary_inputs(bits, seed(&body)))], Ty::U32, move |r| (r[0].leading_zeros() - (64 - bits)) as u64));
        let body = format!("brev.{t} %x, %a;");
        v.push(Case::simple(F, &body, vec![(b, unary_inputs(bits, seed(&body)))], b, move |r| r[0].reverse_bits() >> (64 - bits)));
        for ty in if bits == 32 { [Ty::U32, Ty::S32] } else { [Ty::U64, Ty::S64] } {
            for shiftamt in [false, true] {
                let body = format!("bfind{}.{} %x, %a;", if shiftamt { ".shiftamt" } else { "" }, ty.name());
                v.push(Case::simple(F, &body, vec![(ty, unary_inputs(bits, seed(&body)))], Ty::U32, move |r| {
                    let x = if ty.is_signed() && (r[0] >> (bits - 1)) & 1 == 1 { !r[0] & mask(bits) } else { r[0] };
                    if x == 0 {
                        return 0xffff_ffff;
                    }
                    let pos = 63 - x.leading_zeros() as u64;
                    if shiftamt {
                        bits as u64 - 1 - pos
                    } else {
                        pos
                    }
                }));
            }
            let body = format!("bfe.{} %x, %a, %b, %c;", ty.name());
            let a = int_pairs(bits, bits, 8192, seed(&body)).0;
            let (p, l) = (small_u32(8192, seed(&body) + 1), small_u32(8192, seed(&body) + 2));
            v.push(Case::simple(F, &body, vec![(ty, a), (Ty::U32, p), (Ty::U32, l)], ty, move |r| bfe(r[0], r[1], r[2], bits, ty.is_signed())));
        }
        let body = format!("bfi.{t} %x, %a, %b, %c, %d;");
        let (a, bb) = int_pairs(bits, bits, 8192, seed(&body));
        let (p, l) = (small_u32(8192, seed(&body) + 1), small_u32(8192, seed(&body) + 2));
        v.push(Case::simple(F, &body, vec![(b, a), (b, bb), (Ty::U32, p), (Ty::U32, l)], b, move |r| bfi(r[0], r[1], r[2], r[3], bits)));
    }
    // fns: base in 0..31 (larger is undefined).
    {
        let body = "fns.b32 %x, %a, %b, %c;";
        let mut r = Rng::new(seed(body));
        let n = 8192;
        let m: Vec<u64> = (0..n).map(|i| if i % 8 == 0 { int_edges(32)[i / 8 % 20] } else { r.int(32) }).collect();
        let base: Vec<u64> = (0..n).map(|_| r.below(32)).collect();
        let off: Vec<u64> = (0..n).map(|_| wrap(r.below(70) as i128 - 35, 32)).collect();
        v.push(Case::simple(F, body, vec![(Ty::B32, m), (Ty::U32, base), (Ty::S32, off)], Ty::B32, |r| fns(r[0], r[1], r[2])));
    }
    // prmt: the generic form with every selector nibble, and each mode.
    for mode in ["", "f4e", "b4e", "rc8", "ecl", "ecr", "rc16"] {
        let dot = if mode.is_empty() { String::new() } else { format!(".{mode}") };
        let body = format!("prmt.b32{dot} %x, %a, %b, %c;");
        let [a, b, mut c] = int_triples([32, 32, 32], 4096, seed(&body));
        let mut r = Rng::new(seed(&body) + 9);
        for (i, x) in c.iter_mut().enumerate() {
            if i % 2 == 0 {
                *x = r.next() & 0xffff | (r.next() & 0xffff_0000 & if i % 4 == 0 { 0 } else { u64::MAX });
            }
        }
        v.push(Case::simple(F, &body, vec![(Ty::B32, a), (Ty::B32, b), (Ty::B32, c)], Ty::B32, move |r| prmt(r[0], r[1], r[2], mode)));
    }
    // shf
    for dir in ["l", "r"] {
        for m in ["wrap", "clamp"] {
            let body = format!("shf.{dir}.{m}.b32 %x, %a, %b, %c;");
            let (a, b) = int_pairs(32, 32, 4096, seed(&body));
            let c = small_u32(4096, seed(&body) + 3);
            v.push(Case::simple(F, &body, vec![(Ty::B32, a), (Ty::B32, b), (Ty::U32, c)], Ty::B32, move |r| {
                let n = if m == "wrap" { r[2] & 31 } else { r[2].min(32) };
                let wide = (r[1] << 32) | r[0];
                if dir == "l" {
                    ((wide << n) >> 32) & 0xffff_ffff
                } else {
                    (wide >> n) & 0xffff_ffff
                }
            }));
        }
    }
    // lop3: every function of three inputs.
    let [la, lb, lc] = int_triples([32, 32, 32], 512, 77);
    for lut in 0..256u64 {
        let body = format!("lop3.b32 %x, %a, %b, %c, {lut};");
        let ins = vec![(Ty::B32, la.clone()), (Ty::B32, lb.clone()), (Ty::B32, lc.clone())];
        let c = Case::simple(F, &body, ins, Ty::B32, move |r| {
            let mut d = 0;
            for i in 0..32 {
                let k = ((r[0] >> i) & 1) << 2 | ((r[1] >> i) & 1) << 1 | ((r[2] >> i) & 1);
                d |= ((lut >> k) & 1) << i;
            }
            d
        });
        v.push(c.with_id(format!("lop3.b32#{lut:#04x}")));
    }
    // dp4a / dp2a
    for at in [Ty::U32, Ty::S32] {
        for bt in [Ty::U32, Ty::S32] {
            let byte = |x: u64, k: u32, t: Ty| if t.is_signed() { sx(x >> (8 * k), 8) } else { ((x >> (8 * k)) & 0xff) as i128 };
            let half = |x: u64, k: u32, t: Ty| if t.is_signed() { sx(x >> (16 * k), 16) } else { ((x >> (16 * k)) & 0xffff) as i128 };
            let body = format!("dp4a.{}.{} %x, %a, %b, %c;", at.name(), bt.name());
            let [a, b, c] = int_triples([32, 32, 32], 4096, seed(&body));
            let ct = if at.is_signed() || bt.is_signed() { Ty::S32 } else { Ty::U32 };
            v.push(Case::simple(F, &body, vec![(at, a), (bt, b), (ct, c)], ct, move |r| {
                let s: i128 = (0..4).map(|k| byte(r[0], k, at) * byte(r[1], k, bt)).sum();
                wrap(s + val(r[2], ct), 32)
            }));
            for hi in [false, true] {
                let body = format!("dp2a.{}.{}.{} %x, %a, %b, %c;", if hi { "hi" } else { "lo" }, at.name(), bt.name());
                let [a, b, c] = int_triples([32, 32, 32], 4096, seed(&body));
                v.push(Case::simple(F, &body, vec![(at, a), (bt, b), (ct, c)], ct, move |r| {
                    let o = if hi { 2 } else { 0 };
                    let s: i128 = (0..2).map(|k| half(r[0], k, at) * byte(r[1], k + o, bt)).sum();
                    wrap(s + val(r[2], ct), 32)
                }));
            }
        }
    }
    // bmsk / szext (sm_70)
    for m in ["clamp", "wrap"] {
        let body = format!("bmsk.{m}.b32 %x, %a, %b;");
        let (a, b) = (small_u32(4096, seed(&body)), small_u32(4096, seed(&body) + 1));
        v.push(Case::simple(F, &body, vec![(Ty::U32, a), (Ty::U32, b)], Ty::B32, move |r| {
            let (pos, w) = if m == "clamp" { (r[0].min(32), r[1].min(32)) } else { (r[0] & 31, r[1] & 31) };
            (((1u128 << w) - 1) << pos) as u64 & 0xffff_ffff
        }));
        for ty in [Ty::U32, Ty::S32] {
            let body = format!("szext.{m}.{} %x, %a, %b;", ty.name());
            let a = int_pairs(32, 32, 4096, seed(&body)).0;
            let b = small_u32(4096, seed(&body) + 1);
            v.push(Case::simple(F, &body, vec![(ty, a), (Ty::U32, b)], ty, move |r| {
                let w = if m == "clamp" { r[1].min(32) } else { r[1] & 31 } as u32;
                if w == 0 {
                    0
                } else if ty.is_signed() {
                    wrap(sx(r[0], w), 32)
                } else {
                    r[0] & mask(w)
                }
            }));
        }
    }
    // shifts: the amount is always a u32; past the width, shl/shr.u give 0, shr.s the sign.
    for bits in [16u32, 32, 64] {
        for ty in [
            bty(bits),
            if bits == 16 {
                Ty::U16
            } else if bits == 32 {
                Ty::U32
            } else {
                Ty::U64
            },
            match bits {
                16 => Ty::S16,
                32 => Ty::S32,
                _ => Ty::S64,
            },
        ] {
            let op = if ty == bty(bits) { "shl" } else { "shr" };
            let body = format!("{op}.{} %x, %a, %b;", ty.name());
            let a = pairs(ty, 0).0;
            let n = a.len();
            let b = small_u32(n, seed(&body) + 1);
            v.push(Case::simple(F, &body, vec![(ty, a), (Ty::U32, b)], ty, move |r| {
                let s = r[1].min(127) as u32;
                if op == "shl" {
                    wrap(if s >= bits { 0 } else { (r[0] as i128) << s }, bits)
                } else {
                    wrap(val(r[0], ty) >> s.min(bits), bits)
                }
            }));
        }
        let b = bty(bits);
        for op in ["and", "or", "xor"] {
            let body = format!("{op}.{} %x, %a, %b;", b.name());
            let (x, y) = pairs(if bits == 16 { Ty::U16 } else { b }, 0);
            v.push(Case::simple(F, &body, vec![(b, x), (b, y)], b, move |r| match op {
                "and" => r[0] & r[1],
                "or" => r[0] | r[1],
                _ => r[0] ^ r[1],
            }));
        }
        for op in ["not", "cnot"] {
            let body = format!("{op}.{} %x, %a;", b.name());
            v.push(Case::simple(F, &body, vec![(b, unary_inputs(bits, seed(&body)))], b, move |r| {
                if op == "not" {
                    !r[0] & mask(bits)
                } else {
                    (r[0] == 0) as u64
                }
            }));
        }
    }
    // predicate logic: all four input combinations, many times over.
    let pa: Vec<u64> = (0..1024).map(|i| (i & 1) as u64).collect();
    let pb: Vec<u64> = (0..1024).map(|i| ((i >> 1) & 1) as u64 * (1 + (i as u64 >> 2))).collect();
    for op in ["and", "or", "xor"] {
        let body = format!("{op}.pred %x, %a, %b;");
        v.push(Case::simple(F, &body, vec![(Ty::Pred, pa.clone()), (Ty::Pred, pb.clone())], Ty::Pred, move |r| {
            let (x, y) = (r[0] != 0, r[1] != 0);
            (match op {
                "and" => x && y,
                "or" => x || y,
                _ => x != y,
            }) as u64
        }));
    }
    v.push(Case::simple(F, "not.pred %x, %a;", vec![(Ty::Pred, pb.clone())], Ty::Pred, |r| (r[0] == 0) as u64));
    v
}
