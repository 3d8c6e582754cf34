//! Selection: `selp` (by a predicate) and `slct` (by the sign of a third source).

use super::func::{FnLowerer, R};
use super::types::{storage, Mods};
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    pub(crate) fn selp(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let c = self.src(&ops[3], ScalarType::Pred)?;
        let st = storage(ty);
        let t = self.t();
        self.emit(format!("{t} = select i1 {c}, {st} {a}, {st} {b}"));
        self.dst(&ops[0], ty, &t)
    }

    /// `slct.dtype.stype d, a, b, c`: d = c >= 0 ? a : b.
    pub(crate) fn slct(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if m.types.len() < 2 {
            return Err(self.err("slct needs two types"));
        }
        let (dt, ct) = (m.types[0], m.types[1]);
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], dt)?;
        let b = self.src(&ops[2], dt)?;
        let c = self.src(&ops[3], ct)?;
        let c = self.ftz_in(&c, ct, m);
        let p = self.compare("ge", ct, &c, if ct == ScalarType::F32 { "0.0" } else { "0" })?;
        let st = storage(dt);
        let t = self.t();
        self.emit(format!("{t} = select i1 {p}, {st} {a}, {st} {b}"));
        self.dst(&ops[0], dt, &t)
    }
}
