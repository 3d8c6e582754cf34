//! Barrier regions: the CPU fast path for kernels with block barriers.
//!
//! A kernel whose only synchronization is `bar.sync`/`barrier.sync` of the whole block
//! (no thread count) and warp collectives with full masks (`warp_split`), with no mbarrier
//! waits and no calls into functions that synchronize, is cut at its barriers into regions; grid-stride
//! loops get a split at their head too (`lockstep`). The host target then emits one function per resume
//! point that runs *all* threads of the block from that point to their next barrier as a
//! plain loop over threads, which LLVM can vectorize. Registers live across a barrier
//! are saved to and restored from a per-block save area laid out as structure-of-arrays
//! (one array per register, indexed by the linear thread id), and `.local` memory lives
//! there permanently so its addresses stay valid across regions.
//!
//! Every thread returns the number of the barrier it stopped at (or `EXIT`), so barriers
//! in divergent code stay correct: the runtime resumes each group of threads from its own
//! barrier (the fiber scheduler's rounds, without fibers). See `cpu-backend`'s block
//! runner for that side.
//!
//! Stops are of kinds ([`SiteKind`]) that the runtime schedules differently (see
//! `lower::StateKind`): a barrier releases only once no thread can still reach it,
//! while threads paused at implicit splits run on at once.
//!
//! This module decides eligibility and computes the save layout from a liveness
//! analysis over the PTX instruction list. Live registers that are pure functions of the
//! launch (thread and block coordinates, parameters, constants) are not saved but
//! recomputed where a region resumes (`remat`), which keeps addresses derived from `%tid`
//! visible to LLVM as affine in the thread index.

use crate::lower::types::size_of;
use crate::ptx::ast::*;
use std::collections::{BTreeSet, HashMap};

pub mod dense;
mod lockstep;
mod remat;
pub(crate) mod widen;
pub use lockstep::iterations_per_pause;
pub(crate) use lockstep::{strip_loop_md_definition, strip_loop_md_number};
pub(crate) mod warp_split;

/// Whether kernels are cut into barrier regions: on unless `CUDA_CPU_FORCE_FIBERS` is set
/// (then they run as fibers, the general fallback), or as set by [`set_enabled`].
pub fn enabled() -> bool {
    match FORCE.load(std::sync::atomic::Ordering::Relaxed) {
        0 => std::env::var_os("CUDA_CPU_FORCE_FIBERS").is_none_or(|v| v == "0"),
        1 => true,
        _ => false,
    }
}

/// Override `CUDA_CPU_FORCE_FIBERS` for modules compiled from now on (benchmarks and tests
/// compare the two paths in one process).
pub fn set_enabled(on: bool) {
    FORCE.store(if on { 1 } else { 2 }, std::sync::atomic::Ordering::Relaxed);
}

static FORCE: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// What the runtime needs to know about a plan.
pub(crate) fn meta(plan: &RegionPlan) -> super::RegionMeta {
    let kinds = std::iter::once(super::StateKind::Free).chain(plan.kinds.iter().map(|k| k.state_kind())).collect();
    let lockstep_states = (0..plan.kinds.len()).filter(|&s| plan.kinds[s] == SiteKind::Lockstep).map(|s| s as u32 + 1).collect();
    let warp_exchange = plan.exchange.map(|(values, arrived)| super::WarpExchangeMeta {
        warp_size: plan.warp_size,
        values_prefix: plan.slots[values].prefix,
        arrived_prefix: plan.slots[arrived].prefix,
    });
    super::RegionMeta {
        sites: plan.live_after.len() as u32,
        save_bytes_per_thread: plan.save_bytes_per_thread,
        kinds,
        warp_exchange,
        lockstep_states,
        dense_loops: false,
        wide_strips: Vec::new(),
        warp_strips: Vec::new(),
        dense_strips: Vec::new(),
        loop_exit_states: (0..plan.kinds.len()).filter(|&s| plan.kinds[s] == SiteKind::LoopExit).map(|s| s as u32 + 1).collect(),
    }
}

