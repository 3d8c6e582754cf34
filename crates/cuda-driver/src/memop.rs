//! Stream memory operations: `cuStreamWaitValue32/64`, `cuStreamWriteValue32/64` and
//! `cuStreamBatchMemOp` (CUDA Driver API, "Stream Memory Operations").
//!
//! Each call queues one operation on the stream that performs its memory operations in
//! array order when the stream's earlier work has completed: a wait blocks the stream (the
//! stream's worker thread, never the caller) until its condition holds on the 32- or
//! 64-bit word; a write stores the value. Later work of the stream runs after it, as for
//! any stream operation, so a wait orders the stream after whoever writes the word (the
//! host, another stream, a kernel).
//!
//! Addresses must lie in memory the driver knows (device, managed, pinned or registered
//! host memory, mappings), aligned to the operand's size. The memory is the host's on
//! devices that address host memory (the CPU device); there the words are accessed with
//! atomic loads and stores, so a wait sees a write of any thread. A device whose memory
//! the host cannot address (AMD GPUs) has no stream memory operations: the device
//! attributes `CAN_USE_STREAM_MEM_OPS_V1`, `CAN_USE_64_BIT_STREAM_MEM_OPS` and
//! `CAN_USE_STREAM_WAIT_VALUE_NOR` answer 0 there and the calls `CUDA_ERROR_NOT_SUPPORTED`.
//!
//! Not available on any device here, as the matching device attributes say
//! (`CAN_FLUSH_REMOTE_WRITES` 0, `ATOMIC_REDUCTION_SUPPORTED` 0): flushing remote writes
//! (`CU_STREAM_WAIT_VALUE_FLUSH`, `CU_STREAM_MEM_OP_FLUSH_REMOTE_WRITES`), which answers
//! `CUDA_ERROR_NOT_SUPPORTED` as NVIDIA's driver does on an H200 (whose attribute is 0
//! too), and atomic reductions, also `CUDA_ERROR_NOT_SUPPORTED` (driver 580, CUDA 13.0,
//! did not know the operation type yet and answered `INVALID_VALUE`). Checks follow the
//! same driver: unknown flag bits, misaligned addresses, barrier scopes other than `SYS`
//! and `GPU`, unknown operation types and batch flags are `CUDA_ERROR_INVALID_VALUE`. Memory operations in a stream
//! capture would be batch memory-operation graph nodes, which are not implemented: the
//! capture is invalidated and the call answers `CUDA_ERROR_NOT_SUPPORTED`.

use std::sync::atomic::{fence, AtomicU32, AtomicU64, Ordering};
use std::time::Duration;

use crate::diag::fail;
use crate::exec::{RunFn, Work};
use crate::{CuError, CuResult, Driver, StreamHandle};

/// `CUstreamWaitValue_flags`: the comparison in the low bits.
pub mod wait {
    pub const GEQ: u32 = 0;
    pub const EQ: u32 = 1;
    pub const AND: u32 = 2;
    pub const NOR: u32 = 3;
    /// `CU_STREAM_WAIT_VALUE_FLUSH`.
    pub const FLUSH: u32 = 1 << 30;
}

/// `CU_STREAM_WRITE_VALUE_NO_MEMORY_BARRIER`: not accepted by the current (v2) memory
/// operations, as the reference says and NVIDIA's driver answers (`INVALID_VALUE`).
pub const WRITE_NO_MEMORY_BARRIER: u32 = 1;
/// `CU_STREAM_MEMORY_BARRIER_TYPE_GPU` (`SYS` is 0).
pub const MEMORY_BARRIER_GPU: u32 = 1;
/// The most operations one `cuStreamBatchMemOp` takes ("must be less than 256"; an empty
/// batch succeeds, as on NVIDIA's driver).
pub const MAX_BATCH: usize = 255;

/// `CUstreamBatchMemOpType` values.
pub mod op_type {
    pub const WAIT_VALUE_32: u32 = 1;
    pub const WRITE_VALUE_32: u32 = 2;
    pub const FLUSH_REMOTE_WRITES: u32 = 3;
    pub const WAIT_VALUE_64: u32 = 4;
    pub const WRITE_VALUE_64: u32 = 5;
    pub const BARRIER: u32 = 6;
    pub const ATOMIC_REDUCTION: u32 = 8;
}

