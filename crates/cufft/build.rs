//! Gives the cdylib the soname `libcufft.so.12` (cuFFT 12's, CUDA 13); scripts/build.sh also
//! links it as libcufft.so.11, the name CUDA 12 programs (and CuPy for CUDA 12) load.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcufft.so.12");
}
