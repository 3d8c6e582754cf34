//! cuFFT's C API (`cufft.h`): plans, their settings, execution, versions.
//!
//! Every export runs inside [`guard`] (a panic is `CUFFT_INTERNAL_ERROR` plus a line on
//! stderr). Out-pointers may be NULL where cuFFT lets them be (`workSize`).

#![allow(non_snake_case)]
// The exports' safety contract is the C API's: pointer arguments are NULL where cuFFT
// allows it, else valid for the reads and writes its documentation describes.
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_int, c_longlong, c_void};

use crate::exec::exec;
use crate::plan::{self, CLayout, Request};
use crate::types::*;

/// Runs an export's body behind the panic firewall.
pub(crate) fn guard(name: &str, body: impl FnOnce() -> Result<(), CufftResult>) -> CufftResult {
    libcuda_client::boundary::guard("cufft", name, CUFFT_SUCCESS, CUFFT_INTERNAL_ERROR, body)
}

/// The type of a `cufftType` value, or `CUFFT_INVALID_TYPE`.
fn fft_type(value: c_int) -> Result<FftType, CufftResult> {
    FftType::from_c(value).ok_or_else(|| {
        libcuda_client::log!("cufft", "{value:#x} is not a cufftType");
        CUFFT_INVALID_TYPE
    })
}

/// Reads `rank` values at `ptr` (rank already checked to be 1 to 3); `None` for NULL.
///
/// # Safety
/// `ptr` is NULL or points at `rank` readable values.
pub(crate) unsafe fn dims<I: Copy + Into<i64>>(rank: c_int, ptr: *const I) -> Option<Vec<i64>> {
    if ptr.is_null() {
        return None;
    }
    // SAFETY: the caller's guarantee.
    Some(unsafe { std::slice::from_raw_parts(ptr, rank as usize) }.iter().map(|&x| x.into()).collect())
}

/// Checks the rank before anything reads `rank` values.
pub(crate) fn check_rank(rank: c_int) -> Result<(), CufftResult> {
    if (1..=3).contains(&rank) {
        return Ok(());
    }
    libcuda_client::log!("cufft", "rank {rank} is not 1, 2 or 3");
    Err(CUFFT_INVALID_SIZE)
}

/// Stores `value` through an optional out-pointer.
///
/// # Safety
/// `ptr` is NULL or writable.
pub(crate) unsafe fn store<T>(ptr: *mut T, value: T) {
    if !ptr.is_null() {
        // SAFETY: the caller's guarantee.
        unsafe { ptr.write(value) };
    }
}

/// The advanced layout of a `...Many` call: both embeds given, else the basic layout
/// (cuFFT ignores the strides and dists when an embed is NULL).
pub(crate) fn advanced<'a>(
    inembed: &'a Option<Vec<i64>>,
    istride: i64,
    idist: i64,
    onembed: &'a Option<Vec<i64>>,
    ostride: i64,
    odist: i64,
) -> Option<CLayout<'a>> {
    match (inembed, onembed) {
        (Some(i), Some(o)) => Some((i, istride, idist, o, ostride, odist)),
        _ => None,
    }
}

/// A `...Many` request from C arguments (`I` is `int` or `long long`).
///
/// # Safety
/// `n` points at `rank` values; the embeds are NULL or do too.
#[allow(clippy::too_many_arguments)]
unsafe fn many<I: Copy + Into<i64>>(
    rank: c_int,
    n: *const I,
    inembed: *const I,
    istride: i64,
    idist: i64,
    onembed: *const I,
    ostride: i64,
    odist: i64,
    ty: c_int,
    batch: i64,
    body: impl FnOnce(&Request) -> Result<(), CufftResult>,
) -> Result<(), CufftResult> {
    let ty = fft_type(ty)?;
    check_rank(rank)?;
    // SAFETY: the caller's guarantee.
    let (n, inembed, onembed) = unsafe { (dims(rank, n), dims(rank, inembed), dims(rank, onembed)) };
    let n = n.ok_or(CUFFT_INVALID_VALUE)?;
    let advanced = advanced(&inembed, istride, idist, &onembed, ostride, odist);
    body(&Request { n: &n, advanced, ty, batch })
}

/// Makes plan `handle` and stores its work size.
///
/// # Safety
/// `work_size` is NULL or writable.
unsafe fn make(handle: c_int, r: &Request, work_size: *mut usize) -> Result<(), CufftResult> {
    let size = plan::make(handle, r)?;
    // SAFETY: the caller's guarantee.
    unsafe { store(work_size, size) };
    Ok(())
}

