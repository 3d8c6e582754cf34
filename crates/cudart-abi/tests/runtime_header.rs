//! `include/cuda_runtime_api.h` (with `cuda_profiler_api.h` and `cuda_gl_interop.h`) declares exactly the functions
//! this library exports.
//!
//! The exports are read from the entry points' sources (`export!` blocks and `#[no_mangle]`
//! functions under `src/exports/`) and also from the dynamic symbol table of the
//! `libcudart.so` cargo built alongside this test, so that the source reading itself is
//! checked. The declarations are read from the header as the C preprocessor leaves it, with
//! and without `CUDA_API_PER_THREAD_DEFAULT_STREAM` (which renames declarations to their
//! `_ptds`/`_ptsz` entry points): every identifier followed by `(` outside any parenthesis
//! or brace is a declared function.

use std::collections::BTreeSet;
use std::path::{Path, PathBuf};
use std::process::Command;

/// Why the CUDA 12.3+ edge-data graph forms are exported but not declared.
const EDGE_DATA_V2: &str = "CUDA 12.3+ headers' edge-data form; CUDA 13's header gives the plain name that signature and declares no _v2";

/// Exports the header leaves out on purpose, with the reason.
const UNDECLARED_EXPORTS: &[(&str, &str)] = &[
    (
        "cudaGetDeviceProperties_v2",
        "CUDA 12's name, writing CUDA 12's cudaDeviceProp; our headers are CUDA 13's, whose \
         cudaGetDeviceProperties writes CUDA 13's layout",
    ),
    (
        "cudaStreamGetCaptureInfo_v2",
        "the symbol CUDA 12 headers bind cudaStreamGetCaptureInfo to (no edge data); CUDA 13's \
         header declares only cudaStreamGetCaptureInfo, with edge data",
    ),
    (
        "cudaStreamGetCaptureInfo_v3",
        "CUDA 12.3+'s name for the edge-data form; CUDA 13's header calls it \
         cudaStreamGetCaptureInfo and declares no _v3",
    ),
    ("cudaGraphAddDependencies_v2", EDGE_DATA_V2),
    ("cudaGraphRemoveDependencies_v2", EDGE_DATA_V2),
    ("cudaGraphGetEdges_v2", EDGE_DATA_V2),
    ("cudaGraphNodeGetDependencies_v2", EDGE_DATA_V2),
    ("cudaGraphNodeGetDependentNodes_v2", EDGE_DATA_V2),
    ("cudaGraphAddNode_v2", EDGE_DATA_V2),
    ("cudaStreamUpdateCaptureDependencies_v2", EDGE_DATA_V2),
    ("cudaStreamUpdateCaptureDependencies_v2_ptsz", EDGE_DATA_V2),
    (
        "cudaThreadSynchronize",
        "CUDA 12's deprecated alias of cudaDeviceSynchronize, for programs built with CUDA 12 headers; \
         CUDA 13's header dropped it",
    ),
    (
        "cudaThreadExit",
        "CUDA 12's deprecated alias of cudaDeviceReset, for programs built with CUDA 12 headers; \
         CUDA 13's header dropped it",
    ),
    (
        "cudaFuncSetSharedMemConfig",
        "deprecated shared-memory bank configuration: CUDA 13's header no longer declares it \
         for the host, NVIDIA's runtime 13 still exports it",
    ),
    (
        "cudaDeviceGetSharedMemConfig",
        "deprecated shared-memory bank configuration: CUDA 13's header no longer declares it \
         for the host, NVIDIA's runtime 13 still exports it",
    ),
    (
        "cudaDeviceSetSharedMemConfig",
        "deprecated shared-memory bank configuration: CUDA 13's header no longer declares it \
         for the host, NVIDIA's runtime 13 still exports it",
    ),
];

fn crate_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The C entry points defined in `src/exports/*.rs`.
fn exports_from_sources() -> BTreeSet<String> {
    let mut names = BTreeSet::new();
    let dir = crate_dir().join("src/exports");
    for entry in std::fs::read_dir(&dir).expect("src/exports") {
        let path = entry.expect("dir entry").path();
        if path.extension().is_some_and(|e| e == "rs") {
            names.extend(exports_in(&std::fs::read_to_string(&path).expect("read source")));
        }
    }
    names
}

/// Names of `fn`s inside `export! { ... }` and of `extern "C" fn`s after `#[no_mangle]`.
fn exports_in(source: &str) -> Vec<String> {
    let mut names = Vec::new();
    let mut macro_depth: Option<i32> = None;
    let mut no_mangle = false;
    for line in source.lines() {
        let t = line.trim();
        if macro_depth.is_none() && t.starts_with("export! {") {
            macro_depth = Some(0);
        }
        if let Some(depth) = macro_depth.as_mut() {
            if *depth == 1 && t.starts_with("fn ") {
                names.push(fn_name(&t[3..]));
            }
            *depth += line.matches('{').count() as i32 - line.matches('}').count() as i32;
            if *depth <= 0 {
                macro_depth = None;
            }
            continue;
        }
        if t == "#[no_mangle]" {
            no_mangle = true;
        } else if no_mangle && !t.starts_with("#[") && !t.starts_with("///") {
            if let Some(rest) = t.split("extern \"C\" fn ").nth(1) {
                names.push(fn_name(rest));
            }
            no_mangle = false;
        }
    }
    names
}

fn fn_name(rest: &str) -> String {
    rest.split(|c: char| !(c.is_alphanumeric() || c == '_')).next().unwrap_or_default().to_string()
}

