//! Green contexts and device resources (CUDA Driver API reference, "Green Contexts",
//! CUDA 12.4+; `cuStreamGetDevResource` and `cuDevSmResourceSplit` are CUDA 13.1, whose
//! reference describes them; CUDA 13.0's cuda.h does not have them).
//!
//! The flow NVIDIA documents: take a device's SM resource (`cuDeviceGetDevResource`),
//! split it (`cuDevSmResourceSplitByCount`), turn some of the pieces into a descriptor
//! (`cuDevResourceGenerateDesc`) and create a green context over it (`cuGreenCtxCreate`),
//! then use it through its `CUcontext` (`cuCtxFromGreenCtx`) or its own streams
//! (`cuGreenCtxStreamCreate`).
//!
//! Here:
//! - the SMs of a device are what `CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT` reports. On
//!   a device whose SMs have no hierarchy (the CPU device: an SM is a worker slot) a
//!   partition may be any size, so `minSmPartitionSize` and `smCoscheduledAlignment` are
//!   both 1 ([`MIN_PARTITION`], [`COSCHEDULED_ALIGNMENT`]), and a split by count makes
//!   groups of exactly `max(minCount, 1)` SMs;
//! - a green context is a context of its own (its own queues, legacy stream, modules and
//!   allocations, like a created context), marked with its SM count ([`GreenOf`]). It
//!   retains the device's primary context while it lives, as the reference says. Events
//!   of the device's primary context and of its other green contexts count as "from the
//!   same primary context" for `cuGreenCtxRecordEvent`;
//! - the partition is accounted, not enforced: the resource queries answer the green
//!   context's SM count, but its launches run on all of the device's workers. NVIDIA
//!   itself guarantees no isolation ("it is possible for the workload to run on more SMs
//!   than was provisioned (but never less)", Green Contexts overview).
//!
//! Where the reference names no code for a misuse, the choice is written at the check.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use crate::context::Context;
use crate::diag::fail;
use crate::handle::{GreenCtxHandle, HandleTable, Lookup, ResourceDescHandle};
use crate::{CtxHandle, CuError, CuResult, Driver, EventHandle, StreamHandle};

/// `CU_DEV_RESOURCE_TYPE_SM`, the only resource type green contexts take in CUDA 13.0.
pub const RESOURCE_TYPE_SM: u32 = 1;
/// `minSmPartitionSize` on devices without an SM hierarchy (see the module docs).
pub const MIN_PARTITION: u32 = 1;
/// `smCoscheduledAlignment` on devices without an SM hierarchy.
pub const COSCHEDULED_ALIGNMENT: u32 = 1;
/// `CU_DEV_SM_RESOURCE_SPLIT_IGNORE_SM_COSCHEDULING | ..._MAX_POTENTIAL_CLUSTER_SIZE`:
/// both accepted; with no SM hierarchy neither changes a split.
const SPLIT_FLAGS: u32 = 0x1 | 0x2;
/// `CU_GREEN_CTX_DEFAULT_STREAM`, required by `cuGreenCtxCreate`.
pub const GREEN_CTX_DEFAULT_STREAM: u32 = 0x1;
/// `CU_STREAM_NON_BLOCKING`, required by `cuGreenCtxStreamCreate`.
const STREAM_NON_BLOCKING: u32 = 0x1;

/// Where a resource came from: what `cuDevResourceGenerateDesc` and the split check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// A whole device, context or green context (`cu*GetDevResource`): may be split.
    Whole,
    /// Group `index` of split instance `split` (the remainder is index `u32::MAX`).
    Split { split: u64, index: u32 },
}

/// A `CUdevResource` as the driver sees it. `ours` is false for a structure this driver
/// did not fill in (the ABI finds no mark of ours in its private bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DevResource {
    pub ty: u32,
    pub sm_count: u32,
    pub min_partition: u32,
    pub alignment: u32,
    pub device: i32,
    pub origin: Origin,
    pub ours: bool,
}

