//! Tests of `cuGetProcAddress`: every measured request resolves to the symbol the
//! request lists name, through the C entry point, plus the edge cases.

use std::ffi::{c_void, CString};

use super::*;
use crate::types::CUresult;

const LISTS: &[(&str, &str)] = &[
    ("cudart12", include_str!("../../data/cudart12-getprocaddress-requests.txt")),
    ("cudart13", include_str!("../../data/cudart13-getprocaddress-requests.txt")),
    ("extra", include_str!("../../data/extra-variants.txt")),
];

/// `(name, version, flags, expected symbol)` for every request line.
fn requests() -> Vec<(String, i32, u64, String)> {
    let mut out = Vec::new();
    for (list, text) in LISTS {
        for line in text.lines().map(str::trim).filter(|l| !l.is_empty() && !l.starts_with('#')) {
            let (request, symbol) = line.split_once("->").unwrap_or_else(|| panic!("{list}: {line}"));
            let fields: Vec<&str> = request.split_whitespace().collect();
            let name = if fields[0] == "(empty)" { String::new() } else { fields[0].to_string() };
            out.push((name, fields[1].parse().unwrap(), fields[2].parse().unwrap(), symbol.trim().to_string()));
        }
    }
    out
}

/// Calls the exported `cuGetProcAddress_v2`.
fn query(name: &str, version: i32, flags: u64) -> (CUresult, *mut c_void, i32) {
    let name = CString::new(name).unwrap();
    let mut pfn = 0x1234 as *mut c_void;
    let mut status = -1;
    // SAFETY: valid string and out-pointers.
    let res = unsafe { cuGetProcAddress_v2(name.as_ptr(), &mut pfn, version, flags, &mut status) };
    (res, pfn, status)
}

#[test]
fn every_listed_request_resolves_to_its_symbol() {
    let mut checked = 0;
    for (name, version, flags, expected) in requests() {
        let (res, pfn, status) = query(&name, version, flags);
        if name.is_empty() {
            // The `(empty) 0 0` probe cudart makes first.
            // NVIDIA's driver 580 answers success with the status (H200, 2026-11-28).
            assert_eq!((res, pfn, status), (CUresult::SUCCESS, std::ptr::null_mut(), 1));
            continue;
        }
        let sym = symbol(&expected).unwrap_or_else(|| panic!("{expected} is not exported"));
        assert_eq!(res, CUresult::SUCCESS, "{name} {version} {flags}");
        assert_eq!(status, 0);
        assert_eq!(pfn as *const (), sym.addr.0, "{name} {version} {flags} should be {expected}");
        checked += 1;
    }
    assert!(checked > 900, "only {checked} requests checked");
}

#[test]
fn symbols_are_sorted_unique_and_non_null() {
    let table = symbols();
    assert!(table.windows(2).all(|w| w[0].name < w[1].name));
    assert!(table.iter().all(|s| !s.addr.0.is_null()));
    let apis = apis();
    assert!(apis.windows(2).all(|w| w[0].name < w[1].name));
    assert!(apis.iter().all(|a| !a.variants.is_empty()));
}

