//! The vector emitter shared by all strips: one PTX instruction as
//! one operation on `<N x T>` lanes, registers in `<N x T>` allocas, an optional lane
//! mask (forward branches), and loads and stores that check at run time whether the
//! active lanes' addresses are consecutive.

use crate::lower::module::{ModuleCx, Symbol};
use crate::lower::types::{bits, size_of, storage, Mods};
use crate::ptx::ast::*;
use std::collections::HashMap;
use std::fmt::Write;

pub(super) type W<T> = Result<T, String>;

/// The LLVM comparison of PTX `setp` operator `op` (with its dot) on 32- or 64-bit type
/// `ty` (`lower::compare::comparison`).
pub(super) fn compare(op: &str, ty: ScalarType) -> Option<&'static str> {
    let float = matches!(ty, ScalarType::F32 | ScalarType::F64);
    let int = matches!(ty, ScalarType::B(_) | ScalarType::U(_) | ScalarType::S(_));
    (float || int).then(|| crate::lower::compare::comparison(op.strip_prefix('.')?, float, matches!(ty, ScalarType::S(_)))).flatten()
}

/// Whether [`Wide::instruction`] has instruction `i`'s form (opcode, types, modifiers):
/// 32- and 64-bit integer and float arithmetic, comparisons and integer conversions,
/// weak loads and stores of global, shared, generic (and parameter) memory, and with
/// `warp` the shuffles. Anything else makes the strip fail, and its state keeps the
/// per-thread path.
pub(super) fn form_supported(i: &Instruction, warp: bool) -> bool {
    let m = Mods::new(&i.modifiers);
    let Some(&ty) = m.types.first() else { return false };
    let word = |t: ScalarType| {
        matches!(t, ScalarType::B(32 | 64) | ScalarType::U(32 | 64) | ScalarType::S(32 | 64) | ScalarType::F32 | ScalarType::F64 | ScalarType::Pred)
    };
    if !m.types.iter().all(|&t| word(t)) {
        return false;
    }
    let int = matches!(ty, ScalarType::B(_) | ScalarType::U(_) | ScalarType::S(_));
    let float = matches!(ty, ScalarType::F32 | ScalarType::F64);
    let only = |allowed: &[&str]| m.flags.iter().all(|f| allowed.contains(f));
    const ACCESS: &[&str] = &[".global", ".shared", ".shared::cta", ".param", ".nc", ".ca", ".cg", ".cs", ".lu"];
    let n = i.operands.len();
    match i.opcode.as_str() {
        "mov" => n == 2 && only(&[]),
        "add" | "sub" => n == 3 && ((int && only(&[])) || (float && only(&[".rn"]))),
        "mul" => n == 3 && ((int && (only(&[".lo"]) || (only(&[".wide"]) && bits(ty) == 32))) || (float && only(&[".rn"]))),
        "mad" => n == 4 && int && (only(&[".lo"]) || (only(&[".wide"]) && bits(ty) == 32)),
        "fma" => n == 4 && float && only(&[".rn"]) && m.has(".rn"),
        "and" | "or" | "xor" => n == 3 && (int || ty == ScalarType::Pred) && only(&[]),
        "not" => n == 2 && (int || ty == ScalarType::Pred) && only(&[]),
        "neg" => n == 2 && (int || float) && only(&[]),
        "shl" | "shr" | "min" | "max" => n == 3 && int && only(&[]),
        "setp" => n == 3 && m.flags.len() == 1 && compare(m.flags[0], ty).is_some(),
        "selp" => n == 4 && only(&[]),
        "cvt" => {
            n == 2 && m.types.len() == 2 && m.types.iter().all(|t| matches!(t, ScalarType::B(_) | ScalarType::U(_) | ScalarType::S(_))) && only(&[])
        }
        "cvta" => n == 2 && ty == ScalarType::U(64) && only(&[".to", ".global"]) && m.has(".global"),
        "ld" => n == 2 && ty != ScalarType::Pred && only(ACCESS) && matches!(i.operands[0], Operand::Ident { component: None, .. }),
        "st" => {
            n == 2
                && ty != ScalarType::Pred
                && only(ACCESS)
                && m.space() != Some(StateSpace::Param)
                && matches!(i.operands[1], Operand::Ident { .. } | Operand::Imm(_))
        }
        "shfl" => warp && n == 5 && ty == ScalarType::B(32) && only(&[".sync", ".up", ".down", ".bfly", ".idx"]) && m.flags.len() == 2,
        _ => false,
    }
}

