//! `include/cuda.h` declares exactly the entry points this library exports, with the
//! parameter lists the Rust exports take.
//!
//! The header is run through the C preprocessor (`$CC`, else `cc`) in the three ways a
//! program can see it: plainly, with `CUDA_API_PER_THREAD_DEFAULT_STREAM` (the `_ptds`/`_ptsz`
//! symbols) and with `__CUDA_API_VERSION_INTERNAL` (the legacy ABI). After preprocessing
//! every declaration has its exported name, so the union of the three is compared with the
//! exports both ways. A new export without a declaration, or a declaration of something
//! the library does not export (a program would fail to link), fails here.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

/// Exports the header leaves out on purpose.
const NOT_IN_CUDA_H: &[(&str, &str)] = &[
    // Declared by NVIDIA's interop headers (cudaGL.h, cudaEGL.h, cudaVDPAU.h), which need
    // the window system's types; cuda.h has none of them.
    ("cuGL", "OpenGL interop: cudaGL.h"),
    ("cuGraphicsGL", "OpenGL interop: cudaGL.h"),
    ("cuEGL", "EGL interop: cudaEGL.h"),
    ("cuGraphicsEGL", "EGL interop: cudaEGL.h"),
    ("cuGraphicsResourceGetMappedEglFrame", "EGL interop: cudaEGL.h"),
    ("cuVDPAU", "VDPAU interop: cudaVDPAU.h"),
    ("cuGraphicsVDPAU", "VDPAU interop: cudaVDPAU.h"),
    ("cuProfiler", "profiler control: cudaProfiler.h"),
    // Requested by newer cudart releases through cuGetProcAddress; no public header
    // declares them yet, so their signatures are unknown (they are stubs here).
    ("cuSubgrid", "newer than CUDA 13.2, undocumented"),
];

fn exception(name: &str) -> Option<&'static str> {
    NOT_IN_CUDA_H.iter().find(|(prefix, _)| name.starts_with(prefix)).map(|(_, why)| *why)
}

fn repo_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..").canonicalize().expect("repository root")
}

/// `(name, parameter count)` of every `CUresult cu...(...);` declaration cuda.h makes
/// under `defines`.
fn declarations(defines: &[&str]) -> BTreeMap<String, usize> {
    declarations_of("cuda.h", defines)
}

/// The same for `include/<header>`.
fn declarations_of(header: &str, defines: &[&str]) -> BTreeMap<String, usize> {
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".into());
    let root = repo_root();
    let out = Command::new(&cc)
        .args(["-E", "-P", "-x", "c", "-I"])
        .arg(root.join("include"))
        .args(defines.iter().map(|d| format!("-D{d}")))
        .arg(root.join("include").join(header))
        .output()
        .unwrap_or_else(|e| panic!("running {cc} (the C preprocessor this test needs): {e}"));
    assert!(out.status.success(), "{cc} -E include/{header} {defines:?}: {}", String::from_utf8_lossy(&out.stderr));
    let text = String::from_utf8(out.stdout).expect("UTF-8");
    let mut decls = BTreeMap::new();
    // Declarations start a statement with their return type; calls (inside the inline
    // wrapper) follow `return` and are not matched.
    let mut rest = text.as_str();
    while let Some(at) = rest.find("CUresult ") {
        let before = rest[..at].trim_end();
        rest = &rest[at + "CUresult ".len()..];
        if !(before.is_empty() || before.ends_with(';') || before.ends_with('}') || before.ends_with("))")) {
            continue;
        }
        let Some(open) = rest.find('(') else { break };
        let name = rest[..open].trim();
        if !name.starts_with("cu") || !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            continue;
        }
        let close = rest[open..].find(')').map(|i| open + i).expect("closing parenthesis");
        let params = rest[open + 1..close].trim();
        if !rest[close + 1..].trim_start().starts_with(';') {
            continue; // a definition (the inline wrapper), not an export
        }
        let count = if params == "void" { 0 } else { params.split(',').count() };
        if let Some(prev) = decls.insert(name.to_string(), count) {
            assert_eq!(prev, count, "{name} declared twice with different parameter counts");
        }
    }
    decls
}