/// The state a thread returns when it has finished the kernel.
pub(crate) const EXIT: u32 = u32::MAX;

/// What kind of stop a split site is; the runtime schedules states by it (see
/// `cpu-backend`'s block runner and [`StateKind`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum SiteKind {
    /// A whole-block `bar.sync`: resumes after the barrier.
    Barrier,
    /// The head label of a lockstep loop (`lockstep`): resumes after the label.
    Lockstep,
    /// A warp collective, first half: the thread has deposited its value; the region
    /// resuming here only performs the collective for the lanes that met (`warp_split`).
    WarpDeposit,
    /// A warp collective, second half: resumes after the collective.
    WarpRead,
    /// The label after a lockstep loop that runs as a wide strip (`widen`): lanes that
    /// left the loop stop here, resuming after the label.
    LoopExit,
}

impl SiteKind {
    /// How the runtime schedules threads stopped at a site of this kind.
    pub(crate) fn state_kind(self) -> crate::lower::StateKind {
        use crate::lower::StateKind;
        match self {
            SiteKind::Barrier => StateKind::Barrier,
            SiteKind::Lockstep | SiteKind::WarpRead | SiteKind::LoopExit => StateKind::Free,
            SiteKind::WarpDeposit => StateKind::Warp,
        }
    }
}

/// One value kept in the save area.
#[derive(Clone, Debug)]
pub(crate) struct SaveSlot {
    pub name: String,
    /// Bytes per thread.
    pub size: u64,
    /// This slot's array starts at `prefix * nthreads` in the save area.
    pub prefix: u64,
}

/// How a kernel is cut at its barriers.
#[derive(Clone, Debug)]
pub(crate) struct RegionPlan {
    /// Registers live after barrier site `k` (state `k + 1`) that go through the save
    /// area, by name.
    pub live_after: Vec<Vec<String>>,
    /// The instructions that recompute the other registers live after site `k` where the
    /// region resumes (see `remat`), in order.
    pub remat_after: Vec<Vec<Instruction>>,
    /// Register slots (by name) and `.local` variables (by name), in layout order.
    pub slots: Vec<SaveSlot>,
    pub save_bytes_per_thread: u64,
    /// Item index (labels and instructions in body order, as the lowering walks them) of
    /// each barrier site.
    pub site_items: Vec<usize>,
    /// The kind of each site.
    pub kinds: Vec<SiteKind>,
    /// Registers that hold the value restored at the start of state `S` on every path of
    /// the region (live there and never written in it): stops need not save them again.
    pub unchanged: Vec<BTreeSet<String>>,
    /// Lanes per warp (warp splits address the exchange by it).
    pub warp_size: u32,
    /// With warp splits: the save slots of the per-thread exchange value (8 bytes) and
    /// of the runtime-written arrival mask (`u32`).
    pub exchange: Option<(usize, usize)>,
    /// For each state `S` (0 = start, `k` = after barrier `k`), the items a thread can
    /// execute from that resume point up to and including the barriers where it stops.
    pub reachable: Vec<Vec<bool>>,
    /// For each lockstep loop, by the item index of its head: the instructions of its
    /// body (head to back edge), which decides whether its strip loop may be unrolled.
    pub lockstep_body_instrs: HashMap<usize, usize>,
    /// Lockstep head states whose loop also runs as a wide strip (`widen`), by state.
    pub wide: HashMap<usize, widen::WideStrip>,
    /// Every register of the kernel and its type.
    pub regs: HashMap<String, ScalarType>,
}

impl RegionPlan {
    /// The item a thread resumes at in state `state`.
    pub fn start_item(&self, state: usize) -> usize {
        match state {
            0 => 0,
            s if self.kinds[s - 1] == SiteKind::WarpDeposit => self.site_items[s - 1],
            s => self.site_items[s - 1] + 1,
        }
    }

    /// The site of kind `kind` at item `item`.
    pub fn site_at(&self, item: usize, kind: SiteKind) -> Option<usize> {
        (0..self.site_items.len()).find(|&s| self.site_items[s] == item && self.kinds[s] == kind)
    }
}

