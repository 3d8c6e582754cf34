//! The backend end to end against `examples/mock_rocr.rs`, a stand-in ROCr with one
//! simulated gfx90a (no GPU code runs): device attributes, memory and copies, module
//! loading through the code object reader, the AQL packet and kernarg segment of a launch,
//! and a queue error failing a launch without hanging.

use backend_api::{Device, DeviceError, LaunchConfig, LoadOptions};
use std::path::PathBuf;
use std::sync::{Arc, Mutex};

/// The dispatch log of the mock is global: one test at a time.
static SERIAL: Mutex<()> = Mutex::new(());

fn mock_path() -> PathBuf {
    let exe = std::env::current_exe().unwrap();
    let p = exe.parent().unwrap().parent().unwrap().join("examples/libmock_rocr.so");
    assert!(p.exists(), "{} is missing (cargo test builds it)", p.display());
    p
}

fn device() -> Arc<dyn Device> {
    std::env::set_var("HSA_RUNTIME_LIB", mock_path());
    // The tests compile afresh unless one asks for the kernel cache.
    std::env::set_var("CUDA_CACHE_DISABLE", "1");
    let d = hsa_backend::devices();
    assert_eq!(d.len(), 1, "the mock has one GPU agent");
    d[0].clone()
}

fn last_dispatch() -> ([u8; 64], Vec<u8>) {
    // SAFETY: the mock exports these with these signatures; dlopen returns the instance
    // the backend loaded.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(*mut u8, *mut u8)> = lib.get(b"mock_rocr_last_dispatch\0").unwrap();
        let (mut p, mut k) = ([0u8; 64], vec![0u8; 512]);
        f(p.as_mut_ptr(), k.as_mut_ptr());
        (p, k)
    }
}

fn trap_next(status: u32) {
    // SAFETY: as above.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(u32)> = lib.get(b"mock_rocr_trap_next\0").unwrap();
        f(status);
    }
}

fn record_next(at: usize, record: &[u8]) {
    // SAFETY: as above.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(usize, *const u8, usize)> = lib.get(b"mock_rocr_record_next\0").unwrap();
        f(at, record.as_ptr(), record.len());
    }
}

fn ptx(name: &str) -> String {
    std::fs::read_to_string(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../compiler-core/tests/ptx/amdgpu").join(name)).unwrap()
}

#[test]
fn attributes_come_from_the_agent() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    let p = d.properties();
    assert_eq!(p.name, "Mock Instinct (gfx90a)");
    assert_eq!((p.multiprocessor_count, p.clock_rate_khz, p.memory_bus_width), (104, 1_700_000, 4096));
    assert_eq!((p.l2_cache_size, p.pci_bus, p.pci_device), (8 << 20, 3, 0));
    assert_eq!(&p.uuid[..8], &[0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef]);
    assert_eq!(p.warp_size, 32, "PTX warps, whatever the wavefront");
    assert_eq!(p.max_threads_per_multiprocessor, 2048);
    assert_eq!(p.total_memory, 64 << 30);
}

#[test]
fn memory_copies_and_memset() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    let a = d.alloc(1000).unwrap();
    let b = d.alloc(1000).unwrap();
    let data: Vec<u8> = (0..1000).map(|i| (i * 7) as u8).collect();
    // SAFETY: host buffers of the stated sizes.
    unsafe { d.copy_to_device(a, data.as_ptr(), 1000).unwrap() };
    d.copy_device_to_device(b, a, 1000).unwrap();
    d.memset(b + 1, 0xAB, 1, 5).unwrap();
    d.memset(b + 8, 0x1234, 2, 4).unwrap();
    let mut back = vec![0u8; 1000];
    // SAFETY: as above.
    unsafe { d.copy_from_device(back.as_mut_ptr(), b, 1000).unwrap() };
    let mut want = data.clone();
    want[1..6].fill(0xAB);
    for k in 0..4 {
        want[8 + 2 * k..10 + 2 * k].copy_from_slice(&0x1234u16.to_le_bytes());
    }
    assert_eq!(back, want);
    assert!(d.free_memory() <= (64 << 30) - 2000);
    d.free(a).unwrap();
    d.free(b).unwrap();
}