/// Every declaration of cuda.h, over the three ways of including it.
fn all_declarations() -> BTreeMap<String, usize> {
    all_declarations_of("cuda.h")
}

/// Every declaration of `include/<header>`, over the three ways of including it.
fn all_declarations_of(header: &str) -> BTreeMap<String, usize> {
    let mut all = BTreeMap::new();
    for defines in [&[][..], &["CUDA_API_PER_THREAD_DEFAULT_STREAM"], &["__CUDA_API_VERSION_INTERNAL"]] {
        for (name, count) in declarations_of(header, defines) {
            if let Some(prev) = all.insert(name.clone(), count) {
                assert_eq!(prev, count, "{name}: parameter count differs between modes");
            }
        }
    }
    all
}

/// Parameter counts of the Rust exports, from their source (`fn cuXxx(...)` lines, the
/// forms `build.rs` recognises as implementations).
fn rust_param_counts() -> BTreeMap<String, usize> {
    fn scan(dir: &Path, out: &mut BTreeMap<String, usize>) {
        for entry in std::fs::read_dir(dir).expect("src directory") {
            let path = entry.expect("entry").path();
            if path.is_dir() {
                scan(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                let text = std::fs::read_to_string(&path).expect("source file");
                collect(&text, out);
            }
        }
    }
    fn collect(text: &str, out: &mut BTreeMap<String, usize>) {
        for (at, _) in text.match_indices("fn cu") {
            let line_start = text[..at].rfind('\n').map_or(0, |i| i + 1);
            let prefix = text[line_start..at].trim();
            if !(prefix.is_empty() || prefix == "pub unsafe extern \"C\"") {
                continue;
            }
            let rest = &text[at + 3..];
            let Some(open) = rest.find('(') else { continue };
            let name = &rest[..open];
            if !name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
                continue;
            }
            // The parameter list ends at the parenthesis that closes `(`.
            let mut depth = 0usize;
            let mut commas = 0usize;
            let mut empty = true;
            for c in rest[open..].chars() {
                match c {
                    '(' | '<' | '[' => depth += 1,
                    ')' | '>' | ']' if depth > 0 => {
                        depth -= 1;
                        if depth == 0 && c == ')' {
                            break;
                        }
                    }
                    ',' if depth == 1 => commas += 1,
                    c if depth >= 1 && !c.is_whitespace() => empty = false,
                    _ => {}
                }
            }
            // `-> T` inside a function-pointer type would count '>' as a close; the
            // exports' parameter types use type aliases for callbacks, so none occur.
            let trailing_comma = rest[open..].split(')').next().is_some_and(|s| s.trim_end().ends_with(','));
            let count = if empty { 0 } else { commas + 1 - usize::from(trailing_comma) };
            out.insert(name.to_string(), count);
        }
    }
    let mut out = BTreeMap::new();
    scan(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut out);
    out
}

#[test]
fn header_declares_every_export_and_nothing_else() {
    let declared = all_declarations();
    let exported: BTreeSet<&str> = cuda::proc_table::symbols().iter().map(|s| s.name).collect();
    assert!(exported.len() > 500, "only {} exports found", exported.len());

    let undeclared: Vec<&str> = exported.iter().copied().filter(|n| !declared.contains_key(*n) && exception(n).is_none()).collect();
    assert!(undeclared.is_empty(), "exported but not declared in include/cuda.h: {undeclared:?}");

    let not_exported: Vec<&String> = declared.keys().filter(|n| !exported.contains(n.as_str())).collect();
    assert!(not_exported.is_empty(), "declared in include/cuda.h but not exported (programs would not link): {not_exported:?}");

    let stale: Vec<&str> = exported.iter().copied().filter(|n| declared.contains_key(*n) && exception(n).is_some()).collect();
    assert!(stale.is_empty(), "listed as not in cuda.h but declared there; drop the exception: {stale:?}");
}

