//! Integer conversions (PTX ISA 9.7.9.21 `cvt`): every pair of integer types, with and
//! without `.sat`. Sources of 8 and 16 bits are swept exhaustively (all 65536 values of the
//! 16-bit register, so 8-bit sources also see junk in the high byte, which `cvt` must
//! ignore). A destination narrower than its register (8-bit types live in 16-bit
//! registers) is sign- or zero-extended to the register by the destination type.
//! Also the saturating packs `cvt.pack.sat.{u16,s16}.s32 d, a, b` and
//! `cvt.pack.sat.{u8,s8,u4,s4,u2,s2}.s32.b32 d, a, b, c` (PTX ISA 9.7.9.22): `a` and `b`
//! saturate to `w` bits and pack as `(c << 2w) | (a << w) | b`.

use super::{sat, seed, val, wrap};
use crate::case::{Case, Ty};
use crate::rng::{all16, int_pairs, Rng};

const F: &str = "cvt-int";

const TYPES: [Ty; 8] = [Ty::U8, Ty::S8, Ty::U16, Ty::S16, Ty::U32, Ty::S32, Ty::U64, Ty::S64];

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for src in TYPES {
        for dst in TYPES {
            // `.sat` only where the destination cannot hold every source value (ptxas
            // rejects it elsewhere).
            let fits =
                (dst.is_signed() == src.is_signed() && dst.bits() >= src.bits()) || (dst.is_signed() && !src.is_signed() && dst.bits() > src.bits());
            for s in if fits { vec![false] } else { vec![false, true] } {
                let body = format!("cvt{}.{}.{} %x, %a;", if s { ".sat" } else { "" }, dst.name(), src.name());
                let a = if src.bytes() == 2 { all16() } else { int_pairs(src.bits(), 8, 4096, seed(&body)).0 };
                v.push(Case::simple(F, &body, vec![(src, a)], dst, move |r| {
                    let x = val(r[0], src);
                    let d = if s { sat(x, dst.bits(), dst.is_signed()) } else { wrap(x, dst.bits()) };
                    // extend to the register by the destination type
                    wrap(val(d, dst), dst.bytes() as u32 * 8)
                }));
            }
        }
    }
    for (name, w, signed, with_c) in [
        ("u16", 16, false, false),
        ("s16", 16, true, false),
        ("u8", 8, false, true),
        ("s8", 8, true, true),
        ("u4", 4, false, true),
        ("s4", 4, true, true),
        ("u2", 2, false, true),
        ("s2", 2, true, true),
    ] {
        let body = if with_c { format!("cvt.pack.sat.{name}.s32.b32 %x, %a, %b, %c;") } else { format!("cvt.pack.sat.{name}.s32 %x, %a, %b;") };
        let (a, b) = int_pairs(32, 32, 4096, seed(&body));
        let mut r = Rng::new(seed(&body) ^ 1);
        let mut ins = vec![(Ty::S32, a), (Ty::S32, b)];
        if with_c {
            ins.push((Ty::B32, (0..4096).map(|_| r.next() & 0xffff_ffff).collect()));
        }
        v.push(Case::simple(F, &body, ins, Ty::U32, move |x| {
            let lane = |v: u64| sat(val(v, Ty::S32), w, signed);
            let c = if with_c { x[2] << (2 * w) } else { 0 };
            (c | lane(x[0]) << w | lane(x[1])) & 0xffff_ffff
        }));
    }
    v
}
