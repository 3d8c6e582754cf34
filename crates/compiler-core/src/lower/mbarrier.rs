//! `mbarrier` (PTX ISA 9.7.13.15): barrier objects in shared memory that count arrivals
//! phase by phase, and `cp.async.mbarrier.arrive` (PTX ISA 9.7.9.25.3.4).
//!
//! # The 64-bit object
//!
//! PTX leaves the layout of the `.b64` object (and of the phase-state token `arrive`
//! returns) opaque. Ours:
//!
//! | bits | field |
//! |---|---|
//! | 0..21 | pending arrival count of the current phase |
//! | 21..42 | expected arrival count (what the next phase starts with) |
//! | 42..63 | zero (no transaction count: `.expect_tx` forms are refused) |
//! | 63 | phase parity: 0 for phases 0, 2, 4..., 1 for phases 1, 3, ... |
//!
//! 21 bits hold the largest count PTX allows (2^20 - 1). The state token of
//! `mbarrier.arrive` is the object as it was *before* that arrival (PTX: the state "prior to
//! the arrive-on operation"), so `mbarrier.pending_count` of a token is the pending count
//! the arriving thread saw, its own arrival included, and a wait on a token waits for the
//! completion of the phase the thread arrived in (its parity differs from the current).
//!
//! # Operations
//!
//! Arrivals are a compare-and-swap loop on the whole word (blocks run on several OS
//! threads; the threads of one block may be fibers on one): the arrival that brings the
//! pending count to zero flips the parity and reloads the pending count from the expected
//! count in the same atomic step, so no arrival of the next phase can slip in between.
//! Arrivals release, waits acquire, which is the ordering PTX gives the default `.release` /
//! `.acquire` forms (the host strengthens every read-modify-write to `seq_cst` anyway).
//!
//! `test_wait` and `try_wait` test the phase once; when it is not complete they call the
//! target's spin-yield (`__ptx_nanosleep`), which on the CPU device lets the block's other
//! fibers run, then test again. A `test_wait` does not block in PTX, but a thread looping on
//! it would never let the arriving threads (fibers on the same OS thread) run otherwise; the
//! extra yield is invisible to the program. Kernels that wait on an mbarrier therefore run
//! as fibers ([`waits`] is part of `module::fiber_functions` and makes `regions::plan`
//! decline), never as thread loops or barrier regions, where a thread cannot wait for
//! another of its block.
//!
//! Not supported (a compile error says so): `.expect_tx`/`complete_tx` (sm_90 transaction
//! counts), `mbarrier.expect_tx`, `mbarrier.complete_tx`.

use super::func::{FnLowerer, R};
use super::types::Mods;
use crate::ptx::ast::*;
use crate::target::MemOrder;

/// Mask of one 21-bit count field.
const COUNT_MASK: u64 = (1 << 21) - 1;
/// Shift of the expected count.
const EXPECTED_SHIFT: u32 = 21;
/// The phase-parity bit, as LLVM spells an `i64` constant.
const PHASE_BIT: &str = "-9223372036854775808";

/// Whether `i` waits for other threads through an mbarrier (so its kernel must run as
/// fibers on the CPU device).
pub(crate) fn waits(i: &Instruction) -> bool {
    i.opcode == "mbarrier" && i.modifiers.iter().any(|m| m == ".test_wait" || m == ".try_wait")
}

/// The object that an mbarrier instruction's operand addresses: `.shared{::cta,::cluster}`
/// or generic (a cluster is one CTA here).
fn space(m: &Mods) -> Option<StateSpace> {
    m.space()
}

