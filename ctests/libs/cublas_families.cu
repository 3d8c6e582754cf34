// The less common cuBLAS families through our libcublas, each against a plain loop
// computed here: banded and packed level 2, rank updates, rotations, syrkx/herkx, grouped
// batched GEMM and the typed level-1 extensions.
// link: -lcublas
#include <cublas_v2.h>
#include <cuda_fp16.h>
#include <cuda_runtime.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

static int failures = 0;
#define CHECK(cond, ...)                          \
  do {                                            \
    if (!(cond)) {                                \
      printf("FAIL %s:%d: ", __FILE__, __LINE__); \
      printf(__VA_ARGS__);                        \
      printf("\n");                               \
      failures++;                                 \
    }                                             \
  } while (0)
#define CUBLAS(call) CHECK((call) == CUBLAS_STATUS_SUCCESS, "%s", #call)

template <typename T>
static T* dev(const T* h, size_t n) {
  T* d = nullptr;
  cudaMalloc(&d, n * sizeof(T));
  cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice);
  return d;
}
template <typename T>
static void back(T* h, const T* d, size_t n) {
  cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost);
}
static double rnd(unsigned* s) {
  *s = *s * 1664525u + 1013904223u;
  return ((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

static void banded_and_packed(cublasHandle_t h) {
  unsigned seed = 4;
  const int n = 6, kl = 1, ku = 2, lda = kl + ku + 1;
  // Dense A with the band only; band storage: A(i,j) at ab[(ku + i - j) + j * lda].
  double a[n][n] = {{0}}, ab[lda * n] = {0}, x[n], y[n], yref[n];
  for (int j = 0; j < n; j++)
    for (int i = j - ku; i <= j + kl; i++)
      if (i >= 0 && i < n) a[i][j] = ab[(ku + i - j) + j * lda] = rnd(&seed);
  for (int i = 0; i < n; i++) x[i] = rnd(&seed), y[i] = yref[i] = rnd(&seed);
  double alpha = 2, beta = -1, *dab = dev(ab, lda * n), *dx = dev(x, n), *dy = dev(y, n);
  CUBLAS(cublasDgbmv(h, CUBLAS_OP_N, n, n, kl, ku, &alpha, dab, lda, dx, 1, &beta, dy, 1));
  back(y, dy, n);
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += a[i][j] * x[j];
    CHECK(fabs(y[i] - (alpha * s + beta * yref[i])) < 1e-12, "dgbmv [%d]", i);
  }
  // Upper-triangular band (k = 2) solve: tbsv then tbmv gives x back.
  const int k = 2, ldt = k + 1;
  double tb[ldt * n] = {0}, t[n][n] = {{0}}, xs[n];
  for (int j = 0; j < n; j++)
    for (int i = j - k; i <= j; i++)
      if (i >= 0) t[i][j] = tb[(k + i - j) + j * ldt] = i == j ? 3 + rnd(&seed) : rnd(&seed);
  double* dtb = dev(tb, ldt * n);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  CUBLAS(cublasDtbsv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, k, dtb, ldt, dx, 1));
  back(xs, dx, n);
  for (int i = 0; i < n; i++) {
    double s = 0;
    for (int j = 0; j < n; j++) s += t[i][j] * xs[j];
    CHECK(fabs(s - x[i]) < 1e-12, "dtbsv [%d]", i);
  }
  CUBLAS(cublasDtbmv(h, CUBLAS_FILL_MODE_UPPER, CUBLAS_OP_N, CUBLAS_DIAG_NON_UNIT, n, k, dtb, ldt, dx, 1));
  back(xs, dx, n);
  for (int i = 0; i < n; i++) CHECK(fabs(xs[i] - x[i]) < 1e-12, "dtbmv undoes dtbsv [%d]", i);
  // Packed symmetric (lower): spmv, then an spr2 update of the same matrix.
  double ap[n * (n + 1) / 2], s[n][n];
  for (int j = 0, p = 0; j < n; j++)
    for (int i = j; i < n; i++, p++) s[i][j] = s[j][i] = ap[p] = rnd(&seed);
  double* dap = dev(ap, n * (n + 1) / 2);
  cudaMemcpy(dy, yref, sizeof yref, cudaMemcpyHostToDevice);
  cudaMemcpy(dx, x, sizeof x, cudaMemcpyHostToDevice);
  CUBLAS(cublasDspmv(h, CUBLAS_FILL_MODE_LOWER, n, &alpha, dap, dx, 1, &beta, dy, 1));
  back(y, dy, n);
  for (int i = 0; i < n; i++) {
    double acc = 0;
    for (int j = 0; j < n; j++) acc += s[i][j] * x[j];
    CHECK(fabs(y[i] - (alpha * acc + beta * yref[i])) < 1e-12, "dspmv [%d]", i);
  }
  cudaMemcpy(dy, yref, sizeof yref, cudaMemcpyHostToDevice);
  CUBLAS(cublasDspr2(h, CUBLAS_FILL_MODE_LOWER, n, &alpha, dx, 1, dy, 1, dap));
  double ap2[n * (n + 1) / 2];
  back(ap2, dap, n * (n + 1) / 2);
  for (int j = 0, p = 0; j < n; j++)
    for (int i = j; i < n; i++, p++)
      CHECK(fabs(ap2[p] - (s[i][j] + alpha * (x[i] * yref[j] + yref[i] * x[j]))) < 1e-12, "dspr2 (%d,%d)", i, j);
  cudaFree(dab), cudaFree(dx), cudaFree(dy), cudaFree(dtb), cudaFree(dap);
}

static void rank_updates_and_rotations(cublasHandle_t h) {
  // her: A += alpha x x^H on the upper triangle; the diagonal stays real.
  const int n = 3;
  cuComplex x[n] = {make_cuComplex(1, 2), make_cuComplex(0, -1), make_cuComplex(3, 0.5f)}, a[n * n];
  memset(a, 0, sizeof a);
  float alpha = 0.5f;
  cuComplex *dx = dev(x, n), *da = dev(a, n * n);
  CUBLAS(cublasCher(h, CUBLAS_FILL_MODE_UPPER, n, &alpha, dx, 1, da, n));
  back(a, da, n * n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i <= j; i++) {
      cuComplex want = cuCmulf(make_cuComplex(alpha, 0), cuCmulf(x[i], cuConjf(x[j])));
      CHECK(fabsf(a[j * n + i].x - want.x) < 1e-6 && fabsf(a[j * n + i].y - want.y) < 1e-6, "cher (%d,%d)", i, j);
    }
  // rotg on host scalars: r = hypot(a, b), c a + s b = r, -s a + c b = 0.
  float ra = 3, rb = 4, c, s;
  CUBLAS(cublasSrotg(h, &ra, &rb, &c, &s));
  CHECK(fabsf(fabsf(ra) - 5) < 1e-6 && fabsf(c * 3 + s * 4 - ra) < 1e-6 && fabsf(-s * 3 + c * 4) < 1e-6, "srotg r=%g c=%g s=%g", ra, c, s);
  // rotm with flag -1 (full H): x' = h11 x + h12 y, y' = h21 x + h22 y.
  float xv[4] = {1, 2, 3, 4}, yv[4] = {5, 6, 7, 8}, param[5] = {-1, 2, 3, 4, 5};
  float *dxv = dev(xv, 4), *dyv = dev(yv, 4);
  CUBLAS(cublasSrotm(h, 4, dxv, 1, dyv, 1, param));
  float xo[4], yo[4];
  back(xo, dxv, 4), back(yo, dyv, 4);
  for (int i = 0; i < 4; i++)
    CHECK(xo[i] == 2 * xv[i] + 4 * yv[i] && yo[i] == 3 * xv[i] + 5 * yv[i], "srotm [%d]: %g %g", i, xo[i], yo[i]);
  cudaFree(dx), cudaFree(da), cudaFree(dxv), cudaFree(dyv);
}

static void syrkx_and_grouped(cublasHandle_t h) {
  unsigned seed = 8;
  const int n = 4, k = 3;
  double a[n * k], b[n * k], c[n * n], cref[n * n];
  for (double& v : a) v = rnd(&seed);
  for (double& v : b) v = rnd(&seed);
  for (int i = 0; i < n * n; i++) c[i] = cref[i] = rnd(&seed);
  double alpha = 1.5, beta = 0.5, *da = dev(a, n * k), *db = dev(b, n * k), *dc = dev(c, n * n);
  CUBLAS(cublasDsyrkx(h, CUBLAS_FILL_MODE_LOWER, CUBLAS_OP_N, n, k, &alpha, da, n, db, n, &beta, dc, n));
  back(c, dc, n * n);
  for (int j = 0; j < n; j++)
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int p = 0; p < k; p++) s += a[p * n + i] * b[p * n + j];
      double want = i >= j ? alpha * s + beta * cref[j * n + i] : cref[j * n + i];
      CHECK(fabs(c[j * n + i] - want) < 1e-12, "dsyrkx (%d,%d)", i, j);
    }
  // Two groups: one 2x2x2 product, then two 3x1x2 products, from one pointer array each.
  float m0[4] = {1, 2, 3, 4}, m1[6] = {1, 2, 3, 4, 5, 6}, out[4 + 3 + 3] = {0};
  float *d0 = dev(m0, 4), *d1 = dev(m1, 6), *dout = dev(out, 10);
  const float *pa[3] = {d0, d1, d1}, *pb[3] = {d0, d0, d0 + 2};
  float* pc[3] = {dout, dout + 4, dout + 7};
  const float **dpa = dev(pa, 3), **dpb = dev(pb, 3);
  float** dpc = dev(pc, 3);
  cublasOperation_t ta[2] = {CUBLAS_OP_N, CUBLAS_OP_N}, tb[2] = {CUBLAS_OP_N, CUBLAS_OP_N};
  int ms[2] = {2, 3}, ns[2] = {2, 1}, ks[2] = {2, 2}, ldas[2] = {2, 3}, ldbs[2] = {2, 2}, ldcs[2] = {2, 3}, sizes[2] = {1, 2};
  float alphas[2] = {1, 1}, betas[2] = {0, 0};
  CUBLAS(cublasSgemmGroupedBatched(h, ta, tb, ms, ns, ks, alphas, dpa, ldas, dpb, ldbs, betas, dpc, ldcs, 2, sizes));
  back(out, dout, 10);
  // Group 0: [1 3; 2 4]^2 = [7 15; 10 22]; group 1: [1 4; 2 5; 3 6] * (1,2) and * (3,4).
  float want[10] = {7, 10, 15, 22, 9, 12, 15, 19, 26, 33};
  for (int i = 0; i < 10; i++) CHECK(out[i] == want[i], "grouped [%d] = %g", i, out[i]);
  cudaFree(da), cudaFree(db), cudaFree(dc), cudaFree(d0), cudaFree(d1), cudaFree(dout), cudaFree(dpa), cudaFree(dpb), cudaFree(dpc);
}