#[test]
fn a_launch_is_one_aql_packet_with_the_packed_params_and_implicit_args() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    let m = d.load_ptx(&ptx("arith.ptx"), &LoadOptions::default()).unwrap();
    let k = m.kernel("arith").unwrap();
    assert_eq!(k.params.iter().map(|p| (p.offset, p.size)).collect::<Vec<_>>(), vec![(0, 8), (8, 4), (12, 4)]);
    assert!(m.global("table").is_some());
    let mut params = 0xdead_beef_u64.to_le_bytes().to_vec();
    params.extend(1000u32.to_le_bytes());
    params.extend(0.5f32.to_le_bytes());
    let cfg = LaunchConfig { grid: [3, 2, 1], block: [128, 1, 1], dynamic_shared_bytes: 256 };
    m.launch("arith", &cfg, &params).unwrap();
    let (p, kargs) = last_dispatch();
    let u16_at = |o: usize| u16::from_le_bytes(p[o..o + 2].try_into().unwrap());
    let u32_at = |o: usize| u32::from_le_bytes(p[o..o + 4].try_into().unwrap());
    assert_eq!(u16_at(0) & 0xff, 2, "kernel dispatch");
    assert_eq!(u16_at(2), 2, "two dimensions");
    assert_eq!([u16_at(4), u16_at(6), u16_at(8)], [128, 1, 1]);
    assert_eq!([u32_at(12), u32_at(16), u32_at(20)], [384, 2, 1], "grid in work-items");
    assert_eq!(u32_at(28), 256, "group segment: no static LDS, 256 dynamic");
    assert_ne!(u64::from_le_bytes(p[32..40].try_into().unwrap()), 0, "kernel object");
    assert_eq!(&kargs[..16], &params[..], "the kernarg segment starts with the packed params");
    let k32 = |o: usize| u32::from_le_bytes(kargs[16 + o..16 + o + 4].try_into().unwrap());
    assert_eq!([k32(0), k32(4), k32(8)], [3, 2, 1], "hidden block counts");
    assert_eq!(u16::from_le_bytes(kargs[28..30].try_into().unwrap()), 128, "hidden group size x");
    assert_ne!(u64::from_le_bytes(kargs[16 + 72..16 + 80].try_into().unwrap()), 0, "printf buffer");
    assert_eq!(k32(120), 256, "dynamic LDS size");
}

#[test]
fn a_queue_error_fails_the_launch_without_hanging_and_the_device_goes_on() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    let m = d.load_ptx(&ptx("printf.ptx"), &LoadOptions::default()).unwrap();
    let cfg = LaunchConfig { grid: [1, 1, 1], block: [64, 1, 1], dynamic_shared_bytes: 0 };
    let params = [1u8, 0, 0, 0, 0, 0, 0x80, 0x3f];
    trap_next(0x1016);
    assert_eq!(m.launch("hello", &cfg, &params), Err(DeviceError::LaunchFailed));
    trap_next(43);
    assert_eq!(m.launch("hello", &cfg, &params), Err(DeviceError::IllegalAddress));
    assert_eq!(m.launch("hello", &cfg, &params), Ok(()));
    // An assert record before the trap makes it CUDA_ERROR_ASSERT.
    let mut rec = Vec::new();
    for v in [56u32, 2, 7, 0, 0, 0, 0, 5, 0, 0] {
        rec.extend(v.to_le_bytes());
    }
    rec.extend(b"x\0a.cu\0f\0");
    rec.resize(56, 0);
    record_next(8 + 72, &rec);
    trap_next(0x1016);
    assert_eq!(m.launch("hello", &cfg, &params), Err(DeviceError::Assert));
    assert_eq!(m.launch("hello", &cfg, &params), Ok(()), "the buffer was drained");
    // Bad PTX is a load error with the line, not a crash.
    let e = d.load_ptx(".version 7.8\n.target sm_80\n.address_size 64\n.visible .entry k()\n{\n\tbogus.u32 %r1;\n}\n", &LoadOptions::default());
    assert!(matches!(e, Err(backend_api::LoadError::InvalidPtx { log }) if log.contains("6:")));
}

fn fault_next(address: u64) {
    // SAFETY: as above.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(u64)> = lib.get(b"mock_rocr_fault_next\0").unwrap();
        f(address);
    }
}

/// (a system event handler is registered, a fault went unclaimed).
fn fault_state() -> (bool, bool) {
    // SAFETY: as above.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(*mut u32, *mut u32)> = lib.get(b"mock_rocr_fault_state\0").unwrap();
        let (mut r, mut a) = (0, 0);
        f(&mut r, &mut a);
        (r != 0, a != 0)
    }
}

