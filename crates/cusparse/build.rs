//! Gives the cdylib the soname `libcusparse.so.12` (cuSPARSE's in CUDA 12 and 13).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcusparse.so.12");
}
