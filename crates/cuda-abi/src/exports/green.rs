//! Green contexts and device resources (`cuDeviceGetDevResource`,
//! `cuDevSmResourceSplitByCount`, `cuDevSmResourceSplit`, `cuDevResourceGenerateDesc`,
//! `cuGreenCtx*`, `cuCtxFromGreenCtx`, `cuCtxGetDevResource`, `cuStreamGetDevResource`,
//! `cuStreamGetGreenCtx`; CUDA driver API reference, "Green Contexts"). Semantics in
//! `cuda_driver::green`.
//!
//! A `CUdevResource` is 144 bytes: the type, 92 bytes the driver keeps to itself, then
//! 48 bytes whose start is the `sm` member `{smCount, minSmPartitionSize,
//! smCoscheduledAlignment, flags}` (CUDA 13.1 ends them with the `nextResource` pointer,
//! written NULL here). The private bytes carry what lets the driver recognize its own
//! resources again: a mark, the device, and which split (and which of its outputs) made
//! the resource.

use std::ffi::{c_int, c_uint, c_ulonglong, c_void};

use cuda_driver::green::{DevResource, Origin, SmGroupParams};
use cuda_driver::{CuError, GreenCtxHandle, ResourceDescHandle};

use super::{ctx_handle, ctx_raw, drv, event_handle, stream_handle, stream_ptsz};
use crate::boundary::{export, read_in, slice, AbiResult, Out};
use crate::types::{CUcontext, CUdevice, CUevent, CUstream};

type CUgreenCtx = *mut c_void;
type CUdevResourceDesc = *mut c_void;

/// `CUdevResource` (cuda.h, "Green Contexts").
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CUdevResource {
    ty: c_uint,
    internal: [u8; 92],
    /// `sm`: smCount, minSmPartitionSize, smCoscheduledAlignment, flags.
    sm: [c_uint; 4],
    rest: [u8; 32],
}

const _: () = assert!(std::mem::size_of::<CUdevResource>() == 144);

/// "GRSM": marks the private bytes of a resource this driver wrote.
const MARK: u32 = 0x4d53_5247;

fn encode(r: &DevResource) -> CUdevResource {
    let mut internal = [0u8; 92];
    let (kind, index, split) = match r.origin {
        Origin::Whole => (0u32, 0u32, 0u64),
        Origin::Split { split, index } => (1, index, split),
    };
    internal[0..4].copy_from_slice(&MARK.to_le_bytes());
    internal[4..8].copy_from_slice(&r.device.to_le_bytes());
    internal[8..12].copy_from_slice(&kind.to_le_bytes());
    internal[12..16].copy_from_slice(&index.to_le_bytes());
    internal[16..24].copy_from_slice(&split.to_le_bytes());
    CUdevResource { ty: r.ty, internal, sm: [r.sm_count, r.min_partition, r.alignment, 0], rest: [0; 32] }
}

fn decode(c: &CUdevResource) -> DevResource {
    let word = |i: usize| u32::from_le_bytes(c.internal[i..i + 4].try_into().unwrap_or_default());
    let split = u64::from_le_bytes(c.internal[16..24].try_into().unwrap_or_default());
    let origin = if word(8) == 0 { Origin::Whole } else { Origin::Split { split, index: word(12) } };
    DevResource { ty: c.ty, sm_count: c.sm[0], min_partition: c.sm[1], alignment: c.sm[2], device: word(4) as i32, origin, ours: word(0) == MARK }
}

/// `CU_DEV_SM_RESOURCE_GROUP_PARAMS` (CUDA 13.1 cuda.h): 64 bytes.
#[repr(C)]
#[derive(Clone, Copy)]
pub struct CuDevSmResourceGroupParams {
    sm_count: c_uint,
    coscheduled_sm_count: c_uint,
    preferred_coscheduled_sm_count: c_uint,
    flags: c_uint,
    reserved: [c_uint; 12],
}

const _: () = assert!(std::mem::size_of::<CuDevSmResourceGroupParams>() == 64);

fn green_handle(g: CUgreenCtx) -> GreenCtxHandle {
    GreenCtxHandle::from_raw(g)
}

/// Writes `get()`'s resource to `resource` (NULL -> `INVALID_VALUE` first).
///
/// # Safety
/// `resource` is NULL or writable for one `CUdevResource`.
unsafe fn get_resource(resource: *mut CUdevResource, get: impl FnOnce() -> cuda_driver::CuResult<DevResource>) -> AbiResult {
    // SAFETY: forwarded contract.
    let out = unsafe { Out::new(resource) }?;
    out.write(encode(&get()?));
    Ok(())
}

