//! Function bodies: statements, blocks, labels, `.callprototype`, and instructions.
//!
//! Grammar (PTX ISA 9.x):
//! * 4.3 "Statements": a statement is a label `name:`, a directive, or an instruction
//!   `[@[!]pred] opcode[.mod]... [operand {, operand}] ;`. `{ }` opens a nested scope
//!   (declarations inside are local to it); nvcc wraps every call sequence in one.
//! * 6 "Instruction Operands": registers, immediates (negative ones too), `!p` predicate
//!   negation, `_` sinks; 6.4.1 "Addresses as Operands": `[reg]`, `[reg+imm]`,
//!   `[reg+-imm]`, `[var]`, `[var+imm]`, `[imm]`, and `sym+off` address values;
//!   6.4.3 "Vectors as Operands": `{a, b, _}` and components `.x .y .z .w` / `.r .g .b .a`
//!   (also used on special registers such as `%tid.x`, section 10).
//! * 9.7 control-flow instruction `call`: `call[.uni] (ret), fname, (args)[, proto];` —
//!   the parenthesised lists become [`Operand::List`].
//! * Instructions with a predicate pair destination (`setp`, `shfl.sync`, ...): `a|p`
//!   becomes `Operand::List(vec![a, p])`.
//! * 11.2 `.callprototype`: `label: .callprototype [(ret)] _ (params) [.noreturn];`.
//!
//! Texture/surface operands `[tex, {x, y}]` are rejected with "unsupported operand form";
//! `.branchtargets` / `.calltargets` are rejected as unsupported directives.

use super::decl::{state_space, unsupported_directive, DeclCtx};
use super::{PResult, Parser, MAX_DEPTH};
use crate::ptx::ast::{AddressBase, Guard, Instruction, Operand, Statement};
use crate::ptx::lexer::{TokKind, Token};

/// Single-letter vector/special-register components (PTX ISA 6.4.3, 5.4.2).
fn component(word: &str) -> Option<char> {
    match word {
        ".x" | ".y" | ".z" | ".w" | ".r" | ".g" | ".b" | ".a" => word[1..].chars().next(),
        _ => None,
    }
}

/// Video-instruction operand selectors (PTX ISA 9.7.17): `.b` then 1-4 byte digits
/// (0-7), or `.h` then 1-2 half-word digits (0-3). The bare `.b` stays a component.
fn video_selector(word: &str) -> Option<&str> {
    let sel = word.strip_prefix('.')?;
    let (max, digits) = match sel.as_bytes().first()? {
        b'b' => (b'7', 1..=4),
        b'h' => (b'3', 1..=2),
        _ => return None,
    };
    let rest = &sel.as_bytes()[1..];
    (digits.contains(&rest.len()) && rest.iter().all(|c| (b'0'..=max).contains(c))).then_some(sel)
}

