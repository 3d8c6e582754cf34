//! The transforms of one shape: multi-dimensional, batched, over strided host memory.
//!
//! An [`Engine`] holds the 1D plans of each axis (rustfft's complex FFTs, realfft's
//! real ones along the last axis of real transforms) and a pool of work buffers. A
//! multi-dimensional transform is a 1D transform along each axis: rows of the last axis
//! are contiguous; a column axis is transposed to rows, transformed and transposed back.
//! A batch is gathered from its input layout into a dense buffer (or into the output,
//! when the output is dense), transformed there and scattered to the output layout;
//! batches run on several threads when there is enough work and no two batches can
//! write the same element.

use std::ops::Range;
use std::sync::{Arc, Mutex};

use realfft::{ComplexToReal, RealToComplex};
use rustfft::num_complex::Complex;
use rustfft::{Fft, FftDirection};

use crate::layout::{half_spectrum, Side};
use crate::planner::{self, Float};
use crate::strided::{gather, transpose, Sink};
use crate::types::{Direction, Kind};

/// Below this many elements in all batches, batches run on the calling thread only.
const PARALLEL_MIN_ELEMENTS: usize = 1 << 15;

/// One execution's operands, as host memory (see `exec`, which checks them).
pub struct Operands {
    pub input: *const u8,
    /// Elements (of the input's type) from `input` that the transform may read.
    pub input_len: usize,
    pub output: *mut u8,
    /// Elements (of the output's type) from `output` that the transform may write.
    pub output_len: usize,
    pub input_side: Side,
    pub output_side: Side,
    pub batch: usize,
    pub direction: Direction,
    /// The input and output ranges share memory.
    pub overlap: bool,
}

// SAFETY: the pointers address device memory the host can address; the caller of
// `Engine::run` guarantees they stay valid until it returns, from any thread. Shared
// references only read the pointers' values.
unsafe impl Send for Operands {}
unsafe impl Sync for Operands {}

/// A thread's work buffers.
#[derive(Default)]
pub struct Buffers<T> {
    complex: Vec<Complex<T>>,
    real: Vec<T>,
    tmp: Vec<Complex<T>>,
    scratch: Vec<Complex<T>>,
}

/// The work on one batch: `(buffers, batch index, the batch's dense output)`.
type BatchWork<'a, T, E> = dyn Fn(&mut Buffers<T>, usize, &mut [E]) + Sync + 'a;

/// `v` grown to at least `len` elements, as a slice of exactly `len`.
fn sized<E: Copy + Default>(v: &mut Vec<E>, len: usize) -> &mut [E] {
    if v.len() < len {
        v.resize(len, E::default());
    }
    &mut v[..len]
}

/// The transforms of `kind` over dims `n`.
pub struct Engine<T: Float> {
    kind: Kind,
    n: Vec<usize>,
    /// The complex dims (the half spectrum for real transforms).
    cdims: Vec<usize>,
    /// Complex FFTs per axis of `cdims`: `[forward, inverse]`; empty where the kind never
    /// runs that direction. Real kinds use them on all axes but the last.
    axes: [Vec<Arc<dyn Fft<T>>>; 2],
    real_forward: Option<Arc<dyn RealToComplex<T>>>,
    real_inverse: Option<Arc<dyn ComplexToReal<T>>>,
    pool: Mutex<Vec<Buffers<T>>>,
}

impl<T: Float> Engine<T> {
    /// Plans every length the transform needs (the planners keep them).
    pub fn new(kind: Kind, n: &[usize]) -> Engine<T> {
        let cdims = if kind == Kind::C2C { n.to_vec() } else { half_spectrum(n) };
        let plan_axes = |direction| cdims.iter().map(|&len| planner::complex::<T>(len, direction)).collect::<Vec<_>>();
        let last = *n.last().expect("rank >= 1");
        let (forward, inverse) = match kind {
            Kind::C2C => (plan_axes(FftDirection::Forward), plan_axes(FftDirection::Inverse)),
            Kind::R2C => (plan_axes(FftDirection::Forward), Vec::new()),
            Kind::C2R => (Vec::new(), plan_axes(FftDirection::Inverse)),
        };
        Engine {
            kind,
            n: n.to_vec(),
            cdims,
            axes: [forward, inverse],
            real_forward: (kind == Kind::R2C).then(|| planner::real_forward::<T>(last)),
            real_inverse: (kind == Kind::C2R).then(|| planner::real_inverse::<T>(last)),
            pool: Mutex::new(Vec::new()),
        }
    }

    fn take_buffers(&self) -> Buffers<T> {
        self.pool.lock().unwrap_or_else(|p| p.into_inner()).pop().unwrap_or_default()
    }

    fn give_buffers(&self, buffers: Buffers<T>) {
        let mut pool = self.pool.lock().unwrap_or_else(|p| p.into_inner());
        if pool.len() < threads() {
            pool.push(buffers);
        }
    }

