//! CUDA C++ to PTX, in-process: the compiler behind our libnvrtc.so.
//!
//! ```text
//! source + headers + NVRTC options
//!   | options::parse            NVRTC's vocabulary and error messages
//!   | cc1 arguments             target nvptx64-nvidia-cuda, sm_XX, our headers (include/)
//!   v
//! shim (C++, clang 19)          parse, Sema, our AST checks (lane-mask narrowing,
//!   |                           -default-device), CodeGen + LLVM's O3 pipeline,
//!   |                           under crash recovery on a thread of its own
//!   v
//! ir::                          name expressions -> lowered names, kernel linkage,
//!   |                           precision options (div/sqrt)
//!   v
//! codegen::                     NVPTX back-end (inkwell TargetMachine) -> PTX text
//! ```
//!
//! Diagnostics are collected from clang and rendered in NVIDIA's (EDG) log format by
//! [`diag`]. Nothing here panics on bad input; a crash inside clang or LLVM becomes an
//! internal error with a log line saying what happened.

mod asm;
pub mod diag;
mod ffi;
pub mod headers;
mod ir;
pub mod options;
mod pch;
mod rewrite;
pub mod target;

use diag::{Diagnostic, Kind, Level};
use inkwell::context::Context;
use inkwell::llvm_sys::prelude::LLVMModuleRef;
use inkwell::module::Module;
use options::{Options, Output, Std};
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_int, c_uint, c_void};
use std::time::Instant;
use target::Arch;

/// Virtual directory of our device headers.
pub const BUILTIN_DIR: &str = "/__nvrtc_builtin__";
/// Virtual directory of the headers given to nvrtcCreateProgram.
pub const HEADER_DIR: &str = "/__nvrtc_headers__";

/// NVRTC version we implement (nvrtcVersion) and the CUDA version macros we define.
pub const VERSION: (i32, i32) = (13, 0);

/// One in-memory header of a program.
#[derive(Clone, Debug)]
pub struct Header {
    pub name: String,
    pub text: Vec<u8>,
}

/// What to compile.
pub struct Request<'a> {
    pub source: &'a [u8],
    /// The program name (`default_program` when the client gave none).
    pub name: &'a str,
    pub headers: &'a [Header],
    pub options: &'a Options,
    pub name_expressions: &'a [String],
    /// The architecture (and warp size) to use when the options name none.
    pub default_target: Option<(Arch, u32)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    Success,
    /// Errors in the program: NVRTC_ERROR_COMPILATION.
    CompileError,
    /// An option we cannot honour: NVRTC_ERROR_INVALID_OPTION.
    InvalidOption,
    /// Our own failure (crash, back-end error): NVRTC_ERROR_INTERNAL_ERROR... reported by
    /// NVRTC as a compilation error with the reason in the log.
    InternalError,
}

/// Times of the phases of one compile, milliseconds.
#[derive(Clone, Debug, Default)]
pub struct Timings {
    pub frontend_ms: f64,
    pub passes_ms: f64,
    pub codegen_ms: f64,
}

pub struct CompileResult {
    pub outcome: Outcome,
    pub log: String,
    /// PTX text (no NUL) on success.
    pub ptx: Option<String>,
    /// `(name expression, lowered name)`, in the order the expressions were added.
    pub lowered_names: Vec<(String, String)>,
    pub timings: Timings,
}

impl CompileResult {
    fn fail(outcome: Outcome, log: String) -> CompileResult {
        CompileResult { outcome, log, ptx: None, lowered_names: Vec::new(), timings: Timings::default() }
    }
}

/// Prefix of the variables that carry name expressions through the compile.
pub(crate) const NAME_EXPR_PREFIX: &str = "__nvrtc_name_expr_";

/// The effective target of a compile.
pub struct Target {
    pub arch: Arch,
    pub warp_size: u32,
}

fn effective_target(req: &Request) -> Target {
    let (arch, default_warp) = match (&req.options.arch, &req.default_target) {
        (Some(a), _) => (a.clone(), a.warp_size()),
        (None, Some((a, w))) => (a.clone(), *w),
        (None, None) => (Arch::default_arch(), 32),
    };
    let warp_size = req.options.warp_size.unwrap_or(default_warp);
    Target { arch, warp_size }
}

