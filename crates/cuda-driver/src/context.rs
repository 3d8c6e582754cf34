//! Contexts: primary contexts, created contexts, the per-thread context stack, limits,
//! cache configuration, context-local storage (CLS) and sticky errors.
//!
//! Rules implemented (CUDA driver API reference, "Context Management" and "Primary
//! Context Management"):
//! - each thread has a stack of contexts; the top is the *current* context.
//!   `cuCtxPushCurrent` pushes, `cuCtxPopCurrent` pops (empty -> `INVALID_CONTEXT`),
//!   `cuCtxSetCurrent(c)` replaces the top (pushes when empty), `cuCtxSetCurrent(NULL)`
//!   pops the top (a no-op when empty), `cuCtxCreate` pushes the new context;
//! - `cuCtxDestroy` pops the context if it is current to the calling thread; other threads
//!   that still have it current get `CUDA_ERROR_CONTEXT_IS_DESTROYED`;
//! - each device has one primary context whose handle never changes (cudart reads it
//!   before retaining it). `Retain` counts up and activates, `Release` counts down and
//!   deactivates at 0, `Reset` deactivates at once (keeping the count). Deactivating frees everything the
//!   context owns and calls the CLS destructors. An inactive primary context may be made
//!   current, but calls that need the context then answer `CONTEXT_IS_DESTROYED`;
//! - a destroyed context may still be pushed or made current (NVIDIA's driver accepts the
//!   stale handle); calls that need it then answer `CONTEXT_IS_DESTROYED`;
//! - calls that need a current context and have none answer `INVALID_CONTEXT`;
//! - a kernel fault stores a sticky error in the context; every later call that needs the
//!   context answers it, until the context is destroyed or reset.
//!
//! CLS is cudart's per-context storage (export table CONTEXT_LOCAL_STORAGE): values keyed
//! by an opaque key, each with an optional destructor called at teardown.

use std::cell::{Cell, RefCell};
use std::collections::HashMap;
use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::diag::fail;
use crate::handle::Lookup;
use crate::{CtxHandle, CuError, CuResult, Driver};

/// A CLS destructor: called with (context, key, value) when the context is destroyed or
/// reset. The ABI wraps cudart's C function pointer in one of these.
pub type ClsDestructor = Box<dyn FnOnce(CtxHandle, usize, usize) + Send>;

/// `CUlimit` values.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum Limit {
    StackSize = 0,
    PrintfFifoSize = 1,
    MallocHeapSize = 2,
    DevRuntimeSyncDepth = 3,
    DevRuntimePendingLaunchCount = 4,
    MaxL2FetchGranularity = 5,
    PersistingL2CacheSize = 6,
    ShmemSize = 7,
    CigEnabled = 8,
    CigShmemFallbackEnabled = 9,
}

const LIMIT_COUNT: usize = 10;
/// NVIDIA's defaults: 1 KiB stack, 1 MiB printf FIFO, 8 MiB malloc heap, CDP sync depth 2,
/// 2048 pending launches, 64-byte L2 fetch granularity.
const DEFAULT_LIMITS: [usize; LIMIT_COUNT] = [1024, 1 << 20, 8 << 20, 2, 2048, 64, 0, 0, 0, 0];

/// Valid `CU_CTX_*` creation flags: scheduling (0..=4), MAP_HOST 0x08, LMEM_RESIZE_TO_MAX
/// 0x10, COREDUMP_ENABLE 0x20, USER_COREDUMP_ENABLE 0x40, SYNC_MEMOPS 0x80.
const CTX_FLAGS_MASK: u32 = 0xFF;

fn check_ctx_flags(flags: u32) -> CuResult<()> {
    let sched = flags & 0x7;
    if flags & !CTX_FLAGS_MASK != 0 || sched == 3 || sched > 4 {
        return Err(fail(CuError::INVALID_VALUE, format_args!("context flags {flags:#x} are invalid")));
    }
    Ok(())
}

struct ClsEntry {
    key: usize,
    value: usize,
    dtor: Option<ClsDestructor>,
}

struct CtxState {
    active: bool,
    /// Primary contexts: the retain count.
    refcount: u32,
    flags: u32,
    limits: [usize; LIMIT_COUNT],
    cache_config: u32,
    shmem_config: u32,
    cls: Vec<ClsEntry>,
}