static void typed_level1(cublasHandle_t h) {
  // AxpyEx in half precision with a float scalar, then DotEx and Nrm2Ex into floats.
  __half x[4], y[4];
  for (int i = 0; i < 4; i++) x[i] = __float2half(i + 1.f), y[i] = __float2half(0.5f);
  __half *dx = dev(x, 4), *dy = dev(y, 4);
  float alpha = 2, dot = 0, nrm = 0;
  CUBLAS(cublasAxpyEx(h, 4, &alpha, CUDA_R_32F, dx, CUDA_R_16F, 1, dy, CUDA_R_16F, 1, CUDA_R_32F));
  back(y, dy, 4);
  for (int i = 0; i < 4; i++) CHECK(__half2float(y[i]) == 2 * (i + 1) + 0.5f, "axpyEx [%d] %g", i, __half2float(y[i]));
  // The result has the vectors' type (half here), computed in float.
  __half hdot, hnrm;
  CUBLAS(cublasDotEx(h, 4, dx, CUDA_R_16F, 1, dx, CUDA_R_16F, 1, &hdot, CUDA_R_16F, CUDA_R_32F));
  CUBLAS(cublasNrm2Ex(h, 4, dx, CUDA_R_16F, 1, &hnrm, CUDA_R_16F, CUDA_R_32F));
  CHECK(__half2float(hdot) == 30 && fabsf(__half2float(hnrm) - sqrtf(30)) < 4e-3, "dotEx %g nrm2Ex %g", __half2float(hdot), __half2float(hnrm));
  CHECK(cublasDotEx(h, 4, dx, CUDA_R_16F, 1, dx, CUDA_R_16F, 1, &dot, CUDA_R_32F, CUDA_R_32F) == CUBLAS_STATUS_NOT_SUPPORTED,
        "half vectors with a float result");
  float fx[2] = {3, 4};
  float* dfx = dev(fx, 2);
  CUBLAS(cublasNrm2Ex(h, 2, dfx, CUDA_R_32F, 1, &nrm, CUDA_R_32F, CUDA_R_32F));
  CHECK(nrm == 5, "nrm2Ex float %g", nrm);
  cudaFree(dfx);
  CHECK(cublasDotEx(h, 4, dx, CUDA_R_8I, 1, dx, CUDA_R_8I, 1, &dot, CUDA_R_32F, CUDA_R_32F) == CUBLAS_STATUS_NOT_SUPPORTED, "int8 dotEx");
  cudaFree(dx), cudaFree(dy);
}

int main() {
  cublasHandle_t h;
  CUBLAS(cublasCreate(&h));
  banded_and_packed(h);
  rank_updates_and_rotations(h);
  syrkx_and_grouped(h);
  typed_level1(h);
  CUBLAS(cublasDestroy(h));
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS cublas_families\n");
  return 0;
}
