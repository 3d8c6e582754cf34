//! Gives the cdylib the soname `libcublas.so.13` (cuBLAS 13's; clients linked against
//! cuBLAS 12 load it through the libcublas.so.12 link scripts/build.sh makes).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcublas.so.13");
}
