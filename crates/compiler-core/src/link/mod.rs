//! Separate compilation: linking PTX modules into one PTX module.
//!
//! Relocatable PTX (`nvcc -rdc=true`, NVRTC `-rdc=true`) declares what it uses from other
//! modules with `.extern` and exports with `.visible` / `.weak` / `.common` (PTX ISA 9.x
//! section 11.6 "Linking Directives"; section 5.4 for variables). The driver's JIT linker
//! (`cuLinkComplete`) resolves those declarations across its inputs; this module does it at
//! the PTX level and produces one self-contained PTX module, which then goes through the
//! ordinary compile path (and the kernel cache, which keys on the lowered IR).
//!
//! Why PTX and not LLVM IR: the linked image must load through `cuModuleLoadData` on every
//! backend (host and AMD compile PTX), one whole module keeps the lowering's module-wide
//! analyses (barrier regions, shared-memory layout) exact, and PTX text is what NVIDIA's
//! own driver also accepts, so the output stays inspectable with standard tools.
//!
//! Rules applied (nvlink's, as the PTX ISA describes the directives):
//! - every `.extern` function or variable must be defined by some module, else
//!   `error   : Undefined reference to 'name' in 'input'` (NVIDIA's log line). Exempt: the
//!   PTX system calls the JIT provides (`vprintf`, `malloc`, `free`, `__assertfail`; PTX ISA
//!   "System Calls") and unsized `.extern .shared` arrays (dynamic shared memory);
//! - two `.visible` definitions of one name are `error   : Multiple definition of 'name' in
//!   'input', first defined in 'other'`; a `.visible` definition overrides `.weak` ones, the
//!   first `.weak` one wins among weak ones, and the largest `.common` variable wins;
//! - names without linkage directive are local to their module: when two modules use one,
//!   or one clashes with a global name, the later module's symbol is renamed
//!   (`name$L<unit>`), so kernels and variables keep their names where they are unique;
//! - lazy units (archive members, libraries) are only linked when they define something an
//!   already linked unit still needs, as a static linker treats `.a` members.
//!
//! The output lists function prototypes first, then every variable, then the function
//! bodies, so each module's declare-before-use order still holds after the merge.

mod items;
#[cfg(test)]
mod tests;

use std::collections::{HashMap, HashSet};

use crate::diag;
use crate::ptx::ast::{Directive, FunctionKind, Linkage, Module, StateSpace};
use items::{ItemKind, Tokens};

/// Functions a PTX module may call without defining them: the JIT provides them (PTX ISA
/// "System Calls": `vprintf`, `malloc`, `free`; `__assertfail` for device `assert`).
/// `__devrt_syscall` is the device runtime's ([`crate::devrt`]), and so is
/// `cudaGraphSetConditional`, which `libcudadevrt` does not define either.
pub const SYSTEM_CALLS: [&str; 6] = ["vprintf", "malloc", "free", "__assertfail", crate::devrt::SYSCALL, crate::devrt::GRAPH_SET_CONDITIONAL];

/// One parsed link input.
#[derive(Clone, Debug)]
pub struct LinkUnit {
    /// The input's name in log messages (`cuLinkAddData`'s `name`).
    pub name: String,
    text: String,
    lazy: bool,
    module: Module,
    tokens: Tokens,
    syms: Vec<Sym>,
}

/// A module-scope symbol of one unit.
#[derive(Clone, Debug)]
struct Sym {
    name: String,
    /// Index into the unit's items.
    item: usize,
    /// Offset of the name token.
    name_offset: usize,
    linkage: Linkage,
    what: What,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum What {
    Func { entry: bool, body: bool },
    Var { size: u64, dynamic_shared: bool },
}

impl Sym {
    /// A definition other modules can see.
    fn is_global_def(&self) -> bool {
        match self.what {
            What::Func { body, .. } => body && matches!(self.linkage, Linkage::Visible | Linkage::Weak | Linkage::Common),
            What::Var { .. } => matches!(self.linkage, Linkage::Visible | Linkage::Weak | Linkage::Common),
        }
    }

