//! nvcc's command line: its option table (long `--name`, short `-name`, values joined by
//! `=` or given as the next argument, single-letter options also glued: `-Ipath`), and
//! the [`Invocation`] it describes.
//!
//! Spellings and messages follow `nvcc --help` and nvcc's own diagnostics
//! (`nvcc fatal   : Unknown option '-fPIC'`). Options that only tune NVIDIA's back end
//! (ptxas, nvlink, fatbinary, cudafe) are accepted and have no effect here.

use std::path::PathBuf;

/// How an option takes its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Arity {
    Flag,
    Value,
    /// A flag that may also be given a value (`-rdc` / `-rdc=true`).
    OptionalValue,
}

/// One nvcc option: long name, short name, arity.
struct Spec {
    long: &'static str,
    short: &'static str,
    arity: Arity,
}

const fn flag(long: &'static str, short: &'static str) -> Spec {
    Spec { long, short, arity: Arity::Flag }
}
const fn value(long: &'static str, short: &'static str) -> Spec {
    Spec { long, short, arity: Arity::Value }
}
const fn optional(long: &'static str, short: &'static str) -> Spec {
    Spec { long, short, arity: Arity::OptionalValue }
}

/// The options we accept, as `nvcc --help` (CUDA 13.0) names them.
const SPECS: &[Spec] = &[
    flag("cuda", "cuda"),
    flag("cubin", "cubin"),
    flag("fatbin", "fatbin"),
    flag("ptx", "ptx"),
    flag("preprocess", "E"),
    flag("generate-dependencies", "M"),
    flag("generate-nonsystem-dependencies", "MM"),
    flag("generate-dependencies-with-compile", "MD"),
    flag("generate-nonsystem-dependencies-with-compile", "MMD"),
    value("dependency-output", "MF"),
    flag("generate-dependency-targets", "MP"),
    value("dependency-target-name", "MT"),
    flag("compile", "c"),
    flag("device-c", "dc"),
    flag("device-w", "dw"),
    flag("device-link", "dlink"),
    flag("link", "link"),
    flag("lib", "lib"),
    flag("run", "run"),
    value("output-file", "o"),
    value("pre-include", "include"),
    value("library", "l"),
    value("define-macro", "D"),
    value("undefine-macro", "U"),
    value("include-path", "I"),
    value("system-include", "isystem"),
    value("library-path", "L"),
    value("output-directory", "odir"),
    value("compiler-bindir", "ccbin"),
    flag("allow-unsupported-compiler", "allow-unsupported-compiler"),
    value("archiver-binary", "arbin"),
    value("cudart", "cudart"),
    value("cudadevrt", "cudadevrt"),
    flag("profile", "pg"),
    flag("debug", "g"),
    flag("device-debug", "G"),
    flag("generate-line-info", "lineinfo"),
    value("optimization-info", "opt-info"),
    value("optimize", "O"),
    value("Ofast-compile", "Ofc"),
    value("dopt", "dopt"),
    value("ftemplate-backtrace-limit", "ftemplate-backtrace-limit"),
    value("ftemplate-depth", "ftemplate-depth"),
    flag("no-exceptions", "noeh"),
    flag("shared", "shared"),
    value("x", "x"),
    value("std", "std"),
    flag("no-host-device-initializer-list", "nohdinitlist"),
    flag("no-host-device-move-forward", "nohdmoveforward"),
    flag("expt-relaxed-constexpr", "expt-relaxed-constexpr"),
    flag("extended-lambda", "extended-lambda"),
    flag("expt-extended-lambda", "expt-extended-lambda"),
    value("machine", "m"),
    flag("m64", "m64"),
    value("compiler-options", "Xcompiler"),
    value("linker-options", "Xlinker"),
    value("archive-options", "Xarchive"),
    value("ptxas-options", "Xptxas"),
    value("nvlink-options", "Xnvlink"),
    value("fatbin-options", "Xfatbin"),
    value("cudafe-options", "Xcudafe"),
    value("static-global-template-stub", "static-global-template-stub"),
    value("device-entity-has-hidden-visibility", "device-entity-has-hidden-visibility"),
    flag("forward-unknown-to-host-compiler", "forward-unknown-to-host-compiler"),
    flag("forward-unknown-to-host-linker", "forward-unknown-to-host-linker"),
    flag("forward-unknown-opts", "forward-unknown-opts"),
    flag("dont-use-profile", "noprof"),
    flag("dryrun", "dryrun"),
    flag("verbose", "v"),
    value("threads", "t"),
    value("split-compile", "split-compile"),
    flag("keep", "keep"),
    value("keep-dir", "keep-dir"),
    flag("save-temps", "save-temps"),
    flag("no-device-link", "nodlink"),
    value("gpu-architecture", "arch"),
    value("gpu-code", "code"),
    value("generate-code", "gencode"),
    optional("relocatable-device-code", "rdc"),
    value("maxrregcount", "maxrregcount"),
    flag("use_fast_math", "use_fast_math"),
    value("ftz", "ftz"),
    value("prec-div", "prec-div"),
    value("prec-sqrt", "prec-sqrt"),
    value("fmad", "fmad"),
    flag("extra-device-vectorization", "extra-device-vectorization"),
    value("default-stream", "default-stream"),
    flag("disable-warnings", "w"),
    flag("keep-device-functions", "keep-device-functions"),
    flag("source-in-ptx", "src-in-ptx"),
    flag("restrict", "restrict"),
    flag("Wreorder", "Wreorder"),
    flag("Wdefault-stream-launch", "Wdefault-stream-launch"),
    flag("Wmissing-launch-bounds", "Wmissing-launch-bounds"),
    flag("Wext-lambda-captures-this", "Wext-lambda-captures-this"),
    flag("Wno-deprecated-declarations", "Wno-deprecated-declarations"),
    flag("Wno-deprecated-gpu-targets", "Wno-deprecated-gpu-targets"),
    optional("Werror", "Werror"),
    flag("resource-usage", "res-usage"),
    flag("no-compress", "no-compress"),
    flag("display-error-number", "err-no"),
    flag("no-display-error-number", "no-err-no"),
    value("diag-error", "diag-error"),
    value("diag-suppress", "diag-suppress"),
    value("diag-warn", "diag-warn"),
    value("brief-diagnostics", "brief-diag"),
    value("jump-table-density", "jtd"),
    value("compress-mode", "compress-mode"),
    value("frandom-seed", "frandom-seed"),
    flag("help", "h"),
    flag("version", "V"),
    value("options-file", "optf"),
];

