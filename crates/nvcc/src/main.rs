//! `nvcc`: an nvcc-compatible compiler driver (ARCHITECTURE.md, "nvcc").
//!
//! `cli` reads nvcc's command line, `arch` resolves the GPU architectures, `plan` turns
//! the request into steps (clang 19 device and host passes, our fatbin writer, the host
//! compiler and linker), and this file runs them: each command printed as `#$ ...` under
//! `--verbose` or `--dryrun`, temporary files removed unless `--keep`.

mod arch;
mod cli;
mod dlink;
mod plan;
mod rewrite;
mod toolkit;

use std::path::{Path, PathBuf};
use std::process::{Command, ExitCode};

use cli::Fatal;
use plan::{Planner, Step};

/// The first two lines are what build systems match (CMake's compiler identification reads
/// the first, PyTorch and CMake the release and version of the second), so they read as
/// NVIDIA's nvcc 13.0 does; the third says what this is.
const VERSION_TEXT: &str = "nvcc: NVIDIA (R) Cuda compiler driver
Cuda compilation tools, release 13.0, V13.0.88
Build cuda-cpu_13.0: an nvcc-compatible driver over clang 19 (not NVIDIA's nvcc)
";

const HELP_TEXT: &str = "Usage  : nvcc [options] <inputs>

An nvcc-compatible compiler driver: .cu files are compiled by clang 19 (device code to PTX,
packed in a fatbin; host code to an object that registers it), .c/.cpp files by the host
compiler (-ccbin, default gcc/g++), and linked against this toolkit's libcudart.
Options are nvcc's (see NVIDIA's nvcc documentation); -cubin and AMD targets are not
supported yet.
";

fn fatal(msg: &str) -> ExitCode {
    eprintln!("nvcc fatal   : {msg}");
    ExitCode::from(1)
}

fn quote(arg: &str) -> String {
    if !arg.is_empty() && arg.chars().all(|c| c.is_ascii_alphanumeric() || "-_=./,+:@%".contains(c)) {
        arg.to_string()
    } else {
        format!("\"{}\"", arg.replace('\\', "\\\\").replace('"', "\\\""))
    }
}

/// Packs the PTX files into one fatbin container.
fn write_fatbin(ptx: &[(PathBuf, u32)], debug: bool, out: &Path) -> Result<(), String> {
    let texts: Vec<(Vec<u8>, u32)> = ptx
        .iter()
        .map(|(p, sm)| std::fs::read(p).map(|t| (t, *sm)).map_err(|e| format!("cannot read {}: {e}", p.display())))
        .collect::<Result<_, _>>()?;
    let entries: Vec<kernel_image::PtxEntry> = texts
        .iter()
        .map(|(text, sm)| kernel_image::PtxEntry {
            text,
            sm_arch: *sm,
            isa: kernel_image::ptx_isa_of(text).unwrap_or((8, 0)),
            debug,
            ptxas_options: if debug { "-O0 -g" } else { "" },
        })
        .collect();
    std::fs::write(out, kernel_image::write_ptx_container(&entries)).map_err(|e| format!("cannot write {}: {e}", out.display()))
}

/// The locate pass over `source`, then its rewritten text and the overlay that shows it
/// (`rewrite.rs`). The pass's own diagnostics are not shown: the real passes report what
/// is left.
fn rewrite_source(locate: &[String], source: &Path, rewritten: &Path, overlay: &Path, managed: &Path) -> Result<(), String> {
    let output = Command::new(&locate[0]).args(&locate[1..]).output().map_err(|e| format!("Could not run '{}': {e}", locate[0]))?;
    let text = std::fs::read(source).map_err(|e| format!("cannot read {}: {e}", source.display()))?;
    let text = String::from_utf8_lossy(&text);
    let stderr = String::from_utf8_lossy(&output.stderr);
    let names = rewrite::managed_names(&stderr).join("\n");
    std::fs::write(managed, names).map_err(|e| format!("cannot write {}: {e}", managed.display()))?;
    let sites = rewrite::sites(&stderr, source);
    let rewritten_abs = std::path::absolute(rewritten).unwrap_or_else(|_| rewritten.to_path_buf());
    std::fs::write(rewritten, rewrite::apply(&text, &sites)).map_err(|e| format!("cannot write {}: {e}", rewritten.display()))?;
    std::fs::write(overlay, rewrite::overlay(source, &rewritten_abs)).map_err(|e| format!("cannot write {}: {e}", overlay.display()))
}

