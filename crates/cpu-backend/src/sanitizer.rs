//! What AddressSanitizer needs to know about the coroutine stacks (builds with
//! `-Zsanitizer=address`, see `scripts/sanitizers.sh`; a no-op otherwise).
//!
//! Instrumented frames poison the redzones around their locals on entry and unpoison
//! them on return. A block that faults or traps is abandoned in the middle of its
//! frames ([`crate::fault`]: they are never returned from or unwound), so their redzones
//! stay poisoned in ASan's shadow memory. The stack is then reused for the next block or
//! fiber, whose frames lie elsewhere on it, and ASan reported their ordinary writes as
//! `stack-buffer-underflow` (first found by the sanitizer run over `tests/faults.rs`).
//! [`forget_frames`] clears the shadow of a stack whose frames were abandoned.

use corosensei::stack::Stack;

/// Marks all of `stack` addressable: call it on a stack whose coroutine was abandoned
/// (force-reset, or ended by the fault handler) before the stack is used again.
pub fn forget_frames(stack: &impl Stack) {
    #[cfg(sanitize_address)]
    {
        extern "C" {
            fn __asan_unpoison_memory_region(addr: *const std::ffi::c_void, size: usize);
        }
        let (lo, hi) = (stack.limit().get(), stack.base().get());
        // SAFETY: the ASan runtime is linked into every process that runs code built with
        // `-Zsanitizer=address`; the range is the stack's own mapping.
        unsafe { __asan_unpoison_memory_region(lo as *const _, hi - lo) };
    }
    #[cfg(not(sanitize_address))]
    let _ = stack;
}

#[cfg(all(test, sanitize_address))]
mod tests {
    use super::forget_frames;
    use corosensei::stack::{DefaultStack, Stack};
    use std::ffi::{c_int, c_void};

    extern "C" {
        fn __asan_poison_memory_region(addr: *const c_void, size: usize);
        fn __asan_address_is_poisoned(addr: *const c_void) -> c_int;
    }

    /// What an abandoned frame leaves behind (a poisoned redzone near the top of the
    /// stack) is gone after `forget_frames`: the regression test of the reports on
    /// `tests/faults.rs`, which reused such stacks.
    #[test]
    fn forgotten_frames_leave_no_poisoned_redzones() {
        let stack = DefaultStack::new(64 * 1024).unwrap();
        let redzone = (stack.base().get() - 512) as *const c_void;
        // SAFETY: the address lies in the stack's writable mapping.
        unsafe {
            __asan_poison_memory_region(redzone, 32);
            assert_eq!(__asan_address_is_poisoned(redzone), 1);
            forget_frames(&stack);
            assert_eq!(__asan_address_is_poisoned(redzone), 0);
        }
    }
}
