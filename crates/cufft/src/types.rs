//! cuFFT's C types and values (`cufftResult`, `cufftType`, directions), as NVIDIA's
//! documentation defines them.

use std::ffi::c_int;

/// `cufftResult`.
pub type CufftResult = c_int;

pub const CUFFT_SUCCESS: CufftResult = 0;
pub const CUFFT_INVALID_PLAN: CufftResult = 1;
pub const CUFFT_ALLOC_FAILED: CufftResult = 2;
pub const CUFFT_INVALID_TYPE: CufftResult = 3;
pub const CUFFT_INVALID_VALUE: CufftResult = 4;
pub const CUFFT_INTERNAL_ERROR: CufftResult = 5;
pub const CUFFT_EXEC_FAILED: CufftResult = 6;
pub const CUFFT_SETUP_FAILED: CufftResult = 7;
pub const CUFFT_INVALID_SIZE: CufftResult = 8;
pub const CUFFT_NOT_IMPLEMENTED: CufftResult = 14;
pub const CUFFT_NOT_SUPPORTED: CufftResult = 16;

/// `CUFFT_FORWARD`.
pub const CUFFT_FORWARD: c_int = -1;
/// `CUFFT_INVERSE`.
pub const CUFFT_INVERSE: c_int = 1;

/// cuFFT's version (major, minor, patch); `cufftGetVersion` reports
/// major * 1000 + minor * 100 + patch.
pub const VERSION: (c_int, c_int, c_int) = (12, 0, 0);

/// A transform's kind, apart from its precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Kind {
    /// Complex to complex, either direction.
    C2C,
    /// Real to complex (forward, the half spectrum).
    R2C,
    /// Complex (the half spectrum) to real (inverse).
    C2R,
}

/// A transform's precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Precision {
    Single,
    Double,
}

/// `cufftType`: a kind at a precision.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct FftType {
    pub kind: Kind,
    pub precision: Precision,
}

impl FftType {
    pub const R2C: c_int = 0x2a;
    pub const C2R: c_int = 0x2c;
    pub const C2C: c_int = 0x29;
    pub const D2Z: c_int = 0x6a;
    pub const Z2D: c_int = 0x6c;
    pub const Z2Z: c_int = 0x69;

    /// The type of a `cufftType` value; `None` for any other value.
    pub fn from_c(value: c_int) -> Option<FftType> {
        let (kind, precision) = match value {
            Self::R2C => (Kind::R2C, Precision::Single),
            Self::C2R => (Kind::C2R, Precision::Single),
            Self::C2C => (Kind::C2C, Precision::Single),
            Self::D2Z => (Kind::R2C, Precision::Double),
            Self::Z2D => (Kind::C2R, Precision::Double),
            Self::Z2Z => (Kind::C2C, Precision::Double),
            _ => return None,
        };
        Some(FftType { kind, precision })
    }

    /// The name NVIDIA's API gives the type (`CUFFT_C2C`, ...), for messages.
    pub fn name(self) -> &'static str {
        match (self.kind, self.precision) {
            (Kind::R2C, Precision::Single) => "CUFFT_R2C",
            (Kind::C2R, Precision::Single) => "CUFFT_C2R",
            (Kind::C2C, Precision::Single) => "CUFFT_C2C",
            (Kind::R2C, Precision::Double) => "CUFFT_D2Z",
            (Kind::C2R, Precision::Double) => "CUFFT_Z2D",
            (Kind::C2C, Precision::Double) => "CUFFT_Z2Z",
        }
    }

    /// The type of `cufftXtMakePlanMany`'s (input, output, execution) `cudaDataType`s,
    /// for the single and double precision types; `Err` is the status for the others.
    pub fn from_xt(input: c_int, output: c_int, execution: c_int) -> Result<FftType, CufftResult> {
        const R_32F: c_int = 0;
        const R_64F: c_int = 1;
        const R_16F: c_int = 2;
        const C_32F: c_int = 4;
        const C_64F: c_int = 5;
        const C_16F: c_int = 6;
        const R_16BF: c_int = 14;
        const C_16BF: c_int = 15;
        let (kind, precision) = match (input, output, execution) {
            (C_32F, C_32F, C_32F) => (Kind::C2C, Precision::Single),
            (R_32F, C_32F, C_32F) => (Kind::R2C, Precision::Single),
            (C_32F, R_32F, C_32F) => (Kind::C2R, Precision::Single),
            (C_64F, C_64F, C_64F) => (Kind::C2C, Precision::Double),
            (R_64F, C_64F, C_64F) => (Kind::R2C, Precision::Double),
            (C_64F, R_64F, C_64F) => (Kind::C2R, Precision::Double),
            _ => {
                let half = [R_16F, C_16F, R_16BF, C_16BF];
                if half.contains(&input) || half.contains(&output) || half.contains(&execution) {
                    return Err(CUFFT_NOT_SUPPORTED);
                }
                return Err(CUFFT_INVALID_TYPE);
            }
        };
        Ok(FftType { kind, precision })
    }
}

/// A transform's direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Forward,
    Inverse,
}

impl Direction {
    /// `CUFFT_FORWARD` or `CUFFT_INVERSE`; `None` for any other value.
    pub fn from_c(value: c_int) -> Option<Direction> {
        match value {
            CUFFT_FORWARD => Some(Direction::Forward),
            CUFFT_INVERSE => Some(Direction::Inverse),
            _ => None,
        }
    }
}