/// The arguments that define the compile configuration: target, language, floating-point
/// modes, our macros and header directories. A PCH of the prelude is keyed by them.
fn config_args(o: &Options, t: &Target) -> Vec<String> {
    let mut a: Vec<String> = Vec::with_capacity(64);
    let mut push = |s: &str| a.push(s.to_string());
    push("-triple");
    push("nvptx64-nvidia-cuda");
    push("-aux-triple");
    push("x86_64-unknown-linux-gnu");
    push("-fcuda-is-device");
    push("-target-cpu");
    push(&t.arch.llvm_cpu());
    push("-target-feature");
    push(t.arch.llvm_ptx_feature());
    push(if o.optimize() { "-O3" } else { "-O0" });
    push(o.std.clang_flag());
    push("-fcuda-allow-variadic-functions");
    push("-fno-rtti");
    push("-fno-threadsafe-statics");
    // NVIDIA's documentation writes `#pragma unroll (N)`: no warning for the parentheses.
    push("-Wno-cuda-compat");
    // NVRTC's own pragmas (nv_diag_suppress, ...) are not clang's.
    push("-Wno-unknown-pragmas");
    push("-discard-value-names");
    // clang's driver passes this in release builds: verifying clang's own IR was ~2% of a
    // small compile.
    push("-disable-llvm-verifier");
    push("-ferror-limit");
    push("100");
    push("-nostdsysteminc");
    push("-nobuiltininc");
    // Present as NVIDIA's NVRTC, not as clang or GCC: headers written for NVRTC (CCCL's
    // libcu++ in CuPy, jitify) pick their code path from these macros, and NVRTC defines
    // neither `__clang__` nor `__GNUC__` (its front end is EDG).
    push("-fgnuc-version=0");
    push("-U__clang__");
    if o.optimize() {
        push("-vectorize-loops");
        push("-vectorize-slp");
    }
    push(if o.fmad { "-ffp-contract=fast-honor-pragmas" } else { "-ffp-contract=off" });
    if o.ftz {
        push("-fdenormal-fp-math-f32=preserve-sign,preserve-sign");
    }
    if o.rdc {
        push("-fgpu-rdc");
    }
    if o.device_int128 {
        push("-D__CUDACC_RTC_INT128__=1");
    }
    // Search order: our device headers, then the program's headers, then -I.
    push("-I");
    push(BUILTIN_DIR);
    push("-I");
    push(HEADER_DIR);
    // Standard-library-like headers (<cstdint>, <type_traits>, cuda/std/...): after the
    // client's include paths, so a real libcu++ or jitify's own headers win.
    push("-idirafter");
    push(&format!("{BUILTIN_DIR}/fallback"));
    // Macros of NVRTC and of the target.
    let mut defs = device_macros(o, t);
    defs.insert(1, ("__CUDACC_RTC__".into(), "1".into()));
    if o.builtin_initializer_list {
        defs.push(("__NV_BUILTIN_INITIALIZER_LIST".into(), "1".into()));
    }
    if o.builtin_move_forward {
        defs.push(("__NV_BUILTIN_MOVE_FORWARD".into(), "1".into()));
    }
    // clang defines __CUDA_ARCH__ from the processor, which may be an older one.
    a.push("-U__CUDA_ARCH__".into());
    for (k, v) in defs {
        a.push(format!("-D{k}={v}"));
    }
    a
}

