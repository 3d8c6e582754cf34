//! Cutting one PTX module's text into its module-scope items, so the linker can copy,
//! drop or rename them without printing the syntax tree back.
//!
//! An item is one module-scope statement as the PTX ISA lays them out (section 11 "Directives"):
//! a header directive (`.version`, `.target`, `.address_size`: one line each), a debug
//! directive (`.file`, `.loc`: one line; `.section name { ... }`), or a declaration that ends
//! at its `;` (variables, prototypes, `.pragma`) or at the `}` closing a function body.
//! Braces after `=` belong to an initializer, not to a body.
//!
//! Identifier tokens are recorded with their offsets so that a byte range of the text can
//! be copied with some identifiers replaced (see [`Tokens::copy_renamed`]).

use std::collections::HashMap;

use crate::ptx::lexer::{Lexer, TokKind};

/// What a module-scope item is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum ItemKind {
    /// `.version`, `.target`, `.address_size`: rewritten once for the linked module.
    Header,
    /// `.file`, `.loc`, `.section`: debug information, dropped (file numbers clash).
    Debug,
    /// A variable, function, prototype or module-scope `.pragma`.
    Decl,
}

/// One module-scope item: `text[start..end]`.
#[derive(Clone, Debug)]
pub(crate) struct Item {
    pub kind: ItemKind,
    pub start: usize,
    pub end: usize,
}

/// A token position: byte offset and length.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Pos {
    pub offset: usize,
    pub len: usize,
    pub kind: TokKind,
}

/// The tokens of one module with its items.
#[derive(Clone, Debug, Default)]
pub(crate) struct Tokens {
    /// Every token, in order (comments and whitespace excluded).
    pub all: Vec<Pos>,
    pub items: Vec<Item>,
}

impl Tokens {
    /// Lexes `src` and groups its tokens into items. The text has been parsed without
    /// errors before, so the structure is sound; odd input still never panics.
    pub(crate) fn scan(src: &str) -> Tokens {
        let mut lex = Lexer::new(src);
        let mut all = Vec::new();
        let mut lines = Vec::new();
        loop {
            let t = lex.next_token();
            if t.kind == TokKind::Eof {
                break;
            }
            all.push(Pos { offset: t.offset, len: t.text.len(), kind: t.kind });
            lines.push(t.line);
        }
        let mut items = Vec::new();
        let mut i = 0;
        while i < all.len() {
            let first = all[i];
            let text = &src[first.offset..first.offset + first.len];
            let (kind, last) = match text {
                ".version" | ".target" | ".address_size" | ".file" | ".loc" => {
                    // One line.
                    let mut j = i;
                    while j + 1 < all.len() && lines[j + 1] == lines[i] {
                        j += 1;
                    }
                    let kind = if matches!(text, ".file" | ".loc") { ItemKind::Debug } else { ItemKind::Header };
                    (kind, j)
                }
                ".section" => (ItemKind::Debug, balanced_end(&all, i)),
                _ => (ItemKind::Decl, decl_end(&all, i)),
            };
            let end_tok = all[last];
            items.push(Item { kind, start: first.offset, end: end_tok.offset + end_tok.len });
            i = last + 1;
        }
        Tokens { all, items }
    }

    /// The index of the first token at or after `offset`.
    fn token_at(&self, offset: usize) -> usize {
        self.all.partition_point(|p| p.offset < offset)
    }

    /// For a function item whose name token starts at `name_offset`: the end of its header
    /// (after the parameter list, or after the name without one).
    pub(crate) fn function_header_end(&self, src: &str, name_offset: usize) -> usize {
        let i = self.token_at(name_offset);
        let Some(name) = self.all.get(i) else { return src.len() };
        match self.all.get(i + 1) {
            Some(p) if p.kind == TokKind::LParen => {
                let mut depth = 0usize;
                for p in &self.all[i + 1..] {
                    match p.kind {
                        TokKind::LParen => depth += 1,
                        TokKind::RParen => {
                            depth = depth.saturating_sub(1);
                            if depth == 0 {
                                return p.offset + p.len;
                            }
                        }
                        _ => {}
                    }
                }
                src.len()
            }
            _ => name.offset + name.len,
        }
    }