    /// A declaration that another module's definition must satisfy.
    fn is_global_ref(&self) -> bool {
        match self.what {
            What::Func { body, .. } => !body && self.linkage != Linkage::Internal,
            What::Var { dynamic_shared, .. } => self.linkage == Linkage::Extern && !dynamic_shared,
        }
    }

    fn is_internal(&self) -> bool {
        self.linkage == Linkage::Internal
    }
}

/// Why a link failed. `log` holds NVIDIA-style error lines.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LinkFailure {
    pub kind: FailureKind,
    pub log: String,
}

/// The class of a link failure.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FailureKind {
    /// Some `.extern` symbol has no definition.
    Unresolved,
    /// Two strong definitions of one symbol.
    Duplicate,
    /// Inputs that cannot go into one module (different `.address_size`).
    Incompatible,
}

/// The linked module.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Linked {
    /// One self-contained PTX module.
    pub ptx: String,
    /// Names of the units that were linked, in order (lazy ones only when pulled in).
    pub linked_units: Vec<String>,
}

impl LinkUnit {
    /// Parses one input. `lazy` units are only linked when they resolve a reference.
    /// On a syntax error returns the compiler's diagnostics, rendered for a JIT log.
    pub fn parse(name: impl Into<String>, text: impl Into<String>, lazy: bool) -> Result<LinkUnit, String> {
        let text = text.into();
        let module = crate::ptx::parse(&text).map_err(|d| diag::render(&d))?;
        let tokens = Tokens::scan(&text);
        let line_starts: Vec<usize> = std::iter::once(0).chain(text.bytes().enumerate().filter(|&(_, b)| b == b'\n').map(|(i, _)| i + 1)).collect();
        let offset_of = |line: u32, col: u32| -> usize {
            let start = line_starts.get((line as usize).saturating_sub(1)).copied().unwrap_or(0);
            (start + (col as usize).saturating_sub(1)).min(text.len())
        };
        let item_of = |offset: usize| tokens.items.partition_point(|it| it.start <= offset).saturating_sub(1);
        let mut syms = Vec::new();
        for d in &module.directives {
            let (name, span, linkage, what) = match d {
                Directive::Function(f) => (&f.name, f.span, f.linkage, What::Func { entry: f.kind == FunctionKind::Entry, body: f.body.is_some() }),
                Directive::Variable(v) => {
                    let dynamic_shared = v.space == StateSpace::Shared && v.array.iter().any(|d| d.is_none());
                    (&v.name, v.span, v.linkage, What::Var { size: crate::lower::var_size(v), dynamic_shared })
                }
            };
            let name_offset = offset_of(span.line, span.col);
            syms.push(Sym { name: name.clone(), item: item_of(name_offset), name_offset, linkage, what });
        }
        Ok(LinkUnit { name: name.into(), text, lazy, module, tokens, syms })
    }

    /// The names this unit defines for other modules.
    fn global_defs(&self) -> impl Iterator<Item = &Sym> {
        self.syms.iter().filter(|s| s.is_global_def())
    }

    /// Whether the unit defines a kernel or a variable other code can name: what makes a
    /// relocatable fatbin worth linking on its own (cudart's prelinked list).
    pub fn exports_kernel_or_variable(&self) -> bool {
        self.syms.iter().any(|s| match s.what {
            What::Func { entry, body } => entry && body && s.linkage != Linkage::Extern,
            What::Var { .. } => s.is_global_def(),
        })
    }

    /// Whether the unit defines any kernel or module variable, module-local ones included
    /// (a `static __global__` kernel or `static __device__` variable the host can name).
    pub fn defines_kernel_or_variable(&self) -> bool {
        self.syms.iter().any(|s| match s.what {
            What::Func { entry, body } => entry && body,
            What::Var { .. } => s.linkage != Linkage::Extern,
        })
    }

    /// The names this unit takes from other modules.
    pub fn undefined_names(&self) -> Vec<&str> {
        self.open_refs().map(|s| s.name.as_str()).collect()
    }

