//! Launches of executable graphs whose kernel nodes run as one stream operation
//! (`PlanStep::Kernels`): the order of kernels and of the nodes between them, the
//! parameters each launch uses after `SetParams` and enabling, launches on two streams,
//! and a fault in the middle of a chain. Observed through the fake device's launch log
//! (kernel name and packed parameters, in the order the kernels ran) and its memory.

use std::ffi::c_void;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use crate::copy::CudaMemcpy3D;
use crate::fake::LaunchRecord;
use crate::graph::{HostParams, MemsetParams, NodeParams};
use crate::memory::memory_type;
use crate::tests::{load_module, pointer_kernel_node as kernel, setup};
use crate::*;

/// What a host node saw: how many kernels the device had run when it ran.
struct Seen {
    log: Arc<Mutex<Vec<LaunchRecord>>>,
    at: AtomicUsize,
}

unsafe extern "C" fn note(data: *mut c_void) {
    // SAFETY: the tests pass a pointer to a live `Seen`.
    let seen = unsafe { &*(data as *const Seen) };
    seen.at.store(seen.log.lock().unwrap().len(), Ordering::SeqCst);
}

fn dtoh(driver: &Driver, dst: &mut [u32; 4], src: u64) -> NodeParams {
    // SAFETY: an all-zero CUDA_MEMCPY3D is a valid value of this plain C structure.
    let mut c: CudaMemcpy3D = unsafe { std::mem::zeroed() };
    c.src_memory_type = memory_type::DEVICE;
    c.src_device = src;
    c.dst_memory_type = memory_type::HOST;
    c.dst_host = dst.as_mut_ptr().cast();
    (c.width_in_bytes, c.height, c.depth) = (16, 1, 1);
    NodeParams::Memcpy(driver.memcpy_params(&c, CtxHandle::NULL).unwrap())
}

/// Adds `nodes` to `g` as a chain (each after the one before); their handles.
fn chain(driver: &Driver, g: GraphHandle, nodes: Vec<NodeParams>) -> Vec<GraphNodeHandle> {
    let mut out: Vec<GraphNodeHandle> = Vec::new();
    for p in nodes {
        let deps: Vec<_> = out.last().copied().into_iter().collect();
        out.push(driver.graph_add_node(g, &deps, p).unwrap());
    }
    out
}

/// The parameter (a device pointer) of each launch logged since `from`, with its kernel.
fn launched(log: &Mutex<Vec<LaunchRecord>>, from: usize) -> Vec<(String, u64)> {
    log.lock().unwrap()[from..].iter().map(|(name, _, params)| (name.clone(), u64::from_le_bytes(params[..8].try_into().unwrap()))).collect()
}

