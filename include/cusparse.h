/* cusparse.h: the cuSPARSE C API as this project's libcusparse implements it (handles, legacy
 * matrix descriptors, the generic API's descriptors and operations, format conversions, sorting,
 * csrgeam2 and compression). Names, values and signatures follow NVIDIA's cuSPARSE
 * documentation. Entry points the library exports only to answer CUSPARSE_STATUS_NOT_SUPPORTED
 * are not declared. Part of this project's own toolkit. */
#ifndef CUSPARSE_H_
#define CUSPARSE_H_

#include <stddef.h>
#include <stdint.h>
#include "driver_types.h"
#include "cuComplex.h"
#include "library_types.h"

#ifndef CUSPARSEAPI
#define CUSPARSEAPI
#endif

#define CUSPARSE_VER_MAJOR 12
#define CUSPARSE_VER_MINOR 6
#define CUSPARSE_VER_PATCH 0
#define CUSPARSE_VER_BUILD 0
#define CUSPARSE_VERSION (CUSPARSE_VER_MAJOR * 1000 + CUSPARSE_VER_MINOR * 100 + CUSPARSE_VER_PATCH)

#if defined(__cplusplus)
extern "C" {
#endif

typedef enum {
  CUSPARSE_STATUS_SUCCESS = 0,
  CUSPARSE_STATUS_NOT_INITIALIZED = 1,
  CUSPARSE_STATUS_ALLOC_FAILED = 2,
  CUSPARSE_STATUS_INVALID_VALUE = 3,
  CUSPARSE_STATUS_ARCH_MISMATCH = 4,
  CUSPARSE_STATUS_MAPPING_ERROR = 5,
  CUSPARSE_STATUS_EXECUTION_FAILED = 6,
  CUSPARSE_STATUS_INTERNAL_ERROR = 7,
  CUSPARSE_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  CUSPARSE_STATUS_ZERO_PIVOT = 9,
  CUSPARSE_STATUS_NOT_SUPPORTED = 10,
  CUSPARSE_STATUS_INSUFFICIENT_RESOURCES = 11
} cusparseStatus_t;

typedef enum { CUSPARSE_POINTER_MODE_HOST = 0, CUSPARSE_POINTER_MODE_DEVICE = 1 } cusparsePointerMode_t;
typedef enum { CUSPARSE_ACTION_SYMBOLIC = 0, CUSPARSE_ACTION_NUMERIC = 1 } cusparseAction_t;
typedef enum {
  CUSPARSE_MATRIX_TYPE_GENERAL = 0,
  CUSPARSE_MATRIX_TYPE_SYMMETRIC = 1,
  CUSPARSE_MATRIX_TYPE_HERMITIAN = 2,
  CUSPARSE_MATRIX_TYPE_TRIANGULAR = 3
} cusparseMatrixType_t;
typedef enum { CUSPARSE_FILL_MODE_LOWER = 0, CUSPARSE_FILL_MODE_UPPER = 1 } cusparseFillMode_t;
typedef enum { CUSPARSE_DIAG_TYPE_NON_UNIT = 0, CUSPARSE_DIAG_TYPE_UNIT = 1 } cusparseDiagType_t;
typedef enum { CUSPARSE_INDEX_BASE_ZERO = 0, CUSPARSE_INDEX_BASE_ONE = 1 } cusparseIndexBase_t;
typedef enum {
  CUSPARSE_OPERATION_NON_TRANSPOSE = 0,
  CUSPARSE_OPERATION_TRANSPOSE = 1,
  CUSPARSE_OPERATION_CONJUGATE_TRANSPOSE = 2
} cusparseOperation_t;
typedef enum { CUSPARSE_DIRECTION_ROW = 0, CUSPARSE_DIRECTION_COLUMN = 1 } cusparseDirection_t;
typedef enum { CUSPARSE_CSR2CSC_ALG_DEFAULT = 1, CUSPARSE_CSR2CSC_ALG1 = 1 } cusparseCsr2CscAlg_t;
typedef enum {
  CUSPARSE_FORMAT_CSR = 1,
  CUSPARSE_FORMAT_CSC = 2,
  CUSPARSE_FORMAT_COO = 3,
  CUSPARSE_FORMAT_BLOCKED_ELL = 5,
  CUSPARSE_FORMAT_BSR = 6,
  CUSPARSE_FORMAT_SLICED_ELLPACK = 7
} cusparseFormat_t;
typedef enum { CUSPARSE_ORDER_COL = 1, CUSPARSE_ORDER_ROW = 2 } cusparseOrder_t;
typedef enum { CUSPARSE_INDEX_16U = 1, CUSPARSE_INDEX_32I = 2, CUSPARSE_INDEX_64I = 3 } cusparseIndexType_t;
typedef enum { CUSPARSE_SPMAT_FILL_MODE = 0, CUSPARSE_SPMAT_DIAG_TYPE = 1 } cusparseSpMatAttribute_t;
typedef enum {
  CUSPARSE_SPMV_ALG_DEFAULT = 0,
  CUSPARSE_SPMV_COO_ALG1 = 1,
  CUSPARSE_SPMV_CSR_ALG1 = 2,
  CUSPARSE_SPMV_CSR_ALG2 = 3,
  CUSPARSE_SPMV_COO_ALG2 = 4,
  CUSPARSE_SPMV_SELL_ALG1 = 5
} cusparseSpMVAlg_t;
typedef enum {
  CUSPARSE_SPMM_ALG_DEFAULT = 0,
  CUSPARSE_SPMM_COO_ALG1 = 1,
  CUSPARSE_SPMM_COO_ALG2 = 2,
  CUSPARSE_SPMM_COO_ALG3 = 3,
  CUSPARSE_SPMM_CSR_ALG1 = 4,
  CUSPARSE_SPMM_COO_ALG4 = 5,
  CUSPARSE_SPMM_CSR_ALG2 = 6,
  CUSPARSE_SPMM_CSR_ALG3 = 12,
  CUSPARSE_SPMM_BLOCKED_ELL_ALG1 = 13,
  CUSPARSE_SPMM_BSR_ALG1 = 14
} cusparseSpMMAlg_t;
typedef enum {
  CUSPARSE_SPGEMM_DEFAULT = 0,
  CUSPARSE_SPGEMM_CSR_ALG_DETERMINITIC = 1,
  CUSPARSE_SPGEMM_CSR_ALG_NONDETERMINITIC = 2,
  CUSPARSE_SPGEMM_ALG1 = 3,
  CUSPARSE_SPGEMM_ALG2 = 4,
  CUSPARSE_SPGEMM_ALG3 = 5
} cusparseSpGEMMAlg_t;
typedef enum { CUSPARSE_SPARSETODENSE_ALG_DEFAULT = 0 } cusparseSparseToDenseAlg_t;
typedef enum { CUSPARSE_DENSETOSPARSE_ALG_DEFAULT = 0 } cusparseDenseToSparseAlg_t;

struct cusparseContext;
typedef struct cusparseContext *cusparseHandle_t;
struct cusparseMatDescr;
typedef struct cusparseMatDescr *cusparseMatDescr_t;
struct csrilu02Info;
typedef struct csrilu02Info *csrilu02Info_t;
struct bsrilu02Info;
typedef struct bsrilu02Info *bsrilu02Info_t;
struct csric02Info;
typedef struct csric02Info *csric02Info_t;
struct bsric02Info;
typedef struct bsric02Info *bsric02Info_t;
struct cusparseSpVecDescr;
struct cusparseDnVecDescr;
struct cusparseSpMatDescr;
struct cusparseDnMatDescr;
struct cusparseSpGEMMDescr;
typedef struct cusparseSpVecDescr *cusparseSpVecDescr_t;
typedef struct cusparseDnVecDescr *cusparseDnVecDescr_t;
typedef struct cusparseSpMatDescr *cusparseSpMatDescr_t;
typedef struct cusparseDnMatDescr *cusparseDnMatDescr_t;
typedef struct cusparseSpVecDescr const *cusparseConstSpVecDescr_t;
typedef struct cusparseDnVecDescr const *cusparseConstDnVecDescr_t;
typedef struct cusparseSpMatDescr const *cusparseConstSpMatDescr_t;
typedef struct cusparseDnMatDescr const *cusparseConstDnMatDescr_t;
typedef struct cusparseSpGEMMDescr *cusparseSpGEMMDescr_t;

/* Management. */
cusparseStatus_t CUSPARSEAPI cusparseCreate(cusparseHandle_t *handle);
cusparseStatus_t CUSPARSEAPI cusparseDestroy(cusparseHandle_t handle);
cusparseStatus_t CUSPARSEAPI cusparseGetVersion(cusparseHandle_t handle, int *version);
cusparseStatus_t CUSPARSEAPI cusparseGetProperty(libraryPropertyType type, int *value);
const char *CUSPARSEAPI cusparseGetErrorName(cusparseStatus_t status);
const char *CUSPARSEAPI cusparseGetErrorString(cusparseStatus_t status);
cusparseStatus_t CUSPARSEAPI cusparseSetStream(cusparseHandle_t handle, cudaStream_t streamId);
cusparseStatus_t CUSPARSEAPI cusparseGetStream(cusparseHandle_t handle, cudaStream_t *streamId);
cusparseStatus_t CUSPARSEAPI cusparseGetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t *mode);
cusparseStatus_t CUSPARSEAPI cusparseSetPointerMode(cusparseHandle_t handle, cusparsePointerMode_t mode);

