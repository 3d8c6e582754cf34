//! Build script for `libcudart.so.13`.
//!
//! Gives the cdylib its soname and two symbol-version nodes, `libcudart.so.12` and
//! `libcudart.so.13`. Programs linked against NVIDIA's runtime ask for versioned symbols
//! (`cudaMalloc@libcudart.so.13`); the dynamic linker accepts our unversioned (base)
//! definitions for them once the library defines the version they name, and without the
//! nodes it prints "no version information available" for every program.

use std::path::PathBuf;

fn main() {
    let out = PathBuf::from(std::env::var("OUT_DIR").expect("OUT_DIR"));
    let script = out.join("cudart.map");
    std::fs::write(&script, "libcudart.so.12 { };\nlibcudart.so.13 { } libcudart.so.12;\n").expect("write version script");
    println!("cargo:rustc-cdylib-link-arg=-Wl,-soname,libcudart.so.13");
    println!("cargo:rustc-cdylib-link-arg=-Wl,--version-script={}", script.display());
    println!("cargo:rerun-if-changed=build.rs");
}
