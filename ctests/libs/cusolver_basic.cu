// cuSOLVER's dense API through our libcusolver on the CPU device; every result is
// checked by reconstruction or against a plain loop computed here.
// link: -lcusolver
#include <cuda_runtime.h>
#include <cusolverDn.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>

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
#define SOLVER(call) CHECK((call) == CUSOLVER_STATUS_SUCCESS, "%s", #call)
#define CUDA(call) CHECK((call) == cudaSuccess, "%s", #call)

static double rnd(unsigned* s) {
  *s = *s * 1664525u + 1013904223u;
  return ((*s >> 8) & 0xffff) / 32768.0 - 1.0;
}

template <typename T>
static T* dev(const T* h, size_t n) {
  T* d = nullptr;
  CUDA(cudaMalloc(&d, n * sizeof(T) + 8));
  if (h) CUDA(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
static void back(T* h, const T* d, size_t n) {
  CUDA(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
}
static int info_of(const int* d) {
  int i = -99;
  back(&i, d, 1);
  return i;
}

// a (n x n, column-major) times x (n x k) == b?
static double residual(const double* a, const double* x, const double* b, int n, int k) {
  double worst = 0;
  for (int c = 0; c < k; c++)
    for (int i = 0; i < n; i++) {
      double s = 0;
      for (int p = 0; p < n; p++) s += a[p * n + i] * x[c * n + p];
      worst = fmax(worst, fabs(s - b[c * n + i]));
    }
  return worst;
}

static void test_lu_cholesky(cusolverDnHandle_t h) {
  unsigned seed = 2;
  const int n = 8, k = 2;
  double a[n * n], b[n * k], x[n * k];
  for (int i = 0; i < n * n; i++) a[i] = rnd(&seed) + (i % (n + 1) == 0 ? 4 : 0);
  for (int i = 0; i < n * k; i++) b[i] = rnd(&seed);
  int lwork = -1, *dinfo = dev<int>(nullptr, 1), *dpiv = dev<int>(nullptr, n);
  for (int pivot = 1; pivot >= 0; pivot--) {
    double *da = dev(a, n * n), *db = dev(b, n * k);
    SOLVER(cusolverDnDgetrf_bufferSize(h, n, n, da, n, &lwork));
    CHECK(lwork >= 0, "lwork %d", lwork);
    double* work = dev<double>(nullptr, lwork + 1);
    SOLVER(cusolverDnDgetrf(h, n, n, da, n, work, pivot ? dpiv : nullptr, dinfo));
    CHECK(info_of(dinfo) == 0, "getrf info");
    SOLVER(cusolverDnDgetrs(h, CUBLAS_OP_N, n, k, da, n, pivot ? dpiv : nullptr, db, n, dinfo));
    back(x, db, n * k);
    CHECK(residual(a, x, b, n, k) < 1e-12, "getrf/getrs pivot=%d residual %g", pivot, residual(a, x, b, n, k));
    cudaFree(da), cudaFree(db), cudaFree(work);
  }
  // Cholesky of S = A A^T + n I (lower), then solve.
  double s[n * n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double v = i == j ? n : 0;
      for (int p = 0; p < n; p++) v += a[p * n + i] * a[p * n + j];
      s[j * n + i] = v;
    }
  double *ds = dev(s, n * n), *db = dev(b, n * k);
  int lw = 0;
  SOLVER(cusolverDnDpotrf_bufferSize(h, CUBLAS_FILL_MODE_LOWER, n, ds, n, &lw));
  double* pw = dev<double>(nullptr, lw + 1);
  SOLVER(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_LOWER, n, ds, n, pw, lw, dinfo));
  CHECK(info_of(dinfo) == 0, "potrf info");
  SOLVER(cusolverDnDpotrs(h, CUBLAS_FILL_MODE_LOWER, n, k, ds, n, db, n, dinfo));
  back(x, db, n * k);
  CHECK(residual(s, x, b, n, k) < 1e-12, "potrf/potrs residual %g", residual(s, x, b, n, k));
  // A matrix that is not positive definite: info = the order of the failing minor.
  double bad[4] = {1, 2, 2, 1};
  double* dbad = dev(bad, 4);
  SOLVER(cusolverDnDpotrf(h, CUBLAS_FILL_MODE_UPPER, 2, dbad, 2, pw, lw, dinfo));
  CHECK(info_of(dinfo) == 2, "potrf of an indefinite matrix: info %d", info_of(dinfo));
  cudaFree(ds), cudaFree(db), cudaFree(dbad), cudaFree(dinfo), cudaFree(dpiv), cudaFree(pw);
}

static void test_qr_svd_eig(cusolverDnHandle_t h) {
  unsigned seed = 9;
  const int m = 7, n = 4;
  double a[m * n], q[m * n], r[m * n], tau[n];
  for (double& v : a) v = rnd(&seed);
  double *da = dev(a, m * n), *dtau = dev<double>(nullptr, n);
  int* dinfo = dev<int>(nullptr, 1);
  int lw = 0, lw2 = 0;
  SOLVER(cusolverDnDgeqrf_bufferSize(h, m, n, da, m, &lw));
  SOLVER(cusolverDnDorgqr_bufferSize(h, m, n, n, da, m, dtau, &lw2));
  lw = lw > lw2 ? lw : lw2;
  SOLVER(cusolverDnDgesvd_bufferSize(h, m, n, &lw2));
  lw = lw > lw2 ? lw : lw2;
  SOLVER(cusolverDnDsyevd_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, da, n, dtau, &lw2));
  lw = lw > lw2 ? lw : lw2;
  double *work = dev<double>(nullptr, lw + 1), *rwork = dev<double>(nullptr, n);
  SOLVER(cusolverDnDgeqrf(h, m, n, da, m, dtau, work, lw, dinfo));
  CHECK(info_of(dinfo) == 0, "geqrf info");
  back(r, da, m * n);
  SOLVER(cusolverDnDorgqr(h, m, n, n, da, m, dtau, work, lw, dinfo));
  back(q, da, m * n);
  double worst = 0;  // Q R == A, with R the upper triangle of geqrf's output
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double s = 0;
      for (int p = 0; p <= j; p++) s += q[p * m + i] * r[j * m + p];
      worst = fmax(worst, fabs(s - a[j * m + i]));
    }
  CHECK(worst < 1e-12, "geqrf/orgqr: |QR - A| = %g", worst);
  (void)tau;

  // SVD: singular values squared are the eigenvalues of A^T A; U S V^T == A.
  double *da2 = dev(a, m * n), *ds = dev<double>(nullptr, n), *du = dev<double>(nullptr, m * m), *dvt = dev<double>(nullptr, n * n);
  SOLVER(cusolverDnDgesvd(h, 'A', 'A', m, n, da2, m, ds, du, m, dvt, n, work, lw, rwork, dinfo));
  CHECK(info_of(dinfo) == 0, "gesvd info");
  double s[n], u[m * m], vt[n * n];
  back(s, ds, n), back(u, du, m * m), back(vt, dvt, n * n);
  worst = 0;
  for (int j = 0; j < n; j++)
    for (int i = 0; i < m; i++) {
      double v = 0;
      for (int p = 0; p < n; p++) v += u[p * m + i] * s[p] * vt[j * n + p];
      worst = fmax(worst, fabs(v - a[j * m + i]));
    }
  CHECK(worst < 1e-12, "gesvd: |U S V^T - A| = %g", worst);
  for (int p = 1; p < n; p++) CHECK(s[p - 1] >= s[p], "singular values descending");
  CHECK(cusolverDnDgesvd(h, 'A', 'A', n, m, da2, n, ds, du, n, dvt, m, work, lw, rwork, dinfo) == CUSOLVER_STATUS_INVALID_VALUE,
        "gesvd with m < n must be refused");

  // Symmetric eigenproblem: A^T A = V W V^T, W = S^2 ascending.
  double ata[n * n];
  for (int i = 0; i < n; i++)
    for (int j = 0; j < n; j++) {
      double v = 0;
      for (int p = 0; p < m; p++) v += a[i * m + p] * a[j * m + p];
      ata[j * n + i] = v;
    }
  double *dm = dev(ata, n * n), *dw = dev<double>(nullptr, n), w[n], vecs[n * n];
  SOLVER(cusolverDnDsyevd(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, n, dm, n, dw, work, lw, dinfo));
  CHECK(info_of(dinfo) == 0, "syevd info");
  back(w, dw, n), back(vecs, dm, n * n);
  for (int p = 0; p < n; p++) CHECK(fabs(w[p] - s[n - 1 - p] * s[n - 1 - p]) < 1e-10, "eigenvalue %d %g vs %g", p, w[p], s[n - 1 - p] * s[n - 1 - p]);
  worst = 0;
  for (int c = 0; c < n; c++)
    for (int i = 0; i < n; i++) {
      double v = 0;
      for (int p = 0; p < n; p++) v += ata[p * n + i] * vecs[c * n + p];
      worst = fmax(worst, fabs(v - w[c] * vecs[c * n + i]));
    }
  CHECK(worst < 1e-10, "syevd: |A v - w v| = %g", worst);
  // The 64-bit API over the same matrix.
  cusolverDnParams_t params;
  SOLVER(cusolverDnCreateParams(&params));
  double* dm2 = dev(ata, n * n);
  size_t dbytes = 1, hbytes = 1;
  SOLVER(cusolverDnXsyevd_bufferSize(h, params, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_UPPER, n, CUDA_R_64F, dm2, n, CUDA_R_64F, dw,
                                     CUDA_R_64F, &dbytes, &hbytes));
  void* xdev = dev<char>(nullptr, dbytes + 1);
  void* xhost = malloc(hbytes + 1);
  SOLVER(cusolverDnXsyevd(h, params, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_UPPER, n, CUDA_R_64F, dm2, n, CUDA_R_64F, dw, CUDA_R_64F,
                          xdev, dbytes, xhost, hbytes, dinfo));
  double w2[n];
  back(w2, dw, n);
  for (int p = 0; p < n; p++) CHECK(fabs(w2[p] - w[p]) < 1e-10, "Xsyevd eigenvalue %d", p);
  CHECK(cusolverDnXsyevd(h, params, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_UPPER, n, CUDA_R_64F, dm2, n, CUDA_R_32F, dw, CUDA_R_64F,
                         xdev, dbytes, xhost, hbytes, dinfo) == CUSOLVER_STATUS_INVALID_VALUE,
        "mismatched W type");
  SOLVER(cusolverDnDestroyParams(params));
  cudaFree(da), cudaFree(dtau), cudaFree(da2), cudaFree(ds), cudaFree(du), cudaFree(dvt), cudaFree(dm), cudaFree(dw), cudaFree(dm2);
  cudaFree(dinfo), cudaFree(work), cudaFree(rwork), cudaFree(xdev);
  free(xhost);
}