/// ROCr aborts the process on a GPU memory fault unless a system event handler claims
/// it: the backend registers one, so the fault only fails its launch.
#[test]
fn a_gpu_memory_fault_fails_the_launch_instead_of_aborting() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    assert_eq!(fault_state(), (true, false), "the handler is registered at discovery");
    let m = d.load_ptx(&ptx("printf.ptx"), &LoadOptions::default()).unwrap();
    let cfg = LaunchConfig { grid: [1, 1, 1], block: [64, 1, 1], dynamic_shared_bytes: 0 };
    let params = [1u8, 0, 0, 0, 0, 0, 0x80, 0x3f];
    fault_next(0xdead_0000);
    assert_eq!(m.launch("hello", &cfg, &params), Err(DeviceError::IllegalAddress));
    assert_eq!(fault_state(), (true, false), "the handler claimed the fault: no abort");
    assert_eq!(m.launch("hello", &cfg, &params), Ok(()), "a fresh queue serves the next launch");
}

/// Loading a module compiles it into the kernel cache (`CUDA_CACHE_PATH`): a second load
/// needs no linker (it fails without the cache when `ld.lld` is missing); a damaged entry
/// is ignored (the load compiles, and fails only for want of the linker) and replaced by
/// the next compile; `CUDA_CACHE_DISABLE=1` bypasses the cache.
#[test]
fn modules_load_through_the_kernel_cache() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    let dir = std::env::temp_dir().join(format!("hsa-backend-cache-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::env::set_var("CUDA_CACHE_PATH", &dir);
    std::env::remove_var("CUDA_CACHE_DISABLE");
    let entries =
        || std::fs::read_dir(dir.join("cuda-cpu")).map(|d| d.filter_map(|e| e.ok()).map(|e| e.path()).collect::<Vec<_>>()).unwrap_or_default();
    let load = || d.load_ptx(&ptx("shared.ptx"), &LoadOptions::default()).map(|m| m.kernel_names());
    let no_linker = |on: bool| if on { std::env::set_var("PTX_LD_LLD", "/nonexistent/ld.lld") } else { std::env::remove_var("PTX_LD_LLD") };

    assert_eq!(load().unwrap(), ["block_sum"]);
    let stored = entries();
    assert_eq!(stored.len(), 1, "one entry");
    let entry = std::fs::read(&stored[0]).unwrap();
    no_linker(true);
    assert_eq!(load().unwrap(), ["block_sum"], "a hit needs no linker");
    // A damaged entry is not used: the load compiles again (and needs the linker).
    std::fs::write(&stored[0], &entry[..entry.len() / 2]).unwrap();
    let e = load().expect_err("compiled afresh");
    assert!(e.to_string().contains("ld.lld"), "{e}");
    no_linker(false);
    assert_eq!(load().unwrap(), ["block_sum"]);
    assert_eq!(std::fs::read(&stored[0]).unwrap(), entry, "replaced by the fresh compile");
    // Disabled: the entry is not used.
    std::env::set_var("CUDA_CACHE_DISABLE", "1");
    no_linker(true);
    assert!(load().is_err(), "no cache: the compile needs the linker");
    no_linker(false);
    std::env::remove_var("CUDA_CACHE_PATH");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Cooperative launches: occupancy from the kernel's descriptor and the agent (104 CUs of
/// 4 SIMDs x 8 waves on the mock's gfx90a), a grid that fits dispatches with a grid
/// workspace in the implicit arguments, one block more is refused; ordinary launches
/// pass no workspace.
#[test]
fn cooperative_launches_check_residency_and_pass_the_grid_workspace() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    assert!(d.properties().cooperative_launch);
    let m = d.load_ptx(&ptx("grid_sync.ptx"), &LoadOptions::default()).unwrap();
    // grid_barrier needs few VGPRs and SGPRs (under 64 and 100: the precondition of the
    // figures below), so wave slots and LDS decide: 32 wave slots per CU.
    let co = compiler_core::target::amdgpu::codegen::compile_ptx(&ptx("grid_sync.ptx"), &compiler_core::target::amdgpu::AmdgpuOptions::new("gfx90a"))
        .unwrap();
    let r = compiler_core::target::amdgpu::descriptor::kernel_resources(&co.elf, "grid_barrier").unwrap();
    assert!(r.vgprs("gfx90a", 64) <= 64 && r.sgprs("gfx90a").unwrap() <= 100, "{r:?}");
    assert_eq!(m.kernel("grid_barrier").unwrap().num_regs, r.vgprs("gfx90a", 64), "NUM_REGS: the descriptor's VGPRs");
    let per_cu = |threads, dynamic| m.resident_blocks_per_multiprocessor("grid_barrier", threads, dynamic);
    assert_eq!(per_cu(256, 0), Some(8), "4 waves per block, 32 slots");
    assert_eq!(per_cu(1024, 0), Some(2), "16 waves per block");
    assert_eq!(per_cu(64, 0), Some(16), "the workgroup cap");
    assert_eq!(per_cu(256, 20000), Some(3), "64 KiB of LDS / 20000 bytes");
    assert_eq!(per_cu(256, 70000), Some(0), "more LDS than a CU has");
    assert_eq!(m.resident_blocks_per_multiprocessor("nonexistent", 256, 0), None);

    let mut params = 0x1000_u64.to_le_bytes().to_vec();
    params.extend(1u32.to_le_bytes());
    let workspace_at = abi_offset(12);
    let fits = LaunchConfig { grid: [104 * 8, 1, 1], block: [256, 1, 1], dynamic_shared_bytes: 0 };
    watch_next(workspace_at);
    m.launch_cooperative("grid_barrier", &fits, &params).unwrap();
    let seen = watched().expect("the workspace is a live allocation during the dispatch");
    let words: Vec<u32> = seen.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect();
    assert_eq!(words, [8, 0, 0, 0], "size, then the grid barrier's arrival word");
    let (p, kargs) = last_dispatch();
    assert_eq!(u32::from_le_bytes(p[12..16].try_into().unwrap()), 104 * 8 * 256, "the whole grid in one dispatch");
    let workspace = u64::from_le_bytes(kargs[workspace_at..workspace_at + 8].try_into().unwrap());
    assert!(workspace != 0 && workspace % 16 == 0, "workspace {workspace:#x}");
    let too_many = LaunchConfig { grid: [104 * 8 + 1, 1, 1], ..fits };
    assert!(matches!(m.launch_cooperative("grid_barrier", &too_many, &params), Err(DeviceError::NotSupported(_))));
    // An ordinary launch has no workspace.
    m.launch("grid_barrier", &fits, &params).unwrap();
    let (_, kargs) = last_dispatch();
    assert_eq!(u64::from_le_bytes(kargs[workspace_at..workspace_at + 8].try_into().unwrap()), 0);
}

fn watch_next(at: usize) {
    // SAFETY: as for last_dispatch.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(usize)> = lib.get(b"mock_rocr_watch_next\0").unwrap();
        f(at);
    }
}

