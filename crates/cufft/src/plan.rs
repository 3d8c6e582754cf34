//! Plan handles (`cufftHandle`) and what each plan holds.
//!
//! A handle is a small positive `int` naming an entry of the process's plan table
//! (never 0: CuPy treats a 0 handle as none). `cufftCreate` makes an empty plan;
//! `cufftMakePlan*` gives it a transform ([`Spec`]), validated as cuFFT does and planned
//! at once (so execution only transforms).

use std::collections::HashMap;
use std::sync::atomic::{AtomicI32, Ordering};
use std::sync::{Arc, Mutex, MutexGuard, OnceLock};

use libcuda_client::CUstream;

use crate::callback::{self, Callbacks, Kernel, Staging, Value};
use crate::engine::Engine;
use crate::layout::Advanced;
use crate::planner;
use crate::types::*;

/// A plan's engine, at the plan's precision.
#[derive(Clone)]
pub enum AnyEngine {
    Single(Arc<Engine<f32>>),
    Double(Arc<Engine<f64>>),
}

/// The transform a plan was made for.
#[derive(Clone)]
pub struct Spec {
    pub ty: FftType,
    pub n: Vec<usize>,
    pub batch: usize,
    /// `None`: the basic layout.
    pub advanced: Option<Advanced>,
    pub engine: AnyEngine,
    /// LTO callbacks' kernels, loaded when the plan was made.
    pub load: Option<Arc<Kernel>>,
    pub store: Option<Arc<Kernel>>,
}

/// One plan.
pub struct Plan {
    /// The stream executions are queued on (`cufftSetStream`), as an address.
    pub stream: usize,
    pub auto_allocate: bool,
    /// The caller's work area (`cufftSetWorkArea`); this implementation needs none.
    pub work_area: u64,
    /// `None` until a `cufftMakePlan*` succeeds.
    pub spec: Option<Spec>,
    /// Callbacks set before the plan is made (`cufftXtSetJITCallback`).
    pub callbacks: Callbacks,
    /// Callback staging buffers, out of place and in place.
    pub staging: [Option<Arc<Staging>>; 2],
}

impl Plan {
    pub fn stream(&self) -> CUstream {
        self.stream as CUstream
    }
}

fn table() -> MutexGuard<'static, HashMap<i32, Plan>> {
    static PLANS: OnceLock<Mutex<HashMap<i32, Plan>>> = OnceLock::new();
    PLANS.get_or_init(Default::default).lock().unwrap_or_else(|p| p.into_inner())
}

/// A new empty plan's handle.
pub fn create() -> i32 {
    static NEXT: AtomicI32 = AtomicI32::new(1);
    let handle = NEXT.fetch_add(1, Ordering::Relaxed);
    table().insert(handle, Plan { stream: 0, auto_allocate: true, work_area: 0, spec: None, callbacks: Callbacks::default(), staging: [None, None] });
    handle
}

/// Removes a plan; `CUFFT_INVALID_PLAN` if there is none. A plan with callbacks first
/// waits for its stream, whose queued kernels use its modules and staging buffers.
pub fn destroy(handle: i32) -> Result<(), CufftResult> {
    let plan = table().remove(&handle).ok_or(CUFFT_INVALID_PLAN)?;
    let callbacks = plan.spec.as_ref().is_some_and(|s| s.load.is_some() || s.store.is_some());
    if callbacks || plan.staging.iter().any(Option::is_some) {
        let _ = libcuda_client::synchronize(plan.stream());
    }
    Ok(())
}

/// The staging buffers of plan `handle` for the placement `in_place`, made by `make` the
/// first time.
pub fn staging(handle: i32, in_place: bool, make: impl FnOnce() -> Result<Staging, CufftResult>) -> Result<Arc<Staging>, CufftResult> {
    if let Some(s) = with(handle, |p| p.staging[in_place as usize].clone())? {
        return Ok(s);
    }
    let made = Arc::new(make()?);
    with(handle, |p| p.staging[in_place as usize].get_or_insert(made).clone())
}

/// Runs `f` on the plan `handle`; `CUFFT_INVALID_PLAN` if there is none.
pub fn with<R>(handle: i32, f: impl FnOnce(&mut Plan) -> R) -> Result<R, CufftResult> {
    table().get_mut(&handle).map(f).ok_or(CUFFT_INVALID_PLAN)
}

