//! Device-side `printf` and `assert` on AMD GPUs: the buffer protocol, the IR that writes
//! records, and the host-side decoder of the records.
//!
//! # Buffer protocol
//! The runtime allocates one buffer per device in device memory (so the claims below are
//! device-local atomics, which need no PCIe atomics) and passes its address in every
//! launch's implicit arguments (`abi::implicit::PRINTF_BUFFER`; 0 turns printing off:
//! `vprintf` returns -1, `assert` only traps).
//!
//! ```text
//! offset 0   u64 capacity   bytes available for records, from offset 16 (set by the host)
//! offset 8   u64 used       bytes claimed so far (device: atomic add; host: reset to 0)
//! offset 16  records, back to back, each 8-byte aligned
//! ```
//! A device thread measures its record, claims `size` bytes with one system-scope atomic
//! add on `used`, and writes the record only if it fits in `capacity`; a record that does
//! not fit is dropped but its claim stays, so the host sees `used > capacity` and reports
//! the loss. The host copies the records out after the launch has completed (the buffer is
//! not a stream) and resets `used`.
//!
//! ```text
//! record header      u32 size (whole record, a multiple of 8), u32 kind
//! kind 1, printf     u32 format_len (with its NUL), u32 args_len, u32 strings_len, u32 0,
//!                    format bytes (NUL-terminated), padded to 8,
//!                    args_len bytes: the vprintf argument buffer as nvcc packed it, padded to 8,
//!                    strings_len bytes: every non-null %s argument's string, in order,
//!                    NUL-terminated (padding bytes are not initialized)
//! kind 2, assert     u32 line, u32 0, u32 block[3], u32 thread[3],
//!                    message, file and function, each NUL-terminated
//! ```
//! `%s` strings travel in the record because the host cannot read device memory while
//! decoding; the pointer in the argument copy only says whether the argument was null.

use std::fmt::Write;

/// Header bytes of a printf record.
pub const PRINTF_HEADER: usize = 24;
/// Header bytes of an assert record.
pub const ASSERT_HEADER: usize = 40;
/// Offset of the first record in the buffer.
pub const RECORDS_OFFSET: usize = 16;
pub const KIND_PRINTF: u32 = 1;
pub const KIND_ASSERT: u32 = 2;

/// One decoded record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Record {
    Printf { format: Vec<u8>, args: Vec<u8>, strings: Vec<Vec<u8>> },
    Assert { message: String, file: String, function: String, line: u32, block: [u32; 3], thread: [u32; 3] },
}

/// What a drained buffer held.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Drained {
    pub records: Vec<Record>,
    /// Bytes of records that did not fit.
    pub lost_bytes: u64,
}

