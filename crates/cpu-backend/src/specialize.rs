//! When launches of a block kernel switch to a variant compiled for their block shape.
//!
//! `k.block` works for any block; a variant with the block's dimensions as constants
//! (`compiler_core::host::HostModule::specialized_block`) runs faster (the 2D stencil of
//! `cpu-bench`: its x loop becomes whole vectors without per-row checks) but costs a
//! compile of the kernel. Like a tiered JIT, the runtime compiles it once the generic
//! launches of that kernel and shape have taken a good part of a compile's time
//! ([`GENERIC_TIME_BEFORE_VARIANT`]) over at least [`LAUNCHES_BEFORE_VARIANT`] launches: a
//! kernel launched once, or whose launches are short, never pays for a compile, and one
//! that keeps running pays one compile early on (later runs of the program load it from
//! the disk cache). The compile runs in the launch that decides (on the stream's worker
//! thread, before its blocks start), from the on-disk kernel cache when an earlier run
//! compiled the same variant. A kernel gets at most [`MAX_VARIANTS_PER_KERNEL`] variants.
//!
//! `CUDA_CPU_SPECIALIZE=0` turns variants off, `CUDA_CPU_SPECIALIZE=always` compiles one at
//! a shape's first launch; [`set_specialization`] overrides both (tests, benchmarks).

use compiler_core::host::HostModule;
use compiler_core::host_abi::BlockRunFn;
use std::collections::HashMap;
use std::sync::atomic::{AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::Duration;

/// A shape's generic launches must have taken this long together before its variant is
/// compiled. That is less than a variant's compile (the 2D stencil's: ~27 ms, ~150 ms
/// with its rows unrolled, `cpu-bench/RESULTS.md`) because the compile is paid once per
/// kernel and shape and then comes from the on-disk cache in later runs, and because a
/// shape launched for that long is usually launched for much longer; a program whose
/// kernel stops right after pays at most one compile per kernel and shape.
pub const GENERIC_TIME_BEFORE_VARIANT: Duration = Duration::from_millis(10);

/// ... and there must have been at least this many of them (a shape launched once is
/// likely never launched again).
pub const LAUNCHES_BEFORE_VARIANT: u32 = 2;

/// At most this many variants per kernel (and module): a program that launches one kernel
/// with ever new block shapes keeps the generic loop for the rest instead of compiling
/// (and keeping) code for each.
pub const MAX_VARIANTS_PER_KERNEL: usize = 8;

/// When block kernels get launch-shape variants.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Specialization {
    /// Never: every launch runs `k.block`.
    Off,
    /// Once the generic launches of a shape have run long enough (the default).
    Tiered,
    /// At the first launch of each shape.
    Always,
}

/// 0: not set (the environment decides), else `Specialization` + 1.
static POLICY: AtomicU8 = AtomicU8::new(0);

/// Sets the policy for every module of the process (overrides `CUDA_CPU_SPECIALIZE`).
pub fn set_specialization(p: Specialization) {
    POLICY.store(p as u8 + 1, Ordering::Relaxed);
}

/// The policy in force.
pub fn specialization() -> Specialization {
    match POLICY.load(Ordering::Relaxed) {
        1 => Specialization::Off,
        2 => Specialization::Tiered,
        3 => Specialization::Always,
        _ => {
            static FROM_ENV: std::sync::OnceLock<Specialization> = std::sync::OnceLock::new();
            *FROM_ENV.get_or_init(|| match std::env::var("CUDA_CPU_SPECIALIZE").ok().as_deref().map(str::trim) {
                Some("0") | Some("off") | Some("OFF") => Specialization::Off,
                Some("always") | Some("ALWAYS") => Specialization::Always,
                _ => Specialization::Tiered,
            })
        }
    }
}

/// Whether a shape whose generic launches so far were `launches` taking `generic` in
/// all gets its variant now.
fn due(policy: Specialization, launches: u32, generic: Duration) -> bool {
    match policy {
        Specialization::Off => false,
        Specialization::Always => true,
        Specialization::Tiered => launches >= LAUNCHES_BEFORE_VARIANT && generic >= GENERIC_TIME_BEFORE_VARIANT,
    }
}

/// What one module's launches of each kernel and block shape have shown so far.
#[derive(Default)]
pub(crate) struct ShapeHistory {
    kernels: Mutex<HashMap<String, Vec<ShapeStats>>>,
}

struct ShapeStats {
    shape: [u32; 3],
    launches: u32,
    generic: Duration,
    /// Decided: the variant, or `None` when its compile failed (the generic loop is
    /// correct for every shape, so that only costs speed).
    variant: Option<Option<BlockRunFn>>,
}

impl ShapeHistory {
    /// The variant launches of `kernel` with blocks of `shape` should run, compiled now if
    /// the policy says this launch is the one; `None`: run `k.block` (and report the
    /// launch's time with [`ShapeHistory::record`]).
    pub(crate) fn variant(&self, host: &HostModule, kernel: &str, shape: [u32; 3]) -> Option<BlockRunFn> {
        let policy = specialization();
        if policy == Specialization::Off || !host.can_specialize() {
            return None;
        }
        {
            let mut kernels = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
            // One lookup once the kernel is known (this runs at every launch).
            let stats = match kernels.get_mut(kernel) {
                Some(stats) => stats,
                None => kernels.entry(kernel.to_string()).or_default(),
            };
            let at = match stats.iter().position(|s| s.shape == shape) {
                Some(at) => at,
                None => {
                    stats.push(ShapeStats { shape, launches: 0, generic: Duration::ZERO, variant: None });
                    stats.len() - 1
                }
            };
            if let Some(decided) = stats[at].variant {
                return decided;
            }
            let compiled = stats.iter().filter(|s| matches!(s.variant, Some(Some(_)))).count();
            let s = &stats[at];
            if compiled >= MAX_VARIANTS_PER_KERNEL || !due(policy, s.launches, s.generic) {
                return None;
            }
        }
        // Compile outside the lock; the module serializes compiles and keeps the result,
        // so a second launch deciding at the same time gets the same function.
        let variant = host.specialized_block(kernel, shape).ok();
        let mut kernels = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = kernels.get_mut(kernel).and_then(|v| v.iter_mut().find(|s| s.shape == shape)) {
            s.variant = Some(variant);
        }
        variant
    }

    /// A generic launch of `kernel` with blocks of `shape` took `time`.
    pub(crate) fn record(&self, kernel: &str, shape: [u32; 3], time: Duration) {
        let mut kernels = self.kernels.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(s) = kernels.get_mut(kernel).and_then(|v| v.iter_mut().find(|s| s.shape == shape)) {
            s.launches = s.launches.saturating_add(1);
            s.generic += time;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_due_after_enough_generic_launches() {
        let ms = Duration::from_millis;
        let cases = [
            (Specialization::Tiered, 0, ms(0), false),
            // One long launch: the shape may never come again.
            (Specialization::Tiered, 1, ms(500), false),
            // Many short launches: not yet worth a compile.
            (Specialization::Tiered, 1000, ms(9), false),
            (Specialization::Tiered, 2, ms(10), true),
            (Specialization::Tiered, 50, ms(30), true),
            (Specialization::Always, 0, ms(0), true),
            (Specialization::Off, 1000, ms(10_000), false),
        ];
        for (policy, launches, time, want) in cases {
            assert_eq!(due(policy, launches, time), want, "{policy:?}, {launches} launches, {time:?}");
        }
    }
}
