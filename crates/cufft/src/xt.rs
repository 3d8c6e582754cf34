//! cuFFT's extensible API (`cufftXt.h`) on one device, and the entry points this library
//! does not implement.
//!
//! `cufftXtMakePlanMany`/`cufftXtExec` cover the single and double precision types
//! (half and bfloat16 answer `CUFFT_NOT_SUPPORTED`); LTO callbacks are in `callback`.
//! Multi-GPU plans and descriptors, legacy callbacks and plan properties answer
//! `CUFFT_NOT_SUPPORTED` with a log line; they exist so that programs linking them (CuPy's
//! cufft module does) load.

#![allow(non_snake_case)]
// The exports' safety contract is the C API's (see `exports`).
#![allow(clippy::missing_safety_doc)]

use std::ffi::{c_int, c_longlong, c_void};

use crate::callback::{CallbackType, JitCallback};
use crate::exec::exec;
use crate::exports::{advanced, check_rank, dims, guard, store};
use crate::plan::{self, Request};
use crate::types::*;

/// A `cufftXt...Many` request from C arguments.
///
/// # Safety
/// `n` points at `rank` values; the embeds are NULL or do too.
#[allow(clippy::too_many_arguments)]
unsafe fn xt_many(
    rank: c_int,
    n: *const c_longlong,
    inembed: *const c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    input_type: c_int,
    onembed: *const c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    output_type: c_int,
    batch: c_longlong,
    execution_type: c_int,
    body: impl FnOnce(&Request) -> Result<(), CufftResult>,
) -> Result<(), CufftResult> {
    let ty = FftType::from_xt(input_type, output_type, execution_type).inspect_err(|_| {
        libcuda_client::log!("cufft", "cudaDataType input {input_type}, output {output_type}, execution {execution_type}: only single and double precision transforms are implemented");
    })?;
    check_rank(rank)?;
    // SAFETY: the caller's guarantee.
    let (n, inembed, onembed) = unsafe { (dims(rank, n), dims(rank, inembed), dims(rank, onembed)) };
    let n = n.ok_or(CUFFT_INVALID_VALUE)?;
    let advanced = advanced(&inembed, istride, idist, &onembed, ostride, odist);
    body(&Request { n: &n, advanced, ty, batch })
}

#[no_mangle]
pub unsafe extern "C" fn cufftXtMakePlanMany(
    plan: c_int,
    rank: c_int,
    n: *const c_longlong,
    inembed: *const c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    input_type: c_int,
    onembed: *const c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    output_type: c_int,
    batch: c_longlong,
    work_size: *mut usize,
    execution_type: c_int,
) -> CufftResult {
    // SAFETY: the C API's pointer contracts.
    guard("cufftXtMakePlanMany", || unsafe {
        xt_many(rank, n, inembed, istride, idist, input_type, onembed, ostride, odist, output_type, batch, execution_type, |r| {
            let size = plan::make(plan, r)?;
            store(work_size, size);
            Ok(())
        })
    })
}

#[no_mangle]
pub unsafe extern "C" fn cufftXtGetSizeMany(
    plan: c_int,
    rank: c_int,
    n: *const c_longlong,
    inembed: *const c_longlong,
    istride: c_longlong,
    idist: c_longlong,
    input_type: c_int,
    onembed: *const c_longlong,
    ostride: c_longlong,
    odist: c_longlong,
    output_type: c_int,
    batch: c_longlong,
    work_size: *mut usize,
    execution_type: c_int,
) -> CufftResult {
    // SAFETY: the C API's pointer contracts.
    guard("cufftXtGetSizeMany", || unsafe {
        xt_many(rank, n, inembed, istride, idist, input_type, onembed, ostride, odist, output_type, batch, execution_type, |r| {
            plan::with(plan, |_| ())?;
            plan::validate(r)?;
            store(work_size, 0);
            Ok(())
        })
    })
}

/// `cufftXtExec`: the plan's own type; `direction` matters for complex transforms only.
#[no_mangle]
pub extern "C" fn cufftXtExec(plan: c_int, input: *mut c_void, output: *mut c_void, direction: c_int) -> CufftResult {
    guard("cufftXtExec", || exec("cufftXtExec", plan, input as u64, output as u64, direction, None))
}

