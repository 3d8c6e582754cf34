//! Gives the cdylib the soname `libnvrtc.so.13` (NVRTC 13's; clients dlopen it under
//! that name, or as libnvrtc.so / libnvrtc.so.12 through links made by scripts/build.sh).
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnvrtc.so.13");
    // Find libclang-cpp and libLLVM-19 where Debian installs them, also when loaded by
    // programs that do not set LD_LIBRARY_PATH.
    println!("cargo:rustc-cdylib-link-arg=-Wl,-rpath,/usr/lib/llvm-19/lib");
}
