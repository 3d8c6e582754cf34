//! NVRTC's option vocabulary: long (`--gpu-architecture=sm_80`), short (`-arch=sm_80`)
//! and separated (`-arch sm_80`) spellings, with NVIDIA's error messages for bad values.
//!
//! Every option NVRTC 13 accepts is accepted here, with its meaning or as a documented
//! no-op (see `Options` field docs and ARCHITECTURE.md). Our own additions:
//! `--warp-size=32|64` (`-warp-size`), `--lanemask-warnings=true|false`, and nvcc's
//! `--expt-extended-lambda` / `--extended-lambda` / `--expt-relaxed-constexpr`, which
//! only define their macros (the features are always on).

use crate::target::{Arch, ArchError};

/// C++ dialect.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Std {
    Cxx03,
    Cxx11,
    Cxx14,
    Cxx17,
    Cxx20,
}

impl Std {
    pub fn clang_flag(self) -> &'static str {
        match self {
            Std::Cxx03 => "-std=c++03",
            Std::Cxx11 => "-std=c++11",
            Std::Cxx14 => "-std=c++14",
            Std::Cxx17 => "-std=c++17",
            Std::Cxx20 => "-std=c++20",
        }
    }
}

/// What the output of a compile is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Output {
    Ptx,
    /// `-dlto`/`--dlink-time-opt`/`--gen-opt-lto`: LTO-IR. Ours is the program's PTX,
    /// compiled as relocatable device code, which our nvJitLink, `cuLink*` and cuFFT's
    /// LTO callbacks take.
    LtoIr,
    /// `-optix-ir`: OptiX-IR, which we do not produce.
    OptixIr,
}

/// The parsed options of one nvrtcCompileProgram call.
#[derive(Clone, Debug)]
pub struct Options {
    /// `None`: the default (the current device of our libcuda if loaded, else compute_75).
    pub arch: Option<Arch>,
    /// Explicit `--warp-size`; otherwise the architecture's.
    pub warp_size: Option<u32>,
    pub std: Std,
    pub defines: Vec<String>,
    pub undefines: Vec<String>,
    pub include_paths: Vec<String>,
    pub pre_includes: Vec<String>,
    pub rdc: bool,
    /// `-G`: no optimization (debug information is not emitted).
    pub device_debug: bool,
    /// `-lineinfo`: accepted; line tables are not emitted.
    pub line_info: bool,
    /// `--dopt`: optimize device code (default on unless -G).
    pub dopt: Option<bool>,
    pub ftz: bool,
    pub prec_div: bool,
    pub prec_sqrt: bool,
    pub fmad: bool,
    pub fast_math: bool,
    /// NVRTC's `-builtin-initializer-list` and `-builtin-move-forward` (default true): the
    /// prelude's `std::initializer_list` / `std::move` / `std::forward` are announced as
    /// NVRTC announces its built-in ones (`__NV_BUILTIN_INITIALIZER_LIST`,
    /// `__NV_BUILTIN_MOVE_FORWARD`), which libcu++ requires.
    pub builtin_initializer_list: bool,
    pub builtin_move_forward: bool,
    pub max_reg_count: Option<u32>,
    pub default_device: bool,
    pub disable_warnings: bool,
    pub device_int128: bool,
    pub extended_lambda: bool,
    pub relaxed_constexpr: bool,
    pub syntax_only: bool,
    pub no_source_include: bool,
    pub output: Output,
    /// EDG diagnostic numbers given to --diag-error / --diag-suppress / --diag-warn.
    pub diag_error: Vec<u32>,
    pub diag_suppress: Vec<u32>,
    pub diag_warn: Vec<u32>,
    pub lanemask_warnings: bool,
    /// `--time=<file>`: a CSV of compile phase timings is written there.
    pub time_file: Option<String>,
    /// `--fdevice-time-trace=<file>`: accepted; a minimal trace is written there.
    pub time_trace_file: Option<String>,
    /// Warnings about the options themselves (NVRTC prints them as `nvrtc: warning: ...`).
    pub warnings: Vec<String>,
    /// PCH options (accepted; precompiled headers are not created).
    pub pch_requested: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            arch: None,
            warp_size: None,
            std: Std::Cxx17,
            defines: Vec::new(),
            undefines: Vec::new(),
            include_paths: Vec::new(),
            pre_includes: Vec::new(),
            rdc: false,
            device_debug: false,
            line_info: false,
            dopt: None,
            ftz: false,
            prec_div: true,
            prec_sqrt: true,
            fmad: true,
            builtin_initializer_list: true,
            builtin_move_forward: true,
            fast_math: false,
            max_reg_count: None,
            default_device: false,
            disable_warnings: false,
            device_int128: false,
            extended_lambda: false,
            relaxed_constexpr: false,
            syntax_only: false,
            no_source_include: false,
            output: Output::Ptx,
            diag_error: Vec::new(),
            diag_suppress: Vec::new(),
            diag_warn: Vec::new(),
            lanemask_warnings: true,
            time_file: None,
            time_trace_file: None,
            warnings: Vec::new(),
            pch_requested: false,
        }
    }
}

