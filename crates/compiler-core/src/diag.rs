//! Diagnostics: errors and warnings with a source position and the offending text.
//!
//! Every stage of the compiler reports problems as [`Diagnostic`]s instead of panicking, so
//! that the driver can hand them to the user through `CU_JIT_ERROR_LOG_BUFFER` /
//! `CU_JIT_INFO_LOG_BUFFER` and NVRTC's program log.

use crate::ptx::ast::Span;
use std::fmt;

/// How bad a diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    Error,
    Warning,
}

/// One message about the input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    pub severity: Severity,
    pub span: Span,
    pub message: String,
    /// The source text the message is about (a token or a line), if known.
    pub snippet: Option<String>,
    /// A stable name for a family of diagnostics that clients look for or switch off
    /// ([`LANEMASK`]); `None` for the rest.
    pub code: Option<&'static str>,
}

/// [`Diagnostic::code`] of the lane-mask width diagnostics of 64-lane modules
/// (`lower::lanemask`).
pub const LANEMASK: &str = "lanemask";

impl Diagnostic {
    /// An error at `span`.
    pub fn error(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Error, span, message: message.into(), snippet: None, code: None }
    }

    /// A warning at `span`.
    pub fn warning(span: Span, message: impl Into<String>) -> Self {
        Diagnostic { severity: Severity::Warning, span, message: message.into(), snippet: None, code: None }
    }

    /// Name the diagnostic's family.
    pub fn with_code(mut self, code: &'static str) -> Self {
        self.code = Some(code);
        self
    }

    /// Attach the offending text.
    pub fn with_snippet(mut self, snippet: impl Into<String>) -> Self {
        self.snippet = Some(snippet.into());
        self
    }
}

impl fmt::Display for Diagnostic {
    /// `ptx:12:5: error: unknown instruction 'foo'  (near: foo.b32 %r1)`: the shape
    /// `ptxas` users expect, with the position first.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sev = match self.severity {
            Severity::Error => "error",
            Severity::Warning => "warning",
        };
        write!(f, "ptx:{}:{}: {}: {}", self.span.line, self.span.col, sev, self.message)?;
        if let Some(s) = &self.snippet {
            write!(f, " (near: {s})")?;
        }
        Ok(())
    }
}

/// Render a list of diagnostics one per line, as they go into a JIT log buffer.
pub fn render(diags: &[Diagnostic]) -> String {
    let mut out = String::new();
    for d in diags {
        out.push_str(&d.to_string());
        out.push('\n');
    }
    out
}
