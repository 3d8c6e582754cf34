//! Memory stays flat while one process repeats, many times over, what long-running CUDA
//! programs do: compile and load modules, create and destroy contexts, streams, events,
//! libraries, link states and NVRTC programs.
//!
//! Three phases, each warmed up first (JIT and cache set-up, worker threads, free lists,
//! the front-end's headers), then measured:
//! - *compile*: a module whose PTX differs every time (a constant), so the whole compile
//!   path runs (parse, lower, cache key, codegen, cache store, JIT link), loaded, launched,
//!   checked and unloaded;
//! - *cycles*: a fresh context with a stream, two timed events, device and pinned memory,
//!   a module (found in the kernel cache), a library, a launch, a JIT link, and the primary
//!   context retained and released; every other cycle leaves the context's objects for
//!   `cuCtxDestroy` to free;
//! - *nvrtc*: an NVRTC program (source differing every time) created, compiled, read,
//!   destroyed, and its PTX loaded and run.
//!
//! Graphs are not covered: `cuGraphCreate` answers `CUDA_ERROR_NOT_SUPPORTED` (checked
//! here, so this test fails, as a reminder, once they exist).
//!
//! Measured per phase, after the threads the phase started have ended and with glibc's
//! free memory returned to the system (`malloc_trim`), so that fragmentation does not read
//! as growth:
//! - heap in use (`mallinfo2`: `uordblks + hblkhd`, every arena), which sees a leak of any
//!   size from any allocation made through malloc, LLVM's and clang's included: at most
//!   [`HEAP_SLACK`] plus [`HEAP_BYTES_PER_CYCLE`] per repetition. glibc counts the chunks
//!   its per-thread caches hold as in use, up to some 200 KiB a thread, filled over
//!   thousands of calls; the test therefore runs itself again in a child process with
//!   those caches off (`GLIBC_TUNABLES=glibc.malloc.tcache_count=0`);
//! - resident memory (`VmRSS`), which also sees mappings (JIT code, thread stacks): at most
//!   [`RSS_SLACK`] over the phase;
//! - threads: at most [`THREAD_SLACK`] more than before the phase at any time, and none
//!   more once it is over.
//!
//! Counts: `LEAKS_COMPILES` (default 200), `LEAKS_CYCLES` (default 1000), `LEAKS_NVRTC`
//! (default 200); crates/nvrtc-abi/LEAKS.md has a run with 1000 of each.
//! `scripts/valgrind-leaks.sh` runs this test under valgrind (`LEAKS_UNDER_VALGRIND=1`,
//! small counts), where valgrind's leak check replaces the bounds. The kernel cache lives
//! in a directory of its own, removed at the end. `scripts/sanitizers.sh` runs it under
//! AddressSanitizer and ThreadSanitizer (`LEAKS_UNDER_SANITIZER=1`: no bounds, whose
//! allocators are not glibc's either).
//!
//! One test only: the measurements are of the whole process.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ffi::{c_char, c_void, CStr, CString};
use std::ptr::null_mut;
use std::time::{Duration, Instant};

use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::event::*;
use cuda::exports::init::*;
use cuda::exports::launch::*;
use cuda::exports::library::*;
use cuda::exports::link::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::module::*;
use cuda::exports::stream::*;
use cuda::proc_table::cuGetProcAddress_v2;
use cuda::types::*;
use nvrtc::*;

/// Heap growth allowed per repetition of a phase, on average. Far below what a leak of
/// anything made per module or program would keep (LLVM's feature string alone is 907
/// bytes; a module's IR, object or JIT bookkeeping several KiB). Measured (1000 of each,
/// LEAKS.md): at most 5 bytes per repetition.
const HEAP_BYTES_PER_CYCLE: i64 = 16;

/// Heap growth allowed per phase whatever its length: memory allocated once that the
/// warm-up did not reach, and what is in flight when a sample is taken (a stream's queue
/// list, a worker's scratch). Measured: at most 5 KiB at the end of a phase, 10 KiB within.
const HEAP_SLACK: i64 = 32 << 10;

