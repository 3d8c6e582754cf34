//! Host side of device `printf`/`assert`: decode the device buffer
//! (`compiler_core::target::amdgpu::printf`) and print like C's printf, one conversion at
//! a time through the C library's `snprintf`, to the process's C `stdout`; assertion
//! failures go to `stderr` in CUDA's words.

use compiler_core::target::amdgpu::printf::{decode, Record};
use std::ffi::CString;

extern "C" {
    #[link_name = "stdout"]
    static C_STDOUT: *mut libc::FILE;
    #[link_name = "stderr"]
    static C_STDERR: *mut libc::FILE;
}

/// Print every record of `buffer`; returns whether one was an assertion failure.
pub fn emit(buffer: &[u8]) -> bool {
    let drained = decode(buffer);
    let mut out = Vec::new();
    let mut err = Vec::new();
    let mut asserted = false;
    for r in &drained.records {
        match r {
            Record::Printf { format, args, strings } => out.extend(format_record(format, args, strings)),
            Record::Assert { message, file, function, line, block, thread } => {
                asserted = true;
                err.extend(
                    format!(
                        "{file}:{line}: {function}: block: [{},{},{}], thread: [{},{},{}] Assertion `{message}` failed.\n",
                        block[0], block[1], block[2], thread[0], thread[1], thread[2]
                    )
                    .into_bytes(),
                );
            }
        }
    }
    if drained.lost_bytes > 0 {
        err.extend(format!("device printf buffer full: {} bytes of output lost\n", drained.lost_bytes).into_bytes());
    }
    // SAFETY: glibc's streams are initialized before user code runs.
    unsafe {
        for (bytes, stream) in [(&out, C_STDOUT), (&err, C_STDERR)] {
            if !bytes.is_empty() {
                libc::fwrite(bytes.as_ptr() as *const _, 1, bytes.len(), stream);
                libc::fflush(stream);
            }
        }
    }
    asserted
}

fn snprintf_with(spec: &str, f: impl Fn(*mut libc::c_char, usize, *const libc::c_char) -> i32) -> Vec<u8> {
    let Ok(c) = CString::new(spec) else { return Vec::new() };
    let n = f(std::ptr::null_mut(), 0, c.as_ptr());
    if n < 0 {
        return Vec::new();
    }
    let mut buf = vec![0u8; n as usize + 1];
    f(buf.as_mut_ptr() as *mut _, buf.len(), c.as_ptr());
    buf.truncate(n as usize);
    buf
}

