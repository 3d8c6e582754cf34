//! Data-driven tests of the PTX parser (`compiler_core::ptx::parse`).
//!
//! * `VALID`: small PTX snippets and a check on the syntax tree each must produce.
//! * `MALFORMED`: inputs that must fail, with the expected line, column and a substring of
//!   the first error message.
//! * Real PTX under `tests/ptx/` (nvcc 13.0 output for the `.cu` files in `tests/ptx/cu/`,
//!   plus a hand-written sample in LLVM NVPTX style) must parse cleanly.
//! * Robustness: every prefix of a real PTX file and a few thousand deterministic random
//!   mutations must not panic, hang or overflow the stack.

use compiler_core::diag::{Diagnostic, Severity};
use compiler_core::ptx::ast::*;
use compiler_core::ptx::lexer::{Lexer, TokKind};
use compiler_core::ptx::parser::{parse, parse_with_warnings};

#[path = "parse/robustness.rs"]
mod robustness;
#[path = "parse/valid.rs"]
mod valid;

/// Two header lines prepended to snippets: errors in snippets are on line 3 and below.
const H: &str = ".version 8.5\n.target sm_80\n";

fn module(src: &str) -> Module {
    match parse(src) {
        Ok(m) => m,
        Err(d) => panic!("parse failed:\n{}\n--- input ---\n{src}", compiler_core::diag::render(&d)),
    }
}

fn func<'m>(m: &'m Module, name: &str) -> &'m Function {
    m.directives
        .iter()
        .find_map(|d| match d {
            Directive::Function(f) if f.name == name => Some(f),
            _ => None,
        })
        .unwrap_or_else(|| panic!("no function {name}"))
}

fn vars(m: &Module) -> Vec<&VarDecl> {
    m.directives
        .iter()
        .filter_map(|d| match d {
            Directive::Variable(v) => Some(v),
            _ => None,
        })
        .collect()
}

fn var<'m>(m: &'m Module, name: &str) -> &'m VarDecl {
    vars(m).into_iter().find(|v| v.name == name).unwrap_or_else(|| panic!("no variable {name}"))
}

/// All statements of a body, blocks flattened in order.
fn flat(stmts: &[Statement]) -> Vec<&Statement> {
    let mut out = Vec::new();
    let mut stack: Vec<std::slice::Iter<Statement>> = vec![stmts.iter()];
    while let Some(it) = stack.last_mut() {
        match it.next() {
            Some(Statement::Block(b)) => stack.push(b.iter()),
            Some(s) => out.push(s),
            None => {
                stack.pop();
            }
        }
    }
    out
}

fn instrs(f: &Function) -> Vec<&Instruction> {
    flat(f.body.as_deref().unwrap_or(&[]))
        .into_iter()
        .filter_map(|s| match s {
            Statement::Instr(i) => Some(i),
            _ => None,
        })
        .collect()
}

/// The only instruction of the only function `k` (for one-instruction snippets).
fn only(m: &Module) -> &Instruction {
    let is = instrs(func(m, "k"));
    assert_eq!(is.len(), 1, "expected one instruction, got {is:?}");
    is[0]
}

fn id(name: &str) -> Operand {
    Operand::Ident { name: name.into(), component: None }
}

fn imm(v: i128) -> Operand {
    Operand::Imm(Immediate::Int(v))
}

fn addr(base: &str, offset: i64) -> Operand {
    Operand::Address { base: AddressBase::Ident(base.into()), offset }
}

fn mods(i: &Instruction) -> Vec<&str> {
    i.modifiers.iter().map(|s| s.as_str()).collect()
}

fn init_ints(init: &Initializer) -> Vec<i128> {
    match init {
        Initializer::List(l) => l
            .iter()
            .map(|e| match e {
                Initializer::Value(InitValue::Imm(Immediate::Int(v))) => *v,
                other => panic!("not an int: {other:?}"),
            })
            .collect(),
        other => panic!("not a list: {other:?}"),
    }
}