/// `include/cudaGL.h` (ours) declares exactly the OpenGL interop exports, with their
/// parameter counts; cuda.h leaves them out (they need GL's types).
#[test]
fn gl_header_declares_the_gl_exports() {
    let is_gl = |n: &str| n.starts_with("cuGL") || n.starts_with("cuGraphicsGL");
    let declared: BTreeMap<String, usize> = all_declarations_of("cudaGL.h").into_iter().filter(|(n, _)| is_gl(n)).collect();
    let exported: BTreeSet<&str> = cuda::proc_table::symbols().iter().map(|s| s.name).filter(|n| is_gl(n)).collect();
    let declared_names: BTreeSet<&str> = declared.keys().map(String::as_str).collect();
    assert_eq!(declared_names, exported, "cudaGL.h declarations against the cuGL*/cuGraphicsGL* exports");
    let rust = rust_param_counts();
    for (name, count) in &declared {
        assert_eq!(rust.get(name), Some(count), "{name}: parameter count in cudaGL.h and in the Rust export");
    }
}

/// `include/cudaEGL.h` (ours) declares exactly the EGL interop exports (the EGLStream
/// stubs included), with the implemented ones' parameter counts.
#[test]
fn egl_header_declares_the_egl_exports() {
    let is_egl = |n: &str| n.starts_with("cuEGL") || n.starts_with("cuGraphicsEGL") || n == "cuGraphicsResourceGetMappedEglFrame";
    let declared: BTreeMap<String, usize> = all_declarations_of("cudaEGL.h").into_iter().filter(|(n, _)| is_egl(n)).collect();
    let exported: BTreeSet<&str> = cuda::proc_table::symbols().iter().map(|s| s.name).filter(|n| is_egl(n)).collect();
    let declared_names: BTreeSet<&str> = declared.keys().map(String::as_str).collect();
    assert_eq!(declared_names, exported, "cudaEGL.h declarations against the EGL exports");
    let rust = rust_param_counts();
    for name in ["cuGraphicsEGLRegisterImage", "cuGraphicsResourceGetMappedEglFrame"] {
        assert_eq!(rust.get(name), declared.get(name), "{name}: parameter count in cudaEGL.h and in the Rust export");
    }
}

#[test]
fn header_parameter_counts_match_the_rust_exports() {
    let declared = all_declarations();
    let rust = rust_param_counts();
    let implemented: Vec<&str> = cuda::proc_table::symbols().iter().filter(|s| s.implemented).map(|s| s.name).collect();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for name in implemented {
        let Some(&c) = declared.get(name) else { continue };
        let r = *rust.get(name).unwrap_or_else(|| panic!("{name}: implemented, but its `fn` line was not found in src/"));
        checked += 1;
        if c != r {
            wrong.push(format!("{name}: cuda.h {c}, Rust {r}"));
        }
    }
    assert!(wrong.is_empty(), "parameter counts differ:\n{}", wrong.join("\n"));
    assert!(checked > 250, "only {checked} implemented exports compared");
}

#[test]
fn the_preprocessed_forms_bind_the_documented_names() {
    // The plain form binds the newest ABI, the per-thread form its _ptds/_ptsz symbol, and
    // the legacy form the original symbols.
    let plain = declarations(&[]);
    let ptds = declarations(&["CUDA_API_PER_THREAD_DEFAULT_STREAM"]);
    let legacy = declarations(&["__CUDA_API_VERSION_INTERNAL"]);
    for name in ["cuMemAlloc_v2", "cuMemcpyHtoD_v2", "cuLaunchKernel", "cuCtxCreate_v4", "cuStreamWaitValue32_v2"] {
        assert!(plain.contains_key(name), "{name} missing from the plain form");
    }
    assert!(!plain.contains_key("cuMemAllocHost"), "the plain form must not declare the legacy cuMemAllocHost");
    for name in ["cuMemcpyHtoD_v2_ptds", "cuLaunchKernel_ptsz", "cuMemcpyAsync_ptsz", "cuStreamWaitValue32_v2_ptsz"] {
        assert!(ptds.contains_key(name), "{name} missing from the per-thread form");
    }
    for name in ["cuMemAllocHost", "cuCtxCreate", "cuStreamGetCaptureInfo_v2", "cuStreamWaitValue32"] {
        assert!(legacy.contains_key(name), "{name} missing from the legacy form");
    }
    assert_eq!(plain["cuLaunchKernel"], 11);
    assert_eq!(legacy["cuMemAllocHost"], 2);
}
