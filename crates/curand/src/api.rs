//! The C exports (NVIDIA's names and signatures). Each body runs inside
//! `libcuda_client::boundary::guard`; device generators check the call, resolve the
//! output's device range to host memory and queue the generation on the generator's
//! stream; host generators (`curandCreateGeneratorHost`) write host memory at once.

// The exports' safety contract is NVIDIA's documentation of each function (valid handles and
// out-pointers, outputs of the stated length).
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_int, c_uint, c_ulonglong, c_void};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex};

use libcuda_client::boundary::guard;
use libcuda_client::{enqueue, host_range, log, CUstream};

use crate::generator::{Generator, Kind, Output};
use crate::sobol;
use crate::status::{self, RngType, Status};

const LIB: &str = "curand";

/// What a `curandGenerator_t` points to.
///
/// A device generator's options change in stream order: a setter checks and records the
/// new options in `options` (what later calls are checked against) and queues the change
/// of `gen` behind the generations already queued, which therefore run with the options
/// they were called with (as NVIDIA's kernels, launched with their parameters, do).
pub struct Handle {
    gen: Arc<Mutex<Generator>>,
    /// Generations queued and not yet run: with none, a setter changes `gen` at once
    /// (possible before the program has a context, as CuPy seeds at construction).
    pending: Arc<AtomicUsize>,
    /// The options as the caller last set them (no engine state).
    options: Generator,
    host: bool,
    stream: CUstream,
}

type Gen = *mut Handle;

fn run(name: &str, body: impl FnOnce() -> Result<(), Status>) -> Status {
    guard(LIB, name, Status::Success, Status::InternalError, body)
}

/// The handle behind `g`, or NOT_INITIALIZED for NULL.
unsafe fn handle<'a>(g: Gen) -> Result<&'a mut Handle, Status> {
    // SAFETY: a non-NULL generator is a pointer `curandCreateGenerator` returned.
    unsafe { g.as_mut() }.ok_or(Status::NotInitialized)
}

fn create(out: *mut Gen, rng: c_uint, host: bool) -> Result<(), Status> {
    if out.is_null() {
        return Err(Status::NotInitialized);
    }
    let rng = RngType::from_c(rng).ok_or(Status::TypeError)?;
    let make = || {
        let mut g = Generator::new(rng);
        g.host = host;
        g
    };
    let h = Box::new(Handle { gen: Arc::new(Mutex::new(make())), pending: Arc::default(), options: make(), host, stream: std::ptr::null_mut() });
    // SAFETY: `out` is the caller's non-NULL out-pointer.
    unsafe { *out = Box::into_raw(h) };
    Ok(())
}

#[no_mangle]
pub unsafe extern "C" fn curandCreateGenerator(generator: *mut Gen, rng_type: c_uint) -> Status {
    run("curandCreateGenerator", || create(generator, rng_type, false))
}

#[no_mangle]
pub unsafe extern "C" fn curandCreateGeneratorHost(generator: *mut Gen, rng_type: c_uint) -> Status {
    run("curandCreateGeneratorHost", || create(generator, rng_type, true))
}

