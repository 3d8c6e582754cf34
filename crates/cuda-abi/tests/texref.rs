//! Texture and surface references through the C entry points, on the CPU device: a PTX
//! module's `.texref`/`.surfref` variables read by `tex`, `suld`, `sust`, `txq` and `suq`,
//! bound to linear memory, pitched memory and CUDA arrays, with results computed here on
//! the host; and the codes of misuse, which are those NVIDIA's driver gave for the same
//! calls (H200, driver 580.159).

#![allow(clippy::undocumented_unsafe_blocks, reason = "test code: every unsafe block calls a C entry point with valid local pointers")]

#[allow(dead_code, reason = "the shared helpers include an add kernel these tests do not launch")]
mod support;

use std::ffi::{c_void, CString};
use std::ptr::{null, null_mut};

use cuda::exports::context::*;
use cuda::exports::launch::*;
use cuda::exports::memcpy::*;
use cuda::exports::memory::*;
use cuda::exports::module::*;
use cuda::exports::texref::*;
use cuda::exports::texture::*;
use cuda::types::*;
use cuda_driver::texture::{Array3dDescriptor, ArrayDescriptor};
use support::{ok, Ctx, INVALID_VALUE};

use cuda::types::CUDA_MEMCPY2D;

const INVALID_HANDLE: CUresult = CUresult::ERROR_INVALID_HANDLE;
const NOT_FOUND: CUresult = CUresult::ERROR_NOT_FOUND;
const NOT_SUPPORTED: CUresult = CUresult::ERROR_NOT_SUPPORTED;

/// `t1` read by integer index (`tex1Dfetch`), `t2` sampled at `(i + off) * s` in 1-D and
/// 2-D, the surface `s1` read and incremented by 1000, and the sizes `txq`/`suq` answer.
const PTX: &str = "
.version 8.0
.target sm_80
.address_size 64
.global .texref t1;
.global .texref t2;
.global .surfref s1;
.global .u32 plain;

.visible .entry fetch1d(.param .u64 out) {
    .reg .b32 %r<2>; .reg .f32 %f<4>; .reg .b64 %rd<3>;
    mov.u32 %r0, %tid.x;
    ld.param.u64 %rd0, [out];
    tex.1d.v4.f32.s32 {%f0, %f1, %f2, %f3}, [t1, {%r0}];
    mul.wide.u32 %rd1, %r0, 16;
    add.u64 %rd1, %rd0, %rd1;
    st.global.v4.f32 [%rd1], {%f0, %f1, %f2, %f3};
    ret;
}

.visible .entry fetch1du(.param .u64 out) {
    .reg .b32 %r<5>; .reg .b64 %rd<3>;
    mov.u32 %r0, %tid.x;
    ld.param.u64 %rd0, [out];
    tex.1d.v4.u32.s32 {%r1, %r2, %r3, %r4}, [t1, {%r0}];
    mul.wide.u32 %rd1, %r0, 16;
    add.u64 %rd1, %rd0, %rd1;
    st.global.v4.u32 [%rd1], {%r1, %r2, %r3, %r4};
    ret;
}

.visible .entry sample2d(.param .u64 out, .param .f32 sx, .param .f32 sy, .param .f32 off) {
    .reg .b32 %r<4>; .reg .f32 %f<11>; .reg .b64 %rd<3>;
    mov.u32 %r0, %tid.x;
    mov.u32 %r1, %tid.y;
    mov.u32 %r2, %ntid.x;
    mad.lo.u32 %r3, %r1, %r2, %r0;
    ld.param.u64 %rd0, [out];
    ld.param.f32 %f8, [sx];
    ld.param.f32 %f9, [sy];
    ld.param.f32 %f10, [off];
    cvt.rn.f32.u32 %f4, %r0;
    cvt.rn.f32.u32 %f5, %r1;
    add.f32 %f4, %f4, %f10;
    add.f32 %f5, %f5, %f10;
    mul.f32 %f4, %f4, %f8;
    mul.f32 %f5, %f5, %f9;
    tex.2d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t2, {%f4, %f5}];
    mul.wide.u32 %rd1, %r3, 16;
    add.u64 %rd1, %rd0, %rd1;
    st.global.v4.f32 [%rd1], {%f0, %f1, %f2, %f3};
    ret;
}

