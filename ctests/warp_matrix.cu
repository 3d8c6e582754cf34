// Warp-level matrix multiply-accumulate (CUDA Programming Guide "Warp Matrix Functions";
// PTX ISA 9.7.14): the wmma API for every element type and shape sm_80 has (f16 with f32
// and f16 accumulators, bf16, tf32, f64, s8/u8, and the experimental s4/u4/b1), with every
// A/B layout, C loaded and D stored in both layouts, strides wider than the tile,
// accumulation over several k tiles, element-wise work on accumulator fragments and tiles
// staged in shared memory; then mma.sync, ldmatrix and movmatrix through inline PTX with
// the fragment layouts PTX ISA 9.7.14.5 documents.
//
// Matrix entries are small integers, so every product and sum is exact in each element
// and accumulator type: results must equal the host's integer arithmetic bit for bit.
#include <cuda_bf16.h>
#include <cuda_fp16.h>
#include <mma.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <vector>

#define CTEST_NAME "warp_matrix"
#include "ctest.h"

using namespace nvcuda;

// Small integers with signs (or without, for unsigned element types).
static int entry_a(int i, int k, bool sign) { return sign ? (i * 7 + k * 3) % 9 - 4 : (i * 7 + k * 3) % 9; }
static int entry_b(int k, int j, bool sign) { return sign ? (k * 5 + j * 11) % 7 - 3 : (k * 5 + j * 11) % 7; }
static int entry_c(int i, int j) { return (i + j * 3) % 5 - 2; }

// ---- element conversions, host and device ----
template <class T> struct Elem;
template <> struct Elem<half> {
  __host__ __device__ static half make(int v) { return __int2half_rn(v); }
};
template <> struct Elem<__nv_bfloat16> {
  __host__ __device__ static __nv_bfloat16 make(int v) { return __float2bfloat16((float)v); }
};
template <> struct Elem<float> {
  __host__ __device__ static float make(int v) { return (float)v; }
  __host__ static long value(float v) { return (long)v; }
};
template <> struct Elem<double> {
  __host__ __device__ static double make(int v) { return (double)v; }
  __host__ static long value(double v) { return (long)v; }
};
template <> struct Elem<signed char> {
  static signed char make(int v) { return (signed char)v; }
};
template <> struct Elem<unsigned char> {
  static unsigned char make(int v) { return (unsigned char)v; }
};
template <> struct Elem<int> {
  __host__ __device__ static int make(int v) { return v; }
  __host__ static long value(int v) { return v; }
};
static long value_of(half v) { return (long)__half2float(v); }
template <class T> static long value_of(T v) { return Elem<T>::value(v); }

template <class L> struct IsRow;
template <> struct IsRow<wmma::row_major> { static const bool v = true; };
template <> struct IsRow<wmma::col_major> { static const bool v = false; };

// tf32 fragments hold floats that must be rounded to tf32 after loading.
template <class P> struct RoundInputs {
  template <class F> __device__ static void run(F &) {}
};
template <> struct RoundInputs<wmma::precision::tf32> {
  template <class F> __device__ static void run(F &f) {
    for (int t = 0; t < f.num_elements; t++) f.x[t] = wmma::__float_to_tf32(f.x[t]);
  }
};