/// Threads a phase may have beyond those it started with, at any time: the workers of
/// the streams of the repetition under way, of the primary context (kept for a while
/// after its release, as it is used again), and those of destroyed streams and contexts
/// not yet scheduled to end on a loaded machine. Measured: 3 at most. A thread left per
/// repetition exceeds it within 70 repetitions.
const THREAD_SLACK: i64 = 64;

/// Resident growth allowed over a phase: what the heap bound lets through, plus pages
/// that malloc_trim cannot return (partly used ones) and thread stacks glibc keeps for
/// reuse. Measured: at most 0.3 MiB. Each module's JIT left undisposed (tried: 136 KiB
/// resident, 124 KiB of heap per module) exceeds it within 40 repetitions.
const RSS_SLACK: i64 = 4 << 20;

fn ok(r: CUresult, what: &str) {
    assert_eq!(r, CUresult::SUCCESS, "{what}");
}

fn count(var: &str, default: usize) -> usize {
    std::env::var(var).ok().and_then(|v| v.trim().parse().ok()).unwrap_or(default)
}

/// `out[i] = 3 * i + k` for `i < n`, as kernel `name`.
fn ptx(name: &str, k: u32) -> CString {
    CString::new(format!(
        ".version 8.0
.target sm_80
.address_size 64
.visible .entry {name}(.param .u64 out, .param .u32 n)
{{
    .reg .pred %p<2>;
    .reg .b32 %r<6>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r1, [n];
    mov.u32 %r2, %tid.x;
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mad.lo.s32 %r2, %r3, %r4, %r2;
    setp.ge.u32 %p1, %r2, %r1;
    @%p1 bra DONE;
    mad.lo.s32 %r5, %r2, 3, {k};
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r2, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r5;
DONE:
    ret;
}}
"
    ))
    .unwrap()
}

/// Halves of a JIT link: `out[tid] = twice(tid)` and `twice` itself.
const LINK_CALLER: &CStr = c"
.version 8.0
.target sm_80
.address_size 64
.extern .func (.param .b32 r) twice(.param .b32 x);
.visible .entry call_twice(.param .u64 data)
{
    .reg .b32 %r<3>;
    .reg .b64 %rd<4>;
    ld.param.u64 %rd1, [data];
    mov.u32 %r1, %tid.x;
    {
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r1;
    call.uni (b), twice, (a);
    ld.param.b32 %r2, [b];
    }
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r1, 4;
    add.s64 %rd2, %rd2, %rd3;
    st.global.u32 [%rd2], %r2;
    ret;
}
";

const LINK_CALLEE: &CStr = c"
.version 8.0
.target sm_80
.address_size 64
.visible .func (.param .b32 r) twice(.param .b32 x)
{
    .reg .b32 %r<3>;
    ld.param.b32 %r1, [x];
    add.s32 %r2, %r1, %r1;
    st.param.b32 [r], %r2;
    ret;
}
";

/// Threads (from `/proc/self/status`) and resident bytes, and the heap in use.
#[derive(Clone, Copy, Debug)]
struct Sample {
    threads: i64,
    rss: i64,
    heap: i64,
}

fn status_field(status: &str, field: &str) -> i64 {
    let line = status.lines().find(|l| l.starts_with(field)).unwrap_or_else(|| panic!("{field} in /proc/self/status"));
    line[field.len()..].trim().trim_end_matches("kB").trim().parse().unwrap()
}

fn sample() -> Sample {
    unsafe { libc::malloc_trim(0) };
    let info = unsafe { libc::mallinfo2() };
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    Sample { threads: status_field(&status, "Threads:"), rss: status_field(&status, "VmRSS:") * 1024, heap: (info.uordblks + info.hblkhd) as i64 }
}

