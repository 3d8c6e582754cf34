//! `cp.async` (PTX ISA 9.7.9.25): copies from global to shared memory that complete
//! asynchronously, with `cp.async.commit_group`, `cp.async.wait_group N`,
//! `cp.async.wait_all` and `cp.async.mbarrier.arrive` (see `mbarrier`).
//!
//! # Why a synchronous copy is correct
//!
//! PTX makes the copy's writes visible to the issuing thread only after a
//! `cp.async.wait_group`/`wait_all` that covers it (or the completion of an mbarrier phase
//! it is tracked by), and leaves it undefined what a read of the destination, or a write to
//! the source or destination, sees before then. Performing the whole copy when the
//! instruction executes is one of the allowed executions: every later point already sees
//! it, so the waits have nothing left to wait for, and other threads see it through the
//! same barriers or mbarriers that order it on a GPU (those release and acquire). The
//! group instructions therefore emit nothing.
//!
//! # Forms
//!
//! `cp.async.ca.shared{::cta}.global{.L2::cache_hint}{.L2::prefetch_size} [dst], [src],
//! cp-size{, src-size | ignore-src}{, cache-policy};` and `.cg` (cp-size 16 only).
//! cp-size is 4, 8 or 16 bytes; the `cp-size - src-size` bytes after the first `src-size`
//! are zero-filled; a true `ignore-src` predicate fills all `cp-size` bytes with zeros.
//! Cache operators, hints and policies change nothing here. The bulk and tensor forms
//! (sm_90 `cp.async.bulk*`) are refused.

use super::func::{FnLowerer, Local, R};
use super::types::Mods;
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// `cp.*`: only the `cp.async` family exists.
    pub(crate) fn cp(&mut self, i: &Instruction) -> R<()> {
        let m = Mods::new(&i.modifiers);
        let spelled = format!("cp{}", i.modifiers.concat());
        if m.flags.first() != Some(&".async") {
            return Err(self.err(format!("'{spelled}' is not supported")));
        }
        if m.flags.iter().any(|f| f.starts_with(".bulk") || f.starts_with(".tensor")) {
            return Err(self.err(format!("'{spelled}': bulk and tensor copies (sm_90) are not supported")));
        }
        match m.flags.get(1).copied() {
            Some(".commit_group") | Some(".wait_group") | Some(".wait_all") => Ok(()),
            Some(".mbarrier") if m.has(".arrive") => self.cp_async_mbarrier_arrive(&m, &i.operands),
            Some(".ca") | Some(".cg") => self.cp_async(&m, &i.operands, &spelled),
            _ => Err(self.err(format!("'{spelled}' is not supported"))),
        }
    }

    fn cp_async(&mut self, m: &Mods, ops: &[Operand], spelled: &str) -> R<()> {
        // The last operand is a cache policy only with `.L2::cache_hint`.
        let ops = if m.has(".L2::cache_hint") { &ops[..ops.len().saturating_sub(1)] } else { ops };
        if !(3..=4).contains(&ops.len()) {
            return Err(self.err(format!("'{spelled}' takes [dst], [src], cp-size{{, src-size | ignore-src}}")));
        }
        let cp_size = match &ops[2] {
            Operand::Imm(Immediate::Int(n)) if matches!(n, 4 | 8 | 16) => *n as u64,
            _ => return Err(self.err(format!("'{spelled}': cp-size must be the constant 4, 8 or 16"))),
        };
        if m.has(".cg") && cp_size != 16 {
            return Err(self.err(format!("'{spelled}': .cg copies 16 bytes only")));
        }
        let dst = self.addr(&ops[0], Some(StateSpace::Shared))?;
        let src = self.addr(&ops[1], Some(StateSpace::Global))?;
        // How many bytes come from the source; the rest of cp-size are zeros.
        let n = match ops.get(3) {
            None => cp_size.to_string(),
            Some(Operand::Imm(Immediate::Int(k))) => (*k as u64).min(cp_size).to_string(),
            Some(o) if self.is_predicate(o) => {
                let p = self.src(o, ScalarType::Pred)?;
                let t = self.t();
                self.emit(format!("{t} = select i1 {p}, i64 0, i64 {cp_size}"));
                t
            }
            Some(o) => {
                let k = self.src(o, ScalarType::U(32))?;
                let (w, t) = (self.t(), self.t());
                self.emit(format!("{w} = zext i32 {k} to i64"));
                self.emit(format!("{t} = call i64 @llvm.umin.i64(i64 {w}, i64 {cp_size})"));
                t
            }
        };
        self.emit(format!("call void @llvm.memcpy.p0.p0.i64(ptr {dst}, ptr {src}, i64 {n}, i1 false)"));
        if n != cp_size.to_string() {
            let (rest, tail) = (self.t(), self.t());
            self.emit(format!("{rest} = sub i64 {cp_size}, {n}"));
            self.emit(format!("{tail} = getelementptr i8, ptr {dst}, i64 {n}"));
            self.emit(format!("call void @llvm.memset.p0.i64(ptr {tail}, i8 0, i64 {rest}, i1 false)"));
        }
        Ok(())
    }

    /// Whether operand `o` is a predicate (`ignore-src`) rather than a byte count.
    fn is_predicate(&self, o: &Operand) -> bool {
        match o {
            Operand::Not(_) => true,
            Operand::Ident { name, .. } => matches!(self.lookup(name), Some(Local::Reg { ty: ScalarType::Pred, .. })),
            _ => false,
        }
    }
}
