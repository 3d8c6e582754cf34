//! NVIDIA's cuRAND enumerations, with NVIDIA's names and values.

/// `curandStatus_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub enum Status {
    Success = 0,
    VersionMismatch = 100,
    NotInitialized = 101,
    AllocationFailed = 102,
    TypeError = 103,
    OutOfRange = 104,
    LengthNotMultiple = 105,
    DoublePrecisionRequired = 106,
    LaunchFailure = 201,
    PreexistingFailure = 202,
    InitializationFailed = 203,
    ArchMismatch = 204,
    InternalError = 999,
}

/// `curandRngType_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RngType {
    Xorwow,
    Mrg32k3a,
    Mtgp32,
    Mt19937,
    Philox,
    Sobol32,
    ScrambledSobol32,
    Sobol64,
    ScrambledSobol64,
}

impl RngType {
    /// From the C value; the `*_DEFAULT` types are XORWOW and Sobol32.
    pub fn from_c(v: u32) -> Option<RngType> {
        Some(match v {
            100 | 101 => RngType::Xorwow,
            121 => RngType::Mrg32k3a,
            141 => RngType::Mtgp32,
            142 => RngType::Mt19937,
            161 => RngType::Philox,
            200 | 201 => RngType::Sobol32,
            202 => RngType::ScrambledSobol32,
            203 => RngType::Sobol64,
            204 => RngType::ScrambledSobol64,
            _ => return None,
        })
    }

    pub fn is_quasi(self) -> bool {
        matches!(self, RngType::Sobol32 | RngType::ScrambledSobol32 | RngType::Sobol64 | RngType::ScrambledSobol64)
    }

    pub fn is_64bit(self) -> bool {
        matches!(self, RngType::Sobol64 | RngType::ScrambledSobol64)
    }
}

/// `curandOrdering_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Ordering {
    PseudoBest = 100,
    PseudoDefault = 101,
    PseudoSeeded = 102,
    PseudoLegacy = 103,
    PseudoDynamic = 104,
    QuasiDefault = 201,
}

impl Ordering {
    pub fn from_c(v: u32) -> Option<Ordering> {
        Some(match v {
            100 => Ordering::PseudoBest,
            101 => Ordering::PseudoDefault,
            102 => Ordering::PseudoSeeded,
            103 => Ordering::PseudoLegacy,
            104 => Ordering::PseudoDynamic,
            201 => Ordering::QuasiDefault,
            _ => return None,
        })
    }
}

/// `curandDirectionVectorSet_t`.
pub const DIRECTION_VECTORS_32_JOEKUO6: u32 = 101;
pub const SCRAMBLED_DIRECTION_VECTORS_32_JOEKUO6: u32 = 102;
pub const DIRECTION_VECTORS_64_JOEKUO6: u32 = 103;
pub const SCRAMBLED_DIRECTION_VECTORS_64_JOEKUO6: u32 = 104;
