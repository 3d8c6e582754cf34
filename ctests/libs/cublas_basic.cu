// cuBLAS through our libcublas on the CPU device: every result is checked against a
// plain loop computed here in double precision.
// link: -lcublas
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                                  \
  do {                                                    \
    if (!(cond)) {                                        \
      printf("FAIL %s:%d: ", __FILE__, __LINE__);         \
      printf(__VA_ARGS__);                                \
      printf("\n");                                       \
      failures++;                                         \
    }                                                     \
  } while (0)
#define CUBLAS(call) CHECK((call) == CUBLAS_STATUS_SUCCESS, "%s", #call)
#define CUDA(call) CHECK((call) == cudaSuccess, "%s", #call)

static double rnd(unsigned* s) {
  *s = *s * 1664525u + 1013904223u;
  return ((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

template <typename T>
static T* to_device(const T* h, size_t n) {
  T* d = nullptr;
  CUDA(cudaMalloc(&d, n * sizeof(T) + 1));
  CUDA(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}

// op(X)(i, j) for a column-major X with leading dimension ld.
static double at(const double* x, cublasOperation_t op, int ld, int i, int j) {
  return op == CUBLAS_OP_N ? x[(size_t)j * ld + i] : x[(size_t)i * ld + j];
}

static void gemm_ref(cublasOperation_t ta, cublasOperation_t tb, int m, int n, int k, double alpha, const double* a, int lda,
                     const double* b, int ldb, double beta, double* c, int ldc) {
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double s = 0;
      for (int p = 0; p < k; p++) s += at(a, ta, lda, i, p) * at(b, tb, ldb, p, j);
      c[(size_t)j * ldc + i] = alpha * s + beta * c[(size_t)j * ldc + i];
    }
}

static void test_sgemm(cublasHandle_t h) {
  unsigned seed = 1;
  const cublasOperation_t ops[2] = {CUBLAS_OP_N, CUBLAS_OP_T};
  for (int ta = 0; ta < 2; ta++)
    for (int tb = 0; tb < 2; tb++) {
      int m = 37, n = 23, k = 19;
      int arows = ta ? k : m, acols = ta ? m : k, brows = tb ? n : k, bcols = tb ? k : n;
      int lda = arows + 3, ldb = brows + 1, ldc = m + 5;
      size_t na = (size_t)lda * acols, nb = (size_t)ldb * bcols, nc = (size_t)ldc * n;
      double *a = new double[na], *b = new double[nb], *c = new double[nc];
      float *af = new float[na], *bf = new float[nb], *cf = new float[nc];
      for (size_t i = 0; i < na; i++) af[i] = a[i] = (float)rnd(&seed);
      for (size_t i = 0; i < nb; i++) bf[i] = b[i] = (float)rnd(&seed);
      for (size_t i = 0; i < nc; i++) cf[i] = c[i] = (float)rnd(&seed);
      float *da = to_device(af, na), *db = to_device(bf, nb), *dc = to_device(cf, nc);
      float alpha = 1.5f, beta = -0.5f;
      CUBLAS(cublasSgemm(h, ops[ta], ops[tb], m, n, k, &alpha, da, lda, db, ldb, &beta, dc, ldc));
      gemm_ref(ops[ta], ops[tb], m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
      CUDA(cudaMemcpy(cf, dc, nc * sizeof(float), cudaMemcpyDeviceToHost));
      double worst = 0;
      for (int j = 0; j < n; j++)
        for (int i = 0; i < m; i++) worst = fmax(worst, fabs(cf[(size_t)j * ldc + i] - c[(size_t)j * ldc + i]));
      // Rows past m in each column (the padding of ldc) must be untouched.
      for (int j = 0; j < n; j++)
        for (int i = m; i < ldc && (size_t)j * ldc + i < nc; i++) CHECK(cf[(size_t)j * ldc + i] == (float)c[(size_t)j * ldc + i], "padding written");
      CHECK(worst < 1e-4, "sgemm ta=%d tb=%d: max error %g", ta, tb, worst);
      cudaFree(da), cudaFree(db), cudaFree(dc);
      delete[] a, delete[] b, delete[] c, delete[] af, delete[] bf, delete[] cf;
    }
}

static void test_dgemm_zgemm(cublasHandle_t h) {
  unsigned seed = 7;
  int m = 9, n = 6, k = 5;
  double a[45], b[30], c[54], cref[54];
  for (double& v : a) v = rnd(&seed);
  for (double& v : b) v = rnd(&seed);
  for (int i = 0; i < 54; i++) c[i] = cref[i] = rnd(&seed);
  double *da = to_device(a, 45), *db = to_device(b, 30), *dc = to_device(c, 54);
  double alpha = 2, beta = 0.25;
  CUBLAS(cublasDgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &alpha, da, m, db, k, &beta, dc, m));
  gemm_ref(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, alpha, a, m, b, k, beta, cref, m);
  CUDA(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 54; i++) CHECK(fabs(c[i] - cref[i]) < 1e-12, "dgemm [%d] %g vs %g", i, c[i], cref[i]);

  // Zgemm with C = conj-transpose: C = A^H A for a 3x2 A; the result is Hermitian with a real diagonal.
  cuDoubleComplex za[6], zc[4], zalpha = make_cuDoubleComplex(1, 0), zbeta = make_cuDoubleComplex(0, 0);
  for (int i = 0; i < 6; i++) za[i] = make_cuDoubleComplex(rnd(&seed), rnd(&seed));
  cuDoubleComplex *dza = to_device(za, 6), *dzc = to_device(zc, 4);
  CUBLAS(cublasZgemm(h, CUBLAS_OP_C, CUBLAS_OP_N, 2, 2, 3, &zalpha, dza, 3, dza, 3, &zbeta, dzc, 2));
  CUDA(cudaMemcpy(zc, dzc, sizeof zc, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 2; i++)
    for (int j = 0; j < 2; j++) {
      double re = 0, im = 0;
      for (int p = 0; p < 3; p++) {
        cuDoubleComplex x = za[i * 3 + p], y = za[j * 3 + p];  // conj(x) * y
        re += x.x * y.x + x.y * y.y;
        im += x.x * y.y - x.y * y.x;
      }
      cuDoubleComplex got = zc[j * 2 + i];
      CHECK(fabs(got.x - re) < 1e-12 && fabs(got.y - im) < 1e-12, "zgemm (%d,%d)", i, j);
    }
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dza), cudaFree(dzc);
}

static void test_level1(cublasHandle_t h) {
  float x[10], y[10];
  for (int i = 0; i < 10; i++) x[i] = (float)(i + 1) * (i % 2 ? -1 : 1), y[i] = 0.5f * i;
  float *dx = to_device(x, 10), *dy = to_device(y, 10);
  float alpha = 2;
  // y[0], y[2], y[4], y[6], y[8] += 2 * x[12 - ...]: incx = -2 walks x from its far end (BLAS order).
  CUBLAS(cublasSaxpy(h, 5, &alpha, dx, -2, dy, 2));
  float got[10];
  CUDA(cudaMemcpy(got, dy, sizeof got, cudaMemcpyDeviceToHost));
  for (int i = 0; i < 5; i++) CHECK(got[2 * i] == y[2 * i] + 2 * x[8 - 2 * i], "saxpy negative incx [%d]", i);
  for (int i = 0; i < 5; i++) CHECK(got[2 * i + 1] == y[2 * i + 1], "saxpy touched y[%d]", 2 * i + 1);

  float dot = 0, nrm = 0, asum = 0;
  int imax = -1, imin = -1;
  CUBLAS(cublasSdot(h, 10, dx, 1, dx, 1, &dot));
  CUBLAS(cublasSnrm2(h, 10, dx, 1, &nrm));
  CUBLAS(cublasSasum(h, 10, dx, 1, &asum));
  CUBLAS(cublasIsamax(h, 10, dx, 1, &imax));
  CUBLAS(cublasIsamin(h, 10, dx, 1, &imin));
  CHECK(dot == 385, "sdot %g", dot);
  CHECK(fabs(nrm - sqrt(385.0)) < 1e-5, "snrm2 %g", nrm);
  CHECK(asum == 55, "sasum %g", asum);
  CHECK(imax == 10 && imin == 1, "isamax %d isamin %d (1-based)", imax, imin);
  imax = 42;
  CUBLAS(cublasIsamax(h, 0, dx, 1, &imax));
  CHECK(imax == 0, "isamax n=0 gives %d", imax);

  // Device pointer mode: the result lands in device memory, in stream order.
  float* dres;
  CUDA(cudaMalloc(&dres, sizeof(float)));
  CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_DEVICE));
  float* dalpha = to_device(&alpha, 1);
  CUBLAS(cublasSscal(h, 10, dalpha, dx, 1));
  CUBLAS(cublasSdot(h, 10, dx, 1, dx, 1, dres));
  CUBLAS(cublasSetPointerMode(h, CUBLAS_POINTER_MODE_HOST));
  float res = 0;
  CUDA(cudaMemcpy(&res, dres, sizeof res, cudaMemcpyDeviceToHost));
  CHECK(res == 4 * 385, "device-mode sscal+sdot %g", res);

  double zx[4] = {1, 2, 3, 4};  // two cuDoubleComplex values: (1+2i), (3+4i)
  double* dzx = to_device(zx, 4);
  double znrm = 0;
  CUBLAS(cublasDznrm2(h, 2, (cuDoubleComplex*)dzx, 1, &znrm));
  CHECK(fabs(znrm - sqrt(30.0)) < 1e-12, "dznrm2 %g", znrm);
  cudaFree(dx), cudaFree(dy), cudaFree(dres), cudaFree(dalpha), cudaFree(dzx);
}

static void test_gemv_trsm(cublasHandle_t h) {
  unsigned seed = 3;
  int m = 7, n = 5, lda = 8;
  double a[40], x[7], y[7];
  float af[40], xf[7], yf[7];
  for (int i = 0; i < 40; i++) af[i] = a[i] = (float)rnd(&seed);
  for (int i = 0; i < 7; i++) xf[i] = x[i] = (float)rnd(&seed), yf[i] = y[i] = (float)rnd(&seed);
  float *da = to_device(af, 40), *dx = to_device(xf, 7), *dy = to_device(yf, 7);
  float alpha = 1, beta = 2;
  CUBLAS(cublasSgemv(h, CUBLAS_OP_T, m, n, &alpha, da, lda, dx, 1, &beta, dy, 1));  // y(5) = A^T x(7) + 2y
  CUDA(cudaMemcpy(yf, dy, sizeof yf, cudaMemcpyDeviceToHost));
  for (int j = 0; j < n; j++) {
    double s = 2 * y[j];
    for (int i = 0; i < m; i++) s += a[j * lda + i] * x[i];
    CHECK(fabs(yf[j] - s) < 1e-5, "sgemv T [%d] %g vs %g", j, yf[j], s);
  }
  // trsm: solve L X = B for a well-conditioned lower-triangular L (5x5), B 5x3.
  float l[25] = {0}, bm[15], bx[15];
  for (int j = 0; j < 5; j++)
    for (int i = j; i < 5; i++) l[j * 5 + i] = i == j ? 4.0f + i : (float)rnd(&seed);
  for (int i = 0; i < 15; i++) bm[i] = (float)rnd(&seed);
  float *dl = to_device(l, 25), *db = to_device(bm, 15);
  CUBLAS(cublasStrsm(h, CUBLAS_SIDE_LEFT, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, 5, 3, &alpha, dl, 5, db, 5));
  CUDA(cudaMemcpy(bx, db, sizeof bx, cudaMemcpyDeviceToHost));
  for (int c = 0; c < 3; c++)
    for (int i = 0; i < 5; i++) {
      double s = 0;
      for (int p = 0; p <= i; p++) s += l[p * 5 + i] * bx[c * 5 + p];
      CHECK(fabs(s - bm[c * 5 + i]) < 1e-5, "strsm: L X != B at (%d,%d)", i, c);
    }
  cudaFree(da), cudaFree(dx), cudaFree(dy), cudaFree(dl), cudaFree(db);
}

static void test_batched_and_ex(cublasHandle_t h) {
  unsigned seed = 11;
  const int m = 4, n = 3, k = 5, batch = 3;
  double a[batch * m * k], b[batch * k * n], c[batch * m * n];
  float af[batch * m * k], bf[batch * k * n], cf[batch * m * n];
  for (int i = 0; i < batch * m * k; i++) af[i] = a[i] = (float)rnd(&seed);
  for (int i = 0; i < batch * k * n; i++) bf[i] = b[i] = (float)rnd(&seed);
  for (int i = 0; i < batch * m * n; i++) cf[i] = c[i] = 0;
  float *da = to_device(af, batch * m * k), *db = to_device(bf, batch * k * n), *dc = to_device(cf, batch * m * n);
  float one = 1, zero = 0;
  CUBLAS(cublasSgemmStridedBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, da, m, m * k, db, k, k * n, &zero, dc, m, m * n, batch));
  for (int p = 0; p < batch; p++) gemm_ref(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, 1, a + p * m * k, m, b + p * k * n, k, 0, c + p * m * n, m);
  CUDA(cudaMemcpy(cf, dc, sizeof cf, cudaMemcpyDeviceToHost));
  for (int i = 0; i < batch * m * n; i++) CHECK(fabs(cf[i] - c[i]) < 1e-5, "strided batched [%d]", i);

  // The pointer-array form over the same problems, written into fresh C matrices.
  float* dc2 = to_device(cf, batch * m * n);
  CUDA(cudaMemset(dc2, 0, sizeof cf));
  const float *pa[batch], *pb[batch];
  float* pc[batch];
  for (int p = 0; p < batch; p++) pa[p] = da + p * m * k, pb[p] = db + p * k * n, pc[p] = dc2 + p * m * n;
  const float **dpa = to_device(pa, batch), **dpb = to_device(pb, batch);
  float** dpc = to_device(pc, batch);
  CUBLAS(cublasSgemmBatched(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dpa, m, dpb, k, &zero, dpc, m, batch));
  CUDA(cudaMemcpy(cf, dc2, sizeof cf, cudaMemcpyDeviceToHost));
  for (int i = 0; i < batch * m * n; i++) CHECK(fabs(cf[i] - c[i]) < 1e-5, "pointer batched [%d]", i);

  // GemmEx: half inputs, float output, float compute; products of halves are exact in float.
  __half ah[m * k], bh[k * n];
  double ar[m * k], br[k * n], cr[m * n] = {0};
  for (int i = 0; i < m * k; i++) ah[i] = __float2half((float)rnd(&seed)), ar[i] = __half2float(ah[i]);
  for (int i = 0; i < k * n; i++) bh[i] = __float2half((float)rnd(&seed)), br[i] = __half2float(bh[i]);
  __half *dah = to_device(ah, m * k), *dbh = to_device(bh, k * n);
  float* dcf;
  CUDA(cudaMalloc(&dcf, m * n * sizeof(float)));
  CUBLAS(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dah, CUDA_R_16F, m, dbh, CUDA_R_16F, k, &zero, dcf, CUDA_R_32F, m,
                      CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT));
  gemm_ref(CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, 1, ar, m, br, k, 0, cr, m);
  float out[m * n];
  CUDA(cudaMemcpy(out, dcf, sizeof out, cudaMemcpyDeviceToHost));
  for (int i = 0; i < m * n; i++) CHECK(fabs(out[i] - cr[i]) < 1e-5, "gemmEx f16->f32 [%d] %g vs %g", i, out[i], cr[i]);
  // Hgemm: half output, rounded once from the exact sum.
  __half hone = __float2half(1.f), hzero = __float2half(0.f), hc[m * n];
  __half* dhc;
  CUDA(cudaMalloc(&dhc, sizeof hc));
  CUBLAS(cublasHgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &hone, dah, m, dbh, k, &hzero, dhc, m));
  CUDA(cudaMemcpy(hc, dhc, sizeof hc, cudaMemcpyDeviceToHost));
  for (int i = 0; i < m * n; i++) CHECK(fabs(__half2float(hc[i]) - cr[i]) <= fabs(cr[i]) * 1e-3 + 1e-3, "hgemm [%d]", i);
  // An unsupported type combination.
  CHECK(cublasGemmEx(h, CUBLAS_OP_N, CUBLAS_OP_N, m, n, k, &one, dah, CUDA_R_16F, m, dbh, CUDA_R_32F, k, &zero, dcf, CUDA_R_32F, m,
                     CUBLAS_COMPUTE_32F, CUBLAS_GEMM_DEFAULT) == CUBLAS_STATUS_NOT_SUPPORTED,
        "mixed A/B types accepted");
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dc2), cudaFree(dpa), cudaFree(dpb), cudaFree(dpc);
  cudaFree(dah), cudaFree(dbh), cudaFree(dcf), cudaFree(dhc);
}

