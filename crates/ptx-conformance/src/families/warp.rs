//! Warp-level instructions (PTX ISA 9.7.8.6 shfl.sync, 9.7.13.x vote.sync, redux.sync,
//! match.sync, activemask) in full warps and with partial member masks: lanes outside the
//! mask branch around the instruction (so they do not take part) and keep a default
//! output. 1024 threads in blocks of 128; lane = thread index mod 32.

use super::{seed, val, wrap};
use crate::case::{Case, Check, Ty};
use crate::rng::Rng;

const F: &str = "warp";
const N: usize = 1024;

/// Lane masks: the full warp and two partial ones.
const MASKS: [(u32, &str); 3] = [(0xffff_ffff, "full"), (0x0f0f_00ff, "partial"), (0x8000_0001, "pair")];

/// A warp case: `insn` runs in lanes of `mask`; `outs` are (type, default for lanes
/// outside the mask); `f(inputs of the 32 lanes, mask)` gives each lane's outputs.
fn warp_case(id: String, insn: &str, mask: u32, ins: Vec<(Ty, Vec<u64>)>, outs: &[(Ty, u64)], f: impl Fn(&[Vec<u64>], u32) -> Vec<Vec<u64>>) -> Case {
    let mut body = String::new();
    for (k, &(ty, d)) in outs.iter().enumerate() {
        let r = ["%x", "%y"][k];
        if ty == Ty::Pred {
            let cmp = if d != 0 { "eq" } else { "ne" };
            body += &format!("setp.{cmp}.u32 {r}, %i, %i;\n");
        } else {
            body += &format!("mov.b32 {r}, {d};\n");
        }
    }
    if mask != u32::MAX {
        body += &format!("mov.u32 %t0, %laneid;\nmov.b32 %u, {mask:#x};\nshr.b32 %t, %u, %t0;\nand.b32 %t, %t, 1;\n");
        body += "setp.eq.u32 %q, %t, 0;\n@%q bra $Lskip;\n";
    }
    body += insn;
    body += "\n$Lskip:\n";
    let body = if mask == u32::MAX { body.replace("$Lskip:\n", "") } else { body };
    let mut expected: Vec<Vec<u64>> = outs.iter().map(|_| vec![0; N]).collect();
    for w in 0..N / 32 {
        let lanes: Vec<Vec<u64>> = ins.iter().map(|(_, v)| v[32 * w..32 * w + 32].to_vec()).collect();
        let r = f(&lanes, mask);
        for l in 0..32 {
            for k in 0..outs.len() {
                expected[k][32 * w + l] = if mask >> l & 1 == 1 { r[l][k] } else { outs[k].1 };
            }
        }
    }
    let outs_c: Vec<(Ty, Check)> = outs.iter().map(|o| (o.0, Check::Exact)).collect();
    let mut c = Case::map(F, id, body, ins, &outs_c, |_| outs.iter().map(|_| 0).collect());
    for (o, e) in c.outputs.iter_mut().zip(expected) {
        o.expected = e;
    }
    c.block = 128;
    c
}

fn rand_vals(n: usize, s: u64, range: u64) -> Vec<u64> {
    let mut r = Rng::new(s);
    (0..n).map(|_| if range == 0 { r.next() & 0xffff_ffff } else { r.below(range) }).collect()
}

/// Predicates that are sometimes uniform across a warp.
fn warp_preds(s: u64) -> Vec<u64> {
    let mut r = Rng::new(s);
    let mut v = Vec::with_capacity(N);
    for w in 0..N / 32 {
        let kind = w % 4;
        for _ in 0..32 {
            v.push(match kind {
                0 => 1,
                1 => 0,
                _ => r.below(2),
            });
        }
    }
    v
}

fn ballot(p: &[u64], mask: u32) -> u32 {
    (0..32).filter(|&l| mask >> l & 1 == 1 && p[l] != 0).fold(0, |m, l| m | 1 << l)
}

