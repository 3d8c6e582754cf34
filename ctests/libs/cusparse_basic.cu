// cuSPARSE through our libcusparse on the CPU device: the generic API (SpMV on CSR/CSC/COO,
// SpMM in both dense orders, SpGEMM, dense <-> sparse), csr2cscEx2, coo2csr/csr2coo, sorting
// with a permutation and gather, csrgeam2, and error codes. Every result is checked against
// plain loops over the dense matrices computed here.
// link: -lcusparse -lcudart
#include <cuda_runtime.h>
#include <cusparse.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
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
#define SP(call) CHECK((call) == CUSPARSE_STATUS_SUCCESS, "%s", #call)
#define CUDA(call) CHECK((call) == cudaSuccess, "%s", #call)

static unsigned seed = 12345;
static double rnd() {
  seed = seed * 1664525u + 1013904223u;
  return ((seed >> 8) & 0xffff) / 32768.0 - 1.0;
}

template <typename T>
static T* dev(const T* h, size_t n) {
  T* d = nullptr;
  CUDA(cudaMalloc(&d, n * sizeof(T) + 8));
  if (n) CUDA(cudaMemcpy(d, h, n * sizeof(T), cudaMemcpyHostToDevice));
  return d;
}
template <typename T>
static void get(T* h, const T* d, size_t n) {
  if (n) CUDA(cudaMemcpy(h, d, n * sizeof(T), cudaMemcpyDeviceToHost));
}
static bool near(double a, double b) { return fabs(a - b) <= 1e-9 * (1 + fabs(b)); }

// A random m x n dense matrix (row-major) with about a third of its entries nonzero, and its CSR form.
struct Csr {
  int m, n, nnz;
  double* dense;
  int *off, *idx;
  double* val;
};
static Csr random_csr(int m, int n, int base) {
  Csr a = {m, n, 0, (double*)calloc(m * n, 8), (int*)malloc((m + 1) * 4), (int*)malloc(m * n * 4 + 4), (double*)malloc(m * n * 8 + 8)};
  a.off[0] = base;
  for (int i = 0; i < m; i++) {
    for (int j = 0; j < n; j++)
      if (rnd() > 0.35) {
        a.dense[i * n + j] = floor(rnd() * 8);
        if (a.dense[i * n + j] == 0) a.dense[i * n + j] = 1;
        a.idx[a.nnz] = j + base;
        a.val[a.nnz++] = a.dense[i * n + j];
      }
    a.off[i + 1] = a.nnz + base;
  }
  return a;
}

static void spmv_tests(cusparseHandle_t h) {
  for (int base = 0; base < 2; base++) {
    Csr a = random_csr(7, 5, base);
    int *d_off = dev(a.off, a.m + 1), *d_idx = dev(a.idx, a.nnz);
    double* d_val = dev(a.val, a.nnz);
    double x[7], y0[7], y[7];
    for (int i = 0; i < 7; i++) x[i] = rnd(), y0[i] = rnd();
    double *d_x = dev(x, 7), *d_y = dev(y0, 7);
    // COO rows of the same matrix.
    int rows[64];
    for (int i = 0; i < a.m; i++)
      for (int e = a.off[i] - base; e < a.off[i + 1] - base; e++) rows[e] = i + base;
    int* d_rows = dev(rows, a.nnz);
    for (int fmt = 0; fmt < 3; fmt++)
      for (int t = 0; t < 2; t++) {
        cusparseSpMatDescr_t A;
        if (fmt == 0)
          SP(cusparseCreateCsr(&A, a.m, a.n, a.nnz, d_off, d_idx, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, (cusparseIndexBase_t)base,
                               CUDA_R_64F));
        else if (fmt == 1)
          SP(cusparseCreateCoo(&A, a.m, a.n, a.nnz, d_rows, d_idx, d_val, CUSPARSE_INDEX_32I, (cusparseIndexBase_t)base, CUDA_R_64F));
        else  // The CSR arrays read as CSC are the transpose.
          SP(cusparseCreateCsc(&A, a.n, a.m, a.nnz, d_off, d_idx, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, (cusparseIndexBase_t)base,
                               CUDA_R_64F));
        bool trans_of_dense = (t == 1) != (fmt == 2);
        int rows_out = trans_of_dense ? a.n : a.m, cols_in = trans_of_dense ? a.m : a.n;
        CUDA(cudaMemcpy(d_y, y0, 7 * 8, cudaMemcpyHostToDevice));
        cusparseDnVecDescr_t X, Y;
        SP(cusparseCreateDnVec(&X, cols_in, d_x, CUDA_R_64F));
        SP(cusparseCreateDnVec(&Y, rows_out, d_y, CUDA_R_64F));
        double alpha = 2, beta = -0.5;
        size_t size = 1;
        cusparseOperation_t op = t ? CUSPARSE_OPERATION_TRANSPOSE : CUSPARSE_OPERATION_NON_TRANSPOSE;
        SP(cusparseSpMV_bufferSize(h, op, &alpha, A, X, &beta, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, &size));
        SP(cusparseSpMV(h, op, &alpha, A, X, &beta, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr));
        CUDA(cudaDeviceSynchronize());
        get(y, d_y, rows_out);
        for (int i = 0; i < rows_out; i++) {
          double s = 0;
          for (int j = 0; j < cols_in; j++) s += (trans_of_dense ? a.dense[j * a.n + i] : a.dense[i * a.n + j]) * x[j];
          CHECK(near(y[i], alpha * s + beta * y0[i]), "SpMV fmt %d op %d base %d row %d: %g vs %g", fmt, t, base, i, y[i],
                alpha * s + beta * y0[i]);
        }
        SP(cusparseDestroyDnVec(X));
        SP(cusparseDestroyDnVec(Y));
        SP(cusparseDestroySpMat(A));
      }
  }
}

