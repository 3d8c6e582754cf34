//! AMDGPU code generation: lowered IR -> optimized -> relocatable object (LLVM's AMDGPU
//! backend through inkwell) -> code object (a shared ELF linked by LLD).
//!
//! Linking: ROCr loads only linked code objects (`ET_DYN`). LLD's ELF linker is a C++
//! library with no C API in LLVM 19 and Debian ships it only as static archives, so we
//! run LLD's `ld.lld` program (package `lld-19`) on a temporary file: `-shared` with no
//! other input, which is all an AMDGPU code object needs. The linker is found through
//! `PTX_LD_LLD`, then `/usr/lib/llvm-19/bin/ld.lld`, `ld.lld-19` and `ld.lld` on `PATH`.
//! Linking in-process (a small C++ shim over `lld::elf::link`) can replace this without
//! changing the interface.

use super::cache as code_cache;
use super::{barrier, AmdgpuOptions, AmdgpuTarget, TargetError, LDS_BYTES};
use crate::cache::Cache;
use crate::diag::Diagnostic;
use crate::lower::{GlobalMeta, KernelMeta, LoweredModule};
use crate::target::{ModuleInfo, Target as _};
use inkwell::context::Context;
use inkwell::memory_buffer::MemoryBuffer;
use inkwell::passes::PassBuilderOptions;
use inkwell::targets::{CodeModel, FileType, InitializationConfig, RelocMode, Target, TargetMachine, TargetTriple};
use inkwell::values::BasicValue as _;
use inkwell::OptimizationLevel;
use std::path::PathBuf;
use std::sync::Once;

pub const TRIPLE: &str = "amdgcn-amd-amdhsa";

/// Why AMDGPU code generation failed.
#[derive(Debug, thiserror::Error)]
pub enum AmdgpuError {
    /// The PTX is malformed or uses something unsupported (on this target).
    #[error("invalid PTX:\n{}", crate::diag::render(.0))]
    Ptx(Vec<Diagnostic>),
    #[error("{0}")]
    Target(#[from] TargetError),
    /// The code generator failed on valid input: a compiler bug.
    #[error("internal compiler error: {0}")]
    Llvm(String),
    /// The linker is missing or failed.
    #[error("cannot link the code object: {0}")]
    Link(String),
}

/// A code object ready for ROCr, with what the driver needs to know about it.
#[derive(Clone, Debug)]
pub struct CodeObject {
    /// The linked ELF (`ET_DYN`, `EM_AMDGPU`, code object v5).
    pub elf: Vec<u8>,
    pub processor: &'static str,
    pub wavefront_size: u32,
    pub kernels: Vec<KernelMeta>,
    pub globals: Vec<GlobalMeta>,
    /// Bytes of LDS each kernel reserves before the dynamic shared memory.
    pub static_lds_bytes: u64,
    /// Some kernel may write printf or assert records (see `printf`).
    pub uses_printf: bool,
    pub warnings: Vec<Diagnostic>,
    /// The code object came from the on-disk cache (see [`super::cache`]).
    pub from_cache: bool,
}

fn init_llvm() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| Target::initialize_amd_gpu(&InitializationConfig::default()));
}

fn level(opt: u32) -> OptimizationLevel {
    match opt {
        0 => OptimizationLevel::None,
        1 => OptimizationLevel::Less,
        2 => OptimizationLevel::Default,
        _ => OptimizationLevel::Aggressive,
    }
}

fn machine(processor: &str, wave: u32, opt: u32) -> Result<TargetMachine, TargetError> {
    init_llvm();
    let triple = TargetTriple::create(TRIPLE);
    let target = Target::from_triple(&triple).map_err(|e| TargetError::Unsupported(format!("LLVM has no AMDGPU backend: {e}")))?;
    let features = if wave == 64 { "+wavefrontsize64" } else { "+wavefrontsize32" };
    target
        .create_target_machine(&triple, processor, features, level(opt), RelocMode::PIC, CodeModel::Default)
        .ok_or_else(|| TargetError::Unsupported(format!("LLVM cannot generate code for {processor}")))
}

/// The LLVM data layout of AMDGPU code (allocas in address space 5 and so on).
pub(super) fn data_layout(processor: &str, wave: u32) -> Result<String, TargetError> {
    let tm = machine(processor, wave, 2)?;
    let dl = tm.get_target_data().get_data_layout();
    Ok(dl.as_str().to_string_lossy().into_owned())
}

/// Parse, lower and compile PTX into a code object for `options.processor`.
/// A module declaring `.warp_size 64` needs 64-lane warps whatever `options` say.
pub fn compile_ptx(ptx: &str, options: &AmdgpuOptions) -> Result<CodeObject, AmdgpuError> {
    compile_ptx_with_cache(ptx, options, None)
}

