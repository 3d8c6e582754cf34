//! Issue 4's invariant: **no heap allocation per kernel launch in steady state** on the
//! CPU device, through the C entry points a program calls.
//!
//! A counting global allocator (this test binary's own: it sees every thread of this
//! process, the driver's stream workers and the device's block workers included) counts
//! allocations while kernels are launched synchronously (launch + `cuCtxSynchronize` /
//! `cuStreamSynchronize`), asynchronously (bursts on a stream, then one synchronization),
//! through `cuLaunchKernel` (with a `CUfunction`, and with a library's `CUkernel` as
//! cudart 13 passes it), its `_ptsz` twin and `cuLaunchKernelEx` (with an attribute and
//! with the `extra` packed buffer), with parameter blocks of 16 bytes to 4 KiB and a kernel
//! with a barrier, alternating between the legacy and a blocking stream (launches that wait
//! for the other stream's work), with events recorded, timed and waited for. A first pass warms up (module load and JIT, stream and worker threads,
//! first-use scratch, free lists) and holds a stream back while a deep burst queues behind
//! it, so that every queue and free list has reached the depth the measured pass needs; the
//! second pass must then allocate nothing.
//!
//! Every launch adds something that depends on its own parameters to its output, so the
//! sums read back at the end (computed here independently) show that each launch got its
//! own parameters.
//!
//! One `#[test]` only: tests of one binary run on parallel threads and would count each
//! other's allocations.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::alloc::{GlobalAlloc, Layout, System};
use std::ffi::{c_void, CString};
use std::ptr::null_mut;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::event::*;
use cuda::exports::init::*;
use cuda::exports::launch::*;
use cuda::exports::library::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::module::*;
use cuda::exports::stream::*;
use cuda::types::*;

/// Counts every allocation (and reallocation) of the process.
struct Counting;

