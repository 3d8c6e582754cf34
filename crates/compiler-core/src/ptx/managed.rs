//! Which module variables are managed: `.global .attribute(.managed)` declarations (PTX
//! ISA 5.4.8, "Variable and Function Attribute Directive: `.attribute`"). The syntax tree
//! does not keep variable attributes; the driver asks this for `cuLibraryGetManaged`,
//! over the tokens alone (comments and strings are the lexer's business).

use super::lexer::{Lexer, TokKind};

/// The names of the module-scope variables declared with `.attribute(.managed)`, in
/// declaration order.
pub fn managed_variables(src: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut lexer = Lexer::new(src);
    // Inside a module-scope declaration: whether `.attribute(... .managed ...)` was seen,
    // and the last identifier (the declared name, before `[`, `=` or `;`).
    let mut managed = false;
    let mut name: Option<&str> = None;
    let mut in_attribute = 0usize;
    let mut named = false;
    loop {
        let t = lexer.next_token();
        match t.kind {
            TokKind::Eof => break,
            TokKind::LBrace => depth += 1,
            TokKind::RBrace => depth = depth.saturating_sub(1),
            _ if depth > 0 => {}
            TokKind::Dot if t.text == ".attribute" => in_attribute = 1,
            TokKind::LParen if in_attribute > 0 => in_attribute += 1,
            TokKind::RParen if in_attribute > 0 => {
                in_attribute -= 1;
                if in_attribute == 1 {
                    in_attribute = 0;
                }
            }
            TokKind::Dot if in_attribute > 1 && t.text == ".managed" => managed = true,
            TokKind::Ident if in_attribute == 0 && !named => name = Some(t.text),
            TokKind::LBracket | TokKind::Eq if in_attribute == 0 => named = true,
            TokKind::Semi => {
                if let (true, Some(n)) = (managed, name) {
                    out.push(n.to_string());
                }
                (managed, name, named, in_attribute) = (false, None, false, 0);
            }
            _ => {}
        }
        // A function body ends the declaration that opened it.
        if t.kind == TokKind::RBrace && depth == 0 {
            (managed, name, named, in_attribute) = (false, None, false, 0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::managed_variables;

    #[test]
    fn finds_managed_globals_only() {
        let src = ".version 8.0\n.target sm_80\n.address_size 64\n\
            .global .attribute(.managed) .align 4 .u32 counter = 5;\n\
            .global .align 4 .b8 plain[16];\n\
            // .global .attribute(.managed) .u32 commented;\n\
            .visible .global .attribute(.managed) .align 4 .b8 values[256];\n\
            .visible .entry k(.param .u64 p)\n{\n  .reg .b32 %r<2>;\n  ret;\n}\n\
            .global .attribute(.unified(1, 2)) .u32 unified_var;\n";
        assert_eq!(managed_variables(src), vec!["counter".to_string(), "values".to_string()]);
    }
}