static void test_complex_and_batched(cusolverDnHandle_t h) {
  // Hermitian 2x2 [[2, i], [-i, 2]]: eigenvalues 1 and 3.
  cuComplex m[4] = {make_cuComplex(2, 0), make_cuComplex(0, -1), make_cuComplex(0, 1), make_cuComplex(2, 0)};
  cuComplex* dm = dev(m, 4);
  float* dw = dev<float>(nullptr, 2);
  int* dinfo = dev<int>(nullptr, 4);
  int lw = 0;
  SOLVER(cusolverDnCheevd_bufferSize(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, 2, dm, 2, dw, &lw));
  cuComplex* cw = dev<cuComplex>(nullptr, lw + 1);
  SOLVER(cusolverDnCheevd(h, CUSOLVER_EIG_MODE_NOVECTOR, CUBLAS_FILL_MODE_LOWER, 2, dm, 2, dw, cw, lw, dinfo));
  float w[2];
  back(w, dw, 2);
  CHECK(fabsf(w[0] - 1) < 1e-5 && fabsf(w[1] - 3) < 1e-5, "cheevd %g %g", w[0], w[1]);
  // potrfBatched + potrsBatched over two SPD 3x3 systems.
  double s[2][9] = {{4, 1, 0, 1, 3, 1, 0, 1, 2}, {5, 2, 1, 2, 6, 2, 1, 2, 7}}, fac[2][9], rhs[2][3] = {{1, 2, 3}, {-1, 0, 1}};
  double *ds = dev(&s[0][0], 18), *db = dev(&rhs[0][0], 6);
  double *pa[2] = {ds, ds + 9}, *pb[2] = {db, db + 3};
  double **dpa = dev(pa, 2), **dpb = dev(pb, 2);
  SOLVER(cusolverDnDpotrfBatched(h, CUBLAS_FILL_MODE_LOWER, 3, dpa, 3, dinfo, 2));
  int infos[2];
  back(infos, dinfo, 2);
  CHECK(infos[0] == 0 && infos[1] == 0, "potrfBatched infos %d %d", infos[0], infos[1]);
  SOLVER(cusolverDnDpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, 3, 1, dpa, 3, dpb, 3, dinfo, 2));
  double x[2][3];
  back(&x[0][0], db, 6);
  back(&fac[0][0], ds, 18);
  for (int p = 0; p < 2; p++) CHECK(residual(s[p], x[p], rhs[p], 3, 1) < 1e-12, "potrsBatched %d residual", p);
  CHECK(cusolverDnDpotrsBatched(h, CUBLAS_FILL_MODE_LOWER, 3, 2, dpa, 3, dpb, 3, dinfo, 2) == CUSOLVER_STATUS_INVALID_VALUE, "nrhs != 1");
  // syevjBatched: two diagonal-ish 2x2 matrices stored back to back.
  double e[8] = {2, 1, 1, 2, 5, 0, 0, 1};
  double *de = dev(e, 8), *dew = dev<double>(nullptr, 4), ew[4];
  syevjInfo_t params;
  SOLVER(cusolverDnCreateSyevjInfo(&params));
  int lj = 0;
  SOLVER(cusolverDnDsyevjBatched_bufferSize(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, 2, de, 2, dew, &lj, params, 2));
  double* jw = dev<double>(nullptr, lj + 1);
  SOLVER(cusolverDnDsyevjBatched(h, CUSOLVER_EIG_MODE_VECTOR, CUBLAS_FILL_MODE_LOWER, 2, de, 2, dew, jw, lj, dinfo, params, 2));
  back(ew, dew, 4);
  CHECK(fabs(ew[0] - 1) < 1e-12 && fabs(ew[1] - 3) < 1e-12 && fabs(ew[2] - 1) < 1e-12 && fabs(ew[3] - 5) < 1e-12, "syevjBatched %g %g %g %g",
        ew[0], ew[1], ew[2], ew[3]);
