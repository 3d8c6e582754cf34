//! Link results checked on the output's syntax tree (what is defined, under which name)
//! and on NVIDIA's log lines; running linked code is `cuda-driver`'s `tests/link.rs`.

use super::*;
use crate::ptx::ast::Directive;

const HEAD: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

fn unit(name: &str, body: &str, lazy: bool) -> LinkUnit {
    LinkUnit::parse(name, format!("{HEAD}{body}"), lazy).unwrap_or_else(|log| panic!("{name} does not parse:\n{log}"))
}

/// (name, has body, linkage) of every function and (name, linkage) of every variable.
type Summary = (Vec<(String, bool, Linkage)>, Vec<(String, Linkage)>);

/// Inputs (name, body), the failure and its log.
type FailureCase<'a> = (&'a [(&'a str, &'a str)], FailureKind, &'a str);

fn summary(ptx: &str) -> Summary {
    let m = crate::ptx::parse(ptx).unwrap_or_else(|d| panic!("linked PTX does not parse: {d:?}\n{ptx}"));
    let mut funcs = Vec::new();
    let mut vars = Vec::new();
    for d in m.directives {
        match d {
            Directive::Function(f) => funcs.push((f.name, f.body.is_some(), f.linkage)),
            Directive::Variable(v) => vars.push((v.name, v.linkage)),
        }
    }
    (funcs, vars)
}

fn defined_functions(ptx: &str) -> Vec<String> {
    summary(ptx).0.into_iter().filter(|f| f.1).map(|f| f.0).collect()
}

const CALLER: &str = ".extern .func (.param .b32 r) twice(.param .b32 x);\n.extern .global .align 4 .u32 bias;\n\
    .visible .entry k(.param .u64 p) {\n .reg .b32 %r<3>;\n .reg .b64 %rd<2>;\n ld.param.u64 %rd1, [p];\n\
    ld.global.u32 %r1, [bias];\n { .param .b32 a; .param .b32 b; st.param.b32 [a], %r1;\n\
    call.uni (b), twice, (a); ld.param.b32 %r2, [b]; }\n st.global.u32 [%rd1], %r2;\n ret;\n}\n";
const CALLEE: &str = ".visible .global .align 4 .u32 bias = 5;\n\
    .visible .func (.param .b32 r) twice(.param .b32 x) {\n .reg .b32 %r<3>;\n ld.param.b32 %r1, [x];\n\
    add.s32 %r2, %r1, %r1;\n st.param.b32 [r], %r2;\n ret;\n}\n";

#[test]
fn externs_resolve_to_definitions_in_other_modules() {
    let out = link(&[unit("a", CALLER, false), unit("b", CALLEE, false)]).unwrap();
    let (funcs, vars) = summary(&out.ptx);
    // One prototype (the definition's header) then the definitions; no `.extern` left.
    assert!(funcs.iter().all(|f| f.2 != Linkage::Extern), "{funcs:?}");
    assert_eq!(defined_functions(&out.ptx), vec!["k", "twice"]);
    assert_eq!(vars, vec![("bias".to_string(), Linkage::Visible)]);
    // Declare before use: the variable and the prototype precede the kernel body.
    let kernel_at = out.ptx.find(".visible .entry k").unwrap();
    assert!(out.ptx.find(".visible .global .align 4 .u32 bias").unwrap() < kernel_at);
    assert!(out.ptx.find(".visible .func (.param .b32 r) twice(.param .b32 x);").unwrap() < kernel_at);
    // The output is itself a valid link input.
    let again = link(&[LinkUnit::parse("linked", out.ptx.clone(), false).unwrap()]).unwrap();
    assert_eq!(defined_functions(&again.ptx), vec!["k", "twice"]);
}

#[test]
fn failures_carry_nvidia_log_lines() {
    let dup = ".visible .func (.param .b32 r) twice(.param .b32 x) { st.param.b32 [r], 0; ret; }\n";
    let cases: &[FailureCase] = &[
        (
            &[("a", CALLER)],
            FailureKind::Unresolved,
            "error   : Undefined reference to 'twice' in 'a'\nerror   : Undefined reference to 'bias' in 'a'",
        ),
        (
            &[("a", CALLER), ("b", CALLEE), ("c", dup)],
            FailureKind::Duplicate,
            "error   : Multiple definition of 'twice' in 'c', first defined in 'b'",
        ),
    ];
    for (inputs, kind, log) in cases {
        let units: Vec<LinkUnit> = inputs.iter().map(|(n, b)| unit(n, b, false)).collect();
        assert_eq!(
            link(&units),
            Err(LinkFailure { kind: *kind, log: log.to_string() }),
            "inputs {:?}",
            inputs.iter().map(|i| i.0).collect::<Vec<_>>()
        );
    }
}

