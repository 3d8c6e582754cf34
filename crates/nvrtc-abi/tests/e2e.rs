//! NVRTC -> PTX -> cuModuleLoadData in our libcuda -> launch on the CPU device -> results.

mod common;
use common::*;
use std::ffi::c_void;

#[test]
fn saxpy_runs_on_cpu_device() {
    let c = compile_ok(
        r#"extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
             int i = blockIdx.x * blockDim.x + threadIdx.x;
             if (i < n) y[i] = a * x[i] + y[i];
           }"#,
        &["-arch=compute_80"],
    );
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let f = m.func("saxpy");
    let n = 1000usize;
    let x: Vec<f32> = (0..n).map(|i| i as f32).collect();
    let y: Vec<f32> = (0..n).map(|i| 2.0 * i as f32).collect();
    let (bx, by) = (gpu.alloc(&x), gpu.alloc(&y));
    let (mut a, mut px, mut py, mut nn) = (3.0f32, bx.ptr, by.ptr, n as i32);
    gpu.launch(f, (4, 1, 1), (256, 1, 1), 0, &mut [arg(&mut a), arg(&mut px), arg(&mut py), arg(&mut nn)]);
    let out: Vec<f32> = gpu.read(&by);
    for (i, v) in out.iter().enumerate() {
        assert_eq!(*v, 3.0 * i as f32 + 2.0 * i as f32);
    }
}

#[test]
fn shared_memory_reduction_with_atomics() {
    let c = compile_ok(
        r#"extern "C" __global__ void reduce(const int* in, int* out, int n) {
             __shared__ int s[256];
             int t = threadIdx.x;
             int i = blockIdx.x * blockDim.x + t;
             s[t] = i < n ? in[i] : 0;
             __syncthreads();
             for (int k = blockDim.x / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
             if (t == 0) atomicAdd(out, s[0]);
           }"#,
        &["-arch=sm_86"],
    );
    assert!(!c.cubin.is_empty(), "sm_XX gives a CUBIN (PTX text)");
    let gpu = Gpu::new();
    let m = gpu.load(&c.cubin);
    let n = 5000usize;
    let data: Vec<i32> = (0..n as i32).collect();
    let (bin, bout) = (gpu.alloc(&data), gpu.alloc(&[0i32]));
    let (mut pi, mut po, mut nn) = (bin.ptr, bout.ptr, n as i32);
    gpu.launch(m.func("reduce"), (20, 1, 1), (256, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po), arg(&mut nn)]);
    let out: Vec<i32> = gpu.read(&bout);
    assert_eq!(out[0], (0..n as i32).sum::<i32>());
}

#[test]
fn warp_shuffles_and_votes() {
    let c = compile_ok(
        r#"extern "C" __global__ void warp(const float* in, float* sums, unsigned* ballots, int* lanes) {
             float v = in[threadIdx.x];
             for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
             auto b = __ballot_sync(__activemask(), in[threadIdx.x] > 10.0f);
             sums[threadIdx.x] = v;
             if ((threadIdx.x & 31) == 0) ballots[threadIdx.x / 32] = b;
             lanes[threadIdx.x] = __shfl_up_sync(0xffffffff, (int)threadIdx.x, 1) + __popc(__ballot_sync(~0u, 1));
           }"#,
        &[],
    );
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let input: Vec<f32> = (0..64).map(|i| i as f32).collect();
    let (bi, bs, bb, bl) = (gpu.alloc(&input), gpu.alloc(&[0f32; 64]), gpu.alloc(&[0u32; 2]), gpu.alloc(&[0i32; 64]));
    let (mut a, mut b, mut cc, mut d) = (bi.ptr, bs.ptr, bb.ptr, bl.ptr);
    gpu.launch(m.func("warp"), (1, 1, 1), (64, 1, 1), 0, &mut [arg(&mut a), arg(&mut b), arg(&mut cc), arg(&mut d)]);
    let sums: Vec<f32> = gpu.read(&bs);
    assert_eq!(sums[0], (0..32).sum::<i32>() as f32);
    assert_eq!(sums[40], (32..64).sum::<i32>() as f32);
    let ballots: Vec<u32> = gpu.read(&bb);
    assert_eq!(ballots, vec![0xffff_f800, 0xffff_ffff]);
    let lanes: Vec<i32> = gpu.read(&bl);
    assert_eq!(lanes[0], 32);
    assert_eq!(lanes[5], 4 + 32);
}

