//! Faults inside kernels: a bad memory access (SIGSEGV/SIGBUS), an invalid instruction
//! (SIGILL) or an arithmetic trap (SIGFPE) in generated code ends the launch with a CUDA
//! error instead of killing the process.
//!
//! # How
//! Kernel code only ever runs inside a `corosensei` coroutine: each worker runs the
//! blocks it takes from a launch inside one *outer* coroutine (thread-loop kernels run
//! directly on it), and in fiber mode every GPU thread is an *inner* coroutine resumed
//! from the outer one. Before resuming kernel code, a thread publishes the coroutines'
//! [`CoroutineTrapHandler`]s and the launch's fault word in its [`Slot`] (one per thread
//! that runs kernels, found by kernel thread id, so the handler needs no thread-local
//! storage, which is not async-signal-safe in a `dlopen`ed library).
//!
//! The process-wide handler for SIGSEGV, SIGBUS, SIGILL and SIGFPE:
//! 1. looks up the faulting thread's slot (`gettid`, a plain syscall);
//! 2. if the stack pointer at the fault lies in that thread's current inner coroutine
//!    (else its outer one), it stores the fault code in the launch's fault word and uses
//!    [`CoroutineTrapHandler::setup_trap_handler`] to rewrite the interrupted register
//!    context so that, when the handler returns, the coroutine returns [`Exit::Faulted`]
//!    to whoever resumed it. The block is then abandoned and the launch stops;
//! 3. otherwise the fault is not ours: it is passed to the handler that was installed
//!    before ours (or, if that was the default action, the default action is restored
//!    and the faulting instruction re-executed, so the process dies as it would have).
//!
//! # Stopping the rest of a failed launch
//! CUDA ends the whole grid at a fault. Here the thread that recorded the fault
//! *interrupts* the other threads running blocks of that launch ([`interrupt`]): it sends
//! each a SIGSEGV with `tgkill`. The handler recognizes such a signal (`SI_TKILL` from
//! this process, to a thread whose current launch has a fault recorded) and, if the
//! thread is executing generated code at that instant (its slot's `in_kernel` flag),
//! ends the running coroutine as for a fault; otherwise it ignores the signal, and the
//! runtime notices the fault at the thread's next callback or block boundary. This is
//! what keeps blocks that spin-wait on a block that faulted (grid barriers, look-back
//! scans) from hanging the launch. The submitting thread repeats the interrupt while it
//! waits for such a launch to drain.
//!
//! # Invariants
//! - Faults on any thread that is not running kernel code, or whose stack pointer is not
//!   on a kernel coroutine stack, are never swallowed.
//! - Frames abandoned on a faulting coroutine stack are never unwound: everything that
//!   runs on a kernel coroutine (generated code, the runtime callbacks, the block loop)
//!   keeps no lock held across code that can fault and owns nothing that needs `Drop`
//!   beyond memory (which leaks). The runtime callbacks format their output before they
//!   take the printf lock.
//! - An interrupt never abandons runtime code (which may hold locks, e.g. inside
//!   `malloc`): runtime callbacks clear `in_kernel` on entry and set it again just before
//!   returning to generated code.
//! - Threads that run kernels have an alternate signal stack, so a stack overflow on a
//!   fiber (the guard page) is handled like any other bad access.
//! - Only accesses to unmapped or protected memory fault. Device memory lies in the
//!   device's own reserved address ranges with inaccessible gaps (`arena.rs`), so a stray
//!   access off a device allocation faults or lands in other device memory, as on a GPU.

use corosensei::trap::CoroutineTrapHandler;
use std::cell::{Cell, UnsafeCell};
use std::sync::atomic::{compiler_fence, AtomicBool, AtomicI32, AtomicPtr, AtomicU32, Ordering};
use std::sync::{Once, OnceLock};

/// How a kernel coroutine ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// It ran to its end.
    Done,
    /// The fault handler ended it (the fault code is in the launch's fault word).
    Faulted,
}

/// Why a kernel coroutine suspended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Suspend {
    /// At a barrier, a warp collective or a spin-wait: resume it in the next round.
    Wait,
    /// `trap` or a failed `assert`: the fault code is set; never resume it.
    Abort,
}

/// Launch fault codes (the launch's fault word; 0 = none).
pub const FAULT_TRAP: u32 = 1;
pub const FAULT_ASSERT: u32 = 2;
pub const FAULT_ILLEGAL_ADDRESS: u32 = 3;
pub const FAULT_ILLEGAL_INSTRUCTION: u32 = 4;
pub const FAULT_ARITHMETIC: u32 = 5;
/// A runtime bug (a panic while running blocks).
pub const FAULT_INTERNAL: u32 = 6;
/// The block's threads could not get stacks (`CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES`).
pub const FAULT_OUT_OF_RESOURCES: u32 = 7;