.visible .entry sample1d(.param .u64 out, .param .f32 sx, .param .f32 off) {
    .reg .b32 %r<1>; .reg .f32 %f<11>; .reg .b64 %rd<3>;
    mov.u32 %r0, %tid.x;
    ld.param.u64 %rd0, [out];
    ld.param.f32 %f8, [sx];
    ld.param.f32 %f10, [off];
    cvt.rn.f32.u32 %f4, %r0;
    add.f32 %f4, %f4, %f10;
    mul.f32 %f4, %f4, %f8;
    tex.1d.v4.f32.f32 {%f0, %f1, %f2, %f3}, [t2, {%f4}];
    mul.wide.u32 %rd1, %r0, 16;
    add.u64 %rd1, %rd0, %rd1;
    st.global.v4.f32 [%rd1], {%f0, %f1, %f2, %f3};
    ret;
}

.visible .entry surf(.param .u64 out) {
    .reg .b32 %r<7>; .reg .b64 %rd<3>;
    mov.u32 %r0, %tid.x;
    mov.u32 %r1, %tid.y;
    mov.u32 %r2, %ntid.x;
    mad.lo.u32 %r3, %r1, %r2, %r0;
    shl.b32 %r4, %r0, 2;
    ld.param.u64 %rd0, [out];
    suld.b.2d.b32.trap {%r5}, [s1, {%r4, %r1}];
    add.u32 %r6, %r5, 1000;
    sust.b.2d.b32.trap [s1, {%r4, %r1}], {%r6};
    mul.wide.u32 %rd1, %r3, 4;
    add.u64 %rd1, %rd0, %rd1;
    st.global.u32 [%rd1], %r5;
    ret;
}

.visible .entry query(.param .u64 out) {
    .reg .b32 %r<5>; .reg .b64 %rd<1>;
    ld.param.u64 %rd0, [out];
    txq.width.b32 %r0, [t1];
    txq.width.b32 %r1, [t2];
    txq.height.b32 %r2, [t2];
    suq.width.b32 %r3, [s1];
    suq.height.b32 %r4, [s1];
    st.global.v4.u32 [%rd0], {%r0, %r1, %r2, %r3};
    st.global.u32 [%rd0+16], %r4;
    ret;
}
";

/// The module, its references and a 4 KiB output buffer.
struct Fixture {
    module: CUmodule,
    t1: *mut c_void,
    t2: *mut c_void,
    s1: *mut c_void,
    out: CUdeviceptr,
}

impl Fixture {
    fn new() -> Fixture {
        let ptx = CString::new(PTX).unwrap();
        let mut module = null_mut();
        ok(unsafe { cuModuleLoadData(&mut module, ptx.as_ptr().cast()) }, "cuModuleLoadData");
        let (mut t1, mut t2, mut s1) = (null_mut(), null_mut(), null_mut());
        ok(unsafe { cuModuleGetTexRef(&mut t1, module, c"t1".as_ptr()) }, "t1");
        ok(unsafe { cuModuleGetTexRef(&mut t2, module, c"t2".as_ptr()) }, "t2");
        ok(unsafe { cuModuleGetSurfRef(&mut s1, module, c"s1".as_ptr()) }, "s1");
        let mut out = 0;
        ok(unsafe { cuMemAlloc_v2(&mut out, 4096) }, "out");
        Fixture { module, t1, t2, s1, out }
    }

    /// Launches `kernel` on one block of `bx` x `by` threads with `params` after `out`.
    fn launch(&self, kernel: &str, bx: u32, by: u32, params: &[*mut c_void]) {
        let name = CString::new(kernel).unwrap();
        let mut f = null_mut();
        ok(unsafe { cuModuleGetFunction(&mut f, self.module, name.as_ptr()) }, kernel);
        let mut out = self.out;
        let mut all: Vec<*mut c_void> = vec![(&mut out as *mut CUdeviceptr).cast()];
        all.extend_from_slice(params);
        ok(unsafe { cuLaunchKernel(f, 1, 1, 1, bx, by, 1, 0, null_mut(), all.as_mut_ptr(), null_mut()) }, kernel);
        ok(unsafe { cuCtxSynchronize() }, kernel);
    }

    /// The first `n` four-word results, as `T`.
    fn results<T: Copy + Default>(&self, n: usize) -> Vec<T> {
        let mut v = vec![T::default(); n];
        ok(unsafe { cuMemcpyDtoH_v2(v.as_mut_ptr().cast(), self.out, n * size_of::<T>()) }, "results");
        v
    }

    /// The x channel of the first `n` `tex` results.
    fn x_channel(&self, n: usize) -> Vec<f32> {
        self.results::<[f32; 4]>(n).iter().map(|v| v[0]).collect()
    }
}

impl Drop for Fixture {
    fn drop(&mut self) {
        ok(unsafe { cuMemFree_v2(self.out) }, "free out");
        ok(unsafe { cuModuleUnload(self.module) }, "unload");
    }
}

