//! Gives the cdylib the soname `libnvidia-ml.so.1` (what NVIDIA's driver installs and what
//! clients dlopen: PyTorch, tensorpipe, pynvml); scripts/build.sh links it under that name.
fn main() {
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libnvidia-ml.so.1");
}
