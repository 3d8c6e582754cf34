//! Peer access between contexts (CUDA Driver API, "Peer Context Memory Access":
//! `cuCtxEnablePeerAccess`, `cuCtxDisablePeerAccess`, `cuDeviceCanAccessPeer`).
//!
//! Devices whose memory the host addresses share the process's address space, so any two
//! of them can access each other's memory; other pairs (GPUs of another backend, a device
//! and itself) cannot, and `cuDeviceCanAccessPeer` answers 0 for them. Enabling access is
//! then bookkeeping with NVIDIA's codes: access must be enabled once per (context, peer
//! context) pair (`CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED` the second time), may only be
//! disabled where enabled (`CUDA_ERROR_PEER_ACCESS_NOT_ENABLED`), and a peer the current
//! context's device cannot access, its own device included, is
//! `CUDA_ERROR_PEER_ACCESS_UNSUPPORTED` (as NVIDIA's driver answers for a second context
//! of the same device and for the context itself; flags other than 0 come first,
//! `INVALID_VALUE`: H200, driver 580.159, `tools/gpu_ipc_check.c`). Copies between peers
//! need no enabling here (`cuMemcpyPeer`, `cuMemcpy3DPeer`), as in CUDA.

use std::collections::HashSet;
use std::sync::{Mutex, MutexGuard};

use crate::diag::fail;
use crate::{CtxHandle, CuError, CuResult, Driver};

/// The (context, peer context) pairs with access enabled.
#[derive(Default)]
pub(crate) struct State {
    enabled: Mutex<HashSet<(CtxHandle, CtxHandle)>>,
}

impl State {
    fn enabled(&self) -> MutexGuard<'_, HashSet<(CtxHandle, CtxHandle)>> {
        self.enabled.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl Driver {
    /// Whether device `dev` can access device `peer`'s memory (both valid ordinals).
    pub(crate) fn peer_capable(&self, dev: usize, peer: usize) -> bool {
        let host = |d: usize| self.devices[d].backend.properties().host_addressable_memory;
        dev != peer && host(dev) && host(peer)
    }

    /// `cuCtxEnablePeerAccess`: the current context may access `peer`'s allocations;
    /// `flags` must be 0.
    pub fn ctx_enable_peer_access(&self, peer: CtxHandle, flags: u32) -> CuResult<()> {
        let ctx = self.current_context()?;
        let peer_ctx = self.context(peer)?;
        if flags != 0 {
            return Err(fail(CuError::INVALID_VALUE, format_args!("cuCtxEnablePeerAccess: flags {flags:#x}")));
        }
        if !self.peer_capable(ctx.device, peer_ctx.device) {
            return Err(fail(
                CuError::PEER_ACCESS_UNSUPPORTED,
                format_args!("cuCtxEnablePeerAccess: device {} cannot access device {}", ctx.device, peer_ctx.device),
            ));
        }
        if !self.peers.enabled().insert((ctx.handle, peer)) {
            return Err(fail(CuError::PEER_ACCESS_ALREADY_ENABLED, format_args!("cuCtxEnablePeerAccess: already enabled")));
        }
        Ok(())
    }

    /// `cuCtxDisablePeerAccess`: undoes `cuCtxEnablePeerAccess` for the current context.
    pub fn ctx_disable_peer_access(&self, peer: CtxHandle) -> CuResult<()> {
        let ctx = self.current_context()?;
        self.context(peer)?;
        if !self.peers.enabled().remove(&(ctx.handle, peer)) {
            return Err(fail(CuError::PEER_ACCESS_NOT_ENABLED, format_args!("cuCtxDisablePeerAccess: access to {:#x} is not enabled", peer.0)));
        }
        Ok(())
    }

    /// Forgets the peer access of a context that is destroyed.
    pub(crate) fn forget_peers(&self, ctx: CtxHandle) {
        self.peers.enabled().retain(|&(a, b)| a != ctx && b != ctx);
    }
}