/// Records `code` as the launch's fault unless one is already recorded (the first wins).
pub fn record(fault: &AtomicU32, code: u32) {
    let _ = fault.compare_exchange(0, code, Ordering::AcqRel, Ordering::Acquire);
}

type Handler = CoroutineTrapHandler<Exit>;

const OUTER: usize = 0;
const INNER: usize = 1;
/// Threads that can run kernels at the same time (pool workers, stream workers, the
/// threads of cooperative launches); slots are reused when threads exit.
const MAX_SLOTS: usize = 4096;

/// What the fault handler needs to know about one thread that runs kernels. The atomics
/// are read by other threads' handlers (scanning for their own slot); the handler cells
/// are only read by this thread's own signal handler.
struct Slot {
    /// Kernel thread id of the owner, 0 when free.
    tid: AtomicI32,
    active: [AtomicBool; 2],
    /// The thread is executing generated code (not runtime code).
    in_kernel: AtomicBool,
    handler: [UnsafeCell<Option<Handler>>; 2],
    fault: AtomicPtr<AtomicU32>,
    /// The alternate signal stack mapped for the owner ([`ALTSTACK_BYTES`]), or null.
    altstack: AtomicPtr<libc::c_void>,
}

// SAFETY: `handler` cells are written by the owning thread and read only by signal
// handlers running on that same thread (see `on_signal`).
unsafe impl Sync for Slot {}

#[allow(clippy::declare_interior_mutable_const, reason = "used only to initialize SLOTS")]
const FREE: Slot = Slot {
    tid: AtomicI32::new(0),
    active: [AtomicBool::new(false), AtomicBool::new(false)],
    in_kernel: AtomicBool::new(false),
    handler: [UnsafeCell::new(None), UnsafeCell::new(None)],
    fault: AtomicPtr::new(std::ptr::null_mut()),
    altstack: AtomicPtr::new(std::ptr::null_mut()),
};

static SLOTS: [Slot; MAX_SLOTS] = [FREE; MAX_SLOTS];

thread_local! {
    /// This thread's slot index plus one; 0 until the thread first runs kernel code.
    /// Without a destructor: glibc registers a thread-local's destructor with `calloc`,
    /// which would make a thread's first launch allocate, whenever that comes (issue 4:
    /// no allocation per launch). The slot is released by [`slot_key`]'s destructor.
    static THIS_SLOT: Cell<usize> = const { Cell::new(0) };
}

/// The pthread key whose destructor releases an exiting thread's slot (its value is the
/// slot index plus one). Setting a key's value allocates nothing for the first 32 keys of
/// the process; `None` if no key could be made (slots are then never released).
fn slot_key() -> Option<libc::pthread_key_t> {
    static KEY: OnceLock<Option<libc::pthread_key_t>> = OnceLock::new();
    *KEY.get_or_init(|| {
        let mut key: libc::pthread_key_t = 0;
        // SAFETY: creating a key with a destructor that is safe to call on thread exit.
        (unsafe { libc::pthread_key_create(&mut key, Some(release_slot)) } == 0).then_some(key)
    })
}

/// Releases the slot of an exiting thread (the `slot_key` destructor).
unsafe extern "C" fn release_slot(value: *mut libc::c_void) {
    let Some(index) = (value as usize).checked_sub(1).filter(|&i| i < MAX_SLOTS) else { return };
    let slot = &SLOTS[index];
    slot.active[OUTER].store(false, Ordering::Relaxed);
    slot.active[INNER].store(false, Ordering::Relaxed);
    let altstack = slot.altstack.swap(std::ptr::null_mut(), Ordering::Relaxed);
    if !altstack.is_null() {
        // SAFETY: the thread is exiting and no longer runs kernels; the stack was mapped
        // by `install_altstack` and is disabled before being unmapped.
        unsafe {
            let disable = libc::stack_t { ss_sp: std::ptr::null_mut(), ss_flags: libc::SS_DISABLE, ss_size: 0 };
            libc::sigaltstack(&disable, std::ptr::null_mut());
            libc::munmap(altstack, ALTSTACK_BYTES);
        }
    }
    slot.tid.store(0, Ordering::Release);
}