fn device_buffer<T>(data: &[T]) -> CUdeviceptr {
    let mut p = 0;
    ok(unsafe { cuMemAlloc_v2(&mut p, 1 << 16) }, "alloc");
    ok(unsafe { cuMemcpyHtoD_v2(p, data.as_ptr().cast(), std::mem::size_of_val(data)) }, "upload");
    p
}

fn f32_param(v: &mut f32) -> *mut c_void {
    (v as *mut f32).cast()
}

/// What bilinear filtering gives at unnormalized `(x, y)` over `w` x `h` texels with
/// clamped addressing: texels `floor(c - 0.5)` and the next, weighed by the fraction
/// (exact here: every fraction below is a multiple of 1/4).
fn bilinear(texels: &dyn Fn(usize, usize) -> f32, w: usize, h: usize, x: f32, y: f32) -> f32 {
    let axis = |c: f32, n: usize| {
        let b = c - 0.5;
        let i = b.floor();
        let clamp = |i: f32| (i.max(0.0) as usize).min(n - 1);
        (clamp(i), clamp(i + 1.0), b - i)
    };
    let ((x0, x1, fx), (y0, y1, fy)) = (axis(x, w), axis(y, h));
    let row = |y| texels(x0, y) * (1.0 - fx) + texels(x1, y) * fx;
    row(y0) * (1.0 - fy) + row(y1) * fy
}

#[test]
fn unbound_references_read_zeros() {
    let _ctx = Ctx::new();
    let fx = Fixture::new();
    ok(unsafe { cuMemsetD8_v2(fx.out, 0xcd, 4096) }, "memset");
    fx.launch("fetch1d", 4, 1, &[]);
    assert_eq!(fx.results::<u32>(16), [0; 16]);
    let (mut one, mut half) = (1.0f32, 0.5f32);
    fx.launch("sample2d", 2, 2, &[f32_param(&mut one), f32_param(&mut one), f32_param(&mut half)]);
    assert_eq!(fx.results::<u32>(16), [0; 16]);
    fx.launch("surf", 2, 2, &[]);
    assert_eq!(fx.results::<u32>(4), [0; 4], "suld.trap of an unbound surface reads 0 and does not fault");
    fx.launch("query", 1, 1, &[]);
    assert_eq!(fx.results::<u32>(5), [0; 5]);
}

#[test]
fn linear_memory_by_index_with_the_byte_offset() {
    let _ctx = Ctx::new();
    let fx = Fixture::new();
    let texels: Vec<f32> = (0..64).map(|i| i as f32 * 1.5 + 0.25).collect();
    let buf = device_buffer(&texels);
    ok(unsafe { cuTexRefSetFormat(fx.t1, 0x20, 1) }, "float x 1");
    let mut offset = 77usize;
    ok(unsafe { cuTexRefSetAddress_v2(&mut offset, fx.t1, buf + 8, 200) }, "set address");
    assert_eq!(offset, 8, "the offset from the 512-byte aligned address bound");
    let mut bound = 0;
    ok(unsafe { cuTexRefGetAddress_v2(&mut bound, fx.t1) }, "get address");
    assert_eq!(bound, buf);
    fx.launch("fetch1d", 8, 1, &[]);
    assert_eq!(fx.x_channel(8), texels[..8], "index i reads the aligned address's texel i");
    // The texels from the aligned address to `dptr + bytes` are readable, no further (an
    // H200 reads 10 of 32 bytes bound at +8, then zeros).
    ok(unsafe { cuTexRefSetAddress_v2(&mut offset, fx.t1, buf + 8, 32) }, "32 bytes");
    fx.launch("fetch1d", 12, 1, &[]);
    let mut want = texels[..10].to_vec();
    want.extend([0.0, 0.0]);
    assert_eq!(fx.x_channel(12), want);
    ok(unsafe { cuTexRefSetAddress_v2(&mut offset, fx.t1, buf + 8, 200) }, "200 bytes");
    // Filtering and normalized coordinates do not apply to linear memory.
    ok(unsafe { cuTexRefSetFlags(fx.t1, 2) }, "normalized");
    ok(unsafe { cuTexRefSetFilterMode(fx.t1, 1) }, "linear");
    fx.launch("fetch1d", 8, 1, &[]);
    assert_eq!(fx.x_channel(8), texels[..8]);

    // Two 8-bit channels: normalized floats, then the integers themselves.
    let bytes: Vec<u8> = (0..64).map(|i| (i * 9) as u8).collect();
    let buf8 = device_buffer(&bytes);
    ok(unsafe { cuTexRefSetFlags(fx.t1, 0) }, "flags 0");
    ok(unsafe { cuTexRefSetFormat(fx.t1, 0x01, 2) }, "u8 x 2");
    ok(unsafe { cuTexRefSetAddress_v2(null_mut(), fx.t1, buf8, 64) }, "aligned: no offset needed");
    fx.launch("fetch1d", 6, 1, &[]);
    let got = fx.results::<[f32; 4]>(6);
    for (i, v) in got.iter().enumerate() {
        let want = [bytes[2 * i] as f32 / 255.0, bytes[2 * i + 1] as f32 / 255.0, 0.0, 0.0];
        assert_eq!(*v, want, "texel {i}");
    }
    ok(unsafe { cuTexRefSetFlags(fx.t1, 1) }, "read as integer");
    fx.launch("fetch1du", 6, 1, &[]);
    let got = fx.results::<[u32; 4]>(6);
    for (i, v) in got.iter().enumerate() {
        assert_eq!(*v, [bytes[2 * i] as u32, bytes[2 * i + 1] as u32, 0, 0], "texel {i}");
    }
    ok(unsafe { cuMemFree_v2(buf) }, "free");
    ok(unsafe { cuMemFree_v2(buf8) }, "free");
}