// One warp per block computes D tile (blockIdx.y, blockIdx.x) =
// 2 * (sum over k tiles of A * B + C).
template <int M, int N, int K, class TIn, class TFrag, class TAcc, class LA, class LB>
__global__ void wmma_tiles(const TIn *A, int lda, const TIn *B, int ldb, const TAcc *C, int ldc, TAcc *D, int ldd,
                           int k_tiles, bool c_col, bool d_col) {
  int tm = blockIdx.y, tn = blockIdx.x;
  wmma::fragment<wmma::accumulator, M, N, K, TAcc> acc;
  const TAcc *cp = c_col ? C + (size_t)tn * N * ldc + tm * M : C + (size_t)tm * M * ldc + tn * N;
  wmma::load_matrix_sync(acc, cp, ldc, c_col ? wmma::mem_col_major : wmma::mem_row_major);
  for (int kt = 0; kt < k_tiles; kt++) {
    wmma::fragment<wmma::matrix_a, M, N, K, TFrag, LA> a;
    wmma::fragment<wmma::matrix_b, M, N, K, TFrag, LB> b;
    const TIn *ap = IsRow<LA>::v ? A + (size_t)tm * M * lda + kt * K : A + (size_t)kt * K * lda + tm * M;
    const TIn *bp = IsRow<LB>::v ? B + (size_t)kt * K * ldb + tn * N : B + (size_t)tn * N * ldb + kt * K;
    wmma::load_matrix_sync(a, ap, lda);
    wmma::load_matrix_sync(b, bp, ldb);
    RoundInputs<TFrag>::run(a);
    RoundInputs<TFrag>::run(b);
    wmma::mma_sync(acc, a, b, acc);
  }
  for (int t = 0; t < acc.num_elements; t++) acc.x[t] = acc.x[t] + acc.x[t];
  TAcc *dp = d_col ? D + (size_t)tn * N * ldd + tm * M : D + (size_t)tm * M * ldd + tn * N;
  wmma::store_matrix_sync(dp, acc, ldd, d_col ? wmma::mem_col_major : wmma::mem_row_major);
}

// Host side of one wmma case: tiles_m x tiles_n output tiles, k_tiles deep.
template <int M, int N, int K, class TIn, class TFrag, class TAcc, class LA, class LB>
static void wmma_case(const char *name, bool sign, bool c_col, bool d_col) {
  const int tiles_m = 2, tiles_n = 2, k_tiles = 2;
  const int rows = M * tiles_m, cols = N * tiles_n, depth = K * k_tiles;
  const bool a_row = IsRow<LA>::v, b_row = IsRow<LB>::v;
  // Leading dimensions wider than the matrices (multiples of 16 bytes).
  const int pad = 16;
  const int lda = (a_row ? depth : rows) + pad, ldb = (b_row ? cols : depth) + pad;
  const int ldc = (c_col ? rows : cols) + pad / 2, ldd = (d_col ? rows : cols) + pad;
  std::vector<TIn> a((size_t)lda * (a_row ? rows : depth)), b((size_t)ldb * (b_row ? depth : cols));
  std::vector<TAcc> c((size_t)ldc * (c_col ? cols : rows)), d((size_t)ldd * (d_col ? cols : rows), Elem<TAcc>::make(-99));
  for (int i = 0; i < rows; i++)
    for (int k = 0; k < depth; k++) a[a_row ? i * lda + k : k * lda + i] = Elem<TIn>::make(entry_a(i, k, sign));
  for (int k = 0; k < depth; k++)
    for (int j = 0; j < cols; j++) b[b_row ? k * ldb + j : j * ldb + k] = Elem<TIn>::make(entry_b(k, j, sign));
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) c[c_col ? j * ldc + i : i * ldc + j] = Elem<TAcc>::make(entry_c(i, j));
  TIn *da, *db;
  TAcc *dc, *dd;
  CHECK(cudaMalloc(&da, a.size() * sizeof(TIn)));
  CHECK(cudaMalloc(&db, b.size() * sizeof(TIn)));
  CHECK(cudaMalloc(&dc, c.size() * sizeof(TAcc)));
  CHECK(cudaMalloc(&dd, d.size() * sizeof(TAcc)));
  CHECK(cudaMemcpy(da, a.data(), a.size() * sizeof(TIn), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * sizeof(TIn), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), c.size() * sizeof(TAcc), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, d.data(), d.size() * sizeof(TAcc), cudaMemcpyHostToDevice));
  wmma_tiles<M, N, K, TIn, TFrag, TAcc, LA, LB><<<dim3(tiles_n, tiles_m), 32>>>(da, lda, db, ldb, dc, ldc, dd, ldd, k_tiles, c_col, d_col);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(d.data(), dd, d.size() * sizeof(TAcc), cudaMemcpyDeviceToHost));
  long before = ctest_failures;
  for (int i = 0; i < rows; i++)
    for (int j = 0; j < cols; j++) {
      long want = entry_c(i, j);
      for (int k = 0; k < depth; k++) want += (long)entry_a(i, k, sign) * entry_b(k, j, sign);
      want *= 2;
      long got = value_of(d[d_col ? j * ldd + i : i * ldd + j]);
      EXPECT(got == want, "%s (c %s, d %s): D[%d][%d] = %ld, want %ld", name, c_col ? "col" : "row", d_col ? "col" : "row", i, j, got, want);
    }
  // The padding between rows is not written.
  for (int i = 0; i < (d_col ? cols : rows); i++)
    for (int p = (d_col ? rows : cols); p < ldd; p++)
      EXPECT(value_of(d[i * ldd + p]) == -99, "%s: padding D[%d][%d] written", name, i, p);
  if (ctest_failures == before) printf("ok %s (c %s, d %s)\n", name, c_col ? "col" : "row", d_col ? "col" : "row");
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dd));
}

