//! JIT options of `cuModuleLoadDataEx`, `cuLibraryLoadData` and `cuLibraryLoadFromFile`.
//!
//! Options come as two parallel arrays: `CUjit_option` ids and `void*` values. Sizes and
//! levels are passed *in* the pointer value itself, not through it. Interpreted here:
//! - `CU_JIT_OPTIMIZATION_LEVEL` (7) and `CU_JIT_MAX_REGISTERS` (0) -> the backend's
//!   `LoadOptions`;
//! - `CU_JIT_INFO_LOG_BUFFER` (3) / `CU_JIT_ERROR_LOG_BUFFER` (5): a `char*` buffer, and
//!   `..._SIZE_BYTES` (4 / 6) its size. After the load (successful or not) the log is
//!   copied in, truncated and NUL-terminated, and the size option's value slot is
//!   overwritten with the bytes used (NUL included; 0 for an empty log).
//!
//! - `CU_JIT_WALL_TIME` (2), link states only: the value slot is overwritten with the
//!   milliseconds spent so far, as a `float` in the pointer's low 32 bits.
//!
//! Every other option is accepted and ignored, as hints are.

use std::ffi::{c_char, c_uint, c_void};

use backend_api::LoadOptions;
use cuda_driver::module::JitLogs;
use cuda_driver::CuError;

use crate::boundary::{slice, write_c_string, AbiResult};
use crate::types::jit_option;

/// Where one log goes.
#[derive(Default)]
struct LogTarget {
    buffer: Option<*mut c_char>,
    size: usize,
    /// The `optionValues` slot of the size option, rewritten with the bytes used.
    size_slot: Option<*mut *mut c_void>,
}

impl LogTarget {
    /// # Safety
    /// The buffer must be writable for `size` bytes and the size slot writable, as the
    /// caller of the load promised.
    unsafe fn write(&self, log: &str) {
        let used = match self.buffer {
            // SAFETY: forwarded contract.
            Some(buf) if self.size > 0 => unsafe { write_c_string(buf, self.size, log) },
            _ => 0,
        };
        // NVIDIA's driver answers the bytes of text, without the NUL terminator (measured on
        // an H200, driver 580.159: a 52-character link error log reports 52).
        let used = if log.is_empty() { 0 } else { used.saturating_sub(1) };
        if let Some(slot) = self.size_slot {
            // SAFETY: forwarded contract; the value travels in the pointer itself.
            unsafe { slot.write_unaligned(used as *mut c_void) };
        }
    }
}

/// Parsed JIT options.
pub(crate) struct JitOptions {
    pub load: LoadOptions,
    info: LogTarget,
    error: LogTarget,
    wall_time: Option<*mut *mut c_void>,
}

