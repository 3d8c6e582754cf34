//! Inline PTX after clang, before code generation (the rules of the source documents
//! that live below the AST; the AST-level ones are in the shim):
//!
//! * every non-empty asm body goes in its own `{ }` scope, as nvcc does, so `.reg`
//!   declarations in it do not collide between two uses; the closing brace starts a
//!   line of its own, so a `//` comment at the end of the body (a PTX line comment runs
//!   to the end of the line) does not swallow it;
//! * an input the body writes (the first operand of an instruction) is copied into a
//!   register of the scope first: the write stays inside the asm, as the documents
//!   define, instead of clobbering the value the caller still uses;
//! * `WARP_SZ` becomes the target's warp size (a constant in PTX);
//! * an empty `asm volatile` is left exactly as it is.

use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::module::Module;

/// One operand of an asm call: `$index`, its register letter, whether it is an input.
struct Operand {
    letter: char,
    input: bool,
}

fn parse_constraints(c: &str) -> Vec<Operand> {
    let mut ops = Vec::new();
    for part in c.split(',') {
        let p = part.trim();
        if p.starts_with('~') || p.is_empty() {
            continue;
        }
        let input = !p.starts_with('=');
        let body = p.trim_start_matches(['=', '+', '&', '*']);
        let letter = body.chars().next().unwrap_or('?');
        ops.push(Operand { letter, input });
    }
    ops
}

fn ptx_type(letter: char) -> Option<&'static str> {
    match letter {
        'r' => Some("b32"),
        'l' => Some("b64"),
        'h' => Some("b16"),
        'f' => Some("f32"),
        'd' => Some("f64"),
        _ => None,
    }
}

/// Whether `$k` (or `${k}` / `${k:mod}`) is the destination of some instruction.
fn writes_operand(asm: &str, k: usize) -> bool {
    let plain = format!("${k}");
    let braced = format!("${{{k}");
    for stmt in asm.split([';', '{', '}', '\n']) {
        let mut s = stmt.trim();
        // Labels and predicates.
        if let Some(p) = s.find(':') {
            let head = &s[..p];
            if !head.contains(char::is_whitespace) && !head.contains('[') && !head.contains('$') {
                s = s[p + 1..].trim();
            }
        }
        if s.starts_with('@') {
            s = s.split_once(char::is_whitespace).map(|(_, r)| r.trim()).unwrap_or("");
        }
        let Some((op, rest)) = s.split_once(char::is_whitespace) else { continue };
        if op.starts_with('.') || op.starts_with("st") || op.starts_with("red") || op.starts_with("bra") || op.starts_with("call") {
            continue;
        }
        let first = rest.split(',').next().unwrap_or("").trim();
        for dest in first.split('|') {
            let d = dest.trim();
            if d == plain || d.starts_with(&braced) {
                return true;
            }
        }
    }
    false
}

/// Replaces whole-word `WARP_SZ` with the warp size.
fn replace_warp_sz(asm: &str, warp: u32) -> String {
    let mut out = String::with_capacity(asm.len());
    let bytes = asm.as_bytes();
    let mut i = 0;
    while i < asm.len() {
        if asm[i..].starts_with("WARP_SZ")
            && (i == 0 || !(bytes[i - 1].is_ascii_alphanumeric() || bytes[i - 1] == b'_'))
            && asm[i + 7..].chars().next().is_none_or(|c| !(c.is_ascii_alphanumeric() || c == '_'))
        {
            out.push_str(&warp.to_string());
            i += 7;
        } else {
            let c = asm[i..].chars().next().unwrap();
            out.push(c);
            i += c.len_utf8();
        }
    }
    out
}

/// The rewritten body, or None to leave the asm as it is.
fn rewrite(asm: &str, constraints: &str, warp: u32) -> Option<String> {
    if asm.trim().is_empty() {
        return None;
    }
    let mut body = replace_warp_sz(asm, warp);
    let ops = parse_constraints(constraints);
    let mut prologue = String::new();
    for (k, op) in ops.iter().enumerate() {
        if !op.input {
            continue;
        }
        let Some(ty) = ptx_type(op.letter) else { continue };
        if !writes_operand(&body, k) {
            continue;
        }
        let reg = format!("%__nvrtc_in{k}");
        prologue.push_str(&format!(".reg .{ty} {reg}; mov.{ty} {reg}, ${k}; "));
        body = body.replace(&format!("${{{k}}}"), &reg);
        // Replace `$k` not followed by another digit.
        let pat = format!("${k}");
        let mut out = String::new();
        let mut rest = body.as_str();
        while let Some(p) = rest.find(&pat) {
            out.push_str(&rest[..p]);
            let after = &rest[p + pat.len()..];
            if after.starts_with(|c: char| c.is_ascii_digit()) {
                out.push_str(&pat);
            } else {
                out.push_str(&reg);
            }
            rest = after;
        }
        out.push_str(rest);
        body = out;
    }
    Some(format!("{{ {prologue}{body}\n}}"))
}