/// (source without the header, line, column, message substring, snippet) of the first error.
const MALFORMED: &[(&str, u32, u32, &str, &str)] = &[
    (".entry k() {\n\tadd.s32 %r1, %r2, %r3\n\tret;\n}", 5, 2, "expected ';' after instruction", "ret"),
    (".foo bar;", 3, 1, "unknown directive '.foo'", ".foo"),
    (".entry k() {\n\t.bogus %r1;\n}", 4, 2, "unknown directive '.bogus'", ".bogus"),
    (".file 1 \"abc\n", 3, 9, "unterminated string", "\"abc"),
    (".entry k() {\n.pragma \"nounroll;\n}", 4, 9, "unterminated string", "\"nounroll;"),
    (".entry k() { ret; }\n/* never closed", 4, 1, "unterminated block comment", "/*"),
    (".entry k() { mov.f32 %f1, 0f3F80; }", 3, 27, "exactly 8 hex digits", "0f3F80"),
    (".entry k() { mov.f64 %fd1, 0d3FF00000000000001; }", 3, 28, "exactly 16 hex digits", "0d3FF00000000000001"),
    (".global .u32 x = 089;", 3, 18, "octal", "089"),
    (".global .u64 x = 0x1FFFFFFFFFFFFFFFF;", 3, 18, "does not fit in 64 bits", "0x1FFFFFFFFFFFFFFFF"),
    (".global .u32 x = 12abc;", 3, 18, "invalid integer literal", "12abc"),
    (".entry k() {\n\tret;\n", 5, 1, "expected '}' to close the block opened at 3:12", "<end of input>"),
    (".entry k() { tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [tex0+8, {%f5, %f6}]; }", 3, 54, "takes no offset", "["),
    (".entry k() { tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [0x10, {%f5, %f6}]; }", 3, 54, "handle register or name", "["),
    (".reg .b33x %r;", 3, 6, "unexpected '.b33x'", ".b33x"),
    (".global .align 3 .u32 x;", 3, 16, "power of two", "3"),
    (".global .u32 x", 3, 15, "expected ';' after the declaration", "<end of input>"),
    (".global x;", 3, 9, "expected a type", "x"),
    (".entry k() { neg.s32 %r1, -%r2; }", 3, 28, "only literals can be negated", "%r2"),
    (".entry k() { @; }", 3, 15, "expected a predicate register after '@'", ";"),
    (".entry k() {\n.maxntid 32;\n}", 4, 1, "must come before the function body", ".maxntid"),
    ("}", 3, 1, "unmatched '}'", "}"),
    (".entry k() { mov.u32 %r1, #3; }", 3, 27, "unexpected character", "#"),
    (".entry k() { mov.u32 % , 1; }", 3, 22, "expected identifier characters", "%"),
    (".entry k() {\nt: .branchtargets L1, L2;\n}", 4, 4, "unsupported directive '.branchtargets'", ".branchtargets"),
    (".entry k(.param .u32 a = 1) { ret; }", 3, 24, "parameters cannot have initializers", "="),
    (".address_size 48", 3, 15, "32 or 64", "48"),
    (".entry k() { ld.global.u32 %r1, [%rd1+%r2]; }", 3, 39, "expected an integer offset", "%r2"),
    (".entry k() { mov.u32 %r1, %tid.q; }", 3, 31, "unexpected '.q' after operand", ".q"),
    (".entry k() { ret; } mov.u32 %r1, 2;", 3, 21, "outside a function body", "mov"),
    (".visible .foo x;", 3, 10, "after the linkage directive", ".foo"),
    (".global .u32 x = {1, 2 3};", 3, 24, "',' or '}' in the initializer", "3"),
    (".global .b8 x[2] = {0xFF(sym), 0};", 3, 25, "byte-masked", "("),
    (".entry k() { ld.global.v2.f32 {%f1 %f2}, [%rd1]; }", 3, 36, "',' or '}' in the vector operand", "%f2"),
    (".entry k() { call.uni (retval0 x), f; }", 3, 32, "',' or ')' in the argument list", "x"),
    (".func (.param .b32 r) { ret; }", 3, 23, "expected a function name", "{"),
    (".entry k() .maxntid 99999999999 { ret; }", 3, 21, "out of range", "99999999999"),
    (".entry k() { callprototype: .callprototype (.param .b32 _) f (.param .b32 _); }", 3, 60, "'_' in place of the function name", "f"),
];

