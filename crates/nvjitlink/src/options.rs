//! `nvJitLinkCreate`'s options ("Supported Link Options" in NVIDIA's nvJitLink
//! documentation), checked as NVIDIA's library checks them: the answers and log lines below
//! were measured with `tools/probe.c` against NVIDIA's libnvJitLink 13.5 (it links on the
//! CPU, no GPU needed).
//!
//! Our link works at the PTX level and the driver compiles the result when it is loaded, so
//! the code-generation options (`-O`, `-g`, `-lineinfo`, `-ftz`, ...) are checked and kept
//! but change nothing in the output; only `-arch` (which PTX a fatbin contributes), `-ptx`
//! (no cubin) and `-maxrregcount` (a `.maxnreg` on each kernel of the output) do.

use crate::result::*;

/// The options of one link.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// `-arch=sm_NN` / `compute_NN` (last one wins): the architecture number.
    pub arch: Option<u32>,
    /// `-arch=compute_NN`: a virtual architecture.
    pub virtual_arch: bool,
    /// `-ptx`: the output is PTX only (no cubin).
    pub ptx: bool,
    /// `-lto`.
    pub lto: bool,
    /// `-O<N>` as given (0 or 3).
    pub opt_level: Option<u32>,
    /// `-g`.
    pub debug: bool,
    /// `-lineinfo`.
    pub lineinfo: bool,
    /// `-r`: a relocatable link.
    pub relocatable: bool,
    /// `-verbose`: an info-log line per input.
    pub verbose: bool,
    /// `-maxrregcount=N`: the registers per thread every kernel is limited to.
    pub max_registers: Option<u32>,
}

/// A refused option list: the result code and the error-log line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionError {
    pub code: NvJitLinkResult,
    pub log: String,
}

fn refuse(code: NvJitLinkResult, log: impl Into<String>) -> OptionError {
    OptionError { code, log: log.into() }
}

/// The architecture numbers nvcc knows (CUDA 12 and 13, with the `a`/`f` feature suffixes
/// allowed after them).
const KNOWN_ARCHS: &[u32] = &[50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 88, 89, 90, 100, 101, 103, 110, 120, 121];

/// Options that take no value and change nothing here.
const FLAGS: &[&str] = &["-time", "-optimize-unused-variables", "-nvvm-latest", "-no-cache", "-device-stack-protector"];

/// Options of the form `-name=value` whose value is not checked further (beyond being
/// present) and that change nothing here.
const VALUED: &[&str] = &["-kernels-used", "-variables-used", "-Xptxas", "-Xnvvm", "-device-stack-protector"];

/// Options of the form `-name=<number>` that change nothing here.
const NUMERIC: &[&str] = &["-split-compile", "-split-compile-extended", "-jump-table-density"];

/// Options of the form `-name=<0|1>` (`true`/`false` also accepted) that change nothing.
const BOOLEAN: &[&str] = &["-ftz", "-prec-div", "-prec-sqrt", "-fma"];

impl Options {
    /// Parses and checks `nvJitLinkCreate`'s option strings.
    pub fn parse<S: AsRef<str>>(options: &[S]) -> Result<Options, OptionError> {
        let mut o = Options::default();
        for option in options {
            o.apply(option.as_ref())?;
        }
        o.check()?;
        Ok(o)
    }

    fn apply(&mut self, option: &str) -> Result<(), OptionError> {
        let unrecognized = || refuse(NVJITLINK_ERROR_UNRECOGNIZED_OPTION, format!("unrecognized option: {option}"));
        let (name, value) = match option.split_once('=') {
            Some((n, v)) => (n, Some(v)),
            None => (option, None),
        };
        match (name, value) {
            ("-arch", Some(v)) => self.set_arch(v, option)?,
            ("-ptx", None) => self.ptx = true,
            ("-lto", None) => self.lto = true,
            ("-g", None) => self.debug = true,
            ("-lineinfo", None) => self.lineinfo = true,
            ("-r", None) => self.relocatable = true,
            ("-verbose", None) => self.verbose = true,
            ("-maxrregcount", Some(v)) => self.max_registers = Some(v.parse().map_err(|_| unrecognized())?),
            ("-Ofc", Some("min" | "mid" | "max")) => {}
            _ if name.starts_with("-O") && value.is_none() && name.len() > 2 => {
                let level: u32 = name[2..].parse().map_err(|_| unrecognized())?;
                if level != 0 && level != 3 {
                    return Err(refuse(
                        NVJITLINK_ERROR_UNRECOGNIZED_OPTION,
                        format!("unsupported value of -O: {level}. Only 0 and 3 are supported."),
                    ));
                }
                self.opt_level = Some(level);
            }
            _ if FLAGS.contains(&name) && value.is_none() => {}
            (_, Some(v)) if VALUED.contains(&name) && !v.is_empty() => {}
            (_, Some(v)) if NUMERIC.contains(&name) && v.parse::<u32>().is_ok() => {}
            (_, Some("0" | "1" | "true" | "false")) if BOOLEAN.contains(&name) => {}
            _ => return Err(unrecognized()),
        }
        Ok(())
    }

