"""The kernel suite of the GPU cross-check: CUDA C++ kernels compiled by our NVRTC and by
NVIDIA's, run on an NVIDIA GPU from the PTX of each, results compared and times measured.

Each kernel: source, kernel name (or a name expression), the arrays it takes (with how
to fill them), scalars, launch shape, which arrays are outputs and how to compare them.
Used by gpu_compile.py (here) and gpu_run.py (on the GPU machine).
"""

N = 1 << 22  # elements of the large 1-D kernels

KERNELS = []


def kernel(name, src, args, grid, block, outputs, tol=0.0, shared=0, expr=None, opts=()):
    KERNELS.append(dict(name=name, src=src, args=args, grid=grid, block=block, outputs=outputs, tol=tol,
                        shared=shared, expr=expr, opts=list(opts)))


# args: ("f32"|"f64"|"i32"|"u32"|"f16"|"u16", count, fill) for arrays, ("s_f32"|"s_i32"|..., value) for scalars.
# fills: "rand" uniform [0,1), "randn", "ramp", "zero", "small" (ints 0..255), "pos" (0.1..10)

kernel("saxpy", r'''
extern "C" __global__ void saxpy(float a, const float* x, float* y, int n) {
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) y[i] = a * x[i] + y[i];
}''', [("s_f32", 2.5), ("f32", N, "rand"), ("f32", N, "rand"), ("s_i32", N)], (1024,), (256,), [2], 1e-6)

