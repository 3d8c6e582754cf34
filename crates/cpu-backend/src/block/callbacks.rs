//! The runtime callbacks a block's `ThreadCtx` hands to generated code: barriers and spin
//! waits (in fiber mode and outside it), `vprintf`, texture and surface instructions,
//! device `malloc`/`free`, `trap` and `__assertfail`.

use super::{enter_kernel, escape, leave_kernel, runtime};
use crate::fault::{self, Suspend};
use compiler_core::host_abi::ThreadCtx;

pub(super) unsafe extern "C" fn barrier_in_fiber(ctx: *mut ThreadCtx, id: u32, count: u32) {
    // SAFETY: as in `wait_at_barrier`.
    unsafe { wait_at_barrier(ctx, id, count, false) };
}

/// `bar.arrive` and `bar.red` in fiber mode (see `host_abi::BarrierOpFn`).
pub(super) unsafe extern "C" fn barrier_op_in_fiber(ctx: *mut ThreadCtx, id: u32, count: u32, op: u32, pred: u32) -> u32 {
    use compiler_core::lower::intrinsics::{BARRIER_OP_AND, BARRIER_OP_ARRIVE, BARRIER_OP_POPC};
    // SAFETY: as in `wait_at_barrier`.
    unsafe {
        if op == BARRIER_OP_ARRIVE {
            (*runtime(ctx).barriers).arrive(id, count, false);
            return 0;
        }
        let r = wait_at_barrier(ctx, id, count, pred != 0);
        match op {
            BARRIER_OP_POPC => r.popc,
            BARRIER_OP_AND => r.all as u32,
            _ => r.any as u32,
        }
    }
}

/// Arrives at barrier `id` and suspends the fiber until the barrier completes (at least
/// once, so that every thread of a generation resumes in the same round).
///
/// # Safety
/// `runtime` was set to this fiber's `FiberRuntime`, whose `barriers` points to the
/// block's barriers; fibers of a block run one at a time on one OS thread.
unsafe fn wait_at_barrier(ctx: *mut ThreadCtx, id: u32, count: u32, pred: bool) -> crate::barrier::Reduced {
    unsafe {
        leave_kernel(ctx);
        let rt = runtime(ctx);
        let ticket = (*rt.barriers).arrive(id, count, pred);
        (*rt.barriers).set_waiting(true);
        (*rt.warp).at_barrier |= 1u64 << rt.lane;
        loop {
            (*rt.yielder).suspend(Suspend::Wait);
            if (*rt.barriers).passed(ticket) {
                break;
            }
        }
        (*rt.warp).at_barrier &= !(1u64 << rt.lane);
        (*rt.barriers).set_waiting(false);
        let result = (*rt.barriers).result(ticket);
        enter_kernel(ctx);
        result
    }
}

/// `bar.arrive`/`bar.red` outside fiber mode: the compiler runs kernels that use them as
/// fibers, so this means the analysis missed one.
pub(super) unsafe extern "C" fn barrier_op_outside_fiber(ctx: *mut ThreadCtx, _id: u32, _count: u32, _op: u32, _pred: u32) -> u32 {
    // SAFETY: as in `trap`.
    unsafe { trap(ctx) };
    0
}

/// A barrier reached by code running as a thread loop: the compiler only uses `k.block`
/// for kernels without barriers, so this means the analysis missed one. Fail the launch
/// rather than silently computing a wrong result.
pub(super) unsafe extern "C" fn barrier_outside_fiber(ctx: *mut ThreadCtx, _id: u32, _count: u32) {
    // SAFETY: as in `trap`.
    unsafe { trap(ctx) };
}

/// A spin-wait iteration in fiber mode: let the block's other threads run (the one this
/// thread waits for may be among them), and now and then other OS threads too.
pub(super) unsafe extern "C" fn spin_yield_in_fiber(ctx: *mut ThreadCtx, _nanoseconds: u32) {
    // SAFETY: as in `barrier_in_fiber`.
    unsafe {
        leave_kernel(ctx);
        let rt = runtime(ctx);
        rt.spins = rt.spins.wrapping_add(1);
        if rt.spins % 64 == 0 {
            std::thread::yield_now();
        }
        (*rt.yielder).suspend(Suspend::Wait);
        enter_kernel(ctx);
    }
}

/// A spin-wait iteration in a thread loop: the thread waited for runs on another OS
/// thread (another block), so give up the CPU.
pub(super) unsafe extern "C" fn spin_yield_outside_fiber(ctx: *mut ThreadCtx, _nanoseconds: u32) {
    // SAFETY: as in `trap`.
    unsafe {
        leave_kernel(ctx);
        std::thread::yield_now();
        enter_kernel(ctx);
    }
}

