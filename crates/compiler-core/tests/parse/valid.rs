//! `VALID`: small PTX snippets and a check on the syntax tree each must produce.

use super::*;

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
    ("opcodes and modifiers", ".entry k() { bar.sync 0; barrier.sync.aligned 0; ret; exit; membar.gl; suq.1d.2d %r1; cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%r1], [%rd1], %r2, [%r3]; mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%f1, %f2, %f3, %f4}, {%r1, %r2, %r3, %r4}, {%r5, %r6}, {%f5, %f6, %f7, %f8}; mov.b64 %rd1, {%r1, %r2}; }", |m| {
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