/// Applies the rules to every inline asm call of the module.
pub(crate) fn rewrite_module(module: &Module, warp: u32) {
    // SAFETY: walking and editing instructions of a valid module with the C API.
    unsafe {
        let m = module.as_mut_ptr();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let mut bb = LLVMGetFirstBasicBlock(f);
            while !bb.is_null() {
                let mut inst = LLVMGetFirstInstruction(bb);
                while !inst.is_null() {
                    if !LLVMIsACallInst(inst).is_null() {
                        let n = LLVMGetNumOperands(inst);
                        let callee = LLVMGetOperand(inst, (n - 1) as u32);
                        if !LLVMIsAInlineAsm(callee).is_null() {
                            rewrite_call(inst, callee, n, warp);
                        }
                    }
                    inst = LLVMGetNextInstruction(inst);
                }
                bb = LLVMGetNextBasicBlock(bb);
            }
            f = LLVMGetNextFunction(f);
        }
    }
}

unsafe fn rewrite_call(inst: LLVMValueRef, asm: LLVMValueRef, n: i32, warp: u32) {
    // SAFETY: `asm` is an InlineAsm value; the strings are valid while it lives.
    unsafe {
        let mut len = 0usize;
        let s = LLVMGetInlineAsmAsmString(asm, &mut len);
        let text = String::from_utf8_lossy(std::slice::from_raw_parts(s as *const u8, len)).into_owned();
        let mut clen = 0usize;
        let c = LLVMGetInlineAsmConstraintString(asm, &mut clen);
        let constraints = String::from_utf8_lossy(std::slice::from_raw_parts(c as *const u8, clen)).into_owned();
        let Some(new_text) = rewrite(&text, &constraints, warp) else { return };
        let new_asm = LLVMGetInlineAsm(
            LLVMGetInlineAsmFunctionType(asm),
            new_text.as_ptr() as *mut _,
            new_text.len(),
            c as *mut _,
            clen,
            LLVMGetInlineAsmHasSideEffects(asm),
            LLVMGetInlineAsmNeedsAlignedStack(asm),
            LLVMGetInlineAsmDialect(asm),
            LLVMGetInlineAsmCanUnwind(asm),
        );
        LLVMSetOperand(inst, (n - 1) as u32, new_asm);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn written_inputs_get_copies() {
        let r = rewrite("add.s32 $1, $1, 100; mov.b32 $0, $1;", "=r,r", 32).unwrap();
        assert_eq!(r, "{ .reg .b32 %__nvrtc_in1; mov.b32 %__nvrtc_in1, $1; add.s32 %__nvrtc_in1, %__nvrtc_in1, 100; mov.b32 $0, %__nvrtc_in1;\n}");
        // Inputs only read stay as they are.
        assert_eq!(rewrite("mov.b32 $0, $1;", "=r,r", 32).unwrap(), "{ mov.b32 $0, $1;\n}");
        assert_eq!(rewrite("mov.u32 $0, WARP_SZ;", "=r", 64).unwrap(), "{ mov.u32 $0, 64;\n}");
        // A trailing line comment ends before the closing brace.
        assert_eq!(rewrite("mov.b32 $0, $1; // copy", "=r,r", 32).unwrap(), "{ mov.b32 $0, $1; // copy\n}");
        assert!(rewrite("", "~{memory}", 32).is_none());
        assert!(writes_operand("@p add.f32 $3, $1, $2;", 3));
        assert!(writes_operand("shfl.sync.down.b32 $2|p, Rx, 0x1, 31, -1;", 2));
        assert!(!writes_operand("st.global.u32 [$1], $2;", 1));
        assert!(!writes_operand("mov.b32 $10, $1;", 1));
    }
}
