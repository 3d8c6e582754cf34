//! `cuLink*`: JIT link states (`CUlinkState`).
//!
//! The driver (`cuda_driver::link`) keeps the inputs, logs and output images. What lives
//! here is the C side of `cuLinkCreate`'s options: "optionValues must remain valid for the
//! life of the CUlinkState if output options are used" (cuda.h), and the log and wall-time
//! outputs "accumulate data until the CUlinkState is destroyed", so the parsed options are
//! kept per state and written after every `cuLinkAddData`/`cuLinkAddFile`/`cuLinkComplete`.
//! Options given to `cuLinkAddData` itself only apply to compiling that input; they are
//! checked (NULL arrays) and otherwise ignored, as are `CU_JIT_TARGET` and friends.
//!
//! The unsuffixed names (CUDA 5.5 ABI) and the `_v2` names (CUDA 6.5) take the same
//! arguments and share one implementation.

use std::collections::HashMap;
use std::ffi::{c_char, c_uint, c_void, OsStr};
use std::os::unix::ffi::OsStrExt;
use std::path::Path;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cuda_driver::{CuError, LinkHandle};

use super::jit::JitOptions;
use super::{drv, link_handle, SendBox};
use crate::boundary::{c_str, export, slice, AbiResult, Out};
use crate::types::CUlinkState;

/// `cuLinkCreate`'s options of one live state, with the time spent in it so far.
type StateOptions = (SendBox<JitOptions>, Duration);

/// The options of every live link state.
static STATE_OPTIONS: Mutex<Option<HashMap<LinkHandle, StateOptions>>> = Mutex::new(None);

/// Runs `call` on link state `h`, adds its duration to the state's wall time, then writes
/// the state's logs and wall time through `cuLinkCreate`'s options.
fn with_outputs<T>(h: LinkHandle, call: impl FnOnce() -> AbiResult<T>) -> AbiResult<T> {
    let start = Instant::now();
    let result = call();
    let elapsed = start.elapsed();
    let logs = drv().and_then(|d| d.link_logs(h));
    let mut table = STATE_OPTIONS.lock().unwrap_or_else(|e| e.into_inner());
    if let (Some((options, total)), Ok(logs)) = (table.get_or_insert_with(HashMap::new).get_mut(&h), logs) {
        *total += elapsed;
        // SAFETY: cuLinkCreate's caller keeps the option buffers valid for the state's life.
        unsafe {
            options.0.write_logs(&logs);
            options.0.write_wall_time(total.as_secs_f32() * 1000.0);
        }
    }
    result
}

/// Checks per-input options: NULL arrays with a non-zero count are `INVALID_VALUE`.
///
/// # Safety
/// As [`JitOptions::parse`].
unsafe fn check_input_options(num: c_uint, options: *mut c_uint, values: *mut *mut c_void) -> AbiResult {
    // SAFETY: forwarded contract.
    unsafe { JitOptions::parse(num, options, values) }.map(|_| ())
}

/// # Safety
/// Arguments as `cuLinkCreate` documents them.
unsafe fn link_create(num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void, state_out: *mut CUlinkState) -> AbiResult {
    // SAFETY: NULL or writable, per the API.
    let out = unsafe { Out::new(state_out) }?;
    // SAFETY: the arrays hold `num_options` entries, per the API.
    let jit = unsafe { JitOptions::parse(num_options, options, option_values) }?;
    let h = drv()?.link_create(jit.load.max_registers)?;
    let mut table = STATE_OPTIONS.lock().unwrap_or_else(|e| e.into_inner());
    table.get_or_insert_with(HashMap::new).insert(h, (SendBox(jit), Duration::ZERO));
    out.write(h.as_raw().cast());
    Ok(())
}

/// # Safety
/// Arguments as `cuLinkAddData` documents them.
#[allow(clippy::too_many_arguments)]
unsafe fn link_add_data(
    state: CUlinkState,
    input_type: c_uint,
    data: *mut c_void,
    size: usize,
    name: *const c_char,
    num_options: c_uint,
    options: *mut c_uint,
    option_values: *mut *mut c_void,
) -> AbiResult {
    if data.is_null() || size == 0 {
        return Err(CuError::INVALID_VALUE);
    }
    // SAFETY: the arrays hold `num_options` entries, per the API.
    unsafe { check_input_options(num_options, options, option_values) }?;
    // SAFETY: `data` holds `size` bytes, per the API.
    let bytes = unsafe { slice(data.cast::<u8>().cast_const(), size) }?;
    let name = if name.is_null() {
        String::new()
    } else {
        // SAFETY: a non-NULL name is NUL-terminated, per the API.
        unsafe { c_str(name) }?.to_string_lossy().into_owned()
    };
    let h = link_handle(state);
    with_outputs(h, || drv()?.link_add_data(h, input_type, bytes, &name))
}