static void spmm_tests(cusparseHandle_t h) {
  Csr a = random_csr(6, 4, 0);
  int *d_off = dev(a.off, a.m + 1), *d_idx = dev(a.idx, a.nnz);
  float val[64];
  for (int e = 0; e < a.nnz; e++) val[e] = (float)a.val[e];
  float* d_val = dev(val, a.nnz);
  cusparseSpMatDescr_t A;
  SP(cusparseCreateCsr(&A, a.m, a.n, a.nnz, d_off, d_idx, d_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_32F));
  const int k = 3;
  for (int order = 1; order <= 2; order++) {
    bool row = order == CUSPARSE_ORDER_ROW;
    int ldb = row ? k + 1 : a.n + 2, ldc = row ? k + 2 : a.m + 1;
    float b[64], c[64], c0[64];
    for (int i = 0; i < 64; i++) b[i] = (float)rnd(), c0[i] = (float)rnd();
    float *d_b = dev(b, 64), *d_c = dev(c0, 64);
    cusparseDnMatDescr_t B, C;
    SP(cusparseCreateDnMat(&B, a.n, k, ldb, d_b, CUDA_R_32F, (cusparseOrder_t)order));
    SP(cusparseCreateDnMat(&C, a.m, k, ldc, d_c, CUDA_R_32F, (cusparseOrder_t)order));
    float alpha = 1.5f, beta = 0.25f;
    size_t size;
    SP(cusparseSpMM_bufferSize(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, CUDA_R_32F,
                               CUSPARSE_SPMM_ALG_DEFAULT, &size));
    SP(cusparseSpMM(h, CUSPARSE_OPERATION_NON_TRANSPOSE, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, B, &beta, C, CUDA_R_32F,
                    CUSPARSE_SPMM_ALG_DEFAULT, nullptr));
    CUDA(cudaDeviceSynchronize());
    get(c, d_c, 64);
    for (int i = 0; i < a.m; i++)
      for (int j = 0; j < k; j++) {
        double s = 0;
        for (int p = 0; p < a.n; p++) s += a.dense[i * a.n + p] * b[row ? p * ldb + j : j * ldb + p];
        int at = row ? i * ldc + j : j * ldc + i;
        CHECK(fabs(c[at] - (alpha * s + beta * c0[at])) < 1e-4, "SpMM order %d (%d,%d): %g vs %g", order, i, j, c[at], alpha * s + beta * c0[at]);
      }
    SP(cusparseDestroyDnMat(B));
    SP(cusparseDestroyDnMat(C));
  }
  SP(cusparseDestroySpMat(A));
}