fn watched() -> Option<[u8; 16]> {
    // SAFETY: as for last_dispatch.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(*mut u8) -> bool> = lib.get(b"mock_rocr_watched\0").unwrap();
        let mut out = [0u8; 16];
        f(out.as_mut_ptr()).then_some(out)
    }
}

/// Where the grid workspace lies in the kernarg segment of a kernel with `param_bytes`.
fn abi_offset(param_bytes: usize) -> usize {
    use compiler_core::target::amdgpu::abi;
    abi::implicit_args_offset(param_bytes) + abi::implicit::GRID_WORKSPACE
}

/// (pool, GPU allowed) of a live mock allocation.
fn allocation(p: u64) -> Option<(u64, bool)> {
    // SAFETY: as for last_dispatch.
    unsafe {
        let lib = libloading::Library::new(mock_path()).unwrap();
        let f: libloading::Symbol<unsafe extern "C" fn(u64, *mut u64, *mut bool) -> bool> = lib.get(b"mock_rocr_allocation\0").unwrap();
        let (mut pool, mut allowed) = (0, false);
        f(p, &mut pool, &mut allowed).then_some((pool, allowed))
    }
}

/// The mock's fine-grained system pool (examples/mock_rocr.rs `HOST_POOL`).
const MOCK_SYSTEM_POOL: u64 = 20;