/// Claims a free slot for the calling thread and gives it an alternate signal stack.
fn claim_slot() -> usize {
    // SAFETY: gettid has no preconditions.
    let tid = unsafe { libc::gettid() };
    let index = (0..MAX_SLOTS)
        .find(|&i| SLOTS[i].tid.compare_exchange(0, tid, Ordering::AcqRel, Ordering::Relaxed).is_ok())
        .expect("too many threads running kernels at once");
    SLOTS[index].altstack.store(install_altstack().unwrap_or(std::ptr::null_mut()), Ordering::Relaxed);
    THIS_SLOT.with(|s| s.set(index + 1));
    if let Some(key) = slot_key() {
        // SAFETY: a key made by `slot_key`; the value is a plain integer.
        unsafe { libc::pthread_setspecific(key, (index + 1) as *const libc::c_void) };
    }
    index
}

/// Bytes of the alternate signal stack of a thread that runs kernels.
const ALTSTACK_BYTES: usize = 64 * 1024;

/// Gives this thread an alternate signal stack of our own size. A stack the thread
/// already has is replaced when it is smaller: Rust's runtime gives every thread a
/// `SIGSTKSZ`-sized one for its stack-overflow message, and the fault handler (which
/// unwinds a coroutine) needs more than that; overflowing it killed the process when a
/// kernel overflowed its stack. Returns the new stack, if one was mapped.
fn install_altstack() -> Option<*mut libc::c_void> {
    const SIZE: usize = ALTSTACK_BYTES;
    // SAFETY: querying and setting the calling thread's signal stack; the new stack is a
    // fresh private mapping.
    unsafe {
        let mut old: libc::stack_t = std::mem::zeroed();
        if libc::sigaltstack(std::ptr::null(), &mut old) == 0 && old.ss_flags & libc::SS_DISABLE == 0 && old.ss_size >= SIZE {
            return None;
        }
        let p = libc::mmap(std::ptr::null_mut(), SIZE, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
        if p == libc::MAP_FAILED {
            return None;
        }
        let st = libc::stack_t { ss_sp: p, ss_flags: 0, ss_size: SIZE };
        if libc::sigaltstack(&st, std::ptr::null_mut()) != 0 {
            libc::munmap(p, SIZE);
            return None;
        }
        Some(p)
    }
}

/// This thread's "executing generated code" flag.
pub fn in_kernel_flag() -> &'static AtomicBool {
    &this_slot().in_kernel
}

fn this_slot() -> &'static Slot {
    install_handlers();
    let index = match THIS_SLOT.with(Cell::get) {
        0 => claim_slot(),
        claimed => claimed - 1,
    };
    &SLOTS[index]
}

/// Publishes the coroutines that run kernel code on this thread, for the fault handler.
/// Created by the block runner around each resume of the outer coroutine.
pub struct Armed {
    slot: &'static Slot,
}