/// Decode a buffer: `bytes` is the whole buffer (header included).
pub fn decode(bytes: &[u8]) -> Drained {
    let u32_at = |o: usize| bytes.get(o..o + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    let u64_at = |o: usize| bytes.get(o..o + 8).map(|b| u64::from_le_bytes(b.try_into().unwrap()));
    let (Some(capacity), Some(used)) = (u64_at(0), u64_at(8)) else { return Drained::default() };
    let end = RECORDS_OFFSET + (used.min(capacity) as usize).min(bytes.len().saturating_sub(RECORDS_OFFSET));
    let mut out = Drained { records: Vec::new(), lost_bytes: used.saturating_sub(capacity) };
    let mut at = RECORDS_OFFSET;
    while at + 8 <= end {
        let (Some(size), Some(kind)) = (u32_at(at), u32_at(at + 4)) else { break };
        let size = size as usize;
        if size < 8 || !size.is_multiple_of(8) || at + size > end {
            break;
        }
        let rec = &bytes[at..at + size];
        if let Some(r) = decode_record(kind, rec) {
            out.records.push(r);
        }
        at += size;
    }
    out
}

fn decode_record(kind: u32, rec: &[u8]) -> Option<Record> {
    let u32_at = |o: usize| rec.get(o..o + 4).map(|b| u32::from_le_bytes(b.try_into().unwrap()));
    let cstr = |from: usize| -> Option<(Vec<u8>, usize)> {
        let tail = rec.get(from..)?;
        let n = tail.iter().position(|&c| c == 0)?;
        Some((tail[..n].to_vec(), from + n + 1))
    };
    match kind {
        KIND_PRINTF => {
            let (flen, alen, slen) = (u32_at(8)? as usize, u32_at(12)? as usize, u32_at(16)? as usize);
            let format = rec.get(PRINTF_HEADER..PRINTF_HEADER + flen.checked_sub(1)?)?.to_vec();
            let args_at = PRINTF_HEADER + flen.div_ceil(8) * 8;
            let args = rec.get(args_at..args_at + alen)?.to_vec();
            let mut at = args_at + alen.div_ceil(8) * 8;
            let strings_end = at.checked_add(slen).filter(|&e| e <= rec.len())?;
            let mut strings = Vec::new();
            while at < strings_end {
                match cstr(at) {
                    Some((s, next)) => {
                        strings.push(s);
                        at = next;
                    }
                    None => break,
                }
            }
            Some(Record::Printf { format, args, strings })
        }
        KIND_ASSERT => {
            let line = u32_at(8)?;
            let block = [u32_at(16)?, u32_at(20)?, u32_at(24)?];
            let thread = [u32_at(28)?, u32_at(32)?, u32_at(36)?];
            let (m, a) = cstr(ASSERT_HEADER)?;
            let (f, b) = cstr(a)?;
            let (func, _) = cstr(b)?;
            let s = |v: Vec<u8>| String::from_utf8_lossy(&v).into_owned();
            Some(Record::Assert { message: s(m), file: s(f), function: s(func), line, block, thread })
        }
        _ => None,
    }
}

/// The device-side helpers `__ptx_printf_record`, `__ptx_assert_record` and what they use.
pub(super) fn helper(name: &str) -> Option<String> {
    Some(match name {
        "__ptx_printf_record" => printf_record(),
        "__ptx_assert_record" => assert_record(),
        "__ptx_printf_scan" => scan(),
        "__ptx_strlen" => "define internal i64 @__ptx_strlen(ptr %s) {\nentry:\n  br label %loop\nloop:\n  %n = phi i64 [ 0, %entry ], [ %n1, %loop ]\n  %p = getelementptr i8, ptr %s, i64 %n\n  %c = load i8, ptr %p\n  %n1 = add i64 %n, 1\n  %z = icmp eq i8 %c, 0\n  br i1 %z, label %done, label %loop\ndone:\n  ret i64 %n\n}\n".into(),
        "__ptx_printf_buffer" => format!(
            "define internal ptr @__ptx_printf_buffer() alwaysinline {{\n  %ip = call ptr addrspace(4) @llvm.amdgcn.implicitarg.ptr()\n  %bp = getelementptr i8, ptr addrspace(4) %ip, i64 {}\n  %b = load ptr, ptr addrspace(4) %bp, align 8\n  ret ptr %b\n}}\n",
            super::abi::implicit::PRINTF_BUFFER
        ),
        // Claim `size` bytes: the record's address, or null if it does not fit.
        "__ptx_printf_claim" => format!(
            r#"define internal ptr @__ptx_printf_claim(ptr %buf, i64 %size) alwaysinline {{
  %usedp = getelementptr i8, ptr %buf, i64 8
  %off = atomicrmw add ptr %usedp, i64 %size monotonic, align 8
  %cap = load volatile i64, ptr %buf, align 8
  %end = add i64 %off, %size
  %fits = icmp ule i64 %end, %cap
  %at = add i64 %off, {RECORDS_OFFSET}
  %rec = getelementptr i8, ptr %buf, i64 %at
  %r = select i1 %fits, ptr %rec, ptr null
  ret ptr %r
}}
"#
        ),
        _ => return None,
    })
}

