//! Compile-time guesses of how a strip's lanes spread their addresses.
//!
//! A bitonic sort's compare-exchange at stride 1, 2 or 4 reads `s[2t - (t & (stride -
//! 1))]`: within a strip's chunk of threads the addresses are no run, but their offsets from
//! lane 0's are the same constants for every chunk. Where an access's offsets come out
//! the same for several sample chunks (lanes' thread indices at different places in the
//! block, different block indices and parameters), the strip emitter guesses that
//! pattern: at run time it checks the lanes' addresses against it and, if they match,
//! loads the window the lanes cover and permutes it with a constant shuffle instead of
//! gathering (`vector.rs`). A wrong guess only costs the check: the gather is the
//! fallback.
//!
//! The evaluation is PTX integer arithmetic on concrete values, lane by lane; anything
//! it does not model (loads, floats, registers restored from the save area) is unknown,
//! and so is every address computed from it.

use crate::lower::module::{ModuleCx, Symbol};
use crate::lower::types::{bits, Mods};
use crate::ptx::ast::*;
use std::collections::HashMap;

/// (first lane's thread index, block index, threads per block, parameter seed).
const SAMPLES: &[(u64, u64, u64, u64)] = &[(0, 0, 512, 1), (16, 3, 512, 2), (64, 1, 1024, 3), (240, 5, 256, 4), (496, 2, 512, 5)];

/// Per-lane values of one register (`None`: unknown).
type Lanes = Vec<Option<u64>>;

/// What the evaluation reads besides registers: the module's symbols and the kernel's
/// parameter offsets.
pub(super) struct Known<'a> {
    pub cx: &'a ModuleCx<'a>,
    pub params: &'a HashMap<&'a str, u64>,
}

/// The sample chunks' evaluations of one strip, stepped along with its emission.
pub(super) struct Guesser {
    samples: Vec<Eval>,
}

impl Guesser {
    /// Evaluations of `lanes` consecutive threads of a row for every sample.
    pub fn new(lanes: u32) -> Guesser {
        let samples =
            SAMPLES.iter().map(|&(x0, ctaid, ntid, seed)| Eval { regs: HashMap::new(), lanes: lanes as usize, x0, ctaid, ntid, seed }).collect();
        Guesser { samples }
    }

    /// Evaluates `i` in every sample; for a load or store whose lanes' byte offsets from
    /// lane 0's address all samples agree on, those offsets.
    pub fn step(&mut self, k: &Known, i: &Instruction) -> Option<Vec<i64>> {
        // Every sample steps, whatever the first one found.
        let seen: Vec<Option<Option<Vec<i64>>>> = self.samples.iter_mut().map(|e| e.step(k, i)).collect();
        let first = seen.first()?.clone()??;
        seen.iter().all(|o| o.as_ref().and_then(|x| x.as_ref()) == Some(&first)).then_some(first)
    }
}

struct Eval {
    regs: HashMap<String, Lanes>,
    lanes: usize,
    x0: u64,
    ctaid: u64,
    ntid: u64,
    seed: u64,
}

