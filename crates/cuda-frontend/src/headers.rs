//! The device headers of `include/`, embedded at build time (see build.rs).

include!(concat!(env!("OUT_DIR"), "/builtin_headers.rs"));

/// The header every compile includes first (NVRTC's implicit built-ins).
pub const PRELUDE: &str = "__nvrtc_prelude.h";