/// Texture and surface operands (PTX ISA 9.7.10): the handle, an optional sampler, and the
/// coordinates as a vector or a single register.
#[test]
fn texture_operands() {
    let src = format!(
        "{H}.entry k() {{ tex.a2d.v4.f32.f32 {{%f1, %f2, %f3, %f4}}, [%rd1, {{%r1, %f5, %f6, %f6}}]; \
         tex.2d.v4.f32.f32 {{%f1, %f2, %f3, %f4}}, [t, s, {{%f5, %f6}}]; suld.b.1d.b32.trap {{%r2}}, [%rd1, %r3]; }}"
    );
    let m = parse(&src).expect("parses");
    let Directive::Function(f) = &m.directives[0] else { panic!("a function") };
    let ops: Vec<&Operand> =
        f.body.as_ref().unwrap().iter().filter_map(|s| if let Statement::Instr(i) = s { Some(&i.operands[1]) } else { None }).collect();
    let ident = |n: &str| Operand::Ident { name: n.into(), component: None };
    assert_eq!(
        ops[0],
        &Operand::Texture { handle: "%rd1".into(), sampler: None, coords: vec![ident("%r1"), ident("%f5"), ident("%f6"), ident("%f6")] }
    );
    assert_eq!(ops[1], &Operand::Texture { handle: "t".into(), sampler: Some(Box::new(ident("s"))), coords: vec![ident("%f5"), ident("%f6")] });
    assert_eq!(ops[2], &Operand::Texture { handle: "%rd1".into(), sampler: None, coords: vec![ident("%r3")] });
}

#[test]
fn malformed_inputs() {
    let mut failures = Vec::new();
    for (body, line, col, msg, snippet) in MALFORMED {
        let src = format!("{H}{body}");
        let diags = match parse(&src) {
            Ok(m) => {
                failures.push(format!("{body:?}: parsed, expected an error: {m:?}"));
                continue;
            }
            Err(d) => d,
        };
        let first = diags.iter().find(|d| d.severity == Severity::Error).expect("an error");
        let got = (first.span.line, first.span.col, first.snippet.as_deref());
        if !first.message.contains(msg) || got != (*line, *col, Some(*snippet)) {
            failures.push(format!(
                "{body:?}: expected {line}:{col} {msg:?} near {snippet:?}\n   got {}",
                compiler_core::diag::render(&diags).trim_end().replace('\n', "\n       ")
            ));
        }
    }
    assert!(failures.is_empty(), "{} of {} malformed cases failed:\n{}", failures.len(), MALFORMED.len(), failures.join("\n"));
}

#[test]
fn missing_version_is_an_error() {
    let d = parse(".target sm_80\n.entry k() { ret; }").unwrap_err();
    assert!(d[0].message.contains("missing .version"), "{d:?}");
    assert_eq!((d[0].span.line, d[0].span.col), (1, 1));
    let d = parse(&format!("{H}.version 8.6\n")).unwrap_err();
    assert!(d[0].message.contains("duplicate .version"), "{d:?}");
    for empty in ["", "// nothing\n", ".file 1 \"x.cu\"\n"] {
        let d = parse(empty).unwrap_err();
        assert!(d[0].message.contains("missing .version"), "{d:?}");
    }
    let d = parse(".version abc\n").unwrap_err();
    assert!(d[0].message.contains("expected a version number"), "{d:?}");
}