/// The macros a device compile of CUDA C++ defines, ours and NVIDIA's, for the options and
/// target: shared by NVRTC (which adds `__CUDACC_RTC__`) and our nvcc's device passes.
pub fn device_macros(o: &Options, t: &Target) -> Vec<(String, String)> {
    let (major, minor) = VERSION;
    let mut defs: Vec<(String, String)> = vec![
        ("__CUDACC__".into(), "1".into()),
        ("__NVCC_DIAG_PRAGMA_SUPPORT__".into(), "1".into()),
        ("__CUDACC_VER_MAJOR__".into(), major.to_string()),
        ("__CUDACC_VER_MINOR__".into(), minor.to_string()),
        ("__CUDACC_VER_BUILD__".into(), "88".into()),
        ("__CUDA_API_VER_MAJOR__".into(), major.to_string()),
        ("__CUDA_API_VER_MINOR__".into(), minor.to_string()),
        ("__CUDA_ARCH__".into(), t.arch.cuda_arch_macro().to_string()),
        ("__CUDA_PREC_DIV".into(), (o.prec_div as u32).to_string()),
        ("__CUDA_PREC_SQRT".into(), (o.prec_sqrt as u32).to_string()),
        ("__CUDA_FTZ".into(), (o.ftz as u32).to_string()),
        ("__USE_FAST_MATH__".into(), (o.fast_math as u32).to_string()),
        ("__NVRTC_FMAD__".into(), (o.fmad as u32).to_string()),
        ("__REDSCALE__".into(), "1".into()),
        ("__SCALE_WARP_SIZE__".into(), t.warp_size.to_string()),
        ("__NVRTC_WARP_SIZE__".into(), t.warp_size.to_string()),
    ];
    defs.extend(t.arch.extra_macros());
    if o.rdc {
        defs.push(("__CUDACC_RDC__".into(), "1".into()));
    }
    if o.device_debug {
        defs.push(("__CUDACC_DEBUG__".into(), "1".into()));
    }
    if o.extended_lambda {
        defs.push(("__CUDACC_EXTENDED_LAMBDA__".into(), "1".into()));
    }
    if o.relaxed_constexpr {
        defs.push(("__CUDACC_RELAXED_CONSTEXPR__".into(), "1".into()));
    }
    if o.fast_math {
        defs.push(("__NVRTC_FAST_MATH__".into(), "1".into()));
    }
    defs
}

/// The client's part of the arguments: -I, -D/-U, --pre-include, -default-device.
fn user_args(o: &Options) -> Vec<String> {
    let mut a: Vec<String> = Vec::new();
    let cwd = std::env::current_dir().ok();
    for p in &o.include_paths {
        a.push("-I".into());
        let path = std::path::Path::new(p);
        match (&cwd, path.is_absolute()) {
            (Some(cwd), false) => a.push(cwd.join(path).to_string_lossy().into_owned()),
            _ => a.push(p.clone()),
        }
    }
    // The client's macros, in order (-U after -D of the same name wins, as in nvcc).
    for d in &o.defines {
        a.push(format!("-D{d}"));
    }
    for u in &o.undefines {
        a.push(format!("-U{u}"));
    }
    for h in &o.pre_includes {
        a.push("-include".into());
        a.push(h.clone());
    }
    if o.default_device {
        a.push("-include".into());
        a.push(format!("{BUILTIN_DIR}/__nvrtc_default_device.h"));
    }
    a
}

/// The main file: the program's source, then (in a file of its own for diagnostics)
/// one device variable per name expression, whose initializer makes clang instantiate
/// and reference the entity; `ir::take_name_expressions` reads the symbol back.
fn main_text(req: &Request) -> Vec<u8> {
    let mut text = req.source.to_vec();
    // A NUL inside the source ends it (the C API takes a C string).
    if let Some(p) = text.iter().position(|&b| b == 0) {
        text.truncate(p);
    }
    if let Some(t) = rewrite::rewrite(&text) {
        text = t;
    }
    if req.options.no_source_include {
        // NVRTC: the directory of the source is not searched (ours is virtual anyway).
    }
    if !req.name_expressions.is_empty() {
        // A host-device function resolves the expression (kernels' addresses can be taken
        // there, overloaded ones included); a device variable keeps the entity referenced.
        let modern = !matches!(req.options.std, Std::Cxx03 | Std::Cxx11);
        text.extend_from_slice(b"\n#line 1 \"__nv_name_map\"\n");
        for (i, e) in req.name_expressions.iter().enumerate() {
            let line = if modern {
                format!(
                    "__host__ __device__ constexpr auto {NAME_EXPR_PREFIX}fn_{i}() {{ return {e}; }} __device__ auto {NAME_EXPR_PREFIX}{i} = {NAME_EXPR_PREFIX}fn_{i}();\n"
                )
            } else {
                let auto = if req.options.std == Std::Cxx03 { "__auto_type" } else { "auto" };
                format!("__device__ {auto} {NAME_EXPR_PREFIX}{i} = {e};\n")
            };
            text.extend_from_slice(line.as_bytes());
        }
    }
    if req.options.default_device {
        text.extend_from_slice(b"\n#pragma clang force_cuda_host_device end\n");
    }
    text
}