impl<'a> Parser<'a> {
    /// At `{`: parse a function body to its matching `}`. Never fails: errors are
    /// reported and recovered from inside. `pre` holds header pragmas.
    ///
    /// Nested blocks use an explicit stack of open scopes, so deep nesting cannot
    /// overflow the native stack; beyond `MAX_DEPTH` a block is reported and skipped.
    pub(crate) fn function_body(&mut self, pre: Vec<Statement>) -> Vec<Statement> {
        let open = self.bump();
        let mut stack: Vec<(Vec<Statement>, Token<'a>)> = vec![(pre, open)];
        loop {
            let t = self.tok;
            match t.kind {
                TokKind::RBrace => {
                    self.bump();
                    let Some((stmts, _)) = stack.pop() else {
                        return Vec::new();
                    };
                    match stack.last_mut() {
                        Some((parent, _)) => parent.push(Statement::Block(stmts)),
                        None => return stmts,
                    }
                }
                TokKind::Eof => {
                    let (line, col) = stack.last().map(|(_, o)| (o.line, o.col)).unwrap_or((0, 0));
                    self.unexpected(&format!("'}}' to close the block opened at {line}:{col}"));
                    // Fold the open scopes so that what was parsed is not lost.
                    let mut inner = None;
                    while let Some((mut stmts, _)) = stack.pop() {
                        if let Some(b) = inner.take() {
                            stmts.push(Statement::Block(b));
                        }
                        inner = Some(stmts);
                    }
                    return inner.unwrap_or_default();
                }
                TokKind::LBrace => {
                    if stack.len() >= MAX_DEPTH {
                        self.error_at(t, format!("blocks nested more than {MAX_DEPTH} levels deep"));
                        self.skip_balanced_braces();
                    } else {
                        self.bump();
                        stack.push((Vec::new(), t));
                    }
                }
                _ => {
                    let Some((out, _)) = stack.last_mut() else {
                        return Vec::new();
                    };
                    self.stmt_braces = 0;
                    if self.statement(out).is_err() {
                        self.recover_statement();
                    }
                    // Defensive: a statement always consumes at least one token.
                    if self.tok.offset == t.offset && self.tok.kind == t.kind && !self.at(TokKind::Eof) {
                        self.skip_token();
                    }
                }
            }
        }
    }

    /// One statement other than `{`/`}`.
    fn statement(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let t = self.tok;
        match t.kind {
            TokKind::Semi => {
                self.bump();
                Ok(())
            }
            TokKind::Dot => self.body_directive(out),
            TokKind::Ident if self.peek().kind == TokKind::Colon => {
                self.bump();
                self.bump();
                if self.at_dot(".callprototype") {
                    return self.callprototype(t, out);
                }
                if self.tok.kind == TokKind::Dot && unsupported_directive(self.tok.text) {
                    let d = self.tok;
                    return Err(self.error_at(d, format!("unsupported directive '{}'", d.text)));
                }
                out.push(Statement::Label { name: t.text.to_string(), span: Self::span(&t) });
                Ok(())
            }
            TokKind::Ident | TokKind::At => {
                let i = self.instruction()?;
                out.push(Statement::Instr(i));
                Ok(())
            }
            _ => Err(self.unexpected("an instruction, declaration or label")),
        }
    }

    /// A directive inside a body: declarations, `.pragma`, debug directives.
    fn body_directive(&mut self, out: &mut Vec<Statement>) -> PResult<()> {
        let t = self.tok;
        match t.text {
            ".pragma" => {
                self.bump();
                let text = self.pragma_strings()?;
                self.expect(TokKind::Semi, "';' after .pragma")?;
                out.push(Statement::Pragma { text, span: Self::span(&t) });
                Ok(())
            }
            ".loc" | ".file" => {
                self.skip_line_directive();
                Ok(())
            }
            ".section" => self.skip_section(),
            ".callprototype" => Err(self.error_at(t, "'.callprototype' needs a label: 'name: .callprototype ...'")),
            ".entry" | ".func" => Err(self.error_at(t, "functions cannot be defined inside a function body")),
            ".maxntid" | ".reqntid" | ".minnctapersm" | ".maxnreg" | ".maxnctapersm" | ".noreturn" => {
                Err(self.error_at(t, format!("'{}' must come before the function body", t.text)))
            }
            w if unsupported_directive(w) => Err(self.error_at(t, format!("unsupported directive '{w}'"))),
            _ => {
                let linkage = self.linkage()?;
                let s = self.tok;
                let Some(space) = (if s.kind == TokKind::Dot { state_space(s.text) } else { None }) else {
                    return Err(if s.offset != t.offset {
                        self.unexpected("a state space after the linkage directive")
                    } else {
                        self.error_at(s, format!("unknown directive '{}'", s.text))
                    });
                };
                self.bump();
                let mut decls = Vec::new();
                let r = self.var_decls(space, linkage, DeclCtx::Body, &mut decls);
                out.extend(decls.into_iter().map(Statement::Var));
                r
            }
        }
    }

    /// After `name:` at `.callprototype`.
    fn callprototype(&mut self, label: Token<'a>, out: &mut Vec<Statement>) -> PResult<()> {
        self.bump();
        let returns = if self.at(TokKind::LParen) { self.param_list()? } else { Vec::new() };
        let u = self.tok;
        if u.kind != TokKind::Ident || u.text != "_" {
            return Err(self.unexpected("'_' in place of the function name in .callprototype"));
        }
        self.bump();
        let params = if self.at(TokKind::LParen) { self.param_list()? } else { Vec::new() };
        // `.noreturn` has no field on prototypes; it does not change the call's lowering.
        if self.at_dot(".noreturn") {
            self.bump();
        }
        self.expect(TokKind::Semi, "';' after .callprototype")?;
        out.push(Statement::CallPrototype { name: label.text.to_string(), returns, params, span: Self::span(&label) });
        Ok(())
    }

    /// `[@[!]pred] opcode[.mod]... operands ;`
    fn instruction(&mut self) -> PResult<Instruction> {
        let first = self.tok;
        let guard = if self.eat(TokKind::At) {
            let negated = self.eat(TokKind::Bang);
            let p = self.expect_ident("a predicate register after '@'")?;
            Some(Guard { negated, predicate: p.text.to_string() })
        } else {
            None
        };
        let op = self.expect_ident("an instruction opcode")?;
        if !crate::ptx::opcodes::is_ptx_opcode(op.text) {
            return Err(self.error_at(op, format!("unknown instruction '{}'", op.text)));
        }
        let mut modifiers = Vec::new();
        while self.tok.kind == TokKind::Dot {
            modifiers.push(self.bump().text.to_string());
        }
        let mut operands = Vec::new();
        if !self.at(TokKind::Semi) {
            loop {
                // vmad alone negates register sources (PTX ISA 9.7.17.1 "vmad").
                if op.text == "vmad" && self.at(TokKind::Minus) && self.peek().kind == TokKind::Ident {
                    self.bump();
                    operands.push(Operand::Neg(Box::new(self.simple_operand()?)));
                } else {
                    operands.push(self.operand()?);
                }
                if !self.eat(TokKind::Comma) {
                    break;
                }
            }
        }
        if !self.at(TokKind::Semi) {
            return Err(self.unexpected("';' after instruction"));
        }
        self.bump();
        Ok(Instruction { span: Self::span(&first), guard, opcode: op.text.to_string(), modifiers, operands })
    }

    /// One operand, including the `a|p` pair form.
    fn operand(&mut self) -> PResult<Operand> {
        let a = match self.tok.kind {
            TokKind::LBracket => return self.address(),
            TokKind::LBrace => return self.vector(),
            TokKind::LParen => return self.list(),
            _ => self.simple_operand()?,
        };
        if self.at(TokKind::Pipe) {
            self.bump();
            let b = self.simple_operand()?;
            return Ok(Operand::List(vec![a, b]));
        }
        Ok(a)
    }

    /// Registers/symbols (with component or `+off`), `_`, `!p`, and literals. Never
    /// recurses, so no input can nest operands.
    fn simple_operand(&mut self) -> PResult<Operand> {
        let t = self.tok;
        match t.kind {
            TokKind::Bang => {
                self.bump();
                let p = self.expect_ident("a predicate after '!'")?;
                Ok(Operand::Not(Box::new(Operand::Ident { name: p.text.to_string(), component: None })))
            }
            TokKind::Int | TokKind::Float | TokKind::HexF32 | TokKind::HexF64 | TokKind::Minus => {
                if !self.at_literal() {
                    self.bump();
                    return Err(self.unexpected("a literal after '-' (only literals can be negated)"));
                }
                Ok(Operand::Imm(self.immediate("an immediate")?))
            }
            TokKind::Ident => {
                self.bump();
                if t.text == "_" {
                    return Ok(Operand::Sink);
                }
                let mut comp = None;
                if self.tok.kind == TokKind::Dot && self.tok.glued {
                    let d = self.tok;
                    if let Some(sel) = video_selector(d.text) {
                        self.bump();
                        return Ok(Operand::Select { name: t.text.to_string(), sel: sel.to_string() });
                    }
                    match component(d.text) {
                        Some(c) => {
                            self.bump();
                            comp = Some(c);
                        }
                        None => return Err(self.error_at(d, format!("unexpected '{}' after operand", d.text))),
                    }
                }
                if comp.is_none() && matches!(self.tok.kind, TokKind::Plus | TokKind::Minus) {
                    let offset = self.signed_offset()?;
                    return Ok(Operand::SymbolOffset { symbol: t.text.to_string(), offset });
                }
                Ok(Operand::Ident { name: t.text.to_string(), component: comp })
            }
            _ => Err(self.unexpected("an operand")),
        }
    }

    /// `[base]`, `[base+off]`, `[base+-off]`, `[imm]`.
    fn address(&mut self) -> PResult<Operand> {
        let open = self.bump();
        let t = self.tok;
        let base = match t.kind {
            TokKind::Ident => {
                self.bump();
                AddressBase::Ident(t.text.to_string())
            }
            TokKind::Int => AddressBase::Imm(self.int_value("an address")?),
            _ => return Err(self.unexpected("a register, variable or integer address inside '[...]'")),
        };
        let offset = if matches!(self.tok.kind, TokKind::Plus | TokKind::Minus) { self.signed_offset()? } else { 0 };
        if self.at(TokKind::Comma) {
            return self.texture_operand(open, base, offset);
        }
        self.expect(TokKind::RBracket, "']' to close the address")?;
        Ok(Operand::Address { base, offset })
    }

    /// The rest of `[handle, {coordinates}]` or `[handle, sampler, {coordinates}]` after
    /// the handle (PTX ISA 9.7.10 texture and surface instructions); the coordinates may
    /// also be a single register.
    fn texture_operand(&mut self, open: Token<'a>, base: AddressBase, offset: i64) -> PResult<Operand> {
        let AddressBase::Ident(handle) = base else {
            return Err(self.error_at(open, "a texture or surface operand needs a handle register or name"));
        };
        if offset != 0 {
            return Err(self.error_at(open, "a texture or surface handle takes no offset"));
        }
        self.bump();
        let mut sampler = None;
        let coords = loop {
            match self.tok.kind {
                TokKind::LBrace => match self.vector()? {
                    Operand::Vector(v) => break v,
                    _ => unreachable!("vector() returns a vector"),
                },
                _ => {
                    let one = self.simple_operand()?;
                    if sampler.is_none() && self.eat(TokKind::Comma) {
                        sampler = Some(one);
                        continue;
                    }
                    break vec![one];
                }
            }
        };
        self.expect(TokKind::RBracket, "']' to close the texture or surface operand")?;
        Ok(Operand::Texture { handle, sampler: sampler.map(Box::new), coords })
    }

    /// `{a, b, ...}` vector operand; elements are simple operands (registers, `_`,
    /// immediates).
    fn vector(&mut self) -> PResult<Operand> {
        self.bump();
        self.stmt_braces += 1;
        let mut elems = Vec::new();
        loop {
            if matches!(self.tok.kind, TokKind::LBrace | TokKind::LBracket | TokKind::LParen) {
                let t = self.tok;
                return Err(self.error_at(t, "unsupported operand form inside a vector operand"));
            }
            elems.push(self.simple_operand()?);
            if !self.eat(TokKind::Comma) {
                break;
            }
        }
        self.expect(TokKind::RBrace, "',' or '}' in the vector operand")?;
        self.stmt_braces = self.stmt_braces.saturating_sub(1);
        Ok(Operand::Vector(elems))
    }

    /// `(a, b, ...)` or `()` in `call`.
    fn list(&mut self) -> PResult<Operand> {
        self.bump();
        let mut elems = Vec::new();
        if self.eat(TokKind::RParen) {
            return Ok(Operand::List(elems));
        }
        loop {
            if matches!(self.tok.kind, TokKind::LBrace | TokKind::LBracket | TokKind::LParen) {
                let t = self.tok;
                return Err(self.error_at(t, "unsupported operand form inside a call argument list"));
            }
            elems.push(self.simple_operand()?);
            if !self.eat(TokKind::Comma) {
                break;
            }
        }
        self.expect(TokKind::RParen, "',' or ')' in the argument list")?;
        Ok(Operand::List(elems))
    }
}