#[test]
fn several_errors_are_reported_with_recovery() {
    let src = format!(
        "{H}.entry k() {{\n\tadd.s32 %r1 %r2;\n\tmov.u32 %r1, 1;\n\t.bogus;\n\tst.global.v2.f32 [%rd1], {{%f1 %f2}};\n\tret;\n}}\n.foo;\n.entry j() {{ ret; }}\n"
    );
    let (m, diags) = parse_with_warnings(&src);
    assert!(m.is_none());
    let errs: Vec<&Diagnostic> = diags.iter().filter(|d| d.severity == Severity::Error).collect();
    let lines: Vec<u32> = errs.iter().map(|d| d.span.line).collect();
    assert_eq!(lines, [4, 6, 7, 10], "{}", compiler_core::diag::render(&diags));
}

#[test]
fn warnings_do_not_fail_parse() {
    let src = format!("{H}.global .attribute(.managed) .u32 x;\n.entry k() .explicitcluster .reqnctapercluster 2, 1, 1 {{ ret; }}\n");
    let (m, diags) = parse_with_warnings(&src);
    assert!(m.is_some());
    assert_eq!(diags.len(), 3, "{diags:?}");
    assert!(diags.iter().all(|d| d.severity == Severity::Warning));
    assert!(parse(&src).is_ok());
}

#[test]
fn error_count_is_capped() {
    let mut src = format!("{H}.entry k() {{\n");
    for _ in 0..1000 {
        src.push_str("\tbad bad bad\n;\n");
    }
    src.push_str("}\n");
    let d = parse(&src).unwrap_err();
    assert!(d.len() <= 102, "{}", d.len());
    assert!(d.last().unwrap().message.contains("too many errors"));
}

#[test]
fn deep_nesting_is_bounded() {
    // Blocks: 100k levels must neither overflow the stack nor be accepted.
    let n = 100_000;
    let src = format!("{H}.entry k() {}ret;{}\n", "{".repeat(n), "}".repeat(n));
    let d = parse(&src).unwrap_err();
    assert!(d[0].message.contains("nested more than 256"), "{d:?}");
    // 200 levels are fine.
    let src = format!("{H}.entry k() {}ret;{}\n", "{".repeat(200), "}".repeat(200));
    assert!(parse(&src).is_ok());
    // Initializers.
    let src = format!("{H}.global .u32 x[1] = {}1{};\n", "{".repeat(n), "}".repeat(n));
    let d = parse(&src).unwrap_err();
    assert!(d[0].message.contains("nested more than 256"), "{d:?}");
    // Unclosed braces to the end of input.
    let src = format!("{H}.entry k() {}", "{".repeat(n));
    assert!(parse(&src).is_err());
}

