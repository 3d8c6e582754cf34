//! Lockstep loops: grid-stride loops run an iteration at a time for the whole block.
//!
//! On a GPU the threads of a block step through `for (i = tid + base; i < n; i += stride)`
//! together, so each step touches one contiguous stretch of memory. A region runs its
//! threads one after another instead: thread 0 runs all of its iterations, then thread 1,
//! and with a grid-sized stride every thread walks addresses a megabyte apart that share
//! cache sets (`cpu-bench/RESULTS.md`, item 2). Making the loop's head label a split point
//! gives back the GPU's order: every region runs one iteration of every thread.
//!
//! Why this is sound: a split point only pauses a thread. Threads of a block can observe
//! each other's progress only through memory, and without a barrier PTX's memory model
//! (PTX ISA 8, "Memory Consistency Model") gives no ordering between them, so running one
//! thread's iterations interleaved with another's is one of the executions the GPU may
//! produce; every thread still executes its own instructions in program order. Threads
//! with different trip counts leave the loop in different regions; the ones that reach a
//! real barrier wait there until no thread is paused at a lockstep head any more (the
//! runtime runs `StateKind::Free` states before releasing a barrier), so barriers keep
//! their meaning, and a thread that exits simply stops.
//!
//! Strip-mining: a thread does not pause at every arrival at the head. In the region
//! that resumes at the head it goes round up to [`iterations_per_pause`] times before it
//! saves its registers and stops (sound for the same reason: where a thread pauses is
//! unobservable), so registers stay in registers and the runtime steps the block once
//! per K iterations.
//!
//! Which loops: innermost loops without barriers or collectives that access global (or
//! generic) memory and step a register by a value derived from `%ntid`/`%nctaid` (grid-
//! and block-stride loops). Other loops keep running thread by thread: a split costs a
//! save and restore of the live registers per iteration.

use super::{Item, SiteKind};
use crate::lower::func::{FnLowerer, R};
use crate::ptx::ast::*;
use std::collections::{HashMap, HashSet};
use std::fmt::Write;

/// Iterations of a lockstep loop a thread runs per region call before it pauses at the
/// head (strip-mining). Pausing costs a save and restore of the live registers, a state
/// word and, once per block, a step of the runtime; running a few iterations in a row
/// keeps them in registers. Sound for the same reason pausing every iteration is: no
/// thread can observe where another one pauses. The lines a thread's iterations touch
/// (one per grid stride) stay in L1 while the next threads of the block reuse them, as
/// long as they fit the ways of one cache set (grid strides of a power of two map to
/// one set): 16 was slower than 8 on the sum benchmarks, 4 and 2 too
/// (`cpu-bench/RESULTS.md`). `PTX_LOCKSTEP_ITERS=K` sets it for experiments (1 pauses
/// every iteration, as before).
pub fn iterations_per_pause() -> u32 {
    static K: std::sync::OnceLock<u32> = std::sync::OnceLock::new();
    *K.get_or_init(|| std::env::var("PTX_LOCKSTEP_ITERS").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(8).clamp(1, 1024))
}

/// PTX instructions (head to back edge) up to which a lockstep loop's strip loop is left
/// to LLVM's unroller; longer bodies get `llvm.loop.unroll.disable`. Default 12:
/// unrolled, the shared-memory tree sum is ~20% faster (median of 5 alternating pairs at
/// low load, 24.9 -> 20.0 ms; the shuffle sum 31.6 -> 28.4 ms), for ~5% more compile time
/// of `template_heavy` on top of the 5% strip-mining costs (all 160 of its lockstep loops
/// have at most 12 instructions, the sums' have 7). `PTX_LOCKSTEP_UNROLL_MAX=N` sets it
/// (0: never unrolled).
fn max_unrolled_body_instrs() -> usize {
    static N: std::sync::OnceLock<usize> = std::sync::OnceLock::new();
    *N.get_or_init(|| std::env::var("PTX_LOCKSTEP_UNROLL_MAX").ok().and_then(|s| s.trim().parse().ok()).unwrap_or(12))
}