/// What the command asks for as its final product.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Compile and link an executable (or a shared library with `-shared`).
    Link,
    /// `-c`: one object per input.
    Compile,
    /// `-ptx`: the device code as PTX text, one file per input.
    Ptx,
    /// `-fatbin`: a fatbin container per input.
    Fatbin,
    /// `-cubin`: NVIDIA machine code, which we cannot produce.
    Cubin,
    /// `-E`: preprocess the host side to standard output (or `-o`).
    Preprocess,
    /// `-M`/`-MM`: write dependencies only.
    Dependencies,
    /// `-lib`: compile, then archive into a static library.
    Lib,
    /// `-dlink`: device-link relocatable objects.
    DeviceLink,
}

/// The source language of an input, from `-x` or the file name's extension.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Lang {
    Cu,
    Cxx,
    C,
    /// An object, archive or shared library: handed to the linker.
    Linkable,
    Ptx,
}

#[derive(Clone, Debug)]
pub struct Input {
    pub path: PathBuf,
    pub lang: Lang,
}

/// `-cudart`: which runtime library the link step adds.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cudart {
    None,
    Shared,
    Static,
}

/// Dependency output (`-M`, `-MD`, ...).
#[derive(Clone, Debug, Default)]
pub struct Deps {
    /// `-MD`/`-MMD` (with compile) or `-M`/`-MM` (instead of compile).
    pub enabled: bool,
    pub system_headers: bool,
    pub file: Option<String>,
    pub target: Option<String>,
    pub phony_targets: bool,
}