impl DevResource {
    fn sm(device: usize, sm_count: u32, origin: Origin) -> DevResource {
        DevResource {
            ty: RESOURCE_TYPE_SM,
            sm_count,
            min_partition: MIN_PARTITION,
            alignment: COSCHEDULED_ALIGNMENT,
            device: device as i32,
            origin,
            ours: true,
        }
    }
}

/// `CU_DEV_SM_RESOURCE_GROUP_BACKFILL`, the one group flag (accepted; with no SM
/// hierarchy there is nothing to relax).
const GROUP_FLAGS: u32 = 0x1;

/// One group's `CU_DEV_SM_RESOURCE_GROUP_PARAMS` (`cuDevSmResourceSplit`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SmGroupParams {
    pub sm_count: u32,
    pub coscheduled_sm_count: u32,
    pub preferred_coscheduled_sm_count: u32,
    pub flags: u32,
}

/// What a green context's `Context` knows of it.
#[derive(Clone, Copy, Debug)]
pub(crate) struct GreenOf {
    pub(crate) handle: GreenCtxHandle,
    pub(crate) sm_count: u32,
}

/// A green context: its context, device, SMs and `cuGreenCtxGetId` id.
pub struct GreenCtx {
    ctx: CtxHandle,
    device: usize,
    id: u64,
}

/// A resource descriptor (`cuDevResourceGenerateDesc`): the SMs a green context gets.
/// There is no API to destroy one, so they live as long as the driver.
pub struct ResourceDesc {
    device: usize,
    sm_count: u32,
}

/// The driver's green contexts and descriptors.
#[derive(Default)]
pub(crate) struct State {
    greens: HandleTable<GreenCtx, GreenCtxHandle>,
    descs: HandleTable<ResourceDesc, ResourceDescHandle>,
    next_split: AtomicU64,
    next_id: AtomicU64,
    /// The contexts of destroyed green contexts: unlike other destroyed contexts, they may
    /// not be made current again (`INVALID_CONTEXT`, NVIDIA's driver 580).
    retired: std::sync::Mutex<std::collections::HashSet<CtxHandle>>,
}

impl State {
    /// Whether `ctx` was the context of a green context since destroyed.
    pub(crate) fn was_green(&self, ctx: CtxHandle) -> bool {
        self.retired.lock().unwrap_or_else(|e| e.into_inner()).contains(&ctx)
    }
}

fn check_type(ty: u32, what: &str) -> CuResult<()> {
    if ty != RESOURCE_TYPE_SM {
        return Err(fail(CuError::INVALID_RESOURCE_TYPE, format_args!("{what}: resource type {ty} is not CU_DEV_RESOURCE_TYPE_SM")));
    }
    Ok(())
}

impl Driver {
    fn green(&self, g: GreenCtxHandle) -> CuResult<Arc<GreenCtx>> {
        self.green_ctxs.greens.get(g).map_err(|why| match why {
            // "CUDA_ERROR_CONTEXT_IS_DESTROYED" is documented for cuGreenCtxDestroy and
            // cuGreenCtxGetId; a destroyed green context's handle is stale.
            Lookup::Stale => fail(CuError::CONTEXT_IS_DESTROYED, format_args!("green context {:#x} was destroyed", g.0)),
            _ => fail(CuError::INVALID_CONTEXT, format_args!("green context handle {:#x}: {why:?}", g.0)),
        })
    }

    /// The green context and its context, for the calls whose documented codes name
    /// `CUDA_ERROR_INVALID_CONTEXT` but not `CONTEXT_IS_DESTROYED`: a destroyed green
    /// context is an invalid one there.
    fn green_context(&self, g: GreenCtxHandle) -> CuResult<(Arc<GreenCtx>, Arc<Context>)> {
        let green = self.green(g).map_err(|e| if e == CuError::CONTEXT_IS_DESTROYED { CuError::INVALID_CONTEXT } else { e })?;
        let c = self.context(green.ctx)?;
        Ok((green, c))
    }

