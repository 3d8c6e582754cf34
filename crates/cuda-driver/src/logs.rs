//! Error log management: `cuLogsRegisterCallback`, `cuLogsUnregisterCallback`,
//! `cuLogsCurrent`, `cuLogsDumpToFile`, `cuLogsDumpToMemory` (CUDA Driver API, "Error
//! Log Management Functions", CUDA 12.9; Programming Guide, "Error Log Management").
//!
//! The messages are this driver's own diagnostics: every failure explained with
//! [`crate::diag::fail`] (level `CU_LOG_LEVEL_ERROR`, recorded whether or not
//! `LIBCUDA_LOG` is set, as NVIDIA's driver keeps its log without `CUDA_LOG_FILE`), and
//! the other `LIBCUDA_LOG` lines while that variable is set (`CU_LOG_LEVEL_WARNING`).
//! Each becomes one line `[HH:MM:SS.mmm][TID][CUDA][E|W] message` (the guide's format, UTC)
//! in a buffer that keeps the newest 25600 bytes (the limit the reference gives), and the
//! message alone (without the prefix, NUL-terminated, its length without the NUL) is
//! passed to every registered callback, as NVIDIA's driver passes it. A failing entry
//! point adds `Returning N (CUDA_ERROR_X) from cuName` after its reason, as there.
//!
//! An iterator (`CUlogIterator`, an unsigned int) is the sequence number of a message:
//! `cuLogsCurrent` gives the number the next message will get, and the dump calls start
//! at the iterator (all kept messages when it is NULL) and advance it past what they
//! wrote. When messages the iterator names were dropped, the dump starts with a line
//! saying how many.
//!
//! Callbacks run on the thread whose call produced the message, after the buffer's lock
//! is released (a callback may call these functions itself).

use std::ffi::c_void;
use std::io::Write as _;
use std::sync::Mutex;

use crate::{CuError, CuResult};

/// The most bytes of messages kept.
pub const BUFFER_BYTES: usize = 25600;

/// `CUlogLevel`.
pub const LEVEL_ERROR: u32 = 0;
pub const LEVEL_WARNING: u32 = 1;

/// `CUlogsCallback`: `void (*)(void* data, CUlogLevel logLevel, char* message, size_t length)`.
pub type Callback = unsafe extern "C" fn(data: *mut c_void, level: u32, message: *mut std::ffi::c_char, length: usize);

struct Registered {
    id: u64,
    func: Callback,
    data: usize,
}

#[derive(Default)]
struct Log {
    /// Kept lines (each with its `\n`), oldest first; `first` is the sequence number of
    /// the front one.
    lines: std::collections::VecDeque<String>,
    first: u32,
    bytes: usize,
    callbacks: Vec<Registered>,
    next_callback: u64,
}

impl Log {
    fn end(&self) -> u32 {
        self.first.wrapping_add(self.lines.len() as u32)
    }
}

static LOG: Mutex<Option<Log>> = Mutex::new(None);

fn with_log<R>(f: impl FnOnce(&mut Log) -> R) -> R {
    let mut guard = LOG.lock().unwrap_or_else(|e| e.into_inner());
    f(guard.get_or_insert_with(Log::default))
}

/// `HH:MM:SS.mmm` of the current UTC time.
fn timestamp() -> String {
    let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default();
    let (secs, ms) = (now.as_secs(), now.subsec_millis());
    format!("{:02}:{:02}:{:02}.{ms:03}", secs / 3600 % 24, secs / 60 % 60, secs % 60)
}

/// Records one message (see the module docs) and passes it to the callbacks.
pub fn record(level: u32, message: std::fmt::Arguments<'_>) {
    // SAFETY: gettid has no preconditions.
    let tid = unsafe { libc::gettid() };
    let severity = if level == LEVEL_ERROR { 'E' } else { 'W' };
    let line = format!("[{}][{tid}][CUDA][{severity}] {message}\n", timestamp());
    let callbacks: Vec<(Callback, usize)> = with_log(|log| {
        log.bytes += line.len();
        log.lines.push_back(line.clone());
        while log.bytes > BUFFER_BYTES {
            let Some(old) = log.lines.pop_front() else { break };
            log.bytes -= old.len();
            log.first = log.first.wrapping_add(1);
        }
        log.callbacks.iter().map(|c| (c.func, c.data)).collect()
    });
    if callbacks.is_empty() {
        return;
    }
    let mut text = message.to_string().into_bytes();
    let length = text.len();
    text.push(0);
    for (func, data) in callbacks {
        // SAFETY: the program's callback with its data, as cuLogsRegisterCallback
        // promises; the message lives until it returns.
        unsafe { func(data as *mut c_void, level, text.as_mut_ptr().cast(), length) };
    }
}

