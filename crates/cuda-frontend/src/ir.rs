//! After clang: our IR passes over the optimized module and PTX generation.
//!
//! * name expressions: each `__nvrtc_name_expr_<i>` variable (see `main_text`) names the
//!   entity its initializer refers to; its symbol is the lowered name; the variable goes.
//! * linkage: kernels are always visible entries (template instantiations come out of
//!   clang as `weak_odr`/`linkonce_odr`); without -rdc everything else is internal.
//! * precision options: `--prec-div=false` / `--prec-sqrt=false` use the approximate
//!   PTX instructions, as NVIDIA's compiler does.
//! * code generation: LLVM's NVPTX back-end via an inkwell TargetMachine, under crash
//!   recovery.

use crate::diag::{self, Diagnostic, Kind, Level};
use crate::{ffi, Outcome, Request, Target, NAME_EXPR_PREFIX};
use inkwell::llvm_sys::core::*;
use inkwell::llvm_sys::prelude::*;
use inkwell::llvm_sys::LLVMLinkage;
use inkwell::module::Module;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target as LlvmTarget, TargetMachine, TargetTriple};
use inkwell::OptimizationLevel;
use std::ffi::{CStr, CString};
use std::os::raw::{c_char, c_void};
use std::sync::Once;
use std::time::Instant;

fn init_nvptx() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        LlvmTarget::initialize_nvptx(&InitializationConfig::default());
        // SAFETY: plain initialization of the shim (LLVM targets, fatal error handler).
        unsafe { ffi::cf_init() };
    });
}

unsafe fn value_name(v: LLVMValueRef) -> String {
    let mut len = 0usize;
    // SAFETY: v is a valid value; the returned pointer is valid while v lives.
    let p = unsafe { LLVMGetValueName2(v, &mut len) };
    if p.is_null() {
        return String::new();
    }
    let bytes = unsafe { std::slice::from_raw_parts(p as *const u8, len) };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Strips constant casts (addrspacecast, bitcast, ptrtoint, GEP 0) down to a global.
unsafe fn referenced_global(mut v: LLVMValueRef) -> Option<LLVMValueRef> {
    for _ in 0..16 {
        if v.is_null() {
            return None;
        }
        // SAFETY: v is a valid constant.
        unsafe {
            if !LLVMIsAGlobalValue(v).is_null() {
                return Some(v);
            }
            if !LLVMIsAConstantExpr(v).is_null() && LLVMGetNumOperands(v) >= 1 {
                v = LLVMGetOperand(v, 0);
                continue;
            }
        }
        return None;
    }
    None
}

/// Whether a function is a kernel: PTX kernel calling convention or the
/// `nvvm.annotations` kernel flag (clang 19 uses the latter).
fn kernel_names(module: &Module) -> std::collections::HashSet<String> {
    let mut set = std::collections::HashSet::new();
    let md_name = CString::new("nvvm.annotations").unwrap();
    // SAFETY: module is valid; operands are read with the C API's own bounds.
    unsafe {
        let m = module.as_mut_ptr();
        let n = LLVMGetNamedMetadataNumOperands(m, md_name.as_ptr());
        if n > 0 {
            let mut ops: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); n as usize];
            LLVMGetNamedMetadataOperands(m, md_name.as_ptr(), ops.as_mut_ptr());
            for node in ops {
                let k = LLVMGetMDNodeNumOperands(node);
                if k < 3 {
                    continue;
                }
                let mut vals: Vec<LLVMValueRef> = vec![std::ptr::null_mut(); k as usize];
                LLVMGetMDNodeOperands(node, vals.as_mut_ptr());
                let mut len = 0u32;
                let s = LLVMGetMDString(vals[1], &mut len);
                if s.is_null() {
                    continue;
                }
                let key = std::slice::from_raw_parts(s as *const u8, len as usize);
                if key == b"kernel" && !vals[0].is_null() {
                    set.insert(value_name(vals[0]));
                }
            }
        }
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            if LLVMGetFunctionCallConv(f) == 71 {
                // PTX_Kernel
                set.insert(value_name(f));
            }
            f = LLVMGetNextFunction(f);
        }
    }
    set
}

