//! Function-body lowering: scopes, registers, labels, guards, operands and addresses.
//!
//! Instruction semantics live in `instr`; this file provides the machinery they use
//! (temporaries, blocks, scopes, declarations, region bodies), and `operands` reads
//! sources, writes destinations and turns address operands into LLVM pointers.

use super::module::{ll_global, var_size, FnSig, ModuleCx};
use super::types::{size_of, storage};
use super::KernelMeta;
use crate::diag::Diagnostic;
use crate::ptx::ast::*;
use std::collections::HashMap;
use std::fmt::Write;

pub(crate) type R<T> = Result<T, Diagnostic>;

/// A name visible inside a function.
#[derive(Clone, Debug)]
pub(crate) enum Local {
    /// A register: an alloca (or a `.reg` parameter pointer) holding a value of `ty`.
    Reg { ptr: String, ty: ScalarType },
    /// Memory in `.param` or `.local` space: a pointer to it.
    Mem { ptr: String },
}

pub(crate) struct FnLowerer<'a> {
    pub cx: &'a ModuleCx<'a>,
    /// The allocas and loads of the entry block.
    pub prelude: String,
    pub body: String,
    tmp: u32,
    scopes: Vec<HashMap<String, Local>>,
    labels: HashMap<String, String>,
    terminated: bool,
    pub is_kernel: bool,
    pub uses_barrier: bool,
    pub local_bytes: u64,
    pub span: Span,
    /// The `CC.CF` carry flag's alloca.
    pub carry: String,
    /// Set when lowering one region body of a kernel (see `regions`): the plan and the
    /// resume state this body starts from.
    pub region: Option<(std::rc::Rc<super::regions::RegionPlan>, usize)>,
    /// Index of the current label/instruction in body order (region mode).
    pub(crate) item: usize,
    /// Region mode, the read half of a split warp collective: collectives read the
    /// lanes' values from the save area's exchange instead of meeting through the runtime
    /// (`regions::warp_split`).
    pub(crate) warp_read: bool,
    /// Every register declared so far, whatever its scope (region mode restores them).
    all_regs: HashMap<String, (String, ScalarType)>,
    /// Region mode: the registers in scope where this region resumes (taken when the
    /// lowering reaches that point). Restores and rematerialization write these, not
    /// `all_regs`' latest declaration of a name: PTX blocks may each declare their own
    /// register of the same name (nvcc's inline-asm blocks for 64-bit shuffles do).
    resume_scope: Option<HashMap<String, (String, ScalarType)>>,
    /// Region mode: the number of the loop metadata node of this body's strip-mined
    /// lockstep loop, unique in the module; `Some` once used (`regions::lockstep`).
    pub(crate) strip_loop_md: Option<u64>,
    /// The number that node gets when it is needed.
    pub(crate) strip_loop_md_number: u64,
    /// The fragment buffer of the function's warp matrix instructions (`matrix`), one
    /// alloca for all of them: nvcc unrolls GEMM loops into thousands of them.
    pub(crate) matrix_buffer: Option<String>,
}

/// Lower one function with a body. Kernels also return their metadata.
pub(crate) fn lower_function<'a>(cx: &'a ModuleCx<'a>, f: &Function, ir: &mut String) -> Result<Option<KernelMeta>, Vec<Diagnostic>> {
    lower_function_mode(cx, f, ir, None)
}