static void test_geam_dgmm_lu(cublasHandle_t h) {
  // geam: C = 2 A^T + B for 2x3 C.
  float a[6] = {1, 2, 3, 4, 5, 6}, b[6] = {10, 20, 30, 40, 50, 60}, c[6];
  float *da = to_device(a, 6), *db = to_device(b, 6), *dc = to_device(c, 6);
  float two = 2, one = 1;
  CUBLAS(cublasSgeam(h, CUBLAS_OP_T, CUBLAS_OP_N, 2, 3, &two, da, 3, &one, db, 2, dc, 2));
  CUDA(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 2; i++) CHECK(c[j * 2 + i] == 2 * a[i * 3 + j] + b[j * 2 + i], "sgeam (%d,%d)", i, j);
  // dgmm: C = diag(x) A with A 2x3.
  float x[2] = {3, -1};
  float* dxv = to_device(x, 2);
  CUBLAS(cublasSdgmm(h, CUBLAS_SIDE_LEFT, 2, 3, db, 2, dxv, 1, dc, 2));
  CUDA(cudaMemcpy(c, dc, sizeof c, cudaMemcpyDeviceToHost));
  for (int j = 0; j < 3; j++)
    for (int i = 0; i < 2; i++) CHECK(c[j * 2 + i] == x[i] * b[j * 2 + i], "sdgmm (%d,%d)", i, j);

  // getrf + getri: A * inv(A) = I for two 4x4 matrices.
  unsigned seed = 5;
  const int n = 4, batch = 2;
  double m[batch][16];
  for (int p = 0; p < batch; p++)
    for (int i = 0; i < 16; i++) m[p][i] = rnd(&seed) + (i % 5 == 0 ? 3 : 0);
  double *dm = to_device(&m[0][0], 32), *dinv;
  CUDA(cudaMalloc(&dinv, 32 * sizeof(double)));
  double *pa[batch] = {dm, dm + 16}, *pc[batch] = {dinv, dinv + 16};
  double **dpa = to_device(pa, batch), **dpc = to_device(pc, batch);
  int *dpiv, *dinfo, info[batch] = {-1, -1};
  CUDA(cudaMalloc(&dpiv, n * batch * sizeof(int)));
  CUDA(cudaMalloc(&dinfo, batch * sizeof(int)));
  CUBLAS(cublasDgetrfBatched(h, n, dpa, n, dpiv, dinfo, batch));
  CUBLAS(cublasDgetriBatched(h, n, (const double**)dpa, n, dpiv, dpc, n, dinfo, batch));
  CUDA(cudaMemcpy(info, dinfo, sizeof info, cudaMemcpyDeviceToHost));
  double inv[32];
  CUDA(cudaMemcpy(inv, dinv, sizeof inv, cudaMemcpyDeviceToHost));
  for (int p = 0; p < batch; p++) {
    CHECK(info[p] == 0, "getrf/getri info %d", info[p]);
    for (int i = 0; i < n; i++)
      for (int j = 0; j < n; j++) {
        double s = 0;
        for (int q = 0; q < n; q++) s += m[p][q * n + i] * inv[p * 16 + j * n + q];
        CHECK(fabs(s - (i == j)) < 1e-10, "A inv(A) [%d](%d,%d) = %g", p, i, j, s);
      }
  }
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(dxv), cudaFree(dm), cudaFree(dinv), cudaFree(dpa), cudaFree(dpc);
  cudaFree(dpiv), cudaFree(dinfo);
}