/// An advanced layout as the C API gives it: `(inembed, istride, idist, onembed, ostride,
/// odist)`.
pub type CLayout<'a> = (&'a [i64], i64, i64, &'a [i64], i64, i64);

/// A transform's description as the C API gives it (sizes as 64-bit values).
pub struct Request<'a> {
    pub n: &'a [i64],
    /// `(inembed, istride, idist, onembed, ostride, odist)`, when both embeds are given.
    pub advanced: Option<CLayout<'a>>,
    pub ty: FftType,
    pub batch: i64,
}

/// Checks a request as cuFFT does: rank 1 to 3 and positive sizes and batch
/// (`CUFFT_INVALID_SIZE`), positive strides and storage dims and non-negative dists
/// (`CUFFT_INVALID_VALUE`), sizes whose extents fit in memory (`CUFFT_INVALID_SIZE`).
pub fn validate(r: &Request) -> Result<(Vec<usize>, usize, Option<Advanced>), CufftResult> {
    if !(1..=3).contains(&r.n.len()) {
        libcuda_client::log!("cufft", "rank {} is not 1, 2 or 3", r.n.len());
        return Err(CUFFT_INVALID_SIZE);
    }
    if r.n.iter().any(|&x| x < 1) || r.batch < 1 {
        libcuda_client::log!("cufft", "sizes {:?} and batch {} must be positive", r.n, r.batch);
        return Err(CUFFT_INVALID_SIZE);
    }
    let n: Vec<usize> = r.n.iter().map(|&x| x as usize).collect();
    let batch = r.batch as usize;
    // The basic layouts' products (padded rows included) must not overflow; `extent`
    // checks the advanced ones.
    let basic_bound = n.iter().try_fold(batch.saturating_mul(16), |a, &x| a.checked_mul(x.checked_add(2)?));
    if basic_bound.is_none_or(|b| b > isize::MAX as usize) {
        libcuda_client::log!("cufft", "sizes {n:?} batch {batch}: the data would not fit in memory");
        return Err(CUFFT_INVALID_SIZE);
    }
    let advanced = match r.advanced {
        None => None,
        Some((inembed, istride, idist, onembed, ostride, odist)) => {
            // embed[0] is never used, so any value is accepted there.
            let bad_embed = |e: &[i64]| e[1..].iter().any(|&x| x < 1);
            if istride < 1 || ostride < 1 || idist < 0 || odist < 0 || bad_embed(inembed) || bad_embed(onembed) {
                libcuda_client::log!(
                    "cufft",
                    "advanced layout inembed {inembed:?} istride {istride} idist {idist} onembed {onembed:?} ostride {ostride} odist {odist}: strides and storage dims must be positive, dists non-negative"
                );
                return Err(CUFFT_INVALID_VALUE);
            }
            let embed = |e: &[i64]| e.iter().map(|&x| x.max(0) as usize).collect();
            Some(Advanced {
                inembed: embed(inembed),
                istride: istride as usize,
                idist: idist as usize,
                onembed: embed(onembed),
                ostride: ostride as usize,
                odist: odist as usize,
            })
        }
    };
    // Both sides (either placement) must have extents that fit in an address space.
    for in_place in [false, true] {
        let (i, o) = crate::layout::resolve(r.ty.kind, &n, advanced.as_ref(), in_place);
        let fits = |s: &crate::layout::Side| s.extent(batch).and_then(|e| e.checked_mul(16)).is_some_and(|b| b <= isize::MAX as usize);
        if !fits(&i) || !fits(&o) {
            libcuda_client::log!("cufft", "sizes {n:?} batch {batch}: the data would not fit in memory");
            return Err(CUFFT_INVALID_SIZE);
        }
    }
    Ok((n, batch, advanced))
}