/// One flattened body element.
enum Item<'a> {
    Label(&'a str),
    Instr(&'a Instruction),
}

fn flatten<'a>(body: &'a [Statement], out: &mut Vec<Item<'a>>, regs: &mut HashMap<String, ScalarType>, locals: &mut Vec<&'a VarDecl>) {
    for s in body {
        match s {
            Statement::Label { name, .. } => out.push(Item::Label(name)),
            Statement::Instr(i) => out.push(Item::Instr(i)),
            Statement::Block(b) => flatten(b, out, regs, locals),
            Statement::Var(v) if v.space == StateSpace::Reg => match v.count {
                Some(n) => (0..n).for_each(|i| {
                    regs.insert(format!("{}{i}", v.name), v.ty);
                }),
                None => {
                    regs.insert(v.name.clone(), v.ty);
                }
            },
            Statement::Var(v) if v.space == StateSpace::Local => locals.push(v),
            _ => {}
        }
    }
}

/// Whether `i` is a whole-block barrier the region split supports.
fn is_block_barrier(i: &Instruction) -> bool {
    (i.opcode == "bar" || i.opcode == "barrier")
        && !i.modifiers.iter().any(|m| matches!(m.as_str(), ".warp" | ".arrive" | ".red"))
        && i.operands.len() <= 1
}

/// Instructions whose first operand is written (PTX ISA: "d" comes first). Anything not
/// listed is treated as reading every operand, which only makes liveness larger (safe).
fn writes_first_operand(i: &Instruction) -> bool {
    !matches!(
        i.opcode.as_str(),
        "st" | "red"
            | "sust"
            | "bar"
            | "barrier"
            | "bra"
            | "brx"
            | "call"
            | "ret"
            | "exit"
            | "trap"
            | "membar"
            | "fence"
            | "prefetch"
            | "prefetchu"
            | "cp"
            | "nanosleep"
            | "pmevent"
            | "brkpt"
            | "mbarrier"
            | "discard"
            | "applypriority"
            | "stmatrix"
    )
}

/// The register names `op` mentions.
pub(crate) fn names_in(op: &Operand, out: &mut Vec<String>) {
    match op {
        Operand::Ident { name, .. } | Operand::Select { name, .. } => out.push(name.clone()),
        Operand::Not(o) | Operand::Neg(o) => names_in(o, out),
        Operand::Address { base: AddressBase::Ident(n), .. } => out.push(n.clone()),
        Operand::Vector(v) | Operand::List(v) => v.iter().for_each(|o| names_in(o, out)),
        Operand::Texture { handle, sampler, coords } => {
            out.push(handle.clone());
            sampler.iter().for_each(|s| names_in(s, out));
            coords.iter().for_each(|o| names_in(o, out));
        }
        Operand::SymbolOffset { symbol, .. } => out.push(symbol.clone()),
        _ => {}
    }
}

/// (uses, kills) of one instruction, restricted to registers.
fn uses_defs(i: &Instruction, regs: &HashMap<String, ScalarType>) -> (Vec<String>, Vec<String>) {
    let mut uses = Vec::new();
    let mut defs = Vec::new();
    if let Some(g) = &i.guard {
        uses.push(g.predicate.clone());
    }
    for (k, op) in i.operands.iter().enumerate() {
        if k == 0 && writes_first_operand(i) {
            names_in(op, &mut defs);
        } else if i.opcode == "call" && matches!(op, Operand::List(_)) && k == 0 {
            // `call (ret), f, (args)`: the leading list is written.
            names_in(op, &mut defs);
        } else {
            names_in(op, &mut uses);
        }
    }
    uses.retain(|n| regs.contains_key(n));
    defs.retain(|n| regs.contains_key(n));
    // A guarded write may not happen: it kills nothing.
    if i.guard.is_some() {
        uses.extend(defs.iter().cloned());
        defs.clear();
    }
    (uses, defs)
}

