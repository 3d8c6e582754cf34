//! Stream attributes (`cudaStreamGetAttribute`, `cudaStreamSetAttribute`,
//! `cudaStreamCopyAttributes`, with `_ptsz` twins) and managed-memory batches and range
//! attributes (`cudaMemPrefetchBatchAsync`, `cudaMemDiscardBatchAsync`,
//! `cudaMemDiscardAndPrefetchBatchAsync`, `cudaMemRangeGetAttributes`), runtime API
//! "Stream Management" and "Unified Addressing". The runtime's attribute ids and value
//! union (`cudaLaunchAttributeValue`), `cudaMemLocation` and range attribute ids have the
//! driver's layout and values, so the arguments pass through.

use std::ffi::{c_int, c_ulonglong, c_void};

use super::api;
use super::stream;
use crate::boundary::{export, RtResult};
use crate::driver::CUdeviceptr;
use crate::error::CudaError;
use crate::runtime::runtime;

fn get_attribute(s: *mut c_void, attr: c_int, value: *mut c_void, per_thread: bool) -> RtResult {
    if value.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: a writable value union, per the API.
    unsafe { api()?.cuStreamGetAttribute(stream(s, per_thread), attr, value) }
}

fn set_attribute(s: *mut c_void, attr: c_int, value: *const c_void, per_thread: bool) -> RtResult {
    if value.is_null() {
        return Err(CudaError::INVALID_VALUE);
    }
    // SAFETY: a readable value union, per the API.
    unsafe { api()?.cuStreamSetAttribute(stream(s, per_thread), attr, value) }
}

#[allow(clippy::too_many_arguments, reason = "mirrors the C signature")]
fn prefetch_batch(
    dptrs: *mut *mut c_void,
    sizes: *mut usize,
    count: usize,
    locs: *mut c_void,
    idxs: *mut usize,
    num_locs: usize,
    flags: c_ulonglong,
    s: *mut c_void,
    per_thread: bool,
    discard: bool,
) -> RtResult {
    let api = api()?;
    let dptrs = dptrs.cast::<CUdeviceptr>();
    // SAFETY: the arrays as the API documents them; the driver checks the counts.
    unsafe {
        if discard {
            api.cuMemDiscardAndPrefetchBatchAsync(dptrs, sizes, count, locs, idxs, num_locs, flags, stream(s, per_thread))
        } else {
            api.cuMemPrefetchBatchAsync(dptrs, sizes, count, locs, idxs, num_locs, flags, stream(s, per_thread))
        }
    }
}

fn discard_batch(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, flags: c_ulonglong, s: *mut c_void, per_thread: bool) -> RtResult {
    // SAFETY: the arrays as the API documents them; the driver checks the counts.
    unsafe { api()?.cuMemDiscardBatchAsync(dptrs.cast(), sizes, count, flags, stream(s, per_thread)) }
}

export! {
    /// `cudaStreamGetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, cudaStreamAttrValue* value_out)`.
    fn cudaStreamGetAttribute(s: *mut c_void, attr: c_int, value_out: *mut c_void) {
        get_attribute(s, attr, value_out, false)
    }
    fn cudaStreamGetAttribute_ptsz(s: *mut c_void, attr: c_int, value_out: *mut c_void) {
        get_attribute(s, attr, value_out, true)
    }

    /// `cudaStreamSetAttribute(cudaStream_t hStream, cudaStreamAttrID attr, const cudaStreamAttrValue* value)`.
    fn cudaStreamSetAttribute(s: *mut c_void, attr: c_int, value: *const c_void) {
        set_attribute(s, attr, value, false)
    }
    fn cudaStreamSetAttribute_ptsz(s: *mut c_void, attr: c_int, value: *const c_void) {
        set_attribute(s, attr, value, true)
    }

    /// `cudaStreamCopyAttributes(cudaStream_t dst, cudaStream_t src)`.
    fn cudaStreamCopyAttributes(dst: *mut c_void, src: *mut c_void) {
        // SAFETY: stream handles; the driver checks them.
        unsafe { api()?.cuStreamCopyAttributes(stream(dst, false), stream(src, false)) }
    }
    fn cudaStreamCopyAttributes_ptsz(dst: *mut c_void, src: *mut c_void) {
        // SAFETY: as cudaStreamCopyAttributes.
        unsafe { api()?.cuStreamCopyAttributes(stream(dst, true), stream(src, true)) }
    }

    /// `cudaMemPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count, cudaMemLocation* prefetchLocs, size_t* prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream)`.
    fn cudaMemPrefetchBatchAsync(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, locs: *mut c_void, idxs: *mut usize, num_locs: usize, flags: c_ulonglong, s: *mut c_void) {
        prefetch_batch(dptrs, sizes, count, locs, idxs, num_locs, flags, s, false, false)
    }
    fn cudaMemPrefetchBatchAsync_ptsz(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, locs: *mut c_void, idxs: *mut usize, num_locs: usize, flags: c_ulonglong, s: *mut c_void) {
        prefetch_batch(dptrs, sizes, count, locs, idxs, num_locs, flags, s, true, false)
    }

    /// `cudaMemDiscardBatchAsync(void** dptrs, size_t* sizes, size_t count, unsigned long long flags, cudaStream_t stream)`.
    fn cudaMemDiscardBatchAsync(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, flags: c_ulonglong, s: *mut c_void) {
        discard_batch(dptrs, sizes, count, flags, s, false)
    }
    fn cudaMemDiscardBatchAsync_ptsz(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, flags: c_ulonglong, s: *mut c_void) {
        discard_batch(dptrs, sizes, count, flags, s, true)
    }

    /// `cudaMemDiscardAndPrefetchBatchAsync(void** dptrs, size_t* sizes, size_t count, cudaMemLocation* prefetchLocs, size_t* prefetchLocIdxs, size_t numPrefetchLocs, unsigned long long flags, cudaStream_t stream)`.
    fn cudaMemDiscardAndPrefetchBatchAsync(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, locs: *mut c_void, idxs: *mut usize, num_locs: usize, flags: c_ulonglong, s: *mut c_void) {
        prefetch_batch(dptrs, sizes, count, locs, idxs, num_locs, flags, s, false, true)
    }
    fn cudaMemDiscardAndPrefetchBatchAsync_ptsz(dptrs: *mut *mut c_void, sizes: *mut usize, count: usize, locs: *mut c_void, idxs: *mut usize, num_locs: usize, flags: c_ulonglong, s: *mut c_void) {
        prefetch_batch(dptrs, sizes, count, locs, idxs, num_locs, flags, s, true, true)
    }

    /// `cudaMemRangeGetAttributes(void** data, size_t* dataSizes, enum cudaMemRangeAttribute* attributes, size_t numAttributes, const void* devPtr, size_t count)`.
    fn cudaMemRangeGetAttributes(data: *mut *mut c_void, data_sizes: *mut usize, attributes: *mut c_int, num_attributes: usize, dev_ptr: *const c_void, count: usize) {
        if dev_ptr.is_null() || count == 0 {
            return Err(CudaError::INVALID_VALUE);
        }
        // SAFETY: arrays of `num_attributes` entries, per the API; the driver checks them.
        unsafe { runtime()?.api().cuMemRangeGetAttributes(data, data_sizes, attributes, num_attributes, dev_ptr as CUdeviceptr, count) }
    }
}
