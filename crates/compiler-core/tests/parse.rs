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

type Check = fn(&Module);

/// (name, source without the header, check). Sources wrapped as `.entry k() { ... }`
/// where an instruction is tested.
const VALID: &[(&str, &str, Check)] = &[
    ("header", ".address_size 32\n", |m| {
        assert_eq!(m.version, (8, 5));
        assert_eq!(m.targets, ["sm_80"]);
        assert_eq!(m.address_size, 32);
    }),
    ("default address size", "", |m| assert_eq!(m.address_size, 64)),
    ("global byte array", ".global .align 4 .b8 arr[16] = {1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0};", |m| {
        let v = var(m, "arr");
        assert_eq!((v.space, v.align, v.ty), (StateSpace::Global, Some(4), ScalarType::B(8)));
        assert_eq!(v.array, [Some(16)]);
        assert_eq!(init_ints(v.init.as_ref().unwrap()), [1, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0]);
    }),
    ("multi-dim array", ".global .u32 m[2][3] = {{1, 2, 3}, {4, 5, 6}};", |m| {
        let v = var(m, "m");
        assert_eq!(v.array, [Some(2), Some(3)]);
        let Some(Initializer::List(rows)) = &v.init else { panic!() };
        assert_eq!(rows.len(), 2);
        assert_eq!(init_ints(&rows[1]), [4, 5, 6]);
    }),
    ("extern unsized shared", ".extern .shared .align 16 .b8 smem[];", |m| {
        let v = var(m, "smem");
        assert_eq!((v.linkage, v.space, v.align), (Linkage::Extern, StateSpace::Shared, Some(16)));
        assert_eq!(v.array, [None]);
    }),
    ("shared::cta space", ".shared::cta .align 8 .u64 s;", |m| assert_eq!(var(m, "s").space, StateSpace::Shared)),
    ("float initializers", ".const .align 8 .f64 c = 0d3FF0000000000000;\n.global .f32 f = -0f3F800000;\n.global .align 8 .v2 .f32 v = {1.5, -2e1};", |m| {
        assert_eq!(var(m, "c").init, Some(Initializer::Value(InitValue::Imm(Immediate::F64Bits(0x3FF0000000000000)))));
        assert_eq!(var(m, "f").init, Some(Initializer::Value(InitValue::Imm(Immediate::F32Bits(0xBF800000)))));
        let v = var(m, "v");
        assert_eq!((v.vector, v.ty, v.align), (Some(2), ScalarType::F32, Some(8)));
        assert_eq!(
            v.init,
            Some(Initializer::List(vec![
                Initializer::Value(InitValue::Imm(Immediate::Float(1.5))),
                Initializer::Value(InitValue::Imm(Immediate::Float(-20.0))),
            ]))
        );
    }),
    ("address initializers", ".global .align 1 .b8 $str[2] = {104, 0};\n.global .align 8 .u64 p = generic($str)+8;\n.global .u64 q[3] = {$str, $str+4, generic(q)};", |m| {
        assert_eq!(
            var(m, "p").init,
            Some(Initializer::Value(InitValue::Address { symbol: "$str".into(), generic: true, offset: 8 }))
        );
        let Some(Initializer::List(q)) = &var(m, "q").init else { panic!() };
        assert_eq!(q[1], Initializer::Value(InitValue::Address { symbol: "$str".into(), generic: false, offset: 4 }));
        assert_eq!(q[2], Initializer::Value(InitValue::Address { symbol: "q".into(), generic: true, offset: 0 }));
    }),
    ("comma list with initializers", ".visible .global .s32 a = -5, b = 0x10U, c;", |m| {
        let vs = vars(m);
        assert_eq!(vs.len(), 3);
        assert!(vs.iter().all(|v| v.linkage == Linkage::Visible && v.ty == ScalarType::S(32)));
        assert_eq!(vs[0].init, Some(Initializer::Value(InitValue::Imm(Immediate::Int(-5)))));
        assert_eq!(vs[1].init, Some(Initializer::Value(InitValue::Imm(Immediate::Int(16)))));
        assert_eq!(vs[2].init, None);
    }),
    ("integer literal forms", ".global .u64 x[6] = {0x1F, 017, 0b101, 42U, 0xFFFFFFFFFFFFFFFF, 0};", |m| {
        assert_eq!(init_ints(var(m, "x").init.as_ref().unwrap()), [31, 15, 5, 42, u64::MAX as i128, 0]);
    }),
    ("linkages", ".weak .global .u32 w;\n.common .global .u32 c;\n.global .u32 i;", |m| {
        assert_eq!(var(m, "w").linkage, Linkage::Weak);
        assert_eq!(var(m, "c").linkage, Linkage::Common);
        assert_eq!(var(m, "i").linkage, Linkage::Internal);
    }),
    ("managed attribute is accepted", ".global .attribute(.managed) .align 4 .u32 counter;", |m| {
        assert_eq!(var(m, "counter").ty, ScalarType::U(32));
    }),
    ("opaque and odd widths", ".global .texref t;\n.global .s17 odd;", |m| {
        assert_eq!(var(m, "t").ty, ScalarType::Opaque(OpaqueKind::Texture));
        assert_eq!(var(m, "odd").ty, ScalarType::S(17));
    }),
    (
        "entry params and tuning",
        ".visible .entry k(\n\t.param .u64 .ptr .global .align 8 k_p0,\n\t.param .align 4 .b8 k_p1[12],\n\t.param .u64 .ptr .align 1 k_p2,\n\t.param .u32 n\n)\n.maxntid 256\n.reqntid 32, 4\n.minnctapersm 2\n.maxnreg 64\n.maxnctapersm 3\n{\n\tret;\n}",
        |m| {
            let f = func(m, "k");
            assert_eq!((f.kind, f.linkage), (FunctionKind::Entry, Linkage::Visible));
            assert_eq!(f.params.len(), 4);
            assert_eq!((f.params[0].ptr_space, f.params[0].align), (Some(StateSpace::Global), None));
            assert_eq!(f.params[0].ty, ScalarType::U(64));
            assert_eq!((f.params[1].align, f.params[1].array.as_slice()), (Some(4), &[Some(12)][..]));
            assert_eq!(f.params[2].ptr_space, Some(StateSpace::Generic));
            assert_eq!(f.params[3].ptr_space, None);
            assert!(f.params.iter().all(|p| p.space == StateSpace::Param));
            let t = &f.tuning;
            assert_eq!(t.maxntid, Some([256, 1, 1]));
            assert_eq!(t.reqntid, Some([32, 4, 1]));
            assert_eq!((t.minnctapersm, t.maxnreg, t.maxnctapersm), (Some(2), Some(64), Some(3)));
            assert_eq!(f.span, Span { line: 3, col: 17 });
        },
    ),
    ("maxntid three values", ".entry k() .maxntid 32, 8, 2 { ret; }", |m| {
        assert_eq!(func(m, "k").tuning.maxntid, Some([32, 8, 2]));
    }),
    ("extern prototype", ".extern .func (.param .b32 r) vprintf (.param .b64 a, .param .b64 b);", |m| {
        let f = func(m, "vprintf");
        assert!(f.body.is_none());
        assert_eq!((f.kind, f.linkage), (FunctionKind::Func, Linkage::Extern));
        assert_eq!(f.returns.len(), 1);
        assert_eq!(f.returns[0].name, "r");
        assert_eq!(f.params.iter().map(|p| p.name.as_str()).collect::<Vec<_>>(), ["a", "b"]);
    }),
    ("noreturn prototype, reg params", ".extern .func __assertfail(.param .b64 a)\n.noreturn;\n.func (.reg .b32 r) old (.reg .b32 a) { ret; }", |m| {
        assert!(func(m, "__assertfail").tuning.noreturn);
        let f = func(m, "old");
        assert_eq!((f.returns[0].space, f.params[0].space), (StateSpace::Reg, StateSpace::Reg));
    }),
    ("func without params", ".func f { ret; }\n.func g() { ret; }", |m| {
        assert!(func(m, "f").params.is_empty());
        assert_eq!(func(m, "g").body.as_ref().unwrap().len(), 1);
    }),
    (
        "body declarations",
        ".entry k() {\n\t.reg .pred %p<5>;\n\t.reg .b32 %r<10>, %x;\n\t.local .align 4 .b8 __local_depot0[16];\n\t.shared .align 4 .f32 tile[256];\n\t.param .b64 param0;\n}",
        |m| {
            let body = func(m, "k").body.as_ref().unwrap();
            let decls: Vec<&VarDecl> = body
                .iter()
                .map(|s| match s {
                    Statement::Var(v) => v,
                    other => panic!("{other:?}"),
                })
                .collect();
            assert_eq!(decls.len(), 6);
            assert_eq!((decls[0].name.as_str(), decls[0].count, decls[0].ty), ("%p", Some(5), ScalarType::Pred));
            assert_eq!((decls[1].name.as_str(), decls[1].count), ("%r", Some(10)));
            assert_eq!((decls[2].name.as_str(), decls[2].count, decls[2].ty), ("%x", None, ScalarType::B(32)));
            assert_eq!((decls[3].space, decls[3].array.as_slice()), (StateSpace::Local, &[Some(16)][..]));
            assert_eq!(decls[4].space, StateSpace::Shared);
            assert_eq!(decls[5].space, StateSpace::Param);
            assert_eq!(decls[1].span, Span { line: 5, col: 12 });
        },
    ),
    ("guarded branch", ".entry k() {\n@%p1 bra $L__BB0_3;\n}", |m| {
        let i = only(m);
        assert_eq!(i.guard, Some(Guard { negated: false, predicate: "%p1".into() }));
        assert_eq!((i.opcode.as_str(), i.operands.as_slice()), ("bra", &[id("$L__BB0_3")][..]));
        assert_eq!(i.span, Span { line: 4, col: 1 });
    }),
    ("negated guard", ".entry k() { @!%p2 bra.uni $L__BB0_1; }", |m| {
        let i = only(m);
        assert_eq!(i.guard, Some(Guard { negated: true, predicate: "%p2".into() }));
        assert_eq!(mods(i), [".uni"]);
    }),
    ("vector load with sink", ".entry k() { ld.global.nc.v4.f32 {%f1, %f2, _, %f4}, [%rd1+16]; }", |m| {
        let i = only(m);
        assert_eq!(mods(i), [".global", ".nc", ".v4", ".f32"]);
        assert_eq!(i.operands[0], Operand::Vector(vec![id("%f1"), id("%f2"), Operand::Sink, id("%f4")]));
        assert_eq!(i.operands[1], addr("%rd1", 16));
    }),
    ("video selectors", ".entry k() { vadd4.s32.u32.s32.sat %r1.b31, %r2.b7150, %r3, %r4.b; vadd.u32.u32.u32 %r1.h1, %r2.b3, %r3.h0, %r4; }", |m| {
        let is = instrs(func(m, "k"));
        let sel = |n: &str, s: &str| Operand::Select { name: n.into(), sel: s.into() };
        assert_eq!(is[0].operands[..3], [sel("%r1", "b31"), sel("%r2", "b7150"), id("%r3")]);
        assert_eq!(is[0].operands[3], Operand::Ident { name: "%r4".into(), component: Some('b') });
        assert_eq!(is[1].operands[..3], [sel("%r1", "h1"), sel("%r2", "b3"), sel("%r3", "h0")]);
    }),
    ("vmad negated sources", ".entry k() { vmad.s32.s32.u32.sat %r0, -%r1.h0, %r2, -%r3; }", |m| {
        let i = only(m);
        let neg = |o: Operand| Operand::Neg(Box::new(o));
        let h0 = Operand::Select { name: "%r1".into(), sel: "h0".into() };
        assert_eq!(i.operands[1..], [neg(h0), id("%r2"), neg(id("%r3"))]);
    }),
    ("double-colon modifiers, negative offset", ".entry k() { st.shared::cta.u32 [%r1+-4], %r2; ld.u32 %r3, [%r1-8]; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(mods(is[0]), [".shared::cta", ".u32"]);
        assert_eq!(is[0].operands, [addr("%r1", -4), id("%r2")]);
        assert_eq!(is[1].operands[1], addr("%r1", -8));
    }),
    ("address forms", ".entry k() { ld.param.u64 %rd1, [k_param_0]; ld.global.u32 %r1, [0x10]; ld.const.f32 %f1, [coeffs+4]; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is[0].operands[1], addr("k_param_0", 0));
        assert_eq!(is[1].operands[1], Operand::Address { base: AddressBase::Imm(16), offset: 0 });
        assert_eq!(is[2].operands[1], addr("coeffs", 4));
    }),
    ("special register components", ".entry k() { mov.u32 %r1, %tid.x; mov.u32 %r2, %nctaid.z; mov.f32 %f1, %v.w; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is[0].operands[1], Operand::Ident { name: "%tid".into(), component: Some('x') });
        assert_eq!(is[1].operands[1], Operand::Ident { name: "%nctaid".into(), component: Some('z') });
        assert_eq!(is[2].operands[1], Operand::Ident { name: "%v".into(), component: Some('w') });
    }),
    ("symbol plus offset", ".entry k() { mov.u64 %rd1, arr+8; mov.u64 %rd2, arr; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is[0].operands[1], Operand::SymbolOffset { symbol: "arr".into(), offset: 8 });
        assert_eq!(is[1].operands[1], id("arr"));
    }),
    ("immediates", ".entry k() { add.s32 %r1, %r2, -1; mov.f32 %f1, -0f3F800000; mov.f64 %fd1, 1.5; mov.f64 %fd2, 0d3FF0000000000000; mov.f32 %f2, .5; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is[0].operands[2], imm(-1));
        assert_eq!(is[1].operands[1], Operand::Imm(Immediate::F32Bits(0xBF800000)));
        assert_eq!(is[2].operands[1], Operand::Imm(Immediate::Float(1.5)));
        assert_eq!(is[3].operands[1], Operand::Imm(Immediate::F64Bits(0x3FF0000000000000)));
        assert_eq!(is[4].operands[1], Operand::Imm(Immediate::Float(0.5)));
    }),
    ("predicate pair destination", ".entry k() { shfl.sync.bfly.b32 %r1|%p1, %r2, 1, 31, -1; setp.lt.and.s32 %p1|%p2, %r1, %r2, %p3; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is[0].operands[0], Operand::List(vec![id("%r1"), id("%p1")]));
        assert_eq!(is[0].operands[1..], [id("%r2"), imm(1), imm(31), imm(-1)]);
        assert_eq!(is[1].operands[0], Operand::List(vec![id("%p1"), id("%p2")]));
    }),
    ("negated predicate operand", ".entry k() { and.pred %p3, !%p1, %p2; }", |m| {
        assert_eq!(only(m).operands[1], Operand::Not(Box::new(id("%p1"))));
    }),
    ("direct call", ".entry k() { call.uni (retval0), _Z3fooi, (param0, param1); }", |m| {
        let i = only(m);
        assert_eq!((i.opcode.as_str(), mods(i)), ("call", vec![".uni"]));
        assert_eq!(
            i.operands,
            [Operand::List(vec![id("retval0")]), id("_Z3fooi"), Operand::List(vec![id("param0"), id("param1")])]
        );
    }),
    ("call without arguments", ".entry k() { call.uni _Z3barv, (); call.uni.noreturn abort; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is[0].operands, [id("_Z3barv"), Operand::List(vec![])]);
        assert_eq!(mods(is[1]), [".uni", ".noreturn"]);
    }),
    (
        "indirect call with prototype",
        ".entry k() {\n{\n.param .b32 retval0;\nprototype_1 : .callprototype (.param .b32 _) _ (.param .b64 _, .param .align 8 .b8 _[16]);\ncall (retval0), \n%rd5, \n(\nparam0\n)\n, prototype_1;\n}\n}",
        |m| {
            let body = func(m, "k").body.as_ref().unwrap();
            let Statement::Block(b) = &body[0] else { panic!("{body:?}") };
            let Statement::CallPrototype { name, returns, params, span } = &b[1] else { panic!("{b:?}") };
            assert_eq!((name.as_str(), returns.len(), params.len()), ("prototype_1", 1, 2));
            assert_eq!(params[1].array, [Some(16)]);
            assert_eq!(*span, Span { line: 6, col: 1 });
            let Statement::Instr(c) = &b[2] else { panic!() };
            assert_eq!(c.operands[1], id("%rd5"));
            assert_eq!(c.operands[3], id("prototype_1"));
        },
    ),
    ("labels", ".entry k() {\n$L__BB0_1:\n\tbra.uni $L__BB0_1;\nother_label: ret;\n}", |m| {
        let body = func(m, "k").body.as_ref().unwrap();
        assert!(matches!(&body[0], Statement::Label { name, span } if name == "$L__BB0_1" && *span == Span { line: 4, col: 1 }));
        assert!(matches!(&body[2], Statement::Label { name, .. } if name == "other_label"));
        assert_eq!(body.len(), 4);
    }),
    ("opcodes and modifiers", ".entry k() { bar.sync 0; barrier.sync.aligned 0; ret; exit; membar.gl; foo.1d.2d %r1; cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3]; mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}; mov.b64 %rd1, {%r1, %r2}; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is.len(), 9);
        assert_eq!((is[0].opcode.as_str(), is[0].operands.as_slice()), ("bar", &[imm(0)][..]));
        assert_eq!(mods(is[1]), [".sync", ".aligned"]);
        assert!(is[2].operands.is_empty() && is[3].operands.is_empty());
        assert_eq!(mods(is[5]), [".1d", ".2d"]);
        assert_eq!(mods(is[6])[4], ".mbarrier::complete_tx::bytes");
        assert_eq!(is[7].operands.len(), 4);
        assert_eq!(is[8].operands[1], Operand::Vector(vec![id("%r1"), id("%r2")]));
    }),
    ("nested blocks", ".entry k() { { { .reg .b32 %t; mov.u32 %t, 1; } } ret; }", |m| {
        let body = func(m, "k").body.as_ref().unwrap();
        let Statement::Block(outer) = &body[0] else { panic!() };
        let Statement::Block(inner) = &outer[0] else { panic!() };
        assert!(matches!(inner[0], Statement::Var(_)));
        assert_eq!(instrs(func(m, "k")).len(), 2);
    }),
    ("pragmas", ".entry k()\n.pragma \"nounroll\";\n{\n.pragma \"nounroll\";\nret;\n}", |m| {
        let body = func(m, "k").body.as_ref().unwrap();
        assert!(matches!(&body[0], Statement::Pragma { text, .. } if text == "nounroll"));
        assert!(matches!(&body[1], Statement::Pragma { span, .. } if *span == Span { line: 6, col: 1 }));
    }),
    (
        "debug directives are ignored",
        ".file 1 \"x.cu\"\n.file 2 \"/usr/include/y.h\", 1700000000, 1234\n.entry k() {\n.loc 1 12 5\nret;\n.loc 1 13 5, function_name $L__info_string0, inlined_at 1 10 3\n}\n.section .debug_str\n{\n$L__info_string0:\n.b8 95,90,0\n.b32 1\n}\n@@DWARF .byte 0x11 // old-style\n.global .u32 after;",
        |m| {
            assert_eq!(instrs(func(m, "k")).len(), 1);
            assert_eq!(func(m, "k").body.as_ref().unwrap().len(), 1);
            var(m, "after");
        },
    ),
    ("comments everywhere", "/* block\n comment */ .entry /* inline */ k() // trailing\n{ ret; /* } */ }", |m| {
        assert_eq!(instrs(func(m, "k")).len(), 1);
    }),
    ("identifier forms", ".entry k() { mov.u64 %rd1, __cudart_x; mov.u64 %rd2, _Z3fooPf$1; mov.u64 %SP, $str$1; }", |m| {
        let is = instrs(func(m, "k"));
        assert_eq!(is[0].operands[1], id("__cudart_x"));
        assert_eq!(is[1].operands[1], id("_Z3fooPf$1"));
        assert_eq!(is[2].operands[0], id("%SP"));
    }),
];

#[test]
fn valid_snippets() {
    for (name, body, check) in VALID {
        let src = format!("{H}{body}\n");
        let m = match parse(&src) {
            Ok(m) => m,
            Err(d) => panic!("{name}: parse failed:\n{}", compiler_core::diag::render(&d)),
        };
        check(&m);
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

// ---- robustness -----------------------------------------------------------------------

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