/// Everything a command line asks for.
#[derive(Clone, Debug)]
pub struct Invocation {
    pub phase: Phase,
    pub inputs: Vec<Input>,
    pub output: Option<PathBuf>,
    pub output_dir: Option<PathBuf>,
    /// Flags for both host and device passes: -I, -isystem, -D, -U, -include.
    pub preprocessor: Vec<String>,
    /// The NVRTC-style device options (`--use_fast_math`, `-ftz=true`, ...), parsed by
    /// cuda-frontend into the macros both of our compilers define.
    pub device_options: Vec<String>,
    /// `-std=c++NN`.
    pub std: Option<String>,
    /// `-O<level>` for the host side (nvcc's default: the host compiler's).
    pub host_optimize: Option<String>,
    pub host_debug: bool,
    /// `-Xcompiler` arguments and host options nvcc forwards (`-forward-unknown-*`).
    pub host_options: Vec<String>,
    /// `-Xlinker` arguments (passed as `-Wl,` to the host linker).
    pub linker_options: Vec<String>,
    /// `-L` and `-l`, in order.
    pub libraries: Vec<String>,
    pub arch: Vec<String>,
    pub code: Vec<String>,
    pub gencode: Vec<String>,
    pub rdc: bool,
    pub shared: bool,
    pub cudart: Cudart,
    pub ccbin: Option<String>,
    pub deps: Deps,
    pub dryrun: bool,
    pub verbose: bool,
    pub keep: bool,
    pub keep_dir: Option<PathBuf>,
    pub werror: bool,
    pub no_warnings: bool,
    pub per_thread_default_stream: bool,
    pub resource_usage: bool,
    pub version: bool,
    pub help: bool,
}

impl Default for Invocation {
    fn default() -> Self {
        Invocation {
            phase: Phase::Link,
            inputs: Vec::new(),
            output: None,
            output_dir: None,
            preprocessor: Vec::new(),
            device_options: Vec::new(),
            std: None,
            host_optimize: None,
            host_debug: false,
            host_options: Vec::new(),
            linker_options: Vec::new(),
            libraries: Vec::new(),
            arch: Vec::new(),
            code: Vec::new(),
            gencode: Vec::new(),
            rdc: false,
            shared: false,
            cudart: Cudart::Static,
            ccbin: None,
            deps: Deps::default(),
            dryrun: false,
            verbose: false,
            keep: false,
            keep_dir: None,
            werror: false,
            no_warnings: false,
            per_thread_default_stream: false,
            resource_usage: false,
            version: false,
            help: false,
        }
    }
}

/// A command line nvcc refuses, with nvcc's message (printed after `nvcc fatal   : `).
#[derive(Debug, PartialEq, Eq)]
pub struct Fatal(pub String);

/// nvcc splits list-valued options on commas (`-Xcompiler -fPIC,-Wall`).
fn split_list(v: &str) -> impl Iterator<Item = String> + '_ {
    v.split(',').filter(|s| !s.is_empty()).map(str::to_string)
}

fn bool_value(name: &str, v: &str) -> Result<bool, Fatal> {
    match v {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(Fatal(format!("Value '{v}' is not defined for option '{name}'"))),
    }
}

/// Finds the spec of `arg` (which starts with `-`): returns it, the name as written and an
/// attached value, if any.
fn lookup(arg: &str) -> Option<(&'static Spec, Option<String>)> {
    let (body, long) = match arg.strip_prefix("--") {
        Some(b) => (b, true),
        None => (&arg[1..], false),
    };
    let (name, eq_value) = match body.split_once('=') {
        Some((n, v)) => (n, Some(v.to_string())),
        None => (body, None),
    };
    let by_name = |s: &&Spec| if long { s.long == name } else { s.short == name || s.long == name };
    if let Some(spec) = SPECS.iter().find(by_name) {
        return Some((spec, eq_value));
    }
    // Glued values: -Ipath, -DNAME=1, -lfoo, -O3, -Xcompiler=... handled above.
    if long {
        return None;
    }
    for short in ["I", "D", "U", "L", "l", "O", "o", "x", "MF", "MT"] {
        if let Some(rest) = body.strip_prefix(short) {
            if !rest.is_empty() {
                let spec = SPECS.iter().find(|s| s.short == short)?;
                return Some((spec, Some(rest.to_string())));
            }
        }
    }
    None
}

fn lang_of(path: &str, forced: Option<Lang>) -> Option<Lang> {
    if let Some(l) = forced {
        return Some(l);
    }
    let ext = path.rsplit_once('.').map(|(_, e)| e)?;
    Some(match ext {
        "cu" => Lang::Cu,
        "cpp" | "cc" | "cxx" | "c++" | "C" => Lang::Cxx,
        "c" => Lang::C,
        "o" | "obj" | "a" | "so" | "lo" => Lang::Linkable,
        "ptx" => Lang::Ptx,
        _ if path.contains(".so.") => Lang::Linkable,
        _ => return None,
    })
}