/// The library cargo built with this test: `cargo test` compiles the crate's cdylib into
/// the test executable's own directory (`target/<profile>/deps/`) from the same sources.
fn built_library() -> Option<PathBuf> {
    let exe = std::env::current_exe().ok()?;
    let lib = exe.parent()?.join("libcudart.so");
    lib.is_file().then_some(lib)
}

fn dynamic_exports(lib: &Path) -> BTreeSet<String> {
    let out = Command::new("nm").args(["-D", "--defined-only"]).arg(lib).output().expect("run nm");
    assert!(out.status.success(), "nm -D {}: {}", lib.display(), String::from_utf8_lossy(&out.stderr));
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|l| {
            let mut f = l.split_whitespace();
            let (_, kind, name) = (f.next()?, f.next()?, f.next()?);
            let name = name.split('@').next()?;
            (kind == "T" && (name.starts_with("cuda") || name.starts_with("__cuda"))).then(|| name.to_string())
        })
        .collect()
}

/// The header after the C preprocessor, as a C compile sees it.
fn preprocessed_header(defines: &[&str]) -> String {
    let include = crate_dir().join("../../include");
    let cc = std::env::var("CC").unwrap_or_else(|_| "cc".to_string());
    let out = Command::new(&cc)
        .args(["-E", "-P", "-x", "c", "-std=c99"])
        .args(defines)
        .arg("-I")
        .arg(&include)
        // The OpenGL interop calls, declared in a header of their own as NVIDIA's are.
        .arg("-include")
        .arg(include.join("cuda_gl_interop.h"))
        // It includes cuda_runtime_api.h and adds the two profiler calls, which NVIDIA's
        // headers also declare only there.
        .arg(include.join("cuda_profiler_api.h"))
        .output()
        .unwrap_or_else(|e| panic!("run the C preprocessor `{cc}`: {e}"));
    assert!(out.status.success(), "{cc} -E cuda_runtime_api.h: {}", String::from_utf8_lossy(&out.stderr));
    String::from_utf8(out.stdout).expect("UTF-8 preprocessor output")
}

/// Functions declared at file scope: identifiers directly followed by `(` at parenthesis
/// and brace depth 0 (a function-pointer typedef's name sits inside parentheses; struct
/// members and enumerators inside braces).
fn declared_functions(text: &str) -> BTreeSet<String> {
    let bytes = text.as_bytes();
    let (mut parens, mut braces) = (0i32, 0i32);
    let mut names = BTreeSet::new();
    let mut i = 0;
    while i < bytes.len() {
        let c = bytes[i];
        if c.is_ascii_alphabetic() || c == b'_' {
            let start = i;
            while i < bytes.len() && (bytes[i].is_ascii_alphanumeric() || bytes[i] == b'_') {
                i += 1;
            }
            let mut j = i;
            while j < bytes.len() && bytes[j].is_ascii_whitespace() {
                j += 1;
            }
            let ident = &text[start..i];
            if parens == 0 && braces == 0 && j < bytes.len() && bytes[j] == b'(' && ident.contains("cuda") {
                names.insert(ident.to_string());
            }
            continue;
        }
        match c {
            b'(' => parens += 1,
            b')' => parens -= 1,
            b'{' => braces += 1,
            b'}' => braces -= 1,
            _ => {}
        }
        i += 1;
    }
    names
}

#[test]
fn source_scan_finds_both_kinds_of_export() {
    let src = "export! {\n    /// doc\n    fn cudaA(x: i32) {\n        if x { }\n    }\n\n    fn cudaB() {\n        Ok(())\n    }\n}\n\
               fn helper() {}\n#[no_mangle]\npub unsafe extern \"C\" fn __cudaC(h: *mut u8) {}\n";
    assert_eq!(exports_in(src), ["cudaA", "cudaB", "__cudaC"]);
    let decls = declared_functions(
        "typedef void (*cudaCb_t)(void *); struct s { int cudaField(int); }; \
         extern int cudaF(int a, void (*g)(void)); extern void ** __cudaG (void);",
    );
    assert_eq!(decls.into_iter().collect::<Vec<_>>(), ["__cudaG", "cudaF"]);
}

#[test]
fn header_declares_exactly_the_exports() {
    let exports = exports_from_sources();
    assert!(exports.len() > 100, "the source scan found only {} exports", exports.len());
    if let Some(lib) = built_library() {
        let dynamic = dynamic_exports(&lib);
        assert_eq!(exports, dynamic, "the export scan of src/exports disagrees with {}'s dynamic symbols", lib.display());
    }

    let mut declared = declared_functions(&preprocessed_header(&[]));
    declared.extend(declared_functions(&preprocessed_header(&["-DCUDA_API_PER_THREAD_DEFAULT_STREAM"])));
    declared.retain(|n| n.starts_with("cuda") || n.starts_with("__cuda"));

    let exempt: BTreeSet<String> = UNDECLARED_EXPORTS.iter().map(|(n, _)| n.to_string()).collect();
    for name in &exempt {
        assert!(exports.contains(name), "{name} is listed as an undeclared export but is not exported");
        assert!(!declared.contains(name), "{name} is listed as an undeclared export but is declared");
    }
    let undeclared: Vec<_> = exports.difference(&declared).filter(|n| !exempt.contains(*n)).collect();
    let unexported: Vec<_> = declared.difference(&exports).collect();
    assert!(
        undeclared.is_empty() && unexported.is_empty(),
        "include/cuda_runtime_api.h and libcudart's exports differ:\n  exported, not declared: {undeclared:?}\n  \
         declared, not exported: {unexported:?}"
    );
}