/// Reads back the name expressions; reports invalid ones as errors in the log.
fn take_name_expressions(module: &Module, req: &Request, errors: &mut Vec<Diagnostic>) -> Vec<(String, String)> {
    let mut lowered = Vec::new();
    for (i, expr) in req.name_expressions.iter().enumerate() {
        let name = CString::new(format!("{NAME_EXPR_PREFIX}{i}")).unwrap();
        // SAFETY: module valid; the global is deleted after its last use.
        unsafe {
            let g = LLVMGetNamedGlobal(module.as_mut_ptr(), name.as_ptr());
            let target = if g.is_null() { None } else { referenced_global(LLVMGetInitializer(g)) };
            match target {
                Some(t) => lowered.push((expr.clone(), value_name(t))),
                None => errors.push(Diagnostic {
                    level: Level::Error,
                    kind: Kind::Other,
                    file: "__nv_name_map".into(),
                    line: i as u32 + 1,
                    col: 0,
                    message: format!(
                        "Name expression must form address of a __global__ function or the address of a \
                         __device__/__constant__ variable. Input name expression was: \"{expr}\""
                    ),
                    source_line: String::new(),
                    arg: String::new(),
                }),
            }
            if !g.is_null() {
                LLVMDeleteGlobal(g);
            }
        }
    }
    lowered
}

/// The source name of a static variable of the global namespace, from its mangled name
/// `_ZL<length><name>` (Itanium C++ ABI 5.1.5.1, "L" for internal linkage), with the
/// `.static.<hash>` clang appends to externalized statics in -rdc mode.
fn static_source_name(mangled: &str) -> Option<&str> {
    let rest = mangled.strip_prefix("_ZL")?;
    let digits = rest.bytes().take_while(u8::is_ascii_digit).count();
    let len: usize = rest[..digits].parse().ok()?;
    let name = rest.get(digits..digits + len)?;
    let tail = &rest[digits + len..];
    (tail.is_empty() || tail.starts_with(".static.")).then_some(name)
}

/// `static __constant__`/`__device__` variables (externalized by the front end, see
/// `keep_static_device_var` in the shim) get their source names back, as NVIDIA's NVRTC
/// names them, unless another symbol has that name; in -rdc mode they keep clang's unique
/// names, which cannot collide between translation units.
fn restore_static_names(module: &Module, rdc: bool) {
    if rdc {
        return;
    }
    // SAFETY: iterating and renaming globals of a valid module.
    unsafe {
        let m = module.as_mut_ptr();
        let mut g = LLVMGetFirstGlobal(m);
        while !g.is_null() {
            let next = LLVMGetNextGlobal(g);
            let name = value_name(g);
            if LLVMIsDeclaration(g) == 0 && LLVMGetLinkage(g) == LLVMLinkage::LLVMExternalLinkage {
                if let Some(plain) = static_source_name(&name) {
                    let c = CString::new(plain).unwrap();
                    if LLVMGetNamedGlobal(m, c.as_ptr()).is_null() && LLVMGetNamedFunction(m, c.as_ptr()).is_null() {
                        LLVMSetValueName2(g, c.as_ptr(), plain.len());
                    }
                }
            }
            g = next;
        }
    }
}