impl FnLowerer<'_> {
    /// `mbarrier.*` (PTX ISA 9.7.13.15.x).
    pub(crate) fn mbarrier(&mut self, i: &Instruction) -> R<()> {
        let m = Mods::new(&i.modifiers);
        let ops = &i.operands;
        let op = m.flags.first().copied().unwrap_or("");
        for f in [".expect_tx", ".complete_tx"] {
            if m.has(f) || op == f {
                return Err(
                    self.err(format!("mbarrier{}: transaction counts (sm_90 `{f}`) are not supported; arrival counts are", i.modifiers.concat()))
                );
            }
        }
        let u32t = ScalarType::U(32);
        match op {
            ".init" => {
                let ops = self.operands(ops, 2)?;
                let p = self.addr(&ops[0], space(&m))?;
                let c = self.src(&ops[1], u32t)?;
                let c64 = self.t();
                self.emit(format!("{c64} = zext i32 {c} to i64"));
                let c64 = self.mask_count(&c64);
                let e = self.t();
                self.emit(format!("{e} = shl i64 {c64}, {EXPECTED_SHIFT}"));
                let v = self.t();
                self.emit(format!("{v} = or i64 {e}, {c64}"));
                self.emit(format!("store atomic i64 {v}, ptr {p} release, align 8"));
                Ok(())
            }
            ".inval" => {
                let ops = self.operands(ops, 1)?;
                let p = self.addr(&ops[0], space(&m))?;
                self.emit(format!("store atomic i64 0, ptr {p} release, align 8"));
                Ok(())
            }
            ".arrive" | ".arrive_drop" => {
                if !(2..=3).contains(&ops.len()) {
                    return Err(self.err("mbarrier.arrive takes state, [addr]{, count}"));
                }
                let p = self.addr(&ops[1], space(&m))?;
                let count = match ops.get(2) {
                    Some(c) => {
                        let c = self.src(c, u32t)?;
                        let t = self.t();
                        self.emit(format!("{t} = zext i32 {c} to i64"));
                        t
                    }
                    None => "1".into(),
                };
                let old = self.mbarrier_arrive(&p, &count, op == ".arrive_drop");
                self.dst(&ops[0], ScalarType::B(64), &old)
            }
            ".test_wait" | ".try_wait" => {
                // try_wait's optional suspend-time hint only bounds how long it may block.
                if !(3..=4).contains(&ops.len()) || (op == ".test_wait" && ops.len() != 3) {
                    return Err(self.err(format!("mbarrier{} takes waitComplete, [addr], state|parity", i.modifiers.concat())));
                }
                let p = self.addr(&ops[1], space(&m))?;
                // The parity of the phase waited for, as an i64 0 or 1.
                let parity = if m.has(".parity") {
                    let v = self.src(&ops[2], u32t)?;
                    let (a, z) = (self.t(), self.t());
                    self.emit(format!("{a} = and i32 {v}, 1"));
                    self.emit(format!("{z} = zext i32 {a} to i64"));
                    z
                } else {
                    let v = self.src(&ops[2], ScalarType::B(64))?;
                    let t = self.t();
                    self.emit(format!("{t} = lshr i64 {v}, 63"));
                    t
                };
                self.uses_barrier = true;
                let done = self.mbarrier_phase_done(&p, &parity);
                let (fast, slow, cont) = (self.new_block("mbar_done"), self.new_block("mbar_yield"), self.new_block("mbar_cont"));
                self.emit_terminator(format!("br i1 {done}, label %{fast}, label %{slow}"));
                self.start_block(&fast);
                self.dst(&ops[0], ScalarType::Pred, "true")?;
                self.emit_terminator(format!("br label %{cont}"));
                self.start_block(&slow);
                self.intrinsic("__ptx_nanosleep", "i32 0");
                let again = self.mbarrier_phase_done(&p, &parity);
                self.dst(&ops[0], ScalarType::Pred, &again)?;
                self.emit_terminator(format!("br label %{cont}"));
                self.start_block(&cont);
                Ok(())
            }
            ".pending_count" => {
                let ops = self.operands(ops, 2)?;
                let s = self.src(&ops[1], ScalarType::B(64))?;
                let (a, t) = (self.t(), self.t());
                self.emit(format!("{a} = and i64 {s}, {COUNT_MASK}"));
                self.emit(format!("{t} = trunc i64 {a} to i32"));
                self.dst(&ops[0], u32t, &t)
            }
            _ => Err(self.err(format!("mbarrier{} is not supported", i.modifiers.concat()))),
        }
    }

    /// `cp.async.mbarrier.arrive{.noinc}{.shared{::cta}}.b64 [addr]`: an arrive-on that
    /// fires when the thread's earlier `cp.async` copies complete. Ours completed when they
    /// were issued, so the arrival happens now. Without `.noinc` the instruction first adds
    /// one to the pending count, which its own arrival takes back: nothing changes (and the
    /// phase cannot complete through it), so only the ordering remains.
    pub(crate) fn cp_async_mbarrier_arrive(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 1)?;
        let p = self.addr(&ops[0], space(m))?;
        if m.has(".noinc") {
            self.mbarrier_arrive(&p, "1", false);
        } else {
            self.emit("fence release".to_string());
        }
        Ok(())
    }

    /// `c` limited to the count field.
    fn mask_count(&mut self, c: &str) -> String {
        let t = self.t();
        self.emit(format!("{t} = and i64 {c}, {COUNT_MASK}"));
        t
    }

    /// An arrival of `count` (an i64) at the object at `p`; `drop` also lowers the
    /// expected count by `count` (`arrive_drop`). Returns the object before the arrival.
    fn mbarrier_arrive(&mut self, p: &str, count: &str, drop: bool) -> String {
        let (lp, done) = (self.new_block("mbar_arrive"), self.new_block("mbar_arrived"));
        self.emit_terminator(format!("br label %{lp}"));
        self.start_block(&lp);
        let cur = self.t();
        self.emit(format!("{cur} = load atomic i64, ptr {p} monotonic, align 8"));
        let pending = self.mask_count(&cur);
        let e = self.t();
        self.emit(format!("{e} = lshr i64 {cur}, {EXPECTED_SHIFT}"));
        let expected = self.mask_count(&e);
        let expected = if drop {
            let t = self.t();
            self.emit(format!("{t} = sub i64 {expected}, {count}"));
            self.mask_count(&t)
        } else {
            expected
        };
        let phase = self.t();
        self.emit(format!("{phase} = and i64 {cur}, {PHASE_BIT}"));
        let es = self.t();
        self.emit(format!("{es} = shl i64 {expected}, {EXPECTED_SHIFT}"));
        // This arrival completes the phase when it takes the last pending arrivals.
        let completes = self.t();
        self.emit(format!("{completes} = icmp ule i64 {pending}, {count}"));
        let (flipped, next_a, next) = (self.t(), self.t(), self.t());
        self.emit(format!("{flipped} = xor i64 {phase}, {PHASE_BIT}"));
        self.emit(format!("{next_a} = or i64 {flipped}, {es}"));
        self.emit(format!("{next} = or i64 {next_a}, {expected}"));
        let (left, same_a, same) = (self.t(), self.t(), self.t());
        self.emit(format!("{left} = sub i64 {pending}, {count}"));
        self.emit(format!("{same_a} = or i64 {phase}, {es}"));
        self.emit(format!("{same} = or i64 {same_a}, {left}"));
        let new = self.t();
        self.emit(format!("{new} = select i1 {completes}, i64 {next}, i64 {same}"));
        let ord = self.cx.target.rmw_ordering(MemOrder::Release);
        let sync = self.cx.target.sync_scope(crate::target::Scope::Cta);
        let pair = self.t();
        self.emit(format!("{pair} = cmpxchg ptr {p}, i64 {cur}, i64 {new}{sync} {} {}, align 8", ord.llvm(), ord.cmpxchg_failure().llvm()));
        let ok = self.t();
        self.emit(format!("{ok} = extractvalue {{ i64, i1 }} {pair}, 1"));
        self.emit_terminator(format!("br i1 {ok}, label %{done}, label %{lp}"));
        self.start_block(&done);
        cur
    }

    /// Whether the phase of parity `parity` (an i64 0 or 1) of the object at `p` has
    /// completed: the current phase has the other parity. An acquiring load.
    fn mbarrier_phase_done(&mut self, p: &str, parity: &str) -> String {
        let sync = self.cx.target.sync_scope(crate::target::Scope::Cta);
        let (cur, ph, done) = (self.t(), self.t(), self.t());
        self.emit(format!("{cur} = load atomic i64, ptr {p}{sync} acquire, align 8"));
        self.emit(format!("{ph} = lshr i64 {cur}, 63"));
        self.emit(format!("{done} = icmp ne i64 {ph}, {parity}"));
        done
    }
}