// Every A/B layout pair of one shape and type, C and D in both layouts.
template <int M, int N, int K, class TIn, class TFrag, class TAcc>
static void wmma_layouts(const char *name, bool sign) {
  using R = wmma::row_major;
  using C = wmma::col_major;
  wmma_case<M, N, K, TIn, TFrag, TAcc, R, R>(name, sign, false, false);
  wmma_case<M, N, K, TIn, TFrag, TAcc, R, C>(name, sign, true, false);
  wmma_case<M, N, K, TIn, TFrag, TAcc, C, R>(name, sign, false, true);
  wmma_case<M, N, K, TIn, TFrag, TAcc, C, C>(name, sign, true, true);
}

// Four warps of one block stage A and B tiles in shared memory and each computes one
// 16 x 16 tile of a 32 x 32 product (K = 32), loading its fragments from shared memory.
__global__ void wmma_shared(const half *A, const half *B, float *D) {
  __shared__ half sa[32 * 32];
  __shared__ half sb[32 * 32];
  for (int t = threadIdx.x; t < 32 * 32; t += blockDim.x) {
    sa[t] = A[t];
    sb[t] = B[t];
  }
  __syncthreads();
  int warp = threadIdx.x / 32, tm = warp / 2, tn = warp % 2;
  wmma::fragment<wmma::accumulator, 16, 16, 16, float> acc;
  wmma::fill_fragment(acc, 1.0f);
  for (int kt = 0; kt < 2; kt++) {
    wmma::fragment<wmma::matrix_a, 16, 16, 16, half, wmma::row_major> a;
    wmma::fragment<wmma::matrix_b, 16, 16, 16, half, wmma::row_major> b;
    wmma::load_matrix_sync(a, sa + tm * 16 * 32 + kt * 16, 32);
    wmma::load_matrix_sync(b, sb + kt * 16 * 32 + tn * 16, 32);
    wmma::mma_sync(acc, a, b, acc);
  }
  wmma::store_matrix_sync(D + tm * 16 * 32 + tn * 16, acc, 32, wmma::mem_row_major);
}

static void shared_case() {
  std::vector<half> a(32 * 32), b(32 * 32);
  for (int i = 0; i < 32; i++)
    for (int k = 0; k < 32; k++) {
      a[i * 32 + k] = __int2half_rn(entry_a(i, k, true));
      b[i * 32 + k] = __int2half_rn(entry_b(i, k, true));
    }
  half *da, *db;
  float *dd;
  CHECK(cudaMalloc(&da, 2048));
  CHECK(cudaMalloc(&db, 2048));
  CHECK(cudaMalloc(&dd, 4096));
  CHECK(cudaMemcpy(da, a.data(), 2048, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), 2048, cudaMemcpyHostToDevice));
  wmma_shared<<<1, 128>>>(da, db, dd);
  CHECK_LAUNCH();
  std::vector<float> d(32 * 32);
  CHECK(cudaMemcpy(d.data(), dd, 4096, cudaMemcpyDeviceToHost));
  long before = ctest_failures;
  for (int i = 0; i < 32; i++)
    for (int j = 0; j < 32; j++) {
      long want = 1;
      for (int k = 0; k < 32; k++) want += (long)entry_a(i, k, true) * entry_b(k, j, true);
      EXPECT((long)d[i * 32 + j] == want, "shared tiles: D[%d][%d] = %g, want %ld", i, j, d[i * 32 + j], want);
    }
  if (ctest_failures == before) printf("ok wmma from shared memory (4 warps)\n");
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dd));
}