impl Eval {
    fn mask(ty: ScalarType) -> u64 {
        match bits(ty) {
            64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    fn uniform(&self, v: Option<u64>) -> Lanes {
        vec![v; self.lanes]
    }

    /// Operand `op` as per-lane values of type `ty` (masked to its width).
    fn value(&self, k: &Known, op: &Operand, ty: ScalarType) -> Lanes {
        let m = Self::mask(ty);
        let v = match op {
            Operand::Imm(Immediate::Int(v)) => self.uniform(Some(*v as u64)),
            Operand::Ident { name, component } => match (name.as_str(), component) {
                ("%tid", Some('x')) => (0..self.lanes as u64).map(|l| Some(self.x0 + l)).collect(),
                ("%tid", Some(_)) | ("%ctaid", Some('y' | 'z')) => self.uniform(Some(0)),
                ("%ntid", Some('x')) => self.uniform(Some(self.ntid)),
                ("%ntid" | "%nctaid", Some(_)) if component != &Some('x') => self.uniform(Some(1)),
                ("%ctaid", Some('x')) => self.uniform(Some(self.ctaid)),
                ("%nctaid", Some('x')) => self.uniform(Some(7)),
                ("%laneid", None) => (0..self.lanes as u64).map(|l| Some((self.x0 + l) & 31)).collect(),
                (n, None) => match self.regs.get(n) {
                    Some(v) => v.clone(),
                    None => match k.cx.symbols.get(n) {
                        Some(Symbol::Shared { offset }) => self.uniform(Some(*offset)),
                        _ => self.uniform(None),
                    },
                },
                _ => self.uniform(None),
            },
            Operand::SymbolOffset { symbol, offset } => match k.cx.symbols.get(symbol) {
                Some(Symbol::Shared { offset: base }) => self.uniform(Some(base.wrapping_add(*offset as u64))),
                _ => self.uniform(None),
            },
            _ => self.uniform(None),
        };
        v.into_iter().map(|x| x.map(|x| x & m)).collect()
    }

    fn set(&mut self, op: &Operand, v: Lanes, ty: ScalarType) {
        let m = Self::mask(ty);
        if let Operand::Ident { name, component: None } = op {
            self.regs.insert(name.clone(), v.into_iter().map(|x| x.map(|x| x & m)).collect());
        }
    }

    fn forget(&mut self, i: &Instruction) {
        let mut defs = Vec::new();
        if let Some(op) = i.operands.first() {
            super::super::names_in(op, &mut defs);
        }
        for d in defs {
            self.regs.remove(&d);
        }
    }

    /// Evaluate `i`; for a load or store, its lanes' offsets from lane 0's address
    /// (`Some(None)`: unknown).
    fn step(&mut self, k: &Known, i: &Instruction) -> Option<Option<Vec<i64>>> {
        let m = Mods::new(&i.modifiers);
        let Some(&ty) = m.types.first() else {
            self.forget(i);
            return None;
        };
        let ops = &i.operands;
        let int = matches!(ty, ScalarType::B(_) | ScalarType::U(_) | ScalarType::S(_));
        let sext = |v: u64, t: ScalarType| -> u64 {
            match bits(t) {
                64 => v,
                n if matches!(t, ScalarType::S(_)) && v >> (n - 1) & 1 == 1 => v | !Self::mask(t),
                _ => v,
            }
        };
        let zip2 = |a: &Lanes, b: &Lanes, f: &dyn Fn(u64, u64) -> u64| -> Lanes { a.iter().zip(b).map(|(x, y)| Some(f((*x)?, (*y)?))).collect() };
        match i.opcode.as_str() {
            "ld" | "st" => {
                let addr = if i.opcode == "ld" { ops.get(1) } else { ops.first() };
                if i.opcode == "ld" {
                    if m.space() == Some(StateSpace::Param) {
                        if let Some(Operand::Address { base: AddressBase::Ident(p), offset }) = addr {
                            if let Some(off) = k.params.get(p.as_str()) {
                                let v = Some((self.seed << 24) + (off + *offset as u64) * 4096);
                                let u = self.uniform(v);
                                self.set(&ops[0], u, ty);
                                return None;
                            }
                        }
                    }
                    self.forget(i);
                }
                let Some(Operand::Address { base: AddressBase::Ident(r), offset }) = addr else { return Some(None) };
                let base = self.value(k, &Operand::Ident { name: r.clone(), component: None }, ScalarType::U(64));
                let a: Option<Vec<u64>> = base.iter().map(|x| x.map(|x| x.wrapping_add(*offset as u64))).collect();
                Some(a.map(|a| a.iter().map(|&x| x.wrapping_sub(a[0]) as i64).collect()))
            }
            "mov" | "cvta" if ops.len() == 2 => {
                let v = self.value(k, &ops[1], ty);
                self.set(&ops[0], v, ty);
                None
            }
            "add" | "sub" | "and" | "or" | "xor" | "min" | "max" | "shl" | "shr" if int && ops.len() == 3 => {
                let a = self.value(k, &ops[1], ty);
                let b = self.value(k, &ops[2], if matches!(i.opcode.as_str(), "shl" | "shr") { ScalarType::U(32) } else { ty });
                let n = u64::from(bits(ty));
                let signed = matches!(ty, ScalarType::S(_));
                let f: Box<dyn Fn(u64, u64) -> u64> = match i.opcode.as_str() {
                    "add" => Box::new(|x, y| x.wrapping_add(y)),
                    "sub" => Box::new(|x, y| x.wrapping_sub(y)),
                    "and" => Box::new(|x, y| x & y),
                    "or" => Box::new(|x, y| x | y),
                    "xor" => Box::new(|x, y| x ^ y),
                    "shl" => Box::new(move |x, y| if y >= n { 0 } else { x << y }),
                    "shr" if signed => Box::new(move |x, y| (sext(x, ty) as i64 >> y.min(n - 1)) as u64),
                    "shr" => Box::new(move |x, y| if y >= n { 0 } else { x >> y }),
                    "min" if signed => Box::new(move |x, y| if (sext(x, ty) as i64) < (sext(y, ty) as i64) { x } else { y }),
                    "max" if signed => Box::new(move |x, y| if (sext(x, ty) as i64) > (sext(y, ty) as i64) { x } else { y }),
                    "min" => Box::new(|x: u64, y: u64| x.min(y)),
                    _ => Box::new(|x: u64, y: u64| x.max(y)),
                };
                let v = zip2(&a, &b, &*f);
                self.set(&ops[0], v, ty);
                None
            }
            "mul" | "mad" if int && (m.has(".lo") || m.has(".wide")) => {
                let wide = m.has(".wide");
                let (a, b) = (self.value(k, &ops[1], ty), self.value(k, &ops[2], ty));
                let rty = if wide {
                    if matches!(ty, ScalarType::S(_)) {
                        ScalarType::S(64)
                    } else {
                        ScalarType::U(64)
                    }
                } else {
                    ty
                };
                let ext = |x: u64| if wide { sext(x, ty) } else { x };
                let mut v = zip2(&a, &b, &|x, y| ext(x).wrapping_mul(ext(y)));
                if i.opcode == "mad" {
                    let c = self.value(k, &ops[3], rty);
                    v = zip2(&v, &c, &|x, y| x.wrapping_add(y));
                }
                self.set(&ops[0], v, rty);
                None
            }
            "cvt" if m.types.len() == 2 && int && !matches!(m.types[1], ScalarType::F32 | ScalarType::F64 | ScalarType::F16 | ScalarType::BF16) => {
                let st = m.types[1];
                let a = self.value(k, &ops[1], st);
                let v = a.into_iter().map(|x| x.map(|x| sext(x, st))).collect();
                self.set(&ops[0], v, ty);
                None
            }
            _ => {
                self.forget(i);
                None
            }
        }
    }
}