#[test]
fn kernel_chains_keep_their_order_and_take_new_parameters() {
    let (driver, device) = setup();
    let m = load_module(&driver);
    let f = driver.module_get_function(m, "write42_kernel").unwrap();
    let buf = driver.mem_alloc(16).unwrap();
    let slot = |i: u64| buf + 4 * i;
    let w = |ptrs: &[u64]| ptrs.iter().map(|&p| ("write42_kernel".to_string(), p)).collect::<Vec<_>>();
    let mut out = [[0u32; 4]; 2];
    let seen = Seen { log: device.launches.clone(), at: AtomicUsize::new(0) };
    let g = driver.graph_create(0).unwrap();
    let fill = MemsetParams { dst: buf, pitch: 0, value: 5, element_size: 4, width: 4, height: 1, ctx: CtxHandle::NULL };
    let host = NodeParams::Host(HostParams { func: note, user_data: &seen as *const Seen as usize });
    let [out0, out1] = &mut out;
    // A fill, two kernels with an empty node between them, a copy and a host node, a third
    // kernel, a copy: each copy and the host node must see exactly the kernels before them.
    let nodes = chain(
        &driver,
        g,
        vec![
            NodeParams::Memset(driver.memset_params(fill).unwrap()),
            kernel(&driver, f, slot(0)),
            NodeParams::Empty,
            kernel(&driver, f, slot(1)),
            dtoh(&driver, out0, buf),
            host,
            kernel(&driver, f, slot(2)),
            dtoh(&driver, out1, buf),
        ],
    );
    let (k0, k1) = (nodes[1], nodes[3]);
    let exec = driver.graph_instantiate(g, 0).unwrap();
    let stream = driver.stream_create(0).unwrap();
    let run = |stream| {
        let from = device.launches.lock().unwrap().len();
        driver.graph_launch(exec, stream).unwrap();
        driver.stream_synchronize(stream).unwrap();
        launched(&device.launches, from)
    };

    let from = device.launches.lock().unwrap().len();
    assert_eq!(run(stream), w(&[slot(0), slot(1), slot(2)]));
    assert_eq!(out, [[42, 42, 5, 5], [42, 42, 42, 5]]);
    assert_eq!(seen.at.load(Ordering::SeqCst), from + 2, "the host node ran after the first two kernels only");

    // cuGraphExecKernelNodeSetParams reaches the next launch; disabling drops a node from
    // a chain and enabling brings it back.
    driver.graph_exec_set_node_params(exec, k1, kernel(&driver, f, slot(3))).unwrap();
    assert_eq!(run(stream), w(&[slot(0), slot(3), slot(2)]));
    assert!(!driver.graph_node_set_enabled(exec, k0, Some(false)).unwrap());
    assert_eq!(run(stream), w(&[slot(3), slot(2)]));
    assert!(driver.graph_node_set_enabled(exec, k0, Some(true)).unwrap());
    assert_eq!(run(stream), w(&[slot(0), slot(3), slot(2)]));

    // A launch already queued keeps the parameters it was launched with; the next one,
    // on another stream, runs after it with the new ones.
    let other = driver.stream_create(0).unwrap();
    let (release, held) = std::sync::mpsc::channel::<()>();
    driver
        .launch_host_func(
            stream,
            Box::new(move |_| {
                let _ = held.recv();
            }),
        )
        .unwrap();
    let from = device.launches.lock().unwrap().len();
    driver.graph_launch(exec, stream).unwrap();
    driver.graph_exec_set_node_params(exec, k1, kernel(&driver, f, slot(1))).unwrap();
    driver.graph_launch(exec, other).unwrap();
    assert!(launched(&device.launches, from).is_empty(), "held back behind the host function");
    release.send(()).unwrap();
    driver.stream_synchronize(other).unwrap();
    assert_eq!(launched(&device.launches, from), w(&[slot(0), slot(3), slot(2), slot(0), slot(1), slot(2)]));

    // An update of the whole executable graph also reaches the next launch.
    driver.graph_node_set_params(nodes[6], kernel(&driver, f, slot(3))).unwrap();
    assert_eq!(driver.graph_exec_update(exec, g).unwrap().0, graph::UpdateResult::Success);
    assert_eq!(run(other), w(&[slot(0), slot(1), slot(3)]));
}

#[test]
fn a_fault_in_a_kernel_chain_skips_the_kernels_after_it() {
    let (driver, device) = setup();
    let m = load_module(&driver);
    let write = driver.module_get_function(m, "write42_kernel").unwrap();
    let fault = driver.module_get_function(m, "fault_kernel").unwrap();
    let buf = driver.mem_alloc(16).unwrap();
    // The fake device's memory is host memory: read and written here directly, since the
    // context cannot copy any more after the fault (the error is sticky).
    // SAFETY: 16 bytes allocated above, still allocated.
    let words = unsafe { std::slice::from_raw_parts_mut(buf as *mut u32, 4) };
    words.fill(0);
    let g = driver.graph_create(0).unwrap();
    chain(&driver, g, vec![kernel(&driver, write, buf), kernel(&driver, fault, buf + 4), kernel(&driver, write, buf + 8)]);
    let exec = driver.graph_instantiate(g, 0).unwrap();
    let stream = driver.stream_create(0).unwrap();
    let from = device.launches.lock().unwrap().len();
    driver.graph_launch(exec, stream).unwrap();
    assert_eq!(driver.stream_synchronize(stream).unwrap_err(), CuError::ILLEGAL_ADDRESS);
    assert_eq!(launched(&device.launches, from), [("write42_kernel".to_string(), buf), ("fault_kernel".to_string(), buf + 4)]);
    assert_eq!(words, [42, 0, 0, 0], "the kernel after the fault did not run");
    assert_eq!(driver.graph_launch(exec, stream).unwrap_err(), CuError::ILLEGAL_ADDRESS, "the error is sticky");
}