struct DiagSink {
    diags: Vec<Diagnostic>,
}

unsafe fn cstr(p: *const c_char) -> String {
    if p.is_null() {
        String::new()
    } else {
        // SAFETY: the shim passes NUL-terminated strings valid for the call.
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }
}

unsafe extern "C" fn on_diag(
    user: *mut c_void,
    level: c_int,
    kind: c_int,
    file: *const c_char,
    line: c_uint,
    col: c_uint,
    msg: *const c_char,
    line_text: *const c_char,
    line_len: usize,
    arg: *const c_char,
) {
    // Never unwind into C++.
    let _ = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // SAFETY: `user` is the DiagSink of the running compile; the strings are valid
        // for the duration of the call.
        let sink = unsafe { &mut *(user as *mut DiagSink) };
        let source_line = if line_text.is_null() {
            String::new()
        } else {
            let bytes = unsafe { std::slice::from_raw_parts(line_text as *const u8, line_len) };
            String::from_utf8_lossy(bytes).into_owned()
        };
        let level = match level {
            ffi::CF_NOTE => Level::Note,
            ffi::CF_REMARK => Level::Remark,
            ffi::CF_WARNING => Level::Warning,
            ffi::CF_ERROR => Level::Error,
            _ => Level::Fatal,
        };
        let kind = match kind {
            ffi::CF_KIND_FILE_NOT_FOUND => Kind::FileNotFound,
            ffi::CF_KIND_LANEMASK => Kind::LaneMask,
            ffi::CF_KIND_LANEMASK_PTX => Kind::LaneMaskPtx,
            _ => Kind::Other,
        };
        sink.diags.push(Diagnostic {
            level,
            kind,
            file: unsafe { cstr(file) },
            line,
            col,
            message: unsafe { cstr(msg) },
            source_line,
            arg: unsafe { cstr(arg) },
        });
    }));
}

/// Tests of crash recovery put one of these words in a program to make the front-end
/// crash on purpose.
fn test_crash_marker(src: &[u8]) -> i32 {
    let has = |w: &[u8]| src.windows(w.len()).any(|x| x == w);
    if has(b"__nvrtc_test_crash_segv__") {
        1
    } else if has(b"__nvrtc_test_crash_fatal__") {
        2
    } else if has(b"__nvrtc_test_crash_abort__") {
        3
    } else {
        0
    }
}

/// One call into the C++ shim.
pub(crate) struct ShimCall<'a> {
    pub args: &'a [String],
    pub main_path: &'a str,
    pub cwd: &'a str,
    /// In-memory files besides our headers: (absolute path, bytes ending in a NUL).
    pub files: &'a [(String, &'a [u8])],
    pub context: Option<&'a Context>,
    pub lanemask_check: bool,
    pub default_device: bool,
    pub syntax_only: bool,
    pub build_pch: bool,
    /// Crash-recovery tests: 1 SIGSEGV, 2 LLVM fatal error, 3 abort().
    pub test_crash: i32,
    /// The target's warp size (inline PTX lane-mask checks apply to 64).
    pub warp_size: u32,
    /// The precompiled prelude: (path, bytes ending in a NUL), alive for the process
    /// (pch::get keeps every PCH it made), so the shim keeps it in its shared file system.
    pub pch: Option<(&'a str, &'a [u8])>,
}

pub(crate) struct ShimResult {
    pub rc: c_int,
    pub module: LLVMModuleRef,
    pub crash: Option<String>,
    pub diags: Vec<Diagnostic>,
    pub pch: Option<Vec<u8>>,
}

