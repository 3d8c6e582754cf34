//! Source rewrites for what nvcc accepts and clang's CUDA mode refuses (ARCHITECTURE.md,
//! "nvcc"): kernel launches in device code (dynamic parallelism) and `__managed__`
//! variables. A syntax-only device pass ("locate") reports each site with its position:
//! - `kernel<<<cfg>>>(args)` in device code: clang's error "reference to __global__
//!   function 'kernel' in __device__/__global__ function", at the kernel's name. It becomes
//!   `::__scale_device_launch<&kernel>(cfg)(args)` (`cuda_device_runtime_api.h`); any other
//!   reference to a kernel there becomes `::__scale_device_launch<&kernel>::__address`.
//! - a use of a `__managed__` variable: the deprecation warning our headers attach to them,
//!   at the variable's name. It becomes `__scale_managed_ref(var)`, wrapped in pragmas that
//!   silence that warning.
//!
//! Only sites in the compiled file itself are rewritten. The passes then read the rewritten
//! text through a clang VFS overlay under the file's own path, so that `#include "..."`,
//! `__FILE__`, diagnostics and `-MD` dependencies are the original file's. No line breaks
//! are added, so line numbers stay.

use std::path::Path;

/// What the locate pass found at one position of the compiled file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Site {
    /// A reference to a `__global__` function from device code.
    KernelReference { line: usize, col: usize },
    /// A call clang found no function for: a launch in device code of a kernel template or
    /// of the kernel itself (the global function is not a candidate there), rewritten only
    /// when the text is a launch.
    UnresolvedCall { line: usize, col: usize },
    /// A use of a `__managed__` variable.
    ManagedUse { line: usize, col: usize },
}

const KERNEL_REFERENCE: &str = ": error: reference to __global__ function '";
const UNRESOLVED_CALL: &str = ": error: no matching function for call to '";
const MANAGED_USE: &str = "' is deprecated: __managed__ variable";

/// The sites clang's diagnostics (`stderr` of the locate pass) report in `main`.
pub fn sites(stderr: &str, main: &Path) -> Vec<Site> {
    let main = canonical(main);
    let mut out = Vec::new();
    for line in stderr.lines() {
        let kernel = line.contains(KERNEL_REFERENCE);
        let unresolved = line.contains(UNRESOLVED_CALL);
        let managed = line.contains(": warning: '") && line.contains(MANAGED_USE);
        if !kernel && !unresolved && !managed {
            continue;
        }
        // `path:line:col: ...`; the path may itself contain ':'.
        let Some(head_end) = line.find(if managed { ": warning: " } else { ": error: " }) else { continue };
        let mut parts = line[..head_end].rsplitn(3, ':');
        let (Some(col), Some(ln), Some(path)) = (parts.next(), parts.next(), parts.next()) else { continue };
        let (Ok(col), Ok(ln)) = (col.parse::<usize>(), ln.parse::<usize>()) else { continue };
        if canonical(Path::new(path)) != main {
            continue;
        }
        let site = if kernel {
            Site::KernelReference { line: ln, col }
        } else if unresolved {
            Site::UnresolvedCall { line: ln, col }
        } else {
            Site::ManagedUse { line: ln, col }
        };
        if !out.contains(&site) {
            out.push(site);
        }
    }
    out
}

fn canonical(p: &Path) -> std::path::PathBuf {
    std::fs::canonicalize(p).unwrap_or_else(|_| p.to_path_buf())
}

/// The names of the managed variables the locate pass saw used (unqualified, as clang's
/// warning quotes them).
pub fn managed_names(stderr: &str) -> Vec<String> {
    let mut out: Vec<String> = Vec::new();
    for line in stderr.lines() {
        let Some(end) = line.find(MANAGED_USE) else { continue };
        let Some(start) = line[..end].rfind(": warning: '") else { continue };
        let name = &line[start + ": warning: '".len()..end];
        if !out.iter().any(|n| n == name) {
            out.push(name.to_string());
        }
    }
    out
}

/// `ptx` with the `.global` variables named `names` marked `.attribute(.managed)`, as
/// nvcc's PTX has them (PTX ISA 5.4.8): a variable in the global namespace by its name, one
/// in a namespace or class by the Itanium mangling's last component (`_ZN2ns4valsE`).
pub fn mark_managed(ptx: &str, names: &[String]) -> String {
    let mut out = String::with_capacity(ptx.len() + names.len() * 24);
    for line in ptx.split_inclusive('\n') {
        let managed = line.split_whitespace().take_while(|w| !w.starts_with('=')).any(|w| w == ".global")
            && !line.contains(".attribute(")
            && global_symbol(line)
                .is_some_and(|sym| names.iter().any(|n| sym == n || (sym.starts_with("_Z") && sym.ends_with(&format!("{}{n}E", n.len())))));
        if managed {
            out.push_str(&line.replacen(".global ", ".global .attribute(.managed) ", 1));
        } else {
            out.push_str(line);
        }
    }
    out
}