/// Makes the plan `handle` the transform `r`; the work size is 0 (the transforms keep
/// their own buffers in host memory).
pub fn make(handle: i32, r: &Request) -> Result<usize, CufftResult> {
    with(handle, |_| ())?;
    let (n, batch, advanced) = validate(r)?;
    let engine = match r.ty.precision {
        Precision::Single => AnyEngine::Single(planner::engine::<f32>(r.ty.kind, &n)),
        Precision::Double => AnyEngine::Double(planner::engine::<f64>(r.ty.kind, &n)),
    };
    let callbacks = with(handle, |plan| plan.callbacks.clone())?;
    let kernel = |cb: &Option<callback::JitCallback>, store: bool| -> Result<Option<Arc<Kernel>>, CufftResult> {
        let Some(cb) = cb else { return Ok(None) };
        if cb.ty.value != Value::of(r.ty, store) {
            libcuda_client::log!("cufft", "a {:?} callback has no use in a {} transform: it is not called", cb.ty, r.ty.name());
            return Ok(None);
        }
        callback::load(cb, callbacks.shared[store as usize]).map(|k| Some(Arc::new(k))).map_err(|why| {
            libcuda_client::log!("cufft", "callback {}: {why}; CUFFT_INTERNAL_ERROR", cb.name);
            CUFFT_INTERNAL_ERROR
        })
    };
    let load = kernel(&callbacks.load, false)?;
    let store = kernel(&callbacks.store, true)?;
    let spec = Spec { ty: r.ty, n, batch, advanced, engine, load, store };
    // Staging sized for an earlier transform is dropped once work queued with it is done.
    let (old, stream) = with(handle, |plan| {
        plan.spec = Some(spec);
        (std::mem::take(&mut plan.staging), plan.stream())
    })?;
    if old.iter().any(Option::is_some) {
        let _ = libcuda_client::synchronize(stream);
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;

    const C2C: FftType = FftType { kind: Kind::C2C, precision: Precision::Single };

    fn check(n: &[i64], advanced: Option<CLayout>, batch: i64) -> Result<(), CufftResult> {
        validate(&Request { n, advanced, ty: C2C, batch }).map(drop)
    }

    #[test]
    fn requests_are_checked_as_cufft_documents() {
        assert_eq!(check(&[8], None, 1), Ok(()));
        assert_eq!(check(&[2, 2, 2, 2], None, 1), Err(CUFFT_INVALID_SIZE));
        assert_eq!(check(&[], None, 1), Err(CUFFT_INVALID_SIZE));
        assert_eq!(check(&[0], None, 1), Err(CUFFT_INVALID_SIZE));
        assert_eq!(check(&[8, -1], None, 1), Err(CUFFT_INVALID_SIZE));
        assert_eq!(check(&[8], None, 0), Err(CUFFT_INVALID_SIZE));
        let e: &[i64] = &[4, 9];
        assert_eq!(check(&[4, 8], Some((e, 1, 36, e, 1, 36)), 2), Ok(()));
        assert_eq!(check(&[4, 8], Some((e, 0, 36, e, 1, 36)), 2), Err(CUFFT_INVALID_VALUE));
        assert_eq!(check(&[4, 8], Some((e, 1, -1, e, 1, 36)), 2), Err(CUFFT_INVALID_VALUE));
        assert_eq!(check(&[4, 8], Some((&[4, 0], 1, 36, e, 1, 36)), 2), Err(CUFFT_INVALID_VALUE));
        // Extents past the address space.
        assert_eq!(check(&[1 << 30, 1 << 30, 1 << 30], None, 1), Err(CUFFT_INVALID_SIZE));
        assert_eq!(check(&[4, 8, 8], Some((&[4, 1 << 40, 1 << 40], 1, 0, &[4, 8, 8], 1, 256)), 1), Err(CUFFT_INVALID_SIZE));
        assert_eq!(check(&[4, 8], Some((e, 1, i64::MAX / 4, e, 1, 36)), 8), Err(CUFFT_INVALID_SIZE));
    }

    #[test]
    fn handles_are_positive_and_die_once() {
        let h = create();
        assert!(h > 0);
        assert_eq!(with(h, |p| p.spec.is_none()), Ok(true));
        assert_eq!(make(h, &Request { n: &[16], advanced: None, ty: C2C, batch: 3 }), Ok(0));
        assert_eq!(with(h, |p| p.spec.as_ref().map(|s| (s.n.clone(), s.batch))), Ok(Some((vec![16], 3))));
        assert_eq!(destroy(h), Ok(()));
        assert_eq!(destroy(h), Err(CUFFT_INVALID_PLAN));
        assert_eq!(make(h, &Request { n: &[16], advanced: None, ty: C2C, batch: 1 }), Err(CUFFT_INVALID_PLAN));
    }
}
