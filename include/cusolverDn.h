/* cusolverDn.h: cuSOLVER's dense API, as this project's libcusolver implements it.
 * Declarations follow NVIDIA's cuSOLVER documentation. */
#ifndef CUSOLVERDN_H_
#define CUSOLVERDN_H_

#include <stdint.h>
#include "driver_types.h"
#include "cuComplex.h"
#include "cublas_api.h"
#include "cusolver_common.h"

#if defined(__cplusplus)
extern "C" {
#endif

struct cusolverDnContext;
typedef struct cusolverDnContext* cusolverDnHandle_t;
struct syevjInfo;
typedef struct syevjInfo* syevjInfo_t;
struct gesvdjInfo;
typedef struct gesvdjInfo* gesvdjInfo_t;
struct cusolverDnParams;
typedef struct cusolverDnParams* cusolverDnParams_t;

cusolverStatus_t cusolverDnCreate(cusolverDnHandle_t* handle);
cusolverStatus_t cusolverDnDestroy(cusolverDnHandle_t handle);
cusolverStatus_t cusolverDnSetStream(cusolverDnHandle_t handle, cudaStream_t streamId);
cusolverStatus_t cusolverDnGetStream(cusolverDnHandle_t handle, cudaStream_t* streamId);
cusolverStatus_t cusolverDnCreateParams(cusolverDnParams_t* params);
cusolverStatus_t cusolverDnDestroyParams(cusolverDnParams_t params);
cusolverStatus_t cusolverDnCreateSyevjInfo(syevjInfo_t* info);
cusolverStatus_t cusolverDnDestroySyevjInfo(syevjInfo_t info);
cusolverStatus_t cusolverDnXsyevjSetTolerance(syevjInfo_t info, double tolerance);
cusolverStatus_t cusolverDnXsyevjSetMaxSweeps(syevjInfo_t info, int max_sweeps);
cusolverStatus_t cusolverDnXsyevjSetSortEig(syevjInfo_t info, int sort_eig);
cusolverStatus_t cusolverDnXsyevjGetResidual(cusolverDnHandle_t handle, syevjInfo_t info, double* residual);
cusolverStatus_t cusolverDnXsyevjGetSweeps(cusolverDnHandle_t handle, syevjInfo_t info, int* executed_sweeps);
cusolverStatus_t cusolverDnCreateGesvdjInfo(gesvdjInfo_t* info);
cusolverStatus_t cusolverDnDestroyGesvdjInfo(gesvdjInfo_t info);
cusolverStatus_t cusolverDnXgesvdjSetTolerance(gesvdjInfo_t info, double tolerance);
cusolverStatus_t cusolverDnXgesvdjSetMaxSweeps(gesvdjInfo_t info, int max_sweeps);
cusolverStatus_t cusolverDnXgesvdjSetSortEig(gesvdjInfo_t info, int sort_svd);
cusolverStatus_t cusolverDnXgesvdjGetResidual(cusolverDnHandle_t handle, gesvdjInfo_t info, double* residual);
cusolverStatus_t cusolverDnXgesvdjGetSweeps(cusolverDnHandle_t handle, gesvdjInfo_t info, int* executed_sweeps);

/* One declaration set per element type: T the element, R its real type, P the prefix. */
#define CUSOLVER_DN_DECLARE(P, T, R, ORGQR, ORMQR, SYEVD, SYEVJ)                                                              \
  cusolverStatus_t cusolverDn##P##getrf_bufferSize(cusolverDnHandle_t h, int m, int n, T* A, int lda, int* Lwork);           \
  cusolverStatus_t cusolverDn##P##getrf(cusolverDnHandle_t h, int m, int n, T* A, int lda, T* Workspace, int* devIpiv,      \
                                        int* devInfo);                                                                      \
  cusolverStatus_t cusolverDn##P##getrs(cusolverDnHandle_t h, cublasOperation_t trans, int n, int nrhs, const T* A, int lda, \
                                        const int* devIpiv, T* B, int ldb, int* devInfo);                                   \
  cusolverStatus_t cusolverDn##P##potrf_bufferSize(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T* A, int lda,       \
                                                   int* Lwork);                                                             \
  cusolverStatus_t cusolverDn##P##potrf(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T* A, int lda, T* Workspace,    \
                                        int Lwork, int* devInfo);                                                           \
  cusolverStatus_t cusolverDn##P##potrs(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, int nrhs, const T* A, int lda,  \
                                        T* B, int ldb, int* devInfo);                                                       \
  cusolverStatus_t cusolverDn##P##potrfBatched(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T* Aarray[], int lda,    \
                                               int* infoArray, int batchSize);                                              \
  cusolverStatus_t cusolverDn##P##potrsBatched(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, int nrhs, T* Aarray[],   \
                                               int lda, T* Barray[], int ldb, int* info, int batchSize);                    \
  cusolverStatus_t cusolverDn##P##sytrf_bufferSize(cusolverDnHandle_t h, int n, T* A, int lda, int* lwork);                 \
  cusolverStatus_t cusolverDn##P##sytrf(cusolverDnHandle_t h, cublasFillMode_t uplo, int n, T* A, int lda, int* ipiv,       \
                                        T* work, int lwork, int* devInfo);                                                  \
  cusolverStatus_t cusolverDn##P##geqrf_bufferSize(cusolverDnHandle_t h, int m, int n, T* A, int lda, int* lwork);          \
  cusolverStatus_t cusolverDn##P##geqrf(cusolverDnHandle_t h, int m, int n, T* A, int lda, T* TAU, T* Workspace,            \
                                        int Lwork, int* devInfo);                                                           \
  cusolverStatus_t cusolverDn##ORGQR##_bufferSize(cusolverDnHandle_t h, int m, int n, int k, const T* A, int lda,          \
                                                  const T* tau, int* lwork);                                               \
  cusolverStatus_t cusolverDn##ORGQR(cusolverDnHandle_t h, int m, int n, int k, T* A, int lda, const T* tau, T* work,      \
                                     int lwork, int* info);                                                                 \
  cusolverStatus_t cusolverDn##ORMQR##_bufferSize(cusolverDnHandle_t h, cublasSideMode_t side, cublasOperation_t trans,    \
                                                  int m, int n, int k, const T* A, int lda, const T* tau, const T* C,      \
                                                  int ldc, int* lwork);                                                    \
  cusolverStatus_t cusolverDn##ORMQR(cusolverDnHandle_t h, cublasSideMode_t side, cublasOperation_t trans, int m, int n,   \
                                     int k, const T* A, int lda, const T* tau, T* C, int ldc, T* work, int lwork,         \
                                     int* devInfo);                                                                         \
  cusolverStatus_t cusolverDn##P##gesvd_bufferSize(cusolverDnHandle_t h, int m, int n, int* lwork);                         \
  cusolverStatus_t cusolverDn##P##gesvd(cusolverDnHandle_t h, signed char jobu, signed char jobvt, int m, int n, T* A,      \
                                        int lda, R* S, T* U, int ldu, T* VT, int ldvt, T* work, int lwork, R* rwork,       \
                                        int* info);                                                                         \
  cusolverStatus_t cusolverDn##P##gebrd_bufferSize(cusolverDnHandle_t h, int m, int n, int* Lwork);                         \
  cusolverStatus_t cusolverDn##P##gebrd(cusolverDnHandle_t h, int m, int n, T* A, int lda, R* D, R* E, T* TAUQ, T* TAUP,    \
                                        T* Work, int Lwork, int* devInfo);                                                  \
  cusolverStatus_t cusolverDn##SYEVD##_bufferSize(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo,      \
                                                  int n, const T* A, int lda, const R* W, int* lwork);                     \
  cusolverStatus_t cusolverDn##SYEVD(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, T* A,     \
                                     int lda, R* W, T* work, int lwork, int* info);                                         \
  cusolverStatus_t cusolverDn##SYEVJ##_bufferSize(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo,      \
                                                  int n, const T* A, int lda, const R* W, int* lwork, syevjInfo_t params); \
  cusolverStatus_t cusolverDn##SYEVJ(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n, T* A,     \
                                     int lda, R* W, T* work, int lwork, int* info, syevjInfo_t params);                     \
  cusolverStatus_t cusolverDn##SYEVJ##Batched_bufferSize(cusolverDnHandle_t h, cusolverEigMode_t jobz,                      \
                                                         cublasFillMode_t uplo, int n, const T* A, int lda, const R* W,    \
                                                         int* lwork, syevjInfo_t params, int batchSize);                   \
  cusolverStatus_t cusolverDn##SYEVJ##Batched(cusolverDnHandle_t h, cusolverEigMode_t jobz, cublasFillMode_t uplo, int n,  \
                                              T* A, int lda, R* W, T* work, int lwork, int* info, syevjInfo_t params,      \
                                              int batchSize);

