//! `cusolverDnHandle_t`, `cusolverDnParams_t` and the Jacobi solvers' info objects.
//!
//! Each is the address of an allocation recorded in a registry of its kind, so stale or
//! foreign handles are recognized instead of dereferenced.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex};

use crate::status::{fail, SolverResult, INVALID_VALUE, NOT_INITIALIZED};

/// What a handle or object stores.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Object {
    /// A dense handle: the `CUstream` its work is queued on.
    Dense { stream: usize },
    /// A sparse handle.
    Sparse { stream: usize },
    /// `cusolverDnParams_t` (its only setting, the 64-bit API's algorithm, has one value here).
    Params,
    /// `syevjInfo_t` / `gesvdjInfo_t`: tolerance, sweep limit, sorting.
    Jacobi { tolerance: f64, max_sweeps: i32, sort: bool },
}

static OBJECTS: LazyLock<Mutex<HashMap<usize, Object>>> = LazyLock::new(Mutex::default);

fn objects() -> std::sync::MutexGuard<'static, HashMap<usize, Object>> {
    OBJECTS.lock().unwrap_or_else(|e| e.into_inner())
}

/// A new object (its address is unique while it lives).
pub fn create(object: Object) -> usize {
    let key = Box::into_raw(Box::new(0u64)) as usize;
    objects().insert(key, object);
    key
}

/// Forgets `key`, which must hold an object `is_kind` accepts.
pub fn destroy(key: usize, is_kind: fn(&Object) -> bool) -> SolverResult {
    let mut all = objects();
    match all.get(&key) {
        Some(o) if is_kind(o) => {
            all.remove(&key);
            // SAFETY: `create` made this box, and the registry held it until now.
            drop(unsafe { Box::from_raw(key as *mut u64) });
            Ok(())
        }
        _ => Err(invalid(key)),
    }
}

/// A copy of the object at `key`.
pub fn get(key: usize) -> SolverResult<Object> {
    objects().get(&key).copied().ok_or_else(|| invalid(key))
}

/// Changes the object at `key`.
pub fn update(key: usize, change: impl FnOnce(&mut Object) -> SolverResult) -> SolverResult {
    let mut all = objects();
    let o = all.get_mut(&key).ok_or_else(|| invalid(key))?;
    change(o)
}

/// The stream of a dense handle.
pub fn dense_stream(key: usize) -> SolverResult<usize> {
    match get(key)? {
        Object::Dense { stream } => Ok(stream),
        _ => Err(invalid(key)),
    }
}

fn invalid(key: usize) -> i32 {
    fail(NOT_INITIALIZED, format_args!("{key:#x} is not a live cuSOLVER handle of the expected kind"))
}

/// `INVALID_VALUE` for an object of the wrong kind passed as parameters.
pub fn jacobi(key: usize) -> SolverResult<(f64, i32, bool)> {
    match get(key) {
        Ok(Object::Jacobi { tolerance, max_sweeps, sort }) => Ok((tolerance, max_sweeps, sort)),
        _ => Err(fail(INVALID_VALUE, format_args!("{key:#x} is not a syevjInfo_t/gesvdjInfo_t"))),
    }
}
