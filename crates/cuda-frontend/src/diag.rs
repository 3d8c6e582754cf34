//! Diagnostics from clang, rendered the way NVIDIA's NVRTC (EDG front-end) writes its log:
//!
//! ```text
//! prog.cu(3): error: expected an expression
//!     int x = ;
//!             ^
//!
//! 1 error detected in the compilation of "prog.cu".
//! ```
//!
//! Clients parse this format: jitify looks for
//! `name(line): catastrophic error: cannot open source file "foo.h"` to find headers it
//! must supply, so a missing header is always reported exactly that way.

use crate::{BUILTIN_DIR, HEADER_DIR};

/// Severity, as the shim reports it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Level {
    Note,
    Remark,
    Warning,
    Error,
    Fatal,
}

/// What a diagnostic is about, where that changes how it is written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    Other,
    FileNotFound,
    LaneMask,
    /// A constant lane mask of inline PTX with no upper-half lanes on a wave64 target.
    LaneMaskPtx,
}

/// EDG number we give the lane-mask narrowing warning (`--diag-suppress=20200` etc.).
pub const LANEMASK_DIAG_NUMBER: u32 = 20200;
/// EDG number of the inline-PTX constant lane-mask warning (wave64).
pub const LANEMASK_PTX_DIAG_NUMBER: u32 = 20201;

#[derive(Clone, Debug)]
pub struct Diagnostic {
    pub level: Level,
    pub kind: Kind,
    pub file: String,
    pub line: u32,
    pub col: u32,
    pub message: String,
    pub source_line: String,
    /// For FileNotFound: the file name as written.
    pub arg: String,
}

/// The name a file is shown under: virtual directories are stripped.
pub fn display_file(file: &str) -> &str {
    for dir in [HEADER_DIR, BUILTIN_DIR] {
        if let Some(rest) = file.strip_prefix(dir) {
            return rest.trim_start_matches('/');
        }
    }
    file
}

/// Applies `-w`, `--diag-suppress/-error/-warn` to what clang reported.
pub fn filter(diags: Vec<Diagnostic>, disable_warnings: bool, suppress: &[u32], error: &[u32], warn: &[u32]) -> Vec<Diagnostic> {
    let mut out = Vec::with_capacity(diags.len());
    let mut dropping_notes = false;
    for mut d in diags {
        if d.level == Level::Note {
            if !dropping_notes {
                out.push(d);
            }
            continue;
        }
        dropping_notes = false;
        let number = match d.kind {
            Kind::LaneMask => Some(LANEMASK_DIAG_NUMBER),
            Kind::LaneMaskPtx => Some(LANEMASK_PTX_DIAG_NUMBER),
            _ => None,
        };
        if let Some(n) = number {
            if suppress.contains(&n) {
                dropping_notes = true;
                continue;
            }
            if error.contains(&n) {
                d.level = Level::Error;
            } else if warn.contains(&n) {
                d.level = Level::Warning;
            }
        }
        if disable_warnings && matches!(d.level, Level::Warning | Level::Remark) {
            dropping_notes = true;
            continue;
        }
        out.push(d);
    }
    out
}

/// Renders diagnostics in EDG's format, with the closing summary line.
pub fn render(diags: &[Diagnostic], main_name: &str) -> String {
    let mut log = String::new();
    let mut errors = 0usize;
    let mut catastrophic = 0usize;
    for d in diags {
        let label = match (d.level, d.kind) {
            (Level::Fatal, _) => {
                catastrophic += 1;
                "catastrophic error".to_string()
            }
            (Level::Error, Kind::LaneMask) => {
                errors += 1;
                format!("error #{LANEMASK_DIAG_NUMBER}-D")
            }
            (Level::Error, Kind::LaneMaskPtx) => {
                errors += 1;
                format!("error #{LANEMASK_PTX_DIAG_NUMBER}-D")
            }
            (Level::Error, _) => {
                errors += 1;
                "error".to_string()
            }
            (Level::Warning, Kind::LaneMask) => format!("warning #{LANEMASK_DIAG_NUMBER}-D"),
            (Level::Warning, Kind::LaneMaskPtx) => format!("warning #{LANEMASK_PTX_DIAG_NUMBER}-D"),
            (Level::Warning, _) => "warning".to_string(),
            (Level::Remark, _) => "remark".to_string(),
            (Level::Note, _) => "note".to_string(),
        };
        let message = match d.kind {
            Kind::FileNotFound => format!("cannot open source file \"{}\"", d.arg),
            _ => d.message.clone(),
        };
        if d.file.is_empty() {
            log.push_str(&format!("{label}: {message}\n"));
        } else {
            log.push_str(&format!("{}({}): {label}: {message}\n", display_file(&d.file), d.line));
        }
        if !d.source_line.is_empty() && d.line > 0 {
            let text = d.source_line.trim_end_matches('\r');
            log.push_str("  ");
            log.push_str(text);
            log.push('\n');
            // Caret under the column (tabs kept so it lines up).
            let mut caret = String::from("  ");
            for (i, ch) in text.chars().enumerate() {
                if i + 1 >= d.col as usize {
                    break;
                }
                caret.push(if ch == '\t' { '\t' } else { ' ' });
            }
            caret.push('^');
            log.push_str(&caret);
            log.push('\n');
        }
        if d.level != Level::Note {
            log.push('\n');
        }
    }
    let mut parts = Vec::new();
    if errors > 0 {
        parts.push(format!("{errors} error{}", if errors == 1 { "" } else { "s" }));
    }
    if catastrophic > 0 {
        parts.push(format!("{catastrophic} catastrophic error{}", if catastrophic == 1 { "" } else { "s" }));
    }
    if !parts.is_empty() {
        log.push_str(&format!("{} detected in the compilation of \"{}\".\n", parts.join(" and "), main_name));
        if catastrophic > 0 {
            log.push_str("Compilation terminated.\n");
        }
    }
    log
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn missing_header_is_edg_catastrophic() {
        let d = Diagnostic {
            level: Level::Fatal,
            kind: Kind::FileNotFound,
            file: "prog.cu".into(),
            line: 1,
            col: 10,
            message: "'foo.h' file not found".into(),
            source_line: "#include \"foo.h\"".into(),
            arg: "foo.h".into(),
        };
        let log = render(&[d], "prog.cu");
        assert_eq!(
            log,
            "prog.cu(1): catastrophic error: cannot open source file \"foo.h\"\n  #include \"foo.h\"\n           ^\n\n\
             1 catastrophic error detected in the compilation of \"prog.cu\".\nCompilation terminated.\n"
        );
    }
}
