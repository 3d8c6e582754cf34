//! Conditional nodes over the fake device: which bodies run for IF, IF/ELSE, SWITCH and
//! WHILE nodes (observed in the fake device's launch log, kernels writing the handle's
//! cell as `cudaGraphSetConditional` does), default values, and the codes of misuse.

use std::ffi::c_void;

use super::{CondKind, ASSIGN_DEFAULT};
use crate::graph::{KernelNodeDesc, NodeParams, NodeType};
use crate::tests::{load_module, pointer_kernel_node as kernel, setup};
use crate::*;

/// The names of the kernels launched since `from`.
fn launched(device: &crate::fake::FakeDevice, from: usize) -> Vec<String> {
    device.launches.lock().unwrap()[from..].iter().map(|l| l.0.clone()).collect()
}

#[test]
fn bodies_run_by_the_handle_value() {
    let (driver, device) = setup();
    let ctx = driver.ctx_get_current();
    let m = load_module(&driver);
    let write42 = driver.module_get_function(m, "write42_kernel").unwrap();
    // A module of its own for the fake device's decrementing kernel.
    let ptx = ".version 8.5\n.target sm_80\n.address_size 64\n.visible .entry dec_kernel(.param .u64 p)\n{ ret; }\n\0";
    // SAFETY: NUL-terminated PTX text.
    let (dm, _) = unsafe { driver.module_load_data(ptx.as_ptr().cast(), &backend_api::LoadOptions::default()) };
    let dec = driver.module_get_function(dm.unwrap(), "dec_kernel").unwrap();
    let noargs = driver.module_get_function(m, "noargs").unwrap();
    let stream = driver.stream_create(0).unwrap();
    let run = |exec| {
        let before = device.launches.lock().unwrap().len();
        driver.graph_launch(exec, stream).unwrap();
        driver.stream_synchronize(stream).unwrap();
        launched(&device, before)
    };
    let noargs_node = || {
        let d = KernelNodeDesc {
            func: noargs.as_raw(),
            kern: std::ptr::null_mut(),
            ctx: CtxHandle::NULL,
            grid: [1, 1, 1],
            block: [1, 1, 1],
            shared_bytes: 0,
            kernel_params: std::ptr::null_mut(),
            extra: std::ptr::null_mut(),
        };
        // SAFETY: no parameters.
        NodeParams::Kernel(unsafe { driver.kernel_params(&d) }.unwrap())
    };

    // IF/ELSE: the value 0 (the default, assigned at each launch) runs the ELSE body; a
    // kernel upstream setting 42 runs the IF body.
    let g = driver.graph_create(0).unwrap();
    let h = driver.graph_conditional_handle_create(g, ctx, 0, ASSIGN_DEFAULT).unwrap();
    let c = driver.conditional_params(h, CondKind::If as u32, 2, ctx).unwrap();
    let bodies = c.bodies.clone();
    let node = driver.graph_add_node(g, &[], NodeParams::Conditional(c)).unwrap();
    assert_eq!(driver.graph_node_type(node).unwrap(), NodeType::Conditional);
    driver.graph_add_node(bodies[0], &[], kernel(&driver, dec, h)).unwrap();
    driver.graph_add_node(bodies[1], &[], noargs_node()).unwrap();
    let exec = driver.graph_instantiate(g, 0).unwrap();
    assert_eq!(run(exec), ["noargs"]);
    let setter = driver.graph_add_node(g, &[], kernel(&driver, write42, h)).unwrap();
    driver.graph_add_dependencies(g, &[setter], &[node]).unwrap();
    let exec2 = driver.graph_instantiate(g, 0).unwrap();
    assert_eq!(run(exec2), ["write42_kernel", "dec_kernel"]);
    assert_eq!(run(exec), ["noargs"], "the first executable graph is unchanged");

    // WHILE: a default of 3 and a body decrementing the value run the body 3 times;
    // nested in it, an IF over a second handle (no default assignment) runs while that
    // value is non-zero.
    let g = driver.graph_create(0).unwrap();
    let h = driver.graph_conditional_handle_create(g, ctx, 3, ASSIGN_DEFAULT).unwrap();
    let inner = driver.graph_conditional_handle_create(g, ctx, 1, 0).unwrap();
    let c = driver.conditional_params(h, CondKind::While as u32, 1, ctx).unwrap();
    let body = c.bodies[0];
    driver.graph_add_node(g, &[], NodeParams::Conditional(c)).unwrap();
    let dec_node = driver.graph_add_node(body, &[], kernel(&driver, dec, h)).unwrap();
    let ic = driver.conditional_params(inner, CondKind::If as u32, 1, ctx).unwrap();
    let inner_body = ic.bodies[0];
    driver.graph_add_node(body, &[dec_node], NodeParams::Conditional(ic)).unwrap();
    driver.graph_add_node(inner_body, &[], kernel(&driver, dec, inner)).unwrap();
    let exec = driver.graph_instantiate(g, 0).unwrap();
    assert_eq!(run(exec), ["dec_kernel", "dec_kernel", "dec_kernel", "dec_kernel"], "3 outer iterations, the inner body once");
    assert_eq!(run(exec), ["dec_kernel"; 3], "the inner value stays 0 without a default assignment");

    // SWITCH: the value selects the body; a value past the last body runs none.
    let g = driver.graph_create(0).unwrap();
    let h = driver.graph_conditional_handle_create(g, ctx, 1, ASSIGN_DEFAULT).unwrap();
    let c = driver.conditional_params(h, CondKind::Switch as u32, 3, ctx).unwrap();
    let bodies = c.bodies.clone();
    let node = driver.graph_add_node(g, &[], NodeParams::Conditional(c)).unwrap();
    driver.graph_add_node(bodies[0], &[], NodeParams::Empty).unwrap();
    driver.graph_add_node(bodies[1], &[], noargs_node()).unwrap();
    driver.graph_add_node(bodies[2], &[], kernel(&driver, dec, h)).unwrap();
    let exec = driver.graph_instantiate(g, 0).unwrap();
    assert_eq!(run(exec), ["noargs"]);
    let setter = driver.graph_add_node(g, &[], kernel(&driver, write42, h)).unwrap();
    driver.graph_add_dependencies(g, &[setter], &[node]).unwrap();
    let exec = driver.graph_instantiate(g, 0).unwrap();
    assert_eq!(run(exec), ["write42_kernel"], "42 selects no body of 3");

    // A clone owns copies of the bodies; destroying the original keeps the clone working.
    let clone = driver.graph_clone(g).unwrap();
    driver.graph_destroy(g).unwrap();
    let exec = driver.graph_instantiate(clone, 0).unwrap();
    assert_eq!(run(exec), ["write42_kernel"]);
}

