//! Lowering: PTX syntax tree -> LLVM IR text in the host form.
//!
//! Design decision: we emit textual LLVM IR and let LLVM parse it (through inkwell, in
//! `crate::host`). The text is explicit, trivially inspectable (`PTX_DUMP_IR=1`), and makes
//! golden tests readable; building the same IR through inkwell's typed builder would cost
//! far more code for no gain in what LLVM receives. Parsing IR text is a small fraction of
//! the time LLVM then spends optimizing it.
//!
//! What this pass guarantees: every kernel gets `k.thread` (and `k.block` when it has no
//! barrier) with the signature of `crate::host_abi::KernelFn`; every `.global`/`.const`
//! variable becomes an externally visible LLVM global of the same name so the runtime can
//! find its address; `.shared` variables become offsets into the block's shared window;
//! registers are `alloca`s (LLVM's mem2reg/SROA turn them into SSA).

mod func;
mod instr;
mod module;
mod rounding;
pub mod types;
mod warp;

pub use module::lower_module;

/// What the runtime needs to know about one lowered kernel.
#[derive(Clone, Debug)]
pub struct KernelMeta {
    pub name: String,
    /// (offset, size) of each parameter in the packed parameter buffer.
    pub params: Vec<(usize, usize)>,
    pub param_buffer_size: usize,
    /// The kernel (or a function it may call) synchronizes with a block barrier.
    pub uses_barrier: bool,
    pub reqntid: Option<[u32; 3]>,
    pub maxntid: Option<[u32; 3]>,
    /// Bytes of `.local` memory declared in the kernel.
    pub local_bytes: u64,
}

/// A module variable in `.global` or `.const` space.
#[derive(Clone, Debug)]
pub struct GlobalMeta {
    pub name: String,
    /// The LLVM symbol to look up for its address.
    pub symbol: String,
    pub size: u64,
}

/// The result of lowering one PTX module.
#[derive(Clone, Debug, Default)]
pub struct LoweredModule {
    pub ir: String,
    pub kernels: Vec<KernelMeta>,
    pub globals: Vec<GlobalMeta>,
    /// Bytes of statically declared shared memory (all `.shared` variables of the module).
    pub static_shared_bytes: u64,
    /// Alignment of the dynamic shared-memory array (`.extern .shared`), placed after
    /// the static ones.
    pub warnings: Vec<crate::diag::Diagnostic>,
}