/// As [`compile_ptx`], looking the code object up in `cache` first and storing it there
/// after a compile.
pub fn compile_ptx_with_cache(ptx: &str, options: &AmdgpuOptions, cache: Option<&Cache>) -> Result<CodeObject, AmdgpuError> {
    let mut ast = crate::ptx::parse(ptx).map_err(AmdgpuError::Ptx)?;
    let (target, options) = target_for(&mut ast, options)?;
    let lowered = crate::lower::lower_module_for(&ast, &target).map_err(AmdgpuError::Ptx)?;
    compile_lowered_with_cache(lowered, &target, &options, cache)
}

/// The target to lower the parsed module `ast` with, and the options it was made from: the
/// warp width is the wider of the options' and the module's (`ast.warp_size` is set to it,
/// as `.warp_size 64` would), and modules with `bar.red` get their LDS
/// scratch.
pub fn target_for(ast: &mut crate::ptx::ast::Module, options: &AmdgpuOptions) -> Result<(AmdgpuTarget, AmdgpuOptions), TargetError> {
    let mut options = options.clone();
    options.warp_lanes = options.warp_lanes.max(ast.warp_size);
    ast.warp_size = options.warp_lanes;
    let target = AmdgpuTarget::new(&options)?.with_barrier_scratch(barrier::uses_barrier_ops(ast));
    Ok((target, options))
}

/// Compile a module lowered for `target` into a code object.
pub fn compile_lowered(lowered: LoweredModule, target: &AmdgpuTarget, options: &AmdgpuOptions) -> Result<CodeObject, AmdgpuError> {
    compile_lowered_with_cache(lowered, target, options, None)
}

/// As [`compile_lowered`], through `cache`.
pub fn compile_lowered_with_cache(
    lowered: LoweredModule,
    target: &AmdgpuTarget,
    options: &AmdgpuOptions,
    cache: Option<&Cache>,
) -> Result<CodeObject, AmdgpuError> {
    let info = ModuleInfo {
        static_shared_bytes: lowered.static_shared_bytes,
        dynamic_shared_offset: lowered.dynamic_shared_offset,
        warp_size: lowered.warp_size,
    };
    let lds = target.lds_bytes(&info);
    if lds > LDS_BYTES {
        return Err(AmdgpuError::Ptx(vec![Diagnostic::error(
            crate::ptx::ast::Span::default(),
            format!("the module declares {lds} bytes of .shared memory; {} has {LDS_BYTES} per workgroup", target.name()),
        )]));
    }
    if std::env::var_os("PTX_DUMP_IR").is_some() {
        eprintln!("{}", lowered.ir);
    }
    if lowered.ir.contains("@__ptx_texture(") {
        return Err(AmdgpuError::Ptx(vec![Diagnostic::error(
            crate::ptx::ast::Span::default(),
            "texture and surface instructions (tex, tld4, txq, suld, sust, suq) are not supported on AMD GPUs yet",
        )]));
    }
    if lowered.ir.contains("@__ptx_devrt(") {
        return Err(AmdgpuError::Ptx(vec![Diagnostic::error(
            crate::ptx::ast::Span::default(),
            "the CUDA device runtime (dynamic parallelism: device-side kernel launches, cudaGetLastError, device streams and cudaMalloc) is not supported on AMD GPUs",
        )]));
    }
    if lowered.ir.contains("@__ptx_warp_matrix(") {
        return Err(AmdgpuError::Ptx(vec![Diagnostic::error(
            crate::ptx::ast::Span::default(),
            "warp matrix instructions (wmma.mma, mma, ldmatrix, stmatrix, movmatrix) are not supported on AMD GPUs yet",
        )]));
    }
    let uses_printf = lowered.ir.contains("@__ptx_vprintf(") || lowered.ir.contains("@__ptx_assertfail(");
    let key = cache.map(|_| code_cache::key(&lowered.ir, target, options.opt_level));
    let cached = cache.zip(key.as_ref()).and_then(|(c, k)| code_cache::load(c, k));
    let from_cache = cached.is_some();
    let elf = match cached {
        Some(elf) => elf,
        None => {
            let object = emit_object(&lowered.ir, target, options.opt_level)?;
            let elf = link(&object)?;
            if let (Some(c), Some(k)) = (cache, &key) {
                code_cache::store(c, k, &elf);
            }
            elf
        }
    };
    Ok(CodeObject {
        elf,
        processor: target.processor(),
        wavefront_size: target.wavefront_size(),
        kernels: lowered.kernels,
        globals: lowered.globals,
        static_lds_bytes: lds,
        uses_printf,
        warnings: lowered.warnings,
        from_cache,
    })
}

