//! Graphs and stream capture over the fake device: structure queries, launches in
//! dependency order (observed through memory and the fake device's launch log), capture
//! recording instead of running, and the error codes of misuse.

use std::ffi::c_void;
use std::sync::atomic::{AtomicU32, Ordering};

use crate::copy::CudaMemcpy3D;
use crate::graph::capture::{CaptureStatus, MODE_GLOBAL, MODE_RELAXED, MODE_THREAD_LOCAL};
use crate::graph::{HostParams, MemsetParams, NodeParams, NodeType, UpdateResult};
use crate::memory::memory_type;
use crate::tests::{load_module, pointer_kernel_node, setup};
use crate::*;

/// A host node function: increments the `AtomicU32` its data points to.
unsafe extern "C" fn bump(data: *mut c_void) {
    // SAFETY: the tests pass a pointer to a live AtomicU32.
    unsafe { &*(data as *const AtomicU32) }.fetch_add(1, Ordering::SeqCst);
}

fn host(counter: &AtomicU32) -> NodeParams {
    NodeParams::Host(HostParams { func: bump, user_data: counter as *const AtomicU32 as usize })
}

fn memset(driver: &Driver, dst: u64, value: u32, count: usize) -> NodeParams {
    let p = MemsetParams { dst, pitch: 0, value, element_size: 4, width: count, height: 1, ctx: CtxHandle::NULL };
    NodeParams::Memset(driver.memset_params(p).unwrap())
}

fn dtoh(driver: &Driver, dst: &mut [u32], src: u64) -> NodeParams {
    let n = std::mem::size_of_val(dst);
    // SAFETY: an all-zero CUDA_MEMCPY3D is a valid value of this plain C structure.
    let mut c: CudaMemcpy3D = unsafe { std::mem::zeroed() };
    c.src_memory_type = memory_type::DEVICE;
    c.src_device = src;
    c.dst_memory_type = memory_type::HOST;
    c.dst_host = dst.as_mut_ptr().cast();
    (c.width_in_bytes, c.height, c.depth) = (n, 1, 1);
    NodeParams::Memcpy(driver.memcpy_params(&c, CtxHandle::NULL).unwrap())
}

