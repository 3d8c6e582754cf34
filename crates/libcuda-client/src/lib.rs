//! The common ground of our math libraries (`libcublas`, `libcurand`, `libcufft`).
//!
//! A library reaches the driver only through libcuda's public C API, opened at run time
//! ([`driver`]), so it shares the process's contexts, streams and allocations with the
//! program. On devices whose memory the host can address (the CPU device: the driver
//! reports `CU_POINTER_ATTRIBUTE_HOST_POINTER` for device allocations), a library call
//! becomes host work queued on the caller's stream ([`queue`]) over host views of the
//! operands' device ranges ([`access`]). [`boundary`] is the panic firewall of the
//! libraries' C exports.

pub mod access;
pub mod boundary;
pub mod driver;
pub mod queue;

pub use access::{host_range, AccessError, Host};
pub use driver::{driver, CUresult, CUstream, Libcuda};
pub use queue::{enqueue, synchronize};

/// Whether `LIBCUDA_LOG` asks for diagnostics (the driver's switch serves the libraries
/// too: one variable tells a user why any call of our stack failed).
pub fn log_enabled() -> bool {
    static ENABLED: std::sync::OnceLock<bool> = std::sync::OnceLock::new();
    *ENABLED.get_or_init(|| std::env::var_os("LIBCUDA_LOG").is_some_and(|v| !v.is_empty() && v != "0"))
}

/// `log!(lib, "format", args...)`: one `[lib] message` line on stderr when `LIBCUDA_LOG`
/// is set; arguments are not evaluated otherwise.
#[macro_export]
macro_rules! log {
    ($lib:expr, $($arg:tt)*) => {
        if $crate::log_enabled() {
            eprintln!("[{}] {}", $lib, format_args!($($arg)*));
        }
    };
}
