//! Device-side `printf`: `vprintf(format, args)` as CUDA's runtime defines it.
//!
//! nvcc packs the arguments into a buffer, each aligned to its own size: integers of 4 or
//! 8 bytes (by the length modifier), `double` for every floating conversion (float is
//! promoted), 8-byte pointers for `%s`/`%p`. Each conversion is formatted with the C
//! library's `snprintf` so the output is exactly what C's printf prints.
//!
//! Output follows CUDA's rules (CUDA C++ Programming Guide, "Formatted Output"): a launch's
//! output is collected in its [`PrintfBuffer`] (in the order the threads printed), and when
//! the launch completes it joins the device's [`Output`], which is written to the process's
//! C `stdout` only at the driver's flush points (synchronization, blocking copies, the next
//! launch, module load/unload, context teardown, before a host callback). Failed device
//! `assert`s write their message the same way, to `stderr`.

use compiler_core::host_abi::ThreadCtx;
use std::cell::Cell;
use std::ffi::CStr;
use std::sync::Mutex;

/// Output of one launch.
#[derive(Default)]
pub struct PrintfBuffer {
    stdout: Mutex<Vec<u8>>,
    stderr: Mutex<Vec<u8>>,
}

thread_local! {
    static CURRENT: Cell<*const PrintfBuffer> = const { Cell::new(std::ptr::null()) };
}

/// Restores the previous current buffer on drop.
pub struct Entered(*const PrintfBuffer);

impl Drop for Entered {
    fn drop(&mut self) {
        CURRENT.with(|c| c.set(self.0));
    }
}

impl PrintfBuffer {
    /// Make this the buffer `vprintf` on this thread appends to.
    pub fn enter(&self) -> Entered {
        Entered(CURRENT.with(|c| c.replace(self)))
    }

    /// What the launch printed; the launch is over, so no thread appends any more (and
    /// no lock is taken).
    fn take(&mut self) -> (Vec<u8>, Vec<u8>) {
        let out = std::mem::take(self.stdout.get_mut().unwrap_or_else(|e| e.into_inner()));
        let err = std::mem::take(self.stderr.get_mut().unwrap_or_else(|e| e.into_inner()));
        (out, err)
    }
}

/// Output of completed launches not yet written, in completion order.
#[derive(Default)]
pub struct Output {
    pending: Mutex<Vec<(Vec<u8>, Vec<u8>)>>,
}

impl Output {
    /// A launch completed: queue what it printed.
    pub fn complete(&self, buffer: &mut PrintfBuffer) {
        let (out, err) = buffer.take();
        if out.is_empty() && err.is_empty() {
            return;
        }
        self.pending.lock().unwrap_or_else(|e| e.into_inner()).push((out, err));
    }

    /// Writes everything queued to C's stdout/stderr, in launch completion order.
    pub fn flush(&self) {
        let pending = std::mem::take(&mut *self.pending.lock().unwrap_or_else(|e| e.into_inner()));
        for (out, err) in pending {
            write_c(c_stdout(), &out);
            write_c(c_stderr(), &err);
        }
    }
}

fn write_c(stream: *mut libc::FILE, bytes: &[u8]) {
    if bytes.is_empty() {
        return;
    }
    // SAFETY: writing a valid buffer to a C library stream.
    unsafe {
        libc::fwrite(bytes.as_ptr() as *const _, 1, bytes.len(), stream);
        libc::fflush(stream);
    }
}

extern "C" {
    #[link_name = "stdout"]
    static C_STDOUT: *mut libc::FILE;
    #[link_name = "stderr"]
    static C_STDERR: *mut libc::FILE;
}

fn c_stdout() -> *mut libc::FILE {
    // SAFETY: glibc's `stdout` is initialized before any user code runs.
    unsafe { C_STDOUT }
}

fn c_stderr() -> *mut libc::FILE {
    // SAFETY: as `c_stdout`.
    unsafe { C_STDERR }
}

/// Appends `text` to the current launch's stderr output (device `assert` messages).
pub fn emit_stderr(text: &[u8]) {
    let cur = CURRENT.with(|c| c.get());
    if cur.is_null() {
        write_c(c_stderr(), text);
    } else {
        // SAFETY: `enter` keeps the buffer alive while it is current.
        let buf = unsafe { &*cur };
        buf.stderr.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(text);
    }
}

/// The `vprintf` callback of the host ABI. Returns the number of bytes printed.
///
/// # Safety
/// `format` is a NUL-terminated string and `args` the argument buffer nvcc built for it.
pub unsafe extern "C" fn vprintf(_ctx: *mut ThreadCtx, format: *const u8, args: *const u8) -> i32 {
    if format.is_null() {
        return -1;
    }
    // SAFETY: guaranteed by the caller.
    let fmt = unsafe { CStr::from_ptr(format as *const libc::c_char) }.to_bytes();
    // SAFETY: guaranteed by the caller.
    let text = unsafe { format_device(fmt, args) };
    let n = text.len() as i32;
    let cur = CURRENT.with(|c| c.get());
    if cur.is_null() {
        write_c(c_stdout(), &text);
    } else {
        // SAFETY: `enter` keeps the buffer alive while it is current.
        let buf = unsafe { &*cur };
        buf.stdout.lock().unwrap_or_else(|e| e.into_inner()).extend_from_slice(&text);
    }
    n
}

