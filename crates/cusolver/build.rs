//! Gives the cdylib the soname `libcusolver.so.12` (cuSOLVER's in CUDA 13; clients of
//! CUDA 12 load it as libcusolver.so.11, a link scripts/build.sh makes).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcusolver.so.12");
}
