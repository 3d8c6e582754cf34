//! `PTX_COMPILE_TIMES=1`: the phases of a compile (lowering; per partition IR parse,
//! optimization and code generation; link) printed to stderr as each ends.

use std::time::Instant;

/// Whether phase times are wanted.
pub(crate) fn wanted() -> bool {
    std::env::var_os("PTX_COMPILE_TIMES").is_some()
}

/// Times consecutive phases: each [`PhaseClock::phase`] prints the time since the
/// previous one (or the start), prefixed with the clock's label. Prints nothing unless
/// [`wanted`].
pub(crate) struct PhaseClock {
    last: Option<Instant>,
    label: String,
}

impl PhaseClock {
    pub(crate) fn start(label: impl Into<String>) -> PhaseClock {
        PhaseClock { last: wanted().then(Instant::now), label: label.into() }
    }

    pub(crate) fn phase(&mut self, name: &str) {
        if let Some(t) = &mut self.last {
            eprintln!("  {}{name}: {:.1} ms", self.label, t.elapsed().as_secs_f64() * 1e3);
            *t = Instant::now();
        }
    }
}