/// Format `fmt` with arguments from the packed buffer.
///
/// # Safety
/// `args` must hold the arguments `fmt` names, packed as described in the module docs.
pub unsafe fn format_device(fmt: &[u8], args: *const u8) -> Vec<u8> {
    let mut out = Vec::new();
    let mut off = 0usize;
    let mut i = 0;
    while i < fmt.len() {
        if fmt[i] != b'%' {
            out.push(fmt[i]);
            i += 1;
            continue;
        }
        let start = i;
        i += 1;
        if i < fmt.len() && fmt[i] == b'%' {
            out.push(b'%');
            i += 1;
            continue;
        }
        while i < fmt.len() && b"-+ #0123456789.*".contains(&fmt[i]) {
            i += 1;
        }
        let mut long = 0;
        while i < fmt.len() && b"hlLqjzt".contains(&fmt[i]) {
            if matches!(fmt[i], b'l' | b'L' | b'q' | b'j' | b'z' | b't') {
                long += 1;
            }
            i += 1;
        }
        if i >= fmt.len() {
            out.extend_from_slice(&fmt[start..]);
            break;
        }
        let conv = fmt[i];
        i += 1;
        let spec = &fmt[start..i];
        if spec.contains(&b'*') || args.is_null() {
            out.extend_from_slice(spec);
            continue;
        }
        let mut cspec = spec.to_vec();
        let mut buf = vec![0u8; 512];
        // SAFETY: each read stays within the argument buffer nvcc built for this format;
        // snprintf writes at most `buf.len()` bytes.
        let n = unsafe {
            match conv {
                b'd' | b'i' | b'u' | b'x' | b'X' | b'o' | b'c' => {
                    if long > 0 {
                        let v = read::<u64>(args, &mut off);
                        strip_len(&mut cspec, b"ll");
                        libc::snprintf(buf.as_mut_ptr() as *mut _, buf.len(), cstr(&cspec).as_ptr(), v)
                    } else {
                        let v = read::<u32>(args, &mut off);
                        strip_len(&mut cspec, b"");
                        libc::snprintf(buf.as_mut_ptr() as *mut _, buf.len(), cstr(&cspec).as_ptr(), v)
                    }
                }
                b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                    let v = read::<f64>(args, &mut off);
                    strip_len(&mut cspec, b"");
                    libc::snprintf(buf.as_mut_ptr() as *mut _, buf.len(), cstr(&cspec).as_ptr(), v)
                }
                b's' => {
                    let p = read::<u64>(args, &mut off) as *const libc::c_char;
                    let p = if p.is_null() { c"(null)".as_ptr() } else { p };
                    libc::snprintf(buf.as_mut_ptr() as *mut _, buf.len(), cstr(&cspec).as_ptr(), p)
                }
                b'p' => {
                    let p = read::<u64>(args, &mut off) as *const libc::c_void;
                    libc::snprintf(buf.as_mut_ptr() as *mut _, buf.len(), cstr(&cspec).as_ptr(), p)
                }
                _ => {
                    out.extend_from_slice(spec);
                    continue;
                }
            }
        };
        if n > 0 {
            out.extend_from_slice(&buf[..(n as usize).min(buf.len() - 1)]);
        }
    }
    out
}

unsafe fn read<T: Copy>(args: *const u8, off: &mut usize) -> T {
    let size = std::mem::size_of::<T>();
    *off = off.div_ceil(size) * size;
    // SAFETY: guaranteed by `format_device`'s caller.
    let v = unsafe { std::ptr::read_unaligned(args.add(*off) as *const T) };
    *off += size;
    v
}

/// Replace the length modifiers of a conversion spec with `with`.
fn strip_len(spec: &mut Vec<u8>, with: &[u8]) {
    let conv = spec.pop().unwrap_or(b'd');
    while matches!(spec.last(), Some(b'h' | b'l' | b'L' | b'q' | b'j' | b'z' | b't')) {
        spec.pop();
    }
    spec.extend_from_slice(with);
    spec.push(conv);
}

fn cstr(b: &[u8]) -> std::ffi::CString {
    std::ffi::CString::new(b.to_vec()).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(items: &[(&str, u64)]) -> Vec<u8> {
        let mut v = Vec::new();
        for (kind, val) in items {
            let size = if *kind == "i32" { 4 } else { 8 };
            while v.len() % size != 0 {
                v.push(0);
            }
            v.extend_from_slice(&val.to_le_bytes()[..size]);
        }
        v
    }

    #[test]
    fn formats_like_c_printf() {
        let hello = c"hi";
        type Case<'a> = (&'a str, Vec<(&'a str, u64)>, &'a str);
        let cases: &[Case] = &[
            ("x=%d y=%5.2f\n", vec![("i32", (-7i32) as u32 as u64), ("f64", 1.23456f64.to_bits())], "x=-7 y= 1.23\n"),
            ("%lld|%llu|%x", vec![("i64", (-5i64) as u64), ("i64", u64::MAX), ("i32", 255)], "-5|18446744073709551615|ff"),
            ("%s!", vec![("i64", hello.as_ptr() as u64)], "hi!"),
            ("100%%", vec![], "100%"),
            ("%c%c", vec![("i32", b'o' as u64), ("i32", b'k' as u64)], "ok"),
        ];
        for (fmt, args, want) in cases {
            let buf = pack(args);
            let got = unsafe { format_device(fmt.as_bytes(), buf.as_ptr()) };
            assert_eq!(String::from_utf8_lossy(&got), *want, "format {fmt:?}");
        }
    }
}
