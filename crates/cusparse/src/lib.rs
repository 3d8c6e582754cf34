pub mod kernels;
pub mod status;
pub const LIB: &str = "libcusparse";