#[test]
fn edge_cases() {
    let null = std::ptr::null_mut();
    // Unknown name.
    assert_eq!(query("cuNoSuchThing", 13000, 0), (CUresult::SUCCESS, null, 1));
    // A suffixed name is not an API name.
    assert_eq!(query("cuMemAlloc_v2", 13000, 0), (CUresult::SUCCESS, null, 1));
    // Known name, every variant too new.
    assert_eq!(query("cuGetProcAddress", 11020, 0), (CUresult::SUCCESS, null, 2));
    assert_eq!(query("cuMemAllocAsync", 11010, 0), (CUresult::SUCCESS, null, 2));
    // Before CUDA 3.2, the 32-bit-pointer ABI of the plain name.
    let (res, pfn, _) = query("cuMemAlloc", 3010, 0);
    assert_eq!((res, pfn as *const ()), (CUresult::SUCCESS, symbol("cuMemAlloc").unwrap().addr.0));
    // A newer request than any variant gets the newest.
    let (res, pfn, _) = query("cuMemAlloc", 99_999, 0);
    assert_eq!((res, pfn as *const ()), (CUresult::SUCCESS, symbol("cuMemAlloc_v2").unwrap().addr.0));
    let (_, pfn, _) = query("cuCtxGetDevice", 12090, 0);
    assert_eq!(pfn as *const (), symbol("cuCtxGetDevice").unwrap().addr.0);
    // Per-thread flags without a per-thread variant: the plain one.
    let (res, pfn, _) = query("cuMemAlloc", 13000, proc_address_flags::PER_THREAD_DEFAULT_STREAM);
    assert_eq!((res, pfn as *const ()), (CUresult::SUCCESS, symbol("cuMemAlloc_v2").unwrap().addr.0));
    // Per-thread flags older than the per-thread variant: the plain one.
    let (_, pfn, _) = query("cuMemcpyHtoD", 3020, proc_address_flags::PER_THREAD_DEFAULT_STREAM);
    assert_eq!(pfn as *const (), symbol("cuMemcpyHtoD_v2").unwrap().addr.0);
    // Legacy-stream flag is the default form.
    let (_, pfn, _) = query("cuLaunchKernel", 13000, proc_address_flags::LEGACY_STREAM);
    assert_eq!(pfn as *const (), symbol("cuLaunchKernel").unwrap().addr.0);
    let (_, pfn, _) = query("cuLaunchKernel", 13000, proc_address_flags::PER_THREAD_DEFAULT_STREAM);
    assert_eq!(pfn as *const (), symbol("cuLaunchKernel_ptsz").unwrap().addr.0);
}

#[test]
fn null_arguments() {
    let name = CString::new("cuInit").unwrap();
    let mut pfn = std::ptr::null_mut();
    // SAFETY: NULL pointers are what is being tested; the rest is valid.
    unsafe {
        assert_eq!(cuGetProcAddress_v2(name.as_ptr(), std::ptr::null_mut(), 13000, 0, std::ptr::null_mut()), CUresult::ERROR_INVALID_VALUE);
        assert_eq!(cuGetProcAddress_v2(std::ptr::null(), &mut pfn, 13000, 0, std::ptr::null_mut()), CUresult::ERROR_INVALID_VALUE);
        // symbolStatus is optional.
        assert_eq!(cuGetProcAddress_v2(name.as_ptr(), &mut pfn, 13000, 0, std::ptr::null_mut()), CUresult::SUCCESS);
        assert!(!pfn.is_null());
        // The v1 form has no status argument.
        pfn = std::ptr::null_mut();
        assert_eq!(cuGetProcAddress(name.as_ptr(), &mut pfn, 13000, 0), CUresult::SUCCESS);
        assert_eq!(pfn as *const (), symbol("cuInit").unwrap().addr.0);
    }
}

#[test]
fn stubs_answer_not_supported() {
    let stub = symbols().iter().find(|s| !s.implemented && s.name == "cuVDPAUGetDevice").expect("cuVDPAUGetDevice is a stub");
    // SAFETY: stubs take no parameters and return a CUresult.
    let f: extern "C" fn() -> CUresult = unsafe { std::mem::transmute(stub.addr.0) };
    assert_eq!(f(), CUresult::ERROR_NOT_SUPPORTED);
    assert_eq!(f(), CUresult::ERROR_NOT_SUPPORTED);
}

#[test]
fn every_implemented_symbol_is_reachable_through_the_table() {
    let reachable: std::collections::HashSet<usize> = apis().iter().flat_map(|a| a.variants.iter().map(|v| v.symbol)).collect();
    let unreachable: Vec<&str> =
        symbols().iter().enumerate().filter(|(idx, s)| s.implemented && !reachable.contains(idx)).map(|(_, s)| s.name).collect();
    assert!(unreachable.is_empty(), "add these to data/extra-variants.txt: {unreachable:?}");
}