    /// The SM resource a context has: its green context's partition, else the device.
    fn context_resource(&self, c: &Context) -> DevResource {
        let sms = match c.green {
            Some(g) => g.sm_count,
            None => self.devices[c.device].backend.properties().multiprocessor_count,
        };
        DevResource::sm(c.device, sms, Origin::Whole)
    }

    /// `cuDeviceGetDevResource(device, resource, type)`.
    pub fn device_get_dev_resource(&self, dev: i32, ty: u32) -> CuResult<DevResource> {
        let slot = self.device_slot(dev)?;
        check_type(ty, "cuDeviceGetDevResource")?;
        Ok(DevResource::sm(dev as usize, slot.backend.properties().multiprocessor_count, Origin::Whole))
    }

    /// `cuCtxGetDevResource(hCtx, resource, type)`; NULL is the current context.
    pub fn ctx_get_dev_resource(&self, ctx: CtxHandle, ty: u32) -> CuResult<DevResource> {
        let c = self.context_or_current(ctx)?;
        check_type(ty, "cuCtxGetDevResource")?;
        Ok(self.context_resource(&c))
    }

    /// `cuGreenCtxGetDevResource(hCtx, resource, type)`.
    pub fn green_ctx_get_dev_resource(&self, g: GreenCtxHandle, ty: u32) -> CuResult<DevResource> {
        let (_, c) = self.green_context(g)?;
        check_type(ty, "cuGreenCtxGetDevResource")?;
        Ok(self.context_resource(&c))
    }

    /// `cuStreamGetDevResource(hStream, resource, type)` (CUDA 13.1): the resource of the
    /// stream's context (default streams: the current context's).
    pub fn stream_get_dev_resource(&self, stream: StreamHandle, ty: u32) -> CuResult<DevResource> {
        let c = self.stream_context(stream)?;
        check_type(ty, "cuStreamGetDevResource")?;
        Ok(self.context_resource(&c))
    }

    /// `cuDevSmResourceSplitByCount`: with `capacity` `None` (a NULL `result`) only the
    /// number of groups a split would make; otherwise up to `capacity` groups of
    /// `max(minCount, minSmPartitionSize)` SMs rounded up to `smCoscheduledAlignment`,
    /// and the remainder (possibly 0 SMs). Answers (count, groups made, remainder); the
    /// caller writes them.
    pub fn sm_resource_split_by_count(
        &self,
        capacity: Option<u32>,
        input: &DevResource,
        flags: u32,
        min_count: u32,
    ) -> CuResult<(u32, Vec<DevResource>, DevResource)> {
        const WHAT: &str = "cuDevSmResourceSplitByCount";
        check_type(input.ty, WHAT)?;
        self.check_splittable(input, WHAT)?;
        if flags & !SPLIT_FLAGS != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: flags {flags:#x}")));
        }
        // "Value of minCount must be between 0 and the SM count specified in input."
        if min_count > input.sm_count {
            return Err(fail(
                CuError::INVALID_RESOURCE_CONFIGURATION,
                format_args!("{WHAT}: minCount {min_count} exceeds the input's {} SMs", input.sm_count),
            ));
        }
        let size = min_count.max(input.min_partition.max(1)).next_multiple_of(input.alignment.max(1));
        let possible = input.sm_count / size;
        let count = match capacity {
            None => possible,
            // A result array of no elements cannot hold a group; "nbGroups must point to
            // the amount of elements in result".
            Some(0) => return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: *nbGroups is 0 with a result array"))),
            Some(n) => n.min(possible),
        };
        let split = self.green_ctxs.next_split.fetch_add(1, Ordering::Relaxed) + 1;
        let device = input.device as usize;
        // A query (no result array) reports the count only.
        let made = if capacity.is_some() { count } else { 0 };
        let groups = (0..made).map(|index| DevResource::sm(device, size, Origin::Split { split, index })).collect();
        let remainder = DevResource::sm(device, input.sm_count - count * size, Origin::Split { split, index: u32::MAX });
        Ok((count, groups, remainder))
    }