/// Creates a plan, makes it, and stores its handle (destroyed again if making fails).
///
/// # Safety
/// `out` is NULL or writable.
unsafe fn create_and_make(out: *mut c_int, r: &Request) -> Result<(), CufftResult> {
    if out.is_null() {
        return Err(CUFFT_INVALID_VALUE);
    }
    let handle = plan::create();
    if let Err(e) = plan::make(handle, r) {
        let _ = plan::destroy(handle);
        return Err(e);
    }
    // SAFETY: checked non-NULL; the caller's guarantee.
    unsafe { out.write(handle) };
    Ok(())
}

/// Checks a request without a plan and stores the work size (always 0).
///
/// # Safety
/// `work_size` is NULL or writable.
unsafe fn estimate(r: &Request, work_size: *mut usize) -> Result<(), CufftResult> {
    plan::validate(r)?;
    // SAFETY: the caller's guarantee.
    unsafe { store(work_size, 0) };
    Ok(())
}

/// Checks a request against an existing plan handle and stores the work size.
///
/// # Safety
/// `work_size` is NULL or writable.
unsafe fn get_size(handle: c_int, r: &Request, work_size: *mut usize) -> Result<(), CufftResult> {
    plan::with(handle, |_| ())?;
    // SAFETY: forwarded.
    unsafe { estimate(r, work_size) }
}

fn request(n: &[i64], ty: c_int, batch: i64) -> Result<Request<'_>, CufftResult> {
    Ok(Request { n, advanced: None, ty: fft_type(ty)?, batch })
}

// ---- handles -------------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cufftCreate(handle: *mut c_int) -> CufftResult {
    guard("cufftCreate", || {
        if handle.is_null() {
            return Err(CUFFT_INVALID_VALUE);
        }
        // SAFETY: non-NULL out-pointer from the caller.
        unsafe { handle.write(plan::create()) };
        Ok(())
    })
}

#[no_mangle]
pub extern "C" fn cufftDestroy(plan: c_int) -> CufftResult {
    guard("cufftDestroy", || plan::destroy(plan))
}