/// `cufftXtSetWorkArea` for a single-device plan: the first (only) area is kept, as
/// `cufftSetWorkArea` keeps it.
#[no_mangle]
pub unsafe extern "C" fn cufftXtSetWorkArea(plan: c_int, work_area: *mut *mut c_void) -> CufftResult {
    guard("cufftXtSetWorkArea", || {
        // SAFETY: the C API's contract: one pointer per GPU of the plan (here one).
        let area = if work_area.is_null() { std::ptr::null_mut() } else { unsafe { *work_area } };
        plan::with(plan, |p| p.work_area = area as u64)
    })
}

/// `cufftXtSetWorkAreaPolicy`: every policy is met (the work size is 0 under each).
#[no_mangle]
pub unsafe extern "C" fn cufftXtSetWorkAreaPolicy(plan: c_int, policy: c_int, work_size: *mut usize) -> CufftResult {
    guard("cufftXtSetWorkAreaPolicy", || {
        if !(0..=2).contains(&policy) {
            return Err(CUFFT_INVALID_VALUE);
        }
        plan::with(plan, |_| ())?;
        // SAFETY: the C API's pointer contract.
        unsafe { store(work_size, 0) };
        Ok(())
    })
}

/// The callback type `kind`, or `CUFFT_INVALID_VALUE`.
fn callback_type(kind: c_int) -> Result<CallbackType, CufftResult> {
    CallbackType::from_c(kind).ok_or_else(|| {
        libcuda_client::log!("cufft", "{kind} is not a cufftXtCallbackType");
        CUFFT_INVALID_VALUE
    })
}

/// `cufftXtSetJITCallback(plan, symbol, lto_ir, size, type, caller_info)`: before the plan
/// is made (`CUFFT_INVALID_PLAN` after, as NVIDIA's cuFFT answers); the LTO-IR is checked
/// when it is made.
#[no_mangle]
pub unsafe extern "C" fn cufftXtSetJITCallback(
    plan: c_int,
    name: *const std::ffi::c_char,
    code: *const c_void,
    size: usize,
    kind: c_int,
    info: *mut *mut c_void,
) -> CufftResult {
    guard("cufftXtSetJITCallback", || {
        let ty = callback_type(kind)?;
        if plan::with(plan, |p| p.spec.is_some())? {
            libcuda_client::log!("cufft", "cufftXtSetJITCallback: plan {plan} is already made; set callbacks between cufftCreate and cufftMakePlan*");
            return Err(CUFFT_INVALID_PLAN);
        }
        if name.is_null() || code.is_null() || size == 0 {
            libcuda_client::log!("cufft", "cufftXtSetJITCallback: NULL symbol name or LTO-IR, or an empty one");
            return Err(CUFFT_INVALID_VALUE);
        }
        // SAFETY: the caller passes a NUL-terminated name and `size` readable bytes.
        let (name, code) =
            unsafe { (std::ffi::CStr::from_ptr(name).to_string_lossy().into_owned(), std::slice::from_raw_parts(code.cast::<u8>(), size).to_vec()) };
        // SAFETY: `info` is NULL or points at one device pointer per GPU (one here).
        let info = if info.is_null() { 0 } else { unsafe { *info as u64 } };
        let cb = JitCallback { ty, name, code, info };
        plan::with(plan, |p| if ty.store { p.callbacks.store = Some(cb) } else { p.callbacks.load = Some(cb) })
    })
}

/// CUDA 12.8 and 12.9's cuFFT 11 exports `cufftXtSetJITCallback` under this name (its
/// header maps the public name onto it); CuPy for CUDA 12 looks it up.
#[no_mangle]
pub unsafe extern "C" fn __cufftXtSetJITCallback_12_7(
    plan: c_int,
    name: *const std::ffi::c_char,
    code: *const c_void,
    size: usize,
    kind: c_int,
    info: *mut *mut c_void,
) -> CufftResult {
    // SAFETY: the same contract.
    unsafe { cufftXtSetJITCallback(plan, name, code, size, kind, info) }
}

/// `cufftXtClearCallback(plan, type)`: `CUFFT_NOT_IMPLEMENTED`, before and after the make,
/// and the plan's LTO callbacks stay in force, as NVIDIA's cuFFT answers (measured on an
/// H200); clearing is for legacy callbacks, which this library does not run.
#[no_mangle]
pub extern "C" fn cufftXtClearCallback(plan: c_int, kind: c_int) -> CufftResult {
    guard("cufftXtClearCallback", || {
        callback_type(kind)?;
        plan::with(plan, |_| ())?;
        libcuda_client::log!("cufft", "cufftXtClearCallback: LTO callbacks cannot be cleared (CUFFT_NOT_IMPLEMENTED, as NVIDIA's cuFFT)");
        Err(CUFFT_NOT_IMPLEMENTED)
    })
}