// ---- sub-byte experimental wmma (sm_75+): A row-major, B column-major ----
// 8 x 8 x 32 .s4/.u4 and 8 x 8 x 128 .b1 (XOR, population count). Elements are packed
// two (or eight) to a byte, element 0 in the lowest bits; the dot products do not depend
// on that order as long as A and B share it.
namespace exp_ = wmma::experimental;
template <class T>
__global__ void wmma_nibbles(const void *A, const void *B, const int *C, int *D) {
  wmma::fragment<wmma::matrix_a, 8, 8, 32, T, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 32, T, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 32, int> acc;
  wmma::load_matrix_sync(a, A, 32);
  wmma::load_matrix_sync(b, B, 32);
  wmma::load_matrix_sync(acc, C, 8, wmma::mem_row_major);
  wmma::mma_sync(acc, a, b, acc);
  wmma::store_matrix_sync(D, acc, 8, wmma::mem_row_major);
}
__global__ void wmma_bits(const void *A, const void *B, const int *C, int *D) {
  wmma::fragment<wmma::matrix_a, 8, 8, 128, exp_::precision::b1, wmma::row_major> a;
  wmma::fragment<wmma::matrix_b, 8, 8, 128, exp_::precision::b1, wmma::col_major> b;
  wmma::fragment<wmma::accumulator, 8, 8, 128, int> acc;
  wmma::load_matrix_sync(a, A, 128);
  wmma::load_matrix_sync(b, B, 128);
  wmma::load_matrix_sync(acc, C, 8, wmma::mem_col_major);
  wmma::bmma_sync(acc, a, b, acc, exp_::bmmaBitOpXOR, exp_::bmmaAccumulateOpPOPC);
  wmma::store_matrix_sync(D, acc, 8, wmma::mem_row_major);
}

// kind 0: .s4, 1: .u4, 2: .b1.
static void subbyte_case(int kind) {
  const int K = kind == 2 ? 128 : 32, bits = kind == 2 ? 1 : 4;
  const char *name = kind == 0 ? "wmma m8n8k32 s4" : kind == 1 ? "wmma m8n8k32 u4" : "wmma m8n8k128 b1 xor.popc";
  std::vector<int> a(8 * K), b(8 * K), c(64);
  std::vector<uint8_t> pa(8 * K * bits / 8), pb(8 * K * bits / 8);
  for (int i = 0; i < 8; i++)
    for (int k = 0; k < K; k++) {
      // A row-major (i, k); B column-major, column j = i, row k.
      a[i * K + k] = kind == 2 ? (i * 3 + k * 5) % 3 == 0 : entry_a(i, k, kind == 0);
      b[i * K + k] = kind == 2 ? (i * 7 + k) % 5 < 2 : entry_b(k, i, kind == 0);
      int idx = i * K + k;
      if (kind == 2) {
        pa[idx / 8] |= a[idx] << (idx % 8);
        pb[idx / 8] |= b[idx] << (idx % 8);
      } else {
        pa[idx / 2] |= (a[idx] & 15) << (4 * (idx % 2));
        pb[idx / 2] |= (b[idx] & 15) << (4 * (idx % 2));
      }
    }
  for (int t = 0; t < 64; t++) c[t] = entry_c(t / 8, t % 8);
  void *da, *db;
  int *dc, *dd;
  CHECK(cudaMalloc(&da, pa.size()));
  CHECK(cudaMalloc(&db, pb.size()));
  CHECK(cudaMalloc(&dc, 256));
  CHECK(cudaMalloc(&dd, 256));
  CHECK(cudaMemcpy(da, pa.data(), pa.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, pb.data(), pb.size(), cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), 256, cudaMemcpyHostToDevice));
  if (kind == 0) wmma_nibbles<exp_::precision::s4><<<1, 32>>>(da, db, dc, dd);
  if (kind == 1) wmma_nibbles<exp_::precision::u4><<<1, 32>>>(da, db, dc, dd);
  if (kind == 2) wmma_bits<<<1, 32>>>(da, db, dc, dd);
  CHECK_LAUNCH();
  std::vector<int> d(64);
  CHECK(cudaMemcpy(d.data(), dd, 256, cudaMemcpyDeviceToHost));
  long before = ctest_failures;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) {
      // The b1 case loads C column-major.
      long want = kind == 2 ? c[j * 8 + i] : c[i * 8 + j];
      for (int k = 0; k < K; k++) want += kind == 2 ? (a[i * K + k] ^ b[j * K + k]) : a[i * K + k] * b[j * K + k];
      EXPECT(d[i * 8 + j] == want, "%s: D[%d][%d] = %d, want %ld", name, i, j, d[i * 8 + j], want);
    }
  if (ctest_failures == before) printf("ok %s\n", name);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dd));
}

