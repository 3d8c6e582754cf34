//! Wide strips: a lockstep loop run for [`LANES`] threads at once in vector IR.
//!
//! A lockstep head's region (`lockstep`) runs its grid-stride loop thread after thread,
//! a few iterations each: with a loop inside, LLVM cannot vectorize the x loop around
//! it, so every element costs a scalar load, add, compare and branch, and the sums
//! benchmark's loads are instruction-bound, not memory-bound. When the loop's body is
//! plain straight-line arithmetic and weak global loads and stores ([`body_supported`]),
//! the lowering also emits `k.wstrip.S` for its head state `S`: it runs one iteration
//! of [`LANES`] consecutive threads as one vector instruction per PTX instruction, each
//! register an `<8 x T>`, and loads and stores check at run time whether the lanes'
//! addresses are consecutive (a grid-stride index `base + tid` makes them so): then one
//! vector load or store, else a gather or scatter. The host's dispatching loop calls it
//! for chunks whose threads are all in state `S` (`target/host/dispatch.rs`), and the
//! per-thread region body for the rest.
//!
//! Semantics are the scalar path's: a lane runs its own instructions in program order;
//! lanes of one iteration run their instructions interleaved, which is one of the
//! executions the GPU allows (no barrier orders threads inside a lockstep loop, see
//! `lockstep`). The strip runs whole iterations for all lanes while every lane stays in
//! the loop, up to `iterations_per_pause` of them; after an iteration in which some lane
//! leaves, the lanes still in the loop pause at the head (state `S`) and the others stop
//! at the loop's exit, a split of its own ([`SiteKind::LoopExit`]) that resumes them
//! where the loop falls through. So no lane ever runs masked, and no load is issued for
//! a lane that the scalar path would not run it for.

use super::RegionPlan;
use crate::lower::module::ModuleCx;
use crate::lower::types::{bits, Mods};
use crate::ptx::ast::*;
use std::collections::HashMap;
use std::fmt::Write;
use vector::Wide;

mod memory;
mod pattern;
mod region;
mod vector;
pub use region::DENSE_LANES;

/// Threads per wide strip. 16 lanes of 32 bits read a whole cache line per load (two of
/// the 256-bit vectors the host target prefers); the tree sum benchmark ran about 6%
/// faster than with 8.
pub const LANES: u32 = 16;

/// Wide strips per module, handed out kernel by kernel in module order (as dense loops
/// are, `dense`): each costs about 7 ms of compile time on the 2-core test machine,
/// and `template_heavy.ptx` (120 eligible loops) compiled 17% slower with all of them.
pub const WIDE_STRIPS_PER_MODULE: u32 = 16;

/// A strip of one resume point of a region kernel.
pub(crate) enum Strip {
    /// A lockstep head's wide strip `k.wstrip.S`.
    Wide(u32),
    /// A warp strip `k.wwarp.S` (`region`).
    Warp(u32),
    /// A dense strip `k.wdense.S` (`region`).
    Dense(u32),
}

/// The strips kernel `f` (planned as `plan`) can have, with their IR: wide strips for
/// its lockstep heads; warp strips where it splits warp collectives; dense strips when
/// it may get dense loops (no lockstep loops or collectives, straight-line, no per-state
/// loops of its own). A strip that does not emit is left out. The module's budgets
/// decide which are used (`lower::module`).
pub(crate) fn strips(cx: &ModuleCx, f: &Function, plan: &RegionPlan) -> Vec<(Strip, String)> {
    let mut out = Vec::new();
    if !enabled() {
        return out;
    }
    let mut heads: Vec<&usize> = plan.wide.keys().collect();
    heads.sort();
    for &state in heads {
        let mut strip = String::new();
        if emit(cx, f, plan, state, &plan.wide[&state], &mut strip).is_ok() {
            out.push((Strip::Wide(state as u32), strip));
        }
    }
    let warp = plan.exchange.is_some();
    let dense = !warp && plan.wide.is_empty() && !crate::target::host::has_own_loop(&super::meta(plan), 0) && super::dense::straight_line(f, 0);
    if !(warp || dense) {
        return out;
    }
    let Some(code) = region::KernelCode::new(f, plan) else { return out };
    for state in 0..=plan.live_after.len() {
        let strip = region::emit(cx, f, plan, &code, state, warp.then_some(plan.warp_size));
        if let Ok(text) = strip {
            out.push((if warp { Strip::Warp(state as u32) } else { Strip::Dense(state as u32) }, text));
        }
    }
    out
}

/// Whether lockstep loops get wide strips: on unless `PTX_WIDE_STRIPS=0` (for
/// measurements against the scalar path).
pub fn enabled() -> bool {
    static ON: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ON.get_or_init(|| std::env::var("PTX_WIDE_STRIPS").map_or(true, |v| v.trim() != "0"))
}

/// A lockstep loop that runs as a wide strip.
#[derive(Clone, Debug)]
pub(crate) struct WideStrip {
    /// The loop's instructions after the head label, without the back edge.
    pub body: Vec<Instruction>,
    /// The back edge's guard: lanes go round again while it holds.
    pub again: Guard,
    /// The state of the lanes that left the loop (its `LoopExit` site plus one).
    pub exit_state: usize,
}

/// Load/store modifiers a wide strip accepts besides the space and the type: cache hints
/// of weak accesses.
const WEAK_HINTS: &[&str] = &[".global", ".nc", ".ca", ".cg", ".cs", ".lu"];

