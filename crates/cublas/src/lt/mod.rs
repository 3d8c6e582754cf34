//! cuBLASLt (`cublasLt.h`): descriptors ([`attrs`]), `cublasLtMatmul` with its epilogues
//! ([`matmul`]) and the C exports ([`exports`]). It lives in libcublas, whose
//! `libcublasLt` names lead to the same file (NVIDIA's libcublas depends on libcublasLt;
//! one library serves both here).

pub mod attrs;
pub mod exports;
pub mod matmul;
