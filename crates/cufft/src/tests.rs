//! The engine against a naive DFT, over basic and advanced layouts: every element is
//! placed and read by the documented layout formula (written out here, apart from
//! `layout`), the expected values are plain sums, and elements the layout does not
//! address must keep their sentinel.

use rustfft::num_complex::Complex;

use crate::engine::{Engine, Operands};
use crate::layout::{half_spectrum, resolve, Advanced, Side};
use crate::planner::Float;
use crate::types::{Direction, Kind};

trait Prec: Float {
    fn of(x: f64) -> Self;
    fn get(self) -> f64;
    const TOL: f64;
}
impl Prec for f32 {
    fn of(x: f64) -> f32 {
        x as f32
    }
    fn get(self) -> f64 {
        self as f64
    }
    const TOL: f64 = 2e-5;
}
impl Prec for f64 {
    fn of(x: f64) -> f64 {
        x
    }
    fn get(self) -> f64 {
        self
    }
    const TOL: f64 = 1e-11;
}

type C64 = Complex<f64>;

/// A deterministic value in [-1, 1).
fn value(seed: &mut u64) -> f64 {
    *seed = seed.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
    ((*seed >> 11) as f64 / (1u64 << 53) as f64) * 2.0 - 1.0
}

/// All multi-indices over `dims`, row-major.
fn indices(dims: &[usize]) -> Vec<Vec<usize>> {
    let mut out = vec![vec![]];
    for &d in dims {
        out = out.into_iter().flat_map(|prefix| (0..d).map(move |x| [prefix.clone(), vec![x]].concat())).collect();
    }
    out
}

/// The documented offset of element `x` of batch `b`.
fn offset(side: &Side, b: usize, x: &[usize]) -> usize {
    let mut linear = x[0];
    for (&xk, &embed) in x.iter().zip(&side.embed).skip(1) {
        linear = linear * embed + xk;
    }
    b * side.dist + linear * side.stride
}

/// The unnormalized DFT of `data` (dense over `dims`) in direction `sign` (-1 forward).
fn naive_dft(data: &[C64], dims: &[usize], sign: f64) -> Vec<C64> {
    let idx = indices(dims);
    idx.iter()
        .map(|k| {
            idx.iter()
                .zip(data)
                .map(|(x, &v)| {
                    let phase: f64 = k.iter().zip(x).zip(dims).map(|((&k, &x), &n)| (k * x % n) as f64 / n as f64).sum();
                    v * C64::from_polar(1.0, sign * 2.0 * std::f64::consts::PI * phase)
                })
                .sum()
        })
        .collect()
}

/// A layout case: the transform's dims and batch, and `None` for the basic layout or
/// the advanced one.
struct Case {
    n: Vec<usize>,
    batch: usize,
    advanced: Option<Advanced>,
}

fn cases() -> Vec<Case> {
    let adv = |inembed: &[usize], istride, idist, onembed: &[usize], ostride, odist| {
        Some(Advanced { inembed: inembed.to_vec(), istride, idist, onembed: onembed.to_vec(), ostride, odist })
    };
    vec![
        Case { n: vec![1], batch: 1, advanced: None },
        Case { n: vec![8], batch: 1, advanced: None },
        Case { n: vec![13], batch: 3, advanced: None },
        Case { n: vec![12], batch: 2, advanced: adv(&[0], 3, 40, &[0], 2, 30) },
        Case { n: vec![6, 5], batch: 2, advanced: None },
        Case { n: vec![4, 7], batch: 3, advanced: adv(&[4, 9], 1, 40, &[5, 8], 2, 90) },
        // Batches interleaved (CuPy's batch along the last axis): dist 1, stride = batch.
        Case { n: vec![5, 6], batch: 4, advanced: adv(&[5, 6], 4, 1, &[5, 6], 4, 1) },
        Case { n: vec![3, 4, 5], batch: 2, advanced: None },
        Case { n: vec![2, 3, 6], batch: 2, advanced: adv(&[2, 4, 7], 2, 100, &[9, 3, 6], 1, 60) },
    ]
}

/// Runs `engine` from `input` (`(pointer, elements)`) to `output`, which may be the same
/// memory.
fn run<T: Prec, I, O>(
    engine: &Engine<T>,
    input: (*const I, usize),
    output: (*mut O, usize),
    sides: (Side, Side),
    batch: usize,
    direction: Direction,
) {
    let (i0, i1) = (input.0 as usize, input.0 as usize + input.1 * std::mem::size_of::<I>());
    let (o0, o1) = (output.0 as usize, output.0 as usize + output.1 * std::mem::size_of::<O>());
    let op = Operands {
        input: input.0.cast(),
        input_len: input.1,
        output: output.0.cast(),
        output_len: output.1,
        input_side: sides.0,
        output_side: sides.1,
        batch,
        direction,
        overlap: i0 < o1 && o0 < i1,
    };
    // SAFETY: the callers pass live buffers covering every element the sides address.
    unsafe { engine.run(&op) };
}