__global__ void fill(float* p, int n, float v) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) p[i] = v;
}

static void test_stream_order(cublasHandle_t h) {
  // A kernel fills x on a stream, then axpy on the same stream reads it: the library
  // call must run after the kernel and before the copy queued after it.
  cudaStream_t s;
  CUDA(cudaStreamCreate(&s));
  CUBLAS(cublasSetStream(h, s));
  cudaStream_t got;
  CUBLAS(cublasGetStream(h, &got));
  CHECK(got == s, "cublasGetStream");
  const int n = 1 << 16;
  float *dx, *dy;
  CUDA(cudaMalloc(&dx, n * sizeof(float)));
  CUDA(cudaMalloc(&dy, n * sizeof(float)));
  CUDA(cudaMemsetAsync(dy, 0, n * sizeof(float), s));
  fill<<<(n + 255) / 256, 256, 0, s>>>(dx, n, 3.0f);
  float alpha = 2;
  CUBLAS(cublasSaxpy(h, n, &alpha, dx, 1, dy, 1));
  float* hy = (float*)malloc(n * sizeof(float));
  CUDA(cudaMemcpyAsync(hy, dy, n * sizeof(float), cudaMemcpyDeviceToHost, s));
  CUDA(cudaStreamSynchronize(s));
  int bad = 0;
  for (int i = 0; i < n; i++) bad += hy[i] != 6.0f;
  CHECK(bad == 0, "stream order: %d of %d elements wrong", bad, n);
  CUBLAS(cublasSetStream(h, 0));
  free(hy);
  cudaFree(dx), cudaFree(dy);
  cudaStreamDestroy(s);
}