/// The element suffix LLVM's overloaded intrinsics use for `ty`'s storage.
pub(super) fn llvm_elem(ty: ScalarType) -> String {
    match ty {
        ScalarType::F32 => "f32".into(),
        ScalarType::F64 => "f64".into(),
        t => format!("i{}", bits(t)),
    }
}

/// The vector emitter of one strip function.
pub(super) struct Wide<'a> {
    pub cx: &'a ModuleCx<'a>,
    pub regs: &'a HashMap<String, ScalarType>,
    pub params: HashMap<&'a str, u64>,
    /// Lanes per vector.
    pub lanes: u32,
    /// Whether the lanes are the lanes of one warp (`%laneid` is the lane index).
    pub warp: bool,
    /// Register name -> (alloca, type).
    pub allocas: HashMap<String, (String, ScalarType)>,
    /// Entry-block code (uniform values, save-area offsets).
    pub prelude: String,
    pub body: String,
    pub tmp: u32,
    /// The lanes executing the current instruction (`<N x i1>`), or `None` for all.
    pub mask: Option<String>,
    /// Registers whose only definition moves an integer constant into them (a shuffle's
    /// lane and clamp operands, as nvcc writes them).
    pub constants: HashMap<String, i128>,
    /// The sample evaluations that guess address patterns (`pattern`), for strips that
    /// use windows.
    pub guess: Option<super::pattern::Guesser>,
    /// The guessed pattern of the load or store being emitted.
    pub(super) pattern: Option<Vec<i64>>,
    /// Entry-block scratch slots by type (`scratch`).
    scratch_slots: HashMap<String, String>,
}

