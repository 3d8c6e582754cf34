//! `-arch`, `-code` and `-gencode`: which virtual architectures get a PTX entry.
//!
//! nvcc's rules (CUDA Compiler Driver NVCC, "GPU Compilation"): `-arch=sm_XX` alone means
//! `-gencode arch=compute_XX,code=[sm_XX,compute_XX]`; `-arch=compute_XX` alone means
//! `code=compute_XX`; `-arch` with `-code` pairs the one virtual architecture with the
//! listed codes; each `-gencode arch=compute_XX,code=...` adds one virtual architecture.
//! With none of them the default is sm_75. We cannot make SASS, so every virtual
//! architecture becomes one PTX entry of the fatbin (which NVIDIA's driver and ours both
//! compile at load time), tagged with its own number.

use crate::cli::Fatal;
use cuda_frontend::target::{Arch, ArchKind, SUPPORTED_ARCHS};

/// The architectures `-arch=all` names (nvcc 13.0's list); `all-major` keeps the `X0` ones.
const ALL: &[u32] = &[75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121];

/// One virtual architecture to compile for.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Virtual {
    pub arch: Arch,
}

impl Virtual {
    pub fn number(&self) -> u32 {
        self.arch.number()
    }
}

fn parse_arch(s: &str, option: &str) -> Result<Arch, Fatal> {
    let arch = Arch::parse(s).map_err(|_| Fatal(format!("Unsupported gpu architecture '{s}'")))?;
    if arch.is_gfx() {
        return Err(Fatal(format!("Value '{s}' is not defined for option '{option}': AMD targets are not supported by this nvcc yet")));
    }
    Ok(arch)
}

/// The virtual architecture behind `sm_XX` or `compute_XX`.
fn virtual_of(arch: &Arch) -> Result<Arch, Fatal> {
    Arch::parse(&format!("compute_{}", arch.number_string()))
        .map_err(|_| Fatal(format!("Unsupported gpu architecture 'compute_{}'", arch.number_string())))
}

/// `arch=compute_XX,code=[sm_XX,compute_XX]` or `arch=compute_XX,code=sm_XX`.
fn parse_gencode(spec: &str) -> Result<Arch, Fatal> {
    let mut arch = None;
    let mut has_code = false;
    // Commas separate the two fields and, inside brackets, the codes.
    let mut depth = 0;
    let mut start = 0;
    let mut fields = Vec::new();
    for (i, c) in spec.char_indices() {
        match c {
            '[' => depth += 1,
            ']' => depth -= 1,
            ',' if depth == 0 => {
                fields.push(&spec[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    fields.push(&spec[start..]);
    for field in fields {
        match field.split_once('=') {
            Some(("arch", v)) => arch = Some(parse_arch(v, "--generate-code")?),
            Some(("code", v)) => {
                for code in v.trim_matches(|c| c == '[' || c == ']').split(',') {
                    parse_arch(code, "--generate-code")?;
                }
                has_code = true;
            }
            _ => return Err(Fatal(format!("Invalid value '{spec}' for option '--generate-code'"))),
        }
    }
    match (arch, has_code) {
        (Some(a), true) if a.kind == ArchKind::Compute => Ok(a),
        (Some(a), true) => virtual_of(&a),
        _ => Err(Fatal(format!("Invalid value '{spec}' for option '--generate-code'"))),
    }
}

/// The virtual architectures of a command line, in order, without repeats.
pub fn resolve(arch: &[String], code: &[String], gencode: &[String]) -> Result<Vec<Virtual>, Fatal> {
    let mut out: Vec<Arch> = Vec::new();
    for spec in gencode {
        out.push(parse_gencode(spec)?);
    }
    for a in arch {
        match a.as_str() {
            "all" | "all-major" => {
                let major = a == "all-major";
                for &n in ALL.iter().filter(|&&n| !major || n % 10 == 0) {
                    out.push(Arch::parse(&format!("compute_{n}")).expect("listed architecture"));
                }
            }
            // No GPU is asked here: the CPU device runs any PTX, so the default serves.
            "native" => out.push(Arch::default_arch()),
            _ => out.push(virtual_of(&parse_arch(a, "--gpu-architecture")?)?),
        }
    }
    for c in code {
        parse_arch(c, "--gpu-code")?;
    }
    if !code.is_empty() && arch.is_empty() {
        return Err(Fatal("Option '--gpu-code' requires option '--gpu-architecture'".into()));
    }
    if out.is_empty() {
        out.push(Arch::default_arch());
    }
    let mut unique: Vec<Virtual> = Vec::new();
    for a in out {
        if !unique.iter().any(|v| v.arch == a) {
            unique.push(Virtual { arch: a });
        }
    }
    debug_assert!(unique.iter().all(|v| SUPPORTED_ARCHS.contains(&v.number()) || v.number() < 75));
    Ok(unique)
}

/// `__CUDA_ARCH_LIST__`: the virtual architectures as `__CUDA_ARCH__` values, ascending.
pub fn arch_list_macro(virtuals: &[Virtual]) -> String {
    let mut values: Vec<u32> = virtuals.iter().map(|v| v.arch.cuda_arch_macro()).collect();
    values.sort_unstable();
    values.dedup();
    values.iter().map(u32::to_string).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn numbers(arch: &[&str], code: &[&str], gencode: &[&str]) -> Result<Vec<u32>, Fatal> {
        let s = |v: &[&str]| v.iter().map(|x| x.to_string()).collect::<Vec<_>>();
        resolve(&s(arch), &s(code), &s(gencode)).map(|v| v.iter().map(Virtual::number).collect())
    }

    #[test]
    fn architectures_resolve_as_nvcc_documents() {
        let ok: &[(&[&str], &[&str], &[&str], &[u32])] = &[
            (&[], &[], &[], &[75]),
            (&["sm_86"], &[], &[], &[86]),
            (&["compute_80"], &["sm_80", "sm_86"], &[], &[80]),
            (&[], &[], &["arch=compute_86,code=sm_86"], &[86]),
            (&[], &[], &["arch=compute_80,code=[sm_80,compute_80]", "arch=compute_90,code=sm_90"], &[80, 90]),
            (&["sm_80"], &[], &["arch=compute_80,code=compute_80"], &[80]),
            (&["all-major"], &[], &[], &[80, 90, 100, 110, 120]),
            (&["native"], &[], &[], &[75]),
        ];
        for (arch, code, gencode, want) in ok {
            assert_eq!(numbers(arch, code, gencode).as_deref(), Ok(*want), "{arch:?} {code:?} {gencode:?}");
        }
        let bad: &[(&[&str], &[&str], &[&str])] = &[
            (&["sm_13"], &[], &[]),
            (&[], &["sm_80"], &[]),
            (&[], &[], &["arch=compute_80"]),
            (&[], &[], &["code=sm_80"]),
            (&[], &[], &["arch=compute_80,code=sm_99"]),
            (&["gfx90a"], &[], &[]),
        ];
        for (arch, code, gencode) in bad {
            assert!(numbers(arch, code, gencode).is_err(), "{arch:?} {code:?} {gencode:?}");
        }
    }

    #[test]
    fn arch_list_is_sorted_cuda_arch_values() {
        let v = resolve(&["sm_90".into(), "sm_80".into()], &[], &[]).unwrap();
        assert_eq!(arch_list_macro(&v), "800,900");
    }
}