/// `i32 @__ptx_printf_record(ptr fmt, ptr args)`: 0, or -1 when there is no buffer or
/// the record did not fit.
fn printf_record() -> String {
    format!(
        r#"define internal i32 @__ptx_printf_record(ptr %fmt, ptr %args) noinline {{
entry:
  %buf = call ptr @__ptx_printf_buffer()
  %nobuf = icmp eq ptr %buf, null
  %nofmt = icmp eq ptr %fmt, null
  %skip = or i1 %nobuf, %nofmt
  br i1 %skip, label %fail, label %measure
measure:
  %fl0 = call i64 @__ptx_strlen(ptr %fmt)
  %fl = add i64 %fl0, 1
  %scan = call {{ i64, i64 }} @__ptx_printf_scan(ptr %fmt, ptr %args, ptr null)
  %ab = extractvalue {{ i64, i64 }} %scan, 0
  %sb = extractvalue {{ i64, i64 }} %scan, 1
  %fl7 = add i64 %fl, 7
  %fl8 = and i64 %fl7, -8
  %ab7 = add i64 %ab, 7
  %ab8 = and i64 %ab7, -8
  %sb7 = add i64 %sb, 7
  %sb8 = and i64 %sb7, -8
  %t0 = add i64 %fl8, %ab8
  %t1 = add i64 %t0, %sb8
  %total = add i64 %t1, {PRINTF_HEADER}
  %rec = call ptr @__ptx_printf_claim(ptr %buf, i64 %total)
  %lost = icmp eq ptr %rec, null
  br i1 %lost, label %fail, label %write
write:
  %size32 = trunc i64 %total to i32
  %fl32 = trunc i64 %fl to i32
  %ab32 = trunc i64 %ab to i32
  store i32 %size32, ptr %rec, align 8
  %kp = getelementptr i8, ptr %rec, i64 4
  store i32 {KIND_PRINTF}, ptr %kp, align 4
  %flp = getelementptr i8, ptr %rec, i64 8
  store i32 %fl32, ptr %flp, align 8
  %abp = getelementptr i8, ptr %rec, i64 12
  store i32 %ab32, ptr %abp, align 4
  %sb32 = trunc i64 %sb to i32
  %sbp = getelementptr i8, ptr %rec, i64 16
  store i32 %sb32, ptr %sbp, align 8
  %zp = getelementptr i8, ptr %rec, i64 20
  store i32 0, ptr %zp, align 4
  %fdst = getelementptr i8, ptr %rec, i64 {PRINTF_HEADER}
  call void @llvm.memcpy.p0.p0.i64(ptr %fdst, ptr %fmt, i64 %fl, i1 false)
  %aoff = add i64 %fl8, {PRINTF_HEADER}
  %adst = getelementptr i8, ptr %rec, i64 %aoff
  call void @llvm.memcpy.p0.p0.i64(ptr %adst, ptr %args, i64 %ab, i1 false)
  %soff = add i64 %aoff, %ab8
  %sdst = getelementptr i8, ptr %rec, i64 %soff
  %unused = call {{ i64, i64 }} @__ptx_printf_scan(ptr %fmt, ptr %args, ptr %sdst)
  ret i32 0
fail:
  ret i32 -1
}}
"#
    )
}

/// `void @__ptx_assert_record(ptr ctx, ptr message, ptr file, i32 line, ptr function)`.
fn assert_record() -> String {
    let mut s = String::from(
        r#"@__ptx_empty_string = internal addrspace(4) constant [1 x i8] zeroinitializer
define internal void @__ptx_assert_record(ptr %ctx, ptr %msg0, ptr %file0, i32 %line, ptr %func0) noinline {
entry:
  %buf = call ptr @__ptx_printf_buffer()
  %nobuf = icmp eq ptr %buf, null
  br i1 %nobuf, label %done, label %measure
measure:
"#,
    );
    for (k, v) in ["msg", "file", "func"].iter().enumerate() {
        let _ = write!(
            s,
            "  %{v}.null = icmp eq ptr %{v}0, null\n  %{v} = select i1 %{v}.null, ptr addrspacecast (ptr addrspace(4) @__ptx_empty_string to ptr), ptr %{v}0\n  %l{k}.0 = call i64 @__ptx_strlen(ptr %{v})\n  %l{k} = add i64 %l{k}.0, 1\n"
        );
    }
    let _ = write!(
        s,
        r#"  %s01 = add i64 %l0, %l1
  %s012 = add i64 %s01, %l2
  %s7 = add i64 %s012, {pad}
  %s8 = and i64 %s7, -8
  %total = add i64 %s8, {ASSERT_HEADER}
  %rec = call ptr @__ptx_printf_claim(ptr %buf, i64 %total)
  %lost = icmp eq ptr %rec, null
  br i1 %lost, label %done, label %write
write:
  %size32 = trunc i64 %total to i32
  store i32 %size32, ptr %rec, align 8
  %kp = getelementptr i8, ptr %rec, i64 4
  store i32 {KIND_ASSERT}, ptr %kp, align 4
  %lp = getelementptr i8, ptr %rec, i64 8
  store i32 %line, ptr %lp, align 8
  %zp = getelementptr i8, ptr %rec, i64 12
  store i32 0, ptr %zp, align 4
"#,
        pad = 7
    );
    for (k, reg) in ["ctaid_x", "ctaid_y", "ctaid_z", "tid_x", "tid_y", "tid_z"].iter().enumerate() {
        let _ = write!(
            s,
            "  %r{k} = call i32 @__ptx_sreg_{reg}(ptr %ctx)\n  %rp{k} = getelementptr i8, ptr %rec, i64 {}\n  store i32 %r{k}, ptr %rp{k}, align 4\n",
            16 + 4 * k
        );
    }
    let _ = write!(
        s,
        r#"  %d0 = getelementptr i8, ptr %rec, i64 {ASSERT_HEADER}
  call void @llvm.memcpy.p0.p0.i64(ptr %d0, ptr %msg, i64 %l0, i1 false)
  %d1 = getelementptr i8, ptr %d0, i64 %l0
  call void @llvm.memcpy.p0.p0.i64(ptr %d1, ptr %file, i64 %l1, i1 false)
  %d2 = getelementptr i8, ptr %d1, i64 %l1
  call void @llvm.memcpy.p0.p0.i64(ptr %d2, ptr %func, i64 %l2, i1 false)
  br label %done
done:
  ret void
}}
"#
    );
    s
}

