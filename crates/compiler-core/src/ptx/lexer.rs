//! A hand-written PTX lexer over bytes.
//!
//! The lexer turns PTX text into [`Token`]s that borrow their text from the source and
//! carry a 1-based line and byte column. It works on bytes with a 256-entry class table
//! (no regex, no allocation per token) because the whole front-end has a throughput target
//! of tens of megabytes per second: real-world PTX (a template-heavy library, a `-G` debug
//! build with its `.section .debug_*` dumps) easily reaches tens of megabytes.
//!
//! The token grammar follows PTX ISA section 4 ("Syntax"):
//! * 4.2 comments: `// ...` to end of line and `/* ... */` (not nested). `@@DWARF ...`
//!   lines (old debug-info emitters) are skipped like comments as well.
//! * 4.3 statements: directives and instruction modifiers start with `.`; we lex any
//!   `.word` (including `::` parts such as `.shared::cta` or `.mbarrier::complete_tx::bytes`)
//!   as one [`TokKind::Dot`] token and leave its meaning to the parser.
//! * 4.4 identifiers: `[a-zA-Z][a-zA-Z0-9_$]*` or `[_$%][a-zA-Z0-9_$]*` (so `%r1`,
//!   `$L__BB0_2`, `__cudart_x`, `_Z3fooPf`, and the sink `_`).
//! * 4.5 constants: integers in decimal, hex `0x`, octal `0`, binary `0b`, each with an
//!   optional `U` suffix; hex floats `0fXXXXXXXX` (exactly 8 hex digits, f32 bits) and
//!   `0dXXXXXXXXXXXXXXXX` (exactly 16, f64 bits); decimal floats `1.5`, `1e-3`, `.5`.
//!   A leading `-` is a separate token (PTX treats it as unary negation in a constant
//!   expression); the parser folds it into the literal.
//! * strings `"..."` (used by `.file`, `.pragma`, `.section` contents) with `\` escapes.
//!
//! Malformed input never panics: it becomes a [`TokKind::Error`] token carrying a message,
//! which the parser reports as a diagnostic at the token's position.

/// What a token is. Punctuation gets one variant per character.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokKind {
    /// An identifier (PTX ISA 4.4), including `%`-registers and `$`-labels.
    Ident,
    /// A `.word` directive or modifier, with its dot: `.reg`, `.v4`, `.shared::cta`, `.1d`.
    Dot,
    /// An integer literal as written (decimal, `0x`, `0b`, octal; optional `U`).
    Int,
    /// A decimal floating-point literal (`1.5`, `1e-3`, `.5`).
    Float,
    /// `0fXXXXXXXX`.
    HexF32,
    /// `0dXXXXXXXXXXXXXXXX`.
    HexF64,
    /// A string literal; `text` includes the quotes.
    Str,
    Comma,
    Semi,
    Colon,
    LBrace,
    RBrace,
    LBracket,
    RBracket,
    LParen,
    RParen,
    Lt,
    Gt,
    At,
    Bang,
    Plus,
    Minus,
    Eq,
    Pipe,
    /// End of input; `text` is empty.
    Eof,
    /// Malformed input; the message says what is wrong and `text` is the offending bytes.
    Error(&'static str),
}

/// One token. `text` borrows from the source.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Token<'a> {
    pub kind: TokKind,
    pub text: &'a str,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in bytes.
    pub col: u32,
    /// Byte offset of the token in the source.
    pub offset: usize,
    /// True when no whitespace or comment separates this token from the previous one.
    /// The parser uses it for `%tid.x` (a component) and the lexer for `tex.1d` (a
    /// modifier, not the float `.1`).
    pub glued: bool,
}

// Character classes for the table below.
const C_OTHER: u8 = 0;
const C_SPACE: u8 = 1; // ' ', \t, \r, \f, \v
const C_NL: u8 = 2;
const C_LETTER: u8 = 3; // a-z A-Z
const C_DIGIT: u8 = 4;
const C_IDSTART: u8 = 5; // _ $ %
const C_PUNCT: u8 = 6;

static CLASS: [u8; 256] = build_class_table();

