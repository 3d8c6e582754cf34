//! Instruction semantics (PTX ISA 9.7), one function per instruction family.
//!
//! Each handler reads its operands with `FnLowerer::src`, computes in LLVM IR, and writes
//! with `FnLowerer::dst`. Where PTX defines a result that LLVM leaves undefined (shift
//! amounts past the width, float->int conversion of NaN or out-of-range values, division
//! by zero), the handler spells PTX's rule out explicitly.
//!
//! This module dispatches each opcode to its handler and lowers `mov`; the arithmetic
//! families live in `arith`, `int_arith`, `cvt`, `unary` and `select`, the others in
//! modules of their own.

use super::func::{FnLowerer, R};
use super::module::is_barrier;
use super::types::{bits, storage, value, Mods};
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

    pub(crate) fn unguarded(&mut self, i: &Instruction) -> R<()> {
        let m = Mods::new(&i.modifiers);
        super::int_width::check_instruction(i, &m.types, &m.flags)?;
        if super::warp::is_collective(i) {
            return self.collective(i);
        }
        let ops = &i.operands;
        let carry = m.has(".cc") || matches!(i.opcode.as_str(), "addc" | "subc" | "madc");
        match i.opcode.as_str() {
            "add" | "sub" | "mad" | "addc" | "subc" | "madc" if carry => self.carry_arith(&i.opcode, &m, ops),
            "sad" => self.sad(&m, ops),
            "mov" => self.mov(&m, ops),
            "ld" | "ldu" => self.ld(&m, ops),
            "st" => self.st(&m, ops),
            "cvta" => self.cvta(&m, ops),
            "isspacep" => self.isspacep(&m, ops),
            "cvt" if m.has(".pack") => self.cvt_pack(&m, ops),
            "cvt" if m.has(".tf32") => self.cvt_tf32(&m, ops),
            "cvt" => match super::fp8::Fp8::of_cvt(i) {
                Some((f, narrow)) => self.cvt_fp8(f, narrow, &m, ops),
                None => self.cvt(&m, ops),
            },
            "add" | "sub" | "mul" | "div" | "rem" | "min" | "max" | "and" | "or" | "xor" => self.binary(&i.opcode, &m, ops),
            "mad" | "fma" => self.mad(&i.opcode, &m, ops),
            "mul24" | "mad24" => self.mul24(&i.opcode, &m, ops),
            "neg" | "not" | "abs" | "cnot" | "popc" | "clz" | "brev" | "sqrt" | "rsqrt" | "rcp" | "ex2" | "lg2" | "sin" | "cos" | "tanh" => {
                self.unary(&i.opcode, &m, ops)
            }
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
            "fns" => self.fns(&m, ops),
            "bmsk" => self.bmsk(&m, ops),
            "szext" => self.szext(&m, ops),
            "dp4a" | "dp2a" => self.dot(&i.opcode, &m, ops),
            "testp" => self.testp(&m, ops),
            "shf" => self.shf(&m, ops),
            "lop3" => self.lop3(&m, ops),
            "atom" | "red" => self.atom(&i.opcode, &m, ops),
            op if super::video::is_simd(op) => self.video_simd(op, &m, ops),
            op if super::video::is_scalar(op) => self.video_scalar(op, &m, ops),
            "vmad" => self.vmad(&m, ops),
            "exit" if self.cx.warp_size == 64 => self.converged_exit(),
            "ret" | "exit" => {
                let ret = self.ret_exit();
                self.emit_terminator(ret);
                Ok(())
            }
            "trap" => {
                self.intrinsic("__ptx_trap", "");
                let ret = self.ret_exit();
                self.emit_terminator(ret);
                Ok(())
            }
            "call" => self.call(&m, ops),
            "bar" | "barrier" if is_barrier(i) => self.barrier(&m, ops),
            "bar" | "barrier" => Ok(()), // bar.warp.sync: threads of a warp run in order here
            "membar" | "fence" => self.fence(&i.opcode, &m),
            "cp" => self.cp(i),
            "mbarrier" => self.mbarrier(i),
            "tex" | "tld4" | "txq" | "suld" | "sust" | "suq" => self.texture(i),
            "wmma" => self.wmma_memory(i),
            "nanosleep" => {
                let ns = match ops.first() {
                    Some(o) => self.src(o, ScalarType::U(32))?,
                    None => "0".into(),
                };
                self.intrinsic("__ptx_nanosleep", &format!("i32 {ns}"));
                Ok(())
            }
            "prefetch" | "prefetchu" | "pmevent" | "discard" | "applypriority" | "createpolicy" => Ok(()),
            // Programmatic dependent launch (PTX ISA 9.7.13.x `griddepcontrol`): a grid here
            // starts only once the grids before it on its stream have finished, so there is
            // never a dependent grid to release early nor a prerequisite left to wait for.
            "griddepcontrol" => Ok(()),
            op => Err(self.err(format!("instruction '{op}' is not supported yet"))),
        }
    }

    pub(crate) fn ty0(&self, m: &Mods) -> R<ScalarType> {
        m.types.first().copied().ok_or_else(|| self.err("missing type modifier"))
    }

    pub(crate) fn operands<'o>(&self, ops: &'o [Operand], n: usize) -> R<&'o [Operand]> {
        if ops.len() < n {
            return Err(self.err(format!("expected {n} operands, found {}", ops.len())));
        }
        Ok(ops)
    }

    pub(crate) fn mov(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        // `mov.v4.u16 {a, b, c, d}, {e, f, g, h}` (PTX ISA 9.7.9.1): element by element,
        // every source read before any destination is written.
        if let (Some(_), Operand::Vector(ds), Operand::Vector(ss)) = (m.vector(), &ops[0], &ops[1]) {
            if ds.len() != ss.len() {
                return Err(self.err("mov of vectors of different lengths"));
            }
            let values = ss.iter().map(|s| self.src(s, ty)).collect::<R<Vec<_>>>()?;
            for (d, v) in ds.iter().zip(&values) {
                self.dst(d, ty, v)?;
            }
            return Ok(());
        }
        // 64-bit clock reads are the only special registers wider than 32 bits.
        if let Operand::Ident { name, component: None } = &ops[1] {
            if bits(ty) == 64 && (name == "%clock64" || name == "%globaltimer") {
                let t = self.wide_special(name).expect("a 64-bit special register");
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

    /// Compute in the value type: turn a storage-typed value into the value type.
    pub(crate) fn as_value(&mut self, v: &str, ty: ScalarType) -> String {
        let (s, val) = (storage(ty), value(ty));
        self.bitcast(v, &s, &val)
    }

    pub(crate) fn from_value(&mut self, v: &str, ty: ScalarType) -> String {
        let (s, val) = (storage(ty), value(ty));
        self.bitcast(v, &val, &s)
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
