//! The `.warp_size` directive and the lane-mask diagnostics of 64-lane modules (shared/
//! seeds 002 "Wave64 considerations"): each case is one instruction (or directive) in a
//! 32- or 64-lane module and the diagnostics it must produce, with line:column and the
//! offending text.

use compiler_core::diag::{Diagnostic, Severity};
use compiler_core::lower::{lower_module_with, LowerOptions};
use compiler_core::target::host::HostTarget;

/// Line of the instruction under test in [`module`]'s text (1-based).
const LINE: u32 = 14;

/// A module of `warp` lanes whose kernel runs `instr` (indented by two spaces, so it
/// starts at column 3 of line [`LINE`]); `%r4` is 32 bits, `%rd4` 64 bits.
fn module(warp: u32, instr: &str) -> String {
    let directive = if warp == 64 { ".warp_size 64" } else { "" };
    let text = format!(
        ".version 8.0\n.target sm_80\n.address_size 64\n{directive}\n\n.visible .entry k()\n{{\n  .reg .b32 %r<8>;\n  .reg .b64 %rd<8>;\n  .reg .pred %p<4>;\n  mov.u32 %r2, 1;\n  mov.u32 %r4, 5;\n  mov.u64 %rd4, 5;\n  {instr}\n  ret;\n}}\n"
    );
    assert_eq!(text.lines().nth(LINE as usize - 1).map(str::trim), Some(instr));
    text
}

/// Parse and lower `text`; every diagnostic, errors and warnings alike.
fn diagnose(text: &str, options: &LowerOptions) -> Vec<Diagnostic> {
    let (ast, mut diags) = compiler_core::ptx::parser::parse_with_warnings(text);
    if let Some(ast) = ast {
        match lower_module_with(&ast, &HostTarget, options) {
            Ok(m) => diags.extend(m.warnings),
            Err(e) => diags.extend(e),
        }
    }
    diags
}