/// Managed memory is fine-grained system memory the GPU was allowed to access: the host
/// writes and reads it through the pointer itself, copies, fills and device-to-device
/// copies in both directions see the same bytes, a kernel argument carries the pointer
/// to them, it does not count as device memory, and free gives it back.
#[test]
fn managed_memory_is_system_memory_shared_by_host_and_kernels() {
    let _g = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
    let d = device();
    assert_eq!(d.managed_memory(), Some(backend_api::ManagedMemory { concurrent_access: true }));
    let free_before = d.free_memory();
    let n = 1000;
    let m = d.alloc_managed(n).unwrap();
    assert_eq!(m % 256, 0, "aligned as device memory");
    assert_eq!(allocation(m), Some((MOCK_SYSTEM_POOL, true)), "system pool, GPU access granted");
    assert_eq!(d.free_memory(), free_before, "system memory, not device memory");

    // The host writes through the pointer; a copy out sees it.
    let want: Vec<u8> = (0..n).map(|i| (i * 13 + 5) as u8).collect();
    // SAFETY: `m` is `n` bytes of host-addressable memory, used by nobody else now.
    let host = unsafe { std::slice::from_raw_parts_mut(m as usize as *mut u8, n) };
    host.copy_from_slice(&want);
    let mut back = vec![0u8; 100];
    // SAFETY: host buffers of the stated sizes.
    unsafe { d.copy_from_device(back.as_mut_ptr(), m + 10, 100).unwrap() };
    assert_eq!(back, want[10..110]);
    // A copy in and a fill land where the host reads.
    let data = [0x5Au8; 32];
    // SAFETY: as above.
    unsafe { d.copy_to_device(m + 200, data.as_ptr(), 32).unwrap() };
    d.memset(m + 300, 0x1234, 2, 3).unwrap();
    let mut expect = want.clone();
    expect[200..232].fill(0x5A);
    for k in 0..3 {
        expect[300 + 2 * k..302 + 2 * k].copy_from_slice(&0x1234u16.to_le_bytes());
    }
    assert_eq!(host, &expect[..]);

    // Device memory to and from managed memory, and managed to managed.
    let dev = d.alloc(n).unwrap();
    d.copy_device_to_device(dev, m, n).unwrap();
    let mut via_device = vec![0u8; n];
    // SAFETY: as above.
    unsafe { d.copy_from_device(via_device.as_mut_ptr(), dev, n).unwrap() };
    assert_eq!(via_device, expect);
    let m2 = d.alloc_managed(n).unwrap();
    d.copy_device_to_device(m2, dev, n).unwrap();
    // SAFETY: `m2` is `n` bytes of host-addressable memory.
    assert_eq!(unsafe { std::slice::from_raw_parts(m2 as usize as *const u8, n) }, &expect[..]);
    d.copy_device_to_device(m2, m + 500, 16).unwrap();
    // SAFETY: as above.
    assert_eq!(unsafe { std::slice::from_raw_parts(m2 as usize as *const u8, 16) }, &expect[500..516]);

    // A kernel gets the pointer itself and finds the host's bytes behind it.
    let module = d.load_ptx(&ptx("arith.ptx"), &LoadOptions::default()).unwrap();
    let mut params = m.to_le_bytes().to_vec();
    params.extend(16u32.to_le_bytes());
    params.extend(0.5f32.to_le_bytes());
    watch_next(0);
    module.launch("arith", &LaunchConfig { grid: [1, 1, 1], block: [64, 1, 1], dynamic_shared_bytes: 0 }, &params).unwrap();
    assert_eq!(watched().expect("a live allocation behind the argument"), expect[..16]);

    d.free(m).unwrap();
    d.free(m2).unwrap();
    d.free(dev).unwrap();
    assert_eq!(allocation(m), None, "given back to ROCr");
}

/// Run in a child process with `MOCK_ROCR_NO_POOL_ACCESS_INFO=1` (discovery happens once
/// per process): where ROCr cannot say that the GPU reaches system memory, the device
/// has no managed memory.
#[test]
fn no_managed_memory_child() {
    if std::env::var_os("MOCK_ROCR_NO_POOL_ACCESS_INFO").is_none() {
        return;
    }
    let d = device();
    assert_eq!(d.managed_memory(), None);
    assert!(matches!(d.alloc_managed(64), Err(DeviceError::NotSupported(_))));
    println!("NO_MANAGED_MEMORY_CHECKED");
}

#[test]
fn without_pool_access_information_there_is_no_managed_memory() {
    let out = std::process::Command::new(std::env::current_exe().unwrap())
        .args(["no_managed_memory_child", "--exact", "--nocapture", "--test-threads=1"])
        .env("MOCK_ROCR_NO_POOL_ACCESS_INFO", "1")
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(out.status.success() && stdout.contains("NO_MANAGED_MEMORY_CHECKED"), "{stdout}\n{}", String::from_utf8_lossy(&out.stderr));
}
