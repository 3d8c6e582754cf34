//! Fuzz target: `cuLinkCreate`, up to four `cuLinkAddData` inputs of fuzzer-chosen types
//! (PTX, cubin, fatbin, object, library, LTO-IR, and unknown ones) and `cuLinkComplete`.
//! The input is split at `\0\xff\0` markers; each part's first byte picks its type. Every
//! answer must be a documented code, and nothing may crash.
#![no_main]

#[path = "common.rs"]
mod common;

use cuda::exports::link::{cuLinkAddData_v2, cuLinkComplete, cuLinkCreate_v2, cuLinkDestroy};
use cuda::types::CUresult;
use libfuzzer_sys::fuzz_target;
use std::ptr::null_mut;

/// `CUjitInputType` values: cubin 0, PTX 1, fatbin 2, object 3, library 4, NVVM (LTO-IR) 5,
/// and 6, which no driver knows.
const INPUT_TYPES: u32 = 7;

fuzz_target!(|data: &[u8]| {
    common::init();
    let parts: Vec<&[u8]> = split(data, b"\0\xff\0").into_iter().filter(|p| !p.is_empty()).take(4).collect();
    // SAFETY (all calls): valid out-pointers; each input is `size` readable bytes.
    unsafe {
        let mut state = null_mut();
        let rc = cuLinkCreate_v2(0, null_mut(), null_mut(), &mut state);
        common::check_code(rc, "cuLinkCreate");
        if rc != CUresult::SUCCESS {
            return;
        }
        for (i, part) in parts.iter().enumerate() {
            let kind = u32::from(part[0]) % INPUT_TYPES;
            let mut bytes = part[1..].to_vec();
            let size = bytes.len();
            let name = format!("input{i}\0");
            let rc = cuLinkAddData_v2(state, kind, bytes.as_mut_ptr().cast(), size, name.as_ptr().cast(), 0, null_mut(), null_mut());
            common::check_code(rc, "cuLinkAddData");
        }
        let (mut image, mut size) = (null_mut(), 0usize);
        let rc = cuLinkComplete(state, &mut image, &mut size);
        common::check_code(rc, "cuLinkComplete");
        common::check_code(cuLinkDestroy(state), "cuLinkDestroy");
    }
});

fn split<'a>(data: &'a [u8], marker: &[u8]) -> Vec<&'a [u8]> {
    let mut parts = Vec::new();
    let mut rest = data;
    while let Some(at) = rest.windows(marker.len()).position(|w| w == marker) {
        parts.push(&rest[..at]);
        rest = &rest[at + marker.len()..];
    }
    parts.push(rest);
    parts
}
