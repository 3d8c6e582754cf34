//! The native baselines: plain Rust, one contiguous chunk per thread, as many threads as
//! the CPU device's worker pool (the calling thread runs the first chunk).

/// Runs `f(chunk_index, start, end)` for `threads` contiguous chunks of `0..n` at once.
fn parallel_chunks(n: usize, threads: usize, f: impl Fn(usize, usize, usize) + Sync) {
    let per = n.div_ceil(threads);
    std::thread::scope(|s| {
        for t in 1..threads {
            let f = &f;
            s.spawn(move || f(t, (t * per).min(n), ((t + 1) * per).min(n)));
        }
        f(0, 0, per.min(n));
    });
}

/// A `*mut f32` that may cross threads (each thread writes its own disjoint range).
#[derive(Clone, Copy)]
struct SendPtr(*mut f32);
// SAFETY: only used for disjoint ranges, see `saxpy`.
unsafe impl Send for SendPtr {}
unsafe impl Sync for SendPtr {}

impl SendPtr {
    /// The pointer (a method, so closures capture the whole `SendPtr`).
    fn get(self) -> *mut f32 {
        self.0
    }
}

/// `y = a * x + y`.
pub fn saxpy(threads: usize, a: f32, x: &[f32], y: &mut [f32]) {
    assert_eq!(x.len(), y.len());
    let yp = SendPtr(y.as_mut_ptr());
    parallel_chunks(x.len(), threads, |_, start, end| {
        // SAFETY: chunks are disjoint and inside `y`.
        let y = unsafe { std::slice::from_raw_parts_mut(yp.get().add(start), end - start) };
        for (yi, xi) in y.iter_mut().zip(&x[start..end]) {
            *yi += a * *xi;
        }
    });
}

/// Sum of `x`: each thread sums its chunk in 16 independent lanes (which LLVM keeps in
/// vector registers), then the partial sums are added on the calling thread.
pub fn sum(threads: usize, x: &[f32]) -> f32 {
    let partial: Vec<std::sync::atomic::AtomicU32> = (0..threads).map(|_| Default::default()).collect();
    parallel_chunks(x.len(), threads, |t, start, end| {
        let chunk = &x[start..end];
        let mut lanes = [0.0f32; 16];
        let mut it = chunk.chunks_exact(16);
        for c in &mut it {
            for (l, v) in lanes.iter_mut().zip(c) {
                *l += *v;
            }
        }
        let mut s: f32 = lanes.iter().sum();
        s += it.remainder().iter().sum::<f32>();
        partial[t].store(s.to_bits(), std::sync::atomic::Ordering::Relaxed);
    });
    partial.iter().map(|p| f32::from_bits(p.load(std::sync::atomic::Ordering::Relaxed))).sum()
}

/// `y = f(x)` elementwise (the transcendental cases: `f` calls the C library's function).
pub fn map(threads: usize, x: &[f32], y: &mut [f32], f: fn(f32) -> f32) {
    assert_eq!(x.len(), y.len());
    let yp = SendPtr(y.as_mut_ptr());
    parallel_chunks(x.len(), threads, |_, start, end| {
        // SAFETY: chunks are disjoint and inside `y`.
        let y = unsafe { std::slice::from_raw_parts_mut(yp.get().add(start), end - start) };
        for (yi, xi) in y.iter_mut().zip(&x[start..end]) {
            *yi = f(*xi);
        }
    });
}
