//! Error paths and concurrency of the CPU device: `trap`, bad memory accesses (in thread
//! loops and in fibers, including stack overflow), the process surviving them, concurrent
//! launches from several threads, and cooperative launches whose blocks wait for each
//! other.

use backend_api::{Device, DeviceError, LaunchConfig, LoadOptions};
use std::sync::Arc;

fn device() -> Arc<dyn Device> {
    cpu_backend::devices().remove(0)
}

const HEADER: &str = ".version 8.0\n.target sm_80\n.address_size 64\n";

/// `out[i] = i` for every thread, then (if `p` is non-zero) a store to address `p` by the
/// thread whose global index is `who`. With `bar`, a barrier sits in the middle (fiber mode).
fn store_kernel(bar: bool) -> String {
    format!(
        r#"{HEADER}
.visible .entry k(.param .u64 out, .param .u64 p, .param .u32 who)
{{
  .reg .b32 %r<8>;
  .reg .b64 %rd<8>;
  .reg .pred %p<2>;
  ld.param.u64 %rd1, [out];
  ld.param.u64 %rd2, [p];
  ld.param.u32 %r1, [who];
  mov.u32 %r2, %tid.x;
  mov.u32 %r3, %ctaid.x;
  mov.u32 %r4, %ntid.x;
  mad.lo.s32 %r5, %r3, %r4, %r2;
  mul.wide.u32 %rd3, %r5, 4;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u32 [%rd4], %r5;
  {}
  setp.ne.u32 %p1, %r5, %r1;
  @%p1 bra DONE;
  st.global.u32 [%rd2], %r5;
DONE:
  ret;
}}
"#,
        if bar { "bar.sync 0;" } else { "" }
    )
}

fn launch(m: &dyn backend_api::LoadedModule, grid: u32, block: u32, params: &[u8]) -> Result<(), DeviceError> {
    let cfg = LaunchConfig { grid: [grid, 1, 1], block: [block, 1, 1], ..Default::default() };
    m.launch("k", &cfg, params)
}

fn params(out: u64, p: u64, who: u32) -> Vec<u8> {
    let mut v = Vec::new();
    v.extend_from_slice(&out.to_le_bytes());
    v.extend_from_slice(&p.to_le_bytes());
    v.extend_from_slice(&who.to_le_bytes());
    v.extend_from_slice(&[0; 4]);
    v
}

/// Device memory lies in ranges of its own with inaccessible gaps: a store just past the
/// pages of a large allocation, or just before them, faults (`IllegalAddress`) instead of
/// landing in whatever the host process mapped next to them. Allocated one after another,
/// plain anonymous mappings are adjacent, so such a store used to succeed silently.
#[test]
fn stores_just_off_large_allocations_fault() {
    let d = device();
    let m = d.load_ptx(&store_kernel(false), &LoadOptions::default()).unwrap();
    let out = d.alloc(4).unwrap();
    let page = 4096u64;
    let allocations: Vec<(u64, u64)> = [page, 3 * page, 1 << 20, 1 << 20].iter().map(|&len| (d.alloc(len as usize).unwrap(), len)).collect();
    for &(p, len) in &allocations {
        launch(&*m, 1, 1, &params(out, p + len - 4, 0)).unwrap();
        for bad in [p + len, p - 4] {
            assert_eq!(launch(&*m, 1, 1, &params(out, bad, 0)), Err(DeviceError::IllegalAddress), "{len} bytes at {p:#x}: store at {bad:#x}");
        }
    }
    for (p, _) in allocations {
        d.free(p).unwrap();
    }
}

#[test]
fn bad_store_fails_the_launch_and_the_process_survives() {
    let d = device();
    for bar in [false, true] {
        let m = d.load_ptx(&store_kernel(bar), &LoadOptions::default()).unwrap();
        let n = 64 * 128;
        let out = d.alloc(n * 4).unwrap();
        // A null store, and a store to an unmapped high address.
        for bad in [0u64, 0x7ff0_0000_0000] {
            let e = launch(&*m, 64, 128, &params(out, bad, 1000));
            assert_eq!(e, Err(DeviceError::IllegalAddress), "bar={bar} bad={bad:#x}");
        }
        // The device still works: a good launch completes every block.
        launch(&*m, 64, 128, &params(out, 0, u32::MAX)).unwrap();
        let mut got = vec![0u32; n];
        unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, n * 4).unwrap() };
        assert!(got.iter().enumerate().all(|(i, &v)| v == i as u32), "bar={bar}");
    }
}