impl CtxState {
    fn fresh(active: bool, flags: u32) -> CtxState {
        CtxState { active, refcount: 0, flags, limits: DEFAULT_LIMITS, cache_config: 0, shmem_config: 0, cls: Vec::new() }
    }
}

/// A context: a device plus the objects and state created in it.
pub struct Context {
    pub handle: CtxHandle,
    /// Device ordinal.
    pub device: usize,
    pub primary: bool,
    /// Non-zero: the sticky error code a kernel fault left.
    sticky: AtomicU32,
    state: Mutex<CtxState>,
    /// The legacy default stream and every other stream's queue.
    queues: crate::exec::ContextQueues,
    /// Set for the context of a green context (`cuCtxFromGreenCtx`): its SM partition.
    pub(crate) green: Option<crate::green::GreenOf>,
}

impl Context {
    fn state(&self) -> MutexGuard<'_, CtxState> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The sticky error, if a kernel faulted in this context.
    pub fn sticky_error(&self) -> Option<CuError> {
        CuError::from_code(self.sticky.load(Ordering::Acquire))
    }

    /// Records a kernel fault; later calls needing the context answer it.
    pub(crate) fn set_sticky(&self, err: CuError) {
        let _ = self.sticky.compare_exchange(0, err.code(), Ordering::AcqRel, Ordering::Acquire);
    }

    /// The context's stream queues.
    pub(crate) fn queues(&self) -> &crate::exec::ContextQueues {
        &self.queues
    }

    /// Whether the context can be used (primary contexts: retained).
    pub fn is_active(&self) -> bool {
        self.state().active
    }

    /// The context's creation flags.
    pub fn flags(&self) -> u32 {
        self.state().flags
    }

    /// A usable context: active and not poisoned.
    fn check_usable(&self) -> CuResult<()> {
        if !self.is_active() {
            return Err(fail(CuError::CONTEXT_IS_DESTROYED, format_args!("context {:#x} is an inactive primary context", self.handle.0)));
        }
        match self.sticky_error() {
            Some(err) => Err(fail(err, format_args!("context {:#x} has a sticky error from an earlier kernel fault", self.handle.0))),
            None => Ok(()),
        }
    }
}

/// Per-thread context stacks, one per driver instance (tests build several drivers).
type Stacks = HashMap<u64, Vec<CtxHandle>>;

thread_local! {
    // A plain pointer, not a `RefCell<HashMap>`: a thread-local with a destructor becomes
    // inaccessible once the thread's TLS destructors have run, and glibc's `exit()` runs
    // them *before* `atexit` handlers, where cudart still calls the driver (CLS delete,
    // `cuDevicePrimaryCtxRelease`) and expects its context to be current.
    static STACKS: Cell<*mut RefCell<Stacks>> = const { Cell::new(std::ptr::null_mut()) };
    static STACKS_GUARD: StacksGuard = const { StacksGuard };
}

/// Frees a thread's stacks when it exits, except on the main thread (see `STACKS`).
struct StacksGuard;

impl Drop for StacksGuard {
    fn drop(&mut self) {
        if is_main_thread() {
            return;
        }
        let ptr = STACKS.with(|cell| cell.replace(std::ptr::null_mut()));
        if !ptr.is_null() {
            // SAFETY: `ptr` came from `Box::into_raw` in `stacks_of_this_thread` and was just
            // unpublished, so nothing else can reach it.
            drop(unsafe { Box::from_raw(ptr) });
        }
    }
}

fn is_main_thread() -> bool {
    // SAFETY: both calls have no preconditions.
    unsafe { libc::gettid() == libc::getpid() }
}

/// This thread's stacks, created on first use.
fn stacks_of_this_thread() -> &'static RefCell<Stacks> {
    let mut ptr = STACKS.with(|cell| cell.get());
    if ptr.is_null() {
        ptr = Box::into_raw(Box::new(RefCell::new(Stacks::new())));
        STACKS.with(|cell| cell.set(ptr));
        // Registers the guard's destructor; fails harmlessly during thread teardown (the
        // map then lives until the process ends).
        let _ = STACKS_GUARD.try_with(|_| ());
    }
    // SAFETY: the map is only freed by this thread's guard, at thread exit, after it has
    // unpublished the pointer; the reference is used within one `with_stack` call, and a
    // call after the guard ran finds a null pointer and allocates a fresh map.
    unsafe { &*ptr }
}

