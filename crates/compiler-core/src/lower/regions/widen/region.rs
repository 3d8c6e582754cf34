//! Warp strips and dense strips: the straight-line region of a resume point run for a
//! chunk of threads at once in vector IR.
//!
//! *Warp strips* (`k.wwarp.S`) are for regions that meet warp shuffles.
//! On the region path a full-mask `shfl.sync` is two stops (`warp_split`): every lane
//! deposits its value, the block steps, every lane reads its source lane's value, the
//! block steps again; a warp reduction of five shuffles costs ten block steps. When a
//! region's code is straight-line (forward branches only) and every instruction is one
//! the vector emitter has (`vector.rs`; of the collectives only `shfl`), the lowering
//! also emits `k.wwarp.S`: the warp's 32 lanes are the lanes of `<32 x T>` vectors, a
//! shuffle is a permutation of its source vector, forward branches become lane masks,
//! and the strip runs through the collectives to the stops that wait for other warps
//! (block barriers, `exit`), where it saves each lane's live registers and state as
//! the per-thread region bodies would. The dispatching loop calls it for warps whose
//! lanes are all in state `S` (and lie in one row of the block), the per-thread bodies
//! for everything else.
//!
//! Lanes that take different branches are masked; a shuffle reached by only some lanes
//! of a warp, with a full member mask, is undefined in PTX (ISA 9.7.8.6), and here reads
//! the other lanes' current values.
//!
//! *Dense strips* (`k.wdense.S`) are the same code without collectives for
//! [`DENSE_LANES`] threads of a row, for every state of a kernel with dense loops
//! (`regions::dense`); their shared-memory accesses may use guessed address windows
//! (`pattern`).

use super::super::{flatten, Item, RegionPlan, SiteKind};
use super::vector::Wide;
use crate::lower::module::ModuleCx;
use crate::ptx::ast::*;
use std::collections::HashMap;
use std::fmt::Write;

/// The state a lane that leaves the kernel reports.
const EXIT: u32 = super::super::EXIT;

/// Lanes per dense strip: 32 threads, two cache lines of 32-bit values per access (the
/// bitonic sort 15-20% faster than with 16, for 15% more compile time of its module).
pub const DENSE_LANES: u32 = 32;

/// A kernel's code as the strips of all its states walk it: flattened once.
pub(super) struct KernelCode<'a> {
    items: Vec<Item<'a>>,
    labels: HashMap<&'a str, usize>,
    /// The split sites at each item: (site, kind).
    stops: HashMap<usize, Vec<(usize, SiteKind)>>,
    /// Registers that only ever hold one integer constant (`warp_split`).
    constants: HashMap<String, i128>,
}

