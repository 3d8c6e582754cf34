//! Splitting one lowered module into partitions that compile on separate threads.
//!
//! LLVM optimizes and generates code for one module on one thread; a module with hundreds
//! of kernels compiles much faster when its kernels are spread over the machine's cores.
//! Every worker parses IR text into a context of its own (LLVM contexts are not shared
//! between threads): [`IrIndex::text_for`] gives it the module without the function
//! definitions its kernels cannot reach (so a worker parses about its share of the text;
//! should that text not parse, it parses the whole module instead), then [`strip`] keeps
//! only its partition:
//!
//! - a kernel's entry points (external functions named `kernel.*`: `k.thread`, `k.block`,
//!   `k.region`, ...) stay defined in the kernel's partition only; elsewhere they are
//!   deleted (or become declarations if something refers to them);
//! - other external definitions (module variables, any external function that is not a
//!   kernel's) are defined by partition 0; the others declare module variables and keep
//!   functions as `available_externally` (inlinable, never emitted);
//! - internal functions and constants are left alone: whatever a partition's entry points
//!   still reach is compiled into that partition (a private copy each), the rest is dead
//!   and removed by `globaldce` before optimization.
//!
//! The partitions' object files are then linked into one JIT dylib, where the declarations
//! resolve to partition 0's definitions. Internal module state is never written (the only
//! internal variable, the host target's `@__ptx_global_base`, is a constant null the
//! optimizer must not see through), so the private copies cannot diverge.
//!
//! Which kernel goes where only affects speed: every partitioning compiles the same
//! program. Partitions are balanced by the size of each kernel's IR text.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMLinkage;
use std::collections::{HashMap, HashSet};

/// The top-level structure of a lowered module's IR text: its function definitions (a
/// `define` line to the next line that is `}`, as `lower` writes them), what each one
/// refers to, and everything else.
pub(crate) struct IrIndex<'a> {
    /// Text outside function definitions (variables, declarations, metadata), in order.
    rest: Vec<&'a str>,
    defs: Vec<Def<'a>>,
    by_name: HashMap<String, usize>,
}

struct Def<'a> {
    name: String,
    text: &'a str,
    /// Names after `@` in the body (functions among them are followed).
    refs: Vec<String>,
    local: bool,
}