cusparseStatus_t CUSPARSEAPI cusparseCreateMatDescr(cusparseMatDescr_t *descrA);
cusparseStatus_t CUSPARSEAPI cusparseDestroyMatDescr(cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatType(cusparseMatDescr_t descrA, cusparseMatrixType_t type);
cusparseMatrixType_t CUSPARSEAPI cusparseGetMatType(const cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatFillMode(cusparseMatDescr_t descrA, cusparseFillMode_t fillMode);
cusparseFillMode_t CUSPARSEAPI cusparseGetMatFillMode(const cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatDiagType(cusparseMatDescr_t descrA, cusparseDiagType_t diagType);
cusparseDiagType_t CUSPARSEAPI cusparseGetMatDiagType(const cusparseMatDescr_t descrA);
cusparseStatus_t CUSPARSEAPI cusparseSetMatIndexBase(cusparseMatDescr_t descrA, cusparseIndexBase_t base);
cusparseIndexBase_t CUSPARSEAPI cusparseGetMatIndexBase(const cusparseMatDescr_t descrA);

cusparseStatus_t CUSPARSEAPI cusparseCreateCsrilu02Info(csrilu02Info_t *info);
cusparseStatus_t CUSPARSEAPI cusparseDestroyCsrilu02Info(csrilu02Info_t info);
cusparseStatus_t CUSPARSEAPI cusparseCreateBsrilu02Info(bsrilu02Info_t *info);
cusparseStatus_t CUSPARSEAPI cusparseDestroyBsrilu02Info(bsrilu02Info_t info);
cusparseStatus_t CUSPARSEAPI cusparseCreateCsric02Info(csric02Info_t *info);
cusparseStatus_t CUSPARSEAPI cusparseDestroyCsric02Info(csric02Info_t info);
cusparseStatus_t CUSPARSEAPI cusparseCreateBsric02Info(bsric02Info_t *info);
cusparseStatus_t CUSPARSEAPI cusparseDestroyBsric02Info(bsric02Info_t info);

/* Generic API: descriptors. */
cusparseStatus_t CUSPARSEAPI cusparseCreateSpVec(cusparseSpVecDescr_t *spVecDescr, int64_t size, int64_t nnz, void *indices, void *values,
                                                 cusparseIndexType_t idxType, cusparseIndexBase_t idxBase, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstSpVec(cusparseConstSpVecDescr_t *spVecDescr, int64_t size, int64_t nnz, const void *indices,
                                                      const void *values, cusparseIndexType_t idxType, cusparseIndexBase_t idxBase,
                                                      cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseDestroySpVec(cusparseConstSpVecDescr_t spVecDescr);
cusparseStatus_t CUSPARSEAPI cusparseSpVecGet(cusparseSpVecDescr_t spVecDescr, int64_t *size, int64_t *nnz, void **indices, void **values,
                                              cusparseIndexType_t *idxType, cusparseIndexBase_t *idxBase, cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseSpVecGetIndexBase(cusparseConstSpVecDescr_t spVecDescr, cusparseIndexBase_t *idxBase);
cusparseStatus_t CUSPARSEAPI cusparseSpVecGetValues(cusparseSpVecDescr_t spVecDescr, void **values);
cusparseStatus_t CUSPARSEAPI cusparseSpVecSetValues(cusparseSpVecDescr_t spVecDescr, void *values);

cusparseStatus_t CUSPARSEAPI cusparseCreateDnVec(cusparseDnVecDescr_t *dnVecDescr, int64_t size, void *values, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnVec(cusparseConstDnVecDescr_t *dnVecDescr, int64_t size, const void *values,
                                                      cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseDestroyDnVec(cusparseConstDnVecDescr_t dnVecDescr);
cusparseStatus_t CUSPARSEAPI cusparseDnVecGet(cusparseDnVecDescr_t dnVecDescr, int64_t *size, void **values, cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseDnVecGetValues(cusparseDnVecDescr_t dnVecDescr, void **values);
cusparseStatus_t CUSPARSEAPI cusparseDnVecSetValues(cusparseDnVecDescr_t dnVecDescr, void *values);

cusparseStatus_t CUSPARSEAPI cusparseCreateCsr(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz, void *csrRowOffsets,
                                               void *csrColInd, void *csrValues, cusparseIndexType_t csrRowOffsetsType,
                                               cusparseIndexType_t csrColIndType, cusparseIndexBase_t idxBase, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsr(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                                    const void *csrRowOffsets, const void *csrColInd, const void *csrValues,
                                                    cusparseIndexType_t csrRowOffsetsType, cusparseIndexType_t csrColIndType,
                                                    cusparseIndexBase_t idxBase, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateCsc(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz, void *cscColOffsets,
                                               void *cscRowInd, void *cscValues, cusparseIndexType_t cscColOffsetsType,
                                               cusparseIndexType_t cscRowIndType, cusparseIndexBase_t idxBase, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstCsc(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                                    const void *cscColOffsets, const void *cscRowInd, const void *cscValues,
                                                    cusparseIndexType_t cscColOffsetsType, cusparseIndexType_t cscRowIndType,
                                                    cusparseIndexBase_t idxBase, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateCoo(cusparseSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz, void *cooRowInd,
                                               void *cooColInd, void *cooValues, cusparseIndexType_t cooIdxType, cusparseIndexBase_t idxBase,
                                               cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstCoo(cusparseConstSpMatDescr_t *spMatDescr, int64_t rows, int64_t cols, int64_t nnz,
                                                    const void *cooRowInd, const void *cooColInd, const void *cooValues,
                                                    cusparseIndexType_t cooIdxType, cusparseIndexBase_t idxBase, cudaDataType valueType);
cusparseStatus_t CUSPARSEAPI cusparseDestroySpMat(cusparseConstSpMatDescr_t spMatDescr);
cusparseStatus_t CUSPARSEAPI cusparseCsrGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz, void **csrRowOffsets,
                                            void **csrColInd, void **csrValues, cusparseIndexType_t *csrRowOffsetsType,
                                            cusparseIndexType_t *csrColIndType, cusparseIndexBase_t *idxBase, cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseCscGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz, void **cscColOffsets,
                                            void **cscRowInd, void **cscValues, cusparseIndexType_t *cscColOffsetsType,
                                            cusparseIndexType_t *cscRowIndType, cusparseIndexBase_t *idxBase, cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseCooGet(cusparseSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz, void **cooRowInd,
                                            void **cooColInd, void **cooValues, cusparseIndexType_t *idxType, cusparseIndexBase_t *idxBase,
                                            cudaDataType *valueType);
cusparseStatus_t CUSPARSEAPI cusparseCsrSetPointers(cusparseSpMatDescr_t spMatDescr, void *csrRowOffsets, void *csrColInd, void *csrValues);
cusparseStatus_t CUSPARSEAPI cusparseCscSetPointers(cusparseSpMatDescr_t spMatDescr, void *cscColOffsets, void *cscRowInd, void *cscValues);
cusparseStatus_t CUSPARSEAPI cusparseCooSetPointers(cusparseSpMatDescr_t spMatDescr, void *cooRows, void *cooColumns, void *cooValues);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetSize(cusparseConstSpMatDescr_t spMatDescr, int64_t *rows, int64_t *cols, int64_t *nnz);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetFormat(cusparseConstSpMatDescr_t spMatDescr, cusparseFormat_t *format);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetIndexBase(cusparseConstSpMatDescr_t spMatDescr, cusparseIndexBase_t *idxBase);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetValues(cusparseSpMatDescr_t spMatDescr, void **values);
cusparseStatus_t CUSPARSEAPI cusparseSpMatSetValues(cusparseSpMatDescr_t spMatDescr, void *values);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetStridedBatch(cusparseConstSpMatDescr_t spMatDescr, int *batchCount);
cusparseStatus_t CUSPARSEAPI cusparseCsrSetStridedBatch(cusparseSpMatDescr_t spMatDescr, int batchCount, int64_t offsetsBatchStride,
                                                        int64_t columnsValuesBatchStride);
cusparseStatus_t CUSPARSEAPI cusparseCooSetStridedBatch(cusparseSpMatDescr_t spMatDescr, int batchCount, int64_t batchStride);
cusparseStatus_t CUSPARSEAPI cusparseSpMatGetAttribute(cusparseConstSpMatDescr_t spMatDescr, cusparseSpMatAttribute_t attribute, void *data,
                                                       size_t dataSize);
cusparseStatus_t CUSPARSEAPI cusparseSpMatSetAttribute(cusparseSpMatDescr_t spMatDescr, cusparseSpMatAttribute_t attribute, void *data,
                                                       size_t dataSize);

cusparseStatus_t CUSPARSEAPI cusparseCreateDnMat(cusparseDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols, int64_t ld, void *values,
                                                 cudaDataType valueType, cusparseOrder_t order);
cusparseStatus_t CUSPARSEAPI cusparseCreateConstDnMat(cusparseConstDnMatDescr_t *dnMatDescr, int64_t rows, int64_t cols, int64_t ld,
                                                      const void *values, cudaDataType valueType, cusparseOrder_t order);
cusparseStatus_t CUSPARSEAPI cusparseDestroyDnMat(cusparseConstDnMatDescr_t dnMatDescr);
cusparseStatus_t CUSPARSEAPI cusparseDnMatGet(cusparseDnMatDescr_t dnMatDescr, int64_t *rows, int64_t *cols, int64_t *ld, void **values,
                                              cudaDataType *type, cusparseOrder_t *order);
cusparseStatus_t CUSPARSEAPI cusparseDnMatGetValues(cusparseDnMatDescr_t dnMatDescr, void **values);
cusparseStatus_t CUSPARSEAPI cusparseDnMatSetValues(cusparseDnMatDescr_t dnMatDescr, void *values);
cusparseStatus_t CUSPARSEAPI cusparseDnMatSetStridedBatch(cusparseDnMatDescr_t dnMatDescr, int batchCount, int64_t batchStride);
cusparseStatus_t CUSPARSEAPI cusparseDnMatGetStridedBatch(cusparseConstDnMatDescr_t dnMatDescr, int *batchCount, int64_t *batchStride);

/* Generic API: operations. */
cusparseStatus_t CUSPARSEAPI cusparseSpVV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opX, cusparseConstSpVecDescr_t vecX,
                                                     cusparseConstDnVecDescr_t vecY, const void *result, cudaDataType computeType,
                                                     size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSpVV(cusparseHandle_t handle, cusparseOperation_t opX, cusparseConstSpVecDescr_t vecX,
                                          cusparseConstDnVecDescr_t vecY, void *result, cudaDataType computeType, void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseGather(cusparseHandle_t handle, cusparseConstDnVecDescr_t vecY, cusparseSpVecDescr_t vecX);
cusparseStatus_t CUSPARSEAPI cusparseScatter(cusparseHandle_t handle, cusparseConstSpVecDescr_t vecX, cusparseDnVecDescr_t vecY);

cusparseStatus_t CUSPARSEAPI cusparseSpMV_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void *beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
                                                     size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSpMV_preprocess(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha,
                                                     cusparseConstSpMatDescr_t matA, cusparseConstDnVecDescr_t vecX, const void *beta,
                                                     cusparseDnVecDescr_t vecY, cudaDataType computeType, cusparseSpMVAlg_t alg,
                                                     void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseSpMV(cusparseHandle_t handle, cusparseOperation_t opA, const void *alpha, cusparseConstSpMatDescr_t matA,
                                          cusparseConstDnVecDescr_t vecX, const void *beta, cusparseDnVecDescr_t vecY,
                                          cudaDataType computeType, cusparseSpMVAlg_t alg, void *externalBuffer);

cusparseStatus_t CUSPARSEAPI cusparseSpMM_bufferSize(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                                     const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                     const void *beta, cusparseDnMatDescr_t matC, cudaDataType computeType,
                                                     cusparseSpMMAlg_t alg, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSpMM_preprocess(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                                     const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB,
                                                     const void *beta, cusparseDnMatDescr_t matC, cudaDataType computeType,
                                                     cusparseSpMMAlg_t alg, void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseSpMM(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha,
                                          cusparseConstSpMatDescr_t matA, cusparseConstDnMatDescr_t matB, const void *beta,
                                          cusparseDnMatDescr_t matC, cudaDataType computeType, cusparseSpMMAlg_t alg, void *externalBuffer);

cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_createDescr(cusparseSpGEMMDescr_t *descr);
cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_destroyDescr(cusparseSpGEMMDescr_t descr);
cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_workEstimation(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                                           const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB,
                                                           const void *beta, cusparseSpMatDescr_t matC, cudaDataType computeType,
                                                           cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize1,
                                                           void *externalBuffer1);
cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_compute(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB,
                                                    const void *alpha, cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB,
                                                    const void *beta, cusparseSpMatDescr_t matC, cudaDataType computeType,
                                                    cusparseSpGEMMAlg_t alg, cusparseSpGEMMDescr_t spgemmDescr, size_t *bufferSize2,
                                                    void *externalBuffer2);
cusparseStatus_t CUSPARSEAPI cusparseSpGEMM_copy(cusparseHandle_t handle, cusparseOperation_t opA, cusparseOperation_t opB, const void *alpha,
                                                 cusparseConstSpMatDescr_t matA, cusparseConstSpMatDescr_t matB, const void *beta,
                                                 cusparseSpMatDescr_t matC, cudaDataType computeType, cusparseSpGEMMAlg_t alg,
                                                 cusparseSpGEMMDescr_t spgemmDescr);

cusparseStatus_t CUSPARSEAPI cusparseSparseToDense_bufferSize(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA,
                                                              cusparseDnMatDescr_t matB, cusparseSparseToDenseAlg_t alg, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseSparseToDense(cusparseHandle_t handle, cusparseConstSpMatDescr_t matA, cusparseDnMatDescr_t matB,
                                                   cusparseSparseToDenseAlg_t alg, void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_bufferSize(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                              cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_analysis(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                            cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg, void *externalBuffer);
cusparseStatus_t CUSPARSEAPI cusparseDenseToSparse_convert(cusparseHandle_t handle, cusparseConstDnMatDescr_t matA,
                                                           cusparseSpMatDescr_t matB, cusparseDenseToSparseAlg_t alg, void *externalBuffer);

/* Format conversions and sorting (32-bit indices). */
cusparseStatus_t CUSPARSEAPI cusparseCsr2cscEx2_bufferSize(cusparseHandle_t handle, int m, int n, int nnz, const void *csrVal,
                                                           const int *csrRowPtr, const int *csrColInd, void *cscVal, int *cscColPtr,
                                                           int *cscRowInd, cudaDataType valType, cusparseAction_t copyValues,
                                                           cusparseIndexBase_t idxBase, cusparseCsr2CscAlg_t alg, size_t *bufferSize);
cusparseStatus_t CUSPARSEAPI cusparseCsr2cscEx2(cusparseHandle_t handle, int m, int n, int nnz, const void *csrVal, const int *csrRowPtr,
                                                const int *csrColInd, void *cscVal, int *cscColPtr, int *cscRowInd, cudaDataType valType,
                                                cusparseAction_t copyValues, cusparseIndexBase_t idxBase, cusparseCsr2CscAlg_t alg,
                                                void *buffer);
cusparseStatus_t CUSPARSEAPI cusparseXcoo2csr(cusparseHandle_t handle, const int *cooRowInd, int nnz, int m, int *csrRowPtr,
                                              cusparseIndexBase_t idxBase);
cusparseStatus_t CUSPARSEAPI cusparseXcsr2coo(cusparseHandle_t handle, const int *csrRowPtr, int nnz, int m, int *cooRowInd,
                                              cusparseIndexBase_t idxBase);
cusparseStatus_t CUSPARSEAPI cusparseCreateIdentityPermutation(cusparseHandle_t handle, int n, int *p);
cusparseStatus_t CUSPARSEAPI cusparseXcsrsort_bufferSizeExt(cusparseHandle_t handle, int m, int n, int nnz, const int *csrRowPtrA,
                                                            const int *csrColIndA, size_t *pBufferSizeInBytes);
cusparseStatus_t CUSPARSEAPI cusparseXcsrsort(cusparseHandle_t handle, int m, int n, int nnz, const cusparseMatDescr_t descrA,
                                              const int *csrRowPtrA, int *csrColIndA, int *P, void *pBuffer);
cusparseStatus_t CUSPARSEAPI cusparseXcscsort_bufferSizeExt(cusparseHandle_t handle, int m, int n, int nnz, const int *cscColPtrA,
                                                            const int *cscRowIndA, size_t *pBufferSizeInBytes);
cusparseStatus_t CUSPARSEAPI cusparseXcscsort(cusparseHandle_t handle, int m, int n, int nnz, const cusparseMatDescr_t descrA,
                                              const int *cscColPtrA, int *cscRowIndA, int *P, void *pBuffer);
cusparseStatus_t CUSPARSEAPI cusparseXcoosort_bufferSizeExt(cusparseHandle_t handle, int m, int n, int nnz, const int *cooRowsA,
                                                            const int *cooColsA, size_t *pBufferSizeInBytes);
cusparseStatus_t CUSPARSEAPI cusparseXcoosortByRow(cusparseHandle_t handle, int m, int n, int nnz, int *cooRowsA, int *cooColsA, int *P,
                                                   void *pBuffer);
cusparseStatus_t CUSPARSEAPI cusparseXcoosortByColumn(cusparseHandle_t handle, int m, int n, int nnz, int *cooRowsA, int *cooColsA, int *P,
                                                      void *pBuffer);

/* Dense nonzero counts, csrgeam2 and compression. */
#define CUSPARSE_TYPED_NNZ(P, T)                                                                                                        \
  cusparseStatus_t CUSPARSEAPI cusparse##P##nnz(cusparseHandle_t handle, cusparseDirection_t dirA, int m, int n,                        \
                                                const cusparseMatDescr_t descrA, const T *A, int lda, int *nnzPerRowCol,                \
                                                int *nnzTotalDevHostPtr);                                                               \
  cusparseStatus_t CUSPARSEAPI cusparse##P##csrgeam2_bufferSizeExt(                                                                     \
      cusparseHandle_t handle, int m, int n, const T *alpha, const cusparseMatDescr_t descrA, int nnzA, const T *csrSortedValA,         \
      const int *csrSortedRowPtrA, const int *csrSortedColIndA, const T *beta, const cusparseMatDescr_t descrB, int nnzB,               \
      const T *csrSortedValB, const int *csrSortedRowPtrB, const int *csrSortedColIndB, const cusparseMatDescr_t descrC,               \
      const T *csrSortedValC, const int *csrSortedRowPtrC, const int *csrSortedColIndC, size_t *pBufferSizeInBytes);                  \
  cusparseStatus_t CUSPARSEAPI cusparse##P##csrgeam2(                                                                                   \
      cusparseHandle_t handle, int m, int n, const T *alpha, const cusparseMatDescr_t descrA, int nnzA, const T *csrSortedValA,         \
      const int *csrSortedRowPtrA, const int *csrSortedColIndA, const T *beta, const cusparseMatDescr_t descrB, int nnzB,               \
      const T *csrSortedValB, const int *csrSortedRowPtrB, const int *csrSortedColIndB, const cusparseMatDescr_t descrC,               \
      T *csrSortedValC, int *csrSortedRowPtrC, int *csrSortedColIndC, void *pBuffer);                                                  \
  cusparseStatus_t CUSPARSEAPI cusparse##P##nnz_compress(cusparseHandle_t handle, int m, const cusparseMatDescr_t descr,                \
                                                         const T *csrSortedValA, const int *csrSortedRowPtrA, int *nnzPerRow, int *nnzC, \
                                                         T tol);                                                                        \
  cusparseStatus_t CUSPARSEAPI cusparse##P##csr2csr_compress(                                                                           \
      cusparseHandle_t handle, int m, int n, const cusparseMatDescr_t descrA, const T *csrSortedValA, const int *csrSortedColIndA,      \
      const int *csrSortedRowPtrA, int nnzA, const int *nnzPerRow, T *csrSortedValC, int *csrSortedColIndC, int *csrSortedRowPtrC,     \
      T tol);
CUSPARSE_TYPED_NNZ(S, float)
CUSPARSE_TYPED_NNZ(D, double)
CUSPARSE_TYPED_NNZ(C, cuComplex)
CUSPARSE_TYPED_NNZ(Z, cuDoubleComplex)
#undef CUSPARSE_TYPED_NNZ

cusparseStatus_t CUSPARSEAPI cusparseXcsrgeam2Nnz(cusparseHandle_t handle, int m, int n, const cusparseMatDescr_t descrA, int nnzA,
                                                  const int *csrSortedRowPtrA, const int *csrSortedColIndA, const cusparseMatDescr_t descrB,
                                                  int nnzB, const int *csrSortedRowPtrB, const int *csrSortedColIndB,
                                                  const cusparseMatDescr_t descrC, int *csrSortedRowPtrC, int *nnzTotalDevHostPtr,
                                                  void *workspace);

#if defined(__cplusplus)
}
#endif

#endif /* CUSPARSE_H_ */
