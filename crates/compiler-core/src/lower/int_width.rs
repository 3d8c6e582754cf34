//! Non-standard integer widths: `.bN`, `.uN`, `.sN` for any N from 1 to 64 (`add.s17`).
//!
//! The PTX ISA defines integer types of 8, 16, 32 and 64 bits (PTX ISA 5.2.1 "Fundamental
//! Types", plus `.b128`), and ptxas rejects anything else. SCALE's dialect of PTX accepts
//! other widths for the simple instructions ("Dialect differences: Integer lengths":
//! `add.s17` is allowed, computed with extra sign/zero extensions); so do we, with these
//! rules (ours: nothing in NVIDIA's or SCALE's documentation fixes them):
//!
//! - **Range.** 1 to 64 bits. Wider non-standard widths (65 to 127) are an error.
//! - **Instructions.** Integer arithmetic (`add sub mul mad` with `.lo/.hi/.wide`, `div rem
//!   abs neg min max`), logic (`and or xor not cnot`), shifts (`shl shr`), `popc clz brev`,
//!   comparisons and selection (`setp selp`), `mov`, `cvt` and scalar `ld`/`ldu`/`st`.
//!   Everything else (atomics, warp collectives, bit-field and byte instructions,
//!   saturating and carry forms other than `cvt.sat`, vector accesses) rejects them with
//!   a diagnostic: their definitions are tied to the standard widths.
//! - **Arithmetic** is modulo 2^N; `.s` types read their operands as N-bit two's
//!   complement. `.hi` is bits `[N, 2N)` of the full product, `.wide` gives a 2N-bit
//!   result (so N <= 32). Shift amounts are unsigned and clamped to N as for the standard
//!   widths (PTX ISA 9.7.8.8/9: `shl` by N or more gives 0, `shr.s` fills with the sign).
//!   Division by zero is unspecified, as for the standard widths.
//! - **Registers** of an N-bit type hold exactly N bits. Moving a value into a wider or
//!   narrower register follows the instruction type: truncation, or sign extension for
//!   `.s` types and zero extension otherwise (as `cvt` does, PTX ISA 9.7.9.21).
//! - **Memory.** An N-bit value occupies the next power-of-two number of bytes (3 bits: 1
//!   byte, 17 bits: 4 bytes, 33 bits: 8 bytes), aligned to that size: `st` writes the value
//!   sign-extended (`.s`) or zero-extended (`.u`, `.b`) to the whole container, `ld` reads
//!   the container and keeps the low N bits. Variables, parameters and initializers are
//!   laid out the same way.
//!
//! None of this can be checked on NVIDIA hardware (ptxas rejects these types); the
//! conformance family `int-widths` checks it against Rust arithmetic.

use crate::diag::Diagnostic;
use crate::ptx::ast::{Immediate, InitValue, Instruction, ScalarType, Span};

/// Whether `t` is an integer type of a width the PTX ISA does not define.
pub fn is_nonstandard_int(t: ScalarType) -> bool {
    match t {
        ScalarType::B(n) => !matches!(n, 8 | 16 | 32 | 64 | 128),
        ScalarType::U(n) | ScalarType::S(n) => !matches!(n, 8 | 16 | 32 | 64),
        _ => false,
    }
}

/// The type a value of type `t` has in memory: non-standard integers widen to their
/// power-of-two container, keeping their signedness (see the module documentation).
pub fn in_memory(t: ScalarType) -> ScalarType {
    if !is_nonstandard_int(t) {
        return t;
    }
    let bits = super::types::size_of(t) as u32 * 8;
    match t {
        ScalarType::S(_) => ScalarType::S(bits),
        ScalarType::U(_) => ScalarType::U(bits),
        _ => ScalarType::B(bits),
    }
}

/// An initializer element of a variable of type `t` as its container holds it: a
/// non-standard integer is truncated to its width and extended by its signedness, the
/// memory image `st` would leave. Other elements are unchanged.
pub fn container_init(e: &InitValue, t: ScalarType) -> InitValue {
    let (InitValue::Imm(Immediate::Int(raw)), true) = (e, is_nonstandard_int(t)) else { return e.clone() };
    let n = super::types::bits(t);
    let low = raw & ((1i128 << n) - 1);
    let value = if matches!(t, ScalarType::S(_)) && low >> (n - 1) & 1 == 1 { low - (1i128 << n) } else { low };
    InitValue::Imm(Immediate::Int(value))
}

/// The instructions that accept non-standard integer types.
const ACCEPTING: &[&str] = &[
    "add", "sub", "mul", "mad", "div", "rem", "abs", "neg", "min", "max", "and", "or", "xor", "not", "cnot", "shl", "shr", "popc", "clz", "brev",
    "setp", "selp", "mov", "cvt", "ld", "ldu", "st",
];

/// Modifiers that no instruction accepts together with a non-standard integer type.
const REFUSED_MODIFIERS: &[&str] = &[".cc", ".v2", ".v4", ".v8"];

/// Checks that a type declared for a variable or register has a supported width.
pub fn check_declared(t: ScalarType, span: Span) -> Result<(), Diagnostic> {
    match t {
        ScalarType::B(n) | ScalarType::U(n) | ScalarType::S(n) if n > 64 && is_nonstandard_int(t) => {
            Err(Diagnostic::error(span, format!("integer type of {n} bits: non-standard integer widths go from 1 to 64 bits")))
        }
        _ => Ok(()),
    }
}