static void conversion_tests(cusparseHandle_t h) {
  Csr a = random_csr(5, 8, 0);
  int *d_off = dev(a.off, a.m + 1), *d_idx = dev(a.idx, a.nnz);
  double* d_val = dev(a.val, a.nnz);
  int *d_cptr, *d_ridx;
  double* d_cval;
  CUDA(cudaMalloc(&d_cptr, (a.n + 1) * 4));
  CUDA(cudaMalloc(&d_ridx, a.nnz * 4));
  CUDA(cudaMalloc(&d_cval, a.nnz * 8));
  size_t size;
  SP(cusparseCsr2cscEx2_bufferSize(h, a.m, a.n, a.nnz, d_val, d_off, d_idx, d_cval, d_cptr, d_ridx, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC,
                                   CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, &size));
  SP(cusparseCsr2cscEx2(h, a.m, a.n, a.nnz, d_val, d_off, d_idx, d_cval, d_cptr, d_ridx, CUDA_R_64F, CUSPARSE_ACTION_NUMERIC,
                        CUSPARSE_INDEX_BASE_ZERO, CUSPARSE_CSR2CSC_ALG1, nullptr));
  int cptr[16], ridx[64];
  double cval[64];
  get(cptr, d_cptr, a.n + 1);
  get(ridx, d_ridx, a.nnz);
  get(cval, d_cval, a.nnz);
  int e = 0;
  for (int j = 0; j < a.n; j++) {
    CHECK(cptr[j] == e, "csc col ptr %d: %d vs %d", j, cptr[j], e);
    for (int i = 0; i < a.m; i++)
      if (a.dense[i * a.n + j] != 0) {
        CHECK(ridx[e] == i && cval[e] == a.dense[i * a.n + j], "csc entry %d: row %d val %g", e, ridx[e], cval[e]);
        e++;
      }
  }
  // csr2coo and back.
  int* d_rows;
  CUDA(cudaMalloc(&d_rows, a.nnz * 4));
  SP(cusparseXcsr2coo(h, d_off, a.nnz, a.m, d_rows, CUSPARSE_INDEX_BASE_ZERO));
  int rows[64], off[16];
  get(rows, d_rows, a.nnz);
  for (int i = 0; i < a.m; i++)
    for (int q = a.off[i]; q < a.off[i + 1]; q++) CHECK(rows[q] == i, "csr2coo entry %d: %d vs %d", q, rows[q], i);
  int* d_off2;
  CUDA(cudaMalloc(&d_off2, (a.m + 1) * 4));
  SP(cusparseXcoo2csr(h, d_rows, a.nnz, a.m, d_off2, CUSPARSE_INDEX_BASE_ZERO));
  get(off, d_off2, a.m + 1);
  CHECK(!memcmp(off, a.off, (a.m + 1) * 4), "coo2csr differs");

  // Dense -> CSR -> dense through the generic API.
  double dense_cm[64];
  for (int i = 0; i < a.m; i++)
    for (int j = 0; j < a.n; j++) dense_cm[j * a.m + i] = a.dense[i * a.n + j];
  double* d_dense = dev(dense_cm, a.m * a.n);
  cusparseDnMatDescr_t D;
  SP(cusparseCreateDnMat(&D, a.m, a.n, a.m, d_dense, CUDA_R_64F, CUSPARSE_ORDER_COL));
  int* d_noff;
  CUDA(cudaMalloc(&d_noff, (a.m + 1) * 4));
  cusparseSpMatDescr_t S;
  SP(cusparseCreateCsr(&S, a.m, a.n, 0, d_noff, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  SP(cusparseDenseToSparse_bufferSize(h, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, &size));
  SP(cusparseDenseToSparse_analysis(h, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr));
  int64_t r, c, nnz;
  SP(cusparseSpMatGetSize(S, &r, &c, &nnz));
  CHECK(r == a.m && c == a.n && nnz == a.nnz, "DenseToSparse nnz %lld vs %d", (long long)nnz, a.nnz);
  int* d_nidx;
  double* d_nval;
  CUDA(cudaMalloc(&d_nidx, nnz * 4));
  CUDA(cudaMalloc(&d_nval, nnz * 8));
  SP(cusparseCsrSetPointers(S, d_noff, d_nidx, d_nval));
  SP(cusparseDenseToSparse_convert(h, D, S, CUSPARSE_DENSETOSPARSE_ALG_DEFAULT, nullptr));
  int idx2[64];
  double val2[64];
  get(off, d_noff, a.m + 1);
  get(idx2, d_nidx, a.nnz);
  get(val2, d_nval, a.nnz);
  CHECK(!memcmp(off, a.off, (a.m + 1) * 4) && !memcmp(idx2, a.idx, a.nnz * 4) && !memcmp(val2, a.val, a.nnz * 8), "DenseToSparse differs");
  CUDA(cudaMemset(d_dense, 0xff, a.m * a.n * 8));
  SP(cusparseSparseToDense(h, S, D, CUSPARSE_SPARSETODENSE_ALG_DEFAULT, nullptr));
  double back[64];
  get(back, d_dense, a.m * a.n);
  CHECK(!memcmp(back, dense_cm, a.m * a.n * 8), "SparseToDense differs");
  SP(cusparseDestroySpMat(S));
  SP(cusparseDestroyDnMat(D));
}

static void sort_tests(cusparseHandle_t h) {
  // Row 0: columns 4 0 2; row 1: empty; row 2: columns 3 1.
  int off[] = {0, 3, 3, 5}, idx[] = {4, 0, 2, 3, 1};
  double val[] = {1, 2, 3, 4, 5};
  int *d_off = dev(off, 4), *d_idx = dev(idx, 5), *d_p;
  double *d_val = dev(val, 5), *d_sorted;
  CUDA(cudaMalloc(&d_p, 5 * 4));
  CUDA(cudaMalloc(&d_sorted, 5 * 8));
  cusparseMatDescr_t descr;
  SP(cusparseCreateMatDescr(&descr));
  size_t size;
  SP(cusparseXcsrsort_bufferSizeExt(h, 3, 5, 5, d_off, d_idx, &size));
  SP(cusparseCreateIdentityPermutation(h, 5, d_p));
  SP(cusparseXcsrsort(h, 3, 5, 5, descr, d_off, d_idx, d_p, nullptr));
  cusparseSpVecDescr_t X;
  cusparseDnVecDescr_t Y;
  SP(cusparseCreateSpVec(&X, 5, 5, d_p, d_sorted, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  SP(cusparseCreateDnVec(&Y, 5, d_val, CUDA_R_64F));
  SP(cusparseGather(h, Y, X));
  int got[5], p[5];
  double sorted[5];
  get(got, d_idx, 5);
  get(p, d_p, 5);
  get(sorted, d_sorted, 5);
  int want_idx[] = {0, 2, 4, 1, 3}, want_p[] = {1, 2, 0, 4, 3};
  double want_val[] = {2, 3, 1, 5, 4};
  CHECK(!memcmp(got, want_idx, 20) && !memcmp(p, want_p, 20) && !memcmp(sorted, want_val, 40), "csrsort/gather: %d %d %d %d %d", got[0], got[1],
        got[2], got[3], got[4]);
  // COO sorted by row then by column.
  int r[] = {2, 0, 1, 0, 2}, c[] = {1, 3, 0, 1, 0};
  int *d_r = dev(r, 5), *d_c = dev(c, 5);
  SP(cusparseXcoosort_bufferSizeExt(h, 3, 4, 5, d_r, d_c, &size));
  SP(cusparseCreateIdentityPermutation(h, 5, d_p));
  SP(cusparseXcoosortByRow(h, 3, 4, 5, d_r, d_c, d_p, nullptr));
  get(r, d_r, 5);
  get(c, d_c, 5);
  get(p, d_p, 5);
  int wr[] = {0, 0, 1, 2, 2}, wc[] = {1, 3, 0, 0, 1}, wp[] = {3, 1, 2, 4, 0};
  CHECK(!memcmp(r, wr, 20) && !memcmp(c, wc, 20) && !memcmp(p, wp, 20), "coosortByRow");
  SP(cusparseDestroySpVec(X));
  SP(cusparseDestroyDnVec(Y));
  SP(cusparseDestroyMatDescr(descr));
}

static void geam_and_gemm_tests(cusparseHandle_t h) {
  Csr a = random_csr(6, 7, 0), b = random_csr(6, 7, 0);
  int *d_ao = dev(a.off, 7), *d_ai = dev(a.idx, a.nnz), *d_bo = dev(b.off, 7), *d_bi = dev(b.idx, b.nnz), *d_co;
  double *d_av = dev(a.val, a.nnz), *d_bv = dev(b.val, b.nnz);
  cusparseMatDescr_t descr;
  SP(cusparseCreateMatDescr(&descr));
  CUDA(cudaMalloc(&d_co, 7 * 4));
  double alpha = 2, beta = -1;
  size_t size;
  SP(cusparseDcsrgeam2_bufferSizeExt(h, 6, 7, &alpha, descr, a.nnz, d_av, d_ao, d_ai, &beta, descr, b.nnz, d_bv, d_bo, d_bi, descr, nullptr,
                                     d_co, nullptr, &size));
  int nnz = -1;
  SP(cusparseXcsrgeam2Nnz(h, 6, 7, descr, a.nnz, d_ao, d_ai, descr, b.nnz, d_bo, d_bi, descr, d_co, &nnz, nullptr));
  int union_nnz = 0;
  for (int i = 0; i < 42; i++) union_nnz += a.dense[i] != 0 || b.dense[i] != 0;
  CHECK(nnz == union_nnz, "csrgeam2Nnz %d vs %d", nnz, union_nnz);
  int* d_ci;
  double* d_cv;
  CUDA(cudaMalloc(&d_ci, nnz * 4 + 4));
  CUDA(cudaMalloc(&d_cv, nnz * 8 + 8));
  SP(cusparseDcsrgeam2(h, 6, 7, &alpha, descr, a.nnz, d_av, d_ao, d_ai, &beta, descr, b.nnz, d_bv, d_bo, d_bi, descr, d_cv, d_co, d_ci,
                       nullptr));
  int co[8], ci[64];
  double cv[64], dense[42] = {0};
  get(co, d_co, 7);
  get(ci, d_ci, nnz);
  get(cv, d_cv, nnz);
  for (int i = 0; i < 6; i++)
    for (int e = co[i]; e < co[i + 1]; e++) dense[i * 7 + ci[e]] = cv[e];
  for (int i = 0; i < 42; i++) CHECK(near(dense[i], 2 * a.dense[i] - b.dense[i]), "csrgeam2 element %d", i);

  // SpGEMM: C = A * B^T's CSR (a 7 x 6 matrix built on the host).
  Csr bt = random_csr(7, 6, 0);
  int *d_to = dev(bt.off, 8), *d_ti = dev(bt.idx, bt.nnz), *d_po;
  double* d_tv = dev(bt.val, bt.nnz);
  CUDA(cudaMalloc(&d_po, 7 * 4));
  cusparseSpMatDescr_t A, B, C;
  SP(cusparseCreateCsr(&A, 6, 7, a.nnz, d_ao, d_ai, d_av, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  SP(cusparseCreateCsr(&B, 7, 6, bt.nnz, d_to, d_ti, d_tv, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  SP(cusparseCreateCsr(&C, 6, 6, 0, d_po, nullptr, nullptr, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  cusparseSpGEMMDescr_t g;
  SP(cusparseSpGEMM_createDescr(&g));
  double one = 1, zero = 0;
  cusparseOperation_t N = CUSPARSE_OPERATION_NON_TRANSPOSE;
  size_t s1 = 0, s2 = 0;
  void *buf1, *buf2;
  SP(cusparseSpGEMM_workEstimation(h, N, N, &one, A, B, &zero, C, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &s1, nullptr));
  CUDA(cudaMalloc(&buf1, s1));
  SP(cusparseSpGEMM_workEstimation(h, N, N, &one, A, B, &zero, C, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &s1, buf1));
  SP(cusparseSpGEMM_compute(h, N, N, &one, A, B, &zero, C, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &s2, nullptr));
  CUDA(cudaMalloc(&buf2, s2));
  SP(cusparseSpGEMM_compute(h, N, N, &one, A, B, &zero, C, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g, &s2, buf2));
  int64_t r, c, pnnz;
  SP(cusparseSpMatGetSize(C, &r, &c, &pnnz));
  int* d_pi;
  double* d_pv;
  CUDA(cudaMalloc(&d_pi, pnnz * 4 + 4));
  CUDA(cudaMalloc(&d_pv, pnnz * 8 + 8));
  SP(cusparseCsrSetPointers(C, d_po, d_pi, d_pv));
  SP(cusparseSpGEMM_copy(h, N, N, &one, A, B, &zero, C, CUDA_R_64F, CUSPARSE_SPGEMM_DEFAULT, g));
  int po[8], pi[64];
  double pv[64], prod[36] = {0};
  get(po, d_po, 7);
  get(pi, d_pi, pnnz);
  get(pv, d_pv, pnnz);
  for (int i = 0; i < 6; i++)
    for (int e = po[i]; e < po[i + 1]; e++) prod[i * 6 + pi[e]] = pv[e];
  for (int i = 0; i < 6; i++)
    for (int j = 0; j < 6; j++) {
      double s = 0;
      for (int q = 0; q < 7; q++) s += a.dense[i * 7 + q] * bt.dense[q * 6 + j];
      CHECK(near(prod[i * 6 + j], s), "SpGEMM (%d,%d): %g vs %g", i, j, prod[i * 6 + j], s);
    }
  SP(cusparseSpGEMM_destroyDescr(g));
  SP(cusparseDestroySpMat(A));
  SP(cusparseDestroySpMat(B));
  SP(cusparseDestroySpMat(C));
  SP(cusparseDestroyMatDescr(descr));
}

static void error_tests(cusparseHandle_t h) {
  CHECK(cusparseSetStream(nullptr, 0) == CUSPARSE_STATUS_NOT_INITIALIZED, "NULL handle");
  CHECK(!strcmp(cusparseGetErrorName(CUSPARSE_STATUS_INVALID_VALUE), "CUSPARSE_STATUS_INVALID_VALUE"), "error name");
  CHECK(cusparseGetErrorString(CUSPARSE_STATUS_NOT_SUPPORTED) != nullptr, "error string");
  int* d_off;
  CUDA(cudaMalloc(&d_off, 4 * 4));
  CUDA(cudaMemset(d_off, 0, 16));
  static int host_idx[4];
  static double host_val[4], x[3];
  cusparseSpMatDescr_t A;
  SP(cusparseCreateCsr(&A, 3, 3, 2, d_off, host_idx, host_val, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_32I, CUSPARSE_INDEX_BASE_ZERO, CUDA_R_64F));
  double* d_x = dev(x, 3);
  cusparseDnVecDescr_t X;
  SP(cusparseCreateDnVec(&X, 3, d_x, CUDA_R_64F));
  double alpha = 1, beta = 0;
  // Host (non-device) pointers in the matrix are refused, never read.
  CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, X, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr) ==
            CUSPARSE_STATUS_INVALID_VALUE,
        "stray pointer");
  CHECK(cusparseSpMV(h, (cusparseOperation_t)7, &alpha, A, X, &beta, X, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr) ==
            CUSPARSE_STATUS_INVALID_VALUE,
        "bad operation");
  CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, X, CUDA_R_16F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr) ==
            CUSPARSE_STATUS_NOT_SUPPORTED,
        "half compute type");
  cusparseDnVecDescr_t Y;
  SP(cusparseCreateDnVec(&Y, 4, d_x, CUDA_R_64F));
  CHECK(cusparseSpMV(h, CUSPARSE_OPERATION_NON_TRANSPOSE, &alpha, A, X, &beta, Y, CUDA_R_64F, CUSPARSE_SPMV_ALG_DEFAULT, nullptr) ==
            CUSPARSE_STATUS_INVALID_VALUE,
        "size mismatch");
  SP(cusparseDestroySpMat(A));
  CHECK(cusparseDestroySpMat(A) == CUSPARSE_STATUS_INVALID_VALUE, "double destroy");
  CHECK(cusparseCreateDnMat(nullptr, 3, 3, 1, d_x, CUDA_R_64F, CUSPARSE_ORDER_COL) == CUSPARSE_STATUS_INVALID_VALUE, "ld < rows");
  SP(cusparseDestroyDnVec(X));
  SP(cusparseDestroyDnVec(Y));
}

int main() {
  cusparseHandle_t h;
  SP(cusparseCreate(&h));
  int version = 0;
  SP(cusparseGetVersion(h, &version));
  CHECK(version == CUSPARSE_VERSION, "version %d", version);
  cudaStream_t s;
  CUDA(cudaStreamCreate(&s));
  SP(cusparseSetStream(h, s));
  cudaStream_t got;
  SP(cusparseGetStream(h, &got));
  CHECK(got == s, "stream");
  spmv_tests(h);
  spmm_tests(h);
  conversion_tests(h);
  sort_tests(h);
  geam_and_gemm_tests(h);
  error_tests(h);
  SP(cusparseDestroy(h));
  CUDA(cudaStreamDestroy(s));
  if (failures) {
    printf("%d failures\n", failures);
    return 1;
  }
  printf("PASS cusparse_basic\n");
  return 0;
}
