//! Warp-synchronous code: lanes of a warp that exchange values through memory with no
//! barrier, relying on the lockstep execution of pre-Volta hardware (CUB's older warp
//! scans, the CUDA SDK's radix sort, many papers' reductions). Such code marks the shared
//! data `volatile`, so that each access really goes to memory.
//!
//! The rule: a store is a point where lanes of a warp may communicate when it is
//! - an `st.volatile` to shared or generic memory, or
//! - in a function that also synchronizes the block (`bar.sync`), an `st.shared` from which
//!   an `ld.shared` of another address can be reached without passing a barrier (a lane
//!   reading what other lanes of its warp just wrote, as in "the first 17 threads each
//!   store a partial sum, then thread 0 adds them up" with no `__syncthreads` between).
//!   Loads of the store's own address operand are the lane reading its own value and do
//!   not count.
//!
//! A third point is a *leader branch*: a branch on a predicate that compares a thread or
//! lane index (`%tid`, `%laneid`, or such an index masked with `and`) with a constant for
//! equality, as `if (threadIdx.x == 0)` compiles, where a store comes before it and a load
//! (not of parameter or constant space) can follow it. The lanes that go on read what the
//! whole warp stored first (ChaCha20 in HeCBench: 256 threads convert a key, thread 0
//! encrypts with it, with no `__syncthreads`), which lockstep execution gives. Such a
//! branch gets a meeting just before it.
//!
//! Such a store gets a warp meeting (`bar.warp.sync -1`) just before it and just after it,
//! so that every lane of the warp does the reads before a store before any lane stores,
//! and every lane stores before any lane goes on to the next reads: the order a warp
//! executing in lockstep gives. A meeting is not a barrier: lanes that do not come
//! (another branch, exited) do not hold the others up. On the CPU device the meetings
//! split barrier regions or suspend fibers; on AMD GPUs they are wave barriers.
//!
//! The meetings are unguarded: every lane that reaches the store's place meets, also those
//! whose store is predicated off.

use super::insert::{added, branch_target, flatten, Item};
use crate::ptx::ast::*;
use std::collections::{HashMap, HashSet};

/// The span column of the meeting before a volatile store.
const BEFORE_COL: u32 = 4094;

/// Whether a warp collective's call-site constant (`FnLowerer::site`: line * 4096 +
/// column) is one of the meetings added here. A GPU has no such meeting, so the runtime
/// must not let one stand in for a program's own collective (sm_70+ lets different
/// `bar.warp.sync`/`shfl.sync` instructions of one warp meet): a lane whose branch holds a
/// meeting comes to the program's collective after it.
pub fn is_added_meeting(site: u32) -> bool {
    site % 4096 >= BEFORE_COL
}
/// The span column of the meeting after it.
const AFTER_COL: u32 = 4095;

/// `m` with the meetings added, or `None` when no store of the functions looked at
/// (`only`, else all) gets one.
pub(crate) fn add_meetings(m: &Module, only: Option<&HashSet<String>>) -> Option<Module> {
    super::insert::around_chosen(m, only, communication_points, |i| {
        let meeting = |col| added(i.span.line, col, "bar", &[".warp", ".sync"], vec![Operand::Imm(Immediate::Int(-1))]);
        if i.opcode == "bra" {
            return (vec![meeting(BEFORE_COL)], Vec::new());
        }
        (vec![meeting(BEFORE_COL)], vec![meeting(AFTER_COL)])
    })
}

/// The spans of the stores and leader branches of `body` that get meetings.
fn communication_points(body: &[Statement]) -> HashSet<Span> {
    let (items, labels) = flatten(body);
    // Built at the first search that needs it, once for both kinds of point.
    let graph = std::cell::OnceCell::new();
    let graph = || graph.get_or_init(|| Graph::new(&items, &labels));
    let mut out = communicating_stores(&items, graph);
    out.extend(leader_branches(&items, graph));
    out
}

/// The leader branches of `body` (see the module doc).
fn leader_branches<'g>(items: &[Item], graph: impl Fn() -> &'g Graph) -> HashSet<Span> {
    let instrs: Vec<&Instruction> = items.iter().filter_map(Item::instr).collect();
    // Registers holding a thread or lane index, and predicates comparing one with a constant.
    let mut index_regs: HashSet<&str> = HashSet::new();
    let mut leader_preds: HashSet<&str> = HashSet::new();
    for i in &instrs {
        let (Some(Operand::Ident { name: dst, .. }), Some(src)) = (i.operands.first(), i.operands.get(1)) else { continue };
        let is_index = |o: &Operand| match o {
            Operand::Ident { name, .. } => matches!(name.as_str(), "%tid" | "%laneid") || index_regs.contains(name.as_str()),
            _ => false,
        };
        match i.opcode.as_str() {
            "mov" | "cvt" | "and" if is_index(src) => {
                index_regs.insert(dst);
            }
            "setp" if i.modifiers.iter().any(|m| m == ".eq" || m == ".ne") => {
                let (a, b) = (i.operands.get(1), i.operands.get(2));
                let constant = |o: Option<&Operand>| matches!(o, Some(Operand::Imm(_)));
                if (a.is_some_and(is_index) && constant(b)) || (b.is_some_and(is_index) && constant(a)) {
                    leader_preds.insert(dst);
                }
            }
            _ => {}
        }
    }
    if leader_preds.is_empty() {
        return HashSet::new();
    }
    let mut out = HashSet::new();
    for (k, item) in items.iter().enumerate() {
        let Item::Instr(i) = item else { continue };
        let leader = i.opcode == "bra" && i.guard.as_ref().is_some_and(|g| leader_preds.contains(g.predicate.as_str()));
        if leader && graph().reached_from_store(items, k) && graph().reaches_load(items, k) {
            out.insert(i.span);
        }
    }
    out
}

