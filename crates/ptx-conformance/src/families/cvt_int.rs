//! Integer conversions (PTX ISA 9.7.9.21 `cvt`): every pair of integer types, with and
//! without `.sat`. Sources of 8 and 16 bits are swept exhaustively (all 65536 values of the
//! 16-bit register, so 8-bit sources also see junk in the high byte, which `cvt` must
//! ignore). A destination narrower than its register (8-bit types live in 16-bit
//! registers) is sign- or zero-extended to the register by the destination type.

use super::{sat, seed, val, wrap};
use crate::case::{Case, Ty};
use crate::rng::{all16, int_pairs};

const F: &str = "cvt-int";

const TYPES: [Ty; 8] = [Ty::U8, Ty::S8, Ty::U16, Ty::S16, Ty::U32, Ty::S32, Ty::U64, Ty::S64];

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for src in TYPES {
        for dst in TYPES {
            // `.sat` only where the destination cannot hold every source value (ptxas
            // rejects it elsewhere).
            let fits = (dst.is_signed() == src.is_signed() && dst.bits() >= src.bits())
                || (dst.is_signed() && !src.is_signed() && dst.bits() > src.bits());
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
    v
}