/// One memory operation.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MemOp {
    /// Wait until the word at `address` (32 bits unless `wide`) compares with `value` as
    /// `flags` says.
    Wait { address: u64, value: u64, wide: bool, flags: u32 },
    /// Store `value` at `address`; `flags` must be 0.
    Write { address: u64, value: u64, wide: bool, flags: u32 },
    /// `CU_STREAM_MEM_OP_BARRIER`: `flags` is the barrier's scope.
    Barrier { flags: u32 },
    /// An operation no device here has (`FLUSH_REMOTE_WRITES`, `ATOMIC_REDUCTION`).
    Unavailable(u32),
    /// An unknown `CUstreamBatchMemOpType`.
    Invalid(u32),
}

impl MemOp {
    /// Decodes one 48-byte `CUstreamBatchMemOpParams`: the operation type at offset 0;
    /// for waits and writes the address at 8, the value at 16 (32 or 64 bits) and the
    /// flags at 24; for barriers the flags at 4.
    pub fn from_raw(raw: &[u8; 48]) -> MemOp {
        let u32_at = |o: usize| u32::from_ne_bytes(raw[o..o + 4].try_into().expect("4 bytes"));
        let u64_at = |o: usize| u64::from_ne_bytes(raw[o..o + 8].try_into().expect("8 bytes"));
        let op = u32_at(0);
        let wide = matches!(op, op_type::WAIT_VALUE_64 | op_type::WRITE_VALUE_64);
        let value = if wide { u64_at(16) } else { u32_at(16) as u64 };
        match op {
            op_type::WAIT_VALUE_32 | op_type::WAIT_VALUE_64 => MemOp::Wait { address: u64_at(8), value, wide, flags: u32_at(24) },
            op_type::WRITE_VALUE_32 | op_type::WRITE_VALUE_64 => MemOp::Write { address: u64_at(8), value, wide, flags: u32_at(24) },
            op_type::BARRIER => MemOp::Barrier { flags: u32_at(4) },
            op_type::FLUSH_REMOTE_WRITES | op_type::ATOMIC_REDUCTION => MemOp::Unavailable(op),
            other => MemOp::Invalid(other),
        }
    }
}

/// Whether a waited-for word satisfies the condition (driver API reference,
/// `CUstreamWaitValue_flags`): `GEQ` compares cyclically, `(int)(*addr - value) >= 0`.
pub fn wait_satisfied(current: u64, value: u64, wide: bool, condition: u32) -> bool {
    let (current, value) = if wide { (current, value) } else { (current as u32 as u64, value as u32 as u64) };
    match condition {
        wait::GEQ if wide => (current.wrapping_sub(value) as i64) >= 0,
        wait::GEQ => (current.wrapping_sub(value) as u32 as i32) >= 0,
        wait::EQ => current == value,
        wait::AND => current & value != 0,
        _ => {
            let nor = !(current | value);
            if wide {
                nor != 0
            } else {
                nor as u32 != 0
            }
        }
    }
}

/// A checked operation, ready to run on the stream's thread.
#[derive(Clone, Copy)]
enum Ready {
    Wait { address: usize, value: u64, wide: bool, condition: u32 },
    Write { address: usize, value: u64, wide: bool },
    Barrier,
}

impl Ready {
    /// # Safety
    /// `address` is a live, aligned word of host memory (checked at submission; the API
    /// requires it to stay allocated until the operation has run).
    unsafe fn run(self) {
        match self {
            Ready::Wait { address, value, wide, condition } => {
                let load = || {
                    // SAFETY: see the function's contract.
                    unsafe {
                        if wide {
                            AtomicU64::from_ptr(address as *mut u64).load(Ordering::Acquire)
                        } else {
                            AtomicU32::from_ptr(address as *mut u32).load(Ordering::Acquire) as u64
                        }
                    }
                };
                let mut round = 0u32;
                while !wait_satisfied(load(), value, wide, condition) {
                    // Spin briefly (a writer on another core is usually quick), then give
                    // the core away: the writer may need it.
                    round = round.saturating_add(1);
                    if round < 256 {
                        std::hint::spin_loop();
                    } else if round < 1024 {
                        std::thread::yield_now();
                    } else {
                        std::thread::sleep(Duration::from_micros(50));
                    }
                }
            }
            Ready::Write { address, value, wide } => {
                // A write orders the stream's earlier memory accesses before it (a release
                // store after a full fence, `__threadfence_system()`'s semantics).
                fence(Ordering::SeqCst);
                // SAFETY: see the function's contract.
                unsafe {
                    if wide {
                        AtomicU64::from_ptr(address as *mut u64).store(value, Ordering::Release)
                    } else {
                        AtomicU32::from_ptr(address as *mut u32).store(value as u32, Ordering::Release)
                    }
                }
            }
            Ready::Barrier => fence(Ordering::SeqCst),
        }
    }
}

