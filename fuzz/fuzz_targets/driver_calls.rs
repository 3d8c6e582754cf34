//! Fuzz target: sequences of driver calls. Each input byte string is read as a program of
//! operations on a small world (streams, events, allocations, captured graphs, one
//! module's kernel), with arguments that are live handles, destroyed ones or arbitrary
//! values, sizes that fit or do not, and orders no test writes: allocation and frees
//! (also stream-ordered), fills and copies, kernels that may fault, events and waits,
//! captures, queries. Every answer must be a documented code, and the process must
//! survive; after a sticky fault the primary context is reset and the world rebuilt.
#![no_main]

#[path = "common.rs"]
mod common;

use std::ffi::c_void;
use std::ptr::null_mut;

use cuda::exports::context::{cuCtxSetCurrent, cuCtxSynchronize};
use cuda::exports::device::{cuDevicePrimaryCtxReset_v2, cuDevicePrimaryCtxRetain};
use cuda::exports::event::{cuEventCreate, cuEventDestroy_v2, cuEventElapsedTime_v2, cuEventQuery, cuEventRecord, cuEventSynchronize};
use cuda::exports::graph::{cuGraphDestroy, cuGraphExecDestroy, cuGraphInstantiateWithFlags, cuGraphLaunch};
use cuda::exports::launch::cuLaunchKernel;
use cuda::exports::memcpy::{cuMemcpyDtoDAsync_v2, cuMemcpyDtoH_v2, cuMemcpyHtoD_v2, cuMemsetD8Async};
use cuda::exports::memory::{cuMemAlloc_v2, cuMemFree_v2, cuMemGetAddressRange_v2, cuPointerGetAttribute};
use cuda::exports::mempool::{cuMemAllocAsync, cuMemFreeAsync};
use cuda::exports::module::{cuModuleGetFunction, cuModuleLoadData};
use cuda::exports::stream::{
    cuLaunchHostFunc, cuStreamBeginCapture_v2, cuStreamCreate, cuStreamDestroy_v2, cuStreamEndCapture, cuStreamQuery, cuStreamSynchronize,
    cuStreamWaitEvent,
};
use cuda::types::CUresult;
use libfuzzer_sys::fuzz_target;

const PTX: &str = ".version 7.0\n.target sm_50\n.address_size 64\n\
.visible .entry add_one(.param .u64 p, .param .u32 n) {\n\
  .reg .u64 %rd<4>; .reg .u32 %r<6>; .reg .pred %p;\n\
  ld.param.u64 %rd1, [p]; ld.param.u32 %r1, [n];\n\
  mov.u32 %r2, %ctaid.x; mov.u32 %r3, %ntid.x; mov.u32 %r4, %tid.x;\n\
  mad.lo.u32 %r5, %r2, %r3, %r4; setp.ge.u32 %p, %r5, %r1; @%p ret;\n\
  cvta.to.global.u64 %rd1, %rd1; mul.wide.u32 %rd2, %r5, 4; add.u64 %rd3, %rd1, %rd2;\n\
  ld.global.u32 %r1, [%rd3]; add.u32 %r1, %r1, 1; st.global.u32 [%rd3], %r1; ret;\n}\n\0";

/// Codes after which the context is unusable until it is reset (CUDA's sticky errors).
const STICKY: [u32; 6] = [700, 701, 710, 714, 715, 719];

/// The input, read as a stream of small numbers (zeros once it runs out).
struct Input<'a>(&'a [u8]);

impl Input<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    fn u32(&mut self) -> u32 {
        u32::from_le_bytes([self.byte(), self.byte(), self.byte(), self.byte()])
    }
    fn u64(&mut self) -> u64 {
        u64::from(self.u32()) | (u64::from(self.u32()) << 32)
    }
    /// A size up to 2^20, skewed small.
    fn size(&mut self) -> usize {
        (usize::from(self.byte()) << (self.byte() % 13)) & ((1 << 20) - 1)
    }
    /// A live value from `live`, a destroyed one from `stale`, or anything.
    fn pick<T: Copy>(&mut self, live: &[T], stale: &[T], any: impl FnOnce(u64) -> T) -> T {
        let b = self.byte();
        match b {
            0..=199 if !live.is_empty() => live[usize::from(b) % live.len()],
            200..=239 if !stale.is_empty() => stale[usize::from(b) % stale.len()],
            _ => any(self.u64()),
        }
    }
}