#[cfg(test)]
mod tests {
    use crate::target::amdgpu::{AmdgpuOptions, AmdgpuTarget};

    const HEADER: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

    /// `(kernel, body)`: what makes it wait, and whether it also has `bar.sync`.
    const KERNELS: &[(&str, &str)] = &[
        // Waits only: no block barrier, so it would otherwise be a thread loop.
        ("only_wait", "mbarrier.init.shared.b64 [b], 1;\n mbarrier.arrive.shared.b64 %rd1, [b];\nW:\n mbarrier.try_wait.shared.b64 %p1, [b], %rd1;\n @!%p1 bra W;"),
        // A block barrier too: it would otherwise be cut into barrier regions.
        ("with_bar", "mbarrier.init.shared.b64 [b], 1;\n bar.sync 0;\n mbarrier.arrive.shared.b64 %rd1, [b];\nW:\n mbarrier.test_wait.parity.shared.b64 %p1, [b], 0;\n @!%p1 bra W;\n bar.sync 0;"),
        // The wait is in a function it calls.
        ("calls_wait", "call waiter, ();"),
    ];

    fn module() -> String {
        let mut text = format!(
            "{HEADER}.shared .align 8 .b64 b;\n.func waiter()\n{{\n .reg .pred %p1;\nW:\n mbarrier.test_wait.parity.shared.b64 %p1, [b], 1;\n @!%p1 bra W;\n ret;\n}}\n"
        );
        for (name, body) in KERNELS {
            text.push_str(&format!(".visible .entry {name}()\n{{\n .reg .b64 %rd<2>;\n .reg .pred %p<2>;\n {body}\n ret;\n}}\n"));
        }
        text
    }

    /// Kernels that wait on an mbarrier run as fibers: not thread loops, not regions.
    #[test]
    fn waiting_kernels_run_as_fibers() {
        let m = crate::ptx::parser::parse(&module()).unwrap();
        let lowered = crate::lower::lower_module(&m).unwrap();
        for (name, _) in KERNELS {
            let k = lowered.kernels.iter().find(|k| k.name == *name).unwrap();
            assert!(k.uses_barrier && k.regions.is_none(), "{name}: {k:?}");
        }
    }

    /// The AMDGPU target lowers the same module (plain atomics and `__ptx_nanosleep`), and
    /// LLVM accepts the IR.
    #[test]
    fn amdgpu_lowers_mbarrier() {
        let m = crate::ptx::parser::parse(&module()).unwrap();
        let t = AmdgpuTarget::new(&AmdgpuOptions::new("gfx90a")).unwrap();
        let lowered = crate::lower::lower_module_for(&m, &t).unwrap();
        let ctx = inkwell::context::Context::create();
        let buf = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(lowered.ir.as_bytes(), "t");
        let module = ctx.create_module_from_ir(buf).unwrap_or_else(|e| panic!("{e}\n{}", lowered.ir));
        module.verify().unwrap();
    }
}
