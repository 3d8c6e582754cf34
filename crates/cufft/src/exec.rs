//! Executing a plan: checks as cuFFT makes them, then the transform queued on the
//! plan's stream over host views of the device ranges.

use std::ffi::c_int;

use libcuda_client::{enqueue, host_range, AccessError};

use crate::callback::Staging;
use crate::engine::Operands;
use crate::layout::resolve;
use crate::plan::{self, AnyEngine};
use crate::types::*;

/// The status for an operand the host cannot use.
fn access_status(which: &str, e: &AccessError) -> CufftResult {
    libcuda_client::log!("cufft", "{which}: {e}");
    match e {
        AccessError::NoDriver(_) => CUFFT_SETUP_FAILED,
        AccessError::Unregistered { .. } | AccessError::OutOfRange { .. } => CUFFT_INVALID_VALUE,
        AccessError::NotHostAddressable { .. } => CUFFT_NOT_SUPPORTED,
    }
}

/// Executes plan `handle` from `idata` to `odata` (device addresses). `expect` is the
/// type the entry point transforms (`None` for `cufftXtExec`, which takes the plan's);
/// `direction` is the C value for complex transforms (real ones have theirs by kind).
pub fn exec(name: &'static str, handle: c_int, idata: u64, odata: u64, direction: c_int, expect: Option<FftType>) -> Result<(), CufftResult> {
    let (spec, stream) = plan::with(handle, |p| (p.spec.clone(), p.stream))?;
    let Some(spec) = spec else {
        libcuda_client::log!("cufft", "{name}: plan {handle} was created but never made (cufftMakePlan*)");
        return Err(CUFFT_INVALID_PLAN);
    };
    if let Some(expect) = expect {
        if expect != spec.ty {
            libcuda_client::log!("cufft", "{name}: plan {handle} is a {} plan, not {}", spec.ty.name(), expect.name());
            return Err(CUFFT_INVALID_PLAN);
        }
    }
    let direction = match spec.ty.kind {
        Kind::C2C => Direction::from_c(direction).ok_or_else(|| {
            libcuda_client::log!("cufft", "{name}: direction {direction} is neither CUFFT_FORWARD (-1) nor CUFFT_INVERSE (1)");
            CUFFT_INVALID_VALUE
        })?,
        Kind::R2C => Direction::Forward,
        Kind::C2R => Direction::Inverse,
    };
    if idata == 0 || odata == 0 {
        libcuda_client::log!("cufft", "{name}: NULL data pointer (idata {idata:#x}, odata {odata:#x})");
        return Err(CUFFT_INVALID_VALUE);
    }
    let (input_side, output_side) = resolve(spec.ty.kind, &spec.n, spec.advanced.as_ref(), idata == odata);
    let real = match spec.ty.precision {
        Precision::Single => 4,
        Precision::Double => 8,
    };
    let in_size = if spec.ty.kind == Kind::R2C { real } else { 2 * real };
    let out_size = if spec.ty.kind == Kind::C2R { real } else { 2 * real };
    if !idata.is_multiple_of(real as u64) || !odata.is_multiple_of(real as u64) {
        libcuda_client::log!("cufft", "{name}: data not aligned to {real} bytes (idata {idata:#x}, odata {odata:#x})");
        return Err(CUFFT_INVALID_VALUE);
    }
    // `validate` checked that both extents fit in memory.
    let input_len = input_side.extent(spec.batch).ok_or(CUFFT_INVALID_SIZE)?;
    let output_len = output_side.extent(spec.batch).ok_or(CUFFT_INVALID_SIZE)?;
    let (in_bytes, out_bytes) = (input_len * in_size, output_len * out_size);
    let mut input = host_range(idata, in_bytes).map_err(|e| access_status(&format!("{name}: input"), &e))?;
    let mut output = host_range(odata, out_bytes).map_err(|e| access_status(&format!("{name}: output"), &e))?;
    // With callbacks the transform runs between staging buffers laid out as the caller's
    // data: a load callback's kernel fills the staged input first, a store callback's
    // kernel takes the staged output after (see `callback`).
    let staging = match spec.load.is_some() || spec.store.is_some() {
        true => Some(plan::staging(handle, idata == odata, || Staging::new(&input_side, &output_side, spec.batch, in_bytes, out_bytes))?),
        false => None,
    };
    if let (Some(k), Some(s)) = (&spec.load, &staging) {
        input = host_range(s.input, in_bytes).map_err(|e| access_status(&format!("{name}: staged input"), &e))?;
        k.launch(stream, idata, s.input, s.input_offsets, s.input_count)?;
    }
    if let (Some(_), Some(s)) = (&spec.store, &staging) {
        output = host_range(s.output, out_bytes).map_err(|e| access_status(&format!("{name}: staged output"), &e))?;
    }
    let (i0, o0) = (input as usize, output as usize);
    let overlap = i0 < o0 + out_bytes && o0 < i0 + in_bytes;
    let op = Operands { input, input_len, output, output_len, input_side, output_side, batch: spec.batch, direction, overlap };
    let engine = spec.engine;
    enqueue(stream as libcuda_client::CUstream, "cufft", name, move || {
        // SAFETY: `host_range` vouched for both ranges (one allocation each, host
        // addressable, long enough for every element the sides address); the program
        // keeps them alive and untouched until the stream reaches this work, as with
        // any kernel it queues.
        unsafe {
            match &engine {
                AnyEngine::Single(e) => e.run(&op),
                AnyEngine::Double(e) => e.run(&op),
            }
        }
    })
    .map_err(|status| {
        libcuda_client::log!("cufft", "{name}: the driver did not queue the transform (CUresult {status})");
        CUFFT_EXEC_FAILED
    })?;
    if let (Some(k), Some(s)) = (&spec.store, &staging) {
        k.launch(stream, odata, s.output, s.output_offsets, s.output_count)?;
    }
    Ok(())
}
