//! Instruction semantics (PTX ISA 9.7), one function per instruction family.
//!
//! Each handler reads its operands with `FnLowerer::src`, computes in LLVM IR, and writes
//! with `FnLowerer::dst`. Where PTX defines a result that LLVM leaves undefined (shift
//! amounts past the width, float->int conversion of NaN or out-of-range values, division
//! by zero), the handler spells PTX's rule out explicitly.

use super::func::{FnLowerer, Local, R};
use super::module::is_barrier;
use super::rounding::directed_mode;
use super::types::{bits, is_float, is_signed, storage, value, Mods};
use crate::host_abi;
use crate::ptx::ast::*;

impl FnLowerer<'_> {
    /// Lower one instruction, including its guard predicate.
    pub fn instruction(&mut self, i: &Instruction) -> R<()> {
        if i.opcode == "bra" {
            return self.bra(i);
        }
        match &i.guard {
            None => self.unguarded(i),
            Some(g) => {
                let p = self.src(&Operand::Ident { name: g.predicate.clone(), component: None }, ScalarType::Pred)?;
                let (then_bb, cont_bb) = (self.new_block("then"), self.new_block("cont"));
                let (a, b) = if g.negated { (&cont_bb, &then_bb) } else { (&then_bb, &cont_bb) };
                self.emit_terminator(format!("br i1 {p}, label %{a}, label %{b}"));
                self.start_block(&then_bb);
                self.unguarded(i)?;
                self.start_block(&cont_bb);
                Ok(())
            }
        }
    }

    fn unguarded(&mut self, i: &Instruction) -> R<()> {
        if super::warp::is_collective(i) {
            return self.collective(i);
        }
        let m = Mods::new(&i.modifiers);
        let ops = &i.operands;
        let carry = m.has(".cc") || matches!(i.opcode.as_str(), "addc" | "subc" | "madc");
        match i.opcode.as_str() {
            "add" | "sub" | "mad" | "addc" | "subc" | "madc" if carry => self.carry_arith(&i.opcode, &m, ops),
            "sad" => self.sad(&m, ops),
            "mov" => self.mov(&m, ops),
            "ld" | "ldu" => self.ld(&m, ops),
            "st" => self.st(&m, ops),
            "cvta" => self.cvta(&m, ops),
            "cvt" => self.cvt(&m, ops),
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" => self.binary(&i.opcode, &m, ops),
            "mad" | "fma" => self.mad(&i.opcode, &m, ops),
            "mul24" | "mad24" => self.mul24(&i.opcode, &m, ops),
            "neg" | "not" | "abs" | "cnot" | "popc" | "clz" | "brev" | "sqrt" | "rsqrt" | "rcp" | "ex2" | "lg2" | "sin"
            | "cos" | "tanh" => self.unary(&i.opcode, &m, ops),
            "shl" | "shr" => self.shift(&i.opcode, &m, ops),
            "setp" => self.setp(&m, ops),
            "set" => self.set(&m, ops),
            "selp" => self.selp(&m, ops),
            "slct" => self.slct(&m, ops),
            "copysign" => self.copysign(&m, ops),
            "bfe" => self.bfe(&m, ops),
            "bfind" => self.bfind(&m, ops),
            "bfi" => self.bfi(&m, ops),
            "prmt" => self.prmt(&m, ops),
            "shf" => self.shf(&m, ops),
            "lop3" => self.lop3(&m, ops),
            "atom" | "red" => self.atom(&i.opcode, &m, ops),
            "ret" | "exit" => {
                self.emit_terminator("ret void");
                Ok(())
            }
            "trap" => {
                self.call_runtime(host_abi::OFFSET_TRAP, "void", "");
                self.emit_terminator("ret void");
                Ok(())
            }
            "call" => self.call(&m, ops),
            "bar" | "barrier" if is_barrier(i) => self.barrier(&m, ops),
            "bar" | "barrier" => Ok(()), // bar.warp.sync: threads of a warp run in order here
            "membar" | "fence" => {
                self.emit("fence seq_cst");
                Ok(())
            }
            "nanosleep" | "prefetch" | "prefetchu" | "pmevent" | "discard" | "applypriority" | "createpolicy" => Ok(()),
            op => Err(self.err(format!("instruction '{op}' is not supported yet"))),
        }
    }

    fn ty0(&self, m: &Mods) -> R<ScalarType> {
        m.types.first().copied().ok_or_else(|| self.err("missing type modifier"))
    }

    fn operands<'o>(&self, ops: &'o [Operand], n: usize) -> R<&'o [Operand]> {
        if ops.len() < n {
            return Err(self.err(format!("expected {n} operands, found {}", ops.len())));
        }
        Ok(ops)
    }

    fn bra(&mut self, i: &Instruction) -> R<()> {
        let target = match i.operands.first() {
            Some(Operand::Ident { name, .. }) => name.clone(),
            _ => return Err(self.err("bra needs a label")),
        };
        let bb = self.label_block(&target).cloned().ok_or_else(|| self.err(format!("undefined label '{target}'")))?;
        match &i.guard {
            None => self.emit_terminator(format!("br label %{bb}")),
            Some(g) => {
                let p = self.src(&Operand::Ident { name: g.predicate.clone(), component: None }, ScalarType::Pred)?;
                let next = self.new_block("fall");
                let (a, b) = if g.negated { (&next, &bb) } else { (&bb, &next) };
                self.emit_terminator(format!("br i1 {p}, label %{a}, label %{b}"));
                self.start_block(&next);
            }
        }
        Ok(())
    }

    /// Special registers (PTX ISA 10), as u32 values.
    pub fn special(&mut self, name: &str, c: Option<char>) -> R<Option<String>> {
        let idx = |c: Option<char>| match c {
            Some('y') => 4,
            Some('z') => 8,
            _ => 0,
        };
        let off = match name {
            "%tid" => host_abi::OFFSET_TID + idx(c),
            "%ntid" => host_abi::OFFSET_NTID + idx(c),
            "%ctaid" => host_abi::OFFSET_CTAID + idx(c),
            "%nctaid" => host_abi::OFFSET_NCTAID + idx(c),
            "%dynamic_smem_size" => host_abi::OFFSET_DYNAMIC_SMEM,
            "%total_smem_size" => host_abi::OFFSET_TOTAL_SMEM,
            "%laneid" | "%warpid" => {
                let lin = self.linear_tid();
                let t = self.t();
                let op = if name == "%laneid" { "and" } else { "lshr" };
                let k = if name == "%laneid" { 31 } else { 5 };
                self.emit(format!("{t} = {op} i32 {lin}, {k}"));
                return Ok(Some(t));
            }
            "%nwarpid" => return Ok(Some("32".into())),
            "%smid" | "%gridid" => return Ok(Some("0".into())),
            "%nsmid" => return Ok(Some("1".into())),
            "%lanemask_eq" | "%lanemask_lt" | "%lanemask_le" | "%lanemask_gt" | "%lanemask_ge" => {
                let lin = self.linear_tid();
                let lane = self.t();
                self.emit(format!("{lane} = and i32 {lin}, 31"));
                let eq = self.t();
                self.emit(format!("{eq} = shl i32 1, {lane}"));
                let lt = self.t();
                self.emit(format!("{lt} = sub i32 {eq}, 1"));
                let t = self.t();
                match name {
                    "%lanemask_eq" => return Ok(Some(eq)),
                    "%lanemask_lt" => return Ok(Some(lt)),
                    "%lanemask_le" => self.emit(format!("{t} = or i32 {lt}, {eq}")),
                    "%lanemask_gt" => {
                        let le = self.t();
                        self.emit(format!("{le} = or i32 {lt}, {eq}"));
                        self.emit(format!("{t} = xor i32 {le}, -1"));
                    }
                    _ => self.emit(format!("{t} = xor i32 {lt}, -1")),
                }
                return Ok(Some(t));
            }
            "%clock" | "%clock64" | "%globaltimer" | "%globaltimer_lo" => {
                let t = self.t();
                self.emit(format!("{t} = call i64 @llvm.readcyclecounter()"));
                let r = self.t();
                self.emit(format!("{r} = trunc i64 {t} to i32"));
                return Ok(Some(r));
            }
            _ => return Ok(None),
        };
        Ok(Some(self.ctx_u32(off)))
    }

    fn linear_tid(&mut self) -> String {
        let (x, y, z) = (
            self.ctx_u32(host_abi::OFFSET_TID),
            self.ctx_u32(host_abi::OFFSET_TID + 4),
            self.ctx_u32(host_abi::OFFSET_TID + 8),
        );
        let (nx, ny) = (self.ctx_u32(host_abi::OFFSET_NTID), self.ctx_u32(host_abi::OFFSET_NTID + 4));
        let a = self.t();
        self.emit(format!("{a} = mul i32 {z}, {ny}"));
        let b = self.t();
        self.emit(format!("{b} = add i32 {a}, {y}"));
        let c = self.t();
        self.emit(format!("{c} = mul i32 {b}, {nx}"));
        let d = self.t();
        self.emit(format!("{d} = add i32 {c}, {x}"));
        d
    }

    fn mov(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        // 64-bit clock reads are the only special registers wider than 32 bits.
        if let Operand::Ident { name, component: None } = &ops[1] {
            if name == "%clock64" || name == "%globaltimer" {
                let t = self.t();
                self.emit(format!("{t} = call i64 @llvm.readcyclecounter()"));
                let v = self.convert(&t, ScalarType::U(64), ty, false);
                return self.dst(&ops[0], ty, &v);
            }
        }
        match (&ops[0], &ops[1]) {
            (d, Operand::Vector(parts)) => {
                // Pack: mov.b64 %rd, {%r1, %r2} (element 0 in the low bits).
                let w = bits(ty) / parts.len() as u32;
                let mut acc = "0".to_string();
                for (k, p) in parts.iter().enumerate() {
                    let v = self.src(p, ScalarType::B(w))?;
                    let z = self.t();
                    self.emit(format!("{z} = zext i{w} {v} to i{}", bits(ty)));
                    let s = self.t();
                    self.emit(format!("{s} = shl i{} {z}, {}", bits(ty), w * k as u32));
                    let o = self.t();
                    self.emit(format!("{o} = or i{} {acc}, {s}", bits(ty)));
                    acc = o;
                }
                self.dst(d, ScalarType::B(bits(ty)), &acc)
            }
            (Operand::Vector(parts), s) => {
                let w = bits(ty) / parts.len() as u32;
                let v = self.src(s, ScalarType::B(bits(ty)))?;
                for (k, p) in parts.iter().enumerate() {
                    let sh = self.t();
                    self.emit(format!("{sh} = lshr i{} {v}, {}", bits(ty), w * k as u32));
                    let tr = self.t();
                    self.emit(format!("{tr} = trunc i{} {sh} to i{w}", bits(ty)));
                    self.dst(p, ScalarType::B(w), &tr)?;
                }
                Ok(())
            }
            (d, s) => {
                let v = self.src(s, ty)?;
                self.dst(d, ty, &v)
            }
        }
    }

    fn ld(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let ptr = self.addr(&ops[1], m.space())?;
        let st = storage(ty);
        let size = super::types::size_of(ty);
        let vol = if m.has(".volatile") || m.has(".relaxed") || m.has(".acquire") { "volatile " } else { "" };
        match &ops[0] {
            Operand::Vector(parts) => {
                for (k, p) in parts.iter().enumerate() {
                    let e = self.t();
                    self.emit(format!("{e} = getelementptr i8, ptr {ptr}, i64 {}", size * k as u64));
                    let t = self.t();
                    self.emit(format!("{t} = load {vol}{st}, ptr {e}, align {size}"));
                    self.dst(p, ty, &t)?;
                }
                Ok(())
            }
            d => {
                let t = self.t();
                self.emit(format!("{t} = load {vol}{st}, ptr {ptr}, align {size}"));
                self.dst(d, ty, &t)
            }
        }
    }

    fn st(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let ptr = self.addr(&ops[0], m.space())?;
        let st = storage(ty);
        let size = super::types::size_of(ty);
        let vol = if m.has(".volatile") || m.has(".relaxed") || m.has(".release") { "volatile " } else { "" };
        match &ops[1] {
            Operand::Vector(parts) => {
                for (k, p) in parts.iter().enumerate() {
                    if matches!(p, Operand::Sink) {
                        continue;
                    }
                    let v = self.src(p, ty)?;
                    let e = self.t();
                    self.emit(format!("{e} = getelementptr i8, ptr {ptr}, i64 {}", size * k as u64));
                    self.emit(format!("store {vol}{st} {v}, ptr {e}, align {size}"));
                }
                Ok(())
            }
            s => {
                let v = self.src(s, ty)?;
                self.emit(format!("store {vol}{st} {v}, ptr {ptr}, align {size}"));
                Ok(())
            }
        }
    }

    /// `cvta` (PTX ISA 9.7.9.17). Global, local, const and param addresses are host
    /// addresses already; shared addresses are offsets into the block's window.
    fn cvta(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
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

    /// Compute in the value type: turn a storage-typed value into the value type.
    fn as_value(&mut self, v: &str, ty: ScalarType) -> String {
        let (s, val) = (storage(ty), value(ty));
        self.bitcast(v, &s, &val)
    }

    fn from_value(&mut self, v: &str, ty: ScalarType) -> String {
        let (s, val) = (storage(ty), value(ty));
        self.bitcast(v, &val, &s)
    }

    fn cvt(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 2)?;
        if m.types.len() < 2 {
            return Err(self.err("cvt needs destination and source types"));
        }
        let (dt, stype) = (m.types[0], m.types[1]);
        let raw = self.src(&ops[1], stype)?;
        let v = self.as_value(&raw, stype);
        let (dv, sv) = (value(dt), value(stype));
        let round = ["rni", "rzi", "rmi", "rpi"].iter().find(|r| m.has(&format!(".{r}"))).copied();
        let directed = directed_mode(&m.flags);
        let v = if is_float(stype) { self.ftz_in(&v, stype, m) } else { v };
        let res = if is_float(dt) && is_float(stype) {
            let (db, sb) = (bits(dt), bits(stype));
            let r = if let Some(r) = round {
                self.round_float(&v, &sv, r)
            } else {
                v.clone()
            };
            if let (Some(mode), ScalarType::F32, ScalarType::F64) = (directed, dt, stype) {
                self.directed_fptrunc(&r, mode)
            } else if db > sb {
                let t = self.t();
                self.emit(format!("{t} = fpext {sv} {r} to {dv}"));
                t
            } else if db < sb {
                let t = self.t();
                self.emit(format!("{t} = fptrunc {sv} {r} to {dv}"));
                t
            } else {
                r
            }
        } else if is_float(dt) {
            match (directed, dt, bits(stype) <= 64) {
                (Some(mode), ScalarType::F32 | ScalarType::F64, true) => self.directed_itofp(&v, &sv, is_signed(stype), &dv, mode),
                _ => {
                    let t = self.t();
                    let op = if is_signed(stype) { "sitofp" } else { "uitofp" };
                    self.emit(format!("{t} = {op} {sv} {v} to {dv}"));
                    t
                }
            }
        } else if is_float(stype) {
            // PTX: float->int saturates and maps NaN to 0 (PTX ISA 9.7.9.21).
            let r = self.round_float(&v, &sv, round.unwrap_or("rzi"));
            let t = self.t();
            let op = if is_signed(dt) { "fptosi" } else { "fptoui" };
            self.emit(format!("{t} = call {dv} @llvm.{op}.sat.{dv}.{}({sv} {r})", llvm_suffix(&sv)));
            t
        } else {
            // Integer to integer: extend by the source's signedness, or truncate; `.sat`
            // clamps to the destination's range.
            let (db, sb) = (bits(dt), bits(stype));
            let v = if m.has(".sat") { self.int_saturate(&v, stype, dt) } else { v };
            if db > sb {
                let t = self.t();
                let op = if is_signed(stype) { "sext" } else { "zext" };
                self.emit(format!("{t} = {op} {sv} {v} to {dv}"));
                t
            } else if db < sb {
                let t = self.t();
                self.emit(format!("{t} = trunc {sv} {v} to {dv}"));
                t
            } else {
                v
            }
        };
        let res = if is_float(dt) {
            let r = self.ftz_in(&res, dt, m);
            if m.has(".sat") { self.saturate_float(&r, &dv) } else { r }
        } else {
            res
        };
        let res = self.from_value(&res, dt);
        self.dst(&ops[0], dt, &res)
    }

    /// `.ftz` on f32 (PTX ISA 9.7.3): subnormal inputs and results become signed zero.
    fn ftz_in(&mut self, v: &str, ty: ScalarType, m: &Mods) -> String {
        if ty != ScalarType::F32 || !m.has(".ftz") {
            return v.to_string();
        }
        let a = self.t();
        self.emit(format!("{a} = call float @llvm.fabs.f32(float {v})"));
        let small = self.t();
        // 2^-126, the smallest normal f32.
        self.emit(format!("{small} = fcmp olt float {a}, 0x3810000000000000"));
        let z = self.t();
        self.emit(format!("{z} = call float @llvm.copysign.f32(float 0.0, float {v})"));
        let r = self.t();
        self.emit(format!("{r} = select i1 {small}, float {z}, float {v}"));
        r
    }

    fn int_saturate(&mut self, v: &str, from: ScalarType, to: ScalarType) -> String {
        let (fb, tb) = (bits(from), bits(to));
        if fb >= 128 || tb >= 128 {
            return v.to_string();
        }
        let (lo, hi): (i128, i128) = if is_signed(to) { (-(1i128 << (tb - 1)), (1i128 << (tb - 1)) - 1) } else { (0, (1i128 << tb) - 1) };
        let (flo, fhi): (i128, i128) = if is_signed(from) { (-(1i128 << (fb - 1)), (1i128 << (fb - 1)) - 1) } else { (0, (1i128 << fb) - 1) };
        let ty = format!("i{fb}");
        let mut cur = v.to_string();
        let (cmp_lt, cmp_gt) = if is_signed(from) { ("slt", "sgt") } else { ("ult", "ugt") };
        if lo > flo {
            let c = self.t();
            self.emit(format!("{c} = icmp {cmp_lt} {ty} {cur}, {lo}"));
            let s = self.t();
            self.emit(format!("{s} = select i1 {c}, {ty} {lo}, {ty} {cur}"));
            cur = s;
        }
        if hi < fhi {
            let c = self.t();
            self.emit(format!("{c} = icmp {cmp_gt} {ty} {cur}, {hi}"));
            let s = self.t();
            self.emit(format!("{s} = select i1 {c}, {ty} {hi}, {ty} {cur}"));
            cur = s;
        }
        cur
    }

    fn round_float(&mut self, v: &str, ty: &str, r: &str) -> String {
        let f = match r {
            "rni" => "roundeven",
            "rzi" => "trunc",
            "rmi" => "floor",
            _ => "ceil",
        };
        let t = self.t();
        self.emit(format!("{t} = call {ty} @llvm.{f}.{}({ty} {v})", llvm_suffix(ty)));
        t
    }

    fn binary(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        if ty == ScalarType::Pred {
            let t = self.t();
            self.emit(format!("{t} = {op} i1 {a}, {b}"));
            return self.dst(&ops[0], ty, &t);
        }
        if is_float(ty) {
            let (a, b) = (self.as_value(&a, ty), self.as_value(&b, ty));
            let (a, b) = (self.ftz_in(&a, ty, m), self.ftz_in(&b, ty, m));
            let vt = value(ty);
            if let (Some(mode), true) = (directed_mode(&m.flags), matches!(op, "add" | "sub" | "mul" | "div")) {
                if matches!(ty, ScalarType::F32 | ScalarType::F64) {
                    let t = self.directed_binary(op, &vt, &a, &b, mode)?;
                    let t = self.ftz_in(&t, ty, m);
                    let t = if m.has(".sat") { self.saturate_float(&t, &vt) } else { t };
                    return self.dst(&ops[0], ty, &t);
                }
            }
            let t = self.t();
            match op {
                "add" => self.emit(format!("{t} = fadd {vt} {a}, {b}")),
                "sub" => self.emit(format!("{t} = fsub {vt} {a}, {b}")),
                "mul" => self.emit(format!("{t} = fmul {vt} {a}, {b}")),
                "div" => self.emit(format!("{t} = fdiv {vt} {a}, {b}")),
                // PTX min/max return the non-NaN operand (PTX ISA 9.7.3.10).
                "min" => self.emit(format!("{t} = call {vt} @llvm.minnum.{}({vt} {a}, {vt} {b})", llvm_suffix(&vt))),
                "max" => self.emit(format!("{t} = call {vt} @llvm.maxnum.{}({vt} {a}, {vt} {b})", llvm_suffix(&vt))),
                _ => return Err(self.err(format!("{op} is not defined on floating-point types"))),
            }
            let t = self.ftz_in(&t, ty, m);
            let t = if m.has(".sat") { self.saturate_float(&t, &vt) } else { t };
            let r = self.from_value(&t, ty);
            return self.dst(&ops[0], ty, &r);
        }
        let w = bits(ty);
        let it = format!("i{w}");
        let signed = is_signed(ty);
        let t = self.t();
        match op {
            "add" | "sub" if m.has(".sat") => {
                let f = if op == "add" { "sadd" } else { "ssub" };
                self.emit(format!("{t} = call {it} @llvm.{f}.sat.{it}({it} {a}, {it} {b})"));
            }
            "add" => self.emit(format!("{t} = add {it} {a}, {b}")),
            "sub" => self.emit(format!("{t} = sub {it} {a}, {b}")),
            "mul" => return self.int_mul(m, ty, &ops[0], &a, &b, None),
            "div" | "rem" => {
                // Division by zero gives an unspecified value in PTX but must not trap
                // on the host: divide by 1 instead and return all ones.
                let z = self.t();
                self.emit(format!("{z} = icmp eq {it} {b}, 0"));
                let d = self.t();
                self.emit(format!("{d} = select i1 {z}, {it} 1, {it} {b}"));
                let q = self.t();
                let f = match (op, signed) {
                    ("div", true) => "sdiv",
                    ("div", false) => "udiv",
                    ("rem", true) => "srem",
                    _ => "urem",
                };
                // INT_MIN / -1 overflows on x86; PTX leaves it unspecified: use INT_MIN.
                if signed {
                    let m1 = self.t();
                    self.emit(format!("{m1} = icmp eq {it} {d}, -1"));
                    let d2 = self.t();
                    self.emit(format!("{d2} = select i1 {m1}, {it} 1, {it} {d}"));
                    let q1 = self.t();
                    self.emit(format!("{q1} = {f} {it} {a}, {d2}"));
                    let neg = self.t();
                    if op == "div" {
                        self.emit(format!("{neg} = sub {it} 0, {a}"));
                    } else {
                        self.emit(format!("{neg} = add {it} 0, 0"));
                    }
                    self.emit(format!("{q} = select i1 {m1}, {it} {neg}, {it} {q1}"));
                } else {
                    self.emit(format!("{q} = {f} {it} {a}, {d}"));
                }
                self.emit(format!("{t} = select i1 {z}, {it} -1, {it} {q}"));
            }
            "min" | "max" => {
                let f = match (op, signed) {
                    ("min", true) => "smin",
                    ("min", false) => "umin",
                    ("max", true) => "smax",
                    _ => "umax",
                };
                self.emit(format!("{t} = call {it} @llvm.{f}.{it}({it} {a}, {it} {b})"));
            }
            "and" | "or" | "xor" => self.emit(format!("{t} = {op} {it} {a}, {b}")),
            _ => unreachable!(),
        }
        self.dst(&ops[0], ty, &t)
    }

    /// Extended-precision arithmetic through the carry flag `CC.CF` (PTX ISA 9.7.2):
    /// `add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]`, `mad{.lo,.hi}.cc`, `madc{.lo,.hi}[.cc]`.
    /// For subtraction the flag holds the borrow.
    fn carry_arith(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let is_mad = op.starts_with("mad");
        let ops = self.operands(ops, if is_mad { 4 } else { 3 })?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let carry_in = matches!(op, "addc" | "subc" | "madc");
        let sets = m.has(".cc");
        let cin = if carry_in {
            let c = self.t();
            self.emit(format!("{c} = load i1, ptr %carry"));
            let z = self.t();
            self.emit(format!("{z} = zext i1 {c} to {it}"));
            Some(z)
        } else {
            None
        };
        // First operand pair: a (+|-) b, or the product half plus c for mad.
        let (x, y, sub) = if is_mad {
            let w2 = 2 * w;
            let ext = if is_signed(ty) { "sext" } else { "zext" };
            let (ea, eb) = (self.t(), self.t());
            self.emit(format!("{ea} = {ext} {it} {a} to i{w2}"));
            self.emit(format!("{eb} = {ext} {it} {b} to i{w2}"));
            let p = self.t();
            self.emit(format!("{p} = mul i{w2} {ea}, {eb}"));
            let half = self.t();
            if m.has(".hi") {
                let s = self.t();
                self.emit(format!("{s} = lshr i{w2} {p}, {w}"));
                self.emit(format!("{half} = trunc i{w2} {s} to {it}"));
            } else {
                self.emit(format!("{half} = trunc i{w2} {p} to {it}"));
            }
            let c = self.src(&ops[3], ty)?;
            (half, c, false)
        } else {
            (a, b, op.starts_with("sub"))
        };
        let f = if sub { "usub" } else { "uadd" };
        let r1 = self.t();
        self.emit(format!("{r1} = call {{ {it}, i1 }} @llvm.{f}.with.overflow.{it}({it} {x}, {it} {y})"));
        let (v1, o1) = (self.t(), self.t());
        self.emit(format!("{v1} = extractvalue {{ {it}, i1 }} {r1}, 0"));
        self.emit(format!("{o1} = extractvalue {{ {it}, i1 }} {r1}, 1"));
        let (res, flag) = match cin {
            Some(c) => {
                let r2 = self.t();
                self.emit(format!("{r2} = call {{ {it}, i1 }} @llvm.{f}.with.overflow.{it}({it} {v1}, {it} {c})"));
                let (v2, o2) = (self.t(), self.t());
                self.emit(format!("{v2} = extractvalue {{ {it}, i1 }} {r2}, 0"));
                self.emit(format!("{o2} = extractvalue {{ {it}, i1 }} {r2}, 1"));
                let o = self.t();
                self.emit(format!("{o} = or i1 {o1}, {o2}"));
                (v2, o)
            }
            None => (v1, o1),
        };
        if sets {
            self.emit(format!("store i1 {flag}, ptr %carry"));
        }
        self.dst(&ops[0], ty, &res)
    }

    /// `sad` (PTX ISA 9.7.1.11): |a - b| + c.
    fn sad(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 4)?;
        let it = storage(ty);
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let c = self.src(&ops[3], ty)?;
        let (mx, mn) = (self.t(), self.t());
        let (fmax, fmin) = if is_signed(ty) { ("smax", "smin") } else { ("umax", "umin") };
        self.emit(format!("{mx} = call {it} @llvm.{fmax}.{it}({it} {a}, {it} {b})"));
        self.emit(format!("{mn} = call {it} @llvm.{fmin}.{it}({it} {a}, {it} {b})"));
        let d = self.t();
        self.emit(format!("{d} = sub {it} {mx}, {mn}"));
        let r = self.t();
        self.emit(format!("{r} = add {it} {d}, {c}"));
        self.dst(&ops[0], ty, &r)
    }

    fn saturate_float(&mut self, v: &str, vt: &str) -> String {
        // .sat clamps to [0, 1] and maps NaN to 0.
        let s = llvm_suffix(vt);
        let a = self.t();
        self.emit(format!("{a} = call {vt} @llvm.maxnum.{s}({vt} {v}, {vt} 0.0)"));
        let b = self.t();
        self.emit(format!("{b} = call {vt} @llvm.minnum.{s}({vt} {a}, {vt} 1.0)"));
        b
    }

    /// `mul.lo/.hi/.wide` (PTX ISA 9.7.1.3) with an optional addend for `mad`.
    fn int_mul(&mut self, m: &Mods, ty: ScalarType, d: &Operand, a: &str, b: &str, c: Option<&Operand>) -> R<()> {
        let w = bits(ty);
        let it = format!("i{w}");
        let ext = if is_signed(ty) { "sext" } else { "zext" };
        if m.has(".wide") || m.has(".hi") {
            let w2 = 2 * w;
            let (ea, eb) = (self.t(), self.t());
            self.emit(format!("{ea} = {ext} {it} {a} to i{w2}"));
            self.emit(format!("{eb} = {ext} {it} {b} to i{w2}"));
            let p = self.t();
            self.emit(format!("{p} = mul i{w2} {ea}, {eb}"));
            if m.has(".wide") {
                let dt = if is_signed(ty) { ScalarType::S(w2) } else { ScalarType::U(w2) };
                let r = match c {
                    Some(c) => {
                        let cv = self.src(c, dt)?;
                        let s = self.t();
                        self.emit(format!("{s} = add i{w2} {p}, {cv}"));
                        s
                    }
                    None => p,
                };
                return self.dst(d, dt, &r);
            }
            let sh = self.t();
            self.emit(format!("{sh} = lshr i{w2} {p}, {w}"));
            let hi = self.t();
            self.emit(format!("{hi} = trunc i{w2} {sh} to {it}"));
            let r = self.add_opt(&hi, &it, ty, c, m.has(".sat"))?;
            return self.dst(d, ty, &r);
        }
        let p = self.t();
        self.emit(format!("{p} = mul {it} {a}, {b}"));
        let r = self.add_opt(&p, &it, ty, c, m.has(".sat"))?;
        self.dst(d, ty, &r)
    }

    fn add_opt(&mut self, v: &str, it: &str, ty: ScalarType, c: Option<&Operand>, sat: bool) -> R<String> {
        Ok(match c {
            Some(c) => {
                let cv = self.src(c, ty)?;
                let s = self.t();
                if sat {
                    self.emit(format!("{s} = call {it} @llvm.sadd.sat.{it}({it} {v}, {it} {cv})"));
                } else {
                    self.emit(format!("{s} = add {it} {v}, {cv}"));
                }
                s
            }
            None => v.to_string(),
        })
    }

    fn mad(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        if is_float(ty) {
            let c = self.src(&ops[3], ty)?;
            let (a, b, c) = (self.as_value(&a, ty), self.as_value(&b, ty), self.as_value(&c, ty));
            let (a, b, c) = (self.ftz_in(&a, ty, m), self.ftz_in(&b, ty, m), self.ftz_in(&c, ty, m));
            let vt = value(ty);
            // fma and mad.rn (sm_20+) are fused multiply-adds (PTX ISA 9.7.3.6).
            let _ = op;
            let t = match directed_mode(&m.flags) {
                Some(mode) if matches!(ty, ScalarType::F32 | ScalarType::F64) => self.directed_fma(&vt, &a, &b, &c, mode),
                _ => {
                    let t = self.t();
                    self.emit(format!("{t} = call {vt} @llvm.fma.{}({vt} {a}, {vt} {b}, {vt} {c})", llvm_suffix(&vt)));
                    t
                }
            };
            let t = self.ftz_in(&t, ty, m);
            let t = if m.has(".sat") { self.saturate_float(&t, &vt) } else { t };
            let r = self.from_value(&t, ty);
            return self.dst(&ops[0], ty, &r);
        }
        self.int_mul(m, ty, &ops[0], &a, &b, Some(&ops[3]))
    }

    /// `mul24`/`mad24`: multiply the low 24 bits (sign-extended for .s32).
    fn mul24(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, if op == "mad24" { 4 } else { 3 })?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let ext = |l: &mut Self, v: &str| {
            let s = l.t();
            l.emit(format!("{s} = shl i32 {v}, 8"));
            let r = l.t();
            let sh = if is_signed(ty) { "ashr" } else { "lshr" };
            l.emit(format!("{r} = {sh} i32 {s}, 8"));
            r
        };
        let (a, b) = (ext(self, &a), ext(self, &b));
        let ext64 = if is_signed(ty) { "sext" } else { "zext" };
        let (ea, eb) = (self.t(), self.t());
        self.emit(format!("{ea} = {ext64} i32 {a} to i64"));
        self.emit(format!("{eb} = {ext64} i32 {b} to i64"));
        let p = self.t();
        self.emit(format!("{p} = mul i64 {ea}, {eb}"));
        let r = self.t();
        if m.has(".hi") {
            let s = self.t();
            self.emit(format!("{s} = lshr i64 {p}, 16"));
            self.emit(format!("{r} = trunc i64 {s} to i32"));
        } else {
            self.emit(format!("{r} = trunc i64 {p} to i32"));
        }
        let r = self.add_opt(&r, "i32", ty, ops.get(3).filter(|_| op == "mad24"), false)?;
        self.dst(&ops[0], ty, &r)
    }

    fn unary(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let a = self.src(&ops[1], ty)?;
        let t = self.t();
        if is_float(ty) {
            let a = self.as_value(&a, ty);
            let a = self.ftz_in(&a, ty, m);
            let vt = value(ty);
            let s = llvm_suffix(&vt);
            if let (Some(mode), true) = (directed_mode(&m.flags), matches!(ty, ScalarType::F32 | ScalarType::F64)) {
                let r = match op {
                    "sqrt" => Some(self.directed_sqrt(&vt, &a, mode)),
                    "rcp" => Some(self.directed_binary("div", &vt, "1.0", &a, mode)?),
                    _ => None,
                };
                if let Some(r) = r {
                    let r = self.ftz_in(&r, ty, m);
                    return self.dst(&ops[0], ty, &r);
                }
            }
            match op {
                "neg" => self.emit(format!("{t} = fneg {vt} {a}")),
                "abs" => self.emit(format!("{t} = call {vt} @llvm.fabs.{s}({vt} {a})")),
                "sqrt" => self.emit(format!("{t} = call {vt} @llvm.sqrt.{s}({vt} {a})")),
                "rsqrt" => {
                    let q = self.t();
                    self.emit(format!("{q} = call {vt} @llvm.sqrt.{s}({vt} {a})"));
                    self.emit(format!("{t} = fdiv {vt} 1.0, {q}"));
                }
                "rcp" => self.emit(format!("{t} = fdiv {vt} 1.0, {a}")),
                "ex2" => self.emit(format!("{t} = call {vt} @llvm.exp2.{s}({vt} {a})")),
                "lg2" => self.emit(format!("{t} = call {vt} @llvm.log2.{s}({vt} {a})")),
                "sin" => self.emit(format!("{t} = call {vt} @llvm.sin.{s}({vt} {a})")),
                "cos" => self.emit(format!("{t} = call {vt} @llvm.cos.{s}({vt} {a})")),
                "tanh" => self.emit(format!("{t} = call {vt} @llvm.tanh.{s}({vt} {a})")),
                _ => return Err(self.err(format!("{op} is not defined on floating-point types"))),
            }
            let t = if op == "neg" || op == "abs" { t } else { self.ftz_in(&t, ty, m) };
            let r = self.from_value(&t, ty);
            return self.dst(&ops[0], ty, &r);
        }
        let it = storage(ty);
        match op {
            "neg" => self.emit(format!("{t} = sub {it} 0, {a}")),
            "not" if ty == ScalarType::Pred => self.emit(format!("{t} = xor i1 {a}, true")),
            "not" => self.emit(format!("{t} = xor {it} {a}, -1")),
            "cnot" => {
                let c = self.t();
                self.emit(format!("{c} = icmp eq {it} {a}, 0"));
                self.emit(format!("{t} = zext i1 {c} to {it}"));
            }
            "abs" => self.emit(format!("{t} = call {it} @llvm.abs.{it}({it} {a}, i1 false)")),
            "brev" => self.emit(format!("{t} = call {it} @llvm.bitreverse.{it}({it} {a})")),
            "popc" | "clz" => {
                let c = self.t();
                if op == "popc" {
                    self.emit(format!("{c} = call {it} @llvm.ctpop.{it}({it} {a})"));
                } else {
                    self.emit(format!("{c} = call {it} @llvm.ctlz.{it}({it} {a}, i1 false)"));
                }
                // The result is always .u32 (PTX ISA 9.7.1.14/15).
                let r = self.convert(&c, ty, ScalarType::U(32), false);
                return self.dst(&ops[0], ScalarType::U(32), &r);
            }
            _ => return Err(self.err(format!("{op} is not defined on integer types"))),
        }
        self.dst(&ops[0], ty, &t)
    }

    /// Shifts clamp the amount: `shl`/`shr.u` by >= width give 0, `shr.s` gives the sign
    /// fill (PTX ISA 9.7.8.7/8). The amount operand is always `.u32`.
    fn shift(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let n = self.src(&ops[2], ScalarType::U(32))?;
        let w = bits(ty);
        let it = format!("i{w}");
        let big = self.t();
        self.emit(format!("{big} = icmp ugt i32 {n}, {}", w - 1));
        let clamped = self.t();
        self.emit(format!("{clamped} = select i1 {big}, i32 {}, i32 {n}", w - 1));
        let amt = self.convert(&clamped, ScalarType::U(32), ScalarType::U(w), false);
        let s = self.t();
        let t = self.t();
        if op == "shl" {
            self.emit(format!("{s} = shl {it} {a}, {amt}"));
            self.emit(format!("{t} = select i1 {big}, {it} 0, {it} {s}"));
        } else if is_signed(ty) {
            self.emit(format!("{t} = ashr {it} {a}, {amt}"));
            let _ = s;
        } else {
            self.emit(format!("{s} = lshr {it} {a}, {amt}"));
            self.emit(format!("{t} = select i1 {big}, {it} 0, {it} {s}"));
        }
        self.dst(&ops[0], ty, &t)
    }

    /// The comparison of `setp`/`set`/`slct` as an i1 (PTX ISA 9.7.3.* "Comparison").
    fn compare(&mut self, cmp: &str, ty: ScalarType, a: &str, b: &str) -> R<String> {
        let t = self.t();
        if is_float(ty) {
            let (a, b) = (self.as_value(a, ty), self.as_value(b, ty));
            let vt = value(ty);
            let p = match cmp {
                "eq" => "oeq",
                "ne" => "one",
                "lt" => "olt",
                "le" => "ole",
                "gt" => "ogt",
                "ge" => "oge",
                "equ" => "ueq",
                "neu" => "une",
                "ltu" => "ult",
                "leu" => "ule",
                "gtu" => "ugt",
                "geu" => "uge",
                "num" => "ord",
                "nan" => "uno",
                _ => return Err(self.err(format!("unknown float comparison '{cmp}'"))),
            };
            self.emit(format!("{t} = fcmp {p} {vt} {a}, {b}"));
        } else {
            let s = is_signed(ty);
            let p = match cmp {
                "eq" => "eq",
                "ne" => "ne",
                "lt" => if s { "slt" } else { "ult" },
                "le" => if s { "sle" } else { "ule" },
                "gt" => if s { "sgt" } else { "ugt" },
                "ge" => if s { "sge" } else { "uge" },
                "lo" => "ult",
                "ls" => "ule",
                "hi" => "ugt",
                "hs" => "uge",
                _ => return Err(self.err(format!("unknown integer comparison '{cmp}'"))),
            };
            self.emit(format!("{t} = icmp {p} {} {a}, {b}", storage(ty)));
        }
        Ok(t)
    }

    fn cmp_and_bool<'m>(&self, m: &'m Mods) -> R<(&'m str, Option<&'m str>)> {
        let names = ["eq", "ne", "lt", "le", "gt", "ge", "lo", "ls", "hi", "hs", "equ", "neu", "ltu", "leu", "gtu", "geu", "num", "nan"];
        let cmp = m
            .flags
            .iter()
            .map(|f| &f[1..])
            .find(|f| names.contains(f))
            .ok_or_else(|| self.err("missing comparison operator"))?;
        let boolop = m.flags.iter().map(|f| &f[1..]).find(|f| matches!(*f, "and" | "or" | "xor"));
        Ok((cmp, boolop))
    }

    fn setp(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let (cmp, boolop) = self.cmp_and_bool(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let mut p = self.compare(cmp, ty, &a, &b)?;
        let mut q = None;
        if let Some(bop) = boolop {
            let c = self.src(ops.get(3).ok_or_else(|| self.err("missing predicate operand"))?, ScalarType::Pred)?;
            let r = self.t();
            self.emit(format!("{r} = {bop} i1 {p}, {c}"));
            let np = self.t();
            self.emit(format!("{np} = xor i1 {p}, true"));
            let r2 = self.t();
            self.emit(format!("{r2} = {bop} i1 {np}, {c}"));
            q = Some(r2);
            p = r;
        }
        match &ops[0] {
            Operand::List(pq) if pq.len() == 2 => {
                let q = match q {
                    Some(q) => q,
                    None => {
                        let n = self.t();
                        self.emit(format!("{n} = xor i1 {p}, true"));
                        n
                    }
                };
                self.dst(&pq[0], ScalarType::Pred, &p)?;
                self.dst(&pq[1], ScalarType::Pred, &q)
            }
            d => self.dst(d, ScalarType::Pred, &p),
        }
    }

    /// `set.cmp.dtype.stype`: 0xFFFFFFFF / 1.0 when true, 0 when false.
    fn set(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if m.types.len() < 2 {
            return Err(self.err("set needs destination and source types"));
        }
        let (dt, st) = (m.types[0], m.types[1]);
        let (cmp, boolop) = self.cmp_and_bool(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], st)?;
        let b = self.src(&ops[2], st)?;
        let mut p = self.compare(cmp, st, &a, &b)?;
        if let Some(bop) = boolop {
            let c = self.src(&ops[3], ScalarType::Pred)?;
            let r = self.t();
            self.emit(format!("{r} = {bop} i1 {p}, {c}"));
            p = r;
        }
        let t = self.t();
        let dv = storage(dt);
        if dt == ScalarType::F32 {
            self.emit(format!("{t} = select i1 {p}, float 1.0, float 0.0"));
        } else {
            self.emit(format!("{t} = select i1 {p}, {dv} -1, {dv} 0"));
        }
        self.dst(&ops[0], dt, &t)
    }

    fn selp(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
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
    fn slct(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if m.types.len() < 2 {
            return Err(self.err("slct needs two types"));
        }
        let (dt, ct) = (m.types[0], m.types[1]);
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], dt)?;
        let b = self.src(&ops[2], dt)?;
        let c = self.src(&ops[3], ct)?;
        let p = self.compare("ge", ct, &c, if ct == ScalarType::F32 { "0.0" } else { "0" })?;
        let st = storage(dt);
        let t = self.t();
        self.emit(format!("{t} = select i1 {p}, {st} {a}, {st} {b}"));
        self.dst(&ops[0], dt, &t)
    }

    fn copysign(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let vt = value(ty);
        let t = self.t();
        // copysign.f32 d, a, b: magnitude of b, sign of a (PTX ISA 9.7.3.2).
        self.emit(format!("{t} = call {vt} @llvm.copysign.{}({vt} {b}, {vt} {a})", llvm_suffix(&vt)));
        self.dst(&ops[0], ty, &t)
    }

    /// `bfe` (PTX ISA 9.7.1.19): extract `len` bits at `pos`, sign-extending for .s types.
    fn bfe(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 4)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let a = self.src(&ops[1], ty)?;
        let pos = self.src(&ops[2], ScalarType::U(32))?;
        let len = self.src(&ops[3], ScalarType::U(32))?;
        // pos and len are taken modulo 256 and clamped to the width.
        let (p8, l8) = (self.t(), self.t());
        self.emit(format!("{p8} = and i32 {pos}, 255"));
        self.emit(format!("{l8} = and i32 {len}, 255"));
        let (pc, lc) = (self.t(), self.t());
        self.emit(format!("{pc} = call i32 @llvm.umin.i32(i32 {p8}, i32 {w})"));
        self.emit(format!("{lc} = call i32 @llvm.umin.i32(i32 {l8}, i32 {w})"));
        let pw = self.convert(&pc, ScalarType::U(32), ScalarType::U(w), false);
        let lw = self.convert(&lc, ScalarType::U(32), ScalarType::U(w), false);
        // Shift left so the field's top bit is the word's top bit, then shift right.
        let end = self.t();
        self.emit(format!("{end} = add {it} {pw}, {lw}"));
        let over = self.t();
        self.emit(format!("{over} = icmp ugt {it} {end}, {w}"));
        let endc = self.t();
        self.emit(format!("{endc} = select i1 {over}, {it} {w}, {it} {end}"));
        let lsh = self.t();
        self.emit(format!("{lsh} = sub {it} {w}, {endc}"));
        let x = self.t();
        // shl by w is poison: handle len == 0 / pos >= w separately below.
        self.emit(format!("{x} = shl {it} {a}, {lsh}"));
        // The field is [pos, end): shift its top bit back down to bit `end - pos - 1`.
        let rsh0 = self.t();
        self.emit(format!("{rsh0} = sub {it} {lsh}, 0"));
        let rsh = self.t();
        self.emit(format!("{rsh} = add {it} {rsh0}, {pw}"));
        let rshc = self.t();
        self.emit(format!("{rshc} = call {it} @llvm.umin.{it}({it} {rsh}, {it} {})", w - 1));
        let y = self.t();
        let shr = if is_signed(ty) { "ashr" } else { "lshr" };
        self.emit(format!("{y} = {shr} {it} {x}, {rshc}"));
        // Degenerate cases: len == 0 -> 0; pos >= width -> sign fill (signed) or 0.
        let lz = self.t();
        self.emit(format!("{lz} = icmp eq i32 {lc}, 0"));
        let pbig = self.t();
        self.emit(format!("{pbig} = icmp uge i32 {pc}, {w}"));
        let fill = if is_signed(ty) {
            let f = self.t();
            self.emit(format!("{f} = ashr {it} {a}, {}", w - 1));
            f
        } else {
            "0".to_string()
        };
        let r1 = self.t();
        self.emit(format!("{r1} = select i1 {pbig}, {it} {fill}, {it} {y}"));
        let r = self.t();
        self.emit(format!("{r} = select i1 {lz}, {it} 0, {it} {r1}"));
        self.dst(&ops[0], ty, &r)
    }

    /// `bfind` (PTX ISA 9.7.1.17): bit position of the most significant non-sign bit,
    /// 0xFFFFFFFF if none; `.shiftamt` returns the left shift that normalizes instead.
    fn bfind(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let a = self.src(&ops[1], ty)?;
        // For signed inputs, negative values search for the most significant 0 bit.
        let x = if is_signed(ty) {
            let s = self.t();
            self.emit(format!("{s} = ashr {it} {a}, {}", w - 1));
            let x = self.t();
            self.emit(format!("{x} = xor {it} {a}, {s}"));
            x
        } else {
            a
        };
        let lz = self.t();
        self.emit(format!("{lz} = call {it} @llvm.ctlz.{it}({it} {x}, i1 false)"));
        let lz32 = self.convert(&lz, ScalarType::U(w), ScalarType::U(32), false);
        let none = self.t();
        self.emit(format!("{none} = icmp eq {it} {x}, 0"));
        let pos = self.t();
        if m.has(".shiftamt") {
            self.emit(format!("{pos} = add i32 {lz32}, 0"));
        } else {
            self.emit(format!("{pos} = sub i32 {}, {lz32}", w - 1));
        }
        let r = self.t();
        self.emit(format!("{r} = select i1 {none}, i32 -1, i32 {pos}"));
        self.dst(&ops[0], ScalarType::U(32), &r)
    }

    /// `bfi` (PTX ISA 9.7.1.20): insert the low `len` bits of `a` into `b` at `pos`.
    fn bfi(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 5)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let pos = self.src(&ops[3], ScalarType::U(32))?;
        let len = self.src(&ops[4], ScalarType::U(32))?;
        let (p8, l8) = (self.t(), self.t());
        self.emit(format!("{p8} = and i32 {pos}, 255"));
        self.emit(format!("{l8} = and i32 {len}, 255"));
        let (pc, lc) = (self.t(), self.t());
        self.emit(format!("{pc} = call i32 @llvm.umin.i32(i32 {p8}, i32 {w})"));
        self.emit(format!("{lc} = call i32 @llvm.umin.i32(i32 {l8}, i32 {w})"));
        // mask = ((1 << len) - 1) << pos computed in double width to avoid poison.
        let w2 = 2 * w;
        let (p2, l2) = (self.t(), self.t());
        self.emit(format!("{p2} = zext i32 {pc} to i{w2}"));
        self.emit(format!("{l2} = zext i32 {lc} to i{w2}"));
        let one = self.t();
        self.emit(format!("{one} = shl i{w2} 1, {l2}"));
        let mk = self.t();
        self.emit(format!("{mk} = sub i{w2} {one}, 1"));
        let mks = self.t();
        self.emit(format!("{mks} = shl i{w2} {mk}, {p2}"));
        let mask = self.t();
        self.emit(format!("{mask} = trunc i{w2} {mks} to {it}"));
        let a2 = self.t();
        self.emit(format!("{a2} = zext {it} {a} to i{w2}"));
        let as_ = self.t();
        self.emit(format!("{as_} = shl i{w2} {a2}, {p2}"));
        let at = self.t();
        self.emit(format!("{at} = trunc i{w2} {as_} to {it}"));
        let ins = self.t();
        self.emit(format!("{ins} = and {it} {at}, {mask}"));
        let nm = self.t();
        self.emit(format!("{nm} = xor {it} {mask}, -1"));
        let keep = self.t();
        self.emit(format!("{keep} = and {it} {b}, {nm}"));
        let r = self.t();
        self.emit(format!("{r} = or {it} {keep}, {ins}"));
        self.dst(&ops[0], ty, &r)
    }

    /// `prmt.b32` default mode (PTX ISA 9.7.8.7): pick bytes of {b, a} by selector nibbles;
    /// bit 3 of a nibble replicates the picked byte's sign bit.
    fn prmt(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 4)?;
        if m.flags.iter().any(|f| matches!(*f, ".f4e" | ".b4e" | ".rc8" | ".ecl" | ".ecr" | ".rc16")) {
            return Err(self.err("prmt with a mode modifier is not supported yet"));
        }
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let c = self.src(&ops[3], ScalarType::B(32))?;
        let (a64, b64) = (self.t(), self.t());
        self.emit(format!("{a64} = zext i32 {a} to i64"));
        self.emit(format!("{b64} = zext i32 {b} to i64"));
        let bh = self.t();
        self.emit(format!("{bh} = shl i64 {b64}, 32"));
        let src = self.t();
        self.emit(format!("{src} = or i64 {bh}, {a64}"));
        let mut acc = "0".to_string();
        for k in 0..4 {
            let sel = self.t();
            self.emit(format!("{sel} = lshr i32 {c}, {}", 4 * k));
            let idx = self.t();
            self.emit(format!("{idx} = and i32 {sel}, 7"));
            let sgn = self.t();
            self.emit(format!("{sgn} = and i32 {sel}, 8"));
            let sh = self.t();
            self.emit(format!("{sh} = mul i32 {idx}, 8"));
            let sh64 = self.t();
            self.emit(format!("{sh64} = zext i32 {sh} to i64"));
            let byte64 = self.t();
            self.emit(format!("{byte64} = lshr i64 {src}, {sh64}"));
            let byte = self.t();
            self.emit(format!("{byte} = trunc i64 {byte64} to i8"));
            let neg = self.t();
            self.emit(format!("{neg} = icmp slt i8 {byte}, 0"));
            let rep = self.t();
            self.emit(format!("{rep} = select i1 {neg}, i8 -1, i8 0"));
            let usesign = self.t();
            self.emit(format!("{usesign} = icmp ne i32 {sgn}, 0"));
            let pick = self.t();
            self.emit(format!("{pick} = select i1 {usesign}, i8 {rep}, i8 {byte}"));
            let pz = self.t();
            self.emit(format!("{pz} = zext i8 {pick} to i32"));
            let ps = self.t();
            self.emit(format!("{ps} = shl i32 {pz}, {}", 8 * k));
            let o = self.t();
            self.emit(format!("{o} = or i32 {acc}, {ps}"));
            acc = o;
        }
        self.dst(&ops[0], ScalarType::B(32), &acc)
    }

    /// `shf.{l,r}.{wrap,clamp}.b32` funnel shift (PTX ISA 9.7.8.9).
    fn shf(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 4)?;
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let c = self.src(&ops[3], ScalarType::U(32))?;
        let n = if m.has(".clamp") {
            let t = self.t();
            self.emit(format!("{t} = call i32 @llvm.umin.i32(i32 {c}, i32 32)"));
            t
        } else {
            let t = self.t();
            self.emit(format!("{t} = and i32 {c}, 31"));
            t
        };
        // Concatenate {b:a} and shift in 64 bits so a shift by 32 is well defined.
        let (a64, b64) = (self.t(), self.t());
        self.emit(format!("{a64} = zext i32 {a} to i64"));
        self.emit(format!("{b64} = zext i32 {b} to i64"));
        let bh = self.t();
        self.emit(format!("{bh} = shl i64 {b64}, 32"));
        let cat = self.t();
        self.emit(format!("{cat} = or i64 {bh}, {a64}"));
        let n64 = self.t();
        self.emit(format!("{n64} = zext i32 {n} to i64"));
        let r = self.t();
        if m.has(".l") {
            let s = self.t();
            self.emit(format!("{s} = shl i64 {cat}, {n64}"));
            let h = self.t();
            self.emit(format!("{h} = lshr i64 {s}, 32"));
            self.emit(format!("{r} = trunc i64 {h} to i32"));
        } else {
            let s = self.t();
            self.emit(format!("{s} = lshr i64 {cat}, {n64}"));
            self.emit(format!("{r} = trunc i64 {s} to i32"));
        }
        self.dst(&ops[0], ScalarType::B(32), &r)
    }

    /// `lop3.b32 d, a, b, c, immLut` (PTX ISA 9.7.8.6): any 3-input boolean function.
    fn lop3(&mut self, _m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 5)?;
        let lut = match &ops[4] {
            Operand::Imm(Immediate::Int(v)) => (*v as u32) & 0xff,
            _ => return Err(self.err("lop3 needs an immediate lookup table")),
        };
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let c = self.src(&ops[3], ScalarType::B(32))?;
        let (na, nb, nc) = (self.t(), self.t(), self.t());
        self.emit(format!("{na} = xor i32 {a}, -1"));
        self.emit(format!("{nb} = xor i32 {b}, -1"));
        self.emit(format!("{nc} = xor i32 {c}, -1"));
        let mut acc = "0".to_string();
        // Minterm k is set when bit k of the table is: a = 0xF0, b = 0xCC, c = 0xAA.
        for k in 0..8u32 {
            if lut & (1 << k) == 0 {
                continue;
            }
            let pa = if k & 4 != 0 { &a } else { &na };
            let pb = if k & 2 != 0 { &b } else { &nb };
            let pc = if k & 1 != 0 { &c } else { &nc };
            let (x, y, o) = (self.t(), self.t(), self.t());
            self.emit(format!("{x} = and i32 {pa}, {pb}"));
            self.emit(format!("{y} = and i32 {x}, {pc}"));
            self.emit(format!("{o} = or i32 {acc}, {y}"));
            acc = o;
        }
        self.dst(&ops[0], ScalarType::B(32), &acc)
    }

    /// `atom`/`red` (PTX ISA 9.7.13.5/6): real atomics, since blocks run on several host
    /// threads at once.
    fn atom(&mut self, opcode: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let is_red = opcode == "red";
        let (dst, rest) = if is_red { (None, ops) } else { (ops.first(), ops.get(1..).unwrap_or(&[])) };
        if rest.len() < 2 {
            return Err(self.err("atom needs an address and a value"));
        }
        let ptr = self.addr(&rest[0], m.space())?;
        let st = storage(ty);
        let size = super::types::size_of(ty);
        let op = m
            .flags
            .iter()
            .map(|f| &f[1..])
            .find(|f| matches!(*f, "add" | "min" | "max" | "inc" | "dec" | "and" | "or" | "xor" | "exch" | "cas"))
            .ok_or_else(|| self.err("missing atomic operation"))?;
        let b = self.src(&rest[1], ty)?;
        let t = self.t();
        if op == "cas" {
            let c = self.src(rest.get(2).ok_or_else(|| self.err("atom.cas needs 3 operands"))?, ty)?;
            let (bi, ci) = (self.as_int(&b, ty), self.as_int(&c, ty));
            let it = format!("i{}", bits(ty));
            let pair = self.t();
            self.emit(format!("{pair} = cmpxchg ptr {ptr}, {it} {bi}, {it} {ci} seq_cst seq_cst, align {size}"));
            self.emit(format!("{t} = extractvalue {{ {it}, i1 }} {pair}, 0"));
            let r = self.convert(&t, ScalarType::B(bits(ty)), ty, false);
            if let Some(d) = dst {
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
        self.emit(format!("{t} = atomicrmw {rmw} ptr {ptr}, {vt} {bv} seq_cst, align {size}"));
        if let Some(d) = dst {
            let r = if is_float(ty) { self.from_value(&t, ty) } else { t };
            self.dst(d, ty, &r)?;
        }
        Ok(())
    }

    fn as_int(&mut self, v: &str, ty: ScalarType) -> String {
        let s = storage(ty);
        self.bitcast(v, &s, &format!("i{}", bits(ty)))
    }

    fn barrier(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        if m.has(".arrive") || m.has(".red") {
            return Err(self.err("bar.arrive and bar.red are not supported yet"));
        }
        let id = match ops.first() {
            Some(o) => self.src(o, ScalarType::U(32))?,
            None => "0".into(),
        };
        let count = match ops.get(1) {
            Some(o) => self.src(o, ScalarType::U(32))?,
            None => "0".into(),
        };
        self.uses_barrier = true;
        self.call_runtime(host_abi::OFFSET_BARRIER, "void", &format!(", i32 {id}, i32 {count}"));
        Ok(())
    }

    /// `call` (PTX ISA 9.7.12.6). Every function takes `(ctx, returns..., params...)` as
    /// pointers to their `.param` storage; values in registers or immediates are spilled
    /// to a temporary so the callee sees the same layout.
    fn call(&mut self, _m: &Mods, ops: &[Operand]) -> R<()> {
        let callee_idx = ops
            .iter()
            .position(|o| !matches!(o, Operand::List(_)))
            .ok_or_else(|| self.err("call without a target"))?;
        let rets: &[Operand] = match callee_idx.checked_sub(1).and_then(|i| ops.get(i)) {
            Some(Operand::List(l)) => l,
            _ => &[],
        };
        let args: &[Operand] = match ops.get(callee_idx + 1) {
            Some(Operand::List(l)) => l,
            _ => &[],
        };
        let callee = match &ops[callee_idx] {
            Operand::Ident { name, .. } => name.clone(),
            _ => return Err(self.err("call target must be a name or a register")),
        };
        let mut ret_ptrs = Vec::new();
        let mut after = Vec::new();
        for r in rets {
            ret_ptrs.push(self.param_ptr(r, false, &mut after)?);
        }
        let mut arg_ptrs = Vec::new();
        for a in args {
            arg_ptrs.push(self.param_ptr(a, true, &mut after)?);
        }
        let target = match self.sig(&callee) {
            Some(sig) if sig.has_body => {
                if sig.n_returns != ret_ptrs.len() || sig.n_params != arg_ptrs.len() {
                    return Err(self.err(format!("call to '{callee}' has the wrong number of arguments")));
                }
                sig.ll.clone()
            }
            Some(_) => return self.extern_call(&callee, &ret_ptrs, &arg_ptrs, after),
            None => {
                // Indirect call through a register.
                let v = self.src(&ops[callee_idx], ScalarType::U(64))?;
                let t = self.t();
                self.emit(format!("{t} = inttoptr i64 {v} to ptr"));
                t
            }
        };
        let mut list = vec!["ptr %ctx".to_string()];
        list.extend(ret_ptrs.iter().chain(arg_ptrs.iter()).map(|p| format!("ptr {p}")));
        self.emit(format!("call void {target}({})", list.join(", ")));
        self.finish_call(after)
    }

    fn finish_call(&mut self, after: Vec<(String, Operand, ScalarType)>) -> R<()> {
        for (ptr, op, ty) in after {
            let t = self.t();
            self.emit(format!("{t} = load {}, ptr {ptr}", storage(ty)));
            self.dst(&op, ty, &t)?;
        }
        Ok(())
    }

    /// Calls to functions declared without a body: the CUDA runtime's device-side entry
    /// points that the host runtime provides.
    fn extern_call(&mut self, name: &str, rets: &[String], args: &[String], after: Vec<(String, Operand, ScalarType)>) -> R<()> {
        match name {
            "vprintf" if args.len() == 2 => {
                let (f, a) = (self.t(), self.t());
                self.emit(format!("{f} = load ptr, ptr {}", args[0]));
                self.emit(format!("{a} = load ptr, ptr {}", args[1]));
                let r = self.call_runtime(host_abi::OFFSET_VPRINTF, "i32", &format!(", ptr {f}, ptr {a}"));
                if let Some(rp) = rets.first() {
                    self.emit(format!("store i32 {r}, ptr {rp}"));
                }
                self.finish_call(after)
            }
            "__assertfail" => {
                self.call_runtime(host_abi::OFFSET_TRAP, "void", "");
                self.emit_terminator("ret void");
                Ok(())
            }
            _ => Err(self.err(format!(
                "call to '{name}', which is declared but not defined in this module (separate compilation is not supported yet)"
            ))),
        }
    }

    /// A pointer to the `.param` storage for one call argument or return value.
    fn param_ptr(&mut self, op: &Operand, is_arg: bool, after: &mut Vec<(String, Operand, ScalarType)>) -> R<String> {
        if let Operand::Ident { name, component: None } = op {
            match self.lookup(name).cloned() {
                Some(Local::Mem { ptr }) => return Ok(ptr),
                Some(Local::Reg { ty, .. }) => {
                    let tmp = self.alloca(&storage(ty), super::types::size_of(ty));
                    if is_arg {
                        let v = self.src(op, ty)?;
                        self.emit(format!("store {} {v}, ptr {tmp}", storage(ty)));
                    } else {
                        after.push((tmp.clone(), op.clone(), ty));
                    }
                    return Ok(tmp);
                }
                None => {}
            }
        }
        if is_arg {
            if let Operand::Imm(_) = op {
                let tmp = self.alloca("i64", 8);
                let v = self.src(op, ScalarType::B(64))?;
                self.emit(format!("store i64 {v}, ptr {tmp}"));
                return Ok(tmp);
            }
        }
        Err(self.err(format!("unsupported call operand {op:?}")))
    }
}

/// The suffix LLVM's overloaded intrinsics use for a type (`f32`, `f64`, `f16`, `v2f16`).
pub(crate) fn llvm_suffix(ty: &str) -> String {
    match ty {
        "float" => "f32".into(),
        "double" => "f64".into(),
        "half" => "f16".into(),
        "bfloat" => "bf16".into(),
        "<2 x half>" => "v2f16".into(),
        "<2 x bfloat>" => "v2bf16".into(),
        other => other.to_string(),
    }
}