/// What the program has made, live and destroyed.
#[derive(Default)]
struct World {
    streams: Vec<*mut c_void>,
    stale_streams: Vec<*mut c_void>,
    events: Vec<*mut c_void>,
    stale_events: Vec<*mut c_void>,
    allocations: Vec<u64>,
    freed: Vec<u64>,
    capturing: Vec<*mut c_void>,
    function: *mut c_void,
}

unsafe extern "C" fn nothing(_: *mut c_void) {}

fn ok(rc: CUresult, call: &str) -> bool {
    common::check_code(rc, call);
    rc == CUresult::SUCCESS
}

impl World {
    /// The module and its kernel in the (fresh) primary context.
    unsafe fn load(&mut self) {
        let mut module = null_mut();
        assert_eq!(unsafe { cuModuleLoadData(&mut module, PTX.as_ptr().cast()) }, CUresult::SUCCESS);
        assert_eq!(unsafe { cuModuleGetFunction((&mut self.function as *mut *mut c_void).cast(), module, c"add_one".as_ptr()) }, CUresult::SUCCESS);
    }

    /// Ends the captures, waits for the work and destroys what is live.
    unsafe fn clear(&mut self) {
        // SAFETY (all calls): handles this program made; valid out-pointers.
        unsafe {
            for s in std::mem::take(&mut self.capturing) {
                let mut graph = null_mut();
                if ok(cuStreamEndCapture(s.cast(), &mut graph), "cuStreamEndCapture") && !graph.is_null() {
                    ok(cuGraphDestroy(graph.cast()), "cuGraphDestroy");
                }
            }
            common::check_code(cuCtxSynchronize(), "cuCtxSynchronize");
            for s in self.streams.drain(..) {
                common::check_code(cuStreamDestroy_v2(s.cast()), "cuStreamDestroy");
            }
            for e in self.events.drain(..) {
                common::check_code(cuEventDestroy_v2(e.cast()), "cuEventDestroy");
            }
            for p in self.allocations.drain(..) {
                common::check_code(cuMemFree_v2(p), "cuMemFree");
            }
        }
    }

    /// After a sticky error: reset the primary context, make it current again, reload.
    unsafe fn recover(&mut self) {
        // SAFETY (all calls): device 0 exists (common::init); valid out-pointers.
        unsafe {
            assert_eq!(cuDevicePrimaryCtxReset_v2(0), CUresult::SUCCESS);
            let mut ctx = null_mut();
            assert_eq!(cuDevicePrimaryCtxRetain(&mut ctx, 0), CUresult::SUCCESS);
            assert_eq!(cuCtxSetCurrent(ctx), CUresult::SUCCESS);
            self.stale_streams.append(&mut self.streams);
            self.stale_events.append(&mut self.events);
            self.freed.append(&mut self.allocations);
            self.capturing.clear();
            self.load();
        }
    }