/// Format one printf record: `args` packed as nvcc packs them (each argument aligned to
/// its size), `strings` the `%s` arguments' text in order.
pub fn format_record(format: &[u8], args: &[u8], strings: &[Vec<u8>]) -> Vec<u8> {
    let mut out = Vec::new();
    let mut off = 0usize;
    let mut next_string = 0usize;
    let take = |size: usize, off: &mut usize| -> u64 {
        let at = off.div_ceil(size) * size;
        *off = at + size;
        let mut b = [0u8; 8];
        if let Some(s) = args.get(at..at + size) {
            b[..size].copy_from_slice(s);
        }
        u64::from_le_bytes(b)
    };
    let mut i = 0;
    while i < format.len() {
        let c = format[i];
        if c != b'%' {
            out.push(c);
            i += 1;
            continue;
        }
        if format.get(i + 1) == Some(&b'%') {
            out.push(b'%');
            i += 2;
            continue;
        }
        let start = i;
        i += 1;
        let mut long = false;
        let mut stars = Vec::new();
        while i < format.len() {
            match format[i] {
                b'-' | b'+' | b' ' | b'#' | b'.' | b'0'..=b'9' | b'h' => i += 1,
                b'*' => {
                    stars.push(take(4, &mut off) as u32 as i32);
                    i += 1;
                }
                b'l' | b'L' | b'j' | b'z' | b't' | b'q' => {
                    long = true;
                    i += 1;
                }
                _ => break,
            }
        }
        let Some(&conv) = format.get(i) else { break };
        i += 1;
        // The spec without length modifiers, with our own: l for 64-bit integers.
        let flags: String = format[start..i - 1].iter().filter(|c| !b"hlLjztq".contains(c)).map(|&c| c as char).collect();
        let star = |k: usize| stars.get(k).copied().unwrap_or(0);
        let call = |spec: String, v: Arg| -> Vec<u8> {
            snprintf_with(&spec, |buf, n, fmt| {
                // SAFETY: `fmt` has exactly the conversions whose arguments we pass.
                unsafe {
                    match (stars.len(), v) {
                        (0, Arg::I(x)) => libc::snprintf(buf, n, fmt, x),
                        (0, Arg::D(x)) => libc::snprintf(buf, n, fmt, x),
                        (0, Arg::S(x)) => libc::snprintf(buf, n, fmt, x),
                        (1, Arg::I(x)) => libc::snprintf(buf, n, fmt, star(0), x),
                        (1, Arg::D(x)) => libc::snprintf(buf, n, fmt, star(0), x),
                        (1, Arg::S(x)) => libc::snprintf(buf, n, fmt, star(0), x),
                        (_, Arg::I(x)) => libc::snprintf(buf, n, fmt, star(0), star(1), x),
                        (_, Arg::D(x)) => libc::snprintf(buf, n, fmt, star(0), star(1), x),
                        (_, Arg::S(x)) => libc::snprintf(buf, n, fmt, star(0), star(1), x),
                    }
                }
            })
        };
        match conv {
            b'f' | b'F' | b'e' | b'E' | b'g' | b'G' | b'a' | b'A' => {
                let v = f64::from_bits(take(8, &mut off));
                out.extend(call(format!("{flags}{}", conv as char), Arg::D(v)));
            }
            b's' => {
                let p = take(8, &mut off);
                let text = if p == 0 {
                    b"(null)".to_vec()
                } else {
                    next_string += 1;
                    strings.get(next_string - 1).cloned().unwrap_or_default()
                };
                let c = CString::new(text).unwrap_or_default();
                out.extend(call(format!("{flags}s"), Arg::S(c.as_ptr())));
            }
            b'p' => {
                let v = take(8, &mut off);
                out.extend(call(format!("{flags}p"), Arg::I(v as i64)));
            }
            b'd' | b'i' | b'u' | b'o' | b'x' | b'X' | b'c' => {
                let v = if long { take(8, &mut off) as i64 } else { take(4, &mut off) as u32 as i32 as i64 };
                let conv = conv as char;
                let spec = if conv == 'c' { format!("{flags}c") } else { format!("{flags}ll{conv}") };
                let v = if !long && matches!(conv, 'u' | 'o' | 'x' | 'X') { v as u32 as i64 } else { v };
                out.extend(call(spec, Arg::I(v)));
            }
            // Not a conversion C's printf knows: print it as written.
            _ => out.extend_from_slice(&format[start..i]),
        }
    }
    out
}

#[derive(Clone, Copy)]
enum Arg {
    I(i64),
    D(f64),
    S(*const libc::c_char),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn pack(parts: &[(usize, u64)]) -> Vec<u8> {
        let mut b = Vec::new();
        for &(size, v) in parts {
            while b.len() % size != 0 {
                b.push(0);
            }
            b.extend(&v.to_le_bytes()[..size]);
        }
        b
    }

    #[test]
    fn formats_like_c() {
        let args = pack(&[(4, (-7i32) as u32 as u64), (8, 2.5f64.to_bits()), (8, 0x1000), (4, 255), (8, 1 << 40), (8, 0)]);
        let s = format_record(b"%d %.2f [%5s] %x %lld %s %%\n", &args, &[b"ab".to_vec()]);
        assert_eq!(String::from_utf8(s).unwrap(), "-7 2.50 [   ab] ff 1099511627776 (null) %\n");
        let args = pack(&[(4, 6), (4, 42), (4, b'z' as u64)]);
        assert_eq!(format_record(b"[%*d] %c", &args, &[]), b"[    42] z");
    }
}
