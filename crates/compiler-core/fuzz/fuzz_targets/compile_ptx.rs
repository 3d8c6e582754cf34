//! Fuzz target: arbitrary bytes through the PTX parser, the lowering and LLVM's IR parser
//! and verifier. Any panic or abort is a bug: malformed input must come back as
//! diagnostics. Seed the corpus with `scripts/fuzz-ptx.sh`, which copies the test suite's
//! PTX files.
#![no_main]

use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let Ok(ast) = compiler_core::ptx::parse(text) else { return };
    let Ok(lowered) = compiler_core::lower::lower_module(&ast) else { return };
    // The lowering's output must at least be something LLVM can parse and verify without
    // crashing; an invalid module is reported as an internal error, not a crash.
    let ctx = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(lowered.ir.as_bytes(), "fuzz");
    if let Ok(module) = ctx.create_module_from_ir(buf) {
        let _ = module.verify();
    };
});