    /// Runs one operation; returns the code of its main call.
    unsafe fn step(&mut self, input: &mut Input<'_>) -> CUresult {
        let legacy = cuda::types::CU_STREAM_LEGACY as *mut c_void;
        let any_ptr = |v: u64| v as usize as *mut c_void;
        let mut live_streams = self.streams.clone();
        live_streams.push(legacy);
        let stream = input.pick(&live_streams, &self.stale_streams, any_ptr);
        // SAFETY (all arms): every pointer argument is a valid out-pointer or host buffer of
        // the size passed; handles and device addresses may be anything, which the driver
        // must refuse with a code.
        unsafe {
            match input.byte() % 20 {
                0 | 1 => {
                    let mut p = 0;
                    let rc = cuMemAlloc_v2(&mut p, input.size());
                    if rc == CUresult::SUCCESS {
                        self.allocations.push(p);
                    }
                    rc
                }
                2 => {
                    let p = input.pick(&self.allocations, &self.freed, |v| v);
                    let rc = cuMemFree_v2(p);
                    if rc == CUresult::SUCCESS {
                        self.allocations.retain(|&a| a != p);
                        self.freed.push(p);
                    }
                    rc
                }
                3 => {
                    let p = input.pick(&self.allocations, &self.freed, |v| v).wrapping_add(u64::from(input.byte()));
                    cuMemsetD8Async(p, input.byte(), input.size(), stream.cast())
                }
                4 => {
                    let dst = input.pick(&self.allocations, &self.freed, |v| v);
                    let src = input.pick(&self.allocations, &self.freed, |v| v);
                    cuMemcpyDtoDAsync_v2(dst, src, input.size(), stream.cast())
                }
                5 => {
                    let host = vec![7u8; input.size()];
                    let dst = input.pick(&self.allocations, &self.freed, |v| v);
                    cuMemcpyHtoD_v2(dst, host.as_ptr().cast(), host.len())
                }
                6 => {
                    let mut host = vec![0u8; input.size()];
                    let src = input.pick(&self.allocations, &self.freed, |v| v);
                    cuMemcpyDtoH_v2(host.as_mut_ptr().cast(), src, host.len())
                }
                7 => {
                    let mut s = null_mut();
                    let rc = cuStreamCreate(&mut s, u32::from(input.byte() % 3));
                    if rc == CUresult::SUCCESS {
                        self.streams.push(s.cast());
                    }
                    rc
                }
                8 => {
                    let rc = cuStreamDestroy_v2(stream.cast());
                    if rc == CUresult::SUCCESS {
                        self.streams.retain(|&s| s != stream);
                        self.capturing.retain(|&s| s != stream);
                        self.stale_streams.push(stream);
                    }
                    rc
                }
                9 => {
                    let mut e = null_mut();
                    let rc = cuEventCreate(&mut e, u32::from(input.byte() % 4));
                    if rc == CUresult::SUCCESS {
                        self.events.push(e.cast());
                    }
                    rc
                }
                10 => {
                    let e = input.pick(&self.events, &self.stale_events, any_ptr);
                    match input.byte() % 5 {
                        0 => cuEventRecord(e.cast(), stream.cast()),
                        1 => cuEventQuery(e.cast()),
                        2 => cuEventSynchronize(e.cast()),
                        3 => cuStreamWaitEvent(stream.cast(), e.cast(), u32::from(input.byte() % 2)),
                        _ => {
                            let mut ms = 0.0f32;
                            let other = input.pick(&self.events, &self.stale_events, any_ptr);
                            cuEventElapsedTime_v2(&mut ms, e.cast(), other.cast())
                        }
                    }
                }
                11 => {
                    let e = input.pick(&self.events, &self.stale_events, any_ptr);
                    let rc = cuEventDestroy_v2(e.cast());
                    if rc == CUresult::SUCCESS {
                        self.events.retain(|&x| x != e);
                        self.stale_events.push(e);
                    }
                    rc
                }
                12 => match input.byte() % 3 {
                    0 => cuStreamSynchronize(stream.cast()),
                    1 => cuStreamQuery(stream.cast()),
                    _ => cuCtxSynchronize(),
                },
                13 | 14 => {
                    let mut p = input.pick(&self.allocations, &self.freed, |v| v);
                    let mut n = input.u32() % 70_000;
                    let mut params = [(&mut p as *mut u64).cast::<c_void>(), (&mut n as *mut u32).cast()];
                    let block = u32::from(input.byte()) * 5;
                    let grid = n.div_ceil(block.max(1)).max(1).min(4096);
                    cuLaunchKernel(self.function.cast(), grid, 1, 1, block, 1, 1, 0, stream.cast(), params.as_mut_ptr(), null_mut())
                }
                15 => {
                    let (mut base, mut size) = (0u64, 0usize);
                    let p = input.pick(&self.allocations, &self.freed, |v| v).wrapping_add(u64::from(input.byte()));
                    let rc = cuMemGetAddressRange_v2(&mut base, &mut size, p);
                    let mut value = [0u64; 2];
                    common::check_code(cuPointerGetAttribute(value.as_mut_ptr().cast(), u32::from(input.byte() % 24), p), "cuPointerGetAttribute");
                    rc
                }
                16 => {
                    let rc = cuStreamBeginCapture_v2(stream.cast(), u32::from(input.byte() % 4));
                    if rc == CUresult::SUCCESS {
                        self.capturing.push(stream);
                    }
                    rc
                }
                17 => {
                    let mut graph = null_mut();
                    let rc = cuStreamEndCapture(stream.cast(), &mut graph);
                    self.capturing.retain(|&s| s != stream);
                    if rc == CUresult::SUCCESS && !graph.is_null() {
                        let mut exec = null_mut();
                        if ok(cuGraphInstantiateWithFlags(&mut exec, graph.cast(), 0), "cuGraphInstantiate") {
                            let target = input.pick(&live_streams, &self.stale_streams, any_ptr);
                            common::check_code(cuGraphLaunch(exec, target.cast()), "cuGraphLaunch");
                            common::check_code(cuGraphExecDestroy(exec), "cuGraphExecDestroy");
                        }
                        common::check_code(cuGraphDestroy(graph.cast()), "cuGraphDestroy");
                    }
                    rc
                }
                18 => {
                    if input.byte() % 2 == 0 {
                        let mut p = 0;
                        let rc = cuMemAllocAsync(&mut p, input.size(), stream.cast());
                        if rc == CUresult::SUCCESS {
                            self.allocations.push(p);
                        }
                        rc
                    } else {
                        let p = input.pick(&self.allocations, &self.freed, |v| v);
                        let rc = cuMemFreeAsync(p, stream.cast());
                        if rc == CUresult::SUCCESS {
                            self.allocations.retain(|&a| a != p);
                            self.freed.push(p);
                        }
                        rc
                    }
                }
                _ => cuLaunchHostFunc(stream.cast(), Some(nothing), null_mut()),
            }
        }
    }
}

