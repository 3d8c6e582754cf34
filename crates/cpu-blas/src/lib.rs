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

/// Elements a column-major `rows` x `cols` matrix with leading dimension `ld` spans (0 for
/// an empty matrix).
pub fn matrix_elems(rows: i32, cols: i32, ld: i32) -> usize {
    if rows <= 0 || cols <= 0 {
        0
    } else {
        (cols as usize - 1) * ld as usize + rows as usize
    }
}