#[test]
fn misuse() {
    let (driver, _device) = setup();
    let ctx = driver.ctx_get_current();
    let g = driver.graph_create(0).unwrap();
    let bad = |r: CuResult<NodeParams>| r.map(drop).unwrap_err();
    assert_eq!(driver.graph_conditional_handle_create(g, ctx, 0, 2).unwrap_err(), CuError::INVALID_VALUE);
    // NVIDIA's driver wants the context named (H200: CUDA_ERROR_INVALID_CONTEXT).
    assert_eq!(driver.graph_conditional_handle_create(g, CtxHandle::NULL, 0, 0).unwrap_err(), CuError::INVALID_CONTEXT);
    assert_eq!(driver.graph_conditional_handle_create(GraphHandle(7), ctx, 0, 0).unwrap_err(), CuError::INVALID_VALUE);
    let h = driver.graph_conditional_handle_create(g, ctx, 0, 0).unwrap();
    let params = |h, kind: CondKind, size| driver.conditional_params(h, kind as u32, size, ctx).map(NodeParams::Conditional);
    assert_eq!(bad(params(h + 4, CondKind::If, 1)), CuError::INVALID_VALUE, "not a handle");
    assert_eq!(bad(params(h, CondKind::If, 3)), CuError::INVALID_VALUE);
    assert_eq!(bad(params(h, CondKind::If, 0)), CuError::INVALID_VALUE);
    assert_eq!(bad(params(h, CondKind::While, 2)), CuError::INVALID_VALUE);
    assert_eq!(bad(params(h, CondKind::Switch, 0)), CuError::INVALID_VALUE);
    assert_eq!(driver.conditional_params(h, 3, 1, ctx).map(drop).unwrap_err(), CuError::INVALID_VALUE, "unknown type");

    // Bodies hold kernel, empty, memcpy, memset, child graph and conditional nodes only.
    let NodeParams::Conditional(c) = params(h, CondKind::If, 1).unwrap() else { unreachable!() };
    let body = c.bodies[0];
    driver.graph_add_node(g, &[], NodeParams::Conditional(c)).unwrap();
    let e = driver.event_create(0).unwrap();
    let rec = driver.graph_add_node(body, &[], NodeParams::EventRecord(e)).unwrap();
    let (code, at) = driver.graph_instantiate(g, 0).unwrap_err();
    assert_eq!((code, at), (CuError::INVALID_VALUE, Some(rec)));

    // Destroying the graph forgets its handles.
    driver.graph_destroy(g).unwrap();
    assert_eq!(bad(params(h, CondKind::If, 1)), CuError::INVALID_VALUE);
    assert_eq!(driver.graph_node_type(rec).unwrap_err(), CuError::INVALID_VALUE, "bodies die with their node's graph");
}