CUSOLVER_DN_DECLARE(S, float, float, Sorgqr, Sormqr, Ssyevd, Ssyevj)
CUSOLVER_DN_DECLARE(D, double, double, Dorgqr, Dormqr, Dsyevd, Dsyevj)
CUSOLVER_DN_DECLARE(C, cuComplex, float, Cungqr, Cunmqr, Cheevd, Cheevj)
CUSOLVER_DN_DECLARE(Z, cuDoubleComplex, double, Zungqr, Zunmqr, Zheevd, Zheevj)
#undef CUSOLVER_DN_DECLARE

cusolverStatus_t cusolverDnXsyevd_bufferSize(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
                                             cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, const void* A,
                                             int64_t lda, cudaDataType dataTypeW, const void* W, cudaDataType computeType,
                                             size_t* workspaceInBytesOnDevice, size_t* workspaceInBytesOnHost);
cusolverStatus_t cusolverDnXsyevd(cusolverDnHandle_t handle, cusolverDnParams_t params, cusolverEigMode_t jobz,
                                  cublasFillMode_t uplo, int64_t n, cudaDataType dataTypeA, void* A, int64_t lda,
                                  cudaDataType dataTypeW, void* W, cudaDataType computeType, void* bufferOnDevice,
                                  size_t workspaceInBytesOnDevice, void* bufferOnHost, size_t workspaceInBytesOnHost,
                                  int* info);

#if defined(__cplusplus)
}
#endif

#endif /* CUSOLVERDN_H_ */
