//! CUDA dynamic parallelism on the CPU device: the device runtime's system call
//! (`compiler_core::devrt`, through `ThreadCtx::device_runtime`).
//!
//! Schedule (CUDA C++ Programming Guide, "CUDA Dynamic Parallelism", CDP2): a grid is
//! complete only once every grid it launched is complete, and work launched into one
//! stream runs in launch order. Device-side launches, copies and fills are queued in the
//! launching grid's [`Launches`] and run after its last block has finished, in the order
//! they were issued (each child's own children right after it, depth first:
//! `module.rs` `run_device_work`), launches into `cudaStreamTailLaunch` after everything
//! else the grid queued; only then does the host's launch count as finished to its
//! stream. Streams created on the device are therefore only names: issue order is a legal
//! order for any of them.
//!
//! Limits: a launch counts as pending from its launch until it and its descendants are
//! complete; at most `cudaLimitDevRuntimePendingLaunchCount` (2048 unless the host set
//! another count) may be, else `cudaErrorLaunchPendingCountExceeded`. That is also what
//! bounds nesting: on NVIDIA's H100 (driver 580) a chain of launches failed with that
//! error at level 2048, not at 24 (`cudaErrorLaunchMaxDepthExceeded` is
//! CDP1's). Errors are recorded per GPU thread and read back with
//! `cudaGetLastError`/`cudaPeekAtLastError`. Configurations are checked as that GPU
//! checks them (`ctests/dynamic_parallelism.cu`).

use backend_api::DeviceError;
use compiler_core::devrt::*;
use compiler_core::host::HostModule;
use compiler_core::host_abi::ThreadCtx;
use std::collections::HashMap;
use std::hash::{BuildHasherDefault, DefaultHasher};
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Mutex, OnceLock};

/// `cudaError_t` values (`driver_types.h`).
const SUCCESS: u32 = 0;
const INVALID_VALUE: u32 = 1;
const MEMORY_ALLOCATION: u32 = 2;
const INVALID_CONFIGURATION: u32 = 9;
const INVALID_MEMCPY_DIRECTION: u32 = 21;
const LAUNCH_MAX_DEPTH_EXCEEDED: u32 = 65;
const LAUNCH_PENDING_COUNT_EXCEEDED: u32 = 69;
const INVALID_DEVICE_FUNCTION: u32 = 98;
const UNSUPPORTED_LIMIT: u32 = 215;
const NOT_SUPPORTED: u32 = 801;

/// `cudaStreamTailLaunch` (`cuda_device_runtime_api.h`).
const STREAM_TAIL_LAUNCH: u64 = 3;
/// `__CNPRT_VERSION_NUMBER__` of libcudadevrt 13, what its `cudaRuntimeGetVersion` answers.
const DEVICE_RUNTIME_VERSION: u64 = 6000;

/// Device-side launches not complete, process-wide.
static PENDING: AtomicUsize = AtomicUsize::new(0);
/// `cudaLimitDevRuntimePendingLaunchCount`.
static PENDING_LIMIT: AtomicUsize = AtomicUsize::new(2048);
/// `cudaDeviceGetAttribute` answers (index = attribute).
static ATTRIBUTES: OnceLock<Vec<Option<i32>>> = OnceLock::new();
/// The next device-side stream name.
static NEXT_STREAM: AtomicU64 = AtomicU64::new(0x1000);

pub(crate) fn set_attributes(attributes: Vec<Option<i32>>) {
    let _ = ATTRIBUTES.set(attributes);
}

pub(crate) fn set_pending_limit(count: usize) {
    PENDING_LIMIT.store(count, Ordering::Relaxed);
}

fn attribute(attr: usize) -> Option<i32> {
    ATTRIBUTES.get().and_then(|a| a.get(attr).copied().flatten())
}

/// A queued child grid.
pub struct Child {
    pub kernel: String,
    pub grid: [u32; 3],
    pub block: [u32; 3],
    pub shared: u32,
    /// The parameter buffer (16-byte aligned words).
    params: Vec<u128>,
    size: usize,
}