    /// Appends `src[start..end]` to `out` with every identifier token named in `renames`
    /// replaced by its new name.
    pub(crate) fn copy_renamed(&self, src: &str, start: usize, end: usize, renames: &HashMap<String, String>, out: &mut String) {
        let mut at = start;
        if !renames.is_empty() {
            for p in &self.all[self.token_at(start)..] {
                if p.offset >= end {
                    break;
                }
                if p.kind != TokKind::Ident {
                    continue;
                }
                if let Some(new) = renames.get(&src[p.offset..p.offset + p.len]) {
                    out.push_str(&src[at..p.offset]);
                    out.push_str(new);
                    at = p.offset + p.len;
                }
            }
        }
        out.push_str(&src[at..end]);
    }
}

/// The last token of `.section name { ... }` starting at token `i`.
fn balanced_end(all: &[Pos], i: usize) -> usize {
    let mut depth = 0usize;
    for (j, p) in all.iter().enumerate().skip(i) {
        match p.kind {
            TokKind::LBrace => depth += 1,
            TokKind::RBrace => {
                depth = depth.saturating_sub(1);
                if depth == 0 {
                    return j;
                }
            }
            TokKind::Semi if depth == 0 => return j,
            _ => {}
        }
    }
    all.len() - 1
}

/// The last token of the declaration starting at token `i`.
fn decl_end(all: &[Pos], i: usize) -> usize {
    let mut depth = 0usize;
    let mut parens = 0usize;
    let mut seen_eq = false;
    let mut body = false;
    for (j, p) in all.iter().enumerate().skip(i) {
        match p.kind {
            TokKind::LParen => parens += 1,
            TokKind::RParen => parens = parens.saturating_sub(1),
            TokKind::Eq if depth == 0 => seen_eq = true,
            TokKind::LBrace => {
                if depth == 0 && !seen_eq && parens == 0 {
                    body = true;
                }
                depth += 1;
            }
            TokKind::RBrace => {
                depth = depth.saturating_sub(1);
                if depth == 0 && body {
                    return j;
                }
            }
            TokKind::Semi if depth == 0 && parens == 0 => return j,
            _ => {}
        }
    }
    all.len() - 1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn items_are_cut_at_semicolons_and_bodies() {
        let src = ".version 8.0\n.target sm_80\n.address_size 64\n// c\n\
                   .global .u32 t[2] = {1, 2};\n.extern .func (.param .b32 r) f(.param .b32 a);\n\
                   .visible .entry k(.param .u64 p) { { .reg .b32 %r; } ret; }\n.file 1 \"a.cu\"\n";
        let toks = Tokens::scan(src);
        let got: Vec<(ItemKind, &str)> = toks.items.iter().map(|it| (it.kind, &src[it.start..it.end])).collect();
        assert_eq!(
            got,
            vec![
                (ItemKind::Header, ".version 8.0"),
                (ItemKind::Header, ".target sm_80"),
                (ItemKind::Header, ".address_size 64"),
                (ItemKind::Decl, ".global .u32 t[2] = {1, 2};"),
                (ItemKind::Decl, ".extern .func (.param .b32 r) f(.param .b32 a);"),
                (ItemKind::Decl, ".visible .entry k(.param .u64 p) { { .reg .b32 %r; } ret; }"),
                (ItemKind::Debug, ".file 1 \"a.cu\""),
            ]
        );
        let f_name = src.find("f(").unwrap();
        assert_eq!(&src[toks.items[4].start..toks.function_header_end(src, f_name)], ".extern .func (.param .b32 r) f(.param .b32 a)");
    }

    #[test]
    fn renaming_touches_whole_identifiers_only() {
        let src = "mov.u64 %rd1, $str; mov.u64 %rd2, $str$1; ld.u32 %r, [x+4];";
        let toks = Tokens::scan(src);
        let renames: HashMap<String, String> = [("$str".to_string(), "$str$L1".to_string()), ("x".to_string(), "y".to_string())].into();
        let mut out = String::new();
        toks.copy_renamed(src, 0, src.len(), &renames, &mut out);
        assert_eq!(out, "mov.u64 %rd1, $str$L1; mov.u64 %rd2, $str$1; ld.u32 %r, [y+4];");
    }
}