static void test_errors(cublasHandle_t h) {
  float *d, one = 1;
  CUDA(cudaMalloc(&d, 64 * sizeof(float)));
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, -1, 2, 2, &one, d, 2, d, 2, &one, d, 2) == CUBLAS_STATUS_INVALID_VALUE, "m < 0");
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 4, 2, 2, &one, d, 3, d, 2, &one, d, 4) == CUBLAS_STATUS_INVALID_VALUE, "lda < m");
  CHECK(cublasSgemm(h, (cublasOperation_t)7, CUBLAS_OP_N, 2, 2, 2, &one, d, 2, d, 2, &one, d, 2) == CUBLAS_STATUS_INVALID_VALUE, "bad op");
  // Zero increments: BLAS refuses them, cuBLAS broadcasts x[0] / accumulates into y[0]
  // (NVIDIA's results on an H200 for this case: y = 3 7 7, 3 3 3 and 6 7 7).
  {
    float ones[9] = {1, 1, 1, 1, 1, 1, 1, 1, 1}, x[3] = {1, 2, 3}, y[3] = {7, 7, 7}, zero = 0, want[3][3] = {{3, 7, 7}, {3, 3, 3}, {6, 7, 7}};
    float *dA = to_device(ones, 9), *dx = to_device(x, 3), *dy = to_device(y, 3);
    int incs[3][2] = {{0, 0}, {0, 1}, {1, 0}};
    for (int c = 0; c < 3; c++) {
      CUDA(cudaMemcpy(dy, y, sizeof y, cudaMemcpyHostToDevice));
      CUBLAS(cublasSgemv(h, CUBLAS_OP_N, 3, 3, &one, dA, 3, dx, incs[c][0], &zero, dy, incs[c][1]));
      float out[3];
      CUDA(cudaMemcpy(out, dy, sizeof out, cudaMemcpyDeviceToHost));
      for (int i = 0; i < 3; i++) CHECK(out[i] == want[c][i], "sgemv incx=%d incy=%d y[%d]=%g", incs[c][0], incs[c][1], i, out[i]);
    }
    // Reductions with nothing to reduce store 0.
    float r = -1;
    CUBLAS(cublasSdot(h, -1, dx, 1, dx, 1, &r));
    CUBLAS(cublasSnrm2(h, 3, dx, 0, &r));
    int ir = -1;
    CUBLAS(cublasIsamax(h, 3, dx, -1, &ir));
    CHECK(r == 0 && ir == 0, "empty reductions gave %g %d", r, ir);
    // A zero increment in dot repeats x[0]: 1*1 + 1*2 + 1*3.
    CUBLAS(cublasSdot(h, 3, dx, 0, dx, 1, &r));
    CHECK(r == 6, "sdot incx=0 gave %g", r);
    cudaFree(dA), cudaFree(dx), cudaFree(dy);
  }
  // Quick returns succeed without touching anything.
  CUBLAS(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 0, 2, 2, &one, NULL, 1, NULL, 2, &one, NULL, 1));