/// The spans of the stores of `body` that get meetings.
fn communicating_stores<'g>(items: &[Item], graph: impl Fn() -> &'g Graph) -> HashSet<Span> {
    let instrs = || items.iter().filter_map(Item::instr);
    let mut out: HashSet<Span> = instrs().filter(|i| is_volatile_store(i)).map(|i| i.span).collect();
    if instrs().any(super::module::is_barrier) {
        let graph = graph();
        for (k, item) in items.iter().enumerate() {
            if let Item::Instr(i) = item {
                if is_shared_store(i) && !out.contains(&i.span) && graph.reaches_other_shared_load(items, k, i) {
                    out.insert(i.span);
                }
            }
        }
    }
    out
}

fn space_is_shared(i: &Instruction) -> bool {
    i.modifiers.iter().any(|m| m == ".shared" || m.starts_with(".shared::"))
}

fn is_shared_store(i: &Instruction) -> bool {
    i.opcode == "st" && space_is_shared(i)
}

fn is_shared_load(i: &Instruction) -> bool {
    matches!(i.opcode.as_str(), "ld" | "ldu") && space_is_shared(i)
}

/// A block barrier or an explicit warp meeting: the code orders its memory accesses there
/// itself.
fn is_barrier_or_meeting(i: &Instruction) -> bool {
    i.opcode == "bar" || i.opcode == "barrier"
}

/// The address operand of a load or store.
fn address(i: &Instruction) -> Option<&Operand> {
    i.operands.iter().find(|o| matches!(o, Operand::Address { .. }))
}

/// Searches stop after this many items: such a store keeps no meetings.
const SEARCH_LIMIT: usize = 20_000;

/// The body's control flow, item by item.
struct Graph {
    succ: Vec<Vec<usize>>,
    /// The predecessors of each item, made at the first backward search.
    pred: std::cell::OnceCell<Vec<Vec<usize>>>,
}

/// Which way a search walks the graph.
#[derive(Clone, Copy)]
enum Walk {
    Forward,
    Backward,
}

impl Graph {
    fn new(items: &[Item], labels: &HashMap<&str, usize>) -> Graph {
        let all_labels: Vec<usize> = labels.values().copied().collect();
        let next = |k: usize| if k + 1 < items.len() { vec![k + 1] } else { Vec::new() };
        let succ = items
            .iter()
            .enumerate()
            .map(|(k, item)| {
                let Item::Instr(i) = item else { return next(k) };
                let mut s = match i.opcode.as_str() {
                    "bra" => branch_target(i, labels).map_or_else(|| all_labels.clone(), |t| vec![t]),
                    "brx" => all_labels.clone(),
                    "ret" | "exit" | "trap" => Vec::new(),
                    _ => return next(k),
                };
                if i.guard.is_some() {
                    s.extend(next(k));
                }
                s
            })
            .collect();
        Graph { succ, pred: std::cell::OnceCell::new() }
    }

    /// Whether a load of memory lanes share can follow item `k` with no barrier between.
    fn reaches_load(&self, items: &[Item], k: usize) -> bool {
        self.finds(items, k, Walk::Forward, is_shared_or_global_load)
    }

    /// Whether a store can come before item `k` with no barrier between.
    fn reached_from_store(&self, items: &[Item], k: usize) -> bool {
        self.finds(items, k, Walk::Backward, |i| i.opcode == "st")
    }

    /// Whether an instruction `wanted` accepts lies on a path from (or, backward, to) item
    /// `k` that passes no barrier or meeting.
    fn finds(&self, items: &[Item], k: usize, walk: Walk, wanted: impl Fn(&Instruction) -> bool) -> bool {
        let next: &[Vec<usize>] = match walk {
            Walk::Forward => &self.succ,
            Walk::Backward => self.pred.get_or_init(|| {
                let mut pred = vec![Vec::new(); self.succ.len()];
                for (from, tos) in self.succ.iter().enumerate() {
                    for &to in tos {
                        pred[to].push(from);
                    }
                }
                pred
            }),
        };
        let mut seen = vec![false; items.len()];
        let mut work = next[k].clone();
        let mut steps = 0;
        while let Some(n) = work.pop() {
            if std::mem::replace(&mut seen[n], true) {
                continue;
            }
            steps += 1;
            if steps > SEARCH_LIMIT {
                return false;
            }
            if let Item::Instr(j) = &items[n] {
                if is_barrier_or_meeting(j) {
                    continue;
                }
                if wanted(j) {
                    return true;
                }
            }
            work.extend(next[n].iter().copied().filter(|&s| !seen[s]));
        }
        false
    }

    /// Whether a shared load of an address operand other than store `i`'s (at item `k`)
    /// can follow it with no barrier between.
    fn reaches_other_shared_load(&self, items: &[Item], k: usize, i: &Instruction) -> bool {
        let own = address(i);
        self.finds(items, k, Walk::Forward, |j| is_shared_load(j) && address(j) != own)
    }
}

/// Whether `i` loads memory other lanes may have stored (not parameter or constant space).
fn is_shared_or_global_load(i: &Instruction) -> bool {
    matches!(i.opcode.as_str(), "ld" | "ldu") && !i.modifiers.iter().any(|m| matches!(m.as_str(), ".param" | ".const" | ".local"))
}

/// Whether `i` is a volatile store that lanes of a warp may communicate through.
fn is_volatile_store(i: &Instruction) -> bool {
    i.opcode == "st"
        && i.modifiers.iter().any(|m| m == ".volatile")
        && !i.modifiers.iter().any(|m| matches!(m.as_str(), ".global" | ".local" | ".param" | ".const"))
}
