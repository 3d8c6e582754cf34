//! The PTX parser: text -> [`Module`], or a list of [`Diagnostic`]s.
//!
//! A hand-written recursive-descent parser over the tokens of [`super::lexer`]. It accepts
//! what nvcc 12.x/13.x and LLVM's NVPTX backend emit (PTX ISA 9.x, section 4 "Syntax",
//! section 5 "State Spaces, Types, and Variables", section 11 "Directives"), and keeps
//! instructions generic (opcode + dotted modifiers + operands) so that no instruction has
//! to be known here; the lowering interprets them.
//!
//! Split into:
//! * this file: the public API, the token cursor, diagnostics and error recovery, and the
//!   module-scope loop (`.version`, `.target`, `.address_size`, our `.warp_size`, debug
//!   directives);
//! * `decl`: types, variable declarations, initializers, function headers and tuning
//!   directives;
//! * `body`: function bodies (labels, blocks, `.callprototype`) and instructions;
//! * `literal`: conversion of literal token text to values.
//!
//! Representation choices worth knowing (the AST docs cover the rest):
//! * A predicate pair destination `a|p` (`setp.lt.s32 %p1|%p2, ...`,
//!   `shfl.sync.bfly.b32 %r1|%p1, ...`) is one operand `Operand::List(vec![a, p])`. Call
//!   argument lists `(a, b)` are also `List`s, but the two never occur in the same
//!   instruction (`call` has no `|` operands), so the opcode disambiguates.
//! * `-` before a literal is folded into it: `-1` is `Int(-1)`, `-1.5` is `Float(-1.5)`,
//!   and `-0f3F800000` flips the sign bit (`F32Bits(0xBF800000)`).
//! * `.ptr` on a kernel parameter sets `ptr_space` (`Generic` when `.ptr` names no space);
//!   the pointee alignment after `.ptr` (`.ptr .global .align 8`) is accepted and dropped
//!   because it is an optimisation hint, not the parameter's own alignment.
//! * `.pragma` lines between a function header and its body become `Statement::Pragma` at
//!   the start of the body; module-scope pragmas are dropped.
//! * Spans: variables and functions point at their name, instructions at their first token
//!   (the guard if any), labels at the label.
//! * Debug information (PTX ISA 11.5: `.file`, `.loc`, `.section ... { }`, and `@@DWARF`
//!   lines) is accepted and ignored wherever it appears.
//!
//! Not supported (each is a clear error, never a crash): texture/surface operands
//! `[handle, {x, y}]` ("unsupported operand form"), `.branchtargets`/`.calltargets`,
//! `.alias`, byte-masked address initializers `0xFF(sym)`, sampler field initializers
//! `{ filter_mode = ... }`, and constant expressions beyond a unary `-` on literals and
//! `sym+off`/`sym-off`. `.attribute(...)` and the cluster/ABI tuning directives
//! (`.explicitcluster`, `.reqnctapercluster`, `.maxclusterrank`, `.abi_preserve*`) have no
//! AST field yet: they are accepted with a warning.
//!
//! Robustness: the parser never panics and never recurses on input nesting (blocks and
//! initializer lists use explicit stacks; nesting is capped at [`MAX_DEPTH`] with an error
//! so later passes that do recurse are safe). After an error it resynchronises at the next
//! `;` or `}` and keeps going, so one run reports several errors, up to [`MAX_ERRORS`].
//! Every loop consumes at least one token per iteration, so it always terminates, and all
//! work is linear in the input size.

mod body;
mod decl;
mod literal;

use super::ast::{Module, Span};
use super::lexer::{Lexer, TokKind, Token};
use crate::diag::{Diagnostic, Severity};

/// Deepest `{ }` nesting accepted in bodies and initializers.
pub const MAX_DEPTH: usize = 256;
/// After this many errors the parser stops.
pub const MAX_ERRORS: usize = 100;

/// Parse a PTX module. Warnings are dropped on success; on failure every diagnostic
/// (errors and warnings, in source order) is returned.
pub fn parse(src: &str) -> Result<Module, Vec<Diagnostic>> {
    match parse_with_warnings(src) {
        (Some(m), _) => Ok(m),
        (None, diags) => Err(diags),
    }
}