/// `vprintf`, as a runtime callback.
pub(super) unsafe extern "C" fn vprintf(ctx: *mut ThreadCtx, format: *const u8, args: *const u8) -> i32 {
    // SAFETY: as in `trap`; the format and arguments are the kernel's (see
    // `printf::vprintf`).
    unsafe {
        leave_kernel(ctx);
        let n = crate::printf::vprintf(ctx, format, args);
        enter_kernel(ctx);
        n
    }
}

/// Texture and surface instructions (`crate::texture`); a bad handle or a trapping
/// surface access fails the launch with `CUDA_ERROR_ILLEGAL_ADDRESS`.
pub(super) unsafe extern "C" fn texture(ctx: *mut ThreadCtx, handle: u64, op: u32, args: *const u32, data: *mut u64) -> u32 {
    // SAFETY: the lowering passes buffers of the sizes `texture_abi` names; `ctx` as in `trap`.
    unsafe {
        match crate::texture::execute(handle, op, args, data) {
            Ok(v) => v,
            Err(why) => {
                leave_kernel(ctx);
                crate::printf::emit_stderr(format!("texture or surface instruction failed: {why:?} (object {handle:#x})\n").as_bytes());
                fault::record(&*runtime(ctx).fault, fault::FAULT_ILLEGAL_ADDRESS);
                escape(ctx)
            }
        }
    }
}

/// Device `malloc`: the process heap (glibc's `malloc` is 16-byte aligned, as CUDA's
/// device heap is); its memory is global memory to every kernel until `free`d. Outside
/// generated code for the call, so an interrupt cannot abandon the thread in the heap's lock.
pub(super) unsafe extern "C" fn device_malloc(ctx: *mut ThreadCtx, size: u64) -> *mut u8 {
    // SAFETY: `ctx` as in `trap`; `malloc` takes any size.
    unsafe {
        leave_kernel(ctx);
        let p = libc::malloc(size as usize) as *mut u8;
        enter_kernel(ctx);
        p
    }
}

/// Device `free` (null does nothing).
pub(super) unsafe extern "C" fn device_free(ctx: *mut ThreadCtx, p: *mut u8) {
    // SAFETY: `ctx` as in `trap`; `p` came from device `malloc` (the program's contract).
    unsafe {
        leave_kernel(ctx);
        libc::free(p.cast());
        enter_kernel(ctx);
    }
}

/// `trap`: the launch fails with `CUDA_ERROR_LAUNCH_FAILED`.
pub(super) unsafe extern "C" fn trap(ctx: *mut ThreadCtx) {
    // SAFETY: every ctx handed to generated code has `runtime` pointing to a live
    // `FiberRuntime` whose `fault` points to the launch's fault word.
    unsafe {
        leave_kernel(ctx);
        fault::record(&*runtime(ctx).fault, fault::FAULT_TRAP);
        escape(ctx)
    }
}

/// `__assertfail`: prints CUDA's message to the launch's stderr output, then the launch
/// fails with `CUDA_ERROR_ASSERT`.
pub(super) unsafe extern "C" fn assert_fail(
    ctx: *mut ThreadCtx,
    message: *const u8,
    file: *const u8,
    line: u32,
    function: *const u8,
    char_size: u64,
) {
    // SAFETY: as in `trap`; the strings are the module's constants (or null).
    unsafe {
        leave_kernel(ctx);
        {
            let c = &*ctx;
            let text = format!(
                "{}:{}: {}: block: [{},{},{}], thread: [{},{},{}] Assertion `{}` failed.\n",
                device_string(file, char_size),
                line,
                device_string(function, char_size),
                c.ctaid[0],
                c.ctaid[1],
                c.ctaid[2],
                c.tid[0],
                c.tid[1],
                c.tid[2],
                device_string(message, char_size),
            );
            crate::printf::emit_stderr(text.as_bytes());
        }
        fault::record(&*runtime(ctx).fault, fault::FAULT_ASSERT);
        escape(ctx)
    }
}

/// A NUL-terminated device string of `char_size`-byte characters (1, 2 or 4).
///
/// # Safety
/// `p` is null or points to such a string.
unsafe fn device_string(p: *const u8, char_size: u64) -> String {
    if p.is_null() {
        return String::new();
    }
    let size = match char_size {
        2 | 4 => char_size as usize,
        _ => 1,
    };
    let mut units = Vec::new();
    for i in 0..1 << 16 {
        // SAFETY: reads stop at the terminating NUL (caller).
        let unit = unsafe {
            match size {
                1 => *p.add(i) as u32,
                2 => std::ptr::read_unaligned(p.add(2 * i) as *const u16) as u32,
                _ => std::ptr::read_unaligned(p.add(4 * i) as *const u32),
            }
        };
        if unit == 0 {
            break;
        }
        units.push(unit);
    }
    if size == 1 {
        let bytes: Vec<u8> = units.into_iter().map(|u| u as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    } else {
        units.into_iter().map(|u| char::from_u32(u).unwrap_or('\u{fffd}')).collect()
    }
}