/// `cuLogsRegisterCallback`: returns the handle (a nonzero number).
pub fn register_callback(func: Callback, data: *mut c_void) -> u64 {
    with_log(|log| {
        log.next_callback += 1;
        let id = log.next_callback;
        log.callbacks.push(Registered { id, func, data: data as usize });
        id
    })
}

/// `cuLogsUnregisterCallback`: `CUDA_ERROR_INVALID_VALUE` for a handle not registered.
pub fn unregister_callback(id: u64) -> CuResult<()> {
    with_log(|log| match log.callbacks.iter().position(|c| c.id == id) {
        Some(i) => {
            log.callbacks.remove(i);
            Ok(())
        }
        None => Err(CuError::INVALID_VALUE),
    })
}

/// `cuLogsCurrent`: the iterator of the next message.
pub fn current() -> u32 {
    with_log(|log| log.end())
}

/// The text of the kept messages from `start` (all when `None`), at most `limit` bytes of
/// whole lines, and the iterator after the last line taken. A start before the oldest
/// kept message gets a first line saying how many were dropped.
fn collect(start: Option<u32>, limit: usize) -> (String, u32) {
    with_log(|log| {
        let mut out = String::new();
        let mut from = 0usize;
        if let Some(start) = start {
            let ahead = log.first.wrapping_sub(start);
            if ahead > 0 && ahead <= i32::MAX as u32 {
                let note = format!("[{}][CUDA][W] log truncated: {ahead} older messages were dropped\n", timestamp());
                if note.len() <= limit {
                    out.push_str(&note);
                }
            } else {
                from = start.wrapping_sub(log.first).min(log.lines.len() as u32) as usize;
            }
        }
        let mut next = log.first.wrapping_add(from as u32);
        for line in log.lines.iter().skip(from) {
            if out.len() + line.len() > limit {
                break;
            }
            out.push_str(line);
            next = next.wrapping_add(1);
        }
        (out, next)
    })
}

/// `cuLogsDumpToMemory`: writes the messages from `*iterator` into `buffer` (room for
/// `capacity` bytes, NUL included) and returns the bytes written without the NUL. No
/// messages: 0. A buffer too small for the first message: 0 and `CUDA_ERROR_INVALID_VALUE`.
pub fn dump_to_memory(iterator: Option<&mut u32>, buffer: &mut [u8]) -> CuResult<usize> {
    let capacity = buffer.len();
    let (text, next) = collect(iterator.as_deref().copied(), capacity.saturating_sub(1));
    let (_, all_next) = collect(iterator.as_deref().copied(), usize::MAX);
    if text.is_empty() && all_next != next {
        return Err(CuError::INVALID_VALUE);
    }
    buffer[..text.len()].copy_from_slice(text.as_bytes());
    if capacity > 0 {
        buffer[text.len()] = 0;
    }
    if let Some(it) = iterator {
        *it = next;
    }
    Ok(text.len())
}

/// `cuLogsDumpToFile`: writes the messages from `*iterator` to the file at `path`
/// (created or truncated); `CUDA_ERROR_INVALID_VALUE` when it cannot be written.
pub fn dump_to_file(iterator: Option<&mut u32>, path: &std::path::Path) -> CuResult<()> {
    let (text, next) = collect(iterator.as_deref().copied(), usize::MAX);
    let written = std::fs::File::create(path).and_then(|mut f| f.write_all(text.as_bytes()));
    if written.is_err() {
        return Err(CuError::INVALID_VALUE);
    }
    if let Some(it) = iterator {
        *it = next;
    }
    Ok(())
}