// ---- mma.sync with the documented fragment layouts (PTX ISA 9.7.14.5.x) ----
// Every kernel is one warp computing D = A * B + C with A m x k row-major, B k x n
// row-major (k, n), C and D m x n row-major, all as int values converted per type.
__device__ uint32_t pack16(uint16_t lo, uint16_t hi) { return (uint32_t)lo | ((uint32_t)hi << 16); }
__device__ uint16_t h16(int v) { return __half_as_ushort(__int2half_rn(v)); }
__device__ uint16_t bf16(int v) { return __bfloat16_as_ushort(__float2bfloat16((float)v)); }

enum MmaCase { F16_F32, BF16_F32, F16_F16, TF32_F32, S8_S32, F64_F64, LDMATRIX_F16, MMA_CASES };
static const char *mma_names[] = {"mma m16n8k16 f16 -> f32", "mma m16n8k16 bf16 -> f32", "mma m16n8k16 f16 -> f16",
                                  "mma m16n8k8 tf32 -> f32", "mma m16n8k32 s8 -> s32", "mma m8n8k4 f64",
                                  "ldmatrix x4 / x2.trans + mma m16n8k16"};
static void mma_shape(int which, int *m, int *n, int *k) {
  *m = which == F64_F64 ? 8 : 16;
  *n = 8;
  *k = which == TF32_F32 ? 8 : which == S8_S32 ? 32 : which == F64_F64 ? 4 : 16;
}