impl<'a> IrIndex<'a> {
    pub(crate) fn new(ir: &'a str) -> IrIndex<'a> {
        let mut rest = Vec::new();
        let mut defs = Vec::new();
        let mut pos = 0;
        let mut other_start = 0;
        while pos < ir.len() {
            let end = ir[pos..].find('\n').map_or(ir.len(), |k| pos + k + 1);
            let line = &ir[pos..end];
            if let Some(head) = line.strip_prefix("define ") {
                let close = ir[end..].find("\n}\n").map_or(ir.len(), |k| end + k + 3);
                let text = &ir[pos..close];
                rest.push(&ir[other_start..pos]);
                let local = head.starts_with("internal ") || head.starts_with("private ");
                defs.push(Def { name: defined_name(head).unwrap_or_default(), refs: references(&ir[end..close]), text, local });
                pos = close;
                other_start = close;
            } else {
                pos = end;
            }
        }
        rest.push(&ir[other_start..]);
        let by_name = defs.iter().enumerate().map(|(k, d)| (d.name.clone(), k)).collect();
        IrIndex { rest, defs, by_name }
    }

    /// The module text for partition `part`: everything but function definitions, then
    /// the definitions reachable from the partition's kernel entry points and from any
    /// other external function (whose fate [`strip`] decides).
    pub(crate) fn text_for(&self, part: usize, owner: &HashMap<String, usize>) -> String {
        let mut keep = vec![false; self.defs.len()];
        let mut stack: Vec<usize> = (0..self.defs.len())
            .filter(|&k| {
                let d = &self.defs[k];
                !d.local && owner.get(kernel_of(&d.name)).is_none_or(|&p| p == part || !d.name.contains('.'))
            })
            .collect();
        while let Some(k) = stack.pop() {
            if std::mem::replace(&mut keep[k], true) {
                continue;
            }
            stack.extend(self.defs[k].refs.iter().filter_map(|r| self.by_name.get(r).copied()).filter(|&j| !keep[j]));
        }
        let mut out = String::with_capacity(self.rest.iter().map(|r| r.len()).sum::<usize>());
        self.rest.iter().for_each(|r| out.push_str(r));
        for (d, _) in self.defs.iter().zip(&keep).filter(|(_, &k)| k) {
            out.push_str(d.text);
        }
        out
    }
}

/// The global names (`@name`, `@"name"`) `text` refers to, each once.
fn references(text: &str) -> Vec<String> {
    let mut seen = HashSet::new();
    let mut rest = text;
    while let Some(at) = rest.find('@') {
        let s = &rest[at + 1..];
        let (name, len) = if let Some(q) = s.strip_prefix('"') {
            match q.find('"') {
                Some(e) => (&q[..e], e + 2),
                None => break,
            }
        } else {
            let e = s.find(|c: char| !(c.is_ascii_alphanumeric() || "_.$-".contains(c))).unwrap_or(s.len());
            (&s[..e], e)
        };
        seen.insert(name);
        rest = &s[len..];
    }
    seen.into_iter().map(str::to_string).collect()
}

/// The kernel a function belongs to: the part of its name before the first `.` (PTX
/// identifiers have no dots, so `k.thread`, `k.region.3`, `k.rbody.any` all name `k`).
fn kernel_of(symbol: &str) -> &str {
    symbol.split('.').next().unwrap_or(symbol)
}

/// Assigns each kernel (by index in `kernels`) to one of at most `parts` partitions,
/// balancing the bytes of IR text of each kernel's functions (largest first onto the
/// lightest partition). Returns the partition of each kernel and the number of partitions.
pub(crate) fn assign(ir: &str, kernels: &[&str], parts: usize) -> (Vec<usize>, usize) {
    let parts = parts.clamp(1, kernels.len().max(1));
    let index: HashMap<&str, usize> = kernels.iter().enumerate().map(|(k, n)| (*n, k)).collect();
    let mut cost = vec![0usize; kernels.len()];
    let mut current = None;
    for line in ir.split_inclusive('\n') {
        if let Some(rest) = line.strip_prefix("define ") {
            current = defined_name(rest).and_then(|n| index.get(kernel_of(&n)).copied());
        }
        if let Some(k) = current {
            cost[k] += line.len();
        }
    }
    let mut order: Vec<usize> = (0..kernels.len()).collect();
    order.sort_by(|&a, &b| cost[b].cmp(&cost[a]).then(a.cmp(&b)));
    let mut load = vec![0usize; parts];
    let mut part = vec![0usize; kernels.len()];
    for k in order {
        let p = (0..parts).min_by_key(|&p| (load[p], p)).unwrap_or(0);
        part[k] = p;
        load[p] += cost[k].max(1);
    }
    (part, parts)
}

/// The function name in the rest of a `define` line (`... @"name"(` or `... @name(`).
fn defined_name(rest: &str) -> Option<String> {
    let at = rest.find('@')?;
    let s = &rest[at + 1..];
    if let Some(q) = s.strip_prefix('"') {
        let end = q.find('"')?;
        // Quoted names escape `"` and `\` as `\22`/`\5C`; kernel names never need it, and
        // a name that did only loses balancing precision.
        Some(q[..end].to_string())
    } else {
        let end = s.find(|c: char| !(c.is_ascii_alphanumeric() || "_.$-".contains(c))).unwrap_or(s.len());
        Some(s[..end].to_string())
    }
}

fn name_of(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    // SAFETY: `v` is a live value; the name is copied before anything can change it.
    unsafe {
        let p = LLVMGetValueName2(v, &mut len);
        if p.is_null() {
            return String::new();
        }
        String::from_utf8_lossy(std::slice::from_raw_parts(p.cast::<u8>(), len)).into_owned()
    }
}

fn is_local(v: LLVMValueRef) -> bool {
    // SAFETY: `v` is a live global value.
    matches!(unsafe { LLVMGetLinkage(v) }, LLVMLinkage::LLVMInternalLinkage | LLVMLinkage::LLVMPrivateLinkage)
}

/// Keeps in `module` only what partition `part` defines (see the module documentation).
/// `owner` gives the partition of each kernel by name.
///
/// # Safety
/// `module` is a live module that no other thread uses.
pub(crate) unsafe fn strip(module: LLVMModuleRef, part: usize, owner: &HashMap<String, usize>) {
    // SAFETY (whole body): iteration fetches the next value before the current one is
    // replaced; replacements keep the old value's name and type.
    unsafe {
        let mut f = LLVMGetFirstFunction(module);
        while !f.is_null() {
            let next = LLVMGetNextFunction(f);
            if LLVMIsDeclaration(f) == 0 && !is_local(f) {
                let name = name_of(f);
                match owner.get(kernel_of(&name)) {
                    Some(&p) if name.contains('.') && p != part => {
                        if LLVMGetFirstUse(f).is_null() {
                            LLVMDeleteFunction(f);
                        } else {
                            let decl = LLVMAddFunction(module, c"".as_ptr(), LLVMGlobalGetValueType(f));
                            replace(f, decl, &name);
                            LLVMDeleteFunction(f);
                        }
                    }
                    Some(_) if name.contains('.') => {}
                    _ if part != 0 => LLVMSetLinkage(f, LLVMLinkage::LLVMAvailableExternallyLinkage),
                    _ => {}
                }
            }
            f = next;
        }
        if part == 0 {
            return;
        }
        let mut g = LLVMGetFirstGlobal(module);
        while !g.is_null() {
            let next = LLVMGetNextGlobal(g);
            if LLVMIsDeclaration(g) == 0 && !is_local(g) {
                let name = name_of(g);
                let space = LLVMGetPointerAddressSpace(LLVMTypeOf(g));
                let decl = LLVMAddGlobalInAddressSpace(module, LLVMGlobalGetValueType(g), c"".as_ptr(), space);
                LLVMSetAlignment(decl, LLVMGetAlignment(g));
                LLVMSetThreadLocal(decl, LLVMIsThreadLocal(g));
                replace(g, decl, &name);
                LLVMDeleteGlobal(g);
            }
            g = next;
        }
    }
}

/// Points every use of `old` at `new`, which takes over `name`.
///
/// # Safety
/// Both are live globals of one module with the same type.
unsafe fn replace(old: LLVMValueRef, new: LLVMValueRef, name: &str) {
    // SAFETY: per the contract; the old value is renamed first so `new` gets the exact name.
    unsafe {
        LLVMReplaceAllUsesWith(old, new);
        LLVMSetValueName2(old, c"".as_ptr(), 0);
        LLVMSetValueName2(new, name.as_ptr().cast(), name.len());
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_are_balanced_by_ir_size() {
        let ir = "\
@g = global i32 0
define internal void @\"big.body\"() {
  ret void
  ret void
  ret void
  ret void
}
define void @\"big.thread\"() {
  ret void
}
define void @small.thread() {
  ret void
}
define void @\"mid.block\"() {
  ret void
  ret void
}
define internal void @helper() {
  ret void
}
";
        let (part, n) = assign(ir, &["small", "mid", "big"], 2);
        assert_eq!(n, 2);
        // `big` alone outweighs the other two together.
        assert_eq!(part[2], 0);
        assert_eq!(part[0], 1);
        assert_eq!(part[1], 1);
        // Never more partitions than kernels.
        assert_eq!(assign(ir, &["small"], 8).1, 1);
    }

    /// Each partition's text parses on its own and defines its own kernels' entry points,
    /// not the others', with the shared function copied where it is reached.
    #[test]
    fn partition_texts_parse_and_hold_their_kernels() {
        let ast = crate::ptx::parse(include_str!("../../tests/data/split_kernels.ptx")).unwrap();
        let lowered = crate::lower::lower_module(&ast).unwrap();
        let names: Vec<&str> = lowered.kernels.iter().map(|k| k.name.as_str()).collect();
        let (part, n) = assign(&lowered.ir, &names, 3);
        assert_eq!(n, 3);
        let owner: HashMap<String, usize> = names.iter().zip(&part).map(|(k, &p)| (k.to_string(), p)).collect();
        let index = IrIndex::new(&lowered.ir);
        let mut total = 0;
        for p in 0..n {
            let text = index.text_for(p, &owner);
            total += text.len();
            let context = inkwell::context::Context::create();
            let buf = inkwell::memory_buffer::MemoryBuffer::create_from_memory_range_copy(text.as_bytes(), "part");
            let module = context.create_module_from_ir(buf).unwrap_or_else(|e| panic!("partition {p}: {e}\n{text}"));
            for (k, &q) in names.iter().zip(&part) {
                // A kernel's entry: `k.block`, `k.thread` (fibers) or `k.region`.
                let entry = ["block", "thread", "region"].iter().find_map(|e| module.get_function(&format!("{k}.{e}")));
                assert_eq!(entry.is_some(), q == p, "partition {p}, kernel {k}");
            }
            assert!(module.get_function("scale").is_some(), "partition {p} lacks the shared function");
            // Module variables stay (strip turns them into declarations).
            assert!(module.get_global("counter").is_some());
        }
        // Three partitions together are less than three whole modules.
        assert!(total < 3 * lowered.ir.len());
    }

    #[test]
    fn references_in_text() {
        let mut r = references("call void @\"a.b\"(ptr @g) ; @x.y-z $ @\"a.b\"");
        r.sort();
        assert_eq!(r, ["a.b", "g", "x.y-z"]);
    }

    #[test]
    fn names_of_definitions() {
        assert_eq!(defined_name("internal void @\"a.b\"(ptr %x) {").as_deref(), Some("a.b"));
        assert_eq!(defined_name("void @k.region.3(ptr %x) {").as_deref(), Some("k.region.3"));
        assert_eq!(kernel_of("k.region.3"), "k");
        assert_eq!(kernel_of("f"), "f");
    }
}