/// Checks the use of non-standard integer types by `i` (a no-op for the standard ones).
pub fn check_instruction(i: &Instruction, types: &[ScalarType], flags: &[&str]) -> Result<(), Diagnostic> {
    let Some(&odd) = types.iter().find(|t| is_nonstandard_int(**t)) else { return Ok(()) };
    // `.s4`, `.u4` and `.b1` are matrix element types there (PTX ISA 9.7.14).
    if matches!(i.opcode.as_str(), "wmma" | "mma") {
        return Ok(());
    }
    for &t in types {
        check_declared(t, i.span)?;
    }
    let name = type_name(odd);
    if !ACCEPTING.contains(&i.opcode.as_str()) {
        return Err(Diagnostic::error(
            i.span,
            format!("'{}' does not accept the non-standard integer type .{name} (only simple arithmetic, logic, shifts, comparisons, mov, cvt, ld and st do)", i.opcode),
        ));
    }
    let saturating = flags.contains(&".sat") && i.opcode != "cvt";
    if let Some(m) = flags.iter().find(|f| REFUSED_MODIFIERS.contains(f)).copied().or(saturating.then_some(".sat")) {
        return Err(Diagnostic::error(i.span, format!("'{}{m}' is not supported with the non-standard integer type .{name}", i.opcode)));
    }
    Ok(())
}

fn type_name(t: ScalarType) -> String {
    match t {
        ScalarType::B(n) => format!("b{n}"),
        ScalarType::U(n) => format!("u{n}"),
        ScalarType::S(n) => format!("s{n}"),
        other => format!("{other:?}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_and_nonstandard_widths() {
        let cases = [
            (ScalarType::S(17), true, ScalarType::S(32)),
            (ScalarType::U(3), true, ScalarType::U(8)),
            (ScalarType::B(33), true, ScalarType::B(64)),
            (ScalarType::U(9), true, ScalarType::U(16)),
            (ScalarType::S(1), true, ScalarType::S(8)),
            (ScalarType::B(64), false, ScalarType::B(64)),
            (ScalarType::U(8), false, ScalarType::U(8)),
            (ScalarType::B(128), false, ScalarType::B(128)),
            (ScalarType::F32, false, ScalarType::F32),
            (ScalarType::Pred, false, ScalarType::Pred),
        ];
        for (t, odd, mem) in cases {
            assert_eq!(is_nonstandard_int(t), odd, "{t:?}");
            assert_eq!(in_memory(t), mem, "{t:?}");
        }
        assert!(check_declared(ScalarType::S(64), Span::default()).is_ok());
        assert!(check_declared(ScalarType::S(65), Span::default()).is_err());
        assert!(check_declared(ScalarType::B(128), Span::default()).is_ok());
        let init = |v: i128, t| match container_init(&InitValue::Imm(Immediate::Int(v)), t) {
            InitValue::Imm(Immediate::Int(x)) => x,
            other => panic!("{other:?}"),
        };
        // 70000 = 0x11170: as s17 its bit 16 is set, so it reads back as 70000 - 2^17.
        assert_eq!(init(70000, ScalarType::S(17)), 70000 - (1 << 17));
        assert_eq!(init(70000, ScalarType::U(17)), 70000);
        assert_eq!(init(-1, ScalarType::U(3)), 7);
        assert_eq!(init(-1, ScalarType::S(3)), -1);
        assert_eq!(init(300, ScalarType::U(32)), 300);
    }

    /// Which uses lower and which are diagnosed (the message names the problem).
    #[test]
    fn accepted_and_refused_uses() {
        let cases: &[(&str, &str, Option<&str>)] = &[
            (".reg .s17 %a, %b;", "add.s17 %a, %a, %b;", None),
            (".reg .u3 %a; .reg .b64 %p;", "ld.global.u3 %a, [%p]; st.global.u3 [%p+1], %a;", None),
            (".reg .b33 %a; .reg .u32 %n;", "shl.b33 %a, %a, %n; popc.b33 %n, %a;", None),
            (".reg .s9 %a; .reg .pred %q;", "setp.lt.s9 %q, %a, 5; selp.b9 %a, %a, 1, %q;", None),
            (".reg .s17 %a; .reg .f32 %f;", "cvt.rn.f32.s17 %f, %a; cvt.sat.s17.s32 %a, 70000;", None),
            (".reg .u17 %a; .reg .b64 %p;", "atom.global.add.u17 %a, [%p], %a;", Some("'atom' does not accept the non-standard integer type .u17")),
            (".reg .s17 %a;", "add.sat.s17 %a, %a, %a;", Some("'add.sat' is not supported")),
            (".reg .s17 %a;", "add.cc.s17 %a, %a, %a;", Some("'add.cc' is not supported")),
            (".reg .u17 %a, %b; .reg .b64 %p;", "ld.global.v2.u17 {%a, %b}, [%p];", Some("'ld.v2' is not supported")),
            (".reg .b17 %a;", "bfe.u32 %a, %a, 1, 2; prmt.b17 %a, %a, %a, 0;", Some("'prmt' does not accept")),
            (".reg .s100 %a;", "ret;", Some("100 bits")),
            (".reg .b17 %a;", "shfl.sync.idx.b17 %a, %a, 0, 31, -1;", Some("'shfl' does not accept")),
            (".reg .u32 %a;", "add.u65 %a, %a, %a;", Some("65 bits")),
        ];
        for (decls, body, want) in cases {
            let ptx = format!(".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry k()\n{{\n{decls}\n{body}\nret;\n}}\n");
            let m = crate::ptx::parse(&ptx).unwrap_or_else(|e| panic!("{body}: {e:?}"));
            match (crate::lower::lower_module(&m), want) {
                (Ok(_), None) => {}
                (Err(e), Some(w)) => assert!(e.iter().any(|d| d.message.contains(w)), "{body}: {e:?}"),
                (Ok(_), Some(w)) => panic!("{body}: lowered, expected an error containing {w:?}"),
                (Err(e), None) => panic!("{body}: {e:?}"),
            }
        }
    }
}