// A, B, C hold the integer entries; D receives the results as integers.
__global__ void mma_kernel(int which, const int *A, const int *B, const int *C, int *D) {
  __shared__ uint16_t sa[16 * 16], sb[16 * 8];
  int lane = threadIdx.x, g = lane >> 2, t = lane & 3;
  switch (which) {
    case F16_F32:
    case BF16_F32:
    case LDMATRIX_F16: {
      uint16_t (*cv)(int) = which == BF16_F32 ? bf16 : h16;
      uint32_t a[4], b[2];
      if (which == LDMATRIX_F16) {
        for (int i = lane; i < 256; i += 32) sa[i] = h16(A[i]);
        for (int i = lane; i < 128; i += 32) sb[i] = h16(B[i]);
        __syncwarp();
        // x4: lanes 0-15 name rows 0-15 at column 0, lanes 16-31 the same rows at column 8:
        // matrices (rows 0-7, k 0-7), (rows 8-15, k 0-7), (rows 0-7, k 8-15), (rows 8-15, k 8-15).
        unsigned pa = (unsigned)__cvta_generic_to_shared(&sa[(lane % 16) * 16 + (lane / 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x4.shared.b16 {%0, %1, %2, %3}, [%4];"
                     : "=r"(a[0]), "=r"(a[1]), "=r"(a[2]), "=r"(a[3]) : "r"(pa));
        // x2.trans: lanes 0-15 name the rows k = 0..15 of B (k x n, row-major).
        unsigned pb = (unsigned)__cvta_generic_to_shared(&sb[(lane % 16) * 8]);
        asm volatile("ldmatrix.sync.aligned.m8n8.x2.trans.shared.b16 {%0, %1}, [%2];" : "=r"(b[0]), "=r"(b[1]) : "r"(pb));
      } else {
        for (int r = 0; r < 4; r++) {
          int row = g + 8 * (r % 2), col = t * 2 + 8 * (r / 2);
          a[r] = pack16(cv(A[row * 16 + col]), cv(A[row * 16 + col + 1]));
        }
        for (int r = 0; r < 2; r++) {
          int k = t * 2 + 8 * r;
          b[r] = pack16(cv(B[k * 8 + g]), cv(B[(k + 1) * 8 + g]));
        }
      }
      float c[4], d[4];
      for (int i = 0; i < 4; i++) c[i] = (float)C[(g + 8 * (i / 2)) * 8 + t * 2 + (i & 1)];
      if (which == BF16_F32)
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
      else
        asm volatile("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                     : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                     : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
      for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + t * 2 + (i & 1)] = (int)d[i];
      break;
    }
    case F16_F16: {
      uint32_t a[4], b[2], c[2], d[2];
      for (int r = 0; r < 4; r++) {
        int row = g + 8 * (r % 2), col = t * 2 + 8 * (r / 2);
        a[r] = pack16(h16(A[row * 16 + col]), h16(A[row * 16 + col + 1]));
      }
      for (int r = 0; r < 2; r++) {
        int k = t * 2 + 8 * r;
        b[r] = pack16(h16(B[k * 8 + g]), h16(B[(k + 1) * 8 + g]));
      }
      for (int r = 0; r < 2; r++) c[r] = pack16(h16(C[(g + 8 * r) * 8 + t * 2]), h16(C[(g + 8 * r) * 8 + t * 2 + 1]));
      asm volatile("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16 {%0,%1}, {%2,%3,%4,%5}, {%6,%7}, {%8,%9};"
                   : "=r"(d[0]), "=r"(d[1])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]));
      for (int r = 0; r < 2; r++)
        for (int j = 0; j < 2; j++)
          D[(g + 8 * r) * 8 + t * 2 + j] = (int)__half2float(__ushort_as_half((uint16_t)(d[r] >> (16 * j))));
      break;
    }
    case TF32_F32: {
      uint32_t a[4], b[2];
      for (int i = 0; i < 4; i++) a[i] = __float_as_uint((float)A[(g + 8 * (i % 2)) * 8 + t + 4 * (i / 2)]);
      for (int i = 0; i < 2; i++) b[i] = __float_as_uint((float)B[(t + 4 * i) * 8 + g]);
      float c[4], d[4];
      for (int i = 0; i < 4; i++) c[i] = (float)C[(g + 8 * (i / 2)) * 8 + t * 2 + (i & 1)];
      asm volatile("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                   : "=f"(d[0]), "=f"(d[1]), "=f"(d[2]), "=f"(d[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "f"(c[0]), "f"(c[1]), "f"(c[2]), "f"(c[3]));
      for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + t * 2 + (i & 1)] = (int)d[i];
      break;
    }
    case S8_S32: {
      uint32_t a[4] = {0, 0, 0, 0}, b[2] = {0, 0};
      int c[4], d[4];
      for (int r = 0; r < 4; r++)
        for (int e = 0; e < 4; e++) {
          int row = g + 8 * (r % 2), col = t * 4 + 16 * (r / 2) + e;
          a[r] |= (uint32_t)(uint8_t)A[row * 32 + col] << (8 * e);
        }
      for (int r = 0; r < 2; r++)
        for (int e = 0; e < 4; e++) b[r] |= (uint32_t)(uint8_t)B[(t * 4 + 16 * r + e) * 8 + g] << (8 * e);
      for (int i = 0; i < 4; i++) c[i] = C[(g + 8 * (i / 2)) * 8 + t * 2 + (i & 1)];
      asm volatile("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32 {%0,%1,%2,%3}, {%4,%5,%6,%7}, {%8,%9}, {%10,%11,%12,%13};"
                   : "=r"(d[0]), "=r"(d[1]), "=r"(d[2]), "=r"(d[3])
                   : "r"(a[0]), "r"(a[1]), "r"(a[2]), "r"(a[3]), "r"(b[0]), "r"(b[1]), "r"(c[0]), "r"(c[1]), "r"(c[2]), "r"(c[3]));
      for (int i = 0; i < 4; i++) D[(g + 8 * (i / 2)) * 8 + t * 2 + (i & 1)] = d[i];
      break;
    }
    default: {  // F64_F64
      double a = A[g * 4 + t], b = B[t * 8 + g], c[2] = {(double)C[g * 8 + t * 2], (double)C[g * 8 + t * 2 + 1]}, d[2];
      asm volatile("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64 {%0,%1}, {%2}, {%3}, {%4,%5};"
                   : "=d"(d[0]), "=d"(d[1]) : "d"(a), "d"(b), "d"(c[0]), "d"(c[1]));
      D[g * 8 + t * 2] = (int)d[0];
      D[g * 8 + t * 2 + 1] = (int)d[1];
    }
  }
}

