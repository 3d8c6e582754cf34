//! `libnvrtc.so`: the NVRTC C API (all 26 exports of NVRTC 13.x) over `cuda-frontend`.
//!
//! Signatures, result codes, error strings and the corner cases of argument checking
//! follow NVIDIA's NVRTC 13.0 as measured (see tests/abi.rs, which holds the observed
//! behaviour). Programs are self-checking handles: a stale or foreign handle is
//! `NVRTC_ERROR_INVALID_PROGRAM`, never undefined behaviour. Independent programs
//! compile concurrently; calls on one program are serialized by its lock. No panic
//! crosses into C: every export runs inside a firewall that answers
//! `NVRTC_ERROR_INTERNAL_ERROR`.
//!
//! Outputs: PTX text. `nvrtcGetCUBIN` gives the same PTX text when the architecture was
//! `sm_XX` (a CUBIN request): both our libcuda and NVIDIA's driver load PTX text through
//! cuModuleLoadData. LTO-IR and OptiX-IR are refused at compile time with a log line;
//! their getters (and Tile-IR's) report size 0.

#![deny(unsafe_op_in_unsafe_fn)]

mod device;

use cuda_frontend::options::{self, Options};
use cuda_frontend::target::{ArchKind, SUPPORTED_ARCHS};
use cuda_frontend::{Header, Outcome};
use std::collections::HashMap;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

/// `nvrtcResult`.
pub type NvrtcResult = c_int;
pub const NVRTC_SUCCESS: NvrtcResult = 0;
pub const NVRTC_ERROR_OUT_OF_MEMORY: NvrtcResult = 1;
pub const NVRTC_ERROR_PROGRAM_CREATION_FAILURE: NvrtcResult = 2;
pub const NVRTC_ERROR_INVALID_INPUT: NvrtcResult = 3;
pub const NVRTC_ERROR_INVALID_PROGRAM: NvrtcResult = 4;
pub const NVRTC_ERROR_INVALID_OPTION: NvrtcResult = 5;
pub const NVRTC_ERROR_COMPILATION: NvrtcResult = 6;
pub const NVRTC_ERROR_BUILTIN_OPERATION_FAILURE: NvrtcResult = 7;
pub const NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION: NvrtcResult = 8;
pub const NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION: NvrtcResult = 9;
pub const NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID: NvrtcResult = 10;
pub const NVRTC_ERROR_INTERNAL_ERROR: NvrtcResult = 11;
pub const NVRTC_ERROR_TIME_FILE_WRITE_FAILED: NvrtcResult = 12;
pub const NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED: NvrtcResult = 13;
pub const NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED: NvrtcResult = 14;
pub const NVRTC_ERROR_PCH_CREATE: NvrtcResult = 15;
pub const NVRTC_ERROR_CANCELLED: NvrtcResult = 16;
pub const NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED: NvrtcResult = 17;

/// `nvrtcProgram`: an opaque pointer.
pub type NvrtcProgram = *mut c_void;

/// The flow callback of nvrtcSetFlowCallback: returns 1 to cancel.
pub type FlowCallback = Option<unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int>;

static ERROR_STRINGS: [&CStr; 18] = [
    c"NVRTC_SUCCESS",
    c"NVRTC_ERROR_OUT_OF_MEMORY",
    c"NVRTC_ERROR_PROGRAM_CREATION_FAILURE",
    c"NVRTC_ERROR_INVALID_INPUT",
    c"NVRTC_ERROR_INVALID_PROGRAM",
    c"NVRTC_ERROR_INVALID_OPTION",
    c"NVRTC_ERROR_COMPILATION",
    c"NVRTC_ERROR_BUILTIN_OPERATION_FAILURE",
    c"NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION",
    c"NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION",
    c"NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID",
    c"NVRTC_ERROR_INTERNAL_ERROR",
    c"NVRTC_ERROR_TIME_FILE_WRITE_FAILED",
    c"NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED",
    c"NVRTC_ERROR_PCH_CREATE_HEAP_EXHAUSTED",
    c"NVRTC_ERROR_PCH_CREATE",
    c"NVRTC_ERROR_CANCELLED",
    c"NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED",
];