const fn build_class_table() -> [u8; 256] {
    let mut t = [C_OTHER; 256];
    let mut i = 0;
    while i < 256 {
        let c = i as u8;
        t[i] = match c {
            b' ' | b'\t' | b'\r' | 0x0b | 0x0c => C_SPACE,
            b'\n' => C_NL,
            b'a'..=b'z' | b'A'..=b'Z' => C_LETTER,
            b'0'..=b'9' => C_DIGIT,
            b'_' | b'$' | b'%' => C_IDSTART,
            b',' | b';' | b':' | b'{' | b'}' | b'[' | b']' | b'(' | b')' | b'<' | b'>' | b'@' | b'!' | b'+' | b'-' | b'=' | b'|' => C_PUNCT,
            _ => C_OTHER,
        };
        i += 1;
    }
    t
}

/// Identifier continuation characters: `[a-zA-Z0-9_$]` (PTX ISA 4.4). `%` only starts one.
#[inline(always)]
fn is_ident_cont(b: u8) -> bool {
    matches!(CLASS[b as usize], C_LETTER | C_DIGIT) || b == b'_' || b == b'$'
}

#[inline(always)]
fn is_hex(b: u8) -> bool {
    b.is_ascii_hexdigit()
}

/// The lexer: a cursor over the source. It is `Copy`-cheap to clone, which is how the
/// parser peeks ahead.
#[derive(Clone)]
pub struct Lexer<'a> {
    src: &'a str,
    bytes: &'a [u8],
    pos: usize,
    line: u32,
    line_start: usize,
    /// End offset of the previous token, for `glued`.
    prev_end: usize,
    /// Kind of the previous token (for the `.1d` vs `.5` decision).
    prev_kind: TokKind,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a str) -> Self {
        Lexer { src, bytes: src.as_bytes(), pos: 0, line: 1, line_start: 0, prev_end: usize::MAX, prev_kind: TokKind::Eof }
    }

    /// The whole source text.
    pub fn source(&self) -> &'a str {
        self.src
    }

    /// Skip whitespace and comments. Returns an error token for an unterminated `/*`.
    #[inline]
    fn skip_trivia(&mut self) -> Option<Token<'a>> {
        let b = self.bytes;
        loop {
            let &c = b.get(self.pos)?;
            match CLASS[c as usize] {
                C_SPACE => self.pos += 1,
                C_NL => {
                    self.pos += 1;
                    self.line = self.line.saturating_add(1);
                    self.line_start = self.pos;
                }
                _ if c == b'/' => match b.get(self.pos + 1) {
                    Some(b'/') => self.skip_line(),
                    Some(b'*') => {
                        let (start, line, col) = (self.pos, self.line, self.col_of(self.pos));
                        self.pos += 2;
                        loop {
                            match b.get(self.pos) {
                                None => {
                                    // Report just the opening `/*`: the rest could be huge.
                                    return Some(Token {
                                        kind: TokKind::Error("unterminated block comment"),
                                        text: &self.src[start..start + 2],
                                        line,
                                        col,
                                        offset: start,
                                        glued: false,
                                    });
                                }
                                Some(b'*') if b.get(self.pos + 1) == Some(&b'/') => {
                                    self.pos += 2;
                                    break;
                                }
                                Some(b'\n') => {
                                    self.pos += 1;
                                    self.line = self.line.saturating_add(1);
                                    self.line_start = self.pos;
                                }
                                Some(_) => self.pos += 1,
                            }
                        }
                    }
                    _ => return None,
                },
                // `@@DWARF` lines are debug-info payload from old emitters: skip the line.
                _ if c == b'@' && b[self.pos..].starts_with(b"@@DWARF") => self.skip_line(),
                _ => return None,
            }
        }
    }

    /// Advance to the newline (not past it, so that line counting stays in one place).
    #[inline]
    fn skip_line(&mut self) {
        let b = self.bytes;
        while let Some(&c) = b.get(self.pos) {
            if c == b'\n' {
                break;
            }
            self.pos += 1;
        }
    }

    #[inline(always)]
    fn col_of(&self, pos: usize) -> u32 {
        (pos - self.line_start + 1).min(u32::MAX as usize) as u32
    }

    /// The line the cursor is on.
    pub fn current_line(&self) -> u32 {
        self.line
    }

    /// Produce the next token; after the end of input, keeps returning `Eof`.
    pub fn next_token(&mut self) -> Token<'a> {
        if let Some(err) = self.skip_trivia() {
            self.prev_end = self.pos;
            self.prev_kind = err.kind;
            return err;
        }
        let start = self.pos;
        let glued = start == self.prev_end;
        let (line, col) = (self.line, self.col_of(start));
        let kind = self.lex_kind();
        // Never produce an empty non-EOF token: that would stall the parser.
        if self.pos == start && kind != TokKind::Eof {
            self.pos = start + char_len(self.bytes, start);
        }
        self.prev_end = self.pos;
        self.prev_kind = kind;
        Token { kind, text: &self.src[start..self.pos], line, col, offset: start, glued }
    }

    /// Lex one token starting at `self.pos` (trivia already skipped) and return its kind,
    /// leaving `self.pos` after it.
    #[inline]
    fn lex_kind(&mut self) -> TokKind {
        let b = self.bytes;
        let Some(&c) = b.get(self.pos) else {
            return TokKind::Eof;
        };
        match CLASS[c as usize] {
            C_LETTER => {
                self.pos += 1;
                self.eat_ident_cont();
                TokKind::Ident
            }
            C_IDSTART => {
                let start = self.pos;
                self.pos += 1;
                self.eat_ident_cont();
                // `%` and `$` alone are not identifiers; `_` alone is the sink.
                if c != b'_' && self.pos == start + 1 {
                    return TokKind::Error("expected identifier characters after this");
                }
                TokKind::Ident
            }
            C_DIGIT => self.lex_number(),
            C_PUNCT => {
                self.pos += 1;
                match c {
                    b',' => TokKind::Comma,
                    b';' => TokKind::Semi,
                    b':' => TokKind::Colon,
                    b'{' => TokKind::LBrace,
                    b'}' => TokKind::RBrace,
                    b'[' => TokKind::LBracket,
                    b']' => TokKind::RBracket,
                    b'(' => TokKind::LParen,
                    b')' => TokKind::RParen,
                    b'<' => TokKind::Lt,
                    b'>' => TokKind::Gt,
                    b'@' => TokKind::At,
                    b'!' => TokKind::Bang,
                    b'+' => TokKind::Plus,
                    b'-' => TokKind::Minus,
                    b'=' => TokKind::Eq,
                    _ => TokKind::Pipe,
                }
            }
            _ if c == b'.' => self.lex_dot(),
            _ if c == b'"' => self.lex_string(),
            _ => {
                self.pos += char_len(b, self.pos);
                TokKind::Error("unexpected character")
            }
        }
    }

    #[inline(always)]
    fn eat_ident_cont(&mut self) {
        let b = self.bytes;
        while let Some(&c) = b.get(self.pos) {
            if !is_ident_cont(c) {
                break;
            }
            self.pos += 1;
        }
    }

    /// `.word` (with `::word` parts), or a float such as `.5`.
    fn lex_dot(&mut self) -> TokKind {
        let b = self.bytes;
        let start = self.pos;
        let next = b.get(start + 1).copied().unwrap_or(0);
        if next.is_ascii_digit() {
            // `tex.1d` / `.2d` modifiers are glued to the opcode; a free-standing `.5` is
            // a float literal.
            let glued_to_word = start == self.prev_end && matches!(self.prev_kind, TokKind::Ident | TokKind::Dot);
            if !glued_to_word {
                return self.lex_number();
            }
        } else if !(is_ident_cont(next)) {
            self.pos += 1;
            return TokKind::Error("expected a directive or modifier name after '.'");
        }
        self.pos += 1;
        self.eat_ident_cont();
        // `::` parts: `.shared::cta`, `.L2::cache_hint`, `.mbarrier::complete_tx::bytes`.
        while b.get(self.pos) == Some(&b':') && b.get(self.pos + 1) == Some(&b':') && b.get(self.pos + 2).is_some_and(|&c| is_ident_cont(c)) {
            self.pos += 2;
            self.eat_ident_cont();
        }
        TokKind::Dot
    }

    /// `"..."` with backslash escapes; must end on the same line.
    fn lex_string(&mut self) -> TokKind {
        let b = self.bytes;
        self.pos += 1;
        loop {
            match b.get(self.pos) {
                None | Some(b'\n') => return TokKind::Error("unterminated string"),
                Some(b'"') => {
                    self.pos += 1;
                    return TokKind::Str;
                }
                Some(b'\\') if b.get(self.pos + 1).is_some_and(|&c| c != b'\n') => {
                    self.pos += 1;
                    self.pos += char_len(b, self.pos);
                }
                Some(_) => self.pos += 1,
            }
        }
    }

    /// Numbers (PTX ISA 4.5). The token text is validated here; the parser converts it.
    fn lex_number(&mut self) -> TokKind {
        let b = self.bytes;
        let start = self.pos;
        let c0 = b[start];
        let c1 = b.get(start + 1).copied().unwrap_or(0);
        if c0 == b'0' && (c1 == b'f' || c1 == b'F' || c1 == b'd' || c1 == b'D') {
            // Hex float: exactly 8 (0f) or 16 (0d) hex digits.
            let want = if c1 == b'f' || c1 == b'F' { 8 } else { 16 };
            self.pos += 2;
            let digits_start = self.pos;
            while b.get(self.pos).is_some_and(|&c| is_hex(c)) {
                self.pos += 1;
            }
            let n = self.pos - digits_start;
            let trailing = b.get(self.pos).is_some_and(|&c| is_ident_cont(c));
            self.eat_ident_cont();
            if n != want || trailing {
                return if want == 8 {
                    TokKind::Error("a 0f hex float needs exactly 8 hex digits")
                } else {
                    TokKind::Error("a 0d hex double needs exactly 16 hex digits")
                };
            }
            return if want == 8 { TokKind::HexF32 } else { TokKind::HexF64 };
        }
        if c0 == b'0' && (c1 == b'x' || c1 == b'X' || c1 == b'b' || c1 == b'B') {
            let hex = c1 == b'x' || c1 == b'X';
            self.pos += 2;
            let digits_start = self.pos;
            while b.get(self.pos).is_some_and(|&c| if hex { is_hex(c) } else { c == b'0' || c == b'1' }) {
                self.pos += 1;
            }
            let empty = self.pos == digits_start;
            return self.int_suffix(empty);
        }
        // Decimal or octal integer, or decimal float.
        let mut is_float = false;
        while b.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
            self.pos += 1;
        }
        if b.get(self.pos) == Some(&b'.') {
            // `1.5`, `1.`, `.5` — but not `1.x`? There is no such PTX form; a letter after
            // the dot (other than an exponent on a fraction) is an error below.
            is_float = true;
            self.pos += 1;
            while b.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                self.pos += 1;
            }
        }
        if matches!(b.get(self.pos), Some(b'e' | b'E')) {
            let mut p = self.pos + 1;
            if matches!(b.get(p), Some(b'+' | b'-')) {
                p += 1;
            }
            if b.get(p).is_some_and(|c| c.is_ascii_digit()) {
                is_float = true;
                self.pos = p;
                while b.get(self.pos).is_some_and(|c| c.is_ascii_digit()) {
                    self.pos += 1;
                }
            }
        }
        if is_float {
            if b.get(self.pos).is_some_and(|&c| is_ident_cont(c)) {
                self.eat_ident_cont();
                return TokKind::Error("invalid floating-point literal");
            }
            return TokKind::Float;
        }
        // Octal literals may only use 0-7.
        let text = &b[start..self.pos];
        if text.len() > 1 && text[0] == b'0' && text.iter().any(|&c| c > b'7') {
            self.eat_ident_cont();
            return TokKind::Error("invalid digit in octal literal");
        }
        self.int_suffix(false)
    }

    /// Optional `U` suffix, then nothing identifier-like may follow.
    fn int_suffix(&mut self, empty_digits: bool) -> TokKind {
        let b = self.bytes;
        if matches!(b.get(self.pos), Some(b'U' | b'u')) {
            self.pos += 1;
        }
        if b.get(self.pos).is_some_and(|&c| is_ident_cont(c)) {
            self.eat_ident_cont();
            return TokKind::Error("invalid integer literal");
        }
        if empty_digits {
            return TokKind::Error("integer literal has no digits");
        }
        TokKind::Int
    }
}

/// Length of the UTF-8 character starting at `pos` (1 for ASCII or past the end), so
/// that error tokens never split a character.
#[inline]
fn char_len(b: &[u8], pos: usize) -> usize {
    match b.get(pos) {
        None => 0,
        Some(&c) if c < 0x80 => 1,
        Some(&c) if c >= 0xF0 => 4,
        Some(&c) if c >= 0xE0 => 3,
        Some(_) => 2,
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;
    /// Tokens up to (not including) `Eof`.
    fn next(&mut self) -> Option<Token<'a>> {
        let t = self.next_token();
        if t.kind == TokKind::Eof {
            None
        } else {
            Some(t)
        }
    }
}