/// Parses an nvcc command line (without the program name).
pub fn parse(args: &[String]) -> Result<Invocation, Fatal> {
    let mut inv = Invocation::default();
    let mut forced_lang: Option<Lang> = None;
    let mut forward_unknown = false;
    // Options files are expanded in place.
    let mut queue: std::collections::VecDeque<String> = args.iter().cloned().collect();
    while let Some(arg) = queue.pop_front() {
        if !arg.starts_with('-') || arg == "-" {
            let lang = lang_of(&arg, forced_lang).ok_or_else(|| Fatal(format!("Don't know what to do with '{arg}'")))?;
            inv.inputs.push(Input { path: PathBuf::from(&arg), lang });
            continue;
        }
        let Some((spec, attached)) = lookup(&arg) else {
            if forward_unknown {
                inv.host_options.push(arg);
                continue;
            }
            return Err(Fatal(format!("Unknown option '{arg}'")));
        };
        let value = match (spec.arity, attached) {
            (Arity::Flag, Some(_)) => return Err(Fatal(format!("Unknown option '{arg}'"))),
            (Arity::Flag, None) => String::new(),
            (Arity::OptionalValue, v) => v.unwrap_or_default(),
            (Arity::Value, Some(v)) => v,
            (Arity::Value, None) => queue.pop_front().ok_or_else(|| Fatal(format!("No value supplied for option '--{}'", spec.long)))?,
        };
        apply(&mut inv, spec.long, &value, &mut forced_lang, &mut forward_unknown, &mut queue)?;
    }
    Ok(inv)
}

