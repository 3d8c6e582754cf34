//! Module variables: the definitions of `.global`/`.const` variables with their
//! initializers, and how lowered code refers to them.

use super::super::types::size_of;
use super::{imm_text, ll_global, var_size};
use crate::diag::Diagnostic;
use crate::ptx::ast::*;
use crate::target::Target;
use std::fmt::Write;

/// How lowered code names a module variable: a generic `ptr` constant.
pub(super) fn global_ref(v: &VarDecl, target: &dyn Target) -> String {
    let ll = ll_global(&v.name);
    match var_space(v, target) {
        0 => ll,
        n => format!("addrspacecast (ptr addrspace({n}) {ll} to ptr)"),
    }
}

pub(super) fn var_space(v: &VarDecl, target: &dyn Target) -> u32 {
    let spaces = target.address_spaces();
    if v.space == StateSpace::Const {
        spaces.constant
    } else {
        spaces.global
    }
}

/// Emit a `.global`/`.const` variable; returns its size.
pub(super) fn global_var(v: &VarDecl, m: &Module, target: &dyn Target, ir: &mut String) -> Result<u64, Diagnostic> {
    super::super::int_width::check_declared(v.ty, v.span)?;
    let size = var_size(v);
    let align = v.align.unwrap_or(size_of(v.ty) as u32).max(1);
    let name = ll_global(&v.name);
    // Non-standard integer widths are stored in their power-of-two container.
    let mem_ty = super::super::int_width::in_memory(v.ty);
    let init = match &v.init {
        None => format!("[{size} x i8] zeroinitializer"),
        Some(init) => {
            let mut elems = Vec::new();
            flatten_init(init, &mut elems);
            let elem_ty = super::super::types::storage(mem_ty);
            let elem_size = size_of(mem_ty);
            let total = size / elem_size.max(1);
            let mut parts = Vec::new();
            for (i, e) in elems.iter().enumerate() {
                if i as u64 >= total {
                    break;
                }
                let e = &super::super::int_width::container_init(e, v.ty);
                parts.push(
                    init_const(e, mem_ty, &elem_ty, &|name| initializer_ref(m, name, target))
                        .map_err(|m| Diagnostic::error(v.span, m).with_snippet(v.name.clone()))?,
                );
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
    // Never `constant`: that would let LLVM assume the host never writes it, and
    // cuMemcpyToSymbol does.
    let space = match var_space(v, target) {
        0 => String::new(),
        n => format!("addrspace({n}) "),
    };
    let _ = writeln!(ir, "{name} = {}{space}global {init}, align {align}", target.export_prefix());
    Ok(size)
}

fn flatten_init<'a>(i: &'a Initializer, out: &mut Vec<&'a InitValue>) {
    match i {
        Initializer::Value(v) => out.push(v),
        Initializer::List(l) => l.iter().for_each(|x| flatten_init(x, out)),
    }
}

/// A generic `ptr` constant for a symbol named in an initializer: a module variable (in
/// its address space), a function, or null for a kernel. A kernel's address names nothing
/// device code can use (an `.entry` cannot be called, PTX ISA 7.1), and kernels are lowered
/// behind wrappers of other names; clang's `-fgpu-rdc` keep-alive table
/// (`__clang_gpu_used_external`) is the initializer that names them.
fn initializer_ref(m: &Module, name: &str, target: &dyn Target) -> String {
    let found = m.directives.iter().find_map(|d| match d {
        Directive::Variable(v) if v.name == name => Some(Ok(v)),
        Directive::Function(f) if f.name == name && f.kind == FunctionKind::Entry => Some(Err(())),
        _ => None,
    });
    match found {
        Some(Ok(v)) => global_ref(v, target),
        Some(Err(())) => "null".to_string(),
        None => ll_global(name),
    }
}

fn init_const(e: &InitValue, ty: ScalarType, ll: &str, symbol_ref: &dyn Fn(&str) -> String) -> Result<String, String> {
    Ok(match e {
        InitValue::Imm(imm) => format!("{ll} {}", imm_text(imm, ty)),
        InitValue::Address { symbol, offset, .. } => {
            if ll != "i64" {
                return Err("an address initializer needs a 64-bit element type".into());
            }
            format!("i64 ptrtoint (ptr getelementptr (i8, ptr {}, i64 {offset}) to i64)", symbol_ref(symbol))
        }
    })
}