/// Lower `f`; with `region = (plan, S)`, lower the kernel's region body `k.rbody.S`
/// instead (see `regions`): `i32 (ctx, params, save, i64 nthreads, i64 t)` runs thread `t`
/// from resume point `S` to the next barrier it reaches and returns that barrier's state
/// (or `regions::EXIT`). Only the code reachable from `S` is emitted.
pub(crate) fn lower_function_mode<'a>(
    cx: &'a ModuleCx<'a>,
    f: &Function,
    ir: &mut String,
    region: Option<(std::rc::Rc<super::regions::RegionPlan>, usize)>,
) -> Result<Option<KernelMeta>, Vec<Diagnostic>> {
    let is_region = region.is_some();
    let _ = is_region;
    let strip_slot = cx.strip_md_slots.get(&f.name).copied().unwrap_or(0) + region.as_ref().map_or(0, |r| r.1 as u64);
    let mut l = FnLowerer {
        cx,
        prelude: String::new(),
        body: String::new(),
        tmp: 0,
        scopes: vec![HashMap::new()],
        labels: HashMap::new(),
        terminated: false,
        is_kernel: f.kind == FunctionKind::Entry,
        uses_barrier: false,
        local_bytes: 0,
        span: f.span,
        carry: String::new(),
        region,
        item: 0,
        warp_read: false,
        all_regs: HashMap::new(),
        resume_scope: None,
        strip_loop_md: None,
        strip_loop_md_number: super::regions::strip_loop_md_number(strip_slot),
        matrix_buffer: None,
    };
    let _ = writeln!(l.prelude, "  %shared = call ptr @__ptx_shared_base(ptr %ctx)");
    let carry = l.alloca("i1", 1);
    let _ = writeln!(l.prelude, "  store i1 false, ptr {carry}");
    l.carry = carry;
    let mut sig_params = vec!["ptr %ctx".to_string()];
    let mut meta = None;
    if let Some((plan, _)) = &l.region {
        // No `noalias` on `%save`: inlining would leave `noalias.scope.decl` calls in the
        // thread loop, outside its access group, and the loop would no longer count as
        // parallel (see the host target). The region loop's own `%save` is `noalias`.
        sig_params.extend(["ptr %params", "ptr %save", "i64 %nthreads", "i64 %t"].map(String::from));
        // Each saved value's address for this thread: its array plus t elements.
        for (k, slot) in plan.slots.iter().enumerate() {
            let _ = writeln!(
                l.prelude,
                "  %slot.{k}.base = mul i64 %nthreads, {}\n  %slot.{k}.off = mul i64 %t, {}\n  %slot.{k}.at = add i64 %slot.{k}.base, %slot.{k}.off\n  %slot.{k} = getelementptr i8, ptr %save, i64 %slot.{k}.at",
                slot.prefix, slot.size
            );
        }
    }
    if l.is_kernel {
        if !is_region {
            sig_params.push("ptr %params".into());
        }
        let m = kernel_signature(f, cx.warp_size);
        for (i, (p, &(off, _))) in f.params.iter().zip(&m.params).enumerate() {
            let ptr = format!("%param.{i}");
            let _ = writeln!(l.prelude, "  {ptr} = getelementptr i8, ptr %params, i64 {off}");
            l.scopes[0].insert(p.name.clone(), Local::Mem { ptr });
        }
        meta = Some(m);
    } else {
        for (i, p) in f.returns.iter().enumerate() {
            sig_params.push(format!("ptr %ret.{i}"));
            l.scopes[0].insert(p.name.clone(), param_local(p, format!("%ret.{i}")));
        }
        for (i, p) in f.params.iter().enumerate() {
            sig_params.push(format!("ptr %arg.{i}"));
            l.scopes[0].insert(p.name.clone(), param_local(p, format!("%arg.{i}")));
        }
    }
    let body = f.body.as_deref().unwrap_or(&[]);
    let mut errors = Vec::new();
    l.collect_labels(body);
    l.statements(body, &mut errors);
    if !l.terminated {
        let ret = l.ret_exit();
        l.emit(ret);
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    if let Some((plan, state)) = l.region.clone() {
        // Enter at the resume point: restore the registers live there, then continue at
        // the code after the barrier.
        let mut resume = String::new();
        if state > 0 {
            let _ = writeln!(resume, "resume:");
            let in_scope = l.resume_scope.clone().unwrap_or_default();
            for name in &plan.live_after[state - 1] {
                let idx = plan.slots.iter().position(|s| &s.name == name).expect("live register has a slot");
                let Some((ptr, ty)) = in_scope.get(name).or_else(|| l.all_regs.get(name)).cloned() else {
                    return Err(vec![l.err(format!("register {name} is live across a barrier but never declared"))]);
                };
                let st = storage(ty);
                let r = l.t();
                let _ = writeln!(resume, "  {r} = load {st}, ptr %slot.{idx}\n  store {st} {r}, ptr {ptr}");
            }
            l.rematerialize(&plan.remat_after[state - 1], &mut resume)?;
            if !l.body.contains(&format!("\nafter.{state}:")) && !l.body.starts_with(&format!("after.{state}:")) {
                // The barrier was the kernel's last instruction.
                let _ = writeln!(l.body, "after.{state}:\n  ret i32 {}", super::regions::EXIT as i32);
            }
            let _ = writeln!(resume, "  br label %after.{state}");
        }
        let first = if state > 0 { "resume" } else { "start" };
        let name = ll_global(&format!("{}.rbody.{state}", f.name));
        l.prelude = prune_prelude(&l.prelude, &[&l.body, &resume]);
        let _ = write!(
            ir,
            "define internal i32 {name}({}) alwaysinline {{\nentry:\n{}  br label %{first}\nstart:\n{}{resume}}}\n",
            sig_params.join(", "),
            l.prelude,
            l.body,
        );
        if let Some(id) = l.strip_loop_md {
            ir.push_str(&super::regions::strip_loop_md_definition(id));
        }
        return Ok(meta.map(|mut m| {
            m.uses_barrier = true;
            m.local_bytes = l.local_bytes;
            m
        }));
    }
    let name = if l.is_kernel { ll_global(&format!("{}.body", f.name)) } else { ll_global(&f.name) };
    let attrs = if l.is_kernel { " alwaysinline" } else { "" };
    l.prelude = prune_prelude(&l.prelude, &[&l.body]);
    let _ = write!(
        ir,
        "define internal void {name}({}){attrs} {{\nentry:\n{}  br label %start\nstart:\n{}}}\n",
        sig_params.join(", "),
        l.prelude,
        l.body
    );
    Ok(meta.map(|mut m| {
        m.uses_barrier = l.uses_barrier;
        m.local_bytes = l.local_bytes;
        m
    }))
}

/// What a kernel's signature says: its parameter buffer layout (PTX ISA 5.1.6.1: each
/// parameter at its `.align`, else its type's size) and launch bounds. What only its
/// body tells (barriers, `.local` bytes, regions) is left at "none".
pub fn kernel_signature(f: &Function, warp_size: u32) -> KernelMeta {
    let mut layout = Vec::new();
    let mut aligns = Vec::new();
    let mut off: u64 = 0;
    for p in &f.params {
        let align = p.align.unwrap_or(size_of(p.ty) as u32).max(1) as u64;
        let size = var_size(p);
        off = off.div_ceil(align) * align;
        layout.push((off as usize, size as usize));
        aligns.push(align as u32);
        off += size;
    }
    KernelMeta {
        name: f.name.clone(),
        params: layout,
        param_aligns: aligns,
        param_buffer_size: off as usize,
        uses_barrier: false,
        reqntid: f.tuning.reqntid,
        maxntid: f.tuning.maxntid,
        local_bytes: 0,
        regions: None,
        warp_size,
        // Until the body says otherwise (module lowering fills it in), assume the worst.
        blocks_communicate: true,
        static_shared_bytes: 0,
        const_bytes: 0,
        register_estimate: 0,
        spin_waits: false,
    }
}

/// Drop the entry block's definitions nothing uses: the lowering declares an alloca for
/// every register up front, and a region body (or a kernel) uses only some of them. LLVM
/// would delete them too, but only after parsing and verifying them in every function.
fn prune_prelude(prelude: &str, users: &[&str]) -> String {
    // Names are borrowed from the texts: this runs once per function and region body.
    fn refs<'t>(text: &'t str, out: &mut std::collections::HashSet<&'t str>) {
        let b = text.as_bytes();
        let mut i = 0;
        while i < b.len() {
            if b[i] == b'%' {
                let start = i + 1;
                let mut j = start;
                while j < b.len() && (b[j].is_ascii_alphanumeric() || b[j] == b'.' || b[j] == b'_') {
                    j += 1;
                }
                out.insert(&text[start..j]);
                i = j;
            } else {
                i += 1;
            }
        }
    }
    let mut used = std::collections::HashSet::new();
    for u in users {
        refs(u, &mut used);
    }
    let lines: Vec<&str> = prelude.lines().collect();
    let mut keep = vec![false; lines.len()];
    for (k, line) in lines.iter().enumerate().rev() {
        let t = line.trim_start();
        let def = t.strip_prefix('%').and_then(|r| r.split_once(" = ")).map(|(d, _)| d);
        let mut mine = std::collections::HashSet::new();
        refs(t, &mut mine);
        let needed = match def {
            Some(d) => used.contains(d),
            None => mine.iter().any(|r| used.contains(r)),
        };
        if needed {
            keep[k] = true;
            if def.is_some() {
                used.extend(mine);
            }
        }
    }
    let mut out = String::with_capacity(prelude.len());
    for (k, line) in lines.iter().enumerate() {
        if keep[k] {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

fn param_local(p: &VarDecl, ptr: String) -> Local {
    if p.space == StateSpace::Reg {
        Local::Reg { ptr, ty: p.ty }
    } else {
        Local::Mem { ptr }
    }
}

impl<'a> FnLowerer<'a> {
    /// A fresh SSA name.
    pub fn t(&mut self) -> String {
        self.tmp += 1;
        format!("%t{}", self.tmp)
    }

    /// Emit `<new temporary> = rhs` and return the temporary.
    pub(crate) fn value(&mut self, rhs: String) -> String {
        let t = self.t();
        self.emit(format!("{t} = {rhs}"));
        t
    }

    /// Emit one instruction line into the body, opening an unreachable block first if the
    /// previous instruction was a terminator.
    pub fn emit(&mut self, line: impl AsRef<str>) {
        if self.terminated {
            self.tmp += 1;
            let _ = writeln!(self.body, "dead{}:", self.tmp);
            self.terminated = false;
        }
        self.body.push_str("  ");
        self.body.push_str(line.as_ref());
        self.body.push('\n');
    }

    /// The instruction that ends the thread (`ret`/`exit`): in region mode it reports the
    /// `EXIT` state.
    pub fn ret_exit(&self) -> String {
        if self.region.is_some() {
            format!("ret i32 {}", super::regions::EXIT as i32)
        } else {
            "ret void".to_string()
        }
    }

    /// A whole-block barrier in region mode: save the registers live after it and stop
    /// with its state.
    pub fn region_barrier(&mut self) -> R<()> {
        let (plan, _) = self.region.clone().expect("region mode");
        let site = plan.site_at(self.item - 1, super::regions::SiteKind::Barrier).ok_or_else(|| self.err("barrier is not in the region plan"))?;
        self.region_stop(site)
    }

    /// Stop the region at split site `site`: save the registers live there (except those
    /// still holding the value this region restored) and return its state.
    pub(crate) fn region_stop(&mut self, site: usize) -> R<()> {
        let (plan, state) = self.region.clone().expect("region mode");
        for name in &plan.live_after[site] {
            if plan.unchanged[state].contains(name) {
                continue;
            }
            let idx = plan.slots.iter().position(|s| &s.name == name).expect("live register has a slot");
            let reg = match self.lookup(name).cloned() {
                Some(Local::Reg { ptr, ty }) => Some((ptr, ty)),
                _ => self.all_regs.get(name).cloned(),
            };
            let Some((ptr, ty)) = reg else {
                return Err(self.err(format!("register {name} is live across a barrier but not in scope")));
            };
            let st = storage(ty);
            let v = self.t();
            self.emit(format!("{v} = load {st}, ptr {ptr}"));
            self.emit(format!("store {st} {v}, ptr %slot.{idx}"));
        }
        self.emit_terminator(format!("ret i32 {}", site + 1));
        Ok(())
    }

    /// Recompute the rematerialized registers (see `regions::remat`) where a region
    /// resumes: `code` is lowered into `out` with every register of the kernel in scope.
    fn rematerialize(&mut self, code: &[Instruction], out: &mut String) -> Result<(), Vec<Diagnostic>> {
        if code.is_empty() {
            return Ok(());
        }
        let body = std::mem::take(&mut self.body);
        let terminated = std::mem::replace(&mut self.terminated, false);
        let scope = self
            .all_regs
            .iter()
            .chain(self.resume_scope.iter().flatten())
            .map(|(n, (ptr, ty))| (n.clone(), Local::Reg { ptr: ptr.clone(), ty: *ty }))
            .collect();
        self.scopes.push(scope);
        let mut errors = Vec::new();
        for i in code {
            self.span = i.span;
            if let Err(e) = self.instruction(i) {
                errors.push(e);
            }
        }
        self.scopes.pop();
        out.push_str(&std::mem::replace(&mut self.body, body));
        self.terminated = terminated;
        if errors.is_empty() {
            Ok(())
        } else {
            Err(errors)
        }
    }

    /// In region mode, whether the next label/instruction belongs to this region body; also
    /// opens the block where the region starts.
    fn region_item(&mut self) -> bool {
        let idx = self.item;
        self.item += 1;
        let Some((plan, state)) = self.region.clone() else { return true };
        // A deposit state resumes inside its collective (`region_collective` opens it).
        if state > 0 && idx == plan.start_item(state) && plan.kinds[state - 1] != super::regions::SiteKind::WarpDeposit {
            self.start_block(&format!("after.{state}"));
            self.note_resume_scope();
        }
        plan.reachable[state].get(idx).copied().unwrap_or(false)
    }

    /// Region mode: remember the registers in scope here, where the region resumes.
    pub(crate) fn note_resume_scope(&mut self) {
        let mut scope = HashMap::new();
        for s in &self.scopes {
            for (n, l) in s {
                if let Local::Reg { ptr, ty } = l {
                    scope.insert(n.clone(), (ptr.clone(), *ty));
                } else {
                    scope.remove(n);
                }
            }
        }
        self.resume_scope = Some(scope);
    }

    /// Emit a terminator (br/ret/unreachable).
    pub fn emit_terminator(&mut self, line: impl AsRef<str>) {
        self.emit(line);
        self.terminated = true;
    }

    /// Start a new basic block, falling through into it.
    pub fn start_block(&mut self, name: &str) {
        if !self.terminated {
            let _ = writeln!(self.body, "  br label %{name}");
        }
        let _ = writeln!(self.body, "{name}:");
        self.terminated = false;
    }

    /// A fresh basic-block name.
    pub fn new_block(&mut self, hint: &str) -> String {
        self.tmp += 1;
        format!("{hint}{}", self.tmp)
    }

    /// Call the neutral intrinsic `name` (see `intrinsics`) with `args` (typed, comma
    /// separated, without `%ctx` when the intrinsic takes it first); returns the result.
    pub fn intrinsic(&mut self, name: &str, args: &str) -> String {
        let i = super::intrinsics::lookup(name).unwrap_or_else(|| panic!("unknown intrinsic {name}"));
        let takes_ctx = i.params.starts_with("ptr") && name != "__ptx_ptr_global" && name != "__ptx_ptr_const" && name != "__ptx_ptr_local";
        let list = match (takes_ctx, args.is_empty()) {
            (true, true) => "ptr %ctx".to_string(),
            (true, false) => format!("ptr %ctx, {args}"),
            (false, _) => args.to_string(),
        };
        if i.ret == "void" {
            self.emit(format!("call void @{name}({list})"));
            String::new()
        } else {
            let t = self.t();
            self.emit(format!("{t} = call {} @{name}({list})", i.ret));
            t
        }
    }

    /// An alloca in the entry block.
    /// An alloca in the entry block, as a generic pointer (cast from the target's alloca
    /// address space where that is not 0).
    pub fn alloca(&mut self, ty: &str, align: u64) -> String {
        let t = self.t();
        match self.cx.target.address_spaces().alloca {
            0 => {
                let _ = writeln!(self.prelude, "  {t} = alloca {ty}, align {align}");
            }
            n => {
                let _ = writeln!(
                    self.prelude,
                    "  {t}.a = alloca {ty}, align {align}, addrspace({n})\n  {t} = addrspacecast ptr addrspace({n}) {t}.a to ptr"
                );
            }
        }
        t
    }

    pub fn lookup(&self, name: &str) -> Option<&Local> {
        self.scopes.iter().rev().find_map(|s| s.get(name))
    }

    pub fn sig(&self, name: &str) -> Option<&'a FnSig> {
        self.cx.functions.get(name)
    }

    pub fn label_block(&self, name: &str) -> Option<&String> {
        self.labels.get(name)
    }

    fn collect_labels(&mut self, body: &[Statement]) {
        for s in body {
            match s {
                Statement::Label { name, .. } => {
                    let n = self.labels.len();
                    self.labels.insert(name.clone(), format!("L{n}"));
                }
                Statement::Block(b) => self.collect_labels(b),
                _ => {}
            }
        }
    }

    fn statements(&mut self, body: &[Statement], errors: &mut Vec<Diagnostic>) {
        for s in body {
            match s {
                Statement::Label { name, .. } => {
                    if !self.region_item() {
                        continue;
                    }
                    let bb = self.labels[name].clone();
                    self.start_block(&bb);
                    if let Some(site) = self.region.as_ref().and_then(|(p, _)| p.site_at(self.item - 1, super::regions::SiteKind::Lockstep)) {
                        if let Err(e) = self.lockstep_head(site) {
                            errors.push(e);
                        }
                    }
                    if let Some(site) = self.region.as_ref().and_then(|(p, _)| p.site_at(self.item - 1, super::regions::SiteKind::LoopExit)) {
                        if let Err(e) = self.region_stop(site) {
                            errors.push(e);
                        }
                    }
                }
                Statement::Var(v) => {
                    if let Err(e) = self.declare(v) {
                        errors.push(e);
                    }
                }
                Statement::Instr(i) => {
                    if !self.region_item() {
                        continue;
                    }
                    self.span = i.span;
                    let split = self.region.as_ref().is_some_and(|(p, _)| p.site_at(self.item - 1, super::regions::SiteKind::WarpDeposit).is_some());
                    let done = if split { self.region_collective(i) } else { self.instruction(i) };
                    if let Err(e) = done {
                        errors.push(e);
                        if errors.len() > 100 {
                            return;
                        }
                    }
                }
                Statement::Block(b) => {
                    self.scopes.push(HashMap::new());
                    self.statements(b, errors);
                    self.scopes.pop();
                }
                Statement::Pragma { .. } | Statement::CallPrototype { .. } => {}
            }
        }
    }

    fn declare(&mut self, v: &VarDecl) -> R<()> {
        super::int_width::check_declared(v.ty, v.span)?;
        match v.space {
            StateSpace::Reg => {
                let ty = storage(v.ty);
                let align = size_of(v.ty).max(1);
                if v.vector.is_some() || !v.array.is_empty() {
                    return Err(Diagnostic::error(v.span, "vector or array registers are not supported").with_snippet(v.name.clone()));
                }
                match v.count {
                    Some(n) => {
                        for i in 0..n {
                            let ptr = self.alloca(&ty, align);
                            let name = format!("{}{i}", v.name);
                            if self.region.is_some() {
                                self.all_regs.insert(name.clone(), (ptr.clone(), v.ty));
                            }
                            self.scopes.last_mut().unwrap().insert(name, Local::Reg { ptr, ty: v.ty });
                        }
                    }
                    None => {
                        let ptr = self.alloca(&ty, align);
                        if self.region.is_some() {
                            self.all_regs.insert(v.name.clone(), (ptr.clone(), v.ty));
                        }
                        self.scopes.last_mut().unwrap().insert(v.name.clone(), Local::Reg { ptr, ty: v.ty });
                    }
                }
            }
            StateSpace::Local | StateSpace::Param => {
                let size = var_size(v).max(1);
                let align = v.align.unwrap_or(size_of(v.ty) as u32).max(1) as u64;
                if v.space == StateSpace::Local {
                    self.local_bytes += size;
                }
                let slot = self.region.as_ref().and_then(|(p, _)| p.slots.iter().position(|s| s.name == v.name));
                let ptr = match (v.space, slot) {
                    (StateSpace::Local, Some(idx)) => format!("%slot.{idx}"),
                    _ => self.alloca(&format!("[{size} x i8]"), align),
                };
                self.scopes.last_mut().unwrap().insert(v.name.clone(), Local::Mem { ptr });
            }
            // Laid out with the module's shared window by `lower_module`.
            StateSpace::Shared => {}
            _ => {
                return Err(
                    Diagnostic::error(v.span, format!("{:?} variables inside a function are not supported", v.space)).with_snippet(v.name.clone())
                )
            }
        }
        Ok(())
    }

    pub fn err(&self, msg: impl Into<String>) -> Diagnostic {
        Diagnostic::error(self.span, msg)
    }
}