impl<'a> Wide<'a> {
    pub fn new(cx: &'a ModuleCx<'a>, f: &'a Function, regs: &'a HashMap<String, ScalarType>, lanes: u32, warp: bool) -> Wide<'a> {
        let sig = crate::lower::func::kernel_signature(f, cx.warp_size);
        let params = f.params.iter().zip(&sig.params).map(|(p, &(off, _))| (p.name.as_str(), off as u64)).collect();
        Wide {
            cx,
            regs,
            params,
            lanes,
            warp,
            allocas: HashMap::new(),
            prelude: String::new(),
            body: String::new(),
            tmp: 0,
            mask: None,
            constants: HashMap::new(),
            guess: None,
            pattern: None,
            scratch_slots: HashMap::new(),
        }
    }

    /// The vector type of `ty`'s storage.
    pub fn vt(&self, ty: ScalarType) -> String {
        format!("<{} x {}>", self.lanes, storage(ty))
    }

    /// A vector constant with every lane `elem` (typed text such as `i32 4`).
    pub fn splat_const(&self, elem: &str) -> String {
        let lanes: Vec<&str> = (0..self.lanes).map(|_| elem).collect();
        format!("<{}>", lanes.join(", "))
    }

    /// The head of a strip function `name` (`void (ptr ctx, ptr params, ptr save, i64
    /// nthreads, i64 t0, i32 x0, ptr states)`) up to its entry block's own code: the
    /// shared window, `%lane` (the lane index), `%tid.x` (`x0 + lane`) and `%all.lanes`.
    pub fn function_head(&self, name: &str) -> String {
        let n = self.lanes;
        format!(
            r#"define internal void {name}(ptr %ctx, ptr %params, ptr %save, i64 %nthreads, i64 %t0, i32 %x0, ptr %states) alwaysinline {{
entry:
  %shared = call ptr @__ptx_shared_base(ptr %ctx)
  %x0.v = insertelement <{n} x i32> poison, i32 %x0, i64 0
  %x0.s = shufflevector <{n} x i32> %x0.v, <{n} x i32> poison, <{n} x i32> zeroinitializer
  %lane = add <{n} x i32> zeroinitializer, {iota}
  %tid.x = add <{n} x i32> %x0.s, %lane
  %all.lanes = icmp eq <{n} x i32> zeroinitializer, zeroinitializer
"#,
            iota = self.iota("i32", 1)
        )
    }

    /// `<0, 1, ..., N-1> * step` as an `iN` vector constant.
    pub fn iota(&self, ty: &str, step: u64) -> String {
        let v: Vec<String> = (0..u64::from(self.lanes)).map(|l| format!("{ty} {}", l * step)).collect();
        format!("<{}>", v.join(", "))
    }

    pub fn t(&mut self) -> String {
        self.tmp += 1;
        format!("%w{}", self.tmp)
    }

    pub fn emit(&mut self, line: impl AsRef<str>) {
        let _ = writeln!(self.body, "  {}", line.as_ref());
    }

    pub fn block(&mut self, hint: &str) -> String {
        self.tmp += 1;
        format!("{hint}{}", self.tmp)
    }

    pub fn label(&mut self, name: &str) {
        let _ = writeln!(self.body, "{name}:");
    }

    /// The lanes allowed to act now: the mask, or every lane (`%all.lanes`).
    pub fn active(&self) -> String {
        self.mask.clone().unwrap_or_else(|| "%all.lanes".into())
    }

    /// Byte offset of thread `t0`'s element of the save-area array at `prefix` (an SSA
    /// value emitted into the prelude).
    pub fn slot_offset(&mut self, prefix: u64, size: u64) -> String {
        let (a, b, c) = (self.t(), self.t(), self.t());
        let _ = writeln!(self.prelude, "  {a} = mul i64 %nthreads, {prefix}\n  {b} = mul i64 %t0, {size}\n  {c} = add i64 {a}, {b}");
        c
    }

    /// An entry-block stack slot of type `ty` for scratch use, one per type.
    fn scratch(&mut self, ty: &str) -> String {
        if let Some(slot) = self.scratch_slots.get(ty) {
            return slot.clone();
        }
        let slot = format!("%scratch{}", self.scratch_slots.len());
        let _ = writeln!(self.prelude, "  {slot} = alloca {ty}, align 64");
        self.scratch_slots.insert(ty.to_string(), slot.clone());
        slot
    }

    /// A gather (`value` `None`) or scatter of `st` elements through `ptrs` for the lanes of
    /// `mask`, as a loop over the set bits of the mask in lane order (a scatter's order: the
    /// highest lane writes last), starting in block `from`. Returns the slot holding the
    /// gathered vector and the block the loop ends in.
    ///
    /// `llvm.masked.gather`/`scatter` would say the same, but where the target has no such
    /// instruction (x86 before AVX-512 has no scatter, and gathers are slow on many cores)
    /// LLVM expands each into a block per lane, and a strip function with a few dozen of
    /// them spent seconds in code generation. The loop is one block whatever the width, and
    /// its trip count (the active lanes) is data, so LLVM neither vectorizes nor unrolls it
    /// back into that shape. It only runs when the lanes' addresses are not consecutive.
    fn lane_loop(&mut self, from: &str, ptrs: &str, mask: &str, value: Option<&str>, st: &str, align: u64) -> (String, String) {
        let n = self.lanes;
        let vty = format!("<{n} x {st}>");
        let (slot_p, slot_v) = (self.scratch(&format!("<{n} x ptr>")), self.scratch(&vty));
        let (body, exit) = (self.block("lanes.body"), self.block("lanes.end"));
        let (bits, any, b, i, pp, p, vp, x, less, rest, more) =
            (self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t(), self.t());
        self.emit(format!("store <{n} x ptr> {ptrs}, ptr {slot_p}"));
        if let Some(v) = value {
            self.emit(format!("store {vty} {v}, ptr {slot_v}"));
        }
        self.emit(format!("{bits} = bitcast <{n} x i1> {mask} to i{n}"));
        self.emit(format!("{any} = icmp ne i{n} {bits}, 0"));
        self.emit(format!("br i1 {any}, label %{body}, label %{exit}"));
        self.label(&body);
        self.emit(format!("{b} = phi i{n} [ {bits}, %{from} ], [ {rest}, %{body} ]"));
        self.emit(format!("{i} = call i{n} @llvm.cttz.i{n}(i{n} {b}, i1 true)"));
        self.emit(format!("{pp} = getelementptr ptr, ptr {slot_p}, i{n} {i}"));
        self.emit(format!("{p} = load ptr, ptr {pp}"));
        self.emit(format!("{vp} = getelementptr {st}, ptr {slot_v}, i{n} {i}"));
        if value.is_some() {
            self.emit(format!("{x} = load {st}, ptr {vp}"));
            self.emit(format!("store {st} {x}, ptr {p}, align {align}"));
        } else {
            self.emit(format!("{x} = load {st}, ptr {p}, align {align}"));
            self.emit(format!("store {st} {x}, ptr {vp}"));
        }
        self.emit(format!("{less} = sub i{n} {b}, 1"));
        self.emit(format!("{rest} = and i{n} {b}, {less}"));
        self.emit(format!("{more} = icmp ne i{n} {rest}, 0"));
        self.emit(format!("br i1 {more}, label %{body}, label %{exit}"));
        self.label(&exit);
        (slot_v, exit)
    }

    /// The alloca of register `name` and its type.
    pub fn reg(&mut self, name: &str) -> W<(String, ScalarType)> {
        if let Some(r) = self.allocas.get(name) {
            return Ok(r.clone());
        }
        let ty = *self.regs.get(name).ok_or_else(|| format!("unknown register {name}"))?;
        let ptr = format!("%reg{}", self.allocas.len());
        self.allocas.insert(name.to_string(), (ptr.clone(), ty));
        Ok((ptr, ty))
    }

    /// The allocas, for the entry block.
    pub fn alloca_text(&self) -> String {
        let mut v: Vec<&(String, ScalarType)> = self.allocas.values().collect();
        v.sort_by(|a, b| a.0.cmp(&b.0));
        v.iter().map(|(ptr, ty)| format!("  {ptr} = alloca {}, align {}\n", self.vt(*ty), size_of(*ty) * u64::from(self.lanes))).collect()
    }

    /// Copies register `name` between its alloca and its save-area array (`load` true:
    /// from the save area), for the active lanes only when `masked`.
    pub fn save_or_restore(&mut self, name: &str, prefix: u64, size: u64, load: bool, masked: bool) -> W<String> {
        let (ptr, ty) = self.reg(name)?;
        let off = self.slot_offset(prefix, size);
        let (at, v) = (self.t(), self.t());
        let vty = self.vt(ty);
        let mut s = format!("  {at} = getelementptr i8, ptr %save, i64 {off}\n");
        if load {
            let _ = writeln!(s, "  {v} = load {vty}, ptr {at}, align {size}\n  store {vty} {v}, ptr {ptr}");
        } else if masked {
            let m = self.active();
            let _ = writeln!(
                s,
                "  {v} = load {vty}, ptr {ptr}\n  call void @llvm.masked.store.v{}{}.p0({vty} {v}, ptr {at}, i32 {size}, <{} x i1> {m})",
                self.lanes,
                llvm_elem(ty),
                self.lanes
            );
        } else {
            let _ = writeln!(s, "  {v} = load {vty}, ptr {ptr}\n  store {vty} {v}, ptr {at}, align {size}");
        }
        Ok(s)
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
        self.emit(format!("{t} = bitcast {} {v} to {}", self.vt(from), self.vt(to)));
        Ok(t)
    }

    /// A scalar value broadcast to every lane.
    pub fn splat(&mut self, v: &str, ty: ScalarType) -> String {
        let (a, b) = (self.t(), self.t());
        let (st, vty) = (storage(ty), self.vt(ty));
        self.emit(format!("{a} = insertelement {vty} poison, {st} {v}, i64 0"));
        self.emit(format!("{b} = shufflevector {vty} {a}, {vty} poison, <{} x i32> zeroinitializer", self.lanes));
        b
    }

    /// `v` as a named value (a constant vector is copied into one: call arguments must be
    /// named, `intrinsic_declarations` reads their types off the call).
    pub fn named(&mut self, v: String, ty: ScalarType) -> String {
        if !v.starts_with('<') {
            return v;
        }
        let t = self.t();
        let vty = self.vt(ty);
        self.emit(format!("{t} = shufflevector {vty} {v}, {vty} poison, <{} x i32> zeroinitializer", self.lanes));
        t
    }

    /// Source operand `op` read as lanes of type `ty`.
    pub fn read(&mut self, op: &Operand, ty: ScalarType) -> W<String> {
        match op {
            Operand::Imm(imm) => {
                let e = crate::lower::module::imm_text(imm, ty);
                Ok(self.splat_const(&format!("{} {e}", storage(ty))))
            }
            Operand::Ident { name, component } => {
                if self.regs.contains_key(name) && component.is_none() {
                    let (ptr, rty) = self.reg(name)?;
                    let t = self.t();
                    self.emit(format!("{t} = load {}, ptr {ptr}", self.vt(rty)));
                    return self.same_bits(t, rty, ty);
                }
                let v = match (name.as_str(), component) {
                    ("%tid", Some('x')) => "%tid.x".to_string(),
                    ("%laneid", None) if self.warp => "%lane".to_string(),
                    ("%tid" | "%ntid" | "%ctaid" | "%nctaid", Some(c @ ('x' | 'y' | 'z'))) => {
                        let t = self.t();
                        self.emit(format!("{t} = call i32 @__ptx_sreg_{}_{c}(ptr %ctx)", &name[1..]));
                        self.splat(&t, ScalarType::U(32))
                    }
                    (_, Some(_)) => return Err(format!("special register {name}")),
                    _ if name.starts_with('%') => return Err(format!("special register {name}")),
                    _ => return self.symbol(name, 0, ty),
                };
                self.same_bits(v, ScalarType::U(32), ty)
            }
            Operand::SymbolOffset { symbol, offset } => self.symbol(symbol, *offset, ty),
            _ => Err(format!("operand {op:?}")),
        }
    }

    /// The address of module symbol `name` plus `offset` (an i64), as a scalar.
    pub(super) fn symbol_address(&mut self, name: &str, offset: i64) -> W<String> {
        Ok(match self.cx.symbols.get(name) {
            Some(Symbol::Shared { offset: base }) => (*base as i64 + offset).to_string(),
            Some(Symbol::Kernel { index }) => (crate::lower::kernel_handle(*index) as i64).wrapping_add(offset).to_string(),
            Some(Symbol::Global { ll }) | Some(Symbol::Function { ll }) => {
                let (a, b) = (self.t(), self.t());
                self.emit(format!("{a} = ptrtoint ptr {ll} to i64"));
                self.emit(format!("{b} = add i64 {a}, {offset}"));
                b
            }
            Some(Symbol::Reference { .. }) => return Err(format!("{name} is a texture or surface reference, which has no address")),
            None => return Err(self.cx.undefined_symbol(name)),
        })
    }

    /// The address of module symbol `name` plus `offset`, in every lane.
    fn symbol(&mut self, name: &str, offset: i64, ty: ScalarType) -> W<String> {
        if bits(ty) != 64 && !matches!(self.cx.symbols.get(name), Some(Symbol::Shared { .. })) {
            return Err(format!("address of {name} as {ty:?}"));
        }
        let v = self.symbol_address(name, offset)?;
        let v = if bits(ty) == 64 {
            v
        } else {
            let t = self.t();
            self.emit(format!("{t} = trunc i64 {v} to i{}", bits(ty)));
            t
        };
        Ok(self.splat(&v, ScalarType::U(bits(ty))))
    }

    /// Write lanes `v` of type `ty` to register operand `op` (the active lanes only).
    pub fn write(&mut self, op: &Operand, ty: ScalarType, v: String) -> W<()> {
        match op {
            Operand::Sink => Ok(()),
            Operand::Ident { name, component: None } if self.regs.contains_key(name) => {
                let (ptr, rty) = self.reg(name)?;
                let v = self.same_bits(v, ty, rty)?;
                let vty = self.vt(rty);
                let v = match self.mask.clone() {
                    Some(m) => {
                        let (old, sel) = (self.t(), self.t());
                        self.emit(format!("{old} = load {vty}, ptr {ptr}"));
                        self.emit(format!("{sel} = select <{} x i1> {m}, {vty} {v}, {vty} {old}", self.lanes));
                        sel
                    }
                    None => v,
                };
                self.emit(format!("store {vty} {v}, ptr {ptr}"));
                Ok(())
            }
            _ => Err(format!("destination {op:?}")),
        }
    }

    /// Emit PTX instruction `i` (unguarded; `bra` is the caller's), or fail for a form the
    /// emitter lacks ([`form_supported`]).
    pub fn instruction(&mut self, i: &Instruction) -> W<()> {
        if !form_supported(i, self.warp) {
            return Err(format!("{} {:?} has no vector form", i.opcode, i.modifiers));
        }
        self.pattern = match self.guess.as_mut() {
            Some(g) => g.step(&super::pattern::Known { cx: self.cx, params: &self.params }, i),
            None => None,
        };
        let m = Mods::new(&i.modifiers);
        let ty = *m.types.first().ok_or("no type")?;
        let ops = &i.operands;
        let n = bits(ty);
        let vty = self.vt(ty);
        let lanes = self.lanes;
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
                self.emit(format!("{t} = xor {vty} {a}, {}", self.splat_const(&ones)));
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
                    self.emit(format!("{x} = {ext} {vty} {a} to <{lanes} x i64>"));
                    self.emit(format!("{y} = {ext} {vty} {b} to <{lanes} x i64>"));
                    (x, y, if matches!(ty, ScalarType::S(_)) { ScalarType::S(64) } else { ScalarType::U(64) })
                } else {
                    (a, b, ty)
                };
                let rv = self.vt(rty);
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
                let (a, b, c) = (self.named(a, ty), self.named(b, ty), self.named(c, ty));
                let t = self.t();
                let sfx = if ty == ScalarType::F32 { "f32" } else { "f64" };
                self.emit(format!("{t} = call {vty} @llvm.fma.v{lanes}{sfx}({vty} {a}, {vty} {b}, {vty} {c})"));
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
                self.emit(format!("{t} = select <{lanes} x i1> {c}, {vty} {a}, {vty} {b}"));
                self.write(op(0)?, ty, t)
            }
            "shl" | "shr" => {
                // PTX ISA 9.7.8.7/8: the amount is a u32; amounts past the width shift
                // everything out (sign fill for `shr.s`).
                let a = self.read(op(1)?, ty)?;
                let amt = self.read(op(2)?, ScalarType::U(32))?;
                let amt = if n == 64 {
                    let t = self.t();
                    self.emit(format!("{t} = zext <{lanes} x i32> {amt} to {vty}"));
                    t
                } else {
                    amt
                };
                let (big, clamped, t) = (self.t(), self.t(), self.t());
                let top = self.splat_const(&format!("i{n} {}", n - 1));
                self.emit(format!("{big} = icmp ugt {vty} {amt}, {top}"));
                self.emit(format!("{clamped} = select <{lanes} x i1> {big}, {vty} {top}, {vty} {amt}"));
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
                    self.emit(format!("{z} = select <{lanes} x i1> {big}, {vty} zeroinitializer, {vty} {t}"));
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
                self.emit(format!("{t} = select <{lanes} x i1> {p}, {vty} {a}, {vty} {b}"));
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
                    self.emit(format!("{t} = {inst} {} {a} to {}", self.vt(st), self.vt(dt)));
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
                let align = size_of(ty);
                let addr = self.addresses(op(1)?, m.space(), align)?;
                let (mask, elem) = (self.active(), llvm_elem(ty));
                let window = self.window(align, m.space());
                let check = match &window {
                    Some((min, elems, idx)) => self.window_check(&addr, *min, *elems, idx, align),
                    None => addr.consecutive.clone(),
                };
                let (fast, slow, join) = (self.block("ld.fast"), self.block("ld.gather"), self.block("ld.join"));
                let (a, b, v) = (self.t(), self.t(), self.t());
                self.emit(format!("br i1 {check}, label %{fast}, label %{slow}"));
                self.label(&fast);
                let ptrs = &addr.ptrs;
                match (&window, &self.mask) {
                    (Some((min, elems, idx)), _) => {
                        // The window, then each lane's element of it.
                        let (at, wv) = (self.t(), self.t());
                        let sel: Vec<String> = idx.iter().map(|k| format!("i32 {k}")).collect();
                        self.emit(format!("{at} = getelementptr i8, ptr {ptrs}.0, i64 {min}"));
                        self.emit(format!("{wv} = load <{elems} x {}>, ptr {at}, align {align}", storage(ty)));
                        self.emit(format!(
                            "{a} = shufflevector <{elems} x {st}> {wv}, <{elems} x {st}> poison, <{lanes} x i32> <{}>",
                            sel.join(", "),
                            st = storage(ty)
                        ));
                    }
                    (None, None) => self.emit(format!("{a} = load {vty}, ptr {ptrs}.0, align {align}")),
                    (None, Some(_)) => self.emit(format!(
                        "{a} = call {vty} @llvm.masked.load.v{lanes}{elem}.p0(ptr {ptrs}.0, i32 {align}, <{lanes} x i1> {mask}, {vty} poison)"
                    )),
                }
                self.emit(format!("br label %{join}"));
                self.label(&slow);
                let (gathered, slow_end) = self.lane_loop(&slow, ptrs, &mask, None, &storage(ty), align);
                self.emit(format!("{b} = load {vty}, ptr {gathered}"));
                self.emit(format!("br label %{join}"));
                self.label(&join);
                self.emit(format!("{v} = phi {vty} [ {a}, %{fast} ], [ {b}, %{slow_end} ]"));
                self.write(op(0)?, ty, v)
            }
            "st" => {
                let align = size_of(ty);
                let v = self.read(op(1)?, ty)?;
                let v = self.named(v, ty);
                let addr = self.addresses(op(0)?, m.space(), align)?;
                let (mask, elem) = (self.active(), llvm_elem(ty));
                let window = self.window(align, m.space());
                let check = match &window {
                    Some((min, elems, idx)) => self.window_check(&addr, *min, *elems, idx, align),
                    None => addr.consecutive.clone(),
                };
                let (fast, slow, join) = (self.block("st.fast"), self.block("st.scatter"), self.block("st.join"));
                self.emit(format!("br i1 {check}, label %{fast}, label %{slow}"));
                self.label(&fast);
                let ptrs = &addr.ptrs;
                match (&window, &self.mask) {
                    (Some((min, elems, idx)), _) => {
                        // Read the window, put each active lane's value at its element (the
                        // highest such lane, as a scatter orders them), write it back.
                        let st = storage(ty);
                        let mut from = vec![None; *elems as usize];
                        for (l, &k) in idx.iter().enumerate() {
                            from[k as usize] = Some(l);
                        }
                        let vals: Vec<String> = from.iter().map(|l| format!("i32 {}", l.unwrap_or(0))).collect();
                        let bits: Vec<String> = from.iter().map(|l| format!("i32 {}", l.unwrap_or(lanes as usize))).collect();
                        let (at, old, wv, wm, new) = (self.t(), self.t(), self.t(), self.t(), self.t());
                        self.emit(format!("{at} = getelementptr i8, ptr {ptrs}.0, i64 {min}"));
                        self.emit(format!("{old} = load <{elems} x {st}>, ptr {at}, align {align}"));
                        self.emit(format!("{wv} = shufflevector {vty} {v}, {vty} poison, <{elems} x i32> <{}>", vals.join(", ")));
                        self.emit(format!(
                            "{wm} = shufflevector <{lanes} x i1> {mask}, <{lanes} x i1> zeroinitializer, <{elems} x i32> <{}>",
                            bits.join(", ")
                        ));
                        self.emit(format!("{new} = select <{elems} x i1> {wm}, <{elems} x {st}> {wv}, <{elems} x {st}> {old}"));
                        self.emit(format!("store <{elems} x {st}> {new}, ptr {at}, align {align}"));
                    }
                    (None, None) => self.emit(format!("store {vty} {v}, ptr {ptrs}.0, align {align}")),
                    (None, Some(_)) => self
                        .emit(format!("call void @llvm.masked.store.v{lanes}{elem}.p0({vty} {v}, ptr {ptrs}.0, i32 {align}, <{lanes} x i1> {mask})")),
                }
                self.emit(format!("br label %{join}"));
                self.label(&slow);
                self.lane_loop(&slow, ptrs, &mask, Some(&v), &storage(ty), align);
                self.emit(format!("br label %{join}"));
                self.label(&join);
                Ok(())
            }
            "shfl" => self.shfl(&m, ops),
            op => Err(format!("instruction {op}")),
        }
    }

    /// `shfl.sync.{up,down,bfly,idx}.b32 d, a, b, c, membermask` over the lanes of one
    /// warp (PTX ISA 9.7.8.6; the source-lane arithmetic is `lower::warp`'s): the values
    /// come from the lanes' own vector, by a constant permutation when `b` and `c` are
    /// immediates, else through a stack copy.
    fn shfl(&mut self, m: &Mods, ops: &[Operand]) -> W<()> {
        if !self.warp || ops.len() != 5 {
            return Err("shfl outside a warp strip".into());
        }
        let mode = ["up", "down", "bfly", "idx"].into_iter().find(|x| m.has(&format!(".{x}"))).ok_or("shfl mode")?;
        let top = i64::from(self.lanes) - 1;
        let a = self.read(&ops[1], ScalarType::B(32))?;
        let a = self.named(a, ScalarType::B(32));
        let vty = self.vt(ScalarType::B(32));
        let lanes = self.lanes;
        let t = self.t();
        let constant = |o: &Operand| match o {
            Operand::Imm(Immediate::Int(v)) => Some(*v as i64),
            Operand::Ident { name, component: None } => self.constants.get(name).map(|&v| v as i64),
            _ => None,
        };
        let in_range;
        match (constant(&ops[2]), constant(&ops[3])) {
            (Some(b), Some(c)) => {
                let src: Vec<(i64, bool)> = (0..i64::from(lanes)).map(|l| crate::lower::warp::shfl_source_lane(mode, l, b, c, top)).collect();
                let idx: Vec<String> = src.iter().map(|(j, _)| format!("i32 {j}")).collect();
                self.emit(format!("{t} = shufflevector {vty} {a}, {vty} poison, <{lanes} x i32> <{}>", idx.join(", ")));
                // The predicate output: whether the source lane was in range.
                let ok: Vec<String> = src.iter().map(|(_, ok)| format!("i1 {ok}")).collect();
                in_range = format!("<{}>", ok.join(", "));
            }
            _ => {
                // The same arithmetic on vectors, then a gather from a copy of `a`.
                let (b, c) = (self.read(&ops[2], ScalarType::U(32))?, self.read(&ops[3], ScalarType::U(32))?);
                let (top_c, eight) = (self.splat_const(&format!("i32 {top}")), self.splat_const("i32 8"));
                let mut op = |text: String| {
                    let t = self.t();
                    self.emit(format!("{t} = {text}"));
                    t
                };
                let (src, ok) = crate::lower::warp::shfl_source(mode, &vty, &format!("<{lanes} x i1>"), &top_c, &eight, "%lane", &b, &c, &mut op);
                in_range = ok;
                let (copy, ps) = (self.t(), self.t());
                let _ = writeln!(self.prelude, "  {copy} = alloca {vty}");
                self.emit(format!("store {vty} {a}, ptr {copy}"));
                self.emit(format!("{ps} = getelementptr i32, ptr {copy}, {vty} {src}"));
                self.emit(format!("{t} = call {vty} @llvm.masked.gather.v{lanes}i32.v{lanes}p0(<{lanes} x ptr> {ps}, i32 4, <{lanes} x i1> %all.lanes, {vty} poison)"));
            }
        }
        match &ops[0] {
            Operand::List(dp) if dp.len() == 2 => {
                self.write(&dp[0], ScalarType::B(32), t)?;
                self.write(&dp[1], ScalarType::Pred, in_range)
            }
            d => self.write(d, ScalarType::B(32), t),
        }
    }
}
