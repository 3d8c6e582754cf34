//! Memory instructions: `ld`, `st`, `cvta`, `atom`/`red`, fences, and block barriers.
//!
//! Ordered accesses (`.relaxed`, `.acquire`, `.release`) become LLVM atomic loads and stores
//! and read-modify-writes carry their PTX ordering and scope; the target maps scopes to
//! `syncscope`s and may strengthen orderings (`Target::rmw_ordering`).

use super::func::{FnLowerer, R};
use super::intrinsics::{BARRIER_OP_AND, BARRIER_OP_ARRIVE, BARRIER_OP_OR, BARRIER_OP_POPC};
use super::types::{bits, is_float, is_signed, storage, value, Mods};
use crate::ptx::ast::*;
use crate::target::{MemOrder, Scope};

/// The scope an instruction names (PTX ISA 8.5); `.gpu` when it names none.
fn scope(m: &Mods) -> Scope {
    if m.has(".cta") {
        Scope::Cta
    } else if m.has(".cluster") {
        Scope::Cluster
    } else if m.has(".sys") {
        Scope::Sys
    } else {
        Scope::Gpu
    }
}

/// The ordering an instruction names, if any (`.relaxed`, `.acquire`, `.release`,
/// `.acq_rel`, `.sc`).
fn order(m: &Mods) -> Option<MemOrder> {
    m.flags.iter().find_map(|f| match *f {
        ".relaxed" => Some(MemOrder::Relaxed),
        ".acquire" => Some(MemOrder::Acquire),
        ".release" => Some(MemOrder::Release),
        ".acq_rel" => Some(MemOrder::AcqRel),
        ".sc" => Some(MemOrder::SeqCst),
        _ => None,
    })
}

/// Whether LLVM can load/store `st` atomically (a power-of-two size up to 8 bytes).
fn atomic_capable(st: &str) -> bool {
    matches!(st, "i8" | "i16" | "i32" | "i64" | "float" | "double")
}