/// Parse a PTX module and return warnings as well. The module is `Some` exactly when no
/// error was reported.
pub fn parse_with_warnings(src: &str) -> (Option<Module>, Vec<Diagnostic>) {
    let mut p = Parser::new(src);
    let module = p.module();
    let ok = p.errors == 0;
    (ok.then_some(module), p.diags)
}

/// Marker for "an error was reported; the caller should recover".
#[derive(Debug)]
pub(crate) struct Fail;

pub(crate) type PResult<T> = Result<T, Fail>;

/// The parser state: a token cursor with one token of lookahead, plus diagnostics.
pub(crate) struct Parser<'a> {
    lex: Lexer<'a>,
    /// The current token.
    tok: Token<'a>,
    /// The token after `tok`, if already lexed.
    peeked: Option<Token<'a>>,
    diags: Vec<Diagnostic>,
    errors: usize,
    /// Set when `MAX_ERRORS` is reached: from then on the cursor reports end of input.
    stopped: bool,
    /// Offset of the last token an error was reported at, to avoid reporting one bad
    /// token twice (once where it is unexpected, once while skipping it).
    last_error_offset: usize,
    /// `{` opened by the statement being parsed (vector operands, initializer lists) and
    /// not yet closed; recovery uses it to tell those braces from block braces.
    pub(crate) stmt_braces: usize,
    /// A `.warp_size` directive was seen.
    seen_warp_size: bool,
}

impl<'a> Parser<'a> {
    fn new(src: &'a str) -> Self {
        let mut lex = Lexer::new(src);
        let tok = lex.next_token();
        Parser {
            lex,
            tok,
            peeked: None,
            diags: Vec::new(),
            errors: 0,
            stopped: false,
            last_error_offset: usize::MAX,
            stmt_braces: 0,
            seen_warp_size: false,
        }
    }

    // ---- cursor -------------------------------------------------------------------