/// Stream worker threads alive (named `cuda-stream`).
fn stream_workers() -> usize {
    let tasks = std::fs::read_dir("/proc/self/task").unwrap();
    // A thread may end between the listing and the read: it no longer counts.
    tasks.flatten().filter(|t| std::fs::read_to_string(t.path().join("comm")).is_ok_and(|name| name.trim() == "cuda-stream")).count()
}

/// The names of this process's threads.
fn thread_names() -> Vec<String> {
    let tasks = std::fs::read_dir("/proc/self/task").unwrap();
    tasks.flatten().filter_map(|t| std::fs::read_to_string(t.path().join("comm")).ok()).map(|n| n.trim().to_string()).collect()
}

/// A sample once no stream worker runs (they end on their own: at once for destroyed
/// streams and contexts, 2 s after their last work for the others) and, given a count
/// from before, the process has no more threads than that, or after 10 s. A thread that
/// was started but has not run yet still has its creator's name, so the count matters
/// too on a loaded machine.
fn settled(at_most: Option<i64>) -> Sample {
    let start = Instant::now();
    loop {
        let s = sample();
        let busy = stream_workers() > 0 || at_most.is_some_and(|n| s.threads > n);
        if !busy || start.elapsed() >= Duration::from_secs(10) {
            return s;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// Runs `f(0..warm)`, then `f(warm..warm + n)` measured, each in a context of its own
/// (destroyed before the sample, so that its stream worker has ended); the growth beyond
/// the bounds.
fn phase(name: &str, dev: CUdevice, warm: usize, n: usize, mut f: impl FnMut(usize)) -> Vec<String> {
    let mut ctx = null_mut();
    ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate");
    (0..warm).for_each(&mut f);
    ok(unsafe { cuCtxDestroy_v2(ctx) }, "cuCtxDestroy");
    let before = settled(None);
    let threads = before.threads;
    let start = Instant::now();
    let mut trace = Vec::new();
    ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate");
    for i in 0..n {
        f(warm + i);
        if (i + 1) % (n / 4).max(1) == 0 {
            trace.push(sample());
        }
    }
    ok(unsafe { cuCtxDestroy_v2(ctx) }, "cuCtxDestroy");
    let elapsed = start.elapsed();
    let after = settled(Some(threads));
    let heap = after.heap - before.heap;
    let rss = after.rss - before.rss;
    eprintln!(
        "{name}: {n} repetitions in {:.1} s after {warm} to warm up; heap {} -> {} bytes ({heap:+}, {:+.1} per repetition); RSS {:.1} -> {:.1} MiB ({:+.2} MiB); threads {} -> {}",
        elapsed.as_secs_f64(),
        before.heap,
        after.heap,
        heap as f64 / n.max(1) as f64,
        before.rss as f64 / 1048576.0,
        after.rss as f64 / 1048576.0,
        rss as f64 / 1048576.0,
        before.threads,
        after.threads,
    );
    for (k, s) in trace.iter().enumerate() {
        eprintln!(
            "  after {:4}: heap {:+} bytes, RSS {:+.2} MiB, {} threads",
            (k + 1) * (n / 4).max(1),
            s.heap - before.heap,
            (s.rss - before.rss) as f64 / 1048576.0,
            s.threads
        );
    }
    let mut failures = Vec::new();
    if std::env::var_os("LEAKS_UNDER_VALGRIND").is_some() || std::env::var_os("LEAKS_UNDER_SANITIZER").is_some() {
        // Valgrind's allocator is not glibc's (mallinfo2 reads zeros) and its own memory
        // counts as resident: its leak check replaces these bounds. The same holds for
        // AddressSanitizer's allocator, whose quarantine keeps up to 256 MiB of freed
        // blocks, and ThreadSanitizer's (scripts/sanitizers.sh sets LEAKS_UNDER_SANITIZER).
        return failures;
    }
    if heap > HEAP_SLACK + HEAP_BYTES_PER_CYCLE * n as i64 {
        failures.push(format!("{name}: the heap grew by {heap} bytes over {n} repetitions"));
    }
    let most = trace.iter().map(|s| s.threads).max().unwrap_or(threads);
    if most > threads + THREAD_SLACK {
        failures.push(format!("{name}: {most} threads during the phase, {threads} before it"));
    }
    if after.threads > threads {
        failures.push(format!("{name}: {} threads after the phase, {threads} before it: {}", after.threads, thread_names().join(", ")));
    }
    if rss > RSS_SLACK {
        failures.push(format!("{name}: resident memory grew by {rss} bytes over {n} repetitions"));
    }
    failures
}

/// Launches `f(out, n)` on `stream` over `n` threads and checks `out[i] = 3 * i + k`.
fn launch_and_check(f: CUfunction, stream: CUstream, n: u32, k: u32) {
    let mut out = 0;
    ok(unsafe { cuMemAlloc_v2(&mut out, n as usize * 4) }, "alloc");
    let mut nn = n;
    let mut params = [(&mut out as *mut u64).cast::<c_void>(), (&mut nn as *mut u32).cast::<c_void>()];
    ok(unsafe { cuLaunchKernel(f, n.div_ceil(128), 1, 1, 128, 1, 1, 0, stream, params.as_mut_ptr(), null_mut()) }, "launch");
    ok(unsafe { cuStreamSynchronize(stream) }, "sync");
    let mut host = vec![0u32; n as usize];
    ok(unsafe { cuMemcpyDtoH_v2(host.as_mut_ptr().cast(), out, n as usize * 4) }, "read back");
    for (i, v) in host.iter().enumerate() {
        assert_eq!(*v, 3 * i as u32 + k, "out[{i}]");
    }
    ok(unsafe { cuMemFree_v2(out) }, "free");
}

fn function(module: CUmodule, name: &CStr) -> CUfunction {
    let mut f = null_mut();
    ok(unsafe { cuModuleGetFunction(&mut f, module, name.as_ptr()) }, "cuModuleGetFunction");
    f
}

/// One compile: PTX never seen before, loaded, run, unloaded.
fn compile_cycle(i: usize) {
    let k = 1000 + i as u32;
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, ptx("fresh", k).as_ptr().cast()) }, "load fresh PTX");
    launch_and_check(function(module, c"fresh"), null_mut(), 300, k);
    ok(unsafe { cuModuleUnload(module) }, "unload");
}

