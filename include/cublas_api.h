/* cublas_api.h: the cuBLAS C API (handle-based, "v2"), as this project's libcublas
 * implements it. Names, values and signatures follow NVIDIA's cuBLAS documentation.
 * The function declarations are generated from the library's exports by
 * crates/cublas/tools/gen_header.py: edit the exports, then rerun it. */
#ifndef CUBLAS_API_H_
#define CUBLAS_API_H_

#include <stddef.h>
#include <stdint.h>
#include "driver_types.h"
#include "cuComplex.h"
#include "cuda_fp16.h"
#include "library_types.h"

#ifndef CUBLASWINAPI
#define CUBLASWINAPI
#endif
#ifndef CUBLASAPI
#define CUBLASAPI
#endif

#define CUBLAS_VER_MAJOR 13
#define CUBLAS_VER_MINOR 1
#define CUBLAS_VER_PATCH 0
#define CUBLAS_VER_BUILD 0
#define CUBLAS_VERSION (CUBLAS_VER_MAJOR * 10000 + CUBLAS_VER_MINOR * 100 + CUBLAS_VER_PATCH)

#if defined(__cplusplus)
extern "C" {
#endif

typedef enum {
  CUBLAS_STATUS_SUCCESS = 0,
  CUBLAS_STATUS_NOT_INITIALIZED = 1,
  CUBLAS_STATUS_ALLOC_FAILED = 3,
  CUBLAS_STATUS_INVALID_VALUE = 7,
  CUBLAS_STATUS_ARCH_MISMATCH = 8,
  CUBLAS_STATUS_MAPPING_ERROR = 11,
  CUBLAS_STATUS_EXECUTION_FAILED = 13,
  CUBLAS_STATUS_INTERNAL_ERROR = 14,
  CUBLAS_STATUS_NOT_SUPPORTED = 15,
  CUBLAS_STATUS_LICENSE_ERROR = 16
} cublasStatus_t;

typedef enum { CUBLAS_FILL_MODE_LOWER = 0, CUBLAS_FILL_MODE_UPPER = 1, CUBLAS_FILL_MODE_FULL = 2 } cublasFillMode_t;
typedef enum { CUBLAS_DIAG_NON_UNIT = 0, CUBLAS_DIAG_UNIT = 1 } cublasDiagType_t;
typedef enum { CUBLAS_SIDE_LEFT = 0, CUBLAS_SIDE_RIGHT = 1 } cublasSideMode_t;
typedef enum {
  CUBLAS_OP_N = 0,
  CUBLAS_OP_T = 1,
  CUBLAS_OP_C = 2,
  CUBLAS_OP_HERMITAN = 2,
  CUBLAS_OP_CONJG = 3
} cublasOperation_t;
typedef enum { CUBLAS_POINTER_MODE_HOST = 0, CUBLAS_POINTER_MODE_DEVICE = 1 } cublasPointerMode_t;
typedef enum { CUBLAS_ATOMICS_NOT_ALLOWED = 0, CUBLAS_ATOMICS_ALLOWED = 1 } cublasAtomicsMode_t;

typedef enum {
  CUBLAS_GEMM_DFALT = -1,
  CUBLAS_GEMM_DEFAULT = -1,
  CUBLAS_GEMM_ALGO0 = 0, CUBLAS_GEMM_ALGO1 = 1, CUBLAS_GEMM_ALGO2 = 2, CUBLAS_GEMM_ALGO3 = 3,
  CUBLAS_GEMM_ALGO4 = 4, CUBLAS_GEMM_ALGO5 = 5, CUBLAS_GEMM_ALGO6 = 6, CUBLAS_GEMM_ALGO7 = 7,
  CUBLAS_GEMM_ALGO8 = 8, CUBLAS_GEMM_ALGO9 = 9, CUBLAS_GEMM_ALGO10 = 10, CUBLAS_GEMM_ALGO11 = 11,
  CUBLAS_GEMM_ALGO12 = 12, CUBLAS_GEMM_ALGO13 = 13, CUBLAS_GEMM_ALGO14 = 14, CUBLAS_GEMM_ALGO15 = 15,
  CUBLAS_GEMM_ALGO16 = 16, CUBLAS_GEMM_ALGO17 = 17, CUBLAS_GEMM_ALGO18 = 18, CUBLAS_GEMM_ALGO19 = 19,
  CUBLAS_GEMM_ALGO20 = 20, CUBLAS_GEMM_ALGO21 = 21, CUBLAS_GEMM_ALGO22 = 22, CUBLAS_GEMM_ALGO23 = 23,
  CUBLAS_GEMM_DEFAULT_TENSOR_OP = 99,
  CUBLAS_GEMM_DFALT_TENSOR_OP = 99,
  CUBLAS_GEMM_ALGO0_TENSOR_OP = 100, CUBLAS_GEMM_ALGO1_TENSOR_OP = 101, CUBLAS_GEMM_ALGO2_TENSOR_OP = 102,
  CUBLAS_GEMM_ALGO3_TENSOR_OP = 103, CUBLAS_GEMM_ALGO4_TENSOR_OP = 104, CUBLAS_GEMM_ALGO5_TENSOR_OP = 105,
  CUBLAS_GEMM_ALGO6_TENSOR_OP = 106, CUBLAS_GEMM_ALGO7_TENSOR_OP = 107, CUBLAS_GEMM_ALGO8_TENSOR_OP = 108,
  CUBLAS_GEMM_ALGO9_TENSOR_OP = 109, CUBLAS_GEMM_ALGO10_TENSOR_OP = 110, CUBLAS_GEMM_ALGO11_TENSOR_OP = 111,
  CUBLAS_GEMM_ALGO12_TENSOR_OP = 112, CUBLAS_GEMM_ALGO13_TENSOR_OP = 113, CUBLAS_GEMM_ALGO14_TENSOR_OP = 114,
  CUBLAS_GEMM_ALGO15_TENSOR_OP = 115,
  CUBLAS_GEMM_AUTOTUNE = 999
} cublasGemmAlgo_t;

typedef enum {
  CUBLAS_DEFAULT_MATH = 0,
  CUBLAS_TENSOR_OP_MATH = 1,
  CUBLAS_PEDANTIC_MATH = 2,
  CUBLAS_TF32_TENSOR_OP_MATH = 3,
  CUBLAS_MATH_DISALLOW_REDUCED_PRECISION_REDUCTION = 16
} cublasMath_t;

typedef cudaDataType cublasDataType_t;

typedef enum {
  CUBLAS_COMPUTE_16F = 64,
  CUBLAS_COMPUTE_16F_PEDANTIC = 65,
  CUBLAS_COMPUTE_32F = 68,
  CUBLAS_COMPUTE_32F_PEDANTIC = 69,
  CUBLAS_COMPUTE_32F_FAST_16F = 74,
  CUBLAS_COMPUTE_32F_FAST_16BF = 75,
  CUBLAS_COMPUTE_32F_FAST_TF32 = 77,
  CUBLAS_COMPUTE_64F = 70,
  CUBLAS_COMPUTE_64F_PEDANTIC = 71,
  CUBLAS_COMPUTE_32I = 72,
  CUBLAS_COMPUTE_32I_PEDANTIC = 73
} cublasComputeType_t;

struct cublasContext;
typedef struct cublasContext* cublasHandle_t;

CUBLASAPI const char* CUBLASWINAPI cublasGetStatusName(cublasStatus_t status);
CUBLASAPI const char* CUBLASWINAPI cublasGetStatusString(cublasStatus_t status);
CUBLASAPI size_t CUBLASWINAPI cublasGetCudartVersion(void);

/* BEGIN GENERATED DECLARATIONS */
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasAxpyEx(cublasHandle_t h, int n, const void* alpha, cudaDataType alpha_type, const void* x, cudaDataType xtype, int incx, void* y, cudaDataType ytype, int incy, cudaDataType exec);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCaxpy_v2(cublasHandle_t h, int n, const cuComplex* alpha, const cuComplex* x, int incx, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCcopy_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCdgmm(cublasHandle_t h, cublasSideMode_t side, int m, int n, const cuComplex* a, int lda, const cuComplex* x, int incx, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCdotc_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCdotu_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgbmv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, int kl, int ku, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* x, int incx, const cuComplex* beta, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* beta, const cuComplex* b, int ldb, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemm3m(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const cuComplex* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* const* a, int lda, const cuComplex* const* b, int ldb, const cuComplex* beta, cuComplex* const* c, int ldc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, long long int sa, const cuComplex* b, int ldb, long long int sb, const cuComplex* beta, cuComplex* c, int ldc, long long int sc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const cuComplex* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* x, int incx, const cuComplex* beta, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgerc_v2(cublasHandle_t h, int m, int n, const cuComplex* alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgeru_v2(cublasHandle_t h, int m, int n, const cuComplex* alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgetrfBatched(cublasHandle_t h, int n, cuComplex* const* a, int lda, int* pivots, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgetriBatched(cublasHandle_t h, int n, const cuComplex* const* a, int lda, const int* pivots, cuComplex* const* c, int ldc, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCgetrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs, const cuComplex* const* a, int lda, const int* pivots, cuComplex* const* b, int ldb, int* info, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasChbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* x, int incx, const cuComplex* beta, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasChemm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const cuComplex* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasChemv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* x, int incx, const cuComplex* beta, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCher2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCher2k_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const float* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCher_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const cuComplex* x, int incx, cuComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCherk3mEx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const float* alpha, const void* a, cudaDataType atype, int lda, const float* beta, void* c, cudaDataType ctype, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCherkEx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const float* alpha, const void* a, cudaDataType atype, int lda, const float* beta, void* c, cudaDataType ctype, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCherk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const float* alpha, const cuComplex* a, int lda, const float* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCherkx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const float* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasChpmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* alpha, const cuComplex* ap, const cuComplex* x, int incx, const cuComplex* beta, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasChpr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasChpr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const cuComplex* x, int incx, cuComplex* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCreate_v2(cublasHandle_t* out_handle);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCrot_v2(cublasHandle_t h, int n, cuComplex* x, int incx, cuComplex* y, int incy, const float* c, const cuComplex* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCrotg_v2(cublasHandle_t h, cuComplex* a, cuComplex* b, float* c, cuComplex* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCscal_v2(cublasHandle_t h, int n, const cuComplex* alpha, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsrot_v2(cublasHandle_t h, int n, cuComplex* x, int incx, cuComplex* y, int incy, const float* c, const float* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsscal_v2(cublasHandle_t h, int n, const float* alpha, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCswap_v2(cublasHandle_t h, int n, cuComplex* x, int incx, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsymm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const cuComplex* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsymv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* x, int incx, const cuComplex* beta, cuComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* alpha, const cuComplex* x, int incx, const cuComplex* y, int incy, cuComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyr2k_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const cuComplex* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* alpha, const cuComplex* x, int incx, cuComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyrk3mEx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuComplex* alpha, const void* a, cudaDataType atype, int lda, const cuComplex* beta, void* c, cudaDataType ctype, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyrkEx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuComplex* alpha, const void* a, cudaDataType atype, int lda, const cuComplex* beta, void* c, cudaDataType ctype, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyrk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCsyrkx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, const cuComplex* beta, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const cuComplex* a, int lda, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtbsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const cuComplex* a, int lda, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtpmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuComplex* ap, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtpsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuComplex* ap, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtpttr(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* ap, cuComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrmm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuComplex* alpha, const cuComplex* a, int lda, const cuComplex* b, int ldb, cuComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuComplex* a, int lda, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrsmBatched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuComplex* alpha, const cuComplex* const* a, int lda, cuComplex* const* b, int ldb, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrsm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuComplex* alpha, const cuComplex* a, int lda, cuComplex* b, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuComplex* a, int lda, cuComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasCtrttp(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuComplex* a, int lda, cuComplex* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDasum_v2(cublasHandle_t h, int n, const double* x, int incx, double* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDaxpy_v2(cublasHandle_t h, int n, const double* alpha, const double* x, int incx, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDcopy_v2(cublasHandle_t h, int n, const double* x, int incx, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDdgmm(cublasHandle_t h, cublasSideMode_t side, int m, int n, const double* a, int lda, const double* x, int incx, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDdot_v2(cublasHandle_t h, int n, const double* x, int incx, const double* y, int incy, double* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDestroy_v2(cublasHandle_t h);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgbmv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, int kl, int ku, const double* alpha, const double* a, int lda, const double* x, int incx, const double* beta, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, const double* alpha, const double* a, int lda, const double* beta, const double* b, int ldb, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double* alpha, const double* const* a, int lda, const double* const* b, int ldb, const double* beta, double* const* c, int ldc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemmGroupedBatched(cublasHandle_t h, const cublasOperation_t* transa, const cublasOperation_t* transb, const int* m, const int* n, const int* k, const double* alpha, const double* const* a, const int* lda, const double* const* b, const int* ldb, const double* beta, double* const* c, const int* ldc, int count, const int* size);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double* alpha, const double* a, int lda, long long int sa, const double* b, int ldb, long long int sb, const double* beta, double* c, int ldc, long long int sc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const double* alpha, const double* a, int lda, const double* b, int ldb, const double* beta, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const double* alpha, const double* a, int lda, const double* x, int incx, const double* beta, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDger_v2(cublasHandle_t h, int m, int n, const double* alpha, const double* x, int incx, const double* y, int incy, double* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgetrfBatched(cublasHandle_t h, int n, double* const* a, int lda, int* pivots, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgetriBatched(cublasHandle_t h, int n, const double* const* a, int lda, const int* pivots, double* const* c, int ldc, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDgetrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs, const double* const* a, int lda, const int* pivots, double* const* b, int ldb, int* info, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDnrm2_v2(cublasHandle_t h, int n, const double* x, int incx, double* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDotEx(cublasHandle_t h, int n, const void* x, cudaDataType xtype, int incx, const void* y, cudaDataType ytype, int incy, void* result, cudaDataType rtype, cudaDataType exec);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDotcEx(cublasHandle_t h, int n, const void* x, cudaDataType xtype, int incx, const void* y, cudaDataType ytype, int incy, void* result, cudaDataType rtype, cudaDataType exec);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrot_v2(cublasHandle_t h, int n, double* x, int incx, double* y, int incy, const double* c, const double* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrotg_v2(cublasHandle_t h, double* a, double* b, double* c, double* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrotm_v2(cublasHandle_t h, int n, double* x, int incx, double* y, int incy, const double* param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDrotmg_v2(cublasHandle_t h, double* d1, double* d2, double* x1, const double* y1, double* param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, int k, const double* alpha, const double* a, int lda, const double* x, int incx, const double* beta, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDscal_v2(cublasHandle_t h, int n, const double* alpha, double* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDspmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const double* ap, const double* x, int incx, const double* beta, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDspr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const double* x, int incx, const double* y, int incy, double* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDspr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const double* x, int incx, double* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDswap_v2(cublasHandle_t h, int n, double* x, int incx, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsymm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n, const double* alpha, const double* a, int lda, const double* b, int ldb, const double* beta, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsymv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const double* a, int lda, const double* x, int incx, const double* beta, double* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsyr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const double* x, int incx, const double* y, int incy, double* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsyr2k_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const double* alpha, const double* a, int lda, const double* b, int ldb, const double* beta, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsyr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const double* x, int incx, double* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsyrk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const double* alpha, const double* a, int lda, const double* beta, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDsyrkx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const double* alpha, const double* a, int lda, const double* b, int ldb, const double* beta, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const double* a, int lda, double* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtbsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const double* a, int lda, double* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtpmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const double* ap, double* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtpsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const double* ap, double* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtpttr(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* ap, double* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrmm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double* alpha, const double* a, int lda, const double* b, int ldb, double* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const double* a, int lda, double* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrsmBatched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double* alpha, const double* const* a, int lda, double* const* b, int ldb, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrsm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const double* alpha, const double* a, int lda, double* b, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const double* a, int lda, double* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDtrttp(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* a, int lda, double* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDzasum_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, double* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasDznrm2_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, double* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGemmBatchedEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void* alpha, const void* const* a, cudaDataType atype, int lda, const void* const* b, cudaDataType btype, int ldb, const void* beta, void* const* c, cudaDataType ctype, int ldc, int count, cublasComputeType_t compute, cublasGemmAlgo_t algo);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void* alpha, const void* a, cudaDataType atype, int lda, const void* b, cudaDataType btype, int ldb, const void* beta, void* c, cudaDataType ctype, int ldc, cublasComputeType_t compute, cublasGemmAlgo_t algo);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGemmGroupedBatchedEx(cublasHandle_t h, const cublasOperation_t* transa, const cublasOperation_t* transb, const int* m, const int* n, const int* k, const void* alpha, const void* const* a, cudaDataType atype, const int* lda, const void* const* b, cudaDataType btype, const int* ldb, const void* beta, void* const* c, cudaDataType ctype, const int* ldc, int count, const int* size, cublasComputeType_t compute);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGemmStridedBatchedEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const void* alpha, const void* a, cudaDataType atype, int lda, long long int sa, const void* b, cudaDataType btype, int ldb, long long int sb, const void* beta, void* c, cudaDataType ctype, int ldc, long long int sc, int count, cublasComputeType_t compute, cublasGemmAlgo_t algo);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t* mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetMathMode(cublasHandle_t h, cublasMath_t* mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetMatrix(int rows, int cols, int elem, const void* a, int lda, void* b, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetMatrixAsync(int rows, int cols, int elem, const void* a, int lda, void* b, int ldb, cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t* mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetProperty(libraryPropertyType kind, int* value);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetSmCountTarget(cublasHandle_t h, int* count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetStream_v2(cublasHandle_t h, cudaStream_t* stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetVector(int n, int elem, const void* x, int incx, void* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy, cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasGetVersion_v2(cublasHandle_t h, int* version);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasHgemm(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const __half* alpha, const __half* a, int lda, const __half* b, int ldb, const __half* beta, __half* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasHgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const __half* alpha, const __half* const* a, int lda, const __half* const* b, int ldb, const __half* beta, __half* const* c, int ldc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasHgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const __half* alpha, const __half* a, int lda, long long int sa, const __half* b, int ldb, long long int sb, const __half* beta, __half* c, int ldc, long long int sc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIcamax_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIcamin_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIdamax_v2(cublasHandle_t h, int n, const double* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIdamin_v2(cublasHandle_t h, int n, const double* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIsamax_v2(cublasHandle_t h, int n, const float* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIsamin_v2(cublasHandle_t h, int n, const float* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIzamax_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasIzamin_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, int* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasNrm2Ex(cublasHandle_t h, int n, const void* x, cudaDataType xtype, int incx, void* result, cudaDataType rtype, cudaDataType exec);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasRotEx(cublasHandle_t h, int n, void* x, cudaDataType xtype, int incx, void* y, cudaDataType ytype, int incy, const void* c, const void* s, cudaDataType cs_type, cudaDataType exec);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSasum_v2(cublasHandle_t h, int n, const float* x, int incx, float* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSaxpy_v2(cublasHandle_t h, int n, const float* alpha, const float* x, int incx, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasScalEx(cublasHandle_t h, int n, const void* alpha, cudaDataType alpha_type, void* x, cudaDataType xtype, int incx, cudaDataType exec);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasScasum_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, float* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasScnrm2_v2(cublasHandle_t h, int n, const cuComplex* x, int incx, float* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasScopy_v2(cublasHandle_t h, int n, const float* x, int incx, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSdgmm(cublasHandle_t h, cublasSideMode_t side, int m, int n, const float* a, int lda, const float* x, int incx, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSdot_v2(cublasHandle_t h, int n, const float* x, int incx, const float* y, int incy, float* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetAtomicsMode(cublasHandle_t h, cublasAtomicsMode_t mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetMathMode(cublasHandle_t h, cublasMath_t mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetMatrix(int rows, int cols, int elem, const void* a, int lda, void* b, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetMatrixAsync(int rows, int cols, int elem, const void* a, int lda, void* b, int ldb, cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetPointerMode_v2(cublasHandle_t h, cublasPointerMode_t mode);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetSmCountTarget(cublasHandle_t h, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetStream_v2(cublasHandle_t h, cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetVector(int n, int elem, const void* x, int incx, void* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetVectorAsync(int n, int elem, const void* x, int incx, void* y, int incy, cudaStream_t stream);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSetWorkspace_v2(cublasHandle_t h, void* workspace, size_t bytes);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgbmv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, int kl, int ku, const float* alpha, const float* a, int lda, const float* x, int incx, const float* beta, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, const float* alpha, const float* a, int lda, const float* beta, const float* b, int ldb, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha, const float* const* a, int lda, const float* const* b, int ldb, const float* beta, float* const* c, int ldc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemmEx(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha, const void* a, cudaDataType atype, int lda, const void* b, cudaDataType btype, int ldb, const float* beta, void* c, cudaDataType ctype, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemmGroupedBatched(cublasHandle_t h, const cublasOperation_t* transa, const cublasOperation_t* transb, const int* m, const int* n, const int* k, const float* alpha, const float* const* a, const int* lda, const float* const* b, const int* ldb, const float* beta, float* const* c, const int* ldc, int count, const int* size);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha, const float* a, int lda, long long int sa, const float* b, int ldb, long long int sb, const float* beta, float* c, int ldc, long long int sc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const float* alpha, const float* a, int lda, const float* x, int incx, const float* beta, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSger_v2(cublasHandle_t h, int m, int n, const float* alpha, const float* x, int incx, const float* y, int incy, float* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgetrfBatched(cublasHandle_t h, int n, float* const* a, int lda, int* pivots, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgetriBatched(cublasHandle_t h, int n, const float* const* a, int lda, const int* pivots, float* const* c, int ldc, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSgetrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs, const float* const* a, int lda, const int* pivots, float* const* b, int ldb, int* info, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSnrm2_v2(cublasHandle_t h, int n, const float* x, int incx, float* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrot_v2(cublasHandle_t h, int n, float* x, int incx, float* y, int incy, const float* c, const float* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrotg_v2(cublasHandle_t h, float* a, float* b, float* c, float* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrotm_v2(cublasHandle_t h, int n, float* x, int incx, float* y, int incy, const float* param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSrotmg_v2(cublasHandle_t h, float* d1, float* d2, float* x1, const float* y1, float* param);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, int k, const float* alpha, const float* a, int lda, const float* x, int incx, const float* beta, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSscal_v2(cublasHandle_t h, int n, const float* alpha, float* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSspmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const float* ap, const float* x, int incx, const float* beta, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSspr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const float* x, int incx, const float* y, int incy, float* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSspr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const float* x, int incx, float* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSswap_v2(cublasHandle_t h, int n, float* x, int incx, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsymm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n, const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsymv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const float* a, int lda, const float* x, int incx, const float* beta, float* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsyr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const float* x, int incx, const float* y, int incy, float* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsyr2k_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsyr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* alpha, const float* x, int incx, float* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsyrk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const float* alpha, const float* a, int lda, const float* beta, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasSsyrkx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const float* alpha, const float* a, int lda, const float* b, int ldb, const float* beta, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const float* a, int lda, float* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStbsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const float* a, int lda, float* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStpmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const float* ap, float* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStpsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const float* ap, float* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStpttr(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* ap, float* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrmm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float* alpha, const float* a, int lda, const float* b, int ldb, float* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const float* a, int lda, float* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrsmBatched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float* alpha, const float* const* a, int lda, float* const* b, int ldb, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrsm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const float* alpha, const float* a, int lda, float* b, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const float* a, int lda, float* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasStrttp(cublasHandle_t h, cublasFillMode_t uplo, int n, const float* a, int lda, float* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZaxpy_v2(cublasHandle_t h, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZcopy_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdgmm(cublasHandle_t h, cublasSideMode_t side, int m, int n, const cuDoubleComplex* a, int lda, const cuDoubleComplex* x, int incx, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdotc_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdotu_v2(cublasHandle_t h, int n, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* result);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdrot_v2(cublasHandle_t h, int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy, const double* c, const double* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZdscal_v2(cublasHandle_t h, int n, const double* alpha, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgbmv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, int kl, int ku, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* x, int incx, const cuDoubleComplex* beta, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgeam(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* beta, const cuDoubleComplex* b, int ldb, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemm3m(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemmBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* const* a, int lda, const cuDoubleComplex* const* b, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* const* c, int ldc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemmStridedBatched(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, long long int sa, const cuDoubleComplex* b, int ldb, long long int sb, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc, long long int sc, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemm_v2(cublasHandle_t h, cublasOperation_t transa, cublasOperation_t transb, int m, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgemv_v2(cublasHandle_t h, cublasOperation_t trans, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* x, int incx, const cuDoubleComplex* beta, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgerc_v2(cublasHandle_t h, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgeru_v2(cublasHandle_t h, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgetrfBatched(cublasHandle_t h, int n, cuDoubleComplex* const* a, int lda, int* pivots, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgetriBatched(cublasHandle_t h, int n, const cuDoubleComplex* const* a, int lda, const int* pivots, cuDoubleComplex* const* c, int ldc, int* infos, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZgetrsBatched(cublasHandle_t h, cublasOperation_t trans, int n, int nrhs, const cuDoubleComplex* const* a, int lda, const int* pivots, cuDoubleComplex* const* b, int ldb, int* info, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZhbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* x, int incx, const cuDoubleComplex* beta, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZhemm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZhemv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* x, int incx, const cuDoubleComplex* beta, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZher2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZher2k_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const double* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZher_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const cuDoubleComplex* x, int incx, cuDoubleComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZherk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const double* alpha, const cuDoubleComplex* a, int lda, const double* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZherkx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const double* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZhpmv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* ap, const cuDoubleComplex* x, int incx, const cuDoubleComplex* beta, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZhpr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZhpr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const double* alpha, const cuDoubleComplex* x, int incx, cuDoubleComplex* ap);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZrot_v2(cublasHandle_t h, int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy, const double* c, const cuDoubleComplex* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZrotg_v2(cublasHandle_t h, cuDoubleComplex* a, cuDoubleComplex* b, double* c, cuDoubleComplex* s);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZscal_v2(cublasHandle_t h, int n, const cuDoubleComplex* alpha, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZswap_v2(cublasHandle_t h, int n, cuDoubleComplex* x, int incx, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsymm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsymv_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* x, int incx, const cuDoubleComplex* beta, cuDoubleComplex* y, int incy);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsyr2_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x, int incx, const cuDoubleComplex* y, int incy, cuDoubleComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsyr2k_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsyr_v2(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* x, int incx, cuDoubleComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsyrk_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZsyrkx(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, int n, int k, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, const cuDoubleComplex* beta, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtbmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const cuDoubleComplex* a, int lda, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtbsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, int k, const cuDoubleComplex* a, int lda, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtpmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuDoubleComplex* ap, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtpsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuDoubleComplex* ap, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtpttr(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* ap, cuDoubleComplex* a, int lda);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrmm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, const cuDoubleComplex* b, int ldb, cuDoubleComplex* c, int ldc);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrmv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuDoubleComplex* a, int lda, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrsmBatched(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* const* a, int lda, cuDoubleComplex* const* b, int ldb, int count);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrsm_v2(cublasHandle_t h, cublasSideMode_t side, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int m, int n, const cuDoubleComplex* alpha, const cuDoubleComplex* a, int lda, cuDoubleComplex* b, int ldb);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrsv_v2(cublasHandle_t h, cublasFillMode_t uplo, cublasOperation_t trans, cublasDiagType_t diag, int n, const cuDoubleComplex* a, int lda, cuDoubleComplex* x, int incx);
CUBLASAPI cublasStatus_t CUBLASWINAPI cublasZtrttp(cublasHandle_t h, cublasFillMode_t uplo, int n, const cuDoubleComplex* a, int lda, cuDoubleComplex* ap);
/* END GENERATED DECLARATIONS */

#if defined(__cplusplus)
}
#endif

#endif /* CUBLAS_API_H_ */