#[test]
fn structure_queries_and_edits() {
    let (driver, _) = setup();
    let g = driver.graph_create(0).unwrap();
    assert_eq!(driver.graph_create(1).unwrap_err(), CuError::INVALID_VALUE);
    let a = driver.graph_add_node(g, &[], NodeParams::Empty).unwrap();
    let b = driver.graph_add_node(g, &[a], NodeParams::Empty).unwrap();
    let c = driver.graph_add_node(g, &[a], NodeParams::Empty).unwrap();
    let d = driver.graph_add_node(g, &[b, c], NodeParams::Empty).unwrap();
    assert_eq!(driver.graph_nodes(g).unwrap(), [a, b, c, d]);
    assert_eq!(driver.graph_root_nodes(g).unwrap(), [a]);
    assert_eq!(driver.graph_edges(g).unwrap(), [(a, b), (a, c), (b, d), (c, d)]);
    assert_eq!(driver.graph_node_dependents(a).unwrap(), [b, c]);
    assert_eq!(driver.graph_node_dependencies(d).unwrap(), [b, c]);
    assert_eq!(driver.graph_node_type(d).unwrap(), NodeType::Empty);
    assert_eq!(driver.graph_node_graph(d).unwrap(), g);

    let other = driver.graph_create(0).unwrap();
    let foreign = driver.graph_add_node(other, &[], NodeParams::Empty).unwrap();
    // (what, result)
    let cases: [(&str, Result<(), CuError>); 8] = [
        ("dependency from another graph", driver.graph_add_node(g, &[foreign], NodeParams::Empty).map(drop)),
        ("duplicate dependency", driver.graph_add_node(g, &[a, a], NodeParams::Empty).map(drop)),
        ("existing edge", driver.graph_add_dependencies(g, &[a], &[b])),
        ("self edge", driver.graph_add_dependencies(g, &[a], &[a])),
        ("edge to another graph", driver.graph_add_dependencies(g, &[a], &[foreign])),
        ("missing edge removed", driver.graph_remove_dependencies(g, &[b], &[c])),
        ("stale graph", driver.graph_nodes(GraphHandle(g.0 ^ (1 << 32))).map(drop)),
        ("node params of another type", driver.graph_node_set_params(a, NodeParams::Graph(other))),
    ];
    for (what, result) in cases {
        assert_eq!(result.unwrap_err(), CuError::INVALID_VALUE, "{what}");
    }
    assert_eq!(driver.graph_nodes(g).unwrap().len(), 4, "failed calls add nothing");

    driver.graph_add_dependencies(g, &[a], &[d]).unwrap();
    driver.graph_remove_dependencies(g, &[b], &[d]).unwrap();
    assert_eq!(driver.graph_node_dependencies(d).unwrap(), [c, a]);
    let clone = driver.graph_clone(g).unwrap();
    let dc = driver.graph_node_find_in_clone(d, clone).unwrap();
    assert_ne!(dc, d);
    let ac = driver.graph_node_find_in_clone(a, clone).unwrap();
    let cc = driver.graph_node_find_in_clone(c, clone).unwrap();
    assert_eq!(driver.graph_node_dependencies(dc).unwrap(), [cc, ac], "the clone has the same edges, between its own nodes");
    assert_eq!(driver.graph_node_find_in_clone(foreign, clone).unwrap_err(), CuError::INVALID_VALUE);

    driver.graph_destroy_node(c).unwrap();
    assert_eq!(driver.graph_edges(g).unwrap(), [(a, b), (a, d)]);
    assert_eq!(driver.graph_node_type(c).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.graph_nodes(clone).unwrap().len(), 4, "the clone is independent");

    // A cycle cannot be instantiated.
    driver.graph_add_dependencies(g, &[d], &[b]).unwrap();
    driver.graph_add_dependencies(g, &[b], &[d]).unwrap();
    assert_eq!(driver.graph_instantiate(g, 0).unwrap_err().0, CuError::INVALID_VALUE);
    assert_eq!(driver.graph_instantiate(clone, 16).unwrap_err().0, CuError::INVALID_VALUE, "unknown flag");
    driver.graph_destroy(g).unwrap();
    assert_eq!(driver.graph_node_type(a).unwrap_err(), CuError::INVALID_VALUE, "nodes die with their graph");
    assert_eq!(driver.graph_destroy(g).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn launches_run_nodes_after_their_dependencies() {
    let (driver, device) = setup();
    let m = load_module(&driver);
    let f = driver.module_get_function(m, "write42_kernel").unwrap();
    let buf = driver.mem_alloc(16).unwrap();
    let mut out = [0u32; 4];
    let calls = AtomicU32::new(0);
    let g = driver.graph_create(0).unwrap();
    // The kernel node is added first but depends on the memset: if the launch ran nodes
    // in creation order, the memset would overwrite the kernel's 42.
    let set = driver.graph_add_node(g, &[], NodeParams::Empty).unwrap();
    let kernel = driver.graph_add_node(g, &[set], pointer_kernel_node(&driver, f, buf)).unwrap();
    let fill = driver.graph_add_node(g, &[], memset(&driver, buf, 5, 4)).unwrap();
    driver.graph_add_dependencies(g, &[fill], &[set]).unwrap();
    let copy = driver.graph_add_node(g, &[kernel], dtoh(&driver, &mut out, buf)).unwrap();
    driver.graph_add_node(g, &[copy], host(&calls)).unwrap();
    assert_eq!(driver.graph_node_type(kernel).unwrap(), NodeType::Kernel);

    let exec = driver.graph_instantiate(g, 0).unwrap();
    let before = device.launches.lock().unwrap().len();
    let stream = driver.stream_create(0).unwrap();
    for launch in 1..=3u32 {
        out = [0; 4];
        driver.graph_launch(exec, stream).unwrap();
        driver.stream_synchronize(stream).unwrap();
        assert_eq!(out, [42, 5, 5, 5], "launch {launch}");
        assert_eq!(calls.load(Ordering::SeqCst), launch);
    }
    assert_eq!(device.launches.lock().unwrap().len() - before, 3);

    // Changing the graph does not change the executable graph; an update does.
    driver.graph_node_set_params(fill, memset(&driver, buf, 7, 4)).unwrap();
    driver.graph_launch(exec, stream).unwrap();
    driver.stream_synchronize(stream).unwrap();
    assert_eq!(out, [42, 5, 5, 5]);
    assert_eq!(driver.graph_exec_update(exec, g).unwrap(), (UpdateResult::Success, None));
    driver.graph_launch(exec, stream).unwrap();
    driver.stream_synchronize(stream).unwrap();
    assert_eq!(out, [42, 7, 7, 7]);
    let extra = driver.graph_add_node(g, &[], NodeParams::Empty).unwrap();
    assert_eq!(driver.graph_exec_update(exec, g).unwrap(), (UpdateResult::TopologyChanged, Some(extra)));
    // cuGraphExecMemsetNodeSetParams-like update of one node of the executable graph.
    driver.graph_exec_set_node_params(exec, fill, memset(&driver, buf, 9, 4)).unwrap();
    assert_eq!(driver.graph_exec_set_node_params(exec, fill, NodeParams::Empty).unwrap_err(), CuError::INVALID_VALUE);
    driver.graph_launch(exec, stream).unwrap();
    driver.stream_synchronize(stream).unwrap();
    assert_eq!(out, [42, 9, 9, 9]);

    // A child graph node runs its graph (a clone taken when the node was added).
    let parent = driver.graph_create(0).unwrap();
    driver.graph_add_node(parent, &[], NodeParams::Graph(g)).unwrap();
    driver.graph_destroy(g).unwrap();
    let pexec = driver.graph_instantiate(parent, 0).unwrap();
    out = [0; 4];
    driver.graph_launch(pexec, stream).unwrap();
    driver.stream_synchronize(stream).unwrap();
    assert_eq!(out, [42, 7, 7, 7]);

    // Memory freed after instantiation fails the launch instead of being touched.
    driver.mem_free(buf).unwrap();
    assert_eq!(driver.graph_launch(exec, stream).unwrap_err(), CuError::INVALID_VALUE);
    driver.graph_exec_destroy(exec).unwrap();
    assert_eq!(driver.graph_launch(exec, stream).unwrap_err(), CuError::INVALID_VALUE);
}

#[test]
fn capture_records_work_and_joins_forks() {
    let (driver, device) = setup();
    let m = load_module(&driver);
    let f = driver.module_get_function(m, "write42_kernel").unwrap();
    let buf = driver.mem_alloc(16).unwrap();
    let (s1, s2) = (driver.stream_create(1).unwrap(), driver.stream_create(1).unwrap());
    let (e1, e2) = (driver.event_create(2).unwrap(), driver.event_create(2).unwrap());
    let calls = AtomicU32::new(0);
    let mut out = [0u32; 4];
    let before = device.launches.lock().unwrap().len();

    driver.stream_begin_capture(s1, MODE_GLOBAL).unwrap();
    assert_eq!(driver.stream_capture_info(s1).unwrap().status, CaptureStatus::Active);
    driver.memset_async(buf, 5, 4, 4, s1).unwrap();
    driver.event_record(e1, s1).unwrap();
    driver.stream_wait_event(s2, e1, 0).unwrap();
    let info = driver.stream_capture_info(s2).unwrap();
    assert_eq!(info.status, CaptureStatus::Active, "s2 joined");
    assert_eq!(info.id, driver.stream_capture_info(s1).unwrap().id);
    let mut p = buf;
    let mut args = [&mut p as *mut u64 as *mut c_void];
    // SAFETY: one argument for the kernel's one parameter.
    unsafe { driver.launch_kernel(f.as_raw(), [1; 3], [1; 3], 0, s2, args.as_mut_ptr(), std::ptr::null_mut()) }.unwrap();
    driver.event_record(e2, s2).unwrap();
    driver.stream_wait_event(s1, e2, 0).unwrap();
    // SAFETY: `out` outlives every launch of the graph below.
    unsafe { driver.memcpy_dtoh_async(out.as_mut_ptr().cast(), buf, 16, s1) }.unwrap();
    driver.launch_host_fn(s1, HostParams { func: bump, user_data: &calls as *const AtomicU32 as usize }).unwrap();
    let info = driver.stream_capture_info(s1).unwrap();
    assert_eq!(info.deps.len(), 1, "the host node alone");
    let g = driver.stream_end_capture(s1).unwrap();
    assert_eq!(driver.stream_capture_info(s2).unwrap().status, CaptureStatus::None);
    assert_eq!(device.launches.lock().unwrap().len(), before, "nothing ran during the capture");
    assert_eq!((out, calls.load(Ordering::SeqCst)), ([0; 4], 0));
    // An event last recorded in a capture that has ended (an H200 answers INVALID_VALUE).
    assert_eq!(driver.event_query(e1), Err(CuError::INVALID_VALUE));

    let nodes = driver.graph_nodes(g).unwrap();
    let types: Vec<NodeType> = nodes.iter().map(|&n| driver.graph_node_type(n).unwrap()).collect();
    assert_eq!(types, [NodeType::Memset, NodeType::Kernel, NodeType::Memcpy, NodeType::Host]);
    // The join gives the copy both s1's own dependency and the event's node.
    let edges = [(nodes[0], nodes[1]), (nodes[0], nodes[2]), (nodes[1], nodes[2]), (nodes[2], nodes[3])];
    assert_eq!(driver.graph_edges(g).unwrap(), edges);

    let exec = driver.graph_instantiate(g, 0).unwrap();
    for launch in 1..=2 {
        out = [0; 4];
        driver.graph_launch(exec, s2).unwrap();
        driver.stream_synchronize(s2).unwrap();
        assert_eq!(out, [42, 5, 5, 5], "launch {launch}");
    }
    assert_eq!(calls.load(Ordering::SeqCst), 2);
    assert_eq!(device.launches.lock().unwrap().len(), before + 2);

    // Capture dependencies set by hand: a node added to the capture's graph directly.
    driver.stream_begin_capture(s1, MODE_GLOBAL).unwrap();
    let cg = driver.stream_capture_info(s1).unwrap().graph.unwrap();
    let manual = driver.graph_add_node(cg, &[], NodeParams::Empty).unwrap();
    driver.stream_update_capture_dependencies(s1, &[manual], 1).unwrap();
    driver.memset_async(buf, 1, 4, 4, s1).unwrap();
    assert_eq!(driver.stream_update_capture_dependencies(s1, &[nodes[0]], 0).unwrap_err(), CuError::INVALID_VALUE);
    let g2 = driver.stream_end_capture(s1).unwrap();
    assert_eq!(g2, cg);
    let last = *driver.graph_nodes(g2).unwrap().last().unwrap();
    assert_eq!(driver.graph_node_dependencies(last).unwrap(), [manual]);
}

/// A capture whose stream is destroyed, or whose context is reset, can no longer be ended:
/// it must not keep refusing the thread's potentially unsafe calls (found by the
/// driver_calls fuzz target: every cuMemAlloc answered STREAM_CAPTURE_UNSUPPORTED after a
/// primary context reset in the middle of a capture).
#[test]
fn orphaned_captures_end_with_their_stream_or_context() {
    let (driver, _) = setup();
    let s = driver.stream_create(1).unwrap();
    driver.stream_begin_capture(s, MODE_GLOBAL).unwrap();
    assert_eq!(driver.mem_alloc(16).unwrap_err(), CuError::STREAM_CAPTURE_UNSUPPORTED);
    driver.stream_destroy(s).unwrap();
    driver.mem_free(driver.mem_alloc(16).unwrap()).unwrap();

    let s = driver.stream_create(1).unwrap();
    driver.stream_begin_capture(s, MODE_GLOBAL).unwrap();
    driver.primary_ctx_reset(0).unwrap();
    let ctx = driver.primary_ctx_retain(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();
    driver.mem_free(driver.mem_alloc(16).unwrap()).unwrap();
}

#[test]
fn capture_misuse_answers_nvidias_codes() {
    let (driver, _) = setup();
    let buf = driver.mem_alloc(16).unwrap();
    let s = driver.stream_create(1).unwrap();
    let t = driver.stream_create(1).unwrap();
    let blocking = driver.stream_create(0).unwrap();
    let e = driver.event_create(2).unwrap();
    let legacy = StreamHandle::LEGACY;

    assert_eq!(driver.stream_begin_capture(legacy, MODE_GLOBAL).unwrap_err(), CuError::STREAM_CAPTURE_UNSUPPORTED);
    assert_eq!(driver.stream_begin_capture(s, 3).unwrap_err(), CuError::INVALID_VALUE);
    assert_eq!(driver.stream_end_capture(s).unwrap_err(), CuError::ILLEGAL_STATE);
    assert_eq!(driver.stream_update_capture_dependencies(s, &[], 0).unwrap_err(), CuError::ILLEGAL_STATE);
    assert_eq!(driver.thread_exchange_capture_mode(7).unwrap_err(), CuError::INVALID_VALUE);

    // (what, the illegal call, its code, then what the capture's end answers)
    type Case<'a> = (&'a str, StreamHandle, Box<dyn Fn() -> Result<(), CuError> + 'a>, CuError, Option<CuError>);
    let cases: Vec<Case> = vec![
        ("synchronize", s, Box::new(|| driver.stream_synchronize(s)), CuError::STREAM_CAPTURE_UNSUPPORTED, Some(CuError::STREAM_CAPTURE_INVALIDATED)),
        ("query", s, Box::new(|| driver.stream_query(s)), CuError::STREAM_CAPTURE_UNSUPPORTED, Some(CuError::STREAM_CAPTURE_INVALIDATED)),
        ("begin twice", s, Box::new(|| driver.stream_begin_capture(s, MODE_GLOBAL)), CuError::ILLEGAL_STATE, None),
        (
            "blocking memset",
            s,
            Box::new(|| driver.memset(buf, 0, 4, 4)),
            CuError::STREAM_CAPTURE_UNSUPPORTED,
            Some(CuError::STREAM_CAPTURE_INVALIDATED),
        ),
        ("cuMemAlloc", s, Box::new(|| driver.mem_alloc(8).map(drop)), CuError::STREAM_CAPTURE_UNSUPPORTED, Some(CuError::STREAM_CAPTURE_INVALIDATED)),
        (
            "cuCtxSynchronize",
            s,
            Box::new(|| driver.ctx_synchronize(CtxHandle::NULL)),
            CuError::STREAM_CAPTURE_UNSUPPORTED,
            Some(CuError::STREAM_CAPTURE_INVALIDATED),
        ),
        (
            "legacy work",
            blocking,
            Box::new(|| driver.memset_async(buf, 0, 4, 4, legacy)),
            CuError::STREAM_CAPTURE_IMPLICIT,
            Some(CuError::STREAM_CAPTURE_INVALIDATED),
        ),
        (
            "stream callback",
            s,
            Box::new(|| driver.launch_host_func(s, Box::new(|_| {}))),
            CuError::STREAM_CAPTURE_UNSUPPORTED,
            Some(CuError::STREAM_CAPTURE_INVALIDATED),
        ),
        (
            "end from the forked stream",
            s,
            Box::new(|| {
                driver.event_record(e, s)?;
                driver.stream_wait_event(t, e, 0)?;
                driver.stream_end_capture(t).map(drop)
            }),
            CuError::STREAM_CAPTURE_UNMATCHED,
            Some(CuError::STREAM_CAPTURE_INVALIDATED),
        ),
        (
            "unjoined fork",
            s,
            Box::new(|| {
                driver.event_record(e, s)?;
                driver.stream_wait_event(t, e, 0)?;
                driver.memset_async(buf, 0, 4, 4, t)?;
                Err(CuError::STREAM_CAPTURE_UNJOINED)
            }),
            CuError::STREAM_CAPTURE_UNJOINED,
            Some(CuError::STREAM_CAPTURE_UNJOINED),
        ),
        (
            "wait for uncaptured work",
            s,
            Box::new(|| {
                driver.event_record(e, t)?;
                driver.stream_wait_event(s, e, 0)
            }),
            CuError::STREAM_CAPTURE_ISOLATION,
            Some(CuError::STREAM_CAPTURE_INVALIDATED),
        ),
    ];
    for (what, stream, call, code, end) in cases {
        driver.stream_begin_capture(stream, MODE_GLOBAL).unwrap();
        driver.memset_async(buf, 1, 4, 4, stream).unwrap();
        assert_eq!(call().unwrap_err(), code, "{what}");
        if end == Some(CuError::STREAM_CAPTURE_INVALIDATED) {
            assert_eq!(driver.stream_capture_info(stream).unwrap().status, CaptureStatus::Invalidated, "{what}");
            assert_eq!(driver.memset_async(buf, 1, 4, 4, stream).unwrap_err(), CuError::STREAM_CAPTURE_INVALIDATED, "{what}");
        }
        match driver.stream_end_capture(stream) {
            Ok(g) => {
                assert_eq!(end, None, "{what}");
                driver.graph_destroy(g).unwrap();
            }
            Err(got) => assert_eq!(Some(got), end, "{what}: end"),
        }
        assert_eq!(driver.stream_capture_info(t).unwrap().status, CaptureStatus::None, "{what}: t left");
    }

    // Modes: a relaxed capture permits unsafe calls of its thread, the others do not; a
    // thread in relaxed mode may make them during any capture.
    for (mode, alloc_ok) in [(MODE_RELAXED, true), (MODE_THREAD_LOCAL, false), (MODE_GLOBAL, false)] {
        driver.stream_begin_capture(s, mode).unwrap();
        let result = driver.mem_alloc(8);
        assert_eq!(result.is_ok(), alloc_ok, "mode {mode}");
        assert_eq!(driver.stream_end_capture(s).is_ok(), alloc_ok, "mode {mode}");
    }
    assert_eq!(driver.thread_exchange_capture_mode(MODE_RELAXED).unwrap(), MODE_GLOBAL);
    driver.stream_begin_capture(s, MODE_GLOBAL).unwrap();
    driver.mem_alloc(8).unwrap();
    assert_eq!(driver.thread_exchange_capture_mode(MODE_GLOBAL).unwrap(), MODE_RELAXED);
    let g = driver.stream_end_capture(s).unwrap();
    driver.graph_destroy(g).unwrap();
}
