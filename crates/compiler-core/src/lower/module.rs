//! Module-scope lowering: variables, the shared-memory layout, function declarations,
//! then the target's part: kernel entry wrappers and the definitions of the neutral
//! intrinsics the module uses (see `intrinsics`).

mod globals;

use super::func::lower_function;
use super::regions::widen::Strip;
use super::shared_layout::SharedLayout;
use super::texture::{reference_kind, reference_var};
use super::types::{f64_const, size_of};
use super::{GlobalMeta, KernelMeta, LowerOptions, LoweredModule};
use crate::diag::Diagnostic;
use crate::ptx::ast::*;
use crate::target::{host::HostTarget, ModuleInfo, Target};
use globals::{global_ref, global_var, var_space};
use std::collections::HashMap;

/// How a module-scope name is addressed.
#[derive(Clone, Debug)]
pub(crate) enum Symbol {
    /// A `.global`/`.const` variable: an LLVM global (`@"name"`).
    Global { ll: String },
    /// A `.shared` variable: a byte offset in the block's shared window.
    Shared { offset: u64 },
    /// A function; its address is the LLVM function's.
    Function { ll: String },
    /// A kernel (`.entry`): its address, what device-side launches name it by, is
    /// [`kernel_handle`] of its index among the module's kernels.
    Kernel { index: usize },
    /// A texture or surface reference (`.global .texref`/`.surfref`): an LLVM global
    /// holding the handle of the object bound to it, which `tex`/`suld`/... load at each
    /// use. It has no address kernels may take (PTX ISA 5.3).
    Reference { ll: String },
}

/// The value of a kernel's address in device code (`mov.u64 %rd, kernel`, the `func` of
/// `cudaGetParameterBufferV2`): a tag and the kernel's index in [`kernel_handle_names`],
/// which the runtime resolves in the launching module. Not a code address: a kernel is
/// never called, only launched.
pub fn kernel_handle(index: usize) -> u64 {
    KERNEL_HANDLE_TAG | index as u64
}

/// The tag in the high bits of every [`kernel_handle`].
pub const KERNEL_HANDLE_TAG: u64 = 0x0cd9_0000_0000_0000;

/// The kernels [`kernel_handle`] numbers: the module's `.entry` definitions, in order.
pub fn kernel_handle_names(m: &Module) -> Vec<String> {
    let mut names: Vec<String> = Vec::new();
    for d in &m.directives {
        if let Directive::Function(f) = d {
            if f.kind == FunctionKind::Entry && f.body.is_some() && !names.contains(&f.name) {
                names.push(f.name.clone());
            }
        }
    }
    names
}

/// Facts about a declared function needed at call sites.
#[derive(Clone, Debug)]
pub(crate) struct FnSig {
    pub ll: String,
    pub n_returns: usize,
    pub n_params: usize,
    pub has_body: bool,
}

/// Module-wide context shared by all function lowerings.
pub(crate) struct ModuleCx<'t> {
    pub symbols: HashMap<String, Symbol>,
    pub functions: HashMap<String, FnSig>,
    pub target: &'t dyn Target,
    /// Lanes per warp (`Module::warp_size`).
    pub warp_size: u32,
    pub options: LowerOptions,
    /// Warnings of the function lowerings (a function lowered once per barrier region
    /// reports the same warning several times; `lower_module_with` deduplicates).
    pub warnings: std::sync::Mutex<Vec<Diagnostic>>,
    /// The first metadata slot of each function body's strip loops
    /// (`regions::lockstep::strip_loop_md_number`): a range per body, fixed before any body
    /// is lowered.
    pub strip_md_slots: HashMap<String, u64>,
    /// `.extern` `.global`/`.const` variables no module of the link defines. Declaring one
    /// is harmless (clang's `-O0` PTX declares `threadIdx`); only a use is an error.
    pub undefined_externs: std::collections::HashSet<String>,
}

