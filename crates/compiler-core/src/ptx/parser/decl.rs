//! Declarations: types, variables, initializers, and function headers.
//!
//! Grammar (PTX ISA 9.x):
//! * 5.4 "Variables": `[linkage] .space [.attribute(...)] [.align N] [.vN] .type
//!   [.ptr [.space] [.align N]] name [<count>] [[N]]... [= init] {, name ...} ;`. We accept
//!   the attributes before the name in any order, since emitters differ in where they put
//!   `.align` relative to `.v4`.
//! * 5.4.4 "Initializers": a scalar, `{...}` lists nested per array dimension, and
//!   addresses `sym`, `sym+off`, `generic(sym)`, `generic(sym)+off`.
//! * 11.2 "Specifying Kernel Entry Points and Functions": `.entry name (params) tuning* (body | ;)` and
//!   `.func (returns)? name (params)? .noreturn? (body | ;)`, with parameters declared
//!   `.param` (or the old `.reg` form).
//! * 11.4 "Performance-tuning directives": `.maxntid`, `.reqntid` (1 to 3 values, missing
//!   ones are 1), `.minnctapersm`, `.maxnreg`, `.maxnctapersm`. The cluster directives
//!   (`.explicitcluster`, `.reqnctapercluster`, `.maxclusterrank`) and `.abi_preserve*`
//!   have no AST field yet: they are accepted with a warning.
//! * 11.6 "Linking Directives": `.visible`, `.extern`, `.weak`, `.common`.
//! * 5.1.6 kernel parameter attributes (`.ptr`), 5.4.8 `.attribute` (ignored, warned).

use super::{PResult, Parser, MAX_DEPTH};
use crate::ptx::ast::{
    Directive, Function, FunctionKind, InitValue, Initializer, Linkage, OpaqueKind, ScalarType, StateSpace, Statement, Tuning, VarDecl,
};
use crate::ptx::lexer::TokKind;

/// Where a variable declaration appears; decides `;` and initializer rules.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(crate) enum DeclCtx {
    /// Module scope: `;`-terminated, comma lists and initializers allowed.
    Module,
    /// Function body: like module scope.
    Body,
    /// One parameter in a parameter list: one name, no initializer, no `;`.
    Param,
}

/// The state space named by a directive (PTX ISA 5.1).
pub(crate) fn state_space(word: &str) -> Option<StateSpace> {
    Some(match word {
        ".reg" => StateSpace::Reg,
        ".sreg" => StateSpace::Sreg,
        ".const" => StateSpace::Const,
        ".global" => StateSpace::Global,
        ".local" => StateSpace::Local,
        ".param" => StateSpace::Param,
        ".shared" | ".shared::cta" | ".shared::cluster" => StateSpace::Shared,
        ".tex" => StateSpace::Tex,
        _ => return None,
    })
}

/// The fundamental type named by a directive (PTX ISA 5.2). Bit widths of `.b`/`.u`/`.s`
/// are accepted from 1 to 128 so that non-standard widths survive parsing.
pub(crate) fn scalar_type(word: &str) -> Option<ScalarType> {
    Some(match word {
        ".f16" => ScalarType::F16,
        ".f16x2" => ScalarType::F16x2,
        ".bf16" => ScalarType::BF16,
        ".bf16x2" => ScalarType::BF16x2,
        ".f32" => ScalarType::F32,
        ".f64" => ScalarType::F64,
        ".pred" => ScalarType::Pred,
        ".texref" => ScalarType::Opaque(OpaqueKind::Texture),
        ".samplerref" => ScalarType::Opaque(OpaqueKind::Sampler),
        ".surfref" => ScalarType::Opaque(OpaqueKind::Surface),
        _ => {
            let rest = word.strip_prefix('.')?;
            let (kind, digits) = rest.split_at_checked(1)?;
            if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) || digits.starts_with('0') {
                return None;
            }
            let w: u32 = digits.parse().ok()?;
            if !(1..=128).contains(&w) {
                return None;
            }
            match kind {
                "b" => ScalarType::B(w),
                "u" => ScalarType::U(w),
                "s" => ScalarType::S(w),
                _ => return None,
            }
        }
    })
}