#[no_mangle]
pub unsafe extern "C" fn curandDestroyGenerator(generator: Gen) -> Status {
    run("curandDestroyGenerator", || {
        if generator.is_null() {
            return Err(Status::NotInitialized);
        }
        // SAFETY: the pointer came from Box::into_raw in `create`; queued work holds its
        // own reference to the generator state.
        drop(unsafe { Box::from_raw(generator) });
        Ok(())
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandSetStream(generator: Gen, stream: CUstream) -> Status {
    run("curandSetStream", || {
        // SAFETY: see `handle`.
        unsafe { handle(generator) }?.stream = stream;
        Ok(())
    })
}

fn with_gen(name: &'static str, g: Gen, f: impl Fn(&mut Generator) -> Result<(), Status> + Send + 'static) -> Status {
    run(name, || {
        // SAFETY: see `handle`.
        let h = unsafe { handle(g) }?;
        f(&mut h.options)?;
        if h.host || h.pending.load(Ordering::Acquire) == 0 {
            return f(&mut h.gen.lock().unwrap_or_else(|e| e.into_inner()));
        }
        let gen = h.gen.clone();
        enqueue(h.stream, LIB, name, move || {
            // Checked against the same options above, so it cannot fail here.
            let _ = f(&mut gen.lock().unwrap_or_else(|e| e.into_inner()));
        })
        .map_err(|e| {
            log!(LIB, "{name}: cuLaunchHostFunc failed with {e}");
            Status::LaunchFailure
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandSetPseudoRandomGeneratorSeed(generator: Gen, seed: c_ulonglong) -> Status {
    with_gen("curandSetPseudoRandomGeneratorSeed", generator, move |g| g.set_seed(seed))
}

#[no_mangle]
pub unsafe extern "C" fn curandSetGeneratorOffset(generator: Gen, offset: c_ulonglong) -> Status {
    with_gen("curandSetGeneratorOffset", generator, move |g| g.set_offset(offset))
}

#[no_mangle]
pub unsafe extern "C" fn curandSetGeneratorOrdering(generator: Gen, order: c_uint) -> Status {
    with_gen("curandSetGeneratorOrdering", generator, move |g| g.set_ordering(order))
}

#[no_mangle]
pub unsafe extern "C" fn curandSetQuasiRandomGeneratorDimensions(generator: Gen, num_dimensions: c_uint) -> Status {
    with_gen("curandSetQuasiRandomGeneratorDimensions", generator, move |g| g.set_dimensions(num_dimensions))
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateSeeds(generator: Gen) -> Status {
    // Thread states are set up at the first generation; nothing to do ahead of it.
    with_gen("curandGenerateSeeds", generator, |_| Ok(()))
}

/// One generation call: checks, then writes host memory now or queues the work.
/// `make` builds the typed output over the host view of the caller's memory.
fn generate(
    name: &'static str,
    g: Gen,
    ptr: *mut c_void,
    n: usize,
    kind: Kind,
    make: impl FnOnce(*mut u8, usize) -> Output<'static> + Send + 'static,
) -> Status {
    run(name, || {
        // SAFETY: see `handle`.
        let h = unsafe { handle(g) }?;
        h.options.check(kind, n)?;
        if n == 0 {
            return Ok(());
        }
        if ptr.is_null() {
            return Err(Status::LaunchFailure);
        }
        if h.host {
            h.gen.lock().unwrap_or_else(|e| e.into_inner()).generate(make(ptr.cast(), n));
            return Ok(());
        }
        let host = host_range(ptr as u64, n * kind.element_size()).map_err(|e| {
            log!(LIB, "{name}: {e}");
            Status::LaunchFailure
        })?;
        let (gen, pending) = (h.gen.clone(), h.pending.clone());
        let addr = host as usize;
        pending.fetch_add(1, Ordering::AcqRel);
        let done = pending.clone();
        enqueue(h.stream, LIB, name, move || {
            let mut gen = gen.lock().unwrap_or_else(|e| e.into_inner());
            gen.generate(make(addr as *mut u8, n));
            done.fetch_sub(1, Ordering::AcqRel);
        })
        .map_err(|e| {
            pending.fetch_sub(1, Ordering::AcqRel);
            log!(LIB, "{name}: cuLaunchHostFunc failed with {e}");
            Status::LaunchFailure
        })
    })
}

macro_rules! slice_of {
    ($t:ty) => {
        |p: *mut u8, n: usize| -> &'static mut [$t] {
            // SAFETY: `p` is the host view of the caller's n-element output.
            unsafe { std::slice::from_raw_parts_mut(p.cast::<$t>(), n) }
        }
    };
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerate(generator: Gen, output: *mut c_uint, num: usize) -> Status {
    generate("curandGenerate", generator, output.cast(), num, Kind::U32, |p, n| Output::U32(slice_of!(u32)(p, n)))
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateLongLong(generator: Gen, output: *mut c_ulonglong, num: usize) -> Status {
    generate("curandGenerateLongLong", generator, output.cast(), num, Kind::U64, |p, n| Output::U64(slice_of!(u64)(p, n)))
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateUniform(generator: Gen, output: *mut f32, num: usize) -> Status {
    generate("curandGenerateUniform", generator, output.cast(), num, Kind::Uniform, |p, n| Output::Uniform(slice_of!(f32)(p, n)))
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateUniformDouble(generator: Gen, output: *mut f64, num: usize) -> Status {
    generate("curandGenerateUniformDouble", generator, output.cast(), num, Kind::UniformDouble, |p, n| Output::UniformDouble(slice_of!(f64)(p, n)))
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateNormal(generator: Gen, output: *mut f32, n: usize, mean: f32, stddev: f32) -> Status {
    generate("curandGenerateNormal", generator, output.cast(), n, Kind::Normal, move |p, n| Output::Normal(slice_of!(f32)(p, n), mean, stddev))
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateNormalDouble(generator: Gen, output: *mut f64, n: usize, mean: f64, stddev: f64) -> Status {
    generate("curandGenerateNormalDouble", generator, output.cast(), n, Kind::NormalDouble, move |p, n| {
        Output::NormalDouble(slice_of!(f64)(p, n), mean, stddev)
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateLogNormal(generator: Gen, output: *mut f32, n: usize, mean: f32, stddev: f32) -> Status {
    generate("curandGenerateLogNormal", generator, output.cast(), n, Kind::LogNormal, move |p, n| {
        Output::LogNormal(slice_of!(f32)(p, n), mean, stddev)
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandGenerateLogNormalDouble(generator: Gen, output: *mut f64, n: usize, mean: f64, stddev: f64) -> Status {
    generate("curandGenerateLogNormalDouble", generator, output.cast(), n, Kind::LogNormalDouble, move |p, n| {
        Output::LogNormalDouble(slice_of!(f64)(p, n), mean, stddev)
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandGeneratePoisson(generator: Gen, output: *mut c_uint, n: usize, lambda: f64) -> Status {
    generate("curandGeneratePoisson", generator, output.cast(), n, Kind::Poisson(lambda), move |p, n| Output::Poisson(slice_of!(u32)(p, n), lambda))
}

/// cuRAND 10.4.0 (CUDA 13.0's).
const VERSION: c_int = 10400;

#[no_mangle]
pub unsafe extern "C" fn curandGetVersion(version: *mut c_int) -> Status {
    run("curandGetVersion", || {
        // SAFETY: the caller's out-pointer, checked for NULL.
        unsafe { version.as_mut() }.map(|v| *v = VERSION).ok_or(Status::OutOfRange)
    })
}

/// `libraryPropertyType`: MAJOR_VERSION 0, MINOR_VERSION 1, PATCH_LEVEL 2.
#[no_mangle]
pub unsafe extern "C" fn curandGetProperty(kind: c_int, value: *mut c_int) -> Status {
    run("curandGetProperty", || {
        let v = match kind {
            0 => VERSION / 1000,
            1 => VERSION % 1000 / 100,
            2 => VERSION % 100,
            _ => return Err(Status::OutOfRange),
        };
        // SAFETY: the caller's out-pointer, checked for NULL.
        unsafe { value.as_mut() }.map(|p| *p = v).ok_or(Status::OutOfRange)
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandGetDirectionVectors32(vectors: *mut *const [c_uint; 32], set: c_uint) -> Status {
    run("curandGetDirectionVectors32", || {
        if set != status::DIRECTION_VECTORS_32_JOEKUO6 {
            // The scrambled set is NVIDIA's own random data, not reproduced.
            return Err(Status::OutOfRange);
        }
        // SAFETY: the caller's out-pointer, checked for NULL; the table lives for the process.
        unsafe { vectors.as_mut() }.map(|p| *p = sobol::vectors32().as_ptr()).ok_or(Status::OutOfRange)
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandGetDirectionVectors64(vectors: *mut *const [c_ulonglong; 64], set: c_uint) -> Status {
    run("curandGetDirectionVectors64", || {
        if set != status::DIRECTION_VECTORS_64_JOEKUO6 {
            return Err(Status::OutOfRange);
        }
        // SAFETY: as above.
        unsafe { vectors.as_mut() }.map(|p| *p = sobol::vectors64().as_ptr()).ok_or(Status::OutOfRange)
    })
}

/// Scrambled Sobol' needs NVIDIA's scramble constants, which are its own random data: not
/// reproduced.
#[no_mangle]
pub unsafe extern "C" fn curandGetScrambleConstants32(constants: *mut *const c_uint) -> Status {
    run("curandGetScrambleConstants32", || {
        let _ = constants;
        Err(Status::TypeError)
    })
}

#[no_mangle]
pub unsafe extern "C" fn curandGetScrambleConstants64(constants: *mut *const c_ulonglong) -> Status {
    run("curandGetScrambleConstants64", || {
        let _ = constants;
        Err(Status::TypeError)
    })
}