fn check_close(got: C64, want: C64, scale: f64, tol: f64, what: &str) {
    assert!((got - want).norm() <= tol * scale.max(1.0), "{what}: got {got}, want {want}");
}

fn c2c<T: Prec>(case: &Case, direction: Direction, in_place: bool) {
    let what = format!("C2C {:?} batch {} {:?} {direction:?} in_place {in_place}", case.n, case.batch, case.advanced);
    let (is, os) = resolve(Kind::C2C, &case.n, case.advanced.as_ref(), in_place);
    if in_place && is != os {
        return;
    }
    let engine = Engine::<T>::new(Kind::C2C, &case.n);
    let sentinel = Complex::new(T::of(1234.5), T::of(-99.0));
    let mut seed = 7;
    let mut input = vec![sentinel; is.extent(case.batch).unwrap()];
    let all = indices(&case.n);
    let mut logical = vec![vec![]; case.batch];
    for (b, values) in logical.iter_mut().enumerate() {
        for x in &all {
            let v = Complex::new(T::of(value(&mut seed)), T::of(value(&mut seed)));
            input[offset(&is, b, x)] = v;
            values.push(C64::new(v.re.get(), v.im.get()));
        }
    }
    let mut separate = vec![sentinel; os.extent(case.batch).unwrap()];
    let output: &[Complex<T>] = if in_place {
        let len = input.len();
        run(&engine, (input.as_ptr(), len), (input.as_mut_ptr(), len), (is.clone(), os.clone()), case.batch, direction);
        &input
    } else {
        run(&engine, (input.as_ptr(), input.len()), (separate.as_mut_ptr(), separate.len()), (is.clone(), os.clone()), case.batch, direction);
        &separate
    };
    let sign = if direction == Direction::Forward { -1.0 } else { 1.0 };
    let scale = case.n.iter().product::<usize>() as f64;
    let mut addressed = vec![false; output.len()];
    for (b, values) in logical.iter().enumerate() {
        let want = naive_dft(values, &case.n, sign);
        for (x, w) in all.iter().zip(want) {
            let o = offset(&os, b, x);
            addressed[o] = true;
            let g = output[o];
            check_close(C64::new(g.re.get(), g.im.get()), w, scale, T::TOL, &what);
        }
    }
    if !in_place {
        assert!(output.iter().zip(&addressed).all(|(v, &a)| a || *v == sentinel), "{what}: wrote outside the layout");
    }
}

#[test]
fn c2c_matches_a_naive_dft() {
    for case in cases() {
        for direction in [Direction::Forward, Direction::Inverse] {
            for in_place in [false, true] {
                c2c::<f64>(&case, direction, in_place);
                c2c::<f32>(&case, direction, in_place);
            }
        }
    }
}

/// R2C of random reals against the naive DFT's half spectrum, then C2R of that half
/// spectrum back: `n` times the reals.
fn real_round_trip<T: Prec>(case: &Case, in_place: bool) {
    let what = format!("R2C/C2R {:?} batch {} {:?} in_place {in_place}", case.n, case.batch, case.advanced);
    let half = half_spectrum(&case.n);
    let (ris, ros) = resolve(Kind::R2C, &case.n, case.advanced.as_ref(), in_place);
    // The inverse uses the mirrored layout: the half spectrum where R2C wrote it.
    let inverse_adv = case.advanced.as_ref().map(|a| Advanced {
        inembed: a.onembed.clone(),
        istride: a.ostride,
        idist: a.odist,
        onembed: a.inembed.clone(),
        ostride: a.istride,
        odist: a.idist,
    });
    let (cis, cos) = resolve(Kind::C2R, &case.n, inverse_adv.as_ref(), in_place);
    assert_eq!((&cis, &cos), (&ros, &ris));
    let r2c = Engine::<T>::new(Kind::R2C, &case.n);
    let c2r = Engine::<T>::new(Kind::C2R, &case.n);
    let sentinel = T::of(777.0);
    let mut seed = 99;
    let reals_len = ris.extent(case.batch).unwrap();
    let complex_len = ros.extent(case.batch).unwrap();
    // In place: one buffer holding either view (as reals, twice the complex count).
    let mut memory = vec![sentinel; reals_len.max(2 * complex_len)];
    let mut spectrum_memory = vec![Complex::new(sentinel, sentinel); complex_len];
    let all = indices(&case.n);
    let mut logical = vec![vec![]; case.batch];
    for (b, values) in logical.iter_mut().enumerate() {
        for x in &all {
            let v = T::of(value(&mut seed));
            memory[offset(&ris, b, x)] = v;
            values.push(C64::new(v.get(), 0.0));
        }
    }
    let ptr = memory.as_mut_ptr();
    let spectrum_ptr: *mut Complex<T> = if in_place { ptr.cast() } else { spectrum_memory.as_mut_ptr() };
    run(&r2c, (ptr.cast_const(), reals_len), (spectrum_ptr, complex_len), (ris.clone(), ros.clone()), case.batch, Direction::Forward);
    let scale = case.n.iter().product::<usize>() as f64;
    for (b, values) in logical.iter().enumerate() {
        let want = naive_dft(values, &case.n, -1.0);
        for x in indices(&half) {
            let full: usize = x.iter().zip(&case.n).fold(0, |acc, (&xi, &ni)| acc * ni + xi);
            // SAFETY: the offset is within the `complex_len` complexes at `spectrum_ptr`.
            let g = unsafe { *spectrum_ptr.add(offset(&ros, b, &x)) };
            check_close(C64::new(g.re.get(), g.im.get()), want[full], scale, T::TOL, &what);
        }
    }
    run(&c2r, (spectrum_ptr.cast_const(), complex_len), (ptr, reals_len), (cis, cos.clone()), case.batch, Direction::Inverse);
    for (b, values) in logical.iter().enumerate() {
        for (x, v) in all.iter().zip(values) {
            let g = memory[offset(&cos, b, x)].get();
            check_close(C64::new(g, 0.0), v * scale, scale, T::TOL, &what);
        }
    }
}

