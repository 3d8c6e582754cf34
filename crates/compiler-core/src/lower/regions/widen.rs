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
use crate::lower::types::{bits, size_of, storage, Mods};
use crate::ptx::ast::*;
use std::collections::HashMap;
use std::fmt::Write;

/// Threads per wide strip. 16 lanes of 32 bits read a whole cache line per load (two of
/// the 256-bit vectors the host target prefers); the tree sum benchmark ran about 6%
/// faster than with 8.
pub const LANES: u32 = 8;

/// Wide strips per module, handed out kernel by kernel in module order (as dense loops
/// are, `dense`): each costs about 7 ms of compile time on the 2-core test machine,
/// and `template_heavy.ptx` (120 eligible loops) compiled 17% slower with all of them.
pub const WIDE_STRIPS_PER_MODULE: u32 = 16;

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

/// Register operands of a supported instruction must be scalar registers of 32 or 64
/// bits (or predicates) whose width is the instruction's.
fn instruction_supported(i: &Instruction, regs: &HashMap<String, ScalarType>, remat: bool) -> bool {
    let m = Mods::new(&i.modifiers);
    let Some(&ty) = m.types.first() else { return false };
    let word = |t: ScalarType| matches!(bits(t), 32 | 64) || t == ScalarType::Pred;
    if !m.types.iter().all(|&t| word(t) && !matches!(t, ScalarType::F16x2 | ScalarType::BF16x2)) {
        return false;
    }
    let int = matches!(ty, ScalarType::B(_) | ScalarType::U(_) | ScalarType::S(_));
    let float = matches!(ty, ScalarType::F32 | ScalarType::F64);
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
    match i.opcode.as_str() {
        "mov" => i.operands.len() == 2 && only(&[]),
        "add" | "sub" => (int && only(&[])) || (float && only(&[".rn"])),
        "mul" => (int && (only(&[".lo"]) || (only(&[".wide"]) && bits(ty) == 32))) || (float && only(&[".rn"])),
        "mad" => int && (only(&[".lo"]) || (only(&[".wide"]) && bits(ty) == 32)),
        "fma" => float && only(&[".rn"]) && m.has(".rn"),
        "and" | "or" | "xor" | "not" => (int || ty == ScalarType::Pred) && only(&[]),
        "neg" => (int || float) && only(&[]),
        "shl" | "shr" => int && only(&[]),
        "min" | "max" => int && only(&[]),
        "setp" => i.operands.len() == 3 && m.flags.len() == 1 && compare(m.flags[0], ty).is_some(),
        "selp" => i.operands.len() == 4 && only(&[]),
        "cvt" => m.types.len() == 2 && m.types.iter().all(|t| matches!(t, ScalarType::B(_) | ScalarType::U(_) | ScalarType::S(_))) && only(&[]),
        "cvta" => ty == ScalarType::U(64) && (only(&[".to", ".global"]) && m.has(".global")),
        "ld" | "st" => {
            let value_ok = matches!(i.operands.get(if i.opcode == "ld" { 0 } else { 1 }), Some(Operand::Ident { .. } | Operand::Imm(_)));
            let param = remat && i.opcode == "ld" && m.space() == Some(StateSpace::Param) && only(&[".param"]);
            value_ok && ty != ScalarType::Pred && (param || only(WEAK_HINTS))
        }
        _ => false,
    }
}