impl ModuleCx<'_> {
    /// Why `name` is not a symbol of the module.
    pub fn undefined_symbol(&self, name: &str) -> String {
        if self.undefined_externs.contains(name) {
            format!("'{name}' is an extern .global/.const variable declared but not defined in this module (link the module that defines it with cuLink*)")
        } else {
            format!("undefined identifier '{name}'")
        }
    }
}

/// LLVM name of a PTX identifier: quoted, so every PTX name is valid as is.
pub(crate) fn ll_global(name: &str) -> String {
    format!("@\"{}\"", name.replace('"', "\\22"))
}

/// Lower a parsed module for the host (the CPU device).
pub fn lower_module(m: &Module) -> Result<LoweredModule, Vec<Diagnostic>> {
    lower_module_for(m, &HostTarget)
}

/// Lower a parsed module to LLVM IR text for `target`, plus the metadata the runtime needs.
pub fn lower_module_for(m: &Module, target: &dyn Target) -> Result<LoweredModule, Vec<Diagnostic>> {
    lower_module_with(m, target, &LowerOptions::default())
}

/// [`lower_module_for`] with explicit options. Errors come back with the warnings found
/// before them, in source order.
pub fn lower_module_with(m: &Module, target: &dyn Target, options: &LowerOptions) -> Result<LoweredModule, Vec<Diagnostic>> {
    lower_impl(m, target, options, None, None)
}

/// [`lower_module_with`] lowering the bodies on exactly `threads` threads, whatever the
/// module's size (tests: the IR must not depend on it).
#[doc(hidden)]
pub fn lower_module_on_threads(m: &Module, target: &dyn Target, options: &LowerOptions, threads: usize) -> Result<LoweredModule, Vec<Diagnostic>> {
    lower_impl(m, target, options, None, Some(threads))
}

/// [`lower_module_with`] for part of a module: every module variable, but only the bodies
/// of the functions in `only` (kernels among them become [`LoweredModule::kernels`]). The
/// caller makes `only` closed under calls (see `host::lazy`), so nothing refers to a body
/// left out.
pub fn lower_module_subset(
    m: &Module,
    target: &dyn Target,
    options: &LowerOptions,
    only: &std::collections::HashSet<String>,
) -> Result<LoweredModule, Vec<Diagnostic>> {
    lower_impl(m, target, options, Some(only), None)
}

