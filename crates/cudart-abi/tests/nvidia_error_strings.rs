//! Cross-check of `cudaGetErrorName`/`cudaGetErrorString` against NVIDIA's runtime, when
//! the project's Python environment has it (`.venv`, the nvidia-cuda-runtime wheels that
//! scripts/bootstrap.sh installs to build the ctests). Every code from 0 to 1100 must give
//! the same two strings. Without the wheel the test says so and passes.

use std::ffi::{c_char, CStr};
use std::path::PathBuf;

type ErrorText = unsafe extern "C" fn(u32) -> *const c_char;

/// NVIDIA's libcudart.so.13 / .12 in `.venv`, if installed.
fn nvidia_runtimes() -> Vec<PathBuf> {
    let venv_lib = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../.venv/lib");
    let Ok(entries) = std::fs::read_dir(&venv_lib) else { return Vec::new() };
    let mut found = Vec::new();
    for entry in entries.flatten() {
        let nvidia = entry.path().join("site-packages/nvidia");
        for rel in ["cu13/lib/libcudart.so.13", "cuda_runtime/lib/libcudart.so.12"] {
            let path = nvidia.join(rel);
            if path.exists() {
                found.push(path);
            }
        }
    }
    found
}

fn text(f: ErrorText, code: u32) -> String {
    // SAFETY: both runtimes return a static NUL-terminated string for any code.
    unsafe { CStr::from_ptr(f(code)) }.to_string_lossy().into_owned()
}

#[test]
fn names_and_texts_match_nvidias_runtime() {
    let runtimes = nvidia_runtimes();
    if runtimes.is_empty() {
        eprintln!("NVIDIA's libcudart is not in .venv: cross-check skipped");
        return;
    }
    for path in runtimes {
        // SAFETY: loading NVIDIA's runtime runs its initializers, which touch no driver.
        let lib = unsafe { libloading::Library::new(&path) }.expect("load NVIDIA's libcudart");
        // SAFETY: the documented signatures.
        let (name, string) =
            unsafe { (*lib.get::<ErrorText>(b"cudaGetErrorName\0").unwrap(), *lib.get::<ErrorText>(b"cudaGetErrorString\0").unwrap()) };
        for code in 0..=1100u32 {
            let ours = cudart::error::CudaError(code);
            assert_eq!(ours.name(), text(name, code), "cudaGetErrorName({code}) vs {}", path.display());
            assert_eq!(ours.text(), text(string, code), "cudaGetErrorString({code}) vs {}", path.display());
        }
    }
}