/// The LLVM comparison of PTX `setp` operator `op` on type `ty` (PTX ISA 9.7.3.1 and
/// 9.7.4.1: float operators without a `u` are ordered).
fn compare(op: &str, ty: ScalarType) -> Option<&'static str> {
    Some(match ty {
        ScalarType::F32 | ScalarType::F64 => match op {
            ".eq" => "fcmp oeq",
            ".ne" => "fcmp one",
            ".lt" => "fcmp olt",
            ".le" => "fcmp ole",
            ".gt" => "fcmp ogt",
            ".ge" => "fcmp oge",
            ".equ" => "fcmp ueq",
            ".neu" => "fcmp une",
            ".ltu" => "fcmp ult",
            ".leu" => "fcmp ule",
            ".gtu" => "fcmp ugt",
            ".geu" => "fcmp uge",
            ".num" => "fcmp ord",
            ".nan" => "fcmp uno",
            _ => return None,
        },
        ScalarType::S(_) => match op {
            ".eq" => "icmp eq",
            ".ne" => "icmp ne",
            ".lt" => "icmp slt",
            ".le" => "icmp sle",
            ".gt" => "icmp sgt",
            ".ge" => "icmp sge",
            ".lo" => "icmp ult",
            ".ls" => "icmp ule",
            ".hi" => "icmp ugt",
            ".hs" => "icmp uge",
            _ => return None,
        },
        ScalarType::U(_) | ScalarType::B(_) => match op {
            ".eq" => "icmp eq",
            ".ne" => "icmp ne",
            ".lt" | ".lo" => "icmp ult",
            ".le" | ".ls" => "icmp ule",
            ".gt" | ".hi" => "icmp ugt",
            ".ge" | ".hs" => "icmp uge",
            _ => return None,
        },
        _ => return None,
    })
}

/// The vector type of `ty`'s storage.
fn vt(ty: ScalarType) -> String {
    format!("<{LANES} x {}>", storage(ty))
}

/// A vector constant with every lane `elem` (typed text such as `i32 4`).
fn splat_const(elem: &str) -> String {
    let lanes: Vec<&str> = (0..LANES).map(|_| elem).collect();
    format!("<{}>", lanes.join(", "))
}

/// Emits `k.wstrip.S` for the lockstep head `state` of kernel `f` (see the module docs):
/// `void (ptr ctx, ptr params, ptr save, i64 nthreads, i64 t0, i32 x0, ptr states)` runs
/// threads `t0 .. t0 + LANES` (one row, `%tid.x = x0 + lane`, all in state `state`) and
/// writes their next states to `states[0 .. LANES]`. The dispatching loop has stored
/// `x0`, `%tid.y` and `%tid.z` into the context.
pub(crate) fn emit(cx: &ModuleCx, f: &Function, plan: &RegionPlan, state: usize, strip: &WideStrip, out: &mut String) -> Result<(), String> {
    let sig = crate::lower::func::kernel_signature(f, cx.warp_size);
    let params: HashMap<&str, u64> = f.params.iter().zip(&sig.params).map(|(p, &(off, _))| (p.name.as_str(), off as u64)).collect();
    let mut w = Wide { cx, regs: &plan.regs, params, allocas: HashMap::new(), prelude: String::new(), body: String::new(), tmp: 0 };
    let slot_of = |name: &str| plan.slots.iter().find(|s| s.name == name).ok_or_else(|| format!("no save slot for {name}"));
    // Restore what the head state restores, then recompute the rest.
    let mut restore = String::new();
    for name in &plan.live_after[state - 1] {
        let slot = slot_of(name)?;
        let ty = *plan.regs.get(name).ok_or_else(|| format!("undeclared register {name}"))?;
        let (ptr, _) = w.reg(name)?;
        let (at, v) = (w.t(), w.t());
        let _ = writeln!(
            restore,
            "  {at} = getelementptr i8, ptr %save, i64 {}\n  {v} = load {}, ptr {at}, align {}\n  store {} {v}, ptr {ptr}",
            w.slot_offset(slot.prefix, slot.size),
            vt(ty),
            size_of(ty),
            vt(ty)
        );
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
        w.emit(format!("{t} = xor <{LANES} x i1> {again}, {}", splat_const("i1 true")));
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
        let slot = slot_of(name)?;
        let ty = plan.regs[name.as_str()];
        let (ptr, _) = w.reg(name)?;
        let (at, v) = (w.t(), w.t());
        let _ = writeln!(
            save,
            "  {at} = getelementptr i8, ptr %save, i64 {}\n  {v} = load {}, ptr {ptr}\n  store {} {v}, ptr {at}, align {}",
            w.slot_offset(slot.prefix, slot.size),
            vt(ty),
            vt(ty),
            size_of(ty)
        );
    }
    let k = super::iterations_per_pause();
    let name = crate::lower::ll_global(&format!("{}.wstrip.{state}", f.name));
    let allocas: String = {
        let mut v: Vec<(&String, &(String, ScalarType))> = w.allocas.iter().collect();
        v.sort_by(|a, b| a.1 .0.cmp(&b.1 .0));
        v.iter().map(|(_, (ptr, ty))| format!("  {ptr} = alloca {}, align {}\n", vt(*ty), size_of(*ty) * u64::from(LANES))).collect()
    };
    let lane_ids: Vec<String> = (0..LANES).map(|l| format!("i32 {l}")).collect();
    let _ = write!(
        out,
        r#"define internal void {name}(ptr %ctx, ptr %params, ptr %save, i64 %nthreads, i64 %t0, i32 %x0, ptr %states) alwaysinline {{
entry:
  %shared = call ptr @__ptx_shared_base(ptr %ctx)
  %x0.v = insertelement <{LANES} x i32> poison, i32 %x0, i64 0
  %x0.s = shufflevector <{LANES} x i32> %x0.v, <{LANES} x i32> poison, <{LANES} x i32> zeroinitializer
  %tid.x = add <{LANES} x i32> %x0.s, <{lanes}>
  %all.lanes = icmp eq <{LANES} x i32> zeroinitializer, zeroinitializer
{allocas}{prelude}{restore}{remat}  br label %iter
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
        lanes = lane_ids.join(", "),
        prelude = w.prelude,
        head = splat_const(&format!("i32 {state}")),
        exit = splat_const(&format!("i32 {}", strip.exit_state)),
    );
    Ok(())
}