    /// Move to the next token and return the one we were on.
    #[inline]
    pub(crate) fn bump(&mut self) -> Token<'a> {
        let t = self.tok;
        if self.stopped {
            return t;
        }
        self.tok = match self.peeked.take() {
            Some(n) => n,
            None => self.lex.next_token(),
        };
        t
    }

    /// The token after the current one.
    #[inline]
    pub(crate) fn peek(&mut self) -> Token<'a> {
        if self.stopped {
            return self.tok;
        }
        if self.peeked.is_none() {
            self.peeked = Some(self.lex.next_token());
        }
        self.peeked.unwrap()
    }

    #[inline]
    pub(crate) fn at(&self, k: TokKind) -> bool {
        self.tok.kind == k
    }

    /// True if the current token is the directive/modifier `word` (with its dot).
    #[inline]
    pub(crate) fn at_dot(&self, word: &str) -> bool {
        self.tok.kind == TokKind::Dot && self.tok.text == word
    }

    #[inline]
    pub(crate) fn eat(&mut self, k: TokKind) -> bool {
        if self.tok.kind == k {
            self.bump();
            true
        } else {
            false
        }
    }

    /// Consume a token of kind `k` or report `expected <what>`.
    pub(crate) fn expect(&mut self, k: TokKind, what: &str) -> PResult<Token<'a>> {
        if self.tok.kind == k {
            Ok(self.bump())
        } else {
            Err(self.unexpected(what))
        }
    }

    /// Consume an identifier or report `expected <what>`.
    pub(crate) fn expect_ident(&mut self, what: &str) -> PResult<Token<'a>> {
        self.expect(TokKind::Ident, what)
    }

    pub(crate) fn span(t: &Token<'_>) -> Span {
        Span { line: t.line, col: t.col }
    }

    // ---- diagnostics ----------------------------------------------------------------

    /// Report an error at token `t` with `t`'s text as the snippet. A lexer error token
    /// reports the lexer's own message instead ("unterminated string" is more useful
    /// than "expected ';'").
    pub(crate) fn error_at(&mut self, t: Token<'a>, msg: impl Into<String>) -> Fail {
        let msg = match t.kind {
            TokKind::Error(m) => m.to_string(),
            _ => msg.into(),
        };
        if t.offset == self.last_error_offset && t.kind != TokKind::Eof {
            return Fail;
        }
        self.last_error_offset = t.offset;
        self.push(Diagnostic::error(Self::span(&t), msg).with_snippet(snippet(&t)));
        Fail
    }

    /// `expected <what>, found '<tok>'` at the current token.
    pub(crate) fn unexpected(&mut self, what: &str) -> Fail {
        let t = self.tok;
        let found = if t.kind == TokKind::Eof { "end of input".to_string() } else { format!("'{}'", snippet(&t)) };
        self.error_at(t, format!("expected {what}, found {found}"))
    }

    pub(crate) fn warn_at(&mut self, t: Token<'a>, msg: impl Into<String>) {
        self.push(Diagnostic::warning(Self::span(&t), msg).with_snippet(snippet(&t)));
    }

    fn push(&mut self, d: Diagnostic) {
        if self.stopped {
            return;
        }
        let is_err = d.severity == Severity::Error;
        let span = d.span;
        self.diags.push(d);
        if is_err {
            self.errors += 1;
            if self.errors >= MAX_ERRORS {
                self.diags.push(Diagnostic::error(span, "too many errors; giving up"));
                self.errors += 1;
                self.stopped = true;
                self.peeked = None;
                self.tok = Token { kind: TokKind::Eof, text: "", ..self.tok };
            }
        }
    }

    /// Skip the current token, reporting it first if it is a lexer error (used while
    /// skipping debug sections and during recovery, so malformed text is never silent).
    pub(crate) fn skip_token(&mut self) {
        if let TokKind::Error(_) = self.tok.kind {
            let t = self.tok;
            self.error_at(t, "");
        }
        self.bump();
    }

    // ---- recovery and skipping ----------------------------------------------------

    /// Statement-level recovery: skip to just after the next `;`, or to (not past) the
    /// next `{`/`}` or end of input. Braces are left for the enclosing block loop so that
    /// block structure survives a bad statement; braces the failed statement itself
    /// opened (`stmt_braces`: vector operands, initializers) are skipped with it.
    pub(crate) fn recover_statement(&mut self) {
        let mut depth = std::mem::take(&mut self.stmt_braces);
        loop {
            match self.tok.kind {
                TokKind::Semi => {
                    self.bump();
                    return;
                }
                TokKind::LBrace if depth == 0 => return,
                TokKind::RBrace if depth == 0 => return,
                TokKind::LBrace => depth += 1,
                TokKind::RBrace => depth -= 1,
                TokKind::Eof => return,
                _ => {}
            }
            self.skip_token();
        }
    }

    /// Module-level recovery: skip to just after the next `;`, or just after a balanced
    /// `{ ... }` (a function body we could not attach to a header). Braces opened by the
    /// failed declaration's initializer are skipped with it.
    fn recover_module(&mut self) {
        let mut depth = std::mem::take(&mut self.stmt_braces);
        loop {
            match self.tok.kind {
                TokKind::Semi => {
                    self.bump();
                    return;
                }
                TokKind::LBrace if depth == 0 => {
                    self.skip_balanced_braces();
                    return;
                }
                TokKind::LBrace => depth += 1,
                TokKind::RBrace => depth = depth.saturating_sub(1),
                TokKind::Eof => return,
                _ => {}
            }
            self.skip_token();
        }
    }

    /// At `{`: skip to just after the matching `}` (iteratively; no recursion).
    pub(crate) fn skip_balanced_braces(&mut self) {
        let mut depth = 0usize;
        loop {
            match self.tok.kind {
                TokKind::LBrace => depth += 1,
                TokKind::RBrace => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return;
                    }
                }
                TokKind::Eof => return,
                _ => {}
            }
            self.skip_token();
        }
    }

    /// Skip `( ... )` balanced (for `.attribute(...)`), starting at `(`.
    pub(crate) fn skip_balanced_parens(&mut self) -> PResult<()> {
        let open = self.tok;
        let mut depth = 0usize;
        loop {
            match self.tok.kind {
                TokKind::LParen => depth += 1,
                TokKind::RParen => {
                    depth = depth.saturating_sub(1);
                    if depth == 0 {
                        self.bump();
                        return Ok(());
                    }
                }
                TokKind::Eof | TokKind::Semi | TokKind::LBrace | TokKind::RBrace => {
                    return Err(self.error_at(open, "unbalanced '(' in attribute"));
                }
                _ => {}
            }
            self.skip_token();
        }
    }

    /// `.loc` and `.file` end at the end of their line (no `;`). Skip the rest of line
    /// `line`, then an optional `;`.
    pub(crate) fn skip_line_directive(&mut self) {
        let line = self.bump().line;
        while self.tok.line == line && !matches!(self.tok.kind, TokKind::Eof | TokKind::Semi) {
            self.skip_token();
        }
        if self.tok.line == line {
            self.eat(TokKind::Semi);
        }
    }

    /// `.section name { ... }` (DWARF payload): skipped.
    pub(crate) fn skip_section(&mut self) -> PResult<()> {
        self.bump();
        if matches!(self.tok.kind, TokKind::Dot | TokKind::Ident) {
            self.bump();
        }
        // `.section .debug_str, "", @progbits`-style flags are not emitted by nvcc, but
        // skipping to the brace costs nothing.
        while !matches!(self.tok.kind, TokKind::LBrace | TokKind::Eof | TokKind::Semi | TokKind::RBrace) {
            self.skip_token();
        }
        if !self.at(TokKind::LBrace) {
            return Err(self.unexpected("'{' after .section name"));
        }
        self.skip_balanced_braces();
        Ok(())
    }

    // ---- module scope ---------------------------------------------------------------

    fn module(&mut self) -> Module {
        let mut m = Module::default();
        let mut seen_version = false;
        let mut seen_target = false;
        // PTX ISA 11.1: `.version` must be the first directive (debug directives aside).
        let mut version_checked = false;
        while !self.at(TokKind::Eof) {
            let before = self.tok.offset;
            if !version_checked && !self.at_dot(".file") && !self.at_dot(".loc") {
                version_checked = true;
                if !self.at_dot(".version") {
                    let t = self.tok;
                    self.error_at(t, "missing .version directive at the start of the module");
                }
            }
            self.stmt_braces = 0;
            let r = self.module_item(&mut m, &mut seen_version, &mut seen_target);
            if r.is_err() {
                self.recover_module();
            }
            // Defensive: every item consumes something.
            if self.tok.offset == before && !self.at(TokKind::Eof) {
                self.skip_token();
            }
        }
        if !version_checked {
            let t = self.tok;
            self.error_at(t, "missing .version directive (the module is empty)");
        }
        m
    }

    fn module_item(&mut self, m: &mut Module, seen_version: &mut bool, seen_target: &mut bool) -> PResult<()> {
        let t = self.tok;
        match t.kind {
            TokKind::Semi => {
                self.bump();
                Ok(())
            }
            TokKind::Dot => match t.text {
                ".version" => {
                    self.bump();
                    if *seen_version {
                        self.error_at(t, "duplicate .version directive");
                    }
                    *seen_version = true;
                    m.version = self.version_number()?;
                    Ok(())
                }
                ".target" => {
                    self.bump();
                    if *seen_target {
                        self.error_at(t, "duplicate .target directive");
                    }
                    *seen_target = true;
                    m.targets.clear();
                    loop {
                        let name = self.expect_ident("a target name such as sm_80")?;
                        if !is_known_target(name.text) {
                            return Err(self.error_at(name, format!("unknown target '{}'", name.text)));
                        }
                        m.targets.push(name.text.to_string());
                        if !self.eat(TokKind::Comma) {
                            break;
                        }
                    }
                    Ok(())
                }
                ".address_size" => {
                    self.bump();
                    let n = self.tok;
                    let v = self.int_value("an address size (32 or 64)")?;
                    if v != 32 && v != 64 {
                        return Err(self.error_at(n, "address size must be 32 or 64"));
                    }
                    m.address_size = v as u32;
                    Ok(())
                }
                ".warp_size" => self.warp_size_directive(m),
                ".file" | ".loc" => {
                    self.skip_line_directive();
                    Ok(())
                }
                ".section" => self.skip_section(),
                ".pragma" => {
                    // Module-scope pragmas apply to every function; none affects us yet.
                    self.bump();
                    self.pragma_strings()?;
                    self.expect(TokKind::Semi, "';' after .pragma")?;
                    Ok(())
                }
                _ => {
                    let d = self.module_decl()?;
                    m.directives.extend(d);
                    Ok(())
                }
            },
            TokKind::RBrace => Err(self.error_at(t, "unmatched '}' at module scope")),
            TokKind::Ident => Err(self.error_at(t, format!("instruction or label '{}' outside a function body", t.text))),
            _ => Err(self.unexpected("a directive at module scope")),
        }
    }

    /// `.warp_size 32|64`: our extension (NVIDIA's ptxas rejects it, so wave64 code never
    /// runs there by accident). Once per module, before any variable or function, since
    /// `WARP_SZ` and the width of every lane-mask operand depend on it.
    fn warp_size_directive(&mut self, m: &mut Module) -> PResult<()> {
        let t = self.bump();
        if self.seen_warp_size {
            self.error_at(t, "duplicate .warp_size directive");
        }
        self.seen_warp_size = true;
        if !m.directives.is_empty() {
            self.error_at(t, ".warp_size must come before the module's variables and functions");
        }
        let n = self.tok;
        let v = self.int_value("a warp size (32 or 64)")?;
        if v != 32 && v != 64 {
            return Err(self.error_at(n, "warp size must be 32 or 64"));
        }
        m.warp_size = v as u32;
        Ok(())
    }

    /// `.version major.minor`: lexed as one float token (`8.5`), split on the dot.
    fn version_number(&mut self) -> PResult<(u32, u32)> {
        let t = self.tok;
        let parsed = match t.kind {
            TokKind::Float => {
                let mut it = t.text.splitn(2, '.');
                let major = it.next().and_then(|s| s.parse::<u32>().ok());
                let minor = it.next().and_then(|s| s.parse::<u32>().ok());
                major.zip(minor)
            }
            _ => None,
        };
        match parsed {
            Some(v) => {
                self.bump();
                Ok(v)
            }
            None => Err(self.unexpected("a version number such as 8.5")),
        }
    }

    /// One or more comma-separated strings (the operands of `.pragma`), joined with ", ".
    pub(crate) fn pragma_strings(&mut self) -> PResult<String> {
        let mut text = String::new();
        loop {
            let s = self.expect(TokKind::Str, "a string after .pragma")?;
            if !text.is_empty() {
                text.push_str(", ");
            }
            text.push_str(&s.text[1..s.text.len() - 1]);
            if !self.eat(TokKind::Comma) {
                return Ok(text);
            }
        }
    }
}