#ifndef NVIDIA_REFERENCE
  // Our library refuses a matrix that runs past its allocation (NVIDIA's GPU would fault).
  CHECK(cublasSgemm(h, CUBLAS_OP_N, CUBLAS_OP_N, 9, 8, 8, &one, d, 9, d, 8, &one, d, 9) == CUBLAS_STATUS_INVALID_VALUE, "overrun");
#endif
  cublasHandle_t dead;
  CUBLAS(cublasCreate(&dead));
  CUBLAS(cublasDestroy(dead));
#ifndef NVIDIA_REFERENCE
  // NVIDIA's library dereferences a destroyed handle; ours recognizes it.
  CHECK(cublasSscal(dead, 1, &one, d, 1) == CUBLAS_STATUS_NOT_INITIALIZED, "destroyed handle");
#endif
  CHECK(strcmp(cublasGetStatusName(CUBLAS_STATUS_INVALID_VALUE), "CUBLAS_STATUS_INVALID_VALUE") == 0, "status name");
  int v = 0;
  CUBLAS(cublasGetVersion(h, &v));
  CHECK(v >= 120000, "version %d", v);
  cudaFree(d);
}

int main() {
  cublasHandle_t h;
  CUDA(cudaFree(0));
  CUBLAS(cublasCreate(&h));
  test_sgemm(h);
  test_dgemm_zgemm(h);
  test_level1(h);
  test_gemv_trsm(h);
  test_batched_and_ex(h);
  test_geam_dgmm_lu(h);
  test_stream_order(h);
  test_errors(h);
  CUBLAS(cublasDestroy(h));
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS cublas_basic\n");
  return 0;
}
