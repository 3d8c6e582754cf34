//! The calling convention between host code generated from PTX and the CPU runtime.
//!
//! Every kernel `k` becomes one exported entry point (or, cut into barrier regions, the
//! `k.region` family of `target::host`):
//! - `k.block(params, ctx)`: all threads of one block, as a loop over `%tid` that LLVM can
//!   vectorize; for kernels without barriers;
//! - `k.thread(params, ctx)`: one GPU thread; for kernels whose block must run as
//!   cooperating fibers (the kernel synchronizes with `bar.sync` and friends).
//!
//! `params` is the packed kernel parameter buffer (PTX ISA 5.1.6: `.param` space of an
//! `.entry`), `ctx` points to a [`ThreadCtx`]. Generated code reads special registers and
//! the shared-memory window from it and calls back into the runtime through its function
//! pointers, so the generated module has no external symbols to resolve.

/// Called at `bar.sync id, count`: suspends the calling GPU thread until the block arrives.
pub type BarrierFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, id: u32, count: u32);
/// Called at `trap`: records the fault; the thread then returns.
pub type TrapFn = unsafe extern "C" fn(ctx: *mut ThreadCtx);
/// Called for `vprintf(format, args)`.
pub type PrintfFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, format: *const u8, args: *const u8) -> i32;

/// Per-thread state visible to generated code. The layout is part of the ABI: the lowering
/// hard-codes the field offsets below (see `OFFSET_*`).
#[repr(C)]
#[derive(Clone, Copy, Debug)]
pub struct ThreadCtx {
    pub tid: [u32; 3],
    pub ntid: [u32; 3],
    pub ctaid: [u32; 3],
    pub nctaid: [u32; 3],
    pub dynamic_smem_size: u32,
    pub total_smem_size: u32,
    /// Base of this block's shared-memory window; `.shared` addresses are offsets into it.
    pub shared: *mut u8,
    /// Runtime-private data (the fiber scheduler of the block).
    pub runtime: *mut core::ffi::c_void,
    pub barrier: BarrierFn,
    pub trap: TrapFn,
    pub vprintf: PrintfFn,
    pub warp_exchange: WarpExchangeFn,
    // ---- added after the first release of the ABI: new fields go at the end only ----
    /// Called for `__assertfail(message, file, line, function, charSize)` (the CUDA
    /// device runtime's `assert` failure entry): prints CUDA's assertion message and
    /// aborts the launch with `CUDA_ERROR_ASSERT`. Does not return.
    pub assert_fail: AssertFailFn,
    /// The 32 environment registers `%envreg0..%envreg31` (PTX ISA 10.35), read-only. The
    /// driver passes the cooperative-groups grid workspace address in `%envreg1` (high
    /// 32 bits) and `%envreg2` (low 32 bits), zero outside cooperative launches; the other
    /// registers read 0.
    pub envreg: *const u32,
    /// Called where a GPU thread waits for another one by polling memory (`nanosleep`,
    /// spin loops): lets the runtime run other GPU threads or blocks first. `nanoseconds`
    /// is `nanosleep`'s argument, 0 for a plain spin iteration.
    pub spin_yield: SpinYieldFn,
    /// Called at `bar.arrive` and `bar.red` (see [`BarrierOpFn`]).
    pub barrier_op: BarrierOpFn,
    /// Called for texture and surface instructions (see [`TextureFn`]).
    pub texture: TextureFn,
    /// Device `malloc(size)` and `free(p)` (PTX ISA "System Calls"): through the runtime,
    /// so that a fault interrupt never abandons a thread inside the heap's lock.
    pub malloc: MallocFn,
    pub free: FreeFn,
    /// The device runtime's system call (`crate::devrt`): device-side launches, streams,
    /// last errors.
    pub device_runtime: DeviceRuntimeFn,
    /// Called for the warp-wide matrix instructions (see [`WarpMatrixFn`]).
    pub warp_matrix: WarpMatrixFn,
}