    /// The names this unit defines for other modules.
    pub fn exported_names(&self) -> Vec<&str> {
        self.global_defs().map(|s| s.name.as_str()).collect()
    }

    /// The `.extern` references this unit leaves to other modules (system calls excluded).
    fn open_refs(&self) -> impl Iterator<Item = &Sym> {
        let local: HashSet<&str> = self.syms.iter().filter(|s| !s.is_global_ref()).map(|s| s.name.as_str()).collect();
        self.syms.iter().filter(move |s| s.is_global_ref() && !local.contains(s.name.as_str()) && !SYSTEM_CALLS.contains(&s.name.as_str()))
    }

    /// The PTX text of this unit.
    pub fn text(&self) -> &str {
        &self.text
    }

    /// Whether this unit is linked only on demand.
    pub fn is_lazy(&self) -> bool {
        self.lazy
    }

    /// Makes this unit linked always (`false`) or only on demand (`true`).
    pub fn set_lazy(&mut self, lazy: bool) {
        self.lazy = lazy;
    }
}

/// How strongly a definition holds its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Strength {
    Strong,
    Weak,
    Common(u64),
}

fn strength(s: &Sym) -> Strength {
    match (s.linkage, s.what) {
        (Linkage::Common, What::Var { size, .. }) => Strength::Common(size),
        (Linkage::Weak | Linkage::Common, _) => Strength::Weak,
        _ => Strength::Strong,
    }
}

/// A library member kept as text: parsed only if its text mentions a name the link still
/// needs (NVIDIA's device runtime library is a megabyte of PTX that most links never use).
#[derive(Clone, Debug)]
pub struct LibraryMember {
    /// The member's name in log messages (`libfoo.a:member.o`).
    pub name: String,
    pub text: String,
}

/// Links `units` into one PTX module.
pub fn link(units: &[LinkUnit]) -> Result<Linked, LinkFailure> {
    link_refs(&units.iter().collect::<Vec<_>>())
}

/// Links `units` and whichever library `members` define what they need, as lazy units.
/// A member that does not parse is left out (a name it would have defined is then
/// reported undefined).
pub fn link_with_libraries(units: &[LinkUnit], members: &[LibraryMember]) -> Result<Linked, LinkFailure> {
    // Members are considered in order, one at a time, so that the first member defining a
    // name is the one linked (a static linker's archive scan).
    let mut parsed: Vec<LinkUnit> = Vec::new();
    let mut tried = vec![false; members.len()];
    loop {
        let mut added = false;
        for (i, m) in members.iter().enumerate() {
            if tried[i] {
                continue;
            }
            let refs: Vec<&LinkUnit> = units.iter().chain(parsed.iter()).collect();
            let needed = undefined_names(&refs, &select_units(&refs));
            if needed.iter().any(|n| m.text.contains(n)) {
                tried[i] = true;
                if let Ok(unit) = LinkUnit::parse(m.name.clone(), m.text.clone(), true) {
                    parsed.push(unit);
                    added = true;
                }
            }
        }
        if !added {
            return link_refs(&units.iter().chain(parsed.iter()).collect::<Vec<_>>());
        }
    }
}

/// Sets `.maxnreg n` on every kernel of `ptx` that declares no limit of its own: a JIT
/// link's `CU_JIT_MAX_REGISTERS` (nvJitLink's `-maxrregcount`, ptxas's `--maxrregcount`)
/// carried in the linked PTX, which is loaded as any other. The directive goes between a
/// kernel's header and its body, with the other performance-tuning directives (PTX ISA
/// 11.4).
pub fn with_max_registers(ptx: &str, n: u32) -> String {
    let tokens = items::Tokens::scan(ptx);
    let text = |i: usize| &ptx[tokens.all[i].offset..tokens.all[i].offset + tokens.all[i].len];
    let mut out = String::with_capacity(ptx.len() + 64);
    let mut copied = 0;
    let mut i = 0;
    while i < tokens.all.len() {
        if text(i) == ".entry" {
            // A declaration ends at `;`, a definition's body starts at `{`.
            let Some(end) = (i + 1..tokens.all.len()).find(|&j| matches!(text(j), "{" | ";")) else { break };
            if text(end) == "{" && !(i..end).any(|j| text(j) == ".maxnreg") {
                let at = tokens.all[end].offset;
                out.push_str(&ptx[copied..at]);
                out.push_str(&format!(".maxnreg {n}\n"));
                copied = at;
            }
            i = end;
        }
        i += 1;
    }
    out.push_str(&ptx[copied..]);
    out
}

