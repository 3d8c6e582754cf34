//! `nvmlReturn_t`: NVIDIA's return codes (names and values of NVML's API reference) and
//! the texts `nvmlErrorString` gives them.

use std::ffi::{c_int, CStr};
use std::fmt;

/// `nvmlReturn_t`. Only the codes this library answers are variants; `nvmlErrorString`
/// takes any value (see [`text`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(C)]
pub enum Return {
    Success = 0,
    Uninitialized = 1,
    InvalidArgument = 2,
    NotSupported = 3,
    NotFound = 6,
    InsufficientSize = 7,
    DriverNotLoaded = 9,
    ArgumentVersionMismatch = 25,
    Unknown = 999,
}

/// What an export's body returns.
pub type NvmlResult<T = ()> = Result<T, Return>;

/// `nvmlErrorString(result)`: a static text for every documented code, and one for values
/// outside the enumeration.
pub fn text(code: c_int) -> &'static CStr {
    match code {
        0 => c"Success",
        1 => c"Uninitialized",
        2 => c"Invalid Argument",
        3 => c"Not Supported",
        4 => c"Insufficient Permissions",
        5 => c"Already Initialized",
        6 => c"Not Found",
        7 => c"Insufficient Size",
        8 => c"Insufficient External Power",
        9 => c"Driver Not Loaded",
        10 => c"Timeout",
        11 => c"Interrupt request issue",
        12 => c"NVML Shared Library Not Found",
        13 => c"Function Not Found",
        14 => c"Corrupted infoROM",
        15 => c"GPU is lost",
        16 => c"GPU requires restart",
        17 => c"The operating system has blocked the request.",
        18 => c"RM has detected an NVML/RM version mismatch.",
        19 => c"In use by another client",
        20 => c"Insufficient Memory",
        21 => c"No data",
        22 => c"The requested vgpu operation is not available on target device, because ECC is enabled",
        23 => c"Insufficient resources",
        24 => c"Frequency not supported",
        25 => c"Argument version mismatch",
        26 => c"Deprecated",
        27 => c"Not ready",
        28 => c"GPU not found",
        29 => c"Invalid state",
        999 => c"Unknown Error",
        _ => c"Unknown Error",
    }
}

impl fmt::Display for Return {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} ({})", text(*self as c_int).to_string_lossy(), *self as c_int)
    }
}

/// `Err(code)` with one `[nvml] ...` line on stderr under `LIBCUDA_LOG` saying why.
pub fn fail<T>(code: Return, why: fmt::Arguments<'_>) -> NvmlResult<T> {
    libcuda_client::log!(crate::LIB, "{why}: {code}");
    Err(code)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_variant_has_its_own_text() {
        let all = [
            Return::Success,
            Return::Uninitialized,
            Return::InvalidArgument,
            Return::NotSupported,
            Return::NotFound,
            Return::InsufficientSize,
            Return::DriverNotLoaded,
            Return::ArgumentVersionMismatch,
            Return::Unknown,
        ];
        let texts: std::collections::HashSet<_> = all.iter().map(|r| text(*r as c_int)).collect();
        assert_eq!(texts.len(), all.len());
        assert_eq!(text(-5), text(999));
    }
}