/// Kernels become visible entries; without -rdc, other definitions become internal.
fn fix_linkage(module: &Module, rdc: bool) {
    let kernels = kernel_names(module);
    // SAFETY: iterating and relinking functions of a valid module.
    unsafe {
        let m = module.as_mut_ptr();
        let mut f = LLVMGetFirstFunction(m);
        while !f.is_null() {
            let next = LLVMGetNextFunction(f);
            if LLVMIsDeclaration(f) == 0 {
                let name = value_name(f);
                if kernels.contains(&name) {
                    LLVMSetLinkage(f, LLVMLinkage::LLVMExternalLinkage);
                    LLVMSetVisibility(f, inkwell::llvm_sys::LLVMVisibility::LLVMDefaultVisibility);
                } else if !rdc {
                    let linkage = LLVMGetLinkage(f);
                    if linkage != LLVMLinkage::LLVMInternalLinkage && linkage != LLVMLinkage::LLVMPrivateLinkage {
                        LLVMSetLinkage(f, LLVMLinkage::LLVMInternalLinkage);
                    }
                }
            }
            f = next;
        }
        // Device functions nothing calls any more are dropped.
        if !rdc {
            let mut f = LLVMGetFirstFunction(m);
            while !f.is_null() {
                let next = LLVMGetNextFunction(f);
                if LLVMIsDeclaration(f) == 0 && LLVMGetLinkage(f) == LLVMLinkage::LLVMInternalLinkage && LLVMGetFirstUse(f).is_null() {
                    LLVMDeleteFunction(f);
                }
                f = next;
            }
        }
    }
}

struct CodegenJob<'a, 'ctx> {
    module: &'a Module<'ctx>,
    cpu: String,
    features: String,
    opt: OptimizationLevel,
    result: Result<String, String>,
}

unsafe extern "C" fn run_codegen(data: *mut c_void) {
    // SAFETY: data is the CodegenJob of `codegen`, alive for the call.
    let job = unsafe { &mut *(data as *mut CodegenJob) };
    let r = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
        // Target machines are kept per worker thread (codegen runs on the shim's
        // persistent workers) and per processor/features/level: creating one costs about
        // as much as generating a small kernel. An NVPTX target machine also keeps the
        // name of every kernel parameter it has emitted (its string pool is freed only
        // with it), so it is replaced after `MACHINE_USES` compiles: a process compiling
        // distinct kernels in a loop would otherwise grow without bound.
        const MACHINE_USES: u32 = 64;
        /// Per processor, features and level: a target machine and its compiles so far.
        type Machines = std::collections::HashMap<(String, String, u32), (TargetMachine, u32)>;
        thread_local! {
            static MACHINES: std::cell::RefCell<Machines> = std::cell::RefCell::new(Machines::new());
        }
        let key = (job.cpu.clone(), job.features.clone(), job.opt as u32);
        MACHINES.with(|m| {
            let mut m = m.borrow_mut();
            if m.get(&key).is_none_or(|(_, uses)| *uses >= MACHINE_USES) {
                let triple = TargetTriple::create("nvptx64-nvidia-cuda");
                let target = LlvmTarget::from_triple(&triple).map_err(|e| e.to_string())?;
                let tm = target
                    .create_target_machine(&triple, &job.cpu, &job.features, job.opt, RelocMode::Default, CodeModel::Default)
                    .ok_or_else(|| "cannot create the NVPTX target machine".to_string())?;
                m.insert(key.clone(), (tm, 0));
            }
            let (tm, uses) = m.get_mut(&key).expect("inserted above");
            *uses += 1;
            let buf = tm.write_to_memory_buffer(job.module, FileType::Assembly).map_err(|e| e.to_string())?;
            Ok::<String, String>(String::from_utf8_lossy(buf.as_slice()).into_owned())
        })
    }));
    job.result = match r {
        Ok(r) => r,
        Err(_) => Err("panic in code generation".to_string()),
    };
}

fn codegen(module: &Module, target: &Target, optimize: bool) -> Result<String, String> {
    let mut job = CodegenJob {
        module,
        cpu: target.arch.llvm_cpu(),
        features: target.arch.llvm_ptx_feature().to_string(),
        opt: if optimize { OptimizationLevel::Aggressive } else { OptimizationLevel::None },
        result: Err("not run".into()),
    };
    let mut crash: *mut c_char = std::ptr::null_mut();
    // SAFETY: job outlives the call; run_codegen only touches job.
    let ok = unsafe { ffi::cf_run_safely(run_codegen, &mut job as *mut CodegenJob as *mut c_void, 16 << 20, &mut crash) };
    if ok == 0 {
        let why = if crash.is_null() {
            "the back-end crashed".to_string()
        } else {
            // SAFETY: malloc'ed NUL-terminated string from the shim.
            let s = unsafe { CStr::from_ptr(crash) }.to_string_lossy().into_owned();
            unsafe { ffi::cf_free(crash) };
            s
        };
        // The module may be in any state: leak it rather than free it.
        return Err(format!("{why} (in PTX generation)"));
    }
    job.result
}