#[test]
fn weak_and_common_definitions_yield_to_the_right_one() {
    let weak = ".weak .func (.param .b32 r) twice(.param .b32 x) { st.param.b32 [r], 1; ret; }\n\
                .common .global .align 4 .u32 bias[1];\n";
    let common_big = ".common .global .align 4 .u32 tab[8];\n";
    let common_small = ".common .global .align 4 .u32 tab[2];\n.visible .entry user() { ret; }\n";
    // A strong definition after a weak one wins; the largest .common wins.
    let out = link(&[
        unit("w", weak, false),
        unit("a", CALLER, false),
        unit("b", CALLEE, false),
        unit("s", common_small, false),
        unit("g", common_big, false),
    ])
    .unwrap();
    let (funcs, vars) = summary(&out.ptx);
    let twice: Vec<_> = funcs.iter().filter(|f| f.0 == "twice" && f.1).collect();
    assert_eq!(twice, vec![&("twice".to_string(), true, Linkage::Visible)]);
    assert_eq!(vars, vec![("bias".to_string(), Linkage::Visible), ("tab".to_string(), Linkage::Common)]);
    assert!(out.ptx.contains(".u32 tab[8]") && !out.ptx.contains(".u32 tab[2]"));
}

#[test]
fn clashing_local_names_are_renamed_in_the_later_module() {
    let a = ".global .align 1 .b8 $str[3] = {104, 105, 0};\n.func helper() { ret; }\n\
             .visible .entry ka(.param .u64 p) { .reg .b64 %rd<2>; mov.u64 %rd1, $str; call.uni helper, (); ret; }\n";
    let b = ".global .align 1 .b8 $str[3] = {121, 111, 0};\n.func helper() { ret; }\n\
             .visible .entry kb(.param .u64 p) { .reg .b64 %rd<2>; mov.u64 %rd1, $str; call.uni helper, (); ret; }\n";
    let out = link(&[unit("a", a, false), unit("b", b, false)]).unwrap();
    let (_, vars) = summary(&out.ptx);
    assert_eq!(vars.iter().map(|v| v.0.as_str()).collect::<Vec<_>>(), vec!["$str", "$str$L1"]);
    assert_eq!(defined_functions(&out.ptx), vec!["helper", "ka", "helper$L1", "kb"]);
    // Module b's uses follow its renamed symbols.
    let kb = &out.ptx[out.ptx.find(".visible .entry kb").unwrap()..];
    assert!(kb.contains("mov.u64 %rd1, $str$L1;") && kb.contains("call.uni helper$L1, ();"), "{kb}");
}

#[test]
fn lazy_units_are_linked_only_when_needed() {
    let unused = ".extern .func cnpMissing();\n.visible .func unused_helper() { call.uni cnpMissing, (); ret; }\n";
    // The library member defining `twice` is pulled in; the one whose own references
    // could never resolve is left out, so it causes no error.
    let out = link(&[unit("a", CALLER, false), unit("lib:unused", unused, true), unit("lib:b", CALLEE, true)]).unwrap();
    assert_eq!(out.linked_units, vec!["a", "lib:b"]);
    assert_eq!(defined_functions(&out.ptx), vec!["k", "twice"]);
}

#[test]
fn system_calls_and_dynamic_shared_memory_need_no_definition() {
    let a = ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n.extern .shared .align 16 .b8 smem[];\n\
             .visible .entry ka() { ret; }\n";
    let b = ".extern .func (.param .b32 r) vprintf(.param .b64 f, .param .b64 a);\n.extern .shared .align 16 .b8 smem[];\n\
             .visible .entry kb() { ret; }\n";
    let out = link(&[unit("a", a, false), unit("b", b, false)]).unwrap();
    let (funcs, vars) = summary(&out.ptx);
    assert_eq!(funcs.iter().filter(|f| f.0 == "vprintf").count(), 1);
    assert_eq!(vars, vec![("smem".to_string(), Linkage::Extern)]);
}

#[test]
fn library_members_are_parsed_only_when_they_can_help() {
    let members = |broken_mentions: &str| {
        vec![
            LibraryMember { name: "lib:broken".into(), text: format!("{HEAD}this does not parse {broken_mentions}") },
            LibraryMember { name: "lib:b".into(), text: format!("{HEAD}{CALLEE}") },
        ]
    };
    // Nothing refers to the broken member's text: it is never parsed.
    let out = link_with_libraries(&[unit("a", CALLER, false)], &members("")).unwrap();
    assert_eq!(out.linked_units, vec!["a", "lib:b"]);
    // No eager unit needs anything: no member is linked.
    let alone = ".visible .entry lonely() { ret; }\n";
    assert_eq!(link_with_libraries(&[unit("x", alone, false)], &members("")).unwrap().linked_units, vec!["x"]);
    // A member that mentions a needed name but does not parse is left out.
    let only_broken = &members("twice bias")[..1];
    let err = link_with_libraries(&[unit("a", CALLER, false)], only_broken).unwrap_err();
    assert_eq!(err.kind, FailureKind::Unresolved);
}

