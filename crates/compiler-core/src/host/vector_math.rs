//! Vector math for the host JIT: glibc's libmvec (`_ZGVdN8v_sinf` and friends, glibc 2.22+)
//! as LLVM's vector library, so that code generation turns vectorized calls of
//! `llvm.sin`/`llvm.cos` (what `sin.approx` and `cos.approx` lower to: `__sinf`, `__cosf`,
//! `-use_fast_math`) into one call for 8 lanes instead of 8 calls of the scalar libm
//! function (cpu-bench's `sincos` case). LLVM 19's libmvec table has no `exp2`/`log2`:
//! `ex2.approx` goes through `exp` instead (`target/host.rs`, `EX2_F32_BODY`; cpu-bench's
//! `expf` case), and `lg2.approx` still calls libm per lane.
//!
//! LLVM reads its vector library from a process-wide option (`-vector-library`), which
//! every `TargetLibraryInfo` built afterwards takes; the JIT resolves the functions among
//! the process's global symbols, so the library is loaded with `RTLD_GLOBAL` first. Where
//! it cannot be loaded (another C library), or `PTX_NO_VECTOR_MATH` is set, nothing
//! changes. The choice is part of the object cache key ([`enabled`]): an object that calls
//! libmvec is only reused where it is loaded.
//!
//! Accuracy: libmvec's `sinf`/`cosf` stay within 4 ulp (glibc manual, "Known Maximum Errors
//! in Math Functions"), inside the PTX ISA's bound for the approximate instructions
//! (`sin/cos.approx.f32`: an absolute 2^-20.9 in [-pi, pi], ISA 9.7.3).

use std::sync::OnceLock;

use inkwell::llvm_sys;

/// Whether libmvec was loaded and made LLVM's vector library (first call does both).
pub(crate) fn enabled() -> bool {
    static ENABLED: OnceLock<bool> = OnceLock::new();
    *ENABLED.get_or_init(|| cfg!(all(target_arch = "x86_64", target_os = "linux")) && std::env::var_os("PTX_NO_VECTOR_MATH").is_none() && load())
}

fn load() -> bool {
    // SAFETY: dlopen of a system library by name; the handle is kept for the process's
    // life (the JIT's objects call into it).
    let handle = unsafe { libc::dlopen(c"libmvec.so.1".as_ptr(), libc::RTLD_NOW | libc::RTLD_GLOBAL) };
    if handle.is_null() {
        return false;
    }
    let args = [c"compiler-core".as_ptr(), c"-vector-library=LIBMVEC-X86".as_ptr()];
    // SAFETY: two NUL-terminated strings that outlive the call; LLVM copies what it keeps.
    unsafe { llvm_sys::support::LLVMParseCommandLineOptions(args.len() as i32, args.as_ptr(), std::ptr::null()) };
    true
}
