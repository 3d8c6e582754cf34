//! User objects (`cuUserObjectCreate`, `cuUserObjectRetain`, `cuUserObjectRelease`,
//! `cuGraphRetainUserObject`, `cuGraphReleaseUserObject`); semantics in
//! `cuda_driver::graph::user_object`.

use std::ffi::{c_uint, c_void};

use cuda_driver::{CuError, UserObjectHandle};

use super::drv;
use super::graph_params::{graph_h, CUgraph};
use crate::boundary::{export, Out};

/// `CUuserObject`.
pub type CUuserObject = *mut c_void;

fn obj(o: CUuserObject) -> UserObjectHandle {
    UserObjectHandle::from_raw(o)
}

export! {
    /// `cuUserObjectCreate(CUuserObject* object_out, void* ptr, CUhostFn destroy, unsigned initialRefcount, unsigned flags)`.
    fn cuUserObjectCreate(out: *mut CUuserObject, ptr: *mut c_void, destroy: Option<unsafe extern "C" fn(*mut c_void)>, initial: c_uint, flags: c_uint) {
        // SAFETY: NULL or writable, per the API.
        let out = unsafe { Out::new(out) }?;
        let destroy = destroy.ok_or(CuError::INVALID_VALUE)?;
        out.write(drv()?.user_object_create(destroy, ptr as usize, initial, flags)?.as_raw());
        Ok(())
    }

    /// `cuUserObjectRetain(CUuserObject, unsigned count)`.
    fn cuUserObjectRetain(o: CUuserObject, count: c_uint) {
        drv()?.user_object_retain(obj(o), count)
    }

    /// `cuUserObjectRelease(CUuserObject, unsigned count)`.
    fn cuUserObjectRelease(o: CUuserObject, count: c_uint) {
        drv()?.user_object_release(obj(o), count)
    }

    /// `cuGraphRetainUserObject(CUgraph, CUuserObject, unsigned count, unsigned flags)`.
    fn cuGraphRetainUserObject(g: CUgraph, o: CUuserObject, count: c_uint, flags: c_uint) {
        drv()?.graph_retain_user_object(graph_h(g), obj(o), count, flags)
    }

    /// `cuGraphReleaseUserObject(CUgraph, CUuserObject, unsigned count)`.
    fn cuGraphReleaseUserObject(g: CUgraph, o: CUuserObject, count: c_uint) {
        drv()?.graph_release_user_object(graph_h(g), obj(o), count)
    }
}