/// Mutable state of a program, behind its lock.
#[derive(Default)]
struct State {
    name_expressions: Vec<String>,
    /// A compile got past option parsing: no more name expressions (NVRTC's rule).
    compiled: bool,
    /// The last compile succeeded: lowered names can be asked for.
    compiled_ok: bool,
    /// NUL-terminated.
    log: Vec<u8>,
    /// NUL-terminated PTX; `[0]` before a successful compile.
    ptx: Vec<u8>,
    /// NUL-terminated PTX when the architecture was sm_XX, else empty (size 0).
    cubin: Vec<u8>,
    /// With `-dlto`: the LTO-IR, which is the relocatable PTX (NUL-terminated); PTX and
    /// CUBIN are then empty, as NVIDIA's NVRTC leaves them.
    ltoir: Vec<u8>,
    lowered: HashMap<String, CString>,
    /// Lowered names of earlier compiles: pointers handed out stay valid until destroy.
    retired: Vec<CString>,
    flow: Option<(unsafe extern "C" fn(*mut c_void, *mut c_void) -> c_int, usize)>,
}

struct Program {
    source: Vec<u8>,
    name: String,
    headers: Vec<Header>,
    state: Mutex<State>,
}

/// Live programs by handle. The handle is the address of a box the registry owns, so it
/// is unique while the program lives.
struct Registry {
    programs: HashMap<usize, (Box<u64>, Arc<Program>)>,
}

fn registry() -> &'static Mutex<Registry> {
    static R: OnceLock<Mutex<Registry>> = OnceLock::new();
    R.get_or_init(|| Mutex::new(Registry { programs: HashMap::new() }))
}

fn lookup(prog: NvrtcProgram) -> Option<Arc<Program>> {
    if prog.is_null() {
        return None;
    }
    let r = registry().lock().unwrap_or_else(|e| e.into_inner());
    r.programs.get(&(prog as usize)).map(|(_, p)| p.clone())
}

fn lock(p: &Program) -> std::sync::MutexGuard<'_, State> {
    p.state.lock().unwrap_or_else(|e| e.into_inner())
}

static PCH_HEAP_SIZE: AtomicUsize = AtomicUsize::new(256 << 20);

/// The panic firewall of every export.
fn guard(f: impl FnOnce() -> NvrtcResult) -> NvrtcResult {
    catch_unwind(AssertUnwindSafe(f)).unwrap_or(NVRTC_ERROR_INTERNAL_ERROR)
}

/// SAFETY: `p` is null or a NUL-terminated string.
unsafe fn opt_cstr<'a>(p: *const c_char) -> Option<&'a CStr> {
    if p.is_null() {
        None
    } else {
        Some(unsafe { CStr::from_ptr(p) })
    }
}

/// `const char *nvrtcGetErrorString(nvrtcResult result)`
#[no_mangle]
pub extern "C" fn nvrtcGetErrorString(result: NvrtcResult) -> *const c_char {
    match usize::try_from(result).ok().and_then(|i| ERROR_STRINGS.get(i)) {
        Some(s) => s.as_ptr(),
        None => c"NVRTC_ERROR unknown".as_ptr(),
    }
}

/// `nvrtcResult nvrtcVersion(int *major, int *minor)`
///
/// # Safety
/// Non-null pointers must be writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcVersion(major: *mut c_int, minor: *mut c_int) -> NvrtcResult {
    guard(|| {
        if major.is_null() || minor.is_null() {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        let (ma, mi) = cuda_frontend::VERSION;
        // SAFETY: checked non-null; the caller provides writable ints.
        unsafe {
            *major = ma;
            *minor = mi;
        }
        NVRTC_SUCCESS
    })
}

/// `nvrtcResult nvrtcGetNumSupportedArchs(int *numArchs)`
///
/// # Safety
/// `num_archs` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetNumSupportedArchs(num_archs: *mut c_int) -> NvrtcResult {
    guard(|| {
        if num_archs.is_null() {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        // SAFETY: checked non-null.
        unsafe { *num_archs = SUPPORTED_ARCHS.len() as c_int };
        NVRTC_SUCCESS
    })
}

/// `nvrtcResult nvrtcGetSupportedArchs(int *supportedArchs)`
///
/// # Safety
/// `archs` must be null or have room for nvrtcGetNumSupportedArchs ints.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetSupportedArchs(archs: *mut c_int) -> NvrtcResult {
    guard(|| {
        if archs.is_null() {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        for (i, a) in SUPPORTED_ARCHS.iter().enumerate() {
            // SAFETY: the caller sized the array from nvrtcGetNumSupportedArchs.
            unsafe { *archs.add(i) = *a as c_int };
        }
        NVRTC_SUCCESS
    })
}