fn linkage_of(word: &str) -> Option<Linkage> {
    Some(match word {
        ".visible" => Linkage::Visible,
        ".extern" => Linkage::Extern,
        ".weak" => Linkage::Weak,
        ".common" => Linkage::Common,
        _ => return None,
    })
}

/// Directives that are valid PTX but that this front-end does not support; they get a
/// clearer message than "unknown directive".
pub(crate) fn unsupported_directive(word: &str) -> bool {
    matches!(word, ".alias" | ".branchtargets" | ".calltargets")
}

impl<'a> Parser<'a> {
    /// Zero or more linkage directives (at most one distinct one).
    pub(crate) fn linkage(&mut self) -> PResult<Linkage> {
        let mut linkage = None;
        while self.tok.kind == TokKind::Dot {
            let Some(l) = linkage_of(self.tok.text) else {
                break;
            };
            let t = self.bump();
            if linkage.is_some_and(|old| old != l) {
                return Err(self.error_at(t, "conflicting linkage directives"));
            }
            linkage = Some(l);
        }
        Ok(linkage.unwrap_or_default())
    }

    /// A module-scope declaration: a function or one or more variables.
    pub(crate) fn module_decl(&mut self) -> PResult<Vec<Directive>> {
        let had_linkage = linkage_of(self.tok.text).is_some();
        let linkage = self.linkage()?;
        let t = self.tok;
        if t.kind != TokKind::Dot {
            return Err(self.unexpected("'.entry', '.func' or a state space"));
        }
        match t.text {
            ".entry" => Ok(vec![Directive::Function(self.function(FunctionKind::Entry, linkage)?)]),
            ".func" => Ok(vec![Directive::Function(self.function(FunctionKind::Func, linkage)?)]),
            w => {
                if let Some(space) = state_space(w) {
                    self.bump();
                    let mut out = Vec::new();
                    self.var_decls(space, linkage, DeclCtx::Module, &mut out)?;
                    Ok(out.into_iter().map(Directive::Variable).collect())
                } else if had_linkage {
                    Err(self.unexpected("'.entry', '.func' or a state space after the linkage directive"))
                } else if unsupported_directive(w) {
                    Err(self.error_at(t, format!("unsupported directive '{w}'")))
                } else {
                    Err(self.error_at(t, format!("unknown directive '{w}'")))
                }
            }
        }
    }

    /// After the state space: attributes, type, then one name (parameters) or a comma
    /// list of names, each with its own count/array/initializer. Pushes one `VarDecl` per
    /// name.
    pub(crate) fn var_decls(&mut self, space: StateSpace, linkage: Linkage, ctx: DeclCtx, out: &mut Vec<VarDecl>) -> PResult<()> {
        let mut align = None;
        let mut vector = None;
        let mut ty = None;
        let mut ptr_space = None;
        while self.tok.kind == TokKind::Dot {
            let t = self.tok;
            match t.text {
                ".align" => {
                    self.bump();
                    let n = self.tok;
                    let a = self.u32_value("an alignment")?;
                    if !a.is_power_of_two() {
                        return Err(self.error_at(n, "alignment must be a power of two"));
                    }
                    align = Some(a);
                }
                ".v2" | ".v4" | ".v8" => {
                    self.bump();
                    vector = Some(t.text[2..].parse().unwrap_or(0));
                }
                ".ptr" => {
                    // PTX ISA 5.1.6: `.ptr [.space] [.align N]` on kernel parameters.
                    self.bump();
                    let mut sp = StateSpace::Generic;
                    if self.tok.kind == TokKind::Dot {
                        if let Some(s @ (StateSpace::Global | StateSpace::Shared | StateSpace::Const | StateSpace::Local)) =
                            state_space(self.tok.text)
                        {
                            sp = s;
                            self.bump();
                        }
                    }
                    if self.at_dot(".align") {
                        self.bump();
                        self.u32_value("a pointee alignment")?;
                    }
                    ptr_space = Some(sp);
                }
                ".attribute" => {
                    // `.attribute(.managed)` / `.attribute(.unified(...))`: no AST field yet.
                    self.bump();
                    if self.at(TokKind::LParen) {
                        self.skip_balanced_parens()?;
                    }
                    self.warn_at(t, "'.attribute(...)' on a variable is ignored");
                }
                w => match scalar_type(w) {
                    Some(st) => {
                        if ty.is_some() {
                            return Err(self.error_at(t, "more than one type in a declaration"));
                        }
                        ty = Some(st);
                        self.bump();
                    }
                    None => return Err(self.error_at(t, format!("unexpected '{w}' in a variable declaration"))),
                },
            }
        }
        let Some(ty) = ty else {
            return Err(self.unexpected("a type such as .b32 in the declaration"));
        };
        loop {
            let name = self.expect_ident("a variable name")?;
            let mut count = None;
            let mut array = Vec::new();
            if self.eat(TokKind::Lt) {
                count = Some(self.u32_value("a register count")?);
                self.expect(TokKind::Gt, "'>' after the register count")?;
            }
            while self.eat(TokKind::LBracket) {
                if self.eat(TokKind::RBracket) {
                    array.push(None);
                } else {
                    array.push(Some(self.int_value("an array size")?));
                    self.expect(TokKind::RBracket, "']' after the array size")?;
                }
            }
            let mut init = None;
            if self.at(TokKind::Eq) {
                let eq = self.bump();
                if ctx == DeclCtx::Param {
                    return Err(self.error_at(eq, "parameters cannot have initializers"));
                }
                init = Some(self.initializer()?);
            }
            out.push(VarDecl {
                span: Self::span(&name),
                space,
                linkage,
                align,
                vector,
                ty,
                ptr_space,
                name: name.text.to_string(),
                array,
                count,
                init,
            });
            if ctx == DeclCtx::Param || !self.eat(TokKind::Comma) {
                break;
            }
        }
        if ctx != DeclCtx::Param {
            self.expect(TokKind::Semi, "';' after the declaration")?;
        }
        Ok(())
    }