    /// Runs the transform.
    ///
    /// # Safety
    /// `op`'s ranges are valid host memory of their lengths, aligned for their element
    /// types, holding every element the sides address for `op.batch` batches, and no one
    /// else touches them until this returns; `op.overlap` says whether they share memory.
    pub unsafe fn run(&self, op: &Operands) {
        match self.kind {
            // SAFETY: forwarded from the caller.
            Kind::C2C => unsafe { self.run_c2c(op) },
            Kind::R2C => unsafe { self.run_r2c(op) },
            Kind::C2R => unsafe { self.run_c2r(op) },
        }
    }

    /// The input as a slice, copied first when it shares memory with the output.
    ///
    /// # Safety
    /// As for [`Engine::run`].
    unsafe fn input<'a, E: Copy>(op: &'a Operands, owned: &'a mut Vec<E>) -> &'a [E] {
        // SAFETY: the caller's guarantee on `op.input`.
        let input = unsafe { std::slice::from_raw_parts(op.input.cast::<E>(), op.input_len) };
        if op.overlap {
            owned.extend_from_slice(input);
            return owned;
        }
        input
    }

    unsafe fn run_c2c(&self, op: &Operands) {
        let ffts = &self.axes[(op.direction == Direction::Inverse) as usize];
        let count = op.output_side.count();
        let dense_in_place = op.overlap && op.input == op.output.cast_const() && op.input_side == op.output_side;
        if dense_in_place && op.output_side.is_dense(op.batch) {
            // SAFETY: the caller's guarantee; the dense batches fill exactly this range.
            let data = unsafe { std::slice::from_raw_parts_mut(op.output.cast::<Complex<T>>(), count * op.batch) };
            self.dense_chunks(data, count, op.batch, &|bufs, _, chunk| {
                complex_axes(chunk, &self.cdims, 0..self.cdims.len(), ffts, &mut bufs.tmp, &mut bufs.scratch)
            });
            return;
        }
        let mut owned = Vec::new();
        // SAFETY: forwarded from the caller.
        let input: &[Complex<T>] = unsafe { Self::input(op, &mut owned) };
        let in_dense_1d = self.n.len() == 1 && op.input_side.is_dense(op.batch);
        // SAFETY: forwarded from the caller.
        unsafe {
            self.each_batch(op, count, |b| &mut b.complex, &|bufs, b, dst| {
                if in_dense_1d {
                    let scratch = sized(&mut bufs.scratch, ffts[0].get_immutable_scratch_len());
                    ffts[0].process_immutable_with_scratch(&input[b * count..][..count], dst, scratch);
                } else {
                    gather(input, &op.input_side, b, dst);
                    complex_axes(dst, &self.cdims, 0..self.cdims.len(), ffts, &mut bufs.tmp, &mut bufs.scratch);
                }
            })
        }
    }

    unsafe fn run_r2c(&self, op: &Operands) {
        let ffts = &self.axes[0];
        let r2c = self.real_forward.as_ref().expect("an R2C engine plans its real FFT");
        let (last, half) = (*self.n.last().expect("rank >= 1"), *self.cdims.last().expect("rank >= 1"));
        let mut owned = Vec::new();
        // SAFETY: forwarded from the caller.
        let input: &[T] = unsafe { Self::input(op, &mut owned) };
        let rank = self.n.len();
        // SAFETY: forwarded from the caller.
        unsafe {
            self.each_batch(op, op.output_side.count(), |b| &mut b.complex, &|bufs, b, dst| {
                let real = sized(&mut bufs.real, op.input_side.count());
                gather(input, &op.input_side, b, real);
                let scratch = sized(&mut bufs.scratch, r2c.get_scratch_len());
                for (row, out) in real.chunks_exact_mut(last).zip(dst.chunks_exact_mut(half)) {
                    r2c.process_with_scratch(row, out, scratch).expect("row lengths match the plan");
                }
                complex_axes(dst, &self.cdims, 0..rank - 1, ffts, &mut bufs.tmp, &mut bufs.scratch);
            })
        }
    }

    unsafe fn run_c2r(&self, op: &Operands) {
        let ffts = &self.axes[1];
        let c2r = self.real_inverse.as_ref().expect("a C2R engine plans its real FFT");
        let (last, half) = (*self.n.last().expect("rank >= 1"), *self.cdims.last().expect("rank >= 1"));
        let mut owned = Vec::new();
        // SAFETY: forwarded from the caller.
        let input: &[Complex<T>] = unsafe { Self::input(op, &mut owned) };
        let rank = self.n.len();
        // SAFETY: forwarded from the caller.
        unsafe {
            self.each_batch(op, op.output_side.count(), |b| &mut b.real, &|bufs, b, dst| {
                let spectrum = sized(&mut bufs.complex, op.input_side.count());
                gather(input, &op.input_side, b, spectrum);
                complex_axes(spectrum, &self.cdims, 0..rank - 1, ffts, &mut bufs.tmp, &mut bufs.scratch);
                let scratch = sized(&mut bufs.scratch, c2r.get_scratch_len());
                for (row, out) in spectrum.chunks_exact_mut(half).zip(dst.chunks_exact_mut(last)) {
                    // Nonzero imaginary parts where a real signal's spectrum has none (the
                    // zero frequency, and the Nyquist one of even lengths) are ignored, as
                    // cuFFT and NumPy do; realfft reports them and transforms all the same.
                    match c2r.process_with_scratch(row, out, scratch) {
                        Ok(()) | Err(realfft::FftError::InputValues(..)) => {}
                        Err(e) => panic!("C2R row: {e}"),
                    }
                }
            })
        }
    }

