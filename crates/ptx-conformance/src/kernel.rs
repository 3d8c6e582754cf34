//! PTX generation. Every case becomes one `.entry` with the same parameter list:
//!
//! ```text
//! .entry kN(.param .u64 in0, in1, in2, in3, out0, out1, scratch, .param .u32 n)
//! ```
//!
//! Thread `%i = %ctaid.x * %ntid.x + %tid.x` (threads past `n` return at once) loads
//! element `%i` of each input into `%a %b %c %d`, runs the case's body, and stores
//! `%x %y`. Registers always declared: `%i` (u32), `%s` (scratch base), `%sa` (this
//! thread's scratch slot, `%s + %i * elem`), and scratch registers `%p %q` (pred),
//! `%t %u` (b32), `%tl %ul` (b64), `%th` (b16), `%tf` (f32), `%td` (f64). Predicates
//! travel as bytes.
//! Many cases go into one module to amortize compilation.

use crate::case::{Case, Ty};

/// The module header: PTX ISA 8.0 for sm_90 (what the H100/H200 reference run needs:
/// bf16 arithmetic is sm_90).
pub const HEADER: &str = ".version 8.0\n.target sm_90\n.address_size 64\n";

/// The name of the kernel of case number `k` within its module.
pub fn kernel_name(k: usize) -> String {
    format!("k{k}")
}

const INS: [&str; 4] = ["a", "b", "c", "d"];
const OUTS: [&str; 2] = ["x", "y"];

/// The `.entry` text of one case.
pub fn entry(case: &Case, name: &str) -> String {
    let mut s = String::new();
    s.push_str(&format!(
        ".visible .entry {name}(.param .u64 in0, .param .u64 in1, .param .u64 in2, .param .u64 in3, \
         .param .u64 out0, .param .u64 out1, .param .u64 scratch, .param .u32 n)\n{{\n"
    ));
    s.push_str("  .reg .u32 %i, %nn, %t0, %t1;\n  .reg .u64 %s, %sa, %ptr, %off;\n");
    s.push_str("  .reg .pred %p, %q, %pdone;\n  .reg .b32 %t, %u;\n  .reg .b64 %tl, %ul;\n  .reg .b16 %th;\n");
    s.push_str("  .reg .f32 %tf;\n  .reg .f64 %td;\n");
    for (k, inp) in case.inputs.iter().enumerate() {
        s.push_str(&format!("  .reg .{} %{};\n", inp.ty.reg_decl(), INS[k]));
    }
    for (k, out) in case.outputs.iter().enumerate() {
        s.push_str(&format!("  .reg .{} %{};\n", out.ty.reg_decl(), OUTS[k]));
    }
    for l in case.decls.lines() {
        s.push_str(&format!("  {}\n", l.trim()));
    }
    s.push_str("  mov.u32 %t0, %tid.x;\n  mov.u32 %t1, %ntid.x;\n  mov.u32 %i, %ctaid.x;\n");
    s.push_str("  mad.lo.u32 %i, %i, %t1, %t0;\n  ld.param.u32 %nn, [n];\n");
    s.push_str("  setp.ge.u32 %pdone, %i, %nn;\n  @%pdone bra $Ldone;\n");
    s.push_str("  ld.param.u64 %s, [scratch];\n");
    let sbytes = case.scratch.as_ref().map_or(4, |x| x.ty.bytes());
    s.push_str(&format!("  mul.wide.u32 %off, %i, {sbytes};\n  add.u64 %sa, %s, %off;\n"));
    for (k, inp) in case.inputs.iter().enumerate() {
        let b = inp.ty.bytes();
        s.push_str(&format!("  ld.param.u64 %ptr, [in{k}];\n  mul.wide.u32 %off, %i, {b};\n  add.u64 %ptr, %ptr, %off;\n"));
        if inp.ty == Ty::Pred {
            s.push_str(&format!("  ld.global.u8 %th, [%ptr];\n  setp.ne.u16 %{}, %th, 0;\n", INS[k]));
        } else {
            s.push_str(&format!("  ld.global.b{} %{}, [%ptr];\n", b * 8, INS[k]));
        }
    }
    for l in case.body.lines() {
        let l = l.trim();
        if !l.is_empty() {
            s.push_str(&format!("  {l}\n"));
        }
    }
    for (k, out) in case.outputs.iter().enumerate() {
        let b = out.ty.bytes();
        s.push_str(&format!("  ld.param.u64 %ptr, [out{k}];\n  mul.wide.u32 %off, %i, {b};\n  add.u64 %ptr, %ptr, %off;\n"));
        if out.ty == Ty::Pred {
            s.push_str(&format!("  selp.u16 %th, 1, 0, %{};\n  st.global.u8 [%ptr], %th;\n", OUTS[k]));
        } else {
            s.push_str(&format!("  st.global.b{} [%ptr], %{};\n", b * 8, OUTS[k]));
        }
    }
    s.push_str("$Ldone:\n  ret;\n}\n");
    s
}

/// A module holding `cases`, kernel `k{j}` for `cases[j]`; also returns the first line of
/// each entry (1-based) so that a diagnostic's line can be traced to its case.
pub fn module(cases: &[&Case]) -> (String, Vec<usize>) {
    let mut s = String::from(HEADER);
    let mut starts = Vec::with_capacity(cases.len());
    let mut line = HEADER.lines().count(); // lines written so far
    for (j, c) in cases.iter().enumerate() {
        s.push('\n');
        line += 1;
        starts.push(line + 1);
        let e = entry(c, &kernel_name(j));
        line += e.lines().count();
        s.push_str(&e);
    }
    (s, starts)
}