    /// `= ...` right-hand side. Nested `{}` lists are built with an explicit stack
    /// (bounded by `MAX_DEPTH`) rather than recursion.
    fn initializer(&mut self) -> PResult<Initializer> {
        if !self.at(TokKind::LBrace) {
            return Ok(Initializer::Value(self.init_value()?));
        }
        let mut stack: Vec<Vec<Initializer>> = Vec::new();
        'element: loop {
            while self.at(TokKind::LBrace) {
                if stack.len() >= MAX_DEPTH {
                    let t = self.tok;
                    return Err(self.error_at(t, format!("initializer nested more than {MAX_DEPTH} levels deep")));
                }
                self.bump();
                self.stmt_braces += 1;
                stack.push(Vec::new());
            }
            if !self.at(TokKind::RBrace) {
                let v = self.init_value()?;
                if let Some(top) = stack.last_mut() {
                    top.push(Initializer::Value(v));
                }
            }
            loop {
                if self.eat(TokKind::Comma) {
                    continue 'element;
                }
                if self.at(TokKind::RBrace) {
                    self.bump();
                    self.stmt_braces = self.stmt_braces.saturating_sub(1);
                    let list = Initializer::List(stack.pop().unwrap_or_default());
                    match stack.last_mut() {
                        Some(parent) => parent.push(list),
                        None => return Ok(list),
                    }
                    continue;
                }
                return Err(self.unexpected("',' or '}' in the initializer"));
            }
        }
    }

    /// One initializer scalar: a literal or an address expression.
    fn init_value(&mut self) -> PResult<InitValue> {
        if self.at_literal() {
            let imm = self.immediate("an initializer value")?;
            if self.at(TokKind::LParen) {
                let t = self.tok;
                return Err(self.error_at(t, "byte-masked address initializers such as 0xFF(sym) are not supported"));
            }
            return Ok(InitValue::Imm(imm));
        }
        if !self.at(TokKind::Ident) {
            return Err(self.unexpected("an initializer value"));
        }
        let mut generic = false;
        let symbol;
        if self.tok.text == "generic" && self.peek().kind == TokKind::LParen {
            self.bump();
            self.bump();
            generic = true;
            symbol = self.expect_ident("a symbol inside generic(...)")?;
            self.expect(TokKind::RParen, "')' after generic(symbol")?;
        } else {
            symbol = self.bump();
            if self.at(TokKind::Eq) {
                return Err(self.error_at(symbol, "texture/sampler field initializers are not supported"));
            }
        }
        let offset = if matches!(self.tok.kind, TokKind::Plus | TokKind::Minus) { self.signed_offset()? } else { 0 };
        Ok(InitValue::Address { symbol: symbol.text.to_string(), generic, offset })
    }

    /// `( .param ... , .param ... )`; also accepts `()` and the old `.reg` parameters.
    pub(crate) fn param_list(&mut self) -> PResult<Vec<VarDecl>> {
        self.expect(TokKind::LParen, "'('")?;
        let mut params = Vec::new();
        if self.eat(TokKind::RParen) {
            return Ok(params);
        }
        loop {
            let space = match self.tok.text {
                ".param" if self.tok.kind == TokKind::Dot => StateSpace::Param,
                ".reg" if self.tok.kind == TokKind::Dot => StateSpace::Reg,
                _ => return Err(self.unexpected("'.param' in the parameter list")),
            };
            self.bump();
            self.var_decls(space, Linkage::Internal, DeclCtx::Param, &mut params)?;
            if self.eat(TokKind::Comma) {
                continue;
            }
            self.expect(TokKind::RParen, "',' or ')' in the parameter list")?;
            return Ok(params);
        }
    }

    /// `.maxntid x[, y[, z]]`: missing dimensions are 1.
    fn dims(&mut self, what: &str) -> PResult<[u32; 3]> {
        let mut d = [1u32; 3];
        d[0] = self.u32_value(what)?;
        for slot in d.iter_mut().skip(1) {
            if !self.eat(TokKind::Comma) {
                break;
            }
            *slot = self.u32_value(what)?;
        }
        Ok(d)
    }

    /// From `.entry`/`.func` to the end of the body or the `;` of a prototype.
    pub(crate) fn function(&mut self, kind: FunctionKind, linkage: Linkage) -> PResult<Function> {
        self.bump();
        while self.at_dot(".attribute") {
            let t = self.bump();
            if self.at(TokKind::LParen) {
                self.skip_balanced_parens()?;
            }
            self.warn_at(t, "'.attribute(...)' on a function is ignored");
        }
        let returns = if kind == FunctionKind::Func && self.at(TokKind::LParen) { self.param_list()? } else { Vec::new() };
        let name = self.expect_ident("a function name")?;
        let params = if self.at(TokKind::LParen) { self.param_list()? } else { Vec::new() };
        let mut tuning = Tuning::default();
        let mut pragmas = Vec::new();
        while self.tok.kind == TokKind::Dot {
            let t = self.tok;
            match t.text {
                ".maxntid" => {
                    self.bump();
                    tuning.maxntid = Some(self.dims("a .maxntid dimension")?);
                }
                ".reqntid" => {
                    self.bump();
                    tuning.reqntid = Some(self.dims("a .reqntid dimension")?);
                }
                ".minnctapersm" => {
                    self.bump();
                    tuning.minnctapersm = Some(self.u32_value("a .minnctapersm value")?);
                }
                ".maxnreg" => {
                    self.bump();
                    tuning.maxnreg = Some(self.u32_value("a .maxnreg value")?);
                }
                ".maxnctapersm" => {
                    self.bump();
                    tuning.maxnctapersm = Some(self.u32_value("a .maxnctapersm value")?);
                }
                ".noreturn" => {
                    self.bump();
                    tuning.noreturn = true;
                }
                ".pragma" => {
                    self.bump();
                    let text = self.pragma_strings()?;
                    self.expect(TokKind::Semi, "';' after .pragma")?;
                    pragmas.push(Statement::Pragma { text, span: Self::span(&t) });
                }
                ".explicitcluster" | ".blocksareclusters" => {
                    self.bump();
                    self.warn_at(t, format!("'{}' is ignored", t.text));
                }
                ".reqnctapercluster" | ".maxclusterrank" | ".abi_preserve" | ".abi_preserve_control" => {
                    self.bump();
                    self.dims("a value")?;
                    self.warn_at(t, format!("'{}' is ignored", t.text));
                }
                ".loc" | ".file" => self.skip_line_directive(),
                _ => break,
            }
        }
        let body = if self.eat(TokKind::Semi) {
            None
        } else if self.at(TokKind::LBrace) {
            Some(self.function_body(pragmas))
        } else {
            return Err(self.unexpected("'{' or ';' after the function header"));
        };
        Ok(Function { span: Self::span(&name), kind, linkage, name: name.text.to_string(), returns, params, tuning, body })
    }
}