/// The vector emitter of one wide strip: registers live in `<LANES x T>` allocas.
struct Wide<'a> {
    cx: &'a ModuleCx<'a>,
    regs: &'a HashMap<String, ScalarType>,
    params: HashMap<&'a str, u64>,
    /// Register name -> (alloca, type).
    allocas: HashMap<String, (String, ScalarType)>,
    /// Entry-block code computed once (uniform values).
    prelude: String,
    body: String,
    tmp: u32,
}

type W<T> = Result<T, String>;

impl Wide<'_> {
    fn t(&mut self) -> String {
        self.tmp += 1;
        format!("%w{}", self.tmp)
    }

    fn emit(&mut self, line: impl AsRef<str>) {
        let _ = writeln!(self.body, "  {}", line.as_ref());
    }

    /// Byte offset of thread `t0`'s element of the save-area array at `prefix` (an SSA
    /// value emitted into the prelude).
    fn slot_offset(&mut self, prefix: u64, size: u64) -> String {
        let (a, b, c) = (self.t(), self.t(), self.t());
        let _ = writeln!(self.prelude, "  {a} = mul i64 %nthreads, {prefix}\n  {b} = mul i64 %t0, {size}\n  {c} = add i64 {a}, {b}");
        c
    }

    /// The alloca of register `name` and its type.
    fn reg(&mut self, name: &str) -> W<(String, ScalarType)> {
        if let Some(r) = self.allocas.get(name) {
            return Ok(r.clone());
        }
        let ty = *self.regs.get(name).ok_or_else(|| format!("unknown register {name}"))?;
        let ptr = format!("%reg{}", self.allocas.len());
        self.allocas.insert(name.to_string(), (ptr.clone(), ty));
        Ok((ptr, ty))
    }

    /// `v` (lanes of `from`'s storage) as lanes of `to`'s storage: the same bits.
    fn same_bits(&mut self, v: String, from: ScalarType, to: ScalarType) -> W<String> {
        if storage(from) == storage(to) {
            return Ok(v);
        }
        if bits(from) != bits(to) || from == ScalarType::Pred || to == ScalarType::Pred {
            return Err(format!("register of type {from:?} used as {to:?}"));
        }
        let t = self.t();
        self.emit(format!("{t} = bitcast {} {v} to {}", vt(from), vt(to)));
        Ok(t)
    }

    /// `v` as a named value (a constant vector is copied into one).
    fn named(&mut self, v: String, ty: ScalarType) -> String {
        if !v.starts_with('<') {
            return v;
        }
        let t = self.t();
        self.emit(format!("{t} = shufflevector {} {v}, {} poison, <{LANES} x i32> zeroinitializer", vt(ty), vt(ty)));
        t
    }

    /// A scalar value broadcast to every lane.
    fn splat(&mut self, v: &str, ty: ScalarType) -> String {
        let (a, b) = (self.t(), self.t());
        let st = storage(ty);
        self.emit(format!("{a} = insertelement {} poison, {st} {v}, i64 0", vt(ty)));
        self.emit(format!("{b} = shufflevector {} {a}, {} poison, <{LANES} x i32> zeroinitializer", vt(ty), vt(ty)));
        b
    }

    /// Source operand `op` read as lanes of type `ty`.
    fn read(&mut self, op: &Operand, ty: ScalarType) -> W<String> {
        match op {
            Operand::Imm(imm) => {
                let e = crate::lower::module::imm_text(imm, ty);
                Ok(splat_const(&format!("{} {e}", storage(ty))))
            }
            Operand::Ident { name, component } => {
                if self.regs.contains_key(name) && component.is_none() {
                    let (ptr, rty) = self.reg(name)?;
                    let t = self.t();
                    self.emit(format!("{t} = load {}, ptr {ptr}", vt(rty)));
                    return self.same_bits(t, rty, ty);
                }
                if let Some(c) = component {
                    let v = match (name.as_str(), c) {
                        ("%tid", 'x') => "%tid.x".to_string(),
                        ("%tid" | "%ntid" | "%ctaid" | "%nctaid", 'x' | 'y' | 'z') => {
                            let t = self.t();
                            self.emit(format!("{t} = call i32 @__ptx_sreg_{}_{c}(ptr %ctx)", &name[1..]));
                            self.splat(&t, ScalarType::U(32))
                        }
                        _ => return Err(format!("special register {name}.{c}")),
                    };
                    return self.same_bits(v, ScalarType::U(32), ty);
                }
                self.symbol(name, 0, ty)
            }
            Operand::SymbolOffset { symbol, offset } => self.symbol(symbol, *offset, ty),
            _ => Err(format!("operand {op:?}")),
        }
    }

    /// The address of module symbol `name` plus `offset`, in every lane.
    fn symbol(&mut self, name: &str, offset: i64, ty: ScalarType) -> W<String> {
        if bits(ty) != 64 && !matches!(self.cx.symbols.get(name), Some(crate::lower::module::Symbol::Shared { .. })) {
            return Err(format!("address of {name} as {ty:?}"));
        }
        let v = match self.cx.symbols.get(name) {
            Some(crate::lower::module::Symbol::Shared { offset: base }) => (*base as i64 + offset).to_string(),
            Some(crate::lower::module::Symbol::Global { ll }) | Some(crate::lower::module::Symbol::Function { ll }) => {
                let (a, b) = (self.t(), self.t());
                self.emit(format!("{a} = ptrtoint ptr {ll} to i64"));
                self.emit(format!("{b} = add i64 {a}, {offset}"));
                b
            }
            None => return Err(format!("unknown symbol {name}")),
        };
        let v = if bits(ty) == 64 {
            v
        } else {
            let t = self.t();
            self.emit(format!("{t} = trunc i64 {v} to i{}", bits(ty)));
            t
        };
        Ok(self.splat(&v, ScalarType::U(bits(ty))))
    }

    /// Write lanes `v` of type `ty` to register operand `op`.
    fn write(&mut self, op: &Operand, ty: ScalarType, v: String) -> W<()> {
        match op {
            Operand::Sink => Ok(()),
            Operand::Ident { name, component: None } if self.regs.contains_key(name) => {
                let (ptr, rty) = self.reg(name)?;
                let v = self.same_bits(v, ty, rty)?;
                self.emit(format!("store {} {v}, ptr {ptr}", vt(rty)));
                Ok(())
            }
            _ => Err(format!("destination {op:?}")),
        }
    }

    fn instruction(&mut self, i: &Instruction) -> W<()> {
        let m = Mods::new(&i.modifiers);
        let ty = *m.types.first().ok_or("no type")?;
        let ops = &i.operands;
        let n = bits(ty);
        let vty = vt(ty);
        let op = |k: usize| ops.get(k).ok_or_else(|| format!("{} needs {} operands", i.opcode, k + 1));
        let float = matches!(ty, ScalarType::F32 | ScalarType::F64);
        match i.opcode.as_str() {
            "mov" => {
                let v = self.read(op(1)?, ty)?;
                self.write(op(0)?, ty, v)
            }
            "add" | "sub" | "and" | "or" | "xor" => {
                let (a, b) = (self.read(op(1)?, ty)?, self.read(op(2)?, ty)?);
                let inst = match (i.opcode.as_str(), float) {
                    ("add", true) => "fadd",
                    ("sub", true) => "fsub",
                    (o, _) => o,
                };
                let t = self.t();
                self.emit(format!("{t} = {inst} {vty} {a}, {b}"));
                self.write(op(0)?, ty, t)
            }
            "not" => {
                let a = self.read(op(1)?, ty)?;
                let t = self.t();
                let ones = if ty == ScalarType::Pred { "i1 true".to_string() } else { format!("i{n} -1") };
                self.emit(format!("{t} = xor {vty} {a}, {}", splat_const(&ones)));
                self.write(op(0)?, ty, t)
            }
            "neg" => {
                let a = self.read(op(1)?, ty)?;
                let t = self.t();
                if float {
                    self.emit(format!("{t} = fneg {vty} {a}"));
                } else {
                    self.emit(format!("{t} = sub {vty} zeroinitializer, {a}"));
                }
                self.write(op(0)?, ty, t)
            }
            "mul" | "mad" => {
                let wide = m.has(".wide");
                let (a, b) = (self.read(op(1)?, ty)?, self.read(op(2)?, ty)?);
                let (a, b, rty) = if wide {
                    let ext = if matches!(ty, ScalarType::S(_)) { "sext" } else { "zext" };
                    let (x, y) = (self.t(), self.t());
                    self.emit(format!("{x} = {ext} {vty} {a} to <{LANES} x i64>"));
                    self.emit(format!("{y} = {ext} {vty} {b} to <{LANES} x i64>"));
                    (x, y, if matches!(ty, ScalarType::S(_)) { ScalarType::S(64) } else { ScalarType::U(64) })
                } else {
                    (a, b, ty)
                };
                let rv = vt(rty);
                let t = self.t();
                self.emit(format!("{t} = {} {rv} {a}, {b}", if float { "fmul" } else { "mul" }));
                let t = if i.opcode == "mad" {
                    let c = self.read(op(3)?, rty)?;
                    let s = self.t();
                    self.emit(format!("{s} = add {rv} {t}, {c}"));
                    s
                } else {
                    t
                };
                self.write(op(0)?, rty, t)
            }
            "fma" => {
                let (a, b, c) = (self.read(op(1)?, ty)?, self.read(op(2)?, ty)?, self.read(op(3)?, ty)?);
                // Call arguments must be named values (`intrinsic_declarations` reads
                // their types off the call).
                let (a, b, c) = (self.named(a, ty), self.named(b, ty), self.named(c, ty));
                let t = self.t();
                let sfx = if ty == ScalarType::F32 { "f32" } else { "f64" };
                self.emit(format!("{t} = call {vty} @llvm.fma.v{LANES}{sfx}({vty} {a}, {vty} {b}, {vty} {c})"));
                self.write(op(0)?, ty, t)
            }
            "min" | "max" => {
                let (a, b) = (self.read(op(1)?, ty)?, self.read(op(2)?, ty)?);
                let signed = matches!(ty, ScalarType::S(_));
                let cmp = match (i.opcode.as_str(), signed) {
                    ("min", true) => "slt",
                    ("min", false) => "ult",
                    ("max", true) => "sgt",
                    _ => "ugt",
                };
                let (c, t) = (self.t(), self.t());
                self.emit(format!("{c} = icmp {cmp} {vty} {a}, {b}"));
                self.emit(format!("{t} = select <{LANES} x i1> {c}, {vty} {a}, {vty} {b}"));
                self.write(op(0)?, ty, t)
            }
            "shl" | "shr" => {
                // PTX ISA 9.7.8.7/8: the amount is a u32; amounts past the width shift
                // everything out (sign fill for `shr.s`).
                let a = self.read(op(1)?, ty)?;
                let amt = self.read(op(2)?, ScalarType::U(32))?;
                let amt = if n == 64 {
                    let t = self.t();
                    self.emit(format!("{t} = zext <{LANES} x i32> {amt} to {vty}"));
                    t
                } else {
                    amt
                };
                let (big, clamped, t) = (self.t(), self.t(), self.t());
                self.emit(format!("{big} = icmp ugt {vty} {amt}, {}", splat_const(&format!("i{n} {}", n - 1))));
                self.emit(format!("{clamped} = select <{LANES} x i1> {big}, {vty} {}, {vty} {amt}", splat_const(&format!("i{n} {}", n - 1))));
                let inst = match (i.opcode.as_str(), ty) {
                    ("shl", _) => "shl",
                    (_, ScalarType::S(_)) => "ashr",
                    _ => "lshr",
                };
                self.emit(format!("{t} = {inst} {vty} {a}, {clamped}"));
                let r = if inst == "ashr" {
                    t
                } else {
                    let z = self.t();
                    self.emit(format!("{z} = select <{LANES} x i1> {big}, {vty} zeroinitializer, {vty} {t}"));
                    z
                };
                self.write(op(0)?, ty, r)
            }
            "setp" => {
                let cmp = compare(m.flags[0], ty).ok_or("setp operator")?;
                let (a, b) = (self.read(op(1)?, ty)?, self.read(op(2)?, ty)?);
                let t = self.t();
                self.emit(format!("{t} = {cmp} {vty} {a}, {b}"));
                self.write(op(0)?, ScalarType::Pred, t)
            }
            "selp" => {
                let (a, b) = (self.read(op(1)?, ty)?, self.read(op(2)?, ty)?);
                let p = self.read(op(3)?, ScalarType::Pred)?;
                let t = self.t();
                self.emit(format!("{t} = select <{LANES} x i1> {p}, {vty} {a}, {vty} {b}"));
                self.write(op(0)?, ty, t)
            }
            "cvt" => {
                // Integer conversions (PTX ISA 9.7.9.21): widening extends by the source's
                // signedness, narrowing truncates.
                let (dt, st) = (m.types[0], m.types[1]);
                let a = self.read(op(1)?, st)?;
                let (dn, sn) = (bits(dt), bits(st));
                let v = if dn == sn {
                    a
                } else {
                    let t = self.t();
                    let inst = if dn < sn {
                        "trunc"
                    } else if matches!(st, ScalarType::S(_)) {
                        "sext"
                    } else {
                        "zext"
                    };
                    self.emit(format!("{t} = {inst} {} {a} to {}", vt(st), vt(dt)));
                    t
                };
                self.write(op(0)?, dt, v)
            }
            "cvta" => {
                // Global and generic addresses are the same numbers (`lower::memory`).
                let v = self.read(op(1)?, ty)?;
                self.write(op(0)?, ty, v)
            }
            "ld" if m.space() == Some(StateSpace::Param) => {
                let Operand::Address { base: AddressBase::Ident(p), offset } = op(1)? else { return Err("ld.param address".into()) };
                let off = self.params.get(p.as_str()).ok_or_else(|| format!("{p} is not a kernel parameter"))? + *offset as u64;
                let (at, v) = (self.t(), self.t());
                self.emit(format!("{at} = getelementptr i8, ptr %params, i64 {off}"));
                self.emit(format!("{v} = load {}, ptr {at}, align 1", storage(ty)));
                let s = self.splat(&v, ty);
                self.write(op(0)?, ty, s)
            }
            "ld" => {
                let (first, ptrs) = self.addresses(op(1)?, m.space(), size_of(ty))?;
                let (fast, slow, join) = (self.block("ld.fast"), self.block("ld.gather"), self.block("ld.join"));
                let (a, b, v) = (self.t(), self.t(), self.t());
                let align = size_of(ty);
                self.emit(format!("br i1 {first}, label %{fast}, label %{slow}"));
                self.label(&fast);
                self.emit(format!("{a} = load {vty}, ptr {ptrs}.0, align {align}"));
                self.emit(format!("br label %{join}"));
                self.label(&slow);
                self.emit(format!(
                    "{b} = call {vty} @llvm.masked.gather.v{LANES}{}.v{LANES}p0(<{LANES} x ptr> {ptrs}, i32 {align}, <{LANES} x i1> %all.lanes, {vty} poison)",
                    llvm_elem(ty)
                ));
                self.emit(format!("br label %{join}"));
                self.label(&join);
                self.emit(format!("{v} = phi {vty} [ {a}, %{fast} ], [ {b}, %{slow} ]"));
                self.write(op(0)?, ty, v)
            }
            "st" => {
                let v = self.read(op(1)?, ty)?;
                let (first, ptrs) = self.addresses(op(0)?, m.space(), size_of(ty))?;
                let (fast, slow, join) = (self.block("st.fast"), self.block("st.scatter"), self.block("st.join"));
                let align = size_of(ty);
                self.emit(format!("br i1 {first}, label %{fast}, label %{slow}"));
                self.label(&fast);
                self.emit(format!("store {vty} {v}, ptr {ptrs}.0, align {align}"));
                self.emit(format!("br label %{join}"));
                self.label(&slow);
                self.emit(format!(
                    "call void @llvm.masked.scatter.v{LANES}{}.v{LANES}p0({vty} {v}, <{LANES} x ptr> {ptrs}, i32 {align}, <{LANES} x i1> %all.lanes)",
                    llvm_elem(ty)
                ));
                self.emit(format!("br label %{join}"));
                self.label(&join);
                Ok(())
            }
            op => Err(format!("instruction {op}")),
        }
    }

    fn block(&mut self, hint: &str) -> String {
        self.tmp += 1;
        format!("{hint}{}", self.tmp)
    }

    fn label(&mut self, name: &str) {
        let _ = writeln!(self.body, "{name}:");
    }

    /// The lanes' pointers for address operand `op` of space `space` (global or
    /// generic) and accesses of `size` bytes: returns (whether the lanes' addresses are
    /// consecutive, the name `P` of the pointer vector, with `P.0` lane 0's pointer).
    fn addresses(&mut self, op: &Operand, space: Option<StateSpace>, size: u64) -> W<(String, String)> {
        let Operand::Address { base: AddressBase::Ident(r), offset } = op else { return Err("address form".into()) };
        let a = self.read(&Operand::Ident { name: r.clone(), component: None }, ScalarType::U(64))?;
        let a = if *offset != 0 {
            let t = self.t();
            self.emit(format!("{t} = add <{LANES} x i64> {a}, {}", splat_const(&format!("i64 {offset}"))));
            t
        } else {
            a
        };
        let a0 = self.t();
        self.emit(format!("{a0} = extractelement <{LANES} x i64> {a}, i64 0"));
        let a0s = self.splat(&a0, ScalarType::U(64));
        let (d, eq, all) = (self.t(), self.t(), self.t());
        let steps: Vec<String> = (0..u64::from(LANES)).map(|l| format!("i64 {}", l * size)).collect();
        self.emit(format!("{d} = sub <{LANES} x i64> {a}, {a0s}"));
        self.emit(format!("{eq} = icmp eq <{LANES} x i64> {d}, <{}>", steps.join(", ")));
        self.emit(format!("{all} = call i1 @llvm.vector.reduce.and.v{LANES}i1(<{LANES} x i1> {eq})"));
        let p = self.t();
        match space {
            Some(StateSpace::Global) => {
                // Regions run on the host only, where a global address is an offset from
                // one base (`__ptx_ptr_global`).
                let base = self.t();
                self.emit(format!("{base} = call ptr @__ptx_ptr_global(i64 0)"));
                self.emit(format!("{p} = getelementptr i8, ptr {base}, <{LANES} x i64> {a}"));
                self.emit(format!("{p}.0 = getelementptr i8, ptr {base}, i64 {a0}"));
            }
            None => {
                self.emit(format!("{p} = inttoptr <{LANES} x i64> {a} to <{LANES} x ptr>"));
                self.emit(format!("{p}.0 = inttoptr i64 {a0} to ptr"));
            }
            Some(s) => return Err(format!("{s:?} memory")),
        }
        Ok((all, p))
    }
}

/// The element suffix LLVM's overloaded intrinsics use for `ty`'s storage.
fn llvm_elem(ty: ScalarType) -> String {
    match ty {
        ScalarType::F32 => "f32".into(),
        ScalarType::F64 => "f64".into(),
        t => format!("i{}", bits(t)),
    }
}