fn lower_impl(
    m: &Module,
    target: &dyn Target,
    options: &LowerOptions,
    only: Option<&std::collections::HashSet<String>>,
    threads: Option<usize>,
) -> Result<LoweredModule, Vec<Diagnostic>> {
    let mut clock = crate::phase_clock::PhaseClock::start("");
    let split_vectors = super::vector_regs::split(m, only);
    let m = split_vectors.as_ref().unwrap_or(m);
    let with_meetings = super::warp_sync::add_meetings(m, only);
    let m = with_meetings.as_ref().unwrap_or(m);
    let with_yields = super::spin_wait::add_yields(m, only);
    let m = with_yields.as_ref().unwrap_or(m);
    let warp_size = if m.warp_size == 64 { 64 } else { 32 };
    let mut out = LoweredModule { warp_size, ..LoweredModule::default() };
    let mut ir = target.module_header();
    let mut errors = Vec::new();
    let mut cx = ModuleCx {
        symbols: HashMap::new(),
        functions: HashMap::new(),
        target,
        warp_size,
        options: *options,
        warnings: std::sync::Mutex::new(Vec::new()),
        strip_md_slots: HashMap::new(),
        undefined_externs: std::collections::HashSet::new(),
    };

    // Pass 1: variables and the shared layout (`shared_layout`). Lowering part of a module
    // (`only`) lays out only the `.shared` variables its functions mention: each lazily
    // compiled kernel gets a window of its own size, as on a GPU.
    let shared = SharedLayout::new(m, only);
    for d in &m.directives {
        if let Directive::Variable(v) = d {
            match v.space {
                StateSpace::Global | StateSpace::Const if v.linkage == Linkage::Extern => {
                    cx.undefined_externs.insert(v.name.clone());
                }
                StateSpace::Global if reference_kind(v).is_some() => match reference_var(v, var_space(v, target), target.export_prefix(), &mut ir) {
                    Ok(()) => {
                        let ll = global_ref(v, target);
                        out.globals.push(GlobalMeta { name: v.name.clone(), symbol: v.name.clone(), size: 8, reference: reference_kind(v) });
                        cx.symbols.insert(v.name.clone(), Symbol::Reference { ll });
                    }
                    Err(e) => errors.push(e),
                },
                StateSpace::Global | StateSpace::Const => match global_var(v, m, target, &mut ir) {
                    Ok(size) => {
                        let ll = global_ref(v, target);
                        out.globals.push(GlobalMeta { name: v.name.clone(), symbol: v.name.clone(), size, reference: None });
                        cx.symbols.insert(v.name.clone(), Symbol::Global { ll });
                    }
                    Err(e) => errors.push(e),
                },
                StateSpace::Shared => {}
                _ => errors.push(
                    Diagnostic::error(v.span, format!("module-scope variables in this state space are not supported: {:?}", v.space))
                        .with_snippet(v.name.clone()),
                ),
            }
        }
    }
    for (name, offset) in &shared.offsets {
        cx.symbols.insert(name.clone(), Symbol::Shared { offset: *offset });
    }
    let dyn_offset = shared.dynamic_offset();
    let info =
        ModuleInfo { static_shared_bytes: shared.static_end, dynamic_shared_offset: (!shared.dynamic.is_empty()).then_some(dyn_offset), warp_size };
    for name in &shared.dynamic {
        cx.symbols.insert(name.clone(), Symbol::Shared { offset: dyn_offset });
    }
    out.static_shared_bytes = shared.static_end;
    out.dynamic_shared_offset = info.dynamic_shared_offset;

    // Pass 2: function declarations, so calls can be resolved in any order.
    let mut next_slot = 0u64;
    let kernels = kernel_handle_names(m);
    for d in &m.directives {
        if let Directive::Function(f) = d {
            if let Some(body) = &f.body {
                cx.strip_md_slots.insert(f.name.clone(), next_slot);
                next_slot += 1 + statement_count(body);
            }
            let ll = ll_global(&f.name);
            let symbol = match kernels.iter().position(|k| *k == f.name) {
                Some(index) => Symbol::Kernel { index },
                None => Symbol::Function { ll: ll.clone() },
            };
            cx.symbols.insert(f.name.clone(), symbol);
            let sig = FnSig { ll, n_returns: f.returns.len(), n_params: f.params.len(), has_body: f.body.is_some() };
            // A definition wins over an earlier prototype.
            if sig.has_body || !cx.functions.contains_key(&f.name) {
                cx.functions.insert(f.name.clone(), sig);
            }
        }
    }

    // Pass 3: bodies. Each function lowers into its own text, on several threads for
    // large modules ([`lower_bodies`]); the texts and the kernels' entry wrappers are
    // appended in module order, so the IR is byte for byte what one thread would write
    // (the wrappers number their metadata after the IR's length: `target::host`).
    clock.phase("lower: variables, layout, declarations");
    let fibers = fiber_functions(m);
    let communicating = block_communicating_functions(m);
    // Yields added in functions with warp collectives wait on their own block or earlier
    // blocks (`spin_wait::YIELD_COL_WARP`): they need no blocks side by side.
    let spinning = functions_reaching(m, &|i| i.opcode == "nanosleep" && i.span.col != super::spin_wait::YIELD_COL_WARP);
    let regions_on = target.supports_regions() && super::regions::enabled();
    let mut dense_budget = super::regions::dense::DenseBudget::new();
    let bodies: Vec<&Function> = m
        .directives
        .iter()
        .filter_map(|d| match d {
            Directive::Function(f) if f.body.is_some() && only.is_none_or(|only| only.contains(&f.name)) => Some(f),
            _ => None,
        })
        .collect();
    let lower_one = |f: &Function, text: &mut String| -> KernelLowering {
        // Kernels with barriers get the barrier-region fast path when they allow it
        // (and the target runs it); everything else is lowered as one body.
        // `exit` in a 64-lane module checks that the warp is converged (a collective),
        // which regions cannot run.
        let plan = if f.kind == FunctionKind::Entry
            && fibers.contains(&f.name)
            && regions_on
            && !(warp_size == 64 && body_has(f.body.as_deref().unwrap_or(&[]), &|i| i.opcode == "exit"))
        {
            super::regions::plan(f, calls_synchronizing(f, &fibers), warp_size).map(std::rc::Rc::new)
        } else {
            None
        };
        match &plan {
            Some(plan) => {
                let mut first = None;
                for state in 0..=plan.live_after.len() {
                    first = first.or(super::func::lower_function_mode(&cx, f, text, Some((plan.clone(), state)))?);
                }
                let strips = super::regions::widen::strips(&cx, f, plan);
                Ok(first.map(|mut m| {
                    m.regions = Some(super::regions::meta(plan));
                    (m, strips)
                }))
            }
            None => Ok(lower_function(&cx, f, text)?.map(|m| (m, Vec::new()))),
        }
    };
    let mut wide_budget = super::regions::widen::WIDE_STRIPS_PER_MODULE;
    let const_bytes = super::resources::const_bytes(m);
    let mut registers = super::resources::RegisterEstimates::default();
    for (f, (text, lowered)) in bodies.iter().zip(lower_bodies(&bodies, threads, &lower_one)) {
        ir.push_str(&text);
        match lowered {
            Ok(Some((mut meta, strips))) => {
                // Wide strips and then dense loops come from the module's budgets, kernel
                // by kernel in module order.
                if let Some(r) = meta.regions.as_mut() {
                    let (dense_strips, strips): (Vec<_>, Vec<_>) = strips.into_iter().partition(|(s, _)| matches!(s, Strip::Dense(_)));
                    for (strip, text) in strips.into_iter().take(wide_budget as usize) {
                        ir.push_str(&text);
                        match strip {
                            Strip::Wide(s) => r.wide_strips.push(s),
                            Strip::Warp(s) => r.warp_strips.push(s),
                            Strip::Dense(_) => unreachable!("partitioned out"),
                        }
                        wide_budget -= 1;
                    }
                    r.dense_loops = dense_budget.take(r, super::regions::dense::straight_line(f, r.wide_strips.len()));
                    // Dense strips ride on dense loops (and their budget).
                    if r.dense_loops {
                        for (strip, text) in dense_strips {
                            if let Strip::Dense(s) = strip {
                                ir.push_str(&text);
                                r.dense_strips.push(s);
                            }
                        }
                    }
                }
                // A kernel calling a function that synchronizes synchronizes too.
                meta.uses_barrier |= fibers.contains(&f.name);
                meta.blocks_communicate = communicating.contains(&f.name);
                meta.spin_waits = spinning.contains(&f.name);
                let reached = super::shared_layout::reachable(m, std::iter::once(f.name.as_str()));
                meta.static_shared_bytes = shared.kernel_bytes(m, &reached);
                meta.const_bytes = const_bytes;
                meta.register_estimate = registers.estimate(m, f, &reached);
                target.entry_wrappers(&meta, &info, &mut ir);
                out.kernels.push(meta);
            }
            Ok(None) => {}
            Err(mut e) => errors.append(&mut e),
        }
    }
    clock.phase("lower: bodies");
    let mut warnings = std::mem::take(&mut *cx.warnings.lock().unwrap_or_else(|e| e.into_inner()));
    warnings.sort_by_key(|d| (d.span.line, d.span.col));
    warnings.dedup();
    if !errors.is_empty() {
        warnings.append(&mut errors);
        warnings.sort_by_key(|d| (d.span.line, d.span.col));
        return Err(warnings);
    }
    out.warnings = warnings;
    define_intrinsics(target, &info, &mut ir);
    let libs = target.library_definitions(&ir);
    ir.push_str(&libs);
    let decls = intrinsic_declarations(&ir);
    ir.push_str(&decls);
    clock.phase("lower: intrinsics, declarations");
    out.ir = ir;
    Ok(out)
}