impl Child {
    pub fn params(&self) -> &[u8] {
        // SAFETY: `params` holds at least `size` bytes.
        unsafe { std::slice::from_raw_parts(self.params.as_ptr() as *const u8, self.size) }
    }
}

/// Work a grid queued, run after its blocks.
pub enum Work {
    Launch(Child),
    Copy { dst: u64, src: u64, count: usize },
    Fill { dst: u64, value: u8, count: usize },
}

/// Maps of device addresses and thread ids, which nobody outside chooses: fixed hash keys,
/// so that the state of a launch that queues nothing (most) is made without asking the
/// thread for random ones.
type Map<K, V> = HashMap<K, V, BuildHasherDefault<DefaultHasher>>;

#[derive(Default)]
struct Inner {
    work: Vec<Work>,
    tail: Vec<Work>,
    /// `cudaGetParameterBufferV2` buffers not launched yet, by address.
    buffers: Map<u64, Child>,
    /// `cudaGetParameterBuffer` buffers, by address.
    raw: Map<u64, (Vec<u128>, usize)>,
    /// Last errors by (linear block, linear thread); absent = `cudaSuccess`.
    errors: Map<(u64, u64), u32>,
}

/// The device runtime's state for one launch.
pub struct Launches<'a> {
    host: &'a HostModule,
    inner: Mutex<Inner>,
}

impl<'a> Launches<'a> {
    pub fn new(host: &'a HostModule) -> Self {
        Launches { host, inner: Mutex::new(Inner::default()) }
    }

    /// The queued work in the order it runs, once the grid has finished (no thread queues
    /// more, so no lock is taken). Launches stay pending until the caller has run them
    /// ([`completed`]).
    pub fn take(&mut self) -> Vec<Work> {
        let inner = self.inner.get_mut().unwrap_or_else(|e| e.into_inner());
        let mut work = std::mem::take(&mut inner.work);
        work.append(&mut inner.tail);
        work
    }

    fn inner(&self) -> std::sync::MutexGuard<'_, Inner> {
        self.inner.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Records `code` as the thread's last error; returns it.
    fn fail(&self, key: (u64, u64), code: u32) -> u64 {
        self.inner().errors.insert(key, code);
        code as u64
    }

