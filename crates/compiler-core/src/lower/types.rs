//! PTX types as LLVM types, and the decoding of an instruction's dotted modifiers.
//!
//! Registers are stored in their *storage* type (PTX ISA 5.2: `.f16` lives in a 16-bit
//! register, `.f16x2` in a 32-bit one), instructions compute in their *value* type (`half`,
//! `<2 x half>`, `bfloat`). Conversions between them are bit casts.

use crate::ptx::ast::{ScalarType, StateSpace};

/// Bit width of a PTX type (predicates count as 1).
pub fn bits(t: ScalarType) -> u32 {
    match t {
        ScalarType::B(n) | ScalarType::U(n) | ScalarType::S(n) => n,
        ScalarType::F16 | ScalarType::BF16 => 16,
        ScalarType::F16x2 | ScalarType::BF16x2 | ScalarType::F32 => 32,
        ScalarType::F64 => 64,
        ScalarType::Pred => 1,
        ScalarType::Opaque(_) => 64,
    }
}

/// Size in bytes as laid out in memory (PTX ISA 5.2.1; predicates are not addressable, but
/// take one byte where a size is needed). Non-standard integer widths take the next
/// power of two (see `int_width`).
pub fn size_of(t: ScalarType) -> u64 {
    (bits(t) as u64).div_ceil(8).max(1).next_power_of_two()
}

/// The LLVM type a register of type `t` is stored in.
pub fn storage(t: ScalarType) -> String {
    match t {
        ScalarType::F32 => "float".into(),
        ScalarType::F64 => "double".into(),
        ScalarType::Pred => "i1".into(),
        _ => format!("i{}", bits(t)),
    }
}

/// Whether `t` is a floating-point type computed as float/double (not the 16-bit forms).
pub fn is_wide_float(t: ScalarType) -> bool {
    matches!(t, ScalarType::F32 | ScalarType::F64)
}

/// Whether `t` is any floating-point type.
pub fn is_float(t: ScalarType) -> bool {
    matches!(t, ScalarType::F16 | ScalarType::F16x2 | ScalarType::BF16 | ScalarType::BF16x2 | ScalarType::F32 | ScalarType::F64)
}

/// Whether `t` is a signed integer type.
pub fn is_signed(t: ScalarType) -> bool {
    matches!(t, ScalarType::S(_))
}

/// The LLVM type an instruction of type `t` computes in.
pub fn value(t: ScalarType) -> String {
    match t {
        ScalarType::F16 => "half".into(),
        ScalarType::BF16 => "bfloat".into(),
        ScalarType::F16x2 => "<2 x half>".into(),
        ScalarType::BF16x2 => "<2 x bfloat>".into(),
        _ => storage(t),
    }
}

/// Parse a type modifier such as `.u32` or `.f16x2`; arbitrary integer widths (`.s17`) are
/// accepted as SCALE's dialect allows.
pub fn parse_type(m: &str) -> Option<ScalarType> {
    let s = m.strip_prefix('.')?;
    Some(match s {
        "f16" => ScalarType::F16,
        "f16x2" => ScalarType::F16x2,
        "bf16" => ScalarType::BF16,
        "bf16x2" => ScalarType::BF16x2,
        "f32" => ScalarType::F32,
        "f64" => ScalarType::F64,
        "pred" => ScalarType::Pred,
        _ => {
            let (k, n) = s.split_at(1);
            let n: u32 = n.parse().ok()?;
            if n == 0 || n > 128 {
                return None;
            }
            match k {
                "b" => ScalarType::B(n),
                "u" => ScalarType::U(n),
                "s" => ScalarType::S(n),
                _ => return None,
            }
        }
    })
}

/// An instruction's modifiers split into types and other flags.
pub struct Mods<'a> {
    pub types: Vec<ScalarType>,
    pub flags: Vec<&'a str>,
}

impl<'a> Mods<'a> {
    pub fn new(mods: &'a [String]) -> Self {
        let mut types = Vec::new();
        let mut flags = Vec::new();
        for m in mods {
            match parse_type(m) {
                Some(t) => types.push(t),
                None => flags.push(m.as_str()),
            }
        }
        Mods { types, flags }
    }

    pub fn has(&self, f: &str) -> bool {
        self.flags.iter().any(|x| *x == f)
    }

    /// The state space named by the modifiers, if any (`.shared::cta` counts as `.shared`).
    pub fn space(&self) -> Option<StateSpace> {
        self.flags.iter().find_map(|f| space_of(f))
    }

    /// `.v2` / `.v4` / `.v8`.
    pub fn vector(&self) -> Option<u32> {
        self.flags.iter().find_map(|f| match *f {
            ".v2" => Some(2),
            ".v4" => Some(4),
            ".v8" => Some(8),
            _ => None,
        })
    }
}

/// The state space a modifier names.
pub fn space_of(f: &str) -> Option<StateSpace> {
    Some(match f {
        ".global" => StateSpace::Global,
        ".shared" | ".shared::cta" | ".shared::cluster" => StateSpace::Shared,
        ".local" => StateSpace::Local,
        ".const" => StateSpace::Const,
        ".param" | ".param::entry" | ".param::func" => StateSpace::Param,
        _ => return None,
    })
}

/// Format an f64 as an LLVM hexadecimal floating constant (exact for float and double).
pub fn f64_const(v: f64) -> String {
    format!("0x{:016X}", v.to_bits())
}
