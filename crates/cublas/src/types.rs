//! cuBLAS's C enums (`cublas_api.h`, `library_types.h`) as checked Rust values.

use crate::status::{fail, BlasResult, INVALID_VALUE};

/// `cublasOperation_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    N,
    T,
    C,
}

impl Op {
    pub fn from_c(v: i32) -> BlasResult<Op> {
        match v {
            0 => Ok(Op::N),
            1 => Ok(Op::T),
            2 => Ok(Op::C),
            // CUBLAS_OP_CONJG (3) is documented for a few routines only.
            _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasOperation_t {v}"))),
        }
    }

    /// The BLAS character.
    pub fn blas(self) -> u8 {
        match self {
            Op::N => b'N',
            Op::T => b'T',
            Op::C => b'C',
        }
    }
}

/// `cublasFillMode_t` (LOWER 0, UPPER 1; FULL 2 is accepted by no BLAS routine here).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Fill {
    Lower,
    Upper,
}

impl Fill {
    pub fn from_c(v: i32) -> BlasResult<Fill> {
        match v {
            0 => Ok(Fill::Lower),
            1 => Ok(Fill::Upper),
            _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasFillMode_t {v}"))),
        }
    }

    pub fn blas(self) -> u8 {
        match self {
            Fill::Lower => b'L',
            Fill::Upper => b'U',
        }
    }
}

/// `cublasSideMode_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Side {
    Left,
    Right,
}

impl Side {
    pub fn from_c(v: i32) -> BlasResult<Side> {
        match v {
            0 => Ok(Side::Left),
            1 => Ok(Side::Right),
            _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasSideMode_t {v}"))),
        }
    }

    pub fn blas(self) -> u8 {
        match self {
            Side::Left => b'L',
            Side::Right => b'R',
        }
    }
}

/// `cublasDiagType_t`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Diag {
    NonUnit,
    Unit,
}

impl Diag {
    pub fn from_c(v: i32) -> BlasResult<Diag> {
        match v {
            0 => Ok(Diag::NonUnit),
            1 => Ok(Diag::Unit),
            _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasDiagType_t {v}"))),
        }
    }

    pub fn blas(self) -> u8 {
        match self {
            Diag::NonUnit => b'N',
            Diag::Unit => b'U',
        }
    }
}

/// `cublasPointerMode_t`: where scalar arguments and scalar results live.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PointerMode {
    Host,
    Device,
}

impl PointerMode {
    pub fn from_c(v: i32) -> BlasResult<PointerMode> {
        match v {
            0 => Ok(PointerMode::Host),
            1 => Ok(PointerMode::Device),
            _ => Err(fail(INVALID_VALUE, format_args!("invalid cublasPointerMode_t {v}"))),
        }
    }
}

/// `cudaDataType_t` values the GEMM extensions take (`library_types.h`).
pub mod data_type {
    pub const R_16F: i32 = 2;
    pub const C_16F: i32 = 6;
    pub const R_16BF: i32 = 14;
    pub const C_16BF: i32 = 15;
    pub const R_32F: i32 = 0;
    pub const C_32F: i32 = 4;
    pub const R_64F: i32 = 1;
    pub const C_64F: i32 = 5;
    pub const R_8I: i32 = 3;
    pub const R_32I: i32 = 10;
}

/// `cublasComputeType_t` values, and the `cudaDataType_t` values that cuBLAS 10's
/// `cublasGemmEx` took as compute types (still accepted for them).
pub mod compute_type {
    pub const COMPUTE_16F: i32 = 64;
    pub const COMPUTE_16F_PEDANTIC: i32 = 65;
    pub const COMPUTE_32F: i32 = 68;
    pub const COMPUTE_32F_PEDANTIC: i32 = 69;
    pub const COMPUTE_32F_FAST_16F: i32 = 74;
    pub const COMPUTE_32F_FAST_16BF: i32 = 75;
    pub const COMPUTE_32F_FAST_TF32: i32 = 77;
    pub const COMPUTE_64F: i32 = 70;
    pub const COMPUTE_64F_PEDANTIC: i32 = 71;
    pub const COMPUTE_32I: i32 = 72;
    pub const COMPUTE_32I_PEDANTIC: i32 = 73;
}