#[test]
fn pitched_memory_linear_and_point_filtering() {
    let _ctx = Ctx::new();
    let fx = Fixture::new();
    // 4 x 3 floats in rows of 16 (pitch 64 bytes).
    let value = |x: usize, y: usize| (y * 10 + x) as f32;
    let rows: Vec<f32> = (0..48).map(|i| value(i % 16, i / 16)).collect();
    let buf = device_buffer(&rows);
    let d = ArrayDescriptor { width: 4, height: 3, format: 0x20, num_channels: 1 };
    ok(unsafe { cuTexRefSetAddress2D_v3(fx.t2, &d, buf, 64) }, "set address 2D");
    ok(unsafe { cuTexRefSetFilterMode(fx.t2, 1) }, "linear");
    let (mut one, mut quarter) = (1.0f32, 0.25f32);
    fx.launch("sample2d", 5, 4, &[f32_param(&mut one), f32_param(&mut one), f32_param(&mut quarter)]);
    let want: Vec<f32> = (0..20).map(|i| bilinear(&value, 4, 3, (i % 5) as f32 + 0.25, (i / 5) as f32 + 0.25)).collect();
    assert_eq!(fx.x_channel(20), want);
    assert_eq!(&want[..6], [0.0, 0.75, 1.75, 2.75, 3.0, 7.5], "what an H200 returned");

    // Normalized coordinates, wrapping in x, clamping in y, point sampled at texel centres
    // and past the right edge.
    ok(unsafe { cuTexRefSetFlags(fx.t2, 2) }, "normalized");
    ok(unsafe { cuTexRefSetAddressMode(fx.t2, 0, 0) }, "wrap x");
    ok(unsafe { cuTexRefSetFilterMode(fx.t2, 0) }, "point");
    let (mut sx, mut sy, mut half) = (0.25f32, 1.0f32 / 3.0, 0.5f32);
    fx.launch("sample2d", 6, 3, &[f32_param(&mut sx), f32_param(&mut sy), f32_param(&mut half)]);
    let want: Vec<f32> = (0..18).map(|i| value(i % 6 % 4, i / 6)).collect();
    assert_eq!(fx.x_channel(18), want);

    // Misuse of cuTexRefSetAddress2D (NVIDIA's codes).
    assert_eq!(unsafe { cuTexRefSetAddress2D_v3(fx.t2, &d, buf + 256, 64) }, INVALID_VALUE, "dptr off 512");
    assert_eq!(unsafe { cuTexRefSetAddress2D_v3(fx.t2, &d, buf, 65) }, INVALID_VALUE, "pitch off 32");
    let wide = ArrayDescriptor { width: 16, ..d };
    assert_eq!(unsafe { cuTexRefSetAddress2D_v3(fx.t2, &wide, buf, 32) }, INVALID_VALUE, "pitch below a row");
    assert_eq!(unsafe { cuTexRefSetAddress2D_v3(fx.t2, null(), buf, 64) }, INVALID_VALUE);
    let three = ArrayDescriptor { num_channels: 3, ..d };
    assert_eq!(unsafe { cuTexRefSetAddress2D_v3(fx.t2, &three, buf, 64) }, INVALID_VALUE);
    let u16x2 = ArrayDescriptor { format: 0x02, num_channels: 2, ..d };
    ok(unsafe { cuTexRefSetAddress2D_v2(fx.t2, &u16x2, buf, 64) }, "the _v2 ABI");
    let (mut format, mut channels) = (0u32, 0i32);
    ok(unsafe { cuTexRefGetFormat(&mut format, &mut channels, fx.t2) }, "format");
    assert_eq!((format, channels), (0x02, 2), "the descriptor's format");
    ok(unsafe { cuMemFree_v2(buf) }, "free");
}

