//! Lane masks and the module's warp size (`.warp_size`, 32 or 64; see ARCHITECTURE.md
//! "Warp size").
//!
//! Every lane-mask operand (the `membermask` of `shfl.sync`, `vote.sync`, `bar.warp.sync`,
//! `match.sync`, `redux.sync`; the result of `activemask`, `vote.ballot` and `match`;
//! `%lanemask_*`) has as many bits as the module's warp. In the lowering a lane mask is an
//! `i64` whatever the width (the intrinsics' contract); this module reads and writes them
//! with the rules of SCALE's wave64 dialect (shared/seeds 002, "Lanemask inputs"):
//!
//! * in a 64-lane module a non-constant lane-mask operand narrower than 64 bits is an
//!   error (its upper lanes would silently be lost);
//! * a constant with no bit set above bit 31 in a 64-lane module is a warning (usually a
//!   hard-coded `0xffffffff` meant as "all lanes"), off with
//!   [`super::LowerOptions::lanemask_warnings`] (`PTX_LANEMASK_WARNINGS=0` on the CPU
//!   device);
//! * `-1` means all lanes at any width.
//!
//! In a 32-lane module lane masks are `.b32` operands as the PTX ISA defines them (a wider
//! register is truncated, PTX ISA 9.4.3).
//!
//! `WARP_SZ` (PTX ISA 4.6 "Predefined identifiers") is a constant equal to the warp size.
//! `exit` in a 64-lane module is only allowed in converged code (seed 002, "Divergent
//! exit"): the warp's remaining lanes must all execute it together, otherwise it traps.

use super::func::{FnLowerer, Local, R};
use super::types::bits;
use crate::diag::{self, Diagnostic};
use crate::ptx::ast::*;

/// The all-lanes mask of a warp of `warp_size` lanes, as an `i64` constant.
pub(crate) fn full_mask(warp_size: u32) -> &'static str {
    if warp_size == 64 {
        "-1"
    } else {
        "4294967295"
    }
}

/// Whether `name` is one of the `%lanemask_*` special registers (PTX ISA chapter 10, "Special Registers").
pub(crate) fn is_lanemask_sreg(name: &str) -> bool {
    matches!(name, "%lanemask_eq" | "%lanemask_lt" | "%lanemask_le" | "%lanemask_gt" | "%lanemask_ge")
}

/// An operand as it reads in PTX, for diagnostics.
fn operand_text(op: &Operand) -> String {
    match op {
        Operand::Ident { name, component: Some(c) } => format!("{name}.{c}"),
        Operand::Ident { name, component: None } => name.clone(),
        Operand::Imm(Immediate::Int(v)) if *v < 0 => v.to_string(),
        Operand::Imm(Immediate::Int(v)) => format!("{v:#x}"),
        Operand::Not(inner) => format!("!{}", operand_text(inner)),
        other => format!("{other:?}"),
    }
}

