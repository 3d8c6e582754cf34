//! The call-configuration stack behind `<<<grid, block, shared, stream>>>`: nvcc's host code
//! pushes the configuration (`__cudaPushCallConfiguration`) and the kernel's host stub pops
//! it (`__cudaPopCallConfiguration`) before launching. One stack per thread, as a launch's
//! push and pop happen on the calling thread; a stack, not a slot, because evaluating the
//! launch's arguments may itself launch (`k<<<1,1>>>(f<<<1,1>>>(), ...)` is not C++, but
//! argument expressions calling host functions that launch are).

use std::cell::RefCell;
use std::ffi::c_void;

/// `dim3` (three unsigned ints, passed by value in registers as C does).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Dim3 {
    pub x: u32,
    pub y: u32,
    pub z: u32,
}

/// One pushed configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CallConfig {
    pub grid: Dim3,
    pub block: Dim3,
    pub shared: usize,
    pub stream: *mut c_void,
}

thread_local! {
    static STACK: RefCell<Vec<CallConfig>> = const { RefCell::new(Vec::new()) };
}

/// `__cudaPushCallConfiguration`.
pub fn push(config: CallConfig) {
    STACK.with(|s| s.borrow_mut().push(config));
}

/// `__cudaPopCallConfiguration`: the newest configuration, or `None` when nothing was
/// pushed.
pub fn pop() -> Option<CallConfig> {
    STACK.with(|s| s.borrow_mut().pop())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(x: u32) -> CallConfig {
        CallConfig { grid: Dim3 { x, y: 1, z: 1 }, block: Dim3 { x: 32, y: 1, z: 1 }, shared: x as usize, stream: std::ptr::null_mut() }
    }

    #[test]
    fn last_in_first_out_per_thread() {
        assert_eq!(pop(), None);
        push(config(1));
        push(config(2));
        // Another thread has its own, empty stack.
        std::thread::spawn(|| assert_eq!(pop(), None)).join().unwrap();
        assert_eq!(pop(), Some(config(2)));
        assert_eq!(pop(), Some(config(1)));
        assert_eq!(pop(), None);
    }

    #[test]
    fn dim3_is_three_ints() {
        assert_eq!(std::mem::size_of::<Dim3>(), 12);
    }
}
