/* cusolver_common.h: cuSOLVER's shared types, as this project's libcusolver implements
 * them (names and values from NVIDIA's cuSOLVER documentation). */
#ifndef CUSOLVER_COMMON_H_
#define CUSOLVER_COMMON_H_

#include "library_types.h"

#define CUSOLVER_VER_MAJOR 12
#define CUSOLVER_VER_MINOR 0
#define CUSOLVER_VER_PATCH 0
#define CUSOLVER_VERSION (CUSOLVER_VER_MAJOR * 1000 + CUSOLVER_VER_MINOR * 100 + CUSOLVER_VER_PATCH)

typedef enum {
  CUSOLVER_STATUS_SUCCESS = 0,
  CUSOLVER_STATUS_NOT_INITIALIZED = 1,
  CUSOLVER_STATUS_ALLOC_FAILED = 2,
  CUSOLVER_STATUS_INVALID_VALUE = 3,
  CUSOLVER_STATUS_ARCH_MISMATCH = 4,
  CUSOLVER_STATUS_MAPPING_ERROR = 5,
  CUSOLVER_STATUS_EXECUTION_FAILED = 6,
  CUSOLVER_STATUS_INTERNAL_ERROR = 7,
  CUSOLVER_STATUS_MATRIX_TYPE_NOT_SUPPORTED = 8,
  CUSOLVER_STATUS_NOT_SUPPORTED = 9,
  CUSOLVER_STATUS_ZERO_PIVOT = 10,
  CUSOLVER_STATUS_INVALID_LICENSE = 11
} cusolverStatus_t;

typedef enum { CUSOLVER_EIG_TYPE_1 = 1, CUSOLVER_EIG_TYPE_2 = 2, CUSOLVER_EIG_TYPE_3 = 3 } cusolverEigType_t;
typedef enum { CUSOLVER_EIG_MODE_NOVECTOR = 0, CUSOLVER_EIG_MODE_VECTOR = 1 } cusolverEigMode_t;

#if defined(__cplusplus)
extern "C" {
#endif
cusolverStatus_t cusolverGetProperty(libraryPropertyType type, int* value);
cusolverStatus_t cusolverGetVersion(int* version);
#if defined(__cplusplus)
}
#endif

#endif /* CUSOLVER_COMMON_H_ */