/// `nvrtcResult nvrtcCreateProgram(nvrtcProgram *prog, const char *src, const char *name,
///  int numHeaders, const char * const *headers, const char * const *includeNames)`
///
/// # Safety
/// Pointers follow NVRTC's contract: strings NUL-terminated, arrays of `num_headers`.
#[no_mangle]
pub unsafe extern "C" fn nvrtcCreateProgram(
    prog: *mut NvrtcProgram,
    src: *const c_char,
    name: *const c_char,
    num_headers: c_int,
    headers: *const *const c_char,
    include_names: *const *const c_char,
) -> NvrtcResult {
    guard(|| {
        if prog.is_null() {
            return NVRTC_ERROR_INVALID_PROGRAM;
        }
        // SAFETY: the caller passes NUL-terminated strings or null.
        let Some(src) = (unsafe { opt_cstr(src) }) else { return NVRTC_ERROR_INVALID_INPUT };
        if num_headers < 0 {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        if num_headers > 0 && (headers.is_null() || include_names.is_null()) {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        let mut hs = Vec::with_capacity(num_headers as usize);
        for i in 0..num_headers as usize {
            // SAFETY: both arrays have num_headers entries.
            let (h, n) = unsafe { (*headers.add(i), *include_names.add(i)) };
            let (Some(h), Some(n)) = (unsafe { opt_cstr(h) }, unsafe { opt_cstr(n) }) else {
                return NVRTC_ERROR_INVALID_INPUT;
            };
            hs.push(Header { name: n.to_string_lossy().into_owned(), text: h.to_bytes().to_vec() });
        }
        let name = match unsafe { opt_cstr(name) } {
            Some(n) if !n.to_bytes().is_empty() => n.to_string_lossy().into_owned(),
            _ => "default_program".to_string(),
        };
        let program = Arc::new(Program {
            source: src.to_bytes().to_vec(),
            name,
            headers: hs,
            state: Mutex::new(State { log: vec![0], ptx: vec![0], ..Default::default() }),
        });
        let tag = Box::new(0u64);
        let handle = &*tag as *const u64 as usize;
        registry().lock().unwrap_or_else(|e| e.into_inner()).programs.insert(handle, (tag, program));
        // SAFETY: checked non-null.
        unsafe { *prog = handle as NvrtcProgram };
        NVRTC_SUCCESS
    })
}

/// `nvrtcResult nvrtcDestroyProgram(nvrtcProgram *prog)`
///
/// # Safety
/// `prog` must be null or point to a handle.
#[no_mangle]
pub unsafe extern "C" fn nvrtcDestroyProgram(prog: *mut NvrtcProgram) -> NvrtcResult {
    guard(|| {
        if prog.is_null() {
            return NVRTC_ERROR_INVALID_PROGRAM;
        }
        // SAFETY: checked non-null.
        let handle = unsafe { *prog };
        if handle.is_null() {
            return NVRTC_ERROR_INVALID_PROGRAM;
        }
        let removed = registry().lock().unwrap_or_else(|e| e.into_inner()).programs.remove(&(handle as usize));
        match removed {
            Some(_) => {
                // SAFETY: checked non-null.
                unsafe { *prog = std::ptr::null_mut() };
                NVRTC_SUCCESS
            }
            None => NVRTC_ERROR_INVALID_PROGRAM,
        }
    })
}

/// `nvrtcResult nvrtcCompileProgram(nvrtcProgram prog, int numOptions, const char * const *options)`
///
/// # Safety
/// `options` must hold `num_options` pointers (each null or a NUL-terminated string).
#[no_mangle]
pub unsafe extern "C" fn nvrtcCompileProgram(prog: NvrtcProgram, num_options: c_int, opts: *const *const c_char) -> NvrtcResult {
    guard(|| {
        let Some(p) = lookup(prog) else { return NVRTC_ERROR_INVALID_PROGRAM };
        if num_options < 0 {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        let mut st = lock(&p);
        let set_log = |st: &mut State, text: &str| {
            st.log = text.as_bytes().to_vec();
            st.log.push(0);
        };
        if num_options > 0 && opts.is_null() {
            set_log(&mut st, "nvrtc: error: number of arguments supplied does not match number of arguments specified");
            return NVRTC_ERROR_INVALID_OPTION;
        }
        let mut strings: Vec<String> = Vec::with_capacity(num_options as usize);
        for i in 0..num_options as usize {
            // SAFETY: the array has num_options entries.
            let o = unsafe { *opts.add(i) };
            match unsafe { opt_cstr(o) } {
                Some(s) => strings.push(s.to_string_lossy().into_owned()),
                None => {
                    set_log(&mut st, "nvrtc: error: number of arguments supplied does not match number of arguments specified");
                    return NVRTC_ERROR_INVALID_OPTION;
                }
            }
        }
        let refs: Vec<&str> = strings.iter().map(String::as_str).collect();
        let parsed: Options = match options::parse(&refs) {
            Ok(o) => o,
            Err(e) => {
                set_log(&mut st, &format!("{}\n", e.0));
                st.ptx = vec![0];
                st.cubin.clear();
                st.ltoir.clear();
                return NVRTC_ERROR_INVALID_OPTION;
            }
        };
        if let Some((cb, payload)) = st.flow {
            // SAFETY: the client registered this callback for this program.
            if unsafe { cb(payload as *mut c_void, std::ptr::null_mut()) } == 1 {
                set_log(&mut st, "nvrtc: compilation cancelled by the flow callback\n");
                return NVRTC_ERROR_CANCELLED;
            }
        }
        let default_target = if parsed.arch.is_none() { device::current_device_target() } else { None };
        let exprs = st.name_expressions.clone();
        let started = std::time::Instant::now();
        let result = cuda_frontend::compile(&cuda_frontend::Request {
            source: &p.source,
            name: &p.name,
            headers: &p.headers,
            options: &parsed,
            name_expressions: &exprs,
            default_target,
        });
        let total_ms = started.elapsed().as_secs_f64() * 1e3;
        st.compiled = true;
        st.compiled_ok = false;
        let old: Vec<CString> = st.lowered.drain().map(|(_, v)| v).collect();
        st.retired.extend(old);
        set_log(&mut st, &result.log);
        st.ptx = vec![0];
        st.cubin.clear();
        st.ltoir.clear();
        if let Some(path) = &parsed.time_file {
            let csv = format!(
                "source file name , phase name , arch , tu index , metric , unit , value\n\
                 {n} , front-end , {a} , 0 , time , ms , {f:.3}\n{n} , passes , {a} , 0 , time , ms , {q:.3}\n\
                 {n} , back-end , {a} , 0 , time , ms , {b:.3}\n{n} , total , {a} , 0 , time , ms , {t:.3}\n",
                n = p.name,
                a = parsed.arch.as_ref().map(|a| a.number_string()).unwrap_or_default(),
                f = result.timings.frontend_ms,
                q = result.timings.passes_ms,
                b = result.timings.codegen_ms,
                t = total_ms
            );
            let written = if path == "-" {
                print!("{csv}");
                true
            } else {
                std::fs::OpenOptions::new()
                    .create(true)
                    .append(true)
                    .open(path)
                    .and_then(|mut f| std::io::Write::write_all(&mut f, csv.as_bytes()))
                    .is_ok()
            };
            if !written {
                return NVRTC_ERROR_TIME_FILE_WRITE_FAILED;
            }
        }
        if let Some(path) = &parsed.time_trace_file {
            let trace = format!(
                "{{\"traceEvents\":[{{\"name\":\"nvrtcCompileProgram\",\"ph\":\"X\",\"ts\":0,\"dur\":{},\"pid\":1,\"tid\":1}}]}}\n",
                (total_ms * 1000.0) as u64
            );
            if std::fs::write(path, trace).is_err() {
                return NVRTC_ERROR_TIME_TRACE_FILE_WRITE_FAILED;
            }
        }
        match result.outcome {
            Outcome::Success => {
                let ptx = result.ptx.unwrap_or_default();
                let mut bytes = ptx.into_bytes();
                bytes.push(0);
                let arch_is_sm = matches!(parsed.arch.as_ref().map(|a| a.kind), Some(ArchKind::Sm));
                if parsed.output == options::Output::LtoIr {
                    st.ltoir = if parsed.syntax_only { Vec::new() } else { bytes };
                } else {
                    st.cubin = if arch_is_sm && !parsed.syntax_only { bytes.clone() } else { Vec::new() };
                    st.ptx = bytes;
                }
                st.compiled_ok = true;
                for (expr, lowered) in result.lowered_names {
                    if let Ok(c) = CString::new(lowered) {
                        st.lowered.insert(expr, c);
                    }
                }
                NVRTC_SUCCESS
            }
            Outcome::CompileError => NVRTC_ERROR_COMPILATION,
            Outcome::InvalidOption => NVRTC_ERROR_INVALID_OPTION,
            Outcome::InternalError => NVRTC_ERROR_INTERNAL_ERROR,
        }
    })
}

/// Shared shape of the size getters.
fn get_size(prog: NvrtcProgram, out: *mut usize, pick: impl FnOnce(&State) -> usize) -> NvrtcResult {
    guard(|| {
        let Some(p) = lookup(prog) else { return NVRTC_ERROR_INVALID_PROGRAM };
        if out.is_null() {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        let st = lock(&p);
        // SAFETY: checked non-null.
        unsafe { *out = pick(&st) };
        NVRTC_SUCCESS
    })
}

/// Shared shape of the content getters: copies the bytes (which include their NUL).
fn get_bytes(prog: NvrtcProgram, out: *mut c_char, pick: impl FnOnce(&State) -> &[u8]) -> NvrtcResult {
    guard(|| {
        let Some(p) = lookup(prog) else { return NVRTC_ERROR_INVALID_PROGRAM };
        if out.is_null() {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        let st = lock(&p);
        let bytes = pick(&st);
        // SAFETY: the caller sized the buffer from the matching size getter.
        unsafe { std::ptr::copy_nonoverlapping(bytes.as_ptr() as *const c_char, out, bytes.len()) };
        NVRTC_SUCCESS
    })
}

/// # Safety
/// `size` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetPTXSize(prog: NvrtcProgram, size: *mut usize) -> NvrtcResult {
    get_size(prog, size, |s| s.ptx.len())
}

/// # Safety
/// `ptx` must be null or have room for nvrtcGetPTXSize bytes.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetPTX(prog: NvrtcProgram, ptx: *mut c_char) -> NvrtcResult {
    get_bytes(prog, ptx, |s| &s.ptx)
}

/// # Safety
/// `size` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetCUBINSize(prog: NvrtcProgram, size: *mut usize) -> NvrtcResult {
    get_size(prog, size, |s| s.cubin.len())
}

/// # Safety
/// `cubin` must be null or have room for nvrtcGetCUBINSize bytes.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetCUBIN(prog: NvrtcProgram, cubin: *mut c_char) -> NvrtcResult {
    get_bytes(prog, cubin, |s| &s.cubin)
}

/// # Safety
/// `size` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetLTOIRSize(prog: NvrtcProgram, size: *mut usize) -> NvrtcResult {
    get_size(prog, size, |s| s.ltoir.len())
}

