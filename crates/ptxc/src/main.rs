//! `ptxc`: a ptxas-like compiler. PTX in; an AMDGPU code object (or object, assembly, LLVM
//! IR) or a host object out, with the same diagnostics the driver reports at module load.
//!
//! ```text
//! ptxc kernel.ptx --target gfx90a            -> kernel.gfx90a.co (code object v5)
//! ptxc kernel.ptx --target gfx1100 --emit asm -> kernel.gfx1100.s
//! ptxc kernel.ptx --target host --emit obj    -> kernel.host.o
//! ptxc --list-targets
//! ```
//! Exit status: 0 compiled, 1 the PTX was refused (diagnostics on stderr), 2 bad usage or
//! I/O error.

use compiler_core::target::amdgpu::{self, codegen, AmdgpuOptions};
use std::path::{Path, PathBuf};
use std::process::ExitCode;

const USAGE: &str = "usage: ptxc FILE.ptx --target gfxNNNN|host [-o OUT] [-O0..3] [--emit co|obj|asm|ll] [--warp-lanes 32|64] [-v]
       ptxc --list-targets
  --target T     an AMD GPU (gfx900 ... gfx1201) or `host` (this machine's CPU)
  --emit K       co: linked code object (AMD default); obj: relocatable object (host default);
                 asm: assembly; ll: the LLVM IR our lowering produces, before optimization
  -o OUT         output file (default: FILE.<target>.<ext>; `-` for stdout)
  -O N           LLVM optimization level (default 2)
  --warp-lanes N lanes per warp the module assumes (default 32)
  -v             list the kernels and their resources";

struct Args {
    input: PathBuf,
    target: String,
    out: Option<String>,
    emit: Option<String>,
    opt: u32,
    lanes: u32,
    verbose: bool,
}

fn parse_args(mut it: impl Iterator<Item = String>) -> Result<Option<Args>, String> {
    let (mut input, mut target, mut out, mut emit, mut opt, mut lanes, mut verbose) = (None, None, None, None, 2, 32, false);
    while let Some(a) = it.next() {
        let mut value = |name: &str| it.next().ok_or(format!("{name} needs a value"));
        match a.as_str() {
            "-h" | "--help" => return Err(String::new()),
            "--list-targets" => {
                for (gfx, wave) in amdgpu::GPUS {
                    println!("{gfx}\twave{wave}");
                }
                println!("host\tthis machine's CPU");
                return Ok(None);
            }
            "--target" | "--gpu-name" | "-arch" => target = Some(value(&a)?),
            "-o" => out = Some(value(&a)?),
            "--emit" => emit = Some(value(&a)?),
            "--warp-lanes" => lanes = value(&a)?.parse().map_err(|_| "--warp-lanes takes a number")?,
            "-v" | "--verbose" => verbose = true,
            s if s.starts_with("-O") => opt = s[2..].parse().map_err(|_| format!("bad optimization level {s}"))?,
            s if s.starts_with("--target=") => target = Some(s["--target=".len()..].to_string()),
            s if s.starts_with('-') => return Err(format!("unknown option {s}")),
            s => {
                if input.replace(PathBuf::from(s)).is_some() {
                    return Err("one input file at a time".into());
                }
            }
        }
    }
    let input = input.ok_or("no input file")?;
    let target = target.ok_or("no --target (a gfx name or host)")?;
    Ok(Some(Args { input, target, out, emit, opt, lanes, verbose }))
}

fn main() -> ExitCode {
    let args = match parse_args(std::env::args().skip(1)) {
        Ok(Some(a)) => a,
        Ok(None) => return ExitCode::SUCCESS,
        Err(e) => {
            if !e.is_empty() {
                eprintln!("ptxc: {e}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err((code, msg)) => {
            eprint!("{msg}");
            if !msg.ends_with('\n') {
                eprintln!();
            }
            ExitCode::from(code)
        }
    }
}

type Fail = (u8, String);

fn refused(file: &Path, e: impl std::fmt::Display) -> Fail {
    (1, format!("{}: {e}", file.display()))
}

fn run(args: &Args) -> Result<(), Fail> {
    let text = std::fs::read_to_string(&args.input).map_err(|e| (2, format!("ptxc: {}: {e}", args.input.display())))?;
    let mut ast = compiler_core::ptx::parse(&text).map_err(|d| refused(&args.input, format!("invalid PTX:\n{}", compiler_core::diag::render(&d))))?;
    let (bytes, ext, summary) = if args.target == "host" {
        let lowered = compiler_core::lower::lower_module(&ast)
            .map_err(|d| refused(&args.input, format!("invalid PTX:\n{}", compiler_core::diag::render(&d))))?;
        let emit = args.emit.as_deref().unwrap_or("obj");
        let summary = summarize(&lowered.kernels, &format!("host, {} bytes of static shared memory", lowered.static_shared_bytes));
        match emit {
            "ll" => (lowered.ir.into_bytes(), "ll", summary),
            "obj" | "asm" => {
                let b = compiler_core::target::host::emit(&lowered.ir, args.opt, emit == "asm")
                    .map_err(|e| refused(&args.input, format!("internal compiler error: {e}")))?;
                (b, if emit == "asm" { "s" } else { "o" }, summary)
            }
            other => return Err((2, format!("ptxc: --emit {other} is not available for the host (use obj, asm or ll)"))),
        }
    } else {
        let mut opts = AmdgpuOptions::new(&args.target);
        opts.opt_level = args.opt;
        opts.warp_lanes = args.lanes;
        let (target, opts) = codegen::target_for(&mut ast, &opts).map_err(|e| refused(&args.input, e))?;
        let lowered = compiler_core::lower::lower_module_for(&ast, &target)
            .map_err(|d| refused(&args.input, format!("invalid PTX:\n{}", compiler_core::diag::render(&d))))?;
        let emit = args.emit.as_deref().unwrap_or("co");
        let summary = summarize(&lowered.kernels, &format!("{} (wave{})", target.processor(), target.wavefront_size()));
        let fail = |e: codegen::AmdgpuError| refused(&args.input, e);
        match emit {
            "ll" => (lowered.ir.into_bytes(), "ll", summary),
            "asm" => (codegen::emit_assembly(&lowered.ir, &target, args.opt).map_err(fail)?.into_bytes(), "s", summary),
            "obj" => (codegen::emit_object(&lowered.ir, &target, args.opt).map_err(fail)?, "o", summary),
            "co" => {
                let co = codegen::compile_lowered(lowered, &target, &opts).map_err(fail)?;
                let summary = summary + &resources(&co);
                (co.elf, "co", summary)
            }
            other => return Err((2, format!("ptxc: unknown --emit {other} (co, obj, asm or ll)"))),
        }
    };
    let out = args.out.clone().unwrap_or_else(|| {
        let stem = args.input.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_else(|| "out".into());
        let dir = args.input.parent().unwrap_or(Path::new(""));
        dir.join(format!("{stem}.{}.{ext}", args.target)).display().to_string()
    });
    if out == "-" {
        use std::io::Write;
        std::io::stdout().write_all(&bytes).map_err(|e| (2, format!("ptxc: stdout: {e}")))?;
    } else {
        std::fs::write(&out, &bytes).map_err(|e| (2, format!("ptxc: {out}: {e}")))?;
    }
    if args.verbose {
        eprint!("{summary}");
        if out != "-" {
            eprintln!("wrote {out} ({} bytes)", bytes.len());
        }
    }
    Ok(())
}

/// Each kernel's resources as its descriptor in the code object says (like `ptxas -v`).
fn resources(co: &codegen::CodeObject) -> String {
    let mut s = String::new();
    for k in &co.kernels {
        if let Some(r) = amdgpu::descriptor::kernel_resources(&co.elf, &k.name) {
            let sgprs = r.sgprs(co.processor).map(|n| format!(", {n} SGPRs")).unwrap_or_default();
            s.push_str(&format!(
                "kernel {}: {} VGPRs{sgprs}, {} bytes LDS, {} bytes scratch per work-item\n",
                k.name,
                r.vgprs(co.processor, co.wavefront_size),
                r.group_segment_bytes,
                r.private_segment_bytes
            ));
        }
    }
    s
}

fn summarize(kernels: &[compiler_core::lower::KernelMeta], what: &str) -> String {
    let mut s = format!("target {what}\n");
    for k in kernels {
        s.push_str(&format!(
            "kernel {}: {} parameter bytes, {} bytes .local, {}{}\n",
            k.name,
            k.param_buffer_size,
            k.local_bytes,
            if k.uses_barrier { "synchronizes" } else { "no barriers" },
            k.reqntid.map(|r| format!(", reqntid {}x{}x{}", r[0], r[1], r[2])).unwrap_or_default()
        ));
    }
    s
}