/// The PTX header comment (CuPy uses comment lines as part of its cache key).
fn ptx_banner() -> String {
    let (major, minor) = crate::VERSION;
    format!(
        "//\n// Generated by cuda-cpu NVRTC (clang 19, LLVM NVPTX back-end)\n// Cuda compilation tools, release {major}.{minor}, compatible\n//\n\n"
    )
}

/// What `finish` produces: the PTX, the lowered names, and the times of the passes and of
/// code generation (milliseconds).
pub(crate) type Finished = (String, Vec<(String, String)>, (f64, f64));

/// Our passes and code generation.
pub(crate) fn finish(module: &Module, req: &Request, target: &Target, log: &mut String) -> Result<Finished, Outcome> {
    init_nvptx();
    let t0 = Instant::now();
    let mut errors = Vec::new();
    restore_static_names(module, req.options.rdc);
    let lowered = take_name_expressions(module, req, &mut errors);
    if !errors.is_empty() {
        log.push_str(&diag::render(&errors, req.name));
        return Err(Outcome::CompileError);
    }
    fix_linkage(module, req.options.rdc);
    crate::asm::rewrite_module(module, target.warp_size);
    if std::env::var_os("NVRTC_DUMP_IR").is_some() {
        eprintln!("{}", module.print_to_string().to_string());
    }
    let passes_ms = t0.elapsed().as_secs_f64() * 1e3;
    let t1 = Instant::now();
    let ptx = match codegen(module, target, req.options.optimize()) {
        Ok(p) => p,
        Err(e) => {
            log.push_str(&format!("internal compiler error: {e}\n"));
            return Err(Outcome::InternalError);
        }
    };
    let codegen_ms = t1.elapsed().as_secs_f64() * 1e3;
    let body = ptx.trim_start_matches(['/', '\n', ' ']);
    let body = match ptx.find(".version") {
        Some(p) => &ptx[p..],
        None => body,
    };
    let body = declare_warp_size(body, target.warp_size);
    Ok((format!("{}{}", ptx_banner(), body), lowered, (passes_ms, codegen_ms)))
}

/// A 64-lane module says so with `.warp_size 64` after `.address_size` (ARCHITECTURE.md
/// "Warp size"): our PTX compiler then gives `WARP_SZ`, lane masks and `%laneid` 64 lanes,
/// and NVIDIA's ptxas rejects the module instead of running it with 32-lane warps.
fn declare_warp_size(ptx: &str, warp_size: u32) -> String {
    if warp_size == 32 {
        return ptx.to_string();
    }
    let directive = format!(".warp_size {warp_size}\n");
    // NVPTX always writes `.address_size 64` in the header; else after `.target`.
    let line_end = [".address_size", ".target"].iter().find_map(|d| {
        let at = ptx.find(d)?;
        Some(ptx[at..].find('\n').map(|e| at + e + 1))
    });
    match line_end {
        Some(Some(at)) => format!("{}{directive}{}", &ptx[..at], &ptx[at..]),
        Some(None) => format!("{ptx}\n{directive}"),
        None => format!("{directive}{ptx}"),
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn static_source_names() {
        assert_eq!(super::static_source_name("_ZL12d_OptionData"), Some("d_OptionData"));
        assert_eq!(super::static_source_name("_ZL1x.static.0a1b2c"), Some("x"));
        assert_eq!(super::static_source_name("_ZN2ns1xE"), None);
        assert_eq!(super::static_source_name("_ZL5ab"), None);
    }
}