#[test]
fn the_minimum_set_is_implemented() {
    // shared/facts/cudart-driver-contract.md, "Minimum set".
    for name in [
        "cuGetProcAddress_v2",
        "cuGetExportTable",
        "cuInit",
        "cuDriverGetVersion",
        "cuDeviceGet",
        "cuDeviceGetCount",
        "cuDeviceGetName",
        "cuDeviceTotalMem_v2",
        "cuDeviceGetAttribute",
        "cuDeviceGetUuid",
        "cuDeviceGetUuid_v2",
        "cuDevicePrimaryCtxRetain",
        "cuCtxSetCurrent",
        "cuCtxGetCurrent",
        "cuCtxGetDevice_v2",
        "cuCtxSynchronize_v2",
        "cuLibraryLoadData",
        "cuLibraryGetKernel",
        "cuMemAlloc_v2",
        "cuMemFree_v2",
        "cuMemcpyHtoD_v2",
        "cuMemcpyDtoH_v2",
        "cuLaunchKernel",
    ] {
        assert!(symbol(name).is_some_and(|s| s.implemented), "{name} must be implemented");
    }
}

/// `ENTRY_POINTS.md` lists exactly which exported symbols are implemented and which answer
/// `CUDA_ERROR_NOT_SUPPORTED`. Regenerate with `UPDATE_ENTRY_POINTS=1 cargo test -p cuda-abi`.
#[test]
fn entry_point_list_is_current() {
    let (mut done, mut stubs) = (Vec::new(), Vec::new());
    for s in symbols() {
        if s.implemented {
            done.push(s.name)
        } else {
            stubs.push(s.name)
        }
    }
    let mut text = String::from(
        "# Driver entry points\n\n\
         Generated by `cargo test -p cuda-abi` (`UPDATE_ENTRY_POINTS=1` rewrites it); a test fails when it is stale.\n\n",
    );
    text.push_str(&format!("## Implemented ({})\n\n", done.len()));
    for n in &done {
        text.push_str(&format!("- `{n}`\n"));
    }
    text.push_str(&format!("\n## Answer CUDA_ERROR_NOT_SUPPORTED ({})\n\n", stubs.len()));
    for n in &stubs {
        text.push_str(&format!("- `{n}`\n"));
    }
    request_list_section(&mut text);
    let path = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("ENTRY_POINTS.md");
    if std::env::var_os("UPDATE_ENTRY_POINTS").is_some() {
        std::fs::write(&path, &text).unwrap();
    }
    let on_disk = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(on_disk == text, "{} is stale: run UPDATE_ENTRY_POINTS=1 cargo test -p cuda-abi", path.display());
}

/// The state of every name NVIDIA's cudart 13 asks `cuGetProcAddress` for (the measured
/// request list): implemented when every symbol it resolves to is.
fn request_list_section(text: &mut String) {
    let implemented: std::collections::HashMap<&str, bool> = symbols().into_iter().map(|s| (s.name, s.implemented)).collect();
    let mut names: std::collections::BTreeMap<&str, Vec<&str>> = std::collections::BTreeMap::new();
    for line in include_str!("../../data/cudart13-getprocaddress-requests.txt").lines() {
        let Some((request, symbol)) = line.split_once("->") else { continue };
        let name = request.split_whitespace().next().unwrap_or_default();
        if line.starts_with('#') || name == "(empty)" {
            continue;
        }
        names.entry(name).or_default().push(symbol.trim());
    }
    let state = |syms: &Vec<&str>| syms.iter().all(|s| implemented.get(s).copied().unwrap_or(false));
    let done = names.values().filter(|syms| state(syms)).count();
    text.push_str(&format!(
        "\n## The cudart 13 request list: {done} of {} names implemented ({:.1}%)\n\n",
        names.len(),
        100.0 * done as f64 / names.len().max(1) as f64
    ));
    for (name, syms) in &names {
        let mark = if state(syms) { "implemented" } else { "NOT_SUPPORTED" };
        text.push_str(&format!("- `{name}`: {mark}\n"));
    }
}
