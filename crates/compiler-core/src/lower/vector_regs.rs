//! Vector registers (PTX ISA 5.4.2, "Vectors"): `.reg .v2 .u32 r;` declares a register of
//! two `.u32` elements, read and written one element at a time as `r.x`, `r.y` (`.z`, `.w`)
//! or whole wherever a braced vector operand may stand (`ld.v2.u32 r, [a]`,
//! `mov.b64 d, r`). Before lowering, each becomes one scalar register per element
//! (`r$x`, `r$y`...: `$` keeps the names apart from any the module declares) and each use
//! the element or the braced list. Vector registers as `.func` parameters are left as they
//! are (the lowering reports them).

use crate::ptx::ast::*;
use std::collections::{HashMap, HashSet};

const ELEMENTS: [char; 4] = ['x', 'y', 'z', 'w'];

/// `m` with the vector registers of the functions looked at (`only`, else all) split into
/// scalars, or `None` when none has any.
pub(crate) fn split(m: &Module, only: Option<&HashSet<String>>) -> Option<Module> {
    let has = |f: &Function| only.is_none_or(|only| only.contains(&f.name)) && f.body.as_deref().is_some_and(declares_vector);
    if !m.directives.iter().any(|d| matches!(d, Directive::Function(f) if has(f))) {
        return None;
    }
    let mut m = m.clone();
    for d in &mut m.directives {
        if let Directive::Function(f) = d {
            if has(f) {
                let mut vectors = HashMap::new();
                if let Some(body) = &mut f.body {
                    *body = rewrite(std::mem::take(body), &mut vectors);
                }
            }
        }
    }
    Some(m)
}

fn is_vector_reg(v: &VarDecl) -> bool {
    v.space == StateSpace::Reg && v.vector.is_some_and(|n| (2..=4).contains(&n)) && v.array.is_empty() && v.count.is_none()
}

fn declares_vector(body: &[Statement]) -> bool {
    body.iter().any(|s| match s {
        Statement::Var(v) => is_vector_reg(v),
        Statement::Block(b) => declares_vector(b),
        _ => false,
    })
}

fn element(name: &str, c: char) -> String {
    format!("{name}${c}")
}

/// The body with vector registers split; `vectors`: name -> element count of those in scope.
fn rewrite(body: Vec<Statement>, vectors: &mut HashMap<String, u32>) -> Vec<Statement> {
    let mut out = Vec::with_capacity(body.len());
    for s in body {
        match s {
            Statement::Var(v) if is_vector_reg(&v) => {
                let n = v.vector.unwrap_or(2);
                for &c in &ELEMENTS[..n as usize] {
                    out.push(Statement::Var(VarDecl { vector: None, name: element(&v.name, c), ..v.clone() }));
                }
                vectors.insert(v.name.clone(), n);
            }
            Statement::Instr(mut i) => {
                for o in &mut i.operands {
                    operand(o, vectors);
                }
                out.push(Statement::Instr(i));
            }
            Statement::Block(b) => {
                // Declarations inside a block stay inside it.
                let mut inner = vectors.clone();
                out.push(Statement::Block(rewrite(b, &mut inner)));
            }
            other => out.push(other),
        }
    }
    out
}

fn operand(o: &mut Operand, vectors: &HashMap<String, u32>) {
    match o {
        Operand::Ident { name, component } if vectors.contains_key(name.as_str()) => match component {
            Some(c) => *o = Operand::Ident { name: element(name, *c), component: None },
            None => {
                let n = vectors[name.as_str()] as usize;
                *o = Operand::Vector(ELEMENTS[..n].iter().map(|&c| Operand::Ident { name: element(name, c), component: None }).collect());
            }
        },
        Operand::Vector(items) | Operand::List(items) => items.iter_mut().for_each(|i| operand(i, vectors)),
        Operand::Texture { coords, .. } => coords.iter_mut().for_each(|i| operand(i, vectors)),
        Operand::Not(inner) | Operand::Neg(inner) => operand(inner, vectors),
        _ => {}
    }
}
