//! The CPU device's dense linear algebra for our math libraries (`libcublas`,
//! `libcusolver`): OpenBLAS's BLAS and LAPACK entry points opened at run time
//! ([`openblas`]), and the element types `s`, `d`, `c`, `z` over them ([`elem`]).
//! Knows nothing of CUDA: callers hand it host memory.

pub mod elem;
pub mod lapack;
pub mod level2;
pub mod lu;
pub mod openblas;

pub use elem::{Arith, Elem, C32, C64};
pub use openblas::{openblas, OpenBlas, Routines};