/// The "Multiple definition" errors between strong definitions in different `units`, in
/// order: what NVIDIA's driver reports when the second definition is added
/// (`cuLinkAddData`), before any link.
pub fn multiple_definitions(units: &[&LinkUnit]) -> Vec<String> {
    let mut first: HashMap<&str, usize> = HashMap::new();
    let mut errors = Vec::new();
    for (u, unit) in units.iter().enumerate() {
        for s in &unit.syms {
            if !s.is_global_def() || !matches!(strength(s), Strength::Strong) {
                continue;
            }
            match first.get(s.name.as_str()) {
                Some(&w) if w != u => {
                    errors.push(format!("error   : Multiple definition of '{}' in '{}', first defined in '{}'", s.name, unit.name, units[w].name))
                }
                Some(_) => {}
                None => {
                    first.insert(&s.name, u);
                }
            }
        }
    }
    errors
}

/// The "Prototype doesn't match" errors: a function that two non-lazy `units` declare or
/// define across modules (`.extern`, `.visible`, `.weak`) with different return or
/// parameter lists (compared by count and size). NVIDIA's driver refuses the later input at
/// `cuLinkAddData` with `CUDA_ERROR_INVALID_SOURCE` and this line, which names the later
/// input twice (measured on an H200, driver 580.159, for a declaration then a definition).
pub fn prototype_mismatches(units: &[&LinkUnit]) -> Vec<String> {
    type Prototype = (Vec<u64>, Vec<u64>);
    fn sizes(decls: &[crate::ptx::ast::VarDecl]) -> Vec<u64> {
        decls.iter().map(crate::lower::var_size).collect()
    }
    let mut first: HashMap<&str, (usize, Prototype)> = HashMap::new();
    let mut errors = Vec::new();
    for (u, unit) in units.iter().enumerate().filter(|(_, unit)| !unit.lazy) {
        for f in unit.module.functions().filter(|f| matches!(f.linkage, Linkage::Extern | Linkage::Visible | Linkage::Weak)) {
            let prototype = (sizes(&f.returns), sizes(&f.params));
            match first.get(f.name.as_str()) {
                Some((w, seen)) if *w != u && *seen != prototype => {
                    errors.push(format!("error   : Prototype doesn't match for '{}' in '{}', first defined in '{}'", f.name, unit.name, unit.name))
                }
                Some(_) => {}
                None => {
                    first.insert(&f.name, (u, prototype));
                }
            }
        }
    }
    errors
}

