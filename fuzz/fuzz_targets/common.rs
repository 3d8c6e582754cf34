//! What the driver targets share: one initialized driver with its primary context current,
//! inputs placed so that reading past them faults, and the check that a code is one the
//! driver documents.
#![allow(dead_code)]

use std::ffi::{c_char, c_void};
use std::sync::Once;

use cuda::exports::context::cuCtxSetCurrent;
use cuda::exports::device::{cuDeviceGet, cuDevicePrimaryCtxRetain};
use cuda::exports::error::cuGetErrorName;
use cuda::exports::init::cuInit;
use cuda::types::CUresult;

static INIT: Once = Once::new();

/// `cuInit` and device 0's primary context, current on the calling thread. Compiled
/// modules are not cached: every distinct input would leave an entry on disk.
pub fn init() {
    INIT.call_once(|| {
        std::env::set_var("CUDA_CACHE_DISABLE", "1");
        // SAFETY (all calls): valid out-pointers.
        unsafe {
            assert_eq!(cuInit(0), CUresult::SUCCESS);
            let mut dev = 0;
            assert_eq!(cuDeviceGet(&mut dev, 0), CUresult::SUCCESS);
            let mut ctx = std::ptr::null_mut();
            assert_eq!(cuDevicePrimaryCtxRetain(&mut ctx, dev), CUresult::SUCCESS);
            assert_eq!(cuCtxSetCurrent(ctx), CUresult::SUCCESS);
        }
    });
}

/// Panics (a finding) unless `rc` is a code of the driver's documented set.
pub fn check_code(rc: CUresult, call: &str) {
    let mut name: *const c_char = std::ptr::null();
    // SAFETY: valid out-pointer.
    let known = unsafe { cuGetErrorName(rc, &mut name) } == CUresult::SUCCESS;
    assert!(known, "{call} answered {}, which is no documented CUresult", rc.0);
}

/// Input bytes followed by a NUL and then by an unmapped page: an image whose headers
/// claim more bytes than the input has makes the driver read into the hole, where a
/// direct read would fault (the driver must refuse such an image, not crash).
pub struct Guarded {
    base: *mut u8,
    len: usize,
    start: usize,
}

impl Guarded {
    pub fn new(data: &[u8]) -> Guarded {
        // SAFETY: sysconf has no preconditions.
        let page = unsafe { libc::sysconf(libc::_SC_PAGESIZE) } as usize;
        let body = (data.len() + 1).div_ceil(page) * page;
        let len = body + page;
        // SAFETY: an anonymous private mapping; the last page is made inaccessible.
        let base = unsafe {
            let p = libc::mmap(std::ptr::null_mut(), len, libc::PROT_READ | libc::PROT_WRITE, libc::MAP_PRIVATE | libc::MAP_ANONYMOUS, -1, 0);
            assert_ne!(p, libc::MAP_FAILED);
            assert_eq!(libc::mprotect(p.cast::<u8>().add(body).cast(), page, libc::PROT_NONE), 0);
            p.cast::<u8>()
        };
        let start = body - (data.len() + 1);
        // SAFETY: `start + data.len() + 1 == body`, inside the writable part.
        unsafe {
            std::ptr::copy_nonoverlapping(data.as_ptr(), base.add(start), data.len());
            base.add(start + data.len()).write(0);
        }
        Guarded { base, len, start }
    }

    pub fn ptr(&self) -> *const c_void {
        // SAFETY: inside the mapping.
        unsafe { self.base.add(self.start).cast() }
    }
}

impl Drop for Guarded {
    fn drop(&mut self) {
        // SAFETY: the mapping made in `new`.
        unsafe { libc::munmap(self.base.cast(), self.len) };
    }
}