export! {
    /// `cuDeviceGetDevResource(CUdevice device, CUdevResource* resource, CUdevResourceType type)`.
    fn cuDeviceGetDevResource(device: CUdevice, resource: *mut CUdevResource, ty: c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_resource(resource, || drv()?.device_get_dev_resource(device, ty)) }
    }

    /// `cuCtxGetDevResource(CUcontext hCtx, CUdevResource* resource, CUdevResourceType type)`.
    fn cuCtxGetDevResource(h_ctx: CUcontext, resource: *mut CUdevResource, ty: c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_resource(resource, || drv()?.ctx_get_dev_resource(ctx_handle(h_ctx), ty)) }
    }

    /// `cuGreenCtxGetDevResource(CUgreenCtx hCtx, CUdevResource* resource, CUdevResourceType type)`.
    fn cuGreenCtxGetDevResource(h_ctx: CUgreenCtx, resource: *mut CUdevResource, ty: c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_resource(resource, || drv()?.green_ctx_get_dev_resource(green_handle(h_ctx), ty)) }
    }

    /// `cuStreamGetDevResource(CUstream hStream, CUdevResource* resource, CUdevResourceType type)` (CUDA 13.1).
    fn cuStreamGetDevResource(h_stream: CUstream, resource: *mut CUdevResource, ty: c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_resource(resource, || drv()?.stream_get_dev_resource(stream_handle(h_stream), ty)) }
    }
    fn cuStreamGetDevResource_ptsz(h_stream: CUstream, resource: *mut CUdevResource, ty: c_uint) {
        // SAFETY: NULL or writable, per the API.
        unsafe { get_resource(resource, || drv()?.stream_get_dev_resource(stream_ptsz(h_stream), ty)) }
    }

    /// `cuStreamGetGreenCtx(CUstream hStream, CUgreenCtx* phCtx)` (CUDA 12.4).
    fn cuStreamGetGreenCtx(h_stream: CUstream, ph_ctx: *mut CUgreenCtx) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_ctx) }?;
        out.write(drv()?.stream_get_green_ctx(stream_handle(h_stream))?.as_raw());
        Ok(())
    }

    /// `cuDevSmResourceSplitByCount(CUdevResource* result, unsigned* nbGroups, const CUdevResource* input, CUdevResource* remaining, unsigned useFlags, unsigned minCount)`.
    fn cuDevSmResourceSplitByCount(
        result: *mut CUdevResource,
        nb_groups: *mut c_uint,
        input: *const CUdevResource,
        remaining: *mut CUdevResource,
        use_flags: c_uint,
        min_count: c_uint,
    ) {
        // SAFETY: NULL or readable/writable, per the API.
        let (count_in, input) = unsafe { (read_in(nb_groups)?, read_in(input)?) };
        let capacity = (!result.is_null()).then_some(count_in);
        let (count, groups, rest) = drv()?.sm_resource_split_by_count(capacity, &decode(&input), use_flags, min_count)?;
        for (i, g) in groups.iter().enumerate() {
            // SAFETY: `result` holds `*nbGroups` >= `groups.len()` writable elements.
            unsafe { result.add(i).write_unaligned(encode(g)) };
        }
        if !result.is_null() {
            // SAFETY: NULL or writable, per the API.
            if let Some(out) = unsafe { Out::optional(remaining) } {
                out.write(encode(&rest));
            }
        }
        // SAFETY: checked non-NULL above; writable per the API.
        unsafe { nb_groups.write_unaligned(count) };
        Ok(())
    }

    /// `cuDevSmResourceSplit(CUdevResource* result, unsigned nbGroups, const CUdevResource* input, CUdevResource* remainder, unsigned flags, CU_DEV_SM_RESOURCE_GROUP_PARAMS* groupParams)` (CUDA 13.1).
    fn cuDevSmResourceSplit(
        result: *mut CUdevResource,
        nb_groups: c_uint,
        input: *const CUdevResource,
        remainder: *mut CUdevResource,
        flags: c_uint,
        group_params: *mut CuDevSmResourceGroupParams,
    ) {
        // SAFETY: NULL or readable, per the API.
        let input = unsafe { read_in(input) }?;
        if group_params.is_null() || nb_groups == 0 {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: `nbGroups` readable elements, per the API.
        let raw = unsafe { slice(group_params.cast_const(), nb_groups as usize) }?;
        let mut params: Vec<SmGroupParams> = raw
            .iter()
            .map(|p| SmGroupParams {
                sm_count: p.sm_count,
                coscheduled_sm_count: p.coscheduled_sm_count,
                preferred_coscheduled_sm_count: p.preferred_coscheduled_sm_count,
                flags: p.flags,
            })
            .collect();
        let (groups, rest) = drv()?.sm_resource_split(!result.is_null(), &decode(&input), flags, &mut params)?;
        for (i, p) in params.iter().enumerate() {
            // SAFETY: `nbGroups` writable elements: "the smCount will be filled in by the API".
            unsafe { std::ptr::addr_of_mut!((*group_params.add(i)).sm_count).write_unaligned(p.sm_count) };
        }
        for (i, g) in groups.iter().enumerate() {
            // SAFETY: `result` holds `nbGroups` writable elements, per the API.
            unsafe { result.add(i).write_unaligned(encode(g)) };
        }
        if !result.is_null() {
            // SAFETY: NULL or writable, per the API.
            if let Some(out) = unsafe { Out::optional(remainder) } {
                out.write(encode(&rest));
            }
        }
        Ok(())
    }

    /// `cuDevResourceGenerateDesc(CUdevResourceDesc* phDesc, CUdevResource* resources, unsigned nbResources)`.
    fn cuDevResourceGenerateDesc(ph_desc: *mut CUdevResourceDesc, resources: *mut CUdevResource, nb_resources: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_desc) }?;
        if resources.is_null() || nb_resources == 0 {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: `nbResources` readable elements, per the API.
        let list: Vec<DevResource> = unsafe { slice(resources.cast_const(), nb_resources as usize) }?.iter().map(decode).collect();
        out.write(drv()?.dev_resource_generate_desc(&list)?.as_raw());
        Ok(())
    }

    /// `cuGreenCtxCreate(CUgreenCtx* phCtx, CUdevResourceDesc desc, CUdevice dev, unsigned flags)`.
    fn cuGreenCtxCreate(ph_ctx: *mut CUgreenCtx, desc: CUdevResourceDesc, dev: CUdevice, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_ctx) }?;
        out.write(drv()?.green_ctx_create(ResourceDescHandle::from_raw(desc), dev, flags)?.as_raw());
        Ok(())
    }

    /// `cuGreenCtxDestroy(CUgreenCtx hCtx)`.
    fn cuGreenCtxDestroy(h_ctx: CUgreenCtx) {
        drv()?.green_ctx_destroy(green_handle(h_ctx))
    }

    /// `cuCtxFromGreenCtx(CUcontext* pContext, CUgreenCtx hCtx)`.
    fn cuCtxFromGreenCtx(p_context: *mut CUcontext, h_ctx: CUgreenCtx) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(p_context) }?;
        out.write(ctx_raw(drv()?.ctx_from_green_ctx(green_handle(h_ctx))?));
        Ok(())
    }

    /// `cuGreenCtxRecordEvent(CUgreenCtx hCtx, CUevent hEvent)`.
    fn cuGreenCtxRecordEvent(h_ctx: CUgreenCtx, h_event: CUevent) {
        drv()?.green_ctx_record_event(green_handle(h_ctx), event_handle(h_event))
    }

    /// `cuGreenCtxWaitEvent(CUgreenCtx hCtx, CUevent hEvent)`.
    fn cuGreenCtxWaitEvent(h_ctx: CUgreenCtx, h_event: CUevent) {
        drv()?.green_ctx_wait_event(green_handle(h_ctx), event_handle(h_event))
    }

    /// `cuGreenCtxStreamCreate(CUstream* phStream, CUgreenCtx greenCtx, unsigned flags, int priority)`.
    fn cuGreenCtxStreamCreate(ph_stream: *mut CUstream, green_ctx: CUgreenCtx, flags: c_uint, priority: c_int) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(ph_stream) }?;
        out.write(drv()?.green_ctx_stream_create(green_handle(green_ctx), flags, priority)?.as_raw().cast());
        Ok(())
    }

    /// `cuGreenCtxGetId(CUgreenCtx greenCtx, unsigned long long* greenCtxId)` (CUDA 12.9).
    fn cuGreenCtxGetId(green_ctx: CUgreenCtx, green_ctx_id: *mut c_ulonglong) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(green_ctx_id) }?;
        out.write(drv()?.green_ctx_get_id(green_handle(green_ctx))?);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn resources_survive_the_c_layout() {
        let split =
            DevResource { ty: 1, sm_count: 5, min_partition: 1, alignment: 1, device: 0, origin: Origin::Split { split: 9, index: 2 }, ours: true };
        let c = encode(&split);
        assert_eq!(c.sm[..3], [5, 1, 1]);
        assert_eq!(c.rest, [0; 32], "nextResource stays NULL");
        assert_eq!(decode(&c), split);
        let whole = DevResource { origin: Origin::Whole, ..split };
        assert_eq!(decode(&encode(&whole)), whole);
        // A structure the driver never filled in is not ours.
        // SAFETY: all-zero bytes are a valid `CUdevResource`.
        let zeroed: CUdevResource = unsafe { std::mem::zeroed() };
        assert!(!decode(&zeroed).ours);
        assert_eq!(std::mem::offset_of!(CUdevResource, sm), 96);
    }
}
