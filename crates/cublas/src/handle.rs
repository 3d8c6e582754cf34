//! `cublasHandle_t`: handles and the state each carries.
//!
//! A handle is the address of a small allocation made by `cublasCreate` and recorded
//! in a registry, so a stale or foreign handle is recognized (cuBLAS answers
//! `CUBLAS_STATUS_NOT_INITIALIZED`) instead of being dereferenced.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard};

use crate::status::{fail, BlasResult, NOT_INITIALIZED};
use crate::types::PointerMode;

/// What `cublasSet*` stores in a handle.
#[derive(Clone, Copy, Debug)]
pub struct HandleState {
    /// The `CUstream` work is queued on (0: the legacy default stream).
    pub stream: usize,
    pub pointer_mode: PointerMode,
    /// `cublasMath_t` as set (arithmetic here is never reduced below the compute type,
    /// so every mode computes alike).
    pub math_mode: i32,
    /// `cublasAtomicsMode_t` as set (results never depend on it here).
    pub atomics_mode: i32,
    /// `cublasSetSmCountTarget`'s value.
    pub sm_count_target: i32,
}

impl Default for HandleState {
    fn default() -> Self {
        HandleState { stream: 0, pointer_mode: PointerMode::Host, math_mode: 0, atomics_mode: 0, sm_count_target: 0 }
    }
}

fn registry() -> MutexGuard<'static, HashMap<usize, HandleState>> {
    static HANDLES: LazyLock<Mutex<HashMap<usize, HandleState>>> = LazyLock::new(Mutex::default);
    // A panic while the lock was held leaves a consistent map; keep using it.
    HANDLES.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new handle (its address is unique while it lives).
pub fn create() -> usize {
    let key = Box::into_raw(Box::new(0u64)) as usize;
    registry().insert(key, HandleState::default());
    key
}

/// Forgets `handle`; `NOT_INITIALIZED` if it is not a live handle.
pub fn destroy(handle: usize) -> BlasResult {
    registry().remove(&handle).ok_or_else(|| invalid(handle))?;
    // SAFETY: `create` made this box, and the registry held it until now.
    drop(unsafe { Box::from_raw(handle as *mut u64) });
    Ok(())
}

/// A copy of `handle`'s state.
pub fn state(handle: usize) -> BlasResult<HandleState> {
    registry().get(&handle).copied().ok_or_else(|| invalid(handle))
}

/// Changes `handle`'s state.
pub fn update(handle: usize, change: impl FnOnce(&mut HandleState)) -> BlasResult {
    let mut handles = registry();
    let state = handles.get_mut(&handle).ok_or_else(|| invalid(handle))?;
    change(state);
    Ok(())
}

fn invalid(handle: usize) -> i32 {
    fail(NOT_INITIALIZED, format_args!("{handle:#x} is not a cuBLAS handle (never created, or destroyed)"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn handles_live_from_create_to_destroy() {
        let h = create();
        assert_eq!(state(h).unwrap().pointer_mode, PointerMode::Host);
        update(h, |s| s.stream = 42).unwrap();
        assert_eq!(state(h).unwrap().stream, 42);
        destroy(h).unwrap();
        assert_eq!(state(h).unwrap_err(), NOT_INITIALIZED);
        assert_eq!(destroy(h).unwrap_err(), NOT_INITIALIZED);
        assert_eq!(state(0).unwrap_err(), NOT_INITIALIZED);
    }
}