#[test]
fn templates_through_name_expressions() {
    let src = r#"
        template <typename T, int N> __global__ void scale(T* p) { p[threadIdx.x] *= (T)N; }
        namespace ns { template <class T> __global__ void fill(T* p, T v) { p[threadIdx.x] = v; } }
        __device__ int counter = 5;
    "#;
    let c = nvrtc(src, "tmpl.cu", &[], &["-std=c++17"], &["scale<float, 3>", "&ns::fill<int>", "&counter"]);
    assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{}", c.log);
    assert_eq!(c.lowered[0].1.as_deref(), Some("_Z5scaleIfLi3EEvPT_"));
    assert_eq!(c.lowered[1].1.as_deref(), Some("_ZN2ns4fillIiEEvPT_S1_"));
    assert_eq!(c.lowered[2].1.as_deref(), Some("counter"));
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let buf = gpu.alloc(&[1.0f32, 2.0, 3.0, 4.0]);
    let mut p = buf.ptr;
    gpu.launch(m.func("_Z5scaleIfLi3EEvPT_"), (1, 1, 1), (4, 1, 1), 0, &mut [arg(&mut p)]);
    assert_eq!(gpu.read::<f32>(&buf), vec![3.0, 6.0, 9.0, 12.0]);
    let ibuf = gpu.alloc(&[0i32; 8]);
    let (mut p, mut v) = (ibuf.ptr, 42i32);
    gpu.launch(m.func("_ZN2ns4fillIiEEvPT_S1_"), (1, 1, 1), (8, 1, 1), 0, &mut [arg(&mut p), arg(&mut v)]);
    assert_eq!(gpu.read::<i32>(&ibuf), vec![42; 8]);
    let (g, size) = m.global("counter");
    assert_eq!(size, 4);
    let mut v = 0i32;
    assert_eq!(unsafe { cuda::exports::memcpy::cuMemcpyDtoH_v2((&mut v as *mut i32).cast::<c_void>(), g, 4) }, cuda::types::CUresult::SUCCESS);
    assert_eq!(v, 5);
}

#[test]
fn jitify_style_in_memory_headers() {
    let headers = [
        ("my/ops.h", "#pragma once\n#include \"detail.h\"\ntemplate<class T> __device__ T twice(T x) { return x * FACTOR; }\n"),
        ("my/detail.h", "#define FACTOR 2\n"),
    ];
    // detail.h is named "my/detail.h": a quoted include from my/ops.h finds it relative
    // to the including header's directory.
    let src = r#"#include "my/ops.h"
        extern "C" __global__ void k(int* p) { p[threadIdx.x] = twice(p[threadIdx.x]); }"#;
    let c = nvrtc(src, "jit.cu", &headers, &[], &[]);
    assert_eq!(c.result, nvrtc::NVRTC_SUCCESS, "{}", c.log);
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let buf = gpu.alloc(&[1i32, 2, 3]);
    let mut p = buf.ptr;
    gpu.launch(m.func("k"), (1, 1, 1), (3, 1, 1), 0, &mut [arg(&mut p)]);
    assert_eq!(gpu.read::<i32>(&buf), vec![2, 4, 6]);
}