/// A function's lowered text and its kernel's metadata (or its errors).
type LoweredBody = (String, KernelLowering);

/// A function's lowering result: a kernel's metadata and its strips (which, text), which
/// the module's budget may leave out (`regions::widen`).
type KernelLowering = Result<Option<(KernelMeta, Vec<(Strip, String)>)>, Vec<Diagnostic>>;

/// Statements a module needs before its bodies are lowered on several threads: below
/// this, starting threads costs more than it saves.
const PARALLEL_MIN_STATEMENTS: usize = 8000;

/// Most threads the lowering uses (as for code generation, `host.rs`).
const MAX_LOWER_THREADS: usize = 16;

/// Runs `lower_one` on every function of `bodies`, each into a text of its own, and
/// returns the texts and results in the order of `bodies`. Large modules are spread over
/// the machine's cores (functions handed out one at a time from a shared counter, so long
/// and short ones even out); small ones lower on the calling thread. `threads` overrides
/// the automatic choice.
fn lower_bodies<F>(bodies: &[&Function], threads: Option<usize>, lower_one: &F) -> Vec<LoweredBody>
where
    F: Fn(&Function, &mut String) -> KernelLowering + Sync,
{
    let run = |f: &Function| {
        let mut text = String::new();
        let r = lower_one(f, &mut text);
        (text, r)
    };
    let statements: usize = bodies.iter().map(|f| f.body.as_ref().map_or(0, Vec::len)).sum();
    let automatic = || match statements >= PARALLEL_MIN_STATEMENTS {
        true => std::thread::available_parallelism().map_or(1, |n| n.get()).min(MAX_LOWER_THREADS),
        false => 1,
    };
    let threads = threads.unwrap_or_else(automatic).min(bodies.len());
    if threads < 2 {
        return bodies.iter().map(|f| run(f)).collect();
    }
    let next = std::sync::atomic::AtomicUsize::new(0);
    let mut done: Vec<(usize, LoweredBody)> = std::thread::scope(|s| {
        let workers: Vec<_> = (0..threads)
            .map(|_| {
                s.spawn(|| {
                    let mut mine = Vec::new();
                    loop {
                        let i = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        let Some(f) = bodies.get(i) else { break mine };
                        mine.push((i, run(f)));
                    }
                })
            })
            .collect();
        // A panicking lowering is a compiler bug; re-raise it on the caller's thread,
        // where the C ABI's guard turns it into an error.
        workers.into_iter().flat_map(|w| w.join().unwrap_or_else(|p| std::panic::resume_unwind(p))).collect()
    });
    done.sort_unstable_by_key(|(i, _)| *i);
    done.into_iter().map(|(_, r)| r).collect()
}

