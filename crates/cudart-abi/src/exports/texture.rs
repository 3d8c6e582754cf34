//! Texture and surface objects: declared because Thrust and CUB name them (CUB's texture
//! iterator), not implemented because our driver has no textures yet. Each checks its
//! pointers as NVIDIA's runtime does (NULL output: `cudaErrorInvalidValue`) and otherwise
//! answers `cudaErrorNotSupported` with a log line: nothing is created.

use std::ffi::c_void;

use crate::boundary::{export, log, RtResult};
use crate::error::CudaError;

fn not_supported(what: &str) -> RtResult {
    log(&format!("{what}: texture and surface objects are not supported by this runtime yet"));
    Err(CudaError::NOT_SUPPORTED)
}

fn non_null<T>(p: *const T) -> RtResult {
    if p.is_null() {
        Err(CudaError::INVALID_VALUE)
    } else {
        Ok(())
    }
}

export! {
    fn cudaCreateTextureObject(object: *mut u64, resource: *const c_void, texture: *const c_void, view: *const c_void) {
        let _ = view;
        non_null(object)?;
        non_null(resource)?;
        non_null(texture)?;
        not_supported("cudaCreateTextureObject")
    }

    fn cudaDestroyTextureObject(object: u64) {
        let _ = object;
        not_supported("cudaDestroyTextureObject")
    }

    fn cudaGetTextureObjectResourceDesc(resource: *mut c_void, object: u64) {
        let _ = object;
        non_null(resource)?;
        not_supported("cudaGetTextureObjectResourceDesc")
    }

    fn cudaGetTextureObjectTextureDesc(texture: *mut c_void, object: u64) {
        let _ = object;
        non_null(texture)?;
        not_supported("cudaGetTextureObjectTextureDesc")
    }

    fn cudaGetTextureObjectResourceViewDesc(view: *mut c_void, object: u64) {
        let _ = object;
        non_null(view)?;
        not_supported("cudaGetTextureObjectResourceViewDesc")
    }

    fn cudaCreateSurfaceObject(object: *mut u64, resource: *const c_void) {
        non_null(object)?;
        non_null(resource)?;
        not_supported("cudaCreateSurfaceObject")
    }

    fn cudaDestroySurfaceObject(object: u64) {
        let _ = object;
        not_supported("cudaDestroySurfaceObject")
    }

    fn cudaGetSurfaceObjectResourceDesc(resource: *mut c_void, object: u64) {
        let _ = object;
        non_null(resource)?;
        not_supported("cudaGetSurfaceObjectResourceDesc")
    }
}