// ---- basic plans ---------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cufftPlan1d(plan: *mut c_int, nx: c_int, ty: c_int, batch: c_int) -> CufftResult {
    // SAFETY (all `unsafe` blocks of the exports): the C API's pointer contracts.
    guard("cufftPlan1d", || unsafe { create_and_make(plan, &request(&[nx.into()], ty, batch.into())?) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftPlan2d(plan: *mut c_int, nx: c_int, ny: c_int, ty: c_int) -> CufftResult {
    guard("cufftPlan2d", || unsafe { create_and_make(plan, &request(&[nx.into(), ny.into()], ty, 1)?) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftPlan3d(plan: *mut c_int, nx: c_int, ny: c_int, nz: c_int, ty: c_int) -> CufftResult {
    guard("cufftPlan3d", || unsafe { create_and_make(plan, &request(&[nx.into(), ny.into(), nz.into()], ty, 1)?) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftPlanMany(
    plan: *mut c_int,
    rank: c_int,
    n: *const c_int,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    ty: c_int,
    batch: c_int,
) -> CufftResult {
    guard("cufftPlanMany", || unsafe {
        many(rank, n, inembed, istride.into(), idist.into(), onembed, ostride.into(), odist.into(), ty, batch.into(), |r| create_and_make(plan, r))
    })
}

// ---- extensible plans ------------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cufftMakePlan1d(plan: c_int, nx: c_int, ty: c_int, batch: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftMakePlan1d", || unsafe { make(plan, &request(&[nx.into()], ty, batch.into())?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftMakePlan2d(plan: c_int, nx: c_int, ny: c_int, ty: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftMakePlan2d", || unsafe { make(plan, &request(&[nx.into(), ny.into()], ty, 1)?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftMakePlan3d(plan: c_int, nx: c_int, ny: c_int, nz: c_int, ty: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftMakePlan3d", || unsafe { make(plan, &request(&[nx.into(), ny.into(), nz.into()], ty, 1)?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftMakePlanMany(
    plan: c_int,
    rank: c_int,
    n: *const c_int,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    ty: c_int,
    batch: c_int,
    work_size: *mut usize,
) -> CufftResult {
    guard("cufftMakePlanMany", || unsafe {
        many(rank, n, inembed, istride.into(), idist.into(), onembed, ostride.into(), odist.into(), ty, batch.into(), |r| make(plan, r, work_size))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cufftMakePlanMany64(
    plan: c_int,
    rank: c_int,
    n: *const c_longlong,
    inembed: *const c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    onembed: *const c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    ty: c_int,
    batch: c_longlong,
    work_size: *mut usize,
) -> CufftResult {
    guard("cufftMakePlanMany64", || unsafe {
        many(rank, n, inembed, istride, idist, onembed, ostride, odist, ty, batch, |r| make(plan, r, work_size))
    })
}

// ---- work size estimates -----------------------------------------------------------------

#[no_mangle]
pub unsafe extern "C" fn cufftEstimate1d(nx: c_int, ty: c_int, batch: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftEstimate1d", || unsafe { estimate(&request(&[nx.into()], ty, batch.into())?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftEstimate2d(nx: c_int, ny: c_int, ty: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftEstimate2d", || unsafe { estimate(&request(&[nx.into(), ny.into()], ty, 1)?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftEstimate3d(nx: c_int, ny: c_int, nz: c_int, ty: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftEstimate3d", || unsafe { estimate(&request(&[nx.into(), ny.into(), nz.into()], ty, 1)?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftEstimateMany(
    rank: c_int,
    n: *const c_int,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    ty: c_int,
    batch: c_int,
    work_size: *mut usize,
) -> CufftResult {
    guard("cufftEstimateMany", || unsafe {
        many(rank, n, inembed, istride.into(), idist.into(), onembed, ostride.into(), odist.into(), ty, batch.into(), |r| estimate(r, work_size))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cufftGetSize1d(plan: c_int, nx: c_int, ty: c_int, batch: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftGetSize1d", || unsafe { get_size(plan, &request(&[nx.into()], ty, batch.into())?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftGetSize2d(plan: c_int, nx: c_int, ny: c_int, ty: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftGetSize2d", || unsafe { get_size(plan, &request(&[nx.into(), ny.into()], ty, 1)?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftGetSize3d(plan: c_int, nx: c_int, ny: c_int, nz: c_int, ty: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftGetSize3d", || unsafe { get_size(plan, &request(&[nx.into(), ny.into(), nz.into()], ty, 1)?, work_size) })
}

#[no_mangle]
pub unsafe extern "C" fn cufftGetSizeMany(
    plan: c_int,
    rank: c_int,
    n: *const c_int,
    inembed: *const c_int,
    istride: c_int,
    idist: c_int,
    onembed: *const c_int,
    ostride: c_int,
    odist: c_int,
    ty: c_int,
    batch: c_int,
    work_size: *mut usize,
) -> CufftResult {
    guard("cufftGetSizeMany", || unsafe {
        many(rank, n, inembed, istride.into(), idist.into(), onembed, ostride.into(), odist.into(), ty, batch.into(), |r| {
            get_size(plan, r, work_size)
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cufftGetSizeMany64(
    plan: c_int,
    rank: c_int,
    n: *const c_longlong,
    inembed: *const c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    onembed: *const c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    ty: c_int,
    batch: c_longlong,
    work_size: *mut usize,
) -> CufftResult {
    guard("cufftGetSizeMany64", || unsafe {
        many(rank, n, inembed, istride, idist, onembed, ostride, odist, ty, batch, |r| get_size(plan, r, work_size))
    })
}

#[no_mangle]
pub unsafe extern "C" fn cufftGetSize(plan: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftGetSize", || {
        plan::with(plan, |_| ())?;
        // SAFETY: the C API's pointer contract.
        unsafe { store(work_size, 0) };
        Ok(())
    })
}

// ---- plan settings -------------------------------------------------------------------------

/// `cufftSetWorkArea`: kept, never needed (the work size is 0: the transforms' buffers are
/// host memory of their own).
#[no_mangle]
pub extern "C" fn cufftSetWorkArea(plan: c_int, work_area: *mut c_void) -> CufftResult {
    guard("cufftSetWorkArea", || plan::with(plan, |p| p.work_area = work_area as u64))
}

#[no_mangle]
pub extern "C" fn cufftSetAutoAllocation(plan: c_int, auto_allocate: c_int) -> CufftResult {
    guard("cufftSetAutoAllocation", || plan::with(plan, |p| p.auto_allocate = auto_allocate != 0))
}

#[no_mangle]
pub extern "C" fn cufftSetStream(plan: c_int, stream: *mut c_void) -> CufftResult {
    guard("cufftSetStream", || plan::with(plan, |p| p.stream = stream as usize))
}

// ---- execution ---------------------------------------------------------------------------

const C2C: FftType = FftType { kind: Kind::C2C, precision: Precision::Single };
const R2C: FftType = FftType { kind: Kind::R2C, precision: Precision::Single };
const C2R: FftType = FftType { kind: Kind::C2R, precision: Precision::Single };
const Z2Z: FftType = FftType { kind: Kind::C2C, precision: Precision::Double };
const D2Z: FftType = FftType { kind: Kind::R2C, precision: Precision::Double };
const Z2D: FftType = FftType { kind: Kind::C2R, precision: Precision::Double };

#[no_mangle]
pub extern "C" fn cufftExecC2C(plan: c_int, idata: *mut c_void, odata: *mut c_void, direction: c_int) -> CufftResult {
    guard("cufftExecC2C", || exec("cufftExecC2C", plan, idata as u64, odata as u64, direction, Some(C2C)))
}

#[no_mangle]
pub extern "C" fn cufftExecR2C(plan: c_int, idata: *mut c_void, odata: *mut c_void) -> CufftResult {
    guard("cufftExecR2C", || exec("cufftExecR2C", plan, idata as u64, odata as u64, CUFFT_FORWARD, Some(R2C)))
}

#[no_mangle]
pub extern "C" fn cufftExecC2R(plan: c_int, idata: *mut c_void, odata: *mut c_void) -> CufftResult {
    guard("cufftExecC2R", || exec("cufftExecC2R", plan, idata as u64, odata as u64, CUFFT_INVERSE, Some(C2R)))
}

#[no_mangle]
pub extern "C" fn cufftExecZ2Z(plan: c_int, idata: *mut c_void, odata: *mut c_void, direction: c_int) -> CufftResult {
    guard("cufftExecZ2Z", || exec("cufftExecZ2Z", plan, idata as u64, odata as u64, direction, Some(Z2Z)))
}

#[no_mangle]
pub extern "C" fn cufftExecD2Z(plan: c_int, idata: *mut c_void, odata: *mut c_void) -> CufftResult {
    guard("cufftExecD2Z", || exec("cufftExecD2Z", plan, idata as u64, odata as u64, CUFFT_FORWARD, Some(D2Z)))
}

#[no_mangle]
pub extern "C" fn cufftExecZ2D(plan: c_int, idata: *mut c_void, odata: *mut c_void) -> CufftResult {
    guard("cufftExecZ2D", || exec("cufftExecZ2D", plan, idata as u64, odata as u64, CUFFT_INVERSE, Some(Z2D)))
}

// ---- versions ------------------------------------------------------------------------------

/// cuFFT's (major, minor, patch): cuFFT 12's, CUDA 13's, under either name. (CUDA 12's
/// programs, which link libcufft.so.11, check that the run-time version is at least the
/// one they were built with, 11.x; CuPy loads libcufft.so.12 first when both exist.)
fn version() -> (c_int, c_int, c_int) {
    VERSION
}

#[no_mangle]
pub unsafe extern "C" fn cufftGetVersion(out: *mut c_int) -> CufftResult {
    guard("cufftGetVersion", || {
        if out.is_null() {
            return Err(CUFFT_INVALID_VALUE);
        }
        let (major, minor, patch) = version();
        // SAFETY: non-NULL out-pointer from the caller.
        unsafe { out.write(major * 1000 + minor * 100 + patch) };
        Ok(())
    })
}

/// `cufftGetProperty(MAJOR_VERSION = 0 | MINOR_VERSION = 1 | PATCH_LEVEL = 2, value)`.
#[no_mangle]
pub unsafe extern "C" fn cufftGetProperty(property: c_int, out: *mut c_int) -> CufftResult {
    guard("cufftGetProperty", || {
        if out.is_null() {
            return Err(CUFFT_INVALID_VALUE);
        }
        let (major, minor, patch) = version();
        let value = match property {
            0 => major,
            1 => minor,
            2 => patch,
            _ => return Err(CUFFT_INVALID_TYPE),
        };
        // SAFETY: non-NULL out-pointer from the caller.
        unsafe { out.write(value) };
        Ok(())
    })
}