/// Statements in `body`, counting those inside `{ }` scopes: a bound on the resume
/// points a function can have.
fn statement_count(body: &[Statement]) -> u64 {
    body.iter().map(|s| if let Statement::Block(inner) = s { 1 + statement_count(inner) } else { 1 }).sum()
}

/// Whether `f` calls a function that synchronizes, or calls through a pointer.
fn calls_synchronizing(f: &Function, fibers: &std::collections::HashSet<String>) -> bool {
    fn walk(body: &[Statement], fibers: &std::collections::HashSet<String>) -> bool {
        body.iter().any(|s| match s {
            Statement::Instr(i) if i.opcode == "call" => match i.operands.iter().find(|o| !matches!(o, Operand::List(_))) {
                Some(Operand::Ident { name, .. }) if !name.starts_with('%') => fibers.contains(name),
                _ => true,
            },
            Statement::Block(b) => walk(b, fibers),
            _ => false,
        })
    }
    f.body.as_deref().map(|b| walk(b, fibers)).unwrap_or(false)
}

/// Append the target's definition of every `@__ptx_*` function the module calls, and of
/// those the definitions call in turn.
pub(crate) fn define_intrinsics(target: &dyn Target, info: &ModuleInfo, ir: &mut String) {
    let mut defined = std::collections::HashSet::new();
    let mut scan_from = 0;
    loop {
        let mut wanted = Vec::new();
        let text = &ir[scan_from..];
        let mut rest = text;
        while let Some(p) = rest.find("@__ptx_") {
            let tail = &rest[p + 1..];
            let end = tail.find(|c: char| !(c.is_ascii_alphanumeric() || c == '_')).unwrap_or(tail.len());
            let name = &tail[..end];
            if !defined.contains(name) && !wanted.iter().any(|w: &String| w == name) {
                wanted.push(name.to_string());
            }
            rest = &tail[end..];
        }
        if wanted.is_empty() {
            return;
        }
        scan_from = ir.len();
        for name in wanted {
            let def = match super::intrinsics::lookup(&name) {
                Some(i) => Some(target.define_intrinsic(i, info)),
                None => target.define_helper(&name, info),
            };
            // An unknown name stays undefined and LLVM's verifier reports it: a lowering bug.
            if let Some(def) = def {
                ir.push_str(&def);
            }
            defined.insert(name);
        }
    }
}

