//! The one error type of this crate, [`ImageError`], and its mapping onto CUDA driver codes.
//!
//! Every variant corresponds to exactly one `CUresult`, so the driver can turn any failure
//! into a status with [`ImageError::cuda_error_code`] and log the message for the user.
//! The messages are written for the person who built the program: they say what the image
//! contained and, where possible, how to rebuild it.

/// `CUDA_ERROR_INVALID_VALUE`.
pub const CUDA_ERROR_INVALID_VALUE: u32 = 1;
/// `CUDA_ERROR_INVALID_IMAGE`.
pub const CUDA_ERROR_INVALID_IMAGE: u32 = 200;
/// `CUDA_ERROR_NO_BINARY_FOR_GPU`.
pub const CUDA_ERROR_NO_BINARY_FOR_GPU: u32 = 209;
/// `CUDA_ERROR_UNSUPPORTED_PTX_VERSION`.
pub const CUDA_ERROR_UNSUPPORTED_PTX_VERSION: u32 = 222;
/// `CUDA_ERROR_UNKNOWN`.
pub const CUDA_ERROR_UNKNOWN: u32 = 999;

/// Why an image could not be read or yielded no PTX to compile.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ImageError {
    /// The caller passed a null image pointer (the caller's fault).
    #[error("image pointer is null")]
    Null,
    /// The bytes are malformed: wrong magic, truncated or inconsistent headers, sizes that
    /// overflow the buffer, corrupt compressed data (the image producer's fault, or the
    /// caller passed something that is not an image).
    #[error("invalid kernel image: {0}")]
    Invalid(String),
    /// The image is well formed but holds nothing this device can run, typically only SASS
    /// (cubins) or only PTX for a newer architecture. The message names what was found.
    #[error("no binary for this device: {0}")]
    NoBinaryForGpu(String),
    /// The image holds PTX, but every PTX entry uses an ISA version newer than the PTX
    /// compiler supports.
    #[error("unsupported PTX version: {0}")]
    UnsupportedPtxVersion(String),
    /// A CUDA ELF image whose header names no architecture (`e_flags` 0): NVIDIA's driver
    /// answers `CUDA_ERROR_UNKNOWN` before it reads any section (driver 580).
    #[error("CUDA ELF image names no architecture: {0}")]
    NoArchitecture(String),
}

impl ImageError {
    /// The `CUresult` value the driver should return for this error.
    ///
    /// | variant | code |
    /// |---|---|
    /// | [`Null`](Self::Null) | `CUDA_ERROR_INVALID_VALUE` (1) |
    /// | [`Invalid`](Self::Invalid) | `CUDA_ERROR_INVALID_IMAGE` (200) |
    /// | [`NoBinaryForGpu`](Self::NoBinaryForGpu) | `CUDA_ERROR_NO_BINARY_FOR_GPU` (209) |
    /// | [`UnsupportedPtxVersion`](Self::UnsupportedPtxVersion) | `CUDA_ERROR_UNSUPPORTED_PTX_VERSION` (222) |
    /// | [`NoArchitecture`](Self::NoArchitecture) | `CUDA_ERROR_UNKNOWN` (999) |
    pub fn cuda_error_code(&self) -> u32 {
        match self {
            ImageError::Null => CUDA_ERROR_INVALID_VALUE,
            ImageError::Invalid(_) => CUDA_ERROR_INVALID_IMAGE,
            ImageError::NoBinaryForGpu(_) => CUDA_ERROR_NO_BINARY_FOR_GPU,
            ImageError::UnsupportedPtxVersion(_) => CUDA_ERROR_UNSUPPORTED_PTX_VERSION,
            ImageError::NoArchitecture(_) => CUDA_ERROR_UNKNOWN,
        }
    }

    /// Shorthand for [`ImageError::Invalid`] from anything string-like.
    pub(crate) fn invalid(msg: impl Into<String>) -> Self {
        ImageError::Invalid(msg.into())
    }
}