#[test]
fn arrays_filtered_as_floats_and_as_integers_and_unbound_when_destroyed() {
    let _ctx = Ctx::new();
    let fx = Fixture::new();
    let texels = [0u16, 1000, 30000, 65535, 12345];
    let d = ArrayDescriptor { width: 5, height: 0, format: 0x02, num_channels: 1 };
    let mut array = null_mut();
    ok(unsafe { cuArrayCreate_v2(&mut array, &d) }, "array");
    ok(unsafe { cuMemcpyHtoA_v2(array, 0, texels.as_ptr().cast(), 10) }, "upload");
    ok(unsafe { cuTexRefSetArray(fx.t2, array, 1) }, "set array");
    ok(unsafe { cuTexRefSetFilterMode(fx.t2, 1) }, "linear");
    // x = i: halfway between texels i - 1 and i (clamped at the ends).
    let blend = |i: usize| (texels[i.saturating_sub(1).min(4)] as f64 + texels[i.min(4)] as f64) / 2.0;
    let (mut one, mut zero) = (1.0f32, 0.0f32);
    fx.launch("sample1d", 7, 1, &[f32_param(&mut one), f32_param(&mut zero)]);
    let want: Vec<f32> = (0..7).map(|i| (blend(i) + 0.5).floor() as f32 / 65535.0).collect();
    assert_eq!(fx.x_channel(7), want);
    // Read as integers, the blend rounds half up (47768 between 30000 and 65535, as an
    // H200 returns).
    ok(unsafe { cuTexRefSetFlags(fx.t2, 1) }, "read as integer");
    fx.launch("sample1d", 7, 1, &[f32_param(&mut one), f32_param(&mut zero)]);
    let got: Vec<u32> = fx.results::<[u32; 4]>(7).iter().map(|v| v[0]).collect();
    let want: Vec<u32> = (0..7).map(|i| (blend(i) + 0.5).floor() as u32).collect();
    assert_eq!(got, want);
    assert_eq!(want[3], 47768);

    let mut bound = null_mut();
    ok(unsafe { cuTexRefGetArray(&mut bound, fx.t2) }, "get array");
    assert_eq!(bound, array);
    let mut address = 0;
    assert_eq!(unsafe { cuTexRefGetAddress_v2(&mut address, fx.t2) }, INVALID_VALUE, "no memory is bound");
    ok(unsafe { cuArrayDestroy(array) }, "destroy");
    assert_eq!(unsafe { cuTexRefGetArray(&mut bound, fx.t2) }, INVALID_VALUE, "destroying the array unbinds it");
    fx.launch("sample1d", 7, 1, &[f32_param(&mut one), f32_param(&mut zero)]);
    assert_eq!(fx.results::<u32>(28), [0; 28]);
}