/// `declare` lines for every `@llvm.*` intrinsic the IR calls, derived from the call sites
/// (LLVM's IR parser needs a declaration for each callee).
pub(crate) fn intrinsic_declarations(ir: &str) -> String {
    let mut seen = std::collections::BTreeMap::new();
    let defined = defined_fns(ir);
    for line in ir.lines() {
        let Some(call) = line.find("call ") else { continue };
        let rest = &line[call + 5..];
        // Our own functions are quoted (`@"name"`); an unquoted callee is an LLVM
        // intrinsic or a C library function (`nextafterf`) resolved in the process.
        let Some(at) = rest.find(" @").filter(|&i| rest.as_bytes().get(i + 2) != Some(&b'"')) else { continue };
        let ret = &rest[..at];
        let after = &rest[at + 1..];
        let Some(paren) = after.find('(') else { continue };
        let name = &after[..paren];
        if seen.contains_key(name) || name.starts_with("@__ptx_") || defined.contains(name) {
            continue;
        }
        let args = after[paren + 1..].trim_end().trim_end_matches(')');
        let mut types = Vec::new();
        let mut depth = 0;
        let mut start = 0;
        let bytes = args.as_bytes();
        for (i, &c) in bytes.iter().enumerate() {
            match c {
                b'<' | b'(' | b'{' => depth += 1,
                b'>' | b')' | b'}' => depth -= 1,
                b',' if depth == 0 => {
                    types.push(arg_type(&args[start..i]));
                    start = i + 1;
                }
                _ => {}
            }
        }
        if !args.trim().is_empty() {
            types.push(arg_type(&args[start..]));
        }
        seen.insert(name.to_string(), format!("declare {ret} {name}({})\n", types.join(", ")));
    }
    seen.into_values().collect()
}

/// The type part of a `TYPE VALUE` call argument.
fn arg_type(arg: &str) -> String {
    let arg = arg.trim();
    match arg.rfind(' ') {
        Some(i) => arg[..i].to_string(),
        None => arg.to_string(),
    }
}

/// Size in bytes of a variable, arrays included (`[]` counts as zero elements).
pub(crate) fn var_size(v: &VarDecl) -> u64 {
    let elem = size_of(v.ty) * v.vector.unwrap_or(1) as u64;
    let mut n: u64 = 1;
    for d in &v.array {
        n = n.saturating_mul(d.unwrap_or(0));
    }
    if v.array.len() == 1 && v.array[0].is_none() {
        if let Some(Initializer::List(items)) = &v.init {
            n = items.len() as u64;
        }
    }
    elem.saturating_mul(n)
}

