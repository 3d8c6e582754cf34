//! Spin-waits: threads that wait in a loop for another thread to write memory (a flag, a
//! lock, a graph node's state) with no barrier. A GPU runs every resident thread at once,
//! so the thread waited for gets on; the CPU device runs the threads of a block one after
//! another and would loop forever behind the waiting one.
//!
//! The rule: a loop (a branch back to an earlier label) whose body loads memory as a
//! thread can see other threads' later stores (`ld.volatile`, `ld.relaxed`, `ld.acquire`,
//! `atom.cas`, `atom.exch`) gets a spin yield (`nanosleep 0`) just before its branch back,
//! in functions without warp collectives (whose threads suspend at each collective).
//! Functions that reach a yield run as fibers, where it lets the block's other threads run
//! (`regions::plan` keeps such kernels out of barrier regions), and their kernels are
//! marked `KernelMeta::spin_waits`, so that the CPU device runs a launch's blocks side by
//! side instead of one after another (the thread waited for may be in a later block).

use super::insert::added;
use crate::ptx::ast::*;
use std::collections::{HashMap, HashSet};

/// The span column of an added yield (the branch's line): unlike any instruction's.
const YIELD_COL: u32 = 4093;

/// `m` with the yields added, or `None` when no loop of the functions looked at (`only`,
/// else all) waits.
pub(crate) fn add_yields(m: &Module, only: Option<&HashSet<String>>) -> Option<Module> {
    super::insert::around_chosen(m, only, waiting_loops, |branch| {
        (vec![added(branch.span.line, YIELD_COL, "nanosleep", &[".u32"], vec![Operand::Imm(Immediate::Int(0))])], Vec::new())
    })
}

/// Whether `i` loads memory in a way that sees other threads' stores as they happen.
fn waits_on_memory(i: &Instruction) -> bool {
    match i.opcode.as_str() {
        "ld" | "ldu" => i.modifiers.iter().any(|m| matches!(m.as_str(), ".volatile" | ".relaxed" | ".acquire")),
        "atom" => i.modifiers.iter().any(|m| matches!(m.as_str(), ".cas" | ".exch")),
        _ => false,
    }
}

/// The spans of the branches back of the loops of `body` that wait.
fn waiting_loops(body: &[Statement]) -> HashSet<Span> {
    fn flatten<'a>(body: &'a [Statement], out: &mut Vec<(Option<&'a str>, Option<&'a Instruction>)>) {
        for s in body {
            match s {
                Statement::Label { name, .. } => out.push((Some(name), None)),
                Statement::Instr(i) => out.push((None, Some(i))),
                Statement::Block(b) => flatten(b, out),
                _ => {}
            }
        }
    }
    let mut items = Vec::new();
    flatten(body, &mut items);
    // A function with warp collectives is left alone: its threads suspend at each
    // collective anyway, and a yield between two collectives would let the lanes of a warp
    // reach the next one in different rounds, so that it saw only some of them.
    let collective = items.iter().any(|(_, i)| i.is_some_and(super::warp::is_collective));
    if collective || !items.iter().any(|(_, i)| i.is_some_and(waits_on_memory)) {
        return HashSet::new();
    }
    let labels: HashMap<&str, usize> = items.iter().enumerate().filter_map(|(k, (l, _))| l.map(|l| (l, k))).collect();
    let mut out = HashSet::new();
    for (k, (_, i)) in items.iter().enumerate() {
        let Some(i) = i.filter(|i| i.opcode == "bra") else { continue };
        let target = i.operands.iter().find_map(|o| match o {
            Operand::Ident { name, .. } => labels.get(name.as_str()).copied(),
            _ => None,
        });
        if let Some(start) = target.filter(|&t| t < k) {
            if items[start..k].iter().any(|(_, j)| j.is_some_and(waits_on_memory)) {
                out.insert(i.span);
            }
        }
    }
    out
}
