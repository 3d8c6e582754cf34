//! Spin-waits: threads that wait in a loop for another thread to write memory (a flag, a
//! lock, a graph node's state) with no barrier. A GPU runs every resident thread at once,
//! so the thread waited for gets on; the CPU device runs the threads of a block one after
//! another and would loop forever behind the waiting one.
//!
//! The rule: a loop (a branch back to an earlier label) whose body loads memory as a
//! thread can see other threads' later stores (see `waits_on_memory`) gets a spin yield (`nanosleep 0`) just before its branch back.
//! Functions that reach a yield run as fibers, where it lets the block's other threads run
//! (`regions::plan` keeps such kernels out of barrier regions), and their kernels are
//! marked `KernelMeta::spin_waits`, so that the CPU device runs a launch's blocks side by
//! side instead of one after another (the thread waited for may be in a later block).

use super::insert::{added, branch_target, flatten, Item};
use crate::ptx::ast::*;
use std::collections::HashSet;

/// The span column of an added yield (the branch's line): unlike any instruction's.
const YIELD_COL: u32 = 4093;

/// `m` with the yields added, or `None` when no loop of the functions looked at (`only`,
/// else all) waits.
pub(crate) fn add_yields(m: &Module, only: Option<&HashSet<String>>) -> Option<Module> {
    super::insert::around_chosen(m, only, waiting_loops, |branch| {
        (vec![added(branch.span.line, YIELD_COL, "nanosleep", &[".u32"], vec![Operand::Imm(Immediate::Int(0))])], Vec::new())
    })
}

/// Whether `i` loads memory in a way that sees other threads' stores as they happen:
/// volatile, relaxed and acquire loads, loads that bypass the caches (`.cv`), `atom.cas`
/// and `atom.exch`, and atomics that only read (`atomicAdd(p, 0)`, `atomicOr(p, 0)`: an
/// `add`, `or` or `xor` of 0, an `and` of all ones).
fn waits_on_memory(i: &Instruction) -> bool {
    let has = |m: &str| i.modifiers.iter().any(|x| x == m);
    match i.opcode.as_str() {
        "ld" | "ldu" => [".volatile", ".relaxed", ".acquire", ".cv"].iter().any(|m| has(m)),
        "atom" if has(".cas") || has(".exch") => true,
        "atom" => {
            let value = match i.operands.get(2) {
                Some(Operand::Imm(Immediate::Int(v))) => *v,
                _ => return false,
            };
            (value == 0 && (has(".add") || has(".or") || has(".xor"))) || (value == -1 && has(".and"))
        }
        _ => false,
    }
}

/// The spans of the branches back of the loops of `body` that wait.
fn waiting_loops(body: &[Statement]) -> HashSet<Span> {
    let (items, labels) = flatten(body);
    // Functions with warp collectives get yields too: a lane that spins before a
    // collective is waited for by its warp's lanes at the collective (the CPU runtime's
    // warp exchange), so that they still meet.
    let instrs = || items.iter().filter_map(Item::instr);
    if !instrs().any(waits_on_memory) {
        return HashSet::new();
    }
    let mut out = HashSet::new();
    for (k, i) in items.iter().enumerate() {
        let Some(i) = i.instr().filter(|i| i.opcode == "bra") else { continue };
        if let Some(start) = branch_target(i, &labels).filter(|&t| t < k) {
            if items[start..k].iter().filter_map(Item::instr).any(waits_on_memory) {
                out.insert(i.span);
            }
        }
    }
    out
}
