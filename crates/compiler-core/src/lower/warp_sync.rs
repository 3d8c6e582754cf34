//! Warp-synchronous code: lanes of a warp that exchange values through memory with no
//! barrier, relying on the lockstep execution of pre-Volta hardware (CUB's older warp
//! scans, the CUDA SDK's radix sort, many papers' reductions). Such code marks the shared
//! data `volatile`, so that each access really goes to memory.
//!
//! The rule: every `st.volatile` to shared or generic memory is a point where lanes of a
//! warp may communicate. It gets a warp meeting (`bar.warp.sync -1`) just before it and
//! just after it, so that every lane of the warp does the reads before a store before any
//! lane stores, and every lane stores before any lane goes on to the next reads: the order
//! a warp executing in lockstep gives. A meeting is not a barrier: lanes that do not come
//! (another branch, exited) do not hold the others up. On the CPU device the meetings
//! split barrier regions or suspend fibers; on AMD GPUs they are wave barriers.
//!
//! The meetings have their own spans (the store's line, columns [`BEFORE_COL`] and
//! [`AFTER_COL`]), so their call sites differ from every instruction's.

use crate::ptx::ast::*;

/// The span column of the meeting before a volatile store.
const BEFORE_COL: u32 = 4094;
/// The span column of the meeting after it.
const AFTER_COL: u32 = 4095;

/// `m` with the meetings added, or `None` when it has no volatile store to shared or
/// generic memory.
pub(crate) fn add_meetings(m: &Module) -> Option<Module> {
    let any = m.directives.iter().any(|d| matches!(d, Directive::Function(f) if f.body.as_deref().is_some_and(has_volatile_store)));
    if !any {
        return None;
    }
    let mut m = m.clone();
    for d in &mut m.directives {
        if let Directive::Function(f) = d {
            if let Some(body) = &mut f.body {
                *body = with_meetings(std::mem::take(body));
            }
        }
    }
    Some(m)
}

/// Whether `i` is a volatile store that lanes of a warp may communicate through.
fn is_volatile_store(i: &Instruction) -> bool {
    i.opcode == "st"
        && i.modifiers.iter().any(|m| m == ".volatile")
        && !i.modifiers.iter().any(|m| matches!(m.as_str(), ".global" | ".local" | ".param" | ".const"))
}

fn has_volatile_store(body: &[Statement]) -> bool {
    body.iter().any(|s| match s {
        Statement::Instr(i) => is_volatile_store(i),
        Statement::Block(b) => has_volatile_store(b),
        _ => false,
    })
}

fn with_meetings(body: Vec<Statement>) -> Vec<Statement> {
    let mut out = Vec::with_capacity(body.len());
    for s in body {
        match s {
            Statement::Instr(i) if is_volatile_store(&i) => {
                let line = i.span.line;
                out.push(meeting(line, BEFORE_COL));
                out.push(Statement::Instr(i));
                out.push(meeting(line, AFTER_COL));
            }
            Statement::Block(b) => out.push(Statement::Block(with_meetings(b))),
            other => out.push(other),
        }
    }
    out
}

/// `bar.warp.sync -1;`, unguarded: every lane that reaches the store's place meets, also
/// those whose store is predicated off.
fn meeting(line: u32, col: u32) -> Statement {
    Statement::Instr(Instruction {
        span: Span { line, col },
        guard: None,
        opcode: "bar".into(),
        modifiers: vec![".warp".into(), ".sync".into()],
        operands: vec![Operand::Imm(Immediate::Int(-1))],
    })
}