/// # Safety
/// Arguments as `cuLinkAddFile` documents them.
unsafe fn link_add_file(
    state: CUlinkState,
    input_type: c_uint,
    path: *const c_char,
    num_options: c_uint,
    options: *mut c_uint,
    option_values: *mut *mut c_void,
) -> AbiResult {
    // SAFETY: NULL or NUL-terminated, per the API.
    let path = unsafe { c_str(path) }?;
    // SAFETY: the arrays hold `num_options` entries, per the API.
    unsafe { check_input_options(num_options, options, option_values) }?;
    let path = Path::new(OsStr::from_bytes(path.to_bytes()));
    let h = link_handle(state);
    with_outputs(h, || drv()?.link_add_file(h, input_type, path))
}

export! {
    /// `cuLinkCreate_v2(unsigned numOptions, CUjit_option* options, void** optionValues, CUlinkState* stateOut)`.
    fn cuLinkCreate_v2(num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void, state_out: *mut CUlinkState) {
        // SAFETY: arguments as the API documents them.
        unsafe { link_create(num_options, options, option_values, state_out) }
    }

    /// `cuLinkCreate` (CUDA 5.5 ABI, same arguments as `_v2`).
    fn cuLinkCreate(num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void, state_out: *mut CUlinkState) {
        // SAFETY: arguments as the API documents them.
        unsafe { link_create(num_options, options, option_values, state_out) }
    }

    /// `cuLinkAddData_v2(CUlinkState state, CUjitInputType type, void* data, size_t size, const char* name, unsigned numOptions, CUjit_option* options, void** optionValues)`.
    fn cuLinkAddData_v2(state: CUlinkState, input_type: c_uint, data: *mut c_void, size: usize, name: *const c_char, num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void) {
        // SAFETY: arguments as the API documents them.
        unsafe { link_add_data(state, input_type, data, size, name, num_options, options, option_values) }
    }

    /// `cuLinkAddData` (CUDA 5.5 ABI, same arguments as `_v2`).
    fn cuLinkAddData(state: CUlinkState, input_type: c_uint, data: *mut c_void, size: usize, name: *const c_char, num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void) {
        // SAFETY: arguments as the API documents them.
        unsafe { link_add_data(state, input_type, data, size, name, num_options, options, option_values) }
    }

    /// `cuLinkAddFile_v2(CUlinkState state, CUjitInputType type, const char* path, unsigned numOptions, CUjit_option* options, void** optionValues)`.
    fn cuLinkAddFile_v2(state: CUlinkState, input_type: c_uint, path: *const c_char, num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void) {
        // SAFETY: arguments as the API documents them.
        unsafe { link_add_file(state, input_type, path, num_options, options, option_values) }
    }

    /// `cuLinkAddFile` (CUDA 5.5 ABI, same arguments as `_v2`).
    fn cuLinkAddFile(state: CUlinkState, input_type: c_uint, path: *const c_char, num_options: c_uint, options: *mut c_uint, option_values: *mut *mut c_void) {
        // SAFETY: arguments as the API documents them.
        unsafe { link_add_file(state, input_type, path, num_options, options, option_values) }
    }

    /// `cuLinkComplete(CUlinkState state, void** cubinOut, size_t* sizeOut)`: the image is
    /// owned by the state (valid until `cuLinkDestroy`); `sizeOut` is optional.
    fn cuLinkComplete(state: CUlinkState, cubin_out: *mut *mut c_void, size_out: *mut usize) {
        // SAFETY: NULL or writable, per the API.
        let (out, size) = unsafe { (Out::new(cubin_out)?, Out::optional(size_out)) };
        let h = link_handle(state);
        let (image, len) = with_outputs(h, || drv()?.link_complete(h))?;
        out.write(image.cast_mut().cast());
        if let Some(size) = size {
            size.write(len);
        }
        Ok(())
    }

    /// `cuLinkDestroy(CUlinkState state)`.
    fn cuLinkDestroy(state: CUlinkState) {
        let h = link_handle(state);
        drv()?.link_destroy(h)?;
        let mut table = STATE_OPTIONS.lock().unwrap_or_else(|e| e.into_inner());
        table.get_or_insert_with(HashMap::new).remove(&h);
        Ok(())
    }
}