const CU_STREAM_NON_BLOCKING: u32 = 1;

/// A driver entry point by name (the graph calls are not among this test's imports).
fn proc(name: &CStr) -> *mut c_void {
    let mut f = null_mut();
    ok(unsafe { cuGetProcAddress_v2(name.as_ptr(), &mut f, 12000, 0, null_mut()) }, "cuGetProcAddress");
    assert!(!f.is_null(), "{name:?}");
    f
}

type Handle = *mut c_void;

/// Stream capture of a fill and a copy into pinned memory, replayed twice.
fn graph_cycle(stream: CUstream, dev_buf: CUdeviceptr, pinned: *mut c_void, value: u32) {
    // SAFETY: the signatures of these driver entry points (cuda.h).
    let (begin, end, instantiate, launch, exec_destroy, destroy) = unsafe {
        (
            std::mem::transmute::<Handle, unsafe extern "C" fn(CUstream, u32) -> CUresult>(proc(c"cuStreamBeginCapture")),
            std::mem::transmute::<Handle, unsafe extern "C" fn(CUstream, *mut Handle) -> CUresult>(proc(c"cuStreamEndCapture")),
            std::mem::transmute::<Handle, unsafe extern "C" fn(*mut Handle, Handle, u64) -> CUresult>(proc(c"cuGraphInstantiateWithFlags")),
            std::mem::transmute::<Handle, unsafe extern "C" fn(Handle, CUstream) -> CUresult>(proc(c"cuGraphLaunch")),
            std::mem::transmute::<Handle, unsafe extern "C" fn(Handle) -> CUresult>(proc(c"cuGraphExecDestroy")),
            std::mem::transmute::<Handle, unsafe extern "C" fn(Handle) -> CUresult>(proc(c"cuGraphDestroy")),
        )
    };
    let (mut graph, mut exec) = (null_mut(), null_mut());
    ok(unsafe { begin(stream, 0) }, "cuStreamBeginCapture");
    ok(unsafe { cuMemsetD32Async(dev_buf, value, 1024, stream) }, "captured memset");
    ok(unsafe { cuMemcpyDtoHAsync_v2(pinned, dev_buf, 4096, stream) }, "captured copy");
    ok(unsafe { end(stream, &mut graph) }, "cuStreamEndCapture");
    ok(unsafe { instantiate(&mut exec, graph, 0) }, "cuGraphInstantiateWithFlags");
    for _ in 0..2 {
        ok(unsafe { launch(exec, stream) }, "cuGraphLaunch");
    }
    ok(unsafe { cuStreamSynchronize(stream) }, "sync after the graph");
    let words = unsafe { std::slice::from_raw_parts(pinned.cast::<u32>(), 1024) };
    assert!(words.iter().all(|&w| w == value), "the graph's copy");
    ok(unsafe { exec_destroy(exec) }, "cuGraphExecDestroy");
    ok(unsafe { destroy(graph) }, "cuGraphDestroy");
}

