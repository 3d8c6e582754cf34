//! Splitting one lowered module into partitions that compile on separate threads.
//!
//! LLVM optimizes and generates code for one module on one thread; a module with hundreds
//! of kernels compiles much faster when its kernels are spread over the machine's cores.
//! Every worker parses the whole IR text into a context of its own (LLVM contexts are
//! not shared between threads), then [`strip`] keeps only its partition:
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
use std::collections::HashMap;

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

    #[test]
    fn names_of_definitions() {
        assert_eq!(defined_name("internal void @\"a.b\"(ptr %x) {").as_deref(), Some("a.b"));
        assert_eq!(defined_name("void @k.region.3(ptr %x) {").as_deref(), Some("k.region.3"));
        assert_eq!(kernel_of("k.region.3"), "k");
        assert_eq!(kernel_of("f"), "f");
    }
}