/// Every identifier `body` mentions as an operand (registers, variables, functions).
pub(crate) fn mentioned_names<'a>(body: &'a [Statement], out: &mut std::collections::HashSet<&'a str>) {
    fn operand<'a>(o: &'a Operand, out: &mut std::collections::HashSet<&'a str>) {
        match o {
            Operand::Ident { name, .. } | Operand::Select { name, .. } => {
                out.insert(name);
            }
            Operand::SymbolOffset { symbol, .. } => {
                out.insert(symbol);
            }
            Operand::Address { base: AddressBase::Ident(name), .. } => {
                out.insert(name);
            }
            Operand::Not(inner) | Operand::Neg(inner) => operand(inner, out),
            Operand::Vector(items) | Operand::List(items) => items.iter().for_each(|i| operand(i, out)),
            Operand::Texture { handle, sampler, coords } => {
                out.insert(handle);
                sampler.iter().for_each(|s| operand(s, out));
                coords.iter().for_each(|i| operand(i, out));
            }
            _ => {}
        }
    }
    for s in body {
        match s {
            Statement::Instr(i) => i.operands.iter().for_each(|o| operand(o, out)),
            Statement::Block(b) => mentioned_names(b, out),
            _ => {}
        }
    }
}

/// Whether some instruction of `body` satisfies `pred`.
pub(crate) fn body_has(body: &[Statement], pred: &dyn Fn(&Instruction) -> bool) -> bool {
    body.iter().any(|s| match s {
        Statement::Instr(i) => pred(i),
        Statement::Block(b) => body_has(b, pred),
        _ => false,
    })
}

/// `bar.sync`, `barrier.sync`, `bar.red`, `bar.arrive`... (PTX ISA 9.7.13.1): anything
/// that makes threads of a block wait for each other.
pub(crate) fn is_barrier(i: &Instruction) -> bool {
    (i.opcode == "bar" || i.opcode == "barrier") && !i.modifiers.iter().any(|m| m == ".warp")
}

/// The functions that may reach a block barrier, warp collective, mbarrier wait or spin
/// yield (`nanosleep`: it yields to the block's other threads only in fibers), directly or
/// through calls (a fixpoint over the call graph; an indirect call may reach anything).
fn fiber_functions(m: &Module) -> std::collections::HashSet<String> {
    functions_reaching(m, &|i| is_barrier(i) || super::warp::needs_warp(i, m.warp_size) || super::mbarrier::waits(i) || i.opcode == "nanosleep")
}

/// The functions that may observe another block's progress, directly or through calls: only
/// these kernels' blocks can wait for each other, so only they need blocks started one at a
/// time in order; the others' blocks may be handed out in contiguous runs.
fn block_communicating_functions(m: &Module) -> std::collections::HashSet<String> {
    functions_reaching(m, &observes_other_blocks)
}

/// An instruction through which a thread may see what a thread of another block did, or
/// which only makes sense in a wait for one (PTX ISA 8.x, "Memory Consistency Model": only
/// strong operations are ordered across threads). Weak loads and stores cannot build a
/// wait: nothing makes a weak load see a later store of another thread.
pub(crate) fn observes_other_blocks(i: &Instruction) -> bool {
    match i.opcode.as_str() {
        "atom" | "red" | "fence" | "membar" | "nanosleep" | "griddepcontrol" | "multimem" | "cp" | "mbarrier" => {
            // `cp.async` is block-local; only the bulk/tensor copies (with their
            // mbarrier completion) may involve other CTAs of a cluster.
            i.opcode != "cp" || i.modifiers.iter().any(|m| m.starts_with(".bulk"))
        }
        "ld" | "ldu" | "st" => i.modifiers.iter().any(|m| matches!(m.as_str(), ".volatile" | ".relaxed" | ".acquire" | ".release" | ".mmio" | ".cv")),
        _ => false,
    }
}