impl Options {
    /// Whether the optimizer runs.
    pub fn optimize(&self) -> bool {
        self.dopt.unwrap_or(!self.device_debug)
    }
}

/// A bad option: the NVRTC log line (without the trailing newline).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError(pub String);

/// How an option takes its value.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    /// No value.
    Flag,
    /// `=true|false` (required).
    Bool,
    /// A value, after `=` or as the next argument.
    Value,
    /// A value only after `=`.
    ValueEqOnly,
    /// A value glued to a short spelling too (`-DX`, `-I/dir`).
    Glued,
}

struct Spec {
    long: &'static str,
    short: &'static str,
    kind: Kind,
}

const fn spec(long: &'static str, short: &'static str, kind: Kind) -> Spec {
    Spec { long, short, kind }
}

static SPECS: &[Spec] = &[
    spec("gpu-architecture", "arch", Kind::Value),
    spec("relocatable-device-code", "rdc", Kind::Bool),
    spec("extensible-whole-program", "ewp", Kind::Flag),
    spec("device-debug", "G", Kind::Flag),
    spec("generate-line-info", "lineinfo", Kind::Flag),
    spec("dopt", "dopt", Kind::ValueEqOnly),
    spec("ptxas-options", "Xptxas", Kind::Value),
    spec("maxrregcount", "maxrregcount", Kind::Value),
    spec("ftz", "ftz", Kind::Bool),
    spec("prec-sqrt", "prec-sqrt", Kind::Bool),
    spec("prec-div", "prec-div", Kind::Bool),
    spec("fmad", "fmad", Kind::Bool),
    spec("use_fast_math", "use_fast_math", Kind::Flag),
    spec("extra-device-vectorization", "extra-device-vectorization", Kind::Flag),
    spec("modify-stack-limit", "modify-stack-limit", Kind::Bool),
    spec("dlink-time-opt", "dlto", Kind::Flag),
    spec("gen-opt-lto", "gen-opt-lto", Kind::Flag),
    spec("optix-ir", "optix-ir", Kind::Flag),
    spec("jump-table-density", "jtd", Kind::Value),
    spec("device-stack-protector", "device-stack-protector", Kind::Bool),
    spec("define-macro", "D", Kind::Glued),
    spec("undefine-macro", "U", Kind::Glued),
    spec("include-path", "I", Kind::Glued),
    spec("pre-include", "include", Kind::Value),
    spec("no-source-include", "no-source-include", Kind::Flag),
    spec("std", "std", Kind::ValueEqOnly),
    spec("builtin-move-forward", "builtin-move-forward", Kind::Bool),
    spec("builtin-initializer-list", "builtin-initializer-list", Kind::Bool),
    spec("disable-warnings", "w", Kind::Flag),
    spec("restrict", "restrict", Kind::Flag),
    spec("device-as-default-execution-space", "default-device", Kind::Flag),
    spec("device-int128", "device-int128", Kind::Flag),
    spec("device-float128", "device-float128", Kind::Flag),
    spec("optimization-info", "opt-info", Kind::Value),
    spec("display-error-number", "err-no", Kind::Flag),
    spec("no-display-error-number", "no-err-no", Kind::Flag),
    spec("diag-error", "diag-error", Kind::Value),
    spec("diag-suppress", "diag-suppress", Kind::Value),
    spec("diag-warn", "diag-warn", Kind::Value),
    spec("brief-diagnostics", "brief-diag", Kind::Bool),
    spec("time", "time", Kind::Value),
    spec("split-compile", "split-compile", Kind::Value),
    spec("fdevice-syntax-only", "fdevice-syntax-only", Kind::Flag),
    spec("minimal", "minimal", Kind::Flag),
    spec("fdevice-time-trace", "fdevice-time-trace", Kind::Value),
    spec("pch", "pch", Kind::Flag),
    spec("create-pch", "create-pch", Kind::Value),
    spec("use-pch", "use-pch", Kind::Value),
    spec("pch-dir", "pch-dir", Kind::Value),
    spec("pch-verbose", "pch-verbose", Kind::Bool),
    spec("pch-messages", "pch-messages", Kind::Bool),
    spec("instantiate-templates-in-pch", "instantiate-templates-in-pch", Kind::Bool),
    spec("dw", "dw", Kind::Flag),
    // Ours.
    spec("warp-size", "warp-size", Kind::Value),
    spec("lanemask-warnings", "lanemask-warnings", Kind::Bool),
    // nvcc's; the features are always on, the options define their macros.
    spec("expt-extended-lambda", "expt-extended-lambda", Kind::Flag),
    spec("extended-lambda", "extended-lambda", Kind::Flag),
    spec("expt-relaxed-constexpr", "expt-relaxed-constexpr", Kind::Flag),
];