/// Our headers as the shim's virtual files, made once: the list's address identifies it
/// to the shim, which keeps one file system of them for every compile.
fn builtin_vfiles() -> &'static [ffi::CfVfile] {
    struct Files(Vec<ffi::CfVfile>);
    // SAFETY: the pointers are to leaked, immutable strings and static header text.
    unsafe impl Send for Files {}
    unsafe impl Sync for Files {}
    static FILES: std::sync::OnceLock<Files> = std::sync::OnceLock::new();
    &FILES
        .get_or_init(|| {
            Files(
                headers::BUILTIN_HEADERS
                    .iter()
                    .map(|(rel, text)| {
                        let path = CString::new(format!("{BUILTIN_DIR}/{rel}")).expect("no NUL");
                        // Every buffer ends in a NUL that its length does not count.
                        debug_assert_eq!(text.as_bytes().last(), Some(&0));
                        ffi::CfVfile { path: Box::leak(path.into_boxed_c_str()).as_ptr(), data: text.as_ptr() as *const c_char, len: text.len() - 1 }
                    })
                    .collect(),
            )
        })
        .0
}

pub(crate) fn run_shim(call: &ShimCall) -> ShimResult {
    let mut paths: Vec<CString> = Vec::new();
    let mut datas: Vec<(*const c_char, usize)> = Vec::new();
    // Every buffer ends in a NUL that its length does not count (clang's lexer needs it).
    let mut add = |path: &str, data: &[u8]| {
        debug_assert_eq!(data.last(), Some(&0));
        paths.push(CString::new(path.replace('\0', "")).expect("no NUL"));
        datas.push((data.as_ptr() as *const c_char, data.len() - 1));
    };
    for (path, data) in call.files {
        add(path, data);
    }
    let pch_path = call.pch.map(|(path, _)| CString::new(path.replace('\0', "")).expect("no NUL"));
    let pch_vfile = call.pch.zip(pch_path.as_ref()).map(|((_, data), path)| {
        debug_assert_eq!(data.last(), Some(&0));
        ffi::CfVfile { path: path.as_ptr(), data: data.as_ptr() as *const c_char, len: data.len() - 1 }
    });
    let vfiles: Vec<ffi::CfVfile> = paths.iter().zip(&datas).map(|(p, (d, l))| ffi::CfVfile { path: p.as_ptr(), data: *d, len: *l }).collect();
    let c_args: Vec<CString> = call.args.iter().map(|s| CString::new(s.replace('\0', "")).expect("no NUL")).collect();
    let argv: Vec<*const c_char> = c_args.iter().map(|s| s.as_ptr()).collect();
    let c_main = CString::new(call.main_path.replace('\0', "")).expect("no NUL");
    let c_cwd = CString::new(call.cwd.replace('\0', "")).expect("no NUL");
    let mut sink = DiagSink { diags: Vec::new() };
    let request = ffi::CfRequest {
        argv: argv.as_ptr(),
        argc: argv.len() as c_int,
        main_path: c_main.as_ptr(),
        cwd: c_cwd.as_ptr(),
        files: vfiles.as_ptr(),
        nfiles: vfiles.len() as c_int,
        diag: on_diag,
        user: &mut sink as *mut DiagSink as *mut c_void,
        ctx: call.context.map(|c| c.raw()).unwrap_or(std::ptr::null_mut()),
        lanemask_check: call.lanemask_check as c_int,
        default_device: call.default_device as c_int,
        syntax_only: call.syntax_only as c_int,
        stack_size: 16 << 20,
        build_pch: call.build_pch as c_int,
        test_crash: call.test_crash,
        warp_size: call.warp_size as c_int,
        builtin_files: builtin_vfiles().as_ptr(),
        nbuiltin: builtin_vfiles().len() as c_int,
        pch_file: pch_vfile.as_ref().map_or(std::ptr::null(), |f| f as *const ffi::CfVfile),
    };
    let mut module: LLVMModuleRef = std::ptr::null_mut();
    let mut crash: *mut c_char = std::ptr::null_mut();
    let mut pch_data: *mut c_char = std::ptr::null_mut();
    let mut pch_len = 0usize;
    // SAFETY: every pointer in `request` outlives the call; the shim keeps nothing beyond
    // it except in the module, which lives in the caller's context.
    let rc = unsafe { ffi::cf_compile(&request, &mut module, &mut crash, &mut pch_data, &mut pch_len) };
    let crash = if crash.is_null() {
        None
    } else {
        // SAFETY: malloc'ed NUL-terminated string from the shim.
        let s = unsafe { cstr(crash) };
        unsafe { ffi::cf_free(crash) };
        Some(s)
    };
    let pch = if pch_data.is_null() {
        None
    } else {
        // SAFETY: malloc'ed buffer of pch_len bytes from the shim.
        let v = unsafe { std::slice::from_raw_parts(pch_data as *const u8, pch_len) }.to_vec();
        unsafe { ffi::cf_free(pch_data) };
        Some(v)
    };
    ShimResult { rc, module, crash, diags: sink.diags, pch }
}