/// One context's life; see the module documentation.
fn object_cycle(i: usize, dev: CUdevice, cached: &CStr) {
    let mut ctx = null_mut();
    ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate");
    let (mut stream, mut start, mut end) = (null_mut(), null_mut(), null_mut());
    ok(unsafe { cuStreamCreate(&mut stream, CU_STREAM_NON_BLOCKING) }, "cuStreamCreate");
    ok(unsafe { cuEventCreate(&mut start, 0) }, "cuEventCreate");
    ok(unsafe { cuEventCreate(&mut end, 0) }, "cuEventCreate");

    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, cached.as_ptr().cast()) }, "load cached PTX");
    let f = function(module, c"cached");
    ok(unsafe { cuEventRecord(start, stream) }, "record");
    launch_and_check(f, stream, 200, 7);
    ok(unsafe { cuEventRecord(end, stream) }, "record");

    // Pinned memory filled and copied back on the stream.
    let (mut dev_buf, mut pinned) = (0, null_mut());
    ok(unsafe { cuMemAlloc_v2(&mut dev_buf, 4096) }, "alloc");
    ok(unsafe { cuMemAllocHost_v2(&mut pinned, 4096) }, "cuMemAllocHost");
    ok(unsafe { cuMemsetD32Async(dev_buf, i as u32, 1024, stream) }, "memset");
    ok(unsafe { cuMemcpyDtoHAsync_v2(pinned, dev_buf, 4096, stream) }, "copy back");
    ok(unsafe { cuStreamSynchronize(stream) }, "sync");
    let words = unsafe { std::slice::from_raw_parts(pinned.cast::<u32>(), 1024) };
    assert!(words.iter().all(|&w| w == i as u32), "the pinned copy");
    let mut ms = -1.0f32;
    ok(unsafe { cuEventElapsedTime(&mut ms, start, end) }, "elapsed");
    assert!(ms >= 0.0, "elapsed {ms} ms");

    // A graph captured from the stream (a fill and the copy back), instantiated, launched
    // twice, destroyed.
    graph_cycle(stream, dev_buf, pinned, i as u32 ^ 0x5a5a);

    // A library (cudart 12+'s way to load), its kernel launched.
    let mut library = null_mut();
    ok(unsafe { cuLibraryLoadData(&mut library, cached.as_ptr().cast(), null_mut(), null_mut(), 0, null_mut(), null_mut(), 0) }, "library");
    let mut kernel = null_mut();
    ok(unsafe { cuLibraryGetKernel(&mut kernel, library, c"cached".as_ptr()) }, "cuLibraryGetKernel");
    launch_and_check(kernel.cast(), null_mut(), 64, 7);

    // A JIT link whose output is read (not loaded: that would be one more compile).
    let mut state = null_mut();
    ok(unsafe { cuLinkCreate_v2(0, null_mut(), null_mut(), &mut state) }, "cuLinkCreate");
    for (text, name) in [(LINK_CALLER, c"caller"), (LINK_CALLEE, c"callee")] {
        let bytes = text.to_bytes_with_nul();
        ok(unsafe { cuLinkAddData_v2(state, 1, bytes.as_ptr().cast_mut().cast(), bytes.len(), name.as_ptr(), 0, null_mut(), null_mut()) }, "add");
    }
    let (mut image, mut size) = (null_mut(), 0usize);
    ok(unsafe { cuLinkComplete(state, &mut image, &mut size) }, "cuLinkComplete");
    assert!(unsafe { CStr::from_ptr(image.cast::<c_char>()) }.to_string_lossy().contains("call_twice"));
    ok(unsafe { cuLinkDestroy(state) }, "cuLinkDestroy");

    if i.is_multiple_of(2) {
        ok(unsafe { cuLibraryUnload(library) }, "cuLibraryUnload");
        ok(unsafe { cuModuleUnload(module) }, "unload");
        ok(unsafe { cuMemFreeHost(pinned) }, "cuMemFreeHost");
        ok(unsafe { cuMemFree_v2(dev_buf) }, "free");
        ok(unsafe { cuEventDestroy_v2(start) }, "cuEventDestroy");
        ok(unsafe { cuEventDestroy_v2(end) }, "cuEventDestroy");
        ok(unsafe { cuStreamDestroy_v2(stream) }, "cuStreamDestroy");
    } else {
        // Libraries are not the context's; everything else is, and goes with it.
        ok(unsafe { cuLibraryUnload(library) }, "cuLibraryUnload");
    }
    ok(unsafe { cuCtxDestroy_v2(ctx) }, "cuCtxDestroy");

    // The primary context, as cudart uses it: retained, made current, used, released
    // (which frees what it holds).
    let mut primary = null_mut();
    ok(unsafe { cuDevicePrimaryCtxRetain(&mut primary, dev) }, "retain");
    ok(unsafe { cuCtxPushCurrent_v2(primary) }, "push");
    let mut p = 0;
    ok(unsafe { cuMemAlloc_v2(&mut p, 1 << 16) }, "alloc in the primary context");
    let mut popped = null_mut();
    ok(unsafe { cuCtxPopCurrent_v2(&mut popped) }, "pop");
    assert_eq!(popped, primary);
    ok(unsafe { cuDevicePrimaryCtxRelease_v2(dev) }, "release");
}