/// User objects: a clone holds references of its own, an executable graph keeps the
/// object alive after its graph is gone, and the destructor runs once, on the internal
/// thread, when the last reference goes.
#[test]
fn user_object_references() {
    use std::sync::atomic::{AtomicU32, Ordering};
    static DESTROYED: AtomicU32 = AtomicU32::new(0);
    unsafe extern "C" fn destroy(p: *mut c_void) {
        DESTROYED.fetch_add(p as usize as u32, Ordering::SeqCst);
    }
    let wait_for = |n: u32| {
        for _ in 0..500 {
            if DESTROYED.load(Ordering::SeqCst) == n {
                return true;
            }
            std::thread::sleep(std::time::Duration::from_millis(10));
        }
        false
    };
    let (driver, _device) = setup();
    use crate::graph::user_object::{GRAPH_MOVE, NO_DESTRUCTOR_SYNC};
    assert_eq!(driver.user_object_create(destroy, 1, 1, 0).unwrap_err(), CuError::INVALID_VALUE, "flags must be NO_DESTRUCTOR_SYNC");
    let o = driver.user_object_create(destroy, 1, 1, NO_DESTRUCTOR_SYNC).unwrap();
    let g = driver.graph_create(0).unwrap();
    driver.graph_retain_user_object(g, o, 1, GRAPH_MOVE).unwrap();
    assert_eq!(driver.graph_release_user_object(g, o, 2).unwrap_err(), CuError::INVALID_VALUE, "the graph owns 1");
    let clone = driver.graph_clone(g).unwrap();
    let exec = driver.graph_instantiate(clone, 0).unwrap();
    driver.graph_destroy(g).unwrap();
    driver.graph_destroy(clone).unwrap();
    std::thread::sleep(std::time::Duration::from_millis(30));
    assert_eq!(DESTROYED.load(Ordering::SeqCst), 0, "the executable graph holds a reference");
    driver.graph_exec_destroy(exec).unwrap();
    assert!(wait_for(1), "destroyed {} times", DESTROYED.load(Ordering::SeqCst));
    assert_eq!(driver.user_object_retain(o, 1).unwrap_err(), CuError::INVALID_VALUE, "the handle died with the object");
}

/// `cuStreamBeginCaptureToGraph`: nodes go into the caller's graph after the given
/// dependencies; an invalidated capture leaves the graph to its owner.
#[test]
fn capture_into_an_existing_graph() {
    let (driver, _device) = setup();
    let buf = driver.mem_alloc(16).unwrap();
    let s = driver.stream_create(1).unwrap();
    let g = driver.graph_create(0).unwrap();
    let first = driver.graph_add_node(g, &[], NodeParams::Empty).unwrap();
    let other = driver.graph_create(0).unwrap();
    let foreign = driver.graph_add_node(other, &[], NodeParams::Empty).unwrap();
    assert_eq!(driver.stream_begin_capture_to_graph(s, g, &[foreign], 0).unwrap_err(), CuError::INVALID_VALUE, "a node of another graph");
    driver.stream_begin_capture_to_graph(s, g, &[first], 0).unwrap();
    assert!(driver.stream_captures_to_existing_graph(s).unwrap());
    driver.memset_async(buf, 1, 4, 4, s).unwrap();
    driver.memset_async(buf, 2, 4, 4, s).unwrap();
    assert_eq!(driver.stream_end_capture(s).unwrap(), g);
    let nodes = driver.graph_nodes(g).unwrap();
    assert_eq!(nodes.len(), 3);
    assert_eq!(driver.graph_node_dependencies(nodes[1]).unwrap(), [first]);
    assert_eq!(driver.graph_node_dependencies(nodes[2]).unwrap(), [nodes[1]]);

    driver.stream_begin_capture_to_graph(s, g, &[], 0).unwrap();
    driver.memset_async(buf, 3, 4, 4, s).unwrap();
    assert_eq!(driver.stream_synchronize(s).unwrap_err(), CuError::STREAM_CAPTURE_UNSUPPORTED);
    assert_eq!(driver.stream_end_capture(s).unwrap_err(), CuError::STREAM_CAPTURE_INVALIDATED);
    assert_eq!(driver.graph_nodes(g).unwrap().len(), 4, "the graph outlives its invalidated capture");
    assert!(!driver.stream_captures_to_existing_graph(s).unwrap());
}
