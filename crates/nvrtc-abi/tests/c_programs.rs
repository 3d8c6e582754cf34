//! C and C++ programs against our libnvrtc.so and nvrtc.h: built with the system compiler,
//! linked to the cdylib cargo built for this crate, run, expected to print PASS.
//! The driver program needs our libcuda.so (crate cuda-abi): it is found in the target
//! directory when the workspace is built (scripts/test.sh does); otherwise that part is
//! skipped with a message.

use std::path::{Path, PathBuf};
use std::process::Command;

fn deps_dir() -> PathBuf {
    std::env::current_exe().unwrap().parent().unwrap().to_path_buf()
}

fn include_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../include")
}

/// The system compiler (`cc`/`c++`), or `$CC`/`$CXX`, with the words of
/// `$C_PROGRAMS_CFLAGS` added: scripts/sanitizers.sh builds the programs with clang and
/// `-fsanitize=...`, since the instrumented library needs the sanitizer's runtime.
fn build(src: &str, cxx: bool, out: &Path) {
    let compiler = std::env::var(if cxx { "CXX" } else { "CC" }).unwrap_or_else(|_| (if cxx { "c++" } else { "cc" }).to_string());
    let flags = std::env::var("C_PROGRAMS_CFLAGS").unwrap_or_default();
    let dir = deps_dir();
    // The library's soname is libnvrtc.so.13 (what the program will ask the loader for).
    let link = dir.join("libnvrtc.so.13");
    if !link.exists() {
        let _ = std::os::unix::fs::symlink("libnvrtc.so", &link);
    }
    let st = Command::new(&compiler)
        .args(flags.split_whitespace())
        .arg(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/c").join(src))
        .arg("-I")
        .arg(include_dir())
        .arg("-L")
        .arg(&dir)
        .arg(format!("-Wl,-rpath,{}", dir.display()))
        .args(["-lnvrtc", "-ldl", "-o"])
        .arg(out)
        .status()
        .expect("a C compiler (cc/c++)");
    assert!(st.success(), "building {src} failed");
}

fn run(exe: &Path, args: &[&Path]) -> String {
    // The CPU device reports compute capability 8.6 unless told otherwise.
    let out = Command::new(exe).args(args).env("EXPECT_DEFAULT_TARGET", ".target sm_86").env_remove("CUDA_CPU_COMPUTE_CAPABILITY").output().unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout).into_owned();
    assert!(out.status.success(), "{} failed:\n{}{}", exe.display(), stdout, String::from_utf8_lossy(&out.stderr));
    stdout
}

#[test]
fn c_program_compiles_loads_and_launches() {
    if !deps_dir().join("libnvrtc.so").exists() {
        eprintln!("SKIPPED: libnvrtc.so not built next to the tests");
        return;
    }
    let exe = deps_dir().join("nvrtc_driver_c");
    build("nvrtc_driver.c", false, &exe);
    let libcuda = [deps_dir().join("../libcuda.so"), deps_dir().join("libcuda.so")].into_iter().find(|p| p.exists());
    let Some(libcuda) = libcuda else {
        eprintln!("SKIPPED: libcuda.so (crate cuda-abi) not built in this target directory");
        return;
    };
    let out = run(&exe, &[&libcuda]);
    assert!(out.starts_with("PASS _Z4axpbIfEvPT_S0_i"), "{out}");
}

#[test]
fn cxx_type_names_for_name_expressions() {
    if !deps_dir().join("libnvrtc.so").exists() {
        eprintln!("SKIPPED: libnvrtc.so not built next to the tests");
        return;
    }
    let exe = deps_dir().join("nvrtc_type_name_cxx");
    build("type_name.cpp", true, &exe);
    assert_eq!(run(&exe, &[]).trim(), "PASS kernel<double>");
}