/// Whether the loop body `body` (head label excluded, back edge included as the last
/// instruction) can run as a wide strip: every instruction unguarded and one of the forms
/// [`Wide::instruction`] emits, the back edge a guarded `bra`.
pub(crate) fn body_supported(body: &[&Instruction], regs: &HashMap<String, ScalarType>) -> bool {
    let Some((edge, rest)) = body.split_last() else { return false };
    edge.opcode == "bra" && edge.guard.is_some() && rest.iter().all(|i| i.guard.is_none() && instruction_supported(i, regs, false))
}

/// Whether the rematerialization `code` of a head state can run in vector form.
pub(crate) fn remat_supported(code: &[Instruction], regs: &HashMap<String, ScalarType>) -> bool {
    code.iter().all(|i| i.guard.is_none() && instruction_supported(i, regs, true))
}

/// Whether `i` can be in a wide strip (`remat`: in the code its head runs to recompute
/// registers): a form of the vector emitter (`vector::form_supported`), register
/// operands of 32 or 64 bits (or predicates), addresses in 64-bit registers, weak global
/// or generic loads and stores.
fn instruction_supported(i: &Instruction, regs: &HashMap<String, ScalarType>, remat: bool) -> bool {
    let m = Mods::new(&i.modifiers);
    let word = |t: ScalarType| matches!(bits(t), 32 | 64) || t == ScalarType::Pred;
    let only = |allowed: &[&str]| m.flags.iter().all(|f| allowed.contains(f));
    let operands_ok = i.operands.iter().all(|o| match o {
        Operand::Ident { name, component } => match regs.get(name) {
            Some(&t) => word(t) && component.is_none(),
            None => remat || !name.starts_with('%'),
        },
        Operand::Imm(_) => true,
        Operand::Address { base: AddressBase::Ident(n), .. } => regs.get(n).is_some_and(|&t| bits(t) == 64) || remat,
        Operand::SymbolOffset { .. } => true,
        _ => false,
    });
    if !operands_ok {
        return false;
    }
    // The forms the vector emitter has; a wide strip's loads and stores are weak global
    // or generic ones (and `ld.param` where the head recomputes registers).
    let memory_ok = match i.opcode.as_str() {
        "ld" if remat && m.space() == Some(StateSpace::Param) => true,
        "ld" | "st" => only(WEAK_HINTS),
        _ => true,
    };
    memory_ok && vector::form_supported(i, false)
}

/// Emits `k.wstrip.S` for the lockstep head `state` of kernel `f` (see the module docs):
/// `void (ptr ctx, ptr params, ptr save, i64 nthreads, i64 t0, i32 x0, ptr states)` runs
/// threads `t0 .. t0 + LANES` (one row, `%tid.x = x0 + lane`, all in state `state`) and
/// writes their next states to `states[0 .. LANES]`. The dispatching loop has stored
/// `x0`, `%tid.y` and `%tid.z` into the context.
pub(crate) fn emit(cx: &ModuleCx, f: &Function, plan: &RegionPlan, state: usize, strip: &WideStrip, out: &mut String) -> Result<(), String> {
    let mut w = Wide::new(cx, f, &plan.regs, LANES, false);
    let slot_of =
        |name: &str| plan.slots.iter().find(|s| s.name == name).map(|s| (s.prefix, s.size)).ok_or_else(|| format!("no save slot for {name}"));
    // Restore what the head state restores, then recompute the rest.
    let mut restore = String::new();
    for name in &plan.live_after[state - 1] {
        let (prefix, size) = slot_of(name)?;
        restore.push_str(&w.save_or_restore(name, prefix, size, true, false)?);
    }
    for i in &plan.remat_after[state - 1] {
        w.instruction(i)?;
    }
    let remat = std::mem::take(&mut w.body);
    for i in &strip.body {
        w.instruction(i)?;
    }
    let again = w.read(&Operand::Ident { name: strip.again.predicate.clone(), component: None }, ScalarType::Pred)?;
    let again = if strip.again.negated {
        let t = w.t();
        w.emit(format!("{t} = xor <{LANES} x i1> {again}, {}", w.splat_const("i1 true")));
        t
    } else {
        again
    };
    let body = std::mem::take(&mut w.body);
    // Save what either stop needs from the save area (remat'ed registers are recomputed).
    let mut saved: Vec<&String> = plan.live_after[state - 1].iter().chain(&plan.live_after[strip.exit_state - 1]).collect();
    saved.sort();
    saved.dedup();
    let mut save = String::new();
    for name in saved {
        let (prefix, size) = slot_of(name)?;
        save.push_str(&w.save_or_restore(name, prefix, size, false, false)?);
    }
    let k = super::iterations_per_pause();
    let name = crate::lower::ll_global(&format!("{}.wstrip.{state}", f.name));
    let _ = write!(
        out,
        r#"{function_head}{allocas}{prelude}{restore}{remat}  br label %iter
iter:
  %k = phi i32 [ 0, %entry ], [ %k.next, %next ]
{body}  %again.all = call i1 @llvm.vector.reduce.and.v{LANES}i1(<{LANES} x i1> {again})
  %k.next = add i32 %k, 1
  %more = icmp ult i32 %k.next, {k}
  %go = and i1 %again.all, %more
  br i1 %go, label %next, label %done
next:
  br label %iter
done:
{save}  %next.states = select <{LANES} x i1> {again}, <{LANES} x i32> {head}, <{LANES} x i32> {exit}
  store <{LANES} x i32> %next.states, ptr %states, align 4
  ret void
}}
"#,
        function_head = w.function_head(&name),
        allocas = w.alloca_text(),
        prelude = w.prelude,
        head = w.splat_const(&format!("i32 {state}")),
        exit = w.splat_const(&format!("i32 {}", strip.exit_state)),
    );
    Ok(())
}