#[test]
fn trap_fails_the_launch() {
    let d = device();
    for bar in ["", "bar.sync 0;"] {
        let ptx = format!(
            "{HEADER}.visible .entry k(.param .u64 out)\n{{\n .reg .b32 %r<4>;\n .reg .pred %p<2>;\n mov.u32 %r1, %tid.x;\n {bar}\n setp.ne.u32 %p1, %r1, 5;\n @%p1 bra DONE;\n trap;\nDONE:\n ret;\n}}\n"
        );
        let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
        assert_eq!(launch(&*m, 8, 32, &0u64.to_le_bytes()), Err(DeviceError::LaunchFailed), "{bar}");
    }
}

#[test]
fn unbounded_recursion_overflows_the_fiber_stack_cleanly() {
    // A device function that calls itself forever (with a local array so frames are big).
    let ptx = format!(
        r#"{HEADER}
.func (.param .b32 r) f(.param .b32 x)
{{
  .local .align 4 .b8 buf[256];
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.b32 %r1, [x];
  mov.u64 %rd1, buf;
  st.local.u32 [%rd1], %r1;
  add.s32 %r2, %r1, 1;
  {{
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], %r2;
    call (b), f, (a);
    ld.param.b32 %r3, [b];
  }}
  ld.local.u32 %r1, [%rd1];
  add.s32 %r3, %r3, %r1;
  st.param.b32 [r], %r3;
  ret;
}}
.visible .entry k(.param .u64 out)
{{
  .reg .b32 %r<4>;
  .reg .b64 %rd<3>;
  ld.param.u64 %rd1, [out];
  bar.sync 0;
  {{
    .param .b32 a;
    .param .b32 b;
    st.param.b32 [a], 0;
    call (b), f, (a);
    ld.param.b32 %r1, [b];
  }}
  st.global.u32 [%rd1], %r1;
  ret;
}}
"#
    );
    let d = device();
    let m = d.load_ptx(&ptx, &LoadOptions::default()).unwrap();
    let out = d.alloc(4).unwrap();
    assert_eq!(launch(&*m, 2, 4, &out.to_le_bytes()), Err(DeviceError::IllegalAddress));
}

#[test]
fn concurrent_launches_from_several_threads() {
    let d = device();
    let m = d.load_ptx(&store_kernel(false), &LoadOptions::default()).unwrap();
    let mf = d.load_ptx(&store_kernel(true), &LoadOptions::default()).unwrap();
    std::thread::scope(|s| {
        for t in 0..6 {
            let (d, m, mf) = (d.clone(), m.clone(), mf.clone());
            s.spawn(move || {
                let n = 37 * 96;
                let out = d.alloc(n * 4).unwrap();
                for round in 0..20 {
                    let module = if (t + round) % 2 == 0 { &m } else { &mf };
                    if (t + round) % 5 == 0 {
                        assert_eq!(launch(&**module, 37, 96, &params(out, 8, 3)), Err(DeviceError::IllegalAddress));
                        continue;
                    }
                    d.memset(out, 0xffff_ffff, 4, n).unwrap();
                    launch(&**module, 37, 96, &params(out, 0, u32::MAX)).unwrap();
                    let mut got = vec![0u32; n];
                    unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, n * 4).unwrap() };
                    assert!(got.iter().enumerate().all(|(i, &v)| v == i as u32), "thread {t} round {round}");
                }
            });
        }
    });
}

/// Every block adds 1 to a counter, then waits until all blocks have (a hand-written grid
/// barrier, as cooperative groups emit it: atomic add, then spin on an acquire load), then
/// writes what it saw.
const GRID_BARRIER: &str = r#"
.visible .entry k(.param .u64 counter, .param .u64 out)
{
  .reg .b32 %r<8>;
  .reg .b64 %rd<6>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [counter];
  ld.param.u64 %rd2, [out];
  mov.u32 %r1, %tid.x;
  mov.u32 %r2, %ctaid.x;
  mov.u32 %r3, %nctaid.x;
  setp.ne.u32 %p1, %r1, 0;
  bar.sync 0;
  @%p1 bra WAITED;
  atom.add.release.gpu.u32 %r4, [%rd1], 1;
SPIN:
  ld.acquire.gpu.u32 %r5, [%rd1];
  setp.lt.u32 %p2, %r5, %r3;
  @%p2 bra SPIN;
WAITED:
  bar.sync 0;
  ld.volatile.global.u32 %r6, [%rd1];
  mul.wide.u32 %rd3, %r2, 4;
  add.s64 %rd4, %rd2, %rd3;
  @%p1 bra DONE;
  st.global.u32 [%rd4], %r6;
DONE:
  ret;
}
"#;