/// Marks the managed variables listed in `managed` in the PTX file `ptx` and, for
/// relocatable device code, joins clang's copies of static variables.
fn mend_ptx(ptx: &Path, managed: Option<&Path>, rdc: bool) -> Result<(), String> {
    let names: Vec<String> =
        managed.map(|m| std::fs::read_to_string(m).unwrap_or_default().lines().map(str::to_string).collect()).unwrap_or_default();
    if names.is_empty() && !rdc {
        return Ok(());
    }
    let mut text = std::fs::read_to_string(ptx).map_err(|e| format!("cannot read {}: {e}", ptx.display()))?;
    if !names.is_empty() {
        text = rewrite::mark_managed(&text, &names);
    }
    if rdc {
        text = rewrite::join_static_copies(&text);
    }
    std::fs::write(ptx, text).map_err(|e| format!("cannot write {}: {e}", ptx.display()))
}

fn run_steps(steps: &[Step], echo: bool, execute: bool) -> Result<(), ExitCode> {
    for step in steps {
        match step {
            Step::Run(cmd) => {
                if echo {
                    eprintln!("#$ {}", cmd.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" "));
                }
                if !execute {
                    continue;
                }
                let status = Command::new(&cmd[0]).args(&cmd[1..]).status().map_err(|e| fatal(&format!("Could not run '{}': {e}", cmd[0])))?;
                if !status.success() {
                    // The compiler or linker has said why.
                    return Err(ExitCode::from(status.code().map_or(1, |c| c.clamp(1, 255) as u8)));
                }
            }
            Step::DeviceLinkStub { objects, out } => {
                if echo {
                    let inputs: Vec<String> = objects.iter().map(|o| o.display().to_string()).collect();
                    eprintln!("#$ nvlink(built-in) --register-link-binaries={} {}", out.display(), inputs.join(" "));
                }
                if execute {
                    dlink::write_stub(objects, out).map_err(|e| fatal(&e))?;
                }
            }
            Step::Rewrite { locate, source, rewritten, overlay, managed } => {
                if echo {
                    eprintln!("#$ {}", locate.iter().map(|a| quote(a)).collect::<Vec<_>>().join(" "));
                    eprintln!("#$ rewrite(built-in) {} > {}", source.display(), rewritten.display());
                }
                if execute {
                    rewrite_source(locate, source, rewritten, overlay, managed).map_err(|e| fatal(&e))?;
                }
            }
            Step::MendPtx { ptx, managed, rdc } => {
                if echo {
                    eprintln!("#$ mend-ptx(built-in) {}", ptx.display());
                }
                if execute {
                    mend_ptx(ptx, managed.as_deref(), *rdc).map_err(|e| fatal(&e))?;
                }
            }
            Step::Fatbin { ptx, debug, out } => {
                if echo {
                    let inputs: Vec<String> = ptx.iter().map(|(p, sm)| format!("--image3=kind=ptx,sm={sm},file={}", p.display())).collect();
                    // `-arch compute_XX` as nvcc's cicc lines have it: CMake reads the
                    // architectures compiled for from these words.
                    let archs: Vec<String> = ptx.iter().map(|(_, sm)| format!("-arch compute_{sm}")).collect();
                    eprintln!("#$ fatbinary(built-in) {} --create={} {}", archs.join(" "), out.display(), inputs.join(" "));
                }
                if execute {
                    write_fatbin(ptx, *debug, out).map_err(|e| fatal(&e))?;
                }
            }
        }
    }
    Ok(())
}