fn apply(
    inv: &mut Invocation,
    long: &str,
    v: &str,
    forced_lang: &mut Option<Lang>,
    forward_unknown: &mut bool,
    queue: &mut std::collections::VecDeque<String>,
) -> Result<(), Fatal> {
    match long {
        "cuda" | "preprocess" => inv.phase = Phase::Preprocess,
        "cubin" => inv.phase = Phase::Cubin,
        "fatbin" => inv.phase = Phase::Fatbin,
        "ptx" => inv.phase = Phase::Ptx,
        "generate-dependencies" | "generate-nonsystem-dependencies" => {
            inv.phase = Phase::Dependencies;
            inv.deps.enabled = true;
            inv.deps.system_headers = long == "generate-dependencies";
        }
        "generate-dependencies-with-compile" | "generate-nonsystem-dependencies-with-compile" => {
            inv.deps.enabled = true;
            inv.deps.system_headers = long == "generate-dependencies-with-compile";
        }
        "dependency-output" => inv.deps.file = Some(v.to_string()),
        "dependency-target-name" => inv.deps.target = Some(v.to_string()),
        "generate-dependency-targets" => inv.deps.phony_targets = true,
        "compile" => inv.phase = Phase::Compile,
        "device-c" => {
            inv.phase = Phase::Compile;
            inv.rdc = true;
        }
        "device-w" => inv.phase = Phase::Compile,
        "device-link" => inv.phase = Phase::DeviceLink,
        "link" => inv.phase = Phase::Link,
        "lib" => inv.phase = Phase::Lib,
        "run" => return Err(Fatal("Option '--run' is not supported by this nvcc".into())),
        "output-file" => inv.output = Some(PathBuf::from(v)),
        "output-directory" => inv.output_dir = Some(PathBuf::from(v)),
        "pre-include" => split_list(v).for_each(|f| inv.preprocessor.extend(["-include".to_string(), f])),
        "library" => split_list(v).for_each(|l| inv.libraries.push(format!("-l{l}"))),
        "library-path" => split_list(v).for_each(|l| inv.libraries.push(format!("-L{l}"))),
        "define-macro" => split_list(v).for_each(|d| inv.preprocessor.push(format!("-D{d}"))),
        "undefine-macro" => split_list(v).for_each(|d| inv.preprocessor.push(format!("-U{d}"))),
        "include-path" => split_list(v).for_each(|p| inv.preprocessor.push(format!("-I{p}"))),
        "system-include" => split_list(v).for_each(|p| inv.preprocessor.extend(["-isystem".to_string(), p])),
        "compiler-bindir" => inv.ccbin = Some(v.to_string()),
        "cudart" => {
            inv.cudart = match v {
                "none" => Cudart::None,
                "shared" => Cudart::Shared,
                "static" => Cudart::Static,
                _ => return Err(Fatal(format!("Value '{v}' is not defined for option 'cudart'"))),
            }
        }
        "debug" => inv.host_debug = true,
        "device-debug" => inv.device_options.push("-G".into()),
        "generate-line-info" => inv.device_options.push("-lineinfo".into()),
        "optimize" => inv.host_optimize = Some(v.to_string()),
        "shared" => inv.shared = true,
        "x" => {
            *forced_lang = Some(match v {
                "cu" => Lang::Cu,
                "c++" => Lang::Cxx,
                "c" => Lang::C,
                _ => return Err(Fatal(format!("Value '{v}' is not defined for option 'x'"))),
            })
        }
        "std" => {
            if !matches!(v, "c++03" | "c++11" | "c++14" | "c++17" | "c++20") {
                return Err(Fatal(format!("Value '{v}' is not defined for option 'std'")));
            }
            inv.std = Some(v.to_string());
        }
        "expt-relaxed-constexpr" => inv.device_options.push("--expt-relaxed-constexpr".into()),
        "extended-lambda" | "expt-extended-lambda" => inv.device_options.push("--extended-lambda".into()),
        "machine" if v != "64" => return Err(Fatal(format!("Value '{v}' is not defined for option 'machine'"))),
        "compiler-options" => inv.host_options.extend(split_list(v)),
        "linker-options" => inv.linker_options.extend(split_list(v)),
        "forward-unknown-to-host-compiler" | "forward-unknown-opts" => *forward_unknown = true,
        "dryrun" => inv.dryrun = true,
        "verbose" => inv.verbose = true,
        "keep" | "save-temps" => inv.keep = true,
        "keep-dir" => inv.keep_dir = Some(PathBuf::from(v)),
        "gpu-architecture" => inv.arch.push(v.to_string()),
        "gpu-code" => inv.code.extend(split_list(v)),
        "generate-code" => inv.gencode.push(v.to_string()),
        "relocatable-device-code" => inv.rdc = v.is_empty() || bool_value("relocatable-device-code", v)?,
        "maxrregcount" => inv.device_options.push(format!("--maxrregcount={v}")),
        "use_fast_math" => inv.device_options.push("--use_fast_math".into()),
        "ftz" | "prec-div" | "prec-sqrt" | "fmad" => {
            bool_value(long, v)?;
            inv.device_options.push(format!("--{long}={v}"));
        }
        "default-stream" => {
            inv.per_thread_default_stream = match v {
                "per-thread" => true,
                "legacy" | "null" => false,
                _ => return Err(Fatal(format!("Value '{v}' is not defined for option 'default-stream'"))),
            }
        }
        "disable-warnings" => inv.no_warnings = true,
        "Werror" => inv.werror = true,
        "resource-usage" => inv.resource_usage = true,
        "help" => inv.help = true,
        "version" => inv.version = true,
        "options-file" => {
            for file in split_list(v).collect::<Vec<_>>().into_iter().rev() {
                let text = std::fs::read_to_string(&file).map_err(|_| Fatal(format!("Could not open input file '{file}'")))?;
                for word in shell_words(&text).into_iter().rev() {
                    queue.push_front(word);
                }
            }
        }
        // Tuning of NVIDIA's own tools, profiles and diagnostics numbering: no effect here.
        _ => {}
    }
    Ok(())
}

/// Splits an options file as a shell would, for the quoting nvcc's files use.
fn shell_words(text: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    let mut chars = text.chars();
    while let Some(c) = chars.next() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), '\\') => cur.extend(chars.next()),
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => {
                quote = Some(c);
                in_word = true;
            }
            (None, '\\') => {
                cur.extend(chars.next());
                in_word = true;
            }
            (None, c) if c.is_whitespace() => {
                if in_word {
                    words.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            (None, c) => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        words.push(cur);
    }
    words
}

#[cfg(test)]
#[path = "cli_tests.rs"]
mod tests;