thread_local! {
    static WORLD: std::cell::RefCell<Option<World>> = const { std::cell::RefCell::new(None) };
}

fuzz_target!(|data: &[u8]| {
    common::init();
    WORLD.with(|cell| {
        let mut cell = cell.borrow_mut();
        let world = cell.get_or_insert_with(|| {
            let mut w = World::default();
            // SAFETY: the primary context is current (common::init).
            unsafe { w.load() };
            w
        });
        let mut input = Input(data);
        let mut steps = 0;
        while !input.0.is_empty() && steps < 64 {
            steps += 1;
            // SAFETY: see `World::step`.
            let rc = unsafe { world.step(&mut input) };
            common::check_code(rc, "an operation");
            if STICKY.contains(&rc.0) {
                // SAFETY: as above.
                unsafe { world.recover() };
            }
        }
        // SAFETY: as above.
        unsafe { world.clear() };
        // The context must still work: a fault leaves a sticky error that clear() saw.
        let mut p = 0;
        // SAFETY: valid out-pointer.
        let rc = unsafe { cuMemAlloc_v2(&mut p, 16) };
        if rc != CUresult::SUCCESS {
            assert!(STICKY.contains(&rc.0), "cuMemAlloc after the program: {}", rc.0);
            // SAFETY: as above.
            unsafe { world.recover() };
        } else {
            // SAFETY: just allocated.
            ok(unsafe { cuMemFree_v2(p) }, "cuMemFree");
        }
        // Destroyed handles stay known, but not without bound.
        for v in [&mut world.stale_streams, &mut world.stale_events] {
            let excess = v.len().saturating_sub(64);
            v.drain(..excess);
        }
        let excess = world.freed.len().saturating_sub(64);
        world.freed.drain(..excess);
    });
});