impl FnLowerer<'_> {
    /// `WARP_SZ` as a constant of type `ty`, unless the name is declared (it is not a
    /// reserved word).
    pub(crate) fn warp_constant(&mut self, name: &str, ty: ScalarType) -> Option<String> {
        (name == "WARP_SZ" && self.lookup(name).is_none() && !self.cx.symbols.contains_key(name))
            .then(|| super::module::imm_text(&Immediate::Int(self.cx.warp_size as i128), ty))
    }

    /// A `%lanemask_*` read as type `ty`: 64 bits in a 64-lane module, where a narrower
    /// instruction type is an error.
    pub(crate) fn lanemask_src(&mut self, name: &str, ty: ScalarType) -> R<String> {
        if self.cx.warp_size == 64 && bits(ty) < 64 {
            return Err(Diagnostic::error(
                self.span,
                format!("{name} is a 64-bit lane mask in a 64-lane module, read here as a {}-bit value; use a 64-bit type", bits(ty)),
            )
            .with_snippet(name.to_string())
            .with_code(diag::LANEMASK));
        }
        let m = self.lanemask(name);
        Ok(self.convert(&m, ScalarType::U(64), ty, false))
    }

    /// The width in bits of a non-constant operand (register, special register, address).
    fn operand_bits(&self, op: &Operand) -> Option<u32> {
        match op {
            Operand::Ident { name, component } => match self.lookup(name) {
                Some(Local::Reg { ty, .. }) => Some(bits(*ty)),
                Some(Local::Mem { .. }) => Some(64),
                None if is_lanemask_sreg(name) => Some(self.cx.warp_size),
                None if name.starts_with('%') || component.is_some() => Some(32),
                None => Some(64),
            },
            _ => None,
        }
    }

    /// The lane-mask operand `op` of instruction `what` (absent: all lanes) as an `i64`,
    /// checked against the module's warp width (see the module docs).
    pub(crate) fn member_mask(&mut self, op: Option<&Operand>, what: &str) -> R<String> {
        let w = self.cx.warp_size;
        let Some(op) = op else { return Ok("-1".into()) };
        if let Operand::Ident { name, .. } = op {
            if let Some(v) = self.warp_constant(name, ScalarType::B(64)) {
                return Ok(v);
            }
        }
        if let Operand::Imm(Immediate::Int(v)) = op {
            let bits64 = *v as u64;
            if w == 64 && *v != -1 && bits64 >> 32 == 0 && self.cx.options.lanemask_warnings {
                self.cx.warnings.lock().unwrap_or_else(|e| e.into_inner()).push(
                    Diagnostic::warning(
                        self.span,
                        format!(
                            "constant lane mask {} of '{what}' names no lane above 31 in a 64-lane module; write -1 for all lanes (PTX_LANEMASK_WARNINGS=0 turns this warning off)",
                            operand_text(op)
                        ),
                    )
                    .with_snippet(operand_text(op))
                    .with_code(diag::LANEMASK),
                );
            }
            let v = if w == 64 { bits64 as i64 } else { bits64 as u32 as i64 };
            return Ok(v.to_string());
        }
        if w == 64 {
            if let Some(b) = self.operand_bits(op).filter(|&b| b < 64) {
                return Err(Diagnostic::error(
                    self.span,
                    format!(
                        "the lane-mask operand of '{what}' is the {b}-bit value {}; lane masks have 64 bits in a 64-lane module",
                        operand_text(op)
                    ),
                )
                .with_snippet(operand_text(op))
                .with_code(diag::LANEMASK));
            }
            return self.src(op, ScalarType::B(64));
        }
        let m = self.src(op, ScalarType::B(32))?;
        let t = self.t();
        self.emit(format!("{t} = zext i32 {m} to i64"));
        Ok(t)
    }

    /// Write the lane mask `v` (an `i64`) to the destination `op` of instruction `what`:
    /// as a `.b32` in a 32-lane module; in a 64-lane module a narrower register is an error.
    pub(crate) fn mask_dst(&mut self, op: &Operand, v: &str, what: &str) -> R<()> {
        if self.cx.warp_size == 64 {
            if let Some(b) = self.operand_bits(op).filter(|&b| b < 64) {
                return Err(Diagnostic::error(
                    self.span,
                    format!(
                        "the lane-mask result of '{what}' goes to the {b}-bit register {}; lane masks have 64 bits in a 64-lane module",
                        operand_text(op)
                    ),
                )
                .with_snippet(operand_text(op))
                .with_code(diag::LANEMASK));
            }
            return self.dst(op, ScalarType::B(64), v);
        }
        let t = self.t();
        self.emit(format!("{t} = trunc i64 {v} to i32"));
        self.dst(op, ScalarType::B(32), &t)
    }

    /// `exit` in a 64-lane module: ends the thread when every remaining lane of its warp
    /// executes it together (its active mask is the warp's existing lanes), else traps.
    pub(crate) fn converged_exit(&mut self) -> R<()> {
        let site = self.site();
        let active = self.intrinsic("__ptx_activemask", &format!("i32 {site}"));
        let [nx, ny, nz] = ["x", "y", "z"].map(|c| self.intrinsic(&format!("__ptx_sreg_ntid_{c}"), ""));
        let warp = self.intrinsic("__ptx_sreg_warpid", "");
        let op = |l: &mut Self, text: String| {
            let t = l.t();
            l.emit(format!("{t} = {text}"));
            t
        };
        // Lanes of this warp that exist: min(64, threads in the block - first lane's id).
        let nxy = op(self, format!("mul i32 {nx}, {ny}"));
        let n = op(self, format!("mul i32 {nxy}, {nz}"));
        let first = op(self, format!("mul i32 {warp}, 64"));
        let lanes = op(self, format!("sub i32 {n}, {first}"));
        let whole = op(self, format!("icmp uge i32 {lanes}, 64"));
        let lanes64 = op(self, format!("zext i32 {lanes} to i64"));
        let bit = op(self, format!("shl i64 1, {lanes64}"));
        let part = op(self, format!("sub i64 {bit}, 1"));
        let existing = op(self, format!("select i1 {whole}, i64 -1, i64 {part}"));
        let converged = op(self, format!("icmp eq i64 {active}, {existing}"));
        let (ok, diverged) = (self.new_block("exit"), self.new_block("divergent_exit"));
        self.emit_terminator(format!("br i1 {}, label %{ok}, label %{diverged}", converged));
        self.start_block(&diverged);
        self.intrinsic("__ptx_trap", "");
        let ret = self.ret_exit();
        self.emit_terminator(ret);
        self.start_block(&ok);
        let ret = self.ret_exit();
        self.emit_terminator(ret);
        Ok(())
    }
}

/// The lane-mask diagnostics of a PTX module: what loading it would report about lane-mask
/// widths (errors, and with `warnings` the constant-mask warnings), for front-ends that
/// produce PTX (our NVRTC) and want to report them at compile time. Other problems of the
/// module are not this function's business and are left out.
pub fn lane_mask_diagnostics(ptx: &str, warnings: bool) -> Vec<Diagnostic> {
    let Some(ast) = crate::ptx::parse(ptx).ok() else { return Vec::new() };
    let options = super::LowerOptions { lanemask_warnings: warnings };
    let diags = match super::lower_module_with(&ast, &crate::target::host::HostTarget, &options) {
        Ok(m) => m.warnings,
        Err(e) => e,
    };
    diags.into_iter().filter(|d| d.code == Some(diag::LANEMASK)).collect()
}