/// Metadata numbers of the strip loops' nodes: this base plus the function body's slot
/// (`ModuleCx::strip_md_slots`: each function with a body owns a range of slots, one per
/// statement and one more, so each of its region bodies `k.rbody.S` takes slot base + S).
/// The numbers do not depend on the text lowered before, so bodies can be lowered apart
/// and on several threads. The host target numbers its nodes from 1,000,001 up by three
/// per byte of IR; this range stays apart from it for modules below 300 MB of IR text,
/// and within LLVM's 32-bit numbers for modules below 2 billion statements.
const STRIP_LOOP_MD_BASE: u64 = 2_000_000_000;

/// The metadata number of the strip loop of the function body lowered in `slot`.
pub(crate) fn strip_loop_md_number(slot: u64) -> u64 {
    STRIP_LOOP_MD_BASE + slot
}

/// The top-level definition of strip-loop node `id`: not unrolled.
pub(crate) fn strip_loop_md_definition(id: u64) -> String {
    format!("!{id} = distinct !{{!{id}, !{{!\"llvm.loop.unroll.disable\"}}}}\n")
}

impl FnLowerer<'_> {
    /// The number of this function's strip-loop metadata node (defined after the
    /// function once used).
    fn strip_loop_md(&mut self) -> u64 {
        *self.strip_loop_md.get_or_insert(self.strip_loop_md_number)
    }

    /// The head label of lockstep loop `site` in region mode. In the region that resumes
    /// at this head (the loop's own body), a thread goes round again until it has run
    /// [`iterations_per_pause`] iterations in this call, then saves and stops; every
    /// other region stops here at once.
    pub(crate) fn lockstep_head(&mut self, site: usize) -> R<()> {
        let (plan, state) = self.region.clone().expect("region mode");
        let k = iterations_per_pause();
        if state != site + 1 || k <= 1 {
            return self.region_stop(site);
        }
        let count = self.alloca("i32", 4);
        let _ = writeln!(self.prelude, "  store i32 0, ptr {count}");
        let (c, c1, go) = (self.t(), self.t(), self.t());
        self.emit(format!("{c} = load i32, ptr {count}"));
        self.emit(format!("{c1} = add i32 {c}, 1"));
        self.emit(format!("store i32 {c1}, ptr {count}"));
        self.emit(format!("{go} = icmp ult i32 {c1}, {k}"));
        let pause = self.new_block("lockstep.pause");
        // `after.S` opens right after this label (`region_item`), where the loop body starts.
        // Left alone, LLVM unrolls the strip loop fully (its trip count is at most K):
        // faster, but costs compile time (see `max_unrolled_body_instrs`).
        let body = plan.lockstep_body_instrs.get(&plan.site_items[site]).copied().unwrap_or(usize::MAX);
        let branch = format!("br i1 {go}, label %after.{state}, label %{pause}");
        if body <= max_unrolled_body_instrs() {
            self.emit_terminator(branch);
        } else {
            let md = self.strip_loop_md();
            self.emit_terminator(format!("{branch}, !llvm.loop !{md}"));
        }
        self.start_block(&pause);
        self.region_stop(site)
    }
}

/// A loop to run in lockstep.
pub(super) struct LockstepLoop {
    /// The item index of the head label.
    pub head: usize,
    /// The item index of the back edge (a `bra` to the head).
    pub back_edge: usize,
    /// PTX instructions from the head to the back edge.
    pub instrs: usize,
}

