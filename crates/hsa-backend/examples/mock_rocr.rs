//! A stand-in for `libhsa-runtime64.so.1` with one simulated gfx90a GPU agent, so the
//! backend's whole path (discovery, memory, copies, module loading, AQL dispatch, queue
//! errors) runs in tests on a machine without an AMD GPU. It executes no GPU code: a
//! dispatch is checked (packet type, sizes, kernarg segment), recorded, and completed, or
//! fails with an exception on the queue when the test asks for a trap.
//!
//! Extra exports for the tests: `mock_rocr_last_dispatch(packet, kernargs)` copies the
//! last packet (64 bytes) and the first 512 bytes of its kernarg segment;
//! `mock_rocr_trap_next(status)` makes the next dispatch fail with `status`;
//! `mock_rocr_record_next(at, record, len)` makes it write a printf-buffer record;
//! `mock_rocr_watch_next(at)` / `mock_rocr_watched(out)` show the 16 bytes the next
//! dispatch finds at the address at kernarg offset `at` (a grid workspace);
//! `mock_rocr_allocation(p, pool, allowed)` says which pool `p` came from and whether the
//! GPU agent was allowed to access it.
//!
//! System pools are `DISALLOWED_BY_DEFAULT` for the GPU, as ROCr reports them for a
//! discrete GPU; `MOCK_ROCR_NO_POOL_ACCESS_INFO=1` makes
//! `hsa_amd_agent_memory_pool_get_info` fail (a ROCr that cannot say).

#![allow(clippy::missing_safety_doc)]

use std::collections::HashMap;
use std::ffi::{c_char, c_void};
use std::sync::atomic::{AtomicI64, AtomicU32, Ordering};
use std::sync::Mutex;

const GPU: u64 = 1;
const CPU: u64 = 2;
const DEVICE_POOL: u64 = 10;
const HOST_POOL: u64 = 20;
const KERNARG_POOL: u64 = 21;
const SLOTS: u32 = 1024;

#[repr(C)]
pub struct Queue {
    queue_type: u32,
    features: u32,
    base_address: *mut c_void,
    doorbell: u64,
    size: u32,
    reserved1: u32,
    id: u64,
}

type QueueCallback = unsafe extern "C" fn(u32, *mut Queue, *mut c_void);

struct QueueState {
    queue: usize,
    write: u64,
    processed: u64,
    callback: Option<QueueCallback>,
    data: usize,
}

#[derive(Default)]
struct State {
    allocations: HashMap<usize, usize>,
    /// Each allocation's pool and the agents `hsa_amd_agents_allow_access` granted it.
    owners: HashMap<usize, (u64, Vec<u64>)>,
    queues: HashMap<u64, QueueState>,
    readers: HashMap<u64, Vec<u8>>,
    variables: HashMap<String, usize>,
    last_packet: Vec<u8>,
    last_kernargs: Vec<u8>,
    trap_next: u32,
    /// A memory fault at this address on the next dispatch: reported to the system event
    /// handler, then (if it claimed the event) to the queue as HSA_STATUS_ERROR_MEMORY_FAULT.
    fault_next: Option<u64>,
    /// The registered system event handler and its data.
    event_handler: Option<(SystemEventCallback, usize)>,
    /// A fault no handler claimed: real ROCr would have aborted the process here.
    would_abort: bool,
    /// A record the next dispatch writes into its printf buffer, found at this kernarg offset.
    record_next: Option<(usize, Vec<u8>)>,
    /// The next dispatch copies 16 bytes from the allocation whose address is at this
    /// kernarg offset (the grid workspace), into `watched`.
    watch_next: Option<usize>,
    watched: Option<Vec<u8>>,
    next_handle: u64,
}

static STATE: Mutex<Option<State>> = Mutex::new(None);

fn with<R>(f: impl FnOnce(&mut State) -> R) -> R {
    let mut g = STATE.lock().unwrap();
    f(g.get_or_insert_with(State::default))
}

fn signal(h: u64) -> &'static AtomicI64 {
    // SAFETY: signal handles are leaked boxes made by hsa_signal_create.
    unsafe { &*(h as *const AtomicI64) }
}

unsafe fn put<T>(dst: *mut c_void, v: T) {
    unsafe { (dst as *mut T).write_unaligned(v) }
}

unsafe fn put_str(dst: *mut c_void, s: &str) {
    let mut b = [0u8; 64];
    b[..s.len()].copy_from_slice(s.as_bytes());
    unsafe { put(dst, b) }
}