impl JitOptions {
    /// Reads `num` options. NULL arrays with `num > 0` are `CUDA_ERROR_INVALID_VALUE`.
    ///
    /// # Safety
    /// `options` and `values` are NULL or hold `num` entries; log buffers named there
    /// stay writable until [`JitOptions::write_logs`].
    pub unsafe fn parse(num: c_uint, options: *const c_uint, values: *mut *mut c_void) -> AbiResult<JitOptions> {
        let n = num as usize;
        if n > 0 && (options.is_null() || values.is_null()) {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: forwarded contract; checked non-NULL when n > 0.
        let ids = unsafe { slice(options, n) }?;
        let mut parsed = JitOptions { load: LoadOptions::default(), info: LogTarget::default(), error: LogTarget::default(), wall_time: None };
        if let Some(&unknown) = ids.iter().find(|&&id| id >= jit_option::NUM_OPTIONS) {
            return Err(cuda_driver::diag::fail(CuError::INVALID_VALUE, format_args!("JIT option {unknown} is not a CUjit_option")));
        }
        for (i, &id) in ids.iter().enumerate() {
            // SAFETY: `values` holds `n` entries.
            let slot = unsafe { values.add(i) };
            // SAFETY: as above.
            let value = unsafe { slot.read_unaligned() };
            match id {
                jit_option::INFO_LOG_BUFFER => parsed.info.buffer = Some(value.cast()),
                jit_option::INFO_LOG_BUFFER_SIZE_BYTES => {
                    parsed.info.size = value as usize as c_uint as usize;
                    parsed.info.size_slot = Some(slot);
                }
                jit_option::ERROR_LOG_BUFFER => parsed.error.buffer = Some(value.cast()),
                jit_option::ERROR_LOG_BUFFER_SIZE_BYTES => {
                    parsed.error.size = value as usize as c_uint as usize;
                    parsed.error.size_slot = Some(slot);
                }
                jit_option::OPTIMIZATION_LEVEL => parsed.load.optimization_level = Some((value as usize as c_uint).min(4)),
                jit_option::WALL_TIME => parsed.wall_time = Some(slot),
                jit_option::MAX_REGISTERS => parsed.load.max_registers = Some(value as usize as c_uint),
                _ => {}
            }
        }
        Ok(parsed)
    }

    /// Fills the requested log buffers.
    ///
    /// # Safety
    /// As promised to [`JitOptions::parse`].
    pub unsafe fn write_logs(&self, logs: &JitLogs) {
        // SAFETY: forwarded contract.
        unsafe {
            self.info.write(&logs.info);
            self.error.write(&logs.error);
        }
    }

    /// Writes `CU_JIT_WALL_TIME`'s answer, if it was asked for.
    ///
    /// # Safety
    /// As promised to [`JitOptions::parse`]: the option's value slot is still writable.
    pub unsafe fn write_wall_time(&self, milliseconds: f32) {
        if let Some(slot) = self.wall_time {
            // SAFETY: forwarded contract; the float travels in the pointer's low bits.
            unsafe { slot.write_unaligned(milliseconds.to_bits() as usize as *mut c_void) };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logs_are_truncated_and_sizes_written_back() {
        let mut info = [0x55 as c_char; 8];
        let mut error = [0x55 as c_char; 64];
        let mut options = [
            jit_option::INFO_LOG_BUFFER,
            jit_option::INFO_LOG_BUFFER_SIZE_BYTES,
            jit_option::ERROR_LOG_BUFFER,
            jit_option::ERROR_LOG_BUFFER_SIZE_BYTES,
            jit_option::OPTIMIZATION_LEVEL,
            // CU_JIT_CACHE_MODE: known, and without effect here.
            14,
        ];
        let mut values: [*mut c_void; 6] = [
            info.as_mut_ptr().cast(),
            info.len() as *mut c_void,
            error.as_mut_ptr().cast(),
            error.len() as *mut c_void,
            2 as *mut c_void,
            std::ptr::null_mut(),
        ];
        // SAFETY: the arrays hold 6 entries and the buffers their declared sizes.
        unsafe {
            let parsed = JitOptions::parse(6, options.as_mut_ptr(), values.as_mut_ptr()).unwrap();
            assert_eq!(parsed.load.optimization_level, Some(2));
            parsed.write_logs(&JitLogs { info: "a long warning".into(), error: String::new() });
        }
        // An id past CU_JIT_NUM_OPTIONS is refused, as NVIDIA's driver refuses it.
        let (mut unknown, mut value) = ([999u32], [std::ptr::null_mut::<c_void>()]);
        // SAFETY: one entry each.
        assert!(unsafe { JitOptions::parse(1, unknown.as_mut_ptr(), value.as_mut_ptr()) }.is_err());
        assert_eq!(info.map(|c| c as u8), *b"a long \0");
        assert_eq!(values[1] as usize, 7);
        assert_eq!(error[0], 0);
        assert_eq!(values[3] as usize, 0);
    }

    #[test]
    fn null_arrays_with_options_are_rejected() {
        // SAFETY: NULL arrays are what is tested.
        unsafe {
            assert!(JitOptions::parse(1, std::ptr::null(), std::ptr::null_mut()).is_err());
            assert!(JitOptions::parse(0, std::ptr::null(), std::ptr::null_mut()).is_ok());
        }
    }
}