/// Links the units in order.
fn link_refs(units: &[&LinkUnit]) -> Result<Linked, LinkFailure> {
    let included = select_units(units);
    let order: Vec<usize> = (0..units.len()).filter(|&u| included[u]).collect();

    // Which definition each global name resolves to.
    let mut winners: HashMap<&str, (usize, usize)> = HashMap::new();
    let mut errors = Vec::new();
    for &u in &order {
        for (k, s) in units[u].syms.iter().enumerate() {
            if !s.is_global_def() {
                continue;
            }
            let Some(&(wu, wk)) = winners.get(s.name.as_str()) else {
                winners.insert(&s.name, (u, k));
                continue;
            };
            let old = &units[wu].syms[wk];
            match (strength(old), strength(s)) {
                (Strength::Strong, Strength::Strong) => {
                    if wu == u {
                        continue; // a second definition in one module is the compiler's to report
                    }
                    errors
                        .push(format!("error   : Multiple definition of '{}' in '{}', first defined in '{}'", s.name, units[u].name, units[wu].name));
                }
                (Strength::Weak | Strength::Common(_), Strength::Strong) => {
                    winners.insert(&s.name, (u, k));
                }
                (Strength::Common(a), Strength::Common(b)) if b > a => {
                    winners.insert(&s.name, (u, k));
                }
                _ => {}
            }
        }
    }
    if !errors.is_empty() {
        return Err(LinkFailure { kind: FailureKind::Duplicate, log: errors.join("\n") });
    }
    for &u in &order {
        let mut seen = HashSet::new();
        for s in units[u].open_refs() {
            if !winners.contains_key(s.name.as_str()) && seen.insert(&s.name) {
                errors.push(format!("error   : Undefined reference to '{}' in '{}'", s.name, units[u].name));
            }
        }
    }
    if !errors.is_empty() {
        return Err(LinkFailure { kind: FailureKind::Unresolved, log: errors.join("\n") });
    }
    if let Some(&first) = order.first() {
        let size = units[first].module.address_size;
        if let Some(&u) = order.iter().find(|&&u| units[u].module.address_size != size) {
            return Err(LinkFailure {
                kind: FailureKind::Incompatible,
                log: format!(
                    "error   : '{}' has .address_size {}, '{}' has {}",
                    units[u].name, units[u].module.address_size, units[first].name, size
                ),
            });
        }
    }
    let renames = local_renames(units, &order, &winners);
    Ok(Linked { ptx: emit(units, &order, &winners, &renames), linked_units: order.iter().map(|&u| units[u].name.clone()).collect() })
}

/// Which units take part: every eager unit, plus lazy units that define a name some
/// linked unit still needs, until nothing changes.
fn select_units(units: &[&LinkUnit]) -> Vec<bool> {
    let mut included: Vec<bool> = units.iter().map(|u| !u.lazy).collect();
    loop {
        let mut changed = false;
        // One lazy unit at a time, in order: a name two of them define is taken from the
        // first.
        for u in 0..units.len() {
            if included[u] {
                continue;
            }
            let needed = undefined_names(units, &included);
            if units[u].global_defs().any(|s| needed.contains(s.name.as_str())) {
                included[u] = true;
                changed = true;
            }
        }
        if !changed {
            return included;
        }
    }
}

/// The names the `included` units reference and none of them defines.
fn undefined_names<'u>(units: &[&'u LinkUnit], included: &[bool]) -> HashSet<&'u str> {
    let defined: HashSet<&str> = (0..units.len()).filter(|&u| included[u]).flat_map(|u| units[u].global_defs()).map(|s| s.name.as_str()).collect();
    (0..units.len()).filter(|&u| included[u]).flat_map(|u| units[u].open_refs()).map(|s| s.name.as_str()).filter(|n| !defined.contains(n)).collect()
}

/// New names for module-local symbols that clash with a global name or with a local
/// symbol of an earlier unit; per unit, old name -> new name.
fn local_renames(units: &[&LinkUnit], order: &[usize], winners: &HashMap<&str, (usize, usize)>) -> Vec<HashMap<String, String>> {
    let mut taken: HashSet<String> = order.iter().flat_map(|&u| units[u].syms.iter().map(|s| s.name.clone())).collect();
    let globals: HashSet<&str> = order
        .iter()
        .flat_map(|&u| units[u].syms.iter().filter(|s| !s.is_internal()).map(|s| s.name.as_str()))
        .chain(winners.keys().copied())
        .collect();
    let mut owner: HashMap<&str, usize> = HashMap::new();
    let mut renames = vec![HashMap::new(); units.len()];
    for &u in order {
        for s in units[u].syms.iter().filter(|s| s.is_internal()) {
            if renames[u].contains_key(&s.name) {
                continue;
            }
            let clash = globals.contains(s.name.as_str()) || owner.get(s.name.as_str()).is_some_and(|&o| o != u);
            if !clash {
                owner.insert(&s.name, u);
                continue;
            }
            let mut new = format!("{}$L{u}", s.name);
            let mut n = 1;
            while taken.contains(&new) {
                new = format!("{}$L{u}_{n}", s.name);
                n += 1;
            }
            taken.insert(new.clone());
            renames[u].insert(s.name.clone(), new);
        }
    }
    renames
}