fn find_spec(name: &str, long_form: bool) -> Option<&'static Spec> {
    SPECS.iter().find(|s| if long_form { s.long == name } else { s.short == name })
}

fn display(s: &Spec) -> String {
    format!("--{} (-{})", s.long, s.short)
}

fn parse_bool(s: &Spec, v: Option<&str>) -> Result<bool, OptionError> {
    match v {
        Some("true") => Ok(true),
        Some("false") => Ok(false),
        _ => Err(OptionError(format!("nvrtc: error: {} expects true or false", display(s)))),
    }
}

fn parse_numbers(v: &str) -> Vec<u32> {
    v.split(',').filter_map(|n| n.trim().trim_end_matches("-D").parse().ok()).collect()
}

/// Parses NVRTC options. `None` entries (NULL pointers in the C array) are the caller's
/// business; this takes the already-converted strings.
pub fn parse(args: &[&str]) -> Result<Options, OptionError> {
    let mut o = Options::default();
    let mut i = 0;
    let mut arch_seen: Option<String> = None;
    while i < args.len() {
        let raw = args[i].trim();
        i += 1;
        if raw.is_empty() {
            continue;
        }
        let unknown = || OptionError(format!("nvrtc: error: unrecognized option {raw} found"));
        let (long_form, body) = if let Some(b) = raw.strip_prefix("--") {
            (true, b)
        } else if let Some(b) = raw.strip_prefix('-') {
            (false, b)
        } else {
            return Err(unknown());
        };
        let (name, eq_value) = match body.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (body, None),
        };
        // Glued short forms: -DX, -I/dir, -UX.
        let (spec, value): (&Spec, Option<String>) = match find_spec(name, long_form) {
            Some(s) => {
                let value = match s.kind {
                    Kind::Flag => {
                        if eq_value.is_some() {
                            return Err(unknown());
                        }
                        None
                    }
                    Kind::Bool => eq_value.map(str::to_string),
                    // NVRTC rejects `-std c++17` as an unknown option.
                    Kind::ValueEqOnly if eq_value.is_none() && s.long == "std" => return Err(unknown()),
                    Kind::ValueEqOnly => eq_value.map(str::to_string),
                    Kind::Value | Kind::Glued => match eq_value {
                        Some(v) => Some(v.to_string()),
                        None if i < args.len() => {
                            i += 1;
                            Some(args[i - 1].trim().to_string())
                        }
                        None => None,
                    },
                };
                (s, value)
            }
            None => {
                let glued = if long_form {
                    None
                } else {
                    ["D", "U", "I"].iter().find(|p| body.starts_with(*p) && body.len() > 1).map(|p| {
                        let s = find_spec(p, false).expect("glued spec");
                        (s, Some(body[p.len()..].to_string()))
                    })
                };
                match glued {
                    Some(g) => g,
                    None => return Err(unknown()),
                }
            }
        };
        apply(&mut o, spec, value, &mut arch_seen, raw)?;
    }
    if o.output == Output::LtoIr {
        // NVRTC: -dlto implies -rdc=true and refuses an explicit -rdc=false.
        if explicitly_set(args, "relocatable-device-code") && !o.rdc {
            return Err(OptionError("nvrtc: error: -dlto is not compatible with -rdc=false".into()));
        }
        o.rdc = true;
    }
    if o.fast_math {
        o.ftz = o.ftz || !explicitly_set(args, "ftz");
        if !explicitly_set(args, "prec-div") {
            o.prec_div = false;
        }
        if !explicitly_set(args, "prec-sqrt") {
            o.prec_sqrt = false;
        }
        if !explicitly_set(args, "fmad") {
            o.fmad = true;
        }
    }
    Ok(o)
}

