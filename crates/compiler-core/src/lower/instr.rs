//! Instruction semantics (PTX ISA 9.7), one function per instruction family.
//!
//! Each handler reads its operands with `FnLowerer::src`, computes in LLVM IR, and writes
//! with `FnLowerer::dst`. Where PTX defines a result that LLVM leaves undefined (shift
//! amounts past the width, float->int conversion of NaN or out-of-range values, division
//! by zero), the handler spells PTX's rule out explicitly.

use super::func::{FnLowerer, R};
use super::module::is_barrier;
use super::rounding::directed_mode;
use super::types::{bits, is_float, is_signed, storage, value, Mods};
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

    pub(crate) fn cvt(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 2)?;
        if m.types.len() < 2 {
            return Err(self.err("cvt needs destination and source types"));
        }
        let (dt, stype) = (m.types[0], m.types[1]);
        let narrow16 = matches!(dt, ScalarType::F16 | ScalarType::BF16 | ScalarType::F16x2 | ScalarType::BF16x2)
            && dt != stype
            && !matches!(stype, ScalarType::F16x2 | ScalarType::BF16x2 | ScalarType::Pred)
            && bits(stype) <= 64
            && !["rni", "rzi", "rmi", "rpi"].iter().any(|r| m.has(&format!(".{r}")));
        if narrow16 {
            return self.cvt_to_16(dt, stype, m, ops);
        }
        let raw = self.src(&ops[1], stype)?;
        let v = self.as_value(&raw, stype);
        let (dv, sv) = (value(dt), value(stype));
        let round = ["rni", "rzi", "rmi", "rpi"].iter().find(|r| m.has(&format!(".{r}"))).copied();
        let directed = directed_mode(&m.flags);
        let v = if is_float(stype) { self.ftz_in(&v, stype, m) } else { v };
        let res = if is_float(dt) && is_float(stype) {
            let (db, sb) = (bits(dt), bits(stype));
            let r = if let Some(r) = round { self.round_float(&v, &sv, r) } else { v.clone() };
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
            // NaN gives 0, except from f64 or into 64-bit integers, where the H200 gives
            // the destination's top bit alone (ptx-conformance/hardware-check.md rule 2).
            if stype == ScalarType::F64 || bits(dt) == 64 {
                let nan = self.t();
                self.emit(format!("{nan} = fcmp uno {sv} {v}, 0.0"));
                let top = -(1i128 << (bits(dt) - 1));
                let s = self.t();
                self.emit(format!("{s} = select i1 {nan}, {dv} {top}, {dv} {t}"));
                s
            } else if matches!(stype, ScalarType::F16 | ScalarType::BF16) {
                // The saturating conversion gives 0 for NaN by definition, but LLVM 19's x86
                // code for `half` sources on AVX-512 machines returns the integer minimum.
                let nan = self.t();
                self.emit(format!("{nan} = fcmp uno {sv} {v}, 0.0"));
                let s = self.t();
                self.emit(format!("{s} = select i1 {nan}, {dv} 0, {dv} {t}"));
                s
            } else {
                t
            }
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
            if m.has(".sat") {
                self.saturate_float(&r, &dv)
            } else {
                r
            }
        } else {
            res
        };
        let res = self.from_value(&res, dt);
        self.dst(&ops[0], dt, &res)
    }

    /// A float or integer source as an exact double, or rounded to odd (64-bit integers).
    /// `.ftz` leaves an f32 source as it is: PTX ISA 9.7.9.21 ("Subnormal numbers")
    /// flushes subnormal inputs only for float-to-integer conversions and f32-to-f32 ones
    /// with integer rounding, and NVIDIA's GPUs round a subnormal f32 in
    /// `cvt.{rm,rp}.ftz.f16.f32` like any other value (vosen/ptx_tests, `cvt.rs`).
    fn widen_to_double(&mut self, raw: &str, stype: ScalarType) -> String {
        match stype {
            ScalarType::F64 => raw.to_string(),
            ScalarType::F32 => {
                let t = self.t();
                self.emit(format!("{t} = fpext float {raw} to double"));
                t
            }
            ScalarType::F16 => {
                let h = self.as_value(raw, stype);
                let t = self.t();
                self.emit(format!("{t} = fpext half {h} to double"));
                t
            }
            ScalarType::BF16 => {
                let (z, s, f, t) = (self.t(), self.t(), self.t(), self.t());
                self.emit(format!("{z} = zext i16 {raw} to i32"));
                self.emit(format!("{s} = shl i32 {z}, 16"));
                self.emit(format!("{f} = bitcast i32 {s} to float"));
                self.emit(format!("{t} = fpext float {f} to double"));
                t
            }
            _ => {
                let w = bits(stype);
                let signed = is_signed(stype);
                let x = if w < 64 {
                    let t = self.t();
                    self.emit(format!("{t} = {} i{w} {raw} to i64", if signed { "sext" } else { "zext" }));
                    t
                } else {
                    raw.to_string()
                };
                let d = self.t();
                self.emit(format!("{d} = {} i64 {x} to double", if signed { "sitofp" } else { "uitofp" }));
                if w <= 53 {
                    return d;
                }
                // The sign of x - d, then d rounded to odd (d may be 2^63 or 2^64, just
                // past the range: then x < d).
                let limit = if signed { "0x43E0000000000000" } else { "0x43F0000000000000" };
                let (big, di, lt, gt) = (self.t(), self.t(), self.t(), self.t());
                self.emit(format!("{big} = fcmp oge double {d}, {limit}"));
                self.emit(format!("{di} = {} double {d} to i64", if signed { "fptosi" } else { "fptoui" }));
                let (l, g) = if signed { ("slt", "sgt") } else { ("ult", "ugt") };
                self.emit(format!("{lt} = icmp {l} i64 {x}, {di}"));
                self.emit(format!("{gt} = icmp {g} i64 {x}, {di}"));
                let (below, nb, above, e1, e) = (self.t(), self.t(), self.t(), self.t(), self.t());
                self.emit(format!("{below} = or i1 {lt}, {big}"));
                self.emit(format!("{nb} = xor i1 {big}, true"));
                self.emit(format!("{above} = and i1 {gt}, {nb}"));
                self.emit(format!("{e1} = select i1 {above}, double 1.0, double 0.0"));
                self.emit(format!("{e} = select i1 {below}, double -1.0, double {e1}"));
                self.round_to_odd(&d, &e)
            }
        }
    }

    /// A double rounded to f16/bf16 bits (i16) in the instruction's mode; NaNs keep
    /// their sign and leading payload, made quiet. `.relu` maps negatives to +0 and NaN
    /// to the canonical NaN.
    fn double_to_16(&mut self, d: &str, bf: bool, m: &Mods) -> String {
        let mode = directed_mode(&m.flags);
        let r = self.round_to_16(d, bf, mode);
        let mb = if bf { 7 } else { 10 };
        let exp_ones: i64 = if bf { 0x7f80 } else { 0x7c00 };
        let (x, sh, p16, q, s, sg, n, isn) = (self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{x} = bitcast double {d} to i64"));
        self.emit(format!("{sh} = lshr i64 {x}, {}", 52 - mb));
        self.emit(format!("{p16} = trunc i64 {sh} to i16"));
        self.emit(format!("{q} = and i16 {p16}, {}", (1 << mb) - 1));
        self.emit(format!("{s} = or i16 {q}, {}", exp_ones | (1 << (mb - 1))));
        self.emit(format!("{sg} = lshr i64 {x}, 48"));
        self.emit(format!("{n} = fcmp uno double {d}, 0.0"));
        let (sg16, sgm, nanb) = (self.t(), self.t(), self.t());
        self.emit(format!("{sg16} = trunc i64 {sg} to i16"));
        self.emit(format!("{sgm} = and i16 {sg16}, -32768"));
        self.emit(format!("{nanb} = or i16 {s}, {sgm}"));
        self.emit(format!("{isn} = select i1 {n}, i16 {nanb}, i16 {r}"));
        if !m.has(".relu") {
            return isn;
        }
        let (negr, z, c) = (self.t(), self.t(), self.t());
        self.emit(format!("{negr} = icmp slt i16 {isn}, 0"));
        self.emit(format!("{z} = select i1 {negr}, i16 0, i16 {isn}"));
        self.emit(format!("{c} = select i1 {n}, i16 32767, i16 {z}"));
        c
    }

    /// `cvt` into f16/bf16 (and the packing `cvt.{f16x2,bf16x2}.f32 d, a, b`: a in the
    /// high half): through an exact double and one rounding (PTX ISA 9.7.9.21).
    fn cvt_to_16(&mut self, dt: ScalarType, stype: ScalarType, m: &Mods, ops: &[Operand]) -> R<()> {
        let bf = matches!(dt, ScalarType::BF16 | ScalarType::BF16x2);
        let one = |l: &mut Self, op: &Operand| -> R<String> {
            let raw = l.src(op, stype)?;
            let d = l.widen_to_double(&raw, stype);
            Ok(l.double_to_16(&d, bf, m))
        };
        if matches!(dt, ScalarType::F16x2 | ScalarType::BF16x2) {
            let ops = self.operands(ops, 3)?;
            let hi = one(self, &ops[1])?;
            let lo = one(self, &ops[2])?;
            let (h, l, hs, r) = (self.t(), self.t(), self.t(), self.t());
            self.emit(format!("{h} = zext i16 {hi} to i32"));
            self.emit(format!("{l} = zext i16 {lo} to i32"));
            self.emit(format!("{hs} = shl i32 {h}, 16"));
            self.emit(format!("{r} = or i32 {hs}, {l}"));
            return self.dst(&ops[0], dt, &r);
        }
        let r = one(self, &ops[1])?;
        let r = if m.has(".sat") {
            let v = self.as_value(&r, dt);
            let s = self.saturate_float(&v, &value(dt));
            self.from_value(&s, dt)
        } else {
            r
        };
        self.dst(&ops[0], dt, &r)
    }

    /// `mul.ftz`/`div.ftz` on f32 flush results whose exact value is below the smallest
    /// normal even when they round up to it (tininess before rounding, as on the H200).
    /// Products are exact in f64; quotients are close enough there to decide.
    fn ftz_tiny_before(&mut self, op: &str, ty: ScalarType, m: &Mods, a: &str, b: &str, t: &str) -> String {
        if ty != ScalarType::F32 || !m.has(".ftz") || !matches!(op, "mul" | "div") {
            return t.to_string();
        }
        let (da, db, q, qa, tiny, nz, both, z, r) = (self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("{da} = fpext float {a} to double"));
        self.emit(format!("{db} = fpext float {b} to double"));
        self.emit(format!("{q} = {} double {da}, {db}", if op == "mul" { "fmul" } else { "fdiv" }));
        self.emit(format!("{qa} = call double @llvm.fabs.f64(double {q})"));
        self.emit(format!("{tiny} = fcmp olt double {qa}, 0x3810000000000000"));
        self.emit(format!("{nz} = fcmp one double {qa}, 0.0"));
        self.emit(format!("{both} = and i1 {tiny}, {nz}"));
        self.emit(format!("{z} = call float @llvm.copysign.f32(float 0.0, float {t})"));
        self.emit(format!("{r} = select i1 {both}, float {z}, float {t}"));
        r
    }

    /// `.ftz` on f32 (PTX ISA 9.7.3): subnormal inputs and results become signed zero.
    pub(crate) fn ftz_in(&mut self, v: &str, ty: ScalarType, m: &Mods) -> String {
        if ty != ScalarType::F32 || !m.has(".ftz") {
            return v.to_string();
        }
        self.flush_f32(v)
    }

    /// An f32 subnormal becomes a zero of its sign.
    pub(crate) fn flush_f32(&mut self, v: &str) -> String {
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

    pub(crate) fn int_saturate(&mut self, v: &str, from: ScalarType, to: ScalarType) -> String {
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

    pub(crate) fn round_float(&mut self, v: &str, ty: &str, r: &str) -> String {
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

    pub(crate) fn binary(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        if matches!(op, "min" | "max" | "add") {
            if let Some(signed) = m.flags.iter().find_map(|f| match *f {
                ".u16x2" => Some(false),
                ".s16x2" => Some(true),
                _ => None,
            }) {
                return self.packed_min_max(op, signed, m, ops);
            }
        }
        let ty = self.ty0(m)?;
        if super::half::is_half(ty) && matches!(op, "add" | "sub" | "mul" | "min" | "max") {
            return self.half_arith(op, ty, m, ops);
        }
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
                    let t = self.ftz_tiny_before(op, ty, m, &a, &b, &t);
                    let t = self.ftz_in(&t, ty, m);
                    let t = if m.has(".sat") { self.saturate_float(&t, &vt) } else { t };
                    return self.dst(&ops[0], ty, &t);
                }
            }
            // min/max.xorsign.abs: compare magnitudes, the sign is sign(a) ^ sign(b).
            let (a, b, xsign) = if matches!(op, "min" | "max") && m.has(".xorsign") && matches!(ty, ScalarType::F32 | ScalarType::F64) {
                let it = if ty == ScalarType::F32 { "i32" } else { "i64" };
                let (ia, ib) = (self.bitcast(&a, &vt, it), self.bitcast(&b, &vt, it));
                let x = self.t();
                self.emit(format!("{x} = xor {it} {ia}, {ib}"));
                let (fa, fb) = (self.t(), self.t());
                self.emit(format!("{fa} = call {vt} @llvm.fabs.{}({vt} {a})", llvm_suffix(&vt)));
                self.emit(format!("{fb} = call {vt} @llvm.fabs.{}({vt} {b})", llvm_suffix(&vt)));
                (fa, fb, Some(x))
            } else {
                (a, b, None)
            };
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
            let t = if matches!(op, "min" | "max") && matches!(ty, ScalarType::F32 | ScalarType::F64) {
                self.min_max_fixup(op, ty, &vt, &t, &a, &b, m, xsign.as_deref())
            } else if op == "div" && ty == ScalarType::F32 && m.has(".approx") {
                self.div_approx_huge_divisor(&t, &a, &b)
            } else {
                t
            };
            let t = self.ftz_tiny_before(op, ty, m, &a, &b, &t);
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
                if m.has(".relu") {
                    // .relu (s32): negative results become 0.
                    let r = self.t();
                    self.emit(format!("{r} = call {it} @llvm.smax.{it}({it} {t}, {it} 0)"));
                    return self.dst(&ops[0], ty, &r);
                }
            }
            "and" | "or" | "xor" => self.emit(format!("{t} = {op} {it} {a}, {b}")),
            _ => unreachable!(),
        }
        self.dst(&ops[0], ty, &t)
    }

    /// PTX's f32/f64 `min`/`max` beyond LLVM's minnum/maxnum: -0 orders below +0, and
    /// two NaN operands give the canonical NaN (f32; f64 keeps a NaN operand).
    #[allow(clippy::too_many_arguments)]
    fn min_max_fixup(&mut self, op: &str, ty: ScalarType, vt: &str, t: &str, a: &str, b: &str, m: &Mods, xsign: Option<&str>) -> String {
        // Zeros: max is a + b (+0 unless both are -0), min is -((-a) + (-b)).
        let isz = self.t();
        self.emit(format!("{isz} = fcmp oeq {vt} {t}, 0.0"));
        let same = self.t();
        self.emit(format!("{same} = fcmp oeq {vt} {a}, {b}"));
        let both = self.t();
        self.emit(format!("{both} = and i1 {isz}, {same}"));
        let z = if op == "max" {
            let z = self.t();
            self.emit(format!("{z} = fadd {vt} {a}, {b}"));
            z
        } else {
            let (na, nb, s, z) = (self.t(), self.t(), self.t(), self.t());
            self.emit(format!("{na} = fneg {vt} {a}"));
            self.emit(format!("{nb} = fneg {vt} {b}"));
            self.emit(format!("{s} = fadd {vt} {na}, {nb}"));
            self.emit(format!("{z} = fneg {vt} {s}"));
            z
        };
        let mut r = self.t();
        self.emit(format!("{r} = select i1 {both}, {vt} {z}, {vt} {t}"));
        let it = if ty == ScalarType::F32 { "i32" } else { "i64" };
        if let Some(x) = xsign {
            // The magnitude's sign bit is clear: set it from sign(a) ^ sign(b).
            let sign = if ty == ScalarType::F32 { "-2147483648" } else { "-9223372036854775808" };
            let s = self.t();
            self.emit(format!("{s} = and {it} {x}, {sign}"));
            let ir = self.bitcast(&r, vt, it);
            let o = self.t();
            self.emit(format!("{o} = or {it} {ir}, {s}"));
            r = self.bitcast(&o, it, vt);
        }
        // .NaN: any NaN operand gives the canonical NaN; otherwise two NaNs do (f32).
        let nan = self.t();
        if m.has(".NaN") {
            self.emit(format!("{nan} = fcmp uno {vt} {a}, {b}"));
        } else if ty == ScalarType::F32 {
            self.emit(format!("{nan} = fcmp uno {vt} {r}, 0.0"));
        } else {
            return r;
        }
        let canon = if ty == ScalarType::F32 { "0x7FFFFFFFE0000000" } else { "0x7FFFFFFFFFFFFFFF" };
        let c = self.t();
        self.emit(format!("{c} = select i1 {nan}, {vt} {canon}, {vt} {r}"));
        c
    }

    /// `min`/`max` on `.u16x2`/`.s16x2` (PTX ISA 9.7.1.10/11): per 16-bit half, `.relu`
    /// (signed only) clamping negative results to 0. `add.u16x2`/`add.s16x2` (9.7.1.1,
    /// sm_90; what nvcc emits for `__vadd2`): per half, wrapping.
    fn packed_min_max(&mut self, op: &str, signed: bool, m: &Mods, ops: &[Operand]) -> R<()> {
        let ops = self.operands(ops, 3)?;
        let a = self.src(&ops[1], ScalarType::B(32))?;
        let b = self.src(&ops[2], ScalarType::B(32))?;
        let (va, vb) = (self.bitcast(&a, "i32", "<2 x i16>"), self.bitcast(&b, "i32", "<2 x i16>"));
        if op == "add" {
            let t = self.t();
            self.emit(format!("{t} = add <2 x i16> {va}, {vb}"));
            let r = self.bitcast(&t, "<2 x i16>", "i32");
            return self.dst(&ops[0], ScalarType::B(32), &r);
        }
        let f = match (op, signed) {
            ("min", true) => "smin",
            ("min", false) => "umin",
            ("max", true) => "smax",
            _ => "umax",
        };
        let mut t = self.t();
        self.emit(format!("{t} = call <2 x i16> @llvm.{f}.v2i16(<2 x i16> {va}, <2 x i16> {vb})"));
        if m.has(".relu") {
            let r = self.t();
            self.emit(format!("{r} = call <2 x i16> @llvm.smax.v2i16(<2 x i16> {t}, <2 x i16> zeroinitializer)"));
            t = r;
        }
        let r = self.bitcast(&t, "<2 x i16>", "i32");
        self.dst(&ops[0], ScalarType::B(32), &r)
    }

    /// Extended-precision arithmetic through the carry flag `CC.CF` (PTX ISA 9.7.2):
    /// `add.cc`, `addc[.cc]`, `sub.cc`, `subc[.cc]`, `mad{.lo,.hi}.cc`, `madc{.lo,.hi}[.cc]`.
    /// For subtraction the flag holds the borrow.
    pub(crate) fn carry_arith(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let w = bits(ty);
        let it = format!("i{w}");
        let is_mad = op.starts_with("mad");
        let ops = self.operands(ops, if is_mad { 4 } else { 3 })?;
        let a = self.src(&ops[1], ty)?;
        let b = self.src(&ops[2], ty)?;
        let carry_in = matches!(op, "addc" | "subc" | "madc");
        let sets = m.has(".cc");
        // The hardware subtracts as `a + ~b + carry`: after `sub.cc`, CC.CF holds the
        // carry, which is 1 when nothing was borrowed, and `subc` borrows when CC.CF is 0
        // (an `addc` after a borrowing `sub.cc` adds 0 on NVIDIA GPUs: ZLUDA's
        // `subc_cc_s32` test, checked on an H200).
        let borrows = op.starts_with("sub");
        let cin = if carry_in {
            let c = self.t();
            self.emit(format!("{c} = load i1, ptr {}", self.carry));
            let c = if borrows {
                let b = self.t();
                self.emit(format!("{b} = xor i1 {c}, true"));
                b
            } else {
                c
            };
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
            let flag = if borrows {
                let c = self.t();
                self.emit(format!("{c} = xor i1 {flag}, true"));
                c
            } else {
                flag
            };
            self.emit(format!("store i1 {flag}, ptr {}", self.carry));
        }
        self.dst(&ops[0], ty, &res)
    }

    /// `sad` (PTX ISA 9.7.1.11): |a - b| + c.
    pub(crate) fn sad(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
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

    pub(crate) fn saturate_float(&mut self, v: &str, vt: &str) -> String {
        // .sat clamps to [0, 1] and maps NaN to 0.
        let s = llvm_suffix(vt);
        let a = self.t();
        self.emit(format!("{a} = call {vt} @llvm.maxnum.{s}({vt} {v}, {vt} 0.0)"));
        let b = self.t();
        self.emit(format!("{b} = call {vt} @llvm.minnum.{s}({vt} {a}, {vt} 1.0)"));
        b
    }

    /// `mul.lo/.hi/.wide` (PTX ISA 9.7.1.3) with an optional addend for `mad`.
    pub(crate) fn int_mul(&mut self, m: &Mods, ty: ScalarType, d: &Operand, a: &str, b: &str, c: Option<&Operand>) -> R<()> {
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

    pub(crate) fn add_opt(&mut self, v: &str, it: &str, ty: ScalarType, c: Option<&Operand>, sat: bool) -> R<String> {
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

    pub(crate) fn mad(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        if super::half::is_half(ty) && !m.flags.iter().any(|f| matches!(*f, ".rz" | ".rm" | ".rp")) {
            return self.half_arith("fma", ty, m, ops);
        }
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
    pub(crate) fn mul24(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
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
        let r = self.add_opt(&r, "i32", ty, ops.get(3).filter(|_| op == "mad24"), m.has(".sat"))?;
        self.dst(&ops[0], ty, &r)
    }

    pub(crate) fn unary(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        if super::half::is_half(ty) && matches!(op, "neg" | "abs") {
            return self.half_arith(op, ty, m, ops);
        }
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
                // Through an intrinsic: not every target can lower llvm.tanh.
                "tanh" if vt == "float" => self.emit(format!("{t} = call float @__ptx_tanh_f32(float {a})")),
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
                // `.b1` (a non-standard width) is already i1: `zext` to the same type is invalid.
                let op = if it == "i1" { "bitcast" } else { "zext" };
                self.emit(format!("{t} = {op} i1 {c} to {it}"));
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
    pub(crate) fn shift(&mut self, op: &str, m: &Mods, ops: &[Operand]) -> R<()> {
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

    /// `testp.class.{f32,f64} p, a` (PTX ISA 9.7.3.3), on the bits. `.normal` is true
    /// for zeros too, as on the H200 (ptx-conformance/hardware-check.md rule 5).
    pub(crate) fn testp(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
        let ty = self.ty0(m)?;
        let ops = self.operands(ops, 2)?;
        let a = self.src(&ops[1], ty)?;
        let (it, signless, inf, min_normal): (&str, u64, u64, u64) = match ty {
            ScalarType::F32 => ("i32", 0x7fff_ffff, 0x7f80_0000, 0x0080_0000),
            ScalarType::F64 => ("i64", 0x7fff_ffff_ffff_ffff, 0x7ff0_0000_0000_0000, 0x0010_0000_0000_0000),
            _ => return Err(self.err("testp is defined on .f32 and .f64")),
        };
        let x = self.bitcast(&a, &storage(ty), it);
        let ab = self.t();
        self.emit(format!("{ab} = and {it} {x}, {signless}"));
        let class = m
            .flags
            .iter()
            .map(|f| &f[1..])
            .find(|f| matches!(*f, "finite" | "infinite" | "number" | "notanumber" | "normal" | "subnormal"))
            .ok_or_else(|| self.err("testp needs a class"))?;
        let r = self.t();
        match class {
            "finite" => self.emit(format!("{r} = icmp ult {it} {ab}, {inf}")),
            "infinite" => self.emit(format!("{r} = icmp eq {it} {ab}, {inf}")),
            "number" => self.emit(format!("{r} = icmp ule {it} {ab}, {inf}")),
            "notanumber" => self.emit(format!("{r} = icmp ugt {it} {ab}, {inf}")),
            _ => {
                // subnormal: 0 < |a| < min normal (as an unsigned range check).
                let d = self.t();
                self.emit(format!("{d} = sub {it} {ab}, 1"));
                let sub = self.t();
                self.emit(format!("{sub} = icmp ult {it} {d}, {}", min_normal - 1));
                if class == "subnormal" {
                    self.emit(format!("{r} = or i1 {sub}, false"));
                } else {
                    let fin = self.t();
                    self.emit(format!("{fin} = icmp ult {it} {ab}, {inf}"));
                    let ns = self.t();
                    self.emit(format!("{ns} = xor i1 {sub}, true"));
                    self.emit(format!("{r} = and i1 {fin}, {ns}"));
                }
            }
        }
        self.dst(&ops[0], ScalarType::Pred, &r)
    }

    pub(crate) fn copysign(&mut self, m: &Mods, ops: &[Operand]) -> R<()> {
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