fn device_options(inv: &cli::Invocation) -> Result<cuda_frontend::options::Options, Fatal> {
    let args: Vec<&str> = inv.device_options.iter().map(String::as_str).collect();
    cuda_frontend::options::parse(&args).map_err(|e| Fatal(e.0.trim_start_matches("nvrtc: error: ").to_string()))
}

/// A directory for the intermediate files: `--keep-dir`, the working directory under
/// `--keep`, else a fresh directory under TMPDIR, removed afterwards.
fn temp_dir(inv: &cli::Invocation) -> Result<(PathBuf, bool), String> {
    if let Some(d) = &inv.keep_dir {
        std::fs::create_dir_all(d).map_err(|e| format!("cannot create {}: {e}", d.display()))?;
        return Ok((d.clone(), false));
    }
    if inv.keep {
        return Ok((PathBuf::from("."), false));
    }
    let base = std::env::temp_dir();
    for n in 0..1000u32 {
        let d = base.join(format!("nvcc-{}-{n}", std::process::id()));
        match std::fs::create_dir(&d) {
            Ok(()) => return Ok((d, true)),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("cannot create a temporary directory in {}: {e}", base.display())),
        }
    }
    Err(format!("cannot create a temporary directory in {}", base.display()))
}

/// The toolkit description nvcc prints first under `-v`/`--dryrun`, even when the command
/// line is bad: CMake runs `nvcc -v <nothing to compile>` and reads `TOP=` (the toolkit
/// root), `INCLUDES=` and `LIBRARIES=` (found again verbatim in the link line) from it.
fn print_toolkit_variables(toolkit: &toolkit::Toolkit) {
    let top = toolkit.include.parent().map(Path::to_path_buf).unwrap_or_default();
    eprintln!("#$ _NVVM_BRANCH_=nvvm");
    eprintln!("#$ TOP={}", top.display());
    // Where NVIDIA's toolkit keeps libdevice; build systems find the toolkit's library root
    // from it. Ours has the directory and no bitcode: device math is in our headers.
    eprintln!("#$ NVVMIR_LIBRARY_DIR={}", top.join("nvvm/libdevice").display());
    eprintln!("#$ PATH={}", std::env::var("PATH").unwrap_or_default());
    eprintln!("#$ INCLUDES=\"-I{}\"", toolkit.include.display());
    eprintln!("#$ SYSTEM_INCLUDES=\"-isystem\" \"{}\"", toolkit.include.join("cccl").display());
    eprintln!("#$ LIBRARIES=  {}", plan::library_dir_flag(&toolkit.lib));
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let echo = args.iter().any(|a| matches!(a.as_str(), "-v" | "--verbose" | "-dryrun" | "--dryrun"));
    let located = toolkit::Toolkit::locate();
    if let (true, Ok(t)) = (echo, &located) {
        print_toolkit_variables(t);
    }
    let inv = match cli::parse(&args) {
        Ok(inv) => inv,
        Err(Fatal(m)) => return fatal(&m),
    };
    if inv.version {
        print!("{VERSION_TEXT}");
        return ExitCode::SUCCESS;
    }
    if inv.help {
        print!("{HELP_TEXT}");
        return ExitCode::SUCCESS;
    }
    let toolkit = match located {
        Ok(t) => t,
        Err(m) => return fatal(&m),
    };
    let (virtuals, device) = match (arch::resolve(&inv.arch, &inv.code, &inv.gencode), device_options(&inv)) {
        (Ok(v), Ok(d)) => (v, d),
        (Err(Fatal(m)), _) | (_, Err(Fatal(m))) => return fatal(&m),
    };
    let (tmp, remove_tmp) = match temp_dir(&inv) {
        Ok(t) => t,
        Err(m) => return fatal(&m),
    };
    let planner = Planner { inv: &inv, toolkit: &toolkit, virtuals, device, tmp: tmp.clone(), rewrites: Default::default() };
    let result = match planner.steps() {
        Ok(steps) => run_steps(&steps, inv.verbose || inv.dryrun, !inv.dryrun),
        Err(Fatal(m)) => Err(fatal(&m)),
    };
    if remove_tmp {
        let _ = std::fs::remove_dir_all(&tmp);
    }
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(code) => code,
    }
}