#[test]
fn surface_reference_reads_and_writes_an_array() {
    let _ctx = Ctx::new();
    let fx = Fixture::new();
    let values: Vec<u32> = (0..12).map(|i| i * 7).collect();
    let ldst = Array3dDescriptor { width: 4, height: 3, depth: 0, format: 0x03, num_channels: 1, flags: 0x02 };
    let mut array = null_mut();
    ok(unsafe { cuArray3DCreate_v2(&mut array, &ldst) }, "array");
    let rows = |host: *mut c_void, to_array: bool| {
        let mut c: CUDA_MEMCPY2D = unsafe { std::mem::zeroed() };
        (c.width_in_bytes, c.height, c.src_pitch, c.dst_pitch) = (16, 3, 16, 16);
        if to_array {
            (c.src_memory_type, c.src_host, c.dst_memory_type, c.dst_array) = (1, host, 3, array);
        } else {
            (c.src_memory_type, c.src_array, c.dst_memory_type, c.dst_host) = (3, array, 1, host);
        }
        ok(unsafe { cuMemcpy2D_v2(&c) }, "2-D copy");
    };
    rows(values.as_ptr().cast_mut().cast(), true);
    let plain = Array3dDescriptor { flags: 0, ..ldst };
    let mut other = null_mut();
    ok(unsafe { cuArray3DCreate_v2(&mut other, &plain) }, "array without SURFACE_LDST");
    assert_eq!(unsafe { cuSurfRefSetArray(fx.s1, other, 0) }, INVALID_VALUE, "needs CUDA_ARRAY3D_SURFACE_LDST");
    assert_eq!(unsafe { cuSurfRefSetArray(fx.s1, array, 1) }, INVALID_VALUE, "flags must be 0");
    assert_eq!(unsafe { cuSurfRefSetArray(fx.s1, null_mut(), 0) }, INVALID_HANDLE);
    assert_eq!(unsafe { cuSurfRefSetArray(null_mut(), array, 0) }, INVALID_HANDLE);
    let mut bound = null_mut();
    assert_eq!(unsafe { cuSurfRefGetArray(&mut bound, fx.s1) }, INVALID_VALUE, "nothing bound yet");
    ok(unsafe { cuSurfRefSetArray(fx.s1, array, 0) }, "bind");
    ok(unsafe { cuSurfRefGetArray(&mut bound, fx.s1) }, "get");
    assert_eq!(bound, array);
    fx.launch("surf", 4, 3, &[]);
    assert_eq!(fx.results::<u32>(12), values);
    let mut back = [0u32; 12];
    rows(back.as_mut_ptr().cast(), false);
    assert_eq!(back.to_vec(), values.iter().map(|v| v + 1000).collect::<Vec<_>>());

    // The sizes queries answer: texels of linear memory, of pitched memory, and the
    // surface's (an H200 answers the same five numbers).
    let buf = device_buffer(&[0f32; 64]);
    ok(unsafe { cuTexRefSetAddress_v2(null_mut(), fx.t1, buf, 40) }, "10 floats");
    let d = ArrayDescriptor { width: 6, height: 5, format: 0x20, num_channels: 1 };
    ok(unsafe { cuTexRefSetAddress2D_v3(fx.t2, &d, buf, 32) }, "6 x 5 floats");
    fx.launch("query", 1, 1, &[]);
    assert_eq!(fx.results::<u32>(5), [10, 6, 5, 4, 3]);
    ok(unsafe { cuArrayDestroy(array) }, "destroy");
    ok(unsafe { cuArrayDestroy(other) }, "destroy");
    ok(unsafe { cuMemFree_v2(buf) }, "free");
}

