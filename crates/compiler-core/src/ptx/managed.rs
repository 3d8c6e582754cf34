//! Which module variables are managed (`.global .attribute(.managed)`) and which functions
//! unified (`.func .attribute(.unified(...))`), PTX ISA 5.4.8, "Variable and Function
//! Attribute Directive: `.attribute`". The syntax tree does not keep these attributes; the
//! driver asks this for `cuLibraryGetManaged` and `cuLibraryGetUnifiedFunction`, over the
//! tokens alone (comments and strings are the lexer's business).

use super::lexer::{Lexer, TokKind};

/// The names of the module-scope variables declared with `.attribute(.managed)`, in
/// declaration order.
pub fn managed_variables(src: &str) -> Vec<String> {
    attributed(src, ".managed")
}

/// The names of the functions declared with `.attribute(.unified(...))` (unified
/// functions, callable through one pointer from host and device), in declaration order.
pub fn unified_functions(src: &str) -> Vec<String> {
    attributed(src, ".unified")
}

/// The names of module-scope declarations whose `.attribute(...)` names `attribute`. A
/// declaration ends at `;` or at the `{` of a function body; its name is the first
/// identifier outside the attribute that precedes `[`, `=` or `(`, or the last one before
/// the end.
fn attributed(src: &str, attribute: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut lexer = Lexer::new(src);
    let mut found = false;
    let mut name: Option<&str> = None;
    let mut in_attribute = 0usize;
    let mut named = false;
    loop {
        let t = lexer.next_token();
        let ends = match t.kind {
            TokKind::Eof => break,
            TokKind::LBrace => {
                depth += 1;
                depth == 1
            }
            TokKind::RBrace => {
                depth = depth.saturating_sub(1);
                false
            }
            _ if depth > 0 => false,
            TokKind::Dot if t.text == ".attribute" => {
                in_attribute = 1;
                false
            }
            TokKind::LParen if in_attribute > 0 => {
                in_attribute += 1;
                false
            }
            TokKind::RParen if in_attribute > 0 => {
                in_attribute -= 1;
                if in_attribute == 1 {
                    in_attribute = 0;
                }
                false
            }
            TokKind::Dot if in_attribute > 1 && t.text == attribute => {
                found = true;
                false
            }
            _ if in_attribute > 0 => false,
            TokKind::Ident if !named => {
                name = Some(t.text);
                false
            }
            TokKind::LBracket | TokKind::Eq | TokKind::LParen => {
                named = name.is_some();
                false
            }
            TokKind::Semi => true,
            _ => false,
        };
        if ends {
            if let (true, Some(n)) = (found, name) {
                out.push(n.to_string());
            }
            (found, name, named, in_attribute) = (false, None, false, 0);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::{managed_variables, unified_functions};

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
        assert_eq!(unified_functions(src), vec!["unified_var".to_string()]);
        let f = ".visible .func .attribute(.unified(0x1234, 0x5678)) (.param .b32 r) uf(.param .b32 a)\n{\n ret;\n}\n\
            .visible .func plain(.param .b32 a)\n{\n ret;\n}\n";
        assert_eq!(unified_functions(f), vec!["uf".to_string()]);
    }
}