#[no_mangle]
pub extern "C" fn hsa_init() -> u32 {
    if std::env::var_os("MOCK_ROCR_NO_GPU").is_some() {
        0x1008
    } else {
        0
    }
}

#[no_mangle]
pub extern "C" fn hsa_shut_down() -> u32 {
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_status_string(_status: u32, out: *mut *const c_char) -> u32 {
    unsafe { *out = c"mock status".as_ptr() };
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_system_get_info(attr: u32, v: *mut c_void) -> u32 {
    if attr == 3 {
        unsafe { put(v, 100_000_000u64) };
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_iterate_agents(cb: unsafe extern "C" fn(u64, *mut c_void) -> u32, data: *mut c_void) -> u32 {
    unsafe {
        cb(CPU, data);
        cb(GPU, data);
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_agent_get_info(agent: u64, attr: u32, v: *mut c_void) -> u32 {
    unsafe {
        match (agent, attr) {
            (_, 17) => put(v, if agent == GPU { 1u32 } else { 0u32 }),
            (GPU, 0) => put_str(v, "gfx90a"),
            (GPU, 4) => put(v, 0u32),
            (GPU, 6) => put(v, 64u32),
            (GPU, 7) => put(v, [1024u16; 3]),
            (GPU, 8) => put(v, 1024u32),
            (GPU, 18) => put(v, [16384u32, 8 << 20, 0, 0]),
            (GPU, 0xA002) => put(v, 104u32),
            (GPU, 0xA003) => put(v, 1700u32),
            (GPU, 0xA006) => put(v, 0x0300u32),
            (GPU, 0xA007) => put(v, 4096u32),
            (GPU, 0xA008) => put(v, 1600u32),
            (GPU, 0xA009) => put_str(v, "Mock Instinct"),
            (GPU, 0xA00A) => put(v, 32u32),
            (GPU, 0xA00B) => put(v, 4u32),
            (GPU, 0xA00F) => put(v, 0u32),
            (GPU, 0xA011) => put_str(v, "GPU-0123456789abcdef"),
            _ => return 0x1001,
        }
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_amd_agent_iterate_memory_pools(agent: u64, cb: unsafe extern "C" fn(u64, *mut c_void) -> u32, data: *mut c_void) -> u32 {
    let pools: &[u64] = if agent == GPU { &[DEVICE_POOL] } else { &[HOST_POOL, KERNARG_POOL] };
    for &p in pools {
        unsafe { cb(p, data) };
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_amd_memory_pool_get_info(pool: u64, attr: u32, v: *mut c_void) -> u32 {
    unsafe {
        match attr {
            0 => put(v, 0u32),
            1 => put(
                v,
                if pool == DEVICE_POOL {
                    4u32
                } else if pool == KERNARG_POOL {
                    1u32 | 2
                } else {
                    2u32
                },
            ),
            2 => put(v, 64u64 << 30),
            5 => put(v, true),
            _ => return 0x1001,
        }
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_amd_memory_pool_allocate(pool: u64, size: usize, _flags: u32, out: *mut *mut c_void) -> u32 {
    if ![DEVICE_POOL, HOST_POOL, KERNARG_POOL].contains(&pool) {
        return 0x1001;
    }
    let layout = std::alloc::Layout::from_size_align(size.max(1), 4096).unwrap();
    // SAFETY: non-zero size.
    let p = unsafe { std::alloc::alloc_zeroed(layout) };
    with(|s| {
        s.allocations.insert(p as usize, size.max(1));
        s.owners.insert(p as usize, (pool, Vec::new()));
    });
    unsafe { *out = p as *mut c_void };
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_amd_memory_pool_free(p: *mut c_void) -> u32 {
    match with(|s| {
        s.owners.remove(&(p as usize));
        s.allocations.remove(&(p as usize))
    }) {
        Some(size) => {
            unsafe { std::alloc::dealloc(p as *mut u8, std::alloc::Layout::from_size_align(size, 4096).unwrap()) };
            0
        }
        None => 0x1001,
    }
}

/// Records the grant; as ROCr, refuses a pointer that is no allocation and an agent that
/// cannot reach the pool.
#[no_mangle]
pub unsafe extern "C" fn hsa_amd_agents_allow_access(n: u32, agents: *const u64, _flags: *const u32, p: *const c_void) -> u32 {
    let agents = unsafe { std::slice::from_raw_parts(agents, n as usize) }.to_vec();
    with(|s| match s.owners.get_mut(&(p as usize)) {
        Some((pool, _)) if agents.iter().any(|&a| access(a, *pool) == 0) => 0x1001,
        Some((_, allowed)) => {
            allowed.extend(agents);
            0
        }
        None => 0x1001,
    })
}

/// `hsa_amd_memory_pool_access_t` of `agent` to `pool`.
fn access(agent: u64, pool: u64) -> u32 {
    let own = (agent == GPU) == (pool == DEVICE_POOL);
    if own {
        1
    } else if agent == GPU {
        2
    } else {
        0
    }
}

#[no_mangle]
pub unsafe extern "C" fn hsa_amd_agent_memory_pool_get_info(agent: u64, pool: u64, attr: u32, v: *mut c_void) -> u32 {
    let unsupported = std::env::var_os("MOCK_ROCR_NO_POOL_ACCESS_INFO").is_some();
    if attr != 0 || unsupported || ![DEVICE_POOL, HOST_POOL, KERNARG_POOL].contains(&pool) {
        return 0x1001;
    }
    unsafe { put(v, access(agent, pool)) };
    0
}

/// The pool `p` was allocated from and whether the GPU may access it; false if `p` is
/// not a live allocation.
#[no_mangle]
pub unsafe extern "C" fn mock_rocr_allocation(p: u64, pool: *mut u64, gpu_allowed: *mut bool) -> bool {
    with(|s| match s.owners.get(&(p as usize)) {
        Some((owner, allowed)) => {
            unsafe {
                *pool = *owner;
                *gpu_allowed = allowed.contains(&GPU);
            }
            true
        }
        None => false,
    })
}

#[no_mangle]
pub unsafe extern "C" fn hsa_amd_memory_async_copy(
    dst: *mut c_void,
    _da: u64,
    src: *const c_void,
    _sa: u64,
    size: usize,
    _n: u32,
    _deps: *const u64,
    done: u64,
) -> u32 {
    unsafe { std::ptr::copy(src as *const u8, dst as *mut u8, size) };
    signal(done).fetch_sub(1, Ordering::AcqRel);
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_amd_memory_fill(p: *mut c_void, value: u32, count: usize) -> u32 {
    for k in 0..count {
        unsafe { (p as *mut u32).add(k).write_unaligned(value) };
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_signal_create(initial: i64, _n: u32, _c: *const u64, out: *mut u64) -> u32 {
    unsafe { *out = Box::into_raw(Box::new(AtomicI64::new(initial))) as u64 };
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_signal_destroy(s: u64) -> u32 {
    drop(unsafe { Box::from_raw(s as *mut AtomicI64) });
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_signal_wait_scacquire(s: u64, cond: u32, value: i64, _timeout: u64, _state: u32) -> i64 {
    // Everything completes synchronously at the doorbell: no waiting is ever needed, and
    // a queue error leaves the signal as it is, as ROCr does.
    let v = signal(s).load(Ordering::Acquire);
    assert_eq!(cond, 2, "the backend waits with HSA_SIGNAL_CONDITION_LT");
    let _ = value;
    v
}

#[no_mangle]
pub unsafe extern "C" fn hsa_queue_create(
    agent: u64,
    size: u32,
    _ty: u32,
    cb: Option<QueueCallback>,
    data: *mut c_void,
    _p: u32,
    _g: u32,
    out: *mut *mut Queue,
) -> u32 {
    if agent != GPU || size != SLOTS {
        return 0x1001;
    }
    let ring = Box::leak(vec![0u8; size as usize * 64].into_boxed_slice());
    let mut doorbell = 0u64;
    unsafe { hsa_signal_create(0, 0, std::ptr::null(), &mut doorbell) };
    let q = Box::into_raw(Box::new(Queue {
        queue_type: 1,
        features: 1,
        base_address: ring.as_mut_ptr() as *mut c_void,
        doorbell,
        size,
        reserved1: 0,
        id: 7,
    }));
    with(|s| s.queues.insert(doorbell, QueueState { queue: q as usize, write: 0, processed: 0, callback: cb, data: data as usize }));
    unsafe { *out = q };
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_queue_destroy(q: *mut Queue) -> u32 {
    let doorbell = unsafe { (*q).doorbell };
    with(|s| s.queues.remove(&doorbell));
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_queue_add_write_index_screlease(q: *const Queue, n: u64) -> u64 {
    let doorbell = unsafe { (*q).doorbell };
    with(|s| {
        let st = s.queues.get_mut(&doorbell).unwrap();
        st.write += n;
        st.write - n
    })
}

#[no_mangle]
pub unsafe extern "C" fn hsa_queue_load_read_index_scacquire(q: *const Queue) -> u64 {
    let doorbell = unsafe { (*q).doorbell };
    with(|s| s.queues.get(&doorbell).map(|st| st.processed).unwrap_or(0))
}

/// Ringing a doorbell processes the queue's packets up to the written index.
#[no_mangle]
pub unsafe extern "C" fn hsa_signal_store_screlease(s: u64, value: i64) {
    let Some((q, from, cb, data)) = with(|st| st.queues.get(&s).map(|q| (q.queue, q.processed, q.callback, q.data))) else {
        signal(s).store(value, Ordering::Release);
        return;
    };
    let queue = q as *mut Queue;
    for index in from..=value as u64 {
        let slot = unsafe { ((*queue).base_address as *mut u8).add((index % SLOTS as u64) as usize * 64) };
        let header = unsafe { (*(slot as *const AtomicU32)).load(Ordering::Acquire) };
        assert_eq!(header & 0xff, 2, "a kernel dispatch packet");
        let mut packet = [0u8; 64];
        unsafe { std::ptr::copy_nonoverlapping(slot, packet.as_mut_ptr(), 64) };
        let kernarg = u64::from_le_bytes(packet[40..48].try_into().unwrap()) as *const u8;
        let mut args = vec![0u8; 512];
        unsafe {
            std::ptr::copy_nonoverlapping(
                kernarg,
                args.as_mut_ptr(),
                512.min(with(|st| st.allocations.get(&(kernarg as usize)).copied().unwrap_or(0))),
            )
        };
        if let Some((at, record)) = with(|st| st.record_next.take()) {
            let buf = u64::from_le_bytes(args[at..at + 8].try_into().unwrap()) as *mut u8;
            // Claim as the device code does, then write the record.
            let used = unsafe { &*(buf.add(8) as *const std::sync::atomic::AtomicU64) }.fetch_add(record.len() as u64, Ordering::AcqRel);
            unsafe { std::ptr::copy_nonoverlapping(record.as_ptr(), buf.add(16 + used as usize), record.len()) };
        }
        if let Some(at) = with(|st| st.watch_next.take()) {
            let p = u64::from_le_bytes(args[at..at + 8].try_into().unwrap()) as usize;
            let live = with(|st| st.allocations.get(&p).is_some_and(|&n| n >= 16));
            let bytes = live.then(|| unsafe { std::slice::from_raw_parts(p as *const u8, 16) }.to_vec());
            with(|st| st.watched = bytes);
        }
        let (mut trap, fault, handler) = with(|st| {
            st.last_packet = packet.to_vec();
            st.last_kernargs = args;
            st.queues.get_mut(&s).unwrap().processed = index + 1;
            (std::mem::take(&mut st.trap_next), st.fault_next.take(), st.event_handler)
        });
        if let Some(address) = fault {
            let event = MemoryFaultEvent { event_type: 0, agent: GPU, virtual_address: address, fault_reason_mask: 1 };
            let claimed = handler.is_some_and(|(h, data)| unsafe { h(&event, data as *mut c_void) } == 0);
            if claimed {
                trap = 43;
            } else {
                with(|st| st.would_abort = true);
            }
        }
        if trap != 0 {
            if let Some(cb) = cb {
                unsafe { cb(trap, queue, data as *mut c_void) };
            }
        } else {
            let done = u64::from_le_bytes(packet[56..64].try_into().unwrap());
            signal(done).fetch_sub(1, Ordering::AcqRel);
        }
    }
}

#[no_mangle]
pub unsafe extern "C" fn hsa_code_object_reader_create_from_memory(p: *const c_void, size: usize, out: *mut u64) -> u32 {
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, size) }.to_vec();
    // An AMDGPU shared object: ELF64, ET_DYN, EM_AMDGPU.
    if bytes.get(..4) != Some(b"\x7fELF") || bytes.get(16..20) != Some(&[3, 0, 224, 0]) {
        return 0x1010;
    }
    let h = with(|s| {
        s.next_handle += 1;
        s.readers.insert(s.next_handle, bytes);
        s.next_handle
    });
    unsafe { *out = h };
    0
}

#[no_mangle]
pub extern "C" fn hsa_code_object_reader_destroy(h: u64) -> u32 {
    with(|s| s.readers.remove(&h)).map(|_| 0).unwrap_or(0x1021)
}

#[no_mangle]
pub unsafe extern "C" fn hsa_executable_create_alt(_p: u32, _r: u32, _o: *const c_char, out: *mut u64) -> u32 {
    unsafe { *out = 0xE0 };
    0
}

#[no_mangle]
pub extern "C" fn hsa_executable_load_agent_code_object(_e: u64, agent: u64, reader: u64, _o: *const c_char, _out: *mut u64) -> u32 {
    if agent != GPU {
        return 0x1004;
    }
    with(|s| s.readers.contains_key(&reader)).then_some(0).unwrap_or(0x1021)
}

#[no_mangle]
pub extern "C" fn hsa_executable_freeze(_e: u64, _o: *const c_char) -> u32 {
    0
}

#[no_mangle]
pub extern "C" fn hsa_executable_destroy(_e: u64) -> u32 {
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_executable_get_symbol_by_name(_e: u64, name: *const c_char, _a: *const u64, out: *mut u64) -> u32 {
    let name = unsafe { std::ffi::CStr::from_ptr(name) }.to_string_lossy().into_owned();
    let known = with(|s| s.variables.get(&name).copied());
    let h = match known {
        Some(h) => h,
        None => {
            let mut p: *mut c_void = std::ptr::null_mut();
            unsafe { hsa_amd_memory_pool_allocate(DEVICE_POOL, 4096, 0, &mut p) };
            with(|s| s.variables.insert(name, p as usize));
            p as usize
        }
    };
    unsafe { *out = h as u64 };
    0
}

#[no_mangle]
pub unsafe extern "C" fn hsa_executable_symbol_get_info(sym: u64, attr: u32, v: *mut c_void) -> u32 {
    unsafe {
        match attr {
            11 => put(v, 272u32),
            13 | 14 => put(v, 0u32),
            21 | 22 => put(v, sym),
            _ => return 0x1001,
        }
    }
    0
}

#[no_mangle]
pub unsafe extern "C" fn mock_rocr_last_dispatch(packet: *mut u8, kernargs: *mut u8) {
    with(|s| unsafe {
        std::ptr::copy_nonoverlapping(s.last_packet.as_ptr(), packet, s.last_packet.len().min(64));
        std::ptr::copy_nonoverlapping(s.last_kernargs.as_ptr(), kernargs, s.last_kernargs.len().min(512));
    })
}

/// The next dispatch writes `len` bytes at `record` into the printf buffer whose address
/// is at byte `at` of its kernarg segment.
#[no_mangle]
pub unsafe extern "C" fn mock_rocr_record_next(at: usize, record: *const u8, len: usize) {
    let r = unsafe { std::slice::from_raw_parts(record, len) }.to_vec();
    with(|s| s.record_next = Some((at, r)))
}

/// The next dispatch records the 16 bytes at the address found at kernarg offset `at`.
#[no_mangle]
pub extern "C" fn mock_rocr_watch_next(at: usize) {
    with(|s| {
        s.watch_next = Some(at);
        s.watched = None;
    })
}

/// Copies what the last watched dispatch saw into `out` (16 bytes); false if the address
/// was not a live allocation of at least 16 bytes.
#[no_mangle]
pub unsafe extern "C" fn mock_rocr_watched(out: *mut u8) -> bool {
    with(|s| match &s.watched {
        Some(b) => {
            unsafe { std::ptr::copy_nonoverlapping(b.as_ptr(), out, 16) };
            true
        }
        None => false,
    })
}

#[no_mangle]
pub extern "C" fn mock_rocr_trap_next(status: u32) {
    with(|s| s.trap_next = status)
}

/// `hsa_amd_event_t` with its memory-fault member.
#[repr(C)]
pub struct MemoryFaultEvent {
    event_type: u32,
    agent: u64,
    virtual_address: u64,
    fault_reason_mask: u32,
}

type SystemEventCallback = unsafe extern "C" fn(*const MemoryFaultEvent, *mut c_void) -> u32;

#[no_mangle]
pub extern "C" fn hsa_amd_register_system_event_handler(cb: Option<SystemEventCallback>, data: *mut c_void) -> u32 {
    match cb {
        Some(cb) => {
            with(|s| s.event_handler = Some((cb, data as usize)));
            0
        }
        None => 0x1001, // HSA_STATUS_ERROR_INVALID_ARGUMENT
    }
}

#[no_mangle]
pub extern "C" fn mock_rocr_fault_next(address: u64) {
    with(|s| s.fault_next = Some(address))
}

/// Whether a handler is registered, and whether a fault went unclaimed (ROCr would abort).
#[no_mangle]
pub extern "C" fn mock_rocr_fault_state(registered: *mut u32, would_abort: *mut u32) {
    let (r, a) = with(|s| (s.event_handler.is_some(), s.would_abort));
    unsafe {
        *registered = r as u32;
        *would_abort = a as u32;
    }
}