/// Creates, compiles, reads and destroys an NVRTC program; returns its PTX.
fn nvrtc_program(i: usize) -> String {
    let source = CString::new(format!(
        "template <int K> __global__ void fill(unsigned* out, unsigned n) {{
           unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
           if (i < n) out[i] = 3 * i + K;
         }}
         template __global__ void fill<{}>(unsigned*, unsigned);",
        2000 + i
    ))
    .unwrap();
    let expr = CString::new(format!("fill<{}>", 2000 + i)).unwrap();
    let mut prog: NvrtcProgram = null_mut();
    assert_eq!(unsafe { nvrtcCreateProgram(&mut prog, source.as_ptr(), c"leak.cu".as_ptr(), 0, std::ptr::null(), std::ptr::null()) }, NVRTC_SUCCESS);
    assert_eq!(unsafe { nvrtcAddNameExpression(prog, expr.as_ptr()) }, NVRTC_SUCCESS);
    let opts = [c"-arch=compute_80".as_ptr(), c"-std=c++17".as_ptr()];
    let compiled = unsafe { nvrtcCompileProgram(prog, opts.len() as i32, opts.as_ptr()) };
    let mut n = 0usize;
    assert_eq!(unsafe { nvrtcGetProgramLogSize(prog, &mut n) }, NVRTC_SUCCESS);
    let mut log = vec![0u8; n];
    assert_eq!(unsafe { nvrtcGetProgramLog(prog, log.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
    assert_eq!(compiled, NVRTC_SUCCESS, "{}", String::from_utf8_lossy(&log));
    assert_eq!(unsafe { nvrtcGetPTXSize(prog, &mut n) }, NVRTC_SUCCESS);
    let mut ptx = vec![0u8; n];
    assert_eq!(unsafe { nvrtcGetPTX(prog, ptx.as_mut_ptr().cast()) }, NVRTC_SUCCESS);
    let mut lowered: *const c_char = std::ptr::null();
    assert_eq!(unsafe { nvrtcGetLoweredName(prog, expr.as_ptr(), &mut lowered) }, NVRTC_SUCCESS);
    let lowered = unsafe { CStr::from_ptr(lowered) }.to_str().unwrap().to_string();
    assert_eq!(unsafe { nvrtcDestroyProgram(&mut prog) }, NVRTC_SUCCESS);
    let ptx = String::from_utf8(ptx[..n - 1].to_vec()).unwrap();
    assert!(ptx.contains(&lowered), "{lowered} in the PTX");
    // The PTX under a fixed kernel name, for loading.
    ptx.replace(&lowered, "nvrtc_fill")
}

fn nvrtc_cycle(i: usize) {
    let ptx = CString::new(nvrtc_program(i)).unwrap();
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, ptx.as_ptr().cast()) }, "load NVRTC's PTX");
    launch_and_check(function(module, c"nvrtc_fill"), null_mut(), 150, 2000 + i as u32);
    ok(unsafe { cuModuleUnload(module) }, "unload");
}

