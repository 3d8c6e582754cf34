//! Gives the cdylib the soname `libcurand.so.10` (cuRAND 10's, which CUDA 12 and 13 ship;
//! clients link or dlopen it under that name through the link made by scripts/build.sh).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcurand.so.10");
}