/// # Safety
/// `out` must be null or a buffer.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetLTOIR(prog: NvrtcProgram, out: *mut c_char) -> NvrtcResult {
    get_bytes(prog, out, |s| &s.ltoir)
}

/// # Safety
/// `size` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetOptiXIRSize(prog: NvrtcProgram, size: *mut usize) -> NvrtcResult {
    get_size(prog, size, |_| 0)
}

/// # Safety
/// `out` must be null or a buffer.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetOptiXIR(prog: NvrtcProgram, out: *mut c_char) -> NvrtcResult {
    get_bytes(prog, out, |_| &[])
}

/// # Safety
/// `size` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetTileIRSize(prog: NvrtcProgram, size: *mut usize) -> NvrtcResult {
    get_size(prog, size, |_| 0)
}

/// # Safety
/// `out` must be null or a buffer.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetTileIR(prog: NvrtcProgram, out: *mut c_char) -> NvrtcResult {
    get_bytes(prog, out, |_| &[])
}

/// # Safety
/// `size` must be null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetProgramLogSize(prog: NvrtcProgram, size: *mut usize) -> NvrtcResult {
    get_size(prog, size, |s| s.log.len())
}

/// # Safety
/// `log` must be null or have room for nvrtcGetProgramLogSize bytes.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetProgramLog(prog: NvrtcProgram, log: *mut c_char) -> NvrtcResult {
    get_bytes(prog, log, |s| &s.log)
}