/// The tunable that turns glibc's per-thread caches off (see the module documentation).
const NO_TCACHE: &str = "glibc.malloc.tcache_count=0";

#[test]
fn memory_stays_flat_over_repeated_loads_and_object_lifetimes() {
    let tunables = std::env::var("GLIBC_TUNABLES").unwrap_or_default();
    if !tunables.split(':').any(|t| t == NO_TCACHE) && std::env::var_os("LEAKS_UNDER_VALGRIND").is_none() {
        let tunables = if tunables.is_empty() { NO_TCACHE.to_string() } else { format!("{tunables}:{NO_TCACHE}") };
        let status = std::process::Command::new(std::env::current_exe().unwrap())
            .args(std::env::args_os().skip(1))
            .env("GLIBC_TUNABLES", tunables)
            .status()
            .expect("running this test again");
        assert!(status.success(), "the measured run failed ({status})");
        return;
    }
    // Before any thread of ours exists: the kernel cache in a directory of its own (its
    // key is computed on every load, hit or miss), every module compiled when loaded.
    let cache = std::env::temp_dir().join(format!("cuda-cpu-leaks-{}", std::process::id()));
    std::env::set_var("CUDA_CACHE_PATH", &cache);
    std::env::remove_var("CUDA_CACHE_DISABLE");
    std::env::set_var("CUDA_MODULE_LOADING", "EAGER");

    ok(unsafe { cuInit(0) }, "cuInit");
    let mut dev = 0;
    ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");

    let (compiles, cycles, programs) = (count("LEAKS_COMPILES", 200), count("LEAKS_CYCLES", 1000), count("LEAKS_NVRTC", 200));
    let mut failures = phase("compile", dev, compiles.min(10), compiles, compile_cycle);
    let cached = ptx("cached", 7);
    failures.extend(phase("cycles", dev, cycles.min(20), cycles, |i| object_cycle(i, dev, &cached)));
    failures.extend(phase("nvrtc", dev, programs.min(5), programs, nvrtc_cycle));
    let _ = std::fs::remove_dir_all(&cache);
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
