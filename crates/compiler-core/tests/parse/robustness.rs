//! Robustness: every prefix of a real PTX file, a few thousand deterministic random
//! mutations and some pathological inputs must not panic, hang or overflow the stack.

use super::*;

/// xorshift64*: deterministic, no dependency.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

/// Parsing must return (Ok or Err), not panic; errors must carry positions inside the text.
fn must_not_panic(src: &str) {
    let lines = src.lines().count() as u32 + 1;
    match parse_with_warnings(src) {
        (Some(_), diags) => assert!(diags.iter().all(|d| d.severity == Severity::Warning)),
        (None, diags) => {
            assert!(!diags.is_empty());
            for d in &diags {
                assert!(d.span.line >= 1 && d.span.line <= lines, "bad span {d:?}");
            }
        }
    }
}

#[test]
fn every_prefix_parses_without_panic() {
    for name in ["device_calls.ptx", "llvm_style.ptx"] {
        let src = sample(name);
        for end in (0..=src.len()).filter(|&e| src.is_char_boundary(e)) {
            must_not_panic(&src[..end]);
        }
        // Suffixes too: parsing from the middle of a statement.
        for start in (0..src.len()).step_by(7).filter(|&s| src.is_char_boundary(s)) {
            must_not_panic(&src[start..]);
        }
    }
}

#[test]
fn random_mutations_parse_without_panic() {
    const PIECES: &[&str] = &[
        "{",
        "}",
        "[",
        "]",
        "(",
        ")",
        ";",
        ",",
        ":",
        ".",
        "%",
        "@",
        "!",
        "-",
        "+",
        "|",
        "\"",
        "/*",
        "*/",
        "//",
        "\n",
        "0x",
        "0f",
        "0d",
        "0b",
        "1e",
        ".5",
        "_",
        "$",
        "::",
        ".reg",
        ".entry",
        ".func",
        ".param",
        ".v4",
        ".b32",
        "%r1",
        "é",
        "\u{1F600}",
        "\0",
        "99999999999999999999999",
        "=",
        "<",
        ">",
        "generic(",
        ".loc",
        ".section",
        "@@DWARF",
    ];
    let bases: Vec<String> = ["device_calls.ptx", "llvm_style.ptx", "reduce_shared.ptx"].iter().map(|n| sample(n)).collect();
    let mut rng = Rng(0x9E37_79B9_7F4A_7C15);
    for case in 0..3000 {
        let base = &bases[case % bases.len()];
        let mut s: Vec<char> = base.chars().collect();
        for _ in 0..1 + rng.below(4) {
            let pos = rng.below(s.len() + 1);
            match rng.below(5) {
                0 => {
                    let end = (pos + rng.below(40)).min(s.len());
                    s.drain(pos..end);
                }
                1 | 2 => {
                    let piece = PIECES[rng.below(PIECES.len())];
                    let at = pos.min(s.len());
                    s.splice(at..at, piece.chars());
                }
                3 => {
                    // Replace one char with a random ASCII byte.
                    if pos < s.len() {
                        s[pos] = (rng.below(95) as u8 + 32) as char;
                    }
                }
                _ => {
                    // Duplicate a slice somewhere else.
                    let a = rng.below(s.len() + 1);
                    let b = (a + rng.below(200)).min(s.len());
                    let chunk: Vec<char> = s[a..b].to_vec();
                    let at = pos.min(s.len());
                    s.splice(at..at, chunk);
                }
            }
        }
        let text: String = s.into_iter().collect();
        must_not_panic(&text);
    }
}

#[test]
fn pathological_inputs() {
    for src in [
        String::new(),
        "\n\n\n".to_string(),
        ".version".to_string(),
        ".version 8.5 .target".to_string(),
        "\"".repeat(10_000),
        "/*".repeat(10_000),
        ";".repeat(100_000),
        "(".repeat(100_000),
        format!("{H}.entry k({})", "(".repeat(100_000)),
        format!("{H}.entry k() {{ call f, {}; }}", "(".repeat(100_000)),
        format!("{H}.entry k() {{ mov.u32 %r1, {}%p; }}", "!".repeat(100_000)),
        format!("{H}.entry k() {{ mov.u32 %r1, {}1; }}", "-".repeat(100_000)),
        format!("{H}.global .u32 x = {};", "{".repeat(100_000)),
        format!("{H}.entry k() {{ ld.u32 %r1, {}; }}", "[".repeat(100_000)),
        format!("{H}{}", "}".repeat(100_000)),
        format!("{H}.entry k() {{ {} }}", "$L:".repeat(100_000)),
    ] {
        must_not_panic(&src);
    }
}
