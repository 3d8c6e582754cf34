//! Peer devices: access queries, enabling and disabling access, P2P attributes and
//! copies between devices (runtime API "Peer Device Memory Access" and "Memory
//! Management", cudaMemcpyPeer).

use std::ffi::{c_int, c_uint, c_void};

use super::stream;
use crate::boundary::{export, Out, RtResult};
use crate::driver::{CUdevice, CUdeviceptr};
use crate::error::CudaError;
use crate::runtime::{current_device, runtime, Runtime};

/// Whether `dev` can map `peer`'s memory (both runtime ordinals, checked).
fn can_access(rt: &Runtime, dev: c_int, peer: c_int) -> RtResult<bool> {
    let (d, p): (CUdevice, CUdevice) = (rt.device(dev)?, rt.device(peer)?);
    let mut can = 0;
    // SAFETY: valid out-pointer.
    unsafe { rt.api().cuDeviceCanAccessPeer(&mut can, d, p) }?;
    Ok(can != 0)
}

fn copy_peer(dst: *mut c_void, dst_device: c_int, src: *const c_void, src_device: c_int, count: usize, s: Option<*mut c_void>) -> RtResult {
    let rt = runtime()?;
    rt.context()?;
    let (dst_ctx, src_ctx) = (rt.primary(dst_device)?, rt.primary(src_device)?);
    if count == 0 {
        return Ok(());
    }
    let (d, sp) = (dst as CUdeviceptr, src as CUdeviceptr);
    // SAFETY: primary contexts of valid devices; the driver checks the ranges.
    unsafe {
        match s {
            None => rt.api().cuMemcpyPeer(d, dst_ctx, sp, src_ctx, count),
            Some(s) => rt.api().cuMemcpyPeerAsync(d, dst_ctx, sp, src_ctx, count, stream(s, false)),
        }
    }
}

export! {
    /// Invalid ordinals are `cudaErrorInvalidDevice`; a device is never its own peer (the
    /// driver answers 0).
    fn cudaDeviceCanAccessPeer(can_access_peer: *mut c_int, device: c_int, peer_device: c_int) {
        let out = Out::new(can_access_peer)?;
        out.write(c_int::from(can_access(runtime()?, device, peer_device)?));
        Ok(())
    }

    /// Flags must be 0 (`cudaErrorInvalidValue`). As documented, a peer the current device
    /// cannot access (`cudaDeviceCanAccessPeer` answers 0, which includes the device itself
    /// and every device of a one-device system) is `cudaErrorInvalidDevice`.
    fn cudaDeviceEnablePeerAccess(peer_device: c_int, flags: c_uint) {
        if flags != 0 {
            return Err(CudaError::INVALID_VALUE);
        }
        let rt = runtime()?;
        if !can_access(rt, current_device(), peer_device)? {
            return Err(CudaError::INVALID_DEVICE);
        }
        rt.context()?;
        let peer = rt.primary(peer_device)?;
        // SAFETY: the peer's primary context.
        unsafe { rt.api().cuCtxEnablePeerAccess(peer, 0) }
    }

    /// Access to a peer the current device cannot access was never enabled:
    /// `cudaErrorPeerAccessNotEnabled`; an invalid ordinal is `cudaErrorInvalidDevice`.
    fn cudaDeviceDisablePeerAccess(peer_device: c_int) {
        let rt = runtime()?;
        if !can_access(rt, current_device(), peer_device)? {
            return Err(CudaError::PEER_ACCESS_NOT_ENABLED);
        }
        rt.context()?;
        let peer = rt.primary(peer_device)?;
        // SAFETY: the peer's primary context.
        unsafe { rt.api().cuCtxDisablePeerAccess(peer) }
    }

    /// `cudaDeviceP2PAttr` values are `CUdevice_P2PAttribute`'s. Invalid ordinals, or the
    /// same device twice, are `cudaErrorInvalidDevice` (a device has no P2P link to itself).
    fn cudaDeviceGetP2PAttribute(value: *mut c_int, attr: c_int, src_device: c_int, dst_device: c_int) {
        let out = Out::new(value)?;
        let rt = runtime()?;
        let (s, d) = (rt.device(src_device)?, rt.device(dst_device)?);
        if src_device == dst_device {
            return Err(CudaError::INVALID_DEVICE);
        }
        let mut v = 0;
        // SAFETY: valid out-pointer.
        unsafe { rt.api().cuDeviceGetP2PAttribute(&mut v, attr, s, d) }?;
        out.write(v);
        Ok(())
    }

    /// A copy between two devices' memory (the same device is a plain device copy);
    /// invalid ordinals are `cudaErrorInvalidDevice`.
    fn cudaMemcpyPeer(dst: *mut c_void, dst_device: c_int, src: *const c_void, src_device: c_int, count: usize) {
        copy_peer(dst, dst_device, src, src_device, count, None)
    }

    fn cudaMemcpyPeerAsync(dst: *mut c_void, dst_device: c_int, src: *const c_void, src_device: c_int, count: usize, s: *mut c_void) {
        copy_peer(dst, dst_device, src, src_device, count, Some(s))
    }
}