/// `nvrtcResult nvrtcAddNameExpression(nvrtcProgram prog, const char * const name_expression)`
///
/// # Safety
/// `expr` must be null or NUL-terminated.
#[no_mangle]
pub unsafe extern "C" fn nvrtcAddNameExpression(prog: NvrtcProgram, expr: *const c_char) -> NvrtcResult {
    guard(|| {
        let Some(p) = lookup(prog) else { return NVRTC_ERROR_INVALID_PROGRAM };
        // SAFETY: null or NUL-terminated.
        let Some(e) = (unsafe { opt_cstr(expr) }) else { return NVRTC_ERROR_INVALID_INPUT };
        let mut st = lock(&p);
        if st.compiled {
            return NVRTC_ERROR_NO_NAME_EXPRESSIONS_AFTER_COMPILATION;
        }
        let e = e.to_string_lossy().into_owned();
        if !st.name_expressions.contains(&e) {
            st.name_expressions.push(e);
        }
        NVRTC_SUCCESS
    })
}

/// `nvrtcResult nvrtcGetLoweredName(nvrtcProgram prog, const char *const name_expression,
///  const char** lowered_name)`
///
/// # Safety
/// `expr` null or NUL-terminated; `lowered` null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetLoweredName(prog: NvrtcProgram, expr: *const c_char, lowered: *mut *const c_char) -> NvrtcResult {
    guard(|| {
        let Some(p) = lookup(prog) else { return NVRTC_ERROR_INVALID_PROGRAM };
        // SAFETY: null or NUL-terminated.
        let Some(e) = (unsafe { opt_cstr(expr) }) else { return NVRTC_ERROR_INVALID_INPUT };
        if lowered.is_null() {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        let st = lock(&p);
        if !st.compiled_ok {
            return NVRTC_ERROR_NO_LOWERED_NAMES_BEFORE_COMPILATION;
        }
        match st.lowered.get(e.to_string_lossy().as_ref()) {
            Some(c) => {
                // SAFETY: checked non-null; the string lives until the program is destroyed.
                unsafe { *lowered = c.as_ptr() };
                NVRTC_SUCCESS
            }
            None => NVRTC_ERROR_NAME_EXPRESSION_NOT_VALID,
        }
    })
}