pub const OFFSET_TID: usize = 0;
pub const OFFSET_NTID: usize = 12;
pub const OFFSET_CTAID: usize = 24;
pub const OFFSET_NCTAID: usize = 36;
pub const OFFSET_DYNAMIC_SMEM: usize = 48;
pub const OFFSET_TOTAL_SMEM: usize = 52;
pub const OFFSET_SHARED: usize = 56;
pub const OFFSET_RUNTIME: usize = 64;
pub const OFFSET_BARRIER: usize = 72;
pub const OFFSET_TRAP: usize = 80;
pub const OFFSET_VPRINTF: usize = 88;
pub const OFFSET_WARP_EXCHANGE: usize = 96;
pub const OFFSET_ASSERT_FAIL: usize = 104;
pub const OFFSET_ENVREG: usize = 112;
pub const OFFSET_SPIN_YIELD: usize = 120;
pub const OFFSET_BARRIER_OP: usize = 128;
pub const OFFSET_TEXTURE: usize = 136;
pub const OFFSET_MALLOC: usize = 144;
pub const OFFSET_FREE: usize = 152;
pub const OFFSET_DEVICE_RUNTIME: usize = 160;
pub const OFFSET_WARP_MATRIX: usize = 168;

/// `__assertfail(message, file, line, function, charSize)`: `message`, `file` and
/// `function` are NUL-terminated strings of `charSize`-byte characters (1 in nvcc's
/// output), `line` the source line.
pub type AssertFailFn =
    unsafe extern "C" fn(ctx: *mut ThreadCtx, message: *const u8, file: *const u8, line: u32, function: *const u8, char_size: u64);
/// `bar.arrive id, count` and `bar.red.{popc,and,or} id, count, pred` (PTX ISA 9.7.13.1):
/// `op` is one of `lower::intrinsics::BARRIER_OP_*`, `count` 0 means every thread of the
/// block that has not exited, `pred` is 0 or 1. Arrive returns at once (0); a reduction
/// waits like `bar.sync` and returns the count of arrivals with `pred` 1 (`.popc`) or 1/0
/// (`.and`, `.or`).
pub type BarrierOpFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, id: u32, count: u32, op: u32, pred: u32) -> u32;
/// `__ptx_texture(handle, op, args, data)`: a texture or surface instruction on the object
/// `handle`, operands and results as [`crate::texture_abi`] lays them out; returns the
/// answer of a query. A bad handle or a trapping surface access ends the launch.
pub type TextureFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, handle: u64, op: u32, args: *const u32, data: *mut u64) -> u32;
/// See [`ThreadCtx::malloc`]: 16-byte aligned memory, null when the heap is exhausted.
pub type MallocFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, size: u64) -> *mut u8;
/// See [`ThreadCtx::free`]: `free(null)` does nothing.
pub type FreeFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, p: *mut u8);
/// `__devrt_syscall(op, thread, a0..a7)` ([`crate::devrt`]): `args` points to the ten
/// values; returns the call's result.
pub type DeviceRuntimeFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, args: *const u64) -> u64;
/// `__ptx_warp_matrix(site, frag, desc)`: a warp collective performing the matrix
/// instruction `desc` describes over the lanes' fragment buffers (see
/// [`crate::matrix_abi`]); each lane's results are in its buffer when it returns.
pub type WarpMatrixFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, site: u32, frag: *mut u64, desc: u64);
/// See [`ThreadCtx::spin_yield`].
pub type SpinYieldFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, nanoseconds: u32);

/// Called at a warp collective (`shfl`, `vote`, `activemask`, `redux`, `bar.warp.sync`,
/// `exit` in a 64-lane module): deposits this lane's `value`, waits until every lane of
/// the warp that can reach a collective has done so and every lane of `member` (a member
/// mask; 0 for none) that has not exited is at this one, writes the mask of lanes that arrived
/// at the same call `site` to `*arrived` (bit `i` = lane `i`; warps have the module's 32
/// or 64 lanes, `KernelMeta::warp_size`), and returns the warp's array of deposited values
/// (one `u64` per lane, 8-aligned).
pub type WarpExchangeFn = unsafe extern "C" fn(ctx: *mut ThreadCtx, site: u32, value: u64, member: u64, arrived: *mut u64) -> *const u64;