impl FnLowerer<'_> {
    /// How a scalar access of `st` with modifiers `m` is spelled: `(prefix, suffix)` around
    /// `TYPE, ptr P` (`load atomic` + ` syncscope("..") acquire`, or `load volatile`).
    fn access_kind(&self, m: &Mods, st: &str, vector: bool) -> (&'static str, String) {
        match order(m) {
            Some(o) if !vector && atomic_capable(st) => (" atomic", format!("{} {}", self.cx.target.sync_scope(scope(m)), o.llvm())),
            Some(_) => (" volatile", String::new()),
            None if m.has(".volatile") || m.has(".mmio") => (" volatile", String::new()),
            None => ("", String::new()),
        }
    }

    pub(crate) fn ld(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let ptr = self.addr(&ops[1], m.space())?;
        let st = storage(super::int_width::in_memory(ty));
        let size = super::types::size_of(ty);
        let (kind, ordering) = self.access_kind(m, &st, matches!(ops[0], Operand::Vector(_)));
        match &ops[0] {
            Operand::Vector(parts) => {
                for (k, p) in parts.iter().enumerate() {
                    let e = self.t();
                    self.emit(format!("{e} = getelementptr i8, ptr {ptr}, i64 {}", size * k as u64));
                    let t = self.t();
                    self.emit(format!("{t} = load{kind} {st}, ptr {e}, align {size}"));
                    self.dst(p, ty, &t)?;
                }
                Ok(())
            }
            d => {
                // A non-standard integer width is read from its power-of-two container.
                let mem = super::int_width::in_memory(ty);
                let t = self.t();
                self.emit(format!("{t} = load{kind} {}, ptr {ptr}{ordering}, align {size}", storage(mem)));
                let v = self.convert(&t, mem, ty, false);
                self.dst(d, ty, &v)
            }
        }
    }

    pub(crate) fn st(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let ptr = self.addr(&ops[0], m.space())?;
        let st = storage(super::int_width::in_memory(ty));
        let size = super::types::size_of(ty);
        let (kind, ordering) = self.access_kind(m, &st, matches!(ops[1], Operand::Vector(_)));
        match &ops[1] {
            Operand::Vector(parts) => {
                for (k, p) in parts.iter().enumerate() {
                    if matches!(p, Operand::Sink) {
                        continue;
                    }
                    let v = self.src(p, ty)?;
                    let e = self.t();
                    self.emit(format!("{e} = getelementptr i8, ptr {ptr}, i64 {}", size * k as u64));
                    self.emit(format!("store{kind} {st} {v}, ptr {e}, align {size}"));
                }
                Ok(())
            }
            s => {
                // A non-standard integer width fills its power-of-two container, sign- or
                // zero-extended by its type.
                let mem = super::int_width::in_memory(ty);
                let v = self.src(s, ty)?;
                let v = self.convert(&v, ty, mem, super::types::is_signed(ty));
                self.emit(format!("store{kind} {} {v}, ptr {ptr}{ordering}, align {size}", storage(mem)));
                Ok(())
            }
        }
    }

    /// `cvta` (PTX ISA 9.7.9.17). Global, local, const and param addresses are host
    /// addresses already; shared addresses are offsets into the block's window.
    pub(crate) fn cvta(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let v = self.src(&ops[1], ty)?;
        if m.space() != Some(StateSpace::Shared) {
            return self.dst(&ops[0], ty, &v);
        }
        let w = bits(ty);
        let base = self.t();
        self.emit(format!("{base} = ptrtoint ptr %shared to i{w}"));
        let t = self.t();
        if m.has(".to") {
            self.emit(format!("{t} = sub i{w} {v}, {base}"));
        } else {
            self.emit(format!("{t} = add i{w} {v}, {base}"));
        }
        self.dst(&ops[0], ty, &t)
    }

    /// `isspacep.space p, a` (PTX ISA 9.7.9.20): whether generic address `a` lies in a state
    /// space's window. On the CPU device the shared window is the block's `%shared` buffer
    /// (`%total_smem_size` bytes), so `.shared` is exact. Local, constant and parameter
    /// memory are ordinary host memory with no window of their own: `.local`, `.const` and
    /// `.param` answer false and `.global` answers for every address outside the shared
    /// window. The safe side: NVIDIA's compilers test `.local` to route atomics on local
    /// memory to plain loads and stores, and on the CPU an atomic is right for either.
    pub(crate) fn isspacep(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 2)?;
        let space = m.space().ok_or_else(|| self.err("isspacep needs a state space"))?;
        let answer = match space {
            StateSpace::Shared | StateSpace::Global => {
                let a = self.src(&ops[1], ScalarType::U(64))?;
                let (base, size, wide, offset, inside) = (self.t(), self.intrinsic("__ptx_sreg_total_smem_size", ""), self.t(), self.t(), self.t());
                self.emit(format!("{base} = ptrtoint ptr %shared to i64"));
                self.emit(format!("{wide} = zext i32 {size} to i64"));
                self.emit(format!("{offset} = sub i64 {a}, {base}"));
                self.emit(format!("{inside} = icmp ult i64 {offset}, {wide}"));
                if space == StateSpace::Shared {
                    inside
                } else {
                    let outside = self.t();
                    self.emit(format!("{outside} = xor i1 {inside}, true"));
                    outside
                }
            }
            StateSpace::Local | StateSpace::Const | StateSpace::Param => "false".to_string(),
            _ => return Err(self.err("isspacep: not a state space with generic addresses")),
        };
        self.dst(&ops[0], ScalarType::Pred, &answer)
    }

    /// `atom`/`red` (PTX ISA 9.7.13.5/6): real atomics, with the instruction's ordering
    /// (`.relaxed` when it names none) and scope (`.gpu` when it names none).
    pub(crate) fn atom(&mut self, opcode: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let is_red = opcode == "red";
        let (dst, rest) = if is_red { (None, ops) } else { (ops.first(), ops.get(1..).unwrap_or(&[])) };
        if rest.len() < 2 {
            return Err(self.err("atom needs an address and a value"));
        }
        let ptr = self.addr(&rest[0], m.space())?;
        let st = storage(super::int_width::in_memory(ty));
        let size = super::types::size_of(ty);
        let op = m
            .flags
            .iter()
            .map(|f| &f[1..])
            .find(|f| matches!(*f, "add" | "min" | "max" | "inc" | "dec" | "and" | "or" | "xor" | "exch" | "cas"))
            .ok_or_else(|| self.err("missing atomic operation"))?;
        let b = self.src(&rest[1], ty)?;
        let t = self.t();
        let ord = self.cx.target.rmw_ordering(order(m).unwrap_or(MemOrder::Relaxed));
        let sync = self.cx.target.sync_scope(scope(m));
        if op == "cas" {
            let c = self.src(rest.get(2).ok_or_else(|| self.err("atom.cas needs 3 operands"))?, ty)?;
            let (bi, ci) = (self.as_int(&b, ty), self.as_int(&c, ty));
            let it = format!("i{}", bits(ty));
            let pair = self.t();
            self.emit(format!(
                "{pair} = cmpxchg ptr {ptr}, {it} {bi}, {it} {ci}{sync} {} {}, align {size}",
                ord.llvm(),
                ord.cmpxchg_failure().llvm()
            ));
            self.emit(format!("{t} = extractvalue {{ {it}, i1 }} {pair}, 0"));
            let r = self.convert(&t, ScalarType::B(bits(ty)), ty, false);
            if let Some(d) = dst {
                self.dst(d, ty, &r)?;
            }
            return Ok(());
        }
        // Float adds with PTX's rounding rules (f32 flushes subnormals, f16/bf16 round
        // once, lane by lane) as a compare-and-swap loop on the bits.
        if op == "add" && matches!(ty, ScalarType::F32 | ScalarType::F16 | ScalarType::BF16 | ScalarType::F16x2 | ScalarType::BF16x2) {
            let it = format!("i{}", bits(ty));
            let bi = self.as_int(&b, ty);
            let (lp, done) = (self.new_block("atom_cas"), self.new_block("atom_done"));
            self.emit_terminator(format!("br label %{lp}"));
            self.start_block(&lp);
            let cur = self.t();
            self.emit(format!("{cur} = load atomic {it}, ptr {ptr}{sync} monotonic, align {size}"));
            let new = self.float_add_bits(ty, m, &cur, &bi);
            let pair = self.t();
            self.emit(format!(
                "{pair} = cmpxchg ptr {ptr}, {it} {cur}, {it} {new}{sync} {} {}, align {size}",
                ord.llvm(),
                ord.cmpxchg_failure().llvm()
            ));
            let ok = self.t();
            self.emit(format!("{ok} = extractvalue {{ {it}, i1 }} {pair}, 1"));
            self.emit_terminator(format!("br i1 {ok}, label %{done}, label %{lp}"));
            self.start_block(&done);
            if let Some(d) = dst {
                let r = self.bitcast(&cur, &it, &st);
                self.dst(d, ty, &r)?;
            }
            return Ok(());
        }
        let rmw = match (op, is_float(ty), is_signed(ty)) {
            ("add", true, _) => "fadd",
            ("add", false, _) => "add",
            ("min", true, _) => "fmin",
            ("max", true, _) => "fmax",
            ("min", false, true) => "min",
            ("min", false, false) => "umin",
            ("max", false, true) => "max",
            ("max", false, false) => "umax",
            ("inc", _, _) => "uinc_wrap",
            ("dec", _, _) => "udec_wrap",
            ("and", _, _) => "and",
            ("or", _, _) => "or",
            ("xor", _, _) => "xor",
            ("exch", true, _) => "xchg",
            ("exch", false, _) => "xchg",
            _ => return Err(self.err(format!("atom.{op} is not supported for this type"))),
        };
        let vt = if is_float(ty) { value(ty) } else { st.clone() };
        let bv = if is_float(ty) { self.as_value(&b, ty) } else { b };
        self.emit(format!("{t} = atomicrmw {rmw} ptr {ptr}, {vt} {bv}{sync} {}, align {size}", ord.llvm()));
        if let Some(d) = dst {
            let r = if is_float(ty) { self.from_value(&t, ty) } else { t };
            self.dst(d, ty, &r)?;
        }
        Ok(())
    }

    /// The bits of `x + y` for the float type `ty`, both given as integer bits.
    fn float_add_bits(&mut self, ty: ScalarType, m: &Mods, x: &str, y: &str) -> String {
        if ty == ScalarType::F32 {
            let (fx, fy) = (self.bitcast(x, "i32", "float"), self.bitcast(y, "i32", "float"));
            let (fx, fy) = (self.flush_f32(&fx), self.flush_f32(&fy));
            let s = self.t();
            self.emit(format!("{s} = fadd float {fx}, {fy}"));
            let s = self.flush_f32(&s);
            return self.bitcast(&s, "float", "i32");
        }
        let bf = matches!(ty, ScalarType::BF16 | ScalarType::BF16x2);
        if bits(ty) == 16 {
            return self.half_lane_pub("add", bf, m, &[x.to_string(), y.to_string()]);
        }
        let mut halves = Vec::new();
        for sh in [0, 16] {
            let (a, b) = (self.t(), self.t());
            self.emit(format!("{a} = lshr i32 {x}, {sh}"));
            self.emit(format!("{b} = lshr i32 {y}, {sh}"));
            let (a16, b16) = (self.t(), self.t());
            self.emit(format!("{a16} = trunc i32 {a} to i16"));
            self.emit(format!("{b16} = trunc i32 {b} to i16"));
            halves.push(self.half_lane_pub("add", bf, m, &[a16, b16]));
        }
        let (lo, hi, his, r) = (self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{lo} = zext i16 {} to i32", halves[0]));
        self.emit(format!("{hi} = zext i16 {} to i32", halves[1]));
        self.emit(format!("{his} = shl i32 {hi}, 16"));
        self.emit(format!("{r} = or i32 {his}, {lo}"));
        r
    }

    pub(crate) fn as_int(&mut self, v: &str, ty: ScalarType) -> String {
        let s = storage(ty);
        self.bitcast(v, &s, &format!("i{}", bits(ty)))
    }

    pub(crate) fn barrier(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if m.has(".arrive") || m.has(".red") {
            return self.barrier_op(m, ops);
        }
        let id = match ops.first() {
            Some(o) => self.src(o, ScalarType::U(32))?,
            None => "0".into(),
        };
        let count = match ops.get(1) {
            Some(o) => self.src(o, ScalarType::U(32))?,
            None => "0".into(),
        };
        if ops.len() > 1 {
            if let Err(why) = self.cx.target.barrier_with_count() {
                return Err(self.err(why));
            }
        }
        self.uses_barrier = true;
        if self.region.is_some() {
            return self.region_barrier();
        }
        self.intrinsic("__ptx_barrier", &format!("i32 {id}, i32 {count}"));
        Ok(())
    }

    /// `bar{.cta}.arrive a, b` and `bar{.cta}.red.{popc.u32,and.pred,or.pred} d, a{, b}, {!}c`
    /// (PTX ISA 9.7.13.1; `barrier{.cta}.*.aligned` alike): arrive without waiting, or wait
    /// and reduce a predicate over the arriving threads (`__syncthreads_count/and/or`).
    fn barrier_op(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if let Err(why) = self.cx.target.barrier_op() {
            return Err(self.err(why));
        }
        let u32t = ScalarType::U(32);
        let (op, dst, id_at, pred) = if m.has(".arrive") {
            if ops.len() != 2 {
                return Err(self.err("bar.arrive needs a barrier and a thread count: bar.arrive a, b"));
            }
            (BARRIER_OP_ARRIVE, None, 0, None)
        } else {
            let op = if m.has(".popc") {
                BARRIER_OP_POPC
            } else if m.has(".and") {
                BARRIER_OP_AND
            } else if m.has(".or") {
                BARRIER_OP_OR
            } else {
                return Err(self.err("bar.red needs .popc, .and or .or"));
            };
            if !(3..=4).contains(&ops.len()) {
                return Err(self.err("bar.red takes d, a{, b}, {!}c"));
            }
            (op, Some(&ops[0]), 1, Some(&ops[ops.len() - 1]))
        };
        let id = self.src(&ops[id_at], u32t)?;
        let count = match (op, ops.len()) {
            (BARRIER_OP_ARRIVE, _) => self.src(&ops[1], u32t)?,
            (_, 4) => self.src(&ops[2], u32t)?,
            _ => "0".into(),
        };
        let p = match pred {
            Some(c) => {
                let p = self.src(c, ScalarType::Pred)?;
                let z = self.t();
                self.emit(format!("{z} = zext i1 {p} to i32"));
                z
            }
            None => "0".into(),
        };
        self.uses_barrier = true;
        let r = self.intrinsic("__ptx_barrier_op", &format!("i32 {id}, i32 {count}, i32 {op}, i32 {p}"));
        match dst {
            Some(d) if op == BARRIER_OP_POPC => self.dst(d, u32t, &r),
            Some(d) => {
                let b = self.t();
                self.emit(format!("{b} = icmp ne i32 {r}, 0"));
                self.dst(d, ScalarType::Pred, &b)
            }
            None => Ok(()),
        }
    }

    /// `membar.{cta,gl,sys}` (a `fence.sc`) and `fence{.sem}{.scope}` (PTX ISA 9.7.13.4).
    /// Proxy fences order nothing more on our targets than an acq_rel fence does.
    pub(crate) fn fence(&mut self, opcode: &str, m: &Mods) -> R<()> {
        let (ord, sc) = if opcode == "membar" {
            let sc = if m.has(".cta") {
                Scope::Cta
            } else if m.has(".sys") {
                Scope::Sys
            } else {
                Scope::Gpu
            };
            (MemOrder::SeqCst, sc)
        } else {
            (order(m).unwrap_or(MemOrder::AcqRel), scope(m))
        };
        // A fence cannot be relaxed; fence.acquire/.release are not PTX but cost nothing.
        let ord = if ord == MemOrder::Relaxed { MemOrder::AcqRel } else { ord };
        let ord = self.cx.target.rmw_ordering(ord);
        self.emit(format!("fence{} {}", self.cx.target.sync_scope(sc), ord.llvm()));
        Ok(())
    }
}
