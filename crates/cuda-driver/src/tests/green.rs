//! Green contexts and device resources (`crate::green`) over the fake device (4 SMs).

use std::ffi::c_void;

use super::{load_module, setup};
use crate::green::{DevResource, Origin, SmGroupParams, GREEN_CTX_DEFAULT_STREAM, RESOURCE_TYPE_SM};
use crate::*;

const SM: u32 = RESOURCE_TYPE_SM;

/// A green context over the first `size`-SM group of the device.
fn green_of(driver: &Driver, size: u32) -> GreenCtxHandle {
    let whole = driver.device_get_dev_resource(0, SM).unwrap();
    let (_, groups, _) = driver.sm_resource_split_by_count(Some(1), &whole, 0, size).unwrap();
    let desc = driver.dev_resource_generate_desc(&groups).unwrap();
    driver.green_ctx_create(desc, 0, GREEN_CTX_DEFAULT_STREAM).unwrap()
}

#[test]
fn device_resources_split_and_add_up() {
    let (driver, _) = setup();
    let whole = driver.device_get_dev_resource(0, SM).unwrap();
    assert_eq!((whole.sm_count, whole.min_partition, whole.alignment), (4, 1, 1));
    assert_eq!(driver.device_get_dev_resource(0, 0).unwrap_err(), CuError::INVALID_RESOURCE_TYPE);
    assert_eq!(driver.device_get_dev_resource(1, SM).unwrap_err(), CuError::INVALID_DEVICE);
    assert_eq!(driver.ctx_get_dev_resource(CtxHandle::NULL, SM).unwrap().sm_count, 4);

    // Query mode: how many groups of 3 SMs fit (one).
    let (n, groups, _) = driver.sm_resource_split_by_count(None, &whole, 0, 3).unwrap();
    assert_eq!((n, groups.len()), (1, 0));
    // Groups of 1 (minCount 0 rounds up to minSmPartitionSize), room for two of them.
    let (n, groups, rest) = driver.sm_resource_split_by_count(Some(2), &whole, 0, 0).unwrap();
    assert_eq!(n, 2);
    assert!(groups.iter().all(|g| g.sm_count == 1));
    assert_eq!(rest.sm_count, 2);
    assert_eq!(groups.iter().map(|g| g.sm_count).sum::<u32>() + rest.sm_count, whole.sm_count);
    // Misuse: more SMs than exist, an output split again, unknown flags, foreign bytes.
    assert_eq!(driver.sm_resource_split_by_count(Some(1), &whole, 0, 5).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    assert_eq!(driver.sm_resource_split_by_count(Some(1), &groups[0], 0, 1).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    assert_eq!(driver.sm_resource_split_by_count(Some(1), &whole, 4, 1).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.sm_resource_split_by_count(Some(0), &whole, 0, 1).unwrap_err(), CuError::INVALID_VALUE);
    let foreign = DevResource { ours: false, ..whole };
    assert_eq!(driver.sm_resource_split_by_count(Some(1), &foreign, 0, 1).unwrap_err(), CuError::INVALID_VALUE);
    let wrong_type = DevResource { ty: 0, ..whole };
    assert_eq!(driver.sm_resource_split_by_count(Some(1), &wrong_type, 0, 1).unwrap_err(), CuError::INVALID_RESOURCE_TYPE);

    // Descriptors: one split's outputs together, each once; not mixed with another split.
    driver.dev_resource_generate_desc(&[groups[0], rest]).unwrap();
    driver.dev_resource_generate_desc(&[whole]).unwrap();
    assert_eq!(driver.dev_resource_generate_desc(&[groups[0], groups[0]]).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    let (_, other, _) = driver.sm_resource_split_by_count(Some(1), &whole, 0, 1).unwrap();
    assert_eq!(driver.dev_resource_generate_desc(&[groups[0], other[0]]).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    assert_eq!(driver.dev_resource_generate_desc(&[wrong_type]).unwrap_err(), CuError::INVALID_RESOURCE_TYPE);
    assert_eq!(driver.dev_resource_generate_desc(&[]).unwrap_err(), CuError::INVALID_VALUE);
    let (_, all, empty) = driver.sm_resource_split_by_count(Some(4), &whole, 0, 1).unwrap();
    assert_eq!((all.len(), empty.sm_count), (4, 0));
    assert_eq!(driver.dev_resource_generate_desc(&[empty]).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    assert!(matches!(empty.origin, Origin::Split { index: u32::MAX, .. }));
}

#[test]
fn green_contexts_have_their_partition_streams_and_ids() {
    let (driver, device) = setup();
    let primary = driver.ctx_get_current();
    let g = green_of(&driver, 3);
    let g2 = green_of(&driver, 1);
    assert_ne!(driver.green_ctx_get_id(g).unwrap(), driver.green_ctx_get_id(g2).unwrap());
    assert_eq!(driver.green_ctx_get_dev_resource(g, SM).unwrap().sm_count, 3);
    assert_eq!(driver.green_ctx_get_dev_resource(g, 7).unwrap_err(), CuError::INVALID_RESOURCE_TYPE);
    // The green context's resource can be split again (it is whole for the green context).
    let mine = driver.green_ctx_get_dev_resource(g, SM).unwrap();
    assert_eq!(driver.sm_resource_split_by_count(None, &mine, 0, 1).unwrap().0, 3);

    // Its CUcontext works with the usual calls: current-context stack, streams, launches.
    let ctx = driver.ctx_from_green_ctx(g).unwrap();
    assert_ne!(ctx, primary);
    assert_eq!(driver.ctx_destroy(ctx).unwrap_err(), CuError::INVALID_CONTEXT);
    driver.ctx_push_current(ctx).unwrap();
    assert_eq!(driver.ctx_get_dev_resource(CtxHandle::NULL, SM).unwrap().sm_count, 3);
    assert_eq!(driver.green_ctx_get_id(GreenCtxHandle::NULL).unwrap(), driver.green_ctx_get_id(g).unwrap());
    assert_eq!(driver.stream_get_dev_resource(StreamHandle::NULL, SM).unwrap().sm_count, 3);
    let m = load_module(&driver);
    let f = driver.module_get_function(m, "write42_kernel").unwrap();
    let out = driver.mem_alloc(4).unwrap();
    assert_eq!(driver.ctx_pop_current().unwrap(), ctx);
    assert_eq!(driver.green_ctx_get_id(GreenCtxHandle::NULL).unwrap_err(), CuError::INVALID_CONTEXT);

    // A green stream: created whatever is current, non-blocking required.
    assert_eq!(driver.green_ctx_stream_create(g, 0, 0).unwrap_err(), CuError::INVALID_VALUE);
    let s = driver.green_ctx_stream_create(g, 1, 0).unwrap();
    assert_eq!(driver.stream_get_ctx(s).unwrap(), ctx);
    assert_eq!(driver.stream_get_ctx_v2(s).unwrap(), (primary, g));
    assert_eq!(driver.stream_get_ctx_v2(StreamHandle::NULL).unwrap(), (primary, GreenCtxHandle::NULL));
    assert_eq!(driver.stream_get_dev_resource(s, SM).unwrap().sm_count, 3);
    assert_eq!(driver.stream_get_green_ctx(s).unwrap(), g);
    assert_eq!(driver.stream_get_green_ctx(StreamHandle::NULL).unwrap(), GreenCtxHandle::NULL);
    assert_eq!(driver.stream_get_dev_resource(StreamHandle::NULL, SM).unwrap().sm_count, 4);
    let mut arg = out;
    let mut args = [(&mut arg as *mut u64).cast::<c_void>()];
    // SAFETY: one pointer argument, as the kernel takes.
    unsafe { driver.launch_kernel(f.as_raw(), [1; 3], [1; 3], 0, s, args.as_mut_ptr(), std::ptr::null_mut()) }.unwrap();
    driver.stream_synchronize(s).unwrap();
    // SAFETY: a 4-byte allocation of the host-addressable fake device.
    assert_eq!(unsafe { (out as *const u32).read() }, 42);
    assert_eq!(device.launches.lock().unwrap().last().unwrap().0, "write42_kernel");

    // Events: a green record of the green context's work, waited for by another one.
    driver.ctx_push_current(ctx).unwrap();
    let e = driver.event_create(0).unwrap();
    driver.ctx_pop_current().unwrap();
    let e_primary = driver.event_create(0).unwrap();
    driver.green_ctx_record_event(g, e).unwrap();
    driver.green_ctx_record_event(g, e_primary).unwrap();
    driver.green_ctx_wait_event(g2, e).unwrap();
    driver.event_synchronize(e).unwrap();
    let ctx2 = driver.ctx_from_green_ctx(g2).unwrap();
    driver.ctx_push_current(ctx2).unwrap();
    let e_sibling = driver.event_create(0).unwrap();
    driver.ctx_pop_current().unwrap();
    driver.green_ctx_record_event(g, e_sibling).unwrap();
    // An event of a created context (pushed current by cuCtxCreate) is of another one.
    let created = driver.ctx_create(0, 0).unwrap();
    let e_other = driver.event_create(0).unwrap();
    assert_eq!(driver.green_ctx_record_event(g, e_other).unwrap_err(), CuError::INVALID_HANDLE);
    driver.green_ctx_wait_event(g, e_other).unwrap();
    driver.ctx_destroy(created).unwrap();

    // Destroying: the handle goes stale, the primary context stays retained by setup().
    driver.stream_destroy(s).unwrap();
    driver.green_ctx_destroy(g).unwrap();
    assert_eq!(driver.green_ctx_destroy(g).unwrap_err(), CuError::CONTEXT_IS_DESTROYED);
    assert_eq!(driver.green_ctx_get_id(g).unwrap_err(), CuError::CONTEXT_IS_DESTROYED);
    assert_eq!(driver.ctx_from_green_ctx(g).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.green_ctx_stream_create(g, 1, 0).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.green_ctx_record_event(g, e).unwrap_err(), CuError::INVALID_CONTEXT);
    // Unlike other destroyed contexts, a green context's may not be made current again.
    assert_eq!(driver.ctx_push_current(ctx).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.ctx_from_green_ctx(GreenCtxHandle::NULL).unwrap_err(), CuError::INVALID_CONTEXT);
    driver.green_ctx_destroy(g2).unwrap();
    assert!(driver.primary_ctx_get_state(0).unwrap().1);
}

#[test]
fn green_context_creation_checks_flags_descriptor_and_device() {
    let (driver, _) = setup();
    let whole = driver.device_get_dev_resource(0, SM).unwrap();
    let desc = driver.dev_resource_generate_desc(&[whole]).unwrap();
    assert_eq!(driver.green_ctx_create(desc, 0, 0).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.green_ctx_create(desc, 0, 3).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.green_ctx_create(desc, 1, GREEN_CTX_DEFAULT_STREAM).unwrap_err(), CuError::INVALID_DEVICE);
    assert_eq!(driver.green_ctx_create(ResourceDescHandle::NULL, 0, GREEN_CTX_DEFAULT_STREAM).unwrap_err(), CuError::INVALID_VALUE);
    // The green context retains the primary context: it outlives setup()'s release.
    let g = driver.green_ctx_create(desc, 0, GREEN_CTX_DEFAULT_STREAM).unwrap();
    driver.primary_ctx_release(0).unwrap();
    assert!(driver.primary_ctx_get_state(0).unwrap().1);
    driver.green_ctx_destroy(g).unwrap();
    assert!(!driver.primary_ctx_get_state(0).unwrap().1);
}

#[test]
fn structured_splits_fill_discovered_groups() {
    let (driver, _) = setup();
    let whole = driver.device_get_dev_resource(0, SM).unwrap();
    let group = |sm_count, coscheduled_sm_count| SmGroupParams { sm_count, coscheduled_sm_count, ..Default::default() };
    // One fixed group of 1 SM and one discovered group: it gets the other 3.
    let mut params = [group(1, 0), group(0, 0)];
    let (groups, rest) = driver.sm_resource_split(true, &whole, 0, &mut params).unwrap();
    assert_eq!(groups.iter().map(|g| g.sm_count).collect::<Vec<_>>(), [1, 3]);
    assert_eq!((params[1].sm_count, rest.sm_count), (3, 0));
    // Discovery rounds down to the co-scheduling multiple; a NULL result only discovers.
    let mut params = [group(0, 3)];
    let (groups, rest) = driver.sm_resource_split(false, &whole, 0, &mut params).unwrap();
    assert_eq!((groups.len(), params[0].sm_count, rest.sm_count), (0, 3, 1));
    // The remainder of a split may be split again; a group may not.
    let mut params = [group(2, 2)];
    let (groups, rest) = driver.sm_resource_split(true, &whole, 0, &mut params).unwrap();
    assert_eq!(driver.sm_resource_split(true, &rest, 0, &mut [group(1, 0)]).unwrap().0[0].sm_count, 1);
    assert_eq!(driver.sm_resource_split(true, &groups[0], 0, &mut [group(1, 0)]).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    // Misuse: too many SMs, not a multiple, a discovered group left empty, flags, no groups.
    assert_eq!(driver.sm_resource_split(true, &whole, 0, &mut [group(3, 0), group(2, 0)]).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    assert_eq!(driver.sm_resource_split(true, &whole, 0, &mut [group(3, 2)]).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    assert_eq!(driver.sm_resource_split(true, &whole, 0, &mut [group(4, 0), group(0, 0)]).unwrap_err(), CuError::INVALID_RESOURCE_CONFIGURATION);
    assert_eq!(driver.sm_resource_split(true, &whole, 1, &mut [group(1, 0)]).unwrap_err(), CuError::INVALID_VALUE);
    let backfill_plus = SmGroupParams { flags: 2, ..group(1, 0) };
    assert_eq!(driver.sm_resource_split(true, &whole, 0, &mut [backfill_plus]).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.sm_resource_split(true, &whole, 0, &mut []).unwrap_err(), CuError::INVALID_VALUE);
    let wrong_type = DevResource { ty: 0, ..whole };
    assert_eq!(driver.sm_resource_split(true, &wrong_type, 0, &mut [group(1, 0)]).unwrap_err(), CuError::INVALID_RESOURCE_TYPE);
    // A descriptor takes the outputs of one structured split.
    let mut params = [group(1, 0), group(1, 0)];
    let (groups, rest) = driver.sm_resource_split(true, &whole, 0, &mut params).unwrap();
    driver.dev_resource_generate_desc(&[groups[0], groups[1], rest]).unwrap();
}