/// `(CUcontext)-1`: "the current context" in the CLS functions.
const CURRENT_CTX_SENTINEL: u64 = u64::MAX;

impl Driver {
    fn with_stack<R>(&self, f: impl FnOnce(&mut Vec<CtxHandle>) -> R) -> R {
        f(stacks_of_this_thread().borrow_mut().entry(self.id).or_default())
    }

    /// The context a handle names (`INVALID_CONTEXT` for null, stale or foreign handles).
    pub(crate) fn context(&self, ctx: CtxHandle) -> CuResult<Arc<Context>> {
        self.contexts.get(ctx).map_err(|why| fail(CuError::INVALID_CONTEXT, format_args!("context handle {:#x}: {why:?}", ctx.0)))
    }

    /// The current context, without checking that it is usable.
    fn current_context_any(&self) -> CuResult<Arc<Context>> {
        let top = self.with_stack(|stack| stack.last().copied());
        let Some(top) = top else {
            return Err(fail(CuError::INVALID_CONTEXT, format_args!("no current context on this thread")));
        };
        self.contexts.get(top).map_err(|why| match why {
            Lookup::Stale => fail(CuError::CONTEXT_IS_DESTROYED, format_args!("the current context {:#x} was destroyed", top.0)),
            _ => fail(CuError::INVALID_CONTEXT, format_args!("current context {:#x}: {why:?}", top.0)),
        })
    }

    /// The current context for a call that uses it: active, with no sticky error.
    pub fn current_context(&self) -> CuResult<Arc<Context>> {
        let ctx = self.current_context_any()?;
        self.usable(&ctx)?;
        Ok(ctx)
    }

    /// `ctx.check_usable()`; when it reports a sticky error, the device output of the
    /// launches that led to it (a failed `assert`'s message) is written first, as CUDA
    /// prints it by the time the error is reported.
    pub(crate) fn usable(&self, ctx: &Context) -> CuResult<()> {
        let r = ctx.check_usable();
        if r.is_err() && ctx.sticky_error().is_some() {
            self.flush_output(ctx);
        }
        r
    }

    /// `ctx`, or the current context when `ctx` is NULL; checked usable.
    pub(crate) fn context_or_current(&self, ctx: CtxHandle) -> CuResult<Arc<Context>> {
        let ctx = if ctx.is_null() { self.current_context_any()? } else { self.context(ctx)? };
        self.usable(&ctx)?;
        Ok(ctx)
    }

    pub(crate) fn new_context(&self, device: usize, primary: bool, flags: u32, active: bool, green: Option<crate::green::GreenOf>) -> CtxHandle {
        self.contexts
            .insert_with(|handle| {
                let backend = self.devices[device].backend.clone();
                Arc::new_cyclic(|weak| Context {
                    handle,
                    device,
                    primary,
                    sticky: AtomicU32::new(0),
                    state: Mutex::new(CtxState::fresh(active, flags)),
                    queues: crate::exec::ContextQueues::new(weak.clone(), backend),
                    green,
                })
            })
            .0
    }

    // ---- created contexts -------------------------------------------------------------

    /// `cuCtxCreate_v2` (and the CUDA 13 `cuCtxCreate_v4` with no execution affinity or
    /// CIG parameters): creates a context on `dev` and pushes it.
    pub fn ctx_create(&self, flags: u32, dev: i32) -> CuResult<CtxHandle> {
        check_ctx_flags(flags)?;
        self.device_slot(dev)?;
        let handle = self.new_context(dev as usize, false, flags, true, None);
        self.with_stack(|stack| stack.push(handle));
        Ok(handle)
    }