#[test]
fn lookups_defaults_and_misuse_answer_nvidias_codes() {
    let _ctx = Ctx::new();
    let fx = Fixture::new();
    let mut t = null_mut();
    ok(unsafe { cuModuleGetTexRef(&mut t, fx.module, c"t1".as_ptr()) }, "again");
    assert_eq!(t, fx.t1, "the same handle for the same name");
    for name in [c"nope", c"plain", c"s1", c"fetch1d"] {
        assert_eq!(unsafe { cuModuleGetTexRef(&mut t, fx.module, name.as_ptr()) }, NOT_FOUND, "{name:?}");
    }
    assert_eq!(unsafe { cuModuleGetSurfRef(&mut t, fx.module, c"t1".as_ptr()) }, NOT_FOUND);
    assert_eq!(unsafe { cuModuleGetTexRef(null_mut(), fx.module, c"t1".as_ptr()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuModuleGetTexRef(&mut t, fx.module, null()) }, INVALID_VALUE);
    assert_eq!(unsafe { cuModuleGetTexRef(&mut t, null_mut(), c"t1".as_ptr()) }, INVALID_HANDLE);
    assert_eq!(unsafe { cuModuleGetSurfRef(null_mut(), fx.module, c"s1".as_ptr()) }, INVALID_VALUE);
    let (mut address, mut size) = (0, 0);
    assert_eq!(unsafe { cuModuleGetGlobal_v2(&mut address, &mut size, fx.module, c"t1".as_ptr()) }, INVALID_VALUE);
    ok(unsafe { cuModuleGetGlobal_v2(&mut address, &mut size, fx.module, c"plain".as_ptr()) }, "a variable");

    // A new reference.
    let (mut format, mut channels, mut mode, mut flags) = (0u32, 0i32, 0u32, 9u32);
    ok(unsafe { cuTexRefGetFormat(&mut format, &mut channels, fx.t1) }, "format");
    assert_eq!((format, channels), (0x20, 1));
    ok(unsafe { cuTexRefGetFormat(null_mut(), null_mut(), fx.t1) }, "NULL outputs are ignored");
    for dim in 0..3 {
        ok(unsafe { cuTexRefGetAddressMode(&mut mode, fx.t1, dim) }, "address mode");
        assert_eq!(mode, 1, "clamp");
    }
    assert_eq!(unsafe { cuTexRefGetAddressMode(&mut mode, fx.t1, 3) }, INVALID_VALUE);
    assert_eq!(unsafe { cuTexRefGetAddressMode(&mut mode, fx.t1, -1) }, INVALID_VALUE);
    ok(unsafe { cuTexRefGetFlags(&mut flags, fx.t1) }, "flags");
    assert_eq!(flags, 0);
    let mut address = 0;
    assert_eq!(unsafe { cuTexRefGetAddress_v2(&mut address, fx.t1) }, INVALID_VALUE, "unbound");
    let mut array = null_mut();
    assert_eq!(unsafe { cuTexRefGetArray(&mut array, fx.t1) }, INVALID_VALUE, "unbound");
    assert_eq!(unsafe { cuTexRefGetMipmappedArray(&mut array, fx.t1) }, INVALID_VALUE, "unbound");
    assert_eq!(unsafe { cuTexRefGetFlags(null_mut(), fx.t1) }, INVALID_VALUE);
    assert_eq!(unsafe { cuTexRefGetBorderColor(null_mut(), fx.t1) }, INVALID_VALUE);
    assert_eq!(unsafe { cuTexRefGetFlags(&mut flags, null_mut()) }, INVALID_HANDLE);
    assert_eq!(unsafe { cuTexRefSetFormat(null_mut(), 0x20, 1) }, INVALID_HANDLE);

    // Setters: what NVIDIA's driver accepts, refuses, and reads back.
    assert_eq!(unsafe { cuTexRefSetFormat(fx.t1, 0x20, 3) }, INVALID_VALUE);
    assert_eq!(unsafe { cuTexRefSetFormat(fx.t1, 0x20, 8) }, INVALID_VALUE);
    ok(unsafe { cuTexRefSetFormat(fx.t1, 0x77, 1) }, "any format");
    ok(unsafe { cuTexRefSetFormat(fx.t1, 0x20, 0) }, "0 channels");
    assert_eq!(unsafe { cuTexRefSetAddressMode(fx.t1, 3, 0) }, INVALID_VALUE);
    ok(unsafe { cuTexRefSetAddressMode(fx.t1, 2, 2) }, "mirror");
    ok(unsafe { cuTexRefSetAddressMode(fx.t1, 0, 7) }, "an unknown mode");
    ok(unsafe { cuTexRefGetAddressMode(&mut mode, fx.t1, 0) }, "mode");
    assert_eq!(mode, 1, "reads back as clamp");
    ok(unsafe { cuTexRefGetAddressMode(&mut mode, fx.t1, 2) }, "mode");
    assert_eq!(mode, 2);
    ok(unsafe { cuTexRefSetFilterMode(fx.t1, 2) }, "any filter mode");
    ok(unsafe { cuTexRefGetFilterMode(&mut mode, fx.t1) }, "filter mode");
    assert_eq!(mode, 2, "read back as given");
    assert_eq!(unsafe { cuTexRefSetMipmapFilterMode(fx.t1, 2) }, INVALID_VALUE);
    ok(unsafe { cuTexRefSetMipmapFilterMode(fx.t1, 1) }, "linear");
    ok(unsafe { cuTexRefSetMipmapLevelBias(fx.t1, 1.5) }, "bias");
    ok(unsafe { cuTexRefSetMipmapLevelClamp(fx.t1, -1.0, 3.0) }, "clamp");
    ok(unsafe { cuTexRefSetMaxAnisotropy(fx.t1, 1000) }, "anisotropy");
    ok(unsafe { cuTexRefSetBorderColor(fx.t1, &[1.0, 2.0, 3.0, 4.0]) }, "border");
    assert_eq!(unsafe { cuTexRefSetBorderColor(fx.t1, null()) }, INVALID_VALUE);
    for bad in [0xff, 0x8000_0000, 0x60] {
        assert_eq!(unsafe { cuTexRefSetFlags(fx.t1, bad) }, INVALID_VALUE, "flags {bad:#x}");
    }
    ok(unsafe { cuTexRefSetFlags(fx.t1, 0x13) }, "with CU_TRSF_SRGB");
    let (mut bias, mut lo, mut hi, mut aniso, mut border) = (0f32, 0f32, 0f32, 0i32, [0f32; 4]);
    ok(unsafe { cuTexRefGetFlags(&mut flags, fx.t1) }, "flags");
    ok(unsafe { cuTexRefGetMipmapFilterMode(&mut mode, fx.t1) }, "mipmap filter");
    ok(unsafe { cuTexRefGetMipmapLevelBias(&mut bias, fx.t1) }, "bias");
    ok(unsafe { cuTexRefGetMipmapLevelClamp(&mut lo, &mut hi, fx.t1) }, "clamp");
    ok(unsafe { cuTexRefGetMaxAnisotropy(&mut aniso, fx.t1) }, "anisotropy");
    ok(unsafe { cuTexRefGetBorderColor(&mut border, fx.t1) }, "border");
    assert_eq!((flags, mode, bias, lo, hi, aniso, border), (0x13, 1, 1.5, -1.0, 3.0, 1000, [1.0, 2.0, 3.0, 4.0]));

    // cuTexRefSetAddress: the offset from the aligned address, and no offset pointer.
    let mut buf = 0;
    ok(unsafe { cuMemAlloc_v2(&mut buf, 1 << 20) }, "alloc");
    ok(unsafe { cuTexRefSetFormat(fx.t1, 0x20, 1) }, "float");
    let mut offset = 0usize;
    ok(unsafe { cuTexRefSetAddress_v2(&mut offset, fx.t1, buf + 513, 4096) }, "unaligned");
    assert_eq!(offset, 1);
    ok(unsafe { cuTexRefGetAddress_v2(&mut address, fx.t1) }, "address");
    assert_eq!(address, buf + 512);
    assert_eq!(unsafe { cuTexRefSetAddress_v2(null_mut(), fx.t1, buf + 4, 4096) }, INVALID_VALUE, "an offset and nowhere to put it");
    ok(unsafe { cuTexRefSetAddress_v2(null_mut(), fx.t1, buf, 4096) }, "aligned");
    ok(unsafe { cuTexRefSetAddress_v2(&mut offset, fx.t1, buf, 0) }, "0 bytes");
    assert_eq!(unsafe { cuTexRefSetAddress_v2(&mut offset, fx.t1, buf, 1 << 40) }, INVALID_VALUE, "past the 1-D linear limit");
    ok(unsafe { cuTexRefSetAddress_v2(&mut offset, fx.t1, 0x1000, 4096) }, "not device memory: bound, kernels read zeros");
    fx.launch("fetch1d", 4, 1, &[]);
    assert_eq!(fx.results::<u32>(16), [0; 16]);
    assert_eq!(unsafe { cuTexRefSetAddress_v2(&mut offset, null_mut(), buf, 4096) }, INVALID_HANDLE);

    // Arrays: the flags, a NULL array, mipmapped arrays (not supported here).
    let d = ArrayDescriptor { width: 8, height: 4, format: 0x09, num_channels: 2 };
    let mut a = null_mut();
    ok(unsafe { cuArrayCreate_v2(&mut a, &d) }, "array");
    ok(unsafe { cuTexRefSetArray(fx.t2, a, 0) }, "flags 0");
    assert_eq!(unsafe { cuTexRefSetArray(fx.t2, a, 2) }, INVALID_VALUE);
    assert_eq!(unsafe { cuTexRefSetArray(fx.t2, null_mut(), 1) }, INVALID_HANDLE);
    ok(unsafe { cuTexRefGetFormat(&mut format, &mut channels, fx.t2) }, "format");
    assert_eq!((format, channels), (0x09, 2), "the array's");
    let m3 = Array3dDescriptor { width: 8, height: 8, depth: 0, format: 0x20, num_channels: 1, flags: 0 };
    let mut mipmap = null_mut();
    ok(unsafe { cuMipmappedArrayCreate(&mut mipmap, &m3, 3) }, "mipmapped array");
    assert_eq!(unsafe { cuTexRefSetMipmappedArray(fx.t2, mipmap, 1) }, NOT_SUPPORTED, "as texture objects over one");
    ok(unsafe { cuMipmappedArrayDestroy(mipmap) }, "destroy");
    ok(unsafe { cuArrayDestroy(a) }, "destroy");

    // References of no module.
    let mut created = null_mut();
    ok(unsafe { cuTexRefCreate(&mut created) }, "create");
    assert_eq!(unsafe { cuTexRefCreate(null_mut()) }, INVALID_VALUE);
    ok(unsafe { cuTexRefGetFormat(&mut format, &mut channels, created) }, "format");
    assert_eq!((format, channels), (0x20, 1));
    ok(unsafe { cuTexRefSetAddress_v2(&mut offset, created, buf, 4096) }, "bind");
    ok(unsafe { cuTexRefDestroy(created) }, "destroy");
    assert_eq!(unsafe { cuTexRefDestroy(null_mut()) }, INVALID_HANDLE);
    assert_eq!(unsafe { cuTexRefGetFormat(&mut format, &mut channels, created) }, INVALID_HANDLE, "destroyed");
    ok(unsafe { cuMemFree_v2(buf) }, "free");
}

#[test]
fn references_die_with_their_module() {
    let _ctx = Ctx::new();
    let fx = Fixture::new();
    let t1 = fx.t1;
    drop(fx);
    let mut flags = 0;
    assert_eq!(unsafe { cuTexRefGetFlags(&mut flags, t1) }, INVALID_HANDLE);
}