    /// The kernel a device-side function handle names.
    fn kernel(&self, handle: u64) -> Option<&'a str> {
        if handle & 0xffff_0000_0000_0000 != compiler_core::lower::KERNEL_HANDLE_TAG {
            return None;
        }
        self.host.kernel_handles.get((handle & 0xffff_ffff_ffff) as usize).map(|s| s.as_str())
    }

    /// Checks a launch configuration as NVIDIA's runtime does (device limits, the
    /// kernel's `.maxntid`/`.reqntid`); the kernel's parameter buffer size.
    fn configure(&self, kernel: &str, grid: [u32; 3], block: [u32; 3], shared: u32) -> Result<usize, u32> {
        let meta = self.host.kernel_meta(kernel).ok_or(INVALID_DEVICE_FUNCTION)?;
        let max_block = [2, 3, 4].map(|a| attribute(a).unwrap_or(if a == 4 { 64 } else { 1024 }) as u32);
        let max_grid = [5, 6, 7].map(|a| attribute(a).unwrap_or(if a == 5 { i32::MAX } else { 65535 }) as u32);
        let kernel_max = meta.reqntid.or(meta.maxntid).map(|d| d.iter().product::<u32>()).unwrap_or(u32::MAX);
        let max_threads = (attribute(1).unwrap_or(1024) as u32).min(kernel_max);
        let threads = block.iter().map(|&b| b as u64).product::<u64>();
        let bad_block = block.iter().zip(max_block).any(|(&b, m)| b == 0 || b > m) || threads > max_threads as u64;
        let bad_grid = grid.iter().zip(max_grid).any(|(&g, m)| g == 0 || g > m);
        let bad_shape = meta.reqntid.is_some_and(|r| r != block);
        // Shared memory beyond the device's opt-in maximum per block.
        let max_shared = attribute(97).or(attribute(8)).unwrap_or(48 << 10) as u64;
        let bad_shared = meta.static_shared_bytes + shared as u64 > max_shared;
        if bad_block || bad_grid || bad_shape || bad_shared {
            return Err(INVALID_CONFIGURATION);
        }
        Ok(meta.param_buffer_size)
    }

    /// Queues a launch (`stream` picks the list), within the pending limit.
    fn queue(&self, key: (u64, u64), child: Child, stream: u64) -> u64 {
        if PENDING.fetch_add(1, Ordering::Relaxed) >= PENDING_LIMIT.load(Ordering::Relaxed) {
            PENDING.fetch_sub(1, Ordering::Relaxed);
            return self.fail(key, LAUNCH_PENDING_COUNT_EXCEEDED);
        }
        let mut inner = self.inner();
        if stream == STREAM_TAIL_LAUNCH {
            inner.tail.push(Work::Launch(child));
        } else {
            inner.work.push(Work::Launch(child));
        }
        SUCCESS as u64
    }

    /// One system call of thread `thread` of block `block`: `a` is `(op, thread,
    /// a0..a7)`.
    fn call(&self, block: u64, a: &[u64; 10]) -> u64 {
        let key = (block, a[1]);
        let arg = &a[2..];
        let dim3 = |xy: u64, z: u64| [xy as u32, (xy >> 32) as u32, z as u32];
        match a[0] as u32 {
            OP_GET_LAST_ERROR => self.inner().errors.remove(&key).unwrap_or(SUCCESS) as u64,
            OP_PEEK_AT_LAST_ERROR => self.inner().errors.get(&key).copied().unwrap_or(SUCCESS) as u64,
            OP_GET_ERROR_STRING => error_text(arg[0] as u32).1.as_ptr() as u64,
            OP_GET_ERROR_NAME => error_text(arg[0] as u32).0.as_ptr() as u64,
            OP_GET_PARAMETER_BUFFER_V2 => {
                let Some(kernel) = self.kernel(arg[0]) else {
                    self.fail(key, INVALID_DEVICE_FUNCTION);
                    return 0;
                };
                let (grid, block) = (dim3(arg[1], arg[2]), dim3(arg[3], arg[4]));
                let size = match self.configure(kernel, grid, block, arg[5] as u32) {
                    Ok(size) => size,
                    Err(code) => {
                        self.fail(key, code);
                        return 0;
                    }
                };
                let params = vec![0u128; size.div_ceil(16).max(1)];
                let address = params.as_ptr() as u64;
                let child = Child { kernel: kernel.to_string(), grid, block, shared: arg[5] as u32, params, size };
                self.inner().buffers.insert(address, child);
                address
            }
            OP_GET_PARAMETER_BUFFER => {
                let (align, size) = (arg[0].max(1) as usize, arg[1] as usize);
                if !align.is_power_of_two() || align > 4096 {
                    self.fail(key, INVALID_VALUE);
                    return 0;
                }
                // Room to align the start beyond 16 bytes.
                let words = vec![0u128; (size + align).div_ceil(16).max(1)];
                let start = (words.as_ptr() as u64).next_multiple_of(align as u64);
                self.inner().raw.insert(start, (words, size));
                start
            }
            OP_LAUNCH_DEVICE_V2 => {
                let Some(child) = self.inner().buffers.remove(&arg[0]) else { return self.fail(key, INVALID_VALUE) };
                self.queue(key, child, arg[1])
            }
            OP_LAUNCH_DEVICE => {
                let Some(kernel) = self.kernel(arg[0]) else { return self.fail(key, INVALID_DEVICE_FUNCTION) };
                let (grid, block) = (dim3(arg[2], arg[3]), dim3(arg[4], arg[5]));
                let size = match self.configure(kernel, grid, block, arg[6] as u32) {
                    Ok(size) => size,
                    Err(code) => return self.fail(key, code),
                };
                let Some((words, given)) = self.inner().raw.remove(&arg[1]) else { return self.fail(key, INVALID_VALUE) };
                // The arguments, moved to the start of a buffer of their own.
                let mut params = vec![0u128; size.max(given).div_ceil(16).max(1)];
                let offset = (arg[1] - words.as_ptr() as u64) as usize;
                // SAFETY: both buffers hold the copied bytes (`given` from `offset`).
                unsafe { std::ptr::copy_nonoverlapping((words.as_ptr() as *const u8).add(offset), params.as_mut_ptr() as *mut u8, given) };
                let child = Child { kernel: kernel.to_string(), grid, block, shared: arg[6] as u32, params, size: size.max(given) };
                self.queue(key, child, arg[7])
            }
            // NVIDIA's H100 accepts flags 0 too, although the guide asks for
            // cudaStreamNonBlocking.
            OP_STREAM_CREATE => {
                if arg[0] == 0 {
                    return self.fail(key, INVALID_VALUE);
                }
                let stream = NEXT_STREAM.fetch_add(16, Ordering::Relaxed);
                // SAFETY: the program passes a `cudaStream_t *`.
                unsafe { (arg[0] as *mut u64).write_unaligned(stream) };
                SUCCESS as u64
            }
            OP_STREAM_DESTROY => SUCCESS as u64,
            OP_MEMCPY_ASYNC => {
                // cudaMemcpyHostToHost..cudaMemcpyDefault: all memory is the host's.
                if arg[3] > 4 {
                    return self.fail(key, INVALID_MEMCPY_DIRECTION);
                }
                if arg[2] > 0 && (arg[0] < NO_MEMORY_BELOW || arg[1] < NO_MEMORY_BELOW) {
                    return self.fail(key, INVALID_VALUE);
                }
                let work = Work::Copy { dst: arg[0], src: arg[1], count: arg[2] as usize };
                self.push(work, arg[4]);
                SUCCESS as u64
            }
            OP_MEMSET_ASYNC => {
                if arg[2] > 0 && arg[0] < NO_MEMORY_BELOW {
                    return self.fail(key, INVALID_VALUE);
                }
                self.push(Work::Fill { dst: arg[0], value: arg[1] as u8, count: arg[2] as usize }, arg[3]);
                SUCCESS as u64
            }
            OP_DEVICE_GET_LIMIT => {
                // cudaLimitStackSize, PrintfFifoSize, MallocHeapSize, DevRuntimeSyncDepth,
                // DevRuntimePendingLaunchCount: NVIDIA's defaults but the pending count.
                let value = match arg[1] {
                    0 => 1024,
                    1 => 1 << 20,
                    2 => 8 << 20,
                    3 => 2,
                    4 => PENDING_LIMIT.load(Ordering::Relaxed) as u64,
                    _ => return self.fail(key, UNSUPPORTED_LIMIT),
                };
                self.store(key, arg[0], |p| unsafe { (p as *mut u64).write_unaligned(value) })
            }
            // The device number is not checked: NVIDIA's H100 answers device 1 of 1 too.
            OP_DEVICE_GET_ATTRIBUTE => match attribute(arg[1] as usize) {
                Some(v) => self.store(key, arg[0], |p| unsafe { (p as *mut i32).write_unaligned(v) }),
                None => self.fail(key, INVALID_VALUE),
            },
            OP_GET_DEVICE => self.store(key, arg[0], |p| unsafe { (p as *mut i32).write_unaligned(0) }),
            OP_GET_DEVICE_COUNT => self.store(key, arg[0], |p| unsafe { (p as *mut i32).write_unaligned(1) }),
            OP_RUNTIME_GET_VERSION => self.store(key, arg[0], |p| unsafe { (p as *mut i32).write_unaligned(DEVICE_RUNTIME_VERSION as i32) }),
            // cudaFuncCachePreferNone, cudaSharedMemBankSizeFourByte.
            OP_GET_CACHE_CONFIG => self.store(key, arg[0], |p| unsafe { (p as *mut i32).write_unaligned(0) }),
            OP_GET_SHARED_MEM_CONFIG => self.store(key, arg[0], |p| unsafe { (p as *mut i32).write_unaligned(1) }),
            OP_MALLOC => {
                if arg[0] == 0 {
                    return self.fail(key, INVALID_VALUE);
                }
                // SAFETY: the device heap is the process heap (as device `malloc`).
                let p = unsafe { libc::malloc(arg[1] as usize) } as u64;
                // SAFETY: the program passes a `void **`.
                unsafe { (arg[0] as *mut u64).write_unaligned(p) };
                if p == 0 && arg[1] != 0 {
                    return self.fail(key, MEMORY_ALLOCATION);
                }
                SUCCESS as u64
            }
            OP_FREE => {
                // SAFETY: the pointer came from device `malloc`/`cudaMalloc` (the program's contract).
                unsafe { libc::free(arg[0] as *mut libc::c_void) };
                SUCCESS as u64
            }
            OP_NOT_SUPPORTED => {
                // SAFETY: the device runtime's PTX passes its function's name.
                let name = unsafe { std::ffi::CStr::from_ptr(arg[0] as *const libc::c_char) }.to_string_lossy();
                crate::printf::emit_stderr(format!("[libcuda] device runtime: {name} is not supported on the CPU device\n").as_bytes());
                self.fail(key, NOT_SUPPORTED)
            }
            _ => self.fail(key, NOT_SUPPORTED),
        }
    }

    fn push(&self, work: Work, stream: u64) {
        let mut inner = self.inner();
        if stream == STREAM_TAIL_LAUNCH {
            inner.tail.push(work);
        } else {
            inner.work.push(work);
        }
    }

    /// Writes a result through the program's pointer `p` (null: `cudaErrorInvalidValue`).
    fn store(&self, key: (u64, u64), p: u64, write: impl FnOnce(u64)) -> u64 {
        if p == 0 {
            return self.fail(key, INVALID_VALUE);
        }
        write(p);
        SUCCESS as u64
    }
}