    /// `-arch=sm_NN[a|f]` or `compute_NN[a|f]`.
    fn set_arch(&mut self, value: &str, option: &str) -> Result<(), OptionError> {
        let (virtual_arch, rest) = match (value.strip_prefix("sm_"), value.strip_prefix("compute_")) {
            (Some(rest), _) => (false, rest),
            (_, Some(rest)) => (true, rest),
            _ => {
                return Err(refuse(
                    NVJITLINK_ERROR_UNRECOGNIZED_OPTION,
                    format!("ERROR NVJITLINK_ERROR_UNRECOGNIZED_OPTION: missing option value ({option})"),
                ))
            }
        };
        let digits = rest.strip_suffix(['a', 'f']).unwrap_or(rest);
        let number: u32 = digits.parse().map_err(|_| {
            refuse(NVJITLINK_ERROR_UNRECOGNIZED_OPTION, format!("ERROR NVJITLINK_ERROR_UNRECOGNIZED_OPTION: missing option value ({option})"))
        })?;
        if !KNOWN_ARCHS.contains(&number) {
            return Err(refuse(
                NVJITLINK_ERROR_UNRECOGNIZED_ARCH,
                format!("ERROR NVJITLINK_ERROR_UNRECOGNIZED_ARCH: unrecognized architecture (compute_{rest})"),
            ));
        }
        self.arch = Some(number);
        self.virtual_arch = virtual_arch;
        Ok(())
    }

    /// The combinations NVIDIA's library refuses.
    fn check(&self) -> Result<(), OptionError> {
        if self.arch.is_none() {
            return Err(refuse(NVJITLINK_ERROR_MISSING_ARCH, ""));
        }
        if self.debug && self.opt_level == Some(3) {
            return Err(refuse(NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS, "ERROR: optimized debugging not supported; use -O0 with -g"));
        }
        if self.ptx && !self.lto {
            return Err(refuse(NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS, "ERROR: -ptx requires -lto"));
        }
        if self.virtual_arch && !self.ptx {
            return Err(refuse(NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS, "ERROR: virtual arch requires -ptx"));
        }
        Ok(())
    }

    /// The architecture fatbin PTX is selected for.
    pub fn target_sm(&self) -> u32 {
        self.arch.unwrap_or(52)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(options: &[&str]) -> Result<Options, OptionError> {
        Options::parse(options)
    }

    fn code(options: &[&str]) -> NvJitLinkResult {
        parse(options).map(|_| NVJITLINK_SUCCESS).unwrap_or_else(|e| e.code)
    }

    #[test]
    fn accepted() {
        let o = parse(&["-arch=sm_80", "-O3", "-lineinfo"]).unwrap();
        assert_eq!((o.arch, o.opt_level, o.lineinfo, o.debug), (Some(80), Some(3), true, false));
        assert_eq!(parse(&["-arch=sm_80", "-arch=sm_90a"]).unwrap().arch, Some(90));
        assert!(parse(&["-arch=sm_80", "-g"]).unwrap().debug);
        assert!(parse(&["-arch=sm_80", "-g", "-O0"]).is_ok());
        let o = parse(&["-arch=compute_90", "-lto", "-ptx"]).unwrap();
        assert!(o.virtual_arch && o.ptx && o.lto);
        let many = [
            "-arch=sm_100f",
            "-maxrregcount=32",
            "-time",
            "-verbose",
            "-Ofc=max",
            "-ftz=1",
            "-prec-div=0",
            "-prec-sqrt=true",
            "-fma=1",
            "-kernels-used=k",
            "-variables-used=v",
            "-optimize-unused-variables",
            "-Xptxas=-v",
            "-nvvm-latest",
            "-split-compile=0",
            "-split-compile-extended=4",
            "-jump-table-density=101",
            "-no-cache",
            "-device-stack-protector",
            "-r",
        ];
        assert_eq!(code(&many), NVJITLINK_SUCCESS);
    }

    #[test]
    fn refused_as_nvidia_refuses() {
        let e = parse(&["-arch=sm_80", "-frobnicate"]).unwrap_err();
        assert_eq!(e, OptionError { code: NVJITLINK_ERROR_UNRECOGNIZED_OPTION, log: "unrecognized option: -frobnicate".into() });
        assert_eq!(code(&["-arch=sm_80", "--lineinfo"]), NVJITLINK_ERROR_UNRECOGNIZED_OPTION);
        assert_eq!(code(&["-arch=sm_80", "-O2"]), NVJITLINK_ERROR_UNRECOGNIZED_OPTION);
        assert_eq!(code(&["-arch=sm_80", "-ftz=2"]), NVJITLINK_ERROR_UNRECOGNIZED_OPTION);
        assert_eq!(code(&["-arch=banana"]), NVJITLINK_ERROR_UNRECOGNIZED_OPTION);
        assert_eq!(code(&["-arch=sm_999"]), NVJITLINK_ERROR_UNRECOGNIZED_ARCH);
        assert_eq!(code(&[]), NVJITLINK_ERROR_MISSING_ARCH);
        assert_eq!(code(&["-O3"]), NVJITLINK_ERROR_MISSING_ARCH);
        assert_eq!(code(&["-arch=sm_80", "-g", "-O3"]), NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS);
        assert_eq!(code(&["-arch=sm_80", "-ptx"]), NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS);
        assert_eq!(code(&["-arch=compute_80"]), NVJITLINK_ERROR_INCOMPATIBLE_OPTIONS);
    }
}