#[test]
fn cooperative_launch_runs_every_block_at_once() {
    let d = device();
    let m = d.load_ptx(&format!("{HEADER}{GRID_BARRIER}"), &LoadOptions::default()).unwrap();
    // More blocks than worker threads: only a cooperative launch can finish this.
    let blocks = 3 * std::thread::available_parallelism().map(|n| n.get()).unwrap_or(2) as u32 + 5;
    let counter = d.alloc(4).unwrap();
    let out = d.alloc(blocks as usize * 4).unwrap();
    d.memset(counter, 0, 4, 1).unwrap();
    let mut p = counter.to_le_bytes().to_vec();
    p.extend_from_slice(&out.to_le_bytes());
    let cfg = LaunchConfig { grid: [blocks, 1, 1], block: [64, 1, 1], dynamic_shared_bytes: 0 };
    m.launch_cooperative("k", &cfg, &p).unwrap();
    let mut got = vec![0u32; blocks as usize];
    unsafe { d.copy_from_device(got.as_mut_ptr() as *mut u8, out, blocks as usize * 4).unwrap() };
    assert!(got.iter().all(|&v| v == blocks), "{got:?}");
}

/// Block 0 traps; every other block spins forever on a flag nobody sets (in generated
/// code, with and without barriers around the spin). The launch must end with the trap's
/// error instead of hanging: the other blocks are interrupted.
fn spin_or_trap(bar: &str) -> String {
    format!(
        r#"{HEADER}
.visible .entry k(.param .u64 flag)
{{
  .reg .b32 %r<4>;
  .reg .b64 %rd<2>;
  .reg .pred %p<3>;
  ld.param.u64 %rd1, [flag];
  mov.u32 %r1, %ctaid.x;
  mov.u32 %r3, %tid.x;
  {bar}
  setp.ne.u32 %p1, %r1, 0;
  @%p1 bra SPIN;
  setp.ne.u32 %p2, %r3, 0;
  @%p2 bra DONE;
  trap;
SPIN:
  ld.volatile.global.u32 %r2, [%rd1];
  setp.eq.u32 %p2, %r2, 0;
  @%p2 bra SPIN;
  {bar}
DONE:
  ret;
}}
"#
    )
}

#[test]
fn a_fault_stops_blocks_that_wait_forever() {
    let d = device();
    let flag = d.alloc(4).unwrap();
    d.memset(flag, 0, 4, 1).unwrap();
    for bar in ["", "bar.sync 0;"] {
        let m = d.load_ptx(&spin_or_trap(bar), &LoadOptions::default()).unwrap();
        let t = std::time::Instant::now();
        assert_eq!(launch(&*m, 8, 32, &flag.to_le_bytes()), Err(DeviceError::LaunchFailed), "{bar}");
        let cfg = LaunchConfig { grid: [6, 1, 1], block: [32, 1, 1], dynamic_shared_bytes: 0 };
        assert_eq!(m.launch_cooperative("k", &cfg, &flag.to_le_bytes()), Err(DeviceError::LaunchFailed), "cooperative {bar}");
        assert!(t.elapsed() < std::time::Duration::from_secs(20), "took {:?}", t.elapsed());
    }
}