kernel("daxpy", r'''
extern "C" __global__ void daxpy(double a, const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = a * x[i] + y[i];
}''', [("s_f64", 1.5), ("f64", N, "rand"), ("f64", N, "rand"), ("s_i32", N)], (N // 256,), (256,), [2], 1e-14)

kernel("vadd_int", r'''
extern "C" __global__ void vadd_int(const int* a, const int* b, int* c, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) c[i] = a[i] * 3 + (b[i] >> 1) - (a[i] ^ b[i]);
}''', [("i32", N, "small"), ("i32", N, "small"), ("i32", N, "zero"), ("s_i32", N)], (N // 256,), (256,), [2])

kernel("reduce_shared", r'''
extern "C" __global__ void reduce_shared(const float* in, float* out, int n) {
  __shared__ float s[256];
  int t = threadIdx.x;
  float acc = 0.0f;
  for (int i = blockIdx.x * blockDim.x + t; i < n; i += blockDim.x * gridDim.x) acc += in[i];
  s[t] = acc;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) { if (t < k) s[t] += s[t + k]; __syncthreads(); }
  if (t == 0) out[blockIdx.x] = s[0];
}''', [("f32", N, "rand"), ("f32", 512, "zero"), ("s_i32", N)], (512,), (256,), [1], 1e-5)

kernel("reduce_warp", r'''
extern "C" __global__ void reduce_warp(const float* in, float* out, int n) {
  float v = 0.0f;
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) v += in[i];
  for (int o = warpSize / 2; o > 0; o >>= 1) v += __shfl_down_sync(0xffffffff, v, o);
  __shared__ float w[32];
  if ((threadIdx.x & 31) == 0) w[threadIdx.x / 32] = v;
  __syncthreads();
  if (threadIdx.x < 32) {
    v = threadIdx.x < blockDim.x / 32 ? w[threadIdx.x] : 0.0f;
    for (int o = 16; o > 0; o >>= 1) v += __shfl_xor_sync(0xffffffff, v, o);
    if (threadIdx.x == 0) out[blockIdx.x] = v;
  }
}''', [("f32", N, "rand"), ("f32", 512, "zero"), ("s_i32", N)], (512,), (256,), [1], 1e-5)

kernel("transpose", r'''
#define TILE 32
extern "C" __global__ void transpose(const float* in, float* out, int w, int h) {
  __shared__ float tile[TILE][TILE + 1];
  int x = blockIdx.x * TILE + threadIdx.x, y = blockIdx.y * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) if (x < w && y + j < h) tile[threadIdx.y + j][threadIdx.x] = in[(y + j) * w + x];
  __syncthreads();
  x = blockIdx.y * TILE + threadIdx.x; y = blockIdx.x * TILE + threadIdx.y;
  for (int j = 0; j < TILE; j += 8) if (x < h && y + j < w) out[(y + j) * h + x] = tile[threadIdx.x][threadIdx.y + j];
}''', [("f32", 2048 * 2048, "rand"), ("f32", 2048 * 2048, "zero"), ("s_i32", 2048), ("s_i32", 2048)], (64, 64), (32, 8), [1])

kernel("sgemm_tiled", r'''
#define T 16
extern "C" __global__ void sgemm_tiled(const float* A, const float* B, float* C, int n) {
  __shared__ float As[T][T], Bs[T][T];
  int row = blockIdx.y * T + threadIdx.y, col = blockIdx.x * T + threadIdx.x;
  float acc = 0.0f;
  for (int k0 = 0; k0 < n; k0 += T) {
    As[threadIdx.y][threadIdx.x] = A[row * n + k0 + threadIdx.x];
    Bs[threadIdx.y][threadIdx.x] = B[(k0 + threadIdx.y) * n + col];
    __syncthreads();
    #pragma unroll
    for (int k = 0; k < T; ++k) acc += As[threadIdx.y][k] * Bs[k][threadIdx.x];
    __syncthreads();
  }
  C[row * n + col] = acc;
}''', [("f32", 1024 * 1024, "rand"), ("f32", 1024 * 1024, "rand"), ("f32", 1024 * 1024, "zero"), ("s_i32", 1024)], (64, 64), (16, 16), [2], 1e-5)

kernel("stencil5", r'''
extern "C" __global__ void stencil5(const float* in, float* out, int w, int h) {
  int x = blockIdx.x * blockDim.x + threadIdx.x, y = blockIdx.y * blockDim.y + threadIdx.y;
  if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
  int i = y * w + x;
  out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}''', [("f32", 4096 * 1024, "rand"), ("f32", 4096 * 1024, "zero"), ("s_i32", 4096), ("s_i32", 1024)], (128, 64), (32, 16), [1], 1e-6)

kernel("histogram", r'''
extern "C" __global__ void histogram(const unsigned char* in, unsigned int* bins, int n) {
  __shared__ unsigned int local[256];
  local[threadIdx.x] = 0;
  __syncthreads();
  for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += blockDim.x * gridDim.x) atomicAdd(&local[in[i]], 1u);
  __syncthreads();
  atomicAdd(&bins[threadIdx.x], local[threadIdx.x]);
}''', [("u8", N, "small"), ("u32", 256, "zero"), ("s_i32", N)], (256,), (256,), [1])

kernel("block_scan", r'''
extern "C" __global__ void block_scan(const int* in, int* out) {
  __shared__ int s[2][512];
  int t = threadIdx.x, base = blockIdx.x * 512;
  int cur = 0;
  s[0][t] = in[base + t];
  __syncthreads();
  for (int o = 1; o < 512; o <<= 1) {
    s[1 - cur][t] = s[cur][t] + (t >= o ? s[cur][t - o] : 0);
    cur = 1 - cur;
    __syncthreads();
  }
  out[base + t] = s[cur][t];
}''', [("i32", N, "small"), ("i32", N, "zero")], (N // 512,), (512,), [1])

kernel("math_f32", r'''
extern "C" __global__ void math_f32(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float v = x[i] * 4.0f; y[i] = expf(-v) + logf(1.0f + v) + sinf(v) * cosf(v) + tanhf(v - 2.0f) + sqrtf(v); }
}''', [("f32", N, "rand"), ("f32", N, "zero"), ("s_i32", N)], (N // 256,), (256,), [1], 2e-6)

kernel("math_f64", r'''
extern "C" __global__ void math_f64(const double* x, double* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { double v = x[i] * 4.0; y[i] = exp(-v) + log(1.0 + v) + sin(v) + pow(v, 1.5) + erf(v - 2.0); }
}''', [("f64", N // 4, "rand"), ("f64", N // 4, "zero"), ("s_i32", N // 4)], (N // 1024,), (256,), [1], 1e-14)

kernel("half2_axpy", r'''
#include <cuda_fp16.h>
extern "C" __global__ void half2_axpy(const __half2* x, __half2* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __hfma2(__float2half2_rn(0.5f), x[i], y[i]);
}''', [("f16", N, "rand"), ("f16", N, "rand"), ("s_i32", N // 2)], (N // 512,), (256,), [1], 1e-3)

kernel("bf16_scale", r'''
#include <cuda_bf16.h>
extern "C" __global__ void bf16_scale(const __nv_bfloat16* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = __bfloat162float(x[i] * __float2bfloat16(3.0f)) + 1.0f;
}''', [("u16", N, "bf16"), ("f32", N, "zero"), ("s_i32", N)], (N // 256,), (256,), [1], 1e-6)

kernel("cg_tile_reduce", r'''
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;
extern "C" __global__ void cg_tile_reduce(const int* in, int* out, int n) {
  auto block = cg::this_thread_block();
  auto tile = cg::tiled_partition<32>(block);
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  int v = i < n ? in[i] : 0;
  int s = cg::reduce(tile, v, cg::plus<int>());
  if (tile.thread_rank() == 0) atomicAdd(out, s);
}''', [("i32", N, "small"), ("i32", 1, "zero"), ("s_i32", N)], (N // 256,), (256,), [1])

kernel("template_scale", r'''
template <typename T, int F> __global__ void scale(T* p, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = p[i] * (T)F + (T)1;
}''', [("f32", N, "rand"), ("s_i32", N)], (N // 256,), (256,), [0], 1e-6, expr="scale<float, 3>")

kernel("elementwise_gridstride", r'''
extern "C" __global__ void elementwise_gridstride(const float* a, const float* b, float* c, long long n) {
  for (long long i = blockIdx.x * (long long)blockDim.x + threadIdx.x; i < n; i += (long long)blockDim.x * gridDim.x) {
    float x = a[i], y = b[i];
    c[i] = x > y ? x - y : (y - x) * 0.5f;
  }
}''', [("f32", N, "rand"), ("f32", N, "rand"), ("f32", N, "zero"), ("s_i64", N)], (2048,), (256,), [2])

kernel("softmax_rows", r'''
extern "C" __global__ void softmax_rows(const float* x, float* y, int cols) {
  const float* row = x + blockIdx.x * cols;
  float* out = y + blockIdx.x * cols;
  __shared__ float red[32];
  float m = -1e30f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) m = fmaxf(m, row[c]);
  for (int o = 16; o > 0; o >>= 1) m = fmaxf(m, __shfl_xor_sync(~0u, m, o));
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = m;
  __syncthreads();
  m = red[0];
  for (int k = 1; k < blockDim.x / 32; ++k) m = fmaxf(m, red[k]);
  __syncthreads();
  float s = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) s += expf(row[c] - m);
  for (int o = 16; o > 0; o >>= 1) s += __shfl_xor_sync(~0u, s, o);
  if ((threadIdx.x & 31) == 0) red[threadIdx.x >> 5] = s;
  __syncthreads();
  s = 0.0f;
  for (int k = 0; k < blockDim.x / 32; ++k) s += red[k];
  for (int c = threadIdx.x; c < cols; c += blockDim.x) out[c] = expf(row[c] - m) / s;
}''', [("f32", 4096 * 1024, "randn"), ("f32", 4096 * 1024, "zero"), ("s_i32", 1024)], (4096,), (256,), [1], 1e-5)

kernel("layernorm", r'''
extern "C" __global__ void layernorm(const float* x, float* y, int cols, float eps) {
  const float* row = x + blockIdx.x * cols;
  __shared__ float s1[256], s2[256];
  float a = 0.0f, b = 0.0f;
  for (int c = threadIdx.x; c < cols; c += blockDim.x) { float v = row[c]; a += v; b += v * v; }
  s1[threadIdx.x] = a; s2[threadIdx.x] = b;
  __syncthreads();
  for (int k = blockDim.x / 2; k > 0; k >>= 1) {
    if (threadIdx.x < k) { s1[threadIdx.x] += s1[threadIdx.x + k]; s2[threadIdx.x] += s2[threadIdx.x + k]; }
    __syncthreads();
  }
  float mean = s1[0] / cols, var = s2[0] / cols - mean * mean;
  float inv = rsqrtf(var + eps);
  for (int c = threadIdx.x; c < cols; c += blockDim.x) y[blockIdx.x * cols + c] = (row[c] - mean) * inv;
}''', [("f32", 4096 * 1024, "randn"), ("f32", 4096 * 1024, "zero"), ("s_i32", 1024), ("s_f32", 1e-5)], (4096,), (256,), [1], 2e-4)

kernel("bitonic_block", r'''
extern "C" __global__ void bitonic_block(int* data) {
  __shared__ int s[1024];
  int t = threadIdx.x, base = blockIdx.x * 1024;
  s[t] = data[base + t];
  __syncthreads();
  for (int k = 2; k <= 1024; k <<= 1)
    for (int j = k >> 1; j > 0; j >>= 1) {
      int p = t ^ j;
      if (p > t) {
        bool up = (t & k) == 0;
        int a = s[t], b = s[p];
        if ((a > b) == up) { s[t] = b; s[p] = a; }
      }
      __syncthreads();
    }
  data[base + t] = s[t];
}''', [("i32", N, "small")], (N // 1024,), (1024,), [0])

kernel("bit_ops", r'''
extern "C" __global__ void bit_ops(const unsigned* a, unsigned* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { unsigned v = a[i] * 2654435761u; out[i] = __popc(v) + __clz(v) * 7 + (__brev(v) >> 20) + __ffs(v) + __byte_perm(v, a[i], 0x3210 + (i & 3)); }
}''', [("u32", N, "small"), ("u32", N, "zero"), ("s_i32", N)], (N // 256,), (256,), [1])

kernel("gelu", r'''
extern "C" __global__ void gelu(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float v = x[i]; y[i] = 0.5f * v * (1.0f + erff(v * 0.70710678f)) + 0.001f * tanhf(v); }
}''', [("f32", N, "randn"), ("f32", N, "zero"), ("s_i32", N)], (N // 256,), (256,), [1], 2e-6)

kernel("atomic_max_float", r'''
__device__ void atomicMaxFloat(float* addr, float v) {
  int* a = (int*)addr;
  int old = *a;
  while (__int_as_float(old) < v) {
    int seen = atomicCAS(a, old, __float_as_int(v));
    if (seen == old) break;
    old = seen;
  }
}
extern "C" __global__ void atomic_max_float(const float* x, float* m, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) atomicMaxFloat(m, x[i]);
}''', [("f32", N, "rand"), ("f32", 1, "zero"), ("s_i32", N)], (N // 256,), (256,), [1])

kernel("vote_count", r'''
extern "C" __global__ void vote_count(const float* x, int* count, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  bool p = i < n && x[i] > 0.5f;
  auto b = __ballot_sync(0xffffffff, p);
  if ((threadIdx.x & 31) == 0) atomicAdd(count, __popc(b));
}''', [("f32", N, "rand"), ("i32", 1, "zero"), ("s_i32", N)], (N // 256,), (256,), [1])

kernel("int_divmod", r'''
extern "C" __global__ void int_divmod(const int* a, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { int v = a[i] + 1000; out[i] = v / 7 + v % 13 + (v * 31) / (i % 17 + 1) + (unsigned)v % 10u; }
}''', [("i32", N, "small"), ("i32", N, "zero"), ("s_i32", N)], (N // 256,), (256,), [1])

kernel("fast_math_f32", r'''
extern "C" __global__ void fast_math_f32(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) { float v = x[i] * 3.0f + 0.1f; y[i] = __expf(-v) + __logf(v) + __sinf(v) + __fdividef(1.0f, v) + powf(v, 0.3f); }
}''', [("f32", N, "rand"), ("f32", N, "zero"), ("s_i32", N)], (N // 256,), (256,), [1], 1e-4, opts=["-use_fast_math"])

kernel("seed_rev_cumsum", r'''
__global__ void shuffleRevCumsumKernel(float *dst)
{
float out;
#ifdef __REDSCALE__
const int C = warpSize - 1;  // a constant with our compiler
#else
const int C = 31;            // NVIDIA's warpSize is not a constant expression
#endif
asm(
".reg .f32 Rx;"
".reg .f32 Ry;"
".reg .pred p;"
"mov.b32 Rx, %1;"
"shfl.sync.down.b32 Ry|p, Rx, 0x1, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x2, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x4, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x8, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
"shfl.sync.down.b32 Ry|p, Rx, 0x10, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
#if __SCALE_WARP_SIZE__ > 32
"shfl.sync.down.b32 Ry|p, Rx, 0x20, %2, -1;"
"@p add.f32 Rx, Ry, Rx;"
#endif
"mov.b32 %0, Rx;"
: "=f"(out) : "f"(1.0f), "n"(C)
);
dst[blockIdx.x * blockDim.x + threadIdx.x] = out;
}''', [("f32", 1 << 20, "zero")], ((1 << 20) // 256,), (256,), [0], expr="shuffleRevCumsumKernel")

kernel("seed_butterfly", r'''
__global__ void shuffleBflyKernel(float *dst)
{
#ifdef __REDSCALE__
const int C = warpSize - 1;
#else
const int C = 31;
#endif
float out;
asm(
".reg .f32 Rx;"
".reg .f32 Ry;"
".reg .pred p;"
"mov.b32 Rx, %1;"
"shfl.sync.bfly.b32 Ry, Rx, 0x10, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x8, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x4, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x2, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"shfl.sync.bfly.b32 Ry, Rx, 0x1, %2, -1;"
"add.f32 Rx, Ry, Rx;"
"mov.b32 %0, Rx;"
: "=f"(out) : "f"((float) threadIdx.x), "n"(C)
);
dst[blockIdx.x * blockDim.x + threadIdx.x] = out;
}''', [("f32", 1 << 20, "zero")], ((1 << 20) // 256,), (256,), [0], expr="shuffleBflyKernel")

# Accuracy of float functions on the GPU itself (gpu_run.py measures the error in float
# ulps against numpy's double-precision functions): the hardware approximations some of
# them use are exact on the CPU device, so this is where their error shows.
ULP_FUNCS = [
    ("expf", "expf(x)", "exp", (-87.0, 88.0)),
    ("exp2f", "exp2f(x)", "exp2", (-125.0, 127.0)),
    ("logf", "logf(x)", "log", (1e-30, 1e30)),
    ("log2f", "log2f(x)", "log2", (1e-30, 1e30)),
    ("sinf", "sinf(x)", "sin", (-100.0, 100.0)),
    ("cosf", "cosf(x)", "cos", (-100.0, 100.0)),
    ("tanf", "tanf(x)", "tan", (-1.5, 1.5)),
    ("tanhf", "tanhf(x)", "tanh", (-10.0, 10.0)),
    ("erff", "erff(x)", "erf", (-4.0, 4.0)),
    ("powf", "powf(x, 2.5f)", "pow25", (1e-3, 1e3)),
    ("rsqrtf", "rsqrtf(x)", "rsqrt", (1e-30, 1e30)),
]
for fname, call, ref, dom in ULP_FUNCS:
    kernel("ulp_" + fname, r'''
extern "C" __global__ void ulp_%s(const float* x, float* y, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) y[i] = %s;
}''' % (fname, call.replace("(x", "(x[i]", 1)),
           [("f32", 1 << 20, "dom:%s:%g:%g" % (ref, dom[0], dom[1])), ("f32", 1 << 20, "zero"), ("s_i32", 1 << 20)],
           ((1 << 20) // 256,), (256,), [1], 1e-5)
