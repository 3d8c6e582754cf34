//! Source-level extensions clang 19 does not know, rewritten before parsing (main file and
//! in-memory headers; line numbers are preserved):
//!
//! * `[[clang::loop_unroll N]]` (N any constant expression, template-dependent too)
//!   becomes `_Pragma("unroll (N)")`, which clang instantiates with the template.

/// Rewrites the extensions in `src`; returns `None` when there is nothing to rewrite.
pub fn rewrite(src: &[u8]) -> Option<Vec<u8>> {
    if !contains(src, b"loop_unroll") {
        return None;
    }
    let mut out = Vec::with_capacity(src.len() + 64);
    let mut i = 0;
    let n = src.len();
    let mut changed = false;
    while i < n {
        let c = src[i];
        // Skip comments, string and character literals.
        if c == b'/' && i + 1 < n && src[i + 1] == b'/' {
            let end = find(src, i, b"\n").unwrap_or(n);
            out.extend_from_slice(&src[i..end]);
            i = end;
            continue;
        }
        if c == b'/' && i + 1 < n && src[i + 1] == b'*' {
            let end = find(src, i + 2, b"*/").map(|e| e + 2).unwrap_or(n);
            out.extend_from_slice(&src[i..end]);
            i = end;
            continue;
        }
        if c == b'"' || c == b'\'' {
            let mut j = i + 1;
            while j < n && src[j] != c {
                if src[j] == b'\\' {
                    j += 1;
                }
                if j < n && src[j] == b'\n' {
                    break;
                }
                j += 1;
            }
            let end = (j + 1).min(n);
            out.extend_from_slice(&src[i..end]);
            i = end;
            continue;
        }
        if c == b'[' && i + 1 < n && src[i + 1] == b'[' {
            if let Some((arg, end)) = loop_unroll_attr(src, i) {
                let newlines = src[i..end].iter().filter(|&&b| b == b'\n').count();
                let arg: String = String::from_utf8_lossy(arg).split_whitespace().collect::<Vec<_>>().join(" ");
                let escaped = arg.replace('\\', "\\\\").replace('"', "\\\"");
                out.extend_from_slice(format!("_Pragma(\"unroll ({escaped})\")").as_bytes());
                out.extend(std::iter::repeat_n(b'\n', newlines));
                i = end;
                changed = true;
                continue;
            }
        }
        out.push(c);
        i += 1;
    }
    changed.then_some(out)
}

fn contains(h: &[u8], n: &[u8]) -> bool {
    h.windows(n.len()).any(|w| w == n)
}

fn find(h: &[u8], from: usize, n: &[u8]) -> Option<usize> {
    h[from..].windows(n.len()).position(|w| w == n).map(|p| p + from)
}

/// At `[[`: `[[ clang :: loop_unroll ARG ]]` -> (ARG, index after `]]`).
fn loop_unroll_attr(s: &[u8], start: usize) -> Option<(&[u8], usize)> {
    let mut i = start + 2;
    let ws = |i: &mut usize| {
        while *i < s.len() && s[*i].is_ascii_whitespace() {
            *i += 1;
        }
    };
    let word = |i: &mut usize, w: &[u8]| -> bool {
        if s.len() >= *i + w.len() && &s[*i..*i + w.len()] == w {
            *i += w.len();
            true
        } else {
            false
        }
    };
    ws(&mut i);
    if !word(&mut i, b"clang") {
        return None;
    }
    ws(&mut i);
    if !word(&mut i, b"::") {
        return None;
    }
    ws(&mut i);
    if !word(&mut i, b"loop_unroll") {
        return None;
    }
    if i < s.len() && (s[i].is_ascii_alphanumeric() || s[i] == b'_') {
        return None;
    }
    let arg_start = i;
    let mut depth = 0i32;
    while i + 1 < s.len() {
        match s[i] {
            b'(' | b'[' | b'{' => depth += 1,
            b')' | b'}' => depth -= 1,
            b']' if depth == 0 && s[i + 1] == b']' => {
                let arg = &s[arg_start..i];
                // A parenthesized argument: keep it as it is (the pragma accepts both).
                return Some((arg, i + 2));
            }
            b']' => depth -= 1,
            _ => {}
        }
        i += 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn loop_unroll_becomes_pragma() {
        let src = b"template<int U> __device__ void f(int n) {\n  [[clang::loop_unroll U]]\n  for (int i = 0; i < n; i++) {}\n}\n";
        let out = String::from_utf8(rewrite(src).unwrap()).unwrap();
        assert!(out.contains("_Pragma(\"unroll (U)\")"), "{out}");
        assert_eq!(out.lines().count(), 4);
        assert!(rewrite(b"// [[clang::loop_unroll 4]]\nint x;").is_none());
        assert!(rewrite(b"const char* s = \"[[clang::loop_unroll 4]]\";").is_none());
        let out = String::from_utf8(rewrite(b"[[ clang :: loop_unroll min(a[0], 3) ]] for(;;);").unwrap()).unwrap();
        assert!(out.starts_with("_Pragma(\"unroll (min(a[0], 3))\") for"), "{out}");
    }
}