/// Writes the linked module: header, prototypes, variables, function bodies.
fn emit(units: &[&LinkUnit], order: &[usize], winners: &HashMap<&str, (usize, usize)>, renames: &[HashMap<String, String>]) -> String {
    let mut out = String::new();
    let version = order.iter().map(|&u| units[u].module.version).max().unwrap_or((7, 0));
    let sm = |u: usize| -> u32 {
        units[u]
            .module
            .targets
            .iter()
            .filter_map(|t| t.strip_prefix("sm_"))
            .filter_map(|t| t.trim_end_matches(|c: char| c.is_ascii_alphabetic()).parse().ok())
            .max()
            .unwrap_or(0)
    };
    let target_unit = order.iter().copied().max_by_key(|&u| (sm(u), std::cmp::Reverse(u)));
    let targets = target_unit.map(|u| units[u].module.targets.join(", ")).filter(|t| !t.is_empty()).unwrap_or_else(|| "sm_52".into());
    let address_size = order.first().map_or(64, |&u| units[u].module.address_size);
    out.push_str(&format!(
        "//\n// Linked from {} module(s)\n//\n\n.version {}.{}\n.target {targets}\n.address_size {address_size}\n\n",
        order.len(),
        version.0,
        version.1
    ));

    let is_winner = |u: usize, k: usize| winners.get(units[u].syms[k].name.as_str()) == Some(&(u, k));
    // Prototypes: every function that is defined (the winning header for global names),
    // prototypes of local functions defined nowhere in their module, and one declaration
    // of each system call.
    let mut declared: HashSet<String> = HashSet::new();
    for &u in order {
        let unit = &units[u];
        let defined_here: HashSet<&str> =
            unit.syms.iter().filter(|s| matches!(s.what, What::Func { body: true, .. })).map(|s| s.name.as_str()).collect();
        for (k, s) in unit.syms.iter().enumerate() {
            let What::Func { entry, body } = s.what else { continue };
            let item = &unit.tokens.items[s.item];
            let proto = if body {
                if entry || (s.is_global_def() && !is_winner(u, k)) {
                    continue;
                }
                (item.start, unit.tokens.function_header_end(&unit.text, s.name_offset))
            } else if s.is_internal() {
                if defined_here.contains(s.name.as_str()) {
                    continue;
                }
                (item.start, item.end)
            } else if winners.contains_key(s.name.as_str()) || !declared.insert(s.name.clone()) {
                continue;
            } else {
                (item.start, item.end)
            };
            unit.tokens.copy_renamed(&unit.text, proto.0, proto.1, &renames[u], &mut out);
            if body {
                out.push(';');
            }
            out.push('\n');
        }
    }
    out.push('\n');
    // Variables, then function bodies, each module in order.
    let mut dynamic_shared: HashSet<&str> = HashSet::new();
    for pass_vars in [true, false] {
        for &u in order {
            let unit = &units[u];
            let mut kept_items: Vec<usize> = Vec::new();
            for (k, s) in unit.syms.iter().enumerate() {
                let keep = match s.what {
                    What::Var { dynamic_shared: dynamic, .. } if pass_vars => match s.linkage {
                        Linkage::Internal => true,
                        Linkage::Extern => !winners.contains_key(s.name.as_str()) && dynamic && dynamic_shared.insert(&s.name),
                        _ => is_winner(u, k),
                    },
                    What::Func { body: true, .. } if !pass_vars => s.is_internal() || is_winner(u, k),
                    _ => false,
                };
                if keep && kept_items.last() != Some(&s.item) {
                    kept_items.push(s.item);
                }
            }
            for i in kept_items {
                let item = &unit.tokens.items[i];
                if item.kind != ItemKind::Decl {
                    continue;
                }
                unit.tokens.copy_renamed(&unit.text, item.start, item.end, &renames[u], &mut out);
                out.push_str("\n\n");
            }
        }
    }
    out
}