/// Recursion deeper than a fiber's stack holds (a device function keeping a 64 KiB local
/// array in each frame, in a kernel that synchronizes, so it runs as fibers) overflows into
/// the guard page: frames larger than the guard are probed page by page, so the launch
/// fails with an illegal address instead of writing past the guard into other memory or
/// taking the process down.
#[test]
fn recursion_deeper_than_the_stack_fails_the_launch() {
    let ptx = r#".version 8.0
.target sm_80
.address_size 64
.func (.param .b32 res) rec(.param .b32 n, .param .b64 parent)
{
  .local .align 4 .b8 frame[65536];
  .reg .b32 %r<6>;
  .reg .b64 %rd<4>;
  .reg .pred %p<2>;
  ld.param.b32 %r1, [n];
  ld.param.b64 %rd2, [parent];
  st.u32 [%rd2], %r1;
  setp.eq.s32 %p1, %r1, 0;
  @%p1 bra DONE;
  mov.u64 %rd1, frame;
  cvta.local.u64 %rd3, %rd1;
  st.local.u32 [frame+65532], %r1;
  sub.s32 %r2, %r1, 1;
  {
  .param .b32 a;
  .param .b64 c;
  .param .b32 b;
  st.param.b32 [a], %r2;
  st.param.b64 [c], %rd3;
  call.uni (b), rec, (a, c);
  ld.param.b32 %r3, [b];
  }
  ld.local.u32 %r4, [frame+65532];
  ld.local.u32 %r5, [frame];
  add.s32 %r1, %r3, %r4;
  sub.s32 %r1, %r1, %r5;
  add.s32 %r1, %r1, %r2;
DONE:
  st.param.b32 [res], %r1;
  ret;
}
.visible .entry k(.param .u64 out, .param .u32 depth)
{
  .reg .b32 %r<4>;
  .reg .b64 %rd<4>;
  ld.param.u64 %rd1, [out];
  ld.param.u32 %r1, [depth];
  bar.sync 0;
  {
  .param .b32 a;
  .param .b64 c;
  .param .b32 b;
  st.param.b32 [a], %r1;
  st.param.b64 [c], %rd1;
  call.uni (b), rec, (a, c);
  ld.param.b32 %r2, [b];
  }
  st.global.u32 [%rd1], %r2;
  ret;
}
"#;
    let d = device();
    let m = d.load_ptx(ptx, &LoadOptions::default()).unwrap();
    let out = d.alloc(4).unwrap();
    let cfg = LaunchConfig { grid: [1, 1, 1], block: [32, 1, 1], dynamic_shared_bytes: 0 };
    let launch = |depth: u32| {
        let mut params = out.to_le_bytes().to_vec();
        params.extend_from_slice(&depth.to_le_bytes());
        m.launch("k", &cfg, &params)
    };
    // Shallow recursion works: each level adds its n (each child wrote n - 1 to its
    // parent's frame[0], which the parent subtracts and adds back): 2 + 1.
    launch(2).unwrap();
    let mut got = 0u32;
    unsafe { d.copy_from_device(&mut got as *mut u32 as *mut u8, out, 4).unwrap() };
    assert_eq!(got, 3);
    let r = launch(1000);
    assert!(matches!(r, Err(DeviceError::IllegalAddress)), "a thousand frames of 64 KiB: {r:?}");
}

/// A kernel whose frame is larger than a fiber's stack (a 1 MiB `.local` array, in a kernel
/// that runs as fibers) fails its launch: the frame is probed page by page, so the first
/// access below the stack is in its guard page, instead of in whatever memory lies further
/// down (another fiber's stack) or unmapped memory the fault handler would not own.
#[test]
fn a_frame_larger_than_the_stack_fails_the_launch() {
    let ptx = r#".version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 out)
{
  .local .align 8 .b8 big[1048576];
  .reg .b32 %r<4>;
  .reg .b64 %rd<8>;
  ld.param.u64 %rd1, [out];
  mov.u32 %r1, %tid.x;
  nanosleep.u32 0;
  mov.u64 %rd2, big;
  cvta.local.u64 %rd6, %rd2;
  mul.wide.u32 %rd3, %r1, 8;
  add.s64 %rd4, %rd1, %rd3;
  st.global.u64 [%rd4], %rd6;
  st.local.u32 [big], %r1;
  ld.local.u32 %r2, [big];
  st.global.u32 [%rd4], %r2;
  ret;
}
"#;
    let d = device();
    let m = d.load_ptx(ptx, &LoadOptions::default()).unwrap();
    let out = d.alloc(64 * 8).unwrap();
    let cfg = LaunchConfig { grid: [1, 1, 1], block: [64, 1, 1], dynamic_shared_bytes: 0 };
    let r = m.launch("k", &cfg, &out.to_le_bytes());
    assert!(matches!(r, Err(DeviceError::IllegalAddress)), "a 1 MiB frame on a fiber stack: {r:?}");
}
