//! A cuRAND generator: its options and its state between calls, and generation into
//! host slices (the C exports resolve device pointers and queue the work).

use crate::distributions as dist;
use crate::mrg32k3a::Mrg32k3a;
use crate::mtgp32::Blocks;
use crate::philox::Philox;
use crate::sobol;
use crate::status::{Ordering, RngType, Status};
use crate::streams::{Stream, Threads};
use crate::xorwow::Xorwow;

/// Where results go, with the distribution's parameters.
pub enum Output<'a> {
    U32(&'a mut [u32]),
    U64(&'a mut [u64]),
    Uniform(&'a mut [f32]),
    UniformDouble(&'a mut [f64]),
    Normal(&'a mut [f32], f32, f32),
    NormalDouble(&'a mut [f64], f64, f64),
    LogNormal(&'a mut [f32], f32, f32),
    LogNormalDouble(&'a mut [f64], f64, f64),
    Poisson(&'a mut [u32], f64),
}

impl Output<'_> {
    pub fn len(&self) -> usize {
        match self {
            Output::U32(o) | Output::Poisson(o, _) => o.len(),
            Output::U64(o) => o.len(),
            Output::Uniform(o) | Output::Normal(o, ..) | Output::LogNormal(o, ..) => o.len(),
            Output::UniformDouble(o) | Output::NormalDouble(o, ..) | Output::LogNormalDouble(o, ..) => o.len(),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    pub fn kind(&self) -> Kind {
        match self {
            Output::U32(_) => Kind::U32,
            Output::U64(_) => Kind::U64,
            Output::Uniform(_) => Kind::Uniform,
            Output::UniformDouble(_) => Kind::UniformDouble,
            Output::Normal(..) => Kind::Normal,
            Output::NormalDouble(..) => Kind::NormalDouble,
            Output::LogNormal(..) => Kind::LogNormal,
            Output::LogNormalDouble(..) => Kind::LogNormalDouble,
            Output::Poisson(_, l) => Kind::Poisson(*l),
        }
    }
}

/// What a call asks for, for checking before any memory is touched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Kind {
    U32,
    U64,
    Uniform,
    UniformDouble,
    Normal,
    NormalDouble,
    LogNormal,
    LogNormalDouble,
    Poisson(f64),
}

impl Kind {
    /// The element size in bytes.
    pub fn element_size(self) -> usize {
        match self {
            Kind::U32 | Kind::Poisson(_) | Kind::Uniform | Kind::Normal | Kind::LogNormal => 4,
            _ => 8,
        }
    }
}

/// The parallel streams of a pseudo-random generator, built at the first generation
/// after the options last changed.
enum Engine {
    Xorwow(Threads<Xorwow>),
    Mrg(Threads<Mrg32k3a>),
    Philox(Threads<Philox>),
    Mtgp(Blocks),
}

pub struct Generator {
    pub rng: RngType,
    pub seed: u64,
    pub offset: u64,
    pub ordering: Ordering,
    pub dimensions: u32,
    /// Made by `curandCreateGeneratorHost` (some orderings are device-only).
    pub host: bool,
    /// Results generated since the options last changed, in units of the generator's
    /// position (see `generate`).
    consumed: u64,
    engine: Option<Engine>,
}

/// The number of parallel subsequences NVIDIA's kernels use for a generator and
/// ordering (observed on an H100 with cuRAND 10.4, CUDA 13.0).
fn thread_count(rng: RngType, ordering: Ordering) -> u64 {
    match (rng, ordering) {
        (RngType::Xorwow, Ordering::PseudoDynamic) => 2816,
        (RngType::Xorwow, _) => 4096,
        (RngType::Mrg32k3a, Ordering::PseudoLegacy) => 4096,
        (RngType::Mrg32k3a, _) => 81920,
        (RngType::Philox, _) => 65536,
        // MTGP32 counts blocks (see `mtgp32`).
        (RngType::Mtgp32, Ordering::PseudoLegacy) => 64,
        (RngType::Mtgp32, _) => 192,
        _ => 4096,
    }
}

impl Generator {
    pub fn new(rng: RngType) -> Generator {
        Generator {
            rng,
            seed: 0,
            offset: 0,
            ordering: if rng.is_quasi() { Ordering::QuasiDefault } else { Ordering::PseudoDefault },
            dimensions: 1,
            host: false,
            consumed: 0,
            engine: None,
        }
    }

    fn reset(&mut self) {
        self.consumed = 0;
        self.engine = None;
    }

    pub fn set_seed(&mut self, seed: u64) -> Result<(), Status> {
        if self.rng.is_quasi() {
            return Err(Status::TypeError);
        }
        self.seed = seed;
        self.reset();
        Ok(())
    }

    pub fn set_offset(&mut self, offset: u64) -> Result<(), Status> {
        if matches!(self.rng, RngType::Mtgp32 | RngType::Mt19937) {
            return Err(Status::TypeError);
        }
        self.offset = offset;
        self.reset();
        Ok(())
    }

    pub fn set_ordering(&mut self, ordering: u32) -> Result<(), Status> {
        let o = Ordering::from_c(ordering).ok_or(Status::OutOfRange)?;
        let ok = match self.rng {
            r if r.is_quasi() => o == Ordering::QuasiDefault,
            RngType::Xorwow => o != Ordering::QuasiDefault,
            // NVIDIA's host MT19937 generator also refuses the best ordering (observed).
            RngType::Mt19937 if self.host => matches!(o, Ordering::PseudoDefault | Ordering::PseudoLegacy),
            RngType::Mt19937 => matches!(o, Ordering::PseudoBest | Ordering::PseudoDefault | Ordering::PseudoLegacy),
            // NVIDIA's host MTGP32 generator refuses the dynamic ordering (observed).
            RngType::Mtgp32 if self.host => !matches!(o, Ordering::QuasiDefault | Ordering::PseudoSeeded | Ordering::PseudoDynamic),
            _ => !matches!(o, Ordering::QuasiDefault | Ordering::PseudoSeeded),
        };
        if !ok {
            return Err(Status::OutOfRange);
        }
        self.ordering = o;
        self.reset();
        Ok(())
    }

    pub fn set_dimensions(&mut self, dims: u32) -> Result<(), Status> {
        if !self.rng.is_quasi() {
            return Err(Status::TypeError);
        }
        if dims == 0 || dims as usize > sobol::MAX_DIMENSIONS {
            return Err(Status::OutOfRange);
        }
        self.dimensions = dims;
        self.reset();
        Ok(())
    }

    /// Checks a call before any work is queued: the output type against the generator,
    /// lengths and parameters.
    pub fn check(&self, kind: Kind, n: usize) -> Result<(), Status> {
        let n = n as u64;
        match kind {
            Kind::U32 if self.rng.is_64bit() => return Err(Status::TypeError),
            Kind::U64 if !self.rng.is_64bit() => return Err(Status::TypeError),
            Kind::Poisson(l) if l.is_nan() || l <= 0.0 => return Err(Status::OutOfRange),
            _ => {}
        }
        if self.rng.is_quasi() {
            if !n.is_multiple_of(self.dimensions as u64) {
                return Err(Status::LengthNotMultiple);
            }
        } else if matches!(kind, Kind::Normal | Kind::NormalDouble | Kind::LogNormal | Kind::LogNormalDouble)
            && !n.is_multiple_of(2)
            && !matches!(self.rng, RngType::Philox | RngType::Mtgp32)
        {
            // Philox writes whole blocks of four and cuts the last (NVIDIA accepts n = 8191);
            // MTGP32 makes one normal per value.
            return Err(Status::LengthNotMultiple);
        }
        let unreproduced = match self.rng {
            // MTGP32's dynamic ordering uses 924 blocks on an H100, 724 of them seeded in a
            // way not found yet.
            RngType::Mtgp32 => self.ordering == Ordering::PseudoDynamic,
            // MT19937: NVIDIA's streams beyond the first are not the MT sequence of any seed
            // or offset found yet. Scrambled Sobol': NVIDIA's scramble constants and
            // scrambled direction vectors are its own data.
            RngType::Mt19937 | RngType::ScrambledSobol32 | RngType::ScrambledSobol64 => true,
            _ => false,
        };
        if unreproduced {
            // Not reproduced yet: refuse rather than give numbers unlike NVIDIA's.
            return Err(Status::TypeError);
        }
        Ok(())
    }

    /// Generates into `out` (already checked).
    pub fn generate(&mut self, out: Output<'_>) {
        if out.is_empty() {
            return;
        }
        if self.rng.is_quasi() {
            self.generate_quasi(out);
        } else {
            self.generate_pseudo(out);
        }
    }

    fn engine(&mut self) -> &mut Engine {
        let (seed, threads) = (self.seed, thread_count(self.rng, self.ordering));
        let rng = self.rng;
        self.engine.get_or_insert_with(|| match rng {
            RngType::Mrg32k3a => Engine::Mrg(Threads::new(seed, threads)),
            RngType::Philox => Engine::Philox(Threads::new(seed, threads)),
            RngType::Mtgp32 => Engine::Mtgp(Blocks::new(seed, threads as usize)),
            _ => Engine::Xorwow(Threads::new(seed, threads)),
        })
    }

    fn generate_pseudo(&mut self, out: Output<'_>) {
        let (offset, start, host) = (self.offset, self.offset + self.consumed, self.host);
        let n = out.len() as u64;
        self.consumed += match self.engine() {
            Engine::Xorwow(t) => pseudo_32(t, Call { offset, first: start }, out),
            Engine::Philox(t) => {
                pseudo_philox(t, start, out);
                n
            }
            Engine::Mrg(t) => pseudo_mrg(t, Call { offset, first: start }, out),
            Engine::Mtgp(b) => {
                let mut raw = vec![0u32; n as usize];
                b.fill(start, n, |i, v| raw[i] = v);
                one_per_result(&raw, host, out);
                n
            }
        };
    }

    fn generate_quasi(&mut self, out: Output<'_>) {
        let dims = self.dimensions as usize;
        let per_dim = out.len() / dims;
        let first = self.offset + self.consumed;
        self.consumed += per_dim as u64;
        let v32 = sobol::vectors32();
        let v64 = sobol::vectors64();
        let mut buf32 = vec![0u32; per_dim];
        let mut buf64 = vec![0u64; per_dim];
        let is64 = self.rng.is_64bit();
        let mut out = out;
        for d in 0..dims {
            if is64 {
                sobol::fill64(&v64[d], first, &mut buf64);
            } else {
                sobol::fill32(&v32[d], first, &mut buf32);
            }
            let base = d * per_dim;
            for j in 0..per_dim {
                let (x32, x64) = (buf32[j], buf64[j]);
                let u = if is64 { dist::uniform_f64_from_u64(x64) } else { dist::uniform_f64_from_u32(x32) };
                // Sobol32's uniform doubles are x * 2^-32 + 2^-32 (NVIDIA's); its normals use
                // (x + 1/2) * 2^-32, Sobol64's float normals the same of its upper 32 bits.
                let ud = if is64 { u } else { x32 as f64 * TWO_M32 + TWO_M32 };
                let uf = if is64 { dist::uniform_f64_from_u32((x64 >> 32) as u32) } else { u };
                match &mut out {
                    Output::U32(o) => o[base + j] = x32,
                    Output::U64(o) => o[base + j] = x64,
                    // Sobol64's floats come from its upper 32 bits.
                    Output::Uniform(o) => o[base + j] = dist::uniform_f32(if is64 { (x64 >> 32) as u32 } else { x32 }),
                    Output::UniformDouble(o) => o[base + j] = ud,
                    Output::Normal(o, m, s) => o[base + j] = (*m as f64 + *s as f64 * dist::normal_quantile(uf)) as f32,
                    Output::NormalDouble(o, m, s) => o[base + j] = *m + *s * dist::normal_quantile(u),
                    Output::LogNormal(o, m, s) => o[base + j] = (*m as f64 + *s as f64 * dist::normal_quantile(uf)).exp() as f32,
                    Output::LogNormalDouble(o, m, s) => o[base + j] = (*m + *s * dist::normal_quantile(u)).exp(),
                    Output::Poisson(o, l) => o[base + j] = crate::poisson::quantile(*l, u),
                }
            }
        }
    }
}

/// Where a call of XORWOW or MRG32k3a starts: the generator's offset (where each
/// thread's stream starts) and the call's first slot.
#[derive(Clone, Copy)]
struct Call {
    offset: u64,
    first: u64,
}

const TWO_M32: f64 = 1.0 / 4_294_967_296.0;

/// Runs `make` for the `n` results of a call, in the layout of XORWOW and MRG32k3a (see
/// `streams`): `OUTS` results and `ins` stream values per slot, written through
/// `put(result index, value)`. Returns the number of slots.
fn slots<S: Stream, T: Copy + Default, const OUTS: usize>(
    t: &mut Threads<S>,
    call: Call,
    n: u64,
    ins: u64,
    mut make: impl FnMut(&mut S) -> [T; OUTS],
    mut put: impl FnMut(usize, T),
) -> u64 {
    let outs = OUTS as u64;
    let count = t.count();
    let Call { offset, first } = call;
    t.for_slots(
        first,
        n.div_ceil(outs),
        ins,
        |th, kept| kept.unwrap_or((offset + count - 1 - th) / count),
        |g, s| {
            let vals = make(s);
            for (j, v) in vals.into_iter().enumerate() {
                let r = (g - first) * outs + j as u64;
                if r < n {
                    put(r as usize, v);
                }
            }
        },
    );
    n.div_ceil(outs)
}

/// The same for Philox, which counts in values: result offset + i is value
/// (offset + i) % 4 of slot (offset + i) / 4.
fn blocks<T: Copy + Default, const OUTS: usize>(
    t: &mut Threads<Philox>,
    offset: u64,
    n: u64,
    ins: u64,
    mut make: impl FnMut(&mut Philox) -> [T; OUTS],
    mut put: impl FnMut(usize, T),
) {
    let outs = OUTS as u64;
    let count = t.count();
    let first = offset / outs;
    let last = (offset + n).div_ceil(outs);
    t.for_slots(
        first,
        last - first,
        ins,
        |th, _| ((first + count - 1 - th) / count) * ins,
        |g, s| {
            let vals = make(s);
            for (j, v) in vals.into_iter().enumerate() {
                let r = g * outs + j as u64;
                if r >= offset && r < offset + n {
                    put((r - offset) as usize, v);
                }
            }
        },
    );
}

/// XORWOW: one value per 32-bit result, two per double, Box-Muller pairs side by side.
fn pseudo_32<S: Stream>(t: &mut Threads<S>, start: Call, out: Output<'_>) -> u64 {
    let n = out.len() as u64;
    match out {
        Output::U32(o) => slots(t, start, n, 1, |s| [s.next_u32()], |i, v| o[i] = v),
        Output::U64(_) => 0,
        Output::Uniform(o) => slots(t, start, n, 1, |s| [dist::uniform_f32(s.next_u32())], |i, v| o[i] = v),
        Output::UniformDouble(o) => slots(t, start, n, 2, |s| [dist::uniform_f64(s.next_u32(), s.next_u32())], |i, v| o[i] = v),
        Output::Normal(o, m, sd) => slots(
            t,
            start,
            n,
            2,
            |s| {
                let (a, b) = dist::box_muller_f32(s.next_u32(), s.next_u32());
                [a, b]
            },
            |i, v| o[i] = m + sd * v,
        ),
        Output::LogNormal(o, m, sd) => slots(
            t,
            start,
            n,
            2,
            |s| {
                let (a, b) = dist::box_muller_f32(s.next_u32(), s.next_u32());
                [a, b]
            },
            |i, v| o[i] = ((m + sd * v) as f64).exp() as f32,
        ),
        Output::NormalDouble(o, m, sd) => slots(t, start, n, 4, |s| normal_f64(s), |i, v| o[i] = m + sd * v),
        Output::LogNormalDouble(o, m, sd) => slots(t, start, n, 4, |s| normal_f64(s), |i, v| o[i] = (m + sd * v).exp()),
        Output::Poisson(o, l) => slots(t, start, n, 1, |s| [crate::poisson::quantile(l, dist::uniform_f64_from_u32(s.next_u32()))], |i, v| o[i] = v),
    }
}

fn normal_f64<S: Stream>(s: &mut S) -> [f64; 2] {
    let (x0, y0, x1, y1) = (s.next_u32(), s.next_u32(), s.next_u32(), s.next_u32());
    let (a, b) = dist::box_muller_f64(dist::uniform_f64(x0, y0), dist::uniform_f64(x1, y1));
    [a, b]
}

/// Philox: the four values of one counter per slot; doubles take two counters for four
/// results (53-bit uniforms from pairs of values, Box-Muller on pairs of those).
fn pseudo_philox(t: &mut Threads<Philox>, start: u64, out: Output<'_>) {
    let n = out.len() as u64;
    let four = |s: &mut Philox| [s.next_u32(), s.next_u32(), s.next_u32(), s.next_u32()];
    let doubles = |s: &mut Philox| {
        let (a, b) = (four(s), four(s));
        [dist::uniform_f64(a[0], a[1]), dist::uniform_f64(a[2], a[3]), dist::uniform_f64(b[0], b[1]), dist::uniform_f64(b[2], b[3])]
    };
    let normals = |s: &mut Philox| {
        let v = four(s);
        let (a, b) = dist::box_muller_f32(v[0], v[1]);
        let (c, d) = dist::box_muller_f32(v[2], v[3]);
        [a, b, c, d]
    };
    let normals_f64 = |s: &mut Philox| {
        let u = doubles(s);
        let (a, b) = dist::box_muller_f64(u[0], u[1]);
        let (c, d) = dist::box_muller_f64(u[2], u[3]);
        [a, b, c, d]
    };
    match out {
        Output::U32(o) => blocks(t, start, n, 4, four, |i, v| o[i] = v),
        Output::Uniform(o) => blocks(t, start, n, 4, |s| four(s).map(dist::uniform_f32), |i, v| o[i] = v),
        Output::UniformDouble(o) => blocks(t, start, n, 8, doubles, |i, v| o[i] = v),
        Output::Normal(o, m, sd) => blocks(t, start, n, 4, normals, |i, v| o[i] = m + sd * v),
        Output::LogNormal(o, m, sd) => blocks(t, start, n, 4, normals, |i, v| o[i] = ((m + sd * v) as f64).exp() as f32),
        Output::NormalDouble(o, m, sd) => blocks(t, start, n, 8, normals_f64, |i, v| o[i] = m + sd * v),
        Output::LogNormalDouble(o, m, sd) => blocks(t, start, n, 8, normals_f64, |i, v| o[i] = (m + sd * v).exp()),
        Output::Poisson(o, l) => {
            blocks(t, start, n, 4, |s| four(s).map(|x| crate::poisson::quantile(l, dist::uniform_f64_from_u32(x))), |i, v| o[i] = v)
        }
        Output::U64(_) => {}
    }
}

/// One 32-bit value per result (MTGP32): uniform floats as for the other generators,
/// uniform doubles x 2^-32 + 2^-32, normals the inverse normal CDF of (x + 1/2) 2^-32 (as
/// cuRAND's device API transforms MTGP32 values, "Distributions"). NVIDIA's host
/// generators compute double normals from the single-precision quantile (observed: their
/// low mantissa bits are those of mean + stddev * float).
fn one_per_result(raw: &[u32], host: bool, out: Output<'_>) {
    let u = |x: u32| dist::uniform_f64_from_u32(x);
    let q = |x: u32| dist::normal_quantile(u(x));
    let qd = |x: u32| if host { q(x) as f32 as f64 } else { q(x) };
    let each = |o: &mut [f32], f: &dyn Fn(u32) -> f32| o.iter_mut().zip(raw).for_each(|(o, &x)| *o = f(x));
    let each64 = |o: &mut [f64], f: &dyn Fn(u32) -> f64| o.iter_mut().zip(raw).for_each(|(o, &x)| *o = f(x));
    match out {
        Output::U32(o) => o.copy_from_slice(raw),
        Output::U64(_) => {}
        Output::Uniform(o) => each(o, &|x| dist::uniform_f32(x)),
        Output::UniformDouble(o) => each64(o, &|x| x as f64 * TWO_M32 + TWO_M32),
        Output::Normal(o, m, s) => each(o, &|x| (m as f64 + s as f64 * q(x)) as f32),
        Output::NormalDouble(o, m, s) => each64(o, &|x| m + s * qd(x)),
        Output::LogNormal(o, m, s) => each(o, &|x| (m as f64 + s as f64 * q(x)).exp() as f32),
        Output::LogNormalDouble(o, m, s) => each64(o, &|x| (m + s * qd(x)).exp()),
        Output::Poisson(o, l) => o.iter_mut().zip(raw).for_each(|(o, &x)| *o = crate::poisson::quantile(l, u(x))),
    }
}

/// MRG32k3a: native doubles.
fn pseudo_mrg(t: &mut Threads<Mrg32k3a>, start: Call, out: Output<'_>) -> u64 {
    let n = out.len() as u64;
    match out {
        Output::U32(o) => slots(t, start, n, 1, |s| [s.next_u32()], |i, v| o[i] = v),
        Output::Uniform(o) => slots(t, start, n, 1, |s| [s.next_f64() as f32], |i, v| o[i] = v),
        Output::UniformDouble(o) => slots(t, start, n, 1, |s| [s.next_f64()], |i, v| o[i] = v),
        Output::Normal(o, m, sd) => slots(
            t,
            start,
            n,
            2,
            |s| {
                let (a, b) = dist::box_muller_f64(s.next_f64(), s.next_f64());
                [a as f32, b as f32]
            },
            |i, v| o[i] = m + sd * v,
        ),
        Output::LogNormal(o, m, sd) => slots(
            t,
            start,
            n,
            2,
            |s| {
                let (a, b) = dist::box_muller_f64(s.next_f64(), s.next_f64());
                [a as f32, b as f32]
            },
            |i, v| o[i] = ((m + sd * v) as f64).exp() as f32,
        ),
        Output::NormalDouble(o, m, sd) => slots(
            t,
            start,
            n,
            2,
            |s| {
                let (a, b) = dist::box_muller_f64(s.next_f64(), s.next_f64());
                [a, b]
            },
            |i, v| o[i] = m + sd * v,
        ),
        Output::LogNormalDouble(o, m, sd) => slots(
            t,
            start,
            n,
            2,
            |s| {
                let (a, b) = dist::box_muller_f64(s.next_f64(), s.next_f64());
                [a, b]
            },
            |i, v| o[i] = (m + sd * v).exp(),
        ),
        Output::Poisson(o, l) => slots(t, start, n, 1, |s| [crate::poisson::quantile(l, s.next_f64())], |i, v| o[i] = v),
        Output::U64(_) => 0,
    }
}