/// A 64-lane module's PTX is checked as loading it would check it (lane-mask widths, see
/// compiler-core `lower::lanemask`), so that the program log, not only the driver's JIT
/// log, reports what the driver would refuse: e.g. inline PTX writing `activemask` or
/// `%lanemask_*` to a 32-bit variable. The constant-mask warning is left to the
/// front-end's #20201, which points at the source line and obeys `--diag-*`. Returns the
/// log text of the errors, if any.
fn wave64_ptx_errors(ptx: &str, warp_size: u32, main_name: &str) -> Option<String> {
    if warp_size != 64 {
        return None;
    }
    let errors = compiler_core::lower::lane_mask_diagnostics(ptx, false);
    if errors.is_empty() {
        return None;
    }
    let diags: Vec<diag::Diagnostic> = errors
        .iter()
        .map(|e| diag::Diagnostic {
            level: Level::Error,
            kind: diag::Kind::Other,
            file: String::new(),
            line: 0,
            col: 0,
            message: format!(
                "in the generated PTX, line {}, column {}: {}{}",
                e.span.line,
                e.span.col,
                e.message,
                e.snippet.as_deref().map(|s| format!(" (near: {s})")).unwrap_or_default()
            ),
            source_line: String::new(),
            arg: String::new(),
        })
        .collect();
    Some(diag::render(&diags, main_name))
}