/// A queued launch and its descendants are complete (or it was dropped): it no longer
/// counts as pending.
pub fn completed() {
    PENDING.fetch_sub(1, Ordering::Relaxed);
}

/// `ThreadCtx::device_runtime` (`compiler_core::devrt`): outside generated code for the
/// call (it takes locks).
///
/// # Safety
/// `ctx` as every runtime callback's; `args` points to ten values.
pub(crate) unsafe extern "C" fn device_runtime(ctx: *mut ThreadCtx, args: *const u64) -> u64 {
    // SAFETY: guaranteed by the caller; a launch's `FiberRuntime::cdp` points to its
    // `Launches`, which outlives its blocks.
    unsafe {
        crate::block::leave_kernel(ctx);
        let launches = &*(crate::block::runtime(ctx).cdp as *const Launches<'_>);
        let c = &*ctx;
        let block = c.ctaid[0] as u64 + c.nctaid[0] as u64 * (c.ctaid[1] as u64 + c.nctaid[1] as u64 * c.ctaid[2] as u64);
        let r = launches.call(block, &*(args as *const [u64; 10]));
        crate::block::enter_kernel(ctx);
        r
    }
}

/// `cudaGetErrorName` and `cudaGetErrorString` of `code` (those of NVIDIA's runtime for
/// the codes the device runtime gives; others are unrecognized).
fn error_text(code: u32) -> (&'static std::ffi::CStr, &'static std::ffi::CStr) {
    match code {
        SUCCESS => (c"cudaSuccess", c"no error"),
        INVALID_VALUE => (c"cudaErrorInvalidValue", c"invalid argument"),
        MEMORY_ALLOCATION => (c"cudaErrorMemoryAllocation", c"out of memory"),
        INVALID_CONFIGURATION => (c"cudaErrorInvalidConfiguration", c"invalid configuration argument"),
        INVALID_MEMCPY_DIRECTION => (c"cudaErrorInvalidMemcpyDirection", c"invalid copy direction for memcpy"),
        LAUNCH_MAX_DEPTH_EXCEEDED => (c"cudaErrorLaunchMaxDepthExceeded", c"launch would exceed maximum depth of nested launches"),
        LAUNCH_PENDING_COUNT_EXCEEDED => {
            (c"cudaErrorLaunchPendingCountExceeded", c"launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount")
        }
        INVALID_DEVICE_FUNCTION => (c"cudaErrorInvalidDeviceFunction", c"invalid device function"),
        UNSUPPORTED_LIMIT => (c"cudaErrorUnsupportedLimit", c"limit is not supported on this architecture"),
        NOT_SUPPORTED => (c"cudaErrorNotSupported", c"operation not supported"),
        _ => (c"unrecognized error code", c"unrecognized error code"),
    }
}

/// The bytes of device-side copies and fills go through the kernel's own process with
/// `process_vm_readv`/`process_vm_writev`, which fail with `EFAULT` on an address that is
/// not mapped (or not writable) instead of faulting: these run after the launching grid,
/// outside the fault handler's protection of generated code, and a bad address must end
/// the launch with `CUDA_ERROR_ILLEGAL_ADDRESS`, as on a GPU, not the process.
const CHUNK: usize = 1 << 16;

/// Device-side copies and fills naming an address in the first page (null included) are
/// refused with `cudaErrorInvalidValue` when issued, as NVIDIA's device runtime does (seen
/// on an H100 for 0 and 0x10); other bad addresses fail the launch when the work runs
/// (`cudaErrorIllegalAddress`, as there).
const NO_MEMORY_BELOW: u64 = 4096;

/// Moves `count` bytes from `from` to `to` within this process, or fails on a bad address.
fn move_bytes(to: u64, from: u64, count: usize, read: bool) -> Result<(), DeviceError> {
    let mut done = 0usize;
    while done < count {
        let n = (count - done).min(CHUNK);
        let local = libc::iovec { iov_base: (if read { to } else { from } + done as u64) as *mut libc::c_void, iov_len: n };
        let remote = libc::iovec { iov_base: (if read { from } else { to } + done as u64) as *mut libc::c_void, iov_len: n };
        // SAFETY: `local` is this function's caller's buffer of at least `n` bytes; the
        // kernel checks `remote` and reports EFAULT instead of touching a bad address.
        let moved = unsafe {
            if read {
                libc::process_vm_readv(libc::getpid(), &local, 1, &remote, 1, 0)
            } else {
                libc::process_vm_writev(libc::getpid(), &local, 1, &remote, 1, 0)
            }
        };
        if moved <= 0 {
            return Err(DeviceError::IllegalAddress);
        }
        done += moved as usize;
    }
    Ok(())
}

/// A device-side `cudaMemcpyAsync` of `count` bytes (through a host buffer, so that a bad
/// source or destination is reported rather than dereferenced).
pub(crate) fn checked_copy(dst: u64, src: u64, count: usize) -> Result<(), DeviceError> {
    let mut buf = vec![0u8; count.min(CHUNK)];
    let mut done = 0usize;
    while done < count {
        let n = (count - done).min(CHUNK);
        move_bytes(buf.as_mut_ptr() as u64, src + done as u64, n, true)?;
        move_bytes(dst + done as u64, buf.as_ptr() as u64, n, false)?;
        done += n;
    }
    Ok(())
}

/// A device-side `cudaMemsetAsync` of `count` bytes of `value`.
pub(crate) fn checked_fill(dst: u64, value: u8, count: usize) -> Result<(), DeviceError> {
    let buf = vec![value; count.min(CHUNK)];
    let mut done = 0usize;
    while done < count {
        let n = (count - done).min(CHUNK);
        move_bytes(dst + done as u64, buf.as_ptr() as u64, n, false)?;
        done += n;
    }
    Ok(())
}

#[cfg(test)]
mod checked_tests {
    #[test]
    fn copies_and_fills_report_bad_addresses() {
        let src: Vec<u8> = (0..200_000u32).map(|i| i as u8).collect();
        let mut dst = vec![0u8; src.len()];
        super::checked_copy(dst.as_mut_ptr() as u64, src.as_ptr() as u64, src.len()).unwrap();
        assert_eq!(dst, src);
        super::checked_fill(dst.as_mut_ptr() as u64 + 7, 0x5a, 100_000).unwrap();
        assert!(dst[7..100_007].iter().all(|b| *b == 0x5a) && dst[6] == 6 && dst[100_007] == src[100_007]);
        let bad = 16u64;
        assert!(super::checked_copy(bad, src.as_ptr() as u64, 8).is_err());
        assert!(super::checked_copy(dst.as_mut_ptr() as u64, bad, 8).is_err());
        assert!(super::checked_fill(bad, 1, 8).is_err());
        // Read-only memory is not a destination.
        assert!(super::checked_fill(super::checked_fill as *const () as usize as u64, 0, 4).is_err());
    }
}