impl Armed {
    /// Kernel code of the launch whose fault word is `fault` is about to run in the
    /// coroutine `outer` on this thread.
    pub fn outer(outer: Handler, fault: &AtomicU32) -> Armed {
        let slot = this_slot();
        // SAFETY: only this thread writes its slot's cells; its signal handler reads them
        // only while `active` says they are valid (ordered by the compiler fences).
        unsafe { *slot.handler[OUTER].get() = Some(outer) };
        slot.fault.store(fault as *const AtomicU32 as *mut AtomicU32, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        slot.active[OUTER].store(true, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        Armed { slot }
    }

    /// This thread's handle for publishing fibers ([`InnerArm`]), found once per block
    /// rather than at every resume (a thread-local lookup).
    pub fn inner_arm() -> InnerArm {
        InnerArm { slot: this_slot() }
    }
}

/// Publishes the fiber being resumed on this thread, for the fault handler.
pub struct InnerArm {
    slot: &'static Slot,
}

impl InnerArm {
    /// The fiber `inner` is about to be resumed (from the outer coroutine).
    pub fn set(&self, inner: Handler) {
        let slot = self.slot;
        slot.active[INNER].store(false, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
        // SAFETY: as in `Armed::outer`.
        unsafe { *slot.handler[INNER].get() = Some(inner) };
        compiler_fence(Ordering::SeqCst);
        slot.active[INNER].store(true, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
    }

    /// The fiber has suspended or ended.
    pub fn clear(&self) {
        compiler_fence(Ordering::SeqCst);
        self.slot.active[INNER].store(false, Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        compiler_fence(Ordering::SeqCst);
        self.slot.in_kernel.store(false, Ordering::Relaxed);
        self.slot.active[INNER].store(false, Ordering::Relaxed);
        self.slot.active[OUTER].store(false, Ordering::Relaxed);
        self.slot.fault.store(std::ptr::null_mut(), Ordering::Relaxed);
        compiler_fence(Ordering::SeqCst);
    }
}

/// Interrupts every other thread that runs blocks of the launch whose fault word is
/// `fault` (see the module docs). Only useful once a fault is recorded.
pub fn interrupt(fault: &AtomicU32) {
    let target = fault as *const AtomicU32 as *mut AtomicU32;
    // SAFETY: getpid/gettid have no preconditions; tgkill only signals threads of this
    // process. A thread that moved on since we read its slot ignores the signal (its
    // handler checks its own slot). A thread that exited in between had its tid freed;
    // Linux hands tids out sequentially up to pid_max before reusing one, so the signal
    // cannot reach a new thread within the microseconds of this scan.
    unsafe {
        let (pid, me) = (libc::getpid(), libc::gettid());
        for slot in SLOTS.iter() {
            let tid = slot.tid.load(Ordering::Acquire);
            if tid != 0 && tid != me && slot.fault.load(Ordering::Relaxed) == target && slot.active[OUTER].load(Ordering::Relaxed) {
                libc::syscall(libc::SYS_tgkill, pid, tid, libc::SIGSEGV);
            }
        }
    }
}

const SIGNALS: [libc::c_int; 4] = [libc::SIGSEGV, libc::SIGBUS, libc::SIGILL, libc::SIGFPE];

struct OldActions(UnsafeCell<[libc::sigaction; 4]>);
// SAFETY: written once inside `install_handlers` (under `Once`) before our handler can
// run, read-only afterwards except for `restore_default`, which only ever runs on the
// way to the default action (the process is about to die of this signal).
unsafe impl Sync for OldActions {}

static OLD: OldActions = OldActions(UnsafeCell::new(unsafe { std::mem::zeroed() }));

/// Installs the fault handler once per process, remembering the previous handlers.
pub fn install_handlers() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // SAFETY: plain sigaction calls. Each OLD entry is written by the call that
        // installs our handler for that signal, before the call returns; our handler only
        // reads OLD for signals it was installed for, and only runs for a fault, which
        // cannot be one of ours before a kernel has run.
        unsafe {
            let mut act: libc::sigaction = std::mem::zeroed();
            act.sa_sigaction = on_signal as *const () as usize;
            act.sa_flags = libc::SA_SIGINFO | libc::SA_ONSTACK;
            libc::sigemptyset(&mut act.sa_mask);
            let old = &mut *OLD.0.get();
            for (i, &sig) in SIGNALS.iter().enumerate() {
                libc::sigaction(sig, &act, &mut old[i]);
            }
        }
    });
}

fn fault_code(sig: libc::c_int) -> u32 {
    match sig {
        libc::SIGILL => FAULT_ILLEGAL_INSTRUCTION,
        libc::SIGFPE => FAULT_ARITHMETIC,
        _ => FAULT_ILLEGAL_ADDRESS,
    }
}

unsafe extern "C" fn on_signal(sig: libc::c_int, info: *mut libc::siginfo_t, uctx: *mut libc::c_void) {
    // SAFETY: the kernel passes a valid ucontext for SA_SIGINFO handlers; everything below
    // is async-signal-safe (atomics, a syscall, writes to the coroutine stack).
    unsafe {
        if sig == libc::SIGSEGV && (*info).si_code == libc::SI_TKILL && (*info).si_pid() == libc::getpid() {
            if let Some(slot) = own_slot() {
                let fault = slot.fault.load(Ordering::Relaxed);
                if slot.active[OUTER].load(Ordering::Relaxed) && !fault.is_null() && (*fault).load(Ordering::Relaxed) != 0 {
                    // An interrupt: end the running coroutine if it is in generated code.
                    if slot.in_kernel.load(Ordering::Relaxed) {
                        let sp = stack_pointer(uctx);
                        for level in [INNER, OUTER] {
                            if !slot.active[level].load(Ordering::Relaxed) {
                                continue;
                            }
                            compiler_fence(Ordering::SeqCst);
                            let Some(handler) = *slot.handler[level].get() else { continue };
                            if handler.stack_ptr_in_bounds(sp) {
                                slot.in_kernel.store(false, Ordering::Relaxed);
                                redirect(uctx, handler.setup_trap_handler(|| Exit::Faulted));
                                return;
                            }
                        }
                    }
                    return;
                }
                // An interrupt that arrives after this thread left the launch it was meant
                // for: nothing to stop. Threads that run kernels get SIGSEGV through
                // tgkill only from us, so it must not reach the default action (which
                // would kill the process).
                return;
            }
        }
        if let Some(slot) = own_slot() {
            let sp = stack_pointer(uctx);
            for level in [INNER, OUTER] {
                if !slot.active[level].load(Ordering::Relaxed) {
                    continue;
                }
                compiler_fence(Ordering::SeqCst);
                let Some(handler) = *slot.handler[level].get() else { continue };
                if handler.stack_ptr_in_bounds(sp) {
                    let fault = slot.fault.load(Ordering::Relaxed);
                    if !fault.is_null() {
                        record(&*fault, fault_code(sig));
                    }
                    slot.in_kernel.store(false, Ordering::Relaxed);
                    let regs = handler.setup_trap_handler(|| Exit::Faulted);
                    redirect(uctx, regs);
                    return;
                }
            }
        }
        chain(sig, info, uctx);
    }
}

fn own_slot() -> Option<&'static Slot> {
    // SAFETY: gettid has no preconditions and is async-signal-safe.
    let tid = unsafe { libc::gettid() };
    SLOTS.iter().find(|s| s.tid.load(Ordering::Acquire) == tid)
}

/// Hands a fault that is not ours to whoever handled it before us.
unsafe fn chain(sig: libc::c_int, info: *mut libc::siginfo_t, uctx: *mut libc::c_void) {
    let Some(i) = SIGNALS.iter().position(|&s| s == sig) else { return };
    // SAFETY: see `OldActions`.
    unsafe {
        let old = &(*OLD.0.get())[i];
        let h = old.sa_sigaction;
        if h == libc::SIG_DFL || h == libc::SIG_IGN {
            // Restore the default action; returning re-executes the faulting instruction
            // (a real fault), and a signal sent with kill/raise is raised again.
            let mut dfl: libc::sigaction = std::mem::zeroed();
            dfl.sa_sigaction = libc::SIG_DFL;
            libc::sigaction(sig, &dfl, std::ptr::null_mut());
            if (*info).si_code <= 0 {
                libc::raise(sig);
            }
        } else if old.sa_flags & libc::SA_SIGINFO != 0 {
            let f: unsafe extern "C" fn(libc::c_int, *mut libc::siginfo_t, *mut libc::c_void) = std::mem::transmute(h);
            f(sig, info, uctx);
        } else {
            let f: unsafe extern "C" fn(libc::c_int) = std::mem::transmute(h);
            f(sig);
        }
    }
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
unsafe fn stack_pointer(uctx: *mut libc::c_void) -> usize {
    // SAFETY: a valid ucontext (caller).
    unsafe { (*(uctx as *mut libc::ucontext_t)).uc_mcontext.gregs[libc::REG_RSP as usize] as usize }
}

#[cfg(all(target_os = "linux", target_arch = "x86_64"))]
unsafe fn redirect(uctx: *mut libc::c_void, regs: corosensei::trap::TrapHandlerRegs) {
    // SAFETY: a valid ucontext (caller).
    unsafe {
        let g = &mut (*(uctx as *mut libc::ucontext_t)).uc_mcontext.gregs;
        let corosensei::trap::TrapHandlerRegs { rip, rsp, rbp, rdi, rsi } = regs;
        g[libc::REG_RIP as usize] = rip as i64;
        g[libc::REG_RSP as usize] = rsp as i64;
        g[libc::REG_RBP as usize] = rbp as i64;
        g[libc::REG_RDI as usize] = rdi as i64;
        g[libc::REG_RSI as usize] = rsi as i64;
    }
}

#[cfg(all(target_os = "linux", target_arch = "aarch64"))]
unsafe fn stack_pointer(uctx: *mut libc::c_void) -> usize {
    // SAFETY: a valid ucontext (caller).
    unsafe { (*(uctx as *mut libc::ucontext_t)).uc_mcontext.sp as usize }
}

#[cfg(all(target_os = "linux", target_arch = "aarch64"))]
unsafe fn redirect(uctx: *mut libc::c_void, regs: corosensei::trap::TrapHandlerRegs) {
    // SAFETY: a valid ucontext (caller).
    unsafe {
        let m = &mut (*(uctx as *mut libc::ucontext_t)).uc_mcontext;
        let corosensei::trap::TrapHandlerRegs { pc, sp, x0, x1, x29, lr } = regs;
        m.pc = pc;
        m.sp = sp;
        m.regs[0] = x0;
        m.regs[1] = x1;
        m.regs[29] = x29;
        m.regs[30] = lr;
    }
}
