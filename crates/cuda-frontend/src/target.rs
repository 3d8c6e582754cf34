//! Target architectures: NVIDIA `sm_XX`/`compute_XX` (with the `a`/`f` suffixes) and AMD
//! `gfxNNN` names, the warp size each implies, the macros they define, and what the NVPTX
//! back-end of LLVM 19 is asked to generate for them.

/// The architectures nvrtcGetSupportedArchs reports (NVRTC 13.0's list).
pub const SUPPORTED_ARCHS: &[u32] = &[75, 80, 86, 87, 88, 89, 90, 100, 103, 110, 120, 121];

/// The default when no -arch is given and no current device says otherwise.
pub const DEFAULT_ARCH: u32 = 75;

/// SM numbers accepted in `-arch` beyond the reported list (older GPUs; they compile).
const ALSO_ACCEPTED: &[u32] = &[50, 52, 53, 60, 61, 62, 70, 72];

/// Processors the NVPTX back-end of LLVM 19 knows, ascending.
const LLVM_SMS: &[u32] = &[50, 52, 53, 60, 61, 62, 70, 72, 75, 80, 86, 87, 89, 90];

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArchKind {
    /// `sm_XX`: the caller wants a CUBIN (we give PTX text, which loads as one).
    Sm,
    /// `compute_XX`: the caller wants PTX.
    Compute,
    /// An AMD `gfx` target: PTX with the target's warp size, for our AMD path.
    Gfx,
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Arch {
    pub kind: ArchKind,
    /// SM number (80 for sm_80); for gfx targets the SM number their PTX declares.
    number: u32,
    /// `""`, `"a"` or `"f"`.
    suffix: &'static str,
    /// The gfx name, for AMD targets.
    gfx: Option<String>,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ArchError;

impl Arch {
    pub fn parse(s: &str) -> Result<Arch, ArchError> {
        let s = s.trim();
        if let Some(rest) = s.strip_prefix("gfx") {
            let ok = (3..=4).contains(&rest.len()) && rest.chars().all(|c| c.is_ascii_hexdigit());
            if !ok {
                return Err(ArchError);
            }
            return Ok(Arch { kind: ArchKind::Gfx, number: 80, suffix: "", gfx: Some(s.to_string()) });
        }
        let (kind, rest) = if let Some(r) = s.strip_prefix("sm_") {
            (ArchKind::Sm, r)
        } else if let Some(r) = s.strip_prefix("compute_") {
            (ArchKind::Compute, r)
        } else {
            return Err(ArchError);
        };
        let (digits, suffix) = match rest.strip_suffix('a') {
            Some(d) => (d, "a"),
            None => match rest.strip_suffix('f') {
                Some(d) => (d, "f"),
                None => (rest, ""),
            },
        };
        if digits.is_empty() || !digits.chars().all(|c| c.is_ascii_digit()) {
            return Err(ArchError);
        }
        let number: u32 = digits.parse().map_err(|_| ArchError)?;
        if !SUPPORTED_ARCHS.contains(&number) && !ALSO_ACCEPTED.contains(&number) {
            return Err(ArchError);
        }
        // Arch-specific (a) needs sm_90 or later; family-specific (f) sm_100 or later.
        if (suffix == "a" && number < 90) || (suffix == "f" && number < 100) {
            return Err(ArchError);
        }
        Ok(Arch { kind, number, suffix, gfx: None })
    }

    /// The architecture NVRTC uses without -arch.
    pub fn default_arch() -> Arch {
        Arch { kind: ArchKind::Compute, number: DEFAULT_ARCH, suffix: "", gfx: None }
    }

    /// The best architecture for a device of compute capability `major.minor`: the
    /// newest supported one not above it (compute_XX: PTX).
    pub fn for_compute_capability(major: u32, minor: u32) -> Arch {
        let cc = major * 10 + minor;
        let number = SUPPORTED_ARCHS.iter().copied().filter(|&a| a <= cc).max().unwrap_or(DEFAULT_ARCH);
        Arch { kind: ArchKind::Compute, number, suffix: "", gfx: None }
    }

    pub fn number(&self) -> u32 {
        self.number
    }

    /// How NVRTC names the architecture in its option warnings ("80").
    pub fn number_string(&self) -> String {
        match &self.gfx {
            Some(g) => g.clone(),
            None => format!("{}{}", self.number, self.suffix),
        }
    }

    pub fn is_gfx(&self) -> bool {
        self.gfx.is_some()
    }

    pub fn gfx_name(&self) -> Option<&str> {
        self.gfx.as_deref()
    }

    /// The warp size the architecture implies: 32 on NVIDIA, 64 on AMD GCN/CDNA (gfx9),
    /// 32 on RDNA (gfx10 and later).
    pub fn warp_size(&self) -> u32 {
        match &self.gfx {
            Some(g) => {
                let rest = &g[3..];
                if rest.len() == 3 && rest.starts_with(['6', '7', '8', '9']) {
                    64
                } else {
                    32
                }
            }
            None => 32,
        }
    }

    /// `__CUDA_ARCH__`.
    pub fn cuda_arch_macro(&self) -> u32 {
        self.number * 10
    }

    /// The processor LLVM generates code for (`sm_90a`, or the newest one LLVM 19 knows
    /// not above the requested SM: PTX for an older SM runs on newer GPUs).
    pub fn llvm_cpu(&self) -> String {
        if self.number == 90 && self.suffix == "a" {
            return "sm_90a".to_string();
        }
        let n = LLVM_SMS.iter().copied().filter(|&s| s <= self.number).max().unwrap_or(75);
        format!("sm_{n}")
    }

    /// The PTX ISA version feature for the back-end.
    pub fn llvm_ptx_feature(&self) -> &'static str {
        let cpu = self.llvm_cpu();
        match cpu.as_str() {
            "sm_90" | "sm_90a" => "+ptx80",
            "sm_89" => "+ptx78",
            "sm_87" => "+ptx74",
            "sm_86" => "+ptx71",
            _ => "+ptx70",
        }
    }

    /// Macros the architecture defines besides __CUDA_ARCH__.
    pub fn extra_macros(&self) -> Vec<(String, String)> {
        let mut m = vec![("__CUDA_ARCH_LIST__".to_string(), self.cuda_arch_macro().to_string())];
        match self.suffix {
            "a" => {
                m.push(("__CUDA_ARCH_SPECIFIC__".to_string(), self.cuda_arch_macro().to_string()));
                m.push((format!("__CUDA_ARCH_FEAT_SM{}_ALL", self.number), "1".to_string()));
            }
            "f" => m.push(("__CUDA_ARCH_FAMILY_SPECIFIC__".to_string(), self.cuda_arch_macro().to_string())),
            _ => {}
        }
        if let Some(g) = &self.gfx {
            m.push(("__SCALE_AMD_TARGET__".to_string(), "1".to_string()));
            m.push((format!("__{}__", g.to_ascii_lowercase()), "1".to_string()));
        }
        m
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_map() {
        assert_eq!(Arch::parse("sm_80").unwrap().llvm_cpu(), "sm_80");
        assert_eq!(Arch::parse("compute_120").unwrap().llvm_cpu(), "sm_90");
        assert_eq!(Arch::parse("sm_90a").unwrap().llvm_cpu(), "sm_90a");
        assert_eq!(Arch::parse("sm_88").unwrap().llvm_cpu(), "sm_87");
        assert!(Arch::parse("sm_1").is_err());
        assert!(Arch::parse("SM_80").is_err());
        assert!(Arch::parse("sm_80a").is_err());
        assert_eq!(Arch::parse("gfx90a").unwrap().warp_size(), 64);
        assert_eq!(Arch::parse("gfx942").unwrap().warp_size(), 64);
        assert_eq!(Arch::parse("gfx1100").unwrap().warp_size(), 32);
        assert_eq!(Arch::for_compute_capability(8, 6).number(), 86);
        assert_eq!(Arch::for_compute_capability(9, 9).number(), 90);
        assert_eq!(Arch::for_compute_capability(7, 0).number(), 75);
    }
}