/// The loops to run in lockstep.
pub(super) fn loop_heads(items: &[Item], labels: &HashMap<&str, usize>, split: &[(usize, SiteKind)]) -> Vec<LockstepLoop> {
    let stride = stride_registers(items);
    // Back edges: a branch at `k` to a label at `j <= k`.
    let mut edges: Vec<(usize, usize)> = Vec::new();
    for (k, it) in items.iter().enumerate() {
        if let Item::Instr(i) = it {
            if i.opcode == "bra" {
                if let Some(Operand::Ident { name, .. }) = i.operands.first() {
                    if let Some(&j) = labels.get(name.as_str()) {
                        if j <= k {
                            edges.push((j, k));
                        }
                    }
                }
            }
        }
    }
    let mut heads = Vec::new();
    for &(j, k) in &edges {
        let innermost = !edges.iter().any(|&(j2, k2)| (j2, k2) != (j, k) && j <= j2 && k2 <= k);
        let has_site = split.iter().any(|&(s, _)| j <= s && s <= k);
        // Another branch into the loop's middle from outside makes it irreducible.
        let entered_elsewhere = items.iter().enumerate().any(|(b, it)| {
            (b < j || b > k)
                && matches!(it, Item::Instr(i) if i.opcode == "bra" && matches!(i.operands.first(), Some(Operand::Ident { name, .. }) if labels.get(name.as_str()).is_some_and(|&t| j < t && t <= k)))
        });
        if !innermost || has_site || entered_elsewhere || heads.iter().any(|h: &LockstepLoop| h.head == j) {
            continue;
        }
        let body = &items[j..=k];
        let touches_global = body.iter().any(|it| matches!(it, Item::Instr(i) if accesses_global(i)));
        let strided = body.iter().any(|it| matches!(it, Item::Instr(i) if steps_by(i, &stride)));
        if touches_global && strided {
            heads.push(LockstepLoop { head: j, back_edge: k, instrs: body.iter().filter(|it| matches!(it, Item::Instr(_))).count() });
        }
    }
    heads
}

/// Whether `i` reads or writes global memory (a generic address may be global).
fn accesses_global(i: &Instruction) -> bool {
    matches!(i.opcode.as_str(), "ld" | "st" | "atom" | "red")
        && !i.modifiers.iter().any(|m| m.starts_with(".shared") || m == ".local" || m == ".param" || m == ".const")
}

/// Whether `i` is `add`/`sub`/`mad` of a register to itself by a stride register.
fn steps_by(i: &Instruction, stride: &HashSet<String>) -> bool {
    if !matches!(i.opcode.as_str(), "add" | "sub" | "mad") {
        return false;
    }
    let name = |o: &Operand| match o {
        Operand::Ident { name, .. } => Some(name.clone()),
        _ => None,
    };
    let Some(d) = i.operands.first().and_then(name) else { return false };
    let srcs: Vec<Option<String>> = i.operands[1..].iter().map(name).collect();
    srcs.iter().any(|s| s.as_deref() == Some(d.as_str())) && srcs.iter().flatten().any(|s| s != &d && stride.contains(s))
}

/// Registers whose value derives (through arithmetic, not loads) from `%ntid`/`%nctaid`.
/// Flow-insensitive: a register is in the set if any of its definitions is.
fn stride_registers(items: &[Item]) -> HashSet<String> {
    let mut set: HashSet<String> = HashSet::new();
    let mut changed = true;
    while changed {
        changed = false;
        for it in items {
            let Item::Instr(i) = it else { continue };
            if matches!(i.opcode.as_str(), "ld" | "ldu" | "atom" | "tex" | "tld4" | "suld" | "call" | "shfl" | "vote" | "redux" | "match")
                || !super::writes_first_operand(i)
            {
                continue;
            }
            let Some(Operand::Ident { name: d, .. }) = i.operands.first() else { continue };
            if set.contains(d) {
                continue;
            }
            let tainted = i.operands[1..].iter().any(|o| match o {
                Operand::Ident { name, .. } => name == "%ntid" || name == "%nctaid" || set.contains(name),
                _ => false,
            });
            if tainted {
                set.insert(d.clone());
                changed = true;
            }
        }
    }
    set
}