    /// `cuDevSmResourceSplit` (CUDA 13.1): group `i` gets `params[i].smCount` SMs, a
    /// multiple of its `coscheduledSmCount` (of `smCoscheduledAlignment` when 0). Groups
    /// asking 0 are discovered: they share the SMs the others leave, equally, rounded
    /// down to their co-scheduling multiple, and the count is written back into
    /// `params`. With `want_results` false (a NULL `result`) only that discovery happens;
    /// otherwise every group needs at least one SM. The remainder of such a split may be
    /// split again ("or further split into structured groups by this API").
    pub fn sm_resource_split(
        &self,
        want_results: bool,
        input: &DevResource,
        flags: u32,
        params: &mut [SmGroupParams],
    ) -> CuResult<(Vec<DevResource>, DevResource)> {
        const WHAT: &str = "cuDevSmResourceSplit";
        check_type(input.ty, WHAT)?;
        if !(input.ours && matches!(input.origin, Origin::Split { index: u32::MAX, .. })) {
            self.check_splittable(input, WHAT)?;
        }
        self.device_slot(input.device)?;
        if params.is_empty() || flags != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: {} groups, flags {flags:#x}", params.len())));
        }
        let config = |why: std::fmt::Arguments<'_>| fail(CuError::INVALID_RESOURCE_CONFIGURATION, format_args!("{WHAT}: {why}"));
        let multiple = |p: &SmGroupParams| p.coscheduled_sm_count.max(input.alignment).max(1);
        let mut fixed = 0u64;
        for (i, p) in params.iter().enumerate() {
            if p.flags & !GROUP_FLAGS != 0 {
                return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: group {i} flags {:#x}", p.flags)));
            }
            if p.sm_count % multiple(p) != 0 {
                return Err(config(format_args!("group {i}: {} SMs is not a multiple of {}", p.sm_count, multiple(p))));
            }
            fixed += u64::from(p.sm_count);
        }
        if fixed > u64::from(input.sm_count) {
            return Err(config(format_args!("the groups ask {fixed} SMs of {}", input.sm_count)));
        }
        let discovered = params.iter().filter(|p| p.sm_count == 0).count() as u32;
        let share = (input.sm_count - fixed as u32).checked_div(discovered).unwrap_or(0);
        let counts: Vec<u32> = params.iter().map(|p| if p.sm_count == 0 { share / multiple(p) * multiple(p) } else { p.sm_count }).collect();
        if want_results && counts.contains(&0) {
            return Err(config(format_args!("a discovered group gets no SMs")));
        }
        for (p, &c) in params.iter_mut().zip(&counts) {
            p.sm_count = c;
        }
        let split = self.green_ctxs.next_split.fetch_add(1, Ordering::Relaxed) + 1;
        let device = input.device as usize;
        let groups = if want_results {
            counts.iter().zip(0..).map(|(&c, index)| DevResource::sm(device, c, Origin::Split { split, index })).collect()
        } else {
            Vec::new()
        };
        let rest = input.sm_count - counts.iter().sum::<u32>();
        Ok((groups, DevResource::sm(device, rest, Origin::Split { split, index: u32::MAX })))
    }

    /// A split's input must be a whole resource this driver gave out, of a device that
    /// exists: "the output results cannot be split again without first creating a
    /// descriptor and a green context" (cuDevSmResourceSplitByCount).
    fn check_splittable(&self, input: &DevResource, what: &str) -> CuResult<()> {
        if !input.ours {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{what}: the input resource did not come from a cu*GetDevResource call")));
        }
        self.device_slot(input.device)?;
        if input.origin != Origin::Whole {
            return Err(fail(CuError::INVALID_RESOURCE_CONFIGURATION, format_args!("{what}: the input is the output of another split")));
        }
        Ok(())
    }

    /// `cuDevResourceGenerateDesc(phDesc, resources, nbResources)`: one device, and
    /// several SM resources only from one split instance, each once.
    pub fn dev_resource_generate_desc(&self, resources: &[DevResource]) -> CuResult<ResourceDescHandle> {
        const WHAT: &str = "cuDevResourceGenerateDesc";
        let Some(first) = resources.first() else {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: no resources")));
        };
        for r in resources {
            check_type(r.ty, WHAT)?;
            if !r.ours {
                return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: a resource was not made by this driver")));
            }
        }
        self.device_slot(first.device)?;
        let config = |why: &str| fail(CuError::INVALID_RESOURCE_CONFIGURATION, format_args!("{WHAT}: {why}"));
        if resources.iter().any(|r| r.device != first.device) {
            return Err(config("the resources come from different devices"));
        }
        if resources.len() > 1 {
            let mut seen = Vec::with_capacity(resources.len());
            for r in resources {
                match (r.origin, first.origin) {
                    (Origin::Split { split, index }, Origin::Split { split: s0, .. }) if split == s0 => {
                        if seen.contains(&index) {
                            return Err(config("a resource is given twice"));
                        }
                        seen.push(index);
                    }
                    _ => return Err(config("the resources are not outputs of one split")),
                }
            }
        }
        let sm_count = resources.iter().map(|r| r.sm_count).sum::<u32>();
        // A descriptor of no SMs (an empty remainder) could run nothing.
        if sm_count == 0 {
            return Err(config("the resources hold no SMs"));
        }
        Ok(self.green_ctxs.descs.insert(Arc::new(ResourceDesc { device: first.device as usize, sm_count })))
    }

    /// `cuGreenCtxCreate(phCtx, desc, dev, flags)`: retains `dev`'s primary context.
    pub fn green_ctx_create(&self, desc: ResourceDescHandle, dev: i32, flags: u32) -> CuResult<GreenCtxHandle> {
        const WHAT: &str = "cuGreenCtxCreate";
        self.device_slot(dev)?;
        // "CU_GREEN_CTX_DEFAULT_STREAM is required"; no other flag exists.
        if flags != GREEN_CTX_DEFAULT_STREAM {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: flags {flags:#x} (CU_GREEN_CTX_DEFAULT_STREAM is required)")));
        }
        let d =
            self.green_ctxs.descs.get(desc).map_err(|why| fail(CuError::INVALID_VALUE, format_args!("{WHAT}: descriptor {:#x}: {why:?}", desc.0)))?;
        // The reference lists no code for a descriptor of another device; the
        // descriptor is the invalid argument.
        if d.device != dev as usize {
            return Err(fail(CuError::INVALID_VALUE, format_args!("{WHAT}: the descriptor's resources are of device {}", d.device)));
        }
        let primary = self.primary_ctx_retain(dev)?;
        let flags = self.context(primary)?.flags();
        let id = self.green_ctxs.next_id.fetch_add(1, Ordering::Relaxed) + 1;
        let (handle, _) = self.green_ctxs.greens.insert_with(|handle| {
            let ctx = self.new_context(dev as usize, false, flags, true, Some(GreenOf { handle, sm_count: d.sm_count }));
            Arc::new(GreenCtx { ctx, device: dev as usize, id })
        });
        Ok(handle)
    }

    /// `cuGreenCtxDestroy(hCtx)`: frees what its context owns (its streams too; the
    /// reference leaves later use of them undefined) and releases the primary context.
    pub fn green_ctx_destroy(&self, g: GreenCtxHandle) -> CuResult<()> {
        let green = self.green(g)?;
        let c = self.context(green.ctx)?;
        self.green_ctxs.greens.remove(g).map_err(|_| fail(CuError::CONTEXT_IS_DESTROYED, format_args!("green context {:#x} was destroyed", g.0)))?;
        self.destroy_context_object(&c)?;
        self.green_ctxs.retired.lock().unwrap_or_else(|e| e.into_inner()).insert(c.handle);
        self.primary_ctx_release(green.device as i32)
    }

    /// `cuCtxFromGreenCtx(pContext, hCtx)`: the green context's `CUcontext`.
    pub fn ctx_from_green_ctx(&self, g: GreenCtxHandle) -> CuResult<CtxHandle> {
        self.green_context(g).map(|(_, c)| c.handle)
    }

    /// `cuGreenCtxGetId(greenCtx, greenCtxId)`: NULL is the current context's green
    /// context (`INVALID_CONTEXT` when the current context is not one).
    pub fn green_ctx_get_id(&self, g: GreenCtxHandle) -> CuResult<u64> {
        let g = if g.is_null() {
            let c = self.current_context()?;
            c.green
                .map(|g| g.handle)
                .ok_or_else(|| fail(CuError::INVALID_CONTEXT, format_args!("cuGreenCtxGetId: the current context is not a green context")))?
        } else {
            g
        };
        Ok(self.green(g)?.id)
    }

    /// `cuGreenCtxStreamCreate(phStream, greenCtx, flags, priority)`: a stream of the
    /// green context whatever is current; `CU_STREAM_NON_BLOCKING` "must be specified".
    pub fn green_ctx_stream_create(&self, g: GreenCtxHandle, flags: u32, priority: i32) -> CuResult<StreamHandle> {
        let (_, c) = self.green_context(g)?;
        self.usable(&c)?;
        if flags != STREAM_NON_BLOCKING {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuGreenCtxStreamCreate: flags {flags:#x} (CU_STREAM_NON_BLOCKING is required)")));
        }
        self.stream_create_in(&c, flags, priority)
    }

    /// `cuGreenCtxRecordEvent(hCtx, hEvent)`: the event must be of the green context or
    /// of the primary context it shares ("from the same primary context", else
    /// `INVALID_HANDLE`).
    pub fn green_ctx_record_event(&self, g: GreenCtxHandle, event: EventHandle) -> CuResult<()> {
        const WHAT: &str = "cuGreenCtxRecordEvent";
        let (green, c) = self.green_context(g)?;
        self.usable(&c)?;
        let e = self.event(event)?;
        // Every green context of a device is, for NVIDIA, the device's primary context
        // with other resources: events of any of them, or of the primary context, qualify.
        let same_primary = self.context(e.ctx).is_ok_and(|ec| ec.device == green.device && (ec.primary || ec.green.is_some()));
        if !same_primary {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("{WHAT}: the event belongs to another primary context")));
        }
        self.record_context_work(&c, &e, WHAT)
    }

    /// `cuGreenCtxWaitEvent(hCtx, hEvent)`: the event "may be from a different context or
    /// device".
    pub fn green_ctx_wait_event(&self, g: GreenCtxHandle, event: EventHandle) -> CuResult<()> {
        let (_, c) = self.green_context(g)?;
        self.usable(&c)?;
        let e = self.event(event)?;
        self.context_wait_for(&c, &e, "cuGreenCtxWaitEvent")
    }

    /// `cuStreamGetGreenCtx(hStream, phCtx)` (CUDA 12.4): the green context of the
    /// stream's context (default streams: of the current context), else NULL.
    pub fn stream_get_green_ctx(&self, stream: StreamHandle) -> CuResult<GreenCtxHandle> {
        let c = self.context(self.stream_get_ctx(stream)?)?;
        Ok(c.green.map_or(GreenCtxHandle::NULL, |g| g.handle))
    }

    /// `cuStreamGetCtx_v2(hStream, pCtx, pGreenCtx)`: for a stream of a green context
    /// (or a default stream while one is current) the device's primary context and the
    /// green context; otherwise the context and NULL. The per-thread default stream with
    /// a green context current is `INVALID_HANDLE`, as the reference says.
    pub fn stream_get_ctx_v2(&self, stream: StreamHandle) -> CuResult<(CtxHandle, GreenCtxHandle)> {
        let ctx = self.stream_get_ctx(stream)?;
        let c = self.context(ctx)?;
        let Some(green) = c.green else {
            return Ok((ctx, GreenCtxHandle::NULL));
        };
        if stream == StreamHandle::PER_THREAD {
            return Err(fail(CuError::INVALID_HANDLE, format_args!("cuStreamGetCtx_v2: CU_STREAM_PER_THREAD with a green context current")));
        }
        Ok((self.primary_ctx_handle(c.device as i32)?, green.handle))
    }
}