fn explicitly_set(args: &[&str], long: &str) -> bool {
    let s = find_spec(long, true).expect("known option");
    args.iter().any(|a| {
        let a = a.trim();
        a.starts_with(&format!("--{}=", s.long)) || a.starts_with(&format!("-{}=", s.short))
    })
}

fn apply(o: &mut Options, s: &Spec, v: Option<String>, arch_seen: &mut Option<String>, raw: &str) -> Result<(), OptionError> {
    let need = |v: &Option<String>| -> Result<String, OptionError> {
        v.clone().ok_or_else(|| OptionError(format!("nvrtc: error: {} expects a value", display(s))))
    };
    match s.long {
        "gpu-architecture" => {
            let v = v.unwrap_or_default();
            let arch = Arch::parse(&v).map_err(|ArchError| OptionError("nvrtc: error: invalid value for --gpu-architecture (-arch)".to_string()))?;
            if let Some(prev) = arch_seen.take() {
                o.warnings.push(format!(
                    "nvrtc: warning: \"--gpu-architecture(-arch)={}\" followed by \"--gpu-architecture(-arch)={}\"",
                    prev,
                    arch.number_string()
                ));
            }
            *arch_seen = Some(arch.number_string());
            o.arch = Some(arch);
        }
        "relocatable-device-code" => o.rdc = parse_bool(s, v.as_deref())?,
        "extensible-whole-program" => o.rdc = true,
        "device-debug" => o.device_debug = true,
        "generate-line-info" => o.line_info = true,
        "dopt" => match v.as_deref() {
            Some("on") => o.dopt = Some(true),
            Some("off") => o.dopt = Some(false),
            Some(other) => return Err(OptionError(format!("nvrtc: error: invalid argument for option --dopt (-dopt): {other}"))),
            None => return Err(OptionError("nvrtc: error: -dopt expects a value".to_string())),
        },
        "ptxas-options" => {
            need(&v)?;
        }
        "maxrregcount" => {
            let n = v
                .as_deref()
                .and_then(|x| x.parse::<u32>().ok())
                .ok_or_else(|| OptionError("nvrtc: error: --maxrregcount (-maxrregcount) expects an integer value".to_string()))?;
            o.max_reg_count = Some(n);
        }
        "ftz" => o.ftz = parse_bool(s, v.as_deref())?,
        "prec-sqrt" => o.prec_sqrt = parse_bool(s, v.as_deref())?,
        "prec-div" => o.prec_div = parse_bool(s, v.as_deref())?,
        "fmad" => o.fmad = parse_bool(s, v.as_deref())?,
        "use_fast_math" => o.fast_math = true,
        "builtin-initializer-list" => o.builtin_initializer_list = parse_bool(s, v.as_deref())?,
        "builtin-move-forward" => o.builtin_move_forward = parse_bool(s, v.as_deref())?,
        "extra-device-vectorization" => {}
        "modify-stack-limit" | "device-stack-protector" | "brief-diagnostics" | "pch-verbose" | "pch-messages" | "instantiate-templates-in-pch" => {
            parse_bool(s, v.as_deref())?;
        }
        "dlink-time-opt" | "gen-opt-lto" => o.output = Output::LtoIr,
        "optix-ir" => o.output = Output::OptixIr,
        "jump-table-density" => {
            need(&v)?;
        }
        "define-macro" => {
            let d = v.unwrap_or_default();
            if d.is_empty() || d.starts_with('=') {
                return Err(OptionError(format!("Command-line error: invalid macro definition: {d}")));
            }
            o.defines.push(d);
        }
        "undefine-macro" => o.undefines.push(need(&v)?),
        "include-path" => {
            // NVRTC accepts a bare -I; it adds nothing.
            if let Some(p) = v.filter(|p| !p.is_empty()) {
                o.include_paths.push(p);
            }
        }
        "pre-include" => o.pre_includes.push(need(&v)?),
        "no-source-include" => o.no_source_include = true,
        "std" => {
            o.std = match v.as_deref() {
                Some("c++03") => Std::Cxx03,
                Some("c++11") => Std::Cxx11,
                Some("c++14") => Std::Cxx14,
                Some("c++17") => Std::Cxx17,
                Some("c++20") => Std::Cxx20,
                _ => return Err(OptionError("nvrtc: error: invalid value for --std(-std)".to_string())),
            }
        }
        "disable-warnings" => o.disable_warnings = true,
        "restrict" | "display-error-number" | "no-display-error-number" | "minimal" | "dw" => {}
        "device-as-default-execution-space" => o.default_device = true,
        "device-int128" => o.device_int128 = true,
        "device-float128" => return Err(OptionError("nvrtc: error: option --device-float128 is not supported by this implementation".to_string())),
        "optimization-info" | "split-compile" => {
            need(&v)?;
        }
        "diag-error" => o.diag_error.extend(parse_numbers(&need(&v)?)),
        "diag-suppress" => o.diag_suppress.extend(parse_numbers(&need(&v)?)),
        "diag-warn" => o.diag_warn.extend(parse_numbers(&need(&v)?)),
        "time" => o.time_file = Some(need(&v)?),
        "fdevice-syntax-only" => o.syntax_only = true,
        "fdevice-time-trace" => o.time_trace_file = Some(need(&v)?),
        "pch" | "create-pch" | "use-pch" | "pch-dir" => {
            if s.kind == Kind::Value {
                need(&v)?;
            }
            o.pch_requested = true;
        }
        "warp-size" => match v.as_deref().and_then(|x| x.parse::<u32>().ok()) {
            Some(n @ (32 | 64)) => o.warp_size = Some(n),
            _ => return Err(OptionError("nvrtc: error: --warp-size (-warp-size) expects 32 or 64".to_string())),
        },
        "lanemask-warnings" => o.lanemask_warnings = parse_bool(s, v.as_deref())?,
        "expt-extended-lambda" | "extended-lambda" => o.extended_lambda = true,
        "expt-relaxed-constexpr" => o.relaxed_constexpr = true,
        other => unreachable!("option {other} ({raw}) has a spec but no meaning"),
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn err(args: &[&str]) -> String {
        parse(args).unwrap_err().0
    }

    #[test]
    fn spellings() {
        let o = parse(&["-arch", "sm_80", "-DX=1", "-D", "Y", "--define-macro=Z", "-I/a", "-I", "/b", "--include-path=/c"]).unwrap();
        assert_eq!(o.arch.unwrap().number(), 80);
        assert_eq!(o.defines, ["X=1", "Y", "Z"]);
        assert_eq!(o.include_paths, ["/a", "/b", "/c"]);
        let o = parse(&["--gpu-architecture=compute_90a", " -ftz=true ", "--std=c++20", "-default-device"]).unwrap();
        assert!(o.ftz && o.default_device && o.std == Std::Cxx20);
        assert!(parse(&["-use_fast_math"]).unwrap().ftz);
        assert!(!parse(&["-use_fast_math"]).unwrap().prec_div);
    }

    #[test]
    fn nvidia_messages() {
        assert_eq!(err(&["-foo"]), "nvrtc: error: unrecognized option -foo found");
        assert_eq!(err(&["-arch=sm_1"]), "nvrtc: error: invalid value for --gpu-architecture (-arch)");
        assert_eq!(err(&["-arch"]), "nvrtc: error: invalid value for --gpu-architecture (-arch)");
        assert_eq!(err(&["--std=c++99"]), "nvrtc: error: invalid value for --std(-std)");
        assert_eq!(err(&["-std", "c++17"]), "nvrtc: error: unrecognized option -std found");
        assert_eq!(err(&["-ftz"]), "nvrtc: error: --ftz (-ftz) expects true or false");
        assert_eq!(err(&["-rdc"]), "nvrtc: error: --relocatable-device-code (-rdc) expects true or false");
        assert_eq!(err(&["-maxrregcount=x"]), "nvrtc: error: --maxrregcount (-maxrregcount) expects an integer value");
        assert_eq!(err(&["-O3"]), "nvrtc: error: unrecognized option -O3 found");
        assert!(parse(&["-arch=sm_80", "-arch=sm_90"]).unwrap().warnings[0].contains("followed by"));
    }
}
