//! The process's FFT plans, one per length, direction and precision.
//!
//! rustfft and realfft plan a length once (choosing the algorithm and computing the
//! twiddles, which for large lengths costs more than a transform); the planners here
//! keep every plan made, so every cuFFT plan of the same shape shares them. Engines
//! (the per-shape transforms with their buffers, see [`crate::engine`]) are cached by
//! shape as well.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use realfft::{ComplexToReal, RealFftPlanner, RealToComplex};
use rustfft::{Fft, FftDirection, FftNum, FftPlanner};

use crate::engine::Engine;
use crate::types::Kind;

/// How many shapes' engines are kept for plans still to come.
const MAX_ENGINES: usize = 64;

/// The planners of one precision.
pub struct Planners<T: Float> {
    complex: FftPlanner<T>,
    real: RealFftPlanner<T>,
    engines: HashMap<(Kind, Vec<usize>), Arc<Engine<T>>>,
}

/// A precision cuFFT computes in: `f32` or `f64`.
pub trait Float: FftNum + Default {
    /// This precision's planners.
    fn planners() -> &'static Mutex<Planners<Self>>;
}

macro_rules! float {
    ($t:ty) => {
        impl Float for $t {
            fn planners() -> &'static Mutex<Planners<$t>> {
                static PLANNERS: OnceLock<Mutex<Planners<$t>>> = OnceLock::new();
                PLANNERS.get_or_init(|| Mutex::new(Planners { complex: FftPlanner::new(), real: RealFftPlanner::new(), engines: HashMap::new() }))
            }
        }
    };
}
float!(f32);
float!(f64);

fn lock<T: Float>() -> std::sync::MutexGuard<'static, Planners<T>> {
    // A panic while planning leaves the planners as they were before the plan.
    T::planners().lock().unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The complex FFT of `len` points in `direction`.
pub fn complex<T: Float>(len: usize, direction: FftDirection) -> Arc<dyn Fft<T>> {
    lock::<T>().complex.plan_fft(len, direction)
}

/// The real-to-complex FFT of `len` reals.
pub fn real_forward<T: Float>(len: usize) -> Arc<dyn RealToComplex<T>> {
    lock::<T>().real.plan_fft_forward(len)
}

/// The complex-to-real FFT giving `len` reals.
pub fn real_inverse<T: Float>(len: usize) -> Arc<dyn ComplexToReal<T>> {
    lock::<T>().real.plan_fft_inverse(len)
}

/// The engine of transforms of `kind` over dims `n`, made at the first request.
pub fn engine<T: Float>(kind: Kind, n: &[usize]) -> Arc<Engine<T>> {
    if let Some(e) = lock::<T>().engines.get(&(kind, n.to_vec())) {
        return e.clone();
    }
    // Made without the lock held: the engine plans its lengths through it.
    let made = Arc::new(Engine::new(kind, n));
    let mut planners = lock::<T>();
    if planners.engines.len() >= MAX_ENGINES {
        // Forget the shapes seen so far (their buffers with them); live plans keep theirs.
        planners.engines.clear();
    }
    planners.engines.entry((kind, n.to_vec())).or_insert(made).clone()
}