/// `nvrtcResult nvrtcGetPCHHeapSize(size_t *ret)`
///
/// # Safety
/// `ret` null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetPCHHeapSize(ret: *mut usize) -> NvrtcResult {
    guard(|| {
        if ret.is_null() {
            return NVRTC_ERROR_INVALID_INPUT;
        }
        // SAFETY: checked non-null.
        unsafe { *ret = PCH_HEAP_SIZE.load(Ordering::Relaxed) };
        NVRTC_SUCCESS
    })
}

/// `nvrtcResult nvrtcSetPCHHeapSize(size_t size)`
#[no_mangle]
pub extern "C" fn nvrtcSetPCHHeapSize(size: usize) -> NvrtcResult {
    guard(|| {
        PCH_HEAP_SIZE.store(size, Ordering::Relaxed);
        NVRTC_SUCCESS
    })
}

/// `nvrtcResult nvrtcGetPCHCreateStatus(nvrtcProgram prog)`: we never create a PCH.
#[no_mangle]
pub extern "C" fn nvrtcGetPCHCreateStatus(prog: NvrtcProgram) -> NvrtcResult {
    guard(|| match lookup(prog) {
        Some(_) => NVRTC_ERROR_NO_PCH_CREATE_ATTEMPTED,
        None => NVRTC_ERROR_INVALID_PROGRAM,
    })
}

/// `nvrtcResult nvrtcGetPCHHeapSizeRequired(nvrtcProgram prog, size_t *size)`
///
/// # Safety
/// `size` null or writable.
#[no_mangle]
pub unsafe extern "C" fn nvrtcGetPCHHeapSizeRequired(prog: NvrtcProgram, size: *mut usize) -> NvrtcResult {
    get_size(prog, size, |_| 0)
}

/// `nvrtcResult nvrtcSetFlowCallback(nvrtcProgram prog, int (*callback)(void*, void*), void *payload)`
///
/// The callback is called before the compile starts; returning 1 cancels it
/// (`NVRTC_ERROR_CANCELLED`).
#[no_mangle]
pub extern "C" fn nvrtcSetFlowCallback(prog: NvrtcProgram, callback: FlowCallback, payload: *mut c_void) -> NvrtcResult {
    guard(|| {
        let Some(p) = lookup(prog) else { return NVRTC_ERROR_INVALID_PROGRAM };
        let Some(cb) = callback else { return NVRTC_ERROR_INVALID_INPUT };
        lock(&p).flow = Some((cb, payload as usize));
        NVRTC_SUCCESS
    })
}
