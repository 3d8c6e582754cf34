//! Rematerialization: registers live across a barrier that are pure functions of the
//! thread's and block's coordinates, the kernel's parameters and constants are recomputed
//! where a region resumes instead of going through the save area.
//!
//! Why: nvcc computes shared-memory addresses such as `&As[ty][0]` once, before a loop
//! with barriers in it. Saved and reloaded per thread, they are opaque to LLVM, so every
//! shared-memory access in the next region becomes a gather; recomputed from `%tid`, they
//! stay affine in the thread index and the region loop vectorizes with plain vector loads.
//!
//! A register qualifies when the kernel writes it exactly once, unguarded, with an
//! instruction of [`is_pure_opcode`] whose sources are immediates, special registers of
//! [`is_launch_constant`], symbols (addresses of variables and kernel parameters) and
//! other qualifying registers. Such a register holds the same value whenever it has been
//! written, so recomputing it at any later point gives the value the thread saved (or, on
//! a path where it was never written, a value where PTX leaves it undefined).

use super::{names_in, uses_defs, Item};
use crate::ptx::ast::*;
use std::collections::HashMap;

/// Instructions recomputed per register at most (longer chains are saved instead).
const MAX_CHAIN: usize = 24;

/// Special registers that keep their value for a thread's whole life (PTX ISA 10).
fn is_launch_constant(name: &str) -> bool {
    matches!(
        name,
        "%tid"
            | "%ntid"
            | "%ctaid"
            | "%nctaid"
            | "%laneid"
            | "%warpid"
            | "%nwarpid"
            | "%nsmid"
            | "%dynamic_smem_size"
            | "%total_smem_size"
            | "%lanemask_eq"
            | "%lanemask_lt"
            | "%lanemask_le"
            | "%lanemask_gt"
            | "%lanemask_ge"
    )
}

/// Instructions without side effects whose result depends only on their operands: integer
/// and bit arithmetic, comparisons, selects, conversions and moves. Division is left out
/// (recomputing it on a path that never executed it must not fault), as are `.cc` forms
/// (the carry flag is state).
fn is_pure_opcode(i: &Instruction) -> bool {
    let pure = matches!(
        i.opcode.as_str(),
        "mov"
            | "add"
            | "sub"
            | "mul"
            | "mad"
            | "mul24"
            | "mad24"
            | "shl"
            | "shr"
            | "and"
            | "or"
            | "xor"
            | "not"
            | "cnot"
            | "neg"
            | "abs"
            | "min"
            | "max"
            | "cvt"
            | "cvta"
            | "setp"
            | "selp"
            | "bfe"
            | "bfi"
            | "prmt"
    );
    pure && !i.modifiers.iter().any(|m| m == ".cc")
}

/// Whether `i` reads a kernel parameter: `ld.param` from one of `params` (read-only in
/// kernels, PTX ISA 5.1.6.1).
fn is_param_load(i: &Instruction, params: &[&str]) -> bool {
    i.opcode == "ld"
        && i.modifiers.iter().any(|m| m == ".param")
        && !i.modifiers.iter().any(|m| m.starts_with(".v"))
        && matches!(i.operands.get(1), Some(Operand::Address { base: AddressBase::Ident(b), .. }) if params.contains(&b.as_str()))
}

/// The registers that can be rematerialized, each with the items that recompute it, in
/// execution order (its own definition last).
pub(super) struct Rematerializable {
    chains: HashMap<String, Vec<usize>>,
}

impl Rematerializable {
    /// Analyze the flattened kernel body `items` (registers `regs`, parameters `params`).
    pub(super) fn analyze(items: &[Item], regs: &HashMap<String, ScalarType>, params: &[&str]) -> Rematerializable {
        // Every item writing each register, guarded writes included.
        let mut writers: HashMap<&str, Vec<usize>> = HashMap::new();
        for (k, it) in items.iter().enumerate() {
            if let Item::Instr(i) = it {
                let unguarded = Instruction { guard: None, ..(*i).clone() };
                let (_, defs) = uses_defs(&unguarded, regs);
                for d in defs {
                    let key = regs.get_key_value(d.as_str()).map(|(n, _)| n.as_str()).expect("defs are registers");
                    writers.entry(key).or_default().push(k);
                }
            }
        }
        let mut a = Analysis { items, regs, params, writers, memo: HashMap::new(), path: Vec::new() };
        // In name order, so the result (and the IR built from it) is deterministic.
        let mut names: Vec<&String> = regs.keys().collect();
        names.sort();
        for n in names {
            a.chain_of(n, 0);
        }
        Rematerializable { chains: a.memo.into_iter().filter_map(|(n, c)| Some((n, c?))).collect() }
    }

    /// Whether register `name` is recomputed rather than saved.
    pub(super) fn contains(&self, name: &str) -> bool {
        self.chains.contains_key(name)
    }

    /// The items that recompute all of `names` (each at most once), in an order where
    /// every register is computed before it is read.
    pub(super) fn items_for<'a>(&self, names: impl IntoIterator<Item = &'a String>) -> Vec<usize> {
        let mut out: Vec<usize> = Vec::new();
        for n in names {
            for &k in &self.chains[n] {
                if !out.contains(&k) {
                    out.push(k);
                }
            }
        }
        out
    }
}

struct Analysis<'i, 'a> {
    items: &'i [Item<'a>],
    regs: &'i HashMap<String, ScalarType>,
    params: &'i [&'i str],
    writers: HashMap<&'i str, Vec<usize>>,
    /// The chain of each register classified so far (`None`: saved, not recomputed).
    memo: HashMap<String, Option<Vec<usize>>>,
    /// The registers being classified (a depth-first path; meeting one again is a cycle).
    path: Vec<String>,
}

impl Analysis<'_, '_> {
    /// The chain that recomputes register `name`, or `None`. `depth` bounds the recursion
    /// (a chain deeper than [`MAX_CHAIN`] is too long anyway).
    fn chain_of(&mut self, name: &str, depth: usize) -> Option<Vec<usize>> {
        if let Some(c) = self.memo.get(name) {
            return c.clone();
        }
        if depth > MAX_CHAIN || self.path.iter().any(|p| p == name) {
            return None;
        }
        self.path.push(name.to_string());
        let chain = self.compute(name, depth);
        self.path.pop();
        self.memo.insert(name.to_string(), chain.clone());
        chain
    }

    fn compute(&mut self, name: &str, depth: usize) -> Option<Vec<usize>> {
        let k = match self.writers.get(name).map(Vec::as_slice) {
            Some(&[k]) => k,
            _ => return None,
        };
        let Item::Instr(i) = &self.items[k] else { return None };
        if i.guard.is_some() || !matches!(i.operands.first(), Some(Operand::Ident { component: None, .. })) {
            return None;
        }
        let mut chain = Vec::new();
        if !is_param_load(i, self.params) {
            if !is_pure_opcode(i) {
                return None;
            }
            let mut sources = Vec::new();
            for op in &i.operands[1..] {
                if matches!(op, Operand::List(_) | Operand::Address { .. } | Operand::Sink) {
                    return None;
                }
                names_in(op, &mut sources);
            }
            for s in &sources {
                if self.regs.contains_key(s.as_str()) {
                    for c in self.chain_of(s, depth + 1)? {
                        if !chain.contains(&c) {
                            chain.push(c);
                        }
                    }
                } else if s.starts_with('%') && !is_launch_constant(s) {
                    // `%clock`, `%envreg3`... or an undeclared register.
                    return None;
                }
            }
        }
        chain.push(k);
        (chain.len() <= MAX_CHAIN).then_some(chain)
    }
}