pub fn cases() -> Vec<Case> {
    let mut v = Vec::new();
    for (mask, mname) in MASKS {
        let mtxt = if mask == u32::MAX { "-1".to_string() } else { format!("{mask:#x}") };
        // vote
        let body = format!("vote.sync.ballot.b32 %x, %a, {mtxt};");
        let p = warp_preds(seed(&body));
        v.push(warp_case(format!("vote.sync.ballot.b32#{mname}"), &body, mask, vec![(Ty::Pred, p)], &[(Ty::B32, 0xdead)], |l, m| {
            vec![vec![ballot(&l[0], m) as u64]; 32]
        }));
        for mode in ["all", "any", "uni"] {
            for neg in [false, true] {
                let src = if neg { "!%a" } else { "%a" };
                let body = format!("vote.sync.{mode}.pred %x, {src}, {mtxt};");
                let p = warp_preds(seed(&body));
                let id = format!("vote.sync.{mode}.pred#{mname}{}", if neg { "!a" } else { "" });
                v.push(warp_case(id, &body, mask, vec![(Ty::Pred, p)], &[(Ty::Pred, 0)], move |l, m| {
                    let b = ballot(&l[0], m);
                    let b = if neg { !b & m } else { b };
                    let r = match mode {
                        "all" => b == m,
                        "any" => b != 0,
                        _ => b == m || b == 0,
                    };
                    vec![vec![r as u64]; 32]
                }));
            }
        }
        // redux
        for (op, ty) in [("add", Ty::U32), ("min", Ty::U32), ("max", Ty::S32), ("min", Ty::S32), ("and", Ty::B32), ("or", Ty::B32), ("xor", Ty::B32)]
        {
            let body = format!("redux.sync.{op}.{} %x, %a, {mtxt};", ty.name());
            let a = rand_vals(N, seed(&body), if op == "and" || op == "or" { 0 } else { 1 << 31 });
            let a = if ty == Ty::S32 { a.iter().map(|x| x.wrapping_mul(3) & 0xffff_ffff).collect() } else { a };
            let id = format!("redux.sync.{op}.{}#{mname}", ty.name());
            v.push(warp_case(id, &body, mask, vec![(ty, a)], &[(ty, 0xdead)], move |l, m| {
                let vals: Vec<u64> = (0..32).filter(|&i| m >> i & 1 == 1).map(|i| l[0][i]).collect();
                let r = match op {
                    "add" => vals.iter().fold(0u64, |s, x| s.wrapping_add(*x)) & 0xffff_ffff,
                    "min" => wrap(vals.iter().map(|&x| val(x, ty)).min().unwrap(), 32),
                    "max" => wrap(vals.iter().map(|&x| val(x, ty)).max().unwrap(), 32),
                    "and" => vals.iter().fold(0xffff_ffff, |s, x| s & x),
                    "or" => vals.iter().fold(0, |s, x| s | x),
                    _ => vals.iter().fold(0, |s, x| s ^ x),
                };
                vec![vec![r]; 32]
            }));
        }
        // match
        for (ty, r) in [(Ty::B32, 4u64), (Ty::B64, 3)] {
            let body = format!("match.any.sync.{} %x, %a, {mtxt};", ty.name());
            let mut a = rand_vals(N, seed(&body), r);
            for (i, x) in a.iter_mut().enumerate() {
                if ty == Ty::B64 {
                    *x |= ((i as u64 / 64) % 2) << 40; // differ only in the high word
                }
            }
            let id = format!("match.any.sync.{}#{mname}", ty.name());
            v.push(warp_case(id, &body, mask, vec![(ty, a)], &[(Ty::B32, 0xdead)], |l, m| {
                (0..32).map(|i| vec![(0..32).filter(|&j| m >> j & 1 == 1 && l[0][j] == l[0][i]).fold(0u64, |s, j| s | 1 << j)]).collect()
            }));
        }
        let body = format!("match.all.sync.b32 %x|%y, %a, {mtxt};");
        let mut a = rand_vals(N, seed(&body), 2);
        for (i, x) in a.iter_mut().enumerate() {
            if (i / 32) % 2 == 0 {
                *x = 5;
            }
        }
        let id = format!("match.all.sync.b32#{mname}");
        v.push(warp_case(id, &body, mask, vec![(Ty::B32, a)], &[(Ty::B32, 0xdead), (Ty::Pred, 0)], |l, m| {
            let first = (0..32).find(|&i| m >> i & 1 == 1).unwrap();
            let all = (0..32).filter(|&i| m >> i & 1 == 1).all(|i| l[0][i] == l[0][first]);
            vec![vec![if all { m as u64 } else { 0 }, all as u64]; 32]
        }));
    }
    v.extend(shuffles());
    // activemask inside a divergent branch: the lanes that took it.
    let body = "@!%a bra $Lskip;\nactivemask.b32 %x;";
    let p = warp_preds(seed(body));
    v.push(
        warp_case("activemask.b32#divergent".into(), body, u32::MAX, vec![(Ty::Pred, p)], &[(Ty::B32, 0)], |l, _| {
            let b = ballot(&l[0], u32::MAX);
            (0..32).map(|i| vec![if l[0][i] != 0 { b as u64 } else { 0 }]).collect()
        })
        .with_id("activemask.b32#divergent"),
    );
    // the branch target must exist in the full-mask form too
    let last = v.last_mut().unwrap();
    last.body.push_str("$Lskip:\n");
    v
}

