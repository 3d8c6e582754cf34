//! Extended-precision arithmetic (PTX ISA 9.7.2): add.cc/addc/sub.cc/subc/mad.cc/madc
//! chains on 32 and 64 bits, including carry-out of the middle of a chain (`addc.cc`),
//! chains that mix additions and subtractions, and the signed spellings. `%x` is the low word, `%y` the high word of the chain's result.

use super::seed;
use crate::case::{Case, Check, Ty};
use crate::rng::{int_triples, mask};

const F: &str = "carry";

fn quads(bits: u32, s: u64) -> Vec<(Ty, Vec<u64>)> {
    let ty = if bits == 32 { Ty::U32 } else { Ty::U64 };
    let [a, b, c] = int_triples([bits, bits, bits], 8192, s);
    let [d, _, _] = int_triples([bits, bits, bits], 8192, s + 1);
    vec![(ty, a), (ty, b), (ty, c), (ty, d)]
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (bits, t, ts) in [(32u32, "u32", "s32"), (64, "u64", "s64")] {
        let m = mask(bits);
        let ty = if bits == 32 { Ty::U32 } else { Ty::U64 };
        let outs = [(ty, Check::Exact), (ty, Check::Exact)];
        let w = bits as u128;
        let chains: Vec<(String, String, Box<dyn Fn(&[u64]) -> Vec<u64>>)> = vec![
            (
                format!("add.cc.{t}+addc.{t}"),
                format!("add.cc.{t} %x, %a, %b;\naddc.{t} %y, %c, %d;"),
                Box::new(move |r: &[u64]| {
                    let lo = r[0] as u128 + r[1] as u128;
                    vec![lo as u64 & m, (r[2] as u128 + r[3] as u128 + (lo >> w)) as u64 & m]
                }),
            ),
            (
                format!("add.cc.{ts}+addc.cc.{ts}+addc.{ts}"),
                format!("add.cc.{ts} %x, %a, %b;\naddc.cc.{ts} %y, %c, %d;\naddc.{ts} %y, %y, 0;"),
                Box::new(move |r: &[u64]| {
                    let lo = r[0] as u128 + r[1] as u128;
                    let mid = r[2] as u128 + r[3] as u128 + (lo >> w);
                    vec![lo as u64 & m, ((mid as u64 & m) as u128 + (mid >> w)) as u64 & m]
                }),
            ),
            (
                format!("sub.cc.{t}+subc.{t}"),
                format!("sub.cc.{t} %x, %a, %b;\nsubc.{t} %y, %c, %d;"),
                Box::new(move |r: &[u64]| {
                    let borrow = (r[0] < r[1]) as u64;
                    vec![r[0].wrapping_sub(r[1]) & m, r[2].wrapping_sub(r[3]).wrapping_sub(borrow) & m]
                }),
            ),
            // Mixed chains: CC.CF after `sub.cc` is the carry of `a + ~b + 1` (1 when
            // nothing was borrowed), and `subc` borrows when CC.CF is 0.
            (
                format!("sub.cc.{t}+addc.{t}"),
                format!("sub.cc.{t} %x, %a, %b;\naddc.{t} %y, %c, %d;"),
                Box::new(move |r: &[u64]| {
                    let carry = (r[0] >= r[1]) as u128;
                    vec![r[0].wrapping_sub(r[1]) & m, (r[2] as u128 + r[3] as u128 + carry) as u64 & m]
                }),
            ),
            (
                format!("add.cc.{t}+subc.{t}"),
                format!("add.cc.{t} %x, %a, %b;\nsubc.{t} %y, %c, %d;"),
                Box::new(move |r: &[u64]| {
                    let lo = r[0] as u128 + r[1] as u128;
                    let borrow = 1 - (lo >> w) as u64;
                    vec![lo as u64 & m, r[2].wrapping_sub(r[3]).wrapping_sub(borrow) & m]
                }),
            ),
            (
                format!("sub.cc.{t}+subc.cc.{t}+subc.{t}"),
                format!("sub.cc.{t} %x, %a, %b;\nsubc.cc.{t} %y, %c, %d;\nsubc.{t} %y, %y, 0;"),
                Box::new(move |r: &[u64]| {
                    let b1 = (r[0] < r[1]) as u128;
                    let b2 = ((r[2] as u128) < r[3] as u128 + b1) as u64;
                    let mid = r[2].wrapping_sub(r[3]).wrapping_sub(b1 as u64) & m;
                    vec![r[0].wrapping_sub(r[1]) & m, mid.wrapping_sub(b2) & m]
                }),
            ),
            (
                format!("mad.lo.cc.{t}+madc.hi.{t}"),
                format!("mad.lo.cc.{t} %x, %a, %b, %c;\nmadc.hi.{t} %y, %a, %b, %d;"),
                Box::new(move |r: &[u64]| {
                    let p = r[0] as u128 * r[1] as u128;
                    let lo = (p & m as u128) + r[2] as u128;
                    vec![lo as u64 & m, ((p >> w) + r[3] as u128 + (lo >> w)) as u64 & m]
                }),
            ),
            (
                format!("mad.hi.cc.{t}+madc.lo.cc.{t}+addc.{t}"),
                format!("mad.hi.cc.{t} %x, %a, %b, %c;\nmadc.lo.cc.{t} %y, %a, %b, %d;\naddc.{t} %y, %y, %y;"),
                Box::new(move |r: &[u64]| {
                    let p = r[0] as u128 * r[1] as u128;
                    let hi = (p >> w) + r[2] as u128;
                    let lo = (p & m as u128) + r[3] as u128 + (hi >> w);
                    let lw = lo as u64 & m;
                    vec![hi as u64 & m, (lw as u128 * 2 + (lo >> w)) as u64 & m]
                }),
            ),
        ];
        for (id, body, f) in chains {
            let ins = quads(bits, seed(&id));
            v.push(Case::map(F, id, body, ins, &outs, f));
        }
    }
    v
}
