//! The block's shared-memory window: the offset of each `.shared` variable, and the static
//! bytes each kernel needs.
//!
//! Module-scope variables come first, then the variables declared in `.func` bodies (any
//! kernel may call those functions), then each kernel's own variables (nvcc declares a
//! kernel's `__shared__` arrays in its body). Kernels' own variables overlap one another:
//! a block runs one kernel, so a module of many kernels needs a window only as large as
//! its largest kernel, and each kernel reports its own size (CUDA's
//! `CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES`), not the module's. Dynamic shared memory
//! (`.extern` or unsized arrays) starts after the largest static part, 16-byte aligned
//! (the strictest alignment any PTX type needs).
//!
//! A module that reads the reserved shared memory registers (`%reserved_smem_offset_*`,
//! PTX ISA 10.x "Special Registers: %reserved_smem_offset_begin, ...": a region of each
//! CTA's shared memory the driver sets aside, which cooperative groups use as scratch on
//! sm_80 and later) gets that region as one more module-scope variable,
//! [`RESERVED_SMEM`], of [`RESERVED_SMEM_BYTES`].

use super::module::mentioned_names;
use super::types::size_of;
use crate::ptx::ast::*;
use std::collections::{HashMap, HashSet};

/// The name the reserved shared-memory region is laid out under: the name of the special
/// register that reads its start, so no `.shared` variable of the module can have it.
pub(crate) const RESERVED_SMEM: &str = "%reserved_smem_offset_begin";
/// Bytes of the reserved region: 1 KiB, CUDA's `cudaDevAttrReservedSharedMemoryPerBlock`
/// on sm_80 and later.
pub(crate) const RESERVED_SMEM_BYTES: u64 = 1024;

pub(crate) struct SharedLayout {
    /// Each static variable and its offset in the window.
    pub offsets: Vec<(String, u64)>,
    /// The size and alignment of each static variable.
    sizes: HashMap<String, (u64, u64)>,
    /// The dynamic (`.extern` or unsized) variables: all at [`SharedLayout::dynamic_offset`].
    pub dynamic: Vec<String>,
    /// Bytes of the window's static part: the end of the last variable of any kernel.
    pub static_end: u64,
}

impl SharedLayout {
    /// Lay out the variables of `m`. With `only` (part of a module lowered alone), only the
    /// module-scope variables those functions mention and their own variables.
    pub(crate) fn new(m: &Module, only: Option<&HashSet<String>>) -> SharedLayout {
        let mentioned = only.map(|only| {
            let mut names = HashSet::new();
            for f in m.functions().filter(|f| only.contains(&f.name)) {
                mentioned_names(f.body.as_deref().unwrap_or(&[]), &mut names);
            }
            names
        });
        let mut layout = SharedLayout { offsets: Vec::new(), sizes: HashMap::new(), dynamic: Vec::new(), static_end: 0 };
        let mut end = 0;
        for d in &m.directives {
            if let Directive::Variable(v) = d {
                if v.space == StateSpace::Shared && mentioned.as_ref().is_none_or(|names| names.contains(v.name.as_str())) {
                    end = layout.place(v, end);
                }
            }
        }
        let included = |f: &&Function| only.is_none_or(|only| only.contains(&f.name));
        if m.functions().filter(included).any(|f| reads_reserved(f.body.as_deref().unwrap_or(&[]))) {
            let offset = end.div_ceil(16) * 16;
            layout.offsets.push((RESERVED_SMEM.to_string(), offset));
            layout.sizes.insert(RESERVED_SMEM.to_string(), (RESERVED_SMEM_BYTES, 16));
            end = offset + RESERVED_SMEM_BYTES;
        }
        for f in m.functions().filter(included).filter(|f| f.kind != FunctionKind::Entry) {
            for v in body_shared(f) {
                end = layout.place(v, end);
            }
        }
        layout.static_end = end;
        for f in m.functions().filter(included).filter(|f| f.kind == FunctionKind::Entry) {
            let mut own = end;
            for v in body_shared(f) {
                own = layout.place(v, own);
            }
            layout.static_end = layout.static_end.max(own);
        }
        layout
    }

