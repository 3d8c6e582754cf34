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
/// The column of a yield added in a function with warp collectives: such a wait is on
/// threads of its own block or earlier blocks (a tile barrier, a look-back), so it does not
/// make the kernel's blocks run side by side (`KernelMeta::spin_waits`).
pub(crate) const YIELD_COL_WARP: u32 = 4094;

/// `m` with the yields added, or `None` when no loop of the functions looked at (`only`,
/// else all) waits.
pub(crate) fn add_yields(m: &Module, only: Option<&HashSet<String>>) -> Option<Module> {
    let looked_at = |f: &Function| f.body.is_some() && only.is_none_or(|o| o.contains(&f.name));
    let (mut plain, mut warp) = (HashSet::new(), HashSet::new());
    for d in &m.directives {
        if let Directive::Function(f) = d {
            if looked_at(f) {
                let collective = super::module::body_has(f.body.as_deref().unwrap_or(&[]), &super::warp::is_collective);
                if collective { &mut warp } else { &mut plain }.insert(f.name.clone());
            }
        }
    }
    let first = super::insert::around_chosen(m, Some(&plain), waiting_loops, |b| yield_at(b, YIELD_COL));
    let second =
        super::insert::around_chosen(first.as_ref().unwrap_or(m), Some(&warp), waiting_loops_before_collectives, |b| yield_at(b, YIELD_COL_WARP));
    second.or(first)
}

/// A yield (`nanosleep 0`) before `branch`, its span in column `col`.
fn yield_at(branch: &Instruction, col: u32) -> (Vec<Instruction>, Vec<Instruction>) {
    (vec![added(branch.span.line, col, "nanosleep", &[".u32"], vec![Operand::Imm(Immediate::Int(0))])], Vec::new())
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

/// The spans of the branches back of the loops of `body` that wait: loops whose body
/// loads as [`waits_on_memory`] says.
fn waiting_loops(body: &[Statement]) -> HashSet<Span> {
    loops_that(body, false)
}

/// In functions with warp collectives, only loops that a loaded value lets out: a branch
/// of the loop depends on what a [`waits_on_memory`] load read. (A loop summing `volatile`
/// shared memory is no wait, and a yield would cost the kernel its barrier regions.)
fn waiting_loops_before_collectives(body: &[Statement]) -> HashSet<Span> {
    loops_that(body, true)
}

fn loops_that(body: &[Statement], exit_on_loaded: bool) -> HashSet<Span> {
    let (items, labels) = flatten(body);
    let instrs = || items.iter().filter_map(Item::instr);
    if !instrs().any(waits_on_memory) {
        return HashSet::new();
    }
    let mut out = HashSet::new();
    for (k, i) in items.iter().enumerate() {
        let Some(i) = i.instr().filter(|i| i.opcode == "bra") else { continue };
        if let Some(start) = branch_target(i, &labels).filter(|&t| t < k) {
            let body: Vec<&Instruction> = items[start..=k].iter().filter_map(Item::instr).collect();
            if body.iter().any(|i| waits_on_memory(i)) && (!exit_on_loaded || branches_on_loaded(&body)) {
                out.insert(i.span);
            }
        }
    }
    out
}

/// Whether a guarded branch of `body` (a loop's instructions) tests a value derived from
/// what a [`waits_on_memory`] load of the loop read.
fn branches_on_loaded(body: &[&Instruction]) -> bool {
    let mut tainted: HashSet<String> = HashSet::new();
    // To a fixpoint: loop-carried values feed earlier instructions.
    loop {
        let before = tainted.len();
        for i in body {
            let mut srcs = Vec::new();
            for o in i.operands.iter().skip(1) {
                super::regions::names_in(o, &mut srcs);
            }
            if waits_on_memory(i) || srcs.iter().any(|s| tainted.contains(s)) {
                let mut dsts = Vec::new();
                if let Some(d) = i.operands.first() {
                    super::regions::names_in(d, &mut dsts);
                }
                tainted.extend(dsts);
            }
        }
        if tainted.len() == before {
            break;
        }
    }
    body.iter().any(|i| i.opcode == "bra" && i.guard.as_ref().is_some_and(|g| tainted.contains(&g.predicate)))
}