fn sample(name: &str) -> String {
    let path = format!("{}/tests/ptx/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

const SAMPLES: &[&str] = &[
    "vecadd_printf.ptx",
    "vecadd_printf_G.ptx",
    "reduce_shared.ptx",
    "reduce_shared_lineinfo.ptx",
    "device_calls.ptx",
    "llvm_style.ptx",
    "math_atomics_warp.ptx",
    "simd_video.ptx",
];

#[test]
fn real_ptx_samples_parse() {
    for name in SAMPLES {
        let m = module(&sample(name));
        assert!(m.version >= (8, 5), "{name}");
        assert_eq!((m.targets[0].as_str(), m.address_size), ("sm_80", 64), "{name}");
    }
    // Every sample file in the directory is listed in SAMPLES.
    let dir = format!("{}/tests/ptx", env!("CARGO_MANIFEST_DIR"));
    let mut on_disk: Vec<String> =
        std::fs::read_dir(&dir).unwrap().filter_map(|e| e.ok()?.file_name().into_string().ok()).filter(|n| n.ends_with(".ptx")).collect();
    on_disk.sort();
    let mut listed: Vec<String> = SAMPLES.iter().map(|s| s.to_string()).collect();
    listed.sort();
    assert_eq!(on_disk, listed, "list every tests/ptx/*.ptx in SAMPLES");
}

#[test]
fn nvcc_reduce_sample_structure() {
    for name in ["reduce_shared.ptx", "reduce_shared_lineinfo.ptx"] {
        let m = module(&sample(name));
        assert_eq!(var(&m, "dyn").linkage, Linkage::Extern);
        let f = func(&m, "_Z6reducePKfPfi");
        assert_eq!(f.tuning.maxntid, Some([256, 1, 1]));
        assert_eq!(f.tuning.minnctapersm, Some(2));
        let is = instrs(f);
        let shfl = is.iter().find(|i| i.opcode == "shfl").unwrap();
        assert_eq!(shfl.operands[0], Operand::List(vec![id("%r31"), id("%p6")]));
        assert!(is.iter().any(|i| i.opcode == "bar" && i.operands == [imm(0)]));
        let body = f.body.as_ref().unwrap();
        assert!(body.iter().any(|s| matches!(s, Statement::Pragma { text, .. } if text == "nounroll")));
        assert!(body.iter().any(|s| matches!(s, Statement::Var(v) if v.space == StateSpace::Shared && v.array == [Some(1024)])));
    }
}

#[test]
fn nvcc_calls_sample_structure() {
    let m = module(&sample("device_calls.ptx"));
    let twice: Vec<&Function> = m
        .directives
        .iter()
        .filter_map(|d| match d {
            Directive::Function(f) if f.name == "_Z5twicei" => Some(f),
            _ => None,
        })
        .collect();
    assert_eq!(twice.len(), 2, "forward declaration and definition");
    assert!(twice[0].body.is_none() && twice[1].body.is_some());
    assert_eq!(var(&m, "table_ptr").init, Some(Initializer::Value(InitValue::Address { symbol: "table".into(), generic: true, offset: 8 })));
    assert_eq!(
        var(&m, "ops").init,
        Some(Initializer::List(vec![Initializer::Value(InitValue::Address { symbol: "_Z5twicei".into(), generic: false, offset: 0 })]))
    );
    let k = func(&m, "_Z5callsPiPfPdPti");
    let protos: Vec<&Statement> = flat(k.body.as_ref().unwrap()).into_iter().filter(|s| matches!(s, Statement::CallPrototype { .. })).collect();
    assert_eq!(protos.len(), 1);
    let is = instrs(k);
    assert_eq!(is.iter().filter(|i| i.opcode == "call").count(), 4);
    let indirect = is.iter().find(|i| i.opcode == "call" && i.modifiers.is_empty()).unwrap();
    assert_eq!(indirect.operands, [Operand::List(vec![id("retval0")]), id("%rd15"), Operand::List(vec![id("param0")]), id("prototype_1")]);
    let fma = is.iter().find(|i| i.opcode == "fma").unwrap();
    assert_eq!(fma.operands[3], Operand::Imm(Immediate::F64Bits(0x3F50624DD2F1A9FC)));
    // The inline-asm scope `{ .reg .f16 tmp; ... }` is a nested block.
    assert!(k
        .body
        .as_ref()
        .unwrap()
        .iter()
        .any(|s| matches!(s, Statement::Block(b) if matches!(&b[0], Statement::Var(v) if v.ty == ScalarType::F16))));
}

#[test]
fn llvm_style_sample_structure() {
    let m = module(&sample("llvm_style.ptx"));
    let f = func(&m, "saxpy");
    assert_eq!(f.tuning.maxntid, Some([128, 1, 1]));
    assert_eq!(f.tuning.reqntid, Some([128, 1, 1]));
    assert_eq!(f.params[0].ptr_space, Some(StateSpace::Global));
    assert_eq!(var(&m, "vconst").vector, Some(4));
    let is = instrs(f);
    assert!(is.iter().any(|i| i.operands.first() == Some(&addr("%rd7", -4))));
    assert!(is.iter().any(|i| i.operands.get(1) == Some(&Operand::SymbolOffset { symbol: "arr".into(), offset: 8 })));
}

#[test]
fn lexer_tokens() {
    use TokKind::*;
    let cases: &[(&str, &[(TokKind, &str)])] = &[
        (
            "%r1 $L__BB0_2 __cudart_x _Z3fooPf _ %tid",
            &[(Ident, "%r1"), (Ident, "$L__BB0_2"), (Ident, "__cudart_x"), (Ident, "_Z3fooPf"), (Ident, "_"), (Ident, "%tid")],
        ),
        ("ld.shared::cta.v4.f32", &[(Ident, "ld"), (Dot, ".shared::cta"), (Dot, ".v4"), (Dot, ".f32")]),
        (
            "tex.1d .5 1.5 1e-3 2E+4 1.",
            &[(Ident, "tex"), (Dot, ".1d"), (Float, ".5"), (Float, "1.5"), (Float, "1e-3"), (Float, "2E+4"), (Float, "1.")],
        ),
        ("0x1fU 017 0b101 42 0", &[(Int, "0x1fU"), (Int, "017"), (Int, "0b101"), (Int, "42"), (Int, "0")]),
        ("0f3F800000 0d3FF0000000000000", &[(HexF32, "0f3F800000"), (HexF64, "0d3FF0000000000000")]),
        (
            "\"a\\\"b\" , ; : { } [ ] ( ) < > @ ! + - = |",
            &[
                (Str, "\"a\\\"b\""),
                (Comma, ","),
                (Semi, ";"),
                (Colon, ":"),
                (LBrace, "{"),
                (RBrace, "}"),
                (LBracket, "["),
                (RBracket, "]"),
                (LParen, "("),
                (RParen, ")"),
                (Lt, "<"),
                (Gt, ">"),
                (At, "@"),
                (Bang, "!"),
                (Plus, "+"),
                (Minus, "-"),
                (Eq, "="),
                (Pipe, "|"),
            ],
        ),
        ("a // c\n/* x\ny */ b\n@@DWARF .byte 1\nc", &[(Ident, "a"), (Ident, "b"), (Ident, "c")]),
        (
            "0f3F80 # \"open",
            &[
                (Error("a 0f hex float needs exactly 8 hex digits"), "0f3F80"),
                (Error("unexpected character"), "#"),
                (Error("unterminated string"), "\"open"),
            ],
        ),
    ];
    for (src, want) in cases {
        let got: Vec<(TokKind, &str)> = Lexer::new(src).map(|t| (t.kind, t.text)).collect();
        assert_eq!(&got, want, "{src:?}");
    }
    // Positions and `glued`.
    let toks: Vec<_> = Lexer::new("a\n  %tid.x /*\n*/ b").collect();
    assert_eq!((toks[1].line, toks[1].col, toks[1].glued), (2, 3, false));
    assert_eq!((toks[2].text, toks[2].col, toks[2].glued), (".x", 7, true));
    assert_eq!((toks[3].line, toks[3].col), (3, 4));
}

/// Manual check of other PTX files: `PTX_PARSE_FILES=a.ptx:b.ptx cargo test --test parse
/// external_files -- --nocapture`. Does nothing when the variable is unset.
#[test]
fn external_files() {
    let Ok(list) = std::env::var("PTX_PARSE_FILES") else { return };
    let mut failed = 0;
    for path in list.split(':').filter(|p| !p.is_empty()) {
        let src = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        match parse_with_warnings(&src) {
            (Some(m), w) => println!("{path}: ok, {} directives, {} warnings", m.directives.len(), w.len()),
            (None, d) => {
                failed += 1;
                println!("{path}: FAILED\n{}", compiler_core::diag::render(&d));
            }
        }
    }
    assert_eq!(failed, 0);
}
