//! Data-driven tests: each file holds tables of cases run through one `check` helper.
//!
//! Containers, wrappers and ELF files are synthesised by [`builder`]; `fixtures/` holds a
//! few real nvcc outputs as golden inputs. Nothing here needs CUDA to be installed.

mod builder;
mod container_tests;
mod elf_tests;
mod extract_tests;
mod fixture_tests;
mod pointer_tests;
mod select_tests;

use crate::{FatbinEntry, ImageError};

/// The expected outcome of one case.
#[derive(Debug)]
enum Expect {
    /// Success, rendered by the file's render function and compared exactly.
    Ok(&'static str),
    /// Failure with this CUDA code and a message containing this text.
    Err(u32, &'static str),
}

/// Compares a result against an expectation, naming the case on failure.
fn check<T>(name: &str, result: Result<T, ImageError>, render: impl Fn(&T) -> String, expect: &Expect) {
    match (result, expect) {
        (Ok(value), Expect::Ok(want)) => {
            let got = render(&value);
            assert_eq!(got.trim(), want.trim(), "case `{name}`: rendered result differs");
        }
        (Err(err), Expect::Err(code, fragment)) => {
            let message = err.to_string();
            assert_eq!(err.cuda_error_code(), *code, "case `{name}`: wrong code for `{message}`");
            assert!(message.contains(fragment), "case `{name}`: `{message}` lacks `{fragment}`");
        }
        (Ok(value), Expect::Err(..)) => {
            panic!("case `{name}`: expected {expect:?}, got Ok:\n{}", render(&value))
        }
        (Err(err), Expect::Ok(_)) => panic!("case `{name}`: expected success, got error `{err}`"),
    }
}

/// One line per entry: kind, arch, ISA, compression, container, and the payload (PTX as
/// escaped text, anything else by length).
fn render_entries(entries: &[FatbinEntry]) -> String {
    let mut out = String::new();
    for entry in entries {
        let isa = entry.ptx_isa.map_or("-".to_owned(), |(major, minor)| format!("{major}.{minor}"));
        let payload = match entry.kind {
            crate::EntryKind::Ptx => format!("{:?}", String::from_utf8_lossy(&entry.payload)),
            _ => format!("{} bytes", entry.payload.len()),
        };
        out.push_str(&format!("{:?} sm={} isa={isa} {:?} c{} {payload}\n", entry.kind, entry.sm_arch, entry.compression, entry.container_index));
    }
    out
}

#[test]
fn error_codes_map_to_cuda_results() {
    let cases = [
        (ImageError::Null, 1),
        (ImageError::Invalid("x".into()), 200),
        (ImageError::NoBinaryForGpu("x".into()), 209),
        (ImageError::UnsupportedPtxVersion("x".into()), 222),
    ];
    for (err, code) in cases {
        assert_eq!(err.cuda_error_code(), code, "{err:?}");
    }
}

/// Every source file opens with a `//!` paragraph and stays under 500 lines.
#[test]
fn tidy_source_files() {
    fn visit(dir: &std::path::Path, found: &mut Vec<std::path::PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                visit(&path, found);
            } else if path.extension().is_some_and(|ext| ext == "rs") {
                found.push(path);
            }
        }
    }
    let mut files = Vec::new();
    visit(&std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("src"), &mut files);
    assert!(files.len() >= 10, "{files:?}");
    for path in files {
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("//! "), "{} must open with a //! doc paragraph", path.display());
        assert!(text.lines().count() < 500, "{} is over 500 lines", path.display());
    }
}