/// `ptx` with clang's `-fgpu-rdc` copies of `static` device variables joined up: clang
/// names the definition `NAME__static__<cuid>` (so other units cannot clash with it) and
/// keeps the kernels' references to `NAME` through an alias, which PTX does not have (the
/// NVPTX backend prints an `.extern` declaration of `NAME` instead). The references are
/// renamed to the definition and the declaration dropped.
pub fn join_static_copies(ptx: &str) -> String {
    let mut renames: Vec<(String, String)> = Vec::new();
    for line in ptx.lines() {
        let decl = line.trim_start();
        if decl.starts_with(".extern") || !(decl.contains(".global ") || decl.contains(".const ")) {
            continue;
        }
        if let Some(sym) = global_symbol(line) {
            if let Some(at) = sym.find("__static__") {
                renames.push((sym[..at].to_string(), sym.to_string()));
            }
        }
    }
    if renames.is_empty() {
        return ptx.to_string();
    }
    let mut out = String::with_capacity(ptx.len() + renames.len() * 32);
    for line in ptx.split_inclusive('\n') {
        let decl = line.trim_start();
        if decl.starts_with(".extern") && global_symbol(line).is_some_and(|sym| renames.iter().any(|(from, _)| from == sym)) {
            continue;
        }
        out.push_str(&rename_identifiers(line, &renames));
    }
    out
}

/// `line` with each whole identifier `from` replaced by `to`.
fn rename_identifiers(line: &str, renames: &[(String, String)]) -> String {
    let ident = |c: char| c.is_ascii_alphanumeric() || c == '_' || c == '$';
    let mut out = String::with_capacity(line.len());
    let mut rest = line;
    while !rest.is_empty() {
        let start = rest.find(ident).unwrap_or(rest.len());
        out.push_str(&rest[..start]);
        rest = &rest[start..];
        let end = rest.find(|c: char| !ident(c)).unwrap_or(rest.len());
        let word = &rest[..end];
        match renames.iter().find(|(from, _)| from == word) {
            Some((_, to)) => out.push_str(to),
            None => out.push_str(word),
        }
        rest = &rest[end..];
    }
    out
}

/// The variable a module-scope `.global` declaration line declares.
fn global_symbol(line: &str) -> Option<&str> {
    let decl = line.split(['=', ';']).next()?;
    let last = decl.split_whitespace().last()?;
    let name = last.split('[').next()?;
    (!name.is_empty() && !name.starts_with('.') && !name.starts_with('%')).then_some(name)
}

/// One replacement of `src[start..end]`.
#[derive(Debug)]
struct Edit {
    start: usize,
    end: usize,
    text: String,
}

/// `src` with every site rewritten. Sites whose text is not what their kind expects (a
/// macro expansion, say) are left alone: clang then reports them again in the real passes.
pub fn apply(src: &str, sites: &[Site]) -> String {
    let line_starts: Vec<usize> = std::iter::once(0).chain(src.match_indices('\n').map(|(i, _)| i + 1)).collect();
    let offset = |line: usize, col: usize| line_starts.get(line.checked_sub(1)?).map(|s| s + col - 1).filter(|&o| o < src.len());
    let mut edits: Vec<Edit> = sites
        .iter()
        .filter_map(|site| match *site {
            Site::KernelReference { line, col } => kernel_edit(src, offset(line, col)?, false),
            Site::UnresolvedCall { line, col } => kernel_edit(src, offset(line, col)?, true),
            Site::ManagedUse { line, col } => managed_edit(src, offset(line, col)?),
        })
        .collect();
    edits.sort_by_key(|e| e.start);
    let mut out = String::with_capacity(src.len() + edits.len() * 64);
    let mut at = 0;
    for e in edits {
        if e.start < at {
            continue; // inside an earlier edit's span
        }
        out.push_str(&src[at..e.start]);
        out.push_str(&e.text);
        at = e.end;
    }
    out.push_str(&src[at..]);
    out
}

fn is_ident(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_'
}

/// The end of the identifier starting at `at` (`at` itself when there is none).
fn ident_end(s: &[u8], at: usize) -> usize {
    let mut i = at;
    while i < s.len() && is_ident(s[i]) {
        i += 1;
    }
    i
}

fn skip_space(s: &[u8], mut i: usize) -> usize {
    while i < s.len() && s[i].is_ascii_whitespace() {
        i += 1;
    }
    i
}