static void mma_case(int which) {
  int m, n, k;
  mma_shape(which, &m, &n, &k);
  std::vector<int> a(m * k), b(k * n), c(m * n), d(m * n, -12345);
  for (int i = 0; i < m; i++)
    for (int kk = 0; kk < k; kk++) a[i * k + kk] = entry_a(i, kk, true);
  for (int kk = 0; kk < k; kk++)
    for (int j = 0; j < n; j++) b[kk * n + j] = entry_b(kk, j, true);
  for (int i = 0; i < m * n; i++) c[i] = entry_c(i / n, i % n);
  int *da, *db, *dc, *dd;
  CHECK(cudaMalloc(&da, a.size() * 4));
  CHECK(cudaMalloc(&db, b.size() * 4));
  CHECK(cudaMalloc(&dc, c.size() * 4));
  CHECK(cudaMalloc(&dd, d.size() * 4));
  CHECK(cudaMemcpy(da, a.data(), a.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(db, b.data(), b.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dc, c.data(), c.size() * 4, cudaMemcpyHostToDevice));
  CHECK(cudaMemcpy(dd, d.data(), d.size() * 4, cudaMemcpyHostToDevice));
  mma_kernel<<<1, 32>>>(which, da, db, dc, dd);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(d.data(), dd, d.size() * 4, cudaMemcpyDeviceToHost));
  long before = ctest_failures;
  for (int i = 0; i < m; i++)
    for (int j = 0; j < n; j++) {
      long want = c[i * n + j];
      for (int kk = 0; kk < k; kk++) want += (long)a[i * k + kk] * b[kk * n + j];
      EXPECT(d[i * n + j] == want, "%s: D[%d][%d] = %d, want %ld", mma_names[which], i, j, d[i * n + j], want);
    }
  if (ctest_failures == before) printf("ok %s\n", mma_names[which]);
  CHECK(cudaFree(da));
  CHECK(cudaFree(db));
  CHECK(cudaFree(dc));
  CHECK(cudaFree(dd));
}

// movmatrix.sync.aligned.m8n8.trans.b16: lane t holds elements (t / 4, 2 (t % 4) + j) of an
// 8 x 8 matrix of 16-bit values and receives those of its transpose.
__global__ void movmatrix_kernel(const uint16_t *M, uint16_t *T) {
  int t = threadIdx.x, r = t / 4, c = 2 * (t % 4);
  uint32_t x = pack16(M[r * 8 + c], M[r * 8 + c + 1]), y;
  asm volatile("movmatrix.sync.aligned.m8n8.trans.b16 %0, %1;" : "=r"(y) : "r"(x));
  T[r * 8 + c] = (uint16_t)y;
  T[r * 8 + c + 1] = (uint16_t)(y >> 16);
}

static void movmatrix_case() {
  std::vector<uint16_t> m(64), t(64);
  for (int i = 0; i < 64; i++) m[i] = (uint16_t)(i * 977 + 13);
  uint16_t *dm, *dt;
  CHECK(cudaMalloc(&dm, 128));
  CHECK(cudaMalloc(&dt, 128));
  CHECK(cudaMemcpy(dm, m.data(), 128, cudaMemcpyHostToDevice));
  movmatrix_kernel<<<1, 32>>>(dm, dt);
  CHECK_LAUNCH();
  CHECK(cudaMemcpy(t.data(), dt, 128, cudaMemcpyDeviceToHost));
  long before = ctest_failures;
  for (int i = 0; i < 8; i++)
    for (int j = 0; j < 8; j++) EXPECT(t[i * 8 + j] == m[j * 8 + i], "movmatrix: T[%d][%d] = %u, want %u", i, j, t[i * 8 + j], m[j * 8 + i]);
  if (ctest_failures == before) printf("ok movmatrix\n");
  CHECK(cudaFree(dm));
  CHECK(cudaFree(dt));
}