#[test]
fn cooperative_groups_tiles_and_reductions() {
    // A tile kept as thread_block_tile<16> (the parent-less type every tile converts to,
    // as with NVIDIA's header), a dynamic tile, cg::reduce, and a coalesced group.
    let c = compile_ok(
        r#"#include <cooperative_groups.h>
           #include <cooperative_groups/reduce.h>
           namespace cg = cooperative_groups;
           extern "C" __global__ void tiles(const int* in, int* tile16, int* tile4, int* odd_count, int* ranks) {
             cg::thread_block b = cg::this_thread_block();
             int v = in[b.thread_rank()];
             cg::thread_block_tile<16> t = cg::tiled_partition<16>(b);
             tile16[b.thread_rank()] = cg::reduce(t, v, cg::plus<int>());
             cg::thread_group t4 = cg::tiled_partition(b, 4);
             int s = v;
             for (int o = 1; o < 4; o <<= 1) s += __shfl_xor_sync(0xffffffffu, s, o, 4);
             tile4[b.thread_rank()] = s + 1000 * (int)t4.size();
             b.sync();
             if (v & 1) {
               cg::coalesced_group odd = cg::coalesced_threads();
               odd_count[b.thread_rank()] = (int)odd.size();
               ranks[b.thread_rank()] = (int)odd.thread_rank();
             }
           }"#,
        &["-arch=compute_80"],
    );
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let input: Vec<i32> = (0..64).map(|i| (i * 7 + 3) % 23).collect();
    let (bi, b16, b4, bodd, brank) =
        (gpu.alloc(&input), gpu.alloc(&[0i32; 64]), gpu.alloc(&[0i32; 64]), gpu.alloc(&[-1i32; 64]), gpu.alloc(&[-1i32; 64]));
    let (mut a, mut p16, mut p4, mut po, mut pr) = (bi.ptr, b16.ptr, b4.ptr, bodd.ptr, brank.ptr);
    gpu.launch(m.func("tiles"), (1, 1, 1), (64, 1, 1), 0, &mut [arg(&mut a), arg(&mut p16), arg(&mut p4), arg(&mut po), arg(&mut pr)]);
    let (t16, t4, odd, ranks): (Vec<i32>, Vec<i32>, Vec<i32>, Vec<i32>) = (gpu.read(&b16), gpu.read(&b4), gpu.read(&bodd), gpu.read(&brank));
    for i in 0..64 {
        let tile = |n: usize| input[i / n * n..i / n * n + n].iter().sum::<i32>();
        assert_eq!(t16[i], tile(16), "16-thread tile of thread {i}");
        assert_eq!(t4[i], tile(4) + 4000, "4-thread tile of thread {i}");
        // The odd-valued threads of each 32-lane warp, and this thread's rank among them.
        let warp = &input[i / 32 * 32..i / 32 * 32 + 32];
        if input[i] & 1 == 1 {
            assert_eq!(odd[i], warp.iter().filter(|v| *v & 1 == 1).count() as i32, "thread {i}");
            assert_eq!(ranks[i], warp[..i % 32].iter().filter(|v| *v & 1 == 1).count() as i32, "thread {i}");
        } else {
            assert_eq!((odd[i], ranks[i]), (-1, -1));
        }
    }
}

/// The bits of a small integer (|v| < 2048) as an IEEE binary16 value: exact.
fn f16_bits(v: i32) -> u16 {
    if v == 0 {
        return 0;
    }
    let (sign, a) = (if v < 0 { 0x8000u16 } else { 0 }, v.unsigned_abs());
    assert!(a < 2048);
    let e = 31 - a.leading_zeros(); // the leading bit's position
    sign | ((e + 15) as u16) << 10 | ((a << (10 - e)) & 0x3ff) as u16
}