static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        trace();
        unsafe { System.alloc(layout) }
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        unsafe { System.alloc_zeroed(layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        trace();
        unsafe { System.realloc(ptr, layout, new_size) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }
}

/// With `LAUNCH_ALLOC_TRACE=1`, each allocation of the measured pass prints its thread
/// and backtrace (to find what allocates when this test fails).
static TRACING: AtomicBool = AtomicBool::new(false);

thread_local! {
    static TRACING_NOW: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

fn trace() {
    if !TRACING.load(Ordering::Relaxed) || TRACING_NOW.with(|t| t.replace(true)) {
        return;
    }
    eprintln!("allocation on thread {:?}:\n{}", std::thread::current().name(), std::backtrace::Backtrace::force_capture());
    TRACING_NOW.with(|t| t.set(false));
}

#[global_allocator]
static GLOBAL: Counting = Counting;

/// Words of the parameter arrays of the `add_blob_W` kernels: parameter blocks of 4 + 4W
/// + 8 bytes (after the output pointer and the count): 16 B, 1 KiB, 4 KiB.
const BLOB_WORDS: [usize; 3] = [1, 254, 1020];
/// Threads per block and blocks of every launch (also the output length).
const BLOCK: u32 = 64;
const GRID: u32 = 4;
const N: usize = (BLOCK * GRID) as usize;

/// `out[i] += v + i`; `out[gid] += v + (even threads of the block)` by `bar.red.popc` (a
/// kernel that runs as one fiber per thread); `out[gid] += v + reversed gid` through shared
/// memory and a barrier (barrier regions); `add_blob_W`: `out[i] += blob[i % W] ^ n` (the
/// array read at a register offset).
fn ptx() -> String {
    let mut text = String::from(
        "
.version 8.0
.target sm_80
.address_size 64

.visible .entry add_small(
    .param .u64 out,
    .param .u32 v,
    .param .u32 n
)
{
    .reg .pred %p;
    .reg .b32 %r<10>;
    .reg .b64 %rd<6>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [v];
    ld.param.u32 %r2, [n];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r6, %r3, %r4, %r5;
    setp.ge.u32 %p, %r6, %r2;
    @%p bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r6, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r7, [%rd4];
    add.s32 %r8, %r1, %r6;
    add.s32 %r9, %r7, %r8;
    st.global.u32 [%rd4], %r9;
DONE:
    ret;
}

.visible .entry count_even(
    .param .u64 out,
    .param .u32 v
)
{
    .reg .pred %p;
    .reg .b32 %r<10>;
    .reg .b64 %rd<5>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [v];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %ctaid.x;
    mad.lo.s32 %r5, %r4, %r3, %r2;
    and.b32 %r6, %r2, 1;
    setp.eq.u32 %p, %r6, 0;
    bar.red.popc.u32 %r7, 0, %p;
    add.s32 %r8, %r1, %r7;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r5, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r9, [%rd4];
    add.s32 %r9, %r9, %r8;
    st.global.u32 [%rd4], %r9;
    ret;
}

.visible .entry reverse_shared(
    .param .u64 out,
    .param .u32 v
)
{
    .reg .b32 %r<12>;
    .reg .b64 %rd<12>;
    .shared .align 4 .b8 window[256];
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [v];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %ctaid.x;
    mul.lo.s32 %r5, %r4, %r3;
    add.s32 %r6, %r5, %r2;
    add.s32 %r7, %r1, %r6;
    mov.u64 %rd2, window;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd4, %rd2, %rd3;
    st.shared.u32 [%rd4], %r7;
    bar.sync 0;
    sub.s32 %r8, %r3, %r2;
    sub.s32 %r8, %r8, 1;
    mul.wide.u32 %rd5, %r8, 4;
    add.s64 %rd6, %rd2, %rd5;
    ld.shared.u32 %r9, [%rd6];
    cvta.to.global.u64 %rd7, %rd1;
    mul.wide.u32 %rd8, %r6, 4;
    add.s64 %rd9, %rd7, %rd8;
    ld.global.u32 %r10, [%rd9];
    add.s32 %r11, %r10, %r9;
    st.global.u32 [%rd9], %r11;
    ret;
}
",
    );
    for words in BLOB_WORDS {
        text.push_str(&format!(
            "
.visible .entry add_blob_{words}(
    .param .u64 out,
    .param .align 4 .b8 blob[{bytes}],
    .param .u32 n
)
{{
    .reg .pred %p;
    .reg .b32 %r<12>;
    .reg .b64 %rd<8>;
    ld.param.u64 %rd1, [out];
    mov.b64 %rd2, blob;
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.u32 %p, %r5, %r1;
    @%p bra DONE;
    rem.u32 %r6, %r5, {words};
    mul.wide.u32 %rd3, %r6, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.param.u32 %r7, [%rd4];
    xor.b32 %r8, %r7, %r1;
    cvta.to.global.u64 %rd5, %rd1;
    mul.wide.u32 %rd6, %r5, 4;
    add.s64 %rd7, %rd5, %rd6;
    ld.global.u32 %r9, [%rd7];
    add.s32 %r10, %r9, %r8;
    st.global.u32 [%rd7], %r10;
DONE:
    ret;
}}
",
            bytes = 4 * words
        ));
    }
    text
}

fn ok(r: CUresult, what: &str) {
    assert_eq!(r, CUresult::SUCCESS, "{what}");
}

/// One output buffer and the sums the test expects in it.
struct Output {
    ptr: CUdeviceptr,
    expected: Vec<u32>,
}

impl Output {
    fn new() -> Output {
        let mut ptr: CUdeviceptr = 0;
        ok(unsafe { cuMemAlloc_v2(&mut ptr, 4 * N) }, "cuMemAlloc");
        ok(unsafe { cuMemsetD32_v2(ptr, 0, N) }, "cuMemsetD32");
        Output { ptr, expected: vec![0; N] }
    }

    fn check(&self, what: &str) {
        let mut got = vec![0u32; N];
        ok(unsafe { cuMemcpyDtoH_v2(got.as_mut_ptr().cast(), self.ptr, 4 * N) }, "cuMemcpyDtoH");
        for (i, (g, e)) in got.iter().zip(&self.expected).enumerate() {
            assert_eq!(g, e, "{what}: element {i}");
        }
    }
}

/// The kernels, their outputs, and the argument storage the launches point into (kept
/// alive and reused, so that the measured loop itself allocates nothing).
struct Launcher {
    small: CUfunction,
    /// `add_small` as a `CUkernel` of a library loaded from the same PTX.
    small_kernel: CUfunction,
    fibers: CUfunction,
    reverse: CUfunction,
    blobs: Vec<(usize, CUfunction)>,
    stream: CUstream,
    /// Recorded around each burst (timed), and waited for by the per-thread stream.
    events: [CUevent; 2],
    out_small: Output,
    out_fibers: Output,
    out_reverse: Output,
    out_blobs: Vec<Output>,
    /// A packed parameter block for `extra` launches: pointer, blob, count.
    packed: Vec<u64>,
    blob: Vec<u32>,
}

/// Which entry point a launch goes through, and on which stream.
#[derive(Clone, Copy)]
enum Via {
    /// `cuLaunchKernel` on a stream (NULL: the legacy default stream).
    Plain(CUstream),
    /// `cuLaunchKernel_ptsz` with a NULL stream: the per-thread default stream.
    PerThread,
    /// `cuLaunchKernelEx` with a (no-op) priority attribute.
    Ex(CUstream),
    /// `cuLaunchKernel` with `extra` = `CU_LAUNCH_PARAM_BUFFER_POINTER/SIZE`.
    Extra(CUstream),
}

impl Launcher {
    unsafe fn launch(&self, f: CUfunction, via: Via, params: &mut [*mut c_void], packed: Option<(*mut c_void, usize)>) {
        let mut size = packed.map_or(0, |p| p.1);
        let mut extra =
            [1usize as *mut c_void, packed.map_or(null_mut(), |p| p.0), 2usize as *mut c_void, &mut size as *mut usize as *mut c_void, null_mut()];
        let r = match via {
            Via::Plain(s) => unsafe { cuLaunchKernel(f, GRID, 1, 1, BLOCK, 1, 1, 0, s, params.as_mut_ptr(), null_mut()) },
            Via::PerThread => unsafe { cuLaunchKernel_ptsz(f, GRID, 1, 1, BLOCK, 1, 1, 0, null_mut(), params.as_mut_ptr(), null_mut()) },
            Via::Extra(s) => unsafe { cuLaunchKernel(f, GRID, 1, 1, BLOCK, 1, 1, 0, s, null_mut(), extra.as_mut_ptr()) },
            Via::Ex(s) => {
                // CU_LAUNCH_ATTRIBUTE_PRIORITY (8): a hint.
                let mut attr = CUlaunchAttribute { id: 8, pad: [0; 4], value: CUlaunchAttributeValue { pad: [0; 64] } };
                let config = CUlaunchConfig {
                    gridDimX: GRID,
                    gridDimY: 1,
                    gridDimZ: 1,
                    blockDimX: BLOCK,
                    blockDimY: 1,
                    blockDimZ: 1,
                    sharedMemBytes: 0,
                    hStream: s,
                    attrs: &mut attr,
                    numAttrs: 1,
                };
                unsafe { cuLaunchKernelEx(&config, f, params.as_mut_ptr(), null_mut()) }
            }
        };
        ok(r, "launch");
    }

    /// `add_small` with value `v`.
    fn small(&mut self, v: u32, via: Via) {
        self.small_through(self.small, v, via);
    }

    /// `add_small` with value `v`, launched through `f`: its `CUfunction`, or its `CUkernel`
    /// from a library (what cudart 13 passes to `cuLaunchKernel`).
    fn small_through(&mut self, f: CUfunction, v: u32, via: Via) {
        let (mut out, mut v_arg, mut n) = (self.out_small.ptr, v, N as u32);
        let mut params = [&mut out as *mut _ as *mut c_void, &mut v_arg as *mut _ as *mut c_void, &mut n as *mut _ as *mut c_void];
        unsafe { self.launch(f, via, &mut params, None) };
        for (i, e) in self.out_small.expected.iter_mut().enumerate() {
            *e = e.wrapping_add(v.wrapping_add(i as u32));
        }
    }

    /// `count_even` with value `v`.
    fn fibers(&mut self, v: u32, via: Via) {
        let (mut out, mut v_arg) = (self.out_fibers.ptr, v);
        let mut params = [&mut out as *mut _ as *mut c_void, &mut v_arg as *mut _ as *mut c_void];
        unsafe { self.launch(self.fibers, via, &mut params, None) };
        for e in self.out_fibers.expected.iter_mut() {
            *e = e.wrapping_add(v.wrapping_add(BLOCK / 2));
        }
    }

    /// `reverse_shared` with value `v`.
    fn reverse(&mut self, v: u32, via: Via) {
        let (mut out, mut v_arg) = (self.out_reverse.ptr, v);
        let mut params = [&mut out as *mut _ as *mut c_void, &mut v_arg as *mut _ as *mut c_void];
        unsafe { self.launch(self.reverse, via, &mut params, None) };
        for (gid, e) in self.out_reverse.expected.iter_mut().enumerate() {
            let (block, tid) = (gid / BLOCK as usize, gid % BLOCK as usize);
            let mirrored = block * BLOCK as usize + (BLOCK as usize - 1 - tid);
            *e = e.wrapping_add(v.wrapping_add(mirrored as u32));
        }
    }

    /// `add_blob_W` (the `which`-th of [`BLOB_WORDS`]) with an array filled from `seed`.
    fn blob(&mut self, which: usize, seed: u32, via: Via) {
        let (words, f) = self.blobs[which];
        for (j, w) in self.blob[..words].iter_mut().enumerate() {
            *w = seed.wrapping_mul(2_654_435_761).wrapping_add(j as u32 * 7);
        }
        let n = N as u32;
        let packed = match via {
            Via::Extra(_) => {
                // The layout the PTX declares: pointer at 0, the array at 8, the count after it.
                let bytes = 8 + 4 * words + 4;
                let raw = self.packed.as_mut_ptr() as *mut u8;
                unsafe {
                    (raw as *mut u64).write(self.out_blobs[which].ptr);
                    std::ptr::copy_nonoverlapping(self.blob.as_ptr() as *const u8, raw.add(8), 4 * words);
                    (raw.add(8 + 4 * words) as *mut u32).write_unaligned(n);
                }
                Some((raw as *mut c_void, bytes))
            }
            _ => None,
        };
        let (mut out, mut n_arg) = (self.out_blobs[which].ptr, n);
        let mut params = [&mut out as *mut _ as *mut c_void, self.blob.as_mut_ptr() as *mut c_void, &mut n_arg as *mut _ as *mut c_void];
        unsafe { self.launch(f, via, &mut params, packed) };
        for (i, e) in self.out_blobs[which].expected.iter_mut().enumerate() {
            *e = e.wrapping_add(self.blob[i % words] ^ n);
        }
    }

    /// One round of every kind of launch; `burst` async launches on the created stream.
    fn round(&mut self, r: u32, burst: u32) {
        let s = self.stream;
        // Synchronous: launch, then synchronize, on each kind of stream.
        self.small(r, Via::Plain(null_mut()));
        ok(unsafe { cuCtxSynchronize() }, "cuCtxSynchronize");
        self.small_through(self.small_kernel, r ^ 0x7777, Via::Plain(null_mut()));
        ok(unsafe { cuCtxSynchronize() }, "cuCtxSynchronize");
        self.blob(1, r, Via::Plain(s));
        ok(unsafe { cuStreamSynchronize(s) }, "cuStreamSynchronize");
        self.reverse(r, Via::PerThread);
        ok(unsafe { cuStreamSynchronize_ptsz(null_mut()) }, "cuStreamSynchronize_ptsz");
        self.fibers(r, Via::PerThread);
        ok(unsafe { cuStreamSynchronize_ptsz(null_mut()) }, "cuStreamSynchronize_ptsz");
        self.blob(2, r ^ 0x55, Via::Ex(null_mut()));
        ok(unsafe { cuCtxSynchronize() }, "cuCtxSynchronize");
        // Across streams: work on the legacy stream waits for the blocking stream's, and the
        // blocking stream's next launch for the legacy stream's (a dependency each).
        self.small(r ^ 0x0f0f, Via::Plain(s));
        self.small(r ^ 0xf0f0, Via::Plain(null_mut()));
        self.blob(1, r ^ 0x3333, Via::Plain(s));
        ok(unsafe { cuCtxSynchronize() }, "cuCtxSynchronize");
        // An event: the per-thread stream's launch waits for the blocking stream's.
        self.small(r ^ 0x5a5a, Via::Plain(s));
        ok(unsafe { cuEventRecord(self.events[0], s) }, "cuEventRecord");
        ok(unsafe { cuStreamWaitEvent_ptsz(null_mut(), self.events[0], 0) }, "cuStreamWaitEvent_ptsz");
        self.small(r ^ 0xa5a5, Via::PerThread);
        ok(unsafe { cuStreamSynchronize_ptsz(null_mut()) }, "cuStreamSynchronize_ptsz");
        // Asynchronous: a burst of launches of every parameter size, timed by two events,
        // then one sync.
        ok(unsafe { cuEventRecord(self.events[0], s) }, "cuEventRecord");
        for i in 0..burst {
            let v = r.wrapping_mul(1000).wrapping_add(i);
            match i % 7 {
                0 if i % 2 == 0 => self.small(v, Via::Plain(s)),
                0 => self.small_through(self.small_kernel, v, Via::Plain(s)),
                1 => self.blob(0, v, Via::Plain(s)),
                2 => self.blob(1, v, Via::Extra(s)),
                3 => self.blob(2, v, Via::Plain(s)),
                4 => self.reverse(v, Via::Ex(s)),
                5 => self.fibers(v, Via::Plain(s)),
                _ => self.blob(2, v, Via::Extra(s)),
            }
        }
        ok(unsafe { cuEventRecord(self.events[1], s) }, "cuEventRecord");
        ok(unsafe { cuStreamSynchronize(s) }, "cuStreamSynchronize");
        let mut ms = -1.0f32;
        ok(unsafe { cuEventElapsedTime(&mut ms, self.events[0], self.events[1]) }, "cuEventElapsedTime");
        assert!(ms >= 0.0, "the burst took {ms} ms");
    }
}

static GATE_OPEN: AtomicBool = AtomicBool::new(false);

/// A host function that holds its stream until the test opens the gate.
unsafe extern "C" fn wait_for_gate(_: *mut c_void) {
    while !GATE_OPEN.load(Ordering::Acquire) {
        std::thread::yield_now();
    }
}

#[test]
fn steady_state_launches_allocate_nothing() {
    std::env::set_var("CUDA_BACKEND", "cpu");
    // Block-shape variants compile at a kernel's first launches (inside the warm-up), not
    // at whichever launch their generic time passes the threshold: the measured launches
    // are the steady state with variants.
    std::env::set_var("CUDA_CPU_SPECIALIZE", "always");
    let trace_wanted = std::env::var_os("LAUNCH_ALLOC_TRACE").is_some_and(|v| v == "1");
    ok(unsafe { cuInit(0) }, "cuInit");
    let mut dev: CUdevice = 0;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
    let mut ctx: CUcontext = null_mut();
    ok(unsafe { cuDevicePrimaryCtxRetain(&mut ctx, dev) }, "cuDevicePrimaryCtxRetain");
    ok(unsafe { cuCtxSetCurrent(ctx) }, "cuCtxSetCurrent");
    let text = CString::new(ptx()).unwrap();
    let mut module: CUmodule = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, text.as_ptr().cast()) }, "cuModuleLoadData");
    let function = |name: &str| {
        let name = CString::new(name).unwrap();
        let mut f: CUfunction = null_mut();
        ok(unsafe { cuModuleGetFunction(&mut f, module, name.as_ptr()) }, "cuModuleGetFunction");
        f
    };
    let mut library: CUlibrary = null_mut();
    ok(unsafe { cuLibraryLoadData(&mut library, text.as_ptr().cast(), null_mut(), null_mut(), 0, null_mut(), null_mut(), 0) }, "cuLibraryLoadData");
    let mut small_kernel: CUkernel = null_mut();
    ok(unsafe { cuLibraryGetKernel(&mut small_kernel, library, c"add_small".as_ptr()) }, "cuLibraryGetKernel");
    let mut stream: CUstream = null_mut();
    ok(unsafe { cuStreamCreate(&mut stream, 0) }, "cuStreamCreate");
    let mut events: [CUevent; 2] = [null_mut(); 2];
    for e in &mut events {
        ok(unsafe { cuEventCreate(e, 0) }, "cuEventCreate");
    }
    let mut l = Launcher {
        small: function("add_small"),
        small_kernel: small_kernel.cast(),
        fibers: function("count_even"),
        reverse: function("reverse_shared"),
        blobs: BLOB_WORDS.iter().map(|&w| (w, function(&format!("add_blob_{w}")))).collect(),
        stream,
        events,
        out_small: Output::new(),
        out_fibers: Output::new(),
        out_reverse: Output::new(),
        out_blobs: BLOB_WORDS.iter().map(|_| Output::new()).collect(),
        packed: vec![0; 8 + BLOB_WORDS[2] / 2 + 1],
        blob: vec![0; BLOB_WORDS[2]],
    };

    const ROUNDS: u32 = 100;
    const BURST: u32 = 48;
    // Warm-up: every path a few times, then a burst deeper than any measured one queued
    // behind a host function, so that queues and free lists have grown to what the bursts
    // need. (Which threads run a launch's blocks varies; the device's scratch arenas are
    // grown for every kernel at its first launch, whoever runs it.)
    for r in 0..3 {
        l.round(r, BURST);
    }
    GATE_OPEN.store(false, Ordering::Release);
    ok(unsafe { cuLaunchHostFunc(stream, Some(wait_for_gate), null_mut()) }, "cuLaunchHostFunc");
    for i in 0..4 * BURST {
        match i % 3 {
            0 => l.small(i, Via::Plain(stream)),
            1 => l.blob(1, i, Via::Extra(stream)),
            _ => l.blob(2, i, Via::Plain(stream)),
        }
    }
    GATE_OPEN.store(true, Ordering::Release);
    ok(unsafe { cuStreamSynchronize(stream) }, "cuStreamSynchronize");

    // Threads the warm-up started (stream workers) allocate while they start up, which on
    // a loaded machine can be well after they were created.
    std::thread::sleep(std::time::Duration::from_millis(200));
    let before = ALLOCATIONS.load(Ordering::SeqCst);
    TRACING.store(trace_wanted, Ordering::SeqCst);
    for r in 0..ROUNDS {
        l.round(1000 + r, BURST);
    }
    let allocations = ALLOCATIONS.load(Ordering::SeqCst) - before;
    TRACING.store(false, Ordering::SeqCst);
    let launches = ROUNDS * (11 + BURST);

    l.out_small.check("add_small");
    l.out_fibers.check("count_even");
    l.out_reverse.check("reverse_shared");
    for (i, out) in l.out_blobs.iter().enumerate() {
        out.check(&format!("add_blob_{}", BLOB_WORDS[i]));
    }
    assert_eq!(allocations, 0, "{allocations} heap allocations during {launches} steady-state launches (and their synchronizations and events)");
}