// wmma::__float_to_tf32 (cvt.rna.tf32.f32): round to 10 fraction bits, ties away from zero.
__global__ void tf32_kernel(const float *in, uint32_t *out, int n) {
  int i = threadIdx.x + blockIdx.x * blockDim.x;
  if (i < n) out[i] = __float_as_uint(wmma::__float_to_tf32(in[i]));
}

static void tf32_case() {
  std::vector<float> in;
  const float specials[] = {0.0f, -0.0f, 1.0f, 1.00048828125f, 1.000732421875f, -1.000732421875f, 3.4028235e38f,
                            -3.4028235e38f, 1e-40f, -3e-39f, 1.1754944e-38f, INFINITY, -INFINITY, 65504.5f, 0.1f};
  for (float f : specials) in.push_back(f);
  for (int i = 0; i < 2000; i++) {
    uint32_t bits = (uint32_t)i * 2654435761u;
    float f;
    memcpy(&f, &bits, 4);
    if (f == f) in.push_back(f);
  }
  int n = (int)in.size();
  float *din;
  uint32_t *dout;
  CHECK(cudaMalloc(&din, n * 4));
  CHECK(cudaMalloc(&dout, n * 4));
  CHECK(cudaMemcpy(din, in.data(), n * 4, cudaMemcpyHostToDevice));
  tf32_kernel<<<(n + 127) / 128, 128>>>(din, dout, n);
  CHECK_LAUNCH();
  std::vector<uint32_t> out(n);
  CHECK(cudaMemcpy(out.data(), dout, n * 4, cudaMemcpyDeviceToHost));
  long before = ctest_failures;
  for (int i = 0; i < n; i++) {
    double x = in[i], want = x;
    if (x != 0 && std::isfinite(x)) {
      int e;
      frexp(x, &e);
      // 11 significant bits; below 2^-126 the spacing stays 2^-136.
      double scale = ldexp(1.0, std::min(11 - e, 136));
      want = round(x * scale) / scale;
      if (fabs(want) > 3.4028234663852886e38) want = x > 0 ? INFINITY : -INFINITY;
    }
    float w = (float)want;
    uint32_t wb;
    memcpy(&wb, &w, 4);
    EXPECT(out[i] == wb, "tf32 rounding of %a: 0x%08x, want 0x%08x", x, out[i], wb);
  }
  if (ctest_failures == before) printf("ok cvt.rna.tf32.f32 (%d values)\n", n);
  CHECK(cudaFree(din));
  CHECK(cudaFree(dout));
}

int main() {
  tf32_case();
  wmma_layouts<16, 16, 16, half, half, float>("wmma m16n16k16 f16 -> f32", true);
  wmma_layouts<32, 8, 16, half, half, float>("wmma m32n8k16 f16 -> f32", true);
  wmma_layouts<8, 32, 16, half, half, float>("wmma m8n32k16 f16 -> f32", true);
  wmma_layouts<16, 16, 16, half, half, half>("wmma m16n16k16 f16 -> f16", true);
  wmma_layouts<16, 16, 16, __nv_bfloat16, __nv_bfloat16, float>("wmma m16n16k16 bf16", true);
  wmma_layouts<32, 8, 16, __nv_bfloat16, __nv_bfloat16, float>("wmma m32n8k16 bf16", true);
  wmma_layouts<16, 16, 8, float, wmma::precision::tf32, float>("wmma m16n16k8 tf32", true);
  wmma_layouts<8, 8, 4, double, double, double>("wmma m8n8k4 f64", true);
  wmma_layouts<16, 16, 16, signed char, signed char, int>("wmma m16n16k16 s8", true);
  wmma_layouts<8, 32, 16, unsigned char, unsigned char, int>("wmma m8n32k16 u8", false);
  wmma_layouts<32, 8, 16, signed char, signed char, int>("wmma m32n8k16 s8", true);
  shared_case();
  for (int kind = 0; kind < 3; kind++) subbyte_case(kind);
  for (int w = 0; w < MMA_CASES; w++) mma_case(w);
  movmatrix_case();
  if (ctest_failures) {
    printf("FAIL %s: %ld mismatches\n", CTEST_NAME, ctest_failures);
    return 1;
  }
  printf("PASS %s\n", CTEST_NAME);
  return 0;
}