impl<'a> KernelCode<'a> {
    pub fn new(f: &'a Function, plan: &RegionPlan) -> Option<KernelCode<'a>> {
        let (mut items, mut regs, mut locals) = (Vec::new(), HashMap::new(), Vec::new());
        flatten(f.body.as_deref()?, &mut items, &mut regs, &mut locals);
        let labels = items.iter().enumerate().filter_map(|(k, it)| if let Item::Label(l) = it { Some((*l, k)) } else { None }).collect();
        let mut stops: HashMap<usize, Vec<(usize, SiteKind)>> = HashMap::new();
        for (s, (&item, &kind)) in plan.site_items.iter().zip(&plan.kinds).enumerate() {
            stops.entry(item).or_default().push((s, kind));
        }
        let constants = super::super::warp_split::constant_registers(&items);
        Some(KernelCode { items, labels, stops, constants })
    }
}

/// Emits the strip of state `state` of kernel `f`: a warp strip `k.wwarp.S` with `warp`
/// (the lanes per warp), else a dense strip `k.wdense.S`. The function is `void (ptr ctx,
/// ptr params, ptr save, i64 nthreads, i64 t0, i32 x0, ptr states)`: it runs the threads
/// `t0 ..` of one row (`%tid.x = x0 + lane`; in a warp strip `%laneid = lane`), all in
/// state `state`, and writes their next states to `states[0 ..]`. Fails (and the state
/// keeps the per-thread path) when the region has anything the vector emitter lacks or a
/// loop, or, for a warp strip, no shuffle.
pub(super) fn emit(cx: &ModuleCx, f: &Function, plan: &RegionPlan, code: &KernelCode, state: usize, warp: Option<u32>) -> Result<String, String> {
    // Deposits and reads are where the per-thread path leaves lanes between the halves
    // of a shuffle; a warp strip never does, so only warps that fell back get there.
    if state > 0 && matches!(plan.kinds[state - 1], SiteKind::WarpDeposit | SiteKind::WarpRead | SiteKind::Lockstep) {
        return Err("resumes inside a collective or at a loop head".into());
    }
    let lanes = warp.unwrap_or(DENSE_LANES);
    let mut w = Wide::new(cx, f, &plan.regs, lanes, warp.is_some());
    w.constants = code.constants.clone();
    w.guess = Some(super::pattern::Guesser::new(lanes));
    let slot_of =
        |name: &str| plan.slots.iter().find(|s| s.name == name).map(|s| (s.prefix, s.size)).ok_or_else(|| format!("no save slot for {name}"));
    let mut restore = String::new();
    if state > 0 {
        for name in &plan.live_after[state - 1] {
            let (prefix, size) = slot_of(name)?;
            restore.push_str(&w.save_or_restore(name, prefix, size, true, false)?);
        }
        for i in &plan.remat_after[state - 1] {
            w.instruction(i)?;
        }
    }
    // The lanes running at the current item (`None`: all of them), and the lanes
    // arriving at each label by a branch.
    let mut cur: Option<Option<String>> = Some(None);
    let mut incoming: HashMap<usize, String> = HashMap::new();
    let mut shuffles = 0;
    let or = |w: &mut Wide, a: &str, b: &str| {
        let t = w.t();
        w.emit(format!("{t} = or <{lanes} x i1> {a}, {b}"));
        t
    };
    let and_not = |w: &mut Wide, a: Option<&str>, p: &str, negate: bool| {
        let p = if negate {
            let t = w.t();
            w.emit(format!("{t} = xor <{lanes} x i1> {p}, {}", w.splat_const("i1 true")));
            t
        } else {
            p.to_string()
        };
        match a {
            None => p,
            Some(a) => {
                let t = w.t();
                w.emit(format!("{t} = and <{lanes} x i1> {a}, {p}"));
                t
            }
        }
    };
    // Stop the lanes `m` (None: all running lanes) with state `next`, saving `live`.
    let stop = |w: &mut Wide, m: Option<String>, next: u32, live: &[String]| -> Result<(), String> {
        w.mask = m.clone();
        for name in live {
            let (prefix, size) = slot_of(name)?;
            let s = w.save_or_restore(name, prefix, size, false, true)?;
            w.body.push_str(&s);
        }
        let (old, new) = (w.t(), w.t());
        let m = w.active();
        w.emit(format!("{old} = load <{lanes} x i32>, ptr %next"));
        w.emit(format!(
            "{new} = select <{lanes} x i1> {m}, <{lanes} x i32> {}, <{lanes} x i32> {old}",
            w.splat_const(&format!("i32 {}", next as i32))
        ));
        w.emit(format!("store <{lanes} x i32> {new}, ptr %next"));
        w.mask = None;
        Ok(())
    };
    let guard = |w: &mut Wide, g: &Guard| w.read(&Operand::Ident { name: g.predicate.clone(), component: None }, ScalarType::Pred);
    for k in plan.start_item(state)..code.items.len() {
        if let Some(m) = incoming.remove(&k) {
            cur = Some(match cur {
                None => Some(m),
                Some(None) => None,
                Some(Some(c)) => Some(or(&mut w, &c, &m)),
            });
        }
        let Some(running) = cur.clone() else { continue };
        let site_stop = code
            .stops
            .get(&k)
            .and_then(|v| v.iter().find(|(_, kind)| matches!(kind, SiteKind::Barrier | SiteKind::Lockstep | SiteKind::LoopExit)).copied());
        if let Some((site, _)) = site_stop {
            stop(&mut w, running, site as u32 + 1, &plan.live_after[site])?;
            cur = None;
            continue;
        }
        let Item::Instr(i) = code.items[k] else { continue };
        match i.opcode.as_str() {
            "bra" => {
                let Some(Operand::Ident { name, .. }) = i.operands.first() else { return Err("branch target".into()) };
                let &target = code.labels.get(name.as_str()).ok_or("unknown label")?;
                if target <= k {
                    return Err("a loop".into());
                }
                match &i.guard {
                    None => {
                        let m = running.clone().unwrap_or_else(|| "%all.lanes".into());
                        add_incoming(&mut w, &mut incoming, target, m, lanes);
                        cur = None;
                    }
                    Some(g) => {
                        let p = guard(&mut w, g)?;
                        let taken = and_not(&mut w, running.as_deref(), &p, g.negated);
                        add_incoming(&mut w, &mut incoming, target, taken, lanes);
                        cur = Some(Some(and_not(&mut w, running.as_deref(), &p, !g.negated)));
                    }
                }
            }
            "ret" | "exit" => match &i.guard {
                None => {
                    stop(&mut w, running, EXIT, &[])?;
                    cur = None;
                }
                Some(g) => {
                    let p = guard(&mut w, g)?;
                    let leaving = and_not(&mut w, running.as_deref(), &p, g.negated);
                    stop(&mut w, Some(leaving), EXIT, &[])?;
                    cur = Some(Some(and_not(&mut w, running.as_deref(), &p, !g.negated)));
                }
            },
            "bar" | "barrier" => return Err("a barrier outside the region plan".into()),
            _ => {
                shuffles += usize::from(i.opcode == "shfl");
                w.mask = match &i.guard {
                    None => running.clone(),
                    Some(g) => {
                        let p = guard(&mut w, g)?;
                        Some(and_not(&mut w, running.as_deref(), &p, g.negated))
                    }
                };
                w.instruction(i)?;
                w.mask = None;
            }
        }
    }
    if let Some(running) = cur {
        stop(&mut w, running, EXIT, &[])?;
    }
    if shuffles == 0 && warp.is_some() {
        return Err("no shuffle".into());
    }
    let name = crate::lower::ll_global(&format!("{}.{}.{state}", f.name, if warp.is_some() { "wwarp" } else { "wdense" }));
    let mut out = String::new();
    let _ = write!(
        out,
        r#"{head}  %next = alloca <{lanes} x i32>
{allocas}{prelude}{restore}{body}  %next.states = load <{lanes} x i32>, ptr %next
  store <{lanes} x i32> %next.states, ptr %states, align 4
  ret void
}}
"#,
        head = w.function_head(&name),
        allocas = w.alloca_text(),
        prelude = w.prelude,
        body = w.body,
    );
    Ok(out)
}

/// Adds lanes `m` to those arriving at item `target`.
fn add_incoming(w: &mut Wide, incoming: &mut HashMap<usize, String>, target: usize, m: String, lanes: u32) {
    let m = match incoming.remove(&target) {
        Some(old) => {
            let t = w.t();
            w.emit(format!("{t} = or <{lanes} x i1> {old}, {m}"));
            t
        }
        None => m,
    };
    incoming.insert(target, m);
}
