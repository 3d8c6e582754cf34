//! Error log management: `cuLogsRegisterCallback`, `cuLogsUnregisterCallback`,
//! `cuLogsCurrent`, `cuLogsDumpToFile`, `cuLogsDumpToMemory` (CUDA 12.9). They work
//! before `cuInit`: the log is the process's. Semantics in `cuda_driver::logs`; the
//! `flags` arguments ("reserved, must be 0") are not checked, as NVIDIA's driver does not
//! check them (580.159).

use std::ffi::{c_char, c_uint, c_void};

use cuda_driver::{logs, CuError};

use crate::boundary::{export, utf8, Out};

/// The iterator argument of the dump calls: optional, read and advanced.
///
/// # Safety
/// `iterator` is NULL or readable and writable.
unsafe fn iterator<'a>(iterator: *mut c_uint) -> Option<&'a mut u32> {
    // SAFETY: forwarded contract.
    unsafe { iterator.as_mut() }
}

export! {
    /// `cuLogsRegisterCallback(CUlogsCallback callbackFunc, void* userData, CUlogsCallbackHandle* callback_out)`.
    fn cuLogsRegisterCallback(callback_func: Option<logs::Callback>, user_data: *mut c_void, callback_out: *mut *mut c_void) {
        let Some(func) = callback_func else {
            logs::record(logs::LEVEL_ERROR, format_args!("callbackFunc cannot be NULL"));
            return Err(CuError::INVALID_VALUE);
        };
        let id = logs::register_callback(func, user_data);
        // SAFETY: NULL ("optional") or writable, per the API.
        if let Some(out) = unsafe { Out::optional(callback_out) } {
            out.write(id as usize as *mut c_void);
        }
        Ok(())
    }

    /// `cuLogsUnregisterCallback(CUlogsCallbackHandle callback)`.
    fn cuLogsUnregisterCallback(callback: *mut c_void) {
        logs::unregister_callback(callback as usize as u64)
    }

    /// `cuLogsCurrent(CUlogIterator* iterator_out, unsigned flags)`.
    fn cuLogsCurrent(iterator_out: *mut c_uint, _flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(iterator_out) }?;
        out.write(logs::current());
        Ok(())
    }

    /// `cuLogsDumpToFile(CUlogIterator* iterator, const char* pathToFile, unsigned flags)`.
    fn cuLogsDumpToFile(it: *mut c_uint, path_to_file: *const c_char, _flags: c_uint) {
        // SAFETY: NUL-terminated or NULL, per the API.
        let path = unsafe { utf8(path_to_file, CuError::INVALID_VALUE) }?;
        // SAFETY: NULL or readable and writable, per the API.
        logs::dump_to_file(unsafe { iterator(it) }, std::path::Path::new(path))
    }

    /// `cuLogsDumpToMemory(CUlogIterator* iterator, char* buffer, size_t* size, unsigned flags)`:
    /// `*size` is the buffer's size in, the bytes written (without the NUL) out.
    fn cuLogsDumpToMemory(it: *mut c_uint, buffer: *mut c_char, size: *mut usize, _flags: c_uint) {
        if buffer.is_null() || size.is_null() {
            return Err(CuError::INVALID_VALUE);
        }
        // SAFETY: non-NULL and readable, per the API.
        let capacity = unsafe { size.read_unaligned() };
        // SAFETY: `capacity` writable bytes, per the API.
        let buf = unsafe { std::slice::from_raw_parts_mut(buffer.cast::<u8>(), capacity) };
        // SAFETY: NULL or readable and writable, per the API.
        let result = logs::dump_to_memory(unsafe { iterator(it) }, buf);
        // SAFETY: non-NULL and writable, per the API.
        unsafe { size.write_unaligned(*result.as_ref().unwrap_or(&0)) };
        result.map(|_| ())
    }
}