/// `{{i64, i64}} @__ptx_printf_scan(ptr fmt, ptr args, ptr dst)`: walks the format as
/// nvcc packs arguments (each aligned to its size: 4-byte integers, 8 bytes with an `l`,
/// `ll`, `j`, `z`, `t` or `L` length, 8-byte doubles and pointers, 4 bytes per `*`);
/// returns (argument bytes, bytes of the `%s` strings with their NULs) and, when `dst` is
/// not null, copies those strings there.
fn scan() -> String {
    let mut s = String::from(
        r#"define internal { i64, i64 } @__ptx_printf_scan(ptr %fmt, ptr %args, ptr %dst) {
entry:
  %ip = alloca i64, align 8, addrspace(5)
  %offp = alloca i64, align 8, addrspace(5)
  %strp = alloca i64, align 8, addrspace(5)
  %longp = alloca i1, align 1, addrspace(5)
  store i64 0, ptr addrspace(5) %ip
  store i64 0, ptr addrspace(5) %offp
  store i64 0, ptr addrspace(5) %strp
  br label %text
text:
  %i = load i64, ptr addrspace(5) %ip
  %cp = getelementptr i8, ptr %fmt, i64 %i
  %c = load i8, ptr %cp
  %i1 = add i64 %i, 1
  store i64 %i1, ptr addrspace(5) %ip
  switch i8 %c, label %text [ i8 0, label %end i8 37, label %percent ]
percent:
  %j = load i64, ptr addrspace(5) %ip
  %c2p = getelementptr i8, ptr %fmt, i64 %j
  %c2 = load i8, ptr %c2p
  %lit = icmp eq i8 %c2, 37
  store i1 false, ptr addrspace(5) %longp
  br i1 %lit, label %literal, label %spec
literal:
  %j1 = add i64 %j, 1
  store i64 %j1, ptr addrspace(5) %ip
  br label %text
spec:
  %k = load i64, ptr addrspace(5) %ip
  %sp = getelementptr i8, ptr %fmt, i64 %k
  %sc = load i8, ptr %sp
  %k1 = add i64 %k, 1
  store i64 %k1, ptr addrspace(5) %ip
  switch i8 %sc, label %conv_int [
"#,
    );
    // NUL inside a conversion ends the format (without stepping past it again).
    let mut cases = vec![(0u8, "end")];
    cases.extend(b"-+ #.0123456789h".iter().map(|&c| (c, "spec")));
    cases.push((b'*', "star"));
    cases.extend(b"lLjztq".iter().map(|&c| (c, "long")));
    cases.extend(b"fFeEgGaAp".iter().map(|&c| (c, "conv8")));
    cases.push((b's', "conv_str"));
    for (c, l) in cases {
        let _ = writeln!(s, "    i8 {}, label %{l}", c as i8);
    }
    s.push_str("  ]\n");
    // `add_arg(n)`: align the offset to n, return it in %o.<tag>, advance by n.
    let add_arg = |tag: &str, size: &str| {
        format!(
            "  %o0.{tag} = load i64, ptr addrspace(5) %offp\n  %o1.{tag} = add i64 %o0.{tag}, {size}\n  %o2.{tag} = sub i64 %o1.{tag}, 1\n  %m.{tag} = sub i64 0, {size}\n  %o.{tag} = and i64 %o2.{tag}, %m.{tag}\n  %on.{tag} = add i64 %o.{tag}, {size}\n  store i64 %on.{tag}, ptr addrspace(5) %offp\n"
        )
    };
    let _ = write!(
        s,
        "star:\n{}  br label %spec\nlong:\n  store i1 true, ptr addrspace(5) %longp\n  br label %spec\nconv_int:\n  %isl = load i1, ptr addrspace(5) %longp\n  %isz = select i1 %isl, i64 8, i64 4\n{}  br label %text\nconv8:\n{}  br label %text\nconv_str:\n{}",
        add_arg("star", "4"),
        add_arg("int", "%isz"),
        add_arg("f8", "8"),
        add_arg("s", "8")
    );
    s.push_str(
        r#"  %argp = getelementptr i8, ptr %args, i64 %o.s
  %str = load ptr, ptr %argp, align 8
  %snull = icmp eq ptr %str, null
  br i1 %snull, label %text, label %str_len
str_len:
  %len0 = call i64 @__ptx_strlen(ptr %str)
  %len = add i64 %len0, 1
  %so = load i64, ptr addrspace(5) %strp
  %so1 = add i64 %so, %len
  store i64 %so1, ptr addrspace(5) %strp
  %nodst = icmp eq ptr %dst, null
  br i1 %nodst, label %text, label %str_copy
str_copy:
  %sd = getelementptr i8, ptr %dst, i64 %so
  call void @llvm.memcpy.p0.p0.i64(ptr %sd, ptr %str, i64 %len, i1 false)
  br label %text
end:
  %ab = load i64, ptr addrspace(5) %offp
  %sb = load i64, ptr addrspace(5) %strp
  %r0 = insertvalue { i64, i64 } poison, i64 %ab, 0
  %r = insertvalue { i64, i64 } %r0, i64 %sb, 1
  ret { i64, i64 } %r
}
"#,
    );
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    fn buffer(capacity: u64, used: u64, records: &[u8]) -> Vec<u8> {
        let mut b = capacity.to_le_bytes().to_vec();
        b.extend(used.to_le_bytes());
        b.extend(records);
        b.resize(16 + capacity as usize, 0);
        b
    }

    #[test]
    fn decodes_printf_and_assert_records() {
        // printf("%d %s\n", 7, "hi"): format 7 bytes + NUL, args: i32 at 0, ptr at 8.
        let mut r = Vec::new();
        r.extend(56u32.to_le_bytes());
        r.extend(KIND_PRINTF.to_le_bytes());
        r.extend(7u32.to_le_bytes());
        r.extend(16u32.to_le_bytes());
        r.extend(3u32.to_le_bytes());
        r.extend(0u32.to_le_bytes());
        r.extend(b"%d %s\n\0\xff");
        r.extend(7u32.to_le_bytes());
        r.extend([0; 4]);
        r.extend(0x1234u64.to_le_bytes());
        r.extend(b"hi\0\xff\xff\xff\xff\xff");
        assert_eq!(r.len(), 56);
        let mut a = Vec::new();
        a.extend(56u32.to_le_bytes());
        a.extend(KIND_ASSERT.to_le_bytes());
        a.extend(12u32.to_le_bytes());
        a.extend(0u32.to_le_bytes());
        for v in [1u32, 2, 3, 4, 5, 6] {
            a.extend(v.to_le_bytes());
        }
        a.extend(b"x\0f.cu\0k\0\0\0\0\0\0\0\0\0");
        a.truncate(56);
        r.extend(&a);
        let d = decode(&buffer(256, r.len() as u64, &r));
        assert_eq!(d.lost_bytes, 0);
        assert_eq!(
            d.records,
            vec![
                Record::Printf {
                    format: b"%d %s\n".to_vec(),
                    args: [7, 0, 0, 0, 0, 0, 0, 0, 0x34, 0x12, 0, 0, 0, 0, 0, 0].to_vec(),
                    strings: vec![b"hi".to_vec()]
                },
                Record::Assert { message: "x".into(), file: "f.cu".into(), function: "k".into(), line: 12, block: [1, 2, 3], thread: [4, 5, 6] },
            ]
        );
    }

    #[test]
    fn overflow_and_garbage_are_reported_not_trusted() {
        let d = decode(&buffer(64, 100, &[]));
        assert_eq!(d.lost_bytes, 36);
        assert!(d.records.is_empty());
        // A size that runs past the end stops decoding.
        let mut r = 4096u32.to_le_bytes().to_vec();
        r.extend(KIND_PRINTF.to_le_bytes());
        assert!(decode(&buffer(64, 8, &r)).records.is_empty());
        assert!(decode(&[1, 2, 3]).records.is_empty());
    }
}