    /// Place `v` at the first offset from `at` its alignment allows; returns its end (or
    /// `at` for a dynamic variable, which takes no static bytes).
    fn place(&mut self, v: &VarDecl, at: u64) -> u64 {
        if v.linkage == Linkage::Extern || v.array.iter().any(|d| d.is_none()) {
            self.dynamic.push(v.name.clone());
            return at;
        }
        let align = v.align.unwrap_or(size_of(v.ty) as u32).max(1) as u64;
        let offset = at.div_ceil(align) * align;
        let size = super::module::var_size(v);
        self.offsets.push((v.name.clone(), offset));
        self.sizes.insert(v.name.clone(), (size, align));
        offset + size
    }

    /// Where dynamic shared memory starts.
    pub(crate) fn dynamic_offset(&self) -> u64 {
        self.static_end.div_ceil(16) * 16
    }

    /// The static shared bytes a kernel needs: the variables that it, or a function it may
    /// call (`reached`, the kernel included: [`reachable`]), mentions, laid out one after
    /// another in window order, each at its alignment. This is what NVIDIA's driver reports
    /// as the kernel's `CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES` (checked on an H200,
    /// 2026-11-27), whatever the offsets in this module's window.
    pub(crate) fn kernel_bytes(&self, m: &Module, reached: &HashSet<String>) -> u64 {
        if self.sizes.is_empty() {
            return 0;
        }
        let mut names = HashSet::new();
        for f in m.functions().filter(|f| reached.contains(&f.name)) {
            mentioned_names(f.body.as_deref().unwrap_or(&[]), &mut names);
        }
        let mut end = 0u64;
        // The reserved region is the driver's, not the kernel's (CUDA reports it apart).
        for (var, _) in self.offsets.iter().filter(|(var, _)| names.contains(var.as_str()) && var != RESERVED_SMEM) {
            let (size, align) = self.sizes[var];
            end = end.div_ceil(align) * align + size;
        }
        end
    }
}

/// Whether `body` reads a `%reserved_smem_offset_*` special register.
fn reads_reserved(body: &[Statement]) -> bool {
    let mut names = HashSet::new();
    mentioned_names(body, &mut names);
    names.iter().any(|n| n.starts_with("%reserved_smem_offset_"))
}

/// The `.shared` variables declared in `f`'s body, in order.
fn body_shared(f: &Function) -> Vec<&VarDecl> {
    fn collect<'a>(body: &'a [Statement], out: &mut Vec<&'a VarDecl>) {
        for s in body {
            match s {
                Statement::Var(v) if v.space == StateSpace::Shared => out.push(v),
                Statement::Block(b) => collect(b, out),
                _ => {}
            }
        }
    }
    let mut vars = Vec::new();
    collect(f.body.as_deref().unwrap_or(&[]), &mut vars);
    vars
}

/// The functions `roots` can reach: through calls and any other mention of a function's
/// name (an address taken). A call through a register may reach any function.
pub(crate) fn reachable<'a>(m: &Module, roots: impl Iterator<Item = &'a str>) -> HashSet<String> {
    let bodies: HashMap<&str, &[Statement]> = m.functions().filter_map(|f| Some((f.name.as_str(), f.body.as_deref()?))).collect();
    let names: HashSet<&str> = m.functions().map(|f| f.name.as_str()).collect();
    let mut seen: HashSet<String> = HashSet::new();
    let mut work: Vec<String> = roots.filter(|r| names.contains(r)).map(str::to_string).collect();
    while let Some(f) = work.pop() {
        if !seen.insert(f.clone()) {
            continue;
        }
        let Some(body) = bodies.get(f.as_str()) else { continue };
        if calls_through_register(body, &names) {
            return names.iter().map(|n| n.to_string()).collect();
        }
        let mut mentioned = HashSet::new();
        mentioned_names(body, &mut mentioned);
        work.extend(mentioned.into_iter().filter(|n| names.contains(n) && !seen.contains(*n)).map(str::to_string));
    }
    seen
}

/// Whether `body` calls through a register (a callee that is no function of the module).
fn calls_through_register(body: &[Statement], names: &HashSet<&str>) -> bool {
    body.iter().any(|s| match s {
        Statement::Instr(i) if i.opcode == "call" => {
            matches!(i.operands.iter().find(|o| !matches!(o, Operand::List(_))), Some(Operand::Ident { name, .. }) if !names.contains(name.as_str()))
        }
        Statement::Block(b) => calls_through_register(b, names),
        _ => false,
    })
}
