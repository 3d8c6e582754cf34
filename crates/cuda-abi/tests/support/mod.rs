//! What the C-entry-point tests of memory (vmm.rs, mempool.rs) share: a created context, the
//! success check, and a kernel that adds a constant to a `u32` array.

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

use std::ptr::null_mut;

use cuda::exports::context::*;
use cuda::exports::device::*;
use cuda::exports::init::*;
use cuda::exports::module::*;
use cuda::types::*;

pub const INVALID_VALUE: CUresult = CUresult::ERROR_INVALID_VALUE;

/// `data[i] += add` for `i < n`, as `add_u32(data, n, add)`.
pub const ADD_U32_PTX: &str = "
.version 8.0
.target sm_80
.address_size 64

.visible .entry add_u32(
    .param .u64 add_u32_data,
    .param .u32 add_u32_n,
    .param .u32 add_u32_add
)
{
    .reg .pred %p<2>;
    .reg .b32 %r<9>;
    .reg .b64 %rd<5>;

    ld.param.u64 %rd1, [add_u32_data];
    ld.param.u32 %r1, [add_u32_n];
    ld.param.u32 %r2, [add_u32_add];
    mov.u32 %r3, %ctaid.x;
    mov.u32 %r4, %ntid.x;
    mov.u32 %r5, %tid.x;
    mad.lo.s32 %r6, %r3, %r4, %r5;
    setp.ge.u32 %p1, %r6, %r1;
    @%p1 bra DONE;
    cvta.to.global.u64 %rd2, %rd1;
    mul.wide.u32 %rd3, %r6, 4;
    add.s64 %rd4, %rd2, %rd3;
    ld.global.u32 %r7, [%rd4];
    add.s32 %r8, %r7, %r2;
    st.global.u32 [%rd4], %r8;
DONE:
    ret;
}
";

pub fn ok(res: CUresult, what: &str) {
    assert_eq!(res, CUresult::SUCCESS, "{what}");
}

/// A created context, current on this thread until dropped.
pub struct Ctx(pub CUcontext, pub CUdevice);

impl Ctx {
    pub fn new() -> Ctx {
        ok(unsafe { cuInit(0) }, "cuInit");
        let mut dev = -1;
        ok(unsafe { cuDeviceGet(&mut dev, 0) }, "cuDeviceGet");
        let mut ctx = null_mut();
        ok(unsafe { cuCtxCreate_v2(&mut ctx, 0, dev) }, "cuCtxCreate_v2");
        Ctx(ctx, dev)
    }
}

impl Drop for Ctx {
    fn drop(&mut self) {
        ok(unsafe { cuCtxDestroy_v2(self.0) }, "cuCtxDestroy_v2");
    }
}

/// `add_u32` loaded in the current context.
pub fn add_kernel() -> (CUmodule, CUfunction) {
    let ptx = std::ffi::CString::new(ADD_U32_PTX).unwrap();
    let mut module = null_mut();
    ok(unsafe { cuModuleLoadData(&mut module, ptx.as_ptr().cast()) }, "cuModuleLoadData");
    let mut f = null_mut();
    ok(unsafe { cuModuleGetFunction(&mut f, module, c"add_u32".as_ptr()) }, "cuModuleGetFunction");
    (module, f)
}