/// shfl.sync in every mode, full warps with immediate and per-lane source operands and
/// segments, and `idx` with a partial mask whose sources lie inside the mask.
fn shuffles() -> Vec<Case> {
    let mut v = Vec::new();
    let model = |mode: &'static str| {
        move |lane: u32, b: u32, c: u32| -> (u32, bool) {
            let (bval, cval, seg) = (b & 0x1f, c & 0x1f, (c >> 8) & 0x1f);
            let max_lane = (lane & seg) | (cval & !seg);
            let min_lane = lane & seg;
            let (j, p) = match mode {
                "up" => {
                    let j = lane as i32 - bval as i32;
                    (j, j >= max_lane as i32)
                }
                "down" => {
                    let j = (lane + bval) as i32;
                    (j, j <= max_lane as i32)
                }
                "bfly" => {
                    let j = (lane ^ bval) as i32;
                    (j, j <= max_lane as i32)
                }
                _ => {
                    let j = (min_lane | (bval & !seg)) as i32;
                    (j, j <= max_lane as i32)
                }
            };
            if p {
                (j as u32, true)
            } else {
                (lane, false)
            }
        }
    };
    for mode in ["up", "down", "bfly", "idx"] {
        let m = model(mode);
        for (b, c) in [(1u32, 0x1fu32), (5, 0x1f), (3, 0x181f), (17, 0x1c1f), (0, 0x1f)] {
            let c = if mode == "up" { c & 0xff00 } else { c };
            let body = format!("shfl.sync.{mode}.b32 %x|%y, %a, {b}, {c:#x}, -1;");
            let a = rand_vals(N, seed(&body), 0);
            let id = format!("shfl.sync.{mode}.b32#b{b}c{c:#x}");
            v.push(warp_case(id, &body, u32::MAX, vec![(Ty::B32, a)], &[(Ty::B32, 0), (Ty::Pred, 0)], move |l, _| {
                (0..32u32)
                    .map(|lane| {
                        let (j, p) = m(lane, b, c);
                        vec![l[0][j as usize], p as u64]
                    })
                    .collect()
            }));
        }
        // per-lane b and c from registers
        let body = format!("shfl.sync.{mode}.b32 %x|%y, %a, %b, %c, -1;");
        let a = rand_vals(N, seed(&body), 0);
        let b = rand_vals(N, seed(&body) + 1, 40);
        let c: Vec<u64> = rand_vals(N, seed(&body) + 2, 4).iter().map(|&k| [0x1f, 0x181f, 0x1e0f, 0x0][k as usize]).collect();
        let id = format!("shfl.sync.{mode}.b32#regs");
        v.push(warp_case(id, &body, u32::MAX, vec![(Ty::B32, a), (Ty::U32, b), (Ty::U32, c)], &[(Ty::B32, 0), (Ty::Pred, 0)], move |l, _| {
            (0..32u32)
                .map(|lane| {
                    let (j, p) = m(lane, l[1][lane as usize] as u32, l[2][lane as usize] as u32);
                    vec![l[0][j as usize], p as u64]
                })
                .collect()
        }));
    }
    // partial mask, idx sources inside the mask (lanes 16..31)
    let body = "shfl.sync.idx.b32 %x, %a, %b, 0x1f, 0xffff0000;";
    let a = rand_vals(N, seed(body), 0);
    let b: Vec<u64> = rand_vals(N, seed(body) + 1, 16).iter().map(|x| x + 16).collect();
    v.push(warp_case("shfl.sync.idx.b32#partial".into(), body, 0xffff_0000, vec![(Ty::B32, a), (Ty::U32, b)], &[(Ty::B32, 0)], |l, _| {
        (0..32).map(|lane| vec![l[0][(l[1][lane] & 31) as usize]]).collect()
    }));
    v
}
