//! Module-scope lowering: variables, the shared-memory layout, function declarations,
//! and the per-kernel entry wrappers of the host ABI (`k.thread`, `k.block`).

use super::func::lower_function;
use super::types::{f64_const, size_of};
use super::{GlobalMeta, KernelMeta, LoweredModule};
use crate::diag::Diagnostic;
use crate::host_abi;
use crate::ptx::ast::*;
use std::collections::HashMap;
use std::fmt::Write;

/// How a module-scope name is addressed.
#[derive(Clone, Debug)]
pub(crate) enum Symbol {
    /// A `.global`/`.const` variable: an LLVM global (`@"name"`).
    Global { ll: String },
    /// A `.shared` variable: a byte offset in the block's shared window.
    Shared { offset: u64 },
    /// A function; its address is the LLVM function's.
    Function { ll: String },
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
pub(crate) struct ModuleCx {
    pub symbols: HashMap<String, Symbol>,
    pub functions: HashMap<String, FnSig>,
}

/// LLVM name of a PTX identifier: quoted, so every PTX name is valid as is.
pub(crate) fn ll_global(name: &str) -> String {
    format!("@\"{}\"", name.replace('"', "\\22"))
}

/// Lower a parsed module to LLVM IR text plus the metadata the runtime needs.
pub fn lower_module(m: &Module) -> Result<LoweredModule, Vec<Diagnostic>> {
    let mut out = LoweredModule::default();
    let mut ir = String::new();
    let mut errors = Vec::new();
    let mut cx = ModuleCx { symbols: HashMap::new(), functions: HashMap::new() };

    // Pass 1: variables and the shared layout.
    let mut shared_end: u64 = 0;
    let mut dynamic_shared: Vec<String> = Vec::new();
    for d in &m.directives {
        if let Directive::Variable(v) = d {
            match v.space {
                StateSpace::Global | StateSpace::Const => match global_var(v, &mut ir) {
                    Ok(size) => {
                        let ll = ll_global(&v.name);
                        out.globals.push(GlobalMeta { name: v.name.clone(), symbol: v.name.clone(), size });
                        cx.symbols.insert(v.name.clone(), Symbol::Global { ll });
                    }
                    Err(e) => errors.push(e),
                },
                StateSpace::Shared => {
                    let align = v.align.unwrap_or(size_of(v.ty) as u32).max(1) as u64;
                    if v.linkage == Linkage::Extern || v.array.iter().any(|d| d.is_none()) {
                        dynamic_shared.push(v.name.clone());
                        continue;
                    }
                    let size = var_size(v);
                    shared_end = shared_end.div_ceil(align) * align;
                    cx.symbols.insert(v.name.clone(), Symbol::Shared { offset: shared_end });
                    shared_end += size;
                }
                _ => errors.push(
                    Diagnostic::error(v.span, format!("module-scope variables in this state space are not supported: {:?}", v.space))
                        .with_snippet(v.name.clone()),
                ),
            }
        }
    }
    // `.shared` variables declared inside function bodies (nvcc puts a kernel's static
    // `__shared__` arrays there) share the module's window; their names are unique.
    for d in &m.directives {
        if let Directive::Function(f) = d {
            let mut vars = Vec::new();
            collect_shared(f.body.as_deref().unwrap_or(&[]), &mut vars);
            for v in vars {
                if v.linkage == Linkage::Extern || v.array.iter().any(|d| d.is_none()) {
                    dynamic_shared.push(v.name.clone());
                    continue;
                }
                let align = v.align.unwrap_or(size_of(v.ty) as u32).max(1) as u64;
                shared_end = shared_end.div_ceil(align) * align;
                cx.symbols.insert(v.name.clone(), Symbol::Shared { offset: shared_end });
                shared_end += var_size(v);
            }
        }
    }
    // Dynamic shared memory starts after the static variables, 16-byte aligned (the
    // strictest alignment any PTX type needs).
    let dyn_offset = shared_end.div_ceil(16) * 16;
    for name in dynamic_shared {
        cx.symbols.insert(name, Symbol::Shared { offset: dyn_offset });
    }
    out.static_shared_bytes = shared_end;

    // Pass 2: function declarations, so calls can be resolved in any order.
    for d in &m.directives {
        if let Directive::Function(f) = d {
            let ll = ll_global(&f.name);
            cx.symbols.insert(f.name.clone(), Symbol::Function { ll: ll.clone() });
            let sig = FnSig { ll, n_returns: f.returns.len(), n_params: f.params.len(), has_body: f.body.is_some() };
            // A definition wins over an earlier prototype.
            if sig.has_body || !cx.functions.contains_key(&f.name) {
                cx.functions.insert(f.name.clone(), sig);
            }
        }
    }

    // Pass 3: bodies.
    let fibers = fiber_functions(m);
    for d in &m.directives {
        if let Directive::Function(f) = d {
            if f.body.is_none() {
                continue;
            }
            match lower_function(&cx, f, &mut ir) {
                Ok(meta) => {
                    if let Some(mut meta) = meta {
                        // A kernel calling a function that synchronizes synchronizes too.
                        meta.uses_barrier |= fibers.contains(&f.name);
                        entry_wrappers(&meta, &mut ir);
                        out.kernels.push(meta);
                    }
                }
                Err(mut e) => errors.append(&mut e),
            }
        }
    }
    if !errors.is_empty() {
        return Err(errors);
    }
    let decls = intrinsic_declarations(&ir);
    ir.push_str(&decls);
    out.ir = ir;
    Ok(out)
}

/// `declare` lines for every `@llvm.*` intrinsic the IR calls, derived from the call sites
/// (LLVM's IR parser needs a declaration for each callee).
fn intrinsic_declarations(ir: &str) -> String {
    let mut seen = std::collections::BTreeMap::new();
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
        if seen.contains_key(name) {
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

fn collect_shared<'a>(body: &'a [Statement], out: &mut Vec<&'a VarDecl>) {
    for s in body {
        match s {
            Statement::Var(v) if v.space == StateSpace::Shared => out.push(v),
            Statement::Block(b) => collect_shared(b, out),
            _ => {}
        }
    }
}

fn body_has_barrier(body: &[Statement]) -> bool {
    body.iter().any(|s| match s {
        Statement::Instr(i) => is_barrier(i) || super::warp::is_collective(i),
        Statement::Block(b) => body_has_barrier(b),
        _ => false,
    })
}

/// `bar.sync`, `barrier.sync`, `bar.red`, `bar.arrive`... (PTX ISA 9.7.13.1): anything
/// that makes threads of a block wait for each other.
pub(crate) fn is_barrier(i: &Instruction) -> bool {
    (i.opcode == "bar" || i.opcode == "barrier") && !i.modifiers.iter().any(|m| m == ".warp")
}

/// The functions that may reach a block barrier or warp collective, directly or
/// through calls (a fixpoint over the call graph; an indirect call may reach anything).
fn fiber_functions(m: &Module) -> std::collections::HashSet<String> {
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
                if body_has_barrier(body) {
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

/// Emit `@"k.thread"` and, for barrier-free kernels, `@"k.block"`, the loop over the block's
/// threads that LLVM inlines the kernel into and vectorizes.
fn entry_wrappers(k: &KernelMeta, ir: &mut String) {
    let body = ll_global(&format!("{}.body", k.name));
    let thread = ll_global(&format!("{}.thread", k.name));
    let block = ll_global(&format!("{}.block", k.name));
    let _ = writeln!(ir, "define void {thread}(ptr %params, ptr %ctx) {{\n  call void {body}(ptr %ctx, ptr %params)\n  ret void\n}}");
    if k.uses_barrier {
        return;
    }
    let ntid = host_abi::OFFSET_NTID;
    let tid = host_abi::OFFSET_TID;
    let _ = write!(
        ir,
        r#"define void {block}(ptr %params, ptr %ctx) {{
entry:
  %ntx.p = getelementptr i8, ptr %ctx, i64 {ntx}
  %nty.p = getelementptr i8, ptr %ctx, i64 {nty}
  %ntz.p = getelementptr i8, ptr %ctx, i64 {ntz}
  %ntx = load i32, ptr %ntx.p
  %nty = load i32, ptr %nty.p
  %ntz = load i32, ptr %ntz.p
  %tx.p = getelementptr i8, ptr %ctx, i64 {tx}
  %ty.p = getelementptr i8, ptr %ctx, i64 {ty}
  %tz.p = getelementptr i8, ptr %ctx, i64 {tz}
  br label %z.head
z.head:
  %z = phi i32 [ 0, %entry ], [ %z.next, %y.exit ]
  %z.done = icmp uge i32 %z, %ntz
  br i1 %z.done, label %exit, label %y.head
y.head:
  %y = phi i32 [ 0, %z.head ], [ %y.next, %x.exit ]
  %y.done = icmp uge i32 %y, %nty
  br i1 %y.done, label %y.exit, label %x.head
x.head:
  %x = phi i32 [ 0, %y.head ], [ %x.next, %x.body ]
  %x.done = icmp uge i32 %x, %ntx
  br i1 %x.done, label %x.exit, label %x.body
x.body:
  store i32 %x, ptr %tx.p
  store i32 %y, ptr %ty.p
  store i32 %z, ptr %tz.p
  call void {body}(ptr %ctx, ptr %params)
  %x.next = add i32 %x, 1
  br label %x.head
x.exit:
  %y.next = add i32 %y, 1
  br label %y.head
y.exit:
  %z.next = add i32 %z, 1
  br label %z.head
exit:
  ret void
}}
"#,
        ntx = ntid,
        nty = ntid + 4,
        ntz = ntid + 8,
        tx = tid,
        ty = tid + 4,
        tz = tid + 8,
    );
}

/// Emit a `.global`/`.const` variable; returns its size.
fn global_var(v: &VarDecl, ir: &mut String) -> Result<u64, Diagnostic> {
    if v.linkage == Linkage::Extern {
        return Err(Diagnostic::error(v.span, "extern .global/.const variables need separate compilation (-rdc), which is not supported yet")
            .with_snippet(v.name.clone()));
    }
    let size = var_size(v);
    let align = v.align.unwrap_or(size_of(v.ty) as u32).max(1);
    let name = ll_global(&v.name);
    let init = match &v.init {
        None => format!("[{size} x i8] zeroinitializer"),
        Some(init) => {
            let mut elems = Vec::new();
            flatten_init(init, &mut elems);
            let elem_ty = super::types::storage(v.ty);
            let elem_size = size_of(v.ty);
            let total = size / elem_size.max(1);
            let mut parts = Vec::new();
            for (i, e) in elems.iter().enumerate() {
                if i as u64 >= total {
                    break;
                }
                parts.push(init_const(e, v.ty, &elem_ty).map_err(|m| Diagnostic::error(v.span, m).with_snippet(v.name.clone()))?);
            }
            let filled = parts.len() as u64;
            let mut types = vec![elem_ty.clone(); parts.len()];
            if filled < total {
                let rest = (total - filled) * elem_size;
                types.push(format!("[{rest} x i8]"));
                parts.push(format!("[{rest} x i8] zeroinitializer"));
            }
            format!("<{{ {} }}> <{{ {} }}>", types.join(", "), parts.join(", "))
        }
    };
    let kind = if v.space == StateSpace::Const { "constant" } else { "global" };
    // `constant` would let LLVM assume the host never writes it; cuMemcpyToSymbol does.
    let _ = kind;
    let _ = writeln!(ir, "{name} = global {init}, align {align}");
    Ok(size)
}

fn flatten_init<'a>(i: &'a Initializer, out: &mut Vec<&'a InitValue>) {
    match i {
        Initializer::Value(v) => out.push(v),
        Initializer::List(l) => l.iter().for_each(|x| flatten_init(x, out)),
    }
}

fn init_const(e: &InitValue, ty: ScalarType, ll: &str) -> Result<String, String> {
    Ok(match e {
        InitValue::Imm(imm) => format!("{ll} {}", imm_text(imm, ty)),
        InitValue::Address { symbol, offset, .. } => {
            if ll != "i64" {
                return Err("an address initializer needs a 64-bit element type".into());
            }
            format!("i64 ptrtoint (ptr getelementptr (i8, ptr {}, i64 {offset}) to i64)", ll_global(symbol))
        }
    })
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
            Immediate::Int(i) => if i != 0 { "true".into() } else { "false".into() },
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