impl Driver {
    /// The host address of a `size`-byte word at `address` that the driver knows, aligned.
    fn memop_word(&self, address: u64, size: u64, what: &str) -> CuResult<usize> {
        if !address.is_multiple_of(size) {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: address {address:#x} is not aligned to {size} bytes")));
        }
        match self.memory.find_range(address, size) {
            Some(Ok(_)) => Ok(address as usize),
            other => Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {address:#x} is not memory of this driver ({other:?})"))),
        }
    }

    fn check_memop(&self, op: MemOp, what: &str) -> CuResult<Ready> {
        let bad = |why: std::fmt::Arguments<'_>| Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {why}")));
        match op {
            MemOp::Wait { address, value, wide, flags } => {
                if flags & wait::FLUSH != 0 {
                    return Err(fail(
                        CuError::NOT_SUPPORTED,
                        format_args!("{what}: CU_STREAM_WAIT_VALUE_FLUSH (no device here can flush remote writes)"),
                    ));
                }
                if flags > wait::NOR {
                    return bad(format_args!("wait flags {flags:#x}"));
                }
                let address = self.memop_word(address, if wide { 8 } else { 4 }, what)?;
                Ok(Ready::Wait { address, value, wide, condition: flags })
            }
            MemOp::Write { address, value, wide, flags } => {
                if flags != 0 {
                    return bad(format_args!("write flags {flags:#x}"));
                }
                let address = self.memop_word(address, if wide { 8 } else { 4 }, what)?;
                Ok(Ready::Write { address, value, wide })
            }
            MemOp::Barrier { flags } if flags <= MEMORY_BARRIER_GPU => Ok(Ready::Barrier),
            MemOp::Barrier { flags } => bad(format_args!("barrier flags {flags:#x}")),
            MemOp::Unavailable(t) => Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: memory operation type {t} (no device here has it)"))),
            MemOp::Invalid(t) => bad(format_args!("memory operation type {t}")),
        }
    }

    /// `cuStreamWaitValue32/64`, `cuStreamWriteValue32/64` and `cuStreamBatchMemOp`:
    /// queues `ops` on `stream` (see the module docs). `flags` (the batch's) must be 0.
    pub fn stream_mem_ops(&self, stream: StreamHandle, ops: &[MemOp], flags: u32, what: &str) -> CuResult<()> {
        let (ctx, q) = self.stream_queue(stream)?;
        if flags != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: flags {flags:#x}")));
        }
        if ops.len() > MAX_BATCH {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: {} operations", ops.len())));
        }
        if ops.is_empty() {
            return Ok(());
        }
        if !self.devices[ctx.device].backend.properties().host_addressable_memory {
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("{what}: the device has no stream memory operations")));
        }
        let ready = ops.iter().map(|&op| self.check_memop(op, what)).collect::<CuResult<Vec<Ready>>>()?;
        if self.capture_gate(&ctx, &q, false)? {
            if let Some(c) = self.capture_of(&q) {
                c.invalidate();
            }
            return Err(fail(CuError::NOT_SUPPORTED, format_args!("{what} in a stream capture (batch memory-operation nodes are not implemented)")));
        }
        let run: RunFn = Box::new(move || {
            for op in ready {
                // SAFETY: checked above; the API keeps the memory allocated until it ran.
                unsafe { op.run() };
            }
            Ok(())
        });
        self.submit(&ctx, &q, None, Work::Run(run), false);
        Ok(())
    }
}