/// Every function and variable a module defines, with its linkage.
fn definitions(ptx: &str) -> Vec<(String, Linkage)> {
    let m = crate::ptx::parse(ptx).unwrap_or_else(|d| panic!("does not parse: {d:?}"));
    let mut defs: Vec<(String, Linkage)> = m
        .directives
        .into_iter()
        .filter_map(|d| match d {
            Directive::Function(f) if f.body.is_some() => Some((f.name, f.linkage)),
            Directive::Variable(v) if v.linkage != Linkage::Extern => Some((v.name, v.linkage)),
            _ => None,
        })
        .collect();
    defs.sort_by(|a, b| a.0.cmp(&b.0));
    defs
}

#[test]
fn linking_one_real_module_keeps_every_definition() {
    // nvcc output with debug sections (-G), line info, printf, atomics, device calls.
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/ptx");
    let mut seen = 0;
    for entry in std::fs::read_dir(dir).unwrap().flatten() {
        let path = entry.path();
        if path.extension().is_none_or(|e| e != "ptx") {
            continue;
        }
        let text = std::fs::read_to_string(&path).unwrap();
        let name = path.file_name().unwrap().to_string_lossy().to_string();
        let out = link(&[LinkUnit::parse(name.clone(), text.clone(), false).unwrap()]).unwrap_or_else(|f| panic!("{name}: {}", f.log));
        assert_eq!(definitions(&out.ptx), definitions(&text), "{name}");
        // The same module twice: its local symbols are renamed apart, its visible ones clash.
        let twice = link(&[LinkUnit::parse("a", text.clone(), false).unwrap(), LinkUnit::parse("b", text.clone(), false).unwrap()]);
        let visible = definitions(&text).iter().any(|d| d.1 == Linkage::Visible);
        match twice {
            Err(f) => assert!(visible && f.kind == FailureKind::Duplicate, "{name}: {f:?}"),
            Ok(out) => {
                assert!(!visible, "{name}: two visible definitions linked");
                assert_eq!(definitions(&out.ptx).len(), 2 * definitions(&text).len(), "{name}");
            }
        }
        seen += 1;
    }
    assert!(seen >= 5, "only {seen} PTX files under {dir}");
}

#[test]
fn the_first_lazy_definition_of_a_name_is_the_one_linked() {
    let first = ".weak .func (.param .b32 r) twice(.param .b32 x) { st.param.b32 [r], 1; ret; }\n\
                 .visible .global .align 4 .u32 bias = 1;\n";
    let second = format!("{CALLEE}.extern .func never_defined();\n.visible .func uses() {{ call.uni never_defined, (); ret; }}\n");
    let out = link(&[unit("a", CALLER, false), unit("lib:first", first, true), unit("lib:second", &second, true)]).unwrap();
    assert_eq!(out.linked_units, vec!["a", "lib:first"]);
    let members = [
        LibraryMember { name: "first".into(), text: format!("{HEAD}{first}") },
        LibraryMember { name: "second".into(), text: format!("{HEAD}{second}") },
    ];
    assert_eq!(link_with_libraries(&[unit("a", CALLER, false)], &members).unwrap().linked_units, vec!["a", "first"]);
}

#[test]
fn max_registers_go_on_kernels_without_a_limit() {
    let ptx = ".version 8.0\n.target sm_80\n.address_size 64\n\
               .extern .entry declared();\n\
               .visible .entry a(.param .u64 p) .maxntid 128, 1, 1\n{\n ret;\n}\n\
               .visible .entry b() .maxnreg 16 { ret; }\n\
               // .entry in a comment {\n\
               .func f() { ret; }\n";
    let out = with_max_registers(ptx, 40);
    let m = crate::ptx::parse(&out).expect("the result parses");
    let maxnreg = |name: &str| m.functions().find(|f| f.name == name).and_then(|f| f.tuning.maxnreg);
    assert_eq!(maxnreg("a"), Some(40));
    assert_eq!(maxnreg("b"), Some(16));
    assert_eq!(maxnreg("f"), None);
    assert_eq!(out.matches(".maxnreg").count(), 2);
}