/// Plan the region split of kernel `f`, or `None` when it must run as fibers.
/// `calls_synchronizing` says whether `f` calls a function that synchronizes (or calls
/// through a pointer).
///
/// Besides block barriers, two kinds of implicit split points are added (both sound
/// because no thread can observe where another thread pauses without a barrier, see
/// `lockstep` and `warp_split`): the heads of grid-stride loops, so that the block's
/// threads run them an iteration at a time, and warp collectives in code whose masks are
/// full, which become a deposit and a read of the save area. `warp_size` is the lanes per
/// warp.
pub(crate) fn plan(f: &Function, calls_synchronizing: bool, warp_size: u32) -> Option<RegionPlan> {
    if f.kind != FunctionKind::Entry || calls_synchronizing {
        return None;
    }
    let body = f.body.as_deref()?;
    let mut items = Vec::new();
    let mut regs = HashMap::new();
    let mut locals = Vec::new();
    flatten(body, &mut items, &mut regs, &mut locals);
    // (item, kind) of every split site, in body order.
    let mut split: Vec<(usize, SiteKind)> = Vec::new();
    let constants = warp_split::constant_registers(&items);
    for (k, it) in items.iter().enumerate() {
        if let Item::Instr(i) = it {
            // A thread waiting on an mbarrier, or spinning (`spin_wait`), waits for other
            // threads of its region.
            if super::mbarrier::waits(i) || i.opcode == "nanosleep" {
                return None;
            }
            if super::warp::needs_warp(i, warp_size) {
                // `exit` in a 64-lane module meets the warp but is no collective to split
                // (`lower::module` keeps such kernels out of regions anyway).
                if !super::warp::is_collective(i) || !warp_split::splittable(i, &constants, warp_size) {
                    return None;
                }
                split.push((k, SiteKind::WarpDeposit));
                split.push((k, SiteKind::WarpRead));
            } else if i.opcode == "bar" || i.opcode == "barrier" {
                if !is_block_barrier(i) {
                    return None;
                }
                split.push((k, SiteKind::Barrier));
            }
        }
    }
    if split.is_empty() {
        return None;
    }
    // CFG successors by item index.
    let labels: HashMap<&str, usize> = items
        .iter()
        .enumerate()
        .filter_map(|(k, it)| match it {
            Item::Label(l) => Some((*l, k)),
            _ => None,
        })
        .collect();
    let n = items.len();
    let mut succ: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, it) in items.iter().enumerate() {
        match it {
            Item::Label(_) => {
                if k + 1 < n {
                    succ[k].push(k + 1)
                }
            }
            Item::Instr(i) => {
                let unconditional = i.guard.is_none();
                match i.opcode.as_str() {
                    "bra" => {
                        let target = i.operands.first().and_then(|o| match o {
                            Operand::Ident { name, .. } => labels.get(name.as_str()).copied(),
                            _ => None,
                        });
                        match target {
                            Some(t) => succ[k].push(t),
                            None => return None,
                        }
                        if !unconditional && k + 1 < n {
                            succ[k].push(k + 1);
                        }
                    }
                    "brx" => return None,
                    "ret" | "exit" | "trap" if unconditional => {}
                    _ => {
                        if k + 1 < n {
                            succ[k].push(k + 1)
                        }
                    }
                }
            }
        }
    }
    // Backward liveness over bitsets, iterated to a fixpoint.
    let index: HashMap<&str, usize> = regs.keys().enumerate().map(|(k, n)| (n.as_str(), k)).collect();
    let names: Vec<&str> = {
        let mut v = vec![""; index.len()];
        for (n, &k) in &index {
            v[k] = n;
        }
        v
    };
    let words = index.len().div_ceil(64).max(1);
    let to_bits = |list: &[String]| {
        let mut b = vec![0u64; words];
        for n in list {
            let k = index[n.as_str()];
            b[k / 64] |= 1 << (k % 64);
        }
        b
    };
    let ud: Vec<(Vec<u64>, Vec<u64>)> = items
        .iter()
        .map(|it| match it {
            Item::Instr(i) => {
                let (u, d) = uses_defs(i, &regs);
                (to_bits(&u), to_bits(&d))
            }
            Item::Label(_) => (vec![0; words], vec![0; words]),
        })
        .collect();
    let mut live_in: Vec<Vec<u64>> = vec![vec![0u64; words]; n];
    let mut changed = true;
    let mut out = vec![0u64; words];
    while changed {
        changed = false;
        for k in (0..n).rev() {
            out.iter_mut().for_each(|w| *w = 0);
            for &s in &succ[k] {
                for (o, l) in out.iter_mut().zip(&live_in[s]) {
                    *o |= l;
                }
            }
            let (u, d) = &ud[k];
            for w in 0..words {
                let v = (out[w] & !d[w]) | u[w];
                if v != live_in[k][w] {
                    live_in[k][w] = v;
                    changed = true;
                }
            }
        }
    }
    let mut lockstep_body_instrs = HashMap::new();
    let loops = lockstep::loop_heads(&items, &labels, &split);
    for l in &loops {
        split.push((l.head, SiteKind::Lockstep));
        lockstep_body_instrs.insert(l.head, l.instrs);
    }
    // Loops that may run as wide strips stop their leavers at the label after the loop
    // (one that is no other split).
    let mut widened = Vec::new();
    for l in &loops {
        let body: Option<Vec<&Instruction>> = items[l.head + 1..=l.back_edge]
            .iter()
            .map(|it| match it {
                Item::Instr(i) => Some(*i),
                Item::Label(_) => None,
            })
            .collect();
        let exit = l.back_edge + 1;
        if widen::enabled()
            && body.is_some_and(|b| widen::body_supported(&b, &regs))
            && matches!(items.get(exit), Some(Item::Label(_)))
            && !split.iter().any(|&(k, _)| k == exit)
        {
            split.push((exit, SiteKind::LoopExit));
            widened.push((l.head, l.back_edge));
        }
    }
    split.sort_by_key(|&(k, kind)| (k, kind != SiteKind::WarpDeposit));
    let sites: Vec<usize> = split.iter().map(|&(k, _)| k).collect();
    let kinds: Vec<SiteKind> = split.iter().map(|&(_, kind)| kind).collect();
    let live_after: Vec<Vec<String>> = split
        .iter()
        .map(|&(k, kind)| {
            let mut v: Vec<String> = Vec::new();
            // A deposit resumes at the collective itself.
            let at = if kind == SiteKind::WarpDeposit { k } else { k + 1 };
            if at < n {
                for (w, bits) in live_in[at].iter().enumerate() {
                    for b in 0..64 {
                        if bits & (1 << b) != 0 {
                            v.push(names[w * 64 + b].to_string());
                        }
                    }
                }
            }
            v.sort();
            v
        })
        .collect();
    // Registers that are pure functions of the launch are recomputed, not saved.
    let params: Vec<&str> = f.params.iter().map(|p| p.name.as_str()).collect();
    let remat = remat::Rematerializable::analyze(&items, &regs, &params);
    let remat_after: Vec<Vec<Instruction>> = live_after
        .iter()
        .map(|live| {
            let chain = remat.items_for(live.iter().filter(|n| remat.contains(n)));
            chain
                .into_iter()
                .map(|k| match &items[k] {
                    Item::Instr(i) => (*i).clone(),
                    Item::Label(_) => unreachable!("chains hold instructions"),
                })
                .collect()
        })
        .collect();
    let live_after: Vec<Vec<String>> = live_after.into_iter().map(|live| live.into_iter().filter(|n| !remat.contains(n)).collect()).collect();
    // Reachability per resume point; a barrier ends the region it is reached in.
    // A deposit state's region is the collective alone.
    let is_site: Vec<bool> = (0..n).map(|k| sites.contains(&k)).collect();
    let mut reachable = Vec::new();
    for state in 0..=sites.len() {
        let mut seen = vec![false; n];
        if state > 0 && kinds[state - 1] == SiteKind::WarpDeposit {
            seen[sites[state - 1]] = true;
            reachable.push(seen);
            continue;
        }
        let start = if state == 0 { 0 } else { sites[state - 1] + 1 };
        let mut stack = vec![start];
        while let Some(k) = stack.pop() {
            if k >= n || seen[k] {
                continue;
            }
            seen[k] = true;
            if is_site[k] {
                continue;
            }
            stack.extend(succ[k].iter().copied());
        }
        reachable.push(seen);
    }
    // Registers a region never writes keep the value it restored (the stop items
    // themselves write nothing before stopping, except a collective's read half, which
    // only runs in its own deposit state).
    let unchanged: Vec<BTreeSet<String>> = (0..=sites.len())
        .map(|state| {
            if state == 0 {
                return BTreeSet::new();
            }
            let mut written = vec![0u64; words];
            for (k, seen) in reachable[state].iter().enumerate() {
                let stops_here = is_site[k] && !(kinds[state - 1] == SiteKind::WarpDeposit);
                if *seen && !stops_here {
                    // Guarded writes count as writes here (ud's kills drop them).
                    if let Item::Instr(i) = &items[k] {
                        let mut d = Vec::new();
                        if let Some(op) = i.operands.first() {
                            if writes_first_operand(i) || i.opcode == "call" {
                                names_in(op, &mut d);
                            }
                        }
                        for r in d.iter().filter_map(|r| index.get(r.as_str())) {
                            written[r / 64] |= 1 << (r % 64);
                        }
                    }
                    // Calls can write any listed register; be safe.
                    if let Item::Instr(i) = &items[k] {
                        if i.opcode == "call" {
                            written.iter_mut().for_each(|w| *w = u64::MAX);
                        }
                    }
                }
            }
            live_after[state - 1].iter().filter(|r| index.get(r.as_str()).is_some_and(|&x| written[x / 64] & (1 << (x % 64)) == 0)).cloned().collect()
        })
        .collect();
    // Layout: locals first (16-byte strides), then registers by decreasing size, so every
    // array starts aligned for its element size.
    let mut slots = Vec::new();
    let mut prefix = 0u64;
    for v in &locals {
        let size = super::module::var_size(v).max(1).div_ceil(16) * 16;
        slots.push(SaveSlot { name: v.name.clone(), size, prefix });
        prefix += size;
    }
    let saved: BTreeSet<&String> = live_after.iter().flatten().collect();
    let mut reg_slots: Vec<(u64, &String)> = saved.iter().map(|n| (size_of(regs[*n]), *n)).collect();
    reg_slots.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(b.1)));
    for (size, name) in reg_slots {
        slots.push(SaveSlot { name: name.clone(), size, prefix });
        prefix += size;
    }
    // The warp exchange: names no PTX register can have.
    let exchange = kinds.contains(&SiteKind::WarpDeposit).then(|| {
        slots.push(SaveSlot { name: " exchange".into(), size: 8, prefix });
        slots.push(SaveSlot { name: " arrived".into(), size: 8, prefix: prefix + 8 });
        prefix += 16;
        (slots.len() - 2, slots.len() - 1)
    });
    let wide = widened
        .into_iter()
        .filter_map(|(head, back_edge)| {
            let head_site = (0..sites.len()).find(|&s| sites[s] == head && kinds[s] == SiteKind::Lockstep)?;
            let exit_site = (0..sites.len()).find(|&s| sites[s] == back_edge + 1 && kinds[s] == SiteKind::LoopExit)?;
            if !widen::remat_supported(&remat_after[head_site], &regs) {
                return None;
            }
            let Item::Instr(edge) = items[back_edge] else { return None };
            let body = items[head + 1..back_edge].iter().filter_map(|it| if let Item::Instr(i) = it { Some((*i).clone()) } else { None }).collect();
            Some((head_site + 1, widen::WideStrip { body, again: edge.guard.clone()?, exit_state: exit_site + 1 }))
        })
        .collect();
    Some(RegionPlan {
        wide,
        regs,
        live_after,
        remat_after,
        slots,
        save_bytes_per_thread: prefix,
        site_items: sites,
        kinds,
        unchanged,
        warp_size,
        exchange,
        reachable,
        lockstep_body_instrs,
    })
}