    /// Runs `work(buffers, b, dst)` for every batch `b`, where `dst` is batch `b`'s output
    /// as `count` dense elements: the output itself when its layout is dense, else the
    /// buffer `stage` selects, scattered to the output afterwards.
    ///
    /// # Safety
    /// As for [`Engine::run`]; `work` reads only the input.
    unsafe fn each_batch<E: Copy + Default + Send + Sync>(
        &self,
        op: &Operands,
        count: usize,
        stage: fn(&mut Buffers<T>) -> &mut Vec<E>,
        work: &BatchWork<T, E>,
    ) {
        if op.output_side.is_dense(op.batch) {
            // SAFETY: the caller's guarantee; dense batches fill exactly this range, and the
            // input was copied if it shared memory with it.
            let data = unsafe { std::slice::from_raw_parts_mut(op.output.cast::<E>(), count * op.batch) };
            self.dense_chunks(data, count, op.batch, work);
            return;
        }
        let sink = Sink::new(op.output.cast::<E>(), op.output_len);
        let parallel = op.output_side.is_injective(op.batch);
        self.batches(op.batch, count, parallel, &|bufs, b| {
            let mut dst = std::mem::take(stage(bufs));
            work(bufs, b, sized(&mut dst, count));
            // SAFETY: `sink` holds every offset the side addresses (the caller's
            // guarantee); batches writing concurrently write distinct elements (injective).
            unsafe { sink.scatter(&op.output_side, b, &dst[..count]) };
            *stage(bufs) = dst;
        });
    }

    /// Runs `work(buffers, b, chunk)` on each `count`-element chunk of `data`.
    fn dense_chunks<E: Send>(&self, data: &mut [E], count: usize, batch: usize, work: &BatchWork<T, E>) {
        let threads = thread_count(batch, count);
        if threads <= 1 {
            let mut bufs = self.take_buffers();
            data.chunks_exact_mut(count).enumerate().for_each(|(b, chunk)| work(&mut bufs, b, chunk));
            self.give_buffers(bufs);
            return;
        }
        std::thread::scope(|s| {
            let mut rest = data;
            for t in 0..threads {
                let range = t * batch / threads..(t + 1) * batch / threads;
                let (mine, others) = std::mem::take(&mut rest).split_at_mut(range.len() * count);
                rest = others;
                s.spawn(move || {
                    let mut bufs = self.take_buffers();
                    for (i, chunk) in mine.chunks_exact_mut(count).enumerate() {
                        work(&mut bufs, range.start + i, chunk);
                    }
                    self.give_buffers(bufs);
                });
            }
        });
    }

    /// Runs `work(buffers, b)` for every batch, on several threads if `parallel`.
    fn batches(&self, batch: usize, count: usize, parallel: bool, work: &(dyn Fn(&mut Buffers<T>, usize) + Sync)) {
        let threads = if parallel { thread_count(batch, count) } else { 1 };
        std::thread::scope(|s| {
            for t in 0..threads {
                let range = t * batch / threads..(t + 1) * batch / threads;
                let run = move || {
                    let mut bufs = self.take_buffers();
                    range.for_each(|b| work(&mut bufs, b));
                    self.give_buffers(bufs);
                };
                if threads == 1 {
                    run();
                } else {
                    s.spawn(run);
                }
            }
        });
    }
}

/// The threads this process may use.
fn threads() -> usize {
    std::thread::available_parallelism().map_or(1, |n| n.get())
}

/// How many threads `batch` batches of `count` elements are worth.
fn thread_count(batch: usize, count: usize) -> usize {
    if batch < 2 || batch.saturating_mul(count) < PARALLEL_MIN_ELEMENTS {
        return 1;
    }
    threads().min(batch)
}

/// Transforms `data` (dense, row-major over `dims`) along each axis in `axes`.
fn complex_axes<T: Float>(
    data: &mut [Complex<T>],
    dims: &[usize],
    axes: Range<usize>,
    ffts: &[Arc<dyn Fft<T>>],
    tmp: &mut Vec<Complex<T>>,
    scratch: &mut Vec<Complex<T>>,
) {
    for k in axes.rev() {
        let len = dims[k];
        if len == 1 {
            continue;
        }
        let inner: usize = dims[k + 1..].iter().product();
        let scratch = sized(scratch, ffts[k].get_inplace_scratch_len());
        if inner == 1 {
            ffts[k].process_with_scratch(data, scratch);
            continue;
        }
        let columns = sized(tmp, len * inner);
        for block in data.chunks_exact_mut(len * inner) {
            transpose(block, columns, len, inner);
            ffts[k].process_with_scratch(columns, scratch);
            transpose(columns, block, inner, len);
        }
    }
}