#[test]
fn wmma_f16_to_f32_through_mma_h() {
    // <mma.h> (CUDA C++ Programming Guide, "Warp Matrix Functions"): one warp per block
    // computes a 16 x 16 tile of D = A * B + C over two k tiles, A row-major and B
    // column-major __half, C loaded row-major and D stored column-major, both float, with
    // leading dimensions wider than the matrices. Entries are small integers, so every
    // product and sum is exact.
    let c = compile_ok(
        r#"#include <mma.h>
           using namespace nvcuda;
           extern "C" __global__ void gemm(const __half* a, int lda, const __half* b, int ldb,
                                           const float* cm, int ldc, float* d, int ldd) {
             int tm = blockIdx.y, tn = blockIdx.x;
             wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
             wmma::load_matrix_sync(acc, cm + tm * 16 * ldc + tn * 16, ldc, wmma::mem_row_major);
             for (int kt = 0; kt < 2; kt++) {
               wmma::fragment<wmma::matrix_a, 16, 16, 16, __half, wmma::row_major> fa;
               wmma::fragment<wmma::matrix_b, 16, 16, 16, __half, wmma::col_major> fb;
               wmma::load_matrix_sync(fa, a + tm * 16 * lda + kt * 16, lda);
               wmma::load_matrix_sync(fb, b + tn * 16 * ldb + kt * 16, ldb);
               wmma::mma_sync(acc, fa, fb, acc);
             }
             static_assert(decltype(acc)::num_elements == 8, "f32 accumulator: 8 elements a lane");
             wmma::store_matrix_sync(d + tn * 16 * ldd + tm * 16, acc, ldd, wmma::mem_col_major);
           }"#,
        &["-arch=compute_80"],
    );
    assert!(c.ptx.contains("wmma.mma.sync.aligned.row.col.m16n16k16.f32.f32"), "{}", c.ptx);
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let (rows, cols, depth) = (32usize, 32usize, 32usize);
    let (lda, ldb, ldc, ldd) = (depth + 8, depth + 16, cols + 4, rows + 8);
    let av = |i: usize, k: usize| (i * 7 + k * 3) as i32 % 9 - 4;
    let bv = |k: usize, j: usize| (k * 5 + j * 11) as i32 % 7 - 3;
    let cv = |i: usize, j: usize| (i + j * 3) as i32 % 5 - 2;
    // A row-major (row i at i * lda), B column-major (column j at j * ldb), C row-major.
    let mut a = vec![0u16; rows * lda];
    let mut b = vec![0u16; cols * ldb];
    let mut cm = vec![0f32; rows * ldc];
    for i in 0..rows {
        for k in 0..depth {
            a[i * lda + k] = f16_bits(av(i, k));
        }
    }
    for j in 0..cols {
        for k in 0..depth {
            b[j * ldb + k] = f16_bits(bv(k, j));
        }
    }
    for i in 0..rows {
        for j in 0..cols {
            cm[i * ldc + j] = cv(i, j) as f32;
        }
    }
    let (ba, bb, bc, bd) = (gpu.alloc(&a), gpu.alloc(&b), gpu.alloc(&cm), gpu.alloc(&vec![-99f32; cols * ldd]));
    let (mut pa, mut pb, mut pc, mut pd) = (ba.ptr, bb.ptr, bc.ptr, bd.ptr);
    let (mut la, mut lb, mut lc, mut ld) = (lda as i32, ldb as i32, ldc as i32, ldd as i32);
    gpu.launch(
        m.func("gemm"),
        (2, 2, 1),
        (32, 1, 1),
        0,
        &mut [arg(&mut pa), arg(&mut la), arg(&mut pb), arg(&mut lb), arg(&mut pc), arg(&mut lc), arg(&mut pd), arg(&mut ld)],
    );
    let d: Vec<f32> = gpu.read(&bd);
    for j in 0..cols {
        for i in 0..ldd {
            let got = d[j * ldd + i];
            if i >= rows {
                assert_eq!(got, -99.0, "padding D column {j} row {i} was written");
                continue;
            }
            let want = cv(i, j) + (0..depth).map(|k| av(i, k) * bv(k, j)).sum::<i32>();
            assert_eq!(got, want as f32, "D[{i}][{j}]");
        }
    }
}

#[test]
fn cuda_h_serves_device_code() {
    // Kernels name driver types (CUdeviceptr in parameter structs, CUtensorMap for TMA);
    // include/cuda.h is a host header that must also compile without system headers here,
    // with the driver's layouts.
    let c = compile_ok(
        r#"#include <cuda.h>
           extern "C" __global__ void facts(CUdeviceptr p, long long* out) {
             out[0] = sizeof(CUdeviceptr);
             out[1] = CUDA_ERROR_INVALID_DEVICE;
             out[2] = sizeof(CUDA_MEMCPY2D);
             out[3] = alignof(CUtensorMap);
             out[4] = CU_DEVICE_ATTRIBUTE_WARP_SIZE;
             out[5] = CUDA_VERSION;
             out[6] = sizeof(CUlaunchAttributeValue);
             out[7] = (long long)(p + 1);
           }"#,
        &["-arch=compute_80"],
    );
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let bo = gpu.alloc(&[0i64; 8]);
    let (mut p, mut po) = (41u64, bo.ptr);
    gpu.launch(m.func("facts"), (1, 1, 1), (1, 1, 1), 0, &mut [arg(&mut p), arg(&mut po)]);
    let out: Vec<i64> = gpu.read(&bo);
    assert_eq!(out, [8, 101, 128, 128, 10, 13000, 64, 42]);
}