/// The snippet for a token: its text, cut to 80 bytes on a character boundary.
fn snippet(t: &Token<'_>) -> String {
    if t.kind == TokKind::Eof {
        return "<end of input>".to_string();
    }
    let mut end = t.text.len().min(80);
    while !t.text.is_char_boundary(end) {
        end -= 1;
    }
    t.text[..end].to_string()
}

/// Whether `.target` may name `name` (PTX ISA 9.0, 11.2.2 "Target Directive"): an
/// architecture NVIDIA has defined (`sm_XX`/`compute_XX`, with the `a` and `f` suffixes
/// from sm_90 on) or one of the modifiers. NVIDIA's JIT refuses other names with
/// `CUDA_ERROR_INVALID_PTX`.
fn is_known_target(name: &str) -> bool {
    const ARCHITECTURES: &[u32] =
        &[10, 11, 12, 13, 20, 21, 30, 32, 35, 37, 50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121];
    const MODIFIERS: &[&str] = &["texmode_unified", "texmode_independent", "debug", "map_f64_to_f32"];
    if MODIFIERS.contains(&name) {
        return true;
    }
    let Some(arch) = name.strip_prefix("sm_").or_else(|| name.strip_prefix("compute_")) else {
        return false;
    };
    let (digits, suffix) = arch.split_at(arch.find(|c: char| !c.is_ascii_digit()).unwrap_or(arch.len()));
    let Ok(number) = digits.parse::<u32>() else {
        return false;
    };
    ARCHITECTURES.contains(&number) && (suffix.is_empty() || (number >= 90 && matches!(suffix, "a" | "f")))
}