#[test]
fn real_transforms_match_a_naive_dft_and_invert() {
    for case in cases() {
        for in_place in [false, true] {
            if in_place && case.advanced.is_some() {
                continue; // in-place advanced layouts need the two sides to coincide
            }
            real_round_trip::<f64>(&case, in_place);
            real_round_trip::<f32>(&case, in_place);
        }
    }
}

#[test]
fn c2r_ignores_the_imaginary_parts_a_real_signal_lacks() {
    // n = 6: the spectrum's bins 0 and 3 are real for a real signal; NumPy's irfft (and
    // cuFFT) read only their real parts.
    let c2r = Engine::<f64>::new(Kind::C2R, &[6]);
    let with_imag = [C64::new(1.0, 5.0), C64::new(0.5, -0.25), C64::new(-1.0, 2.0), C64::new(2.0, 3.0)];
    let mut without = with_imag;
    without[0].im = 0.0;
    without[3].im = 0.0;
    let sides = resolve(Kind::C2R, &[6], None, false);
    let (mut a, mut b) = (vec![0.0; 6], vec![0.0; 6]);
    run(&c2r, (with_imag.as_ptr(), 4), (a.as_mut_ptr(), 6), sides.clone(), 1, Direction::Inverse);
    run(&c2r, (without.as_ptr(), 4), (b.as_mut_ptr(), 6), sides, 1, Direction::Inverse);
    assert_eq!(a, b);
    // The naive sum over the full (Hermitian) spectrum.
    let full: Vec<C64> = (0..6).map(|k| if k <= 3 { without[k] } else { without[6 - k].conj() }).collect();
    for (x, got) in naive_dft(&full, &[6], 1.0).iter().zip(&b) {
        check_close(C64::new(*got, 0.0), C64::new(x.re, 0.0), 6.0, 1e-12, "c2r");
    }
}

#[test]
fn many_batches_run_on_threads_and_agree() {
    // Enough work for several threads, dense and interleaved outputs.
    let n = [64, 32];
    let batch = 24;
    let engine = Engine::<f32>::new(Kind::C2C, &n);
    let mut seed = 3;
    let input: Vec<Complex<f32>> = (0..64 * 32 * batch).map(|_| Complex::new(value(&mut seed) as f32, value(&mut seed) as f32)).collect();
    let dense = resolve(Kind::C2C, &n, None, false);
    let mut a = vec![Complex::<f32>::default(); input.len()];
    run(&engine, (input.as_ptr(), input.len()), (a.as_mut_ptr(), a.len()), dense, batch, Direction::Forward);
    let inter = Advanced { inembed: n.to_vec(), istride: 1, idist: 2048, onembed: n.to_vec(), ostride: batch, odist: 1 };
    let mut b = vec![Complex::default(); input.len()];
    let sides = resolve(Kind::C2C, &n, Some(&inter), false);
    run(&engine, (input.as_ptr(), input.len()), (b.as_mut_ptr(), b.len()), sides, batch, Direction::Forward);
    for bi in 0..batch {
        for i in 0..2048 {
            assert_eq!(a[bi * 2048 + i], b[i * batch + bi]);
        }
    }
    // In place, on threads too.
    let mut c = input.clone();
    let dense = resolve(Kind::C2C, &n, None, true);
    run(&engine, (c.as_ptr(), c.len()), (c.as_mut_ptr(), c.len()), dense, batch, Direction::Forward);
    assert!(a == c, "in place differs from out of place");
    // Batch 5 against the naive DFT.
    let values: Vec<C64> = input[5 * 2048..6 * 2048].iter().map(|v| C64::new(v.re as f64, v.im as f64)).collect();
    for (w, g) in naive_dft(&values, &n, -1.0).iter().zip(&a[5 * 2048..]) {
        check_close(C64::new(g.re as f64, g.im as f64), *w, 2048.0, 2e-5, "threads");
    }
}