/// The functions whose body has an instruction `pred` accepts or that call one, directly
/// or through calls (a fixpoint over the call graph; an indirect call may reach anything).
fn functions_reaching(m: &Module, pred: &dyn Fn(&Instruction) -> bool) -> std::collections::HashSet<String> {
    fn callees(body: &[Statement], out: &mut Vec<Option<String>>) {
        for s in body {
            match s {
                Statement::Instr(i) if i.opcode == "call" => {
                    let target = i.operands.iter().find(|o| !matches!(o, Operand::List(_)));
                    out.push(match target {
                        Some(Operand::Ident { name, .. }) if !name.starts_with('%') => Some(name.clone()),
                        _ => None,
                    });
                }
                Statement::Block(b) => callees(b, out),
                _ => {}
            }
        }
    }
    let mut graph = Vec::new();
    let mut set = std::collections::HashSet::new();
    for d in &m.directives {
        if let Directive::Function(f) = d {
            if let Some(body) = &f.body {
                let mut c = Vec::new();
                callees(body, &mut c);
                if body_has(body, pred) {
                    set.insert(f.name.clone());
                }
                graph.push((f.name.clone(), c));
            }
        }
    }
    loop {
        let before = set.len();
        for (name, calls) in &graph {
            if !set.contains(name) && calls.iter().any(|c| c.as_ref().map(|c| set.contains(c)).unwrap_or(true)) {
                set.insert(name.clone());
            }
        }
        if set.len() == before {
            return set;
        }
    }
}

/// The names (`@name`) of the functions `ir` defines, read from its `define` lines in one
/// pass (a scan per call site was a quarter of the lowering time on large modules).
fn defined_fns(ir: &str) -> std::collections::HashSet<&str> {
    ir.lines()
        .filter_map(|l| l.strip_prefix("define "))
        .filter_map(|rest| {
            let at = rest.find(" @")? + 1;
            let open = at + rest[at..].find('(')?;
            Some(&rest[at..open])
        })
        .collect()
}

/// An immediate as an LLVM constant of the storage type of `ty`.
pub(crate) fn imm_text(imm: &Immediate, ty: ScalarType) -> String {
    use super::types::bits;
    match ty {
        ScalarType::F32 => {
            let v = match *imm {
                Immediate::F32Bits(b) => f32::from_bits(b) as f64,
                Immediate::F64Bits(b) => f64::from_bits(b) as f32 as f64,
                Immediate::Float(f) => f as f32 as f64,
                Immediate::Int(i) => i as f32 as f64,
            };
            f64_const(v)
        }
        ScalarType::F64 => {
            let v = match *imm {
                Immediate::F32Bits(b) => f32::from_bits(b) as f64,
                Immediate::F64Bits(b) => f64::from_bits(b),
                Immediate::Float(f) => f,
                Immediate::Int(i) => i as f64,
            };
            f64_const(v)
        }
        ScalarType::Pred => match *imm {
            Immediate::Int(i) => {
                if i != 0 {
                    "true".into()
                } else {
                    "false".into()
                }
            }
            _ => "true".into(),
        },
        _ => {
            let n = bits(ty);
            let raw: i128 = match *imm {
                Immediate::Int(i) => i,
                Immediate::F32Bits(b) => b as i128,
                Immediate::F64Bits(b) => b as i128,
                Immediate::Float(f) => f.to_bits() as i128,
            };
            // Truncate to the width and print as a signed value of that width.
            let mask: u128 = if n >= 128 { u128::MAX } else { (1u128 << n) - 1 };
            let u = (raw as u128) & mask;
            let signed = if n < 128 && (u >> (n - 1)) & 1 == 1 { (u as i128) - (1i128 << n) } else { u as i128 };
            signed.to_string()
        }
    }
}
