//! Warp collectives as region splits: warp reductions without fibers.
//!
//! A collective (`shfl.sync`, `vote`, `activemask`, `redux.sync`, `match.sync`,
//! `bar.warp.sync`) needs the values of the other lanes of the warp. In a region kernel it
//! becomes two split sites at the same instruction:
//! - *deposit* (`SiteKind::WarpDeposit`): a thread that reaches the collective stores its
//!   operand (`a` of `shfl`/`redux`/`match`, the predicate of `vote`) in its exchange slot
//!   of the save area and stops;
//! - the region resuming there performs only the collective, reading the lanes' values
//!   from the exchange (the target's `__ptx_region_*` helpers, the same arithmetic as its
//!   runtime exchange), and stops right after it (`SiteKind::WarpRead`), so that no lane
//!   deposits again while another lane of its warp may still have to read.
//!
//! The runtime runs deposit states only when no thread can still arrive at a collective
//! without passing another stop (no thread is in a `StateKind::Free` state), and tells
//! each thread which lanes of its warp stopped at the same deposit (the save area's
//! arrival slot): the lanes that met, as the fiber scheduler's round defines them.
//! The source lane, clamps, segment masks and the in-range predicate are computed by
//! `lower/warp.rs` exactly as on the other paths; a source lane that did not arrive gives
//! the reader's own value, as on fibers.
//!
//! Only collectives with full member masks (constant all-ones for the warp size,
//! directly or through a register that is only ever set to that constant) and no guard
//! are split: PTX requires every non-exited lane named in the mask to execute the
//! collective (PTX ISA 9.7.8.6 `shfl.sync`, 9.7.13.x `vote.sync`...), so the lanes meet
//! whatever the control flow. Kernels with other collectives (partial masks, computed
//! masks, guarded collectives) run as fibers.

use super::{Item, SiteKind};
use crate::lower::func::{FnLowerer, R};
use crate::lower::types::{bits, storage};
use crate::ptx::ast::*;
use std::collections::HashMap;

/// Registers whose every definition is an unguarded `mov` of one and the same integer
/// immediate, with that value (nvcc sets member masks up as `mov.u32 %r, -1`).
pub(super) fn constant_registers(items: &[Item]) -> HashMap<String, i128> {
    let mut value: HashMap<String, Option<i128>> = HashMap::new();
    for it in items {
        let Item::Instr(i) = it else { continue };
        if !super::writes_first_operand(i) {
            continue;
        }
        let mut defs = Vec::new();
        if let Some(op) = i.operands.first() {
            super::names_in(op, &mut defs);
        }
        let imm = match (i.opcode.as_str(), &i.guard, i.operands.get(1)) {
            ("mov", None, Some(Operand::Imm(Immediate::Int(v)))) => Some(*v),
            _ => None,
        };
        for d in defs {
            let e = value.entry(d).or_insert(imm);
            if *e != imm {
                *e = None;
            }
        }
    }
    value.into_iter().filter_map(|(r, v)| v.map(|v| (r, v))).collect()
}

/// Whether the collective `i` can be split (see the module docs) in a warp of
/// `warp_size` lanes; `constants` from [`constant_registers`].
pub(super) fn splittable(i: &Instruction, constants: &HashMap<String, i128>, warp_size: u32) -> bool {
    // The matrix collectives meet through the runtime twice: they run as fibers.
    if i.guard.is_some() || super::super::matrix::is_collective(i) {
        return false;
    }
    let mask = match i.opcode.as_str() {
        "shfl" => i.operands.get(4),
        "vote" | "redux" | "match" => i.operands.get(2),
        "activemask" => None,
        _ => i.operands.first(),
    };
    let lanes: u128 = (1u128 << warp_size) - 1;
    let value = match mask {
        None => return true,
        Some(Operand::Imm(Immediate::Int(v))) => *v,
        Some(Operand::Ident { name, component: None }) => match constants.get(name) {
            Some(v) => *v,
            None => return false,
        },
        _ => return false,
    };
    (value as u128) & lanes == lanes
}

impl FnLowerer<'_> {
    /// A split collective in region mode (item `self.item - 1`): where the region reaches
    /// it, deposit and stop; in the region resuming at its deposit, perform it and stop.
    pub(crate) fn region_collective(&mut self, i: &Instruction) -> R<()> {
        // What `unguarded` checks before any collective (both halves lower its operands).
        let m = crate::lower::types::Mods::new(&i.modifiers);
        crate::lower::int_width::check_instruction(i, &m.types, &m.flags)?;
        let (plan, state) = self.region.clone().expect("region mode");
        let item = self.item - 1;
        let deposit = plan.site_at(item, SiteKind::WarpDeposit).expect("a deposit site");
        let read = plan.site_at(item, SiteKind::WarpRead).expect("a read site");
        if state != deposit + 1 {
            let v = self.deposit_value(i)?;
            let (slot, _) = plan.exchange.expect("the plan has an exchange");
            self.emit(format!("store i64 {v}, ptr %slot.{slot}"));
            return self.region_stop(deposit);
        }
        self.start_block(&format!("after.{state}"));
        self.note_resume_scope();
        self.warp_read = true;
        let done = self.collective(i);
        self.warp_read = false;
        done?;
        self.region_stop(read)
    }

    /// The value lane deposits for collective `i`, as an i64 (the exchange's element).
    fn deposit_value(&mut self, i: &Instruction) -> R<String> {
        let ty = match i.opcode.as_str() {
            "shfl" => ScalarType::B(32),
            "vote" => ScalarType::Pred,
            "redux" | "match" => {
                let m = crate::lower::types::Mods::new(&i.modifiers);
                m.types.first().copied().ok_or_else(|| self.err("collective needs a type"))?
            }
            _ => return Ok("0".into()),
        };
        let op = i.operands.get(1).ok_or_else(|| self.err("collective needs a source operand"))?;
        let v = self.src(op, ty)?;
        if bits(ty) == 64 {
            return Ok(v);
        }
        let int = if ty == ScalarType::Pred { "i1".to_string() } else { format!("i{}", bits(ty)) };
        let v = self.bitcast(&v, &storage(ty), &int);
        let t = self.t();
        self.emit(format!("{t} = zext {int} {v} to i64"));
        Ok(t)
    }

    /// The read half's view of the exchange: the address of lane 0's value of this
    /// thread's warp, and the lanes that met (written by the runtime).
    pub(crate) fn exchange_view(&mut self) -> (String, String) {
        let (plan, _) = self.region.clone().expect("region mode");
        let (xchg, arrived) = plan.exchange.expect("the plan has an exchange");
        let w = plan.warp_size as i64;
        let prefix = plan.slots[xchg].prefix;
        let (lane0, base, off, at, vals, mask) = (self.t(), self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{lane0} = and i64 %t, {}", -w));
        self.emit(format!("{base} = mul i64 %nthreads, {prefix}"));
        self.emit(format!("{off} = mul i64 {lane0}, 8"));
        self.emit(format!("{at} = add i64 {base}, {off}"));
        self.emit(format!("{vals} = getelementptr i8, ptr %save, i64 {at}"));
        // The runtime writes a 32-lane warp's mask as the element's low `u32` only.
        if w == 64 {
            self.emit(format!("{mask} = load i64, ptr %slot.{arrived}"));
            return (vals, mask);
        }
        let m32 = self.t();
        self.emit(format!("{m32} = load i32, ptr %slot.{arrived}"));
        self.emit(format!("{mask} = zext i32 {m32} to i64"));
        (vals, mask)
    }
}