/// `cufftXtSetCallbackSharedSize(plan, type, bytes)`: the dynamic shared memory each
/// block of the callback's kernel gets (the `sharedPointer` argument), set before the plan
/// is made.
#[no_mangle]
pub extern "C" fn cufftXtSetCallbackSharedSize(plan: c_int, kind: c_int, bytes: usize) -> CufftResult {
    guard("cufftXtSetCallbackSharedSize", || {
        let ty = callback_type(kind)?;
        let bytes = u32::try_from(bytes).map_err(|_| CUFFT_INVALID_VALUE)?;
        plan::with(plan, |p| p.callbacks.shared[ty.store as usize] = bytes)
    })
}

/// Defines exports that answer `CUFFT_NOT_SUPPORTED` with a log line, with their C
/// parameters (unused).
macro_rules! not_supported {
    ($($name:ident($($arg:ident: $ty:ty),*) => $why:literal;)*) => {$(
        #[no_mangle]
        pub extern "C" fn $name($(_: $ty),*) -> CufftResult {
            libcuda_client::log!("cufft", "{} is not implemented: {}; CUFFT_NOT_SUPPORTED", stringify!($name), $why);
            CUFFT_NOT_SUPPORTED
        }
    )*};
}

not_supported! {
    cufftXtSetGPUs(plan: c_int, n_gpus: c_int, which: *mut c_int) => "multi-GPU plans";
    cufftXtMalloc(plan: c_int, descriptor: *mut *mut c_void, format: c_int) => "multi-GPU descriptors";
    cufftXtMemcpy(plan: c_int, dst: *mut c_void, src: *mut c_void, kind: c_int) => "multi-GPU descriptors";
    cufftXtFree(descriptor: *mut c_void) => "multi-GPU descriptors";
    cufftXtExecDescriptorC2C(plan: c_int, input: *mut c_void, output: *mut c_void, direction: c_int) => "multi-GPU descriptors";
    cufftXtExecDescriptorR2C(plan: c_int, input: *mut c_void, output: *mut c_void) => "multi-GPU descriptors";
    cufftXtExecDescriptorC2R(plan: c_int, input: *mut c_void, output: *mut c_void) => "multi-GPU descriptors";
    cufftXtExecDescriptorZ2Z(plan: c_int, input: *mut c_void, output: *mut c_void, direction: c_int) => "multi-GPU descriptors";
    cufftXtExecDescriptorD2Z(plan: c_int, input: *mut c_void, output: *mut c_void) => "multi-GPU descriptors";
    cufftXtExecDescriptorZ2D(plan: c_int, input: *mut c_void, output: *mut c_void) => "multi-GPU descriptors";
    cufftXtExecDescriptor(plan: c_int, input: *mut c_void, output: *mut c_void, direction: c_int) => "multi-GPU descriptors";
    cufftXtQueryPlan(plan: c_int, info: *mut c_void, query: c_int) => "multi-GPU plan queries";
    cufftXtSetDistribution(plan: c_int, rank: c_int, lower_in: *const c_longlong, upper_in: *const c_longlong, lower_out: *const c_longlong, upper_out: *const c_longlong, strides_in: *const c_longlong, strides_out: *const c_longlong) => "multi-GPU distributions";
    cufftXtSetSubformatDefault(plan: c_int, forward: c_int, inverse: c_int) => "multi-GPU subformats";
    cufftXtSetCallback(plan: c_int, routines: *mut *mut c_void, kind: c_int, info: *mut *mut c_void) => "legacy callbacks (device function pointers of a statically linked cuFFT; LTO callbacks, cufftXtSetJITCallback, are implemented)";
    cufftSetPlanPropertyInt64(plan: c_int, property: c_int, value: c_longlong) => "plan properties";
    cufftGetPlanPropertyInt64(plan: c_int, property: c_int, value: *mut c_longlong) => "plan properties";
    cufftResetPlanProperty(plan: c_int, property: c_int) => "plan properties";
}