/// Signature of `k.thread` and `k.block`.
pub type KernelFn = unsafe extern "C" fn(params: *const u8, ctx: *mut ThreadCtx);

/// Signature of a launch-shape variant `k.block.XxYxZ` (`target::host::ShapeSpecialized`):
/// runs `blocks` consecutive blocks (x fastest, then y, then z, wrapping at `ctx.nctaid`),
/// the first at `ctx.ctaid`, each as `k.block` would, writing each block's index to
/// `ctx.ctaid` before it runs. Only for launches whose block is the variant's shape
/// (`ctx.ntid`).
pub type BlockRunFn = unsafe extern "C" fn(params: *const u8, ctx: *mut ThreadCtx, blocks: u64);

const _: () = {
    assert!(core::mem::offset_of!(ThreadCtx, tid) == OFFSET_TID);
    assert!(core::mem::offset_of!(ThreadCtx, ntid) == OFFSET_NTID);
    assert!(core::mem::offset_of!(ThreadCtx, ctaid) == OFFSET_CTAID);
    assert!(core::mem::offset_of!(ThreadCtx, nctaid) == OFFSET_NCTAID);
    assert!(core::mem::offset_of!(ThreadCtx, dynamic_smem_size) == OFFSET_DYNAMIC_SMEM);
    assert!(core::mem::offset_of!(ThreadCtx, total_smem_size) == OFFSET_TOTAL_SMEM);
    assert!(core::mem::offset_of!(ThreadCtx, shared) == OFFSET_SHARED);
    assert!(core::mem::offset_of!(ThreadCtx, runtime) == OFFSET_RUNTIME);
    assert!(core::mem::offset_of!(ThreadCtx, barrier) == OFFSET_BARRIER);
    assert!(core::mem::offset_of!(ThreadCtx, trap) == OFFSET_TRAP);
    assert!(core::mem::offset_of!(ThreadCtx, vprintf) == OFFSET_VPRINTF);
    assert!(core::mem::offset_of!(ThreadCtx, warp_exchange) == OFFSET_WARP_EXCHANGE);
    assert!(core::mem::offset_of!(ThreadCtx, assert_fail) == OFFSET_ASSERT_FAIL);
    assert!(core::mem::offset_of!(ThreadCtx, envreg) == OFFSET_ENVREG);
    assert!(core::mem::offset_of!(ThreadCtx, spin_yield) == OFFSET_SPIN_YIELD);
    assert!(core::mem::offset_of!(ThreadCtx, barrier_op) == OFFSET_BARRIER_OP);
    assert!(core::mem::offset_of!(ThreadCtx, texture) == OFFSET_TEXTURE);
    assert!(core::mem::offset_of!(ThreadCtx, malloc) == OFFSET_MALLOC);
    assert!(core::mem::offset_of!(ThreadCtx, free) == OFFSET_FREE);
    assert!(core::mem::offset_of!(ThreadCtx, device_runtime) == OFFSET_DEVICE_RUNTIME);
    assert!(core::mem::offset_of!(ThreadCtx, warp_matrix) == OFFSET_WARP_MATRIX);
};

/// `k.region(params, ctx, save, states, S, masked)`: runs the block's threads from barrier
/// resume point `S` to their next barrier (see `lower::regions`): all of them, or when
/// `masked != 0` only those whose `states[t]` is `S`. Each thread's next state (a barrier
/// number, or `lower::REGION_EXIT`) goes to `states[t]`. `save` is the block's save area
/// (`save_bytes_per_thread * nthreads` bytes). The per-state loops `k.region.S` always
/// run all threads and ignore `masked`.
pub type RegionFn = unsafe extern "C" fn(params: *const u8, ctx: *mut ThreadCtx, save: *mut u8, states: *mut u32, state: u32, masked: u32);
