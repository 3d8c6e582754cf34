//! Registered variables by their host shadow ("symbol"): copies to and from them, their
//! device address and size.

use std::ffi::{c_int, c_void};

use super::memcpy::{copy, Mode};
use crate::boundary::{export, Out, RtResult};
use crate::error::CudaError;
use crate::registry;
use crate::types::MemcpyKind;

/// The device address of `[offset, offset + count)` of a registered variable.
fn range(symbol: *const c_void, count: usize, offset: usize) -> RtResult<*mut c_void> {
    let (base, size) = registry::var(symbol)?.address()?;
    match offset.checked_add(count) {
        Some(end) if end <= size => Ok((base as usize + offset) as *mut c_void),
        _ => Err(CudaError::INVALID_VALUE),
    }
}

/// The device range of a copy to (`to`) or from a symbol, with its direction: to a symbol
/// host-to-device, device-to-device or default; from one device-to-host, device-to-device
/// or default.
pub(super) fn copy_range(symbol: *const c_void, count: usize, offset: usize, kind: c_int, to: bool) -> RtResult<(*mut c_void, MemcpyKind)> {
    let kind = match MemcpyKind::from_raw(kind) {
        Some(k @ (MemcpyKind::DeviceToDevice | MemcpyKind::Default)) => k,
        Some(k @ MemcpyKind::HostToDevice) if to => k,
        Some(k @ MemcpyKind::DeviceToHost) if !to => k,
        _ => return Err(CudaError::INVALID_MEMCPY_DIRECTION),
    };
    Ok((range(symbol, count, offset)?, kind))
}

fn to_symbol(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int, mode: Mode) -> RtResult {
    let (dst, kind) = copy_range(symbol, count, offset, kind, true)?;
    copy(dst, src, count, kind, mode)
}

fn from_symbol(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int, mode: Mode) -> RtResult {
    let (src, kind) = copy_range(symbol, count, offset, kind, false)?;
    copy(dst, src, count, kind, mode)
}

export! {
    fn cudaMemcpyToSymbol(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) {
        to_symbol(symbol, src, count, offset, kind, Mode::Blocking)
    }

    fn cudaMemcpyToSymbol_ptds(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int) {
        to_symbol(symbol, src, count, offset, kind, Mode::BlockingPerThread)
    }

    fn cudaMemcpyToSymbolAsync(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int, s: *mut c_void) {
        to_symbol(symbol, src, count, offset, kind, Mode::of_async(s, false))
    }

    fn cudaMemcpyToSymbolAsync_ptsz(symbol: *const c_void, src: *const c_void, count: usize, offset: usize, kind: c_int, s: *mut c_void) {
        to_symbol(symbol, src, count, offset, kind, Mode::of_async(s, true))
    }

    fn cudaMemcpyFromSymbol(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) {
        from_symbol(dst, symbol, count, offset, kind, Mode::Blocking)
    }

    fn cudaMemcpyFromSymbol_ptds(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int) {
        from_symbol(dst, symbol, count, offset, kind, Mode::BlockingPerThread)
    }

    fn cudaMemcpyFromSymbolAsync(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int, s: *mut c_void) {
        from_symbol(dst, symbol, count, offset, kind, Mode::of_async(s, false))
    }

    fn cudaMemcpyFromSymbolAsync_ptsz(dst: *mut c_void, symbol: *const c_void, count: usize, offset: usize, kind: c_int, s: *mut c_void) {
        from_symbol(dst, symbol, count, offset, kind, Mode::of_async(s, true))
    }

    fn cudaGetSymbolAddress(ptr: *mut *mut c_void, symbol: *const c_void) {
        let out = Out::new(ptr)?;
        out.write(registry::var(symbol)?.address()?.0 as *mut c_void);
        Ok(())
    }

    fn cudaGetSymbolSize(size: *mut usize, symbol: *const c_void) {
        let out = Out::new(size)?;
        out.write(registry::var(symbol)?.address()?.1);
        Ok(())
    }
}