/// The start of the qualified name whose last component starts at `at` (`a::b::name`,
/// `::name`).
fn qualified_start(s: &[u8], at: usize) -> usize {
    let mut start = at;
    loop {
        let mut i = start;
        while i > 0 && s[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        if i < 2 || &s[i - 2..i] != b"::" {
            return start;
        }
        i -= 2;
        let colons = i;
        while i > 0 && s[i - 1].is_ascii_whitespace() {
            i -= 1;
        }
        let mut j = i;
        while j > 0 && is_ident(s[j - 1]) {
            j -= 1;
        }
        if j == i {
            return colons; // `::name`
        }
        start = j;
    }
}

/// The end of a balanced `open ... close` group starting at `at` (which holds `open`),
/// counting parentheses, brackets and braces inside.
fn balanced_end(s: &[u8], at: usize, open: u8, close: u8) -> Option<usize> {
    let mut depth = 0i32;
    let mut i = at;
    while i < s.len() {
        match s[i] {
            b if b == open => depth += 1,
            b if b == close => {
                depth -= 1;
                if depth == 0 {
                    return Some(i + 1);
                }
            }
            b'(' | b'[' | b'{' => i = balanced_end(s, i, s[i], matching(s[i]))? - 1,
            b';' => return None,
            _ => {}
        }
        i += 1;
    }
    None
}

fn matching(open: u8) -> u8 {
    match open {
        b'(' => b')',
        b'[' => b']',
        _ => b'}',
    }
}

/// `name<<<cfg>>>(` or (unless `launch_only`) a bare reference to a kernel, at `at`.
fn kernel_edit(src: &str, at: usize, launch_only: bool) -> Option<Edit> {
    let s = src.as_bytes();
    let name_end = ident_end(s, at);
    if name_end == at {
        return None;
    }
    let start = qualified_start(s, at);
    // Explicit template arguments: `name<T>` (but not the launch's own `<<<`).
    let mut kernel_end = name_end;
    let after = skip_space(s, name_end);
    if s.get(after) == Some(&b'<') && !s[after..].starts_with(b"<<<") {
        kernel_end = balanced_end(s, after, b'<', b'>')?;
    }
    let kernel = &src[start..kernel_end];
    let launch = skip_space(s, kernel_end);
    if !s[launch..].starts_with(b"<<<") {
        if launch_only {
            return None;
        }
        return Some(Edit { start, end: kernel_end, text: format!("::__scale_device_launch<&{kernel}>::__address") });
    }
    let cfg_start = launch + 3;
    let cfg_end = config_end(s, cfg_start)?;
    let args = skip_space(s, cfg_end + 3);
    if s.get(args) != Some(&b'(') {
        return None;
    }
    let cfg = &src[cfg_start..cfg_end];
    Some(Edit { start, end: args, text: format!("::__scale_device_launch<&{kernel}>({cfg})") })
}

/// Where the `>>>` closing a launch configuration that starts at `at` is.
fn config_end(s: &[u8], at: usize) -> Option<usize> {
    let mut i = at;
    while i < s.len() {
        match s[i] {
            b'(' | b'[' | b'{' => i = balanced_end(s, i, s[i], matching(s[i]))?,
            b'>' if s[i..].starts_with(b">>>") => return Some(i),
            b';' => return None,
            _ => i += 1,
        }
    }
    None
}

const SILENCED: (&str, &str) = (
    "_Pragma(\"clang diagnostic push\") _Pragma(\"clang diagnostic ignored \\\"-Wdeprecated-declarations\\\"\")",
    "_Pragma(\"clang diagnostic pop\")",
);

/// A use of a managed variable at `at`.
fn managed_edit(src: &str, at: usize) -> Option<Edit> {
    let s = src.as_bytes();
    let end = ident_end(s, at);
    if end == at {
        return None;
    }
    let start = qualified_start(s, at);
    let (push, pop) = SILENCED;
    Some(Edit { start, end, text: format!("{push} ::__scale_managed_ref({}) {pop}", &src[start..end]) })
}

/// Whether a file needs the locate pass: it names managed variables, or launches kernels
/// and is relocatable device code (nvcc allows launches in device code only then).
pub fn needed(src: &str, rdc: bool) -> bool {
    src.contains("__managed__") || (rdc && src.contains("<<<"))
}

/// A clang VFS overlay that shows `real`'s contents at `virtual_path` (absolute).
pub fn overlay(virtual_path: &Path, real: &Path) -> String {
    let dir = virtual_path.parent().unwrap_or(Path::new("/"));
    let name = virtual_path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    format!(
        "{{ 'version': 0, 'use-external-names': false, 'roots': [ {{ 'name': {}, 'type': 'directory', 'contents': [ {{ 'name': {}, 'type': 'file', 'external-contents': {} }} ] }} ] }}\n",
        yaml_string(&dir.to_string_lossy()),
        yaml_string(&name),
        yaml_string(&real.to_string_lossy())
    )
}

fn yaml_string(s: &str) -> String {
    format!("\"{}\"", s.replace('\\', "\\\\").replace('"', "\\\""))
}

#[cfg(test)]
#[path = "rewrite_tests.rs"]
mod tests;
