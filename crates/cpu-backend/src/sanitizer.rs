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
//!
//! ThreadSanitizer keeps one shadow call stack per thread; frames entered on a coroutine
//! that then suspends are never exited on that thread's stack, so without annotations the
//! shadow stack grew by a fiber's frames at every barrier until `__tsan_func_entry`
//! wrote past its end (SIGSEGV in `ctests/cross_block` under TSan, and the slowness of
//! `tests/interleave.rs`: every allocation hashes the whole shadow stack). [`TsanFiber`]
//! gives each coroutine a TSan fiber of its own (`__tsan_switch_to_fiber`).

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

/// ThreadSanitizer's fiber for one coroutine (a zero-sized no-op unless built with
/// `-Zsanitizer=thread`).
pub struct TsanFiber {
    #[cfg(sanitize_thread)]
    fiber: *mut std::ffi::c_void,
}

#[cfg(sanitize_thread)]
extern "C" {
    fn __tsan_get_current_fiber() -> *mut std::ffi::c_void;
    fn __tsan_create_fiber(flags: u32) -> *mut std::ffi::c_void;
    fn __tsan_destroy_fiber(fiber: *mut std::ffi::c_void);
    fn __tsan_switch_to_fiber(fiber: *mut std::ffi::c_void, flags: u32);
}

impl TsanFiber {
    pub fn new() -> TsanFiber {
        // SAFETY: the TSan runtime is linked into every process running TSan-built code.
        #[cfg(sanitize_thread)]
        return TsanFiber { fiber: unsafe { __tsan_create_fiber(0) } };
        #[cfg(not(sanitize_thread))]
        TsanFiber {}
    }

    /// Runs `resume` (which resumes this fiber's coroutine) with TSan switched to the
    /// fiber, and switches back after. The resume call's own frames are entered on the
    /// fiber's shadow stack and left after the switch back: balanced at every round.
    #[inline]
    pub fn run<R>(&self, resume: impl FnOnce() -> R) -> R {
        #[cfg(sanitize_thread)]
        // SAFETY: both fibers are live; switching with synchronization (flags 0) orders
        // the coroutine's accesses after the resumer's, as they are on one OS thread.
        unsafe {
            let me = __tsan_get_current_fiber();
            __tsan_switch_to_fiber(self.fiber, 0);
            let r = resume();
            __tsan_switch_to_fiber(me, 0);
            r
        }
        #[cfg(not(sanitize_thread))]
        resume()
    }
}

impl Default for TsanFiber {
    fn default() -> Self {
        TsanFiber::new()
    }
}

// SAFETY: a TSan fiber handle may be used from any thread (a worker's scratch moves
// between threads only while none of its coroutines runs).
#[cfg(sanitize_thread)]
unsafe impl Send for TsanFiber {}

#[cfg(sanitize_thread)]
impl Drop for TsanFiber {
    fn drop(&mut self) {
        // SAFETY: created by `new`, not the current fiber (`run` switched back).
        unsafe { __tsan_destroy_fiber(self.fiber) };
    }
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
