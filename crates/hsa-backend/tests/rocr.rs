//! The backend against Debian's real ROCr (`libhsa-runtime64-1`, installed by
//! scripts/bootstrap.sh) on a machine without an AMD GPU: no devices, quickly, and nothing
//! on stderr. Each probe runs in a child process (this test binary again, filtered to
//! `probe_child`) so its stderr can be checked and ROCr's state does not leak between
//! probes.

use std::process::Command;
use std::time::{Duration, Instant};

const ROCR: &str = "/usr/lib/x86_64-linux-gnu/libhsa-runtime64.so.1";

#[test]
fn probe_child() {
    if std::env::var_os("HSA_PROBE_CHILD").is_none() {
        return;
    }
    let t = Instant::now();
    let n = hsa_backend::devices().len();
    println!("DEVICES={n} MS={}", t.elapsed().as_millis());
}

/// Run `probe_child` with `env`; returns (stdout, stderr, wall time).
fn probe(env: &[(&str, &str)]) -> (String, String, Duration) {
    let mut cmd = Command::new(std::env::current_exe().unwrap());
    cmd.args(["probe_child", "--exact", "--nocapture", "--test-threads=1"]).env("HSA_PROBE_CHILD", "1");
    for v in ["HSA_BACKEND_DEBUG", "LIBCUDA_LOG", "HSA_RUNTIME_LIB"] {
        cmd.env_remove(v);
    }
    for (k, v) in env {
        cmd.env(k, v);
    }
    let t = Instant::now();
    let out = cmd.output().expect("run the probe");
    let took = t.elapsed();
    assert!(out.status.success(), "probe failed: {}", String::from_utf8_lossy(&out.stderr));
    (String::from_utf8_lossy(&out.stdout).into_owned(), String::from_utf8_lossy(&out.stderr).into_owned(), took)
}

fn has_amd_gpu() -> bool {
    std::path::Path::new("/dev/kfd").exists()
}

#[test]
fn real_rocr_without_a_gpu_reports_no_devices_quietly() {
    assert!(std::path::Path::new(ROCR).exists(), "{ROCR} is missing: install libhsa-runtime64-1 (scripts/bootstrap.sh)");
    let (stdout, stderr, took) = probe(&[]);
    if has_amd_gpu() {
        eprintln!("this machine has /dev/kfd: not checking for zero devices");
        return;
    }
    assert!(stdout.contains("DEVICES=0"), "{stdout}");
    assert_eq!(stderr, "", "ROCr or the backend printed to stderr");
    assert!(took < Duration::from_secs(10), "took {took:?}");
}

#[test]
fn the_debug_variable_says_why() {
    if has_amd_gpu() {
        return;
    }
    let (_, stderr, _) = probe(&[("HSA_BACKEND_DEBUG", "1")]);
    assert!(stderr.contains("hsa-backend: no AMD GPUs: hsa_init: HSA_STATUS_ERROR_OUT_OF_RESOURCES"), "{stderr}");
}

#[test]
fn a_missing_runtime_means_no_devices() {
    let (stdout, stderr, _) = probe(&[("HSA_RUNTIME_LIB", "/nonexistent/libhsa-runtime64.so.1")]);
    assert!(stdout.contains("DEVICES=0"), "{stdout}");
    assert_eq!(stderr, "");
    let (_, stderr, _) = probe(&[("HSA_RUNTIME_LIB", "/nonexistent/libhsa-runtime64.so.1"), ("HSA_BACKEND_DEBUG", "1")]);
    assert!(stderr.contains("cannot open /nonexistent/libhsa-runtime64.so.1"), "{stderr}");
}
