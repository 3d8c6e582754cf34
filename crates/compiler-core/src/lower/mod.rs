//! Lowering: PTX syntax tree -> LLVM IR text for a [`crate::target::Target`].
//!
//! The instruction semantics here are target-neutral: what differs between targets
//! (special registers, the shared window, barriers, warp collectives, printf, trap,
//! address spaces, syncscopes, kernel entry points) goes through the intrinsics of
//! [`intrinsics`] and the `Target` trait.
//!
//! Design decision: we emit textual LLVM IR and let LLVM parse it (through inkwell, in
//! `crate::host`). The text is explicit, trivially inspectable (`PTX_DUMP_IR=1`), and makes
//! golden tests readable; building the same IR through inkwell's typed builder would cost
//! far more code for no gain in what LLVM receives. Parsing IR text is a small fraction of
//! the time LLVM then spends optimizing it.
//!
//! What this pass guarantees: every kernel `k` gets an internal `@"k.body"(ptr %ctx,
//! ptr %params)` and the target's entry wrappers around it (host: `k.thread`/`k.block`
//! with the signature of `crate::host_abi::KernelFn`; AMDGPU: an `amdgpu_kernel` named
//! `k`); every `.global`/`.const` variable becomes an externally visible LLVM global of the
//! same name so the runtime can find its address; `.shared` variables become offsets into
//! the block's shared window (`__ptx_shared_base`); registers are `alloca`s (LLVM's
//! mem2reg/SROA turn them into SSA).

mod approx;
mod arith;
mod async_copy;
mod bits;
mod calls;
mod compare;
mod cvt;
mod fp8;
mod func;
mod half;
mod insert;
mod instr;
mod int_arith;
pub mod int_width;
pub mod intrinsics;
mod lanemask;
mod matrix;
mod mbarrier;
mod memory;
mod module;
mod operands;
pub mod regions;
mod resources;
mod rounding;
mod select;
mod shared_layout;
mod spin_wait;
mod sreg;
mod texture;
pub mod types;
mod unary;
mod vector_regs;
mod video;
mod warp;
mod warp_sync;

pub use func::kernel_signature;
pub use lanemask::lane_mask_diagnostics;
#[cfg(test)]
pub(crate) use module::{define_intrinsics, intrinsic_declarations};
pub use module::{
    kernel_handle, kernel_handle_names, lower_module, lower_module_for, lower_module_on_threads, lower_module_subset, lower_module_with,
    KERNEL_HANDLE_TAG,
};
pub(crate) use module::{ll_global, var_size};
pub(crate) use shared_layout::reachable;
pub use warp_sync::is_added_meeting;

/// What the runtime needs to know about one lowered kernel.
#[derive(Clone, Debug)]
pub struct KernelMeta {
    pub name: String,
    /// (offset, size) of each parameter in the packed parameter buffer.
    pub params: Vec<(usize, usize)>,
    /// The alignment of each parameter (PTX ISA 5.1.6.1: `.align`, else the type's size).
    pub param_aligns: Vec<u32>,
    pub param_buffer_size: usize,
    /// The kernel (or a function it may call) synchronizes with a block barrier.
    pub uses_barrier: bool,
    pub reqntid: Option<[u32; 3]>,
    pub maxntid: Option<[u32; 3]>,
    /// Bytes of `.local` memory declared in the kernel.
    pub local_bytes: u64,
    /// Set when the kernel was also cut at its barriers into regions (the CPU fast path;
    /// see `regions`).
    pub regions: Option<RegionMeta>,
    /// Lanes per warp (the module's `.warp_size`, 32 if absent): the runtime groups the
    /// block's threads into warps of this many lanes.
    pub warp_size: u32,
    /// Its blocks may wait for each other (an atomic, a strong load or store, a fence:
    /// `module::observes_other_blocks`, reachable through calls). Blocks of other kernels
    /// cannot tell in which order or on which thread they run.
    pub blocks_communicate: bool,
    /// Static `.shared` bytes the kernel and the functions it may call use
    /// (`shared_layout`): what the driver reports and checks launches against. The
    /// runtime's window is the module's [`LoweredModule::static_shared_bytes`].
    pub static_shared_bytes: u64,
    /// Bytes of module `.const` variables it (or a function it may call) uses (`resources`).
    pub const_bytes: u64,
    /// Estimated registers per thread (`resources`): within `.maxnreg` and 255.
    pub register_estimate: u32,
    /// It (or a function it may call) spin-waits for other threads (`spin_wait`): its
    /// blocks should run side by side.
    pub spin_waits: bool,
}

/// Options of the lowering.
#[derive(Clone, Copy, Debug)]
pub struct LowerOptions {
    /// Warn about a constant lane-mask operand with no lane above 31 in a 64-lane module
    /// (seed 002: `0xffffffff` was probably meant as "all lanes"; `-1` is). The CPU
    /// device turns it off with `PTX_LANEMASK_WARNINGS=0` ([`lanemask_warnings_from_env`]).
    pub lanemask_warnings: bool,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions { lanemask_warnings: true }
    }
}