/// Compiles one program. Thread-safe: independent requests may run concurrently.
pub fn compile(req: &Request) -> CompileResult {
    match req.options.output {
        Output::OptixIr => {
            return CompileResult::fail(
                Outcome::InvalidOption,
                "nvrtc: error: OptiX-IR output (-optix-ir) is not supported by this implementation: it produces \
                 PTX only\n"
                    .into(),
            )
        }
        Output::Ptx | Output::LtoIr => {}
    }
    let t_start = Instant::now();
    let target = effective_target(req);
    let config = config_args(req.options, &target);
    let mut prefix_log = String::new();
    for w in &req.options.warnings {
        prefix_log.push_str(w);
        prefix_log.push('\n');
    }

    // The prelude comes precompiled (one PCH per configuration and process), or as text.
    let pch = pch::get(&config);
    let mut args = config;
    match &pch {
        Some(p) => {
            args.push("-include-pch".into());
            args.push(p.path.clone());
            // The PCH was built by this process from the same configuration: no checks.
            args.push("-fno-validate-pch".into());
            // The PCH already defines clang's predefined macros and the configuration's
            // own -D/-U (it was built from this very configuration): `-undef` skips
            // building and lexing clang's again, and leaving out the configuration's
            // -D/-U skips redefining each against the PCH's copy (~6% and ~5% of a small
            // compile). The standard macros (`__cplusplus`, ...) and the client's -D/-U
            // are still processed; the PTX is unchanged.
            args.retain(|a| !(a.starts_with("-D") || a.starts_with("-U")));
            args.push("-undef".into());
        }
        None => {
            args.push("-include".into());
            args.push(format!("{BUILTIN_DIR}/{}", headers::PRELUDE));
        }
    }
    args.extend(user_args(req.options));
    if std::env::var_os("NVRTC_TIME_REPORT").is_some() {
        args.push("-ftime-report".into());
    }
    args.push("-x".into());
    args.push("cuda".into());
    args.push(req.name.to_string());

    let cwd = std::env::current_dir().map(|p| p.to_string_lossy().into_owned()).unwrap_or_else(|_| "/".into());
    let main_abs = if req.name.starts_with('/') { req.name.to_string() } else { format!("{}/{}", cwd.trim_end_matches('/'), req.name) };
    let mut main = main_text(req);
    main.push(0);
    let header_texts: Vec<Vec<u8>> = req
        .headers
        .iter()
        .map(|h| {
            let end = h.text.iter().position(|&b| b == 0).unwrap_or(h.text.len());
            let mut t = rewrite::rewrite(&h.text[..end]).unwrap_or_else(|| h.text[..end].to_vec());
            t.push(0);
            t
        })
        .collect();
    let mut files: Vec<(String, &[u8])> = Vec::new();
    for (h, text) in req.headers.iter().zip(&header_texts) {
        let name = h.name.trim_start_matches("./");
        let path = if name.starts_with('/') { name.to_string() } else { format!("{HEADER_DIR}/{name}") };
        files.push((path, text));
    }
    files.push((main_abs, &main));

    let context = Context::create();
    let shim = run_shim(&ShimCall {
        args: &args,
        main_path: req.name,
        cwd: &cwd,
        files: &files,
        context: Some(&context),
        lanemask_check: req.options.lanemask_warnings,
        default_device: req.options.default_device,
        syntax_only: req.options.syntax_only,
        build_pch: false,
        test_crash: test_crash_marker(req.source),
        warp_size: target.warp_size,
        pch: pch.as_ref().map(|p| (p.path.as_str(), p.data.as_slice())),
    });
    let (rc, raw_module, crash) = (shim.rc, shim.module, shim.crash);
    let frontend_ms = t_start.elapsed().as_secs_f64() * 1e3;
    let o = req.options;
    let diags = diag::filter(shim.diags, o.disable_warnings, &o.diag_suppress, &o.diag_error, &o.diag_warn);
    let has_error = diags.iter().any(|d| d.level >= Level::Error);
    let mut log = prefix_log;
    log.push_str(&diag::render(&diags, req.name));

    if rc == ffi::CF_CRASH {
        let why = crash.unwrap_or_else(|| "the front-end crashed".to_string());
        log.push_str(&format!(
            "internal compiler error: {why} while compiling \"{}\"; the compilation was abandoned (the process \
             is unaffected)\n",
            req.name
        ));
        // The abandoned compile may still reference the context: leak it.
        std::mem::forget(context);
        return CompileResult::fail(Outcome::InternalError, log);
    }
    if rc == ffi::CF_BAD_ARGS {
        log.push_str("internal compiler error: the front-end rejected its arguments\n");
        return CompileResult::fail(Outcome::InternalError, log);
    }
    if rc != ffi::CF_OK || has_error {
        // SAFETY: a module handed back with errors is ours to dispose of.
        if !raw_module.is_null() {
            drop(unsafe { Module::new(raw_module) });
        }
        return CompileResult::fail(Outcome::CompileError, log);
    }
    if o.syntax_only {
        return CompileResult {
            outcome: Outcome::Success,
            log,
            ptx: Some(String::new()),
            lowered_names: Vec::new(),
            timings: Timings { frontend_ms, ..Default::default() },
        };
    }
    // SAFETY: CF_OK hands us a module of `context`, which outlives it (dropped first).
    let module = unsafe { Module::new(raw_module) };
    let result = ir::finish(&module, req, &target, &mut log);
    let mut timings = Timings { frontend_ms, ..Default::default() };
    match result {
        Ok((ptx, lowered, t)) => {
            timings.passes_ms = t.0;
            timings.codegen_ms = t.1;
            drop(module);
            if let Some(errors) = wave64_ptx_errors(&ptx, target.warp_size, req.name) {
                log.push_str(&errors);
                return CompileResult { outcome: Outcome::CompileError, log, ptx: None, lowered_names: Vec::new(), timings };
            }
            CompileResult { outcome: Outcome::Success, log, ptx: Some(ptx), lowered_names: lowered, timings }
        }
        Err(outcome) => {
            drop(module);
            CompileResult { outcome, log, ptx: None, lowered_names: Vec::new(), timings }
        }
    }
}