    /// `cuCtxDestroy_v2`: frees everything the context owns (CLS destructors first) and pops
    /// it if it is current here. Primary contexts cannot be destroyed (`INVALID_CONTEXT`).
    pub fn ctx_destroy(&self, ctx: CtxHandle) -> CuResult<()> {
        if ctx.is_null() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxDestroy: NULL context")));
        }
        let context = self.context(ctx)?;
        // A green context's context is, in NVIDIA's words, "a normal primary context"
        // (Green Contexts, cuCtxFromGreenCtx): only cuGreenCtxDestroy ends it.
        if context.primary || context.green.is_some() {
            return Err(fail(CuError::INVALID_CONTEXT, format_args!("cuCtxDestroy on a primary or green context")));
        }
        self.destroy_context_object(&context)
    }

    /// Frees everything `context` owns, removes it and pops it if it is current here.
    pub(crate) fn destroy_context_object(&self, context: &Context) -> CuResult<()> {
        let ctx = context.handle;
        self.teardown(context);
        // Teardown keeps the legacy stream (a primary context is used again after it);
        // this one gets no more work, so its worker ends now rather than after its idle
        // timeout (a program creating contexts in a loop would pile up threads).
        context.queues().legacy.orphan();
        context.queues().records.orphan();
        self.contexts.remove(ctx).map_err(|_| CuError::INVALID_CONTEXT)?;
        self.with_stack(|stack| {
            if stack.last() == Some(&ctx) {
                stack.pop();
            }
        });
        Ok(())
    }

    // ---- the context stack ------------------------------------------------------------

    /// `cuCtxPushCurrent_v2`.
    pub fn ctx_push_current(&self, ctx: CtxHandle) -> CuResult<()> {
        if ctx.is_null() {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxPushCurrent: NULL context")));
        }
        self.known_context(ctx)?;
        self.with_stack(|stack| stack.push(ctx));
        Ok(())
    }

    /// `cuCtxPopCurrent_v2`: the popped context; `INVALID_CONTEXT` when the stack is empty.
    pub fn ctx_pop_current(&self) -> CuResult<CtxHandle> {
        self.with_stack(|stack| stack.pop()).ok_or_else(|| fail(CuError::INVALID_CONTEXT, format_args!("cuCtxPopCurrent: context stack is empty")))
    }

    /// `cuCtxSetCurrent`: replaces the top of the stack; NULL pops the top.
    pub fn ctx_set_current(&self, ctx: CtxHandle) -> CuResult<()> {
        if ctx.is_null() {
            self.with_stack(|stack| stack.pop());
            return Ok(());
        }
        self.known_context(ctx)?;
        self.with_stack(|stack| match stack.last_mut() {
            Some(top) => *top = ctx,
            None => stack.push(ctx),
        });
        Ok(())
    }

    /// A handle that may be made current: a live context, or one destroyed since (NVIDIA's
    /// driver accepts it; the calls made under it then answer `CONTEXT_IS_DESTROYED`).
    fn known_context(&self, ctx: CtxHandle) -> CuResult<()> {
        match self.contexts.get(ctx) {
            Ok(_) => Ok(()),
            Err(Lookup::Stale) if !self.green_ctxs.was_green(ctx) => Ok(()),
            Err(why) => Err(fail(CuError::INVALID_CONTEXT, format_args!("context handle {:#x}: {why:?}", ctx.0))),
        }
    }

    /// `cuCtxGetCurrent`: the top of the stack, NULL when empty.
    pub fn ctx_get_current(&self) -> CtxHandle {
        self.with_stack(|stack| stack.last().copied()).unwrap_or(CtxHandle::NULL)
    }

    // ---- queries on the current (or a given) context -------------------------------------

    /// `cuCtxGetDevice` (`ctx` NULL) and `cuCtxGetDevice_v2(dev, ctx)`.
    pub fn ctx_get_device(&self, ctx: CtxHandle) -> CuResult<i32> {
        Ok(self.context_or_current(ctx)?.device as i32)
    }

    /// `cuCtxSynchronize` (`ctx` NULL) and `cuCtxSynchronize_v2(ctx)`: waits for the
    /// device; answers the context's sticky error if a kernel faulted.
    pub fn ctx_synchronize(&self, ctx: CtxHandle) -> CuResult<()> {
        let context = self.context_or_current(ctx)?;
        self.capture_forbid_ctx_sync()?;
        self.device_synchronize(&context)
    }

    /// Waits for all work of every stream of the context, writes device output, and
    /// reports the sticky error or the first pending asynchronous error.
    pub(crate) fn device_synchronize(&self, context: &Context) -> CuResult<()> {
        let pending = context.queues().drain_all();
        self.pools_after_sync(None);
        let device = &self.devices[context.device].backend;
        let backend = device.synchronize();
        self.flush_output(context);
        backend.map_err(|e| self.device_error(context, e))?;
        if let Some(err) = context.sticky_error() {
            return Err(fail(err, format_args!("context {:#x} has a sticky error from an earlier kernel fault", context.handle.0)));
        }
        match pending {
            Some(err) => Err(fail(err, format_args!("an asynchronous operation failed"))),
            None => Ok(()),
        }
    }

    /// Waits for all work of every stream of the context without reporting anything
    /// (before memory or modules that queued work may use go away).
    pub(crate) fn drain_context(&self, context: &Context) {
        context.queues().drain_all_quiet();
    }

    /// `cuCtxGetApiVersion`: 3020 (the `_v2` context API); NULL means current.
    pub fn ctx_get_api_version(&self, ctx: CtxHandle) -> CuResult<u32> {
        if ctx.is_null() {
            self.current_context_any()?;
        } else {
            self.context(ctx)?;
        }
        Ok(3020)
    }

    /// `cuCtxGetFlags`.
    pub fn ctx_get_flags(&self) -> CuResult<u32> {
        Ok(self.current_context()?.flags())
    }

    /// `cuCtxSetFlags` (CUDA 12.1).
    pub fn ctx_set_flags(&self, flags: u32) -> CuResult<()> {
        check_ctx_flags(flags)?;
        self.current_context()?.state().flags = flags;
        Ok(())
    }

    /// `cuCtxGetId`: a process-unique id (the handle value).
    pub fn ctx_get_id(&self, ctx: CtxHandle) -> CuResult<u64> {
        if !ctx.is_null() && matches!(self.contexts.get(ctx), Err(Lookup::Stale)) {
            return Err(fail(CuError::CONTEXT_IS_DESTROYED, format_args!("cuCtxGetId: context {:#x} was destroyed", ctx.0)));
        }
        Ok(self.context_or_current(ctx)?.handle.0 & 0x00FF_FFFF_FFFF_FFFF)
    }

    /// `cuCtxGetLimit`.
    pub fn ctx_get_limit(&self, limit: i32) -> CuResult<usize> {
        let ctx = self.current_context()?;
        let index = usize::try_from(limit)
            .ok()
            .filter(|&i| i < LIMIT_COUNT)
            .ok_or_else(|| fail(CuError::INVALID_VALUE, format_args!("cuCtxGetLimit: unknown limit {limit}")))?;
        let value = ctx.state().limits[index];
        Ok(value)
    }

    /// `cuCtxSetLimit`: values are stored and reported back; CIG and SHMEM limits are
    /// not supported (`CUDA_ERROR_UNSUPPORTED_LIMIT`).
    pub fn ctx_set_limit(&self, limit: i32, value: usize) -> CuResult<()> {
        let ctx = self.current_context()?;
        let index = match limit {
            // CU_LIMIT_DEV_RUNTIME_SYNC_DEPTH went with device-side synchronization
            // (CUDA 12): NVIDIA's driver answers UNSUPPORTED_LIMIT for it.
            0..=2 | 4..=6 => limit as usize,
            3 | 7..=9 => return Err(fail(CuError::UNSUPPORTED_LIMIT, format_args!("cuCtxSetLimit: limit {limit} is not supported"))),
            _ => return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxSetLimit: unknown limit {limit}"))),
        };
        if limit == Limit::MaxL2FetchGranularity as i32 && value > 128 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxSetLimit: L2 fetch granularity {value} > 128")));
        }
        ctx.state().limits[index] = value;
        if limit == Limit::DevRuntimePendingLaunchCount as i32 {
            self.devices[ctx.device].backend.set_pending_launch_limit(value);
        }
        Ok(())
    }

    /// `cuCtxGetCacheConfig`.
    pub fn ctx_get_cache_config(&self) -> CuResult<u32> {
        Ok(self.current_context()?.state().cache_config)
    }

    /// `cuCtxSetCacheConfig`: `CU_FUNC_CACHE_PREFER_NONE..=PREFER_EQUAL` (0..=3), stored.
    pub fn ctx_set_cache_config(&self, config: u32) -> CuResult<()> {
        let ctx = self.current_context()?;
        if config > 3 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxSetCacheConfig: {config}")));
        }
        ctx.state().cache_config = config;
        Ok(())
    }

    /// `cuCtxGetSharedMemConfig` (deprecated).
    pub fn ctx_get_shared_mem_config(&self) -> CuResult<u32> {
        Ok(self.current_context()?.state().shmem_config)
    }

    /// `cuCtxSetSharedMemConfig` (deprecated): bank size 0..=2, stored.
    pub fn ctx_set_shared_mem_config(&self, config: u32) -> CuResult<()> {
        let ctx = self.current_context()?;
        if config > 2 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxSetSharedMemConfig: {config}")));
        }
        ctx.state().shmem_config = config;
        Ok(())
    }

    /// `cuCtxGetStreamPriorityRange`: (least, greatest) = (0, -5), as on recent GPUs.
    pub fn ctx_get_stream_priority_range(&self) -> CuResult<(i32, i32)> {
        self.current_context()?;
        Ok((crate::stream::LEAST_PRIORITY, crate::stream::GREATEST_PRIORITY))
    }

    // ---- primary contexts -------------------------------------------------------------

    /// The primary context of `dev`, created (inactive) on first use. cudart's
    /// CUDART_INTERFACE slot 2 answers this without retaining.
    pub fn primary_ctx_handle(&self, dev: i32) -> CuResult<CtxHandle> {
        let slot = self.device_slot(dev)?;
        Ok(*slot.primary.get_or_init(|| self.new_context(dev as usize, true, 0, false, None)))
    }

    fn primary_context(&self, dev: i32) -> CuResult<Arc<Context>> {
        let handle = self.primary_ctx_handle(dev)?;
        self.context(handle)
    }

    /// `cuDevicePrimaryCtxRetain`: counts up, activating the context at the first retain.
    pub fn primary_ctx_retain(&self, dev: i32) -> CuResult<CtxHandle> {
        let ctx = self.primary_context(dev)?;
        let mut state = ctx.state();
        state.refcount = state.refcount.saturating_add(1);
        state.active = true;
        Ok(ctx.handle)
    }

    /// `cuDevicePrimaryCtxRelease_v2`: counts down; at 0 the context is deactivated
    /// (everything freed, CLS destructors called). Releasing at 0 -> `INVALID_CONTEXT`.
    pub fn primary_ctx_release(&self, dev: i32) -> CuResult<()> {
        let ctx = self.primary_context(dev)?;
        let now_idle = {
            let mut state = ctx.state();
            if state.refcount == 0 {
                return Err(fail(CuError::INVALID_CONTEXT, format_args!("cuDevicePrimaryCtxRelease: device {dev} primary context is not retained")));
            }
            state.refcount -= 1;
            state.refcount == 0
        };
        if now_idle && ctx.is_active() {
            self.teardown(&ctx);
            ctx.state().active = false;
        }
        Ok(())
    }

    /// `cuDevicePrimaryCtxSetFlags_v2`.
    pub fn primary_ctx_set_flags(&self, dev: i32, flags: u32) -> CuResult<()> {
        check_ctx_flags(flags)?;
        self.primary_context(dev)?.state().flags = flags;
        Ok(())
    }

    /// `cuDevicePrimaryCtxGetState`: (flags, active).
    pub fn primary_ctx_get_state(&self, dev: i32) -> CuResult<(u32, bool)> {
        let ctx = self.primary_context(dev)?;
        let state = ctx.state();
        Ok((state.flags, state.active))
    }

    /// `cuDevicePrimaryCtxReset_v2`: frees everything, calls CLS destructors, clears the
    /// sticky error and deactivates the context (the next retain activates it again). The
    /// handle stays the same, and so does the retain count: "resetting the primary context
    /// does not release it", and holders may still call `cuDevicePrimaryCtxRelease`.
    pub fn primary_ctx_reset(&self, dev: i32) -> CuResult<()> {
        let ctx = self.primary_context(dev)?;
        self.teardown(&ctx);
        ctx.state().active = false;
        Ok(())
    }

    /// Frees everything a context owns and resets its state (flags kept). CLS destructors
    /// run first, with no lock held, while the context is still valid.
    fn teardown(&self, ctx: &Context) {
        self.end_orphaned_captures(Some(ctx.handle), None);
        self.drain_context(ctx);
        let _ = self.devices[ctx.device].backend.synchronize();
        self.flush_output(ctx);
        let entries = std::mem::take(&mut ctx.state().cls);
        for entry in entries.into_iter().rev() {
            if let Some(dtor) = entry.dtor {
                dtor(ctx.handle, entry.key, entry.value);
            }
        }
        self.release_context_objects(ctx.handle);
        self.forget_peers(ctx.handle);
        let mut state = ctx.state();
        let flags = state.flags;
        let (active, refcount) = (state.active, state.refcount);
        *state = CtxState::fresh(active, flags);
        state.refcount = refcount;
        ctx.sticky.store(0, Ordering::Release);
    }

    /// Destroys the streams, events, libraries' modules, modules and memory of a context.
    fn release_context_objects(&self, ctx: CtxHandle) {
        for (handle, stream) in self.streams.all() {
            if stream.ctx == ctx {
                let _ = self.streams.remove(handle);
            }
        }
        if let Ok(context) = self.context(ctx) {
            context.queues().orphan_all();
        }
        for (handle, event) in self.events.all() {
            if event.ctx == ctx {
                let _ = self.events.remove(handle);
            }
        }
        for (_, library) in self.libraries.all() {
            library.forget_context(ctx);
        }
        for (handle, module) in self.modules.all() {
            if module.ctx == ctx {
                self.unload_module_object(handle, &module);
            }
        }
        for allocation in self.memory.remove_context(ctx) {
            self.release_allocation(&allocation);
        }
    }

    // ---- context-local storage --------------------------------------------------------

    fn cls_context(&self, ctx: CtxHandle) -> CuResult<Arc<Context>> {
        if ctx.is_null() || ctx.0 == CURRENT_CTX_SENTINEL {
            self.current_context_any()
        } else {
            self.context(ctx)
        }
    }

    /// CLS put: stores `value` (replacing an earlier value of `key`, whose destructor is
    /// dropped uncalled) with an optional destructor. `ctx` NULL or -1 = current.
    pub fn cls_put(&self, ctx: CtxHandle, key: usize, value: usize, dtor: Option<ClsDestructor>) -> CuResult<()> {
        let ctx = self.cls_context(ctx)?;
        let mut state = ctx.state();
        state.cls.retain(|e| e.key != key);
        state.cls.push(ClsEntry { key, value, dtor });
        Ok(())
    }

    /// CLS delete: removes `key` without calling its destructor; missing -> `INVALID_VALUE`.
    pub fn cls_delete(&self, ctx: CtxHandle, key: usize) -> CuResult<()> {
        let ctx = self.cls_context(ctx)?;
        let mut state = ctx.state();
        let before = state.cls.len();
        state.cls.retain(|e| e.key != key);
        if state.cls.len() == before {
            return Err(CuError::INVALID_VALUE);
        }
        Ok(())
    }

    /// CLS get: the stored value; a missing key answers `INVALID_VALUE` (cudart's "miss").
    pub fn cls_get(&self, ctx: CtxHandle, key: usize) -> CuResult<*mut c_void> {
        let ctx = self.cls_context(ctx)?;
        let state = ctx.state();
        state.cls.iter().find(|e| e.key == key).map(|e| e.value as *mut c_void).ok_or(CuError::INVALID_VALUE)
    }

    /// Turns a backend run-time error into a `CuError`, poisoning the context for faults.
    pub(crate) fn device_error(&self, ctx: &Context, err: backend_api::DeviceError) -> CuError {
        let code = crate::error::from_device(&err);
        if code.is_sticky() {
            ctx.set_sticky(code);
        }
        fail(code, format_args!("device {}: {err}", ctx.device))
    }
}
