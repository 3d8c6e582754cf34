//! Adding instructions around chosen instructions of a module before it is lowered (the
//! execution-order passes `warp_sync` and `spin_wait`), and the flat view of a body those
//! passes search. Added instructions carry their own spans (the chosen instruction's line,
//! a column past any real one), so their call sites differ from every instruction's.

use crate::ptx::ast::*;
use std::collections::{HashMap, HashSet};

/// What goes just before and just after a chosen instruction.
pub(crate) type Around = fn(&Instruction) -> (Vec<Instruction>, Vec<Instruction>);

/// `m` with `around`'s instructions added at the instructions `choose` picks in each
/// function body (by span), or `None` when it picks none. `only`: the functions to look at
/// (part of a module lowered alone), else all.
pub(crate) fn around_chosen(m: &Module, only: Option<&HashSet<String>>, choose: fn(&[Statement]) -> HashSet<Span>, around: Around) -> Option<Module> {
    let mut chosen: HashMap<String, HashSet<Span>> = HashMap::new();
    for d in &m.directives {
        if let Directive::Function(f) = d {
            if only.is_some_and(|only| !only.contains(&f.name)) {
                continue;
            }
            if let Some(body) = f.body.as_deref() {
                let spans = choose(body);
                if !spans.is_empty() {
                    chosen.insert(f.name.clone(), spans);
                }
            }
        }
    }
    if chosen.is_empty() {
        return None;
    }
    let mut m = m.clone();
    for d in &mut m.directives {
        if let Directive::Function(f) = d {
            if let (Some(body), Some(spans)) = (&mut f.body, chosen.get(&f.name)) {
                *body = with_added(std::mem::take(body), spans, around);
            }
        }
    }
    Some(m)
}

fn with_added(body: Vec<Statement>, spans: &HashSet<Span>, around: Around) -> Vec<Statement> {
    let mut out = Vec::with_capacity(body.len());
    for s in body {
        match s {
            Statement::Instr(i) if spans.contains(&i.span) => {
                let (before, after) = around(&i);
                out.extend(before.into_iter().map(Statement::Instr));
                out.push(Statement::Instr(i));
                out.extend(after.into_iter().map(Statement::Instr));
            }
            Statement::Block(b) => out.push(Statement::Block(with_added(b, spans, around))),
            other => out.push(other),
        }
    }
    out
}

/// An unguarded instruction at column `col` of `line`.
pub(crate) fn added(line: u32, col: u32, opcode: &str, modifiers: &[&str], operands: Vec<Operand>) -> Instruction {
    Instruction {
        span: Span { line, col },
        guard: None,
        opcode: opcode.into(),
        modifiers: modifiers.iter().map(|m| m.to_string()).collect(),
        operands,
    }
}

/// A body statement in the flat view: its labels and instructions in order, blocks opened.
pub(crate) enum Item<'a> {
    Label(&'a str),
    Instr(&'a Instruction),
}

impl<'a> Item<'a> {
    pub(crate) fn instr(&self) -> Option<&'a Instruction> {
        match self {
            Item::Instr(i) => Some(i),
            Item::Label(_) => None,
        }
    }
}

/// `body`'s labels and instructions in order, with the position of each label.
pub(crate) fn flatten(body: &[Statement]) -> (Vec<Item<'_>>, HashMap<&str, usize>) {
    fn walk<'a>(body: &'a [Statement], out: &mut Vec<Item<'a>>) {
        for s in body {
            match s {
                Statement::Instr(i) => out.push(Item::Instr(i)),
                Statement::Label { name, .. } => out.push(Item::Label(name)),
                Statement::Block(b) => walk(b, out),
                _ => {}
            }
        }
    }
    let mut items = Vec::new();
    walk(body, &mut items);
    let labels = items
        .iter()
        .enumerate()
        .filter_map(|(k, i)| match i {
            Item::Label(name) => Some((*name, k)),
            Item::Instr(_) => None,
        })
        .collect();
    (items, labels)
}

/// Where branch `i` goes, if its target is a label of the body.
pub(crate) fn branch_target(i: &Instruction, labels: &HashMap<&str, usize>) -> Option<usize> {
    i.operands.iter().find_map(|o| match o {
        Operand::Ident { name, .. } => labels.get(name.as_str()).copied(),
        _ => None,
    })
}