#ifndef NVIDIA_REFERENCE
  // Ours runs no Jacobi sweeps, so it has no Jacobi residual to report.
  double residual_value;
  CHECK(cusolverDnXsyevjGetResidual(h, params, &residual_value) == CUSOLVER_STATUS_NOT_SUPPORTED, "no Jacobi residual");
#endif
  SOLVER(cusolverDnDestroySyevjInfo(params));
  cudaFree(dm), cudaFree(dw), cudaFree(dinfo), cudaFree(ds), cudaFree(db), cudaFree(dpa), cudaFree(dpb), cudaFree(de), cudaFree(dew);
  cudaFree(cw), cudaFree(jw);
}

static void test_errors(cusolverDnHandle_t h) {
  double* d = dev<double>(nullptr, 16);
  int* dinfo = dev<int>(nullptr, 1);
  CHECK(cusolverDnDgetrf(h, -1, 2, d, 2, nullptr, nullptr, dinfo) == CUSOLVER_STATUS_INVALID_VALUE, "m < 0");
  CHECK(cusolverDnDgetrf(h, 4, 4, d, 3, nullptr, nullptr, dinfo) == CUSOLVER_STATUS_INVALID_VALUE, "lda < m");
#ifndef NVIDIA_REFERENCE
  // Ours refuses a matrix past the end of its allocation (NVIDIA's GPU would fault).
  CHECK(cusolverDnDgetrf(h, 5, 5, d, 5, nullptr, nullptr, dinfo) == CUSOLVER_STATUS_INVALID_VALUE, "matrix past its allocation");
#endif
  cusolverDnHandle_t dead;
  SOLVER(cusolverDnCreate(&dead));
  SOLVER(cusolverDnDestroy(dead));
#ifndef NVIDIA_REFERENCE
  // NVIDIA's library dereferences a destroyed handle; ours recognizes it.
  CHECK(cusolverDnDpotrf(dead, CUBLAS_FILL_MODE_LOWER, 2, d, 2, d, 1, dinfo) == CUSOLVER_STATUS_NOT_INITIALIZED, "destroyed handle");
#endif
  int v = 0;
  SOLVER(cusolverGetVersion(&v));
  CHECK(v >= 11000, "version %d", v);
  cudaFree(d), cudaFree(dinfo);
}

int main() {
  CUDA(cudaFree(0));
  cusolverDnHandle_t h;
  SOLVER(cusolverDnCreate(&h));
  cudaStream_t s;
  CUDA(cudaStreamCreate(&s));
  SOLVER(cusolverDnSetStream(h, s));
  test_lu_cholesky(h);
  test_qr_svd_eig(h);
  test_complex_and_batched(h);
  test_errors(h);
  SOLVER(cusolverDnDestroy(h));
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS cusolver_basic\n");
  return 0;
}
