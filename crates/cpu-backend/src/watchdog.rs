//! `CUDA_CPU_WATCHDOG=S`: a diagnostic for launches that run much longer than expected.
//!
//! A kernel that spin-waits on another thread of its block, or on a block not started yet,
//! runs forever on the CPU device where it would finish on a GPU; a slow one looks the same
//! from outside. With the variable set, a thread checks the running launches and says on
//! stderr which kernel (and launch shape) has run for S seconds, then again at 2S, 4S...
//! Off by default: unset, a launch pays one relaxed load.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Mutex, OnceLock};
use std::time::{Duration, Instant};

struct Running {
    id: u64,
    what: String,
    started: Instant,
    next_report: Duration,
}

static RUNNING: Mutex<Vec<Running>> = Mutex::new(Vec::new());
static NEXT_ID: AtomicU64 = AtomicU64::new(1);
static REPORTS: AtomicU64 = AtomicU64::new(0);

/// The first report's delay, if the watchdog is on.
fn first_report() -> Option<Duration> {
    static AFTER: OnceLock<Option<Duration>> = OnceLock::new();
    *AFTER.get_or_init(|| {
        let secs: f64 = std::env::var("CUDA_CPU_WATCHDOG").ok()?.trim().parse().ok()?;
        (secs.is_finite() && secs > 0.0).then(|| Duration::from_secs_f64(secs))
    })
}

/// How many reports the watchdog has written (for tests).
#[doc(hidden)]
pub fn reports() -> u64 {
    REPORTS.load(Ordering::Relaxed)
}

fn watch_thread(after: Duration) {
    static STARTED: OnceLock<()> = OnceLock::new();
    STARTED.get_or_init(|| {
        let tick = (after / 4).clamp(Duration::from_millis(10), Duration::from_secs(1));
        let spawned = std::thread::Builder::new().name("cuda-cpu-watchdog".into()).spawn(move || loop {
            std::thread::sleep(tick);
            let mut running = RUNNING.lock().unwrap_or_else(|e| e.into_inner());
            for r in running.iter_mut() {
                let ran = r.started.elapsed();
                if ran >= r.next_report {
                    REPORTS.fetch_add(1, Ordering::Relaxed);
                    eprintln!("[cuda-cpu watchdog] {} has run for {:.1} s and is still running", r.what, ran.as_secs_f64());
                    r.next_report *= 2;
                }
            }
        });
        if let Err(e) = spawned {
            eprintln!("[cuda-cpu watchdog] not started: {e}");
        }
    });
}

/// A launch being watched, from [`Watch::start`] until dropped.
pub(crate) struct Watch(Option<u64>);

impl Watch {
    /// Watch a launch that `describe` names (called only when the watchdog is on).
    pub(crate) fn start(describe: impl FnOnce() -> String) -> Watch {
        let Some(after) = first_report() else { return Watch(None) };
        watch_thread(after);
        let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
        let r = Running { id, what: describe(), started: Instant::now(), next_report: after };
        RUNNING.lock().unwrap_or_else(|e| e.into_inner()).push(r);
        Watch(Some(id))
    }
}

impl Drop for Watch {
    fn drop(&mut self) {
        if let Some(id) = self.0 {
            RUNNING.lock().unwrap_or_else(|e| e.into_inner()).retain(|r| r.id != id);
        }
    }
}