/// (warp, instruction, expected diagnostic: severity, message fragment, offending text).
type Case = (u32, &'static str, Option<(Severity, &'static str, &'static str)>);

const E: Severity = Severity::Error;
const W: Severity = Severity::Warning;

const CASES: &[Case] = &[
    // A non-constant lane-mask operand narrower than the warp: an error at 64 lanes.
    (64, "shfl.sync.idx.b32 %r3, %r2, 0, 63, %r4;", Some((E, "lane-mask operand of 'shfl.sync.idx.b32' is the 32-bit value %r4", "%r4"))),
    (64, "vote.sync.any.pred %p1, %p2, %r4;", Some((E, "lane-mask operand of 'vote.sync.any.pred'", "%r4"))),
    (64, "bar.warp.sync %r4;", Some((E, "lane-mask operand of 'bar.warp.sync'", "%r4"))),
    (64, "match.any.sync.b32 %rd3, %r2, %r4;", Some((E, "lane-mask operand of 'match.any.sync.b32'", "%r4"))),
    (64, "redux.sync.add.u32 %r3, %r2, %r4;", Some((E, "lane-mask operand of 'redux.sync.add.u32'", "%r4"))),
    (64, "shfl.sync.idx.b32 %r3, %r2, 0, 63, %tid.x;", Some((E, "32-bit value %tid.x", "%tid.x"))),
    // Lane-mask results and %lanemask_* are as wide as the warp.
    (64, "vote.sync.ballot.b32 %r3, %p1, -1;", Some((E, "lane-mask result of 'vote.sync.ballot.b32' goes to the 32-bit register %r3", "%r3"))),
    (64, "activemask.b32 %r3;", Some((E, "lane-mask result of 'activemask.b32'", "%r3"))),
    (64, "match.any.sync.b64 %r3, %rd4, -1;", Some((E, "lane-mask result of 'match.any.sync.b64'", "%r3"))),
    (64, "mov.u32 %r3, %lanemask_lt;", Some((E, "%lanemask_lt is a 64-bit lane mask", "%lanemask_lt"))),
    // A constant with no lane above 31: a warning at 64 lanes.
    (
        64,
        "shfl.sync.idx.b32 %r3, %r2, 0, 63, 0xffffffff;",
        Some((W, "constant lane mask 0xffffffff of 'shfl.sync.idx.b32' names no lane above 31", "0xffffffff")),
    ),
    (64, "redux.sync.add.u32 %r3, %r2, 0xffff;", Some((W, "constant lane mask 0xffff", "0xffff"))),
    (64, "bar.warp.sync 1;", Some((W, "constant lane mask 0x1 of 'bar.warp.sync'", "0x1"))),
    // Fine: 64-bit masks, -1, constants naming upper lanes, WARP_SZ.
    (64, "shfl.sync.idx.b32 %r3, %r2, 0, 63, %rd4;", None),
    (64, "shfl.sync.idx.b32 %r3, %r2, 0, 63, -1;", None),
    (64, "vote.sync.ballot.b32 %rd3, %p1, 0x100000000;", None),
    (64, "mov.u64 %rd3, %lanemask_ge;", None),
    (64, "activemask.b32 %rd3;", None),
    (64, "add.u32 %r3, %r2, WARP_SZ;", None),
    // 32-lane modules: lane masks are .b32 as in the PTX ISA.
    (32, "shfl.sync.idx.b32 %r3, %r2, 0, 31, %r4;", None),
    (32, "shfl.sync.idx.b32 %r3, %r2, 0, 31, 0xffffffff;", None),
    (32, "vote.sync.ballot.b32 %r3, %p1, 0xffff;", None),
    (32, "mov.u32 %r3, %lanemask_lt;", None),
    (32, "activemask.b32 %r3;", None),
];

#[test]
fn lane_mask_operands_are_checked_against_the_warp_size() {
    for &(warp, instr, expected) in CASES {
        let diags = diagnose(&module(warp, instr), &LowerOptions::default());
        match expected {
            None => assert!(diags.is_empty(), "{warp} lanes, {instr}: {diags:?}"),
            Some((severity, message, snippet)) => {
                assert_eq!(diags.len(), 1, "{warp} lanes, {instr}: {diags:?}");
                let d = &diags[0];
                assert_eq!((d.severity, d.span.line, d.span.col), (severity, LINE, 3), "{warp} lanes, {instr}: {d}");
                assert!(d.message.contains(message), "{warp} lanes, {instr}: {d}");
                assert_eq!(d.snippet.as_deref(), Some(snippet), "{warp} lanes, {instr}: {d}");
                assert_eq!(d.code, Some(compiler_core::diag::LANEMASK), "{d}");
                let shown = d.to_string();
                assert!(shown.starts_with(&format!("ptx:{LINE}:3: ")), "{shown}");
            }
        }
    }
}

#[test]
fn the_constant_mask_warning_can_be_switched_off() {
    let text = module(64, "shfl.sync.idx.b32 %r3, %r2, 0, 63, 0xffffffff;");
    assert_eq!(diagnose(&text, &LowerOptions::default()).len(), 1);
    assert!(diagnose(&text, &LowerOptions { lanemask_warnings: false }).is_empty());
    // Errors stay errors.
    let text = module(64, "shfl.sync.idx.b32 %r3, %r2, 0, 63, %r4;");
    assert_eq!(diagnose(&text, &LowerOptions { lanemask_warnings: false })[0].severity, Severity::Error);
}

#[test]
fn warp_size_directive() {
    let header = ".version 8.0\n.target sm_80\n.address_size 64\n";
    let body = ".visible .entry k()\n{\n  ret;\n}\n";
    let parse = |text: &str| compiler_core::ptx::parser::parse_with_warnings(text);
    // Absent: 32; `.warp_size 32` and `.warp_size 64` are what they say.
    for (directive, lanes) in [("", 32), (".warp_size 32\n", 32), (".warp_size 64\n", 64)] {
        let (m, diags) = parse(&format!("{header}{directive}{body}"));
        assert!(diags.is_empty(), "{diags:?}");
        assert_eq!(m.unwrap().warp_size, lanes, "{directive:?}");
    }
    // (text, line, column, message fragment, offending text)
    let bad = [
        (format!("{header}.warp_size 48\n{body}"), 4, 12, "warp size must be 32 or 64", "48"),
        (format!("{header}.warp_size 64\n.warp_size 64\n{body}"), 5, 1, "duplicate .warp_size", ".warp_size"),
        (format!("{header}{body}.warp_size 64\n"), 8, 1, "must come before", ".warp_size"),
        (format!("{header}.warp_size\n{body}"), 5, 1, "expected a warp size (32 or 64)", ".visible"),
    ];
    for (text, line, col, message, snippet) in bad {
        let (m, diags) = parse(&text);
        assert!(m.is_none(), "{text}");
        let d = &diags[0];
        assert_eq!((d.severity, d.span.line, d.span.col), (Severity::Error, line, col), "{text}: {d}");
        assert!(d.message.contains(message), "{d}");
        assert_eq!(d.snippet.as_deref(), Some(snippet), "{d}");
    }
}

#[test]
fn lane_mask_diagnostics_of_a_ptx_text() {
    use compiler_core::lower::lane_mask_diagnostics;
    // Only the lane-mask family: the unsupported instruction is not reported.
    let text = module(64, "shfl.sync.idx.b32 %r3, %r2, 0, 63, 0xffffffff;").replace("  ret;", "  pmevent 1;\n  activemask.b32 %r5;\n  ret;");
    let all = lane_mask_diagnostics(&text, true);
    let shown: Vec<String> = all.iter().map(|d| d.to_string()).collect();
    assert_eq!(shown.len(), 2, "{shown:?}");
    assert!(shown[0].starts_with(&format!("ptx:{LINE}:3: warning: constant lane mask 0xffffffff")), "{shown:?}");
    assert!(shown[1].starts_with(&format!("ptx:{}:3: error: the lane-mask result of 'activemask.b32'", LINE + 2)), "{shown:?}");
    assert_eq!(lane_mask_diagnostics(&text, false).len(), 1);
    assert!(lane_mask_diagnostics(&module(32, "activemask.b32 %r3;"), true).is_empty());
}
