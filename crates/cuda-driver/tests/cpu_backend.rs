//! End to end over the real CPU backend: cuInit, primary context, memory, a library of
//! PTX, a launch through the CUkernel handle (cudart 13's path), results back.

use std::ffi::c_void;

use backend_api::LoadOptions;
use cuda_driver::{init, CtxHandle, StreamHandle};

const SAXPY: &str = r#"
.version 8.0
.target sm_80
.address_size 64

.visible .entry saxpy(
    .param .u32 n,
    .param .f32 a,
    .param .u64 x,
    .param .u64 y
)
{
    .reg .pred %p;
    .reg .b32 %r<6>;
    .reg .f32 %f<5>;
    .reg .b64 %rd<8>;

    ld.param.u32 %r1, [n];
    ld.param.f32 %f1, [a];
    ld.param.u64 %rd1, [x];
    ld.param.u64 %rd2, [y];
    mov.u32 %r2, %ctaid.x;
    mov.u32 %r3, %ntid.x;
    mov.u32 %r4, %tid.x;
    mad.lo.s32 %r5, %r2, %r3, %r4;
    setp.ge.s32 %p, %r5, %r1;
    @%p bra DONE;
    cvta.to.global.u64 %rd3, %rd1;
    cvta.to.global.u64 %rd4, %rd2;
    mul.wide.s32 %rd5, %r5, 4;
    add.s64 %rd6, %rd3, %rd5;
    add.s64 %rd7, %rd4, %rd5;
    ld.global.f32 %f2, [%rd6];
    ld.global.f32 %f3, [%rd7];
    fma.rn.f32 %f4, %f1, %f2, %f3;
    st.global.f32 [%rd7], %f4;
DONE:
    ret;
}
"#;

#[test]
fn saxpy_through_the_cpu_backend() {
    let driver = init(0).expect("cuInit");
    assert!(driver.device_count() >= 1);
    let ctx = driver.primary_ctx_handle(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();
    assert_eq!(driver.primary_ctx_retain(0).unwrap(), ctx);
    assert_eq!(driver.ctx_get_device(CtxHandle::NULL).unwrap(), 0);

    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = vec![1.0; n];
    let dx = driver.mem_alloc(n * 4).unwrap();
    let dy = driver.mem_alloc(n * 4).unwrap();
    // SAFETY: host buffers hold n floats.
    unsafe {
        driver.memcpy_htod(dx, x.as_ptr().cast(), n * 4).unwrap();
        driver.memcpy_htod(dy, y.as_ptr().cast(), n * 4).unwrap();
    }
    let text = format!("{SAXPY}\0");
    // SAFETY: NUL-terminated PTX.
    let (lib, logs) = unsafe { driver.library_load_data(text.as_ptr().cast(), &LoadOptions::default()) };
    let lib = lib.unwrap_or_else(|e| panic!("cuLibraryLoadData: {e}\n{}", logs.error));
    let kernel = driver.library_get_kernel(lib, "saxpy").unwrap();
    let (mut n_arg, mut a_arg, mut x_arg, mut y_arg) = (n as u32, 2.0f32, dx, dy);
    let mut args: [*mut c_void; 4] =
        [(&mut n_arg as *mut u32).cast(), (&mut a_arg as *mut f32).cast(), (&mut x_arg as *mut u64).cast(), (&mut y_arg as *mut u64).cast()];
    // SAFETY: one pointer per parameter, each to a value of the parameter's size.
    unsafe {
        driver
            .launch_kernel(
                kernel.as_raw(),
                [(n as u32).div_ceil(256), 1, 1],
                [256, 1, 1],
                0,
                StreamHandle::NULL,
                args.as_mut_ptr(),
                std::ptr::null_mut(),
            )
            .unwrap();
    }
    driver.ctx_synchronize(CtxHandle::NULL).unwrap();
    let mut out = vec![0f32; n];
    // SAFETY: `out` holds n floats.
    unsafe { driver.memcpy_dtoh(out.as_mut_ptr().cast(), dy, n * 4).unwrap() };
    for (i, v) in out.iter().enumerate() {
        assert_eq!(*v, 2.0 * i as f32 + 1.0, "y[{i}]");
    }
    driver.mem_free(dx).unwrap();
    driver.mem_free(dy).unwrap();
    driver.library_unload(lib).unwrap();
    driver.primary_ctx_release(0).unwrap();
}

/// Copies of 0 bytes succeed whatever the addresses, as on an H200 (driver 580.159); a
/// byte to a null device address is still an error.
#[test]
fn zero_byte_copies_succeed_at_any_address() {
    let driver = init(0).expect("cuInit");
    let ctx = driver.primary_ctx_retain(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();
    let mut host = [0u8; 4];
    let (null, unmapped) = (0u64, 0xdead_0000u64);
    // SAFETY: no byte is read or written.
    unsafe {
        for dst in [null, unmapped] {
            driver.memcpy_htod(dst, host.as_ptr().cast(), 0).unwrap();
            driver.memcpy_htod(dst, std::ptr::null(), 0).unwrap();
            driver.memcpy_htod_async(dst, host.as_ptr().cast(), 0, StreamHandle::NULL).unwrap();
            driver.memcpy_dtoh(host.as_mut_ptr().cast(), dst, 0).unwrap();
            driver.memcpy_dtoh_async(host.as_mut_ptr().cast(), dst, 0, StreamHandle::NULL).unwrap();
        }
    }
    driver.memcpy_dtod(null, null, 0).unwrap();
    driver.memcpy_dtod_async(unmapped, null, 0, StreamHandle::NULL).unwrap();
    // SAFETY: `host` holds the 4 bytes.
    let err = unsafe { driver.memcpy_htod(null, host.as_ptr().cast(), 4) }.unwrap_err();
    assert_eq!(err, cuda_driver::CuError::INVALID_VALUE);
    driver.ctx_synchronize(CtxHandle::NULL).unwrap();
}

/// Memory requirements and sparse properties exist only for mipmapped arrays created
/// sparse or with deferred mapping, which the CPU device does not make: every other
/// mipmapped array, an unknown one and a bad device are CUDA_ERROR_INVALID_VALUE, as on an
/// H200 (driver 580.159).
#[test]
fn mipmapped_arrays_have_no_backing_info() {
    let driver = init(0).expect("cuInit");
    let ctx = driver.primary_ctx_retain(0).unwrap();
    driver.ctx_set_current(ctx).unwrap();
    // 64 x 64 floats (CU_AD_FORMAT_FLOAT 0x20), 3 levels.
    let desc = cuda_driver::texture::Array3dDescriptor { width: 64, height: 64, depth: 0, format: 0x20, num_channels: 1, flags: 0 };
    let mm = driver.mipmapped_array_create(&desc, 3).unwrap();
    let unknown = cuda_driver::texture::mipmap::MipmapHandle(0);
    for h in [mm, unknown] {
        for call in ["cuMipmappedArrayGetMemoryRequirements", "cuMipmappedArrayGetSparseProperties"] {
            assert_eq!(driver.mipmapped_array_without_backing_info(h, call), Err(cuda_driver::CuError::INVALID_VALUE), "{call}");
        }
    }
    driver.mipmapped_array_destroy(mm).unwrap();
}