/// IR text -> optimized -> relocatable AMDGPU object.
pub fn emit_object(ir: &str, target: &AmdgpuTarget, opt: u32) -> Result<Vec<u8>, AmdgpuError> {
    emit(ir, target, opt, FileType::Object)
}

/// IR text -> optimized -> AMDGPU assembly text.
pub fn emit_assembly(ir: &str, target: &AmdgpuTarget, opt: u32) -> Result<String, AmdgpuError> {
    emit(ir, target, opt, FileType::Assembly).map(|b| String::from_utf8_lossy(&b).into_owned())
}

fn emit(ir: &str, target: &AmdgpuTarget, opt: u32, file_type: FileType) -> Result<Vec<u8>, AmdgpuError> {
    let tm = machine(target.processor(), target.wavefront_size(), opt)?;
    let context = Context::create();
    let buf = MemoryBuffer::create_from_memory_range_copy(ir.as_bytes(), "ptx");
    let module = context.create_module_from_ir(buf).map_err(|e| AmdgpuError::Llvm(format!("IR parse: {e}")))?;
    module.verify().map_err(|e| AmdgpuError::Llvm(format!("IR verify: {e}")))?;
    module
        .run_passes(&format!("default<O{}>", opt.min(3)), &tm, PassBuilderOptions::create())
        .map_err(|e| AmdgpuError::Llvm(format!("optimize: {e}")))?;
    if std::env::var_os("PTX_DUMP_OPT_IR").is_some() {
        eprintln!("{}", module.print_to_string().to_string());
    }
    let undefined = undefined_calls(&module);
    if !undefined.is_empty() {
        return Err(AmdgpuError::Ptx(vec![Diagnostic::error(
            crate::ptx::ast::Span::default(),
            format!("not supported on AMD GPUs yet: the module needs library functions {}", undefined.join(", ")),
        )]));
    }
    let obj = tm.write_to_memory_buffer(&module, file_type).map_err(|e| AmdgpuError::Llvm(format!("code generation: {e}")))?;
    Ok(obj.as_slice().to_vec())
}

/// Functions the optimized module declares but does not define (other than LLVM
/// intrinsics): a code object cannot import them.
fn undefined_calls(module: &inkwell::module::Module) -> Vec<String> {
    let mut out = Vec::new();
    let mut f = module.get_first_function();
    while let Some(func) = f {
        let name = func.get_name().to_string_lossy().into_owned();
        if func.count_basic_blocks() == 0 && !name.starts_with("llvm.") && func.as_global_value().as_pointer_value().get_first_use().is_some() {
            out.push(name);
        }
        f = func.get_next_function();
    }
    out
}

/// The `ld.lld` to run.
pub fn find_linker() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("PTX_LD_LLD") {
        return Some(PathBuf::from(p));
    }
    let fixed = PathBuf::from("/usr/lib/llvm-19/bin/ld.lld");
    if fixed.is_file() {
        return Some(fixed);
    }
    let path = std::env::var_os("PATH")?;
    for name in ["ld.lld-19", "ld.lld"] {
        for dir in std::env::split_paths(&path) {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

/// Link one relocatable AMDGPU object into a code object.
pub fn link(object: &[u8]) -> Result<Vec<u8>, AmdgpuError> {
    use std::sync::atomic::{AtomicU64, Ordering};
    static SEQ: AtomicU64 = AtomicU64::new(0);
    let lld = find_linker()
        .ok_or_else(|| AmdgpuError::Link("LLD's ELF linker (ld.lld) was not found: install the lld-19 package or set PTX_LD_LLD".into()))?;
    let dir = std::env::temp_dir().join(format!("ptx-amdgpu-{}-{}", std::process::id(), SEQ.fetch_add(1, Ordering::Relaxed)));
    std::fs::create_dir_all(&dir).map_err(|e| AmdgpuError::Link(format!("{}: {e}", dir.display())))?;
    let (input, output) = (dir.join("kernels.o"), dir.join("kernels.co"));
    let result = (|| {
        std::fs::write(&input, object).map_err(|e| AmdgpuError::Link(format!("{}: {e}", input.display())))?;
        let out = std::process::Command::new(&lld)
            .arg("-shared")
            .arg("--no-undefined")
            .arg("-o")
            .arg(&output)
            .arg(&input)
            .output()
            .map_err(|e| AmdgpuError::Link(format!("{}: {e}", lld.display())))?;
        if !out.status.success() {
            return Err(AmdgpuError::Link(format!("{} failed: {}", lld.display(), String::from_utf8_lossy(&out.stderr).trim())));
        }
        std::fs::read(&output).map_err(|e| AmdgpuError::Link(format!("{}: {e}", output.display())))
    })();
    let _ = std::fs::remove_dir_all(&dir);
    result
}