/// cuda_fp6.h and cuda_fp4.h serve device code: conversions in the documented rounding modes
/// (and the directed ones we add), saturation, NaN to +largest, and the classes. The full
/// tables are checked by ctests/python/fp6_fp4_nvrtc.py and ctests/fp6_fp4_conversions.cu.
#[test]
fn fp6_fp4_headers_serve_device_code() {
    let c = compile_ok(
        r#"#include <cuda_fp4.h>
           #include <cuda_fp6.h>
           extern "C" __global__ void fpx(const float* in, unsigned* out) {
             out[0] = __nv_cvt_float_to_fp6(in[0], __NV_E3M2, cudaRoundNearest);
             out[1] = __nv_cvt_float_to_fp4(in[0], __NV_E2M1, cudaRoundZero);
             out[2] = __nv_fp4x4_e2m1(make_float4(0.5f, 1.0f, 1.5f, -6.0f)).__x;
             out[3] = __nv_cvt_double_to_fp6(1e300, __NV_E2M3, cudaRoundNearest);
             out[4] = __nv_cvt_float_to_fp6(in[1], __NV_E3M2, cudaRoundNearest);
             out[5] = __half_raw(__half(__nv_fp6_e2m3(-7.4f))).x;
             out[6] = (unsigned)int(__nv_fp6_e3m2(27));
             out[7] = __nv_cvt_float_to_fp4(in[0], __NV_E2M1, cudaRoundPosInf);
           }"#,
        &["-arch=compute_80"],
    );
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let bi = gpu.alloc(&[0.3f32, f32::NAN]);
    let bo = gpu.alloc(&[0u32; 8]);
    let (mut pi, mut po) = (bi.ptr, bo.ptr);
    gpu.launch(m.func("fpx"), (1, 1, 1), (1, 1, 1), 0, &mut [arg(&mut pi), arg(&mut po)]);
    let out: Vec<u32> = gpu.read(&bo);
    // 0.3 -> E3M2 0.3125; E2M1 toward zero 0; (0.5, 1, 1.5, -6) packed by nibbles; 1e300 and
    // NaN saturate to +largest; -7.4 -> -7.5 as __half; 27 -> 28; 0.3 up -> 0.5
    assert_eq!(out, [0x05, 0x0, 0xf321, 0x1f, 0x1f, 0xc780, 28, 0x1]);
}

/// A `static __constant__` array the host fills through cuModuleGetGlobal under its source
/// name (as NVIDIA's binomialOptions_nvrtc sample does): it must neither be dropped nor
/// have its loads folded to the zero initializer. A `static __device__` counter too.
#[test]
fn static_constant_and_device_variables_keep_their_names() {
    let c = compile_ok(
        r#"static __constant__ float table[4];
           static __device__ int hits;
           extern "C" __global__ void k(float* out) {
             out[threadIdx.x] = table[threadIdx.x] * 2.0f;
             atomicAdd(&hits, 1);
           }"#,
        &["-arch=compute_80"],
    );
    let gpu = Gpu::new();
    let m = gpu.load(c.ptx.as_bytes());
    let (table, size) = m.global("table");
    assert_eq!(size, 16);
    let (hits, hits_size) = m.global("hits");
    assert_eq!(hits_size, 4);
    let values = [1.5f32, -2.0, 3.25, 8.0];
    gpu.write_at(table, &values);
    let out = gpu.alloc(&[0f32; 4]);
    let mut p = out.ptr;
    gpu.launch(m.func("k"), (1, 1, 1), (4, 1, 1), 0, &mut [arg(&mut p)]);
    let got: Vec<f32> = gpu.read(&out);
    assert_eq!(got, values.iter().map(|v| v * 2.0).collect::<Vec<_>>());
    assert_eq!(gpu.read::<i32>(&Buf { ptr: hits, bytes: 4 }), vec![4]);
}