/// Whether the environment leaves the constant lane-mask warning on: anything but
/// `PTX_LANEMASK_WARNINGS=0` (or `false`/`off`).
pub fn lanemask_warnings_from_env() -> bool {
    !matches!(std::env::var("PTX_LANEMASK_WARNINGS").as_deref(), Ok("0") | Ok("false") | Ok("off"))
}

/// A kernel's barrier regions: states `0..=sites` are resume points (0 is the start).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RegionMeta {
    pub sites: u32,
    /// Bytes of the save area per thread (registers live across barriers, `.local`).
    pub save_bytes_per_thread: u64,
    /// How the runtime schedules each state (index = state; state 0 is `Free`).
    pub kinds: Vec<StateKind>,
    /// With split warp collectives: lanes per warp, and the save-area prefixes (array
    /// `k` starts at `prefix * nthreads`) of the exchange (one i64 per thread, read up
    /// to a warp past the last thread: the runtime pads the save area by
    /// `8 * warp_size` bytes) and of the arrival masks the runtime writes (one `u32`
    /// per thread in an 8-byte element: the lanes of the thread's warp stopped at the
    /// same state).
    pub warp_exchange: Option<WarpExchangeMeta>,
    /// The states that resume at a lockstep loop's head (hot: one region per iteration).
    pub lockstep_states: Vec<u32>,
    /// Every resume point gets a dense x loop inside `k.region` (`regions::dense`; the
    /// host target's `target/host/dense.rs`), from the module's budget.
    pub dense_loops: bool,
    /// Lockstep head states that also have a wide strip `k.wstrip.S` (`regions::widen`),
    /// which the host's dispatching loop runs for chunks of threads all in that state.
    pub wide_strips: Vec<u32>,
    /// States that resume after a wide strip's loop (`regions::widen`): each thread runs
    /// one once, so they get no per-state loop of their own.
    pub loop_exit_states: Vec<u32>,
    /// States with a warp strip `k.wwarp.S` (`regions::widen`, `region.rs`), which the host's
    /// dense loops run for whole warps all in that state.
    pub warp_strips: Vec<u32>,
    /// States of a dense kernel with a dense strip `k.wdense.S` (`regions::widen`, `region.rs`),
    /// which its dense loops run for chunks of `DENSE_LANES` threads all in that state.
    pub dense_strips: Vec<u32>,
}

/// Where a region kernel's warp exchange lives in its save area (see [`RegionMeta`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WarpExchangeMeta {
    pub warp_size: u32,
    pub values_prefix: u64,
    pub arrived_prefix: u64,
}

/// How the block runner schedules threads stopped in one state of a region kernel.
/// Each round it runs the `Free` states if any thread is in one, else the `Warp`
/// states, else the `Barrier` states (whole-block barriers release only when no thread
/// can still reach them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StateKind {
    /// The start, a lockstep loop head, after a warp collective: no other thread waits
    /// for threads here.
    Free,
    /// Deposited at a warp collective: waits for the lanes of its warp.
    Warp,
    /// At a whole-block barrier: waits for every thread of the block.
    Barrier,
}

/// The state a thread reports when it has finished the kernel.
pub const REGION_EXIT: u32 = regions::EXIT;

/// A module variable in `.global` or `.const` space.
#[derive(Clone, Debug)]
pub struct GlobalMeta {
    pub name: String,
    /// The LLVM symbol to look up for its address.
    pub symbol: String,
    pub size: u64,
    /// `Some` for a texture or surface reference: 8 bytes holding the bound object's
    /// handle ([`crate::texture_abi::UNBOUND_REFERENCE`] while unbound), which the driver
    /// writes and `cuModuleGetGlobal` does not hand out.
    pub reference: Option<crate::ptx::ast::OpaqueKind>,
}

/// The result of lowering one PTX module.
#[derive(Clone, Debug)]
pub struct LoweredModule {
    pub ir: String,
    pub kernels: Vec<KernelMeta>,
    pub globals: Vec<GlobalMeta>,
    /// Bytes of statically declared shared memory (all `.shared` variables of the module).
    pub static_shared_bytes: u64,
    /// Where the dynamic shared array (`.extern .shared`) starts in the window, if the
    /// module declares one: after the static variables, 16-byte aligned.
    pub dynamic_shared_offset: Option<u64>,
    /// Warnings found while parsing (when the caller passes them on) and lowering.
    pub warnings: Vec<crate::diag::Diagnostic>,
    /// Lanes per warp of the module (32 or 64).
    pub warp_size: u32,
}

impl Default for LoweredModule {
    fn default() -> Self {
        LoweredModule {
            ir: String::new(),
            kernels: Vec::new(),
            globals: Vec::new(),
            static_shared_bytes: 0,
            dynamic_shared_offset: None,
            warnings: Vec::new(),
            warp_size: 32,
        }
    }
}
