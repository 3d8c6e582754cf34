//! Where the toolkit's pieces are: our headers and libraries beside this executable
//! (`CUDA_HOME` layout: `bin/nvcc`, `include/`, `lib64/`), clang 19 for the device and
//! host passes of `.cu` files, and the host compiler for everything else.

use std::path::{Path, PathBuf};

pub struct Toolkit {
    pub include: PathBuf,
    pub lib: PathBuf,
    /// clang++ 19: the CUDA language (both passes) is clang's.
    pub clang: String,
    /// LLVM's library directory beside that clang (its OpenMP runtime, libomp).
    pub llvm_lib: Option<PathBuf>,
}

/// `<llvm>/lib` for `<llvm>/bin/clang++`, through the links Debian puts on PATH.
fn llvm_lib_of(clang: &str) -> Option<PathBuf> {
    let path = if clang.contains('/') {
        PathBuf::from(clang)
    } else {
        let paths = std::env::var_os("PATH")?;
        std::env::split_paths(&paths).map(|d| d.join(clang)).find(|p| p.is_file())?
    };
    let lib = std::fs::canonicalize(path).ok()?.parent()?.parent()?.join("lib");
    lib.is_dir().then_some(lib)
}

/// The include directory is recognised by our runtime header; the library directory by
/// libcudart.
fn find_root(exe_dir: &Path) -> Option<(PathBuf, PathBuf)> {
    // An installed toolkit (bin/nvcc), or a build tree (target/<profile>/nvcc).
    for root in [exe_dir.join(".."), exe_dir.join("../..")] {
        let include = root.join("include");
        if include.join("cuda_runtime.h").is_file() {
            let lib = [root.join("lib64"), root.join("lib"), exe_dir.to_path_buf()]
                .into_iter()
                .find(|d| d.join("libcudart.so").exists())
                .unwrap_or_else(|| root.join("lib64"));
            return Some((normalize(&include), normalize(&lib)));
        }
    }
    None
}

/// `a/b/../c` as `a/c`, keeping symlinks as they are (a toolkit may be a tree of links).
fn normalize(p: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in p.components() {
        match c {
            std::path::Component::ParentDir if out.file_name().is_some() => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    out
}

fn on_path(name: &str) -> bool {
    std::env::var_os("PATH").is_some_and(|paths| std::env::split_paths(&paths).any(|d| d.join(name).is_file()))
}

impl Toolkit {
    /// Finds the toolkit around the running executable. `NVCC_CLANG` names another
    /// clang++ 19.
    pub fn locate() -> Result<Toolkit, String> {
        // The executable's own path first (a copy or hard link in bin/, or the build tree's
        // target/<profile>/nvcc a link resolves to); then the path it was invoked by, when
        // that names a directory at all: a bare `nvcc` found on PATH says nothing about
        // where it lives, and the working directory must not be taken for the toolkit.
        let exe = std::env::current_exe().map_err(|e| format!("cannot find this executable: {e}"))?;
        let invoked = std::env::args_os().next().map(PathBuf::from).filter(|p| p.components().count() > 1);
        let dirs = [exe.parent().map(Path::to_path_buf), invoked.and_then(|p| p.parent().map(Path::to_path_buf))];
        let (include, lib) = dirs
            .iter()
            .flatten()
            .find_map(|d| find_root(&std::fs::canonicalize(d).unwrap_or_else(|_| d.clone())))
            .ok_or_else(|| format!("cannot find the toolkit's include directory beside {}", exe.display()))?;
        let clang = match std::env::var("NVCC_CLANG") {
            Ok(c) if !c.is_empty() => c,
            _ if on_path("clang++-19") => "clang++-19".to_string(),
            _ if Path::new("/usr/lib/llvm-19/bin/clang++").is_file() => "/usr/lib/llvm-19/bin/clang++".to_string(),
            _ => return Err("clang++ 19 not found (install clang-19, or set NVCC_CLANG)".to_string()),
        };
        let llvm_lib = llvm_lib_of(&clang);
        Ok(Toolkit { include, lib, clang, llvm_lib })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn normalize_drops_parent_components() {
        let cases = [("/a/b/../c", "/a/c"), ("/a/b/../../c", "/c"), ("x/./y", "x/y"), ("../z", "../z")];
        for (input, want) in cases {
            assert_eq!(normalize(Path::new(input)), PathBuf::from(want), "{input}");
        }
    }
}
